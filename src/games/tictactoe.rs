//! Tic-tac-toe, for Ross's (2020) alpha-beta example.
//!
//! Conventions, following Ross: the squares are numbered **0 to 8**, row-major,
//!
//! ```text
//! 0 1 2
//! 3 4 5
//! 6 7 8
//! ```
//!
//! and a board is written as nine characters in that order: `X`, `O` or `.` (empty). X is Max
//! (utility +1 when X completes a line, -1 when O does, 0 for a full board without a line).
//! When a board is parsed, the side with fewer marks moves, and X with equal counts; from then
//! on the players alternate (the position remembers who moves, since in Ross's game O moved
//! first and equal counts then mean O to move). Ross's example, "the MIN player chooses
//! square 8", is the board `........O`, X to move. Moves are the empty squares in
//! increasing order, the order Ross's search examines them.

use super::Game;
use crate::error::{Error, Result};
use crate::model::Player;

/// A square's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Empty.
    Empty,
    /// X (Max).
    X,
    /// O (Min).
    O,
}

/// A tic-tac-toe position: nine squares, row-major, and the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// The squares 0..=8.
    pub squares: [Mark; 9],
    /// The player to move (X is Max).
    pub to_move: Player,
}

/// The game of tic-tac-toe.
#[derive(Debug, Clone, Copy, Default)]
pub struct TicTacToe;

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl Board {
    /// The player who completed a line, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::TicTacToe;
    /// use pathology::model::Player;
    /// assert_eq!(TicTacToe.parse_board("XXXOO....").unwrap().winner(), Some(Player::Max));
    /// assert_eq!(TicTacToe.parse_board("OX.XOX..O").unwrap().winner(), Some(Player::Min));
    /// assert_eq!(TicTacToe.parse_board("........O").unwrap().winner(), None);
    /// ```
    pub fn winner(&self) -> Option<Player> {
        LINES.iter().find_map(|line| {
            let [a, b, c] = line.map(|i| self.squares[i]);
            match (a == b && b == c, a) {
                (true, Mark::X) => Some(Player::Max),
                (true, Mark::O) => Some(Player::Min),
                _ => None,
            }
        })
    }

    fn count(&self, mark: Mark) -> usize {
        self.squares.iter().filter(|&&m| m == mark).count()
    }
}

impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for m in self.squares {
            let c = match m {
                Mark::Empty => '.',
                Mark::X => 'X',
                Mark::O => 'O',
            };
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl TicTacToe {
    /// Parses a board of nine characters `X`, `O`, `.` (row-major, squares 0 to 8).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::TicTacToe;
    /// let board = TicTacToe.parse_board("........O").unwrap();
    /// assert_eq!(board.to_string(), "........O");
    /// assert!(TicTacToe.parse_board("XX.......").is_err()); // X cannot have two more marks
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--board` when the text is not nine such characters,
    /// when the mark counts differ by more than one, or when both players have a line.
    pub fn parse_board(&self, text: &str) -> Result<Board> {
        let marks: Vec<Mark> = text
            .chars()
            .map(|c| match c {
                'X' | 'x' => Ok(Mark::X),
                'O' | 'o' => Ok(Mark::O),
                '.' => Ok(Mark::Empty),
                other => Err(Error::invalid(
                    "--board",
                    "nine characters X, O or . (row-major, squares 0 to 8)",
                    format!("{text:?} (character {other:?})"),
                )),
            })
            .collect::<Result<_>>()?;
        let marks: [Mark; 9] = marks.try_into().map_err(|m: Vec<Mark>| {
            Error::invalid(
                "--board",
                "nine characters X, O or . (row-major, squares 0 to 8)",
                format!("{text:?} ({} characters)", m.len()),
            )
        })?;
        let count = |mark| marks.iter().filter(|&&m| m == mark).count();
        let (x, o) = (count(Mark::X), count(Mark::O));
        let board = Board {
            squares: marks,
            to_move: if x <= o { Player::Max } else { Player::Min },
        };
        if x.abs_diff(o) > 1 {
            return Err(Error::invalid(
                "--board",
                "a position with mark counts differing by at most one",
                format!("{text:?} ({x} X, {o} O)"),
            ));
        }
        let both = LINES.iter().any(|l| l.iter().all(|&i| marks[i] == Mark::X))
            && LINES.iter().any(|l| l.iter().all(|&i| marks[i] == Mark::O));
        if both {
            return Err(Error::invalid(
                "--board",
                "a position where at most one player has a line",
                format!("{text:?}"),
            ));
        }
        Ok(board)
    }
}

impl Game for TicTacToe {
    type State = Board;
    type Move = usize;

    fn to_move(&self, state: &Board) -> Player {
        state.to_move
    }

    fn moves(&self, state: &Board) -> Vec<usize> {
        if state.winner().is_some() {
            return Vec::new();
        }
        (0..9)
            .filter(|&i| state.squares[i] == Mark::Empty)
            .collect()
    }

    fn play(&self, state: &Board, mv: usize) -> Board {
        let mut next = *state;
        next.squares[mv] = match state.to_move {
            Player::Max => Mark::X,
            Player::Min => Mark::O,
        };
        next.to_move = state.to_move.opponent();
        next
    }

    fn utility(&self, state: &Board) -> Option<f64> {
        match state.winner() {
            Some(Player::Max) => Some(1.0),
            Some(Player::Min) => Some(-1.0),
            None if state.count(Mark::Empty) == 0 => Some(0.0),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses_boards() {
        let game = TicTacToe;
        let board = game.parse_board("X.O.X.O.X").unwrap();
        assert_eq!(board.winner(), Some(Player::Max));
        assert_eq!(game.utility(&board), Some(1.0));
        assert!(game.moves(&board).is_empty());
        for bad in ["", "XXXXXXXXX", "........", "........O.", "....Z...."] {
            let err = game.parse_board(bad).unwrap_err();
            assert!(err.to_string().contains("--board"), "{bad}: {err}");
        }
        assert!(game.parse_board("XXXOOO...").is_err());
    }

    #[test]
    fn side_with_fewer_marks_moves() {
        let game = TicTacToe;
        assert_eq!(
            game.to_move(&game.parse_board(".........").unwrap()),
            Player::Max
        );
        assert_eq!(
            game.to_move(&game.parse_board("X........").unwrap()),
            Player::Min
        );
        let after = game.play(&game.parse_board("........O").unwrap(), 4);
        assert_eq!(after.to_string(), "....X...O");
        assert_eq!(game.to_move(&after), Player::Min); // O moved first in Ross's game
        let full = game.parse_board("XOXXOOOXX").unwrap();
        assert_eq!(game.utility(&full), Some(0.0));
    }
}
