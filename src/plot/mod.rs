//! **Layer 8, figures.** May import every layer up to [`crate::studies`]: it draws the
//! figure data of the reports and studies below; not [`crate::validate`] or
//! [`crate::reproduce`].
//!
//! Figures with plotters, as PNG or SVG.
//!
//! Text is drawn with the DejaVu Sans font of the `dejavu` crate, registered with plotters'
//! `ab_glyph` font registry under the family name `sans-serif` ([`register_fonts`]): no system
//! font libraries are needed and the output is byte-identical across runs and machines.
//!
//! The figures: trajectories in the gamma-delta plane (Li & Marsland, Section 5, Figs. 2 and 3:
//! [`trajectories`]), the phase portrait of the gamma/delta map with the basins of `(0, 0)` and
//! `(0, 1)` shaded ([`phase_portrait`]), and line charts (Li & Marsland's Fig. 4, Chi & Nau's
//! Fig. 2, Wilson et al.'s Fig. 1: [`line_chart`]).

mod classes;
pub mod figures;
mod layout;
pub mod samples;
mod scale;
pub mod studies;
mod style;
pub mod uct;

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::analytic::errprop::stability::{Attractor, FixedPoint, Stability, attractor_of};
use crate::analytic::errprop::{BackUp, ErrorPair, back_up};
use crate::error::{Error, Result as LibResult};
pub use crate::report::figure::{
    Axes, ErrorPoint, ErrorSeries, ExactLine, LegendPosition, Panel, Scale, Series,
    interval_y_range,
};
pub use classes::class_map;
use layout::{panel_styles, shared_y_ranges};
use scale::{integer_axis, integer_labels, linear_panel, power_of_two_label};
pub use style::{PALETTE, integer_tick_label, tick_label};
use style::{SeriesStyle, series_styles};

/// An error while drawing or writing a figure.
#[derive(Debug, thiserror::Error)]
#[error("drawing the figure failed: {0}")]
pub struct PlotError(String);

/// An error while writing artefacts (tables, figures): of [`studies`] and of
/// [`crate::reproduce::run`], which calls it `ReproduceError`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArtefactError {
    /// A computation refused its input (e.g. zero threads).
    #[error(transparent)]
    Library(#[from] crate::Error),
    /// A figure could not be drawn or written.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// A file or directory could not be written.
    #[error("{what}")]
    Io {
        /// What was being done, naming the path.
        what: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A bug: the step's own output was inconsistent.
    #[error("internal: {0}")]
    Internal(String),
}

/// The result of a drawing function.
pub type Result<T> = std::result::Result<T, PlotError>;

/// Where plotters puts a legend at `position` (`None`: no legend).
fn legend_position(position: LegendPosition) -> Option<SeriesLabelPosition> {
    Some(match position {
        LegendPosition::UpperLeft => SeriesLabelPosition::UpperLeft,
        LegendPosition::UpperRight => SeriesLabelPosition::UpperRight,
        LegendPosition::LowerLeft => SeriesLabelPosition::LowerLeft,
        LegendPosition::LowerRight => SeriesLabelPosition::LowerRight,
        // Beside the plot area: drawn in a strip of its own ([`layout::legend_beside`]).
        LegendPosition::Hidden | LegendPosition::Right => return None,
    })
}

/// Points of a series beyond which its markers are drawn smaller.
const DENSE_POINTS: usize = 40;

/// The chart type of every figure.
type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Draws `points` as a line in `style` with a legend entry `label` drawn the same way (dash and
/// marker), then the markers.
fn styled_line<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    points: &[(f64, f64)],
    label: &str,
    style: SeriesStyle,
    t: Theme,
) -> Result<()> {
    // Smaller markers on dense curves (still nested), in the legend as on the line.
    let style = if points.len() > DENSE_POINTS {
        SeriesStyle {
            radius: style.radius.saturating_sub(2).max(2),
            ..style
        }
    } else {
        style
    };
    let stroke = style.color.stroke_width(t.px(2));
    // The line through the points that shape it within a pixel (a smooth thick line).
    let pixels: Vec<(f64, f64)> = points
        .iter()
        .map(|p| {
            let (u, v) = chart.backend_coord(p);
            (f64::from(u), f64::from(v))
        })
        .collect();
    let kept = style::simplified(&pixels, 0.75);
    let line = kept.into_iter().map(|i| points[i]);
    let anno = match style.dash {
        Some((on, off)) => {
            chart.draw_series(DashedLineSeries::new(line, t.px(on), t.px(off), stroke))
        }
        None => chart.draw_series(LineSeries::new(line, stroke)),
    }
    .map_err(failed)?;
    anno.label(t.text(label))
        .legend(move |c| style::legend_entry(c, style, t.px(2), t.px(1)));
    markers(chart, points, style, t)
}

/// Draws the markers of `points` in `style` (none for a style without a shape).
fn markers<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    points: &[(f64, f64)],
    style: SeriesStyle,
    t: Theme,
) -> Result<()> {
    let Some(shape) = style.shape else {
        return Ok(());
    };
    let outline = style::outline(shape, t.px(style.radius) as i32);
    let stroke = style.color.stroke_width(t.px(1) + 1);
    chart
        .draw_series(
            points
                .iter()
                .map(|&p| EmptyElement::at(p) + PathElement::new(outline.clone(), stroke)),
        )
        .map_err(failed)?;
    Ok(())
}

