//! Claims a referee would sign: a statement, the effect that tests it with its interval, the
//! test, the family it is corrected within, and a verdict in {holds, fails, undecided}.
//!
//! Every study that checks a paper's claim builds [`Claim`]s and hands them to a
//! [`ClaimFamily`], which decides them together and renders the one claims table of the tool
//! ([`ClaimFamily::table`]). The rules, stated once here so that no study invents its own:
//!
//! - **A claim is a sign.** Each claim names a continuous quantity (the size of a drop, the
//!   depth where a fall starts, D at a fixed depth, a difference of two proportions) and the
//!   sign its statement predicts ([`Direction`]): `effect > 0`, `effect < 0`, or
//!   `|effect| <= margin` for a claim of agreement. A verdict is never a count of cells that
//!   are all of one class.
//! - **Exact evidence** ([`Evidence::Exact`]: a rational, or an `f64` with a rigorous error
//!   bound) decides by the sign of the effect's enclosure, with the margin stated (how far the
//!   enclosure lies from the threshold). An enclosure that straddles the threshold is
//!   undecided. Exact claims take no part in the multiple-testing correction: nothing about
//!   them is random.
//! - **Monte Carlo evidence** (a proportion against a value, a difference of two independent
//!   proportions, or a normal estimate with its standard error) is tested two-sided against
//!   the threshold, and the p-values of the family are adjusted by **Holm's step-down
//!   procedure** (family-wise error rate `alpha`). A directional claim holds where the
//!   adjusted p-value is at most `alpha` and the estimate lies on the claimed side, fails
//!   where it is at most `alpha` on the other side, and is undecided otherwise. A claim of
//!   agreement holds only by an equivalence test (two one-sided tests against `±margin`:
//!   not rejecting a paper's value is not agreement) and fails where the effect lies
//!   significantly outside the margin; each claim of agreement is one test of the family, at
//!   twice the smaller of its two p-values (Bonferroni over its two alternatives).
//! - **Intervals and tests are one thing.** Each p-value is the inversion of the interval
//!   shown: the smallest level at which the interval excludes the threshold (Wilson's score
//!   interval for a proportion, so the test is the score test; Newcombe's hybrid score
//!   interval for a difference of two proportions, honest at small n and at 0 or 1 successes;
//!   Wald's for a normal estimate). The interval printed is at the level of the claim's Holm
//!   step (`1 - alpha / (m - i + 1)` for the i-th smallest p-value; the level of the first
//!   step not rejected for the rest), so a decided claim's interval excludes the threshold and
//!   an undecided one's does not.
//!
//! # Examples
//!
//! ```
//! use pathology::report::claims::{Claim, ClaimFamily, Direction, Evidence, Verdict};
//!
//! let mut family = ClaimFamily::new("UCT at N = 1000", 0.05);
//! family.push(Claim::new(
//!     "gamma = 0.9 lowers the fraction of winning moves (b = 5, c = 1)",
//!     "Nguyen & Ramanujan 2024, Fig. 5",
//!     "P(win | gamma = 0.9) - P(win | gamma = 1)",
//!     Direction::Less,
//!     Evidence::ProportionDifference { a: (700, 2000), b: (900, 2000) },
//! ));
//! family.push(Claim::new(
//!     "gamma = 0.9 lowers the fraction of winning moves (b = 8, c = 1)",
//!     "Nguyen & Ramanujan 2024, Fig. 5",
//!     "P(win | gamma = 0.9) - P(win | gamma = 1)",
//!     Direction::Less,
//!     Evidence::ProportionDifference { a: (51, 100), b: (50, 100) },
//! ));
//! let decided = family.decide();
//! assert_eq!(decided[0].verdict, Verdict::Holds);
//! assert_eq!(decided[1].verdict, Verdict::Undecided); // the interval holds 0
//! ```

use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

use super::{Cell, Column, Kind, Table};

/// The sign of the effect a claim's statement predicts.
#[derive(Debug, Clone, PartialEq)]
pub enum Direction {
    /// The statement holds when the effect is above zero.
    Greater,
    /// The statement holds when the effect is below zero.
    Less,
    /// The statement (an agreement) holds when `|effect| <= margin`.
    Within {
        /// The largest difference that still counts as agreement (at least 0).
        margin: f64,
    },
}

