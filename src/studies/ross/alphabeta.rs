//! Ross (2020): alpha-beta values of root moves are bounds, and random tie-breaking over them
//! can pick a losing move.
//!
//! For a position, [`analyze`] lists every legal move (in the game's order) with its true
//! minimax value, the value alpha-beta returns when the root passes its alpha (Max to move)
//! or beta (Min to move) on to later moves, and whether that value is only a bound. Two root
//! rules choose among the moves with the best alpha-beta value, uniformly at random:
//!
//! - **naive**: as Ross's program, over the values as returned;
//! - **safe** (our choice): every tied move whose value is a bound is re-searched with the
//!   full window, which gives its minimax value, and the choice is among the moves whose
//!   re-searched value is still the best. Its loss probability is 0 by construction, which
//!   the tests check.
//!
//! A move **loses** (Ross's "losing move") when its minimax value is worse for the mover than
//! the position's: it throws away the value the position has (a draw turned into a loss).
//! The probabilities are exact fractions: tied losing moves over tied moves.
//!
//! [`estimate_naive_losses`] repeats the comparison over random uniform game trees with small
//! integer leaf values (ties are what makes cut-offs return equal bounds), and
//! [`estimate_naive_losses_tictactoe`] over random tic-tac-toe positions (X moving first,
//! a fixed number of uniformly random moves from the empty board, redrawn while the game is
//! over).

use serde::Serialize;

use crate::error::{Error, Result};
use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use crate::games::{ExplicitTree, Game, TicTacToe};
use crate::model::Player;
use crate::search::alphabeta::{Bound, NodeCount, alphabeta, root_values};
use crate::search::evaluators::Perfect;
use crate::search::solve;
use crate::sim::runner::TrialRunner;
use crate::sim::stats::{Comparison, Mean, Proportion};

/// One root move.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveReport<M> {
    /// The move (for tic-tac-toe, the square 0..=8).
    pub square: M,
    /// Its true minimax value.
    pub minimax: f64,
    /// The value alpha-beta returned with the root's bound passed on.
    pub alphabeta: f64,
    /// Whether that value is only a bound.
    pub bound: bool,
}

/// An exact probability `numerator / denominator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fraction {
    /// Numerator.
    pub numerator: u64,
    /// Denominator (at least 1).
    pub denominator: u64,
}

