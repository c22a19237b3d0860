//! The plurality engine of [`super::vote`] for two or more wrong answers: the probability
//! that the correct answer has the most votes of k (ties broken uniformly), for every k of a
//! list at once, by a recurrence over the votes instead of a sum over compositions.
//!
//! **The identity.** Fix the correct answer's count c >= 1 and the wrong votes N = k - c.
//! The wrong answers fall into groups of equal shares (share `q_g`, `m_g` answers). For a
//! *class* s (a number `s_g <= m_g` of answers of each group) let `p_s(n)` be the
//! probability that n votes, each going to one of the class's answers in proportion to its
//! share, leave every answer at most c - 1. A class's vote total `Q_s = sum_g s_g q_g` and
//! `rho_g = q_g / Q_s`. Adding a vote breaks the bound exactly when it goes to an answer
//! that has c - 1 votes while the others have at most c - 1:
//!
//! `p_s(n + 1) = p_s(n) - sum_g s_g rho_g Bin(n, c - 1; rho_g) p_{s - e_g}(n - c + 1)`,
//!
//! `p_s(n) = 1` for `n < c`, `p_{empty}(n) = [n = 0]`. Each step costs one term per group,
//! so every class's whole curve costs `O(N)` per group: `O(k^2 (#classes) g)` for all k up
//! to K together, against `O(k^3 m^2)` for the sum over compositions. The vote then picks
//! the correct answer with probability
//!
//! `sum_c Bin(k, c; R) sum_s prod_g C(m_g, s_g) / (T + 1) M(s) p_s(N - c T)`,
//!
//! where the `T = sum_g (m_g - s_g)` answers outside s tie with the correct answer at c
//! (a uniform tie-break among the T + 1 tied labels), and
//! `M(s) = N! / (c!^T (N - c T)!) prod_g q_g^{c (m_g - s_g)} Q_s^{N - c T}` is the
//! probability that the tied answers get exactly c votes each and s the rest.
//!
//! **Exact mode.** With the per-sample masses over one common denominator D (the correct
//! answer r, a wrong answer of group g `u_g`), `a_s(n) = p_s(n) Q_s^n` (`Q_s` now the sum of
//! the u) is an integer, and the recurrence is
//! `a_s(n + 1) = Q_s a_s(n) - sum_g s_g u_g^c C(n, c - 1) a_{s - e_g}(n - c + 1)`; the
//! probability is a sum of integers over `lcm(1..=m + 1) D^k`, reduced once.
//!
//! **f64.** The same recurrence on probabilities. Products of binomial weights and powers
//! are held with a separate binary exponent ([`Wide`]: no underflow or overflow in between)
//! and carry the number of roundings behind them, so each has a relative error at most
//! `gamma(ops) = ops u / (1 - ops u)` (u = 2^-53, Higham's bound for products and
//! quotients); the curves `p_s` carry an absolute error bound stepped with the recurrence
//! (the subtracted terms are at most 1, so the bound grows about linearly in n). Every sum
//! adds the recursive-summation bound `gamma(terms) sum |terms|`. The result is an
//! enclosure whose radius is the sum of these bounds, inflated by `10^-9` relatively to
//! cover the bound's own roundings.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::arith::{Value, bits};
use super::product_seconds;
use crate::numeric::enclosure::Enclosure;

/// The wrong answers grouped by equal share (zero shares dropped: they never get a vote).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Groups {
    /// The distinct positive shares `q_g`.
    shares: Vec<BigRational>,
    /// How many answers have each share, `m_g`.
    sizes: Vec<usize>,
}

impl Groups {
    /// Groups `wrong` (shares of a wrong sample, summing to 1).
    pub(crate) fn of(wrong: &[BigRational]) -> Groups {
        let mut shares: Vec<BigRational> = Vec::new();
        let mut sizes: Vec<usize> = Vec::new();
        for u in wrong.iter().filter(|u| u.is_positive()) {
            match shares.iter().position(|s| s == u) {
                Some(i) => sizes[i] += 1,
                None => {
                    shares.push(u.clone());
                    sizes.push(1);
                }
            }
        }
        Groups { shares, sizes }
    }

    /// The number of classes, `prod_g (m_g + 1)` (saturating).
    pub(crate) fn classes(&self) -> usize {
        self.sizes
            .iter()
            .fold(1usize, |acc, &m| acc.saturating_mul(m + 1))
    }

