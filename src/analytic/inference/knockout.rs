//! A knockout tournament of candidates judged pairwise (Chen, Pan, Li, Ding & Zhou, arXiv
//! 2411.19477, their knockout-style algorithm), exactly.
//!
//! **The model.** `N = 2^r` candidates, each correct with probability R (per task type) and
//! independently of the others, meet in a single-elimination bracket of r rounds. A match is
//! K judge calls; each call picks the correct one of a correct and a wrong candidate with
//! probability P, independently. The correct candidate wins a mixed match when a strict
//! majority of the K calls pick it; at even K a tie of K/2 calls each is broken by a fair
//! coin, so the correct candidate wins with probability
//! `w = P(Bin(K, P) > K/2) + P(Bin(K, P) = K/2) / 2` (and an even K gives the same w as
//! K - 1: the last call only matters when the first K - 1 split (K/2, K/2 - 1), and then it
//! makes a tie as often as it breaks one). Two correct or two wrong candidates: either
//! advances, and the answer is equally right or equally wrong, so how that match is decided
//! does not matter. The bracket's winner is the answer.
//!
//! **The recursion.** The winners of the two halves of a bracket of `2^(r+1)` are
//! independent, each correct with probability `q_r`, so
//! `q_(r+1) = q_r^2 + 2 q_r (1 - q_r) w` with `q_0 = R`, and the failure probability
//! `f_r = 1 - q_r` obeys the same form with `1 - w`: `f_(r+1) = f_r^2 + 2 q_r f_r (1 - w)`.
//! Then `q_(r+1) - q_r = q_r (1 - q_r) (2w - 1)`: a type with `0 < R < 1` gains from every
//! round when `w > 1/2` (P > 1/2), loses at every round when P < 1/2, and stays at R when
//! P = 1/2. Mixed over the types (W-weighted), with one judge accuracy P_j per type, the
//! curve can rise and then fall.
//!
//! **The published bound.** Chen et al. state, for a problem on which a candidate is correct
//! with probability `p_gen > 0` and a comparison of a correct and a wrong candidate picks
//! the correct one with probability `p_comp > 1/2`:
//! `P(final output is incorrect) <= (1 - p_gen)^N + ceil(log2 N) exp(-2 K (p_comp - 1/2)^2)`
//! (their abstract, v1). In this model `p_gen = R`, `p_comp = P`; it holds here for every
//! K (odd or even), since a correct candidate entering a round survives unless its own
//! match is lost to a wrong one, which has probability `1 - w <= P(Bin(K, P) <= K/2) <=
//! exp(-2 K (P - 1/2)^2)` (Hoeffding), and a union bound over the r rounds adds the
//! probability that no candidate is correct. For a mix the bound is the W-weighted sum of
//! the types' bounds, and it applies when every type has `P_j > 1/2`.
//!
//! **Modes.** Exact: integers over the known denominator `d^(2^r) v^(2^r - 1)` (R = a/d,
//! w = u/v), reduced once per row by removing the denominator's primes
//! ([`reduced_over_factored`]). `f64`: the two recursions for q and f in outward-rounded
//! enclosures (no subtraction, so a failure probability of 1e-300 keeps its relative
//! precision).

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::arith::{Value, larger};
use super::{Estimate, Tasks, check_probability, product_seconds, reduce_seconds};
use crate::analytic::distributions::Bounded;
use crate::error::{Error, Result};
use crate::numeric::enclosure::{self as enc, Enclosure};
use crate::numeric::number::{Probability, Scaled, reduced_over_factored, small_primes};

/// The largest number of rounds r (`N = 2^r` candidates).
pub const MAX_ROUNDS: u64 = 40;

/// The largest number of judge calls K per match.
pub const MAX_JUDGE_CALLS: u64 = 10_000;

