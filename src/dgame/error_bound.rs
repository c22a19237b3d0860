//! A rigorous a-priori bound on the rounding error of the `f64` D(d,h).
//!
//! The float path of [`super::Solver`] is the exact algorithm run in IEEE double precision
//! (round to nearest, unit roundoff `u = 2^-53`). Every quantity it handles is non-negative
//! except the complements `1 - F`, and every operation is monotone in its arguments, which
//! the bound below relies on. `gamma(n) = n u / (1 - n u)` bounds the relative error of a
//! sequential sum of `n` non-negative products.
//!
//! **psi distributions** (L1 error `e_t` of each conditional pmf at height t, `e_0 = 0`):
//! the mixture `a w + (1-a) l` has L1 error at most
//! `e_mix = e + 3u (1 + e) + gamma(2) (1 + u) (1 + e)` (the weights carry the rounding of
//! `1 - a` and of the input `f`, the entrywise mix two roundings), and the convolution of
//! two vectors with L1 errors `e`, `e_mix` and masses `<= 1 + e` has
//! `e_t <= e + e_mix + e e_mix + gamma(n) (1 + e)(1 + e_mix)` with `n = 2^(t-1) + 1` terms
//! (since `||x*y - x'*y'||_1 <= ||x - x'||_1 ||y||_1 + ||x'||_1 ||y - y'||_1`).
//!
//! **Back-up** (sup-norm error `eta` of the CDFs): prefix sums give
//! `eta_0 = e_t + gamma(n)(1 + e_t)`; a Max level gives
//! `eta' = eta (1 + eta_m) + eta_m + u (1 + eta)(1 + eta_m)` with
//! `eta_m = eta + 3u (1 + eta) + gamma(2)(1 + u)(1 + eta)`; a Min level first forms
//! `1 - F` (error `eta + u (1 + eta)`), combines as above and complements again (one more
//! `u (1 + eta')`).
//!
//! **D(d,h)** `= 1 - T/2` with `T = sum_i p_l(i) G(i)`, `G(i) = F_w(i) + F_w(i-1)`: the
//! computed `G` is non-decreasing (floating-point operations are monotone), so summation by
//! parts bounds the effect of the CDF errors of `p_l` by `4 eta (1 + eta)(1 + u)`; the errors
//! of `G` add `2 eta + 2u (1 + eta)`, the differences `p_l(i)` one rounding
//! (`2u (1 + eta)^2 (1 + u)`) and the sum `gamma(n + 1) 2 (1 + eta)^2 (1 + u)^2`. Half of all
//! that plus one rounding of the final subtraction is the bound.
//!
//! Subnormal underflow adds at most `2^-1074` per operation; the bound adds `1e-300` per
//! level for it. The bound is evaluated in `f64` and then inflated by `1 + 1e-6`, which
//! absorbs the rounding of its own evaluation. It is an a-priori (worst-case) bound: the
//! observed differences to the exact values are far smaller (see the tests).

const U: f64 = f64::EPSILON / 2.0;
const UNDERFLOW_SLACK: f64 = 1e-300;

fn gamma(n: f64) -> f64 {
    n * U / (1.0 - n * U)
}

/// L1 error of a mixture `a x + (1-a) y` of two vectors with L1 error `e` and mass `<= 1+e`.
fn mix_error(e: f64) -> f64 {
    e + 3.0 * U * (1.0 + e) + gamma(2.0) * (1.0 + U) * (1.0 + e) + UNDERFLOW_SLACK
}

/// Bounds on the L1 errors of the f64 psi pmfs at heights `0..=max_height`.
pub fn psi_l1_error_bounds(max_height: u32) -> Vec<f64> {
    let mut out = vec![0.0];
    for t in 1..=max_height {
        let e = out[t as usize - 1];
        let em = mix_error(e);
        let n = (2f64).powi(t as i32 - 1) + 1.0;
        let next = e + em + e * em + gamma(n) * (1.0 + e) * (1.0 + em) + UNDERFLOW_SLACK;
        out.push(next);
    }
    out
}

/// A rigorous bound on `|D_f64(d,h) - D(d,h)|` for the float path of [`super::Solver`], where
/// `D(d,h)` is the exact value at the rational dependence factors that the double inputs
/// were rounded from.
///
/// # Examples
///
/// ```
/// use pathology::dgame::error_bound::decision_error_bound;
/// let bound = decision_error_bound(1, 10);
/// assert!(bound > 0.0 && bound < 1e-11);
/// ```
pub fn decision_error_bound(depth: u32, height: u32) -> f64 {
    let front = height - depth;
    let e = psi_l1_error_bounds(front)[front as usize];
    let n = (2f64).powi(front as i32) + 1.0;
    let mut eta = e + gamma(n) * (1.0 + e);
    for t in front + 1..height {
        let max_level = t % 2 == 1;
        let input = if max_level {
            eta
        } else {
            eta + U * (1.0 + eta)
        };
        let em = mix_error(input);
        let mut next = input * (1.0 + em) + em + U * (1.0 + input) * (1.0 + em) + UNDERFLOW_SLACK;
        if !max_level {
            next += U * (1.0 + next);
        }
        eta = next;
    }
    let one_eta = 1.0 + eta;
    let t_error = gamma(n + 1.0) * 2.0 * one_eta * one_eta * (1.0 + U) * (1.0 + U)
        + 2.0 * U * one_eta * one_eta * (1.0 + U)
        + 4.0 * eta * one_eta * (1.0 + U)
        + 2.0 * eta
        + 2.0 * U * one_eta;
    (0.5 * t_error + U) * (1.0 + 1e-6)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgame::{DependenceFactors, Solver};
    use crate::number::{Probability, parse_rational};
    use num_rational::BigRational;

    #[test]
    fn bound_grows_with_height_and_stays_small_at_ten() {
        let b10 = (1..=10)
            .map(|d| decision_error_bound(d, 10))
            .fold(0.0, f64::max);
        let b12 = (1..=12)
            .map(|d| decision_error_bound(d, 12))
            .fold(0.0, f64::max);
        assert!(b10 < b12);
        assert!(b10 < 1e-11, "{b10}");
    }

    #[test]
    fn float_results_lie_within_the_bound_of_the_exact_values() {
        for (f1, f2) in [
            ("0.1", "0.1"),
            ("0.57", "0.57"),
            ("0.3", "0.7"),
            ("1/3", "0.999"),
            ("0.001", "0"),
        ] {
            let (f1, f2) = (parse_rational(f1).unwrap(), parse_rational(f2).unwrap());
            let exact = Solver::new(DependenceFactors::new(f1.clone(), f2.clone()).unwrap())
                .decision_column(10)
                .unwrap();
            let float = Solver::new(DependenceFactors::new(f1.to_f64(), f2.to_f64()).unwrap())
                .decision_column(10)
                .unwrap();
            for d in 1..=10 {
                let exact_value: &BigRational = exact.value(d);
                let error =
                    (BigRational::from_float(*float.value(d)).unwrap() - exact_value).to_f64();
                let bound = decision_error_bound(d, 10);
                assert!(
                    error.abs() <= bound,
                    "d={d}: error {error:e} > bound {bound:e}"
                );
            }
        }
    }
}
