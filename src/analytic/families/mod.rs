//! Exact `D(d,h)` for every game the Monte Carlo side plays: b-ary D-games, P-games and
//! N-games, with the piece-count or the artificial evaluator.
//!
//! `D(d,h)` is the probability that a depth-d minimax search at a **non-trivial** root of
//! height h (the player to move has at least one winning and one losing move) moves to a
//! winning child, ties among the children with the best backed-up value broken uniformly at
//! random. The conventions are those of the Monte Carlo side ([`crate::studies::wilson_parker_nau::study`],
//! [`crate::model`]): odd heights are Max nodes, a 1-square is a win for Max, the front of a
//! depth-d search is at height `h - d`, terminal squares are evaluated exactly (so
//! `D(h,h) = 1`).
//!
//! **Families** ([`Family`]):
//!
//! - [`BaryDGame`]: Li & Marsland (1990), Definition 3.1 with exchangeable children, any b.
//!   For b = 2 (`f1 = q_2`, `f2 = r_2`) the only non-trivial root has one win and one loss
//!   child, and `D(d,h)` is exactly the paper's `Pr[Psi(g1) > Psi(g2)] + 1/2 Pr[Psi(g1) =
//!   Psi(g2)]` of Section 6.1 (tested equal, in rationals, to [`crate::analytic::dgame::Solver`]).
//!   For b > 2 a non-trivial root (a win for the mover, as it has a winning move) has k =
//!   1..b-1 winning children with probability proportional to `q_k` (`r_k` at a Min root).
//! - [`PGame`]: squares 1 with probability p (Pearl; Chi & Nau 1987; Wilson et al. 2009). A
//!   P-game is a D-game whose `q_k(t)`, `r_k(t)` are binomial patterns conditioned on the
//!   node's value; at `p = w_b` they do not depend on the height (tested: for b = 2 the
//!   engine agrees with [`crate::analytic::dgame::Solver`] at `f1 = f2 = sqrt 5 - 2`).
//! - [`NGame`]: edges +1 with probability q (Nau 1982; Wilson et al. 2009); the path sum is
//!   the state.
//!
//! **Evaluators** ([`Evaluator`]): Nau's piece count psi (the number of 1-squares below a
//! front node; all front nodes have the same height, so this is also the fraction of
//! 1-squares that `mc emm`'s `FRACTION_MINIMAX` curve searches), or Wilson et al.'s
//! artificial evaluator: each front node's true value, flipped with probability e
//! independently (Pearl's bi-valued model; the minimax curve of `mc emm` with
//! `--evaluator artificial`).
//!
//! **Modes.** Everything is generic over [`Probability`]: exact rationals, with scaled
//! integers in the hot loops and one reduction at the end, or `f64` with a rigorous bound on
//! the rounding error (against the exact value at the `f64` parameters), reusing the FFT
//! convolution of [`crate::numeric::fft`] and its bound. The method is in the `engine` module's docs.
//! The bound, and the actual rounding error, grow like `b^h` (each level multiplies a
//! deviation of the total mass by about b, as in [`crate::analytic::dgame`] for b = 2): the bound is
//! about `1e-7` for a P-game at b = 2, h = 20 and `3e-8` at b = 3, h = 12 (as printed by
//! `pathology exact`); for larger b at large heights use exact mode.
//!
//! # Examples
//!
//! ```
//! use num_rational::BigRational;
//! use pathology::analytic::families::{Evaluator, Family, PGame, decision_column};
//! use pathology::numeric::number::parse_rational;
//! // A binary P-game with p = 1/2, exactly.
//! let game = Family::P(PGame::new(2, parse_rational("1/2").unwrap()).unwrap());
//! let column = decision_column(&game, &Evaluator::Count, 4).unwrap();
//! assert_eq!(column.values[3], BigRational::from_integer(1.into())); // D(h,h) = 1
//! assert!(column.values[0] < column.values[3]);
//! ```

mod cost;
mod definitions;
mod engine;
pub mod report;
mod tracked;

pub use cost::{check_cost, estimate_cost};
pub use definitions::{BaryDGame, MAX_BRANCHING, MAX_HEIGHT, NGame, PGame};

use rayon::prelude::*;

use crate::analytic::dgame::check_unit;
use crate::error::{Error, Result};
use crate::numeric::fft::ConvolutionMethod;
use crate::numeric::number::{Probability, Scaled};
use crate::progress::Task;
use engine::{Level, Model};
use tracked::Coef;

