//! Best-of-n with two normal score laws as a rigorous enclosure of its integral.
//!
//! A type of per-sample success R, correct scores N(mu_c, s_c^2) and wrong ones
//! N(mu_w, s_w^2) gives
//!
//! `P(n) = n R int f_c(x) G(x)^(n-1) dx`, `G = R F_c + (1 - R) F_w`
//!
//! (the module docs of [`super`]). The integrand `h = n R f_c G^(n-1)` is entire, and the
//! integral is enclosed in three parts whose bounds are added:
//!
//! - **The upper tail** `x > B`: `G <= 1`, so the part is at most `n R (1 - F_c(B))`; B is the
//!   first point `mu_c + t s_c` (t = 0, 1/4, 1/2, ...) where that is at most 10^-12.
//! - **The lower tail** `x < A`: `R f_c <= g = G'`, so the part is at most
//!   `int n g G^(n-1) = G(A)^n`; A is found by bisection as the largest point (to about
//!   10^-12 of the range) where that bound is at most 10^-12, since the mass of the largest
//!   score lies above it.
//! - **The body** `[A, B]`, cut into cells. On a cell `[a, b]` with midpoint `x0`, Taylor's
//!   theorem with Lagrange's remainder gives `h(x0 + t) = sum_{k < K} c_k(x0) t^k +
//!   c_K(xi) t^K` for some `xi` in the cell, with `c_k = h^(k) / k!` and K = 12 (even, so
//!   `t^K >= 0` and the remainder's integral lies in `c_K([a, b]) int t^K`). The Taylor
//!   coefficients are computed by the recurrences of automatic differentiation (products,
//!   `exp` and `ln` of a series, the normal density as `exp` of a quadratic, `G` from the
//!   series of its derivative `g`) in interval arithmetic: once at the point `x0`, which
//!   encloses `c_k(x0)` with its rounding, and once over the whole cell, which encloses
//!   `c_K(xi)` for every `xi` in it. A cell whose enclosure is wider than its share of
//!   5 10^-10 (in proportion to its length) is halved, to a depth of 40.
//!
//! `G` near 1 is held by its complement `1 - G = R (1 - F_c) + (1 - R)(1 - F_w)`, each tail by
//! `erfc` to full relative precision, and `ln G = log1p(-(1 - G))`: at n = 10^6 the mass of
//! the largest score lies where `1 - G` is about 10^-6, where `G` itself keeps only ten
//! digits of its distance to 1.
//!
//! What is assumed: `libm`'s `erfc`, `exp`, `log` and `log1p` are within 4 units in the last
//! place of the exact result (each end is widened by 8); the parameters mu, s, R and the
//! shares W are the doubles enclosing the exact rationals given; every other operation is
//! rounded outward. The enclosure of each type's P(n) then contains the exact integral: its
//! width covers quadrature, truncation and rounding together.

use super::interval::Iv;

/// The order of the Taylor expansion on a cell (even: the remainder's sign is that of its
/// coefficient).
pub(super) const ORDER: usize = 12;

/// Each tail's allowance per task type.
pub const TAIL: f64 = 1e-12;

/// The body's allowance per task type: an enclosure of the integral over `[A, B]` at most
/// this wide (unless a cell cannot be resolved at the largest depth).
pub const BODY: f64 = 5e-10;

/// The deepest halving of a cell.
pub(super) const DEPTH: u32 = 40;

/// Taylor coefficients `c_0, ..., c_ORDER` of a function at a point (or over an interval).
pub(super) type Jet = [Iv; ORDER + 1];

/// A normal law with its parameters enclosed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Normal {
    pub(super) mean: Iv,
    pub(super) inv_sd: Iv,
    /// `1 / (s sqrt(2 pi))`, the density's height.
    height: Iv,
    /// The doubles nearest the mean and standard deviation, to place cuts.
    pub(super) mean_f: f64,
    pub(super) sd_f: f64,
}

impl Normal {
    /// N(mean, sd^2) for exact parameters, `sd > 0`.
    pub(crate) fn new(mean: &num_rational::BigRational, sd: &num_rational::BigRational) -> Normal {
        use num_traits::ToPrimitive;
        Normal::enclosed(
            Iv::of(mean),
            Iv::of(sd),
            mean.to_f64().unwrap_or(0.0),
            sd.to_f64().unwrap_or(1.0),
        )
    }

