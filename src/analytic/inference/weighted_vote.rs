//! Reward-weighted majority voting: k samples, each the correct answer with probability R or
//! wrong answer i with probability `(1 - R) U_i`, each scored by a verifier (a correct
//! sample's score from one law, a wrong one's from another, independently); an answer's
//! weight is the sum of its samples' scores, and the answer of the largest weight among the
//! answers that got a sample wins, ties broken uniformly among the tied answers.
//!
//! **The sum.** Fix the correct answer's count c >= 1 (with none it is not a candidate) and
//! its total s, drawn from the c-fold convolution of the correct law. The wrong votes
//! N = k - c split multinomially; a wrong answer with w >= 1 votes has a total drawn from the
//! w-fold convolution of the wrong law, and it beats the correct answer when above s, ties
//! when equal. So
//!
//! `P_correct = sum_c C(k, c) R^c sum_s P(S_c = s) E[1/(1 + T) ; no wrong total above s]`,
//!
//! T the number of wrong answers (with votes) whose total is s. The expectation is a dynamic
//! programme over the wrong answers in (votes used, number tied): an answer that takes w >= 1
//! votes multiplies by `C(t + w, w) v_i^w` times `P(S_w < s)` (not tied) or `P(S_w = s)`
//! (tied); w = 0 multiplies by 1.
//!
//! **Lattice convolutions.** A law's totals are computed exactly as the w-fold convolution of
//! its atoms (a map from the exact rational total to an integer weight over `D^w`, D the
//! law's common denominator), for every w up to k: for a lattice law of spacing h and 33
//! points the w-fold total has at most `32 w + 1` points, so the powers cost about
//! `33^2 k^2 / 2` products. Every quantity is an integer over a known denominator; the
//! result is exact, and `f64` rounds it once (its bound is that rounding).

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::arith::{Value, bits};
use super::{Estimate, Tasks, product_seconds};
use crate::analytic::pathsum::Law;

/// The w-fold totals of a law for w = 0..=k: per w, the totals ascending with their
/// integer weights over `D^w`, and the running sums (weights of totals below each).
struct Powers {
    denominator: BigInt,
    /// Per w: (total, weight, sum of the weights of the smaller totals).
    totals: Vec<Vec<(BigRational, BigInt, BigInt)>>,
}

impl Powers {
    fn of(law: &Law, k: usize) -> Powers {
        let denominator = law
            .atoms()
            .iter()
            .fold(BigInt::one(), |acc, (_, p)| acc.lcm(p.denom()));
        let atoms: Vec<(BigRational, BigInt)> = law
            .atoms()
            .iter()
            .map(|(v, p)| (v.clone(), p.numer() * (&denominator / p.denom())))
            .collect();
        let mut current: BTreeMap<BigRational, BigInt> = BTreeMap::new();
        current.insert(BigRational::zero(), BigInt::one());
        let mut totals = Vec::with_capacity(k + 1);
        for w in 0..=k {
            let mut below = BigInt::zero();
            totals.push(
                current
                    .iter()
                    .map(|(v, p)| {
                        let row = (v.clone(), p.clone(), below.clone());
                        below += p;
                        row
                    })
                    .collect(),
            );
            if w == k {
                break;
            }
            let mut next: BTreeMap<BigRational, BigInt> = BTreeMap::new();
            for (v, p) in &current {
                for (a, q) in &atoms {
                    *next.entry(v + a).or_insert_with(BigInt::zero) += p * q;
                }
            }
            current = next;
        }
        Powers {
            denominator,
            totals,
        }
    }

    /// `(D^w P(S_w < s), D^w P(S_w = s))`.
    fn at(&self, w: usize, s: &BigRational) -> (BigInt, BigInt) {
        let row = &self.totals[w];
        let i = row.partition_point(|(v, _, _)| v < s);
        match row.get(i) {
            Some((v, p, below)) if v == s => (below.clone(), p.clone()),
            Some((_, _, below)) => (below.clone(), BigInt::zero()),
            None => match row.last() {
                Some((_, p, below)) => (below + p, BigInt::zero()),
                None => (BigInt::zero(), BigInt::zero()),
            },
        }
    }
}

