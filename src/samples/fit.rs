//! The mix of task difficulties that per-problem counts estimate (`pathology samples fit`):
//! the nonparametric maximum likelihood estimate (NPMLE) of the mixing law of a binomial
//! mixture, with a certificate that it is the maximum.
//!
//! **Model.** Problem i has `c_i` correct answers among `n_i` samples, `c_i ~ Binomial(n_i,
//! p_i)` given its success rate `p_i`, and the rates are drawn from a law G on [0, 1] (any
//! law: no shape is assumed). The likelihood of G is `prod_i f_G(i)` with `f_G(i) = int
//! Binom(c_i; n_i, p) dG(p)`. Its maximiser over all laws exists, is discrete with finitely
//! many support points, and is characterised by the gradient function (Laird 1978; Lindsay
//! 1983, "The geometry of mixture likelihoods", Ann. Statist. 11)
//!
//! `D_G(p) = sum_i Binom(c_i; n_i, p) / f_G(i) - N` (N problems):
//!
//! G is the NPMLE if and only if `D_G(p) <= 0` for every p in [0, 1]; then `D_G = 0` on the
//! support of G. Whatever G, concavity of the log-likelihood gives `l(NPMLE) - l(G) <= sup_p
//! D_G(p)`, so the printed `max D_G / N` also bounds the shortfall of the log-likelihood
//! per problem.
//!
//! **Computation.** Identical `(c, n)` pairs are grouped first (1,060 problems of 128 samples
//! have at most 129 distinct pairs). Each binomial kernel is taken in log space and scaled by
//! its own largest value (at `p = c/n`), so no pmf of a large n underflows where it matters
//! and the scaling cancels in `D_G`. The weights are fitted by the constrained Newton method
//! (Wang 2007, "On fast computation of the nonparametric maximum likelihood estimate of a
//! mixing distribution", JRSS B 69): at each step every local maximum of `D_G` (located on a
//! grid, then refined by golden-section search) joins the support, a quadratic model of the
//! log-likelihood is maximised over the simplex by non-negative least squares
//! (Lawson-Hanson), a backtracking line search keeps the step ascending, and points of weight
//! zero leave the support. The certificate is `max_p D_G(p) / N` found on a dense grid of
//! [`CERTIFICATE_GRID`] points with local refinement at every grid maximum: a numerical
//! search, not an interval bound (a maximum of `D_G` narrower than the grid's spacing could
//! escape it; a kernel of n samples is about `sqrt(p (1 - p) / n)` wide, and about `1/n`
//! near the ends, where the grid is densest).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::error::{Error, Result};
use crate::numeric::enclosure::{Enclosure, TwoSided};
use crate::numeric::number::{format_decimal, rational_to_f64};
use crate::report::{Cell, Column, Kind, Report, Table, printed_error_bound};

/// The tolerance of the certificate: the fit is certified when `max_p D_G(p) / N` is at most
/// this.
pub const CERTIFICATE_TOLERANCE: f64 = 1e-6;

/// The number of points of the grid on which the certificate searches for the largest
/// gradient (each local maximum then refined).
pub const CERTIFICATE_GRID: usize = 20_001;

/// The points of the working grid of the fitting iterations.
const WORK_GRID: usize = 1_001;

/// The iterations after which the fit stops even when not yet certified.
const MAX_ITERATIONS: usize = 500;

/// The gradient per problem at which the iterations stop (well below the certificate's
/// tolerance).
const STOP_GRADIENT: f64 = 1e-10;

/// Support points closer than this are merged after the iterations (when the merged law is
/// still certified).
const MERGE_DISTANCE: f64 = 1e-4;

/// The largest number of starting support points (the distinct shares c/n, when there are
/// at most this many).
const MAX_START: usize = 200;

/// The decimals of the `--tasks` string.
pub const TASKS_DECIMALS: u32 = 6;

/// The NPMLE of the mixing law and its certificate.
#[derive(Debug, Clone, PartialEq)]
pub struct MixFit {
    /// The support points (success rates p), ascending.
    pub support: Vec<f64>,
    /// Their weights (sum 1 up to rounding).
    pub weights: Vec<f64>,
    /// The log-likelihood `sum_i ln f_G(i)` (binomial coefficients included).
    pub log_likelihood: f64,
    /// The largest `D_G(p) / N` found over [0, 1] (the certificate).
    pub max_gradient: f64,
    /// Where it was found.
    pub max_gradient_at: f64,
    /// The constrained Newton iterations taken.
    pub iterations: usize,
    /// The number of problems N.
    pub problems: u64,
    /// The number of distinct `(c, n)` pairs.
    pub groups: usize,
}

impl MixFit {
    /// Whether the certificate holds: `max D_G / N <= CERTIFICATE_TOLERANCE`.
    pub fn certified(&self) -> bool {
        self.max_gradient <= CERTIFICATE_TOLERANCE
    }
}

