//! Unit tests of `analytic/ggame/mod.rs` (moved out of it to keep the file under 1,200 lines).

use super::*;

fn half() -> BigRational {
    BigRational::new(1.into(), 2.into())
}

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// The closed-form true values against backward induction, on every board of 9 squares.
#[test]
fn closed_form_values_match_backward_induction() {
    let n = 9;
    for board in 0u32..1 << n {
        let square = |x: usize| board >> x & 1 == 1;
        let mut wins: Vec<Vec<bool>> = vec![(0..n).map(square).collect()];
        for t in 1..n {
            let max = Player::to_move_at_height(t as u32) == Player::Max;
            let b = &wins[t - 1];
            let row = (0..n - t)
                .map(|i| {
                    if max {
                        b[i] || b[i + 1]
                    } else {
                        b[i] && b[i + 1]
                    }
                })
                .collect();
            wins.push(row);
        }
        for (t, row) in wins.iter().enumerate() {
            for (i, &w) in row.iter().enumerate() {
                assert_eq!(w, true_value(&square, i, i + t), "{board:b} {i} {t}");
            }
        }
    }
}

/// The collapse of backed-up values against level-by-level back-ups on random values.
#[test]
fn backed_up_values_collapse() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..2000 {
        let plies = rng.random_range(0..9usize);
        let top = if rng.random::<bool>() {
            Player::Max
        } else {
            Player::Min
        };
        // Small integers: many ties.
        let values: Vec<f64> = (0..=plies)
            .map(|_| f64::from(rng.random_range(0..4u8)))
            .collect();
        let mut level = values.clone();
        // Back up from the frontier: the node `j` plies above the frontier is moved by
        // `top` when `plies - j` is even.
        for j in 1..=plies {
            let mover = if (plies - j) % 2 == 0 {
                top
            } else {
                top.opponent()
            };
            level = level
                .windows(2)
                .map(|w| match mover {
                    Player::Max => w[0].max(w[1]),
                    Player::Min => w[0].min(w[1]),
                })
                .collect();
        }
        assert_eq!(level[0], backed_up(&values, top), "{values:?} {top:?}");
    }
}

/// The lattice method equals enumeration exactly, for every k <= 10, depth and evaluator.
#[test]
fn lattice_equals_enumeration() {
    let ps = [half(), ratio(3, 10), ratio(5, 7)];
    for k in 1..=10 {
        for evaluator in ALL_EVALUATORS {
            let all = enumerate(k, evaluator).unwrap();
            let flaws = flaw_polynomials(k, evaluator).unwrap();
            for d in 1..=k {
                let lattice = decision_polynomials(k, d, evaluator).unwrap();
                let i = d as usize - 1;
                for p in &ps {
                    assert_eq!(
                        lattice.value(p),
                        all.decisions[i].value(p),
                        "D k={k} d={d} {evaluator:?}"
                    );
                    assert_eq!(
                        flaws[i].value(p),
                        all.flaws[i].value(p),
                        "rhf k={k} d={d} {evaluator:?}"
                    );
                }
            }
        }
    }
}

/// Hand-checked: k = 2, e1, p = 1/2. Min at the root chooses between [1, 2] and [0, 1]
/// (Max nodes). A depth-1 search compares e1 of the two pairs.
#[test]
fn small_case_by_hand() {
    // Boards s0 s1 s2: children values (Max wins) s1|s2 and s0|s1; non-trivial iff s1 = 0
    // and s0 != s2: boards 100 and 001 (s0 s1 s2). On 100, [0,1] = "10" wins, [1,2] =
    // "00" loses; Min wants the loss: e1 of [1,2] = 0 < e1 of [0,1] = 1/2: correct.
    // Symmetric for 001. So D(1,2) = 1.
    let d = decision_polynomials(2, 1, GEvaluator::E1).unwrap();
    assert_eq!(d.value(&half()), Some(ratio(1, 1)));
    assert_eq!(d.denominator.value(&half()), ratio(2 * 2, 8));
}

#[test]
fn refuses_bad_sizes() {
    assert!(decision_polynomials(0, 1, GEvaluator::E1).is_err());
    assert!(decision_polynomials(4, 5, GEvaluator::E1).is_err());
    assert!(decision_polynomials(121, 1, GEvaluator::E1).is_err());
    let refused = flaw_polynomials(80, GEvaluator::E1).unwrap_err();
    assert!(refused.to_string().contains("refused"), "{refused}");
    assert!(enumerate(21, GEvaluator::E1).is_err());
}

/// f64 agrees with exact: every D and rhf value within its printed bound of the exact
/// value at the same (f64) p.
#[test]
fn f64_values_within_their_bounds_of_exact() {
    use num_traits::ToPrimitive;
    let within = |value: f64, bound: f64, exact: &BigRational, what: &str| {
        let exact = exact.to_f64().unwrap();
        // The exact value's own rounding to f64 is half an ulp.
        assert!(
            (value - exact).abs() <= bound + exact * f64::EPSILON / 2.0,
            "{what}: {value} vs {exact}, bound {bound}"
        );
        assert!(bound <= 1e-12, "{what}: bound {bound}");
    };
    for p in [0.5, 0.3, 0.9, 1e-3] {
        let exact_p = BigRational::from_float(p).unwrap();
        for k in [5, 12, 30] {
            for evaluator in ALL_EVALUATORS {
                for d in 1..=k {
                    let poly = decision_polynomials(k, d, evaluator).unwrap();
                    let (value, bound) = poly.value_f64_bounded(p).unwrap();
                    let what = format!("D k={k} d={d} {evaluator:?} p={p}");
                    within(value, bound, &poly.value(&exact_p).unwrap(), &what);
                }
            }
        }
        for evaluator in ALL_EVALUATORS {
            for (i, flaw) in flaw_polynomials(12, evaluator).unwrap().iter().enumerate() {
                let (value, bound) = flaw.value_f64_bounded(p);
                let what = format!("rhf d={} {evaluator:?} p={p}", i + 1);
                within(value, bound, &flaw.value(&exact_p), &what);
            }
        }
    }
}

/// The lattice method reaches k = 120 (coefficients in 128 bits).
#[test]
fn large_games_stay_in_range() {
    let d = decision_polynomials(120, 7, GEvaluator::E1).unwrap();
    let total: u128 = d.denominator.coefficients.iter().sum();
    assert!(total > 0);
    let v = d.value_f64(0.5);
    assert!((0.0..=1.0).contains(&v));
}
