//! Bi-valued binary D-games and the probability D(d,h) of a correct decision.
//!
//! Li & Marsland (1990), *On Minimax Game Tree Search Pathology and Node-Value Dependence*:
//!
//! - **Model** (Section 3.2, Definition 3.1 with conditions 2' and 3'): merit values are
//!   assigned top-down. A *win Max* node has children (win, win) with probability `f1` and
//!   (win, loss) or (loss, win) with probability `(1 - f1)/2` each; a *loss Min* node has
//!   children (loss, loss) with probability `f2` and one loss, one win child with probability
//!   `(1 - f2)/2` each. A loss Max node has two loss children and a win Min node two win
//!   children. The player who makes the last move is Max ([`crate::model`]): odd heights are
//!   Max nodes, the root of a height-10 tree is a Min node.
//! - **Theorem 3.1**: [`f2_from_p0`] solves `p0 (1 - (1+f1)(1+f2)/4) = (1 - f2)/2` for `f2`,
//!   which makes every even-depth node below a Max root a win with probability `p0`
//!   ([`win_probability_by_depth`] checks it with the merit-value recursion).
//! - **Section 6.1**: the distributions `Pr[psi(g) = i | h(g) = t, win(g)]` and
//!   `... loss(g)]` of Nau's piece count psi (the number of 1-squares under g), in
//!   [`Solver::psi_distribution`]; the distributions of the minimax backed-up values
//!   `Psi^(d-1)` at the children of the root ([`Solver::backed_up_distribution`]); and
//!   `D(d,h) = Pr[Psi(g1) > Psi(g2)] + 1/2 Pr[Psi(g1) = Psi(g2)]`, with g1 the winning and g2
//!   the losing child of a height-h node ([`Solver::correct_decision_probability`]).
//! - **Section 6.2**: the pathological sum `PS = sum over 1 < d <= h of
//!   max(0, D(d-1,h) - D(d,h))` ([`DecisionColumn::pathological_sum`]) and Tables 1-2
//!   ([`table`]).
//!
//! Everything is generic over [`Probability`]: `f64` (fast) or
//! [`num_rational::BigRational`] (exact). The hot loops run on scaled integers with one
//! common denominator per height, reduced once at the end (see [`crate::numeric::number`]).
//!
//! Beyond the paper: [`threshold`] locates the dependence factor above which no depth is
//! pathological, with every sign decision certified (by the `f64` bound of [`error_bound`],
//! or by the relative enclosures of `1 - D` of [`complement`], which order D values that
//! agree to 30 decimals) or made exactly; [`trend`] follows the threshold and the peak of PS
//! with the height.

pub mod complement;
pub mod cost;
mod distribution;
pub mod error_bound;
pub mod report;
pub mod sweep;
pub mod table;
pub mod threshold;
pub mod trend;

pub use cost::{check_cost, estimate_cost, estimate_decision_cost};
pub use distribution::{DecisionColumn, MAX_HEIGHT, PsiDistribution, Solver};

use crate::error::{Error, Result};
use crate::numeric::number::Probability;

/// The dependence factors `f1` (win Max nodes, condition 2') and `f2` (loss Min nodes,
/// condition 3') of a bi-valued binary D-game.
#[derive(Debug, Clone, PartialEq)]
pub struct DependenceFactors<P> {
    f1: P,
    f2: P,
}

impl<P: Probability> DependenceFactors<P> {
    /// Checks that both factors lie in `[0, 1]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::DependenceFactors;
    /// let factors = DependenceFactors::new(0.3, 0.7).unwrap();
    /// assert_eq!(factors.f1(), &0.3);
    /// assert!(DependenceFactors::new(1.5, 0.5).is_err());
    /// assert!(DependenceFactors::new(f64::NAN, 0.5).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `f1` or `f2` when it is outside `[0, 1]` or NaN.
    pub fn new(f1: P, f2: P) -> Result<Self> {
        check_unit("f1", &f1)?;
        check_unit("f2", &f2)?;
        Ok(DependenceFactors { f1, f2 })
    }

    /// `f1`, the probability that a win Max node has two win children.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::DependenceFactors;
    /// use pathology::numeric::number::parse_rational;
    /// let factors = DependenceFactors::new(parse_rational("1/3").unwrap(), parse_rational("0.5").unwrap()).unwrap();
    /// assert_eq!(factors.f1(), &parse_rational("2/6").unwrap());
    /// ```
    pub fn f1(&self) -> &P {
        &self.f1
    }

    /// `f2`, the probability that a loss Min node has two loss children.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::DependenceFactors;
    /// let factors = DependenceFactors::new(0.3, 0.7).unwrap();
    /// assert_eq!(factors.f2(), &0.7);
    /// ```
    pub fn f2(&self) -> &P {
        &self.f2
    }
}

/// Checks that `value` lies in `[0, 1]` (NaN does not).
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::check_unit;
/// assert!(check_unit("p0", &0.5).is_ok());
/// assert!(check_unit("p0", &1.0).is_ok());
/// let err = check_unit("p0", &1.5).unwrap_err();
/// assert_eq!(err.to_string(), "p0 must be in [0, 1], got 1.5");
/// assert!(check_unit("p0", &f64::NAN).is_err());
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `name`.
pub fn check_unit<P: Probability>(name: &str, value: &P) -> Result<()> {
    if *value >= P::impossible() && *value <= P::certain() {
        Ok(())
    } else {
        Err(Error::invalid(name, "in [0, 1]", display(value)))
    }
}

