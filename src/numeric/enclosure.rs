//! Rigorous enclosures of the gamma/delta map evaluated in `f64`.
//!
//! An [`Enclosure`] is an interval `[lower, upper]` of doubles; its arithmetic rounds outward
//! (every result end is moved one double away from the interval with `next_down`/`next_up`,
//! which covers the half-unit error of a rounded-to-nearest operation), so the exact value of
//! any polynomial of enclosed numbers lies in the enclosure computed for it. An end whose
//! operation was exact (its rounding error, found by an error-free transformation, is 0) is
//! kept: `0 * x`, `1 - 1` and `1 - 0` stay the points 0 and 1, so a true 0 or 1 is printed
//! as 0 or 1 with no bound, not as the smallest double beside it. The map of
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

/// The smallest magnitude of a product above which it is in the normal range whatever its
/// factors: about 2^-960, well above the 2^-1022 where doubles lose significand bits.
const EXACT_ERROR_MIN: f64 = 1e-289;

/// Whether the double `s`, the sum `a + b` rounded to nearest, is the exact sum: Knuth's
/// TwoSum error `(a + b) - s`, itself exact, is 0 (an overflow never is).
pub(crate) fn sum_is_exact(a: f64, b: f64, s: f64) -> bool {
    if !s.is_finite() {
        return false;
    }
    let b_part = s - a;
    let error = (a - (s - b_part)) + (b - b_part);
    error == 0.0
}

/// Whether the double `p`, the product `a b` rounded to nearest, is the exact product: a
/// factor is 0, or (away from underflow and overflow) the product of the factors' odd
/// significands fits the 53 bits of a double's (integer arithmetic: cheaper than a fused
/// multiply-add, which is a library call on the baseline x86-64).
pub(crate) fn product_is_exact(a: f64, b: f64, p: f64) -> bool {
    if (a == 0.0 && b.is_finite()) || (b == 0.0 && a.is_finite()) {
        return true;
    }
    p.is_finite()
        && p.abs() >= EXACT_ERROR_MIN
        && u128::from(odd_significand(a)) * u128::from(odd_significand(b)) < 1u128 << 53
}

/// Whether the double `q`, the quotient `a / b` rounded to nearest, is exact: `a` is 0, or
/// `q b` is exactly `a`.
pub(crate) fn quotient_is_exact(a: f64, b: f64, q: f64) -> bool {
    if a == 0.0 && b != 0.0 && b.is_finite() {
        return true;
    }
    let back = q * b;
    q != 0.0 && product_is_exact(q, b, back) && back == a
}

/// The odd integer `m` with `x = m 2^e` for a finite nonzero double `x`.
fn odd_significand(x: f64) -> u64 {
    let bits = x.to_bits();
    let fraction = bits & ((1u64 << 52) - 1);
    let significand = if (bits >> 52) & 0x7ff == 0 {
        fraction
    } else {
        fraction | 1u64 << 52
    };
    significand >> significand.trailing_zeros()
}

/// `x` as a lower end: itself when exact, else the double below.
pub(crate) fn down(x: f64, exact: bool) -> f64 {
    if exact { x } else { x.next_down() }
}

/// `x` as an upper end: itself when exact, else the double above.
pub(crate) fn up(x: f64, exact: bool) -> f64 {
    if exact { x } else { x.next_up() }
}

impl Ring for Enclosure {
    fn one() -> Self {
        Enclosure {
            lower: 1.0,
            upper: 1.0,
        }
    }
    fn add(&self, other: &Self) -> Self {
        let (lower, upper) = (self.lower + other.lower, self.upper + other.upper);
        Enclosure {
            lower: down(lower, sum_is_exact(self.lower, other.lower, lower)),
            upper: up(upper, sum_is_exact(self.upper, other.upper, upper)),
        }
    }
    fn sub(&self, other: &Self) -> Self {
        let (lower, upper) = (self.lower - other.upper, self.upper - other.lower);
        Enclosure {
            lower: down(lower, sum_is_exact(self.lower, -other.upper, lower)),
            upper: up(upper, sum_is_exact(self.upper, -other.lower, upper)),
        }
    }
    fn mul(&self, other: &Self) -> Self {
        let mut lower = f64::INFINITY;
        let mut upper = f64::NEG_INFINITY;
        for (a, b) in [
            (self.lower, other.lower),
            (self.lower, other.upper),
            (self.upper, other.lower),
            (self.upper, other.upper),
        ] {
            let p = a * b;
            let exact = product_is_exact(a, b, p);
            lower = lower.min(down(p, exact));
            upper = upper.max(up(p, exact));
        }
        Enclosure { lower, upper }
    }
}

