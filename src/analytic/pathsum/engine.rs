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

/// A joint pmf over `t in t0..t0+nt` (true value, grid units) and `e in e0..e0+ne`
/// (evaluation), row-major in t; `ne = 1` and `e0 = 0` below the search front (no
/// evaluation yet).
#[derive(Debug, Clone)]
pub(crate) struct Grid<S> {
    pub t0: i64,
    pub nt: usize,
    pub e0: i64,
    pub ne: usize,
    pub data: Vec<S>,
}

impl<S: Scaled> Grid<S> {
    pub fn zeros(t0: i64, nt: usize, e0: i64, ne: usize) -> Self {
        Grid {
            t0,
            nt,
            e0,
            ne,
            data: vec![S::zero_value(); nt * ne],
        }
    }

    /// The grid holding the single pairs `(t, e)` with numerators `weights`.
    pub fn from_points(points: &[(i64, i64, S)]) -> Self {
        let tmin = points.iter().map(|p| p.0).min().unwrap_or(0);
        let tmax = points.iter().map(|p| p.0).max().unwrap_or(0);
        let emin = points.iter().map(|p| p.1).min().unwrap_or(0);
        let emax = points.iter().map(|p| p.1).max().unwrap_or(0);
        let mut g: Grid<S> = Grid::zeros(
            tmin,
            (tmax - tmin + 1) as usize,
            emin,
            (emax - emin + 1) as usize,
        );
        for (t, e, w) in points {
            let i = g.index(*t, *e);
            g.data[i] = g.data[i].add(w);
        }
        g
    }

    pub fn index(&self, t: i64, e: i64) -> usize {
        (t - self.t0) as usize * self.ne + (e - self.e0) as usize
    }

    pub fn t1(&self) -> i64 {
        self.t0 + self.nt as i64
    }

    pub fn e1(&self) -> i64 {
        self.e0 + self.ne as i64
    }

    /// The nonzero cells as `(t, e, numerator)`.
    pub fn cells(&self) -> impl Iterator<Item = (i64, i64, &S)> {
        self.data.iter().enumerate().filter_map(move |(i, v)| {
            (!v.is_zero_value()).then(|| {
                (
                    self.t0 + (i / self.ne) as i64,
                    self.e0 + (i % self.ne) as i64,
                    v,
                )
            })
        })
    }

    /// The same law with both axes negated (a Min node's law read as a Max node's).
    pub fn flipped(&self) -> Self {
        let mut out = Grid::zeros(-(self.t1() - 1), self.nt, -(self.e1() - 1), self.ne);
        for it in 0..self.nt {
            for ie in 0..self.ne {
                out.data[(self.nt - 1 - it) * self.ne + (self.ne - 1 - ie)] =
                    self.data[it * self.ne + ie].clone();
            }
        }
        out
    }