/// Draws a reference line (an exact curve, a paper's values, chance) thin and dashed in
/// `color`, with a legend entry drawn the same way when `label` is given.
fn reference_line<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    points: &[(f64, f64)],
    label: Option<&str>,
    color: RGBColor,
    t: Theme,
) -> Result<()> {
    dashed_line(chart, points, label, (color, style::REFERENCE_DASH, 1), t)
}

/// A dashed line through `points` in `(colour, (on, off), width)`, with its legend entry.
fn dashed_line<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    points: &[(f64, f64)],
    label: Option<&str>,
    (color, dash, width): (RGBColor, (u32, u32), u32),
    t: Theme,
) -> Result<()> {
    let (on, off) = dash;
    let anno = chart
        .draw_series(DashedLineSeries::new(
            points.iter().copied(),
            t.px(on),
            t.px(off),
            color.stroke_width(t.px(width)),
        ))
        .map_err(failed)?;
    if let Some(label) = label {
        let entry = SeriesStyle {
            color,
            shape: None,
            radius: 0,
            dash: Some(dash),
        };
        anno.label(t.text(label))
            .legend(move |c| style::legend_entry(c, entry, t.px(width), t.px(1)));
    }
    Ok(())
}

/// The styles of `series` (point lists in drawing order) in a chart whose y axis spans
/// `y_span`: a series that would hide an earlier one is dashed.
fn styles_of(series: &[Vec<(f64, f64)>], y_span: f64, markers: bool) -> Vec<SeriesStyle> {
    series_styles(series.len(), &style::hiding(series, y_span), markers)
}

/// Draws the legend of `chart` in its corner `position`, labels at `size` points.
fn legend<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    position: SeriesLabelPosition,
    size: u32,
    t: Theme,
) -> Result<()> {
    chart
        .configure_series_labels()
        .legend_area_size(t.px(30))
        .position(position)
        .label_font((FONT, t.font(size)))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(failed)
}

fn failed<E: std::fmt::Display>(e: E) -> PlotError {
    PlotError(e.to_string())
}

/// How figures are drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Style {
    /// For the screen: 900 x 700 pixels a panel, titles drawn in the figure.
    #[default]
    Screen,
    /// For a paper's single column.
    Paper,
}

/// Figure size in pixels (PNG) or user units (SVG).
pub const SIZE: (u32, u32) = (900, 700);

/// A paper figure's panel in pixels: 3.3 in by 2.5 in at [`PAPER_DPI`], a single column.
pub const PAPER_SIZE: (u32, u32) = (990, 750);

/// The resolution that [`PAPER_SIZE`] assumes.
pub const PAPER_DPI: u32 = 300;

/// The smallest font size of a paper figure, in plotters' units: plotters draws a size s with
/// an em of s / 1.24 pixels (the SVG backend writes `font-size` = s / 1.24), so 42 is an em of
/// 33.9 px, 8.1 pt at [`PAPER_DPI`].
pub const PAPER_MIN_FONT: u32 = 42;

/// The sizes a [`Style`] draws with. The screen's are each figure's literal values (a third
/// larger in a figure of three or more panels, which is shown shrunk); the paper's scale them to
/// [`PAPER_SIZE`], with fonts of at least [`PAPER_MIN_FONT`], no title (the caption says it) and
/// the papers' symbols.
#[derive(Debug, Clone, Copy)]
struct Theme {
    style: Style,
    /// Screen fonts and label areas scaled by this (1 but in a wide figure's panels).
    scale: f64,
}

impl Theme {
    /// The theme of `style` at the screen's literal sizes.
    fn new(style: Style) -> Theme {
        Theme { style, scale: 1.0 }
    }

    /// A font size given the screen's.
    fn font(self, screen: u32) -> f64 {
        match self.style {
            Style::Screen => (f64::from(screen) * self.scale).round(),
            Style::Paper => (f64::from(screen) * 2.3)
                .round()
                .max(f64::from(PAPER_MIN_FONT)),
        }
    }

    /// A length in pixels (margin, label area, stroke, marker) given the screen's.
    fn px(self, screen: u32) -> u32 {
        match self.style {
            Style::Screen => (f64::from(screen) * self.scale).round() as u32,
            Style::Paper => 2 * screen,
        }
    }

    /// A signed pixel offset given the screen's.
    fn offset(self, screen: i32) -> i32 {
        match self.style {
            Style::Screen => (f64::from(screen) * self.scale).round() as i32,
            Style::Paper => 2 * screen,
        }
    }

    /// The title drawn in the figure, if any.
    fn title(self, title: &str) -> Option<&str> {
        (self.style == Style::Screen).then_some(title)
    }

    /// Text as drawn: the papers' symbols in paper style.
    fn text(self, text: &str) -> String {
        match self.style {
            Style::Screen => text.to_string(),
            Style::Paper => symbols(text),
        }
    }

    /// An axis description as drawn: in paper style without a parenthetical part (the run's
    /// details, which belong in the caption), so that it fits a single column.
    fn axis(self, text: &str) -> String {
        match self.style {
            Style::Screen => text.to_string(),
            Style::Paper => symbols(text.split(" (").next().unwrap_or(text)),
        }
    }

