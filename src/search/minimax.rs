//! Depth-limited minimax with a static evaluator, and decisions with random tie-breaking.
//!
//! `minimax_d(n) = u(n)` at terminal nodes, `eval(n)` at depth 0, else the maximum (Max to
//! move) or minimum (Min to move) over the children of `minimax_(d-1)` (Wilson, Parker & Nau
//! 2009; Li & Marsland 1990, Section 6.1, where `Psi^(d)` is this with `eval = psi`). A
//! decision by a depth-d search picks a move with the best depth-(d-1) value, "if both
//! children receive the same value, the player must choose one of them randomly" (Li &
//! Marsland, Section 6.1): uniformly among all tied moves.

use rand::rngs::ChaCha8Rng;

use super::evaluators::Evaluator;
use super::pick_uniform;
use crate::games::Game;
use crate::model::Player;

/// The depth-`depth` minimax value of `state`.
///
/// # Examples
///
/// ```
/// use pathology::games::{Game, SplittingGame};
/// use pathology::search::{evaluators::PieceCount, minimax};
/// let leaves = [true, false, false, true]; // height 2: root Min, children Max
/// let game = SplittingGame::from_leaves(2, 2, &leaves).unwrap();
/// assert_eq!(minimax(&game, &game.root(), 0, &PieceCount), 2.0); // psi of the whole board
/// assert_eq!(minimax(&game, &game.root(), 2, &PieceCount), 1.0); // min(max(1,0), max(0,1))
/// ```
pub fn minimax<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    state: &G::State,
    depth: u32,
    eval: &E,
) -> f64 {
    backed_up(game, state, depth, eval, &|player, values| match player {
        Player::Max => values.fold(f64::NEG_INFINITY, f64::max),
        Player::Min => values.fold(f64::INFINITY, f64::min),
    })
}

/// A depth-limited search that backs up the children's values of each interior node with
/// `rule(player to move, values)`: terminal states give their utility, the search front the
/// static evaluation. [`minimax`] and [`crate::search::product()`] are this with their rules.
///
/// # Examples
///
/// ```
/// use pathology::games::{Game, SplittingGame};
/// use pathology::search::{evaluators::PieceCount, minimax::backed_up};
/// let leaves = [true, false, false, true];
/// let game = SplittingGame::from_leaves(2, 2, &leaves).unwrap();
/// let sum = |_, values: &mut dyn Iterator<Item = f64>| values.sum::<f64>();
/// assert_eq!(backed_up(&game, &game.root(), 2, &PieceCount, &sum), 2.0);
/// ```
pub fn backed_up<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    state: &G::State,
    depth: u32,
    eval: &E,
    rule: &impl Fn(Player, &mut dyn Iterator<Item = f64>) -> f64,
) -> f64 {
    if let Some(u) = game.utility(state) {
        return u;
    }
    if depth == 0 {
        return eval.evaluate(game, state);
    }
    let mut values = game
        .moves(state)
        .into_iter()
        .map(|mv| backed_up(game, &game.play(state, mv), depth - 1, eval, rule));
    rule(game.to_move(state), &mut values)
}

/// The true (game-theoretic) minimax value of `state`: a search to the end of the game.
///
/// # Examples
///
/// ```
/// use pathology::games::{Game, TicTacToe};
/// use pathology::search::solve;
/// let empty = TicTacToe.parse_board(".........").unwrap();
/// assert_eq!(solve(&TicTacToe, &empty), 0.0); // tic-tac-toe is a draw
/// ```
pub fn solve<G: Game>(game: &G, state: &G::State) -> f64 {
    if let Some(u) = game.utility(state) {
        return u;
    }
    let values = game
        .moves(state)
        .into_iter()
        .map(|mv| solve(game, &game.play(state, mv)));
    match game.to_move(state) {
        Player::Max => values.fold(f64::NEG_INFINITY, f64::max),
        Player::Min => values.fold(f64::INFINITY, f64::min),
    }
}

/// A decision at the root of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision<M> {
    /// The moves, in the game's order.
    pub moves: Vec<M>,
    /// The backed-up value of each move.
    pub values: Vec<f64>,
    /// The index of the chosen move.
    pub chosen: usize,
}

