//! Depth-d minimin with noise drawn per search node, sampled: each trial draws a non-goal
//! state uniformly, searches it as a tree at every depth asked (fresh noise at every frontier
//! node and for every depth), breaks ties among the best first moves uniformly at random, and
//! records whether the move lies on an optimal path. Trials run on the project's seeded
//! runner ([`crate::sim::runner`]: one stream per trial, results independent of the thread
//! count, `--shard K/N`).

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::board::Puzzle;
use super::heuristic::{Evaluation, Noise};

/// How a frontier value is drawn: values in a unit where a move costs `cost`.
pub struct Sampler<'a> {
    evaluation: &'a Evaluation,
    noise: &'a Noise,
    cost: f64,
    /// Cumulative probabilities of a discrete law, as `f64` (the sampled law).
    cumulative: Vec<f64>,
}

impl<'a> Sampler<'a> {
    /// The sampler of this evaluation and noise.
    pub fn new(evaluation: &'a Evaluation, noise: &'a Noise) -> Self {
        let (cost, cumulative) = match noise {
            Noise::Gaussian(..) => (1.0, Vec::new()),
            Noise::Discrete(law) => {
                let mut acc = 0.0;
                let c = law
                    .probabilities
                    .iter()
                    .map(|p| {
                        acc += crate::sim::report::rational_f64(p);
                        acc
                    })
                    .collect();
                (evaluation.scale() as f64, c)
            }
            Noise::None => (evaluation.scale() as f64, Vec::new()),
        };
        Sampler {
            evaluation,
            noise,
            cost,
            cumulative,
        }
    }

    /// One frontier value of state `s`.
    fn frontier(&self, s: usize, rng: &mut ChaCha8Rng) -> f64 {
        match self.noise {
            Noise::None => self.evaluation.scaled(s) as f64,
            Noise::Gaussian(sigma, _) => {
                // Box-Muller from two uniforms in (0, 1].
                let u1 = 1.0 - rng.random::<f64>();
                let u2 = rng.random::<f64>();
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                self.evaluation.real_with(s, sigma * z)
            }
            Noise::Discrete(law) => {
                let u = rng.random::<f64>();
                let i = self
                    .cumulative
                    .iter()
                    .position(|&c| u < c)
                    .unwrap_or(law.numerators.len() - 1);
                self.evaluation.scaled_with(s, law.numerators[i]) as f64
            }
        }
    }

    fn value(&self, puzzle: &Puzzle, s: usize, k: u32, rng: &mut ChaCha8Rng) -> f64 {
        if s == 0 {
            0.0
        } else if k == 0 {
            self.frontier(s, rng)
        } else {
            let mut best = f64::INFINITY;
            for n in puzzle.successors(s) {
                best = best.min(self.cost + self.value(puzzle, n, k - 1, rng));
            }
            best
        }
    }

    /// One noisy depth-`d` decision at `root`: whether it lies on an optimal path.
    pub fn correct(&self, puzzle: &Puzzle, root: usize, d: u32, rng: &mut ChaCha8Rng) -> bool {
        let moves: Vec<usize> = puzzle.successors(root).collect();
        let scores: Vec<f64> = moves
            .iter()
            .map(|&n| self.value(puzzle, n, d - 1, rng))
            .collect();
        let best = scores.iter().copied().fold(f64::INFINITY, f64::min);
        let ties: Vec<usize> = (0..moves.len()).filter(|&i| scores[i] == best).collect();
        let pick = if ties.len() == 1 {
            ties[0]
        } else {
            ties[rng.random_range(0..ties.len())]
        };
        puzzle.distance(moves[pick]) + 1 == puzzle.distance(root)
    }
}

/// The mean number of moves of a state (every state, the goal's included): 2 2/3.
pub fn mean_branching(puzzle: &Puzzle) -> f64 {
    let total: usize = (0..puzzle.len())
        .map(|s| puzzle.successors(s).count())
        .sum();
    total as f64 / puzzle.len() as f64
}

/// The expected nodes of one depth-`d` tree search with mean branching `b`.
pub fn tree_nodes(d: u32, b: f64) -> f64 {
    (1..=d).map(|i| b.powi(i as i32)).sum()
}
