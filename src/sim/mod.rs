//! **Layer 6, the Monte Carlo engine.** Seeded, parallel, sharded trials and their
//! statistics, independent of any experiment.
//!
//! May import: every layer below ([`crate::analytic`], [`crate::games`], [`crate::search`]
//! and the ground layers). Must not know a paper's study: the experiments that use this
//! engine live in [`crate::studies`].
//!
//! - [`runner`]: seeded parallel trials, one random stream per trial, results independent of
//!   the thread count; shards (`--shard K/N`).
//! - [`stats`]: proportions with 95% Wilson intervals and z-scores against exact values.
//! - [`report`]: Monte Carlo rows (counts, estimate, interval, exact, z) and the
//!   schema-driven half of `pathology merge` (shards checked, counts summed).
//! - [`level_tree`]: complete b-ary board-splitting trees in flat level-order arrays, drawn
//!   from a trial's stream (the fast path of the match and EMM studies).
//!
//! New experiments plug in the same way: a trial function `(scratch, rng) -> outcome`, a fold
//! into [`stats::Proportion`] or [`stats::Mean`] accumulators, and
//! [`stats::Proportion::compare`] against the exact value.

pub mod level_tree;
pub mod report;
pub mod runner;
pub mod stats;

pub use runner::TrialRunner;
pub use stats::{Comparison, Mean, Proportion};
