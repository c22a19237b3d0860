//! The exact expectations over all k-subsets of one problem's n samples, and their mean over
//! problems.
//!
//! For a budget k every metric of one problem is a sum of whole counts of k-subsets, each
//! divided by a small whole number, over `C(n, k)`:
//!
//! - `pass_at_k = (C(n, k) - C(n - c, k)) / C(n, k)` (Chen et al. 2021);
//! - `pass_all = C(c, k) / C(n, k)`;
//! - `majority = sum_t M_t / t / C(n, k)`, where `M_t` counts the pairs (k-subset, correct
//!   answer among the `t` answers tied for the most votes in it); with `--ties wrong` only
//!   `t = 1` counts. `M_t` comes from a generating-function DP over the answer groups: for
//!   each correct group g and each vote count v of g, the other groups are multiplied in as
//!   polynomials `sum_{j < v} C(m_i, j) x^j + y C(m_i, v) x^v` (a group with fewer than v
//!   samples and the abstentions as `(1 + x)^m`), and `[x^(k - v) y^(t - 1)]` times
//!   `C(m_g, v)` is added to `M_t`;
//! - `best_of_k = sum_s (c_s / a_s) [C(a_s + L_s, k) - C(L_s, k)] / C(n, k)` over the score
//!   levels s (`a_s` samples at s, `c_s` of them correct, `L_s` samples below s).
//!
//! The counts are whole numbers: pass@k's and pass^k's count k-subsets of the n samples (at
//! most the central binomial `C(n, floor(n/2))`); majority's and best-of-k's count pairs of
//! a subset and one of its tied correct answers or samples (at most n times that). They are
//! computed in `u128` when that bound is below `2^128` for the largest n of the file
//! ([`counts_fit_u128`]: n <= 131, or n <= 124 with majority or best-of-k) and in `BigUint`
//! otherwise, and are exact in both modes. The exact mode puts every problem of one n over
//! the common denominator `D C(n, k)` (D the least common multiple of the small divisors of
//! the metric, computed once) and reduces the sum once; the `f64` mode converts each count
//! and divides, and states a rigorous bound on the rounding ([`Value::Bounded`]).

use std::collections::BTreeMap;
use std::ops::{Add, Mul, Sub};

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::input::{Problem, Samples};
use super::moments::{Accumulator, Moments};
use crate::error::{Error, Result};

/// How a tie for the most votes is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Ties {
    /// One of the tied answers is picked uniformly.
    #[default]
    Uniform,
    /// Every tie is wrong.
    Wrong,
}

/// The curves over k.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Metric {
    /// Some drawn sample is correct.
    PassAtK,
    /// Every drawn sample is correct.
    PassAll,
    /// The plurality of the drawn answers is correct.
    Majority,
    /// The drawn sample of the largest score is correct.
    BestOfK,
}

impl Metric {
    /// The metric's name in outputs.
    pub fn name(self) -> &'static str {
        match self {
            Metric::PassAtK => "pass_at_k",
            Metric::PassAll => "pass_all",
            Metric::Majority => "majority",
            Metric::BestOfK => "best_of_k",
        }
    }

    /// The metrics a file defines: pass_at_k and pass_all always, majority with answers,
    /// best_of_k with scores.
    pub fn of(samples: &Samples) -> Vec<Metric> {
        let mut metrics = vec![Metric::PassAtK, Metric::PassAll];
        if samples.has_answers {
            metrics.push(Metric::Majority);
        }
        if samples.has_scores {
            metrics.push(Metric::BestOfK);
        }
        metrics
    }
}

/// A mean over problems: exact, or an `f64` within `bound` of the exact value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// The exact rational.
    Exact(BigRational),
    /// An `f64` and a rigorous bound on its distance to the exact value.
    Bounded {
        /// The value.
        value: f64,
        /// The bound.
        bound: f64,
    },
}

