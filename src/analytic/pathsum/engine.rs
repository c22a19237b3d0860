//! The grids of the path-sum engine: joint pmfs of (true value, backed-up evaluation) on an
//! integer grid, scaled numerators over one denominator per level, and the maps a level
//! needs: the law of the maximum (minimum) of b iid pairs, the step convolution, the
//! terminal mixture and the root decision.
//!
//! Every map is a polynomial with nonnegative coefficients in nonnegative entries (the law
//! of the componentwise maximum is written by categories of the children, never as a
//! difference of CDF powers), so in `f64` every entry carries a *relative* rounding error,
//! tracked as one number per level ([`Relative`]); in exact mode the same expressions are
//! exact integer arithmetic with no gcd until the end.

use crate::numeric::number::Scaled;

/// A joint pmf over `t in t0..t0+nt` (true value, grid units) and `delta in
/// d0..d0+nd`, `delta = e - t` (the evaluation minus the true value), row-major in t.
/// Storing the gap keeps the grid narrow: the maximum (minimum) of pairs has its gap
/// between the pairs' smallest and largest gaps, so an additive evaluator's grid is (value
/// width) x (noise width). Below the search front the gap is the single 0 (no evaluation
/// yet).
#[derive(Debug, Clone)]
pub(crate) struct Grid<S> {
    pub t0: i64,
    pub nt: usize,
    pub d0: i64,
    pub nd: usize,
    pub data: Vec<S>,
}

impl<S: Scaled> Grid<S> {
    pub fn zeros(t0: i64, nt: usize, d0: i64, nd: usize) -> Self {
        Grid {
            t0,
            nt,
            d0,
            nd,
            data: vec![S::zero_value(); nt * nd],
        }
    }

    /// The grid holding the pairs `(t, e)` with numerators `w` (repeated pairs add up).
    pub fn from_points(points: &[(i64, i64, S)]) -> Self {
        let tmin = points.iter().map(|p| p.0).min().unwrap_or(0);
        let tmax = points.iter().map(|p| p.0).max().unwrap_or(0);
        let dmin = points.iter().map(|p| p.1 - p.0).min().unwrap_or(0);
        let dmax = points.iter().map(|p| p.1 - p.0).max().unwrap_or(0);
        let mut g: Grid<S> = Grid::zeros(
            tmin,
            (tmax - tmin + 1) as usize,
            dmin,
            (dmax - dmin + 1) as usize,
        );
        for (t, e, w) in points {
            let i = g.index(*t, e - t);
            g.data[i] = g.data[i].add(w);
        }
        g
    }

    /// The index of `(t, delta)`.
    pub fn index(&self, t: i64, delta: i64) -> usize {
        (t - self.t0) as usize * self.nd + (delta - self.d0) as usize
    }

    pub fn t1(&self) -> i64 {
        self.t0 + self.nt as i64
    }

    pub fn d1(&self) -> i64 {
        self.d0 + self.nd as i64
    }

    /// The nonzero cells as `(t, delta, numerator)`.
    pub fn cells(&self) -> impl Iterator<Item = (i64, i64, &S)> {
        self.data
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.is_zero_value())
            .map(move |(i, v)| {
                (
                    self.t0 + (i / self.nd) as i64,
                    self.d0 + (i % self.nd) as i64,
                    v,
                )
            })
    }

    /// The same law with both coordinates negated (a Min node's law read as a Max node's).
    pub fn flipped(&self) -> Self {
        let mut out = Grid::zeros(-(self.t1() - 1), self.nt, -(self.d1() - 1), self.nd);
        let n = self.data.len();
        for (i, v) in self.data.iter().enumerate() {
            out.data[n - 1 - i] = v.clone();
        }
        out
    }

    /// The smallest box holding every nonzero cell (the whole box if all are zero).
    pub fn trimmed(self) -> Self {
        let (mut tl, mut th, mut dl, mut dh) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
        for (t, d, _) in self.cells() {
            tl = tl.min(t);
            th = th.max(t);
            dl = dl.min(d);
            dh = dh.max(d);
        }
        if tl > th || (tl == self.t0 && th == self.t1() - 1 && dl == self.d0 && dh == self.d1() - 1)
        {
            return self;
        }
        let mut out = Grid::zeros(tl, (th - tl + 1) as usize, dl, (dh - dl + 1) as usize);
        for (t, d, v) in self.cells() {
            let i = out.index(t, d);
            out.data[i] = v.clone();
        }
        out
    }
}

