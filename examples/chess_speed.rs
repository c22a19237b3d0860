//! Times the KRK/KQK solver and the exact depth-d decisions over every won position (the
//! speed targets: KRK solved in under 10 s; every won position at depths 1..5, exact, in
//! under 5 minutes on 2 cores), the growth with depth, and one noisy tree search's cost per
//! node: `cargo run --release --example chess_speed`.

use std::time::Instant;

use pathology::domains::chess::exact::decisions;
use pathology::domains::chess::heuristic::{Evaluation, Heuristic, Noise};
use pathology::domains::chess::monte_carlo::{branching, noisy_decision, tree_nodes};
use pathology::domains::chess::{Endgame, Piece};
use pathology::sim::runner::trial_rng;

fn main() {
    for piece in [Piece::Rook, Piece::Queen] {
        let start = Instant::now();
        let endgame = Endgame::solve(piece);
        let solve = start.elapsed().as_secs_f64();
        let roots = endgame.won_white_positions();
        let bytes = endgame.successor_entries() * 4 + (2 * 64 * 64 * 64) * (4 + 1 + 1 + 8 * 2);
        println!(
            "{}: solved in {solve:.2} s; {} won roots; table and two value levels about {:.0} MB",
            piece.endgame(),
            roots.len(),
            bytes as f64 / 1e6
        );
        let evaluation = Evaluation::new(&endgame, Heuristic::Mopup, None).unwrap();
        for max_depth in [1u32, 2, 3, 4, 5, 6, 10, 20] {
            let start = Instant::now();
            let all = decisions(&endgame, &evaluation, &roots, max_depth);
            println!(
                "  exact decisions at every depth 1..={max_depth:2}: {:.2} s ({} roots x {} depths)",
                start.elapsed().as_secs_f64(),
                roots.len(),
                all.len()
            );
        }
        let sampler = Noise::Gaussian(10.0).sampler();
        let b = branching(&endgame);
        for depth in 1..=5u32 {
            let trials = [2000u64, 1000, 300, 100, 30][depth as usize - 1];
            let start = Instant::now();
            for t in 0..trials {
                let mut rng = trial_rng(1, t);
                let root = roots[(t as usize * 7919) % roots.len()];
                noisy_decision(&endgame, &evaluation, &sampler, root, depth, &mut rng);
            }
            let per = start.elapsed().as_secs_f64() / trials as f64;
            let nodes = tree_nodes(depth, b);
            println!(
                "  noisy tree search depth {depth}: {:.3} ms per search, about {nodes:.0} nodes, {:.1} ns per node",
                per * 1e3,
                per / nodes * 1e9
            );
        }
    }
}
