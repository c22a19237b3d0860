//! The simulation studies' figures, written as files: Chi & Nau's (1987) Fig. 3 (minimax
//! against product on P-games, Section 5), their kalah table (4.5) and Teague's othello
//! matches (4.3), and Wilson, Parker & Nau's (2009) Figs. 3-6 ([`wilson_figures`], from the data
//! of [`crate::studies::wilson_parker_nau::report::wilson_figures`]). `pathology mc match-sweep`, `mc study-figures`
//! and `pathology reproduce` call these; each returns the files it wrote, in a fixed order,
//! and writes every file atomically.

use std::path::{Path, PathBuf};

use super::ArtefactError as ReproduceError;
use super::{
    Axes, ErrorPoint, ErrorSeries, ExactLine, LegendPosition, Panel, PlotError, Scale, Style,
    error_bar_chart, error_bar_chart_with_exact,
};
use crate::report::ExportOptions;

type Result<T> = std::result::Result<T, ReproduceError>;
use crate::sim::report::McRun;
use crate::sim::{Comparison, TrialRunner};
use crate::studies::chi_nau::kalah::{KalahTable, PAPER_RHF};
use crate::studies::chi_nau::match_report::{figure_3_panels, figure_3_points, figure_3_report};
use crate::studies::chi_nau::matches::SweepPoint;
use crate::studies::chi_nau::othello::{
    OthelloEvaluator, OthelloMatches, PAPER_MINIMAX_STRONG, PAPER_MINIMAX_WEAK,
};

/// Pairs per point of Chi & Nau's Fig. 3 (the paper's 8000) and non-trivial games per setting of
/// Wilson et al.'s Figs. 3-6 (the paper's 10,000) at full size, and the reduced defaults.
const FULL_SIZES: (u64, u64) = (8000, 10_000);
const REDUCED_SIZES: (u64, u64) = (8000, 5000);

/// Non-trivial games per setting of Wilson et al.'s Figs. 3-6 as [`study_figures`] draws them:
/// the paper's 10,000 when `full`, else 5000.
pub fn wilson_games(full: bool) -> u64 {
    if full { FULL_SIZES.1 } else { REDUCED_SIZES.1 }
}

fn drawing(path: &Path, e: PlotError) -> ReproduceError {
    ReproduceError::Plot(PlotError(format!("drawing {}: {}", path.display(), e.0)))
}

fn create_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|source| ReproduceError::Io {
        what: format!("creating {}", dir.display()),
        source,
    })
}

/// Writes Chi & Nau's Fig. 3 and Wilson, Parker & Nau's Figs. 3-6 (PNG, SVG, CSV, and the
/// natural evaluator's calibration tables) into `out_dir`, at the papers' sizes when `full`,
/// else at reduced sizes (Fig. 3 of Chi & Nau is cheap and stays at 8000 pairs; Wilson et al.'s
/// figures use 5000 games per setting). The same arguments give byte-identical files for any
/// `threads`. Returns the files written and Wilson et al.'s report (with its tables
/// `claims` and `claims_summary`).
///
/// # Errors
///
/// When a file cannot be written.
pub fn study_figures(
    out_dir: &Path,
    full: bool,
    seed: u64,
    threads: usize,
    style: Style,
) -> Result<(Vec<PathBuf>, crate::report::Report)> {
    let (pairs, games) = if full { FULL_SIZES } else { REDUCED_SIZES };
    let runner = TrialRunner::new(pairs, seed, threads)?;
    let points = figure_3_points(&runner)?;
    let run = McRun {
        trials: pairs,
        seed,
        shard: None,
    };
    let mut files = figure_3(out_dir, &run, &points, style)?;
    let wilson = wilson_figures(out_dir, games, seed, threads, style)?;
    files.extend(wilson.files);
    Ok((files, wilson.report))
}

/// Wilson, Parker & Nau's Figs. 3-6 ([`crate::studies::wilson_parker_nau::report::wilson_figures`])
/// drawn in `style`.
///
/// # Errors
///
/// As the study's: `--out` when a file cannot be written or drawn, `--games` when it is 0.
pub fn wilson_figures(
    out: &Path,
    games: u64,
    seed: u64,
    threads: usize,
    style: Style,
) -> crate::error::Result<crate::studies::wilson_parker_nau::report::WilsonFigures> {
    crate::studies::wilson_parker_nau::report::wilson_figures(
        out,
        games,
        seed,
        threads,
        &|path, panels, exact| {
            error_bar_chart_with_exact(path, panels, exact, style).map_err(|e| e.to_string())
        },
    )
}

