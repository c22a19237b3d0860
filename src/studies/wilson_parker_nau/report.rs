//! Wilson, Parker & Nau's (2009) EMM study ("Experiments", Figs. 3-6; [`super::study`]) as
//! [`Report`]s: `pathology mc emm`, `mc emm-calibrate` and `mc emm-figures`.
//!
//! Rows are tidy and self-describing, one per (search depth `d`, decision): the setting's
//! parameters (game `p`|`n`, `b`, `h`, the square or edge probability `p`, the evaluator, its
//! error `e` or the calibration it used, the seed), the counts (`successes`, `trials`), the
//! estimate with its 95% Wilson interval and, where an exact engine exists, the exact value
//! ([`crate::studies::wilson_parker_nau::exact_curve`], the `f64` engine with its rigorous rounding bound) and the z-score.
//! The exact value exists for minimax with the artificial evaluator and for minimax on the
//! unaltered fraction of 1-squares with the natural evaluator (`minimax_fraction`, not one of
//! the paper's curves); the product rule, EMM, and minimax on the binary natural evaluator have
//! none (exact and z are empty).
//!
//! The report is built from integer counts alone ([`StudyCounts`]), so the outputs of the N
//! shards of a seeded run (`--shard K/N`) sum back into the unsharded run's output byte for
//! byte (`pathology merge`, through [`crate::studies::merge::merge`]). The natural evaluator's calibration
//! is the same in every shard: estimated on its own seed from the full calibration size, or
//! read from a file, and recorded in the manifest.

use std::path::{Path, PathBuf};

use super::study::{Calibration, StudyCounts, StudyEvaluator, calibrate, run_counts_shared};
use crate::error::{Error, Result};
use crate::report::figure::{
    Axes, ErrorPoint, ErrorSeries, ExactLine, LegendPosition, Panel, Scale,
};
use crate::report::read::ReadTable;
use crate::report::{Cell, Column, ExportOptions, Format, Grid, Kind, Report, Table, format_f64};
use crate::sim::level_tree::{BoardSpec, GameKind};
use crate::sim::report::{McRun, comparison_cells, comparison_columns};
use crate::sim::runner::TrialRunner;
use crate::sim::stats::{Comparison, Proportion, Z_95};
use crate::studies::wilson_parker_nau::exact_curve::{ExactCurve, exact_curve};

/// The decisions of a study's rows, in [`StudyCounts::correct`] order (`algorithm` column).
pub const DECISIONS: [&str; 4] = ["minimax", "product", "emm", "minimax_fraction"];

/// The human names of [`DECISIONS`].
const DECISION_LABELS: [&str; 4] = ["minimax", "product", "EMM", "minimax (fraction)"];

/// The seed of a calibration estimated on the fly when none is given: different from the
/// study's, so the calibration boards are not the study's boards.
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::report::calibration_seed;
/// assert_ne!(calibration_seed(1), 1);
/// assert_eq!(calibration_seed(1), calibration_seed(1));
/// ```
pub fn calibration_seed(seed: u64) -> u64 {
    seed ^ 0xCA1B_0A7E_5EED_0001
}

/// The evaluator of a study as the manifest records it.
#[derive(Debug, Clone, PartialEq)]
pub enum EvaluatorSetting {
    /// The artificial binary evaluator with error `error`.
    Artificial {
        /// e, in [0, 1/2].
        error: f64,
    },
    /// The natural evaluator, EMM's errors from a calibration of `games` boards with `seed`.
    Natural {
        /// Boards of the calibration.
        games: u64,
        /// Its seed.
        seed: u64,
    },
}

/// Where the natural evaluator's calibration comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CalibrationSource<'a> {
    /// Read from a file written by `mc emm-calibrate`; `games` and `seed`, when given, must be
    /// the file's.
    File {
        /// The file.
        path: &'a Path,
        /// `--calibration-games`, if given.
        games: Option<u64>,
        /// `--calibration-seed`, if given.
        seed: Option<u64>,
    },
    /// Estimated on `games` boards with `seed` (unsharded: the same in every shard).
    Estimate {
        /// Boards.
        games: u64,
        /// Seed.
        seed: u64,
    },
}

