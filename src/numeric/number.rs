//! The numeric abstraction: one engine, two modes.
//!
//! Every computation in this crate is written once, generic over [`Probability`], and runs
//! either in `f64` (the fast path) or in exact rationals ([`BigRational`], the `--exact` mode).
//!
//! Hot loops never touch `BigRational`: each probability vector is held as *scaled integers*
//! over one common denominator (`numerators / denominator`), so that the inner loops are ring
//! operations only (multiply, add, subtract) with no gcd per operation. The ring is
//! [`Probability::Scaled`]: `BigInt` for the exact mode, and `f64` itself (with denominator
//! `1.0`) for the float mode. A fraction is reduced once, when a final value is read out with
//! [`Probability::from_scaled`].
//!
//! Inputs are parsed by [`parse_rational`] straight into rationals: `0.1` is `1/10`, never the
//! binary double nearest to it. Printed decimals of exact values come from
//! [`format_decimal`], which rounds the exact value correctly (to nearest, ties away from zero,
//! as printed tables conventionally do).

use std::fmt::Debug;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// A commutative ring of scaled integers: the arithmetic of the hot loops.
///
/// For the exact mode this is `BigInt`; for the float mode it is `f64` with every
/// denominator equal to `1.0`.
pub trait Scaled: Clone + Debug + Send + Sync + 'static {
    /// The additive identity.
    fn zero_value() -> Self;
    /// The multiplicative identity.
    fn one_value() -> Self;
    /// `self + other`.
    fn add(&self, other: &Self) -> Self;
    /// `self - other`.
    fn sub(&self, other: &Self) -> Self;
    /// `self * other`.
    fn mul(&self, other: &Self) -> Self;
    /// `self += a * b`.
    fn add_product(&mut self, a: &Self, b: &Self);
    /// Whether the value is exactly zero.
    fn is_zero_value(&self) -> bool;
    /// `self^n` by repeated squaring (`BigInt`: the fast products of [`Scaled::mul`]).
    fn power(&self, n: u64) -> Self {
        let mut result = Self::one_value();
        let mut base = self.clone();
        let mut n = n;
        while n > 0 {
            if n & 1 == 1 {
                result = result.mul(&base);
            }
            n >>= 1;
            if n > 0 {
                base = base.mul(&base);
            }
        }
        result
    }
    /// The full (acyclic) convolution `c[k] = sum_j a[j] * b[k - j]` of two non-empty vectors
    /// of non-negative values.
    ///
    /// The default is the direct quadratic loop; `BigInt` overrides it with a single big
    /// multiplication (Kronecker substitution).
    fn convolve(a: &[Self], b: &[Self]) -> Vec<Self> {
        direct_convolution(a, b)
    }
    /// The two convolutions of one psi level ([`crate::analytic::dgame`], Li & Marsland Section 6.1):
    /// `(conv(f, same f + mixed o), conv(o, o))` for vectors `f`, `o` of equal length and
    /// non-negative values and weights, each with its rounding bound as in
    /// [`Scaled::convolve_with_bound`].
    ///
    /// The default runs the two convolutions in parallel; `BigInt` transforms `f` and `o`
    /// once and forms both products pointwise ([`crate::numeric::ntt`]) when they are long.
    fn convolve_pair_with_bound(
        favoured: &[Self],
        other: &[Self],
        same: &Self,
        mixed: &Self,
        method: crate::numeric::fft::ConvolutionMethod,
    ) -> ((Vec<Self>, f64), (Vec<Self>, f64)) {
        separate_convolution_pair(favoured, other, same, mixed, method)
    }
    /// The unit roundoff of the ring's arithmetic: `2^-53` for `f64`, 0 for exact rings.
    const UNIT_ROUNDOFF: f64 = 0.0;
    /// Entries per rayon task in entrywise loops over long vectors (the minimax back-up and
    /// D(d,h) of [`crate::analytic::dgame`]), or `None` to run them in order on one thread (`f64`,
    /// whose sums must keep their order to stay byte-identical).
    const PARALLEL_GRAIN: Option<usize> = None;
    /// [`Scaled::convolve`] with a rigorous bound on the L1 norm of its rounding error against
    /// the exact convolution of the same inputs (0 for exact rings). `f64` follows `method`
    /// ([`crate::numeric::fft`]); exact rings ignore it.
    fn convolve_with_bound(
        a: &[Self],
        b: &[Self],
        method: crate::numeric::fft::ConvolutionMethod,
    ) -> (Vec<Self>, f64) {
        let _ = method;
        (Self::convolve(a, b), 0.0)
    }
}

/// The direct quadratic convolution, shared by the ring implementations and the tests.
///
/// # Examples
///
/// ```
/// use num_bigint::BigInt;
/// use pathology::numeric::number::direct_convolution;
/// let a: Vec<BigInt> = vec![1.into(), 1.into()];
/// let c = direct_convolution(&a, &a);
/// assert_eq!(c, vec![BigInt::from(1), BigInt::from(2), BigInt::from(1)]); // (1 + x)^2
/// assert!(direct_convolution::<f64>(&[], &[1.0]).is_empty());
/// ```
pub fn direct_convolution<S: Scaled>(a: &[S], b: &[S]) -> Vec<S> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut out = vec![S::zero_value(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if x.is_zero_value() {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            out[i + j].add_product(x, y);
        }
    }
    out
}