/// Parses `--rounds`: a range `A..B`, a range with a step `A..B:S`, or a comma list; every
/// r in `1..=MAX_ROUNDS`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::parse_rounds;
/// assert_eq!(parse_rounds("1..7:3").unwrap(), vec![1, 4, 7]);
/// assert_eq!(parse_rounds("2,5").unwrap(), vec![2, 5]);
/// let e = parse_rounds("1..9:0").unwrap_err().to_string();
/// assert!(e.starts_with("--rounds must be") && e.contains("step S at least 1"), "{e}");
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--rounds` for a malformed list, a step of 0 or a value
/// outside `1..=40`.
pub fn parse_rounds(text: &str) -> Result<Vec<u64>> {
    let name = "--rounds";
    let allowed = format!(
        "a range A..B, a range with a step A..B:S (step S at least 1) or a comma list of \
         whole numbers r in 1..={MAX_ROUNDS} (N = 2^r candidates)"
    );
    let bad = || Error::invalid(name, &allowed, text);
    match text.split_once(':') {
        Some((range, step)) => {
            let step: u64 = step.trim().parse().map_err(|_| bad())?;
            if step == 0 {
                return Err(bad());
            }
            let (a, b) = range.split_once("..").ok_or_else(bad)?;
            let (a, b): (u64, u64) = (
                a.trim().parse().map_err(|_| bad())?,
                b.trim().parse().map_err(|_| bad())?,
            );
            if a == 0 || a > b || b > MAX_ROUNDS {
                return Err(bad());
            }
            Ok((a..=b).step_by(step as usize).collect())
        }
        None => super::parse_list(name, text, MAX_ROUNDS).map_err(|_| bad()),
    }
}

/// Parses `--judge-correct`: one probability P in `[0, 1]` for every task type, or one per
/// type (`P1,P2,...`, as many as the types of `--tasks`), read exactly.
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::parse_judge_correct;
/// assert_eq!(parse_judge_correct("0.6", 2).unwrap().len(), 2);
/// assert_eq!(parse_judge_correct("0.6,0.4", 2).unwrap()[1].to_string(), "2/5");
/// assert!(parse_judge_correct("1.5", 1).unwrap_err().to_string().starts_with("--judge-correct must be"));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--judge-correct` for a value outside `[0, 1]`, a
/// malformed number, or a list whose length is neither 1 nor the number of task types.
pub fn parse_judge_correct(text: &str, types: usize) -> Result<Vec<BigRational>> {
    let name = "--judge-correct";
    let allowed = format!(
        "one probability P in [0, 1], or one per task type ({types} values), rationals or \
         decimals"
    );
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    if items.len() != 1 && items.len() != types {
        return Err(Error::invalid(name, &allowed, text));
    }
    let mut out = Vec::new();
    for item in &items {
        let p = crate::numeric::number::parse_rational(item)
            .map_err(|e| Error::invalid(name, &format!("{allowed}; {e}"), item))?;
        if p.is_negative() || p > BigRational::one() {
            return Err(Error::invalid(name, &allowed, item));
        }
        out.push(p);
    }
    if out.len() == 1 {
        out = vec![out[0].clone(); types];
    }
    Ok(out)
}

/// The judge calls K of `--judge-calls`: a list like `--k` (`A..B` or `1,3,5`), every K in
/// `1..=MAX_JUDGE_CALLS`.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--judge-calls` (K = 0 included).
pub fn parse_judge_calls(text: &str) -> Result<Vec<u64>> {
    super::parse_list("--judge-calls", text, MAX_JUDGE_CALLS)
}

