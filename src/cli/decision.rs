//! `pathology decision`: D(d,h) for every game family, the one way to ask for it. With
//! --f1, Li & Marsland's binary D-game (as `dgame`); with --game, the b-ary D-games, P-games,
//! N-games, the critical game (as `exact`) and G-games (a reconstruction; --rhf adds
//! rhf(d)). Options of the other kind are refused by name (exit 2). The report is
//! [`crate::analytic::decision::DecisionRequest`]'s: `dgame`'s or `exact`'s under the
//! subcommand `decision`.

use crate::analytic::decision::DecisionRequest;
use crate::analytic::dgame::report::DgameRequest;
use num_rational::BigRational;

use super::args::{OutputArgs, probability};

/// The options of `exact` (the game families), which Li & Marsland's D-game does not take.
const FAMILY: [&str; 24] = [
    "game",
    "branching",
    "evaluator",
    "e",
    "p",
    "q",
    "qk",
    "rk",
    "gamma",
    "root_gamma",
    "leaves",
    "sigma",
    "halfwidth",
    "histogram",
    "histogram_fnv1a64",
    "levels",
    "range",
    "playout_formula",
    "rhf",
    "step",
    "leaf",
    "terminal",
    "outcome",
    "noise",
];

#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("family").required(true).args(["f1", "game"]))]
#[command(group = clap::ArgGroup::new("second").args(["f2", "p0"]))]
pub struct Args {
    /// Height h of the node where the decision is made, or terminal depth H of the critical
    /// game (1..=40 with --f1; 1..=64 with --game, cost limits checked).
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
    #[arg(long, value_parser = probability, allow_hyphen_values = true, requires = "second", conflicts_with_all = FAMILY, help_heading = "Li & Marsland's binary D-game (--f1)")]
    f1: Option<BigRational>,
    /// Li & Marsland's D-game: dependence factor f2 of loss Min nodes, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true, conflicts_with = "p0", conflicts_with_all = FAMILY, help_heading = "Li & Marsland's binary D-game (--f1)")]
    f2: Option<BigRational>,
    /// Li & Marsland's D-game: derive f2 from f1 by Theorem 3.1 so that even-depth nodes are
    /// wins with probability p0.
    #[arg(long, value_parser = probability, allow_hyphen_values = true, conflicts_with_all = FAMILY, help_heading = "Li & Marsland's binary D-game (--f1)")]
    p0: Option<BigRational>,
    /// Li & Marsland's D-game: print the error probability 1 - D(d,h) instead, with a
    /// certified enclosure (relative error bounds, so it stays informative where D rounds to
    /// 1 at high f1, f2).
    #[arg(long, conflicts_with = "exact", conflicts_with_all = FAMILY, help_heading = "Li & Marsland's binary D-game (--f1)")]
    complement: bool,
    #[command(flatten)]
    game: crate::analytic::decision::GameOptions,
    /// G-games: add rhf(d) of every evaluator and which one's is lower at every depth.
    #[arg(long, help_heading = "G-game (--game g)")]
    rhf: bool,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let request = match args.f1 {
        Some(f1) => DecisionRequest::LiMarsland(DgameRequest {
            height: args.height,
            f1,
            second: crate::analytic::dgame::table::SecondFactor::given(args.f2, args.p0),
            depth: args.depth,
            complement: args.complement,
            exact: args.exact,
        }),
        None => crate::analytic::decision::GameOptions {
            rhf: args.rhf,
            ..super::exact::options(args.game, args.height, args.depth, args.exact)
        }
        .request()?,
    };
    args.output.check_table(&request.tables())?;
    args.output.emit(&request.report()?, request.decimals())
}