/// [`Scaled::convolve_pair_with_bound`] by two separate convolutions, run in parallel.
fn separate_convolution_pair<S: Scaled>(
    favoured: &[S],
    other: &[S],
    same: &S,
    mixed: &S,
    method: crate::numeric::fft::ConvolutionMethod,
) -> ((Vec<S>, f64), (Vec<S>, f64)) {
    let mix: Vec<S> = favoured
        .iter()
        .zip(other)
        .map(|(f, o)| {
            let mut acc = f.mul(same);
            acc.add_product(o, mixed);
            acc
        })
        .collect();
    rayon::join(
        || S::convolve_with_bound(favoured, &mix, method),
        || S::convolve_with_bound(other, other, method),
    )
}

impl Scaled for f64 {
    fn zero_value() -> Self {
        0.0
    }
    fn one_value() -> Self {
        1.0
    }
    fn add(&self, other: &Self) -> Self {
        self + other
    }
    fn sub(&self, other: &Self) -> Self {
        self - other
    }
    fn mul(&self, other: &Self) -> Self {
        self * other
    }
    fn add_product(&mut self, a: &Self, b: &Self) {
        *self += a * b;
    }
    fn is_zero_value(&self) -> bool {
        *self == 0.0
    }
    fn convolve(a: &[Self], b: &[Self]) -> Vec<Self> {
        crate::numeric::fft::convolve_with(a, b, crate::numeric::fft::ConvolutionMethod::Auto).0
    }
    const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;
    fn convolve_with_bound(
        a: &[Self],
        b: &[Self],
        method: crate::numeric::fft::ConvolutionMethod,
    ) -> (Vec<Self>, f64) {
        crate::numeric::fft::convolve_with(a, b, method)
    }
}

impl Scaled for BigInt {
    const PARALLEL_GRAIN: Option<usize> = Some(16);
    fn zero_value() -> Self {
        Zero::zero()
    }
    fn one_value() -> Self {
        One::one()
    }
    fn add(&self, other: &Self) -> Self {
        self + other
    }
    fn sub(&self, other: &Self) -> Self {
        self - other
    }
    fn mul(&self, other: &Self) -> Self {
        product(self, other)
    }
    fn add_product(&mut self, a: &Self, b: &Self) {
        *self += product(a, b);
    }
    fn is_zero_value(&self) -> bool {
        Zero::is_zero(self)
    }
    fn convolve(a: &[Self], b: &[Self]) -> Vec<Self> {
        kronecker_convolution(a, b)
    }
    fn convolve_pair_with_bound(
        favoured: &[Self],
        other: &[Self],
        same: &Self,
        mixed: &Self,
        method: crate::numeric::fft::ConvolutionMethod,
    ) -> ((Vec<Self>, f64), (Vec<Self>, f64)) {
        match shared_kronecker_pair(favoured, other, same, mixed) {
            Some((mixed_children, forced)) => ((mixed_children, 0.0), (forced, 0.0)),
            None => separate_convolution_pair(favoured, other, same, mixed, method),
        }
    }
}

/// [`Scaled::convolve_pair_with_bound`] for long non-negative big-integer vectors of equal
/// length: both vectors packed with one slot width (wide enough for either output), each
/// transformed once by [`crate::numeric::ntt`], and `conv(f, same f + mixed o)`, `conv(o, o)` formed
/// pointwise (two forward and two inverse transforms instead of five). `None` (use the
/// separate convolutions) when the vectors are short, of unequal length, or the weights too
/// large for the NTT's coefficient bound.
fn shared_kronecker_pair(
    favoured: &[BigInt],
    other: &[BigInt],
    same: &BigInt,
    mixed: &BigInt,
) -> Option<(Vec<BigInt>, Vec<BigInt>)> {
    if favoured.is_empty() || favoured.len() != other.len() {
        return None;
    }
    if same.sign() == Sign::Minus || mixed.sign() == Sign::Minus {
        return None;
    }
    debug_assert!(
        favoured
            .iter()
            .chain(other)
            .all(|x| x.sign() != Sign::Minus)
    );
    let bits = |v: &[BigInt]| v.iter().map(|x| x.bits()).max().unwrap_or(0);
    let (favoured_bits, other_bits) = (bits(favoured), bits(other));
    let weight_bits = (same + mixed).bits();
    let terms = favoured.len() as u64;
    let term_bits = u64::from(64 - terms.leading_zeros());
    // Each output is a sum of at most `terms` products: of a favoured entry and a mixed one
    // (below 2^(max bits + weight bits)), or of two other entries.
    let slot = (favoured_bits + favoured_bits.max(other_bits) + weight_bits).max(2 * other_bits)
        + term_bits
        + 1;
    let (packed_favoured, packed_other) =
        rayon::join(|| pack(favoured, slot), || pack(other, slot));
    let words = packed_favoured.len().max(packed_other.len());
    // The NTT's product coefficients: below words 2^64 (2^weight_bits 2^64).
    let coefficient_bits = 128 + weight_bits + u64::from(64 - (words as u64).leading_zeros());
    if words < NTT_WORDS || coefficient_bits > crate::numeric::ntt::COEFFICIENT_BITS {
        return None;
    }
    let residues = |x: &BigInt| {
        crate::numeric::ntt::PRIMES
            .map(|p| (x % BigInt::from(p)).to_u64().expect("a residue below p"))
    };
    let (mixed_children, forced) = crate::numeric::ntt::mixed_and_square(
        &packed_favoured,
        &packed_other,
        residues(same),
        residues(mixed),
        crate::numeric::ntt::transform_size(2 * words),
    );
    drop((packed_favoured, packed_other));
    let n = 2 * favoured.len() - 1;
    Some(rayon::join(
        || unpack(&mixed_children, n, slot),
        || unpack(&forced, n, slot),
    ))
}

