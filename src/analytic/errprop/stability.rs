//! Fixed points and stability of the gamma/delta map (beyond Li & Marsland, Section 5).
//!
//! The map of formulas (3)-(4) ([`super::max_to_max`]) has three fixed points for every
//! `(f1, f2)`: `(0, 0)` (no errors), `(0, 1)` (every node read as 0: the point the trajectories
//! of the paper's Fig. 3 migrate to) and `(1, 0)` (every node read as 1). Their Jacobians are
//! closed forms: at `(0, 0)` it is `diag(2 (1 - f2), 2 (1 - f1))`, so the origin attracts
//! exactly when `f1 > 1/2` and `f2 > 1/2` (the limits of Theorem 5.1's `F1`, `F2` as
//! `gamma, delta -> 0`); at `(0, 1)` it is zero (super-attracting, for every `f1`, `f2`).
//! Interior fixed points (saddles on the boundary between the two basins) are found by Newton's
//! method from a grid of starts, deduplicated, and listed only when certified: the corners in
//! exact rationals, the others by a Krawczyk test in outward-rounded interval arithmetic
//! ([`certified_fixed_points`]); near the non-hyperbolic origin at `f = 1/2` Newton's residual
//! test alone accepts points that are not fixed. One of them does not move
//! with `f1`, `f2`: `(1 - w_2, w_2) = (0.618..., 0.381...)`. On the line `gamma + delta = 1`
//! the evaluation is uninformative (`Pr[Psi = 1]` is the same for wins and losses), the line is
//! invariant, and the map on it is the back-up of independent values, whose fixed point is
//! Pearl's and Nau's `w_2` (see [`crate::analytic::closed_form::w_b`]). Eigenvalues come from
//! nalgebra's `complex_eigenvalues`.
//!
//! [`critical_f`] finds, for a start point, the `f = f1 = f2` at which the long-run limit of the
//! trajectory switches from `(0, 1)` (below) to `(0, 0)` (above), by a grid scan and bisection
//! on `f`. It assumes one switch on the bracketing grid interval, and reports an error when the
//! scan does not show a single switch.

use nalgebra::{Matrix2, Vector2};

use num_rational::BigRational;
use num_traits::{Signed, Zero};

use super::{BackUp, ErrorPair, back_up, back_up_in, long_run};
use crate::analytic::dgame::check_unit;
use crate::error::{Error, Result};
use crate::numeric::enclosure::{Enclosure, Ring};
use crate::numeric::number::rational_to_f64;

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
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::stability::jacobian;
/// let j = jacobian(0.0, 0.0, 0.7, 0.6, BackUp::Max);
/// assert!((j[(0, 0)] - 0.8).abs() < 1e-15 && (j[(1, 1)] - 0.6).abs() < 1e-15);
/// ```
pub fn jacobian(gamma: f64, delta: f64, f1: f64, f2: f64, from: BackUp) -> Matrix2<f64> {
    let m = jacobian_in(&gamma, &delta, &f1, &f2, from);
    Matrix2::new(m[0][0], m[0][1], m[1][0], m[1][1])
}

/// The Jacobian in any [`Ring`]: `[[d gamma'/d gamma, d gamma'/d delta], [d delta'/d gamma,
/// d delta'/d delta]]`.
fn jacobian_in<T: Ring>(g: &T, d: &T, f1: &T, f2: &T, from: BackUp) -> [[T; 2]; 2] {
    match from {
        BackUp::Max => max_jacobian_in(g, d, f1, f2),
        BackUp::Min => {
            // min_to_min(g, d, f1, f2) = swap(max_to_max(d, g, f2, f1)).
            let [[a, b], [c, e]] = max_jacobian_in(d, g, f2, f1);
            [[e, c], [b, a]]
        }
    }
}

