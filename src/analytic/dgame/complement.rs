//! The error probability `1 - D(d,h)` with componentwise relative error bounds (beyond
//! Li & Marsland).
//!
//! At high dependence factors the correct-decision probabilities D(d,h) of Section 6.1 are all
//! within `1e-15` of 1 (at `f1 = f2 = 0.99`, `1 - D(d,20)` falls from `5e-7` at d = 1 to
//! `1e-36` at d = 18), so no absolute error bound, in `f64` or double-double, can order them.
//! Their complements differ by factors of about 50, though. This module computes
//! `E(d,h) = 1 - D(d,h)` from quantities that are all sums of products of non-negative
//! numbers, which floating point computes with a small *relative* error however tiny they
//! are, and encloses it rigorously: `E` lies in [`Enclosure::lower`]`..=`[`Enclosure::upper`].
//! A depth pair `(d-1, d)` is then pathological, `D(d-1,h) > D(d,h)`, exactly when
//! `E(d-1,h) < E(d,h)`, which disjoint enclosures certify.
//!
//! **The recursion** is that of [`super::Solver`] written on probability mass functions
//! with no subtraction anywhere:
//!
//! - psi (formula of Section 6.1): at a Max node of height t, `win = w * (f1 w + (1-f1) l)`
//!   and `loss = l * l` (`*` is convolution); at a Min node `loss = l * (f2 l + (1-f2) w)` and
//!   `win = w * w`. Convolutions are direct sums (an FFT would give only absolute accuracy).
//! - back-up: the maximum of independent `A` and `B` has
//!   `Pr[max = i] = p_A(i) F_B(i) + F_A(i-1) p_B(i)` and the minimum
//!   `Pr[min = i] = p_A(i) S_B(i) + S_A(i+1) p_B(i)`, with prefix sums `F` and suffix sums
//!   `S` of the pmfs. A win Max node is the maximum of a win child and an `f1`-mixture, a loss
//!   Max node of two loss children; Min nodes likewise with `f2`.
//! - `E = sum_i p_l(i) G(i)` with `G(i) = (F_w(i) + F_w(i-1)) / 2`, at the two children of
//!   the root: the probability that the loss child backs up a larger value, plus half a tie.
//!
//! **The bound.** Every vector carries a [`Slack`] `(r, a)`: each computed entry `x'` and its
//! true value `x` (in `[0, 1]`) satisfy `|x' - x| <= r x + a`. With unit roundoff `u` and
//! `gamma(k) = k u / (1 - k u)` (Higham, *Accuracy and Stability of Numerical Algorithms*,
//! Lemma 3.1), and `eta = 2^-1074` for a product that underflows:
//!
//! - a product of entries with slacks `(r1, a1)` and `(r2, a2)` has slack
//!   `((r1 + r2 + r1 r2)(1 + u) + u, (a1 (1 + r2) + a2 (1 + r1) + a1 a2)(1 + u) + eta)`;
//! - a recursive sum of `k` non-negative terms with slack `(r, a)` has slack
//!   `(r + gamma(k-1)(1 + r), k a (1 + gamma(k-1)))` (additions do not underflow);
//! - a convolution of length-`m` pmfs sums at most `m` products per entry, and since each
//!   true pmf sums to 1 its absolute part is
//!   `((a1 (1 + r2) + a2 (1 + r1))(1 + u) + m (a1 a2 (1 + u) + eta))(1 + gamma(m))`;
//! - `f1`, `f2` and their complements are rounded once from the exact rationals, and their
//!   relative rounding errors are computed exactly.
//!
//! The absolute parts only account for underflow: they stay below `1e-250` where the
//! relative parts are about `1e-10`. Bounds are evaluated in `f64` and inflated by
//! `1 + 1e-6`, which absorbs the rounding of their own evaluation, and the endpoints are
//! rounded outward.

use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use rayon::prelude::*;

use super::distribution::check_depth;
use crate::error::{Error, Result};
use crate::model::Player;

const U: f64 = f64::EPSILON / 2.0;
/// The largest error of a product that underflows (the smallest subnormal).
const ETA: f64 = f64::from_bits(1);
/// Inflation of every evaluated bound, absorbing the rounding of its own evaluation.
const INFLATION: f64 = 1.0 + 1e-6;

fn gamma(k: usize) -> f64 {
    let k = k as f64;
    k * U / (1.0 - k * U)
}

/// A componentwise error bound `(relative, absolute)` of a computed vector: every entry `x'`
/// and its true value `x` in `[0, 1]` satisfy `|x' - x| <= relative * x + absolute`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::complement::Slack;
/// let exact = Slack::EXACT;
/// let product = exact.product(exact); // one rounding
/// assert_eq!(product.relative, f64::EPSILON / 2.0);
/// assert!(product.absolute > 0.0 && product.absolute < 1e-320); // the underflow allowance
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slack {
    /// The relative part.
    pub relative: f64,
    /// The absolute part (underflow only).
    pub absolute: f64,
}

impl Slack {
    /// No error.
    pub const EXACT: Slack = Slack {
        relative: 0.0,
        absolute: 0.0,
    };

    /// The slack of a rounded product of two entries with slacks `self` and `other`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::Slack;
    /// let a = Slack { relative: 1e-10, absolute: 0.0 };
    /// assert!((a.product(a).relative - 2e-10).abs() < 1e-15);
    /// ```
    pub fn product(self, other: Slack) -> Slack {
        let (r1, a1, r2, a2) = (self.relative, self.absolute, other.relative, other.absolute);
        Slack {
            relative: (r1 + r2 + r1 * r2) * (1.0 + U) + U,
            absolute: (a1 * (1.0 + r2) + a2 * (1.0 + r1) + a1 * a2) * (1.0 + U) + ETA,
        }
    }

