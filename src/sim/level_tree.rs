//! Complete b-ary game trees stored level by level, for the fast paths of the match and EMM
//! studies ([`crate::studies::chi_nau::matches`], [`crate::studies::wilson_parker_nau::study`]).
//!
//! A board-splitting game of height `H` and branching factor `b` ([`crate::games::splitting`])
//! is a complete b-ary tree. Here every node gets a **flat index**: the nodes of height `t` (a
//! *level*, `b^(H - t)` of them) are stored in tree order from [`LevelTree::offset`]`(t)`, the
//! leaves (height 0) first and the root last. Node `i` of height `t` has the children
//! `b i, ..., b i + b - 1` of height `t - 1`, its k-th child being move `k`. Leaves are in the
//! tree order of [`crate::games::SplittingGame::from_leaves`], so a leaf array drawn here is
//! the board drawn by [`crate::games::SplittingGame::p_game`] or
//! [`crate::games::SplittingGame::n_game`] from the same stream (tested), and per-node data
//! (true values, evaluations) are plain arrays that searches index without allocating.
//!
//! Conventions ([`crate::model`]): a 1-square is a win for Max, the player who moves last, and
//! a node of odd height is a Max node.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::games::{Game, Region, SplittingGame};
use crate::model::Player;

/// The largest number of leaves the studies accept (`2^22`: per-node arrays of a few tens of
/// megabytes per thread).
pub const MAX_LEAVES: u64 = 1 << 22;

/// The shape of a complete b-ary tree and the flat indices of its levels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelTree {
    branching: usize,
    height: u32,
    /// `offsets[t]` is the flat index of the first node of height `t`; `offsets[H + 1]` the
    /// number of nodes.
    offsets: Vec<usize>,
}

impl LevelTree {
    /// The shape of a tree of branching factor `branching >= 2` and height `height >= 1`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::LevelTree;
    /// let tree = LevelTree::new(2, 3).unwrap();
    /// assert_eq!((tree.len(), tree.width(0), tree.offset(3)), (15, 8, 14));
    /// assert!(LevelTree::new(1, 3).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--branching` or `--height`;
    /// [`Error::TooExpensive`] above [`MAX_LEAVES`] leaves.
    pub fn new(branching: u32, height: u32) -> Result<Self> {
        if branching < 2 {
            return Err(Error::invalid("--branching", "at least 2", branching));
        }
        if height == 0 {
            return Err(Error::invalid("--height", "at least 1", height));
        }
        let leaves = u64::from(branching).checked_pow(height);
        if leaves.is_none_or(|n| n > MAX_LEAVES) {
            return Err(crate::budget::refuse(
                format!("a board of b^h = {branching}^{height} squares"),
                "more than 2^22 squares".to_string(),
                format!("{MAX_LEAVES} squares"),
                "Use a smaller --height or --branching.",
            ));
        }
        let b = branching as usize;
        let mut offsets = Vec::with_capacity(height as usize + 2);
        let mut width = b.pow(height);
        let mut total = 0;
        for _ in 0..=height {
            offsets.push(total);
            total += width;
            width /= b;
        }
        offsets.push(total);
        Ok(LevelTree {
            branching: b,
            height,
            offsets,
        })
    }

    /// The branching factor b.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::LevelTree;
    /// assert_eq!(LevelTree::new(3, 4).unwrap().branching(), 3);
    /// ```
    pub fn branching(&self) -> usize {
        self.branching
    }

    /// The height H of the root.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::LevelTree;
    /// assert_eq!(LevelTree::new(3, 4).unwrap().height(), 4);
    /// ```
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The number of nodes.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::LevelTree;
    /// assert_eq!(LevelTree::new(3, 4).unwrap().len(), 1 + 3 + 9 + 27 + 81);
    /// ```
    pub fn len(&self) -> usize {
        self.offsets[self.height as usize + 1]
    }

