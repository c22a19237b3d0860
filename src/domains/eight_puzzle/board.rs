//! The 8-puzzle's state space, solved: every state reachable from the goal, its neighbours,
//! and its optimal solution length by breadth-first search from the goal.
//!
//! A state is the tiles read row by row, `0` for the blank. The goal is
//! `1 2 3 / 4 5 6 / 7 8 _` (blank in the bottom-right corner; [`GOAL`]). States are indexed
//! in breadth-first order from the goal (index 0), neighbours listed by the blank's move in the
//! fixed order up, down, left, right. A permutation's rank (its Lehmer code, `0..9!`) maps a
//! state to its index through one table, a perfect hash of the 9! boards.

/// The goal: tiles 1..8 row by row, the blank (0) in the bottom-right corner.
pub const GOAL: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 0];

/// States reachable from the goal: half of the 9! boards (the other half has the wrong
/// permutation parity).
pub const STATES: usize = 181_440;

/// No neighbour (the blank is on that edge), in [`Puzzle::neighbours`].
pub const NONE: u32 = u32::MAX;

/// 0!, 1!, ..., 8!.
const FACTORIALS: [u32; 9] = [1, 1, 2, 6, 24, 120, 720, 5040, 40320];

/// The solved puzzle: states, neighbours and distances.
#[derive(Debug, Clone)]
pub struct Puzzle {
    /// The boards packed 4 bits per cell (cell 0 in the low bits), by index.
    boards: Vec<u64>,
    /// The blank's cell, by index.
    blanks: Vec<u8>,
    /// Optimal solution length, by index.
    distances: Vec<u8>,
    /// Neighbours by the blank's move (up, down, left, right); [`NONE`] where the blank is
    /// on that edge.
    neighbours: Vec<[u32; 4]>,
    /// Index of the board of each rank, or [`NONE`] (unreachable parity).
    index_of_rank: Vec<u32>,
}

/// The rank of a permutation of 0..9 (its Lehmer code): a bijection onto `0..9!`.
///
/// # Examples
///
/// ```
/// use pathology::domains::eight_puzzle::board::rank;
/// assert_eq!(rank(&[0, 1, 2, 3, 4, 5, 6, 7, 8]), 0);
/// assert_eq!(rank(&[8, 7, 6, 5, 4, 3, 2, 1, 0]), 362_879);
/// ```
pub fn rank(tiles: &[u8; 9]) -> u32 {
    let mut r = 0;
    for i in 0..9 {
        let smaller_after = tiles[i + 1..].iter().filter(|&&t| t < tiles[i]).count() as u32;
        r += smaller_after * FACTORIALS[8 - i];
    }
    r
}

fn pack(tiles: &[u8; 9]) -> u64 {
    tiles
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &t)| acc | (u64::from(t) << (4 * i)))
}

fn unpack(board: u64) -> [u8; 9] {
    std::array::from_fn(|i| ((board >> (4 * i)) & 0xf) as u8)
}

/// The cell the blank moves to from `blank` in direction `m` (up, down, left, right).
fn target(blank: usize, m: usize) -> Option<usize> {
    let (row, col) = (blank / 3, blank % 3);
    match m {
        0 if row > 0 => Some(blank - 3),
        1 if row < 2 => Some(blank + 3),
        2 if col > 0 => Some(blank - 1),
        3 if col < 2 => Some(blank + 1),
        _ => None,
    }
}

impl Puzzle {
    /// Every state reachable from [`GOAL`], by breadth-first search.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::domains::eight_puzzle::board::{Puzzle, STATES};
    /// let puzzle = Puzzle::solve();
    /// assert_eq!(puzzle.len(), STATES);
    /// assert_eq!(puzzle.max_distance(), 31);
    /// ```
    pub fn solve() -> Puzzle {
        let mut index_of_rank = vec![NONE; FACTORIALS[8] as usize * 9];
        let mut boards = Vec::with_capacity(STATES);
        let mut blanks = Vec::with_capacity(STATES);
        let mut distances = Vec::with_capacity(STATES);
        index_of_rank[rank(&GOAL) as usize] = 0;
        boards.push(pack(&GOAL));
        blanks.push(8u8);
        distances.push(0u8);
        let mut next = 0;
        while next < boards.len() {
            let tiles = unpack(boards[next]);
            let blank = usize::from(blanks[next]);
            for m in 0..4 {
                let Some(to) = target(blank, m) else { continue };
                let mut moved = tiles;
                moved.swap(blank, to);
                let r = rank(&moved) as usize;
                if index_of_rank[r] == NONE {
                    index_of_rank[r] = boards.len() as u32;
                    boards.push(pack(&moved));
                    blanks.push(to as u8);
                    distances.push(distances[next] + 1);
                }
            }
            next += 1;
        }
        let neighbours = (0..boards.len())
            .map(|i| {
                let tiles = unpack(boards[i]);
                let blank = usize::from(blanks[i]);
                std::array::from_fn(|m| match target(blank, m) {
                    Some(to) => {
                        let mut moved = tiles;
                        moved.swap(blank, to);
                        index_of_rank[rank(&moved) as usize]
                    }
                    None => NONE,
                })
            })
            .collect();
        Puzzle {
            boards,
            blanks,
            distances,
            neighbours,
            index_of_rank,
        }
    }

    /// The number of states (181,440).
    pub fn len(&self) -> usize {
        self.boards.len()
    }

    /// Never: the goal is always a state.
    pub fn is_empty(&self) -> bool {
        self.boards.is_empty()
    }

    /// The tiles of state `index`, row by row (0 the blank).
    pub fn tiles(&self, index: usize) -> [u8; 9] {
        unpack(self.boards[index])
    }

    /// The index of a board, or `None` when it is not reachable from the goal (or not a
    /// permutation of 0..9).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::domains::eight_puzzle::board::{GOAL, Puzzle};
    /// let puzzle = Puzzle::solve();
    /// assert_eq!(puzzle.index_of(&GOAL), Some(0));
    /// assert_eq!(puzzle.index_of(&[2, 1, 3, 4, 5, 6, 7, 8, 0]), None); // odd parity
    /// ```
    pub fn index_of(&self, tiles: &[u8; 9]) -> Option<usize> {
        let mut seen = [false; 9];
        for &t in tiles {
            if t > 8 || seen[usize::from(t)] {
                return None;
            }
            seen[usize::from(t)] = true;
        }
        let i = self.index_of_rank[rank(tiles) as usize];
        (i != NONE).then_some(i as usize)
    }

    /// The optimal solution length of state `index`.
    pub fn distance(&self, index: usize) -> u8 {
        self.distances[index]
    }

    /// The blank's cell in state `index`.
    pub fn blank(&self, index: usize) -> usize {
        usize::from(self.blanks[index])
    }

    /// The neighbours of `index` by the blank's move (up, down, left, right), [`NONE`] where
    /// the blank cannot move that way.
    pub fn neighbours(&self, index: usize) -> &[u32; 4] {
        &self.neighbours[index]
    }

    /// The neighbours that exist, in move order.
    pub fn successors(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbours[index]
            .iter()
            .filter(|&&n| n != NONE)
            .map(|&n| n as usize)
    }

    /// The largest optimal solution length.
    pub fn max_distance(&self) -> u8 {
        self.distances.iter().copied().max().unwrap_or(0)
    }

    /// The number of states at each distance `0..=max`.
    pub fn histogram(&self) -> Vec<u64> {
        let mut counts = vec![0u64; usize::from(self.max_distance()) + 1];
        for &d in &self.distances {
            counts[usize::from(d)] += 1;
        }
        counts
    }
}
