//! Best-of-n with a verifier's scores: the largest of n scores, ties broken uniformly
//! (module docs of [`super`] give the identity). The same engine decides each step of
//! [`super::lookahead`]'s search.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::arith::{Arith, Value, bits, larger};
use super::{Estimate, Tasks, product_seconds, reduce_seconds};
use crate::analytic::distributions::Bounded;
use crate::analytic::pathsum::Law;
use crate::error::{Error, Result};
use crate::numeric::enclosure::{Enclosure, TwoSided};
use crate::numeric::number::{Probability, Scaled};

/// One sample's joint law of (correct, score) on ascending score levels: per level the
/// probability `a` of a correct sample with that score and `b` of a wrong one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Levels {
    /// `(score, a, b)`, scores ascending, `a + b > 0`.
    pub(crate) levels: Vec<(BigRational, BigRational, BigRational)>,
}

impl Levels {
    /// A sample correct with probability `success`, scored from `correct` if it is and from
    /// `wrong` if not.
    pub(crate) fn mix(success: &BigRational, correct: &Law, wrong: &Law) -> Levels {
        let fail = BigRational::one() - success;
        let mut levels: Vec<(BigRational, BigRational, BigRational)> = Vec::new();
        for (v, p) in correct.atoms() {
            levels.push((v.clone(), success * p, BigRational::zero()));
        }
        for (v, p) in wrong.atoms() {
            match levels.iter_mut().find(|(w, _, _)| w == v) {
                Some(level) => level.2 += &fail * p,
                None => levels.push((v.clone(), BigRational::zero(), &fail * p)),
            }
        }
        levels.retain(|(_, a, b)| !(a.is_zero() && b.is_zero()));
        levels.sort_by(|x, y| x.0.cmp(&y.0));
        Levels { levels }
    }

    /// Per level `a / (a + b)` and the cumulative mass `G(s)`.
    pub(crate) fn ratios_and_cumulative(&self) -> (Vec<BigRational>, Vec<BigRational>) {
        let mut total = BigRational::zero();
        let mut ratios = Vec::new();
        let mut cumulative = Vec::new();
        for (_, a, b) in &self.levels {
            let t = a + b;
            ratios.push(a / &t);
            total += t;
            cumulative.push(total.clone());
        }
        (ratios, cumulative)
    }

    /// The probability that the sample of the largest score is correct as n grows: the top
    /// level's `a / (a + b)`.
    pub(crate) fn limit(&self) -> BigRational {
        let (_, a, b) = self.levels.last().expect("a nonempty law");
        a / (a + b)
    }
}

/// `P(the sample taken is correct)` for n samples, for every n of `ns`: `sum_s rho(s)
/// (G(s)^n - G(s-)^n)` over one common scale (exact: the powers are updated by one
/// multiplication per level when n grows by a little).
pub(crate) fn pick_correct<A: Arith>(
    ratios: &[BigRational],
    cumulative: &[BigRational],
    ns: &[u64],
) -> Vec<Value> {
    let (x, m) = A::scale(ratios);
    let (g, d) = A::scale(cumulative);
    let mut exponent = 0u64;
    let mut powers: Vec<A> = g.iter().map(|_| A::zero_value()).collect();
    let mut d_power = d.power(0);
    let mut out = Vec::with_capacity(ns.len());
    let cancel = crate::cancel::current();
    for &n in ns {
        if cancel.is_cancelled() {
            break; // the caller returns Error::Interrupted, never these values
        }
        if n >= exponent && n - exponent <= 8 && exponent > 0 {
            for _ in exponent..n {
                for (p, gi) in powers.iter_mut().zip(&g) {
                    *p = p.mul(gi);
                }
                d_power = d_power.mul(&d);
            }
        } else {
            // One power per level (seconds each at n in the millions): checked between them;
            // a cut list of powers gives a wrong sum, which the caller never returns.
            powers = g
                .iter()
                .take_while(|_| !cancel.is_cancelled())
                .map(|gi| gi.power(n))
                .collect();
            d_power = d.power(n);
        }
        exponent = n;
        let mut sum = A::zero_value();
        let mut below = A::zero_value();
        for (xi, p) in x.iter().zip(&powers) {
            sum = sum.add(&xi.mul(&p.sub(&below)));
            below = p.clone();
        }
        out.push(A::value(&sum, &m.mul(&d_power)));
    }
    out
}

