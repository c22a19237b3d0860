//! Evaluation models: the law `E_v` of a frontier node's evaluation given its true value `v`,
//! and its quantization to ordered levels.
//!
//! The engines only need, for each true value, the CDF of the evaluation over a finite
//! ordered set of levels (what matters is order and ties, not the levels' numbers). Discrete
//! models give exact rational atoms; the levels are their distinct values, or their bins
//! when a [`Quantization`] is given. Continuous models (Gaussian, and uniform noise without
//! a quantization) are binned.
//!
//! **Bins** ([`Quantization`]): `g` equal bins over `[LO, HI]`, bin `i` the half-open
//! interval `[LO + i w, LO + (i + 1) w)` with `w = (HI - LO) / g`, except that the last bin
//! is closed (`HI` belongs to it). Values below `LO` go to bin 0 and values above `HI` to
//! bin `g - 1` (clamped, so no probability is lost). Atoms are binned with exact rational
//! arithmetic; bins no value reaches are dropped (they change neither order nor ties).
//!
//! **Continuous defaults.** Without a quantization, a continuous model is binned into
//! [`DEFAULT_LEVELS`] bins (and, for the estimate of the continuous limit, twice as many)
//! over `[v_min - 8 sigma, v_max + 8 sigma]` (Gaussian: the mass outside is below
//! `1.3e-15`, and it is clamped into the end bins, not lost) or `[v_min - a, v_max + a]`
//! (uniform: exactly the support).

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::histogram::{Histogram, rational_text};
use crate::error::{Error, Result};
use crate::numeric::number::Probability;

/// Bins of a continuous model when no quantization is given (the continuous limit is
/// estimated by comparing with twice as many).
pub const DEFAULT_LEVELS: u32 = 1000;

/// The largest number of levels accepted.
pub const MAX_LEVELS: u32 = 1 << 20;

/// How the expected-playout value is computed (the critical game only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum PlayoutFormula {
    /// The probability that uniformly random play from the node to the terminal depth ends
    /// in a win for Max, over the game's random generation, by the exact recursion on the
    /// node's type and depth (each mover's own critical rate).
    RandomPlay,
    /// The closed form `f` of the authors' code (mcts-lp, `expected_playout.py`): with
    /// `k_i = 1 - gamma_i + gamma_i / b`, `f(r) = (k1 k2)^(r div 2) + (1 - k2) sum_{i=0}^{r
    /// div 2} (k1 k2)^i` (`f = 1` for `r < 2`), times `k1` for odd `r`. It differs from
    /// random-play from `r = 2` on (its geometric sum has one term more:
    /// 7/8 instead of 3/4 at b = 2, gamma = 1) and always starts with Max's rate.
    AuthorsCode,
}

/// The expected-playout heuristic of Nguyen & Ramanujan (critical game only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Playout {
    /// The formula.
    pub formula: PlayoutFormula,
    /// Round the value to this many decimals (to nearest, ties to even), as mcts-lp rounds
    /// its doubles to 6 decimals; `None` keeps the exact value.
    pub decimals: Option<u32>,
}

/// The law of a frontier evaluation given the node's true value.
#[derive(Debug, Clone, PartialEq)]
pub enum Model<P> {
    /// The true value itself.
    Perfect,
    /// The true value, replaced by the other one with probability `error` (two true values
    /// only).
    Artificial {
        /// The error rate e, in `[0, 1]`.
        error: P,
    },
    /// `v + N(0, sigma^2)` (f64 only: its bin probabilities are irrational).
    Gaussian {
        /// The standard deviation, above 0.
        sigma: P,
    },
    /// `v + U(-a, a)`.
    Uniform {
        /// The half-width a, above 0.
        halfwidth: P,
    },
    /// An empirical law per true value.
    Histogram(Histogram),
    /// The expected-playout value (critical game only).
    ExpectedPlayout(Playout),
}

/// Equal bins over a range (module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct Quantization {
    /// The number of bins g.
    pub levels: u32,
    /// `[LO, HI]`; `None`: the model's default range (the atoms' span, or the continuous
    /// default).
    pub range: Option<(BigRational, BigRational)>,
}

/// A model and its optional quantization.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation<P> {
    /// The model.
    pub model: Model<P>,
    /// The bins, if any.
    pub quantization: Option<Quantization>,
}

