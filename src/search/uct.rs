//! UCT, Monte Carlo tree search with UCB1 selection (Kocsis & Szepesvári 2006), over the
//! [`Game`] trait, as Nguyen & Ramanujan (2024, "Lookahead Pathology in Monte-Carlo Tree
//! Search") run it; the details follow the authors' `synthetic_games/algos/uct.py`.
//!
//! **Values** are on the `[0, 1]` scale from Max's point of view: terminal utilities 1 (Max
//! wins) and 0 (Min wins), static evaluations on the same scale (for the critical game see
//! [`crate::games::critical`]: a `+-1` value `v` maps to `(v + 1) / 2`; so does a histogram's
//! evaluation, [`HistogramEvaluator`]).
//!
//! **One iteration** descends from the root:
//!
//! - at a terminal node it stops; the node's value is its exact utility (a terminal node is
//!   visited again and again, never expanded);
//! - at a node with unexpanded moves it expands one, chosen **uniformly among the unexpanded
//!   moves** (from the search's stream), and values the new child by the evaluator (or, with
//!   [`LeafValue::RandomPlayout`], by the utility at the end of uniformly random play) unless it
//!   is terminal, when its utility is exact; the child starts with one visit and that value;
//! - at a fully expanded node it moves to the child that maximises the mover's UCB1 score
//!   ([`ucb1_score`]): `mean + c sqrt(ln N / n)` for Max and `c sqrt(ln N / n) - mean` for Min
//!   (Min maximises `1 - mean`, written so that it is the authors' minimisation of
//!   `mean - c sqrt(ln N / n)` exactly), `mean` and `n` the child's, `N` the node's visits
//!   before this iteration; equal scores are broken uniformly from the search's stream.
//!
//! The value is then backed up: every node on the path (the root and the terminal node
//! included, not the new child, which already holds it) gains one visit and moves its mean
//! towards the value, `mean += (value - mean) / visits` (the authors' update), so a node's
//! mean is the mean of the values of the iterations through it. The root is never evaluated
//! itself.
//!
//! **The decision** after `N` iterations ([`FinalMove`]): with [`FinalMove::Mean`] the child
//! with the best mean for the mover, as the authors read it (their selection with `c = 0`):
//! while some root move is unexpanded (`N < b`) an unexpanded move is chosen uniformly, since an
//! unvisited child scores `+infinity`; with [`FinalMove::Visits`] the most visited child.
//! Ties are broken uniformly, from a stream of their own keyed by one draw taken from the
//! search's stream before the search and by `N`, so recording a decision never changes the
//! search, and the decision at `N` does not depend on which other counts are recorded.
//! [`Uct::search`] records the decision after every count of a grid in one run.
//!
//! **Memory**: at most one arena node per iteration (plus the root; revisiting a terminal node
//! adds none), with 32-bit indices. A node holds the state, its mean and `1 / sqrt(visits)`
//! (`f64`), the visits and counts: `size_of::<S>() + 32` bytes rounded up to the alignment (48
//! bytes for the critical game, [`Uct::bytes_per_node`]). A node's children are a block of `b`
//! 32-bit indices, allocated when its first child is expanded, so that a selection loads the
//! children independently: at most `48 + 4 b` bytes per iteration (80 at b = 8,
//! [`Uct::bytes_used`]).

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::evaluators::Evaluator;
use super::pick_uniform;
use crate::analytic::distributions::Histogram;
use crate::error::{Error, Result};
use crate::games::Game;
use crate::games::critical::{CriticalGame, CriticalNode};
use crate::model::Player;
use crate::numeric::number::rational_to_f64;

/// The arena's "no node" index.
const NONE: u32 = u32::MAX;

/// The number of moves of a node not yet asked from the game.
const UNKNOWN_MOVES: u16 = u16::MAX;

/// The most iterations one search runs (node indices are 32-bit).
pub const MAX_ITERATIONS: u64 = (1 << 31) - 1;

/// Visit counts below this take `sqrt(ln n)` and `1 / sqrt(n)` from tables (the same `f64`
/// values, computed once), above it they are computed.
const TABLE_SIZE: usize = 1 << 16;

