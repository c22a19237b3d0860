//! `pathology mc`: Monte Carlo experiments that check exact values against real searches.

use crate::studies::crossval::dgame::Engine;
use crate::studies::crossval::distributions_report::DistributionsSpec;
use crate::studies::crossval::report::{DgameSpec, ErrpropSpec, RhfSpec};
use crate::studies::ross::alphabeta_report::{NaiveLossRequest, Positions};
use num_rational::BigRational;

use super::args::{height, probability};
use crate::analytic::decision::{EvaluatorName, GameName};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    experiment: Experiment,
    /// Refuse a run estimated to take longer than this many minutes on its threads (1..=10080,
    /// a week) [default: 60]. Raise it for a long job on one machine; a run accepted above
    /// 60 minutes prints its estimate on standard error before it starts.
    #[arg(long, global = true, value_name = "MINUTES", value_parser = super::args::whole_in::<u32>(1, 10_080), allow_negative_numbers = true)]
    time_limit: Option<u32>,
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
    /// Wilson, Parker & Nau's Figs. 3-6 (b = 2 and 3, d = 10) into ./emm-figures (or --out).
    EmmFigures(super::emm::EmmFiguresArgs),
    /// Chi & Nau's Fig. 3 and Wilson et al.'s Figs. 3-6 together (reduced sizes unless --full)
    /// into ./study-figures (or --out).
    StudyFigures(super::studies::StudyFiguresArgs),
    /// Chi & Nau's three-hole kalah table: rhf(4) of e_a^w and minimax against product.
    Kalah(super::variety::KalahArgs),
    /// Chi & Nau's othello (Teague): minimax against product, weak and strong evaluators.
    Othello(super::variety::OthelloArgs),
    /// Chi & Nau on G-games (reconstruction): D(d,k) by search, minimax against product, rhf claim.
    Ggame(super::ggame::GGameArgs),
    /// Ballard's claim (Chi & Nau 4.2), reconstructed: mixed rule against minimax on N-games.
    Ballard(super::ballard::BallardArgs),
    /// Chi & Nau's kalah table under each reading of the unstated choices, with intervals.
    KalahGap(super::ballard::KalahGapArgs),
    /// Ross's tic-tac-toe counts: 9! sequences, games, nodes of minimax and alpha-beta.
    Nodes(super::variety::NodesArgs),
    /// Evaluations as distributions: depth-d minimax on sampled critical games and P-games
    /// (--game crit|p) with the same evaluators, against the exact D(d,h).
    Distributions(Box<DistributionsArgs>),
    /// Path-sum trees: depth-d minimax on sampled path-sum trees with terminal
    /// nodes, each node's evaluation drawn once, against the exact D(d,h) of `decision --game sum`.
    Sum(Box<SumArgs>),
    /// Nguyen & Ramanujan: how often UCT's move is winning by c and iterations, on the
    /// critical win-loss game (or P-/N-games), beside exact d-ply minimax (d = 1..8).
    Uct(super::uct::UctArgs),
    /// Test-time search run literally (pass-at-k, resample, best-of-n, vote, lookahead,
    /// knockout, beam): samples, verifier decisions, scores, votes, rollout trees, brackets and
    /// beams drawn, against the exact values of `pathology inference`.
    Inference(super::inference::McArgs),
    /// Evaluation samples (`pathology samples`): k of each problem's samples drawn literally
    /// (pass_at_k, pass_all, majority, best_of_k), against the exact curves.
    Samples(Box<super::samples::McArgs>),
}

pub use super::args::RunOptions;

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

#[derive(Debug, clap::Args)]
struct AlphabetaArgs {
    /// Random game trees or random tic-tac-toe positions.
    #[arg(long, value_enum, default_value_t = Positions::Trees)]
    positions: Positions,
    /// Random moves from the empty tic-tac-toe board (1..=8; default 3); only with
    /// `--positions tictactoe`.
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 8), allow_negative_numbers = true)]
    plies: Option<u32>,
    /// Branching factor of the random trees (2..=8; default 3); only with `--positions trees`.
    #[arg(long, value_parser = super::args::whole_in::<usize>(2, 8), allow_negative_numbers = true)]
    branching: Option<usize>,
    /// Depth of the random trees (1..=10; default 4), Max to move at the root; only with
    /// `--positions trees`.
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 10), allow_negative_numbers = true)]
    depth: Option<u32>,
    /// Leaf values are uniform on 0..=max-value (small ranges make ties; default 2); only
    /// with `--positions trees`.
    #[arg(long, value_parser = super::args::at_least::<u32>(1), allow_negative_numbers = true)]
    max_value: Option<u32>,
    #[command(flatten)]
    run: RunOptions,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let _limit = args
        .time_limit
        .map(|minutes| crate::budget::raise_monte_carlo_limit(f64::from(minutes) * 60.0));
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
        Experiment::Distributions(a) => distributions(*a),
        Experiment::Sum(a) => sum(*a),
        Experiment::Uct(a) => super::uct::run(a),
        Experiment::Inference(a) => super::inference::run_mc(a),
        Experiment::Samples(a) => super::samples::run_mc(*a),
        Experiment::Ggame(a) => super::ggame::run(a),
        Experiment::Ballard(a) => super::ballard::run_ballard(a),
        Experiment::KalahGap(a) => super::ballard::run_kalah_gap(a),
    }
}