/// Enclosures as the scaled ring of the hot loops (every denominator 1): sums, differences
/// and products round outward, so the exact result of the same operations on the enclosed
/// numbers lies in the result. Their rounding is inside the interval: the ring's own
/// rounding bound (`UNIT_ROUNDOFF`) is 0.
impl crate::numeric::number::Scaled for Enclosure {
    fn zero_value() -> Self {
        Enclosure::point(0.0)
    }
    fn one_value() -> Self {
        Enclosure::point(1.0)
    }
    fn add(&self, other: &Self) -> Self {
        Ring::add(self, other)
    }
    fn sub(&self, other: &Self) -> Self {
        Ring::sub(self, other)
    }
    fn mul(&self, other: &Self) -> Self {
        Ring::mul(self, other)
    }
    fn add_product(&mut self, a: &Self, b: &Self) {
        *self = Ring::add(self, &Ring::mul(a, b));
    }
    fn is_zero_value(&self) -> bool {
        self.lower == 0.0 && self.upper == 0.0
    }
}

/// A probability `p` enclosed twice: as `p` and as its complement `1 - p`, each an
/// [`Enclosure`] of doubles.
///
/// A probability near 1 loses its distance to 1 in one enclosure (`1 - 1e-20` is the double
/// 1); its complement keeps it to full relative precision. Powers `p^n` are the laws of
/// maxima (the CDF of the largest of n independent values is `F^n`), and `p^n` of an
/// enclosure `[1 - k u, 1]` is `[1 - n k u, 1]`: after a few levels of a tree the bound is
/// useless although the exact values are harmless. Here the complement of `p^n` is computed
/// from the complement of `p` by a recurrence of sums and products of non-negative numbers
/// (no cancellation), each end on its own (the recurrence is monotone), so its relative error
/// grows by a few units of roundoff per doubling of n, and the two enclosures tighten each
/// other after every operation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TwoSided {
    /// An enclosure of `p`.
    pub value: Enclosure,
    /// An enclosure of `1 - p`.
    pub complement: Enclosure,
}

impl TwoSided {
    /// The tightest enclosures of an exact probability and of its complement.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::numeric::enclosure::TwoSided;
    /// use pathology::numeric::number::parse_rational;
    /// let p = TwoSided::of(&parse_rational("0.6").unwrap());
    /// assert!(p.value.lower <= 0.6 && 0.6 <= p.value.upper);
    /// assert!(p.complement.lower <= 0.4 && 0.4 <= p.complement.upper);
    /// ```
    pub fn of(value: &BigRational) -> Self {
        let one = BigRational::from_integer(1.into());
        TwoSided {
            value: Enclosure::of(value),
            complement: Enclosure::of(&(one - value)),
        }
        .tightened()
    }

    /// Each side intersected with `[0, 1]` and with one minus the other side (both hold the
    /// exact numbers, so the intersections do too).
    fn tightened(self) -> Self {
        let one = <Enclosure as Ring>::one();
        let meet = |a: Enclosure, b: Enclosure| {
            let lower = a.lower.max(b.lower).max(0.0);
            let upper = a.upper.min(b.upper).min(1.0);
            if lower <= upper {
                Enclosure { lower, upper }
            } else {
                // Unreachable for enclosures of one number; keep the first unchanged.
                a
            }
        };
        let value = meet(self.value, one.sub(&self.complement));
        let complement = meet(self.complement, one.sub(&value));
        TwoSided { value, complement }
    }