/// The `n` entries of `slot` bits each of the little-endian words `digits`.
fn unpack(digits: &[u64], n: usize, slot: u64) -> Vec<BigInt> {
    (0..n)
        .map(|i| {
            let value = extract_bits(digits, i as u64 * slot, slot);
            BigInt::from_biguint(Sign::Plus, value)
        })
        .collect()
}

/// Convolution of non-negative big integers by Kronecker substitution: pack each vector into
/// one integer with a slot of `w` bits per entry, multiply once, and unpack. `w` is chosen so
/// that no output entry can overflow its slot, so the result is exact.
///
/// The one big multiplication is done by [`crate::numeric::ntt`] when both operands have at least
/// [`NTT_WORDS`] words, else by [`backend`] (dashu, or malachite with the `malachite`
/// feature); both are several times faster than num-bigint's at these sizes (millions of
/// bits); a self-convolution is a squaring.
fn kronecker_convolution(a: &[BigInt], b: &[BigInt]) -> Vec<BigInt> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    debug_assert!(a.iter().chain(b).all(|x| x.sign() != Sign::Minus));
    let square = std::ptr::eq(a, b) || a == b;
    let bits = |v: &[BigInt]| v.iter().map(|x| x.bits()).max().unwrap_or(0);
    let terms = a.len().min(b.len()) as u64;
    // Each output is a sum of at most `terms` products < 2^(bits_a + bits_b).
    let slot = bits(a) + bits(b) + 64 - terms.leading_zeros() as u64 + 1;
    let n = a.len() + b.len() - 1;
    let digits = if square {
        square_words(&pack(a, slot))
    } else {
        multiply_words(&pack(a, slot), &pack(b, slot))
    };
    unpack(&digits, n, slot)
}

/// Operands of at least this many bits are multiplied by [`backend`] (whose Karatsuba and
/// Toom-3 beat num-bigint's by more than the cost of converting), smaller ones by num-bigint.
const BACKEND_BITS: u64 = 48 * 64;

/// `a * b`, by [`backend`] when both are large (a square when they are the same value).
fn product(a: &BigInt, b: &BigInt) -> BigInt {
    if a.bits() < BACKEND_BITS || b.bits() < BACKEND_BITS {
        return a * b;
    }
    let digits = if std::ptr::eq(a, b) || a == b {
        square_words(&a.to_u64_digits().1)
    } else {
        multiply_words(&a.to_u64_digits().1, &b.to_u64_digits().1)
    };
    let sign = if a.sign() == b.sign() {
        Sign::Plus
    } else {
        Sign::Minus
    };
    BigInt::from_biguint(sign, BigUint::from_slice(&to_u32_words(&digits)))
}

/// The least common multiple of the positive `a` and `b`, by the gcd that suits their sizes:
/// a remainder when `b` fits a word, the big-number backend's for large values (num-integer's
/// binary gcd of a 40,000-bit number took milliseconds, even against a small one).
///
/// # Examples
///
/// ```
/// use num_bigint::BigInt;
/// use pathology::numeric::number::lcm_positive;
/// let big = BigInt::from(3).pow(5000) * BigInt::from(4);
/// assert_eq!(lcm_positive(&big, &BigInt::from(6)), big.clone());
/// assert_eq!(lcm_positive(&big, &BigInt::from(5)), &big * 5);
/// let other = BigInt::from(3).pow(4000) * BigInt::from(7);
/// assert_eq!(lcm_positive(&big, &other), &big * 7);
/// ```
pub fn lcm_positive(a: &BigInt, b: &BigInt) -> BigInt {
    if let Some(small) = b.to_u64().filter(|&x| x > 0) {
        let remainder = (a % small).to_u64().unwrap_or(0);
        let (mut x, mut y) = (small, remainder);
        while y != 0 {
            (x, y) = (y, x % y);
        }
        return if x == small {
            a.clone()
        } else {
            a * (small / x)
        };
    }
    // Often b already divides a (the denominators of a law's probabilities divide its
    // total): one division instead of a gcd.
    if (a % b).is_zero() {
        return a.clone();
    }
    let reduced = reduced_fraction(a, b);
    reduced.numer() * b
}

/// `numerator / denominator` in lowest terms (denominator non-zero); the gcd of large
/// values by [`backend`] (num-integer's binary gcd is quadratic with a large constant).
fn reduced_fraction(numerator: &BigInt, denominator: &BigInt) -> BigRational {
    // Both within 128 bits: a binary gcd on machine words (num-integer's allocates per step).
    if let (Some(n), Some(d)) = (
        numerator.magnitude().to_u128(),
        denominator.magnitude().to_u128(),
    ) && d != 0
    {
        let g = gcd_u128(n, d);
        let sign = if numerator.sign() == denominator.sign() || n == 0 {
            Sign::Plus
        } else {
            Sign::Minus
        };
        return BigRational::new_raw(
            BigInt::from_biguint(sign, BigUint::from(n / g)),
            BigInt::from(d / g),
        );
    }
    if numerator.bits() < BACKEND_BITS || denominator.bits() < BACKEND_BITS {
        return BigRational::new(numerator.clone(), denominator.clone());
    }
    let (n, d) = backend::reduce(&numerator.to_u64_digits().1, &denominator.to_u64_digits().1);
    let sign = if numerator.sign() == denominator.sign() {
        Sign::Plus
    } else {
        Sign::Minus
    };
    BigRational::new_raw(
        BigInt::from_biguint(sign, BigUint::from_slice(&to_u32_words(&n))),
        BigInt::from_biguint(Sign::Plus, BigUint::from_slice(&to_u32_words(&d))),
    )
}

