//! The sums over problems that every statistic of `samples curves` is computed from, kept
//! **exactly**, so that they add over any split of the problems (`samples curves --shard`,
//! `pathology merge`) and give the same result in any order.
//!
//! For each metric and budget `k_i` of the list, with `v_p(k_i)` problem p's value as `f64`
//! (within its rounding bound of the exact value):
//!
//! - `sum_i = sum_p v_p(k_i)`, `squares_i = sum_p v_p(k_i)^2` (the mean and the standard
//!   error over problems);
//! - `next_i = sum_p v_p(k_i) v_p(k_(i+1))` and `last_i = sum_p v_p(k_i) v_p(k_last)` (the
//!   paired differences of the claims that a curve falls, which compare consecutive budgets,
//!   or a budget with the largest one);
//! - the largest relative rounding bound of a value, and in exact mode the exact sum of the
//!   exact values.
//!
//! Each `f64` is a dyadic rational `m 2^e` with `e >= -1074`, a product of two `m 2^e` with
//! `e >= -2148`; [`ExactSum`] adds them into a fixed-point integer of 2,304 bits whose unit is
//! `2^-2148`, so every sum is exact (values in `[0, 1]`, at most `2^64` problems). The
//! statistics are then computed from these rationals exactly and rounded once (a square root
//! last), so they depend on the set of problems only, never on their order.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::numeric::number::rational_to_f64;

/// The unit of an [`ExactSum`] is `2^-FRACTION_BITS`: a product of two `f64` is a whole
/// multiple of `2^-2148`.
const FRACTION_BITS: usize = 2148;

/// 64-bit limbs of an [`ExactSum`]: 2,304 bits, room for `2^64` values up to 1 and their
/// carries.
const LIMBS: usize = 36;

/// The unit roundoff of `f64`.
const UNIT: f64 = f64::EPSILON / 2.0;

/// An exact sum of non-negative `f64` values at most 1 and of products of two of them, as a
/// fixed-point integer (no rounding, no allocation per term).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactSum {
    limbs: Vec<u64>,
}

impl Default for ExactSum {
    fn default() -> Self {
        ExactSum {
            limbs: vec![0; LIMBS],
        }
    }
}

/// `x = m 2^e` with `m < 2^53` (`x` finite and non-negative).
fn split(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    if exponent == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), exponent - 1075)
    }
}

impl ExactSum {
    /// Adds `m 2^e`.
    fn add_scaled(&mut self, m: u128, e: i32) {
        if m == 0 {
            return;
        }
        let offset = usize::try_from(e + FRACTION_BITS as i32)
            .expect("a value or product of two f64 is a multiple of 2^-2148");
        let (limb, shift) = (offset / 64, offset % 64);
        let (low, high) = (m as u64, (m >> 64) as u64);
        let words = if shift == 0 {
            [low, high, 0]
        } else {
            [
                low << shift,
                (high << shift) | (low >> (64 - shift)),
                high >> (64 - shift),
            ]
        };
        let mut carry = 0u64;
        let mut i = limb;
        for w in words {
            let (s, c1) = self.limbs[i].overflowing_add(w);
            let (s, c2) = s.overflowing_add(carry);
            self.limbs[i] = s;
            carry = u64::from(c1) + u64::from(c2);
            i += 1;
        }
        while carry > 0 {
            let (s, c) = self.limbs[i].overflowing_add(carry);
            self.limbs[i] = s;
            carry = u64::from(c);
            i += 1;
        }
    }

    /// Adds `x` (finite, in `[0, 1]`).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::samples::moments::ExactSum;
    /// use num_rational::BigRational;
    /// let mut s = ExactSum::default();
    /// for _ in 0..10 {
    ///     s.add(0.1);
    /// }
    /// // Ten times the double nearest 0.1, exactly (a float sum would give 0.9999999999999999).
    /// assert_eq!(s.to_rational(), BigRational::from_float(0.1).unwrap() * BigRational::from_integer(10.into()));
    /// ```
    pub fn add(&mut self, x: f64) {
        debug_assert!((0.0..=1.0).contains(&x), "{x}");
        let (m, e) = split(x);
        self.add_scaled(u128::from(m), e);
    }

