//! `mc inference` as [`Report`]s, and their reports rebuilt from the summed counts of their
//! shards (`pathology merge`).
//!
//! Every row is self-describing and is a row `pathology validate` reads as it is: `kind`
//! (`pass_at_k`, `resample`, `best_of_n`, `vote`, `lookahead`, `knockout`), the strategy's parameters
//! named as `pathology inference` names its options (`tasks`, `completeness`, ...), the
//! list's value (`k`, `n` or `d`), the `quantity` (`correct`, `false_positive`, `none`,
//! `first_decision`, `best_of_n`), `seed`, the counts, the estimate with its 95% Wilson
//! interval, the exact value (`pathology inference`'s in `f64`), z, the two-sided p-value of
//! the score test and Holm's adjusted p-value over the table's rows with its verdict (`no difference detected`
//! or `disagrees`, as `pathology validate` words it).

use num_rational::BigRational;
use num_traits::Zero;

use super::trials::{
    self, Bracket, DRAW_SECONDS, Draw, MAX_TABLE_ENTRIES, Mix, Scores, Verifier, Walk,
};
use crate::analytic::inference::report::{InferenceRequest, list_text};
use crate::analytic::inference::{
    LookaheadSearch, MAX_BEAMS, MAX_COUNT, Prices, Tasks, beam, best_of_n, knockout,
    lookahead_mixed, parse_list, parse_wrong_answers, pass_at_k, vote, weighted_vote,
};
use crate::analytic::pathsum::Law;
use crate::error::{Error, Result};
use crate::numeric::number::short_text;
use crate::report::read::ReadTable;
use crate::report::{Cell, Column, Kind, Report, Table, printed_error_bound};
use crate::sim::report::{
    Manifest, McRun, RunConfig, comparison_cells, comparison_columns, summed_counts,
};
use crate::sim::stats::{Proportion, holm_adjusted, two_sided_p};

/// The experiments `merge` rebuilds here.
pub const MERGEABLE: [&str; 7] = [
    "mc inference pass-at-k",
    "mc inference resample",
    "mc inference best-of-n",
    "mc inference vote",
    "mc inference lookahead",
    "mc inference knockout",
    "mc inference beam",
];

/// The family-wise error rate of the verdicts.
pub const ALPHA: f64 = 0.05;

/// The `validate` kind of each subcommand's rows.
pub fn kind_of(subcommand: &str) -> &'static str {
    match subcommand {
        "pass-at-k" => "pass_at_k",
        "resample" => "resample",
        "best-of-n" => "best_of_n",
        "vote" => "vote",
        "knockout" => "knockout",
        "beam" => "beam",
        _ => "lookahead",
    }
}

/// The quantities each kind's rows estimate, per value of its list.
pub fn quantities(kind: &str) -> &'static [&'static str] {
    match kind {
        "resample" => &["correct", "false_positive", "none"],
        "lookahead" => &["correct", "first_decision"],
        "beam" => &["correct", "covered"],
        _ => &["correct"],
    }
}

/// The name of each kind's list column.
pub fn index_name(kind: &str) -> &'static str {
    match kind {
        "best_of_n" => "n",
        "lookahead" => "d",
        "knockout" => "r",
        "beam" => "beams",
        _ => "k",
    }
}

/// The names of the tables of `mc inference SUBCOMMAND`.
pub fn table_names(subcommand: &str) -> &'static [&'static str] {
    match subcommand {
        "resample" => &["estimates", "payoff"],
        _ => &["estimates"],
    }
}

/// `mc inference`: a strategy of `pathology inference` run literally.
#[derive(Debug, Clone, PartialEq)]
pub struct McInference {
    /// The strategy and its parameters, as `pathology inference` takes them.
    pub request: InferenceRequest,
}

/// One row: the list's value (none for lookahead's baseline), the quantity and its slot in
/// a trial's flags.
struct RowSpec {
    index: Option<u64>,
    quantity: &'static str,
    slot: usize,
}

/// The exact values of the rows with their f64 bounds, and the largest bound among them.
struct ExactColumn {
    values: Vec<f64>,
    bounds: Vec<f64>,
    bound: f64,
    /// Lookahead: whether best-of-`B^L` runs, and why not.
    baseline: bool,
    baseline_note: Option<String>,
    /// Resample: the exact payoff per value of the list.
    payoff: Vec<f64>,
}

fn sorted(list: &[u64]) -> Vec<u64> {
    let mut grid = list.to_vec();
    grid.sort_unstable();
    grid.dedup();
    grid
}

fn depths_of(list: &[u32]) -> Vec<u64> {
    list.iter().map(|&d| u64::from(d)).collect()
}

