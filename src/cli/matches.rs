//! `pathology mc match | match-sweep | match-table`: Chi & Nau's (1987) minimax against the
//! product rule (Sections 4.4 and 5, Fig. 3).

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;
use pathology::mc::TrialRunner;
use pathology::mc::level_tree::{BoardSpec, GameKind};
use pathology::mc::matches::{
    self, DepthTableRow, MatchEvaluator, MatchResult, SweepPoint, chi_nau_board,
};
use pathology::output::{align_columns, csv_string};
use pathology::plot::{Axes, ErrorPoint, ErrorSeries, Panel, error_bar_chart};
use plotters::prelude::SeriesLabelPosition;
use serde::Serialize;

use super::mc::McFormat;
use super::studies::{StudyOptions, count, default_parameter, unit, y_range};

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
pub(super) fn chi_nau_figure_3(
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
