//! Reward-weighted voting with two normal score laws as a rigorous enclosure of its integral.
//!
//! k samples; each is the correct answer with probability R, else wrong answer j with
//! probability `(1 - R) U_j`; a correct sample's score is N(mu_c, s_c^2), a wrong one's
//! N(mu_w, s_w^2), all independent. Given the counts (m_0 correct samples, m_j on wrong answer
//! j) the answers' totals are independent normals `T_0 ~ N(m_0 mu_c, m_0 s_c^2)` and
//! `T_j ~ N(m_j mu_w, m_j s_w^2)`; only answers with a sample take part, ties have
//! probability 0, and with m_0 >= 1
//!
//! `P(correct wins | m) = I(m_0, lambda) = int f_0(x) prod_{j: m_j > 0} F_j(x) dx`
//!
//! (with m_0 = 0 it is 0). The integral depends on the counts only through m_0 and the
//! multiset `lambda` of the nonzero wrong counts (a partition of `N = k - m_0`), so
//!
//! `P_correct(k) = sum_{m_0 >= 1} sum_lambda C(k, m_0) R^m_0 (1 - R)^N
//! N! / prod lambda_i! M_lambda(U) I(m_0, lambda)`,
//!
//! `M_lambda(U) = sum prod_j U_j^(m_j)` over the count vectors of the wrong answers whose
//! nonzero counts are `lambda` (a monomial symmetric polynomial). The `M_lambda` come
//! exactly, as integers over `D^N` (D the shares' common denominator), from a programme over
//! the wrong answers keyed by the multiset used so far; every weight is an exact rational,
//! enclosed by the two doubles around it.
//!
//! **Each integral.** `I` is enclosed as best-of-n's integral is (module `normal`): the
//! integrand `h = f_0 prod F_j` is entire and below `f_0`, so the parts beyond
//! `mu_0 -+ t s_0` are at most the normal tails `F_0(A)` and `1 - F_0(B)` (t = 0, 1/4, ...
//! the first with both at most 10^-12); the body `[A, B]` is cut into cells of half the
//! correct total's standard deviation and integrated by validated Taylor quadrature of order
//! 12 (the coefficients of `F_j` are its value and the density's coefficients integrated;
//! products of series), cells halved until each is narrower than its share of 5 10^-10. A
//! type's value is then within 5 10^-10 + 2 10^-12 plus rounding of the exact sum, since the
//! weights sum to at most 1. The same `I(m_0, lambda)` serves every task type (only the
//! weights depend on R), so each is computed once.
//!
//! What is assumed is what module `normal` assumes: libm's `erfc` and `exp` within 4 ulps,
//! every other operation rounded outward.

use std::collections::{BTreeMap, HashMap};

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::interval::Iv;
use super::normal::{self, DEPTH, Jet, Normal, ORDER};

/// Each tail's allowance per integral.
const TAIL: f64 = normal::TAIL;

/// The body's allowance per integral.
const BODY: f64 = normal::BODY;

/// `I(m_0, lambda)`: the correct total's law and the wrong totals' laws with how many
/// wrong answers share each count.
struct Integrand {
    correct: Normal,
    wrong: Vec<(Normal, u32)>,
}

impl Integrand {
    /// The Taylor coefficients of `f_0 prod F_j` at every point of `x`.
    fn jet(&self, x: Iv) -> Jet {
        let (mut h, _, _) = self.correct.jets(x);
        for (law, times) in &self.wrong {
            let (density, lower, _) = law.jets(x);
            let mut big = [Iv::zero(); ORDER + 1];
            big[0] = lower;
            for k in 1..=ORDER {
                big[k] = density[k - 1].div_pos(Iv::point(k as f64));
            }
            for _ in 0..*times {
                h = product(&h, &big);
            }
        }
        h
    }

    /// The enclosure of the integral (module docs).
    fn integral(&self) -> Iv {
        if self.wrong.is_empty() {
            return Iv::point(1.0);
        }
        let c = self.correct;
        let tails = |t: f64| {
            let z = |x: f64| Iv::point(x).sub(c.mean).mul(c.inv_sd);
            let (low, high) = (c.mean_f - t * c.sd_f, c.mean_f + t * c.sd_f);
            let (below, _) = Iv::normal_tails(z(low));
            let (_, above) = Iv::normal_tails(z(high));
            (low, high, below.hi, above.hi)
        };
        let mut t = 0.0;
        let (mut low, mut high, mut lower_tail, mut upper_tail) = tails(t);
        while t < 64.0 && (lower_tail > TAIL || upper_tail > TAIL) {
            t += 0.25;
            (low, high, lower_tail, upper_tail) = tails(t);
        }
        // Cells of half the correct total's deviation; a steeper wrong law's step is
        // resolved by the halving where it lies, not by fine cells everywhere.
        let pieces = (((high - low) / (0.5 * c.sd_f)).ceil() as usize).max(1);
        let step = (high - low) / pieces as f64;
        let density = BODY / (high - low);
        let jet = |x: Iv| self.jet(x);
        let mut sum = Iv::zero();
        for i in 0..pieces {
            let a = low + step * i as f64;
            let b = if i + 1 == pieces {
                high
            } else {
                low + step * (i + 1) as f64
            };
            sum = sum.add(normal::body(&jet, a, b, density, DEPTH));
        }
        let hi = Iv::point(sum.hi)
            .add(Iv::point(lower_tail))
            .add(Iv::point(upper_tail))
            .hi;
        Iv::new(sum.lo.max(0.0), hi.min(1.0))
    }
}

