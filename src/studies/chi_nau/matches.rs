//! Minimax against the product rule: Chi & Nau (1987), Section 4.4 (the depth-11 table, `e1`
//! against `e2`) and Section 5 (Fig. 3: the fraction of games minimax wins against product
//! with the evaluator `e^w = w u + (1 - w) r`, as the rate of heuristic flaw varies).
//!
//! A **pair** is one random board played twice (Chi & Nau, footnote 5: "8000 randomly chosen
//! initial playing boards, with each player having a chance to move first"): once with minimax
//! moving first, once with product moving first. At each of its turns a player searches the
//! current node to the search depth `S` with its back-up rule (the children's depth-`(S-1)`
//! values, [`crate::search::minimax`](mod@crate::search::minimax), [`crate::search::product`](mod@crate::search::product)) and moves to a best child
//! for its side, **ties broken uniformly at random** (the trial's stream). The game ends on a
//! single square; a 1-square is a win for Max ([`crate::games::splitting`]), the player who
//! moves last, which is the first mover when the height is odd.
//!
//! Evaluators ([`MatchEvaluator`]), all from Max's side and exact on terminal squares (Chi &
//! Nau, Section 2: `e(n) = u(n)` on terminal nodes):
//!
//! - `e^w(n) = w u(n) + (1 - w) r(n)` (Section 5): `r(n)` is drawn once per node and board,
//!   uniform on [0, 1), so **both players see the same `r(n)` for the same node**;
//! - `e1`, the fraction of 1-squares, and `e2`, which also detects forced lines
//!   ([`crate::search::forced`], our reconstruction of Section 4.4's stronger evaluator).
//!
//! Boards are P-games with squares 1 with probability `xi = w_2 = 0.382` (Chi & Nau, footnote
//! 3) unless told otherwise.
//!
//! **Intervals.** The two games of a pair share a board, so they are not independent. The
//! estimate is the mean over pairs of the pair's score `X` (0, 1/2 or 1 games won by minimax
//! out of 2): the fraction of games won. Its 95% interval respects the pairing and is honest
//! at small n ([`PairCounts::interval`]): `z^2/2` pseudo-pairs scoring 0 and `z^2/2` scoring
//! 1 are added to the `n` pairs (`z = 1.96`), and the interval is the normal interval of the
//! adjusted sample, `m~ +- z sqrt(v~ / (n + z^2))` with `m~` and `v~` the adjusted mean and
//! (population) variance, clipped to [0, 1]. For outcomes in {0, 1} this is exactly the
//! Agresti-Coull interval (Agresti & Coull 1998, "Approximate is better than 'exact'"); here
//! it is the same adjustment for outcomes in [0, 1]. The plain normal interval of the pair
//! scores has zero width at one pair or when every pair splits 1-1; this one never does (the
//! pseudo-pairs alone give a half-width of at least `z^2 / (2 (n + z^2))`, which also bounds
//! the centre's shift towards 1/2, so the interval always contains the estimate). At n =
//! 8000 its ends are within 1e-4 of the plain interval's. Everything is computed from the
//! three counts of [`PairCounts`] (pairs won 0, 1, 2 by minimax), so sharded runs summed by
//! `pathology merge` give the unsharded output exactly. The unit test
//! `adjusted_interval_covers_at_small_n` measures its coverage by simulation.
//!
//! **Common random numbers.** [`sweep`] plays every `w` on the same boards with the same
//! `r(n)` (trial `i` draws board `i` and its `r` once and plays it for every `w`), so
//! differences between points come from `w` alone; [`depth_table`] likewise plays every
//! search depth and both evaluators on the same boards.
//!
//! **What our reruns show** (seed 1):
//!
//! - *Fig. 3* (8000 pairs per w): minimax does better than product when rhf is small (51.1% at
//!   rhf = 0, 51.5% at rhf = 0.0014, above 50% for rhf below about 0.025), and worse in the
//!   middle (48.7% near rhf = 0.09-0.12, intervals about +-0.4%), as Chi & Nau found; but at
//!   the largest rhf (w near 0, evaluations pure noise) the match is even again (50.0% at
//!   rhf = 0.236), so "product does significantly better when rhf is large" holds for the
//!   middle of the range, not at its top: the relation is not monotone, as the paper says.
//! - *The depth-11 table* (3200 pairs per depth, our reconstruction of `e2`): 14 of the
//!   paper's 16 cells lie inside our 95% intervals and the other two just outside (depth 5, e1:
//!   49.4% [48.3, 50.5] against 50.7%; depth 8, e2: 49.2% [48.7, 49.7] against 48.6%). As in
//!   the paper, e2 helps minimax most at depths 6-9 (depth 8: e1 44.6%, e2 49.2%); at depth 9
//!   with e2 every pair split, 50.0% [49.9, 50.1] against the paper's 50.0% (the plain normal
//!   interval of earlier versions printed the zero-width [50.0, 50.0] there).
//!
//! **Fast path.** A board is a [`LevelTree`] with per-node arrays (true values, static
//! evaluations); a decision searches the flat arrays recursively. The unit tests replay games
//! through the generic searches of [`crate::search`] on a real [`SplittingGame`](crate::games::SplittingGame) and get the
//! same moves and the same random draws.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::model::Player;
use crate::search::evaluators::{Evaluator, NaturalFraction};
use crate::search::forced::ForcedLines;
use crate::sim::level_tree::{BoardSpec, GameKind, LevelTree, choose_best_of};
use crate::sim::runner::TrialRunner;
use crate::sim::stats::{Comparison, Proportion, Z_95};

/// A back-up rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// Minimax.
    Minimax,
    /// The product rule.
    Product,
}

