//! Certified enclosures of `E[q^k] = sum_i w_i x_i^k` for a principal representation whose
//! support is the zero set of a polynomial with rational coefficients, for k too large for the
//! exact moment recurrence.
//!
//! - **Nodes.** The ends 0 and 1 are divided out exactly; the other zeros (simple, in (0, 1))
//!   are isolated by Descartes' rule of signs on dyadic subintervals (the Vincent-Collins-
//!   Akritas bisection: the sign variations of `(x + 1)^d F(1/(x + 1))` count the zeros of F
//!   in (0, 1) exactly when they are 0 or 1), then narrowed by bisection on the exact sign of
//!   the polynomial at dyadic points. All of it in integers.
//! - **Weights.** `w_i = sum_t c_it m_t` with `c_it` the coefficients of the Lagrange
//!   polynomial `prod_{j != i} (x - x_j)/(x_i - x_j)` (of degree below the number of moments
//!   matched), in interval arithmetic on fixed-point integers with directed rounding (lower
//!   ends rounded down, upper ends up), so each interval holds the true weight.
//! - **Powers.** `x^k` by squaring in the same arithmetic (all ends non-negative).
//!
//! The working precision doubles until the enclosure is narrower than asked.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// An interval `[lower, upper] / 2^bits` of fixed-point integers.
#[derive(Debug, Clone, PartialEq)]
struct Fixed {
    lower: BigInt,
    upper: BigInt,
}

/// `floor(a / 2^s)` and `ceil(a / 2^s)`.
fn floor_shift(a: &BigInt, s: u32) -> BigInt {
    a >> s // arithmetic shift: floor for negative numbers too
}

fn ceil_shift(a: &BigInt, s: u32) -> BigInt {
    -((-a) >> s)
}

impl Fixed {
    fn point(value: &BigInt) -> Self {
        Fixed {
            lower: value.clone(),
            upper: value.clone(),
        }
    }

    /// The enclosure of a rational at `bits` bits.
    fn of(value: &BigRational, bits: u32) -> Self {
        let scaled = value * BigRational::from_integer(BigInt::one() << bits);
        Fixed {
            lower: scaled.floor().to_integer(),
            upper: scaled.ceil().to_integer(),
        }
    }

    fn add(&self, other: &Fixed) -> Fixed {
        Fixed {
            lower: &self.lower + &other.lower,
            upper: &self.upper + &other.upper,
        }
    }

    fn sub(&self, other: &Fixed) -> Fixed {
        Fixed {
            lower: &self.lower - &other.upper,
            upper: &self.upper - &other.lower,
        }
    }

    fn mul(&self, other: &Fixed, bits: u32) -> Fixed {
        let products = [
            &self.lower * &other.lower,
            &self.lower * &other.upper,
            &self.upper * &other.lower,
            &self.upper * &other.upper,
        ];
        let low = products.iter().min().expect("four products");
        let high = products.iter().max().expect("four products");
        Fixed {
            lower: floor_shift(low, bits),
            upper: ceil_shift(high, bits),
        }
    }

    /// `self / other` for `other` of one sign (not containing 0); `None` otherwise.
    fn div(&self, other: &Fixed, bits: u32) -> Option<Fixed> {
        if other.lower.sign() != other.upper.sign() || other.lower.is_zero() {
            return None;
        }
        let mut quotients = Vec::with_capacity(4);
        for a in [&self.lower, &self.upper] {
            for b in [&other.lower, &other.upper] {
                let numerator = a << bits;
                quotients.push((numerator.div_floor(b), numerator.div_ceil(b)));
            }
        }
        Some(Fixed {
            lower: quotients.iter().map(|q| q.0.clone()).min()?,
            upper: quotients.iter().map(|q| q.1.clone()).max()?,
        })
    }

    /// `self^k` for `self >= 0`.
    fn power(&self, mut k: u64, bits: u32) -> Fixed {
        let mut result = Fixed::point(&(BigInt::one() << bits));
        let mut base = self.clone();
        while k > 0 {
            if k & 1 == 1 {
                result = result.mul(&base, bits);
            }
            k >>= 1;
            if k > 0 {
                base = base.mul(&base, bits);
            }
        }
        result
    }

    fn clamp(self, low: &BigInt, high: &BigInt) -> Fixed {
        Fixed {
            lower: self.lower.max(low.clone()),
            upper: self.upper.min(high.clone()),
        }
    }
}

/// A dyadic interval `[a / 2^s, b / 2^s]` holding one zero.
#[derive(Debug, Clone)]
struct Root {
    lower: BigInt,
    upper: BigInt,
    scale: u32,
}

