//! Certified pathology decisions and the pathology threshold (beyond Li & Marsland).
//!
//! A depth pair `(d-1, d)` is *pathological* at height h when `D(d-1,h) > D(d,h)`. In
//! floating point that decision is unreliable exactly where it matters: `D(h-1,h)` and
//! `D(h,h)` are both exactly 1 but come out as `1 ± 1e-16`, which fakes pathological pairs.
//! Here every decision is either **certified** by the rigorous rounding bound of
//! [`super::error_bound`] (`|difference| > bound(d-1) + bound(d)`), or recomputed at the same
//! (rational) dependence factors by the cheapest method that settles it:
//!
//! 0. brackets of `1 - D` from coarse-grained psi lattices ([`super::complement::CoarseComplement`],
//!    about 0.1 s a point at any height; where the `f64` column is expensive, h >= 21, they
//!    are tried before the `f64` bound and the column is computed only if a pair needs it);
//! 1. rigorous enclosures of the complements `1 - D` with *relative* error bounds
//!    ([`super::complement`]), which order D values that agree to 30 decimals (they do at
//!    high dependence factors, where `1 - D` falls by a factor of about 50 per ply);
//! 2. double-double arithmetic with its own absolute bound ([`crate::numeric::dd`]), for differences
//!    that are tiny relative to `1 - D` (near a threshold crossing);
//! 3. exact rationals.
//!
//! Each is tried only when its estimated cost fits a [`Budget`]; a pair none of them settles
//! is reported as [`Certification::Undecided`] and never counted as pathological.
//!
//! The paper says only that "pathology totally disappears" for `f1 = f2 > 0.57` at h = 10.
//! [`pathology_threshold`] scans `f = k/N` downward from 1 on a grid, takes the largest grid
//! point with a pathological pair, and bisects between it and the next grid point (which has
//! none) on rational midpoints. What it proves: pathology at the reported lower end,
//! none at the upper end and at every grid point above it. What it does not prove: that no
//! narrower pathological island lies between two grid points above the threshold; the grid
//! step is reported with the result.

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::complement::{Bracket, CoarseComplement, ComplementSolver};
use super::{DependenceFactors, Solver, check_cost, estimate_cost};
use crate::error::{Error, Result};
use crate::numeric::dd::DoubleDouble;
use crate::numeric::number::Probability;

/// How a pair decision was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Certification {
    /// The float difference exceeds the rigorous rounding bound.
    FloatBound,
    /// Settled by disjoint rigorous enclosures of `1 - D(d-1,h)` and `1 - D(d,h)` with
    /// componentwise relative error bounds ([`super::complement`]).
    Relative,
    /// Recomputed in double-double arithmetic ([`crate::numeric::dd`]), whose own rigorous bound
    /// certifies the sign.
    DoubleDouble,
    /// Recomputed in exact rationals.
    Exact,
    /// Decided by a theorem: `D(h-1,h) = D(h,h) = 1` for all factors (with the search front
    /// at height 1 or 0, a win node's backed-up value is at least 1 and a loss node's is 0,
    /// because min and max commute with the indicator `[Psi >= 1]`), so neither the pair
    /// `(h-1, h)` nor `(h-2, h-1)` (a probability cannot exceed 1) is pathological; and every
    /// `D(d,h) = 1`
    /// when `f1 = 1` (Proposition 4.1), `f1 = f2 = 0` (Proposition 4.2) or `f2 = 1` (every
    /// leaf below a loss node is then a loss, so a loss node's backed-up value is 0 and a win
    /// node's at least 1). The unit tests
    /// check these identities exactly.
    Theorem,
    /// Within the float bound, and every recomputation that could settle it was refused as
    /// too expensive for the [`Budget`].
    Undecided,
}

/// The pathological pairs at one (f1, f2, h).
#[derive(Debug, Clone, PartialEq)]
pub struct PairClassification {
    /// The height.
    pub height: u32,
    /// D(d,h) in f64 for d = 1..=h (index d-1).
    pub values: Vec<f64>,
    /// For each `d = 2..=h` (index d-2): whether `D(d-1,h) > D(d,h)`, and how that was decided.
    pub pairs: Vec<(bool, Certification)>,
}

impl PairClassification {
    /// The depths d whose pair `(d-1, d)` is pathological (certified or exact; undecided
    /// pairs are never counted).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::threshold::classify_pairs;
    /// use pathology::numeric::number::parse_rational;
    /// let low = parse_rational("0.1").unwrap();
    /// assert_eq!(classify_pairs(&low, &low, 10).unwrap().pathological_depths(), vec![2, 3, 4, 5, 6, 8]);
    /// let high = parse_rational("0.9").unwrap(); // above the threshold near 0.57
    /// assert!(classify_pairs(&high, &high, 10).unwrap().pathological_depths().is_empty());
    /// ```
    pub fn pathological_depths(&self) -> Vec<u32> {
        self.depths_where(|p, c| p && c != Certification::Undecided)
    }

