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
//!
//! Max nodes use [`at_least_one`], which keeps tiny probabilities (the naive
//! `1 - prod (1 - p)` rounds them to 0, tying forced wins with forced losses in deep searches).

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
    super::minimax::backed_up(game, state, depth, eval, &|player, values| match player {
        Player::Max => at_least_one(&values.collect::<Vec<f64>>()),
        Player::Min => values.product(),
    })
}

/// `1 - prod (1 - p_i)`, the probability that at least one of independent events of
/// probabilities `p_i` happens, accurate when it is small.
///
/// Written naively, `1 - prod (1 - p_i)` loses every digit once the `p_i` fall below the
/// rounding unit (`1 - p` rounds to 1): deep product searches, whose Min nodes multiply
/// probabilities, reach such values (at b = 3, a depth-8 product search of a natural P-game
/// evaluation gives forced wins values near `3^-81`), and a win would then tie with a loss at 0.
/// When the result is below 1/2 it is computed as `-expm1(sum ln_1p(-p_i))` instead; above,
/// the naive form is exact enough (and is what the formula always gave there).
///
/// # Examples
///
/// ```
/// use pathology::search::product::at_least_one;
/// assert_eq!(at_least_one(&[0.5, 0.5]), 0.75);
/// assert_eq!(at_least_one(&[1.0, 0.0]), 1.0);
/// let tiny = at_least_one(&[1e-40, 2e-40]);
/// assert!((tiny - 3e-40).abs() < 1e-54); // the naive form gives 0
/// ```
pub fn at_least_one(probabilities: &[f64]) -> f64 {
    let none = probabilities.iter().map(|p| 1.0 - p).product::<f64>();
    if none <= 0.5 {
        1.0 - none
    } else {
        -probabilities
            .iter()
            .map(|p| (-p).ln_1p())
            .sum::<f64>()
            .exp_m1()
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
