//! Times the path-sum engine on the sizes of its speed targets, with the
//! estimate the refusal uses beside each measurement and the peak memory:
//!
//! ```text
//! cargo run --release --example pathsum_speed
//! ```
//!
//! 1. f64, b = 2, h = 20, every depth, a step law of 101 atoms (the root's children's true
//!    values span 1,901 grid points, with the leaf law 2,001), 5-point additive noise.
//! 2. f64, b = 2, h = 20, every depth, step law the point 0 and a 2,000-point leaf law (a
//!    2,000-valued P-game), 3-point noise.
//! 3. Exact rationals, b = 2, h = 10, every depth, 3-point step and noise laws, terminal
//!    nodes with probability 1/10.

use std::time::Instant;

use num_rational::BigRational;
use pathology::analytic::pathsum::{
    Evaluator, Law, Outcome, PathSumGame, estimate_cost, pathsum_column,
};
use pathology::budget::{human_bytes, human_seconds};

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

/// A triangular law on the integers `-half..=half`.
fn triangular(half: i64) -> Law {
    let weights: Vec<i64> = (-half..=half).map(|v| half + 1 - v.abs()).collect();
    let total: i64 = weights.iter().sum();
    let text: Vec<String> = (-half..=half)
        .zip(&weights)
        .map(|(v, w)| format!("{v}:{w}/{total}"))
        .collect();
    Law::parse("--step", &text.join(",")).unwrap()
}

fn time<P: pathology::numeric::number::Probability>(name: &str, game: &PathSumGame) {
    let depths: Vec<u32> = (1..=game.height).collect();
    let estimate = estimate_cost(game, &depths, P::EXACT).unwrap();
    let start = Instant::now();
    let column = pathsum_column::<P>(game, &depths).unwrap();
    let seconds = start.elapsed().as_secs_f64();
    let worst = column
        .rows
        .iter()
        .flat_map(|r| r.bounds)
        .fold(0.0, f64::max);
    println!(
        "{name}: {} (estimate {}), peak memory {} (estimate {}), D(1,h) = {:.6}, D(h-1,h) = {:.6}, largest bound {worst:.2e}",
        human_seconds(seconds),
        human_seconds(estimate.seconds),
        human_bytes(peak_memory()),
        human_bytes(estimate.bytes),
        column.rows[0].decision.to_f64(),
        column.rows[depths.len() - 2].decision.to_f64(),
    );
}

fn main() {
    let noise5 = Law::parse("--noise", "2:1/16,1:1/4,0:3/8,-1:1/4,-2:1/16").unwrap();
    let wide = PathSumGame {
        branching: 2,
        height: 20,
        step: triangular(50),
        leaf: triangular(50),
        terminal: BigRational::from_integer(0.into()),
        outcome: Outcome::Value,
        evaluator: Evaluator::Additive { noise: noise5 },
        levels: None,
    };
    time::<f64>(
        "1. f64 b=2 h=20, 101-atom steps and leaves, 5-point noise",
        &wide,
    );
    let pgame = PathSumGame {
        step: Law::parse("--step", "0").unwrap(),
        leaf: triangular(1000),
        evaluator: Evaluator::Additive {
            noise: Law::parse("--noise", "1:1/4,0:1/2,-1:1/4").unwrap(),
        },
        ..wide.clone()
    };
    time::<f64>("2. f64 b=2 h=20, 2001-valued P-game, 3-point noise", &pgame);
    let exact = PathSumGame {
        branching: 2,
        height: 10,
        step: Law::parse("--step", "1:1/3,0:1/3,-1:1/3").unwrap(),
        leaf: Law::parse("--leaf", "0").unwrap(),
        terminal: "1/10".parse().unwrap(),
        outcome: Outcome::Value,
        evaluator: Evaluator::Additive {
            noise: Law::parse("--noise", "1:1/4,0:1/2,-1:1/4").unwrap(),
        },
        levels: None,
    };
    time::<BigRational>(
        "3. exact b=2 h=10, 3-point steps and noise, T = 1/10",
        &exact,
    );
}
