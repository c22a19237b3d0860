//! `pathology alphabeta`: Ross's (2020) tic-tac-toe analysis of one position, reported by
//! [`crate::studies::ross::alphabeta_report`].

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position: nine characters X, O or . for squares 0..8 row-major (Ross's numbering:
    /// 0 1 2 / 3 4 5 / 6 7 8). X is Max; the side with fewer marks moves (X if equal).
    /// Ross's example, after O takes square 8: "........O".
    #[arg(long, allow_hyphen_values = true)]
    board: String,
    #[command(flatten)]
    output: super::args::OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let report = crate::studies::ross::alphabeta_report::position_report(&args.board)?;
    args.output.emit(&report, 3)
}
