//! Times `pathology inference vote` at the budgets papers report:
//!
//! ```text
//! cargo run --release --example vote_speed
//! ```
//!
//! 1. ten wrong answers of equal shares, f64 with its bound, every k = 1..1024;
//! 2. the same, exact, on the doubling list k = 1, 2, 4, ..., 1024;
//! 3. four wrong answers of unequal shares, exact, k = 256 (once refused as about 32 min);
//! 4. ten wrong answers of unequal shares (a Zipf-like mix), f64, k = 1..256.

use std::time::Instant;

use num_rational::BigRational;
use pathology::analytic::inference::{Tasks, vote};
use pathology::numeric::number::parse_rational;

fn time<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    println!("{what}: {:.3} s", start.elapsed().as_secs_f64());
    out
}

fn main() {
    let q = |s: &str| parse_rational(s).unwrap();
    let tasks = Tasks::parse("0.3:0.5,0.15:0.5").unwrap();
    let ten: Vec<BigRational> = (0..10).map(|_| q("1/10")).collect();
    let all: Vec<u64> = (1..=1024).collect();
    let r = time("vote, ten equal wrong answers, f64, k = 1..1024", || {
        vote::<f64>(&tasks, &ten, &all).unwrap()
    });
    let largest = r.rows.iter().map(|x| x.correct.bound).fold(0.0, f64::max);
    println!(
        "  P_correct(1) = {:.6}, P_correct(1024) = {:.6}, best k = {}, largest bound {largest:.2e}",
        r.rows[0].correct.value, r.rows[1023].correct.value, r.best
    );
    let doubling: Vec<u64> = (0..=10).map(|e| 1u64 << e).collect();
    let e = time(
        "vote, ten equal wrong answers, exact, k = 1, 2, 4, ..., 1024",
        || vote::<BigRational>(&tasks, &ten, &doubling).unwrap(),
    );
    for (row, k) in e.rows.iter().zip(&doubling) {
        let f = &r.rows[*k as usize - 1].correct;
        let exact = pathology::numeric::number::rational_to_f64(&row.correct.value);
        assert!((exact - f.value).abs() <= f.bound, "k = {k}");
    }
    println!("  f64 within its bound of exact at every k of the doubling list");
    let four = [q("0.4"), q("0.3"), q("0.2"), q("0.1")];
    let vtasks = Tasks::parse("0.7:0.6,0.4:0.4").unwrap();
    time("vote, four unequal wrong answers, exact, k = 256", || {
        vote::<BigRational>(&vtasks, &four, &[256]).unwrap()
    });
    let zipf: Vec<BigRational> = [
        "2520/7381",
        "1260/7381",
        "840/7381",
        "630/7381",
        "504/7381",
        "420/7381",
        "360/7381",
        "315/7381",
        "280/7381",
        "252/7381",
    ]
    .iter()
    .map(|s| q(s))
    .collect();
    let upto: Vec<u64> = (1..=256).collect();
    let z = time("vote, ten Zipf wrong answers, f64, k = 1..256", || {
        vote::<f64>(&tasks, &zipf, &upto).unwrap()
    });
    let largest = z.rows.iter().map(|x| x.correct.bound).fold(0.0, f64::max);
    println!("  largest bound {largest:.2e}");
}
