//! Nau's G-games, **as we reconstruct them**, exactly: the true value of every position, the
//! probability `D(d,k)` that a depth-d minimax search decides correctly at the root, and the
//! rate of heuristic flaw `rhf(d)` (Chi & Nau 1987, Section 2) of the evaluators below.
//!
//! **The game (a reconstruction).** Chi & Nau (1987, Section 4.1) cite Nau's G-games (Nau
//! 1983, "On game graph structure and its influence on pathology") without defining them; we
//! did not have Nau's paper, and our searches for a public description found none. The game
//! here is the one the project's specification describes, and every choice beyond it is ours: a row of `k + 1`
//! squares, each independently a 1 with probability `p`; the players alternately remove one
//! square from either end of the row; when one square is left (after `k` moves) its value
//! decides the game. Positions are intervals of the row, so different move orders reach the
//! same position: the game graph has `(k + 1)(k + 2)/2` nodes where the game tree has
//! `2^(k+1) - 1`. Conventions ([`crate::model`]): a position with `t` moves left has height
//! `t`, Max moves at odd heights (Max makes the last move), a 1-square is a win for Max; at the
//! root (height k) Max moves first when k is odd. Move 0 removes the leftmost square, move 1
//! the rightmost, so the root's children are the intervals `[1, k]` and `[0, k - 1]`.
//!
//! **True values** ([`true_value`]). By induction on the height, the value of an interval
//! depends only on its central squares: with an even number of squares (Max to move) Max wins
//! iff one of the two central squares is a 1; with an odd number `>= 3` (Min to move) iff the
//! central square is a 1 or both its neighbours are. (Max at height 1 keeps the better of
//! two squares; Min at height 2 gets `min(max(a, b), max(b, c)) = max(b, min(a, c))`; one
//! level up `max` of two such overlapping values is `max` of the two central squares, and so
//! on: min and max distribute over each other.) [`crate::games::ggame`]'s solver computes the
//! same values by backward induction over the interval lattice (tested equal).
//!
//! **Searches collapse.** The same lattice identity holds for backed-up values: a minimax
//! search of `l` plies from an interval, whatever the frontier values `f_0 .. f_l` of the
//! `l + 1` frontier intervals (left to right), returns `T(f_m, f_(m+1))` for odd `l` (`m =
//! (l - 1)/2`, `T` the op of the player to move) and `T'(f_m, T(f_(m-1), f_(m+1)))` for even
//! `l >= 2` (`m = l/2`, `T'` the other op) ([`backed_up`]). So a search's decision depends on
//! at most four frontier intervals, and the true values on at most four squares.
//!
//! **Evaluators** ([`GEvaluator`]), all from Max's side, exact on single squares. Only `e1`
//! is named by the paper (our reading: the fraction of 1-squares); Chi & Nau's `e3` is not
//! defined anywhere we could read, so we do **not** reconstruct it. Instead we define evaluators
//! of clearly different strength, named by what they do, to test the paper's claim in its
//! general form (the evaluator with the lower rhf favours minimax against product):
//!
//! - `e1`: the fraction of 1-squares of the interval.
//! - `e1-forced`: `e1`, except 1 when every central square (two or three) is a 1 and 0 when
//!   every one is a 0, both forced outcomes (as Chi & Nau's e2 adds forced-outcome detection
//!   to the P-games' e1).
//! - `half`: the fraction of 1-squares in the central half of the interval (`L - 2 floor(L/4)`
//!   squares of `L`, centred).
//! - `centre`: the fraction of 1-squares among the central two (even `L`) or three (odd `L`)
//!   squares, the squares the true value depends on.
//!
//! **D(d,k)** is the probability that a depth-d minimax search at the root moves to a winning
//! child, given that the root is **non-trivial** (its two children have different values),
//! ties between the children's backed-up values broken uniformly at random (counted 1/2): the
//! conventions of [`crate::analytic::families`]. **rhf(d)**: two distinct positions drawn
//! uniformly from the `d + 1` intervals at depth d (the game graph's nodes, each counted once
//! however many move orders reach it), on a random board; a flaw is `u(better) < u(worse)`
//! (ties in e broken by a fair coin, counted 1/2).
//!
//! **Two exact methods**, both in exact rationals of `p` (every quantity is a polynomial in
//! `p` with integer coefficients, [`Polynomial`]):
//!
//! - *Enumeration* ([`enumerate`]): every board of `k + 1` squares, true values by backward
//!   induction over the lattice, every search by backing up the frontier level by level (no
//!   use of the collapse). `2^(k+1)` boards, `O(k^3)` each: k = 16 in about a second, k = 20
//!   in about half a minute on one core; [`MAX_ENUMERATED_MOVES`] = 20.
//! - *Lattice* ([`decision_polynomials`], [`flaw_polynomials`]): uses the two collapses. The
//!   outcome of a decision (or of a pair of nodes) depends on a few interval counts and a few
//!   single squares; the squares are grouped by which of those intervals contain them, the
//!   groups' counts enumerated with binomial weights. Polynomial in k: `D(d,k)` for every d
//!   up to k = [`MAX_MOVES`] = 120 in well under a second (on a loaded 2-core machine: all
//!   depths of all four evaluators in 25 ms at k = 16); rhf costs about `k^6` operations
//!   ([`flaw_seconds`]: 5 s per evaluator at k = 40), so it is refused up front past about a
//!   minute (k of about 48 for one evaluator). The tests check it against enumeration for every
//!   k <= 10, every depth and evaluator, exactly.
//!
//! **f64.** Every value is a ratio of polynomials with non-negative terms, so evaluating them
//! in `f64` has a rigorous relative error bound ([`Polynomial::value_f64_bounded`]); the
//! `f64` mode of [`report`] prints each value with it and the tests check it against the
//! exact rationals.

