//! Ross's (2020) tie-breaking analysis of one tic-tac-toe position ([`analyze`]) as a
//! [`Report`]: the root moves with their true and alpha-beta values, and the probability
//! that random tie-breaking picks a losing move, naively and with the safe rule.

use num_rational::BigRational;

use super::alphabeta::{Fraction, TieBreakAnalysis, analyze};
use crate::error::Result;
use crate::games::tictactoe::TicTacToe;
use crate::model::Player;
use crate::report::{Cell, Column, Kind, Report, Table};

/// The safe tie-breaking rule.
pub const SAFE_RULE: &str =
    "tied root moves whose alpha-beta value is a bound are re-searched with a full window";

fn fraction_cell(f: Fraction) -> Cell {
    Cell::Exact(BigRational::new(f.numerator.into(), f.denominator.into()))
}

/// Analyses the tic-tac-toe position `board` (nine characters `X`, `O`, `.`) and adds the
/// tables `moves` (`board`, `square`, `minimax`, `alphabeta`, `bound`) and `tie_breaking`
/// (`board`, `rule`, `loss_probability`, exact) to `report`.
///
/// # Examples
///
/// ```
/// use pathology::studies::ross::alphabeta_report::alphabeta_report;
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::{Cell, Report};
/// let r = alphabeta_report(Report::new("alphabeta", "t"), "........O").unwrap();
/// assert_eq!(r.tables[1].rows[0][2], Cell::Exact(parse_rational("3/4").unwrap()));
/// ```
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `--board` for a malformed or finished position.
pub fn alphabeta_report(report: Report, board: &str) -> Result<Report> {
    let game = TicTacToe;
    let state = game.parse_board(board)?;
    let analysis: TieBreakAnalysis<usize> = analyze(&game, &state)?;
    let board = state.to_string();
    let to_move = match analysis.player {
        Player::Max => "X",
        Player::Min => "O",
    };
    let mut moves = Table::new(
        "moves",
        &format!(
            "Board {board} (squares 0..8 row-major), {to_move} to move; alpha-beta with the \
             root's bound passed on"
        ),
        vec![
            Column::key("board", Kind::Text),
            Column::key("square", Kind::Integer),
            Column::new("minimax", Kind::Real),
            Column::new("alphabeta", Kind::Real),
            Column::new("bound", Kind::Text),
        ],
    );
    for m in &analysis.moves {
        moves.push(vec![
            Cell::text(board.clone()),
            Cell::int(m.square as u64),
            Cell::Real(m.minimax),
            Cell::Real(m.alphabeta),
            Cell::text(m.bound.to_string()),
        ]);
    }
    let mut ties = Table::new(
        "tie_breaking",
        "probability that random tie-breaking among the best-looking moves picks a losing move",
        vec![
            Column::key("board", Kind::Text),
            Column::key("rule", Kind::Text),
            Column::new("loss_probability", Kind::Real).labelled("loss probability"),
        ],
    );
    for (rule, fraction) in [("naive", analysis.naive_loss), ("safe", analysis.safe_loss)] {
        ties.push(vec![
            Cell::text(board.clone()),
            Cell::text(rule),
            fraction_cell(fraction),
        ]);
    }
    Ok(report
        .with_table(moves)
        .with_table(ties)
        .note(format!("Safe rule: {SAFE_RULE}.")))
}
