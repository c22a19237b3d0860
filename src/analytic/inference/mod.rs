//! Test-time search, exactly (`pathology inference`): the strategies by which a language
//! model's answers are sampled, verified, voted on or searched, with the probability that the
//! final answer is correct.
//!
//! **Tasks.** A mix of task types `R:W`: a sample of a type-`R` task is correct with
//! probability R, independently of the other samples; W is the type's share (the shares sum
//! to 1). Every strategy's probability is the W-weighted sum over the types.
//!
//! - [`pass_at_k`]: an oracle verifier: correct when one of k samples is,
//!   `sum_j W_j (1 - (1 - R_j)^k)`.
//! - [`resample`] (Stroebl, Kapoor & Narayanan, arXiv 2411.17501): up to k samples, each
//!   shown to a verifier that accepts a correct sample with probability C (completeness) and
//!   a wrong one with probability 1 - S (soundness S); the first accepted sample is the
//!   answer, none accepted is no answer. Per sample a = R C (accepted, correct),
//!   b = (1 - R)(1 - S) (accepted, wrong: their p_fluke), 1 - a - b = R (1 - C) + (1 - R) S
//!   (rejected; their beta is the wrong-and-rejected part (1 - R) S). Then
//!   `P_correct = a (1 - q^k) / (a + b)`, `P_false_positive = b (1 - q^k) / (a + b)`,
//!   `P_none = q^k` with `q = 1 - a - b`; as k grows they tend to `a / (a + b)`,
//!   `b / (a + b)` and 0 (the accuracy ceiling).
//! - [`best_of_n`]: n samples scored by a verifier (a correct sample's score from one law,
//!   a wrong one's from another), the answer a sample of the largest score, ties broken
//!   uniformly. With the score levels s ascending, a sample's masses `a(s)` (correct, score
//!   s) and `b(s)` (wrong), `t = a + b` and `G(s) = P(score <= s)`:
//!   `P_correct = sum_s a(s)/t(s) (G(s)^n - G(s-)^n)`: `G(s)^n - G(s-)^n` is the probability
//!   that the largest score is s, and given that (and the number of samples tied at s) each
//!   tied sample is correct with probability `a(s)/t(s)` independently of which is taken.
//! - [`vote`] (Chen et al., arXiv 2403.02419): k samples, each the correct answer with
//!   probability R or wrong answer i with probability `(1 - R) U_i`; the answer is a label
//!   with the most votes, ties broken uniformly among the tied labels. One wrong answer: the
//!   binomial sum with weight 1/2 at a tie; more: the sum over the correct answer's count c of
//!   the probabilities that the wrong answers' counts are all at most c, each weighted
//!   `1/(1 + number of wrong answers with c votes)`, by a recurrence over the votes per class
//!   of equal shares (module `plurality`), every k of the list in one pass.
//! - [`knockout`] (Chen, Pan, Li, Ding & Zhou, arXiv 2411.19477): `2^r` candidates in a
//!   single-elimination bracket, each match K judge calls (module `knockout`), the winner
//!   correct with `q_(r+1) = q_r^2 + 2 q_r (1 - q_r) w`; and [`league`], every pair
//!   compared, the most match wins taken (module `league`).
//! - [`lookahead`]: a verifier-guided search over a solution of L steps, each decision a
//!   best-of-B over candidates whose scores are the maxima of fresh rollout subtrees; the
//!   subtree maxima's laws are composed exactly from the frontier's (module `lookahead`).
//! - [`beam`]: beam search of width M with a process reward model over the same steps and
//!   verifier; its state is the number of correct beams, moved by an exact selection law
//!   of the top M of M B scored candidates with ties uniform (module `beam`).
//! - Lookahead and beam search take a difficulty mix of step probabilities (`Q:W,...`,
//!   [`Tasks::parse_steps`]), count what a run generates and scores, and put best-of-N at
//!   equal generated steps, verifier calls and cost beside every row (module `compute`).
//!
//! **Modes.** Exact rationals (integers over one common denominator, reduced once), or
//! `f64` enclosures whose radius is a rigorous bound on the distance to the exact value of
//! the model at the given (rational) parameters. `vote` with one wrong answer is computed
//! exactly in both modes and rounded once in `f64` (its bound is that rounding); with more,
//! `f64` runs the recurrence with a rigorous running error bound.