/// `sqrt(ln n)` and `1 / sqrt(n)` for `n < TABLE_SIZE`, interleaved.
static TABLES: std::sync::LazyLock<Box<[[f64; 2]]>> = std::sync::LazyLock::new(|| {
    (0..TABLE_SIZE)
        .map(|n| {
            let n = n as f64;
            [n.ln().sqrt(), 1.0 / n.sqrt()]
        })
        .collect()
});

/// `sqrt(ln n)`, bit for bit `(n as f64).ln().sqrt()`.
fn sqrt_ln(n: u32, tables: &[[f64; 2]]) -> f64 {
    match tables.get(n as usize) {
        Some(t) => t[0],
        None => f64::from(n).ln().sqrt(),
    }
}

/// `1 / sqrt(n)`, bit for bit `1.0 / (n as f64).sqrt()`.
fn inverse_sqrt(n: u32, tables: &[[f64; 2]]) -> f64 {
    match tables.get(n as usize) {
        Some(t) => t[1],
        None => 1.0 / f64::from(n).sqrt(),
    }
}

/// How the move is read out after `N` iterations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinalMove {
    /// The best mean for the mover (the paper's), an unexpanded move while there is one.
    Mean,
    /// The most visited child.
    Visits,
}

impl FinalMove {
    /// `mean` or `visits`, as `--final` spells it.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::search::uct::FinalMove;
    /// assert_eq!(FinalMove::Visits.name(), "visits");
    /// assert_eq!(FinalMove::parse("mean").unwrap(), FinalMove::Mean);
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            FinalMove::Mean => "mean",
            FinalMove::Visits => "visits",
        }
    }

    /// Parses `mean` or `visits`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::search::uct::FinalMove;
    /// assert!(FinalMove::parse("robust").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--final`.
    pub fn parse(text: &str) -> Result<Self> {
        match text {
            "mean" => Ok(FinalMove::Mean),
            "visits" => Ok(FinalMove::Visits),
            other => Err(Error::invalid("--final", "mean or visits", other)),
        }
    }
}

/// How a newly expanded non-terminal node is valued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafValue {
    /// By the static evaluator (the paper's heuristics).
    Evaluator,
    /// By the utility at the end of a uniformly random playout (from the search's stream).
    RandomPlayout,
}

/// The settings of one UCT search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UctParams {
    /// The exploration constant c of UCB1.
    pub exploration: f64,
    /// How the move is read out.
    pub final_move: FinalMove,
    /// How new nodes are valued.
    pub leaf: LeafValue,
}

