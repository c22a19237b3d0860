//! Othello (reversi) on 8x8 bitboards, for Chi & Nau's (1987) Section 4.3 (Teague's
//! minimax-against-product matches with a weak and a strong evaluator).
//!
//! Rules (the standard tournament rules): the game starts with White on d4 and e5, Black on
//! d5 and e4, **Black moves first**. A move places a disc of the mover's colour on an empty
//! square that brackets, in at least one of the eight directions, a contiguous line of the
//! opponent's discs ending in one of the mover's discs; every bracketed line is flipped. A
//! player with no such move **passes** (a move of its own, [`PASS`]); when neither player can
//! move the game is over and the player with more discs wins (equal counts are a draw).
//!
//! Conventions: **Black is Max** ([`crate::model`]); utilities are 1 (Black wins), 0 (White
//! wins), 1/2 (draw). Squares are numbered `8 * row + column`, a1 = 0 (row 0 is rank 1, column
//! 0 is file a), h8 = 63; bit `i` of a bitboard is square `i`. Moves are listed in increasing
//! square order, so [`perft`] and the searches visit them in a fixed order.
//!
//! [`perft`] counts the leaves of the game tree at a given depth, passes counted as moves (as
//! in the standard othello perft tables); from the start it gives 4, 12, 56, 244, 1396, 8200,
//! 55092, 390216 at depths 1 to 8 (tested; no game can end before depth 9).

use super::Game;
use crate::model::Player;

/// The pass move (no square).
pub const PASS: u8 = 64;

const NOT_A_FILE: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H_FILE: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// An othello position: the discs of the player to move, of the opponent, and who moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OthelloBoard {
    /// Discs of the player to move.
    pub own: u64,
    /// Discs of the opponent.
    pub opponent: u64,
    /// Whether Black (Max) is to move.
    pub black_to_move: bool,
}

/// The game of othello ([`Game`] with [`OthelloBoard`] states and `u8` moves: a square
/// `0..64` or [`PASS`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Othello;

/// The eight directions as shifts: `(left shift amount, mask applied after shifting)`;
/// negative amounts shift right.
const DIRECTIONS: [(i32, u64); 8] = [
    (1, NOT_A_FILE),  // east
    (-1, NOT_H_FILE), // west
    (8, u64::MAX),    // north (up a rank)
    (-8, u64::MAX),   // south
    (9, NOT_A_FILE),  // north-east
    (7, NOT_H_FILE),  // north-west
    (-7, NOT_A_FILE), // south-east
    (-9, NOT_H_FILE), // south-west
];

#[inline(always)]
fn shift(bits: u64, amount: i32, mask: u64) -> u64 {
    if amount > 0 {
        (bits << amount) & mask
    } else {
        (bits >> -amount) & mask
    }
}

/// The squares where the player owning `own` may move (opponent `opponent`).
///
/// # Examples
///
/// ```
/// use pathology::games::othello::{OthelloBoard, legal_moves};
/// let start = OthelloBoard::start();
/// assert_eq!(legal_moves(start.own, start.opponent).count_ones(), 4);
/// ```
#[inline]
pub fn legal_moves(own: u64, opponent: u64) -> u64 {
    let empty = !(own | opponent);
    let mut moves = 0;
    for &(amount, mask) in &DIRECTIONS {
        let mut line = shift(own, amount, mask) & opponent;
        for _ in 0..5 {
            line |= shift(line, amount, mask) & opponent;
        }
        moves |= shift(line, amount, mask) & empty;
    }
    moves
}

/// The opponent's discs flipped by a disc of `own`'s player on `square`.
#[inline]
fn flips(own: u64, opponent: u64, square: u8) -> u64 {
    let placed = 1u64 << square;
    let mut flipped = 0;
    for &(amount, mask) in &DIRECTIONS {
        let mut line = 0;
        let mut cursor = shift(placed, amount, mask);
        while cursor & opponent != 0 {
            line |= cursor;
            cursor = shift(cursor, amount, mask);
        }
        if cursor & own != 0 {
            flipped |= line;
        }
    }
    flipped
}

impl OthelloBoard {
    /// The standard start: White d4, e5; Black d5, e4; Black to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::othello::OthelloBoard;
    /// let start = OthelloBoard::start();
    /// assert_eq!(start.discs(), (2, 2));
    /// assert!(start.black_to_move);
    /// ```
    pub fn start() -> Self {
        let d4 = 1u64 << 27;
        let e5 = 1u64 << 36;
        let d5 = 1u64 << 35;
        let e4 = 1u64 << 28;
        OthelloBoard {
            own: d5 | e4,
            opponent: d4 | e5,
            black_to_move: true,
        }
    }

