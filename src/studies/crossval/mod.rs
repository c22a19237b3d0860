//! The Monte Carlo engine checked against the exact calculators: real searches on sampled
//! boards, every estimate beside its exact value, interval and z-score.
//!
//! - [`dgame`]: Li & Marsland's D(d,h) estimated by generating D-game boards and searching
//!   them with minimax and psi.
//! - [`errprop`]: the gamma/delta map (formulas 3 and 4) checked against minimax back-ups of
//!   a noisy bi-valued evaluator on D-game search trees.
//! - [`rhf`]: Chi & Nau's rate of heuristic flaw of `e^w` on P-games against its closed form.
//! - [`distributions`]: evaluations as distributions: depth-d minimax on sampled
//!   critical games and multi-valued P-games against the exact engine, as
//!   `mc distributions` ([`distributions_report`]).
//! - [`pathsum`]: path-sum trees: depth-d minimax on sampled trees with terminal
//!   nodes against the exact engine, as `mc sum` ([`pathsum_report`]).
//! - [`report`]: these experiments as reports, and `pathology merge`.

pub mod dgame;
pub mod distributions;
pub mod distributions_report;
pub mod errprop;
pub mod pathsum;
pub mod pathsum_report;
pub mod report;
pub mod rhf;
