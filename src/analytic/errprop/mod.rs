//! Minimax error propagation in bi-valued binary D-games: the gamma/delta map.
//!
//! Li & Marsland (1990), *On Minimax Game Tree Search Pathology and Node-Value Dependence*,
//! Section 5. A bi-valued evaluation psi mislabels a loss node as 1 with probability
//! `gamma = Pr[Psi = 1 | loss]` and a win node as 0 with probability
//! `delta = Pr[Psi = 0 | win]`, independently of the sibling's value given the node's own merit
//! value. The dependence factors are those of conditions 2' and 3' (Section 3.2): a win Max node
//! has two win children with probability `f1`, a loss Min node two loss children with
//! probability `f2`.
//!
//! # The Max-to-Max map (formulas 3 and 4)
//!
//! Backing the errors up two levels, from Max nodes at depth 2k through Min nodes to the Max
//! node at depth 2(k-1), gives ([`max_to_max`]), with `a = gamma^2 f2 + gamma (1-delta)(1-f2)`
//! (the Min node's gamma) and `b = 2 delta - delta^2` (the Min node's delta):
//!
//! ```text
//! gamma' = 2a - a^2                                               (3)
//! delta' = b^2 f1 + b (1 - a)(1 - f1)                             (4)
//! ```
//!
//! # The Min-to-Min map (left to the reader by the paper)
//!
//! The paper notes that "the interested reader can write formulas equivalent to (3) and (4) for
//! the Min nodes to Min nodes minimax back-up". Derivation, in the paper's notation for the
//! subtree of its Fig. 1 with the node types exchanged: g0 is a Min node at depth 2(k-1), its
//! children g1, g2 are Max nodes, and the children g3, g4 of g1 are Min nodes at depth 2k
//! with errors `gamma`, `delta`.
//!
//! 1. *Max node g1* (`Psi1 = 1` iff `Psi3 = 1` or `Psi4 = 1`). A loss Max node has two loss
//!    children (with probability 1), so `gamma1 = 1 - (1 - gamma)^2 = 2 gamma - gamma^2`.
//!    A win Max node has children (win, win) with probability `f1` and one win, one loss child
//!    with probability `1 - f1`; `Psi1 = 0` needs both children read as 0:
//!    `delta1 = delta^2 f1 + delta (1 - gamma)(1 - f1)`.
//! 2. *Min node g0* (`Psi0 = 1` iff `Psi1 = Psi2 = 1`). A win Min node has two win children,
//!    so `delta0 = 1 - (1 - delta1)^2 = 2 delta1 - delta1^2`. A loss Min node has children
//!    (loss, loss) with probability `f2` and one loss, one win child with probability
//!    `1 - f2`; `Psi0 = 1` needs both read as 1:
//!    `gamma0 = gamma1^2 f2 + gamma1 (1 - delta1)(1 - f2)`.
//!
//! So, with `c = delta^2 f1 + delta (1 - gamma)(1 - f1)` and `e = 2 gamma - gamma^2`
//! ([`min_to_min`]):
//!
//! ```text
//! delta' = 2c - c^2
//! gamma' = e^2 f2 + e (1 - c)(1 - f2)
//! ```
//!
//! This is formulas (3)-(4) with the roles exchanged, `gamma <-> delta` and `f1 <-> f2`: the
//! Min-to-Min map is the Max-to-Max map seen by the other player (exchange win and loss and
//! the values 0 and 1). Its fixed points are the mirror images of the Max-to-Max ones, e.g.
//! `(1, 0)` in place of `(0, 1)`; the unit tests check the identity.
//!
//! # Theorems 5.1 and 5.2
//!
//! [`theorem_5_1`] gives the thresholds `F1 = 1/(2 - 4 delta)`, `F2 = 1/(2(1 - gamma))` above
//! which errors shrink geometrically, with rates `H1 = 2(gamma f2 + 1 - f2)` and
//! `H2 = 4 delta f1 + 2(1 - f1)`; [`theorem_5_2`] gives
//! `F1 = 1 - 1/((2 - delta)(1 - gamma^2 - gamma(1 - delta)))` and
//! `F2 = 1 - (1 - sqrt(1 - gamma))/(gamma (1 - delta))` below which one back-up step makes both
//! errors larger. The theorems are stated for `gamma < 0.5, delta < 0.25` and
//! `gamma < 0.3, delta < 0.25`; their strict inequalities (and the ratios `gamma'/gamma`) need
//! `gamma > 0` and `delta > 0` as well (at 0 the map keeps 0), so the ranges checked here are
//! open at 0.
//!
//! Beyond the paper, [`stability`] finds the fixed points of the map, their Jacobians and
//! eigenvalues, and the critical `f = f1 = f2` at which the long-run limit of a trajectory
//! switches from `(0, 1)` to `(0, 0)`.