    /// Adds the exact product `x y` (both finite, in `[0, 1]`).
    pub fn add_product(&mut self, x: f64, y: f64) {
        let (a, e) = split(x);
        let (b, f) = split(y);
        self.add_scaled(u128::from(a) * u128::from(b), e + f);
    }

    /// The sum as a reduced rational.
    pub fn to_rational(&self) -> BigRational {
        let digits: Vec<u32> = self
            .limbs
            .iter()
            .flat_map(|l| [*l as u32, (*l >> 32) as u32])
            .collect();
        BigRational::new(
            BigInt::from(BigUint::new(digits)),
            BigInt::one() << FRACTION_BITS,
        )
    }
}

/// The exact sums of one set of problems, per metric `m` and budget index `i` (the module
/// docs say what each holds).
#[derive(Debug, Clone, PartialEq)]
pub struct Moments {
    /// The problems summed.
    pub problems: u64,
    /// `sum[m][i] = sum_p v_p(k_i)`.
    pub sum: Vec<Vec<BigRational>>,
    /// `squares[m][i] = sum_p v_p(k_i)^2`.
    pub squares: Vec<Vec<BigRational>>,
    /// `next[m][i] = sum_p v_p(k_i) v_p(k_(i+1))` (one fewer than the budgets).
    pub next: Vec<Vec<BigRational>>,
    /// `last[m][i] = sum_p v_p(k_i) v_p(k_last)`.
    pub last: Vec<Vec<BigRational>>,
    /// The largest relative rounding bound of one problem's value (`|v - x| <= r x`).
    pub relative: Vec<Vec<f64>>,
    /// Exact mode: the exact sum of the exact values.
    pub exact: Option<Vec<Vec<BigRational>>>,
}

/// [`Moments`] being accumulated, one problem at a time.
#[derive(Debug, Clone)]
pub struct Accumulator {
    problems: u64,
    sum: Vec<Vec<ExactSum>>,
    squares: Vec<Vec<ExactSum>>,
    next: Vec<Vec<ExactSum>>,
    last: Vec<Vec<ExactSum>>,
    relative: Vec<Vec<f64>>,
}

impl Accumulator {
    /// Empty sums for `metrics` metrics at `ks` budgets.
    pub fn new(metrics: usize, ks: usize) -> Self {
        let grid = |n: usize| vec![vec![ExactSum::default(); n]; metrics];
        Accumulator {
            problems: 0,
            sum: grid(ks),
            squares: grid(ks),
            next: grid(ks.saturating_sub(1)),
            last: grid(ks),
            relative: vec![vec![0.0; ks]; metrics],
        }
    }

    /// Adds one problem: `values[m][i]` its value of metric m at `k_i`, `relative[m][i]` its
    /// relative rounding bound.
    pub fn push(&mut self, values: &[Vec<f64>], relative: &[Vec<f64>]) {
        self.problems += 1;
        for (m, row) in values.iter().enumerate() {
            let Some(&end) = row.last() else { continue };
            for (i, &v) in row.iter().enumerate() {
                self.sum[m][i].add(v);
                self.squares[m][i].add_product(v, v);
                self.last[m][i].add_product(v, end);
                if i + 1 < row.len() {
                    self.next[m][i].add_product(v, row[i + 1]);
                }
                self.relative[m][i] = self.relative[m][i].max(relative[m][i]);
            }
        }
    }

    /// The sums as rationals, with the exact sums of exact mode.
    pub fn finish(self, exact: Option<Vec<Vec<BigRational>>>) -> Moments {
        let rational = |grid: Vec<Vec<ExactSum>>| -> Vec<Vec<BigRational>> {
            grid.iter()
                .map(|row| row.iter().map(ExactSum::to_rational).collect())
                .collect()
        };
        Moments {
            problems: self.problems,
            sum: rational(self.sum),
            squares: rational(self.squares),
            next: rational(self.next),
            last: rational(self.last),
            relative: self.relative,
            exact,
        }
    }
}