fn max_jacobian_in<T: Ring>(g: &T, d: &T, f1: &T, f2: &T) -> [[T; 2]; 2] {
    let one = T::one();
    let zero = one.sub(&one);
    let two = one.add(&one);
    let a = g.mul(g).mul(f2).add(&g.mul(&one.sub(d)).mul(&one.sub(f2)));
    let a_g = two.mul(g).mul(f2).add(&one.sub(d).mul(&one.sub(f2)));
    let a_d = zero.sub(&g.mul(&one.sub(f2)));
    let b = d.mul(&two.sub(d));
    let b_d = two.sub(&two.mul(d));
    let gamma_g = two.sub(&two.mul(&a)).mul(&a_g);
    let gamma_d = two.sub(&two.mul(&a)).mul(&a_d);
    let delta_g = zero.sub(&b.mul(&one.sub(f1)).mul(&a_g));
    let delta_d = two
        .mul(&b)
        .mul(&b_d)
        .mul(f1)
        .add(&b_d.mul(&one.sub(&a)).mul(&one.sub(f1)))
        .sub(&b.mul(&a_d).mul(&one.sub(f1)));
    [[gamma_g, gamma_d], [delta_g, delta_d]]
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
    /// use pathology::analytic::errprop::stability::Stability;
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
    /// Intervals `(gamma, delta)` proved to contain the exact fixed point (degenerate for the
    /// exact corners).
    pub enclosure: ErrorPair<Enclosure>,
    /// How the point was proved to be a fixed point.
    pub certificate: Certificate,
}

/// How a listed fixed point was proved to exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Certificate {
    /// Mapped to itself in exact rational arithmetic (the corners `(0, 0)`, `(0, 1)`,
    /// `(1, 0)`); classified from the exact (triangular) Jacobian.
    Exact,
    /// The Krawczyk test in outward-rounded interval arithmetic: a unique fixed point in the
    /// enclosure.
    Krawczyk,
    /// The one-dimensional Krawczyk test on an invariant edge (`gamma = 0` or `delta = 0`,
    /// which the map keeps): a unique fixed point on the edge in the enclosure.
    KrawczykOnEdge,
}

impl Certificate {
    /// The name printed by the CLI.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::errprop::stability::Certificate;
    /// assert_eq!(Certificate::KrawczykOnEdge.name(), "krawczyk-on-edge");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Certificate::Exact => "exact",
            Certificate::Krawczyk => "krawczyk",
            Certificate::KrawczykOnEdge => "krawczyk-on-edge",
        }
    }
}

/// Eigenvalues of the Jacobian at a point and the resulting classification.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::stability::{Stability, classify};
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
    let stability = stability_of(&eigenvalues, UNIT_MODULUS_TOLERANCE);
    FixedPoint {
        point: ErrorPair { gamma, delta },
        eigenvalues,
        stability,
        enclosure: ErrorPair {
            gamma: Enclosure::point(gamma),
            delta: Enclosure::point(delta),
        },
        certificate: Certificate::Krawczyk,
    }
}

/// Classification from eigenvalues sorted by modulus, larger first; a modulus within
/// `tolerance` of 1 is non-hyperbolic.
fn stability_of(eigenvalues: &[(f64, f64); 2], tolerance: f64) -> Stability {
    let modulus = |(re, im): (f64, f64)| re.hypot(im);
    let (big, small) = (modulus(eigenvalues[0]), modulus(eigenvalues[1]));
    let near_one = |m: f64| (m - 1.0).abs() <= tolerance;
    if near_one(big) || near_one(small) {
        Stability::NonHyperbolic
    } else if big < 1.0 {
        Stability::Attracting
    } else if small > 1.0 {
        Stability::Repelling
    } else {
        Stability::Saddle
    }
}

/// The certified fixed points of the map in `[0, 1]^2` and how many solver candidates were
/// dropped ([`certified_fixed_points`]).
#[derive(Debug, Clone, PartialEq)]
pub struct FixedPoints {
    /// The certified fixed points, sorted by `(gamma, delta)`.
    pub points: Vec<FixedPoint>,
    /// Candidate roots of the Newton solver (after deduplication) that failed certification.
    pub uncertified: usize,
}

/// Krawczyk boxes tried around each candidate: these half-widths, smallest first.
pub const KRAWCZYK_RADII: [f64; 4] = [1e-13, 1e-11, 1e-9, 1e-7];
/// A candidate coordinate this close to 0 is moved onto the invariant edge (`gamma = 0` or
/// `delta = 0`) before certification.
pub const EDGE_SNAP: f64 = 1e-9;