pub mod report;
pub mod stability;
pub mod stream;

use crate::numeric::enclosure::{Enclosure, Ring};

use num_rational::BigRational;

use crate::analytic::dgame::check_unit;
use crate::error::{Error, Result};
use crate::numeric::number::Probability;

/// Which back-up the map performs: two levels from Max nodes to Max nodes (the paper's
/// formulas 3 and 4) or from Min nodes to Min nodes (derived in the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BackUp {
    /// Max nodes at depth 2k to the Max node at depth 2(k-1): formulas (3) and (4).
    #[default]
    Max,
    /// Min nodes at depth 2k to the Min node at depth 2(k-1): the dual map.
    Min,
}

impl BackUp {
    /// `"max"` or `"min"`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::errprop::BackUp;
    /// assert_eq!(BackUp::Max.name(), "max");
    /// assert_eq!(BackUp::Min.name(), "min");
    /// assert_eq!(BackUp::default().name(), "max");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            BackUp::Max => "max",
            BackUp::Min => "min",
        }
    }
}

/// A pair of error probabilities `(gamma, delta)`.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorPair<P> {
    /// `gamma = Pr[Psi = 1 | loss]`.
    pub gamma: P,
    /// `delta = Pr[Psi = 0 | win]`.
    pub delta: P,
}

impl<P: Probability> ErrorPair<P> {
    /// Checks that both errors lie in `[0, 1]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::errprop::ErrorPair;
    /// assert!(ErrorPair::new(0.3, 0.2).is_ok());
    /// assert!(ErrorPair::new(0.3, 1.2).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `gamma` or `delta`.
    pub fn new(gamma: P, delta: P) -> Result<Self> {
        check_unit("gamma", &gamma)?;
        check_unit("delta", &delta)?;
        Ok(ErrorPair { gamma, delta })
    }
}

/// Formulas (3) and (4): one Max-to-Max back-up of the errors `(gamma, delta)`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::max_to_max;
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let (g, d) = max_to_max(&q("0.3"), &q("0.2"), &q("0.5"), &q("0.5"));
/// // a = 0.09/2 + 0.3 * 0.8 / 2 = 0.165, gamma' = 0.33 - 0.027225
/// assert_eq!(g, q("0.302775"));
/// // b = 0.36, delta' = 0.1296/2 + 0.36 * 0.835 / 2
/// assert_eq!(d, q("0.2151"));
/// ```
pub fn max_to_max<P: Probability>(gamma: &P, delta: &P, f1: &P, f2: &P) -> (P, P) {
    max_to_max_in(gamma, delta, f1, f2)
}

/// Formulas (3) and (4) in any [`Ring`] (a probability mode or an [`Enclosure`]).
fn max_to_max_in<T: Ring>(gamma: &T, delta: &T, f1: &T, f2: &T) -> (T, T) {
    let one = T::one();
    let two = one.add(&one);
    // The Min node's errors.
    let a = gamma
        .mul(gamma)
        .mul(f2)
        .add(&gamma.mul(&one.sub(delta)).mul(&one.sub(f2)));
    let b = delta.mul(&two.sub(delta));
    let gamma_next = a.mul(&two.sub(&a));
    let delta_next = b
        .mul(&b)
        .mul(f1)
        .add(&b.mul(&one.sub(&a)).mul(&one.sub(f1)));
    (gamma_next, delta_next)
}

/// The Min-to-Min back-up derived in the module docs: formulas (3)-(4) with
/// `gamma <-> delta` and `f1 <-> f2` exchanged.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::{max_to_max, min_to_min};
/// let (g, d) = min_to_min(&0.3, &0.2, &0.7, &0.6);
/// let (d2, g2) = max_to_max(&0.2, &0.3, &0.6, &0.7);
/// assert_eq!((g, d), (g2, d2));
/// ```
pub fn min_to_min<P: Probability>(gamma: &P, delta: &P, f1: &P, f2: &P) -> (P, P) {
    min_to_min_in(gamma, delta, f1, f2)
}

/// The Min-to-Min map in any [`Ring`].
fn min_to_min_in<T: Ring>(gamma: &T, delta: &T, f1: &T, f2: &T) -> (T, T) {
    let one = T::one();
    let two = one.add(&one);
    // The Max node's errors.
    let e = gamma.mul(&two.sub(gamma));
    let c = delta
        .mul(delta)
        .mul(f1)
        .add(&delta.mul(&one.sub(gamma)).mul(&one.sub(f1)));
    let delta_next = c.mul(&two.sub(&c));
    let gamma_next = e
        .mul(&e)
        .mul(f2)
        .add(&e.mul(&one.sub(&c)).mul(&one.sub(f2)));
    (gamma_next, delta_next)
}