    /// The number of wrong answers with a positive share.
    pub(crate) fn answers(&self) -> usize {
        self.sizes.iter().sum()
    }

    /// Each class as its counts per group, in mixed-radix order (a class minus one answer
    /// of group g comes before it, at index `index - stride[g]`), and the strides.
    fn layout(&self) -> (Vec<Vec<usize>>, Vec<usize>) {
        let mut strides = Vec::with_capacity(self.sizes.len());
        let mut stride = 1;
        for &m in &self.sizes {
            strides.push(stride);
            stride *= m + 1;
        }
        let classes = (0..stride)
            .map(|index| {
                self.sizes
                    .iter()
                    .zip(&strides)
                    .map(|(&m, &st)| (index / st) % (m + 1))
                    .collect()
            })
            .collect();
        (classes, strides)
    }
}

/// The correct counts c that matter for the list: for each c, the positions of the k of
/// `ks` with `c <= k <= (m + 1) c` (below, some wrong answer has more votes than c), in
/// increasing k.
fn counts_for(ks: &[u64], answers: usize) -> Vec<(usize, Vec<usize>)> {
    let mut order: Vec<usize> = (0..ks.len()).collect();
    order.sort_by_key(|&i| ks[i]);
    let sorted: Vec<u64> = order.iter().map(|&i| ks[i]).collect();
    let top = sorted.last().copied().unwrap_or(0) as usize;
    let mut out = Vec::new();
    for c in 1..=top {
        let low = sorted.partition_point(|&k| (k as usize) < c);
        let high = sorted.partition_point(|&k| (k as usize) <= (answers + 1).saturating_mul(c));
        if low < high {
            out.push((c, order[low..high].to_vec()));
        }
    }
    out
}

/// Seconds and peak bytes of [`plurality`] for a type whose per-sample masses have common
/// denominator `denominator` (exact) or in `f64`.
pub(crate) fn plurality_cost(
    groups: &Groups,
    denominator: &BigInt,
    ks: &[u64],
    exact: bool,
) -> (f64, f64) {
    let classes = groups.classes() as f64;
    let g = groups.sizes.len() as f64;
    let m = groups.answers();
    let per = bits(denominator);
    let top = ks.iter().copied().max().unwrap_or(0) as f64;
    if top > 1e6 {
        // Far past any limit: the sum below in closed form (about top^2 / 2 steps per class).
        let steps = classes * (g + 1.0) * top * top / 2.0;
        let seconds = if exact {
            steps * product_seconds(top * per)
        } else {
            steps * 8e-9
        };
        return (
            seconds,
            classes * top * if exact { top * per / 8.0 } else { 16.0 },
        );
    }
    let mut seconds = 0.0;
    let mut peak: f64 = 0.0;
    // The c that matter, without building their lists (the list may be long).
    let c_low = ks
        .iter()
        .map(|&k| (k as f64 / (m as f64 + 1.0)).ceil())
        .fold(f64::INFINITY, f64::min)
        .max(1.0);
    let mut c = c_low;
    while c <= top {
        let span = (top - c).min(m as f64 * c).max(0.0);
        // The k of the list this c serves: at most the list, at most the span + 1.
        let served = (ks.len() as f64).min(span + 1.0);
        if exact {
            let b = (span + c) * per;
            // A step of the recurrence: a few products of a long integer (b bits) by a
            // shorter one, measured at about 1.1e-8 s per 64-bit word of b (ten equal wrong
            // answers, k = 1..512:x2, 1.0 s), rounded up.
            seconds += classes * (g + 1.0) * span * (1.5e-8 * b / 64.0 + 5e-8)
                + served * classes * 3.0 * product_seconds(top * per + b)
                + served * 6.0 * product_seconds(top * per);
            peak = peak.max(classes * span * b / 8.0 * 1.5);
        } else {
            seconds += classes * span * (g * 4.0 + 6.0) * 8e-9
                + classes * (m as f64) * c * 2.0 * 8e-9
                + served * classes * 8e-9 * 6.0;
            peak = peak.max(classes * span * 16.0);
        }
        c += 1.0;
    }
    (seconds, peak + ks.len() as f64 * 64.0)
}

/// The probability that the correct answer wins the plurality vote of k samples for each k
/// of `ks` (module docs): exact integers over `lcm(1..=m+1) D^k`, or an enclosure in `f64`.
/// `success` is R; `wrong` the wrong answers' groups.
pub(crate) fn plurality(
    success: &BigRational,
    groups: &Groups,
    ks: &[u64],
    exact: bool,
) -> Vec<Value> {
    if exact {
        plurality_exact(success, groups, ks)
    } else {
        plurality_float(success, groups, ks)
    }
}

