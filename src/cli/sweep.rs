//! `pathology sweep`: D(d,h) and PS over a range of f1, streamed by
//! [`crate::analytic::dgame::sweep`].

use crate::analytic::dgame::sweep::SweepRequest;
use crate::analytic::dgame::table::SecondFactor;
use num_rational::BigRational;

use super::args::{TableOutput, height, positive_rational, probability};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Height h of the node where the decision is made.
    #[arg(long, value_parser = height, allow_negative_numbers = true)]
    height: u32,
    /// First f1, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    from: BigRational,
    /// Last f1 (included when the steps land on it), in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    to: BigRational,
    /// Step of f1, exact (0.01 is 1/100).
    #[arg(long, value_parser = positive_rational, allow_hyphen_values = true)]
    step: BigRational,
    /// A fixed f2 (default: f2 = f1).
    #[arg(long, value_parser = probability, allow_hyphen_values = true, conflicts_with = "p0")]
    f2: Option<BigRational>,
    /// Derive f2 from each f1 by Theorem 3.1 with this p0.
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    p0: Option<BigRational>,
    #[command(flatten)]
    output: TableOutput,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let request = SweepRequest {
        height: args.height,
        from: args.from,
        to: args.to,
        step: args.step,
        second: match (args.f2, args.p0) {
            (Some(f2), _) => SecondFactor::Fixed(f2),
            (None, Some(p0)) => SecondFactor::FromP0(p0),
            (None, None) => SecondFactor::Equal,
        },
        exact: args.output.exact,
    };
    request
        .write(
            &args.output.output.options(),
            crate::report::stdout_buffered,
        )
        .map_err(crate::report::StreamError::into_command_error)
}