impl Fraction {
    /// As f64.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::ross::alphabeta::Fraction;
    /// let f = Fraction { numerator: 6, denominator: 8 };
    /// assert_eq!(f.value(), 0.75);
    /// assert_eq!(f.to_string(), "3/4"); // displayed in lowest terms
    /// ```
    pub fn value(&self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let g = gcd(self.numerator, self.denominator).max(1);
        write!(f, "{}/{}", self.numerator / g, self.denominator / g)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The tie-breaking analysis of one position.
#[derive(Debug, Clone, PartialEq)]
pub struct TieBreakAnalysis<M> {
    /// The player to move.
    pub player: Player,
    /// The moves in the game's order.
    pub moves: Vec<MoveReport<M>>,
    /// Probability that the naive rule picks a losing move.
    pub naive_loss: Fraction,
    /// Probability that the safe rule picks a losing move (0).
    pub safe_loss: Fraction,
}

/// Analyses the root of `state` (searched to the end of the game).
///
/// # Examples
///
/// Ross's example: X's squares 4, 5, 6, 7 all get 0, but only 4 draws.
///
/// ```
/// use pathology::games::TicTacToe;
/// use pathology::studies::ross::alphabeta::analyze;
/// let board = TicTacToe.parse_board("........O").unwrap();
/// let analysis = analyze(&TicTacToe, &board).unwrap();
/// assert_eq!(analysis.naive_loss.to_string(), "3/4");
/// assert_eq!(analysis.safe_loss.numerator, 0);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--board` when the game is already over.
pub fn analyze<G: Game>(game: &G, state: &G::State) -> Result<TieBreakAnalysis<G::Move>> {
    if game.moves(state).is_empty() {
        return Err(Error::invalid(
            "--board",
            "a position where the game is not over",
            "a finished game",
        ));
    }
    let player = game.to_move(state);
    // Values as seen by the mover: higher is better.
    let side = |v: f64| match player {
        Player::Max => v,
        Player::Min => -v,
    };
    let roots = root_values(game, state, u32::MAX, &Perfect);
    let moves: Vec<MoveReport<G::Move>> = roots
        .iter()
        .map(|r| MoveReport {
            square: r.mv,
            minimax: solve(game, &game.play(state, r.mv)),
            alphabeta: r.value,
            bound: r.bound != Bound::Exact,
        })
        .collect();
    let best_true = moves
        .iter()
        .map(|m| side(m.minimax))
        .fold(f64::NEG_INFINITY, f64::max);
    let loses = |m: &MoveReport<G::Move>| side(m.minimax) < best_true;
    let best_ab = moves
        .iter()
        .map(|m| side(m.alphabeta))
        .fold(f64::NEG_INFINITY, f64::max);
    let naive: Vec<&MoveReport<G::Move>> = moves
        .iter()
        .filter(|m| side(m.alphabeta) == best_ab)
        .collect();
    let naive_loss = Fraction {
        numerator: naive.iter().filter(|m| loses(m)).count() as u64,
        denominator: naive.len() as u64,
    };
    // Safe: re-search tied bounds with the full window.
    let researched: Vec<(f64, &MoveReport<G::Move>)> = naive
        .iter()
        .map(|m| {
            let value = if m.bound {
                let mut count = NodeCount::default();
                let child = game.play(state, m.square);
                alphabeta(
                    game,
                    &child,
                    u32::MAX,
                    f64::NEG_INFINITY,
                    f64::INFINITY,
                    &Perfect,
                    &mut count,
                )
            } else {
                m.alphabeta
            };
            (side(value), *m)
        })
        .collect();
    let best_safe = researched
        .iter()
        .map(|r| r.0)
        .fold(f64::NEG_INFINITY, f64::max);
    let safe: Vec<&MoveReport<G::Move>> = researched
        .iter()
        .filter(|r| r.0 == best_safe)
        .map(|r| r.1)
        .collect();
    let safe_loss = Fraction {
        numerator: safe.iter().filter(|m| loses(m)).count() as u64,
        denominator: safe.len() as u64,
    };
    Ok(TieBreakAnalysis {
        player,
        moves,
        naive_loss,
        safe_loss,
    })
}

/// Random game trees for [`estimate_naive_losses`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RandomTrees {
    /// Branching factor.
    pub branching: usize,
    /// Depth (Max moves at the root).
    pub depth: u32,
    /// Leaf values are uniform on `0..=max_value`.
    pub max_value: u32,
}

/// Over random trees: how often the naive rule can pick a losing move, the mean probability
/// that it does, and the same for the safe rule (exact value 0).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NaiveLossEstimate {
    /// Fraction of trees where the naive rule can pick a losing move (its decision changes).
    pub naive_can_lose: Comparison,
    /// Mean probability that the naive rule picks a losing move.
    pub naive_loss_probability: Comparison,
    /// Mean probability that the safe rule picks a losing move (exact: 0).
    pub safe_loss_probability: Comparison,
}

/// Runs the naive/safe comparison on `runner.trials()` random trees.
///
/// # Examples
///
/// ```
/// use pathology::sim::TrialRunner;
/// use pathology::studies::ross::alphabeta::{RandomTrees, estimate_naive_losses};
/// let trees = RandomTrees { branching: 3, depth: 4, max_value: 2 };
/// let result = estimate_naive_losses(trees, &TrialRunner::new(500, 1, 1).unwrap()).unwrap();
/// assert!(result.naive_can_lose.estimate > 0.0);
/// assert_eq!(result.safe_loss_probability.estimate, 0.0);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--branching` (2..=8) or `--depth` (1..=10).
pub fn estimate_naive_losses(
    trees: RandomTrees,
    runner: &TrialRunner,
) -> Result<NaiveLossEstimate> {
    check_trees(&trees)?;
    summarize(runner, |rng| {
        let tree = ExplicitTree::random_uniform(trees.branching, trees.depth, trees.max_value, rng);
        let analysis = analyze(&tree, &0).expect("depth >= 1");
        (analysis.naive_loss, analysis.safe_loss)
    })
}

