//! **Layer 5, the searches.** May import: [`crate::games`] and the layers below it.
//!
//! Searches over the [`Game`](crate::games::Game) trait, and static evaluators.
//!
//! - [`minimax`](mod@minimax): depth-limited minimax (Wilson, Parker & Nau 2009, `minimax_d`; Li & Marsland
//!   1990, Section 6.1, `Psi^(d)`), with decisions that break ties among equally valued moves
//!   at random, as Li & Marsland's D(d,h) and Chi & Nau's `better_e` assume.
//! - [`alphabeta`](mod@alphabeta): alpha-beta (fail-soft), node counts, and the values of root moves when the
//!   root passes its alpha on (Ross 2020), which can be bounds rather than values.
//! - [`node_counts`]: Ross's (2020) tic-tac-toe figures: nodes visited by minimax and
//!   alpha-beta, move sequences (9!, complete games, tree nodes).
//! - [`product`](mod@product): the product rule (Chi & Nau 1987, Section 2).
//! - [`mixed`](mod@mixed): `w` minimax + `(1 - w)` product at every node, our reading of
//!   Ballard's (1983) weighted non-minimax rule (Chi & Nau 1987, Section 4.2).
//! - [`emm`](mod@emm): error minimizing minimax, Algorithm 1 of Wilson, Parker & Nau (2009).
//! - [`uct`](mod@uct): UCT, Monte Carlo tree search with UCB1 (Kocsis & Szepesvári 2006) as
//!   Nguyen & Ramanujan (2024) run it, decisions recorded along an iteration grid; the critical
//!   win-loss game's evaluators.
//! - [`evaluators`]: psi, the natural and artificial evaluators, the bi-valued gamma/delta
//!   evaluator and Chi & Nau's `e^w`.
//! - [`forced`]: Chi & Nau's stronger P-game evaluator `e2` (forced lines detected).
//!
//! Values are from Max's point of view (see [`crate::games`]).

pub mod alphabeta;
pub mod emm;
pub mod evaluators;
pub mod forced;
pub mod minimax;
pub mod mixed;
pub mod node_counts;
pub mod product;
pub mod uct;

pub use alphabeta::{Bound, RootMove, alphabeta, root_values};
pub use emm::{BinaryEvaluator, EmmValue, emm};
pub use evaluators::Evaluator;
pub use minimax::{Decision, decide, minimax, solve};
pub use product::product;

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

/// A uniform choice among `count >= 1` options. Draws from `rng` only when `count > 1`, so
/// a search consumes randomness exactly when it meets a tie.
///
/// # Examples
///
/// ```
/// use pathology::search::pick_uniform;
/// use rand::SeedableRng;
/// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
/// assert_eq!(pick_uniform(&mut rng, 1), 0);
/// assert!(pick_uniform(&mut rng, 3) < 3);
/// ```
pub fn pick_uniform(rng: &mut ChaCha8Rng, count: usize) -> usize {
    if count <= 1 {
        0
    } else {
        rng.random_range(0..count)
    }
}
