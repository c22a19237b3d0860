//! Evaluations as distributions: exact `D(d,h)` when a frontier node's
//! evaluation is a random draw whose law depends on the node's true value.
//!
//! **The model.** At a non-terminal frontier node of true value v the evaluation is an
//! independent draw from a law `E_v` ([`Model`]); terminal nodes evaluate exactly (their
//! true value). Depth-d minimax backs the evaluations up (Max takes the maximum, Min the
//! minimum) and the mover at the root takes the child with the best backed-up value, ties
//! among equal values broken uniformly at random. Evaluations are ordered levels (Max's view:
//! larger is better for Max); only their order and ties matter, so continuous laws are
//! binned ([`Quantization`], [`evaluation`](self#evaluation-models) below).
//!
//! **Games.**
//!
//! - [`MultiValuedPGame`]: a complete b-ary tree of height h ([`crate::model`]'s conventions:
//!   heights from the leaves, odd heights are Max nodes, the last mover is Max), leaf values
//!   i.i.d. from a finite distribution on g values, interior values by minimax. With
//!   `1:p,-1:1-p` it is today's P-game ([`crate::analytic::families::PGame`]). Reported:
//!   `D(d,h)`, the probability that the chosen move's true value equals the root's given that
//!   the root has a non-optimal child (a child whose value differs from the root's); the
//!   same probability unconditionally; the expected loss `E[value(root) - value(chosen)]`
//!   from the mover's point of view (Max: `V_root - V_chosen`, Min: `V_chosen - V_root`, so
//!   never negative; in the leaves' units; unconditional, trivial roots counting 0).
//! - [`CriticalGame`]: Nguyen & Ramanujan's critical win-loss game (module `critical`'s docs
//!   give the rules as the authors' code generates them). Depths count from the root (a Max
//!   node Max wins) to the terminal depth H. Reported: `D(d)`, the probability that depth-d
//!   minimax moves to a winning child given that the root has a losing move; the
//!   unconditional probability of a winning move (what mcts-lp plots; equal to `D` when the
//!   root's rate is 1, as in mcts-lp); the expected loss `2 (1 - P(win))` in the ±1 units.
//!
//! **Back-up of joint distributions.** The children of a node are independent given their
//! types, so the joint CDF `F(v, x) = P(T <= v, E <= x)` of (true value, backed-up
//! evaluation) at a Max node is the product of the children's, and at a Min node the joint
//! survival function is. The engines carry these per threshold of the true value (P-games)
//! or per node type (critical game), in exact rationals or in `f64` enclosures; the root
//! decision integrates uniform tie-breaking exactly (each child gets an independent uniform
//! `U` and the mover takes the best `E + U`).
//!
//! # Evaluation models
//!
//! `perfect` (the true value), `artificial` (the other value with probability e: two true
//! values only), `gaussian` (`v + N(0, sigma^2)`), `uniform` (`v + U(-a, a)`), `histogram`
//! (CSV `value,evaluation[,weight]`, exact, each `E_v` normalised by its total weight; a
//! true value with no rows is an error naming it) and `expected-playout` (critical game:
//! the probability that uniformly random play from the node ends in a win for Max,
//! [`PlayoutFormula`]). [`Quantization`] bins any of them: g equal bins over `[LO, HI]`,
//! half-open `[LO + i w, LO + (i+1) w)` except the last, closed at `HI`; values outside the
//! range go to the end bins. See the `evaluation` module for the defaults.
//!
//! **Exact and continuous.** Discrete inputs (`perfect`, `artificial`, `histogram`,
//! `uniform` with rational bins, `expected-playout`) are computed in rationals end to end
//! when `P` is [`num_rational::BigRational`]. A continuous model without bins (Gaussian;
//! uniform without `levels`) is computed as its quantization to [`DEFAULT_LEVELS`] bins
//! (exact for that quantized heuristic; Gaussian in `f64` only, its bin CDFs by
//! `libm::erfc`) and to twice as many ([`Outcome::refined`]): the difference between the two
//! is an *estimate* of how far the values are from the continuous limit, not a bound.
//!
//! # Modes and the rounding bound
//!
//! Generic over [`Probability`]: exact rationals on scaled `BigInt`s with one common
//! denominator per level (the critical game's point masses are written back over 1 so that
//! deterministic evaluations do not grow), reduced once when read out; or `f64` with
//! **outward-rounded interval arithmetic**: every level is a polynomial with non-negative
//! coefficients, evaluated at the lower and the upper ends of the inputs' enclosures and
//! widened by its counted roundings (the `arith` module's docs give the argument), the
//! differences rounded outward one by one and the root's sums in
//! [`crate::numeric::enclosure::Enclosure`]s. The reported value is the enclosure's midpoint
//! and its bound the enclosure's radius: a rigorous bound on the distance to the exact value
//! of the model at the `f64` parameters (for the Gaussian, at the `f64` bin CDFs). Unlike a
//! forward analysis in norms (whose bound grows like `b^h`), the enclosures follow each
//! entry's own sensitivity. Deterministic critical-game walks (perfect evaluations,
//! terminal frontiers, an ordered expected-playout heuristic), whose enclosures would widen
//! around values that are exactly 0 and 1, are computed exactly when that is estimated
//! cheap and then rounded (bound: the rounding of the final value).
//!
//! **How tight.** Critical game b = 8, H = 50, a 1000-point histogram: every bound below
//! `1e-12`. Multi-valued P-games: the enclosures of the true-value masses widen by a factor
//! of about b per level (relative rounding of a b-th power), and the root's sums over the
//! `(g - 1) x L` joint entries, which take differences, add their widths: about `1e-9` at
//! b = 2, h = 10, g = 16, L = 50, but `2e-2` at h = 30 with L = 1000 (the values are right,
//! their rigorous bound is not informative there; exact mode, or a pmf-carrying
//! subtraction-free root, would be needed). Where the non-trivial probability is too small
//! to tell from 0 in `f64`, `D` is reported as 1/2 with bound 1/2.
//!
//! # Costs
//!
//! Every computation is estimated before it starts and refused past about a minute or
//! 16 GiB ([`crate::budget`]): see [`estimate_critical_cost`] and [`estimate_pgame_cost`].
//! Exact numbers grow like `b^d` bits (each level raises the CDFs to the b-th power), so
//! exact results exist only for small depths.
//!
//! # Examples
//!
//! ```
//! use pathology::analytic::distributions::{CriticalGame, Depths, Evaluation, Model, critical_column};
//! use pathology::numeric::number::parse_rational;
//! let q = |s: &str| parse_rational(s).unwrap();
//! let game = CriticalGame::new(2, 6, q("1"), q("1")).unwrap();
//! let outcome = critical_column(&game, &Evaluation::new(Model::Artificial { error: q("1/10") }), Depths::All).unwrap();
//! let column = outcome.column;
//! assert_eq!(column.rows.len(), 6);
//! assert_eq!(column.rows[5].decision.value, q("1")); // the search reaches the terminal nodes
//! ```