/// The static evaluator both players use.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "lowercase", tag = "evaluator")]
pub enum MatchEvaluator {
    /// Chi & Nau's `e^w = w u + (1 - w) r` with weight `w` in [0, 1].
    Weighted {
        /// The weight w.
        w: f64,
    },
    /// `e1`: the fraction of 1-squares.
    Natural,
    /// `e2`: `e1` with forced lines detected ([`crate::search::forced`]).
    Forced,
}

impl MatchEvaluator {
    /// A short name: `e^w`, `e1` or `e2`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::chi_nau::matches::MatchEvaluator;
    /// assert_eq!(MatchEvaluator::Weighted { w: 0.5 }.name(), "e^w (w = 0.5)");
    /// assert_eq!(MatchEvaluator::Natural.name(), "e1");
    /// assert_eq!(MatchEvaluator::Forced.name(), "e2");
    /// ```
    pub fn name(&self) -> String {
        match self {
            MatchEvaluator::Weighted { w } => format!("e^w (w = {w})"),
            MatchEvaluator::Natural => "e1".to_string(),
            MatchEvaluator::Forced => "e2".to_string(),
        }
    }
}

/// One board with everything the players need, in flat arrays ([`LevelTree`]).
#[derive(Debug, Clone, Default)]
pub struct Board {
    /// The leaves (1-squares), tree order.
    pub leaves: Vec<bool>,
    /// The true value of every node (win for Max).
    pub wins: Vec<bool>,
    /// `r(n)` for every node (used by `e^w`).
    pub noise: Vec<f64>,
    /// The static evaluation of every node (exact at the leaves).
    pub statics: Vec<f64>,
}

impl Board {
    /// Draws a board and its `r(n)` (one uniform per node, in flat order, after the leaves).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// use pathology::studies::chi_nau::matches::Board;
    /// use rand::SeedableRng;
    /// let spec = BoardSpec::new(GameKind::P, 2, 4, 0.382).unwrap();
    /// let mut board = Board::default();
    /// board.draw(&spec, &mut rand::rngs::ChaCha8Rng::seed_from_u64(1));
    /// assert_eq!(board.leaves.len(), 16);
    /// assert_eq!((board.wins.len(), board.noise.len()), (31, 31));
    /// assert_eq!(&board.wins[..16], &board.leaves[..]); // a leaf's true value is its square
    /// assert!(board.noise.iter().all(|r| (0.0..1.0).contains(r)));
    /// ```
    pub fn draw(&mut self, spec: &BoardSpec, rng: &mut ChaCha8Rng) {
        spec.draw(rng, &mut self.leaves);
        spec.tree.solve(&self.leaves, &mut self.wins);
        self.noise.clear();
        self.noise
            .extend((0..spec.tree.len()).map(|_| rng.random::<f64>()));
    }

    /// Fills [`Board::statics`] for `evaluator` (leaves get their utility).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// use pathology::studies::chi_nau::matches::{Board, MatchEvaluator};
    /// use rand::SeedableRng;
    /// let spec = BoardSpec::new(GameKind::P, 2, 4, 0.382).unwrap();
    /// let mut board = Board::default();
    /// board.draw(&spec, &mut rand::rngs::ChaCha8Rng::seed_from_u64(1));
    /// // w = 1: the evaluation is the true value.
    /// board.evaluate(&spec, MatchEvaluator::Weighted { w: 1.0 }).unwrap();
    /// assert!(board.statics.iter().zip(&board.wins).all(|(&v, &u)| v == f64::from(u8::from(u))));
    /// // e1 at the root: the fraction of 1-squares on the board.
    /// board.evaluate(&spec, MatchEvaluator::Natural).unwrap();
    /// let ones = board.leaves.iter().filter(|&&x| x).count() as f64;
    /// assert_eq!(*board.statics.last().unwrap(), ones / 16.0);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--game` when `e1`/`e2` is asked of a non-binary
    /// board (never: boards here are board-splitting games).
    pub fn evaluate(&mut self, spec: &BoardSpec, evaluator: MatchEvaluator) -> Result<()> {
        let tree = &spec.tree;
        self.statics.clear();
        match evaluator {
            MatchEvaluator::Weighted { w } => {
                self.statics.extend(
                    self.wins
                        .iter()
                        .zip(&self.noise)
                        .map(|(&u, &r)| w * f64::from(u8::from(u)) + (1.0 - w) * r),
                );
            }
            MatchEvaluator::Natural | MatchEvaluator::Forced => {
                let game = spec.game(&self.leaves)?;
                let regions = tree.regions(&game);
                self.statics.extend(regions.iter().map(|s| match evaluator {
                    MatchEvaluator::Forced => ForcedLines.evaluate(&game, s),
                    _ => NaturalFraction.evaluate(&game, s),
                }));
            }
        }
        for (value, &leaf) in self.statics[..tree.width(0)].iter_mut().zip(&self.leaves) {
            *value = f64::from(u8::from(leaf));
        }
        Ok(())
    }
}

