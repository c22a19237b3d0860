//! Up-front estimates of the time and memory of a D(d,h) computation, so that work that would
//! not finish in reasonable time is refused before it starts.
//!
//! The model counts the work of the psi convolutions, which dominate: at height t two
//! convolutions of vectors of length `2^(t-1) + 1`. In float mode that is `2 (2^(t-1)+1)^2`
//! multiply-adds for the direct method (short vectors) and four transforms of cyclic length
//! `N = 2^t` (`N log2 N` butterflies each; see [`crate::numeric::fft`]) above
//! [`crate::numeric::fft::DIRECT_LIMIT`]; memory is the psi cache (`16 (2^t + 1)` bytes a height) plus
//! the transform buffers of the top level. In exact mode the entries at height t have about
//! `(2^t - 1) log2(m)` bits (`m` the common denominator of f1 and f2: every interior node
//! contributes one factor), and each convolution is one multiplication of
//! `2^(2t-1) log2(m)`-bit integers (Kronecker substitution), done by the three-prime
//! number-theoretic transform of [`crate::numeric::ntt`] (both operands transformed once for the two
//! convolutions of a level), whose cost grows as `W log2 W` in its size `W` in 64-bit words,
//! and whose buffers dominate the memory.
//! The back-up of each depth adds `O(h 2^h)` products of numbers of up to `2^(h-1) log2(m)`
//! bits (Karatsuba/Toom sizes by dashu, exponent 1.585).
//!
//! The constants are fitted, all depths at f = 0.1, to wall times and peak memory measured
//! on the project's idle 2-core machine: 0.37 s, 1.67 s, 7.98 s and 43.3 s at h = 13, 14,
//! 15, 16, peak 0.07, 0.25, 0.99 and 3.8 GB; with the psi levels about half the time at
//! h = 15 and 16 (4.2 s and 22 s: the three primes and the halves of each transform on both
//! cores) and the back-up and D(d,h) the other half (3.8 s and 21 s: the entries of each
//! depth on both cores). The model gives 0.37 s, 1.8 s, 8.9 s and 45 s, and 0.08, 0.27, 1.1
//! and 4.3 GB; h = 17 (about 4 min and 17 GB) is refused. Before this fit (an NTT with
//! twiddle tables and one task a prime, the back-up of each depth on one core): 0.82 s,
//! 3.2 s and 18.8 s at h = 13, 14, 15, 0.16, 0.61 and 2.5 GB, h = 16 refused.
//! The `malachite` build uses the same NTT for the large products (malachite only below
//! [`crate::numeric::ntt`]'s threshold and for gcds), so only its back-up constant differs (dashu's
//! times 1.4, as measured before). f64: 0.11 s, 0.51 s and 2.34 s at h = 20, 22, 24, with
//! 0.74 GB peak at h = 24. The estimate is meant to be right within a factor of two.

use crate::budget::Cost;
use crate::error::Result;

/// Float multiply-adds per second in the direct convolution (one core).
const FLOAT_RATE: f64 = 6.0e8;
/// Seconds per `N log2 N` of one FFT (fitted to the idle wall times of all depths at
/// h = 20, 22, 24: 0.11 s, 0.51 s, 2.34 s; the model gives 0.13 s, 0.56 s, 2.44 s).
const FFT_COEFFICIENT: f64 = 3.0e-9;
/// Peak bytes of the multiplication buffers per byte of the largest packed product (two
/// transformed operands of three primes at up to twice the product's length, the packed
/// operands and the unpacked products; fitted to the peaks at h = 13 to 16, 5.9 to 7.2).
const EXACT_BUFFER_FACTOR: f64 = 7.0;
/// Wall seconds per `W log2 W` (`W` 64-bit words of the packed product) of one psi level's
/// pair of convolutions, both cores (fitted at h = 15 and 16: 1.0e-8 and 1.2e-8).
const PSI_LEVEL_COEFFICIENT: f64 = 1.2e-8;
/// Wall seconds per entry and (64-bit word)^1.585 of one back-up level of one depth, its
/// products shared by both cores (fitted at h = 15 and 16: 1.3e-8 and 1.2e-8 with D(d,h)
/// included).
#[cfg(not(feature = "malachite"))]
const BACKUP_LEVEL_COEFFICIENT: f64 = 1.3e-8;
/// See above (malachite: dashu's value times 1.4).
#[cfg(feature = "malachite")]
const BACKUP_LEVEL_COEFFICIENT: f64 = 1.8e-8;

/// Estimates the time and memory to compute D(d, `height`) for all d.
///
/// `denominator_bits` is `log2(m)` for the common denominator `m` of f1 and f2 in exact mode,
/// and `None` in float mode.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::estimate_cost;
/// assert!(estimate_cost(10, None).seconds < 0.01);
/// assert!(estimate_cost(20, Some(3.33)).seconds > 3600.0);
/// ```
pub fn estimate_cost(height: u32, denominator_bits: Option<f64>) -> Cost {
    let mut cost = psi_cost(height.saturating_sub(1), denominator_bits);
    for d in 1..=height {
        cost.seconds += backup_seconds(height - d, height, denominator_bits);
    }
    cost
}