/// Checks `--branching` (2..=8) and `--depth` (1..=10, `b^depth <= 10^6`).
pub(crate) fn check_trees(trees: &RandomTrees) -> Result<()> {
    if !(2..=8).contains(&trees.branching) {
        return Err(Error::invalid("--branching", "in 2..=8", trees.branching));
    }
    if !(1..=10).contains(&trees.depth) || (trees.branching as f64).powi(trees.depth as i32) > 1e6 {
        return Err(Error::invalid(
            "--depth",
            "in 1..=10 with branching^depth at most 10^6",
            trees.depth,
        ));
    }
    Ok(())
}

/// Checks `--plies` (1..=8).
pub(crate) fn check_plies(plies: u32) -> Result<()> {
    if !(1..=8).contains(&plies) {
        return Err(Error::invalid("--plies", "in 1..=8", plies));
    }
    Ok(())
}

/// Runs the naive/safe comparison on `runner.trials()` random tic-tac-toe positions reached
/// by `plies` uniformly random moves from the empty board (X first), redrawn while the game
/// is over.
///
/// # Examples
///
/// ```
/// use pathology::sim::TrialRunner;
/// use pathology::studies::ross::alphabeta::estimate_naive_losses_tictactoe;
/// let result = estimate_naive_losses_tictactoe(4, &TrialRunner::new(50, 1, 1).unwrap()).unwrap();
/// assert_eq!(result.safe_loss_probability.estimate, 0.0);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--plies` outside 1..=8.
pub fn estimate_naive_losses_tictactoe(
    plies: u32,
    runner: &TrialRunner,
) -> Result<NaiveLossEstimate> {
    check_plies(plies)?;
    let game = TicTacToe;
    let empty = game.parse_board(".........").expect("a legal board");
    summarize(runner, |rng| {
        loop {
            let mut board = empty;
            for _ in 0..plies {
                let moves = game.moves(&board);
                if moves.is_empty() {
                    break;
                }
                board = game.play(&board, moves[rng.random_range(0..moves.len())]);
            }
            if let Ok(analysis) = analyze(&game, &board) {
                return (analysis.naive_loss, analysis.safe_loss);
            }
        }
    })
}

fn summarize(
    runner: &TrialRunner,
    trial: impl Fn(&mut ChaCha8Rng) -> (Fraction, Fraction) + Sync + Send,
) -> Result<NaiveLossEstimate> {
    let (can_lose, naive, safe) = runner.run(
        || (),
        |_, rng| trial(rng),
        (Proportion::default(), Mean::default(), Mean::default()),
        |(mut can_lose, mut naive, mut safe), (n, s)| {
            can_lose.record(n.numerator > 0);
            naive.record(n.value());
            safe.record(s.value());
            (can_lose, naive, safe)
        },
    )?;
    Ok(NaiveLossEstimate {
        naive_can_lose: can_lose.compare(None),
        naive_loss_probability: naive.compare_unit(None),
        safe_loss_probability: safe.compare_unit(Some(0.0)),
    })
}

