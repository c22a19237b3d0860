//! Pass-at-k (an oracle verifier) and resampling with an imperfect verifier (Stroebl,
//! Kapoor & Narayanan, arXiv 2411.17501): the closed forms of the module docs.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::arith::{Arith, Value, bits, larger};
use super::{Estimate, Tasks, check_probability, product_seconds, reduce_seconds};
use crate::analytic::distributions::Bounded;
use crate::error::Result;
use crate::numeric::enclosure::Enclosure;
use crate::numeric::number::Probability;

/// One row of pass-at-k.
#[derive(Debug, Clone, PartialEq)]
pub struct PassRow<P> {
    /// The number of samples k.
    pub k: u64,
    /// The probability that one of the k samples is correct.
    pub correct: Bounded<P>,
    /// The probability that none is (no answer).
    pub none: Bounded<P>,
}

/// The cost of powers `x^k`, one per task type and k: exact, by the size of their integers;
/// `f64`, by their number.
fn powers_estimate(what: &str, denominators: &[BigInt], ks: &[u64], exact: bool) -> Estimate {
    if !exact {
        return Estimate::new(
            what,
            super::float_power_seconds(denominators.len(), ks, 8.0),
            ks.len() as f64 * 256.0,
            super::FLOAT_HINT,
        );
    }
    let per_k: f64 = denominators.iter().map(bits).sum();
    let seconds: f64 = ks
        .iter()
        .map(|&k| {
            let b = k as f64 * per_k;
            4.0 * product_seconds(b) + reduce_seconds(b)
        })
        .sum();
    let bytes = ks
        .iter()
        .map(|&k| k as f64 * per_k / 8.0)
        .fold(0.0, f64::max)
        * 8.0;
    Estimate::new(
        format!("{what} in exact rationals"),
        seconds,
        bytes,
        super::EXACT_HINT,
    )
}

/// The cost of [`pass_at_k`], before any work.
pub(crate) fn pass_at_k_estimate(tasks: &Tasks, ks: &[u64], exact: bool) -> Estimate {
    let denominators: Vec<BigInt> = tasks
        .types()
        .iter()
        .map(|t| t.success.denom().clone())
        .collect();
    powers_estimate("pass-at-k", &denominators, ks, exact)
}

/// The cost of [`resample`], before any work.
pub(crate) fn resample_estimate(
    tasks: &Tasks,
    completeness: &BigRational,
    soundness: &BigRational,
    ks: &[u64],
    exact: bool,
) -> Result<Estimate> {
    check_probability("--completeness", completeness)?;
    check_probability("--soundness", soundness)?;
    let one = BigRational::one();
    let denominators: Vec<BigInt> = tasks
        .types()
        .iter()
        .map(|t| {
            let r = &t.success;
            (&one - r * completeness - (&one - r) * (&one - soundness))
                .denom()
                .clone()
        })
        .collect();
    Ok(powers_estimate("resampling", &denominators, ks, exact))
}

/// Pass-at-k of a mix of tasks: `sum_j W_j (1 - (1 - R_j)^k)` for every k of `ks`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::{Tasks, pass_at_k};
/// use num_rational::BigRational;
/// let tasks = Tasks::parse("1/2").unwrap();
/// let rows = pass_at_k::<BigRational>(&tasks, &[1, 2]).unwrap();
/// assert_eq!(rows[1].correct.value.to_string(), "3/4");
/// ```
///
/// # Errors
///
/// [`crate::Error::TooExpensive`] for exact powers too large to compute.
pub fn pass_at_k<P: Probability>(tasks: &Tasks, ks: &[u64]) -> Result<Vec<PassRow<P>>> {
    pass_at_k_estimate(tasks, ks, P::EXACT).check()?;
    let rows = if P::EXACT {
        pass_rows::<P, BigInt>(tasks, ks)
    } else {
        pass_rows::<P, Enclosure>(tasks, ks)
    };
    crate::cancel::current().check().map(|()| rows)
}

