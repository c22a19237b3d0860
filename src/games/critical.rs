//! Nguyen & Ramanujan's (2024) critical win-loss game, generated lazily as a search touches
//! it.
//!
//! Source: K. P. N. Nguyen and R. Ramanujan, "Lookahead Pathology in Monte-Carlo Tree Search",
//! ICAPS 2024 (arXiv 2212.05208), and the authors' code that produced its figures
//! (`npnkhoi/mcts-lp`, `synthetic_games/games/crit_game.py` and
//! `synthetic_games/heuristics/expected_playout.py`), from which the details below are taken.
//!
//! **The game.** A complete tree of branching factor `b` and height `H`; Max moves at the root
//! (depth 0), the players alternate, and the nodes of depth `H` are terminal. Every node is
//! *won* or *lost* for the player to move there. The root is a won Max node. At a won node one
//! child, placed uniformly among the `b` moves, is the *optimal* move and stays won for the
//! mover (lost for the opponent, who moves there); each other child independently becomes lost
//! for the mover (won for the opponent) with probability gamma, the *critical rate* of the
//! mover (`gamma_max` at Max's nodes, `gamma_min` at Min's), and stays won for the mover
//! otherwise. At a lost node every child is won for the opponent. A terminal node's utility is
//! exact: 1 when Max wins there, 0 when Min does.
//!
//! **At the root the critical rate is 1** (the authors' code: "root node always have fr=1"), so
//! the root has exactly one winning move whatever gamma is and the decision studied is never
//! trivial; [`CriticalGame::with_root_gamma`] gives the root another rate (e.g. `gamma_max`,
//! the plain law at every node).
//!
//! Unlike the board-splitting games this game does **not** follow the last-mover-is-Max
//! convention of [`crate::model`]: as in the paper, Max moves at the root, so with `H` even
//! (the paper's `H = 50`) Min makes the last move. Nodes are addressed by depth, not height.
//!
//! **Lazy generation.** `b^H` nodes (`8^50`) cannot be built. Each node carries a 64-bit key;
//! all of a node's randomness is drawn from a SplitMix64 generator seeded with its key, whose
//! `j`-th output (`j = 0, 1, ...`) is `mix(key + (j + 1) * 0x9e3779b97f4a7c15)` with Steele,
//! Lea & Flood's `mix` finalizer, so any output is computed directly:
//!
//! - output 0: the optimal move, `floor(x b / 2^64)`;
//! - output `1 + m`: the key of child `m`;
//! - output `1 + b + m`: child `m`'s flip, `(x >> 11) 2^-53 < gamma` (non-optimal children of
//!   a won node only);
//! - outputs `2^32` and `2^32 + 1`: the node's standard normal draw (Box-Muller), used by
//!   [`CriticalGame::gaussian_value`];
//! - output `2^32 + 2`: the node's uniform draw of [`CriticalGame::artificial_value`];
//! - output `2^32 + 3`: the node's uniform draw of a histogram evaluator
//!   ([`CriticalGame::histogram_uniform`]).
//!
//! The root's key is output 0 of the generator seeded with the game's seed. So a node's
//! children, values and evaluations are pure functions of (game seed, path): every search of
//! the same game sees the same tree whatever order it visits nodes in, and a node's static
//! evaluation is "drawn once and cached" by construction.
//!
//! **Static evaluations** (from Max's point of view, on the `[0, 1]` scale of the utilities):
//!
//! - [`CriticalGame::true_value`]: 1 or 0, the perfect evaluator;
//! - [`CriticalGame::gaussian_value`]: the true value `t = +-1` plus `N(0, sigma^2)` noise,
//!   mapped to `[0, 1]` by `(v + 1) / 2`, i.e. `1{Max wins} + sigma Z / 2` (not clamped). The
//!   authors instead map `v` by the minimum and maximum of 10^5 draws of `+-1 + N(0, sigma^2)`
//!   (about `+-(1 + 4.4 sigma)`), which shrinks differences by `(2 + 8.8 sigma) / 2` and so
//!   equals our scale with UCT's `c` multiplied by that factor;
//! - [`CriticalGame::expected_playout`]: the paper's expected-playout heuristic, the expected
//!   value for Max of the leaf reached by uniformly random play from the node, the expectation
//!   taken over the play *and* the game's generation law given the node's type (mover, won or
//!   lost) and remaining depth. Equivalently the expected fraction of the node's leaves won
//!   by Max. See [`expected_playout_table`] for the recursion.