impl McInference {
    fn subcommand(&self) -> &'static str {
        self.request.subcommand()
    }

    fn kind(&self) -> &'static str {
        match &self.request {
            InferenceRequest::Vote {
                scores: Some(_), ..
            } => "weighted_vote",
            _ => kind_of(self.subcommand()),
        }
    }

    /// The list (k, n or d), in the order given.
    fn list(&self) -> Vec<u64> {
        match &self.request {
            InferenceRequest::PassAtK { ks, .. }
            | InferenceRequest::Resample { ks, .. }
            | InferenceRequest::Vote { ks, .. } => ks.clone(),
            InferenceRequest::BestOfN { ns, .. } => ns.clone(),
            InferenceRequest::Lookahead { depths, .. } => depths_of(depths),
            InferenceRequest::Knockout { setting } => setting.rounds.clone(),
            InferenceRequest::Beam { widths, .. } => depths_of(widths),
        }
    }

    /// The rows in order: per value of the list (as given), per quantity; lookahead's
    /// baseline last.
    fn rows(&self, baseline: bool) -> Vec<RowSpec> {
        let quantities = quantities(self.kind());
        let grid = sorted(&self.list());
        let mut rows = Vec::new();
        for value in self.list() {
            let position = grid.binary_search(&value).expect("a value of the list");
            for (q, &quantity) in quantities.iter().enumerate() {
                rows.push(RowSpec {
                    index: Some(value),
                    quantity,
                    slot: position * quantities.len() + q,
                });
            }
        }
        if baseline {
            rows.push(RowSpec {
                index: None,
                quantity: "best_of_n",
                slot: grid.len() * quantities.len(),
            });
        }
        rows
    }

    /// The parameters that identify the model (row columns and manifest), as text.
    fn parameters(&self) -> Vec<(&'static str, String)> {
        match &self.request {
            InferenceRequest::PassAtK { tasks, .. } => vec![("tasks", tasks.text())],
            InferenceRequest::Resample {
                tasks,
                completeness,
                soundness,
                ..
            } => vec![
                ("tasks", tasks.text()),
                ("completeness", short_text(completeness)),
                ("soundness", short_text(soundness)),
            ],
            InferenceRequest::BestOfN {
                tasks,
                score_correct,
                score_wrong,
                ..
            } => vec![
                ("tasks", tasks.text()),
                ("score_correct", score_correct.text()),
                ("score_wrong", score_wrong.text()),
            ],
            InferenceRequest::Vote {
                tasks,
                wrong_answers,
                scores,
                ..
            } => {
                let mut out = vec![
                    ("tasks", tasks.text()),
                    (
                        "wrong_answers",
                        wrong_answers
                            .iter()
                            .map(short_text)
                            .collect::<Vec<_>>()
                            .join(","),
                    ),
                ];
                if let Some((c, w)) = scores {
                    out.push(("score_correct", c.text()));
                    out.push(("score_wrong", w.text()));
                }
                out
            }
            InferenceRequest::Lookahead { search, mix, .. }
            | InferenceRequest::Beam { search, mix, .. } => vec![
                ("branching", search.branching.to_string()),
                ("steps", search.steps.to_string()),
                ("step_correct", mix.steps_text()),
                ("noise", search.noise.text()),
                ("growth", short_text(&search.growth)),
            ],
            InferenceRequest::Knockout { setting } => vec![
                ("tasks", setting.tasks.text()),
                ("judge_correct", setting.judge_correct_text()),
                ("judge_calls", list_text(&setting.judge_calls)),
            ],
        }
    }

    /// Whether lookahead's best-of-`B^L` runs beside it: when `pathology inference` computes
    /// it and d = L is in the list or it costs at most what the lookahead costs (or 2^16
    /// draws), so that the rows do not depend on the trials, the shard or the threads.
    fn baseline_runs(search: &LookaheadSearch, mix: &Tasks, depths: &[u32]) -> bool {
        if depths.contains(&search.steps) {
            return true;
        }
        let looking: f64 = depths
            .iter()
            .map(|&d| trials::lookahead_draws(search, d))
            .sum();
        trials::baseline_draws(search, mix) <= looking.max(65_536.0)
    }

    /// The exact values of the rows (`pathology inference` in `f64`), with their checks
    /// and refusals, before any trial.
    fn exact(&self) -> Result<ExactColumn> {
        let take = |b: &crate::analytic::distributions::Bounded<f64>| (b.value, b.bound);
        let grid_of = |list: &[u64]| sorted(list);
        let mut baseline = false;
        let mut baseline_note = None;
        let mut payoff = Vec::new();
        let mut payoff_bound: f64 = 0.0;
        // Values per slot, then laid out by row.
        let slots: Vec<(f64, f64)> = match &self.request {
            InferenceRequest::PassAtK { tasks, ks } => pass_at_k::<f64>(tasks, &grid_of(ks))?
                .iter()
                .map(|r| take(&r.correct))
                .collect(),
            InferenceRequest::Resample {
                tasks,
                completeness,
                soundness,
                false_positive_value,
                abstain_value,
                ks,
            } => {
                let r = crate::analytic::inference::resample_with::<f64>(
                    tasks,
                    completeness,
                    soundness,
                    &crate::analytic::inference::Payoffs {
                        false_positive: false_positive_value.clone(),
                        abstain: abstain_value.clone(),
                    },
                    &grid_of(ks),
                )?;
                payoff = r.rows.iter().map(|row| row.payoff.value).collect();
                payoff_bound = r
                    .rows
                    .iter()
                    .map(|row| row.payoff.bound)
                    .fold(0.0, f64::max);
                r.rows
                    .iter()
                    .flat_map(|row| [&row.correct, &row.false_positive, &row.none])
                    .map(take)
                    .collect()
            }
            InferenceRequest::BestOfN {
                tasks,
                score_correct,
                score_wrong,
                ns,
            } => best_of_n::<f64>(tasks, score_correct, score_wrong, &grid_of(ns))?
                .rows
                .iter()
                .map(|r| take(&r.correct))
                .collect(),
            InferenceRequest::Vote {
                tasks,
                wrong_answers,
                ks,
                scores,
            } => match scores {
                None => vote::<f64>(tasks, wrong_answers, &grid_of(ks))?,
                Some((c, w)) => weighted_vote::<f64>(tasks, wrong_answers, c, w, &grid_of(ks))?,
            }
            .rows
            .iter()
            .map(|r| take(&r.correct))
            .collect(),
            InferenceRequest::Lookahead {
                search,
                mix,
                depths,
                ..
            } => {
                let grid: Vec<u32> = grid_of(&depths_of(depths))
                    .into_iter()
                    .map(|d| d as u32)
                    .collect();
                let r = lookahead_mixed::<f64>(search, mix, &grid)?;
                let mut slots: Vec<(f64, f64)> = r
                    .rows
                    .iter()
                    .flat_map(|row| [&row.correct, &row.first])
                    .map(take)
                    .collect();
                match &r.best_of_n {
                    Some(b) if Self::baseline_runs(search, mix, &grid) => {
                        baseline = true;
                        slots.push(take(b));
                    }
                    Some(_) => {
                        baseline_note = Some(format!(
                            "best-of-n over B^L = {}^{} complete solutions is not simulated: \
                             it would cost more draws per trial than the lookahead itself \
                             (it runs when d = L is in the list)",
                            search.branching, search.steps
                        ));
                    }
                    None => baseline_note = r.baseline_note.clone(),
                }
                slots
            }
            InferenceRequest::Knockout { setting } => {
                one_judge_count(setting)?;
                knockout::<f64>(
                    &setting.tasks,
                    &setting.judge_correct,
                    &setting.judge_calls,
                    &grid_of(&setting.rounds),
                )?
                .rows
                .iter()
                .map(|r| take(&r.correct))
                .collect()
            }
            InferenceRequest::Beam {
                search,
                mix,
                widths,
                ..
            } => {
                let grid: Vec<u32> = grid_of(&depths_of(widths))
                    .into_iter()
                    .map(|m| m as u32)
                    .collect();
                beam::<f64>(search, mix, &grid)?
                    .rows
                    .iter()
                    .flat_map(|row| [&row.correct, &row.covered])
                    .map(take)
                    .collect()
            }
        };
        let rows = self.rows(baseline);
        let values = rows.iter().map(|r| slots[r.slot].0).collect();
        let bounds: Vec<f64> = rows.iter().map(|r| slots[r.slot].1).collect();
        Ok(ExactColumn {
            values,
            bound: bounds.iter().copied().fold(payoff_bound, f64::max),
            bounds,
            baseline,
            baseline_note,
            payoff,
        })
    }

    /// Runs the strategy literally (refused up front beyond the Monte Carlo time limit) and
    /// returns its report.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::Tasks;
    /// use pathology::analytic::inference::report::InferenceRequest;
    /// use pathology::inference_sim::McInference;
    /// use pathology::sim::report::RunConfig;
    /// let request = InferenceRequest::PassAtK { tasks: Tasks::parse("0.3").unwrap(), ks: vec![1, 4] };
    /// let config = RunConfig { trials: 2000, seed: 7, threads: Some(1), shard: None };
    /// let report = McInference { request }.estimate(&config).unwrap();
    /// let table = &report.tables[0];
    /// assert_eq!(table.rows.len(), 2);
    /// // The exact value beside the estimate: 1 - 0.7^4.
    /// let exact = table.column_index("exact").unwrap();
    /// match table.rows[1][exact] {
    ///     pathology::report::Cell::Real(p) => assert!((p - 0.7599).abs() < 1e-12, "{p}"),
    ///     ref other => panic!("{other:?}"),
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// As the strategy's exact function ([`pass_at_k`],
    /// [`resample`](crate::analytic::inference::resample), [`best_of_n`], [`vote`],
    /// [`lookahead_mixed`], [`beam`]) and [`RunConfig::budgeted_runner`]; naming `--noise` when
    /// lookahead's score tables would be too large.
    pub fn estimate(&self, config: &RunConfig) -> Result<Report> {
        let exact = self.exact()?;
        let list = self.list();
        let grid = sorted(&list);
        let most = *grid.last().expect("a nonempty list");
        let label = format!("mc inference {}", self.subcommand());
        // Duplicates in the list share a slot.
        let slots = grid.len() * quantities(self.kind()).len() + usize::from(exact.baseline);
        let (draws, trial): (f64, Box<TrialFn>) = match &self.request {
            InferenceRequest::PassAtK { tasks, .. } => {
                let mix = Mix::new(tasks);
                let draws = 1.0 + mix.expected_until(most, |r| r);
                let grid = grid.clone();
                (
                    draws,
                    Box::new(move |rng| trials::pass_at_k(&mix, &grid, rng)),
                )
            }
            InferenceRequest::Resample {
                tasks,
                completeness,
                soundness,
                ..
            } => {
                let mix = Mix::new(tasks);
                let verifier = Verifier {
                    accept_correct: Draw::bernoulli(completeness),
                    accept_wrong: Draw::bernoulli(
                        &(BigRational::from_integer(1.into()) - soundness),
                    ),
                };
                let (c, s) = (
                    crate::sim::report::rational_f64(completeness),
                    crate::sim::report::rational_f64(soundness),
                );
                let draws = 1.0 + 2.0 * mix.expected_until(most, |r| r * c + (1.0 - r) * (1.0 - s));
                let grid = grid.clone();
                (
                    draws + 3.0 * grid.len() as f64,
                    Box::new(move |rng| trials::resample(&mix, &verifier, &grid, rng)),
                )
            }
            InferenceRequest::BestOfN {
                tasks,
                score_correct,
                score_wrong,
                ..
            } => {
                let mix = Mix::new(tasks);
                let scores = Scores::new(score_correct, score_wrong);
                let grid = grid.clone();
                (
                    1.0 + 3.0 * most as f64 + grid.len() as f64,
                    Box::new(move |rng| trials::best_of_n(&mix, &scores, &grid, rng)),
                )
            }
            InferenceRequest::Vote {
                tasks,
                wrong_answers,
                scores,
                ..
            } => {
                let mix = Mix::new(tasks);
                let wrong = Draw::new(wrong_answers);
                let labels = wrong_answers.len();
                let grid = grid.clone();
                let draws = 1.0 + 2.0 * most as f64 + (labels as f64 + 2.0) * grid.len() as f64;
                match scores {
                    None => (
                        draws,
                        Box::new(move |rng| trials::vote(&mix, &wrong, labels, &grid, rng)),
                    ),
                    Some((c, w)) => {
                        let weights = trials::Weights::new(c, w, most).ok_or_else(|| {
                            Error::invalid(
                                "--score-correct",
                                "score laws whose values, over their common denominator, \
                                 sum over k samples within 2^120 (so that the totals are exact \
                                 integers)",
                                format!("{} and {}", c.text(), w.text()),
                            )
                        })?;
                        (
                            draws + most as f64,
                            Box::new(move |rng| {
                                trials::weighted_vote(&mix, &wrong, labels, &weights, &grid, rng)
                            }),
                        )
                    }
                }
            }
            InferenceRequest::Lookahead { search, mix, .. } => {
                let depths: Vec<u32> = grid.iter().map(|&d| d as u32).collect();
                let entries = Walk::table_entries(search, &depths);
                if entries > MAX_TABLE_ENTRIES {
                    return Err(Error::invalid(
                        "--noise",
                        &format!(
                            "a law small enough that its atoms times the frontier lengths \
                             scored (2 x {} x {}) stay at most 2^26 for Monte Carlo (use \
                             fewer atoms, --growth 0 or larger depths)",
                            search.noise.atoms().len(),
                            entries / 2.0 / search.noise.atoms().len() as f64
                        ),
                        search.noise.text(),
                    ));
                }
                let mut draws: f64 = depths
                    .iter()
                    .map(|&d| trials::lookahead_draws(search, d))
                    .sum();
                if exact.baseline {
                    draws += trials::baseline_draws(search, mix);
                }
                let walk = Walk::new(search, mix, &depths, exact.baseline);
                (draws, Box::new(move |rng| walk.trial(&depths, rng)))
            }
            InferenceRequest::Knockout { setting } => {
                let bracket = bracket_of(setting);
                let grid = grid.clone();
                (
                    bracket.draws(most),
                    Box::new(move |rng| bracket.trial(&grid, rng)),
                )
            }
            InferenceRequest::Beam { search, mix, .. } => {
                let widths: Vec<u32> = grid.iter().map(|&m| m as u32).collect();
                // Every prefix length is scored: the tables of depth 1.
                let entries = Walk::table_entries(search, &[1]);
                if entries > MAX_TABLE_ENTRIES {
                    return Err(Error::invalid(
                        "--noise",
                        &format!(
                            "a law small enough that its atoms times the prefix lengths scored \
                             (2 x {} x {}) stay at most 2^26 for Monte Carlo (use fewer atoms \
                             or --growth 0)",
                            search.noise.atoms().len(),
                            entries / 2.0 / search.noise.atoms().len() as f64
                        ),
                        search.noise.text(),
                    ));
                }
                let draws: f64 = widths.iter().map(|&m| trials::beam_draws(search, m)).sum();
                let walk = Walk::new(search, mix, &[1], false);
                (draws, Box::new(move |rng| walk.beam_trial(&widths, rng)))
            }
        };
        let draws_text = if draws < 1e15 {
            format!("{}", draws.ceil())
        } else {
            format!("{draws:.2e}")
        };
        let one_trial = draws * DRAW_SECONDS;
        let limit = crate::budget::monte_carlo_limit_seconds();
        if one_trial.is_nan() || one_trial > limit {
            let hint = match self.kind() {
                "beam" => {
                    "Ask for smaller widths (--beams), a smaller --branching or fewer --steps: \
                     literal beam search draws about L M B candidates per width M and trial."
                }
                "lookahead" => {
                    "Ask for smaller depths (--depth), a smaller --branching or fewer --steps: \
                     literal lookahead scores about (L - d + 1) B^d frontier nodes per depth d \
                     and trial."
                }
                "best_of_n" => "Ask for a smaller largest --n: each trial draws that many samples.",
                "knockout" => {
                    "Ask for a smaller largest --rounds or fewer --judge-calls: each trial draws \
                     2^r candidates and K calls per mixed match."
                }
                _ => "Ask for a smaller largest --k: each trial draws up to that many samples.",
            };
            return Err(crate::budget::refuse(
                format!("one trial of {label} (about {draws_text} draws)"),
                crate::budget::estimated_seconds(one_trial),
                crate::budget::human_seconds(limit),
                hint,
            ));
        }
        let what = format!("{label} (about {draws_text} draws per trial)");
        let runner = config.budgeted_runner(&label, &what, draws * DRAW_SECONDS)?;
        let counts = runner.run(
            || (),
            |_, rng| trial(rng),
            vec![0u64; slots],
            |mut counts, flags| {
                for (count, flag) in counts.iter_mut().zip(flags) {
                    *count += u64::from(flag);
                }
                counts
            },
        )?;
        let trials_run = runner.trials_run();
        let proportions: Vec<Proportion> = self
            .rows(exact.baseline)
            .iter()
            .map(|r| Proportion {
                successes: counts[r.slot],
                trials: trials_run,
            })
            .collect();
        self.report_with(&config.run(), &proportions, &exact)
    }

    /// Whether every draw of the strategy is exact (module docs of [`super`]).
    fn draws_exact(&self) -> bool {
        let one = BigRational::from_integer(1.into());
        match &self.request {
            InferenceRequest::PassAtK { tasks, .. } => {
                trials::all_exact(Some(&Mix::new(tasks)), &[])
            }
            InferenceRequest::Resample {
                tasks,
                completeness,
                soundness,
                ..
            } => trials::all_exact(
                Some(&Mix::new(tasks)),
                &[
                    &Draw::bernoulli(completeness),
                    &Draw::bernoulli(&(one - soundness)),
                ],
            ),
            InferenceRequest::BestOfN {
                tasks,
                score_correct,
                score_wrong,
                ..
            } => trials::all_exact(
                Some(&Mix::new(tasks)),
                &Scores::new(score_correct, score_wrong).draws(),
            ),
            InferenceRequest::Vote {
                tasks,
                wrong_answers,
                scores,
                ..
            } => {
                let wrong = Draw::new(wrong_answers);
                match scores {
                    None => trials::all_exact(Some(&Mix::new(tasks)), &[&wrong]),
                    Some((c, w)) => {
                        let scores = Scores::new(c, w);
                        let [a, b] = scores.draws();
                        trials::all_exact(Some(&Mix::new(tasks)), &[&wrong, a, b])
                    }
                }
            }
            InferenceRequest::Knockout { setting } => bracket_of(setting).exact(),
            InferenceRequest::Lookahead { search, mix, .. }
            | InferenceRequest::Beam { search, mix, .. } => {
                let noise: Vec<BigRational> = search
                    .noise
                    .atoms()
                    .iter()
                    .map(|(_, p)| p.clone())
                    .collect();
                trials::all_exact(Some(&Mix::new(mix)), &[&Draw::new(&noise)])
            }
        }
    }

    /// The report from the counts of its rows (in row order), against the exact values.
    ///
    /// # Errors
    ///
    /// As the exact functions; naming `FILE` when the counts are not one per row.
    pub fn report(&self, run: &McRun, counts: &[Proportion]) -> Result<Report> {
        let exact = self.exact()?;
        self.report_with(run, counts, &exact)
    }

    fn report_with(
        &self,
        run: &McRun,
        counts: &[Proportion],
        exact: &ExactColumn,
    ) -> Result<Report> {
        let rows = self.rows(exact.baseline);
        if counts.len() != rows.len() {
            return Err(Error::invalid(
                "FILE",
                &format!(
                    "{} rows (one per value of the list and quantity)",
                    rows.len()
                ),
                counts.len(),
            ));
        }
        let kind = self.kind();
        let index = index_name(kind);
        let parameters = self.parameters();
        let title = format!(
            "{} simulated literally against the exact values of `pathology inference {}`",
            match kind {
                "pass_at_k" => "pass-at-k",
                "resample" => "resampling with an imperfect verifier",
                "best_of_n" => "best-of-n",
                "vote" => "majority voting",
                "knockout" => "knockout tournament",
                "weighted_vote" => "reward-weighted voting",
                "beam" => "beam search with a process reward model",
                _ => "verifier-guided lookahead",
            },
            self.subcommand()
        );
        let mut report = Report::new(&format!("mc inference {}", self.subcommand()), &title);
        for (name, value) in &parameters {
            report = report.param(name, value);
        }
        let list_name = match kind {
            "lookahead" => "depth",
            "knockout" => "rounds",
            "beam" => "beams",
            _ => index,
        };
        report = report.param(list_name, list_text(&self.list()));
        if let InferenceRequest::Resample {
            false_positive_value,
            abstain_value,
            ..
        } = &self.request
        {
            report = report.param("false_positive_value", short_text(false_positive_value));
            if !abstain_value.is_zero() {
                report = report.param("abstain_value", short_text(abstain_value));
            }
        }
        let mut columns = vec![Column::key("kind", Kind::Text)];
        columns.extend(parameters.iter().map(|(n, _)| Column::key(n, Kind::Text)));
        columns.push(Column::key(index, Kind::Integer));
        columns.push(Column::key("quantity", Kind::Text));
        columns.push(Column::key("seed", Kind::Text));
        columns.extend(comparison_columns());
        columns.push(Column::new("p_value", Kind::Real));
        columns.push(Column::new("holm_p_value", Kind::Real).labelled("Holm p"));
        columns.push(Column::new("verdict", Kind::Text));
        let comparisons: Vec<_> = counts
            .iter()
            .zip(&exact.values)
            .map(|(count, &value)| count.compare(Some(value)))
            .collect();
        let tested: Vec<usize> = (0..rows.len()).filter(|&i| counts[i].trials > 0).collect();
        // An estimate within the exact value's f64 bound agrees with some value the exact one
        // may be: never flagged (p-value 1), whatever z against the printed value says.
        let within = |i: usize| {
            (comparisons[i].estimate - exact.values[i]).abs() <= exact.bounds[i]
                && comparisons[i].z != Some(0.0)
        };
        let p_values: Vec<f64> = tested
            .iter()
            .map(|&i| {
                if within(i) {
                    1.0
                } else {
                    two_sided_p(comparisons[i].z.unwrap_or(f64::NAN))
                }
            })
            .collect();
        let within_bound = tested.iter().filter(|&&i| within(i)).count();
        let infinite = tested
            .iter()
            .filter(|&&i| comparisons[i].z.is_some_and(f64::is_infinite))
            .count();
        let adjusted = holm_adjusted(&p_values);
        let mut table = Table::new("estimates", &title, columns);
        for (i, (row, count)) in rows.iter().zip(counts).enumerate() {
            let mut cells = vec![Cell::text(kind)];
            cells.extend(parameters.iter().map(|(_, v)| Cell::text(v.clone())));
            cells.push(row.index.map_or(Cell::Empty, Cell::int));
            cells.push(Cell::text(row.quantity));
            cells.push(Cell::text(run.seed.to_string()));
            cells.extend(comparison_cells(
                count.successes,
                count.trials,
                &comparisons[i],
            ));
            match tested.iter().position(|&t| t == i) {
                Some(t) => cells.extend([
                    Cell::Real(p_values[t]),
                    Cell::Real(adjusted[t]),
                    Cell::text(if adjusted[t] > ALPHA {
                        "no difference detected"
                    } else {
                        "disagrees"
                    }),
                ]),
                None => cells.extend([Cell::Empty, Cell::Empty, Cell::Empty]),
            }
            table.push(cells);
        }
        let disagree = tested
            .iter()
            .zip(&adjusted)
            .filter(|(_, a)| **a <= ALPHA)
            .count();
        report = run
            .params(report)
            .with_table(table)
            .note(format!(
                "{} of {} rows disagree with the exact value after Holm's step-down correction \
                 (two-sided score test of estimate = exact, z = (estimate - exact) / sqrt(exact \
                 (1 - exact) / trials), family-wise error rate {ALPHA} over the table's rows); \
                 95% Wilson intervals; the rows of one run share its trials",
                disagree,
                tested.len()
            ))
            .note(format!(
                "exact: `pathology inference {}` in f64, within {} of the model's value",
                self.subcommand(),
                printed_error_bound(0.0, exact.bound)
            ));
        if within_bound > 0 {
            report = report.note(format!(
                "{within_bound} rows have an estimate within the f64 bound of their exact value: \
                 not flagged (p-value 1), as the model's value may be the estimate itself"
            ));
        }
        if infinite > 0 {
            report = report.note(format!(
                "{infinite} rows have an infinite z (left empty): the exact value is 0 or 1 and \
                 the estimate differs, an event of probability 0 observed (or of probability 1 \
                 missed), a certain disagreement"
            ));
        }
        if let Some(note) = &exact.baseline_note {
            report = report.note(note.clone());
        }
        report = report.note(if self.draws_exact() {
            "every draw is exact: each index is drawn with the law's rational probabilities \
             (a uniform integer below their common denominator)"
        } else {
            "draws: a law whose probabilities' common denominator exceeds 2^64 is drawn with \
             thresholds rounded to multiples of 2^-64 (each probability within 2^-64)"
        });
        if let InferenceRequest::Resample {
            false_positive_value,
            abstain_value,
            ..
        } = &self.request
        {
            report = report.with_table(self.payoff_table(
                counts,
                exact,
                false_positive_value,
                abstain_value,
            ));
        }
        Ok(report)
    }

    /// Resample's payoff `P_correct + V P_false_positive` per k: the mean payoff of the
    /// trials (1, V or 0) with its 95% normal interval, beside the exact payoff.
    fn payoff_table(
        &self,
        counts: &[Proportion],
        exact: &ExactColumn,
        v: &BigRational,
        u: &BigRational,
    ) -> Table {
        let v_f64 = crate::sim::report::rational_f64(v);
        let u_f64 = crate::sim::report::rational_f64(u);
        let mut table = Table::new(
            "payoff",
            &if u.is_zero() {
                format!(
                    "the payoff P_correct + V P_false_positive with V = {}: the trials' mean \
                     payoff (1 correct, V false positive, 0 none) with its 95% normal interval",
                    short_text(v)
                )
            } else {
                format!(
                    "the payoff P_correct + V P_false_positive + U P_none with V = {} and U = \
                     {}: the trials' mean payoff (1 correct, V false positive, U none) with its \
                     95% normal interval",
                    short_text(v),
                    short_text(u)
                )
            },
            vec![
                Column::key("k", Kind::Integer),
                Column::new("payoff", Kind::Interval).labelled("payoff [95% CI]"),
                Column::new("exact", Kind::Real),
            ],
        );
        let grid = sorted(&self.list());
        for (row, chunk) in self.list().iter().zip(counts.chunks(3)) {
            let position = grid.binary_search(row).expect("a value of the list");
            let n = chunk[0].trials;
            let estimate = if n == 0 {
                Cell::Empty
            } else {
                let trials = n as f64;
                let (c, f) = (chunk[0].successes as f64, chunk[1].successes as f64);
                let none = chunk[2].successes as f64;
                let mean = (c + v_f64 * f + u_f64 * none) / trials;
                let second = (c + v_f64 * v_f64 * f + u_f64 * u_f64 * none) / trials;
                let se = ((second - mean * mean).max(0.0) / trials).sqrt();
                let half = crate::sim::stats::Z_95 * se;
                Cell::Interval {
                    estimate: mean,
                    lower: mean - half,
                    upper: mean + half,
                }
            };
            table.push(vec![
                Cell::int(*row),
                estimate,
                Cell::Real(exact.payoff[position]),
            ]);
        }
        table
    }

    /// The experiment of a shard's manifest.
    fn from_manifest(m: &Manifest) -> Result<Self> {
        let subcommand = m
            .subcommand
            .strip_prefix("mc inference ")
            .unwrap_or_default();
        let tasks = || Tasks::parse(m.get("tasks")?);
        let list = |name: &str, option: &str| parse_list(option, m.get(name)?, MAX_COUNT);
        let request = match subcommand {
            "pass-at-k" => InferenceRequest::PassAtK {
                tasks: tasks()?,
                ks: list("k", "--k")?,
            },
            "resample" => InferenceRequest::Resample {
                tasks: tasks()?,
                completeness: m.rational("completeness")?,
                soundness: m.rational("soundness")?,
                false_positive_value: m.rational("false_positive_value")?,
                // A manifest without it is of a run with the default, 0.
                abstain_value: m
                    .rational("abstain_value")
                    .unwrap_or_else(|_| BigRational::zero()),
                ks: list("k", "--k")?,
            },
            "best-of-n" => InferenceRequest::BestOfN {
                tasks: tasks()?,
                score_correct: Law::parse("--score-correct", m.get("score_correct")?)?,
                score_wrong: Law::parse("--score-wrong", m.get("score_wrong")?)?,
                ns: list("n", "--n")?,
            },
            "vote" => InferenceRequest::Vote {
                tasks: tasks()?,
                wrong_answers: parse_wrong_answers(m.get("wrong_answers")?)?,
                ks: list("k", "--k")?,
                scores: match (m.get("score_correct"), m.get("score_wrong")) {
                    (Ok(c), Ok(w)) => Some((
                        Law::parse("--score-correct", c)?,
                        Law::parse("--score-wrong", w)?,
                    )),
                    _ => None,
                },
            },
            "lookahead" | "beam" => {
                let steps: u32 = m.number("steps")?;
                let mix = Tasks::parse_steps(m.get("step_correct")?)?;
                let search = LookaheadSearch {
                    branching: m.number("branching")?,
                    steps,
                    step_correct: mix.types()[0].success.clone(),
                    noise: Law::parse("--noise", m.get("noise")?)?,
                    growth: m.rational("growth")?,
                };
                // The prices do not change a simulated row.
                let prices = Prices::unit();
                if subcommand == "beam" {
                    InferenceRequest::Beam {
                        search,
                        mix,
                        widths: parse_list("--beams", m.get("beams")?, u64::from(MAX_BEAMS))?
                            .into_iter()
                            .map(|w| w as u32)
                            .collect(),
                        prices,
                    }
                } else {
                    InferenceRequest::Lookahead {
                        search,
                        mix,
                        depths: parse_list("--depth", m.get("depth")?, u64::from(steps))?
                            .into_iter()
                            .map(|d| d as u32)
                            .collect(),
                        prices,
                    }
                }
            }
            "knockout" => InferenceRequest::Knockout {
                setting: crate::analytic::inference::report::knockout_setting(&|name: &str| {
                    m.get(name).ok().map(str::to_string)
                })?,
            },
            other => {
                return Err(Error::invalid(
                    "FILE",
                    &format!("the output of one of {}", MERGEABLE.join(", ")),
                    format!("mc inference {other}"),
                ));
            }
        };
        Ok(McInference { request })
    }
}