/// [`pick_correct`] in `f64` with the cumulative masses held as [`TwoSided`] enclosures:
/// `G(s)^n` near 1 keeps its distance to 1 (its complement to full relative precision), so
/// the bound stays meaningful for n in the billions and beyond, where plain enclosures of
/// `G(s)^n` widen to `[0, 1]`.
pub(crate) fn pick_correct_float(
    ratios: &[BigRational],
    cumulative: &[BigRational],
    ns: &[u64],
) -> Vec<Value> {
    let x: Vec<Enclosure> = ratios.iter().map(Enclosure::of).collect();
    let g: Vec<TwoSided> = cumulative.iter().map(TwoSided::of).collect();
    let zero = TwoSided::of(&BigRational::zero());
    let cancel = crate::cancel::current();
    ns.iter()
        .take_while(|_| !cancel.is_cancelled()) // the caller returns Error::Interrupted
        .map(|&n| {
            let mut sum = Enclosure::point(0.0);
            let mut below = zero;
            for (xi, gi) in x.iter().zip(&g) {
                let power = gi.power(n);
                sum = sum.add(&xi.mul(&power.minus(&below)));
                below = power;
            }
            Value::Float(sum)
        })
        .collect()
}

/// One row of best-of-n.
#[derive(Debug, Clone, PartialEq)]
pub struct BestOfNRow<P> {
    /// The number of samples n (`None`: the limit as n grows).
    pub n: Option<u64>,
    /// The probability that the sample taken is correct.
    pub correct: Bounded<P>,
    /// The probability that it is wrong (a false answer).
    pub false_positive: Bounded<P>,
}

/// Best-of-n: the rows, the best n of the list and the limit as n grows.
#[derive(Debug, Clone, PartialEq)]
pub struct BestOfN<P> {
    /// One row per n.
    pub rows: Vec<BestOfNRow<P>>,
    /// The n of the list with the largest `P_correct` (exact: the first such n; f64: a later
    /// n replaces the best so far only when its enclosure lies wholly above it).
    pub best: u64,
    /// The limit as n grows: the top score level's share of correct samples.
    pub limit: BestOfNRow<P>,
}

/// Best-of-n over a mix of tasks: n samples, a correct one scored from `correct`, a wrong
/// one from `wrong`, the answer a sample of the largest score (ties uniform).
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::{Tasks, best_of_n};
/// use pathology::analytic::pathsum::Law;
/// use num_rational::BigRational;
/// let tasks = Tasks::parse("1/2").unwrap();
/// let correct = Law::parse("--score-correct", "1").unwrap();
/// let wrong = Law::parse("--score-wrong", "0:1/2,2:1/2").unwrap();
/// let r = best_of_n::<BigRational>(&tasks, &correct, &wrong, &[1, 2]).unwrap();
/// // n = 2: correct when both are (1/4) or one is and the other scores 0 (2 * 1/8).
/// assert_eq!(r.rows[1].correct.value.to_string(), "1/2");
/// ```
///
/// # Errors
///
/// [`Error::TooExpensive`] for exact powers too large to compute.
pub fn best_of_n<P: Probability>(
    tasks: &Tasks,
    correct: &Law,
    wrong: &Law,
    ns: &[u64],
) -> Result<BestOfN<P>> {
    let per_type = type_levels(tasks, correct, wrong)?;
    estimate(&per_type, ns, P::EXACT).check()?;
    let rows = if P::EXACT {
        best_rows::<P>(tasks, &per_type, ns, pick_correct::<BigInt>)
    } else {
        best_rows::<P>(tasks, &per_type, ns, pick_correct_float)
    };
    crate::cancel::current().check().map(|()| rows)
}

/// Each task type's joint law of (correct, score), the laws checked.
fn type_levels(tasks: &Tasks, correct: &Law, wrong: &Law) -> Result<Vec<Levels>> {
    check_law("--score-correct", correct)?;
    check_law("--score-wrong", wrong)?;
    Ok(tasks
        .types()
        .iter()
        .map(|t| Levels::mix(&t.success, correct, wrong))
        .collect())
}

/// The cost of [`best_of_n`], before any work.
pub(crate) fn best_of_n_estimate(
    tasks: &Tasks,
    correct: &Law,
    wrong: &Law,
    ns: &[u64],
    exact: bool,
) -> Result<Estimate> {
    Ok(estimate(&type_levels(tasks, correct, wrong)?, ns, exact))
}