/// `w`: the probability that the correct candidate wins a match of K judge calls against a
/// wrong one, each call correct with probability `p`: a strict majority, a tie (even K)
/// broken by a fair coin.
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::judge_win;
/// use pathology::numeric::number::parse_rational;
/// let p = parse_rational("0.6").unwrap();
/// assert_eq!(judge_win(&p, 1), p);
/// // K = 2: both right (0.36) or one each (0.48) halved: 0.6, as K = 1.
/// assert_eq!(judge_win(&p, 2), p);
/// assert_eq!(judge_win(&p, 3).to_string(), "81/125"); // 0.648
/// ```
pub fn judge_win(p: &BigRational, k: u64) -> BigRational {
    let q = BigRational::one() - p;
    let half = BigRational::new(BigInt::one(), BigInt::from(2));
    // Over the common denominator den(p)^K: sum C(K, i) a^i b^(K-i) with p = a/d, q = b/d.
    let d = p.denom().clone();
    let (a, b) = (
        p.numer().clone(),
        (q * BigRational::from_integer(d.clone())).to_integer(),
    );
    let mut sum = BigInt::zero();
    let mut tie = BigInt::zero();
    let mut binomial = BigInt::one();
    // a^i b^(K-i) for i from K down: start at a^K and trade an a for a b.
    let k_usize = k as usize;
    let a_powers: Vec<BigInt> = {
        let mut v = Vec::with_capacity(k_usize + 1);
        let mut x = BigInt::one();
        for _ in 0..=k {
            v.push(x.clone());
            x *= &a;
        }
        v
    };
    let mut b_power = BigInt::one();
    for j in 0..=k {
        // i = K - j calls right, j wrong.
        let i = k - j;
        if 2 * i < k {
            break;
        }
        let term = &binomial * &a_powers[i as usize] * &b_power;
        if 2 * i == k {
            tie = term;
        } else {
            sum += term;
        }
        binomial = binomial * BigInt::from(k - j) / BigInt::from(j + 1);
        b_power *= &b;
    }
    let denominator = d.pow(k as u32);
    BigRational::new(sum, denominator.clone()) + half * BigRational::new(tie, denominator)
}

/// The published failure bound of Chen et al. for one task type, `(1 - R)^N + r exp(-2 K
/// (P - 1/2)^2)` with `N = 2^r` (`ceil(log2 N) = r`), computed in `f64` and rounded down
/// (`lower`, to check an exact failure probability against it) or up; `None` when P <= 1/2
/// (their assumption `p_comp > 1/2` fails).
fn published_bound(
    r: u64,
    k: u64,
    success: &BigRational,
    judge: &BigRational,
) -> Option<Enclosure> {
    let half = BigRational::new(BigInt::one(), BigInt::from(2));
    if *judge <= half {
        return None;
    }
    let miss = Enclosure::of(&(BigRational::one() - success));
    let none_correct = Scaled::power(&miss, 1u64 << r);
    let gap = Enclosure::of(&(judge - &half));
    let exponent = enc::Ring::mul(
        &enc::Ring::mul(&gap, &gap),
        &Enclosure::point(-2.0 * k as f64),
    );
    // libm's exp is within an ulp or two: widen by four ulps each way.
    let widen = |x: f64, down: bool| {
        let mut y = x;
        for _ in 0..4 {
            y = if down { y.next_down() } else { y.next_up() };
        }
        y.max(0.0)
    };
    let e = Enclosure {
        lower: widen(exponent.lower.exp(), true),
        upper: widen(exponent.upper.exp(), false),
    };
    let rounds = enc::Ring::mul(&e, &Enclosure::point(r as f64));
    Some(enc::Ring::add(&none_correct, &rounds))
}

/// One row of the bracket: K judge calls per match, r rounds.
#[derive(Debug, Clone, PartialEq)]
pub struct KnockoutRow<P> {
    /// K.
    pub judge_calls_per_match: u64,
    /// r.
    pub rounds: u64,
    /// `N = 2^r`.
    pub candidates: u64,
    /// `K (N - 1)`.
    pub judge_calls: u64,
    /// The probability that the bracket's winner is correct.
    pub correct: Bounded<P>,
    /// Its complement, the failure probability.
    pub failure: Bounded<P>,
    /// Chen et al.'s bound on the failure probability (an enclosure of it: `lower`, `upper`),
    /// `None` when a type has P <= 1/2.
    pub bound: Option<(f64, f64)>,
    /// Whether the exact failure probability is at most the bound (decided rigorously: the
    /// failure's upper end against the bound's lower end), `None` without a bound or when
    /// the f64 enclosures overlap.
    pub within_bound: Option<bool>,
    /// The accuracy against one sample's: `Some(Greater)` above, `Some(Less)` below,
    /// `Some(Equal)` equal; `None` undecided in f64 (enclosures overlapping).
    pub against_one_sample: Option<std::cmp::Ordering>,
}

