//! Fixed points and stability of the gamma/delta map (beyond Li & Marsland, Section 5).
//!
//! The map of formulas (3)-(4) ([`super::max_to_max`]) has three fixed points for every
//! `(f1, f2)`: `(0, 0)` (no errors), `(0, 1)` (every node read as 0: the point the trajectories
//! of the paper's Fig. 3 migrate to) and `(1, 0)` (every node read as 1). Their Jacobians are
//! closed forms: at `(0, 0)` it is `diag(2 (1 - f2), 2 (1 - f1))`, so the origin attracts
//! exactly when `f1 > 1/2` and `f2 > 1/2` (the limits of Theorem 5.1's `F1`, `F2` as
//! `gamma, delta -> 0`); at `(0, 1)` it is zero (super-attracting, for every `f1`, `f2`).
//! Interior fixed points (saddles on the boundary between the two basins) are found by Newton's
//! method from a grid of starts and deduplicated ([`fixed_points`]). One of them does not move
//! with `f1`, `f2`: `(1 - w_2, w_2) = (0.618..., 0.381...)`. On the line `gamma + delta = 1`
//! the evaluation is uninformative (`Pr[Psi = 1]` is the same for wins and losses), the line is
//! invariant, and the map on it is the back-up of independent values, whose fixed point is
//! Pearl's and Nau's `w_2` (see [`crate::closed_form::w_b`]). Eigenvalues come from
//! nalgebra's `complex_eigenvalues`.
//!
//! [`critical_f`] finds, for a start point, the `f = f1 = f2` at which the long-run limit of the
//! trajectory switches from `(0, 1)` (below) to `(0, 0)` (above), by a grid scan and bisection
//! on `f`. It assumes one switch on the bracketing grid interval, and reports an error when the
//! scan does not show a single switch.

use nalgebra::{Matrix2, Vector2};

use super::{BackUp, ErrorPair, back_up, long_run};
use crate::dgame::check_unit;
use crate::error::{Error, Result};

/// Newton iterations converge when the residual is below this.
pub const NEWTON_RESIDUAL: f64 = 1e-14;
/// Two fixed points closer than this are the same.
pub const DEDUPLICATION_DISTANCE: f64 = 1e-7;
/// An eigenvalue modulus within this of 1 makes a fixed point non-hyperbolic.
pub const UNIT_MODULUS_TOLERANCE: f64 = 1e-9;
/// A long-run limit within this of a fixed point has reached it.
pub const LIMIT_TOLERANCE: f64 = 1e-6;
/// Grid of Newton starts: `GRID + 1` points a side over `[0, 1]^2`.
const GRID: usize = 20;

/// The Jacobian of one back-up step at `(gamma, delta)`: rows `(gamma', delta')`, columns
/// `(gamma, delta)`.
///
/// # Examples
///
/// ```
/// use pathology::errprop::BackUp;
/// use pathology::errprop::stability::jacobian;
/// let j = jacobian(0.0, 0.0, 0.7, 0.6, BackUp::Max);
/// assert!((j[(0, 0)] - 0.8).abs() < 1e-15 && (j[(1, 1)] - 0.6).abs() < 1e-15);
/// ```
pub fn jacobian(gamma: f64, delta: f64, f1: f64, f2: f64, from: BackUp) -> Matrix2<f64> {
    match from {
        BackUp::Max => max_jacobian(gamma, delta, f1, f2),
        BackUp::Min => {
            // min_to_min(g, d, f1, f2) = swap(max_to_max(d, g, f2, f1)).
            let m = max_jacobian(delta, gamma, f2, f1);
            Matrix2::new(m[(1, 1)], m[(1, 0)], m[(0, 1)], m[(0, 0)])
        }
    }
}

fn max_jacobian(g: f64, d: f64, f1: f64, f2: f64) -> Matrix2<f64> {
    let a = g * g * f2 + g * (1.0 - d) * (1.0 - f2);
    let a_g = 2.0 * g * f2 + (1.0 - d) * (1.0 - f2);
    let a_d = -g * (1.0 - f2);
    let b = d * (2.0 - d);
    let b_d = 2.0 - 2.0 * d;
    let gamma_g = (2.0 - 2.0 * a) * a_g;
    let gamma_d = (2.0 - 2.0 * a) * a_d;
    let delta_g = -b * (1.0 - f1) * a_g;
    let delta_d = 2.0 * b * b_d * f1 + b_d * (1.0 - a) * (1.0 - f1) - b * a_d * (1.0 - f1);
    Matrix2::new(gamma_g, gamma_d, delta_g, delta_d)
}

/// How a fixed point behaves under iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stability {
    /// Both eigenvalues inside the unit circle.
    Attracting,
    /// Both outside.
    Repelling,
    /// One inside, one outside.
    Saddle,
    /// An eigenvalue on the unit circle (within [`UNIT_MODULUS_TOLERANCE`]).
    NonHyperbolic,
}

