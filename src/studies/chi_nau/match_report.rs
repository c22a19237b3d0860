//! Chi & Nau's (1987) minimax-against-product studies as [`Report`]s: `mc match` (one
//! setting), `mc match-sweep` (Section 5, Fig. 3: minimax's share against `rhf(w)` for
//! `e^w`, `w = 0..0.5`) and `mc match-table` (Section 4.4: depth-11 P-games, `e1` against
//! `e2`, search depths 2..9, beside the paper's numbers), and their shards merged.
//!
//! The rows are tidy and self-describing: the setting is in key columns (`kind`, `game`, `b`,
//! `h`, `p`, `search_depth`, `evaluator`, `w`, `seed`; `match-sweep` adds the closed-form
//! `rhf`, `match-table` the paper's value `paper`), beside the counts (`pairs`,
//! `minimax_wins`, and the pairs minimax lost both games of, split 1-1, won both games of)
//! and minimax's share of the games as an interval cell `share` (estimate with its 95%
//! interval, [`PairCounts::interval`]: `z^2/2` pseudo-pairs at 0 and at 1, the Agresti-Coull
//! adjustment generalised to pair scores in {0, 1/2, 1}, honest at small n). The text,
//! Markdown and LaTeX exports show a grid laid out like the paper instead of the tidy rows.
//!
//! Every report is built from the pair counts alone ([`match_report`], [`figure_3_report`],
//! [`depth_table_report`]); a sharded run (`--shard K/N`) prints its slice's counts and
//! [`merge`] sums the counts of the N slices and calls the same builder, so the merged output
//! is byte-identical to the unsharded run with the same seed.

use super::matches::{
    self, DepthTableRow, MatchEvaluator, MatchResult, PairCounts, SweepPoint, chi_nau_board,
    figure_3_weights, match_pair_seconds,
};
use crate::error::{Error, Result};
use crate::report::figure::{
    Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel, Scale, interval_y_range,
};
use crate::report::read::ReadTable;
use crate::report::{Cell, Column, Grid, Kind, Report, Table, format_f64};
use crate::sim::level_tree::{BoardSpec, GameKind};
use crate::sim::report::Parameters;
use crate::sim::report::{McRun, RunConfig};
use crate::sim::runner::TrialRunner;

/// Chi & Nau's Section 4.4 table (P-games of depth 11): search depth, minimax's share with
/// `e1` and `e2`, in percent.
pub const CHI_NAU_DEPTH_11: [(u32, f64, f64); 8] = [
    (2, 51.0, 52.1),
    (3, 52.5, 51.8),
    (4, 49.9, 50.3),
    (5, 50.7, 49.3),
    (6, 46.2, 48.1),
    (7, 46.7, 48.4),
    (8, 44.9, 48.6),
    (9, 47.2, 50.0),
];

/// The search depth of Chi & Nau's Fig. 3.
pub const FIGURE_3_SEARCH_DEPTH: u32 = 2;
/// The board height of Chi & Nau's Fig. 3.
pub const FIGURE_3_HEIGHT: u32 = 6;
/// The board height of Chi & Nau's Section 4.4 table.
pub const DEPTH_TABLE_HEIGHT: u32 = 11;

const NOTE: &str = "share: minimax's fraction of the 2 x pairs games (each board played twice, \
     each rule moving first once); 95% interval over pairs from the counts alone: z^2/2 \
     pseudo-pairs scoring 0 and z^2/2 scoring 1 added to the pair scores (0, 1/2, 1), normal \
     interval of the adjusted mean and variance clipped to [0, 1] (Agresti-Coull for unsplit \
     pairs; never of zero width)";

/// One match setting of `mc match`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchSetting {
    /// P-games or N-games.
    pub game: GameKind,
    /// The branching factor b.
    pub branching: u32,
    /// The board's height.
    pub height: u32,
    /// The square (P) or edge (N) probability.
    pub p: f64,
    /// The search depth of both players.
    pub search_depth: u32,
    /// The evaluator of both players.
    pub evaluator: MatchEvaluator,
}

impl MatchSetting {
    /// The boards.
    ///
    /// # Errors
    ///
    /// As [`BoardSpec::new`].
    pub fn board(&self) -> Result<BoardSpec> {
        BoardSpec::new(self.game, self.branching, self.height, self.p)
    }

