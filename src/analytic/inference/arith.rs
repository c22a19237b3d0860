//! The two number systems of the inference calculators, behind one trait: exact integers
//! over one common denominator (the numbers of a whole computation are homogeneous
//! polynomials of the inputs, so the denominator is tracked as a power and no fraction is
//! reduced until the end), and `f64` enclosures (outward-rounded intervals, so every printed
//! value comes with a rigorous bound).

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::analytic::distributions::Bounded;
use crate::numeric::enclosure::{Enclosure, Ring};
use crate::numeric::number::{Probability, Scaled};

/// The arithmetic of the engines: exact scaled integers ([`BigInt`]) or enclosures. The
/// ring operations (`zero_value`, `add`, `sub`, `mul`, `power`) are the numeric layer's
/// [`Scaled`] (its fast products for long integers, its outward-rounded enclosures); this
/// trait adds only how inputs are scaled and how a result becomes a [`Value`].
pub(crate) trait Arith: Scaled {
    /// `values` over one common scale: exact, the numerators over the least common multiple
    /// of the denominators (returned second); `f64`, enclosures over 1.
    fn scale(values: &[BigRational]) -> (Vec<Self>, Self);
    /// `numerator / denominator` (positive denominator) as a [`Value`].
    fn value(numerator: &Self, denominator: &Self) -> Value;
}

impl Arith for BigInt {
    fn scale(values: &[BigRational]) -> (Vec<Self>, Self) {
        let denominator = values
            .iter()
            .fold(BigInt::one(), |acc, v| acc.lcm(v.denom()));
        let numerators = values
            .iter()
            .map(|v| v.numer() * (&denominator / v.denom()))
            .collect();
        (numerators, denominator)
    }
    fn value(numerator: &Self, denominator: &Self) -> Value {
        Value::Exact(numerator.clone(), denominator.clone())
    }
}

impl Arith for Enclosure {
    fn scale(values: &[BigRational]) -> (Vec<Self>, Self) {
        (
            values.iter().map(Enclosure::of).collect(),
            Enclosure::point(1.0),
        )
    }
    fn value(numerator: &Self, denominator: &Self) -> Value {
        Value::Float(crate::analytic::distributions::divide(
            *numerator,
            *denominator,
        ))
    }
}

/// A computed probability: an exact fraction (not yet reduced) or an enclosure.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    /// `numerator / denominator`, denominator positive.
    Exact(BigInt, BigInt),
    /// An interval holding the exact value.
    Float(Enclosure),
    /// An exact fraction already in lowest terms (never reduced again: a gcd of values of
    /// millions of bits costs minutes).
    Reduced(BigRational),
}

impl Value {
    /// The rational `r` in the mode of `exact`.
    pub(crate) fn of(r: &BigRational, exact: bool) -> Value {
        if exact {
            Value::Exact(r.numer().clone(), r.denom().clone())
        } else {
            Value::Float(Enclosure::of(r))
        }
    }

    fn pair(&self, other: &Value) -> (Value, Value) {
        let float = |v: &Value| match v {
            Value::Exact(n, d) => {
                Value::Float(Enclosure::of(&BigRational::new(n.clone(), d.clone())))
            }
            Value::Reduced(r) => Value::Float(Enclosure::of(r)),
            Value::Float(e) => Value::Float(*e),
        };
        let parts = |v: &Value| match v {
            Value::Reduced(r) => Value::Exact(r.numer().clone(), r.denom().clone()),
            other => other.clone(),
        };
        match (parts(self), parts(other)) {
            (a @ Value::Exact(..), b @ Value::Exact(..)) => (a, b),
            _ => (float(self), float(other)),
        }
    }

    /// `self + other`.
    pub(crate) fn add(&self, other: &Value) -> Value {
        match self.pair(other) {
            (Value::Exact(a, b), Value::Exact(c, d)) => {
                if b == d {
                    Value::Exact(a + c, b)
                } else {
                    Value::Exact(a * &d + c * &b, b * d)
                }
            }
            (Value::Float(a), Value::Float(b)) => Value::Float(Ring::add(&a, &b)),
            _ => unreachable!("one mode"),
        }
    }

