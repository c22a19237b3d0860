//! Three-hole kalah, the game of Chi & Nau's (1987) Section 4.5.
//!
//! Chi & Nau play kalah "with three bottom holes instead of the usual six, with each hole
//! containing at most six stones", on 1000 random initial boards generated "similar to the
//! method used by Slagle" (Slagle & Dixon 1969, JACM 16(2)). We could not find Slagle &
//! Dixon's text in public material; the rules below are the standard kalah rules, as
//! described in the 1972 Stanford AI Lab kalah program notes (`KALAH.AKC[UP,DOC]`,
//! contemporary with Slagle's experiments) and in today's rule sheets, which agree on every
//! point we use. **Rule choices** (each tested in the unit tests):
//!
//! - **Board.** Three pits a side and one kalah (store) each. South is Max, North is Min
//!   ([`crate::model`]: values are from Max's point of view). Cells in sowing
//!   (counterclockwise) order: South's pits 0, 1, 2, South's kalah, North's pits 0, 1, 2,
//!   North's kalah; pit `i` of one side faces pit `2 - i` of the other.
//! - **Move.** The player to move empties one of their non-empty pits and sows its stones one
//!   by one into the following cells, **including their own kalah and skipping the opponent's
//!   kalah** (a sowing of many stones laps the board).
//! - **Extra move.** If the last stone lands in the mover's own kalah, the same player moves
//!   again (a new node of the game tree with the same player to move: a search depth counts
//!   sowings, not turns).
//! - **Capture.** If the last stone lands in an **empty pit of the mover** and the facing pit
//!   is **not empty**, that stone and the facing pit's stones go to the mover's kalah and the
//!   turn ends. When the facing pit is empty nothing is captured (the stone stays).
//! - **Game end.** As soon as, after a move, **either side's pits are all empty**, the game
//!   ends and each player puts the stones left in their own pits into their own kalah. The
//!   player with more stones in their kalah wins; equal kalahs are a **draw** (possible when
//!   the total number of stones is even).
//!
//! Utility (terminal states): 1 when South wins, 0 when North wins, 1/2 for a draw (Chi &
//! Nau's `u(n)` with the ties they excluded in Section 2 put halfway).
//!
//! A position is fully described by the cells and the side to move; at most
//! [`MAX_STONES`] = 36 stones (six pits of at most six stones), so the exact solver
//! ([`solver`]) can index every distribution of stones over the six pits in one dense table.
//!
//! **Initial boards** ([`random_board`]): each of the six pits gets a number of stones drawn
//! independently and uniformly from `1..=6`, kalahs empty (our reading of "at most six
//! stones"; a pit never starts empty, so no side starts empty).

pub mod solver;

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::Game;
use crate::error::{Error, Result};
use crate::model::Player;

pub use solver::KalahSolver;

/// Pits per side.
pub const PITS: usize = 3;

/// The most stones a board may hold (six pits of at most six stones at the start).
pub const MAX_STONES: u32 = 36;

/// The most stones a pit gets at the start of a random game (Chi & Nau: "at most six").
pub const MAX_START_STONES: u8 = 6;

const SOUTH_STORE: usize = 3;
const NORTH_STORE: usize = 7;
const CELLS: usize = 8;

/// A three-hole kalah position: the eight cells and the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KalahBoard {
    cells: [u8; CELLS],
    south_to_move: bool,
}

/// The game of three-hole kalah ([`Game`] with [`KalahBoard`] states; a move is the index
/// 0, 1 or 2 of one of the mover's pits, in sowing order).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Kalah;