    /// Plays the match on `runner`'s pairs (its shard's, if sharded) and returns the report.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::TrialRunner;
    /// use pathology::sim::level_tree::GameKind;
    /// use pathology::studies::chi_nau::match_report::MatchSetting;
    /// use pathology::studies::chi_nau::matches::MatchEvaluator;
    /// use pathology::sim::report::McRun;
    /// let setting = MatchSetting {
    ///     game: GameKind::P, branching: 2, height: 6, p: 0.382, search_depth: 2,
    ///     evaluator: MatchEvaluator::Weighted { w: 0.5 },
    /// };
    /// let run = McRun { trials: 50, seed: 1, shard: None };
    /// let report = setting.run(&run, &TrialRunner::new(50, 1, 1).unwrap()).unwrap();
    /// let table = report.table("matches").unwrap();
    /// assert_eq!(table.rows.len(), 1);
    /// assert_eq!(report.manifest.parameter("pairs"), Some("50"));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`matches::play_match`].
    pub fn run(&self, run: &McRun, runner: &TrialRunner) -> Result<Report> {
        let result =
            matches::play_match(&self.board()?, self.search_depth, self.evaluator, runner)?;
        Ok(match_report(self, run, &result))
    }

    fn from_parameters(parameters: &Parameters) -> Result<Self> {
        let evaluator = match parameters.get("evaluator")? {
            "ew" => MatchEvaluator::Weighted {
                w: parameters.parse("w", "a number")?,
            },
            "e1" => MatchEvaluator::Natural,
            "e2" => MatchEvaluator::Forced,
            other => {
                return Err(Error::invalid(
                    "manifest parameter evaluator",
                    "ew, e1 or e2",
                    other,
                ));
            }
        };
        Ok(MatchSetting {
            game: match parameters.get("game")? {
                "n" => GameKind::N,
                _ => GameKind::P,
            },
            branching: parameters.parse("branching", "a number")?,
            height: parameters.parse("height", "a number")?,
            p: parameters.parse("p", "a number")?,
            search_depth: parameters.parse("search_depth", "a number")?,
            evaluator,
        })
    }
}

/// The evaluator of `mc match` as the command line names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MatchEvaluatorKind {
    /// Chi & Nau's e^w = w u + (1 - w) r (needs --w).
    Ew,
    /// e1: the fraction of 1-squares.
    E1,
    /// e2: e1 that also detects forced lines (our reconstruction, see the docs).
    E2,
}

/// `mc match`: one setting with the options as given (`None`: the default).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchRequest {
    /// P-games or N-games.
    pub game: GameKind,
    /// The branching factor b.
    pub branching: u32,
    /// The board's height.
    pub height: u32,
    /// The square (P) or edge (N) probability; default w_b for P-games, 1/2 for N-games.
    pub p: Option<f64>,
    /// The search depth of both players.
    pub search_depth: u32,
    /// The evaluator of both players.
    pub evaluator: MatchEvaluatorKind,
    /// The weight w of e^w (only with [`MatchEvaluatorKind::Ew`], which needs it).
    pub w: Option<f64>,
}

impl MatchRequest {
    /// The setting, with the defaults filled in.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--w` when it is missing for e^w or given for
    /// another evaluator, `--branching` when the default p needs b >= 2.
    pub fn setting(&self) -> Result<MatchSetting> {
        let p = self.game.parameter_or_default(self.branching, self.p)?;
        let evaluator = match (self.evaluator, self.w) {
            (MatchEvaluatorKind::Ew, Some(w)) => MatchEvaluator::Weighted { w },
            (MatchEvaluatorKind::Ew, None) => {
                return Err(Error::invalid(
                    "--w",
                    "given with --evaluator ew (a weight in [0, 1])",
                    "nothing",
                ));
            }
            (_, Some(_)) => {
                return Err(Error::invalid(
                    "--w",
                    "given only with --evaluator ew",
                    "a weight",
                ));
            }
            (MatchEvaluatorKind::E1, None) => MatchEvaluator::Natural,
            (MatchEvaluatorKind::E2, None) => MatchEvaluator::Forced,
        };
        Ok(MatchSetting {
            game: self.game,
            branching: self.branching,
            height: self.height,
            p,
            search_depth: self.search_depth,
            evaluator,
        })
    }

