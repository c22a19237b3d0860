//! Minimax against the product rule in othello with a weak and a strong evaluator: Chi &
//! Nau's (1987) Section 4.3, rerunning Teague's (1985) study ("minimax performed better than
//! product 82.8% of the time with the strong evaluation, but only 63.1% of the time with the
//! weak evaluation"). Teague's thesis is not public; his evaluators, search depths and
//! openings are unknown, so ours are stated here.
//!
//! Evaluators ([`OthelloEvaluator`]), from Black's (Max's) side, in (0, 1) for the product
//! rule, and the utility (1, 1/2, 0) at finished games:
//!
//! - **weak**: the piece count, Black's share of the discs, `black / (black + white)` (the
//!   disc difference scaled linearly, as `e_a` scales kalah's advantage);
//! - **strong**: `s = positional + 5 * mobility + 20 * corners`, mapped to
//!   `1 / (1 + exp(-s / 40))`: *positional* is the sum of the classic square weights
//!   ([`SQUARE_WEIGHTS`]: corners 100, the squares next to a corner -20 and -50, edges 10 and
//!   5, the centre -1 to -2) over Black's discs minus White's; *mobility* is Black's legal
//!   move count minus White's; *corners* is Black's corners minus White's.
//!
//! **A trial** is one opening: from the standard start, [`OthelloSetup::opening_plies`]
//! uniformly random legal moves (the trial's stream), so the openings vary. From it two games
//! are played for each evaluator: once with minimax as the player to move, once with product
//! (Chi & Nau, footnote 5: each player has a chance to move first). Each player searches to
//! [`OthelloSetup::depth`] plies with its back-up rule (a pass is a ply) over the same
//! evaluator and takes a move with the best value for its colour, ties broken uniformly at
//! random. Minimax computes each root move's value with alpha-beta on a full window (exact
//! values, fewer nodes); product searches the full tree. **Draws** are counted as neither
//! player's win: the result reports wins of minimax, of product and draws out of all games
//! (95% Wilson intervals, games treated as independent) and the paired score per opening
//! (win 1, draw 1/2; normal interval), as in [`crate::studies::chi_nau::matches`].
//!
//! Nodes searched (every position a search visits, root children included) are counted so
//! that speed can be reported as positions per second.
//!
//! **What our rerun shows** (500 openings of 8 random plies, seed 1, two games per opening
//! and evaluator; about 2.9e6 positions per second per thread, machine loaded):
//!
//! | depth | evaluator | minimax wins [95%] | Teague | product wins | draws | minimax score [95%] |
//! |---|---|---|---|---|---|---|
//! | 1 | weak | 48.5% [45.4, 51.6] | 63.1% | 49.3% | 2.2% | 49.6% [46.6, 52.6] |
//! | 1 | strong | 50.9% [47.8, 54.0] | 82.8% | 46.8% | 2.3% | 52.0% [49.8, 54.3] |
//! | 2 | weak | 35.9% [33.0, 38.9] | 63.1% | 62.4% | 1.7% | 36.8% [33.9, 39.6] |
//! | 2 | strong | 60.8% [57.7, 63.8] | 82.8% | 37.3% | 1.9% | 61.8% [58.9, 64.6] |
//! | 3 | weak | 37.9% [34.9, 40.9] | 63.1% | 59.7% | 2.4% | 39.1% [36.1, 42.1] |
//! | 3 | strong | 62.5% [59.5, 65.4] | 82.8% | 35.3% | 2.2% | 63.6% [60.7, 66.5] |
//!
//! At depth 1 both rules choose alike (a control: 50% up to the tie-breaks). At depths 2 and 3
//! the **direction** of Teague's result holds: minimax does much better against product with
//! the strong evaluator than with the weak one (about 25 points). The **levels** do not:
//! with the weak piece count, product beats minimax (minimax wins 36-38%, Teague 63.1%), and
//! with the strong evaluator minimax wins 61-63%, not 82.8%. Teague's evaluators and depths
//! are unknown, so the levels may depend on them.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::games::othello::{OthelloBoard, PASS, legal_moves};
use crate::search::minimax::choose_best;
use crate::search::product::at_least_one;
use crate::sim::runner::TrialRunner;
use crate::sim::stats::{Comparison, Mean, Proportion};