#[allow(clippy::needless_range_loop)] // the programme's indices are vote counts
fn plurality_exact(success: &BigRational, groups: &Groups, ks: &[u64]) -> Vec<Value> {
    let fail = BigRational::one() - success;
    let mut masses = vec![success.clone()];
    masses.extend(groups.shares.iter().map(|q| &fail * q));
    let d = masses
        .iter()
        .fold(BigInt::one(), |acc, v| acc.lcm(v.denom()));
    let scaled: Vec<BigInt> = masses
        .iter()
        .map(|v| v.numer() * (&d / v.denom()))
        .collect();
    let r = &scaled[0];
    let u = &scaled[1..];
    let m = groups.answers();
    let (classes, strides) = groups.layout();
    let l: BigInt = (1..=m as u64 + 1).fold(BigInt::one(), |acc, i| acc.lcm(&BigInt::from(i)));
    let top = ks.iter().copied().max().unwrap_or(0) as usize;
    let factorial: Vec<BigInt> = std::iter::once(BigInt::one())
        .chain((1..=top).scan(BigInt::one(), |f, i| {
            *f *= i;
            Some(f.clone())
        }))
        .collect();
    let totals_q: Vec<BigInt> = classes
        .iter()
        .map(|s| s.iter().zip(u).map(|(&n, ug)| ug * n).sum())
        .collect();
    let mut totals = vec![BigInt::zero(); ks.len()];
    let cancel = crate::cancel::current();
    for (c, served) in counts_for(ks, m) {
        if cancel.is_cancelled() {
            break; // the caller returns Error::Interrupted, never these values
        }
        let span = served
            .iter()
            .map(|&i| ks[i] as usize - c)
            .max()
            .unwrap_or(0);
        let u_power: Vec<BigInt> = u.iter().map(|ug| num_traits::pow(ug.clone(), c)).collect();
        // w[g][n] = u_g^c C(n, c - 1) for n >= c - 1.
        let mut choose = BigInt::one();
        let mut w: Vec<Vec<BigInt>> = vec![vec![BigInt::zero(); span + 1]; u.len()];
        for n in (c - 1)..=span.max(c - 1) {
            if n > c - 1 {
                choose = choose * n / (n + 1 - c);
            }
            if n <= span {
                for (g, up) in u_power.iter().enumerate() {
                    w[g][n] = up * &choose;
                }
            }
        }
        let mut a: Vec<Vec<BigInt>> = Vec::with_capacity(classes.len());
        for (index, s) in classes.iter().enumerate() {
            let mut curve = vec![BigInt::zero(); span + 1];
            curve[0] = BigInt::one();
            if index > 0 {
                for n in 0..span {
                    let mut next = &totals_q[index] * &curve[n];
                    if n + 1 >= c {
                        for (g, &sg) in s.iter().enumerate() {
                            if sg > 0 {
                                let below = &a[index - strides[g]][n + 1 - c];
                                if !below.is_zero() {
                                    next -= &w[g][n] * below * sg;
                                }
                            }
                        }
                    }
                    curve[n + 1] = next;
                }
            }
            a.push(curve);
        }
        // Per class: r^c prod_g C(m_g, s_g) (u_g^c)^(m_g - s_g) L / (T + 1), and T.
        let r_power = num_traits::pow(r.clone(), c);
        let weights: Vec<(BigInt, usize)> = classes
            .iter()
            .map(|s| {
                let mut x = r_power.clone();
                let mut tied = 0;
                for (g, (&sg, &mg)) in s.iter().zip(&groups.sizes).enumerate() {
                    x *= binomial(mg, sg) * num_traits::pow(u_power[g].clone(), mg - sg);
                    tied += mg - sg;
                }
                (x * (&l / BigInt::from(tied + 1)), tied)
            })
            .collect();
        let c_factorial_powers: Vec<BigInt> = (0..=m + 1)
            .map(|t| num_traits::pow(factorial[c].clone(), t))
            .collect();
        for &i in &served {
            let k = ks[i] as usize;
            let n = k - c;
            for (index, (weight, tied)) in weights.iter().enumerate() {
                if n < c * tied || a[index][n - c * tied].is_zero() {
                    continue;
                }
                // k! / (c!^(T+1) (N - c T)!): the correct answer's and the tied answers'
                // c votes each and the class's rest.
                let multinomial =
                    &factorial[k] / (&c_factorial_powers[tied + 1] * &factorial[n - c * tied]);
                totals[i] += multinomial * weight * &a[index][n - c * tied];
            }
        }
    }
    ks.iter()
        .zip(totals)
        .map(|(&k, total)| Value::Exact(total, &l * num_traits::pow(d.clone(), k as usize)))
        .collect()
}