    /// Plays `mc match` on `config.trials` pairs (refused up front beyond an hour) and
    /// returns its report.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::GameKind;
    /// use pathology::sim::report::RunConfig;
    /// use pathology::studies::chi_nau::match_report::{MatchEvaluatorKind, MatchRequest};
    /// let request = MatchRequest {
    ///     game: GameKind::P, branching: 2, height: 4, p: None, search_depth: 2,
    ///     evaluator: MatchEvaluatorKind::Ew, w: Some(0.3),
    /// };
    /// let config = RunConfig { trials: 20, seed: 1, threads: Some(1), shard: None };
    /// assert_eq!(request.play(&config).unwrap().manifest.parameter("pairs"), Some("20"));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`MatchRequest::setting`], [`RunConfig::runner`], [`BoardSpec::new`], the budget
    /// and [`MatchSetting::run`].
    pub fn play(&self, config: &RunConfig) -> Result<Report> {
        let setting = self.setting()?;
        let runner = config.runner("mc match")?.counting("pairs");
        let spec = setting.board()?;
        runner.check_budget_of(
            "--pairs",
            &format!("mc match at height {}", self.height),
            match_pair_seconds(&spec, self.search_depth.min(self.height)),
        )?;
        setting.run(&config.run(), &runner)
    }
}

/// Chi & Nau's Fig. 3 as `mc match-sweep` plays it: the run, its points (for the figure) and
/// its report.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure3Run {
    /// The run as the manifest states it.
    pub run: McRun,
    /// One point per w.
    pub points: Vec<SweepPoint>,
    /// [`figure_3_report`] of the points.
    pub report: Report,
}

/// Plays `mc match-sweep` (refused up front beyond an hour).
///
/// # Errors
///
/// As [`RunConfig::runner`], the budget, [`figure_3_points`] and [`figure_3_report`].
pub fn figure_3_run(config: &RunConfig) -> Result<Figure3Run> {
    let runner = config.runner("mc match-sweep")?.counting("pairs");
    let weights = figure_3_weights().len() as f64;
    runner.check_budget_of(
        "--pairs",
        "mc match-sweep",
        weights * match_pair_seconds(&chi_nau_board(FIGURE_3_HEIGHT)?, FIGURE_3_SEARCH_DEPTH),
    )?;
    let points = figure_3_points(&runner)?;
    let run = config.run();
    let report = figure_3_report(&run, &points)?;
    Ok(Figure3Run {
        run,
        points,
        report,
    })
}

/// Plays `mc match-table` (refused up front beyond an hour) and returns its report.
///
/// # Errors
///
/// As [`RunConfig::runner`], the budget, [`depth_table_rows`] and [`depth_table_report`].
pub fn depth_table(config: &RunConfig) -> Result<Report> {
    let runner = config.runner("mc match-table")?.counting("pairs");
    let board = chi_nau_board(DEPTH_TABLE_HEIGHT)?;
    let per_pair: f64 = CHI_NAU_DEPTH_11
        .iter()
        .map(|&(depth, _, _)| 2.0 * match_pair_seconds(&board, depth))
        .sum();
    runner.check_budget_of("--pairs", "mc match-table", per_pair)?;
    let rows = depth_table_rows(&runner)?;
    depth_table_report(&config.run(), &rows)
}

/// The evaluator's name as `--evaluator` spells it (`ew`, `e1`, `e2`).
///
/// # Examples
///
/// ```
/// use pathology::studies::chi_nau::match_report::evaluator_flag;
/// use pathology::studies::chi_nau::matches::MatchEvaluator;
/// assert_eq!(evaluator_flag(MatchEvaluator::Weighted { w: 0.3 }), "ew");
/// assert_eq!(evaluator_flag(MatchEvaluator::Forced), "e2");
/// ```
pub fn evaluator_flag(evaluator: MatchEvaluator) -> &'static str {
    match evaluator {
        MatchEvaluator::Weighted { .. } => "ew",
        MatchEvaluator::Natural => "e1",
        MatchEvaluator::Forced => "e2",
    }
}

/// The manifest's run parameters: pairs, shard, mode and seed.
fn run_params(run: &McRun, report: Report) -> Report {
    let report = report.param("pairs", run.trials);
    let report = match run.shard {
        Some(s) => report.param("shard", s),
        None => report,
    };
    report.mode("monte-carlo").seed(run.seed)
}

