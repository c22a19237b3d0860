//! The compute-optimal frontier of test-time search (Snell, Lee, Xu & Kumar, arXiv
//! 2408.03314: for each budget, the strategy and setting of the highest accuracy), exactly,
//! in the step model of lookahead and beam search ([`super::LookaheadSearch`]).
//!
//! **Strategies and what they spend** (module `compute`; prices a per generated step, v per
//! verifier call, cost `a steps + v calls`):
//!
//! - best-of-N: N complete solutions of L steps, each scored once at length L: `N L` steps,
//!   N calls. A solution of a problem with step probability Q is correct with probability
//!   `Q^L`; its score is `1{correct} + (1 + G (L - 1)) Z`.
//! - greedy: at each of the L steps, B candidates scored and the best taken (ties uniform):
//!   `L B` steps and `L B` calls. It is beam search of width 1 and depth-1 lookahead, exactly,
//!   so it is one strategy here and beam search and lookahead start at width and depth 2.
//! - beam search of width M >= 2: `L M B` steps and `L M B` calls.
//! - depth-d lookahead, d >= 2: `sum_l B (B^(h_l+1) - 1) / (B - 1)` steps and `sum_l
//!   B^(h_l+1)` calls, `h_l = min(d, L - l) - 1`.
//!
//! **The frontier.** For a budget C, a strategy's value is the largest accuracy over its
//! settings that cost at most C (the cheapest of equal ones); the frontier is the largest of
//! the strategies' values, the runner-up the largest of the others'. Every setting's cost is
//! an exact rational, compared with C exactly. The settings: N = 1 .. floor(C_max / (a L +
//! v)) (every one: best-of-N need not rise with N), widths `--beams` (default 2, 4, 8, ...)
//! and depths `--depth` (default 2..=L), those costing at most the largest budget C_max.
//! Exact: values compared as rationals, ties are equal values. `f64`: values compared by
//! their midpoints, and a strategy whose enclosure meets the winner's is listed as tied
//! (not separated at this precision).

use num_rational::BigRational;

use super::arith::weighted;
use super::compute::Spend;
use super::{Estimate, LookaheadSearch, MAX_BEAMS, MAX_LIST, Prices, TaskType, Tasks};
use crate::analytic::distributions::Bounded;
use crate::error::{Error, Result};
use crate::numeric::number::Probability;

/// A strategy of the frontier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strategy {
    /// N complete solutions scored once each, the best taken.
    BestOfN,
    /// One candidate step of B kept per step (beam width 1, depth-1 lookahead).
    Greedy,
    /// Beam search of width M >= 2.
    Beam,
    /// Depth-d lookahead, d >= 2.
    Lookahead,
}

/// The strategies in the order the report lists them.
pub const STRATEGIES: [Strategy; 4] = [
    Strategy::BestOfN,
    Strategy::Greedy,
    Strategy::Beam,
    Strategy::Lookahead,
];

impl Strategy {
    /// The name in the report.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::frontier::Strategy;
    /// assert_eq!(Strategy::BestOfN.name(), "best-of-N");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Strategy::BestOfN => "best-of-N",
            Strategy::Greedy => "greedy",
            Strategy::Beam => "beam",
            Strategy::Lookahead => "lookahead",
        }
    }

    /// The setting as the report prints it (`N = 12`, `M = 4`, `d = 3`, greedy `M = d = 1`).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::frontier::Strategy;
    /// assert_eq!(Strategy::Beam.setting_text(4), "M = 4");
    /// assert_eq!(Strategy::Greedy.setting_text(1), "M = d = 1");
    /// ```
    pub fn setting_text(self, value: u64) -> String {
        match self {
            Strategy::BestOfN => format!("N = {value}"),
            Strategy::Greedy => "M = d = 1".to_string(),
            Strategy::Beam => format!("M = {value}"),
            Strategy::Lookahead => format!("d = {value}"),
        }
    }
}

