//! Checks of the path-sum engine: brute force over all trees in rationals, the special
//! cases against the P-game and N-game engines, f64 against exact within the bound.

use std::collections::BTreeMap;

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::*;
use num_traits::ToPrimitive;

fn r(text: &str) -> BigRational {
    parse_rational(text).unwrap()
}

fn law(text: &str) -> Law {
    Law::parse("--law", text).unwrap()
}

/// A subtree's outcome law: (true value, backed-up evaluation) in absolute values, by
/// plain enumeration (no grid, no shift, no CDF): each child draws its step and then its
/// own subtree outcome, and every b-tuple of children is enumerated.
struct Brute<'a> {
    game: &'a PathSumGame,
    front: u32,
    memo: BTreeMap<(u32, BigRational), Outcomes>,
}

/// (true value, evaluation) pairs with their probabilities.
type Outcomes = Vec<((BigRational, BigRational), BigRational)>;

impl Brute<'_> {
    fn truth(&self, value: &BigRational) -> BigRational {
        match self.game.outcome {
            Outcome::Value => value.clone(),
            Outcome::Sign => {
                if *value > BigRational::zero() {
                    BigRational::one()
                } else {
                    BigRational::zero()
                }
            }
        }
    }

    /// The exact outcomes of a leaf or terminal node at position s (evaluated exactly).
    fn leaf(&self, s: &BigRational) -> Outcomes {
        self.game
            .leaf
            .atoms()
            .iter()
            .map(|(y, p)| {
                let v = self.truth(&(s + y));
                ((v.clone(), v), p.clone())
            })
            .collect()
    }

    /// The front evaluation of a non-terminal node of true value v at position s, binned
    /// by `--levels` (plain rationals: bin k = floor((e - LO) / w) clamped to 0..G, read as
    /// LO + (k + 1/2) w).
    fn evaluate(&self, v: &BigRational, s: &BigRational) -> Outcomes {
        let Some(levels) = &self.game.levels else {
            return self.evaluate_unbinned(v, s);
        };
        let g = BigRational::from_integer(levels.count.into());
        let w = (&levels.high - &levels.low) / &g;
        let half = BigRational::new(1.into(), 2.into());
        self.evaluate_unbinned(v, s)
            .into_iter()
            .map(|((v, e), p)| {
                let k = ((&e - &levels.low) / &w)
                    .floor()
                    .max(BigRational::zero())
                    .min(&g - BigRational::one());
                ((v, &levels.low + (k + &half) * &w), p)
            })
            .collect()
    }

    fn evaluate_unbinned(&self, v: &BigRational, s: &BigRational) -> Outcomes {
        match &self.game.evaluator {
            Evaluator::Perfect => vec![((v.clone(), v.clone()), BigRational::one())],
            Evaluator::Position => vec![((v.clone(), s.clone()), BigRational::one())],
            Evaluator::Additive { noise } => noise
                .atoms()
                .iter()
                .map(|(n, p)| ((v.clone(), v + n), p.clone()))
                .collect(),
            Evaluator::Artificial { error } => vec![
                ((v.clone(), v.clone()), BigRational::one() - error),
                ((v.clone(), BigRational::one() - v), error.clone()),
            ],
        }
    }

    /// Outcomes of a node at `height` and position `s` (its evaluation meaningful only at
    /// or above the front).
    fn node(&mut self, height: u32, s: &BigRational) -> Outcomes {
        if let Some(o) = self.memo.get(&(height, s.clone())) {
            return o.clone();
        }
        let evaluated = height >= self.front;
        let mut out: BTreeMap<(BigRational, BigRational), BigRational> = BTreeMap::new();
        let add = |out: &mut BTreeMap<_, BigRational>, k: (BigRational, BigRational), p| {
            *out.entry(k).or_insert_with(BigRational::zero) += p;
        };
        if height == 0 {
            for ((v, e), p) in self.leaf(s) {
                let e = if evaluated { e } else { BigRational::zero() };
                add(&mut out, (v, e), p);
            }
        } else {
            let t = if height < self.game.height {
                self.game.terminal.clone()
            } else {
                BigRational::zero()
            };
            if !t.is_zero() {
                for ((v, e), p) in self.leaf(s) {
                    let e = if evaluated { e } else { BigRational::zero() };
                    add(&mut out, (v, e), p * &t);
                }
            }
            // children: (step, child outcome) options
            let mut options: Outcomes = Vec::new();
            for (x, px) in self.game.step.atoms().to_vec() {
                for ((v, e), p) in self.node(height - 1, &(s + &x)) {
                    options.push(((v, e), p * &px));
                }
            }
            let max = height % 2 == 1;
            let b = self.game.branching as usize;
            let mut index = vec![0usize; b];
            loop {
                let mut p = BigRational::one() - &t;
                let mut best_v: Option<BigRational> = None;
                let mut best_e: Option<BigRational> = None;
                for &i in &index {
                    let ((v, e), q) = &options[i];
                    p *= q;
                    let better = |a: &BigRational, b: &Option<BigRational>| match b {
                        None => true,
                        Some(b) => (max && a > b) || (!max && a < b),
                    };
                    if better(v, &best_v) {
                        best_v = Some(v.clone());
                    }
                    if better(e, &best_e) {
                        best_e = Some(e.clone());
                    }
                }
                let v = best_v.unwrap();
                if height == self.front {
                    for ((v, e), q) in self.evaluate(&v, s) {
                        add(&mut out, (v, e), &p * q);
                    }
                } else {
                    let e = if evaluated {
                        best_e.unwrap()
                    } else {
                        BigRational::zero()
                    };
                    add(&mut out, (v, e), p);
                }
                // next tuple
                let mut k = 0;
                while k < b {
                    index[k] += 1;
                    if index[k] < options.len() {
                        break;
                    }
                    index[k] = 0;
                    k += 1;
                }
                if k == b {
                    break;
                }
            }
        }
        let out: Outcomes = out.into_iter().filter(|(_, p)| !p.is_zero()).collect();
        self.memo.insert((height, s.clone()), out.clone());
        out
    }
}

