//! `pathology mc uct`: Nguyen & Ramanujan's UCT on the critical win-loss game (or P-/N-games),
//! beside exact d-ply minimax ([`crate::studies::nguyen_ramanujan::request`]).

use super::args::{at_least, count, real, shard, unit};

#[derive(Debug, clap::Args)]
pub struct UctArgs {
    /// Game: the critical win-loss game (crit), P-games (p) or N-games (n) [default: crit].
    #[arg(long)]
    game: Option<String>,
    /// Branching factor b (crit: 2..=255; boards: their limits) [default: 2].
    #[arg(long, value_parser = at_least::<u32>(2), allow_negative_numbers = true)]
    branching: Option<u32>,
    /// Height H (crit: depth of the terminal nodes, 1..=100000) [default: 50; boards 10].
    #[arg(long, value_parser = at_least::<u32>(1), allow_negative_numbers = true)]
    height: Option<u32>,
    /// Critical rate G, or G_MAX,G_MIN (Max's, Min's), in [0, 1]; crit only [default: 1].
    #[arg(long, allow_hyphen_values = true)]
    gamma: Option<String>,
    /// Square (p) or edge (n) probability, in [0, 1]; boards only [default: w_b, 1/2].
    #[arg(long, value_parser = unit, allow_negative_numbers = true)]
    p: Option<f64>,
    /// perfect, gaussian, expected-playout, artificial, random-playout (a new node valued by
    /// one uniformly random playout), or histogram (--histogram) [default: gaussian].
    #[arg(long)]
    evaluator: Option<String>,
    /// sigma of the Gaussian evaluator, on the +-1 scale [default: 0.25].
    #[arg(long, value_parser = real, allow_negative_numbers = true)]
    sigma: Option<f64>,
    /// Error rate e of the artificial evaluator, in [0, 1] [default: 0.1].
    #[arg(long, value_parser = real, allow_negative_numbers = true)]
    error: Option<f64>,
    /// Histogram evaluator: a CSV file of rows `value,evaluation[,weight]`, true values 1, -1.
    #[arg(long)]
    histogram: Option<std::path::PathBuf>,
    /// The histogram's FNV-1a 64 hash as the manifest prints it (refused unless the file's).
    #[arg(long)]
    histogram_fnv1a64: Option<String>,
    /// Exploration constants c, comma-separated [default: 0.001,0.01,0.1,1,10,1000000].
    #[arg(long, allow_hyphen_values = true)]
    c: Option<String>,
    /// Iteration counts at which the move is read, increasing (1e5 allowed) [default:
    /// 1,10,100,1000].
    #[arg(long, allow_hyphen_values = true)]
    iterations: Option<String>,
    /// The move read out: the best mean (the paper's) or the most visits [default: mean].
    #[arg(long = "final")]
    final_move: Option<String>,
    /// Games (each searched once per c).
    #[arg(long, visible_alias = "trials", value_parser = count, default_value_t = 500, allow_negative_numbers = true)]
    games: u64,
    /// Run only the K-th of N disjoint slices of the seeded games (K/N); `pathology merge`
    /// sums the N outputs into the unsharded result, byte for byte.
    #[arg(long, value_parser = shard, allow_negative_numbers = true)]
    shard: Option<crate::sim::runner::Shard>,
    #[command(flatten)]
    run: super::args::SeedThreads,
}

pub fn run(args: UctArgs) -> anyhow::Result<()> {
    args.run.output.check_table(&["estimates", "minimax"])?;
    let request = crate::studies::nguyen_ramanujan::request::UctRequest {
        game: args.game,
        branching: args.branching,
        height: args.height,
        gamma: args.gamma,
        p: args.p,
        evaluator: args.evaluator,
        sigma: args.sigma,
        error: args.error,
        c: args.c,
        iterations: args.iterations,
        final_move: args.final_move,
        histogram: args.histogram,
        histogram_fnv1a64: args.histogram_fnv1a64,
    };
    let config = args.run.config(args.games, args.shard);
    args.run.output.emit(&request.run(&config)?, 4)
}
