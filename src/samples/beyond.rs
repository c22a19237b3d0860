//! pass@k beyond the samples drawn (`pathology samples beyond`): the sharp range of
//! `pass@k = 1 - E[q^k]` (q = 1 - p, a problem's failure rate) over every law of q on [0, 1]
//! whose first J moments are the data's.
//!
//! **Moments.** For a problem with `c` correct of `n` samples, `C(n - c, j) / C(n, j)` is the
//! probability that j samples drawn without replacement are all wrong, an unbiased estimate
//! of `q^j` for `j <= n`; their mean over problems, `m_j`, estimates `E[q^j]` without bias.
//! These are exact rationals, and `1 - m_k` is the data's in-sample pass@k.
//!
//! **The extremes.** Over the laws on [0, 1] with moments `m_1..m_J`, `E[q^k]` for `k > J`
//! is smallest at the *lower* and largest at the *upper principal representation* of the
//! moments (Markov-Krein; Karlin & Studden 1966, "Tchebycheff systems", ch. IV; Krein &
//! Nudelman 1977, "The Markov moment problem", ch. III-IV): `f(q) = q^k` has `f^(J+1) > 0` on
//! (0, 1], so `1, q, ..., q^J, f` is a Chebyshev system. The representations have index
//! `(J + 1)/2` (an interior node counts 1, an end 1/2) and are Gauss-type quadratures:
//!
//! - lower, J = 2m - 1: m interior nodes, the zeros of the degree-m orthogonal polynomial of
//!   the moments (Gauss);
//! - lower, J = 2m: the node 0 and the zeros of the degree-m orthogonal polynomial of the
//!   measure `q dsigma` (moments `m_{j+1}`; Gauss-Radau);
//! - upper, J = 2m: the node 1 and the zeros of the degree-m orthogonal polynomial of
//!   `(1 - q) dsigma` (moments `m_j - m_{j+1}`);
//! - upper, J = 2m - 1: the nodes 0 and 1 and the zeros of the degree-(m - 1) orthogonal
//!   polynomial of `q (1 - q) dsigma` (moments `m_{j+1} - m_{j+2}`; Gauss-Lobatto).
//!
//! The monic orthogonal polynomial of degree d of moments `nu_0..nu_{2d-1}` solves the Hankel
//! system `sum_i nu_{i+j} a_i = -nu_{d+j}` (j < d), in exact rationals. The representation's
//! law is supported on the zeros of `R(x)`, the product of that polynomial and the end
//! factors, so its moments obey the recurrence `mu_{t+r} = -sum_{i<r} R_i mu_{t+i}` from its
//! first r = deg R moments (which are the data's): **every extreme `E[q^k]` is an exact
//! rational**, computed without the nodes. (The nodes are irrational in general; their
//! symmetric functions are not.)
//!
//! **J = 1.** `min E[q^k] = m_1^k` (Jensen; the point mass at `m_1`) and `max E[q^k] = m_1`
//! (mass `m_1` at 1 and `1 - m_1` at 0).
//!
//! **J = 2.** Lower: mass `m_1^2 / m_2` at `y = m_2 / m_1` and the rest at 0, so `min E[q^k] =
//! m_1^2 y^(k-2) = m_1^2 (m_2/m_1)^k / m_2`. Upper: mass `1 - u` at `x = (m_1 - m_2) / (1 -
//! m_1)` and `u = (m_2 - m_1 x) / (1 - x)` at 1, so `max E[q^k] = u + (1 - u) x^k`. Both are
//! rational ([`closed_form_range`]).
//!
//! **Feasibility.** The moments of some law on [0, 1] with `m_0..m_t` in the interior of the
//! moment space must have `m_{t+1}` between the lower and upper representations' (t+1)-th
//! moments (equivalently, the Hankel matrices of the moments and of the moments of `q
//! dsigma`, `(1 - q) dsigma`, `q (1 - q) dsigma` are positive definite). Strictly between:
//! still interior. At an end: the law is unique (the principal representation of `m_0..m_t`),
//! every later moment must be its moment, and the range is a point. Outside: no law has these
//! moments (possible with few samples: c = 1, n = 2 gives `m_1 = 1/2`, `m_2 = 0 < m_1^2`), and
//! `--moments` is refused with the largest J that is feasible. All comparisons are exact.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::error::{Error, Result};
use crate::samples::fit::list_text;

