//! Reductions without a general gcd of large values: a binary gcd on machine words, and the
//! removal of known primes from a numerator (`numerator / prod p^k`).

use num_bigint::{BigInt, BigUint, Sign};
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Binary (Stein's) gcd of two 128-bit words; `gcd(0, b) = b`.
pub(crate) fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        if b <= u128::from(u64::MAX) {
            // Both in one word from here on: the same steps on 64-bit words.
            return u128::from(gcd_odd_u64(a as u64, b as u64)) << shift;
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// Binary gcd of `a` odd and `b >= a`, both non-zero.
fn gcd_odd_u64(mut a: u64, mut b: u64) -> u64 {
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a;
        }
    }
}

/// The primes of the positive integers `values` when each is a product of primes below
/// 2^40 (trial division to 2^20; a cofactor left below 2^40 is then prime), else `None`.
///
/// # Examples
///
/// ```
/// use num_bigint::BigInt;
/// use pathology::numeric::number::small_primes;
/// assert_eq!(small_primes(&[BigInt::from(80), BigInt::from(21)]), Some(vec![2, 3, 5, 7]));
/// let mersenne = BigInt::from(2147483647u64); // 2^31 - 1, a prime
/// assert_eq!(small_primes(&[mersenne.clone()]), Some(vec![2147483647]));
/// assert_eq!(small_primes(&[&mersenne * &mersenne]), None);
/// ```
pub fn small_primes(values: &[BigInt]) -> Option<Vec<u64>> {
    let mut primes = Vec::new();
    for value in values {
        let mut rest = value.abs();
        let mut p = 2u64;
        while p < 1 << 20 && !rest.is_one() {
            if (&rest % p).is_zero() {
                primes.push(p);
                while (&rest % p).is_zero() {
                    rest /= p;
                }
            }
            if rest.bits() <= 40 && rest.to_u64().is_some_and(|r| p.saturating_mul(p) > r) {
                break;
            }
            p += if p == 2 { 1 } else { 2 };
        }
        if !rest.is_one() {
            primes.push(rest.to_u64().filter(|&r| r < 1 << 40)?);
        }
    }
    primes.sort_unstable();
    primes.dedup();
    Some(primes)
}

/// `numerator / prod p^k` over the prime powers `(p, k)` of `denominator` (distinct primes),
/// in lowest terms, without a gcd of the large values: dashu removes each prime from the
/// numerator (Hensel division by p, then by p^2, p^4, ... while they divide) and the
/// denominator is rebuilt from the exponents left. Numbers of millions of bits whose
/// denominators are known products of powers of the inputs' denominators (lookahead's) are
/// reduced in a fraction of a second where a gcd takes minutes.
///
/// # Examples
///
/// ```
/// use num_bigint::BigInt;
/// use pathology::numeric::number::reduced_over_factored;
/// let n = BigInt::from(5).pow(30) * 7;
/// // 7 * 5^30 / (2^40 5^40) = 7 / (2^40 5^10)
/// let r = reduced_over_factored(&n, &[(2, 40), (5, 40)]);
/// assert_eq!(*r.denom(), BigInt::from(2).pow(40) * BigInt::from(5).pow(10));
/// assert_eq!(*r.numer(), BigInt::from(7));
/// ```
pub fn reduced_over_factored(numerator: &BigInt, denominator: &[(u64, u64)]) -> BigRational {
    let mut d = dashu_int::UBig::ONE;
    if numerator.is_zero() {
        return BigRational::zero();
    }
    let mut n = dashu(numerator);
    for &(p, k) in denominator {
        let factor = dashu_int::UBig::from(p);
        let in_n = n.remove(&factor).unwrap_or(0) as u64;
        let common = in_n.min(k);
        let exponent = |e: u64| usize::try_from(e).expect("an exponent of a stored number");
        if in_n > common {
            n *= factor.pow(exponent(in_n - common));
        }
        if k > common {
            d *= factor.pow(exponent(k - common));
        }
    }
    let back = |x: &dashu_int::UBig| {
        BigInt::from_biguint(Sign::Plus, BigUint::from_bytes_le(&x.to_le_bytes()))
    };
    let mut n = back(&n);
    if numerator.sign() == Sign::Minus {
        n = -n;
    }
    BigRational::new_raw(n, back(&d))
}

/// `|x|` as dashu's unsigned integer.
fn dashu(x: &BigInt) -> dashu_int::UBig {
    dashu_int::UBig::from_le_bytes(&x.magnitude().to_bytes_le())
}
