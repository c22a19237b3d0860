//! `pathology mc ggame`: G-games (our reconstruction), by [`GGameStudy::play`].

use crate::studies::chi_nau::ggame::GGameStudy;

#[derive(Debug, clap::Args)]
pub struct GGameArgs {
    /// Moves k of the G-game (1..=30; the row has k + 1 squares).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 30), allow_negative_numbers = true)]
    height: u32,
    /// Probability that a square is a 1, in [0, 1] (exact: 0.1 is 1/10).
    #[arg(long, value_parser = super::args::probability, allow_hyphen_values = true, default_value = "1/2")]
    p: num_rational::BigRational,
    #[command(flatten)]
    run: super::args::RunOptions,
}

pub fn run(args: GGameArgs) -> anyhow::Result<()> {
    args.run
        .check_table(&["ggame", "claims", "claims_summary"])?;
    let report = GGameStudy::new(args.height, args.p).play(&args.run.config())?;
    args.run.emit(&report)
}
