//! Pearl's board-splitting games on a real board of 0/1 squares, filled three ways.
//!
//! The game (Wilson, Parker & Nau 2009, "Experiments"; Li & Marsland 1990, Section 4): the
//! board has `b^ceil(h/2)` rows and `b^floor(h/2)` columns. Players alternately split the
//! remaining board into `b` equal parts and keep one; when one square remains, a 1-square is a
//! win for the player who moved last, which is Max ([`crate::model`]: odd heights are Max
//! nodes). Conventions fixed here:
//!
//! - The player to move at the root (height `h`) **cuts rows** (it moves `ceil(h/2)` times),
//!   the other player cuts columns. Move `k` keeps part `k` (counted from the top or left).
//! - Leaves are numbered in **tree order**: the leaf reached by moves `k_h, ..., k_1` (from the
//!   root down) has index `sum k_t b^(t-1)`, the root move being the most significant digit.
//!   [`SplittingGame::from_leaves`] places leaf `i` on its square, so a subtree's leaves form a
//!   contiguous range of indices.
//!
//! Three ways to fill the board:
//!
//! - **P-games** ([`SplittingGame::p_game`]): each square is 1 with probability `p`
//!   independently; the default `p = w_b` ([`crate::analytic::closed_form::w_b`]) is the root in
//!   (0, 1) of `(1 - x)^b = x`, which makes the win probability of every even-height node `w_b`.
//! - **N-games** ([`SplittingGame::n_game`], Nau 1982): each tree edge carries `+1` with
//!   probability `q`, `-1` otherwise; a square is 1 when the sum along its path is positive.
//! - **D-games** ([`SplittingGame::d_game`], Li & Marsland Definition 3.1 with conditions 2'
//!   and 3'; binary only, as in the paper): merit values are drawn top-down with the shared
//!   [`DependenceFactors`]; a leaf square is 1 exactly when its merit value is a win.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::Game;
use crate::analytic::dgame::{DependenceFactors, check_unit};
use crate::error::{Error, Result};
use crate::model::Player;

/// The largest board the games build (`b^h` squares).
pub const MAX_SQUARES: u64 = 1 << 26;

/// A filled board of a board-splitting game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplittingGame {
    branching: u32,
    height: u32,
    rows: u32,
    cols: u32,
    /// Row-major squares.
    squares: Vec<bool>,
}

/// A position: the remaining rectangle of the board and its height (moves left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Region {
    /// First row.
    pub row: u32,
    /// First column.
    pub col: u32,
    /// Number of rows.
    pub rows: u32,
    /// Number of columns.
    pub cols: u32,
    /// Moves left until a single square remains.
    pub height: u32,
}

/// Probability thresholds of a D-game, for drawing children's merit values level by level
/// with one 32-bit random number per interior node (conditions 2' and 3').
///
/// Every interior node draws `r` uniform on `[0, 2^32)`, whether or not it needs it (so the
/// generation has no data-dependent branches). A win Max node (condition 2') or a loss Min node
/// (condition 3') gives both children its merit value when `r < f 2^32` (`f = f1` or `f2`, used
/// to 32 bits: an error below `2.4e-10`), and otherwise the parity of `r` picks which child
/// differs: the first when `r` is even (uniform up to `1/((1 - f) 2^32)`). A loss Max node has
/// two loss children and a win Min node two win children. The levels are drawn from the top
/// down, nodes in tree order within a level (`fill` on the level's slice of random numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DGameDraw {
    same_max: u64,
    same_min: u64,
}

/// Threshold meaning "always the same merit value": above every 32-bit draw.
const ALWAYS: u64 = 1 << 32;

impl DGameDraw {
    /// Thresholds for the given dependence factors.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::DependenceFactors;
    /// use pathology::games::splitting::DGameDraw;
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    /// // f1 = f2 = 1: every node passes its merit value on to both children.
    /// let draw = DGameDraw::new(&DependenceFactors::new(1.0, 1.0).unwrap());
    /// assert_eq!(draw.leaves(3, true, &mut rng), vec![1; 8]);
    /// assert_eq!(draw.leaves(3, false, &mut rng), vec![0; 8]);
    /// ```
    pub fn new(factors: &DependenceFactors<f64>) -> Self {
        // f = 1 gives 2^32 = ALWAYS.
        let threshold = |f: f64| (f * 2f64.powi(32)) as u64;
        DGameDraw {
            same_max: threshold(*factors.f1()),
            same_min: threshold(*factors.f2()),
        }
    }

