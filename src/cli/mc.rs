//! `pathology mc`: Monte Carlo experiments that check exact values against real searches.

use num_rational::BigRational;
use pathology::analytic::closed_form::w_b;
use pathology::numeric::number::Probability;
use pathology::sim::TrialRunner;
use pathology::sim::report::McRun;
use pathology::sim::runner::Shard;
use pathology::studies::crossval::dgame::{Engine, decision_counts};
use pathology::studies::crossval::errprop::estimate_errors;
use pathology::studies::crossval::report::{DgameSpec, ErrpropSpec, RhfSpec};
use pathology::studies::crossval::rhf::estimate_flaw_rate;
use pathology::studies::ross::alphabeta::{
    RandomTrees, estimate_naive_losses, estimate_naive_losses_tictactoe,
};
use pathology::studies::ross::alphabeta_report::naive_loss_report;
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
    Match(super::matches::MatchArgs),
    /// Chi & Nau's Fig. 3: minimax against product with e^w for w = 0..0.5, against rhf(w).
    MatchSweep(super::matches::MatchSweepArgs),
    /// Chi & Nau's Section 4.4 table: depth-11 P-games, e1 against e2, search depths 2..9.
    MatchTable(super::matches::MatchTableArgs),
    /// Wilson, Parker & Nau: correct decisions of minimax, product and EMM at every search depth
    /// on non-trivial P- or N-games.
    Emm(super::emm::EmmArgs),
    /// The natural evaluator's error rates by node height, estimated on solved boards (for EMM).
    EmmCalibrate(super::emm::EmmCalibrateArgs),
    /// Wilson, Parker & Nau's Figs. 3-6 (b = 2 and 3, d = 10) into plots/.
    EmmFigures(super::emm::EmmFiguresArgs),
    /// Chi & Nau's Fig. 3 and Wilson et al.'s Figs. 3-6 together (reduced sizes unless --full).
    StudyFigures(super::studies::StudyFiguresArgs),
    /// Chi & Nau's three-hole kalah table: rhf(4) of e_a^w and minimax against product.
    Kalah(super::variety::KalahArgs),
    /// Chi & Nau's othello (Teague): minimax against product, weak and strong evaluators.
    Othello(super::variety::OthelloArgs),
    /// Ross's tic-tac-toe counts: 9! sequences, games, nodes of minimax and alpha-beta.
    Nodes(super::variety::NodesArgs),
}

/// Options shared by the experiments.
#[derive(Debug, Clone, clap::Args)]
pub struct RunOptions {
    /// Number of trials (at least 1).
    #[arg(long, value_parser = super::args::count, allow_negative_numbers = true)]
    pub trials: u64,
    /// Seed of the random streams (the same seed gives the same output for any --threads).
    #[arg(long, value_parser = super::args::seed, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = super::args::threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Run only the K-th of N disjoint slices of the seeded trials (K/N, 1 <= K <= N); `pathology
    /// merge` sums the N outputs into the unsharded result, byte for byte.
    #[arg(long, value_parser = super::args::shard)]
    pub shard: Option<Shard>,
    #[command(flatten)]
    pub output: super::args::OutputArgs,
}

impl RunOptions {
    /// The runner (sharded when --shard is given), with a progress bar labelled `label`.
    pub fn runner(&self, label: &str) -> anyhow::Result<TrialRunner> {
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
        let runner = TrialRunner::new(self.trials, self.seed, threads)?.with_progress(label);
        Ok(match self.shard {
            Some(s) => runner.with_shard(s),
            None => runner,
        })
    }

    /// The runner of [`RunOptions::runner`], refused up front when the run would take more
    /// than an hour ([`TrialRunner::check_budget`]): `what` names the experiment and its size,
    /// `seconds_per_trial` is one trial's cost on one thread (each experiment's own model).
    pub fn budgeted_runner(
        &self,
        label: &str,
        what: &str,
        seconds_per_trial: f64,
    ) -> anyhow::Result<TrialRunner> {
        let runner = self.runner(label)?;
        runner.check_budget(what, seconds_per_trial)?;
        Ok(runner)
    }

