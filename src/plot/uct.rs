//! Nguyen & Ramanujan's (2024) Figure 5 setting drawn: one figure per b and evaluator
//! (a panel per gamma, a curve per c with 95% intervals, the exact minimax line dashed), from
//! the figure data of [`crate::studies::nguyen_ramanujan::figure5::figure`].

use std::path::{Path, PathBuf};

use super::{ArtefactError, ExactLine, Panel, PlotError, Style, error_bar_chart_with_exact};
use crate::report::format_f64;
use crate::studies::nguyen_ramanujan::figure5::{SettingResult, figure};
use crate::studies::nguyen_ramanujan::study::{UctEvaluator, UctGame};

/// Keeps one panel of a figure whose panels show the same games (at every gamma the playout
/// values of won and lost nodes tie in f64, so UCT moves at random and the gammas give the same
/// curves): two copies of one panel carry no information apart. Returns whether it merged.
fn merge_identical(panels: &mut Vec<Panel>, exact: &mut Vec<Vec<ExactLine>>) -> bool {
    let same = panels.len() > 1
        && panels.iter().all(|p| p.series == panels[0].series)
        && exact.iter().all(|e| Some(e) == exact.first());
    if same {
        panels.truncate(1);
        exact.truncate(1);
    }
    same
}

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
        let (mut panels, mut exact): (Vec<_>, Vec<_>) =
            figure(results, b, evaluator).into_iter().unzip();
        if merge_identical(&mut panels, &mut exact) {
            let of_figure = || {
                results
                    .iter()
                    .filter(move |r| r.spec.game.branching() == b && r.spec.evaluator == evaluator)
            };
            let gammas: Vec<String> = of_figure()
                .filter_map(|r| match r.spec.game {
                    UctGame::Critical { gamma_max, .. } => Some(format_f64(gamma_max)),
                    UctGame::Board(_) => None,
                })
                .collect();
            let first = of_figure().next();
            let height = first.map_or(0, |r| r.spec.game.height());
            let games = first.map_or(0, |r| r.counts.games);
            let axes = &mut panels[0].axes;
            axes.title = format!(
                "UCT, b = {b}, H = {height}, {}, gamma = {}: random moves",
                evaluator.name(),
                gammas.join(" and ")
            );
            axes.x_label = format!(
                "log10 N ({games} games a point); playout values of won and lost nodes tie in \
                 f64; grey: 1/b"
            );
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::figure::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Scale};

    fn panel(gamma: &str, y: f64) -> Panel {
        Panel {
            axes: Axes {
                title: format!("gamma = {gamma}"),
                x_label: "log10 N".into(),
                y_label: "fraction".into(),
                x_range: (0.0, 3.0),
                x_scale: Scale::Linear,
                y_range: (0.0, 1.0),
            },
            series: vec![ErrorSeries {
                label: "c = 1".into(),
                points: vec![ErrorPoint {
                    x: 1.0,
                    y,
                    low: y - 0.05,
                    high: y + 0.05,
                }],
            }],
            legend: LegendPosition::UpperRight,
            reference: Some(0.2),
        }
    }

    /// The expected-playout figures at b = 5 and 8 drew two identical
    /// panels (the same random games at both gammas).
    #[test]
    fn identical_panels_are_drawn_once_and_different_ones_all() {
        let line = ExactLine {
            label: "minimax".into(),
            points: vec![(0.0, 0.2)],
        };
        let mut panels = vec![panel("0.9", 0.2), panel("1", 0.2)];
        let mut exact = vec![vec![line.clone()], vec![line.clone()]];
        assert!(merge_identical(&mut panels, &mut exact));
        assert_eq!((panels.len(), exact.len()), (1, 1));
        let mut panels = vec![panel("0.9", 0.2), panel("1", 0.3)];
        let mut exact = vec![vec![line.clone()], vec![line]];
        assert!(!merge_identical(&mut panels, &mut exact));
        assert_eq!(panels.len(), 2);
    }
}
