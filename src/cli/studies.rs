//! `pathology mc match | match-sweep | match-table | emm | emm-calibrate | emm-figures`: the
//! game-playing studies of Chi & Nau (1987, Sections 4.4 and 5) and Wilson, Parker & Nau
//! (2009, Figs. 3-6), and [`write_figures`], which regenerates their figures.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;
use pathology::mc::TrialRunner;
use pathology::mc::emm_study::{self, Calibration, StudyEvaluator, StudyResult};
use pathology::mc::level_tree::{BoardSpec, GameKind};
use pathology::mc::matches::{
    self, DepthTableRow, MatchEvaluator, MatchResult, SweepPoint, chi_nau_board,
};
use pathology::output::{align_columns, csv_string};
use pathology::plot::{Axes, ErrorPoint, ErrorSeries, Panel, error_bar_chart};
use plotters::prelude::SeriesLabelPosition;
use serde::Serialize;

use super::mc::McFormat;

/// Options shared by the studies.
#[derive(Debug, Clone, clap::Args)]
pub struct StudyOptions {
    /// Seed of the random streams (the same seed gives the same output for any --threads).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = super::args::threads)]
    pub threads: Option<usize>,
    /// Output format of the printed table.
    #[arg(long, value_enum, default_value_t = McFormat::Text)]
    pub format: McFormat,
}

fn count(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1, got 0".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("must be a whole number of at least 1, got {text}")),
    }
}

fn unit(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("must be a number in [0, 1], got {text}")),
    }
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

impl StudyOptions {
    fn runner(&self, trials: u64, label: &str) -> anyhow::Result<TrialRunner> {
        let threads = self.threads.unwrap_or_else(default_threads);
        Ok(TrialRunner::new(trials, self.seed, threads)?.with_progress(label))
    }
}

/// The evaluator of `mc match`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MatchEvaluatorArg {
    /// Chi & Nau's e^w = w u + (1 - w) r (needs --w).
    Ew,
    /// e1: the fraction of 1-squares.
    E1,
    /// e2: e1 that also detects forced lines (our reconstruction, see the docs).
    E2,
}

#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// Board-splitting game: P-games (p) or N-games (n).
    #[arg(long, value_enum, default_value_t = GameKind::P)]
    game: GameKind,
    /// Height of the game tree (moves in a game).
    #[arg(long, default_value_t = 6)]
    height: u32,
    /// Branching factor b.
    #[arg(long, default_value_t = 2)]
    branching: u32,
    /// Square (P-games) or edge (N-games) probability; default w_b for P-games, 0.5 for N-games.
    #[arg(long, value_parser = unit)]
    p: Option<f64>,
    /// Search depth of both players.
    #[arg(long, default_value_t = 2)]
    search_depth: u32,
    /// Static evaluator.
    #[arg(long, value_enum, default_value_t = MatchEvaluatorArg::Ew)]
    evaluator: MatchEvaluatorArg,
    /// Weight w of e^w, in [0, 1].
    #[arg(long, value_parser = unit)]
    w: Option<f64>,
    /// Number of boards, each played twice (each player moving first once).
    #[arg(long, value_parser = count)]
    pairs: u64,
    #[command(flatten)]
    options: StudyOptions,
}

#[derive(Debug, clap::Args)]
pub struct MatchSweepArgs {
    /// Pairs of games per value of w (Chi & Nau: 8000).
    #[arg(long, value_parser = count, default_value_t = 8000)]
    pairs: u64,
    /// Directory for chi_nau_fig3.{png,svg,csv}.
    #[arg(long, default_value = "plots")]
    out: PathBuf,
    #[command(flatten)]
    options: StudyOptions,
}