/// One setting of one strategy: its spend, cost and accuracy.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting<P> {
    /// The strategy.
    pub strategy: Strategy,
    /// N, M or d (1 for greedy).
    pub value: u64,
    /// Generated steps and verifier calls of one run.
    pub spend: Spend,
    /// `a steps + v calls`.
    pub cost: BigRational,
    /// The probability that the answer is correct.
    pub correct: Bounded<P>,
}

/// One budget of the frontier: indices into [`Frontier::settings`].
#[derive(Debug, Clone, PartialEq)]
pub struct FrontierRow {
    /// The budget C.
    pub budget: u64,
    /// Per strategy (in [`STRATEGIES`] order), its best setting within the budget.
    pub per_strategy: Vec<Option<usize>>,
    /// The best setting of all (`None`: nothing costs at most C).
    pub best: Option<usize>,
    /// The best setting of the other strategies.
    pub runner_up: Option<usize>,
    /// The other strategies' best settings tied with the best (exact: equal; f64: not
    /// separated by their bounds).
    pub ties: Vec<usize>,
}

/// The frontier: every computed setting and one row per budget.
#[derive(Debug, Clone, PartialEq)]
pub struct Frontier<P> {
    /// Every setting computed (those costing at most the largest budget), per strategy in
    /// increasing cost.
    pub settings: Vec<Setting<P>>,
    /// One row per budget of the list.
    pub rows: Vec<FrontierRow>,
}

/// What `pathology inference frontier` computes.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontierRequest {
    /// The search model (its `step_correct` is the mix's first Q; each type is computed
    /// with its own).
    pub search: LookaheadSearch,
    /// The difficulty mix of step probabilities Q:W.
    pub mix: Tasks,
    /// The prices of a generated step and a verifier call.
    pub prices: Prices,
    /// The budgets (in the prices' units).
    pub budgets: Vec<u64>,
    /// The beam widths to consider (`None`: 2, 4, 8, ... up to the largest affordable).
    pub beams: Option<Vec<u32>>,
    /// The lookahead depths to consider (`None`: 2..=L).
    pub depths: Option<Vec<u32>>,
}

/// The settings a request computes, before any work.
#[derive(Debug, Clone, PartialEq)]
struct Plan {
    ns: Vec<u64>,
    widths: Vec<u32>,
    /// Greedy's depth 1 first when it is affordable, then the lookahead depths.
    depths: Vec<u32>,
    greedy: bool,
}

impl FrontierRequest {
    /// Checks the model, prices, budgets, widths and depths.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::{FrontierRequest, LookaheadSearch, Prices, Tasks};
    /// use pathology::analytic::pathsum::Law;
    /// use pathology::numeric::number::parse_rational;
    /// let mut request = FrontierRequest {
    ///     search: LookaheadSearch {
    ///         branching: 2,
    ///         steps: 2,
    ///         step_correct: parse_rational("1/2").unwrap(),
    ///         noise: Law::parse("--noise", "0").unwrap(),
    ///         growth: parse_rational("0").unwrap(),
    ///     },
    ///     mix: Tasks::parse_steps("1/2").unwrap(),
    ///     prices: Prices::unit(),
    ///     budgets: vec![4, 8],
    ///     beams: None,
    ///     depths: None,
    /// };
    /// assert!(request.check().is_ok());
    /// request.prices.verifier = parse_rational("-1").unwrap();
    /// assert!(request.check().unwrap_err().to_string().starts_with("--cost-verifier"));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`LookaheadSearch::check_model`] and [`Prices::check`]; [`Error::InvalidArgument`]
    /// naming `--budgets` (an empty list, or a largest budget whose best-of-N count exceeds
    /// [`MAX_LIST`]), `--beams` (1..=4096) or `--depth` (1..=L).
    pub fn check(&self) -> Result<()> {
        self.search.check_model()?;
        self.prices.check()?;
        if self.budgets.is_empty() || self.budgets.contains(&0) {
            return Err(Error::invalid(
                "--budgets",
                "a nonempty list of budgets of at least 1",
                super::list_text(&self.budgets),
            ));
        }
        if let Some(widths) = &self.beams {
            super::check_beams(&self.search, widths)?;
        }
        if let Some(depths) = &self.depths {
            self.search.check(depths)?;
        }
        let most = self.largest_budget();
        let n = (most / self.per_solution()).floor().to_integer();
        if n > num_bigint::BigInt::from(MAX_LIST) {
            return Err(Error::invalid(
                "--budgets",
                &format!(
                    "budgets of at most {MAX_LIST} complete solutions (the largest budget / \
                     (cost-sample L + cost-verifier))"
                ),
                format!(
                    "{} ({n} solutions)",
                    self.budgets.iter().max().expect("nonempty")
                ),
            ));
        }
        Ok(())
    }