/// Checks per-problem counts `(c, n)`: at least one problem, `n >= 1`, `c <= n`.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming the counts for an empty list, `n = 0` or `c > n`.
pub fn check_counts(counts: &[(u64, u64)]) -> Result<()> {
    if counts.is_empty() {
        return Err(Error::invalid("the counts", "at least one problem", "none"));
    }
    for (i, &(c, n)) in counts.iter().enumerate() {
        if n == 0 {
            return Err(Error::invalid(
                "the counts",
                "n >= 1 samples for every problem",
                format!("n = 0 at problem {}", i + 1),
            ));
        }
        if c > n {
            return Err(Error::invalid(
                "the counts",
                "c <= n for every problem",
                format!("c = {c} > n = {n} at problem {}", i + 1),
            ));
        }
    }
    Ok(())
}

/// One distinct `(c, n)` pair: its multiplicity and its scaled log-kernel.
#[derive(Debug, Clone)]
struct Group {
    correct: f64,
    wrong: f64,
    multiplicity: f64,
    /// `ln Binom(c; n, c/n)`: the kernel's largest value, by which it is scaled.
    log_peak: f64,
    /// `log_peak` without the binomial coefficient (which cancels in the scaled kernel).
    log_scale: f64,
}

fn xlny(x: f64, y: f64) -> f64 {
    if x == 0.0 { 0.0 } else { x * y.ln() }
}

fn ln_choose(n: u64, c: u64) -> f64 {
    let c = c.min(n - c);
    (0..c).map(|i| ((n - i) as f64 / (i + 1) as f64).ln()).sum()
}

impl Group {
    fn new(c: u64, n: u64, multiplicity: u64) -> Self {
        let (cf, wf) = (c as f64, (n - c) as f64);
        let share = cf / n as f64;
        Group {
            correct: cf,
            wrong: wf,
            multiplicity: multiplicity as f64,
            log_peak: ln_choose(n, c) + xlny(cf, share) + xlny(wf, 1.0 - share),
            log_scale: xlny(cf, share) + xlny(wf, 1.0 - share),
        }
    }

    /// `Binom(c; n, p) / Binom(c; n, c/n)`, in [0, 1].
    fn kernel(&self, p: f64) -> f64 {
        let log = xlny(self.correct, p)
            + if self.wrong == 0.0 {
                0.0
            } else {
                self.wrong * (-p).ln_1p()
            };
        (log - self.log_scale).exp().min(1.0)
    }
}

fn groups_of(counts: &[(u64, u64)]) -> Vec<Group> {
    let mut sorted: Vec<(u64, u64)> = counts.to_vec();
    sorted.sort_unstable();
    let mut groups = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j < sorted.len() && sorted[j] == sorted[i] {
            j += 1;
        }
        groups.push(Group::new(sorted[i].0, sorted[i].1, (j - i) as u64));
        i = j;
    }
    groups
}

/// The state of a fit: the support, the weights and each group's scaled mixture density.
struct State<'a> {
    groups: &'a [Group],
    total: f64,
    support: Vec<f64>,
    weights: Vec<f64>,
    /// `kernels[j][g]`: group g's scaled kernel at support point j.
    kernels: Vec<Vec<f64>>,
    density: Vec<f64>,
}

impl<'a> State<'a> {
    fn new(groups: &'a [Group], support: Vec<f64>, weights: Vec<f64>) -> Self {
        let total = groups.iter().map(|g| g.multiplicity).sum();
        let kernels = support
            .iter()
            .map(|&p| groups.iter().map(|g| g.kernel(p)).collect())
            .collect();
        let mut state = State {
            groups,
            total,
            support,
            weights,
            kernels,
            density: Vec::new(),
        };
        state.density = state.density_of(&state.weights);
        state
    }

    fn density_of(&self, weights: &[f64]) -> Vec<f64> {
        let mut f = vec![0.0; self.groups.len()];
        for (w, k) in weights.iter().zip(&self.kernels) {
            for (fg, kg) in f.iter_mut().zip(k) {
                *fg += w * kg;
            }
        }
        f
    }

    /// The scaled log-likelihood `sum_g m_g ln f_g` (without the kernels' peaks).
    fn scaled_log_likelihood(&self, density: &[f64]) -> f64 {
        self.groups
            .iter()
            .zip(density)
            .map(|(g, f)| g.multiplicity * f.ln())
            .sum()
    }

    /// `D_G(p) / N`.
    fn gradient(&self, p: f64) -> f64 {
        let s: f64 = self
            .groups
            .iter()
            .zip(&self.density)
            .map(|(g, f)| g.multiplicity * g.kernel(p) / f)
            .sum();
        s / self.total - 1.0
    }