/// (D, P(optimal), loss, bias mean, nontrivial) by enumerating every b-tuple of the root's
/// children and playing the move with explicit uniform tie-breaking.
fn brute_force(game: &PathSumGame, depth: u32) -> [BigRational; 5] {
    let h = game.height;
    let mut brute = Brute {
        game,
        front: h - depth,
        memo: BTreeMap::new(),
    };
    let mut options: Outcomes = Vec::new();
    for (x, px) in game.step.atoms().to_vec() {
        for ((v, e), p) in brute.node(h - 1, &x) {
            options.push(((v, e), p * &px));
        }
    }
    let b = game.branching as usize;
    let max = h % 2 == 1;
    let zero = BigRational::zero;
    let (mut correct, mut nontrivial, mut correct_nt, mut loss, mut bias) =
        (zero(), zero(), zero(), zero(), zero());
    let mut index = vec![0usize; b];
    loop {
        let mut p = BigRational::one();
        for &i in &index {
            p *= &options[i].1;
        }
        let vs: Vec<&BigRational> = index.iter().map(|&i| &options[i].0.0).collect();
        let es: Vec<&BigRational> = index.iter().map(|&i| &options[i].0.1).collect();
        let pick = |xs: &[&BigRational]| -> BigRational {
            let mut best = xs[0].clone();
            for x in xs {
                if (max && **x > best) || (!max && **x < best) {
                    best = (*x).clone();
                }
            }
            best
        };
        let root_v = pick(&vs);
        let root_e = pick(&es);
        let chosen: Vec<usize> = (0..b).filter(|&i| *es[i] == root_e).collect();
        let share = BigRational::new(1.into(), (chosen.len() as i64).into());
        let mut p_correct = BigRational::zero();
        let mut l = BigRational::zero();
        for &i in &chosen {
            if *vs[i] == root_v {
                p_correct += &share;
            }
            let gap = if max {
                &root_v - vs[i]
            } else {
                vs[i] - &root_v
            };
            l += &share * gap;
        }
        let trivial = vs.iter().all(|v| **v == root_v);
        correct += &p * &p_correct;
        loss += &p * l;
        bias += &p * (&root_e - &root_v);
        if !trivial {
            nontrivial += &p;
            correct_nt += &p * &p_correct;
        }
        let mut k = 0;
        while k < b {
            index[k] += 1;
            if index[k] < options.len() {
                break;
            }
            index[k] = 0;
            k += 1;
        }
        if k == b {
            break;
        }
    }
    [correct_nt / &nontrivial, correct, loss, bias, nontrivial]
}

fn game(
    b: u32,
    h: u32,
    step: &str,
    leaf: &str,
    terminal: &str,
    outcome: Outcome,
    ev: Evaluator,
) -> PathSumGame {
    PathSumGame {
        branching: b,
        height: h,
        step: law(step),
        leaf: law(leaf),
        terminal: r(terminal),
        outcome,
        evaluator: ev,
        levels: None,
    }
}