#[derive(Debug, clap::Args)]
pub struct MatchTableArgs {
    /// Pairs of games per search depth (Chi & Nau: 3200).
    #[arg(long, value_parser = count, default_value_t = 3200)]
    pairs: u64,
    #[command(flatten)]
    options: StudyOptions,
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn interval(r: &MatchResult) -> String {
    format!("[{}, {}]", pct(r.share.ci_low), pct(r.share.ci_high))
}

#[derive(Serialize)]
struct MatchReport<'a> {
    experiment: &'static str,
    game: GameKind,
    branching: u32,
    height: u32,
    p: f64,
    search_depth: u32,
    #[serde(flatten)]
    evaluator: MatchEvaluator,
    seed: u64,
    #[serde(flatten)]
    result: &'a MatchResult,
}

/// The game's default square parameter, with the error naming the command-line flag.
fn default_parameter(game: GameKind, branching: u32) -> anyhow::Result<f64> {
    game.default_parameter(branching)
        .map_err(|_| pathology::Error::invalid("--branching", "at least 2", branching).into())
}

pub fn run_match(args: MatchArgs) -> anyhow::Result<()> {
    let p = match args.p {
        Some(p) => p,
        None => default_parameter(args.game, args.branching)?,
    };
    let spec = BoardSpec::new(args.game, args.branching, args.height, p)?;
    let evaluator = match (args.evaluator, args.w) {
        (MatchEvaluatorArg::Ew, Some(w)) => MatchEvaluator::Weighted { w },
        (MatchEvaluatorArg::Ew, None) => {
            return Err(pathology::Error::invalid(
                "--w",
                "given with --evaluator ew (a weight in [0, 1])",
                "nothing",
            )
            .into());
        }
        (_, Some(_)) => {
            return Err(pathology::Error::invalid(
                "--w",
                "given only with --evaluator ew",
                "a weight",
            )
            .into());
        }
        (MatchEvaluatorArg::E1, None) => MatchEvaluator::Natural,
        (MatchEvaluatorArg::E2, None) => MatchEvaluator::Forced,
    };
    let runner = args.options.runner(args.pairs, "mc match")?;
    let result = matches::play_match(&spec, args.search_depth, evaluator, &runner)?;
    let report = MatchReport {
        experiment: "mc match",
        game: args.game,
        branching: args.branching,
        height: args.height,
        p,
        search_depth: args.search_depth,
        evaluator,
        seed: args.options.seed,
        result: &result,
    };
    let text = match args.options.format {
        McFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
        McFormat::Csv => csv_string(
            &["pairs", "minimax_wins", "share", "ci_low", "ci_high"],
            &[vec![
                result.pairs.to_string(),
                result.minimax_wins.to_string(),
                result.share.estimate.to_string(),
                result.share.ci_low.to_string(),
                result.share.ci_high.to_string(),
            ]],
        )?,
        McFormat::Text => format!(
            "Minimax against product: {}-game, b = {}, height {}, p = {p:.4}, search depth {}, \
             {}; {} pairs (seed {})\nminimax won {} of {} games: {} (95% interval {})\n",
            args.game.name().to_uppercase(),
            args.branching,
            args.height,
            args.search_depth,
            evaluator.name(),
            result.pairs,
            args.options.seed,
            result.minimax_wins,
            2 * result.pairs,
            pct(result.share.estimate),
            interval(&result),
        ),
    };
    super::print(&text)
}

fn sweep_rows(points: &[SweepPoint]) -> Vec<Vec<String>> {
    points
        .iter()
        .map(|p| {
            vec![
                format!("{:.2}", p.w),
                p.rhf.to_string(),
                p.result.pairs.to_string(),
                p.result.minimax_wins.to_string(),
                p.result.share.estimate.to_string(),
                p.result.share.ci_low.to_string(),
                p.result.share.ci_high.to_string(),
            ]
        })
        .collect()
}

const SWEEP_HEADER: [&str; 7] = [
    "w",
    "rhf",
    "pairs",
    "minimax_wins",
    "share",
    "ci_low",
    "ci_high",
];