pub mod report;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::model::Player;

/// The most moves `k` (a row of `k + 1 <= 121` squares) of the lattice method: every
/// polynomial's coefficients then fit in 128 bits.
pub const MAX_MOVES: u32 = 120;

/// Seconds of one evaluator's exact rhf at k = 40 (all depths), measured on the project's
/// loaded 2-core machine; [`flaw_seconds`] scales it by `k^6`.
const FLAW_SECONDS_AT_40: f64 = 5.0;

/// The estimated seconds of [`flaw_polynomials`] for one evaluator at `moves` moves: the
/// `O(d^2)` pairs of each depth, each enumerating up to three blocks of squares (`O(k^3)`),
/// so about `k^6` in all, scaled from a measurement at k = 40.
///
/// # Examples
///
/// ```
/// use pathology::analytic::ggame::flaw_seconds;
/// assert!(flaw_seconds(16) < 0.1);
/// assert!(flaw_seconds(70) > 60.0);
/// ```
pub fn flaw_seconds(moves: u32) -> f64 {
    FLAW_SECONDS_AT_40 * (f64::from(moves) / 40.0).powi(6)
}

/// Refuses rhf of `evaluators` evaluators at `moves` moves past the analytic time limit.
///
/// # Errors
///
/// [`Error::TooExpensive`] with the estimate.
pub fn check_flaw_cost(moves: u32, evaluators: usize) -> Result<()> {
    crate::budget::check_seconds(
        || format!("exact rhf(d) of {evaluators} G-game evaluator(s) at k = {moves}"),
        evaluators as f64 * flaw_seconds(moves),
        crate::budget::ANALYTIC_TIME_LIMIT_SECONDS,
        "about ",
        "Ask for a smaller --height (rhf costs about k^6), or leave out --rhf.",
    )
}

/// `gamma_n = n u / (1 - n u)` with `u = 2^-53` (Higham's bound on `n` roundings).
fn gamma(n: usize) -> f64 {
    let nu = n as f64 * f64::EPSILON / 2.0;
    nu / (1.0 - nu)
}

/// `sum_m c_m p^m (1 - p)^(n - m)` in `f64` from the terms' `f64` coefficients, powers by
/// repeated multiplication, with a bound on its relative error: each term carries at most
/// `2n + 3` roundings (`1 - p`, the powers, the coefficient, two products) and the sum of
/// `n + 1` non-negative terms `n` more, so the relative error is at most `gamma(3n + 3)`.
fn bounded_sum(coefficients: impl Iterator<Item = f64>, n: usize, p: f64) -> (f64, f64) {
    let q = 1.0 - p;
    let mut q_powers = vec![1.0; n + 1];
    for j in 1..=n {
        q_powers[j] = q_powers[j - 1] * q;
    }
    let mut p_power = 1.0;
    let mut total = 0.0;
    for (m, c) in coefficients.enumerate() {
        if c != 0.0 {
            total += c * p_power * q_powers[n - m];
        }
        p_power *= p;
    }
    (total, gamma(3 * n + 3))
}

/// A ratio of two [`bounded_sum`]s with its absolute error bound: the relative errors of the
/// two sums and the division add up (to first order; the factor `1 + 1e-6` covers the rest).
fn bounded_ratio(numerator: (f64, f64), denominator: (f64, f64)) -> (f64, f64) {
    let value = numerator.0 / denominator.0;
    let relative = numerator.1 + denominator.1 + f64::EPSILON / 2.0;
    (value, value * relative * (1.0 + 1e-6))
}

/// The most moves of the enumeration method (`2^(k+1)` boards).
pub const MAX_ENUMERATED_MOVES: u32 = 20;

/// The static evaluators of G-games (module docs): all from Max's side, in [0, 1], exact on a
/// single square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum GEvaluator {
    /// e1: the fraction of 1-squares of the row left.
    E1,
    /// e1, but 1 (0) when the central squares are all 1 (all 0): forced outcomes detected.
    E1Forced,
    /// The fraction of 1-squares in the central half of the row left.
    Half,
    /// The fraction of 1-squares among the central two or three squares.
    Centre,
}

/// Every evaluator, from the weakest by design to the strongest.
pub const ALL_EVALUATORS: [GEvaluator; 4] = [
    GEvaluator::E1,
    GEvaluator::E1Forced,
    GEvaluator::Half,
    GEvaluator::Centre,
];

/// The central squares of the interval `[lo, hi]`: the square itself, the two central ones
/// (even length) or the central one and its neighbours (odd length `>= 3`).
///
/// # Examples
///
/// ```
/// use pathology::analytic::ggame::centre_squares;
/// assert_eq!(centre_squares(4, 4), 4..=4);
/// assert_eq!(centre_squares(0, 5), 2..=3);
/// assert_eq!(centre_squares(1, 7), 3..=5);
/// ```
pub fn centre_squares(lo: usize, hi: usize) -> std::ops::RangeInclusive<usize> {
    let len = hi - lo + 1;
    match len {
        1 => lo..=lo,
        _ if len.is_multiple_of(2) => lo + len / 2 - 1..=lo + len / 2,
        _ => lo + len / 2 - 1..=lo + len / 2 + 1,
    }
}

