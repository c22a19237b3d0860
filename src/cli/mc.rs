//! `pathology mc`: Monte Carlo experiments that check exact values against real searches.

use num_rational::BigRational;
use pathology::dgame::DependenceFactors;
use pathology::mc::alphabeta::{
    RandomTrees, estimate_naive_losses, estimate_naive_losses_tictactoe,
};
use pathology::mc::dgame::{DepthRow, Engine, estimate_decisions};
use pathology::mc::{Comparison, TrialRunner};
use pathology::number::{Probability, short_text};
use pathology::output::{align_columns, csv_string};
use serde::Serialize;

use super::args::{height, probability};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    experiment: Experiment,
}

#[derive(Debug, clap::Subcommand)]
enum Experiment {
    /// D(d,h) estimated by searching D-game boards with minimax and psi, against the exact value.
    Dgame(DgameArgs),
    /// How often random tie-breaking over alpha-beta root values picks a losing move, on random
    /// game trees.
    Alphabeta(AlphabetaArgs),
    /// Chi & Nau: minimax against the product rule on the same random boards, each moving
    /// first once per board; minimax's share of the games won.
    Match(super::studies::MatchArgs),
    /// Chi & Nau's Fig. 3: minimax against product with e^w for w = 0..0.5, against rhf(w).
    MatchSweep(super::studies::MatchSweepArgs),
    /// Chi & Nau's Section 4.4 table: depth-11 P-games, e1 against e2, search depths 2..9.
    MatchTable(super::studies::MatchTableArgs),
    /// Wilson, Parker & Nau: correct decisions of minimax, product and EMM at every search depth
    /// on non-trivial P- or N-games.
    Emm(super::studies::EmmArgs),
    /// The natural evaluator's error rates by node height, estimated on solved boards (for EMM).
    EmmCalibrate(super::studies::EmmCalibrateArgs),
    /// Wilson, Parker & Nau's Figs. 3-6 (b = 2 and 3, d = 10) into plots/.
    EmmFigures(super::studies::EmmFiguresArgs),
    /// Chi & Nau's Fig. 3 and Wilson et al.'s Figs. 3-6 together (reduced sizes unless --full).
    StudyFigures(super::studies::StudyFiguresArgs),
}

/// Output formats of the Monte Carlo commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum McFormat {
    /// Aligned plain text.
    Text,
    /// Comma-separated values.
    Csv,
    /// JSON.
    Json,
}

/// Options shared by the experiments.
#[derive(Debug, Clone, clap::Args)]
pub struct RunOptions {
    /// Number of trials (at least 1).
    #[arg(long, value_parser = trials)]
    pub trials: u64,
    /// Seed of the random streams (the same seed gives the same output for any --threads).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = threads)]
    pub threads: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = McFormat::Text)]
    pub format: McFormat,
}

fn trials(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1, got 0".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("must be a whole number of at least 1, got {text}")),
    }
}

fn threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!("must be a whole number in 1..=1024, got {text}")),
    }
}

impl RunOptions {
    /// The runner, with a progress bar labelled `label`.
    pub fn runner(&self, label: &str) -> anyhow::Result<TrialRunner> {
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
        Ok(TrialRunner::new(self.trials, self.seed, threads)?.with_progress(label))
    }
}

#[derive(Debug, clap::Args)]
struct DgameArgs {
    /// Height h of the node where the decision is made (1..=20).
    #[arg(long, value_parser = height)]
    height: u32,
    /// Dependence factor f1 of win Max nodes, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    f1: BigRational,
    /// Dependence factor f2 of loss Min nodes, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    f2: BigRational,
    /// Search implementation: the specialised D-game path or the generic Game-trait search
    /// (same results from the same seed).
    #[arg(long, value_enum, default_value_t = Engine::Fast)]
    engine: Engine,
    #[command(flatten)]
    run: RunOptions,
}

/// Where `mc alphabeta` draws its positions from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
enum Positions {
    /// Random uniform game trees (--branching, --depth, --max-value).
    Trees,
    /// Random tic-tac-toe positions after --plies random moves.
    Tictactoe,
}

#[derive(Debug, clap::Args)]
struct AlphabetaArgs {
    /// Random game trees or random tic-tac-toe positions.
    #[arg(long, value_enum, default_value_t = Positions::Trees)]
    positions: Positions,
    /// Random moves from the empty tic-tac-toe board (1..=8).
    #[arg(long, default_value_t = 3)]
    plies: u32,
    /// Branching factor of the random trees (2..=8).
    #[arg(long, default_value_t = 3)]
    branching: usize,
    /// Depth of the random trees (1..=10), Max to move at the root.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Leaf values are uniform on 0..=max-value (small ranges make ties).
    #[arg(long, default_value_t = 2)]
    max_value: u32,
    #[command(flatten)]
    run: RunOptions,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.experiment {
        Experiment::Dgame(a) => dgame(a),
        Experiment::Alphabeta(a) => alphabeta(a),
        Experiment::Match(a) => super::studies::run_match(a),
        Experiment::MatchSweep(a) => super::studies::run_match_sweep(a),
        Experiment::MatchTable(a) => super::studies::run_match_table(a),
        Experiment::Emm(a) => super::studies::run_emm(a),
        Experiment::EmmCalibrate(a) => super::studies::run_emm_calibrate(a),
        Experiment::EmmFigures(a) => super::studies::run_emm_figures(a),
        Experiment::StudyFigures(a) => super::studies::run_study_figures(a),
    }
}

#[derive(Serialize)]
struct DgameReport<'a> {
    experiment: &'static str,
    height: u32,
    f1: String,
    f2: String,
    engine: Engine,
    trials: u64,
    seed: u64,
    rows: &'a [DepthRow],
}