impl Value {
    /// The nearest `f64` (the value itself in `f64` mode).
    pub fn to_f64(&self) -> f64 {
        match self {
            Value::Exact(r) => r.to_f64().unwrap_or(f64::NAN),
            Value::Bounded { value, .. } => *value,
        }
    }

    /// `self - other`, exact or with the bounds added (plus the rounding of the difference).
    pub fn minus(&self, other: &Value) -> Value {
        match (self, other) {
            (Value::Exact(a), Value::Exact(b)) => Value::Exact(a - b),
            _ => {
                let (a, b) = (self.to_f64(), other.to_f64());
                let d = a - b;
                Value::Bounded {
                    value: d,
                    bound: (self.bound() + other.bound() + f64::EPSILON * d.abs()) * (1.0 + 1e-12),
                }
            }
        }
    }

    /// The error bound (0 for an exact value).
    pub fn bound(&self) -> f64 {
        match self {
            Value::Exact(_) => 0.0,
            Value::Bounded { bound, .. } => *bound,
        }
    }

    /// The sign when it is certain: `Some(-1 | 0 | 1)` for an exact value, and for an `f64`
    /// whose bound keeps it away from 0; `None` otherwise.
    pub fn certain_sign(&self) -> Option<i8> {
        match self {
            Value::Exact(r) => Some(if r.is_zero() {
                0
            } else if *r > BigRational::zero() {
                1
            } else {
                -1
            }),
            Value::Bounded { value, bound } => {
                if *value > *bound {
                    Some(1)
                } else if *value < -*bound {
                    Some(-1)
                } else {
                    None
                }
            }
        }
    }
}

/// The curves of one file: per metric and k, the exact sums over problems that the
/// statistics are computed from ([`Moments`]), every problem's value when asked for (`f64`,
/// for the paired bootstrap of `samples compare`) and the mean over problems (exact or
/// bounded).
#[derive(Debug, Clone)]
pub struct Curves {
    /// The budgets k.
    pub ks: Vec<u64>,
    /// The metrics, in this order in `per_problem` and `means`.
    pub metrics: Vec<Metric>,
    /// `per_problem[m][i][p]`: metric m at `ks[i]` for problem p (nearest `f64`); empty
    /// lists when computed by [`compute_moments`].
    pub per_problem: Vec<Vec<Vec<f64>>>,
    /// `means[m][i]`: the mean over problems ([`Moments::exact_mean`], [`Moments::f64_mean`]).
    pub means: Vec<Vec<Value>>,
    /// The exact sums over problems.
    pub moments: Moments,
}

impl Curves {
    /// The curves whose sums are `moments` (of every problem: a merge of shards), without
    /// per-problem values; with no problem (an empty shard) there is no mean.
    pub fn from_moments(ks: Vec<u64>, metrics: Vec<Metric>, moments: Moments) -> Curves {
        let means = (0..metrics.len())
            .map(|m| {
                if moments.problems == 0 {
                    return Vec::new();
                }
                (0..ks.len())
                    .map(|i| match moments.exact_mean(m, i) {
                        Some(exact) => Value::Exact(exact),
                        None => {
                            let (value, bound) = moments.f64_mean(m, i);
                            Value::Bounded { value, bound }
                        }
                    })
                    .collect()
            })
            .collect();
        Curves {
            per_problem: vec![vec![Vec::new(); ks.len()]; metrics.len()],
            ks,
            metrics,
            means,
            moments,
        }
    }
}

/// The count type of the DPs: `u128` (when [`counts_fit_u128`]) or `BigUint`.
trait Count:
    Clone + Zero + One + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Into<BigInt>
{
    fn from_u64(v: u64) -> Self;
    fn to_float(&self) -> f64;
}

impl Count for u128 {
    fn from_u64(v: u64) -> Self {
        u128::from(v)
    }
    fn to_float(&self) -> f64 {
        *self as f64
    }
}

impl Count for BigUint {
    fn from_u64(v: u64) -> Self {
        BigUint::from(v)
    }
    fn to_float(&self) -> f64 {
        self.to_f64().unwrap_or(f64::INFINITY)
    }
}