    /// The depths d whose pair `(d-1, d)` could not be decided.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::threshold::{Budget, classify_pairs, classify_pairs_within};
    /// use pathology::numeric::number::parse_rational;
    /// let f = parse_rational("0.99").unwrap();
    /// assert!(classify_pairs(&f, &f, 8).unwrap().undecided_depths().is_empty());
    /// // Without time for recomputation, the pair D(5,8) vs D(6,8), within the f64 bound,
    /// // stays undecided.
    /// let hurried = classify_pairs_within(&f, &f, 8, &Budget::NONE).unwrap();
    /// assert_eq!(hurried.undecided_depths(), vec![6]);
    /// ```
    pub fn undecided_depths(&self) -> Vec<u32> {
        self.depths_where(|_, c| c == Certification::Undecided)
    }

    fn depths_where(&self, keep: impl Fn(bool, Certification) -> bool) -> Vec<u32> {
        self.pairs
            .iter()
            .enumerate()
            .filter(|(_, (p, c))| keep(*p, *c))
            .map(|(i, _)| i as u32 + 2)
            .collect()
    }

    /// How the pair decisions were reached.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::threshold::classify_pairs;
    /// use pathology::numeric::number::parse_rational;
    /// let f = parse_rational("0.1").unwrap();
    /// let c = classify_pairs(&f, &f, 10).unwrap().counts();
    /// // Pairs (8,9) and (9,10) by theorem, the other seven by the f64 bound.
    /// assert_eq!((c.float_bound, c.theorem, c.total()), (7, 2, 9));
    /// // Near f = 1 the deep D(d,10) agree to more than 16 decimals; the relative enclosures
    /// // of 1 - D settle them.
    /// let g = parse_rational("0.99").unwrap();
    /// let c = classify_pairs(&g, &g, 10).unwrap().counts();
    /// assert_eq!((c.relative, c.double_double, c.exact, c.undecided), (3, 0, 0, 0));
    /// ```
    pub fn counts(&self) -> DecisionCounts {
        let mut counts = DecisionCounts::default();
        for (_, c) in &self.pairs {
            *match c {
                Certification::FloatBound => &mut counts.float_bound,
                Certification::Theorem => &mut counts.theorem,
                Certification::Relative => &mut counts.relative,
                Certification::DoubleDouble => &mut counts.double_double,
                Certification::Exact => &mut counts.exact,
                Certification::Undecided => &mut counts.undecided,
            } += 1;
        }
        counts
    }

    /// How many pairs are undecided (none at heights up to 20 with the default budgets).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::threshold::{Budget, classify_pairs, classify_pairs_within};
    /// use pathology::numeric::number::parse_rational;
    /// let g = parse_rational("0.99").unwrap();
    /// assert_eq!(classify_pairs(&g, &g, 16).unwrap().undecided(), 0);
    /// // With no time for recomputation, 11 pairs of D(d,16) stay within the f64 bound.
    /// assert_eq!(classify_pairs_within(&g, &g, 16, &Budget::NONE).unwrap().undecided(), 11);
    /// ```
    pub fn undecided(&self) -> usize {
        self.counts().undecided
    }
}

/// How many pair decisions were reached in each way ([`Certification`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DecisionCounts {
    /// Certified by the `f64` error bound.
    pub float_bound: usize,
    /// Settled by a theorem.
    pub theorem: usize,
    /// Certified by relative enclosures of `1 - D`.
    pub relative: usize,
    /// Certified in double-double.
    pub double_double: usize,
    /// Made in exact rationals.
    pub exact: usize,
    /// Not decided.
    pub undecided: usize,
}

impl DecisionCounts {
    /// All decisions, undecided ones included.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::threshold::DecisionCounts;
    /// let c = DecisionCounts { float_bound: 5, theorem: 2, undecided: 1, ..Default::default() };
    /// assert_eq!(c.total(), 8);
    /// ```
    pub fn total(&self) -> usize {
        self.float_bound
            + self.theorem
            + self.relative
            + self.double_double
            + self.exact
            + self.undecided
    }

    /// One line for reports: how the decisions that needed more than the `f64` bound were
    /// made.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::threshold::DecisionCounts;
    /// let c = DecisionCounts { float_bound: 5, relative: 3, ..Default::default() };
    /// assert_eq!(
    ///     c.summary(),
    ///     "3 certified by relative enclosures of 1 - D, 0 in double-double, 0 made in exact \
    ///      rationals, the rest certified by the f64 error bound or a theorem; 0 undecided"
    /// );
    /// ```
    pub fn summary(&self) -> String {
        format!(
            "{} certified by relative enclosures of 1 - D, {} in double-double, {} made in exact \
             rationals, the rest certified by the f64 error bound or a theorem; {} undecided",
            self.relative, self.double_double, self.exact, self.undecided
        )
    }
}

impl std::ops::AddAssign for DecisionCounts {
    fn add_assign(&mut self, other: DecisionCounts) {
        self.float_bound += other.float_bound;
        self.theorem += other.theorem;
        self.relative += other.relative;
        self.double_double += other.double_double;
        self.exact += other.exact;
        self.undecided += other.undecided;
    }
}

impl std::iter::Sum for DecisionCounts {
    fn sum<I: Iterator<Item = DecisionCounts>>(iter: I) -> Self {
        let mut total = DecisionCounts::default();
        for c in iter {
            total += c;
        }
        total
    }
}

/// The estimated time each recomputation of [`classify_pairs_within`] may take before a pair
/// is left undecided. The enclosures' cost is that of the psi distributions not yet cached
/// for the point; double-double and exact costs are per pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// Seconds for the relative enclosures of [`super::complement`].
    pub enclosure_seconds: f64,
    /// Seconds for a double-double recomputation.
    pub double_double_seconds: f64,
    /// Seconds for an exact recomputation.
    pub exact_seconds: f64,
}