fn pass_rows<P: Probability, A: Arith>(tasks: &Tasks, ks: &[u64]) -> Vec<PassRow<P>> {
    let exact = P::EXACT;
    let one = BigRational::one();
    let one_value = Value::of(&one, exact);
    // Each type's 1 - R (over its scale) and share, converted once, not once per k.
    let types: Vec<(A, A, Value)> = tasks
        .types()
        .iter()
        .map(|t| {
            let (miss, scale) = A::scale(std::slice::from_ref(&(&one - &t.success)));
            let miss = miss.into_iter().next().expect("one value");
            (miss, scale, Value::of(&t.share, exact))
        })
        .collect();
    let cancel = crate::cancel::current();
    ks.iter()
        .take_while(|_| !cancel.is_cancelled()) // the caller returns Error::Interrupted
        .map(|&k| {
            let mut correct = Value::of(&BigRational::zero(), exact);
            for (miss, scale, share) in &types {
                let miss = A::value(&miss.power(k), &scale.power(k));
                let hit = one_value.sub(&miss);
                correct = correct.add(&share.mul(&hit));
            }
            let none = one_value.sub(&correct);
            PassRow {
                k,
                correct: correct.bounded(0.0, 1.0),
                none: none.bounded(0.0, 1.0),
            }
        })
        .collect()
}

/// One row of resampling (and, with `k` `None`, the limit as k grows).
#[derive(Debug, Clone, PartialEq)]
pub struct ResampleRow<P> {
    /// The largest number of samples k (`None`: the limit as k grows).
    pub k: Option<u64>,
    /// The probability that the accepted answer is correct.
    pub correct: Bounded<P>,
    /// The probability that a wrong answer is accepted.
    pub false_positive: Bounded<P>,
    /// The probability that no sample is accepted.
    pub none: Bounded<P>,
    /// The expected payoff `P_correct + V P_false_positive + U P_none` (U the payoff of no
    /// answer, `--abstain-value`, 0 unless given).
    pub payoff: Bounded<P>,
    /// The expected number of samples drawn (each shown to the verifier once, so also the
    /// expected verifier calls): `sum_j W_j sum_{i<k} (1 - alpha_j)^i`, alpha_j = a + b the
    /// type's acceptance probability per sample; `None` in the limit when some type's
    /// alpha is 0 (it never stops).
    pub samples: Option<Bounded<P>>,
}

/// The per-sample rates of one task type under the verifier (exact).
#[derive(Debug, Clone, PartialEq)]
pub struct TypeRates {
    /// R.
    pub success: BigRational,
    /// W.
    pub share: BigRational,
    /// `R C`: a sample is correct and accepted.
    pub accept_correct: BigRational,
    /// `R (1 - C)`: a sample is correct and rejected.
    pub reject_correct: BigRational,
    /// `(1 - R) S`: a sample is wrong and rejected (Stroebl et al.'s beta, the probability
    /// of a rejection, is this plus `reject_correct`: this alone when C = 1).
    pub reject_wrong: BigRational,
    /// `(1 - R)(1 - S)`: a sample is wrong and accepted (Stroebl et al.'s p_fluke).
    pub accept_wrong: BigRational,
    /// `R C / (R C + (1 - R)(1 - S))`: the type's accuracy as k grows (`None` when no sample
    /// is ever accepted).
    pub ceiling: Option<BigRational>,
}

/// Resampling with an imperfect verifier: the rows, the best k of the list, the limit.
#[derive(Debug, Clone, PartialEq)]
pub struct Resample<P> {
    /// One row per k of the list.
    pub rows: Vec<ResampleRow<P>>,
    /// The k of the list with the largest payoff (exact: the first such k; f64: a later k
    /// replaces the best so far only when its enclosure lies wholly above it).
    pub best: u64,
    /// The limit as k grows (`k` is `None`).
    pub limit: ResampleRow<P>,
    /// The per-sample rates of each task type.
    pub types: Vec<TypeRates>,
}

/// Resampling until an imperfect verifier accepts (module docs), for every k of `ks`, with
/// the payoff `P_correct + V P_false_positive`, its best k and the limit as k grows.
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::{Tasks, resample};
/// use pathology::numeric::number::parse_rational;
/// use num_rational::BigRational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let tasks = Tasks::parse("0.87:0.58,0.13:0.42").unwrap();
/// let r = resample::<BigRational>(&tasks, &q("1"), &q("0.75"), &q("0"), &[1, 10]).unwrap();
/// assert_eq!(r.types[0].reject_wrong, q("0.0975")); // their beta_1
/// assert_eq!(r.types[1].accept_wrong, q("0.2175")); // their p_fluke for type 2
/// assert!(r.limit.correct.value < q("1")); // the accuracy ceiling
/// ```
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `--completeness` or `--soundness` outside
/// `[0, 1]`; [`crate::Error::TooExpensive`] for exact powers too large to compute.
pub fn resample<P: Probability>(
    tasks: &Tasks,
    completeness: &BigRational,
    soundness: &BigRational,
    false_positive_value: &BigRational,
    ks: &[u64],
) -> Result<Resample<P>> {
    resample_with(
        tasks,
        completeness,
        soundness,
        &Payoffs {
            false_positive: false_positive_value.clone(),
            abstain: BigRational::zero(),
        },
        ks,
    )
}

