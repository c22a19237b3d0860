//! Alpha-beta pruning (fail-soft), and the values of root moves in Ross's (2020) setting.
//!
//! Alpha is the best value Max is assured of, beta the best value Min is assured of; a Min
//! node stops as soon as its value is `<= alpha`, a Max node as soon as it is `>= beta`.
//! With the full window `(-inf, +inf)` the root value is the minimax value. But when the
//! root passes its alpha on to later moves (Ross: "the alpha value of 0 is passed down"), a
//! move whose search fails low returns only an **upper bound** on its value: in Ross's example
//! square 5 returns 0 although it loses. [`root_values`] reports which values are bounds.

use super::evaluators::Evaluator;
use crate::games::Game;
use crate::model::Player;

/// What a root move's alpha-beta value says about its minimax value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// The value is the minimax value.
    Exact,
    /// The minimax value is at most the value (Max root, search failed low).
    Upper,
    /// The minimax value is at least the value (Min root, search failed high).
    Lower,
}

/// A root move, its alpha-beta value with the root's alpha (or beta) passed on, and whether
/// that value is only a bound.
#[derive(Debug, Clone, PartialEq)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// The value alpha-beta returned for it.
    pub value: f64,
    /// Whether the value is exact or a bound.
    pub bound: Bound,
}

/// Counts of a search's work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NodeCount {
    /// Nodes visited (including the root).
    pub nodes: u64,
    /// Static evaluations and terminal utilities read.
    pub leaves: u64,
}

/// The fail-soft alpha-beta value of `state` searched to `depth` with window
/// `(alpha, beta)`: exact when it lies strictly inside the window, an upper bound when
/// `<= alpha`, a lower bound when `>= beta`.
///
/// # Examples
///
/// ```
/// use pathology::games::{ExplicitTree, Game};
/// use pathology::search::alphabeta::{NodeCount, alphabeta};
/// use pathology::search::{evaluators::Perfect, solve};
/// use rand::SeedableRng;
/// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(3);
/// let tree = ExplicitTree::random_uniform(3, 4, 5, &mut rng);
/// let mut count = NodeCount::default();
/// let value = alphabeta(&tree, &0, 4, f64::NEG_INFINITY, f64::INFINITY, &Perfect, &mut count);
/// assert_eq!(value, solve(&tree, &0));
/// assert!(count.nodes <= tree.len() as u64);
/// ```
pub fn alphabeta<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    state: &G::State,
    depth: u32,
    mut alpha: f64,
    mut beta: f64,
    eval: &E,
    count: &mut NodeCount,
) -> f64 {
    count.nodes += 1;
    if let Some(u) = game.utility(state) {
        count.leaves += 1;
        return u;
    }
    if depth == 0 {
        count.leaves += 1;
        return eval.evaluate(game, state);
    }
    match game.to_move(state) {
        Player::Max => {
            let mut best = f64::NEG_INFINITY;
            for mv in game.moves(state) {
                let v = alphabeta(
                    game,
                    &game.play(state, mv),
                    depth - 1,
                    alpha,
                    beta,
                    eval,
                    count,
                );
                best = best.max(v);
                alpha = alpha.max(v);
                if best >= beta {
                    break;
                }
            }
            best
        }
        Player::Min => {
            let mut best = f64::INFINITY;
            for mv in game.moves(state) {
                let v = alphabeta(
                    game,
                    &game.play(state, mv),
                    depth - 1,
                    alpha,
                    beta,
                    eval,
                    count,
                );
                best = best.min(v);
                beta = beta.min(v);
                if best <= alpha {
                    break;
                }
            }
            best
        }
    }
}

