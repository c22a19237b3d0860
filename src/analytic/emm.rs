//! The error minimizing minimax (EMM) back-up rule on an explicit tree.
//!
//! Wilson, Parker & Nau (2009), *Error Minimizing Minimax*, Algorithm 1 and the worked example
//! of Fig. 2. Values are win/loss **from the perspective of the player to move** at each node
//! (negamax, as in Algorithm 1); the static evaluator is wrong with probability e,
//! independently at each node. At an interior node with children values `v_i` (negated to this
//! node's perspective) and errors `er_i`:
//!
//! - if every child is a loss, the node is a loss, wrong if any child is wrong:
//!   `aggErr = 1 - prod (1 - er_i)`;
//! - otherwise the node is a win, wrong only if every win child is wrong and every loss child
//!   right: `aggErr = prod_{win} er_i * prod_{loss} (1 - er_i)`;
//! - if `aggErr > 0.5` the value is flipped and `aggErr = 1 - aggErr`;
//! - EMM then prefers the static evaluation when it has the smaller error: equal values give
//!   `min(curErr, aggErr)`; different values give whichever of the two has the smaller error
//!   (the search result on a tie).
//!
//! [`BackUpRule::Minimax`] skips the last step ("when we did not prefer the statically evaluated
//! error rates"). A generic EMM search over a game trait is not built; here the tree is
//! explicit ([`Node`]). The arithmetic is generic over [`Probability`], so the example runs in
//! exact rationals: root error 91/1000 with EMM, 1729/10000 without the static preference.

use crate::numeric::number::Probability;

/// A node of an explicit game tree: its static evaluation and its children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The static evaluation: `true` if it says "win for the player to move here".
    pub static_win: bool,
    /// The children (empty for a leaf).
    pub children: Vec<Node>,
}

impl Node {
    /// A leaf with a static evaluation.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::emm::{BackUpRule, Node, Valuation, back_up};
    /// let leaf = Node::leaf(true);
    /// assert!(leaf.children.is_empty());
    /// // A leaf's valuation is its static evaluation, with the evaluator's error.
    /// assert_eq!(back_up(&leaf, &0.1, BackUpRule::Emm), Valuation { win: true, error: 0.1 });
    /// ```
    pub fn leaf(static_win: bool) -> Self {
        Node {
            static_win,
            children: Vec::new(),
        }
    }

    /// An interior node.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::emm::{BackUpRule, Node, back_up};
    /// use pathology::numeric::number::parse_rational;
    /// // Leaf values are for the player to move there: `false` is a win for us.
    /// let node = Node::interior(false, vec![Node::leaf(false), Node::leaf(true)]);
    /// let v = back_up(&node, &parse_rational("0.1").unwrap(), BackUpRule::Minimax);
    /// assert!(v.win); // one winning move
    /// assert_eq!(v.error, parse_rational("9/100").unwrap()); // wrong if the win is wrong and the loss right
    /// ```
    pub fn interior(static_win: bool, children: Vec<Node>) -> Self {
        Node {
            static_win,
            children,
        }
    }
}

/// A valuation: the value for the player to move and the probability that it is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct Valuation<P> {
    /// `true` for a win for the player to move.
    pub win: bool,
    /// The probability that `win` is wrong.
    pub error: P,
}

/// Which back-up rule to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackUpRule {
    /// Algorithm 1: the aggregated search error, replaced by the static evaluation's when that
    /// is smaller.
    Emm,
    /// The same aggregation of errors without the static preference.
    Minimax,
}

/// Backs up values and errors from the leaves of `node` (searched to its full depth) with the
/// static evaluator's error `static_error`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::emm::{BackUpRule, Node, back_up};
/// // A type D tree: both children are wins for the opponent (losses for us).
/// let tree = Node::interior(true, vec![Node::leaf(true), Node::leaf(true)]);
/// let plain = back_up(&tree, &0.1, BackUpRule::Minimax);
/// assert!(!plain.win && (plain.error - 0.19).abs() < 1e-15);
/// // EMM: the static value disagrees but is wrong only 10% of the time, so it is kept.
/// let emm = back_up(&tree, &0.1, BackUpRule::Emm);
/// assert!(emm.win && emm.error == 0.1);
/// ```
pub fn back_up<P: Probability>(node: &Node, static_error: &P, rule: BackUpRule) -> Valuation<P> {
    let static_value = Valuation {
        win: node.static_win,
        error: static_error.clone(),
    };
    if node.children.is_empty() {
        return static_value;
    }
    let one = P::certain();
    let children: Vec<Valuation<P>> = node
        .children
        .iter()
        .map(|c| {
            let v = back_up(c, static_error, rule);
            Valuation {
                win: !v.win,
                error: v.error,
            }
        })
        .collect();
    let win = children.iter().any(|c| c.win);
    let mut error = if win {
        children.iter().fold(one.clone(), |acc, c| {
            if c.win {
                acc.times(&c.error)
            } else {
                acc.times(&one.minus(&c.error))
            }
        })
    } else {
        one.minus(
            &children
                .iter()
                .fold(one.clone(), |acc, c| acc.times(&one.minus(&c.error))),
        )
    };
    let mut win = win;
    let half = one.divided_by(&one.plus(&one));
    if error > half {
        win = !win;
        error = one.minus(&error);
    }
    let searched = Valuation { win, error };
    match rule {
        BackUpRule::Minimax => searched,
        BackUpRule::Emm => {
            if static_value.win == searched.win {
                if static_value.error < searched.error {
                    static_value
                } else {
                    searched
                }
            } else if static_value.error >= searched.error {
                searched
            } else {
                static_value
            }
        }
    }
}