    /// Expands `nodes` (merit values, 1 = win for Max, of consecutive nodes of height
    /// `height`, in tree order) in place into the leaves below them, in tree order.
    /// `randoms` is scratch space.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::DependenceFactors;
    /// use pathology::games::splitting::DGameDraw;
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    /// let draw = DGameDraw::new(&DependenceFactors::new(0.0, 0.0).unwrap());
    /// let mut nodes = vec![1u8]; // a win Max node of height 1, f1 = 0
    /// draw.expand(1, &mut nodes, &mut rng, &mut Vec::new());
    /// assert_eq!(nodes.iter().sum::<u8>(), 1); // exactly one win leaf
    /// ```
    pub fn expand(
        &self,
        height: u32,
        nodes: &mut Vec<u8>,
        rng: &mut ChaCha8Rng,
        randoms: &mut Vec<u32>,
    ) {
        self.expand_between(height, 0, nodes, rng, randoms);
    }

    /// Expands `nodes` (merit values of consecutive nodes of height `top`, in tree order) in
    /// place into their descendants of height `bottom <= top`, in tree order: the levels
    /// `top, top - 1, ..., bottom + 1` are drawn exactly as [`DGameDraw::expand`] draws them
    /// (which is `expand_between(height, 0, ..)`). Used where the search frontier is not the
    /// bottom of the game, e.g. the Max nodes of height 1 under a Max root of height `2K + 1`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::DependenceFactors;
    /// use pathology::games::splitting::DGameDraw;
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    /// let draw = DGameDraw::new(&DependenceFactors::new(0.5, 0.5).unwrap());
    /// let mut nodes = vec![0u8]; // a loss Max node of height 3
    /// draw.expand_between(3, 1, &mut nodes, &mut rng, &mut Vec::new());
    /// assert_eq!(nodes.len(), 4); // its grandchildren, Max nodes of height 1
    /// ```
    pub fn expand_between(
        &self,
        top: u32,
        bottom: u32,
        nodes: &mut Vec<u8>,
        rng: &mut ChaCha8Rng,
        randoms: &mut Vec<u32>,
    ) {
        for t in (bottom + 1..=top).rev() {
            let (threshold_win, threshold_loss) = match Player::to_move_at_height(t) {
                Player::Max => (self.same_max, ALWAYS),
                Player::Min => (ALWAYS, self.same_min),
            };
            let n = nodes.len();
            randoms.resize(n, 0);
            rng.fill(&mut randoms[..]);
            nodes.resize(2 * n, 0);
            // In place from the end: node i's children go to 2i and 2i + 1 >= i.
            for i in (0..n).rev() {
                let win = nodes[i];
                let r = randoms[i];
                let threshold = if win == 1 {
                    threshold_win
                } else {
                    threshold_loss
                };
                let mixed = u8::from(u64::from(r) >= threshold);
                let odd = (r & 1) as u8;
                nodes[2 * i] = win ^ (mixed & (odd ^ 1));
                nodes[2 * i + 1] = win ^ (mixed & odd);
            }
        }
    }

    /// The leaves (tree order, 1 = win) of a D-game subtree whose root has the given height and
    /// merit value.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::DependenceFactors;
    /// use pathology::games::splitting::DGameDraw;
    /// use pathology::sim::level_tree::LevelTree;
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(2);
    /// let draw = DGameDraw::new(&DependenceFactors::new(0.5, 0.5).unwrap());
    /// let tree = LevelTree::new(2, 4).unwrap();
    /// let mut wins = Vec::new();
    /// for root_win in [false, true] {
    ///     let leaves = draw.leaves(4, root_win, &mut rng);
    ///     assert_eq!(leaves.len(), 16);
    ///     // Merit values are consistent: solving the leaves gives back the root's value.
    ///     let leaves: Vec<bool> = leaves.iter().map(|&x| x == 1).collect();
    ///     tree.solve(&leaves, &mut wins);
    ///     assert_eq!(wins[tree.index(4, 0)], root_win);
    /// }
    /// ```
    pub fn leaves(&self, height: u32, win: bool, rng: &mut ChaCha8Rng) -> Vec<u8> {
        let mut nodes = vec![u8::from(win)];
        self.expand(height, &mut nodes, rng, &mut Vec::new());
        nodes
    }

