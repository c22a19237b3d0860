//! The endgame solved by retrograde analysis: every legal position's successors in one flat
//! table, and its distance to mate.
//!
//! **DTM** (distance to mate) counts White's moves to mate under best play (White hastens the
//! mate, Black delays it): a checkmate (Black to move, in check, no legal move) has DTM 0;
//! with White to move, DTM = 1 + the least DTM of White's moves' results; with Black to move,
//! DTM = the largest DTM of Black's moves' results. A stalemate (Black to move, not in check,
//! no legal move) and the capture of the rook or queen (king against king) are draws, and so
//! is every position from which White cannot force mate. The table is built level by level:
//! White-to-move positions of DTM n are those with a move to a Black-to-move position of DTM
//! n - 1; Black-to-move positions of DTM n are those all of whose moves lead to solved
//! positions (no capture) and that were not solved before.

use rayon::prelude::*;

use super::board::{POSITIONS, Piece, Position, Side, Successor};

/// The successor code of a capture of the White piece.
pub const CAPTURE: u32 = u32::MAX;

/// DTM code of a drawn position.
pub const DRAW: i8 = -1;
/// DTM code of an illegal position.
pub const ILLEGAL: i8 = -2;

/// What a position is at the end of a search: a terminal (mate, stalemate) or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Terminal {
    /// The game goes on.
    No,
    /// Black is checkmated.
    Mate,
    /// The side to move has no move and is not in check.
    Stalemate,
}

/// A solved endgame: the successor table of every legal position and its DTM.
#[derive(Debug, Clone)]
pub struct Endgame {
    piece: Piece,
    /// `offsets[i]..offsets[i + 1]` are position i's successors in `successors`.
    offsets: Vec<u32>,
    /// Successor indices, or [`CAPTURE`].
    successors: Vec<u32>,
    /// DTM per index: `>= 0`, [`DRAW`] or [`ILLEGAL`].
    dtm: Vec<i8>,
    in_check: Vec<bool>,
}

impl Endgame {
    /// Builds the successor table and solves it (KRK: about a second on one core).
    pub fn solve(piece: Piece) -> Endgame {
        let lists: Vec<Option<(Vec<u32>, bool)>> = (0..POSITIONS)
            .into_par_iter()
            .map(|index| {
                let position = Position::from_index(index);
                position.is_legal(piece).then(|| {
                    let list = position
                        .successors(piece)
                        .into_iter()
                        .map(|s| match s {
                            Successor::Position(p) => p.index() as u32,
                            Successor::Capture => CAPTURE,
                        })
                        .collect();
                    let check = position.side == Side::Black && position.black_in_check(piece);
                    (list, check)
                })
            })
            .collect();
        let mut offsets = Vec::with_capacity(POSITIONS + 1);
        let mut successors = Vec::new();
        let mut dtm = vec![ILLEGAL; POSITIONS];
        let mut in_check = vec![false; POSITIONS];
        offsets.push(0u32);
        for (index, entry) in lists.into_iter().enumerate() {
            if let Some((list, check)) = entry {
                successors.extend(list);
                dtm[index] = DRAW;
                in_check[index] = check;
            }
            offsets.push(successors.len() as u32);
        }
        let mut endgame = Endgame {
            piece,
            offsets,
            successors,
            dtm,
            in_check,
        };
        endgame.retrograde();
        endgame
    }

    fn retrograde(&mut self) {
        let half = POSITIONS / 2;
        // Level 0: the checkmates.
        for index in half..POSITIONS {
            if self.dtm[index] == DRAW && self.terminal(index) == Terminal::Mate {
                self.dtm[index] = 0;
            }
        }
        let mut level: i8 = 1;
        loop {
            let dtm = &self.dtm;
            let white: Vec<usize> = (0..half)
                .into_par_iter()
                .filter(|&i| {
                    dtm[i] == DRAW
                        && self
                            .successors_of(i)
                            .iter()
                            .any(|&s| s != CAPTURE && dtm[s as usize] == level - 1)
                })
                .collect();
            if white.is_empty() {
                break;
            }
            for &i in &white {
                self.dtm[i] = level;
            }
            let dtm = &self.dtm;
            let black: Vec<usize> = (half..POSITIONS)
                .into_par_iter()
                .filter(|&i| {
                    let list = self.successors_of(i);
                    dtm[i] == DRAW
                        && !list.is_empty()
                        && list.iter().all(|&s| s != CAPTURE && dtm[s as usize] >= 0)
                })
                .collect();
            for &i in &black {
                self.dtm[i] = level;
            }
            level += 1;
        }
    }

    /// The endgame's piece.
    pub fn piece(&self) -> Piece {
        self.piece
    }

    /// The successors of a legal position's index ([`CAPTURE`] for a capture).
    pub fn successors_of(&self, index: usize) -> &[u32] {
        &self.successors[self.offsets[index] as usize..self.offsets[index + 1] as usize]
    }

    /// DTM of an index: `Some(n)` for a win in n moves, `None` for a draw or an illegal
    /// position.
    pub fn dtm(&self, index: usize) -> Option<u8> {
        u8::try_from(self.dtm[index]).ok()
    }

    /// Whether the index is a legal position.
    pub fn is_legal(&self, index: usize) -> bool {
        self.dtm[index] != ILLEGAL
    }

    /// Whether a legal position ends the game: mate or stalemate.
    pub fn terminal(&self, index: usize) -> Terminal {
        if !self.successors_of(index).is_empty() {
            Terminal::No
        } else if self.in_check[index] {
            Terminal::Mate
        } else {
            Terminal::Stalemate
        }
    }

    /// The legal positions' indices.
    pub fn legal_positions(&self) -> impl Iterator<Item = usize> + '_ {
        (0..POSITIONS).filter(|&i| self.is_legal(i))
    }

    /// The won White-to-move positions (DTM >= 1), in index order: the roots of the study.
    pub fn won_white_positions(&self) -> Vec<usize> {
        (0..POSITIONS / 2)
            .filter(|&i| self.dtm(i).is_some_and(|d| d >= 1))
            .collect()
    }

    /// The longest win (largest DTM) with `side` to move.
    pub fn longest_win(&self, side: Side) -> u8 {
        let range = match side {
            Side::White => 0..POSITIONS / 2,
            Side::Black => POSITIONS / 2..POSITIONS,
        };
        range.filter_map(|i| self.dtm(i)).max().unwrap_or(0)
    }

    /// The largest number of moves of any legal position.
    pub fn max_moves(&self) -> usize {
        (0..POSITIONS)
            .map(|i| (self.offsets[i + 1] - self.offsets[i]) as usize)
            .max()
            .unwrap_or(0)
    }

    /// Successor entries in the table (the memory the table takes is about 4 bytes each plus
    /// 6 bytes per index).
    pub fn successor_entries(&self) -> usize {
        self.successors.len()
    }
}