impl KalahBoard {
    /// A position from South's pits, North's pits (each in sowing order), the two kalahs
    /// `[south, north]` and the player to move (South is [`Player::Max`]). If a side's pits
    /// are all empty the game is over and the other side's pits are swept into its kalah
    /// (the game-end rule).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::KalahBoard;
    /// use pathology::model::Player;
    /// let board = KalahBoard::new([1, 2, 3], [4, 5, 6], [0, 0], Player::Max).unwrap();
    /// assert_eq!(board.total(), 21);
    /// assert!(!board.is_over());
    /// let ended = KalahBoard::new([0, 0, 0], [4, 5, 6], [3, 2], Player::Max).unwrap();
    /// assert!(ended.is_over());
    /// assert_eq!(ended.stores(), [3, 17]);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--board` when the board holds more than
    /// [`MAX_STONES`] stones.
    pub fn new(
        south: [u8; PITS],
        north: [u8; PITS],
        stores: [u8; 2],
        to_move: Player,
    ) -> Result<Self> {
        let total: u32 = south
            .iter()
            .chain(&north)
            .chain(&stores)
            .map(|&s| u32::from(s))
            .sum();
        if total > MAX_STONES {
            return Err(Error::invalid(
                "--board",
                &format!("a three-hole kalah board with at most {MAX_STONES} stones"),
                format!("{total} stones"),
            ));
        }
        let mut cells = [0u8; CELLS];
        cells[..PITS].copy_from_slice(&south);
        cells[SOUTH_STORE] = stores[0];
        cells[SOUTH_STORE + 1..NORTH_STORE].copy_from_slice(&north);
        cells[NORTH_STORE] = stores[1];
        let mut board = KalahBoard {
            cells,
            south_to_move: to_move == Player::Max,
        };
        board.end_if_a_side_is_empty();
        Ok(board)
    }

    /// Parses `"s0 s1 s2 / n0 n1 n2 / kS kN / S"` (South's pits, North's pits, the kalahs
    /// South then North, and `S` or `N` to move), the format of [`std::fmt::Display`].
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::KalahBoard;
    /// let board = KalahBoard::parse("1 2 3 / 4 5 6 / 0 0 / S").unwrap();
    /// assert_eq!(board.to_string(), "1 2 3 / 4 5 6 / 0 0 / S");
    /// assert!(KalahBoard::parse("1 2 / 4 5 6 / 0 0 / S").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--board` when the text is not of that form or the
    /// board holds more than [`MAX_STONES`] stones.
    pub fn parse(text: &str) -> Result<Self> {
        let bad = || {
            Error::invalid(
                "--board",
                "\"s0 s1 s2 / n0 n1 n2 / kS kN / S|N\" (three-hole kalah)",
                format!("{text:?}"),
            )
        };
        let parts: Vec<&str> = text.split('/').map(str::trim).collect();
        if parts.len() != 4 {
            return Err(bad());
        }
        let numbers = |part: &str, count: usize| -> Result<Vec<u8>> {
            let values: Vec<u8> = part
                .split_whitespace()
                .map(|s| s.parse::<u8>().map_err(|_| bad()))
                .collect::<Result<_>>()?;
            if values.len() == count {
                Ok(values)
            } else {
                Err(bad())
            }
        };
        let south = numbers(parts[0], PITS)?;
        let north = numbers(parts[1], PITS)?;
        let stores = numbers(parts[2], 2)?;
        let to_move = match parts[3] {
            "S" | "s" => Player::Max,
            "N" | "n" => Player::Min,
            _ => return Err(bad()),
        };
        KalahBoard::new(
            [south[0], south[1], south[2]],
            [north[0], north[1], north[2]],
            [stores[0], stores[1]],
            to_move,
        )
    }

    /// The pits of `side` (South is [`Player::Max`]) in sowing order.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::KalahBoard;
    /// use pathology::model::Player;
    /// let board = KalahBoard::parse("1 2 3 / 4 5 6 / 0 0 / S").unwrap();
    /// assert_eq!(board.pits(Player::Min), [4, 5, 6]);
    /// ```
    pub fn pits(&self, side: Player) -> [u8; PITS] {
        let base = match side {
            Player::Max => 0,
            Player::Min => SOUTH_STORE + 1,
        };
        [self.cells[base], self.cells[base + 1], self.cells[base + 2]]
    }

    /// The kalahs, `[south, north]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::KalahBoard;
    /// assert_eq!(KalahBoard::parse("1 2 3 / 4 5 6 / 7 1 / S").unwrap().stores(), [7, 1]);
    /// ```
    pub fn stores(&self) -> [u8; 2] {
        [self.cells[SOUTH_STORE], self.cells[NORTH_STORE]]
    }

    /// The player to move (South is [`Player::Max`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::KalahBoard;
    /// use pathology::model::Player;
    /// assert_eq!(KalahBoard::parse("1 2 3 / 4 5 6 / 0 0 / N").unwrap().to_move(), Player::Min);
    /// ```
    pub fn to_move(&self) -> Player {
        if self.south_to_move {
            Player::Max
        } else {
            Player::Min
        }
    }