/// An exact rational from a mode value (a double is an exact rational).
pub(crate) fn rational<P: Probability>(value: &P, name: &str) -> Result<BigRational> {
    match value.exact_value() {
        Some(r) => Ok(r),
        None => BigRational::from_float(value.to_f64())
            .ok_or_else(|| Error::invalid(name, "a finite number", value.to_f64())),
    }
}

fn check_positive<P: Probability>(value: &P, name: &str) -> Result<BigRational> {
    let r = rational(value, name)?;
    if r.is_positive() {
        Ok(r)
    } else {
        Err(Error::invalid(
            name,
            "greater than 0",
            value
                .exact_string()
                .unwrap_or_else(|| value.to_f64().to_string()),
        ))
    }
}

/// The CDFs of the evaluation over its levels, one per true value (last entry 1).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cdfs {
    /// Exact: numerators over one common denominator.
    Exact {
        numerators: Vec<Vec<BigInt>>,
        denominator: BigInt,
    },
    /// Doubles taken as the model's exact values (the Gaussian's bins).
    Float(Vec<Vec<f64>>),
}

/// An enclosure of `n / d` (`d > 0`): one correctly rounded division when both fit in 53
/// bits, else [`crate::numeric::enclosure::Enclosure::of`].
pub(crate) fn enclose_ratio(n: &BigInt, d: &BigInt) -> (f64, f64) {
    if n.bits() <= 53 && d.bits() <= 53 {
        let (nf, df) = (n.to_f64().unwrap_or(0.0), d.to_f64().unwrap_or(1.0));
        let q = nf / df;
        // Exact when q d - n vanishes (one fused multiply-add, exact for these sizes).
        if q.mul_add(df, -nf) == 0.0 {
            (q, q)
        } else {
            (q.next_down().max(0.0), q.next_up())
        }
    } else if let Some(ends) = enclose_by_division(n, d) {
        ends
    } else {
        let e = crate::numeric::enclosure::Enclosure::of(&BigRational::new(n.clone(), d.clone()));
        (e.lower, e.upper)
    }
}

/// The neighbouring doubles of `n / d` (both positive) from one integer division, without
/// reducing the fraction: `q = floor(n 2^k / d)` of 64 or 65 bits, its leading 53 bits
/// rounded down and up (up only when a bit below them or the remainder is not zero). `None`
/// outside the normal range of doubles (then [`crate::numeric::enclosure::Enclosure::of`]).
fn enclose_by_division(n: &BigInt, d: &BigInt) -> Option<(f64, f64)> {
    if !n.is_positive() || !d.is_positive() {
        return None;
    }
    let k = 64 + d.bits() as i64 - n.bits() as i64;
    let (q, r) = if k >= 0 {
        (n << k as u64).div_rem(d)
    } else {
        n.div_rem(&(d << (-k) as u64))
    };
    let q = q.to_u128()?;
    let drop = (128 - q.leading_zeros()).checked_sub(53)?;
    let mantissa = (q >> drop) as u64;
    let inexact = !r.is_zero() || q & ((1u128 << drop) - 1) != 0;
    // The value is mantissa 2^e (rounded down), mantissa of 53 bits.
    let e = i64::from(drop) - k;
    if !(-1022..=900).contains(&e) {
        return None;
    }
    let scale = f64::from_bits(((e + 1023) as u64) << 52);
    let lower = mantissa as f64 * scale;
    let upper = (mantissa + u64::from(inexact)) as f64 * scale;
    Some((lower, upper))
}

/// Scaled integers over the lcm of the denominators (each distinct denominator folded once).
fn scaled(values: &[Vec<BigRational>]) -> (Vec<Vec<BigInt>>, BigInt) {
    let mut seen: std::collections::HashSet<&BigInt> = std::collections::HashSet::new();
    let mut denominator = BigInt::one();
    for x in values.iter().flatten() {
        if seen.insert(x.denom()) {
            denominator = crate::numeric::number::lcm_positive(&denominator, x.denom());
        }
    }
    let numerators = values
        .iter()
        .map(|v| {
            v.iter()
                .map(|x| x.numer() * (&denominator / x.denom()))
                .collect()
        })
        .collect();
    (numerators, denominator)
}

/// A quantized evaluation law.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Law {
    pub levels: usize,
    pub cdfs: Cdfs,
}

