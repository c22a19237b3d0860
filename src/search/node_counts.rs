//! Ross's (2020) figures on tic-tac-toe: how many nodes minimax and alpha-beta visit, and
//! how many move sequences the game has.
//!
//! Ross: "if we ignore the fact that some of those permutations end earlier than nine moves
//! due to a winning row, then the total number of nodes that the program must consider is 9
//! factorial (362,880)", and alpha-beta "drastically reduces the number of nodes that must be
//! generated and evaluated — by about 85%, in my testing".
//!
//! [`sequence_counts`] separates what those numbers count: 9! is the number of orders in which
//! the nine squares can be filled (the leaves of the tree with **no** win detection); the real
//! game tree, which stops at a win, has 255,168 complete games (terminal leaves) and 549,946
//! nodes counting the root, and the tree without win detection has
//! `sum_k 9!/(9-k)! = 986,410` nodes.
//!
//! [`compare_searches`] counts the nodes a full-depth search visits (every position generated,
//! the root included; terminal positions are the leaves, valued +1/0/-1): minimax visits the
//! whole tree below the position; alpha-beta (fail-soft, [`super::alphabeta::alphabeta`],
//! full window at the root, which passes its alpha and beta down as Ross describes) visits
//! fewer, depending on the **move order**: [`SQUARE_ORDER`] (0 to 8, Ross's numbering, the
//! order of his example) and [`CENTRE_FIRST_ORDER`] (centre, corners, edges).
//!
//! **Counts** (all exact, tested):
//!
//! | position | order | minimax nodes | alpha-beta nodes | fewer |
//! |---|---|---|---|---|
//! | empty | squares 0-8 | 549,946 | 18,297 | 96.7% |
//! | empty | centre, corners, edges | 549,946 | 7,275 | 98.7% |
//! | `........O` (Ross's) | squares 0-8 | 59,705 | 3,957 | 93.4% |
//! | `........O` | centre, corners, edges | 59,705 | 1,702 | 97.1% |
//!
//! So full-depth alpha-beta saves more than Ross's "about 85%" in tic-tac-toe (his testing
//! conditions, e.g. depth limits and evaluators, are not given). His 9! = 362,880 counts the
//! orders of filling the board ignoring wins; the game itself has 255,168 complete games.

use serde::Serialize;

use super::alphabeta::{NodeCount, alphabeta};
use super::evaluators::Perfect;
use super::minimax::solve;
use crate::games::Game;
use crate::games::tictactoe::{Board, TicTacToe};
use crate::model::Player;

/// Squares in Ross's order, 0 to 8 (row-major).
pub const SQUARE_ORDER: [usize; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/// The centre, then the corners, then the edges.
pub const CENTRE_FIRST_ORDER: [usize; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

/// Tic-tac-toe with its moves listed in a chosen order of squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrderedTicTacToe {
    /// The order in which empty squares are listed.
    pub order: [usize; 9],
}

impl Game for OrderedTicTacToe {
    type State = Board;
    type Move = usize;

    fn to_move(&self, state: &Board) -> Player {
        TicTacToe.to_move(state)
    }

    fn moves(&self, state: &Board) -> Vec<usize> {
        let legal = TicTacToe.moves(state);
        self.order
            .iter()
            .copied()
            .filter(|s| legal.contains(s))
            .collect()
    }

    fn play(&self, state: &Board, mv: usize) -> Board {
        TicTacToe.play(state, mv)
    }

    fn utility(&self, state: &Board) -> Option<f64> {
        TicTacToe.utility(state)
    }
}

/// Counts of tic-tac-toe's move sequences below a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SequenceCounts {
    /// Nodes of the game tree (the root included), the game stopping at a win or a full
    /// board.
    pub tree_nodes: u64,
    /// Complete games: move sequences that end the game (terminal leaves).
    pub complete_games: u64,
    /// Of these, games won by X, won by O, drawn.
    pub x_wins: u64,
    /// Games won by O.
    pub o_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Ways to fill every empty square, ignoring wins (`e!` for `e` empty squares: Ross's 9!).
    pub fillings: u64,
    /// Nodes of the tree with no win detection (`sum_k e!/(e-k)!`).
    pub fillings_tree_nodes: u64,
}

/// Counts the move sequences below `board`.
///
/// # Examples
///
/// ```
/// use pathology::games::TicTacToe;
/// use pathology::search::node_counts::sequence_counts;
/// let counts = sequence_counts(&TicTacToe.parse_board(".........").unwrap());
/// assert_eq!(counts.fillings, 362_880); // Ross's 9!
/// assert_eq!(counts.complete_games, 255_168);
/// assert_eq!(counts.tree_nodes, 549_946);
/// ```
pub fn sequence_counts(board: &Board) -> SequenceCounts {
    fn walk(board: &Board, counts: &mut SequenceCounts) {
        counts.tree_nodes += 1;
        if let Some(u) = TicTacToe.utility(board) {
            counts.complete_games += 1;
            match u {
                u if u > 0.0 => counts.x_wins += 1,
                u if u < 0.0 => counts.o_wins += 1,
                _ => counts.draws += 1,
            }
            return;
        }
        for mv in TicTacToe.moves(board) {
            walk(&TicTacToe.play(board, mv), counts);
        }
    }
    let mut counts = SequenceCounts {
        tree_nodes: 0,
        complete_games: 0,
        x_wins: 0,
        o_wins: 0,
        draws: 0,
        fillings: 0,
        fillings_tree_nodes: 0,
    };
    walk(board, &mut counts);
    let empty = board.to_string().chars().filter(|&c| c == '.').count() as u64;
    let mut falling = 1u64; // e!/(e-k)!
    counts.fillings_tree_nodes = 1;
    for k in 0..empty {
        falling *= empty - k;
        counts.fillings_tree_nodes += falling;
    }
    counts.fillings = falling;
    counts
}

/// Nodes visited by minimax and by alpha-beta in one move order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchComparison {
    /// The position searched.
    pub board: String,
    /// The move order (squares).
    pub order: [usize; 9],
    /// The position's minimax value (+1 X wins, 0 draw, -1 O wins).
    pub value: f64,
    /// Nodes visited by full-depth minimax (the root included).
    pub minimax_nodes: u64,
    /// Terminal positions minimax reads.
    pub minimax_leaves: u64,
    /// Nodes visited by full-depth alpha-beta.
    pub alphabeta_nodes: u64,
    /// Terminal positions alpha-beta reads.
    pub alphabeta_leaves: u64,
    /// `1 - alphabeta_nodes / minimax_nodes` (Ross: "about 85%").
    pub reduction: f64,
}