/// Chi & Nau's Fig. 3 at `pairs` pairs per point: the points, and the files written.
fn chi_nau_figure_3(
    out: &Path,
    pairs: u64,
    runner_of: impl Fn(u64) -> anyhow::Result<TrialRunner>,
) -> anyhow::Result<(Vec<SweepPoint>, Vec<PathBuf>)> {
    let spec = chi_nau_board(6)?;
    let runner = runner_of(pairs)?;
    let points = matches::sweep(&spec, 2, &matches::figure_3_weights(), &runner)?;
    fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let csv = out.join("chi_nau_fig3.csv");
    fs::write(&csv, csv_string(&SWEEP_HEADER, &sweep_rows(&points))?)
        .with_context(|| format!("writing {}", csv.display()))?;
    let top = points.iter().map(|p| p.rhf).fold(0.0, f64::max);
    let panel = Panel {
        axes: Axes {
            title: "Chi & Nau Fig. 3: minimax against product with e^w".to_string(),
            x_label: format!(
                "rhf(w), closed form (binary P-games of depth 6, search depth 2, {pairs} pairs per w)"
            ),
            y_label: "fraction of games won by minimax".to_string(),
            x_range: (0.0, (top * 1.05 * 100.0).ceil() / 100.0),
            y_range: y_range(points.iter().map(|p| &p.result.share), 0.5),
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
        legend: SeriesLabelPosition::UpperRight,
        reference: Some(0.5),
    };
    let mut files = vec![csv];
    for ext in ["png", "svg"] {
        let path = out.join(format!("chi_nau_fig3.{ext}"));
        error_bar_chart(&path, std::slice::from_ref(&panel))
            .with_context(|| format!("drawing {}", path.display()))?;
        files.push(path);
    }
    Ok((points, files))
}

/// A y range covering every interval and `include`, with a margin, in steps of 0.01.
fn y_range<'a>(
    shares: impl Iterator<Item = &'a pathology::mc::Comparison>,
    include: f64,
) -> (f64, f64) {
    let (low, high) = shares.fold((include, include), |(l, h), c| {
        (l.min(c.ci_low), h.max(c.ci_high))
    });
    let margin = 0.1 * (high - low) + 0.005;
    (
        ((low - margin) * 100.0).floor() / 100.0,
        ((high + margin) * 100.0).ceil() / 100.0,
    )
}