    /// The slack of a recursive sum of `terms` non-negative terms, each with slack `self`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::Slack;
    /// let sum = Slack::EXACT.sum(1001);
    /// assert!((sum.relative - 1000.0 * f64::EPSILON / 2.0).abs() < 1e-20);
    /// assert_eq!(Slack::EXACT.sum(1), Slack::EXACT);
    /// ```
    pub fn sum(self, terms: usize) -> Slack {
        let g = gamma(terms.saturating_sub(1));
        Slack {
            relative: self.relative + g * (1.0 + self.relative),
            absolute: terms as f64 * self.absolute * (1.0 + g),
        }
    }

    /// The larger of two slacks, part by part (for a sum of terms with different slacks).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::Slack;
    /// let a = Slack { relative: 1e-9, absolute: 0.0 };
    /// let b = Slack { relative: 1e-12, absolute: 1e-300 };
    /// assert_eq!(a.max(b), Slack { relative: 1e-9, absolute: 1e-300 });
    /// ```
    pub fn max(self, other: Slack) -> Slack {
        Slack {
            relative: self.relative.max(other.relative),
            absolute: self.absolute.max(other.absolute),
        }
    }

    /// The slack of `x1 y1 + x2 y2` from the slacks of its four factors.
    fn sum_of_two_products([x1, y1]: [Slack; 2], [x2, y2]: [Slack; 2]) -> Slack {
        x1.product(y1).max(x2.product(y2)).sum(2)
    }

    /// The slack of the convolution of two pmfs (true sums 1) of length at most `m`.
    fn convolution(self, other: Slack, m: usize) -> Slack {
        let (r1, a1, r2, a2) = (self.relative, self.absolute, other.relative, other.absolute);
        let g = gamma(m);
        Slack {
            relative: ((r1 + r2 + r1 * r2) * (1.0 + U) + U) * (1.0 + g) + g,
            absolute: ((a1 * (1.0 + r2) + a2 * (1.0 + r1)) * (1.0 + U)
                + m as f64 * (a1 * a2 * (1.0 + U) + ETA))
                * (1.0 + g),
        }
    }
}

/// A rigorous enclosure of a probability computed in floating point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Enclosure {
    /// The computed value.
    pub estimate: f64,
    /// The error bound of `estimate` (already inflated).
    pub slack: Slack,
}

impl Enclosure {
    /// A rigorous lower bound of the true value: `(estimate - a) / (1 + r)`, rounded down
    /// (and at least 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::{Enclosure, Slack};
    /// let e = Enclosure { estimate: 1e-30, slack: Slack { relative: 1e-10, absolute: 0.0 } };
    /// assert!(e.lower() < 1e-30 && e.lower() > 0.9999999998e-30);
    /// ```
    pub fn lower(&self) -> f64 {
        let x = ((self.estimate - self.slack.absolute).next_down() / (1.0 + self.slack.relative))
            .next_down();
        x.max(0.0)
    }

    /// A rigorous upper bound of the true value: `(estimate + a) / (1 - r)`, rounded up.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::{Enclosure, Slack};
    /// let e = Enclosure { estimate: 1e-30, slack: Slack { relative: 1e-10, absolute: 0.0 } };
    /// assert!(e.upper() > 1e-30 && e.upper() < 1.0000000002e-30);
    /// ```
    pub fn upper(&self) -> f64 {
        if self.slack.relative >= 1.0 || self.slack.relative.is_nan() {
            // No relative information (a factor below the smallest double, say).
            return f64::INFINITY;
        }
        ((self.estimate + self.slack.absolute).next_up() / (1.0 - self.slack.relative).next_down())
            .next_up()
    }

    /// Whether the true value is certainly smaller than that of `other`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::{Enclosure, Slack};
    /// let slack = Slack { relative: 1e-10, absolute: 0.0 };
    /// let (a, b) = (Enclosure { estimate: 1e-30, slack }, Enclosure { estimate: 2e-30, slack });
    /// assert!(a.certainly_below(&b) && !b.certainly_below(&a));
    /// let c = Enclosure { estimate: 1.00000000001e-30, slack };
    /// assert!(!a.certainly_below(&c)); // the enclosures overlap
    /// ```
    pub fn certainly_below(&self, other: &Enclosure) -> bool {
        self.upper() < other.lower()
    }
}

/// A computed vector and its slack.
#[derive(Debug, Clone)]
struct Bounded {
    values: Vec<f64>,
    slack: Slack,
}

/// A probability weight rounded from an exact rational, with its exact relative error.
#[derive(Debug, Clone, Copy)]
struct Weight {
    value: f64,
    slack: Slack,
}

impl Weight {
    fn from_rational(q: &BigRational) -> Weight {
        let value = q.to_f64().unwrap_or(f64::NAN);
        let relative = if q.is_zero() {
            0.0
        } else {
            let rounded = BigRational::from_float(value).unwrap_or_else(BigRational::zero);
            let error = ((rounded - q) / q).abs();
            // Round the exact relative error up.
            let up = error.to_f64().unwrap_or(f64::INFINITY) * (1.0 + 4.0 * U);
            if up == 0.0 { 0.0 } else { up.next_up() }
        };
        Weight {
            value,
            slack: Slack {
                relative,
                absolute: 0.0,
            },
        }
    }
}