/// Whether every count of `metrics` on problems of at most `n_max` samples fits `u128`: a
/// count of k-subsets is at most the central binomial `C(n_max, floor(n_max / 2))`, and
/// majority's and best-of-k's counts (a subset weighted by its tied correct answers, or a
/// score level's correct samples times its subsets) at most `n_max` times that. True up to
/// n = 131 for pass@k and pass^k, and up to n = 124 with majority or best-of-k.
///
/// # Examples
///
/// ```
/// use pathology::samples::curves::{Metric, counts_fit_u128};
/// assert!(counts_fit_u128(128, &[Metric::PassAtK, Metric::PassAll]));
/// assert!(!counts_fit_u128(132, &[Metric::PassAtK]));
/// assert!(counts_fit_u128(124, &[Metric::BestOfK]));
/// assert!(!counts_fit_u128(125, &[Metric::Majority]));
/// ```
pub fn counts_fit_u128(n_max: u64, metrics: &[Metric]) -> bool {
    let half = n_max / 2;
    let central = (0..half).fold(BigUint::one(), |c, i| c * (n_max - i) / (i + 1));
    let weighted = metrics
        .iter()
        .any(|m| matches!(m, Metric::Majority | Metric::BestOfK));
    let bound = if weighted {
        central * n_max.max(1)
    } else {
        central
    };
    bound.bits() <= 128
}

/// `C(i, j)` for `i <= n`, `j <= k` (Pascal's triangle, exact).
struct Binomials<T> {
    rows: Vec<Vec<T>>,
}

impl<T: Count> Binomials<T> {
    fn new(n: u64, k: u64) -> Self {
        let mut rows: Vec<Vec<T>> = Vec::with_capacity(n as usize + 1);
        for i in 0..=n as usize {
            let width = i.min(k as usize) + 1;
            let mut row = Vec::with_capacity(width);
            for j in 0..width {
                row.push(if j == 0 || j == i {
                    T::one()
                } else {
                    let above = &rows[i - 1];
                    let right = if j < above.len() {
                        above[j].clone()
                    } else {
                        T::zero()
                    };
                    above[j - 1].clone() + right
                });
            }
            rows.push(row);
        }
        Binomials { rows }
    }

    fn get(&self, i: u64, j: u64) -> T {
        let row = &self.rows[i as usize];
        if j as usize >= row.len() {
            T::zero()
        } else {
            row[j as usize].clone()
        }
    }
}

/// One problem's metric at one k: `sum (count / divisor) / C(n, k)`.
#[derive(Debug, Clone)]
struct Terms<T> {
    parts: Vec<(T, u64)>,
    total: T,
}

impl<T: Count> Terms<T> {
    fn to_f64(&self) -> f64 {
        let mut sum = 0.0;
        for (count, divisor) in &self.parts {
            sum += count.to_float() / *divisor as f64;
        }
        sum / self.total.to_float()
    }
}

