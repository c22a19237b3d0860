//! The engine against brute-force enumeration of boards, trees and evaluator errors, in exact
//! rationals; the binary D-game engine; the P-game = D-game identity; f64 against exact.

use super::*;
use crate::analytic::dgame::{DependenceFactors, Solver};
use crate::model::Player;
use crate::numeric::number::parse_rational;
use crate::sim::level_tree::LevelTree;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;
use std::collections::BTreeMap;

type Q = BigRational;

fn q(s: &str) -> Q {
    parse_rational(s).unwrap()
}

fn int(n: i64) -> Q {
    Q::from_integer(n.into())
}

/// `(merit is a win for Max, backed-up value)` -> probability.
type Law = BTreeMap<(bool, i64), Q>;

/// The merit value and the depth-limited minimax value at the root of a complete tree of
/// height `c` given its leaves (tree order, 1 = win for Max), with the front at height
/// `front`: the piece count there, or (artificial) the merit value flipped where `flips` says.
fn evaluate(b: usize, c: u32, leaves: &[bool], front: u32, flips: Option<&[bool]>) -> (bool, i64) {
    let tree = LevelTree::new(b as u32, c.max(1)).unwrap();
    if c == 0 {
        return (leaves[0], i64::from(leaves[0]));
    }
    let mut wins = Vec::new();
    let mut ones = Vec::new();
    tree.solve(leaves, &mut wins);
    tree.count_ones(leaves, &mut ones);
    let range = |t: u32| tree.offset(t)..tree.offset(t) + tree.width(t);
    let mut values: Vec<i64> = match flips {
        Some(flips) if front > 0 => range(front)
            .zip(flips)
            .map(|(n, &f)| i64::from(wins[n] != f))
            .collect(),
        _ => range(front).map(|n| i64::from(ones[n])).collect(),
    };
    for t in front + 1..=c {
        values = values
            .chunks(b)
            .map(|ch| match Player::to_move_at_height(t) {
                Player::Max => *ch.iter().max().unwrap(),
                Player::Min => *ch.iter().min().unwrap(),
            })
            .collect();
    }
    (wins[tree.offset(c)], values[0])
}

/// The law of a subtree from its weighted boards, enumerating the evaluator's errors too.
fn law_of(
    b: usize,
    c: u32,
    boards: &[(Vec<bool>, Q)],
    front: u32,
    evaluator: &Evaluator<Q>,
) -> Law {
    let mut law = Law::new();
    let front_nodes = if front > 0 { b.pow(c - front) } else { 0 };
    for (leaves, weight) in boards {
        match evaluator {
            Evaluator::Artificial { error } if front > 0 => {
                for mask in 0..1u32 << front_nodes {
                    let flips: Vec<bool> = (0..front_nodes).map(|i| mask >> i & 1 == 1).collect();
                    let wrong = flips.iter().filter(|&&f| f).count() as i32;
                    let w = weight
                        * num_traits::pow(error.clone(), wrong as usize)
                        * num_traits::pow(int(1) - error, front_nodes - wrong as usize);
                    let key = evaluate(b, c, leaves, front, Some(&flips));
                    *law.entry(key).or_insert_with(Q::zero) += w;
                }
            }
            _ => {
                let key = evaluate(b, c, leaves, front, None);
                *law.entry(key).or_insert_with(Q::zero) += weight.clone();
            }
        }
    }
    law
}

/// All boards of a P-game subtree of height c.
fn p_boards(b: usize, c: u32, p: &Q) -> Vec<(Vec<bool>, Q)> {
    let n = b.pow(c);
    (0..1u64 << n)
        .map(|mask| {
            let leaves: Vec<bool> = (0..n).map(|i| mask >> i & 1 == 1).collect();
            let ones = leaves.iter().filter(|&&x| x).count();
            let w = num_traits::pow(p.clone(), ones) * num_traits::pow(int(1) - p, n - ones);
            (leaves, w)
        })
        .collect()
}