/// The depth-`depth` value of node `i` of height `t` under `rule`, searched in the flat
/// arrays: the static value at the search front and on terminal squares, else the maximum /
/// minimum (minimax) or `1 - prod (1 - v)` ([`crate::search::product::at_least_one`]) /
/// `prod v` (product) of the children's values, children in move order (the same
/// floating-point operations as [`crate::search::minimax`](mod@crate::search::minimax) and [`crate::search::product`](mod@crate::search::product)).
///
/// # Examples
///
/// ```
/// use pathology::sim::level_tree::LevelTree;
/// use pathology::studies::chi_nau::matches::{Rule, search_value};
/// let tree = LevelTree::new(2, 2).unwrap(); // root Min over two Max nodes
/// let statics = [0.0, 1.0, 0.0, 0.0, 0.9, 0.2, 0.5];
/// assert_eq!(search_value(&tree, &statics, 2, 0, 2, Rule::Minimax), 0.0); // min(1, 0)
/// assert_eq!(search_value(&tree, &statics, 2, 0, 1, Rule::Minimax), 0.2); // min(0.9, 0.2)
/// assert!((search_value(&tree, &statics, 2, 0, 1, Rule::Product) - 0.18).abs() < 1e-15);
/// ```
pub fn search_value(
    tree: &LevelTree,
    statics: &[f64],
    t: u32,
    i: usize,
    depth: u32,
    rule: Rule,
) -> f64 {
    if t == 0 || depth == 0 {
        return statics[tree.index(t, i)];
    }
    let b = tree.branching();
    let children =
        (b * i..b * i + b).map(|c| search_value(tree, statics, t - 1, c, depth - 1, rule));
    match (rule, Player::to_move_at_height(t)) {
        (Rule::Minimax, Player::Max) => children.fold(f64::NEG_INFINITY, f64::max),
        (Rule::Minimax, Player::Min) => children.fold(f64::INFINITY, f64::min),
        (Rule::Product, Player::Max) => {
            let mut buffer = [0.0f64; 16];
            if b <= 16 {
                for (slot, v) in buffer.iter_mut().zip(children) {
                    *slot = v;
                }
                crate::search::product::at_least_one(&buffer[..b])
            } else {
                crate::search::product::at_least_one(&children.collect::<Vec<f64>>())
            }
        }
        (Rule::Product, Player::Min) => children.product(),
    }
}

/// The move (child index) chosen at node `i` of height `t >= 1` by a depth-`depth` search
/// under `rule`: a child with the best depth-`(depth - 1)` value for the player to move, ties
/// broken uniformly with `rng`.
///
/// # Examples
///
/// ```
/// use pathology::sim::level_tree::LevelTree;
/// use pathology::studies::chi_nau::matches::{Rule, choose_move};
/// use rand::SeedableRng;
/// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
/// let tree = LevelTree::new(2, 2).unwrap(); // root Min over two Max nodes
/// let statics = [0.0, 1.0, 0.0, 0.0, 0.9, 0.2, 0.5];
/// // Depth 1: the children's static values 0.9 and 0.2; Min takes the second.
/// assert_eq!(choose_move(&tree, &statics, 2, 0, 1, Rule::Minimax, &mut rng), 1);
/// // Depth 2: the children are worth max(0, 1) = 1 and max(0, 0) = 0.
/// assert_eq!(choose_move(&tree, &statics, 2, 0, 2, Rule::Product, &mut rng), 1);
/// ```
pub fn choose_move(
    tree: &LevelTree,
    statics: &[f64],
    t: u32,
    i: usize,
    depth: u32,
    rule: Rule,
    rng: &mut ChaCha8Rng,
) -> usize {
    let b = tree.branching();
    let mut values = [0.0f64; 16];
    let mut heap = Vec::new();
    let values: &mut [f64] = if b <= 16 {
        &mut values[..b]
    } else {
        heap.resize(b, 0.0);
        &mut heap
    };
    for (k, v) in values.iter_mut().enumerate() {
        *v = search_value(
            tree,
            statics,
            t - 1,
            b * i + k,
            depth.saturating_sub(1),
            rule,
        );
    }
    choose_best_of(values, Player::to_move_at_height(t), rng)
}

/// Plays one game from the root: `first` moves at the root (and every other turn), the other
/// rule at the remaining turns, both searching to `depth`. Returns whether Max won (the last
/// square is a 1).
///
/// # Examples
///
/// With perfect evaluations (`w = 1`) both players play perfectly, so the root's true value
/// decides the game.
///
/// ```
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// use pathology::studies::chi_nau::matches::{Board, MatchEvaluator, Rule, play_game};
/// use rand::SeedableRng;
/// let spec = BoardSpec::new(GameKind::P, 2, 6, 0.382).unwrap();
/// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(5);
/// let mut board = Board::default();
/// board.draw(&spec, &mut rng);
/// board.evaluate(&spec, MatchEvaluator::Weighted { w: 1.0 }).unwrap();
/// let max_won = play_game(&spec.tree, &board.statics, &board.leaves, Rule::Minimax, 2, &mut rng);
/// assert_eq!(max_won, *board.wins.last().unwrap());
/// ```
pub fn play_game(
    tree: &LevelTree,
    statics: &[f64],
    leaves: &[bool],
    first: Rule,
    depth: u32,
    rng: &mut ChaCha8Rng,
) -> bool {
    let second = match first {
        Rule::Minimax => Rule::Product,
        Rule::Product => Rule::Minimax,
    };
    let mut i = 0;
    for (turn, t) in (1..=tree.height()).rev().enumerate() {
        let rule = if turn % 2 == 0 { first } else { second };
        let k = choose_move(tree, statics, t, i, depth, rule, rng);
        i = tree.branching() * i + k;
    }
    leaves[i]
}

/// Plays a pair (minimax first, then product first) on the board's current evaluations and
/// returns the number of games minimax won (0, 1 or 2).
///
/// # Examples
///
/// ```
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// use pathology::studies::chi_nau::matches::{Board, MatchEvaluator, play_pair};
/// use rand::SeedableRng;
/// // With perfect evaluations (w = 1) both rules play perfectly, so whoever holds the winning
/// // side wins: minimax wins exactly one game of every pair.
/// let spec = BoardSpec::new(GameKind::P, 2, 5, 0.382).unwrap();
/// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(2);
/// let mut board = Board::default();
/// for _ in 0..10 {
///     board.draw(&spec, &mut rng);
///     board.evaluate(&spec, MatchEvaluator::Weighted { w: 1.0 }).unwrap();
///     assert_eq!(play_pair(&spec, &board, 2, &mut rng), 1);
/// }
/// ```
pub fn play_pair(spec: &BoardSpec, board: &Board, depth: u32, rng: &mut ChaCha8Rng) -> u8 {
    let tree = &spec.tree;
    // The first mover is Max when the root's height is odd.
    let first_is_max = Player::to_move_at_height(tree.height()) == Player::Max;
    let mut won = 0;
    for first in [Rule::Minimax, Rule::Product] {
        let max_won = play_game(tree, &board.statics, &board.leaves, first, depth, rng);
        let first_won = max_won == first_is_max;
        won += u8::from(first_won == (first == Rule::Minimax));
    }
    won
}

