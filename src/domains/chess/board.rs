//! Positions of KRK and KQK (White king and rook or queen against the lone Black king), their
//! legality and their moves.
//!
//! A position is the side to move and the squares (0..64, `a1` = 0, `b1` = 1, ..., `h8` = 63)
//! of the White king, the White piece and the Black king, packed into one index
//! `((side * 64 + white_king) * 64 + piece) * 64 + black_king` of [`POSITIONS`] = 2 * 64^3
//! entries. A position is legal when the three squares differ, the kings are not adjacent,
//! and the side not to move is not in check (with White to move, the Black king is not
//! attacked; the White king cannot be in check in these endgames).

/// Every index of the position table: 2 sides * 64^3 squares.
pub const POSITIONS: usize = 2 * 64 * 64 * 64;

/// The White piece beside the king.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A rook (KRK).
    Rook,
    /// A queen (KQK).
    Queen,
}

impl Piece {
    /// The endgame's name (`krk`, `kqk`).
    pub fn endgame(self) -> &'static str {
        match self {
            Piece::Rook => "krk",
            Piece::Queen => "kqk",
        }
    }

    fn directions(self) -> &'static [(i8, i8)] {
        const ROOK: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        const QUEEN: [(i8, i8); 8] = [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ];
        match self {
            Piece::Rook => &ROOK,
            Piece::Queen => &QUEEN,
        }
    }
}

/// The side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// White, the side with the piece.
    White,
    /// Black, the lone king.
    Black,
}

/// One position: side to move and the three squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// The side to move.
    pub side: Side,
    /// The White king's square (0..64).
    pub white_king: u8,
    /// The White rook's or queen's square.
    pub piece: u8,
    /// The Black king's square.
    pub black_king: u8,
}

/// A move's result: another position, or the Black king's capture of the White piece (a
/// draw: king against king).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Successor {
    /// The position after the move.
    Position(Position),
    /// Black took the rook or queen.
    Capture,
}

/// File (0..8) of a square.
pub fn file(square: u8) -> i8 {
    (square % 8) as i8
}

/// Rank (0..8) of a square.
pub fn rank(square: u8) -> i8 {
    (square / 8) as i8
}

fn square_at(file: i8, rank: i8) -> Option<u8> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as u8)
}

/// Chebyshev (king-move) distance between two squares.
pub fn king_distance(a: u8, b: u8) -> i8 {
    (file(a) - file(b)).abs().max((rank(a) - rank(b)).abs())
}

/// Manhattan distance between two squares.
pub fn manhattan_distance(a: u8, b: u8) -> i8 {
    (file(a) - file(b)).abs() + (rank(a) - rank(b)).abs()
}

/// The squares a king on `square` reaches.
fn king_targets(square: u8) -> impl Iterator<Item = u8> {
    let (f, r) = (file(square), rank(square));
    (-1..=1)
        .flat_map(move |df| (-1..=1).map(move |dr| (df, dr)))
        .filter(|&(df, dr)| (df, dr) != (0, 0))
        .filter_map(move |(df, dr)| square_at(f + df, r + dr))
}

/// Whether the White `piece` on `from` attacks `target`, its lines blocked by the White king
/// on `blocker` alone (the Black king never blocks the square it moves to).
pub fn piece_attacks(piece: Piece, from: u8, target: u8, blocker: u8) -> bool {
    if from == target {
        return false;
    }
    for &(df, dr) in piece.directions() {
        let (mut f, mut r) = (file(from) + df, rank(from) + dr);
        while let Some(s) = square_at(f, r) {
            if s == blocker {
                break;
            }
            if s == target {
                return true;
            }
            f += df;
            r += dr;
        }
    }
    false
}

impl Position {
    /// The position's index in the table.
    pub fn index(self) -> usize {
        let side = usize::from(self.side == Side::Black);
        ((side * 64 + usize::from(self.white_king)) * 64 + usize::from(self.piece)) * 64
            + usize::from(self.black_king)
    }

