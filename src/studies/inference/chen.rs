//! The shape of majority voting's accuracy against k on a mix of two query types (Chen et
//! al., "Are More LLM Calls All You Need?", arXiv 2403.02419), in closed form and exactly
//! for **every** k, not only on a list.
//!
//! **The curve.** A share `alpha` of easy queries, each vote correct with probability
//! `p1 > 1/2`, the rest hard with `p2 < 1/2`; one wrong answer; ties broken uniformly. With
//! `F(k)` the probability that the vote is correct, `F(2m) = F(2m - 1)` (a tie at 2m votes
//! is won half the time, which is what one more vote after 2m - 1 gives), and for odd
//! `k = 2m - 1`
//!
//! `F(k + 2) - F(k) = C(2m - 1, m) [alpha (2 p1 - 1) x^m - (1 - alpha)(1 - 2 p2) y^m]`
//!
//! with `x = p1 (1 - p1)` and `y = p2 (1 - p2)` (one type's step is
//! `C(2m - 1, m) (p q)^m (p - q)`: the vote changes only when the first `2m - 1` votes are
//! one short of a majority either way).
//!
//! **The shape (our derivation).** The bracket has one sign change at most, because
//! `(y / x)^m` is monotone in m:
//! - `p1 + p2 > 1` (`y > x`: the hard type is nearer 1/2): the bracket ends negative, so
//!   the curve falls for large k. It first rises iff `alpha > 1 - 1/t`, with
//!   `t = 1 + y (1/2 - p2) / (x (p1 - 1/2))` (the sign of `F(3) - F(1)`): rise then fall, the
//!   best odd k being `2M - 1` for the first m = M whose bracket is not positive; otherwise
//!   it never rises.
//! - `p1 + p2 < 1` (`y < x`): the curve rises for large k; it falls first iff
//!   `alpha < 1 - 1/t`: fall then rise, else it never falls.
//! - `p1 + p2 = 1`: one sign for every k (that of `alpha - 1/2`).
//!
//! As k grows `F(k) -> alpha`. The threshold `1 - 1/t` is the one a summary of Chen et al.'s
//! theorem gives; which side of `p1 + p2 = 1` goes with which shape is derived here (see
//! `docs/inference.md` for what we could and could not check against the paper).

use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// The shape of `F(k)` over all k.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// Never falls, and rises (more votes help).
    Rises,
    /// Never rises, and falls (more votes hurt).
    Falls,
    /// Rises to its largest value at the odd k `best` (and `best + 1`), then falls for good.
    RiseThenFall {
        /// The first k of the largest accuracy.
        best: u64,
    },
    /// Falls to its smallest value at the odd k `worst` (and `worst + 1`), then rises for good.
    FallThenRise {
        /// The first k of the smallest accuracy.
        worst: u64,
    },
    /// The same at every k (`p1 + p2 = 1` and `alpha = 1/2`).
    Flat,
}

impl Shape {
    /// "help", "hurt", "turn" (rise then fall), "dip" (fall then rise) or "flat".
    pub fn word(&self) -> &'static str {
        match self {
            Shape::Rises => "help",
            Shape::Falls => "hurt",
            Shape::RiseThenFall { .. } => "turn",
            Shape::FallThenRise { .. } => "dip",
            Shape::Flat => "flat",
        }
    }
}

/// A two-type mix: share `alpha` of easy queries with success `p1`, the rest with `p2`.
#[derive(Debug, Clone, PartialEq)]
pub struct TwoTypes {
    /// The easy type's per-vote success, above 1/2.
    pub p1: BigRational,
    /// The hard type's per-vote success, below 1/2.
    pub p2: BigRational,
    /// The share of easy queries, in (0, 1).
    pub alpha: BigRational,
}

/// The largest m the closed form searches for the turn (k up to about 2 million).
pub const MAX_TURN: u64 = 1 << 20;

impl TwoTypes {
    /// The mix, or `None` unless `p2 < 1/2 < p1` and `0 < alpha < 1`.
    pub fn new(p1: BigRational, p2: BigRational, alpha: BigRational) -> Option<TwoTypes> {
        let half = BigRational::new(1.into(), 2.into());
        (p2 >= BigRational::zero()
            && p2 < half
            && p1 > half
            && p1 <= BigRational::one()
            && alpha.is_positive()
            && alpha < BigRational::one())
        .then_some(TwoTypes { p1, p2, alpha })
    }

