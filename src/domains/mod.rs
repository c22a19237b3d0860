//! **Layer 7, real domains solved completely.** The domains of Nau, Luštrek, Parker, Bratko &
//! Gams, *When is it better not to look ahead?* (AIJ 174, 2010) that are small enough to
//! solve completely, so that the question "is deeper search better here?" is answered for
//! every position, exactly, with the true values from a solver.
//!
//! May import every layer below (the searches and the Monte Carlo engine: [`crate::sim`]);
//! [`crate::reproduce`] and [`crate::cli`] call it. A peer of [`crate::studies`], so neither
//! imports the other.
//!
//! - [`eight_puzzle`]: the 8-puzzle, with single-agent lookahead (minimin).
//! - [`chess`]: the KRK and KQK endgames.
//! - [`merge`]: `pathology merge` of the shards of a sampled run.
//! - [`study`]: the study of `pathology reproduce` over all three, with its claims table.

pub mod chess;
pub mod eight_puzzle;
pub mod merge;
pub mod study;
