//! `pathology mc emm | emm-calibrate | emm-figures`: Wilson, Parker & Nau's (2009) error
//! minimizing minimax against minimax and product (Figs. 3-6).

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;
use pathology::mc::TrialRunner;
use pathology::mc::emm_study::{self, Calibration, StudyEvaluator, StudyResult};
use pathology::mc::level_tree::{BoardSpec, GameKind};
use pathology::output::{align_columns, csv_string};
use pathology::plot::{Axes, ErrorPoint, ErrorSeries, Panel, error_bar_chart};
use plotters::prelude::SeriesLabelPosition;
use serde::Serialize;

use super::mc::McFormat;
use super::studies::{StudyOptions, count, default_parameter, default_threads, unit, y_range};

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
pub(super) fn wilson_figures(
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