    /// A D-game tree of height `height >= 1` conditioned on its root having one win and one
    /// loss child (the only case where a decision matters, Li & Marsland Section 6.1): fills
    /// `leaves` with its `2^height` leaves in tree order and returns the index (0 or 1) of the
    /// win child. Which child wins is drawn first, with probability 1/2 each (conditions 2'
    /// and 3' give both orders equal weight).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::DependenceFactors;
    /// use pathology::games::splitting::DGameDraw;
    /// use pathology::sim::level_tree::LevelTree;
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(3);
    /// let draw = DGameDraw::new(&DependenceFactors::new(0.5, 0.5).unwrap());
    /// let (mut leaves, mut randoms) = (Vec::new(), Vec::new());
    /// let win_child = draw.conditioned_root(3, &mut rng, &mut leaves, &mut randoms);
    /// assert_eq!(leaves.len(), 8);
    /// // The root's children (height 2) are one win and one loss, as returned.
    /// let tree = LevelTree::new(2, 3).unwrap();
    /// let mut wins = Vec::new();
    /// tree.solve(&leaves.iter().map(|&x| x == 1).collect::<Vec<_>>(), &mut wins);
    /// assert!(wins[tree.index(2, win_child)]);
    /// assert!(!wins[tree.index(2, 1 - win_child)]);
    /// ```
    pub fn conditioned_root(
        &self,
        height: u32,
        rng: &mut ChaCha8Rng,
        leaves: &mut Vec<u8>,
        randoms: &mut Vec<u32>,
    ) -> usize {
        let win_child = usize::from(rng.random::<bool>());
        leaves.clear();
        leaves.extend([u8::from(win_child == 0), u8::from(win_child == 1)]);
        self.expand(height - 1, leaves, rng, randoms);
        win_child
    }
}

fn check_shape(branching: u32, height: u32) -> Result<()> {
    if branching < 2 {
        return Err(Error::invalid(
            "branching factor b",
            "at least 2",
            branching,
        ));
    }
    if height == 0 {
        return Err(Error::invalid("height", "at least 1", height));
    }
    let squares = u64::from(branching).checked_pow(height);
    if squares.is_none_or(|s| s > MAX_SQUARES) {
        return Err(crate::budget::refuse(
            format!("a board of b^h = {branching}^{height} squares"),
            "more than 2^26 squares".to_string(),
            format!("{MAX_SQUARES} squares"),
            "Use a smaller height or branching factor.",
        ));
    }
    Ok(())
}

impl SplittingGame {
    /// A board of height `height` and branching factor `branching` from its leaves in tree
    /// order (see the module docs).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::{Game, SplittingGame};
    /// // Height 3, b = 2: a 4 x 2 board; the root mover cuts rows.
    /// let leaves: Vec<bool> = (0..8).map(|i| i == 5).collect();
    /// let game = SplittingGame::from_leaves(2, 3, &leaves).unwrap();
    /// assert_eq!((game.rows(), game.cols()), (4, 2));
    /// let mut state = game.root();
    /// for mv in [1, 0, 1] { // leaf 5 = 101 in binary
    ///     state = game.play(&state, mv);
    /// }
    /// assert_eq!(game.utility(&state), Some(1.0));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] when `branching < 2`, `height = 0` or the number of leaves
    /// is not `branching^height`; [`Error::TooExpensive`] above [`MAX_SQUARES`] squares.
    pub fn from_leaves(branching: u32, height: u32, leaves: &[bool]) -> Result<Self> {
        check_shape(branching, height)?;
        let count = (branching as usize).pow(height);
        if leaves.len() != count {
            return Err(Error::invalid(
                "leaves",
                &format!("{count} values (b^h)"),
                leaves.len(),
            ));
        }
        let rows = branching.pow(height.div_ceil(2));
        let cols = branching.pow(height / 2);
        let mut squares = vec![false; count];
        let b = branching as usize;
        for (index, &value) in leaves.iter().enumerate() {
            let (mut row, mut col) = (0usize, 0usize);
            let mut rest = index;
            let mut place = count;
            for t in (1..=height).rev() {
                place /= b;
                let digit = rest / place;
                rest %= place;
                if (height - t).is_multiple_of(2) {
                    row = row * b + digit;
                } else {
                    col = col * b + digit;
                }
            }
            squares[row * cols as usize + col] = value;
        }
        Ok(SplittingGame {
            branching,
            height,
            rows,
            cols,
            squares,
        })
    }

