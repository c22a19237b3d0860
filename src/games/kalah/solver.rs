//! The exact solver of three-hole kalah: the forced outcome (win, loss or draw) of any
//! position, for Chi & Nau's (1987) `u(n)` in `rhf(4)` (Section 4.5: "one can search all the
//! way to the end of the game tree").
//!
//! Stones in the kalahs never move again, so how the rest of the game goes depends only on
//! the six pits and the side to move. The solver computes, for that part of the position, the
//! **future margin**: the stones South will add to its kalah minus those North will add, under
//! perfect play of both sides (South maximising, North minimising), exactly by full-width
//! minimax. The forced outcome of a position is the sign of its current kalah advantage plus
//! that margin, which is exactly the outcome of [`crate::search::solve`] (tested against it).
//!
//! Transposition table: a dense `i8` table over every distribution of at most
//! [`MAX_STONES`] stones over the six pits (`C(42, 6) = 5,245,786` of them, ranked in the
//! combinatorial number system) times the side to move, 10.5 MB, filled lazily. Entries do not
//! depend on the kalahs, so one table serves every board of a run (a solver per thread).
//! Every kalah game ends (a move that puts no stone into a kalah moves stones strictly toward
//! the mover's kalah), so the recursion terminates.

use super::{KalahBoard, MAX_STONES, PITS};

const PIT_CELLS: usize = 2 * PITS;
const BUDGET: usize = MAX_STONES as usize;
const UNKNOWN: i8 = i8::MIN;

/// The exact kalah solver with its transposition table.
#[derive(Debug, Clone)]
pub struct KalahSolver {
    table: Vec<i8>,
    /// `prefix[(k * (BUDGET + 1) + s) * (BUDGET + 2) + a]`: how many tuples of the remaining
    /// `k` pits come before value `a` in this pit with `s` stones left to distribute.
    prefix: Vec<u32>,
    positions: u64,
}

impl Default for KalahSolver {
    fn default() -> Self {
        KalahSolver::new()
    }
}

/// `C(n, k)` for small arguments.
fn binomial(n: usize, k: usize) -> u64 {
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i as u64 + 1))
}

impl KalahSolver {
    /// A solver with an empty table (allocates 10.5 MB).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::{KalahBoard, KalahSolver};
    /// let mut solver = KalahSolver::new();
    /// // South to move takes its last stone home, the game ends and North sweeps 1: a draw.
    /// let board = KalahBoard::parse("0 0 1 / 1 0 0 / 0 0 / S").unwrap();
    /// assert_eq!(solver.final_margin(&board), 0);
    /// assert_eq!(solver.value(&board), 0.5);
    /// ```
    pub fn new() -> Self {
        let count = |k: usize, s: usize| binomial(s + k, k) as u32; // tuples of k, sum <= s
        let mut prefix = vec![0u32; PIT_CELLS * (BUDGET + 1) * (BUDGET + 2)];
        for k in 0..PIT_CELLS {
            for s in 0..=BUDGET {
                let mut acc = 0;
                for a in 0..=s + 1 {
                    prefix[(k * (BUDGET + 1) + s) * (BUDGET + 2) + a] = acc;
                    if a <= s {
                        acc += count(k, s - a);
                    }
                }
            }
        }
        let size = binomial(BUDGET + PIT_CELLS, PIT_CELLS) as usize;
        KalahSolver {
            table: vec![UNKNOWN; 2 * size],
            prefix,
            positions: 0,
        }
    }

    fn index(&self, pits: &[u8; PIT_CELLS], south_to_move: bool) -> usize {
        let mut rank = 0usize;
        let mut left = BUDGET;
        for (i, &a) in pits.iter().enumerate() {
            let k = PIT_CELLS - 1 - i;
            rank += self.prefix[(k * (BUDGET + 1) + left) * (BUDGET + 2) + a as usize] as usize;
            left -= a as usize;
        }
        2 * rank + usize::from(south_to_move)
    }

    /// Positions solved so far (table entries filled).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::{KalahBoard, KalahSolver};
    /// let mut solver = KalahSolver::new();
    /// assert_eq!(solver.positions_solved(), 0);
    /// solver.value(&KalahBoard::parse("1 1 0 / 1 1 0 / 0 0 / S").unwrap());
    /// assert!(solver.positions_solved() > 1);
    /// ```
    pub fn positions_solved(&self) -> u64 {
        self.positions
    }

    /// The stones South adds to its kalah minus those North adds from `board` to the end of
    /// the game, under perfect play (0 when the game is over).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::{KalahBoard, KalahSolver};
    /// let mut solver = KalahSolver::new();
    /// // North's only move: one stone to its kalah, one to South's pit 0; North's side is
    /// // empty, so South sweeps its 2 stones: South +2, North +1.
    /// let board = KalahBoard::parse("1 0 0 / 0 0 2 / 5 0 / N").unwrap();
    /// assert_eq!(solver.future_margin(&board), 2 - 1);
    /// ```
    pub fn future_margin(&mut self, board: &KalahBoard) -> i32 {
        if board.is_over() {
            return 0;
        }
        i32::from(self.margin_of(board.pit_cells(), board.south_to_move))
    }

    /// South's kalah minus North's at the end of the game under perfect play.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::{KalahBoard, KalahSolver};
    /// let mut solver = KalahSolver::new();
    /// let board = KalahBoard::parse("0 0 0 / 0 0 0 / 7 5 / S").unwrap();
    /// assert_eq!(solver.final_margin(&board), 2);
    /// ```
    pub fn final_margin(&mut self, board: &KalahBoard) -> i32 {
        board.advantage() + self.future_margin(board)
    }