    /// The local maxima of `D_G / N` on a grid, each refined by golden-section search:
    /// `(p, D_G(p) / N)`.
    fn local_maxima(&self, grid: &[f64]) -> Vec<(f64, f64)> {
        let values: Vec<f64> = grid.iter().map(|&p| self.gradient(p)).collect();
        let mut maxima = Vec::new();
        let last = grid.len() - 1;
        for (t, (&p, &value)) in grid.iter().zip(&values).enumerate() {
            let left = if t == 0 {
                f64::NEG_INFINITY
            } else {
                values[t - 1]
            };
            let right = if t == last {
                f64::NEG_INFINITY
            } else {
                values[t + 1]
            };
            if (value >= left && value > right) || (value > left && value >= right) {
                let a = grid[t.saturating_sub(1)];
                let b = grid[(t + 1).min(last)];
                maxima.push(self.golden(a, b, p, value));
            }
        }
        maxima
    }

    /// Golden-section search for the largest `D_G / N` on `[a, b]`, never worse than
    /// `(start, value)`.
    fn golden(&self, mut a: f64, mut b: f64, start: f64, value: f64) -> (f64, f64) {
        const RATIO: f64 = 0.618_033_988_749_894_8;
        let mut best = (start, value);
        let mut x1 = b - RATIO * (b - a);
        let mut x2 = a + RATIO * (b - a);
        let (mut f1, mut f2) = (self.gradient(x1), self.gradient(x2));
        for _ in 0..60 {
            if b - a <= 1e-15 {
                break;
            }
            if f1 < f2 {
                a = x1;
                x1 = x2;
                f1 = f2;
                x2 = a + RATIO * (b - a);
                f2 = self.gradient(x2);
            } else {
                b = x2;
                x2 = x1;
                f2 = f1;
                x1 = b - RATIO * (b - a);
                f1 = self.gradient(x1);
            }
        }
        for (x, f) in [(x1, f1), (x2, f2)] {
            if f > best.1 {
                best = (x, f);
            }
        }
        best
    }

    /// The largest `D_G / N` on `grid` (refined) and at the support: `(p, value)`.
    fn certificate(&self, grid: &[f64]) -> (f64, f64) {
        let mut candidates = self.local_maxima(grid);
        for &p in &self.support {
            candidates.push((p, self.gradient(p)));
        }
        candidates
            .into_iter()
            .fold((0.0, f64::NEG_INFINITY), |best, c| {
                if c.1 > best.1 { c } else { best }
            })
    }

    /// Merges support points closer than `distance` into their weighted mean; whether any
    /// were merged.
    fn merge_close(&mut self, distance: f64) -> bool {
        let mut points: Vec<(f64, f64)> = self
            .support
            .iter()
            .copied()
            .zip(self.weights.iter().copied())
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut merged: Vec<(f64, f64)> = Vec::new();
        for (p, w) in points {
            match merged.last_mut() {
                Some(last) if p - last.0 < distance => {
                    let weight = last.1 + w;
                    if weight > 0.0 {
                        last.0 = (last.0 * last.1 + p * w) / weight;
                    }
                    last.1 = weight;
                }
                _ => merged.push((p, w)),
            }
        }
        if merged.len() == self.support.len() {
            return false;
        }
        *self = State::new(
            self.groups,
            merged.iter().map(|m| m.0).collect(),
            merged.iter().map(|m| m.1).collect(),
        );
        true
    }

    fn add_point(&mut self, p: f64) {
        if self.support.iter().any(|&s| (s - p).abs() <= 1e-14) {
            return;
        }
        self.kernels
            .push(self.groups.iter().map(|g| g.kernel(p)).collect());
        self.support.push(p);
        self.weights.push(0.0);
    }

    /// One constrained Newton step on the weights of the current support.
    fn newton_step(&mut self) {
        let columns = self.support.len();
        // Rows: sqrt(m_g) (k_gj / f_g - 2), then a row of ones aiming at 1: the sum
        // constraint folded into a homogeneous least-squares problem (Wang 2007, eq. 9).
        let mut matrix: Vec<Vec<f64>> = Vec::with_capacity(self.groups.len() + 1);
        for (g, group) in self.groups.iter().enumerate() {
            let root = group.multiplicity.sqrt();
            matrix.push(
                (0..columns)
                    .map(|j| root * (self.kernels[j][g] / self.density[g] - 2.0))
                    .collect(),
            );
        }
        matrix.push(vec![1.0; columns]);
        let mut target = vec![0.0; self.groups.len()];
        target.push(1.0);
        let solution = nnls(&matrix, &target);
        let sum: f64 = solution.iter().sum();
        if sum.is_nan() || sum <= 0.0 {
            return;
        }
        let proposal: Vec<f64> = solution.iter().map(|x| x / sum).collect();
        // Backtracking (Armijo) between the current weights and the proposal.
        let current = self.scaled_log_likelihood(&self.density);
        let slope: f64 = (0..columns)
            .map(|j| {
                let d: f64 = self
                    .groups
                    .iter()
                    .enumerate()
                    .map(|(g, group)| group.multiplicity * self.kernels[j][g] / self.density[g])
                    .sum();
                d * (proposal[j] - self.weights[j])
            })
            .sum();
        let mut step = 1.0;
        let mut accepted = None;
        for _ in 0..50 {
            let trial: Vec<f64> = self
                .weights
                .iter()
                .zip(&proposal)
                .map(|(w, p)| w + step * (p - w))
                .collect();
            let density = self.density_of(&trial);
            let value = self.scaled_log_likelihood(&density);
            if value >= current + step * slope / 3.0 {
                accepted = Some((trial, density));
                break;
            }
            step /= 2.0;
        }
        if let Some((weights, density)) = accepted {
            self.weights = weights;
            self.density = density;
        }
        // Points of weight zero leave the support.
        let keep: Vec<bool> = self.weights.iter().map(|&w| w > 0.0).collect();
        if keep.iter().any(|k| !k) {
            let mut j = 0;
            self.support.retain(|_| {
                j += 1;
                keep[j - 1]
            });
            let mut j = 0;
            self.weights.retain(|_| {
                j += 1;
                keep[j - 1]
            });
            let mut j = 0;
            self.kernels.retain(|_| {
                j += 1;
                keep[j - 1]
            });
            let sum: f64 = self.weights.iter().sum();
            for w in &mut self.weights {
                *w /= sum;
            }
            self.density = self.density_of(&self.weights);
        }
    }
}