impl Stability {
    /// The name printed by the CLI.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::errprop::stability::Stability;
    /// assert_eq!(Stability::NonHyperbolic.name(), "non-hyperbolic");
    /// // The same names as in JSON output.
    /// let json = serde_json::to_string(&Stability::Saddle).unwrap();
    /// assert_eq!(json, format!("\"{}\"", Stability::Saddle.name()));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Stability::Attracting => "attracting",
            Stability::Repelling => "repelling",
            Stability::Saddle => "saddle",
            Stability::NonHyperbolic => "non-hyperbolic",
        }
    }
}

/// A fixed point with its Jacobian's eigenvalues.
#[derive(Debug, Clone, PartialEq)]
pub struct FixedPoint {
    /// The point.
    pub point: ErrorPair<f64>,
    /// The eigenvalues as `(real, imaginary)` pairs, larger modulus first.
    pub eigenvalues: [(f64, f64); 2],
    /// The classification.
    pub stability: Stability,
}

/// Eigenvalues of the Jacobian at a point and the resulting classification.
///
/// # Examples
///
/// ```
/// use pathology::errprop::BackUp;
/// use pathology::errprop::stability::{Stability, classify};
/// assert_eq!(classify(0.0, 1.0, 0.3, 0.3, BackUp::Max).stability, Stability::Attracting);
/// assert_eq!(classify(0.0, 0.0, 0.3, 0.3, BackUp::Max).stability, Stability::Repelling);
/// ```
pub fn classify(gamma: f64, delta: f64, f1: f64, f2: f64, from: BackUp) -> FixedPoint {
    let values = jacobian(gamma, delta, f1, f2, from).complex_eigenvalues();
    let mut eigenvalues = [(values[0].re, values[0].im), (values[1].re, values[1].im)];
    let modulus = |(re, im): (f64, f64)| re.hypot(im);
    if modulus(eigenvalues[0]) < modulus(eigenvalues[1]) {
        eigenvalues.swap(0, 1);
    }
    let (big, small) = (modulus(eigenvalues[0]), modulus(eigenvalues[1]));
    let near_one = |m: f64| (m - 1.0).abs() <= UNIT_MODULUS_TOLERANCE;
    let stability = if near_one(big) || near_one(small) {
        Stability::NonHyperbolic
    } else if big < 1.0 {
        Stability::Attracting
    } else if small > 1.0 {
        Stability::Repelling
    } else {
        Stability::Saddle
    };
    FixedPoint {
        point: ErrorPair { gamma, delta },
        eigenvalues,
        stability,
    }
}

/// The fixed points of the map in `[0, 1]^2`, sorted by `(gamma, delta)`.
///
/// Always contains `(0, 0)`, `(0, 1)` and `(1, 0)`; interior ones are found by Newton's method
/// from a grid of 21 x 21 starts.
///
/// # Examples
///
/// ```
/// use pathology::errprop::BackUp;
/// use pathology::errprop::stability::fixed_points;
/// let points = fixed_points(0.6, 0.6, BackUp::Max).unwrap();
/// assert!(points.iter().any(|p| p.point.gamma == 0.0 && p.point.delta == 1.0));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] when `f1` or `f2` is outside `[0, 1]`.
pub fn fixed_points(f1: f64, f2: f64, from: BackUp) -> Result<Vec<FixedPoint>> {
    check_unit("f1", &f1)?;
    check_unit("f2", &f2)?;
    let mut found: Vec<(f64, f64)> = vec![(0.0, 0.0), (0.0, 1.0), (1.0, 0.0)];
    for i in 0..=GRID {
        for j in 0..=GRID {
            let start = (i as f64 / GRID as f64, j as f64 / GRID as f64);
            if let Some(p) = newton(start, f1, f2, from)
                && !found.iter().any(|q| {
                    (q.0 - p.0).abs() < DEDUPLICATION_DISTANCE
                        && (q.1 - p.1).abs() < DEDUPLICATION_DISTANCE
                })
            {
                found.push(p);
            }
        }
    }
    found.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    Ok(found
        .into_iter()
        .map(|(g, d)| classify(g, d, f1, f2, from))
        .collect())
}