fn number(x: f64) -> String {
    format!("{x:.4}")
}

fn z_text(z: Option<f64>) -> String {
    z.map_or_else(String::new, |z| format!("{z:.2}"))
}

fn dgame(args: DgameArgs) -> anyhow::Result<()> {
    let factors = DependenceFactors::new(args.f1.to_f64(), args.f2.to_f64())?;
    let runner = args.run.runner("mc dgame")?;
    let rows = estimate_decisions(&factors, args.height, args.engine, &runner)?;
    let report = DgameReport {
        experiment: "mc dgame",
        height: args.height,
        f1: short_text(&args.f1),
        f2: short_text(&args.f2),
        engine: args.engine,
        trials: runner.trials(),
        seed: runner.seed(),
        rows: &rows,
    };
    let cells = |r: &DepthRow| {
        let c = &r.comparison;
        vec![
            r.d.to_string(),
            r.correct.to_string(),
            number(c.estimate),
            number(c.ci_low),
            number(c.ci_high),
            c.exact.map_or_else(String::new, number),
            z_text(c.z),
        ]
    };
    let text = match args.run.format {
        McFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
        McFormat::Csv => csv_string(
            &[
                "d", "correct", "estimate", "ci_low", "ci_high", "exact", "z",
            ],
            &rows
                .iter()
                .map(|r| {
                    let c = &r.comparison;
                    vec![
                        r.d.to_string(),
                        r.correct.to_string(),
                        c.estimate.to_string(),
                        c.ci_low.to_string(),
                        c.ci_high.to_string(),
                        c.exact.map_or_else(String::new, |x| x.to_string()),
                        c.z.map_or_else(String::new, |x| x.to_string()),
                    ]
                })
                .collect::<Vec<_>>(),
        )?,
        McFormat::Text => {
            let mut table = vec![
                [
                    "d", "correct", "estimate", "ci_low", "ci_high", "exact", "z",
                ]
                .map(String::from)
                .to_vec(),
            ];
            table.extend(rows.iter().map(cells));
            format!(
                "D(d,{}) for f1 = {}, f2 = {}: {} D-game trees (seed {}, {} engine) vs exact\n\
                 (95% Wilson intervals; z against the exact value)\n{}",
                args.height,
                report.f1,
                report.f2,
                runner.trials(),
                runner.seed(),
                match args.engine {
                    Engine::Fast => "fast",
                    Engine::Generic => "generic",
                },
                align_columns(&table)
            )
        }
    };
    super::print(&text)
}

#[derive(Serialize)]
struct AlphabetaReport {
    experiment: &'static str,
    positions: Positions,
    #[serde(skip_serializing_if = "Option::is_none")]
    trees: Option<RandomTrees>,
    #[serde(skip_serializing_if = "Option::is_none")]
    plies: Option<u32>,
    trials: u64,
    seed: u64,
    naive_can_lose: Comparison,
    naive_loss_probability: Comparison,
    safe_loss_probability: Comparison,
}

fn alphabeta(args: AlphabetaArgs) -> anyhow::Result<()> {
    let trees = RandomTrees {
        branching: args.branching,
        depth: args.depth,
        max_value: args.max_value,
    };
    let runner = args.run.runner("mc alphabeta")?;
    let (result, described) = match args.positions {
        Positions::Trees => (
            estimate_naive_losses(trees, &runner)?,
            format!(
                "random trees (b = {}, depth {}, leaves 0..={})",
                trees.branching, trees.depth, trees.max_value
            ),
        ),
        Positions::Tictactoe => (
            estimate_naive_losses_tictactoe(args.plies, &runner)?,
            format!(
                "random tic-tac-toe positions after {} random moves",
                args.plies
            ),
        ),
    };
    let is_trees = args.positions == Positions::Trees;
    let report = AlphabetaReport {
        experiment: "mc alphabeta",
        positions: args.positions,
        trees: is_trees.then_some(trees),
        plies: (!is_trees).then_some(args.plies),
        trials: runner.trials(),
        seed: runner.seed(),
        naive_can_lose: result.naive_can_lose,
        naive_loss_probability: result.naive_loss_probability,
        safe_loss_probability: result.safe_loss_probability,
    };
    let rows: Vec<(&str, &Comparison)> = vec![
        ("naive_can_lose", &report.naive_can_lose),
        ("naive_loss_probability", &report.naive_loss_probability),
        ("safe_loss_probability", &report.safe_loss_probability),
    ];
    let text = match args.run.format {
        McFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
        McFormat::Csv => csv_string(
            &["quantity", "estimate", "ci_low", "ci_high", "exact", "z"],
            &rows
                .iter()
                .map(|(name, c)| {
                    vec![
                        name.to_string(),
                        c.estimate.to_string(),
                        c.ci_low.to_string(),
                        c.ci_high.to_string(),
                        c.exact.map_or_else(String::new, |x| x.to_string()),
                        c.z.map_or_else(String::new, |x| x.to_string()),
                    ]
                })
                .collect::<Vec<_>>(),
        )?,
        McFormat::Text => {
            let mut table = vec![
                ["quantity", "estimate", "ci_low", "ci_high", "exact", "z"]
                    .map(String::from)
                    .to_vec(),
            ];
            table.extend(rows.iter().map(|(name, c)| {
                vec![
                    name.to_string(),
                    number(c.estimate),
                    number(c.ci_low),
                    number(c.ci_high),
                    c.exact.map_or_else(String::new, number),
                    z_text(c.z),
                ]
            }));
            format!(
                "Random tie-breaking over alpha-beta root values: {} {described}, seed {}\n{}",
                runner.trials(),
                runner.seed(),
                align_columns(&table)
            )
        }
    };
    super::print(&text)
}