/// All edge assignments below a node of an N-game subtree of height c with path sum `start`
/// (depth first, children in move order, as `BoardSpec::draw` walks them).
fn n_boards(b: usize, c: u32, start: i64, qq: &Q) -> Vec<(Vec<bool>, Q)> {
    // Level by level: the path sums of the nodes of each height, in tree order.
    let mut frontier: Vec<(Vec<i64>, Q)> = vec![(vec![start], Q::one())];
    for _ in 0..c {
        let mut next = Vec::new();
        for (sums, w) in &frontier {
            let edges = sums.len() * b;
            for mask in 0..1u64 << edges {
                let plus = mask.count_ones() as usize;
                let weight = w
                    * num_traits::pow(qq.clone(), plus)
                    * num_traits::pow(int(1) - qq, edges - plus);
                let children: Vec<i64> = (0..edges)
                    .map(|e| sums[e / b] + if mask >> e & 1 == 1 { 1 } else { -1 })
                    .collect();
                next.push((children, weight));
            }
        }
        frontier = next;
    }
    frontier
        .into_iter()
        .map(|(sums, w)| (sums.iter().map(|&s| s > 0).collect(), w))
        .collect()
}

/// All merit assignments of a D-game subtree of height c whose root has merit `win`.
fn d_boards(b: usize, c: u32, win: bool, qs: &[Q], rs: &[Q]) -> Vec<(Vec<bool>, Q)> {
    let mut frontier: Vec<(Vec<bool>, Q)> = vec![(vec![win], Q::one())];
    for t in (1..=c).rev() {
        let mut next = Vec::new();
        for (nodes, w) in frontier {
            // Every node's children: all patterns with their probabilities.
            let mut partial: Vec<(Vec<bool>, Q)> = vec![(Vec::new(), w)];
            for &node in &nodes {
                let max = Player::to_move_at_height(t) == Player::Max;
                let (favourable, table) = if max { (true, qs) } else { (false, rs) };
                let mut options = Vec::new();
                if node == favourable {
                    for mask in 0..1u32 << b {
                        let k = mask.count_ones() as usize;
                        if k == 0 {
                            continue;
                        }
                        let weight = &table[k - 1]
                            / int(
                                crate::analytic::families::engine::binomial(b as u64, k as u64)
                                    as i64,
                            );
                        let children: Vec<bool> = (0..b)
                            .map(|i| {
                                if mask >> i & 1 == 1 {
                                    favourable
                                } else {
                                    !favourable
                                }
                            })
                            .collect();
                        options.push((children, weight));
                    }
                } else {
                    options.push((vec![node; b], Q::one()));
                }
                let mut grown = Vec::new();
                for (prefix, pw) in &partial {
                    for (children, cw) in &options {
                        if cw.is_zero() {
                            continue;
                        }
                        let mut v = prefix.clone();
                        v.extend(children);
                        grown.push((v, pw * cw));
                    }
                }
                partial = grown;
            }
            next.extend(partial);
        }
        frontier = next;
    }
    frontier
}

/// Uniform tie-breaking at a root over independent children with the given laws: returns
/// `(Pr[correct and non-trivial], Pr[non-trivial])`.
fn root(laws: &[&Law], mover: Player) -> (Q, Q) {
    let mover_wins = mover == Player::Max;
    let mut correct = Q::zero();
    let mut nontrivial = Q::zero();
    let entries: Vec<Vec<(&(bool, i64), &Q)>> = laws.iter().map(|l| l.iter().collect()).collect();
    let mut index = vec![0usize; laws.len()];
    loop {
        let picks: Vec<(&(bool, i64), &Q)> =
            index.iter().zip(&entries).map(|(&i, e)| e[i]).collect();
        let weight = picks.iter().fold(Q::one(), |acc, (_, w)| acc * *w);
        let wins: Vec<bool> = picks.iter().map(|((m, _), _)| *m == mover_wins).collect();
        if wins.iter().any(|&w| w) && wins.iter().any(|&w| !w) {
            let values: Vec<i64> = picks.iter().map(|((_, v), _)| *v).collect();
            let best = match mover {
                Player::Max => *values.iter().max().unwrap(),
                Player::Min => *values.iter().min().unwrap(),
            };
            let tied: Vec<usize> = (0..values.len()).filter(|&i| values[i] == best).collect();
            let good = tied.iter().filter(|&&i| wins[i]).count();
            correct += &weight * int(good as i64) / int(tied.len() as i64);
            nontrivial += weight;
        }
        // Next tuple.
        let mut k = 0;
        loop {
            if k == index.len() {
                return (correct, nontrivial);
            }
            index[k] += 1;
            if index[k] < entries[k].len() {
                break;
            }
            index[k] = 0;
            k += 1;
        }
    }
}