impl Budget {
    /// The budget of [`classify_pairs`] and of the grid scan of [`pathology_threshold`]:
    /// enclosures up to the library's time limit ([`crate::budget::ANALYTIC_TIME_LIMIT_SECONDS`]), which
    /// admits a search front at height 19 (estimated 37 s, measured 18 s on this 2-core
    /// machine), so every pair is settled up to h = 21.
    pub const SCAN: Budget = Budget {
        enclosure_seconds: crate::budget::ANALYTIC_TIME_LIMIT_SECONDS,
        double_double_seconds: 0.2,
        exact_seconds: 0.2,
    };
    /// The budget of the bisection in [`pathology_threshold`], where a decision about the
    /// crossing pair matters most.
    pub const BISECTION: Budget = Budget {
        enclosure_seconds: crate::budget::ANALYTIC_TIME_LIMIT_SECONDS,
        double_double_seconds: 5.0,
        exact_seconds: 5.0,
    };
    /// No recomputation: only the `f64` bound and the theorems decide.
    pub const NONE: Budget = Budget {
        enclosure_seconds: 0.0,
        double_double_seconds: 0.0,
        exact_seconds: 0.0,
    };
}

/// Classifies every adjacent depth pair at exact dependence factors `(f1, f2)` and height h.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::threshold::classify_pairs;
/// use pathology::numeric::number::parse_rational;
/// let f = parse_rational("0.1").unwrap();
/// let c = classify_pairs(&f, &f, 10).unwrap();
/// // Table 1, f = 0.1: D drops from d=1 to 6, rises at 7, drops at 8.
/// assert_eq!(c.pathological_depths(), vec![2, 3, 4, 5, 6, 8]);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] for factors outside `[0, 1]` or a bad height;
/// [`Error::TooExpensive`] when even the f64 column would be too expensive.
pub fn classify_pairs(
    f1: &BigRational,
    f2: &BigRational,
    height: u32,
) -> Result<PairClassification> {
    classify_pairs_within(f1, f2, height, &Budget::SCAN)
}

/// [`classify_pairs`] with a time [`Budget`] for the recomputations: a pair that none of the
/// affordable recomputations settles is reported as [`Certification::Undecided`].
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::threshold::{Budget, Certification, classify_pairs, classify_pairs_within};
/// use pathology::numeric::number::parse_rational;
/// let f = parse_rational("0.99").unwrap();
/// let hurried = classify_pairs_within(&f, &f, 8, &Budget::NONE).unwrap();
/// assert_eq!(hurried.pairs[4].1, Certification::Undecided); // D(5,8) vs D(6,8)
/// // The last pair, D(7,8) = D(8,8) = 1, is settled by a theorem, not by arithmetic.
/// assert_eq!(hurried.pairs.last(), Some(&(false, Certification::Theorem)));
/// // Every pair it did decide agrees with the full classification.
/// let full = classify_pairs(&f, &f, 8).unwrap();
/// for (a, b) in hurried.pairs.iter().zip(&full.pairs) {
///     if a.1 != Certification::Undecided {
///         assert_eq!(a.0, b.0);
///     }
/// }
/// ```
///
/// # Errors
///
/// As [`classify_pairs`].
pub fn classify_pairs_within(
    f1: &BigRational,
    f2: &BigRational,
    height: u32,
    budget: &Budget,
) -> Result<PairClassification> {
    // Where the f64 column is expensive (long psi pmfs, FFTs of 2^h points), the coarse
    // brackets come first and the column is computed only if some pair needs it.
    let coarse_first = estimate_cost(height, None).seconds > COARSE_FIRST_SECONDS;
    classify(f1, f2, height, budget, coarse_first)
}

/// [`classify_pairs_within`], with the brackets tried before the `f64` bound when
/// `coarse_first`.
fn classify(
    f1: &BigRational,
    f2: &BigRational,
    height: u32,
    budget: &Budget,
    coarse_first: bool,
) -> Result<PairClassification> {
    super::distribution::check_depth(1, height)?;
    check_cost(height, None)?;
    let mut resolver = Resolver {
        f1,
        f2,
        height,
        budget: *budget,
        exact_bits: super::table::denominator_bits(&[(f1.clone(), f2.clone())]),
        column: None,
        coarse: None,
        brackets: vec![None; height as usize + 1],
        complement: None,
        double_double: None,
        exact: None,
    };
    let zero = BigRational::from_integer(0.into());
    let all_ones = f1.is_one() || f2.is_one() || (f1.is_zero() && *f2 == zero);
    let mut pairs = Vec::with_capacity(height as usize - 1);
    for d in 2..=height {
        // D(h-1,h) = 1: the pair (h-1, h) is level, and (h-2, h-1) cannot rise to a
        // probability above 1.
        let decision = if d + 1 >= height || all_ones {
            (false, Certification::Theorem)
        } else if let Some(decision) = if coarse_first {
            resolver.by_brackets(d)?
        } else {
            None
        } {
            decision
        } else if let Some(decision) = resolver.by_float_bound(d)? {
            decision
        } else {
            resolver.resolve(d, !coarse_first)?
        };
        pairs.push(decision);
    }
    let values = resolver.values()?;
    Ok(PairClassification {
        height,
        values,
        pairs,
    })
}