/// How the pairs of a match ended: pairs in which minimax won 0, 1 or 2 of the two games.
/// Everything a match reports (the share and its interval) is computed from these three
/// integers, so the counts of disjoint shards summed give the unsharded result exactly.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PairCounts {
    /// Pairs in which product won both games.
    pub lost_both: u64,
    /// Pairs split 1-1 (each rule won one game).
    pub split: u64,
    /// Pairs in which minimax won both games.
    pub won_both: u64,
}

impl PairCounts {
    /// Records a pair in which minimax won `won` (0, 1 or 2) games.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::chi_nau::matches::PairCounts;
    /// let mut c = PairCounts::default();
    /// for won in [2, 1, 1, 0] {
    ///     c.record(won);
    /// }
    /// assert_eq!(c, PairCounts { lost_both: 1, split: 2, won_both: 1 });
    /// assert_eq!((c.pairs(), c.minimax_wins()), (4, 4));
    /// ```
    pub fn record(&mut self, won: u8) {
        match won {
            0 => self.lost_both += 1,
            1 => self.split += 1,
            _ => self.won_both += 1,
        }
    }

    /// The pairs played.
    pub fn pairs(&self) -> u64 {
        self.lost_both + self.split + self.won_both
    }

    /// The games minimax won (out of `2 pairs`).
    pub fn minimax_wins(&self) -> u64 {
        self.split + 2 * self.won_both
    }

    /// Minimax's share of the games, `minimax_wins / (2 pairs)` (NaN when no pairs).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::chi_nau::matches::PairCounts;
    /// assert_eq!(PairCounts { lost_both: 1, split: 2, won_both: 1 }.estimate(), 0.5);
    /// assert!(PairCounts::default().estimate().is_nan());
    /// ```
    pub fn estimate(&self) -> f64 {
        self.minimax_wins() as f64 / (2 * self.pairs()) as f64
    }

    /// The adjusted normal interval of the share at normal quantile `z` (module docs,
    /// **Intervals**): each pair scores `X` in {0, 1/2, 1}; `z^2/2` pseudo-pairs scoring 0 and
    /// `z^2/2` scoring 1 are added, and the interval is the adjusted mean `+- z` times the
    /// adjusted standard deviation over `sqrt(n + z^2)`, clipped to [0, 1]. For pairs that
    /// are never split it is exactly the Agresti-Coull interval; it always contains the
    /// estimate and never has zero width. With no pairs it is [0, 1].
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::chi_nau::matches::PairCounts;
    /// use pathology::sim::stats::Z_95;
    /// // One split pair: an honest interval, not [0.5, 0.5].
    /// let (low, high) = PairCounts { lost_both: 0, split: 1, won_both: 0 }.interval(Z_95);
    /// assert!(low < 0.2 && high > 0.8);
    /// // 50 pairs, all split: still of positive width.
    /// let (low, high) = PairCounts { lost_both: 0, split: 50, won_both: 0 }.interval(Z_95);
    /// assert!(low < 0.5 && 0.5 < high && high - low > 0.05);
    /// // Never split: Agresti-Coull for 7 successes in 10.
    /// let (low, high) = PairCounts { lost_both: 3, split: 0, won_both: 7 }.interval(Z_95);
    /// let (z2, n) = (Z_95 * Z_95, 10.0);
    /// let p = (7.0 + z2 / 2.0) / (n + z2);
    /// let half = Z_95 * (p * (1.0 - p) / (n + z2)).sqrt();
    /// assert!((low - (p - half)).abs() < 1e-15 && (high - (p + half)).abs() < 1e-15);
    /// ```
    pub fn interval(&self, z: f64) -> (f64, f64) {
        let pairs = self.pairs();
        if pairs == 0 {
            return (0.0, 1.0);
        }
        let pseudo = z * z / 2.0;
        let (w0, w1, w2) = (
            self.lost_both as f64 + pseudo,
            self.split as f64,
            self.won_both as f64 + pseudo,
        );
        let n = w0 + w1 + w2;
        let centre = (0.5 * w1 + w2) / n;
        // The adjusted sample's variance, as a weighted sum of squares (never negative).
        let variance = (w0 * centre * centre
            + w1 * (0.5 - centre) * (0.5 - centre)
            + w2 * (1.0 - centre) * (1.0 - centre))
            / n;
        let half = z * (variance / n).sqrt();
        // The interval contains the estimate (module docs); min, max and the ends at 0 and 1
        // guard rounding alone.
        let estimate = self.estimate();
        let low = if self.lost_both == pairs {
            0.0
        } else {
            (centre - half).max(0.0).min(estimate)
        };
        let high = if self.won_both == pairs {
            1.0
        } else {
            (centre + half).min(1.0).max(estimate)
        };
        (low, high)
    }