impl Law {
    /// The law of the true values themselves (terminal nodes).
    pub fn perfect(values: usize) -> Law {
        Law {
            levels: values,
            cdfs: Cdfs::Exact {
                numerators: (0..values)
                    .map(|i| {
                        (0..values)
                            .map(|x| BigInt::from(u8::from(x >= i)))
                            .collect()
                    })
                    .collect(),
                denominator: BigInt::from(1),
            },
        }
    }

    /// The CDF of true value `value` as exact rationals (`None` for doubles).
    #[cfg(test)]
    pub fn rationals(&self, value: usize) -> Option<Vec<BigRational>> {
        match &self.cdfs {
            Cdfs::Exact {
                numerators,
                denominator,
            } => Some(
                numerators[value]
                    .iter()
                    .map(|n| BigRational::new(n.clone(), denominator.clone()))
                    .collect(),
            ),
            Cdfs::Float(_) => None,
        }
    }

    /// Enclosures `(lower ends, upper ends)` of the CDF of true value `value`.
    pub fn ends(&self, value: usize) -> (Vec<f64>, Vec<f64>) {
        match &self.cdfs {
            Cdfs::Exact {
                numerators,
                denominator,
            } => numerators[value]
                .iter()
                .map(|n| enclose_ratio(n, denominator))
                .unzip(),
            Cdfs::Float(c) => (c[value].clone(), c[value].clone()),
        }
    }

    /// Whether each level of true value `value` has positive mass.
    pub fn support(&self, value: usize) -> Vec<bool> {
        let positive = |x: usize, above: &dyn Fn(usize) -> bool| above(x);
        match &self.cdfs {
            Cdfs::Exact { numerators, .. } => {
                let c = &numerators[value];
                (0..self.levels)
                    .map(|x| {
                        positive(x, &|x| {
                            if x == 0 {
                                !c[0].is_zero()
                            } else {
                                c[x] > c[x - 1]
                            }
                        })
                    })
                    .collect()
            }
            Cdfs::Float(c) => {
                let c = &c[value];
                (0..self.levels)
                    .map(|x| if x == 0 { c[0] > 0.0 } else { c[x] > c[x - 1] })
                    .collect()
            }
        }
    }

    /// `log2` of the common denominator of the CDFs (0 for doubles).
    pub fn denominator_bits(&self) -> f64 {
        match &self.cdfs {
            Cdfs::Exact { denominator, .. } => denominator.bits() as f64,
            Cdfs::Float(_) => 0.0,
        }
    }
}

/// The continuous kind of a model, if it is continuous.
enum Continuous {
    Gaussian(f64),
    Uniform(BigRational),
}

impl<P: Probability> Evaluation<P> {
    /// A model without bins.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::{Evaluation, Model};
    /// let e = Evaluation::new(Model::Artificial { error: 0.1 });
    /// assert!(e.quantization.is_none());
    /// ```
    pub fn new(model: Model<P>) -> Self {
        Evaluation {
            model,
            quantization: None,
        }
    }

    /// The same model binned into `levels` equal bins over `range` (`None`: the default).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::{Evaluation, Model};
    /// let e = Evaluation::new(Model::Uniform { halfwidth: 0.5 }).levels(10, None).unwrap();
    /// assert_eq!(e.quantization.unwrap().levels, 10);
    /// assert!(Evaluation::new(Model::<f64>::Perfect).levels(0, None).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--levels` outside `1..=2^20` or `--range` unless
    /// `LO < HI`.
    pub fn levels(
        mut self,
        levels: u32,
        range: Option<(BigRational, BigRational)>,
    ) -> Result<Self> {
        if !(1..=MAX_LEVELS).contains(&levels) {
            return Err(Error::invalid(
                "--levels",
                &format!("in 1..={MAX_LEVELS}"),
                levels,
            ));
        }
        if let Some((lo, hi)) = &range
            && lo >= hi
        {
            return Err(Error::invalid(
                "--range",
                "LO,HI with LO < HI",
                format!("{},{}", rational_text(lo), rational_text(hi)),
            ));
        }
        self.quantization = Some(Quantization { levels, range });
        Ok(self)
    }

