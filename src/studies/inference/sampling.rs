//! Resampling with an imperfect verifier (Stroebl, Kapoor & Narayanan, arXiv 2411.17501) and
//! majority voting on a mix of easy and hard queries (Chen et al., arXiv 2403.02419), exactly:
//! every number is a `BigRational` of the calculators in [`crate::analytic::inference`], and
//! every claim is decided by the sign of an exact rational.
//!
//! **Resampling.** Per task type, a sample is correct and accepted with probability
//! `a = R C`, wrong and accepted with `b = (1 - R)(1 - S)`, rejected with `q = 1 - a - b`.
//! The payoff of at most k samples (1 for a correct answer, V for a false positive, 0 for
//! none) is `sum_j W_j (a_j + V b_j) (1 - q_j^k) / (a_j + b_j)`, so its increment is
//! `P(k+1) - P(k) = sum_j W_j (a_j + V b_j) q_j^k`. A type with `a + V b > 0` gains from every
//! further sample and one with `a + V b < 0` loses: more samples hurt type j exactly when
//! `V < -a_j / b_j`. With both kinds present, and every gaining type's `q` below every losing
//! type's (the *tail condition*), `P(k+1) - P(k)` divided by the losing types' smallest
//! `q^k` decreases strictly in k, so once an increment is at most 0 every later one is
//! negative: the payoff's maximum over all k >= 1 is at the first k whose increment is at
//! most 0, found exactly ([`payoff_peak`]).
//!
//! **Voting with one wrong answer.** For a type of per-sample success p (q = 1 - p) and odd
//! k = 2m + 1, `P(k + 2) - P(k) = C(2m+1, m) (p q)^(m+1) (2p - 1)` (both the majority of
//! k + 2 votes and of k votes differ only where the first k votes are split m + 1 to m),
//! and an even k is no better than k - 1 (a tie broken uniformly). For a mix of an easy type
//! (p > 1/2) and a hard one (p < 1/2) the sign of the increment is that of
//! `W_e (2p_e - 1) x_e^(m+1) - W_h (1 - 2p_h) x_h^(m+1)` with `x = p q`: the ratio of its two
//! terms moves monotonically in m, so the increments change sign at most once. With
//! `x_e < x_h` (the easy queries farther from a coin flip than the hard ones) they end
//! negative: the accuracy rises then falls, or falls from the start; with `x_e > x_h` they end
//! positive: it falls then rises, or rises throughout. As k grows the accuracy tends to the
//! easy share `W_e`. The four shapes are Chen et al.'s; this classification of them over every
//! odd k is this tool's ([`phase::tail_class`]);
//! the study also decides each cell of the phase diagram from the engine's values on a
//! stated range of k ([`phase::range_class`]), and the tests check both against each other.

pub mod phase;

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::analytic::inference::{Resample, Tasks, TypeRates, resample, vote};
use crate::error::{Error, Result};
use crate::numeric::number::{parse_rational, rational_to_f64};
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence};
use crate::report::figure::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel, Scale};
use crate::report::{Cell, Column, Kind, Report, Table};

pub use phase::{Class, PhaseCell, PhaseDiagram};

use super::notebook::{self, NotebookCurve};

/// Stroebl et al.'s two task types (per-sample success R : share W).
pub const STROEBL_TASKS: &str = "0.87:0.58,0.13:0.42";
/// Their verifier's completeness C.
pub const STROEBL_COMPLETENESS: &str = "1";
/// Their verifier's soundness S.
pub const STROEBL_SOUNDNESS: &str = "0.75";
/// The payoff of a false positive in the study (a wrong answer costs what a right one earns).
pub const FALSE_POSITIVE_VALUE: &str = "-1";
/// The rates their notebook prints: name, task type (0 or 1), which rate, the printed decimal.
pub const STROEBL_PRINTED: [(&str, usize, Rate, &str); 4] = [
    ("beta_1", 0, Rate::Reject, "0.0975"),
    ("beta_2", 1, Rate::Reject, "0.6525"),
    ("p_fluke_1", 0, Rate::AcceptWrong, "0.0325"),
    ("p_fluke_2", 1, Rate::AcceptWrong, "0.2175"),
];
/// The resampling curve's k: 1 to this.
pub const RESAMPLE_MAX_K: u64 = 30;
/// The voting example of the docs: 60% easy queries at R = 0.7, 40% hard ones at R = 0.4.
pub const VOTE_MIX: &str = "0.7:0.6,0.4:0.4";
/// The claim family of voting on [`VOTE_MIX`]: the mix is this tool's, in Chen et al.'s
/// setting.
pub const VOTE_FAMILY: &str = "voting on this tool's mix 0.7:0.6,0.4:0.4 (Chen et al.'s setting)";
/// The voting curve's and the phase diagram's k: 1 to this (the diagram: odd k only).
pub const VOTE_MAX_K: u64 = 101;
/// The longest scan for the first sign change of an increment (far beyond any setting here).
const MAX_SCAN: u64 = 100_000;