    /// One panel's size.
    fn panel(self) -> (u32, u32) {
        match self.style {
            Style::Screen => SIZE,
            Style::Paper => PAPER_SIZE,
        }
    }
}

/// The papers' symbols for their spelled-out names, word by word: gamma -> γ, delta -> δ,
/// Psi -> Ψ, xi -> ξ, f1 -> f₁, f2 -> f₂, w_2 -> w₂, w_b -> w_b (DejaVu Sans has these glyphs).
///
/// # Examples
///
/// ```
/// use pathology::plot::symbols;
/// assert_eq!(symbols("gamma = Pr[Psi = 1 | loss]"), "γ = Pr[Ψ = 1 | loss]");
/// assert_eq!(symbols("f1 = f2 = 0.7, xi = w_2"), "f₁ = f₂ = 0.7, ξ = w₂");
/// assert_eq!(symbols("deltas and gammas"), "deltas and gammas");
/// ```
pub fn symbols(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(match word.as_str() {
            "gamma" => "γ",
            "delta" => "δ",
            "Psi" => "Ψ",
            "xi" => "ξ",
            "f1" => "f₁",
            "f2" => "f₂",
            "w_2" => "w₂",
            "w_3" => "w₃",
            other => other,
        });
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The font family every figure uses.
const FONT: &str = "sans-serif";

/// Registers DejaVu Sans (regular and bold) as the `sans-serif` family, once.
///
/// # Examples
///
/// ```
/// use pathology::plot::register_fonts;
/// use plotters::style::IntoFont;
/// register_fonts();
/// register_fonts(); // idempotent
/// let (width, height) = ("sans-serif", 20).into_font().box_size("D(d,h)").unwrap();
/// assert!(width > 0 && height > 0);
/// ```
pub fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled fonts are valid TrueType files; a failure would be a packaging bug.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = plotters::style::register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

/// The image format, from a file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    /// `.png`
    Png,
    /// `.svg`
    Svg,
}

