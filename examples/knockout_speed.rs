//! Times `pathology inference knockout` on the sizes of its speed targets:
//!
//! ```text
//! cargo run --release --example knockout_speed
//! ```
//!
//! 1. the bracket in f64 with bounds, r = 1..20 (up to 2^20 candidates), K = 1..15, two task
//!    types: one call (the whole report's engine);
//! 2. the bracket in exact rationals, r = 1..12, K = 1..15, one task type and two, with the
//!    size of the largest fraction;
//! 3. the exact league, N = 2..12, K = 3.

use std::time::Instant;

use num_rational::BigRational;
use pathology::analytic::inference::{Tasks, knockout, league, parse_judge_correct};

fn time<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    println!("{what}: {:.3} s", start.elapsed().as_secs_f64());
    out
}

fn main() {
    let ks: Vec<u64> = (1..=15).collect();
    let two = Tasks::parse("0.3:0.4,0.7:0.6").unwrap();
    let judge = parse_judge_correct("0.6", 2).unwrap();
    let rounds: Vec<u64> = (1..=20).collect();
    let r = time("knockout, f64, r = 1..20, K = 1..15, two types", || {
        knockout::<f64>(&two, &judge, &ks, &rounds).unwrap()
    });
    let largest = r
        .rows
        .iter()
        .map(|x| x.correct.bound.max(x.failure.bound))
        .fold(0.0, f64::max);
    println!(
        "  P_correct(K = 15, r = 20) = {:.6}, largest bound {largest:.2e}",
        r.rows.last().unwrap().correct.value
    );
    let exact_rounds: Vec<u64> = (1..=12).collect();
    for (name, tasks, judge) in [
        (
            "one type",
            Tasks::parse("0.3").unwrap(),
            parse_judge_correct("0.6", 1).unwrap(),
        ),
        ("two types", two.clone(), judge.clone()),
    ] {
        let r = time(
            &format!("knockout, exact, r = 1..12, K = 1..15, {name}"),
            || knockout::<BigRational>(&tasks, &judge, &ks, &exact_rounds).unwrap(),
        );
        let last = &r.rows.last().unwrap().correct.value;
        println!(
            "  P_correct(K = 15, r = 12): denominator of {} bits",
            last.denom().bits()
        );
        for k in [1u64, 15] {
            time(
                &format!("  knockout, exact, r = 1..12, K = {k}, {name}"),
                || knockout::<BigRational>(&tasks, &judge, &[k], &exact_rounds).unwrap(),
            );
        }
    }
    let sizes: Vec<u64> = (2..=12).collect();
    for &n in &sizes {
        time(&format!("league, exact, N = {n}, K = 3, two types"), || {
            league::<BigRational>(&two, &judge, &[3], &[n]).unwrap()
        });
    }
}