pub fn run_match_sweep(args: MatchSweepArgs) -> anyhow::Result<()> {
    let options = args.options.clone();
    let (points, files) = chi_nau_figure_3(&args.out, args.pairs, |pairs| {
        options.runner(pairs, "mc match-sweep")
    })?;
    let text = match args.options.format {
        McFormat::Json => serde_json::to_string_pretty(&points)? + "\n",
        McFormat::Csv => csv_string(&SWEEP_HEADER, &sweep_rows(&points))?,
        McFormat::Text => {
            let mut table = vec![
                ["w", "rhf", "minimax share", "95% interval"]
                    .map(String::from)
                    .to_vec(),
            ];
            table.extend(points.iter().map(|p| {
                vec![
                    format!("{:.2}", p.w),
                    format!("{:.4}", p.rhf),
                    pct(p.result.share.estimate),
                    interval(&p.result),
                ]
            }));
            format!(
                "Chi & Nau Fig. 3: minimax against product with e^w on binary P-games of depth 6, \
                 search depth 2, {} pairs per w (seed {}; the same boards for every w)\n{}\nwritten: {}\n",
                args.pairs,
                args.options.seed,
                align_columns(&table),
                files
                    .iter()
                    .map(|f| f.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    };
    super::print(&text)
}

/// Chi & Nau's Section 4.4 table (P-games of depth 11): search depth, minimax's share with e1
/// and e2, in percent.
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

#[derive(Serialize)]
struct TableReport<'a> {
    experiment: &'static str,
    height: u32,
    pairs: u64,
    seed: u64,
    rows: Vec<TableRowReport<'a>>,
}

#[derive(Serialize)]
struct TableRowReport<'a> {
    #[serde(flatten)]
    row: &'a DepthTableRow,
    paper_e1: f64,
    paper_e2: f64,
}

pub fn run_match_table(args: MatchTableArgs) -> anyhow::Result<()> {
    let spec = chi_nau_board(11)?;
    let runner = args.options.runner(args.pairs, "mc match-table")?;
    let depths: Vec<u32> = CHI_NAU_DEPTH_11.iter().map(|r| r.0).collect();
    let rows = matches::depth_table(&spec, &depths, &runner)?;
    let report = TableReport {
        experiment: "mc match-table",
        height: 11,
        pairs: args.pairs,
        seed: args.options.seed,
        rows: rows
            .iter()
            .zip(CHI_NAU_DEPTH_11)
            .map(|(row, (_, e1, e2))| TableRowReport {
                row,
                paper_e1: e1 / 100.0,
                paper_e2: e2 / 100.0,
            })
            .collect(),
    };
    let text = match args.options.format {
        McFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
        McFormat::Csv => csv_string(
            &[
                "depth", "e1", "e1_low", "e1_high", "paper_e1", "e2", "e2_low", "e2_high",
                "paper_e2",
            ],
            &report
                .rows
                .iter()
                .map(|r| {
                    vec![
                        r.row.depth.to_string(),
                        r.row.e1.share.estimate.to_string(),
                        r.row.e1.share.ci_low.to_string(),
                        r.row.e1.share.ci_high.to_string(),
                        r.paper_e1.to_string(),
                        r.row.e2.share.estimate.to_string(),
                        r.row.e2.share.ci_low.to_string(),
                        r.row.e2.share.ci_high.to_string(),
                        r.paper_e2.to_string(),
                    ]
                })
                .collect::<Vec<_>>(),
        )?,
        McFormat::Text => {
            let mut table = vec![
                [
                    "depth",
                    "e1 (ours)",
                    "95% interval",
                    "paper",
                    "e2 (ours)",
                    "95% interval",
                    "paper",
                ]
                .map(String::from)
                .to_vec(),
            ];
            table.extend(report.rows.iter().map(|r| {
                vec![
                    r.row.depth.to_string(),
                    pct(r.row.e1.share.estimate),
                    interval(&r.row.e1),
                    pct(r.paper_e1),
                    pct(r.row.e2.share.estimate),
                    interval(&r.row.e2),
                    pct(r.paper_e2),
                ]
            }));
            format!(
                "Chi & Nau Section 4.4: % games won by minimax against product, binary P-games of \
                 depth 11 (xi = 0.382), {} pairs per depth (seed {}; the same boards for every \
                 depth and evaluator)\n{}",
                args.pairs,
                args.options.seed,
                align_columns(&table)
            )
        }
    };
    super::print(&text)
}

/// The static evaluator of `mc emm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EmmEvaluatorArg {
    /// The true value, flipped with probability --error independently per node.
    Artificial,
    /// The fraction of winning squares (binary for minimax and EMM; EMM's errors calibrated).
    Natural,
}

/// The boards of the EMM commands.
#[derive(Debug, Clone, clap::Args)]
pub struct EmmBoardArgs {
    /// Board-splitting game: P-games (p) or N-games (n).
    #[arg(long, value_enum, default_value_t = GameKind::P)]
    game: GameKind,
    /// Branching factor b.
    #[arg(long, default_value_t = 2)]
    branching: u32,
    /// Height d of the game tree (Wilson et al.: 10).
    #[arg(long, default_value_t = 10)]
    height: u32,
    /// Square (P-games) or edge (N-games) probability; default w_b for P-games, 0.5 for N-games.
    #[arg(long, value_parser = unit)]
    p: Option<f64>,
}

impl EmmBoardArgs {
    fn spec(&self) -> anyhow::Result<BoardSpec> {
        let p = match self.p {
            Some(p) => p,
            None => default_parameter(self.game, self.branching)?,
        };
        Ok(BoardSpec::new(self.game, self.branching, self.height, p)?)
    }
}