/// The true value (a win for Max) of the interval `[lo, hi]` of a row whose square `x` is
/// `square(x)`, by the closed form of the module docs.
///
/// # Examples
///
/// ```
/// use pathology::analytic::ggame::true_value;
/// let row = [true, false, false, true, false];
/// let square = |x: usize| row[x];
/// assert!(true_value(&square, 0, 1)); // Max keeps the 1
/// assert!(!true_value(&square, 0, 2)); // Min: the centre is 0 and a neighbour is 0
/// assert!(!true_value(&square, 1, 2));
/// assert!(true_value(&square, 2, 4)); // Min to move, but the central square is a 1
/// assert!(!true_value(&square, 0, 3)); // Max to move, both central squares are 0
/// ```
pub fn true_value(square: &dyn Fn(usize) -> bool, lo: usize, hi: usize) -> bool {
    let len = hi - lo + 1;
    if len == 1 {
        square(lo)
    } else if len.is_multiple_of(2) {
        square(lo + len / 2 - 1) || square(lo + len / 2)
    } else {
        let c = lo + len / 2;
        square(c) || (square(c - 1) && square(c + 1))
    }
}

impl GEvaluator {
    /// The name as `--evaluator` spells it.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::ggame::GEvaluator;
    /// assert_eq!(GEvaluator::E1Forced.name(), "e1-forced");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            GEvaluator::E1 => "e1",
            GEvaluator::E1Forced => "e1-forced",
            GEvaluator::Half => "half",
            GEvaluator::Centre => "centre",
        }
    }

    /// The squares whose 1s the evaluator counts, for the interval `[lo, hi]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::ggame::GEvaluator;
    /// assert_eq!(GEvaluator::E1.window(0, 9), (0, 9));
    /// assert_eq!(GEvaluator::Half.window(0, 9), (2, 7)); // 6 of 10
    /// assert_eq!(GEvaluator::Centre.window(0, 9), (4, 5));
    /// ```
    pub fn window(self, lo: usize, hi: usize) -> (usize, usize) {
        let len = hi - lo + 1;
        match self {
            GEvaluator::E1 | GEvaluator::E1Forced => (lo, hi),
            GEvaluator::Half => (lo + len / 4, hi - len / 4),
            GEvaluator::Centre => {
                let c = centre_squares(lo, hi);
                (*c.start(), *c.end())
            }
        }
    }

    /// The value from the window's count of 1-squares and, for `e1-forced`, whether the
    /// central squares are all 1 (`Some(true)`), all 0 (`Some(false)`) or mixed (`None`).
    fn value_from(self, ones: u32, width: usize, uniform_centre: Option<bool>) -> f64 {
        match (self, uniform_centre) {
            (GEvaluator::E1Forced, Some(true)) => 1.0,
            (GEvaluator::E1Forced, Some(false)) => 0.0,
            _ => f64::from(ones) / width as f64,
        }
    }

    /// The evaluation of the interval `[lo, hi]` of a row whose square `x` is `square(x)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::ggame::GEvaluator;
    /// let row = [true, true, false, false, true, true];
    /// let square = |x: usize| row[x];
    /// assert_eq!(GEvaluator::E1.evaluate(&square, 0, 5), 4.0 / 6.0);
    /// assert_eq!(GEvaluator::E1Forced.evaluate(&square, 0, 5), 0.0); // centre 0, 0: lost
    /// assert_eq!(GEvaluator::Centre.evaluate(&square, 0, 3), 0.5);
    /// assert_eq!(GEvaluator::Half.evaluate(&square, 0, 4), 1.0 / 3.0); // squares 1..=3
    /// ```
    pub fn evaluate(self, square: &dyn Fn(usize) -> bool, lo: usize, hi: usize) -> f64 {
        let (a, b) = self.window(lo, hi);
        let ones = (a..=b).filter(|&x| square(x)).count() as u32;
        let uniform = if self == GEvaluator::E1Forced {
            let c = centre_squares(lo, hi);
            let first = square(*c.start());
            c.clone().all(|x| square(x) == first).then_some(first)
        } else {
            None
        };
        self.value_from(ones, b - a + 1, uniform)
    }
}

/// The value a minimax search of `values.len() - 1` plies returns at a node where `top` is
/// to move, from the values of its frontier intervals left to right (the collapse of the
/// module docs).
///
/// # Examples
///
/// ```
/// use pathology::analytic::ggame::backed_up;
/// use pathology::model::Player;
/// assert_eq!(backed_up(&[0.3], Player::Max), 0.3);
/// assert_eq!(backed_up(&[0.3, 0.7], Player::Min), 0.3);
/// // Min over Max: min(max(a, b), max(b, c)) = max(b, min(a, c)).
/// assert_eq!(backed_up(&[0.9, 0.2, 0.5], Player::Min), 0.5);
/// // Three plies: only the two central frontier values count.
/// assert_eq!(backed_up(&[1.0, 0.1, 0.4, 1.0], Player::Max), 0.4);
/// ```
pub fn backed_up(values: &[f64], top: Player) -> f64 {
    let plies = values.len() - 1;
    collapse(&values[read_offsets(plies)], top)
}

/// [`backed_up`] from the frontier values it reads ([`read_offsets`]): one, two or three.
fn collapse(read: &[f64], top: Player) -> f64 {
    type Op = fn(f64, f64) -> f64;
    let (t, other): (Op, Op) = match top {
        Player::Max => (f64::max, f64::min),
        Player::Min => (f64::min, f64::max),
    };
    match *read {
        [only] => only,
        [a, b] => t(a, b),
        [a, b, c] => other(b, t(a, c)),
        _ => unreachable!("a search reads one, two or three frontier values"),
    }
}