    /// The same board with `player` to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::KalahBoard;
    /// use pathology::model::Player;
    /// let board = KalahBoard::parse("1 2 3 / 4 5 6 / 0 0 / S").unwrap();
    /// assert_eq!(board.with_to_move(Player::Min).to_string(), "1 2 3 / 4 5 6 / 0 0 / N");
    /// ```
    pub fn with_to_move(mut self, player: Player) -> Self {
        self.south_to_move = player == Player::Max;
        self
    }

    /// All stones on the board (pits and kalahs); constant during a game.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::KalahBoard;
    /// assert_eq!(KalahBoard::parse("1 2 3 / 4 5 6 / 7 1 / S").unwrap().total(), 29);
    /// ```
    pub fn total(&self) -> u32 {
        self.cells.iter().map(|&c| u32::from(c)).sum()
    }

    /// Slagle's kalah advantage from South's side: South's kalah minus North's.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::KalahBoard;
    /// assert_eq!(KalahBoard::parse("1 2 3 / 4 5 6 / 7 1 / S").unwrap().advantage(), 6);
    /// ```
    pub fn advantage(&self) -> i32 {
        i32::from(self.cells[SOUTH_STORE]) - i32::from(self.cells[NORTH_STORE])
    }

    /// Whether the game is over (every pit empty, after the game-end sweep).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::KalahBoard;
    /// assert!(KalahBoard::parse("0 0 0 / 0 0 0 / 3 4 / S").unwrap().is_over());
    /// assert!(!KalahBoard::parse("0 0 1 / 0 1 0 / 3 4 / S").unwrap().is_over());
    /// ```
    pub fn is_over(&self) -> bool {
        self.pit_cells().iter().all(|&c| c == 0)
    }

    /// The six pits, South's then North's, in sowing order (the solver's key).
    pub(crate) fn pit_cells(&self) -> [u8; 2 * PITS] {
        let c = &self.cells;
        [c[0], c[1], c[2], c[4], c[5], c[6]]
    }

    fn end_if_a_side_is_empty(&mut self) {
        let c = &mut self.cells;
        let south: u8 = c[..PITS].iter().sum();
        let north: u8 = c[SOUTH_STORE + 1..NORTH_STORE].iter().sum();
        if south == 0 || north == 0 {
            c[SOUTH_STORE] += south;
            c[NORTH_STORE] += north;
            for i in (0..PITS).chain(SOUTH_STORE + 1..NORTH_STORE) {
                c[i] = 0;
            }
        }
    }

    /// The position after the player to move sows pit `pit` (0, 1 or 2 of their side),
    /// applying the capture, extra-move and game-end rules; `None` when that pit is empty
    /// or the game is over.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::kalah::KalahBoard;
    /// let board = KalahBoard::parse("1 2 3 / 4 5 6 / 0 0 / S").unwrap();
    /// // Three stones from South's last pit: its kalah, North's pits 0 and 1.
    /// assert_eq!(board.sow(2).unwrap().to_string(), "1 2 0 / 5 6 6 / 1 0 / N");
    /// // Two stones from pit 1: pit 2, then the kalah, so South moves again.
    /// assert_eq!(board.sow(1).unwrap().to_string(), "1 0 4 / 4 5 6 / 1 0 / S");
    /// ```
    pub fn sow(&self, pit: usize) -> Option<KalahBoard> {
        if pit >= PITS || self.is_over() {
            return None;
        }
        let (base, own, other) = if self.south_to_move {
            (0, SOUTH_STORE, NORTH_STORE)
        } else {
            (SOUTH_STORE + 1, NORTH_STORE, SOUTH_STORE)
        };
        let mut c = self.cells;
        let mut i = base + pit;
        let mut stones = c[i];
        if stones == 0 {
            return None;
        }
        c[i] = 0;
        while stones > 0 {
            i = (i + 1) % CELLS;
            if i != other {
                c[i] += 1;
                stones -= 1;
            }
        }
        let own_pit = (base..base + PITS).contains(&i);
        // The pit across from pit i (only pits have one: a store's index would underflow).
        let facing = if own_pit { 6 - i } else { i };
        if own_pit && c[i] == 1 && c[facing] > 0 {
            c[own] += c[facing] + 1;
            c[i] = 0;
            c[facing] = 0;
        }
        let mut next = KalahBoard {
            cells: c,
            south_to_move: if i == own {
                self.south_to_move
            } else {
                !self.south_to_move
            },
        };
        next.end_if_a_side_is_empty();
        Some(next)
    }
}