#[derive(Debug, clap::Args)]
pub struct EmmArgs {
    #[command(flatten)]
    board: EmmBoardArgs,
    /// Static evaluator.
    #[arg(long, value_enum, default_value_t = EmmEvaluatorArg::Artificial)]
    evaluator: EmmEvaluatorArg,
    /// Error rate e of the artificial evaluator, in [0, 0.5].
    #[arg(long, default_value_t = 0.1)]
    error: f64,
    /// Non-trivial games (the root has a winning and a losing move) searched.
    #[arg(long, value_parser = count, default_value_t = 10_000)]
    games: u64,
    /// The natural evaluator's error table from `mc emm-calibrate` (.json or .csv); without
    /// it, one is estimated first on --calibration-games boards.
    #[arg(long)]
    calibration: Option<PathBuf>,
    /// Boards solved for the natural evaluator's error table when no --calibration is given.
    #[arg(long, value_parser = count, default_value_t = 10_000)]
    calibration_games: u64,
    #[command(flatten)]
    options: StudyOptions,
}

#[derive(Debug, clap::Args)]
pub struct EmmCalibrateArgs {
    #[command(flatten)]
    board: EmmBoardArgs,
    /// Random boards solved.
    #[arg(long, value_parser = count, default_value_t = 10_000)]
    games: u64,
    /// Where to save the table (.json, or .csv for any other extension).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    options: StudyOptions,
}

#[derive(Debug, clap::Args)]
pub struct EmmFiguresArgs {
    /// Non-trivial games per setting (Wilson et al.: 10,000).
    #[arg(long, value_parser = count, default_value_t = 10_000)]
    games: u64,
    /// Directory for the figures, their data and the calibration tables.
    #[arg(long, default_value = "plots")]
    out: PathBuf,
    /// Seed of the random streams.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = super::args::threads)]
    threads: Option<usize>,
}

/// The seed of a calibration estimated on the fly: different from the study's, so the
/// calibration boards are not the study's boards.
fn calibration_seed(seed: u64) -> u64 {
    seed ^ 0xCA1B_0A7E_5EED_0001
}

fn calibration_table(c: &Calibration) -> String {
    let mut table = vec![
        ["height", "judged", "nodes", "wrong", "error"]
            .map(String::from)
            .to_vec(),
    ];
    table.extend(c.rows.iter().map(|r| {
        vec![
            r.node_height.to_string(),
            if r.judged_win_for_max {
                "win for Max"
            } else {
                "loss for Max"
            }
            .to_string(),
            r.nodes.to_string(),
            r.wrong.to_string(),
            format!("{:.4}", r.error),
        ]
    }));
    align_columns(&table)
}

pub fn run_emm_calibrate(args: EmmCalibrateArgs) -> anyhow::Result<()> {
    let spec = args.board.spec()?;
    let runner = args.options.runner(args.games, "mc emm-calibrate")?;
    let table = emm_study::calibrate(&spec, &runner)?;
    if let Some(path) = &args.out {
        table.save(path)?;
    }
    let text = match args.options.format {
        McFormat::Json => serde_json::to_string_pretty(&table)? + "\n",
        McFormat::Csv => table.to_csv()?,
        McFormat::Text => format!(
            "Natural evaluator, made binary (more winning squares for the player to move: a win; \
             ties the mover's), error by node height: {}-games, b = {}, H = {}, p = {:.4}, {} \
             boards (seed {})\n{}{}",
            spec.kind.name().to_uppercase(),
            table.branching,
            table.height,
            table.p,
            table.games,
            table.seed,
            calibration_table(&table),
            args.out
                .as_ref()
                .map(|p| format!("saved to {}\n", p.display()))
                .unwrap_or_default()
        ),
    };
    super::print(&text)
}

