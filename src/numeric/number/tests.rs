//! Unit tests of `numeric/number.rs` (moved out of it to keep the file under 1,200 lines).

use super::*;
use proptest::prelude::*;

fn r(p: i64, q: i64) -> BigRational {
    BigRational::new(p.into(), q.into())
}

#[test]
fn parses_decimals_exactly() {
    assert_eq!(parse_rational("0.1").unwrap(), r(1, 10));
    assert_eq!(parse_rational(".5").unwrap(), r(1, 2));
    assert_eq!(parse_rational("1.").unwrap(), r(1, 1));
    assert_eq!(parse_rational("-2.5e-3").unwrap(), r(-1, 400));
    assert_eq!(parse_rational("3E2").unwrap(), r(300, 1));
    assert_eq!(parse_rational(" 1/3 ").unwrap(), r(1, 3));
    assert_eq!(parse_rational("-4/6").unwrap(), r(-2, 3));
}

#[test]
fn rejects_malformed_input() {
    for bad in [
        "", "abc", "NaN", "nan", "inf", "1/0", "1/", "/2", "0.1.2", "1e", "--1", "1e99999", ".",
    ] {
        assert!(parse_rational(bad).is_err(), "{bad:?} should be rejected");
    }
    assert_eq!(
        parse_rational("1/0"),
        Err(ParseRationalError::ZeroDenominator("1/0".into()))
    );
}

/// Values that would become 0 or infinity in `f64` are refused with the
/// text as typed; 0 itself and the ends of the normal range are kept.
#[test]
fn refuses_values_outside_f64() {
    for bad in ["1e-400", "-1e-400", "1e400", "1e309", "3e-325"] {
        assert_eq!(
            parse_rational(bad),
            Err(ParseRationalError::OutsideF64(bad.into())),
            "{bad}"
        );
    }
    let huge = format!("1/1{}", "0".repeat(400));
    assert!(matches!(
        parse_rational(&huge),
        Err(ParseRationalError::OutsideF64(_))
    ));
    for good in [
        "0",
        "0e-400",
        "1e-300",
        "1e300",
        "-2.2250738585072014e-308",
        "1e-310",
    ] {
        assert!(parse_rational(good).is_ok(), "{good}");
    }
    assert!(
        parse_rational("1e-400")
            .unwrap_err()
            .to_string()
            .starts_with("'1e-400'")
    );
}

#[test]
fn rounds_ties_away_from_zero() {
    assert_eq!(format_decimal(&r(1, 8), 2), "0.13");
    assert_eq!(format_decimal(&r(-1, 8), 2), "-0.13");
    assert_eq!(format_decimal(&r(1, 3), 0), "0");
    assert_eq!(format_decimal(&r(7, 2), 0), "4");
    assert_eq!(format_decimal(&r(-1, 10000), 3), "0.000");
    assert_eq!(format_decimal(&r(9996, 10000), 3), "1.000");
    assert_eq!(format_decimal(&r(1, 1), 3), "1.000");
}

#[test]
fn f64_decimal_has_no_negative_zero() {
    assert_eq!((-1e-9f64).to_decimal(3), "0.000");
    assert_eq!(0.6075f64.to_decimal(2), "0.61");
}

#[test]
fn kronecker_matches_direct_convolution() {
    let a: Vec<BigInt> = [0u64, 3, u64::MAX, 7]
        .iter()
        .map(|&x| BigInt::from(x))
        .collect();
    let big: BigInt = BigInt::from(u64::MAX) * BigInt::from(u64::MAX) * 12345u32;
    let b: Vec<BigInt> = vec![big.clone(), BigInt::from(0), BigInt::from(1), big];
    assert_eq!(kronecker_convolution(&a, &b), direct_convolution(&a, &b));
    assert_eq!(
        kronecker_convolution(&a, &a[..1]),
        direct_convolution(&a, &a[..1])
    );
}

