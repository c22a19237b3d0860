//! Majority voting over k samples (Chen et al., arXiv 2403.02419), with any number of wrong
//! answers and uniform tie-breaking, exactly.
//!
//! One wrong answer: with the per-sample probabilities over one common denominator D (the
//! correct answer r, the wrong one u, `r + u = D`), `P_correct = sum_c C(k, c) r^c u^(k-c)
//! w(c) / (2 D^k)` with `w(c) = 2` for `c > k - c`, 1 at a tie and 0 below (exact in both
//! modes, rounded once in `f64`). Several: the plurality recurrence of
//! [`super::plurality`], every k of the list in one pass. [`correct_vote`] is the sum over
//! compositions: `sum_c C(k, c) r^c S(c) / (L D^k)`, where `S(c)` sums, over the wrong
//! answers' counts `w_i <= c` with `sum w_i = k - c`, the integer
//! `(k - c)! / prod w_i! prod u_i^w_i` times `L / (1 + #{i : w_i = c})` (L the least common
//! multiple of 1..=m + 1), a dynamic programme over the first m - 1 wrong answers in (votes
//! used, number tied at c); it serves one wrong answer here and is the recurrence's check in
//! the tests.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::arith::{Arith, Value, bits, larger};
use super::plurality::{Groups, plurality, plurality_cost};
use super::weighted_vote::{weighted_vote_estimate, weighted_vote_type};
use super::{Estimate, Tasks, product_seconds, reduce_seconds};
use crate::analytic::distributions::Bounded;
use crate::analytic::pathsum::Law;
use crate::error::{Error, Result};
use crate::numeric::number::{Probability, parse_rational};

/// The largest number of wrong answers.
pub const MAX_WRONG_ANSWERS: usize = 64;

/// One row of voting.
#[derive(Debug, Clone, PartialEq)]
pub struct VoteRow<P> {
    /// The number of votes k.
    pub k: u64,
    /// The probability that the vote's answer is correct.
    pub correct: Bounded<P>,
    /// The probability that it is wrong.
    pub false_positive: Bounded<P>,
}

/// Voting: the rows and the best k of the list.
#[derive(Debug, Clone, PartialEq)]
pub struct Vote<P> {
    /// One row per k.
    pub rows: Vec<VoteRow<P>>,
    /// The k of the list with the largest `P_correct` (exact: the first such k; f64: a later k
    /// replaces the best so far only when its enclosure lies wholly above it).
    pub best: u64,
}

/// Parses `--wrong-answers U1,U2,...` (rationals in `[0, 1]` summing to 1).
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::parse_wrong_answers;
/// assert_eq!(parse_wrong_answers("1").unwrap().len(), 1);
/// assert!(parse_wrong_answers("0.5,0.4").unwrap_err().to_string().contains("summing to exactly 1"));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--wrong-answers`.
pub fn parse_wrong_answers(text: &str) -> Result<Vec<BigRational>> {
    let name = "--wrong-answers";
    let allowed = format!(
        "a comma list of 1 to {MAX_WRONG_ANSWERS} probabilities in [0, 1] summing to exactly 1"
    );
    let items: Vec<&str> = text.split(',').collect();
    if text.trim().is_empty() || items.len() > MAX_WRONG_ANSWERS {
        return Err(Error::invalid(name, &allowed, text));
    }
    let mut out = Vec::new();
    for item in items {
        let u = parse_rational(item.trim())
            .map_err(|e| Error::invalid(name, &format!("{allowed}; {e}"), item.trim()))?;
        super::check_probability(name, &u)?;
        out.push(u);
    }
    let sum: BigRational = out.iter().cloned().sum();
    if !num_traits::One::is_one(&sum) {
        return Err(Error::invalid(name, &allowed, format!("a sum of {sum}")));
    }
    Ok(out)
}

