//! Times `pathology domain eight-puzzle` (its speed targets):
//!
//! ```text
//! cargo run --release --example puzzle_speed
//! ```
//!
//! 1. Solving the puzzle (breadth-first search over the 181,440 states).
//! 2. Every state at depths 1..10 with Manhattan distance, exact, on 2 threads; then 1..20
//!    and 1..40 (the growth with depth: one pass over the states per depth).
//! 3. Exact discrete noise (-1, 0, 1 with 1/4, 1/2, 1/4) at depths 1..2 and 1..3 (with d + 1).
//! 4. The sampled route's cost per searched node (Gaussian noise, depth 8), against the
//!    constant the refusal uses.

use std::time::Instant;

use pathology::domains::eight_puzzle::board::Puzzle;
use pathology::domains::eight_puzzle::{Noise, PuzzleConfig, accuracy_by_depth, monte_carlo};

fn main() {
    let start = Instant::now();
    let puzzle = Puzzle::solve();
    println!(
        "solve: {} states in {:.3} s",
        puzzle.len(),
        start.elapsed().as_secs_f64()
    );
    for top in [10, 20, 40] {
        let mut config = PuzzleConfig::exact((1..=top).collect());
        config.run.threads = Some(2);
        let start = Instant::now();
        accuracy_by_depth(&config).unwrap();
        println!(
            "exact manhattan, depths 1..{top}: {:.3} s",
            start.elapsed().as_secs_f64()
        );
    }
    for top in [2, 3] {
        let mut config = PuzzleConfig::exact((1..=top).collect());
        config.noise = Noise::parse("-1:1/4,0:1/2,1:1/4").unwrap();
        config.run.threads = Some(2);
        let start = Instant::now();
        accuracy_by_depth(&config).unwrap();
        println!(
            "exact discrete noise, depths 1..{top} (and {}): {:.3} s",
            top + 1,
            start.elapsed().as_secs_f64()
        );
    }
    let mut config = PuzzleConfig::exact(vec![8]);
    config.noise = Noise::parse("gaussian:1").unwrap();
    config.run.trials = 2000;
    config.run.threads = Some(1);
    let start = Instant::now();
    accuracy_by_depth(&config).unwrap();
    let seconds = start.elapsed().as_secs_f64();
    let nodes = 2000.0 * monte_carlo::tree_nodes(8, monte_carlo::mean_branching(&puzzle));
    println!(
        "sampled gaussian, depth 8, 2000 trials on 1 thread: {seconds:.3} s, {:.1e} s per node",
        seconds / nodes
    );
}
