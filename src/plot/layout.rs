//! How an error-bar figure's panels are laid out. Up to two panels sit side by side on the
//! screen; from three on ([`WIDE`]) they go two to a row with fonts a third larger, so that
//! the figure stays readable when it is shown at the width of a page (three 900-pixel panels
//! in a row shrink every label to a third). Panels that share their series (every legend but
//! one hidden) get the legend a cell of its own after the last panel, where it belongs to all
//! of them, instead of inside the first panel only. A paper's single column stacks the panels
//! and the shared legend's cell.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::style::{self, SeriesStyle, series_styles};
use super::{ErrorSeries, ExactLine, FONT, LegendPosition, Panel, Result, Style, Theme, failed};

/// Panels from which a screen figure is laid out two to a row with larger fonts.
pub(super) const WIDE: usize = 3;

/// Panels in a row of a wide screen figure.
const WIDE_COLUMNS: usize = 2;

/// How much larger a wide screen figure's fonts and label areas are.
pub(super) const WIDE_SCALE: f64 = 4.0 / 3.0;

/// The grid of a figure and the cell of its shared legend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Layout {
    /// Rows of cells.
    pub rows: usize,
    /// Cells in a row.
    pub columns: usize,
    /// The cell (row by row) of the legend that the panels share, if they share one.
    pub legend_cell: Option<usize>,
    /// Fonts and label areas scaled by [`WIDE_SCALE`].
    pub wide: bool,
}

/// The layout of `panels` (with `exact[i]` the exact lines of panel i) in `style`. The legend
/// gets a cell of its own when the panels share it: from three panels on where all but some
/// hide theirs, and in a paper's column wherever every panel names the same curves (a legend
/// at 8 pt inside a single-column panel covers the curves and runs past its edge).
pub(super) fn layout(panels: &[Panel], exact: &[Vec<ExactLine>], style: Style) -> Layout {
    let n = panels.len().max(1);
    let labels = |i: usize| -> Vec<&str> {
        let lines = exact.get(i).map_or(&[][..], |v| &v[..]);
        panels[i]
            .series
            .iter()
            .map(|s| s.label.as_str())
            .chain(lines.iter().map(|l| l.label.as_str()))
            .collect()
    };
    let shown = panels.iter().any(|p| p.legend != LegendPosition::Hidden);
    let alike = panels.len() >= 2 && (1..panels.len()).all(|i| labels(i) == labels(0));
    let shared = shown
        && ((n >= WIDE && panels.iter().any(|p| p.legend == LegendPosition::Hidden))
            || (style == Style::Paper && alike));
    let cells = n + usize::from(shared);
    let (rows, columns, wide) = match style {
        Style::Screen if n < WIDE => (1, n, false),
        Style::Screen => (cells.div_ceil(WIDE_COLUMNS), WIDE_COLUMNS, true),
        Style::Paper => (cells, 1, false),
    };
    Layout {
        rows,
        columns,
        legend_cell: shared.then_some(n),
        wide,
    }
}

/// One entry of a legend cell: its text and how its line looks (style and stroke width).
pub(super) struct Entry<'a> {
    pub label: &'a str,
    pub style: SeriesStyle,
    pub width: u32,
}

/// The entries of the legend of `panel` (its series in `styles`, then its exact lines).
pub(super) fn entries<'a>(
    panel: &'a Panel,
    styles: &[SeriesStyle],
    exact: &'a [ExactLine],
) -> Vec<Entry<'a>> {
    let series = panel.series.iter().zip(styles).map(|(s, &style)| Entry {
        label: &s.label,
        style,
        width: 2,
    });
    let lines = exact.iter().enumerate().map(|(i, line)| {
        let (color, dash, width) = style::exact_line_style(i);
        Entry {
            label: &line.label,
            style: SeriesStyle {
                color,
                shape: None,
                radius: 0,
                dash: Some(dash),
            },
            width,
        }
    });
    series.chain(lines).collect()
}