    /// The cells a row of these counts prints (`pairs`, the games won in `wins`, the share
    /// with its interval in `share`, all empty with no pairs), as `merge` checks every shard's
    /// rows ([`crate::sim::report::summed_columns`]).
    pub fn printed(&self, wins: &str, share: &str) -> Vec<crate::sim::report::Printed> {
        use crate::sim::report::Printed;
        let c = (self.pairs() > 0).then(|| self.share());
        let mut cells = vec![
            Printed::value("pairs", Some(self.pairs() as f64)),
            Printed::value(wins, Some(self.minimax_wins() as f64)),
        ];
        cells.extend(Printed::interval(
            share,
            c.as_ref(),
            Some(Proportion {
                successes: self.minimax_wins(),
                trials: 2 * self.pairs(),
            }),
        ));
        cells
    }

    /// The share with its 95% interval ([`PairCounts::interval`] at [`Z_95`]).
    pub fn share(&self) -> Comparison {
        let (ci_low, ci_high) = self.interval(Z_95);
        Comparison {
            estimate: self.estimate(),
            ci_low,
            ci_high,
            exact: None,
            z: None,
        }
    }

    /// The match result of these counts.
    pub fn result(&self) -> MatchResult {
        MatchResult {
            pairs: self.pairs(),
            minimax_wins: self.minimax_wins(),
            counts: *self,
            share: self.share(),
        }
    }
}

/// What a match study reports for one setting.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MatchResult {
    /// Pairs played.
    pub pairs: u64,
    /// Games won by minimax (out of `2 pairs`).
    pub minimax_wins: u64,
    /// The pairs by games minimax won.
    pub counts: PairCounts,
    /// Minimax's share of the games, with its 95% interval (over pairs,
    /// [`PairCounts::interval`]).
    #[serde(flatten)]
    pub share: Comparison,
}

fn check_depth(depth: u32, height: u32) -> Result<()> {
    if !(1..=height).contains(&depth) {
        return Err(Error::invalid(
            "--search-depth",
            &format!("in 1..={height} (the game's height)"),
            depth,
        ));
    }
    Ok(())
}

/// One match setting: minimax against product on `runner.trials()` pairs of boards `spec`,
/// both searching to `depth` with `evaluator`.
///
/// # Examples
///
/// ```
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// use pathology::studies::chi_nau::matches::{MatchEvaluator, play_match};
/// use pathology::sim::TrialRunner;
/// let spec = BoardSpec::new(GameKind::P, 2, 6, 0.382).unwrap();
/// let runner = TrialRunner::new(200, 1, 2).unwrap();
/// let r = play_match(&spec, 2, MatchEvaluator::Weighted { w: 0.5 }, &runner).unwrap();
/// assert_eq!(r.pairs, 200);
/// assert!(r.share.ci_low <= r.share.estimate && r.share.estimate <= r.share.ci_high);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--search-depth` outside `1..=height` or `--w` outside
/// [0, 1].
pub fn play_match(
    spec: &BoardSpec,
    depth: u32,
    evaluator: MatchEvaluator,
    runner: &TrialRunner,
) -> Result<MatchResult> {
    check_depth(depth, spec.tree.height())?;
    if let MatchEvaluator::Weighted { w } = evaluator {
        check_weight(w)?;
    }
    let tally = runner.run(
        Board::default,
        |board, rng| {
            board.draw(spec, rng);
            board
                .evaluate(spec, evaluator)
                .expect("boards drawn from a valid spec");
            play_pair(spec, board, depth, rng)
        },
        PairCounts::default(),
        |mut tally, won| {
            tally.record(won);
            tally
        },
    )?;
    Ok(tally.result())
}

fn check_weight(w: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&w) {
        return Err(Error::invalid("--w", "in [0, 1]", w));
    }
    Ok(())
}

/// One point of the Fig. 3 sweep.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SweepPoint {
    /// The weight w of `e^w`.
    pub w: f64,
    /// `rhf(w)` from the closed form ([`crate::analytic::closed_form::rhf`]) with `xi` the board's
    /// square probability.
    pub rhf: f64,
    /// Minimax's results.
    #[serde(flatten)]
    pub result: MatchResult,
}

/// Chi & Nau's Fig. 3 data: for every weight in `weights`, minimax against product with
/// `e^w` on the same `runner.trials()` pairs of boards (common random numbers, see the module
/// docs), searching to `depth`.
///
/// # Examples
///
/// ```
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// use pathology::studies::chi_nau::matches::sweep;
/// use pathology::sim::TrialRunner;
/// let spec = BoardSpec::new(GameKind::P, 2, 6, 0.382).unwrap();
/// let points = sweep(&spec, 2, &[0.0, 0.5], &TrialRunner::new(100, 1, 1).unwrap()).unwrap();
/// assert_eq!(points[1].rhf, 0.0);
/// assert!(points[0].rhf > 0.2);
/// ```
///
/// # Errors
///
/// As [`play_match`], naming `--w` for a weight outside [0, 1].
pub fn sweep(
    spec: &BoardSpec,
    depth: u32,
    weights: &[f64],
    runner: &TrialRunner,
) -> Result<Vec<SweepPoint>> {
    check_depth(depth, spec.tree.height())?;
    for &w in weights {
        check_weight(w)?;
    }
    let xi = spec.parameter;
    let tallies = runner.run(
        Board::default,
        |board, rng| {
            board.draw(spec, rng);
            weights
                .iter()
                .map(|&w| {
                    board
                        .evaluate(spec, MatchEvaluator::Weighted { w })
                        .expect("weights are checked");
                    play_pair(spec, board, depth, rng)
                })
                .collect::<Vec<u8>>()
        },
        vec![PairCounts::default(); weights.len()],
        |mut tallies, wins| {
            for (tally, won) in tallies.iter_mut().zip(wins) {
                tally.record(won);
            }
            tallies
        },
    )?;
    weights
        .iter()
        .zip(tallies)
        .map(|(&w, tally)| {
            Ok(SweepPoint {
                w,
                rhf: crate::analytic::closed_form::rhf(w, xi)?,
                result: tally.result(),
            })
        })
        .collect()
}

