//! `pathology domain eight-puzzle`: depth-d minimin decision accuracy at every state of the
//! 8-puzzle ([`crate::domains::eight_puzzle::accuracy_by_depth`]).

use crate::domains::eight_puzzle::report::TABLES;
use crate::domains::eight_puzzle::{
    Heuristic, MAX_DEPTH, Method, Noise, PuzzleConfig, accuracy_by_depth, report,
};
use crate::sim::runner::Shard;

use super::args::SeedThreads;

/// Search depths: `1..10` (a range, both ends included) or `1,2,4` (a list).
#[derive(Debug, Clone)]
pub struct Depths(Vec<u32>);

fn depths(text: &str) -> Result<Depths, String> {
    let bad = || {
        format!(
            "must be a range A..B or a comma-separated list of whole numbers in 1..={MAX_DEPTH}, \
             got {text}"
        )
    };
    let number = |t: &str| t.trim().parse::<u32>().map_err(|_| bad());
    let list: Vec<u32> = if let Some((a, b)) = text.split_once("..") {
        let (a, b) = (number(a)?, number(b.trim_start_matches('='))?);
        if a > b || b > MAX_DEPTH {
            return Err(bad());
        }
        (a..=b).collect()
    } else {
        text.split(',').map(number).collect::<Result<_, String>>()?
    };
    if list.is_empty() || list.iter().any(|&d| d == 0 || d > MAX_DEPTH) {
        return Err(bad());
    }
    Ok(Depths(list))
}

fn heuristic(text: &str) -> Result<Heuristic, String> {
    Heuristic::parse(text)
        .map_err(|_| format!("must be one of manhattan, misplaced, distance, got {text}"))
}

fn method(text: &str) -> Result<Method, String> {
    Method::parse(text).map_err(|_| format!("must be one of auto, exact, monte-carlo, got {text}"))
}

#[derive(Debug, clap::Args)]
pub struct PuzzleArgs {
    /// Heuristic: manhattan (sum of the tiles' Manhattan distances), misplaced (tiles out of
    /// place), distance (the true distance: a perfect heuristic).
    #[arg(long, value_parser = heuristic, default_value = "manhattan")]
    heuristic: Heuristic,
    /// Noise added to every frontier evaluation, drawn per search node: none, gaussian:S, or
    /// a discrete law v1:p1,v2:p2,... (exact rationals; exact when the trees are small).
    #[arg(long, default_value = "none", allow_hyphen_values = true)]
    noise: String,
    /// Granularity: round the heuristic to G equally spaced levels over its range on the
    /// puzzle (2..=1000000; manhattan [0, 22], misplaced [0, 8], distance [0, 31]).
    #[arg(long, value_parser = super::args::whole_in::<u32>(2, 1_000_000), allow_negative_numbers = true)]
    levels: Option<u32>,
    /// Search depths in moves: a range A..B or a list 1,2,4 (1..=100; sampled: 1..=16; exact
    /// with discrete noise: d + 1 at most 6).
    #[arg(long, value_parser = depths, default_value = "1..10", allow_hyphen_values = true)]
    depth: Depths,
    /// auto (exact when possible, else Monte Carlo), exact (or refused with the estimate),
    /// monte-carlo.
    #[arg(long, value_parser = method, default_value = "auto")]
    method: Method,
    /// Monte Carlo trials: roots drawn uniformly from the 181,439 non-goal states.
    #[arg(long, value_parser = super::args::count, default_value_t = 10_000, allow_negative_numbers = true)]
    trials: u64,
    /// Run only the K-th of N disjoint slices of the seeded trials (K/N, Monte Carlo).
    #[arg(long, value_parser = super::args::shard, allow_negative_numbers = true)]
    shard: Option<Shard>,
    #[command(flatten)]
    run: SeedThreads,
}

pub fn run(args: PuzzleArgs) -> anyhow::Result<()> {
    args.run.output.check_table(&TABLES)?;
    let config = PuzzleConfig {
        heuristic: args.heuristic,
        levels: args.levels,
        // Parsed here, not by clap, so that a refused law is named once, after the reason.
        noise: Noise::parse(&args.noise)?,
        depths: args.depth.0,
        method: args.method,
        run: args.run.config(args.trials, args.shard),
    };
    let result = accuracy_by_depth(&config)?;
    args.run.output.emit(&report(&result), 4)
}