/// The image format of a path.
///
/// # Examples
///
/// ```
/// use pathology::plot::{ImageKind, image_kind};
/// assert_eq!(image_kind("plots/fig2.png".as_ref()).unwrap(), ImageKind::Png);
/// assert!(image_kind("fig2.pdf".as_ref()).is_err());
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--plot` for any extension but `.png` and `.svg`.
pub fn image_kind(path: &Path) -> LibResult<ImageKind> {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("png") => Ok(ImageKind::Png),
        Some(e) if e.eq_ignore_ascii_case("svg") => Ok(ImageKind::Svg),
        _ => Err(Error::invalid(
            "--plot",
            "a file name ending in .png or .svg",
            path.display(),
        )),
    }
}

/// A figure that can draw itself on any plotters backend.
trait Figure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, t: Theme) -> Result<()>;
}

fn save(path: &Path, figure: &impl Figure, style: Style) -> Result<()> {
    let t = Theme::new(style);
    save_sized(path, t.panel(), figure, t)
}

struct TrajectoryFigure<'a> {
    title: &'a str,
    series: &'a [Series],
}

/// How far a step label sits from its point, across the trajectory, as a fraction of the axes.
const LABEL_OFFSET: f64 = 0.04;
/// The least distance (fraction of the axes) from a step label's centre to any line, point or
/// other label: the label's own half height (about 0.012) and a margin; a label that cannot
/// keep it on either side of its trajectory is left out.
const LABEL_CLEARANCE: f64 = 0.03;

/// The distance from `p` to the segment `a`-`b`.
fn segment_distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length = dx * dx + dy * dy;
    let s = if length > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p.0 - a.0 - s * dx).hypot(p.1 - a.1 - s * dy)
}

/// Where the step labels of `series` (in axis fractions, each axis 0..1) go: for each point,
/// beside it across its trajectory, on the side farther from every line and label, or nowhere
/// (`None`) when neither side keeps [`LABEL_CLEARANCE`].
fn step_label_places(series: &[Vec<(f64, f64)>]) -> Vec<Vec<Option<(f64, f64)>>> {
    let mut placed: Vec<(f64, f64)> = Vec::new();
    let clearance = |q: (f64, f64), placed: &[(f64, f64)]| {
        let lines = series.iter().flat_map(|s| {
            s.windows(2)
                .map(|w| segment_distance(q, w[0], w[1]))
                .chain(s.iter().map(|&p| (q.0 - p.0).hypot(q.1 - p.1)))
        });
        let labels = placed.iter().map(|&l| ((q.0 - l.0) / 1.5).hypot(q.1 - l.1));
        lines.chain(labels).fold(f64::INFINITY, f64::min)
    };
    series
        .iter()
        .map(|s| {
            (0..s.len())
                .map(|k| {
                    let (before, after) = (s[k.saturating_sub(1)], s[(k + 1).min(s.len() - 1)]);
                    let (du, dv) = (after.0 - before.0, after.1 - before.1);
                    let norm = du.hypot(dv);
                    let normal = if norm > 0.0 {
                        (-dv / norm, du / norm)
                    } else {
                        (0.0, 1.0)
                    };
                    let p = s[k];
                    let best = [1.0, -1.0]
                        .into_iter()
                        .map(|side| {
                            let q = (
                                p.0 + side * LABEL_OFFSET * normal.0,
                                p.1 + side * LABEL_OFFSET * normal.1,
                            );
                            (q, clearance(q, &placed))
                        })
                        .filter(|(q, _)| (0.0..=1.0).contains(&q.0) && (0.0..=1.0).contains(&q.1))
                        .max_by(|a, b| a.1.total_cmp(&b.1));
                    let place = best.filter(|b| b.1 >= LABEL_CLEARANCE).map(|b| b.0);
                    placed.extend(place);
                    place
                })
                .collect()
        })
        .collect()
}

impl Figure for TrajectoryFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, t: Theme) -> Result<()> {
        root.fill(&WHITE).map_err(failed)?;
        // Zoom to the data: from 0 to a little beyond the largest coordinate (at most 1).
        let top = |pick: fn(&(f64, f64)) -> f64| {
            let max = self
                .series
                .iter()
                .flat_map(|s| s.points.iter().map(pick))
                .fold(0.0f64, f64::max);
            (max * 1.15).clamp(0.05, 1.0)
        };
        let (x_top, y_top) = (top(|p| p.0), top(|p| p.1));
        let mut builder = ChartBuilder::on(root);
        if let Some(title) = t.title(self.title) {
            builder.caption(title, (FONT, t.font(24)));
        }
        let mut chart = builder
            .margin(t.px(20))
            .x_label_area_size(t.px(50))
            .y_label_area_size(t.px(60))
            .build_cartesian_2d(0f64..x_top, 0f64..y_top)
            .map_err(failed)?;
        let tick = |x: &f64| tick_label(*x);
        chart
            .configure_mesh()
            .x_desc(t.text("gamma = Pr[Psi = 1 | loss]"))
            .y_desc(t.text("delta = Pr[Psi = 0 | win]"))
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .axis_desc_style((FONT, t.font(18)))
            .label_style((FONT, t.font(15)))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(failed)?;
        let points: Vec<Vec<(f64, f64)>> = self.series.iter().map(|s| s.points.clone()).collect();
        let styles = styles_of(&points, y_top, true);
        for (s, &style) in self.series.iter().zip(&styles) {
            styled_line(&mut chart, &s.points, &s.label, style, t)?;
        }
        // Step labels beside their points, across the trajectory, where they crowd nothing.
        let fractions: Vec<Vec<(f64, f64)>> = points
            .iter()
            .map(|s| s.iter().map(|p| (p.0 / x_top, p.1 / y_top)).collect())
            .collect();
        let centred = Pos::new(HPos::Center, VPos::Center);
        for (places, style) in step_label_places(&fractions).iter().zip(&styles) {
            let font = (FONT, t.font(13))
                .into_font()
                .color(&style.color)
                .pos(centred);
            let texts = places.iter().enumerate().filter_map(|(k, place)| {
                place.map(|(u, v)| Text::new(k.to_string(), (u * x_top, v * y_top), font.clone()))
            });
            chart.draw_series(texts).map_err(failed)?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight, 16, t)?;
        Ok(())
    }
}

/// Draws trajectories in the gamma-delta plane, with each point labelled by its step (where
/// labels do not crowd) and a legend.
///
/// # Examples
///
/// ```
/// use pathology::plot::{Series, Style, trajectories};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("t.svg");
/// let s = Series { label: "f = 0.9".into(), points: vec![(0.3, 0.2), (0.1, 0.1)] };
/// trajectories(&path, "example", &[s], Style::Screen).unwrap();
/// assert!(std::fs::metadata(&path).unwrap().len() > 0);
/// ```
///
/// # Errors
///
/// [`PlotError`] for an extension other than `.png`/`.svg` or a failed write.
pub fn trajectories(path: &Path, title: &str, series: &[Series], style: Style) -> Result<()> {
    save(path, &TrajectoryFigure { title, series }, style)
}

struct LineFigure<'a> {
    axes: &'a Axes,
    series: &'a [Series],
    markers: bool,
}

impl Figure for LineFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, t: Theme) -> Result<()> {
        root.fill(&WHITE).map_err(failed)?;
        let (a, series) = scale::linear_series(self.axes, self.series)?;
        let (a, series) = (&a, &series[..]);
        let mut builder = ChartBuilder::on(root);
        if let Some(title) = t.title(&a.title) {
            builder.caption(title, (FONT, t.font(24)));
        }
        let mut chart = builder
            .margin(t.px(20))
            .x_label_area_size(t.px(50))
            .y_label_area_size(t.px(70))
            .build_cartesian_2d(a.x_range.0..a.x_range.1, a.y_range.0..a.y_range.1)
            .map_err(failed)?;
        let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
        configure_mesh(&mut chart, a, integer_axis(xs), t)?;
        let points: Vec<Vec<(f64, f64)>> = series.iter().map(|s| s.points.clone()).collect();
        let styles = styles_of(&points, a.y_range.1 - a.y_range.0, self.markers);
        for (s, &style) in series.iter().zip(&styles) {
            styled_line(&mut chart, &s.points, &s.label, style, t)?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight, 16, t)?;
        Ok(())
    }
}

