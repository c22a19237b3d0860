//! `pathology exact`, an alias of `pathology decision --game` kept for scripts: D(d,h) for
//! b-ary D-games, P-games and N-games ([`crate::analytic::families`]) and evaluations as
//! distributions on the critical game and multi-valued P-games
//! ([`crate::analytic::distributions`]), through
//! [`crate::analytic::decision::GameOptions`]. Its manifest names `exact`.

use crate::analytic::decision::GameOptions;

use super::args::whole_in;

#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("exact_game").required(true).args(["game"]))]
pub struct Args {
    #[command(flatten)]
    pub game: GameOptions,
    /// Height h of the root, or terminal depth H of the critical game (1..=64; cost limits
    /// are checked).
    #[arg(long, value_parser = whole_in::<u32>(1, 64), allow_negative_numbers = true)]
    pub height: u32,
    /// Print only D(depth, h).
    #[arg(long, value_parser = whole_in::<u32>(1, 64), allow_negative_numbers = true)]
    pub depth: Option<u32>,
    /// Compute in exact rationals instead of f64 (needs rational parameters).
    #[arg(long)]
    pub exact: bool,
    #[command(flatten)]
    pub output: super::args::OutputArgs,
}

/// The command's options completed with its height, depth and mode.
pub fn options(game: GameOptions, height: u32, depth: Option<u32>, exact: bool) -> GameOptions {
    GameOptions {
        height,
        depth,
        exact,
        ..game
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let request = options(args.game, args.height, args.depth, args.exact).request()?;
    args.output.check_table(&request.tables())?;
    args.output
        .emit(&request.report_as("exact")?, request.decimals())
}
