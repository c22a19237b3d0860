//! Continuous laws as their stated discretizations (`gaussian:S`, `uniform:A`), and the
//! centred binomial `binomial:N`, for [`super::Law::parse`].

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::{CONTINUOUS_SIDE, Law};
use crate::error::{Error, Result};
use crate::numeric::number::parse_rational;

/// The discretization of `gaussian:S` (`uniform` false) or `uniform:A` stated in
/// [`Law::parse`].
pub(super) fn continuous(name: &str, text: &str, uniform: bool) -> Result<Law> {
    let allowed = if uniform {
        "uniform:A with A > 0 a rational or decimal"
    } else {
        "gaussian:S with S > 0 a rational or decimal"
    };
    let width = text
        .split_once(':')
        .map(|(_, w)| w.trim())
        .and_then(|w| parse_rational(w).ok())
        .filter(|w| w.is_positive())
        .ok_or_else(|| Error::invalid(name, allowed, text))?;
    let one = BigRational::one();
    let mut atoms = Vec::new();
    if uniform {
        // U(-A, A) on steps of A/8: the mass of each step's cell, 1/16 inside and 1/32 at
        // the two ends (exact).
        let step = &width / BigRational::from_integer(8.into());
        for k in -8i64..=8 {
            let p = if k.abs() == 8 {
                BigRational::new(1.into(), 32.into())
            } else {
                BigRational::new(1.into(), 16.into())
            };
            atoms.push((&step * BigRational::from_integer(k.into()), p));
        }
    } else {
        // N(0, S^2) on steps of S/4 out to 4 S: each atom the mass of its cell (the end atoms
        // the tails too), rounded to a multiple of 2^-40; the centre takes the remainder, so
        // the law sums to 1 exactly and is symmetric.
        let step = &width / BigRational::from_integer(4.into());
        let cdf = |x: f64| 0.5 * libm::erfc(-x / std::f64::consts::SQRT_2);
        let scale = (1u64 << 40) as f64;
        let denominator: BigInt = BigInt::one() << 40usize;
        let mut side = Vec::new();
        for k in 1..=CONTINUOUS_SIDE {
            let low = (k as f64 - 0.5) / 4.0;
            let mass = if k == CONTINUOUS_SIDE {
                1.0 - cdf(low)
            } else {
                cdf(low + 0.25) - cdf(low)
            };
            side.push(BigInt::from((mass * scale).round() as u64));
        }
        let taken: BigInt = side.iter().sum::<BigInt>() * 2;
        let centre = BigRational::new(&denominator - taken, denominator.clone());
        for (k, m) in side.iter().enumerate().rev() {
            let value = &step * BigRational::from_integer((-(k as i64 + 1)).into());
            atoms.push((value, BigRational::new(m.clone(), denominator.clone())));
        }
        atoms.push((BigRational::zero(), centre));
        for (k, m) in side.iter().enumerate() {
            let value = &step * BigRational::from_integer((k as i64 + 1).into());
            atoms.push((value, BigRational::new(m.clone(), denominator.clone())));
        }
    }
    atoms.retain(|(_, p)| !p.is_zero());
    debug_assert_eq!(
        atoms.iter().map(|(_, p)| p.clone()).sum::<BigRational>(),
        one
    );
    Ok(Law {
        atoms,
        spec: Some(format!(
            "{}:{}",
            if uniform { "uniform" } else { "gaussian" },
            crate::numeric::number::short_text(&width)
        )),
    })
}

/// `normal:MU,S`: the lattice of `gaussian:S` shifted by MU (the points MU + k S / 4,
/// |k| <= 16, with the same masses), so that `normal:0,S` has the atoms of `gaussian:S`.
pub(super) fn normal(name: &str, text: &str) -> Result<Law> {
    let allowed = "normal:MU,S with MU a rational or decimal (the mean) and S > 0 a rational or \
                   decimal (the standard deviation)";
    let (mu, width) = text
        .split_once(':')
        .and_then(|(_, rest)| rest.split_once(','))
        .ok_or_else(|| Error::invalid(name, allowed, text))?;
    let mu = parse_rational(mu.trim()).map_err(|_| Error::invalid(name, allowed, text))?;
    match parse_rational(width.trim()) {
        Ok(w) if w.is_positive() => {}
        _ => return Err(Error::invalid(name, allowed, text)),
    }
    let centred = continuous(name, &format!("gaussian:{}", width.trim()), false)?;
    let atoms = centred
        .atoms
        .into_iter()
        .map(|(v, p)| (v + &mu, p))
        .collect();
    let spec = centred.spec.expect("a stated law");
    Ok(Law {
        atoms,
        spec: Some(format!(
            "normal:{},{}",
            crate::numeric::number::short_text(&mu),
            spec.trim_start_matches("gaussian:")
        )),
    })
}

/// The largest N of `binomial:N`.
pub const MAX_BINOMIAL: u32 = 1024;

/// `binomial:N`: the centred binomial Bin(N, 1/2) - N/2, the N + 1 values k - N/2 (k = 0..N)
/// with probabilities C(N, k) / 2^N, exactly (variance N/4). `binomial:2m` is the law
/// `-m:1/4^m,...,m:1/4^m` of the why-minimax study's leaf terms and noise.
pub(super) fn binomial(name: &str, text: &str) -> Result<Law> {
    let allowed = format!("binomial:N with N a whole number in 1..={MAX_BINOMIAL}");
    let n: u32 = text
        .split_once(':')
        .and_then(|(_, n)| n.trim().parse().ok())
        .filter(|n| (1..=MAX_BINOMIAL).contains(n))
        .ok_or_else(|| Error::invalid(name, &allowed, text))?;
    let total = BigInt::one() << (n as usize);
    let half = BigRational::new(n.into(), 2.into());
    let mut weight = BigInt::one();
    let mut atoms = Vec::with_capacity(n as usize + 1);
    for k in 0..=n {
        atoms.push((
            BigRational::from_integer(k.into()) - &half,
            BigRational::new(weight.clone(), total.clone()),
        ));
        weight = weight * (n - k) / (k + 1);
    }
    Ok(Law {
        atoms,
        spec: Some(format!("binomial:{n}")),
    })
}

/// The span of the leaves' true values, `[h min(step) + min(leaf), h max(step) + max(leaf)]`:
/// the default `--range` of `--levels`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::pathsum::{Law, value_span};
/// let (lo, hi) = value_span(&Law::parse("--step", "1:1/2,-1:1/2").unwrap(), &Law::point(0.into()), 4);
/// assert_eq!((lo.to_string(), hi.to_string()), ("-4".to_string(), "4".to_string()));
/// ```
pub fn value_span(step: &Law, leaf: &Law, height: u32) -> (BigRational, BigRational) {
    let h = BigRational::from_integer(height.into());
    let first = |law: &Law| law.atoms[0].0.clone();
    let last = |law: &Law| law.atoms[law.atoms.len() - 1].0.clone();
    (first(step) * &h + first(leaf), last(step) * &h + last(leaf))
}