/// `same * x + other * y`, entrywise, with its slack.
fn mix(same: Weight, x: &Bounded, other: Weight, y: &Bounded) -> Bounded {
    let values = x
        .values
        .iter()
        .zip(&y.values)
        .map(|(a, b)| same.value * a + other.value * b)
        .collect();
    let slack = Slack::sum_of_two_products([same.slack, x.slack], [other.slack, y.slack]);
    Bounded { values, slack }
}

/// Direct convolution of two pmfs.
fn convolve(x: &Bounded, y: &Bounded) -> Bounded {
    let mut out = vec![0.0; x.values.len() + y.values.len() - 1];
    for (i, &a) in x.values.iter().enumerate() {
        if a != 0.0 {
            for (o, &b) in out[i..].iter_mut().zip(&y.values) {
                *o += a * b;
            }
        }
    }
    let m = x.values.len().min(y.values.len());
    Bounded {
        values: out,
        slack: x.slack.convolution(y.slack, m),
    }
}

/// Prefix sums `F(i) = sum_{j <= i} p(j)` (recursive summation, as the slack assumes).
fn prefix_sums(p: &Bounded) -> Bounded {
    Bounded {
        values: super::distribution::prefix_sums(&p.values),
        slack: p.slack.sum(p.values.len()),
    }
}

/// Suffix sums `S(i) = sum_{j >= i} p(j)`: the prefix sums of the reversed pmf, reversed.
fn suffix_sums(p: &Bounded) -> Bounded {
    let reversed: Vec<f64> = p.values.iter().rev().copied().collect();
    let mut values = super::distribution::prefix_sums(&reversed);
    values.reverse();
    Bounded {
        values,
        slack: p.slack.sum(p.values.len()),
    }
}

/// The pmf of the maximum (`Player::Max`) or minimum (`Player::Min`) of independent `A` and
/// `B`, from their pmfs `p` and cumulative sums `c` (prefix sums for the maximum, suffix sums
/// for the minimum): `p_A(i) c_B(i) + c_A(i -+ 1) p_B(i)`.
fn extreme(player: Player, pa: &Bounded, ca: &Bounded, pb: &Bounded, cb: &Bounded) -> Bounded {
    let n = pa.values.len();
    let values = (0..n)
        .map(|i| {
            let beyond = match player {
                Player::Max => i.checked_sub(1).map(|j| ca.values[j]),
                Player::Min => ca.values.get(i + 1).copied(),
            };
            pa.values[i] * cb.values[i] + beyond.map_or(0.0, |c| c * pb.values[i])
        })
        .collect();
    let slack = Slack::sum_of_two_products([pa.slack, cb.slack], [ca.slack, pb.slack]);
    Bounded { values, slack }
}

/// The win/loss pmfs at one height.
#[derive(Debug, Clone)]
struct Level {
    win: Bounded,
    loss: Bounded,
}

/// Computes enclosures of `E(d,h) = 1 - D(d,h)` for one pair of exact dependence factors.
/// psi distributions are computed once per height and cached.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::complement::ComplementSolver;
/// use pathology::numeric::number::parse_rational;
/// let f = parse_rational("0.99").unwrap();
/// let mut solver = ComplementSolver::new(&f, &f).unwrap();
/// // At h = 14 D(11,14) and D(12,14) both print as 1 to 24 decimals, but their complements
/// // are certainly ordered: the pair (11, 12) is not pathological.
/// let e11 = solver.wrong_decision(11, 14).unwrap();
/// let e12 = solver.wrong_decision(12, 14).unwrap();
/// assert!(e12.certainly_below(&e11));
/// assert!(e11.upper() < 1e-22 && e12.lower() > 1e-26);
/// ```
#[derive(Debug, Clone)]
pub struct ComplementSolver {
    factors: Factors,
    psi: Vec<Level>,
}

/// The dependence factors rounded to `f64` with their exact relative rounding errors, and
/// the two steps of the recursion that use them.
#[derive(Debug, Clone, Copy)]
struct Factors {
    f1: Weight,
    not_f1: Weight,
    f2: Weight,
    not_f2: Weight,
}

impl Factors {
    fn new(f1: &BigRational, f2: &BigRational) -> Result<Self> {
        super::check_unit("f1", f1)?;
        super::check_unit("f2", f2)?;
        let one = BigRational::from_integer(1.into());
        Ok(Factors {
            f1: Weight::from_rational(f1),
            not_f1: Weight::from_rational(&(&one - f1)),
            f2: Weight::from_rational(f2),
            not_f2: Weight::from_rational(&(&one - f2)),
        })
    }

    /// The weights `(same, mixed)` at a node of `player`: `(f1, 1 - f1)` or `(f2, 1 - f2)`.
    fn weights(&self, player: Player) -> (Weight, Weight) {
        match player {
            Player::Max => (self.f1, self.not_f1),
            Player::Min => (self.f2, self.not_f2),
        }
    }

    /// The psi pmfs at height `t` from those at height `t - 1`.
    fn psi_step(&self, child: &Level, t: u32) -> Level {
        let player = Player::to_move_at_height(t);
        let (same, mixed) = self.weights(player);
        // Max mixes the children of win nodes, Min those of loss nodes.
        let (favoured, other) = match player {
            Player::Max => (&child.win, &child.loss),
            Player::Min => (&child.loss, &child.win),
        };
        let mixture = mix(same, favoured, mixed, other);
        let (mixed_children, forced) =
            rayon::join(|| convolve(favoured, &mixture), || convolve(other, other));
        match player {
            Player::Max => Level {
                win: mixed_children,
                loss: forced,
            },
            Player::Min => Level {
                win: forced,
                loss: mixed_children,
            },
        }
    }

