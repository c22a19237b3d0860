//! Times UCT on Nguyen & Ramanujan's critical win-loss game (H = 50): iterations per second
//! on one thread by branching factor, exploration constant and evaluator, bytes per node, and
//! the rate with every core running its own games. Prints the estimate of the paper's
//! Figure 5 grid in core-hours from the measured rates.
//!
//! `cargo run --release --example uct_speed -- [games] [iterations]` (default 4 games of
//! 100,000 iterations per setting).

use std::time::Instant;

use pathology::games::critical::{CriticalGame, CriticalNode};
use pathology::search::uct::{CriticalEvaluator, Uct, UctParams};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rayon::prelude::*;

/// The paper's exploration constants (the authors' `c_values`).
const C_VALUES: [f64; 6] = [0.001, 0.01, 0.1, 1.0, 10.0, 1e6];

/// Runs `games` searches of `iterations` iterations each and returns the iterations run.
fn run(
    b: u32,
    gamma: f64,
    evaluator: CriticalEvaluator,
    c: f64,
    games: u64,
    iterations: u64,
) -> u64 {
    let mut uct = Uct::<CriticalNode>::new();
    let params = UctParams::new(c).expect("a valid c");
    for g in 0..games {
        let game = CriticalGame::new(b, 50, gamma, gamma, g).expect("a valid game");
        let mut rng = ChaCha8Rng::seed_from_u64(g);
        uct.search(
            &game,
            &game.root(),
            &evaluator,
            &params,
            &[iterations],
            &mut rng,
        )
        .expect("a valid search");
    }
    games * iterations
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("whole numbers"))
        .collect();
    let games = args.first().copied().unwrap_or(4);
    let iterations = args.get(1).copied().unwrap_or(100_000);
    println!(
        "UCT on the critical game, H = 50, {games} games x {iterations} iterations per setting, one thread; {} bytes per node",
        Uct::<CriticalNode>::bytes_per_node()
    );
    let evaluators = [
        (
            "gaussian sigma=0.25",
            CriticalEvaluator::Gaussian { sigma: 0.25 },
        ),
        ("expected-playout", CriticalEvaluator::ExpectedPlayout),
    ];
    // Seconds per iteration, averaged over c, by (b, gamma, evaluator).
    let mut mean_costs = Vec::new();
    for b in [2u32, 5, 8] {
        for gamma in [1.0, 0.9] {
            for (name, evaluator) in evaluators {
                let mut line = Vec::new();
                let mut total_seconds = 0.0;
                for c in C_VALUES {
                    let start = Instant::now();
                    let n = run(b, gamma, evaluator, c, games, iterations);
                    let seconds = start.elapsed().as_secs_f64();
                    total_seconds += seconds;
                    line.push(format!("c={c:e}: {:.2} M/s", n as f64 / seconds / 1e6));
                }
                let per_iteration =
                    total_seconds / (C_VALUES.len() as u64 * games * iterations) as f64;
                mean_costs.push(per_iteration);
                println!(
                    "b = {b}, gamma = {gamma}, {name}: {:.0} ns/iteration over the c grid ({:.2} M/s); {}",
                    per_iteration * 1e9,
                    1e-6 / per_iteration,
                    line.join(", ")
                );
            }
        }
    }
    // Every core on its own games: b = 2, gamma = 1, Gaussian, the whole c grid.
    let threads = rayon::current_num_threads();
    let start = Instant::now();
    let total: u64 = (0..threads as u64 * games)
        .into_par_iter()
        .map(|g| {
            C_VALUES
                .iter()
                .map(|&c| {
                    let mut uct = Uct::<CriticalNode>::new();
                    let game = CriticalGame::new(2, 50, 1.0, 1.0, g).expect("a valid game");
                    let mut rng = ChaCha8Rng::seed_from_u64(g);
                    let params = UctParams::new(c).expect("a valid c");
                    uct.search(
                        &game,
                        &game.root(),
                        &CriticalEvaluator::Gaussian { sigma: 0.25 },
                        &params,
                        &[iterations],
                        &mut rng,
                    )
                    .expect("a valid search");
                    iterations
                })
                .sum::<u64>()
        })
        .sum();
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{threads} threads, b = 2, gamma = 1, gaussian, the c grid: {:.2} M iterations/s",
        total as f64 / seconds / 1e6
    );
    // The paper's Figure 5: b in {2, 5, 8}, gamma in {0.9, 1}, two heuristics, six c, 500
    // games of 1e5 iterations each (decisions recorded along the way).
    let per_setting = 6.0 * 500.0 * 1e5;
    let core_seconds: f64 = mean_costs.iter().map(|s| s * per_setting).sum();
    println!(
        "Figure 5 (12 settings x 6 c x 500 games x 1e5 iterations = 3.6e9 iterations): {:.2} core-hours at the measured costs",
        core_seconds / 3600.0
    );
}