/// A game family with its parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum Family<P> {
    /// A bi-valued b-ary D-game.
    D(BaryDGame<P>),
    /// A P-game.
    P(PGame<P>),
    /// An N-game.
    N(NGame<P>),
}

impl<P: Probability> Family<P> {
    /// The branching factor b.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::{Family, NGame};
    /// assert_eq!(Family::N(NGame::new(3, 0.5).unwrap()).branching(), 3);
    /// ```
    pub fn branching(&self) -> u32 {
        match self {
            Family::D(g) => g.branching(),
            Family::P(g) => g.branching(),
            Family::N(g) => g.branching(),
        }
    }

    /// `d`, `p` or `n`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::{Family, PGame};
    /// assert_eq!(Family::P(PGame::new(2, 0.5).unwrap()).name(), "p");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            Family::D(_) => "d",
            Family::P(_) => "p",
            Family::N(_) => "n",
        }
    }

    fn model(&self, height: u32) -> Model<P::Scaled> {
        match self {
            Family::D(g) => g.model(height),
            Family::P(g) => g.model(height),
            Family::N(g) => g.model(height),
        }
    }

    /// The error for parameters under which no root is non-trivial.
    fn never_nontrivial(&self, height: u32) -> Error {
        match self {
            Family::D(g) => {
                let (name, values) = match crate::model::Player::to_move_at_height(height) {
                    crate::model::Player::Max => ("q", g.win_max()),
                    crate::model::Player::Min => ("r", g.loss_min()),
                };
                Error::invalid(
                    &format!("{name}_{}", g.branching()),
                    &format!(
                        "below 1 at a root of height {height}, so that a root with both a winning and a losing move occurs"
                    ),
                    values.last().map(|v| v.to_f64()).unwrap_or(1.0),
                )
            }
            Family::P(g) => Self::never_nontrivial_at("--p", g.p(), height),
            Family::N(g) => Self::never_nontrivial_at("--q", g.q(), height),
        }
    }

    /// [`Self::never_nontrivial`] of a P- or N-game's probability `x`: 0 or 1, or (in `f64`)
    /// a value so near them that the probability of a non-trivial root underflows to 0.
    fn never_nontrivial_at(name: &str, x: &P, height: u32) -> Error {
        let value = x.to_f64();
        if value > 0.0 && value < 1.0 {
            return Error::invalid(
                name,
                &format!(
                    "far enough from 0 and 1 that a non-trivial root of height {height} has a \
                     probability f64 holds (here it underflows to 0; --exact computes it)"
                ),
                format!("{value:e}"),
            );
        }
        Error::invalid(
            name,
            "in (0, 1): at 0 or 1 no root has both a winning and a losing move",
            value,
        )
    }
}

/// The static evaluator at the search front.
#[derive(Debug, Clone, PartialEq)]
pub enum Evaluator<P> {
    /// Nau's piece count: the number of 1-squares below the node.
    Count,
    /// Wilson et al.'s artificial evaluator: the node's true value, wrong with probability
    /// `error` independently per node (terminal squares are exact).
    Artificial {
        /// The error rate e, in `[0, 1]`.
        error: P,
    },
}

impl<P: Probability> Evaluator<P> {
    /// Checks the error rate.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::Evaluator;
    /// assert!(Evaluator::Artificial { error: 0.1 }.validate().is_ok());
    /// assert!(Evaluator::Artificial { error: 1.1 }.validate().is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--e` outside `[0, 1]`.
    pub fn validate(&self) -> Result<()> {
        match self {
            Evaluator::Count => Ok(()),
            Evaluator::Artificial { error } => check_unit("--e", error),
        }
    }

    /// `count` or `artificial`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::Evaluator;
    /// assert_eq!(Evaluator::<f64>::Count.name(), "count");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            Evaluator::Count => "count",
            Evaluator::Artificial { .. } => "artificial",
        }
    }
}

/// `D(d,h)` for every depth `d = 1..=h` at one height.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactColumn<P> {
    /// The height h of the root.
    pub height: u32,
    /// `values[d - 1] = D(d, h)`.
    pub values: Vec<P>,
    /// `error_bounds[d - 1]` bounds `|values[d - 1] - D(d, h)|` (0 in exact mode).
    pub error_bounds: Vec<f64>,
    /// The probability that a root is non-trivial (P- and N-games: both a winning and a
    /// losing move; D-games: the weight of the patterns with k = 1..b-1 favourable children
    /// at a root that is a win for the mover).
    pub nontrivial: P,
}