/// The product of two series, cut at [`ORDER`].
fn product(a: &Jet, b: &Jet) -> Jet {
    let mut out = [Iv::zero(); ORDER + 1];
    for (k, slot) in out.iter_mut().enumerate() {
        let mut s = Iv::zero();
        for j in 0..=k {
            s = s.add(a[j].mul(b[k - j]));
        }
        *slot = s;
    }
    out
}

/// Per multiset `lambda` of positive counts (descending) summing to at most `top`: the sum
/// over the count vectors of the wrong answers whose nonzero counts are `lambda` of
/// `prod a_j^(m_j)` (an integer; `a_j` the shares over their common denominator). Only
/// nonzero sums are kept.
fn monomials(a: &[BigInt], top: usize) -> BTreeMap<Vec<u32>, BigInt> {
    let mut states: BTreeMap<Vec<u32>, BigInt> = BTreeMap::new();
    states.insert(Vec::new(), BigInt::one());
    let cancel = crate::cancel::current();
    for aj in a {
        if cancel.is_cancelled() {
            break; // the caller returns Error::Interrupted, never this value
        }
        let powers: Vec<BigInt> = (0..=top)
            .scan(BigInt::one(), |p, _| {
                let out = p.clone();
                *p *= aj;
                Some(out)
            })
            .collect();
        let mut next: BTreeMap<Vec<u32>, BigInt> = BTreeMap::new();
        for (key, value) in &states {
            let used: usize = key.iter().map(|&w| w as usize).sum();
            *next.entry(key.clone()).or_insert_with(BigInt::zero) += value;
            if aj.is_zero() {
                continue;
            }
            for (w, power) in powers.iter().enumerate().take(top - used + 1).skip(1) {
                let mut grown = key.clone();
                let at = grown.partition_point(|&x| x >= w as u32);
                grown.insert(at, w as u32);
                *next.entry(grown).or_insert_with(BigInt::zero) += value * power;
            }
        }
        states = next;
    }
    states
}

/// The number of multisets of at most `parts` positive counts summing to each N in
/// `0..=top` (partitions of N into at most `parts` parts), as doubles.
pub(super) fn partition_counts(top: usize, parts: usize) -> Vec<f64> {
    // Partitions into at most `parts` parts = partitions into parts of size at most `parts`.
    let mut p = vec![0.0; top + 1];
    p[0] = 1.0;
    for size in 1..=parts.min(top) {
        for n in size..=top {
            p[n] += p[n - size];
        }
    }
    p
}

/// `P_correct` per k of `ks` for each task type `(success, share)`, summed with the shares,
/// each an enclosure; the score laws N(`mu_c`, `s_c`^2) and N(`mu_w`, `s_w`^2); `wrong` the
/// wrong answers' shares.
pub(super) fn enclose(
    types: &[(BigRational, BigRational)],
    wrong: &[BigRational],
    (mu_c, s_c): (&BigRational, &BigRational),
    (mu_w, s_w): (&BigRational, &BigRational),
    ks: &[u64],
) -> crate::error::Result<Vec<Iv>> {
    let cancel = crate::cancel::current();
    let top = ks.iter().copied().max().unwrap_or(0) as usize;
    let d = wrong
        .iter()
        .fold(BigInt::one(), |acc, u| acc.lcm(u.denom()));
    let a: Vec<BigInt> = wrong.iter().map(|u| u.numer() * (&d / u.denom())).collect();
    let sums = monomials(&a, top.saturating_sub(1));
    cancel.check()?;
    let mut by_total: Vec<Vec<(&Vec<u32>, &BigInt)>> = vec![Vec::new(); top];
    for (key, value) in &sums {
        if !value.is_zero() {
            by_total[key.iter().map(|&w| w as usize).sum::<usize>()].push((key, value));
        }
    }
    let factorial: Vec<BigInt> = (0..=top)
        .scan(BigInt::one(), |f, i| {
            if i > 0 {
                *f *= BigInt::from(i);
            }
            Some(f.clone())
        })
        .collect();
    let mut integrals: HashMap<(usize, Vec<u32>), Iv> = HashMap::new();
    let mut out = Vec::with_capacity(ks.len());
    for &k in ks {
        let k = k as usize;
        let mut total = Iv::zero();
        for (success, share) in types {
            let fail = BigRational::one() - success;
            let mut value = Iv::zero();
            for m0 in 1..=k {
                cancel.check()?;
                let n = k - m0;
                // C(k, m_0) N! R^m_0 (1 - R)^N / D^N, the common part of the weights.
                let common = BigRational::new(
                    &factorial[k] / &factorial[m0],
                    num_traits::pow(d.clone(), n),
                ) * num_traits::pow(success.clone(), m0)
                    * num_traits::pow(fail.clone(), n);
                if common.is_zero() {
                    continue;
                }
                for (key, sum) in &by_total[n] {
                    let divisor = key
                        .iter()
                        .fold(BigInt::one(), |acc, &w| acc * &factorial[w as usize]);
                    let weight = &common * BigRational::new((*sum).clone(), divisor);
                    let integral = *integrals
                        .entry((m0, (*key).clone()))
                        .or_insert_with(|| integrand(m0, key, (mu_c, s_c), (mu_w, s_w)).integral());
                    value = value.add(Iv::of(&weight).mul(integral));
                }
            }
            total = total.add(Iv::of(share).mul(value));
        }
        out.push(Iv::new(total.lo.max(0.0), total.hi.min(1.0)));
    }
    Ok(out)
}

