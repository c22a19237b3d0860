//! `pathology mc`: Monte Carlo experiments that check exact values against real searches.

use num_rational::BigRational;
use pathology::closed_form::w_b;
use pathology::dgame::DependenceFactors;
use pathology::errprop::ErrorPair;
use pathology::mc::alphabeta::{
    RandomTrees, estimate_naive_losses, estimate_naive_losses_tictactoe,
};
use pathology::mc::dgame::{DepthRow, Engine, estimate_decisions};
use pathology::mc::errprop::{QuantityRow, estimate_errors};
use pathology::mc::rhf::{FlawSetup, estimate_flaw_rate};
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
    /// Li & Marsland's gamma_K, delta_K: minimax back-ups of a noisy bi-valued evaluator on
    /// D-game search trees of depth 2K, against the map of formulas (3)-(4) iterated K times.
    Errprop(ErrpropArgs),
    /// Chi & Nau's rate of heuristic flaw of e^w = w u + (1 - w) r on binary P-games, against
    /// the closed form rhf(w).
    Rhf(RhfArgs),
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
    #[arg(long, value_parser = super::args::threads)]
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
        Experiment::Errprop(a) => errprop(a),
        Experiment::Rhf(a) => rhf(a),
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
                    let mut row = vec![r.d.to_string(), r.correct.to_string()];
                    row.extend(c.csv_cells());
                    row
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
                    let mut row = vec![name.to_string()];
                    row.extend(c.csv_cells());
                    row
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

#[derive(Debug, clap::Args)]
struct ErrpropArgs {
    /// gamma = Pr[psi = 1 | loss] of the frontier evaluator, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    gamma: BigRational,
    /// delta = Pr[psi = 0 | win] of the frontier evaluator, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    delta: BigRational,
    /// Dependence factor f1 of win Max nodes, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    f1: BigRational,
    /// Dependence factor f2 of loss Min nodes, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    f2: BigRational,
    /// Back-up steps K (1..=10): the search trees have depth 2K, a Max root and Max frontier.
    #[arg(long)]
    steps: u32,
    #[command(flatten)]
    run: RunOptions,
}

#[derive(Serialize)]
struct ErrpropReport<'a> {
    experiment: &'static str,
    gamma: String,
    delta: String,
    f1: String,
    f2: String,
    steps: u32,
    trials: u64,
    seed: u64,
    rows: &'a [QuantityRow],
}

fn errprop(args: ErrpropArgs) -> anyhow::Result<()> {
    let start = ErrorPair::new(args.gamma.to_f64(), args.delta.to_f64())?;
    let factors = DependenceFactors::new(args.f1.to_f64(), args.f2.to_f64())?;
    let runner = args.run.runner("mc errprop")?;
    let rows = estimate_errors(&start, &factors, args.steps, &runner)?;
    let report = ErrpropReport {
        experiment: "mc errprop",
        gamma: short_text(&args.gamma),
        delta: short_text(&args.delta),
        f1: short_text(&args.f1),
        f2: short_text(&args.f2),
        steps: args.steps,
        trials: runner.trials(),
        seed: runner.seed(),
        rows: &rows,
    };
    let header = [
        "quantity", "estimate", "ci_low", "ci_high", "exact", "z", "trials",
    ];
    let text = match args.run.format {
        McFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
        McFormat::Csv => csv_string(
            &header,
            &rows
                .iter()
                .map(|r| {
                    let c = &r.comparison;
                    let mut row = vec![r.quantity.to_string()];
                    row.extend(c.csv_cells());
                    row.push(r.trials.to_string());
                    row
                })
                .collect::<Vec<_>>(),
        )?,
        McFormat::Text => {
            let mut table = vec![header.map(String::from).to_vec()];
            table.extend(rows.iter().map(|r| {
                let c = &r.comparison;
                vec![
                    r.quantity.to_string(),
                    number(c.estimate),
                    number(c.ci_low),
                    number(c.ci_high),
                    c.exact.map_or_else(String::new, number),
                    z_text(c.z),
                    r.trials.to_string(),
                ]
            }));
            format!(
                "Errors at the Max root of depth-{} D-game searches (K = {}) from gamma = {}, \
                 delta = {}, f1 = {}, f2 = {}: {} trees with a loss root and {} with a win root \
                 (seed {}) vs the map (3)-(4)\n(95% Wilson intervals; z against the exact \
                 value)\n{}",
                2 * args.steps,
                args.steps,
                report.gamma,
                report.delta,
                report.f1,
                report.f2,
                runner.trials(),
                runner.trials(),
                runner.seed(),
                align_columns(&table)
            )
        }
    };
    super::print(&text)
}