    /// `perfect`, `artificial`, `gaussian`, `uniform`, `histogram` or `expected-playout`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::{Evaluation, Model};
    /// assert_eq!(Evaluation::new(Model::<f64>::Perfect).name(), "perfect");
    /// ```
    pub fn name(&self) -> &'static str {
        match self.model {
            Model::Perfect => "perfect",
            Model::Artificial { .. } => "artificial",
            Model::Gaussian { .. } => "gaussian",
            Model::Uniform { .. } => "uniform",
            Model::Histogram(_) => "histogram",
            Model::ExpectedPlayout(_) => "expected-playout",
        }
    }

    /// Whether the model is continuous and unbinned (computed at [`DEFAULT_LEVELS`] and
    /// twice as many, as an estimate of the continuous limit).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::{Evaluation, Model};
    /// assert!(Evaluation::new(Model::Gaussian { sigma: 0.5 }).is_continuous());
    /// assert!(!Evaluation::new(Model::Gaussian { sigma: 0.5 }).levels(100, None).unwrap().is_continuous());
    /// ```
    pub fn is_continuous(&self) -> bool {
        self.quantization.is_none()
            && matches!(self.model, Model::Gaussian { .. } | Model::Uniform { .. })
    }

    /// The manifest parameters of the evaluation: the model's name and parameters, the
    /// histogram's hash (FNV-1a 64 of its normalised text, hex), the levels and range.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::{Evaluation, Model};
    /// let p = Evaluation::new(Model::Gaussian { sigma: 0.25 }).parameters();
    /// assert_eq!(p[0], ("evaluation".to_string(), "gaussian".to_string()));
    /// assert_eq!(p[1], ("sigma".to_string(), "0.25".to_string()));
    /// ```
    pub fn parameters(&self) -> Vec<(String, String)> {
        let text = |x: &P| x.exact_string().unwrap_or_else(|| x.to_f64().to_string());
        let text = |x: &P| {
            x.exact_value()
                .map(|r| rational_text(&r))
                .unwrap_or_else(|| text(x))
        };
        let mut out = vec![("evaluation".to_string(), self.name().to_string())];
        match &self.model {
            Model::Perfect => {}
            Model::Artificial { error } => out.push(("e".into(), text(error))),
            Model::Gaussian { sigma } => out.push(("sigma".into(), text(sigma))),
            Model::Uniform { halfwidth } => out.push(("halfwidth".into(), text(halfwidth))),
            Model::Histogram(h) => {
                out.push(("histogram_fnv1a64".into(), format!("{:016x}", h.hash())))
            }
            Model::ExpectedPlayout(p) => {
                let formula = match p.formula {
                    PlayoutFormula::RandomPlay => "random-play",
                    PlayoutFormula::AuthorsCode => "authors-code",
                };
                out.push(("playout_formula".into(), formula.into()));
                if let Some(d) = p.decimals {
                    out.push(("playout_decimals".into(), d.to_string()));
                }
            }
        }
        if let Some(q) = &self.quantization {
            out.push(("levels".into(), q.levels.to_string()));
            if let Some((lo, hi)) = &q.range {
                out.push((
                    "range".into(),
                    format!("{},{}", rational_text(lo), rational_text(hi)),
                ));
            }
        }
        out
    }

    /// Checks the model's parameters and its fit to the true values (sorted ascending) and
    /// the mode, before any work.
    pub(crate) fn validate(&self, values: &[BigRational], critical: bool) -> Result<()> {
        match &self.model {
            Model::Perfect => {}
            Model::Artificial { error } => {
                crate::analytic::dgame::check_unit("--e", error)?;
                if values.len() != 2 {
                    return Err(Error::invalid(
                        "--leaves",
                        "two values with the artificial evaluation (it replaces one value by the other)",
                        format!("{} values", values.len()),
                    ));
                }
            }
            Model::Gaussian { sigma } => {
                check_positive(sigma, "--sigma")?;
                if P::EXACT {
                    return Err(Error::invalid(
                        "--exact",
                        "off with the gaussian evaluation (its bin probabilities are irrational)",
                        "on",
                    ));
                }
            }
            Model::Uniform { halfwidth } => {
                check_positive(halfwidth, "--halfwidth")?;
            }
            Model::Histogram(h) => {
                for v in values {
                    h.law(v)?;
                }
            }
            Model::ExpectedPlayout(_) => {
                if !critical {
                    return Err(Error::invalid(
                        "--evaluation",
                        "one of perfect, artificial, gaussian, uniform, histogram for a P-game (expected-playout is defined for the critical game)",
                        "expected-playout",
                    ));
                }
            }
        }
        Ok(())
    }

    fn continuous(&self) -> Option<Continuous> {
        match &self.model {
            Model::Gaussian { sigma } => Some(Continuous::Gaussian(sigma.to_f64())),
            Model::Uniform { halfwidth } => rational(halfwidth, "--halfwidth")
                .ok()
                .map(Continuous::Uniform),
            _ => None,
        }
    }

    /// The atoms `E_v` of a discrete model, one list per true value; `playout` gives the
    /// expected-playout value of each true value at this frontier.
    fn atoms(
        &self,
        values: &[BigRational],
        playout: Option<&[BigRational]>,
    ) -> Result<Vec<Vec<(BigRational, BigRational)>>> {
        let one = BigRational::from_integer(1.into());
        Ok(match &self.model {
            Model::Perfect => values
                .iter()
                .map(|v| vec![(v.clone(), one.clone())])
                .collect(),
            Model::Artificial { error } => {
                let e = rational(error, "--e")?;
                let (lo, hi) = (&values[0], &values[1]);
                vec![
                    vec![(lo.clone(), &one - &e), (hi.clone(), e.clone())],
                    vec![(lo.clone(), e.clone()), (hi.clone(), &one - &e)],
                ]
            }
            Model::Histogram(h) => values
                .iter()
                .map(|v| h.law(v).map(<[_]>::to_vec))
                .collect::<Result<_>>()?,
            Model::ExpectedPlayout(_) => playout
                .expect("the critical engine supplies the playout values")
                .iter()
                .map(|x| vec![(x.clone(), one.clone())])
                .collect(),
            Model::Gaussian { .. } | Model::Uniform { .. } => unreachable!("continuous"),
        })
    }

    /// The quantized law at one frontier. `bins` overrides the number of bins of a
    /// continuous model (the default and its double).
    pub(crate) fn law(
        &self,
        values: &[BigRational],
        playout: Option<&[BigRational]>,
        bins: Option<u32>,
    ) -> Result<Law> {
        if let Some(kind) = self.continuous() {
            let g = self
                .quantization
                .as_ref()
                .map(|q| q.levels)
                .or(bins)
                .unwrap_or(DEFAULT_LEVELS);
            let (vmin, vmax) = (&values[0], &values[values.len() - 1]);
            let range = match (
                self.quantization.as_ref().and_then(|q| q.range.clone()),
                &kind,
            ) {
                (Some(r), _) => r,
                (None, Continuous::Gaussian(sigma)) => {
                    // Exactly: 8 sigma overflows f64 for sigma near its largest value.
                    let s = BigRational::from_float(*sigma).expect("a sigma parsed exactly")
                        * BigRational::from_integer(8.into());
                    (vmin - &s, vmax + &s)
                }
                (None, Continuous::Uniform(a)) => (vmin - a, vmax + a),
            };
            if self
                .quantization
                .as_ref()
                .is_some_and(|q| q.range.is_some())
            {
                let reach = match &kind {
                    // 8 sigma: the mass beyond is below 1.3e-15 (module docs).
                    Continuous::Gaussian(sigma) => {
                        BigRational::from_float(*sigma).expect("a sigma parsed exactly")
                            * BigRational::from_integer(8.into())
                    }
                    Continuous::Uniform(a) => a.clone(),
                };
                let support = (vmin - &reach, vmax + &reach);
                if range.1 < support.0 || range.0 > support.1 {
                    return Err(empty_range(&range, &support, "the evaluations lie in"));
                }
            }
            return Ok(continuous_law(&kind, values, g, &range));
        }
        let atoms = self.atoms(values, playout)?;
        Ok(match &self.quantization {
            None => atom_law(&atoms, |x| x.clone()),
            Some(q) => {
                if let Some((lo, hi)) = &q.range {
                    let all = atoms.iter().flatten().map(|(x, _)| x);
                    if !all.clone().any(|x| lo <= x && x <= hi) {
                        let support = (
                            all.clone().min().expect("atoms").clone(),
                            all.max().expect("atoms").clone(),
                        );
                        return Err(empty_range(
                            &(lo.clone(), hi.clone()),
                            &support,
                            "the evaluations take values in",
                        ));
                    }
                }
                let (lo, hi) = match &q.range {
                    Some(r) => r.clone(),
                    None => {
                        let all = atoms.iter().flatten().map(|(x, _)| x);
                        let lo = all.clone().min().expect("atoms").clone();
                        let hi = all.max().expect("atoms").clone();
                        (lo, hi)
                    }
                };
                let g = BigInt::from(q.levels);
                atom_law(&atoms, |x| {
                    if hi <= lo {
                        return BigRational::from_integer(0.into());
                    }
                    let position =
                        ((x - &lo) * BigRational::from_integer(g.clone()) / (&hi - &lo)).floor();
                    BigRational::from_integer(
                        position
                            .to_integer()
                            .clamp(BigInt::from(0), &g - BigInt::from(1)),
                    )
                })
            }
        })
    }
}