/// Teague's fraction of games minimax won with the strong evaluator (Chi & Nau, 4.3).
pub const PAPER_MINIMAX_STRONG: f64 = 0.828;

/// Teague's fraction of games minimax won with the weak evaluator.
pub const PAPER_MINIMAX_WEAK: f64 = 0.631;

/// The classic othello square weights (a1 first, rank by rank), symmetric under the board's
/// eight symmetries.
pub const SQUARE_WEIGHTS: [i32; 64] = [
    100, -20, 10, 5, 5, 10, -20, 100, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    10, -2, -1, -1, -1, -1, -2, 10, //
    5, -2, -1, -1, -1, -1, -2, 5, //
    5, -2, -1, -1, -1, -1, -2, 5, //
    10, -2, -1, -1, -1, -1, -2, 10, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    100, -20, 10, 5, 5, 10, -20, 100,
];

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Room for the children of a position (the most legal moves in a reachable othello
/// position is 33).
const MAX_CHILDREN: usize = 40;

/// An othello evaluator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OthelloEvaluator {
    /// Black's share of the discs.
    Weak,
    /// Square weights, mobility and corners through a logistic map.
    Strong,
}

impl OthelloEvaluator {
    /// The evaluation of a position from Black's side, in [0, 1] (the utility when the game
    /// is over).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::othello::OthelloBoard;
    /// use pathology::studies::chi_nau::othello::OthelloEvaluator;
    /// let start = OthelloBoard::start();
    /// assert_eq!(OthelloEvaluator::Weak.evaluate(&start), 0.5);
    /// assert_eq!(OthelloEvaluator::Strong.evaluate(&start), 0.5); // symmetric
    /// let after = start.play(19); // Black d3: 4 discs to 1
    /// assert_eq!(OthelloEvaluator::Weak.evaluate(&after), 0.8);
    /// ```
    pub fn evaluate(&self, board: &OthelloBoard) -> f64 {
        let (black, white) = board.colours();
        let own_moves = legal_moves(board.own, board.opponent);
        let other_moves = legal_moves(board.opponent, board.own);
        if own_moves == 0 && other_moves == 0 {
            let (b, w) = (black.count_ones(), white.count_ones());
            return match b.cmp(&w) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Less => 0.0,
                std::cmp::Ordering::Equal => 0.5,
            };
        }
        match self {
            OthelloEvaluator::Weak => {
                let b = f64::from(black.count_ones());
                b / (b + f64::from(white.count_ones()))
            }
            OthelloEvaluator::Strong => {
                let weights = |mut bits: u64| {
                    let mut sum = 0;
                    while bits != 0 {
                        sum += SQUARE_WEIGHTS[bits.trailing_zeros() as usize];
                        bits &= bits - 1;
                    }
                    sum
                };
                let (black_moves, white_moves) = if board.black_to_move {
                    (own_moves, other_moves)
                } else {
                    (other_moves, own_moves)
                };
                let positional = weights(black) - weights(white);
                let mobility = black_moves.count_ones() as i32 - white_moves.count_ones() as i32;
                let corners =
                    (black & CORNERS).count_ones() as i32 - (white & CORNERS).count_ones() as i32;
                let s = f64::from(positional + 5 * mobility + 20 * corners);
                1.0 / (1.0 + (-s / 40.0).exp())
            }
        }
    }
}

/// A back-up rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OthelloRule {
    /// Minimax (alpha-beta with exact root-move values).
    Minimax,
    /// The product rule.
    Product,
}

