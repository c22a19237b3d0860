//! The one figure style every chart draws with: a palette of ten distinct
//! colours; a marker shape per series (nested sizes, so that coinciding points stay visible);
//! a dash pattern for a series that would hide an earlier one, and for every other series of
//! a panel with more than eight; legend entries drawn with the line's own dash and marker;
//! reference lines (papers' values, exact minimax, chance) drawn first and thin; tick labels
//! without needless zeros, never "-0", and whole numbers only on an integer axis.

use plotters::element::ComposedElement;
use plotters::prelude::*;

/// The series colours: the six of Okabe and Ito without black and yellow, then four more that
/// stay apart from them and from each other (and from the black and grey of references).
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(120, 60, 20),
    RGBColor(110, 40, 160),
    RGBColor(150, 150, 0),
    RGBColor(200, 20, 60),
];

/// Marker shapes, cycled per series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Cross,
    Plus,
}

/// The shapes in the order series take them.
pub(crate) const SHAPES: [Shape; 7] = [
    Shape::Circle,
    Shape::Square,
    Shape::TriangleUp,
    Shape::Diamond,
    Shape::TriangleDown,
    Shape::Cross,
    Shape::Plus,
];

/// Dash patterns (dash, gap) in screen pixels, cycled over the dashed series.
pub(crate) const DASHES: [(u32, u32); 4] = [(9, 4), (4, 4), (14, 5), (6, 3)];

/// The dash of reference lines (exact curves, papers' values, chance).
pub(crate) const REFERENCE_DASH: (u32, u32) = (8, 4);

/// The look of the `i`-th exact line of a panel, drawn over the estimates' markers: black
/// dashes, then grey dots, then black long dashes (and round again), two pixels wide, so that
/// two exact lines of one panel (Teague's two values) never look alike.
pub(crate) fn exact_line_style(i: usize) -> (RGBColor, (u32, u32), u32) {
    const LOOKS: [(RGBColor, (u32, u32)); 3] = [
        (RGBColor(0, 0, 0), (8, 4)),
        (RGBColor(110, 110, 110), (3, 3)),
        (RGBColor(0, 0, 0), (18, 5)),
    ];
    let (color, dash) = LOOKS[i % LOOKS.len()];
    (color, dash, 2)
}

/// Series in a panel beyond which every other series is dashed as well.
pub(crate) const DASH_BEYOND: usize = 8;

/// The smallest and largest marker radius in screen pixels: the first series of a panel gets
/// the largest, the last the smallest (a pixel apart while few), so that markers of coinciding
/// points nest.
const MARKER_RADII: (u32, u32) = (4, 7);

/// How one series is drawn, line and legend entry alike.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SeriesStyle {
    pub color: RGBColor,
    /// `None`: no markers (dense curves).
    pub shape: Option<Shape>,
    /// Marker radius in screen pixels.
    pub radius: u32,
    /// `None`: solid.
    pub dash: Option<(u32, u32)>,
}

/// Whether series `later` would hide `earlier` when drawn over it: at least a third of its
/// points (and at least two, or all of a shorter series) sit on points of `earlier` at the same
/// x, within `tolerance` in y.
pub(crate) fn hides(later: &[(f64, f64)], earlier: &[(f64, f64)], tolerance: f64) -> bool {
    let same = later
        .iter()
        .filter(|p| {
            earlier
                .iter()
                .any(|q| (q.0 - p.0).abs() < 1e-9 && (q.1 - p.1).abs() <= tolerance)
        })
        .count();
    let needed = (later.len().div_ceil(3)).max(2).min(later.len());
    !later.is_empty() && same >= needed
}

/// The styles of `count` series, of which those with `dashed[i]` set are dashed: colour and
/// shape by index, radii nested from large to small, and every other series dashed as well when
/// more than [`DASH_BEYOND`] share the panel.
pub(crate) fn series_styles(count: usize, dashed: &[bool], markers: bool) -> Vec<SeriesStyle> {
    let (small, large) = MARKER_RADII;
    let mut next_dash = 0;
    (0..count)
        .map(|i| {
            // One pixel a series up to the largest radius, so that few series stay alike.
            let spread = (large - small).min(count.saturating_sub(1) as u32) as usize;
            let step = if count > 1 {
                (spread * (count - 1 - i)).div_ceil(count - 1) as u32
            } else {
                0
            };
            let dash = (dashed.get(i).copied().unwrap_or(false)
                || (count > DASH_BEYOND && i % 2 == 1))
                .then(|| {
                    let d = DASHES[next_dash % DASHES.len()];
                    next_dash += 1;
                    d
                });
            SeriesStyle {
                color: PALETTE[i % PALETTE.len()],
                shape: markers.then_some(SHAPES[i % SHAPES.len()]),
                radius: small + step,
                dash,
            }
        })
        .collect()
}