/// One back-up step of the chosen map.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::{BackUp, ErrorPair, back_up};
/// let next = back_up(&ErrorPair { gamma: 0.0, delta: 1.0 }, &0.4, &0.4, BackUp::Max);
/// assert_eq!(next, ErrorPair { gamma: 0.0, delta: 1.0 }); // (0, 1) is a fixed point
/// ```
pub fn back_up<P: Probability>(point: &ErrorPair<P>, f1: &P, f2: &P, from: BackUp) -> ErrorPair<P> {
    let (gamma, delta) = match from {
        BackUp::Max => max_to_max(&point.gamma, &point.delta, f1, f2),
        BackUp::Min => min_to_min(&point.gamma, &point.delta, f1, f2),
    };
    ErrorPair { gamma, delta }
}

/// One back-up step of the chosen map in any [`Ring`] (exact rationals, `f64` or
/// outward-rounded [`Enclosure`]s): returns `(gamma', delta')`.
///
/// # Examples
///
/// ```
/// use pathology::numeric::enclosure::Enclosure;
/// use pathology::analytic::errprop::{BackUp, back_up_in};
/// let p = Enclosure::point;
/// let (g, d) = back_up_in(&p(0.0), &p(1.0), &p(0.3), &p(0.3), BackUp::Max);
/// assert!(g.lower <= 0.0 && 0.0 <= g.upper && d.lower <= 1.0 && 1.0 <= d.upper);
/// ```
pub fn back_up_in<T: Ring>(gamma: &T, delta: &T, f1: &T, f2: &T, from: BackUp) -> (T, T) {
    match from {
        BackUp::Max => max_to_max_in(gamma, delta, f1, f2),
        BackUp::Min => min_to_min_in(gamma, delta, f1, f2),
    }
}

/// A rigorous enclosure of the exact trajectory from the exact start `(gamma, delta)` with the
/// exact factors `f1`, `f2`: the map of [`back_up`] evaluated in outward-rounded interval
/// arithmetic ([`Enclosure`]). The `f64` trajectory from the nearest doubles lies within
/// [`Enclosure::radius_around`] of the exact one.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::{BackUp, ErrorPair, enclosed_trajectory, trajectory};
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let start = ErrorPair::new(q("0.3"), q("0.2")).unwrap();
/// let boxes = enclosed_trajectory(&start, &q("0.7"), &q("0.7"), BackUp::Max, 10).unwrap();
/// let exact = trajectory(start, &q("0.7"), &q("0.7"), BackUp::Max, 3).unwrap();
/// let third = num_rational::BigRational::from_float(boxes[3].gamma.upper).unwrap();
/// assert!(third >= exact[3].gamma);
/// assert!(boxes[10].gamma.upper - boxes[10].gamma.lower < 1e-13);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] when `f1` or `f2` is outside `[0, 1]`; [`Error::Interrupted`]
/// when cancelled ([`crate::cancel`]: checked once per step).
pub fn enclosed_trajectory(
    start: &ErrorPair<BigRational>,
    f1: &BigRational,
    f2: &BigRational,
    from: BackUp,
    steps: u32,
) -> Result<Vec<ErrorPair<Enclosure>>> {
    check_unit("f1", f1)?;
    check_unit("f2", f2)?;
    let (f1, f2) = (Enclosure::of(f1), Enclosure::of(f2));
    let mut points = Vec::with_capacity(steps as usize + 1);
    points.push(ErrorPair {
        gamma: Enclosure::of(&start.gamma),
        delta: Enclosure::of(&start.delta),
    });
    let cancel = crate::cancel::current();
    for _ in 0..steps {
        cancel.check()?;
        let p = points.last().expect("non-empty");
        let (gamma, delta) = match from {
            BackUp::Max => max_to_max_in(&p.gamma, &p.delta, &f1, &f2),
            BackUp::Min => min_to_min_in(&p.gamma, &p.delta, &f1, &f2),
        };
        points.push(ErrorPair { gamma, delta });
    }
    Ok(points)
}

/// Exact trajectories are refused when the estimated time exceeds this.
pub const EXACT_TIME_LIMIT_SECONDS: f64 = crate::budget::ANALYTIC_TIME_LIMIT_SECONDS;

/// Seconds per (64-bit word)^2 of the numbers of one exact step: the gcd reductions of
/// `BigRational` arithmetic are quadratic in num-bigint and dominate. Measured on the
/// project's 2-core machine (release build, start (0.3, 0.2), f = 0.7: step 8 with 624,000-bit
/// denominators took 3.5 s, step 9 with 2.5 million bits 55 s); meant to be right within a
/// factor of two.
const EXACT_STEP_COEFFICIENT: f64 = 3.6e-8;

