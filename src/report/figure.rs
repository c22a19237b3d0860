//! Figure data: what a figure shows, as plain values that the layers below [`crate::plot`]
//! build and [`crate::plot`] draws (PNG or SVG, screen or paper style). Like the report
//! schema, it knows no experiment and no drawing library.

/// One labelled series of points.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The legend entry.
    pub label: String,
    /// The points `(x, y)`.
    pub points: Vec<(f64, f64)>,
}

/// A line chart's axes.
#[derive(Debug, Clone, PartialEq)]
pub struct Axes {
    /// Caption.
    pub title: String,
    /// x-axis description.
    pub x_label: String,
    /// y-axis description.
    pub y_label: String,
    /// x range.
    pub x_range: (f64, f64),
    /// How the x axis places its values.
    pub x_scale: Scale,
    /// y range.
    pub y_range: (f64, f64),
}

/// How an axis places its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scale {
    /// Equal steps at equal distances.
    #[default]
    Linear,
    /// Logarithmic, with a tick at every power of 2 in the range: for budgets that double
    /// (n = 1, 2, 4, ..., 64), each doubling one step. The range and every value drawn on
    /// it must be positive.
    Log2,
}

/// The corner of a panel where its legend goes, if it has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegendPosition {
    /// Upper left.
    UpperLeft,
    /// Upper right.
    UpperRight,
    /// Lower left.
    LowerLeft,
    /// Lower right.
    LowerRight,
    /// Beside the plot area, to its right, outside it: for a panel whose curves leave no
    /// corner free (a probability axis ends at 1, and the curves reach it).
    Right,
    /// No legend (a figure whose panels share their series shows it in one panel only).
    Hidden,
}

/// A y range covering every interval `(low, high)` and the value `include`, with a margin of
/// a tenth of the span plus 0.005, rounded outward to steps of 0.01.
///
/// # Examples
///
/// ```
/// use pathology::report::figure::interval_y_range;
/// assert_eq!(interval_y_range([(0.48, 0.52)].into_iter(), 0.5), (0.47, 0.53));
/// ```
pub fn interval_y_range(intervals: impl Iterator<Item = (f64, f64)>, include: f64) -> (f64, f64) {
    let (low, high) = intervals.fold((include, include), |(l, h), (low, high)| {
        (l.min(low), h.max(high))
    });
    let margin = 0.1 * (high - low) + 0.005;
    (
        ((low - margin) * 100.0).floor() / 100.0,
        ((high + margin) * 100.0).ceil() / 100.0,
    )
}

/// A point of an estimate with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ErrorPoint {
    /// x.
    pub x: f64,
    /// The estimate.
    pub y: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

/// One labelled series of estimates with interval bars.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorSeries {
    /// The legend entry.
    pub label: String,
    /// The points.
    pub points: Vec<ErrorPoint>,
}

/// One chart of an error-bar figure ([`crate::plot::error_bar_chart`]): axes, series, where the legend goes and an optional
/// dashed horizontal reference line.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// The axes.
    pub axes: Axes,
    /// The series, one colour each.
    pub series: Vec<ErrorSeries>,
    /// The legend's corner.
    pub legend: LegendPosition,
    /// A dashed horizontal line at this y (e.g. 1/2 for an even match).
    pub reference: Option<f64>,
}

/// An exact curve drawn over a panel of estimates (e.g. [`crate::analytic::families`]'s D(d,h) beside the
/// Monte Carlo fractions of correct decisions), as a dashed line.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactLine {
    /// The legend entry.
    pub label: String,
    /// The points `(x, y)`.
    pub points: Vec<(f64, f64)>,
}
