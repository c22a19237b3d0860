//! `pathology dgame`, an alias of `pathology decision --f1 ...` kept for scripts: D(d,h) for
//! every depth (or one) and PS, for one (f1, f2). Its manifest names `dgame`.

use crate::analytic::dgame::report::DgameRequest;
use crate::analytic::dgame::table::SecondFactor;
use num_rational::BigRational;

use super::args::{TableOutput, height, probability};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Height h of the node where the decision is made.
    #[arg(long, value_parser = height, allow_negative_numbers = true)]
    height: u32,
    /// Dependence factor f1 of win Max nodes, in [0, 1] (exact: 0.1 is 1/10).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    f1: BigRational,
    /// Dependence factor f2 of loss Min nodes, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true, required_unless_present = "p0", conflicts_with = "p0")]
    f2: Option<BigRational>,
    /// Derive f2 from f1 by Theorem 3.1 so that even-depth nodes are wins with probability p0.
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    p0: Option<BigRational>,
    /// Print only D(depth, h) (1 <= depth <= h).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 40), allow_negative_numbers = true)]
    depth: Option<u32>,
    /// Print the error probability 1 - D(d,h) instead, with a certified enclosure (relative
    /// error bounds, so it stays informative where D rounds to 1 at high f1, f2).
    #[arg(long, conflicts_with = "exact")]
    complement: bool,
    #[command(flatten)]
    output: TableOutput,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let request = DgameRequest {
        height: args.height,
        f1: args.f1,
        second: SecondFactor::given(args.f2, args.p0),
        depth: args.depth,
        complement: args.complement,
        exact: args.output.exact,
    };
    args.output.output.check_table(&request.tables())?;
    args.output
        .output
        .emit(&request.report()?, request.decimals())
}