fn brute_p(b: usize, h: u32, p: &Q, evaluator: &Evaluator<Q>) -> Vec<Q> {
    let boards = p_boards(b, h - 1, p);
    (1..=h)
        .map(|d| {
            let law = law_of(b, h - 1, &boards, h - d, evaluator);
            let laws = vec![&law; b];
            let (c, n) = root(&laws, Player::to_move_at_height(h));
            c / n
        })
        .collect()
}

fn brute_n(b: usize, h: u32, qq: &Q, evaluator: &Evaluator<Q>) -> Vec<Q> {
    let plus = n_boards(b, h - 1, 1, qq);
    let minus = n_boards(b, h - 1, -1, qq);
    (1..=h)
        .map(|d| {
            let mut law = Law::new();
            for (boards, w) in [(&plus, qq.clone()), (&minus, int(1) - qq)] {
                for (key, p) in law_of(b, h - 1, boards, h - d, evaluator) {
                    *law.entry(key).or_insert_with(Q::zero) += p * &w;
                }
            }
            let laws = vec![&law; b];
            let (c, n) = root(&laws, Player::to_move_at_height(h));
            c / n
        })
        .collect()
}

fn brute_d(b: usize, h: u32, qs: &[Q], rs: &[Q], evaluator: &Evaluator<Q>) -> Vec<Q> {
    let mover = Player::to_move_at_height(h);
    let favourable = mover == Player::Max;
    let table = if favourable { qs } else { rs };
    let good = d_boards(b, h - 1, favourable, qs, rs);
    let bad = d_boards(b, h - 1, !favourable, qs, rs);
    (1..=h)
        .map(|d| {
            let good_law = law_of(b, h - 1, &good, h - d, evaluator);
            let bad_law = law_of(b, h - 1, &bad, h - d, evaluator);
            let mut num = Q::zero();
            let mut den = Q::zero();
            for k in 1..b {
                let mut laws = vec![&good_law; k];
                laws.extend(vec![&bad_law; b - k]);
                let (c, n) = root(&laws, mover);
                assert!(
                    n.is_one(),
                    "k = {k} favourable children is always non-trivial"
                );
                num += &table[k - 1] * c;
                den += &table[k - 1];
            }
            num / den
        })
        .collect()
}

fn engine(family: &Family<Q>, evaluator: &Evaluator<Q>, h: u32) -> Vec<Q> {
    decision_column(family, evaluator, h).unwrap().values
}

fn evaluators() -> Vec<Evaluator<Q>> {
    vec![
        Evaluator::Count,
        Evaluator::Artificial { error: q("1/10") },
        Evaluator::Artificial { error: q("1/3") },
    ]
}