use crate::error::{Error, Result};
use crate::model::Player;

use super::Game;

/// The golden-ratio increment of SplitMix64.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// The index of the first output of a node's generator used for its normal draw.
const NORMAL_OUTPUT: u64 = 1 << 32;

/// The index of the output of a node's generator used by the artificial evaluator.
const ARTIFICIAL_OUTPUT: u64 = NORMAL_OUTPUT + 2;

/// The index of the output of a node's generator used by a histogram evaluator.
const HISTOGRAM_OUTPUT: u64 = NORMAL_OUTPUT + 3;

/// The largest branching factor.
pub const MAX_BRANCHING: u32 = 255;

/// The largest height.
pub const MAX_HEIGHT: u32 = 100_000;

/// SplitMix64's finalizer (Steele, Lea & Flood 2014, `mix64` variant 13).
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Output `index` of the SplitMix64 generator seeded with `key`.
///
/// # Examples
///
/// ```
/// use pathology::games::critical::splitmix_output;
/// // The first outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
/// assert_eq!(splitmix_output(0, 0), 0xe220a8397b1dcdaf);
/// assert_eq!(splitmix_output(0, 1), 0x6e789e6aa1b965f4);
/// ```
pub fn splitmix_output(key: u64, index: u64) -> u64 {
    mix(key.wrapping_add(index.wrapping_add(1).wrapping_mul(GOLDEN)))
}

