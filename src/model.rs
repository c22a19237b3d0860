//! **Layer 2, the model conventions.** May import: [`crate::error`], [`crate::numeric`].
//!
//! Conventions shared by the analytic engines and (later) the Monte Carlo games, so that the
//! two sides cannot drift apart.
//!
//! Li & Marsland (1990), Section 3.2: "the player who makes the last move is the player Max".
//! Heights are counted from the leaves: a leaf has height 0, its parent height 1. So a node of
//! **odd height is a Max node** and a node of even height (other than a leaf) is a Min node;
//! the root of a height-10 tree is a Min node, and its children (height 9) are Max nodes.

use serde::Serialize;

/// The two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Player {
    /// The maximizing player, who makes the last move.
    Max,
    /// The minimizing player.
    Min,
}

impl Player {
    /// The player to move at an interior node of the given height (height >= 1), under the
    /// last-mover-is-Max convention.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::model::Player;
    /// assert_eq!(Player::to_move_at_height(1), Player::Max);
    /// assert_eq!(Player::to_move_at_height(10), Player::Min);
    /// ```
    pub fn to_move_at_height(height: u32) -> Player {
        if height % 2 == 1 {
            Player::Max
        } else {
            Player::Min
        }
    }

    /// The other player.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::model::Player;
    /// assert_eq!(Player::Max.opponent(), Player::Min);
    /// assert_eq!(Player::Min.opponent().opponent(), Player::Min);
    /// // Players alternate with height.
    /// assert_eq!(Player::to_move_at_height(9).opponent(), Player::to_move_at_height(10));
    /// ```
    pub fn opponent(self) -> Player {
        match self {
            Player::Max => Player::Min,
            Player::Min => Player::Max,
        }
    }
}