/// Counts the nodes full-depth minimax and alpha-beta visit from `board` with moves in
/// `order`.
///
/// # Examples
///
/// ```
/// use pathology::games::TicTacToe;
/// use pathology::search::node_counts::{SQUARE_ORDER, compare_searches};
/// let empty = TicTacToe.parse_board(".........").unwrap();
/// let c = compare_searches(&empty, SQUARE_ORDER);
/// assert_eq!(c.minimax_nodes, 549_946);
/// assert_eq!(c.value, 0.0);
/// assert!(c.alphabeta_nodes < c.minimax_nodes / 10);
/// ```
pub fn compare_searches(board: &Board, order: [usize; 9]) -> SearchComparison {
    let game = OrderedTicTacToe { order };
    let counts = sequence_counts(board);
    let mut ab = NodeCount::default();
    let value = alphabeta(
        &game,
        board,
        9,
        f64::NEG_INFINITY,
        f64::INFINITY,
        &Perfect,
        &mut ab,
    );
    debug_assert_eq!(value, solve(&game, board));
    SearchComparison {
        board: board.to_string(),
        order,
        value,
        minimax_nodes: counts.tree_nodes,
        minimax_leaves: counts.complete_games,
        alphabeta_nodes: ab.nodes,
        alphabeta_leaves: ab.leaves,
        reduction: 1.0 - ab.nodes as f64 / counts.tree_nodes as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::minimax;

    /// Known counts of tic-tac-toe: 255,168 games (131,184 won by X, 77,904 by O, 46,080
    /// drawn) and 549,946 nodes.
    #[test]
    fn known_game_counts() {
        let empty = TicTacToe.parse_board(".........").unwrap();
        let c = sequence_counts(&empty);
        assert_eq!(
            (c.complete_games, c.x_wins, c.o_wins, c.draws),
            (255_168, 131_184, 77_904, 46_080)
        );
        assert_eq!(c.tree_nodes, 549_946);
        assert_eq!(c.fillings, 362_880);
        assert_eq!(c.fillings_tree_nodes, 986_410);
        // Ross's position: O on 8, eight empty squares, X to move.
        let ross = TicTacToe.parse_board("........O").unwrap();
        let c = sequence_counts(&ross);
        assert_eq!(c.fillings, 40_320);
        assert!(c.tree_nodes < 549_946 && c.complete_games < 255_168);
    }

    /// Minimax visits every node (its count is the tree's), alpha-beta returns the same
    /// value with fewer nodes, and the counts depend on the move order.
    #[test]
    fn alphabeta_visits_fewer_nodes_with_the_same_value() {
        for text in [".........", "........O"] {
            let board = TicTacToe.parse_board(text).unwrap();
            let square = compare_searches(&board, SQUARE_ORDER);
            let centre = compare_searches(&board, CENTRE_FIRST_ORDER);
            assert_eq!(square.value, solve(&TicTacToe, &board));
            assert_eq!(centre.value, square.value);
            assert_eq!(square.minimax_nodes, centre.minimax_nodes);
            assert!(square.alphabeta_nodes < square.minimax_nodes);
            assert_ne!(square.alphabeta_nodes, centre.alphabeta_nodes);
        }
        // The ordered game lists moves in the order asked, and plays the same game.
        let game = OrderedTicTacToe {
            order: CENTRE_FIRST_ORDER,
        };
        let empty = TicTacToe.parse_board(".........").unwrap();
        assert_eq!(game.moves(&empty), CENTRE_FIRST_ORDER.to_vec());
        let eval = |_: &OrderedTicTacToe, _: &Board| 0.0;
        assert_eq!(minimax(&game, &empty, 9, &eval), 0.0);
    }
}