/// Majority voting (module docs) for every k of `ks`; computed exactly in both modes and
/// rounded once in `f64`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::{Tasks, vote};
/// use num_rational::BigRational;
/// let tasks = Tasks::parse("0.6").unwrap();
/// let one_wrong = vec![BigRational::from_integer(1.into())];
/// let v = vote::<BigRational>(&tasks, &one_wrong, &[1, 2, 3]).unwrap();
/// // Two votes: both right, or one each and the tie broken for the right one.
/// assert_eq!(v.rows[1].correct.value.to_string(), "3/5");
/// assert_eq!(v.rows[2].correct.value.to_string(), "81/125"); // 0.216 + 3 (0.36)(0.4)
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--wrong-answers` for shares not summing to 1;
/// [`Error::TooExpensive`] past the analytic limits.
pub fn vote<P: Probability>(tasks: &Tasks, wrong: &[BigRational], ks: &[u64]) -> Result<Vote<P>> {
    vote_estimate(tasks, wrong, ks, P::EXACT)?.check()?;
    let cancel = crate::cancel::current();
    let mut totals: Vec<Value> = ks
        .iter()
        .map(|_| Value::of(&BigRational::zero(), true))
        .collect();
    let groups = Groups::of(wrong);
    for t in tasks.types() {
        cancel.check()?;
        // One wrong answer: the binomial sum, exact in both modes (rounded once in f64).
        // More: the plurality recurrence, exact or in f64 with its bound.
        let values: Vec<Value> = if wrong.len() == 1 {
            ks.iter()
                .map(|&k| correct_vote(&t.success, wrong, k))
                .collect()
        } else {
            plurality(&t.success, &groups, ks, P::EXACT)
        };
        let w = Value::of(&t.share, wrong.len() == 1 || P::EXACT);
        for (total, v) in totals.iter_mut().zip(&values) {
            *total = total.add(&w.mul(v));
        }
    }
    cancel.check()?;
    Ok(vote_rows(ks, totals))
}

/// The rows and the best k from each k's probability.
fn vote_rows<P: Probability>(ks: &[u64], totals: Vec<Value>) -> Vote<P> {
    let one = Value::of(&BigRational::one(), true);
    let mut best: Option<(u64, Value)> = None;
    let mut rows = Vec::new();
    for (&k, total) in ks.iter().zip(totals) {
        rows.push(VoteRow {
            k,
            correct: total.bounded(0.0, 1.0),
            false_positive: one.sub(&total).bounded(0.0, 1.0),
        });
        if best.as_ref().is_none_or(|(_, b)| larger(&total, b)) {
            best = Some((k, total));
        }
    }
    Vote {
        rows,
        best: best.expect("a nonempty list").0,
    }
}

/// Reward-weighted voting (module `weighted_vote`): k samples, a correct one scored from
/// `correct`, a wrong one from `wrong_law`; each answer's weight is the sum of its samples'
/// scores and the answer of the largest weight wins (ties uniform). Exact for lattice laws
/// in both modes (the totals are exact convolutions), rounded once in `f64`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::{Tasks, weighted_vote};
/// use pathology::analytic::pathsum::Law;
/// use num_rational::BigRational;
/// let tasks = Tasks::parse("1/2").unwrap();
/// let one_wrong = vec![BigRational::from_integer(1.into())];
/// let correct = Law::parse("--score-correct", "2").unwrap();
/// let wrong = Law::parse("--score-wrong", "1").unwrap();
/// let v = weighted_vote::<BigRational>(&tasks, &one_wrong, &correct, &wrong, &[2, 3]).unwrap();
/// // Two votes: the correct answer loses only when both are wrong.
/// assert_eq!(v.rows[0].correct.value.to_string(), "3/4");
/// // Three: a correct sample's 2 ties two wrong ones' 1 + 1 (3/8, halved), else as above.
/// assert_eq!(v.rows[1].correct.value.to_string(), "11/16");
/// ```
///
/// # Errors
///
/// As [`vote`]; [`Error::InvalidArgument`] naming `--score-correct` or `--score-wrong` for
/// an empty law; [`Error::TooExpensive`] past the analytic limits.
pub fn weighted_vote<P: Probability>(
    tasks: &Tasks,
    wrong: &[BigRational],
    correct: &Law,
    wrong_law: &Law,
    ks: &[u64],
) -> Result<Vote<P>> {
    weighted_estimate(tasks, wrong, correct, wrong_law, ks)?.check()?;
    let cancel = crate::cancel::current();
    let mut totals: Vec<Value> = ks
        .iter()
        .map(|_| Value::of(&BigRational::zero(), true))
        .collect();
    for t in tasks.types() {
        cancel.check()?;
        let values = weighted_vote_type(&t.success, wrong, correct, wrong_law, ks);
        let w = Value::of(&t.share, true);
        for (total, v) in totals.iter_mut().zip(&values) {
            *total = total.add(&w.mul(v));
        }
    }
    cancel.check()?;
    Ok(vote_rows(ks, totals))
}

/// The cost of [`weighted_vote`], before any work (the laws and shares checked).
pub(crate) fn weighted_estimate(
    tasks: &Tasks,
    wrong: &[BigRational],
    correct: &Law,
    wrong_law: &Law,
    ks: &[u64],
) -> Result<Estimate> {
    vote_estimate(tasks, wrong, &[1], true)?;
    super::best_of_n::check_law("--score-correct", correct)?;
    super::best_of_n::check_law("--score-wrong", wrong_law)?;
    Ok(weighted_vote_estimate(tasks, wrong, correct, wrong_law, ks))
}