/// What a claim is tested with.
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    /// The effect exactly: a [`Cell::Exact`] rational or a [`Cell::Bounded`] `f64` whose
    /// error bound is rigorous.
    Exact(Cell),
    /// A proportion `successes / trials` against a fixed `reference`: the effect is
    /// `successes / trials - reference` (Wilson's score interval, so the score test).
    Proportion {
        /// Successes.
        successes: u64,
        /// Trials.
        trials: u64,
        /// The value compared with.
        reference: f64,
    },
    /// The difference of two independent proportions `a - b`, each `(successes, trials)`
    /// (Newcombe's hybrid score interval).
    ProportionDifference {
        /// The first proportion.
        a: (u64, u64),
        /// The second proportion.
        b: (u64, u64),
    },
    /// The difference `a - b` of two proportions measured on the same units (the same
    /// games, boards or seed), each `(successes, trials)`, whose pairing was not recorded:
    /// Newcombe's interval with the two Wilson half-widths added rather than combined in
    /// quadrature (the MOVER interval at correlation -1), the widest any correlation gives.
    CorrelatedProportionDifference {
        /// The first proportion.
        a: (u64, u64),
        /// The second proportion.
        b: (u64, u64),
    },
    /// An estimate with a standard error from a large sample (Wald's interval).
    Normal {
        /// The estimate of the effect.
        estimate: f64,
        /// Its standard error.
        standard_error: f64,
    },
    /// The data cannot test the claim here, and why (e.g. "every cell decided by ties of
    /// f64 values").
    NotTestable(String),
}

impl Evidence {
    /// `successes / trials - reference` from trials that come in clusters of at most
    /// `design` correlated ones (two games per board, two node pairs per board): a normal
    /// estimate whose standard error is the independent one times `sqrt(design)`, the largest
    /// any positive correlation within a cluster gives. Not testable with no trials.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::claims::Evidence;
    /// let Evidence::Normal { estimate, standard_error } =
    ///     Evidence::clustered_proportion(60, 100, 0.5, 2.0)
    /// else { unreachable!() };
    /// assert!((estimate - 0.1).abs() < 1e-12);
    /// assert!((standard_error - (2.0 * 0.6 * 0.4 / 100.0_f64).sqrt()).abs() < 1e-12);
    /// ```
    pub fn clustered_proportion(successes: u64, trials: u64, reference: f64, design: f64) -> Self {
        if trials == 0 {
            return Evidence::NotTestable("no trials in this run".to_string());
        }
        let p = successes as f64 / trials as f64;
        Evidence::Normal {
            estimate: p - reference,
            standard_error: (design * p * (1.0 - p) / trials as f64).sqrt(),
        }
    }

    /// The difference `a - b` of two estimates, each `(estimate, standard error)`, measured
    /// on the same units (the same boards, games or openings), so correlated in a way the
    /// counts do not show: a normal estimate whose standard error is `se_a + se_b`, the
    /// largest any correlation gives (conservative).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::claims::Evidence;
    /// assert_eq!(
    ///     Evidence::correlated_difference((0.7, 0.01), (0.9, 0.02)),
    ///     Evidence::Normal { estimate: 0.7 - 0.9, standard_error: 0.03 },
    /// );
    /// ```
    pub fn correlated_difference(a: (f64, f64), b: (f64, f64)) -> Self {
        Evidence::Normal {
            estimate: a.0 - b.0,
            standard_error: a.1 + b.1,
        }
    }

    /// Whether this is Monte Carlo evidence with at least one trial (or a finite standard
    /// error): the claims that take part in the correction.
    pub fn is_sampled(&self) -> bool {
        match self {
            Evidence::Proportion { trials, .. } => *trials > 0,
            Evidence::ProportionDifference { a, b }
            | Evidence::CorrelatedProportionDifference { a, b } => a.1 > 0 && b.1 > 0,
            Evidence::Normal {
                estimate,
                standard_error,
            } => estimate.is_finite() && standard_error.is_finite() && *standard_error >= 0.0,
            Evidence::Exact(_) | Evidence::NotTestable(_) => false,
        }
    }
}

/// A claim's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The effect lies on the claimed side (after the correction, for Monte Carlo).
    Holds,
    /// The effect lies on the other side.
    Fails,
    /// The data cannot tell at this size.
    Undecided,
    /// Nothing here can test it.
    NotTestable,
}

impl Verdict {
    /// The word printed in the claims table.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Fails => "fails",
            Verdict::Undecided => "undecided",
            Verdict::NotTestable => "not testable here",
        }
    }
}

/// One claim: what is stated, where, the quantity that tests it, the predicted sign and the
/// evidence.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    /// The statement, as a referee would read it.
    pub statement: String,
    /// Where it is made (paper, section, figure), or "this tool" for the tool's own claims.
    pub source: String,
    /// The quantity whose sign decides it (`D(h-1) - D(1)`, `P(A) - P(B)`).
    pub quantity: String,
    /// The predicted sign.
    pub direction: Direction,
    /// The evidence.
    pub evidence: Evidence,
}

impl Claim {
    /// A claim.
    pub fn new(
        statement: impl Into<String>,
        source: impl Into<String>,
        quantity: impl Into<String>,
        direction: Direction,
        evidence: Evidence,
    ) -> Self {
        Claim {
            statement: statement.into(),
            source: source.into(),
            quantity: quantity.into(),
            direction,
            evidence,
        }
    }
}