fn emm_rows(result: &StudyResult) -> Vec<Vec<String>> {
    result
        .depths
        .iter()
        .map(|d| {
            let mut row = vec![d.depth.to_string()];
            for c in d.by_algorithm().into_iter().chain(&d.minimax_fraction) {
                row.extend([
                    c.estimate.to_string(),
                    c.ci_low.to_string(),
                    c.ci_high.to_string(),
                ]);
            }
            row
        })
        .collect()
}

/// The CSV header of [`emm_rows`], with the fraction-minimax columns when present.
fn emm_header(result: &StudyResult) -> Vec<&'static str> {
    let mut header = EMM_HEADER.to_vec();
    if result.depths.iter().any(|d| d.minimax_fraction.is_some()) {
        header.extend([
            "minimax_fraction",
            "minimax_fraction_low",
            "minimax_fraction_high",
        ]);
    }
    header
}

const EMM_HEADER: [&str; 10] = [
    "depth",
    "minimax",
    "minimax_low",
    "minimax_high",
    "product",
    "product_low",
    "product_high",
    "emm",
    "emm_low",
    "emm_high",
];

#[derive(Serialize)]
struct EmmReport<'a> {
    experiment: &'static str,
    game: GameKind,
    branching: u32,
    height: u32,
    p: f64,
    evaluator: String,
    seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    calibration: Option<&'a Calibration>,
    #[serde(flatten)]
    result: &'a StudyResult,
}

pub fn run_emm(args: EmmArgs) -> anyhow::Result<()> {
    let spec = args.board.spec()?;
    let evaluator = match args.evaluator {
        EmmEvaluatorArg::Artificial => {
            if args.calibration.is_some() {
                return Err(pathology::Error::invalid(
                    "--calibration",
                    "given only with --evaluator natural",
                    "a file",
                )
                .into());
            }
            StudyEvaluator::Artificial { error: args.error }
        }
        EmmEvaluatorArg::Natural => {
            let table = match &args.calibration {
                Some(path) => Calibration::load(path)?,
                None => {
                    let threads = args.options.threads.unwrap_or_else(default_threads);
                    let runner = TrialRunner::new(
                        args.calibration_games,
                        calibration_seed(args.options.seed),
                        threads,
                    )?
                    .with_progress("calibration");
                    emm_study::calibrate(&spec, &runner)?
                }
            };
            StudyEvaluator::Natural(table)
        }
    };
    let runner = args.options.runner(args.games, "mc emm")?;
    let result = emm_study::run(&spec, &evaluator, &runner)?;
    let calibration = match &evaluator {
        StudyEvaluator::Natural(c) => Some(c),
        StudyEvaluator::Artificial { .. } => None,
    };
    let report = EmmReport {
        experiment: "mc emm",
        game: spec.kind,
        branching: args.board.branching,
        height: args.board.height,
        p: spec.parameter,
        evaluator: evaluator.name(),
        seed: args.options.seed,
        calibration,
        result: &result,
    };
    let text = match args.options.format {
        McFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
        McFormat::Csv => csv_string(&emm_header(&result), &emm_rows(&result))?,
        McFormat::Text => {
            let mut table = vec![
                [
                    "depth",
                    "minimax",
                    "95% interval",
                    "product",
                    "95% interval",
                    "EMM",
                    "95% interval",
                ]
                .map(String::from)
                .to_vec(),
            ];
            if calibration.is_some() {
                table[0].extend(["minimax (fraction)", "95% interval"].map(String::from));
            }
            table.extend(result.depths.iter().map(|d| {
                let mut row = vec![d.depth.to_string()];
                for c in d.by_algorithm().into_iter().chain(&d.minimax_fraction) {
                    row.push(format!("{:.4}", c.estimate));
                    row.push(format!("[{:.4}, {:.4}]", c.ci_low, c.ci_high));
                }
                row
            }));
            let calibration_note = match calibration {
                Some(c) => format!(
                    "EMM's errors: calibrated on {} boards (seed {})\n",
                    c.games, c.seed
                ),
                None => String::new(),
            };
            format!(
                "Fraction of correct decisions at the root: {}-games, b = {}, d = {}, p = {:.4}, \
                 {} evaluator; {} non-trivial games ({} boards drawn, seed {})\n{}{}",
                spec.kind.name().to_uppercase(),
                args.board.branching,
                args.board.height,
                spec.parameter,
                evaluator.name(),
                result.games,
                result.boards_drawn,
                args.options.seed,
                calibration_note,
                align_columns(&table)
            ) + if calibration.is_some() {
                "minimax (fraction): minimax on the unaltered fraction of 1-squares, not one of \
                 the paper's curves\n"
            } else {
                ""
            }
        }
    };
    super::print(&text)
}

