//! The [`Report`]s of `pathology inference`: one request type ([`InferenceRequest`], plain
//! data) whose [`InferenceRequest::report`] computes and lays out each strategy, so that the
//! command only parses its arguments.
//!
//! Tables: the main one (`pass_at_k`, `resample`, `best_of_n`, `vote`, `lookahead`,
//! `knockout` with its own `best`, `league` and `judge`, module `knockout_report`; its
//! index column `k`, `n` or `d`, then `P_correct` and, where the strategy can end with a
//! false answer or none, `P_false_positive` and `P_none`), `limit` (resample and best-of-n:
//! the values as k or n grows), `types` (resample: each task type's per-sample rates).

use num_rational::BigRational;
use num_traits::Zero;

mod normal;
mod weighted_normal;

use super::compute::{EqualCompute, Spend, count, equal_compute, whole_or_exact};
use super::{LookaheadSearch, Prices, Tasks, beam, best_of_n, lookahead_mixed, pass_at_k, vote};
use crate::analytic::distributions::Bounded;
use crate::analytic::pathsum::Law;
use crate::error::Result;
use crate::numeric::number::{Probability, short_text};
use crate::report::{Cell, Column, Kind, Report, Table, printed_error_bound};

/// What `pathology inference` computes.
#[derive(Debug, Clone, PartialEq)]
pub enum InferenceRequest {
    /// Pass-at-k.
    PassAtK {
        /// The task mix.
        tasks: Tasks,
        /// The list of k.
        ks: Vec<u64>,
    },
    /// Resampling with an imperfect verifier.
    Resample {
        /// The task mix.
        tasks: Tasks,
        /// C.
        completeness: BigRational,
        /// S.
        soundness: BigRational,
        /// V, the payoff of a false positive.
        false_positive_value: BigRational,
        /// U, the payoff of no answer (`--abstain-value`, default 0).
        abstain_value: BigRational,
        /// The list of k.
        ks: Vec<u64>,
    },
    /// Best-of-n.
    BestOfN {
        /// The task mix.
        tasks: Tasks,
        /// The score law of a correct sample.
        score_correct: Law,
        /// The score law of a wrong sample.
        score_wrong: Law,
        /// The list of n.
        ns: Vec<u64>,
    },
    /// Majority voting.
    Vote {
        /// The task mix.
        tasks: Tasks,
        /// The wrong answers' shares U.
        wrong_answers: Vec<BigRational>,
        /// The list of k.
        ks: Vec<u64>,
        /// Reward-weighted voting (`--weighted`): the score laws of a correct and a wrong
        /// sample; an answer's weight is the sum of its samples' scores.
        scores: Option<(Law, Law)>,
    },
    /// Verifier-guided lookahead.
    Lookahead {
        /// The search model (its `step_correct` is the mix's first Q; every type of `mix` is
        /// computed with its own).
        search: LookaheadSearch,
        /// The difficulty mix of step probabilities Q:W.
        mix: Tasks,
        /// The list of depths.
        depths: Vec<u32>,
        /// The prices of a generated step and a verifier call.
        prices: Prices,
    },
    /// Beam search guided by a process reward model.
    Beam {
        /// The search model (as lookahead's).
        search: LookaheadSearch,
        /// The difficulty mix of step probabilities Q:W.
        mix: Tasks,
        /// The list of beam widths M.
        widths: Vec<u32>,
        /// The prices of a generated step and a verifier call.
        prices: Prices,
    },
    /// A knockout tournament of candidates judged pairwise (and the league beside it).
    Knockout {
        /// The setting.
        setting: super::KnockoutSetting,
    },
}

/// The knockout setting from its options by name (`tasks`, `judge_correct`, `judge_calls`,
/// `rounds`, optionally `league`, `cost_sample`, `cost_verifier`), as the command line
/// reads them (for `pathology merge`, which reads them from a manifest).
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming the missing or malformed option.
pub fn knockout_setting(text: &dyn Fn(&str) -> Option<String>) -> Result<super::KnockoutSetting> {
    super::knockout_report::setting_from(text)
}

/// The names of the tables each subcommand's report has.
pub fn table_names(subcommand: &str) -> &'static [&'static str] {
    match subcommand {
        "pass-at-k" => &["pass_at_k"],
        "resample" => &["resample", "limit", "types"],
        "best-of-n" => &["best_of_n", "limit"],
        "vote" => &["vote"],
        "knockout" => &super::knockout_report::TABLES,
        "beam" => &["beam"],
        "frontier" => &super::frontier_report::TABLES,
        _ => &["lookahead"],
    }
}

fn cell<P: Probability>(b: &Bounded<P>) -> Cell {
    match b.value.exact_value() {
        Some(exact) => Cell::Exact(exact),
        None => Cell::Bounded {
            value: b.value.to_f64(),
            bound: b.bound,
        },
    }
}

fn exact(r: &BigRational) -> Cell {
    Cell::Exact(r.clone())
}

fn real(name: &str, label: &str) -> Column {
    Column::new(name, Kind::Real).labelled(label)
}

