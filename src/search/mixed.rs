//! A back-up rule that mixes minimax and product with a weight: our reading of the
//! non-minimax rule of Ballard's incremental-game experiments (Ballard 1983, Duke technical
//! report "Non-minimax search strategies for minimax trees"), as Chi & Nau (1987, Section
//! 4.2) describe it: "a weighted combination of the computational schemes used in the
//! minimax and product rules".
//!
//! Ballard's report is not public (we searched for it and found only his *-minimax paper on
//! chance nodes, a different subject), so the formula is ours, built from that one sentence:
//! at every interior node of the search, with the children's **mixed** values `v_i` (values
//! are probabilities that Max wins, [`crate::search::product()`]),
//!
//! - Max to move: `M_w = w max_i v_i + (1 - w) (1 - prod_i (1 - v_i))`,
//! - Min to move: `M_w = w min_i v_i + (1 - w) prod_i v_i`,
//!
//! and the static value at the search front and the utility at terminal nodes. `w = 1` is
//! minimax ([`crate::search::minimax()`]) and `w = 0` is the product rule, value for value (the
//! same floating-point operations: [`mix_values`] returns the pure rule's result at the
//! ends). Both parts are monotone in every child and map [0, 1] into [0, 1], so the mixture
//! is a back-up of probabilities too.

use super::evaluators::Evaluator;
use super::product::at_least_one;
use crate::games::Game;
use crate::model::Player;

/// The mixed back-up of `values` (children's values, in [0, 1]) at a node where `player`
/// moves, with weight `weight` of minimax (module docs). At `weight = 1` it is exactly the
/// maximum / minimum, at `weight = 0` exactly the product rule.
///
/// # Examples
///
/// ```
/// use pathology::model::Player;
/// use pathology::search::mixed::mix_values;
/// let v = [0.5, 0.5];
/// assert_eq!(mix_values(Player::Max, &v, 1.0), 0.5); // minimax
/// assert_eq!(mix_values(Player::Max, &v, 0.0), 0.75); // 1 - (1 - 0.5)^2
/// assert_eq!(mix_values(Player::Max, &v, 0.5), 0.625);
/// assert_eq!(mix_values(Player::Min, &v, 0.5), 0.375); // (0.5 + 0.25) / 2
/// ```
pub fn mix_values(player: Player, values: &[f64], weight: f64) -> f64 {
    let (extreme, product) = match player {
        Player::Max => (
            values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            at_least_one(values),
        ),
        Player::Min => (
            values.iter().copied().fold(f64::INFINITY, f64::min),
            values.iter().product(),
        ),
    };
    if weight == 1.0 {
        extreme
    } else if weight == 0.0 {
        product
    } else {
        weight * extreme + (1.0 - weight) * product
    }
}

/// The depth-`depth` mixed value of `state` with weight `weight` of minimax (module docs).
///
/// # Examples
///
/// ```
/// use pathology::games::tree::{ExplicitTree, Node};
/// use pathology::model::Player;
/// use pathology::search::{minimax, mixed::mixed, product};
/// let tree = ExplicitTree::new(vec![
///     Node::Interior(Player::Max, vec![1, 2]),
///     Node::Leaf(0.5),
///     Node::Leaf(0.5),
/// ]);
/// let eval = |_: &ExplicitTree, _: &usize| 0.5;
/// assert_eq!(mixed(&tree, &0, 1, &eval, 1.0), minimax(&tree, &0, 1, &eval));
/// assert_eq!(mixed(&tree, &0, 1, &eval, 0.0), product(&tree, &0, 1, &eval));
/// assert_eq!(mixed(&tree, &0, 1, &eval, 0.5), 0.625);
/// ```
pub fn mixed<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    state: &G::State,
    depth: u32,
    eval: &E,
    weight: f64,
) -> f64 {
    super::minimax::backed_up(game, state, depth, eval, &|player, values| {
        mix_values(player, &values.collect::<Vec<f64>>(), weight)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::SplittingGame;
    use crate::search::evaluators::NaturalFraction;
    use crate::search::{minimax, product};
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    /// The ends of the mixture are the pure rules, value for value, on random N-games.
    #[test]
    fn ends_are_minimax_and_product() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for (b, h) in [(2, 6), (3, 4)] {
            let game = SplittingGame::n_game(b, h, 0.5, &mut rng).unwrap();
            for depth in 0..=h {
                let root = game.root();
                let m = minimax(&game, &root, depth, &NaturalFraction);
                let p = product(&game, &root, depth, &NaturalFraction);
                assert_eq!(mixed(&game, &root, depth, &NaturalFraction, 1.0), m);
                assert_eq!(mixed(&game, &root, depth, &NaturalFraction, 0.0), p);
                let half = mixed(&game, &root, depth, &NaturalFraction, 0.5);
                assert!((0.0..=1.0).contains(&half));
            }
        }
    }

    /// A hand-computed depth-2 tree: Max root over two Min nodes.
    #[test]
    fn two_levels_by_hand() {
        use crate::games::tree::{ExplicitTree, Node};
        let tree = ExplicitTree::new(vec![
            Node::Interior(Player::Max, vec![1, 2]),
            Node::Interior(Player::Min, vec![3, 4]),
            Node::Interior(Player::Min, vec![5, 6]),
            Node::Leaf(0.2),
            Node::Leaf(0.6),
            Node::Leaf(0.5),
            Node::Leaf(0.5),
        ]);
        let eval = |t: &ExplicitTree, s: &usize| t.utility(s).unwrap_or(0.5);
        // Min nodes at w = 1/2: (0.2 + 0.12) / 2 = 0.16 and (0.5 + 0.25) / 2 = 0.375.
        // Root: (0.375 + (1 - 0.84 * 0.625)) / 2 = (0.375 + 0.475) / 2 = 0.425.
        let v = mixed(&tree, &0, 2, &eval, 0.5);
        assert!((v - 0.425).abs() < 1e-12, "{v}");
    }
}