/// Estimated seconds for an exact trajectory of `steps` steps.
///
/// Each step is a polynomial of degree 4 in `(gamma, delta)`, so the bit size of the
/// denominators grows about 4x a step: `bits(k+1) = 4 bits(k) + bits(f1) + bits(f2)`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::estimate_exact_seconds;
/// assert!(estimate_exact_seconds(4.0, 7.0, 6) < 1.0);
/// assert!(estimate_exact_seconds(4.0, 7.0, 14) > 3600.0);
/// ```
pub fn estimate_exact_seconds(start_bits: f64, factor_bits: f64, steps: u32) -> f64 {
    let mut bits = start_bits.max(1.0);
    let mut seconds = 0.0;
    for _ in 0..steps {
        bits = 4.0 * bits + factor_bits;
        let words = bits / 64.0;
        seconds += EXACT_STEP_COEFFICIENT * (words * words + 1000.0 * words);
    }
    seconds
}

fn denominator_bits(value: &BigRational) -> f64 {
    let bits = value.denom().bits() as f64;
    bits.max(1.0)
}

/// Checks an exact trajectory's cost before it is computed.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::check_exact_trajectory;
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// assert!(check_exact_trajectory(&q("0.3"), &q("0.2"), &q("0.7"), &q("0.7"), 6).is_ok());
/// assert!(check_exact_trajectory(&q("0.3"), &q("0.2"), &q("0.7"), &q("0.7"), 20).is_err());
/// ```
///
/// # Errors
///
/// [`Error::TooExpensive`] when the estimate exceeds [`EXACT_TIME_LIMIT_SECONDS`].
pub fn check_exact_trajectory(
    gamma: &BigRational,
    delta: &BigRational,
    f1: &BigRational,
    f2: &BigRational,
    steps: u32,
) -> Result<()> {
    let start = denominator_bits(gamma) + denominator_bits(delta);
    let factors = denominator_bits(f1) + denominator_bits(f2);
    let seconds = estimate_exact_seconds(start, factors, steps);
    if seconds > EXACT_TIME_LIMIT_SECONDS {
        let mut feasible = 0;
        while feasible < steps
            && estimate_exact_seconds(start, factors, feasible + 1) <= EXACT_TIME_LIMIT_SECONDS
        {
            feasible += 1;
        }
        return Err(crate::budget::refuse(
            format!(
                "an exact trajectory of {steps} steps (the rationals grow about 4x in size a step)"
            ),
            crate::budget::about_seconds(seconds),
            format!("{EXACT_TIME_LIMIT_SECONDS:.0} s"),
            format!(
                "Use at most {feasible} steps with --exact, or drop --exact to iterate in f64."
            ),
        ));
    }
    Ok(())
}

/// Bytes of memory per step of the one trajectory being computed (its points and their
/// outward-rounded enclosures). The rows are printed as they are produced
/// ([`crate::report::stream`]), so CSV and JSON hold one trajectory at a time. Measured
/// (release build, idle): 11 settings x 100,001 steps as CSV peaked at 15.5 MB (155 bytes a
/// step); before streaming the whole report took 1.03 GB.
pub const TRAJECTORY_STEP_BYTES: f64 = 200.0;
/// Bytes per row (one setting at one step) that a run holds until it ends: text, Markdown and
/// LaTeX print a row per step across all settings, so they keep every trajectory's points
/// (measured: 11 x 100,001 as text peaked at 60 MB, 55 bytes a row, was 1.1 GB); CSV and
/// JSON keep only the points of `--plot`'s series (16 bytes).
pub const TRAJECTORY_HELD_ROW_BYTES: f64 = 100.0;
/// See [`TRAJECTORY_HELD_ROW_BYTES`]: the plot series of a streamed format.
pub const TRAJECTORY_PLOT_ROW_BYTES: f64 = 16.0;
/// Seconds per trajectory row rendered as CSV or JSON, the worst case: values that underflow
/// to subnormal doubles (f = 0.7: the errors vanish), whose printed error bounds are computed
/// exactly. Measured on the project's loaded 2-core machine: 1 x 100,001 rows in 2.7 s wall
/// (0.7 s of CPU) as CSV; before exact-integer printing (`report::cell`) it was 35 s.
pub const TRAJECTORY_ROW_SECONDS_MACHINE: f64 = 3.0e-5;
/// Seconds per trajectory row rendered as text, Markdown or LaTeX (measured idle, rows
/// streamed: 1 x 100,001 rows of f = 0.7 in 0.17 s as text, 0.12 s as Markdown and LaTeX;
/// 11 x 100,001 in 1.41 s as text; rounded up about 2x).
pub const TRAJECTORY_ROW_SECONDS_TEXT: f64 = 3.0e-6;