impl UctParams {
    /// UCT with exploration constant `exploration`, the decision by the mean and new nodes
    /// valued by the evaluator.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::search::uct::UctParams;
    /// assert_eq!(UctParams::new(0.5).unwrap().exploration, 0.5);
    /// let err = UctParams::new(-1.0).unwrap_err();
    /// assert_eq!(err.to_string(), "--c must be finite and at least 0, got -1");
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--c` when it is negative or not finite.
    pub fn new(exploration: f64) -> Result<Self> {
        check_exploration(exploration)?;
        Ok(UctParams {
            exploration,
            final_move: FinalMove::Mean,
            leaf: LeafValue::Evaluator,
        })
    }
}

/// Checks an exploration constant.
///
/// # Examples
///
/// ```
/// use pathology::search::uct::check_exploration;
/// assert!(check_exploration(1e6).is_ok());
/// assert!(check_exploration(f64::INFINITY).is_err());
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--c`.
pub fn check_exploration(c: f64) -> Result<()> {
    if c.is_finite() && c >= 0.0 {
        Ok(())
    } else {
        Err(Error::invalid("--c", "finite and at least 0", c))
    }
}

/// Checks an iteration grid: increasing counts from 1 to [`MAX_ITERATIONS`].
///
/// # Examples
///
/// ```
/// use pathology::search::uct::check_iterations;
/// assert!(check_iterations(&[1, 10, 100]).is_ok());
/// assert!(check_iterations(&[10, 10]).is_err());
/// assert!(check_iterations(&[0, 1]).is_err());
/// assert!(check_iterations(&[]).is_err());
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--iterations`.
pub fn check_iterations(grid: &[u64]) -> Result<()> {
    let increasing = grid.windows(2).all(|w| w[0] < w[1]);
    let in_range = grid.iter().all(|&n| (1..=MAX_ITERATIONS).contains(&n));
    if grid.is_empty() || !increasing || !in_range {
        return Err(Error::invalid(
            "--iterations",
            &format!(
                "increasing whole numbers {}",
                crate::numeric::arguments::whole_range(1, MAX_ITERATIONS)
            ),
            format!("{grid:?}"),
        ));
    }
    Ok(())
}

/// The UCB1 score of a child for the player to move at its parent: `mean + c sqrt(ln N / n)`
/// for Max, `c sqrt(ln N / n) - mean` for Min, where `mean` is the child's mean for Max, `n`
/// its visits and `N` the parent's; computed as the search computes it,
/// `(c sqrt(ln N)) (1 / sqrt(n))`, bit for bit.
///
/// # Examples
///
/// ```
/// use pathology::model::Player;
/// use pathology::search::uct::ucb1_score;
/// // mean 0.5 after 2 of the parent's 10 visits, c = 1: 0.5 + sqrt(ln(10) / 2).
/// assert!((ucb1_score(0.5, 2, 10, 1.0, Player::Max) - 1.572_983_0).abs() < 1e-7);
/// assert!((ucb1_score(0.5, 2, 10, 1.0, Player::Min) - 0.572_983_0).abs() < 1e-7);
/// assert_eq!(ucb1_score(0.25, 4, 10, 0.0, Player::Min), -0.25);
/// ```
pub fn ucb1_score(mean: f64, visits: u32, parent_visits: u32, c: f64, player: Player) -> f64 {
    let factor = c * f64::from(parent_visits).ln().sqrt();
    let explore = factor * (1.0 / f64::from(visits).sqrt());
    match player {
        Player::Max => mean + explore,
        Player::Min => explore - mean,
    }
}

/// One node of the search tree.
#[derive(Debug, Clone)]
struct Node<S> {
    state: S,
    /// The mean of the values backed up through the node (Max's point of view), kept as the
    /// authors keep it: `mean += (value - mean) / visits`.
    mean: f64,
    /// `1 / sqrt(visits)`, the child's factor in UCB1's exploration term.
    inverse_sqrt_visits: f64,
    visits: u32,
    /// The first of the node's `moves` slots in [`Uct::children`] (allocated at its first
    /// expansion), [`NONE`] before.
    children: u32,
    /// The index of the move that led here, in the parent's move list.
    move_index: u16,
    /// The number of legal moves; 0 at terminal nodes, [`UNKNOWN_MOVES`] before the game was
    /// asked.
    moves: u16,
    /// Children expanded so far (the first `expanded` slots of its block, in expansion order).
    expanded: u16,
    max_to_move: bool,
}

impl<S> Node<S> {
    fn new(
        state: S,
        value: f64,
        visits: u32,
        move_index: u16,
        moves: u16,
        max_to_move: bool,
    ) -> Self {
        Node {
            state,
            mean: value,
            inverse_sqrt_visits: 1.0,
            visits,
            children: NONE,
            move_index,
            moves,
            expanded: 0,
            max_to_move,
        }
    }
}

/// A child of the root after a search: what decisions are made from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChildStats {
    /// The index of its move in the game's move list at the root.
    pub move_index: usize,
    /// Its visits.
    pub visits: u32,
    /// Its mean value for Max.
    pub mean: f64,
}

/// A UCT search tree: an arena reused from one search to the next (per thread).
#[derive(Debug, Clone)]
pub struct Uct<S> {
    nodes: Vec<Node<S>>,
    /// Per expanded node, a block of as many slots as it has moves: the arena indices of its
    /// children in expansion order (so a selection loads the children independently instead
    /// of chasing links).
    children: Vec<u32>,
    path: Vec<u32>,
    ties: Vec<u32>,
    taken: Vec<bool>,
}