/// The natural evaluator with its calibration, and its setting for the manifest.
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::report::{CalibrationSource, EvaluatorSetting, natural_evaluator};
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// let spec = BoardSpec::new(GameKind::P, 2, 4, 0.5).unwrap();
/// let source = CalibrationSource::Estimate { games: 100, seed: 9 };
/// let (setting, _) = natural_evaluator(&spec, source, 1).unwrap();
/// assert_eq!(setting, EvaluatorSetting::Natural { games: 100, seed: 9 });
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--calibration` for a file that cannot be read or is for
/// other games, `--calibration-games` or `--calibration-seed` when they differ from the
/// file's.
pub fn natural_evaluator(
    spec: &BoardSpec,
    source: CalibrationSource,
    threads: usize,
) -> Result<(EvaluatorSetting, StudyEvaluator)> {
    let table = match source {
        CalibrationSource::File { path, games, seed } => {
            let table = Calibration::load(path)?;
            table.check_matches(spec)?;
            for (name, given, theirs) in [
                ("--calibration-games", games, table.games),
                ("--calibration-seed", seed, table.seed),
            ] {
                if let Some(given) = given.filter(|&g| g != theirs) {
                    return Err(Error::invalid(
                        name,
                        &format!("the --calibration file's ({theirs}) when both are given"),
                        given,
                    ));
                }
            }
            table
        }
        CalibrationSource::Estimate { games, seed } => {
            let runner = TrialRunner::new(games, seed, threads)?.with_progress("calibration");
            calibrate(spec, &runner)?
        }
    };
    let setting = EvaluatorSetting::Natural {
        games: table.games,
        seed: table.seed,
    };
    Ok((setting, StudyEvaluator::Natural(table)))
}

/// One setting of the study: the boards and the evaluator.
#[derive(Debug, Clone, PartialEq)]
pub struct EmmSetting {
    /// The boards.
    pub spec: BoardSpec,
    /// The evaluator.
    pub evaluator: EvaluatorSetting,
}

impl EmmSetting {
    fn branching(&self) -> u32 {
        self.spec.tree.branching() as u32
    }

    /// `P-games, b = 2, H = 10, p = 0.382, artificial evaluator (e = 0.1)`.
    fn describe(&self) -> String {
        format!(
            "{}-games, b = {}, H = {}, p = {:.4}, {}",
            self.spec.kind.name().to_uppercase(),
            self.branching(),
            self.spec.tree.height(),
            self.spec.parameter,
            self.evaluator_name()
        )
    }

    fn evaluator_name(&self) -> String {
        match &self.evaluator {
            EvaluatorSetting::Artificial { error } => {
                format!("artificial evaluator (e = {})", format_f64(*error))
            }
            EvaluatorSetting::Natural { .. } => "natural evaluator".to_string(),
        }
    }

    /// The exact curve of the decision that has one.
    fn exact(&self) -> Result<ExactCurve> {
        match self.evaluator {
            EvaluatorSetting::Artificial { error } => exact_curve(&self.spec, Some(error)),
            EvaluatorSetting::Natural { .. } => exact_curve(&self.spec, None),
        }
    }

    fn parameters(&self, report: Report) -> Report {
        let report = report
            .param("game", self.spec.kind.name())
            .param("branching", self.branching())
            .param("height", self.spec.tree.height())
            .param("p", format_f64(self.spec.parameter));
        match &self.evaluator {
            EvaluatorSetting::Artificial { error } => report
                .param("evaluator", "artificial")
                .param("error", format_f64(*error)),
            EvaluatorSetting::Natural { games, seed } => report
                .param("evaluator", "natural")
                .param("calibration_games", games)
                .param("calibration_seed", seed),
        }
    }

    fn from_parameters(parameters: &[(String, String)]) -> Result<Self> {
        let parameters = crate::sim::report::Parameters(parameters);
        let get = |name: &str| parameters.get(name);
        let kind = match get("game")? {
            "p" => GameKind::P,
            "n" => GameKind::N,
            other => return Err(Error::invalid("manifest parameter game", "p or n", other)),
        };
        let spec = BoardSpec::new(
            kind,
            parameters.parse("branching", "a number")?,
            parameters.parse("height", "a number")?,
            parameters.parse("p", "a number")?,
        )?;
        let evaluator = match get("evaluator")? {
            "artificial" => EvaluatorSetting::Artificial {
                error: parameters.parse("error", "a number")?,
            },
            "natural" => EvaluatorSetting::Natural {
                games: parameters.parse("calibration_games", "a number")?,
                seed: parameters.parse("calibration_seed", "a number")?,
            },
            other => {
                return Err(Error::invalid(
                    "manifest parameter evaluator",
                    "artificial or natural",
                    other,
                ));
            }
        };
        Ok(EmmSetting { spec, evaluator })
    }
}

/// The columns of a study's rows.
fn study_columns() -> Vec<Column> {
    let mut columns = vec![
        Column::key("kind", Kind::Text),
        Column::key("game", Kind::Text),
        Column::key("b", Kind::Integer),
        Column::key("h", Kind::Integer),
        Column::key("p", Kind::Real),
        Column::key("evaluator", Kind::Text),
        Column::key("e", Kind::Real),
        Column::key("calibration_games", Kind::Integer),
        Column::key("calibration_seed", Kind::Text),
        Column::key("d", Kind::Integer),
        Column::key("algorithm", Kind::Text),
        Column::key("seed", Kind::Text),
        Column::new("boards_drawn", Kind::Integer),
    ];
    columns.extend(comparison_columns());
    columns
}

/// The exact value of decision `a` at depth `d` (1-based), if the curve is that decision's.
fn exact_at(exact: Option<&ExactCurve>, a: usize, d: usize) -> Option<(f64, f64)> {
    exact
        .filter(|c| c.decision == a)
        .map(|c| (c.values[d - 1], c.error_bounds[d - 1]))
}

/// One setting's tidy rows, and its reading grid: a header and one body row of cells per
/// depth.
struct SettingRows {
    rows: Vec<Vec<Cell>>,
    header: Vec<String>,
    body: Vec<Vec<Cell>>,
    comparisons: Vec<Vec<Comparison>>,
}

fn setting_rows(
    setting: &EmmSetting,
    seed: u64,
    counts: &StudyCounts,
    exact: Option<&ExactCurve>,
) -> SettingRows {
    let (e, calibration_games, calibration_seed, evaluator) = match &setting.evaluator {
        EvaluatorSetting::Artificial { error } => {
            (Cell::Real(*error), Cell::Empty, Cell::Empty, "artificial")
        }
        EvaluatorSetting::Natural { games, seed, .. } => (
            Cell::Empty,
            Cell::int(*games),
            Cell::text(seed.to_string()),
            "natural",
        ),
    };
    let decisions = counts.decisions();
    let mut header = vec!["d".to_string()];
    for (a, label) in DECISION_LABELS.iter().enumerate().take(decisions) {
        header.push((*label).to_string());
        if exact.is_some_and(|c| c.decision == a) {
            header.extend(["exact".to_string(), "z".to_string()]);
        }
    }
    let mut out = SettingRows {
        rows: Vec::new(),
        header,
        body: Vec::new(),
        comparisons: Vec::new(),
    };
    for (i, tally) in counts.correct.iter().enumerate() {
        let d = i + 1;
        let mut line = vec![Cell::int(d as u32)];
        let mut comparisons = Vec::new();
        for (a, count) in tally.iter().enumerate().take(decisions) {
            let known = exact_at(exact, a, d);
            let comparison = count.compare(known.map(|(v, _)| v));
            let mut cells = vec![
                Cell::text("emm"),
                Cell::text(setting.spec.kind.name()),
                Cell::int(setting.branching()),
                Cell::int(setting.spec.tree.height()),
                Cell::Real(setting.spec.parameter),
                Cell::text(evaluator),
                e.clone(),
                calibration_games.clone(),
                calibration_seed.clone(),
                Cell::int(d as u32),
                Cell::text(DECISIONS[a]),
                Cell::text(seed.to_string()),
                Cell::int(counts.boards_drawn),
            ];
            let mut compared = comparison_cells(count.successes, count.trials, &comparison);
            if let Some((value, bound)) = known {
                // The exact value from the f64 engine, with its rigorous rounding bound.
                compared[3] = Cell::Bounded { value, bound };
            }
            line.push(compared[2].clone());
            if exact.is_some_and(|c| c.decision == a) {
                line.push(compared[3].clone());
                line.push(compared[4].clone());
            }
            cells.extend(compared);
            out.rows.push(cells);
            comparisons.push(comparison);
        }
        out.body.push(line);
        out.comparisons.push(comparisons);
    }
    out
}

const INTERVAL_NOTE: &str = "95% Wilson intervals; z = (estimate - exact) / sqrt(exact (1 - exact) / trials); \
     trials are non-trivial games (the root has a winning and a losing move)";

/// What the exact column holds, or why it is empty (`missing`: the exact engine's error).
fn exact_note(evaluator: &EvaluatorSetting, missing: Option<&Error>) -> String {
    let which = match evaluator {
        EvaluatorSetting::Artificial { .. } => {
            "exact: minimax's D(d, H) from the f64 engine (pathology exact, evaluator artificial) \
             with its rigorous rounding bound; the product rule and EMM have no exact engine \
             (exact and z empty)"
        }
        EvaluatorSetting::Natural { .. } => {
            "exact: D(d, H) of minimax on the unaltered fraction of 1-squares (minimax_fraction, \
             not one of the paper's curves) from the f64 engine (pathology exact, evaluator \
             count) with its rigorous rounding bound; minimax on the binary natural evaluator, \
             the product rule and EMM have no exact engine (exact and z empty)"
        }
    };
    match missing {
        None => which.to_string(),
        Some(e) => format!("no exact value for this setting ({e}); exact and z empty"),
    }
}

fn calibration_note(evaluator: &EvaluatorSetting) -> Option<String> {
    match evaluator {
        EvaluatorSetting::Artificial { .. } => None,
        EvaluatorSetting::Natural { games, seed } => Some(format!(
            "EMM's errors: calibrated on {games} random boards with seed {seed}, the same table \
             in every shard (`pathology mc emm-calibrate --games {games} --seed {seed}` with the \
             same game, b, H and p writes it; a table given with --calibration is recorded by \
             its games and seed, which regenerate it)"
        )),
    }
}

/// The report of `pathology mc emm` from the counts of a run (or of the summed shards).
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::report::{EmmSetting, EvaluatorSetting, study_report};
/// use pathology::studies::wilson_parker_nau::study::{StudyEvaluator, run_counts};
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// use pathology::sim::report::McRun;
/// use pathology::sim::TrialRunner;
/// let spec = BoardSpec::new(GameKind::N, 2, 4, 0.5).unwrap();
/// let counts = run_counts(&spec, &StudyEvaluator::Artificial { error: 0.1 },
///                         &TrialRunner::new(500, 3, 1).unwrap()).unwrap();
/// let setting = EmmSetting { spec, evaluator: EvaluatorSetting::Artificial { error: 0.1 } };
/// let run = McRun { trials: 500, seed: 3, shard: None };
/// let report = study_report(&setting, &run, &counts);
/// let table = report.table("estimates").unwrap();
/// assert_eq!(table.rows.len(), 4 * 3); // one row per (depth, algorithm)
/// assert_eq!(report.manifest.command_line(),
///            "pathology mc emm --game n --branching 2 --height 4 --p 0.5 --evaluator artificial --error 0.1 --trials 500 --seed 3");
/// ```
pub fn study_report(setting: &EmmSetting, run: &McRun, counts: &StudyCounts) -> Report {
    let exact = setting.exact();
    let rows = setting_rows(setting, run.seed, counts, exact.as_ref().ok());
    let title = format!(
        "Fraction of correct decisions at the root by search depth: {}; minimax, the product \
         rule and EMM (Wilson, Parker & Nau 2009) against the exact minimax value",
        setting.describe()
    );
    let mut table = Table::new("estimates", &title, study_columns());
    for row in rows.rows {
        table.push(row);
    }
    table.grid = Some(Grid {
        header: vec![rows.header],
        body: rows
            .body
            .into_iter()
            .map(|mut cells| {
                let label = cells.remove(0).human_key();
                (label, cells)
            })
            .collect(),
        rules_after: Vec::new(),
    });
    let report = setting.parameters(Report::new("mc emm", &title));
    let report = report.param("trials", run.trials);
    let report = match run.shard {
        Some(s) => report.param("shard", s),
        None => report,
    };
    let mut report = report
        .mode("monte-carlo")
        .seed(run.seed)
        .with_table(table)
        .note(format!(
            "{} non-trivial games{} ({} boards drawn), seed {}",
            counts.games,
            run.shard
                .map(|s| format!(" in shard {s} of {}", run.trials))
                .unwrap_or_default(),
            counts.boards_drawn,
            run.seed
        ))
        .note(INTERVAL_NOTE)
        .note(exact_note(&setting.evaluator, exact.as_ref().err()));
    if let Some(note) = calibration_note(&setting.evaluator) {
        report = report.note(note);
    }
    report
}