mod arith;
mod chain;
mod cost;
mod critical;
mod evaluation;
mod histogram;
mod pgame;
pub mod report;
pub mod request;

#[cfg(test)]
mod tests;

pub use cost::{
    check_critical_cost, check_pgame_cost, estimate_critical_cost, estimate_pgame_cost,
};
pub use critical::{CriticalGame, MAX_CRITICAL_HEIGHT};
pub use evaluation::{
    DEFAULT_LEVELS, Evaluation, MAX_LEVELS, Model, Playout, PlayoutFormula, Quantization,
};
pub use histogram::{FNV1A64_BASIS, Histogram, fnv1a64, fnv1a64_extend};
pub use pgame::{MAX_PGAME_HEIGHT, MultiValuedPGame, parse_leaves};

use num_rational::BigRational;
use num_traits::Zero;
use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::numeric::enclosure::{Enclosure, Ring as EnclosureRing};
use crate::numeric::number::Probability;
use evaluation::Law;

/// Estimated seconds below which the critical game's walks run on one thread.
const SEQUENTIAL_SECONDS: f64 = 0.01;

/// Which depths to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depths {
    /// `d = 1..=h`.
    All,
    /// One depth.
    One(u32),
    /// `d = 1..=max` (exact mode: the depths whose numbers stay small).
    UpTo(u32),
}

impl Depths {
    /// The depths for a tree of height (or terminal depth) `height`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::Depths;
    /// assert_eq!(Depths::All.resolve(3).unwrap(), vec![1, 2, 3]);
    /// assert_eq!(Depths::UpTo(2).resolve(3).unwrap(), vec![1, 2]);
    /// assert!(Depths::One(4).resolve(3).unwrap_err().to_string().starts_with("--depth"));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--depth` outside `1..=height`.
    pub fn resolve(self, height: u32) -> Result<Vec<u32>> {
        let check = |d: u32| {
            if (1..=height).contains(&d) {
                Ok(d)
            } else {
                Err(Error::invalid(
                    "--depth",
                    &format!("in 1..={height} (at most the height)"),
                    d,
                ))
            }
        };
        Ok(match self {
            Depths::All => (1..=height).collect(),
            Depths::One(d) => vec![check(d)?],
            Depths::UpTo(d) => (1..=check(d)?).collect(),
        })
    }
}

