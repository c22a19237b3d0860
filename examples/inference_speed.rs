//! Times `pathology inference` on the sizes of its speed targets:
//!
//! ```text
//! cargo run --release --example inference_speed
//! ```
//!
//! 1. best-of-n, two 100-point score laws, exact, n = 1..1000;
//! 2. best-of-n, the same laws, f64 with bounds, n = 1, 10, ..., 10^9;
//! 3. vote, one wrong answer, exact, k = 1001; three wrong answers, exact, k = 101;
//! 4. lookahead, B = 4, L = 10, d = 1..10, a 9-point noise law, exact; f64, B = 8, L = 20.

use std::time::Instant;

use num_rational::BigRational;
use pathology::analytic::inference::{LookaheadSearch, Tasks, best_of_n, lookahead, vote};
use pathology::analytic::pathsum::Law;
use pathology::numeric::number::parse_rational;

/// A law on 100 points `offset + i / 10` with weights `i + 1` (or `100 - i`).
fn hundred(offset: i64, rising: bool) -> Law {
    let total: i64 = (1..=100).sum();
    let text: Vec<String> = (0..100i64)
        .map(|i| {
            let w = if rising { i + 1 } else { 100 - i };
            format!("{}/10:{w}/{total}", offset * 10 + i)
        })
        .collect();
    Law::parse("--score", &text.join(",")).unwrap()
}

fn time<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    println!("{what}: {:.3} s", start.elapsed().as_secs_f64());
    out
}

fn main() {
    let q = |s: &str| parse_rational(s).unwrap();
    let tasks = Tasks::parse("0.3:0.5,0.7:0.5").unwrap();
    let (correct, wrong) = (hundred(2, true), hundred(0, false));
    let ns: Vec<u64> = (1..=1000).collect();
    let r = time("best-of-n, 100-point laws, exact, n = 1..1000", || {
        best_of_n::<BigRational>(&tasks, &correct, &wrong, &ns).unwrap()
    });
    println!(
        "  P_correct(1000) = {:.6}",
        pathology::numeric::number::rational_to_f64(&r.rows[999].correct.value)
    );
    let powers: Vec<u64> = (0..=9).map(|e| 10u64.pow(e)).collect();
    let r = time("best-of-n, 100-point laws, f64, n = 10^0..10^9", || {
        best_of_n::<f64>(&tasks, &correct, &wrong, &powers).unwrap()
    });
    let largest = r.rows.iter().map(|x| x.correct.bound).fold(0.0, f64::max);
    println!(
        "  P_correct(10^9) = {:.6}, largest bound {largest:.2e}",
        r.rows[9].correct.value
    );
    let vtasks = Tasks::parse("0.7:0.6,0.4:0.4").unwrap();
    time("vote, one wrong answer, exact, k = 1001", || {
        vote::<BigRational>(&vtasks, &[q("1")], &[1001]).unwrap()
    });
    time("vote, three wrong answers, exact, k = 101", || {
        vote::<BigRational>(&vtasks, &[q("0.5"), q("0.3"), q("0.2")], &[101]).unwrap()
    });
    let noise = Law::parse(
        "--noise",
        "-2:1/16,-3/2:1/16,-1:1/8,-1/2:1/8,0:1/4,1/2:1/8,1:1/8,3/2:1/16,2:1/16",
    )
    .unwrap();
    let search = LookaheadSearch {
        branching: 4,
        steps: 10,
        step_correct: q("0.6"),
        noise: noise.clone(),
        growth: q("0"),
    };
    for top in [10, 6, 4] {
        let depths: Vec<u32> = (1..=top).collect();
        let what = format!("lookahead, B = 4, L = 10, d = 1..{top}, 9-point noise, exact");
        match time(&what, || lookahead::<BigRational>(&search, &depths)) {
            Ok(r) => {
                let baseline = if r.best_of_n.is_some() {
                    "computed"
                } else {
                    "left out"
                };
                println!("  best-of-n beside it: {baseline}");
                break;
            }
            Err(e) => println!("  {e}"),
        }
    }
    let search = LookaheadSearch {
        branching: 8,
        steps: 20,
        ..search
    };
    let depths: Vec<u32> = (1..=20).collect();
    let r = time("lookahead, B = 8, L = 20, d = 1..20, f64", || {
        lookahead::<f64>(&search, &depths).unwrap()
    });
    let largest = r
        .rows
        .iter()
        .map(|x| x.correct.bound.max(x.first.bound))
        .fold(0.0, f64::max);
    println!("  largest bound {largest:.2e}");
    if let Some(b) = &r.best_of_n {
        println!(
            "  best-of-n over 8^20 solutions: {:.6}, bound {:.2e}",
            b.value, b.bound
        );
    }
}
