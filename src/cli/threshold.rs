//! `pathology threshold`: the largest pathological f = f1 = f2 on a grid, refined by bisection.

use crate::analytic::dgame::report::threshold_at;

use super::args::height;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Height h of the node where the decision is made.
    #[arg(long, value_parser = height, allow_negative_numbers = true)]
    height: u32,
    /// Grid steps N: f = k/N is scanned from 1 downward before bisection. Only grid points
    /// are checked: where the pathological f do not form an interval (h = 22) the answer can
    /// depend on N (0.7565 with N = 100, 0.7274 with N = 50).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 1_000_000), default_value_t = 1000, allow_negative_numbers = true)]
    grid: u32,
    /// Stop bisecting when the bracket is narrower than this.
    #[arg(long, value_parser = super::args::fraction_below_one, default_value_t = 1e-10, allow_negative_numbers = true)]
    tolerance: f64,
    #[command(flatten)]
    output: super::args::OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    // The undecided points are a table only when there are some.
    args.output.check_table(&["threshold", "undecided"])?;
    let report = threshold_at(args.height, args.grid, args.tolerance)?;
    args.output.emit(&report, 10)
}