/// A value and a rigorous bound on its distance to the exact value (0 in exact mode).
#[derive(Debug, Clone, PartialEq)]
pub struct Bounded<P> {
    /// The value.
    pub value: P,
    /// The bound (f64 mode: the radius of the enclosure, rounded up).
    pub bound: f64,
}

/// The results of one depth.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthRow<P> {
    /// The search depth d.
    pub depth: u32,
    /// `D(d, h)`: the probability of an optimal (winning) move given that the root has a
    /// non-optimal (losing) child.
    pub decision: Bounded<P>,
    /// The probability of an optimal (winning) move over all roots.
    pub unconditional: Bounded<P>,
    /// The expected loss from the mover's point of view (module docs).
    pub expected_loss: Bounded<P>,
}

/// The results of every requested depth at one height and one quantization.
#[derive(Debug, Clone, PartialEq)]
pub struct Column<P> {
    /// The height h (P-games) or terminal depth H (critical game).
    pub height: u32,
    /// The evaluation's levels at the non-terminal frontiers (the largest over the depths).
    pub levels: usize,
    /// One row per depth, ascending.
    pub rows: Vec<DepthRow<P>>,
    /// The probability that the root is non-trivial (the condition of `D`).
    pub nontrivial: Bounded<P>,
}

/// The estimate of the distance of a continuous model's values (computed at
/// [`DEFAULT_LEVELS`] bins) to its continuous limit, from the changes of D at twice the bins
/// (`changes`, one per row): **twice the largest change**. The quantization error falls as the
/// square of the bin width here (the change from G to 2G bins is about 3/4 of the distance at
/// G, measured on the critical game against 10 and 40 times finer grids), so the factor 2 leaves
/// room; the largest change over the rows is used because a single row's change can understate
/// its own distance many times (deep rows near 1/b, where the G and 2G grids alias). An
/// estimate, not a bound; a test checks it against a 10 times finer grid.
///
/// # Examples
///
/// ```
/// use pathology::analytic::distributions::continuous_limit_estimate;
/// assert_eq!(continuous_limit_estimate([1e-4, 3e-4, 2e-6]), 6e-4);
/// assert_eq!(continuous_limit_estimate([]), 0.0);
/// ```
pub fn continuous_limit_estimate(changes: impl IntoIterator<Item = f64>) -> f64 {
    2.0 * changes.into_iter().map(f64::abs).fold(0.0, f64::max)
}

/// A column, and for a continuous model the same at twice the bins.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome<P> {
    /// The results (a continuous model: at [`DEFAULT_LEVELS`] bins).
    pub column: Column<P>,
    /// A continuous model only: the results at twice the bins; the difference to
    /// [`Outcome::column`] estimates the distance to the continuous limit (not a bound).
    pub refined: Option<Column<P>>,
}

/// A probability in one of the two modes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Exact(BigRational),
    Float(Enclosure),
}

impl Value {
    /// Both in one mode: exact when both are, else enclosures.
    fn pair(&self, o: &Value) -> (Value, Value) {
        let float = |v: &Value| match v {
            Value::Exact(a) => Value::Float(Enclosure::of(a)),
            Value::Float(e) => Value::Float(*e),
        };
        match (self, o) {
            (Value::Exact(_), Value::Exact(_)) => (self.clone(), o.clone()),
            _ => (float(self), float(o)),
        }
    }

    fn sub(&self, o: &Value) -> Value {
        match self.pair(o) {
            (Value::Exact(a), Value::Exact(b)) => Value::Exact(a.minus(&b)),
            (Value::Float(a), Value::Float(b)) => Value::Float(EnclosureRing::sub(&a, &b)),
            _ => unreachable!("one mode"),
        }
    }

    fn mul(&self, o: &Value) -> Value {
        match self.pair(o) {
            (Value::Exact(a), Value::Exact(b)) => Value::Exact(a.times(&b)),
            (Value::Float(a), Value::Float(b)) => Value::Float(EnclosureRing::mul(&a, &b)),
            _ => unreachable!("one mode"),
        }
    }

