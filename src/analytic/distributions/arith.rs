//! The arithmetic of the two modes: one kernel, three semirings.
//!
//! Every level of the back-up and every term of a root decision is a polynomial with
//! non-negative coefficients in non-negative inputs (CDFs, survival functions, the critical
//! rates). Such a polynomial is written once, generic over [`Semiring`], and evaluated
//!
//! - on [`BigInt`] numerators over one common denominator (exact mode; the caller keeps the
//!   denominator, which is a power of the inputs' denominators fixed by the polynomial's
//!   degree, so no gcd is ever taken inside a level);
//! - on `f64` twice, at the lower and at the upper ends of the inputs' enclosures: the
//!   polynomial is non-decreasing in every input, so the exact values at the two ends bracket
//!   the exact value at any inputs inside the enclosures;
//! - on [`Count`], which counts the roundings of the `f64` evaluation: a product adds the
//!   counts of its factors plus one, a sum takes the larger count plus one.
//!
//! **Why the count bounds the rounding** (Higham, *Accuracy and Stability of Numerical
//! Algorithms*, 2nd ed., Lemma 3.1 and Section 3.1): without underflow, `fl(a op b) = (a op
//! b)(1 + delta)`, `|delta| <= u = 2^-53`. By induction a computed non-negative value is
//! `y (1 + theta_k)` with `|theta_k| <= gamma_k = k u / (1 - k u)` and k its count: a
//! product multiplies the factors' `(1 + theta)`, and a sum of two non-negative values is a
//! convex combination of their relative factors, so the larger count survives. Hence the
//! exact value lies in `[y_hat / (1 + u)^k, y_hat / (1 - u)^k]`. [`widen_down`] and
//! [`widen_up`] step outside that interval with a margin that also covers their own
//! rounding, and add [`UNDERFLOW_ALLOWANCE`] for the absolute errors of gradual underflow
//! (each operation loses at most `2^-1075` absolutely; at most `2^20` operations, each loss
//! multiplied by coefficients below `2^120`, stay far below `2^-900`).
//!
//! The differences the engines take (a pmf from a CDF, a survival function from a CDF) are
//! rounded outward one operation at a time ([`sub_down`], [`sub_up`]).

use num_bigint::BigInt;

use crate::numeric::number::Scaled;

/// Unit roundoff of `f64`.
pub(crate) const UNIT: f64 = f64::EPSILON / 2.0;

/// An absolute allowance for gradual underflow, far above what `2^20` operations on
/// coefficients below `2^120` can lose (`2^20 * 2^120 * 2^-1075 = 2^-935`).
pub(crate) const UNDERFLOW_ALLOWANCE: f64 = 7.458_340_731_200_207e-272; // 2^-900

/// The operations of the level kernels and root terms.
pub(crate) trait Semiring: Clone + Send + Sync {
    /// Whether this is the exact ring (subtraction allowed, products may be huge).
    const EXACT: bool;
    /// 0.
    fn zero() -> Self;
    /// 1.
    fn one() -> Self;
    /// A small non-negative integer.
    fn integer(n: u64) -> Self;
    /// `self + other`.
    fn add(&self, other: &Self) -> Self;
    /// `self * other`.
    fn mul(&self, other: &Self) -> Self;
    /// `self - other`: only the exact ring subtracts (the float kernels never call it).
    fn sub(&self, other: &Self) -> Self;
}

impl Semiring for f64 {
    const EXACT: bool = false;
    #[inline]
    fn zero() -> Self {
        0.0
    }
    #[inline]
    fn one() -> Self {
        1.0
    }
    #[inline]
    fn integer(n: u64) -> Self {
        n as f64
    }
    #[inline]
    fn add(&self, other: &Self) -> Self {
        self + other
    }
    #[inline]
    fn mul(&self, other: &Self) -> Self {
        self * other
    }
    #[inline]
    fn sub(&self, other: &Self) -> Self {
        self - other
    }
}

