//! Class maps: points of a grid marked by their class (one series per class, a shape and a
//! colour each), one square panel per setting side by side (stacked in paper style), and one
//! legend of the classes under them (the voting phase diagram).

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Figure, Panel, Result, Style, Theme, failed, save_sized};

/// The looks of the classes, in series order: colour-blind-safe colours (Okabe and Ito) and
/// distinct shapes, so that a grey print still tells them apart.
const LOOKS: [(RGBColor, Shape); 6] = [
    (RGBColor(0, 114, 178), Shape::Circle),
    (RGBColor(213, 94, 0), Shape::Square),
    (RGBColor(0, 158, 115), Shape::Up),
    (RGBColor(204, 121, 167), Shape::Down),
    (RGBColor(0, 0, 0), Shape::Cross),
    (RGBColor(120, 120, 120), Shape::Cross),
];

#[derive(Debug, Clone, Copy)]
enum Shape {
    Circle,
    Square,
    Up,
    Down,
    Cross,
}

struct ClassFigure<'a> {
    panels: &'a [Panel],
}

/// The legend's font size (screen points).
const LEGEND_FONT: u32 = 22;

/// The legend's entries placed in lines across `width` pixels: per line, `(series index,
/// label, x)`.
fn legend_lines<'a>(
    labels: &[(usize, &'a str)],
    width: u32,
    t: Theme,
) -> Vec<Vec<(usize, &'a str, i32)>> {
    let font = (super::FONT, t.font(LEGEND_FONT)).into_font();
    let r = t.px(13) as i32;
    let mut lines: Vec<Vec<(usize, &str, i32)>> = vec![Vec::new()];
    let mut x = t.px(30) as i32;
    for &(i, label) in labels {
        let text = font.box_size(&t.text(label)).map_or(300, |(w, _)| w as i32);
        let entry = 2 * r + t.px(10) as i32 + text + t.px(40) as i32;
        if x + entry > width as i32 && !lines.last().is_some_and(Vec::is_empty) {
            lines.push(Vec::new());
            x = t.px(30) as i32;
        }
        lines.last_mut().expect("one line").push((i, label, x));
        x += entry;
    }
    lines
}

/// Height of one legend line, pixels.
fn legend_line_height(t: Theme) -> u32 {
    t.px(50)
}

/// The series labels any panel shows points of, in series order.
fn shown_labels(panels: &[Panel]) -> Vec<(usize, &str)> {
    panels
        .first()
        .map(|p| {
            p.series
                .iter()
                .enumerate()
                .filter(|(i, _)| {
                    panels
                        .iter()
                        .any(|q| q.series.get(*i).is_some_and(|s| !s.points.is_empty()))
                })
                .map(|(i, s)| (i, s.label.as_str()))
                .collect()
        })
        .unwrap_or_default()
}

/// The smallest gap between distinct values of `values` (`None` for fewer than two).
fn smallest_gap(mut values: Vec<f64>) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    values.dedup();
    values
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(None, |m: Option<f64>, g| Some(m.map_or(g, |m| m.min(g))))
}

fn draw_shape<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    shape: Shape,
    color: RGBColor,
    (x, y): (i32, i32),
    r: i32,
) -> Result<()> {
    let fill = color.filled();
    let tip = r + r / 6;
    match shape {
        Shape::Circle => area.draw(&Circle::new((x, y), r, fill)),
        Shape::Square => area.draw(&Rectangle::new(
            [(x - r + 1, y - r + 1), (x + r - 1, y + r - 1)],
            fill,
        )),
        Shape::Up => area.draw(&Polygon::new(
            vec![(x, y - tip), (x - tip, y + r), (x + tip, y + r)],
            fill,
        )),
        Shape::Down => area.draw(&Polygon::new(
            vec![(x, y + tip), (x - tip, y - r), (x + tip, y - r)],
            fill,
        )),
        Shape::Cross => {
            let stroke = color.stroke_width((r as u32 / 4).max(2));
            area.draw(&PathElement::new(
                vec![(x - r, y - r), (x + r, y + r)],
                stroke,
            ))
            .and_then(|()| {
                area.draw(&PathElement::new(
                    vec![(x - r, y + r), (x + r, y - r)],
                    stroke,
                ))
            })
        }
    }
    .map_err(failed)
}