    /// A P-game: every square 1 with probability `p` (use [`crate::analytic::closed_form::w_b`] for
    /// Pearl's `w_b`), drawn in tree order.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::SplittingGame;
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(7);
    /// let game = SplittingGame::p_game(3, 4, 0.5, &mut rng).unwrap();
    /// assert_eq!((game.rows(), game.cols()), (9, 9));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`SplittingGame::from_leaves`], and [`Error::InvalidArgument`] naming `p` outside
    /// `[0, 1]`.
    pub fn p_game(branching: u32, height: u32, p: f64, rng: &mut ChaCha8Rng) -> Result<Self> {
        check_unit("p", &p)?;
        check_shape(branching, height)?;
        let leaves: Vec<bool> = (0..(branching as usize).pow(height))
            .map(|_| rng.random::<f64>() < p)
            .collect();
        Self::from_leaves(branching, height, &leaves)
    }

    /// An N-game (Nau's incremental game): every tree edge `+1` with probability `q`, `-1`
    /// otherwise (drawn depth first, children in move order); a square is 1 when the sum of
    /// the edges on its path from the root is positive.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::SplittingGame;
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(7);
    /// // q = 1: every edge is +1, so every path sum is positive.
    /// let game = SplittingGame::n_game(2, 4, 1.0, &mut rng).unwrap();
    /// assert_eq!(game.count_ones(&game.root()), 16);
    /// // q = 0: every path sum is negative.
    /// let game = SplittingGame::n_game(3, 3, 0.0, &mut rng).unwrap();
    /// assert_eq!(game.count_ones(&game.root()), 0);
    /// assert!(SplittingGame::n_game(2, 4, 1.5, &mut rng).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// As [`SplittingGame::p_game`], naming `q`.
    pub fn n_game(branching: u32, height: u32, q: f64, rng: &mut ChaCha8Rng) -> Result<Self> {
        check_unit("q", &q)?;
        check_shape(branching, height)?;
        let mut leaves = Vec::with_capacity((branching as usize).pow(height));
        fn walk(b: u32, t: u32, sum: i64, q: f64, rng: &mut ChaCha8Rng, out: &mut Vec<bool>) {
            if t == 0 {
                out.push(sum > 0);
                return;
            }
            for _ in 0..b {
                let edge = if rng.random::<f64>() < q { 1 } else { -1 };
                walk(b, t - 1, sum + edge, q, rng, out);
            }
        }
        walk(branching, height, 0, q, rng, &mut leaves);
        Self::from_leaves(branching, height, &leaves)
    }

    /// A binary D-game of height `height`: the root is a win with probability `p0`
    /// (condition 1), children's merit values follow conditions 2' and 3'
    /// ([`DGameDraw::leaves`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::DependenceFactors;
    /// use pathology::games::SplittingGame;
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    /// let factors = DependenceFactors::new(1.0, 1.0).unwrap();
    /// // f1 = f2 = 1: all leaves share the root's merit value.
    /// let game = SplittingGame::d_game(4, &factors, 1.0, &mut rng).unwrap();
    /// assert_eq!(game.count_ones(&game.root()), 16);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `p0` outside `[0, 1]`, or a bad height.
    pub fn d_game(
        height: u32,
        factors: &DependenceFactors<f64>,
        p0: f64,
        rng: &mut ChaCha8Rng,
    ) -> Result<Self> {
        check_unit("p0", &p0)?;
        check_shape(2, height)?;
        let root_win = rng.random::<f64>() < p0;
        let leaves = DGameDraw::new(factors).leaves(height, root_win, rng);
        let leaves: Vec<bool> = leaves.into_iter().map(|x| x == 1).collect();
        Self::from_leaves(2, height, &leaves)
    }