impl<S: Clone> Default for Uct<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Clone> Uct<S> {
    /// An empty search tree.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalNode;
    /// use pathology::search::uct::Uct;
    /// let uct = Uct::<CriticalNode>::new();
    /// assert_eq!(uct.node_count(), 0);
    /// ```
    pub fn new() -> Self {
        Uct {
            nodes: Vec::new(),
            children: Vec::new(),
            path: Vec::new(),
            ties: Vec::new(),
            taken: Vec::new(),
        }
    }

    /// The bytes of one node of the arena; each node with children also holds 4 bytes per
    /// legal move in the child-index blocks ([`Uct::bytes_used`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalNode;
    /// use pathology::search::uct::Uct;
    /// assert_eq!(Uct::<CriticalNode>::bytes_per_node(), 48);
    /// ```
    pub fn bytes_per_node() -> usize {
        std::mem::size_of::<Node<S>>()
    }

    /// The nodes of the last search's tree (at most one per iteration, and the root).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// use pathology::search::uct::{CriticalEvaluator, Uct, UctParams};
    /// use rand::SeedableRng;
    /// let game = CriticalGame::new(4, 30, 1.0, 1.0, 1).unwrap();
    /// let mut uct = Uct::new();
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    /// uct.search(&game, &game.root(), &CriticalEvaluator::Perfect, &UctParams::new(1.0).unwrap(), &[100], &mut rng)
    ///     .unwrap();
    /// assert_eq!(uct.node_count(), 101); // no terminal node reached in 100 iterations
    /// ```
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The bytes the last search's tree uses: its nodes and child-index blocks.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::{CriticalGame, CriticalNode};
    /// use pathology::search::uct::{CriticalEvaluator, Uct, UctParams};
    /// use rand::SeedableRng;
    /// let game = CriticalGame::new(8, 50, 1.0, 1.0, 3).unwrap();
    /// let mut uct = Uct::new();
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    /// let evaluator = CriticalEvaluator::Gaussian { sigma: 0.5 };
    /// uct.search(&game, &game.root(), &evaluator, &UctParams::new(1.0).unwrap(), &[10_000], &mut rng)
    ///     .unwrap();
    /// // Under 100 bytes per iteration even at b = 8.
    /// assert!(uct.bytes_used() < 100 * 10_000);
    /// ```
    pub fn bytes_used(&self) -> usize {
        self.nodes.len() * Self::bytes_per_node() + self.children.len() * 4
    }

    /// The root's expanded children after the last search, in move order.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::critical::CriticalGame;
    /// use pathology::search::evaluators::Perfect;
    /// use pathology::search::uct::{Uct, UctParams};
    /// use rand::SeedableRng;
    /// let game = CriticalGame::new(2, 6, 1.0, 1.0, 3).unwrap();
    /// let mut uct = Uct::new();
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    /// uct.search(&game, &game.root(), &Perfect, &UctParams::new(1.0).unwrap(), &[50], &mut rng)
    ///     .unwrap();
    /// let children = uct.root_children();
    /// assert_eq!(children.iter().map(|c| c.visits).sum::<u32>(), 50);
    /// ```
    pub fn root_children(&self) -> Vec<ChildStats> {
        let mut out: Vec<ChildStats> = match self.nodes.first() {
            Some(root) => self
                .child_indices(root)
                .iter()
                .map(|&i| {
                    let node = &self.nodes[i as usize];
                    ChildStats {
                        move_index: usize::from(node.move_index),
                        visits: node.visits,
                        mean: node.mean,
                    }
                })
                .collect(),
            None => Vec::new(),
        };
        out.sort_by_key(|c| c.move_index);
        out
    }

    /// The arena indices of a node's expanded children.
    fn child_indices(&self, node: &Node<S>) -> &[u32] {
        if node.children == NONE {
            &[]
        } else {
            let start = node.children as usize;
            &self.children[start..start + usize::from(node.expanded)]
        }
    }

