//! **Layer 4, the games.** May import: [`crate::analytic`] and the layers below it; not the
//! searches or the Monte Carlo engine.
//!
//! Games behind one [`Game`] trait: a state, the player to move, the moves, and the terminal
//! utility. The searches of [`crate::search`] are generic over it.
//!
//! Conventions fixed here, shared with the analytic engines through [`crate::model`]:
//!
//! - Utilities and evaluations are from **Max's point of view**: higher is better for Max.
//!   Board-splitting games use Chi & Nau's (1987, Section 2) utility `u(n) = 1` for a forced
//!   win of Max and `0` for a forced loss; tic-tac-toe uses `+1` (X wins), `0`, `-1`.
//! - Moves are listed in a fixed order ([`Game::moves`]); searches visit them in that order and
//!   report decisions as indices into that list.
//!
//! Games:
//!
//! - [`splitting`]: Pearl's board-splitting games with three ways to fill the board: P-games
//!   and N-games (Wilson, Parker & Nau 2009, "Experiments"; Nau 1982) and Li & Marsland's
//!   (1990) D-games (Definition 3.1, conditions 2', 3').
//! - [`critical`]: Nguyen & Ramanujan's (2024) critical win-loss game, generated lazily from
//!   a seed (b up to 255, H up to 100,000), with its perfect, Gaussian and expected-playout
//!   evaluations.
//! - [`ggame`]: Nau's G-games as we reconstruct them (Chi & Nau 1987, Section 4.1): a row of
//!   squares, each move removes an end square; positions are intervals (a game graph).
//! - [`kalah`]: three-hole kalah (Chi & Nau 1987, Section 4.5) and its exact solver.
//! - [`othello`]: 8x8 othello on bitboards (Chi & Nau 1987, Section 4.3), with perft.
//! - [`tictactoe`]: tic-tac-toe, for Ross's (2020) alpha-beta example.
//! - [`tree`]: explicit game trees given node by node, for tests and random trees.

pub mod critical;
pub mod ggame;
pub mod kalah;
pub mod othello;
pub mod splitting;
pub mod tictactoe;
pub mod tree;

pub use splitting::{Region, SplittingGame};
pub use tictactoe::TicTacToe;
pub use tree::ExplicitTree;

use crate::model::Player;

/// A finite two-player, zero-sum, perfect-information game.
///
/// # Examples
///
/// ```
/// use pathology::games::{Game, TicTacToe};
/// use pathology::model::Player;
/// let game = TicTacToe;
/// let root = game.parse_board("........O").unwrap();
/// assert_eq!(game.to_move(&root), Player::Max); // X has fewer marks
/// assert_eq!(game.moves(&root).len(), 8);
/// assert_eq!(game.utility(&root), None);
/// ```
pub trait Game {
    /// A position.
    type State: Clone;
    /// A move.
    type Move: Copy + PartialEq + std::fmt::Debug;

    /// The player to move at `state` (meaningless at terminal states).
    fn to_move(&self, state: &Self::State) -> Player;

    /// The legal moves at `state`, in the game's fixed order; empty exactly at terminal
    /// states.
    fn moves(&self, state: &Self::State) -> Vec<Self::Move>;

    /// The state after playing `mv` at `state`.
    fn play(&self, state: &Self::State, mv: Self::Move) -> Self::State;

    /// The utility of a terminal state from Max's point of view; `None` when the game is not
    /// over.
    fn utility(&self, state: &Self::State) -> Option<f64>;
}
