//! `pathology decision`: D(d,h) for every game family, the one way to ask for it. With
//! --f1, Li & Marsland's binary D-game (as `dgame`); with --game, the b-ary D-games, P-games
//! and N-games (as `exact`), and G-games (`--game g`, a reconstruction; `--rhf` adds rhf(d)).
//! Options of the other kind are refused by name (exit 2). The report is
//! [`crate::analytic::decision::DecisionRequest`]'s, under the subcommand `decision`.

use crate::analytic::decision::DecisionRequest;
use crate::analytic::dgame::report::DgameRequest;
use num_rational::BigRational;

use super::args::{OutputArgs, probability};
use super::exact::{EvaluatorArg, GameArg};
use crate::analytic::ggame::report::{GGameRequest, g_only};

/// The options of `exact` (the game families), which Li & Marsland's D-game does not take.
const FAMILY: [&str; 8] = ["game", "branching", "evaluator", "e", "p", "q", "qk", "rk"];

#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("family").required(true).args(["f1", "game"]))]
#[command(group = clap::ArgGroup::new("second").args(["f2", "p0"]))]
pub struct Args {
    /// Height h of the node where the decision is made (1..=40 with --f1; 1..=64 with
    /// --game, cost limits checked).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 64), allow_negative_numbers = true)]
    height: u32,
    /// Print only D(depth, h) (1 <= depth <= h).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 64), allow_negative_numbers = true)]
    depth: Option<u32>,
    /// Compute in exact rationals (and print them) instead of f64 (needs rational
    /// parameters).
    #[arg(long)]
    exact: bool,
    /// Li & Marsland's binary D-game: dependence factor f1 of win Max nodes, in [0, 1]
    /// (exact: 0.1 is 1/10); with --f2 or --p0.
    #[arg(long, value_parser = probability, allow_hyphen_values = true, requires = "second", conflicts_with_all = FAMILY)]
    f1: Option<BigRational>,
    /// Li & Marsland's D-game: dependence factor f2 of loss Min nodes, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true, conflicts_with = "p0", conflicts_with_all = FAMILY)]
    f2: Option<BigRational>,
    /// Li & Marsland's D-game: derive f2 from f1 by Theorem 3.1 so that even-depth nodes are
    /// wins with probability p0.
    #[arg(long, value_parser = probability, allow_hyphen_values = true, conflicts_with_all = FAMILY)]
    p0: Option<BigRational>,
    /// Li & Marsland's D-game: print the error probability 1 - D(d,h) instead, with a
    /// certified enclosure (relative error bounds, so it stays informative where D rounds to
    /// 1 at high f1, f2).
    #[arg(long, conflicts_with = "exact", conflicts_with_all = FAMILY)]
    complement: bool,
    /// Game family (instead of --f1): d (b-ary D-game: --qk, --rk), p (P-game: --p), n
    /// (N-game: --q).
    #[arg(long, value_enum)]
    game: Option<GameArg>,
    /// Branching factor b (2..=60) [default: 2]; with --game.
    #[arg(long, value_parser = super::args::whole_in::<u32>(2, 60), allow_negative_numbers = true)]
    branching: Option<u32>,
    /// Static evaluator at the search front [default: count; e1 with --game g]; with --game.
    #[arg(long, value_enum)]
    evaluator: Option<EvaluatorArg>,
    /// Error rate e of the artificial evaluator, in [0, 1] (default 0.1; only with
    /// --evaluator artificial).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    e: Option<BigRational>,
    /// P-games: square probability p in [0, 1] (default w_b, irrational: f64 only).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    p: Option<BigRational>,
    /// N-games: edge probability q in [0, 1] (default 1/2).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    q: Option<BigRational>,
    /// b-ary D-games: q_1,...,q_b, the probabilities that a win Max node has exactly k win
    /// children (comma-separated, summing to 1; missing entries are 0).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    qk: Vec<String>,
    /// b-ary D-games: r_1,...,r_b, the probabilities that a loss Min node has exactly k
    /// loss children.
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    rk: Vec<String>,
    /// G-games: add rhf(d) of every evaluator and which one's is lower at every depth.
    #[arg(long)]
    rhf: bool,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let output = args.output.clone();
    let request = match (args.f1, args.game) {
        (None, Some(GameArg::G)) => DecisionRequest::GGame(GGameRequest::from_options(
            args.height,
            args.depth,
            args.p,
            args.evaluator,
            args.rhf,
            args.exact,
            &[
                ("--branching", args.branching.is_some()),
                ("--e", args.e.is_some()),
                ("--q", args.q.is_some()),
                ("--qk", !args.qk.is_empty()),
                ("--rk", !args.rk.is_empty()),
            ],
        )?),
        _ if args.rhf => return Err(g_only("--rhf").into()),
        (Some(f1), _) => DecisionRequest::LiMarsland(DgameRequest {
            height: args.height,
            f1,
            second: super::dgame::second_factor(args.f2, args.p0),
            depth: args.depth,
            complement: args.complement,
            exact: args.exact,
        }),
        (None, game) => DecisionRequest::Family(
            super::exact::Args {
                game: game.expect("clap requires --f1 or --game"),
                branching: args.branching.unwrap_or(2),
                height: args.height,
                depth: args.depth,
                evaluator: args.evaluator.unwrap_or(EvaluatorArg::Count),
                e: args.e,
                p: args.p,
                q: args.q,
                qk: args.qk,
                rk: args.rk,
                exact: args.exact,
                output: args.output,
            }
            .request()?,
        ),
    };
    output.emit(&request.report()?, request.decimals())
}