    /// One level of minimax back-up on pmfs.
    fn back_up(&self, child: &Level, player: Player) -> Level {
        let (same, mixed) = self.weights(player);
        let cumulative = match player {
            Player::Max => prefix_sums,
            Player::Min => suffix_sums,
        };
        // `favoured` has one mixed child, `other` two children of its own kind.
        let (favoured, other) = match player {
            Player::Max => (&child.win, &child.loss),
            Player::Min => (&child.loss, &child.win),
        };
        let (c_favoured, c_other) = (cumulative(favoured), cumulative(other));
        let p_mix = mix(same, favoured, mixed, other);
        let c_mix = mix(same, &c_favoured, mixed, &c_other);
        let mixed_node = extreme(player, favoured, &c_favoured, &p_mix, &c_mix);
        let forced_node = extreme(player, other, &c_other, other, &c_other);
        match player {
            Player::Max => Level {
                win: mixed_node,
                loss: forced_node,
            },
            Player::Min => Level {
                win: forced_node,
                loss: mixed_node,
            },
        }
    }

    /// The pmfs at the children of a height-`height` node, backed up from `front`, the pmfs
    /// at height `front_height`.
    fn backed_up(&self, front: &Level, front_height: u32, height: u32) -> Level {
        let mut level = front.clone();
        for t in front_height + 1..height {
            level = self.back_up(&level, Player::to_move_at_height(t));
        }
        level
    }
}

/// The leaf level: a win leaf has psi = 1, a loss leaf psi = 0.
fn leaves() -> Level {
    let exact = |v: Vec<f64>| Bounded {
        values: v,
        slack: Slack::EXACT,
    };
    Level {
        win: exact(vec![0.0, 1.0]),
        loss: exact(vec![1.0, 0.0]),
    }
}

/// Multiply-adds a second of the direct convolutions, the two of each level running in
/// parallel: about 1e10 measured on this 2-core machine (4.6 s for every level up to height
/// 18), halved to stay on the safe side.
const MULTIPLY_ADDS_PER_SECOND: f64 = 5e9;

impl ComplementSolver {
    /// A solver for the exact factors `f1`, `f2` in `[0, 1]`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `f1` or `f2` when it lies outside `[0, 1]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::ComplementSolver;
    /// use pathology::numeric::number::parse_rational;
    /// assert!(ComplementSolver::new(&parse_rational("0.5").unwrap(), &parse_rational("1.5").unwrap()).is_err());
    /// ```
    pub fn new(f1: &BigRational, f2: &BigRational) -> Result<Self> {
        Ok(ComplementSolver {
            factors: Factors::new(f1, f2)?,
            psi: vec![leaves()],
        })
    }

    fn ensure_psi(&mut self, height: u32) {
        while self.psi.len() <= height as usize {
            let t = self.psi.len() as u32;
            let child = self.psi.last().expect("the leaf level is always present");
            let level = self.factors.psi_step(child, t);
            self.psi.push(level);
        }
    }

    /// The estimated seconds to compute the psi distributions up to `front` that are not yet
    /// cached (the back-up costs far less).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::ComplementSolver;
    /// use pathology::numeric::number::parse_rational;
    /// let f = parse_rational("0.9").unwrap();
    /// let mut solver = ComplementSolver::new(&f, &f).unwrap();
    /// assert!(solver.estimate_seconds(18) > 5.0 && solver.estimate_seconds(10) < 0.01);
    /// solver.wrong_decision(2, 10).unwrap(); // caches psi up to height 8
    /// assert_eq!(solver.estimate_seconds(8), 0.0);
    /// ```
    pub fn estimate_seconds(&self, front: u32) -> f64 {
        (self.psi.len() as u32..=front)
            .map(|t| {
                let m = 2f64.powi(t as i32 - 1) + 1.0;
                2.0 * m * m / MULTIPLY_ADDS_PER_SECOND
            })
            .sum()
    }

    /// An enclosure of `1 - D(depth, height)`, the probability that a depth-`depth` minimax
    /// search at a height-`height` node prefers its loss child (ties counted half).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] unless `1 <= depth <= height <= MAX_HEIGHT`;
    /// [`Error::TooExpensive`] when the psi distributions would take more than a minute
    /// ([`ComplementSolver::estimate_seconds`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::ComplementSolver;
    /// use pathology::analytic::dgame::{DependenceFactors, Solver};
    /// use pathology::numeric::number::{Probability, parse_rational};
    /// let f = parse_rational("0.1").unwrap();
    /// let mut solver = ComplementSolver::new(&f, &f).unwrap();
    /// let e = solver.wrong_decision(1, 10).unwrap();
    /// let exact = Solver::new(DependenceFactors::new(f.clone(), f).unwrap())
    ///     .correct_decision_probability(1, 10)
    ///     .unwrap();
    /// let complement = 1.0 - exact.to_f64(); // Table 1: D(1,10) = 0.608
    /// assert!(e.lower() <= complement && complement <= e.upper());
    /// assert!(e.upper() - e.lower() < 1e-12);
    /// ```
    pub fn wrong_decision(&mut self, depth: u32, height: u32) -> Result<Enclosure> {
        self.prepare(depth, height)?;
        Ok(self.enclosure_at(depth, height))
    }