/// Above this estimated time of the `f64` column ([`estimate_cost`]; h >= 21), pairs are
/// first compared by [`CoarseComplement`] brackets, which take about 0.1 s at any height.
const COARSE_FIRST_SECONDS: f64 = 1.0;

/// The psi values a height kept by the coarse brackets: `2^12 + 1`.
const COARSE_BITS: u32 = 12;

/// Settles the pairs: by the `f64` bound, by brackets and relative enclosures of `1 - D`,
/// then in double-double with its own rigorous bound, then in exact rationals, each
/// recomputation only when its estimated cost fits the budget.
struct Resolver<'a> {
    f1: &'a BigRational,
    f2: &'a BigRational,
    height: u32,
    budget: Budget,
    exact_bits: Option<f64>,
    /// The `f64` column: D(d,h) and their rigorous bounds.
    column: Option<(Vec<f64>, Vec<f64>)>,
    coarse: Option<CoarseComplement>,
    /// The brackets of `1 - D(d,h)` computed so far, by depth d.
    brackets: Vec<Option<Bracket>>,
    complement: Option<ComplementSolver>,
    double_double: Option<Solver<DoubleDouble>>,
    exact: Option<Solver<BigRational>>,
}

impl Resolver<'_> {
    /// The `f64` column, computed on first use.
    fn column(&mut self) -> Result<&(Vec<f64>, Vec<f64>)> {
        if self.column.is_none() {
            let factors = DependenceFactors::new(self.f1.to_f64(), self.f2.to_f64())?;
            let column = Solver::new(factors).decision_column(self.height)?;
            self.column = Some((column.values, column.error_bounds));
        }
        Ok(self.column.as_ref().expect("just computed"))
    }

    /// D(d,h) in `f64` for every d: the `f64` column where it was computed, otherwise one
    /// minus the midpoints of the brackets (computing the column if a bracket is not
    /// affordable).
    fn values(&mut self) -> Result<Vec<f64>> {
        if self.column.is_none() {
            for d in 1..=self.height {
                if self.bracket(d)?.is_none() {
                    self.column()?;
                    break;
                }
            }
        }
        Ok(match &self.column {
            Some((values, _)) => values.clone(),
            None => self.brackets[1..]
                .iter()
                .map(|b| {
                    let b = b.expect("every bracket computed");
                    1.0 - (b.lower + b.upper.min(1.0)) / 2.0
                })
                .collect(),
        })
    }

    /// The decision by the `f64` bound, if it settles the pair.
    fn by_float_bound(&mut self, d: u32) -> Result<Option<(bool, Certification)>> {
        let (values, bounds) = self.column()?;
        let (i, j) = (d as usize - 2, d as usize - 1);
        let difference = values[i] - values[j];
        let margin = bounds[i] + bounds[j];
        Ok(if difference > margin {
            Some((true, Certification::FloatBound))
        } else if difference < -margin {
            Some((false, Certification::FloatBound))
        } else {
            None
        })
    }

    /// The bracket of `1 - D(depth, h)`, if its estimated cost fits the budget.
    fn bracket(&mut self, depth: u32) -> Result<Option<Bracket>> {
        if let Some(b) = self.brackets[depth as usize] {
            return Ok(Some(b));
        }
        let h = self.height;
        let solver = match &mut self.coarse {
            Some(s) => s,
            None => self
                .coarse
                .insert(CoarseComplement::new(self.f1, self.f2, COARSE_BITS)?),
        };
        if solver.estimate_seconds(h - depth) > self.budget.enclosure_seconds {
            return Ok(None);
        }
        let b = solver.wrong_decision(depth, h)?;
        self.brackets[depth as usize] = Some(b);
        Ok(Some(b))
    }

    /// The decision by disjoint brackets of `1 - D(d-1,h)` and `1 - D(d,h)`, if they settle
    /// the pair: `D(d-1,h) > D(d,h)` exactly when `1 - D(d-1,h) < 1 - D(d,h)`.
    fn by_brackets(&mut self, d: u32) -> Result<Option<(bool, Certification)>> {
        let (Some(shallower), Some(deeper)) = (self.bracket(d - 1)?, self.bracket(d)?) else {
            return Ok(None);
        };
        Ok(if shallower.certainly_below(&deeper) {
            Some((true, Certification::Relative))
        } else if deeper.certainly_below(&shallower) {
            Some((false, Certification::Relative))
        } else {
            None
        })
    }

    /// Decides whether `D(d-1,h) > D(d,h)` for a pair within the `f64` bound (and, when
    /// `try_brackets` is false, not settled by the brackets): the uncertified `f64` sign is
    /// reported with [`Certification::Undecided`] when nothing else fits.
    fn resolve(&mut self, d: u32, try_brackets: bool) -> Result<(bool, Certification)> {
        let h = self.height;
        if try_brackets && let Some(decision) = self.by_brackets(d)? {
            return Ok(decision);
        }
        // With the search front at height COARSE_BITS or below the brackets were these
        // enclosures already.
        let solver = match &mut self.complement {
            Some(s) => s,
            None => self
                .complement
                .insert(ComplementSolver::new(self.f1, self.f2)?),
        };
        if h - (d - 1) > COARSE_BITS
            && solver.estimate_seconds(h - (d - 1)) <= self.budget.enclosure_seconds
        {
            // D(d-1,h) > D(d,h) exactly when 1 - D(d-1,h) < 1 - D(d,h).
            let shallower = solver.wrong_decision(d - 1, h)?;
            let deeper = solver.wrong_decision(d, h)?;
            if shallower.certainly_below(&deeper) {
                return Ok((true, Certification::Relative));
            }
            if deeper.certainly_below(&shallower) {
                return Ok((false, Certification::Relative));
            }
        }
        if double_double_seconds(h - (d - 1)) < self.budget.double_double_seconds {
            let solver = match &mut self.double_double {
                Some(s) => s,
                None => {
                    let factors = DependenceFactors::new(
                        DoubleDouble::from_rational(self.f1),
                        DoubleDouble::from_rational(self.f2),
                    )?;
                    self.double_double.insert(Solver::new(factors))
                }
            };
            let a = solver.correct_decision_probability(d - 1, h)?;
            let b = solver.correct_decision_probability(d, h)?;
            let margin =
                solver.decision_error_bound(d - 1, h)? + solver.decision_error_bound(d, h)?;
            // The difference itself carries a relative rounding of at most u_dd.
            let margin = DoubleDouble::from_f64(margin * (1.0 + 1e-9));
            let difference = a.minus(&b);
            if difference > margin {
                return Ok((true, Certification::DoubleDouble));
            }
            if difference < DoubleDouble::impossible().minus(&margin) {
                return Ok((false, Certification::DoubleDouble));
            }
        }
        if affordable(d - 1, h, self.exact_bits, self.budget.exact_seconds) {
            let (f1, f2) = (self.f1.clone(), self.f2.clone());
            let solver = match &mut self.exact {
                Some(s) => s,
                None => self
                    .exact
                    .insert(Solver::new(DependenceFactors::new(f1, f2)?)),
            };
            // a/b > c/e with positive denominators, without reducing either fraction.
            let (a, b) = solver.correct_decision_fraction(d - 1, h)?;
            let (c, e) = solver.correct_decision_fraction(d, h)?;
            return Ok((a * e > c * b, Certification::Exact));
        }
        let (values, _) = self.column()?;
        let float_difference = values[d as usize - 2] - values[d as usize - 1];
        Ok((float_difference > 0.0, Certification::Undecided))
    }
}