    /// The law of the sum of `count` independent draws of N(mean, sd^2) (exact parameters,
    /// `sd > 0`, `count >= 1`): N(count mean, count sd^2).
    pub(super) fn sum_of(
        mean: &num_rational::BigRational,
        sd: &num_rational::BigRational,
        count: u64,
    ) -> Normal {
        use num_traits::ToPrimitive;
        let total = mean * num_rational::BigRational::from_integer(count.into());
        // sqrt is correctly rounded (IEEE 754) and count below 2^53 is exact: one double
        // outward covers the root.
        let c = count as f64;
        let root = Iv::new(c.sqrt().next_down(), c.sqrt().next_up());
        let sd_iv = Iv::of(sd).mul(root);
        Normal::enclosed(
            Iv::of(&total),
            sd_iv,
            total.to_f64().unwrap_or(0.0),
            sd.to_f64().unwrap_or(1.0) * c.sqrt(),
        )
    }

    /// N(mean, sd^2) from enclosures of its parameters (`sd` wholly above 0) and the doubles
    /// nearest them (to place cuts).
    fn enclosed(mean_iv: Iv, sd_iv: Iv, mean_f: f64, sd_f: f64) -> Normal {
        let inv_sd = Iv::point(1.0).div_pos(sd_iv);
        let two_pi = Iv::new(
            std::f64::consts::TAU.next_down(),
            std::f64::consts::TAU.next_up(),
        );
        // sqrt is correctly rounded (IEEE 754): one double outward covers it.
        let root = Iv::new(two_pi.lo.sqrt().next_down(), two_pi.hi.sqrt().next_up());
        Normal {
            mean: mean_iv,
            inv_sd,
            height: inv_sd.div_pos(root),
            mean_f,
            sd_f,
        }
    }

    /// The Taylor coefficients of the density at `x` (an interval: all points of it), and
    /// the lower and upper tails `F(x)`, `1 - F(x)`.
    pub(super) fn jets(&self, x: Iv) -> (Jet, Iv, Iv) {
        let z0 = x.sub(self.mean).mul(self.inv_sd);
        let z1 = self.inv_sd;
        // q = -z^2 / 2 as a series in t: -z0^2/2 - z0 z1 t - z1^2/2 t^2.
        let half = Iv::point(0.5);
        let q0 = z0.sqr().mul(half).neg();
        let q1 = z0.mul(z1).neg();
        let q2 = z1.sqr().mul(half).neg();
        let mut e = [Iv::zero(); ORDER + 1];
        e[0] = q0.exp();
        for k in 1..=ORDER {
            let mut s = q1.mul(e[k - 1]);
            if k >= 2 {
                s = s.add(Iv::point(2.0).mul(q2).mul(e[k - 2]));
            }
            e[k] = s.div_pos(Iv::point(k as f64));
        }
        for c in &mut e {
            *c = c.mul(self.height);
        }
        let (lower, upper) = Iv::normal_tails(z0);
        (e, lower, upper)
    }
}

/// Where a [`Setting`]'s integral is cut: `(A, B, the tail below A, the tail above B)`.
pub(crate) type Cuts = (f64, f64, f64, f64);

/// One task type at one n.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Setting {
    pub(crate) correct: Normal,
    pub(crate) wrong: Normal,
    pub(crate) success: Iv,
    pub(crate) n: u64,
}

impl Setting {
    fn fail(&self) -> Iv {
        Iv::point(1.0).sub(self.success)
    }

    /// `G(x)` and `1 - G(x)`, each enclosed (and each tightened by the other).
    fn cumulative(&self, x: Iv) -> (Iv, Iv) {
        let (fc, qc) = Iv::normal_tails(x.sub(self.correct.mean).mul(self.correct.inv_sd));
        let (fw, qw) = Iv::normal_tails(x.sub(self.wrong.mean).mul(self.wrong.inv_sd));
        let (r, f) = (self.success, self.fail());
        let g = r.mul(fc).add(f.mul(fw));
        let q = r.mul(qc).add(f.mul(qw));
        let one = Iv::point(1.0);
        (g.meet(one.sub(q)), q.meet(one.sub(g)))
    }

    /// `ln G` from `G` or, near 1, from its complement.
    fn log_cumulative(g: Iv, q: Iv) -> Iv {
        if q.hi < 0.5 { q.ln_one_minus() } else { g.ln() }
    }

    /// An upper bound on `G(x)^n`.
    fn power_above(&self, x: f64) -> f64 {
        let (g, q) = self.cumulative(Iv::point(x));
        if g.hi <= 0.0 {
            return 0.0;
        }
        if g.lo <= 0.0 && q.hi >= 0.5 {
            // ln of an interval reaching 0: bound G^n by G's upper end alone.
            return Iv::point(g.hi).ln().mul(Iv::point(self.n as f64)).exp().hi;
        }
        Self::log_cumulative(g, q)
            .mul(Iv::point(self.n as f64))
            .exp()
            .hi
    }