/// The tree of Wilson et al.'s Fig. 2, as reconstructed from the text (the figure itself is
/// not in the transcription): root A (player 1 to move) with children B and C (player 2 to
/// move); B's leaves D, E and C's leaf F are wins for player 1, C's leaf G a loss for player 1.
///
/// Static evaluations of the interior nodes: B's says "loss for player 2" (the text: "a static
/// evaluation of the same node gives the same value"); C's is not given, we take "loss for
/// player 2" (the search result is a win for player 2 and "ducks" the static error); A's is
/// not given, we take "win for player 1". The root errors do not depend on the two choices
/// (the unit tests try all four).
///
/// # Examples
///
/// ```
/// use pathology::analytic::emm::{BackUpRule, back_up, figure_2_tree};
/// use pathology::numeric::number::parse_rational;
/// let e = parse_rational("0.1").unwrap();
/// let emm = back_up(&figure_2_tree(), &e, BackUpRule::Emm);
/// assert!(emm.win);
/// assert_eq!(emm.error, parse_rational("91/1000").unwrap());
/// let plain = back_up(&figure_2_tree(), &e, BackUpRule::Minimax);
/// assert_eq!(plain.error, parse_rational("1729/10000").unwrap());
/// ```
pub fn figure_2_tree() -> Node {
    figure_2_tree_with(false, true)
}

/// [`figure_2_tree`] with the unstated static evaluations of C (`c_static_win`, for player 2)
/// and A (`a_static_win`, for player 1) chosen by the caller.
///
/// # Examples
///
/// ```
/// use pathology::analytic::emm::{BackUpRule, back_up, figure_2_tree_with};
/// use pathology::numeric::number::parse_rational;
/// let e = parse_rational("0.1").unwrap();
/// for c in [false, true] {
///     for a in [false, true] {
///         let emm = back_up(&figure_2_tree_with(c, a), &e, BackUpRule::Emm);
///         assert_eq!(emm.error, parse_rational("91/1000").unwrap()); // the same for every choice
///     }
/// }
/// ```
pub fn figure_2_tree_with(c_static_win: bool, a_static_win: bool) -> Node {
    let b = Node::interior(false, vec![Node::leaf(true), Node::leaf(true)]);
    let c = Node::interior(c_static_win, vec![Node::leaf(true), Node::leaf(false)]);
    Node::interior(a_static_win, vec![b, c])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;
    use num_rational::BigRational;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    #[test]
    fn figure_2_intermediate_values_match_the_text() {
        let e = q("0.1");
        let tree = figure_2_tree();
        // B: a loss for player 2; the search error is 19%, the static one 10%.
        let b_search = back_up(&tree.children[0], &e, BackUpRule::Minimax);
        assert_eq!((b_search.win, b_search.error), (false, q("19/100")));
        let b = back_up(&tree.children[0], &e, BackUpRule::Emm);
        assert_eq!((b.win, b.error), (false, q("1/10")));
        // C: a win for player 2 with 9% error.
        let c = back_up(&tree.children[1], &e, BackUpRule::Emm);
        assert_eq!((c.win, c.error), (true, q("9/100")));
    }

    #[test]
    fn root_errors_do_not_depend_on_unstated_static_values() {
        let e = q("0.1");
        for c_static in [false, true] {
            for a_static in [false, true] {
                let tree = figure_2_tree_with(c_static, a_static);
                let emm = back_up(&tree, &e, BackUpRule::Emm);
                assert_eq!((emm.win, emm.error), (true, q("91/1000")));
                let plain = back_up(&tree, &e, BackUpRule::Minimax);
                assert_eq!((plain.win, plain.error), (true, q("1729/10000")));
            }
        }
    }

    #[test]
    fn depth_one_trees_match_the_closed_forms() {
        use crate::analytic::closed_form::DepthOneTree;
        let e = q("0.2");
        // Children values from the root player's view: A = two wins, B = win + loss, D = two
        // losses. A child that is a win for us is a loss for the player to move there.
        let tree =
            |us: [bool; 2]| Node::interior(true, us.iter().map(|&w| Node::leaf(!w)).collect());
        let err = |t| back_up(&tree(t), &e, BackUpRule::Minimax).error;
        assert_eq!(err([true, true]), DepthOneTree::A.error(e.clone()));
        assert_eq!(err([true, false]), DepthOneTree::B.error(e.clone()));
        assert_eq!(err([false, true]), DepthOneTree::C.error(e.clone()));
        assert_eq!(err([false, false]), DepthOneTree::D.error(e.clone()));
    }
}