impl Figure for ClassFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, t: Theme) -> Result<()> {
        root.fill(&WHITE).map_err(failed)?;
        let (width, height) = root.dim_in_pixel();
        let labels = shown_labels(self.panels);
        let lines = legend_lines(&labels, width, t);
        let strip_height = legend_line_height(t) * lines.len() as u32 + t.px(20);
        let (main, strip) = root.split_vertically(height - strip_height);
        let n = self.panels.len().max(1);
        // Side by side on the screen; stacked in a paper's single column.
        let grid = if t.style == Style::Paper {
            (n, 1)
        } else {
            (1, n)
        };
        let areas = main.split_evenly(grid);
        let tick = |x: &f64| super::tick_label(*x);
        let xs: Vec<f64> = self
            .panels
            .iter()
            .flat_map(|p| p.series.iter().flat_map(|s| s.points.iter().map(|q| q.x)))
            .collect();
        let ys: Vec<f64> = self
            .panels
            .iter()
            .flat_map(|p| p.series.iter().flat_map(|s| s.points.iter().map(|q| q.y)))
            .collect();
        let (x_gap, y_gap) = (smallest_gap(xs), smallest_gap(ys));
        for (panel, area) in self.panels.iter().zip(&areas) {
            let a = &panel.axes;
            let mut builder = ChartBuilder::on(area);
            if let Some(title) = t.title(&a.title) {
                builder.caption(title, (super::FONT, t.font(26)));
            }
            let mut chart = builder
                .margin(t.px(20))
                .x_label_area_size(t.px(60))
                .y_label_area_size(t.px(75))
                .build_cartesian_2d(a.x_range.0..a.x_range.1, a.y_range.0..a.y_range.1)
                .map_err(failed)?;
            // In paper style there is no title: the x axis names the panel's setting.
            let x_desc = match t.style {
                Style::Screen => a.x_label.clone(),
                Style::Paper => format!("{}, {}", t.axis(&a.x_label), t.text(&a.title)),
            };
            chart
                .configure_mesh()
                .x_desc(x_desc)
                .y_desc(t.axis(&a.y_label))
                .x_label_formatter(&tick)
                .y_label_formatter(&tick)
                .x_labels(6)
                .y_labels(6)
                .axis_desc_style((super::FONT, t.font(20)))
                .label_style((super::FONT, t.font(18)))
                .light_line_style(WHITE.mix(0.0))
                .draw()
                .map_err(failed)?;
            // Markers sized to the grid: 0.3 of the smaller gap between neighbouring cells.
            let pixels = |dx: f64, dy: f64| {
                let (x0, y0) = chart.backend_coord(&(a.x_range.0, a.y_range.0));
                let (x1, y1) = chart.backend_coord(&(a.x_range.0 + dx, a.y_range.0 + dy));
                ((x1 - x0).abs(), (y1 - y0).abs())
            };
            let r = match (x_gap, y_gap) {
                (Some(gx), Some(gy)) => {
                    let (px, py) = pixels(gx, gy);
                    (px.min(py) as f64 * 0.3).round() as i32
                }
                _ => t.px(13) as i32,
            }
            .max(3);
            // Markers at the backend's own pixels, on the root (whose origin is the backend's).
            for (series, &(color, shape)) in panel.series.iter().zip(LOOKS.iter().cycle()) {
                for p in &series.points {
                    draw_shape(root, shape, color, chart.backend_coord(&(p.x, p.y)), r)?;
                }
            }
        }
        // The legend: every class that any panel shows, in series order.
        let r = t.px(13) as i32;
        let line = legend_line_height(t) as i32;
        let font = (super::FONT, t.font(LEGEND_FONT)).into_font();
        for (row, entries) in lines.iter().enumerate() {
            let y = t.px(10) as i32 + row as i32 * line + line / 2;
            for &(i, label, x) in entries {
                let (color, shape) = LOOKS[i % LOOKS.len()];
                draw_shape(&strip, shape, color, (x + r, y), r)?;
                let text = t.text(label);
                let height = font.box_size(&text).map_or(20, |(_, h)| h as i32);
                strip
                    .draw(&Text::new(
                        text,
                        (x + 2 * r + t.px(10) as i32, y - height / 2),
                        font.clone(),
                    ))
                    .map_err(failed)?;
            }
        }
        Ok(())
    }
}

/// Draws class maps: one square panel per [`Panel`] side by side (in paper style stacked, each
/// [`super::PAPER_SIZE`]), each series' points as
/// filled markers with no line (series i has the same shape and colour in every panel), and
/// one legend strip under the panels naming the classes that occur.
///
/// # Examples
///
/// ```
/// use pathology::plot::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel, Scale, Style, class_map};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("c.svg");
/// let axes = Axes { title: "t".into(), x_label: "x".into(), y_label: "y".into(),
///                   x_range: (0.0, 1.0), y_range: (0.0, 1.0),
///                   x_scale: Scale::Linear };
/// let at = |x: f64, y: f64| ErrorPoint { x, y, low: y, high: y };
/// let panel = Panel { axes, legend: LegendPosition::Hidden, reference: None, series: vec![
///     ErrorSeries { label: "up".into(), points: vec![at(0.2, 0.3)] },
///     ErrorSeries { label: "down".into(), points: vec![at(0.6, 0.3)] }] };
/// class_map(&path, &[panel], Style::Screen).unwrap();
/// assert!(std::fs::read_to_string(&path).unwrap().contains("down"));
/// ```
///
/// # Errors
///
/// [`super::PlotError`] for an extension other than `.png`/`.svg`, a logarithmic x axis
/// or a failed write.
pub fn class_map(path: &Path, panels: &[Panel], style: Style) -> Result<()> {
    if panels
        .iter()
        .any(|p| p.axes.x_scale != super::Scale::Linear)
    {
        return Err(super::PlotError(
            "a class map draws linear axes only (x_scale must be Scale::Linear)".to_string(),
        ));
    }
    super::register_fonts();
    // Three or more square panels in a row are shown shrunk: larger fonts on the screen.
    let t = Theme {
        scale: 1.5,
        ..Theme::new(style)
    };
    let n = panels.len().max(1) as u32;
    let (width, height) = match style {
        Style::Screen => (t.panel().1 * n, t.panel().1),
        Style::Paper => (t.panel().0, t.panel().1 * n),
    };
    let lines = legend_lines(&shown_labels(panels), width, t).len() as u32;
    let size = (width, height + legend_line_height(t) * lines + t.px(20));
    save_sized(path, size, &ClassFigure { panels }, t)
}