/// Products whose shorter operand has at least this many 64-bit words go through the
/// three-prime NTT of [`crate::numeric::ntt`]; shorter ones through [`backend`]. Set by CPU time on one
/// thread (the exact back-up runs both cores already): at 1700 words dashu took 0.45 ms and
/// the NTT 0.58 ms, at 3500 words 1.41 ms and 1.13 ms.
const NTT_WORDS: usize = 3000;

/// `a * b` on little-endian 64-bit words: by [`crate::numeric::ntt`] when both are long, else by
/// [`backend`].
fn multiply_words(a: &[u64], b: &[u64]) -> Vec<u64> {
    if a.len().min(b.len()) >= NTT_WORDS {
        crate::numeric::ntt::multiply(a, b)
    } else {
        backend::multiply(a, b)
    }
}

/// `a * a`, as [`multiply_words`].
fn square_words(a: &[u64]) -> Vec<u64> {
    if a.len() >= NTT_WORDS {
        crate::numeric::ntt::square(a)
    } else {
        backend::square(a)
    }
}

/// The little-endian 64-bit words of `sum_i v[i] 2^(i slot)` (entries non-negative and below
/// `2^slot`).
fn pack(v: &[BigInt], slot: u64) -> Vec<u64> {
    let mut words = vec![0u64; (v.len() as u64 * slot).div_ceil(64) as usize + 1];
    for (i, x) in v.iter().enumerate() {
        or_shifted(&mut words, x.iter_u64_digits(), i as u64 * slot);
    }
    words
}

/// The big multiplications of [`kronecker_convolution`] on little-endian 64-bit words.
// `Word` is `u64` on 64-bit targets only: the casts are needed elsewhere.
#[cfg(not(feature = "malachite"))]
#[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
mod backend {
    use dashu_int::{UBig, Word};

    const PER: u32 = u64::BITS / Word::BITS;

    fn to_ubig(words: &[u64]) -> UBig {
        if PER == 1 {
            let words: Vec<Word> = words.iter().map(|&w| w as Word).collect();
            UBig::from_words(&words)
        } else {
            let words: Vec<Word> = words
                .iter()
                .flat_map(|&w| (0..PER).map(move |k| (w >> (k * Word::BITS)) as Word))
                .collect();
            UBig::from_words(&words)
        }
    }

    fn to_u64(x: &UBig) -> Vec<u64> {
        x.as_words()
            .chunks(PER as usize)
            .map(|c| {
                c.iter().enumerate().fold(0u64, |acc, (k, &w)| {
                    acc | (u64::from(w) << (k as u32 * Word::BITS))
                })
            })
            .collect()
    }

    /// `a * b`.
    pub(super) fn multiply(a: &[u64], b: &[u64]) -> Vec<u64> {
        to_u64(&(to_ubig(a) * to_ubig(b)))
    }

    /// `a * a`.
    pub(super) fn square(a: &[u64]) -> Vec<u64> {
        to_u64(&to_ubig(a).sqr())
    }

    /// `(n / g, d / g)` with `g = gcd(n, d)`, both non-zero.
    pub(super) fn reduce(n: &[u64], d: &[u64]) -> (Vec<u64>, Vec<u64>) {
        let (n, d) = (to_ubig(n), to_ubig(d));
        let g = dashu_int::ops::Gcd::gcd(&n, &d);
        (to_u64(&(n / &g)), to_u64(&(d / g)))
    }
}

/// The big multiplications of [`kronecker_convolution`] on little-endian 64-bit words
/// (malachite, LGPL-3.0-only: only with the opt-in `malachite` feature).
// `Limb` is `u64` unless malachite's 32_bit_limbs: the casts are needed there.
#[cfg(feature = "malachite")]
#[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
mod backend {
    use malachite_base::num::arithmetic::traits::{DivExact, Gcd, Square};
    use malachite_nz::natural::Natural;
    use malachite_nz::platform::Limb;

    const PER: u32 = u64::BITS / Limb::BITS;

    fn to_natural(words: &[u64]) -> Natural {
        let limbs: Vec<Limb> = words
            .iter()
            .flat_map(|&w| (0..PER).map(move |k| (w >> (k * Limb::BITS)) as Limb))
            .collect();
        Natural::from_owned_limbs_asc(limbs)
    }

    fn to_u64(x: Natural) -> Vec<u64> {
        let limbs = x.into_limbs_asc();
        if PER == 1 {
            return limbs.into_iter().map(u64::from).collect();
        }
        limbs
            .chunks(PER as usize)
            .map(|c| {
                c.iter().enumerate().fold(0u64, |acc, (k, &w)| {
                    acc | (u64::from(w) << (k as u32 * Limb::BITS))
                })
            })
            .collect()
    }

    /// `a * b`.
    pub(super) fn multiply(a: &[u64], b: &[u64]) -> Vec<u64> {
        to_u64(to_natural(a) * to_natural(b))
    }

