//! Stroebl, Kapoor & Narayanan, "Inference Scaling fLaws" (arXiv 2411.17501): the reward
//! curve of their notebook (`notebooks/limits_to_inference_scaling_model.ipynb` in
//! `benediktstroebl/inference-scaling-limits`, read at commit `11a8f6e`) against the plain
//! expected payoff of resampling, in rationals.
//!
//! **The notebook's curve.** With `beta_i = (1 - C) R_i + S (1 - R_i)` (a sample of type i is
//! rejected), `a_i = C R_i` (correct and accepted), `b_i = (1 - R_i)(1 - S)` (their
//! `p_fluke_i`) and the posterior of type i after `j = k - 1` rejections
//! `pi_i(k) = W_i beta_i^j / sum_l W_l beta_l^j`, its reward at budget K is the running sum
//! over `k = 1..K` of
//!
//! `[sum_i pi_i(k) (a_i + V b_i)] * [sum_i pi_i(k) beta_i^j]`,
//!
//! and its best K is the K of the largest sum (0 when that sum is negative).
//!
//! **The plain expectation.** The payoff `P_correct + V P_false_positive` of resampling with
//! budget K ([`crate::analytic::inference::resample`]) is the running sum of
//! `sum_i W_i beta_i^j (a_i + V b_i) = [sum_i pi_i(k) (a_i + V b_i)] * [sum_l W_l beta_l^j]`:
//! the probability of reaching attempt k is the *prior* mean of `beta^j`, where the notebook
//! takes the *posterior* mean. The two agree at k = 1 and whenever every type has the same
//! beta; otherwise the posterior mean is larger (`E[beta^2j] >= E[beta^j]^2`), so the
//! notebook counts later attempts with too much weight. The claims table says, exactly,
//! whether the curves agree and whether they pick the same best K.

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::analytic::inference::{Tasks, TypeRates, resample};
use crate::error::Result;
use crate::numeric::number::parse_rational;
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence};
use crate::report::{Cell, Column, Kind, Table};

/// The notebook's task mix `R:W,...` (their r_1, r_2 and priors p_1, p_2).
pub const TASKS: &str = "0.87:0.58,0.13:0.42";
/// The notebook's completeness c.
pub const COMPLETENESS: &str = "1";
/// The notebook's soundness s.
pub const SOUNDNESS: &str = "0.75";
/// The notebook's false-positive values `V_fluke` (a correct answer is worth 1).
pub const VALUES: [&str; 3] = ["-0.7", "-1", "-2"];
/// The notebook's budgets `k_values = range(1, 16)`: K = 1..=15.
pub const K_MAX: u64 = 15;

/// Both curves at one false-positive value V.
#[derive(Debug, Clone, PartialEq)]
pub struct NotebookCurve {
    /// V, as given.
    pub value: &'static str,
    /// The notebook's reward at K = 1..=[`K_MAX`].
    pub notebook: Vec<BigRational>,
    /// The expected payoff of resampling with budget K = 1..=[`K_MAX`].
    pub payoff: Vec<BigRational>,
}

impl NotebookCurve {
    /// The notebook's best K (the first largest; 0 when its largest reward is negative, as the
    /// notebook sets it).
    pub fn notebook_best(&self) -> u64 {
        best_budget(&self.notebook)
    }

    /// The best K of the expected payoff on the same budgets, by the same rule.
    pub fn payoff_best(&self) -> u64 {
        best_budget(&self.payoff)
    }

    /// The largest `|notebook(K) - payoff(K)|` over the budgets, with its K (the first).
    pub fn largest_gap(&self) -> (u64, BigRational) {
        let mut best = (1, BigRational::zero());
        for (k, (n, p)) in (1..).zip(self.notebook.iter().zip(&self.payoff)) {
            let gap = (n - p).abs();
            if gap > best.1 {
                best = (k, gap);
            }
        }
        best
    }
}

/// The first K of the largest value (1-based), or 0 when that value is negative.
fn best_budget(values: &[BigRational]) -> u64 {
    let mut best = 0;
    for (i, v) in values.iter().enumerate() {
        if *v > values[best] {
            best = i;
        }
    }
    if values[best].is_negative() {
        0
    } else {
        best as u64 + 1
    }
}

