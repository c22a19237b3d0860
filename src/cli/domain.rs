//! `pathology domain <NAME>`: real domains solved completely (Nau et al. 2010), decision
//! accuracy by depth over every position. One variant per domain; each domain's arguments
//! and run function live in their own file.

use clap::Subcommand;

use super::domain_chess;
use super::domain_puzzle;
use crate::domains::chess::Piece;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: DomainCommand,
}

#[derive(Debug, Subcommand)]
enum DomainCommand {
    /// King and rook against king: every won position with White to move, solved to
    /// distance-to-mate; depth-d minimax decisions with a heuristic (and noise, granularity).
    Krk(domain_chess::ChessArgs),
    /// King and queen against king: as `krk`.
    Kqk(domain_chess::ChessArgs),
    /// The 8-puzzle: every state solved by breadth-first search; depth-d minimin decisions
    /// with a heuristic (and noise, granularity) at every state.
    EightPuzzle(domain_puzzle::PuzzleArgs),
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        DomainCommand::Krk(a) => domain_chess::run(Piece::Rook, a),
        DomainCommand::Kqk(a) => domain_chess::run(Piece::Queen, a),
        DomainCommand::EightPuzzle(a) => domain_puzzle::run(a),
    }
}