    /// Black's and White's discs.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::othello::OthelloBoard;
    /// let (black, white) = OthelloBoard::start().colours();
    /// assert_eq!(black, (1 << 35) | (1 << 28));
    /// assert_eq!(white, (1 << 27) | (1 << 36));
    /// ```
    pub fn colours(&self) -> (u64, u64) {
        if self.black_to_move {
            (self.own, self.opponent)
        } else {
            (self.opponent, self.own)
        }
    }

    /// The disc counts `(black, white)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::othello::OthelloBoard;
    /// assert_eq!(OthelloBoard::start().play(19).discs(), (4, 1)); // d3 flips d4
    /// ```
    pub fn discs(&self) -> (u32, u32) {
        let (black, white) = self.colours();
        (black.count_ones(), white.count_ones())
    }

    /// The legal moves of the player to move as a bitboard (empty when it must pass).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::othello::OthelloBoard;
    /// // d3, c4, f5, e6
    /// assert_eq!(OthelloBoard::start().moves(), (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44));
    /// ```
    pub fn moves(&self) -> u64 {
        legal_moves(self.own, self.opponent)
    }

    /// Whether neither player can move.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::othello::OthelloBoard;
    /// assert!(!OthelloBoard::start().is_over());
    /// ```
    pub fn is_over(&self) -> bool {
        self.moves() == 0 && legal_moves(self.opponent, self.own) == 0
    }

    /// The position after the player to move plays `square` (its disc placed and every
    /// bracketed line flipped) or passes ([`PASS`]). The move is assumed legal.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::othello::{OthelloBoard, PASS};
    /// let after = OthelloBoard::start().play(19); // Black d3
    /// assert!(!after.black_to_move);
    /// assert_eq!(after.discs(), (4, 1));
    /// assert_eq!(after.play(PASS).discs(), (4, 1));
    /// ```
    #[inline]
    pub fn play(&self, square: u8) -> Self {
        if square == PASS {
            return OthelloBoard {
                own: self.opponent,
                opponent: self.own,
                black_to_move: !self.black_to_move,
            };
        }
        let flipped = flips(self.own, self.opponent, square);
        OthelloBoard {
            own: self.opponent & !flipped,
            opponent: self.own | flipped | (1u64 << square),
            black_to_move: !self.black_to_move,
        }
    }

    /// Builds a position from an 8-line picture (rank 8 first, `X` black, `O` white, `.`
    /// empty) and the colour to move. Test helper and documentation aid.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::othello::OthelloBoard;
    /// let picture = "........\n........\n........\n...XO...\n...OX...\n........\n........\n........";
    /// assert_eq!(OthelloBoard::from_picture(picture, true), Some(OthelloBoard::start()));
    /// ```
    pub fn from_picture(picture: &str, black_to_move: bool) -> Option<Self> {
        let rows: Vec<&str> = picture.lines().map(str::trim).collect();
        if rows.len() != 8 {
            return None;
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, row) in rows.iter().enumerate() {
            let rank = 7 - i;
            if row.chars().count() != 8 {
                return None;
            }
            for (file, c) in row.chars().enumerate() {
                let bit = 1u64 << (8 * rank + file);
                match c {
                    'X' | 'x' => black |= bit,
                    'O' | 'o' => white |= bit,
                    '.' => {}
                    _ => return None,
                }
            }
        }
        let (own, opponent) = if black_to_move {
            (black, white)
        } else {
            (white, black)
        };
        Some(OthelloBoard {
            own,
            opponent,
            black_to_move,
        })
    }
}

impl Game for Othello {
    type State = OthelloBoard;
    type Move = u8;

    fn to_move(&self, state: &OthelloBoard) -> Player {
        if state.black_to_move {
            Player::Max
        } else {
            Player::Min
        }
    }

    fn moves(&self, state: &OthelloBoard) -> Vec<u8> {
        let mut bits = state.moves();
        if bits == 0 {
            return if state.is_over() {
                Vec::new()
            } else {
                vec![PASS]
            };
        }
        let mut moves = Vec::with_capacity(bits.count_ones() as usize);
        while bits != 0 {
            moves.push(bits.trailing_zeros() as u8);
            bits &= bits - 1;
        }
        moves
    }

    fn play(&self, state: &OthelloBoard, mv: u8) -> OthelloBoard {
        state.play(mv)
    }

    fn utility(&self, state: &OthelloBoard) -> Option<f64> {
        if !state.is_over() {
            return None;
        }
        let (black, white) = state.discs();
        Some(match black.cmp(&white) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Less => 0.0,
            std::cmp::Ordering::Equal => 0.5,
        })
    }
}