    /// The starting position: the whole board.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::SplittingGame;
    /// let game = SplittingGame::from_leaves(2, 3, &[false; 8]).unwrap();
    /// let root = game.root();
    /// assert_eq!((root.row, root.col, root.rows, root.cols), (0, 0, 4, 2));
    /// assert_eq!(root.height, 3);
    /// ```
    pub fn root(&self) -> Region {
        Region {
            row: 0,
            col: 0,
            rows: self.rows,
            cols: self.cols,
            height: self.height,
        }
    }

    /// Number of rows, `b^ceil(h/2)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::SplittingGame;
    /// // b = 3, h = 5: 3^3 rows.
    /// let game = SplittingGame::from_leaves(3, 5, &[false; 243]).unwrap();
    /// assert_eq!(game.rows(), 27);
    /// ```
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Number of columns, `b^floor(h/2)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::SplittingGame;
    /// // b = 3, h = 5: 3^2 columns.
    /// let game = SplittingGame::from_leaves(3, 5, &[false; 243]).unwrap();
    /// assert_eq!(game.cols(), 9);
    /// ```
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// The branching factor b.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::SplittingGame;
    /// let game = SplittingGame::from_leaves(3, 2, &[false; 9]).unwrap();
    /// assert_eq!(game.branching(), 3);
    /// ```
    pub fn branching(&self) -> u32 {
        self.branching
    }

    /// The square at (row, column).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::SplittingGame;
    /// // Leaf 5 = moves 1, 0, 1: bottom half of the rows, left column, then the lower row.
    /// let leaves: Vec<bool> = (0..8).map(|i| i == 5).collect();
    /// let game = SplittingGame::from_leaves(2, 3, &leaves).unwrap();
    /// assert!(game.square(3, 0));
    /// assert!(!game.square(2, 0) && !game.square(3, 1));
    /// ```
    pub fn square(&self, row: u32, col: u32) -> bool {
        self.squares[(row * self.cols + col) as usize]
    }

    /// Nau's piece count psi: the number of 1-squares in the region.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::{Game, SplittingGame};
    /// let leaves: Vec<bool> = (0..8).map(|i| i < 3).collect(); // leaves 0, 1, 2
    /// let game = SplittingGame::from_leaves(2, 3, &leaves).unwrap();
    /// assert_eq!(game.count_ones(&game.root()), 3);
    /// assert_eq!(game.count_ones(&game.play(&game.root(), 0)), 3); // leaves 0..4
    /// assert_eq!(game.count_ones(&game.play(&game.root(), 1)), 0); // leaves 4..8
    /// ```
    pub fn count_ones(&self, region: &Region) -> u32 {
        (region.row..region.row + region.rows)
            .map(|r| {
                let start = (r * self.cols + region.col) as usize;
                self.squares[start..start + region.cols as usize]
                    .iter()
                    .filter(|&&s| s)
                    .count() as u32
            })
            .sum()
    }

    fn cuts_rows(&self, region: &Region) -> bool {
        (self.height - region.height).is_multiple_of(2)
    }
}

impl Game for SplittingGame {
    type State = Region;
    type Move = u32;

    fn to_move(&self, state: &Region) -> Player {
        Player::to_move_at_height(state.height)
    }

    fn moves(&self, state: &Region) -> Vec<u32> {
        if state.height == 0 {
            Vec::new()
        } else {
            (0..self.branching).collect()
        }
    }

    fn play(&self, state: &Region, mv: u32) -> Region {
        let mut next = *state;
        next.height -= 1;
        if self.cuts_rows(state) {
            next.rows /= self.branching;
            next.row += mv * next.rows;
        } else {
            next.cols /= self.branching;
            next.col += mv * next.cols;
        }
        next
    }