    /// Runs UCT from `root` for `checkpoints.last()` iterations and returns the decision (the
    /// index of the chosen move in `game.moves(root)`) after each count of `checkpoints`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::Game;
    /// use pathology::games::critical::CriticalGame;
    /// use pathology::search::uct::{CriticalEvaluator, Uct, UctParams};
    /// use rand::SeedableRng;
    /// let game = CriticalGame::new(2, 8, 1.0, 1.0, 42).unwrap();
    /// let root = game.root();
    /// let winning = game.optimal_move(&root) as usize;
    /// let mut uct = Uct::new();
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(5);
    /// let params = UctParams::new(1.0).unwrap();
    /// let evaluator = CriticalEvaluator::Gaussian { sigma: 0.5 };
    /// let decisions = uct.search(&game, &root, &evaluator, &params, &[1, 10, 5000], &mut rng).unwrap();
    /// assert_eq!(decisions.len(), 3);
    /// assert_eq!(decisions[2], winning);
    /// // At most the 511 nodes of the tree: terminal nodes are revisited, not added.
    /// assert!(uct.node_count() <= 511);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--iterations` for a grid that is not increasing in
    /// `1..=`[`MAX_ITERATIONS`], `--c` for a bad exploration constant, and `root` for a terminal
    /// root or a position with more than 65,534 moves.
    pub fn search<G, E>(
        &mut self,
        game: &G,
        root: &S,
        evaluator: &E,
        params: &UctParams,
        checkpoints: &[u64],
        rng: &mut ChaCha8Rng,
    ) -> Result<Vec<usize>>
    where
        G: Game<State = S>,
        E: Evaluator<G> + ?Sized,
    {
        check_iterations(checkpoints)?;
        check_exploration(params.exploration)?;
        if game.utility(root).is_some() {
            return Err(Error::invalid(
                "root",
                "a state where the game is not over",
                "a terminal state",
            ));
        }
        let last = *checkpoints.last().expect("checked non-empty");
        self.nodes.clear();
        self.children.clear();
        // Room for the whole tree up to a million nodes; beyond, the arena grows as needed
        // (revisited terminal nodes add none).
        self.nodes.reserve((last as usize + 1).min(1 << 20));
        let max_to_move = game.to_move(root) == Player::Max;
        self.nodes.push(Node::new(
            root.clone(),
            0.0,
            0,
            0,
            UNKNOWN_MOVES,
            max_to_move,
        ));
        let readout_seed: u64 = rng.random();
        let mut decisions = Vec::with_capacity(checkpoints.len());
        let mut next = 0;
        for iteration in 1..=last {
            self.iterate(game, evaluator, params, rng)?;
            if iteration == checkpoints[next] {
                let mut readout = ChaCha8Rng::seed_from_u64(readout_seed);
                readout.set_stream(iteration);
                decisions.push(self.decide(params.final_move, &mut readout));
                next += 1;
            }
        }
        Ok(decisions)
    }

    /// One iteration: descend, expand or stop at a terminal node, back the value up.
    fn iterate<G, E>(
        &mut self,
        game: &G,
        evaluator: &E,
        params: &UctParams,
        rng: &mut ChaCha8Rng,
    ) -> Result<()>
    where
        G: Game<State = S>,
        E: Evaluator<G> + ?Sized,
    {
        self.path.clear();
        let mut current = 0u32;
        let value = loop {
            self.path.push(current);
            let node = &self.nodes[current as usize];
            if node.moves == 0 {
                break game
                    .utility(&node.state)
                    .expect("a node without moves is terminal");
            }
            if node.moves == UNKNOWN_MOVES || node.expanded < node.moves {
                break self.expand(current, game, evaluator, params.leaf, rng)?;
            }
            current = self.select(current, params.exploration, rng);
        };
        let tables: &[[f64; 2]] = &TABLES;
        for &i in &self.path {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.mean += (value - node.mean) / f64::from(node.visits);
            node.inverse_sqrt_visits = inverse_sqrt(node.visits, tables);
        }
        Ok(())
    }