/// `sqrt(x)` of a non-negative rational, rounded once before the root.
fn root(x: &BigRational) -> f64 {
    rational_to_f64(x).max(0.0).sqrt()
}

impl Moments {
    /// Adds the sums of another, disjoint set of problems (a shard's).
    ///
    /// # Panics
    ///
    /// When the two have other shapes or only one is exact (the merge checks both first).
    pub fn add(&mut self, other: &Moments) {
        fn plus(a: &mut [Vec<BigRational>], b: &[Vec<BigRational>]) {
            assert_eq!(a.len(), b.len());
            for (x, y) in a.iter_mut().zip(b) {
                assert_eq!(x.len(), y.len());
                for (u, w) in x.iter_mut().zip(y) {
                    *u += w;
                }
            }
        }
        self.problems += other.problems;
        plus(&mut self.sum, &other.sum);
        plus(&mut self.squares, &other.squares);
        plus(&mut self.next, &other.next);
        plus(&mut self.last, &other.last);
        for (x, y) in self.relative.iter_mut().zip(&other.relative) {
            for (u, w) in x.iter_mut().zip(y) {
                *u = u.max(*w);
            }
        }
        match (&mut self.exact, &other.exact) {
            (Some(a), Some(b)) => plus(a, b),
            (None, None) => {}
            _ => panic!("an exact and an f64 set of sums"),
        }
    }

    fn count(&self) -> BigRational {
        BigRational::from_integer(BigInt::from(self.problems))
    }

    /// The exact mean over problems of metric `m` at `k_i` (exact mode; `None` in f64 mode).
    pub fn exact_mean(&self, m: usize, i: usize) -> Option<BigRational> {
        self.exact.as_ref().map(|exact| &exact[m][i] / self.count())
    }

    /// The `f64` mean over problems of metric `m` at `k_i`, the `f64` nearest the exact mean
    /// of the `f64` values, and a rigorous bound on its distance to the exact mean of the
    /// exact values: each value is within `r` (relative) of its exact value, so their exact
    /// sum S within `r/(1 - r) S`, and the one rounding of `S / P` adds `u S / P`.
    pub fn f64_mean(&self, m: usize, i: usize) -> (f64, f64) {
        let value = rational_to_f64(&(&self.sum[m][i] / self.count()));
        let r = self.relative[m][i];
        // r / (1 - r) <= r (1 + 2 r) for r <= 1/2; S / P <= value / (1 - u); the factor
        // (1 + 16 u) covers the roundings of this line.
        let bound = (r * (1.0 + 2.0 * r) + UNIT) * value * (1.0 + 16.0 * UNIT);
        (value, bound)
    }

    /// The standard error over problems of metric `m` at `k_i`: `sqrt(s^2 / P)` with `s^2`
    /// the sample variance of the `f64` values, computed exactly and rounded once before the
    /// root; `None` for fewer than two problems.
    pub fn standard_error(&self, m: usize, i: usize) -> Option<f64> {
        self.spread(&self.sum[m][i], &self.squares[m][i])
    }

    /// `sqrt(s^2 / P)` from the sum and the sum of squares of P values.
    fn spread(&self, sum: &BigRational, squares: &BigRational) -> Option<f64> {
        if self.problems < 2 {
            return None;
        }
        let count = self.count();
        let variance = (squares - sum * sum / &count) / (&count - BigRational::one()) / &count;
        Some(root(&variance))
    }