    /// Whether the tree has no nodes (never: the root exists).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::LevelTree;
    /// let tree = LevelTree::new(2, 1).unwrap();
    /// assert!(!tree.is_empty());
    /// assert_eq!(tree.len(), 3);
    /// ```
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The flat index of the first node of height `t`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::LevelTree;
    /// let tree = LevelTree::new(2, 3).unwrap(); // 8 leaves, 4, 2, then the root
    /// let offsets: Vec<usize> = (0..=3).map(|t| tree.offset(t)).collect();
    /// assert_eq!(offsets, vec![0, 8, 12, 14]);
    /// ```
    pub fn offset(&self, t: u32) -> usize {
        self.offsets[t as usize]
    }

    /// The number of nodes of height `t`, `b^(H - t)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::LevelTree;
    /// let tree = LevelTree::new(3, 2).unwrap();
    /// assert_eq!([tree.width(0), tree.width(1), tree.width(2)], [9, 3, 1]);
    /// ```
    pub fn width(&self, t: u32) -> usize {
        self.offsets[t as usize + 1] - self.offsets[t as usize]
    }

    /// The flat index of node `i` of height `t`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::LevelTree;
    /// let tree = LevelTree::new(2, 3).unwrap();
    /// assert_eq!(tree.index(1, 3), 11); // the last node of height 1
    /// assert_eq!(tree.index(3, 0), tree.len() - 1); // the root is last
    /// ```
    pub fn index(&self, t: u32, i: usize) -> usize {
        self.offsets[t as usize] + i
    }

    /// The true values (win for Max) of every node, from the leaves' values: a Max node
    /// (odd height) wins when some child wins, a Min node when every child does.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::LevelTree;
    /// let tree = LevelTree::new(2, 2).unwrap(); // root Min over two Max nodes
    /// let mut wins = Vec::new();
    /// tree.solve(&[true, false, false, false], &mut wins);
    /// assert_eq!(wins, vec![true, false, false, false, true, false, false]);
    /// ```
    pub fn solve(&self, leaves: &[bool], wins: &mut Vec<bool>) {
        wins.clear();
        wins.extend_from_slice(leaves);
        wins.resize(self.len(), false);
        let b = self.branching;
        for t in 1..=self.height {
            let (below, here) = (self.offset(t - 1), self.offset(t));
            let max_node = Player::to_move_at_height(t) == Player::Max;
            for i in 0..self.width(t) {
                let children = &wins[below + b * i..below + b * i + b];
                wins[here + i] = if max_node {
                    children.iter().any(|&w| w)
                } else {
                    children.iter().all(|&w| w)
                };
            }
        }
    }

    /// The number of 1-squares below every node (Nau's psi), by sums over children.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::LevelTree;
    /// let tree = LevelTree::new(2, 2).unwrap();
    /// let mut ones = Vec::new();
    /// tree.count_ones(&[true, false, true, true], &mut ones);
    /// assert_eq!(ones, vec![1, 0, 1, 1, 1, 2, 3]);
    /// ```
    pub fn count_ones(&self, leaves: &[bool], ones: &mut Vec<u32>) {
        ones.clear();
        ones.extend(leaves.iter().map(|&x| u32::from(x)));
        ones.resize(self.len(), 0);
        let b = self.branching;
        for t in 1..=self.height {
            let (below, here) = (self.offset(t - 1), self.offset(t));
            for i in 0..self.width(t) {
                ones[here + i] = ones[below + b * i..below + b * i + b].iter().sum();
            }
        }
    }

