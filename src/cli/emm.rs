//! `pathology mc emm | emm-calibrate | emm-figures`: Wilson, Parker & Nau's (2009) error
//! minimizing minimax against minimax and product (Figs. 3-6).

use std::path::PathBuf;

use pathology::plot::studies::wilson_figures as figures;
use pathology::sim::TrialRunner;
use pathology::sim::level_tree::{BoardSpec, GameKind};
use pathology::sim::report::McRun;
use pathology::sim::runner::Shard;
use pathology::studies::wilson_parker_nau::report::{
    CalibrationSource, EmmSetting, EvaluatorSetting, calibration_report, calibration_seed,
    natural_evaluator, study_report,
};
use pathology::studies::wilson_parker_nau::study::study_game_seconds;
use pathology::studies::wilson_parker_nau::study::{
    self as emm_study, StudyEvaluator, check_writable, run_counts,
};

use super::args::OutputArgs;
use super::args::{count, default_parameter, default_threads, unit};

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

/// Seed, threads and output of the EMM commands.
#[derive(Debug, Clone, clap::Args)]
pub struct EmmOptions {
    /// Seed of the random streams (the same seed gives the same output for any --threads).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = super::args::threads)]
    threads: Option<usize>,
    #[command(flatten)]
    output: OutputArgs,
}

impl EmmOptions {
    fn threads(&self) -> usize {
        self.threads.unwrap_or_else(default_threads)
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
    /// Non-trivial games (the root has a winning and a losing move) searched: the trials.
    #[arg(long, visible_alias = "trials", value_parser = count, default_value_t = 10_000)]
    games: u64,
    /// The natural evaluator's error table from `mc emm-calibrate` (.json or .csv); without
    /// it, one is estimated first on --calibration-games boards with --calibration-seed.
    #[arg(long)]
    calibration: Option<PathBuf>,
    /// Boards solved for the natural evaluator's error table [default: 10000; with
    /// --calibration: must be the file's].
    #[arg(long, value_parser = count)]
    calibration_games: Option<u64>,
    /// Seed of the natural evaluator's error table [default: derived from --seed; with
    /// --calibration: must be the file's]. Not sharded: every shard uses the same table.
    #[arg(long)]
    calibration_seed: Option<u64>,
    /// Run only the K-th of N disjoint slices of the seeded games (K/N, 1 <= K <= N);
    /// `pathology merge` sums the N outputs into the unsharded result, byte for byte.
    #[arg(long, value_parser = super::args::shard)]
    shard: Option<Shard>,
    #[command(flatten)]
    options: EmmOptions,
}

#[derive(Debug, clap::Args)]
pub struct EmmCalibrateArgs {
    #[command(flatten)]
    board: EmmBoardArgs,
    /// Random boards solved.
    #[arg(long, value_parser = count, default_value_t = 10_000)]
    games: u64,
    /// Where to save the table (.json, or .csv for any other extension); checked before any
    /// work is done.
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    options: EmmOptions,
}

#[derive(Debug, clap::Args)]
pub struct EmmFiguresArgs {
    /// Non-trivial games per setting (Wilson et al.: 10,000).
    #[arg(long, value_parser = count, default_value_t = 10_000)]
    games: u64,
    /// Directory for the figures, their data and the calibration tables.
    #[arg(long, default_value = "plots")]
    out: PathBuf,
    /// Figures for the screen (titled, 900x700 a panel) or a paper's single column (3.3 in
    /// at 300 dpi, fonts >= 8 pt, no title: the caption says it).
    #[arg(long, value_enum, default_value_t = pathology::plot::Style::Screen)]
    style: pathology::plot::Style,
    #[command(flatten)]
    options: EmmOptions,
}

pub fn run_emm_calibrate(args: EmmCalibrateArgs) -> anyhow::Result<()> {
    let spec = args.board.spec()?;
    if let Some(path) = &args.out {
        check_writable(path)?;
    }
    let runner = TrialRunner::new(args.games, args.options.seed, args.options.threads())?
        .with_progress("mc emm-calibrate");
    runner.check_budget_of("--games", "mc emm-calibrate", study_game_seconds(&spec))?;
    let table = emm_study::calibrate(&spec, &runner)?;
    if let Some(path) = &args.out {
        table.save(path)?;
        eprintln!("saved to {}", path.display());
    }
    args.options.output.emit(&calibration_report(&table), 4)
}

pub fn run_emm(args: EmmArgs) -> anyhow::Result<()> {
    let spec = args.board.spec()?;
    let seed = args.options.seed;
    let threads = args.options.threads();
    let runner = TrialRunner::new(args.games, seed, threads)?.with_progress("mc emm");
    let runner = match args.shard {
        Some(s) => runner.with_shard(s),
        None => runner,
    };
    // Refused up front, before any calibration is estimated.
    runner.check_budget_of(
        "--games",
        &format!("mc emm at height {}", args.board.height),
        study_game_seconds(&spec),
    )?;
    let (setting, evaluator) = match args.evaluator {
        EmmEvaluatorArg::Artificial => {
            for (name, given) in [
                ("--calibration", args.calibration.is_some()),
                ("--calibration-games", args.calibration_games.is_some()),
                ("--calibration-seed", args.calibration_seed.is_some()),
            ] {
                if given {
                    return Err(pathology::Error::invalid(
                        name,
                        "given only with --evaluator natural",
                        "a value",
                    )
                    .into());
                }
            }
            (
                EvaluatorSetting::Artificial { error: args.error },
                StudyEvaluator::Artificial { error: args.error },
            )
        }
        EmmEvaluatorArg::Natural => {
            let source = match &args.calibration {
                Some(path) => CalibrationSource::File {
                    path,
                    games: args.calibration_games,
                    seed: args.calibration_seed,
                },
                None => {
                    let games = args.calibration_games.unwrap_or(10_000);
                    TrialRunner::new(games, 0, threads)?.check_budget_of(
                        "--calibration-games",
                        "the EMM error table of mc emm",
                        study_game_seconds(&spec),
                    )?;
                    CalibrationSource::Estimate {
                        games,
                        seed: args.calibration_seed.unwrap_or(calibration_seed(seed)),
                    }
                }
            };
            natural_evaluator(&spec, source, threads)?
        }
    };
    let counts = run_counts(&spec, &evaluator, &runner)?;
    let run = McRun {
        trials: args.games,
        seed,
        shard: args.shard,
    };
    let setting = EmmSetting {
        spec,
        evaluator: setting,
    };
    args.options
        .output
        .emit(&study_report(&setting, &run, &counts), 4)
}

pub fn run_emm_figures(args: EmmFiguresArgs) -> anyhow::Result<()> {
    // Per game: four figures at b = 2 and 3, H = 10; the natural ones calibrate on as many
    // boards first.
    let mut per_game = 0.0;
    for b in [2, 3] {
        let spec = BoardSpec::new(GameKind::P, b, 10, GameKind::P.default_parameter(b)?)?;
        per_game += 6.0 * study_game_seconds(&spec);
    }
    TrialRunner::new(args.games, args.options.seed, args.options.threads())?.check_budget_of(
        "--games",
        "mc emm-figures",
        per_game,
    )?;
    let figures = figures(
        &args.out,
        args.games,
        args.options.seed,
        args.options.threads(),
        args.style,
    )?;
    args.options.output.emit(&figures.report, 3)
}