    /// The Taylor coefficients of `h = n R f_c G^(n-1)` at every point of `x`.
    fn jet(&self, x: Iv) -> Jet {
        let (fc, _, _) = self.correct.jets(x);
        let mut power = [Iv::zero(); ORDER + 1];
        if self.n == 1 {
            power[0] = Iv::point(1.0);
        } else {
            let (fw, _, _) = self.wrong.jets(x);
            let (r, f) = (self.success, self.fail());
            let (g0, q0) = self.cumulative(x);
            if g0.lo <= 0.0 || !g0.is_finite() {
                return [Iv::new(f64::NEG_INFINITY, f64::INFINITY); ORDER + 1];
            }
            // G's series: G(x0) then g's coefficients integrated.
            let mut big_g = [Iv::zero(); ORDER + 1];
            big_g[0] = g0;
            for k in 1..=ORDER {
                let gk = r.mul(fc[k - 1]).add(f.mul(fw[k - 1]));
                big_g[k] = gk.div_pos(Iv::point(k as f64));
            }
            // L = ln G: G L' = G', so k L_k G_0 = k G_k - sum_{j=1}^{k-1} j L_j G_{k-j}.
            let m = Iv::point((self.n - 1) as f64);
            let mut log = [Iv::zero(); ORDER + 1];
            log[0] = Self::log_cumulative(g0, q0);
            for k in 1..=ORDER {
                let mut s = Iv::point(k as f64).mul(big_g[k]);
                for j in 1..k {
                    s = s.sub(Iv::point(j as f64).mul(log[j]).mul(big_g[k - j]));
                }
                log[k] = s.div_pos(Iv::point(k as f64).mul(g0));
            }
            for c in &mut log {
                *c = c.mul(m);
            }
            // G^(n-1) = exp((n-1) L): k E_k = sum_{j=1}^k j (mL)_j E_{k-j}.
            power[0] = log[0].exp();
            for k in 1..=ORDER {
                let mut s = Iv::zero();
                for j in 1..=k {
                    s = s.add(Iv::point(j as f64).mul(log[j]).mul(power[k - j]));
                }
                power[k] = s.div_pos(Iv::point(k as f64));
            }
        }
        let scale = Iv::point(self.n as f64).mul(self.success);
        let mut h = [Iv::zero(); ORDER + 1];
        for k in 0..=ORDER {
            let mut s = Iv::zero();
            for j in 0..=k {
                s = s.add(fc[j].mul(power[k - j]));
            }
            h[k] = s.mul(scale);
        }
        h
    }

    /// Where the integral is cut: `(A, B, the tail below A, the tail above B)`, the tails'
    /// bounds as in the module docs.
    pub(crate) fn cuts(&self) -> Cuts {
        let c = self.correct;
        let n = Iv::point(self.n as f64);
        // Upper cut: n R (1 - F_c(B)) <= TAIL.
        let mut t = 0.0;
        let (mut high, mut upper_tail) = (c.mean_f, f64::INFINITY);
        while t <= 64.0 {
            high = c.mean_f + t * c.sd_f;
            let (_, q) = Iv::normal_tails(Iv::point(high).sub(c.mean).mul(c.inv_sd));
            upper_tail = q.mul(n).mul(self.success).hi;
            if upper_tail <= TAIL {
                break;
            }
            t += 0.25;
        }
        // Lower cut: G(A)^n <= TAIL, A by bisection.
        let w = self.wrong;
        let bottom = (c.mean_f - 40.0 * c.sd_f).min(w.mean_f - 40.0 * w.sd_f);
        let (mut low, mut top) = (bottom.min(high), high);
        for _ in 0..80 {
            let mid = 0.5 * (low + top);
            if mid <= low || mid >= top {
                break;
            }
            if self.power_above(mid) <= TAIL {
                low = mid;
            } else {
                top = mid;
            }
        }
        (low, high, self.power_above(low), upper_tail)
    }

    /// The number of cells the body starts from between the `cuts` (each of half the
    /// smaller standard deviation): the work of [`Self::probability_within`] before any
    /// halving, for the refusal up front (infinite when the laws' scales are too far apart
    /// for a float count).
    pub(crate) fn cells(&self, cuts: &Cuts) -> f64 {
        if self.success.hi <= 0.0 {
            return 0.0;
        }
        let (low, high, _, _) = *cuts;
        let pieces = ((high - low) / (0.5 * self.correct.sd_f.min(self.wrong.sd_f))).ceil();
        if pieces.is_finite() {
            pieces.max(1.0)
        } else {
            f64::INFINITY
        }
    }

    /// The enclosure of this type's `P(n)`.
    #[cfg(test)]
    pub(crate) fn probability(&self) -> Iv {
        self.probability_within(self.cuts())
    }