/// Draws the mesh of a chart with axes `a`: descriptions, and tick labels by [`tick_label`],
/// on an integer x axis ([`integer_axis`]) at whole numbers only by [`integer_tick_label`].
fn configure_mesh<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    a: &Axes,
    integer_x: bool,
    t: Theme,
) -> Result<()> {
    let tick = |x: &f64| tick_label(*x);
    let whole = |x: &f64| integer_tick_label(*x);
    let power = |x: &f64| power_of_two_label(*x);
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(t.axis(&a.x_label))
        .y_desc(t.axis(&a.y_label))
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .axis_desc_style((FONT, t.font(18)))
        .label_style((FONT, t.font(15)))
        .light_line_style(WHITE.mix(0.0));
    if a.x_scale == Scale::Log2 {
        // The range is in logarithms here: a tick at every power of 2.
        mesh.x_labels(integer_labels(a.x_range))
            .x_label_formatter(&power);
    } else if integer_x {
        mesh.x_labels(integer_labels(a.x_range))
            .x_label_formatter(&whole);
    }
    mesh.draw().map_err(failed)
}

/// Draws labelled series as lines (with small markers if `markers`) and a legend.
///
/// # Examples
///
/// ```
/// use pathology::plot::{Axes, Scale, Series, Style, line_chart};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("l.png");
/// let axes = Axes { title: "t".into(), x_label: "x".into(), y_label: "y".into(),
///                   x_range: (0.0, 1.0), y_range: (0.0, 1.0),
///                   x_scale: Scale::Linear };
/// let s = Series { label: "y = x".into(), points: vec![(0.0, 0.0), (1.0, 1.0)] };
/// line_chart(&path, &axes, &[s], false, Style::Screen).unwrap();
/// assert!(std::fs::metadata(&path).unwrap().len() > 0);
/// ```
///
/// # Errors
///
/// [`PlotError`] for an extension other than `.png`/`.svg` or a failed write.
pub fn line_chart(
    path: &Path,
    axes: &Axes,
    series: &[Series],
    markers: bool,
    style: Style,
) -> Result<()> {
    save(
        path,
        &LineFigure {
            axes,
            series,
            markers,
        },
        style,
    )
}

/// Cells a side of the phase portrait's basin grid.
pub const PORTRAIT_CELLS: usize = 150;
/// Steps after which a grid cell's trajectory counts as undecided (near a saddle).
const PORTRAIT_MAX_STEPS: u32 = 5000;

/// The long-run attractor of the trajectory from `start`, iterating at most `max_steps`.
fn basin(start: ErrorPair<f64>, f1: f64, f2: f64, from: BackUp, max_steps: u32) -> Attractor {
    let mut p = start;
    for _ in 0..max_steps {
        let next = back_up(&p, &f1, &f2, from);
        let moved = (next.gamma - p.gamma)
            .abs()
            .max((next.delta - p.delta).abs());
        p = next;
        if moved <= crate::analytic::errprop::SETTLE_TOLERANCE {
            break;
        }
    }
    attractor_of(&p)
}

struct PhaseFigure<'a> {
    f1: f64,
    f2: f64,
    from: BackUp,
    fixed: &'a [FixedPoint],
    series: &'a [Series],
}