/// The payoffs of a false positive (V, `--false-positive-value`) and of no answer (U,
/// `--abstain-value`); a correct answer pays 1.
#[derive(Debug, Clone, PartialEq)]
pub struct Payoffs {
    /// V: the payoff of a wrong accepted answer.
    pub false_positive: BigRational,
    /// U: the payoff of no answer.
    pub abstain: BigRational,
}

/// [`resample`] with the payoff of no answer U as well: `payoff = P_correct + V
/// P_false_positive + U P_none`, and each row's expected number of samples (and verifier
/// calls), `sum_j W_j sum_{i<k} (1 - alpha_j)^i = sum_j W_j (1 - q_j^k) / alpha_j` with
/// `alpha_j = 1 - q_j` the type's acceptance probability per sample (`k` when it is 0).
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::{Payoffs, Tasks, resample_with};
/// use pathology::numeric::number::parse_rational;
/// use num_rational::BigRational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let tasks = Tasks::parse("1/2").unwrap();
/// let payoffs = Payoffs { false_positive: q("0"), abstain: q("-1") };
/// // C = 1, S = 1: a sample is accepted exactly when it is correct (alpha = 1/2).
/// let r = resample_with::<BigRational>(&tasks, &q("1"), &q("1"), &payoffs, &[2]).unwrap();
/// // Expected samples 1 + 1/2; no answer with probability 1/4, paying -1.
/// assert_eq!(r.rows[0].samples.as_ref().unwrap().value, q("3/2"));
/// assert_eq!(r.rows[0].payoff.value, q("3/4") - q("1/4"));
/// ```
///
/// # Errors
///
/// As [`resample`].
pub fn resample_with<P: Probability>(
    tasks: &Tasks,
    completeness: &BigRational,
    soundness: &BigRational,
    payoffs: &Payoffs,
    ks: &[u64],
) -> Result<Resample<P>> {
    check_probability("--completeness", completeness)?;
    check_probability("--soundness", soundness)?;
    let one = BigRational::one();
    let types: Vec<TypeRates> = tasks
        .types()
        .iter()
        .map(|t| {
            let r = &t.success;
            let a = r * completeness;
            let b = (&one - r) * (&one - soundness);
            let total = &a + &b;
            TypeRates {
                success: r.clone(),
                share: t.share.clone(),
                reject_correct: r * (&one - completeness),
                reject_wrong: (&one - r) * soundness,
                ceiling: (!total.is_zero()).then(|| &a / &total),
                accept_correct: a,
                accept_wrong: b,
            }
        })
        .collect();
    resample_estimate(tasks, completeness, soundness, ks, P::EXACT)?.check()?;
    let rows = if P::EXACT {
        resample_rows::<P, BigInt>(types, payoffs, ks)
    } else {
        resample_rows::<P, Enclosure>(types, payoffs, ks)
    };
    crate::cancel::current().check().map(|()| rows)
}