fn newton(start: (f64, f64), f1: f64, f2: f64, from: BackUp) -> Option<(f64, f64)> {
    let mut x = Vector2::new(start.0, start.1);
    for _ in 0..100 {
        let next = back_up(
            &ErrorPair {
                gamma: x[0],
                delta: x[1],
            },
            &f1,
            &f2,
            from,
        );
        let residual = Vector2::new(next.gamma - x[0], next.delta - x[1]);
        if residual.amax() < NEWTON_RESIDUAL {
            let inside =
                (-1e-9..=1.0 + 1e-9).contains(&x[0]) && (-1e-9..=1.0 + 1e-9).contains(&x[1]);
            return inside.then(|| (x[0].clamp(0.0, 1.0), x[1].clamp(0.0, 1.0)));
        }
        let system = jacobian(x[0], x[1], f1, f2, from) - Matrix2::identity();
        let step = system.lu().solve(&residual)?;
        x -= step;
        if !x.iter().all(|v| v.is_finite() && v.abs() < 10.0) {
            return None;
        }
    }
    None
}

/// Which attractor a long-run limit reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Attractor {
    /// `(0, 0)`: the errors vanish.
    Origin,
    /// `(0, 1)`: every node is read as 0 (Max-to-Max map).
    ZeroOne,
    /// `(1, 0)`: every node is read as 1 (the Min-to-Min map's mirror of `(0, 1)`).
    OneZero,
    /// Something else (an interior fixed point, or not settled).
    Other,
}

/// The attractor nearest a long-run limit (within [`LIMIT_TOLERANCE`]).
///
/// # Examples
///
/// ```
/// use pathology::errprop::stability::{Attractor, attractor_of};
/// use pathology::errprop::{BackUp, ErrorPair, long_run};
/// let start = ErrorPair::new(0.3, 0.2).unwrap();
/// let weak = long_run(&start, 0.2, 0.2, BackUp::Max).unwrap();
/// assert_eq!(attractor_of(&weak.limit), Attractor::ZeroOne); // every node read as 0
/// let strong = long_run(&start, 0.9, 0.9, BackUp::Max).unwrap();
/// assert_eq!(attractor_of(&strong.limit), Attractor::Origin); // the errors vanish
/// assert_eq!(attractor_of(&ErrorPair::new(0.5, 0.5).unwrap()), Attractor::Other);
/// ```
pub fn attractor_of(point: &ErrorPair<f64>) -> Attractor {
    let near = |x: f64, y: f64| {
        (point.gamma - x).abs() < LIMIT_TOLERANCE && (point.delta - y).abs() < LIMIT_TOLERANCE
    };
    if near(0.0, 0.0) {
        Attractor::Origin
    } else if near(0.0, 1.0) {
        Attractor::ZeroOne
    } else if near(1.0, 0.0) {
        Attractor::OneZero
    } else {
        Attractor::Other
    }
}

/// The critical `f = f1 = f2` for a start point, with how it was bracketed.
#[derive(Debug, Clone, PartialEq)]
pub struct CriticalF {
    /// Largest `f` found whose long-run limit is the bad attractor.
    pub below: f64,
    /// Smallest `f` found whose long-run limit is `(0, 0)`.
    pub above: f64,
    /// The bad attractor below the switch (`(0, 1)` for the Max-to-Max map).
    pub below_attractor: Attractor,
}

impl CriticalF {
    /// The midpoint of the bracket.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::errprop::stability::{CRITICAL_F_TOLERANCE, critical_f};
    /// use pathology::errprop::{BackUp, ErrorPair};
    /// let c = critical_f(&ErrorPair::new(0.3, 0.2).unwrap(), BackUp::Max).unwrap();
    /// assert!(c.below < c.estimate() && c.estimate() < c.above);
    /// assert!(c.above - c.below <= CRITICAL_F_TOLERANCE);
    /// ```
    pub fn estimate(&self) -> f64 {
        0.5 * (self.below + self.above)
    }
}

/// Bisection stops when the bracket is narrower than this (6 correct digits need 5e-7).
pub const CRITICAL_F_TOLERANCE: f64 = 1e-9;