    fn largest_budget(&self) -> BigRational {
        BigRational::from_integer((*self.budgets.iter().max().expect("nonempty")).into())
    }

    /// `a L + v`: one complete solution of best-of-N.
    fn per_solution(&self) -> BigRational {
        &self.prices.sample * BigRational::from_integer(self.search.steps.into())
            + &self.prices.verifier
    }

    /// The settings that cost at most the largest budget.
    fn plan(&self) -> Plan {
        let most = self.largest_budget();
        let (b, l) = (self.search.branching, self.search.steps);
        let fits = |s: &Spend| s.cost(&self.prices) <= most;
        let n_max = (&most / self.per_solution())
            .floor()
            .to_integer()
            .try_into()
            .unwrap_or(0u64);
        let widths: Vec<u32> = match &self.beams {
            Some(list) => list
                .iter()
                .copied()
                .filter(|&m| m >= 2 && fits(&Spend::beam(b, l, m)))
                .collect(),
            None => std::iter::successors(Some(2u32), |m| m.checked_mul(2))
                .take_while(|&m| m <= MAX_BEAMS && fits(&Spend::beam(b, l, m)))
                .collect(),
        };
        let greedy = fits(&Spend::lookahead(b, l, 1));
        let mut depths: Vec<u32> = if greedy { vec![1] } else { Vec::new() };
        let mut asked: Vec<u32> = self.depths.clone().unwrap_or_else(|| (2..=l).collect());
        asked.sort_unstable();
        asked.dedup();
        // The spend grows with d: the first depth above the budget ends the list (the
        // spends of deep lookahead have numbers of B^L).
        for d in asked.into_iter().filter(|&d| d >= 2) {
            if !fits(&Spend::lookahead(b, l, d)) {
                break;
            }
            depths.push(d);
        }
        let mut widths = widths;
        widths.sort_unstable();
        widths.dedup();
        Plan {
            ns: (1..=n_max).collect(),
            widths,
            depths,
            greedy,
        }
    }

    /// Complete solutions of L steps as a mix of tasks (success `Q^L`).
    fn solutions(&self) -> Tasks {
        Tasks::from_types(
            self.mix
                .types()
                .iter()
                .map(|t| TaskType {
                    success: num_traits::pow(t.success.clone(), self.search.steps as usize),
                    share: t.share.clone(),
                })
                .collect(),
        )
    }

    /// What [`Self::compute`] would cost, before any work: its strategies' estimates added.
    pub(crate) fn estimate(&self, exact: bool) -> Result<Estimate> {
        self.check()?;
        let plan = self.plan();
        let mut seconds = 0.0;
        let mut bytes: f64 = 0.0;
        let mut add = |e: Estimate| {
            seconds += e.cost.seconds;
            bytes = bytes.max(e.cost.bytes);
        };
        if !plan.ns.is_empty() {
            let (correct, wrong) = self.search.frontier(self.search.steps);
            add(super::best_of_n::best_of_n_estimate(
                &self.solutions(),
                &correct,
                &wrong,
                &plan.ns,
                exact,
            )?);
        }
        if !plan.depths.is_empty() {
            add(super::lookahead::rows_estimate(
                &self.search,
                &self.mix,
                &plan.depths,
                exact,
            )?);
        }
        if !plan.widths.is_empty() {
            add(super::beam::beam_estimate(
                &self.search,
                &self.mix,
                &plan.widths,
                exact,
            )?);
        }
        Ok(Estimate::new(
            format!(
                "the frontier's {} settings ({} best-of-N, {} beam widths, {} lookahead depths \
                 with greedy){}",
                plan.ns.len() + plan.widths.len() + plan.depths.len(),
                plan.ns.len(),
                plan.widths.len(),
                plan.depths.len(),
                if exact { " in exact rationals" } else { "" }
            ),
            seconds,
            bytes,
            if exact {
                "Ask for a smaller largest budget, fewer widths (--beams) or depths (--depth), \
                 or leave out --exact (f64 with rigorous bounds)."
            } else {
                "Ask for a smaller largest budget, or fewer widths (--beams) or depths (--depth)."
            },
        ))
    }