fn binomial(n: usize, k: usize) -> BigInt {
    (0..k).fold(BigInt::one(), |acc, i| acc * (n - i) / (i + 1))
}

/// The unit roundoff of `f64`.
const UNIT: f64 = 1.0 / 9_007_199_254_740_992.0;

/// Higham's `gamma(n) = n u / (1 - n u)`: the relative error of n roundings in products and
/// quotients.
fn gamma(n: u64) -> f64 {
    let x = n as f64 * UNIT;
    x / (1.0 - x)
}

/// A positive number `mantissa 2^exponent` whose exponent cannot underflow or overflow, with
/// the number of roundings behind it (its relative error is at most `gamma(ops)`).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Wide {
    mantissa: f64,
    exponent: i64,
    ops: u64,
}

impl Wide {
    fn new(x: f64, exponent: i64, ops: u64) -> Wide {
        if x == 0.0 {
            return Wide {
                mantissa: 0.0,
                exponent: 0,
                ops,
            };
        }
        let (m, e) = libm::frexp(x);
        Wide {
            mantissa: m,
            exponent: exponent + i64::from(e),
            ops,
        }
    }

    /// A whole number below 2^53 (exact).
    fn whole(n: u64) -> Wide {
        Wide::new(n as f64, 0, 0)
    }

    /// A nonnegative rational, to within three roundings (its parts cut to 60 bits, each
    /// converted, then divided), at any magnitude.
    fn of(x: &BigRational) -> Wide {
        let part = |v: &BigInt| -> (f64, i64) {
            let b = v.bits() as i64;
            let shift = (b - 60).max(0);
            let top: BigInt = v >> (shift as usize);
            (top.to_f64().unwrap_or(0.0), shift)
        };
        if x.is_zero() {
            return Wide::whole(0);
        }
        let (n, en) = part(x.numer());
        let (d, ed) = part(x.denom());
        Wide::new(n / d, en - ed, 3)
    }

    fn mul(self, other: Wide) -> Wide {
        Wide::new(
            self.mantissa * other.mantissa,
            self.exponent + other.exponent,
            self.ops + other.ops + 1,
        )
    }

    fn div(self, other: Wide) -> Wide {
        Wide::new(
            self.mantissa / other.mantissa,
            self.exponent - other.exponent,
            self.ops + other.ops + 1,
        )
    }

    fn pow(self, mut n: usize) -> Wide {
        let mut result = Wide::whole(1);
        let mut base = self;
        while n > 0 {
            if n & 1 == 1 {
                result = result.mul(base);
            }
            n >>= 1;
            if n > 0 {
                base = base.mul(base);
            }
        }
        result
    }

    /// As an `f64` (its value, at most 2^-1074 from `mantissa 2^exponent` beyond the
    /// relative error: a value below the normal range is rounded once more) and the
    /// relative bound.
    fn value(self) -> (f64, f64) {
        if self.mantissa == 0.0 || self.exponent < -1100 {
            return (0.0, gamma(self.ops));
        }
        let e = i32::try_from(self.exponent).expect("a probability's exponent");
        (libm::ldexp(self.mantissa, e), gamma(self.ops))
    }
}

/// The absolute error of a value below the normal range rounded once (beyond its relative
/// bound).
const SUBNORMAL: f64 = 5e-324;