/// A grid of `points` points on [0, 1], denser near the ends (`(1 - cos(pi t / T)) / 2`),
/// where the kernels of few failures or few successes are narrowest.
fn grid(points: usize) -> Vec<f64> {
    let last = (points - 1) as f64;
    (0..points)
        .map(|t| {
            if t == 0 {
                0.0
            } else if t + 1 == points {
                1.0
            } else {
                (1.0 - (std::f64::consts::PI * t as f64 / last).cos()) / 2.0
            }
        })
        .collect()
}

/// Non-negative least squares `min ||A x - b||, x >= 0` (Lawson & Hanson 1974, ch. 23);
/// `a` by rows.
fn nnls(a: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let columns = a.first().map_or(0, Vec::len);
    let mut x = vec![0.0; columns];
    let mut passive = vec![false; columns];
    let scale = a
        .iter()
        .flat_map(|r| r.iter())
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(1.0);
    let tolerance = 1e-13 * scale * (a.len() + columns) as f64;
    let gradient = |x: &[f64]| -> Vec<f64> {
        let residual: Vec<f64> = a
            .iter()
            .zip(b)
            .map(|(row, bi)| bi - row.iter().zip(x).map(|(r, xi)| r * xi).sum::<f64>())
            .collect();
        (0..columns)
            .map(|j| a.iter().zip(&residual).map(|(row, r)| row[j] * r).sum())
            .collect()
    };
    for _ in 0..3 * columns + 10 {
        let w = gradient(&x);
        let entering = (0..columns)
            .filter(|&j| !passive[j])
            .max_by(|&i, &j| w[i].total_cmp(&w[j]));
        let Some(t) = entering else { break };
        if w[t] <= tolerance {
            break;
        }
        passive[t] = true;
        for _ in 0..3 * columns + 10 {
            let set: Vec<usize> = (0..columns).filter(|&j| passive[j]).collect();
            let z_set = least_squares(a, b, &set);
            let mut z = vec![0.0; columns];
            for (&j, v) in set.iter().zip(&z_set) {
                z[j] = *v;
            }
            if set.iter().all(|&j| z[j] > 0.0) {
                x = z;
                break;
            }
            let alpha = set
                .iter()
                .filter(|&&j| z[j] <= 0.0)
                .map(|&j| x[j] / (x[j] - z[j]))
                .fold(f64::INFINITY, f64::min);
            for ((xj, zj), pj) in x.iter_mut().zip(&z).zip(passive.iter_mut()) {
                *xj += alpha * (zj - *xj);
                if *pj && *xj <= tolerance * 1e-3 {
                    *xj = 0.0;
                    *pj = false;
                }
            }
            if !passive.iter().any(|&p| p) {
                break;
            }
        }
    }
    x
}

/// The least-squares solution on the columns `set` of `a` (Householder QR).
fn least_squares(a: &[Vec<f64>], b: &[f64], set: &[usize]) -> Vec<f64> {
    let rows = a.len();
    let p = set.len();
    let mut m: Vec<Vec<f64>> = set
        .iter()
        .map(|&j| a.iter().map(|r| r[j]).collect())
        .collect(); // by columns
    let mut y = b.to_vec();
    for k in 0..p.min(rows) {
        let norm = m[k][k..].iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm == 0.0 {
            continue;
        }
        let alpha = if m[k][k] > 0.0 { -norm } else { norm };
        let mut v: Vec<f64> = m[k][k..].to_vec();
        v[0] -= alpha;
        let vnorm2: f64 = v.iter().map(|x| x * x).sum();
        if vnorm2 == 0.0 {
            continue;
        }
        for col in m.iter_mut().skip(k) {
            let dot: f64 = v.iter().zip(&col[k..]).map(|(a, b)| a * b).sum();
            let f = 2.0 * dot / vnorm2;
            for (c, vi) in col[k..].iter_mut().zip(&v) {
                *c -= f * vi;
            }
        }
        let dot: f64 = v.iter().zip(&y[k..]).map(|(a, b)| a * b).sum();
        let f = 2.0 * dot / vnorm2;
        for (c, vi) in y[k..].iter_mut().zip(&v) {
            *c -= f * vi;
        }
    }
    let mut z = vec![0.0; p];
    for k in (0..p.min(rows)).rev() {
        let mut s = y[k];
        for (column, zj) in m.iter().zip(&z).skip(k + 1) {
            s -= column[k] * zj;
        }
        z[k] = if m[k][k] == 0.0 { 0.0 } else { s / m[k][k] };
    }
    z
}

