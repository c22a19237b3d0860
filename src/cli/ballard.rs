//! `pathology mc ballard | kalah-gap`: Chi & Nau (1987) 4.2, Ballard's claim
//! ([`crate::studies::chi_nau::ballard`]), and 4.5 under each reading of its unstated choices
//! ([`crate::studies::chi_nau::kalah_gap`]).

use crate::studies::chi_nau::ballard::BallardRequest;
use crate::studies::chi_nau::kalah_gap::{KalahVariant, kalah_gap};

use super::args::{unit, whole_in};

#[derive(Debug, clap::Args)]
pub struct BallardArgs {
    /// Branching factors of the N-games, comma-separated (each 2 or 3).
    #[arg(long, value_delimiter = ',', value_parser = whole_in::<u32>(2, 3), default_values_t = [2u32, 3], allow_negative_numbers = true)]
    branching: Vec<u32>,
    /// Height of the N-games (2..=12).
    #[arg(long, value_parser = whole_in::<u32>(2, 12), default_value_t = 8, allow_negative_numbers = true)]
    height: u32,
    /// Probability q of a +1 edge, in [0, 1].
    #[arg(long, value_parser = unit, default_value_t = 0.5, allow_negative_numbers = true)]
    q: f64,
    /// Search depth of both players (1..=height).
    #[arg(long, value_parser = whole_in::<u32>(1, 12), default_value_t = 2, allow_negative_numbers = true)]
    search_depth: u32,
    /// Weight of minimax in the mixed rule w minimax + (1 - w) product, in [0, 1).
    #[arg(long, value_parser = unit, default_value_t = 0.5, allow_negative_numbers = true)]
    mix: f64,
    /// Error rates of Max's and Min's static evaluations (the grid), increasing, each in [0, 0.5].
    #[arg(long, value_delimiter = ',', value_parser = unit, default_values_t = [0.0, 0.1, 0.2, 0.3], allow_negative_numbers = true)]
    errors: Vec<f64>,
    /// --trials is the number of board pairs (each board played twice per cell).
    #[command(flatten)]
    run: super::args::RunOptions,
}

pub fn run_ballard(a: BallardArgs) -> anyhow::Result<()> {
    a.run.check_table(&["ballard", "claims"])?;
    let request = BallardRequest {
        branchings: a.branching,
        height: a.height,
        q: a.q,
        search_depth: a.search_depth,
        mix: a.mix,
        errors: a.errors,
    };
    a.run.emit(&request.play(&a.run.config())?)
}

#[derive(Debug, clap::Args)]
pub struct KalahGapArgs {
    /// Variants, comma-separated (default: all, ours first); each changes one choice.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = KalahVariant::ALL)]
    variant: Vec<KalahVariant>,
    /// Random initial boards per variant (Chi & Nau: 1000), the same for every variant.
    #[arg(long, value_parser = super::args::count, default_value_t = 1000, allow_negative_numbers = true)]
    boards: u64,
    #[command(flatten)]
    run: super::args::SeedThreads,
}

pub fn run_kalah_gap(a: KalahGapArgs) -> anyhow::Result<()> {
    a.run.output.check_table(&["gap", "claims", "summary"])?;
    let report = kalah_gap(&a.variant, a.boards, a.run.seed, a.run.threads)?;
    a.run.output.emit(&report, 4)
}