/// The majority counts `M_t` (index t - 1) of one problem for every k of `ks`.
fn majority_counts<T: Count>(
    problem: &Problem,
    ks: &[u64],
    binomials: &Binomials<T>,
    ties: Ties,
) -> Vec<Vec<T>> {
    let k_max = *ks.iter().max().unwrap_or(&0);
    let groups = &problem.answers;
    let abstentions = problem.abstentions();
    let mut out: Vec<Vec<T>> = vec![vec![T::zero(); groups.len().max(1)]; ks.len()];
    for (g, winner) in groups.iter().enumerate() {
        if !winner.correct {
            continue;
        }
        for v in 1..=winner.count.min(k_max) {
            let mut rest = abstentions;
            let mut active = Vec::new();
            for (i, other) in groups.iter().enumerate() {
                if i == g {
                    continue;
                }
                if other.count >= v {
                    active.push(other.count);
                } else {
                    rest += other.count;
                }
            }
            let degree = (k_max - v) as usize;
            // At most degree / v other groups can tie at v votes within k_max samples.
            let most_ties = match ties {
                Ties::Wrong => 0,
                Ties::Uniform => active.len().min(degree / v as usize),
            };
            let width = most_ties + 1;
            let mut poly = vec![T::zero(); (degree + 1) * width];
            poly[0] = T::one();
            let mut reach = 0usize; // the largest degree with a non-zero coefficient
            for &m in &active {
                let mut next = vec![T::zero(); (degree + 1) * width];
                let vv = v as usize;
                for d in 0..=reach {
                    for t in 0..width {
                        let a = &poly[d * width + t];
                        if a.is_zero() {
                            continue;
                        }
                        for j in 0..vv.min(degree - d + 1) {
                            let term = a.clone() * binomials.get(m, j as u64);
                            let cell = &mut next[(d + j) * width + t];
                            *cell = cell.clone() + term;
                        }
                        if d + vv <= degree && t + 1 < width {
                            let term = a.clone() * binomials.get(m, v);
                            let cell = &mut next[(d + vv) * width + t + 1];
                            *cell = cell.clone() + term;
                        }
                    }
                }
                reach = (reach + vv).min(degree);
                poly = next;
            }
            let choose_winner = binomials.get(winner.count, v);
            for (i, &k) in ks.iter().enumerate() {
                if k < v {
                    continue;
                }
                let left = (k - v) as usize;
                for t in 0..width {
                    let mut sum = T::zero();
                    for d in 0..=left.min(reach) {
                        let a = &poly[d * width + t];
                        let r = (left - d) as u64;
                        if a.is_zero() || r > rest {
                            continue;
                        }
                        sum = sum + a.clone() * binomials.get(rest, r);
                    }
                    if !sum.is_zero() {
                        out[i][t] = out[i][t].clone() + choose_winner.clone() * sum;
                    }
                }
            }
        }
    }
    out
}

/// One problem's terms for every metric and k.
fn problem_terms<T: Count>(
    problem: &Problem,
    metrics: &[Metric],
    ks: &[u64],
    binomials: &Binomials<T>,
    ties: Ties,
) -> Vec<Vec<Terms<T>>> {
    let (n, c) = (problem.n, problem.c);
    let totals: Vec<T> = ks.iter().map(|&k| binomials.get(n, k)).collect();
    metrics
        .iter()
        .map(|metric| match metric {
            Metric::PassAtK => ks
                .iter()
                .zip(&totals)
                .map(|(&k, total)| Terms {
                    parts: vec![(total.clone() - binomials.get(n - c, k), 1)],
                    total: total.clone(),
                })
                .collect(),
            Metric::PassAll => ks
                .iter()
                .zip(&totals)
                .map(|(&k, total)| Terms {
                    parts: vec![(binomials.get(c, k), 1)],
                    total: total.clone(),
                })
                .collect(),
            Metric::Majority => majority_counts(problem, ks, binomials, ties)
                .into_iter()
                .zip(&totals)
                .map(|(counts, total)| Terms {
                    parts: counts
                        .into_iter()
                        .enumerate()
                        .filter(|(_, m)| !m.is_zero())
                        .map(|(t, m)| (m, t as u64 + 1))
                        .collect(),
                    total: total.clone(),
                })
                .collect(),
            Metric::BestOfK => ks
                .iter()
                .zip(&totals)
                .map(|(&k, total)| {
                    let mut below = 0;
                    let mut parts = Vec::new();
                    for level in &problem.scores {
                        if level.correct > 0 {
                            let drawn =
                                binomials.get(level.count + below, k) - binomials.get(below, k);
                            if !drawn.is_zero() {
                                parts.push((T::from_u64(level.correct) * drawn, level.count));
                            }
                        }
                        below += level.count;
                    }
                    Terms {
                        parts,
                        total: total.clone(),
                    }
                })
                .collect(),
        })
        .collect()
}

/// The unit roundoff of `f64`.
const UNIT: f64 = f64::EPSILON / 2.0;

