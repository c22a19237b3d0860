//! The p-values of `validate`'s rows and Holm's step-down correction.

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

/// The two-sided normal p-value `2 (1 - Phi(|z|)) = erfc(|z| / sqrt 2)`.
///
/// # Examples
///
/// ```
/// let p = pathology::validate::two_sided_p(1.959963984540054);
/// assert!((p - 0.05).abs() < 1e-9);
/// ```
pub fn two_sided_p(z: f64) -> f64 {
    crate::sim::stats::two_sided_p(z)
}

/// The complementary error function `erfc(x) = 1 - erf(x)`, from the `libm` crate (the port
/// of FreeBSD's msun `s_erf.c`, Sun's rational approximations, documented error below 1 ulp).
/// It keeps tiny tails accurate, where `1 - erf(x)` would give 0.
///
/// # Examples
///
/// ```
/// use pathology::validate::erfc;
/// assert_eq!(erfc(0.0), 1.0);
/// assert!((erfc(1.0) / 0.157_299_207_050_285_13 - 1.0).abs() < 1e-15);
/// assert!((erfc(-1.0) - (2.0 - erfc(1.0))).abs() < 1e-15);
/// assert!((erfc(10.0) / 2.088_487_583_762_545e-45 - 1.0).abs() < 1e-15);
/// ```
pub fn erfc(x: f64) -> f64 {
    libm::erfc(x)
}