/// Estimated seconds of a double-double D(d,h) with the search front at `front`: the direct
/// psi convolutions (about 3e7 double-double multiply-adds a second) dominate.
fn double_double_seconds(front: u32) -> f64 {
    (1..=front)
        .map(|t| {
            let n = (2f64).powi(t as i32 - 1) + 1.0;
            2.0 * n * n / 3e7
        })
        .sum()
}

/// Whether the exact D(`depth`, h) and D(`depth + 1`, h) fit in the budget.
fn affordable(depth: u32, height: u32, bits: Option<f64>, budget: f64) -> bool {
    let cost = super::estimate_decision_cost(depth, height, bits);
    cost.seconds < budget && cost.bytes < crate::budget::MEMORY_LIMIT_BYTES
}

/// The pathology threshold for `f1 = f2 = f` at one height.
#[derive(Debug, Clone, PartialEq)]
pub struct ThresholdReport {
    /// The height.
    pub height: u32,
    /// The grid `f = k / grid_steps` that was scanned.
    pub grid_steps: u32,
    /// A dependence factor with a pathological pair (certified), or `None` when no grid point
    /// has one.
    pub lower: Option<BigRational>,
    /// A dependence factor above `lower` with no pathological pair (certified), such that
    /// every grid point above it has none either.
    pub upper: BigRational,
    /// The depths d whose pair `(d-1, d)` is pathological at `lower`: the last to turn
    /// non-pathological.
    pub last_pairs: Vec<u32>,
    /// How the pair decisions of every evaluated point were reached (none undecided up to
    /// h = 20).
    pub decisions: DecisionCounts,
    /// Points (grid and bisection) evaluated.
    pub evaluations: usize,
    /// Every grid point `k / grid_steps` with `k >= clear_from` has no pathological pair
    /// that could be certified.
    pub clear_from: u32,
    /// Points above `lower` where some pairs could not be decided (every recomputation that
    /// could settle them exceeds the [`Budget`]), with those pairs' deeper depths d. Empty at
    /// every height up to 20 with the default budgets.
    /// The bisection stops at the first such point, so the bracket can then be wider than the
    /// tolerance.
    pub uncertain: Vec<(BigRational, Vec<u32>)>,
}

impl ThresholdReport {
    /// The midpoint estimate of the threshold.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::threshold::ThresholdReport;
    /// use pathology::numeric::number::parse_rational;
    /// let report = ThresholdReport {
    ///     height: 10,
    ///     grid_steps: 100,
    ///     lower: Some(parse_rational("0.57").unwrap()),
    ///     upper: parse_rational("0.58").unwrap(),
    ///     last_pairs: vec![3],
    ///     decisions: Default::default(),
    ///     evaluations: 1,
    ///     clear_from: 58,
    ///     uncertain: Vec::new(),
    /// };
    /// assert!((report.estimate().unwrap() - 0.575).abs() < 1e-15);
    /// let clear = ThresholdReport { lower: None, ..report };
    /// assert_eq!(clear.estimate(), None); // no grid point is pathological
    /// ```
    pub fn estimate(&self) -> Option<f64> {
        self.lower
            .as_ref()
            .map(|lo| (lo.to_f64() + self.upper.to_f64()) / 2.0)
    }
}