/// The small integer `n` as a scaled number.
pub(crate) fn small<S: Scaled>(n: u64) -> S {
    let mut out = S::zero_value();
    let mut power = S::one_value();
    let mut n = n;
    while n > 0 {
        if n & 1 == 1 {
            out = out.add(&power);
        }
        power = power.add(&power);
        n >>= 1;
    }
    out
}

pub(crate) fn power<S: Scaled>(x: &S, n: usize) -> S {
    let mut out = S::one_value();
    for _ in 0..n {
        out = out.mul(x);
    }
    out
}

/// Binomial coefficients `C(n, k)` for `k = 0..=n`, `n = 0..=b`, as scaled numbers.
pub(crate) fn binomials<S: Scaled>(b: usize) -> Vec<Vec<S>> {
    let mut rows: Vec<Vec<u64>> = vec![vec![1]];
    for n in 1..=b {
        let prev = &rows[n - 1];
        let row = (0..=n)
            .map(|k| {
                let left = if k > 0 { prev[k - 1] } else { 0 };
                let right = if k < n { prev[k] } else { 0 };
                left + right
            })
            .collect();
        rows.push(row);
    }
    rows.into_iter()
        .map(|r| r.into_iter().map(small::<S>).collect())
        .collect()
}

/// Powers `x^0..=x^n`.
fn powers<S: Scaled>(x: &S, n: usize) -> Vec<S> {
    let mut out = Vec::with_capacity(n + 1);
    out.push(S::one_value());
    for i in 1..=n {
        let next = out[i - 1].mul(x);
        out.push(next);
    }
    out
}

/// Prefix sums of a grid in `(t, delta)` storage: `row[t][d] = P(T = t, delta <= d)`,
/// `diag[t][d] = P(T <= t, E = t + d)`, and `quad[t][j] = P(T <= t, E <= t + d0 - 1 + j)`
/// for `j = 0..=nd + 1` (one gap below the band and one above it).
struct Prefix<S> {
    row: Vec<S>,
    diag: Vec<S>,
    quad: Vec<S>,
}

fn prefix<S: Scaled>(f: &Grid<S>) -> Prefix<S> {
    let (nt, nd) = (f.nt, f.nd);
    let zero = S::zero_value();
    let mut row = vec![zero.clone(); nt * nd];
    let mut diag = vec![zero.clone(); nt * nd];
    let nq = nd + 2;
    let mut quad = vec![zero.clone(); nt * nq];
    for it in 0..nt {
        for id in 0..nd {
            let i = it * nd + id;
            row[i] = if id > 0 {
                row[i - 1].add(&f.data[i])
            } else {
                f.data[i].clone()
            };
            // E = t + d: the row above holds it at gap d + 1.
            diag[i] = if it > 0 && id + 1 < nd {
                diag[i - nd + 1].add(&f.data[i])
            } else {
                f.data[i].clone()
            };
        }
        let q = it * nq;
        // j = 0: the gap d0 - 1, nothing of row t; G(t, d0 - 1) = G(t - 1, d0).
        quad[q] = if it > 0 {
            quad[q - nq + 1].clone()
        } else {
            zero.clone()
        };
        for j in 1..=nd {
            let r = &row[it * nd + j - 1];
            quad[q + j] = if it > 0 {
                quad[q - nq + j + 1].add(r)
            } else {
                r.clone()
            };
        }
        // j = nd + 1: above the band every earlier row counts whole: P(T <= t).
        quad[q + nd + 1] = if it > 0 {
            quad[q - nq + nd + 1].add(&row[it * nd + nd - 1])
        } else {
            row[it * nd + nd - 1].clone()
        };
    }
    Prefix { row, diag, quad }
}