/// A claim with its decision.
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    /// The claim.
    pub claim: Claim,
    /// The effect: exact, bounded, or the estimate.
    pub effect: Cell,
    /// The interval at the claim's Holm step (Monte Carlo only).
    pub interval: Option<(f64, f64)>,
    /// The confidence level of that interval.
    pub level: Option<f64>,
    /// The raw p-value (Monte Carlo only).
    pub p_value: Option<f64>,
    /// Holm's adjusted p-value within the family (Monte Carlo only).
    pub holm_p_value: Option<f64>,
    /// The test, in words.
    pub test: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Why, in words: the margin of an exact verdict, the interval's position otherwise.
    pub why: String,
}

/// The claims that are corrected together, with the family-wise error rate.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimFamily {
    /// The family's name (printed in every row).
    pub name: String,
    /// The family-wise error rate of the Monte Carlo claims.
    pub alpha: f64,
    /// The claims, in order.
    pub claims: Vec<Claim>,
}

/// The standard normal upper tail `P(Z > z)`.
fn upper_tail(z: f64) -> f64 {
    0.5 * libm::erfc(z / std::f64::consts::SQRT_2)
}

/// The Wilson score interval of `successes / trials` at normal quantile `z`: it contains the
/// estimate, ends exactly at 0 when there are no successes and at 1 when every trial is one,
/// and is `[0, 1]` for no trials.
///
/// # Examples
///
/// ```
/// use pathology::report::claims::wilson_interval;
/// let (low, high) = wilson_interval(0, 10, 1.959_963_984_540_054);
/// assert_eq!(low, 0.0);
/// assert!((high - 0.2775).abs() < 1e-4);
/// ```
pub fn wilson_interval(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // The interval contains p and ends exactly at 0 (no successes) or 1 (all); rounding
    // alone can miss both (1.4e-20 at k = 0, n = 30000; 0.9999999999999998 at 300/300).
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).clamp(0.0, p)
    };
    let high = if successes == trials {
        1.0
    } else {
        (centre + half).clamp(p, 1.0)
    };
    (low, high)
}

/// The evidence's estimate and its two-sided interval at normal quantile `z`.
fn interval_at(evidence: &Evidence, z: f64) -> (f64, f64, f64) {
    match evidence {
        Evidence::Proportion {
            successes,
            trials,
            reference,
        } => {
            let (low, high) = wilson_interval(*successes, *trials, z);
            let p = if *trials == 0 {
                f64::NAN
            } else {
                *successes as f64 / *trials as f64
            };
            (p - reference, low - reference, high - reference)
        }
        Evidence::ProportionDifference { a, b } => {
            let (pa, pb) = (a.0 as f64 / a.1 as f64, b.0 as f64 / b.1 as f64);
            let (la, ua) = wilson_interval(a.0, a.1, z);
            let (lb, ub) = wilson_interval(b.0, b.1, z);
            let d = pa - pb;
            (
                d,
                d - ((pa - la).powi(2) + (ub - pb).powi(2)).sqrt(),
                d + ((ua - pa).powi(2) + (pb - lb).powi(2)).sqrt(),
            )
        }
        Evidence::CorrelatedProportionDifference { a, b } => {
            let (pa, pb) = (a.0 as f64 / a.1 as f64, b.0 as f64 / b.1 as f64);
            let (la, ua) = wilson_interval(a.0, a.1, z);
            let (lb, ub) = wilson_interval(b.0, b.1, z);
            let d = pa - pb;
            (d, d - ((pa - la) + (ub - pb)), d + ((ua - pa) + (pb - lb)))
        }
        Evidence::Normal {
            estimate,
            standard_error,
        } => (
            *estimate,
            estimate - z * standard_error,
            estimate + z * standard_error,
        ),
        Evidence::Exact(_) | Evidence::NotTestable(_) => (f64::NAN, f64::NAN, f64::NAN),
    }
}