/// The weights of Chi & Nau's Fig. 3: 0 to 0.5 in steps of 0.01 (51 points).
///
/// # Examples
///
/// ```
/// use pathology::studies::chi_nau::matches::figure_3_weights;
/// let w = figure_3_weights();
/// assert_eq!(w.len(), 51);
/// assert_eq!((w[0], w[1], w[50]), (0.0, 0.01, 0.5));
/// ```
pub fn figure_3_weights() -> Vec<f64> {
    (0..=50).map(|k| f64::from(k) / 100.0).collect()
}

/// One row of the Section 4.4 table: a search depth and minimax's share with `e1` and `e2`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DepthTableRow {
    /// The search depth of both players.
    pub depth: u32,
    /// Minimax's results with `e1`.
    pub e1: MatchResult,
    /// Minimax's results with `e2`.
    pub e2: MatchResult,
}

/// Chi & Nau's Section 4.4 table: on every board, minimax against product at each search
/// depth in `depths`, once with `e1` and once with `e2` (common random numbers).
///
/// # Examples
///
/// ```
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// use pathology::studies::chi_nau::matches::depth_table;
/// use pathology::sim::TrialRunner;
/// let spec = BoardSpec::new(GameKind::P, 2, 5, 0.382).unwrap();
/// let rows = depth_table(&spec, &[2, 3], &TrialRunner::new(50, 1, 1).unwrap()).unwrap();
/// assert_eq!(rows.len(), 2);
/// assert_eq!(rows[0].e2.pairs, 50);
/// ```
///
/// # Errors
///
/// As [`play_match`], naming `--search-depth` for a depth outside `1..=height`.
pub fn depth_table(
    spec: &BoardSpec,
    depths: &[u32],
    runner: &TrialRunner,
) -> Result<Vec<DepthTableRow>> {
    for &d in depths {
        check_depth(d, spec.tree.height())?;
    }
    let tallies = runner.run(
        || (Board::default(), Vec::new()),
        |(board, e1), rng| {
            board.draw(spec, rng);
            board
                .evaluate(spec, MatchEvaluator::Natural)
                .expect("valid spec");
            std::mem::swap(e1, &mut board.statics);
            board
                .evaluate(spec, MatchEvaluator::Forced)
                .expect("valid spec");
            let mut results = Vec::with_capacity(depths.len());
            for &depth in depths {
                std::mem::swap(e1, &mut board.statics);
                let with_e1 = play_pair(spec, board, depth, rng);
                std::mem::swap(e1, &mut board.statics);
                let with_e2 = play_pair(spec, board, depth, rng);
                results.push((with_e1, with_e2));
            }
            results
        },
        vec![(PairCounts::default(), PairCounts::default()); depths.len()],
        |mut tallies, results| {
            for (tally, (a, b)) in tallies.iter_mut().zip(results) {
                tally.0.record(a);
                tally.1.record(b);
            }
            tallies
        },
    )?;
    Ok(depths
        .iter()
        .zip(tallies)
        .map(|(&depth, (a, b))| DepthTableRow {
            depth,
            e1: a.result(),
            e2: b.result(),
        })
        .collect())
}

/// The board of Chi & Nau's studies: a binary P-game of height `height` with `xi = w_2`.
///
/// # Examples
///
/// ```
/// use pathology::sim::level_tree::GameKind;
/// use pathology::studies::chi_nau::matches::chi_nau_board;
/// let spec = chi_nau_board(11).unwrap();
/// assert_eq!((spec.kind, spec.tree.branching(), spec.tree.height()), (GameKind::P, 2, 11));
/// assert!((spec.parameter - 0.382).abs() < 1e-3);
/// assert!(chi_nau_board(0).is_err());
/// ```
///
/// # Errors
///
/// As [`BoardSpec::new`].
pub fn chi_nau_board(height: u32) -> Result<BoardSpec> {
    BoardSpec::new(GameKind::P, 2, height, GameKind::P.default_parameter(2)?)
}