/// The notebook's reward curve at K = 1..=`k_max` for the types' rates and false-positive
/// value `v` (`None` once every type's beta is 0 and the notebook's posterior divides by
/// zero).
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::analytic::inference::{Tasks, resample};
/// use pathology::numeric::number::parse_rational;
/// use pathology::studies::inference::notebook::notebook_reward;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let tasks = Tasks::parse("0.87:0.58,0.13:0.42").unwrap();
/// let r = resample::<BigRational>(&tasks, &q("1"), &q("0.75"), &q("-1"), &[1]).unwrap();
/// let curve = notebook_reward(&r.types, &q("-1"), 2).unwrap();
/// // K = 1 is the plain expectation, 0.449 (the CLI's payoff at k = 1).
/// assert_eq!(curve[0], q("0.449"));
/// ```
pub fn notebook_reward(
    types: &[TypeRates],
    v: &BigRational,
    k_max: u64,
) -> Option<Vec<BigRational>> {
    let betas: Vec<BigRational> = types
        .iter()
        .map(|t| &t.reject_correct + &t.reject_wrong)
        .collect();
    let mut powers: Vec<BigRational> = types.iter().map(|_| BigRational::one()).collect();
    let mut total = BigRational::zero();
    let mut curve = Vec::new();
    for _ in 0..k_max {
        let z: BigRational = types.iter().zip(&powers).map(|(t, p)| &t.share * p).sum();
        if z.is_zero() {
            return None;
        }
        let posterior: Vec<BigRational> = types
            .iter()
            .zip(&powers)
            .map(|(t, p)| &t.share * p / &z)
            .collect();
        let value: BigRational = types
            .iter()
            .zip(&posterior)
            .map(|(t, pi)| pi * (&t.accept_correct + v * &t.accept_wrong))
            .sum();
        let reach: BigRational = posterior.iter().zip(&powers).map(|(pi, p)| pi * p).sum();
        total += value * reach;
        curve.push(total.clone());
        for (p, beta) in powers.iter_mut().zip(&betas) {
            *p *= beta;
        }
    }
    Some(curve)
}

/// The notebook's setting at every V of [`VALUES`]: its curve and the plain expectation.
///
/// # Errors
///
/// None in practice (the parameters are fixed and valid); the calculators' errors pass on.
pub fn compute() -> Result<Vec<NotebookCurve>> {
    let tasks = Tasks::parse(TASKS)?;
    let constant = |text: &str| parse_rational(text).expect("a constant of the study");
    let completeness = constant(COMPLETENESS);
    let soundness = constant(SOUNDNESS);
    let budgets: Vec<u64> = (1..=K_MAX).collect();
    VALUES
        .iter()
        .map(|&value| {
            let v = constant(value);
            let run = resample::<BigRational>(&tasks, &completeness, &soundness, &v, &budgets)?;
            let notebook = notebook_reward(&run.types, &v, K_MAX)
                .expect("the notebook's types have a positive beta");
            Ok(NotebookCurve {
                value,
                notebook,
                payoff: run.rows.into_iter().map(|r| r.payoff.value).collect(),
            })
        })
        .collect()
}

/// Table `notebook`: both curves at every V and K, and their difference (exact).
pub fn table(curves: &[NotebookCurve]) -> Table {
    let mut table = Table::new(
        "notebook",
        "Stroebl et al.'s notebook reward against the expected payoff of resampling (tasks 0.87:0.58,0.13:0.42, C = 1, S = 0.75), exact",
        vec![
            Column::key("V", Kind::Text),
            Column::key("k", Kind::Integer),
            Column::new("notebook", Kind::Real),
            Column::new("payoff", Kind::Real),
            Column::new("difference", Kind::Real),
        ],
    );
    for curve in curves {
        for (k, (n, p)) in (1u64..).zip(curve.notebook.iter().zip(&curve.payoff)) {
            table.push(vec![
                Cell::text(curve.value),
                Cell::int(k),
                Cell::Exact(n.clone()),
                Cell::Exact(p.clone()),
                Cell::Exact(n - p),
            ]);
        }
    }
    table
}