fn estimate(per_type: &[Levels], ns: &[u64], exact: bool) -> Estimate {
    if exact {
        let mut per_n = 0.0;
        let mut levels = 0.0;
        for l in per_type {
            let (r, c) = l.ratios_and_cumulative();
            let (_, d) = BigInt::scale(&c);
            let (_, m) = BigInt::scale(&r);
            per_n += bits(&d) + bits(&m) / 1000.0;
            levels += l.levels.len() as f64;
        }
        let seconds: f64 = ns
            .iter()
            .map(|&n| {
                let b = n as f64 * per_n;
                levels * (b / 64.0) * 1e-8 + 4.0 * product_seconds(b) + reduce_seconds(b)
            })
            .sum();
        let top = ns.iter().copied().max().unwrap_or(1) as f64 * per_n;
        Estimate::new(
            "best-of-n in exact rationals",
            seconds,
            levels * top / 8.0 * 2.0,
            super::EXACT_HINT,
        )
    } else {
        // Per level and n: a two-sided power (about 12 log2 n operations: the value's
        // products and the complement's recurrence) and a few sums; per level, its
        // conversions (measured: 100 levels at n = 1..10000 took 12.4 s).
        let levels = per_type.iter().map(|l| l.levels.len()).sum::<usize>() as f64;
        let operations: f64 = ns
            .iter()
            .map(|&n| 12.0 * (n as f64).log2().max(1.0) + 8.0)
            .sum::<f64>()
            + ns.len() as f64 * super::FLOAT_PAIR_SECONDS / super::FLOAT_OPERATION_SECONDS;
        Estimate::new(
            "best-of-n",
            levels
                * (operations * super::FLOAT_OPERATION_SECONDS
                    + 3.0 * super::FLOAT_CONVERSION_SECONDS)
                + ns.len() as f64 * super::ROW_SECONDS,
            ns.len() as f64 * 256.0,
            super::FLOAT_HINT,
        )
    }
}

/// `P(the sample taken is correct)` per n from a level's ratios and cumulative masses, in
/// one mode ([`pick_correct`] exact, [`pick_correct_float`] `f64`).
type Pick = fn(&[BigRational], &[BigRational], &[u64]) -> Vec<Value>;

fn best_rows<P: Probability>(
    tasks: &Tasks,
    per_type: &[Levels],
    ns: &[u64],
    pick: Pick,
) -> BestOfN<P> {
    let exact = P::EXACT;
    let one = Value::of(&BigRational::one(), exact);
    let mut totals: Vec<Value> = ns
        .iter()
        .map(|_| Value::of(&BigRational::zero(), exact))
        .collect();
    // Summed unreduced and reduced once (a gcd per type of a growing denominator is slow).
    let mut limit = Value::of(&BigRational::zero(), true);
    let cancel = crate::cancel::current();
    for (t, levels) in tasks.types().iter().zip(per_type) {
        if cancel.is_cancelled() {
            break; // the caller returns Error::Interrupted, never these rows
        }
        let (ratios, cumulative) = levels.ratios_and_cumulative();
        let w = Value::of(&t.share, exact);
        for (total, v) in totals.iter_mut().zip(pick(&ratios, &cumulative, ns)) {
            *total = total.add(&w.mul(&v));
        }
        limit = limit.add(&Value::of(&t.share, true).mul(&Value::of(&levels.limit(), true)));
    }
    let limit = limit.exact().expect("exact");
    let mut best: Option<(u64, Value)> = None;
    let rows = ns
        .iter()
        .zip(totals)
        .map(|(&n, v)| {
            let row = BestOfNRow {
                n: Some(n),
                correct: v.bounded(0.0, 1.0),
                false_positive: one.sub(&v).bounded(0.0, 1.0),
            };
            if best.as_ref().is_none_or(|(_, b)| larger(&v, b)) {
                best = Some((n, v));
            }
            row
        })
        .collect();
    let limit = Value::of(&limit, exact);
    BestOfN {
        rows,
        best: best.expect("a nonempty list").0,
        limit: BestOfNRow {
            n: None,
            correct: limit.bounded(0.0, 1.0),
            false_positive: one.sub(&limit).bounded(0.0, 1.0),
        },
    }
}

/// Refuses an empty law (the parser never returns one; a library caller might build one).
pub(crate) fn check_law(name: &str, law: &Law) -> Result<()> {
    if law.atoms().is_empty() {
        return Err(Error::invalid(
            name,
            "a law with at least one value",
            "an empty law",
        ));
    }
    Ok(())
}