    fn terms(&self) -> (BigRational, BigRational, BigRational, BigRational) {
        let one = BigRational::one();
        let two = BigRational::from_integer(2.into());
        let a = &self.alpha * (&two * &self.p1 - &one);
        let b = (&one - &self.alpha) * (&one - &two * &self.p2);
        let x = &self.p1 * (&one - &self.p1);
        let y = &self.p2 * (&one - &self.p2);
        (a, b, x, y)
    }

    /// The sign of `F(2m + 1) - F(2m - 1)`, m >= 1: that of `A x^m - B y^m`.
    pub fn step_sign(&self, m: u64) -> i32 {
        let (a, b, x, y) = self.terms();
        let m = usize::try_from(m).expect("m fits in memory");
        let d = a * num_traits::pow(x, m) - b * num_traits::pow(y, m);
        if d.is_positive() {
            1
        } else if d.is_negative() {
            -1
        } else {
            0
        }
    }

    /// Chen et al.'s threshold on alpha, `1 - 1/t` with
    /// `t = 1 + y (1/2 - p2) / (x (p1 - 1/2))`: above it `F(3) > F(1)`.
    pub fn threshold(&self) -> BigRational {
        let (_, _, x, y) = self.terms();
        let half = BigRational::new(1.into(), 2.into());
        let t = BigRational::one() + &y * (&half - &self.p2) / (&x * (&self.p1 - &half));
        BigRational::one() - t.recip()
    }

    /// `F(1) = alpha p1 + (1 - alpha) p2`.
    pub fn single(&self) -> BigRational {
        &self.alpha * &self.p1 + (BigRational::one() - &self.alpha) * &self.p2
    }