/// The fixed points of the map in `[0, 1]^2` for the exact factors `f1`, `f2`, each certified.
///
/// Candidates come from Newton's method in `f64` from a grid of 21 x 21 starts (plus the
/// corners). A candidate is listed only when it is proved to be near a fixed point:
///
/// * the corners `(0, 0)`, `(0, 1)`, `(1, 0)` are mapped to themselves in exact rationals, and
///   classified from the exact Jacobian (triangular there, so its eigenvalues are its
///   diagonal): at `f = 1/2` the origin has the eigenvalue 1 exactly and is
///   [`Stability::NonHyperbolic`];
/// * other candidates pass the Krawczyk test in outward-rounded interval arithmetic
///   ([`Enclosure`], with the factors enclosed from their exact values): for a box `X` around
///   the candidate `c`, `Y ~ (J(c) - I)^-1` and `F(x) = map(x) - x`, the operator
///   `K = c - Y F(c) + (I - Y (J(X) - I)) (X - c)` lying in the interior of `X` proves a unique
///   fixed point in `X`, and it lies in `K`. Candidates on the invariant edges `gamma = 0` and
///   `delta = 0` are tested on the edge (a one-dimensional Krawczyk test), which proves the
///   fixed point lies on the edge of the square and not just outside it. Boxes of half-width
///   [`KRAWCZYK_RADII`] are tried.
///
/// Candidates that fail are dropped and counted ([`FixedPoints::uncertified`]): near a
/// non-hyperbolic point the map is close to the identity, so Newton's residual test accepts
/// points that are not fixed (at `f = 1/2`, `(1e-7, 2e-7)` moves by about `1e-14`).
///
/// The stability of the non-corner points is classified from `f64` eigenvalues of the Jacobian
/// at the candidate (modulus within [`UNIT_MODULUS_TOLERANCE`] of 1: non-hyperbolic).
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::stability::{Stability, certified_fixed_points};
/// use pathology::numeric::number::parse_rational;
/// let half = parse_rational("1/2").unwrap();
/// let found = certified_fixed_points(&half, &half, BackUp::Max).unwrap();
/// let origin = &found.points[0];
/// assert_eq!((origin.point.gamma, origin.point.delta), (0.0, 0.0));
/// assert_eq!(origin.stability, Stability::NonHyperbolic);
/// assert!(found.points.iter().all(|p| p.point.gamma + p.point.delta > 0.1 || p.point.gamma + p.point.delta == 0.0));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] when `f1` or `f2` is outside `[0, 1]`.
pub fn certified_fixed_points(
    f1: &BigRational,
    f2: &BigRational,
    from: BackUp,
) -> Result<FixedPoints> {
    check_unit("f1", f1)?;
    check_unit("f2", f2)?;
    let (x1, x2) = (rational_to_f64(f1), rational_to_f64(f2));
    let (e1, e2) = (Enclosure::of(f1), Enclosure::of(f2));
    let corners = [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0)];
    let mut candidates: Vec<(f64, f64)> = corners.to_vec();
    for i in 0..=GRID {
        for j in 0..=GRID {
            let start = (i as f64 / GRID as f64, j as f64 / GRID as f64);
            if let Some(p) = newton(start, x1, x2, from) {
                let snap = |v: f64| if v.abs() < EDGE_SNAP { 0.0 } else { v };
                let p = (snap(p.0), snap(p.1));
                if !candidates.iter().any(|q| {
                    (q.0 - p.0).abs() < DEDUPLICATION_DISTANCE
                        && (q.1 - p.1).abs() < DEDUPLICATION_DISTANCE
                }) {
                    candidates.push(p);
                }
            }
        }
    }
    let mut points = Vec::new();
    let mut uncertified = 0;
    for c in candidates {
        let certified = if corners.contains(&c) {
            exact_corner(c, f1, f2, from)
        } else {
            certify(c, &e1, &e2, from).map(|(enclosure, certificate)| {
                // The listed point lies in its enclosure: the candidate, or else the
                // enclosure's midpoint.
                let pick = |x: f64, e: &Enclosure| {
                    if e.lower <= x && x <= e.upper {
                        x
                    } else {
                        (0.5 * (e.lower + e.upper)).clamp(e.lower, e.upper)
                    }
                };
                let c = (pick(c.0, &enclosure.gamma), pick(c.1, &enclosure.delta));
                let mut p = classify(c.0, c.1, x1, x2, from);
                p.enclosure = enclosure;
                p.certificate = certificate;
                p
            })
        };
        match certified {
            Some(p) => points.push(p),
            None => uncertified += 1,
        }
    }
    points.sort_by(|a, b| {
        (a.point.gamma, a.point.delta)
            .partial_cmp(&(b.point.gamma, b.point.delta))
            .expect("finite")
    });
    Ok(FixedPoints {
        points,
        uncertified,
    })
}

/// The certified fixed points of the map at the `f64` factors `f1`, `f2` (exact as doubles),
/// sorted by `(gamma, delta)`: [`certified_fixed_points`] without the count of dropped
/// candidates.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::stability::fixed_points;
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
    let exact = |x: f64| BigRational::from_float(x).expect("finite in [0, 1]");
    Ok(certified_fixed_points(&exact(f1), &exact(f2), from)?.points)
}