/// Which per-sample rate of a task type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rate {
    /// `R (1 - C) + (1 - R) S`: rejected (their beta, as their notebook defines it).
    Reject,
    /// `(1 - R)(1 - S)`: wrong and accepted (their p_fluke).
    AcceptWrong,
}

impl Rate {
    /// The rate of one task type.
    pub fn of(self, rates: &TypeRates) -> BigRational {
        match self {
            Rate::Reject => &rates.reject_correct + &rates.reject_wrong,
            Rate::AcceptWrong => rates.accept_wrong.clone(),
        }
    }
}

fn constant(text: &str) -> BigRational {
    parse_rational(text).expect("a constant of the study")
}

/// `base^exponent` in rationals.
fn power(base: &BigRational, exponent: u64) -> BigRational {
    num_traits::pow(base.clone(), usize::try_from(exponent).expect("small"))
}

/// The exact maximum of the resampling payoff over every k >= 1 (module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct PayoffPeak {
    /// The first k whose increment `P(k+1) - P(k)` is at most 0: the payoff's largest value
    /// over all k >= 1 (the first, if two tie).
    pub best: u64,
    /// `P(best + 1) - P(best)` (at most 0).
    pub increment: BigRational,
    /// The largest `q` of a gaining type minus the smallest `q` of a losing type (negative:
    /// the tail condition holds).
    pub tail_gap: BigRational,
}

/// `P(k+1) - P(k) = sum_j W_j (a_j + V b_j) q_j^k` of the resampling payoff.
///
/// # Examples
///
/// ```
/// use pathology::studies::inference::sampling::payoff_increment;
/// use pathology::analytic::inference::{Tasks, resample};
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let tasks = Tasks::parse("0.87:0.58,0.13:0.42").unwrap();
/// let r = resample::<num_rational::BigRational>(&tasks, &q("1"), &q("0.75"), &q("-1"), &[2, 3]).unwrap();
/// let step = &r.rows[1].payoff.value - &r.rows[0].payoff.value;
/// assert_eq!(payoff_increment(&r.types, &q("-1"), 2), step);
/// ```
pub fn payoff_increment(types: &[TypeRates], v: &BigRational, k: u64) -> BigRational {
    let one = BigRational::one();
    types
        .iter()
        .map(|t| {
            let q = &one - &t.accept_correct - &t.accept_wrong;
            &t.share * (&t.accept_correct + v * &t.accept_wrong) * power(&q, k)
        })
        .sum()
}

/// The payoff's exact maximum over all k >= 1 when the tail condition holds (module docs);
/// `None` when no type loses from more samples, none gains, or the condition fails.
///
/// # Errors
///
/// [`Error::InvalidArgument`] if no increment is at most 0 within 100,000 steps (the tail
/// condition guarantees one is; this only bounds the loop).
pub fn payoff_peak(types: &[TypeRates], v: &BigRational) -> Result<Option<PayoffPeak>> {
    let one = BigRational::one();
    let gain = |t: &TypeRates| &t.accept_correct + v * &t.accept_wrong;
    let q = |t: &TypeRates| &one - &t.accept_correct - &t.accept_wrong;
    let gaining: Vec<BigRational> = types
        .iter()
        .filter(|t| gain(t).is_positive())
        .map(q)
        .collect();
    let losing: Vec<BigRational> = types
        .iter()
        .filter(|t| gain(t).is_negative())
        .map(q)
        .collect();
    let (Some(top), Some(bottom)) = (gaining.iter().max(), losing.iter().min()) else {
        return Ok(None);
    };
    let tail_gap = top - bottom;
    if !tail_gap.is_negative() || !bottom.is_positive() {
        return Ok(None);
    }
    for k in 1..=MAX_SCAN {
        let increment = payoff_increment(types, v, k);
        if !increment.is_positive() {
            return Ok(Some(PayoffPeak {
                best: k,
                increment,
                tail_gap,
            }));
        }
    }
    Err(Error::invalid(
        "the resampling payoff",
        "an increment at most 0 within 100000 samples",
        "none found",
    ))
}