    /// The enclosure of this type's `P(n)` from its [`Self::cuts`] (computed once for the
    /// refusal's count of cells and the quadrature).
    pub(crate) fn probability_within(&self, cuts: Cuts) -> Iv {
        if self.success.hi <= 0.0 {
            return Iv::zero();
        }
        let (low, high, lower_tail, upper_tail) = cuts;
        let body = if low < high {
            let pieces = (self.cells(&cuts) as usize).max(1);
            let step = (high - low) / pieces as f64;
            let density = BODY / (high - low);
            let mut sum = Iv::zero();
            for i in 0..pieces {
                let a = low + step * i as f64;
                let b = if i + 1 == pieces {
                    high
                } else {
                    low + step * (i + 1) as f64
                };
                sum = sum.add(body(&|x| self.jet(x), a, b, density, DEPTH));
            }
            sum
        } else {
            Iv::zero()
        };
        let hi = Iv::point(body.hi)
            .add(Iv::point(lower_tail))
            .add(Iv::point(upper_tail))
            .hi;
        Iv::new(body.lo.max(0.0), hi.min(1.0))
    }
}

/// An enclosure of `int_a^b h` for a nonnegative entire `h` whose Taylor coefficients `jet`
/// encloses at every point of an interval: the expansion at the midpoint to order
/// [`ORDER`] - 1 and Lagrange's remainder with the coefficient over the whole cell.
pub(super) fn cell(jet: &dyn Fn(Iv) -> Jet, a: f64, b: f64) -> Iv {
    let x0 = 0.5 * (a + b);
    let at = jet(Iv::point(x0));
    let over = jet(Iv::new(a, b));
    let alpha = Iv::point(a).sub(Iv::point(x0));
    let beta = Iv::point(b).sub(Iv::point(x0));
    let (mut pa, mut pb) = (alpha, beta);
    let mut sum = Iv::zero();
    for (k, c) in at.iter().enumerate().take(ORDER + 1) {
        // int_alpha^beta t^k dt = (beta^(k+1) - alpha^(k+1)) / (k + 1)
        let moment = pb.sub(pa).div_pos(Iv::point((k + 1) as f64));
        let coefficient = if k < ORDER { *c } else { over[ORDER] };
        sum = sum.add(coefficient.mul(moment));
        pa = pa.mul(alpha);
        pb = pb.mul(beta);
    }
    Iv::new(sum.lo.max(0.0), sum.hi)
}

/// `int_a^b h` (as [`cell`]) to `density` times the length, halving where needed.
pub(super) fn body(jet: &dyn Fn(Iv) -> Jet, a: f64, b: f64, density: f64, depth: u32) -> Iv {
    let v = cell(jet, a, b);
    if (v.is_finite() && v.width() <= density * (b - a)) || depth == 0 {
        return if v.is_finite() {
            v
        } else {
            Iv::new(0.0, f64::INFINITY)
        };
    }
    let m = 0.5 * (a + b);
    if m <= a || m >= b {
        return v;
    }
    body(jet, a, m, density, depth - 1).add(body(jet, m, b, density, depth - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;

    fn normal(mu: &str, s: &str) -> Normal {
        Normal::new(&parse_rational(mu).unwrap(), &parse_rational(s).unwrap())
    }

    fn setting(c: Normal, w: Normal, r: &str, n: u64) -> Setting {
        Setting {
            correct: c,
            wrong: w,
            success: Iv::of(&parse_rational(r).unwrap()),
            n,
        }
    }

    /// n = 1: `P = R`; n = 2: `P = R^2 + 2 R (1 - R) Phi((mu_c - mu_w) / sqrt(s_c^2 +
    /// s_w^2))`; both inside enclosures narrower than 1e-9.
    #[test]
    fn enclosures_contain_the_closed_forms() {
        let r = 0.3;
        for (c, w) in [
            (normal("1", "1"), normal("0", "1")),
            (normal("0", "1"), normal("0", "2")),
            (normal("0.5", "0.7"), normal("-1", "3")),
        ] {
            let p1 = setting(c, w, "0.3", 1).probability();
            assert!(p1.contains(r) && p1.width() < 1e-9, "{p1:?}");
            let p2 = setting(c, w, "0.3", 2).probability();
            let z = (c.mean_f - w.mean_f) / (c.sd_f.powi(2) + w.sd_f.powi(2)).sqrt();
            let phi = 0.5 * libm::erfc(-z / std::f64::consts::SQRT_2);
            let want = r * r + 2.0 * r * (1.0 - r) * phi;
            assert!(
                p2.lo - 1e-15 <= want && want <= p2.hi + 1e-15,
                "{p2:?} {want}"
            );
            assert!(p2.width() < 1e-9, "{p2:?}");
        }
    }

    #[test]
    fn large_n_stays_narrow() {
        for n in [1000, 1 << 20, 1_000_000] {
            let p = setting(normal("1", "1"), normal("0", "1"), "0.6", n).probability();
            assert!(p.width() < 1e-9, "{n}: {p:?}");
            assert!(p.lo > 0.6, "{n}: {p:?}");
        }
    }
}