mod arith;
mod beam;
mod best_of_n;
mod compute;
pub mod continuous;
pub mod frontier;
mod frontier_report;
mod knockout;
mod knockout_report;
mod league;
mod lookahead;
mod plurality;
pub mod report;
mod resample;
mod vote;
mod weighted_vote;

pub use beam::{Beam, BeamRow, MAX_BEAMS, beam, check_beams};
pub use best_of_n::{BestOfN, BestOfNRow, best_of_n};
pub use compute::{EqualCompute, Matched, Prices, Spend};
pub use frontier::FrontierRequest;
pub use frontier_report::FrontierFigure;
pub use knockout::{
    Knockout, KnockoutBest, KnockoutRow, MAX_JUDGE_CALLS, MAX_ROUNDS, judge_win, knockout,
    parse_judge_calls, parse_judge_correct, parse_rounds,
};
pub use knockout_report::{KnockoutSetting, parse_price};
pub use league::{LeagueRow, MAX_LEAGUE, league, league_pick_correct, parse_league};
pub use lookahead::{Lookahead, LookaheadRow, LookaheadSearch, lookahead, lookahead_mixed};
pub use lookahead::{MAX_LOOKAHEAD_BRANCHING, MAX_STEPS};
pub use resample::{
    PassRow, Payoffs, Resample, ResampleRow, TypeRates, pass_at_k, resample, resample_with,
};
pub use vote::{MAX_WRONG_ANSWERS, Vote, VoteRow, parse_wrong_answers, vote, weighted_vote};

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::error::{Error, Result};
use crate::numeric::number::parse_rational;

/// The largest number of values a list (`--k`, `--n`, `--depth`) may hold.
pub const MAX_LIST: usize = 100_000;

/// The largest value of `--k` and `--n`.
pub const MAX_COUNT: u64 = 1_000_000_000_000_000_000;

/// The largest number of task types.
pub const MAX_TYPES: usize = 1000;

/// One task type: per-sample success probability and share.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskType {
    /// R: the probability that one sample is correct.
    pub success: BigRational,
    /// W: the type's share of the tasks.
    pub share: BigRational,
}

/// A mix of task types whose shares sum to 1.
#[derive(Debug, Clone, PartialEq)]
pub struct Tasks {
    types: Vec<TaskType>,
    /// With `--weights`: the text as given and the sum its shares were divided by.
    weights: Option<(String, BigRational)>,
}