/// The summary of one K: the best r of the list and the first r below one sample.
#[derive(Debug, Clone, PartialEq)]
pub struct KnockoutBest {
    /// K.
    pub judge_calls_per_match: u64,
    /// The r of the list with the largest accuracy (exact: the smallest such r; f64: a later
    /// r replaces the best only when its enclosure lies wholly above).
    pub best_rounds: u64,
    /// The smallest r of the list whose accuracy is below one sample's, if any.
    pub first_below: Option<u64>,
}

/// The bracket over every K and r of the lists.
#[derive(Debug, Clone, PartialEq)]
pub struct Knockout<P> {
    /// One row per K (outer) and r (inner, as given).
    pub rows: Vec<KnockoutRow<P>>,
    /// One per K.
    pub best: Vec<KnockoutBest>,
    /// One sample's accuracy, `sum_j W_j R_j`, exactly.
    pub one_sample: BigRational,
    /// Per type and K, w (exact), in the order of the types, then K.
    pub judge_win: Vec<Vec<BigRational>>,
    /// Whether every type's P is above, at or below 1/2 (`Some(ordering)`), or they differ
    /// (`None`): the direction of every round, for every r, not just the list's.
    pub direction: Option<std::cmp::Ordering>,
}

/// A denominator as its prime powers (primes of small inputs).
type Factored = BTreeMap<u64, u64>;

fn factor(x: &BigInt, primes: &[u64]) -> Factored {
    let mut out = Factored::new();
    let mut rest = x.clone();
    for &p in primes {
        let mut e = 0;
        while (&rest % p).is_zero() {
            rest /= p;
            e += 1;
        }
        if e > 0 {
            out.insert(p, e);
        }
    }
    out
}

fn product_of(factored: &Factored) -> BigInt {
    factored.iter().fold(BigInt::one(), |acc, (&p, &e)| {
        acc * BigInt::from(p).pow(u32::try_from(e).expect("an exponent of a stored number"))
    })
}

