//! Nguyen & Ramanujan's (2024) Figure 5 setting drawn: one figure per b and evaluator
//! (a panel per gamma, a curve per c with 95% intervals, the exact minimax line dashed), from
//! the figure data of [`crate::studies::nguyen_ramanujan::figure5::figure`].

use std::path::{Path, PathBuf};

use super::{ArtefactError, PlotError, Style, error_bar_chart_with_exact};
use crate::studies::nguyen_ramanujan::figure5::{SettingResult, figure};
use crate::studies::nguyen_ramanujan::study::UctEvaluator;

/// Draws `uct_fig5_b{b}_{evaluator}.{png,svg}` into `out` for every b and evaluator of
/// `results` (in their order); returns the files written.
///
/// # Errors
///
/// [`ArtefactError::Plot`] naming the file that could not be drawn.
pub fn uct_figures(
    out: &Path,
    results: &[SettingResult],
    style: Style,
) -> Result<Vec<PathBuf>, ArtefactError> {
    let mut keys: Vec<(u32, UctEvaluator)> = Vec::new();
    for r in results {
        let key = (r.spec.game.branching(), r.spec.evaluator);
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    let mut files = Vec::new();
    for (b, evaluator) in keys {
        let (panels, exact): (Vec<_>, Vec<_>) = figure(results, b, evaluator).into_iter().unzip();
        for ext in ["png", "svg"] {
            let path = out.join(format!("uct_fig5_b{b}_{}.{ext}", evaluator.name()));
            error_bar_chart_with_exact(&path, &panels, &exact, style).map_err(|e| {
                ArtefactError::Plot(PlotError(format!("drawing {}: {}", path.display(), e.0)))
            })?;
            files.push(path);
        }
    }
    Ok(files)
}