/// Checks `1 <= depth <= height <= MAX_HEIGHT`.
fn check_depth(depth: u32, height: u32) -> Result<()> {
    if !(1..=MAX_HEIGHT).contains(&height) {
        return Err(Error::invalid(
            "--height",
            &format!("in 1..={MAX_HEIGHT}"),
            height,
        ));
    }
    if !(1..=height).contains(&depth) {
        return Err(Error::invalid(
            "--depth",
            &format!("in 1..={height} (at most the height)"),
            depth,
        ));
    }
    Ok(())
}

/// The front at height `front` for the evaluator.
fn front_level<P: Probability>(
    evaluator: &Evaluator<P>,
    counts: &[Level<P::Scaled>],
    masses: &[Level<P::Scaled>],
    front: u32,
) -> Level<P::Scaled> {
    match evaluator {
        Evaluator::Artificial { error } if front > 0 => {
            let (numerators, unit) = P::common_scale(std::slice::from_ref(error));
            let wrong = Coef::exact(numerators[0].clone());
            let value = unit.sub(&numerators[0]);
            let u = <P::Scaled as Scaled>::UNIT_ROUNDOFF;
            let right = Coef {
                error: 1.01 * u * tracked::magnitude::<P>(&value),
                value,
            };
            engine::artificial_front::<P>(&masses[front as usize], &wrong, &right, &unit)
        }
        _ => counts[front as usize].clone(),
    }
}

/// D(d, h) for the given depths, with bounds.
fn compute<P: Probability>(
    family: &Family<P>,
    evaluator: &Evaluator<P>,
    height: u32,
    depths: &[u32],
    method: ConvolutionMethod,
) -> Result<(Vec<(P, f64)>, P)> {
    evaluator.validate()?;
    for &d in depths {
        check_depth(d, height)?;
    }
    check_cost(family, evaluator, height)?;
    let model = family.model(height);
    let cancel = crate::cancel::current();
    // Progress: the frontier distributions, the node masses, then one step per depth.
    let task = Task::start("exact D(d,h)", "steps", depths.len() as u64 + 2, true);
    let lowest_front = depths.iter().map(|d| height - d).max().unwrap_or(0);
    let counts = match evaluator {
        Evaluator::Count => engine::count_levels::<P>(&model, lowest_front, method, &cancel)?,
        Evaluator::Artificial { .. } => vec![engine::leaf_level(&model)],
    };
    task.advance(1);
    let masses = engine::mass_levels::<P>(&model, height - 1, &cancel)?;
    task.advance(1);
    let results: Vec<Option<(P, f64, P)>> = depths
        .par_iter()
        .map(|&d| {
            let front = height - d;
            let level = front_level(evaluator, &counts, &masses, front);
            let cdf = engine::back_up::<P>(&model, &level, front, height - 1, &masses, &cancel)?;
            task.advance(1);
            Ok(engine::root_decision::<P>(
                &model,
                &cdf,
                &masses[height as usize - 1],
            ))
        })
        .collect::<Result<_>>()?;
    let mut out = Vec::with_capacity(results.len());
    let mut nontrivial = P::impossible();
    for r in results {
        let (mut value, bound, nt) = r.ok_or_else(|| family.never_nontrivial(height))?;
        // Rounding can leave a float value just outside [0, 1]; clamping moves it towards
        // the exact value, so the bound still holds.
        if value > P::certain() {
            value = P::certain();
        } else if value < P::impossible() {
            value = P::impossible();
        }
        nontrivial = nt;
        out.push((value, bound));
    }
    if !P::EXACT {
        check_f64_bounds(height, &out, &nontrivial)?;
    }
    Ok((out, nontrivial))
}

/// The largest rounding bound of an `f64` column that is still printed: a value not known to
/// within 0.05 (not even to one decimal) is no answer. Values are printed with only the
/// decimals their bound supports, so smaller bounds are honest as they are (a rare non-trivial
/// root, e.g. p = 19/20 at b = 3, gives 4.5e-3 at h = 4). The bound grows like `b^h`: the
/// artificial evaluator, cheap at any height, passes 0.05 at about h = 38 for b = 2, and far
/// beyond it the `f64` values themselves become meaningless (at h = 64: 0 where the exact
/// value is near 0.9, or NaN).
pub const MAX_F64_ERROR_BOUND: f64 = 0.05;