/// The cost of [`vote`] in the mode of `exact`, before any work.
pub(crate) fn vote_estimate(
    tasks: &Tasks,
    wrong: &[BigRational],
    ks: &[u64],
    exact: bool,
) -> Result<Estimate> {
    let sum: BigRational = wrong.iter().cloned().sum();
    if wrong.is_empty() || wrong.len() > MAX_WRONG_ANSWERS || !sum.is_one() {
        return Err(Error::invalid(
            "--wrong-answers",
            "1 to 64 probabilities in [0, 1] summing to exactly 1",
            format!("{} values summing to {sum}", wrong.len()),
        ));
    }
    for u in wrong {
        super::check_probability("--wrong-answers", u)?;
    }
    let groups = Groups::of(wrong);
    let mut seconds = 0.0;
    let mut peak: f64 = 0.0;
    for t in tasks.types() {
        let (_, d) = scaled(&t.success, wrong);
        if wrong.len() == 1 {
            let per = bits(&d);
            for &k in ks {
                let b = k as f64 * per;
                seconds +=
                    3.0 * k as f64 * product_seconds(b).max(b / 64.0 * 2e-9) + reduce_seconds(b);
                peak = peak.max(4.0 * b / 8.0);
            }
        } else {
            let (s, bytes) = plurality_cost(&groups, &d, ks, exact);
            seconds += s;
            peak = peak.max(bytes);
            if exact {
                let top = ks.iter().copied().max().unwrap_or(1) as f64;
                seconds += ks.len() as f64 * reduce_seconds(top * bits(&d));
            }
        }
    }
    Ok(Estimate::new(
        if wrong.len() == 1 {
            "voting (computed exactly, with or without --exact)"
        } else if exact {
            "voting in exact rationals"
        } else {
            "voting"
        },
        seconds,
        peak,
        "Ask for fewer votes k, or give wrong answers equal shares (answers of one share are \
         counted together).",
    ))
}

/// `(r, u_1, ..., u_m)` over one common denominator D.
fn scaled(success: &BigRational, wrong: &[BigRational]) -> (Vec<BigInt>, BigInt) {
    let fail = BigRational::one() - success;
    let mut values = vec![success.clone()];
    values.extend(wrong.iter().map(|u| &fail * u));
    BigInt::scale(&values)
}

/// The exact probability that k votes of one task type pick the correct answer.
#[allow(clippy::needless_range_loop)] // the programme's indices are vote counts
pub(crate) fn correct_vote(success: &BigRational, wrong: &[BigRational], k: u64) -> Value {
    let (numbers, d) = scaled(success, wrong);
    let r = &numbers[0];
    let u = &numbers[1..];
    let m = u.len();
    let k = usize::try_from(k).expect("refused before");
    let l: BigInt = (1..=m as u64 + 1).fold(BigInt::one(), |acc, i| acc.lcm(&BigInt::from(i)));
    // Binomials C(n, j) for n <= k (only the programme over m >= 2 answers needs the table).
    let pascal: Vec<Vec<BigInt>> = if m >= 2 {
        let mut rows: Vec<Vec<BigInt>> = vec![vec![BigInt::one()]];
        for n in 1..=k {
            let prev = &rows[n - 1];
            let mut row = vec![BigInt::one(); n + 1];
            for j in 1..n {
                row[j] = &prev[j - 1] + &prev[j];
            }
            rows.push(row);
        }
        rows
    } else {
        Vec::new()
    };
    let powers: Vec<Vec<BigInt>> = u
        .iter()
        .map(|ui| {
            let mut p = vec![BigInt::one()];
            for j in 1..=k {
                let next = &p[j - 1] * ui;
                p.push(next);
            }
            p
        })
        .collect();
    let mut total = BigInt::zero();
    let mut binomial = BigInt::one(); // C(k, c)
    let mut r_power = BigInt::one(); // r^c
    let cancel = crate::cancel::current();
    for c in 0..=k {
        if cancel.is_cancelled() {
            break; // the caller returns Error::Interrupted, never this value
        }
        if c > 0 {
            binomial = binomial * BigInt::from(k - c + 1) / BigInt::from(c);
            r_power *= r;
        }
        let rest = k - c;
        if rest > c * m {
            continue; // some wrong answer has more than c votes
        }
        // f[t][tau]: the first i answers used t votes, tau of them exactly c.
        let mut f: Vec<Vec<BigInt>> = vec![vec![BigInt::zero(); m + 1]; rest + 1];
        f[0][0] = BigInt::one();
        for ui in 0..m.saturating_sub(1) {
            let mut next: Vec<Vec<BigInt>> = vec![vec![BigInt::zero(); m + 1]; rest + 1];
            for t in 0..=rest {
                for tau in 0..=ui {
                    if f[t][tau].is_zero() {
                        continue;
                    }
                    for w in 0..=c.min(rest - t) {
                        let term = &f[t][tau] * &pascal[t + w][w] * &powers[ui][w];
                        next[t + w][tau + usize::from(w == c)] += term;
                    }
                }
            }
            f = next;
        }
        // The last wrong answer takes the remaining votes.
        let mut s = BigInt::zero();
        for t in 0..=rest {
            let w = rest - t;
            if w > c {
                continue;
            }
            let binom = if m >= 2 {
                pascal[rest][w].clone()
            } else {
                BigInt::one()
            };
            for tau in 0..m {
                if f[t][tau].is_zero() {
                    continue;
                }
                let ties = tau + usize::from(w == c);
                let weight = &l / BigInt::from(ties + 1);
                s += &f[t][tau] * &binom * &powers[m - 1][w] * weight;
            }
        }
        total += &binomial * &r_power * s;
    }
    let denominator = l * num_traits::pow(d, k);
    Value::Exact(total, denominator)
}
