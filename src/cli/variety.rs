//! `pathology mc kalah | othello | nodes`: Chi & Nau's (1987) "variety of games" (three-hole
//! kalah, Section 4.5; othello, Section 4.3) and Ross's (2020) node counts. The reports are
//! built by [`pathology::mc::variety_report`].

use std::path::{Path, PathBuf};

use anyhow::Context;
use pathology::mc::kalah::{KalahSetup, KalahTable, PAPER_BOARDS, PAPER_RHF, kalah_table};
use pathology::mc::othello::{
    OthelloEvaluator, OthelloMatches, OthelloSetup, PAPER_MINIMAX_STRONG, PAPER_MINIMAX_WEAK,
    othello_matches,
};
use pathology::mc::variety_report::{
    ROSS_BOARDS, check_kalah_cost, check_othello_cost, kalah_report, nodes_report, othello_report,
};
use pathology::mc::{Comparison, TrialRunner};
use pathology::plot::{
    Axes, ErrorPoint, ErrorSeries, ExactLine, Panel, error_bar_chart_with_exact,
};
use plotters::prelude::SeriesLabelPosition;

use super::args::OutputArgs;

/// Seed, threads and output of the kalah and othello runs.
#[derive(Debug, Clone, clap::Args)]
pub struct VarietyRun {
    /// Seed of the random streams (the same seed gives the same output for any --threads).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = super::args::threads)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub output: OutputArgs,
}

impl VarietyRun {
    fn runner(&self, trials: u64, label: &str) -> anyhow::Result<TrialRunner> {
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
        Ok(TrialRunner::new(trials, self.seed, threads)?.with_progress(label))
    }
}

#[derive(Debug, clap::Args)]
pub struct KalahArgs {
    /// Random initial boards (every pit 1 to 6 stones), each played twice per w (Chi & Nau:
    /// 1000).
    #[arg(long, value_parser = super::args::count, default_value_t = PAPER_BOARDS)]
    boards: u64,
    /// Weights w of e_a^w = w e_a + (1 - w) P(m,2), each in [0, 1], comma-separated.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true,
          default_values_t = [1.0, 0.95, 0.0, 0.5])]
    w: Vec<f64>,
    /// Depth of the node pairs whose heuristic flaws are counted (1..=6; the paper: 4).
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Search depth of both players (1..=4; the paper: 2).
    #[arg(long, default_value_t = 2)]
    search_depth: u32,
    #[command(flatten)]
    run: VarietyRun,
}

pub fn run_kalah(args: KalahArgs) -> anyhow::Result<()> {
    let setup = KalahSetup::new(args.w, args.depth, args.search_depth)?;
    let runner = args.run.runner(args.boards, "mc kalah")?;
    check_kalah_cost(&setup, args.boards, runner.effective_threads())?;
    let table = kalah_table(&setup, &runner)?;
    args.run.output.emit(&kalah_report(&table), 4)
}

#[derive(Debug, clap::Args)]
pub struct OthelloArgs {
    /// Random openings; each is played twice per evaluator and depth (minimax moving first
    /// once, product once). The same openings at every depth.
    #[arg(long, value_parser = super::args::count, default_value_t = 100)]
    openings: u64,
    /// Search depths in plies of both players (each 1..=5), comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [2u32, 3])]
    depth: Vec<u32>,
    /// Uniformly random plies from the standard start that make an opening (0..=20).
    #[arg(long, default_value_t = 8)]
    opening_plies: u32,
    #[command(flatten)]
    run: VarietyRun,
}

pub fn run_othello(args: OthelloArgs) -> anyhow::Result<()> {
    let setups = args
        .depth
        .iter()
        .map(|&d| OthelloSetup::new(args.opening_plies, d))
        .collect::<Result<Vec<_>, _>>()?;
    let mut sorted = args.depth.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != args.depth.len() {
        return Err(pathology::Error::invalid(
            "--depth",
            "distinct search depths",
            args.depth
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(","),
        )
        .into());
    }
    let runner = args.run.runner(args.openings, "mc othello")?;
    check_othello_cost(&args.depth, args.openings, runner.effective_threads())?;
    let results = setups
        .iter()
        .map(|s| othello_matches(s, &runner))
        .collect::<Result<Vec<_>, _>>()?;
    args.run.output.emit(&othello_report(&results), 4)
}