/// The sign of `F(u / 2^t)` for integer coefficients `f` (constant first).
fn sign_at(f: &[BigInt], u: &BigInt, t: u32) -> i8 {
    let d = f.len() - 1;
    let mut acc = f[d].clone();
    for (i, coefficient) in f.iter().enumerate().take(d).rev() {
        acc = acc * u + (coefficient << (t as usize * (d - i)));
    }
    match acc.sign() {
        num_bigint::Sign::Minus => -1,
        num_bigint::Sign::NoSign => 0,
        num_bigint::Sign::Plus => 1,
    }
}

/// `F(x + 1)`.
fn taylor_shift(f: &[BigInt]) -> Vec<BigInt> {
    let mut g = f.to_vec();
    let d = g.len();
    for i in 0..d {
        for j in (i..d - 1).rev() {
            let next = g[j + 1].clone();
            g[j] += next;
        }
    }
    g
}

/// The sign variations of `(x + 1)^d F(1/(x + 1))`: an upper bound on the zeros of F in (0,
/// 1) of the same parity.
fn variations(f: &[BigInt]) -> usize {
    let reversed: Vec<BigInt> = f.iter().rev().cloned().collect();
    let g = taylor_shift(&reversed);
    let signs: Vec<bool> = g
        .iter()
        .filter(|c| !c.is_zero())
        .map(|c| c.is_positive())
        .collect();
    signs.windows(2).filter(|w| w[0] != w[1]).count()
}

/// Isolates the zeros of `f` in (0, 1) (`f(0), f(1) != 0`, simple zeros): dyadic intervals
/// (open, each with one zero) and exact dyadic zeros (lower = upper).
fn isolate(f: &[BigInt]) -> Option<Vec<Root>> {
    let mut roots = Vec::new();
    // (c, s, F_{c,s}) with F_{c,s}(x) = 2^(s d) f((c + x)/2^s).
    let mut stack = vec![(BigInt::zero(), 0u32, f.to_vec())];
    let mut steps = 0;
    while let Some((c, s, g)) = stack.pop() {
        steps += 1;
        if steps > 1_000_000 || s > 4000 {
            return None;
        }
        match variations(&g) {
            0 => continue,
            1 => {
                roots.push(Root {
                    lower: c.clone(),
                    upper: &c + 1,
                    scale: s,
                });
                continue;
            }
            _ => {}
        }
        let d = g.len() - 1;
        let left: Vec<BigInt> = g.iter().enumerate().map(|(i, a)| a << (d - i)).collect();
        let mut right = taylor_shift(&left);
        let middle: BigInt = BigInt::from(2) * &c + 1;
        let mut left = left;
        if right[0].is_zero() {
            // The midpoint is a zero: record it and divide it out of both halves.
            roots.push(Root {
                lower: middle.clone(),
                upper: middle.clone(),
                scale: s + 1,
            });
            right.remove(0);
            left = divide_by_x_minus_one(&left);
        }
        stack.push((BigInt::from(2) * &c, s + 1, left));
        stack.push((middle, s + 1, right));
    }
    Some(roots)
}

/// `f(x) / (x - 1)` for `f(1) = 0` (synthetic division).
fn divide_by_x_minus_one(f: &[BigInt]) -> Vec<BigInt> {
    let d = f.len() - 1;
    let mut quotient = vec![BigInt::zero(); d];
    let mut carry = BigInt::zero();
    for (q, coefficient) in quotient.iter_mut().zip(&f[1..]).rev() {
        carry += coefficient;
        *q = carry.clone();
    }
    quotient
}

/// Narrows an isolating interval to width `2^-bits` (at most) by bisection on exact signs;
/// `None` when both ends are zeros of `f` (then the signs inside are not known from them).
fn refine(f: &[BigInt], root: &Root, bits: u32) -> Option<(BigInt, BigInt)> {
    let scale = root.scale.max(bits);
    let shift = scale - root.scale;
    let mut lower = &root.lower << shift;
    let mut upper = &root.upper << shift;
    if lower != upper {
        // The sign of f between the zero and the upper end (the opposite below the zero).
        let upper_sign = match (sign_at(f, &upper, scale), sign_at(f, &lower, scale)) {
            (0, 0) => return None,
            (0, s) => -s,
            (s, _) => s,
        };
        while &upper - &lower > BigInt::one() {
            let middle: BigInt = (&lower + &upper) >> 1;
            let s = sign_at(f, &middle, scale);
            if s == 0 {
                lower = middle.clone();
                upper = middle;
            } else if s == upper_sign {
                upper = middle;
            } else {
                lower = middle;
            }
        }
    }
    // From 2^-scale down to 2^-bits, outward.
    let extra = scale - bits;
    Some((floor_shift(&lower, extra), ceil_shift(&upper, extra)))
}

