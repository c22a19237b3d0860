//! Depth-d minimin with discrete noise drawn independently at every frontier node, exactly.
//!
//! With noise per search node, two frontier nodes holding the same state draw separately,
//! so the dynamic programme of [`super::exact`] no longer applies; but the law of the value of
//! the subtree below a state with k moves left depends only on (state, k), and the subtrees
//! below different moves are independent. So the law is computed recursively, memoised per
//! (state, k) within one root's tree: a frontier state's law is its (levelled) heuristic plus
//! the noise law, the goal's is 0, and an inner node's is the law of the least of its
//! children's (each shifted by a move's cost), from the product of their survival functions.
//! The root's decision then picks the best first move with ties uniform: move i is taken with
//! probability `sum_v P(V_i = v) sum_t c_t(v) / (t + 1)`, where `c_t(v)` is the probability
//! that exactly t other moves tie at v and none is below. Every probability is an exact
//! rational.

use std::collections::HashMap;
use std::rc::Rc;

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::board::Puzzle;
use super::heuristic::{DiscreteLaw, Evaluation};

/// A discrete law: ascending values, each with its probability.
type Law = Vec<(i64, BigRational)>;

fn merged(mut pairs: Vec<(i64, BigRational)>) -> Law {
    pairs.sort_by_key(|p| p.0);
    let mut out: Law = Vec::with_capacity(pairs.len());
    for (v, p) in pairs {
        match out.last_mut() {
            Some(last) if last.0 == v => last.1 += p,
            _ => out.push((v, p)),
        }
    }
    out
}

/// P(V >= v) for each v of `values` (ascending), for one law.
fn survival(law: &Law, values: &[i64]) -> Vec<BigRational> {
    let mut tail: BigRational = BigRational::one();
    let mut out = Vec::with_capacity(values.len());
    let mut j = 0;
    for &v in values {
        while j < law.len() && law[j].0 < v {
            tail -= &law[j].1;
            j += 1;
        }
        out.push(tail.clone());
    }
    out
}

fn union_values(laws: &[&Law]) -> Vec<i64> {
    let mut values: Vec<i64> = laws.iter().flat_map(|l| l.iter().map(|p| p.0)).collect();
    values.sort_unstable();
    values.dedup();
    values
}

/// The law of the least of independent laws.
fn minimum(laws: &[&Law], shift: i64) -> Law {
    let values = union_values(laws);
    let survivals: Vec<Vec<BigRational>> = laws.iter().map(|l| survival(l, &values)).collect();
    let at_least: Vec<BigRational> = (0..values.len())
        .map(|i| survivals.iter().map(|s| &s[i]).product())
        .collect();
    let mut out = Law::new();
    for i in 0..values.len() {
        let next = at_least
            .get(i + 1)
            .cloned()
            .unwrap_or_else(BigRational::zero);
        let p = &at_least[i] - next;
        if !p.is_zero() {
            out.push((values[i] + shift, p));
        }
    }
    out
}

/// One root's tree: the memoised laws of (state, moves left).
pub struct Tree<'a> {
    puzzle: &'a Puzzle,
    evaluation: &'a Evaluation,
    noise: &'a DiscreteLaw,
    memo: HashMap<(usize, u32), Rc<Law>>,
}

impl<'a> Tree<'a> {
    /// A tree search with this evaluation and noise.
    pub fn new(puzzle: &'a Puzzle, evaluation: &'a Evaluation, noise: &'a DiscreteLaw) -> Self {
        Tree {
            puzzle,
            evaluation,
            noise,
            memo: HashMap::new(),
        }
    }

    /// The law of the minimin value below `s` with `k` moves left.
    fn law(&mut self, s: usize, k: u32) -> Rc<Law> {
        if let Some(l) = self.memo.get(&(s, k)) {
            return Rc::clone(l);
        }
        let law = if s == 0 {
            vec![(0, BigRational::one())]
        } else if k == 0 {
            merged(
                self.noise
                    .numerators
                    .iter()
                    .zip(&self.noise.probabilities)
                    .map(|(&x, p)| (self.evaluation.scaled_with(s, x), p.clone()))
                    .collect(),
            )
        } else {
            let children: Vec<Rc<Law>> = self
                .puzzle
                .successors(s)
                .collect::<Vec<_>>()
                .into_iter()
                .map(|n| self.law(n, k - 1))
                .collect();
            let refs: Vec<&Law> = children.iter().map(Rc::as_ref).collect();
            minimum(&refs, self.evaluation.scale())
        };
        let law = Rc::new(law);
        self.memo.insert((s, k), Rc::clone(&law));
        law
    }

    /// P(the depth-d decision at `root` lies on an optimal path), exactly.
    pub fn correct(&mut self, root: usize, d: u32) -> BigRational {
        let moves: Vec<usize> = self.puzzle.successors(root).collect();
        let laws: Vec<Rc<Law>> = moves.iter().map(|&n| self.law(n, d - 1)).collect();
        let refs: Vec<&Law> = laws.iter().map(Rc::as_ref).collect();
        let values = union_values(&refs);
        let target = self.puzzle.distance(root) - 1;
        // P(V_j >= v) and P(V_j = v) per move and value.
        let survivals: Vec<Vec<BigRational>> = refs.iter().map(|l| survival(l, &values)).collect();
        let mut total = BigRational::zero();
        for (i, &m) in moves.iter().enumerate() {
            if self.puzzle.distance(m) != target {
                continue;
            }
            for (vi, _) in values.iter().enumerate() {
                let at = |j: usize| {
                    let next = survivals[j]
                        .get(vi + 1)
                        .cloned()
                        .unwrap_or_else(BigRational::zero);
                    (&survivals[j][vi] - &next, next)
                };
                let (p_i, _) = at(i);
                if p_i.is_zero() {
                    continue;
                }
                // Coefficients of prod_{j != i} (P(V_j > v) + P(V_j = v) z).
                let mut poly = vec![BigRational::one()];
                for j in (0..moves.len()).filter(|&j| j != i) {
                    let (eq, gt) = at(j);
                    let mut next = vec![BigRational::zero(); poly.len() + 1];
                    for (t, c) in poly.iter().enumerate() {
                        next[t] += c * &gt;
                        next[t + 1] += c * &eq;
                    }
                    poly = next;
                }
                let share: BigRational = poly
                    .iter()
                    .enumerate()
                    .map(|(t, c)| c / BigRational::from_integer((t as i64 + 1).into()))
                    .sum();
                total += p_i * share;
            }
        }
        total
    }
}