fn check_against_brute_force(g: &PathSumGame) {
    let depths: Vec<u32> = (1..=g.height).collect();
    let column = pathsum_column::<BigRational>(g, &depths).unwrap();
    for row in &column.rows {
        let [d, optimal, loss, bias, nontrivial] = brute_force(g, row.depth);
        let what = format!("{g:?} d = {}", row.depth);
        assert_eq!(row.decision, d, "D {what}");
        assert_eq!(row.optimal, optimal, "optimal {what}");
        assert_eq!(row.loss, loss, "loss {what}");
        if let Some(mean) = &row.bias_mean {
            assert_eq!(*mean, bias, "bias {what}");
        }
        assert_eq!(column.nontrivial, nontrivial, "nontrivial {what}");
    }
}

#[test]
fn equals_brute_force_on_value_outcomes() {
    let noise = Evaluator::Additive {
        noise: law("1:1/4,0:1/2,-1:1/4"),
    };
    for (b, h) in [(2, 1), (2, 2), (2, 3), (3, 2), (2, 4)] {
        for ev in [Evaluator::Perfect, Evaluator::Position, noise.clone()] {
            for terminal in ["0", "1/5"] {
                let g = game(
                    b,
                    h,
                    "1:2/5,0:1/5,-1:2/5",
                    "1/2:1/3,-1/2:2/3",
                    terminal,
                    Outcome::Value,
                    ev.clone(),
                );
                check_against_brute_force(&g);
            }
        }
    }
    // pure path sums and skewed, non-symmetric laws
    let g = game(
        3,
        3,
        "2:1/3,-1:2/3",
        "0",
        "1/3",
        Outcome::Value,
        Evaluator::Position,
    );
    check_against_brute_force(&g);
    let g = game(2, 3, "0", "0:1/4,1:1/2,3:1/4", "0", Outcome::Value, noise);
    check_against_brute_force(&g);
}

#[test]
fn equals_brute_force_on_sign_outcomes() {
    for (b, h) in [(2, 2), (2, 3), (3, 2), (2, 4)] {
        let art = Evaluator::Artificial { error: r("1/10") };
        let noise = Evaluator::Additive {
            noise: law("1/2:1/4,0:1/2,-1/2:1/4"),
        };
        for ev in [Evaluator::Perfect, art, noise] {
            for terminal in ["0", "1/4"] {
                let g = game(
                    b,
                    h,
                    "1:3/5,-1:2/5",
                    "0:1/2,1/2:1/2",
                    terminal,
                    Outcome::Sign,
                    ev.clone(),
                );
                check_against_brute_force(&g);
            }
        }
        let g = game(
            b,
            h,
            "1:1/2,-1:1/2",
            "0",
            "0",
            Outcome::Sign,
            Evaluator::Position,
        );
        check_against_brute_force(&g);
    }
}

#[test]
fn f64_agrees_with_exact_within_the_bound() {
    let g = game(
        2,
        7,
        "1:1/3,0:1/3,-1:1/3",
        "1:1/4,0:1/2,-1:1/4",
        "1/10",
        Outcome::Value,
        Evaluator::Additive {
            noise: law("2:1/8,1:1/4,0:1/4,-1:1/4,-2:1/8"),
        },
    );
    let depths: Vec<u32> = (1..=7).collect();
    let exact = pathsum_column::<BigRational>(&g, &depths).unwrap();
    let float = pathsum_column::<f64>(&g, &depths).unwrap();
    for (e, f) in exact.rows.iter().zip(&float.rows) {
        let pairs = [
            (&e.decision, f.decision, f.bounds[0]),
            (&e.optimal, f.optimal, f.bounds[1]),
            (&e.loss, f.loss, f.bounds[2]),
            (
                e.bias_mean.as_ref().unwrap(),
                f.bias_mean.unwrap(),
                f.bounds[3],
            ),
        ];
        for (x, y, bound) in pairs {
            let gap = (Probability::to_f64(x) - y).abs();
            assert!(gap <= bound, "d = {}: {gap} > {bound}", e.depth);
            assert!(bound < 1e-9, "bound {bound}");
        }
        assert_eq!(e.bias_quantiles, f.bias_quantiles);
    }
}