/// `pathology merge` for `mc emm`: the counts (and boards drawn) of the shards summed, and the
/// report of the unsharded run built from them. `parameters` are the shards' common manifest
/// parameters.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` when a shard lacks a column, has other rows or
/// non-integer counts, or the summed games are not the run's trials; naming the file, line and
/// column of a printed estimate, interval or z that is not its row's counts'.
pub(crate) fn merge_shards(
    run: &McRun,
    parameters: &[(String, String)],
    inputs: &[(String, ReadTable)],
) -> Result<Report> {
    let setting = EmmSetting::from_parameters(parameters)?;
    let mut counts: Option<StudyCounts> = None;
    for (file, table) in inputs {
        let manifest = crate::sim::report::Manifest::read(table, file)?;
        let slice = {
            let range = manifest.shard.range(manifest.trials);
            range.end - range.start
        };
        let column = |name: &str| {
            table.column(name).ok_or_else(|| {
                Error::invalid("FILE", &format!("a table with a {name} column"), file)
            })
        };
        let [s, t, drawn, d, a] =
            ["successes", "trials", "boards_drawn", "d", "algorithm"].map(column);
        let (s, t, drawn, d, a) = (s?, t?, drawn?, d?, a?);
        let mut shard = StudyCounts {
            games: 0,
            boards_drawn: 0,
            correct: vec![[Proportion::default(); 4]; setting.spec.tree.height() as usize],
            fraction: matches!(setting.evaluator, EvaluatorSetting::Natural { .. }),
        };
        let expected = shard.correct.len() * shard.decisions();
        if table.rows.len() != expected {
            return Err(Error::invalid(
                "FILE",
                &format!("{expected} rows (one per depth and algorithm)"),
                format!("{file} with {} rows", table.rows.len()),
            ));
        }
        for (i, (line, fields)) in table.rows.iter().enumerate() {
            let field = |c: usize| fields.get(c).map(String::as_str).unwrap_or("");
            let number = |c: usize| {
                field(c).parse::<u64>().map_err(|_| {
                    Error::invalid(
                        &format!("{file} line {line}"),
                        "whole-number counts",
                        field(c),
                    )
                })
            };
            let (depth, decision) = (i / shard.decisions() + 1, i % shard.decisions());
            if field(d) != depth.to_string() || field(a) != DECISIONS[decision] {
                return Err(Error::invalid(
                    &format!("{file} line {line}"),
                    &format!("the row of d = {depth}, algorithm {}", DECISIONS[decision]),
                    format!("d = {}, algorithm {}", field(d), field(a)),
                ));
            }
            let (successes, trials) = (number(s)?, number(t)?);
            if i == 0 {
                shard.games = trials;
                shard.boards_drawn = number(drawn)?;
                if trials != slice || shard.boards_drawn < trials {
                    return Err(Error::invalid(
                        &format!("{file} line {line}"),
                        &format!(
                            "the shard's {slice} games (shard {} of the manifest's {}), drawn from at least as many boards",
                            manifest.shard, manifest.trials
                        ),
                        format!("trials {trials}, boards_drawn {}", shard.boards_drawn),
                    ));
                }
            }
            if trials != shard.games || successes > trials {
                return Err(Error::invalid(
                    &format!("{file} line {line}"),
                    &format!(
                        "at most as many successes as trials, and the shard's {} trials",
                        shard.games
                    ),
                    format!("successes {successes}, trials {trials}"),
                ));
            }
            // The estimate, interval and z the row prints are its counts' (the check of every
            // mergeable experiment's shard rows).
            crate::sim::report::check_printed(
                &format!("{file} line {line}"),
                table,
                fields,
                &["successes", "trials"],
                &[successes, trials],
                &crate::sim::report::Printed::comparison,
            )?;
            shard.correct[depth - 1][decision] = Proportion { successes, trials };
        }
        counts = Some(match counts {
            None => shard,
            Some(mut sum) => {
                sum.games += shard.games;
                sum.boards_drawn += shard.boards_drawn;
                for (x, y) in sum.correct.iter_mut().zip(&shard.correct) {
                    for (p, q) in x.iter_mut().zip(y) {
                        p.successes += q.successes;
                        p.trials += q.trials;
                    }
                }
                sum
            }
        });
    }
    let counts = counts.ok_or_else(|| Error::invalid("FILE", "at least one shard", "none"))?;
    if counts.games != run.trials {
        return Err(Error::invalid(
            "FILE",
            &format!(
                "shards whose games add up to the run's {} trials",
                run.trials
            ),
            counts.games,
        ));
    }
    Ok(study_report(&setting, run, &counts))
}