/// The children of a position: its legal moves in square order, or a single pass; empty
/// when the game is over.
fn children(board: &OthelloBoard) -> ([OthelloBoard; MAX_CHILDREN], usize) {
    let mut out = [*board; MAX_CHILDREN];
    let mut bits = board.moves();
    if bits == 0 {
        if legal_moves(board.opponent, board.own) == 0 {
            return (out, 0);
        }
        out[0] = board.play(PASS);
        return (out, 1);
    }
    let mut n = 0;
    while bits != 0 {
        let square = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        out[n] = board.play(square);
        n += 1;
    }
    (out, n)
}

/// Fail-soft alpha-beta value from Black's side.
fn alphabeta(
    board: &OthelloBoard,
    depth: u32,
    mut alpha: f64,
    mut beta: f64,
    eval: OthelloEvaluator,
    nodes: &mut u64,
) -> f64 {
    *nodes += 1;
    if depth == 0 {
        return eval.evaluate(board);
    }
    let (kids, n) = children(board);
    if n == 0 {
        return eval.evaluate(board); // the utility
    }
    if board.black_to_move {
        let mut best = f64::NEG_INFINITY;
        for child in &kids[..n] {
            let v = alphabeta(child, depth - 1, alpha, beta, eval, nodes);
            best = best.max(v);
            alpha = alpha.max(v);
            if best >= beta {
                break;
            }
        }
        best
    } else {
        let mut best = f64::INFINITY;
        for child in &kids[..n] {
            let v = alphabeta(child, depth - 1, alpha, beta, eval, nodes);
            best = best.min(v);
            beta = beta.min(v);
            if best <= alpha {
                break;
            }
        }
        best
    }
}

/// The depth-`depth` product value from Black's side.
fn product_value(board: &OthelloBoard, depth: u32, eval: OthelloEvaluator, nodes: &mut u64) -> f64 {
    *nodes += 1;
    if depth == 0 {
        return eval.evaluate(board);
    }
    let (kids, n) = children(board);
    if n == 0 {
        return eval.evaluate(board);
    }
    let mut values = [0.0; MAX_CHILDREN];
    for (value, child) in values.iter_mut().zip(&kids[..n]) {
        *value = product_value(child, depth - 1, eval, nodes);
    }
    if board.black_to_move {
        at_least_one(&values[..n])
    } else {
        values[..n].iter().product()
    }
}

/// The value of `board` searched to `depth` plies with `rule` (from Black's side), counting
/// visited positions into `nodes`.
///
/// # Examples
///
/// ```
/// use pathology::games::othello::OthelloBoard;
/// use pathology::studies::chi_nau::othello::{OthelloEvaluator, OthelloRule, search_value};
/// let mut nodes = 0;
/// let v = search_value(&OthelloBoard::start(), OthelloRule::Minimax, OthelloEvaluator::Weak, 1, &mut nodes);
/// assert_eq!(v, 0.8); // every first move gives 4 discs to 1
/// assert_eq!(nodes, 5);
/// ```
pub fn search_value(
    board: &OthelloBoard,
    rule: OthelloRule,
    eval: OthelloEvaluator,
    depth: u32,
    nodes: &mut u64,
) -> f64 {
    match rule {
        OthelloRule::Minimax => {
            alphabeta(board, depth, f64::NEG_INFINITY, f64::INFINITY, eval, nodes)
        }
        OthelloRule::Product => product_value(board, depth, eval, nodes),
    }
}