/// The NPMLE of the mixing law of per-problem success rates, with its certificate.
///
/// # Examples
///
/// ```
/// use pathology::samples::fit::fit_mixture;
/// // Half the problems always solved, half never: the mix is {0: 1/2, 1: 1/2}.
/// let fit = fit_mixture(&[(0, 10), (10, 10)]).unwrap();
/// assert!(fit.certified());
/// assert_eq!(fit.support.len(), 2);
/// assert!((fit.weights[0] - 0.5).abs() < 1e-9 && fit.support[1] > 1.0 - 1e-9);
/// ```
///
/// # Errors
///
/// As [`check_counts`].
pub fn fit_mixture(counts: &[(u64, u64)]) -> Result<MixFit> {
    check_counts(counts)?;
    let groups = groups_of(counts);
    // Start from the law of the observed shares c/n (weighted by multiplicity).
    let total: f64 = groups.iter().map(|g| g.multiplicity).sum();
    let mut start: Vec<(f64, f64)> = Vec::new();
    for g in &groups {
        let share = g.correct / (g.correct + g.wrong);
        match start.iter_mut().find(|(p, _)| (*p - share).abs() <= 1e-14) {
            Some(entry) => entry.1 += g.multiplicity / total,
            None => start.push((share, g.multiplicity / total)),
        }
    }
    if start.len() > MAX_START {
        // Many distinct shares (problems of many different n): a uniform grid of interior
        // points instead (every kernel is positive there), so that the first least-squares
        // problems stay small; the iterations add the points the data want.
        start = (0..MAX_START)
            .map(|i| ((i as f64 + 0.5) / MAX_START as f64, 1.0 / MAX_START as f64))
            .collect();
    }
    let mut state = State::new(
        &groups,
        start.iter().map(|s| s.0).collect(),
        start.iter().map(|s| s.1).collect(),
    );
    let work = grid(WORK_GRID);
    let mut iterations = 0;
    let mut previous = f64::NEG_INFINITY;
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        let maxima = state.local_maxima(&work);
        let largest = maxima.iter().map(|m| m.1).fold(f64::NEG_INFINITY, f64::max);
        for &(p, v) in &maxima {
            if v > 0.0 {
                state.add_point(p);
            }
        }
        state.newton_step();
        let value = state.scaled_log_likelihood(&state.density);
        if largest <= STOP_GRADIENT || (value - previous).abs() <= 1e-15 * value.abs().max(1.0) {
            break;
        }
        previous = value;
    }
    // The iterations leave clusters of points a few millionths apart where one support
    // point moved; each cluster is merged into its weighted mean and the weights refitted,
    // and the merged law is kept when it is still certified.
    let dense = grid(CERTIFICATE_GRID);
    let (mut at, mut max_gradient) = state.certificate(&dense);
    let mut merged = State::new(&groups, state.support.clone(), state.weights.clone());
    if merged.merge_close(MERGE_DISTANCE) {
        for _ in 0..20 {
            merged.newton_step();
        }
        let (merged_at, merged_gradient) = merged.certificate(&dense);
        if merged_gradient <= CERTIFICATE_TOLERANCE {
            state = merged;
            (at, max_gradient) = (merged_at, merged_gradient);
        }
    }
    let mut order: Vec<usize> = (0..state.support.len()).collect();
    order.sort_by(|&i, &j| state.support[i].total_cmp(&state.support[j]));
    let log_likelihood = groups
        .iter()
        .zip(&state.density)
        .map(|(g, f)| g.multiplicity * (g.log_peak + f.ln()))
        .sum();
    Ok(MixFit {
        support: order.iter().map(|&j| state.support[j]).collect(),
        weights: order.iter().map(|&j| state.weights[j]).collect(),
        log_likelihood,
        max_gradient,
        max_gradient_at: at,
        iterations,
        problems: counts.len() as u64,
        groups: groups.len(),
    })
}