/// The report of `pathology mc emm-calibrate`: the natural evaluator's error by node height
/// and judgement.
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::report::calibration_report;
/// use pathology::studies::wilson_parker_nau::study::calibrate;
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// use pathology::sim::TrialRunner;
/// let spec = BoardSpec::new(GameKind::P, 2, 3, 0.5).unwrap();
/// let table = calibrate(&spec, &TrialRunner::new(100, 2, 1).unwrap()).unwrap();
/// let report = calibration_report(&table);
/// assert_eq!(report.tables[0].rows.len(), 6); // two judgements per height
/// assert_eq!(report.manifest.command_line(),
///            "pathology mc emm-calibrate --game p --branching 2 --height 3 --p 0.5 --games 100 --seed 2");
/// ```
pub fn calibration_report(c: &Calibration) -> Report {
    let title = format!(
        "Natural evaluator, made binary (more winning squares for the player to move: a win; \
         ties the mover's), error by node height: {}-games, b = {}, H = {}, p = {:.4}",
        c.game.name().to_uppercase(),
        c.branching,
        c.height,
        c.p
    );
    let mut table = Table::new(
        "calibration",
        &title,
        vec![
            Column::key("kind", Kind::Text),
            Column::key("game", Kind::Text),
            Column::key("b", Kind::Integer),
            Column::key("h", Kind::Integer),
            Column::key("p", Kind::Real),
            Column::key("seed", Kind::Text),
            Column::key("node_height", Kind::Integer).labelled("height"),
            Column::key("judged", Kind::Text),
            Column::new("nodes", Kind::Integer),
            Column::new("wrong", Kind::Integer),
            Column::new("error", Kind::Interval).labelled("error [95% CI]"),
        ],
    );
    for r in &c.rows {
        let (lower, upper) = if r.nodes == 0 {
            (0.0, 1.0)
        } else {
            Proportion {
                successes: r.wrong,
                trials: r.nodes,
            }
            .wilson_interval(Z_95)
        };
        table.push(vec![
            Cell::text("emm-calibration"),
            Cell::text(c.game.name()),
            Cell::int(c.branching),
            Cell::int(c.height),
            Cell::Real(c.p),
            Cell::text(c.seed.to_string()),
            Cell::int(r.node_height),
            Cell::text(if r.judged_win_for_max {
                "win for Max"
            } else {
                "loss for Max"
            }),
            Cell::int(r.nodes),
            Cell::int(r.wrong),
            Cell::Interval {
                estimate: r.error,
                lower,
                upper,
            },
        ]);
    }
    Report::new("mc emm-calibrate", &title)
        .param("game", c.game.name())
        .param("branching", c.branching)
        .param("height", c.height)
        .param("p", format_f64(c.p))
        .param("games", c.games)
        .mode("monte-carlo")
        .seed(c.seed)
        .with_table(table)
        .note(format!(
            "{} random boards (not conditioned on being non-trivial), seed {}; error = wrong / \
             nodes, EMM's error for that judgement (1/2 when no node was so judged), with its \
             95% Wilson interval",
            c.games, c.seed
        ))
}