    /// `a * a`.
    pub(super) fn square(a: &[u64]) -> Vec<u64> {
        to_u64(to_natural(a).square())
    }

    /// `(n / g, d / g)` with `g = gcd(n, d)`, both non-zero.
    pub(super) fn reduce(n: &[u64], d: &[u64]) -> (Vec<u64>, Vec<u64>) {
        let (n, d) = (to_natural(n), to_natural(d));
        let g = (&n).gcd(&d);
        (to_u64(n.div_exact(&g)), to_u64(d.div_exact(g)))
    }
}

fn or_shifted(words: &mut [u64], digits: impl Iterator<Item = u64>, offset: u64) {
    let word = (offset / 64) as usize;
    let shift = (offset % 64) as u32;
    for (k, d) in digits.enumerate() {
        words[word + k] |= d << shift;
        if shift != 0 {
            words[word + k + 1] |= d >> (64 - shift);
        }
    }
}

fn to_u32_words(words: &[u64]) -> Vec<u32> {
    words
        .iter()
        .flat_map(|&w| [w as u32, (w >> 32) as u32])
        .collect()
}

fn extract_bits(digits: &[u64], offset: u64, len: u64) -> BigUint {
    let first = (offset / 64) as usize;
    let shift = (offset % 64) as u32;
    let count = (len.div_ceil(64) + 1) as usize;
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let lo = digits.get(first + k).copied().unwrap_or(0);
        let hi = digits.get(first + k + 1).copied().unwrap_or(0);
        let w = if shift == 0 {
            lo
        } else {
            (lo >> shift) | (hi << (64 - shift))
        };
        out.push(w);
    }
    // Mask to `len` bits.
    let full = (len / 64) as usize;
    let rest = (len % 64) as u32;
    out.truncate(full + usize::from(rest != 0));
    if rest != 0 {
        let last = out.len() - 1;
        out[last] &= (1u64 << rest) - 1;
    }
    BigUint::from_slice(&to_u32_words(&out))
}

/// A probability in one of the two modes: `f64` (fast) or [`BigRational`] (exact).
pub trait Probability: Clone + Debug + PartialOrd + Send + Sync + 'static {
    /// The scaled-integer ring used in hot loops.
    type Scaled: Scaled;
    /// Whether values in this mode are exact.
    const EXACT: bool;
    /// Converts an exact rational to this mode (for `f64`, the nearest double).
    fn from_rational(value: &BigRational) -> Self;
    /// Writes values over one common denominator: `(numerators, denominator)`.
    ///
    /// For `BigRational` the denominator is the least common multiple of the values'
    /// denominators; for `f64` it is `1.0`.
    fn common_scale(values: &[Self]) -> (Vec<Self::Scaled>, Self::Scaled);
    /// Reads a scaled value back: `numerator / denominator`, reduced once.
    fn from_scaled(numerator: &Self::Scaled, denominator: &Self::Scaled) -> Self;
    /// The nearest `f64`.
    fn to_f64(&self) -> f64;
    /// The exact value, or `None` in float mode.
    fn exact_value(&self) -> Option<BigRational>;
    /// The exact value as `"p/q"`, or `None` in float mode.
    fn exact_string(&self) -> Option<String> {
        self.exact_value()
            .map(|r| format!("{}/{}", r.numer(), r.denom()))
    }
    /// The value printed with `places` decimals, correctly rounded.
    fn to_decimal(&self, places: usize) -> String;
    /// Probability 0.
    fn impossible() -> Self;
    /// Probability 1.
    fn certain() -> Self;
    /// `self + other`.
    fn plus(&self, other: &Self) -> Self;
    /// `self - other`.
    fn minus(&self, other: &Self) -> Self;
    /// `self * other`.
    fn times(&self, other: &Self) -> Self;
    /// `self / other` (the caller guarantees `other != 0`).
    fn divided_by(&self, other: &Self) -> Self;
}

impl Probability for f64 {
    type Scaled = f64;
    const EXACT: bool = false;
    fn from_rational(value: &BigRational) -> Self {
        rational_to_f64(value)
    }
    fn common_scale(values: &[Self]) -> (Vec<f64>, f64) {
        (values.to_vec(), 1.0)
    }
    fn from_scaled(numerator: &f64, denominator: &f64) -> Self {
        numerator / denominator
    }
    fn to_f64(&self) -> f64 {
        *self
    }
    fn exact_value(&self) -> Option<BigRational> {
        None
    }
    fn to_decimal(&self, places: usize) -> String {
        // Rust formats the exact binary value of the double, correctly rounded.
        let s = format!("{self:.places$}");
        if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
            s[1..].to_string()
        } else {
            s
        }
    }
    fn impossible() -> Self {
        0.0
    }
    fn certain() -> Self {
        1.0
    }
    fn plus(&self, other: &Self) -> Self {
        self + other
    }
    fn minus(&self, other: &Self) -> Self {
        self - other
    }
    fn times(&self, other: &Self) -> Self {
        self * other
    }
    fn divided_by(&self, other: &Self) -> Self {
        self / other
    }
}