    /// The run as the manifest states it.
    pub fn run(&self) -> McRun {
        McRun {
            trials: self.trials,
            seed: self.seed,
            shard: self.shard,
        }
    }
}

#[derive(Debug, clap::Args)]
struct DgameArgs {
    /// Height h of the node where the decision is made (1..=20).
    #[arg(long, value_parser = height, allow_negative_numbers = true)]
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
    /// Random moves from the empty tic-tac-toe board (1..=8; default 3); only with
    /// `--positions tictactoe`.
    #[arg(long, value_parser = super::args::whole::<u32>, allow_negative_numbers = true)]
    plies: Option<u32>,
    /// Branching factor of the random trees (2..=8; default 3); only with `--positions trees`.
    #[arg(long, value_parser = super::args::whole::<usize>, allow_negative_numbers = true)]
    branching: Option<usize>,
    /// Depth of the random trees (1..=10; default 4), Max to move at the root; only with
    /// `--positions trees`.
    #[arg(long, value_parser = super::args::whole::<u32>, allow_negative_numbers = true)]
    depth: Option<u32>,
    /// Leaf values are uniform on 0..=max-value (small ranges make ties; default 2); only
    /// with `--positions trees`.
    #[arg(long, value_parser = super::args::whole::<u32>, allow_negative_numbers = true)]
    max_value: Option<u32>,
    #[command(flatten)]
    run: RunOptions,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.experiment {
        Experiment::Dgame(a) => dgame(a),
        Experiment::Alphabeta(a) => alphabeta(a),
        Experiment::Errprop(a) => errprop(a),
        Experiment::Rhf(a) => rhf(a),
        Experiment::Match(a) => super::matches::run_match(a),
        Experiment::MatchSweep(a) => super::matches::run_match_sweep(a),
        Experiment::MatchTable(a) => super::matches::run_match_table(a),
        Experiment::Emm(a) => super::emm::run_emm(a),
        Experiment::EmmCalibrate(a) => super::emm::run_emm_calibrate(a),
        Experiment::EmmFigures(a) => super::emm::run_emm_figures(a),
        Experiment::StudyFigures(a) => super::studies::run_study_figures(a),
        Experiment::Kalah(a) => super::variety::run_kalah(a),
        Experiment::Othello(a) => super::variety::run_othello(a),
        Experiment::Nodes(a) => super::variety::run_nodes(a),
    }
}

fn dgame(args: DgameArgs) -> anyhow::Result<()> {
    let spec = DgameSpec {
        height: args.height,
        f1: args.f1,
        f2: args.f2,
        engine: args.engine,
    };
    let runner = args.run.budgeted_runner(
        "mc dgame",
        &format!("mc dgame at height {}", spec.height),
        pathology::studies::crossval::dgame::dgame_trial_seconds(spec.height, spec.engine)?,
    )?;
    let counts = decision_counts(&spec.factors()?, spec.height, spec.engine, &runner)?;
    let report = spec.report(&args.run.run(), &counts)?;
    args.run.output.emit(&report, 4)
}

