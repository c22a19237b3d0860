//! Times D(d,h) for every depth at large heights in f64 (FFT convolutions), with the
//! rigorous rounding bound, and prints the memory estimate:
//! `cargo run --release --example scale -- 16 20`.

use std::time::Instant;

use pathology::analytic::dgame::{DependenceFactors, Solver, estimate_cost};

fn main() {
    let heights: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("heights are whole numbers"))
        .collect();
    let heights = if heights.is_empty() {
        vec![12, 16, 20]
    } else {
        heights
    };
    for h in heights {
        let start = Instant::now();
        let factors = DependenceFactors::new(0.5, 0.5).expect("valid factors");
        let column = Solver::new(factors)
            .decision_column(h)
            .expect("valid height");
        let seconds = start.elapsed().as_secs_f64();
        let bound = column.error_bounds.iter().copied().fold(0.0, f64::max);
        let cost = estimate_cost(h, None);
        println!(
            "h = {h:2}: {seconds:8.3} s (estimate {:7.3} s, memory estimate {:.0} MiB), max error bound {bound:.1e}, D(1,h) = {:.6}, PS = {:.6}",
            cost.seconds,
            cost.bytes / 1048576.0,
            column.values[0],
            column.pathological_sum()
        );
    }
}
