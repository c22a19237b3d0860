//! Exact values for the Monte Carlo study of Wilson, Parker & Nau (2009), Figs. 3-6
//! ([`crate::studies::wilson_parker_nau::study`]): the minimax curve with the artificial evaluator, and minimax on
//! the unaltered fraction of 1-squares ([`FRACTION_MINIMAX`]) with the natural evaluator, are
//! exactly the [`crate::analytic::families::Evaluator::Artificial`] and [`crate::analytic::families::Evaluator::Count`] values of
//! [`crate::analytic::families::decision_column`] for the study's game (same non-trivial roots, tie rule and
//! player convention). The product rule and EMM have no exact engine.

use crate::analytic::families::{Evaluator, Family, NGame, PGame, decision_column};
use crate::error::Result;
use crate::sim::level_tree::{BoardSpec, GameKind};
use crate::sim::stats::proportion_z;
use crate::studies::wilson_parker_nau::study::{FRACTION_MINIMAX, StudyEvaluator, StudyResult};

/// The exact curve of one of the study's decisions.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactCurve {
    /// Which decision: 0 (minimax, artificial evaluator) or [`FRACTION_MINIMAX`] (natural).
    pub decision: usize,
    /// `values[d - 1] = D(d, H)`.
    pub values: Vec<f64>,
    /// Rigorous rounding bounds of the values.
    pub error_bounds: Vec<f64>,
}

/// The exact minimax curve for a study's games and evaluator.
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::exact_curve::exact_minimax_curve;
/// use pathology::studies::wilson_parker_nau::study::StudyEvaluator;
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// let spec = BoardSpec::new(GameKind::P, 2, 6, 0.382).unwrap();
/// let curve = exact_minimax_curve(&spec, &StudyEvaluator::Artificial { error: 0.1 }).unwrap();
/// assert_eq!(curve.decision, 0);
/// assert_eq!(curve.values.len(), 6);
/// assert!(1.0 - curve.values[5] <= curve.error_bounds[5]); // depth H reaches the squares
/// ```
///
/// # Errors
///
/// As [`decision_column`] (e.g. a parameter under which no root is non-trivial).
pub fn exact_minimax_curve(spec: &BoardSpec, evaluator: &StudyEvaluator) -> Result<ExactCurve> {
    exact_curve(
        spec,
        match evaluator {
            StudyEvaluator::Artificial { error } => Some(*error),
            StudyEvaluator::Natural(_) => None,
        },
    )
}

/// [`exact_minimax_curve`] from the evaluator's parameters alone: `Some(e)` for minimax with
/// the artificial evaluator of error `e`, `None` for minimax on the unaltered fraction of
/// 1-squares ([`FRACTION_MINIMAX`], the natural evaluator; the calibration plays no part).
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::exact_curve::{exact_curve, exact_minimax_curve};
/// use pathology::studies::wilson_parker_nau::study::{FRACTION_MINIMAX, StudyEvaluator};
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// let spec = BoardSpec::new(GameKind::N, 2, 5, 0.5).unwrap();
/// let artificial = StudyEvaluator::Artificial { error: 0.2 };
/// assert_eq!(exact_curve(&spec, Some(0.2)).unwrap(), exact_minimax_curve(&spec, &artificial).unwrap());
/// assert_eq!(exact_curve(&spec, None).unwrap().decision, FRACTION_MINIMAX);
/// ```
///
/// # Errors
///
/// As [`decision_column`].
pub fn exact_curve(spec: &BoardSpec, artificial_error: Option<f64>) -> Result<ExactCurve> {
    let b = spec.tree.branching() as u32;
    let family = match spec.kind {
        GameKind::P => Family::P(PGame::new(b, spec.parameter)?),
        GameKind::N => Family::N(NGame::new(b, spec.parameter)?),
    };
    let (decision, exact_evaluator) = match artificial_error {
        Some(error) => (0, Evaluator::Artificial { error }),
        None => (FRACTION_MINIMAX, Evaluator::Count),
    };
    let column = decision_column(&family, &exact_evaluator, spec.tree.height())?;
    Ok(ExactCurve {
        decision,
        values: column.values,
        error_bounds: column.error_bounds,
    })
}

/// Writes the exact values and z-scores of `curve` into the matching comparisons of
/// `result` (the study's `minimax` or `minimax_fraction` column).
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::exact_curve::{attach_exact, exact_minimax_curve};
/// use pathology::sim::TrialRunner;
/// use pathology::studies::wilson_parker_nau::study::{StudyEvaluator, run};
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// let spec = BoardSpec::new(GameKind::N, 2, 5, 0.5).unwrap();
/// let evaluator = StudyEvaluator::Artificial { error: 0.1 };
/// let mut result = run(&spec, &evaluator, &TrialRunner::new(2000, 1, 1).unwrap()).unwrap();
/// attach_exact(&mut result, &exact_minimax_curve(&spec, &evaluator).unwrap());
/// for depth in &result.depths {
///     assert!(depth.minimax.exact.is_some());
///     assert!(depth.minimax.z.unwrap().abs() < 5.0);
/// }
/// ```
pub fn attach_exact(result: &mut StudyResult, curve: &ExactCurve) {
    let games = result.games;
    for (depth, &exact) in result.depths.iter_mut().zip(&curve.values) {
        let comparison = if curve.decision == FRACTION_MINIMAX {
            depth.minimax_fraction.as_mut()
        } else {
            Some(&mut depth.minimax)
        };
        if let Some(c) = comparison {
            c.exact = Some(exact);
            c.z = Some(proportion_z(c.estimate, exact, games));
        }
    }
}