#[test]
fn bad_input_names_the_argument() {
    let cases = [
        ("--step", Law::parse("--step", "1:1/2,-1:1/4").map(|_| ())),
        ("--step", Law::parse("--step", "1:-1/2,-1:3/2").map(|_| ())),
        ("--step", Law::parse("--step", "1:1/2,1:1/2").map(|_| ())),
        ("--leaf", Law::parse("--leaf", "x:1").map(|_| ())),
    ];
    for (name, result) in cases {
        assert!(result.unwrap_err().to_string().starts_with(name));
    }
    let mut g = game(
        2,
        3,
        "1:1/2,-1:1/2",
        "0",
        "0",
        Outcome::Value,
        Evaluator::Perfect,
    );
    g.terminal = r("-1/2");
    assert!(
        g.validate()
            .unwrap_err()
            .to_string()
            .starts_with("--terminal")
    );
    g.terminal = r("0");
    g.evaluator = Evaluator::Artificial { error: r("1/10") };
    assert!(
        g.validate()
            .unwrap_err()
            .to_string()
            .starts_with("--evaluator artificial")
    );
    g.outcome = Outcome::Sign;
    g.evaluator = Evaluator::Artificial { error: r("3/2") };
    assert!(g.validate().unwrap_err().to_string().starts_with("--e "));
    let g = game(2, 3, "0", "1", "0", Outcome::Value, Evaluator::Perfect);
    let err = pathsum_column::<BigRational>(&g, &[1]).unwrap_err();
    assert!(err.to_string().starts_with("--step"), "{err}");
    let g = game(
        2,
        40,
        "1:1/2,-1:1/2",
        "0",
        "0",
        Outcome::Value,
        Evaluator::Perfect,
    );
    let err = pathsum_column::<BigRational>(&g, &[1, 40]).unwrap_err();
    assert!(err.to_string().contains("refused"), "{err}");
}

/// Continuous laws as their stated discretization. `gaussian:S` and
/// `uniform:A` are symmetric laws summing to 1 exactly, their text reads back to the same
/// law, and the engine's f64 values lie within their bounds of the exact ones.
#[test]
fn continuous_laws_are_their_stated_discretizations() {
    for text in ["gaussian:1", "gaussian:0.3", "uniform:2", "uniform:1/3"] {
        let law = law(text);
        let total: BigRational = law.atoms().iter().map(|(_, p)| p.clone()).sum();
        assert!(total.is_one(), "{text}");
        for ((v, p), (w, q)) in law.atoms().iter().zip(law.atoms().iter().rev()) {
            assert_eq!((v, p), (&-w.clone(), q), "{text} is symmetric");
        }
        assert_eq!(Law::parse("--law", &law.text()).unwrap(), law);
    }
    // The Gaussian's cells: the atom at S/4 holds P(1/8 < Z < 3/8) to 2^-40.
    let normal = law("gaussian:1");
    let (value, p) = &normal.atoms()[17];
    assert_eq!(value, &r("1/4"));
    let mass = 0.5
        * (libm::erfc(-0.375 / std::f64::consts::SQRT_2)
            - libm::erfc(-0.125 / std::f64::consts::SQRT_2));
    assert!((ToPrimitive::to_f64(p).unwrap() - mass).abs() < 1e-12);
    let game = PathSumGame {
        branching: 2,
        height: 4,
        step: law("gaussian:1"),
        leaf: law("uniform:1/2"),
        terminal: r("1/10"),
        outcome: Outcome::Value,
        evaluator: Evaluator::Additive {
            noise: law("gaussian:1/2"),
        },
        levels: None,
    };
    let exact = pathsum_column::<BigRational>(&game, &[1, 2, 3]).unwrap();
    let fast = pathsum_column::<f64>(&game, &[1, 2, 3]).unwrap();
    for (e, f) in exact.rows.iter().zip(&fast.rows) {
        let gap = (ToPrimitive::to_f64(&e.decision).unwrap() - f.decision).abs();
        assert!(gap <= f.bounds[0], "{gap} > {}", f.bounds[0]);
    }
    assert!(
        Law::parse("--step", "gaussian:-1")
            .unwrap_err()
            .to_string()
            .starts_with("--step must be gaussian:S with S > 0")
    );
}

