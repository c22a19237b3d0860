//! Holm's step-down correction of `validate`'s rows.

use super::{CheckedRow, Verdict};

/// Holm's step-down procedure: sort the m p-values, adjust the i-th smallest to
/// `max_{j <= i} min(1, (m - j + 1) p_(j))`, and reject where the adjusted value is at most
/// alpha.
pub(super) fn apply_holm(rows: &mut [CheckedRow], alpha: f64) {
    let m = rows.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| rows[a].p_value.total_cmp(&rows[b].p_value).then(a.cmp(&b)));
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        let adjusted = ((m - rank) as f64 * rows[i].p_value).min(1.0);
        running = running.max(adjusted);
        rows[i].holm_p_value = running;
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