    /// `self - other`.
    pub(crate) fn sub(&self, other: &Value) -> Value {
        match self.pair(other) {
            (Value::Exact(a, b), Value::Exact(c, d)) => {
                if b == d {
                    Value::Exact(a - c, b)
                } else {
                    Value::Exact(a * &d - c * &b, b * d)
                }
            }
            (Value::Float(a), Value::Float(b)) => Value::Float(Ring::sub(&a, &b)),
            _ => unreachable!("one mode"),
        }
    }

    /// `self * other`.
    pub(crate) fn mul(&self, other: &Value) -> Value {
        match self.pair(other) {
            (Value::Exact(a, b), Value::Exact(c, d)) => Value::Exact(a * c, b * d),
            (Value::Float(a), Value::Float(b)) => Value::Float(Ring::mul(&a, &b)),
            _ => unreachable!("one mode"),
        }
    }

    /// The exact value (exact mode only), reduced.
    pub(crate) fn exact(&self) -> Option<BigRational> {
        match self {
            Value::Exact(n, d) => Some(<BigRational as Probability>::from_scaled(n, d)),
            Value::Reduced(r) => Some(r.clone()),
            Value::Float(_) => None,
        }
    }

    /// The value in mode `P` with a rigorous bound on its distance to the exact value; an
    /// enclosure is first clamped to `[low, high]` (a tightening: the exact value lies there).
    pub(crate) fn bounded<P: Probability>(&self, low: f64, high: f64) -> Bounded<P> {
        match self {
            Value::Exact(..) | Value::Reduced(..) => {
                let a = self.exact().expect("exact");
                let value = P::from_rational(&a);
                let bound = match value.exact_value() {
                    Some(_) => 0.0,
                    None => {
                        let gap = BigRational::from_float(value.to_f64()).expect("finite") - &a;
                        if gap.is_zero() {
                            0.0
                        } else {
                            Enclosure::of(&gap.abs()).upper
                        }
                    }
                };
                Bounded { value, bound }
            }
            Value::Float(e) => {
                let lower = e.lower.clamp(low, high);
                let upper = e.upper.clamp(low, high);
                let value = lower + (upper - lower) / 2.0;
                let radius = Enclosure { lower, upper }.radius_around(value);
                let exact = BigRational::from_float(value).expect("finite");
                Bounded {
                    value: P::from_rational(&exact),
                    bound: if upper == lower { 0.0 } else { radius },
                }
            }
        }
    }
}

/// Whether `a` is larger than `b`: exactly, or (enclosures) certainly, its whole interval
/// above `b`'s, so that values equal in exact arithmetic never count as larger in `f64`.
pub(crate) fn larger(a: &Value, b: &Value) -> bool {
    match (a.exact(), b.exact()) {
        (Some(x), Some(y)) => x > y,
        _ => match a.pair(b) {
            (Value::Float(x), Value::Float(y)) => x.lower > y.upper,
            _ => unreachable!("one mode"),
        },
    }
}

/// `log2` of a positive integer (for cost estimates).
pub(crate) fn bits(x: &BigInt) -> f64 {
    x.bits().max(1) as f64
}

/// `x` as an `f64` (for cost estimates).
pub(crate) fn approx(x: &BigRational) -> f64 {
    ToPrimitive::to_f64(x).unwrap_or(f64::MAX)
}

/// `sum_i w_i x_i`, exactly, or in `f64` with a rigorous bound (each `x_i` within its bound
/// of its value, the sum in outward-rounded enclosures, clamped to [0, 1]).
pub(crate) fn weighted<P: Probability>(parts: &[(BigRational, &Bounded<P>)]) -> Bounded<P> {
    if P::EXACT {
        let mut sum = BigRational::zero();
        for (w, x) in parts {
            sum += w * x.value.exact_value().expect("exact mode");
        }
        return Bounded {
            value: P::from_rational(&sum),
            bound: 0.0,
        };
    }
    let mut sum = Enclosure::point(0.0);
    for (w, x) in parts {
        let enclosed = if x.bound == 0.0 {
            Enclosure::point(x.value.to_f64())
        } else {
            Enclosure::around(x.value.to_f64(), x.bound)
        };
        sum = Ring::add(&sum, &Ring::mul(&Enclosure::of(w), &enclosed));
    }
    Value::Float(sum).bounded(0.0, 1.0)
}