/// Writes Chi & Nau's Fig. 3 from its points: `chi_nau_fig3.csv` (the report's CSV) with its
/// manifest `chi_nau_fig3.csv.manifest.json`, `.png`
/// and `.svg` into `out`; returns the files written.
///
/// # Errors
///
/// When a file cannot be written.
pub fn figure_3(
    out: &Path,
    run: &McRun,
    points: &[SweepPoint],
    style: Style,
) -> Result<Vec<PathBuf>> {
    create_dir(out)?;
    let report = figure_3_report(run, points)?;
    let options = ExportOptions {
        decimals: 4,
        ..ExportOptions::default()
    };
    let csv_files = crate::report::CsvFiles::render(&report, &options)?
        .write(&out.join("chi_nau_fig3.csv"))
        .map_err(|(path, source)| ReproduceError::Io {
            what: format!("writing {}", path.display()),
            source,
        })?;
    let panels = figure_3_panels(points, run.trials);
    let mut files = csv_files.to_vec();
    for ext in ["png", "svg"] {
        let path = out.join(format!("chi_nau_fig3.{ext}"));
        error_bar_chart(&path, &panels, style).map_err(|e| drawing(&path, e))?;
        files.push(path);
    }
    Ok(files)
}

fn error_point(x: f64, c: &Comparison) -> ErrorPoint {
    ErrorPoint {
        x,
        y: c.estimate,
        low: c.ci_low,
        high: c.ci_high,
    }
}

fn axes(title: &str, x_label: &str, y_label: &str, x: (f64, f64), y: (f64, f64)) -> Axes {
    Axes {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
        x_range: x,
        x_scale: Scale::Linear,
        y_range: y,
    }
}

/// Draws `ggame.{png,svg}` (G-games, our reconstruction): minimax's share of the games
/// against product by search depth, one series per evaluator with 95% intervals, beside each
/// evaluator's exact rhf(d); returns the files written.
///
/// # Errors
///
/// As [`error_bar_chart`].
pub fn ggame_figures(
    out: &Path,
    figure: &crate::studies::chi_nau::ggame::GGameFigure,
    style: Style,
) -> Result<Vec<PathBuf>> {
    let k = f64::from(figure.height);
    let low = figure
        .shares
        .iter()
        .flat_map(|(_, c)| c.iter().map(|c| c.ci_low))
        .fold(0.5, f64::min);
    let top = figure
        .flaws
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(0.0, f64::max);
    let shares = Panel {
        axes: axes(
            "G-games (reconstruction): minimax against product",
            &format!(
                "search depth (k = {}, {} boards, seed {})",
                figure.height, figure.boards, figure.seed
            ),
            "minimax's share of games won",
            (0.5, k + 0.5),
            (((low - 0.02) * 50.0).floor() / 50.0, 0.55),
        ),
        series: figure
            .shares
            .iter()
            .map(|(e, c)| ErrorSeries {
                label: format!("{} (95%)", e.name()),
                points: (1..)
                    .zip(c)
                    .map(|(d, c)| error_point(f64::from(d), c))
                    .collect(),
            })
            .collect(),
        legend: LegendPosition::LowerRight,
        reference: Some(0.5),
    };
    let flaws = Panel {
        axes: axes(
            "G-games (reconstruction): exact rhf(d)",
            &format!("depth d (k = {})", figure.height),
            "rhf(d)",
            (0.5, k + 0.5),
            (0.0, ((top * 1.15) * 20.0).ceil() / 20.0),
        ),
        series: figure
            .flaws
            .iter()
            .map(|(e, v)| ErrorSeries {
                label: e.name().to_string(),
                points: (1..)
                    .zip(v)
                    .map(|(d, &y)| ErrorPoint {
                        x: f64::from(d),
                        y,
                        low: y,
                        high: y,
                    })
                    .collect(),
            })
            .collect(),
        legend: LegendPosition::UpperRight,
        reference: None,
    };
    let mut files = Vec::new();
    for ext in ["png", "svg"] {
        let path = out.join(format!("ggame.{ext}"));
        error_bar_chart(&path, &[shares.clone(), flaws.clone()], style)
            .map_err(|e| drawing(&path, e))?;
        files.push(path);
    }
    Ok(files)
}