impl Semiring for BigInt {
    const EXACT: bool = true;
    fn zero() -> Self {
        BigInt::from(0)
    }
    fn one() -> Self {
        BigInt::from(1)
    }
    fn integer(n: u64) -> Self {
        BigInt::from(n)
    }
    fn add(&self, other: &Self) -> Self {
        self + other
    }
    fn mul(&self, other: &Self) -> Self {
        // Large operands go to the crate's fast multiplication (dashu, or the NTT).
        Scaled::mul(self, other)
    }
    fn sub(&self, other: &Self) -> Self {
        self - other
    }
}

/// The rounding count of a float evaluation (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Count(pub u32);

impl Semiring for Count {
    const EXACT: bool = false;
    fn zero() -> Self {
        Count(0)
    }
    fn one() -> Self {
        Count(0)
    }
    fn integer(n: u64) -> Self {
        // Integers up to 2^53 are doubles exactly; larger ones are rounded once.
        Count(u32::from(n > 1 << 53))
    }
    fn add(&self, other: &Self) -> Self {
        Count(self.0.max(other.0) + 1)
    }
    fn mul(&self, other: &Self) -> Self {
        Count(self.0 + other.0 + 1)
    }
    fn sub(&self, _: &Self) -> Self {
        unreachable!("float kernels are subtraction-free")
    }
}

/// The binomial coefficient C(n, k) (exact for the branching factors accepted).
pub(crate) fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// `x^n` by binary powering (`x^0 = 1`).
pub(crate) fn power<S: Semiring>(x: &S, n: usize) -> S {
    let mut result: Option<S> = None;
    let mut base = x.clone();
    let mut n = n;
    while n > 0 {
        if n & 1 == 1 {
            result = Some(match result {
                None => base.clone(),
                Some(r) => r.mul(&base),
            });
        }
        n >>= 1;
        if n > 0 {
            base = base.mul(&base);
        }
    }
    result.unwrap_or_else(S::one)
}

/// A lower end for the exact value of a non-negative computed value `y` of rounding count
/// `k` (module docs); never below 0.
#[inline]
pub(crate) fn widen_down(y: f64, k: u32) -> f64 {
    // 1 - (k + 4) u is a double (the doubles just below 1 are 2^-53 apart).
    let factor = 1.0 - f64::from(k + 4) * UNIT;
    (y * factor - UNDERFLOW_ALLOWANCE).max(0.0)
}

/// An upper end for the exact value of a non-negative computed value `y` of rounding count
/// `k` (module docs).
#[inline]
pub(crate) fn widen_up(y: f64, k: u32) -> f64 {
    // 1 + (k + 5) 2u is a double (the doubles just above 1 are 2^-52 apart) and at least
    // 1 + 2 (k + 5) u, which covers gamma_k and the rounding of this product.
    let factor = 1.0 + f64::from(k + 5) * f64::EPSILON;
    y * factor + UNDERFLOW_ALLOWANCE
}

/// A lower end of `a - b` for doubles `a`, `b` (rounded to nearest, then one double down
/// unless the difference is exact, as it is for `b/2 <= a <= 2b` by Sterbenz's lemma).
#[inline]
pub(crate) fn sub_down(a: f64, b: f64) -> f64 {
    let r = a - b;
    if exact_difference(a, b) {
        r
    } else {
        r.next_down()
    }
}

/// Whether `a - b` is a double: one of them is 0, or Sterbenz's lemma applies.
#[inline]
fn exact_difference(a: f64, b: f64) -> bool {
    a == 0.0 || b == 0.0 || (b <= 2.0 * a && a <= 2.0 * b)
}

/// An upper end of `a - b` (see [`sub_down`]).
#[inline]
pub(crate) fn sub_up(a: f64, b: f64) -> f64 {
    let r = a - b;
    if exact_difference(a, b) {
        r
    } else {
        r.next_up()
    }
}

/// Enclosures of probabilities as two vectors of ends.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ends {
    pub lo: Vec<f64>,
    pub hi: Vec<f64>,
}

impl Ends {
    /// `total - self` entrywise, rounded outward and clamped to `[0, total_hi]`.
    pub fn complement(&self, total_lo: f64, total_hi: f64) -> Self {
        Ends {
            lo: self
                .hi
                .iter()
                .map(|&h| sub_down(total_lo, h).max(0.0))
                .collect(),
            hi: self
                .lo
                .iter()
                .map(|&l| sub_up(total_hi, l).min(total_hi))
                .collect(),
        }
    }