/// The tidy columns: the setting's keys, `extra` (rhf, paper), the counts and the share.
fn columns(extra: &[Column]) -> Vec<Column> {
    let mut columns = vec![
        Column::key("kind", Kind::Text),
        Column::key("game", Kind::Text),
        Column::key("b", Kind::Integer),
        Column::key("h", Kind::Integer),
        Column::key("p", Kind::Real),
        Column::key("search_depth", Kind::Integer),
        Column::key("evaluator", Kind::Text),
        Column::key("w", Kind::Real),
        Column::key("seed", Kind::Text),
    ];
    columns.extend(extra.iter().cloned());
    columns.extend([
        Column::new("pairs", Kind::Integer),
        Column::new("minimax_wins", Kind::Integer),
        Column::new("pairs_lost_both", Kind::Integer),
        Column::new("pairs_split", Kind::Integer),
        Column::new("pairs_won_both", Kind::Integer),
        Column::new("share", Kind::Interval).labelled("minimax share [95% CI]"),
    ]);
    columns
}

/// The share as a cell (empty for a shard with no pairs).
fn share_cell(result: &MatchResult) -> Cell {
    if result.pairs == 0 {
        Cell::Empty
    } else {
        Cell::Interval {
            estimate: result.share.estimate,
            lower: result.share.ci_low,
            upper: result.share.ci_high,
        }
    }
}

/// One tidy row.
fn row(setting: &MatchSetting, seed: u64, extra: Vec<Cell>, result: &MatchResult) -> Vec<Cell> {
    let mut cells = vec![
        Cell::text("match"),
        Cell::text(setting.game.name()),
        Cell::int(setting.branching),
        Cell::int(setting.height),
        Cell::Real(setting.p),
        Cell::int(setting.search_depth),
        Cell::text(evaluator_flag(setting.evaluator)),
        match setting.evaluator {
            MatchEvaluator::Weighted { w } => Cell::Real(w),
            _ => Cell::Empty,
        },
        Cell::text(seed.to_string()),
    ];
    cells.extend(extra);
    let c = &result.counts;
    cells.extend([
        Cell::int(result.pairs),
        Cell::int(result.minimax_wins),
        Cell::int(c.lost_both),
        Cell::int(c.split),
        Cell::int(c.won_both),
        share_cell(result),
    ]);
    cells
}

fn evaluator_text(evaluator: MatchEvaluator) -> String {
    match evaluator {
        MatchEvaluator::Weighted { w } => format!("e^w with w = {}", format_f64(w)),
        other => other.name(),
    }
}

/// The report of `mc match` for one setting's result (a shard's counts, if sharded).
///
/// # Examples
///
/// ```
/// use pathology::sim::level_tree::GameKind;
/// use pathology::studies::chi_nau::match_report::{MatchSetting, match_report};
/// use pathology::studies::chi_nau::matches::{MatchEvaluator, PairCounts};
/// use pathology::sim::report::McRun;
/// use pathology::report::{ExportOptions, Format};
/// let setting = MatchSetting {
///     game: GameKind::P, branching: 2, height: 6, p: 0.382, search_depth: 2,
///     evaluator: MatchEvaluator::Natural,
/// };
/// let counts = PairCounts { lost_both: 0, split: 1, won_both: 0 };
/// let report = match_report(&setting, &McRun { trials: 1, seed: 1, shard: None }, &counts.result());
/// let csv = report.render(Format::Csv, &ExportOptions::default()).unwrap();
/// assert!(csv.contains("share,share_lower,share_upper"));
/// assert!(csv.contains("\nmatch,p,2,6,0.382,2,e1,,1,1,1,0,1,0,0.5,"));
/// ```
pub fn match_report(setting: &MatchSetting, run: &McRun, result: &MatchResult) -> Report {
    let title = format!(
        "Minimax against product (Chi & Nau 1987): {}-games, b = {}, height {}, p = {:.4}, \
         search depth {}, {}",
        setting.game.name().to_uppercase(),
        setting.branching,
        setting.height,
        setting.p,
        setting.search_depth,
        evaluator_text(setting.evaluator)
    );
    let mut report = Report::new("mc match", &title)
        .param("game", setting.game.name())
        .param("height", setting.height)
        .param("branching", setting.branching)
        .param("p", format_f64(setting.p))
        .param("search_depth", setting.search_depth)
        .param("evaluator", evaluator_flag(setting.evaluator));
    if let MatchEvaluator::Weighted { w } = setting.evaluator {
        report = report.param("w", format_f64(w));
    }
    let mut table = Table::new("matches", &title, columns(&[]));
    table.push(row(setting, run.seed, Vec::new(), result));
    table.grid = Some(Grid {
        header: vec![
            [
                "pairs",
                "games won by minimax",
                "minimax won both",
                "split 1-1",
                "product won both",
                "minimax share [95% CI]",
            ]
            .map(String::from)
            .to_vec(),
        ],
        body: vec![(
            result.pairs.to_string(),
            vec![
                Cell::int(result.minimax_wins),
                Cell::int(result.counts.won_both),
                Cell::int(result.counts.split),
                Cell::int(result.counts.lost_both),
                share_cell(result),
            ],
        )],
        rules_after: Vec::new(),
    });
    run_params(run, report).with_table(table).note(NOTE)
}

