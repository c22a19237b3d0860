//! Closed forms from the pathology literature: rhf(w), w_b, and the EMM depth-one errors.
//!
//! - **Chi & Nau (1987), Section 5**, *Comparing Minimax and Product in a Variety of Games*:
//!   the evaluator `e^w(n) = w u(n) + (1 - w) r(n)` on P-games (u the true value in {0, 1},
//!   r uniform on [0, 1], independent) has rate of heuristic flaw
//!   `rhf(w) = ((1 - 2w)/(1 - w))^2 xi (1 - xi)` for `0 <= w <= 0.5` and 0 above ([`rhf`]),
//!   where `xi = Pr[u(n) = 1]`. The paper uses `xi = 0.382`, i.e. [`w_b`] for b = 2.
//!
//!   *What "two nodes chosen at random" means for the closed form:* m and n are two
//!   **distinct** nodes at the same depth d, so their true values `u(m)`, `u(n)` are
//!   independent (in a P-game they depend on disjoint sets of leaves), each 1 with probability
//!   xi, and their noise values `r(m)`, `r(n)` are independent uniforms. Derivation (checked
//!   against the paper's published result, which it reproduces): a flaw needs
//!   `u(better) = 0 < u(worse) = 1`. Say `u(m) = 0`, `u(n) = 1` (probability `xi (1 - xi)`,
//!   and the same again for the other order); then `e(m) > e(n)` iff
//!   `(1 - w)(r(m) - r(n)) > w`, i.e. `r(m) - r(n) > c = w/(1 - w)`, which for `c <= 1`
//!   (`w <= 1/2`) has probability `(1 - c)^2 / 2` and is impossible above. Ties have
//!   probability 0. So `rhf = 2 xi (1 - xi) (1 - c)^2 / 2` with `1 - c = (1 - 2w)/(1 - w)`.
//!   Drawing m and n with replacement (m = n allowed, never a flaw) would multiply this by
//!   `1 - 1/N` for N nodes at depth d. Since `xi (1 - xi)` is symmetric, it does not matter
//!   whether xi is the win probability of the player to move at depth d or of the opponent.
//! - **Nau; Pearl; Li & Marsland Section 6.3**: `w_b`, the root in (0, 1) of
//!   `(1 - x)^b = x` ([`w_b`]): leaves that are wins with probability w_b make every level of a
//!   uniform b-ary P-game tree a win for the player to move with probability w_b.
//! - **Wilson, Parker & Nau (2009), "Analysis"**, *Error Minimizing Minimax*: with a static
//!   evaluator that is wrong with probability e, independently at each node, a depth-one search
//!   of a binary tree is wrong at the root with probability `error(A) = e^2`,
//!   `error(B) = error(C) = e (1 - e)`, `error(D) = 1 - (1 - e)^2` ([`DepthOneTree`]), and a type D
//!   root over two type A children with `1 - (1 - e^2)^2` ([`two_level_example_error`]).

pub mod report;

use crate::error::{Error, Result};
use crate::numeric::number::Probability;

/// Chi & Nau's `rhf(w) = ((1 - 2w)/(1 - w))^2 xi (1 - xi)` for `w <= 0.5`, 0 above.
///
/// # Examples
///
/// ```
/// use pathology::analytic::closed_form::rhf;
/// assert_eq!(rhf(0.0, 0.5).unwrap(), 0.25);
/// assert_eq!(rhf(0.5, 0.5).unwrap(), 0.0);
/// assert_eq!(rhf(0.8, 0.5).unwrap(), 0.0);
/// assert!((rhf(0.25, 0.5).unwrap() - 1.0 / 9.0).abs() < 1e-15); // (0.5/0.75)^2 / 4
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `w` or `xi` when outside `[0, 1]`.
pub fn rhf<P: Probability>(w: P, xi: P) -> Result<P> {
    crate::analytic::dgame::check_unit("w", &w)?;
    crate::analytic::dgame::check_unit("xi", &xi)?;
    let one = P::certain();
    let two = one.plus(&one);
    let half = one.divided_by(&two);
    if w > half {
        return Ok(P::impossible());
    }
    let ratio = one.minus(&two.times(&w)).divided_by(&one.minus(&w));
    Ok(ratio.times(&ratio).times(&xi).times(&one.minus(&xi)))
}

