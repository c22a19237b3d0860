//! Vectors of scaled values with a running bound on their rounding error.
//!
//! The `f64` path of [`super`] is the exact algorithm run in IEEE double precision (unit
//! roundoff `u = 2^-53`). Every vector here carries `error`, a bound on the norm of the
//! difference between the computed vector and the vector that exact arithmetic would give
//! *on the same inputs*; the engine adds the propagation of its inputs' errors separately
//! (see [`super::engine`]). The norm is the sup norm for the entrywise ring (CDFs) and the L1
//! norm for the convolution ring (pmfs). Each operation adds the rounding bound that standard
//! forward analysis gives (Higham, *Accuracy and Stability of Numerical Algorithms*, Ch. 3):
//!
//! - `x * y` entrywise: `e_x (|y| + e_y) + |x| e_y + u' |z|` (sup norms);
//! - `x * y` by convolution: the same with L1 norms (Young's inequality), plus the rounding
//!   bound of [`crate::numeric::fft::convolve_with`] (direct or FFT);
//! - `x + y`: `e_x + e_y + u' |z|`; `c x` for a coefficient `c` known to within `delta`:
//!   `|c| e_x + delta (|x| + e_x) + u' |z|`,
//!
//! where `u' = 1.01 u` absorbs `u / (1 - u)`, and L1 norms of computed vectors are inflated by
//! `1 + 2 gamma(n)` to cover the rounding of their own summation. In exact mode (`u = 0`)
//! every error is 0 and no norm is computed.

use crate::numeric::fft::ConvolutionMethod;
use crate::numeric::number::{Probability, Scaled};

/// How two vectors are multiplied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ring {
    /// Entrywise product (CDFs and survival functions; sup norm).
    Entrywise,
    /// Convolution (pmfs of sums; L1 norm).
    Convolution(ConvolutionMethod),
}

/// A coefficient: its value and a bound on its distance to the exact coefficient.
#[derive(Debug, Clone)]
pub(crate) struct Coef<S> {
    pub value: S,
    pub error: f64,
}

impl<S: Scaled> Coef<S> {
    /// An exactly known coefficient.
    pub fn exact(value: S) -> Self {
        Coef { value, error: 0.0 }
    }
}

/// A vector and a bound on the norm of its rounding error.
#[derive(Debug, Clone)]
pub(crate) struct Tracked<S> {
    pub values: Vec<S>,
    pub error: f64,
}

fn u<S: Scaled>() -> f64 {
    S::UNIT_ROUNDOFF
}

fn gamma(n: f64, u: f64) -> f64 {
    n * u / (1.0 - n * u)
}

/// `|x|` as an `f64` (only called in float modes).
pub(crate) fn magnitude<P: Probability>(x: &P::Scaled) -> f64 {
    P::from_scaled(x, &P::Scaled::one_value()).to_f64().abs()
}

/// The norm of a computed vector in the ring's norm, rounded up.
pub(crate) fn norm<P: Probability>(values: &[P::Scaled], ring: Ring) -> f64 {
    match ring {
        Ring::Entrywise => values.iter().map(|x| magnitude::<P>(x)).fold(0.0, f64::max),
        Ring::Convolution(_) => {
            let n = values.len() as f64 + 2.0;
            let sum: f64 = values.iter().map(|x| magnitude::<P>(x)).sum();
            sum * (1.0 + 2.0 * gamma(n, f64::EPSILON / 2.0))
        }
    }
}

impl<S: Scaled> Tracked<S> {
    /// A vector known exactly (error 0).
    pub fn exact(values: Vec<S>) -> Self {
        Tracked { values, error: 0.0 }
    }
}

/// `x * y` in the ring.
pub(crate) fn mul<P: Probability>(
    x: &Tracked<P::Scaled>,
    y: &Tracked<P::Scaled>,
    ring: Ring,
) -> Tracked<P::Scaled> {
    let (values, rounding) = match ring {
        Ring::Entrywise => (
            x.values
                .iter()
                .zip(&y.values)
                .map(|(a, b)| a.mul(b))
                .collect::<Vec<_>>(),
            None,
        ),
        Ring::Convolution(method) => {
            let (v, r) = P::Scaled::convolve_with_bound(&x.values, &y.values, method);
            (v, Some(r))
        }
    };
    let u = u::<P::Scaled>();
    if u == 0.0 {
        return Tracked::exact(values);
    }
    let (nx, ny) = (norm::<P>(&x.values, ring), norm::<P>(&y.values, ring));
    let rounding = rounding.unwrap_or_else(|| 1.01 * u * norm::<P>(&values, ring));
    let error = x.error * (ny + y.error) + nx * y.error + rounding;
    Tracked { values, error }
}

/// `x + y` entrywise (the shorter vector padded with zeros).
pub(crate) fn add<P: Probability>(
    x: &Tracked<P::Scaled>,
    y: &Tracked<P::Scaled>,
    ring: Ring,
) -> Tracked<P::Scaled> {
    let n = x.values.len().max(y.values.len());
    let zero = P::Scaled::zero_value();
    let values: Vec<P::Scaled> = (0..n)
        .map(|i| {
            let a = x.values.get(i).unwrap_or(&zero);
            let b = y.values.get(i).unwrap_or(&zero);
            a.add(b)
        })
        .collect();
    let u = u::<P::Scaled>();
    if u == 0.0 {
        return Tracked::exact(values);
    }
    let error = x.error + y.error + 1.01 * u * norm::<P>(&values, ring);
    Tracked { values, error }
}