    /// The child of a fully expanded node with the best UCB1 score for its mover (ties
    /// uniform).
    fn select(&mut self, parent: u32, c: f64, rng: &mut ChaCha8Rng) -> u32 {
        let node = &self.nodes[parent as usize];
        let factor = c * sqrt_ln(node.visits, &TABLES);
        let max = node.max_to_move;
        let start = node.children as usize;
        let block = &self.children[start..start + usize::from(node.moves)];
        let mut best = f64::NEG_INFINITY;
        let mut chosen = NONE;
        let mut tied = false;
        for &child in block {
            let n = &self.nodes[child as usize];
            let explore = factor * n.inverse_sqrt_visits;
            let score = if max {
                n.mean + explore
            } else {
                explore - n.mean
            };
            if score > best {
                best = score;
                chosen = child;
                tied = false;
            } else if score == best {
                tied = true;
            }
        }
        if tied {
            // Rare with real-valued evaluations: collect the ties and draw.
            self.ties.clear();
            for &child in block {
                let n = &self.nodes[child as usize];
                let explore = factor * n.inverse_sqrt_visits;
                let score = if max {
                    n.mean + explore
                } else {
                    explore - n.mean
                };
                if score == best {
                    self.ties.push(child);
                }
            }
            chosen = self.ties[pick_uniform(rng, self.ties.len())];
        }
        debug_assert!(chosen != NONE, "scores are never NaN");
        chosen
    }

    /// Expands a move of `parent` chosen uniformly among its unexpanded ones; returns the new
    /// child's value.
    fn expand<G, E>(
        &mut self,
        parent: u32,
        game: &G,
        evaluator: &E,
        leaf: LeafValue,
        rng: &mut ChaCha8Rng,
    ) -> Result<f64>
    where
        G: Game<State = S>,
        E: Evaluator<G> + ?Sized,
    {
        let node = &self.nodes[parent as usize];
        let moves = game.moves(&node.state);
        if moves.len() >= usize::from(UNKNOWN_MOVES) {
            return Err(Error::invalid(
                "root",
                "a game with at most 65534 moves a position",
                moves.len(),
            ));
        }
        let count = moves.len() as u16;
        let expanded = node.expanded;
        // Which moves are expanded already.
        self.taken.clear();
        self.taken.resize(moves.len(), false);
        if node.children != NONE {
            let start = node.children as usize;
            for &child in &self.children[start..start + usize::from(expanded)] {
                self.taken[usize::from(self.nodes[child as usize].move_index)] = true;
            }
        }
        let k = pick_uniform(rng, usize::from(count - expanded));
        let move_index = (0..moves.len())
            .filter(|&i| !self.taken[i])
            .nth(k)
            .expect("an unexpanded move");
        let state = game.play(&node.state, moves[move_index]);
        let (value, child_moves) = match game.utility(&state) {
            Some(u) => (u, 0),
            None => {
                let v = match leaf {
                    LeafValue::Evaluator => evaluator.evaluate(game, &state),
                    LeafValue::RandomPlayout => random_playout(game, &state, rng),
                };
                (v, UNKNOWN_MOVES)
            }
        };
        let index = self.nodes.len() as u32;
        let max_to_move = game.to_move(&state) == Player::Max;
        self.nodes.push(Node::new(
            state,
            value,
            1,
            move_index as u16,
            child_moves,
            max_to_move,
        ));
        if expanded == 0 {
            let slot = self.children.len() as u32;
            self.children
                .resize(self.children.len() + moves.len(), NONE);
            self.nodes[parent as usize].children = slot;
        }
        let node = &mut self.nodes[parent as usize];
        self.children[node.children as usize + usize::from(expanded)] = index;
        node.moves = count;
        node.expanded += 1;
        Ok(value)
    }

    /// The decision at the root (see the module docs).
    fn decide(&mut self, final_move: FinalMove, rng: &mut ChaCha8Rng) -> usize {
        let root = &self.nodes[0];
        let max = root.max_to_move;
        let children = self.root_children();
        if final_move == FinalMove::Mean && root.expanded < root.moves {
            let free: Vec<usize> = (0..usize::from(root.moves))
                .filter(|i| !children.iter().any(|c| c.move_index == *i))
                .collect();
            return free[pick_uniform(rng, free.len())];
        }
        let score = |c: &ChildStats| match final_move {
            FinalMove::Mean if max => c.mean,
            FinalMove::Mean => -c.mean,
            FinalMove::Visits => f64::from(c.visits),
        };
        let best = children.iter().map(score).fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<usize> = children
            .iter()
            .filter(|c| score(c) == best)
            .map(|c| c.move_index)
            .collect();
        tied[pick_uniform(rng, tied.len())]
    }
}