/// The frontier offsets [`backed_up`] reads for a search of `plies` plies.
fn read_offsets(plies: usize) -> std::ops::RangeInclusive<usize> {
    match plies {
        0 => 0..=0,
        _ if plies % 2 == 1 => (plies - 1) / 2..=plies.div_ceil(2),
        _ => plies / 2 - 1..=plies / 2 + 1,
    }
}

/// Binomial coefficients `C(n, r)` for `n <= 121`, in 128 bits.
fn binomials() -> Vec<Vec<u128>> {
    let n = MAX_MOVES as usize + 1;
    let mut rows = vec![vec![1u128]];
    for i in 1..=n {
        let prev = &rows[i - 1];
        let mut row = vec![1u128; i + 1];
        for r in 1..i {
            row[r] = prev[r - 1] + prev[r];
        }
        rows.push(row);
    }
    rows
}

/// A polynomial in `p` written as `sum_m c_m p^m (1 - p)^(n - m)` with whole `c_m`: the
/// probability of an event over `n` independent squares, `c_m` counting the boards with `m`
/// 1-squares on which it happens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Polynomial {
    /// The number of squares `n`.
    pub squares: usize,
    /// `c_0 ..= c_n`.
    pub coefficients: Vec<u128>,
}

impl Polynomial {
    fn zero(squares: usize) -> Self {
        Polynomial {
            squares,
            coefficients: vec![0; squares + 1],
        }
    }

    /// The value at `p`, exactly.
    ///
    /// # Examples
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use pathology::analytic::ggame::Polynomial;
    /// // Two squares, at least one a 1: c = (0, 2, 1).
    /// let poly = Polynomial { squares: 2, coefficients: vec![0, 2, 1] };
    /// let half = BigRational::new(1.into(), 2.into());
    /// assert_eq!(poly.value(&half), BigRational::new(3.into(), 4.into()));
    /// ```
    pub fn value(&self, p: &BigRational) -> BigRational {
        let (a, b) = (p.numer().clone(), p.denom().clone());
        let q = &b - &a;
        let mut total = BigInt::zero();
        let mut a_power = BigInt::one();
        for (m, &c) in self.coefficients.iter().enumerate() {
            if c != 0 {
                let q_power = num_traits::pow(q.clone(), self.squares - m);
                total += BigInt::from(c) * &a_power * q_power;
            }
            a_power *= &a;
        }
        BigRational::new(total, num_traits::pow(b, self.squares))
    }

    /// The value at `p` in `f64`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::ggame::Polynomial;
    /// let poly = Polynomial { squares: 2, coefficients: vec![0, 2, 1] };
    /// assert!((poly.value_f64(0.5) - 0.75).abs() < 1e-15);
    /// ```
    pub fn value_f64(&self, p: f64) -> f64 {
        self.coefficients
            .iter()
            .enumerate()
            .map(|(m, &c)| c as f64 * p.powi(m as i32) * (1.0 - p).powi((self.squares - m) as i32))
            .sum()
    }

    /// The value at `p` in `f64` with a bound on its relative error (module docs, **f64**).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::ggame::Polynomial;
    /// let poly = Polynomial { squares: 2, coefficients: vec![0, 2, 1] };
    /// let (value, relative) = poly.value_f64_bounded(0.3);
    /// assert!((value - 0.51).abs() <= 0.51 * relative);
    /// assert!(relative < 1e-15);
    /// ```
    pub fn value_f64_bounded(&self, p: f64) -> (f64, f64) {
        bounded_sum(self.coefficients.iter().map(|&c| c as f64), self.squares, p)
    }

    /// The same probability written over `n >= squares` squares (the others summed out).
    fn extended(&self, n: usize, binomials: &[Vec<u128>]) -> Vec<BigInt> {
        let extra = n - self.squares;
        let mut out = vec![BigInt::zero(); n + 1];
        for (m, &c) in self.coefficients.iter().enumerate() {
            if c == 0 {
                continue;
            }
            for (j, &binomial) in binomials[extra].iter().enumerate() {
                out[m + j] += BigInt::from(c) * BigInt::from(binomial);
            }
        }
        out
    }
}

/// The events a decision or a pair of nodes depends on: a few intervals' counts of 1-squares
/// and a few single squares.
#[derive(Debug, Default)]
struct Features {
    windows: Vec<(usize, usize)>,
    specials: Vec<usize>,
}

impl Features {
    fn window(&mut self, lo: usize, hi: usize) -> usize {
        if let Some(i) = self.windows.iter().position(|&w| w == (lo, hi)) {
            return i;
        }
        self.windows.push((lo, hi));
        self.windows.len() - 1
    }

    fn special(&mut self, square: usize) -> usize {
        if let Some(i) = self.specials.iter().position(|&s| s == square) {
            return i;
        }
        self.specials.push(square);
        self.specials.len() - 1
    }