/// The log-likelihood `sum_i ln int Binom(c_i; n_i, p) dG(p)` of the discrete law G with
/// `support` and `weights` (for comparing a fit with another law).
///
/// # Examples
///
/// ```
/// use pathology::samples::fit::log_likelihood;
/// // One problem, 1 of 2 correct, p = 1/2: ln(2 / 4).
/// let l = log_likelihood(&[(1, 2)], &[0.5], &[1.0]).unwrap();
/// assert!((l - 0.5f64.ln()).abs() < 1e-12);
/// ```
///
/// # Errors
///
/// As [`check_counts`]; [`Error::InvalidArgument`] when `support` and `weights` differ in
/// length or are empty.
pub fn log_likelihood(counts: &[(u64, u64)], support: &[f64], weights: &[f64]) -> Result<f64> {
    check_counts(counts)?;
    if support.is_empty() || support.len() != weights.len() {
        return Err(Error::invalid(
            "the law",
            "support points and weights of one (non-zero) length",
            format!("{} points, {} weights", support.len(), weights.len()),
        ));
    }
    let groups = groups_of(counts);
    let state = State::new(&groups, support.to_vec(), weights.to_vec());
    Ok(groups
        .iter()
        .zip(&state.density)
        .map(|(g, f)| g.multiplicity * (g.log_peak + f.ln()))
        .sum())
}

/// The data's exact in-sample pass@k: the mean over problems of `1 - C(n_i - c_i, k) /
/// C(n_i, k)` (the unbiased estimator of Chen et al. 2021), for each k of `ks`.
///
/// # Examples
///
/// ```
/// use pathology::samples::fit::in_sample_pass_at_k;
/// // One problem with 1 of 4 correct: pass@2 = 1 - C(3,2)/C(4,2) = 1/2.
/// let v = in_sample_pass_at_k(&[(1, 4)], &[1, 2]).unwrap();
/// assert_eq!(v[1].to_string(), "1/2");
/// ```
///
/// # Errors
///
/// As [`check_counts`]; [`Error::InvalidArgument`] naming `--k` for `k = 0` or a k above
/// some problem's n.
pub fn in_sample_pass_at_k(counts: &[(u64, u64)], ks: &[u64]) -> Result<Vec<BigRational>> {
    check_counts(counts)?;
    let smallest = counts.iter().map(|c| c.1).min().unwrap_or(0);
    for &k in ks {
        if k == 0 || k > smallest {
            return Err(Error::invalid(
                "--k",
                &format!("in 1..={smallest} (the fewest samples of a problem)"),
                k,
            ));
        }
    }
    let mut sorted: Vec<(u64, u64)> = counts.to_vec();
    sorted.sort_unstable();
    let largest_k = ks.iter().copied().max().unwrap_or(0);
    let mut sums = vec![BigRational::zero(); ks.len()];
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j < sorted.len() && sorted[j] == sorted[i] {
            j += 1;
        }
        let (c, n) = sorted[i];
        let multiplicity = BigRational::from_integer(BigInt::from(j - i));
        // C(n - c, k) / C(n, k) = prod_{t < k} (n - c - t) / (n - t), built up over k.
        let mut ratio = BigRational::one();
        let mut by_k = vec![BigRational::zero(); largest_k as usize + 1];
        by_k[0] = BigRational::one();
        for k in 1..=largest_k {
            if !ratio.is_zero() {
                ratio = if n - c < k {
                    BigRational::zero()
                } else {
                    ratio
                        * BigRational::new(BigInt::from(n - c - (k - 1)), BigInt::from(n - (k - 1)))
                };
            }
            by_k[k as usize] = ratio.clone();
        }
        for (s, &k) in sums.iter_mut().zip(ks) {
            *s += &multiplicity * (BigRational::one() - &by_k[k as usize]);
        }
        i = j;
    }
    let problems = BigRational::from_integer(BigInt::from(counts.len()));
    Ok(sums.into_iter().map(|s| s / &problems).collect())
}

/// The fitted law as exact decimals of [`TASKS_DECIMALS`] places whose shares sum to exactly
/// 1: `(R, W)` pairs. Each point and weight is rounded to the nearest; the largest share then
/// takes up the rounding difference so that the shares sum to 1 exactly; points whose share
/// rounds to 0 are left out (their weight is below half a unit of the last place), and two
/// points that round to the same R are merged.
pub fn rounded_mix(fit: &MixFit) -> Vec<(BigRational, BigRational)> {
    let unit = 10u64.pow(TASKS_DECIMALS);
    let mut items: Vec<(u64, i64)> = Vec::new();
    for (&p, &w) in fit.support.iter().zip(&fit.weights) {
        let r = (p.clamp(0.0, 1.0) * unit as f64).round() as u64;
        let s = (w.max(0.0) * unit as f64).round() as i64;
        if s == 0 {
            continue;
        }
        match items.iter_mut().find(|(q, _)| *q == r) {
            Some(item) => item.1 += s,
            None => items.push((r, s)),
        }
    }
    if items.is_empty() {
        // Every weight below half a unit cannot happen for weights summing to 1; keep the
        // heaviest point whole.
        let j = (0..fit.weights.len())
            .max_by(|&a, &b| fit.weights[a].total_cmp(&fit.weights[b]))
            .unwrap_or(0);
        let r = (fit.support.get(j).copied().unwrap_or(0.0) * unit as f64).round() as u64;
        items.push((r, unit as i64));
    }
    let sum: i64 = items.iter().map(|i| i.1).sum();
    let heaviest = (0..items.len()).max_by_key(|&i| items[i].1).unwrap_or(0);
    items[heaviest].1 += unit as i64 - sum;
    items.sort_unstable();
    let den = BigInt::from(unit);
    items
        .into_iter()
        .map(|(r, s)| {
            (
                BigRational::new(BigInt::from(r), den.clone()),
                BigRational::new(BigInt::from(s), den.clone()),
            )
        })
        .collect()
}

