//! Figures of `pathology samples` results: the difference of two checkpoints' curves over the
//! budget k with its simultaneous band and the budgets where one is certified better or worse
//! shaded ([`difference_band`]), and a fitted mix of success rates as stems
//! ([`mix_stems`]). The curves themselves are error-bar charts ([`super::error_bar_chart`]).

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{FONT, Figure, Result, Style, Theme, failed, save, tick_label};

/// One budget of a difference curve: `k`, the difference `B - A` and the band's ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BandPoint {
    /// The budget.
    pub k: f64,
    /// The in-sample difference.
    pub difference: f64,
    /// The band's lower end.
    pub lower: f64,
    /// The band's upper end.
    pub upper: f64,
}

/// A difference curve with its simultaneous band.
#[derive(Debug, Clone, PartialEq)]
pub struct BandFigure {
    /// The title.
    pub title: String,
    /// The y axis's description.
    pub y_label: String,
    /// What B better means (legend of the shading above 0).
    pub better: String,
    /// What B worse means (legend of the shading below 0).
    pub worse: String,
    /// The budgets, increasing.
    pub points: Vec<BandPoint>,
}

const BETTER: RGBColor = RGBColor(0, 158, 115);
const WORSE: RGBColor = RGBColor(213, 94, 0);
const LINE: RGBColor = RGBColor(0, 114, 178);

impl Figure for BandFigure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, t: Theme) -> Result<()> {
        root.fill(&WHITE).map_err(failed)?;
        let k_max = self.points.iter().map(|p| p.k).fold(1.0, f64::max);
        let low = self.points.iter().map(|p| p.lower).fold(0.0, f64::min);
        let high = self.points.iter().map(|p| p.upper).fold(0.0, f64::max);
        let margin = 0.08 * (high - low).max(1e-6);
        let y = (low - margin, high + margin);
        let mut builder = ChartBuilder::on(root);
        if let Some(title) = t.title(&self.title) {
            builder.caption(title, (FONT, t.font(22)));
        }
        let mut chart = builder
            .margin(t.px(20))
            .x_label_area_size(t.px(50))
            .y_label_area_size(t.px(75))
            .build_cartesian_2d(0.5..k_max + 0.5, y.0..y.1)
            .map_err(failed)?;
        let tick = |x: &f64| tick_label(*x);
        chart
            .configure_mesh()
            .x_desc(t.axis("budget k"))
            .y_desc(t.axis(&self.y_label))
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .axis_desc_style((FONT, t.font(18)))
            .label_style((FONT, t.font(15)))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(failed)?;
        // The certified budgets: a column of shading over each, from the axis's end to 0.
        let mut first = [true, true];
        for p in &self.points {
            let (color, side, label) = if p.lower > 0.0 {
                (BETTER, 0, &self.better)
            } else if p.upper < 0.0 {
                (WORSE, 1, &self.worse)
            } else {
                continue;
            };
            let (from, to) = if side == 0 { (0.0, y.1) } else { (y.0, 0.0) };
            let anno = chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(p.k - 0.5, from), (p.k + 0.5, to)],
                    color.mix(0.18).filled(),
                )))
                .map_err(failed)?;
            if std::mem::take(&mut first[side]) {
                anno.label(t.text(label)).legend(move |(x, y)| {
                    Rectangle::new([(x, y - 6), (x + 20, y + 6)], color.mix(0.35).filled())
                });
            }
        }
        // The band as a filled polygon, the difference as a line, 0 dashed.
        let mut outline: Vec<(f64, f64)> = self.points.iter().map(|p| (p.k, p.upper)).collect();
        outline.extend(self.points.iter().rev().map(|p| (p.k, p.lower)));
        chart
            .draw_series(std::iter::once(Polygon::new(
                outline,
                LINE.mix(0.25).filled(),
            )))
            .map_err(failed)?
            .label(t.text("95% simultaneous band"))
            .legend(|(x, y)| {
                Rectangle::new([(x, y - 6), (x + 20, y + 6)], LINE.mix(0.25).filled())
            });
        chart
            .draw_series(LineSeries::new(
                self.points.iter().map(|p| (p.k, p.difference)),
                LINE.stroke_width(t.px(2)),
            ))
            .map_err(failed)?
            .label(t.text("in-sample difference B - A"))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], LINE.stroke_width(t.px(2)))
            });
        chart
            .draw_series(DashedLineSeries::new(
                [(0.5, 0.0), (k_max + 0.5, 0.0)],
                t.px(6),
                t.px(4),
                BLACK.stroke_width(t.px(1)),
            ))
            .map_err(failed)?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font((FONT, t.font(16)))
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(failed)
    }
}