#[derive(Debug, clap::Args)]
struct RhfArgs {
    /// Weight w of the true value in e^w = w u + (1 - w) r, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    w: BigRational,
    /// Height H of the binary P-game (1..=20).
    #[arg(long)]
    height: u32,
    /// Depth D of the two distinct nodes compared (1..=H).
    #[arg(long)]
    depth: u32,
    /// Probability that a leaf is a win for Max, in [0, 1] (default: w_2 = (3 - sqrt 5)/2,
    /// which makes the closed form's xi the same at every depth).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    p: Option<BigRational>,
    #[command(flatten)]
    run: RunOptions,
}

#[derive(Serialize)]
struct RhfReport {
    experiment: &'static str,
    w: String,
    p: f64,
    height: u32,
    depth: u32,
    xi: f64,
    estimate: f64,
    ci_low: f64,
    ci_high: f64,
    closed_form: f64,
    z: Option<f64>,
    trials: u64,
    seed: u64,
}

fn rhf(args: RhfArgs) -> anyhow::Result<()> {
    let p = match &args.p {
        Some(p) => p.to_f64(),
        None => w_b(2)?,
    };
    let setup = FlawSetup::new(args.w.to_f64(), p, args.height, args.depth)?;
    let runner = args.run.runner("mc rhf")?;
    let result = estimate_flaw_rate(&setup, &runner)?;
    let c = result.comparison;
    let report = RhfReport {
        experiment: "mc rhf",
        w: short_text(&args.w),
        p,
        height: args.height,
        depth: args.depth,
        xi: result.xi,
        estimate: c.estimate,
        ci_low: c.ci_low,
        ci_high: c.ci_high,
        closed_form: c.exact.unwrap_or(f64::NAN),
        z: c.z,
        trials: result.trials,
        seed: runner.seed(),
    };
    let header = [
        "w",
        "p",
        "height",
        "depth",
        "xi",
        "estimate",
        "ci_low",
        "ci_high",
        "closed_form",
        "z",
        "trials",
    ];
    let text = match args.run.format {
        McFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
        McFormat::Csv => csv_string(
            &header,
            &[vec![
                report.w.clone(),
                p.to_string(),
                args.height.to_string(),
                args.depth.to_string(),
                result.xi.to_string(),
                c.estimate.to_string(),
                c.ci_low.to_string(),
                c.ci_high.to_string(),
                report.closed_form.to_string(),
                c.z.map_or_else(String::new, |x| x.to_string()),
                result.trials.to_string(),
            ]],
        )?,
        McFormat::Text => {
            let table = vec![
                [
                    "estimate",
                    "ci_low",
                    "ci_high",
                    "closed_form",
                    "z",
                    "trials",
                ]
                .map(String::from)
                .to_vec(),
                vec![
                    number(c.estimate),
                    number(c.ci_low),
                    number(c.ci_high),
                    number(report.closed_form),
                    z_text(c.z),
                    result.trials.to_string(),
                ],
            ];
            format!(
                "rhf({}) of e^w, w = {}, on binary P-games of height {} (leaves win with p = {}, \
                 xi = {} at depth {}): {} pairs of distinct nodes (seed {}) vs the closed form\n\
                 (95% Wilson interval; z against the closed form)\n{}",
                args.depth,
                report.w,
                args.height,
                number(p),
                number(result.xi),
                args.depth,
                result.trials,
                runner.seed(),
                align_columns(&table)
            )
        }
    };
    super::print(&text)
}