impl Figure for PhaseFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, t: Theme) -> Result<()> {
        root.fill(&WHITE).map_err(failed)?;
        let title = format!(
            "Basins of the gamma/delta map ({}-to-{}), f1 = {}, f2 = {}",
            if self.from == BackUp::Max {
                "Max"
            } else {
                "Min"
            },
            if self.from == BackUp::Max {
                "Max"
            } else {
                "Min"
            },
            self.f1,
            self.f2
        );
        let mut builder = ChartBuilder::on(root);
        if let Some(title) = t.title(&title) {
            builder.caption(title, (FONT, t.font(22)));
        }
        let mut chart = builder
            .margin(t.px(20))
            .x_label_area_size(t.px(50))
            .y_label_area_size(t.px(60))
            .build_cartesian_2d(0f64..1f64, 0f64..1f64)
            .map_err(failed)?;
        let tick = |x: &f64| tick_label(*x);
        chart
            .configure_mesh()
            .x_desc(t.text("gamma"))
            .y_desc(t.text("delta"))
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .axis_desc_style((FONT, t.font(18)))
            .label_style((FONT, t.font(15)))
            .disable_mesh()
            .draw()
            .map_err(failed)?;
        let origin_color = RGBColor(190, 225, 245);
        let zero_one_color = RGBColor(250, 210, 180);
        let one_zero_color = RGBColor(225, 225, 225);
        let n = PORTRAIT_CELLS;
        let width = 1.0 / n as f64;
        let mut cells = Vec::new();
        for i in 0..n {
            // One rectangle per run of equal colour in a column keeps the SVG small.
            let mut run: Option<(usize, RGBColor)> = None;
            for j in 0..=n {
                let color = (j < n).then(|| {
                    let (x, y) = ((i as f64 + 0.5) * width, (j as f64 + 0.5) * width);
                    let start = ErrorPair { gamma: x, delta: y };
                    match basin(start, self.f1, self.f2, self.from, PORTRAIT_MAX_STEPS) {
                        Attractor::Origin => origin_color,
                        Attractor::ZeroOne => zero_one_color,
                        Attractor::OneZero => one_zero_color,
                        Attractor::Other => WHITE,
                    }
                });
                if let Some((first, c)) = run
                    && color != Some(c)
                {
                    let x0 = i as f64 * width;
                    cells.push(Rectangle::new(
                        [(x0, first as f64 * width), (x0 + width, j as f64 * width)],
                        c.filled(),
                    ));
                    run = None;
                }
                if run.is_none() {
                    run = color.map(|c| (j, c));
                }
            }
        }
        chart.draw_series(cells).map_err(failed)?;
        // Legend entries for the shaded basins.
        for (label, color) in [
            ("basin of (0, 0)", origin_color),
            ("basin of (0, 1)", zero_one_color),
            ("basin of (1, 0)", one_zero_color),
        ] {
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
                .map_err(failed)?
                .label(label)
                .legend(move |(x, y)| {
                    Rectangle::new(
                        [(x, y - t.offset(6)), (x + t.offset(24), y + t.offset(6))],
                        color.filled(),
                    )
                });
        }
        let points: Vec<Vec<(f64, f64)>> = self.series.iter().map(|s| s.points.clone()).collect();
        for (s, style) in self.series.iter().zip(styles_of(&points, 1.0, true)) {
            styled_line(&mut chart, &s.points, &s.label, style, t)?;
        }
        for p in self.fixed {
            let at = (p.point.gamma, p.point.delta);
            let style = match p.stability {
                Stability::Attracting => BLACK.filled(),
                _ => BLACK.stroke_width(t.px(2)),
            };
            chart
                .draw_series(std::iter::once(Circle::new(at, t.px(6), style)))
                .map_err(failed)?;
            // Keep the label inside the plot: left of points near the right edge, below
            // points near the top. In paper style the label is the point alone (the marker
            // says its stability: filled attracting, open saddle or repelling).
            let (text, x, y) = match t.style {
                Style::Screen => (
                    format!("{} ({:.3}, {:.3})", p.stability.name(), at.0, at.1),
                    if at.0 > 0.6 { at.0 - 0.3 } else { at.0 + 0.015 },
                    if at.1 > 0.9 {
                        at.1 - 0.04
                    } else {
                        at.1 + 0.015
                    },
                ),
                Style::Paper => (
                    format!("({:.2}, {:.2})", at.0, at.1),
                    if at.0 > 0.6 { at.0 - 0.28 } else { at.0 + 0.02 },
                    if at.1 > 0.9 { at.1 - 0.06 } else { at.1 + 0.03 },
                ),
            };
            chart
                .draw_series(std::iter::once(Text::new(text, (x, y), (FONT, t.font(14)))))
                .map_err(failed)?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight, 15, t)?;
        Ok(())
    }
}

/// Draws the phase portrait of the map for one `(f1, f2)`: the basins of `(0, 0)`, `(0, 1)` and
/// `(1, 0)` shaded on a grid of [`PORTRAIT_CELLS`]^2 starts, the fixed points (filled:
/// attracting; open: saddle or repelling) and the given trajectories.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::stability::fixed_points;
/// use pathology::plot::{Series, Style, phase_portrait};
/// let dir = tempfile::tempdir().unwrap();
/// let fixed = fixed_points(0.6, 0.6, BackUp::Max).unwrap();
/// let s = Series { label: "start (0.3, 0.2)".into(), points: vec![(0.3, 0.2), (0.2, 0.25)] };
/// let path = dir.path().join("portrait.svg");
/// phase_portrait(&path, 0.6, 0.6, BackUp::Max, &fixed, &[s], Style::Screen).unwrap();
/// assert!(std::fs::read_to_string(&path).unwrap().contains("<svg"));
/// assert!(phase_portrait(&dir.path().join("p.gif"), 0.6, 0.6, BackUp::Max, &fixed, &[], Style::Screen).is_err());
/// ```
///
/// # Errors
///
/// [`PlotError`] for an extension other than `.png`/`.svg` or a failed write.
pub fn phase_portrait(
    path: &Path,
    f1: f64,
    f2: f64,
    from: BackUp,
    fixed: &[FixedPoint],
    series: &[Series],
    style: Style,
) -> Result<()> {
    save(
        path,
        &PhaseFigure {
            f1,
            f2,
            from,
            fixed,
            series,
        },
        style,
    )
}

struct ErrorBarFigure<'a> {
    panels: &'a [Panel],
    /// `exact[i]`: the exact lines of panel i (may be shorter than `panels`).
    exact: &'a [Vec<ExactLine>],
    /// The series styles of each panel, when they are set across figures
    /// ([`error_bar_charts_alike`]); otherwise the figure's own ([`panel_styles`]).
    styles: Option<&'a [Vec<SeriesStyle>]>,
}