    /// The forced outcome from South's (Max's) side: 1 a forced win, 0 a forced loss, 1/2 a
    /// draw under perfect play (Chi & Nau's `u(n)`).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::{KalahBoard, KalahSolver};
    /// let mut solver = KalahSolver::new();
    /// // South chains extra moves (pit 2, pit 1, pit 2) and brings all 3 stones home; North
    /// // sweeps 1.
    /// let board = KalahBoard::parse("0 2 1 / 1 0 0 / 0 0 / S").unwrap();
    /// assert_eq!(solver.value(&board), 1.0);
    /// ```
    pub fn value(&mut self, board: &KalahBoard) -> f64 {
        match self.final_margin(board).signum() {
            1 => 1.0,
            -1 => 0.0,
            _ => 0.5,
        }
    }

    fn margin_of(&mut self, pits: [u8; PIT_CELLS], south_to_move: bool) -> i8 {
        let index = self.index(&pits, south_to_move);
        let known = self.table[index];
        if known != UNKNOWN {
            return known;
        }
        let board = KalahBoard {
            cells: [pits[0], pits[1], pits[2], 0, pits[3], pits[4], pits[5], 0],
            south_to_move,
        };
        let mut best: Option<i8> = None;
        for pit in 0..PITS {
            let Some(child) = board.sow(pit) else {
                continue;
            };
            let gained = child.advantage() as i8;
            let value = if child.is_over() {
                gained
            } else {
                gained + self.margin_of(child.pit_cells(), child.south_to_move)
            };
            best = Some(match best {
                None => value,
                Some(b) if south_to_move => b.max(value),
                Some(b) => b.min(value),
            });
        }
        let value = best.unwrap_or(0);
        self.table[index] = value;
        self.positions += 1;
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::games::kalah::Kalah;
    use crate::model::Player;
    use crate::search::solve;

    /// Brute force: the final margin by plain minimax over the `Game` trait, no table.
    fn brute_margin(board: &KalahBoard) -> i32 {
        if board.is_over() {
            return board.advantage();
        }
        let values = Kalah
            .moves(board)
            .into_iter()
            .map(|mv| brute_margin(&Kalah.play(board, mv)));
        match board.to_move() {
            Player::Max => values.max().unwrap(),
            Player::Min => values.min().unwrap(),
        }
    }

    /// Every board of at most 7 stones in the pits (and a few kalah advantages), both
    /// sides to move: the table solver agrees with brute force and with `search::solve`.
    #[test]
    fn agrees_with_brute_force_on_tiny_boards() {
        let mut solver = KalahSolver::new();
        let mut checked = 0;
        let mut decisive = [0; 3];
        for code in 0..8u32.pow(6) {
            let pits: Vec<u8> = (0..6).map(|i| ((code / 8u32.pow(i)) % 8) as u8).collect();
            if pits.iter().map(|&p| u32::from(p)).sum::<u32>() > 7 {
                continue;
            }
            for (stores, to_move) in [
                ([0, 0], Player::Max),
                ([1, 0], Player::Min),
                ([0, 2], Player::Max),
            ] {
                let board = KalahBoard::new(
                    [pits[0], pits[1], pits[2]],
                    [pits[3], pits[4], pits[5]],
                    stores,
                    to_move,
                )
                .unwrap();
                let margin = brute_margin(&board);
                assert_eq!(solver.final_margin(&board), margin, "{board}");
                let value = solver.value(&board);
                assert_eq!(value, solve(&Kalah, &board), "{board}");
                decisive[(value * 2.0) as usize] += 1;
                checked += 1;
            }
        }
        assert!(checked > 5000);
        // The check covers wins, draws and losses alike.
        assert!(decisive.iter().all(|&n| n > 100), "{decisive:?}");
    }

    /// A few larger random boards (up to 14 stones) against brute force.
    #[test]
    fn agrees_with_brute_force_on_small_random_boards() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(8);
        let mut solver = KalahSolver::new();
        for _ in 0..30 {
            let mut pit = || rng.random_range(0..=3u8);
            let board = KalahBoard::new(
                [pit(), pit(), pit()],
                [pit(), pit(), pit()],
                [0, 0],
                Player::Min,
            )
            .unwrap();
            assert_eq!(solver.final_margin(&board), brute_margin(&board), "{board}");
        }
    }

    /// The rank is a bijection onto `0..C(42, 6)` (checked on a sample and the extremes).
    #[test]
    fn ranks_are_distinct_and_in_range() {
        let solver = KalahSolver::new();
        let size = binomial(BUDGET + PIT_CELLS, PIT_CELLS) as usize;
        assert_eq!(size, 5_245_786);
        let mut seen = std::collections::HashSet::new();
        for code in 0..7u32.pow(6) {
            let pits: [u8; 6] = std::array::from_fn(|i| ((code / 7u32.pow(i as u32)) % 7) as u8);
            let index = solver.index(&pits, false);
            assert!(index < 2 * size);
            assert!(seen.insert(index), "{pits:?}");
        }
        assert_eq!(solver.index(&[0; 6], false), 0);
        assert_eq!(solver.index(&[0, 0, 0, 0, 0, 36], true), 2 * 36 + 1);
        assert_eq!(solver.index(&[36, 0, 0, 0, 0, 0], true), 2 * (size - 1) + 1);
    }
}