    /// The position of an index in `0..POSITIONS`.
    pub fn from_index(index: usize) -> Position {
        Position {
            side: if index >= POSITIONS / 2 {
                Side::Black
            } else {
                Side::White
            },
            white_king: ((index >> 12) & 63) as u8,
            piece: ((index >> 6) & 63) as u8,
            black_king: (index & 63) as u8,
        }
    }

    /// Whether the Black king is attacked by the White piece.
    pub fn black_in_check(self, piece: Piece) -> bool {
        piece_attacks(piece, self.piece, self.black_king, self.white_king)
    }

    /// Whether the position is legal (see the module doc).
    pub fn is_legal(self, piece: Piece) -> bool {
        let (w, p, b) = (self.white_king, self.piece, self.black_king);
        if w == p || w == b || p == b || king_distance(w, b) <= 1 {
            return false;
        }
        !(self.side == Side::White && self.black_in_check(piece))
    }

    /// The legal moves' results, in a fixed order (king moves first, then the piece's by
    /// direction and distance; Black's king moves by direction).
    pub fn successors(self, piece: Piece) -> Vec<Successor> {
        let mut out = Vec::new();
        let (w, p, b) = (self.white_king, self.piece, self.black_king);
        match self.side {
            Side::White => {
                for to in king_targets(w) {
                    if to != p && king_distance(to, b) > 1 {
                        out.push(Successor::Position(Position {
                            side: Side::Black,
                            white_king: to,
                            ..self
                        }));
                    }
                }
                for &(df, dr) in piece.directions() {
                    let (mut f, mut r) = (file(p) + df, rank(p) + dr);
                    while let Some(to) = square_at(f, r) {
                        if to == w || to == b {
                            break;
                        }
                        out.push(Successor::Position(Position {
                            side: Side::Black,
                            piece: to,
                            ..self
                        }));
                        f += df;
                        r += dr;
                    }
                }
            }
            Side::Black => {
                for to in king_targets(b) {
                    if king_distance(to, w) <= 1 {
                        continue;
                    }
                    if to == p {
                        // The piece is taken unless its king defends it.
                        out.push(Successor::Capture);
                    } else if !piece_attacks(piece, p, to, w) {
                        out.push(Successor::Position(Position {
                            side: Side::White,
                            black_king: to,
                            ..self
                        }));
                    }
                }
            }
        }
        out
    }

    /// The position reflected by `symmetry` (0..8: bit 0 mirrors files, bit 1 mirrors ranks,
    /// bit 2 swaps files and ranks), the board's eight symmetries; castling and pawns are
    /// absent, so every one preserves legality and values.
    pub fn reflected(self, symmetry: u8) -> Position {
        let map = |s: u8| {
            let (mut f, mut r) = (file(s), rank(s));
            if symmetry & 1 != 0 {
                f = 7 - f;
            }
            if symmetry & 2 != 0 {
                r = 7 - r;
            }
            if symmetry & 4 != 0 {
                std::mem::swap(&mut f, &mut r);
            }
            (r * 8 + f) as u8
        };
        Position {
            side: self.side,
            white_king: map(self.white_king),
            piece: map(self.piece),
            black_king: map(self.black_king),
        }
    }

    /// Parses `Kxx Rxx kxx w|b` style text: `"Ke1 Ra1 ke8 w"` (White king, piece, Black king
    /// in algebraic notation, side to move).
    pub fn parse(text: &str) -> Option<Position> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let [wk, pc, bk, side] = words.as_slice() else {
            return None;
        };
        let square = |w: &str, first: char| {
            let mut chars = w.chars();
            (chars.next()? == first).then_some(())?;
            let f = chars.next()?;
            let r = chars.next()?;
            chars.next().is_none().then_some(())?;
            let f = (f as i8) - (b'a' as i8);
            let r = (r as i8) - (b'1' as i8);
            square_at(f, r)
        };
        let piece_square = square(pc, 'R').or_else(|| square(pc, 'Q'))?;
        Some(Position {
            side: match *side {
                "w" => Side::White,
                "b" => Side::Black,
                _ => return None,
            },
            white_king: square(wk, 'K')?,
            piece: piece_square,
            black_king: square(bk, 'k')?,
        })
    }
}