    /// The frontier (module docs): every affordable setting computed, then each budget's
    /// best per strategy, best of all, runner-up and ties.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::{FrontierRequest, LookaheadSearch, Prices, Tasks};
    /// use pathology::analytic::pathsum::Law;
    /// use pathology::numeric::number::parse_rational;
    /// use num_rational::BigRational;
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let request = FrontierRequest {
    ///     search: LookaheadSearch {
    ///         branching: 2,
    ///         steps: 2,
    ///         step_correct: q("1/2"),
    ///         noise: Law::parse("--noise", "0").unwrap(), // a perfect verifier
    ///         growth: q("0"),
    ///     },
    ///     mix: Tasks::parse_steps("1/2").unwrap(),
    ///     prices: Prices::unit(),
    ///     budgets: vec![3, 8],
    ///     beams: None,
    ///     depths: None,
    /// };
    /// let f = request.compute::<BigRational>().unwrap();
    /// // Budget 3 buys one complete solution (2 steps and 1 call): right with (1/2)^2.
    /// let best = &f.settings[f.rows[0].best.unwrap()];
    /// assert_eq!((best.value, best.correct.value.clone()), (1, q("1/4")));
    /// // Budget 8 buys greedy (4 steps, 4 calls): 3/4 per step, 9/16, above best-of-2 (7/16).
    /// let best = &f.settings[f.rows[1].best.unwrap()];
    /// assert_eq!(best.correct.value, q("9/16"));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Self::check`]; [`Error::TooExpensive`] past the analytic limits (the whole
    /// frontier estimated first); [`Error::Interrupted`] when cancelled.
    pub fn compute<P: Probability>(&self) -> Result<Frontier<P>> {
        self.estimate(P::EXACT)?.check()?;
        let plan = self.plan();
        let (b, l) = (self.search.branching, self.search.steps);
        let mut settings: Vec<Setting<P>> = Vec::new();
        let mut push = |strategy: Strategy, value: u64, spend: Spend, correct: Bounded<P>| {
            settings.push(Setting {
                strategy,
                value,
                cost: spend.cost(&self.prices),
                spend,
                correct,
            });
        };
        if !plan.ns.is_empty() {
            let (correct, wrong) = self.search.frontier(l);
            let r = super::best_of_n::<P>(&self.solutions(), &correct, &wrong, &plan.ns)?;
            for (&n, row) in plan.ns.iter().zip(r.rows) {
                let spend = Spend {
                    steps: num_bigint::BigInt::from(n) * num_bigint::BigInt::from(l),
                    calls: num_bigint::BigInt::from(n),
                };
                push(Strategy::BestOfN, n, spend, row.correct);
            }
        }
        if !plan.depths.is_empty() {
            let mut parts: Vec<(BigRational, Vec<Bounded<P>>)> = Vec::new();
            for t in self.mix.types() {
                let search = LookaheadSearch {
                    step_correct: t.success.clone(),
                    ..self.search.clone()
                };
                let (rows, _) = super::lookahead::depth_rows::<P>(&search, &plan.depths)?;
                parts.push((
                    t.share.clone(),
                    rows.into_iter().map(|r| r.correct).collect(),
                ));
            }
            for (i, &d) in plan.depths.iter().enumerate() {
                let correct = weighted(
                    &parts
                        .iter()
                        .map(|(w, values)| (w.clone(), &values[i]))
                        .collect::<Vec<_>>(),
                );
                let strategy = if d == 1 {
                    Strategy::Greedy
                } else {
                    Strategy::Lookahead
                };
                push(strategy, u64::from(d), Spend::lookahead(b, l, d), correct);
            }
        }
        if !plan.widths.is_empty() {
            let r = super::beam::<P>(&self.search, &self.mix, &plan.widths)?;
            for row in r.rows {
                push(
                    Strategy::Beam,
                    u64::from(row.beams),
                    Spend::beam(b, l, row.beams),
                    row.correct,
                );
            }
        }
        debug_assert_eq!(
            plan.greedy,
            settings.iter().any(|s| s.strategy == Strategy::Greedy)
        );
        // Per strategy in increasing cost (best-of-N, widths and depths were computed in
        // increasing order, and their costs grow with N, M and d).
        settings.sort_by(|x, y| x.strategy.cmp(&y.strategy).then(x.cost.cmp(&y.cost)));
        let rows = self
            .budgets
            .iter()
            .map(|&budget| row_of(&settings, budget))
            .collect();
        Ok(Frontier { settings, rows })
    }
}

/// Whether `x` is above `y`: exactly, or in `f64` by the values (midpoints).
fn above<P: Probability>(x: &Bounded<P>, y: &Bounded<P>) -> bool {
    match (x.value.exact_value(), y.value.exact_value()) {
        (Some(a), Some(b)) if P::EXACT => a > b,
        _ => x.value.to_f64() > y.value.to_f64(),
    }
}

/// Whether `x` and `y` are tied: equal exactly, or in `f64` not separated by their bounds.
fn tied<P: Probability>(x: &Bounded<P>, y: &Bounded<P>) -> bool {
    match (x.value.exact_value(), y.value.exact_value()) {
        (Some(a), Some(b)) if P::EXACT => a == b,
        _ => (x.value.to_f64() - y.value.to_f64()).abs() <= x.bound + y.bound,
    }
}

/// The better of two settings: the larger accuracy, at equal accuracy the cheaper (then the
/// first).
fn better<P: Probability>(
    settings: &[Setting<P>],
    current: Option<usize>,
    candidate: usize,
) -> bool {
    let Some(c) = current else {
        return true;
    };
    let (x, y) = (&settings[candidate], &settings[c]);
    if above(&x.correct, &y.correct) {
        return true;
    }
    let equal = match (x.correct.value.exact_value(), y.correct.value.exact_value()) {
        (Some(a), Some(b)) if P::EXACT => a == b,
        _ => x.correct.value.to_f64() == y.correct.value.to_f64(),
    };
    equal && x.cost < y.cost
}

/// One budget's row.
fn row_of<P: Probability>(settings: &[Setting<P>], budget: u64) -> FrontierRow {
    let c = BigRational::from_integer(budget.into());
    let per_strategy: Vec<Option<usize>> = STRATEGIES
        .iter()
        .map(|&strategy| {
            let mut best: Option<usize> = None;
            for (i, s) in settings.iter().enumerate() {
                if s.strategy == strategy && s.cost <= c && better(settings, best, i) {
                    best = Some(i);
                }
            }
            best
        })
        .collect();
    let mut best: Option<usize> = None;
    for &i in per_strategy.iter().flatten() {
        if better(settings, best, i) {
            best = Some(i);
        }
    }
    let mut runner_up: Option<usize> = None;
    for &i in per_strategy.iter().flatten() {
        if Some(i) != best && better(settings, runner_up, i) {
            runner_up = Some(i);
        }
    }
    let ties = match best {
        Some(b) => per_strategy
            .iter()
            .flatten()
            .copied()
            .filter(|&i| i != b && tied(&settings[i].correct, &settings[b].correct))
            .collect(),
        None => Vec::new(),
    };
    FrontierRow {
        budget,
        per_strategy,
        best,
        runner_up,
        ties,
    }
}

impl<P: Probability> Frontier<P> {
    /// The largest bound of the values (0 in exact mode).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::frontier::Strategy;
    /// use pathology::analytic::inference::{FrontierRequest, LookaheadSearch, Prices, Tasks};
    /// use pathology::analytic::pathsum::Law;
    /// use pathology::numeric::number::parse_rational;
    /// let request = FrontierRequest {
    ///     search: LookaheadSearch {
    ///         branching: 2,
    ///         steps: 2,
    ///         step_correct: parse_rational("1/2").unwrap(),
    ///         noise: Law::parse("--noise", "0:1/2,1:1/2").unwrap(),
    ///         growth: parse_rational("0").unwrap(),
    ///     },
    ///     mix: Tasks::parse_steps("1/2").unwrap(),
    ///     prices: Prices::unit(),
    ///     budgets: vec![30],
    ///     beams: None,
    ///     depths: None,
    /// };
    /// let f = request.compute::<f64>().unwrap();
    /// assert!(f.largest_bound() < 1e-12);
    /// // 30 buys best-of-N up to N = 10 (3 per solution) and greedy (8).
    /// assert_eq!((f.count(Strategy::BestOfN), f.count(Strategy::Greedy)), (10, 1));
    /// ```
    pub fn largest_bound(&self) -> f64 {
        self.settings
            .iter()
            .map(|s| s.correct.bound)
            .fold(0.0, f64::max)
    }