fn dgame(args: DgameArgs) -> anyhow::Result<()> {
    args.run.check_table(&["estimates"])?;
    let spec = DgameSpec {
        height: args.height,
        f1: args.f1,
        f2: args.f2,
        engine: args.engine,
    };
    args.run.emit(&spec.estimate(&args.run.config())?)
}

fn alphabeta(args: AlphabetaArgs) -> anyhow::Result<()> {
    args.run.check_table(&["estimates"])?;
    let request = NaiveLossRequest {
        positions: args.positions,
        plies: args.plies,
        branching: args.branching,
        depth: args.depth,
        max_value: args.max_value,
    };
    args.run.emit(&request.estimate(&args.run.config())?)
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
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 10), allow_negative_numbers = true)]
    steps: u32,
    #[command(flatten)]
    run: RunOptions,
}

fn errprop(args: ErrpropArgs) -> anyhow::Result<()> {
    args.run.check_table(&["estimates"])?;
    let spec = ErrpropSpec {
        gamma: args.gamma,
        delta: args.delta,
        f1: args.f1,
        f2: args.f2,
        steps: args.steps,
    };
    args.run.emit(&spec.estimate(&args.run.config())?)
}

#[derive(Debug, clap::Args)]
struct RhfArgs {
    /// Weight w of the true value in e^w = w u + (1 - w) r, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    w: BigRational,
    /// Height H of the binary P-game (1..=20).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 20), allow_negative_numbers = true)]
    height: u32,
    /// Depth D of the two distinct nodes compared (1..=H).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 20), allow_negative_numbers = true)]
    depth: u32,
    /// Probability that a leaf is a win for Max, in [0, 1] (default: w_2 = (3 - sqrt 5)/2,
    /// which makes the closed form's xi the same at every depth).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    p: Option<BigRational>,
    #[command(flatten)]
    run: RunOptions,
}

fn rhf(args: RhfArgs) -> anyhow::Result<()> {
    args.run.check_table(&["estimates"])?;
    let spec = RhfSpec::with_default_p(args.w, args.p.as_ref(), args.height, args.depth)?;
    args.run.emit(&spec.estimate(&args.run.config())?)
}

/// `mc distributions`' `--game`: only the families it samples (so that the help
/// lists no family it refuses).
fn distributions_games() -> impl clap::builder::TypedValueParser<Value = GameName> {
    use clap::ValueEnum;
    use clap::builder::TypedValueParser;
    let accepted = [GameName::P, GameName::Crit];
    clap::builder::PossibleValuesParser::new(accepted.iter().filter_map(|g| g.to_possible_value()))
        .map(|name: String| GameName::from_str(&name, false).expect("a listed family"))
}

/// `mc distributions`' `--evaluator`: only the evaluators its samplers draw.
fn distributions_evaluators() -> impl clap::builder::TypedValueParser<Value = EvaluatorName> {
    use clap::ValueEnum;
    use clap::builder::TypedValueParser;
    let accepted = [
        EvaluatorName::Artificial,
        EvaluatorName::Perfect,
        EvaluatorName::Gaussian,
        EvaluatorName::Uniform,
        EvaluatorName::Histogram,
        EvaluatorName::ExpectedPlayout,
    ];
    clap::builder::PossibleValuesParser::new(accepted.iter().filter_map(|e| e.to_possible_value()))
        .map(|name: String| EvaluatorName::from_str(&name, false).expect("a listed evaluator"))
}

#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("distributions_game").required(true).args(["game"]))]
#[command(mut_arg("game", |a| a.value_parser(distributions_games())
    .help("Game family: p (P-game: --p or --leaves) or crit (critical win-loss game: --gamma)")))]
#[command(mut_arg("evaluator", |a| a.value_parser(distributions_evaluators())
    .help("Static evaluator at the search front [--game crit: default expected-playout; --game p: required]")))]