/// `gamma_m = m u / (1 - m u)`, the classic bound on `m` roundings.
fn gamma(m: f64) -> f64 {
    m * UNIT / (1.0 - m * UNIT)
}

/// The operation count (in units of one `u128` multiply-add) of the curves of `samples`,
/// for the budget: the majority DP dominates.
pub fn operations(samples: &Samples, metrics: &[Metric], ks: &[u64]) -> f64 {
    let k_max = *ks.iter().max().unwrap_or(&1) as f64;
    let mut total = 0.0;
    for problem in &samples.problems {
        total += 4.0 * ks.len() as f64 + (ks.len() * problem.scores.len()) as f64;
        if metrics.contains(&Metric::Majority) {
            for winner in problem.answers.iter().filter(|g| g.correct) {
                for v in 1..=winner.count.min(k_max as u64) {
                    let active = problem
                        .answers
                        .iter()
                        .filter(|g| g.count >= v)
                        .count()
                        .saturating_sub(1) as f64;
                    let degree = k_max - v as f64 + 1.0;
                    let width = 1.0 + active.min(degree / v as f64);
                    total += active * degree * (v as f64 + 1.0) * width
                        + ks.len() as f64 * degree * width;
                }
            }
        }
    }
    total
}

/// Every metric of `metrics` at every k of `ks`, for every problem of `samples` and on
/// average; `exact` computes the means in rationals. `tick` is called once per problem done.
///
/// # Errors
///
/// [`Error::Interrupted`] when the computation is cancelled ([`crate::cancel`]).
///
/// # Examples
///
/// ```
/// use pathology::samples::curves::{Metric, Ties, compute};
/// use pathology::samples::input::{Columns, InputFormat, read_text};
/// let s = read_text("t.csv", "problem,c,n\na,1,4\n", InputFormat::Csv, &Columns::default()).unwrap();
/// let curves = compute(&s, &[Metric::PassAtK], &[1, 2], Ties::Uniform, true, &|| ()).unwrap();
/// assert_eq!(curves.means[0][1].to_f64(), 0.5); // 1 - C(3,2)/C(4,2)
/// ```
pub fn compute(
    samples: &Samples,
    metrics: &[Metric],
    ks: &[u64],
    ties: Ties,
    exact: bool,
    tick: &dyn Fn(),
) -> Result<Curves> {
    dispatch(samples, metrics, ks, ties, exact, true, tick)
}

/// [`compute`] without keeping every problem's values: memory in proportion to the metrics
/// and budgets, not to the problems (`samples curves` needs only the sums).
///
/// # Errors
///
/// As [`compute`].
///
/// # Examples
///
/// ```
/// use pathology::samples::curves::{Metric, Ties, compute, compute_moments};
/// use pathology::samples::input::{Columns, InputFormat, read_text};
/// let s = read_text("t.csv", "problem,c,n\na,1,4\nb,3,4\n", InputFormat::Csv, &Columns::default()).unwrap();
/// let lean = compute_moments(&s, &[Metric::PassAtK], &[1, 2], Ties::Uniform, false, &|| ()).unwrap();
/// let full = compute(&s, &[Metric::PassAtK], &[1, 2], Ties::Uniform, false, &|| ()).unwrap();
/// assert_eq!(lean.means, full.means);
/// assert!(lean.per_problem[0][0].is_empty());
/// ```
pub fn compute_moments(
    samples: &Samples,
    metrics: &[Metric],
    ks: &[u64],
    ties: Ties,
    exact: bool,
    tick: &dyn Fn(),
) -> Result<Curves> {
    dispatch(samples, metrics, ks, ties, exact, false, tick)
}

fn dispatch(
    samples: &Samples,
    metrics: &[Metric],
    ks: &[u64],
    ties: Ties,
    exact: bool,
    keep: bool,
    tick: &dyn Fn(),
) -> Result<Curves> {
    let n_max = samples.problems.iter().map(|p| p.n).max().unwrap_or(0);
    if counts_fit_u128(n_max, metrics) {
        compute_with::<u128>(samples, metrics, ks, ties, exact, keep, tick)
    } else {
        compute_with::<BigUint>(samples, metrics, ks, ties, exact, keep, tick)
    }
}

