//! The papers' analytic figures, written as files: Li & Marsland Figs. 2, 3 and 4 (with the
//! pathological-pair count behind Fig. 4) and the phase portrait of the gamma/delta map
//! (Section 5 and 6.2), Chi & Nau's rhf(w) (Section 5, Fig. 2), Wilson, Parker & Nau's
//! depth-one error formulas (Fig. 1), and the trend of the pathology threshold against the
//! height (beyond the papers). `pathology errprop figures`, `pathology trend` and
//! `pathology reproduce` call these; each returns the files it wrote, in a fixed order, and
//! every file is a deterministic function of the code.

use std::path::{Path, PathBuf};

use super::{
    Axes, PlotError, Result, Scale, Series, Style, failed, line_chart, phase_portrait, trajectories,
};
use crate::analytic::closed_form::{DepthOneTree, rhf, two_level_example_error, w_b};
use crate::analytic::dgame::trend::TrendRow;
use crate::analytic::errprop::stability::fixed_points;
use crate::analytic::errprop::{BackUp, ErrorPair, trajectory};
use crate::report::{ExportOptions, Format, Report};
use crate::studies::li_marsland::figure_4::{
    FIGURE_4_HEIGHTS, figure_4_pair_report, figure_4_report,
};

/// Back-up steps drawn in Figs. 2 and 3.
const FIGURE_STEPS: u32 = 12;
/// The f = f1 = f2 of the phase portrait.
const PORTRAIT_F: f64 = 0.7;

/// Writes `contents` to `path` atomically, naming the path in the error.
fn write_file(path: &Path, contents: &str) -> Result<()> {
    crate::report::output::write_atomically(path, contents)
        .map_err(|e| PlotError(format!("writing {}: {e}", path.display())))
}

/// Creates `dir` (and its parents), naming it in the error.
fn create_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| PlotError(format!("creating the directory {}: {e}", dir.display())))
}

/// Draws one figure as PNG and SVG (`dir/stem.png`, `dir/stem.svg`), appending both paths.
fn both_formats(
    dir: &Path,
    stem: &str,
    written: &mut Vec<PathBuf>,
    draw: impl Fn(&Path) -> Result<()>,
) -> Result<()> {
    for ext in ["png", "svg"] {
        let path = dir.join(format!("{stem}.{ext}"));
        draw(&path).map_err(|e| PlotError(format!("drawing {}: {}", path.display(), e.0)))?;
        written.push(path);
    }
    Ok(())
}

/// Writes every analytic figure into `out_dir`: Li & Marsland Figs. 2 and 3 (trajectories from
/// (gamma, delta) = (0.3, 0.2)), the phase portrait at f = 0.7, Chi & Nau's Fig. 2, Wilson et
/// al.'s Fig. 1 and Li & Marsland's Fig. 4 with its data and pair count; PNG and SVG each.
///
/// # Errors
///
/// [`PlotError`] naming the file when a directory or file cannot be written.
pub fn analytic_figures(out_dir: &Path, style: Style) -> Result<Vec<PathBuf>> {
    let mut written = error_propagation_figures(out_dir, style)?;
    written.extend(closed_form_figures(out_dir, style)?);
    written.extend(figure_4(out_dir, style)?);
    Ok(written)
}

/// Li & Marsland's figures alone (`pathology errprop figures`): Figs. 2 and 3, the phase
/// portrait and Fig. 4 with its data and pair count, as [`analytic_figures`] writes them.
///
/// # Errors
///
/// As [`analytic_figures`].
pub fn li_marsland_figures(out_dir: &Path, style: Style) -> Result<Vec<PathBuf>> {
    let mut written = error_propagation_figures(out_dir, style)?;
    written.extend(figure_4(out_dir, style)?);
    Ok(written)
}