impl ErrorBarFigure<'_> {
    fn draw_panel<DB: DrawingBackend>(
        panel: &Panel,
        exact: &[ExactLine],
        styles: &[SeriesStyle],
        area: &DrawingArea<DB, Shift>,
        strip: u32,
        t: Theme,
    ) -> Result<()> {
        let (panel, exact) = linear_panel(panel, exact)?;
        let (panel, exact) = (&panel, &exact[..]);
        // A legend beside the plot area gets a strip of the panel's own, right of it.
        let (area, beside) = if panel.legend == LegendPosition::Right {
            // At the screen's size even in a wide figure, as a legend inside a panel; from
            // the top of the plot area beside (below the caption and the margin).
            let small = Theme { scale: 1.0, ..t };
            let entries = layout::entries(panel, styles, exact);
            let (chart, strip) = area.split_horizontally(area.dim_in_pixel().0 - strip);
            let top = t.offset(20) + (t.font(22) * 1.5).round() as i32;
            layout::legend_beside(&strip, &entries, top, small)?;
            (chart, true)
        } else {
            (area.clone(), false)
        };
        let area = &area;
        let a = &panel.axes;
        let mut builder = ChartBuilder::on(area);
        if let Some(title) = t.title(&a.title) {
            builder.caption(title, (FONT, t.font(22)));
        }
        let mut chart = builder
            .margin(t.px(20))
            .x_label_area_size(t.px(50))
            .y_label_area_size(t.px(70))
            .build_cartesian_2d(a.x_range.0..a.x_range.1, a.y_range.0..a.y_range.1)
            .map_err(failed)?;
        let xs = panel
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.x));
        configure_mesh(&mut chart, a, integer_axis(xs), t)?;
        // The horizontal reference first and thin; the exact curves last, over the markers.
        if let Some(y) = panel.reference {
            let line = [(a.x_range.0, y), (a.x_range.1, y)];
            reference_line(&mut chart, &line, None, RGBColor(128, 128, 128), t)?;
        }
        // Bars a little narrower when points are dense.
        let dense = panel
            .series
            .iter()
            .map(|s| s.points.len())
            .max()
            .unwrap_or(0)
            > 20;
        let bar_width = t.px(if dense { 4 } else { 10 });
        for (s, &style) in panel.series.iter().zip(styles) {
            let points: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, p.y)).collect();
            // Intervals only where there are some (exact values have none).
            chart
                .draw_series(s.points.iter().filter(|p| p.high > p.low).map(|p| {
                    ErrorBar::new_vertical(
                        p.x,
                        p.low,
                        p.y,
                        p.high,
                        style.color.stroke_width(t.px(1)),
                        bar_width,
                    )
                }))
                .map_err(failed)?;
            styled_line(&mut chart, &points, &s.label, style, t)?;
        }
        for (i, line) in exact.iter().enumerate() {
            let look = style::exact_line_style(i);
            dashed_line(&mut chart, &line.points, Some(&line.label), look, t)?;
        }
        // A panel's own legend at the screen's size even in a wide figure: larger, it would
        // cover the curves it names.
        if let Some(position) = legend_position(panel.legend).filter(|_| !beside) {
            legend(&mut chart, position, 16, Theme { scale: 1.0, ..t })?;
        }
        Ok(())
    }
}

impl Figure for ErrorBarFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, t: Theme) -> Result<()> {
        root.fill(&WHITE).map_err(failed)?;
        // Side by side on the screen (two to a row from three panels on, with larger fonts);
        // stacked in a paper's single column; a shared legend in a cell of its own
        // ([`layout`]). Either way panels with the same y label (the same quantity, meant to
        // be compared) share one y range.
        let grid = layout::layout(self.panels, self.exact, t.style);
        let t = if grid.wide {
            Theme {
                scale: layout::WIDE_SCALE,
                ..t
            }
        } else {
            t
        };
        let areas = root.split_evenly((grid.rows, grid.columns));
        let mut panels = shared_y_ranges(self.panels);
        let styles = self
            .styles
            .map_or_else(|| panel_styles(&panels), <[Vec<SeriesStyle>]>::to_vec);
        let exact_of = |i: usize| self.exact.get(i).map_or(&[][..], |v| &v[..]);
        for (i, p) in panels.iter_mut().enumerate() {
            layout::mark_sampled(p, !exact_of(i).is_empty());
        }
        if let Some(cell) = grid.legend_cell {
            let shown = panels
                .iter()
                .position(|p| p.legend != LegendPosition::Hidden)
                .unwrap_or(0);
            let entries = layout::entries(&panels[shown], &styles[shown], exact_of(shown));
            layout::legend_cell(&areas[cell], &entries, t)?;
            for p in &mut panels {
                p.legend = LegendPosition::Hidden;
            }
        }
        // One strip width for every legend beside its panel, so that the panels' x axes
        // line up (the widest legend's, at the screen's size as a legend inside a panel).
        let strip = panels
            .iter()
            .enumerate()
            .filter(|(_, p)| p.legend == LegendPosition::Right)
            .map(|(i, p)| {
                let entries = layout::entries(p, &styles[i], exact_of(i));
                let width = areas[i].dim_in_pixel().0;
                layout::beside_width(&entries, width, Theme { scale: 1.0, ..t })
            })
            .max()
            .unwrap_or(0);
        for (i, ((panel, area), styles)) in panels.iter().zip(&areas).zip(&styles).enumerate() {
            Self::draw_panel(panel, exact_of(i), styles, area, strip, t)?;
        }
        Ok(())
    }
}

/// A figure file that could not be written, naming the path.
fn write_failed(path: &Path, error: impl std::fmt::Display) -> PlotError {
    PlotError(format!("cannot write {}: {error}", path.display()))
}

