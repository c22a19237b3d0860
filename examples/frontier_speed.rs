//! Times `pathology inference frontier` on its speed target:
//!
//! ```text
//! cargo run --release --example frontier_speed
//! ```
//!
//! B = 4, L = 10, Q = 0.6, the 9-point noise law `binomial:8` (Bin(8, 1/2) - 4), unit prices,
//! budgets 1, 2, 4, ..., 4096: every best-of-N up to N = 372, greedy, beam widths 2..32 and
//! lookahead depths 2 and 3 (those within 4096), in f64 with its bound and in exact
//! rationals (or the refusal with its estimate).

use std::time::Instant;

use num_rational::BigRational;
use pathology::analytic::inference::{FrontierRequest, LookaheadSearch, Prices, Tasks};
use pathology::analytic::pathsum::Law;
use pathology::numeric::number::parse_rational;

fn main() {
    let request = FrontierRequest {
        search: LookaheadSearch {
            branching: 4,
            steps: 10,
            step_correct: parse_rational("0.6").unwrap(),
            noise: Law::parse("--noise", "binomial:8").unwrap(),
            growth: parse_rational("0").unwrap(),
        },
        mix: Tasks::parse_steps("0.6").unwrap(),
        prices: Prices::unit(),
        budgets: (0..=12).map(|i| 1u64 << i).collect(),
        beams: None,
        depths: None,
    };
    let start = Instant::now();
    let float = request.compute::<f64>().unwrap();
    let float_seconds = start.elapsed().as_secs_f64();
    let last = float.rows.last().unwrap();
    let best = &float.settings[last.best.unwrap()];
    println!(
        "f64: {} settings in {float_seconds:.3} s; at budget 4096 the best is {} {} \
         (P_correct {:.6}, bound {:.2e})",
        float.settings.len(),
        best.strategy.name(),
        best.strategy.setting_text(best.value),
        best.correct.value,
        float.largest_bound(),
    );
    let start = Instant::now();
    match request.compute::<BigRational>() {
        Ok(exact) => {
            let seconds = start.elapsed().as_secs_f64();
            let last = exact.rows.last().unwrap();
            let best = &exact.settings[last.best.unwrap()];
            println!(
                "exact: {} settings in {seconds:.3} s; at budget 4096 {} {} (P_correct {:.6})",
                exact.settings.len(),
                best.strategy.name(),
                best.strategy.setting_text(best.value),
                pathology::numeric::number::rational_to_f64(&best.correct.value),
            );
        }
        Err(e) => println!(
            "exact: refused after {:.3} s: {e}",
            start.elapsed().as_secs_f64()
        ),
    }
}