/// `c x`.
pub(crate) fn scale<P: Probability>(
    c: &Coef<P::Scaled>,
    x: &Tracked<P::Scaled>,
    ring: Ring,
) -> Tracked<P::Scaled> {
    let values: Vec<P::Scaled> = x.values.iter().map(|v| v.mul(&c.value)).collect();
    let u = u::<P::Scaled>();
    if u == 0.0 {
        return Tracked::exact(values);
    }
    let nx = norm::<P>(&x.values, ring);
    let c_abs = magnitude::<P>(&c.value);
    let error = c_abs * x.error + c.error * (nx + x.error) + 1.01 * u * norm::<P>(&values, ring);
    Tracked { values, error }
}

/// The homogeneous polynomial `sum_{k=1}^{m} c_k A^k B^(m-k)` ("favoured") and
/// `c_0 B^m` ("other") of degree `m = favoured.len() >= 1`, by two-variable Horner:
/// `h = c_(m-1) B + c_m A`, `h = c_k B^(m-k) + A h` for `k = m-2, ..., 1`, favoured `= A h`;
/// the powers of `B` are computed alongside, each in parallel with the product `A h` that
/// precedes its use. Inputs are taken as exact (their errors are the caller's to propagate);
/// the outputs' errors bound the rounding of this evaluation.
pub(crate) fn homogeneous<P: Probability>(
    favoured: &[Coef<P::Scaled>],
    other: &Coef<P::Scaled>,
    a: &[P::Scaled],
    b: &[P::Scaled],
    ring: Ring,
) -> (Tracked<P::Scaled>, Tracked<P::Scaled>) {
    let m = favoured.len();
    assert!(m >= 1, "a homogeneous polynomial of degree at least 1");
    let a = Tracked::exact(a.to_vec());
    let b = Tracked::exact(b.to_vec());
    if m == 1 {
        return (
            scale::<P>(&favoured[0], &a, ring),
            scale::<P>(other, &b, ring),
        );
    }
    let mut h = add::<P>(
        &scale::<P>(&favoured[m - 2], &b, ring),
        &scale::<P>(&favoured[m - 1], &a, ring),
        ring,
    );
    let mut power = b.clone();
    for k in (1..=m - 2).rev() {
        let (ah, next) = rayon::join(|| mul::<P>(&a, &h, ring), || mul::<P>(&power, &b, ring));
        power = next;
        h = add::<P>(&scale::<P>(&favoured[k - 1], &power, ring), &ah, ring);
    }
    let (top, last) = rayon::join(|| mul::<P>(&a, &h, ring), || mul::<P>(&power, &b, ring));
    (top, scale::<P>(other, &last, ring))
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use num_rational::BigRational;

    fn ints(v: &[i64]) -> Vec<BigInt> {
        v.iter().map(|&x| BigInt::from(x)).collect()
    }

    #[test]
    fn horner_matches_the_expanded_polynomial_exactly() {
        // sum_k c_k A^k B^(3-k) entrywise with c = (2, 3, 5), c_0 = 7.
        let c: Vec<Coef<BigInt>> = [2, 3, 5]
            .iter()
            .map(|&x| Coef::exact(BigInt::from(x)))
            .collect();
        let (a, b) = (ints(&[1, 2, 3]), ints(&[4, 5, 6]));
        let (fav, oth) =
            homogeneous::<BigRational>(&c, &Coef::exact(BigInt::from(7)), &a, &b, Ring::Entrywise);
        for i in 0..3 {
            let (x, y) = (&a[i], &b[i]);
            let expected = 2 * x * y * y + 3 * x * x * y + 5 * x * x * x;
            assert_eq!(fav.values[i], expected);
            assert_eq!(oth.values[i], 7 * y * y * y);
        }
        // Convolution ring, degree 2: A (c1 B + c2 A) and c0 B*B.
        let (fav, oth) = homogeneous::<BigRational>(
            &c[..2],
            &Coef::exact(BigInt::from(1)),
            &ints(&[1, 1]),
            &ints(&[0, 1]),
            Ring::Convolution(ConvolutionMethod::Auto),
        );
        // 2 (1 + x) x + 3 (1 + x)^2 = 3 + 8x + 5x^2; x^2.
        assert_eq!(fav.values, ints(&[3, 8, 5]));
        assert_eq!(oth.values, ints(&[0, 0, 1]));
    }

    #[test]
    fn float_rounding_bounds_cover_the_rounding() {
        let c: Vec<Coef<f64>> = [0.1, 0.3, 0.6].iter().map(|&x| Coef::exact(x)).collect();
        let a = vec![0.1, 0.35, 0.7, 0.9];
        let b = vec![0.05, 0.2, 0.33, 0.41];
        let (fav, _) = homogeneous::<f64>(&c, &Coef::exact(1.0), &a, &b, Ring::Entrywise);
        for i in 0..4 {
            let exact = |x: f64| BigRational::from_float(x).unwrap();
            let (x, y) = (exact(a[i]), exact(b[i]));
            let want =
                exact(0.1) * &x * &y * &y + exact(0.3) * &x * &x * &y + exact(0.6) * &x * &x * &x;
            let got = exact(fav.values[i]);
            let gap: f64 = (got - want).to_f64();
            assert!(gap.abs() <= fav.error, "{gap:e} > {:e}", fav.error);
        }
        assert!(fav.error > 0.0 && fav.error < 1e-14);
    }
}