/// The law of the componentwise maximum of `b` iid pairs with law `f` (numerators over D;
/// the result is over D^b). For a cell (t, e) with a = f(t,e), beta = P(T = t, E < e),
/// c = P(T < t, E = e), d = P(T < t, E < e): the maximum is (t, e) when some child is
/// (t, e), or none is and some child has T = t and another E = e; so
/// `sum_{i>=1} C(b,i) a^i (beta+c+d)^(b-i) + sum_{i>=1} C(b,i) beta^i sum_{j>=1} C(b-i,j)
/// c^j d^(b-i-j)`, a polynomial with nonnegative terms. The gap of the maximum lies in the
/// band of `f`, so the result has `f`'s box.
pub(crate) fn max_law<S: Scaled>(f: &Grid<S>, b: usize, binom: &[Vec<S>]) -> Grid<S> {
    let (nt, nd) = (f.nt, f.nd);
    let nq = nd + 2;
    let zero = S::zero_value();
    let Prefix { row, diag, quad } = prefix(f);
    let compute = |i: usize| -> S {
        let (it, id) = (i / nd, i % nd);
        let a = &f.data[i];
        let beta = if id > 0 {
            row[i - 1].clone()
        } else {
            zero.clone()
        };
        // c = P(T <= t - 1, E = e): E = (t - 1) + (d + 1).
        let c = if it > 0 && id + 1 < nd {
            diag[i - nd + 1].clone()
        } else {
            zero.clone()
        };
        if a.is_zero_value() && beta.is_zero_value() && c.is_zero_value() {
            return zero.clone();
        }
        // d = P(T <= t - 1, E <= e - 1): gap (e - 1) - (t - 1) = d, j = id + 1.
        let d = if it > 0 {
            quad[(it - 1) * nq + id + 1].clone()
        } else {
            zero.clone()
        };
        let mut value = zero.clone();
        if !a.is_zero_value() {
            let rest = beta.add(&c).add(&d);
            let ap = powers(a, b);
            let rp = powers(&rest, b);
            for k in 1..=b {
                value = value.add(&binom[b][k].mul(&ap[k]).mul(&rp[b - k]));
            }
        }
        if !beta.is_zero_value() && !c.is_zero_value() {
            let bp = powers(&beta, b);
            let cp = powers(&c, b);
            let dp = powers(&d, b);
            for k in 1..b {
                let m = b - k;
                let mut inner = zero.clone();
                for j in 1..=m {
                    inner = inner.add(&binom[m][j].mul(&cp[j]).mul(&dp[m - j]));
                }
                value = value.add(&binom[b][k].mul(&bp[k]).mul(&inner));
            }
        }
        value
    };
    use rayon::prelude::*;
    let data: Vec<S> = if nt * nd >= 4096 {
        (0..nt * nd).into_par_iter().map(compute).collect()
    } else {
        (0..nt * nd).map(compute).collect()
    };
    Grid {
        t0: f.t0,
        nt,
        d0: f.d0,
        nd,
        data,
    }
}

/// The law of the componentwise minimum of `b` iid pairs.
pub(crate) fn min_law<S: Scaled>(f: &Grid<S>, b: usize, binom: &[Vec<S>]) -> Grid<S> {
    max_law(&f.flipped(), b, binom).flipped()
}

/// The rounding steps of [`max_law`] on a grid of `nt x ne` cells (for the `f64` bound):
/// the prefix sums' additions, then the polynomial's operations.
pub(crate) fn max_law_roundings(nt: usize, nd: usize, b: usize) -> f64 {
    (2 * nt + nd + 4) as f64 + (4 * b + 2 * b * b + 4) as f64
}

/// `sum_k weight_k * grid_k` shifted by `(dt_k, ddelta_k)`, over the union of their boxes.
pub(crate) fn mix<S: Scaled>(parts: &[(S, &Grid<S>, i64, i64)]) -> Grid<S> {
    let tl = parts.iter().map(|p| p.1.t0 + p.2).min().unwrap_or(0);
    let th = parts.iter().map(|p| p.1.t1() + p.2).max().unwrap_or(1);
    let dl = parts.iter().map(|p| p.1.d0 + p.3).min().unwrap_or(0);
    let dh = parts.iter().map(|p| p.1.d1() + p.3).max().unwrap_or(1);
    let mut out: Grid<S> = Grid::zeros(tl, (th - tl) as usize, dl, (dh - dl) as usize);
    for (w, g, dt, dd) in parts {
        if w.is_zero_value() {
            continue;
        }
        for it in 0..g.nt {
            let row = out.index(g.t0 + it as i64 + dt, g.d0 + dd);
            for id in 0..g.nd {
                let v = &g.data[it * g.nd + id];
                if !v.is_zero_value() {
                    out.data[row + id].add_product(w, v);
                }
            }
        }
    }
    out
}

/// `f64` relative rounding error bound of every entry of a level: `rho` with `|computed -
/// exact| <= rho * exact` entrywise (exact: the model at the `f64` parameters).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Relative(pub f64);

impl Relative {
    const U: f64 = f64::EPSILON / 2.0;

    /// After `n` further roundings of a nonnegative expression.
    pub fn after(self, n: f64) -> Self {
        let gamma = n * Self::U / (1.0 - n * Self::U);
        Relative(((1.0 + self.0) * (1.0 + gamma) - 1.0) * (1.0 + 4.0 * Self::U))
    }