#[allow(clippy::too_many_arguments)]
fn compute_with<T: Count>(
    samples: &Samples,
    metrics: &[Metric],
    ks: &[u64],
    ties: Ties,
    exact: bool,
    keep: bool,
    tick: &dyn Fn(),
) -> Result<Curves> {
    let problems = &samples.problems;
    let count = if keep { problems.len() } else { 0 };
    let n_max = problems.iter().map(|p| p.n).max().unwrap_or(0);
    let k_max = *ks.iter().max().unwrap_or(&0);
    let binomials = Binomials::<T>::new(n_max, k_max);
    let cancel = crate::cancel::current();
    let mut per_problem = vec![vec![vec![0.0; count]; ks.len()]; metrics.len()];
    // Exact sums: per metric, k and n, the numerators over the metric's common divisor.
    let mut divisors: Vec<std::collections::BTreeSet<u64>> =
        vec![Default::default(); metrics.len()];
    let mut exact_terms: Vec<Vec<Vec<Terms<T>>>> = Vec::new();
    let mut accumulator = Accumulator::new(metrics.len(), ks.len());
    let mut values = vec![vec![0.0f64; ks.len()]; metrics.len()];
    let mut relative = vec![vec![0.0f64; ks.len()]; metrics.len()];
    for (p, problem) in problems.iter().enumerate() {
        cancel.check()?;
        let terms = problem_terms(problem, metrics, ks, &binomials, ties);
        for (m, per_k) in terms.iter().enumerate() {
            for (i, term) in per_k.iter().enumerate() {
                let value = term.to_f64();
                values[m][i] = value;
                if keep {
                    per_problem[m][i][p] = value;
                }
                // Each count converted (2 roundings at most, BigUint's conversion included),
                // divided, added to the parts before it, then divided by the converted total.
                relative[m][i] = gamma(4.0 * term.parts.len() as f64 + 4.0);
                if exact {
                    divisors[m].extend(term.parts.iter().map(|(_, d)| *d));
                }
            }
        }
        accumulator.push(&values, &relative);
        if exact {
            exact_terms.push(terms);
        }
        tick();
    }
    let exact_sums =
        exact.then(|| exact_sums(problems, &exact_terms, &divisors, metrics.len(), ks.len()));
    let mut curves = Curves::from_moments(
        ks.to_vec(),
        metrics.to_vec(),
        accumulator.finish(exact_sums),
    );
    if keep {
        curves.per_problem = per_problem;
    }
    Ok(curves)
}

/// The exact sums: per metric and k, the problems grouped by n, each group's numerators
/// over `divisor C(n, k)` summed as integers, and one rational reduced per group.
fn exact_sums<T: Count>(
    problems: &[Problem],
    terms: &[Vec<Vec<Terms<T>>>],
    divisors: &[std::collections::BTreeSet<u64>],
    metrics: usize,
    ks: usize,
) -> Vec<Vec<BigRational>> {
    (0..metrics)
        .map(|m| {
            // The metric's common divisor D (the least common multiple of its small
            // divisors, computed once) and D / d for each of them.
            let common = divisors[m]
                .iter()
                .fold(BigInt::one(), |l, &d| l.lcm(&BigInt::from(d)));
            let cofactor: BTreeMap<u64, BigInt> = divisors[m]
                .iter()
                .map(|&d| (d, &common / BigInt::from(d)))
                .collect();
            (0..ks)
                .map(|i| {
                    let mut by_n: BTreeMap<u64, (BigInt, BigInt)> = BTreeMap::new();
                    for (p, problem) in problems.iter().enumerate() {
                        let term = &terms[p][m][i];
                        let entry = by_n
                            .entry(problem.n)
                            .or_insert_with(|| (BigInt::zero(), term.total.clone().into()));
                        for (c, d) in &term.parts {
                            let c: BigInt = c.clone().into();
                            entry.0 += c * &cofactor[d];
                        }
                    }
                    let mut sum = BigRational::zero();
                    for (_, (numerator, total)) in by_n {
                        sum += BigRational::new(numerator, total * &common);
                    }
                    sum
                })
                .collect()
        })
        .collect()
}