    /// Enumerates every joint value of the windows' counts and the special squares over a row
    /// of `squares` squares, calling `outcome(counts, bits)`, and returns one polynomial per
    /// outcome `0..outcomes` over the squares that matter.
    fn enumerate(
        &self,
        squares: usize,
        outcomes: usize,
        binomials: &[Vec<u128>],
        outcome: &mut dyn FnMut(&[u32], &[bool]) -> usize,
    ) -> Vec<Polynomial> {
        let mask_of = |x: usize| -> u64 {
            self.windows
                .iter()
                .enumerate()
                .filter(|(_, w)| w.0 <= x && x <= w.1)
                .fold(0, |m, (i, _)| m | 1 << i)
        };
        let mut blocks: Vec<(u64, usize)> = Vec::new();
        for x in (0..squares).filter(|x| !self.specials.contains(x)) {
            let mask = mask_of(x);
            if mask == 0 {
                continue;
            }
            match blocks.iter_mut().find(|b| b.0 == mask) {
                Some(b) => b.1 += 1,
                None => blocks.push((mask, 1)),
            }
        }
        let special_masks: Vec<u64> = self.specials.iter().map(|&x| mask_of(x)).collect();
        let n = blocks.iter().map(|b| b.1).sum::<usize>() + self.specials.len();
        let mut polys = vec![Polynomial::zero(n); outcomes];
        let mut counts = vec![0u32; self.windows.len()];
        let mut bits = vec![false; self.specials.len()];
        #[allow(clippy::too_many_arguments)]
        fn walk(
            level: usize,
            blocks: &[(u64, usize)],
            special_masks: &[u64],
            binomials: &[Vec<u128>],
            counts: &mut Vec<u32>,
            bits: &mut Vec<bool>,
            ones: usize,
            weight: u128,
            polys: &mut [Polynomial],
            outcome: &mut dyn FnMut(&[u32], &[bool]) -> usize,
        ) {
            if level < blocks.len() {
                let (mask, size) = blocks[level];
                for c in 0..=size {
                    add(counts, mask, c as i64);
                    walk(
                        level + 1,
                        blocks,
                        special_masks,
                        binomials,
                        counts,
                        bits,
                        ones + c,
                        weight * binomials[size][c],
                        polys,
                        outcome,
                    );
                    add(counts, mask, -(c as i64));
                }
                return;
            }
            for pattern in 0u64..1 << special_masks.len() {
                let mut set = 0;
                for (i, &mask) in special_masks.iter().enumerate() {
                    bits[i] = pattern >> i & 1 == 1;
                    if bits[i] {
                        add(counts, mask, 1);
                        set += 1;
                    }
                }
                let o = outcome(counts, bits);
                polys[o].coefficients[ones + set] += weight;
                for (i, &mask) in special_masks.iter().enumerate() {
                    if bits[i] {
                        add(counts, mask, -1);
                    }
                }
            }
        }
        fn add(counts: &mut [u32], mask: u64, by: i64) {
            for (i, c) in counts.iter_mut().enumerate() {
                if mask >> i & 1 == 1 {
                    *c = (i64::from(*c) + by) as u32;
                }
            }
        }
        walk(
            0,
            &blocks,
            &special_masks,
            binomials,
            &mut counts,
            &mut bits,
            0,
            1,
            &mut polys,
            outcome,
        );
        polys
    }
}

/// How one node's evaluation and true value are read from [`Features`].
#[derive(Debug, Clone)]
struct NodeFeatures {
    evaluator: GEvaluator,
    window: usize,
    width: usize,
    centre: Vec<usize>,
}

impl NodeFeatures {
    /// Only the central squares of `[lo, hi]`: enough for its true value ([`Self::wins`]).
    fn centre_only(features: &mut Features, lo: usize, hi: usize) -> Self {
        NodeFeatures {
            evaluator: GEvaluator::Centre,
            window: usize::MAX,
            width: 0,
            centre: centre_squares(lo, hi)
                .map(|x| features.special(x))
                .collect(),
        }
    }

    fn new(features: &mut Features, evaluator: GEvaluator, lo: usize, hi: usize) -> Self {
        let (a, b) = evaluator.window(lo, hi);
        NodeFeatures {
            evaluator,
            window: features.window(a, b),
            width: b - a + 1,
            centre: centre_squares(lo, hi)
                .map(|x| features.special(x))
                .collect(),
        }
    }

    fn value(&self, counts: &[u32], bits: &[bool]) -> f64 {
        let uniform = if self.evaluator == GEvaluator::E1Forced {
            let first = bits[self.centre[0]];
            self.centre
                .iter()
                .all(|&i| bits[i] == first)
                .then_some(first)
        } else {
            None
        };
        self.evaluator
            .value_from(counts[self.window], self.width, uniform)
    }

    fn wins(&self, bits: &[bool]) -> bool {
        let b = |i: usize| bits[self.centre[i]];
        match self.centre.len() {
            1 => b(0),
            2 => b(0) || b(1),
            _ => b(1) || (b(0) && b(2)),
        }
    }
}

fn check_moves(moves: u32, most: u32) -> Result<()> {
    if !(1..=most).contains(&moves) {
        return Err(Error::invalid(
            "--height",
            &format!("in 1..={most} (moves of the G-game; the row has one square more)"),
            moves,
        ));
    }
    Ok(())
}

fn check_depth(depth: u32, moves: u32) -> Result<()> {
    if !(1..=moves).contains(&depth) {
        return Err(Error::invalid(
            "--depth",
            &format!("in 1..={moves} (the game's height)"),
            depth,
        ));
    }
    Ok(())
}

/// The outcome classes of a root decision.
const TRIVIAL: usize = 0;
const CORRECT: usize = 1;
const WRONG: usize = 2;
const TIED: usize = 3;

