//! Depth-d minimax with noise drawn independently at every search node, sampled: each trial
//! draws a won White-to-move root uniformly, searches it as a tree at every depth asked (new
//! noise per node and per depth), and records whether the decision keeps the win and whether
//! it wins fastest (ties among the best moves broken uniformly at random). Trials run on the
//! project's seeded runner ([`crate::sim::runner`]: one stream per trial, any thread count,
//! `--shard K/N`), and every proportion is printed with its 95% Wilson interval.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::board::POSITIONS;
use super::heuristic::{Evaluation, Sampler};
use super::solve::{CAPTURE, Endgame, Terminal};

/// A mate's score (plus the plies left): above any noisy value.
const MATE: f64 = 1e15;
/// A draw's score: below any noisy value.
const DRAW: f64 = -1e15;

/// The noisy minimax value of `index` with `k` plies left.
fn noisy_value(
    endgame: &Endgame,
    evaluation: &Evaluation,
    sampler: &Sampler,
    index: usize,
    k: u32,
    rng: &mut ChaCha8Rng,
) -> f64 {
    match endgame.terminal(index) {
        Terminal::Mate => MATE + f64::from(k),
        Terminal::Stalemate => DRAW,
        Terminal::No if k == 0 => evaluation.noisy_value(index, sampler.sample(rng)),
        Terminal::No => {
            let white = index < POSITIONS / 2;
            let mut best = if white {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            for &s in endgame.successors_of(index) {
                let v = if s == CAPTURE {
                    DRAW
                } else {
                    noisy_value(endgame, evaluation, sampler, s as usize, k - 1, rng)
                };
                best = if white { best.max(v) } else { best.min(v) };
            }
            best
        }
    }
}

/// One noisy depth-`depth` decision at `root`: (keeps the win, wins fastest).
pub fn noisy_decision(
    endgame: &Endgame,
    evaluation: &Evaluation,
    sampler: &Sampler,
    root: usize,
    depth: u32,
    rng: &mut ChaCha8Rng,
) -> (bool, bool) {
    let children = endgame.successors_of(root);
    let scores: Vec<f64> = children
        .iter()
        .map(|&c| noisy_value(endgame, evaluation, sampler, c as usize, depth - 1, rng))
        .collect();
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let ties: Vec<usize> = (0..children.len()).filter(|&i| scores[i] == best).collect();
    let pick = if ties.len() == 1 {
        ties[0]
    } else {
        ties[rng.random_range(0..ties.len())]
    };
    let child = children[pick] as usize;
    let d = endgame.dtm(child);
    let target = endgame.dtm(root).map(|x| x.saturating_sub(1));
    (d.is_some(), d.is_some() && d == target)
}

/// The average number of moves of the legal non-terminal positions with White and with
/// Black to move: the search tree's branching, for the cost estimate.
pub fn branching(endgame: &Endgame) -> (f64, f64) {
    let mut sums = [(0usize, 0usize); 2];
    for i in endgame.legal_positions() {
        if endgame.terminal(i) == Terminal::No {
            let side = usize::from(i >= POSITIONS / 2);
            sums[side].0 += endgame.successors_of(i).len();
            sums[side].1 += 1;
        }
    }
    let mean = |(a, b): (usize, usize)| a as f64 / b.max(1) as f64;
    (mean(sums[0]), mean(sums[1]))
}

/// The expected nodes of one depth-`depth` tree search with this branching.
pub fn tree_nodes(depth: u32, (white, black): (f64, f64)) -> f64 {
    let mut nodes = 0.0;
    let mut width = 1.0;
    for ply in 0..depth {
        width *= if ply % 2 == 0 { white } else { black };
        nodes += width;
    }
    nodes
}