/// The f64 note: the largest bound of the report's values.
fn bound_note<P: Probability>(report: Report, bounds: impl IntoIterator<Item = f64>) -> Report {
    if P::EXACT {
        // The manifest's command line reruns it: with --exact.
        return report.param("exact", true).mode("exact");
    }
    let largest = bounds.into_iter().fold(0.0, f64::max);
    report.mode("f64").note(format!(
        "f64: every value is within {} of the exact value of the model at the given \
         parameters (rigorous: outward-rounded interval arithmetic, or the exact value \
         rounded once; each value's own bound is its CSV/JSON column *_error_bound)",
        printed_error_bound(0.0, largest)
    ))
}

pub(crate) use super::list_text;
/// The first budget of the list (smallest first) at which `P_correct` is below one sample's
/// accuracy `sum_j W_j R_j`: exactly, or in `f64` only when the value plus its bound is
/// below it (certainly below). `name` is the list's letter.
fn first_below<'a, P: Probability + 'a>(
    tasks: &Tasks,
    name: &str,
    rows: impl Iterator<Item = (u64, &'a Bounded<P>)>,
) -> String {
    let one: BigRational = tasks.types().iter().map(|t| &t.success * &t.share).sum();
    let below = |b: &Bounded<P>| match b.value.exact_value() {
        Some(v) => v < one,
        None => {
            let upper = BigRational::from_float(b.value.to_f64()).expect("finite")
                + BigRational::from_float(b.bound).expect("finite");
            upper < one
        }
    };
    let mut rows: Vec<(u64, &Bounded<P>)> = rows.collect();
    rows.sort_by_key(|(k, _)| *k);
    let accuracy = format!("one sample's accuracy (sum W R = {})", short_text(&one));
    match rows.iter().find(|(_, b)| below(b)) {
        Some((k, _)) => {
            format!("more samples first fall below {accuracy} at {name} = {k} on the list")
        }
        None => format!("at no {name} of the list is P_correct below {accuracy}"),
    }
}

/// With `--weights`: the weights' sum and the shares they became.
fn weights_note(tasks: &Tasks) -> Option<String> {
    let sum = tasks.weights_sum()?;
    Some(format!(
        "--weights: the weights W of --tasks sum to {} and each was divided by that sum, \
         exactly: the shares are {}",
        short_text(sum),
        tasks
            .types()
            .iter()
            .map(|t| short_text(&t.share))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

impl InferenceRequest {
    /// The subcommand's name.
    pub fn subcommand(&self) -> &'static str {
        match self {
            InferenceRequest::PassAtK { .. } => "pass-at-k",
            InferenceRequest::Resample { .. } => "resample",
            InferenceRequest::BestOfN { .. } => "best-of-n",
            InferenceRequest::Vote { .. } => "vote",
            InferenceRequest::Lookahead { .. } => "lookahead",
            InferenceRequest::Knockout { .. } => "knockout",
            InferenceRequest::Beam { .. } => "beam",
        }
    }

    /// The request of `pathology inference SUBCOMMAND` from its options as `(name, value)`
    /// pairs (names as the options', `_` for `-`, without the dashes; `growth`,
    /// `false_positive_value` and `wrong_answers` may be left out for their defaults).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::report::InferenceRequest;
    /// let request = InferenceRequest::from_options("vote", &[("tasks", "0.7:0.6,0.4:0.4"), ("k", "1..3")]).unwrap();
    /// assert_eq!(request.subcommand(), "vote");
    /// assert!(InferenceRequest::from_options("vote", &[("tasks", "0.7")]).unwrap_err().to_string().contains("--k"));
    /// ```
    ///
    /// # Errors
    ///
    /// [`crate::Error::InvalidArgument`] naming a missing or malformed option, or an unknown
    /// subcommand; the checks of the options' parsers.
    pub fn from_options(subcommand: &str, options: &[(&str, &str)]) -> Result<Self> {
        use super::{MAX_COUNT, parse_list, parse_wrong_answers};
        use crate::error::Error;
        use crate::numeric::number::parse_rational;
        let text = |name: &str| options.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        let option = |name: &str| format!("--{}", name.replace('_', "-"));
        let given = |name: &str| {
            text(name).ok_or_else(|| Error::invalid(&option(name), "given", "nothing"))
        };
        let rational = |name: &str, default: &str| {
            parse_rational(text(name).unwrap_or(default))
                .map_err(|e| Error::invalid(&option(name), "a rational or decimal", e))
        };
        let weights = matches!(text("weights"), Some("true"));
        let tasks = || Tasks::parse_with(given("tasks")?, weights);
        let list = |name: &str, max: u64| parse_list(&option(name), given(name)?, max);
        Ok(match subcommand {
            "pass-at-k" => InferenceRequest::PassAtK {
                tasks: tasks()?,
                ks: list("k", MAX_COUNT)?,
            },
            "resample" => InferenceRequest::Resample {
                tasks: tasks()?,
                completeness: rational("completeness", "")?,
                soundness: rational("soundness", "")?,
                false_positive_value: rational("false_positive_value", "0")?,
                abstain_value: rational("abstain_value", "0")?,
                ks: list("k", MAX_COUNT)?,
            },
            "best-of-n" => InferenceRequest::BestOfN {
                tasks: tasks()?,
                score_correct: Law::parse("--score-correct", given("score_correct")?)?,
                score_wrong: Law::parse("--score-wrong", given("score_wrong")?)?,
                ns: match (text("n"), text("k")) {
                    (Some(_), Some(_)) => {
                        return Err(Error::invalid(
                            "--k",
                            "not given with --n (the two are the same list; give one)",
                            "both",
                        ));
                    }
                    (None, Some(_)) => list("k", MAX_COUNT)?,
                    _ => list("n", MAX_COUNT)?,
                },
            },
            "vote" => InferenceRequest::Vote {
                tasks: tasks()?,
                wrong_answers: parse_wrong_answers(text("wrong_answers").unwrap_or("1"))?,
                ks: list("k", MAX_COUNT)?,
                scores: match (
                    matches!(text("weighted"), Some("true")),
                    text("score_correct"),
                    text("score_wrong"),
                ) {
                    (false, None, None) => None,
                    (true, Some(c), Some(w)) => Some((
                        Law::parse("--score-correct", c)?,
                        Law::parse("--score-wrong", w)?,
                    )),
                    _ => {
                        return Err(Error::invalid(
                            "--weighted",
                            "given together with --score-correct and --score-wrong",
                            "a partial set",
                        ));
                    }
                },
            },
            "lookahead" | "beam" => {
                let whole = |name: &str| {
                    let value = given(name)?;
                    value
                        .parse::<u32>()
                        .map_err(|_| Error::invalid(&option(name), "a whole number", value))
                };
                let steps = whole("steps")?;
                let mix = Tasks::parse_steps(given("step_correct")?)?;
                let search = LookaheadSearch {
                    branching: whole("branching")?,
                    steps,
                    step_correct: mix.types()[0].success.clone(),
                    noise: Law::parse("--noise", given("noise")?)?,
                    growth: rational("growth", "0")?,
                };
                let prices = Prices {
                    sample: rational("cost_sample", "1")?,
                    verifier: rational("cost_verifier", "1")?,
                };
                prices.check()?;
                if subcommand == "beam" {
                    let widths: Vec<u32> = list("beams", u64::from(super::MAX_BEAMS))?
                        .into_iter()
                        .map(|m| m as u32)
                        .collect();
                    super::check_beams(&search, &widths)?;
                    InferenceRequest::Beam {
                        search,
                        mix,
                        widths,
                        prices,
                    }
                } else {
                    let depths: Vec<u32> = list("depth", u64::from(steps))?
                        .into_iter()
                        .map(|d| d as u32)
                        .collect();
                    search.check(&depths)?;
                    InferenceRequest::Lookahead {
                        search,
                        mix,
                        depths,
                        prices,
                    }
                }
            }
            "knockout" => InferenceRequest::Knockout {
                setting: super::knockout_report::setting_from(&|name: &str| {
                    text(name).map(str::to_string)
                })?,
            },
            other => {
                return Err(Error::invalid(
                    "the strategy",
                    "pass-at-k, resample, best-of-n, vote, lookahead, knockout or beam",
                    other,
                ));
            }
        })
    }

    /// What [`Self::report`] would cost, before any work: for a caller that adds up many
    /// requests' costs first (`pathology validate`).
    ///
    /// # Errors
    ///
    /// As the strategy's checks of its parameters.
    pub(crate) fn estimate(&self, exact: bool) -> Result<super::Estimate> {
        match self {
            InferenceRequest::PassAtK { tasks, ks } => {
                Ok(super::resample::pass_at_k_estimate(tasks, ks, exact))
            }
            InferenceRequest::Resample {
                tasks,
                completeness,
                soundness,
                ks,
                ..
            } => super::resample::resample_estimate(tasks, completeness, soundness, ks, exact),
            InferenceRequest::BestOfN {
                tasks,
                score_correct,
                score_wrong,
                ns,
            } => super::best_of_n::best_of_n_estimate(tasks, score_correct, score_wrong, ns, exact),
            InferenceRequest::Vote {
                tasks,
                wrong_answers,
                ks,
                scores,
            } => match scores {
                None => super::vote::vote_estimate(tasks, wrong_answers, ks, exact),
                Some((c, w)) => super::vote::weighted_estimate(tasks, wrong_answers, c, w, ks),
            },
            InferenceRequest::Knockout { setting } => setting.estimate(exact),
            InferenceRequest::Lookahead {
                search,
                mix,
                depths,
                ..
            } => super::lookahead::mixed_estimate(search, mix, depths, exact),
            InferenceRequest::Beam {
                search,
                mix,
                widths,
                ..
            } => super::beam::beam_estimate(search, mix, widths, exact),
        }
    }

    /// Computes the report in exact rationals (`exact`) or `f64` with rigorous bounds.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::Tasks;
    /// use pathology::analytic::inference::report::InferenceRequest;
    /// let request = InferenceRequest::PassAtK { tasks: Tasks::parse("0.5").unwrap(), ks: vec![1, 2] };
    /// let report = request.report(true).unwrap();
    /// assert_eq!(report.tables[0].name, "pass_at_k");
    /// // k = 2 with R = 1/2: 1 - (1/2)^2 = 3/4, exactly.
    /// match &report.tables[0].rows[1][1] {
    ///     pathology::report::Cell::Exact(q) => assert_eq!(q.to_string(), "3/4"),
    ///     other => panic!("{other:?}"),
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// As the strategy's function ([`pass_at_k`], [`resample`](super::resample),
    /// [`best_of_n`], [`vote`], [`lookahead_mixed`], [`beam`]).
    pub fn report(&self, exact: bool) -> Result<Report> {
        self.report_with(exact, &Prices::unit(), false)
    }

    /// [`Self::report`] with the prices of a sample and of a verifier call for the `cost`
    /// column of pass-at-k, resampling, best-of-n and voting (lookahead and beam search carry
    /// their own prices; knockout its own options).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::{Prices, Tasks};
    /// use pathology::analytic::inference::report::InferenceRequest;
    /// use pathology::numeric::number::parse_rational;
    /// let request = InferenceRequest::PassAtK { tasks: Tasks::parse("0.5").unwrap(), ks: vec![4] };
    /// let prices = Prices { sample: parse_rational("2").unwrap(), verifier: parse_rational("1/2").unwrap() };
    /// let report = request.report_priced(true, &prices).unwrap();
    /// let table = &report.tables[0];
    /// let cost = table.columns.iter().position(|c| c.name == "cost").unwrap();
    /// // 4 samples at 2 and 4 oracle checks at 1/2.
    /// assert_eq!(table.rows[0][cost], pathology::report::Cell::Real(10.0));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Self::report`]; [`crate::Error::InvalidArgument`] naming `--cost-sample` or
    /// `--cost-verifier` for a negative price (or both 0).
    pub fn report_priced(&self, exact: bool, prices: &Prices) -> Result<Report> {
        self.report_with(exact, prices, false)
    }

    /// [`Self::report_priced`]; with `lattice` (`--lattice`), best-of-n and reward-weighted
    /// voting with normal score laws in `f64` add the lattice's `P_correct` and its difference
    /// from the continuous value beside the continuous one (other requests ignore it).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::{Prices, Tasks};
    /// use pathology::analytic::inference::report::InferenceRequest;
    /// use pathology::analytic::pathsum::Law;
    /// let request = InferenceRequest::BestOfN {
    ///     tasks: Tasks::parse("0.6").unwrap(),
    ///     score_correct: Law::parse("--score-correct", "normal:1,1").unwrap(),
    ///     score_wrong: Law::parse("--score-wrong", "normal:0,1").unwrap(),
    ///     ns: vec![1, 16],
    /// };
    /// let report = request.report_with(false, &Prices::unit(), true).unwrap();
    /// let names: Vec<&str> = report.tables[0].columns.iter().map(|c| c.name.as_str()).collect();
    /// assert_eq!(&names[..5], ["n", "P_correct", "P_false_positive", "P_correct_lattice", "difference"]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Self::report_priced`].
    pub fn report_with(&self, exact: bool, prices: &Prices, lattice: bool) -> Result<Report> {
        prices.check()?;
        if lattice {
            let normal = |law: &Law| super::continuous::normal_parameters(law).is_some();
            let applies = match self {
                InferenceRequest::BestOfN {
                    score_correct,
                    score_wrong,
                    ..
                }
                | InferenceRequest::Vote {
                    scores: Some((score_correct, score_wrong)),
                    ..
                } => normal(score_correct) && normal(score_wrong),
                _ => false,
            };
            if !applies || exact {
                return Err(crate::Error::invalid(
                    "--lattice",
                    "best-of-n or vote --weighted with two normal score laws (normal:MU,S or \
                     gaussian:S) in f64 \
                     (with --exact the lattice itself is what is computed; with other laws \
                     there is only the lattice)",
                    if exact {
                        "--exact"
                    } else {
                        "another law or strategy"
                    },
                ));
            }
        }
        let report = if exact {
            self.report_in::<BigRational>(prices, lattice)?
        } else {
            self.report_in::<f64>(prices, lattice)?
        };
        Ok(match self.tasks().and_then(weights_note) {
            Some(note) => report.param("weights", true).note(note),
            None => report,
        })
    }

    /// The task mix (every strategy but lookahead and beam, whose mix is of step
    /// probabilities).
    pub fn tasks(&self) -> Option<&Tasks> {
        match self {
            InferenceRequest::PassAtK { tasks, .. }
            | InferenceRequest::Resample { tasks, .. }
            | InferenceRequest::BestOfN { tasks, .. }
            | InferenceRequest::Vote { tasks, .. } => Some(tasks),
            InferenceRequest::Knockout { setting } => Some(&setting.tasks),
            InferenceRequest::Lookahead { .. } | InferenceRequest::Beam { .. } => None,
        }
    }

    fn report_in<P: Probability>(&self, prices: &Prices, lattice: bool) -> Result<Report> {
        let command = format!("inference {}", self.subcommand());
        match self {
            InferenceRequest::Knockout { setting } => setting.report::<P>(&command),
            InferenceRequest::PassAtK { tasks, ks } => {
                let rows = pass_at_k::<P>(tasks, ks)?;
                let mut table = Table::new(
                    "pass_at_k",
                    "pass-at-k: the probability that one of k samples is correct (an oracle verifier)",
                    [
                        vec![
                            Column::key("k", Kind::Integer),
                            real("P_correct", "P_correct"),
                            real("P_none", "P_none"),
                        ],
                        super::compute::sample_columns(false),
                    ]
                    .concat(),
                );
                for r in &rows {
                    let mut cells = vec![Cell::int(r.k), cell(&r.correct), cell(&r.none)];
                    cells.extend(super::compute::sample_cells(r.k, r.k, prices));
                    table.push(cells);
                }
                let report = priced(
                    Report::new(&command, "pass-at-k")
                        .param("tasks", tasks.given_text())
                        .param("k", list_text(ks)),
                    prices,
                )
                .with_table(table)
                .note(super::compute::sample_note(
                    "samples: k per task; verifier_calls: k oracle checks (the oracle sees every \
                     sample: that is what picks the correct one)",
                    prices,
                ));
                Ok(bound_note::<P>(
                    report,
                    rows.iter().flat_map(|r| [r.correct.bound, r.none.bound]),
                ))
            }
            InferenceRequest::Resample {
                tasks,
                completeness,
                soundness,
                false_positive_value,
                abstain_value,
                ks,
            } => {
                let payoffs = super::Payoffs {
                    false_positive: false_positive_value.clone(),
                    abstain: abstain_value.clone(),
                };
                let r = super::resample_with::<P>(tasks, completeness, soundness, &payoffs, ks)?;
                let columns = || {
                    vec![
                        real("P_correct", "P_correct"),
                        real("P_false_positive", "P_false_positive"),
                        real("P_none", "P_none"),
                        real("payoff", "payoff"),
                    ]
                };
                let mut main_columns = vec![Column::key("k", Kind::Integer)];
                main_columns.extend(columns());
                main_columns.extend(super::compute::sample_columns(true));
                let mut table = Table::new(
                    "resample",
                    "resampling until the verifier accepts: the first accepted of up to k samples",
                    main_columns,
                );
                let cells = |row: &super::ResampleRow<P>| {
                    vec![
                        cell(&row.correct),
                        cell(&row.false_positive),
                        cell(&row.none),
                        cell(&row.payoff),
                    ]
                };
                // Each sample is shown to the verifier once: calls = samples, cost = (a + v)
                // samples.
                let per_sample = &prices.sample + &prices.verifier;
                for row in &r.rows {
                    let mut c = vec![Cell::int(row.k.expect("a row of the list"))];
                    c.extend(cells(row));
                    let samples = row.samples.as_ref().expect("a row of the list");
                    c.extend([
                        cell(samples),
                        cell(samples),
                        cell(&super::compute::scaled(samples, &per_sample)),
                    ]);
                    table.push(c);
                }
                let mut limit_columns = vec![Column::key("k", Kind::Text)];
                limit_columns.extend(columns());
                let mut limit = Table::new(
                    "limit",
                    "the limit as k grows (the accuracy ceiling)",
                    limit_columns,
                );
                let mut c = vec![Cell::text("infinity")];
                c.extend(cells(&r.limit));
                limit.push(c);
                let mut types = Table::new(
                    "types",
                    "per sample and task type: correct and accepted (R C), correct and rejected \
                     (R (1 - C)), wrong and rejected ((1 - R) S), wrong and accepted \
                     ((1 - R)(1 - S)); the ceiling R C / (R C + (1 - R)(1 - S))",
                    vec![
                        Column::key("R", Kind::Real),
                        Column::key("W", Kind::Real),
                        real("accept_correct", "R C"),
                        real("reject_correct", "R (1-C)"),
                        real("reject_wrong", "(1-R) S"),
                        real("accept_wrong", "(1-R)(1-S)"),
                        real("ceiling", "ceiling"),
                    ],
                );
                for t in &r.types {
                    types.push(vec![
                        exact(&t.success),
                        exact(&t.share),
                        exact(&t.accept_correct),
                        exact(&t.reject_correct),
                        exact(&t.reject_wrong),
                        exact(&t.accept_wrong),
                        t.ceiling.as_ref().map(exact).unwrap_or(Cell::Empty),
                    ]);
                }
                let best = r
                    .rows
                    .iter()
                    .find(|row| row.k == Some(r.best))
                    .expect("the best row");
                let mut report = Report::new(&command, "resampling with an imperfect verifier")
                    .param("tasks", tasks.given_text())
                    .param("completeness", short_text(completeness))
                    .param("soundness", short_text(soundness))
                    .param("false_positive_value", short_text(false_positive_value));
                if !abstain_value.is_zero() {
                    report = report.param("abstain_value", short_text(abstain_value));
                }
                let report = priced(report.param("k", list_text(ks)), prices)
                    .with_table(table)
                    .with_table(limit)
                    .with_table(types)
                    .note(format!(
                        "payoff = P_correct + V P_false_positive{} with V = {}{}; the largest over \
                         the list is at k = {} (payoff {}); as k grows the payoff tends to {}",
                        if abstain_value.is_zero() {
                            ""
                        } else {
                            " + U P_none"
                        },
                        short_text(false_positive_value),
                        if abstain_value.is_zero() {
                            String::new()
                        } else {
                            format!(" and U = {} (--abstain-value)", short_text(abstain_value))
                        },
                        r.best,
                        best.payoff.value.to_decimal(6),
                        r.limit.payoff.value.to_decimal(6),
                    ))
                    .note(super::compute::sample_note(
                        &format!(
                            "samples: the expected number drawn, sum_j W_j sum_(i<k) (1 - \
                             alpha_j)^i with alpha_j = R C + (1 - R)(1 - S) the type's \
                             acceptance probability per sample (sampling stops at the first \
                             accepted); verifier_calls: the same (each sample is checked once); \
                             as k grows the expected samples tend to {}",
                            match &r.limit.samples {
                                Some(s) => s.value.to_decimal(6),
                                None => "infinity (a type whose samples are never accepted)"
                                    .to_string(),
                            }
                        ),
                        prices,
                    ))
                    .note(format!(
                        "P_correct: {}",
                        first_below(
                            tasks,
                            "k",
                            r.rows
                                .iter()
                                .map(|x| (x.k.expect("a row of the list"), &x.correct))
                        )
                    ));
                let bounds: Vec<f64> = r
                    .rows
                    .iter()
                    .chain([&r.limit])
                    .flat_map(|x| {
                        [
                            x.correct.bound,
                            x.false_positive.bound,
                            x.none.bound,
                            x.payoff.bound,
                            x.samples.as_ref().map_or(0.0, |s| {
                                s.bound.max(super::compute::scaled(s, &per_sample).bound)
                            }),
                        ]
                    })
                    .collect();
                Ok(bound_note::<P>(report, bounds))
            }
            InferenceRequest::BestOfN {
                tasks,
                score_correct,
                score_wrong,
                ns,
            } => {
                // Normal laws in f64: the continuous laws, rigorously enclosed.
                if !P::EXACT
                    && let Some(values) =
                        super::continuous::normal_best_of_n(tasks, score_correct, score_wrong, ns)?
                {
                    return normal::best_of_n_report(&command, self, &values, prices, lattice);
                }
                let r = best_of_n::<P>(tasks, score_correct, score_wrong, ns)?;
                let mut table = Table::new(
                    "best_of_n",
                    "best-of-n: the sample of the largest verifier score, ties broken uniformly",
                    [
                        vec![
                            Column::key("n", Kind::Integer),
                            real("P_correct", "P_correct"),
                            real("P_false_positive", "P_false_positive"),
                        ],
                        super::compute::sample_columns(false),
                    ]
                    .concat(),
                );
                for row in &r.rows {
                    let n = row.n.expect("a row of the list");
                    let mut cells =
                        vec![Cell::int(n), cell(&row.correct), cell(&row.false_positive)];
                    cells.extend(super::compute::sample_cells(n, n, prices));
                    table.push(cells);
                }
                let mut limit = Table::new(
                    "limit",
                    "the limit as n grows: the share of correct samples at the top score",
                    vec![
                        Column::key("n", Kind::Text),
                        real("P_correct", "P_correct"),
                        real("P_false_positive", "P_false_positive"),
                    ],
                );
                limit.push(vec![
                    Cell::text("infinity"),
                    cell(&r.limit.correct),
                    cell(&r.limit.false_positive),
                ]);
                let report = priced(
                    Report::new(&command, "best-of-n")
                        .param("tasks", tasks.given_text())
                        .param("score_correct", score_correct.text())
                        .param("score_wrong", score_wrong.text())
                        .param("n", list_text(ns)),
                    prices,
                )
                .with_table(table)
                .with_table(limit)
                .note(super::compute::sample_note(
                    "samples: n per task; verifier_calls: n scores (each sample scored once)",
                    prices,
                ))
                .note(format!(
                    "the largest P_correct over the list is at n = {}; {}; as n grows \
                         P_correct tends to {}",
                    r.best,
                    first_below(
                        tasks,
                        "n",
                        r.rows
                            .iter()
                            .map(|x| (x.n.expect("a row of the list"), &x.correct))
                    ),
                    r.limit.correct.value.to_decimal(6)
                ));
                let bounds: Vec<f64> = r
                    .rows
                    .iter()
                    .chain([&r.limit])
                    .flat_map(|x| [x.correct.bound, x.false_positive.bound])
                    .collect();
                // A lattice law (gaussian:S, uniform:A): which lattice, and how far the
                // continuous law's best-of-n is from it.
                let lattice: Vec<f64> = r.rows.iter().map(|x| x.correct.value.to_f64()).collect();
                let report = bound_note::<P>(report, bounds);
                Ok(
                    match super::continuous::best_of_n_note(
                        tasks,
                        score_correct,
                        score_wrong,
                        ns,
                        &lattice,
                    ) {
                        Some(note) => report.note(note),
                        None => report,
                    },
                )
            }
            InferenceRequest::Vote {
                tasks,
                wrong_answers,
                ks,
                scores,
            } => {
                // Normal laws in f64: the continuous laws, rigorously enclosed.
                if !P::EXACT
                    && let Some((c, w)) = scores
                    && let Some(values) =
                        super::continuous::normal_weighted_vote(tasks, wrong_answers, c, w, ks)?
                {
                    return weighted_normal::weighted_vote_report(
                        &command, self, &values, prices, lattice,
                    );
                }
                let r = match scores {
                    None => vote::<P>(tasks, wrong_answers, ks)?,
                    Some((c, w)) => super::weighted_vote::<P>(tasks, wrong_answers, c, w, ks)?,
                };
                let mut table = Table::new(
                    "vote",
                    if scores.is_some() {
                        "reward-weighted vote over k samples: an answer's weight is the sum of its \
                         samples' scores; the largest weight wins, ties broken uniformly"
                    } else {
                        "majority vote over k samples, ties broken uniformly among the tied answers"
                    },
                    [
                        vec![
                            Column::key("k", Kind::Integer),
                            real("P_correct", "P_correct"),
                            real("P_false_positive", "P_false_positive"),
                        ],
                        super::compute::sample_columns(false),
                    ]
                    .concat(),
                );
                // Plain voting calls no verifier; weighted voting scores every sample once.
                let calls = |k: u64| if scores.is_some() { k } else { 0 };
                for row in &r.rows {
                    let mut cells = vec![
                        Cell::int(row.k),
                        cell(&row.correct),
                        cell(&row.false_positive),
                    ];
                    cells.extend(super::compute::sample_cells(row.k, calls(row.k), prices));
                    table.push(cells);
                }
                let mut report = Report::new(
                    &command,
                    if scores.is_some() {
                        "reward-weighted voting"
                    } else {
                        "majority voting"
                    },
                )
                .param("tasks", tasks.given_text())
                .param(
                    "wrong_answers",
                    wrong_answers
                        .iter()
                        .map(short_text)
                        .collect::<Vec<_>>()
                        .join(","),
                )
                .param("k", list_text(ks));
                report = priced(report, prices).note(super::compute::sample_note(
                    if scores.is_some() {
                        "samples: k per task; verifier_calls: k scores (each sample scored once)"
                    } else {
                        "samples: k per task; verifier_calls: 0 (a vote needs no verifier)"
                    },
                    prices,
                ));
                if let Some((c, w)) = scores {
                    report = report
                        .param("weighted", true)
                        .param("score_correct", c.text())
                        .param("score_wrong", w.text());
                    if let Some(note) = weighted_normal::exact_lattice_note(c, w) {
                        report = report.note(note);
                    }
                }
                let report = report.with_table(table).note(format!(
                    "the largest P_correct over the list is at k = {}; {}",
                    r.best,
                    first_below(tasks, "k", r.rows.iter().map(|x| (x.k, &x.correct)))
                ));
                let bounds: Vec<f64> = r
                    .rows
                    .iter()
                    .flat_map(|x| [x.correct.bound, x.false_positive.bound])
                    .collect();
                Ok(bound_note::<P>(report, bounds))
            }
            InferenceRequest::Lookahead {
                search,
                mix,
                depths,
                prices,
            } => {
                let r = lookahead_mixed::<P>(search, mix, depths)?;
                let spends: Vec<Spend> = depths
                    .iter()
                    .map(|&d| Spend::lookahead(search.branching, search.steps, d))
                    .collect();
                let (compute, compute_note) = equal_compute::<P>(search, mix, &spends, prices)?;
                let baseline_label = match r.leaves {
                    Some(n) => format!("best-of-{n}"),
                    None => "best-of-B^L".to_string(),
                };
                let mut columns = vec![
                    Column::key("d", Kind::Integer),
                    real("P_correct", "P_correct"),
                    real("first_decision", "first decision"),
                ];
                columns.extend(compute_columns());
                columns.push(real("best_of_n", &baseline_label));
                let mut table = Table::new(
                    "lookahead",
                    "verifier-guided depth-d lookahead with fresh rollouts per decision: what it \
                     generates and scores, best-of-N at equal generated steps, verifier calls \
                     and cost, and best-of-n over B^L complete solutions (the leaves of full \
                     lookahead's first decision)",
                    columns,
                );
                let baseline = r.best_of_n.as_ref().map(cell).unwrap_or(Cell::Empty);
                for (row, equal) in r.rows.iter().zip(&compute) {
                    let mut cells =
                        vec![Cell::int(row.depth), cell(&row.correct), cell(&row.first)];
                    cells.extend(compute_cells(equal));
                    cells.push(baseline.clone());
                    table.push(cells);
                }
                let mut report = model_params(
                    Report::new(&command, "verifier-guided lookahead"),
                    search,
                    mix,
                    prices,
                )
                .param(
                    "depth",
                    list_text(&depths.iter().map(|&d| u64::from(d)).collect::<Vec<_>>()),
                )
                .with_table(table)
                .note(format!(
                    "the largest P_correct over the list is at d = {}",
                    r.best
                ))
                .note(compute_text(prices));
                for note in compute_note.iter().chain(&r.baseline_note) {
                    report = report.note(note.clone());
                }
                let bounds: Vec<f64> = r
                    .rows
                    .iter()
                    .flat_map(|x| [x.correct.bound, x.first.bound])
                    .chain(r.best_of_n.iter().map(|b| b.bound))
                    .chain(compute_bounds(&compute))
                    .collect();
                Ok(lattice_note(
                    bound_note::<P>(report, bounds),
                    search,
                    "lookahead",
                ))
            }
            InferenceRequest::Beam {
                search,
                mix,
                widths,
                prices,
            } => {
                let r = beam::<P>(search, mix, widths)?;
                let spends: Vec<Spend> = widths
                    .iter()
                    .map(|&m| Spend::beam(search.branching, search.steps, m))
                    .collect();
                let (compute, compute_note) = equal_compute::<P>(search, mix, &spends, prices)?;
                let mut columns = vec![
                    Column::key("beams", Kind::Integer).labelled("M"),
                    real("P_correct", "P_correct"),
                    real("P_covered", "P_covered"),
                ];
                columns.extend(compute_columns());
                let mut table = Table::new(
                    "beam",
                    "beam search of width M guided by a process reward model (the M best of M B \
                     scored prefixes kept at every step, ties uniform): P_covered is the \
                     probability that some complete candidate is correct; best-of-N at equal \
                     generated steps, verifier calls and cost",
                    columns,
                );
                for (row, equal) in r.rows.iter().zip(&compute) {
                    let mut cells =
                        vec![Cell::int(row.beams), cell(&row.correct), cell(&row.covered)];
                    cells.extend(compute_cells(equal));
                    table.push(cells);
                }
                let mut report = model_params(
                    Report::new(&command, "beam search with a process reward model"),
                    search,
                    mix,
                    prices,
                )
                .param(
                    "beams",
                    list_text(&widths.iter().map(|&m| u64::from(m)).collect::<Vec<_>>()),
                )
                .with_table(table)
                .note(format!(
                    "the largest P_correct over the list is at M = {}",
                    r.best
                ))
                .note(compute_text(prices));
                if let Some(note) = compute_note {
                    report = report.note(note);
                }
                let bounds: Vec<f64> = r
                    .rows
                    .iter()
                    .flat_map(|x| [x.correct.bound, x.covered.bound])
                    .chain(compute_bounds(&compute))
                    .collect();
                Ok(lattice_note(
                    bound_note::<P>(report, bounds),
                    search,
                    "beam search",
                ))
            }
        }
    }
}

/// The prices as parameters (the manifest's command line reruns them).
fn priced(report: Report, prices: &Prices) -> Report {
    report
        .param("cost_sample", short_text(&prices.sample))
        .param("cost_verifier", short_text(&prices.verifier))
}

/// The model's parameters of lookahead and beam search.
fn model_params(report: Report, search: &LookaheadSearch, mix: &Tasks, prices: &Prices) -> Report {
    report
        .param("branching", search.branching)
        .param("steps", search.steps)
        .param("step_correct", mix.steps_text())
        .param("noise", search.noise.text())
        .param("growth", short_text(&search.growth))
        .param("cost_sample", short_text(&prices.sample))
        .param("cost_verifier", short_text(&prices.verifier))
}

/// The spend and equal-compute columns of lookahead and beam search.
fn compute_columns() -> Vec<Column> {
    vec![
        Column::new("steps", Kind::Integer).labelled("steps"),
        Column::new("verifier_calls", Kind::Integer).labelled("calls"),
        real("cost", "cost"),
        real("n_equal_steps", "N (steps)"),
        real("best_of_n_equal_steps", "best-of-N (steps)"),
        real("n_equal_calls", "N (calls)"),
        real("best_of_n_equal_calls", "best-of-N (calls)"),
        real("n_equal_cost", "N (cost)"),
        real("best_of_n_equal_cost", "best-of-N (cost)"),
    ]
}

fn compute_cells<P: Probability>(e: &EqualCompute<P>) -> Vec<Cell> {
    let value = |m: &super::Matched<P>| m.correct.as_ref().map(cell).unwrap_or(Cell::Empty);
    vec![
        count(&e.spend.steps),
        count(&e.spend.calls),
        whole_or_exact(&e.cost),
        whole_or_exact(&e.steps.n),
        value(&e.steps),
        whole_or_exact(&e.calls.n),
        value(&e.calls),
        whole_or_exact(&e.cost_matched.n),
        value(&e.cost_matched),
    ]
}

fn compute_bounds<P: Probability>(rows: &[EqualCompute<P>]) -> impl Iterator<Item = f64> + '_ {
    rows.iter().flat_map(|e| {
        [&e.steps, &e.calls, &e.cost_matched]
            .into_iter()
            .filter_map(|m| m.correct.as_ref().map(|b| b.bound))
    })
}

/// How the spend and the matched N are counted.
fn compute_text(prices: &Prices) -> String {
    format!(
        "steps: generated steps per run, calls: verifier calls per run (the search runs all L \
         steps whatever the draws); cost = {} steps + {} calls (--cost-sample, \
         --cost-verifier); best-of-N scores N complete solutions once each ({} N L + {} N): \
         N (steps) = steps / L, N (calls) = calls, N (cost) = cost / ({} L + {}); a fractional \
         N is met in expectation (floor(N) samples and one more with probability N - \
         floor(N)), its accuracy the same mix of the two (a count above 2^127 is left \
         empty)",
        short_text(&prices.sample),
        short_text(&prices.verifier),
        short_text(&prices.sample),
        short_text(&prices.verifier),
        short_text(&prices.sample),
        short_text(&prices.verifier),
    )
}

/// The lattice note of a search's noise law.
fn lattice_note(report: Report, search: &LookaheadSearch, what: &str) -> Report {
    match super::continuous::lattice_text(&search.noise) {
        Some(lattice) => report.note(format!(
            "lattice law: {lattice}; every value above, and its bound, is for the lattice: \
             {what} with the continuous law is not computed here, so its distance from these \
             values is not known"
        )),
        None => report,
    }
}