/// The four outcome classes of a depth-d decision at the root of a G-game of `moves` moves,
/// as polynomials in `p`: trivial root, correct, wrong, tied (module docs).
fn decision_classes(
    moves: u32,
    depth: u32,
    evaluator: GEvaluator,
    binomials: &[Vec<u128>],
) -> Vec<Polynomial> {
    let k = moves as usize;
    let d = depth as usize;
    let frontier_len = k + 1 - d;
    let plies = d - 1;
    let mut features = Features::default();
    let child = |features: &mut Features, base: usize| {
        read_offsets(plies)
            .map(|o| {
                let lo = base + o;
                NodeFeatures::new(features, evaluator, lo, lo + frontier_len - 1)
            })
            .collect::<Vec<_>>()
    };
    // Move 0 removes the leftmost square: child [1, k]; move 1 the rightmost: [0, k - 1].
    let left_removed = child(&mut features, 1);
    let right_removed = child(&mut features, 0);
    let truth = [
        NodeFeatures::centre_only(&mut features, 1, k),
        NodeFeatures::centre_only(&mut features, 0, k - 1),
    ];
    let root = Player::to_move_at_height(moves);
    let child_mover = root.opponent();
    features.enumerate(k + 1, 4, binomials, &mut |counts, bits| {
        let wins = [truth[0].wins(bits), truth[1].wins(bits)];
        if wins[0] == wins[1] {
            return TRIVIAL;
        }
        let value = |nodes: &[NodeFeatures]| {
            let mut read = [0.0; 3];
            for (slot, node) in read.iter_mut().zip(nodes) {
                *slot = node.value(counts, bits);
            }
            collapse(&read[..nodes.len()], child_mover)
        };
        let values = [value(&left_removed), value(&right_removed)];
        if values[0] == values[1] {
            return TIED;
        }
        let prefers_first = (values[0] > values[1]) == (root == Player::Max);
        let good_first = wins[0] == (root == Player::Max);
        if prefers_first == good_first {
            CORRECT
        } else {
            WRONG
        }
    })
}

/// `D(d,k)` as a ratio of polynomials in `p`: `numerator / denominator` with `numerator =
/// 2 Pr[correct] + Pr[tied]` and `denominator = 2 Pr[non-trivial]` over the same squares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DecisionPolynomials {
    /// `2 correct + tied`.
    pub numerator: Polynomial,
    /// `2 (correct + wrong + tied)`.
    pub denominator: Polynomial,
}

impl DecisionPolynomials {
    fn from_classes(classes: &[Polynomial]) -> Self {
        let n = classes[0].squares;
        let mut numerator = Polynomial::zero(n);
        let mut denominator = Polynomial::zero(n);
        for m in 0..=n {
            let (c, w, t) = (
                classes[CORRECT].coefficients[m],
                classes[WRONG].coefficients[m],
                classes[TIED].coefficients[m],
            );
            numerator.coefficients[m] = 2 * c + t;
            denominator.coefficients[m] = 2 * (c + w + t);
        }
        DecisionPolynomials {
            numerator,
            denominator,
        }
    }

    /// `D(d,k)` at `p`; `None` when no root is non-trivial (p = 0 or 1).
    ///
    /// # Examples
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use pathology::analytic::ggame::{GEvaluator, decision_polynomials};
    /// // A full-depth search reaches the squares: always correct.
    /// let d = decision_polynomials(5, 5, GEvaluator::E1).unwrap();
    /// let half = BigRational::new(1.into(), 2.into());
    /// assert_eq!(d.value(&half), Some(BigRational::new(1.into(), 1.into())));
    /// ```
    pub fn value(&self, p: &BigRational) -> Option<BigRational> {
        let z = self.denominator.value(p);
        (!z.is_zero()).then(|| self.numerator.value(p) / z)
    }

    /// `D(d,k)` at `p` in `f64` (NaN when no root is non-trivial).
    pub fn value_f64(&self, p: f64) -> f64 {
        self.numerator.value_f64(p) / self.denominator.value_f64(p)
    }

    /// `D(d,k)` at `p` in `f64` with an absolute error bound (module docs, **f64**); `None`
    /// when no root is non-trivial.
    ///
    /// # Examples
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use pathology::analytic::ggame::{GEvaluator, decision_polynomials};
    /// let d = decision_polynomials(9, 2, GEvaluator::E1Forced).unwrap();
    /// let (value, bound) = d.value_f64_bounded(0.3).unwrap();
    /// let exact = d.value(&BigRational::from_float(0.3).unwrap()).unwrap();
    /// let exact: f64 = num_traits::ToPrimitive::to_f64(&exact).unwrap();
    /// assert!((value - exact).abs() <= bound + exact * f64::EPSILON);
    /// ```
    pub fn value_f64_bounded(&self, p: f64) -> Option<(f64, f64)> {
        let denominator = self.denominator.value_f64_bounded(p);
        (denominator.0 > 0.0)
            .then(|| bounded_ratio(self.numerator.value_f64_bounded(p), denominator))
    }

    /// The probability that the root is non-trivial (its children have different values).
    pub fn nontrivial(&self) -> Polynomial {
        Polynomial {
            squares: self.denominator.squares,
            coefficients: self
                .denominator
                .coefficients
                .iter()
                .map(|c| c / 2)
                .collect(),
        }
    }
}

/// `D(d,k)` of a depth-`depth` minimax search with `evaluator` at the root of a G-game of
/// `moves` moves, by the lattice method, as polynomials in `p`.
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::analytic::ggame::{GEvaluator, decision_polynomials};
/// // k = 1: the root's children are the two squares; e1 is exact there.
/// let d = decision_polynomials(1, 1, GEvaluator::E1).unwrap();
/// assert_eq!(d.value_f64(0.3), 1.0);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--height` outside `1..=`[`MAX_MOVES`] or `--depth`
/// outside `1..=moves`.
pub fn decision_polynomials(
    moves: u32,
    depth: u32,
    evaluator: GEvaluator,
) -> Result<DecisionPolynomials> {
    check_moves(moves, MAX_MOVES)?;
    check_depth(depth, moves)?;
    let classes = decision_classes(moves, depth, evaluator, &binomials());
    Ok(DecisionPolynomials::from_classes(&classes))
}