/// The cost of [`knockout`] before any work: exact, by the size of the largest integers
/// (`2^r (bits(d) + bits(v))` per type and K); `f64`, by the number of operations.
pub(crate) fn knockout_estimate(
    tasks: &Tasks,
    judge_correct: &[BigRational],
    judge_calls: &[u64],
    rounds: &[u64],
    exact: bool,
) -> Result<Estimate> {
    if judge_correct.len() != tasks.types().len() {
        return Err(Error::invalid(
            "--judge-correct",
            &format!("one value per task type ({})", tasks.types().len()),
            judge_correct.len(),
        ));
    }
    for p in judge_correct {
        check_probability("--judge-correct", p)?;
    }
    let most = rounds.iter().copied().max().unwrap_or(1);
    let types = tasks.types().len() as f64;
    // Every K's w, exactly: K terms of K bits(den P) bits each.
    let w_seconds: f64 = judge_correct
        .iter()
        .map(|p| {
            judge_calls
                .iter()
                .map(|&k| {
                    let bits = k as f64 * super::arith::bits(p.denom());
                    k as f64 * 3.0 * product_seconds(bits)
                })
                .sum::<f64>()
        })
        .sum();
    if !exact {
        let operations = types * judge_calls.len() as f64 * (most as f64 * 12.0 + 40.0);
        let seconds = w_seconds
            + operations * super::FLOAT_OPERATION_SECONDS
            + (judge_calls.len() * rounds.len()) as f64 * (super::ROW_SECONDS + types * 4e-6);
        return Ok(Estimate::new(
            "the knockout bracket",
            seconds,
            (judge_calls.len() * rounds.len()) as f64 * 512.0,
            super::FLOAT_HINT,
        ));
    }
    let mut seconds = w_seconds;
    let mut bits: f64 = 0.0;
    for (t, p) in tasks.types().iter().zip(judge_correct) {
        let d_bits = super::arith::bits(t.success.denom());
        for &k in judge_calls {
            let v_bits = k as f64 * super::arith::bits(p.denom()) + 1.0;
            let top =
                2f64.powi(most as i32) * (d_bits + v_bits) + super::arith::bits(t.share.denom());
            // Three products per round (the last round's dominate: twice the largest), one
            // reduction per row.
            seconds += 6.0 * product_seconds(top);
            seconds += rounds
                .iter()
                .map(|&r| reduce_seconds(2f64.powi(r as i32) * (d_bits + v_bits)))
                .sum::<f64>();
            bits = bits.max(top);
        }
    }
    Ok(Estimate::new(
        format!(
            "the knockout bracket in exact rationals (integers of about {bits:.3e} bits at r = \
             {most})"
        ),
        seconds,
        // A handful of integers of the largest size alive at once.
        bits / 8.0 * 8.0,
        super::EXACT_HINT,
    ))
}