    fn div(&self, o: &Value) -> Value {
        match self.pair(o) {
            (Value::Exact(a), Value::Exact(b)) => Value::Exact(a.divided_by(&b)),
            (Value::Float(a), Value::Float(b)) => Value::Float(divide(a, b)),
            _ => unreachable!("one mode"),
        }
    }

    fn is_zero(&self) -> bool {
        match self {
            Value::Exact(a) => a.is_zero(),
            Value::Float(a) => a.upper <= 0.0,
        }
    }

    /// The value in mode `P`, clamped to `[0, cap]` (a tightening: the exact value is in
    /// that range).
    fn bounded<P: Probability>(&self, cap: f64) -> Bounded<P> {
        match self {
            Value::Exact(a) => {
                let value = P::from_rational(a);
                // f64: the distance of the nearest double, rounded up.
                let bound = match value.exact_value() {
                    Some(_) => 0.0,
                    None => {
                        let gap = BigRational::from_float(value.to_f64()).expect("finite") - a;
                        Enclosure::of(&gap).radius_around(0.0)
                    }
                };
                let bound = if bound <= f64::MIN_POSITIVE {
                    0.0
                } else {
                    bound
                };
                Bounded { value, bound }
            }
            Value::Float(e) => {
                let lower = e.lower.clamp(0.0, cap);
                let upper = e.upper.clamp(0.0, cap);
                let value = lower + (upper - lower) / 2.0;
                let radius = Enclosure { lower, upper }.radius_around(value);
                let exact = BigRational::from_float(value).expect("finite");
                Bounded {
                    value: P::from_rational(&exact),
                    bound: if upper == lower { 0.0 } else { radius },
                }
            }
        }
    }
}

/// `a / b` for an enclosure `b` of positive numbers, rounded outward.
pub(crate) fn divide(a: Enclosure, b: Enclosure) -> Enclosure {
    assert!(b.lower > 0.0, "a positive divisor");
    use crate::numeric::enclosure::{down, quotient_is_exact, up};
    let lower_divisor = if a.lower >= 0.0 { b.upper } else { b.lower };
    let upper_divisor = if a.upper >= 0.0 { b.lower } else { b.upper };
    let (lower, upper) = (a.lower / lower_divisor, a.upper / upper_divisor);
    // An exact quotient (0 / b, or a / 1) keeps its end: a true 0 stays 0.
    Enclosure {
        lower: down(lower, quotient_is_exact(a.lower, lower_divisor, lower)),
        upper: up(upper, quotient_is_exact(a.upper, upper_divisor, upper)),
    }
}

pub(crate) fn check_branching(branching: u32) -> Result<()> {
    let max = crate::analytic::families::MAX_BRANCHING;
    if !(2..=max).contains(&branching) {
        return Err(Error::invalid(
            "--branching",
            &format!("in 2..={max}"),
            branching,
        ));
    }
    Ok(())
}

pub(crate) fn check_height(height: u32, max: u32) -> Result<()> {
    if !(1..=max).contains(&height) {
        return Err(Error::invalid("--height", &format!("in 1..={max}"), height));
    }
    Ok(())
}

/// The bin counts to compute: one pass, or (continuous) the default and its double.
fn passes<P: Probability>(evaluation: &Evaluation<P>) -> Vec<Option<u32>> {
    if evaluation.is_continuous() {
        vec![Some(DEFAULT_LEVELS), Some(2 * DEFAULT_LEVELS)]
    } else {
        vec![None]
    }
}

/// Assembles a column from per-depth `(correct, trivial, loss)` and `Pr[non-trivial]`.
fn assemble<P: Probability>(
    height: u32,
    levels: usize,
    depths: &[u32],
    results: Vec<(Value, Value, Value)>,
    loss_cap: f64,
    never: impl Fn() -> Error,
) -> Result<Column<P>> {
    let mut rows = Vec::with_capacity(depths.len());
    let mut nontrivial = None;
    for (&depth, (correct, trivial, loss)) in depths.iter().zip(results) {
        let one = Value::Exact(BigRational::from_integer(1.into()));
        let nt = one.sub(&trivial);
        if nt.is_zero() {
            return Err(never());
        }
        // In f64 a non-trivial probability too small to be told from 0 leaves D unknown in
        // [0, 1] (reported as 1/2 with bound 1/2): the condition is ill-conditioned there.
        let decision = match &nt {
            Value::Float(e) if e.lower <= 0.0 => Value::Float(Enclosure {
                lower: 0.0,
                upper: 1.0,
            }),
            _ => correct.sub(&trivial).div(&nt),
        };
        rows.push(DepthRow {
            depth,
            decision: decision.bounded(1.0),
            unconditional: correct.bounded(1.0),
            expected_loss: loss.bounded(loss_cap),
        });
        nontrivial.get_or_insert(nt);
    }
    Ok(Column {
        height,
        levels,
        rows,
        nontrivial: nontrivial.expect("at least one depth").bounded(1.0),
    })
}

