//! **Layer 7, the papers' studies.** One module per paper, and the cross-validation of the
//! Monte Carlo engine against the exact calculators. Every study returns [`crate::report::Report`]s.
//!
//! May import: every layer below (the calculators, the games, the searches, the Monte Carlo
//! engine). Nothing below this layer knows a paper's experiment.
//!
//! - [`li_marsland`]: Li & Marsland (1990): Fig. 4.
//! - [`chi_nau`]: Chi & Nau (1987): minimax against product on P-games (Fig. 3, the depth-11
//!   table), three-hole kalah, othello.
//! - [`wilson_parker_nau`]: Wilson, Parker & Nau (2009): minimax, product and EMM at every
//!   search depth (Figs. 3-6), with the exact minimax curve beside them.
//! - [`nguyen_ramanujan`]: Nguyen & Ramanujan (2024): UCT's decisions on the critical win-loss
//!   game (and P-/N-games) by exploration constant and iterations, beside exact minimax.
//! - [`critical_curves`]: D against d on the critical win-loss game (Nguyen & Ramanujan's
//!   settings, depth-d minimax, exact).
//! - [`nau_lustrek`]: the (sigma, granularity) phase diagram of pathology on P-games (Nau et
//!   al. 2010, Luštrek et al.), exact.
//! - [`why_minimax`]: why minimax works: local similarity, early terminal nodes
//!   and minimax bias on path-sum trees, exact.
//! - [`inference`]: test-time search (Stroebl et al. 2024, Chen et al. 2024): resampling,
//!   voting, best-of-n and lookahead, exact.
//! - [`ross`]: Ross (2020): alpha-beta tie-breaking on random trees and tic-tac-toe.
//! - [`crossval`]: the Monte Carlo-against-exact experiments (D(d,h) on D-game boards, the
//!   gamma/delta map, rhf).
//! - [`merge`]: the experiments whose shards `pathology merge` rebuilds.

pub mod chi_nau;
pub mod critical_curves;
pub mod crossval;
pub mod inference;
pub mod li_marsland;
pub mod merge;
pub mod nau_lustrek;
pub mod nguyen_ramanujan;
pub mod ross;
pub mod why_minimax;
pub mod wilson_parker_nau;