/// The claims: the notebook's curve is the expected payoff (per V), and it picks the same
/// best K (per V).
pub fn claim_families(curves: &[NotebookCurve]) -> Vec<ClaimFamily> {
    let source = "Stroebl et al. 2024, notebook limits_to_inference_scaling_model";
    let mut same_curve = ClaimFamily::new(
        "Stroebl et al.'s notebook: its reward is the expected payoff",
        0.05,
    );
    let mut same_best = ClaimFamily::new(
        "Stroebl et al.'s notebook: its best k is the payoff's",
        0.05,
    );
    for curve in curves {
        let (k, gap) = curve.largest_gap();
        same_curve.push(Claim::new(
            format!(
                "V = {}: the notebook's reward at k = 1..{K_MAX} equals the expected payoff of resampling",
                curve.value
            ),
            source,
            format!("largest |notebook(k) - payoff(k)| (at k = {k})"),
            Direction::Within { margin: 0.0 },
            Evidence::Exact(Cell::Exact(gap)),
        ));
        let (nb, pb) = (curve.notebook_best(), curve.payoff_best());
        let at = |k: u64| {
            if k == 0 {
                BigRational::zero()
            } else {
                curve.payoff[k as usize - 1].clone()
            }
        };
        same_best.push(Claim::new(
            format!(
                "V = {}: the notebook's best k ({nb}) is the best k of the expected payoff ({pb}) on k = 1..{K_MAX}",
                curve.value
            ),
            source,
            "payoff(notebook's k) - payoff(best k)",
            Direction::Within { margin: 0.0 },
            Evidence::Exact(Cell::Exact(at(nb) - at(pb))),
        ));
    }
    vec![same_curve, same_best]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::claims::Verdict;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    /// The notebook's formula written out for two types in its own variables, K = 1..3,
    /// V = -1, against `notebook_reward`.
    #[test]
    fn the_curve_is_the_notebooks_formula() {
        let (r1, r2, c, s, p1, p2, v) = (
            q("0.87"),
            q("0.13"),
            q("1"),
            q("0.75"),
            q("0.58"),
            q("0.42"),
            q("-1"),
        );
        let one = BigRational::one();
        let beta1 = (&one - &c) * &r1 + &s * (&one - &r1);
        let beta2 = (&one - &c) * &r2 + &s * (&one - &r2);
        assert_eq!((beta1.clone(), beta2.clone()), (q("0.0975"), q("0.6525")));
        let (pc1, pc2) = (&c * &r1, &c * &r2);
        let (pf1, pf2) = ((&one - &r1) * (&one - &s), (&one - &r2) * (&one - &s));
        let mut sum = BigRational::zero();
        let mut expected = Vec::new();
        for k in 1..=3i32 {
            let (b1, b2) = (
                num_traits::pow(beta1.clone(), (k - 1) as usize),
                num_traits::pow(beta2.clone(), (k - 1) as usize),
            );
            let z = &b1 * &p1 + &b2 * &p2;
            let (t1, t2) = (&b1 * &p1 / &z, &b2 * &p2 / &z);
            let term = (&pc1 * &t1 + &pc2 * &t2 + &v * (&pf1 * &t1 + &pf2 * &t2))
                * (&b1 * &t1 + &b2 * &t2);
            sum += term;
            expected.push(sum.clone());
        }
        let tasks = Tasks::parse(TASKS).unwrap();
        let run = resample::<BigRational>(&tasks, &c, &s, &v, &[1]).unwrap();
        assert_eq!(notebook_reward(&run.types, &v, 3).unwrap(), expected);
    }

    #[test]
    fn the_notebook_overstates_later_attempts_but_picks_the_same_best_k() {
        let curves = compute().unwrap();
        for curve in &curves {
            // Equal at K = 1, different from K = 2 on (the two types' betas differ).
            assert_eq!(curve.notebook[0], curve.payoff[0]);
            assert_ne!(curve.notebook[1], curve.payoff[1]);
        }
        let best: Vec<(u64, u64)> = curves
            .iter()
            .map(|c| (c.notebook_best(), c.payoff_best()))
            .collect();
        assert_eq!(best, [(3, 3), (2, 2), (1, 1)]);
        // The payoff at V = -1, K = 2 is the CLI's 0.472381 (docs/inference.md), the
        // notebook's 0.4884 there; at V = -2 the notebook's curve is negative from K = 6 on
        // while the payoff stays positive.
        assert_eq!(curves[1].payoff[1], q("0.47238125"));
        let near = |x: &BigRational, d: &str| (x - q(d)).abs() < q("0.00005");
        assert!(near(&curves[1].notebook[1], "0.4884"));
        assert!(curves[2].notebook[4].is_positive());
        assert!(curves[2].notebook[5..].iter().all(|x| x.is_negative()));
        assert!(curves[2].payoff.iter().all(|x| x.is_positive()));
        let families = claim_families(&curves);
        let verdicts = |f: &ClaimFamily| -> Vec<Verdict> {
            f.decide().into_iter().map(|d| d.verdict).collect()
        };
        assert_eq!(verdicts(&families[0]), [Verdict::Fails; 3]);
        assert_eq!(verdicts(&families[1]), [Verdict::Holds; 3]);
    }

    #[test]
    fn equal_betas_make_the_curves_equal() {
        // One type: the posterior is the prior, so the notebook's factor is P(reach k).
        let tasks = Tasks::parse("0.4:1").unwrap();
        let v = q("-1/2");
        let budgets: Vec<u64> = (1..=6).collect();
        let run = resample::<BigRational>(&tasks, &q("0.9"), &q("0.6"), &v, &budgets).unwrap();
        let payoff: Vec<BigRational> = run.rows.iter().map(|r| r.payoff.value.clone()).collect();
        assert_eq!(notebook_reward(&run.types, &v, 6).unwrap(), payoff);
    }

    #[test]
    fn a_negative_best_reward_means_no_attempt() {
        assert_eq!(best_budget(&[q("-1"), q("-1/2")]), 0);
        assert_eq!(best_budget(&[q("1"), q("2"), q("2")]), 2);
    }
}
