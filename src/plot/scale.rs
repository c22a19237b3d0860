//! x axes: whole-number ticks, and a [`Scale::Log2`] axis drawn as a linear axis of base-2
//! logarithms (the values and the range go in as their logarithms, and the mesh labels the
//! whole number v as 2^v).

use super::{Axes, ExactLine, Panel, PlotError, Result, Scale, Series, tick_label};

/// `x` as its base-2 logarithm, for a [`Scale::Log2`] axis drawn on a linear one.
pub(super) fn log2_of(x: f64) -> Result<f64> {
    if x > 0.0 && x.is_finite() {
        Ok(x.log2())
    } else {
        Err(PlotError(format!(
            "a logarithmic x axis needs positive values and a positive range, not {x}"
        )))
    }
}

/// `axes` with a [`Scale::Log2`] x range as the logarithms of its ends (the scale kept, so
/// that `configure_mesh` labels the whole numbers v as 2^v); a linear one as it is.
pub(super) fn linear_axes(axes: &Axes) -> Result<Axes> {
    let mut drawn = axes.clone();
    if axes.x_scale == Scale::Log2 {
        drawn.x_range = (log2_of(axes.x_range.0)?, log2_of(axes.x_range.1)?);
    }
    Ok(drawn)
}

/// `panel` and its exact lines with every x on a [`Scale::Log2`] axis as its base-2
/// logarithm (the figure is then drawn on a linear axis, ticks labelled as powers of 2).
pub(super) fn linear_panel(panel: &Panel, exact: &[ExactLine]) -> Result<(Panel, Vec<ExactLine>)> {
    if panel.axes.x_scale == Scale::Linear {
        return Ok((panel.clone(), exact.to_vec()));
    }
    let mut drawn = panel.clone();
    drawn.axes = linear_axes(&panel.axes)?;
    for series in &mut drawn.series {
        for point in &mut series.points {
            point.x = log2_of(point.x)?;
        }
    }
    let mut lines = exact.to_vec();
    for line in &mut lines {
        for point in &mut line.points {
            point.0 = log2_of(point.0)?;
        }
    }
    Ok((drawn, lines))
}

/// A tick label on a [`Scale::Log2`] axis drawn as logarithms: at a whole number v, 2^v
/// ("1", "2", ..., "64"; "0.5" below 1), anything else no label.
pub(super) fn power_of_two_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        tick_label(2f64.powf(v.round()))
    } else {
        String::new()
    }
}

/// `axes` and `series` as [`linear_axes`] and [`linear_panel`] make them (the series of a
/// line chart).
pub(super) fn linear_series(axes: &Axes, series: &[Series]) -> Result<(Axes, Vec<Series>)> {
    let drawn = linear_axes(axes)?;
    if axes.x_scale == Scale::Linear {
        return Ok((drawn, series.to_vec()));
    }
    let series = series
        .iter()
        .map(|s| {
            let points = s
                .points
                .iter()
                .map(|&(x, y)| log2_of(x).map(|x| (x, y)))
                .collect::<Result<Vec<_>>>()?;
            Ok(Series {
                label: s.label.clone(),
                points,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((drawn, series))
}

/// Whether every x of a chart is a whole number (search depths, heights): such an axis gets
/// whole-number ticks only in paper style.
pub(super) fn integer_axis(mut xs: impl Iterator<Item = f64>) -> bool {
    let mut any = false;
    let all = xs.all(|x| {
        any = true;
        (x - x.round()).abs() < 1e-9
    });
    any && all
}

/// Tick count that puts a tick at every whole number of `range` (at most 12 of them).
pub(super) fn integer_labels(range: (f64, f64)) -> usize {
    let whole = (range.1.floor() - range.0.ceil()).max(0.0) as usize + 1;
    whole.min(12)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_axis_is_drawn_as_logarithms_labelled_as_powers_of_two() {
        assert_eq!(power_of_two_label(6.0), "64");
        assert_eq!(power_of_two_label(-1.0), "0.5");
        assert_eq!(power_of_two_label(2.5), "");
        let axes = Axes {
            title: "t".into(),
            x_label: "n".into(),
            y_label: "P".into(),
            x_range: (1.0, 64.0),
            x_scale: Scale::Log2,
            y_range: (0.0, 1.0),
        };
        let series = [Series {
            label: "s".into(),
            points: vec![(1.0, 0.5), (8.0, 0.7)],
        }];
        let (drawn, points) = linear_series(&axes, &series).unwrap();
        assert_eq!(drawn.x_range, (0.0, 6.0));
        assert_eq!(points[0].points, vec![(0.0, 0.5), (3.0, 0.7)]);
        // A value that has no logarithm is refused, not drawn somewhere.
        let bad = [Series {
            label: "s".into(),
            points: vec![(0.0, 0.5)],
        }];
        assert!(linear_series(&axes, &bad).is_err());
        // A linear axis is left as it is.
        let linear = Axes {
            x_scale: Scale::Linear,
            ..axes
        };
        assert_eq!(linear_series(&linear, &bad).unwrap().1, bad.to_vec());
    }
}