    /// The shape over every k, or `None` when the turn lies past m = [`MAX_TURN`].
    pub fn shape(&self) -> Option<Shape> {
        let (a, b, x, y) = self.terms();
        let first = self.step_sign(1);
        if x == y {
            return Some(match first {
                1 => Shape::Rises,
                -1 => Shape::Falls,
                _ => Shape::Flat,
            });
        }
        let hard_wins = y > x;
        if hard_wins && first <= 0 {
            return Some(Shape::Falls);
        }
        if !hard_wins && first >= 0 {
            return Some(Shape::Rises);
        }
        // The first m whose step has the final sign: a start from logarithms, then exact.
        let estimate = {
            let (a, b, x, y) = (a.to_f64()?, b.to_f64()?, x.to_f64()?, y.to_f64()?);
            ((a / b).ln() / (y / x).ln()).floor()
        };
        let done = |m: u64| {
            let s = self.step_sign(m);
            if hard_wins { s <= 0 } else { s >= 0 }
        };
        let mut m = if estimate.is_finite() && estimate >= 1.0 {
            (estimate as u64).min(MAX_TURN)
        } else {
            1
        };
        while m > 1 && done(m - 1) {
            m -= 1;
        }
        while !done(m) {
            m += 1;
            if m > MAX_TURN {
                return None;
            }
        }
        let k = 2 * m - 1;
        Some(if hard_wins {
            Shape::RiseThenFall { best: k }
        } else {
            Shape::FallThenRise { worst: k }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::inference::{Tasks, vote};
    use crate::numeric::number::parse_rational;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    fn mix(p1: &str, p2: &str, alpha: &str) -> TwoTypes {
        TwoTypes::new(q(p1), q(p2), q(alpha)).unwrap()
    }

    /// `F(k)` for k = 1..=`max` from the exact vote engine.
    fn curve(t: &TwoTypes, max: u64) -> Vec<BigRational> {
        let text = format!(
            "{}:{},{}:{}",
            t.p1,
            t.alpha,
            t.p2,
            BigRational::one() - &t.alpha
        );
        let tasks = Tasks::parse(&text).unwrap();
        let ks: Vec<u64> = (1..=max).collect();
        vote::<BigRational>(&tasks, &[BigRational::one()], &ks)
            .unwrap()
            .rows
            .into_iter()
            .map(|r| r.correct.value)
            .collect()
    }

    /// The shape read off the exact curve on k = 1..=max (every step's sign).
    fn scanned(values: &[BigRational]) -> Vec<i32> {
        values
            .windows(2)
            .map(|w| match w[1].cmp(&w[0]) {
                std::cmp::Ordering::Greater => 1,
                std::cmp::Ordering::Less => -1,
                std::cmp::Ordering::Equal => 0,
            })
            .collect()
    }

    #[test]
    fn the_docs_mix_turns_at_17() {
        let t = mix("0.7", "0.4", "0.6");
        assert_eq!(t.shape(), Some(Shape::RiseThenFall { best: 17 }));
        let f = curve(&t, 60);
        let best = (0..f.len())
            .max_by(|&i, &j| f[i].cmp(&f[j]).then(j.cmp(&i)))
            .unwrap();
        assert_eq!(best + 1, 17);
        // Above the threshold, with p1 + p2 > 1: it rises first.
        assert!(t.alpha > t.threshold());
    }

    #[test]
    fn the_closed_form_matches_every_step_of_the_exact_curve() {
        // Cells of each shape; every odd step's sign from the formula equals the engine's,
        // and every even step is flat.
        for (p1, p2, alpha) in [
            ("0.7", "0.4", "0.6"),
            ("0.7", "0.4", "0.2"),
            ("0.6", "0.2", "0.5"),
            ("0.6", "0.2", "0.3"),
            ("0.6", "0.2", "0.1"),
            ("0.9", "0.45", "0.3"),
            ("0.8", "0.2", "0.5"),
            ("0.8", "0.2", "0.4"),
            ("0.55", "0.05", "0.2"),
        ] {
            let t = mix(p1, p2, alpha);
            let f = curve(&t, 81);
            let steps = scanned(&f);
            for m in 1..=40u64 {
                let odd = (2 * m - 1) as usize; // F(2m + 1) - F(2m) at index 2m - 1 ...
                assert_eq!(
                    steps[odd - 1],
                    0,
                    "F(2m) = F(2m - 1) at m = {m}, {p1} {p2} {alpha}"
                );
                assert_eq!(steps[odd], t.step_sign(m), "step {m} of {p1} {p2} {alpha}");
            }
            let shape = t.shape().unwrap();
            match shape {
                Shape::RiseThenFall { best } if best < 80 => {
                    let top = f.iter().max().unwrap();
                    let first = f.iter().position(|v| v == top).unwrap() as u64 + 1;
                    assert_eq!(first, best, "{p1} {p2} {alpha}");
                }
                Shape::FallThenRise { worst } if worst < 80 => {
                    let bottom = f.iter().min().unwrap();
                    let first = f.iter().position(|v| v == bottom).unwrap() as u64 + 1;
                    assert_eq!(first, worst, "{p1} {p2} {alpha}");
                }
                Shape::Rises => assert!(steps.iter().all(|&s| s >= 0)),
                Shape::Falls => assert!(steps.iter().all(|&s| s <= 0)),
                _ => {}
            }
        }
    }

    #[test]
    fn each_shape_occurs_where_the_derivation_says() {
        // p1 + p2 > 1: above the threshold turn, at or below it hurt.
        assert_eq!(mix("0.7", "0.4", "0.2").shape(), Some(Shape::Falls));
        assert!(mix("0.7", "0.4", "0.2").alpha <= mix("0.7", "0.4", "0.2").threshold());
        // p1 + p2 < 1: at or above the threshold help, below it dip.
        let help = mix("0.6", "0.2", "0.7");
        assert!(help.alpha >= help.threshold());
        assert_eq!(help.shape(), Some(Shape::Rises));
        let dip = mix("0.6", "0.2", "0.5");
        assert!(dip.alpha < dip.threshold());
        assert!(matches!(dip.shape(), Some(Shape::FallThenRise { .. })));
        // p1 + p2 = 1: the sign of alpha - 1/2.
        assert_eq!(mix("0.8", "0.2", "0.5").shape(), Some(Shape::Flat));
        assert_eq!(mix("0.8", "0.2", "0.6").shape(), Some(Shape::Rises));
        assert_eq!(mix("0.8", "0.2", "0.4").shape(), Some(Shape::Falls));
    }

    #[test]
    fn a_turn_far_out_is_found_exactly() {
        // p1 + p2 just above 1: the hard type wins only slowly.
        let t = mix("0.7", "0.301", "0.9");
        let Some(Shape::RiseThenFall { best }) = t.shape() else {
            panic!("expected a turn");
        };
        let m = best.div_ceil(2);
        assert!(t.step_sign(m - 1) > 0 && t.step_sign(m) <= 0);
        assert!(best > 100);
    }
}