/// A corner `(0, 0)`, `(0, 1)` or `(1, 0)`: mapped to itself in exact rationals and classified
/// from the exact Jacobian when it is triangular.
fn exact_corner(
    c: (f64, f64),
    f1: &BigRational,
    f2: &BigRational,
    from: BackUp,
) -> Option<FixedPoint> {
    let exact = |x: f64| BigRational::from_float(x).expect("0 or 1");
    let (g, d) = (exact(c.0), exact(c.1));
    let (g2, d2) = back_up_in(&g, &d, f1, f2, from);
    if g2 != g || d2 != d {
        return None;
    }
    let mut p = classify(c.0, c.1, rational_to_f64(f1), rational_to_f64(f2), from);
    let j = jacobian_in(&g, &d, f1, f2, from);
    if j[0][1].is_zero() || j[1][0].is_zero() {
        let one = BigRational::from_integer(1.into());
        let mut diagonal = [j[0][0].clone(), j[1][1].clone()];
        if diagonal[0].abs() < diagonal[1].abs() {
            diagonal.swap(0, 1);
        }
        p.eigenvalues = [
            (rational_to_f64(&diagonal[0]), 0.0),
            (rational_to_f64(&diagonal[1]), 0.0),
        ];
        let (big, small) = (diagonal[0].abs(), diagonal[1].abs());
        p.stability = if big == one || small == one {
            Stability::NonHyperbolic
        } else if big < one {
            Stability::Attracting
        } else if small > one {
            Stability::Repelling
        } else {
            Stability::Saddle
        };
    }
    p.certificate = Certificate::Exact;
    Some(p)
}

/// Runs the Krawczyk test around a candidate, on the invariant edge when a coordinate is 0.
fn certify(
    c: (f64, f64),
    f1: &Enclosure,
    f2: &Enclosure,
    from: BackUp,
) -> Option<(ErrorPair<Enclosure>, Certificate)> {
    let unit = Enclosure {
        lower: 0.0,
        upper: 1.0,
    };
    let within = |e: &Enclosure| unit.lower <= e.lower && e.upper <= unit.upper;
    for radius in KRAWCZYK_RADII {
        let found = if c.0 == 0.0 {
            krawczyk_on_edge(c.1, radius, 1, f1, f2, from).map(|d| {
                (
                    ErrorPair {
                        gamma: Enclosure::point(0.0),
                        delta: d,
                    },
                    Certificate::KrawczykOnEdge,
                )
            })
        } else if c.1 == 0.0 {
            krawczyk_on_edge(c.0, radius, 0, f1, f2, from).map(|g| {
                (
                    ErrorPair {
                        gamma: g,
                        delta: Enclosure::point(0.0),
                    },
                    Certificate::KrawczykOnEdge,
                )
            })
        } else {
            krawczyk(c, radius, f1, f2, from).map(|e| (e, Certificate::Krawczyk))
        };
        if let Some(found) = found
            && within(&found.0.gamma)
            && within(&found.0.delta)
        {
            return Some(found);
        }
    }
    None
}

/// The two-dimensional Krawczyk test on the box of half-width `radius` around `c`: the
/// enclosure `K` of the unique fixed point in the box, or `None` when the test fails.
fn krawczyk(
    c: (f64, f64),
    radius: f64,
    f1: &Enclosure,
    f2: &Enclosure,
    from: BackUp,
) -> Option<ErrorPair<Enclosure>> {
    let x = [
        Enclosure::around(c.0, radius),
        Enclosure::around(c.1, radius),
    ];
    let m = [Enclosure::point(c.0), Enclosure::point(c.1)];
    let (g, d) = back_up_in(&m[0], &m[1], f1, f2, from);
    let f_mid = [g.sub(&m[0]), d.sub(&m[1])];
    // Y: an approximate inverse of J(c) - I (any matrix makes the test rigorous).
    let system = jacobian(c.0, c.1, f1.lower, f2.lower, from) - Matrix2::identity();
    let y = system.try_inverse()?;
    let y = |i: usize, k: usize| Enclosure::point(y[(i, k)]);
    let j = jacobian_in(&x[0], &x[1], f1, f2, from);
    let identity = |i: usize, k: usize| Enclosure::point(if i == k { 1.0 } else { 0.0 });
    let mut k = [Enclosure::point(0.0); 2];
    for i in 0..2 {
        let mut sum = m[i]
            .sub(&y(i, 0).mul(&f_mid[0]))
            .sub(&y(i, 1).mul(&f_mid[1]));
        for col in 0..2 {
            // (I - Y (J(X) - I))[i][col]
            let mut entry = identity(i, col);
            for (r, row) in j.iter().enumerate() {
                entry = entry.sub(&y(i, r).mul(&row[col].sub(&identity(r, col))));
            }
            sum = sum.add(&entry.mul(&x[col].sub(&m[col])));
        }
        if !sum.inside(&x[i]) {
            return None;
        }
        k[i] = sum;
    }
    Some(ErrorPair {
        gamma: k[0],
        delta: k[1],
    })
}