/// Seconds per trial of `mc alphabeta` on random uniform trees of branching b and depth d
/// (`(b^(d+1) - 1)/(b - 1)` nodes drawn and searched).
///
/// Measured with `--threads 1` on the release build: b = 2, d = 10: 177 us; b = 5, d = 8:
/// 20 ms.
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `--branching` or `--depth` out of range, as the
/// experiment itself.
///
/// # Examples
///
/// ```
/// use pathology::studies::ross::alphabeta::RandomTrees;
/// use pathology::studies::ross::alphabeta::tree_trial_seconds;
/// let trees = RandomTrees { branching: 5, depth: 8, max_value: 2 };
/// assert!(tree_trial_seconds(&trees).unwrap() > 0.01);
/// let wide = RandomTrees { branching: 9, ..trees };
/// assert!(tree_trial_seconds(&wide).is_err()); // --branching outside 2..=8
/// ```
pub fn tree_trial_seconds(trees: &RandomTrees) -> Result<f64> {
    check_trees(trees)?;
    let b = trees.branching as f64;
    let nodes = (b.powf(f64::from(trees.depth) + 1.0) - 1.0) / (b - 1.0);
    Ok(500e-9 + 60e-9 * nodes)
}

/// Seconds per trial of `mc alphabeta --positions tictactoe` after `plies` random moves (a
/// full search of the remaining game, at most `(9 - plies)!` lines).
///
/// Measured with `--threads 1` on the release build: 1 ply: 3.1 ms; 4 plies: 30 us; 8
/// plies: 5 us.
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `--plies` outside `1..=8`, as the experiment.
///
/// # Examples
///
/// ```
/// use pathology::studies::ross::alphabeta::tictactoe_trial_seconds;
/// assert!(tictactoe_trial_seconds(1).unwrap() > tictactoe_trial_seconds(8).unwrap());
/// assert!(tictactoe_trial_seconds(9).is_err()); // --plies outside 1..=8
/// ```
pub fn tictactoe_trial_seconds(plies: u32) -> Result<f64> {
    check_plies(plies)?;
    let lines: f64 = (1..=9u32.saturating_sub(plies)).map(f64::from).product();
    Ok(8e-6 + 80e-9 * lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::runner::trial_rng;

    #[test]
    fn ross_position() {
        let board = TicTacToe.parse_board("........O").unwrap();
        let a = analyze(&TicTacToe, &board).unwrap();
        let bounds: Vec<usize> = a
            .moves
            .iter()
            .filter(|m| m.bound && m.alphabeta == 0.0)
            .map(|m| m.square)
            .collect();
        assert_eq!(bounds, vec![5, 6, 7]);
        assert_eq!((a.naive_loss.numerator, a.naive_loss.denominator), (3, 4));
        assert_eq!(a.naive_loss.value(), 0.75);
        assert_eq!(a.safe_loss.to_string(), "0/1");
    }

    /// The safe rule never loses, on trees and on Min-to-move positions.
    #[test]
    fn safe_rule_never_loses() {
        for i in 0..400 {
            let mut rng = trial_rng(77, i);
            let tree = ExplicitTree::random_uniform(3, 4, 2, &mut rng);
            assert_eq!(analyze(&tree, &0).unwrap().safe_loss.numerator, 0);
        }
        let board = TicTacToe.parse_board("X........").unwrap(); // O to move
        let a = analyze(&TicTacToe, &board).unwrap();
        assert_eq!(a.player, Player::Min);
        assert_eq!(a.safe_loss.numerator, 0);
    }

    #[test]
    fn finished_games_are_refused() {
        let board = TicTacToe.parse_board("XXXOO....").unwrap();
        let err = analyze(&TicTacToe, &board).unwrap_err();
        assert!(err.to_string().contains("--board"));
    }

    /// The per-trial cost models reproduce their measurements within a factor of two.
    #[test]
    fn trial_cost_matches_the_measurements() {
        let within = |model: f64, measured: f64| (0.5..=2.0).contains(&(model / measured));
        let trees = |branching, depth| {
            tree_trial_seconds(&RandomTrees {
                branching,
                depth,
                max_value: 2,
            })
            .unwrap()
        };
        assert!(within(trees(2, 10), 177e-6));
        assert!(within(trees(5, 8), 20e-3));
        let ttt = |p| tictactoe_trial_seconds(p).unwrap();
        assert!(within(ttt(1), 3.1e-3));
        assert!(within(ttt(4), 30e-6));
        assert!(within(ttt(8), 5e-6));
    }
}
