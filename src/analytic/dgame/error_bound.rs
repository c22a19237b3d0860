//! A rigorous bound on the rounding error of the `f64` D(d,h).
//!
//! The float path of [`super::Solver`] is the exact algorithm run in IEEE double precision
//! (round to nearest, unit roundoff `u = 2^-53`). Every quantity it handles is non-negative
//! except the complements `1 - F`, and every operation is monotone in its arguments, which
//! the bound below relies on. `gamma(n) = n u / (1 - n u)`. The solver tracks the bound as it
//! computes (it depends on the norms of the computed vectors when an FFT is used); in exact
//! mode (`u = 0`) every bound is 0.
//!
//! **psi distributions** (L1 error `e_t` of each conditional pmf at height t, `e_0 = 0`):
//! the mixture `a w + (1-a) l` has L1 error at most
//! `e_mix = e + 3u (1 + e) + gamma(2) (1 + u) (1 + e)` ([`mix_error`]: the weights carry the
//! rounding of `1 - a` and of the input `f`, the entrywise mix two roundings). The convolution
//! of vectors with L1 errors `e`, `e_mix` and masses `<= 1 + e` propagates them as
//! `e + e_mix + e e_mix` (since `||x*y - x'*y'||_1 <= ||x - x'||_1 ||y||_1 + ||x'||_1
//! ||y - y'||_1`) and adds its own rounding `r`, which [`crate::numeric::fft`] bounds for both the
//! direct and the FFT method: `e_t <= e + e_mix + e e_mix + r` ([`psi_level_error`]).
//!
//! **Back-up** (sup-norm error `eta` of the CDFs, [`decision_error`]): prefix sums give
//! `eta_0 = e_t + gamma(n)(1 + e_t)`; a Max level gives
//! `eta' = eta (1 + eta_m) + eta_m + u (1 + eta)(1 + eta_m)` with `eta_m` the [`mix_error`]
//! of `eta`; a Min level first forms `1 - F` (error `eta + u (1 + eta)`), combines as above
//! and complements again (one more `u (1 + eta')`).
//!
//! **D(d,h)** `= 1 - T/2` with `T = sum_i p_l(i) G(i)`, `G(i) = F_w(i) + F_w(i-1)`: the
//! computed `G` is non-decreasing (floating-point operations are monotone, and FFT outputs
//! are clamped at 0), so summation by parts bounds the effect of the CDF errors of `p_l` by
//! `4 eta (1 + eta)(1 + u)`; the errors of `G` add `2 eta + 2u (1 + eta)`, the differences
//! `p_l(i)` one rounding (`2u (1 + eta)^2 (1 + u)`) and the sum
//! `gamma(n + 1) 2 (1 + eta)^2 (1 + u)^2`. Half of all that plus one rounding of the final
//! subtraction is the bound.
//!
//! Subnormal underflow adds at most `2^-1074` per operation; the bounds add `1e-300` per
//! step for it. Each bound is evaluated in `f64` and inflated by `1 + 1e-6`, which absorbs
//! the rounding of its own evaluation.

const UNDERFLOW_SLACK: f64 = 1e-300;

fn gamma(n: f64, u: f64) -> f64 {
    n * u / (1.0 - n * u)
}

/// L1 error of a mixture `a x + (1-a) y` of two vectors with L1 error `e` and mass `<= 1+e`
/// (0 when `u = 0`).
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::error_bound::mix_error;
/// assert_eq!(mix_error(0.25, 0.0), 0.25); // exact arithmetic adds nothing
/// let u = f64::EPSILON / 2.0;
/// let e = mix_error(0.0, u);
/// assert!(e > 0.0 && e < 6.0 * u); // about 5 roundings
/// ```
pub fn mix_error(e: f64, u: f64) -> f64 {
    if u == 0.0 {
        return e;
    }
    e + 3.0 * u * (1.0 + e) + gamma(2.0, u) * (1.0 + u) * (1.0 + e) + UNDERFLOW_SLACK
}

/// The L1 error of the psi pmfs at height t from that of height t-1 (`e`) and the rounding
/// bounds of the level's two convolutions (`mixed_rounding` for the one with the mixture,
/// `forced_rounding` for the self-convolution).
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::error_bound::psi_level_error;
/// assert_eq!(psi_level_error(1e-9, 1e-12, 1e-12, 0.0), 0.0); // exact mode
/// let u = f64::EPSILON / 2.0;
/// let first = psi_level_error(0.0, 0.0, 0.0, u);
/// let second = psi_level_error(first, 0.0, 0.0, u);
/// assert!(first > 0.0 && second > 2.0 * first); // errors accumulate level by level
/// ```
pub fn psi_level_error(e: f64, mixed_rounding: f64, forced_rounding: f64, u: f64) -> f64 {
    if u == 0.0 {
        return 0.0;
    }
    let em = mix_error(e, u);
    let mixed = e + em + e * em + mixed_rounding;
    let forced = 2.0 * e + e * e + forced_rounding;
    mixed.max(forced) * (1.0 + 1e-6)
}