/// Estimated seconds and bytes of a trajectory report: `settings x (steps + 1)` rows at the
/// measured cost of a row in `format` ([`TRAJECTORY_ROW_SECONDS_MACHINE`],
/// [`TRAJECTORY_ROW_SECONDS_TEXT`]), plus in exact mode
/// [`estimate_exact_seconds`] for every setting.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::estimate_trajectory_cost;
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::Format;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let settings = vec![(q("0.7"), q("0.7")); 101];
/// let (seconds, bytes) =
///     estimate_trajectory_cost(&q("0.3"), &q("0.2"), &settings, 100_000, false, Format::Csv);
/// // About 10 million rows: too long, but streamed, so small in memory.
/// assert!(seconds > 60.0 && bytes < 2e8);
/// let (_, held) =
///     estimate_trajectory_cost(&q("0.3"), &q("0.2"), &settings, 100_000, false, Format::Text);
/// assert!(held > 1e9);
/// ```
pub fn estimate_trajectory_cost(
    gamma: &BigRational,
    delta: &BigRational,
    settings: &[(BigRational, BigRational)],
    steps: u32,
    exact: bool,
    format: crate::report::Format,
) -> (f64, f64) {
    use crate::report::Format;
    let rows = settings.len() as f64 * (f64::from(steps) + 1.0);
    let per_row = match format {
        Format::Csv | Format::Json => TRAJECTORY_ROW_SECONDS_MACHINE,
        Format::Text | Format::Markdown | Format::Latex => TRAJECTORY_ROW_SECONDS_TEXT,
    };
    let mut seconds = rows * per_row;
    if exact {
        let start = denominator_bits(gamma) + denominator_bits(delta);
        seconds += settings
            .iter()
            .map(|(f1, f2)| {
                let factors = denominator_bits(f1) + denominator_bits(f2);
                estimate_exact_seconds(start, factors, steps)
            })
            .sum::<f64>();
    }
    let bytes = (f64::from(steps) + 1.0) * TRAJECTORY_STEP_BYTES + rows * held_row_bytes(format);
    (seconds, bytes)
}

/// Bytes a trajectory run holds per row until it ends ([`TRAJECTORY_HELD_ROW_BYTES`]).
fn held_row_bytes(format: crate::report::Format) -> f64 {
    use crate::report::Format;
    match format {
        Format::Csv | Format::Json => TRAJECTORY_PLOT_ROW_BYTES,
        Format::Text | Format::Markdown | Format::Latex => TRAJECTORY_HELD_ROW_BYTES,
    }
}

/// Refuses, with the estimate, a trajectory report beyond about a minute or 16 GiB
/// ([`crate::budget::ANALYTIC_TIME_LIMIT_SECONDS`], [`crate::budget::MEMORY_LIMIT_BYTES`]):
/// see [`estimate_trajectory_cost`]. Exact trajectories are also checked one by one by
/// [`check_exact_trajectory`].
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::check_trajectory_cost;
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::Format;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let one = vec![(q("0.7"), q("0.7"))];
/// assert!(check_trajectory_cost(&q("0.3"), &q("0.2"), &one, 100_000, false, Format::Text).is_ok());
/// let many = vec![(q("0.7"), q("0.7")); 10_001];
/// let err = check_trajectory_cost(&q("0.3"), &q("0.2"), &many, 100_000, false, Format::Csv);
/// assert!(err.unwrap_err().to_string().contains("refused"));
/// ```
///
/// # Errors
///
/// [`Error::TooExpensive`] with the estimate and what to do instead.
pub fn check_trajectory_cost(
    gamma: &BigRational,
    delta: &BigRational,
    settings: &[(BigRational, BigRational)],
    steps: u32,
    exact: bool,
    format: crate::report::Format,
) -> Result<()> {
    use crate::budget::{Cost, MEMORY_LIMIT_BYTES};
    const TIME_LIMIT_SECONDS: f64 = crate::budget::ANALYTIC_TIME_LIMIT_SECONDS;
    let (seconds, bytes) = estimate_trajectory_cost(gamma, delta, settings, steps, exact, format);
    let cost = Cost { seconds, bytes };
    if !cost.exceeds_limits() {
        crate::budget::announce_estimate(
            &format!("{} trajectories of {steps} steps", settings.len()),
            seconds,
        );
        return Ok(());
    }
    let rows = settings.len() as f64 * (f64::from(steps) + 1.0);
    let (per_row, _) = estimate_trajectory_cost(gamma, delta, &settings[..1], 0, false, format);
    let feasible_rows =
        (TIME_LIMIT_SECONDS / per_row).min(MEMORY_LIMIT_BYTES / held_row_bytes(format));
    let hint = if exact {
        "Use fewer --f values or --steps, or drop --exact to iterate in f64.".to_string()
    } else {
        format!(
            "Use fewer --f values or --steps (about {feasible_rows:.0} rows in all), or \
             --long-run for the limits alone."
        )
    };
    Err(cost.refusal(
        format!(
            "{} trajectories of {steps} steps{} ({rows:.3e} rows)",
            settings.len(),
            if exact { " in exact rationals" } else { "" }
        ),
        &hint,
    ))
}