/// The false-positive value V at which the resampling payoff's first increment
/// `P(2) - P(1) = sum_j W_j (a_j + V b_j) q_j` is 0: `-sum W a q / sum W b q`. Under the tail
/// condition the payoff's maximum over every k >= 1 is at k = 1 exactly when V is at most
/// this (at it, P(2) ties P(1)); `None` when no type accepts a wrong sample and is ever
/// rejected (the increment does not depend on V).
///
/// # Examples
///
/// ```
/// use pathology::studies::inference::sampling::payoff_falls_from_one;
/// use pathology::analytic::inference::{Tasks, resample};
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let tasks = Tasks::parse("0.87:0.58,0.13:0.42").unwrap();
/// let r = resample::<num_rational::BigRational>(&tasks, &q("1"), &q("0.75"), &q("0"), &[1]).unwrap();
/// assert_eq!(payoff_falls_from_one(&r.types), Some(q("-156/113")));
/// ```
pub fn payoff_falls_from_one(types: &[TypeRates]) -> Option<BigRational> {
    let one = BigRational::one();
    let (mut gain, mut loss) = (BigRational::zero(), BigRational::zero());
    for t in types {
        let q = &one - &t.accept_correct - &t.accept_wrong;
        gain += &t.share * &t.accept_correct * &q;
        loss += &t.share * &t.accept_wrong * &q;
    }
    (!loss.is_zero()).then(|| -gain / loss)
}

/// The study: Stroebl et al.'s resampling, the voting mix and the voting phase diagram.
#[derive(Debug, Clone)]
pub struct Sampling {
    /// Stroebl et al.'s setting at V = -1, k = 1..=30, exact.
    pub resample: Resample<BigRational>,
    /// The false-positive value V.
    pub value: BigRational,
    /// The payoff's maximum over every k.
    pub peak: Option<PayoffPeak>,
    /// The mix's voting accuracy at k = 1..=101 (index k - 1), exact.
    pub vote: Vec<BigRational>,
    /// The phase diagram.
    pub phase: PhaseDiagram,
    /// Stroebl et al.'s notebook reward curve beside the expected payoff.
    pub notebook: Vec<NotebookCurve>,
}

impl Sampling {
    /// Computes the study (about 0.1 s).
    ///
    /// # Errors
    ///
    /// As the calculators (never, for the study's constants).
    pub fn compute() -> Result<Sampling> {
        let tasks = Tasks::parse(STROEBL_TASKS)?;
        let value = constant(FALSE_POSITIVE_VALUE);
        let ks: Vec<u64> = (1..=RESAMPLE_MAX_K).collect();
        let resample = resample::<BigRational>(
            &tasks,
            &constant(STROEBL_COMPLETENESS),
            &constant(STROEBL_SOUNDNESS),
            &value,
            &ks,
        )?;
        let peak = payoff_peak(&resample.types, &value)?;
        let one_wrong = [BigRational::one()];
        let ks: Vec<u64> = (1..=VOTE_MAX_K).collect();
        let vote = vote::<BigRational>(&Tasks::parse(VOTE_MIX)?, &one_wrong, &ks)?
            .rows
            .into_iter()
            .map(|r| r.correct.value)
            .collect();
        Ok(Sampling {
            resample,
            value,
            peak,
            vote,
            phase: PhaseDiagram::compute()?,
            notebook: notebook::compute()?,
        })
    }

    fn payoff(&self, k: u64) -> &BigRational {
        &self.resample.rows[k as usize - 1].payoff.value
    }

    /// The voting accuracy of the mix at k.
    pub fn vote_at(&self, k: u64) -> &BigRational {
        &self.vote[k as usize - 1]
    }

    /// The mix's best odd k on 1..=[`VOTE_MAX_K`] (the first of the largest).
    pub fn vote_best_odd(&self) -> u64 {
        let mut best = 1;
        for k in (1..=VOTE_MAX_K).step_by(2) {
            if self.vote_at(k) > self.vote_at(best) {
                best = k;
            }
        }
        best
    }