fn plurality_float(success: &BigRational, groups: &Groups, ks: &[u64]) -> Vec<Value> {
    let m = groups.answers();
    let (classes, strides) = groups.layout();
    let q: Vec<Wide> = groups.shares.iter().map(Wide::of).collect();
    let class_total: Vec<BigRational> = classes
        .iter()
        .map(|s| {
            s.iter()
                .zip(&groups.shares)
                .map(|(&n, qg)| qg * BigRational::from_integer(n.into()))
                .sum()
        })
        .collect();
    // rho_g and 1 - rho_g per class and group (exact, then rounded once each).
    let rho: Vec<Vec<(Wide, Wide)>> = class_total
        .iter()
        .map(|total| {
            groups
                .shares
                .iter()
                .map(|qg| {
                    if total.is_zero() {
                        (Wide::whole(0), Wide::whole(0))
                    } else {
                        let x = qg / total;
                        (Wide::of(&x), Wide::of(&(BigRational::one() - x)))
                    }
                })
                .collect()
        })
        .collect();
    let totals_wide: Vec<Wide> = class_total.iter().map(Wide::of).collect();
    let success_wide = Wide::of(success);
    let fail_wide = Wide::of(&(BigRational::one() - success));
    // Per k: value, absolute error bound, sum of |terms|, number of terms.
    let mut value = vec![0.0f64; ks.len()];
    let mut error = vec![0.0f64; ks.len()];
    let mut magnitude = vec![0.0f64; ks.len()];
    let mut terms = vec![0u64; ks.len()];
    let cancel = crate::cancel::current();
    for (c, served) in counts_for(ks, m) {
        if cancel.is_cancelled() {
            break; // the caller returns Error::Interrupted, never these values
        }
        let span = served
            .iter()
            .map(|&i| ks[i] as usize - c)
            .max()
            .unwrap_or(0);
        // p_s(n) and its absolute error bound, class by class.
        let mut p: Vec<Vec<f64>> = Vec::with_capacity(classes.len());
        let mut pe: Vec<Vec<f64>> = Vec::with_capacity(classes.len());
        for (index, s) in classes.iter().enumerate() {
            let mut curve = vec![0.0f64; span + 1];
            let mut err = vec![0.0f64; span + 1];
            curve[0] = 1.0;
            if index > 0 {
                for x in curve.iter_mut().take(c.min(span + 1)) {
                    *x = 1.0;
                }
                // Bin(n, c - 1; rho_g) for the groups present, stepped in n.
                let mut binomials: Vec<Option<Wide>> = s
                    .iter()
                    .enumerate()
                    .map(|(g, &sg)| (sg > 0).then(|| rho[index][g].0.pow(c - 1)))
                    .collect();
                for n in (c - 1)..span {
                    if n > c - 1 {
                        for (g, b) in binomials.iter_mut().enumerate() {
                            if let Some(x) = b {
                                *x = x
                                    .mul(Wide::whole(n as u64))
                                    .div(Wide::whole((n + 1 - c) as u64))
                                    .mul(rho[index][g].1);
                            }
                        }
                    }
                    let mut subtracted = 0.0;
                    let mut bound = err[n];
                    let mut size = curve[n].abs();
                    let mut operations = 1u64;
                    for (g, b) in binomials.iter().enumerate() {
                        let Some(x) = b else { continue };
                        let t = x.mul(rho[index][g].0).mul(Wide::whole(s[g] as u64));
                        let (tv, rel) = t.value();
                        let below = index - strides[g];
                        let pb = p[below][n + 1 - c];
                        let term = tv * pb;
                        subtracted += term;
                        size += term.abs();
                        bound += (tv * (1.0 + rel) + SUBNORMAL) * pe[below][n + 1 - c]
                            + (tv * rel + SUBNORMAL) * pb.abs();
                        operations += 2;
                    }
                    curve[n + 1] = curve[n] - subtracted;
                    err[n + 1] = bound + gamma(operations) * size;
                }
            }
            p.push(curve);
            pe.push(err);
        }
        // Per class: prod_g C(m_g, s_g) / (T + 1), T, and q_g^(c (m_g - s_g)).
        let q_power: Vec<Wide> = q.iter().map(|x| x.pow(c)).collect();
        // (cT)! / c!^T for T = 0..=m.
        let mut blocks = vec![Wide::whole(1)];
        for t in 1..=m {
            let mut x = blocks[t - 1];
            for i in 1..=c {
                x = x
                    .mul(Wide::whole(((t - 1) * c + i) as u64))
                    .div(Wide::whole(i as u64));
            }
            blocks.push(x);
        }
        // Bin(k, c; R) for k = c.. stepped, read at the served k.
        let last = served.iter().map(|&i| ks[i] as usize).max().unwrap_or(c);
        let mut binomial_k = vec![Wide::whole(0); last - c + 1];
        binomial_k[0] = success_wide.pow(c);
        for k in (c + 1)..=last {
            binomial_k[k - c] = binomial_k[k - c - 1]
                .mul(Wide::whole(k as u64))
                .div(Wide::whole((k - c) as u64))
                .mul(fail_wide);
        }
        for (index, s) in classes.iter().enumerate() {
            let mut tied = 0usize;
            let mut head = Wide::whole(1);
            for (g, (&sg, &mg)) in s.iter().zip(&groups.sizes).enumerate() {
                tied += mg - sg;
                head = head.mul(Wide::whole(small_binomial(mg, sg)));
                head = head.mul(q_power[g].pow(mg - sg));
            }
            head = head.div(Wide::whole(tied as u64 + 1));
            let start = c * tied;
            if start > span {
                continue;
            }
            // M(s) (without the binomial of R) for N = c T .. span, stepped in N.
            let mut multinomial = blocks[tied].mul(head);
            let mut at = start;
            // `served` is in increasing k, so N only grows.
            for &i in served.iter().filter(|&&i| ks[i] as usize - c >= start) {
                let n = ks[i] as usize - c;
                while at < n {
                    at += 1;
                    multinomial = multinomial
                        .mul(Wide::whole(at as u64))
                        .div(Wide::whole((at - start) as u64))
                        .mul(totals_wide[index]);
                }
                let weight = binomial_k[n].mul(multinomial);
                let (wv, rel) = weight.value();
                let pv = p[index][n - start];
                let term = wv * pv;
                value[i] += term;
                magnitude[i] += term.abs();
                terms[i] += 1;
                error[i] += (wv * (1.0 + rel) + SUBNORMAL) * pe[index][n - start]
                    + (wv * rel + SUBNORMAL) * pv.abs();
            }
        }
    }
    (0..ks.len())
        .map(|i| {
            let bound = (error[i] + gamma(terms[i] + 1) * magnitude[i]) * (1.0 + 1e-9);
            Value::Float(Enclosure::around(value[i], bound))
        })
        .collect()
}