/// Draws `entries` as a legend filling the cell `area`: a heading, then one line per entry
/// (the line's dash and marker, twice a panel legend's length, and its text), centred.
pub(super) fn legend_cell<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry<'_>],
    t: Theme,
) -> Result<()> {
    let (width, height) = area.dim_in_pixel();
    let font = t.font(16);
    let line = (font * 1.7).round() as i32;
    let count = i32::try_from(entries.len() + 1).unwrap_or(i32::MAX);
    let top = ((height as i32) - line * count).max(0) / 2 + line / 2;
    let left = (width as i32) / 20;
    let centred = Pos::new(HPos::Left, VPos::Center);
    let text = |s: String, x: i32, y: i32| {
        Text::new(
            s,
            (x, y),
            (FONT, font).into_font().color(&BLACK).pos(centred),
        )
    };
    area.draw(&text(t.text("legend of every panel"), left, top))
        .map_err(failed)?;
    // Lines twice a panel legend's length on the screen, markers a little larger.
    let scale = (t.px(3) / 2).max(1);
    for (k, entry) in entries.iter().enumerate() {
        let y = top + line * (k as i32 + 1);
        let sample = style::legend_entry((left, y), entry.style, t.px(entry.width), scale);
        area.draw(&sample).map_err(failed)?;
        let gap = 24 * scale as i32 + t.offset(16);
        area.draw(&text(t.text(entry.label), left + gap, y))
            .map_err(failed)?;
    }
    Ok(())
}

/// The width in pixels of the strip beside a plot area that a legend of `entries` needs
/// ([`LegendPosition::Right`]): its longest text and a line sample, at most two fifths of
/// the panel's `width`.
pub(super) fn beside_width(entries: &[Entry<'_>], width: u32, t: Theme) -> u32 {
    let font = t.font(16);
    let longest = entries
        .iter()
        .map(|e| t.text(e.label).chars().count())
        .max()
        .unwrap_or(0);
    // DejaVu Sans averages under half the font size per character (measured: 0.40).
    let text = (longest as f64 * font * 0.45).ceil() as u32;
    let sample = 24 * (t.px(3) / 2).max(1) + t.px(16);
    (text + sample + t.px(30)).min(width * 2 / 5)
}

/// Draws `entries` as a legend in the strip `area` beside a plot area, one line per entry
/// (the line's dash and marker and its text), from `top` pixels (the top of the plot area
/// beside) down.
pub(super) fn legend_beside<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry<'_>],
    top: i32,
    t: Theme,
) -> Result<()> {
    let font = t.font(16);
    let line = (font * 1.7).round() as i32;
    let top = top + line / 2;
    let left = t.offset(6);
    let centred = Pos::new(HPos::Left, VPos::Center);
    let scale = (t.px(3) / 2).max(1);
    for (k, entry) in entries.iter().enumerate() {
        let y = top + line * k as i32;
        let sample = style::legend_entry((left, y), entry.style, t.px(entry.width), scale);
        area.draw(&sample).map_err(failed)?;
        let gap = 24 * scale as i32 + t.offset(10);
        area.draw(&Text::new(
            t.text(entry.label),
            (left + gap, y),
            (FONT, font).into_font().color(&BLACK).pos(centred),
        ))
        .map_err(failed)?;
    }
    Ok(())
}

/// The series styles of every panel of a figure: a series label that hides an earlier series
/// in any panel is dashed in all of them, so that a label looks the same throughout; when the
/// panels have as many series each, the series at one position (one role) are styled alike.
pub(super) fn panel_styles(panels: &[Panel]) -> Vec<Vec<SeriesStyle>> {
    let points = |p: &Panel| -> Vec<Vec<(f64, f64)>> {
        p.series
            .iter()
            .map(|s| s.points.iter().map(|q| (q.x, q.y)).collect())
            .collect()
    };
    // Panels with as many series as each other show the same roles in the same order (one
    // domain's heuristic, depth pairs per panel): the i-th series looks the same in all.
    let by_position = panels
        .windows(2)
        .all(|w| w[0].series.len() == w[1].series.len());
    let mut dashed_labels: Vec<&str> = Vec::new();
    let mut dashed_positions: Vec<usize> = Vec::new();
    for p in panels {
        let span = p.axes.y_range.1 - p.axes.y_range.0;
        for (i, (s, hides)) in p
            .series
            .iter()
            .zip(style::hiding(&points(p), span))
            .enumerate()
        {
            if hides {
                dashed_labels.push(&s.label);
                dashed_positions.push(i);
            }
        }
    }
    panels
        .iter()
        .map(|p| {
            let dashed: Vec<bool> = p
                .series
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    dashed_labels.contains(&s.label.as_str())
                        || (by_position && dashed_positions.contains(&i))
                })
                .collect();
            series_styles(p.series.len(), &dashed, true)
        })
        .collect()
}