/// A bound on `|D_f64(d,h) - D(d,h)|` given the L1 error `front_error` of the psi pmfs at the
/// search front (height `front = h - d`, `front_len = 2^front + 1` entries), where `D(d,h)`
/// is the exact value at the rational dependence factors the double inputs were rounded
/// from (0 when `u = 0`).
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::error_bound::decision_error;
/// assert_eq!(decision_error(1e-9, 3, 10, 0.0), 0.0); // exact mode
/// let u = f64::EPSILON / 2.0;
/// let bound = decision_error(0.0, 0, 10, u);
/// assert!(bound > 0.0 && bound < 1e-11);
/// assert!(decision_error(1e-10, 0, 10, u) > bound); // a worse front gives a worse bound
/// ```
pub fn decision_error(front_error: f64, front: u32, height: u32, u: f64) -> f64 {
    if u == 0.0 {
        return 0.0;
    }
    let n = (2f64).powi(front as i32) + 1.0;
    let mut eta = front_error + gamma(n, u) * (1.0 + front_error);
    for t in front + 1..height {
        let max_level = t % 2 == 1;
        let input = if max_level {
            eta
        } else {
            eta + u * (1.0 + eta)
        };
        let em = mix_error(input, u);
        let mut next = input * (1.0 + em) + em + u * (1.0 + input) * (1.0 + em) + UNDERFLOW_SLACK;
        if !max_level {
            next += u * (1.0 + next);
        }
        eta = next;
    }
    let one_eta = 1.0 + eta;
    let t_error = gamma(n + 1.0, u) * 2.0 * one_eta * one_eta * (1.0 + u) * (1.0 + u)
        + 2.0 * u * one_eta * one_eta * (1.0 + u)
        + 4.0 * eta * one_eta * (1.0 + u)
        + 2.0 * eta
        + 2.0 * u * one_eta;
    (0.5 * t_error + u) * (1.0 + 1e-6)
}

#[cfg(test)]
mod tests {
    use crate::analytic::dgame::{DependenceFactors, Solver};
    use crate::numeric::number::{Probability, parse_rational};
    use num_rational::BigRational;

    #[test]
    fn bounds_are_small_at_the_papers_height_and_grow_with_height() {
        let bound = |h: u32| {
            let mut s = Solver::new(DependenceFactors::new(0.3, 0.3).unwrap());
            let c = s.decision_column(h).unwrap();
            c.error_bounds.iter().copied().fold(0.0, f64::max)
        };
        let (b10, b14) = (bound(10), bound(14));
        assert!(b10 > 0.0 && b10 < 1e-11, "{b10:e}");
        assert!(b10 < b14 && b14 < 1e-9, "{b14:e}");
    }

    #[test]
    fn exact_mode_has_zero_bounds() {
        let f = parse_rational("0.3").unwrap();
        let c = Solver::new(DependenceFactors::new(f.clone(), f).unwrap())
            .decision_column(6)
            .unwrap();
        assert!(c.error_bounds.iter().all(|&b| b == 0.0));
    }

    #[test]
    fn float_results_lie_within_the_bound_of_the_exact_values() {
        for (f1, f2, h) in [
            ("0.1", "0.1", 10),
            ("0.57", "0.57", 10),
            ("0.3", "0.7", 10),
            ("1/3", "0.999", 10),
            ("0.001", "0", 10),
            ("0.45", "0.55", 12),
        ] {
            let (f1, f2) = (parse_rational(f1).unwrap(), parse_rational(f2).unwrap());
            let exact = Solver::new(DependenceFactors::new(f1.clone(), f2.clone()).unwrap())
                .decision_column(h)
                .unwrap();
            let float = Solver::new(DependenceFactors::new(f1.to_f64(), f2.to_f64()).unwrap())
                .decision_column(h)
                .unwrap();
            for d in 1..=h {
                let exact_value: &BigRational = exact.value(d);
                let error =
                    (BigRational::from_float(*float.value(d)).unwrap() - exact_value).to_f64();
                let bound = float.error_bounds[d as usize - 1];
                assert!(
                    error.abs() <= bound,
                    "h={h} d={d}: error {error:e} > bound {bound:e}"
                );
            }
        }
    }
}
