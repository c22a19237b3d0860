//! The product rule (Chi & Nau 1987, Section 2; Tzeng & Purdom 1983).
//!
//! `P(m, d) = e(m)` at the search front or at terminal nodes (where `e = u`), `prod P(n)`
//! over the children when Min moves, and `1 - prod (1 - P(n))` when Max moves: values are
//! probabilities that Max wins, children treated as independent.
//!
//! Transcription notes: Chi & Nau print `prod{M(n)}` and `1 - prod{1 - M(n)}` (M for P, a
//! typo: the product value recurses on product values); Wilson, Parker & Nau print
//! `1 - prod product(n')` for player 1, which is not a probability rule (with two children
//! worth 1 it gives 0). We follow the reading both agree on in words: the probability that
//! at least one child is a win for the player to move.

use super::evaluators::Evaluator;
use crate::games::Game;
use crate::model::Player;

/// The depth-`depth` product value of `state` (evaluations and utilities in [0, 1]).
///
/// # Examples
///
/// ```
/// use pathology::games::tree::{ExplicitTree, Node};
/// use pathology::model::Player;
/// use pathology::search::product;
/// let tree = ExplicitTree::new(vec![
///     Node::Interior(Player::Max, vec![1, 2]),
///     Node::Leaf(0.5),
///     Node::Leaf(0.5),
/// ]);
/// let eval = |_: &ExplicitTree, _: &usize| 0.5;
/// assert_eq!(product(&tree, &0, 1, &eval), 0.75); // 1 - (1 - 0.5)^2
/// ```
pub fn product<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    state: &G::State,
    depth: u32,
    eval: &E,
) -> f64 {
    if let Some(u) = game.utility(state) {
        return u;
    }
    if depth == 0 {
        return eval.evaluate(game, state);
    }
    let values = game
        .moves(state)
        .into_iter()
        .map(|mv| product(game, &game.play(state, mv), depth - 1, eval));
    match game.to_move(state) {
        Player::Max => 1.0 - values.map(|p| 1.0 - p).product::<f64>(),
        Player::Min => values.product(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tree::{ExplicitTree, Node};
    use approx::assert_relative_eq;

    const TOLERANCE: f64 = 1e-12;

    /// Chi & Nau's Fig. 1 situation: a Max node with two forced-loss Min children can get a
    /// higher product value than a Max node with one forced-win child.
    #[test]
    fn product_on_an_explicit_tree() {
        // Min root over two Max nodes, leaves evaluated by the stored numbers.
        let tree = ExplicitTree::new(vec![
            Node::Interior(Player::Min, vec![1, 2]),
            Node::Interior(Player::Max, vec![3, 4]),
            Node::Interior(Player::Max, vec![5, 6]),
            Node::Leaf(0.2),
            Node::Leaf(0.5),
            Node::Leaf(1.0),
            Node::Leaf(0.0),
        ]);
        let eval = |_: &ExplicitTree, _: &usize| 0.5;
        // Node 1: 1 - 0.8 * 0.5 = 0.6; node 2: 1 - 0 * 1 = 1; root: 0.6 * 1.
        assert_relative_eq!(product(&tree, &1, 1, &eval), 0.6, epsilon = TOLERANCE);
        assert_relative_eq!(product(&tree, &2, 1, &eval), 1.0, epsilon = TOLERANCE);
        assert_relative_eq!(product(&tree, &0, 2, &eval), 0.6, epsilon = TOLERANCE);
        assert_relative_eq!(product(&tree, &0, 1, &eval), 0.25, epsilon = TOLERANCE);
        assert_relative_eq!(product(&tree, &0, 0, &eval), 0.5, epsilon = TOLERANCE);
    }
}