/// Seconds per pair of games of `mc match` at search depth `search_depth` (the board drawn and
/// evaluated once, then two games of `H` moves, each move a search of about `b^depth` nodes).
/// Measured at about 17 ns per unit of `b^H + 2 H b^depth` (H = 6 and 12, one thread); the
/// model takes 30 ns.
///
/// # Examples
///
/// ```
/// use pathology::studies::chi_nau::matches::match_pair_seconds;
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// let spec = BoardSpec::new(GameKind::P, 2, 12, 0.38).unwrap();
/// assert!(match_pair_seconds(&spec, 6) > match_pair_seconds(&spec, 2));
/// ```
pub fn match_pair_seconds(spec: &BoardSpec, search_depth: u32) -> f64 {
    let b = f64::from(spec.tree.branching() as u32);
    let h = f64::from(spec.tree.height());
    let units = spec.tree.len() as f64 + 2.0 * h * b.powf(f64::from(search_depth));
    1e-6 + 30e-9 * units
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tree::{ExplicitTree, Node};
    use crate::games::{Game, SplittingGame};
    use crate::search::minimax::choose_best;
    use crate::search::{minimax, product};
    use rand::SeedableRng;
    use std::collections::HashMap;

    /// Replays a game through the generic searches on a real board, with the static values
    /// looked up by region: the moves and the random draws must be the fast path's.
    fn generic_game(
        spec: &BoardSpec,
        board: &Board,
        first: Rule,
        depth: u32,
        rng: &mut ChaCha8Rng,
    ) -> bool {
        let game: SplittingGame = spec.game(&board.leaves).unwrap();
        let index: HashMap<_, _> = spec
            .tree
            .regions(&game)
            .into_iter()
            .enumerate()
            .map(|(n, r)| (r, n))
            .collect();
        let eval = |_: &SplittingGame, s: &crate::games::Region| board.statics[index[s]];
        let mut state = game.root();
        let mut turn = 0;
        while game.utility(&state).is_none() {
            let rule = if turn % 2 == 0 {
                first
            } else if first == Rule::Minimax {
                Rule::Product
            } else {
                Rule::Minimax
            };
            let values: Vec<f64> = game
                .moves(&state)
                .into_iter()
                .map(|mv| {
                    let child = game.play(&state, mv);
                    match rule {
                        Rule::Minimax => minimax(&game, &child, depth - 1, &eval),
                        Rule::Product => product(&game, &child, depth - 1, &eval),
                    }
                })
                .collect();
            let k = choose_best(&values, game.to_move(&state), rng);
            state = game.play(&state, k as u32);
            turn += 1;
        }
        game.utility(&state) == Some(1.0)
    }

    #[test]
    fn fast_games_replay_through_the_generic_searches() {
        for (b, h, evaluator) in [
            (2, 6, MatchEvaluator::Weighted { w: 0.2 }),
            (2, 7, MatchEvaluator::Natural),
            (3, 5, MatchEvaluator::Forced),
            (2, 6, MatchEvaluator::Weighted { w: 0.7 }),
        ] {
            let spec = BoardSpec::new(GameKind::P, b, h, 0.4).unwrap();
            let mut board = Board::default();
            for seed in 0..30 {
                board.draw(&spec, &mut ChaCha8Rng::seed_from_u64(seed));
                board.evaluate(&spec, evaluator).unwrap();
                for depth in 1..=h.min(4) {
                    for first in [Rule::Minimax, Rule::Product] {
                        let (mut fast_rng, mut slow_rng) = (
                            ChaCha8Rng::seed_from_u64(seed + 100),
                            ChaCha8Rng::seed_from_u64(seed + 100),
                        );
                        let fast = play_game(
                            &spec.tree,
                            &board.statics,
                            &board.leaves,
                            first,
                            depth,
                            &mut fast_rng,
                        );
                        let slow = generic_game(&spec, &board, first, depth, &mut slow_rng);
                        assert_eq!(fast, slow, "b={b} h={h} depth {depth} seed {seed}");
                        assert_eq!(fast_rng.random::<u64>(), slow_rng.random::<u64>());
                    }
                }
            }
        }
    }

    /// A hand-checked game of height 2 (root Min over two Max nodes), depth 1 searches.
    /// Leaves 1 0 | 0 0; statics: the Max nodes 0.9 (true win) and 0.2 (true loss) under
    /// Min's eyes, so minimax (Min) moves to the smaller value, the loss node, then Max takes
    /// the best leaf there: both leaves are 0, Min wins.
    #[test]
    fn hand_checked_game() {
        let tree = LevelTree::new(2, 2).unwrap();
        let leaves = [true, false, false, false];
        let statics = [1.0, 0.0, 0.0, 0.0, 0.9, 0.2, 0.5];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert!(!play_game(
            &tree,
            &statics,
            &leaves,
            Rule::Minimax,
            1,
            &mut rng
        ));
        // With statics that look backwards (0.2 on the win), Min walks into the win node
        // and Max picks leaf 0 (value 1 beats 0): Max wins.
        let statics = [1.0, 0.0, 0.0, 0.0, 0.2, 0.9, 0.5];
        assert!(play_game(
            &tree,
            &statics,
            &leaves,
            Rule::Product,
            1,
            &mut rng
        ));
    }

    /// Chi & Nau's Fig. 1: product values can prefer a forced loss. A Max node n1 over two
    /// forced-loss children evaluated 0.4 gets P = 1 - 0.6^2 = 0.64; a Max node n2 over a
    /// forced win (0.6) and a forced loss (0) gets 0.6. Minimax (0.4 vs 0.6) prefers n2, the
    /// product rule n1.
    #[test]
    fn product_prefers_the_forced_loss_of_figure_1() {
        // n1: a Max node over two forced-loss children evaluated 0.4 each.
        let n1 = ExplicitTree::new(vec![
            Node::Interior(Player::Max, vec![1, 2]),
            Node::Leaf(0.4),
            Node::Leaf(0.4),
        ]);
        // n2: a Max node over a forced win evaluated 0.6 and a forced loss evaluated 0.
        let n2 = ExplicitTree::new(vec![
            Node::Interior(Player::Max, vec![1, 2]),
            Node::Leaf(0.6),
            Node::Leaf(0.0),
        ]);
        let eval = |_: &ExplicitTree, _: &usize| 0.5;
        let (p1, p2) = (product(&n1, &0, 1, &eval), product(&n2, &0, 1, &eval));
        let (m1, m2) = (minimax(&n1, &0, 1, &eval), minimax(&n2, &0, 1, &eval));
        assert!((p1 - 0.64).abs() < 1e-12 && (p2 - 0.6).abs() < 1e-12);
        assert!(p1 > p2 && m1 < m2);
        // The flat arrays compute the same product value at a Max node of height 1.
        let flat = LevelTree::new(2, 1).unwrap();
        let v = search_value(&flat, &[0.4, 0.4, 0.5], 1, 0, 1, Rule::Product);
        assert!((v - p1).abs() < 1e-15);
    }

    /// Pairs: with w = 1 both players are perfect, so each wins exactly the game in which its
    /// role wins; over a pair minimax wins exactly once.
    #[test]
    fn perfect_players_split_every_pair() {
        let spec = chi_nau_board(6).unwrap();
        let mut board = Board::default();
        for seed in 0..50 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            board.draw(&spec, &mut rng);
            board
                .evaluate(&spec, MatchEvaluator::Weighted { w: 1.0 })
                .unwrap();
            assert_eq!(play_pair(&spec, &board, 2, &mut rng), 1);
        }
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        let spec = chi_nau_board(6).unwrap();
        let run = |threads| {
            sweep(
                &spec,
                2,
                &[0.0, 0.2],
                &TrialRunner::new(300, 4, threads).unwrap(),
            )
            .unwrap()
        };
        assert_eq!(run(1), run(2));
    }

    #[test]
    fn bad_arguments_are_named() {
        let spec = chi_nau_board(6).unwrap();
        let runner = TrialRunner::new(1, 1, 1).unwrap();
        let e = play_match(&spec, 7, MatchEvaluator::Natural, &runner).unwrap_err();
        assert!(e.to_string().contains("--search-depth"));
        let e = sweep(&spec, 2, &[1.5], &runner).unwrap_err();
        assert!(e.to_string().contains("--w"));
    }

    /// The adjusted interval's coverage, measured by simulating the counts alone: for n = 5,
    /// 20 and 100 pairs and eleven outcome distributions (even, skewed, mostly split, never
    /// split), 20,000 samples each. Measured (seed 11): the lowest coverage is 0.9315 (n = 5,
    /// Pr[0, 1, 2 wins] = (0.01, 0.2, 0.79)), 0.9556 at n = 20, 0.9401 at n = 100 (the
    /// Agresti-Coull case p = 0.8); the plain normal interval of the pair scores fell to
    /// 0.22 (n = 5) and 0.64 (n = 20) on the same samples. The threshold 0.92 leaves room for
    /// the simulation's own error (sd about 0.002).
    #[test]
    fn adjusted_interval_covers_at_small_n() {
        let cases = [
            (0.25, 0.5),
            (0.45, 0.1),
            (0.05, 0.9),
            (0.02, 0.96),
            (0.1, 0.7),
            (0.3, 0.4),
            (0.5, 0.0),
            (0.1, 0.3),
            (0.01, 0.2),
            (0.2, 0.0),
            (0.05, 0.0),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut failures = Vec::new();
        for n in [5u64, 20, 100] {
            for &(q0, q1) in &cases {
                let truth = q1 / 2.0 + (1.0 - q0 - q1);
                let samples = 20_000;
                let mut covered = 0;
                for _ in 0..samples {
                    let mut counts = PairCounts::default();
                    for _ in 0..n {
                        let u: f64 = rng.random();
                        counts.record(if u < q0 {
                            0
                        } else if u < q0 + q1 {
                            1
                        } else {
                            2
                        });
                    }
                    let (low, high) = counts.interval(Z_95);
                    assert!(low < high, "zero width at {counts:?}");
                    covered += u32::from(low <= truth && truth <= high);
                }
                let coverage = f64::from(covered) / f64::from(samples);
                if coverage < 0.92 {
                    failures.push(format!("n = {n}, q = ({q0}, {q1}): {coverage}"));
                }
            }
        }
        assert!(failures.is_empty(), "coverage below 0.92: {failures:?}");
    }

    /// One pair, or pairs that all split, used to give [50.0%, 50.0%].
    #[test]
    fn small_and_all_split_samples_get_honest_intervals() {
        for counts in [
            PairCounts {
                lost_both: 0,
                split: 1,
                won_both: 0,
            },
            PairCounts {
                lost_both: 1,
                split: 0,
                won_both: 0,
            },
            PairCounts {
                lost_both: 0,
                split: 0,
                won_both: 1,
            },
        ] {
            let share = counts.share();
            assert!(share.ci_low <= share.estimate && share.estimate <= share.ci_high);
            // One pair says little: the interval spans most of [0, 1].
            assert!(share.ci_high - share.ci_low > 0.5, "{counts:?}: {share:?}");
        }
        for split in [2, 10, 100, 3200] {
            let share = PairCounts {
                lost_both: 0,
                split,
                won_both: 0,
            }
            .share();
            assert_eq!(share.estimate, 0.5);
            assert!(
                share.ci_low < 0.5 && 0.5 < share.ci_high,
                "{split}: {share:?}"
            );
            assert!((share.ci_low + share.ci_high - 1.0).abs() < 1e-15);
        }
        // No pairs (an empty shard): no estimate, the whole range.
        let none = PairCounts::default().share();
        assert!(none.estimate.is_nan());
        assert_eq!((none.ci_low, none.ci_high), (0.0, 1.0));
    }

    /// At Chi & Nau's 8000 pairs the adjusted interval is the plain one to within 1e-4.
    #[test]
    fn adjusted_interval_matches_the_plain_one_at_large_n() {
        for counts in [
            PairCounts {
                lost_both: 1900,
                split: 4300,
                won_both: 1800,
            },
            PairCounts {
                lost_both: 600,
                split: 6900,
                won_both: 500,
            },
            PairCounts {
                lost_both: 4000,
                split: 0,
                won_both: 4000,
            },
        ] {
            let mut plain = crate::sim::Mean::default();
            for (count, score) in [
                (counts.lost_both, 0.0),
                (counts.split, 0.5),
                (counts.won_both, 1.0),
            ] {
                for _ in 0..count {
                    plain.record(score);
                }
            }
            let (old, new) = (plain.compare(None), counts.share());
            assert!((old.estimate - new.estimate).abs() < 1e-12);
            assert!((old.ci_low - new.ci_low).abs() < 1e-4, "{old:?} {new:?}");
            assert!((old.ci_high - new.ci_high).abs() < 1e-4, "{old:?} {new:?}");
        }
    }
}