/// The trajectory `(gamma_k, delta_k)`, `k = 0..=steps`, of the chosen back-up map.
///
/// In exact mode call [`check_exact_trajectory`] first: the rationals grow about 4x in size a
/// step.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::{BackUp, ErrorPair, trajectory};
/// let points = trajectory(ErrorPair::new(0.3, 0.2).unwrap(), &0.9, &0.9, BackUp::Max, 3).unwrap();
/// assert_eq!(points.len(), 4);
/// assert!(points[3].gamma < points[0].gamma && points[3].delta < points[0].delta);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] when `f1` or `f2` is outside `[0, 1]`; [`Error::Interrupted`]
/// when cancelled ([`crate::cancel`]: checked once per step).
pub fn trajectory<P: Probability>(
    start: ErrorPair<P>,
    f1: &P,
    f2: &P,
    from: BackUp,
    steps: u32,
) -> Result<Vec<ErrorPair<P>>> {
    check_unit("f1", f1)?;
    check_unit("f2", f2)?;
    let mut points = Vec::with_capacity(steps as usize + 1);
    points.push(start);
    let cancel = crate::cancel::current();
    for _ in 0..steps {
        cancel.check()?;
        let next = back_up(points.last().expect("non-empty"), f1, f2, from);
        points.push(next);
    }
    Ok(points)
}

/// Where an f64 trajectory settles ([`long_run`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LongRun {
    /// The last point computed.
    pub limit: ErrorPair<f64>,
    /// Steps taken.
    pub steps: u32,
    /// Whether the last step moved the point by at most [`SETTLE_TOLERANCE`].
    pub settled: bool,
}

/// A trajectory has settled when a step moves it by at most this (in each coordinate).
pub const SETTLE_TOLERANCE: f64 = 1e-15;
/// [`long_run`] gives up after this many steps (slow convergence happens only at a
/// non-hyperbolic fixed point, e.g. `f1 = 1/2` at `(0, 0)`).
pub const LONG_RUN_MAX_STEPS: u32 = 1_000_000;

/// Iterates the map in f64 until a step moves the point by at most [`SETTLE_TOLERANCE`].
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::{BackUp, ErrorPair, long_run};
/// let run = long_run(&ErrorPair::new(0.3, 0.2).unwrap(), 0.2, 0.2, BackUp::Max).unwrap();
/// assert!(run.settled);
/// assert!(run.limit.gamma < 1e-12 && (run.limit.delta - 1.0).abs() < 1e-12);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] for arguments outside `[0, 1]`.
pub fn long_run(start: &ErrorPair<f64>, f1: f64, f2: f64, from: BackUp) -> Result<LongRun> {
    ErrorPair::new(start.gamma, start.delta)?;
    check_unit("f1", &f1)?;
    check_unit("f2", &f2)?;
    let mut point = start.clone();
    for step in 1..=LONG_RUN_MAX_STEPS {
        let next = back_up(&point, &f1, &f2, from);
        let moved = (next.gamma - point.gamma)
            .abs()
            .max((next.delta - point.delta).abs());
        point = next;
        if moved <= SETTLE_TOLERANCE {
            return Ok(LongRun {
                limit: point,
                steps: step,
                settled: true,
            });
        }
    }
    Ok(LongRun {
        limit: point,
        steps: LONG_RUN_MAX_STEPS,
        settled: false,
    })
}

/// Thresholds of Theorem 5.1 or 5.2 at one `(gamma, delta)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// `F1`.
    pub f1: f64,
    /// `F2`.
    pub f2: f64,
}

fn check_open_range(name: &str, value: f64, upper: f64, theorem: &str) -> Result<()> {
    if value > 0.0 && value < upper {
        Ok(())
    } else {
        Err(Error::invalid(
            name,
            &format!("in (0, {upper}) for {theorem}"),
            value,
        ))
    }
}

/// Theorem 5.1: for `0 < gamma < 0.5`, `0 < delta < 0.25`, the thresholds
/// `F1 = 1/(2 - 4 delta)` and `F2 = 1/(2 (1 - gamma))`; for `f1 > F1` and `f2 > F2` every
/// Max-to-Max back-up shrinks the errors by the factors [`theorem_5_1_rates`] `< 1`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::theorem_5_1;
/// let t = theorem_5_1(0.3, 0.2).unwrap();
/// assert!((t.f1 - 1.0 / 1.2).abs() < 1e-15 && (t.f2 - 1.0 / 1.4).abs() < 1e-15);
/// assert!(theorem_5_1(0.5, 0.2).is_err());
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `gamma` or `delta` and the theorem's range.
pub fn theorem_5_1(gamma: f64, delta: f64) -> Result<Thresholds> {
    check_open_range("gamma", gamma, 0.5, "Theorem 5.1")?;
    check_open_range("delta", delta, 0.25, "Theorem 5.1")?;
    Ok(Thresholds {
        f1: 1.0 / (2.0 - 4.0 * delta),
        f2: 1.0 / (2.0 * (1.0 - gamma)),
    })
}