/// `normal:MU,S` is `gaussian:S`'s lattice shifted by MU, reads back from its text, and
/// refuses S <= 0 or a missing mean naming the option.
#[test]
fn normal_laws_are_the_gaussian_lattice_shifted() {
    let centred = law("gaussian:2");
    let shifted = law("normal:1/2,2");
    assert_eq!(shifted.text(), "normal:0.5,2");
    assert_eq!(shifted.atoms().len(), centred.atoms().len());
    for ((v, p), (w, q)) in shifted.atoms().iter().zip(centred.atoms()) {
        assert_eq!((v, p), (&(w + r("1/2")), q));
    }
    assert_eq!(Law::parse("--law", &shifted.text()).unwrap(), shifted);
    assert_eq!(law("normal:0,2").atoms(), centred.atoms());
    assert_eq!(law("normal:-1/4,1").text(), "normal:-0.25,1");
    for bad in [
        "normal:0,0",
        "normal:0,-1",
        "normal:1",
        "normal:x,1",
        "normal:0,y",
    ] {
        let e = Law::parse("--score-wrong", bad).unwrap_err().to_string();
        assert!(
            e.starts_with("--score-wrong must be normal:MU,S") && e.contains("S > 0"),
            "{e}"
        );
    }
}

/// `--levels G --range LO,HI` (granularity) equals brute force over all
/// trees with the bins applied to each front evaluation, for every real-valued evaluator,
/// with terminal nodes, ranges narrower than the values (the end bins take the rest) and
/// bins whose centres are off the laws' own grid.
#[test]
fn binned_evaluations_equal_brute_force() {
    let noise = Evaluator::Additive {
        noise: law("1:1/4,0:1/2,-1:1/4"),
    };
    for (b, h) in [(2, 2), (2, 3), (3, 2)] {
        for ev in [Evaluator::Perfect, Evaluator::Position, noise.clone()] {
            for (count, low, high) in [(2, "-1", "1"), (3, "-2", "5/2"), (1, "0", "1")] {
                let mut g = game(
                    b,
                    h,
                    "1:2/5,0:1/5,-1:2/5",
                    "1/2:1/3,-1/2:2/3",
                    "1/5",
                    Outcome::Value,
                    ev.clone(),
                );
                g.levels = Some(Levels {
                    count,
                    low: r(low),
                    high: r(high),
                });
                check_against_brute_force(&g);
            }
        }
    }
    // One level: every heuristic evaluation is the same, so D(d) at d < h is decided by
    // terminal nodes and ties alone; with no terminals it is the uniform choice's.
    let mut g = game(2, 3, "1:1/2,-1:1/2", "0", "0", Outcome::Value, noise);
    g.levels = Some(Levels {
        count: 1,
        low: r("-3"),
        high: r("3"),
    });
    check_against_brute_force(&g);
    let column = pathsum_column::<BigRational>(&g, &[1]).unwrap();
    let coin = pathsum_column::<BigRational>(
        &PathSumGame {
            evaluator: Evaluator::Perfect,
            levels: None,
            ..g.clone()
        },
        &[1],
    )
    .unwrap();
    assert!(column.rows[0].decision < coin.rows[0].decision);
}

/// `binomial:N` is Bin(N, 1/2) - N/2 exactly, its text reads back, and
/// `binomial:2` is the law `-1:1/4,0:1/2,1:1/4`.
#[test]
fn binomial_law_is_the_centred_binomial() {
    let three = Law::parse("--leaf", "binomial:3").unwrap();
    let atoms: Vec<String> = three
        .atoms()
        .iter()
        .map(|(v, p)| format!("{v}:{p}"))
        .collect();
    assert_eq!(atoms, ["-3/2:1/8", "-1/2:3/8", "1/2:3/8", "3/2:1/8"]);
    assert_eq!(three.text(), "binomial:3");
    assert_eq!(Law::parse("--leaf", &three.text()).unwrap(), three);
    let two = Law::parse("--noise", "binomial:2").unwrap();
    assert_eq!(
        two.atoms(),
        Law::parse("--noise", "-1:1/4,0:1/2,1:1/4").unwrap().atoms()
    );
    let wide = Law::parse("--step", "binomial:1024").unwrap();
    assert_eq!(wide.atoms().len(), 1025);
    assert_eq!(
        wide.atoms()
            .iter()
            .map(|(_, p)| p.clone())
            .sum::<BigRational>(),
        BigRational::one()
    );
    for bad in ["binomial:0", "binomial:1025", "binomial:-2", "binomial:1.5"] {
        let e = Law::parse("--step", bad).unwrap_err().to_string();
        assert!(
            e.starts_with("--step must be binomial:N with N a whole number in 1..=1024"),
            "{e}"
        );
    }
}