    /// The smallest box holding every nonzero cell (the whole box if all are zero).
    pub fn trimmed(self) -> Self {
        let (mut tl, mut th, mut el, mut eh) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
        for (t, e, _) in self.cells() {
            tl = tl.min(t);
            th = th.max(t);
            el = el.min(e);
            eh = eh.max(e);
        }
        if tl > th || (tl == self.t0 && th == self.t1() - 1 && el == self.e0 && eh == self.e1() - 1)
        {
            return self;
        }
        let mut out = Grid::zeros(tl, (th - tl + 1) as usize, el, (eh - el + 1) as usize);
        for (t, e, v) in self.cells() {
            let i = out.index(t, e);
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

/// The law of the componentwise maximum of `b` iid pairs with law `f` (numerators over D;
/// the result is over D^b). For a cell (t, e) with a = f(t,e), beta = P(T = t, E < e),
/// c = P(T < t, E = e), d = P(T < t, E < e): the maximum is (t, e) when some child is
/// (t, e), or none is and some child has T = t and another E = e; so
/// `sum_{i>=1} C(b,i) a^i (beta+c+d)^(b-i) + sum_{i>=1} C(b,i) beta^i sum_{j>=1} C(b-i,j)
/// c^j d^(b-i-j)`, a polynomial with nonnegative terms.
pub(crate) fn max_law<S: Scaled>(f: &Grid<S>, b: usize, binom: &[Vec<S>]) -> Grid<S> {
    let (nt, ne) = (f.nt, f.ne);
    let zero = S::zero_value();
    // row prefix R[it][ie] = sum_{ie' <= ie} f; column prefix C; quadrant G.
    let mut row = vec![zero.clone(); nt * ne];
    let mut col = vec![zero.clone(); nt * ne];
    let mut quad = vec![zero.clone(); nt * ne];
    for it in 0..nt {
        for ie in 0..ne {
            let i = it * ne + ie;
            row[i] = if ie > 0 {
                row[i - 1].add(&f.data[i])
            } else {
                f.data[i].clone()
            };
            col[i] = if it > 0 {
                col[i - ne].add(&f.data[i])
            } else {
                f.data[i].clone()
            };
            quad[i] = if it > 0 {
                quad[i - ne].add(&row[i])
            } else {
                row[i].clone()
            };
        }
    }
    let mut out = Grid::zeros(f.t0, nt, f.e0, ne);
    let compute = |it: usize, ie: usize| -> S {
        let i = it * ne + ie;
        let a = &f.data[i];
        let beta = if ie > 0 {
            row[i - 1].clone()
        } else {
            zero.clone()
        };
        let c = if it > 0 {
            col[i - ne].clone()
        } else {
            zero.clone()
        };
        if a.is_zero_value() && beta.is_zero_value() && c.is_zero_value() {
            return zero.clone();
        }
        let d = if it > 0 && ie > 0 {
            quad[i - ne - 1].clone()
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
    let cells: Vec<S> = if nt * ne >= 4096 {
        (0..nt * ne)
            .into_par_iter()
            .map(|i| compute(i / ne, i % ne))
            .collect()
    } else {
        (0..nt * ne).map(|i| compute(i / ne, i % ne)).collect()
    };
    out.data = cells;
    out
}

/// The law of the componentwise minimum of `b` iid pairs.
pub(crate) fn min_law<S: Scaled>(f: &Grid<S>, b: usize, binom: &[Vec<S>]) -> Grid<S> {
    max_law(&f.flipped(), b, binom).flipped()
}

/// The rounding steps of [`max_law`] on a grid of `nt x ne` cells (for the `f64` bound):
/// the prefix sums' additions, then the polynomial's operations.
pub(crate) fn max_law_roundings(nt: usize, ne: usize, b: usize) -> f64 {
    (nt + ne + 2) as f64 + (4 * b + 2 * b * b + 4) as f64
}

/// `sum_k weight_k * grid_k` shifted by `(dt_k, de_k)`, over the union of their boxes.
pub(crate) fn mix<S: Scaled>(parts: &[(S, &Grid<S>, i64, i64)]) -> Grid<S> {
    let tl = parts.iter().map(|p| p.1.t0 + p.2).min().unwrap_or(0);
    let th = parts.iter().map(|p| p.1.t1() + p.2).max().unwrap_or(1);
    let el = parts.iter().map(|p| p.1.e0 + p.3).min().unwrap_or(0);
    let eh = parts.iter().map(|p| p.1.e1() + p.3).max().unwrap_or(1);
    let mut out: Grid<S> = Grid::zeros(tl, (th - tl) as usize, el, (eh - el) as usize);
    for (w, g, dt, de) in parts {
        if w.is_zero_value() {
            continue;
        }
        for it in 0..g.nt {
            let row = out.index(g.t0 + it as i64 + dt, g.e0 + de);
            for ie in 0..g.ne {
                let v = &g.data[it * g.ne + ie];
                if !v.is_zero_value() {
                    out.data[row + ie].add_product(w, v);
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
    let (nt, ne) = (c.nt, c.ne);
    let zero = S::zero_value();
    // marginals
    let mut mt = vec![zero.clone(); nt];
    let mut me = vec![zero.clone(); ne];
    for it in 0..nt {
        for ie in 0..ne {
            let v = &c.data[it * ne + ie];
            mt[it] = mt[it].add(v);
            me[ie] = me[ie].add(v);
        }
    }
    // column prefix (T <= t, E = e) and quadrant (T <= t, E < e).
    let mut col = vec![zero.clone(); nt * ne];
    let mut quad_lt = vec![zero.clone(); nt * ne];
    for it in 0..nt {
        let mut row_lt = zero.clone();
        for ie in 0..ne {
            let i = it * ne + ie;
            col[i] = if it > 0 {
                col[i - ne].add(&c.data[i])
            } else {
                c.data[i].clone()
            };
            quad_lt[i] = if it > 0 {
                quad_lt[i - ne].add(&row_lt)
            } else {
                row_lt.clone()
            };
            row_lt = row_lt.add(&c.data[i]);
        }
    }
    let mut e_below = vec![zero.clone(); ne];
    for ie in 1..ne {
        e_below[ie] = e_below[ie - 1].add(&me[ie - 1]);
    }
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
        for ie in 0..ne {
            let i = it * ne + ie;
            let v = &c.data[i];
            if v.is_zero_value() {
                continue;
            }
            correct = correct.add(&v.mul(&pick(&col[i], &quad_lt[i])));
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
    for it in 0..nt {
        let m = &mt[it];
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