/// A uniform number in `[0, 1)` from the top 53 bits of `x`.
fn unit(x: u64) -> f64 {
    (x >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A node of the critical win-loss game: its key, its depth and who wins it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CriticalNode {
    /// The key that seeds the node's randomness.
    pub key: u64,
    /// Depth from the root (the root has depth 0; terminal nodes depth `H`).
    pub depth: u32,
    /// Whether Max wins the node under perfect play.
    pub max_wins: bool,
}

impl CriticalNode {
    /// The player to move: Max at even depths (the root), Min at odd ones.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalNode;
    /// use pathology::model::Player;
    /// let node = CriticalNode { key: 0, depth: 3, max_wins: true };
    /// assert_eq!(node.to_move(), Player::Min);
    /// assert!(!node.won_for_mover());
    /// ```
    pub fn to_move(&self) -> Player {
        if self.depth.is_multiple_of(2) {
            Player::Max
        } else {
            Player::Min
        }
    }

    /// Whether the node is won for the player to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalNode;
    /// // Max wins a node where Max moves (even depth): won for the mover.
    /// assert!(CriticalNode { key: 0, depth: 2, max_wins: true }.won_for_mover());
    /// ```
    pub fn won_for_mover(&self) -> bool {
        self.max_wins == (self.to_move() == Player::Max)
    }
}

/// One critical win-loss game: its shape, critical rates and seed.
#[derive(Debug, Clone, PartialEq)]
pub struct CriticalGame {
    branching: u32,
    height: u32,
    gamma_max: f64,
    gamma_min: f64,
    root_gamma: f64,
    seed: u64,
    /// `playout[2 d + w]`: the expected-playout value for Max of a node of depth `d` that Max
    /// wins (`w = 1`) or loses (`w = 0`).
    playout: Vec<f64>,
}

impl CriticalGame {
    /// The game of branching factor `branching`, height `height`, critical rates `gamma_max`
    /// (at Max's nodes) and `gamma_min` (at Min's), and seed `seed`; the root's rate is 1
    /// (see the module docs).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::Game;
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(2, 50, 1.0, 1.0, 7).unwrap();
    /// let root = game.root();
    /// assert!(root.max_wins);
    /// // gamma = 1: exactly one winning move at every won node.
    /// let winning = game.moves(&root).into_iter().filter(|&m| game.play(&root, m).max_wins);
    /// assert_eq!(winning.count(), 1);
    /// assert!(CriticalGame::new(2, 50, 1.5, 1.0, 7).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--branching` outside `2..=255`, `--height` outside
    /// `1..=100000`, or `--gamma` outside `[0, 1]`.
    pub fn new(
        branching: u32,
        height: u32,
        gamma_max: f64,
        gamma_min: f64,
        seed: u64,
    ) -> Result<Self> {
        if !(2..=MAX_BRANCHING).contains(&branching) {
            return Err(Error::invalid(
                "--branching",
                &format!("in 2..={MAX_BRANCHING}"),
                branching,
            ));
        }
        if !(1..=MAX_HEIGHT).contains(&height) {
            return Err(Error::invalid(
                "--height",
                &format!("in 1..={MAX_HEIGHT}"),
                height,
            ));
        }
        for gamma in [gamma_max, gamma_min] {
            check_gamma(gamma)?;
        }
        Ok(CriticalGame {
            branching,
            height,
            gamma_max,
            gamma_min,
            root_gamma: 1.0,
            seed,
            playout: expected_playout_table(branching, height, gamma_max, gamma_min),
        })
    }

    /// The same game with critical rate `gamma` at the root instead of 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(3, 4, 0.0, 0.0, 1).unwrap();
    /// assert_eq!(game.root_gamma(), 1.0);
    /// assert_eq!(game.with_root_gamma(0.0).unwrap().root_gamma(), 0.0);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--gamma` outside `[0, 1]`.
    pub fn with_root_gamma(mut self, gamma: f64) -> Result<Self> {
        check_gamma(gamma)?;
        self.root_gamma = gamma;
        Ok(self)
    }

    /// The root: a won Max node of depth 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(2, 3, 1.0, 1.0, 5).unwrap();
    /// assert_eq!(game.root(), CriticalGame::new(2, 3, 0.5, 0.5, 5).unwrap().root());
    /// assert_ne!(game.root().key, CriticalGame::new(2, 3, 1.0, 1.0, 6).unwrap().root().key);
    /// ```
    pub fn root(&self) -> CriticalNode {
        CriticalNode {
            key: splitmix_output(self.seed, 0),
            depth: 0,
            max_wins: true,
        }
    }

    /// The branching factor b.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(3, 7, 0.9, 0.5, 11).unwrap();
    /// assert_eq!(game.branching(), 3);
    /// ```
    pub fn branching(&self) -> u32 {
        self.branching
    }

    /// The height H (terminal nodes have depth H).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(3, 7, 0.9, 0.5, 11).unwrap();
    /// assert_eq!(game.height(), 7);
    /// ```
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The critical rate at Max's nodes below the root.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(3, 7, 0.9, 0.5, 11).unwrap();
    /// assert_eq!(game.gamma_max(), 0.9);
    /// ```
    pub fn gamma_max(&self) -> f64 {
        self.gamma_max
    }

    /// The critical rate at Min's nodes.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(3, 7, 0.9, 0.5, 11).unwrap();
    /// assert_eq!(game.gamma_min(), 0.5);
    /// ```
    pub fn gamma_min(&self) -> f64 {
        self.gamma_min
    }

    /// The critical rate at the root (1 unless [`CriticalGame::with_root_gamma`] set it).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// assert_eq!(CriticalGame::new(3, 7, 0.9, 0.5, 11).unwrap().root_gamma(), 1.0);
    /// ```
    pub fn root_gamma(&self) -> f64 {
        self.root_gamma
    }

    /// The game's seed.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(3, 7, 0.9, 0.5, 11).unwrap();
    /// assert_eq!(game.seed(), 11);
    /// ```
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The critical rate of the mover at `node`.
    fn gamma_at(&self, node: &CriticalNode) -> f64 {
        if node.depth == 0 {
            self.root_gamma
        } else if node.depth.is_multiple_of(2) {
            self.gamma_max
        } else {
            self.gamma_min
        }
    }

    /// The optimal move at `node` (meaningful at won nodes), uniform in `0..b`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::Game;
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(5, 6, 0.5, 0.5, 3).unwrap();
    /// let root = game.root();
    /// let optimal = game.optimal_move(&root);
    /// assert!(game.play(&root, optimal).max_wins); // stays won for Max
    /// ```
    pub fn optimal_move(&self, node: &CriticalNode) -> u32 {
        let x = splitmix_output(node.key, 0);
        ((u128::from(x) * u128::from(self.branching)) >> 64) as u32
    }

    /// The perfect evaluation: 1 when Max wins `node`, 0 when Min does.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(2, 4, 1.0, 1.0, 1).unwrap();
    /// assert_eq!(game.true_value(&game.root()), 1.0);
    /// ```
    pub fn true_value(&self, node: &CriticalNode) -> f64 {
        f64::from(u8::from(node.max_wins))
    }

    /// The node's standard normal draw, by Box-Muller from outputs `2^32` and `2^32 + 1` of
    /// its generator: `sqrt(-2 ln u1) cos(2 pi u2)` with `u1` in `(0, 1]`, `u2` in `[0, 1)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(2, 4, 1.0, 1.0, 1).unwrap();
    /// let root = game.root();
    /// assert_eq!(game.standard_normal(&root), game.standard_normal(&root));
    /// ```
    pub fn standard_normal(&self, node: &CriticalNode) -> f64 {
        let u1 = 1.0 - unit(splitmix_output(node.key, NORMAL_OUTPUT));
        let u2 = unit(splitmix_output(node.key, NORMAL_OUTPUT + 1));
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// The Gaussian evaluation on UCT's `[0, 1]` scale: `(t + sigma Z + 1) / 2` with `t = +1`
    /// when Max wins `node`, `-1` otherwise, and `Z` the node's [`standard_normal`] draw.
    ///
    /// [`standard_normal`]: CriticalGame::standard_normal
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(2, 4, 1.0, 1.0, 1).unwrap();
    /// let root = game.root();
    /// assert_eq!(game.gaussian_value(&root, 0.0), 1.0);
    /// let z = game.standard_normal(&root);
    /// assert!((game.gaussian_value(&root, 0.5) - (1.0 + 0.25 * z)).abs() < 1e-15);
    /// ```
    pub fn gaussian_value(&self, node: &CriticalNode, sigma: f64) -> f64 {
        let truth = if node.max_wins { 1.0 } else { -1.0 };
        (truth + sigma * self.standard_normal(node) + 1.0) / 2.0
    }

    /// The artificial evaluation (Pearl's bi-valued model; Wilson, Parker & Nau's artificial
    /// evaluator): the true value (1 when Max wins `node`, else 0), replaced by the other
    /// value with probability `error`, fixed per node (output `2^32 + 2` of its generator).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(2, 4, 1.0, 1.0, 1).unwrap();
    /// let root = game.root();
    /// assert_eq!(game.artificial_value(&root, 0.0), 1.0);
    /// assert_eq!(game.artificial_value(&root, 1.0), 0.0);
    /// ```
    pub fn artificial_value(&self, node: &CriticalNode, error: f64) -> f64 {
        let wrong = unit(splitmix_output(node.key, ARTIFICIAL_OUTPUT)) < error;
        f64::from(u8::from(node.max_wins != wrong))
    }

    /// The node's uniform draw in `[0, 1)` for a histogram evaluator (output `2^32 + 3` of its
    /// generator; a multiple of `2^-53`): the draw that picks its evaluation from the
    /// histogram's law (the search layer's `HistogramEvaluator`), fixed per node.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// let game = CriticalGame::new(2, 4, 1.0, 1.0, 1).unwrap();
    /// let u = game.histogram_uniform(&game.root());
    /// assert!((0.0..1.0).contains(&u));
    /// assert_eq!(u, game.histogram_uniform(&game.root()));
    /// assert_eq!((u * (1u64 << 53) as f64).fract(), 0.0);
    /// ```
    pub fn histogram_uniform(&self, node: &CriticalNode) -> f64 {
        unit(splitmix_output(node.key, HISTOGRAM_OUTPUT))
    }

    /// The expected-playout evaluation of `node` for Max ([`expected_playout_table`]); the
    /// exact utility at terminal nodes.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::Game;
    /// use pathology::games::critical::CriticalGame;
    /// // b = 2, gamma = 1: a won Max node two moves from the end wins 3/4 of its leaves on
    /// // average.
    /// let game = CriticalGame::new(2, 2, 1.0, 1.0, 9).unwrap();
    /// assert_eq!(game.expected_playout(&game.root()), 0.75);
    /// ```
    pub fn expected_playout(&self, node: &CriticalNode) -> f64 {
        self.playout[2 * node.depth as usize + usize::from(node.max_wins)]
    }
}

fn check_gamma(gamma: f64) -> Result<()> {
    if (0.0..=1.0).contains(&gamma) {
        Ok(())
    } else {
        Err(Error::invalid("--gamma", "in [0, 1]", gamma))
    }
}

/// The expected-playout values of every node type of a critical win-loss game (below the
/// root): entry `2 d + w` is the expected value for Max of the leaf reached by uniformly random
/// play from a node of depth `d` (`0..=H`) that Max wins (`w = 1`) or loses (`w = 0`), the
/// expectation over the play and over the generation law. **It must equal the exact engine's
/// value** (`crate::analytic::distributions`) for the same node type; it is computed in `f64`
/// by the recursion below, whose terms are all in `[0, 1]` (no cancellation).
///
/// Let `W_P(r)` be the probability that player `P` wins the leaf of a random playout from a node
/// won for `P`, `P` to move, `r` moves from the end, and `k_P = 1 - gamma_P (b - 1) / b` the
/// probability that a uniformly chosen child of it stays won for `P`. Then `W_P(0) = 1` and,
/// for `r >= 1`,
///
/// `W_P(r) = k_P L_P(r - 1) + (1 - k_P) (1 - W_O(r - 1))`,
///
/// where `O` is the opponent and `L_P(s)`, the probability that `P` wins from a node lost for
/// `O` (`O` to move) `s` moves from the end, is 1 at `s = 0` and `W_P(s - 1)` otherwise (all
/// its children are won for `P`). A node lost for its mover `P` is worth `1 - W_O(r - 1)` to
/// `P`. For `gamma_max = gamma_min` the recursion has the closed form
/// `W(2d) = K^d + (1 - k)(1 - K^d)/(1 - K)` and `W(2d + 1) = k W(2d)` with `K = k^2` (tested);
/// the authors' `expected_playout.py` writes `K^(d+1)` for `K^d` in the numerator, which
/// differs from this (the exact mean) for `r >= 2` (b = 2, gamma = 1, r = 2: 7/8 against 3/4),
/// takes its first factor from Max's rate whatever the mover (the same when
/// `gamma_max = gamma_min`, as in all the paper's runs), and rounds to 6 decimals, which we do
/// not.
///
/// # Examples
///
/// ```
/// use pathology::games::critical::expected_playout_table;
/// let table = expected_playout_table(2, 1, 1.0, 1.0);
/// // H = 1: a Max node of depth 0 that Max wins: one of its two leaves is Max's.
/// assert_eq!((table[0], table[1]), (0.0, 0.5));
/// // Terminal nodes (depth 1) are exact.
/// assert_eq!((table[2], table[3]), (0.0, 1.0));
/// ```
pub fn expected_playout_table(
    branching: u32,
    height: u32,
    gamma_max: f64,
    gamma_min: f64,
) -> Vec<f64> {
    let b = f64::from(branching);
    let k = |gamma: f64| 1.0 - gamma * (b - 1.0) / b;
    let (k_max, k_min) = (k(gamma_max), k(gamma_min));
    let h = height as usize;
    // won[P][r]: W_P(r), P = 0 for Max, 1 for Min.
    let mut won = [vec![0.0f64; h + 1], vec![0.0f64; h + 1]];
    won[0][0] = 1.0;
    won[1][0] = 1.0;
    for r in 1..=h {
        for (p, k_p) in [(0usize, k_max), (1usize, k_min)] {
            let o = 1 - p;
            let lost_for_opponent = if r == 1 { 1.0 } else { won[p][r - 2] };
            won[p][r] = k_p * lost_for_opponent + (1.0 - k_p) * (1.0 - won[o][r - 1]);
        }
    }
    let mut table = vec![0.0; 2 * (h + 1)];
    for d in 0..=h {
        let r = h - d;
        let mover = d % 2; // 0: Max to move
        for max_wins in [false, true] {
            let won_for_mover = max_wins == (mover == 0);
            // The probability that the mover wins the playout's leaf.
            let mover_wins = if r == 0 {
                f64::from(u8::from(won_for_mover))
            } else if won_for_mover {
                won[mover][r]
            } else {
                1.0 - won[1 - mover][r - 1]
            };
            table[2 * d + usize::from(max_wins)] = if mover == 0 {
                mover_wins
            } else {
                1.0 - mover_wins
            };
        }
    }
    table
}

impl Game for CriticalGame {
    type State = CriticalNode;
    type Move = u32;

    fn to_move(&self, state: &CriticalNode) -> Player {
        state.to_move()
    }

    fn moves(&self, state: &CriticalNode) -> Vec<u32> {
        if state.depth >= self.height {
            Vec::new()
        } else {
            (0..self.branching).collect()
        }
    }

    fn play(&self, state: &CriticalNode, mv: u32) -> CriticalNode {
        let key = splitmix_output(state.key, 1 + u64::from(mv));
        let flips = state.won_for_mover()
            && mv != self.optimal_move(state)
            && unit(splitmix_output(
                state.key,
                1 + u64::from(self.branching) + u64::from(mv),
            )) < self.gamma_at(state);
        CriticalNode {
            key,
            depth: state.depth + 1,
            max_wins: state.max_wins ^ flips,
        }
    }

    fn utility(&self, state: &CriticalNode) -> Option<f64> {
        (state.depth >= self.height).then(|| self.true_value(state))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::solve;
    use std::collections::HashMap;

    /// Every node of the tree to depth `depth`, keyed by its path, visited depth first.
    fn by_path_depth_first(game: &CriticalGame, depth: u32) -> HashMap<Vec<u32>, CriticalNode> {
        fn walk(
            game: &CriticalGame,
            node: CriticalNode,
            path: &mut Vec<u32>,
            depth: u32,
            out: &mut HashMap<Vec<u32>, CriticalNode>,
        ) {
            out.insert(path.clone(), node);
            if node.depth == depth {
                return;
            }
            for m in game.moves(&node) {
                path.push(m);
                walk(game, game.play(&node, m), path, depth, out);
                path.pop();
            }
        }
        let mut out = HashMap::new();
        walk(game, game.root(), &mut Vec::new(), depth, &mut out);
        out
    }

    /// The same nodes reached in another order (breadth first, moves backwards) by a fresh
    /// instance of the game: identical keys, values and evaluations.
    #[test]
    fn nodes_do_not_depend_on_the_visiting_order() {
        let game = CriticalGame::new(3, 6, 0.7, 0.4, 11).unwrap();
        let first = by_path_depth_first(&game, 5);
        let again = CriticalGame::new(3, 6, 0.7, 0.4, 11).unwrap();
        let mut frontier = vec![(Vec::new(), again.root())];
        let mut seen = 0;
        while let Some((path, node)) = frontier.pop() {
            let expected = first[&path];
            assert_eq!(node, expected, "path {path:?}");
            assert_eq!(
                again.gaussian_value(&node, 0.3),
                game.gaussian_value(&expected, 0.3)
            );
            assert_eq!(
                again.expected_playout(&node),
                game.expected_playout(&expected)
            );
            seen += 1;
            if node.depth < 5 {
                for m in again.moves(&node).into_iter().rev() {
                    let mut child = path.clone();
                    child.push(m);
                    frontier.insert(0, (child, again.play(&node, m)));
                }
            }
        }
        assert_eq!(seen, first.len());
        assert_eq!(seen, (0..=5).map(|d| 3usize.pow(d)).sum::<usize>());
    }

    /// The win labels are the game-theoretic values: solving the generated tree gives them
    /// back at every node (won nodes have a winning move, lost nodes none).
    #[test]
    fn labels_are_the_minimax_values() {
        for (b, gamma) in [(2, 1.0), (3, 0.5), (2, 0.0), (4, 0.9)] {
            let game = CriticalGame::new(b, 6, gamma, gamma, 3).unwrap();
            for (_, node) in by_path_depth_first(&game, 6) {
                let solved = solve(&game, &node);
                assert_eq!(solved, game.true_value(&node));
            }
        }
    }

    /// gamma = 1 below the root: every won node has exactly one won-for-mover child, the
    /// optimal move; lost nodes have only children won for the opponent.
    #[test]
    fn gamma_one_has_one_winning_move() {
        let game = CriticalGame::new(4, 5, 1.0, 1.0, 8).unwrap();
        for (_, node) in by_path_depth_first(&game, 4) {
            let children: Vec<CriticalNode> = game
                .moves(&node)
                .iter()
                .map(|&m| game.play(&node, m))
                .collect();
            let stay = children
                .iter()
                .filter(|c| c.max_wins == node.max_wins)
                .count();
            if node.won_for_mover() {
                assert_eq!(stay, 1);
                assert_eq!(
                    children[game.optimal_move(&node) as usize].max_wins,
                    node.max_wins
                );
            } else {
                assert_eq!(stay, 4);
                assert!(children.iter().all(|c| c.won_for_mover()));
            }
        }
    }

    /// The generation law by frequencies: the optimal move is uniform, and the non-optimal
    /// children of won nodes flip with the mover's gamma (Max's and Min's separately; the
    /// root with rate 1).
    #[test]
    fn children_follow_the_critical_rates() {
        const SIGMAS: f64 = 4.5;
        let (b, gamma_max, gamma_min) = (3u32, 0.8, 0.3);
        let mut flips = [[0u64; 2]; 2]; // [mover][flipped?]
        let mut optimal = vec![0u64; b as usize];
        for seed in 0..3000 {
            let game = CriticalGame::new(b, 12, gamma_max, gamma_min, seed).unwrap();
            let root = game.root();
            let root_opt = game.optimal_move(&root);
            let root_flips = (0..b).filter(|&m| !game.play(&root, m).max_wins).count();
            assert_eq!(root_flips, b as usize - 1, "the root's rate is 1");
            // Won nodes of both movers: a won Max node of depth 2 (below the optimal move
            // and the lost Min node it leads to) and a won Min node of depth 1.
            let won_max = game.play(&game.play(&root, root_opt), 0);
            let won_min = game.play(&root, (root_opt + 1) % b);
            for mut node in [won_max, won_min] {
                for _ in 0..4 {
                    assert!(node.won_for_mover());
                    let opt = game.optimal_move(&node);
                    optimal[opt as usize] += 1;
                    let mover = usize::from(node.to_move() == Player::Min);
                    for m in (0..b).filter(|&m| m != opt) {
                        let flipped = game.play(&node, m).max_wins != node.max_wins;
                        flips[mover][usize::from(flipped)] += 1;
                    }
                    // Two moves down: the optimal child is lost for the opponent, and any
                    // child of it is won for this mover again.
                    node = game.play(&game.play(&node, opt), (opt + 1) % b);
                }
            }
        }
        for (mover, gamma) in [(0usize, gamma_max), (1, gamma_min)] {
            let n = (flips[mover][0] + flips[mover][1]) as f64;
            assert_eq!(n, 3000.0 * 4.0 * f64::from(b - 1));
            let rate = flips[mover][1] as f64 / n;
            let sd = (gamma * (1.0 - gamma) / n).sqrt();
            assert!(
                (rate - gamma).abs() < SIGMAS * sd,
                "mover {mover}: {rate} vs {gamma}"
            );
        }
        let total: u64 = optimal.iter().sum();
        for &count in &optimal {
            let p = 1.0 / f64::from(b);
            let sd = (p * (1.0 - p) / total as f64).sqrt();
            assert!((count as f64 / total as f64 - p).abs() < SIGMAS * sd);
        }
    }

    /// The expected value for Max of a uniform leaf below a node of the given type, by
    /// enumerating the generation law: every optimal move and every flip pattern of the other
    /// children with its probability (independent of [`expected_playout_table`]'s recursion).
    fn enumerated(b: u32, height: u32, gammas: [f64; 2], depth: u32, max_wins: bool) -> f64 {
        if depth == height {
            return f64::from(u8::from(max_wins));
        }
        let mover_is_max = depth.is_multiple_of(2);
        let won = max_wins == mover_is_max;
        if !won {
            return enumerated(b, height, gammas, depth + 1, max_wins);
        }
        let gamma = gammas[usize::from(!mover_is_max)];
        let mut total = 0.0;
        for opt in 0..b {
            let others: Vec<u32> = (0..b).filter(|&m| m != opt).collect();
            for pattern in 0u32..(1 << others.len()) {
                let mut probability = 1.0 / f64::from(b);
                let mut mean = enumerated(b, height, gammas, depth + 1, max_wins);
                for (i, _) in others.iter().enumerate() {
                    let flipped = pattern >> i & 1 == 1;
                    probability *= if flipped { gamma } else { 1.0 - gamma };
                    mean += enumerated(b, height, gammas, depth + 1, max_wins ^ flipped);
                }
                total += probability * mean / f64::from(b);
            }
        }
        total
    }

    #[test]
    fn expected_playout_matches_the_enumerated_law() {
        const EXACT: f64 = 1e-12;
        for (b, h, gammas) in [
            (2u32, 6u32, [1.0, 1.0]),
            (2, 7, [0.9, 0.6]),
            (3, 5, [0.5, 1.0]),
            (3, 4, [0.0, 0.25]),
        ] {
            let table = expected_playout_table(b, h, gammas[0], gammas[1]);
            for d in 0..=h {
                for max_wins in [false, true] {
                    let want = enumerated(b, h, gammas, d, max_wins);
                    let got = table[2 * d as usize + usize::from(max_wins)];
                    assert!(
                        (got - want).abs() < EXACT,
                        "b={b} h={h} d={d}: {got} vs {want}"
                    );
                }
            }
        }
    }

    /// The closed form for equal rates (the authors' formula with K^d in the numerator).
    #[test]
    fn expected_playout_closed_form_for_equal_rates() {
        const EXACT: f64 = 1e-13;
        for (b, gamma) in [(2u32, 1.0), (5, 0.9), (8, 1.0), (3, 0.4)] {
            let h = 50;
            let table = expected_playout_table(b, h, gamma, gamma);
            let k = 1.0 - gamma * f64::from(b - 1) / f64::from(b);
            let kk = k * k;
            for r in 1..=h {
                let d = r / 2;
                let even = kk.powi(d as i32) + (1.0 - k) * (1.0 - kk.powi(d as i32)) / (1.0 - kk);
                let closed = if r % 2 == 1 { k * even } else { even };
                // A node r moves from the end, won for its mover, as Max's value or Min's.
                let depth = (h - r) as usize;
                let mover_is_max = depth.is_multiple_of(2);
                let value = table[2 * depth + usize::from(mover_is_max)];
                let mover_value = if mover_is_max { value } else { 1.0 - value };
                assert!((mover_value - closed).abs() < EXACT, "b={b} r={r}");
            }
        }
    }

    /// The mean of a root's actual leaves, averaged over many games, approaches the
    /// expected-playout value: with the root's rate set to `gamma_max` the table's root entry,
    /// with rate 1 the mean of the table's entries of its children (one won Max node, `b - 1`
    /// won Min nodes).
    #[test]
    fn expected_playout_is_the_mean_leaf() {
        const SIGMAS: f64 = 5.0;
        let (b, h, gamma_max, gamma_min) = (2u32, 8u32, 0.8, 0.6);
        let games = 3000u32;
        let leaf_mean = |game: &CriticalGame| {
            let leaves: Vec<f64> = by_path_depth_first(game, h)
                .values()
                .filter(|n| n.depth == h)
                .map(|n| game.true_value(n))
                .collect();
            leaves.iter().sum::<f64>() / leaves.len() as f64
        };
        let table = CriticalGame::new(b, h, gamma_max, gamma_min, 0).unwrap();
        let node = |depth, max_wins| CriticalNode {
            key: 0,
            depth,
            max_wins,
        };
        let rate_one = (table.expected_playout(&node(1, true))
            + f64::from(b - 1) * table.expected_playout(&node(1, false)))
            / f64::from(b);
        for (root_gamma, want) in [
            (gamma_max, table.expected_playout(&table.root())),
            (1.0, rate_one),
        ] {
            let (mut sum, mut sum_sq) = (0.0, 0.0);
            for seed in 0..games {
                let game = CriticalGame::new(b, h, gamma_max, gamma_min, u64::from(seed))
                    .unwrap()
                    .with_root_gamma(root_gamma)
                    .unwrap();
                let m = leaf_mean(&game);
                sum += m;
                sum_sq += m * m;
            }
            let n = f64::from(games);
            let mean = sum / n;
            let sd = ((sum_sq / n - mean * mean) / n).sqrt();
            assert!(
                (mean - want).abs() < SIGMAS * sd,
                "root rate {root_gamma}: {mean} vs {want}"
            );
        }
    }

    #[test]
    fn normal_draws_are_standard() {
        const SIGMAS: f64 = 5.0;
        let game = CriticalGame::new(8, 3, 1.0, 1.0, 2).unwrap();
        let nodes: Vec<CriticalNode> = by_path_depth_first(&game, 3).into_values().collect();
        let n = nodes.len() as f64;
        let z: Vec<f64> = nodes.iter().map(|x| game.standard_normal(x)).collect();
        let mean = z.iter().sum::<f64>() / n;
        let var = z.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0);
        assert!(mean.abs() < SIGMAS / n.sqrt(), "{mean}");
        assert!((var - 1.0).abs() < SIGMAS * (2.0 / n).sqrt(), "{var}");
        let tail = z.iter().filter(|v| v.abs() > 1.959_963_984_540_054).count() as f64 / n;
        assert!(
            (tail - 0.05).abs() < SIGMAS * (0.05 * 0.95 / n).sqrt(),
            "{tail}"
        );
    }

    #[test]
    fn arguments_are_checked() {
        let err = CriticalGame::new(1, 5, 1.0, 1.0, 0).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("--branching must be in 2..=255")
        );
        assert!(CriticalGame::new(2, 0, 1.0, 1.0, 0).is_err());
        let err = CriticalGame::new(2, 5, 1.0, -0.1, 0).unwrap_err();
        assert!(err.to_string().starts_with("--gamma must be in [0, 1]"));
        assert!(CriticalGame::new(2, 5, f64::NAN, 1.0, 0).is_err());
    }
}