/// A pseudo-random non-negative integer of exactly `bits` bits (splitmix64 words).
fn random_big(seed: &mut u64, bits: u64) -> BigInt {
    if bits == 0 {
        return BigInt::from(0);
    }
    let mut next = || {
        *seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let words: Vec<u64> = (0..bits.div_ceil(64)).map(|_| next()).collect();
    let x = BigInt::from_biguint(Sign::Plus, BigUint::from_slice(&to_u32_words(&words)));
    let x = x >> (words.len() as u64 * 64 - bits);
    x | (BigInt::from(1) << (bits - 1))
}

/// The backend's multiplication (dashu by default, malachite with the `malachite`
/// feature) agrees with num-bigint's: Kronecker convolutions against the direct loop on
/// zeros, one-element vectors, huge coefficients and squares, at sizes that reach the
/// backends' fast (NTT/FFT) algorithms.
#[test]
fn backend_convolution_matches_num_bigint() {
    let mut seed = 7;
    let zero = BigInt::from(0);
    let cases: Vec<(Vec<BigInt>, Vec<BigInt>)> = vec![
        (vec![zero.clone()], vec![zero.clone()]),
        (vec![zero.clone(); 5], vec![BigInt::from(3); 4]),
        (vec![BigInt::from(1)], vec![random_big(&mut seed, 100_000)]),
        (
            (0..40).map(|i| random_big(&mut seed, 64 * i)).collect(),
            vec![BigInt::from(u64::MAX)],
        ),
        (
            (0..300).map(|_| random_big(&mut seed, 4000)).collect(),
            (0..257).map(|i| random_big(&mut seed, 37 * i)).collect(),
        ),
    ];
    for (a, b) in &cases {
        assert_eq!(&kronecker_convolution(a, b), &direct_convolution(a, b));
        assert_eq!(&kronecker_convolution(b, a), &direct_convolution(b, a));
        // Squares: the same slice, and an equal copy.
        assert_eq!(&kronecker_convolution(a, a), &direct_convolution(a, a));
        assert_eq!(
            &kronecker_convolution(a, &a.clone()),
            &direct_convolution(a, a)
        );
    }
}

/// The psi level's two convolutions from shared transforms equal the two separate direct
/// convolutions, for weights of several sizes, zero entries and all-ones entries.
#[test]
fn shared_convolution_pair_matches_direct() {
    let mut seed = 5;
    let all_ones: BigInt = (BigInt::from(1) << 3000u32) - 1u32;
    let cases: Vec<(Vec<BigInt>, Vec<BigInt>)> = vec![
        (
            (0..200)
                .map(|i| random_big(&mut seed, 900 + 3 * i))
                .collect(),
            (0..200)
                .map(|i| random_big(&mut seed, 1200 - 2 * i))
                .collect(),
        ),
        (vec![all_ones.clone(); 64], vec![all_ones.clone(); 64]),
        (
            (0..100)
                .map(|i| {
                    if i % 3 == 0 {
                        BigInt::from(0)
                    } else {
                        all_ones.clone()
                    }
                })
                .collect(),
            (0..100).map(|_| random_big(&mut seed, 2500)).collect(),
        ),
    ];
    let weights = [
        (BigInt::from(1), BigInt::from(9)),
        (BigInt::from(0), BigInt::from(10)),
        (BigInt::from(7), BigInt::from(0)),
        (BigInt::from(123_456_789), BigInt::from(876_543_211)),
    ];
    for (f, o) in &cases {
        for (same, mixed) in &weights {
            let (mixed_children, forced) =
                shared_kronecker_pair(f, o, same, mixed).expect("long enough for the NTT");
            let mix: Vec<BigInt> = f.iter().zip(o).map(|(x, y)| x * same + y * mixed).collect();
            assert_eq!(mixed_children, direct_convolution(f, &mix));
            assert_eq!(forced, direct_convolution(o, o));
        }
    }
    // Short or unequal vectors take the separate convolutions.
    let short = vec![BigInt::from(5); 3];
    assert!(shared_kronecker_pair(&short, &short, &BigInt::from(1), &BigInt::from(1)).is_none());
    let (f, o) = &cases[0];
    assert!(shared_kronecker_pair(f, &o[1..], &BigInt::from(1), &BigInt::from(1)).is_none());
}

/// Products and reduced fractions of large values through the backend equal num-bigint's
/// and num-rational's, signs included.
#[test]
fn backend_products_and_fractions_match_num_bigint() {
    let mut seed = 11;
    for bits in [1, 64, BACKEND_BITS - 1, BACKEND_BITS, 20_000, 300_000] {
        let a = random_big(&mut seed, bits);
        let b = random_big(&mut seed, bits + 77);
        for (x, y) in [(&a, &b), (&a, &a)] {
            for (sx, sy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                let (x, y) = (x * sx, y * sy);
                assert_eq!(product(&x, &y), &x * &y);
                assert_eq!(product(&x, &x), &x * &x);
                let common = random_big(&mut seed, bits / 2 + 1);
                let (n, d) = (&x * &common * 6, &y * &common * 4);
                let reduced = reduced_fraction(&n, &d);
                let expected = BigRational::new(n.clone(), d.clone());
                assert_eq!(reduced.numer(), expected.numer());
                assert_eq!(reduced.denom(), expected.denom());
                assert!(reduced.denom().is_positive());
                assert_eq!(reduced.numer().gcd(reduced.denom()), <BigInt as One>::one());
            }
        }
    }
    assert_eq!(
        reduced_fraction(&BigInt::from(0), &random_big(&mut seed, 10_000)),
        BigRational::from_integer(0.into())
    );
}

#[test]
fn common_scale_uses_least_common_denominator() {
    let (n, d) = BigRational::common_scale(&[r(1, 10), r(3, 4)]);
    assert_eq!(d, BigInt::from(20));
    assert_eq!(n, vec![BigInt::from(2), BigInt::from(15)]);
}

proptest! {
    #[test]
    fn kronecker_agrees_with_direct(
        a in proptest::collection::vec(0u64..u64::MAX, 1..20),
        b in proptest::collection::vec(0u64..1000, 1..20),
        shift in 0usize..200,
    ) {
        let a: Vec<BigInt> = a.into_iter().map(|x| BigInt::from(x) << shift).collect();
        let b: Vec<BigInt> = b.into_iter().map(BigInt::from).collect();
        prop_assert_eq!(kronecker_convolution(&a, &b), direct_convolution(&a, &b));
    }

    #[test]
    fn decimal_round_trips_through_parse(p in -10_000i64..10_000, q in 1i64..10_000) {
        let x = r(p, q);
        let text = format_decimal(&x, 6);
        let back = parse_rational(&text).unwrap();
        let diff = (back - &x).abs();
        prop_assert!(diff <= r(1, 2_000_000));
    }
}

/// The textbook reading of a decimal: digits over a power of ten, scaled by the exponent.
fn decimal_by_definition(negative: bool, int: &str, frac: &str, exponent: i64) -> BigRational {
    let digits: BigInt = format!("0{int}{frac}").parse().unwrap();
    let scale = exponent - frac.len() as i64;
    let ten = BigRational::from_integer(BigInt::from(10));
    let power = if scale >= 0 {
        num_traits::pow(ten, scale as usize)
    } else {
        num_traits::pow(ten, (-scale) as usize).recip()
    };
    let value = BigRational::from_integer(digits) * power;
    if negative { -value } else { value }
}

#[test]
fn machine_word_parsing_keeps_the_edges() {
    // 18 digits (machine words) and 19 (bignum), signs, exponents at and past the table.
    for (text, expected) in [
        ("999999999999999999", r(999_999_999_999_999_999, 1)),
        ("-0.5", r(-1, 2)),
        ("+0.25", r(1, 4)),
        ("-0", r(0, 1)),
        ("1e18", BigRational::from_integer(BigInt::from(10).pow(18))),
        (
            "1e-18",
            BigRational::new(1.into(), BigInt::from(10).pow(18)),
        ),
        ("1e19", BigRational::from_integer(BigInt::from(10).pow(19))),
        (
            "123456789.123456789",
            BigRational::new(123456789123456789i64.into(), 1_000_000_000.into()),
        ),
        (
            "9223372036854775807/2",
            BigRational::new(i64::MAX.into(), 2.into()),
        ),
        (
            "-9223372036854775809/3",
            BigRational::new(BigInt::from(i64::MIN) - 1, 3.into()),
        ),
    ] {
        assert_eq!(parse_rational(text).unwrap(), expected, "{text}");
    }
    for bad in ["1.2.3", "--1", "1e", ".", "-", "1/0", "0x10", "1_000"] {
        assert!(parse_rational(bad).is_err(), "{bad}");
    }
}

#[test]
fn reduced_fraction_in_machine_words_equals_the_bignum_gcd() {
    let big = BigInt::from(u128::MAX);
    for (n, d) in [
        (BigInt::from(0), BigInt::from(7)),
        (BigInt::from(-12), BigInt::from(18)),
        (BigInt::from(12), BigInt::from(-18)),
        (big.clone(), big.clone() - 1),
        (big.clone() - 5, BigInt::from(1u128 << 100)),
        (&big + 1, BigInt::from(6)), // past 128 bits: the other path
    ] {
        assert_eq!(
            reduced_fraction(&n, &d),
            BigRational::new(n.clone(), d.clone()),
            "{n}/{d}"
        );
    }
}

proptest! {
    #[test]
    fn decimals_parse_as_their_definition(
        negative in any::<bool>(),
        int in "[0-9]{0,22}",
        frac in "[0-9]{0,22}",
        exponent in proptest::option::of(-40i64..40),
    ) {
        prop_assume!(!(int.is_empty() && frac.is_empty()));
        let mut text = String::from(if negative { "-" } else { "" });
        text.push_str(&int);
        if !frac.is_empty() {
            text.push('.');
            text.push_str(&frac);
        }
        if let Some(e) = exponent {
            text.push_str(&format!("e{e}"));
        }
        let expected = decimal_by_definition(negative, &int, &frac, exponent.unwrap_or(0));
        prop_assert_eq!(parse_rational(&text).unwrap(), expected);
    }

    #[test]
    fn reduced_fraction_agrees_with_num_rational(
        n in any::<i128>(),
        d in any::<i128>().prop_filter("non-zero", |d| *d != 0),
    ) {
        let (n, d) = (BigInt::from(n), BigInt::from(d));
        prop_assert_eq!(reduced_fraction(&n, &d), BigRational::new(n.clone(), d.clone()));
    }
}

#[test]
fn reduced_over_factored_equals_the_reduced_fraction() {
    use num_bigint::BigInt;
    let denominator = |a: u32, b: u32| BigInt::from(2).pow(a) * BigInt::from(5).pow(b);
    for (n, a, b) in [
        (
            BigInt::from(5).pow(300) * 3 * BigInt::from(2).pow(7),
            40,
            500,
        ),
        (BigInt::from(5).pow(600) * 7 + 1, 1000, 2),
        (-(BigInt::from(10).pow(50)), 50, 60),
        (BigInt::from(2).pow(900), 800, 0),
    ] {
        let expected = BigRational::new(n.clone(), denominator(a, b));
        let got = reduced_over_factored(&n, &[(2, u64::from(a)), (5, u64::from(b))]);
        assert_eq!(got.numer(), expected.numer());
        assert_eq!(got.denom(), expected.denom());
    }
}