impl Probability for BigRational {
    type Scaled = BigInt;
    const EXACT: bool = true;
    fn from_rational(value: &BigRational) -> Self {
        value.clone()
    }
    fn common_scale(values: &[Self]) -> (Vec<BigInt>, BigInt) {
        let denominator = values
            .iter()
            .fold(<BigInt as One>::one(), |acc, v| acc.lcm(v.denom()));
        let numerators = values
            .iter()
            .map(|v| v.numer() * (&denominator / v.denom()))
            .collect();
        (numerators, denominator)
    }
    fn from_scaled(numerator: &BigInt, denominator: &BigInt) -> Self {
        reduced_fraction(numerator, denominator)
    }
    fn to_f64(&self) -> f64 {
        rational_to_f64(self)
    }
    fn exact_value(&self) -> Option<BigRational> {
        Some(self.clone())
    }
    fn to_decimal(&self, places: usize) -> String {
        format_decimal(self, places)
    }
    fn impossible() -> Self {
        Zero::zero()
    }
    fn certain() -> Self {
        One::one()
    }
    fn plus(&self, other: &Self) -> Self {
        rational_sum(self, other, false)
    }
    fn minus(&self, other: &Self) -> Self {
        rational_sum(self, other, true)
    }
    fn times(&self, other: &Self) -> Self {
        let numerator = product(self.numer(), other.numer());
        reduced_fraction(&numerator, &product(self.denom(), other.denom()))
    }
    fn divided_by(&self, other: &Self) -> Self {
        let numerator = product(self.numer(), other.denom());
        reduced_fraction(&numerator, &product(self.denom(), other.numer()))
    }
}

/// `x + y` or `x - y` in lowest terms, with the large products and the gcd by [`backend`]
/// (num-rational's own operators reduce by a binary gcd, quadratic with a large constant: at
/// the sizes of exact D(d,h) values they cost more than computing them).
fn rational_sum(x: &BigRational, y: &BigRational, subtract: bool) -> BigRational {
    let combine = |a: BigInt, b: BigInt| if subtract { a - b } else { a + b };
    if x.denom() == y.denom() {
        return reduced_fraction(&combine(x.numer().clone(), y.numer().clone()), x.denom());
    }
    let numerator = combine(product(x.numer(), y.denom()), product(y.numer(), x.denom()));
    reduced_fraction(&numerator, &product(x.denom(), y.denom()))
}

/// The double nearest to an exact rational (round to nearest, ties to even).
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::numeric::number::{parse_rational, rational_to_f64};
/// let tenth: BigRational = parse_rational("0.1").unwrap();
/// assert_eq!(rational_to_f64(&tenth), 0.1);
/// ```
pub fn rational_to_f64(value: &BigRational) -> f64 {
    // num-rational's conversion rounds correctly; fall back to the quotient of the
    // parts only if it declines (it never does for finite values).
    ToPrimitive::to_f64(value).unwrap_or_else(|| {
        let numer = ToPrimitive::to_f64(value.numer()).unwrap_or(f64::NAN);
        numer / ToPrimitive::to_f64(value.denom()).unwrap_or(f64::NAN)
    })
}

/// Error from [`parse_rational`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseRationalError {
    /// The text is not a decimal (`0.25`, `1e-3`) or a fraction (`1/3`).
    #[error("'{0}' is not a number: write a decimal like 0.1 or a fraction like 1/3")]
    Malformed(String),
    /// A fraction with a zero denominator.
    #[error("'{0}' has a zero denominator")]
    ZeroDenominator(String),
    /// An exponent too large to be meant.
    #[error("'{0}' has an exponent outside -1000..=1000")]
    ExponentTooLarge(String),
    /// A value that `f64` cannot hold: its magnitude underflows to 0 or overflows to
    /// infinity. The fast path computes in `f64`, so such a value would silently become 0 or
    /// infinity there.
    #[error(
        "'{0}' is outside what f64 holds (0, or magnitudes from 4.9e-324 to \
         1.7976931348623157e308)"
    )]
    OutsideF64(String),
}

/// Whether the double nearest to `value` stands for it: `value` is 0, or its double is
/// neither 0 nor infinite (a subnormal double is kept: printed outputs hold them, and they
/// are read back).
///
/// # Examples
///
/// ```
/// use pathology::numeric::number::{fits_f64, parse_rational};
/// use num_rational::BigRational;
/// assert!(fits_f64(&BigRational::new(1.into(), 3.into())));
/// let tiny = BigRational::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), 400));
/// assert!(!fits_f64(&tiny));
/// ```
pub fn fits_f64(value: &BigRational) -> bool {
    let x = rational_to_f64(value);
    Zero::is_zero(value) || (x != 0.0 && x.is_finite())
}

/// Parses a decimal (`0.1`, `-2.5e-3`, `.5`) or a fraction (`1/3`, `-2/7`) into an exact
/// rational, never through `f64`.
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::numeric::number::parse_rational;
/// let tenth = parse_rational("0.1").unwrap();
/// assert_eq!(tenth, BigRational::new(1.into(), 10.into()));
/// assert_eq!(parse_rational("2/6").unwrap(), BigRational::new(1.into(), 3.into()));
/// assert!(parse_rational("1/0").is_err());
/// ```
///
/// # Errors
///
/// [`ParseRationalError`] for text that is neither form, a zero denominator, an exponent
/// beyond ±1000, or a value outside what `f64` holds ([`fits_f64`]: `1e-400`, `1e400`). Every
/// number a user gives (options, `--leaves`, histogram rows, `validate` rows, manifests) is
/// parsed here, and the fast path turns it into an `f64`: refusing it here, with the text as
/// typed, is what keeps a 0 or an infinity that the user never wrote out of every computation.
pub fn parse_rational(text: &str) -> Result<BigRational, ParseRationalError> {
    let value = parse_rational_unchecked(text)?;
    if !fits_f64(&value) {
        return Err(ParseRationalError::OutsideF64(text.trim().to_string()));
    }
    Ok(value)
}