    /// Checks the arguments and the cost, and caches psi up to the search front.
    fn prepare(&mut self, depth: u32, height: u32) -> Result<()> {
        check_depth(depth, height)?;
        let front = height - depth;
        let seconds = self.estimate_seconds(front);
        crate::budget::check_seconds(
            || format!("the certified 1 - D({depth},{height})"),
            seconds,
            crate::budget::ANALYTIC_TIME_LIMIT_SECONDS,
            "",
            "A larger depth has a smaller search front and costs less.",
        )?;
        self.ensure_psi(front);
        Ok(())
    }

    /// The enclosure of `1 - D(depth, height)`, with psi cached up to `height - depth`.
    fn enclosure_at(&self, depth: u32, height: u32) -> Enclosure {
        let front = height - depth;
        let level = self
            .factors
            .backed_up(&self.psi[front as usize], front, height);
        wrong_decision_from(&level)
    }

    /// Enclosures of `1 - D(d, height)` for every `d = 1..=height`, computed in parallel.
    ///
    /// # Errors
    ///
    /// As [`ComplementSolver::wrong_decision`] for depth 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::ComplementSolver;
    /// use pathology::numeric::number::parse_rational;
    /// let f = parse_rational("0.99").unwrap();
    /// let column = ComplementSolver::new(&f, &f).unwrap().wrong_decision_column(12).unwrap();
    /// // 1 - D falls with depth by a factor of about 50 per ply, down to D(h-1,h) = 1, where
    /// // only the underflow allowance is left.
    /// for d in 1..10 {
    ///     assert!(column[d].certainly_below(&column[d - 1]), "d = {}", d + 1);
    /// }
    /// for e in &column[10..] {
    ///     assert_eq!((e.estimate, e.lower()), (0.0, 0.0));
    ///     assert!(e.upper() < 1e-300);
    /// }
    /// ```
    pub fn wrong_decision_column(&mut self, height: u32) -> Result<Vec<Enclosure>> {
        self.prepare(1, height)?;
        let this = &*self;
        Ok((1..=height)
            .into_par_iter()
            .map(|d| this.enclosure_at(d, height))
            .collect())
    }
}

/// A rigorous enclosure `lower <= 1 - D(d,h) <= upper` from a [`CoarseComplement`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bracket {
    /// A rigorous lower bound.
    pub lower: f64,
    /// A rigorous upper bound.
    pub upper: f64,
}

impl Bracket {
    /// Whether the true value is certainly smaller than that of `other`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::Bracket;
    /// let a = Bracket { lower: 1.0e-9, upper: 1.2e-9 };
    /// let b = Bracket { lower: 1.3e-9, upper: 2.0e-9 };
    /// assert!(a.certainly_below(&b) && !b.certainly_below(&a));
    /// assert!(!a.certainly_below(&Bracket { lower: 1.1e-9, upper: 3.0e-9 }));
    /// ```
    pub fn certainly_below(&self, other: &Bracket) -> bool {
        self.upper < other.lower
    }

    /// The rigorous bounds of an [`Enclosure`].
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::{Bracket, Enclosure, Slack};
    /// let e = Enclosure { estimate: 1e-30, slack: Slack { relative: 1e-10, absolute: 0.0 } };
    /// let b = Bracket::from(e);
    /// assert_eq!((b.lower, b.upper), (e.lower(), e.upper()));
    /// ```
    pub fn from(enclosure: Enclosure) -> Bracket {
        Bracket {
            lower: enclosure.lower(),
            upper: enclosure.upper(),
        }
    }
}

/// Merges the entries `2k` and `2k + 1` (`up = false`) or `2k - 1` and `2k` (`up = true`) of
/// a pmf on a lattice of spacing `B` into entry `k` of one on a lattice of spacing `2B`: the
/// pmf of `2B floor(X / 2B)` or of `2B ceil(X / 2B)`. Each entry is a sum of at most two.
fn coarsen(p: &Bounded, up: bool) -> Bounded {
    let n = p.values.len();
    debug_assert!(n % 2 == 1, "psi pmfs have 2^k + 1 entries");
    let mut values = vec![0.0; n / 2 + 1];
    for (j, &x) in p.values.iter().enumerate() {
        values[if up { j.div_ceil(2) } else { j / 2 }] += x;
    }
    Bounded {
        values,
        slack: p.slack.sum(2),
    }
}

fn coarsen_level(level: &Level, up: bool) -> Level {
    Level {
        win: coarsen(&level.win, up),
        loss: coarsen(&level.loss, up),
    }
}

/// The psi pmfs at one height on a lattice of spacing `B`: of `lower <= psi` and
/// `upper >= psi`, defined node by node (`None`: no merging yet, `lower = psi = upper`).
#[derive(Debug, Clone)]
struct CoarseLevel {
    lower: Level,
    upper: Option<Level>,
}