fn small_binomial(n: usize, k: usize) -> u64 {
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i as u64 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    /// The sum over compositions (the old programme, kept in [`super::super::vote`]) and
    /// the recurrence agree exactly, equal shares, unequal shares and a zero share included;
    /// f64 encloses the exact value.
    #[test]
    fn the_recurrence_is_the_sum_over_compositions() {
        for wrong in [
            vec![q("1/2"), q("1/2")],
            vec![q("1/6"), q("1/3"), q("1/2")],
            vec![q("1/4"), q("1/4"), q("1/4"), q("1/4")],
            vec![q("1/4"), q("0"), q("1/4"), q("1/2")],
            vec![q("0.3"), q("0.3"), q("0.2"), q("0.2")],
        ] {
            let groups = Groups::of(&wrong);
            for success in ["0.7", "0.3", "1/5", "0", "1"] {
                let r = q(success);
                let ks: Vec<u64> = vec![9, 1, 2, 3, 4, 5, 6, 7, 8, 12];
                let fast = plurality(&r, &groups, &ks, true);
                let float = plurality(&r, &groups, &ks, false);
                for ((&k, a), f) in ks.iter().zip(&fast).zip(&float) {
                    let slow = super::super::vote::correct_vote(&r, &wrong, k).exact();
                    assert_eq!(a.exact(), slow, "{wrong:?} R = {success} k = {k}");
                    let exact = a.exact().unwrap();
                    match f {
                        Value::Float(e) => {
                            let e = *e;
                            assert!(
                                Enclosure::of(&exact).lower >= e.lower
                                    && Enclosure::of(&exact).upper <= e.upper,
                                "{wrong:?} R = {success} k = {k}: {e:?} {exact}"
                            );
                            assert!(e.upper - e.lower < 1e-12, "{e:?}");
                        }
                        other => panic!("{other:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn groups_collect_equal_shares_and_drop_zeros() {
        let g = Groups::of(&[q("1/4"), q("0"), q("1/4"), q("1/2")]);
        assert_eq!(g.sizes, vec![2, 1]);
        assert_eq!(g.classes(), 6);
        assert_eq!(g.answers(), 3);
    }

    #[test]
    fn wide_numbers_keep_their_exponent() {
        let tiny = Wide::of(&q("1/10")).pow(400);
        let (v, _) = tiny.value();
        assert_eq!(v, 0.0);
        let back = tiny.mul(Wide::of(&q("10")).pow(400)).value();
        assert!((back.0 - 1.0).abs() < 1e-12, "{back:?}");
        assert!(back.1 > 0.0 && back.1 < 1e-12);
    }
}
