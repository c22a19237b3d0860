//! Times `pathology inference beam` on the size of its speed target:
//!
//! ```text
//! cargo run --release --example beam_speed
//! ```
//!
//! B = 4, M = 8, L = 20 with the 9-point noise law `binomial:8` (Bin(8, 1/2) - 4), Q = 0.7:
//! exact (target: under 5 s) and f64 with its bound (target: under 0.1 s), with a verifier of
//! fixed noise (G = 0: one selection law for every step) and of noise growing with depth
//! (G = 1/4: the scale changes every step, but on the integers the order of the levels, and
//! so the selection law, is the same from the second step on).

use std::time::Instant;

use num_rational::BigRational;
use pathology::analytic::inference::{LookaheadSearch, Tasks, beam};
use pathology::analytic::pathsum::Law;
use pathology::numeric::number::parse_rational;

fn main() {
    let mix = Tasks::parse_steps("0.7").unwrap();
    for growth in ["0", "1/4"] {
        let search = LookaheadSearch {
            branching: 4,
            steps: 20,
            step_correct: parse_rational("0.7").unwrap(),
            noise: Law::parse("--noise", "binomial:8").unwrap(),
            growth: parse_rational(growth).unwrap(),
        };
        let start = Instant::now();
        let exact = beam::<BigRational>(&search, &mix, &[8]).unwrap();
        let exact_seconds = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let float = beam::<f64>(&search, &mix, &[8]).unwrap();
        let float_seconds = start.elapsed().as_secs_f64();
        println!(
            "B = 4, M = 8, L = 20, binomial:8, G = {growth}: exact {exact_seconds:.3} s \
             (P_correct {:.6}), f64 {float_seconds:.4} s (P_correct {:.6}, bound {:.2e})",
            pathology::numeric::number::rational_to_f64(&exact.rows[0].correct.value),
            float.rows[0].correct.value,
            float.rows[0].correct.bound,
        );
    }
}