/// Enclosures of `E(d,h) = 1 - D(d,h)` that stay cheap for long psi pmfs, by coarse-graining
/// with a coupling (beyond Li & Marsland).
///
/// Up to height `bits` the psi pmfs are those of [`ComplementSolver`] (`2^t + 1` entries).
/// Above, each node carries two integer-valued random variables on a lattice of spacing
/// `B_t = 2^(t - bits)`: `lo(g) = B_t floor((lo(g1) + lo(g2)) / B_t)` and
/// `hi(g) = B_t ceil((hi(g1) + hi(g2)) / B_t)` for its children `g1`, `g2`, so that
/// `lo(g) <= psi(g) <= hi(g)` at every node and their pmfs keep `2^bits + 1` entries (the
/// convolution of the children's pmfs, then adjacent entries merged by `coarsen`). Minimax
/// back-up preserves the order node by node (max and min are monotone), so at the root's
/// children, with `X` the backed-up value of the win child and `Y` that of the loss child,
/// `Y_lo > X_hi` implies `Y > X`, and `Y_hi < X_lo` implies `Y < X`. Hence, with
/// `E = (Pr[Y > X] + Pr[Y >= X]) / 2`,
///
/// `(Pr[Y_lo > X_hi] + Pr[Y_lo >= X_hi]) / 2 <= E <= (Pr[Y_hi > X_lo] + Pr[Y_hi >= X_lo]) / 2`,
///
/// and both sides are [`ComplementSolver`]'s formula for `E` applied to the pmfs of
/// `(X_hi, Y_lo)` and `(X_lo, Y_hi)` (the two children's subtrees are independent). The
/// rounding of every step is bounded by the same [`Slack`] rules (merging adds one sum of
/// two terms), and the bounds are rounded outward. Where the search front lies at height
/// `bits` or below nothing is merged and the bracket is [`ComplementSolver`]'s enclosure.
///
/// The width of the bracket is about the probability that `X` and `Y` differ by less than
/// the spread `hi - lo` (a few `B_t` at the front): at h = 22 and `bits = 12` it is a few
/// per cent of `E` where psi is long, enough to order the shallow depths, whose `E` differ
/// by far more.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::complement::{CoarseComplement, ComplementSolver};
/// use pathology::numeric::number::parse_rational;
/// let f = parse_rational("0.99").unwrap();
/// let mut coarse = CoarseComplement::new(&f, &f, 6).unwrap();
/// let mut fine = ComplementSolver::new(&f, &f).unwrap();
/// for d in 1..=12 {
///     let bracket = coarse.wrong_decision(d, 12).unwrap();
///     let exact = fine.wrong_decision(d, 12).unwrap();
///     assert!(bracket.lower <= exact.lower() && exact.upper() <= bracket.upper);
/// }
/// // 1 - D(2,12) and 1 - D(3,12) differ by a factor of about 20; merged psi values (front
/// // at height 10, 65 of its 1025 values kept) still order them.
/// let (e2, e3) = (coarse.wrong_decision(2, 12).unwrap(), coarse.wrong_decision(3, 12).unwrap());
/// assert!(e3.certainly_below(&e2));
/// ```
#[derive(Debug, Clone)]
pub struct CoarseComplement {
    factors: Factors,
    bits: u32,
    psi: Vec<CoarseLevel>,
}

impl CoarseComplement {
    /// A solver for the exact factors `f1`, `f2` in `[0, 1]` that keeps at most `2^bits + 1`
    /// psi values a height.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `f1` or `f2` when it lies outside `[0, 1]`, or
    /// `bits` outside `1..=30`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::CoarseComplement;
    /// use pathology::numeric::number::parse_rational;
    /// let f = parse_rational("0.5").unwrap();
    /// assert!(CoarseComplement::new(&f, &f, 12).is_ok());
    /// assert!(CoarseComplement::new(&f, &f, 0).is_err());
    /// ```
    pub fn new(f1: &BigRational, f2: &BigRational, bits: u32) -> Result<Self> {
        if !(1..=30).contains(&bits) {
            return Err(Error::invalid("bits", "in 1..=30", bits));
        }
        Ok(CoarseComplement {
            factors: Factors::new(f1, f2)?,
            bits,
            psi: vec![CoarseLevel {
                lower: leaves(),
                upper: None,
            }],
        })
    }

    /// The largest number of psi values kept a height, `2^bits + 1`.
    fn cap(&self) -> usize {
        (1 << self.bits) + 1
    }

    fn ensure_psi(&mut self, height: u32) {
        while self.psi.len() <= height as usize {
            let t = self.psi.len() as u32;
            let child = self.psi.last().expect("the leaf level is always present");
            let factors = self.factors;
            let (lower, upper) = match &child.upper {
                None => (factors.psi_step(&child.lower, t), None),
                Some(upper) => {
                    let (l, u) = rayon::join(
                        || factors.psi_step(&child.lower, t),
                        || factors.psi_step(upper, t),
                    );
                    (l, Some(u))
                }
            };
            let level = if lower.win.values.len() > self.cap() {
                let (l, u) = rayon::join(
                    || coarsen_level(&lower, false),
                    || coarsen_level(upper.as_ref().unwrap_or(&lower), true),
                );
                CoarseLevel {
                    lower: l,
                    upper: Some(u),
                }
            } else {
                CoarseLevel { lower, upper }
            };
            self.psi.push(level);
        }
    }

    /// The estimated seconds to compute the psi distributions up to `front` that are not yet
    /// cached.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::{CoarseComplement, ComplementSolver};
    /// use pathology::numeric::number::parse_rational;
    /// let f = parse_rational("0.9").unwrap();
    /// let coarse = CoarseComplement::new(&f, &f, 12).unwrap();
    /// assert!(coarse.estimate_seconds(21) < 1.0);
    /// assert!(ComplementSolver::new(&f, &f).unwrap().estimate_seconds(21) > 300.0);
    /// ```
    pub fn estimate_seconds(&self, front: u32) -> f64 {
        (self.psi.len() as u32..=front)
            .map(|t| {
                let m = (2f64.powi(t as i32 - 1) + 1.0).min(self.cap() as f64);
                let versions = if t > self.bits + 1 { 2.0 } else { 1.0 };
                versions * 2.0 * m * m / MULTIPLY_ADDS_PER_SECOND
            })
            .sum()
    }

