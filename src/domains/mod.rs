//! **Layer 7, real domains solved completely.** The domains of Nau, Luštrek, Parker, Bratko &
//! Gams, *When is it better not to look ahead?* (AIJ 174, 2010) that are small enough to
//! solve completely, so that the question "is deeper search better here?" is answered for
//! every position, exactly, with the true values from a solver.
//!
//! May import every layer below (the searches and the Monte Carlo engine: [`crate::sim`]);
//! [`crate::reproduce`] and [`crate::cli`] call it. A peer of [`crate::studies`], so neither
//! imports the other.
//!
//! - [`chess`]: the KRK and KQK endgames.

pub mod chess;
