//! Depth-d minimax over every position at once, with transpositions shared, and the exact
//! decision accuracy of every won White-to-move position.
//!
//! **Search.** From a White-to-move root, depth-d minimax searches d plies (White, Black,
//! White, ...). A checkmate met at ply t scores `hi + 1 + (d - t)` (above every heuristic
//! value, sooner mates better: the usual "mate minus ply"), a stalemate or the capture of
//! the piece scores `lo - 1` (below every heuristic value), and a position at ply d that does
//! not end the game scores its frontier value ([`super::heuristic::Evaluation`]). With a
//! deterministic evaluation the value of a position searched k plies deep is a function of
//! the position and k alone, so `value_k(p) = max or min over p's moves of value_(k-1)` is
//! computed for every position at once, level by level (one pass per ply over the flat
//! successor table: the cost grows linearly with the depth, the memory is two tables of
//! 8 bytes per index). A root's depth-d decision is the set B of its moves whose results
//! have the largest `value_(d-1)`; White picks one of B uniformly at random.
//!
//! **Measures** (per root, exact rationals): P(keeps the win) = |moves of B to a won
//! position| / |B|; P(fastest win) = |moves of B to a position of DTM one less| / |B|. The
//! root is *locally pathological* at depth d when depth d + 1 decides correctly with a
//! smaller probability than depth d.

use num_bigint::BigInt;
use num_rational::BigRational;
use rayon::prelude::*;

use super::board::POSITIONS;
use super::heuristic::Evaluation;
use super::solve::{CAPTURE, Endgame, Terminal};

/// The scores of the game's ends: a mate with k plies still to search scores `mate + k`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndScores {
    /// A checkmate at the frontier (`hi + 1`).
    pub mate: i64,
    /// A stalemate or the piece's capture (`lo - 1`).
    pub draw: i64,
}

impl EndScores {
    /// The end scores of an evaluation.
    pub fn of(evaluation: &Evaluation) -> EndScores {
        EndScores {
            mate: evaluation.top() + 1,
            draw: evaluation.bottom() - 1,
        }
    }
}

/// `value_0`: every legal position scored as a frontier node.
pub fn frontier_values(endgame: &Endgame, evaluation: &Evaluation) -> Vec<i64> {
    let ends = EndScores::of(evaluation);
    (0..POSITIONS)
        .into_par_iter()
        .map(|i| {
            if !endgame.is_legal(i) {
                return 0;
            }
            match endgame.terminal(i) {
                Terminal::Mate => ends.mate,
                Terminal::Stalemate => ends.draw,
                Terminal::No => evaluation.value(i),
            }
        })
        .collect()
}

/// `value_k` from `value_(k-1)`.
pub fn next_values(endgame: &Endgame, ends: EndScores, previous: &[i64], k: u32) -> Vec<i64> {
    let half = POSITIONS / 2;
    (0..POSITIONS)
        .into_par_iter()
        .map(|i| {
            if !endgame.is_legal(i) {
                return 0;
            }
            match endgame.terminal(i) {
                Terminal::Mate => ends.mate + i64::from(k),
                Terminal::Stalemate => ends.draw,
                Terminal::No => {
                    let scores = endgame.successors_of(i).iter().map(|&s| {
                        if s == CAPTURE {
                            ends.draw
                        } else {
                            previous[s as usize]
                        }
                    });
                    if i < half {
                        scores.max().unwrap_or(ends.draw)
                    } else {
                        scores.min().unwrap_or(ends.draw)
                    }
                }
            }
        })
        .collect()
}

/// One root's decision: how many moves tie for best, and how many of those keep the win or
/// win fastest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Decision {
    /// |B|.
    pub best: u8,
    /// Moves of B to a won position.
    pub keep: u8,
    /// Moves of B to a position of DTM one less than the root's.
    pub fastest: u8,
}