#[derive(Debug, clap::Args)]
pub struct NodesArgs {
    /// Tic-tac-toe positions (nine characters X, O, ., squares 0-8 row-major),
    /// comma-separated; default: the empty board and Ross's (O on square 8).
    #[arg(long, value_delimiter = ',', default_values_t = ROSS_BOARDS.map(String::from))]
    board: Vec<String>,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run_nodes(args: NodesArgs) -> anyhow::Result<()> {
    let boards: Vec<&str> = args.board.iter().map(String::as_str).collect();
    args.output.emit(&nodes_report(&boards)?, 4)
}

fn error_point(x: f64, c: &Comparison) -> ErrorPoint {
    ErrorPoint {
        x,
        y: c.estimate,
        low: c.ci_low,
        high: c.ci_high,
    }
}

fn axes(title: &str, x_label: &str, y_label: &str, x: (f64, f64), y: (f64, f64)) -> Axes {
    Axes {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
        x_range: x,
        y_range: y,
    }
}

/// Draws `chi_nau_kalah.{png,svg}` (rhf(4) and product's results against w, with the paper's
/// values) and `chi_nau_othello.{png,svg}` (minimax's wins against search depth, with
/// Teague's) into `out`; returns the files written.
pub(super) fn write_variety_figures(
    out: &Path,
    kalah: &KalahTable,
    othello: &[OthelloMatches],
) -> anyhow::Result<Vec<PathBuf>> {
    let mut rows: Vec<_> = kalah.rows.iter().collect();
    rows.sort_by(|a, b| a.w.total_cmp(&b.w));
    let paper = |value: fn(&pathology::mc::kalah::KalahRow) -> Option<f64>| ExactLine {
        label: "Chi & Nau (1987)".to_string(),
        points: rows
            .iter()
            .filter_map(|r| value(r).map(|v| (r.w, v)))
            .collect(),
    };
    let x_label = format!("w of e_a^w ({} boards, seed {})", kalah.boards, kalah.seed);
    let rhf_top = rows
        .iter()
        .map(|r| r.rhf.ci_high)
        .chain(PAPER_RHF)
        .fold(0.0, f64::max);
    let rhf = Panel {
        axes: axes(
            "Kalah: rate of heuristic flaw rhf(4) of e_a^w",
            &x_label,
            "rhf(4)",
            (-0.05, 1.05),
            (0.0, (rhf_top * 1.15 * 20.0).ceil() / 20.0),
        ),
        series: vec![ErrorSeries {
            label: "ours (95% interval)".to_string(),
            points: rows.iter().map(|r| error_point(r.w, &r.rhf)).collect(),
        }],
        legend: SeriesLabelPosition::UpperLeft,
        reference: None,
    };
    let games = Panel {
        axes: axes(
            "Kalah: product against minimax, search depth 2",
            &x_label,
            "product's share",
            (-0.05, 1.05),
            (0.35, 0.75),
        ),
        series: vec![
            ErrorSeries {
                label: "games won by product (95%)".to_string(),
                points: rows
                    .iter()
                    .map(|r| error_point(r.w, &r.product_wins))
                    .collect(),
            },
            ErrorSeries {
                label: "product's score, draw 1/2 (95%)".to_string(),
                points: rows
                    .iter()
                    .map(|r| error_point(r.w, &r.product_score))
                    .collect(),
            },
        ],
        legend: SeriesLabelPosition::UpperLeft,
        reference: Some(0.5),
    };
    let mut files = Vec::new();
    for ext in ["png", "svg"] {
        let path = out.join(format!("chi_nau_kalah.{ext}"));
        error_bar_chart_with_exact(
            &path,
            &[rhf.clone(), games.clone()],
            &[
                vec![paper(|r| r.rhf.exact)],
                vec![paper(|r| r.product_wins.exact)],
            ],
        )
        .with_context(|| format!("drawing {}", path.display()))?;
        files.push(path);
    }
    if othello.is_empty() {
        return Ok(files);
    }
    let depths: Vec<f64> = othello.iter().map(|r| f64::from(r.setup.depth)).collect();
    let (low, high) = depths
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &d| {
            (l.min(d), h.max(d))
        });
    let series = |e: OthelloEvaluator, label: &str| ErrorSeries {
        label: label.to_string(),
        points: othello
            .iter()
            .filter_map(|m| {
                m.rows
                    .iter()
                    .find(|r| r.evaluator == e)
                    .map(|r| error_point(f64::from(m.setup.depth), &r.minimax_wins))
            })
            .collect(),
    };
    let teague = |label: &str, value: f64| ExactLine {
        label: label.to_string(),
        points: vec![(low - 0.5, value), (high + 0.5, value)],
    };
    let panel = Panel {
        axes: axes(
            "Othello: games won by minimax against product",
            &format!(
                "search depth ({} openings of {} random plies, seed {})",
                othello[0].openings, othello[0].setup.opening_plies, othello[0].seed
            ),
            "minimax's share of games won",
            (low - 0.5, high + 0.5),
            (0.0, 1.0),
        ),
        series: vec![
            series(OthelloEvaluator::Strong, "strong evaluator (95%)"),
            series(OthelloEvaluator::Weak, "weak evaluator: piece count (95%)"),
        ],
        legend: SeriesLabelPosition::LowerRight,
        reference: Some(0.5),
    };
    let lines = vec![
        teague("Teague: strong 82.8%", PAPER_MINIMAX_STRONG),
        teague("Teague: weak 63.1%", PAPER_MINIMAX_WEAK),
    ];
    for ext in ["png", "svg"] {
        let path = out.join(format!("chi_nau_othello.{ext}"));
        error_bar_chart_with_exact(
            &path,
            std::slice::from_ref(&panel),
            std::slice::from_ref(&lines),
        )
        .with_context(|| format!("drawing {}", path.display()))?;
        files.push(path);
    }
    Ok(files)
}