/// The largest sum of the k of `--k` in exact mode: the fitted curve's powers `(1 - R)^k` of
/// decimals of six places have about 20 k bits each (the sum 2,000,000 is about a second per
/// support point).
pub const MAX_EXACT_K_SUM: u64 = 2_000_000;

/// A rational as a report cell: exact, or its nearest `f64` with the rounding as its bound.
pub(crate) fn value_cell(value: &BigRational, exact: bool) -> Cell {
    if exact {
        Cell::Exact(value.clone())
    } else {
        let nearest = rational_to_f64(value);
        Cell::Bounded {
            value: nearest,
            bound: Enclosure::of(value).radius_around(nearest),
        }
    }
}

/// The fitted mix's pass@k `sum_j W_j (1 - (1 - R_j)^k)`, enclosed in outward-rounded `f64`
/// (every k): `(value, bound)`.
fn enclosed_pass_at_k(mix: &[(BigRational, BigRational)], k: u64) -> (f64, f64) {
    use crate::numeric::enclosure::Ring;
    let mut sum = Enclosure::point(0.0);
    for (r, w) in mix {
        let q = <BigRational as One>::one() - r;
        let miss = TwoSided::of(&q).power(k);
        sum = sum.add(&Enclosure::of(w).mul(&miss.complement));
    }
    let value = (sum.lower + sum.upper) / 2.0;
    (value, sum.radius_around(value))
}