    fn utility(&self, state: &Region) -> Option<f64> {
        (state.height == 0).then(|| f64::from(u8::from(self.square(state.row, state.col))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn rng(seed: u64) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(seed)
    }

    /// The leaf reached by a move sequence is the leaf with that tree-order index.
    #[test]
    fn paths_reach_their_tree_order_leaf() {
        for (b, h) in [(2u32, 5u32), (3, 4), (2, 1), (4, 3)] {
            let n = (b as usize).pow(h);
            for target in 0..n {
                let leaves: Vec<bool> = (0..n).map(|i| i == target).collect();
                let game = SplittingGame::from_leaves(b, h, &leaves).unwrap();
                let mut state = game.root();
                let mut place = n;
                for _ in 0..h {
                    place /= b as usize;
                    state = game.play(&state, ((target / place) % b as usize) as u32);
                }
                assert_eq!(game.utility(&state), Some(1.0), "b={b} h={h} leaf {target}");
                assert_eq!(game.count_ones(&game.root()), 1);
            }
        }
    }

    #[test]
    fn board_shape_follows_the_heights() {
        let game = SplittingGame::p_game(3, 5, 0.4, &mut rng(1)).unwrap();
        assert_eq!((game.rows(), game.cols()), (27, 9));
        assert!(SplittingGame::p_game(1, 5, 0.4, &mut rng(1)).is_err());
        let err = SplittingGame::p_game(2, 5, 1.4, &mut rng(1)).unwrap_err();
        assert!(err.to_string().starts_with("p must be in [0, 1]"));
        assert!(matches!(
            SplittingGame::p_game(2, 40, 0.4, &mut rng(1)),
            Err(Error::TooExpensive { .. })
        ));
    }

    #[test]
    fn w_b_solves_its_equation() {
        for b in 2..=6 {
            let w = crate::analytic::closed_form::w_b(b).unwrap();
            assert!(((1.0 - w).powi(b as i32) - w).abs() < 1e-15, "b = {b}");
        }
    }

    /// D-game leaves respect the merit values: a loss Max node's leaves are all 0 below a
    /// loss root when f2 = 1 (the whole tree is a loss).
    #[test]
    fn d_game_draws_follow_conditions() {
        let factors = DependenceFactors::new(0.0, 1.0).unwrap();
        let draw = DGameDraw::new(&factors);
        // Height 6 root is a Min node; loss with f2 = 1 keeps every node a loss.
        let leaves = draw.leaves(6, false, &mut rng(3));
        assert_eq!(leaves.len(), 64);
        assert!(leaves.iter().all(|&x| x == 0));
        // f1 = 0: a win Max node at height 1 has exactly one win leaf.
        for seed in 0..50 {
            let two = draw.leaves(1, true, &mut rng(seed));
            assert_eq!(two[0] + two[1], 1);
        }
    }

    /// Frequencies of the mixed-children draw: f, (1 - f)/2, (1 - f)/2.
    #[test]
    fn d_game_child_frequencies() {
        const TOLERANCE: f64 = 0.01;
        let factors = DependenceFactors::new(0.3, 0.6).unwrap();
        let draw = DGameDraw::new(&factors);
        let mut r = rng(11);
        let n = 100_000;
        let mut counts = [0u32; 3];
        for _ in 0..n {
            match draw.leaves(1, true, &mut r)[..] {
                [1, 1] => counts[0] += 1,
                [0, 1] => counts[1] += 1,
                [1, 0] => counts[2] += 1,
                _ => panic!("a win Max node needs a win child"),
            }
        }
        let freq = counts.map(|c| f64::from(c) / f64::from(n));
        assert!((freq[0] - 0.3).abs() < TOLERANCE, "{freq:?}");
        assert!((freq[1] - 0.35).abs() < TOLERANCE, "{freq:?}");
        assert!((freq[2] - 0.35).abs() < TOLERANCE, "{freq:?}");
        assert_eq!(draw.leaves(1, false, &mut r), vec![0, 0]); // loss Max
        assert_eq!(draw.leaves(2, true, &mut r).len(), 4);
        // A loss Min node (height 2) with f2 = 0.6: two loss children with probability 0.6.
        let both_loss = (0..n)
            .filter(|_| draw.leaves(2, false, &mut r).iter().all(|&x| x == 0))
            .count();
        assert!((f64::from(both_loss as u32) / f64::from(n) - 0.6).abs() < TOLERANCE);
    }

    #[test]
    fn n_game_squares_follow_path_sums() {
        // q = 1: every edge +1, every square 1. q = 0: every square 0.
        let all = SplittingGame::n_game(3, 4, 1.0, &mut rng(2)).unwrap();
        assert_eq!(all.count_ones(&all.root()), 81);
        let none = SplittingGame::n_game(3, 4, 0.0, &mut rng(2)).unwrap();
        assert_eq!(none.count_ones(&none.root()), 0);
    }
}