/// The best move of the player to move by a depth-`depth` search (`depth >= 1`): the moves'
/// depth-`(depth - 1)` values, and a move with the best value, ties broken uniformly at
/// random (drawing from `rng` only on ties). `None` at terminal states.
///
/// # Examples
///
/// ```
/// use pathology::games::{Game, SplittingGame};
/// use pathology::search::{decide, evaluators::PieceCount};
/// use rand::SeedableRng;
/// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
/// let leaves = [true, false, true, true]; // root Min: prefers the child with fewer ones
/// let game = SplittingGame::from_leaves(2, 2, &leaves).unwrap();
/// let decision = decide(&game, &game.root(), 1, &PieceCount, &mut rng).unwrap();
/// assert_eq!(decision.values, vec![1.0, 2.0]);
/// assert_eq!(decision.chosen, 0);
/// ```
pub fn decide<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    state: &G::State,
    depth: u32,
    eval: &E,
    rng: &mut ChaCha8Rng,
) -> Option<Decision<G::Move>> {
    let moves = game.moves(state);
    if moves.is_empty() {
        return None;
    }
    let values: Vec<f64> = moves
        .iter()
        .map(|&mv| minimax(game, &game.play(state, mv), depth.saturating_sub(1), eval))
        .collect();
    let chosen = choose_best(&values, game.to_move(state), rng);
    Some(Decision {
        moves,
        values,
        chosen,
    })
}

/// The index of a best value for `player`, ties broken uniformly at random.
///
/// # Examples
///
/// ```
/// use pathology::model::Player;
/// use pathology::search::minimax::choose_best;
/// use rand::SeedableRng;
/// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
/// let values = [1.0, 3.0, 3.0, 0.0];
/// assert_eq!(choose_best(&values, Player::Min, &mut rng), 3);
/// let picks: Vec<usize> = (0..50).map(|_| choose_best(&values, Player::Max, &mut rng)).collect();
/// assert!(picks.iter().all(|&k| k == 1 || k == 2));
/// assert!(picks.contains(&1) && picks.contains(&2)); // ties broken at random
/// ```
pub fn choose_best(values: &[f64], player: Player, rng: &mut ChaCha8Rng) -> usize {
    let best = match player {
        Player::Max => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        Player::Min => values.iter().copied().fold(f64::INFINITY, f64::min),
    };
    let tied: Vec<usize> = (0..values.len()).filter(|&i| values[i] == best).collect();
    tied[pick_uniform(rng, tied.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::SplittingGame;
    use crate::search::evaluators::PieceCount;
    use rand::SeedableRng;

    #[test]
    fn ties_are_broken_uniformly() {
        const TOLERANCE: f64 = 0.02;
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let values = [1.0, 3.0, 3.0, 0.0, 3.0];
        let mut counts = [0u32; 5];
        for _ in 0..30_000 {
            counts[choose_best(&values, Player::Max, &mut rng)] += 1;
        }
        assert_eq!(counts[0] + counts[3], 0);
        for i in [1, 2, 4] {
            assert!((f64::from(counts[i]) / 30_000.0 - 1.0 / 3.0).abs() < TOLERANCE);
        }
        assert_eq!(choose_best(&values, Player::Min, &mut rng), 3);
    }

    /// At full depth with psi, minimax finds the true value (psi at a leaf is its utility).
    #[test]
    fn full_depth_search_is_exact() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for _ in 0..20 {
            let game = SplittingGame::p_game(3, 4, 0.4, &mut rng).unwrap();
            let root = game.root();
            assert_eq!(minimax(&game, &root, 4, &PieceCount), solve(&game, &root));
        }
    }

    /// Level invariance of w_b: an even-height P-game root is a Max win with probability w_b.
    #[test]
    fn p_game_root_wins_with_probability_w_b() {
        const SIGMAS: f64 = 4.0;
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let w = crate::analytic::closed_form::w_b(2).unwrap();
        let n = 4000;
        let wins = (0..n)
            .filter(|_| {
                let game = SplittingGame::p_game(2, 6, w, &mut rng).unwrap();
                solve(&game, &game.root()) == 1.0
            })
            .count() as f64;
        let sd = (w * (1.0 - w) / n as f64).sqrt();
        assert!((wins / n as f64 - w).abs() < SIGMAS * sd);
    }
}