/// The exact probability that the reward-weighted vote picks the correct answer, for one
/// task type of success `success`, wrong answers' shares `wrong` and each k of `ks`.
pub(crate) fn weighted_vote_type(
    success: &BigRational,
    wrong: &[BigRational],
    correct: &Law,
    wrong_law: &Law,
    ks: &[u64],
) -> Vec<Value> {
    let top = ks.iter().copied().max().unwrap_or(0) as usize;
    let m = wrong.len();
    let fail = BigRational::one() - success;
    let mut masses = vec![success.clone()];
    masses.extend(wrong.iter().map(|u| &fail * u));
    let d = masses
        .iter()
        .fold(BigInt::one(), |acc, v| acc.lcm(v.denom()));
    let scaled: Vec<BigInt> = masses
        .iter()
        .map(|v| v.numer() * (&d / v.denom()))
        .collect();
    let (r, v) = (&scaled[0], &scaled[1..]);
    let correct_powers = Powers::of(correct, top);
    let wrong_powers = Powers::of(wrong_law, top);
    let l: BigInt = (1..=m as u64 + 1).fold(BigInt::one(), |acc, i| acc.lcm(&BigInt::from(i)));
    let pascal = pascal(top);
    let cancel = crate::cancel::current();
    ks.iter()
        .map(|&k| {
            let k = k as usize;
            let mut total = BigRational::zero();
            for c in 1..=k {
                if cancel.is_cancelled() {
                    break; // the caller returns Error::Interrupted, never this value
                }
                let n = k - c;
                let mut x = BigInt::zero();
                for (s, weight, _) in &correct_powers.totals[c] {
                    x += weight * wrong_part(s, n, v, &wrong_powers, &pascal, &l);
                }
                let numerator = &pascal[k][c] * num_traits::pow(r.clone(), c) * x;
                let denominator = num_traits::pow(d.clone(), k)
                    * num_traits::pow(correct_powers.denominator.clone(), c)
                    * num_traits::pow(wrong_powers.denominator.clone(), n)
                    * &l;
                total += BigRational::new(numerator, denominator);
            }
            Value::Reduced(total)
        })
        .collect()
}

/// `L D^N D_w^N E[1/(1 + T) ; no wrong total above s]` times the multinomial weights of the
/// N wrong votes (module docs), as an integer.
fn wrong_part(
    s: &BigRational,
    n: usize,
    v: &[BigInt],
    powers: &Powers,
    pascal: &[Vec<BigInt>],
    l: &BigInt,
) -> BigInt {
    let m = v.len();
    // f[t][tau]: t votes used by the answers so far, tau of them tied at s; over D^t D_w^t
    // (each vote brings a mass over D and its answer's total a weight over D_w per vote).
    let at: Vec<(BigInt, BigInt)> = (0..=n).map(|w| powers.at(w, s)).collect();
    let mut f: Vec<Vec<BigInt>> = vec![vec![BigInt::zero(); m + 1]; n + 1];
    f[0][0] = BigInt::one();
    for (i, vi) in v.iter().enumerate() {
        // The last answer takes the votes left (no other way reaches N votes in all).
        let last = i + 1 == m;
        let power: Vec<BigInt> = (0..=n)
            .scan(BigInt::one(), |p, w| {
                let out = p.clone();
                if w < n {
                    *p *= vi;
                }
                Some(out)
            })
            .collect();
        let mut next: Vec<Vec<BigInt>> = vec![vec![BigInt::zero(); m + 1]; n + 1];
        for t in 0..=n {
            for tau in 0..=m {
                if f[t][tau].is_zero() {
                    continue;
                }
                let first = if last { n - t } else { 0 };
                for w in first..=(n - t) {
                    if w == 0 {
                        // No vote: not a candidate.
                        let value = f[t][tau].clone();
                        next[t][tau] += value;
                        continue;
                    }
                    let base = &f[t][tau] * &pascal[t + w][w] * &power[w];
                    let (below, equal) = &at[w];
                    if !below.is_zero() {
                        next[t + w][tau] += &base * below;
                    }
                    if !equal.is_zero() && tau < m {
                        next[t + w][tau + 1] += &base * equal;
                    }
                }
            }
        }
        f = next;
    }
    f[n].iter()
        .enumerate()
        .map(|(tau, x)| x * (l / BigInt::from(tau + 1)))
        .sum()
}

