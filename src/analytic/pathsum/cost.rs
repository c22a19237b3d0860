//! The cost model of [`super::pathsum_column`]: an estimate of its seconds and bytes, and the
//! refusal past about a minute or the memory limit.

use super::{Evaluator, Grid_, Law, Outcome, PathSumGame};
use crate::budget::Cost;
use crate::error::{Error, Result};
use num_rational::BigRational;
use num_traits::{Signed, Zero};

/// The largest magnitude a value of the tree may reach (`1e300`): the outputs in value units
/// (biases, losses) and the Monte Carlo engine's values are doubles, which end near 1.8e308.
const MAX_MAGNITUDE_EXPONENT: u32 = 300;

/// Refuses laws under which a value of the tree, `height x largest |step| + largest |leaf|
/// + largest |noise|`, can pass `10^300` in magnitude: one rule for `decision --game sum` (in
/// either mode) and `mc sum`, before any work.
pub(super) fn check_magnitude(game: &PathSumGame) -> Result<()> {
    let largest = |law: &Law| {
        law.atoms
            .iter()
            .map(|(v, _)| v.abs())
            .max()
            .unwrap_or_else(BigRational::zero)
    };
    let noise = match &game.evaluator {
        Evaluator::Additive { noise } => largest(noise),
        _ => BigRational::zero(),
    };
    let step = largest(&game.step) * BigRational::from_integer(game.height.into());
    let leaf = largest(&game.leaf);
    let limit = BigRational::from_integer(num_bigint::BigInt::from(10).pow(MAX_MAGNITUDE_EXPONENT));
    if &step + &leaf + &noise <= limit {
        return Ok(());
    }
    let (name, law) = if step >= leaf && step >= noise {
        ("--step", &game.step)
    } else if leaf >= noise {
        ("--leaf", &game.leaf)
    } else {
        match &game.evaluator {
            Evaluator::Additive { noise } => ("--noise", noise),
            _ => unreachable!("the noise is the largest term only when it is given"),
        }
    };
    Err(Error::invalid(
        name,
        &format!(
            "values small enough that a value of the tree (height x largest |step| + largest \
             |leaf| + largest |noise|) stays within 1e{MAX_MAGNITUDE_EXPONENT} in magnitude \
             (values and biases are printed, and sampled, as doubles)"
        ),
        law.text(),
    ))
}

/// Estimated cost of [`super::pathsum_column`] for all of `depths`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::pathsum::{Evaluator, Law, Outcome, PathSumGame, estimate_cost};
/// let game = PathSumGame {
///     branching: 2, height: 10, step: Law::parse("--step", "1:1/3,0:1/3,-1:1/3").unwrap(),
///     leaf: Law::point(0.into()), terminal: num_rational::BigRational::from_integer(0.into()), outcome: Outcome::Value,
///     evaluator: Evaluator::Perfect,
///     levels: None,
/// };
/// assert!(estimate_cost(&game, &[1, 5, 10], true).unwrap().seconds < 60.0);
/// ```
///
/// # Errors
///
/// As [`PathSumGame::validate`].
pub fn estimate_cost(game: &PathSumGame, depths: &[u32], exact: bool) -> Result<Cost> {
    let grid = Grid_::new(game)?;
    let span = |v: &[i64]| (v.iter().max().unwrap_or(&0) - v.iter().min().unwrap_or(&0)) as f64;
    let (sw, lw, nw) = (span(&grid.steps), span(&grid.leaves), span(&grid.noise));
    let h = f64::from(game.height);
    let b = f64::from(game.branching);
    let sign = game.outcome == Outcome::Sign;
    let reachable_positions = |height: f64| {
        ((h - height) * sw + 1.0).min((game.step.atoms.len() as f64).powf(h - height))
    };
    let positions = |height: f64| -> f64 {
        if sign {
            reachable_positions(height)
        } else {
            1.0
        }
    };
    // A binned front's levels (and those above it) carry one law per position value.
    let front_positions = |height: f64| -> f64 {
        if game.levels.is_some() {
            reachable_positions(height)
        } else {
            positions(height)
        }
    };
    let t_width = |height: f64| {
        if sign {
            grid.win as f64 + 1.0
        } else {
            height * sw + lw + 1.0
        }
    };
    // The width of the gap band e - t (the grids store the gap, see `engine`).
    let e_width = |height: f64, front: f64| match (&game.evaluator, sign) {
        (Evaluator::Position, false) => front * sw + lw + 2.0,
        (Evaluator::Position, true) => (height - front) * sw + grid.win as f64 + 1.0,
        (Evaluator::Artificial { .. }, _) => 2.0 * grid.win as f64 + 1.0,
        (Evaluator::Perfect, _) => 1.0,
        (Evaluator::Additive { .. }, _) => nw + 2.0,
    };
    let per_cell = b * b + 8.0 + game.step.atoms.len() as f64;
    // bits of a denominator at each height (exact mode)
    let unit_bits = |law: &Law| -> f64 {
        law.atoms
            .iter()
            .map(|(_, p)| p.denom().bits() as f64)
            .fold(0.0, f64::max)
    };
    let per_level_bits = unit_bits(&game.step)
        + if game.terminal.is_zero() {
            0.0
        } else {
            game.terminal.denom().bits() as f64 + unit_bits(&game.leaf)
        }
        + 1.0;
    let mut ops = 0.0;
    let mut weighted = 0.0;
    let mut bits = unit_bits(&game.leaf).max(1.0);
    let mut top_cells: f64 = 0.0;
    for k in 1..=game.height {
        bits = b * (bits + per_level_bits);
        let kf = f64::from(k);
        let one_d = positions(kf) * t_width(kf) * per_cell;
        let mut two_d = 0.0;
        for &d in depths {
            let front = h - f64::from(d);
            if kf > front {
                let cells = front_positions(kf) * t_width(kf) * e_width(kf, front);
                top_cells = top_cells.max(cells);
                two_d += cells * per_cell;
            }
        }
        let level_ops = one_d + two_d;
        ops += level_ops;
        let words = bits / 64.0;
        weighted += level_ops * (1.0 + words.powf(1.6) * 0.05);
    }
    let seconds = if exact {
        weighted * 3.0e-9 + 1e-3
    } else {
        ops * 4.0e-9 + 1e-3
    };
    let entry_bytes = if exact { 32.0 + bits / 8.0 } else { 8.0 };
    Ok(Cost {
        seconds,
        bytes: top_cells * 2.0 * entry_bytes + 4.0e6,
    })
}

/// The refusal past about a minute or the memory limit.
pub(super) fn check_cost(game: &PathSumGame, depths: &[u32], exact: bool) -> Result<()> {
    let cost = estimate_cost(game, depths, exact)?;
    if cost.exceeds_limits() {
        return Err(cost.refusal(
            format!(
                "the path-sum tree at b = {}, h = {} ({})",
                game.branching,
                game.height,
                if exact { "exact" } else { "f64" }
            ),
            "Use a smaller --height or --branching, coarser laws, or f64 instead of --exact.",
        ));
    }
    crate::budget::announce_estimate("path-sum D(d,h)", cost.seconds);
    Ok(())
}

/// The refusal of an f64 result whose rounding bound `worst` is too wide (or not finite).
pub(super) fn f64_refusal(h: u32, worst: f64) -> Error {
    Error::invalid(
        "--height",
        &format!(
            "small enough that the f64 rounding bound of D(d,h) stays below {} (here \
             {worst:.3e}); use --exact or a smaller --height",
            crate::analytic::families::MAX_F64_ERROR_BOUND
        ),
        h,
    )
}