/// The report of `pathology samples fit`: the fitted mix (the `--tasks` string of `pathology
/// inference`), its certificate, and the fitted model's pass@k beside the data's exact
/// in-sample pass@k for each k of `ks` (the data's column is empty for a k above some
/// problem's n: the fitted curve extrapolates there, the data say nothing).
///
/// # Examples
///
/// ```
/// use pathology::samples::fit::fit_report;
/// let report = fit_report(&[(0, 4), (4, 4), (2, 4)], &[1, 2, 8], true).unwrap();
/// assert_eq!(report.tables[0].name, "mix");
/// assert!(report.notes.iter().any(|n| n.contains("--tasks")));
/// ```
///
/// # Errors
///
/// As [`check_counts`]; [`Error::InvalidArgument`] naming `--k` for an empty list or k = 0,
/// or (with `exact`) a list whose k sum to more than [`MAX_EXACT_K_SUM`].
pub fn fit_report(counts: &[(u64, u64)], ks: &[u64], exact: bool) -> Result<Report> {
    check_counts(counts)?;
    if ks.is_empty() || ks.contains(&0) {
        return Err(Error::invalid(
            "--k",
            "a list of k >= 1",
            "0 or an empty list",
        ));
    }
    let k_sum = ks.iter().fold(0u64, |a, &k| a.saturating_add(k));
    if exact && k_sum > MAX_EXACT_K_SUM {
        return Err(Error::invalid(
            "--k",
            &format!(
                "a list whose k sum to at most {MAX_EXACT_K_SUM} with --exact (or leave --exact \
                 out: f64 with a rigorous bound takes any k)"
            ),
            format!("{} (sum {k_sum})", list_text(ks)),
        ));
    }
    let fit = fit_mixture(counts)?;
    let mix = rounded_mix(&fit);
    let tasks = mix
        .iter()
        .map(|(r, w)| format!("{}:{}", decimal_text(r), decimal_text(w)))
        .collect::<Vec<_>>()
        .join(",");
    let mut mix_table = Table::new(
        "mix",
        "the fitted mix of success rates (NPMLE): R as printed in --tasks, its share W",
        vec![Column::key("R", Kind::Real), Column::new("W", Kind::Real)],
    );
    for (r, w) in &mix {
        mix_table.push(vec![Cell::Exact(r.clone()), Cell::Exact(w.clone())]);
    }
    let mut certificate = Table::new(
        "certificate",
        "the maximum-likelihood certificate: max over p of D_G(p)/N (<= 0 at the NPMLE)",
        vec![
            Column::new("problems", Kind::Integer),
            Column::new("distinct_counts", Kind::Integer),
            Column::new("support_points", Kind::Integer),
            Column::new("log_likelihood", Kind::Real),
            Column::new("max_gradient", Kind::Real).labelled("max D/N"),
            Column::new("at_p", Kind::Real).labelled("at p"),
            Column::new("tolerance", Kind::Real),
            Column::new("certified", Kind::Text),
        ],
    );
    certificate.push(vec![
        Cell::int(fit.problems),
        Cell::int(fit.groups as u64),
        Cell::int(fit.support.len() as u64),
        Cell::Real(fit.log_likelihood),
        Cell::Real(fit.max_gradient),
        Cell::Real(fit.max_gradient_at),
        Cell::Real(CERTIFICATE_TOLERANCE),
        Cell::text(if fit.certified() { "yes" } else { "no" }),
    ]);
    let fewest = counts.iter().map(|c| c.1).min().unwrap_or(0);
    let in_sample_ks: Vec<u64> = ks.iter().copied().filter(|&k| k <= fewest).collect();
    let in_sample = in_sample_pass_at_k(counts, &in_sample_ks)?;
    let mut curve = Table::new(
        "pass_at_k",
        "pass@k of the fitted mix (as printed) beside the data's exact in-sample pass@k",
        vec![
            Column::key("k", Kind::Integer),
            Column::new("fitted", Kind::Real),
            Column::new("data", Kind::Real),
        ],
    );
    let mut largest_bound = 0.0f64;
    for &k in ks {
        let fitted = if exact {
            let mut sum = BigRational::zero();
            for (r, w) in &mix {
                let miss = num_traits::pow(BigRational::one() - r, k as usize);
                sum += w * (BigRational::one() - miss);
            }
            Cell::Exact(sum)
        } else {
            let (value, bound) = enclosed_pass_at_k(&mix, k);
            largest_bound = largest_bound.max(bound);
            Cell::Bounded { value, bound }
        };
        let data = match in_sample_ks.iter().position(|&j| j == k) {
            Some(i) => {
                let cell = value_cell(&in_sample[i], exact);
                if let Cell::Bounded { bound, .. } = cell {
                    largest_bound = largest_bound.max(bound);
                }
                cell
            }
            None => Cell::Empty,
        };
        curve.push(vec![Cell::int(k), fitted, data]);
    }
    let mut report = Report::new("samples fit", "the fitted mix of task difficulties")
        .param("k", list_text(ks))
        .with_table(mix_table)
        .with_table(certificate)
        .with_table(curve)
        .note(format!("--tasks {tasks}"))
        .note(format!(
            "the nonparametric maximum likelihood estimate of the law of per-problem success \
             rates (binomial mixture, {} problems, {} distinct (c, n)); R and W rounded to \
             {TASKS_DECIMALS} decimals, the largest share taking up the rounding so that the \
             shares sum to exactly 1 (shares that round to 0 left out); the fitted curve is \
             that of the printed mix, which `pathology inference pass-at-k --tasks ...` \
             reproduces",
            fit.problems, fit.groups
        ))
        .note(format!(
            "certificate: max over p in [0, 1] of D_G(p)/N = {:.3e} at p = {:.6} ({}; tolerance \
             {CERTIFICATE_TOLERANCE:e}), found on a grid of {CERTIFICATE_GRID} points refined \
             at each local maximum (a numerical search, not an interval bound); the \
             log-likelihood {:.6} is at most N max(D_G)/N = {:.3e} below the largest any law \
             of the rates attains",
            fit.max_gradient,
            fit.max_gradient_at,
            if fit.certified() {
                "certified"
            } else {
                "NOT certified"
            },
            fit.log_likelihood,
            (fit.max_gradient * fit.problems as f64).max(0.0)
        ));
    if ks.iter().any(|&k| k > fewest) {
        report = report.note(format!(
            "data: empty for k above {fewest}, the fewest samples of a problem (no unbiased \
             estimate there; the fitted curve extrapolates)"
        ));
    }
    Ok(if exact {
        report.param("exact", true).mode("exact")
    } else {
        report.mode("f64").note(format!(
            "f64: every curve value is within {} of the exact value (rigorous: outward-rounded \
             interval arithmetic or one rounding); the fit itself is f64",
            printed_error_bound(0.0, largest_bound)
        ))
    })
}

/// A terminating decimal's shortest text (`0.25`, `1`).
fn decimal_text(value: &BigRational) -> String {
    let mut places = 0;
    let mut scaled = value.clone();
    while !scaled.is_integer() && places < 30 {
        scaled *= BigRational::from_integer(BigInt::from(10));
        places += 1;
    }
    format_decimal(value, places)
}

/// A list as the options take it: `A..B` when consecutive (three or more), else `a,b,c`.
pub(crate) fn list_text(list: &[u64]) -> String {
    let consecutive = list.windows(2).all(|w| w[1] == w[0] + 1);
    if consecutive && list.len() > 2 {
        format!("{}..{}", list[0], list[list.len() - 1])
    } else {
        list.iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

#[cfg(test)]
pub(crate) mod tests;