    /// A degree-`k` polynomial in entries each with this error.
    pub fn power(self, k: usize) -> Self {
        Relative(((1.0 + self.0).powi(k as i32) - 1.0) * (1.0 + 4.0 * Self::U * k as f64))
    }
}

/// The root's numbers for a Max mover whose `b` children have the iid pair law `c` (over
/// D): numerators over `D^b`.
pub(crate) struct RootSums<S> {
    /// P(the move goes to a child of the root's true value).
    pub correct: S,
    /// P(all children have the same true value).
    pub all_equal: S,
    /// P(not all children have the same true value), computed without cancellation.
    pub nontrivial: S,
    /// E[true value of the root] (times the grid unit).
    pub root_value: S,
    /// E[true value of the chosen child].
    pub chosen_value: S,
    /// E[|root value|] + E[|chosen value|], for the bound of the loss.
    pub magnitude: S,
}

/// Signed integer `v` as a scaled number.
fn signed<S: Scaled>(v: i64) -> (S, bool) {
    (small::<S>(v.unsigned_abs()), v < 0)
}

/// [`RootSums`] of a Max root (read a Min root through [`Grid::flipped`]).
pub(crate) fn root_sums<S: Scaled>(c: &Grid<S>, b: usize, binom: &[Vec<S>]) -> RootSums<S> {
    let (nt, nd) = (c.nt, c.nd);
    let nq = nd + 2;
    let zero = S::zero_value();
    let Prefix { row, diag, quad } = prefix(c);
    // marginals: T, and E = t + d over e0..e0 + ne.
    let e0 = c.t0 + c.d0;
    let ne = nt + nd - 1;
    let mt: Vec<S> = (0..nt).map(|it| row[it * nd + nd - 1].clone()).collect();
    let mut me = vec![zero.clone(); ne];
    for it in 0..nt {
        for id in 0..nd {
            let v = &c.data[it * nd + id];
            if !v.is_zero_value() {
                me[it + id] = me[it + id].add(v);
            }
        }
    }
    let mut e_below = vec![zero.clone(); ne];
    for ie in 1..ne {
        e_below[ie] = e_below[ie - 1].add(&me[ie - 1]);
    }
    let _ = e0;
    // sum_{k=1}^b C(b,k) A^(k-1) B^(b-k)
    let pick = |a: &S, bb: &S| -> S {
        let ap = powers(a, b);
        let bp = powers(bb, b);
        let mut s = zero.clone();
        for k in 1..=b {
            s = s.add(&binom[b][k].mul(&ap[k - 1]).mul(&bp[b - k]));
        }
        s
    };
    let mut correct = zero.clone();
    let mut chosen_pos = zero.clone();
    let mut chosen_neg = zero.clone();
    for it in 0..nt {
        let t = c.t0 + it as i64;
        let (tv, negative) = signed::<S>(t);
        for id in 0..nd {
            let i = it * nd + id;
            let v = &c.data[i];
            if v.is_zero_value() {
                continue;
            }
            // A = P(T <= t, E = e) = diag; B = P(T <= t, E <= e - 1): gap d - 1, j = id.
            correct = correct.add(&v.mul(&pick(&diag[i], &quad[it * nq + id])));
            let ie = it + id;
            let w = v.mul(&pick(&me[ie], &e_below[ie])).mul(&tv);
            if negative {
                chosen_neg = chosen_neg.add(&w);
            } else {
                chosen_pos = chosen_pos.add(&w);
            }
        }
    }
    let mut all_equal = zero.clone();
    let mut nontrivial = zero.clone();
    let mut below = zero.clone();
    let mut root_pos = zero.clone();
    let mut root_neg = zero.clone();
    for (it, m) in mt.iter().enumerate() {
        let mp = powers(m, b);
        let lp = powers(&below, b);
        all_equal = all_equal.add(&mp[b]);
        let mut max_here = mp[b].clone();
        for k in 1..b {
            let term = binom[b][k].mul(&mp[k]).mul(&lp[b - k]);
            nontrivial = nontrivial.add(&term);
            max_here = max_here.add(&term);
        }
        let (tv, negative) = signed::<S>(c.t0 + it as i64);
        let w = max_here.mul(&tv);
        if negative {
            root_neg = root_neg.add(&w);
        } else {
            root_pos = root_pos.add(&w);
        }
        below = below.add(m);
    }
    let magnitude = root_pos.add(&root_neg).add(&chosen_pos).add(&chosen_neg);
    RootSums {
        correct,
        all_equal,
        nontrivial,
        root_value: root_pos.sub(&root_neg),
        chosen_value: chosen_pos.sub(&chosen_neg),
        magnitude,
    }
}
