//! Nau's G-games **as we reconstruct them** (Chi & Nau 1987, Section 4.1, citing Nau 1983, "On
//! game graph structure and its influence on pathology"), behind the [`Game`] trait so that
//! the searches of [`crate::search`] play them, with the exact solver on the interval lattice.
//!
//! Chi & Nau do not define the game and we did not have Nau's paper; the definition is the
//! one of [`crate::analytic::ggame`] (its module docs give every convention): a row of `k + 1`
//! squares, each a 1 with probability `p`; the players alternately remove one square from
//! either end; when one square is left (after `k` moves) a 1 is a win for Max, the player who
//! moves last ([`crate::model`]: odd heights are Max nodes). A position is an interval
//! `[lo, hi]` of the row ([`Interval`]); move 0 removes the leftmost square (child
//! `[lo + 1, hi]`), move 1 the rightmost (`[lo, hi - 1]`). Different move orders reach the same
//! interval, so the game graph has `(k + 1)(k + 2)/2` nodes.
//!
//! [`GGame::solve`] is backward induction over that lattice: the value of every interval
//! in `O(k^2)`, where a search of the game tree visits `2^(k+1) - 1` nodes. The tests check it
//! against the tree search [`crate::search::solve`] and the closed form
//! [`crate::analytic::ggame::true_value`] on every board up to k = 10.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::Game;
use crate::analytic::ggame::{GEvaluator, true_value};
use crate::error::{Error, Result};
use crate::model::Player;

/// The most moves of a G-game board ([`crate::analytic::ggame::MAX_MOVES`]).
pub const MAX_MOVES: u32 = crate::analytic::ggame::MAX_MOVES;

/// A filled G-game board: the row of squares (1 = `true`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GGame {
    squares: Vec<bool>,
}

/// A position of a G-game: the squares `lo..=hi` still on the row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Interval {
    /// The leftmost square left.
    pub lo: u32,
    /// The rightmost square left.
    pub hi: u32,
}

impl Interval {
    /// The moves left (the node's height): `hi - lo`.
    pub fn height(&self) -> u32 {
        self.hi - self.lo
    }
}

impl GGame {
    /// The board with these squares (at least one, at most `MAX_MOVES + 1`).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::ggame::GGame;
    /// let game = GGame::from_squares(&[true, false, true]).unwrap();
    /// assert_eq!(game.moves_to_end(), 2);
    /// assert!(GGame::from_squares(&[]).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--height` when the row is empty or longer than
    /// `MAX_MOVES + 1` squares.
    pub fn from_squares(squares: &[bool]) -> Result<Self> {
        if squares.is_empty() || squares.len() > MAX_MOVES as usize + 1 {
            return Err(Error::invalid(
                "--height",
                &format!("in 0..={MAX_MOVES} (moves of the G-game)"),
                squares.len() as i64 - 1,
            ));
        }
        Ok(GGame {
            squares: squares.to_vec(),
        })
    }

    /// A random board of `moves + 1` squares, each a 1 with probability `p` (one uniform draw
    /// per square, left to right: `r < p`).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::ggame::GGame;
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    /// let game = GGame::random(6, 1.0, &mut rng).unwrap();
    /// assert!(game.squares().iter().all(|&s| s));
    /// assert!(GGame::random(6, 1.5, &mut rng).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--p` outside [0, 1] or `--height` above
    /// `MAX_MOVES`.
    pub fn random(moves: u32, p: f64, rng: &mut ChaCha8Rng) -> Result<Self> {
        if !(0.0..=1.0).contains(&p) {
            return Err(Error::invalid("--p", "in [0, 1]", p));
        }
        let mut squares = Vec::new();
        Self::draw_squares(moves, p, rng, &mut squares)?;
        Self::from_squares(&squares)
    }

    /// Fills `squares` with a random row as [`GGame::random`] draws it (reusing the buffer).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--height` above `MAX_MOVES`.
    pub fn draw_squares(
        moves: u32,
        p: f64,
        rng: &mut ChaCha8Rng,
        squares: &mut Vec<bool>,
    ) -> Result<()> {
        if moves > MAX_MOVES {
            return Err(Error::invalid(
                "--height",
                &format!("in 1..={MAX_MOVES}"),
                moves,
            ));
        }
        squares.clear();
        squares.extend((0..=moves).map(|_| rng.random::<f64>() < p));
        Ok(())
    }

    /// The squares, left to right.
    pub fn squares(&self) -> &[bool] {
        &self.squares
    }

    /// The moves of a whole game (`k`: one square fewer than the row).
    pub fn moves_to_end(&self) -> u32 {
        self.squares.len() as u32 - 1
    }

    /// The starting position: the whole row.
    pub fn root(&self) -> Interval {
        Interval {
            lo: 0,
            hi: self.moves_to_end(),
        }
    }