/// The one-sided p-value of "effect > threshold" (`upper`: false) or "effect < threshold"
/// (`upper`: true): the upper tail at the smallest quantile z whose interval has its lower
/// (upper) end at the threshold. The interval's ends move monotonically with z, so a
/// bisection finds it.
fn one_sided_p(evidence: &Evidence, threshold: f64, upper: bool) -> f64 {
    let beyond = |z: f64| {
        let (_, low, high) = interval_at(evidence, z);
        if upper {
            high < threshold
        } else {
            low > threshold
        }
    };
    if !beyond(0.0) {
        // The estimate itself is not beyond the threshold: the complement of the other
        // side's p-value, or one half at the threshold itself.
        let (_, low, high) = interval_at(evidence, 0.0);
        let other_side = if upper {
            low > threshold
        } else {
            high < threshold
        };
        return if other_side {
            1.0 - one_sided_p(evidence, threshold, !upper)
        } else {
            0.5
        };
    }
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    while beyond(hi) {
        if hi > 40.0 {
            return 0.0; // beyond every quantile a double can tell apart
        }
        lo = hi;
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if beyond(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-12 {
            break;
        }
    }
    upper_tail(0.5 * (lo + hi))
}

/// The normal quantile of a two-sided level `1 - a` (a bisection on the upper tail).
fn quantile_two_sided(a: f64) -> f64 {
    let target = (a / 2.0).clamp(f64::MIN_POSITIVE, 0.5);
    let (mut lo, mut hi) = (0.0_f64, 40.0_f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if upper_tail(mid) > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The enclosure `[lower, upper]` of an exact effect, and the cell shown.
fn enclosure(cell: &Cell) -> Option<(f64, f64, Option<BigRational>)> {
    match cell {
        Cell::Exact(r) => {
            let x = r.to_f64()?;
            Some((x, x, Some(r.clone())))
        }
        Cell::Bounded { value, bound } if value.is_finite() && bound.is_finite() => {
            Some((value - bound, value + bound, None))
        }
        _ => None,
    }
}

/// A number for the `why` column (six significant digits).
fn short(x: f64) -> String {
    if x == 0.0 {
        "0".to_string()
    } else {
        format!("{x:.3e}")
            .parse::<f64>()
            .map(|y| format!("{y}"))
            .unwrap_or_else(|_| x.to_string())
    }
}

impl ClaimFamily {
    /// An empty family at family-wise error rate `alpha`.
    ///
    /// # Panics
    ///
    /// When `alpha` is not in (0, 1) (a bug in the study that builds the family).
    pub fn new(name: impl Into<String>, alpha: f64) -> Self {
        assert!(alpha > 0.0 && alpha < 1.0, "alpha must be in (0, 1)");
        ClaimFamily {
            name: name.into(),
            alpha,
            claims: Vec::new(),
        }
    }

    /// Adds a claim.
    pub fn push(&mut self, claim: Claim) {
        self.claims.push(claim);
    }

    /// The number of claims that take part in the correction (the Monte Carlo ones).
    pub fn tested(&self) -> usize {
        self.claims
            .iter()
            .filter(|c| c.evidence.is_sampled())
            .count()
    }

    /// Decides every claim (see the module's docs for the rules). A proportion of no trials
    /// is not testable.
    pub fn decide(&self) -> Vec<Decided> {
        // The Monte Carlo claims' p-values: (index, p, agreement won: Some(true) when the
        // equivalence test is the smaller).
        let mut tested: Vec<(usize, f64, Option<bool>)> = Vec::new();
        for (i, claim) in self.claims.iter().enumerate() {
            if !claim.evidence.is_sampled() {
                continue;
            }
            let e = &claim.evidence;
            let (p, agreement) = match claim.direction {
                Direction::Greater | Direction::Less => {
                    let p = 2.0 * one_sided_p(e, 0.0, false).min(one_sided_p(e, 0.0, true));
                    (p.min(1.0), None)
                }
                Direction::Within { margin } => {
                    let tost = one_sided_p(e, -margin, false).max(one_sided_p(e, margin, true));
                    let outside = one_sided_p(e, margin, false).min(one_sided_p(e, -margin, true));
                    ((2.0 * tost.min(outside)).min(1.0), Some(tost <= outside))
                }
            };
            tested.push((i, p, agreement));
        }
        // Holm: the i-th smallest p-value (from 0) times m - i, made monotone.
        let m = tested.len();
        let mut order: Vec<usize> = (0..m).collect();
        order.sort_by(|&a, &b| tested[a].1.total_cmp(&tested[b].1).then(a.cmp(&b)));
        let mut adjusted = vec![1.0; m];
        let mut step_level = vec![0.0; m];
        let mut running: f64 = 0.0;
        let mut stopped: Option<usize> = None;
        for (rank, &k) in order.iter().enumerate() {
            running = running.max(((m - rank) as f64 * tested[k].1).min(1.0));
            adjusted[k] = running;
            if stopped.is_none() && running > self.alpha {
                stopped = Some(rank);
            }
            let step = stopped.unwrap_or(rank);
            step_level[k] = self.alpha / (m - step) as f64;
        }
        let mut holm = vec![None; self.claims.len()];
        for (k, &(i, p, agreement)) in tested.iter().enumerate() {
            holm[i] = Some((p, adjusted[k], step_level[k], agreement));
        }
        self.claims
            .iter()
            .zip(holm)
            .map(|(claim, holm)| self.decide_one(claim, holm, m))
            .collect()
    }

    fn decide_one(
        &self,
        claim: &Claim,
        holm: Option<(f64, f64, f64, Option<bool>)>,
        m: usize,
    ) -> Decided {
        let mut decided = Decided {
            claim: claim.clone(),
            effect: Cell::Empty,
            interval: None,
            level: None,
            p_value: None,
            holm_p_value: None,
            test: String::new(),
            verdict: Verdict::NotTestable,
            why: String::new(),
        };
        match (&claim.evidence, holm) {
            (Evidence::NotTestable(reason), _) => {
                decided.test = "none".to_string();
                decided.why = reason.clone();
            }
            (Evidence::Exact(cell), _) => {
                decided.effect = cell.clone();
                decided.test = match cell {
                    Cell::Exact(_) => "exact (rationals)".to_string(),
                    _ => "exact (f64 with a rigorous error bound)".to_string(),
                };
                let Some((low, high, rational)) = enclosure(cell) else {
                    decided.verdict = Verdict::Undecided;
                    decided.why = "no finite enclosure of the effect".to_string();
                    return decided;
                };
                let (verdict, margin) = match claim.direction {
                    Direction::Greater if low > 0.0 => (Verdict::Holds, low),
                    Direction::Greater if high <= 0.0 => (Verdict::Fails, -high),
                    Direction::Less if high < 0.0 => (Verdict::Holds, -high),
                    Direction::Less if low >= 0.0 => (Verdict::Fails, low),
                    Direction::Within { margin } if low >= -margin && high <= margin => {
                        (Verdict::Holds, margin - low.abs().max(high.abs()))
                    }
                    Direction::Within { margin } if low > margin || high < -margin => {
                        (Verdict::Fails, (low - margin).max(-margin - high))
                    }
                    _ => (Verdict::Undecided, 0.0),
                };
                decided.verdict = verdict;
                let exact_zero =
                    rational.as_ref().is_some_and(Zero::is_zero) || (low == 0.0 && high == 0.0);
                decided.why = match verdict {
                    Verdict::Undecided => format!(
                        "the enclosure [{}, {}] holds the threshold",
                        short(low),
                        short(high)
                    ),
                    _ if exact_zero => "the effect is exactly 0".to_string(),
                    _ => format!("margin {}", short(margin)),
                };
                if let (Some(r), Direction::Greater | Direction::Less) =
                    (&rational, &claim.direction)
                    && !r.is_zero()
                {
                    let side = if r.is_positive() { "> 0" } else { "< 0" };
                    decided.why = format!("{} (effect {side})", decided.why);
                }
            }
            (evidence, Some((p, adjusted, step_alpha, agreement))) => {
                let z = quantile_two_sided(step_alpha);
                let (estimate, low, high) = interval_at(evidence, z);
                decided.effect = Cell::Real(estimate);
                decided.interval = Some((low, high));
                decided.level = Some(1.0 - step_alpha);
                decided.p_value = Some(p);
                decided.holm_p_value = Some(adjusted);
                let interval_name = match evidence {
                    Evidence::Proportion { .. } => "score test (Wilson)",
                    Evidence::ProportionDifference { .. } => "Newcombe's score interval",
                    Evidence::CorrelatedProportionDifference { .. } => {
                        "Newcombe's score interval, half-widths added (any correlation)"
                    }
                    _ => "Wald z",
                };
                decided.test = match claim.direction {
                    Direction::Within { margin } => format!(
                        "equivalence within ±{} (two one-sided tests, {interval_name}); Holm over {m}",
                        short(margin)
                    ),
                    _ => format!("two-sided, {interval_name}; Holm over {m}"),
                };
                let rejected = adjusted <= self.alpha;
                decided.verdict = match (&claim.direction, rejected, agreement) {
                    (_, false, _) => Verdict::Undecided,
                    (Direction::Greater, true, _) if estimate > 0.0 => Verdict::Holds,
                    (Direction::Less, true, _) if estimate < 0.0 => Verdict::Holds,
                    (Direction::Within { .. }, true, Some(true)) => Verdict::Holds,
                    _ => Verdict::Fails,
                };
                let level = 100.0 * (1.0 - step_alpha);
                decided.why = match decided.verdict {
                    Verdict::Undecided => format!(
                        "undecided at this size: the {}% interval reaches the threshold",
                        short(level)
                    ),
                    _ => format!(
                        "the {}% interval lies on the {} side",
                        short(level),
                        if decided.verdict == Verdict::Holds {
                            "claimed"
                        } else {
                            "other"
                        }
                    ),
                };
            }
            (_, None) => {
                decided.test = "none".to_string();
                decided.why = "no trials, or a standard error that is not finite".to_string();
            }
        }
        decided
    }

    /// The claims table: one row per claim, with the family, the statement and its source,
    /// the quantity, the effect (exact or estimated) and its interval, the test and the
    /// correction, the raw and adjusted p-values, the verdict and why.
    pub fn table(&self) -> Table {
        claims_table(std::slice::from_ref(self))
    }

    /// Appends this family's rows to a claims table made by [`ClaimFamily::table`] (several
    /// families in one table).
    pub fn append_rows(&self, table: &mut Table) {
        for d in self.decide() {
            table.push(vec![
                Cell::text(self.name.clone()),
                Cell::text(d.claim.statement),
                Cell::text(d.claim.source),
                Cell::text(d.claim.quantity),
                d.effect.clone(),
                match (d.interval, d.effect.to_f64()) {
                    (Some((lower, upper)), Some(estimate)) => Cell::Interval {
                        estimate,
                        lower,
                        upper,
                    },
                    _ => Cell::Empty,
                },
                d.level.map_or(Cell::Empty, Cell::Real),
                Cell::text(d.test),
                d.p_value.map_or(Cell::Empty, Cell::Real),
                d.holm_p_value.map_or(Cell::Empty, Cell::Real),
                Cell::text(d.verdict.word()),
                Cell::text(d.why),
            ]);
        }
    }
}

/// One claims table holding every family's rows, in order (an empty table for no family).
pub fn claims_table(families: &[ClaimFamily]) -> Table {
    let alpha = families.first().map_or(0.05, |f| f.alpha);
    let mut table = Table::new("claims", &claims_caption(alpha), claims_columns());
    for family in families {
        family.append_rows(&mut table);
    }
    table
}

/// The verdicts of a claims table made by [`claims_table`], counted per family in order of
/// appearance: `(family, [holds, fails, undecided, not testable])`. Empty for a table without
/// the `family` and `verdict` columns.
///
/// # Examples
///
/// ```
/// use pathology::report::claims::{Claim, ClaimFamily, Direction, Evidence, claims_table, verdict_counts};
/// let mut family = ClaimFamily::new("F", 0.05);
/// family.push(Claim::new("s", "paper", "q", Direction::Greater, Evidence::NotTestable("no data".into())));
/// assert_eq!(verdict_counts(&claims_table(&[family])), [("F".to_string(), [0, 0, 0, 1])]);
/// ```
pub fn verdict_counts(table: &Table) -> Vec<(String, [u64; 4])> {
    let (Some(f), Some(v)) = (table.column_index("family"), table.column_index("verdict")) else {
        return Vec::new();
    };
    let mut counts: Vec<(String, [u64; 4])> = Vec::new();
    for row in &table.rows {
        let (Cell::Text(family), Cell::Text(verdict)) = (&row[f], &row[v]) else {
            continue;
        };
        let slot = [
            Verdict::Holds,
            Verdict::Fails,
            Verdict::Undecided,
            Verdict::NotTestable,
        ]
        .iter()
        .position(|w| w.word() == verdict);
        let Some(slot) = slot else { continue };
        match counts.iter_mut().find(|(name, _)| name == family) {
            Some((_, c)) => c[slot] += 1,
            None => {
                let mut c = [0; 4];
                c[slot] = 1;
                counts.push((family.clone(), c));
            }
        }
    }
    counts
}

/// One row per family: how many of its claims hold, fail, are undecided or are not testable
/// (a summary for the terminal; the verdicts and their effects are in the claims table).
pub fn summary_table(families: &[ClaimFamily]) -> Table {
    let mut table = Table::new(
        "claims_summary",
        "Verdicts per claim family (each claim's effect, test and margin are in table claims)",
        vec![
            Column::key("family", Kind::Text),
            Column::new("claims", Kind::Integer),
            Column::new("holds", Kind::Integer),
            Column::new("fails", Kind::Integer),
            Column::new("undecided", Kind::Integer),
            Column::new("not_testable", Kind::Integer).labelled("not testable"),
        ],
    );
    for family in families {
        let decided = family.decide();
        let count =
            |v: Verdict| Cell::int(decided.iter().filter(|d| d.verdict == v).count() as u64);
        table.push(vec![
            Cell::text(family.name.clone()),
            Cell::int(decided.len() as u64),
            count(Verdict::Holds),
            count(Verdict::Fails),
            count(Verdict::Undecided),
            count(Verdict::NotTestable),
        ]);
    }
    table
}

/// One Markdown row per family for documentation that quotes a claims table (a test of the
/// study checks that the docs hold exactly these rows): the family, the quantity of its first
/// claim, its verdict counts and the range of its effects.
pub fn markdown_rows(families: &[ClaimFamily]) -> Vec<String> {
    families
        .iter()
        .map(|family| {
            let decided = family.decide();
            let counts: Vec<String> = [
                Verdict::Holds,
                Verdict::Fails,
                Verdict::Undecided,
                Verdict::NotTestable,
            ]
            .into_iter()
            .filter_map(|v| {
                let n = decided.iter().filter(|d| d.verdict == v).count();
                (n > 0).then(|| format!("{} {n}", v.word()))
            })
            .collect();
            let (low, high) = decided
                .iter()
                .filter_map(|d| d.effect.to_f64())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
                    (l.min(x), h.max(x))
                });
            let four = |x: f64| match format!("{x:.4}") {
                zero if zero == "-0.0000" => "0.0000".to_string(),
                text => text,
            };
            let range = if low <= high {
                format!("; effect {} to {}", four(low), four(high))
            } else {
                String::new()
            };
            format!(
                "| {} | `{}` | {} of {}{range} |",
                family.name,
                family.claims.first().map_or("", |c| c.quantity.as_str()),
                counts.join(", "),
                decided.len()
            )
        })
        .collect()
}

fn claims_caption(alpha: f64) -> String {
    format!(
        "Claims: each with its effect, the test, the family it is corrected within (Holm, \
         family-wise error rate {alpha}) and a verdict in holds / fails / undecided; exact \
         claims decide by the sign of the effect's enclosure and state the margin"
    )
}

fn claims_columns() -> Vec<Column> {
    vec![
        Column::key("family", Kind::Text),
        Column::new("claim", Kind::Text),
        Column::new("source", Kind::Text),
        Column::new("quantity", Kind::Text),
        Column::new("effect", Kind::Real),
        Column::new("interval", Kind::Interval).labelled("interval at the Holm step"),
        Column::new("level", Kind::Real),
        Column::new("test", Kind::Text),
        Column::new("p", Kind::Real),
        Column::new("p_holm", Kind::Real).labelled("p (Holm)"),
        Column::new("verdict", Kind::Text),
        Column::new("why", Kind::Text),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two proportions from the same units: the interval adds the two Wilson half-widths
    /// (the worst case over correlations), so it holds Newcombe's independent one, and a
    /// difference Newcombe decides can be left undecided.
    #[test]
    fn correlated_differences_add_the_half_widths() {
        let (a, b) = ((130, 200), (100, 200));
        let z = 1.959963984540054;
        let (d, low, high) = interval_at(&Evidence::CorrelatedProportionDifference { a, b }, z);
        let (_, nl, nh) = interval_at(&Evidence::ProportionDifference { a, b }, z);
        let (la, ua) = wilson_interval(a.0, a.1, z);
        let (lb, ub) = wilson_interval(b.0, b.1, z);
        assert!((d - 0.15).abs() < 1e-12);
        assert!((low - (d - (0.65 - la) - (ub - 0.5))).abs() < 1e-12);
        assert!((high - (d + (ua - 0.65) + (0.5 - lb))).abs() < 1e-12);
        assert!(low < nl && nh < high);
        let decide = |evidence: Evidence| {
            let mut family = ClaimFamily::new("f", 0.05);
            family.push(Claim::new("c", "s", "a - b", Direction::Greater, evidence));
            family.decide()[0].verdict
        };
        let (a, b) = ((124, 200), (100, 200));
        assert_eq!(
            decide(Evidence::ProportionDifference { a, b }),
            Verdict::Holds
        );
        assert_eq!(
            decide(Evidence::CorrelatedProportionDifference { a, b }),
            Verdict::Undecided
        );
    }
    use num_bigint::BigInt;

    fn rational(n: i64, d: i64) -> Cell {
        Cell::Exact(BigRational::new(BigInt::from(n), BigInt::from(d)))
    }

    fn claim(direction: Direction, evidence: Evidence) -> Claim {
        Claim::new("s", "paper", "q", direction, evidence)
    }

    #[test]
    fn exact_claims_decide_by_sign_and_state_the_margin() {
        let mut f = ClaimFamily::new("exact", 0.05);
        f.push(claim(Direction::Greater, Evidence::Exact(rational(1, 8))));
        f.push(claim(Direction::Greater, Evidence::Exact(rational(-1, 8))));
        f.push(claim(Direction::Greater, Evidence::Exact(rational(0, 1))));
        f.push(claim(Direction::Less, Evidence::Exact(rational(-1, 4))));
        f.push(claim(
            Direction::Greater,
            Evidence::Exact(Cell::Bounded {
                value: 1e-10,
                bound: 1e-9,
            }),
        ));
        f.push(claim(
            Direction::Within { margin: 0.01 },
            Evidence::Exact(rational(1, 200)),
        ));
        let d = f.decide();
        let verdicts: Vec<Verdict> = d.iter().map(|x| x.verdict).collect();
        assert_eq!(
            verdicts,
            [
                Verdict::Holds,
                Verdict::Fails,
                Verdict::Fails,
                Verdict::Holds,
                Verdict::Undecided,
                Verdict::Holds
            ]
        );
        assert_eq!(d[0].why, "margin 0.125 (effect > 0)");
        assert_eq!(d[2].why, "the effect is exactly 0");
        assert_eq!(d[5].why, "margin 0.005");
        assert!(d.iter().all(|x| x.p_value.is_none()));
        assert_eq!(f.tested(), 0);
    }

    #[test]
    fn the_score_test_is_the_wilson_interval_inverted() {
        // 60/100 against 0.5: the score statistic z = (0.6 - 0.5) / sqrt(0.25 / 100) = 2.
        let e = Evidence::Proportion {
            successes: 60,
            trials: 100,
            reference: 0.5,
        };
        let p = 2.0 * one_sided_p(&e, 0.0, false);
        assert!((p - 2.0 * upper_tail(2.0)).abs() < 1e-9, "{p}");
        // At the quantile of that p the interval's lower end is the reference.
        let (_, low, _) = interval_at(&e, quantile_two_sided(p));
        assert!(low.abs() < 1e-9, "{low}");
    }

    #[test]
    fn holm_adjusts_and_the_step_interval_matches_the_verdict() {
        let mut f = ClaimFamily::new("mc", 0.05);
        // Three clear effects, one null.
        for (a, b) in [(600, 400), (580, 420), (560, 440), (501, 499)] {
            f.push(claim(
                Direction::Greater,
                Evidence::ProportionDifference {
                    a: (a, 1000),
                    b: (b, 1000),
                },
            ));
        }
        let d = f.decide();
        for x in &d {
            let (low, high) = x.interval.unwrap();
            let decided = x.verdict == Verdict::Holds;
            assert_eq!(decided, low > 0.0, "{x:?}");
            assert!(x.holm_p_value.unwrap() >= x.p_value.unwrap());
            assert!(high > low);
        }
        assert_eq!(
            d.iter().map(|x| x.verdict).collect::<Vec<_>>(),
            [
                Verdict::Holds,
                Verdict::Holds,
                Verdict::Holds,
                Verdict::Undecided
            ]
        );
        // Holm's adjusted p-values: 4 p1, 3 p2, 2 p3 (monotone), 1 p4.
        let raw: Vec<f64> = d.iter().map(|x| x.p_value.unwrap()).collect();
        let adjusted: Vec<f64> = d.iter().map(|x| x.holm_p_value.unwrap()).collect();
        assert!((adjusted[0] - 4.0 * raw[0]).abs() <= 1e-12 * adjusted[0].max(1e-300));
        assert!((adjusted[3] - raw[3].max(adjusted[2])).abs() < 1e-12);
    }

    #[test]
    fn the_wrong_sign_fails_and_agreement_needs_equivalence() {
        let mut f = ClaimFamily::new("mc", 0.05);
        f.push(claim(
            Direction::Less,
            Evidence::ProportionDifference {
                a: (700, 1000),
                b: (300, 1000),
            },
        ));
        // Close to the reference with a tight interval: agreement within 0.05 holds.
        f.push(claim(
            Direction::Within { margin: 0.05 },
            Evidence::Proportion {
                successes: 5010,
                trials: 10000,
                reference: 0.5,
            },
        ));
        // Close but wide: not rejecting is not agreement.
        f.push(claim(
            Direction::Within { margin: 0.05 },
            Evidence::Proportion {
                successes: 11,
                trials: 20,
                reference: 0.5,
            },
        ));
        // Far: fails.
        f.push(claim(
            Direction::Within { margin: 0.05 },
            Evidence::Proportion {
                successes: 9000,
                trials: 10000,
                reference: 0.5,
            },
        ));
        let d = f.decide();
        let verdicts: Vec<Verdict> = d.iter().map(|x| x.verdict).collect();
        assert_eq!(
            verdicts,
            [
                Verdict::Fails,
                Verdict::Holds,
                Verdict::Undecided,
                Verdict::Fails
            ]
        );
    }

    #[test]
    fn small_samples_and_extremes_stay_honest() {
        // 3/3 against 0/3: Newcombe's interval is finite and the verdict is not forced.
        let mut f = ClaimFamily::new("small", 0.05);
        f.push(claim(
            Direction::Greater,
            Evidence::ProportionDifference {
                a: (3, 3),
                b: (0, 3),
            },
        ));
        f.push(claim(
            Direction::Greater,
            Evidence::ProportionDifference {
                a: (0, 10),
                b: (0, 10),
            },
        ));
        let d = f.decide();
        for x in &d {
            let (low, high) = x.interval.unwrap();
            assert!(low.is_finite() && high.is_finite() && low <= high, "{x:?}");
            assert!((0.0..=1.0).contains(&x.p_value.unwrap()));
        }
        assert_eq!(d[1].verdict, Verdict::Undecided);
        assert_eq!(d[1].p_value, Some(1.0));
    }

    #[test]
    fn not_testable_claims_say_why_and_the_table_has_a_row_each() {
        let mut f = ClaimFamily::new("ties", 0.05);
        f.push(claim(
            Direction::Greater,
            Evidence::NotTestable("every cell decided by f64 ties".to_string()),
        ));
        f.push(claim(Direction::Greater, Evidence::Exact(rational(1, 3))));
        let t = f.table();
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[0][10], Cell::text("not testable here"));
        assert_eq!(t.rows[0][11], Cell::text("every cell decided by f64 ties"));
        assert_eq!(t.rows[1][10], Cell::text("holds"));
        assert_eq!(t.rows[1][4], rational(1, 3));
        let summary = summary_table(&[f]);
        assert_eq!(
            summary.rows[0],
            [
                Cell::text("ties"),
                Cell::int(2u64),
                Cell::int(1u64),
                Cell::int(0u64),
                Cell::int(0u64),
                Cell::int(1u64)
            ]
        );
    }
}