    /// A rigorous enclosure of `1 - D(depth, height)`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] unless `1 <= depth <= height <= MAX_HEIGHT`;
    /// [`Error::TooExpensive`] when the psi distributions would take more than a minute
    /// ([`CoarseComplement::estimate_seconds`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::complement::CoarseComplement;
    /// use pathology::numeric::number::parse_rational;
    /// let f = parse_rational("0.99").unwrap();
    /// let mut solver = CoarseComplement::new(&f, &f, 12).unwrap();
    /// // At h = 22, D(2,22) and D(3,22) agree to 8 decimals, closer than the f64 bound; the
    /// // brackets of their complements are far apart (the search front of depth 2 is at
    /// // height 20, with 2^20 + 1 psi values, merged to 4097).
    /// let e2 = solver.wrong_decision(2, 22).unwrap();
    /// let e3 = solver.wrong_decision(3, 22).unwrap();
    /// assert!(e3.certainly_below(&e2)); // D(2,22) < D(3,22): not pathological
    /// assert!(e2.upper < 1e-7 && e3.upper < e2.lower);
    /// ```
    pub fn wrong_decision(&mut self, depth: u32, height: u32) -> Result<Bracket> {
        check_depth(depth, height)?;
        let front = height - depth;
        let seconds = self.estimate_seconds(front);
        crate::budget::check_seconds(
            || format!("the coarse-grained 1 - D({depth},{height})"),
            seconds,
            crate::budget::ANALYTIC_TIME_LIMIT_SECONDS,
            "",
            "Keep fewer psi values a height.",
        )?;
        self.ensure_psi(front);
        let level = &self.psi[front as usize];
        let lower = self.factors.backed_up(&level.lower, front, height);
        Ok(match &level.upper {
            None => Bracket::from(wrong_decision_from(&lower)),
            Some(upper) => {
                let upper = self.factors.backed_up(upper, front, height);
                // (X_hi, Y_lo) gives the lower bound, (X_lo, Y_hi) the upper one.
                let below = Level {
                    win: upper.win,
                    loss: lower.loss,
                };
                let above = Level {
                    win: lower.win,
                    loss: upper.loss,
                };
                Bracket {
                    lower: wrong_decision_from(&below).lower(),
                    upper: wrong_decision_from(&above).upper(),
                }
            }
        })
    }
}

