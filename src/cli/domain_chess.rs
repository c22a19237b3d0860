//! `pathology domain krk | kqk`: the chess endgames' decision accuracy by depth
//! ([`crate::domains::chess::accuracy_by_depth`]).

use crate::domains::chess::report::TABLES;
use crate::domains::chess::{ChessConfig, Heuristic, Noise, Piece, accuracy_by_depth, report};
use crate::sim::runner::Shard;

use super::args::SeedThreads;

/// Search depths: `1..5` (a range) or `1,2,4` (a list).
#[derive(Debug, Clone)]
pub struct Depths(Vec<u32>);

fn depths(text: &str) -> Result<Depths, String> {
    let bad = || {
        format!(
            "must be a range A..B or a comma-separated list of whole numbers in 1..={}, got {text}",
            crate::domains::chess::MAX_EXACT_DEPTH
        )
    };
    let number = |t: &str| t.trim().parse::<u32>().map_err(|_| bad());
    let list = if let Some((a, b)) = text.split_once("..") {
        let (a, b) = (number(a)?, number(b.trim_start_matches('='))?);
        if a > b {
            return Err(bad());
        }
        (a..=b).collect()
    } else {
        text.split(',')
            .map(number)
            .collect::<Result<Vec<u32>, String>>()?
    };
    if list.is_empty() || list.contains(&0) || list.len() > 64 {
        return Err(bad());
    }
    Ok(Depths(list))
}

fn heuristic(text: &str) -> Result<Heuristic, String> {
    Heuristic::parse(text).map_err(|_| format!("must be one of mopup, room, dtm, got {text}"))
}

#[derive(Debug, clap::Args)]
pub struct ChessArgs {
    /// Evaluation function: mopup (Black king to the edge, kings close), room (Bratko's KRK
    /// room), dtm (the true values: a perfect heuristic).
    #[arg(long, value_parser = heuristic, default_value = "mopup")]
    heuristic: Heuristic,
    /// Noise added to every frontier evaluation, drawn per search node: none, gaussian:S, or
    /// a discrete law v1:p1,v2:p2,... (exact rationals). With noise the run is Monte Carlo.
    #[arg(long, default_value = "none", allow_hyphen_values = true)]
    noise: String,
    /// Granularity: round the heuristic to G equally spaced levels over its range (2..=1000000).
    #[arg(long, value_parser = super::args::whole_in::<u32>(2, 1_000_000), allow_negative_numbers = true)]
    levels: Option<u32>,
    /// Search depths in plies: a range A..B or a list 1,2,4 (exact: 1..=40; with noise 1..=8).
    #[arg(long, value_parser = depths, default_value = "1..5", allow_hyphen_values = true)]
    depth: Depths,
    /// Monte Carlo trials (with noise): roots drawn uniformly from the won positions.
    #[arg(long, value_parser = super::args::count, default_value_t = 1000, allow_negative_numbers = true)]
    trials: u64,
    /// Run only the K-th of N disjoint slices of the seeded trials (K/N, with noise).
    #[arg(long, value_parser = super::args::shard, allow_negative_numbers = true)]
    shard: Option<Shard>,
    #[command(flatten)]
    run: SeedThreads,
}

pub fn run(piece: Piece, args: ChessArgs) -> anyhow::Result<()> {
    args.run.output.check_table(&TABLES)?;
    let config = ChessConfig {
        piece,
        heuristic: args.heuristic,
        levels: args.levels,
        // Parsed here, not by clap, so that a refused law is named once, after the reason.
        noise: Noise::parse(&args.noise)?,
        depths: args.depth.0,
        run: args.run.config(args.trials, args.shard),
    };
    let result = accuracy_by_depth(&config)?;
    args.run.output.emit(&report(&result), 4)
}