    /// The mean and standard error of the paired differences `v_p(k_j) - v_p(k_i)` of metric
    /// `m`, for `j = i + 1` or `j` the last budget (the pairs whose products are kept).
    ///
    /// # Panics
    ///
    /// For any other pair.
    pub fn paired(&self, m: usize, i: usize, j: usize) -> (f64, Option<f64>) {
        let last = self.sum[m].len() - 1;
        let cross = if j == last {
            &self.last[m][i]
        } else {
            assert_eq!(
                j,
                i + 1,
                "the pairs kept are consecutive or end at the last k"
            );
            &self.next[m][i]
        };
        let sum = &self.sum[m][j] - &self.sum[m][i];
        let two = BigRational::from_integer(2.into());
        let squares = &self.squares[m][i] + &self.squares[m][j] - two * cross;
        let estimate = rational_to_f64(&(&sum / self.count()));
        (estimate, self.spread(&sum, &squares))
    }

    /// Empty sums (no problem) for `metrics` metrics at `ks` budgets.
    pub fn empty(metrics: usize, ks: usize, exact: bool) -> Self {
        let mut moments = Accumulator::new(metrics, ks).finish(None);
        if exact {
            moments.exact = Some(vec![vec![BigRational::zero(); ks]; metrics]);
        }
        moments
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_sums_match_rational_arithmetic_in_any_order() {
        let values = [
            0.1,
            1.0,
            0.0,
            5e-324,
            2.2250738585072014e-308,
            0.3333333333333333,
            0.5,
        ];
        let mut forward = ExactSum::default();
        let mut backward = ExactSum::default();
        let mut want = BigRational::zero();
        let mut products = ExactSum::default();
        let mut want_products = BigRational::zero();
        for &x in &values {
            forward.add(x);
            want += BigRational::from_float(x).unwrap();
            for &y in &values {
                products.add_product(x, y);
                want_products +=
                    BigRational::from_float(x).unwrap() * BigRational::from_float(y).unwrap();
            }
        }
        for &x in values.iter().rev() {
            backward.add(x);
        }
        assert_eq!(forward.to_rational(), want);
        assert_eq!(forward, backward);
        assert_eq!(products.to_rational(), want_products);
    }

    #[test]
    fn carries_run_across_limbs() {
        let mut s = ExactSum::default();
        for _ in 0..1000 {
            s.add(1.0);
            s.add_product(5e-324, 5e-324);
        }
        let tiny = BigRational::from_float(5e-324).unwrap();
        assert_eq!(
            s.to_rational(),
            BigRational::from_integer(1000.into()) * (BigRational::one() + &tiny * &tiny)
        );
    }

    #[test]
    fn split_moments_add_up_to_the_whole() {
        let values: Vec<Vec<Vec<f64>>> = (0..7)
            .map(|p| {
                vec![
                    (0..4).map(|i| f64::from(p * 3 + i) / 37.0).collect(),
                    (0..4).map(|i| 1.0 / f64::from(p + i + 1)).collect(),
                ]
            })
            .collect();
        let relative = vec![vec![1e-16; 4]; 2];
        let mut whole = Accumulator::new(2, 4);
        let mut parts = [Accumulator::new(2, 4), Accumulator::new(2, 4)];
        for (p, v) in values.iter().enumerate() {
            whole.push(v, &relative);
            parts[p % 2].push(v, &relative);
        }
        let whole = whole.finish(None);
        let [a, b] = parts;
        let mut merged = b.finish(None);
        merged.add(&a.finish(None));
        assert_eq!(merged, whole);
        // The statistics against a direct two-pass computation.
        let column: Vec<f64> = values.iter().map(|v| v[1][2]).collect();
        let (mean, se) = super::super::report::mean_and_standard_error(&column);
        assert!((whole.f64_mean(1, 2).0 - mean).abs() < 1e-15);
        assert!((whole.standard_error(1, 2).unwrap() - se.unwrap()).abs() < 1e-15);
        let differences: Vec<f64> = values.iter().map(|v| v[0][3] - v[0][1]).collect();
        let (d, dse) = super::super::report::mean_and_standard_error(&differences);
        let (estimate, standard_error) = whole.paired(0, 1, 3);
        assert!((estimate - d).abs() < 1e-15);
        assert!((standard_error.unwrap() - dse.unwrap()).abs() < 1e-15);
    }
}