/// Draws `chi_nau_kalah.{png,svg}` (rhf(4) and product's results against w, with the paper's
/// values) and `chi_nau_othello.{png,svg}` (minimax's wins against search depth, with
/// Teague's) into `out`; returns the files written.
///
/// # Errors
///
/// [`ReproduceError::Plot`] naming the file that could not be drawn.
pub fn variety_figures(
    out: &Path,
    kalah: &KalahTable,
    othello: &[OthelloMatches],
    style: Style,
) -> Result<Vec<PathBuf>> {
    let mut rows: Vec<_> = kalah.rows.iter().collect();
    rows.sort_by(|a, b| a.w.total_cmp(&b.w));
    let paper = |value: fn(&crate::studies::chi_nau::kalah::KalahRow) -> Option<f64>| ExactLine {
        label: "Chi & Nau (1987)".to_string(),
        points: rows
            .iter()
            .filter_map(|r| value(r).map(|v| (r.w, v)))
            .collect(),
    };
    let x_label = format!("w of e_a^w ({} boards, seed {})", kalah.boards, kalah.seed);
    let rhf_top = rows
        .iter()
        .map(|r| r.rhf.ci_high)
        .chain(PAPER_RHF)
        .fold(0.0, f64::max);
    let rhf = Panel {
        axes: axes(
            "Kalah: rate of heuristic flaw rhf(4) of e_a^w",
            &x_label,
            "rhf(4)",
            (-0.05, 1.05),
            (0.0, (rhf_top * 1.15 * 20.0).ceil() / 20.0),
        ),
        series: vec![ErrorSeries {
            label: "ours (95% interval)".to_string(),
            points: rows.iter().map(|r| error_point(r.w, &r.rhf)).collect(),
        }],
        legend: LegendPosition::UpperLeft,
        reference: None,
    };
    let games = Panel {
        axes: axes(
            "Kalah: product against minimax, search depth 2",
            &x_label,
            "product's share",
            (-0.05, 1.05),
            (0.35, 0.75),
        ),
        series: vec![
            ErrorSeries {
                label: "games won by product (95%)".to_string(),
                points: rows
                    .iter()
                    .map(|r| error_point(r.w, &r.product_wins))
                    .collect(),
            },
            ErrorSeries {
                label: "product's score, draw 1/2 (95%)".to_string(),
                points: rows
                    .iter()
                    .map(|r| error_point(r.w, &r.product_score))
                    .collect(),
            },
        ],
        legend: LegendPosition::UpperLeft,
        reference: Some(0.5),
    };
    let mut files = Vec::new();
    for ext in ["png", "svg"] {
        let path = out.join(format!("chi_nau_kalah.{ext}"));
        error_bar_chart_with_exact(
            &path,
            &[rhf.clone(), games.clone()],
            &[
                vec![paper(|r| r.rhf.exact)],
                vec![paper(|r| r.product_wins.exact)],
            ],
            style,
        )
        .map_err(|e| drawing(&path, e))?;
        files.push(path);
    }
    if othello.is_empty() {
        return Ok(files);
    }
    let depths: Vec<f64> = othello.iter().map(|r| f64::from(r.setup.depth)).collect();
    let (low, high) = depths
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &d| {
            (l.min(d), h.max(d))
        });
    let series = |e: OthelloEvaluator, label: &str| ErrorSeries {
        label: label.to_string(),
        points: othello
            .iter()
            .filter_map(|m| {
                m.rows
                    .iter()
                    .find(|r| r.evaluator == e)
                    .map(|r| error_point(f64::from(m.setup.depth), &r.minimax_wins))
            })
            .collect(),
    };
    let teague = |label: &str, value: f64| ExactLine {
        label: label.to_string(),
        points: vec![(low - 0.5, value), (high + 0.5, value)],
    };
    let panel = Panel {
        axes: axes(
            "Othello: games won by minimax against product",
            &format!(
                "search depth ({} openings of {} random plies, seed {})",
                othello[0].openings, othello[0].setup.opening_plies, othello[0].seed
            ),
            "minimax's share of games won",
            (low - 0.5, high + 0.5),
            (0.0, 1.0),
        ),
        series: vec![
            series(OthelloEvaluator::Strong, "strong evaluator (95%)"),
            series(OthelloEvaluator::Weak, "weak evaluator: piece count (95%)"),
        ],
        legend: LegendPosition::LowerRight,
        reference: Some(0.5),
    };
    let lines = vec![
        teague("Teague: strong 82.8%", PAPER_MINIMAX_STRONG),
        teague("Teague: weak 63.1%", PAPER_MINIMAX_WEAK),
    ];
    for ext in ["png", "svg"] {
        let path = out.join(format!("chi_nau_othello.{ext}"));
        error_bar_chart_with_exact(
            &path,
            std::slice::from_ref(&panel),
            std::slice::from_ref(&lines),
            style,
        )
        .map_err(|e| drawing(&path, e))?;
        files.push(path);
    }
    Ok(files)
}