/// Draws a difference curve over the budget k with its simultaneous band (filled), 0 dashed,
/// and the budgets where the band lies above 0 (B certified better) or below it (worse)
/// shaded on that side of 0.
///
/// # Examples
///
/// ```
/// use pathology::plot::Style;
/// use pathology::plot::samples::{BandFigure, BandPoint, difference_band};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("band.svg");
/// let points = (1..=4)
///     .map(|k| {
///         let d = 0.1 - 0.05 * k as f64;
///         BandPoint { k: k as f64, difference: d, lower: d - 0.03, upper: d + 0.03 }
///     })
///     .collect();
/// let figure = BandFigure { title: "t".into(), y_label: "B - A".into(),
///     better: "B better".into(), worse: "B worse".into(), points };
/// difference_band(&path, &figure, Style::Screen).unwrap();
/// assert!(std::fs::read_to_string(&path).unwrap().contains("B worse"));
/// ```
///
/// # Errors
///
/// [`super::PlotError`] for an extension other than `.png`/`.svg` or a failed write.
pub fn difference_band(path: &Path, figure: &BandFigure, style: Style) -> Result<()> {
    save(path, figure, style)
}

/// Fitted mixes of success rates: per mix, a label and its atoms `(rate, weight)`.
#[derive(Debug, Clone, PartialEq)]
pub struct StemFigure {
    /// The title.
    pub title: String,
    /// The mixes, one colour each.
    pub mixes: Vec<(String, Vec<(f64, f64)>)>,
}

impl Figure for StemFigure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, t: Theme) -> Result<()> {
        root.fill(&WHITE).map_err(failed)?;
        let top = self
            .mixes
            .iter()
            .flat_map(|(_, atoms)| atoms.iter().map(|a| a.1))
            .fold(0.0, f64::max);
        let top = ((top * 1.15) * 20.0).ceil() / 20.0;
        let mut builder = ChartBuilder::on(root);
        if let Some(title) = t.title(&self.title) {
            builder.caption(title, (FONT, t.font(22)));
        }
        let mut chart = builder
            .margin(t.px(20))
            .x_label_area_size(t.px(50))
            .y_label_area_size(t.px(75))
            .build_cartesian_2d(-0.03..1.0, 0.0..top.min(1.0))
            .map_err(failed)?;
        let tick = |x: &f64| tick_label(*x);
        chart
            .configure_mesh()
            .x_desc(t.axis("success rate R of a problem"))
            .y_desc(t.axis("share W of the problems"))
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .axis_desc_style((FONT, t.font(18)))
            .label_style((FONT, t.font(15)))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(failed)?;
        let colors = [LINE, WORSE, BETTER];
        let count = self.mixes.len().max(1) as f64;
        for (i, (label, atoms)) in self.mixes.iter().enumerate() {
            let color = colors[i % colors.len()];
            // Mixes side by side at a shared atom: each stem shifted by its mix's offset.
            let shift = (i as f64 - (count - 1.0) / 2.0) * 0.006;
            let r = t.px(5) as i32;
            let anno = chart
                .draw_series(atoms.iter().map(|&(x, w)| {
                    PathElement::new(
                        vec![(x + shift, 0.0), (x + shift, w)],
                        color.stroke_width(t.px(2)),
                    )
                }))
                .map_err(failed)?;
            anno.label(t.text(label)).legend(move |(x, y)| {
                EmptyElement::at((x + 10, y)) + Circle::new((0, 0), r, color.filled())
            });
            chart
                .draw_series(
                    atoms
                        .iter()
                        .map(|&(x, w)| Circle::new((x + shift, w), r, color.filled())),
                )
                .map_err(failed)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .label_font((FONT, t.font(16)))
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(failed)
    }
}

/// Draws fitted mixes of success rates as stems: at each atom R a vertical line up to its
/// share W, one colour per mix.
///
/// # Examples
///
/// ```
/// use pathology::plot::Style;
/// use pathology::plot::samples::{StemFigure, mix_stems};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("mix.svg");
/// let figure = StemFigure { title: "t".into(),
///     mixes: vec![("base".into(), vec![(0.0, 0.2), (0.6, 0.8)])] };
/// mix_stems(&path, &figure, Style::Screen).unwrap();
/// assert!(std::fs::read_to_string(&path).unwrap().contains("base"));
/// ```
///
/// # Errors
///
/// [`super::PlotError`] for an extension other than `.png`/`.svg` or a failed write.
pub fn mix_stems(path: &Path, figure: &StemFigure, style: Style) -> Result<()> {
    save(path, figure, style)
}
