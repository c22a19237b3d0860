//! Nguyen & Ramanujan (2024), *Lookahead Pathology in Monte-Carlo Tree Search* (ICAPS 2024,
//! arXiv 2212.05208): UCT on the critical win-loss game, beside exact minimax.
//!
//! The paper asks whether UCT, like minimax on Nau's and Pearl's games, can play worse the
//! more it searches. It builds a family of synthetic games in which every node is won or lost
//! for its mover and a won node keeps one winning (optimal) move while each other move turns
//! into a loss with the mover's *critical rate* gamma ([`crate::games::critical`]), and it
//! records, over 500 random games per setting, the fraction of games in which UCT's move at the
//! root is the winning one after each number of iterations, for exploration constants from
//! 0.001 to 10^6. With gamma = 1 and a large enough c it proves, and observes, that the
//! fraction can fall as the iterations grow (lookahead pathology); smaller gamma weakens the
//! effect.
//!
//! - [`study`]: the games, evaluators and counts (one [`crate::sim::TrialRunner`] stream per
//!   game; every c on the same games).
//! - [`exact`]: the exact d-ply minimax lines with the same evaluator on the same games, from
//!   the exact engines (`crate::analytic::distributions`, `crate::analytic::families`).
//! - [`figure5`]: the paper's Figure 5 setting as a grid of runs, its claims table and figure
//!   data (`pathology reproduce`).
//! - [`request`]: the options of `pathology mc uct` checked and run.
//! - [`report`]: the report of `pathology mc uct`, rebuilt from summed counts for `merge`,
//!   with a second table for the exact d-ply minimax values.
//!
//! **Sources and where they differ from the project's specification.** Beyond the abstract, the paper's
//! text could not be read here; every detail below comes from the authors' code that produced
//! its figures (`npnkhoi/mcts-lp`: `synthetic_games/games/crit_game.py`, `algos/uct.py`,
//! `algos/constants.py`, `heuristics/*.py`, and its README):
//!
//! - *Game*: as the brief, gamma of the mover at won nodes (`flip_rate = (MAX's, MIN's)`),
//!   except that **the root's rate is always 1** (exactly one winning root move).
//! - *UCT*: UCB1 `mean + c sqrt(ln N / n)` on values in [0, 1] for Max, minimised as
//!   `mean - c sqrt(ln N / n)` at Min's nodes; an unexpanded move is chosen uniformly at random
//!   (not in move order); a new node's value is its heuristic (terminal nodes exact, and
//!   revisited); the mean is updated incrementally. **The decision** is UCB1 with `c = 0`, so
//!   while some root move is unexpanded (N < b) it is an *unexpanded move, uniformly*; the
//!   brief's "highest mean" holds from N = b on. The authors record the decision after every
//!   iteration; we record it at the grid's counts, on a readout stream of its own.
//! - *Figure 5* (README): b in {2, 5, 8}, gamma in {0.9, 1}, H = 50, 500 games, 10^5
//!   iterations, **c in {0.001, 0.01, 0.1, 1, 10, 10^6}** (six values, not a full log grid),
//!   and the heuristics **`chess-rand-10` and `chess-pseu-10`**: values drawn per node from
//!   histograms of chess-engine evaluations of won and lost positions (pickled data not
//!   available here), rescaled by their range. The brief's `gaussian` (the authors' `gaussian`,
//!   with default sigma 0.25) and `expected-playout` evaluators exist in their code but are
//!   not Figure 5's; the study runs them as stand-ins. A user with such histograms passes
//!   them to `mc uct --evaluator histogram --histogram FILE` ([`study::UctHistogram`]; values
//!   on the `+-1` scale mapped by `(e + 1) / 2`, not rescaled by the range).
//! - *Gaussian scale*: we map `+-1 + sigma Z` by `(v + 1) / 2`; the authors rescale by the
//!   range of 10^5 draws, which equals our scale with c larger by about `1 + 4.4 sigma`.
//! - *Expected playout*: the authors' closed form has `K^(d+1)` where the exact mean has
//!   `K^d` (see [`crate::games::critical::expected_playout_table`]); we use the exact mean,
//!   which the exact engine must reproduce.
//!
//! **Speed and memory** (`examples/uct_speed.rs`, release build, on the project's 2-core
//! machine while other engineers' builds ran, load 3.5-7): on the critical game with H = 50
//! and 10^5 iterations, averaged over the paper's six c, one thread ran 1.3-2.2 M iterations
//! per CPU second at b = 2 (Gaussian sigma = 0.25 and expected-playout), 1.5-2.0 M at b = 5
//! and 1.3-1.6 M at b = 8; the slowest single c (0.001-0.1, where the search follows one line
//! to the end of the game, Gaussian at b = 8) 1.0 M. Two threads on b = 2 reached 3.2 M
//! iterations per wall-clock second in a quieter moment (1.0 M at load 6). A node of the search
//! tree takes 48 bytes for the critical game, plus a block of `4 b` bytes per node with
//! children: 53 bytes per iteration at b = 2, 60 at b = 8. The paper's Figure 5 grid (b in
//! {2, 5, 8}, gamma in {0.9, 1}, two heuristics, six c, 500 games of 10^5 iterations: 3.6 *
//! 10^9 iterations) costs 0.6-0.7 core-hours at these rates (with the Gaussian and
//! expected-playout evaluators standing in for the chess histograms), about 20 minutes on 2
//! cores; the full grid of `reproduce --full`, one c per decade from 0.001 to 10^6 (ten c),
//! is 10/6 of that (0.8 core-hours measured again in a later run). The cost model of
//! [`study::game_seconds`] is fitted to these measurements (1.3-2x above the measured whole
//! games).

pub mod exact;
pub mod figure5;
pub mod report;
pub mod request;
pub mod study;