    /// The claims, each the sign of an exact rational:
    ///
    /// - Stroebl et al.'s four printed rates equal the engine's (effect: engine minus printed,
    ///   agreement within 0).
    /// - The accuracy ceiling is below 1; at V = -1 the payoff peaks at a finite k (it rises
    ///   to the peak, the increment past it is negative, the tail condition holds, the peak
    ///   beats the limit).
    /// - Voting on the mix rises from k = 1 to its best odd k and falls after it; the best
    ///   odd k is the largest on the range; the increments stay negative beyond the range
    ///   (`x_e - x_h < 0`); many votes still beat one (`W_e - P(1) > 0`).
    pub fn claim_families(&self) -> Vec<ClaimFamily> {
        let exact = |r: BigRational| Evidence::Exact(Cell::Exact(r));
        let mut rates = ClaimFamily::new("Stroebl et al.: the printed rates", 0.05);
        for (name, t, rate, printed) in STROEBL_PRINTED {
            let rates_of = &self.resample.types[t];
            let computed = rate.of(rates_of);
            rates.push(Claim::new(
                format!("{name} = {printed} (R = {})", short(&rates_of.success)),
                "Stroebl et al., notebook",
                format!("{name} computed - {printed}"),
                Direction::Within { margin: 0.0 },
                exact(computed - constant(printed)),
            ));
        }
        let one = BigRational::one();
        let v = short(&self.value);
        let mut verifier = ClaimFamily::new("Stroebl et al.: an imperfect verifier", 0.05);
        verifier.push(Claim::new(
            "false positives cap accuracy: the ceiling is below 1",
            "Stroebl et al. 2024",
            "lim P_correct - 1",
            Direction::Less,
            exact(&self.resample.limit.correct.value - &one),
        ));
        match &self.peak {
            Some(peak) => {
                let best = peak.best;
                let limit = &self.resample.limit.payoff.value;
                if best > 1 {
                    verifier.push(Claim::new(
                        format!("V = {v}: the payoff rises from k = 1 to k = {best}"),
                        "Stroebl et al. 2024",
                        format!("payoff({best}) - payoff(1)"),
                        Direction::Greater,
                        exact(self.payoff(best) - self.payoff(1)),
                    ));
                }
                verifier.push(Claim::new(
                    format!("V = {v}: the payoff falls past k = {best}"),
                    "Stroebl et al. 2024",
                    format!("payoff({}) - payoff({best})", best + 1),
                    Direction::Less,
                    exact(peak.increment.clone()),
                ));
                verifier.push(Claim::new(
                    format!("V = {v}: it keeps falling at every k > {best} (tail condition)"),
                    "this tool",
                    "max q of gaining types - min q of losing types",
                    Direction::Less,
                    exact(peak.tail_gap.clone()),
                ));
                verifier.push(Claim::new(
                    format!("V = {v}: the peak at k = {best} beats unlimited resampling"),
                    "Stroebl et al. 2024",
                    format!("payoff({best}) - lim payoff"),
                    Direction::Greater,
                    exact(self.payoff(best) - limit),
                ));
            }
            None => verifier.push(Claim::new(
                format!("V = {v}: the payoff peaks at a finite k"),
                "Stroebl et al. 2024",
                "payoff(k*) - lim payoff",
                Direction::Greater,
                Evidence::NotTestable("the tail condition does not hold here".to_string()),
            )),
        }
        let best = self.vote_best_odd();
        let mix = Tasks::parse(VOTE_MIX).expect("a constant");
        let (easy, hard) = (&mix.types()[0], &mix.types()[1]);
        let x = |p: &BigRational| p * (&one - p);
        let others = (1..=VOTE_MAX_K)
            .step_by(2)
            .filter(|&k| k != best)
            .map(|k| self.vote_at(k))
            .max()
            .expect("more than one odd k");
        let every_other = (1..=VOTE_MAX_K)
            .filter(|&k| k != best && k != best + 1)
            .map(|k| self.vote_at(k))
            .max()
            .expect("more than two k");
        // The mix and its best k are this tool's choice, put in Chen et al.'s setting (two
        // query types, one wrong answer); the paper states neither.
        let mut voting = ClaimFamily::new(VOTE_FAMILY, 0.05);
        let in_chen = "this tool's mix, in Chen et al.'s setting (arXiv 2403.02419)";
        voting.push(Claim::new(
            format!("accuracy rises from k = 1 to k = {best}"),
            in_chen,
            format!("P({best}) - P(1)"),
            Direction::Greater,
            exact(self.vote_at(best) - self.vote_at(1)),
        ));
        voting.push(Claim::new(
            format!("accuracy falls after k = {best}"),
            in_chen,
            format!("P({}) - P({best})", best + 2),
            Direction::Less,
            exact(self.vote_at(best + 2) - self.vote_at(best)),
        ));
        voting.push(Claim::new(
            format!("k = {best} is the best odd k on 1..{VOTE_MAX_K}"),
            "this tool",
            format!("P({best}) - max P(odd k != {best})"),
            Direction::Greater,
            exact(self.vote_at(best) - others),
        ));
        voting.push(Claim::new(
            format!(
                "k = {} ties k = {best} (an even k adds only a tie)",
                best + 1
            ),
            "this tool",
            format!("P({}) - P({best})", best + 1),
            Direction::Within { margin: 0.0 },
            exact(self.vote_at(best + 1) - self.vote_at(best)),
        ));
        voting.push(Claim::new(
            format!(
                "k = {best} and {} are the best of every k on 1..{VOTE_MAX_K}",
                best + 1
            ),
            "this tool",
            format!("P({best}) - max P(k != {best}, {})", best + 1),
            Direction::Greater,
            exact(self.vote_at(best) - every_other),
        ));
        voting.push(Claim::new(
            format!("accuracy falls at every odd k > {best}, beyond the range too"),
            "this tool",
            "p q of the easy type - p q of the hard type",
            Direction::Less,
            exact(x(&easy.success) - x(&hard.success)),
        ));
        voting.push(Claim::new(
            "many votes still beat one: the limit (the easy share) is above P(1)",
            "this tool",
            "W_easy - P(1)",
            Direction::Greater,
            exact(&easy.share - self.vote_at(1)),
        ));
        let mut families = vec![rates, verifier, voting];
        families.extend(notebook::claim_families(&self.notebook));
        families
    }