/// The refusal of a `--range` that holds no value of the evaluation law (every value would
/// be clamped into an end bin: one level, D = 1/2 at every depth).
fn empty_range(
    (lo, hi): &(BigRational, BigRational),
    (min, max): &(BigRational, BigRational),
    what: &str,
) -> Error {
    // Short: a fraction of many digits (an expected-playout value) as its nearest double.
    let text = |x: &BigRational| {
        let short = crate::numeric::number::short_text(x);
        if short.len() <= 24 {
            short
        } else {
            format!("{:e}", crate::numeric::number::rational_to_f64(x))
        }
    };
    Error::invalid(
        "--range",
        &format!(
            "a range that holds some value of the evaluation law ({what} [{}, {}]; values \
             outside the range are clamped into the end bins)",
            text(min),
            text(max)
        ),
        format!("{},{}", text(lo), text(hi)),
    )
}

/// `a < b` etc. for exact rationals, through their nearest doubles when those differ by
/// more than their rounding (correctly rounded, so the order is the rationals'), else by
/// cross-multiplication.
fn compare(a: &(BigRational, f64), b: &(BigRational, f64)) -> std::cmp::Ordering {
    let margin = 4.0 * f64::EPSILON * a.1.abs().max(b.1.abs()) + f64::MIN_POSITIVE;
    if (a.1 - b.1).abs() > margin {
        return a.1.partial_cmp(&b.1).expect("finite");
    }
    (a.0.numer() * b.0.denom()).cmp(&(b.0.numer() * a.0.denom()))
}