/// The panels with every y range widened to cover those of the panels with the same y label.
pub(super) fn shared_y_ranges(panels: &[Panel]) -> Vec<Panel> {
    panels
        .iter()
        .map(|p| {
            let mut shared = p.clone();
            for q in panels.iter().filter(|q| q.axes.y_label == p.axes.y_label) {
                shared.axes.y_range.0 = shared.axes.y_range.0.min(q.axes.y_range.0);
                shared.axes.y_range.1 = shared.axes.y_range.1.max(q.axes.y_range.1);
            }
            shared
        })
        .collect()
}

/// Marks the sampled series of a panel that also shows exact curves (its own exact lines, or
/// series without intervals) with " (sampled)", so that a reader tells estimates from exact
/// values by the legend as well as by the bars. A series is sampled when some point has an
/// interval; a label that says so already ("sampled", "95%") is kept.
pub(super) fn mark_sampled(panel: &mut Panel, exact_lines: bool) {
    let sampled = |s: &ErrorSeries| s.points.iter().any(|p| p.high > p.low);
    let mixed = exact_lines || panel.series.iter().any(|s| !sampled(s));
    if !mixed {
        return;
    }
    for s in &mut panel.series {
        if sampled(s) && !s.label.contains("sampled") && !s.label.contains("95%") {
            // Into a closing parenthetical if there is one: "x (ours, sampled)".
            match s.label.strip_suffix(')') {
                Some(open) if open.contains('(') => s.label = format!("{open}, sampled)"),
                _ => s.label.push_str(" (sampled)"),
            }
        }
    }
}