/// The longest a threshold scan may be estimated to take.
pub const THRESHOLD_TIME_LIMIT_SECONDS: f64 = 600.0;

/// The estimated worst-case cost of [`pathology_threshold`], in two parts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThresholdCost {
    /// Every grid point and every bisection step decided in floating point: one `f64` column
    /// and its certification each.
    pub grid_seconds: f64,
    /// The bisection steps whose points are closer than double-double resolves (brackets
    /// below about `2^-85`): their pair decisions are made in exact rationals, with
    /// denominators one bit longer every step.
    pub exact_seconds: f64,
}

impl ThresholdCost {
    /// The whole estimate.
    pub fn seconds(&self) -> f64 {
        self.grid_seconds + self.exact_seconds
    }
}

/// The bracket width (in bits) below which bisection decisions need exact rationals.
const EXACT_FROM_BITS: u32 = 85;

/// Estimates [`pathology_threshold`]'s worst case: every grid point scanned and a full
/// bisection. Measured per evaluated point on the idle 2-core machine (all depths' pair
/// decisions): 70 us, 0.22 ms, 0.29 ms, 1.6 ms and 8.7 ms at h = 8, 10, 12, 14, 16, about
/// 1.4 f64 columns ([`estimate_cost`]) plus 60 us of certification; each bisection step below
/// `2^-85` makes about one decision in exact rationals, measured at h = 10 as 1.3 s for
/// `--tolerance 1e-60` and 4.8 s for `1e-100`, about 0.04 of an exact column at the step's
/// denominator size (the model gives 1.2 s and 4.9 s).
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::threshold::threshold_cost;
/// let usual = threshold_cost(10, 1000, 1e-10);
/// assert!(usual.seconds() < 1.0 && usual.exact_seconds == 0.0);
/// assert!(threshold_cost(10, 1000, 1e-300).exact_seconds > 60.0);
/// assert!(threshold_cost(20, 1_000_000, 1e-10).seconds() > 3600.0);
/// ```
pub fn threshold_cost(height: u32, grid_steps: u32, tolerance: f64) -> ThresholdCost {
    let column = estimate_cost(height, None).seconds;
    let per_point = 1.4 * column + 60e-6;
    // The bracket starts one grid step wide and halves each step.
    let start_bits = f64::from(grid_steps.max(1)).log2();
    let end_bits = if tolerance > 0.0 {
        (1.0 / tolerance).log2().max(start_bits)
    } else {
        f64::INFINITY
    };
    let float_steps = end_bits.min(f64::from(EXACT_FROM_BITS)) - start_bits;
    let grid_seconds = per_point * (f64::from(grid_steps) + 1.0 + float_steps.max(0.0).ceil());
    let mut exact_seconds = 0.0;
    if end_bits > f64::from(EXACT_FROM_BITS) {
        let last = end_bits.min(1.0e6).ceil() as u32;
        for bits in EXACT_FROM_BITS.max(start_bits.ceil() as u32)..=last {
            exact_seconds += 0.04 * estimate_cost(height, Some(f64::from(bits))).seconds;
            if exact_seconds > 1.0e9 {
                break;
            }
        }
        if end_bits > 1.0e6 {
            exact_seconds = f64::INFINITY;
        }
    }
    ThresholdCost {
        grid_seconds,
        exact_seconds,
    }
}