fn alphabeta(args: AlphabetaArgs) -> anyhow::Result<()> {
    // Its estimates are means of fractions, which `merge` cannot rebuild from counts yet: a
    // shard's output could never be combined, so a sharded run is refused.
    if let Some(shard) = args.run.shard {
        return Err(pathology::Error::invalid(
            "--shard",
            "left out for mc alphabeta (its shards cannot be merged yet; run it unsharded)",
            shard,
        )
        .into());
    }
    // Options of the other kind of positions would be silently ignored: reject them.
    let tree_options = [
        ("--branching", args.branching.is_some()),
        ("--depth", args.depth.is_some()),
        ("--max-value", args.max_value.is_some()),
    ];
    match args.positions {
        Positions::Trees if args.plies.is_some() => {
            return Err(pathology::Error::invalid(
                "--plies",
                "given only with --positions tictactoe (random trees take --branching, --depth and --max-value)",
                args.plies.unwrap_or_default(),
            )
            .into());
        }
        Positions::Tictactoe => {
            if let Some((name, _)) = tree_options.iter().find(|(_, given)| *given) {
                return Err(pathology::Error::invalid(
                    name,
                    "given only with --positions trees (tic-tac-toe takes --plies)",
                    "it with --positions tictactoe",
                )
                .into());
            }
        }
        Positions::Trees => {}
    }
    let plies = args.plies.unwrap_or(3);
    let trees = RandomTrees {
        branching: args.branching.unwrap_or(3),
        depth: args.depth.unwrap_or(4),
        max_value: args.max_value.unwrap_or(2),
    };
    let (what, per_trial) = match args.positions {
        Positions::Trees => (
            format!(
                "mc alphabeta on random trees (b = {}, depth {})",
                trees.branching, trees.depth
            ),
            pathology::studies::ross::alphabeta::tree_trial_seconds(&trees)?,
        ),
        Positions::Tictactoe => (
            format!("mc alphabeta on tic-tac-toe after --plies {plies}"),
            pathology::studies::ross::alphabeta::tictactoe_trial_seconds(plies)?,
        ),
    };
    let runner = args.run.budgeted_runner("mc alphabeta", &what, per_trial)?;
    let report = match args.positions {
        Positions::Trees => naive_loss_report(
            &args.run.run(),
            "trees",
            &format!(
                "random trees (b = {}, depth {}, leaves 0..={})",
                trees.branching, trees.depth, trees.max_value
            ),
            &[
                ("branching", trees.branching as u64),
                ("depth", u64::from(trees.depth)),
                ("max_value", u64::from(trees.max_value)),
            ],
            &estimate_naive_losses(trees, &runner)?,
        ),
        Positions::Tictactoe => naive_loss_report(
            &args.run.run(),
            "tictactoe",
            &format!("random tic-tac-toe positions after {} random moves", plies),
            &[("plies", u64::from(plies))],
            &estimate_naive_losses_tictactoe(plies, &runner)?,
        ),
    };
    args.run.output.emit(&report, 4)
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
    #[arg(long, value_parser = super::args::whole::<u32>, allow_negative_numbers = true)]
    steps: u32,
    #[command(flatten)]
    run: RunOptions,
}

fn errprop(args: ErrpropArgs) -> anyhow::Result<()> {
    let spec = ErrpropSpec {
        gamma: args.gamma,
        delta: args.delta,
        f1: args.f1,
        f2: args.f2,
        steps: args.steps,
    };
    let (start, factors) = spec.start_and_factors()?;
    let runner = args.run.budgeted_runner(
        "mc errprop",
        &format!("mc errprop with {} steps", args.steps),
        pathology::studies::crossval::errprop::errprop_trial_seconds(args.steps)?,
    )?;
    let rows = estimate_errors(&start, &factors, args.steps, &runner)?;
    args.run
        .output
        .emit(&spec.report(&args.run.run(), &rows), 4)
}

#[derive(Debug, clap::Args)]
struct RhfArgs {
    /// Weight w of the true value in e^w = w u + (1 - w) r, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    w: BigRational,
    /// Height H of the binary P-game (1..=20).
    #[arg(long, value_parser = super::args::whole::<u32>, allow_negative_numbers = true)]
    height: u32,
    /// Depth D of the two distinct nodes compared (1..=H).
    #[arg(long, value_parser = super::args::whole::<u32>, allow_negative_numbers = true)]
    depth: u32,
    /// Probability that a leaf is a win for Max, in [0, 1] (default: w_2 = (3 - sqrt 5)/2,
    /// which makes the closed form's xi the same at every depth).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    p: Option<BigRational>,
    #[command(flatten)]
    run: RunOptions,
}

fn rhf(args: RhfArgs) -> anyhow::Result<()> {
    let spec = RhfSpec {
        p: match &args.p {
            Some(p) => p.to_f64(),
            None => w_b(2)?,
        },
        w: args.w,
        height: args.height,
        depth: args.depth,
    };
    let setup = spec.setup()?;
    let runner = args.run.budgeted_runner(
        "mc rhf",
        &format!("mc rhf at height {} depth {}", args.height, args.depth),
        pathology::studies::crossval::rhf::rhf_trial_seconds(&setup),
    )?;
    let result = estimate_flaw_rate(&setup, &runner)?;
    args.run
        .output
        .emit(&spec.report(&args.run.run(), &result), 4)
}