    /// The region of every node of `game` (a board of this shape), in flat order: for
    /// evaluators written against the [`Game`] trait, and to check the fast paths against it.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::{Game, SplittingGame};
    /// use pathology::sim::level_tree::LevelTree;
    /// let game = SplittingGame::from_leaves(2, 3, &[false; 8]).unwrap();
    /// let tree = LevelTree::new(2, 3).unwrap();
    /// let regions = tree.regions(&game);
    /// assert_eq!(regions[tree.index(3, 0)], game.root());
    /// assert_eq!(regions[tree.index(2, 1)], game.play(&game.root(), 1));
    /// ```
    pub fn regions(&self, game: &SplittingGame) -> Vec<Region> {
        let mut regions = vec![game.root(); self.len()];
        let b = self.branching;
        for t in (1..=self.height).rev() {
            let (below, here) = (self.offset(t - 1), self.offset(t));
            for i in 0..self.width(t) {
                let parent = regions[here + i];
                for k in 0..b {
                    regions[below + b * i + k] = game.play(&parent, k as u32);
                }
            }
        }
        regions
    }
}

/// Which board-splitting game a study draws its boards from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// P-games: every square 1 with probability p, independently.
    P,
    /// N-games: every tree edge +1 with probability p, -1 otherwise; a square is 1 when the
    /// sum on its path is positive.
    N,
}

impl GameKind {
    /// The name used in file names and reports (`p` or `n`).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::GameKind;
    /// assert_eq!((GameKind::P.name(), GameKind::N.name()), ("p", "n"));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            GameKind::P => "p",
            GameKind::N => "n",
        }
    }

    /// The default parameter: `w_b` for P-games (every level of the tree is then a win for
    /// Max's opponent with the same probability, Pearl's level-invariant choice, Chi & Nau's
    /// `xi = 0.382` for b = 2), 1/2 for N-games (Nau 1982).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::GameKind;
    /// let xi = GameKind::P.default_parameter(2).unwrap();
    /// assert!((xi - (3.0 - 5f64.sqrt()) / 2.0).abs() < 1e-12); // w_2 = 0.382
    /// assert_eq!(GameKind::N.default_parameter(3).unwrap(), 0.5);
    /// assert!(GameKind::P.default_parameter(1).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`crate::Error::InvalidArgument`] naming `branching` when it is below 2 (P-games).
    pub fn default_parameter(self, branching: u32) -> Result<f64> {
        match self {
            GameKind::P => crate::analytic::closed_form::w_b(branching),
            GameKind::N => Ok(0.5),
        }
    }

    /// The square (P-games) or edge (N-games) probability `given`, or the default
    /// ([`GameKind::default_parameter`]) with its error naming `--branching`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::GameKind;
    /// assert_eq!(GameKind::N.parameter_or_default(2, None).unwrap(), 0.5);
    /// assert_eq!(GameKind::P.parameter_or_default(2, Some(0.3)).unwrap(), 0.3);
    /// assert_eq!(GameKind::P.parameter_or_default(1, None).unwrap_err().to_string(),
    ///     "--branching must be at least 2, got 1");
    /// ```
    ///
    /// # Errors
    ///
    /// [`crate::Error::InvalidArgument`] naming `--branching` when it is below 2 (P-games).
    pub fn parameter_or_default(self, branching: u32, given: Option<f64>) -> Result<f64> {
        match given {
            Some(p) => Ok(p),
            None => self
                .default_parameter(branching)
                .map_err(|_| crate::Error::invalid("--branching", "at least 2", branching)),
        }
    }
}

/// A random board: its kind, shape and parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardSpec {
    /// P-game or N-game.
    pub kind: GameKind,
    /// The shape.
    pub tree: LevelTree,
    /// The square probability (P-games) or the edge probability (N-games).
    pub parameter: f64,
}

impl BoardSpec {
    /// A board spec.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// let spec = BoardSpec::new(GameKind::P, 2, 4, 0.5).unwrap();
    /// assert_eq!(spec.tree.len(), 31);
    /// assert!(BoardSpec::new(GameKind::P, 2, 4, 1.5).is_err()); // p outside [0, 1]
    /// assert!(BoardSpec::new(GameKind::N, 2, 30, 0.5).is_err()); // 2^30 leaves
    /// ```
    ///
    /// # Errors
    ///
    /// As [`LevelTree::new`], and [`Error::InvalidArgument`] naming `--p` outside `[0, 1]`.
    pub fn new(kind: GameKind, branching: u32, height: u32, parameter: f64) -> Result<Self> {
        if !(0.0..=1.0).contains(&parameter) {
            return Err(Error::invalid("--p", "in [0, 1]", parameter));
        }
        Ok(BoardSpec {
            kind,
            tree: LevelTree::new(branching, height)?,
            parameter,
        })
    }