/// The setting of every Fig. 3 point with weight `w`.
fn figure_3_setting(spec: &BoardSpec, w: f64) -> MatchSetting {
    MatchSetting {
        game: spec.kind,
        branching: spec.tree.branching() as u32,
        height: spec.tree.height(),
        p: spec.parameter,
        search_depth: FIGURE_3_SEARCH_DEPTH,
        evaluator: MatchEvaluator::Weighted { w },
    }
}

/// Chi & Nau's Fig. 3 data on `runner`'s pairs: binary P-games of height 6 with `xi = w_2`,
/// search depth 2, `e^w` for every weight of [`matches::figure_3_weights`] on the same boards.
///
/// # Examples
///
/// ```
/// use pathology::sim::TrialRunner;
/// use pathology::studies::chi_nau::match_report::figure_3_points;
/// let points = figure_3_points(&TrialRunner::new(20, 1, 1).unwrap()).unwrap();
/// assert_eq!(points.len(), 51);
/// assert_eq!(points[50].rhf, 0.0); // w = 0.5: no flaw
/// ```
///
/// # Errors
///
/// As [`matches::sweep`].
pub fn figure_3_points(runner: &TrialRunner) -> Result<Vec<SweepPoint>> {
    let spec = chi_nau_board(FIGURE_3_HEIGHT)?;
    matches::sweep(
        &spec,
        FIGURE_3_SEARCH_DEPTH,
        &matches::figure_3_weights(),
        runner,
    )
}

/// The report of `mc match-sweep` (Chi & Nau's Fig. 3) from its points.
///
/// # Errors
///
/// As [`chi_nau_board`] (never for the fixed board).
pub fn figure_3_report(run: &McRun, points: &[SweepPoint]) -> Result<Report> {
    let spec = chi_nau_board(FIGURE_3_HEIGHT)?;
    let title = format!(
        "Chi & Nau Fig. 3: minimax against product with e^w on binary P-games of height {}, \
         search depth {}, the same boards for every w",
        FIGURE_3_HEIGHT, FIGURE_3_SEARCH_DEPTH
    );
    let report = Report::new("mc match-sweep", &title);
    let mut table = Table::new(
        "sweep",
        &title,
        columns(&[Column::new("rhf", Kind::Real).labelled("rhf(w)")]),
    );
    let mut body = Vec::new();
    for point in points {
        let setting = figure_3_setting(&spec, point.w);
        table.push(row(
            &setting,
            run.seed,
            vec![Cell::Real(point.rhf)],
            &point.result,
        ));
        body.push((
            format!("{:.2}", point.w),
            vec![
                Cell::Real(point.rhf),
                Cell::int(point.result.pairs),
                share_cell(&point.result),
            ],
        ));
    }
    table.grid = Some(Grid {
        header: vec![
            ["w", "rhf(w)", "pairs", "minimax share [95% CI]"]
                .map(String::from)
                .to_vec(),
        ],
        body,
        rules_after: Vec::new(),
    });
    Ok(run_params(run, report)
        .with_table(table)
        .note(format!("rhf(w): the closed form at xi = p; {NOTE}")))
}

/// Chi & Nau's Fig. 3 as an error-bar panel: minimax's share against `rhf(w)`, with the even
/// match (1/2) dashed.
///
/// # Examples
///
/// ```
/// use pathology::sim::TrialRunner;
/// use pathology::studies::chi_nau::match_report::{figure_3_panel, figure_3_points};
/// let points = figure_3_points(&TrialRunner::new(20, 1, 1).unwrap()).unwrap();
/// let panel = figure_3_panel(&points, 20);
/// assert_eq!(panel.series[0].points.len(), 51);
/// assert_eq!(panel.reference, Some(0.5));
/// ```
pub fn figure_3_panel(points: &[SweepPoint], pairs: u64) -> Panel {
    figure_3_panels(points, pairs).swap_remove(0)
}

