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
//! that exactly t other moves tie at v and none is below.
//!
//! Every probability is exact: with the noise's probabilities `w_i / q` (whole `w_i`), a
//! subtree with e noisy frontier nodes has probabilities `W / q^e` with whole W, so the laws
//! carry whole weights and an exponent, and only the root's result becomes a reduced
//! rational (over `12 q^E`).

use std::collections::HashMap;
use std::rc::Rc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Pow, Zero};

use super::board::Puzzle;
use super::heuristic::{DiscreteLaw, Evaluation};

/// A discrete law: ascending values with whole weights over `q^exponent`.
#[derive(Debug, Clone)]
struct Law {
    exponent: u32,
    items: Vec<(i64, BigInt)>,
}

impl Law {
    /// The weights of `V >= v` for each v of `values` (ascending).
    fn survival(&self, total: &BigInt, values: &[i64]) -> Vec<BigInt> {
        let mut tail = total.clone();
        let mut out = Vec::with_capacity(values.len());
        let mut j = 0;
        for &v in values {
            while j < self.items.len() && self.items[j].0 < v {
                tail -= &self.items[j].1;
                j += 1;
            }
            out.push(tail.clone());
        }
        out
    }
}

fn union_values(laws: &[&Law]) -> Vec<i64> {
    let mut values: Vec<i64> = laws
        .iter()
        .flat_map(|l| l.items.iter().map(|p| p.0))
        .collect();
    values.sort_unstable();
    values.dedup();
    values
}

/// One root's tree: the memoised laws of (state, moves left).
pub struct Tree<'a> {
    puzzle: &'a Puzzle,
    evaluation: &'a Evaluation,
    noise: &'a DiscreteLaw,
    /// q^e for e = 0, 1, ... (grown on demand).
    powers: Vec<BigInt>,
    memo: HashMap<(usize, u32), Rc<Law>>,
}

impl<'a> Tree<'a> {
    /// A tree search with this evaluation and noise.
    pub fn new(puzzle: &'a Puzzle, evaluation: &'a Evaluation, noise: &'a DiscreteLaw) -> Self {
        Tree {
            puzzle,
            evaluation,
            noise,
            powers: vec![BigInt::one()],
            memo: HashMap::new(),
        }
    }

    fn power(&mut self, e: u32) -> BigInt {
        while self.powers.len() <= e as usize {
            let next = self.powers[self.powers.len() - 1].clone() * &self.noise.weight_denominator;
            self.powers.push(next);
        }
        self.powers[e as usize].clone()
    }

    /// The law of the minimin value below `s` with `k` moves left.
    fn law(&mut self, s: usize, k: u32) -> Rc<Law> {
        if let Some(l) = self.memo.get(&(s, k)) {
            return Rc::clone(l);
        }
        let law = if s == 0 {
            Law {
                exponent: 0,
                items: vec![(0, BigInt::one())],
            }
        } else if k == 0 {
            let mut items: Vec<(i64, BigInt)> = self
                .noise
                .numerators
                .iter()
                .zip(&self.noise.weights)
                .map(|(&x, w)| (self.evaluation.scaled_with(s, x), w.clone()))
                .collect();
            items.sort_by_key(|p| p.0);
            let mut merged: Vec<(i64, BigInt)> = Vec::with_capacity(items.len());
            for (v, w) in items {
                match merged.last_mut() {
                    Some(last) if last.0 == v => last.1 += w,
                    _ => merged.push((v, w)),
                }
            }
            Law {
                exponent: 1,
                items: merged,
            }
        } else {
            let moves: Vec<usize> = self.puzzle.successors(s).collect();
            let children: Vec<Rc<Law>> = moves.into_iter().map(|n| self.law(n, k - 1)).collect();
            self.minimum(&children)
        };
        let law = Rc::new(law);
        self.memo.insert((s, k), Rc::clone(&law));
        law
    }

    /// The law of the least of independent laws, shifted by a move's cost.
    fn minimum(&mut self, children: &[Rc<Law>]) -> Law {
        let refs: Vec<&Law> = children.iter().map(Rc::as_ref).collect();
        let values = union_values(&refs);
        let totals: Vec<BigInt> = refs.iter().map(|l| self.power(l.exponent)).collect();
        let survivals: Vec<Vec<BigInt>> = refs
            .iter()
            .zip(&totals)
            .map(|(l, t)| l.survival(t, &values))
            .collect();
        let at_least: Vec<BigInt> = (0..values.len())
            .map(|i| survivals.iter().map(|s| &s[i]).product())
            .collect();
        let shift = self.evaluation.scale();
        let mut items = Vec::new();
        for i in 0..values.len() {
            let next = at_least.get(i + 1).cloned().unwrap_or_else(BigInt::zero);
            let w = &at_least[i] - next;
            if !w.is_zero() {
                items.push((values[i] + shift, w));
            }
        }
        Law {
            exponent: refs.iter().map(|l| l.exponent).sum(),
            items,
        }
    }

    /// P(the depth-d decision at `root` lies on an optimal path), exactly.
    pub fn correct(&mut self, root: usize, d: u32) -> BigRational {
        let (numerator, exponent) = self.correct_scaled(root, d);
        let denominator = BigInt::from(12) * Pow::pow(&self.noise.weight_denominator, exponent);
        BigRational::new(numerator, denominator)
    }

    /// [`Tree::correct`] unreduced: `(N, E)` with the probability `N / (12 q^E)`, q the
    /// noise's probability denominator.
    pub fn correct_scaled(&mut self, root: usize, d: u32) -> (BigInt, u32) {
        let moves: Vec<usize> = self.puzzle.successors(root).collect();
        let laws: Vec<Rc<Law>> = moves.iter().map(|&n| self.law(n, d - 1)).collect();
        let refs: Vec<&Law> = laws.iter().map(Rc::as_ref).collect();
        let values = union_values(&refs);
        let target = self.puzzle.distance(root) - 1;
        let totals: Vec<BigInt> = refs.iter().map(|l| self.power(l.exponent)).collect();
        let survivals: Vec<Vec<BigInt>> = refs
            .iter()
            .zip(&totals)
            .map(|(l, t)| l.survival(t, &values))
            .collect();
        // (weight of V_j = v, weight of V_j > v) at value index vi.
        let at = |j: usize, vi: usize| {
            let next = survivals[j]
                .get(vi + 1)
                .cloned()
                .unwrap_or_else(BigInt::zero);
            (&survivals[j][vi] - &next, next)
        };
        // sum_t c_t * 12 / (t + 1), whole since t + 1 <= 4.
        let shares = [12, 6, 4, 3];
        let mut total = BigInt::zero();
        for (i, &m) in moves.iter().enumerate() {
            if self.puzzle.distance(m) != target {
                continue;
            }
            for vi in 0..values.len() {
                let (w_i, _) = at(i, vi);
                if w_i.is_zero() {
                    continue;
                }
                let mut poly = vec![BigInt::one()];
                for j in (0..moves.len()).filter(|&j| j != i) {
                    let (eq, gt) = at(j, vi);
                    let mut next = vec![BigInt::zero(); poly.len() + 1];
                    for (t, c) in poly.iter().enumerate() {
                        next[t] += c * &gt;
                        next[t + 1] += c * &eq;
                    }
                    poly = next;
                }
                let share: BigInt = poly
                    .iter()
                    .zip(shares)
                    .map(|(c, s)| c * BigInt::from(s))
                    .sum();
                total += w_i * share;
            }
        }
        (total, refs.iter().map(|l| l.exponent).sum())
    }
}