    /// Draws the leaves in tree order, exactly as [`SplittingGame::p_game`] and
    /// [`SplittingGame::n_game`] draw them from the same stream.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::{Game, SplittingGame};
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// use rand::SeedableRng;
    /// let spec = BoardSpec::new(GameKind::N, 3, 4, 0.5).unwrap();
    /// let mut leaves = Vec::new();
    /// spec.draw(&mut rand::rngs::ChaCha8Rng::seed_from_u64(3), &mut leaves);
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(3);
    /// let game = SplittingGame::n_game(3, 4, 0.5, &mut rng).unwrap();
    /// assert_eq!(game, SplittingGame::from_leaves(3, 4, &leaves).unwrap());
    /// ```
    pub fn draw(&self, rng: &mut ChaCha8Rng, leaves: &mut Vec<bool>) {
        leaves.clear();
        let b = self.tree.branching;
        let p = self.parameter;
        match self.kind {
            GameKind::P => leaves.extend((0..self.tree.width(0)).map(|_| rng.random::<f64>() < p)),
            GameKind::N => {
                // Depth first, children in move order, like SplittingGame::n_game (the
                // squares' edges drawn in a loop instead of a call per square).
                fn walk(
                    b: usize,
                    t: u32,
                    sum: i64,
                    q: f64,
                    rng: &mut ChaCha8Rng,
                    out: &mut Vec<bool>,
                ) {
                    if t == 1 {
                        for _ in 0..b {
                            let edge = if rng.random::<f64>() < q { 1 } else { -1 };
                            out.push(sum + edge > 0);
                        }
                        return;
                    }
                    for _ in 0..b {
                        let edge = if rng.random::<f64>() < q { 1 } else { -1 };
                        walk(b, t - 1, sum + edge, q, rng, out);
                    }
                }
                // The tree has height at least 1 (LevelTree::new).
                walk(b, self.tree.height, 0, p, rng, leaves);
            }
        }
    }

    /// The board of `leaves` as a [`SplittingGame`].
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::SplittingGame;
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// use rand::SeedableRng;
    /// let spec = BoardSpec::new(GameKind::P, 2, 4, 0.5).unwrap();
    /// let mut leaves = Vec::new();
    /// spec.draw(&mut rand::rngs::ChaCha8Rng::seed_from_u64(1), &mut leaves);
    /// let game = spec.game(&leaves).unwrap();
    /// assert_eq!(game, SplittingGame::from_leaves(2, 4, &leaves).unwrap());
    /// assert!(spec.game(&[true; 3]).is_err()); // not 2^4 leaves
    /// ```
    ///
    /// # Errors
    ///
    /// As [`SplittingGame::from_leaves`] (never for leaves drawn by [`BoardSpec::draw`]).
    pub fn game(&self, leaves: &[bool]) -> Result<SplittingGame> {
        SplittingGame::from_leaves(self.tree.branching as u32, self.tree.height, leaves)
    }
}

