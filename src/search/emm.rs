//! Error minimizing minimax: Algorithm 1 of Wilson, Parker & Nau (2009), as transcribed in
//! the cleaner version of the paper (the other transcription writes `value` for `val`).
//!
//! EMM(s, eval, d) returns a binary value (win or loss) and the probability `e` that it is
//! wrong. At the search front it returns the static evaluation and its error. Otherwise, with
//! `v_i` the children's values from the mover's side and `er_i` their errors:
//!
//! - if every child is a loss, `aggErr = 1 - prod (1 - er_i)`;
//! - else `aggErr = prod over win children of er_i * prod over loss children of (1 - er_i)`;
//! - if `aggErr > 1/2`, the value flips and `aggErr` becomes `1 - aggErr`;
//! - if the static value agrees, return it with `min(curErr, aggErr)`; if not, the search
//!   result when `curErr >= aggErr`, else the static result.
//!
//! **Terminal nodes**, which the pseudo-code does not treat: their utility is exact, so EMM
//! returns it with error 0 at any depth (and never calls the evaluator there). Values are
//! kept from Max's point of view outside and converted to the mover's side inside, which is
//! the paper's negamax `v_i = -vTmp_i` for alternating games and stays right when a player
//! moves twice. Binary utilities: `u >= 1/2` is a win for Max.

use crate::games::Game;
use crate::model::Player;

/// A binary static evaluator with a known error rate: EMM's `eval` and `e`.
pub trait BinaryEvaluator<G: Game> {
    /// Whether `state` looks like a win for Max, and the probability that this is wrong.
    fn evaluate(&self, game: &G, state: &G::State) -> (bool, f64);
}

impl<G: Game, F: Fn(&G, &G::State) -> (bool, f64)> BinaryEvaluator<G> for F {
    fn evaluate(&self, game: &G, state: &G::State) -> (bool, f64) {
        self(game, state)
    }
}

/// An EMM value: a win or loss for Max and the probability that it is wrong.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EmmValue {
    /// Whether the node is judged a win for Max.
    pub win_for_max: bool,
    /// The probability that the judgement is wrong.
    pub error: f64,
}

/// EMM search of `state` to `depth` (Algorithm 1).
///
/// # Examples
///
/// A Max node over two leaves judged losses with 10% error each: search error 19% exceeds
/// the static 10%, so the static value (here a loss too) keeps its 10%.
///
/// ```
/// use pathology::games::tree::{ExplicitTree, Node};
/// use pathology::model::Player;
/// use pathology::search::emm;
/// let tree = ExplicitTree::new(vec![
///     Node::Interior(Player::Max, vec![1, 2]),
///     Node::Interior(Player::Min, vec![]),
///     Node::Interior(Player::Min, vec![]),
/// ]);
/// let eval = |_: &ExplicitTree, _: &usize| (false, 0.1);
/// let value = emm(&tree, &0, 1, &eval);
/// assert!(!value.win_for_max && (value.error - 0.1).abs() < 1e-12);
/// ```
pub fn emm<G: Game, E: BinaryEvaluator<G> + ?Sized>(
    game: &G,
    state: &G::State,
    depth: u32,
    eval: &E,
) -> EmmValue {
    if let Some(u) = game.utility(state) {
        return EmmValue {
            win_for_max: u >= 0.5,
            error: 0.0,
        };
    }
    let mover = game.to_move(state);
    let (static_max, cur_err) = eval.evaluate(game, state);
    let moves = game.moves(state);
    if depth == 0 || moves.is_empty() {
        return EmmValue {
            win_for_max: static_max,
            error: cur_err,
        };
    }
    let children: Vec<(bool, f64)> = moves
        .into_iter()
        .map(|mv| {
            let v = emm(game, &game.play(state, mv), depth - 1, eval);
            (v.win_for_max, v.error)
        })
        .collect();
    let (win_for_max, error) = back_up_step(&children, static_max, cur_err, mover);
    EmmValue { win_for_max, error }
}