/// The utility at the end of uniformly random play from `state`.
///
/// # Examples
///
/// ```
/// use pathology::games::critical::CriticalGame;
/// use pathology::search::uct::random_playout;
/// use rand::SeedableRng;
/// let game = CriticalGame::new(3, 10, 1.0, 1.0, 1).unwrap();
/// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(2);
/// let value = random_playout(&game, &game.root(), &mut rng);
/// assert!(value == 0.0 || value == 1.0);
/// ```
pub fn random_playout<G: Game>(game: &G, state: &G::State, rng: &mut ChaCha8Rng) -> f64 {
    let mut state = state.clone();
    loop {
        if let Some(u) = game.utility(&state) {
            return u;
        }
        let moves = game.moves(&state);
        state = game.play(&state, moves[pick_uniform(rng, moves.len())]);
    }
}

/// The static evaluators of the critical win-loss game ([`crate::games::critical`]), on UCT's
/// `[0, 1]` scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CriticalEvaluator {
    /// The true value: 1 when Max wins the node, 0 otherwise.
    Perfect,
    /// The true value `+-1` plus `N(0, sigma^2)` noise, mapped by `(v + 1) / 2`
    /// ([`CriticalGame::gaussian_value`]).
    Gaussian {
        /// The noise's standard deviation sigma (on the `+-1` scale).
        sigma: f64,
    },
    /// The paper's expected-playout heuristic ([`CriticalGame::expected_playout`]).
    ExpectedPlayout,
    /// The true value, 1 or 0, wrong with probability `error` independently per node
    /// ([`CriticalGame::artificial_value`]).
    Artificial {
        /// The error rate e.
        error: f64,
    },
}

impl Evaluator<CriticalGame> for CriticalEvaluator {
    fn evaluate(&self, game: &CriticalGame, state: &CriticalNode) -> f64 {
        match *self {
            CriticalEvaluator::Perfect => game.true_value(state),
            CriticalEvaluator::Gaussian { sigma } => game.gaussian_value(state, sigma),
            CriticalEvaluator::ExpectedPlayout => game.expected_playout(state),
            CriticalEvaluator::Artificial { error } => game.artificial_value(state, error),
        }
    }
}

/// `2^53`: the draws are multiples of `2^-53` and so are the histogram's cumulative weights.
const TWO_53: f64 = (1u64 << 53) as f64;

/// One true value's law as [`HistogramEvaluator`] draws from it.
#[derive(Debug, Clone, PartialEq)]
struct DrawTable {
    /// `upper[i]`: the exact cumulative probability of atoms `0..=i`, rounded to the nearest
    /// multiple of `2^-53` (exactly representable); the last is exactly 1.
    upper: Vec<f64>,
    /// The atoms' evaluations on UCT's scale, `(e + 1) / 2` rounded once to `f64`.
    values: Vec<f64>,
}