    /// Widens computed ends of rounding count `k`, clamped to `[0, cap]`.
    pub fn widen(lo: Vec<f64>, hi: Vec<f64>, k: u32, cap: f64) -> Self {
        Ends {
            lo: lo.into_iter().map(|y| widen_down(y, k)).collect(),
            hi: hi.into_iter().map(|y| widen_up(y, k).min(cap)).collect(),
        }
    }
}

/// Entrywise `a * b` into a new vector.
#[inline]
pub(crate) fn vmul<S: Semiring>(a: &[S], b: &[S]) -> Vec<S> {
    if S::EXACT {
        map_entries::<S, S>(a.len(), |i| a[i].mul(&b[i]))
    } else {
        a.iter().zip(b).map(|(x, y)| x.mul(y)).collect()
    }
}

/// Entrywise `x^n` by binary powering of the whole vector (one simple loop per step, so
/// that the float loops vectorise).
pub(crate) fn vpower<S: Semiring>(x: &[S], n: usize) -> Vec<S> {
    let mut result: Option<Vec<S>> = None;
    let mut base = x.to_vec();
    let mut n = n;
    while n > 0 {
        if n & 1 == 1 {
            result = Some(match result {
                None => base.clone(),
                Some(r) => vmul(&r, &base),
            });
        }
        n >>= 1;
        if n > 0 {
            base = vmul(&base, &base);
        }
    }
    result.unwrap_or_else(|| vec![S::one(); x.len()])
}

/// Runs `f` on a vector in parallel when the ring is exact (big numbers) and the vector
/// has a few entries, sequentially on floats (a level of 1000 doubles is far below the
/// cost of a parallel task).
pub(crate) fn map_entries<S: Semiring, T: Send>(
    n: usize,
    f: impl Fn(usize) -> T + Sync + Send,
) -> Vec<T> {
    use rayon::prelude::*;
    // A parallel task costs microseconds: worth it for several big numbers only.
    if S::EXACT && n >= 4 {
        (0..n).into_par_iter().map(f).collect()
    } else {
        (0..n).map(f).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;

    fn exact(x: f64) -> BigRational {
        BigRational::from_float(x).unwrap()
    }

    #[test]
    fn powers_and_counts() {
        assert_eq!(power(&3.0f64, 0), 1.0);
        assert_eq!(power(&3.0f64, 5), 243.0);
        assert_eq!(power(&BigInt::from(3), 7), BigInt::from(2187));
        // x^7 by squarings: x^2, x^4 (2 products), then x * x^2 * x^4 (2 more): every
        // factor of the result has been rounded at most 6 times.
        assert!(power(&Count(0), 7).0 <= 6);
        assert_eq!(Count(2).add(&Count(5)), Count(6));
        assert_eq!(Count(2).mul(&Count(5)), Count(8));
    }

    #[test]
    fn widened_ends_bracket_the_exact_polynomial() {
        // (0.1 a + 0.7 b)^7 at a few points: the exact value lies between the widened ends.
        let mut seed = 12345u64;
        for _ in 0..200 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let a = (seed >> 11) as f64 / (1u64 << 53) as f64;
            let b = 1.0 - a;
            let f = |a: f64, b: f64| power(&(0.1 * a + 0.7 * b), 7);
            let y = f(a, b);
            let k = power(&Count(0).mul(&Count(0)).add(&Count(0).mul(&Count(0))), 7).0;
            let truth = num_traits::pow(exact(0.1) * exact(a) + exact(0.7) * exact(b), 7);
            assert!(exact(widen_down(y, k)) <= truth);
            assert!(exact(widen_up(y, k)) >= truth);
        }
    }

    #[test]
    fn outward_differences_enclose() {
        for (a, b) in [
            (0.3, 0.1),
            (1.0, 1e-17),
            (0.5, 0.25),
            (1e-300, 3e-301),
            (0.7, 0.7),
        ] {
            let truth = exact(a) - exact(b);
            assert!(exact(sub_down(a, b)) <= truth);
            assert!(exact(sub_up(a, b)) >= truth);
        }
        assert_eq!(widen_down(0.0, 3), 0.0);
        assert!(widen_up(0.0, 3) > 0.0);
    }
}