/// The one-dimensional Krawczyk test on an invariant edge: coordinate `free` (0: gamma, with
/// delta = 0; 1: delta, with gamma = 0) in the interval of half-width `radius` around `c`.
fn krawczyk_on_edge(
    c: f64,
    radius: f64,
    free: usize,
    f1: &Enclosure,
    f2: &Enclosure,
    from: BackUp,
) -> Option<Enclosure> {
    let zero = Enclosure::point(0.0);
    let one = Enclosure::point(1.0);
    let at = |v: &Enclosure| if free == 0 { (*v, zero) } else { (zero, *v) };
    let component = |p: (Enclosure, Enclosure)| if free == 0 { p.0 } else { p.1 };
    let x = Enclosure::around(c, radius);
    let m = Enclosure::point(c);
    let (g, d) = at(&m);
    let f_mid = component(back_up_in(&g, &d, f1, f2, from)).sub(&m);
    let (gc, dc) = if free == 0 { (c, 0.0) } else { (0.0, c) };
    let slope = jacobian(gc, dc, f1.lower, f2.lower, from)[(free, free)] - 1.0;
    if slope == 0.0 || !slope.is_finite() {
        return None;
    }
    let y = Enclosure::point(1.0 / slope);
    let (gx, dx) = at(&x);
    let derivative = jacobian_in(&gx, &dx, f1, f2, from)[free][free].sub(&one);
    let k = m
        .sub(&y.mul(&f_mid))
        .add(&one.sub(&y.mul(&derivative)).mul(&x.sub(&m)));
    k.inside(&x).then_some(k)
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

impl Attractor {
    /// The attractor in words: `(0, 0)`, `(0, 1)`, `(1, 0)` or `another point`.
    pub fn describe(self) -> &'static str {
        match self {
            Attractor::Origin => "(0, 0)",
            Attractor::ZeroOne => "(0, 1)",
            Attractor::OneZero => "(1, 0)",
            Attractor::Other => "another point (an interior fixed point, or not settled)",
        }
    }
}

/// The attractor nearest a long-run limit (within [`LIMIT_TOLERANCE`]).
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::stability::{Attractor, attractor_of};
/// use pathology::analytic::errprop::{BackUp, ErrorPair, long_run};
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
    /// use pathology::analytic::errprop::stability::{CRITICAL_F_TOLERANCE, critical_f};
    /// use pathology::analytic::errprop::{BackUp, ErrorPair};
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
/// use pathology::analytic::errprop::{BackUp, ErrorPair};
/// use pathology::analytic::errprop::stability::critical_f;
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
            "--gamma, --delta",
            "a start whose long-run limit switches once to (0, 0) as f = f1 = f2 grows",
            format!(
                "({}, {}), whose limits at f = 0.01, 0.5 and 1 are {}, {} and {}",
                start.gamma,
                start.delta,
                classes[0].describe(),
                classes[49].describe(),
                classes[99].describe()
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
    fn near_origin_candidates_at_one_half_fail_certification() {
        // The points the Newton residual test accepted at f = 1/2.
        let half = Enclosure::point(0.5);
        for from in [BackUp::Max, BackUp::Min] {
            for c in [(1.0e-7, 1.9e-7), (0.0, 1.04e-7), (1.04e-7, 0.0)] {
                assert_eq!(certify(c, &half, &half, from), None, "{c:?}");
            }
            // A genuine interior fixed point passes, and its box is tight.
            let golden = (1.0 - 0.381_966_011_250_105_1, 0.381_966_011_250_105_1);
            let c = if from == BackUp::Max {
                golden
            } else {
                (golden.1, golden.0)
            };
            let (e, certificate) = certify(c, &half, &half, from).unwrap();
            assert_eq!(certificate, Certificate::Krawczyk);
            assert!(e.gamma.upper - e.gamma.lower < 1e-9);
        }
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