/// The integrand of `I(m_0, lambda)`.
fn integrand(
    m0: usize,
    lambda: &[u32],
    (mu_c, s_c): (&BigRational, &BigRational),
    (mu_w, s_w): (&BigRational, &BigRational),
) -> Integrand {
    let mut wrong: Vec<(Normal, u32)> = Vec::new();
    let mut i = 0;
    while i < lambda.len() {
        let w = lambda[i];
        let times = lambda[i..].iter().take_while(|&&x| x == w).count();
        wrong.push((Normal::sum_of(mu_w, s_w, u64::from(w)), times as u32));
        i += times;
    }
    Integrand {
        correct: Normal::sum_of(mu_c, s_c, m0 as u64),
        wrong,
    }
}

/// The largest k whose count patterns [`counts`] counts (beyond, a lower bound).
const COUNTED: u64 = 1_000_000;

/// The number of distinct integrals `I(m_0, lambda)` for `ks` with `parts` wrong answers and
/// the number of states of the programme of the `M_lambda`.
pub(super) fn counts(ks: &[u64], parts: usize) -> (f64, f64) {
    let top = ks.iter().copied().max().unwrap_or(0);
    if top > COUNTED {
        // At least one pattern per m_0 (all wrong votes on one answer): already beyond any
        // budget, and too many to count.
        let integrals: f64 = ks.iter().map(|&k| k as f64).sum();
        return (integrals, top as f64);
    }
    let top = top as usize;
    let p = partition_counts(top, parts);
    let mut distinct: Vec<u64> = ks.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let integrals: f64 = distinct
        .iter()
        .map(|&k| p[..k as usize].iter().sum::<f64>())
        .sum();
    let states: f64 = p[..top].iter().sum();
    (integrals, states)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    /// The programme's sums against every count vector of three answers listed, and the
    /// partition counts against a hand count.
    #[test]
    fn monomials_are_the_count_vectors_summed() {
        let a = [BigInt::from(1), BigInt::from(2), BigInt::from(3)];
        let sums = monomials(&a, 4);
        // Brute force over every count vector with total at most 4.
        let mut want: BTreeMap<Vec<u32>, BigInt> = BTreeMap::new();
        for m1 in 0..=4u32 {
            for m2 in 0..=(4 - m1) {
                for m3 in 0..=(4 - m1 - m2) {
                    let mut key: Vec<u32> = [m1, m2, m3].into_iter().filter(|&m| m > 0).collect();
                    key.sort_unstable_by(|x, y| y.cmp(x));
                    let value = num_traits::pow(BigInt::from(1), m1 as usize)
                        * num_traits::pow(BigInt::from(2), m2 as usize)
                        * num_traits::pow(BigInt::from(3), m3 as usize);
                    *want.entry(key).or_insert_with(BigInt::zero) += value;
                }
            }
        }
        assert_eq!(sums, want);
        let counts = partition_counts(6, 2);
        // Partitions of 0..=6 into at most 2 parts: 1, 1, 2, 2, 3, 3, 4.
        assert_eq!(counts, vec![1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0]);
    }

    /// k = 2, one wrong answer, equal laws N(0, 1): P = R^2 + 2 R (1 - R) / 2 (one correct
    /// against one wrong sample: a fair coin), inside an enclosure narrower than 1e-9.
    #[test]
    fn two_votes_with_equal_laws_are_a_coin() {
        let (mu, s) = (q("0"), q("1"));
        let types = [(q("0.3"), q("1"))];
        let p = enclose(&types, &[q("1")], (&mu, &s), (&mu, &s), &[1, 2]).unwrap();
        assert!(p[0].contains(0.3) && p[0].width() < 1e-9, "{p:?}");
        let want = 0.09 + 0.21;
        assert!(p[1].contains(want) && p[1].width() < 1e-9, "{p:?}");
    }
}