/// `D(d)`, the unconditional probability of a winning move and the expected loss of a
/// critical win-loss game at the requested depths.
///
/// # Examples
///
/// ```
/// use pathology::analytic::distributions::{CriticalGame, Depths, Evaluation, Model, critical_column};
/// // Minimax on the paper's b = 2, gamma = 1 game with a noisy evaluation.
/// let game = CriticalGame::new(2, 12, 1.0, 1.0).unwrap();
/// let noisy = Evaluation::new(Model::Artificial { error: 0.1 });
/// let column = critical_column(&game, &noisy, Depths::All).unwrap().column;
/// assert!(column.rows.iter().all(|r| r.decision.bound < 1e-12));
/// assert_eq!(column.rows[11].decision.value, 1.0); // d = H reaches the terminal nodes
/// assert_eq!(column.nontrivial.value, 1.0); // the root's rate is 1: always a losing move
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming the option of a bad parameter (`--depth`, `--e`,
/// `--sigma`, `--halfwidth`, `--histogram`, `--levels`, `--range`, `--exact` with the
/// Gaussian); [`Error::TooExpensive`] when [`check_critical_cost`] refuses;
/// [`Error::Interrupted`] when cancelled ([`crate::cancel`], checked once per level).
pub fn critical_column<P: Probability>(
    game: &CriticalGame<P>,
    evaluation: &Evaluation<P>,
    depths: Depths,
) -> Result<Outcome<P>> {
    let values = [
        -BigRational::from_integer(1.into()),
        BigRational::from_integer(1.into()),
    ];
    evaluation.validate(&values, true)?;
    let depths = depths.resolve(game.height())?;
    let rates = game.rates()?;
    let cancel = crate::cancel::current();
    let b = game.branching() as usize;
    let trivial = num_traits::pow(BigRational::from_integer(1.into()) - &rates.root, b - 1);
    let mut columns = Vec::new();
    for (pass, bins) in passes(evaluation).into_iter().enumerate() {
        let mut laws: Vec<(u32, Law)> = Vec::new();
        // Above the terminal depth and without the playout heuristic, the frontier law does
        // not depend on the depth: built once, shared by both parities.
        let mut shared: Option<Law> = None;
        let depth_free = !matches!(evaluation.model, Model::ExpectedPlayout(_));
        for &d in &depths {
            let key = cost::law_key(game, evaluation, d);
            if !laws.iter().any(|(k, _)| *k == key) {
                let law = match &shared {
                    Some(law) if depth_free && d < game.height() => law.clone(),
                    _ => critical::frontier_law(game, &rates, evaluation, d, bins)?,
                };
                if depth_free && d < game.height() && shared.is_none() {
                    shared = Some(law.clone());
                }
                laws.push((key, law));
            }
        }
        let law_of = |d: u32| {
            let key = cost::law_key(game, evaluation, d);
            &laws.iter().find(|(k, _)| *k == key).expect("built").1
        };
        // Small work on one thread: starting the thread pool would cost more than it saves.
        let mut parallel = true;
        if pass == 0 {
            let estimate = cost::critical_cost(game, evaluation, &rates, &depths, &law_of);
            parallel = estimate.seconds > SEQUENTIAL_SECONDS;
            cost::refuse_critical(game, evaluation, &depths, estimate)?;
        }
        let levels = depths
            .iter()
            .filter(|&&d| d < game.height())
            .map(|&d| law_of(d).levels)
            .max()
            .unwrap_or(2);
        // One walk per law (parity, or depth for the playout and the terminal depth).
        let mut groups: Vec<(u32, Vec<u32>)> = Vec::new();
        for &d in &depths {
            let key = cost::law_key(game, evaluation, d);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, g)) => g.push(d),
                None => groups.push((key, vec![d])),
            }
        }
        let walk = |(_, group): &(u32, Vec<u32>)| -> Result<Vec<(u32, Value)>> {
            let law = law_of(group[0]);
            let values = chain::correct_chain(game, &rates, law, group, &cancel)?;
            Ok(group.iter().copied().zip(values).collect())
        };
        let walks: Vec<Vec<(u32, Value)>> = if parallel {
            groups.par_iter().map(walk).collect::<Result<_>>()?
        } else {
            groups.iter().map(walk).collect::<Result<_>>()?
        };
        let mut by_depth: Vec<(u32, Value)> = walks.into_iter().flatten().collect();
        by_depth.sort_by_key(|(d, _)| *d);
        let results: Vec<(Value, Value, Value)> = by_depth
            .into_iter()
            .map(|(_, correct)| {
                let trivial = Value::Exact(trivial.clone());
                let two = Value::Exact(BigRational::from_integer(2.into()));
                let one = Value::Exact(BigRational::from_integer(1.into()));
                let loss = two.mul(&one.sub(&correct));
                (correct, trivial, loss)
            })
            .collect();
        columns.push(assemble::<P>(
            game.height(),
            levels,
            &depths,
            results,
            2.0,
            || Error::invalid("--gamma", "above 0 at the root", 0),
        )?);
    }
    let refined = if columns.len() > 1 {
        columns.pop()
    } else {
        None
    };
    Ok(Outcome {
        column: columns.pop().expect("one pass"),
        refined,
    })
}