/// The child a player with `rule` moves to by a depth-`depth` search (`depth >= 1`): a
/// child with the best depth-`(depth - 1)` value for the side to move, ties broken uniformly
/// at random. `None` when the game is over.
///
/// # Examples
///
/// ```
/// use pathology::games::othello::OthelloBoard;
/// use pathology::studies::chi_nau::othello::{OthelloEvaluator, OthelloRule, choose_child};
/// use rand::SeedableRng;
/// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
/// let mut nodes = 0;
/// let start = OthelloBoard::start();
/// let child = choose_child(&start, OthelloRule::Product, OthelloEvaluator::Strong, 2, &mut rng, &mut nodes);
/// assert!(child.is_some());
/// assert!(nodes > 4);
/// ```
pub fn choose_child(
    board: &OthelloBoard,
    rule: OthelloRule,
    eval: OthelloEvaluator,
    depth: u32,
    rng: &mut ChaCha8Rng,
    nodes: &mut u64,
) -> Option<OthelloBoard> {
    let (kids, n) = children(board);
    if n == 0 {
        return None;
    }
    let values: Vec<f64> = kids[..n]
        .iter()
        .map(|child| search_value(child, rule, eval, depth.saturating_sub(1), nodes))
        .collect();
    let player = crate::games::Game::to_move(&crate::games::othello::Othello, board);
    Some(kids[choose_best(&values, player, rng)])
}

/// The parameters of the othello experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OthelloSetup {
    /// Random plies played from the standard start to make an opening.
    pub opening_plies: u32,
    /// The players' search depth in plies.
    pub depth: u32,
}

impl OthelloSetup {
    /// Checks the parameters.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::chi_nau::othello::OthelloSetup;
    /// assert!(OthelloSetup::new(6, 2).is_ok());
    /// assert!(OthelloSetup::new(6, 0).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--opening-plies` above 20 or `--depth` outside
    /// `1..=5`.
    pub fn new(opening_plies: u32, depth: u32) -> Result<Self> {
        if opening_plies > 20 {
            return Err(Error::invalid(
                "--opening-plies",
                "in 0..=20",
                opening_plies,
            ));
        }
        if !(1..=5).contains(&depth) {
            return Err(Error::invalid("--depth", "in 1..=5", depth));
        }
        Ok(OthelloSetup {
            opening_plies,
            depth,
        })
    }
}

/// The games of one evaluator.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OthelloRow {
    /// The evaluator both players use.
    pub evaluator: OthelloEvaluator,
    /// Fraction of games won by minimax (Wilson interval; z against Teague's value).
    pub minimax_wins: Comparison,
    /// Fraction of games won by product.
    pub product_wins: Comparison,
    /// Fraction of games drawn.
    pub draws: Comparison,
    /// Minimax's paired score per opening (win 1, draw 1/2), normal interval.
    pub minimax_score: Comparison,
    /// Games won by minimax, by product, drawn.
    pub counts: [u64; 3],
    /// Games played.
    pub games: u64,
    /// Positions visited by all searches of these games.
    pub nodes: u64,
}

/// The othello experiment's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OthelloMatches {
    /// The parameters.
    pub setup: OthelloSetup,
    /// The seed.
    pub seed: u64,
    /// Openings (two games each per evaluator).
    pub openings: u64,
    /// The weak evaluator's row, then the strong one's.
    pub rows: Vec<OthelloRow>,
}

/// A random opening: `plies` uniformly random legal moves from the start (passes when
/// forced; stops early if the game ends).
///
/// # Examples
///
/// ```
/// use pathology::studies::chi_nau::othello::random_opening;
/// use rand::SeedableRng;
/// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(2);
/// let board = random_opening(6, &mut rng);
/// let (black, white) = board.discs();
/// assert_eq!(black + white, 10);
/// ```
pub fn random_opening(plies: u32, rng: &mut ChaCha8Rng) -> OthelloBoard {
    let mut board = OthelloBoard::start();
    for _ in 0..plies {
        let (kids, n) = children(&board);
        if n == 0 {
            break;
        }
        board = kids[rng.random_range(0..n)];
    }
    board
}

