//! `pathology domain <NAME>`: real domains solved completely (Nau et al. 2010), decision
//! accuracy by depth over every position. One variant per domain; each domain's arguments
//! and run function live in their own file.

use clap::Subcommand;

use super::domain_puzzle;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: DomainCommand,
}

#[derive(Debug, Subcommand)]
enum DomainCommand {
    /// The 8-puzzle: every state solved by breadth-first search; depth-d minimin decisions
    /// with a heuristic (and noise, granularity) at every state.
    EightPuzzle(domain_puzzle::PuzzleArgs),
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        DomainCommand::EightPuzzle(a) => domain_puzzle::run(a),
    }
}