/// One of Wilson, Parker & Nau's Figs. 3-6.
struct WilsonFigure {
    number: u32,
    game: GameKind,
    natural: bool,
}

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

/// Wilson, Parker & Nau's Figs. 3-6 at `games` non-trivial games per setting (b = 2 and 3,
/// d = 10): the data (CSV), the natural evaluator's calibration tables (JSON; estimated on
/// `games` boards with a seed of their own), and each figure as PNG and SVG with one panel per
/// branching factor. Returns the files written and a text summary.
fn wilson_figures(
    out: &Path,
    games: u64,
    seed: u64,
    threads: usize,
) -> anyhow::Result<(Vec<PathBuf>, String)> {
    fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut files = Vec::new();
    let mut summary = String::new();
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
        let mut panels = Vec::new();
        let mut csv_rows = Vec::new();
        for branching in [2u32, 3] {
            let spec = BoardSpec::new(
                figure.game,
                branching,
                10,
                figure.game.default_parameter(branching)?,
            )?;
            let evaluator = if figure.natural {
                let runner = TrialRunner::new(games, calibration_seed(seed), threads)?
                    .with_progress("calibration");
                let table = emm_study::calibrate(&spec, &runner)?;
                let path = out.join(format!(
                    "wilson_calibration_{}_b{branching}_d10.json",
                    figure.game.name()
                ));
                if !files.contains(&path) {
                    table.save(&path)?;
                    files.push(path);
                }
                StudyEvaluator::Natural(table)
            } else {
                StudyEvaluator::Artificial { error: 0.1 }
            };
            let runner = TrialRunner::new(games, seed, threads)?
                .with_progress(&format!("Fig. {} b = {branching}", figure.number));
            let result = emm_study::run(&spec, &evaluator, &runner)?;
            for row in emm_rows(&result) {
                let mut line = vec![branching.to_string()];
                line.extend(row);
                csv_rows.push(line);
            }
            summary.push_str(&format!(
                "Wilson et al. Fig. {} ({}-games, {}), b = {branching}: correct decisions at depth \
                 1..10\n",
                figure.number,
                figure.game.name().to_uppercase(),
                evaluator.name()
            ));
            let pick = |a: usize, d: &emm_study::DepthResult| {
                if a < 3 {
                    Some(*d.by_algorithm()[a])
                } else {
                    d.minimax_fraction
                }
            };
            let names = [
                "minimax",
                "product",
                "EMM",
                "minimax on the fraction (not in the paper)",
            ];
            let mut series = Vec::new();
            for (a, name) in names.iter().enumerate() {
                let points: Vec<ErrorPoint> = result
                    .depths
                    .iter()
                    .filter_map(|d| pick(a, d))
                    .zip(1u32..)
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
                let values: Vec<String> = points.iter().map(|p| format!("{:.3}", p.y)).collect();
                summary.push_str(&format!(
                    "  {:<8} {}\n",
                    if a < 3 { name } else { "fraction" },
                    values.join(" ")
                ));
                series.push(ErrorSeries {
                    label: name.to_string(),
                    points,
                });
            }
            let all = result
                .depths
                .iter()
                .flat_map(|d| d.by_algorithm().into_iter().chain(&d.minimax_fraction));
            let (low, _) = y_range(all, 1.0);
            // Room below the data for the legend.
            let low = ((low - 0.35 * (1.0 - low)) * 100.0).floor() / 100.0;
            panels.push(Panel {
                axes: Axes {
                    title: format!(
                        "Wilson et al. Fig. {}: {}-games, {}, b = {branching}, d = 10",
                        figure.number,
                        figure.game.name().to_uppercase(),
                        evaluator.name()
                    ),
                    x_label: format!("search depth ({games} non-trivial games)"),
                    y_label: "fraction of correct decisions".to_string(),
                    x_range: (0.5, 10.5),
                    y_range: (low, 1.0),
                },
                series,
                legend: SeriesLabelPosition::LowerLeft,
                reference: None,
            });
        }
        let csv = out.join(format!("{stem}.csv"));
        let mut header = vec!["branching"];
        header.extend(EMM_HEADER);
        if figure.natural {
            header.extend([
                "minimax_fraction",
                "minimax_fraction_low",
                "minimax_fraction_high",
            ]);
        }
        fs::write(&csv, csv_string(&header, &csv_rows)?)
            .with_context(|| format!("writing {}", csv.display()))?;
        files.push(csv);
        for ext in ["png", "svg"] {
            let path = out.join(format!("{stem}.{ext}"));
            error_bar_chart(&path, &panels)
                .with_context(|| format!("drawing {}", path.display()))?;
            files.push(path);
        }
    }
    Ok((files, summary))
}