/// Plays one game from `board`: `first` moves for the side to move, the other rule for the
/// other side. Returns whether the first player won, lost or drew (`1`, `-1`, `0`).
fn play(
    board: &OthelloBoard,
    first: OthelloRule,
    eval: OthelloEvaluator,
    depth: u32,
    rng: &mut ChaCha8Rng,
    nodes: &mut u64,
) -> i32 {
    let second = match first {
        OthelloRule::Minimax => OthelloRule::Product,
        OthelloRule::Product => OthelloRule::Minimax,
    };
    let first_is_black = board.black_to_move;
    let mut state = *board;
    loop {
        let rule = if state.black_to_move == first_is_black {
            first
        } else {
            second
        };
        match choose_child(&state, rule, eval, depth, rng, nodes) {
            Some(next) => state = next,
            None => break,
        }
    }
    let (black, white) = state.discs();
    let black_margin = black as i32 - white as i32;
    let first_margin = if first_is_black {
        black_margin
    } else {
        -black_margin
    };
    first_margin.signum()
}

#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    minimax: u64,
    product: u64,
    draws: u64,
    nodes: u64,
}

/// Plays minimax against product from `runner.trials()` random openings, with the weak and
/// the strong evaluator.
///
/// # Examples
///
/// ```
/// use pathology::sim::TrialRunner;
/// use pathology::studies::chi_nau::othello::{OthelloSetup, othello_matches};
/// let runner = TrialRunner::new(2, 1, 1).unwrap();
/// let result = othello_matches(&OthelloSetup::new(6, 1).unwrap(), &runner).unwrap();
/// assert_eq!(result.rows.len(), 2);
/// assert_eq!(result.rows[0].games, 4);
/// ```
///
/// # Errors
///
/// From the runner (the setup is checked by [`OthelloSetup::new`]).
pub fn othello_matches(setup: &OthelloSetup, runner: &TrialRunner) -> Result<OthelloMatches> {
    let evaluators = [OthelloEvaluator::Weak, OthelloEvaluator::Strong];
    let (tallies, scores) = runner.run(
        || (),
        |_, rng| {
            let opening = random_opening(setup.opening_plies, rng);
            evaluators.map(|eval| {
                let mut tally = Tally::default();
                for first in [OthelloRule::Minimax, OthelloRule::Product] {
                    let result = play(&opening, first, eval, setup.depth, rng, &mut tally.nodes);
                    match (result, first) {
                        (0, _) => tally.draws += 1,
                        (1, OthelloRule::Minimax) | (-1, OthelloRule::Product) => {
                            tally.minimax += 1;
                        }
                        _ => tally.product += 1,
                    }
                }
                tally
            })
        },
        ([Tally::default(); 2], [Mean::default(); 2]),
        |(mut tallies, mut scores), trial: [Tally; 2]| {
            for i in 0..2 {
                let t = &mut tallies[i];
                t.minimax += trial[i].minimax;
                t.product += trial[i].product;
                t.draws += trial[i].draws;
                t.nodes += trial[i].nodes;
                scores[i].record((trial[i].minimax as f64 + 0.5 * trial[i].draws as f64) / 2.0);
            }
            (tallies, scores)
        },
    )?;
    let rows = evaluators
        .iter()
        .zip(tallies.iter().zip(&scores))
        .map(|(&evaluator, (t, score))| {
            let games = t.minimax + t.product + t.draws;
            let fraction = |k: u64, exact: Option<f64>| {
                Proportion {
                    successes: k,
                    trials: games,
                }
                .compare(exact)
            };
            let paper = match evaluator {
                OthelloEvaluator::Weak => PAPER_MINIMAX_WEAK,
                OthelloEvaluator::Strong => PAPER_MINIMAX_STRONG,
            };
            OthelloRow {
                evaluator,
                minimax_wins: fraction(t.minimax, Some(paper)),
                product_wins: fraction(t.product, None),
                draws: fraction(t.draws, None),
                minimax_score: score.compare(Some(0.5)),
                counts: [t.minimax, t.product, t.draws],
                games,
                nodes: t.nodes,
            }
        })
        .collect();
    Ok(OthelloMatches {
        setup: *setup,
        seed: runner.seed(),
        openings: runner.trials_run(),
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::games::othello::Othello;
    use crate::search::{minimax, product};
    use rand::SeedableRng;

    /// The fast searches agree with the generic searches of `crate::search` over the `Game`
    /// trait (alpha-beta returns the minimax value; product back-ups are the same).
    #[test]
    fn fast_searches_agree_with_the_generic_ones() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for plies in [0, 4, 10, 20] {
            let board = random_opening(plies, &mut rng);
            for eval in [OthelloEvaluator::Weak, OthelloEvaluator::Strong] {
                let generic = |_: &Othello, b: &OthelloBoard| eval.evaluate(b);
                for depth in 1..=3 {
                    let mut nodes = 0;
                    let fast = search_value(&board, OthelloRule::Minimax, eval, depth, &mut nodes);
                    assert_eq!(fast, minimax(&Othello, &board, depth, &generic));
                    let fast = search_value(&board, OthelloRule::Product, eval, depth, &mut nodes);
                    let slow = product(&Othello, &board, depth, &generic);
                    assert!((fast - slow).abs() < 1e-12, "{fast} vs {slow}");
                }
            }
        }
    }

    /// Evaluations lie in [0, 1], are exact at finished games, and the strong evaluator
    /// prefers owning a corner.
    #[test]
    fn evaluators_are_probabilities() {
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        for _ in 0..200 {
            let mut board = OthelloBoard::start();
            while let Some(u) = {
                let moves = Othello.moves(&board);
                (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())])
            } {
                for eval in [OthelloEvaluator::Weak, OthelloEvaluator::Strong] {
                    let e = eval.evaluate(&board);
                    assert!((0.0..=1.0).contains(&e));
                }
                board = Othello.play(&board, u);
            }
            let u = Othello.utility(&board).unwrap();
            assert_eq!(OthelloEvaluator::Strong.evaluate(&board), u);
            assert_eq!(OthelloEvaluator::Weak.evaluate(&board), u);
        }
        let corner = OthelloBoard::from_picture(
            "........\n........\n........\n...XO...\n...OX...\n........\n.O......\nX.......",
            true,
        )
        .unwrap();
        let x_square = OthelloBoard::from_picture(
            "........\n........\n........\n...XO...\n...OX...\n........\n.X......\nO.......",
            true,
        )
        .unwrap();
        let strong = OthelloEvaluator::Strong;
        assert!(strong.evaluate(&corner) > 0.5 && strong.evaluate(&x_square) < 0.5);
        // The weak evaluator cannot tell them apart.
        assert_eq!(
            OthelloEvaluator::Weak.evaluate(&corner),
            OthelloEvaluator::Weak.evaluate(&x_square)
        );
    }

    /// Pinned reference values of a seeded run (10 openings, depth 2, seed 1): games won by
    /// minimax, by product, drawn, and positions searched, per evaluator.
    #[test]
    fn pinned_reference_run() {
        let setup = OthelloSetup::new(8, 2).unwrap();
        let result = othello_matches(&setup, &TrialRunner::new(10, 1, 2).unwrap()).unwrap();
        let got: Vec<([u64; 3], u64)> = result.rows.iter().map(|r| (r.counts, r.nodes)).collect();
        assert_eq!(got, vec![([5, 15, 0], 54436), ([8, 12, 0], 83371)]);
    }

    /// The result does not depend on the thread count.
    #[test]
    fn deterministic_across_thread_counts() {
        let setup = OthelloSetup::new(4, 1).unwrap();
        let run =
            |threads| othello_matches(&setup, &TrialRunner::new(6, 3, threads).unwrap()).unwrap();
        let one = run(1);
        assert_eq!(one, run(2));
        assert!(one.rows.iter().all(|r| r.games == 12 && r.nodes > 0));
    }
}