/// `mc inference knockout` simulates one K (the rows are one per r).
fn one_judge_count(setting: &crate::analytic::inference::KnockoutSetting) -> Result<()> {
    if setting.judge_calls.len() != 1 {
        return Err(Error::invalid(
            "--judge-calls",
            "one value K for mc inference knockout (the rows are one per r)",
            list_text(&setting.judge_calls),
        ));
    }
    Ok(())
}

/// The bracket's draws: the mix and one judge call per type.
fn bracket_of(setting: &crate::analytic::inference::KnockoutSetting) -> Bracket {
    Bracket {
        mix: Mix::new(&setting.tasks),
        judges: setting.judge_correct.iter().map(Draw::bernoulli).collect(),
        calls: setting.judge_calls[0],
    }
}

/// One trial: the flags of its slots.
type TrialFn = dyn Fn(&mut rand::rngs::ChaCha8Rng) -> Vec<bool> + Sync + Send;

/// `mc inference`'s report from the summed counts of its shards (keyed by the list's value
/// and the quantity).
///
/// # Errors
///
/// As [`crate::sim::report::check_shards`], [`crate::sim::report::summed_counts`], the
/// manifest's parameters and [`McInference::report`].
pub fn merge(inputs: &[(String, ReadTable)]) -> Result<Report> {
    let manifest = crate::sim::report::check_shards(inputs)?;
    let run = McRun {
        trials: manifest.trials,
        seed: manifest.seed,
        shard: None,
    };
    let spec = McInference::from_manifest(&manifest)?;
    let index = index_name(spec.kind());
    let counts = summed_counts(inputs, &[index, "quantity"])?;
    spec.report(&run, &counts)
}