/// Estimates the time and memory to compute one D(`depth`, `height`): psi up to height
/// `h - d` and `d - 1` back-up levels.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::{estimate_cost, estimate_decision_cost};
/// let bits = Some(10f64.log2());
/// assert!(estimate_decision_cost(19, 20, bits).seconds < 1.0);
/// assert!(estimate_decision_cost(1, 20, bits).seconds > 3600.0);
/// ```
pub fn estimate_decision_cost(depth: u32, height: u32, denominator_bits: Option<f64>) -> Cost {
    let front = height.saturating_sub(depth);
    let mut cost = psi_cost(front, denominator_bits);
    cost.seconds += backup_seconds(front, height, denominator_bits);
    cost
}

/// The psi distributions for heights `1..=max_height`.
fn psi_cost(max_height: u32, denominator_bits: Option<f64>) -> Cost {
    let mut seconds = 0.0;
    let mut bytes = 0.0;
    let mut buffers: f64 = 0.0;
    for t in 1..=max_height {
        let n = (2f64).powf(f64::from(t) - 1.0) + 1.0;
        match denominator_bits {
            None => {
                if n <= crate::numeric::fft::DIRECT_LIMIT as f64 {
                    seconds += 2.0 * n * n / FLOAT_RATE / 2.0;
                } else {
                    // Two convolutions of cyclic length `2^t` (no padding beyond the next
                    // power of two), two transforms each, run in parallel on the two cores.
                    let size = (2f64).powf(f64::from(t));
                    seconds += 4.0 * size * size.log2() * FFT_COEFFICIENT / 2.0;
                    // Two complex buffers, the weight tables and the outputs of the level.
                    buffers = buffers.max(4.0 * size * 16.0);
                }
                bytes += 2.0 * (2.0 * n) * 8.0;
            }
            Some(bits) => {
                let bits = bits.max(1.0);
                let entry_bits = ((2f64).powf(f64::from(t)) - 1.0) * bits;
                let words = 2.0 * n * entry_bits / 64.0;
                // Two convolutions sharing their transforms, on both cores.
                seconds += PSI_LEVEL_COEFFICIENT * words * words.max(2.0).log2();
                bytes += 2.0 * (2.0 * n) * entry_bits / 8.0;
                buffers = buffers.max(EXACT_BUFFER_FACTOR * words * 8.0);
            }
        }
    }
    Cost {
        seconds,
        bytes: bytes + buffers,
    }
}

/// Back-up from the front at height `front` to the children of a height-`height` node: at
/// each level, about four products per entry of numbers of `2^(t-1) log2(m)` bits (exact), or
/// a few flops (float).
fn backup_seconds(front: u32, height: u32, denominator_bits: Option<f64>) -> f64 {
    let entries = (2f64).powf(f64::from(front)) + 1.0;
    (front + 1..height)
        .map(|t| match denominator_bits {
            None => 8.0 * entries / FLOAT_RATE,
            Some(bits) => {
                let words = (2f64).powf(f64::from(t) - 1.0) * bits.max(1.0) / 64.0;
                BACKUP_LEVEL_COEFFICIENT * entries * words.max(1.0).powf(1.585)
            }
        })
        .sum()
}

/// Refuses, with the estimate, a computation that would exceed about a minute or 16 GiB.
///
/// # Examples
///
/// ```
/// use pathology::Error;
/// use pathology::analytic::dgame::check_cost;
/// let cost = check_cost(10, None).unwrap(); // Table 1 in f64: well within the limits
/// assert!(cost.seconds < 1.0);
/// let refused = check_cost(30, None).unwrap_err();
/// assert!(matches!(refused, Error::TooExpensive { .. }));
/// assert!(refused.to_string().contains("height 30 in f64 mode"));
/// ```
///
/// # Errors
///
/// [`crate::Error::TooExpensive`] with the estimate and a hint (the float mode, or a smaller height).
pub fn check_cost(height: u32, denominator_bits: Option<f64>) -> Result<Cost> {
    let cost = estimate_cost(height, denominator_bits);
    if cost.exceeds_limits() {
        let mode = if denominator_bits.is_some() {
            "exact"
        } else {
            "f64"
        };
        let hint = if denominator_bits.is_some() {
            "Use the f64 mode (drop --exact), whose rounding error is rigorously bounded (about 1e-12 at h = 10), or a smaller height."
        } else {
            "Use a smaller height."
        };
        return Err(cost.refusal(format!("D(d,h) at height {height} in {mode} mode"), hint));
    }
    Ok(cost)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_sizes_are_allowed_and_huge_ones_refused() {
        assert!(check_cost(10, Some(10f64.log2())).is_ok());
        assert!(check_cost(10, None).is_ok());
        let err = check_cost(24, Some(10f64.log2())).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("height 24 in exact mode"), "{text}");
        assert!(text.contains("f64 mode"), "{text}");
        assert!(check_cost(30, None).is_err());
    }

    #[test]
    fn estimates_grow_with_height() {
        for bits in [None, Some(3.3)] {
            let costs: Vec<f64> = (2..16).map(|h| estimate_cost(h, bits).seconds).collect();
            assert!(costs.windows(2).all(|w| w[0] < w[1]), "{costs:?}");
        }
    }
}