/// [`parse_rational`] as an unreduced fraction `(numerator, denominator)`, the denominator
/// positive: for callers that put many numbers over one common denominator and reduce once
/// (a histogram's weights), not once per number.
///
/// # Examples
///
/// ```
/// use num_bigint::BigInt;
/// use pathology::numeric::number::parse_ratio;
/// assert_eq!(parse_ratio("2/6").unwrap(), (BigInt::from(2), BigInt::from(6)));
/// assert_eq!(parse_ratio("-0.25").unwrap(), (BigInt::from(-25), BigInt::from(100)));
/// assert_eq!(parse_ratio("3/-4").unwrap(), (BigInt::from(-3), BigInt::from(4)));
/// assert!(parse_ratio("1e-400").is_err());
/// ```
///
/// # Errors
///
/// As [`parse_rational`].
pub fn parse_ratio(text: &str) -> Result<(BigInt, BigInt), ParseRationalError> {
    let (numerator, denominator) = parse_ratio_unchecked(text)?;
    // Both below 2^900: the value, unless 0, lies in [2^-900, 2^900] and fits f64.
    if numerator.bits() > 900 || denominator.bits() > 900 {
        let value = BigRational::new(numerator.clone(), denominator.clone());
        if !fits_f64(&value) {
            return Err(ParseRationalError::OutsideF64(text.trim().to_string()));
        }
    }
    Ok((numerator, denominator))
}

/// [`parse_rational`] without the `f64` range check.
fn parse_rational_unchecked(text: &str) -> Result<BigRational, ParseRationalError> {
    let (numerator, denominator) = parse_ratio_unchecked(text)?;
    Ok(if denominator.is_one() {
        BigRational::from_integer(numerator)
    } else {
        BigRational::new(numerator, denominator)
    })
}

/// [`parse_ratio`] without the `f64` range check.
fn parse_ratio_unchecked(text: &str) -> Result<(BigInt, BigInt), ParseRationalError> {
    let s = text.trim();
    let malformed = || ParseRationalError::Malformed(text.to_string());
    if let Some((p, q)) = s.split_once('/') {
        let p = parse_integer(p.trim()).ok_or_else(malformed)?;
        let q = parse_integer(q.trim()).ok_or_else(malformed)?;
        if Zero::is_zero(&q) {
            return Err(ParseRationalError::ZeroDenominator(text.to_string()));
        }
        return Ok(if q.is_negative() { (-p, -q) } else { (p, q) });
    }
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => {
            let e: i64 = s[i + 1..].parse().map_err(|_| malformed())?;
            if e.abs() > 1000 {
                return Err(ParseRationalError::ExponentTooLarge(text.to_string()));
            }
            (&s[..i], e)
        }
        None => (s, 0),
    };
    let (negative, unsigned) = match mantissa.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, mantissa.strip_prefix('+').unwrap_or(mantissa)),
    };
    let (int_part, frac_part) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let all_digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    if (int_part.is_empty() && frac_part.is_empty())
        || !all_digits(int_part)
        || !all_digits(frac_part)
    {
        return Err(malformed());
    }
    let scale = exponent - frac_part.len() as i64;
    // Machine words when the digits and the power of ten fit (the common case: a decimal of
    // a few digits), without the string-to-bignum conversion.
    if int_part.len() + frac_part.len() <= 18 && (-18..=18).contains(&scale) {
        let mut n: i64 = 0;
        for b in int_part.bytes().chain(frac_part.bytes()) {
            n = n * 10 + i64::from(b - b'0');
        }
        let power = 10i64.pow(scale.unsigned_abs() as u32);
        let n = if negative { -n } else { n };
        return Ok(if scale >= 0 {
            (BigInt::from(n) * power, BigInt::one())
        } else {
            (BigInt::from(n), BigInt::from(power))
        });
    }
    let digits = format!("{int_part}{frac_part}");
    let mut numerator: BigInt = digits.parse().map_err(|_| malformed())?;
    if negative {
        numerator = -numerator;
    }
    let ten = BigInt::from(10u32);
    Ok(if scale >= 0 {
        (
            numerator * num_traits::pow(ten, scale as usize),
            BigInt::one(),
        )
    } else {
        (numerator, num_traits::pow(ten, (-scale) as usize))
    })
}

fn parse_integer(s: &str) -> Option<BigInt> {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if body.len() <= 18 {
        // Fits i64: without the string-to-bignum conversion.
        return s.parse::<i64>().ok().map(BigInt::from);
    }
    s.parse().ok()
}

/// Prints an exact rational with `places` decimals, correctly rounded: to the nearest, ties
/// away from zero.
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::numeric::number::format_decimal;
/// let two_thirds = BigRational::new(2.into(), 3.into());
/// assert_eq!(format_decimal(&two_thirds, 3), "0.667");
/// let half_thousandth = BigRational::new(1.into(), 2000.into());
/// assert_eq!(format_decimal(&half_thousandth, 3), "0.001");
/// ```
pub fn format_decimal(value: &BigRational, places: usize) -> String {
    let scale = num_traits::pow(BigInt::from(10u32), places);
    // Round half away from zero: floor(|n| 10^places / d + 1/2) = floor((2 |n| 10^places + d)
    // / 2d), in integers (no gcd: rationals of D(d,h) have hundreds of thousands of bits).
    let (n, d) = (value.numer().abs(), value.denom().abs());
    let rounded = (product(&n, &scale) * 2u32 + &d) / (d * 2u32);
    let digits = rounded.to_string();
    let negative = value.is_negative() && !Zero::is_zero(&rounded);
    let body = if places == 0 {
        digits
    } else {
        let padded = format!("{digits:0>width$}", width = places + 1);
        let (int, frac) = padded.split_at(padded.len() - places);
        format!("{int}.{frac}")
    };
    if negative { format!("-{body}") } else { body }
}