/// `D(d,h)`, the unconditional probability of an optimal move and the expected loss of a
/// multi-valued P-game at the requested depths.
///
/// # Examples
///
/// ```
/// use pathology::analytic::distributions::{Depths, Evaluation, Model, MultiValuedPGame, parse_leaves, pgame_column};
/// use pathology::numeric::number::parse_rational;
/// let leaves = parse_leaves("0:1/4,1:1/2,2:1/4").unwrap();
/// let game = MultiValuedPGame::new(2, 4, leaves).unwrap();
/// let column = pgame_column(&game, &Evaluation::new(Model::Perfect), Depths::All).unwrap().column;
/// // A perfect evaluation always finds an optimal move, and loses nothing.
/// for row in &column.rows {
///     assert_eq!(row.decision.value, parse_rational("1").unwrap());
///     assert_eq!(row.expected_loss.value, parse_rational("0").unwrap());
/// }
/// ```
///
/// # Errors
///
/// As [`critical_column`], with [`check_pgame_cost`]'s refusals, `--leaves` for the
/// artificial evaluation with other than two values, and `--evaluation` for the
/// expected-playout heuristic (critical game only).
pub fn pgame_column<P: Probability>(
    game: &MultiValuedPGame<P>,
    evaluation: &Evaluation<P>,
    depths: Depths,
) -> Result<Outcome<P>> {
    let values = game.values().to_vec();
    pgame::check_values(&values)?;
    evaluation.validate(&values, false)?;
    let depths = depths.resolve(game.height())?;
    check_pgame_cost(game, evaluation, &depths)?;
    let probabilities = game.exact_probabilities()?;
    let cancel = crate::cancel::current();
    let b = game.branching() as usize;
    let h = game.height();
    let span = values.last().expect("values") - &values[0];
    let loss_cap = ToPrimitive::to_f64(&span).unwrap_or(f64::INFINITY) * (1.0 + 1e-9);
    let masses = if P::EXACT {
        let top = depths.iter().map(|d| h - d).max().unwrap_or(0);
        pgame::exact_masses(&probabilities, b, top)
    } else {
        Vec::new()
    };
    let mut columns = Vec::new();
    for bins in passes(evaluation) {
        let law = evaluation.law(&values, None, bins)?;
        let terminal = Law::perfect(values.len());
        let results: Vec<(Value, Value, Value)> = depths
            .par_iter()
            .map(|&d| {
                let front = h - d;
                let law = if front == 0 { &terminal } else { &law };
                if P::EXACT {
                    pgame::exact_depth(&values, &masses, law, h, front, b, &cancel)
                } else {
                    pgame::float_depth(&values, &probabilities, law, h, front, b, &cancel)
                }
            })
            .collect::<Result<_>>()?;
        columns.push(assemble::<P>(
            h,
            law.levels,
            &depths,
            results,
            loss_cap,
            || {
                Error::invalid(
                    "--leaves",
                    "at least two values of positive probability",
                    "one",
                )
            },
        )?);
    }
    let refined = if columns.len() > 1 {
        columns.pop()
    } else {
        None
    };
    Ok(Outcome {
        column: columns.pop().expect("one pass"),
        refined,
    })
}

use num_traits::ToPrimitive;
