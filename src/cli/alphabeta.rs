//! `pathology alphabeta`: Ross's (2020) tic-tac-toe analysis of one position.

use pathology::games::tictactoe::TicTacToe;
use pathology::mc::alphabeta::{MoveReport, analyze};
use pathology::model::Player;
use pathology::output::{align_columns, csv_string};
use serde::Serialize;

use super::mc::McFormat;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position: nine characters X, O or . for squares 0..8 row-major (Ross's numbering:
    /// 0 1 2 / 3 4 5 / 6 7 8). X is Max; the side with fewer marks moves (X if equal).
    /// Ross's example, after O takes square 8: "........O".
    #[arg(long, allow_hyphen_values = true)]
    board: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = McFormat::Text)]
    format: McFormat,
}

#[derive(Serialize)]
struct Report<'a> {
    board: String,
    to_move: &'static str,
    moves: &'a [MoveReport<usize>],
    naive_random_tiebreak_loss_probability: f64,
    naive_random_tiebreak_loss_fraction: String,
    safe_random_tiebreak_loss_probability: f64,
    safe_rule: &'static str,
}

const SAFE_RULE: &str =
    "tied root moves whose alpha-beta value is a bound are re-searched with a full window";

pub fn run(args: Args) -> anyhow::Result<()> {
    let game = TicTacToe;
    let board = game.parse_board(&args.board)?;
    let analysis = analyze(&game, &board)?;
    let report = Report {
        board: board.to_string(),
        to_move: match analysis.player {
            Player::Max => "X",
            Player::Min => "O",
        },
        moves: &analysis.moves,
        naive_random_tiebreak_loss_probability: analysis.naive_loss.value(),
        naive_random_tiebreak_loss_fraction: analysis.naive_loss.to_string(),
        safe_random_tiebreak_loss_probability: analysis.safe_loss.value(),
        safe_rule: SAFE_RULE,
    };
    let row = |m: &MoveReport<usize>| {
        vec![
            m.square.to_string(),
            m.minimax.to_string(),
            m.alphabeta.to_string(),
            m.bound.to_string(),
        ]
    };
    let text = match args.format {
        McFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
        McFormat::Csv => csv_string(
            &["square", "minimax", "alphabeta", "bound"],
            &analysis.moves.iter().map(row).collect::<Vec<_>>(),
        )?,
        McFormat::Text => {
            let mut table = vec![
                ["square", "minimax", "alphabeta", "bound"]
                    .map(String::from)
                    .to_vec(),
            ];
            table.extend(analysis.moves.iter().map(row));
            format!(
                "Board {} (squares 0..8 row-major), {} to move; alpha-beta with the root's bound passed on\n{}\
                 naive random tie-breaking picks a losing move with probability {} = {}\n\
                 safe rule ({SAFE_RULE}): {} = {}\n",
                report.board,
                report.to_move,
                align_columns(&table),
                report.naive_random_tiebreak_loss_fraction,
                report.naive_random_tiebreak_loss_probability,
                analysis.safe_loss,
                report.safe_random_tiebreak_loss_probability,
            )
        }
    };
    super::print(&text)
}