/// One of Wilson, Parker & Nau's Figs. 3-6.
struct WilsonFigure {
    number: u32,
    game: GameKind,
    natural: bool,
}

/// The tables of [`wilson_figures`]'s report, in order: each figure's data, the claims and
/// the files written.
pub const WILSON_FIGURE_TABLES: [&str; 7] = [
    "wilson_fig3_p_artificial",
    "wilson_fig4_p_natural",
    "wilson_fig5_n_artificial",
    "wilson_fig6_n_natural",
    "claims",
    "claims_summary",
    "files",
];

const WILSON_FIGURES: [WilsonFigure; 4] = [
    WilsonFigure {
        number: 3,
        game: GameKind::P,
        natural: false,
    },
    WilsonFigure {
        number: 4,
        game: GameKind::P,
        natural: true,
    },
    WilsonFigure {
        number: 5,
        game: GameKind::N,
        natural: false,
    },
    WilsonFigure {
        number: 6,
        game: GameKind::N,
        natural: true,
    },
];

/// The figures' branching factors and height (Wilson et al.: b = 2 and 3, d = 10).
const FIGURE_BRANCHINGS: [u32; 2] = [2, 3];
const FIGURE_HEIGHT: u32 = 10;
/// The artificial evaluator's error in Figs. 3 and 5.
const FIGURE_ERROR: f64 = 0.1;