#[test]
fn p_games_match_brute_force_exactly() {
    for (b, max_h) in [(2usize, 4u32), (3, 3)] {
        for p in ["1/2", "3/10"] {
            let p = q(p);
            let game = Family::P(PGame::new(b as u32, p.clone()).unwrap());
            for evaluator in evaluators() {
                for h in 1..=max_h {
                    assert_eq!(
                        engine(&game, &evaluator, h),
                        brute_p(b, h, &p, &evaluator),
                        "b={b} h={h} p={p} {evaluator:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn n_games_match_brute_force_exactly() {
    for (b, max_h) in [(2usize, 4u32), (3, 3)] {
        for qq in ["1/2", "2/3"] {
            let qq = q(qq);
            let game = Family::N(NGame::new(b as u32, qq.clone()).unwrap());
            for evaluator in evaluators() {
                for h in 1..=max_h {
                    if b == 3 && h == 3 && evaluator != Evaluator::Count {
                        continue; // 2^12 edge patterns x 2^3 error patterns x 3 evaluators: slow
                    }
                    assert_eq!(
                        engine(&game, &evaluator, h),
                        brute_n(b, h, &qq, &evaluator),
                        "b={b} h={h} q={qq} {evaluator:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn bary_d_games_match_brute_force_exactly() {
    let cases: Vec<(usize, u32, Vec<Q>, Vec<Q>)> = vec![
        (2, 4, vec![q("0.7"), q("0.3")], vec![q("0.4"), q("0.6")]),
        (
            3,
            3,
            vec![q("1/2"), q("1/3"), q("1/6")],
            vec![q("0.2"), q("0.3"), q("0.5")],
        ),
        (
            3,
            3,
            vec![q("0"), q("0"), q("1")],
            vec![q("0.1"), q("0.8"), q("0.1")],
        ),
    ];
    for (b, max_h, qs, rs) in cases {
        let game = Family::D(BaryDGame::new(b as u32, qs.clone(), rs.clone()).unwrap());
        for evaluator in evaluators() {
            for h in 1..=max_h {
                if (h % 2 == 1 && qs[b - 1].is_one()) || (h % 2 == 0 && rs[b - 1].is_one()) {
                    assert!(decision_column(&game, &evaluator, h).is_err());
                    continue;
                }
                assert_eq!(
                    engine(&game, &evaluator, h),
                    brute_d(b, h, &qs, &rs, &evaluator),
                    "b={b} h={h} {evaluator:?}"
                );
            }
        }
    }
}

/// Whole boards of the Monte Carlo side (LevelTree conventions), not factorised at the root:
/// P-games b = 2 up to h = 4 and b = 3 at h = 2, N-games b = 2 at h = 3.
#[test]
fn whole_boards_agree_with_the_engine() {
    let check = |b: usize, h: u32, boards: Vec<(Vec<bool>, Q)>, family: Family<Q>| {
        let tree = LevelTree::new(b as u32, h).unwrap();
        let mover = Player::to_move_at_height(h);
        let mut wins = Vec::new();
        let mut ones = Vec::new();
        for d in 1..=h {
            let (mut correct, mut nontrivial) = (Q::zero(), Q::zero());
            for (leaves, w) in &boards {
                tree.solve(leaves, &mut wins);
                tree.count_ones(leaves, &mut ones);
                let kids = &wins[tree.offset(h - 1)..tree.offset(h - 1) + b];
                let good: Vec<bool> = kids.iter().map(|&k| k == (mover == Player::Max)).collect();
                if !(good.iter().any(|&g| g) && good.iter().any(|&g| !g)) {
                    continue;
                }
                let front = h - d;
                let mut values: Vec<i64> = (tree.offset(front)
                    ..tree.offset(front) + tree.width(front))
                    .map(|n| i64::from(ones[n]))
                    .collect();
                for t in front + 1..h {
                    values = values
                        .chunks(b)
                        .map(|c| match Player::to_move_at_height(t) {
                            Player::Max => *c.iter().max().unwrap(),
                            Player::Min => *c.iter().min().unwrap(),
                        })
                        .collect();
                }
                let best = match mover {
                    Player::Max => *values.iter().max().unwrap(),
                    Player::Min => *values.iter().min().unwrap(),
                };
                let tied: Vec<usize> = (0..b).filter(|&i| values[i] == best).collect();
                let right = tied.iter().filter(|&&i| good[i]).count();
                correct += w * int(right as i64) / int(tied.len() as i64);
                nontrivial += w;
            }
            let (value, _) =
                correct_decision_probability(&family, &Evaluator::Count, d, h).unwrap();
            assert_eq!(value, correct / nontrivial, "{family:?} h={h} d={d}");
        }
    };
    for h in 1..=4 {
        check(
            2,
            h,
            p_boards(2, h, &q("2/5")),
            Family::P(PGame::new(2, q("2/5")).unwrap()),
        );
    }
    check(
        3,
        2,
        p_boards(3, 2, &q("1/2")),
        Family::P(PGame::new(3, q("1/2")).unwrap()),
    );
    let qq = q("3/5");
    check(
        2,
        3,
        n_boards(2, 3, 0, &qq),
        Family::N(NGame::new(2, qq.clone()).unwrap()),
    );
}

/// For b = 2 the general engine is Li & Marsland's: equal in rationals to dgame::Solver.
#[test]
fn binary_d_games_equal_the_dgame_solver_exactly() {
    for (f1, f2) in [
        ("0.1", "0.1"),
        ("0.3", "0.7"),
        ("1", "0.5"),
        ("0", "0"),
        ("1/3", "0.9"),
    ] {
        let factors = DependenceFactors::new(q(f1), q(f2)).unwrap();
        let game = Family::D(BaryDGame::from_factors(&factors));
        for h in [1u32, 2, 5, 8] {
            let expected = Solver::new(factors.clone()).decision_column(h).unwrap();
            assert_eq!(
                engine(&game, &Evaluator::Count, h),
                expected.values,
                "f=({f1},{f2}) h={h}"
            );
        }
    }
}

#[test]
fn binary_d_games_in_f64_agree_with_the_dgame_solver_within_bounds() {
    for (f1, f2) in [(0.1, 0.1), (0.45, 0.6), (0.9, 0.2)] {
        let factors = DependenceFactors::new(f1, f2).unwrap();
        let game = Family::D(BaryDGame::from_factors(&factors));
        let h = 14;
        let ours = decision_column(&game, &Evaluator::Count, h).unwrap();
        let theirs = Solver::new(factors).decision_column(h).unwrap();
        for d in 0..h as usize {
            let gap = (ours.values[d] - theirs.values[d]).abs();
            // 1 - f1 is rounded in BaryDGame::from_factors: the two reference models differ
            // by at most that rounding at each of the 2^h - 1 interior nodes (total variation).
            let models = 2.0 * f64::EPSILON * (1u64 << h) as f64;
            assert!(
                gap <= ours.error_bounds[d] + theirs.error_bounds[d] + models,
                "f=({f1},{f2}) d={}: {gap:e}",
                d + 1
            );
        }
    }
}

/// A P-game is the D-game with `q_k(t)`, `r_k(t)` the binomial patterns conditioned on the
/// node's value, the children's win probability taken at their height.
#[test]
fn p_games_are_height_dependent_d_games_exactly() {
    for (b, h, p) in [(2usize, 7u32, "1/3"), (3, 5, "2/5")] {
        let p = q(p);
        let pgame = PGame::new(b as u32, p.clone()).unwrap();
        // Win probability for Max by height.
        let mut w = vec![p.clone()];
        for t in 1..h {
            let c = &w[t as usize - 1];
            w.push(match Player::to_move_at_height(t) {
                Player::Max => int(1) - num_traits::pow(int(1) - c, b),
                Player::Min => num_traits::pow(c.clone(), b),
            });
        }
        let mut model = BaryDGame::new(b as u32, vec![int(1)], vec![int(1)])
            .unwrap()
            .model(h);
        for t in 1..=h {
            let child_win = &w[t as usize - 1];
            let (fav, unf) = match Player::to_move_at_height(t) {
                Player::Max => (child_win.clone(), int(1) - child_win),
                Player::Min => (int(1) - child_win, child_win.clone()),
            };
            let norm = int(1) - num_traits::pow(unf.clone(), b);
            let coefficients: Vec<Q> = (1..=b)
                .map(|k| {
                    int(engine::binomial(b as u64, k as u64) as i64)
                        * num_traits::pow(fav.clone(), k)
                        * num_traits::pow(unf.clone(), b - k)
                        / &norm
                })
                .collect();
            let (numerators, unit) = Q::common_scale(&coefficients);
            model.tables[t as usize] = engine::Table {
                favoured: numerators.into_iter().map(Coef::exact).collect(),
                other: Coef::exact(unit.clone()),
                unit,
            };
        }
        let family = Family::P(pgame);
        for evaluator in evaluators() {
            let expected = engine(&family, &evaluator, h);
            let cancel = crate::cancel::CancelToken::new();
            let counts =
                engine::count_levels::<Q>(&model, h - 1, ConvolutionMethod::Auto, &cancel).unwrap();
            let masses = engine::mass_levels::<Q>(&model, h - 1, &cancel).unwrap();
            for d in 1..=h {
                let level = front_level(&evaluator, &counts, &masses, h - d);
                let cdf =
                    engine::back_up::<Q>(&model, &level, h - d, h - 1, &masses, &cancel).unwrap();
                let (value, _, _) =
                    engine::root_decision::<Q>(&model, &cdf, &masses[h as usize - 1]).unwrap();
                assert_eq!(
                    value,
                    expected[d as usize - 1],
                    "b={b} h={h} d={d} {evaluator:?}"
                );
            }
        }
    }
}

/// At p = w_2 the P-game is level-stationary with f1 = f2 = w/(2 - w) = sqrt 5 - 2, and the
/// P-game engine agrees with Li & Marsland's engine at that f.
#[test]
fn pearl_p_game_agrees_with_dgame_at_sqrt5_minus_2() {
    let game = PGame::pearl(2).unwrap();
    let w = *game.p();
    let f = w / (2.0 - w);
    assert!((f - (5f64.sqrt() - 2.0)).abs() < 1e-15);
    let h = 12;
    let ours = decision_column(&Family::P(game), &Evaluator::Count, h).unwrap();
    let theirs = Solver::new(DependenceFactors::new(f, f).unwrap())
        .decision_column(h)
        .unwrap();
    for d in 0..h as usize {
        let gap = (ours.values[d] - theirs.values[d]).abs();
        // The two f64 reference models (p = fl(w_2) and f = fl(fl(w)/(2 - fl(w)))) differ at
        // each of the 2^h squares and 2^h - 1 interior nodes by a few ulps in total
        // variation; the non-trivial root has probability > 1/4 in both.
        let models = 4.0 * 8.0 * f64::EPSILON * (1u64 << (h + 1)) as f64;
        assert!(
            gap <= ours.error_bounds[d] + theirs.error_bounds[d] + models,
            "d={}: {gap:e}",
            d + 1
        );
    }
}

#[test]
fn float_results_lie_within_their_bounds_of_the_exact_values() {
    let exact_f64 = |x: f64| Q::from_float(x).unwrap();
    let cases: Vec<(Family<f64>, Family<Q>, u32)> = vec![
        (
            Family::P(PGame::new(2, 0.3).unwrap()),
            Family::P(PGame::new(2, exact_f64(0.3)).unwrap()),
            9,
        ),
        (
            Family::P(PGame::new(3, 0.4).unwrap()),
            Family::P(PGame::new(3, exact_f64(0.4)).unwrap()),
            5,
        ),
        (
            Family::N(NGame::new(2, 0.6).unwrap()),
            Family::N(NGame::new(2, exact_f64(0.6)).unwrap()),
            8,
        ),
        (
            Family::D(BaryDGame::new(3, vec![0.25, 0.5, 0.25], vec![0.5, 0.125, 0.375]).unwrap()),
            Family::D(
                BaryDGame::new(
                    3,
                    vec![q("0.25"), q("0.5"), q("0.25")],
                    vec![q("0.5"), q("0.125"), q("0.375")],
                )
                .unwrap(),
            ),
            5,
        ),
    ];
    for (float, exact, h) in cases {
        for (fe, ee) in [
            (Evaluator::Count, Evaluator::Count),
            (
                Evaluator::Artificial { error: 0.1 },
                Evaluator::Artificial {
                    error: exact_f64(0.1),
                },
            ),
        ] {
            let f = decision_column(&float, &fe, h).unwrap();
            let e = decision_column(&exact, &ee, h).unwrap();
            for d in 0..h as usize {
                let gap = (exact_f64(f.values[d]) - &e.values[d]).abs().to_f64();
                assert!(
                    gap <= f.error_bounds[d],
                    "{float:?} {fe:?} d={}: {gap:e} > {:e}",
                    d + 1,
                    f.error_bounds[d]
                );
                // The bounds stay informative. The packed two-input transform widened the
                // largest of them, P-game b = 2, h = 9, d = 1, from 9.83e-11 to 1.35e-10.
                assert!(
                    f.error_bounds[d] < 2e-10,
                    "{float:?} {fe:?} d={}: {:e}",
                    d + 1,
                    f.error_bounds[d]
                );
                assert!(e.values[d] >= Q::zero() && e.values[d] <= Q::one());
            }
        }
    }
}

#[test]
fn the_last_two_depths_always_decide_correctly() {
    // D(h,h) = 1: the search reaches the squares, which are evaluated exactly.
    for family in [
        Family::P(PGame::new(3, q("0.4")).unwrap()),
        Family::N(NGame::new(3, q("0.5")).unwrap()),
    ] {
        for h in 1..=4 {
            for evaluator in evaluators() {
                let column = decision_column(&family, &evaluator, h).unwrap();
                assert!(column.values[h as usize - 1].is_one());
            }
        }
    }
}

#[test]
fn bad_input_is_refused_with_the_argument_named() {
    let e = |r: Result<ExactColumn<f64>>| r.unwrap_err().to_string();
    assert!(
        PGame::new(1, 0.5)
            .unwrap_err()
            .to_string()
            .contains("--branching")
    );
    assert!(
        PGame::new(61, 0.5)
            .unwrap_err()
            .to_string()
            .contains("--branching")
    );
    assert!(NGame::new(2, 1.5).unwrap_err().to_string().contains("--q"));
    assert!(
        BaryDGame::new(2, vec![0.5, 0.25], vec![1.0])
            .unwrap_err()
            .to_string()
            .contains("q must be a distribution summing to 1")
    );
    assert!(
        BaryDGame::new(2, vec![0.0, 0.0, 1.0], vec![1.0])
            .unwrap_err()
            .to_string()
            .contains("at most b = 2")
    );
    assert!(
        BaryDGame::new(2, vec![1.5, -0.5], vec![1.0])
            .unwrap_err()
            .to_string()
            .contains("q_1")
    );
    let game = Family::P(PGame::new(2, 0.5).unwrap());
    assert!(e(decision_column(&game, &Evaluator::Count, 0)).contains("--height"));
    assert!(
        e(decision_column(
            &game,
            &Evaluator::Artificial { error: 2.0 },
            4
        ))
        .contains("--e")
    );
    assert!(
        e(decision_column(
            &Family::P(PGame::new(2, 0.0).unwrap()),
            &Evaluator::Count,
            4
        ))
        .contains("--p")
    );
    assert!(
        e(decision_column(
            &Family::N(NGame::new(2, 1.0).unwrap()),
            &Evaluator::Count,
            4
        ))
        .contains("--q")
    );
    let refused = decision_column(
        &Family::P(PGame::new(3, 0.5).unwrap()),
        &Evaluator::Count,
        20,
    )
    .unwrap_err();
    assert!(matches!(refused, Error::TooExpensive { .. }), "{refused}");
    let refused = decision_column(
        &Family::P(PGame::new(10, 0.5).unwrap()),
        &Evaluator::Count,
        30,
    )
    .unwrap_err();
    assert!(refused.to_string().contains("--branching"), "{refused}");
    // b = 3 with q_3 = 1: a win Max root never has a losing move.
    let never = Family::D(BaryDGame::new(3, vec![0.0, 0.0, 1.0], vec![1.0]).unwrap());
    assert!(e(decision_column(&never, &Evaluator::Count, 3)).contains("q_3"));
    let deep = correct_decision_probability(&game, &Evaluator::Count, 5, 4).unwrap_err();
    assert!(deep.to_string().contains("--depth"));
}

#[test]
fn the_artificial_evaluator_needs_no_big_support() {
    // Two values per front node: b = 4, h = 14 in f64 is cheap (the piece count would need
    // 4^13 values). The bound grows like b^h (one Lipschitz factor b per level).
    let game = Family::P(PGame::pearl(4).unwrap());
    let column = decision_column(&game, &Evaluator::Artificial { error: 0.1 }, 14).unwrap();
    assert!(column.values.iter().all(|v| (0.0..=1.0).contains(v)));
    let worst = column.error_bounds.iter().copied().fold(0.0, f64::max);
    assert!(worst < 1e-4, "{worst:e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    #[test]
    fn float_agrees_with_exact_on_random_p_and_n_games(
        numerator in 1u32..20, b in 2u32..=3, h in 1u32..=6, n_game in any::<bool>(), e in 0u32..=10,
    ) {
        let x = Q::new(numerator.into(), 20.into());
        let (float, exact) = if n_game {
            (Family::N(NGame::new(b, x.to_f64()).unwrap()), Family::N(NGame::new(b, Q::from_float(x.to_f64()).unwrap()).unwrap()))
        } else {
            (Family::P(PGame::new(b, x.to_f64()).unwrap()), Family::P(PGame::new(b, Q::from_float(x.to_f64()).unwrap()).unwrap()))
        };
        let error = Q::new(e.into(), 20.into());
        let fe = Evaluator::Artificial { error: error.to_f64() };
        let ee = Evaluator::Artificial { error: Q::from_float(error.to_f64()).unwrap() };
        for (fe, ee) in [(Evaluator::Count, Evaluator::Count), (fe, ee)] {
            let ex = decision_column(&exact, &ee, h).unwrap();
            // An f64 column whose rigorous bound exceeds 0.05 is refused:
            // nothing to compare then, but the refusal must be that one.
            let f = match decision_column(&float, &fe, h) {
                Ok(f) => f,
                Err(e) => {
                    prop_assert!(e.to_string().contains("f64 rounding bound"), "{e}");
                    continue;
                }
            };
            for d in 0..h as usize {
                let gap = (Q::from_float(f.values[d]).unwrap() - &ex.values[d]).abs().to_f64();
                prop_assert!(gap <= f.error_bounds[d]);
                prop_assert!(ex.values[d] >= Q::zero() && ex.values[d] <= Q::one());
            }
        }
    }
}