fn resample_rows<P: Probability, A: Arith>(
    types: Vec<TypeRates>,
    payoffs: &Payoffs,
    ks: &[u64],
) -> Resample<P> {
    let exact = P::EXACT;
    let zero = BigRational::zero();
    let one = BigRational::one();
    let (v, u) = (&payoffs.false_positive, &payoffs.abstain);
    let (vf, uf) = (super::arith::approx(v), super::arith::approx(u));
    let (low, high) = (vf.min(uf).min(0.0), vf.max(uf).max(1.0));
    // The abstain term is added only when U is not 0, so that the default's values (and
    // f64 bounds) are those of P_correct + V P_false_positive alone.
    let payoff = |correct: &Value, fp: &Value, none: &Value| {
        let pay = correct.add(&Value::of(v, exact).mul(fp));
        if u.is_zero() {
            pay
        } else {
            pay.add(&Value::of(u, exact).mul(none))
        }
    };
    let row = |k: Option<u64>, correct: Value, fp: Value, none: Value, samples: Option<Value>| {
        let pay = payoff(&correct, &fp, &none);
        let most = k.map_or(f64::MAX, |k| k as f64);
        (
            ResampleRow {
                k,
                correct: correct.bounded(0.0, 1.0),
                false_positive: fp.bounded(0.0, 1.0),
                none: none.bounded(0.0, 1.0),
                payoff: pay.bounded(low, high),
                samples: samples.map(|s| s.bounded(1.0, most)),
            },
            pay,
        )
    };
    let mut rows = Vec::new();
    let mut best: Option<(u64, Value)> = None;
    let one_value = Value::of(&one, exact);
    // Each type's rejection rate q (over its scale), share and ceiling, converted once.
    struct Converted<A> {
        stay: A,
        scale: A,
        share: Value,
        ceiling: Option<(Value, Value)>,
        /// `1 / alpha` (`None`: alpha = 0, every sample rejected).
        inverse_acceptance: Option<Value>,
    }
    let converted: Vec<Converted<A>> = types
        .iter()
        .map(|t| {
            let q = &one - &t.accept_correct - &t.accept_wrong;
            let (stay, scale) = A::scale(std::slice::from_ref(&q));
            let alpha = &t.accept_correct + &t.accept_wrong;
            Converted {
                stay: stay.into_iter().next().expect("one value"),
                scale,
                inverse_acceptance: (!alpha.is_zero()).then(|| Value::of(&alpha.recip(), exact)),
                share: Value::of(&t.share, exact),
                ceiling: t
                    .ceiling
                    .as_ref()
                    .map(|c| (Value::of(c, exact), Value::of(&(&one - c), exact))),
            }
        })
        .collect();
    let cancel = crate::cancel::current();
    for &k in ks {
        let (mut correct, mut fp, mut none, mut samples) = (
            Value::of(&zero, exact),
            Value::of(&zero, exact),
            Value::of(&zero, exact),
            Value::of(&zero, exact),
        );
        for t in &converted {
            let w = &t.share;
            let stay = A::value(&t.stay.power(k), &t.scale.power(k));
            none = none.add(&w.mul(&stay));
            // sum_{i<k} (1 - alpha)^i = (1 - q^k) / alpha, or k when alpha = 0.
            let drawn = match &t.inverse_acceptance {
                Some(inverse) => one_value.sub(&stay).mul(inverse),
                None => Value::of(&BigRational::from_integer(k.into()), exact),
            };
            samples = samples.add(&w.mul(&drawn));
            if let Some((ceiling, rest)) = &t.ceiling {
                let stop = w.mul(&one_value.sub(&stay));
                correct = correct.add(&stop.mul(ceiling));
                fp = fp.add(&stop.mul(rest));
            }
        }
        let (r, pay) = row(Some(k), correct, fp, none, Some(samples));
        if best.as_ref().is_none_or(|(_, b)| larger(&pay, b)) {
            best = Some((k, pay));
        }
        rows.push(r);
        if cancel.is_cancelled() {
            break; // after one row (the best k exists); the caller returns Error::Interrupted
        }
    }
    // Summed unreduced and reduced once: a gcd per type of a growing denominator took
    // minutes for 1,000 types.
    let rational = |r: &BigRational| Value::of(r, true);
    let (mut correct, mut fp, mut none) = (rational(&zero), rational(&zero), rational(&zero));
    // As k grows the expected samples tend to sum_j W_j / alpha_j (without end when an alpha
    // is 0).
    let mut samples = Some(rational(&zero));
    for t in &types {
        let share = rational(&t.share);
        let alpha = &t.accept_correct + &t.accept_wrong;
        samples = match samples {
            Some(s) if !alpha.is_zero() => Some(s.add(&share.mul(&rational(&alpha.recip())))),
            _ => None,
        };
        match &t.ceiling {
            Some(c) => {
                correct = correct.add(&share.mul(&rational(c)));
                fp = fp.add(&share.mul(&rational(&(&one - c))));
            }
            None => none = none.add(&share),
        }
    }
    let in_mode = |v: Value| Value::of(&v.exact().expect("exact"), exact);
    let (limit, _) = row(
        None,
        in_mode(correct),
        in_mode(fp),
        in_mode(none),
        samples.map(in_mode),
    );
    Resample {
        rows,
        best: best.expect("a nonempty list").0,
        limit,
        types,
    }
}