impl std::fmt::Display for KalahBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [s0, s1, s2] = self.pits(Player::Max);
        let [n0, n1, n2] = self.pits(Player::Min);
        let [ks, kn] = self.stores();
        let side = if self.south_to_move { 'S' } else { 'N' };
        write!(f, "{s0} {s1} {s2} / {n0} {n1} {n2} / {ks} {kn} / {side}")
    }
}

impl Game for Kalah {
    type State = KalahBoard;
    type Move = usize;

    fn to_move(&self, state: &KalahBoard) -> Player {
        state.to_move()
    }

    fn moves(&self, state: &KalahBoard) -> Vec<usize> {
        if state.is_over() {
            return Vec::new();
        }
        let pits = state.pits(state.to_move());
        (0..PITS).filter(|&p| pits[p] > 0).collect()
    }

    fn play(&self, state: &KalahBoard, mv: usize) -> KalahBoard {
        state
            .sow(mv)
            .unwrap_or_else(|| panic!("illegal kalah move {mv} at {state}"))
    }

    fn utility(&self, state: &KalahBoard) -> Option<f64> {
        if !state.is_over() {
            return None;
        }
        Some(match state.advantage().signum() {
            1 => 1.0,
            -1 => 0.0,
            _ => 0.5,
        })
    }
}

/// A random initial board: every pit gets `1..=`[`MAX_START_STONES`] stones, uniformly and
/// independently (South's three pits first, then North's), kalahs empty, `to_move` to move.
///
/// # Examples
///
/// ```
/// use pathology::games::kalah::random_board;
/// use pathology::model::Player;
/// use rand::SeedableRng;
/// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
/// let board = random_board(&mut rng, Player::Max);
/// assert!((6..=36).contains(&board.total()));
/// assert_eq!(board.stores(), [0, 0]);
/// ```
pub fn random_board(rng: &mut ChaCha8Rng, to_move: Player) -> KalahBoard {
    let mut pit = || rng.random_range(1..=MAX_START_STONES);
    let south = [pit(), pit(), pit()];
    let north = [pit(), pit(), pit()];
    KalahBoard::new(south, north, [0, 0], to_move).expect("at most 36 stones")
}