    /// How many settings of `strategy` were computed (example at [`Frontier::largest_bound`]).
    pub fn count(&self, strategy: Strategy) -> usize {
        self.settings
            .iter()
            .filter(|s| s.strategy == strategy)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::pathsum::Law;
    use crate::numeric::number::parse_rational;

    fn request(budgets: Vec<u64>) -> FrontierRequest {
        FrontierRequest {
            search: LookaheadSearch {
                branching: 2,
                steps: 3,
                step_correct: parse_rational("0.7").unwrap(),
                noise: Law::parse("--noise", "0:1/2,1:1/4,2:1/4").unwrap(),
                growth: parse_rational("0").unwrap(),
            },
            mix: Tasks::parse_steps("0.7:1/2,0.5:1/2").unwrap(),
            prices: Prices::unit(),
            budgets,
            beams: None,
            depths: None,
        }
    }

    /// The settings are those of cost at most the largest budget, and each row's best is
    /// the largest of the strategies' bests, which are the largest within the budget.
    #[test]
    fn each_row_is_the_largest_within_its_budget() {
        let r = request(vec![4, 12, 40, 100]);
        let f = r.compute::<BigRational>().unwrap();
        let most = BigRational::from_integer(100.into());
        assert!(f.settings.iter().all(|s| s.cost <= most));
        for row in &f.rows {
            let c = BigRational::from_integer(row.budget.into());
            let within: Vec<&Setting<BigRational>> =
                f.settings.iter().filter(|s| s.cost <= c).collect();
            let top = within.iter().map(|s| s.correct.value.clone()).max();
            match row.best {
                Some(b) => assert_eq!(Some(f.settings[b].correct.value.clone()), top),
                None => assert!(within.is_empty()),
            }
        }
        // Budget 4 buys one solution of 3 steps and 1 call, nothing else.
        let first = &f.rows[0];
        assert_eq!(f.settings[first.best.unwrap()].strategy, Strategy::BestOfN);
        assert_eq!(first.runner_up, None);
    }

    #[test]
    fn f64_agrees_with_exact() {
        let r = request(vec![4, 12, 40, 100]);
        let exact = r.compute::<BigRational>().unwrap();
        let float = r.compute::<f64>().unwrap();
        assert_eq!(exact.settings.len(), float.settings.len());
        for (x, y) in exact.settings.iter().zip(&float.settings) {
            let e = crate::numeric::number::rational_to_f64(&x.correct.value);
            assert!(
                (e - y.correct.value).abs() <= y.correct.bound + 1e-300,
                "{e} {y:?}"
            );
        }
    }
}