/// Which of `series` (point lists, in drawing order) hide an earlier one ([`hides`]), with the
/// tolerance a fraction of the y span `y_span`.
pub(crate) fn hiding(series: &[Vec<(f64, f64)>], y_span: f64) -> Vec<bool> {
    let tolerance = 0.004 * y_span.abs();
    series
        .iter()
        .enumerate()
        .map(|(j, later)| series[..j].iter().any(|e| hides(later, e, tolerance)))
        .collect()
}

/// A closed outline of `shape` of radius `r` pixels, as offsets from its centre (a cross and a
/// plus retrace their middle, so that one path draws them).
pub(crate) fn outline(shape: Shape, r: i32) -> Vec<(i32, i32)> {
    match shape {
        Shape::Circle => (0..=24)
            .map(|k| {
                let a = f64::from(k) * std::f64::consts::TAU / 24.0;
                (
                    (f64::from(r) * a.cos()).round() as i32,
                    (f64::from(r) * a.sin()).round() as i32,
                )
            })
            .collect(),
        Shape::Square => {
            let s = (f64::from(r) * 0.85).round() as i32;
            vec![(-s, -s), (s, -s), (s, s), (-s, s), (-s, -s)]
        }
        Shape::TriangleUp => {
            let h = (f64::from(r) * 0.6).round() as i32;
            vec![(0, -r), (r, h), (-r, h), (0, -r)]
        }
        Shape::TriangleDown => {
            let h = (f64::from(r) * 0.6).round() as i32;
            vec![(0, r), (r, -h), (-r, -h), (0, r)]
        }
        Shape::Diamond => vec![(0, -r), (r, 0), (0, r), (-r, 0), (0, -r)],
        Shape::Cross => {
            let s = (f64::from(r) * 0.8).round() as i32;
            vec![(-s, -s), (s, s), (0, 0), (s, -s), (-s, s)]
        }
        Shape::Plus => vec![(-r, 0), (r, 0), (0, 0), (0, -r), (0, r)],
    }
}

/// The dashes of a legend entry `length` pixels long, four segments as `(from, to)` offsets
/// (unused ones empty); a solid line is one segment.
pub(crate) fn legend_dashes(dash: Option<(u32, u32)>, length: i32) -> [Option<(i32, i32)>; 4] {
    let mut out = [None; 4];
    match dash {
        None => out[0] = Some((0, length)),
        Some((on, off)) => {
            let (on, period) = (on as i32, (on + off) as i32);
            for (k, slot) in out.iter_mut().enumerate() {
                let from = k as i32 * period;
                if from < length {
                    *slot = Some((from, (from + on).min(length)));
                }
            }
        }
    }
    out
}

/// A tick label: the value with at most six decimals and no trailing zeros, a whole number
/// without a point, and never "-0".
///
/// # Examples
///
/// ```
/// use pathology::plot::tick_label;
/// assert_eq!(tick_label(0.5), "0.5");
/// assert_eq!(tick_label(1.0), "1");
/// assert_eq!(tick_label(-0.0), "0");
/// assert_eq!(tick_label(-1e-12), "0");
/// assert_eq!(tick_label(0.30000000000000004), "0.3");
/// assert_eq!(tick_label(-0.05), "-0.05");
/// ```
pub fn tick_label(x: f64) -> String {
    let text = format!("{x:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "-0" | "" => "0".to_string(),
        other => other.to_string(),
    }
}

/// A tick label on an integer axis: whole numbers as such ("10", never "10.0"), anything else
/// no label.
///
/// # Examples
///
/// ```
/// use pathology::plot::integer_tick_label;
/// assert_eq!(integer_tick_label(10.0), "10");
/// assert_eq!(integer_tick_label(-0.0), "0");
/// assert_eq!(integer_tick_label(10.5), "");
/// ```
pub fn integer_tick_label(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        tick_label(x.round())
    } else {
        String::new()
    }
}