/// `D(d,k)` for every depth `d = 1..=moves`, exactly, by the lattice method.
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::analytic::ggame::{GEvaluator, decision_column};
/// let half = BigRational::new(1.into(), 2.into());
/// let column = decision_column(8, GEvaluator::E1, &half).unwrap();
/// assert_eq!(column.len(), 8);
/// assert_eq!(column[7], Some(BigRational::new(1.into(), 1.into())));
/// ```
///
/// # Errors
///
/// As [`decision_polynomials`].
pub fn decision_column(
    moves: u32,
    evaluator: GEvaluator,
    p: &BigRational,
) -> Result<Vec<Option<BigRational>>> {
    check_moves(moves, MAX_MOVES)?;
    let binomials = binomials();
    Ok((1..=moves)
        .map(|d| {
            DecisionPolynomials::from_classes(&decision_classes(moves, d, evaluator, &binomials))
                .value(p)
        })
        .collect())
}

/// The outcome classes of a pair of nodes.
const NO_FLAW: usize = 0;
const FLAW: usize = 1;
const TIED_FLAW: usize = 2;

/// The flaw classes of the pair of distinct positions `a < b` at depth `depth`.
fn pair_classes(
    moves: u32,
    depth: u32,
    a: usize,
    b: usize,
    evaluator: GEvaluator,
    binomials: &[Vec<u128>],
) -> Vec<Polynomial> {
    let len = (moves - depth) as usize + 1;
    let mut features = Features::default();
    let nodes = [
        NodeFeatures::new(&mut features, evaluator, a, a + len - 1),
        NodeFeatures::new(&mut features, evaluator, b, b + len - 1),
    ];
    features.enumerate(moves as usize + 1, 3, binomials, &mut |counts, bits| {
        let e = [nodes[0].value(counts, bits), nodes[1].value(counts, bits)];
        let u = [nodes[0].wins(bits), nodes[1].wins(bits)];
        if u[0] == u[1] {
            NO_FLAW
        } else if e[0] == e[1] {
            TIED_FLAW
        } else if (e[0] > e[1]) == u[1] {
            // The better-looking node is the loss.
            FLAW
        } else {
            NO_FLAW
        }
    })
}

/// `rhf(d)` as a polynomial in `p` over all `k + 1` squares, times `2 C(d + 1, 2)`: the sum
/// over pairs of distinct positions at depth `d` of `2 Pr[flaw] + Pr[tie with different
/// values]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlawPolynomial {
    /// `sum_m c_m p^m (1 - p)^(k + 1 - m)` (coefficients may exceed 128 bits).
    pub coefficients: Vec<BigInt>,
    /// `2 C(d + 1, 2)`.
    pub scale: u64,
}

impl FlawPolynomial {
    /// `rhf(d)` at `p`, exactly.
    ///
    /// # Examples
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use pathology::analytic::ggame::{GEvaluator, flaw_polynomials};
    /// let rhf = flaw_polynomials(6, GEvaluator::Centre).unwrap();
    /// let half = BigRational::new(1.into(), 2.into());
    /// assert_eq!(rhf[5].value(&half), BigRational::new(0.into(), 1.into())); // depth 6: squares
    /// ```
    pub fn value(&self, p: &BigRational) -> BigRational {
        let n = self.coefficients.len() - 1;
        let (a, b) = (p.numer().clone(), p.denom().clone());
        let q = &b - &a;
        let mut total = BigInt::zero();
        let mut a_power = BigInt::one();
        for (m, c) in self.coefficients.iter().enumerate() {
            if !c.is_zero() {
                total += c * &a_power * num_traits::pow(q.clone(), n - m);
            }
            a_power *= &a;
        }
        BigRational::new(total, num_traits::pow(b, n) * BigInt::from(self.scale))
    }

    /// `rhf(d)` at `p` in `f64` with an absolute error bound (module docs, **f64**; the
    /// coefficients' conversion to `f64` is one more rounding, covered by the bound's slack).
    pub fn value_f64_bounded(&self, p: f64) -> (f64, f64) {
        let n = self.coefficients.len() - 1;
        let (sum, relative) = bounded_sum(
            self.coefficients
                .iter()
                .map(|c| num_traits::ToPrimitive::to_f64(c).unwrap_or(f64::NAN)),
            n,
            p,
        );
        let value = sum / self.scale as f64;
        (value, value * (relative + f64::EPSILON) * (1.0 + 1e-6))
    }

    /// `rhf(d)` at `p` in `f64`.
    pub fn value_f64(&self, p: f64) -> f64 {
        let n = self.coefficients.len() - 1;
        let sum: f64 = self
            .coefficients
            .iter()
            .enumerate()
            .map(|(m, c)| {
                num_traits::ToPrimitive::to_f64(c).unwrap_or(f64::NAN)
                    * p.powi(m as i32)
                    * (1.0 - p).powi((n - m) as i32)
            })
            .sum();
        sum / self.scale as f64
    }
}