/// The `f = f1 = f2` at which the long-run limit of the trajectory from `start` switches from
/// `(0, 1)` (Max-to-Max; `(1, 0)` for Min-to-Min) to `(0, 0)` for good: a scan of
/// `f = k/100`, `k = 1..=100`, then bisection between the last grid point whose limit is not
/// the origin and the next one, down to [`CRITICAL_F_TOLERANCE`].
///
/// # Examples
///
/// ```
/// use pathology::errprop::{BackUp, ErrorPair};
/// use pathology::errprop::stability::critical_f;
/// let c = critical_f(&ErrorPair::new(0.3, 0.2).unwrap(), BackUp::Max).unwrap();
/// assert!(c.estimate() > 0.5 && c.estimate() < 0.7);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] for a start outside `[0, 1]^2`, or when the scan does not show a
/// single switch (e.g. a start at a fixed point).
pub fn critical_f(start: &ErrorPair<f64>, from: BackUp) -> Result<CriticalF> {
    ErrorPair::new(start.gamma, start.delta)?;
    let limit = |f: f64| -> Result<Attractor> {
        let run = long_run(start, f, f, from)?;
        Ok(attractor_of(&run.limit))
    };
    // f = 0 is left out: with no dependence at all the limit can be a third attractor.
    let classes: Vec<Attractor> = (1..=100)
        .map(|k| limit(f64::from(k) / 100.0))
        .collect::<Result<_>>()?;
    let no_switch = || {
        Error::invalid(
            "start",
            "a point whose long-run limit switches once to (0, 0) as f = f1 = f2 grows",
            format!(
                "({}, {}) with limits {:?} at f = 0.01, 0.5, 1",
                start.gamma,
                start.delta,
                [classes[0], classes[49], classes[99]]
            ),
        )
    };
    // The last grid point whose limit is not the origin; everything above must be the origin.
    let Some(last_bad) = classes.iter().rposition(|&c| c != Attractor::Origin) else {
        return Err(no_switch());
    };
    let k = last_bad + 1; // index of the first origin point above it
    if k >= classes.len() || classes[last_bad] == Attractor::Other {
        return Err(no_switch());
    }
    let below_attractor = classes[last_bad];
    let (mut below, mut above) = (k as f64 / 100.0, (k + 1) as f64 / 100.0);
    while above - below > CRITICAL_F_TOLERANCE {
        let middle = 0.5 * (below + above);
        match limit(middle)? {
            Attractor::Origin => above = middle,
            c if c == below_attractor => below = middle,
            _ => break,
        }
    }
    Ok(CriticalF {
        below,
        above,
        below_attractor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    /// Finite-difference Jacobian agreement.
    const DIFFERENCE_TOLERANCE: f64 = 1e-6;

    #[test]
    fn jacobian_matches_finite_differences() {
        let h = 1e-7;
        for from in [BackUp::Max, BackUp::Min] {
            for &(g, d, f1, f2) in &[(0.3, 0.2, 0.7, 0.4), (0.1, 0.6, 0.2, 0.9)] {
                let j = jacobian(g, d, f1, f2, from);
                let at =
                    |g: f64, d: f64| back_up(&ErrorPair { gamma: g, delta: d }, &f1, &f2, from);
                let (gp, gm) = (at(g + h, d), at(g - h, d));
                let (dp, dm) = (at(g, d + h), at(g, d - h));
                assert_abs_diff_eq!(
                    j[(0, 0)],
                    (gp.gamma - gm.gamma) / (2.0 * h),
                    epsilon = DIFFERENCE_TOLERANCE
                );
                assert_abs_diff_eq!(
                    j[(1, 0)],
                    (gp.delta - gm.delta) / (2.0 * h),
                    epsilon = DIFFERENCE_TOLERANCE
                );
                assert_abs_diff_eq!(
                    j[(0, 1)],
                    (dp.gamma - dm.gamma) / (2.0 * h),
                    epsilon = DIFFERENCE_TOLERANCE
                );
                assert_abs_diff_eq!(
                    j[(1, 1)],
                    (dp.delta - dm.delta) / (2.0 * h),
                    epsilon = DIFFERENCE_TOLERANCE
                );
            }
        }
    }

    #[test]
    fn origin_attracts_exactly_above_one_half() {
        let at = |f: f64| {
            fixed_points(f, f, BackUp::Max)
                .unwrap()
                .into_iter()
                .find(|p| p.point.gamma == 0.0 && p.point.delta == 0.0)
                .unwrap()
                .stability
        };
        assert_eq!(at(0.4), Stability::Repelling);
        assert_eq!(at(0.5), Stability::NonHyperbolic);
        assert_eq!(at(0.7), Stability::Attracting);
    }

    #[test]
    fn fixed_points_are_fixed_and_interior_saddles_separate_basins() {
        let points = fixed_points(0.7, 0.7, BackUp::Max).unwrap();
        for p in &points {
            let next = back_up(&p.point, &0.7, &0.7, BackUp::Max);
            assert_abs_diff_eq!(next.gamma, p.point.gamma, epsilon = 1e-12);
            assert_abs_diff_eq!(next.delta, p.point.delta, epsilon = 1e-12);
        }
        // Two attractors, so something non-attracting lies between their basins.
        assert!(
            points.iter().any(|p| p.stability == Stability::Saddle),
            "{points:?}"
        );
    }

    #[test]
    fn critical_f_brackets_the_switch() {
        let start = ErrorPair::new(0.3, 0.2).unwrap();
        let c = critical_f(&start, BackUp::Max).unwrap();
        assert!(c.above - c.below <= CRITICAL_F_TOLERANCE);
        let below = long_run(&start, c.below, c.below, BackUp::Max).unwrap();
        let above = long_run(&start, c.above, c.above, BackUp::Max).unwrap();
        assert_eq!(attractor_of(&below.limit), Attractor::ZeroOne);
        assert_eq!(attractor_of(&above.limit), Attractor::Origin);
    }
}
