//! Monte Carlo experiments that check the exact results against real searches.
//!
//! - [`runner`]: seeded parallel trials, one random stream per trial, results independent of
//!   the thread count.
//! - [`cost`]: per-trial time estimates; runs above an hour are refused up front
//!   ([`TrialRunner::check_budget`]).
//! - [`stats`]: proportions with 95% Wilson intervals and z-scores against exact values.
//! - [`dgame`]: Li & Marsland's D(d,h) estimated by generating D-game boards and searching
//!   them with minimax and psi.
//! - [`errprop`]: Li & Marsland's gamma/delta map (formulas 3 and 4) checked against minimax
//!   back-ups of a noisy bi-valued evaluator on D-game search trees.
//! - [`rhf`]: Chi & Nau's rate of heuristic flaw of `e^w` on P-games against its closed form.
//! - [`alphabeta`]: Ross's (2020) observation: with random tie-breaking among root values that
//!   alpha-beta returned with the root's alpha passed on, a losing move can be chosen.
//! - [`kalah`]: Chi & Nau's (1987, Section 4.5) three-hole kalah table: rhf(4) of `e_a^w`
//!   against the exact solver, and minimax against product at search depth 2.
//! - [`matches`](mod@matches): Chi & Nau's (1987) minimax-against-product matches on P-games (Section 4.4's
//!   depth-11 table, Section 5's Fig. 3).
//! - [`match_report`]: the match studies as reports (tidy rows, all formats) and their shards
//!   merged.
//! - [`othello`]: minimax against product in othello with a weak and a strong evaluator
//!   (Chi & Nau 1987, Section 4.3, Teague's study).
//! - [`variety_report`]: the kalah table, the othello matches and Ross's node counts as
//!   reports (`pathology mc kalah | othello | nodes`), with the papers' values and claims.
//! - [`emm_study`]: Wilson, Parker & Nau's (2009) decision quality of minimax, the product rule
//!   and EMM at every search depth (Figs. 3-6), with the natural evaluator's error calibration.
//! - [`emm_report`]: the EMM study's reports (`mc emm`, `mc emm-calibrate`, `mc emm-figures`,
//!   and `pathology merge` of `mc emm` shards).
//! - [`level_tree`]: complete b-ary trees in flat level-order arrays, the fast path of both.
//!
//! New experiments plug in the same way: a trial function `(scratch, rng) -> outcome`, a fold
//! into [`stats::Proportion`] or [`stats::Mean`] accumulators, and
//! [`stats::Proportion::compare`] against the exact value.

pub mod alphabeta;
pub mod alphabeta_report;
pub mod cost;
pub mod dgame;
pub mod emm_report;
pub mod emm_study;
pub mod errprop;
pub mod kalah;
pub mod level_tree;
pub mod match_report;
pub mod matches;
pub mod othello;
pub mod report;
pub mod rhf;
pub mod runner;
pub mod stats;
pub mod variety_report;

pub use runner::TrialRunner;
pub use stats::{Comparison, Mean, Proportion};
