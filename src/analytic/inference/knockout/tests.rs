use super::*;
use crate::numeric::number::parse_rational;

fn q(s: &str) -> BigRational {
    parse_rational(s).unwrap()
}

#[test]
fn an_even_number_of_calls_wins_as_often_as_one_call_fewer() {
    for p in ["0.6", "0.3", "1/2", "0", "1", "7/9"] {
        for m in 1..=8 {
            assert_eq!(
                judge_win(&q(p), 2 * m),
                judge_win(&q(p), 2 * m - 1),
                "P = {p}, K = {}",
                2 * m
            );
        }
    }
}

#[test]
fn the_judge_s_majority_is_the_binomial_tail() {
    // K = 5, P = 0.6: P(X >= 3) = 10 .6^3 .4^2 + 5 .6^4 .4 + .6^5 = 0.68256.
    assert_eq!(judge_win(&q("0.6"), 5), q("0.68256"));
}

#[test]
fn exact_and_f64_agree_and_the_bound_holds() {
    let tasks = Tasks::parse("0.3:0.5,0.8:0.5").unwrap();
    let judge = parse_judge_correct("0.7,0.65", 2).unwrap();
    let ks = [1, 2, 3, 7];
    let rounds = [1, 2, 3, 5, 8];
    let exact = knockout::<BigRational>(&tasks, &judge, &ks, &rounds).unwrap();
    let float = knockout::<f64>(&tasks, &judge, &ks, &rounds).unwrap();
    for (e, f) in exact.rows.iter().zip(&float.rows) {
        let value = float_of(&e.correct.value);
        assert!(
            (value - f.correct.value).abs() <= f.correct.bound,
            "{value} {:?}",
            f.correct
        );
        let fail = float_of(&e.failure.value);
        assert!((fail - f.failure.value).abs() <= f.failure.bound);
        assert_eq!(e.within_bound, Some(true), "{e:?}");
        assert_eq!(f.within_bound, Some(true), "{f:?}");
        assert_eq!(e.against_one_sample, Some(std::cmp::Ordering::Greater));
    }
    assert_eq!(exact.best, float.best);
}

fn float_of(x: &BigRational) -> f64 {
    crate::numeric::number::rational_to_f64(x)
}

#[test]
fn one_round_is_the_two_candidates_cases() {
    // N = 2: both correct (R^2), or one of each (2 R (1 - R)) and the correct one wins (w).
    let (r, p) = (q("0.3"), q("0.8"));
    let tasks = Tasks::parse("0.3").unwrap();
    let k = knockout::<BigRational>(&tasks, std::slice::from_ref(&p), &[3], &[1]).unwrap();
    let w = judge_win(&p, 3);
    let one = BigRational::one();
    let expected = &r * &r + BigRational::from_integer(2.into()) * &r * (&one - &r) * w;
    assert_eq!(k.rows[0].correct.value, expected);
    assert_eq!(k.rows[0].failure.value, &one - expected);
}

#[test]
fn a_judge_below_a_coin_makes_every_round_worse() {
    let tasks = Tasks::parse("0.6").unwrap();
    let k = knockout::<BigRational>(&tasks, &[q("0.45")], &[1, 3], &[1, 2, 3]).unwrap();
    assert!(k.rows.iter().all(|r| r.bound.is_none()));
    assert!(
        k.rows
            .iter()
            .all(|r| r.against_one_sample == Some(std::cmp::Ordering::Less))
    );
    assert_eq!(k.best[0].best_rounds, 1);
    assert_eq!(k.best[0].first_below, Some(1));
    assert_eq!(k.direction, Some(std::cmp::Ordering::Less));
}

#[test]
fn the_rounds_list_takes_a_step_and_refuses_zero() {
    assert_eq!(parse_rounds("1..20:5").unwrap(), vec![1, 6, 11, 16]);
    assert!(parse_rounds("0..3").is_err());
    assert!(parse_rounds("1..41").is_err());
    assert!(parse_rounds("3..1:1").is_err());
    let e = parse_rounds("1..3:0").unwrap_err().to_string();
    assert!(e.starts_with("--rounds must be"), "{e}");
}

#[test]
fn f64_keeps_the_failure_s_relative_precision_at_twenty_rounds() {
    let tasks = Tasks::parse("0.5").unwrap();
    let k = knockout::<f64>(&tasks, &[q("0.9")], &[15], &[20]).unwrap();
    let f = &k.rows[0].failure;
    assert!(f.value > 0.0 && f.bound <= f.value * 1e-9, "{f:?}");
}
