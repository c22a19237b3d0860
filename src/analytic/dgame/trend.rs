//! How pathology moves with the height of the tree (beyond Li & Marsland).
//!
//! Li & Marsland (Section 6.2) conjecture that "for sufficiently deep searches, minimax
//! pathology will exist" even with high dependence factors. For each height h this module
//! computes, with `f1 = f2 = f`:
//!
//! - the certified pathology threshold f* of [`super::threshold::pathology_threshold`];
//! - the peak of the pathological sum PS(f) over the grid `f = k/N` and where it occurs.
//!
//! PS values are `f64` with their rigorous rounding bound (see
//! [`super::report::ps_error_bound`]); the peak is reported with the bound of the peak
//! column's PS.

use super::estimate_cost;
use super::table::compute_columns;
use super::threshold::{
    THRESHOLD_TIME_LIMIT_SECONDS, ThresholdReport, pathology_threshold, threshold_cost,
};
use crate::error::{Error, Result};
use crate::progress::Task;

/// One height's threshold and PS peak.
#[derive(Debug, Clone, PartialEq)]
pub struct TrendRow {
    /// The height h.
    pub height: u32,
    /// The certified threshold at this height.
    pub threshold: ThresholdReport,
    /// The largest PS over the grid.
    pub ps_peak: f64,
    /// The f at which it occurs.
    pub ps_peak_at: f64,
    /// A bound on the rounding error of `ps_peak`.
    pub ps_peak_error_bound: f64,
}

/// Bytes held per PS-peak setting at one height: its `f64` column of D values and bounds.
const PEAK_SETTING_BYTES: f64 = 64.0;

/// Estimates a whole trend before any of it runs: each height's threshold scan
/// ([`crate::analytic::dgame::threshold::threshold_cost`]) plus its `peak_steps - 1` PS columns
/// in `f64` ([`crate::analytic::dgame::estimate_cost`]), and the memory of the PS columns of one
/// height; refuses it above [`THRESHOLD_TIME_LIMIT_SECONDS`] or the memory limit, naming the
/// option that dominates.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::trend::check_trend_cost;
/// assert!(check_trend_cost(&[10, 11], 100, 1e-7, 100).is_ok());
/// let e = check_trend_cost(&(10..=40).collect::<Vec<_>>(), 100, 1e-7, 100).unwrap_err();
/// assert!(e.to_string().contains("--to"));
/// let e = check_trend_cost(&[10], 100, 1e-7, u32::MAX).unwrap_err();
/// assert!(e.to_string().contains("--peak-grid"));
/// ```
///
/// # Errors
///
/// [`Error::TooExpensive`] with the estimate; [`Error::InvalidArgument`] for a height outside
/// the engine's range.
pub fn check_trend_cost(
    heights: &[u32],
    grid_steps: u32,
    tolerance: f64,
    peak_steps: u32,
) -> Result<f64> {
    let mut threshold_seconds = 0.0;
    let mut peak_seconds = 0.0;
    for &h in heights {
        super::distribution::check_depth(1, h)?;
        threshold_seconds += threshold_cost(h, grid_steps, tolerance).seconds();
        // The PS columns run in parallel on the two cores.
        peak_seconds += f64::from(peak_steps - 1) * estimate_cost(h, None).seconds / 2.0;
    }
    let seconds = threshold_seconds + peak_seconds;
    let max_height = heights.iter().copied().max().unwrap_or(1);
    let peak_bytes = f64::from(peak_steps) * PEAK_SETTING_BYTES * f64::from(max_height);
    let column_bytes = estimate_cost(max_height, None).bytes;
    let bytes = peak_bytes + column_bytes;
    let (from, to) = (
        heights.iter().copied().min().unwrap_or(1),
        heights.iter().copied().max().unwrap_or(1),
    );
    let what = || format!("the trend over heights {from}..={to}");
    let too_big = bytes > crate::budget::MEMORY_LIMIT_BYTES;
    let hint = if (too_big && peak_bytes > column_bytes)
        || (!too_big && peak_seconds > threshold_seconds)
    {
        "Use a smaller --peak-grid."
    } else if too_big {
        "Use smaller heights (--to)."
    } else if heights.len() > 1 {
        "Use fewer heights (--from, --to), a coarser --grid or a larger --tolerance."
    } else {
        "Use a coarser --grid or a larger --tolerance."
    };
    if too_big {
        return Err(crate::budget::refuse(
            what(),
            format!("{} of memory", crate::budget::estimated_bytes(bytes)),
            crate::budget::human_bytes(crate::budget::MEMORY_LIMIT_BYTES),
            hint,
        ));
    }
    crate::budget::check_seconds(what, seconds, THRESHOLD_TIME_LIMIT_SECONDS, "up to ", hint)?;
    crate::budget::announce_estimate(&what(), seconds);
    Ok(seconds)
}

/// Thresholds and PS peaks for each height in `heights`, the threshold scanned on the grid
/// `k / grid_steps` and bisected to `tolerance`, the PS peak taken over `f = k / peak_steps`,
/// `k = 1..peak_steps-1`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::trend::height_trend;
/// let rows = height_trend(&[8, 10], 50, 1e-4, 20).unwrap();
/// assert!(rows[0].threshold.estimate().unwrap() < rows[1].threshold.estimate().unwrap());
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] for an empty height list or `peak_steps < 2`, and the errors of
/// [`pathology_threshold`] and [`compute_columns`].
pub fn height_trend(
    heights: &[u32],
    grid_steps: u32,
    tolerance: f64,
    peak_steps: u32,
) -> Result<Vec<TrendRow>> {
    if heights.is_empty() {
        return Err(Error::invalid("heights", "at least one height", "none"));
    }
    if peak_steps < 2 {
        return Err(Error::invalid("--peak-grid", "at least 2", peak_steps));
    }
    check_trend_cost(heights, grid_steps, tolerance, peak_steps)?;
    let task = Task::start("trend", "heights", heights.len() as u64, true);
    heights
        .iter()
        .map(|&h| {
            let threshold = pathology_threshold(h, grid_steps, tolerance)?;
            let settings: Vec<(f64, f64)> = (1..peak_steps)
                .map(|k| {
                    let f = f64::from(k) / f64::from(peak_steps);
                    (f, f)
                })
                .collect();
            let columns = compute_columns(&settings, h)?;
            let (index, peak) = columns
                .iter()
                .map(|c| c.pathological_sum())
                .enumerate()
                .fold((0, f64::NEG_INFINITY), |best, (i, ps)| {
                    if ps > best.1 { (i, ps) } else { best }
                });
            let bounds = &columns[index].error_bounds;
            let ps_peak_error_bound = bounds.windows(2).map(|w| w[0] + w[1]).sum::<f64>();
            task.advance(1);
            Ok(TrendRow {
                height: h,
                threshold,
                ps_peak: peak,
                ps_peak_at: settings[index].0,
                ps_peak_error_bound,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paper_height_peaks_near_the_papers_0_32() {
        // Section 6.2: "after rising to the peak at about f1 = f2 = 0.32".
        let rows = height_trend(&[10], 100, 1e-6, 100).unwrap();
        assert!(
            (rows[0].ps_peak_at - 0.32).abs() <= 0.02,
            "{}",
            rows[0].ps_peak_at
        );
        assert!(rows[0].ps_peak > 0.129, "{}", rows[0].ps_peak); // Table 1 has 0.129 at 0.3
    }

    #[test]
    fn rejects_empty_input() {
        assert!(height_trend(&[], 10, 1e-3, 10).is_err());
        assert!(height_trend(&[10], 10, 1e-3, 1).is_err());
    }
}