impl Decision {
    /// The decision at `root` when its moves' results score `scores` (`value_(d-1)`).
    pub fn at(endgame: &Endgame, root: usize, scores: &[i64]) -> Decision {
        let children = endgame.successors_of(root);
        let best = children
            .iter()
            .map(|&c| scores[c as usize])
            .max()
            .unwrap_or(0);
        let target = endgame.dtm(root).map(|d| d.saturating_sub(1));
        let mut decision = Decision::default();
        for &c in children {
            if scores[c as usize] == best {
                decision.best += 1;
                let d = endgame.dtm(c as usize);
                decision.keep += u8::from(d.is_some());
                decision.fastest += u8::from(d.is_some() && d == target);
            }
        }
        decision
    }

    /// Whether `self` keeps the win with a smaller probability than `other`.
    pub fn keeps_less_than(self, other: Decision) -> bool {
        u32::from(self.keep) * u32::from(other.best) < u32::from(other.keep) * u32::from(self.best)
    }

    /// Whether `self` wins fastest with a smaller probability than `other`.
    pub fn fastest_less_than(self, other: Decision) -> bool {
        u32::from(self.fastest) * u32::from(other.best)
            < u32::from(other.fastest) * u32::from(self.best)
    }
}

/// The decisions of every root at every depth `1..=max_depth` (`result[d - 1][r]`).
pub fn decisions(
    endgame: &Endgame,
    evaluation: &Evaluation,
    roots: &[usize],
    max_depth: u32,
) -> Vec<Vec<Decision>> {
    let ends = EndScores::of(evaluation);
    let mut values = frontier_values(endgame, evaluation);
    let mut out = Vec::new();
    for d in 1..=max_depth {
        if d > 1 {
            values = next_values(endgame, ends, &values, d - 1);
        }
        let scores = &values;
        out.push(
            roots
                .par_iter()
                .map(|&r| Decision::at(endgame, r, scores))
                .collect(),
        );
    }
    out
}

/// Sums of per-root probabilities `a / b` (b <= 255) kept as numerators per denominator, so
/// the total is exact.
#[derive(Debug, Clone)]
pub struct RationalSum {
    numerators: Vec<u64>,
}

impl Default for RationalSum {
    fn default() -> Self {
        RationalSum {
            numerators: vec![0; 256],
        }
    }
}

impl RationalSum {
    /// Adds `a / b`.
    pub fn add(&mut self, a: u8, b: u8) {
        self.numerators[usize::from(b)] += u64::from(a);
    }

    /// The sum divided by `count`, exactly (0 when `count` is 0).
    pub fn mean(&self, count: u64) -> BigRational {
        let mut total = BigRational::from_integer(BigInt::from(0));
        for (b, &a) in self.numerators.iter().enumerate() {
            if a > 0 && b > 0 {
                total += BigRational::new(BigInt::from(a), BigInt::from(b));
            }
        }
        if count == 0 {
            total
        } else {
            total / BigRational::from_integer(BigInt::from(count))
        }
    }
}

/// The recursive depth-d minimax value of `index` with `k` plies left, searched as a tree
/// (no table): the reference the level-by-level tables are tested against.
pub fn tree_value(endgame: &Endgame, evaluation: &Evaluation, index: usize, k: u32) -> i64 {
    let ends = EndScores::of(evaluation);
    match endgame.terminal(index) {
        Terminal::Mate => ends.mate + i64::from(k),
        Terminal::Stalemate => ends.draw,
        Terminal::No if k == 0 => evaluation.value(index),
        Terminal::No => {
            let scores = endgame.successors_of(index).iter().map(|&s| {
                if s == CAPTURE {
                    ends.draw
                } else {
                    tree_value(endgame, evaluation, s as usize, k - 1)
                }
            });
            if index < POSITIONS / 2 {
                scores.max().unwrap_or(ends.draw)
            } else {
                scores.min().unwrap_or(ends.draw)
            }
        }
    }
}