/// `w_b`: the root in (0, 1) of `(1 - x)^b = x`, for a branching factor `b >= 2`, to full f64
/// precision (bisection; the function `(1 - x)^b - x` is strictly decreasing).
///
/// # Examples
///
/// ```
/// use pathology::analytic::closed_form::w_b;
/// assert!((w_b(2).unwrap() - (3.0 - 5f64.sqrt()) / 2.0).abs() < 1e-15);
/// assert!((w_b(3).unwrap() - 0.3176721962).abs() < 1e-10);
/// assert!(w_b(1).is_err());
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `branching` when `b < 2`.
pub fn w_b(branching: u32) -> Result<f64> {
    if branching < 2 {
        return Err(Error::invalid("branching", "at least 2", branching));
    }
    let b = i32::try_from(branching).unwrap_or(i32::MAX);
    let g = |x: f64| (1.0 - x).powi(b) - x;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    // g(0) = 1 > 0, g(1) = -1 < 0; halve until the bracket stops shrinking.
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(if g(lo).abs() <= g(hi).abs() { lo } else { hi })
}

/// The four depth-one binary trees of Wilson et al.'s Fig. 1 (B and C are mirror images).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepthOneTree {
    /// Both children are wins for the player to move: wrong only if both are misread.
    A,
    /// One win child, one loss child (the win child first).
    B,
    /// The mirror image of B.
    C,
    /// Both children are losses: wrong if either is misread.
    D,
}

impl DepthOneTree {
    /// The probability that a depth-one minimax search is wrong at the root when each leaf
    /// evaluation is wrong with probability `e`, independently.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::closed_form::DepthOneTree;
    /// assert_eq!(DepthOneTree::A.error(0.1), 0.1 * 0.1);
    /// assert_eq!(DepthOneTree::B.error(0.1), 0.1 * 0.9);
    /// assert!((DepthOneTree::D.error(0.1) - 0.19).abs() < 1e-15);
    /// ```
    pub fn error<P: Probability>(self, e: P) -> P {
        let one = P::certain();
        let right = one.minus(&e);
        match self {
            DepthOneTree::A => e.times(&e),
            DepthOneTree::B | DepthOneTree::C => e.times(&right),
            DepthOneTree::D => one.minus(&right.times(&right)),
        }
    }
}

/// Wilson et al.'s two-level example: a type D root whose children both root type A trees,
/// wrong with probability `1 - (1 - e^2)^2`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::closed_form::two_level_example_error;
/// assert!((two_level_example_error(0.1) - 0.0199).abs() < 1e-15);
/// ```
pub fn two_level_example_error<P: Probability>(e: P) -> P {
    let one = P::certain();
    let right = one.minus(&e.times(&e));
    one.minus(&right.times(&right))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;
    use num_rational::BigRational;
    use proptest::prelude::*;

    /// Agreement of w_b with its defining equation.
    const ROOT_TOLERANCE: f64 = 1e-14;

    #[test]
    fn w_b_solves_its_equation() {
        for b in 2..=40 {
            let x = w_b(b).unwrap();
            assert!(x > 0.0 && x < 1.0);
            assert!(
                ((1.0 - x).powi(b as i32) - x).abs() < ROOT_TOLERANCE,
                "b = {b}"
            );
        }
        assert!((w_b(2).unwrap() - 0.3819660113).abs() < 1e-10);
        assert!((w_b(3).unwrap() - 0.3176721962).abs() < 1e-10);
    }

    #[test]
    fn rhf_exact_matches_float() {
        let w = parse_rational("0.3").unwrap();
        let xi = parse_rational("0.4").unwrap();
        // ((0.4/0.7)^2) * 0.24 = 16/49 * 6/25 = 96/1225
        let exact: BigRational = rhf(w, xi).unwrap();
        assert_eq!(exact, parse_rational("96/1225").unwrap());
        assert!((rhf(0.3, 0.4).unwrap() - 96.0 / 1225.0).abs() < 1e-15);
    }

    #[test]
    fn rhf_matches_a_direct_integration() {
        // Pr[r(m) - r(n) > c] by a midpoint rule over r(n), for independent uniforms.
        let (w, xi) = (0.2f64, 0.382f64);
        let c = w / (1.0 - w);
        let n = 100_000;
        let mut p = 0.0;
        for i in 0..n {
            let rn = (i as f64 + 0.5) / n as f64;
            p += (1.0 - (rn + c).min(1.0)) / n as f64;
        }
        let direct = 2.0 * xi * (1.0 - xi) * p;
        assert!((direct - rhf(w, xi).unwrap()).abs() < 1e-8);
    }

    #[test]
    fn two_level_example_beats_static_evaluation() {
        for k in 1..50 {
            let e = f64::from(k) / 100.0;
            assert!(two_level_example_error(e) < e);
        }
    }

    proptest! {
        #[test]
        fn wilson_ordering_holds_on_zero_to_half(e in 0.0f64..=0.5) {
            let a = DepthOneTree::A.error(e);
            let b = DepthOneTree::B.error(e);
            let c = DepthOneTree::C.error(e);
            let d = DepthOneTree::D.error(e);
            prop_assert!(d >= e && e >= b && b >= a, "e = {e}: {d} {b} {a}");
            prop_assert_eq!(b, c);
        }
    }
}