/// A **histogram evaluator** on UCT's `[0, 1]` scale: a node's evaluation is drawn once from an
/// empirical law given its true value, as Nguyen & Ramanujan's (2024) chess and othello
/// heuristics are (histograms of engine evaluations of won and lost positions; theirs are not
/// redistributable, so the user brings one, `pathology mc uct --evaluator histogram
/// --histogram FILE`).
///
/// **Convention** (the exact engine's, [`crate::analytic::distributions`], so that UCT and the
/// exact d-ply minimax lines read a file the same way): the rows of true value `1` are the law
/// of a node Max wins, those of `-1` the law of a node Max loses (rows of other true values are
/// not used, as by `decision --game crit`); an evaluation `e`, on that `+-1` scale, is mapped
/// to `(e + 1) / 2` (not clamped), as the Gaussian evaluator maps `+-1 + sigma Z`. Only the
/// order of evaluations matters to minimax, so the exact lines are those of the same law.
///
/// **The draw.** The histogram is parsed in exact rationals ([`Histogram::parse`]); each true
/// value's cumulative weights are rounded once to the nearest multiple of `2^-53` (computed
/// exactly), so each evaluation is drawn with its exact probability to within `2^-53`: a
/// node's uniform `u`, a multiple of `2^-53` in `[0, 1)`, picks the first atom whose rounded
/// cumulative weight exceeds `u`. The uniform is the node's own (for the critical game
/// [`CriticalGame::histogram_uniform`]; on boards a per-node hash of the study's), so the
/// evaluation is fixed per node, the same in every search of the game.
///
/// # Examples
///
/// ```
/// use pathology::analytic::distributions::Histogram;
/// use pathology::search::uct::HistogramEvaluator;
/// let h = Histogram::parse("value,evaluation,weight\n1,0.6,1\n1,1,3\n-1,-1,1\n").unwrap();
/// let evaluator = HistogramEvaluator::new(h).unwrap();
/// assert_eq!(evaluator.value(true, 0.0), 0.8); // (0.6 + 1) / 2 with probability 1/4
/// assert_eq!(evaluator.value(true, 0.25), 1.0); // 1 with probability 3/4
/// assert_eq!(evaluator.value(false, 0.9), 0.0);
/// let lost_missing = Histogram::parse("1,1\n").unwrap();
/// let err = HistogramEvaluator::new(lost_missing).unwrap_err().to_string();
/// assert!(err.starts_with("--histogram") && err.contains("true value -1"), "{err}");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct HistogramEvaluator {
    histogram: Histogram,
    /// The law of a node Max loses (index 0) and wins (index 1).
    tables: [DrawTable; 2],
}

impl HistogramEvaluator {
    /// The evaluator of `histogram`'s laws of the true values `-1` and `1`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--histogram` when it has no rows for the true value
    /// `-1` or `1`.
    pub fn new(histogram: Histogram) -> Result<Self> {
        let table = |value: i32| -> Result<DrawTable> {
            let atoms = histogram.law(&BigRational::from_integer(value.into()))?;
            let scale = BigInt::from(1u64 << 53);
            let one = BigRational::one();
            let mut sum = BigRational::zero();
            let mut table = DrawTable {
                upper: Vec::with_capacity(atoms.len()),
                values: Vec::with_capacity(atoms.len()),
            };
            for (evaluation, probability) in atoms {
                sum += probability;
                // round(sum 2^53), halves up: floor((2 n 2^53 + d) / (2 d)), at most 2^53.
                let (n, d) = (sum.numer(), sum.denom());
                let twice = BigInt::from(2);
                let rounded = (n * &scale * &twice + d).div_floor(&(d * &twice));
                let steps = rounded.to_u64().unwrap_or(1 << 53).min(1 << 53);
                table.upper.push(steps as f64 / TWO_53);
                let scaled = (evaluation + &one) / BigRational::from_integer(2.into());
                table.values.push(rational_to_f64(&scaled));
            }
            Ok(table)
        };
        let tables = [table(-1)?, table(1)?];
        Ok(HistogramEvaluator { histogram, tables })
    }

    /// The histogram (exact, as parsed).
    pub fn histogram(&self) -> &Histogram {
        &self.histogram
    }

    /// The evaluation, on UCT's scale, of a node Max wins (`max_wins`) or loses whose uniform
    /// draw is `u` in `[0, 1)`.
    pub fn value(&self, max_wins: bool, u: f64) -> f64 {
        let table = &self.tables[usize::from(max_wins)];
        let i = table.upper.partition_point(|&t| t <= u);
        table.values[i.min(table.values.len() - 1)]
    }
}

impl Evaluator<CriticalGame> for HistogramEvaluator {
    fn evaluate(&self, game: &CriticalGame, state: &CriticalNode) -> f64 {
        self.value(state.max_wins, game.histogram_uniform(state))
    }
}

#[cfg(test)]
mod tests;