/// The nodes of the law whose support is the zero set of `polynomial` (rational
/// coefficients, constant first, simple real zeros in [0, 1]) as fixed-point intervals at
/// `bits` bits; `None` when the zeros are not as described.
fn nodes(polynomial: &[BigRational], bits: u32) -> Option<Vec<Fixed>> {
    let common = polynomial
        .iter()
        .fold(BigInt::one(), |acc, c| acc.lcm(c.denom()));
    let mut f: Vec<BigInt> = polynomial
        .iter()
        .map(|c| (c * BigRational::from_integer(common.clone())).to_integer())
        .collect();
    let mut nodes = Vec::new();
    let one = BigInt::one() << bits;
    if f.len() > 1 && f[0].is_zero() {
        f.remove(0);
        nodes.push(Fixed::point(&BigInt::zero()));
    }
    if f.len() > 1 && f.iter().sum::<BigInt>().is_zero() {
        f = divide_by_x_minus_one(&f);
        nodes.push(Fixed::point(&one));
    }
    let degree = f.len() - 1;
    if degree > 0 {
        if f[0].is_zero() || f.iter().sum::<BigInt>().is_zero() {
            return None;
        }
        let roots = isolate(&f)?;
        if roots.len() != degree {
            return None;
        }
        for root in &roots {
            let (lower, upper) = refine(&f, root, bits)?;
            nodes.push(Fixed { lower, upper });
        }
    }
    Some(nodes)
}

/// An enclosure `[lower, upper]` (exact rationals, dyadic) of `E[q^k]` under the law whose
/// support is the zero set of `polynomial` and whose moments `m_0..m_{r-1}` (r = the number
/// of zeros) are `moments`, for each k of `ks`, each narrower than `width`; `None` when the
/// polynomial's zeros are not simple and in [0, 1], or when 8,192 bits do not suffice.
pub(super) fn enclose(
    polynomial: &[BigRational],
    moments: &[BigRational],
    ks: &[u64],
    width: &BigRational,
) -> Option<Vec<(BigRational, BigRational)>> {
    let largest = ks.iter().copied().max().unwrap_or(1).max(1);
    let mut bits = 96 + 2 * (64 - largest.leading_zeros());
    while bits <= 8192 {
        if let Some(result) = enclose_at(polynomial, moments, ks, bits)
            && result.iter().all(|(l, u)| &(u - l) <= width)
        {
            return Some(result);
        }
        bits *= 2;
    }
    None
}

fn enclose_at(
    polynomial: &[BigRational],
    moments: &[BigRational],
    ks: &[u64],
    bits: u32,
) -> Option<Vec<(BigRational, BigRational)>> {
    let x = nodes(polynomial, bits)?;
    let r = x.len();
    if moments.len() < r {
        return None;
    }
    let zero = BigInt::zero();
    let one = BigInt::one() << bits;
    let m: Vec<Fixed> = moments[..r].iter().map(|v| Fixed::of(v, bits)).collect();
    let mut weights = Vec::with_capacity(r);
    for (i, xi) in x.iter().enumerate() {
        // The Lagrange polynomial's numerator prod_{j != i} (x - x_j), constant first.
        let mut numerator = vec![Fixed::point(&one)];
        let mut denominator = Fixed::point(&one);
        for (j, xj) in x.iter().enumerate() {
            if j == i {
                continue;
            }
            let mut next = vec![Fixed::point(&zero); numerator.len() + 1];
            for (t, c) in numerator.iter().enumerate() {
                next[t + 1] = next[t + 1].add(c);
                next[t] = next[t].sub(&c.mul(xj, bits));
            }
            numerator = next;
            denominator = denominator.mul(&xi.sub(xj), bits);
        }
        let mut sum = Fixed::point(&zero);
        for (c, mt) in numerator.iter().zip(&m) {
            sum = sum.add(&c.mul(mt, bits));
        }
        weights.push(sum.div(&denominator, bits)?.clamp(&zero, &one));
    }
    let scale = BigRational::from_integer(one.clone());
    Some(
        ks.iter()
            .map(|&k| {
                let mut total = Fixed::point(&zero);
                for (w, xi) in weights.iter().zip(&x) {
                    total = total.add(&w.mul(&xi.power(k, bits), bits));
                }
                let total = total.clamp(&zero, &one);
                (
                    BigRational::from_integer(total.lower) / &scale,
                    BigRational::from_integer(total.upper) / &scale,
                )
            })
            .collect(),
    )
}