mod quadrature;
use crate::numeric::number::rational_to_f64;
use crate::report::{Cell, Column, Kind, Report, Table, printed_error_bound};

/// The largest number of moments (`--moments`).
pub const MAX_MOMENTS: u32 = 64;

/// The data's unbiased moment estimates `m_0 = 1, m_1, .., m_J`: `m_j` is the mean over
/// problems of `C(n_i - c_i, j) / C(n_i, j)`.
///
/// # Examples
///
/// ```
/// use pathology::samples::beyond::data_moments;
/// // c = 1 of n = 2: m_1 = 1/2, m_2 = 0.
/// let m = data_moments(&[(1, 2)], 2).unwrap();
/// assert_eq!(m.iter().map(|x| x.to_string()).collect::<Vec<_>>(), ["1", "1/2", "0"]);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming the counts for an empty list, `n = 0` or `c > n`, and
/// naming `--moments` for J = 0 or J above the fewest samples of a problem.
pub fn data_moments(counts: &[(u64, u64)], moments: u32) -> Result<Vec<BigRational>> {
    super::fit::check_counts(counts)?;
    check_moments(counts, moments)?;
    let mut sorted: Vec<(u64, u64)> = counts.to_vec();
    sorted.sort_unstable();
    let mut sums = vec![BigRational::zero(); moments as usize + 1];
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j < sorted.len() && sorted[j] == sorted[i] {
            j += 1;
        }
        let (c, n) = sorted[i];
        let multiplicity = BigRational::from_integer(BigInt::from(j - i));
        let mut ratio = BigRational::one();
        sums[0] += &multiplicity;
        for t in 1..=u64::from(moments) {
            ratio = if n - c < t {
                BigRational::zero()
            } else {
                ratio * BigRational::new(BigInt::from(n - c - (t - 1)), BigInt::from(n - (t - 1)))
            };
            sums[t as usize] += &multiplicity * &ratio;
        }
        i = j;
    }
    let problems = BigRational::from_integer(BigInt::from(counts.len()));
    Ok(sums.into_iter().map(|s| s / &problems).collect())
}

fn check_moments(counts: &[(u64, u64)], moments: u32) -> Result<()> {
    let fewest = counts.iter().map(|c| c.1).min().unwrap_or(0);
    let largest = fewest.min(u64::from(MAX_MOMENTS));
    if moments == 0 || u64::from(moments) > largest {
        return Err(Error::invalid(
            "--moments",
            &format!(
                "in 1..={largest} (at most the fewest samples of a problem, {fewest}, and at \
                 most {MAX_MOMENTS})"
            ),
            moments,
        ));
    }
    Ok(())
}

/// Which end of the range a principal representation gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The lower principal representation: the smallest `E[q^k]`, the largest pass@k.
    Lower,
    /// The upper principal representation: the largest `E[q^k]`, the smallest pass@k.
    Upper,
}

/// A discrete law on [0, 1] given by the monic polynomial R whose zeros are its support and
/// its first `deg R` moments: every moment follows from the recurrence R gives.
#[derive(Debug, Clone, PartialEq)]
pub struct Representation {
    /// The side.
    pub side: Side,
    /// R's coefficients, constant first; the leading one is 1.
    pub polynomial: Vec<BigRational>,
    /// The law's first `deg R` moments.
    initial: Vec<BigRational>,
    /// R times the least common denominator of its coefficients: integers `P_0..P_r`.
    integer_polynomial: Vec<BigInt>,
    /// The common denominator `D` of the first moments.
    denominator: BigInt,
    /// `A_t = mu_t D L^t` (L = `P_r`), integers, for the t computed so far.
    scaled: Vec<BigInt>,
}

