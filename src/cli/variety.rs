//! `pathology mc kalah | othello | nodes`: Chi & Nau's (1987) "variety of games" (three-hole
//! kalah, Section 4.5; othello, Section 4.3) and Ross's (2020) node counts. The reports are
//! built by [`crate::studies::chi_nau::variety_report`].

use crate::studies::chi_nau::kalah::{KalahSetup, PAPER_BOARDS};
use crate::studies::chi_nau::variety_report::{ROSS_BOARDS, kalah_run, nodes_report, othello_run};

use super::args::{OutputArgs, SeedThreads};

#[derive(Debug, clap::Args)]
pub struct KalahArgs {
    /// Random initial boards (every pit 1 to 6 stones), each played twice per w (Chi & Nau:
    /// 1000).
    #[arg(long, value_parser = super::args::count, default_value_t = PAPER_BOARDS, allow_negative_numbers = true)]
    boards: u64,
    /// Weights w of e_a^w = w e_a + (1 - w) P(m,2), each in [0, 1], comma-separated.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true,
          default_values_t = [1.0, 0.95, 0.0, 0.5])]
    w: Vec<f64>,
    /// Depth of the node pairs whose heuristic flaws are counted (1..=6; the paper: 4).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 6), default_value_t = 4, allow_negative_numbers = true)]
    depth: u32,
    /// Search depth of both players (1..=4; the paper: 2).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 4), default_value_t = 2, allow_negative_numbers = true)]
    search_depth: u32,
    #[command(flatten)]
    run: SeedThreads,
}

pub fn run_kalah(args: KalahArgs) -> anyhow::Result<()> {
    args.run
        .output
        .check_table(&["kalah", "claims", "claims_summary"])?;
    let setup = KalahSetup::new(args.w, args.depth, args.search_depth)?;
    let report = kalah_run(&setup, &args.run.config(args.boards, None))?;
    args.run.output.emit(&report, 4)
}

#[derive(Debug, clap::Args)]
pub struct OthelloArgs {
    /// Random openings; each is played twice per evaluator and depth (minimax moving first
    /// once, product once). The same openings at every depth.
    #[arg(long, value_parser = super::args::count, default_value_t = 100, allow_negative_numbers = true)]
    openings: u64,
    /// Search depths in plies of both players (each 1..=5), comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = super::args::whole_in::<u32>(1, 5), default_values_t = [2u32, 3], allow_negative_numbers = true)]
    depth: Vec<u32>,
    /// Uniformly random plies from the standard start that make an opening (0..=20).
    #[arg(long, value_parser = super::args::whole_in::<u32>(0, 20), default_value_t = 8, allow_negative_numbers = true)]
    opening_plies: u32,
    #[command(flatten)]
    run: SeedThreads,
}

pub fn run_othello(args: OthelloArgs) -> anyhow::Result<()> {
    args.run
        .output
        .check_table(&["othello", "claims", "claims_summary"])?;
    let config = args.run.config(args.openings, None);
    let report = othello_run(&args.depth, args.opening_plies, &config)?;
    args.run.output.emit(&report, 4)
}

#[derive(Debug, clap::Args)]
pub struct NodesArgs {
    /// Tic-tac-toe positions (nine characters X, O, ., squares 0-8 row-major),
    /// comma-separated; default: the empty board and Ross's (O on square 8).
    #[arg(long, value_delimiter = ',', default_values_t = ROSS_BOARDS.map(String::from), allow_negative_numbers = true)]
    board: Vec<String>,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run_nodes(args: NodesArgs) -> anyhow::Result<()> {
    args.output.check_table(&["sequences", "searches"])?;
    let boards: Vec<&str> = args.board.iter().map(String::as_str).collect();
    args.output.emit(&nodes_report(&boards)?, 4)
}