/// Refuses an `f64` column whose values or bounds are not finite or whose largest bound
/// exceeds [`MAX_F64_ERROR_BOUND`]: it would carry no information, so it is never printed or
/// compared with a simulation.
fn check_f64_bounds<P: Probability>(height: u32, out: &[(P, f64)], nontrivial: &P) -> Result<()> {
    let worst = out
        .iter()
        .map(|&(_, b)| b)
        .fold(0.0f64, |w, b| if b.is_nan() || b > w { b } else { w });
    let finite = out.iter().all(|(v, _)| v.to_f64().is_finite()) && nontrivial.to_f64().is_finite();
    if finite && worst <= MAX_F64_ERROR_BOUND {
        return Ok(());
    }
    Err(Error::invalid(
        "--height",
        &format!(
            "small enough that the f64 rounding bound of D(d,h) stays below {MAX_F64_ERROR_BOUND} \
             (at height {height} it is {worst:.3e}{}); use a smaller --height",
            if finite {
                ""
            } else {
                " and some values are not finite"
            }
        ),
        height,
    ))
}

/// `D(d, h)` for every depth `d = 1..=height`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::families::{Evaluator, Family, PGame, decision_column};
/// // Minimax with the artificial evaluator is pathological on binary P-games (Wilson et al.).
/// let game = Family::P(PGame::pearl(2).unwrap());
/// let column = decision_column(&game, &Evaluator::Artificial { error: 0.1 }, 8).unwrap();
/// assert!(column.values[0] > column.values[6]);
/// assert!(column.error_bounds.iter().all(|&b| b < 1e-10));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] for a height outside `1..=64`, an error rate outside `[0, 1]`,
/// or parameters under which no root is non-trivial (naming them);
/// [`Error::TooExpensive`] when [`check_cost`] refuses; [`Error::Interrupted`] when
/// cancelled ([`crate::cancel`]: checked once per level).
pub fn decision_column<P: Probability>(
    family: &Family<P>,
    evaluator: &Evaluator<P>,
    height: u32,
) -> Result<ExactColumn<P>> {
    decision_column_with(family, evaluator, height, ConvolutionMethod::Auto)
}

/// [`decision_column`] with `f64` convolutions by `method` (exact mode ignores it).
///
/// # Examples
///
/// ```
/// use pathology::analytic::families::{Evaluator, Family, PGame, decision_column_with};
/// use pathology::numeric::fft::ConvolutionMethod;
/// let game = Family::P(PGame::new(3, 0.4).unwrap());
/// let direct = decision_column_with(&game, &Evaluator::Count, 6, ConvolutionMethod::Direct).unwrap();
/// let fft = decision_column_with(&game, &Evaluator::Count, 6, ConvolutionMethod::Fft).unwrap();
/// for d in 0..6 {
///     let gap = (direct.values[d] - fft.values[d]).abs();
///     assert!(gap <= direct.error_bounds[d] + fft.error_bounds[d]);
/// }
/// ```
///
/// # Errors
///
/// As [`decision_column`].
pub fn decision_column_with<P: Probability>(
    family: &Family<P>,
    evaluator: &Evaluator<P>,
    height: u32,
    method: ConvolutionMethod,
) -> Result<ExactColumn<P>> {
    check_depth(1, height)?;
    let depths: Vec<u32> = (1..=height).collect();
    let (results, nontrivial) = compute(family, evaluator, height, &depths, method)?;
    let (values, error_bounds) = results.into_iter().unzip();
    Ok(ExactColumn {
        height,
        values,
        error_bounds,
        nontrivial,
    })
}

/// `D(depth, height)` and its rounding bound (0 in exact mode).
///
/// # Examples
///
/// ```
/// use pathology::analytic::families::{Evaluator, Family, NGame, correct_decision_probability};
/// use pathology::numeric::number::parse_rational;
/// let game = Family::N(NGame::new(2, parse_rational("1/2").unwrap()).unwrap());
/// let (d, bound) = correct_decision_probability(&game, &Evaluator::Count, 5, 5).unwrap();
/// assert_eq!(d, parse_rational("1").unwrap()); // the search reaches the squares
/// assert_eq!(bound, 0.0);
/// ```
///
/// # Errors
///
/// As [`decision_column`], and [`Error::InvalidArgument`] naming `--depth` outside
/// `1..=height`.
pub fn correct_decision_probability<P: Probability>(
    family: &Family<P>,
    evaluator: &Evaluator<P>,
    depth: u32,
    height: u32,
) -> Result<(P, f64)> {
    let (mut results, _) = compute(family, evaluator, height, &[depth], ConvolutionMethod::Auto)?;
    Ok(results.remove(0))
}

#[cfg(test)]
mod tests;