/// Chi & Nau's `e_a`: Slagle's kalah advantage scaled linearly to [0, 1],
/// `(advantage + T) / (2T)` with `T` the board's stones (the advantage lies in `[-T, T]`),
/// from South's (Max's) point of view; the utility at terminal states.
///
/// # Examples
///
/// ```
/// use pathology::games::kalah::{KalahBoard, kalah_advantage};
/// let board = KalahBoard::parse("1 2 3 / 4 5 6 / 9 0 / S").unwrap();
/// assert_eq!(kalah_advantage(&board), 0.65); // T = 30 stones: (9 + 30) / 60
/// ```
pub fn kalah_advantage(board: &KalahBoard) -> f64 {
    if let Some(u) = Kalah.utility(board) {
        return u;
    }
    let total = f64::from(board.total());
    (f64::from(board.advantage()) + total) / (2.0 * total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> KalahBoard {
        KalahBoard::parse(text).unwrap()
    }

    /// Hand-checked sowing: a long sowing laps the board and skips the opponent's kalah.
    #[test]
    fn sowing_skips_the_opponents_kalah() {
        // South sows 9 stones from pit 0: pits 1, 2, kalah, N0, N1, N2, (skip N kalah),
        // pit 0, pit 1, pit 2.
        let after = board("9 0 0 / 0 0 1 / 0 0 / S").sow(0).unwrap();
        assert_eq!(after.to_string(), "1 2 2 / 1 1 2 / 1 0 / N");
        assert_eq!(after.total(), 10);
        // North sows 8 from its pit 1: N2, N kalah, S0, S1, S2, (skip S kalah), N0, N1, N2.
        let after = board("1 0 0 / 0 8 0 / 0 0 / N").sow(1).unwrap();
        assert_eq!(after.to_string(), "2 1 1 / 1 1 2 / 0 1 / S");
    }

    /// Hand-checked capture: last stone in an empty own pit facing a non-empty pit.
    #[test]
    fn capture_takes_the_facing_pit() {
        // South pit 0 (1 stone) lands in empty pit 1, which faces North pit 1 (5 stones).
        let after = board("1 0 3 / 2 5 4 / 0 0 / S").sow(0).unwrap();
        assert_eq!(after.to_string(), "0 0 3 / 2 0 4 / 6 0 / N");
        // Facing pit empty: no capture, the stone stays.
        let after = board("1 0 3 / 2 0 4 / 0 0 / S").sow(0).unwrap();
        assert_eq!(after.to_string(), "0 1 3 / 2 0 4 / 0 0 / N");
        // Landing in a non-empty own pit: no capture.
        let after = board("1 1 3 / 2 5 4 / 0 0 / S").sow(0).unwrap();
        assert_eq!(after.to_string(), "0 2 3 / 2 5 4 / 0 0 / N");
        // North captures: N pit 0 (2 stones) -> N1, N2; N2 was empty and faces S0 (4).
        let after = board("4 1 1 / 2 3 0 / 0 0 / N").sow(0).unwrap();
        assert_eq!(after.to_string(), "0 1 1 / 0 4 0 / 0 5 / S");
        // A sowing of 7 laps back into the emptied start pit and captures from it.
        let after = board("7 0 0 / 0 0 2 / 0 0 / S").sow(0).unwrap();
        // 1, 2, K, N0, N1, N2 (skip NK), pit 0 gets the 7th: empty, faces N2 (3): capture.
        assert_eq!(after.to_string(), "0 1 1 / 1 1 0 / 5 0 / N");
    }

    /// Hand-checked extra move: the last stone in the own kalah keeps the turn.
    #[test]
    fn last_stone_in_own_kalah_moves_again() {
        let after = board("0 0 1 / 1 1 1 / 0 0 / S").sow(2).unwrap();
        // South has no stones left: the game ends, North sweeps its 3 stones.
        assert!(after.is_over());
        assert_eq!(after.stores(), [1, 3]);
        let after = board("0 1 1 / 1 1 1 / 0 0 / S").sow(2).unwrap();
        assert_eq!(after.to_string(), "0 1 0 / 1 1 1 / 1 0 / S");
        assert_eq!(Kalah.to_move(&after), Player::Max);
        let after = board("1 1 1 / 1 1 1 / 0 0 / N").sow(2).unwrap();
        assert_eq!(after.to_move(), Player::Min);
        assert_eq!(after.stores(), [0, 1]);
    }

    /// Hand-checked game end: a side emptied by a move ends the game, the other sweeps.
    #[test]
    fn an_empty_side_ends_the_game() {
        // North's last two stones: its kalah, then South's pit 0; North's side is empty,
        // South sweeps its 2 + 1 stones.
        let after = board("0 2 0 / 0 0 2 / 4 5 / N").sow(2).unwrap();
        assert!(after.is_over());
        assert_eq!(after.stores(), [4 + 3, 5 + 1]);
        assert_eq!(Kalah.utility(&after), Some(1.0));
        assert!(Kalah.moves(&after).is_empty());
        // A draw.
        let draw = board("0 0 0 / 0 0 0 / 6 6 / S");
        assert_eq!(Kalah.utility(&draw), Some(0.5));
        // Not over: utility None, moves are the non-empty pits of the mover.
        let open = board("0 2 1 / 1 0 1 / 0 0 / N");
        assert_eq!(Kalah.utility(&open), None);
        assert_eq!(Kalah.moves(&open), vec![0, 2]);
    }

    #[test]
    fn refuses_bad_boards() {
        for text in [
            "1 2 3 / 4 5 6 / 0 0",
            "1 2 3 / 4 5 x / 0 0 / S",
            "1 2 3 / 4 5 6 / 0 0 / W",
        ] {
            assert!(KalahBoard::parse(text).is_err(), "{text}");
        }
        let err = KalahBoard::parse("9 9 9 / 9 0 0 / 1 0 / S").unwrap_err();
        assert!(err.to_string().contains("at most 36"), "{err}");
        assert_eq!(board("1 2 3 / 4 5 6 / 0 0 / S").sow(3), None);
        assert_eq!(board("0 2 3 / 4 5 6 / 0 0 / S").sow(0), None);
    }

    /// Stones are conserved along random games, every game ends.
    #[test]
    fn random_games_conserve_stones_and_end() {
        use rand::SeedableRng;
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for _ in 0..500 {
            let mut state = random_board(&mut rng, Player::Max);
            let total = state.total();
            let mut plies = 0;
            while !state.is_over() {
                let moves = Kalah.moves(&state);
                state = Kalah.play(&state, moves[rng.random_range(0..moves.len())]);
                assert_eq!(state.total(), total);
                plies += 1;
                assert!(plies < 1000);
            }
            assert!(Kalah.utility(&state).is_some());
        }
    }
}