fn pascal(top: usize) -> Vec<Vec<BigInt>> {
    let mut rows: Vec<Vec<BigInt>> = vec![vec![BigInt::one()]];
    for n in 1..=top {
        let prev = &rows[n - 1];
        let mut row = vec![BigInt::one(); n + 1];
        for j in 1..n {
            row[j] = &prev[j - 1] + &prev[j];
        }
        rows.push(row);
    }
    rows
}

/// `(max - min) / h` for a law whose atoms lie on a lattice of spacing h (h the greatest
/// common divisor of the atoms' distances to the smallest): the c-fold totals lie on at most
/// `c (max - min) / h + 1` points.
fn lattice_points(law: &Law) -> f64 {
    let atoms = law.atoms();
    let low = &atoms[0].0;
    let mut h = BigRational::zero();
    for (v, _) in &atoms[1..] {
        let d = v - low;
        h = if h.is_zero() {
            d
        } else {
            let denominator = h.denom() * d.denom();
            let numerator = (h.numer() * d.denom()).gcd(&(d.numer() * h.denom()));
            BigRational::new(numerator, denominator)
        };
    }
    if h.is_zero() {
        return 0.0;
    }
    super::arith::approx(&((&atoms[atoms.len() - 1].0 - low) / h))
}

/// The cost of [`weighted_vote_type`] over the mix, before any work.
pub(crate) fn weighted_vote_estimate(
    tasks: &Tasks,
    wrong: &[BigRational],
    correct: &Law,
    wrong_law: &Law,
    ks: &[u64],
) -> Estimate {
    let m = wrong.len() as f64;
    let (ac, aw) = (correct.atoms().len() as f64, wrong_law.atoms().len() as f64);
    let (spread_c, spread_w) = (lattice_points(correct), lattice_points(wrong_law));
    let law_bits = |law: &Law| {
        bits(
            &law.atoms()
                .iter()
                .fold(BigInt::one(), |acc, (_, p)| acc.lcm(p.denom())),
        )
    };
    let (bc, bw) = (law_bits(correct), law_bits(wrong_law));
    let top = ks.iter().copied().max().unwrap_or(0) as f64;
    // The convolution powers: about atoms^2 w products of w (bits + 8) bits per step.
    // The convolution powers: per w, (points of the (w-1)-fold total) x atoms products and
    // map insertions.
    let powers = (ac * spread_c * bc + aw * spread_w * bw) * top * top / 2.0
        * product_seconds(top * 48.0)
        + (ac * spread_c + aw * spread_w) * top * top * 2e-6;
    let mut seconds = powers;
    let mut peak: f64 = (spread_c + spread_w) * top * top / 2.0 * (top * (bc.max(bw) + 8.0)) / 8.0;
    for t in tasks.types() {
        let fail = BigRational::one() - &t.success;
        let d = std::iter::once(t.success.clone())
            .chain(wrong.iter().map(|u| &fail * u))
            .fold(BigInt::one(), |acc, v| acc.lcm(v.denom()));
        let per = bits(&d) + bw;
        for &k in ks {
            let k = k as f64;
            // Per c: the support of S_c (about (ac - 1) c + 1 totals), each a programme of
            // m (m + 1) N^2 / 2 products of about N per bits, and a search per w.
            let mut products = 0.0;
            let mut c = 1.0;
            while c <= k {
                let n = k - c;
                let support = (spread_c * c + 1.0).min(ac.powf(c));
                // The last answer only completes the votes: (n + 1) (m + 1) steps.
                let programme = (m - 1.0) * m / 4.0 * (n + 1.0) * (n + 1.0) + (n + 1.0) * (m + 1.0);
                products += support * (programme + 3.0 * n);
                c += 1.0;
            }
            seconds += products * product_seconds(k * per).max(4e-7);
            peak = peak.max((m + 1.0) * (k + 1.0) * k * per / 8.0);
        }
    }
    Estimate::new(
        "reward-weighted voting (computed exactly, with or without --exact)",
        seconds,
        peak,
        "Ask for fewer votes k, fewer wrong answers or score laws with fewer points.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    fn law(s: &str) -> Law {
        Law::parse("--score", s).unwrap()
    }

    /// Every sequence of k (label, score) draws, weighted, against the programme.
    fn brute(
        success: &BigRational,
        wrong: &[BigRational],
        c: &Law,
        w: &Law,
        k: usize,
    ) -> BigRational {
        let mut draws: Vec<(usize, BigRational, BigRational)> = Vec::new();
        for (v, p) in c.atoms() {
            draws.push((0, v.clone(), success * p));
        }
        for (i, u) in wrong.iter().enumerate() {
            for (v, p) in w.atoms() {
                draws.push((i + 1, v.clone(), (BigRational::one() - success) * u * p));
            }
        }
        let mut total = BigRational::zero();
        let mut index = vec![0usize; k];
        loop {
            let mut weight = BigRational::one();
            let mut sums: Vec<Option<BigRational>> = vec![None; wrong.len() + 1];
            for &i in &index {
                let (label, v, p) = &draws[i];
                weight *= p;
                let entry = sums[*label].get_or_insert_with(BigRational::zero);
                *entry += v;
            }
            let best = sums.iter().flatten().max().cloned().unwrap();
            if sums[0].as_ref() == Some(&best) {
                let tied = sums.iter().flatten().filter(|s| **s == best).count();
                total += weight / BigRational::from_integer(tied.into());
            }
            let mut j = 0;
            while j < k {
                index[j] += 1;
                if index[j] < draws.len() {
                    break;
                }
                index[j] = 0;
                j += 1;
            }
            if j == k {
                break;
            }
        }
        total
    }

    #[test]
    fn the_programme_is_every_scored_vote_sequence() {
        for (wrong, c, w) in [
            (vec![q("1")], "1:1/2,2:1/2", "0:1/3,3:2/3"),
            (vec![q("1/2"), q("1/2")], "-1:1/4,1:3/4", "-1:1/2,2:1/2"),
            (vec![q("1/3"), q("2/3")], "1", "0:1/2,1:1/2"),
        ] {
            let (c, w) = (law(c), law(w));
            for success in ["0.6", "1/3"] {
                let r = q(success);
                let values = weighted_vote_type(&r, &wrong, &c, &w, &[1, 2, 3, 4]);
                for (k, value) in [1usize, 2, 3, 4].iter().zip(values) {
                    assert_eq!(
                        value.exact().unwrap(),
                        brute(&r, &wrong, &c, &w, *k),
                        "{wrong:?} R = {success} k = {k}"
                    );
                }
            }
        }
    }

    /// Constant scores of 1 make the weighted vote the plain one.
    #[test]
    fn unit_scores_are_plain_voting() {
        let wrong = vec![q("1/2"), q("1/4"), q("1/4")];
        let one = law("1");
        let r = q("0.4");
        let weighted = weighted_vote_type(&r, &wrong, &one, &one, &[1, 2, 3, 5, 6]);
        for (k, value) in [1u64, 2, 3, 5, 6].iter().zip(weighted) {
            let plain = super::super::vote::correct_vote(&r, &wrong, *k).exact();
            assert_eq!(value.exact(), plain, "k = {k}");
        }
    }
}
