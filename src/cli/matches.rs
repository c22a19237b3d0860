//! `pathology mc match | match-sweep | match-table`: Chi & Nau's (1987) minimax against the
//! product rule (Sections 4.4 and 5, Fig. 3). Parses the arguments, calls
//! [`crate::studies::chi_nau::match_report`] and prints the report; `match-sweep` also draws Fig. 3.

use std::path::PathBuf;

use crate::sim::level_tree::GameKind;
use crate::sim::report::RunConfig;
use crate::sim::runner::Shard;
use crate::studies::chi_nau::match_report::{
    MatchEvaluatorKind, MatchRequest, depth_table, figure_3_run,
};

use super::args::{count, unit};

/// Options of the match commands: seed, threads, shard and output.
#[derive(Debug, Clone, clap::Args)]
pub struct MatchOptions {
    #[command(flatten)]
    run: super::args::SeedThreads,
    /// Play only the K-th of N disjoint slices of the seeded pairs (K/N, 1 <= K <= N);
    /// `pathology merge` sums the N outputs into the unsharded result, byte for byte.
    #[arg(long, value_parser = super::args::shard, allow_negative_numbers = true)]
    shard: Option<Shard>,
}

impl MatchOptions {
    fn config(&self, pairs: u64) -> RunConfig {
        self.run.config(pairs, self.shard)
    }
}

#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// Board-splitting game: P-games (p) or N-games (n).
    #[arg(long, value_enum, default_value_t = GameKind::P)]
    game: GameKind,
    /// Height of the game tree (moves in a game).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 22), default_value_t = 6, allow_negative_numbers = true)]
    height: u32,
    /// Branching factor b.
    #[arg(long, value_parser = super::args::whole_in::<u32>(2, 4_194_304), default_value_t = 2, allow_negative_numbers = true)]
    branching: u32,
    /// Square (P-games) or edge (N-games) probability; default w_b for P-games, 0.5 for N-games.
    #[arg(long, value_parser = unit, allow_negative_numbers = true)]
    p: Option<f64>,
    /// Search depth of both players.
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 22), default_value_t = 2, allow_negative_numbers = true)]
    search_depth: u32,
    /// Static evaluator.
    #[arg(long, value_enum, default_value_t = MatchEvaluatorKind::Ew)]
    evaluator: MatchEvaluatorKind,
    /// Weight w of e^w, in [0, 1].
    #[arg(long, value_parser = unit, allow_negative_numbers = true)]
    w: Option<f64>,
    /// Number of boards, each played twice (each player moving first once).
    #[arg(long, value_parser = count, allow_negative_numbers = true)]
    pairs: u64,
    #[command(flatten)]
    options: MatchOptions,
}

#[derive(Debug, clap::Args)]
pub struct MatchSweepArgs {
    /// Pairs of games per value of w (Chi & Nau: 8000).
    #[arg(long, value_parser = count, default_value_t = 8000, allow_negative_numbers = true)]
    pairs: u64,
    /// Directory for chi_nau_fig3.{png,svg,csv} (not written by a --shard run).
    #[arg(long, default_value = ".")]
    out: PathBuf,
    /// Figures for the screen (titled, 900x700 a panel) or a paper's single column (3.3 in
    /// at 300 dpi, fonts >= 8 pt, no title: the caption says it).
    #[arg(long, value_enum, default_value_t = crate::plot::Style::Screen)]
    style: crate::plot::Style,
    #[command(flatten)]
    options: MatchOptions,
}

#[derive(Debug, clap::Args)]
pub struct MatchTableArgs {
    /// Pairs of games per search depth (Chi & Nau: 3200).
    #[arg(long, value_parser = count, default_value_t = 3200, allow_negative_numbers = true)]
    pairs: u64,
    #[command(flatten)]
    options: MatchOptions,
}

pub fn run_match(args: MatchArgs) -> anyhow::Result<()> {
    let request = MatchRequest {
        game: args.game,
        branching: args.branching,
        height: args.height,
        p: args.p,
        search_depth: args.search_depth,
        evaluator: args.evaluator,
        w: args.w,
    };
    args.options.run.output.check_table(&["matches"])?;
    let report = request.play(&args.options.config(args.pairs))?;
    args.options.run.output.emit(&report, 4)
}

pub fn run_match_sweep(args: MatchSweepArgs) -> anyhow::Result<()> {
    args.options.run.output.check_table(&["sweep"])?;
    if args.options.shard.is_none() {
        crate::report::output::check_directory("--out", &args.out)?;
    }
    let sweep = figure_3_run(&args.options.config(args.pairs))?;
    if sweep.run.shard.is_none() {
        let files =
            crate::plot::studies::figure_3(&args.out, &sweep.run, &sweep.points, args.style)
                .map_err(super::reproduce::library_error)?;
        eprintln!("written: {}", super::list(&files, ", "));
    }
    args.options.run.output.emit(&sweep.report, 4)
}

pub fn run_match_table(args: MatchTableArgs) -> anyhow::Result<()> {
    args.options.run.output.check_table(&["depth_table"])?;
    let report = depth_table(&args.options.config(args.pairs))?;
    args.options.run.output.emit(&report, 4)
}