/// A uniform choice among the indices whose values are best for `player` (largest for Max,
/// smallest for Min), exactly as [`crate::search::minimax::choose_best`] does it (the same
/// draws from `rng`), without allocating for `values.len() <= 16`.
///
/// # Examples
///
/// ```
/// use pathology::sim::level_tree::choose_best_of;
/// use pathology::model::Player;
/// use pathology::search::minimax::choose_best;
/// use rand::SeedableRng;
/// let values = [0.2, 0.7, 0.7, 0.1];
/// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(4);
/// assert_eq!(choose_best_of(&values, Player::Min, &mut rng), 3);
/// // The same choice as choose_best from the same stream.
/// let mut a = rand::rngs::ChaCha8Rng::seed_from_u64(5);
/// let mut b = rand::rngs::ChaCha8Rng::seed_from_u64(5);
/// for _ in 0..20 {
///     let k = choose_best_of(&values, Player::Max, &mut a);
///     assert!(k == 1 || k == 2);
///     assert_eq!(k, choose_best(&values, Player::Max, &mut b));
/// }
/// ```
pub fn choose_best_of(values: &[f64], player: Player, rng: &mut ChaCha8Rng) -> usize {
    if values.len() > 16 {
        return crate::search::minimax::choose_best(values, player, rng);
    }
    let best = match player {
        Player::Max => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        Player::Min => values.iter().copied().fold(f64::INFINITY, f64::min),
    };
    let mut tied = [0usize; 16];
    let mut count = 0;
    for (i, &v) in values.iter().enumerate() {
        if v == best {
            tied[count] = i;
            count += 1;
        }
    }
    tied[crate::search::pick_uniform(rng, count)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::solve;
    use rand::SeedableRng;

    #[test]
    fn draws_match_the_splitting_games() {
        for (kind, b, h) in [
            (GameKind::P, 2, 6),
            (GameKind::P, 3, 5),
            (GameKind::N, 2, 7),
        ] {
            let spec = BoardSpec::new(kind, b, h, 0.4).unwrap();
            let mut leaves = Vec::new();
            spec.draw(&mut ChaCha8Rng::seed_from_u64(9), &mut leaves);
            let mut rng = ChaCha8Rng::seed_from_u64(9);
            let game = match kind {
                GameKind::P => SplittingGame::p_game(b, h, 0.4, &mut rng),
                GameKind::N => SplittingGame::n_game(b, h, 0.4, &mut rng),
            }
            .unwrap();
            assert_eq!(game, spec.game(&leaves).unwrap());
        }
    }

    /// The level arrays' true values and piece counts agree with the Game-trait solver.
    #[test]
    fn solve_and_counts_agree_with_the_game() {
        let spec = BoardSpec::new(GameKind::P, 3, 5, 0.45).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for _ in 0..5 {
            let mut leaves = Vec::new();
            spec.draw(&mut rng, &mut leaves);
            let game = spec.game(&leaves).unwrap();
            let (mut wins, mut ones) = (Vec::new(), Vec::new());
            spec.tree.solve(&leaves, &mut wins);
            spec.tree.count_ones(&leaves, &mut ones);
            for (n, region) in spec.tree.regions(&game).iter().enumerate() {
                assert_eq!(wins[n], solve(&game, region) == 1.0);
                assert_eq!(ones[n], game.count_ones(region));
            }
        }
    }

    #[test]
    fn choose_best_of_draws_like_choose_best() {
        let values = [0.5, 0.7, 0.7, 0.1, 0.7];
        for seed in 0..20 {
            let (mut a, mut b) = (
                ChaCha8Rng::seed_from_u64(seed),
                ChaCha8Rng::seed_from_u64(seed),
            );
            for player in [Player::Max, Player::Min] {
                assert_eq!(
                    choose_best_of(&values, player, &mut a),
                    crate::search::minimax::choose_best(&values, player, &mut b)
                );
            }
        }
    }

    #[test]
    fn bad_shapes_name_the_argument() {
        let e = LevelTree::new(2, 0).unwrap_err().to_string();
        assert!(e.contains("--height"), "{e}");
        let e = BoardSpec::new(GameKind::P, 2, 4, 1.5)
            .unwrap_err()
            .to_string();
        assert!(e.contains("--p"), "{e}");
        assert!(matches!(
            LevelTree::new(3, 30),
            Err(Error::TooExpensive { .. })
        ));
    }
}