    /// The static evaluation of `state` by `evaluator` ([`GEvaluator::evaluate`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::ggame::GEvaluator;
    /// use pathology::games::ggame::GGame;
    /// let game = GGame::from_squares(&[true, false, false, true]).unwrap();
    /// assert_eq!(game.evaluate(GEvaluator::E1, &game.root()), 0.5);
    /// assert_eq!(game.evaluate(GEvaluator::E1Forced, &game.root()), 0.0); // centre 0, 0
    /// ```
    pub fn evaluate(&self, evaluator: GEvaluator, state: &Interval) -> f64 {
        let square = |x: usize| self.squares[x];
        evaluator.evaluate(&square, state.lo as usize, state.hi as usize)
    }

    /// The true value (a win for Max) of every position, by backward induction over the
    /// interval lattice: `wins[t][i]` is the value of `[i, i + t]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::ggame::GGame;
    /// // Max moves last: from "10" Max keeps the 1; from "100" Min removes it.
    /// let game = GGame::from_squares(&[true, false, false]).unwrap();
    /// let wins = game.solve();
    /// assert_eq!(wins[1], vec![true, false]);
    /// assert_eq!(wins[2], vec![false]);
    /// ```
    pub fn solve(&self) -> Vec<Vec<bool>> {
        let n = self.squares.len();
        let mut wins = vec![self.squares.clone()];
        for t in 1..n {
            let max = Player::to_move_at_height(t as u32) == Player::Max;
            let below = &wins[t - 1];
            let row = (0..n - t)
                .map(|i| {
                    if max {
                        below[i] || below[i + 1]
                    } else {
                        below[i] && below[i + 1]
                    }
                })
                .collect();
            wins.push(row);
        }
        wins
    }

    /// The true value of `state` by the closed form of [`crate::analytic::ggame`].
    pub fn wins(&self, state: &Interval) -> bool {
        let square = |x: usize| self.squares[x];
        true_value(&square, state.lo as usize, state.hi as usize)
    }
}

impl Game for GGame {
    type State = Interval;
    /// 0: remove the leftmost square; 1: the rightmost.
    type Move = u8;

    fn to_move(&self, state: &Interval) -> Player {
        Player::to_move_at_height(state.height())
    }

    fn moves(&self, state: &Interval) -> Vec<u8> {
        if state.lo == state.hi {
            Vec::new()
        } else {
            vec![0, 1]
        }
    }

    fn play(&self, state: &Interval, mv: u8) -> Interval {
        match mv {
            0 => Interval {
                lo: state.lo + 1,
                hi: state.hi,
            },
            _ => Interval {
                lo: state.lo,
                hi: state.hi - 1,
            },
        }
    }

    fn utility(&self, state: &Interval) -> Option<f64> {
        (state.lo == state.hi).then(|| f64::from(u8::from(self.squares[state.lo as usize])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The full game tree searched by brute force through the trait (every move sequence).
    fn tree_value(game: &GGame, state: &Interval) -> bool {
        if let Some(u) = game.utility(state) {
            return u == 1.0;
        }
        let mut children = game.moves(state).into_iter().map(|m| {
            let child = game.play(state, m);
            tree_value(game, &child)
        });
        match game.to_move(state) {
            Player::Max => children.any(|w| w),
            Player::Min => children.all(|w| w),
        }
    }

    /// The lattice solver equals the game-tree search and the closed form on every position
    /// of every board up to k = 10 (2^11 boards of 11 squares, and all shorter rows).
    #[test]
    fn lattice_solver_equals_brute_force() {
        for k in 0..=10u32 {
            for board in 0u32..1 << (k + 1) {
                let squares: Vec<bool> = (0..=k).map(|x| board >> x & 1 == 1).collect();
                let game = GGame::from_squares(&squares).unwrap();
                let wins = game.solve();
                // Every position, by the tree below it (small rows only: 2^t paths).
                for (t, row) in wins.iter().enumerate() {
                    for (i, &w) in row.iter().enumerate() {
                        let state = Interval {
                            lo: i as u32,
                            hi: (i + t) as u32,
                        };
                        assert_eq!(w, game.wins(&state), "closed form, {squares:?} {state:?}");
                        if t <= 6 || i == 0 {
                            assert_eq!(w, tree_value(&game, &state), "{squares:?} {state:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn moves_reach_intervals() {
        let game = GGame::from_squares(&[true, false, true, true]).unwrap();
        let root = game.root();
        assert_eq!(game.to_move(&root), Player::Max); // height 3
        let a = game.play(&game.play(&root, 0), 1);
        let b = game.play(&game.play(&root, 1), 0);
        assert_eq!(a, b); // the game graph merges move orders
        assert_eq!(a, Interval { lo: 1, hi: 2 });
        assert_eq!(game.utility(&Interval { lo: 1, hi: 1 }), Some(0.0));
        assert_eq!(game.utility(&root), None);
    }
}