impl Representation {
    fn new(side: Side, polynomial: Vec<BigRational>, initial: Vec<BigRational>) -> Self {
        let lcm = |a: &BigInt, b: &BigInt| num_integer::Integer::lcm(a, b);
        let common = polynomial
            .iter()
            .fold(BigInt::one(), |acc, c| lcm(&acc, c.denom()));
        let integer_polynomial: Vec<BigInt> = polynomial
            .iter()
            .map(|c| (c * BigRational::from_integer(common.clone())).to_integer())
            .collect();
        let denominator = initial
            .iter()
            .fold(BigInt::one(), |acc, c| lcm(&acc, c.denom()));
        let leading = integer_polynomial
            .last()
            .cloned()
            .unwrap_or_else(BigInt::one);
        let mut power = BigInt::one();
        let scaled = initial
            .iter()
            .map(|m| {
                let a = (m * BigRational::from_integer(&denominator * &power)).to_integer();
                power *= &leading;
                a
            })
            .collect();
        Representation {
            side,
            polynomial,
            initial,
            integer_polynomial,
            denominator,
            scaled,
        }
    }

    /// The number of support points (`deg R`).
    pub fn nodes(&self) -> usize {
        self.polynomial.len() - 1
    }

    /// The moment `mu_k = E[q^k]` of the law, exactly: the recurrence of R in integers
    /// (`A_t = -sum_{i<r} P_i A_{t-r+i} L^(r-1-i)` for `A_t = mu_t D L^t`), extended as far
    /// as k, and one division.
    pub fn moment(&mut self, k: usize) -> BigRational {
        if k < self.initial.len() {
            return self.initial[k].clone();
        }
        let r = self.nodes();
        let leading = self.integer_polynomial[r].clone();
        let powers: Vec<BigInt> = (0..r)
            .scan(BigInt::one(), |p, _| {
                let current = p.clone();
                *p *= &leading;
                Some(current)
            })
            .collect();
        while self.scaled.len() <= k {
            let t = self.scaled.len();
            let mut value = BigInt::zero();
            for (i, (coefficient, power)) in self.integer_polynomial[..r]
                .iter()
                .zip(powers.iter().rev())
                .enumerate()
            {
                value -= coefficient * &self.scaled[t - r + i] * power;
            }
            self.scaled.push(value);
        }
        let scale = &self.denominator * num_traits::pow(leading, k);
        BigRational::new(self.scaled[k].clone(), scale)
    }

    /// A rough count of the word operations of [`Representation::moment`] up to k (the
    /// numbers grow by the bits of L at each step).
    pub fn cost(&self, k: u64) -> f64 {
        let bits = |x: &BigInt| x.bits() as f64 + 1.0;
        let leading = self.integer_polynomial.last().map_or(1.0, bits);
        let coefficient = self.integer_polynomial.iter().map(bits).fold(1.0, f64::max);
        let start = bits(&self.denominator);
        let r = self.nodes() as f64;
        let k = k as f64;
        r * k * (start + k * leading / 2.0) * (coefficient + r * leading) / 4096.0
    }
}

/// The monic orthogonal polynomial of degree d of the moments `nu_0..nu_{2d-1}`, constant
/// coefficient first; `None` when the Hankel matrix is singular.
fn orthogonal_polynomial(nu: &[BigRational], d: usize) -> Option<Vec<BigRational>> {
    // Augmented Hankel system H a = -nu_{d..2d-1}, solved by Gaussian elimination.
    let mut rows: Vec<Vec<BigRational>> = (0..d)
        .map(|i| {
            let mut row: Vec<BigRational> = (0..d).map(|j| nu[i + j].clone()).collect();
            row.push(-nu[d + i].clone());
            row
        })
        .collect();
    for col in 0..d {
        let pivot = (col..d).find(|&r| !rows[r][col].is_zero())?;
        rows.swap(col, pivot);
        let inverse = rows[col][col].recip();
        for v in rows[col].iter_mut().skip(col) {
            *v *= &inverse;
        }
        let pivot_row = rows[col].clone();
        for (r, row) in rows.iter_mut().enumerate() {
            if r != col && !row[col].is_zero() {
                let factor = row[col].clone();
                for (v, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *v -= &factor * p;
                }
            }
        }
    }
    let mut coefficients: Vec<BigRational> = rows.into_iter().map(|r| r[d].clone()).collect();
    coefficients.push(BigRational::one());
    Some(coefficients)
}