/// The series styles of the panels of several figures, decided over all of them together
/// ([`panel_styles`]), panel after panel in the figures' order: a series looks the same in
/// every figure.
pub(super) fn alike_styles(figures: &[&[Panel]]) -> Vec<Vec<SeriesStyle>> {
    let all: Vec<Panel> = figures
        .iter()
        .flat_map(|panels| shared_y_ranges(panels))
        .collect();
    panel_styles(&all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::figure::{Axes, ErrorPoint, Scale};

    fn panel(legend: LegendPosition) -> Panel {
        Panel {
            axes: Axes {
                title: "t".into(),
                x_label: "x".into(),
                y_label: "y".into(),
                x_range: (0.0, 1.0),
                x_scale: Scale::Linear,
                y_range: (0.0, 1.0),
            },
            series: vec![ErrorSeries {
                label: "a".into(),
                points: Vec::new(),
            }],
            legend,
            reference: None,
        }
    }

    /// Three panels in a row (2,700 pixels) were unreadable at page width
    /// and carried a shared legend in one panel only.
    #[test]
    fn three_or_more_panels_go_two_to_a_row_with_the_shared_legend_in_its_own_cell() {
        use LegendPosition::{Hidden, LowerRight};
        let shared = [panel(LowerRight), panel(Hidden), panel(Hidden)];
        let l = layout(&shared, &[], Style::Screen);
        assert_eq!(
            (l.rows, l.columns, l.legend_cell, l.wide),
            (2, 2, Some(3), true)
        );
        let six: Vec<Panel> = (0..6)
            .map(|i| panel(if i == 0 { LowerRight } else { Hidden }))
            .collect();
        let l = layout(&six, &[], Style::Screen);
        assert_eq!((l.rows, l.columns, l.legend_cell), (4, 2, Some(6)));
        // Every panel with its own legend: no legend cell.
        let own = [panel(LowerRight), panel(LowerRight), panel(LowerRight)];
        let l = layout(&own, &[], Style::Screen);
        assert_eq!((l.rows, l.columns, l.legend_cell), (2, 2, None));
        // Two panels stay side by side as before.
        let two = [panel(LowerRight), panel(Hidden)];
        let l = layout(&two, &[], Style::Screen);
        assert_eq!(
            (l.rows, l.columns, l.legend_cell, l.wide),
            (1, 2, None, false)
        );
        // Paper: one column, the legend's cell below the panels.
        let l = layout(&shared, &[], Style::Paper);
        assert_eq!((l.rows, l.columns, l.legend_cell), (4, 1, Some(3)));
        // Paper: panels that name the same curves (Wilson et al.'s b = 2 and 3) share a legend
        // below them; on the screen each keeps its own.
        let alike = [panel(LowerRight), panel(LowerRight)];
        let l = layout(&alike, &[], Style::Paper);
        assert_eq!((l.rows, l.columns, l.legend_cell), (3, 1, Some(2)));
        let l = layout(&alike, &[], Style::Screen);
        assert_eq!((l.rows, l.columns, l.legend_cell), (1, 2, None));
        // Different curves (or exact lines) keep their own legends.
        let line = |label: &str| ExactLine {
            label: label.into(),
            points: Vec::new(),
        };
        let exact = [vec![line("exact a")], vec![line("exact b")]];
        let l = layout(&alike, &exact, Style::Paper);
        assert_eq!((l.rows, l.legend_cell), (2, None));
        let single = [panel(LowerRight)];
        assert_eq!(layout(&single, &[], Style::Paper).legend_cell, None);
    }

    /// Sampled curves beside exact ones say "(sampled)".
    #[test]
    fn sampled_series_beside_exact_ones_are_marked() {
        let point = |y: f64, half: f64| ErrorPoint {
            x: 1.0,
            y,
            low: y - half,
            high: y + half,
        };
        let mut p = panel(LegendPosition::LowerRight);
        p.series = vec![
            ErrorSeries {
                label: "manhattan (exact)".into(),
                points: vec![point(0.5, 0.0)],
            },
            ErrorSeries {
                label: "manhattan + noise sigma = 1".into(),
                points: vec![point(0.4, 0.01)],
            },
            ErrorSeries {
                label: "e1 (95%)".into(),
                points: vec![point(0.4, 0.01)],
            },
            ErrorSeries {
                label: "minimax on the fraction (ours)".into(),
                points: vec![point(0.4, 0.01)],
            },
        ];
        let alone = Panel {
            series: p.series[1..].to_vec(),
            ..p.clone()
        };
        mark_sampled(&mut p, false);
        let labels: Vec<&str> = p.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "manhattan (exact)",
                "manhattan + noise sigma = 1 (sampled)",
                "e1 (95%)",
                "minimax on the fraction (ours, sampled)"
            ]
        );
        // Only estimates, no exact line: nothing to tell apart.
        let mut only = alone.clone();
        mark_sampled(&mut only, false);
        assert_eq!(only.series[0].label, "manhattan + noise sigma = 1");
        // Beside an exact line they are marked.
        let mut beside = alone;
        mark_sampled(&mut beside, true);
        assert_eq!(
            beside.series[0].label,
            "manhattan + noise sigma = 1 (sampled)"
        );
    }

    /// The two critical-curve figures (gamma = 0.9 and 1) gave the same
    /// heuristic different dash patterns, each figure deciding its own.
    #[test]
    fn the_critical_curve_figures_draw_each_series_alike() {
        use crate::studies::critical_curves::{CriticalStudy, GAMMAS};
        let study = CriticalStudy::compute(8).unwrap();
        let figures: Vec<Vec<Panel>> = GAMMAS.iter().map(|g| study.panels(g)).collect();
        let slices: Vec<&[Panel]> = figures.iter().map(Vec::as_slice).collect();
        let styles = alike_styles(&slices);
        let panels: Vec<&Panel> = figures.iter().flatten().collect();
        assert_eq!(styles.len(), panels.len());
        let mut seen: Vec<(&str, SeriesStyle)> = Vec::new();
        for (panel, styles) in panels.iter().zip(&styles) {
            for (series, &style) in panel.series.iter().zip(styles) {
                match seen.iter().find(|(label, _)| *label == series.label) {
                    Some((_, first)) => assert_eq!(*first, style, "{}", series.label),
                    None => seen.push((&series.label, style)),
                }
            }
        }
        assert!(seen.len() >= 5, "{}", seen.len());
    }
}
