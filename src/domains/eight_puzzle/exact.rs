//! Depth-d minimin with a deterministic heuristic, over every state at once.
//!
//! The search at a state looks at every path of d moves (or fewer, when the path reaches the
//! goal) and moves along the first move of the path that minimises moves made plus the
//! heuristic at its end; paths may revisit states (undoing a move is allowed). Its value is
//! then a dynamic programme over the state index (the transposition table is the whole
//! state space): `V_0(s) = h(s)`, `V_k(s) = min_n (1 + V_{k-1}(n))` over the neighbours, and
//! `V_k(goal) = 0` (reaching the goal ends the path). The decision at depth d scores each
//! first move m with `1 + V_{d-1}(m)` and takes a best one, ties uniformly at random; it is
//! correct when m lies on an optimal path (`dist(m) = dist(s) - 1`). With at most four moves
//! a state's probability of deciding correctly is one of 0, 1/4, 1/3, 1/2, 2/3, 3/4, 1:
//! kept as twelfths. A test checks the programme against a literal recursive tree search.

use super::board::{NONE, Puzzle};
use super::heuristic::Evaluation;

/// Twelfths: P(correct) = twelfths / 12 (every tie set has 1..=4 moves).
pub const UNIT: u64 = 12;

/// The minimin values `V_k` of every state for `k = 0..=max_k` (scaled by the evaluation's
/// scale, which is also a move's cost).
pub fn values(puzzle: &Puzzle, evaluation: &Evaluation, max_k: u32) -> Vec<Vec<i64>> {
    let cost = evaluation.scale();
    let mut v0: Vec<i64> = (0..puzzle.len()).map(|i| evaluation.scaled(i)).collect();
    v0[0] = 0;
    let mut all = vec![v0];
    for _ in 0..max_k {
        let last = all.last().map_or(&[][..], Vec::as_slice);
        let mut next: Vec<i64> = (0..puzzle.len())
            .map(|i| {
                puzzle
                    .successors(i)
                    .map(|n| cost + last[n])
                    .min()
                    .unwrap_or(0)
            })
            .collect();
        next[0] = 0;
        all.push(next);
    }
    all
}

/// P(correct) in twelfths at every state (index 0, the goal, is 0) of the depth-d decision,
/// from `V_{d-1}`.
pub fn decisions(puzzle: &Puzzle, previous: &[i64]) -> Vec<u8> {
    let mut out = vec![0u8; puzzle.len()];
    for (s, slot) in out.iter_mut().enumerate().skip(1) {
        let target = puzzle.distance(s) - 1;
        let mut best = i64::MAX;
        let (mut tied, mut good) = (0u64, 0u64);
        for &n in puzzle.neighbours(s) {
            if n == NONE {
                continue;
            }
            let n = n as usize;
            let score = previous[n];
            if score < best {
                best = score;
                tied = 0;
                good = 0;
            }
            if score == best {
                tied += 1;
                good += u64::from(puzzle.distance(n) == target);
            }
        }
        *slot = (UNIT * good / tied) as u8;
    }
    out
}

/// P(correct) in twelfths at every state for each depth of `depths` (each >= 1).
pub fn decisions_by_depth(
    puzzle: &Puzzle,
    evaluation: &Evaluation,
    depths: &[u32],
) -> Vec<Vec<u8>> {
    let max = depths.iter().copied().max().unwrap_or(1);
    let v = values(puzzle, evaluation, max - 1);
    depths
        .iter()
        .map(|&d| decisions(puzzle, &v[(d - 1) as usize]))
        .collect()
}

/// The literal depth-d minimin tree search at `root` (for tests): the value of every first
/// move, by recursion over every path.
pub fn tree_scores(puzzle: &Puzzle, evaluation: &Evaluation, root: usize, d: u32) -> Vec<i64> {
    fn value(puzzle: &Puzzle, evaluation: &Evaluation, s: usize, k: u32) -> i64 {
        if s == 0 {
            0
        } else if k == 0 {
            evaluation.scaled(s)
        } else {
            puzzle
                .successors(s)
                .map(|n| evaluation.scale() + value(puzzle, evaluation, n, k - 1))
                .min()
                .unwrap_or(0)
        }
    }
    puzzle
        .successors(root)
        .map(|n| evaluation.scale() + value(puzzle, evaluation, n, d - 1))
        .collect()
}