/// The root moves in order, each searched to `depth - 1` with the root's alpha (Max to
/// move) or beta (Min to move) passed on from the moves before it, as in Ross's program;
/// a move's value is a bound when its search failed outside that window.
///
/// # Examples
///
/// Ross's example: after O takes square 8, squares 5, 6 and 7 get 0 like the draw at 4,
/// but only as upper bounds.
///
/// ```
/// use pathology::games::TicTacToe;
/// use pathology::search::alphabeta::{Bound, root_values};
/// use pathology::search::evaluators::Perfect;
/// let board = TicTacToe.parse_board("........O").unwrap();
/// let moves = root_values(&TicTacToe, &board, 9, &Perfect);
/// let square5 = moves.iter().find(|m| m.mv == 5).unwrap();
/// assert_eq!((square5.value, square5.bound), (0.0, Bound::Upper));
/// ```
pub fn root_values<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    state: &G::State,
    depth: u32,
    eval: &E,
) -> Vec<RootMove<G::Move>> {
    let player = game.to_move(state);
    let (mut alpha, mut beta) = (f64::NEG_INFINITY, f64::INFINITY);
    let mut count = NodeCount::default();
    game.moves(state)
        .into_iter()
        .map(|mv| {
            let child = game.play(state, mv);
            let value = alphabeta(
                game,
                &child,
                depth.saturating_sub(1),
                alpha,
                beta,
                eval,
                &mut count,
            );
            let bound = match player {
                Player::Max if value <= alpha => Bound::Upper,
                Player::Min if value >= beta => Bound::Lower,
                _ => Bound::Exact,
            };
            match player {
                Player::Max => alpha = alpha.max(value),
                Player::Min => beta = beta.min(value),
            }
            RootMove { mv, value, bound }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{ExplicitTree, TicTacToe};
    use crate::search::evaluators::Perfect;
    use crate::search::{minimax, solve};
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    /// Ross (2020): after O takes square 8, X's moves 0-3 lose, 4 draws, and alpha-beta with
    /// the root's alpha passed on gives 5, 6 and 7 the value 0 although they lose.
    #[test]
    fn ross_example() {
        let board = TicTacToe.parse_board("........O").unwrap();
        let moves = root_values(&TicTacToe, &board, 9, &Perfect);
        let squares: Vec<usize> = moves.iter().map(|m| m.mv).collect();
        assert_eq!(squares, vec![0, 1, 2, 3, 4, 5, 6, 7]);
        let truth: Vec<f64> = moves
            .iter()
            .map(|m| solve(&TicTacToe, &TicTacToe.play(&board, m.mv)))
            .collect();
        assert_eq!(truth, vec![-1.0, -1.0, -1.0, -1.0, 0.0, -1.0, -1.0, -1.0]);
        let values: Vec<f64> = moves.iter().map(|m| m.value).collect();
        assert_eq!(values, vec![-1.0, -1.0, -1.0, -1.0, 0.0, 0.0, 0.0, 0.0]);
        for m in &moves[5..] {
            assert_eq!(m.bound, Bound::Upper, "square {}", m.mv);
        }
        assert_eq!(moves[0].bound, Bound::Exact);
        assert_eq!(moves[4].bound, Bound::Exact);
    }

    #[test]
    fn prunes_on_a_known_tree() {
        // Max root; the first Min child is worth 3, the second's first leaf 2 <= alpha = 3.
        use crate::games::tree::Node;
        let tree = ExplicitTree::new(vec![
            Node::Interior(Player::Max, vec![1, 2]),
            Node::Interior(Player::Min, vec![3, 4]),
            Node::Interior(Player::Min, vec![5, 6]),
            Node::Leaf(3.0),
            Node::Leaf(5.0),
            Node::Leaf(2.0),
            Node::Leaf(9.0),
        ]);
        let mut count = NodeCount::default();
        let v = alphabeta(
            &tree,
            &0,
            2,
            f64::NEG_INFINITY,
            f64::INFINITY,
            &Perfect,
            &mut count,
        );
        assert_eq!(v, 3.0);
        assert_eq!(count.nodes, 6); // leaf 6 (value 9) is never visited
        assert_eq!(count.leaves, 3);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// Alpha-beta with the full window returns the minimax value at the root, at every
        /// search depth (depth-limited with a static evaluator too).
        #[test]
        fn alphabeta_equals_minimax(seed in any::<u64>(), b in 1usize..4, depth in 0u32..6, max_value in 0u32..4, limit in 0u32..7) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let tree = ExplicitTree::random_uniform(b, depth, max_value, &mut rng);
            let eval = |_: &ExplicitTree, s: &usize| (*s % 3) as f64;
            let mut count = NodeCount::default();
            let ab = alphabeta(&tree, &0, limit, f64::NEG_INFINITY, f64::INFINITY, &eval, &mut count);
            prop_assert_eq!(ab, minimax(&tree, &0, limit, &eval));
            prop_assert!(count.nodes <= tree.len() as u64);
        }
    }
}