fn display<P: Probability>(value: &P) -> String {
    value
        .exact_string()
        .unwrap_or_else(|| format!("{}", value.to_f64()))
}

/// Theorem 3.1: the `f2` for which every even-depth node below a Max root is a win with
/// probability `p0`, given `f1`:
/// `f2 = (2 - 4 p0 + p0 (1 + f1)) / (2 - p0 (1 + f1))`.
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::analytic::dgame::f2_from_p0;
/// use pathology::numeric::number::parse_rational;
/// let f2 = f2_from_p0(&parse_rational("0.5").unwrap(), &parse_rational("1/2").unwrap()).unwrap();
/// assert_eq!(f2, parse_rational("3/5").unwrap()); // (1 + f1) / (3 - f1) at p0 = 1/2
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] when `f1` or `p0` is outside `[0, 1]`, when `p0 = f1 = 1`
/// (then every `f2` satisfies the equation), or when the solution lies outside `[0, 1]`
/// (it does exactly when `p0 (3 - f1) > 2`).
pub fn f2_from_p0<P: Probability>(f1: &P, p0: &P) -> Result<P> {
    check_unit("f1", f1)?;
    check_unit("p0", p0)?;
    let one = P::certain();
    let two = one.plus(&one);
    let four = two.plus(&two);
    let p0_f1 = p0.times(&one.plus(f1));
    let denominator = two.minus(&p0_f1);
    if denominator <= P::impossible() {
        return Err(Error::invalid(
            "p0",
            "below 1 when f1 = 1 (with p0 = f1 = 1 every f2 satisfies Theorem 3.1)",
            display(p0),
        ));
    }
    let f2 = two
        .minus(&four.times(p0))
        .plus(&p0_f1)
        .divided_by(&denominator);
    if f2 < P::impossible() {
        return Err(Error::invalid(
            "p0",
            &format!(
                "at most 2/(3 - f1) for f1 = {} so that f2 from Theorem 3.1 is in [0, 1] (it would be {})",
                display(f1),
                display(&f2)
            ),
            display(p0),
        ));
    }
    Ok(f2)
}

/// The merit-value recursion of Theorem 3.1's proof: the probability that a node at depth
/// `k = 0..=depth` below a **Max** root is a win, when the root is a win with probability
/// `p0`. Max nodes sit at even depths.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::{DependenceFactors, win_probability_by_depth};
/// let factors = DependenceFactors::new(0.5, 0.6).unwrap();
/// let p = win_probability_by_depth(&factors, &0.5, 4);
/// assert!((p[2] - 0.5).abs() < 1e-15 && (p[4] - 0.5).abs() < 1e-15);
/// ```
pub fn win_probability_by_depth<P: Probability>(
    factors: &DependenceFactors<P>,
    p0: &P,
    depth: usize,
) -> Vec<P> {
    let one = P::certain();
    let half = one.divided_by(&one.plus(&one));
    let mut out = vec![p0.clone()];
    for k in 1..=depth {
        let parent = &out[k - 1];
        let next = if k % 2 == 1 {
            // Parent is a Max node: a win parent gives a win child with probability
            // f1 + (1 - f1)/2 = (1 + f1)/2; a loss Max parent gives loss children.
            parent.times(&half.times(&one.plus(factors.f1())))
        } else {
            // Parent is a Min node: a win Min parent has win children; a loss Min parent
            // gives a win child with probability (1 - f2)/2.
            let loss = one.minus(parent);
            parent.plus(&loss.times(&half.times(&one.minus(factors.f2()))))
        };
        out.push(next);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;
    use num_rational::BigRational;
    use proptest::prelude::*;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    #[test]
    fn rejects_factors_outside_unit_interval() {
        let err = DependenceFactors::new(0.5, -0.1).unwrap_err();
        assert_eq!(err.to_string(), "f2 must be in [0, 1], got -0.1");
        assert!(DependenceFactors::new(q("11/10"), q("0")).is_err());
        assert!(DependenceFactors::new(q("1"), q("0")).is_ok());
    }

    #[test]
    fn theorem_3_1_keeps_even_depths_at_p0_exactly() {
        for (f1, p0) in [
            ("0.1", "0.5"),
            ("0.37", "0.5"),
            ("0", "0.3"),
            ("0.9", "0.61"),
            ("1/3", "2/3"),
        ] {
            let (f1, p0) = (q(f1), q(p0));
            let f2 = f2_from_p0(&f1, &p0).unwrap();
            let factors = DependenceFactors::new(f1, f2).unwrap();
            let p = win_probability_by_depth(&factors, &p0, 20);
            for k in (0..=20).step_by(2) {
                assert_eq!(p[k], p0, "depth {k}");
            }
            assert_ne!(p[1], p0);
        }
    }

    #[test]
    fn theorem_3_1_refuses_out_of_range_p0() {
        assert!(f2_from_p0(&q("0"), &q("0.7")).is_err()); // p0 (3 - f1) = 2.1 > 2
        assert!(f2_from_p0(&q("1"), &q("1")).is_err());
        assert!(f2_from_p0(&q("0"), &q("2/3")).is_ok());
        assert_eq!(f2_from_p0(&q("0"), &q("2/3")).unwrap(), q("0"));
    }

    proptest! {
        #[test]
        fn theorem_3_1_f2_is_a_probability_and_greater_than_f1_at_half(f1 in 0u32..=100) {
            let f1 = BigRational::new(f1.into(), 100.into());
            let f2 = f2_from_p0(&f1, &q("1/2")).unwrap();
            prop_assert!(f2 >= f1 && f2 <= q("1"));
        }
    }
}