    /// The report: tables `rates`, `resample`, `boundary`, `vote`, `phase`, `notebook`, `claims` and
    /// `claims_summary`, every number an exact rational.
    pub fn report(&self) -> Report {
        let families = self.claim_families();
        let real = |name: &str| Column::new(name, Kind::Real);
        let mut rates = Table::new(
            "rates",
            "Stroebl et al.'s printed rates beside the engine's exact per-sample rates (C = 1, S = 0.75)",
            vec![
                Column::key("rate", Kind::Text),
                Column::key("R", Kind::Text),
                real("printed"),
                real("computed"),
            ],
        );
        for (name, t, rate, printed) in STROEBL_PRINTED {
            let rates_of = &self.resample.types[t];
            let computed = rate.of(rates_of);
            rates.push(vec![
                Cell::text(name),
                Cell::text(short(&rates_of.success)),
                Cell::Exact(constant(printed)),
                Cell::Exact(computed),
            ]);
        }
        let mut curve = Table::new(
            "resample",
            &format!(
                "Resampling in Stroebl et al.'s setting (tasks {STROEBL_TASKS}, C = 1, S = 0.75): the first accepted of up to k samples, payoff with V = {}",
                short(&self.value)
            ),
            vec![
                Column::key("k", Kind::Text),
                real("P_correct"),
                real("P_false_positive"),
                real("P_none"),
                real("payoff"),
            ],
        );
        for row in self.resample.rows.iter().chain([&self.resample.limit]) {
            curve.push(vec![
                Cell::text(row.k.map_or("infinity".to_string(), |k| k.to_string())),
                Cell::Exact(row.correct.value.clone()),
                Cell::Exact(row.false_positive.value.clone()),
                Cell::Exact(row.none.value.clone()),
                Cell::Exact(row.payoff.value.clone()),
            ]);
        }
        let mut boundary = Table::new(
            "boundary",
            "Per task type: a = R C (correct, accepted), b = (1 - R)(1 - S) (wrong, accepted), q = 1 - a - b; the payoff's increment is sum W (a + V b) q^k, so more samples lower a type's payoff exactly when V < -a/b",
            vec![
                Column::key("R", Kind::Text),
                Column::key("W", Kind::Text),
                real("a"),
                real("b"),
                real("q"),
                real("ceiling a/(a+b)"),
                real("-a/b"),
                real("a + V b"),
            ],
        );
        let one = BigRational::one();
        for t in &self.resample.types {
            let q = &one - &t.accept_correct - &t.accept_wrong;
            boundary.push(vec![
                Cell::text(short(&t.success)),
                Cell::text(short(&t.share)),
                Cell::Exact(t.accept_correct.clone()),
                Cell::Exact(t.accept_wrong.clone()),
                Cell::Exact(q),
                t.ceiling.clone().map_or(Cell::Empty, Cell::Exact),
                if t.accept_wrong.is_zero() {
                    Cell::Empty
                } else {
                    Cell::Exact(-&t.accept_correct / &t.accept_wrong)
                },
                Cell::Exact(&t.accept_correct + &self.value * &t.accept_wrong),
            ]);
        }
        let mut vote = Table::new(
            "vote",
            &format!(
                "Majority voting with one wrong answer on the mix {VOTE_MIX} (60% easy at R = 0.7, 40% hard at R = 0.4), k = 1..{VOTE_MAX_K}"
            ),
            vec![Column::key("k", Kind::Integer), real("P_correct")],
        );
        for k in 1..=VOTE_MAX_K {
            vote.push(vec![Cell::int(k), Cell::Exact(self.vote_at(k).clone())]);
        }
        let peak = self
            .peak
            .as_ref()
            .map_or("no finite peak by the tail condition".to_string(), |p| {
                format!("its maximum over every k >= 1 is at k = {}", p.best)
            });
        let (types, v) = (&self.resample.types, short(&self.value));
        let hurt_below = types
            .iter()
            .filter(|t| !t.accept_wrong.is_zero())
            .map(|t| -&t.accept_correct / &t.accept_wrong)
            .min();
        let help_above = types
            .iter()
            .filter(|t| !t.accept_wrong.is_zero())
            .map(|t| -&t.accept_correct / &t.accept_wrong)
            .max();
        let mut report = Report::new(
            "reproduce",
            "Test-time search: resampling with an imperfect verifier (Stroebl et al.) and majority voting (Chen et al.), exact",
        )
        .mode("exact")
        .with_table(rates)
        .with_table(curve)
        .with_table(boundary)
        .with_table(vote)
        .with_table(self.phase.table())
        .with_table(notebook::table(&self.notebook))
        .with_table(crate::report::claims::claims_table(&families))
        .with_table(crate::report::claims::summary_table(&families))
        .note(format!(
            "every number is an exact rational (decimals are the exact values correctly rounded); resampling's payoff with V = {v}: {peak}"
        ));
        if let (Some(low), Some(high)) = (hurt_below, help_above) {
            let from_one = payoff_falls_from_one(types).filter(|_| self.peak.is_some());
            report = report.note(format!(
                "more samples lower the payoff at every k when V < {} (every type loses), and raise it at every k when V > {} (every type gains); between, {}",
                decimal(&low),
                decimal(&high),
                match from_one {
                    Some(v1) => format!(
                        "the gaining type's q is below the losing type's here, so the payoff's increments change sign at most once: one peak over k >= 1, at k = 1 (the payoff falls from k = 1 on) exactly when V <= {v1} = {} (P(2) - P(1) = sum W (a + V b) q <= 0; at V = {v1} P(2) ties P(1)), at some k >= 2 when V > {v1}",
                        decimal(&v1)
                    ),
                    None => "the tail condition does not hold here".to_string(),
                }
            ));
        }
        report.note(self.phase.note())
    }