/// One game and branching factor of [`wilson_figures`]: the natural evaluator's setting, and
/// the artificial and natural counts on the same boards.
type SharedRun = (
    (GameKind, u32),
    ((EvaluatorSetting, StudyEvaluator), Vec<StudyCounts>),
);

/// The claims tables' note (the correlation bound of [`super::claims`]).
const CLAIMS_NOTE: &str = "claims: every depth and rule of a setting is measured on the same games, \
     so the standard error of a difference is bounded by the sum of the two (conservative: a decided \
     claim stays decided under any correlation); depth 1 to 9 because depth 10 reaches the leaves.";

/// Wilson, Parker & Nau's Figs. 3-6 as written by [`wilson_figures`].
#[derive(Debug, Clone, PartialEq)]
pub struct WilsonFigures {
    /// Every figure's rows (one table per figure) and the files written.
    pub report: Report,
    /// The files written, in order.
    pub files: Vec<PathBuf>,
}

/// Draws a figure's panels, with the exact lines of each panel, to a file (the error as text).
pub type DrawPanels<'a> =
    dyn Fn(&Path, &[Panel], &[Vec<ExactLine>]) -> std::result::Result<(), String> + 'a;

fn unwritable(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::invalid(
        "--out",
        "a directory where the figures can be written",
        format!("{}: {e}", path.display()),
    )
}

fn figure_report(games: u64, seed: u64, caption: &str) -> Report {
    Report::new("mc emm-figures", caption)
        .param("games", games)
        .mode("monte-carlo")
        .seed(seed)
}