/// `E = sum_i p_l(i) (F_w(i) + F_w(i-1)) / 2` at the root's children.
fn wrong_decision_from(level: &Level) -> Enclosure {
    let cdf = prefix_sums(&level.win);
    let n = cdf.values.len();
    let mut estimate = 0.0;
    for i in 0..n {
        let below = if i == 0 { 0.0 } else { cdf.values[i - 1] };
        estimate += level.loss.values[i] * ((cdf.values[i] + below) * 0.5);
    }
    // G(i) = (F(i) + F(i-1)) / 2: a sum of two, halved (exact but for underflow).
    let mut g = cdf.slack.sum(2);
    g.absolute += ETA;
    let mut slack = level.loss.slack.product(g).sum(n);
    slack.relative *= INFLATION;
    slack.absolute *= INFLATION;
    Enclosure { estimate, slack }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::dgame::{DependenceFactors, Solver};
    use crate::numeric::number::parse_rational;
    use num_bigint::BigInt;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    /// The exact `1 - D(d,h)` as a rational.
    fn exact_complement(f1: &str, f2: &str, height: u32) -> Vec<BigRational> {
        let mut solver = Solver::new(DependenceFactors::new(q(f1), q(f2)).unwrap());
        let column = solver.decision_column(height).unwrap();
        let one = BigRational::from_integer(1.into());
        column.values.iter().map(|d| &one - d).collect()
    }

    /// Whether `lower <= x <= upper` for an exact rational `x`.
    fn encloses(e: &Enclosure, x: &BigRational) -> bool {
        let lower = BigRational::from_float(e.lower()).unwrap();
        let upper = BigRational::from_float(e.upper()).unwrap();
        lower <= *x && *x <= upper
    }

    #[test]
    fn enclosures_contain_the_exact_complements() {
        for (f1, f2, h) in [
            ("0.1", "0.1", 10),
            ("0.99", "0.99", 10),
            ("0.3", "0.8", 9),
            ("0.999", "0.95", 10),
            ("1/3", "0", 8),
        ] {
            let exact = exact_complement(f1, f2, h);
            let column = ComplementSolver::new(&q(f1), &q(f2))
                .unwrap()
                .wrong_decision_column(h)
                .unwrap();
            for (d, (e, x)) in column.iter().zip(&exact).enumerate() {
                assert!(
                    encloses(e, x),
                    "f=({f1},{f2}) h={h} d={}: {} not in [{:e}, {:e}]",
                    d + 1,
                    x.to_f64().unwrap(),
                    e.lower(),
                    e.upper()
                );
                // Relative accuracy even where 1 - D is below 1e-16.
                if !x.is_zero() {
                    assert!(e.upper() <= e.lower() * (1.0 + 1e-9), "d = {}", d + 1);
                }
            }
        }
    }

    /// Whether `lower <= x <= upper` for an exact rational `x`.
    fn brackets(b: &Bracket, x: &BigRational) -> bool {
        let lower = BigRational::from_float(b.lower).unwrap();
        let upper = BigRational::from_float(b.upper).unwrap();
        lower <= *x && *x <= upper
    }

    #[test]
    fn coarse_brackets_contain_the_exact_complements() {
        // Every depth at every resolution, from heavily merged (bits = 1: 3 psi values a
        // height) to not merged at all (bits = 10), against exact rationals.
        for (f1, f2, h) in [
            ("0.1", "0.1", 10),
            ("0.99", "0.99", 10),
            ("0.3", "0.8", 9),
            ("0.999", "0.95", 10),
            ("0.75", "0.75", 11),
            ("1/3", "0", 8),
        ] {
            let exact = exact_complement(f1, f2, h);
            for bits in [1, 2, 3, 5, 7, 10] {
                let mut solver = CoarseComplement::new(&q(f1), &q(f2), bits).unwrap();
                for (d, x) in (1..=h).zip(&exact) {
                    let b = solver.wrong_decision(d, h).unwrap();
                    assert!(
                        brackets(&b, x),
                        "f=({f1},{f2}) h={h} bits={bits} d={d}: {} not in [{:e}, {:e}]",
                        x.to_f64().unwrap(),
                        b.lower,
                        b.upper
                    );
                    // Unmerged fronts give the fine enclosure itself.
                    if h - d <= bits {
                        let fine = ComplementSolver::new(&q(f1), &q(f2))
                            .unwrap()
                            .wrong_decision(d, h)
                            .unwrap();
                        assert_eq!(b, Bracket::from(fine));
                    }
                }
            }
        }
    }

    #[test]
    fn coarse_brackets_narrow_with_the_resolution() {
        // At f = 0.75, h = 12, depth 1 (front at height 11, 2049 psi values): the width
        // shrinks as more values are kept, and every bracket contains the exact value.
        let exact = exact_complement("0.75", "0.75", 12);
        let mut widths = Vec::new();
        for bits in [4, 6, 8, 11] {
            let mut solver = CoarseComplement::new(&q("0.75"), &q("0.75"), bits).unwrap();
            let b = solver.wrong_decision(1, 12).unwrap();
            assert!(brackets(&b, &exact[0]));
            widths.push(b.upper - b.lower);
        }
        assert!(widths.windows(2).all(|w| w[1] < w[0]), "{widths:?}");
        // Unmerged (bits = 11): the fine enclosure, relative width below 1e-9.
        assert!(widths[3] < 1e-9 * exact[0].to_f64().unwrap(), "{widths:?}");
    }

    #[test]
    fn coarse_merging_keeps_the_lattice_aligned() {
        let p = Bounded {
            values: vec![0.1, 0.2, 0.3, 0.25, 0.15],
            slack: Slack::EXACT,
        };
        // floor: {0,1} -> 0, {2,3} -> 1, {4} -> 2; ceil: {0} -> 0, {1,2} -> 1, {3,4} -> 2.
        let down = coarsen(&p, false);
        let up = coarsen(&p, true);
        assert_eq!(down.values.len(), 3);
        assert!((down.values[0] - 0.3).abs() < 1e-16 && (down.values[2] - 0.15).abs() < 1e-16);
        assert!((up.values[0] - 0.1).abs() < 1e-16 && (up.values[2] - 0.4).abs() < 1e-16);
        assert!(down.slack.relative > 0.0 && down.slack.relative < 2e-16);
    }

    #[test]
    fn a_wrong_exact_value_falls_outside() {
        // The enclosure is tight enough to exclude the exact value at swapped factors.
        let exact = exact_complement("0.6", "0.9", 8);
        let column = ComplementSolver::new(&q("0.9"), &q("0.6"))
            .unwrap()
            .wrong_decision_column(8)
            .unwrap();
        assert!(!encloses(&column[0], &exact[0]));
    }

    #[test]
    fn weights_record_their_exact_rounding() {
        let w = Weight::from_rational(&q("0.1"));
        assert!(w.slack.relative > 0.0 && w.slack.relative < 1.2e-16);
        let half = Weight::from_rational(&q("1/2"));
        assert_eq!(half.slack.relative, 0.0);
        assert_eq!(Weight::from_rational(&q("0")).value, 0.0);
    }

    #[test]
    fn a_factor_below_the_smallest_double_gives_an_unbounded_but_valid_enclosure() {
        let tiny = BigRational::new(1.into(), num_traits::pow(BigInt::from(10), 400));
        let w = Weight::from_rational(&tiny);
        // Rounded to 0: relative error 1, rounded up.
        assert_eq!(w.value, 0.0);
        assert!(w.slack.relative >= 1.0 && w.slack.relative < 1.0 + 1e-15);
        let e = ComplementSolver::new(&tiny, &tiny)
            .unwrap()
            .wrong_decision(1, 6)
            .unwrap();
        assert_eq!(e.upper(), f64::INFINITY);
        assert!(e.lower() >= 0.0);
    }

    #[test]
    fn refuses_fronts_beyond_a_minute() {
        let f = q("0.9");
        let mut solver = ComplementSolver::new(&f, &f).unwrap();
        assert!(matches!(
            solver.wrong_decision(1, 24),
            Err(Error::TooExpensive { .. })
        ));
        assert!(solver.wrong_decision(0, 5).is_err());
    }
}
