//! `pathology mc emm | emm-calibrate | emm-figures`: Wilson, Parker & Nau's (2009) error
//! minimizing minimax against minimax and product (Figs. 3-6).

use std::path::PathBuf;

use crate::plot::studies::wilson_figures;
use crate::sim::level_tree::GameKind;
use crate::sim::runner::Shard;
use crate::studies::wilson_parker_nau::request::{
    BoardRequest, EmmEvaluatorKind, EmmRequest, calibration_run, check_figures_budget,
};

use super::args::{SeedThreads, count, unit};

/// The boards of the EMM commands.
#[derive(Debug, Clone, clap::Args)]
pub struct EmmBoardArgs {
    /// Board-splitting game: P-games (p) or N-games (n).
    #[arg(long, value_enum, default_value_t = GameKind::P)]
    game: GameKind,
    /// Branching factor b.
    #[arg(long, value_parser = super::args::whole_in::<u32>(2, 4_194_304), default_value_t = 2, allow_negative_numbers = true)]
    branching: u32,
    /// Height d of the game tree (Wilson et al.: 10).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 22), default_value_t = 10, allow_negative_numbers = true)]
    height: u32,
    /// Square (P-games) or edge (N-games) probability; default w_b for P-games, 0.5 for N-games.
    #[arg(long, value_parser = unit, allow_negative_numbers = true)]
    p: Option<f64>,
}

impl EmmBoardArgs {
    fn request(&self) -> BoardRequest {
        BoardRequest {
            game: self.game,
            branching: self.branching,
            height: self.height,
            p: self.p,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct EmmArgs {
    #[command(flatten)]
    board: EmmBoardArgs,
    /// Static evaluator.
    #[arg(long, value_enum, default_value_t = EmmEvaluatorKind::Artificial)]
    evaluator: EmmEvaluatorKind,
    /// Error rate e of the artificial evaluator, in [0, 0.5].
    #[arg(long, default_value_t = 0.1, allow_negative_numbers = true)]
    error: f64,
    /// Non-trivial games (the root has a winning and a losing move) searched: the trials.
    #[arg(long, visible_alias = "trials", value_parser = count, default_value_t = 10_000, allow_negative_numbers = true)]
    games: u64,
    /// The natural evaluator's error table from `mc emm-calibrate` (.json or .csv); without
    /// it, one is estimated first on --calibration-games boards with --calibration-seed.
    #[arg(long)]
    calibration: Option<PathBuf>,
    /// Boards solved for the natural evaluator's error table [default: 10000; with
    /// --calibration: must be the file's].
    #[arg(long, value_parser = count, allow_negative_numbers = true)]
    calibration_games: Option<u64>,
    /// Seed of the natural evaluator's error table [default: derived from --seed; with
    /// --calibration: must be the file's]. Not sharded: every shard uses the same table.
    #[arg(long, value_parser = super::args::seed, allow_negative_numbers = true)]
    calibration_seed: Option<u64>,
    /// Run only the K-th of N disjoint slices of the seeded games (K/N, 1 <= K <= N);
    /// `pathology merge` sums the N outputs into the unsharded result, byte for byte.
    #[arg(long, value_parser = super::args::shard, allow_negative_numbers = true)]
    shard: Option<Shard>,
    #[command(flatten)]
    options: SeedThreads,
}

#[derive(Debug, clap::Args)]
pub struct EmmCalibrateArgs {
    #[command(flatten)]
    board: EmmBoardArgs,
    /// Random boards solved.
    #[arg(long, value_parser = count, default_value_t = 10_000, allow_negative_numbers = true)]
    games: u64,
    /// Where to save the table (.json, or .csv for any other extension); checked before any
    /// work is done.
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    options: SeedThreads,
}

#[derive(Debug, clap::Args)]
pub struct EmmFiguresArgs {
    /// Non-trivial games per setting (Wilson et al.: 10,000).
    #[arg(long, value_parser = count, default_value_t = 10_000, allow_negative_numbers = true)]
    games: u64,
    /// Directory for the figures, their data and the calibration tables (created if missing).
    #[arg(long, default_value = "emm-figures")]
    out: PathBuf,
    /// Figures for the screen (titled, 900x700 a panel) or a paper's single column (3.3 in
    /// at 300 dpi, fonts >= 8 pt, no title: the caption says it).
    #[arg(long, value_enum, default_value_t = crate::plot::Style::Screen)]
    style: crate::plot::Style,
    #[command(flatten)]
    options: SeedThreads,
}

pub fn run_emm_calibrate(args: EmmCalibrateArgs) -> anyhow::Result<()> {
    args.options.output.check_table(&["calibration"])?;
    let config = args.options.config(args.games, None);
    let report = calibration_run(&args.board.request(), &config, args.out.as_deref())?;
    if let Some(path) = &args.out {
        eprintln!("saved to {}", path.display());
    }
    args.options.output.emit(&report, 4)
}

pub fn run_emm(args: EmmArgs) -> anyhow::Result<()> {
    args.options.output.check_table(&["estimates"])?;
    let request = EmmRequest {
        board: args.board.request(),
        evaluator: args.evaluator,
        error: args.error,
        calibration: args.calibration,
        calibration_games: args.calibration_games,
        calibration_seed: args.calibration_seed,
    };
    let report = request.run(&args.options.config(args.games, args.shard))?;
    args.options.output.emit(&report, 4)
}

pub fn run_emm_figures(args: EmmFiguresArgs) -> anyhow::Result<()> {
    args.options
        .output
        .check_table(&crate::studies::wilson_parker_nau::report::WILSON_FIGURE_TABLES)?;
    let seed = args.options.seed;
    let threads = args
        .options
        .threads
        .unwrap_or_else(super::args::default_threads);
    check_figures_budget(args.games, seed, threads)?;
    crate::report::output::check_directory("--out", &args.out)?;
    let figures = wilson_figures(&args.out, args.games, seed, threads, args.style)?;
    args.options.output.emit(&figures.report, 3)
}
