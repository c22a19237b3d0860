//! Double-double arithmetic: a third number mode between `f64` and exact rationals.
//!
//! A [`DoubleDouble`] is an unevaluated sum `hi + lo` of two doubles with `|lo| <= ulp(hi)/2`,
//! about 106 bits of precision. Its algorithms are those of Joldes, Muller & Popescu,
//! "Tight and rigorous error bounds for basic building blocks of double-word arithmetic"
//! (ACM TOMS 44(2), 2017): `DWPlusDW` (accurate sum, Algorithm 6, relative error
//! `<= 3u^2 / (1 - 4u)`) and `DWTimesDW` with FMA (Algorithm 12, relative error `<= 5u^2`),
//! `u = 2^-53`. Every operation therefore satisfies the standard model
//! `fl(x op y) = (x op y)(1 + delta)`, `|delta| <= u_dd`, with [`UNIT_ROUNDOFF`]
//! `u_dd = 8 u^2` taken with margin, so the rounding-error bounds of
//! [`crate::analytic::dgame::error_bound`] hold verbatim with `u_dd` in place of `u` (barring
//! underflow, which the bounds cover with an absolute slack).
//!
//! The D-game engine uses it to settle the pairs `D(d-1,h)` vs `D(d,h)` whose `f64`
//! difference lies within the `f64` rounding bound: at deep back-ups the `f64` bound grows as
//! `2^(levels) u`, which double-double shrinks by a factor of `2^53`.

use std::cmp::Ordering;

use num_rational::BigRational;

use crate::numeric::number::{Probability, Scaled, rational_to_f64};

const U: f64 = f64::EPSILON / 2.0;
/// The unit roundoff used for double-double operations (`8 u^2`, `u = 2^-53`).
pub const UNIT_ROUNDOFF: f64 = 8.0 * U * U;

/// A double-double number `hi + lo`.
#[derive(Debug, Clone, Copy, Default)]
pub struct DoubleDouble {
    hi: f64,
    lo: f64,
}

fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    (s, b - (s - a))
}

fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

impl DoubleDouble {
    /// The double-double equal to a double.
    ///
    /// # Examples
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use pathology::numeric::dd::DoubleDouble;
    /// let x = DoubleDouble::from_f64(0.1);
    /// assert_eq!(x.hi(), 0.1);
    /// assert_eq!(x.to_rational(), BigRational::from_float(0.1).unwrap()); // no low part
    /// ```
    pub fn from_f64(x: f64) -> Self {
        DoubleDouble { hi: x, lo: 0.0 }
    }

    /// The high part (the nearest double, up to rounding of the sum).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::numeric::dd::DoubleDouble;
    /// use pathology::numeric::number::{Probability, parse_rational};
    /// let third = DoubleDouble::from_rational(&parse_rational("1/3").unwrap());
    /// assert_eq!(third.hi(), 1.0 / 3.0); // the nearest double; the rest is in the low part
    /// let tiny = DoubleDouble::from_f64(1.0).plus(&DoubleDouble::from_f64(1e-20));
    /// assert_eq!(tiny.hi(), 1.0);
    /// assert!(tiny > DoubleDouble::from_f64(1.0)); // but the sum is still above 1
    /// ```
    pub fn hi(self) -> f64 {
        self.hi
    }

    /// `DWPlusDW`, accurate version.
    fn add(self, y: Self) -> Self {
        let (sh, sl) = two_sum(self.hi, y.hi);
        let (th, tl) = two_sum(self.lo, y.lo);
        let c = sl + th;
        let (vh, vl) = fast_two_sum(sh, c);
        let w = tl + vl;
        let (hi, lo) = fast_two_sum(vh, w);
        DoubleDouble { hi, lo }
    }

    fn neg(self) -> Self {
        DoubleDouble {
            hi: -self.hi,
            lo: -self.lo,
        }
    }

    /// `DWTimesDW` with FMA.
    fn mul(self, y: Self) -> Self {
        let (ch, cl1) = two_prod(self.hi, y.hi);
        let tl0 = self.lo * y.lo;
        let tl1 = self.hi.mul_add(y.lo, tl0);
        let cl2 = self.lo.mul_add(y.hi, tl1);
        let cl3 = cl1 + cl2;
        let (hi, lo) = fast_two_sum(ch, cl3);
        DoubleDouble { hi, lo }
    }

    /// Division by Newton correction of the double quotient (used only to read out values
    /// whose denominator is 1 in this crate; accurate to about `u^2` otherwise).
    fn div(self, y: Self) -> Self {
        let q1 = self.hi / y.hi;
        let r = self.add(y.mul(DoubleDouble::from_f64(q1)).neg());
        let q2 = r.hi / y.hi;
        let (hi, lo) = fast_two_sum(q1, q2);
        DoubleDouble { hi, lo }
    }

    /// The exact value as a rational.
    ///
    /// # Examples
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use pathology::numeric::dd::DoubleDouble;
    /// use pathology::numeric::number::Probability;
    /// // 1 + 1e-20 is not a double, but it is a double-double, exactly.
    /// let x = DoubleDouble::from_f64(1.0).plus(&DoubleDouble::from_f64(1e-20));
    /// let r = |v: f64| BigRational::from_float(v).unwrap();
    /// assert_eq!(x.to_rational(), r(1.0) + r(1e-20));
    /// ```
    pub fn to_rational(self) -> BigRational {
        let r = |x: f64| BigRational::from_float(x).expect("finite");
        r(self.hi) + r(self.lo)
    }
}