#[command(mut_arg("q", |a| a.hide(true)), mut_arg("qk", |a| a.hide(true)),
    mut_arg("rk", |a| a.hide(true)), mut_arg("step", |a| a.hide(true)),
    mut_arg("leaf", |a| a.hide(true)), mut_arg("terminal", |a| a.hide(true)),
    mut_arg("outcome", |a| a.hide(true)), mut_arg("noise", |a| a.hide(true)))]
struct DistributionsArgs {
    #[command(flatten)]
    game: crate::analytic::decision::GameOptions,
    /// Height h of the P-game (trees of at most 2^21 nodes), or terminal depth H of the
    /// critical game (1..=64).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 64), allow_negative_numbers = true)]
    height: u32,
    /// Search depths 1..=D only [default: the height]. The critical game's nodes are drawn as
    /// the search reaches them, so its --height may be large (H = 50 as Nguyen & Ramanujan)
    /// with a small D (searches of at most 2^21 nodes).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 64), allow_negative_numbers = true)]
    max_depth: Option<u32>,
    #[command(flatten)]
    run: RunOptions,
}

fn distributions(args: DistributionsArgs) -> anyhow::Result<()> {
    args.run.check_table(&["estimates"])?;
    if args.game.game == Some(GameName::P) && args.game.evaluator.is_none() {
        return Err(crate::Error::invalid(
            "--evaluator",
            "given with --game p (artificial, perfect, gaussian, uniform or histogram)",
            "nothing",
        )
        .into());
    }
    let options = super::exact::options(args.game, args.height, None, false);
    let spec = DistributionsSpec {
        request: options.distribution_request()?,
        max_depth: args.max_depth,
    };
    args.run.emit(&spec.estimate(&args.run.config())?)
}

/// `mc sum`'s `--evaluator`: only the evaluators its sampler draws.
fn sum_evaluators() -> impl clap::builder::TypedValueParser<Value = EvaluatorName> {
    use clap::ValueEnum;
    use clap::builder::TypedValueParser;
    let accepted = [
        EvaluatorName::Position,
        EvaluatorName::Perfect,
        EvaluatorName::Additive,
        EvaluatorName::Artificial,
    ];
    clap::builder::PossibleValuesParser::new(accepted.iter().filter_map(|e| e.to_possible_value()))
        .map(|name: String| EvaluatorName::from_str(&name, false).expect("a listed evaluator"))
}

#[derive(Debug, clap::Args)]
#[command(mut_arg("evaluator", |a| a.value_parser(sum_evaluators())
    .help("Static evaluator at the search front: position (s(n)), perfect, additive (--noise), artificial (--e; --outcome sign) [default: position]")))]
#[command(mut_arg("game", |a| a.hide(true)), mut_arg("p", |a| a.hide(true)),
    mut_arg("q", |a| a.hide(true)), mut_arg("qk", |a| a.hide(true)),
    mut_arg("rk", |a| a.hide(true)), mut_arg("gamma", |a| a.hide(true)),
    mut_arg("root_gamma", |a| a.hide(true)), mut_arg("leaves", |a| a.hide(true)),
    mut_arg("sigma", |a| a.hide(true)), mut_arg("halfwidth", |a| a.hide(true)),
    mut_arg("histogram", |a| a.hide(true)), mut_arg("histogram_fnv1a64", |a| a.hide(true)),
    mut_arg("levels", |a| a.hide(true)), mut_arg("range", |a| a.hide(true)),
    mut_arg("playout_formula", |a| a.hide(true)))]
struct SumArgs {
    #[command(flatten)]
    game: crate::analytic::decision::GameOptions,
    /// Height h of the path-sum tree (trees of at most 2^21 nodes: h <= 21 at b = 2).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 64), allow_negative_numbers = true)]
    height: u32,
    #[command(flatten)]
    run: RunOptions,
}

fn sum(args: SumArgs) -> anyhow::Result<()> {
    args.run.check_table(&["estimates"])?;
    use crate::studies::crossval::pathsum_report::PathSumSpec;
    if let Some(game) = args.game.game.filter(|g| *g != GameName::Sum) {
        return Err(crate::Error::invalid(
            "--game",
            "sum with `mc sum` (or left out)",
            format!("{game:?}").to_lowercase(),
        )
        .into());
    }
    let mut options = super::exact::options(args.game, args.height, None, false);
    options.game = Some(GameName::Sum);
    let spec = PathSumSpec {
        game: options.pathsum_request()?.game,
    };
    args.run.emit(&spec.estimate(&args.run.config())?)
}
