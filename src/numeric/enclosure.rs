//! Rigorous enclosures of the gamma/delta map evaluated in `f64`.
//!
//! An [`Enclosure`] is an interval `[lower, upper]` of doubles; its arithmetic rounds outward
//! (every result end is moved one double away from the interval with `next_down`/`next_up`,
//! which covers the half-unit error of a rounded-to-nearest operation), so the exact value of
//! any polynomial of enclosed numbers lies in the enclosure computed for it. The map of
//! formulas (3)-(4) (and its Min-to-Min dual) is written once over the [`Ring`] trait and run
//! in exact rationals, in `f64` and in enclosures, so the printed error bound of an `f64`
//! trajectory ([`crate::analytic::errprop::enclosed_trajectory`]) bounds the very formulas it computes.

use num_rational::BigRational;

use crate::numeric::number::{Probability, rational_to_f64};

/// The arithmetic the gamma/delta map needs: one, sum, difference, product.
pub trait Ring: Clone {
    /// The number 1.
    fn one() -> Self;
    /// `self + other`.
    fn add(&self, other: &Self) -> Self;
    /// `self - other`.
    fn sub(&self, other: &Self) -> Self;
    /// `self * other`.
    fn mul(&self, other: &Self) -> Self;
}

impl<P: Probability> Ring for P {
    fn one() -> Self {
        P::certain()
    }
    fn add(&self, other: &Self) -> Self {
        self.plus(other)
    }
    fn sub(&self, other: &Self) -> Self {
        self.minus(other)
    }
    fn mul(&self, other: &Self) -> Self {
        self.times(other)
    }
}

/// An interval of doubles that contains an exact real number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Enclosure {
    /// A lower bound.
    pub lower: f64,
    /// An upper bound.
    pub upper: f64,
}

impl Enclosure {
    /// The tightest enclosure of an exact rational by doubles.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::numeric::enclosure::Enclosure;
    /// use pathology::numeric::number::parse_rational;
    /// let tenth = Enclosure::of(&parse_rational("0.1").unwrap());
    /// assert!(tenth.lower < 0.1 || tenth.upper > 0.1);
    /// assert!(tenth.lower <= 0.1 && 0.1 <= tenth.upper);
    /// assert_eq!(Enclosure::of(&parse_rational("0.5").unwrap()), Enclosure { lower: 0.5, upper: 0.5 });
    /// ```
    pub fn of(value: &BigRational) -> Self {
        let x = rational_to_f64(value);
        let exact = |y: f64| BigRational::from_float(y).expect("a finite double");
        let (mut lower, mut upper) = (x, x);
        while exact(lower) > *value {
            lower = lower.next_down();
        }
        while exact(upper) < *value {
            upper = upper.next_up();
        }
        Enclosure { lower, upper }
    }

    /// The largest distance from `value` to an end: a bound on `|exact - value|` for the
    /// exact number enclosed, rounded up.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::numeric::enclosure::Enclosure;
    /// let e = Enclosure { lower: 0.25, upper: 0.5 };
    /// assert!(e.radius_around(0.25) >= 0.25);
    /// ```
    pub fn radius_around(&self, value: f64) -> f64 {
        let below = (value - self.lower).abs().next_up();
        let above = (self.upper - value).abs().next_up();
        below.max(above)
    }

    /// The degenerate interval `[x, x]` (a double is an exact rational).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::numeric::enclosure::Enclosure;
    /// assert_eq!(Enclosure::point(0.25), Enclosure { lower: 0.25, upper: 0.25 });
    /// ```
    pub fn point(x: f64) -> Self {
        Enclosure { lower: x, upper: x }
    }

    /// An interval containing `[center - radius, center + radius]` (ends rounded outward).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::numeric::enclosure::Enclosure;
    /// let e = Enclosure::around(0.1, 1e-3);
    /// assert!(e.lower <= 0.1 - 1e-3 && e.upper >= 0.1 + 1e-3);
    /// ```
    pub fn around(center: f64, radius: f64) -> Self {
        Enclosure::outward(center - radius, center + radius)
    }

    /// Whether `self` lies in the interior of `other`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::numeric::enclosure::Enclosure;
    /// assert!(Enclosure::point(0.5).inside(&Enclosure::around(0.5, 0.1)));
    /// assert!(!Enclosure::around(0.5, 0.1).inside(&Enclosure::around(0.5, 0.1)));
    /// ```
    pub fn inside(&self, other: &Enclosure) -> bool {
        other.lower < self.lower && self.upper < other.upper
    }

    fn outward(lower: f64, upper: f64) -> Self {
        Enclosure {
            lower: lower.next_down(),
            upper: upper.next_up(),
        }
    }
}

impl Ring for Enclosure {
    fn one() -> Self {
        Enclosure {
            lower: 1.0,
            upper: 1.0,
        }
    }
    fn add(&self, other: &Self) -> Self {
        Enclosure::outward(self.lower + other.lower, self.upper + other.upper)
    }
    fn sub(&self, other: &Self) -> Self {
        Enclosure::outward(self.lower - other.upper, self.upper - other.lower)
    }
    fn mul(&self, other: &Self) -> Self {
        let products = [
            self.lower * other.lower,
            self.lower * other.upper,
            self.upper * other.lower,
            self.upper * other.upper,
        ];
        let lower = products.iter().copied().fold(f64::INFINITY, f64::min);
        let upper = products.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Enclosure::outward(lower, upper)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;

    #[test]
    fn products_and_differences_enclose_the_exact_result() {
        let q = |s: &str| parse_rational(s).unwrap();
        let (a, b) = (q("0.1"), q("0.7"));
        let (x, y) = (Enclosure::of(&a), Enclosure::of(&b));
        let exact = &a * &b - (&a + &b);
        let enclosed = x.mul(&y).sub(&x.add(&y));
        assert!(BigRational::from_float(enclosed.lower).unwrap() <= exact);
        assert!(BigRational::from_float(enclosed.upper).unwrap() >= exact);
        assert!(enclosed.upper - enclosed.lower < 1e-15);
    }
}