fn multiply(a: &[BigRational], b: &[BigRational]) -> Vec<BigRational> {
    let mut out = vec![BigRational::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// The principal representation of the moments `m_0..m_t` (`m.len() = t + 1`, interior of
/// the moment space); `None` when a Hankel system is singular (not interior).
fn principal(m: &[BigRational], side: Side) -> Option<Representation> {
    let t = m.len() - 1;
    let x = vec![BigRational::zero(), BigRational::one()]; // x
    let x_minus_1 = vec![-BigRational::one(), BigRational::one()]; // x - 1
    let polynomial = match (side, t % 2) {
        (Side::Lower, 1) => orthogonal_polynomial(m, t.div_ceil(2))?,
        (Side::Lower, _) => {
            let nu: Vec<BigRational> = m[1..].to_vec();
            multiply(&x, &orthogonal_polynomial(&nu, t / 2)?)
        }
        (Side::Upper, 0) => {
            let nu: Vec<BigRational> = (0..t).map(|j| &m[j] - &m[j + 1]).collect();
            multiply(&x_minus_1, &orthogonal_polynomial(&nu, t / 2)?)
        }
        (Side::Upper, _) => {
            let nu: Vec<BigRational> = (0..t.saturating_sub(1))
                .map(|j| &m[j + 1] - &m[j + 2])
                .collect();
            let ends = multiply(&x, &x_minus_1);
            multiply(&ends, &orthogonal_polynomial(&nu, (t - 1) / 2)?)
        }
    };
    let r = polynomial.len() - 1;
    let initial = m[..r.min(m.len())].to_vec();
    let mut representation = Representation::new(side, polynomial, initial);
    // The representation reproduces the moments it was built from (a check of the algebra,
    // exact).
    for (j, mj) in m.iter().enumerate() {
        if representation.moment(j) != *mj {
            return None;
        }
    }
    Some(representation)
}

/// The extremes of `E[q^k]` given the moments `m_0 = 1, m_1..m_J`.
#[derive(Debug, Clone, PartialEq)]
pub enum MomentRange {
    /// The moments are interior: the lower and upper principal representations.
    Interior {
        /// Gives the smallest `E[q^k]` for every k > J.
        lower: Representation,
        /// Gives the largest.
        upper: Representation,
    },
    /// The moments are on the boundary of the moment space: the one law with them (a
    /// principal representation of the first `determined_by` moments).
    Unique {
        /// The law.
        law: Representation,
        /// The number of moments (after `m_0`) that already determine it.
        determined_by: usize,
    },
}

impl MomentRange {
    /// The range `[min E[q^k], max E[q^k]]`, exactly.
    pub fn range(&mut self, k: usize) -> (BigRational, BigRational) {
        match self {
            MomentRange::Interior { lower, upper } => (lower.moment(k), upper.moment(k)),
            MomentRange::Unique { law, .. } => {
                let v = law.moment(k);
                (v.clone(), v)
            }
        }
    }
}

/// The sharp range of `E[q^k]` over the laws on [0, 1] with moments `m_0 = 1, m_1, ..,
/// m_J` (`moments[j] = m_j`), or a refusal when no law has them.
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::samples::beyond::moment_range;
/// let q = |a: i64, b: i64| BigRational::new(a.into(), b.into());
/// // m_1 = 1/2: E[q^3] lies in [1/8, 1/2].
/// let mut range = moment_range(&[q(1, 1), q(1, 2)]).unwrap();
/// let (low, high) = range.range(3);
/// assert_eq!((low.to_string(), high.to_string()), ("1/8".into(), "1/2".into()));
/// // m_1 = 1/2, m_2 = 0 is no law's.
/// let e = moment_range(&[q(1, 1), q(1, 2), q(0, 1)]).unwrap_err().to_string();
/// assert!(e.starts_with("--moments must be at most 1"), "{e}");
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--moments` with the largest feasible J when the
/// moments are no law's; naming the moments when `m_0 != 1` or none is given.
pub fn moment_range(moments: &[BigRational]) -> Result<MomentRange> {
    if moments.len() < 2 || moments[0] != BigRational::one() {
        return Err(Error::invalid(
            "the moments",
            "m_0 = 1 and at least m_1",
            format!("{} values", moments.len()),
        ));
    }
    let last = moments.len() - 1;
    let infeasible = |largest: usize, why: &str| infeasible(largest, last, why);
    for t in 0..last {
        let lower = principal(&moments[..=t], Side::Lower);
        let upper = principal(&moments[..=t], Side::Upper);
        let (Some(mut lower), Some(mut upper)) = (lower, upper) else {
            return Err(infeasible(t, "a singular Hankel matrix"));
        };
        let (low, high) = (lower.moment(t + 1), upper.moment(t + 1));
        let next = &moments[t + 1];
        let outside = || {
            format!(
                "m_{} = {} outside [{}, {}], the values that m_1..m_{} allow",
                t + 1,
                decimal(next),
                decimal(&low),
                decimal(&high),
                t
            )
        };
        if next < &low || next > &high {
            return Err(infeasible(t, &outside()));
        }
        if next == &low || next == &high {
            let mut law = if next == &low { lower } else { upper };
            for (j, mj) in moments.iter().enumerate().skip(t + 2) {
                if law.moment(j) != *mj {
                    return Err(infeasible(
                        j - 1,
                        &format!(
                            "m_1..m_{} determine the law, whose m_{j} = {} differs from the \
                             data's {}",
                            t + 1,
                            decimal(&law.moment(j)),
                            decimal(mj)
                        ),
                    ));
                }
            }
            return Ok(MomentRange::Unique {
                law,
                determined_by: t + 1,
            });
        }
    }
    let lower = principal(moments, Side::Lower);
    let upper = principal(moments, Side::Upper);
    match (lower, upper) {
        (Some(lower), Some(upper)) => Ok(MomentRange::Interior { lower, upper }),
        _ => Err(infeasible(last, "a singular Hankel matrix")),
    }
}

fn decimal(x: &BigRational) -> String {
    format!("{:.12}", x.to_f64().unwrap_or(f64::NAN))
}

fn infeasible(largest: usize, asked: usize, why: &str) -> Error {
    Error::invalid(
        "--moments",
        &format!(
            "at most {largest} for these counts (their moment estimates m_1..m_{} are no law's \
             on [0, 1]: {why})",
            largest + 1
        ),
        asked,
    )
}

/// The closed forms of the range of `E[q^k]` for J = 1 and J = 2 (`m = [1, m_1]` or `[1, m_1,
/// m_2]`, interior), `k > J`: J = 1, `[m_1^k, m_1]`; J = 2, `[m_1^2 (m_2/m_1)^k / m_2, u +
/// (1 - u) x^k]` with `x = (m_1 - m_2)/(1 - m_1)`, `u = (m_2 - m_1 x)/(1 - x)`.
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::samples::beyond::closed_form_range;
/// let q = |a: i64, b: i64| BigRational::new(a.into(), b.into());
/// let (low, high) = closed_form_range(&[q(1, 1), q(1, 2), q(1, 3)], 3).unwrap();
/// // Lower: mass 3/4 at 2/3; upper: mass 1/4 at 1 and 3/4 at 1/3.
/// assert_eq!((low.to_string(), high.to_string()), ("2/9".into(), "5/18".into()));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming the moments unless J is 1 or 2 and the moments are
/// interior (`0 < m_1 < 1`, `m_1^2 < m_2 < m_1`).
pub fn closed_form_range(m: &[BigRational], k: u32) -> Result<(BigRational, BigRational)> {
    let refuse = || {
        Error::invalid(
            "the moments",
            "[1, m_1] or [1, m_1, m_2] in the interior of the moment space",
            format!("{} values", m.len()),
        )
    };
    let one = BigRational::one();
    let power = |x: &BigRational, e: u32| num_traits::pow(x.clone(), e as usize);
    match m.len() {
        2 if m[1].is_positive() && m[1] < one => Ok((power(&m[1], k), m[1].clone())),
        3 if m[1].is_positive() && m[1] < one && &m[1] * &m[1] < m[2] && m[2] < m[1] && k >= 2 => {
            let (m1, m2) = (&m[1], &m[2]);
            let y = m2 / m1;
            let low = m1 * m1 / m2 * power(&y, k);
            let x = (m1 - m2) / (&one - m1);
            let u = (m2 - m1 * &x) / (&one - &x);
            let high = &u + (&one - &u) * power(&x, k);
            Ok((low, high))
        }
        _ => Err(refuse()),
    }
}

/// The word operations up to which an extreme is computed exactly (a few seconds at most).
const EXACT_COST_LIMIT: f64 = 3e8;

/// The largest number of bootstrap replicates.
pub const MAX_REPLICATES: u64 = 100_000;

/// The largest width of a certified enclosure of a range end.
pub const ENCLOSURE_WIDTH: f64 = 1e-10;

/// One end of a range: an exact rational or a certified enclosure (dyadic rationals).
#[derive(Debug, Clone, PartialEq)]
pub enum End {
    /// The exact value.
    Exact(BigRational),
    /// `lower <= value <= upper`.
    Enclosed {
        /// A lower bound.
        lower: BigRational,
        /// An upper bound.
        upper: BigRational,
    },
}

impl End {
    /// `1 - self`.
    fn complement(&self) -> End {
        let one = BigRational::one();
        match self {
            End::Exact(v) => End::Exact(&one - v),
            End::Enclosed { lower, upper } => End::Enclosed {
                lower: &one - upper,
                upper: &one - lower,
            },
        }
    }

    /// The nearest `f64` of the value (of the enclosure's midpoint).
    pub fn to_f64(&self) -> f64 {
        match self {
            End::Exact(v) => rational_to_f64(v),
            End::Enclosed { lower, upper } => {
                rational_to_f64(&((lower + upper) / BigRational::from_integer(2.into())))
            }
        }
    }

    /// The report cell: exact (with `exact`), or an `f64` with a rigorous bound.
    fn cell(&self, exact: bool) -> Cell {
        match self {
            End::Exact(v) => super::fit::value_cell(v, exact),
            End::Enclosed { lower, upper } => {
                let value = self.to_f64();
                let low = crate::numeric::enclosure::Enclosure::of(lower);
                let high = crate::numeric::enclosure::Enclosure::of(upper);
                let bound = (value - low.lower)
                    .max(high.upper - value)
                    .max(0.0)
                    .next_up();
                Cell::Bounded { value, bound }
            }
        }
    }
}

/// The range of pass@k for each k of `ks`: `(lower, upper, status)`, `status` naming how it
/// was obtained. Exact when `exact` and the moment recurrence is affordable; otherwise a
/// certified enclosure from the representations' nodes and weights.
fn pass_ranges(
    range: &mut MomentRange,
    moments: &[BigRational],
    ks: &[u64],
    exact: bool,
) -> Result<Vec<(End, End, &'static str)>> {
    let j = moments.len() as u64 - 1;
    let unique = matches!(range, MomentRange::Unique { .. });
    let mut out: Vec<Option<(End, End, &'static str)>> = vec![None; ks.len()];
    let mut enclosed: Vec<(usize, u64)> = Vec::new();
    for (i, &k) in ks.iter().enumerate() {
        if k <= j {
            let value = End::Exact(BigRational::one() - &moments[k as usize]);
            out[i] = Some((value.clone(), value, "moment"));
            continue;
        }
        let cost = match range {
            MomentRange::Interior { lower, upper } => lower.cost(k) + upper.cost(k),
            MomentRange::Unique { law, .. } => law.cost(k),
        };
        if exact && cost <= EXACT_COST_LIMIT {
            let (low, high) = range.range(k as usize);
            let status = if unique { "unique law" } else { "exact" };
            out[i] = Some((
                End::Exact(BigRational::one() - high),
                End::Exact(BigRational::one() - low),
                status,
            ));
        } else {
            enclosed.push((i, k));
        }
    }
    if !enclosed.is_empty() {
        let width = BigRational::from_float(ENCLOSURE_WIDTH).expect("a finite width");
        let wanted: Vec<u64> = enclosed.iter().map(|e| e.1).collect();
        let enclose = |law: &Representation| -> Result<Vec<End>> {
            let first: Vec<BigRational> = moments[..law.nodes().min(moments.len())].to_vec();
            let found =
                quadrature::enclose(&law.polynomial, &first, &wanted, &width).ok_or_else(|| {
                    Error::invalid(
                        "--k",
                        "values whose range ends can be enclosed within 1e-10 in 8,192 bits",
                        list_text(&wanted),
                    )
                })?;
            Ok(found
                .into_iter()
                .map(|(lower, upper)| End::Enclosed { lower, upper })
                .collect())
        };
        let (lows, highs) = match range {
            MomentRange::Interior { lower, upper } => (enclose(lower)?, enclose(upper)?),
            MomentRange::Unique { law, .. } => {
                let v = enclose(law)?;
                (v.clone(), v)
            }
        };
        let status = if unique {
            "unique law, enclosure"
        } else {
            "enclosure"
        };
        for (t, &(i, _)) in enclosed.iter().enumerate() {
            out[i] = Some((highs[t].complement(), lows[t].complement(), status));
        }
    }
    Ok(out.into_iter().map(|o| o.expect("every k")).collect())
}

/// The percentile `p` (in [0, 1]) of sorted values (the nearest rank).
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (p * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1]
}

/// The report of `pathology samples beyond`: for each k of `ks`, the sharp range of pass@k
/// over every law of the failure rate whose first `moments` moments are the data's, the
/// data's in-sample pass@k where k is at most every problem's n, and (with `replicates > 0`)
/// a percentile bootstrap over problems of each end of the range (seeded: replicate r draws
/// from the stream r of `seed`, so the result does not depend on the thread count).
///
/// # Examples
///
/// ```
/// use pathology::samples::beyond::beyond_report;
/// let counts = [(0, 8), (2, 8), (5, 8), (8, 8), (3, 8)];
/// let report = beyond_report(&counts, &[4, 16], 2, 0, 1, true).unwrap();
/// assert_eq!(report.tables[0].name, "beyond");
/// assert_eq!(report.tables[0].rows.len(), 2);
/// ```
///
/// # Errors
///
/// As [`data_moments`] and [`moment_range`] (`--moments` above what the data allow, named
/// with the largest feasible J); [`Error::InvalidArgument`] naming `--k` for an empty list,
/// k = 0 or a k too large for the exact extremes, `--replicates` above [`MAX_REPLICATES`].
pub fn beyond_report(
    counts: &[(u64, u64)],
    ks: &[u64],
    moments: u32,
    replicates: u64,
    seed: u64,
    exact: bool,
) -> Result<Report> {
    use crate::samples::fit::value_cell;
    use rand::RngExt;
    use rayon::prelude::*;
    if ks.is_empty() || ks.contains(&0) {
        return Err(Error::invalid(
            "--k",
            "a list of k >= 1",
            "0 or an empty list",
        ));
    }
    if replicates > MAX_REPLICATES {
        return Err(Error::invalid(
            "--replicates",
            &format!("in 0..={MAX_REPLICATES}"),
            replicates,
        ));
    }
    let m = data_moments(counts, moments)?;
    let mut range = moment_range(&m)?;
    let rows = pass_ranges(&mut range, &m, ks, exact)?;
    let fewest = counts.iter().map(|c| c.1).min().unwrap_or(0);
    let in_sample_ks: Vec<u64> = ks.iter().copied().filter(|&k| k <= fewest).collect();
    let in_sample = super::fit::in_sample_pass_at_k(counts, &in_sample_ks)?;
    // The bootstrap: replicate r resamples the problems with replacement from stream r.
    let problems = counts.len();
    let draws: Vec<Option<Vec<(f64, f64)>>> = (0..replicates)
        .into_par_iter()
        .map(|r| {
            let mut rng = crate::sim::runner::trial_rng(seed, r);
            let sample: Vec<(u64, u64)> = (0..problems)
                .map(|_| counts[rng.random_range(0..problems)])
                .collect();
            let m = data_moments(&sample, moments).ok()?;
            let mut range = moment_range(&m).ok()?;
            let rows = pass_ranges(&mut range, &m, ks, false).ok()?;
            Some(
                rows.iter()
                    .map(|(l, u, _)| (l.to_f64(), u.to_f64()))
                    .collect(),
            )
        })
        .collect();
    let feasible: Vec<&Vec<(f64, f64)>> = draws.iter().flatten().collect();
    let mut columns = vec![
        Column::key("k", Kind::Integer),
        Column::new("pass_at_k_lower", Kind::Real).labelled("pass@k lower"),
        Column::new("pass_at_k_upper", Kind::Real).labelled("pass@k upper"),
        Column::new("in_sample", Kind::Real).labelled("in-sample"),
        Column::new("status", Kind::Text),
    ];
    if replicates > 0 {
        columns
            .push(Column::new("lower_bootstrap", Kind::Interval).labelled("lower, 95% bootstrap"));
        columns
            .push(Column::new("upper_bootstrap", Kind::Interval).labelled("upper, 95% bootstrap"));
    }
    let mut table = Table::new(
        "beyond",
        "the sharp range of pass@k over every law of the failure rate with the data's first J \
         moments",
        columns,
    );
    let mut largest_bound = 0.0f64;
    let mut bounded = |cell: Cell| {
        if let Cell::Bounded { bound, .. } = cell {
            largest_bound = largest_bound.max(bound);
        }
        cell
    };
    for (i, (&k, (low, high, status))) in ks.iter().zip(&rows).enumerate() {
        let mut row = vec![
            Cell::int(k),
            bounded(low.cell(exact)),
            bounded(high.cell(exact)),
            match in_sample_ks.iter().position(|&j| j == k) {
                Some(t) => bounded(value_cell(&in_sample[t], exact)),
                None => Cell::Empty,
            },
            Cell::text(*status),
        ];
        if replicates > 0 {
            for end in 0..2 {
                let mut values: Vec<f64> = feasible
                    .iter()
                    .map(|d| if end == 0 { d[i].0 } else { d[i].1 })
                    .collect();
                values.sort_by(f64::total_cmp);
                row.push(Cell::Interval {
                    estimate: if end == 0 { low } else { high }.to_f64(),
                    lower: percentile(&values, 0.025),
                    upper: percentile(&values, 0.975),
                });
            }
        }
        table.push(row);
    }
    let mut moments_table = Table::new(
        "moments",
        "the data's unbiased moment estimates m_j = mean of C(n - c, j)/C(n, j) (E[q^j], q = 1 - p)",
        vec![
            Column::key("j", Kind::Integer),
            Column::new("m_j", Kind::Real),
        ],
    );
    for (j, mj) in m.iter().enumerate().skip(1) {
        moments_table.push(vec![Cell::int(j as u64), bounded(value_cell(mj, exact))]);
    }
    let shape = match &range {
        MomentRange::Interior { lower, upper } => format!(
            "the moments m_1..m_{moments} are interior to the moment space: the range's ends are \
             the lower principal representation ({} support points) and the upper one ({}); \
             each extreme is a rational, computed exactly by the representations' moment \
             recurrence with --exact (status `exact`) unless that would cost more than \
             {EXACT_COST_LIMIT:.0e} word operations, and otherwise enclosed from the \
             representations' nodes (isolated exactly) and weights in outward-rounded \
             fixed-point arithmetic, within {ENCLOSURE_WIDTH:e} (status `enclosure`); for \
             k <= J the range is the point 1 - m_k (status `moment`)",
            lower.nodes(),
            upper.nodes()
        ),
        MomentRange::Unique { law, determined_by } => format!(
            "the moments lie on the boundary of the moment space: m_1..m_{determined_by} \
             already determine the law ({} support points), so the range is a point (status \
             `unique law`, or `unique law, enclosure` when enclosed)",
            law.nodes()
        ),
    };
    let mut report = Report::new("samples beyond", "pass@k beyond the samples drawn")
        .param("k", list_text(ks))
        .param("moments", moments)
        .param("replicates", replicates)
        .with_table(table)
        .with_table(moments_table)
        .note(format!(
            "pass@k = 1 - E[q^k]; its range over every law of q on [0, 1] with the data's \
             first {moments} moments is sharp (Markov-Krein); {shape}"
        ));
    if ks.iter().any(|&k| k > fewest) {
        report = report.note(format!(
            "in-sample: empty for k above {fewest}, the fewest samples of a problem"
        ));
    }
    if replicates > 0 {
        report = report.seed(seed).note(format!(
            "bootstrap: sampling uncertainty of each end of the range, not part of it: \
             {replicates} replicates (seed {seed}), each resampling the {problems} problems with \
             replacement and recomputing the range; 95% percentile intervals over the {} \
             replicates whose moments are some law's ({} were not and are left out)",
            feasible.len(),
            draws.len() - feasible.len()
        ));
    }
    Ok(if exact {
        report.param("exact", true).mode("exact")
    } else {
        report.mode("f64").note(format!(
            "f64: every range end, moment and in-sample value is within {} of the exact value \
             (the exact rational rounded once)",
            printed_error_bound(0.0, largest_bound)
        ))
    })
}

#[cfg(test)]
mod tests;