pub fn run_emm_figures(args: EmmFiguresArgs) -> anyhow::Result<()> {
    let threads = args.threads.unwrap_or_else(default_threads);
    let (files, summary) = wilson_figures(&args.out, args.games, args.seed, threads)?;
    super::print(&format!(
        "{summary}\nwritten: {}\n",
        files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// Pairs per point of Chi & Nau's Fig. 3 (the paper's 8000) and non-trivial games per setting of
/// Wilson et al.'s Figs. 3-6 (the paper's 10,000) at full size, and the reduced defaults.
const FULL_SIZES: (u64, u64) = (8000, 10_000);
const REDUCED_SIZES: (u64, u64) = (8000, 5000);

/// Writes Chi & Nau's Fig. 3 and Wilson, Parker & Nau's Figs. 3-6 (PNG, SVG, CSV, and the
/// natural evaluator's calibration tables) into `out_dir`, at the papers' sizes when `full`,
/// else at reduced sizes (Fig. 3 of Chi & Nau is cheap and stays at 8000 pairs; Wilson et al.'s
/// figures use 5000 games per setting), seed 1, on all cores.
///
/// # Errors
///
/// When a file cannot be written.
pub fn write_figures(
    out_dir: &Path,
    full: bool,
    seed: u64,
    threads: usize,
) -> anyhow::Result<Vec<PathBuf>> {
    let (pairs, games) = if full { FULL_SIZES } else { REDUCED_SIZES };
    let (_, mut files) = chi_nau_figure_3(out_dir, pairs, |pairs| {
        Ok(TrialRunner::new(pairs, seed, threads)?)
    })?;
    let (wilson, _) = wilson_figures(out_dir, games, seed, threads)?;
    files.extend(wilson);
    Ok(files)
}

#[derive(Debug, clap::Args)]
pub struct StudyFiguresArgs {
    /// At the papers' sizes (8000 pairs per point, 10,000 games per setting) instead of the
    /// reduced defaults.
    #[arg(long)]
    full: bool,
    /// Directory to write into.
    #[arg(long, default_value = "plots")]
    out: PathBuf,
    /// Seed of the random streams.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run_study_figures(args: StudyFiguresArgs) -> anyhow::Result<()> {
    let files = write_figures(&args.out, args.full, args.seed, default_threads())?;
    super::print(&format!(
        "{} files written (Chi & Nau Fig. 3; Wilson, Parker & Nau Figs. 3-6):\n{}\n",
        files.len(),
        files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    ))
}