/// Wilson, Parker & Nau's Figs. 3-6 at `games` non-trivial games per setting (b = 2 and 3,
/// d = 10), into `out`: each figure's data as CSV (the report layer's CSV, with the exact
/// column), the natural evaluator's calibration tables (JSON; estimated on `games` boards
/// with [`calibration_seed`]), and each figure as PNG and SVG with one panel per branching
/// factor and the exact minimax curve as a dashed line where it exists. The same arguments
/// give byte-identical files for any `threads`. The figures are drawn by `draw(path, panels,
/// exact lines of each panel)` ([`crate::plot::studies::wilson_figures`] passes the plotter),
/// so this study builds the figures' data and knows no drawing library.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--out` when a file cannot be written, `--games` when it
/// is 0.
pub fn wilson_figures(
    out: &Path,
    games: u64,
    seed: u64,
    threads: usize,
    draw: &DrawPanels<'_>,
) -> Result<WilsonFigures> {
    if games == 0 {
        return Err(Error::invalid("--games", "at least 1", games));
    }
    std::fs::create_dir_all(out).map_err(|e| unwritable(out, e))?;
    let mut files = Vec::new();
    let mut summary = figure_report(
        games,
        seed,
        &format!(
            "Wilson, Parker & Nau (2009) Figs. 3-6: correct decisions of minimax, the product \
             rule and EMM at search depths 1..{FIGURE_HEIGHT}, b = 2 and 3, {games} non-trivial \
             games per setting"
        ),
    );
    let mut shared: Vec<SharedRun> = Vec::new();
    let mut panel_counts = Vec::new();
    for figure in &WILSON_FIGURES {
        let stem = format!(
            "wilson_fig{}_{}_{}",
            figure.number,
            figure.game.name(),
            if figure.natural {
                "natural"
            } else {
                "artificial"
            }
        );
        let mut caption = String::new();
        let mut table: Option<Table> = None;
        let mut grid = Grid::default();
        let mut panels = Vec::new();
        let mut exact_lines = Vec::new();
        let mut notes = Vec::new();
        for branching in FIGURE_BRANCHINGS {
            let spec = BoardSpec::new(
                figure.game,
                branching,
                FIGURE_HEIGHT,
                figure.game.default_parameter(branching)?,
            )?;
            // A game's artificial and natural figures share the seed, hence the boards: both
            // run on one draw of them (run_counts_shared), the calibration estimated first.
            let key = (figure.game, branching);
            if !shared.iter().any(|(k, _)| *k == key) {
                let source = CalibrationSource::Estimate {
                    games,
                    seed: calibration_seed(seed),
                };
                let natural = natural_evaluator(&spec, source, threads)?;
                let runner = TrialRunner::new(games, seed, threads)?.with_progress(&format!(
                    "Figs. {} b = {branching}",
                    if figure.game == GameKind::P {
                        "3-4"
                    } else {
                        "5-6"
                    }
                ));
                let evaluators = [
                    StudyEvaluator::Artificial {
                        error: FIGURE_ERROR,
                    },
                    natural.1.clone(),
                ];
                let counts = run_counts_shared(&spec, &evaluators, &runner)?;
                shared.push((key, (natural, counts)));
            }
            let ((natural_setting, natural_evaluator), shared_counts) = shared
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.clone())
                .expect("computed above");
            let setting = if figure.natural {
                if let StudyEvaluator::Natural(table) = &natural_evaluator {
                    let path = out.join(format!(
                        "wilson_calibration_{}_b{branching}_d{FIGURE_HEIGHT}.json",
                        figure.game.name()
                    ));
                    if !files.contains(&path) {
                        table.save(&path)?;
                        files.push(path);
                    }
                }
                natural_setting
            } else {
                EvaluatorSetting::Artificial {
                    error: FIGURE_ERROR,
                }
            };
            let setting = EmmSetting {
                spec: spec.clone(),
                evaluator: setting,
            };
            let counts = shared_counts[usize::from(figure.natural)].clone();
            panel_counts.push(super::claims::FigureCounts {
                figure: figure.number,
                game: figure.game,
                natural: figure.natural,
                branching,
                counts: counts.clone(),
            });
            let exact = setting.exact();
            let rows = setting_rows(&setting, seed, &counts, exact.as_ref().ok());
            caption = format!(
                "Wilson et al. Fig. {}: {}-games, {}, height h = {FIGURE_HEIGHT}, b = 2 and 3",
                figure.number,
                figure.game.name().to_uppercase(),
                setting.evaluator_name()
            );
            let t = table.get_or_insert_with(|| Table::new(&stem, &caption, study_columns()));
            for row in rows.rows {
                t.push(row);
            }
            if grid.header.is_empty() {
                let mut header = vec!["b".to_string()];
                header.extend(rows.header.iter().cloned());
                grid.header.push(header);
            } else {
                grid.rules_after.push(grid.body.len() - 1);
            }
            for cells in rows.body {
                grid.body.push((branching.to_string(), cells));
            }
            notes.push(format!(
                "b = {branching}: {} non-trivial games ({} boards drawn)",
                counts.games, counts.boards_drawn
            ));
            if let Err(e) = &exact {
                notes.push(format!("b = {branching}: no exact value ({e})"));
            }
            let (panel, line) =
                figure_panel(figure, &setting, games, &rows.comparisons, exact.ok());
            panels.push(panel);
            exact_lines.push(line.into_iter().collect::<Vec<_>>());
        }
        let mut table = table.expect("two branching factors");
        table.caption = caption.clone();
        table.grid = Some(grid);
        let mut report = figure_report(games, seed, &caption).with_table(table.clone());
        let evaluator = if figure.natural {
            EvaluatorSetting::Natural {
                games,
                seed: calibration_seed(seed),
            }
        } else {
            EvaluatorSetting::Artificial {
                error: FIGURE_ERROR,
            }
        };
        for note in notes
            .iter()
            .cloned()
            .chain([INTERVAL_NOTE.to_string(), exact_note(&evaluator, None)])
            .chain(calibration_note(&evaluator))
        {
            report = report.note(note);
        }
        let csv = crate::report::CsvFiles::render(&report, &ExportOptions::default())?
            .write(&out.join(format!("{stem}.csv")))
            .map_err(|(path, e)| unwritable(&path, e))?;
        files.extend(csv);
        for ext in ["png", "svg"] {
            let path = out.join(format!("{stem}.{ext}"));
            draw(&path, &panels, &exact_lines).map_err(|e| unwritable(&path, e))?;
            files.push(path);
        }
        summary = summary.with_table(table);
        for note in notes {
            summary = summary.note(format!("Fig. {} {note}", figure.number));
        }
    }
    let families = super::claims::claim_families(&panel_counts);
    let claims_report = figure_report(
        games,
        seed,
        &format!(
            "Wilson, Parker & Nau (2009) Figs. 3-6: the paper's claims on {games} non-trivial \
             games per setting"
        ),
    )
    .with_table(crate::report::claims::claims_table(&families))
    .with_table(crate::report::claims::summary_table(&families))
    .note(CLAIMS_NOTE);
    let claims_path = out.join("wilson_claims.txt");
    let text = Format::Text
        .exporter()
        .export(&claims_report, &ExportOptions::default())?;
    crate::report::output::write_atomically(&claims_path, text)
        .map_err(|e| unwritable(&claims_path, e))?;
    files.push(claims_path);
    summary = summary
        .with_table(crate::report::claims::claims_table(&families))
        .with_table(crate::report::claims::summary_table(&families))
        .note(CLAIMS_NOTE);
    let mut listing = Table::new(
        "files",
        "Files written",
        vec![Column::new("file", Kind::Text)],
    );
    for f in &files {
        listing.push(vec![Cell::text(f.display().to_string())]);
    }
    let summary = summary
        .with_table(listing)
        .note(INTERVAL_NOTE)
        .note(
            "exact: the exact minimax curve (f64 engine, rigorous bound) of minimax with the \
             artificial evaluator (Figs. 3, 5) and of minimax on the unaltered fraction with the \
             natural evaluator (Figs. 4, 6; not one of the paper's curves); the product rule, \
             EMM and binary natural minimax have none",
        )
        .note(format!(
            "Figs. 4 and 6: EMM's errors calibrated on {games} random boards with seed {}",
            calibration_seed(seed)
        ));
    Ok(WilsonFigures {
        report: summary,
        files,
    })
}