/// `rhf(d)` of `evaluator` for every depth `d = 1..=moves` of a G-game of `moves` moves, by the
/// lattice method, as polynomials in `p`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::ggame::{GEvaluator, flaw_polynomials};
/// let e1 = flaw_polynomials(8, GEvaluator::E1).unwrap();
/// let centre = flaw_polynomials(8, GEvaluator::Centre).unwrap();
/// assert!(centre[0].value_f64(0.5) < e1[0].value_f64(0.5));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--height` outside `1..=`[`MAX_MOVES`];
/// [`Error::TooExpensive`] past about a minute ([`check_flaw_cost`]).
pub fn flaw_polynomials(moves: u32, evaluator: GEvaluator) -> Result<Vec<FlawPolynomial>> {
    check_moves(moves, MAX_MOVES)?;
    check_flaw_cost(moves, 1)?;
    let binomials = binomials();
    let n = moves as usize + 1;
    Ok((1..=moves)
        .map(|d| {
            let mut total = vec![BigInt::zero(); n + 1];
            for a in 0..=d as usize {
                for b in a + 1..=d as usize {
                    let classes = pair_classes(moves, d, a, b, evaluator, &binomials);
                    let flaw = classes[FLAW].extended(n, &binomials);
                    let tied = classes[TIED_FLAW].extended(n, &binomials);
                    for (m, t) in total.iter_mut().enumerate() {
                        *t += &flaw[m] * 2 + &tied[m];
                    }
                }
            }
            let pairs = u64::from(d) * u64::from(d + 1) / 2;
            FlawPolynomial {
                coefficients: total,
                scale: 2 * pairs,
            }
        })
        .collect())
}

/// The exact values of one evaluator by enumerating every board ([`enumerate`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enumerated {
    /// `D(d,k)` for `d = 1..=k`.
    pub decisions: Vec<DecisionPolynomials>,
    /// `rhf(d)` for `d = 1..=k`.
    pub flaws: Vec<FlawPolynomial>,
}

/// `D(d,k)` and `rhf(d)` of `evaluator` for every depth, by enumerating all `2^(k+1)` boards
/// of a G-game of `moves` moves (module docs: no use of the collapses).
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::analytic::ggame::{GEvaluator, decision_polynomials, enumerate};
/// let half = BigRational::new(1.into(), 2.into());
/// let all = enumerate(6, GEvaluator::E1).unwrap();
/// let lattice = decision_polynomials(6, 3, GEvaluator::E1).unwrap();
/// assert_eq!(all.decisions[2].value(&half), lattice.value(&half));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--height` outside `1..=`[`MAX_ENUMERATED_MOVES`].
pub fn enumerate(moves: u32, evaluator: GEvaluator) -> Result<Enumerated> {
    check_moves(moves, MAX_ENUMERATED_MOVES)?;
    let k = moves as usize;
    let n = k + 1;
    let mut decision = vec![[Polynomial::zero(n), Polynomial::zero(n)]; k];
    let mut flaws = vec![Polynomial::zero(n); k];
    let mut wins: Vec<Vec<bool>> = (0..=k).map(|t| vec![false; n - t]).collect();
    let mut level: Vec<f64> = Vec::with_capacity(n);
    let mut next: Vec<f64> = Vec::with_capacity(n);
    for board in 0u64..1 << n {
        let square = |x: usize| board >> x & 1 == 1;
        let ones = board.count_ones() as usize;
        // True values by backward induction over the lattice.
        for (i, w) in wins[0].iter_mut().enumerate() {
            *w = square(i);
        }
        for t in 1..=k {
            let max = Player::to_move_at_height(t as u32) == Player::Max;
            let (below, rest) = wins.split_at_mut(t);
            let below = &below[t - 1];
            for (i, w) in rest[0].iter_mut().enumerate() {
                *w = if max {
                    below[i] || below[i + 1]
                } else {
                    below[i] && below[i + 1]
                };
            }
        }
        let root = Player::to_move_at_height(moves);
        for d in 1..=k {
            let h = k - d;
            level.clear();
            level.extend((0..=d).map(|m| evaluator.evaluate(&square, m, m + h)));
            // rhf over every pair of positions at depth d.
            let u = &wins[h];
            let mut twice_flaws = 0u128;
            for a in 0..=d {
                for b in a + 1..=d {
                    if u[a] == u[b] {
                        continue;
                    }
                    if level[a] == level[b] {
                        twice_flaws += 1;
                    } else if (level[a] > level[b]) == u[b] {
                        twice_flaws += 2;
                    }
                }
            }
            flaws[d - 1].coefficients[ones] += twice_flaws;
            // Back the frontier up to the root's children, level by level.
            for t in h + 1..k {
                let max = Player::to_move_at_height(t as u32) == Player::Max;
                next.clear();
                next.extend(
                    level
                        .windows(2)
                        .map(|w| if max { w[0].max(w[1]) } else { w[0].min(w[1]) }),
                );
                std::mem::swap(&mut level, &mut next);
            }
            // Children: [1, k] (position 1) and [0, k - 1] (position 0) at height k - 1.
            let (value_left_removed, value_right_removed) = (level[1], level[0]);
            let (win_left_removed, win_right_removed) = (wins[k - 1][1], wins[k - 1][0]);
            if win_left_removed == win_right_removed {
                continue;
            }
            let [good, total] = &mut decision[d - 1];
            total.coefficients[ones] += 2;
            good.coefficients[ones] += if value_left_removed == value_right_removed {
                1
            } else {
                let prefers_left_removed =
                    (value_left_removed > value_right_removed) == (root == Player::Max);
                let good_left_removed = win_left_removed == (root == Player::Max);
                2 * u128::from(prefers_left_removed == good_left_removed)
            };
        }
    }
    Ok(Enumerated {
        decisions: decision
            .into_iter()
            .map(|[numerator, denominator]| DecisionPolynomials {
                numerator,
                denominator,
            })
            .collect(),
        flaws: flaws
            .into_iter()
            .enumerate()
            .map(|(i, poly)| {
                let d = i as u64 + 1;
                FlawPolynomial {
                    coefficients: poly.coefficients.into_iter().map(BigInt::from).collect(),
                    scale: d * (d + 1),
                }
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests;