/// A legend entry: four dashes and a marker, each a path in pixels.
pub(crate) type LegendEntry<DB> = ComposedElement<
    (i32, i32),
    DB,
    Path,
    ComposedElement<
        (i32, i32),
        DB,
        ComposedElement<(i32, i32), DB, ComposedElement<(i32, i32), DB, Path, Path>, Path>,
        Path,
    >,
>;

type Path = PathElement<(i32, i32)>;

/// The legend entry of a line in `style`: its dash pattern over 24 pixels (scaled by `px`),
/// with its marker in the middle.
pub(crate) fn legend_entry<DB: DrawingBackend>(
    (x, y): (i32, i32),
    style: SeriesStyle,
    width: u32,
    px: u32,
) -> LegendEntry<DB> {
    let scale = px as i32;
    let length = 24 * scale;
    let dash = style.dash.map(|(on, off)| (on * px, off * px));
    let stroke = ShapeStyle::from(style.color).stroke_width(width);
    let segment = |k: usize| {
        let points = legend_dashes(dash, length)[k]
            .map(|(a, b)| vec![(a, 0), (b, 0)])
            .unwrap_or_default();
        PathElement::new(points, stroke)
    };
    let marker = style
        .shape
        .map(|s| outline(s, (style.radius * px).min(7 * px) as i32))
        .unwrap_or_default()
        .into_iter()
        .map(|(dx, dy)| (dx + length / 2, dy))
        .collect::<Vec<_>>();
    EmptyElement::at((x, y))
        + segment(0)
        + segment(1)
        + segment(2)
        + segment(3)
        + PathElement::new(
            marker,
            ShapeStyle::from(style.color).stroke_width(px.max(1) + 1),
        )
}

