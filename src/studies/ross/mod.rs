//! Ross (2020), *Minimax Alpha-Beta Pruning Can Obscure Losing Branches*.
//!
//! - [`alphabeta`]: with random tie-breaking among root values that alpha-beta returned with
//!   the root's alpha passed on, a losing move can be chosen (random trees, tic-tac-toe).
//! - [`alphabeta_report`]: the tic-tac-toe position analysis and `mc alphabeta` as reports.

pub mod alphabeta;
pub mod alphabeta_report;