    /// The figures: `inference_sampling_resample` (P_correct, P_false_positive and P_none
    /// against k with the ceiling; the payoff with its best k), `inference_sampling_vote` (the
    /// mix's accuracy against odd k with its best k and its limit).
    pub fn panels(&self) -> Vec<(String, Vec<Panel>)> {
        let f = rational_to_f64;
        let exact = |x: f64, y: f64| ErrorPoint {
            x,
            y,
            low: y,
            high: y,
        };
        let rows = &self.resample.rows;
        let series = |label: &str, pick: &dyn Fn(usize) -> f64| ErrorSeries {
            label: label.to_string(),
            points: rows
                .iter()
                .enumerate()
                .map(|(i, r)| exact(r.k.unwrap_or(0) as f64, pick(i)))
                .collect(),
        };
        let ceiling = f(&self.resample.limit.correct.value);
        let k_range = (0.0, RESAMPLE_MAX_K as f64 + 1.0);
        let probabilities = Panel {
            axes: Axes {
                title: format!(
                    "Stroebl et al.: tasks {STROEBL_TASKS}, C = 1, S = 0.75 (dashed: the ceiling {ceiling:.4})"
                ),
                x_label: "k (most samples shown to the verifier)".to_string(),
                y_label: "probability".to_string(),
                x_range: k_range,
                x_scale: Scale::Linear,
                // Up to 1: the legend fits above the curves, which stay below the ceiling.
                y_range: (0.0, 1.0),
            },
            series: vec![
                series("P_correct", &|i| f(&rows[i].correct.value)),
                series("P_false_positive", &|i| f(&rows[i].false_positive.value)),
                series("P_none", &|i| f(&rows[i].none.value)),
            ],
            legend: LegendPosition::UpperRight,
            reference: Some(ceiling),
        };
        let limit = f(&self.resample.limit.payoff.value);
        let mut payoff_series = vec![series(
            &format!("payoff, V = {}", short(&self.value)),
            &|i| f(&rows[i].payoff.value),
        )];
        let payoffs: Vec<f64> = rows.iter().map(|r| f(&r.payoff.value)).collect();
        let (low, high) = payoffs
            .iter()
            .fold((limit, limit), |(l, h), &y| (l.min(y), h.max(y)));
        let pad = 0.1 * (high - low).max(0.01);
        if let Some(peak) = &self.peak {
            // A vertical mark from the axis up to the best value.
            let (x, y) = (peak.best as f64, f(self.payoff(peak.best)));
            payoff_series.push(ErrorSeries {
                label: format!("best k = {}", peak.best),
                points: vec![exact(x, low - 6.0 * pad), exact(x, y)],
            });
        }
        let payoff = Panel {
            axes: Axes {
                title: format!(
                    "payoff P_correct + V P_false_positive (dashed: its limit {limit:.4})"
                ),
                x_label: "k (most samples shown to the verifier)".to_string(),
                y_label: "expected payoff".to_string(),
                x_range: k_range,
                x_scale: Scale::Linear,
                y_range: (low - 6.0 * pad, high + 2.0 * pad),
            },
            series: payoff_series,
            legend: LegendPosition::LowerRight,
            reference: Some(limit),
        };
        let best = self.vote_best_odd();
        let odd: Vec<u64> = (1..=VOTE_MAX_K).step_by(2).collect();
        let mix = Tasks::parse(VOTE_MIX).expect("a constant");
        let vote_limit = f(&mix.types()[0].share);
        let values: Vec<f64> = odd.iter().map(|&k| f(self.vote_at(k))).collect();
        let (low, high) = values
            .iter()
            .fold((vote_limit, vote_limit), |(l, h), &y| (l.min(y), h.max(y)));
        let pad = 0.1 * (high - low).max(0.01);
        let vote = Panel {
            axes: Axes {
                title: "vote on this tool's mix in Chen et al.'s setting: 60% easy (R = 0.7), 40% hard (R = 0.4)"
                    .to_string(),
                x_label: format!("k (votes, odd); dashed: the limit W_easy = {vote_limit}"),
                y_label: "P_correct".to_string(),
                x_range: (0.0, VOTE_MAX_K as f64 + 2.0),
                x_scale: Scale::Linear,
                y_range: (low - 6.0 * pad, high + 2.0 * pad),
            },
            series: vec![
                ErrorSeries {
                    label: "P_correct of the mix".to_string(),
                    points: odd
                        .iter()
                        .zip(&values)
                        .map(|(&k, &y)| exact(k as f64, y))
                        .collect(),
                },
                ErrorSeries {
                    label: format!("best odd k = {best}"),
                    points: vec![
                        exact(best as f64, low - 6.0 * pad),
                        exact(best as f64, f(self.vote_at(best))),
                    ],
                },
            ],
            legend: LegendPosition::LowerRight,
            reference: Some(vote_limit),
        };
        vec![
            (
                "inference_sampling_resample".to_string(),
                vec![probabilities, payoff],
            ),
            ("inference_sampling_vote".to_string(), vec![vote]),
        ]
    }
}

/// `0.87` for 87/100, else the fraction.
fn short(value: &BigRational) -> String {
    crate::numeric::number::short_text(value)
}

/// A rational to four decimals, correctly rounded (for notes).
fn decimal(value: &BigRational) -> String {
    crate::numeric::number::format_decimal(value, 4)
}

#[cfg(test)]
mod tests;
