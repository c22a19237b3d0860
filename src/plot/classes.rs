//! Class maps: points of a grid marked by their class (one series per class, a shape and a
//! colour each), one square panel per setting side by side, and one legend of the classes
//! under them (the voting phase diagram).

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Figure, Panel, Result, Style, Theme, configure_mesh, failed, save_sized};

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

/// Height of the legend strip under the panels, screen pixels.
const LEGEND_HEIGHT: u32 = 70;

fn draw_shape<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    shape: Shape,
    color: RGBColor,
    (x, y): (i32, i32),
    r: i32,
) -> Result<()> {
    let fill = color.filled();
    match shape {
        Shape::Circle => area.draw(&Circle::new((x, y), r, fill)),
        Shape::Square => area.draw(&Rectangle::new([(x - r, y - r), (x + r, y + r)], fill)),
        Shape::Up => area.draw(&Polygon::new(
            vec![(x, y - r - 2), (x - r - 2, y + r), (x + r + 2, y + r)],
            fill,
        )),
        Shape::Down => area.draw(&Polygon::new(
            vec![(x, y + r + 2), (x - r - 2, y - r), (x + r + 2, y - r)],
            fill,
        )),
        Shape::Cross => {
            let stroke = color.stroke_width(4);
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
        let (_, height) = root.dim_in_pixel();
        let (main, strip) = root.split_vertically(height - t.px(LEGEND_HEIGHT));
        let areas = main.split_evenly((1, self.panels.len().max(1)));
        let r = t.px(13) as i32;
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
            configure_mesh(&mut chart, a, false, Theme { scale: 1.25, ..t })?;
            // Markers at the backend's own pixels, on the root (whose origin is the backend's).
            for (series, &(color, shape)) in panel.series.iter().zip(LOOKS.iter().cycle()) {
                for p in &series.points {
                    draw_shape(root, shape, color, chart.backend_coord(&(p.x, p.y)), r)?;
                }
            }
        }
        // The legend: every class that any panel shows, in series order.
        let labels: Vec<(usize, &str)> = self
            .panels
            .first()
            .map(|p| {
                p.series
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| {
                        self.panels
                            .iter()
                            .any(|q| q.series.get(*i).is_some_and(|s| !s.points.is_empty()))
                    })
                    .map(|(i, s)| (i, s.label.as_str()))
                    .collect()
            })
            .unwrap_or_default();
        let (width, strip_height) = strip.dim_in_pixel();
        let slot = width as i32 / labels.len().max(1) as i32;
        let y = strip_height as i32 / 2;
        for (n, (i, label)) in labels.iter().enumerate() {
            let (color, shape) = LOOKS[i % LOOKS.len()];
            let x = n as i32 * slot + slot / 4;
            draw_shape(&strip, shape, color, (x, y), r)?;
            strip
                .draw(&Text::new(
                    t.text(label),
                    (x + 2 * r + t.offset(8), y - t.offset(14)),
                    (super::FONT, t.font(28)),
                ))
                .map_err(failed)?;
        }
        Ok(())
    }
}

/// Draws class maps: one square panel per [`Panel`] side by side, each series' points as
/// filled markers with no line (series i has the same shape and colour in every panel), and
/// one legend strip under the panels naming the classes that occur.
///
/// # Examples
///
/// ```
/// use pathology::plot::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel, Style, class_map};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("c.svg");
/// let axes = Axes { title: "t".into(), x_label: "x".into(), y_label: "y".into(),
///                   x_range: (0.0, 1.0), y_range: (0.0, 1.0) };
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
/// [`super::PlotError`] for an extension other than `.png`/`.svg` or a failed write.
pub fn class_map(path: &Path, panels: &[Panel], style: Style) -> Result<()> {
    let t = Theme::new(style);
    let side = t.panel().1;
    let size = (
        side * panels.len().max(1) as u32,
        side + t.px(LEGEND_HEIGHT),
    );
    save_sized(path, size, &ClassFigure { panels }, t)
}