/// The number of move sequences of length `depth` from `board` (leaves of the game tree at
/// that depth, a pass counted as a move; a finished game before `depth` adds nothing).
///
/// # Examples
///
/// ```
/// use pathology::games::othello::{OthelloBoard, perft};
/// assert_eq!(perft(&OthelloBoard::start(), 3), 56);
/// ```
pub fn perft(board: &OthelloBoard, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut bits = board.moves();
    if bits == 0 {
        if legal_moves(board.opponent, board.own) == 0 {
            return 0;
        }
        return perft(&board.play(PASS), depth - 1);
    }
    if depth == 1 {
        return u64::from(bits.count_ones());
    }
    let mut total = 0;
    while bits != 0 {
        let square = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        total += perft(&board.play(square), depth - 1);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The standard othello perft from the start, depths 1 to 8.
    #[test]
    fn perft_from_the_start() {
        let expected = [4u64, 12, 56, 244, 1396, 8200, 55092, 390216];
        for (depth, &count) in (1..).zip(&expected) {
            assert_eq!(perft(&OthelloBoard::start(), depth), count, "depth {depth}");
        }
    }

    /// The same counts through the generic `Game` trait (moves as vectors).
    #[test]
    fn game_trait_agrees_with_perft() {
        fn count(board: &OthelloBoard, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            Othello
                .moves(board)
                .into_iter()
                .map(|m| count(&Othello.play(board, m), depth - 1))
                .sum()
        }
        assert_eq!(count(&OthelloBoard::start(), 5), 1396);
    }

    fn square(name: &str) -> u64 {
        let b = name.as_bytes();
        1u64 << (8 * (b[1] - b'1') + (b[0] - b'a'))
    }

    /// Hand-checked flips in several directions at once.
    #[test]
    fn hand_checked_flips() {
        // Black plays d4: e4 is bracketed by f4 (east) and e5 by f6 (north-east); c4 (west,
        // b4 empty behind it) and d5 (north, d6 empty) are not.
        let board = OthelloBoard::from_picture(
            "........\n\
             ........\n\
             .....X..\n\
             ...OOX..\n\
             ..O.OX..\n\
             ........\n\
             ........\n\
             ...X....",
            true,
        )
        .unwrap();
        assert_ne!(board.moves() & square("d4"), 0);
        let after = board.play(27);
        let (black, white) = after.colours();
        for name in ["d4", "e4", "e5", "f4", "f5", "f6", "d1"] {
            assert_ne!(black & square(name), 0, "{name} black");
        }
        for name in ["c4", "d5"] {
            assert_ne!(white & square(name), 0, "{name} white");
        }
        assert_eq!(after.discs(), (7, 2));
        assert!(!after.black_to_move);
    }

    /// Lines do not wrap around the board's edge: h1 white and a2 black (the next bit) do
    /// not bracket anything, so neither player can move and the game is a draw.
    #[test]
    fn lines_do_not_wrap_around_edges() {
        let board = OthelloBoard::from_picture(
            "........\n\
             ........\n\
             ........\n\
             ........\n\
             ........\n\
             ........\n\
             X.......\n\
             .......O",
            true,
        )
        .unwrap();
        assert_eq!(board.moves(), 0, "g1 must not bracket h1 with a2");
        assert!(board.is_over());
        assert_eq!(Othello.utility(&board), Some(0.5));
        // The same along a file edge going west: a3 white, h2 black, b3 empty.
        let board = OthelloBoard::from_picture(
            "........\n\
             ........\n\
             ........\n\
             ........\n\
             ........\n\
             O.......\n\
             .......X\n\
             ........",
            true,
        )
        .unwrap();
        assert_eq!(
            board.moves() & square("b3"),
            0,
            "b3 must not bracket a3 with h2"
        );
    }

    /// Passing and the end of the game.
    #[test]
    fn pass_and_game_end() {
        // White cannot move, Black can: White's only move is a pass.
        let board = OthelloBoard::from_picture(
            "........\n\
             ........\n\
             ........\n\
             ........\n\
             ........\n\
             ........\n\
             ........\n\
             XXO.....",
            false,
        )
        .unwrap();
        assert_eq!(Othello.moves(&board), vec![PASS]);
        assert_eq!(Othello.utility(&board), None);
        let after = Othello.play(&board, PASS);
        assert_eq!(Othello.moves(&after), vec![3]); // Black d1 flips c1
        let end = Othello.play(&after, 3);
        assert!(end.is_over());
        assert_eq!(Othello.utility(&end), Some(1.0));
        assert!(Othello.moves(&end).is_empty());
    }
}