/// Chi & Nau's Fig. 3 as two panels: [`figure_3_panel`] (against `rhf(w)`, the paper's
/// axis), and the same points against w itself, where the weights 0.35..0.5 that `rhf`
/// crowds into its last few hundredths (rhf(w) is 0 from w about 0.48 on) are spread out.
///
/// # Examples
///
/// ```
/// use pathology::sim::TrialRunner;
/// use pathology::studies::chi_nau::match_report::{figure_3_panels, figure_3_points};
/// let points = figure_3_points(&TrialRunner::new(20, 1, 1).unwrap()).unwrap();
/// let panels = figure_3_panels(&points, 20);
/// assert_eq!(panels.len(), 2);
/// // The second panel's x is w: the points from w = 0.35 on take 30% of its axis.
/// let xs: Vec<f64> = panels[1].series[0].points.iter().map(|p| p.x).collect();
/// let span = panels[1].axes.x_range.1 - panels[1].axes.x_range.0;
/// let late = xs.iter().filter(|&&x| x >= 0.35).fold(f64::INFINITY, |a, &x| a.min(x));
/// assert!((xs.iter().fold(0.0f64, |a, &x| a.max(x)) - late) / span >= 0.29);
/// ```
pub fn figure_3_panels(points: &[SweepPoint], pairs: u64) -> Vec<Panel> {
    let against_rhf = figure_3_rhf_panel(points, pairs);
    let mut against_w = against_rhf.clone();
    against_w.axes.title = "The same games against the weight w".to_string();
    against_w.axes.x_label =
        "w of e^w = w u + (1 - w) r (rhf(w) = 0 from w about 0.48 on)".to_string();
    against_w.axes.x_range = (0.0, 0.5);
    for (point, sweep) in against_w.series[0].points.iter_mut().zip(points) {
        point.x = sweep.w;
    }
    against_w.legend = LegendPosition::Hidden;
    vec![against_rhf, against_w]
}

fn figure_3_rhf_panel(points: &[SweepPoint], pairs: u64) -> Panel {
    let top = points.iter().map(|p| p.rhf).fold(0.0, f64::max);
    Panel {
        axes: Axes {
            title: "Chi & Nau Fig. 3: minimax against product with e^w".to_string(),
            x_label: format!(
                "rhf(w), closed form (binary P-games of depth {FIGURE_3_HEIGHT}, search depth \
                 {FIGURE_3_SEARCH_DEPTH}, {pairs} pairs per w)"
            ),
            y_label: "fraction of games won by minimax".to_string(),
            x_range: (0.0, (top * 1.05 * 100.0).ceil() / 100.0),
            x_scale: Scale::Linear,
            y_range: interval_y_range(
                points
                    .iter()
                    .map(|p| (p.result.share.ci_low, p.result.share.ci_high)),
                0.5,
            ),
        },
        series: vec![ErrorSeries {
            label: "minimax's share (95% interval)".to_string(),
            points: points
                .iter()
                .map(|p| ErrorPoint {
                    x: p.rhf,
                    y: p.result.share.estimate,
                    low: p.result.share.ci_low,
                    high: p.result.share.ci_high,
                })
                .collect(),
        }],
        legend: LegendPosition::UpperRight,
        reference: Some(0.5),
    }
}

/// Chi & Nau's Section 4.4 table on `runner`'s pairs: binary P-games of height 11 with
/// `xi = w_2`, every search depth of [`CHI_NAU_DEPTH_11`], `e1` and `e2`, on the same boards.
///
/// # Errors
///
/// As [`matches::depth_table`].
pub fn depth_table_rows(runner: &TrialRunner) -> Result<Vec<DepthTableRow>> {
    let spec = chi_nau_board(DEPTH_TABLE_HEIGHT)?;
    let depths: Vec<u32> = CHI_NAU_DEPTH_11.iter().map(|r| r.0).collect();
    matches::depth_table(&spec, &depths, runner)
}