fn save_sized(path: &Path, size: (u32, u32), figure: &impl Figure, t: Theme) -> Result<()> {
    register_fonts();
    let kind = image_kind(path).map_err(failed)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            PlotError(format!(
                "cannot create the directory {}: {e}",
                dir.display()
            ))
        })?;
    }
    // Drawn into a partial file renamed into place at the end, so an interrupted run leaves no
    // half-written figure. Opening it first gives the operating system's message with the
    // path, instead of the bitmap backend's debug text (`ImageError(IoError(Os { .. }))`).
    crate::report::output::write_atomically_with(
        path,
        |partial| {
            std::fs::File::create(partial).map_err(|e| write_failed(path, e))?;
            match kind {
                ImageKind::Png => {
                    let root = BitMapBackend::new(partial, size).into_drawing_area();
                    figure
                        .draw(&root, t)
                        .and_then(|()| root.present().map_err(|e| write_failed(path, e)))
                }
                ImageKind::Svg => {
                    let root = SVGBackend::new(partial, size).into_drawing_area();
                    figure
                        .draw(&root, t)
                        .and_then(|()| root.present().map_err(|e| write_failed(path, e)))
                }
            }
        },
        |e| write_failed(path, e),
    )
}

/// Draws one or more panels, each [`SIZE`]: up to two side by side, from three on two to a row
/// with larger fonts; in paper style stacked, each [`PAPER_SIZE`]. Panels with the same y label
/// share their y range, and a legend that the panels share gets a cell of its own after them.
/// Every series is a line through its estimates with a vertical bar over each point's interval;
/// beside exact values, a sampled series' legend entry says "sampled".
///
/// # Examples
///
/// ```
/// use pathology::plot::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel, Scale, Style};
/// use pathology::plot::error_bar_chart;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("e.svg");
/// let axes = Axes { title: "t".into(), x_label: "x".into(), y_label: "y".into(),
///                   x_range: (0.0, 3.0), y_range: (0.0, 1.0),
///                   x_scale: Scale::Linear };
/// let points = vec![ErrorPoint { x: 1.0, y: 0.5, low: 0.4, high: 0.6 },
///                   ErrorPoint { x: 2.0, y: 0.7, low: 0.65, high: 0.75 }];
/// let panel = Panel { axes, series: vec![ErrorSeries { label: "a".into(), points }],
///                     legend: LegendPosition::LowerRight, reference: Some(0.5) };
/// error_bar_chart(&path, &[panel], Style::Screen).unwrap();
/// assert!(std::fs::read_to_string(&path).unwrap().contains("<svg"));
/// ```
///
/// # Errors
///
/// [`PlotError`] for an extension other than `.png`/`.svg` or a failed write.
pub fn error_bar_chart(path: &Path, panels: &[Panel], style: Style) -> Result<()> {
    error_bar_chart_with_exact(path, panels, &[], style)
}

/// [`error_bar_chart`] with exact curves over the panels: `exact[i]` are drawn on panel i as
/// dashed black lines with their legend entries.
///
/// # Examples
///
/// ```
/// use pathology::plot::{Axes, ErrorPoint, ErrorSeries, ExactLine, LegendPosition, Panel, Scale, Style};
/// use pathology::plot::error_bar_chart_with_exact;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("e.svg");
/// let axes = Axes { title: "t".into(), x_label: "x".into(), y_label: "y".into(),
///                   x_range: (0.0, 3.0), y_range: (0.0, 1.0),
///                   x_scale: Scale::Linear };
/// let points = vec![ErrorPoint { x: 1.0, y: 0.5, low: 0.4, high: 0.6 }];
/// let panel = Panel { axes, series: vec![ErrorSeries { label: "a".into(), points }],
///                     legend: LegendPosition::LowerRight, reference: None };
/// let exact = ExactLine { label: "exact D(d,h)".into(), points: vec![(1.0, 0.52), (2.0, 0.6)] };
/// error_bar_chart_with_exact(&path, &[panel], &[vec![exact]], Style::Screen).unwrap();
/// assert!(std::fs::read_to_string(&path).unwrap().contains("exact D(d,h)"));
/// ```
///
/// # Errors
///
/// As [`error_bar_chart`].
pub fn error_bar_chart_with_exact(
    path: &Path,
    panels: &[Panel],
    exact: &[Vec<ExactLine>],
    style: Style,
) -> Result<()> {
    let t = Theme::new(style);
    let (width, height) = t.panel();
    let grid = layout::layout(panels, exact, style);
    let size = (width * grid.columns as u32, height * grid.rows as u32);
    let figure = ErrorBarFigure {
        panels,
        exact,
        styles: None,
    };
    save_sized(path, size, &figure, t)
}

/// Draws several [`error_bar_chart`]s whose series look alike: a series at the same place in
/// any of them gets one style in all of them (the critical-curve figures at each gamma), decided
/// over all their panels together.
///
/// # Errors
///
/// As [`error_bar_chart`].
pub fn error_bar_charts_alike(figures: &[(&Path, &[Panel])], style: Style) -> Result<()> {
    let panels: Vec<&[Panel]> = figures.iter().map(|(_, panels)| *panels).collect();
    let styles = layout::alike_styles(&panels);
    let mut from = 0;
    for (path, panels) in figures {
        let t = Theme::new(style);
        let (width, height) = t.panel();
        let grid = layout::layout(panels, &[], style);
        let size = (width * grid.columns as u32, height * grid.rows as u32);
        let figure = ErrorBarFigure {
            panels,
            exact: &[],
            styles: Some(&styles[from..from + panels.len()]),
        };
        save_sized(path, size, &figure, t)?;
        from += panels.len();
    }
    Ok(())
}

#[cfg(test)]
mod tests;