    /// The convex combination `w x + (1 - w) y` with `weight` an enclosure of `w` and
    /// `rest` one of `1 - w` (both sides: no cancellation).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::numeric::enclosure::{Enclosure, TwoSided};
    /// use pathology::numeric::number::parse_rational;
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let m = TwoSided::mix(
    ///     &Enclosure::of(&q("0.6")),
    ///     &TwoSided::of(&q("1")),
    ///     &Enclosure::of(&q("0.4")),
    ///     &TwoSided::of(&q("1")),
    /// );
    /// // The exact value is 1: its complement stays within the smallest double of 0, although
    /// // the enclosures of 0.6 and 0.4 do not sum to exactly 1.
    /// assert!(m.complement.lower == 0.0 && m.complement.upper < 1e-300);
    /// ```
    pub fn mix(weight: &Enclosure, x: &TwoSided, rest: &Enclosure, y: &TwoSided) -> Self {
        TwoSided {
            value: weight.mul(&x.value).add(&rest.mul(&y.value)),
            complement: weight.mul(&x.complement).add(&rest.mul(&y.complement)),
        }
        .tightened()
    }

    /// `p^n`: the value side by outward-rounded products, the complement `1 - (1 - c)^n` by
    /// the doubling recurrence `S(2k) = S(k) (2 - S(k))`, `S(k + 1) = c + S(k) (1 - c)`,
    /// run from each end of the complement's enclosure (the recurrence is increasing in `c`).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::numeric::enclosure::TwoSided;
    /// use pathology::numeric::number::parse_rational;
    /// // (1 - 2^-60)^(2^40): its complement, 2^-20 - 2^-41 + ..., is known to 12 digits;
    /// // the plain power of the value's enclosure [1 - 2^-53, 1] knows nothing of it.
    /// let p = TwoSided::of(&parse_rational("1152921504606846975/1152921504606846976").unwrap());
    /// let c = p.power(1 << 40).complement;
    /// let first_terms = 2f64.powi(-20) - 2f64.powi(-41);
    /// assert!((c.lower - first_terms).abs() < 1e-12 * first_terms);
    /// assert!(c.upper - c.lower < 1e-12 * c.upper);
    /// ```
    pub fn power(&self, n: u64) -> Self {
        if n == 0 {
            return TwoSided {
                value: Enclosure::point(1.0),
                complement: Enclosure::point(0.0),
            };
        }
        let mut value = Enclosure::point(1.0);
        let mut base = self.value;
        let mut k = n;
        while k > 0 {
            if k & 1 == 1 {
                value = value.mul(&base);
            }
            k >>= 1;
            if k > 0 {
                base = base.mul(&base);
            }
        }
        let complement = Enclosure {
            lower: complement_power(self.complement.lower, n).lower,
            upper: complement_power(self.complement.upper, n).upper,
        };
        TwoSided { value, complement }.tightened()
    }

    /// An enclosure of `p - below` for `below <= p` (a probability mass between two values of
    /// a CDF): the tighter of the two sides' differences, at least 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::numeric::enclosure::TwoSided;
    /// use pathology::numeric::number::parse_rational;
    /// let q = |s: &str| TwoSided::of(&parse_rational(s).unwrap());
    /// let mass = q("1").minus(&q("0.999999999999999999"));
    /// assert!(mass.lower <= 1e-18 && 1e-18 <= mass.upper && mass.upper < 1.001e-18);
    /// ```
    pub fn minus(&self, below: &TwoSided) -> Enclosure {
        let by_value = self.value.sub(&below.value);
        let by_complement = below.complement.sub(&self.complement);
        Enclosure {
            lower: by_value.lower.max(by_complement.lower).max(0.0),
            upper: by_value.upper.min(by_complement.upper).max(0.0),
        }
    }
}

/// An enclosure of `1 - (1 - c)^n` for the double `c` in `[0, 1]` (module docs of
/// [`TwoSided::power`]).
fn complement_power(c: f64, n: u64) -> Enclosure {
    let c = Enclosure::point(c.clamp(0.0, 1.0));
    let one = <Enclosure as Ring>::one();
    let two = Enclosure::point(2.0);
    let rest = one.sub(&c);
    let unit = |e: Enclosure| Enclosure {
        lower: e.lower.clamp(0.0, 1.0),
        upper: e.upper.clamp(0.0, 1.0),
    };
    let mut s = c;
    for bit in (0..63 - n.leading_zeros()).rev() {
        s = unit(s.mul(&two.sub(&s)));
        if (n >> bit) & 1 == 1 {
            s = unit(c.add(&s.mul(&rest)));
        }
    }
    s
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

    /// A true 0 or 1 stays the point 0 or 1 through exact operations (it was widened to
    /// the smallest doubles beside it, printed as 4.9e-324), and an inexact result is
    /// still rounded outward.
    #[test]
    fn exact_operations_keep_their_points() {
        let (zero, one) = (Enclosure::point(0.0), Enclosure::point(1.0));
        let tenth = Enclosure::of(&parse_rational("0.1").unwrap());
        assert_eq!(zero.mul(&tenth), zero);
        assert_eq!(one.sub(&one), zero);
        assert_eq!(one.sub(&zero), one);
        assert_eq!(zero.add(&zero), zero);
        assert_eq!(one.mul(&one), one);
        let half = Enclosure::point(0.5);
        assert_eq!(half.mul(&half), Enclosure::point(0.25));
        let third = Enclosure::point(1.0 / 3.0);
        let product = third.mul(&third);
        assert!(product.lower < product.upper, "{product:?}");
        let sum = third.add(&Enclosure::point(1e-20));
        assert!(sum.lower < sum.upper, "{sum:?}");
        assert!(product_is_exact(3.0, 5.0, 15.0));
        assert!(!product_is_exact(1.0 / 3.0, 3.0, 1.0));
        assert!(quotient_is_exact(1.0, 4.0, 0.25));
        assert!(!quotient_is_exact(1.0, 3.0, 1.0 / 3.0));
        assert!(!product_is_exact(1e-200, 1e-200, 0.0));
    }

    #[test]
    fn two_sided_powers_enclose_the_exact_powers_tightly() {
        let q = |s: &str| parse_rational(s).unwrap();
        for (p, n) in [
            ("0.6", 8u64),
            ("999/1000", 1000),
            ("1/3", 5),
            ("0", 3),
            ("1", 7),
        ] {
            let exact = num_traits::pow(q(p), n as usize);
            let e = TwoSided::of(&q(p)).power(n);
            let inside = |x: &Enclosure, r: &BigRational| {
                BigRational::from_float(x.lower).unwrap() <= *r
                    && BigRational::from_float(x.upper).unwrap() >= *r
            };
            assert!(inside(&e.value, &exact), "{p}^{n}");
            assert!(inside(&e.complement, &(q("1") - &exact)), "1 - {p}^{n}");
            assert!(e.value.upper - e.value.lower < 1e-13, "{p}^{n}: {e:?}");
        }
        // Levels of x -> x^8 from 1 - 2^-70, as a lookahead tree composes them: exact for
        // four levels (denominators are powers of 2), then the widths over twenty levels.
        let start = BigRational::new(
            (num_bigint::BigInt::from(1) << 70u32) - 1,
            num_bigint::BigInt::from(1) << 70u32,
        );
        let mut two = TwoSided::of(&start);
        let mut plain = Enclosure::of(&start);
        for level in 1..=20u32 {
            two = two.power(8);
            let square = plain.mul(&plain);
            let fourth = square.mul(&square);
            plain = fourth.mul(&fourth);
            if level <= 4 {
                let n = 8usize.pow(level);
                let exact = BigRational::new_raw(
                    num_traits::pow(start.numer().clone(), n),
                    num_traits::pow(start.denom().clone(), n),
                );
                let complement = BigRational::from_integer(1.into()) - exact;
                let c = &two.complement;
                assert!(BigRational::from_float(c.lower).unwrap() <= complement);
                assert!(BigRational::from_float(c.upper).unwrap() >= complement);
            }
            let c = &two.complement;
            assert!(c.upper - c.lower <= 1e-13 * c.upper, "level {level}: {c:?}");
        }
        assert!(plain.upper - plain.lower > 0.1, "{plain:?}");
    }
}