impl PartialEq for DoubleDouble {
    fn eq(&self, other: &Self) -> bool {
        self.partial_cmp(other) == Some(Ordering::Equal)
    }
}

impl PartialOrd for DoubleDouble {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        let d = DoubleDouble::add(*self, other.neg());
        d.hi.partial_cmp(&0.0).map(|o| {
            if o == Ordering::Equal {
                d.lo.partial_cmp(&0.0).unwrap_or(o)
            } else {
                o
            }
        })
    }
}

impl Scaled for DoubleDouble {
    fn zero_value() -> Self {
        DoubleDouble::default()
    }
    fn one_value() -> Self {
        DoubleDouble::from_f64(1.0)
    }
    fn add(&self, other: &Self) -> Self {
        DoubleDouble::add(*self, *other)
    }
    fn sub(&self, other: &Self) -> Self {
        DoubleDouble::add(*self, other.neg())
    }
    fn mul(&self, other: &Self) -> Self {
        DoubleDouble::mul(*self, *other)
    }
    fn add_product(&mut self, a: &Self, b: &Self) {
        *self = DoubleDouble::add(*self, DoubleDouble::mul(*a, *b));
    }
    fn is_zero_value(&self) -> bool {
        self.hi == 0.0 && self.lo == 0.0
    }
    const UNIT_ROUNDOFF: f64 = UNIT_ROUNDOFF;
    fn convolve_with_bound(
        a: &[Self],
        b: &[Self],
        _method: crate::numeric::fft::ConvolutionMethod,
    ) -> (Vec<Self>, f64) {
        // Direct: each output is a sequential sum of at most k products (gamma(k) relative).
        let out = crate::numeric::number::direct_convolution(a, b);
        let norm = |v: &[Self]| v.iter().map(|x| x.hi.abs()).sum::<f64>() * (1.0 + 1e-12);
        let k = a.len().min(b.len()) as f64;
        let gamma = k * UNIT_ROUNDOFF / (1.0 - k * UNIT_ROUNDOFF);
        let slack = (a.len() + b.len()) as f64 * 1e-290;
        (out, gamma * norm(a) * norm(b) * (1.0 + 1e-12) + slack)
    }
}

impl Probability for DoubleDouble {
    type Scaled = DoubleDouble;
    const EXACT: bool = false;
    fn from_rational(value: &BigRational) -> Self {
        let hi = rational_to_f64(value);
        let rest = value - BigRational::from_float(hi).expect("finite");
        DoubleDouble {
            hi,
            lo: rational_to_f64(&rest),
        }
    }
    fn common_scale(values: &[Self]) -> (Vec<Self>, Self) {
        (values.to_vec(), DoubleDouble::from_f64(1.0))
    }
    fn from_scaled(numerator: &Self, denominator: &Self) -> Self {
        if denominator.hi == 1.0 && denominator.lo == 0.0 {
            *numerator
        } else {
            numerator.div(*denominator)
        }
    }
    fn to_f64(&self) -> f64 {
        self.hi + self.lo
    }
    fn exact_value(&self) -> Option<BigRational> {
        None
    }
    fn to_decimal(&self, places: usize) -> String {
        crate::numeric::number::format_decimal(&self.to_rational(), places)
    }
    fn impossible() -> Self {
        DoubleDouble::default()
    }
    fn certain() -> Self {
        DoubleDouble::from_f64(1.0)
    }
    fn plus(&self, other: &Self) -> Self {
        DoubleDouble::add(*self, *other)
    }
    fn minus(&self, other: &Self) -> Self {
        DoubleDouble::add(*self, other.neg())
    }
    fn times(&self, other: &Self) -> Self {
        DoubleDouble::mul(*self, *other)
    }
    fn divided_by(&self, other: &Self) -> Self {
        self.div(*other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;
    use num_traits::Signed;
    use proptest::prelude::*;

    fn relative_error(computed: DoubleDouble, exact: &BigRational) -> f64 {
        if *exact == BigRational::from_integer(0.into()) {
            return computed.to_f64().abs();
        }
        ((computed.to_rational() - exact) / exact).abs().to_f64()
    }

    #[test]
    fn carries_about_106_bits() {
        let tenth = DoubleDouble::from_rational(&parse_rational("0.1").unwrap());
        let err = relative_error(tenth, &parse_rational("0.1").unwrap());
        assert!(err < 2.0 * U * U, "{err:e}");
        let third = DoubleDouble::from_f64(1.0).div(DoubleDouble::from_f64(3.0));
        assert!(relative_error(third, &parse_rational("1/3").unwrap()) < 1e-31);
    }

    proptest! {
        #[test]
        fn operations_meet_the_standard_model(
            a in 1e-8f64..1.0, b in 1e-8f64..1.0, c in -1e-17f64..1e-17, d in -1e-17f64..1e-17,
        ) {
            let x = DoubleDouble { hi: a, lo: c * a };
            let y = DoubleDouble { hi: b, lo: d * b };
            let (xr, yr) = (x.to_rational(), y.to_rational());
            prop_assert!(relative_error(x.add(y), &(&xr + &yr)) <= UNIT_ROUNDOFF);
            prop_assert!(relative_error(x.add(y.neg()), &(&xr - &yr)) <= UNIT_ROUNDOFF);
            prop_assert!(relative_error(x.mul(y), &(&xr * &yr)) <= UNIT_ROUNDOFF);
        }
    }
}