/// The report of `mc match-table` (Chi & Nau's Section 4.4 table) from its rows, in tidy long
/// format (one row per search depth and evaluator, with the paper's value in `paper`), shown
/// in the paper's layout by text, Markdown and LaTeX.
///
/// # Examples
///
/// ```
/// use pathology::sim::TrialRunner;
/// use pathology::studies::chi_nau::match_report::{depth_table_report, depth_table_rows};
/// use pathology::sim::report::McRun;
/// let rows = depth_table_rows(&TrialRunner::new(4, 1, 1).unwrap()).unwrap();
/// let report = depth_table_report(&McRun { trials: 4, seed: 1, shard: None }, &rows).unwrap();
/// assert_eq!(report.table("depth_table").unwrap().rows.len(), 16); // 8 depths x (e1, e2)
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--search-depth` when a row's depth is not one of the
/// paper's.
pub fn depth_table_report(run: &McRun, rows: &[DepthTableRow]) -> Result<Report> {
    let spec = chi_nau_board(DEPTH_TABLE_HEIGHT)?;
    let title = format!(
        "Chi & Nau Section 4.4: share of games won by minimax against product, binary P-games \
         of height {DEPTH_TABLE_HEIGHT} (xi = {:.3}), the same boards for every depth and evaluator",
        spec.parameter
    );
    let report = Report::new("mc match-table", &title);
    let mut table = Table::new(
        "depth_table",
        &title,
        columns(&[Column::new("paper", Kind::Real).labelled("paper")]),
    );
    let mut body = Vec::new();
    for r in rows {
        let Some(&(_, paper_e1, paper_e2)) = CHI_NAU_DEPTH_11.iter().find(|p| p.0 == r.depth)
        else {
            return Err(Error::invalid(
                "--search-depth",
                "one of Chi & Nau's depths 2..=9",
                r.depth,
            ));
        };
        let mut cells = Vec::new();
        for (evaluator, result, paper) in [
            (MatchEvaluator::Natural, &r.e1, paper_e1),
            (MatchEvaluator::Forced, &r.e2, paper_e2),
        ] {
            let setting = MatchSetting {
                game: spec.kind,
                branching: spec.tree.branching() as u32,
                height: DEPTH_TABLE_HEIGHT,
                p: spec.parameter,
                search_depth: r.depth,
                evaluator,
            };
            // The paper's one-decimal percentage as the nearest f64 to the fraction (47.2 ->
            // 0.472, not 0.47200000000000003).
            let paper = (paper * 10.0).round() / 1000.0;
            table.push(row(&setting, run.seed, vec![Cell::Real(paper)], result));
            cells.extend([share_cell(result), Cell::Real(paper)]);
        }
        body.push((r.depth.to_string(), cells));
    }
    table.grid = Some(Grid {
        header: vec![
            [
                "search depth",
                "e1: minimax share [95% CI]",
                "paper",
                "e2: minimax share [95% CI]",
                "paper",
            ]
            .map(String::from)
            .to_vec(),
        ],
        body,
        rules_after: Vec::new(),
    });
    Ok(run_params(run, report).with_table(table).note(format!(
        "paper: Chi & Nau's Section 4.4 table (percent of games won by minimax, 3200 pairs per \
         depth) as a fraction; e2 is our reconstruction of their stronger evaluator; {NOTE}"
    )))
}

/// The key columns whose values must agree between shards, row by row.
const KEYS: [&str; 8] = [
    "kind",
    "game",
    "b",
    "h",
    "p",
    "search_depth",
    "evaluator",
    "w",
];

/// The pair counts summed over shards, one entry per row in row order, checking that the rows'
/// keys agree ([`crate::sim::report::summed_columns`]).
fn summed_counts(inputs: &[(String, ReadTable)]) -> Result<Vec<PairCounts>> {
    let columns = ["pairs_lost_both", "pairs_split", "pairs_won_both"];
    let check = |row: &[u64], slice: u64| {
        if row.iter().try_fold(0u64, |s, &v| s.checked_add(v)) == Some(slice) {
            Ok(())
        } else {
            Err(format!("pairs adding up to the shard's {slice}"))
        }
    };
    Ok(
        crate::sim::report::summed_columns(inputs, &KEYS, &columns, &check, &|row, _| {
            PairCounts {
                lost_both: row[0],
                split: row[1],
                won_both: row[2],
            }
            .printed("minimax_wins", "share")
        })?
        .into_iter()
        .map(|row| PairCounts {
            lost_both: row[0],
            split: row[1],
            won_both: row[2],
        })
        .collect(),
    )
}

/// The shards of one `mc match`, `mc match-sweep` or `mc match-table` run (already checked by
/// [`crate::studies::merge::merge`] to be the N shards of one run with this `subcommand`,
/// `parameters` and `seed`) merged into the report of the unsharded run.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` when a table lacks the count columns, the shards'
/// rows differ, or the summed pairs are not the run's.
pub fn merge(
    subcommand: &str,
    parameters: &[(String, String)],
    seed: u64,
    inputs: &[(String, ReadTable)],
) -> Result<Report> {
    let parameters = Parameters(parameters);
    let pairs: u64 = parameters.parse("pairs", "a number")?;
    let run = McRun {
        trials: pairs,
        seed,
        shard: None,
    };
    let counts = summed_counts(inputs)?;
    if let Some(c) = counts.iter().find(|c| c.pairs() != pairs) {
        return Err(Error::invalid(
            "FILE",
            &format!("shards whose pairs add up to the run's {pairs}"),
            c.pairs(),
        ));
    }
    let expected_rows = |n: usize| {
        if counts.len() == n {
            Ok(())
        } else {
            Err(Error::invalid(
                "FILE",
                &format!("{n} rows for {subcommand}"),
                counts.len(),
            ))
        }
    };
    match subcommand {
        "mc match" => {
            expected_rows(1)?;
            let setting = MatchSetting::from_parameters(&parameters)?;
            Ok(match_report(&setting, &run, &counts[0].result()))
        }
        "mc match-sweep" => {
            let weights = matches::figure_3_weights();
            expected_rows(weights.len())?;
            let xi = chi_nau_board(FIGURE_3_HEIGHT)?.parameter;
            let points = weights
                .iter()
                .zip(&counts)
                .map(|(&w, c)| {
                    Ok(SweepPoint {
                        w,
                        rhf: crate::analytic::closed_form::rhf(w, xi)?,
                        result: c.result(),
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            figure_3_report(&run, &points)
        }
        "mc match-table" => {
            expected_rows(2 * CHI_NAU_DEPTH_11.len())?;
            let rows: Vec<DepthTableRow> = CHI_NAU_DEPTH_11
                .iter()
                .zip(counts.chunks(2))
                .map(|(&(depth, _, _), c)| DepthTableRow {
                    depth,
                    e1: c[0].result(),
                    e2: c[1].result(),
                })
                .collect();
            depth_table_report(&run, &rows)
        }
        other => Err(Error::invalid(
            "FILE",
            "the output of mc match, mc match-sweep or mc match-table",
            other,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::read::read_any;
    use crate::report::{ExportOptions, Format};
    use crate::sim::runner::Shard;

    fn setting() -> MatchSetting {
        MatchSetting {
            game: GameKind::P,
            branching: 2,
            height: 6,
            p: chi_nau_board(6).unwrap().parameter,
            search_depth: 2,
            evaluator: MatchEvaluator::Weighted { w: 0.3 },
        }
    }

    /// The library merge: shards' CSV read back and summed give the unsharded report exactly.
    #[test]
    fn shards_merge_into_the_unsharded_report() {
        let s = setting();
        let (pairs, seed) = (101, 9);
        let full_run = McRun {
            trials: pairs,
            seed,
            shard: None,
        };
        let full = s
            .run(&full_run, &TrialRunner::new(pairs, seed, 2).unwrap())
            .unwrap();
        let mut inputs = Vec::new();
        for k in [3, 1, 2] {
            let shard = Shard { index: k, count: 3 };
            let run = McRun {
                shard: Some(shard),
                ..full_run
            };
            let runner = TrialRunner::new(pairs, seed, 1).unwrap().with_shard(shard);
            let report = s.run(&run, &runner).unwrap();
            let format = if k == 2 { Format::Json } else { Format::Csv };
            // A CSV shard carries its manifest inline (`--manifest inline`).
            let inline = ExportOptions {
                inline_manifest: true,
                ..ExportOptions::default()
            };
            let text = report.render(format, &inline).unwrap();
            inputs.push((format!("shard{k}"), read_any(&text, None).unwrap()));
        }
        let merged = crate::studies::merge::merge(&inputs).unwrap();
        assert_eq!(merged, full);
    }

    #[test]
    fn an_empty_shard_has_no_share() {
        let run = McRun {
            trials: 1,
            seed: 1,
            shard: Some(Shard { index: 1, count: 2 }),
        };
        let report = match_report(&setting(), &run, &PairCounts::default().result());
        assert_eq!(report.tables[0].rows[0].last(), Some(&Cell::Empty));
    }
}