/// Checks the budgets against the problems' sample counts: every k must be at most every
/// problem's n, or with `drop_short` the problems with fewer samples than the largest k are
/// dropped (returned: how many).
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--k` and the first problems with too few samples.
pub fn check_budgets(samples: &mut Samples, ks: &[u64], drop_short: bool) -> Result<u64> {
    let k_max = *ks.iter().max().unwrap_or(&0);
    let short: Vec<&Problem> = samples.problems.iter().filter(|p| p.n < k_max).collect();
    if short.is_empty() {
        return Ok(0);
    }
    if !drop_short {
        let shown: Vec<String> = short
            .iter()
            .take(5)
            .map(|p| format!("{:?} (n = {})", p.id, p.n))
            .collect();
        return Err(Error::invalid(
            "--k",
            &format!(
                "at most every problem's number of samples n in {} (or --drop-short drops the \
                 problems with fewer samples than the largest k)",
                samples.source
            ),
            format!(
                "k = {k_max} above n for {} problem{}: {}{}",
                short.len(),
                if short.len() == 1 { "" } else { "s" },
                shown.join(", "),
                if short.len() > 5 { ", ..." } else { "" }
            ),
        ));
    }
    let dropped = short.len() as u64;
    samples.problems.retain(|p| p.n >= k_max);
    if samples.problems.is_empty() {
        return Err(Error::invalid(
            "--k",
            &format!(
                "at most the number of samples of some problem in {} (--drop-short dropped every \
                 problem)",
                samples.source
            ),
            k_max,
        ));
    }
    Ok(dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::input::{AnswerGroup, ScoreLevel};

    fn problem(groups: &[(u64, bool)], abstain: u64, scores: &[(u64, u64)]) -> Problem {
        let n = groups.iter().map(|g| g.0).sum::<u64>() + abstain;
        Problem {
            id: "p".into(),
            n,
            c: groups.iter().filter(|g| g.1).map(|g| g.0).sum(),
            answers: groups
                .iter()
                .map(|&(count, correct)| AnswerGroup { count, correct })
                .collect(),
            scores: scores
                .iter()
                .map(|&(count, correct)| ScoreLevel { count, correct })
                .collect(),
        }
    }

    /// One score level of 127 samples, 100 of them correct: every subset's top level is that
    /// level, so best-of-k is 100/127 at every k, though `100 C(127, 63)` is above `2^128`
    /// (computed in big integers, not wrapped around in `u128`).
    #[test]
    fn best_of_k_counts_beyond_u128_are_exact() {
        let p = problem(&[], 0, &[(127, 100)]);
        let samples = Samples {
            source: "t".into(),
            per_sample: true,
            has_answers: false,
            has_scores: true,
            rows: 127,
            problems: vec![Problem {
                c: 100,
                n: 127,
                ..p
            }],
        };
        assert!(!counts_fit_u128(127, &[Metric::BestOfK]));
        for exact in [true, false] {
            let curves = compute(
                &samples,
                &[Metric::BestOfK],
                &[1, 63, 127],
                Ties::Uniform,
                exact,
                &|| (),
            )
            .unwrap();
            for value in &curves.means[0] {
                assert!((value.to_f64() - 100.0 / 127.0).abs() < 1e-15, "{value:?}");
            }
        }
    }

    /// The literal sum over every k-subset of the majority's value, as a rational.
    fn brute_majority(groups: &[(u64, bool)], abstain: u64, k: usize, ties: Ties) -> BigRational {
        let mut labels: Vec<Option<usize>> = Vec::new();
        for (g, &(count, _)) in groups.iter().enumerate() {
            labels.extend(std::iter::repeat_n(Some(g), count as usize));
        }
        labels.extend(std::iter::repeat_n(None, abstain as usize));
        let n = labels.len();
        let (mut sum, mut subsets) = (BigRational::zero(), 0u64);
        for mask in 0u32..(1 << n) {
            if mask.count_ones() as usize != k {
                continue;
            }
            subsets += 1;
            let mut votes = vec![0; groups.len()];
            for (i, l) in labels.iter().enumerate() {
                if mask >> i & 1 == 1
                    && let Some(g) = l
                {
                    votes[*g] += 1;
                }
            }
            let top = *votes.iter().max().unwrap_or(&0);
            if top == 0 {
                continue;
            }
            let tied: Vec<usize> = (0..groups.len()).filter(|&g| votes[g] == top).collect();
            if ties == Ties::Wrong && tied.len() > 1 {
                continue;
            }
            let right = tied.iter().filter(|&&g| groups[g].1).count();
            sum += BigRational::new(right.into(), tied.len().into());
        }
        sum / BigRational::from_integer(subsets.into())
    }

    #[test]
    fn majority_equals_the_sum_over_every_subset() {
        let cases: [(&[(u64, bool)], u64); 4] = [
            (&[(3, true), (3, false), (2, false)], 1),
            (&[(2, true), (2, true), (3, false)], 2),
            (&[(1, true), (1, false), (1, false), (1, false)], 0),
            (&[(4, false), (2, true)], 3),
        ];
        for (groups, abstain) in cases {
            let p = problem(groups, abstain, &[]);
            let n = p.n;
            let ks: Vec<u64> = (1..=n).collect();
            let samples = Samples {
                source: "t".into(),
                per_sample: true,
                has_answers: true,
                has_scores: false,
                rows: n,
                problems: vec![p],
            };
            for ties in [Ties::Uniform, Ties::Wrong] {
                let c = compute(&samples, &[Metric::Majority], &ks, ties, true, &|| ()).unwrap();
                for (i, &k) in ks.iter().enumerate() {
                    let want = brute_majority(groups, abstain, k as usize, ties);
                    assert_eq!(
                        c.means[0][i],
                        Value::Exact(want),
                        "{groups:?} k={k} {ties:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn f64_agrees_with_exact_within_its_bound() {
        let p = problem(
            &[(5, true), (4, false), (3, false)],
            2,
            &[(4, 1), (6, 3), (4, 2)],
        );
        let ks: Vec<u64> = (1..=14).collect();
        let samples = Samples {
            source: "t".into(),
            per_sample: true,
            has_answers: true,
            has_scores: true,
            rows: 14,
            problems: vec![p.clone(), problem(&[(14, true)], 0, &[(14, 14)])],
        };
        let metrics = Metric::of(&samples);
        let e = compute(&samples, &metrics, &ks, Ties::Uniform, true, &|| ()).unwrap();
        let f = compute(&samples, &metrics, &ks, Ties::Uniform, false, &|| ()).unwrap();
        for m in 0..metrics.len() {
            for i in 0..ks.len() {
                let Value::Exact(x) = &e.means[m][i] else {
                    panic!()
                };
                let Value::Bounded { value, bound } = f.means[m][i] else {
                    panic!()
                };
                assert!(bound > 0.0 && bound < 1e-13);
                assert!((x.to_f64().unwrap() - value).abs() <= bound, "{m} {i}");
            }
        }
    }

    #[test]
    fn budgets_above_n_are_refused_or_dropped() {
        let mut s = Samples {
            source: "f.csv".into(),
            per_sample: false,
            has_answers: false,
            has_scores: false,
            rows: 2,
            problems: vec![problem(&[(2, true)], 2, &[]), problem(&[(1, true)], 1, &[])],
        };
        let e = check_budgets(&mut s.clone(), &[3], false)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("k = 3 above n for 1 problem: \"p\" (n = 2)"),
            "{e}"
        );
        assert_eq!(check_budgets(&mut s, &[3], true).unwrap(), 1);
        assert_eq!(s.problems.len(), 1);
    }
}
