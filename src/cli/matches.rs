//! `pathology mc match | match-sweep | match-table`: Chi & Nau's (1987) minimax against the
//! product rule (Sections 4.4 and 5, Fig. 3). Parses the arguments, calls
//! [`pathology::studies::chi_nau::match_report`] and prints the report; `match-sweep` also draws Fig. 3.

use std::path::PathBuf;

use pathology::sim::TrialRunner;
use pathology::sim::level_tree::{BoardSpec, GameKind};
use pathology::sim::report::McRun;
use pathology::sim::runner::Shard;
use pathology::studies::chi_nau::match_report::{
    CHI_NAU_DEPTH_11, MatchSetting, depth_table_report, depth_table_rows, figure_3_points,
    figure_3_report,
};
use pathology::studies::chi_nau::matches::match_pair_seconds;
use pathology::studies::chi_nau::matches::{MatchEvaluator, chi_nau_board};

use super::args::{count, default_parameter, default_threads, unit};

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

/// Options of the match commands: seed, threads, shard and output.
#[derive(Debug, Clone, clap::Args)]
pub struct MatchOptions {
    /// Seed of the random streams (the same seed gives the same output for any --threads).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = super::args::threads)]
    threads: Option<usize>,
    /// Play only the K-th of N disjoint slices of the seeded pairs (K/N, 1 <= K <= N);
    /// `pathology merge` sums the N outputs into the unsharded result, byte for byte.
    #[arg(long, value_parser = super::args::shard)]
    shard: Option<Shard>,
    #[command(flatten)]
    output: super::args::OutputArgs,
}

impl MatchOptions {
    fn runner(&self, pairs: u64, label: &str) -> anyhow::Result<TrialRunner> {
        let threads = self.threads.unwrap_or_else(default_threads);
        let runner = TrialRunner::new(pairs, self.seed, threads)?.with_progress(label);
        Ok(match self.shard {
            Some(s) => runner.with_shard(s),
            None => runner,
        })
    }

    fn run(&self, pairs: u64) -> McRun {
        McRun {
            trials: pairs,
            seed: self.seed,
            shard: self.shard,
        }
    }
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
    options: MatchOptions,
}

#[derive(Debug, clap::Args)]
pub struct MatchSweepArgs {
    /// Pairs of games per value of w (Chi & Nau: 8000).
    #[arg(long, value_parser = count, default_value_t = 8000)]
    pairs: u64,
    /// Directory for chi_nau_fig3.{png,svg,csv} (not written by a --shard run).
    #[arg(long, default_value = "plots")]
    out: PathBuf,
    /// Figures for the screen (titled, 900x700 a panel) or a paper's single column (3.3 in
    /// at 300 dpi, fonts >= 8 pt, no title: the caption says it).
    #[arg(long, value_enum, default_value_t = pathology::plot::Style::Screen)]
    style: pathology::plot::Style,
    #[command(flatten)]
    options: MatchOptions,
}

#[derive(Debug, clap::Args)]
pub struct MatchTableArgs {
    /// Pairs of games per search depth (Chi & Nau: 3200).
    #[arg(long, value_parser = count, default_value_t = 3200)]
    pairs: u64,
    #[command(flatten)]
    options: MatchOptions,
}

pub fn run_match(args: MatchArgs) -> anyhow::Result<()> {
    let p = match args.p {
        Some(p) => p,
        None => default_parameter(args.game, args.branching)?,
    };
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
    let setting = MatchSetting {
        game: args.game,
        branching: args.branching,
        height: args.height,
        p,
        search_depth: args.search_depth,
        evaluator,
    };
    let runner = args.options.runner(args.pairs, "mc match")?;
    let spec = BoardSpec::new(args.game, args.branching, args.height, p)?;
    runner.check_budget_of(
        "--pairs",
        &format!("mc match at height {}", args.height),
        match_pair_seconds(&spec, args.search_depth.min(args.height)),
    )?;
    let report = setting.run(&args.options.run(args.pairs), &runner)?;
    args.options.output.emit(&report, 4)
}

pub fn run_match_sweep(args: MatchSweepArgs) -> anyhow::Result<()> {
    let runner = args.options.runner(args.pairs, "mc match-sweep")?;
    let weights = pathology::studies::chi_nau::matches::figure_3_weights().len() as f64;
    runner.check_budget_of(
        "--pairs",
        "mc match-sweep",
        weights * match_pair_seconds(&chi_nau_board(6)?, 2),
    )?;
    let points = figure_3_points(&runner)?;
    let run = args.options.run(args.pairs);
    if run.shard.is_none() {
        let files = pathology::plot::studies::figure_3(&args.out, &run, &points, args.style)
            .map_err(super::reproduce::library_error)?;
        eprintln!(
            "written: {}",
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    args.options
        .output
        .emit(&figure_3_report(&run, &points)?, 4)
}

pub fn run_match_table(args: MatchTableArgs) -> anyhow::Result<()> {
    let runner = args.options.runner(args.pairs, "mc match-table")?;
    let board = chi_nau_board(11)?;
    let per_pair: f64 = CHI_NAU_DEPTH_11
        .iter()
        .map(|&(depth, _, _)| 2.0 * match_pair_seconds(&board, depth))
        .sum();
    runner.check_budget_of("--pairs", "mc match-table", per_pair)?;
    let rows = depth_table_rows(&runner)?;
    let report = depth_table_report(&args.options.run(args.pairs), &rows)?;
    args.options.output.emit(&report, 4)
}
