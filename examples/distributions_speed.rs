//! Times the engines of `pathology::analytic::distributions` on the sizes of its
//! targets, with the estimate the refusal uses beside each measurement and the peak memory:
//!
//! ```text
//! cargo run --release --example distributions_speed
//! ```
//!
//! 1. Critical game, b = 8, H = 50, every depth, a 1000-point histogram, f64.
//! 2. Multi-valued P-game, b = 2, h = 30, g = 16 leaf values, 1000 evaluation levels, every
//!    depth, f64.
//! 3. Critical game, b = 5, H = 20, a 10-point histogram, exact rationals: the depths that
//!    fit the limits, and the refusal of every depth.

use std::time::Instant;

use num_rational::BigRational;
use pathology::analytic::distributions::{
    CriticalGame, Depths, Evaluation, Histogram, Model, MultiValuedPGame, critical_column,
    estimate_critical_cost, estimate_pgame_cost, pgame_column,
};
use pathology::budget::{human_bytes, human_seconds};
use pathology::numeric::number::parse_rational;

/// Peak resident memory of this process so far (Linux), in bytes.
fn peak_memory() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb * 1024.0)
}

/// `points` evaluation atoms in [0, 1], weights rising with the atom for a win and falling
/// for a loss (so that larger evaluations favour Max).
fn histogram(points: u32) -> Histogram {
    let mut text = String::from("value,evaluation,weight\n");
    for i in 0..points {
        let x = format!("{i}/{}", points - 1);
        text.push_str(&format!("1,{x},{}\n", i + 1));
        text.push_str(&format!("-1,{x},{}\n", points - i));
    }
    Histogram::parse(&text).expect("a valid histogram")
}

fn main() {
    let q = |s: &str| parse_rational(s).expect("a number");

    // 1. Critical game, f64.
    let game = CriticalGame::new(8, 50, 0.9, 0.9).expect("valid");
    let evaluation = Evaluation::new(Model::Histogram(histogram(1000)));
    let depths: Vec<u32> = (1..=50).collect();
    let estimate = estimate_critical_cost(&game, &evaluation, &depths).expect("valid");
    let mut best = f64::INFINITY;
    let mut column = None;
    for _ in 0..5 {
        let start = Instant::now();
        column = Some(
            critical_column(&game, &evaluation, Depths::All)
                .expect("accepted")
                .column,
        );
        best = best.min(start.elapsed().as_secs_f64());
    }
    let column = column.expect("run");
    let bound = column
        .rows
        .iter()
        .map(|r| r.decision.bound)
        .fold(0.0, f64::max);
    println!(
        "critical b=8 H=50 gamma=0.9, 1000-point histogram ({} levels), every d, f64: {} (best of 5; estimate {}), largest bound {bound:.2e}",
        column.levels,
        human_seconds(best),
        human_seconds(estimate.seconds)
    );
    for r in column
        .rows
        .iter()
        .filter(|r| [1, 2, 10, 25, 49, 50].contains(&r.depth))
    {
        println!(
            "  D({}) = {:.6} (bound {:.1e})",
            r.depth, r.decision.value, r.decision.bound
        );
    }

    // 2. Multi-valued P-game, f64: 16 values, the lower 8 of total probability 1 - w_2, the fixed point of Max-then-Min back-ups, (so that
    // the root stays undecided between the 8th and 9th values: any other split makes the
    // root's value nearly certain at h = 30, and the non-trivial roots too rare to condition
    // on in f64).
    let w2 = pathology::analytic::closed_form::w_b(2).expect("w_2");
    let leaves: Vec<(BigRational, f64)> = (0..16)
        .map(|i| {
            (
                q(&i.to_string()),
                if i < 8 { (1.0 - w2) / 8.0 } else { w2 / 8.0 },
            )
        })
        .collect();
    let game = MultiValuedPGame::new(2, 30, leaves).expect("valid");
    let evaluation = Evaluation::new(Model::Gaussian { sigma: 2.0 })
        .levels(1000, None)
        .expect("valid");
    let depths: Vec<u32> = (1..=30).collect();
    let estimate = estimate_pgame_cost(&game, &evaluation, &depths).expect("valid");
    let start = Instant::now();
    let column = pgame_column(&game, &evaluation, Depths::All)
        .expect("accepted")
        .column;
    let elapsed = start.elapsed().as_secs_f64();
    let bound = column
        .rows
        .iter()
        .map(|r| r.decision.bound)
        .fold(0.0, f64::max);
    println!(
        "P-game b=2 h=30 g=16, Gaussian sigma=2 in 1000 levels, every d, f64: {} (estimate {}), largest bound {bound:.2e}, Pr[non-trivial] = {:.4}",
        human_seconds(elapsed),
        human_seconds(estimate.seconds),
        column.nontrivial.value
    );
    for r in column
        .rows
        .iter()
        .filter(|r| [1, 2, 10, 20, 29, 30].contains(&r.depth))
    {
        println!(
            "  D({},30) = {:.6} (bound {:.1e}), expected loss {:.4}",
            r.depth, r.decision.value, r.decision.bound, r.expected_loss.value
        );
    }

    // 3. Critical game, exact.
    let game = CriticalGame::new(5, 20, q("9/10"), q("9/10")).expect("valid");
    let evaluation = Evaluation::new(Model::Histogram(histogram(10)));
    let all: Vec<u32> = (1..=20).collect();
    let estimate = estimate_critical_cost(&game, &evaluation, &all).expect("valid");
    println!(
        "critical b=5 H=20 gamma=9/10, 10-point histogram, exact, every d: estimated {} and {}: {}",
        human_seconds(estimate.seconds),
        human_bytes(estimate.bytes),
        match critical_column(&game, &evaluation, Depths::All) {
            Ok(_) => "accepted".to_string(),
            Err(e) => e.to_string(),
        }
    );
    for top in 1..=20u32 {
        if top > 9 {
            break;
        }
        let depths: Vec<u32> = (1..=top).collect();
        let estimate = estimate_critical_cost(&game, &evaluation, &depths).expect("valid");
        if estimate.exceeds_limits() {
            println!(
                "  d <= {top}: refused (estimate {} and {})",
                human_seconds(estimate.seconds),
                human_bytes(estimate.bytes)
            );
            break;
        }
        let start = Instant::now();
        let column = critical_column(&game, &evaluation, Depths::UpTo(top))
            .expect("accepted")
            .column;
        let elapsed = start.elapsed().as_secs_f64();
        let last = column.rows.last().expect("a row");
        let digits = last.decision.value.denom().bits();
        println!(
            "  d <= {top}: {} (estimate {}), peak memory {}, D({top}) has a {digits}-bit denominator, about {:.6}",
            human_seconds(elapsed),
            human_seconds(estimate.seconds),
            human_bytes(peak_memory()),
            pathology::numeric::number::rational_to_f64(&last.decision.value)
        );
    }
    println!(
        "peak memory of the whole run: {}",
        human_bytes(peak_memory())
    );
}
