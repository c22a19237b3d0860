//! Unit tests of `analytic/distributions/evaluation.rs` (moved out of it to keep the file under 1,200 lines).

use super::*;
use crate::numeric::number::parse_rational;

fn q(s: &str) -> BigRational {
    parse_rational(s).unwrap()
}

#[test]
fn atoms_become_levels_and_bins() {
    let values = vec![q("-1"), q("1")];
    let e = Evaluation::new(Model::Artificial { error: q("1/10") });
    let law = e.law(&values, None, None).unwrap();
    assert_eq!(law.levels, 2);
    assert_eq!(law.rationals(0).unwrap(), vec![q("9/10"), q("1")]);
    assert_eq!(law.rationals(1).unwrap(), vec![q("1/10"), q("1")]);
    // Histogram atoms 0, 0.25, 0.5, 1 in 2 bins over [0, 1]: [0, 0.5) and [0.5, 1].
    let h = Histogram::parse("1,0.5\n1,1\n-1,0\n-1,0.25\n").unwrap();
    let e = Evaluation::<BigRational>::new(Model::Histogram(h))
        .levels(2, Some((q("0"), q("1"))))
        .unwrap();
    let law = e.law(&values, None, None).unwrap();
    assert_eq!(law.rationals(0).unwrap(), vec![q("1"), q("1")]);
    assert_eq!(law.rationals(1).unwrap(), vec![q("0"), q("1")]);
    // Out of range values are clamped into the end bins.
    let h = Histogram::parse("1,7\n-1,-3\n-1,0.1\n").unwrap();
    let e = Evaluation::<BigRational>::new(Model::Histogram(h))
        .levels(4, Some((q("0"), q("1"))))
        .unwrap();
    let law = e.law(&values, None, None).unwrap();
    assert_eq!(law.levels, 2);
    assert_eq!(law.rationals(0).unwrap(), vec![q("1"), q("1")]);
    assert_eq!(law.rationals(1).unwrap(), vec![q("0"), q("1")]);
}

#[test]
fn uniform_bins_are_exact_and_sum_to_one() {
    let values = vec![q("-1"), q("1")];
    let e = Evaluation::new(Model::Uniform {
        halfwidth: q("3/2"),
    })
    .levels(5, None)
    .unwrap();
    let law = e.law(&values, None, None).unwrap();
    // Range [-5/2, 5/2], bins of width 1: value -1 spreads over [-5/2, 1/2].
    let c = [law.rationals(0).unwrap(), law.rationals(1).unwrap()];
    assert_eq!(c[0], vec![q("1/3"), q("2/3"), q("1"), q("1"), q("1")]);
    assert_eq!(c[1], vec![q("0"), q("0"), q("1/3"), q("2/3"), q("1")]);
}

#[test]
fn gaussian_bins_are_monotone_and_refused_exactly() {
    let values = vec![q("-1"), q("1")];
    let e = Evaluation::new(Model::Gaussian { sigma: 0.5 });
    let law = e.law(&values, None, Some(100)).unwrap();
    let Cdfs::Float(c) = &law.cdfs else { panic!() };
    assert!(
        c.iter()
            .all(|v| v.windows(2).all(|w| w[0] <= w[1]) && *v.last().unwrap() == 1.0)
    );
    let exact = Evaluation::new(Model::Gaussian { sigma: q("1/2") });
    assert!(
        exact
            .validate(&values, true)
            .unwrap_err()
            .to_string()
            .contains("--exact")
    );
    let bad = Evaluation::new(Model::Gaussian { sigma: -1.0 });
    assert!(
        bad.validate(&values, true)
            .unwrap_err()
            .to_string()
            .starts_with("--sigma must be greater than 0")
    );
}

#[test]
fn histogram_errors_name_the_option_and_value() {
    let h = Histogram::parse("1,0.5\n").unwrap();
    let e = Evaluation::new(Model::<BigRational>::Histogram(h));
    let err = e
        .validate(&[q("-1"), q("1")], true)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("--histogram") && err.contains("true value -1"),
        "{err}"
    );
    assert!(Histogram::parse("1,0.5,-1").is_err());
    assert!(Histogram::parse("1,0.5,0").is_err());
    assert!(Histogram::parse("# only a comment\n").is_err());
    assert!(Histogram::parse("value,evaluation\n1,2\n").is_ok());
    assert!(Histogram::parse("1,2\nx,y\n").is_err());
}

/// The enclosure by one integer division is the pair of neighbouring
/// doubles that the rational enclosure finds, for exact and inexact ratios, large and small.
#[test]
fn enclosures_by_division_are_the_rational_ones() {
    use crate::numeric::enclosure::Enclosure;
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let big = |words: usize, next: &mut dyn FnMut() -> u64| {
        (0..words).fold(BigInt::from(0), |acc, _| (acc << 64) + BigInt::from(next()))
    };
    for case in 0..2000 {
        let d = big(1 + case % 5, &mut next) + BigInt::from(1);
        let n = match case % 4 {
            0 => d.clone(),
            1 => &d >> (case % 300),
            2 => big(1 + case % 3, &mut next) % &d + BigInt::from(1),
            _ => (&d >> 1) + BigInt::from(case % 3),
        };
        if n.is_zero() {
            continue;
        }
        let e = Enclosure::of(&BigRational::new(n.clone(), d.clone()));
        assert_eq!(super::enclose_ratio(&n, &d), (e.lower, e.upper), "{n}/{d}");
    }
}