/// One panel of a figure (one branching factor) and its exact line.
fn figure_panel(
    figure: &WilsonFigure,
    setting: &EmmSetting,
    games: u64,
    comparisons: &[Vec<Comparison>],
    exact: Option<ExactCurve>,
) -> (Panel, Option<ExactLine>) {
    // With the natural evaluator minimax and EMM see the fraction of 1-squares made binary
    // (more wins than losses: a win), as the paper has it; minimax on the fraction itself is
    // ours, and the exact curve is its own: the legend says which is which.
    let names = if figure.natural {
        [
            "minimax on win/loss (the paper's)",
            "product",
            "EMM",
            "minimax on the fraction (ours)",
        ]
    } else {
        [
            "minimax",
            "product",
            "EMM",
            "minimax on the fraction (ours)",
        ]
    };
    let mut series = Vec::new();
    let mut low: f64 = 1.0;
    for (a, name) in names.iter().enumerate() {
        let points: Vec<ErrorPoint> = comparisons
            .iter()
            .zip(1u32..)
            .filter_map(|(c, depth)| c.get(a).map(|c| (c, depth)))
            .map(|(c, depth)| ErrorPoint {
                x: f64::from(depth),
                y: c.estimate,
                low: c.ci_low,
                high: c.ci_high,
            })
            .collect();
        if points.is_empty() {
            continue;
        }
        low = points.iter().fold(low, |l, p| l.min(p.low));
        series.push(ErrorSeries {
            label: name.to_string(),
            points,
        });
    }
    let line = exact.map(|curve| {
        low = curve.values.iter().fold(low, |l, &v| l.min(v));
        ExactLine {
            label: format!("exact {}", names[curve.decision]),
            points: curve
                .values
                .iter()
                .zip(1u32..)
                .map(|(&v, d)| (f64::from(d), v))
                .collect(),
        }
    });
    // The same margin as the other study figures, then room below the data for the legend.
    let margin = 0.1 * (1.0 - low) + 0.005;
    let low = ((low - margin) * 100.0).floor() / 100.0;
    let low = ((low - 0.35 * (1.0 - low)) * 100.0).floor() / 100.0;
    let panel = Panel {
        axes: Axes {
            title: format!(
                "Wilson et al. Fig. {}: {}-games, {}, b = {}, h = {FIGURE_HEIGHT}",
                figure.number,
                figure.game.name().to_uppercase(),
                if figure.natural {
                    "natural".to_string()
                } else {
                    format!("artificial (e = {})", format_f64(FIGURE_ERROR))
                },
                setting.branching()
            ),
            x_label: if figure.natural {
                // Why the two minimax curves lie far apart, on the figure itself.
                format!(
                    "search depth ({games} non-trivial games; win/loss: half or more winning \
                     squares is a win)"
                )
            } else {
                format!("search depth ({games} non-trivial games)")
            },
            y_label: "fraction of correct decisions".to_string(),
            x_range: (0.5, f64::from(FIGURE_HEIGHT) + 0.5),
            x_scale: Scale::Linear,
            y_range: (low, 1.0),
        },
        series,
        legend: LegendPosition::LowerLeft,
        reference: None,
    };
    (panel, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_round_trip_through_the_manifest() {
        let spec =
            BoardSpec::new(GameKind::P, 3, 5, GameKind::P.default_parameter(3).unwrap()).unwrap();
        for evaluator in [
            EvaluatorSetting::Artificial { error: 0.15 },
            EvaluatorSetting::Natural {
                games: 77,
                seed: u64::MAX,
            },
        ] {
            let setting = EmmSetting {
                spec: spec.clone(),
                evaluator,
            };
            let report = setting.parameters(Report::new("mc emm", "t"));
            let back = EmmSetting::from_parameters(&report.manifest.parameters).unwrap();
            assert_eq!(back, setting);
        }
    }
}