/// The law of atoms mapped to levels by `key` (levels: the distinct keys of positive mass),
/// as scaled integers.
fn atom_law(
    atoms: &[Vec<(BigRational, BigRational)>],
    key: impl Fn(&BigRational) -> BigRational,
) -> Law {
    // (key and its nearest double, true value, probability)
    let mut entries: Vec<((BigRational, f64), usize, &BigRational)> = atoms
        .iter()
        .enumerate()
        .flat_map(|(v, law)| {
            law.iter()
                .filter(|(_, p)| !p.is_zero())
                .map(move |(x, p)| (x, v, p))
        })
        .map(|(x, v, p)| {
            let k = key(x);
            let approximation = crate::numeric::number::rational_to_f64(&k);
            ((k, approximation), v, p)
        })
        .collect();
    entries.sort_by(|a, b| compare(&a.0, &b.0));
    let probabilities: Vec<BigRational> = entries.iter().map(|e| e.2.clone()).collect();
    let (scaled_probabilities, denominator) = scaled(std::slice::from_ref(&probabilities));
    let mut levels = 0usize;
    let mut level_of = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let same = i > 0 && {
            let previous = &entries[i - 1].0.0;
            previous.numer() == e.0.0.numer() && previous.denom() == e.0.0.denom()
        };
        if !same {
            levels += 1;
        }
        level_of.push(levels - 1);
    }
    let mut numerators = vec![vec![BigInt::zero(); levels]; atoms.len()];
    for ((e, &level), p) in entries.iter().zip(&level_of).zip(&scaled_probabilities[0]) {
        numerators[e.1][level] += p;
    }
    for cdf in &mut numerators {
        for x in 1..levels {
            let previous = cdf[x - 1].clone();
            cdf[x] += previous;
        }
        if let Some(last) = cdf.last_mut() {
            *last = denominator.clone();
        }
    }
    Law {
        levels,
        cdfs: Cdfs::Exact {
            numerators,
            denominator,
        },
    }
}