/// Li & Marsland Figs. 2 and 3 and the phase portrait.
fn error_propagation_figures(out_dir: &Path, style: Style) -> Result<Vec<PathBuf>> {
    create_dir(out_dir)?;
    let mut written = Vec::new();
    let start = ErrorPair::new(0.3, 0.2).map_err(failed)?;
    for (stem, title, fs) in [
        (
            "errprop_fig2",
            "Li & Marsland Fig. 2: errors decline under minimax back-up",
            [0.7, 0.8, 0.9],
        ),
        (
            "errprop_fig3",
            "Li & Marsland Fig. 3: errors migrate towards (0, 1)",
            [0.1, 0.2, 0.3],
        ),
    ] {
        let series = fs
            .iter()
            .map(|&f| {
                let points =
                    trajectory(start.clone(), &f, &f, BackUp::Max, FIGURE_STEPS).map_err(failed)?;
                Ok(Series {
                    label: format!("f1 = f2 = {f}"),
                    points: points.iter().map(|p| (p.gamma, p.delta)).collect(),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        both_formats(out_dir, stem, &mut written, |path| {
            trajectories(path, title, &series, style)
        })?;
    }
    // Phase portrait at f = 0.7, with the Fig. 2/3 start and a second start on each side.
    let f = PORTRAIT_F;
    let fixed = fixed_points(f, f, BackUp::Max).map_err(failed)?;
    let mut series = Vec::new();
    for (g, d) in [(0.3, 0.2), (0.1, 0.45), (0.6, 0.1)] {
        let start = ErrorPair::new(g, d).map_err(failed)?;
        let points = trajectory(start, &f, &f, BackUp::Max, 30).map_err(failed)?;
        series.push(Series {
            label: format!("from ({g}, {d})"),
            points: points.iter().map(|p| (p.gamma, p.delta)).collect(),
        });
    }
    both_formats(out_dir, "errprop_phase_portrait", &mut written, |path| {
        phase_portrait(path, f, f, BackUp::Max, &fixed, &series, style)
    })?;
    Ok(written)
}

/// Chi & Nau's Fig. 2 (rhf(w) for xi = w_2) and Wilson et al.'s Fig. 1 (depth-one errors).
fn closed_form_figures(out_dir: &Path, style: Style) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    let grid = |n: u32, top: f64| (0..=n).map(move |k| top * f64::from(k) / f64::from(n));
    let xi = w_b(2).map_err(failed)?;
    let rhf_series = vec![Series {
        label: format!("xi = w_2 = {xi:.3}"),
        points: grid(200, 1.0)
            .map(|w| Ok((w, rhf(w, xi).map_err(failed)?)))
            .collect::<Result<_>>()?,
    }];
    let rhf_axes = Axes {
        title: "Chi & Nau Fig. 2: rhf of e^w = w u + (1 - w) r".into(),
        x_label: "w".into(),
        y_label: "rhf".into(),
        x_range: (0.0, 1.0),
        x_scale: Scale::Linear,
        y_range: (0.0, 0.25),
    };
    let error_series: Vec<Series> = [
        ("static evaluation, f(e) = e", None),
        ("A: e^2", Some(DepthOneTree::A)),
        ("B, C: e (1 - e)", Some(DepthOneTree::B)),
        ("D: 1 - (1 - e)^2", Some(DepthOneTree::D)),
    ]
    .into_iter()
    .map(|(label, tree)| Series {
        label: label.to_string(),
        points: grid(100, 0.5)
            .map(|e| (e, tree.map_or(e, |t| t.error(e))))
            .collect(),
    })
    .chain(std::iter::once(Series {
        label: "D over two A: 1 - (1 - e^2)^2".into(),
        points: grid(100, 0.5)
            .map(|e| (e, two_level_example_error(e)))
            .collect(),
    }))
    .collect();
    let error_axes = Axes {
        title: "Wilson et al. Fig. 1: depth-one search error".into(),
        x_label: "leaf evaluation error e".into(),
        y_label: "error at the root".into(),
        x_range: (0.0, 0.5),
        x_scale: Scale::Linear,
        y_range: (0.0, 0.8),
    };
    // Interleaved by extension, as the files have always been listed.
    for ext in ["png", "svg"] {
        let path = out_dir.join(format!("rhf_chi_nau_fig2.{ext}"));
        line_chart(&path, &rhf_axes, &rhf_series, false, style)?;
        written.push(path);
        let path = out_dir.join(format!("emm_depth_one_fig1.{ext}"));
        line_chart(&path, &error_axes, &error_series, false, style)?;
        written.push(path);
    }
    Ok(written)
}

/// Li & Marsland's Fig. 4 (PS against f1 for p0 = 0.5), its data and the pair count.
fn figure_4(out_dir: &Path, style: Style) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    let report = figure_4_report().map_err(failed)?;
    let table = &report.tables[0];
    let [h, f1, ps] = ["h", "f1", "PS"].map(|c| table.column_index(c).expect("Fig. 4 columns"));
    let mut y_max: f64 = 0.0;
    let series: Vec<Series> = FIGURE_4_HEIGHTS
        .iter()
        .map(|&height| {
            let points: Vec<(f64, f64)> = table
                .rows
                .iter()
                .filter(|row| row[h].to_f64() == Some(f64::from(height)))
                .map(|row| {
                    let y = row[ps].to_f64().expect("PS is numeric");
                    y_max = y_max.max(y);
                    (row[f1].to_f64().expect("f1 is numeric"), y)
                })
                .collect();
            Series {
                label: format!("h = {height}"),
                points,
            }
        })
        .collect();
    let axes = Axes {
        title: report.title.clone(),
        x_label: "f1".into(),
        y_label: "pathological sum PS".into(),
        x_range: (0.0, 1.0),
        x_scale: Scale::Linear,
        y_range: (0.0, (y_max * 1.1).max(1e-3)),
    };
    both_formats(out_dir, "dgame_fig4", &mut written, |path| {
        line_chart(path, &axes, &series, true, style)
    })?;
    written.extend(write_csv(&out_dir.join("dgame_fig4.csv"), &report)?);
    let path = out_dir.join("dgame_fig4_pairs.txt");
    let pairs = figure_4_pair_report().map_err(failed)?;
    write_file(&path, &render(&pairs, Format::Text)?)?;
    written.push(path);
    Ok(written)
}

/// Writes `report`'s CSV to `path` with its manifest sidecar; returns both paths.
fn write_csv(path: &Path, report: &Report) -> Result<[PathBuf; 2]> {
    crate::report::CsvFiles::render(report, &ExportOptions::default())
        .map_err(failed)?
        .write(path)
        .map_err(|(path, e)| PlotError(format!("writing {}: {e}", path.display())))
}

fn render(report: &Report, format: Format) -> Result<String> {
    report
        .render(format, &ExportOptions::default())
        .map_err(failed)
}

/// A y range in [0, 1] for the values `ys`, zoomed to them (on steps of 0.05, with room for
/// the legend above), so that the odd/even zigzag of the threshold is not flattened by the
/// whole unit interval.
pub(crate) fn zoomed_range(ys: &[f64]) -> (f64, f64) {
    let (min, max) = ys
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &y| {
            (lo.min(y), hi.max(y))
        });
    if ys.is_empty() || min.is_nan() || max.is_nan() {
        return (0.0, 1.0);
    }
    let step = 0.05;
    let lo = (((min - step) / step).floor() * step).max(0.0);
    let hi = (((max + 2.0 * step) / step).ceil() * step).min(1.0);
    (lo, hi)
}

/// Writes `trend.csv` (the trend report's CSV) and the two trend figures into `dir`: the
/// certified threshold f* with the location of the PS peak, and the PS peak, against height.
///
/// # Errors
///
/// [`PlotError`] naming the file when a directory or file cannot be written.
pub fn trend_figures(
    dir: &Path,
    rows: &[TrendRow],
    report: &Report,
    style: Style,
) -> Result<Vec<PathBuf>> {
    create_dir(dir)?;
    let mut written = Vec::new();
    written.extend(write_csv(&dir.join("trend.csv"), report)?);
    let x_range = (
        f64::from(rows.first().map_or(0, |r| r.height)) - 0.5,
        f64::from(rows.last().map_or(1, |r| r.height)) + 0.5,
    );
    let point = |r: &TrendRow, y: f64| (f64::from(r.height), y);
    let thresholds = Series {
        label: "threshold f* (no pathology above)".to_string(),
        points: rows
            .iter()
            .filter_map(|r| r.threshold.estimate().map(|f| point(r, f)))
            .collect(),
    };
    let peak_at = Series {
        label: "f of the PS peak".to_string(),
        points: rows.iter().map(|r| point(r, r.ps_peak_at)).collect(),
    };
    let peaks = Series {
        label: "peak of PS over f".to_string(),
        points: rows.iter().map(|r| point(r, r.ps_peak)).collect(),
    };
    let max_peak = rows.iter().map(|r| r.ps_peak).fold(0.0, f64::max);
    let plotted: Vec<f64> = (thresholds.points.iter().chain(&peak_at.points))
        .map(|p| p.1)
        .collect();
    let threshold_axes = Axes {
        title: "Pathology threshold and PS peak location against height (f1 = f2 = f)".to_string(),
        x_label: "height h".to_string(),
        y_label: "dependence factor f".to_string(),
        x_range,
        x_scale: Scale::Linear,
        y_range: zoomed_range(&plotted),
    };
    let peak_axes = Axes {
        title: "Peak pathological sum PS against height (f1 = f2 = f)".to_string(),
        x_label: "height h".to_string(),
        y_label: "max over f of PS".to_string(),
        x_range,
        x_scale: Scale::Linear,
        y_range: (0.0, (max_peak * 1.15).max(0.05)),
    };
    // Interleaved by extension, as the files have always been listed.
    for ext in ["png", "svg"] {
        let path = dir.join(format!("trend_threshold.{ext}"));
        line_chart(
            &path,
            &threshold_axes,
            &[thresholds.clone(), peak_at.clone()],
            true,
            style,
        )?;
        written.push(path);
        let path = dir.join(format!("trend_ps_peak.{ext}"));
        line_chart(&path, &peak_axes, std::slice::from_ref(&peaks), true, style)?;
        written.push(path);
    }
    Ok(written)
}
