//! Times best-of-n with normal score laws as the continuous laws, rigorously enclosed:
//!
//! ```text
//! cargo run --release --example best_of_n_normal_speed
//! ```
//!
//! n = 1, 2, 4, ..., 2^20 and 10^6 (22 values), the correct law N(1, 1) against the wrong
//! law N(0, 1): one task type (R = 0.6), then a two-type mix (0.7:0.6, 0.2:0.4). Prints the
//! time of each and the widest enclosure.

use std::time::Instant;

use pathology::analytic::inference::{Tasks, continuous};
use pathology::analytic::pathsum::Law;

fn main() {
    let mut ns: Vec<u64> = (0..=20).map(|e| 1u64 << e).collect();
    ns.push(1_000_000);
    let correct = Law::parse("--score-correct", "normal:1,1").unwrap();
    let wrong = Law::parse("--score-wrong", "normal:0,1").unwrap();
    let mut total = 0.0;
    for tasks in ["0.6", "0.7:0.6,0.2:0.4"] {
        let mix = Tasks::parse(tasks).unwrap();
        let start = Instant::now();
        let values = continuous::normal_best_of_n(&mix, &correct, &wrong, &ns)
            .unwrap()
            .unwrap();
        let seconds = start.elapsed().as_secs_f64();
        total += seconds;
        let widest = values.iter().map(|e| e.upper - e.lower).fold(0.0, f64::max);
        let last = values.last().unwrap();
        println!(
            "--tasks {tasks}: {} values of n in {seconds:.3} s, widest enclosure {widest:.2e}, \
             P_correct(10^6) in [{:.12}, {:.12}]",
            ns.len(),
            last.lower,
            last.upper
        );
    }
    println!("total {total:.3} s");
}