/// Finds the dependence factor `f` (with `f1 = f2 = f`) above which no depth pair is
/// pathological at height h: a grid scan `f = k/grid_steps` from 1 downward, then bisection
/// on rational midpoints until the bracket is narrower than `tolerance`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::threshold::pathology_threshold;
/// let report = pathology_threshold(10, 100, 1e-4).unwrap();
/// let f = report.estimate().unwrap();
/// assert!(f > 0.57 && f < 0.58); // the paper: "until f1 = f2 > 0.57"
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] for a bad height, `grid_steps` outside `1..=1_000_000` or a
/// tolerance outside `(0, 1)`; [`Error::TooExpensive`] from [`classify_pairs`].
pub fn pathology_threshold(
    height: u32,
    grid_steps: u32,
    tolerance: f64,
) -> Result<ThresholdReport> {
    super::distribution::check_depth(1, height)?;
    if !(1..=1_000_000).contains(&grid_steps) {
        return Err(Error::invalid("--grid", "in 1..=1000000", grid_steps));
    }
    if !(tolerance > 0.0 && tolerance < 1.0) {
        return Err(Error::invalid("--tolerance", "in (0, 1)", tolerance));
    }
    let cost = threshold_cost(height, grid_steps, tolerance);
    crate::budget::check_seconds(
        || {
            format!(
                "the threshold scan at height {height} with --grid {grid_steps} and --tolerance {tolerance:e}"
            )
        },
        cost.seconds(),
        THRESHOLD_TIME_LIMIT_SECONDS,
        "up to ",
        if cost.grid_seconds >= cost.exact_seconds {
            "Use a coarser --grid (the bisection still reaches --tolerance)."
        } else {
            "Use a larger --tolerance (below about 1e-25 the bisection's points are closer than \
             double-double resolves, and every step is decided in exact rationals)."
        },
    )?;
    crate::budget::announce_estimate(
        &format!("the threshold scan at height {height}"),
        cost.seconds(),
    );
    let n = BigRational::from_integer(grid_steps.into());
    let mut decisions = DecisionCounts::default();
    let mut evaluations = 0;
    let mut uncertain = Vec::new();
    let mut classify = |f: &BigRational, budget: &Budget| -> Result<PairClassification> {
        let c = classify_pairs_within(f, f, height, budget)?;
        decisions += c.counts();
        evaluations += 1;
        if c.pathological_depths().is_empty() && c.undecided() > 0 {
            uncertain.push((f.clone(), c.undecided_depths()));
        }
        Ok(c)
    };
    let mut upper = <BigRational as One>::one();
    let mut clear_from = grid_steps + 1;
    let mut lower = None;
    let mut last_pairs = Vec::new();
    for k in (0..=grid_steps).rev() {
        let f = BigRational::from_integer(k.into()) / &n;
        let c = classify(&f, &Budget::SCAN)?;
        if c.pathological_depths().is_empty() {
            upper = f;
            clear_from = k;
        } else {
            last_pairs = c.pathological_depths();
            lower = Some(f);
            break;
        }
    }
    if let Some(mut lo) = lower.take() {
        let two = BigRational::from_integer(2.into());
        while (&upper - &lo).to_f64() >= tolerance {
            let mid = (&lo + &upper) / &two;
            let c = classify(&mid, &Budget::BISECTION)?;
            if !c.pathological_depths().is_empty() {
                last_pairs = c.pathological_depths();
                lo = mid;
            } else if c.undecided() == 0 {
                upper = mid;
            } else {
                // Neither side can be certified here: stop with the bracket proven so far
                // (the point is listed in `uncertain`).
                break;
            }
        }
        lower = Some(lo);
    }
    debug_assert!(
        lower
            .as_ref()
            .is_none_or(|lo| !lo.is_zero() || !last_pairs.is_empty())
    );
    Ok(ThresholdReport {
        height,
        grid_steps,
        lower,
        upper,
        last_pairs,
        decisions,
        evaluations,
        clear_from,
        uncertain,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;

    #[test]
    fn last_two_depths_are_never_called_pathological() {
        // In f64 D(9,10) and D(10,10) are 1 +- 1e-16; the exact fallback settles them.
        for f in ["0.5", "0.9", "1", "0"] {
            let f = parse_rational(f).unwrap();
            let c = classify_pairs(&f, &f, 10).unwrap();
            assert!(!c.pairs[8].0, "pair (9,10) at f = {f}");
            assert_eq!(c.undecided(), 0);
        }
    }

    #[test]
    fn extreme_factors_have_no_pathology() {
        for (f1, f2) in [("0", "0"), ("1", "1"), ("1", "0.3")] {
            let (f1, f2) = (parse_rational(f1).unwrap(), parse_rational(f2).unwrap());
            assert!(
                classify_pairs(&f1, &f2, 10)
                    .unwrap()
                    .pathological_depths()
                    .is_empty()
            );
        }
    }

    #[test]
    fn threshold_brackets_a_sign_change_of_the_last_pair() {
        let report = pathology_threshold(10, 50, 1e-6).unwrap();
        let lo = report.lower.clone().unwrap();
        assert!((&report.upper - &lo).to_f64() < 1e-6);
        let at_lo = classify_pairs(&lo, &lo, 10).unwrap();
        let at_hi = classify_pairs(&report.upper, &report.upper, 10).unwrap();
        assert_eq!(at_lo.pathological_depths(), report.last_pairs);
        assert!(at_hi.pathological_depths().is_empty());
        assert_eq!(report.decisions.undecided, 0);
        assert_eq!(
            BigRational::new(report.clear_from.into(), 50.into()),
            (lo * BigRational::from_integer(50.into())).ceil()
                / BigRational::from_integer(50.into())
        );
    }

    #[test]
    fn unreduced_exact_comparison_agrees_with_reduced_rationals() {
        let f = parse_rational("0.37").unwrap();
        let mut solver = Solver::new(DependenceFactors::new(f.clone(), f).unwrap());
        for d in 2..=9 {
            let (a, b) = solver.correct_decision_fraction(d - 1, 9).unwrap();
            let (c, e) = solver.correct_decision_fraction(d, 9).unwrap();
            let x = solver.correct_decision_probability(d - 1, 9).unwrap();
            let y = solver.correct_decision_probability(d, 9).unwrap();
            assert_eq!(BigRational::new(a.clone(), b.clone()), x);
            assert_eq!(a * &e > c * &b, x > y, "d = {d}");
        }
    }

    /// Exact rationals for every pair the f64 bound cannot certify.
    const EXACT_ONLY: Budget = Budget {
        enclosure_seconds: 0.0,
        double_double_seconds: 0.0,
        exact_seconds: 60.0,
    };

    #[test]
    fn relative_enclosures_agree_with_exact_rationals() {
        let mut relative = 0;
        for (f1, f2) in [
            ("0.99", "0.99"),
            ("0.95", "0.9"),
            ("0.8", "0.97"),
            ("0.9", "0.9"),
            ("0.999", "0.999"),
            ("0.97", "0.98"),
        ] {
            let (f1, f2) = (parse_rational(f1).unwrap(), parse_rational(f2).unwrap());
            let certified = classify_pairs(&f1, &f2, 12).unwrap();
            let exact = classify_pairs_within(&f1, &f2, 12, &EXACT_ONLY).unwrap();
            assert_eq!(exact.undecided(), 0);
            for (d, (a, b)) in certified.pairs.iter().zip(&exact.pairs).enumerate() {
                assert_eq!(a.0, b.0, "f = ({f1}, {f2}), pair ({}, {})", d + 1, d + 2);
            }
            relative += certified.counts().relative;
        }
        // 18 of these pairs are beyond the f64 bound; each must have gone through the
        // enclosures and agreed with exact rationals above.
        assert!(
            relative >= 15,
            "only {relative} pairs needed the enclosures"
        );
    }

    #[test]
    fn double_double_settles_the_crossing_and_agrees_with_exact_rationals() {
        // Near f* the last pair's difference falls below the relative enclosures' resolution.
        let report = pathology_threshold(10, 100, 1e-13).unwrap();
        assert!(report.decisions.double_double > 0);
        assert_eq!(report.decisions.undecided, 0);
        let lo = report.lower.clone().unwrap();
        for f in [&lo, &report.upper] {
            let certified = classify_pairs_within(f, f, 10, &Budget::BISECTION).unwrap();
            let exact = classify_pairs_within(f, f, 10, &EXACT_ONLY).unwrap();
            assert_eq!(
                certified.pairs.iter().map(|p| p.0).collect::<Vec<_>>(),
                exact.pairs.iter().map(|p| p.0).collect::<Vec<_>>()
            );
        }
        assert_eq!(
            classify_pairs(&lo, &lo, 10).unwrap().pathological_depths(),
            vec![8]
        );
    }

    #[test]
    fn small_height_thresholds_are_unchanged() {
        // The output of `threshold --height 10` (grid 1000) and `--height 12 --grid 100`
        // before the coarse brackets: the same bracket, last pair and decision counts.
        let report = pathology_threshold(10, 1000, 1e-10).unwrap();
        assert_eq!(
            report.lower,
            Some(parse_rational("964148613/1677721600").unwrap())
        );
        assert_eq!(
            report.upper,
            parse_rational("9641486131/16777216000").unwrap()
        );
        assert_eq!(
            (report.last_pairs.clone(), report.clear_from),
            (vec![8], 575)
        );
        assert_eq!(report.evaluations, 451);
        let d = report.decisions;
        assert_eq!(
            (
                d.theorem,
                d.float_bound,
                d.relative,
                d.double_double,
                d.exact
            ),
            (909, 3070, 80, 0, 0)
        );
        assert_eq!(d.undecided, 0);
        let report = pathology_threshold(12, 100, 1e-10).unwrap();
        assert_eq!(
            report.lower,
            Some(parse_rational("8246257643/13421772800").unwrap())
        );
        assert_eq!(
            report.upper,
            parse_rational("2061564411/3355443200").unwrap()
        );
        assert_eq!(
            (report.last_pairs.clone(), report.evaluations),
            (vec![10], 67)
        );
        let d = report.decisions;
        assert_eq!(
            (d.theorem, d.float_bound, d.relative, d.undecided),
            (143, 574, 20, 0)
        );
    }

    #[test]
    fn brackets_first_agrees_with_the_f64_bound_first() {
        // The order used above h = 20 (brackets, then the f64 bound) at a height where both
        // run quickly: the same decisions, none undecided, and the f64 column computed only
        // where a bracket could not settle a pair.
        for f in ["0.3", "0.6", "0.7", "0.75", "0.9", "0.99", "1"] {
            let f = parse_rational(f).unwrap();
            let usual = classify(&f, &f, 15, &Budget::SCAN, false).unwrap();
            let coarse = classify(&f, &f, 15, &Budget::SCAN, true).unwrap();
            assert_eq!(coarse.undecided(), 0, "f = {f}");
            assert_eq!(
                usual.pairs.iter().map(|p| p.0).collect::<Vec<_>>(),
                coarse.pairs.iter().map(|p| p.0).collect::<Vec<_>>(),
                "f = {f}"
            );
            // The f64 values against one minus the bracket midpoints (brackets narrower
            // than 1e-5 here).
            for (a, b) in usual.values.iter().zip(&coarse.values) {
                assert!((a - b).abs() < 1e-5, "f = {f}: {a} against {b}");
            }
        }
    }

    #[test]
    fn the_pair_left_undecided_at_height_22_is_decided() {
        // D(2,22) against D(3,22) at f = 0.99 agree to 8 decimals, within the f64 bound, and
        // the fine enclosure of 1 - D(2,22) needs psi at height 20 (over a minute). The
        // brackets order them: D(2,22) < D(3,22), not pathological.
        let f = parse_rational("0.99").unwrap();
        let c = classify_pairs(&f, &f, 22).unwrap();
        assert_eq!(c.pairs[1], (false, Certification::Relative));
        assert_eq!(c.undecided(), 0);
        assert!(c.pathological_depths().is_empty());
    }

    #[test]
    fn rejects_bad_arguments() {
        assert!(pathology_threshold(0, 10, 1e-3).is_err());
        assert!(pathology_threshold(10, 0, 1e-3).is_err());
        assert!(pathology_threshold(10, 10, 0.0).is_err());
        assert!(pathology_threshold(10, 10, f64::NAN).is_err());
    }
}