/// Prints a non-negative exact rational in scientific notation with `digits` significant
/// digits (at least 1), rounded down (`up = false`) or up (`up = true`), so that printed
/// bounds stay bounds.
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::numeric::number::format_scientific_directed;
/// let x = BigRational::new(2.into(), 3000.into()); // 6.666...e-4
/// assert_eq!(format_scientific_directed(&x, 3, false), "6.66e-4");
/// assert_eq!(format_scientific_directed(&x, 3, true), "6.67e-4");
/// let y = BigRational::new(99999.into(), 1.into());
/// assert_eq!(format_scientific_directed(&y, 2, true), "1.0e5"); // carries into the exponent
/// assert_eq!(format_scientific_directed(&BigRational::from_integer(0.into()), 3, true), "0");
/// ```
///
/// # Panics
///
/// When `value` is negative.
pub fn format_scientific_directed(value: &BigRational, digits: usize, up: bool) -> String {
    assert!(
        !value.is_negative(),
        "format_scientific_directed needs a value >= 0"
    );
    if Zero::is_zero(value) {
        return "0".to_string();
    }
    let digits = digits.max(1);
    let ten = BigRational::from_integer(BigInt::from(10u32));
    let power = |e: i64| -> BigRational {
        let p = BigRational::from_integer(num_traits::pow(
            BigInt::from(10u32),
            e.unsigned_abs() as usize,
        ));
        if e >= 0 { p } else { p.recip() }
    };
    // The decimal exponent: 10^e <= value < 10^(e+1), from a float guess then corrected.
    let guess = ToPrimitive::to_f64(value)
        .filter(|x| *x > 0.0 && x.is_finite())
        .map_or_else(
            || {
                (value.numer().bits() as f64 - value.denom().bits() as f64)
                    * std::f64::consts::LOG10_2
            },
            f64::log10,
        );
    let mut e = guess.floor() as i64;
    while power(e) > *value {
        e -= 1;
    }
    while power(e + 1) <= *value {
        e += 1;
    }
    let scaled = value / power(e + 1 - digits as i64);
    let mut mantissa = if up { scaled.ceil() } else { scaled.floor() }.to_integer();
    if mantissa >= num_traits::pow(BigInt::from(10u32), digits) {
        mantissa = (BigRational::from_integer(mantissa) / &ten)
            .ceil()
            .to_integer();
        e += 1;
    }
    let text = mantissa.to_string();
    let (first, rest) = text.split_at(1);
    if rest.is_empty() {
        format!("{first}e{e}")
    } else {
        format!("{first}.{rest}e{e}")
    }
}

/// Sign of an exact rational, as -1, 0 or 1.
///
/// # Examples
///
/// ```
/// use pathology::numeric::number::{parse_rational, rational_sign};
/// assert_eq!(rational_sign(&parse_rational("-1/3").unwrap()), -1);
/// assert_eq!(rational_sign(&parse_rational("0").unwrap()), 0);
/// assert_eq!(rational_sign(&parse_rational("0.5").unwrap()), 1);
/// ```
pub fn rational_sign(value: &BigRational) -> i8 {
    if value.is_positive() {
        1
    } else if value.is_negative() {
        -1
    } else {
        0
    }
}

/// A parameter as people write it: the exact decimal when it terminates (`0.1`, `0.125`),
/// else the fraction (`1/3`); for floats, the shortest decimal that reads back to the same
/// double.
///
/// # Examples
///
/// ```
/// use pathology::numeric::number::{parse_rational, short_text};
/// assert_eq!(short_text(&parse_rational("1/10").unwrap()), "0.1");
/// assert_eq!(short_text(&parse_rational("2/6").unwrap()), "1/3");
/// assert_eq!(short_text(&0.25f64), "0.25");
/// ```
pub fn short_text<P: Probability>(value: &P) -> String {
    let Some(rational) = value.exact_value() else {
        return format!("{}", value.to_f64());
    };
    match terminating_places(rational.denom()) {
        Some(places) => format_decimal(&rational, places),
        None => format!("{}/{}", rational.numer(), rational.denom()),
    }
}

/// The number of decimals of `1/q` when it terminates (q = 2^a 5^b, at most 60 places).
fn terminating_places(q: &BigInt) -> Option<usize> {
    let mut rest = q.clone();
    let mut count = |p: u32| {
        let p = BigInt::from(p);
        let mut k = 0;
        while (&rest % &p).is_zero_value() {
            rest /= &p;
            k += 1;
        }
        k
    };
    let places = count(2).max(count(5));
    (rest == <BigInt as One>::one() && places <= 60).then_some(places)
}

mod reduce;
pub(crate) use reduce::gcd_u128;
pub use reduce::{reduced_over_factored, small_primes};

#[cfg(test)]
mod tests;
