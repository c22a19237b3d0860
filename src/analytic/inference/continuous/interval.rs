//! Intervals of doubles rounded outward, with the few elementary functions that the normal
//! laws' best-of-n needs (exp, ln, log1p, the normal tails by erfc).
//!
//! Every sum, difference, product and quotient moves each end of its result one double
//! outward (`next_down`/`next_up`), which covers the half-unit error of an operation rounded
//! to nearest. The elementary functions come from `libm` (a port of musl's), which is
//! assumed correct to within 4 units in the last place of the result, subnormal results
//! included; each end is widened by 8 doubles, twice that allowance. Every function used is
//! monotone on its domain, so the image of an interval lies between the images of its ends.

/// A closed interval `[lo, hi]` of doubles that contains an exact real number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Iv {
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

/// The doubles each end of a libm result is moved outward (twice the assumed 4 ulps).
const LIBM_WIDEN: u32 = 8;

fn down(x: f64) -> f64 {
    x.next_down()
}

fn up(x: f64) -> f64 {
    x.next_up()
}

fn widen_down(mut x: f64) -> f64 {
    for _ in 0..LIBM_WIDEN {
        x = x.next_down();
    }
    x
}

fn widen_up(mut x: f64) -> f64 {
    for _ in 0..LIBM_WIDEN {
        x = x.next_up();
    }
    x
}

impl Iv {
    /// The point `x` (a double is an exact real).
    pub(crate) fn point(x: f64) -> Iv {
        Iv { lo: x, hi: x }
    }

    /// `[lo, hi]` as given.
    pub(crate) fn new(lo: f64, hi: f64) -> Iv {
        Iv { lo, hi }
    }

    /// The enclosure of an exact rational.
    pub(crate) fn of(q: &num_rational::BigRational) -> Iv {
        let e = crate::numeric::enclosure::Enclosure::of(q);
        Iv {
            lo: e.lower,
            hi: e.upper,
        }
    }

    pub(crate) fn zero() -> Iv {
        Iv::point(0.0)
    }

    pub(crate) fn add(self, o: Iv) -> Iv {
        Iv {
            lo: down(self.lo + o.lo),
            hi: up(self.hi + o.hi),
        }
    }

    pub(crate) fn sub(self, o: Iv) -> Iv {
        Iv {
            lo: down(self.lo - o.hi),
            hi: up(self.hi - o.lo),
        }
    }

    pub(crate) fn neg(self) -> Iv {
        Iv {
            lo: -self.hi,
            hi: -self.lo,
        }
    }

    pub(crate) fn mul(self, o: Iv) -> Iv {
        let p = [
            self.lo * o.lo,
            self.lo * o.hi,
            self.hi * o.lo,
            self.hi * o.hi,
        ];
        let (mut lo, mut hi) = (p[0], p[0]);
        for &x in &p[1..] {
            lo = lo.min(x);
            hi = hi.max(x);
        }
        Iv {
            lo: down(lo),
            hi: up(hi),
        }
    }

    /// The square (never below 0, unlike `self * self` of an interval around 0).
    pub(crate) fn sqr(self) -> Iv {
        let (a, b) = (self.lo.abs(), self.hi.abs());
        let (small, large) = if a < b { (a, b) } else { (b, a) };
        let lo = if self.lo <= 0.0 && self.hi >= 0.0 {
            0.0
        } else {
            down(small * small).max(0.0)
        };
        Iv {
            lo,
            hi: up(large * large),
        }
    }

    /// `self / o` for `o` wholly above 0.
    pub(crate) fn div_pos(self, o: Iv) -> Iv {
        debug_assert!(o.lo > 0.0);
        let p = [
            self.lo / o.lo,
            self.lo / o.hi,
            self.hi / o.lo,
            self.hi / o.hi,
        ];
        let (mut lo, mut hi) = (p[0], p[0]);
        for &x in &p[1..] {
            lo = lo.min(x);
            hi = hi.max(x);
        }
        Iv {
            lo: down(lo),
            hi: up(hi),
        }
    }

    /// `e^self`.
    pub(crate) fn exp(self) -> Iv {
        Iv {
            lo: widen_down(libm::exp(self.lo)).max(0.0),
            hi: widen_up(libm::exp(self.hi)),
        }
    }

    /// `ln self` for `self` wholly above 0.
    pub(crate) fn ln(self) -> Iv {
        debug_assert!(self.lo > 0.0);
        Iv {
            lo: widen_down(libm::log(self.lo)),
            hi: widen_up(libm::log(self.hi)),
        }
    }

    /// `ln(1 - self)` for `self` in `[0, 1)`: `log1p(-x)` keeps full relative precision for
    /// `x` near 0 (a probability near 1 given by its complement).
    pub(crate) fn ln_one_minus(self) -> Iv {
        debug_assert!(self.hi < 1.0);
        Iv {
            lo: widen_down(libm::log1p(-self.hi)),
            hi: widen_up(libm::log1p(-self.lo)).min(0.0),
        }
    }

    /// The standard normal's lower and upper tails at `z`: `(Phi(z), 1 - Phi(z))`, each to
    /// full relative precision (`erfc(-z / sqrt 2) / 2` and `erfc(z / sqrt 2) / 2`).
    pub(crate) fn normal_tails(z: Iv) -> (Iv, Iv) {
        let w = z.mul(Iv::new(
            std::f64::consts::FRAC_1_SQRT_2.next_down(),
            std::f64::consts::FRAC_1_SQRT_2.next_up(),
        ));
        // Halving is exact but for subnormal results: one more double covers it.
        let half = |x: f64, lower: bool| {
            if lower {
                down(0.5 * x).max(0.0)
            } else {
                up(0.5 * x).min(1.0)
            }
        };
        let lower = Iv {
            lo: half(widen_down(libm::erfc(-w.lo)), true),
            hi: half(widen_up(libm::erfc(-w.hi)), false),
        };
        let upper = Iv {
            lo: half(widen_down(libm::erfc(w.hi)), true),
            hi: half(widen_up(libm::erfc(w.lo)), false),
        };
        (lower, upper)
    }

    pub(crate) fn width(self) -> f64 {
        up(self.hi - self.lo)
    }

    #[cfg(test)]
    pub(crate) fn contains(self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// The interval of every point within both (the meet of two enclosures of one number).
    pub(crate) fn meet(self, o: Iv) -> Iv {
        Iv {
            lo: self.lo.max(o.lo),
            hi: self.hi.min(o.hi),
        }
    }

    pub(crate) fn is_finite(self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elementary_functions_enclose_known_values() {
        let (lower, upper) = Iv::normal_tails(Iv::point(0.0));
        assert!(lower.contains(0.5) && upper.contains(0.5));
        // 1 - Phi(5) = 2.866515718791939e-7 (to 16 digits).
        let (_, q) = Iv::normal_tails(Iv::point(5.0));
        assert!(q.contains(2.866_515_718_791_939e-7), "{q:?}");
        assert!(q.width() < 1e-20);
        let e = Iv::point(1.0).exp();
        assert!(e.contains(std::f64::consts::E));
        let l = Iv::point(1e-20).ln_one_minus();
        assert!(l.contains(-1e-20) && l.width() < 1e-33, "{l:?}");
        let s = Iv::new(-1.0, 2.0).sqr();
        assert_eq!(s.lo, 0.0);
        assert!(s.hi >= 4.0);
        let d = Iv::point(1.0).div_pos(Iv::point(3.0));
        assert!(d.lo < d.hi && d.contains(1.0 / 3.0));
    }
}
