//! Times the printing of error-propagation trajectory rows whose values are subnormal
//! (f = 0.7: gamma and delta underflow to about 1e-323 and stay there), against f = 0.3, whose
//! values fall through the subnormals to 0; both as CSV with their printed error bounds:
//! `cargo run --release --example subnormal_rows -- 20000`.
//!
//! Each printed bound is the exact sum of the f64 bound and the distance of the printed
//! decimal from the f64, rounded up; before the exact-integer printing, 20,001 subnormal rows
//! took 5 s of CPU (`tests/limits.rs` checks the printed values, this example their speed).

use std::time::Instant;

use pathology::analytic::errprop::BackUp;
use pathology::analytic::errprop::report::{compute_trajectories, trajectory_report};
use pathology::numeric::number::parse_rational;
use pathology::report::{ExportOptions, Format, Report};

fn main() {
    let steps: u32 = std::env::args()
        .nth(1)
        .map_or(20_000, |a| a.parse().expect("steps is a whole number"));
    let q = |s: &str| parse_rational(s).expect("a rational");
    let (gamma, delta) = (q("0.3"), q("0.2"));
    let options = ExportOptions {
        decimals: 6,
        ..ExportOptions::default()
    };
    for f in ["0.3", "0.7"] {
        let settings = [(q(f), q(f))];
        let start = Instant::now();
        let trajectories =
            compute_trajectories::<f64>(&gamma, &delta, &settings, BackUp::Max, steps)
                .expect("a valid setting");
        let computed = start.elapsed().as_secs_f64();
        let last = trajectories[0].points.last().expect("step 0 at least");
        let report = trajectory_report(
            Report::new("errprop", "timing"),
            &gamma,
            &delta,
            BackUp::Max,
            &trajectories,
        );
        let start = Instant::now();
        let csv = report.render(Format::Csv, &options).expect("CSV renders");
        let printed = start.elapsed().as_secs_f64();
        println!(
            "f = {f}: {} rows, last gamma {:e}; computed in {:.3} s, printed as CSV ({} bytes) in {:.3} s",
            steps + 1,
            last.gamma,
            computed,
            csv.len(),
            printed
        );
    }
}