/// One EMM back-up step (Algorithm 1) at a node where `mover` is to move, whose static
/// judgement is `(static_max, cur_err)`, over children `(win for Max, error)`; returns the
/// node's `(win for Max, error)`. Shared by [`emm`] and the fast path of
/// [`crate::studies::wilson_parker_nau::study`].
pub(crate) fn back_up_step(
    children: &[(bool, f64)],
    static_max: bool,
    cur_err: f64,
    mover: Player,
) -> (bool, f64) {
    let side = |win_for_max: bool| match mover {
        Player::Max => win_for_max,
        Player::Min => !win_for_max,
    };
    let cur_val = side(static_max);
    let mut val = children.iter().any(|&(w, _)| side(w));
    let mut agg_err = if val {
        children
            .iter()
            .map(|&(w, er)| if side(w) { er } else { 1.0 - er })
            .product()
    } else {
        1.0 - children.iter().map(|&(_, er)| 1.0 - er).product::<f64>()
    };
    if agg_err > 0.5 {
        val = !val;
        agg_err = 1.0 - agg_err;
    }
    let (value, error) = if cur_val == val {
        (cur_val, cur_err.min(agg_err))
    } else if cur_err >= agg_err {
        (val, agg_err)
    } else {
        (cur_val, cur_err)
    };
    (side(value), error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tree::{ExplicitTree, Node};
    use approx::assert_relative_eq;

    const TOLERANCE: f64 = 1e-12;

    /// Fig. 2 of Wilson, Parker & Nau: A (player 1) over B, C (player 2) over D, E and F, G,
    /// every static evaluation with 10% error. B: both children look like wins for player 1,
    /// search error 19% > 10% and the static value agrees, so 10%. C: one child looks like a
    /// win for player 2 (G) and one a loss (F): 0.1 * 0.9 = 9% < 10%, the static value
    /// disagrees, so the search value with 9%. A: B a win (10%), C a loss for player 1 (9%):
    /// 0.1 * 0.91 = 9.1%.
    fn figure_2() -> (ExplicitTree, impl Fn(&ExplicitTree, &usize) -> (bool, f64)) {
        let tree = ExplicitTree::new(vec![
            Node::Interior(Player::Max, vec![1, 2]), // A
            Node::Interior(Player::Min, vec![3, 4]), // B
            Node::Interior(Player::Min, vec![5, 6]), // C
            Node::Interior(Player::Max, vec![]),     // D
            Node::Interior(Player::Max, vec![]),     // E
            Node::Interior(Player::Max, vec![]),     // F
            Node::Interior(Player::Max, vec![]),     // G
        ]);
        // Static judgements (win for player 1 = Max): A win, B win, C win (disagrees with
        // the search), D, E wins, F win (a loss for player 2), G loss (a win for player 2).
        let eval = |_: &ExplicitTree, s: &usize| (*s != 6, 0.1);
        (tree, eval)
    }

    #[test]
    fn figure_2_example() {
        let (tree, eval) = figure_2();
        let b = emm(&tree, &1, 1, &eval);
        assert!(b.win_for_max);
        assert_relative_eq!(b.error, 0.1, epsilon = TOLERANCE);
        let c = emm(&tree, &2, 1, &eval);
        assert!(!c.win_for_max);
        assert_relative_eq!(c.error, 0.09, epsilon = TOLERANCE);
        let a = emm(&tree, &0, 2, &eval);
        assert!(a.win_for_max);
        assert_relative_eq!(a.error, 0.091, epsilon = TOLERANCE);
    }

    #[test]
    fn terminal_nodes_are_exact() {
        let tree = ExplicitTree::new(vec![
            Node::Interior(Player::Max, vec![1, 2]),
            Node::Leaf(0.0),
            Node::Leaf(1.0),
        ]);
        let eval = |_: &ExplicitTree, _: &usize| (false, 0.3);
        let v = emm(&tree, &0, 5, &eval);
        assert!(v.win_for_max);
        assert_relative_eq!(v.error, 0.0, epsilon = TOLERANCE);
        assert!(!emm(&tree, &1, 0, &eval).win_for_max);
    }

    /// Flip: a Min node whose two children both look like wins for Max with error 0.8 each:
    /// the mover (Min) sees two losses, aggErr = 1 - 0.2^2 = 0.96 > 1/2, flipped to a win for
    /// Min with 0.04; the static value (win for Max, error 0.3) disagrees and is less sure.
    #[test]
    fn large_errors_flip_the_value() {
        let tree = ExplicitTree::new(vec![
            Node::Interior(Player::Min, vec![1, 2]),
            Node::Interior(Player::Max, vec![]),
            Node::Interior(Player::Max, vec![]),
        ]);
        let eval = |_: &ExplicitTree, s: &usize| if *s == 0 { (true, 0.3) } else { (true, 0.8) };
        let v = emm(&tree, &0, 1, &eval);
        assert!(!v.win_for_max);
        assert_relative_eq!(v.error, 0.04, epsilon = TOLERANCE);
    }
}
