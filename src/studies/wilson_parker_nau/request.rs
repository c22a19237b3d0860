//! Wilson, Parker & Nau's (2009) EMM study as the commands ask for it: `mc emm` (one
//! setting), `mc emm-calibrate` (the natural evaluator's error table) and the budget of
//! `mc emm-figures` (Figs. 3-6, drawn one layer up by `crate::plot::studies`).
//!
//! Each request holds the options as given (`None`: not given, the default) and runs the
//! study of [`super::study`] into the reports of [`super::report`], refusing runs estimated
//! beyond an hour up front ([`study_game_seconds`]).

use std::path::{Path, PathBuf};

use super::report::{
    CalibrationSource, EmmSetting, EvaluatorSetting, calibration_report, calibration_seed,
    natural_evaluator, study_report,
};
use super::study::{StudyEvaluator, calibrate, check_writable, run_counts, study_game_seconds};
use crate::error::{Error, Result};
use crate::report::Report;
use crate::sim::level_tree::{BoardSpec, GameKind};
use crate::sim::report::RunConfig;
use crate::sim::runner::TrialRunner;

/// The static evaluator of `mc emm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EmmEvaluatorKind {
    /// The true value, flipped with probability --error independently per node.
    Artificial,
    /// The fraction of winning squares (binary for minimax and EMM; EMM's errors calibrated).
    Natural,
}

/// The boards of the EMM commands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoardRequest {
    /// P-games or N-games.
    pub game: GameKind,
    /// Branching factor b.
    pub branching: u32,
    /// Height of the game tree (Wilson et al.: 10).
    pub height: u32,
    /// Square (P-games) or edge (N-games) probability; default w_b for P-games, 1/2 for
    /// N-games.
    pub p: Option<f64>,
}

impl BoardRequest {
    /// The boards.
    ///
    /// # Errors
    ///
    /// As [`GameKind::parameter_or_default`] and [`BoardSpec::new`].
    pub fn spec(&self) -> Result<BoardSpec> {
        let p = self.game.parameter_or_default(self.branching, self.p)?;
        BoardSpec::new(self.game, self.branching, self.height, p)
    }
}

/// `mc emm`: minimax, product and EMM on the boards of one setting.
#[derive(Debug, Clone, PartialEq)]
pub struct EmmRequest {
    /// The boards.
    pub board: BoardRequest,
    /// The static evaluator.
    pub evaluator: EmmEvaluatorKind,
    /// Error rate e of the artificial evaluator.
    pub error: f64,
    /// The natural evaluator's error table from `mc emm-calibrate`.
    pub calibration: Option<PathBuf>,
    /// Boards of the natural evaluator's error table (default 10,000).
    pub calibration_games: Option<u64>,
    /// Seed of the natural evaluator's error table (default derived from the seed).
    pub calibration_seed: Option<u64>,
}

impl EmmRequest {
    /// Runs the study on `config.trials` non-trivial games (its shard's, if sharded) and
    /// returns its report.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::GameKind;
    /// use pathology::sim::report::RunConfig;
    /// use pathology::studies::wilson_parker_nau::request::{BoardRequest, EmmEvaluatorKind, EmmRequest};
    /// let request = EmmRequest {
    ///     board: BoardRequest { game: GameKind::P, branching: 2, height: 4, p: None },
    ///     evaluator: EmmEvaluatorKind::Artificial, error: 0.1,
    ///     calibration: None, calibration_games: None, calibration_seed: None,
    /// };
    /// let config = RunConfig { trials: 100, seed: 1, threads: Some(1), shard: None };
    /// assert_eq!(request.run(&config).unwrap().manifest.command, "mc emm");
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for calibration options with the artificial evaluator; as
    /// [`BoardRequest::spec`], the budget, [`natural_evaluator`] and [`run_counts`].
    pub fn run(&self, config: &RunConfig) -> Result<Report> {
        let spec = self.board.spec()?;
        let threads = config.threads();
        let runner = config.runner("mc emm")?;
        // Refused up front, before any calibration is estimated.
        runner.check_budget_of(
            "--games",
            &format!("mc emm at height {}", self.board.height),
            study_game_seconds(&spec),
        )?;
        let (setting, evaluator) = match self.evaluator {
            EmmEvaluatorKind::Artificial => {
                for (name, given) in [
                    ("--calibration", self.calibration.is_some()),
                    ("--calibration-games", self.calibration_games.is_some()),
                    ("--calibration-seed", self.calibration_seed.is_some()),
                ] {
                    if given {
                        return Err(Error::invalid(
                            name,
                            "given only with --evaluator natural",
                            "a value",
                        ));
                    }
                }
                (
                    EvaluatorSetting::Artificial { error: self.error },
                    StudyEvaluator::Artificial { error: self.error },
                )
            }
            EmmEvaluatorKind::Natural => {
                let source = match &self.calibration {
                    Some(path) => CalibrationSource::File {
                        path,
                        games: self.calibration_games,
                        seed: self.calibration_seed,
                    },
                    None => {
                        let games = self.calibration_games.unwrap_or(10_000);
                        TrialRunner::new(games, 0, threads)?.check_budget_of(
                            "--calibration-games",
                            "the EMM error table of mc emm",
                            study_game_seconds(&spec),
                        )?;
                        CalibrationSource::Estimate {
                            games,
                            seed: self
                                .calibration_seed
                                .unwrap_or(calibration_seed(config.seed)),
                        }
                    }
                };
                natural_evaluator(&spec, source, threads)?
            }
        };
        let counts = run_counts(&spec, &evaluator, &runner)?;
        let setting = EmmSetting {
            spec,
            evaluator: setting,
        };
        Ok(study_report(&setting, &config.run(), &counts))
    }
}

/// `mc emm-calibrate`: the natural evaluator's error rates by node height, estimated on
/// `config.trials` solved boards (unsharded), saved to `out` when given (`.json`, else CSV;
/// checked writable before any work) and returned as a report.
///
/// # Errors
///
/// As [`BoardRequest::spec`], [`check_writable`], the budget, [`calibrate`] and the save.
pub fn calibration_run(
    board: &BoardRequest,
    config: &RunConfig,
    out: Option<&Path>,
) -> Result<Report> {
    let spec = board.spec()?;
    if let Some(path) = out {
        check_writable(path)?;
    }
    let runner = TrialRunner::new(config.trials, config.seed, config.threads())?
        .with_progress("mc emm-calibrate")
        .counting("games")
        .without_sharding();
    runner.check_budget_of("--games", "mc emm-calibrate", study_game_seconds(&spec))?;
    let table = calibrate(&spec, &runner)?;
    if let Some(path) = out {
        table.save(path)?;
    }
    Ok(calibration_report(&table))
}

/// Refuses up front `mc emm-figures` runs estimated beyond an hour: per game, four figures
/// at b = 2 and 3, H = 10, the natural ones calibrating on as many boards first.
///
/// # Errors
///
/// [`Error::TooExpensive`] naming `--games`; as [`TrialRunner::new`].
pub fn check_figures_budget(games: u64, seed: u64, threads: usize) -> Result<()> {
    let mut per_game = 0.0;
    for b in [2, 3] {
        let spec = BoardSpec::new(GameKind::P, b, 10, GameKind::P.default_parameter(b)?)?;
        per_game += 6.0 * study_game_seconds(&spec);
    }
    TrialRunner::new(games, seed, threads)?
        .without_sharding()
        .check_budget_of("--games", "mc emm-figures", per_game)?;
    Ok(())
}
