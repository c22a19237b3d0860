//! Holm's step-down correction of `validate`'s rows.

use super::{CheckedRow, Verdict};

/// Holm's step-down procedure: sort the m p-values, adjust the i-th smallest to
/// `max_{j <= i} min(1, (m - j + 1) p_(j))`, and reject where the adjusted value is at most
/// alpha.
pub(super) fn apply_holm(rows: &mut [CheckedRow], alpha: f64) {
    let p_values: Vec<f64> = rows.iter().map(|r| r.p_value).collect();
    for (row, adjusted) in rows
        .iter_mut()
        .zip(crate::sim::stats::holm_adjusted(&p_values))
    {
        row.holm_p_value = adjusted;
    }
    // Written so that a p-value that is not a number (never expected: the exact values are
    // checked finite) disagrees instead of agreeing.
    for row in rows.iter_mut() {
        row.verdict = if row.p_value > alpha {
            Verdict::Agrees
        } else {
            Verdict::Disagrees
        };
        row.holm_verdict = if row.holm_p_value > alpha {
            Verdict::Agrees
        } else {
            Verdict::Disagrees
        };
    }
}