/// Knockout tournaments of `2^r` candidates with K judge calls per match (module docs), for
/// every K of `judge_calls` and r of `rounds`, with Chen et al.'s bound beside the exact
/// failure probability.
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::{Tasks, knockout, parse_judge_correct};
/// use num_rational::BigRational;
/// let tasks = Tasks::parse("1/2").unwrap();
/// let judge = parse_judge_correct("1", 1).unwrap();
/// let k = knockout::<BigRational>(&tasks, &judge, &[1], &[1, 2]).unwrap();
/// // A perfect judge: the winner is correct when any candidate is, 1 - (1/2)^N.
/// assert_eq!(k.rows[0].correct.value.to_string(), "3/4");
/// assert_eq!(k.rows[1].correct.value.to_string(), "15/16");
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--judge-correct` (a value outside `[0, 1]`, or not one
/// per task type); [`Error::TooExpensive`] for exact integers too large to compute.
pub fn knockout<P: Probability>(
    tasks: &Tasks,
    judge_correct: &[BigRational],
    judge_calls: &[u64],
    rounds: &[u64],
) -> Result<Knockout<P>> {
    knockout_estimate(tasks, judge_correct, judge_calls, rounds, P::EXACT)?.check()?;
    let exact = P::EXACT;
    let cancel = crate::cancel::current();
    let judge_win: Vec<Vec<BigRational>> = judge_correct
        .iter()
        .map(|p| judge_calls.iter().map(|&k| judge_win(p, k)).collect())
        .collect();
    let one_sample: BigRational = tasks.types().iter().map(|t| &t.share * &t.success).sum();
    let half = BigRational::new(BigInt::one(), BigInt::from(2));
    let sides: Vec<std::cmp::Ordering> = judge_correct.iter().map(|p| p.cmp(&half)).collect();
    let direction = sides.iter().all(|s| *s == sides[0]).then(|| sides[0]);
    // The types whose accuracy never moves (R = 0 or 1, or P = 1/2) and the sign of the others.
    let moving_sign: Vec<std::cmp::Ordering> = tasks
        .types()
        .iter()
        .zip(&sides)
        .filter(|(t, _)| !t.success.is_zero() && !t.success.is_one())
        .map(|(_, s)| *s)
        .collect();
    let max_round = rounds.iter().copied().max().unwrap_or(1);
    let mut rows = Vec::new();
    let mut best = Vec::new();
    let one_value = Value::of(&one_sample, exact);
    for (ki, &k) in judge_calls.iter().enumerate() {
        if cancel.is_cancelled() {
            break;
        }
        // Per type: (q_r, f_r) for r = 0..=max_round.
        let per_type: Vec<Vec<Level>> = tasks
            .types()
            .iter()
            .zip(&judge_win)
            .map(|(t, ws)| {
                if exact {
                    exact_bracket(&t.success, &ws[ki], max_round)
                } else {
                    float_bracket(&t.success, &ws[ki], max_round)
                }
            })
            .collect();
        let mut best_here: Option<(u64, Value)> = None;
        let mut first_below: Option<u64> = None;
        for &r in rounds {
            if per_type.iter().any(|v| v.len() <= r as usize) {
                break; // cancelled: the caller returns Error::Interrupted
            }
            let (correct, failure) = mix(tasks, &per_type, r as usize);
            let against = if moving_sign.is_empty() {
                Some(std::cmp::Ordering::Equal)
            } else if moving_sign.iter().all(|s| *s == moving_sign[0]) {
                Some(moving_sign[0])
            } else if larger(&correct, &one_value) {
                Some(std::cmp::Ordering::Greater)
            } else if larger(&one_value, &correct) {
                Some(std::cmp::Ordering::Less)
            } else if exact {
                Some(std::cmp::Ordering::Equal)
            } else {
                None
            };
            if against == Some(std::cmp::Ordering::Less) && first_below.is_none_or(|f| r < f) {
                first_below = Some(r);
            }
            if best_here.as_ref().is_none_or(|(_, b)| larger(&correct, b)) {
                best_here = Some((r, correct.clone()));
            }
            let bound = bound_of(tasks, judge_correct, r, k);
            let failure_bounded: Bounded<P> = failure.bounded(0.0, 1.0);
            let within_bound = bound.and_then(|(lower, upper)| {
                let high = failure_bounded.value.to_f64() + failure_bounded.bound;
                let low = failure_bounded.value.to_f64() - failure_bounded.bound;
                let exact_failure = failure.exact();
                match exact_failure {
                    Some(f) => {
                        if f <= BigRational::from_float(lower).expect("finite") {
                            Some(true)
                        } else if f > BigRational::from_float(upper).expect("finite") {
                            Some(false)
                        } else {
                            None
                        }
                    }
                    None if high <= lower => Some(true),
                    None if low > upper => Some(false),
                    None => None,
                }
            });
            rows.push(KnockoutRow {
                judge_calls_per_match: k,
                rounds: r,
                candidates: 1u64 << r,
                judge_calls: k * ((1u64 << r) - 1),
                correct: correct.bounded(0.0, 1.0),
                failure: failure_bounded,
                bound,
                within_bound,
                against_one_sample: against,
            });
        }
        best.push(KnockoutBest {
            judge_calls_per_match: k,
            best_rounds: best_here.expect("a nonempty list").0,
            first_below,
        });
    }
    cancel.check()?;
    Ok(Knockout {
        rows,
        best,
        one_sample,
        judge_win,
        direction,
    })
}

/// The mix's bound: the W-weighted sum of the types' bounds (`None` when one type's P <=
/// 1/2).
fn bound_of(tasks: &Tasks, judge: &[BigRational], r: u64, k: u64) -> Option<(f64, f64)> {
    let mut sum = Enclosure::point(0.0);
    for (t, p) in tasks.types().iter().zip(judge) {
        let b = published_bound(r, k, &t.success, p)?;
        sum = enc::Ring::add(&sum, &enc::Ring::mul(&Enclosure::of(&t.share), &b));
    }
    Some((sum.lower, sum.upper))
}

/// One type's exact values at round r: the numerator over the denominator
/// `prod p^e` (its prime powers).
#[derive(Debug, Clone)]
struct Scaled0 {
    numerator: BigInt,
    denominator: Factored,
    /// The denominator itself when a prime of the inputs is above 2^40 (`denominator` is
    /// then empty and the sum is reduced by a gcd).
    plain: Option<BigInt>,
}

impl Scaled0 {
    fn rational(&self) -> BigRational {
        let d = self
            .plain
            .clone()
            .unwrap_or_else(|| product_of(&self.denominator));
        BigRational::new(self.numerator.clone(), d)
    }
}

/// `1 - x` for `x` in lowest terms, without a gcd (`d - n` and `d` are coprime when `n` and
/// `d` are).
fn complement(x: &BigRational) -> BigRational {
    BigRational::new_raw(x.denom() - x.numer(), x.denom().clone())
}

/// The W-weighted accuracy and failure of round r: exact, one sum over the common
/// denominator of the types' (their prime powers known), reduced once; `f64`, enclosures.
fn mix(tasks: &Tasks, per_type: &[Vec<Level>], r: usize) -> (Value, Value) {
    match &per_type[0][r] {
        Level::Exact(_) => {
            let parts: Vec<(&BigRational, &Scaled0)> = tasks
                .types()
                .iter()
                .zip(per_type)
                .map(|(t, v)| match &v[r] {
                    Level::Exact(x) => (&t.share, x),
                    _ => unreachable!("one mode"),
                })
                .collect();
            let correct = weighted_sum(&parts);
            let failure = complement(&correct);
            (Value::Reduced(correct), Value::Reduced(failure))
        }
        Level::Float(..) => {
            let mut correct = Enclosure::point(0.0);
            let mut failure = Enclosure::point(0.0);
            for (t, v) in tasks.types().iter().zip(per_type) {
                let w = Enclosure::of(&t.share);
                let Level::Float(q, f) = &v[r] else {
                    unreachable!("one mode")
                };
                correct = enc::Ring::add(&correct, &enc::Ring::mul(&w, q));
                failure = enc::Ring::add(&failure, &enc::Ring::mul(&w, f));
            }
            (Value::Float(correct), Value::Float(failure))
        }
    }
}

/// `sum_j W_j x_j` exactly over the least common multiple of the factored denominators,
/// reduced once by removing its primes.
fn weighted_sum(parts: &[(&BigRational, &Scaled0)]) -> BigRational {
    let shares: Vec<BigInt> = parts.iter().map(|(w, _)| w.denom().clone()).collect();
    let primes = small_primes(&shares).filter(|_| parts.iter().all(|(_, x)| x.plain.is_none()));
    let Some(primes) = primes else {
        return parts.iter().map(|(w, x)| *w * x.rational()).sum();
    };
    let factored: Vec<Factored> = parts
        .iter()
        .map(|(w, x)| {
            let mut f = x.denominator.clone();
            for (p, e) in factor(w.denom(), &primes) {
                *f.entry(p).or_insert(0) += e;
            }
            f
        })
        .collect();
    let mut common = Factored::new();
    for f in &factored {
        for (&p, &e) in f {
            let slot = common.entry(p).or_insert(0);
            *slot = (*slot).max(e);
        }
    }
    let mut numerator = BigInt::zero();
    for ((w, x), f) in parts.iter().zip(&factored) {
        let rest: Factored = common
            .iter()
            .map(|(&p, &e)| (p, e - f.get(&p).copied().unwrap_or(0)))
            .filter(|(_, e)| *e > 0)
            .collect();
        let scaled = w.numer() * &x.numerator;
        numerator += if rest.is_empty() {
            scaled
        } else {
            Scaled::mul(&scaled, &product_of(&rest))
        };
    }
    let list: Vec<(u64, u64)> = common.into_iter().collect();
    reduced_over_factored(&numerator, &list)
}

/// One type's value at one round.
#[derive(Debug, Clone)]
enum Level {
    /// Exact, unreduced.
    Exact(Scaled0),
    /// Enclosures of q and f.
    Float(Enclosure, Enclosure),
}

/// One type's values for r = 0..=most, exactly: `q_r = N_r / (d^(2^r) v^(2^r - 1))` with
/// `N_(r+1) = N_r^2 v + 2 N_r (D_r - N_r) u` (R = n/d, w = u/v; the denominator's prime
/// powers from the primes of d and v). `None` when d or v has a prime above 2^40 (then the
/// caller reduces by a gcd).
fn exact_bracket(success: &BigRational, w: &BigRational, most: u64) -> Vec<Level> {
    let (u, v) = (w.numer().clone(), w.denom().clone());
    let (mut n, mut d) = (success.numer().clone(), success.denom().clone());
    let primes = small_primes(&[d.clone(), v.clone()]);
    let cancel = crate::cancel::current();
    let mut out = Vec::with_capacity(most as usize + 1);
    for r in 0..=most {
        if r > 0 {
            if cancel.is_cancelled() {
                break; // the caller returns Error::Interrupted
            }
            let miss = &d - &n;
            let square = Scaled::mul(&n, &n);
            let cross = Scaled::mul(&n, &miss);
            n = Scaled::mul(&square, &v) + Scaled::mul(&cross, &u) * 2;
            d = Scaled::mul(&Scaled::mul(&d, &d), &v);
        }
        let denominator = match &primes {
            Some(p) => {
                let two_r = 1u64 << r;
                let mut list = Factored::new();
                for (q, e) in factor(success.denom(), p) {
                    *list.entry(q).or_insert(0) += e * two_r;
                }
                for (q, e) in factor(&v, p) {
                    *list.entry(q).or_insert(0) += e * (two_r - 1);
                }
                list
            }
            // A prime above 2^40: reduce by a gcd now, and carry the reduced denominator
            // as one "prime" (exponent 1) so that the mix's sum stays exact.
            None => {
                out.push(Level::Exact(Scaled0 {
                    numerator: n.clone(),
                    denominator: Factored::new(),
                    plain: Some(d.clone()),
                }));
                continue;
            }
        };
        out.push(Level::Exact(Scaled0 {
            numerator: n.clone(),
            denominator,
            plain: None,
        }));
    }
    out
}

/// One type's `(q_r, f_r)` for r = 0..=most in enclosures, each by its own recursion
/// (`q' = q^2 + 2 q f w`, `f' = f^2 + 2 q f (1 - w)`: sums of nonnegative terms).
fn float_bracket(success: &BigRational, w: &BigRational, most: u64) -> Vec<Level> {
    let win = Enclosure::of(w);
    let lose = Enclosure::of(&(BigRational::one() - w));
    let mut q = Enclosure::of(success);
    let mut f = Enclosure::of(&(BigRational::one() - success));
    let two = Enclosure::point(2.0);
    let mut out = Vec::with_capacity(most as usize + 1);
    out.push(Level::Float(q, f));
    for _ in 0..most {
        let cross = enc::Ring::mul(&two, &enc::Ring::mul(&q, &f));
        let q_next = enc::Ring::add(&enc::Ring::mul(&q, &q), &enc::Ring::mul(&cross, &win));
        let f_next = enc::Ring::add(&enc::Ring::mul(&f, &f), &enc::Ring::mul(&cross, &lose));
        // Each is also 1 minus the other: keep the tighter ends.
        let clamp = |x: Enclosure, other: Enclosure| Enclosure {
            lower: x
                .lower
                .max(crate::numeric::enclosure::down(1.0 - other.upper, false))
                .max(0.0),
            upper: x
                .upper
                .min(crate::numeric::enclosure::up(1.0 - other.lower, false))
                .min(1.0),
        };
        q = clamp(q_next, f_next);
        f = clamp(f_next, q_next);
        out.push(Level::Float(q, f));
    }
    out
}

#[cfg(test)]
mod tests;