/// Theorem 5.1's rates `H1 = 2 (gamma f2 + 1 - f2)` and `H2 = 4 delta f1 + 2 (1 - f1)`:
/// `gamma'/gamma < H1` and `delta'/delta < H2`, both below 1 when `f1 > F1`, `f2 > F2`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::theorem_5_1_rates;
/// let (h1, h2) = theorem_5_1_rates(0.3, 0.2, 0.9, 0.9);
/// assert!((h1 - 0.74).abs() < 1e-12 && (h2 - 0.92).abs() < 1e-12);
/// ```
pub fn theorem_5_1_rates(gamma: f64, delta: f64, f1: f64, f2: f64) -> (f64, f64) {
    (
        2.0 * (gamma * f2 + 1.0 - f2),
        4.0 * delta * f1 + 2.0 * (1.0 - f1),
    )
}

/// Theorem 5.2: for `0 < gamma < 0.3`, `0 < delta < 0.25`, the thresholds
/// `F1 = 1 - 1/((2 - delta)(1 - gamma^2 - gamma (1 - delta)))` (formula 9) and
/// `F2 = 1 - (1 - sqrt(1 - gamma))/(gamma (1 - delta))`; for `f1 < F1` and `f2 < F2` one
/// Max-to-Max back-up makes both errors larger.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::theorem_5_2;
/// let t = theorem_5_2(0.2, 0.2).unwrap();
/// assert!(t.f1 > 0.0 && t.f1 < 1.0 && t.f2 > 0.0 && t.f2 < 1.0);
/// assert!(theorem_5_2(0.3, 0.1).is_err());
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `gamma` or `delta` and the theorem's range.
pub fn theorem_5_2(gamma: f64, delta: f64) -> Result<Thresholds> {
    check_open_range("gamma", gamma, 0.3, "Theorem 5.2")?;
    check_open_range("delta", delta, 0.25, "Theorem 5.2")?;
    Ok(Thresholds {
        f1: 1.0 - 1.0 / ((2.0 - delta) * (1.0 - gamma * gamma - gamma * (1.0 - delta))),
        f2: 1.0 - (1.0 - (1.0 - gamma).sqrt()) / (gamma * (1.0 - delta)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;
    use approx::assert_abs_diff_eq;
    use proptest::prelude::*;

    /// f64 and exact trajectories agree to this.
    const FLOAT_AGREEMENT: f64 = 1e-12;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    #[test]
    fn exact_first_step_matches_hand_computation() {
        // gamma = 3/10, delta = 1/5, f1 = f2 = 7/10:
        // a = 9/100 * 7/10 + 3/10 * 4/5 * 3/10 = 63/1000 + 72/1000 = 135/1000 = 27/200
        // gamma' = a (2 - a) = 27/200 * 373/200 = 10071/40000
        // b = 2/5 - 1/25 = 9/25; b^2 f1 = 81/625 * 7/10 = 567/6250
        // b (1 - a)(1 - f1) = 9/25 * 173/200 * 3/10 = 4671/50000
        // delta' = 4536/50000 + 4671/50000 = 9207/50000
        let points = trajectory(
            ErrorPair::new(q("0.3"), q("0.2")).unwrap(),
            &q("0.7"),
            &q("0.7"),
            BackUp::Max,
            1,
        )
        .unwrap();
        assert_eq!(points[1].gamma, q("10071/40000"));
        assert_eq!(points[1].delta, q("9207/50000"));
    }

    #[test]
    fn float_agrees_with_exact() {
        for f in ["0.1", "0.5", "0.7", "0.9"] {
            let steps = 6;
            let exact = trajectory(
                ErrorPair::new(q("0.3"), q("0.2")).unwrap(),
                &q(f),
                &q(f),
                BackUp::Max,
                steps,
            )
            .unwrap();
            let x: f64 = f.parse().unwrap();
            let float = trajectory(
                ErrorPair::new(0.3, 0.2).unwrap(),
                &x,
                &x,
                BackUp::Max,
                steps,
            )
            .unwrap();
            for (e, g) in exact.iter().zip(&float) {
                assert_abs_diff_eq!(e.gamma.to_f64(), g.gamma, epsilon = FLOAT_AGREEMENT);
                assert_abs_diff_eq!(e.delta.to_f64(), g.delta, epsilon = FLOAT_AGREEMENT);
            }
        }
    }

    #[test]
    fn min_map_is_the_dual_max_map() {
        let (g, d) = min_to_min(&q("0.3"), &q("0.15"), &q("0.4"), &q("0.8"));
        let (d2, g2) = max_to_max(&q("0.15"), &q("0.3"), &q("0.8"), &q("0.4"));
        assert_eq!((g, d), (g2, d2));
    }

    #[test]
    fn min_map_matches_two_explicit_levels() {
        // Max level, then Min level, written out independently of min_to_min.
        let (g, d, f1, f2) = (0.25, 0.1, 0.35, 0.6);
        let g1 = 1.0 - (1.0 - g) * (1.0 - g);
        let d1 = d * d * f1 + d * (1.0 - g) * (1.0 - f1);
        let d0 = 1.0 - (1.0 - d1) * (1.0 - d1);
        let g0 = g1 * g1 * f2 + g1 * (1.0 - d1) * (1.0 - f2);
        let (gn, dn) = min_to_min(&g, &d, &f1, &f2);
        assert_abs_diff_eq!(gn, g0, epsilon = FLOAT_AGREEMENT);
        assert_abs_diff_eq!(dn, d0, epsilon = FLOAT_AGREEMENT);
    }

    #[test]
    fn figure_2_trajectories_decrease_to_the_origin() {
        for f in [0.7, 0.8, 0.9] {
            let points =
                trajectory(ErrorPair::new(0.3, 0.2).unwrap(), &f, &f, BackUp::Max, 30).unwrap();
            for pair in points.windows(2) {
                assert!(
                    pair[1].gamma < pair[0].gamma,
                    "f = {f}: gamma must decrease"
                );
                assert!(
                    pair[1].delta < pair[0].delta,
                    "f = {f}: delta must decrease"
                );
            }
            let last = points.last().unwrap();
            assert!(last.gamma < 1e-3 && last.delta < 1e-3, "f = {f}: {last:?}");
        }
    }

    #[test]
    fn figure_3_trajectories_end_near_zero_one() {
        for f in [0.1, 0.2, 0.3] {
            let points =
                trajectory(ErrorPair::new(0.3, 0.2).unwrap(), &f, &f, BackUp::Max, 20).unwrap();
            let last = points.last().unwrap();
            assert!(
                last.gamma < 1e-3 && last.delta > 1.0 - 1e-3,
                "f = {f}: {last:?}"
            );
        }
    }

    #[test]
    fn exact_cost_is_refused_with_estimate() {
        let err =
            check_exact_trajectory(&q("0.3"), &q("0.2"), &q("0.7"), &q("0.7"), 30).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("f64") && text.contains("steps"), "{text}");
        assert!(err.is_usage());
    }

    #[test]
    fn theorem_ranges_name_the_theorem() {
        let text = theorem_5_2(0.4, 0.1).unwrap_err().to_string();
        assert!(text.contains("gamma") && text.contains("Theorem 5.2") && text.contains("0.3"));
        let text = theorem_5_1(0.1, 0.25).unwrap_err().to_string();
        assert!(text.contains("delta") && text.contains("Theorem 5.1"));
    }

    proptest! {
        #[test]
        fn theorem_5_1_holds(
            gamma in 1e-3f64..0.5, delta in 1e-3f64..0.25, s1 in 1e-6f64..1.0, s2 in 1e-6f64..1.0,
        ) {
            let t = theorem_5_1(gamma, delta).unwrap();
            prop_assert!(t.f1 > 0.0 && t.f1 < 1.0 && t.f2 > 0.0 && t.f2 < 1.0);
            // f1 in (F1, 1], f2 in (F2, 1].
            let f1 = t.f1 + s1 * (1.0 - t.f1);
            let f2 = t.f2 + s2 * (1.0 - t.f2);
            let (h1, h2) = theorem_5_1_rates(gamma, delta, f1, f2);
            let (g, d) = max_to_max(&gamma, &delta, &f1, &f2);
            prop_assert!(g / gamma < h1 && h1 < 1.0, "gamma'/gamma = {}, H1 = {}", g / gamma, h1);
            prop_assert!(d / delta < h2 && h2 < 1.0, "delta'/delta = {}, H2 = {}", d / delta, h2);
        }

        #[test]
        fn theorem_5_2_holds(
            gamma in 1e-3f64..0.3, delta in 1e-3f64..0.25, s1 in 0.0f64..0.999, s2 in 0.0f64..0.999,
        ) {
            let t = theorem_5_2(gamma, delta).unwrap();
            prop_assert!(t.f1 > 0.0 && t.f1 < 1.0 && t.f2 > 0.0 && t.f2 < 1.0);
            let (f1, f2) = (s1 * t.f1, s2 * t.f2);
            let (g, d) = max_to_max(&gamma, &delta, &f1, &f2);
            prop_assert!(g > gamma, "gamma' = {g} <= gamma = {gamma}");
            prop_assert!(d > delta, "delta' = {d} <= delta = {delta}");
        }
    }
}
