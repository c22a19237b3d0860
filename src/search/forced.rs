//! Chi & Nau's (1987, Section 4.4) stronger P-game evaluator `e2`, as we reconstruct it.
//!
//! The paper says only this: `e1` is the "rather obvious" evaluator of P-games (Nau 1982),
//! `e2` is Abramson's (1985) stronger one, both return values in [0, 1], and "the only
//! difference between e1 and e2 is that e2 can detect certain kinds of forced wins and forced
//! losses (in which case it returns 1 or 0, respectively)"; `e2(x) = 0` only if x is a forced
//! loss and `e2(x) = 1` only if x is a forced win. Neither paper defines the detection, so we
//! infer it from the board itself (an inference, documented as such):
//!
//! - `e1(x)` is the fraction of 1-squares in the remaining board ([`NaturalFraction`], the
//!   natural P-game evaluator of Wilson, Parker & Nau 2009).
//! - Max always splits the board along one direction (rows or columns, the same all game) and
//!   Min along the other ([`crate::games::splitting`]: the root mover cuts rows). Call a row
//!   of squares Max could isolate by its own cuts a **Max line**, and likewise a **Min line**.
//!   If some Max line of the remaining board is all 1-squares, Max wins by always keeping
//!   the part that contains it: Min's cuts only shorten it, so the last square is a 1. If some
//!   Min line is all 0-squares, Min wins the same way. (Both cannot happen: they would cross
//!   in a square that is both 1 and 0.) These are forced wins and forced losses that can be
//!   seen in one scan of the board, whoever is to move.
//! - `e2(x) = 1` when x has an all-1 Max line, `0` when it has an all-0 Min line, and `e1(x)`
//!   otherwise ([`ForcedLines`]).
//!
//! So `e2` returns 1 (or 0) only on forced wins (losses), as the paper requires. It differs
//! from `e1` exactly where `e1` is strictly inside (0, 1) but a line decides the game: `e1`
//! is already 1 or 0 when the board is all 1s or all 0s, so the detection must look at lines
//! to be stronger at all. On a single square, e2 is the utility; at height 1 (one line left
//! along the mover's direction) it is exact.

use super::evaluators::{Evaluator, NaturalFraction};
use crate::games::{Game, Region, SplittingGame};
use crate::model::Player;

/// Whether `region` of `game` holds an all-1 Max line (`Some(true)`: a forced win for Max), an
/// all-0 Min line (`Some(false)`: a forced loss), or neither (`None`).
///
/// # Examples
///
/// Height 2, b = 2: the root mover (Min at even height) cuts rows, so Max's lines are columns.
///
/// ```
/// use pathology::games::SplittingGame;
/// use pathology::search::forced::forced_line;
/// // Leaves in tree order: leaf 2k + j is row k (Min's cut), column j (Max's cut).
/// let game = SplittingGame::from_leaves(2, 2, &[true, false, true, false]).unwrap();
/// assert_eq!(forced_line(&game, &game.root()), Some(true)); // column 0 is all 1s
/// let game = SplittingGame::from_leaves(2, 2, &[false, false, true, false]).unwrap();
/// assert_eq!(forced_line(&game, &game.root()), Some(false)); // row 0 is all 0s
/// let game = SplittingGame::from_leaves(2, 2, &[true, false, false, true]).unwrap();
/// assert_eq!(forced_line(&game, &game.root()), None);
/// ```
pub fn forced_line(game: &SplittingGame, region: &Region) -> Option<bool> {
    // The root mover cuts rows; Max cuts rows iff Max moves at the root.
    let max_cuts_rows = game.to_move(&game.root()) == Player::Max;
    let rows = region.row..region.row + region.rows;
    let cols = region.col..region.col + region.cols;
    let row_all = |r: u32, value: bool| cols.clone().all(|c| game.square(r, c) == value);
    let col_all = |c: u32, value: bool| rows.clone().all(|r| game.square(r, c) == value);
    let (max_line, min_line) = if max_cuts_rows {
        (
            rows.clone().any(|r| row_all(r, true)),
            cols.clone().any(|c| col_all(c, false)),
        )
    } else {
        (
            cols.clone().any(|c| col_all(c, true)),
            rows.clone().any(|r| row_all(r, false)),
        )
    };
    if max_line {
        Some(true)
    } else if min_line {
        Some(false)
    } else {
        None
    }
}

/// Chi & Nau's `e2` as reconstructed in the module docs: 1 on an all-1 Max line, 0 on an all-0
/// Min line, otherwise the fraction of 1-squares (`e1`).
///
/// # Examples
///
/// ```
/// use pathology::games::SplittingGame;
/// use pathology::search::evaluators::{Evaluator, NaturalFraction};
/// use pathology::search::forced::ForcedLines;
/// let game = SplittingGame::from_leaves(2, 2, &[true, false, true, false]).unwrap();
/// assert_eq!(NaturalFraction.evaluate(&game, &game.root()), 0.5); // e1
/// assert_eq!(ForcedLines.evaluate(&game, &game.root()), 1.0); // e2 sees the forced win
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct ForcedLines;

impl Evaluator<SplittingGame> for ForcedLines {
    fn evaluate(&self, game: &SplittingGame, state: &Region) -> f64 {
        match forced_line(game, state) {
            Some(true) => 1.0,
            Some(false) => 0.0,
            None => NaturalFraction.evaluate(game, state),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::solve;
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    /// e2 = 1 only on forced wins and 0 only on forced losses, at every node of many P-games
    /// of both parities; at height <= 1 it is exact; elsewhere it is e1.
    #[test]
    fn detections_are_always_right() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let mut detected = 0;
        for height in [5u32, 6] {
            for _ in 0..40 {
                let game = SplittingGame::p_game(2, height, 0.4, &mut rng).unwrap();
                let tree = crate::sim::level_tree::LevelTree::new(2, height).unwrap();
                for region in tree.regions(&game) {
                    let truth = solve(&game, &region);
                    let e2 = ForcedLines.evaluate(&game, &region);
                    match forced_line(&game, &region) {
                        Some(win) => {
                            detected += 1;
                            assert_eq!(truth, f64::from(u8::from(win)));
                        }
                        None => assert_eq!(e2, NaturalFraction.evaluate(&game, &region)),
                    }
                    if region.height <= 1 {
                        assert_eq!(e2, truth, "{region:?}");
                    }
                }
            }
        }
        assert!(detected > 1000, "{detected}");
    }

    /// A hand-checked 4 x 2 board (height 3, Max at the root cuts rows): row 2 is all 1s.
    #[test]
    fn explicit_board() {
        // Tree order: leaf index = 4 r1 + 2 c + r0 for root move r1, Min's move c, Max's r0;
        // the row is 2 r1 + r0. Row 2 (r1 = 1, r0 = 0): leaves 4 and 6.
        let leaves: Vec<bool> = (0..8).map(|i| i == 4 || i == 6).collect();
        let game = SplittingGame::from_leaves(2, 3, &leaves).unwrap();
        assert!(game.square(2, 0) && game.square(2, 1));
        assert_eq!(forced_line(&game, &game.root()), Some(true));
        assert_eq!(ForcedLines.evaluate(&game, &game.root()), 1.0);
        assert_eq!(NaturalFraction.evaluate(&game, &game.root()), 0.25);
        // After Max keeps the top half (rows 0, 1: all 0s), columns are all 0: a forced loss.
        let top = game.play(&game.root(), 0);
        assert_eq!(forced_line(&game, &top), Some(false));
    }
}