/// Bins of a continuous model; bins no value reaches are dropped.
fn continuous_law(
    kind: &Continuous,
    values: &[BigRational],
    g: u32,
    (lo, hi): &(BigRational, BigRational),
) -> Law {
    let width = (hi - lo) / BigRational::from_integer(g.into());
    let keep = |cdfs: &[Vec<bool>]| -> Vec<bool> {
        (0..g as usize)
            .map(|i| i + 1 == g as usize || cdfs.iter().any(|c| c[i]))
            .collect()
    };
    match kind {
        Continuous::Gaussian(sigma) => {
            // Each edge's double once, not once per value; the edges lo + i w over one
            // common denominator, their numerators an arithmetic progression (no gcd per
            // edge: the conversion rounds an unreduced fraction correctly as well).
            let denominator = lo.denom().lcm(width.denom());
            let over = |x: &BigRational| x.numer() * (&denominator / x.denom());
            let (mut numerator, step) = (over(lo), over(&width));
            let edges: Vec<f64> = (1..g)
                .map(|_| {
                    numerator += &step;
                    let t = BigRational::new_raw(numerator.clone(), denominator.clone());
                    ToPrimitive::to_f64(&t).unwrap_or(0.0)
                })
                .collect();
            let cdfs: Vec<Vec<f64>> = values
                .iter()
                .map(|v| {
                    let v = ToPrimitive::to_f64(v).unwrap_or(0.0);
                    let mut previous = 0.0f64;
                    let mut out: Vec<f64> = edges
                        .iter()
                        .map(|t| {
                            let z = (t - v) / sigma;
                            let phi = 0.5 * libm::erfc(-z / std::f64::consts::SQRT_2);
                            previous = previous.max(phi.min(1.0));
                            previous
                        })
                        .collect();
                    out.push(1.0);
                    out
                })
                .collect();
            // A bin is used when some value puts mass in it.
            let used: Vec<Vec<bool>> = cdfs
                .iter()
                .map(|c| {
                    (0..c.len())
                        .map(|i| c[i] > if i == 0 { 0.0 } else { c[i - 1] })
                        .collect()
                })
                .collect();
            let keep = keep(&used);
            Law {
                levels: keep.iter().filter(|&&k| k).count(),
                cdfs: Cdfs::Float(
                    cdfs.into_iter()
                        .map(|c| {
                            c.into_iter()
                                .zip(&keep)
                                .filter(|(_, k)| **k)
                                .map(|(x, _)| x)
                                .collect()
                        })
                        .collect(),
                ),
            }
        }
        Continuous::Uniform(a) => {
            // The CDF at edge i is (lo + i w - v + a) / 2a, clamped to [0, 1]: over the common
            // denominator D of (lo - v + a) / 2a (every value's) and w / 2a, the numerators
            // are an arithmetic progression, so the law costs one big addition per edge and
            // value (not a rational division and its gcd each).
            let two_a = a * BigRational::from_integer(2.into());
            let step = &width / &two_a;
            let starts: Vec<BigRational> = values.iter().map(|v| (lo - v + a) / &two_a).collect();
            let denominator = starts
                .iter()
                .fold(step.denom().clone(), |d, x| d.lcm(x.denom()));
            let over = |x: &BigRational| x.numer() * (&denominator / x.denom());
            let step = over(&step);
            let zero = BigInt::zero();
            let cdfs: Vec<Vec<BigInt>> = starts
                .iter()
                .map(|start| {
                    let mut numerator = over(start);
                    let mut out = Vec::with_capacity(g as usize);
                    for _ in 1..g {
                        numerator += &step;
                        out.push(numerator.clone().clamp(zero.clone(), denominator.clone()));
                    }
                    out.push(denominator.clone());
                    out
                })
                .collect();
            let used: Vec<Vec<bool>> = cdfs
                .iter()
                .map(|c| {
                    (0..c.len())
                        .map(|i| {
                            if i == 0 {
                                !c[0].is_zero()
                            } else {
                                c[i] > c[i - 1]
                            }
                        })
                        .collect()
                })
                .collect();
            let keep = keep(&used);
            let numerators: Vec<Vec<BigInt>> = cdfs
                .into_iter()
                .map(|c| {
                    c.into_iter()
                        .zip(&keep)
                        .filter(|(_, k)| **k)
                        .map(|(x, _)| x)
                        .collect()
                })
                .collect();
            Law {
                levels: keep.iter().filter(|&&k| k).count(),
                cdfs: Cdfs::Exact {
                    numerators,
                    denominator,
                },
            }
        }
    }
}

#[cfg(test)]
mod tests;