impl Tasks {
    /// Parses `R:W,R:W,...` (rationals or decimals, exactly: `0.1` is 1/10) for the option
    /// `--tasks`; a lone `R` is one type of share 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::Tasks;
    /// let tasks = Tasks::parse("0.87:0.58,0.13:0.42").unwrap();
    /// assert_eq!(tasks.types().len(), 2);
    /// assert_eq!(Tasks::parse("0.3").unwrap().types()[0].share.to_string(), "1");
    /// let e = Tasks::parse("0.5:0.5,0.2:0.4").unwrap_err().to_string();
    /// assert!(e.starts_with("--tasks must be shares summing to exactly 1"), "{e}");
    /// assert!(e.contains("--weights"), "{e}");
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--tasks` for an empty list, a malformed item, a
    /// probability or share outside `[0, 1]`, or shares not summing to 1.
    pub fn parse(text: &str) -> Result<Tasks> {
        Tasks::parse_with(text, false)
    }

    /// [`Tasks::parse`], or with `weights` (the option `--weights`) the W read as positive
    /// weights and divided by their sum, exactly: `0.27163` and `0.72836` become
    /// 27163/99999 and 72836/99999. The report records the weights as given and their sum.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::Tasks;
    /// let tasks = Tasks::parse_with("0.87:0.27163,0.13:0.72836", true).unwrap();
    /// assert_eq!(tasks.types()[0].share.to_string(), "27163/99999");
    /// assert_eq!(tasks.weights_sum().unwrap().to_string(), "99999/100000");
    /// let e = Tasks::parse_with("0.87:1,0.13:0", true).unwrap_err().to_string();
    /// assert!(e.starts_with("--tasks must be positive weights W"), "{e}");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Tasks::parse`]; with `weights`, [`Error::InvalidArgument`] naming `--tasks` for a
    /// weight that is not positive.
    pub fn parse_with(text: &str, weights: bool) -> Result<Tasks> {
        let name = "--tasks";
        let allowed = if weights {
            "items R:W (success probability R in [0, 1], weight W > 0, divided by the weights' sum with --weights), like 0.87:0.27163,0.13:0.72836"
        } else {
            "items R:W (success probability R in [0, 1], share W in [0, 1]), like 0.87:0.58,0.13:0.42"
        };
        if text.trim().is_empty() {
            return Err(Error::invalid(name, allowed, "an empty list"));
        }
        let items: Vec<&str> = text.split(',').collect();
        if items.len() > MAX_TYPES {
            return Err(Error::invalid(
                name,
                &format!("at most {MAX_TYPES} task types"),
                items.len(),
            ));
        }
        let number = |t: &str, item: &str| {
            parse_rational(t.trim())
                .map_err(|e| Error::invalid(name, &format!("{allowed}; {e}"), item.trim()))
        };
        let in_unit = |v: &BigRational| !v.is_negative() && *v <= BigRational::one();
        let mut types = Vec::new();
        for item in &items {
            let (r, w) = match item.split_once(':') {
                Some((r, w)) => (number(r, item)?, number(w, item)?),
                None if items.len() == 1 => (number(item, item)?, BigRational::one()),
                None => return Err(Error::invalid(name, allowed, item.trim())),
            };
            if !in_unit(&r) {
                return Err(Error::invalid(
                    name,
                    "success probabilities R in [0, 1]",
                    item.trim(),
                ));
            }
            if weights && !w.is_positive() {
                return Err(Error::invalid(
                    name,
                    "positive weights W (with --weights each W > 0; they are divided by their sum)",
                    item.trim(),
                ));
            }
            if !weights && !in_unit(&w) {
                return Err(Error::invalid(name, "shares W in [0, 1]", item.trim()));
            }
            types.push(TaskType {
                success: r,
                share: w,
            });
        }
        let sum: BigRational = types.iter().map(|t| t.share.clone()).sum();
        if weights {
            for t in &mut types {
                t.share = &t.share / &sum;
            }
            return Ok(Tasks {
                types,
                weights: Some((text.trim().to_string(), sum)),
            });
        }
        if !sum.is_one() {
            return Err(Error::invalid(
                name,
                "shares summing to exactly 1 (or weights, divided by their sum, with --weights)",
                format!("a sum of {sum}"),
            ));
        }
        types.retain(|t| !t.share.is_zero());
        Ok(Tasks {
            types,
            weights: None,
        })
    }

    /// With `--weights`: the sum the given weights were divided by.
    pub fn weights_sum(&self) -> Option<&BigRational> {
        self.weights.as_ref().map(|(_, sum)| sum)
    }

    /// The `--tasks` text as given with `--weights` (else [`Tasks::text`]).
    pub fn given_text(&self) -> String {
        match &self.weights {
            Some((given, _)) => given.clone(),
            None => self.text(),
        }
    }

    /// A mix from its types (shares positive and summing to 1: the caller's invariant).
    pub(crate) fn from_types(types: Vec<TaskType>) -> Tasks {
        Tasks {
            types,
            weights: None,
        }
    }

    /// Parses `--step-correct Q:W,...` (a difficulty mix of step probabilities; a lone `Q`
    /// is one type of share 1) as [`Tasks::parse`] reads `--tasks`, naming the option.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::Tasks;
    /// assert_eq!(Tasks::parse_steps("0.9:0.3,0.6:0.7").unwrap().types().len(), 2);
    /// let e = Tasks::parse_steps("1.5").unwrap_err().to_string();
    /// assert!(e.starts_with("--step-correct"), "{e}");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Tasks::parse`], naming `--step-correct`.
    pub fn parse_steps(text: &str) -> Result<Tasks> {
        Tasks::parse(text).map_err(|e| match e {
            Error::InvalidArgument { allowed, got, .. } => Error::invalid(
                "--step-correct",
                &allowed
                    .replace(
                        "items R:W (success probability R",
                        "items Q:W (step probability Q",
                    )
                    .replace("success probabilities R", "step probabilities Q")
                    .replace("like 0.87:0.58,0.13:0.42", "like 0.9:0.3,0.6:0.7, or one Q"),
                got,
            ),
            other => other,
        })
    }

    /// `Q:W,...` as [`Tasks::parse_steps`] reads it, a lone type of share 1 as `Q`.
    pub fn steps_text(&self) -> String {
        match self.types.as_slice() {
            [only] if only.share.is_one() => crate::numeric::number::short_text(&only.success),
            _ => self.text(),
        }
    }

    /// The types (shares positive).
    pub fn types(&self) -> &[TaskType] {
        &self.types
    }

    /// `R:W,...` as [`Tasks::parse`] reads it.
    pub fn text(&self) -> String {
        self.types
            .iter()
            .map(|t| {
                format!(
                    "{}:{}",
                    crate::numeric::number::short_text(&t.success),
                    crate::numeric::number::short_text(&t.share)
                )
            })
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Parses a list of whole numbers for the option `name`: a range `A..B` (both ends
/// included), a range with a step `A..B:S` (A, A + S, ..., up to B), a doubling range
/// `A..B:xF` (A, A F, A F^2, ..., up to B; F a whole number of at least 2), or a comma list
/// `1,2,4`; every value in `1..=max`, at most [`MAX_LIST`] values.
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::parse_list;
/// assert_eq!(parse_list("--k", "1..4", 100).unwrap(), vec![1, 2, 3, 4]);
/// assert_eq!(parse_list("--k", "1,10,100", 100).unwrap(), vec![1, 10, 100]);
/// assert_eq!(parse_list("--k", "1..9:2", 100).unwrap(), vec![1, 3, 5, 7, 9]);
/// assert_eq!(parse_list("--k", "1..64:x2", 100).unwrap(), vec![1, 2, 4, 8, 16, 32, 64]);
/// assert_eq!(parse_list("--k", "3..100:x3", 100).unwrap(), vec![3, 9, 27, 81]);
/// assert!(parse_list("--k", "0,1", 100).unwrap_err().to_string().starts_with("--k must be"));
/// let e = parse_list("--k", "1..8:0", 100).unwrap_err().to_string();
/// assert!(e.contains("--k") && e.contains("step S of at least 1"), "{e}");
/// let e = parse_list("--k", "1..8:x1", 100).unwrap_err().to_string();
/// assert!(e.contains("factor F of at least 2"), "{e}");
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `name` for a malformed list, a step below 1 or a factor
/// below 2, a value outside `1..=max`, or more than [`MAX_LIST`] values.
pub fn parse_list(name: &str, text: &str, max: u64) -> Result<Vec<u64>> {
    let allowed = format!(
        "a range A..B, a range with a step A..B:S (S >= 1) or a doubling A..B:xF (F >= 2), or a \
         comma-separated list of whole numbers in 1..={max} (at most {MAX_LIST} values)"
    );
    let bad = || Error::invalid(name, &allowed, text);
    let number = |t: &str| t.trim().parse::<u64>().map_err(|_| bad());
    let list: Vec<u64> = if let Some((a, rest)) = text.split_once("..") {
        let (b, step) = match rest.split_once(':') {
            Some((b, step)) => (b, Some(step.trim())),
            None => (rest, None),
        };
        let (a, b) = (number(a)?, number(b.trim_start_matches('='))?);
        match step {
            None => {
                if a > b || b - a >= MAX_LIST as u64 {
                    return Err(bad());
                }
                (a..=b).collect()
            }
            Some(factor) if factor.starts_with(['x', 'X']) => {
                let f = number(&factor[1..])?;
                if f < 2 {
                    return Err(Error::invalid(
                        name,
                        "a doubling range A..B:xF with a whole factor F of at least 2",
                        text,
                    ));
                }
                if a == 0 || a > b {
                    return Err(bad());
                }
                let mut out = vec![a];
                while let Some(next) = out.last().and_then(|v| v.checked_mul(f)) {
                    if next > b {
                        break;
                    }
                    out.push(next);
                }
                out
            }
            Some(step) => {
                let s = number(step)?;
                if s == 0 {
                    return Err(Error::invalid(
                        name,
                        "a range with a step A..B:S with a whole step S of at least 1",
                        text,
                    ));
                }
                if a > b || (b - a) / s >= MAX_LIST as u64 {
                    return Err(bad());
                }
                (a..=b)
                    .step_by(usize::try_from(s).map_err(|_| bad())?)
                    .collect()
            }
        }
    } else {
        text.split(',').map(number).collect::<Result<_>>()?
    };
    if list.is_empty() || list.len() > MAX_LIST || list.iter().any(|&v| v == 0 || v > max) {
        return Err(bad());
    }
    Ok(list)
}

/// A list as the options take it: `A..B` when consecutive (three or more), else `a,b,c`.
pub(crate) fn list_text(list: &[u64]) -> String {
    let consecutive = list.windows(2).all(|w| w[1] == w[0] + 1);
    if consecutive && list.len() > 2 {
        format!("{}..{}", list[0], list[list.len() - 1])
    } else {
        list.iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// A probability option in `[0, 1]`, checked by the library (for callers that do not go
/// through the command line's parser).
pub(crate) fn check_probability(name: &str, value: &BigRational) -> Result<()> {
    if value.is_negative() || *value > BigRational::one() {
        return Err(Error::invalid(name, "in [0, 1]", value));
    }
    Ok(())
}

/// Seconds of one product of two integers of `bits` bits each (a measured constant of
/// num-bigint's multiplication on the project machine, rounded up).
pub(crate) fn product_seconds(bits: f64) -> f64 {
    let words = (bits / 64.0).max(1.0);
    3e-9 * words.powf(1.6)
}

/// Seconds of reducing a fraction whose parts have `bits` bits.
pub(crate) fn reduce_seconds(bits: f64) -> f64 {
    product_seconds(bits) * bits.log2().max(1.0)
}

/// The hint of a refused exact computation.
pub(crate) const EXACT_HINT: &str =
    "Ask for fewer or smaller values, or leave out --exact (f64 with rigorous bounds).";

/// What one computation would cost before any of its work: named, with what to do instead
/// when it is refused. Each strategy owns its estimate (`*_estimate`) and checks it first.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Estimate {
    /// The computation, as a refusal names it.
    pub(crate) what: String,
    /// Its time and peak memory.
    pub(crate) cost: crate::budget::Cost,
    /// What to ask for instead.
    pub(crate) hint: &'static str,
}

impl Estimate {
    /// `what` at `seconds` and `bytes`, refused with `hint`.
    pub(crate) fn new(
        what: impl Into<String>,
        seconds: f64,
        bytes: f64,
        hint: &'static str,
    ) -> Self {
        Estimate {
            what: what.into(),
            cost: crate::budget::Cost { seconds, bytes },
            hint,
        }
    }

    /// Refuses past the analytic limits; else announces the estimate
    /// ([`crate::budget::announce_estimate`]: `PATHOLOGY_ESTIMATE`).
    pub(crate) fn check(&self) -> Result<()> {
        if self.cost.exceeds_limits() {
            return Err(self.cost.refusal(self.what.clone(), self.hint));
        }
        crate::budget::announce_estimate(&self.what, self.cost.seconds);
        Ok(())
    }
}

/// Seconds of one `f64` enclosure operation of the inference calculators (with its
/// exactness test and its `Value` wrapping), measured on the project machine under load
/// (1,000 task types at k = 1..1000: 6.6 s for pass-at-k, 9.2 s for resampling) and rounded
/// up.
pub(crate) const FLOAT_OPERATION_SECONDS: f64 = 1e-7;
/// Seconds of one value of a list and task type (or score level) beyond its operations.
pub(crate) const FLOAT_PAIR_SECONDS: f64 = 6e-6;
/// Seconds of converting one rational parameter into an `f64` enclosure.
pub(crate) const FLOAT_CONVERSION_SECONDS: f64 = 2e-5;
/// Seconds of one value of a list beyond its arithmetic: its values bounded and laid out
/// (measured: 33 us per k of pass-at-k with one task type).
pub(crate) const ROW_SECONDS: f64 = 5e-5;

/// The hint of a refused `f64` computation over a list.
pub(crate) const FLOAT_HINT: &str = "Ask for fewer values of the list or fewer task types.";

/// Seconds of `f64` powers `x^k` for `types` values x and every k of `ks`, with `extra`
/// further operations per value and k (binary powering: about 2 log2 k products), and three
/// conversions per value.
pub(crate) fn float_power_seconds(types: usize, ks: &[u64], extra: f64) -> f64 {
    let operations: f64 = ks
        .iter()
        .map(|&k| 2.0 * (k as f64).log2().max(1.0) + extra)
        .sum();
    types as f64
        * (operations * FLOAT_OPERATION_SECONDS
            + ks.len() as f64 * FLOAT_PAIR_SECONDS
            + 3.0 * FLOAT_CONVERSION_SECONDS)
        + ks.len() as f64 * ROW_SECONDS
}