/// The indices of the points of a polyline (in pixels) that Ramer-Douglas-Peucker keeps at
/// `tolerance` pixels: the ends, and every point farther than that from the chord of the
/// points kept around it. A thick line through many close points is drawn by plotters as one
/// polygon whose every vertex is rounded to a whole pixel, so a smooth curve sampled densely
/// comes out jagged; through the few points that matter it comes out smooth.
pub(crate) fn simplified(points: &[(f64, f64)], tolerance: f64) -> Vec<usize> {
    if points.len() <= 2 {
        return (0..points.len()).collect();
    }
    let mut keep = vec![false; points.len()];
    keep[0] = true;
    keep[points.len() - 1] = true;
    let mut stack = vec![(0, points.len() - 1)];
    while let Some((first, last)) = stack.pop() {
        let (a, b) = (points[first], points[last]);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let length = dx.hypot(dy);
        let distance = |p: (f64, f64)| {
            if length > 0.0 {
                ((p.0 - a.0) * dy - (p.1 - a.1) * dx).abs() / length
            } else {
                (p.0 - a.0).hypot(p.1 - a.1)
            }
        };
        let farthest = (first + 1..last)
            .map(|i| (i, distance(points[i])))
            .max_by(|x, y| x.1.total_cmp(&y.1));
        if let Some((i, d)) = farthest
            && d > tolerance
        {
            keep[i] = true;
            stack.push((first, i));
            stack.push((i, last));
        }
    }
    (0..points.len()).filter(|&i| keep[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_has_ten_distinct_colours_apart_from_black_and_grey() {
        let mut seen = std::collections::HashSet::new();
        for c in PALETTE {
            assert!(seen.insert((c.0, c.1, c.2)), "{c:?} twice");
            // Not black, not a grey (references are drawn in those).
            assert!(c.0.max(c.1).max(c.2) - c.0.min(c.1).min(c.2) > 60, "{c:?}");
        }
        assert!(PALETTE.len() >= 10);
        // Any two colours differ clearly (sum of channel differences; Okabe and Ito's
        // vermillion and orange, the closest pair, differ by 82).
        for (i, a) in PALETTE.iter().enumerate() {
            for b in &PALETTE[i + 1..] {
                let d =
                    a.0.abs_diff(b.0) as u32 + a.1.abs_diff(b.1) as u32 + a.2.abs_diff(b.2) as u32;
                assert!(d >= 80, "{a:?} and {b:?} differ by {d}");
            }
        }
    }

    #[test]
    fn tick_labels_have_no_negative_zero_and_no_needless_zeros() {
        for (x, label) in [
            (-0.0, "0"),
            (-1e-9, "0"),
            (0.0, "0"),
            (0.5, "0.5"),
            (1.5, "1.5"),
            (10.0, "10"),
            (-0.05, "-0.05"),
            (0.125, "0.125"),
        ] {
            assert_eq!(tick_label(x), label, "{x}");
        }
        assert_eq!(integer_tick_label(11.0), "11");
        assert_eq!(integer_tick_label(10.5), "");
        assert_eq!(integer_tick_label(-0.0), "0");
    }

    #[test]
    fn more_than_eight_series_get_distinct_colour_marker_and_dash_combinations() {
        let styles = series_styles(10, &[], true);
        let mut seen = std::collections::HashSet::new();
        for s in &styles {
            let colour = (s.color.0, s.color.1, s.color.2);
            assert!(seen.insert(colour), "colour {colour:?} twice");
        }
        assert_eq!(styles.iter().filter(|s| s.dash.is_some()).count(), 5);
        // Radii nest: the first series' markers are the largest.
        assert!(styles.windows(2).all(|w| w[0].radius >= w[1].radius));
        assert_eq!(styles[0].radius, MARKER_RADII.1);
        assert_eq!(styles[9].radius, MARKER_RADII.0);
        // Up to eight: solid unless hiding another.
        let few = series_styles(6, &[false, true], true);
        assert_eq!(few[1].dash, Some(DASHES[0]));
        assert!(
            few.iter()
                .enumerate()
                .all(|(i, s)| s.dash.is_some() == (i == 1))
        );
    }

    #[test]
    fn a_series_on_top_of_an_earlier_one_is_found() {
        let a = vec![(1.0, 1.0), (2.0, 1.0), (3.0, 1.0), (4.0, 0.5)];
        let b = vec![(1.0, 1.0), (2.0, 1.0), (3.0, 0.9), (4.0, 0.7)];
        let c = vec![(1.0, 0.2), (2.0, 0.3), (3.0, 0.4), (4.0, 0.6)];
        assert_eq!(hiding(&[a.clone(), b, c], 1.0), [false, true, false]);
        assert!(!hides(&[], &a, 0.01));
    }

    #[test]
    fn legend_dashes_follow_the_line_and_solid_lines_are_one_stroke() {
        assert_eq!(legend_dashes(None, 24), [Some((0, 24)), None, None, None]);
        assert_eq!(
            legend_dashes(Some((8, 4)), 24),
            [Some((0, 8)), Some((12, 20)), None, None]
        );
        assert_eq!(
            legend_dashes(Some((4, 4)), 24),
            [Some((0, 4)), Some((8, 12)), Some((16, 20)), None]
        );
    }

    #[test]
    fn marker_outlines_are_closed_and_within_their_radius() {
        for shape in SHAPES {
            let points = outline(shape, 6);
            assert!(points.len() >= 4, "{shape:?}");
            assert!(
                points.iter().all(|p| p.0.abs() <= 6 && p.1.abs() <= 6),
                "{shape:?}"
            );
        }
    }

    /// The rhf and depth-one error curves were jagged: a thick line through
    /// 100-200 points a few pixels apart. Collinear points go, kinks stay, and no dropped
    /// point is farther than the tolerance from the line kept.
    #[test]
    fn dense_curves_keep_only_the_points_that_matter() {
        let straight: Vec<(f64, f64)> = (0..200)
            .map(|i| (f64::from(i), 0.5 * f64::from(i)))
            .collect();
        assert_eq!(simplified(&straight, 0.5), [0, 199]);
        // rhf's shape: a slope down to a kink, then flat.
        let kinked: Vec<(f64, f64)> = (0..=200)
            .map(|i| {
                let x = f64::from(i) * 4.0;
                (x, (400.0 - x).max(0.0))
            })
            .collect();
        assert_eq!(simplified(&kinked, 0.5), [0, 100, 200]);
        let curve: Vec<(f64, f64)> = (0..=100)
            .map(|i| {
                let x = f64::from(i) * 8.0;
                (x, 600.0 - x * x / 800.0)
            })
            .collect();
        let kept = simplified(&curve, 0.75);
        assert!(kept.len() < 30 && kept.len() > 3, "{}", kept.len());
        for w in kept.windows(2) {
            let (a, b) = (curve[w[0]], curve[w[1]]);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            for p in &curve[w[0]..=w[1]] {
                let off = ((p.0 - a.0) * dy - (p.1 - a.1) * dx).abs() / dx.hypot(dy);
                assert!(off <= 0.75 + 1e-9, "{p:?}");
            }
        }
        assert_eq!(simplified(&curve[..2], 0.5), [0, 1]);
    }
}
