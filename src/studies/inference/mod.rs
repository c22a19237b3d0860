//! Test-time search studies: when does more sampling, voting or verifier-guided search make
//! a language model's final answer worse? Each study runs the exact calculators of
//! [`crate::analytic::inference`] in rationals on the papers' settings and decides its claims
//! with [`crate::report::claims`] (exact evidence).
//!
//! - [`sampling`]: resampling until an imperfect verifier accepts (Stroebl, Kapoor &
//!   Narayanan, arXiv 2411.17501) and majority voting on a mix of easy and hard queries
//!   (Chen et al., arXiv 2403.02419), with the voting phase diagram.
//! - [`notebook`]: Stroebl et al.'s notebook reward curve against the plain expectation.
//! - [`best_of_n`]: best-of-n's tail boundaries.
//! - [`lookahead`]: verifier-guided lookahead by depth, against best-of-n.
//! - [`equal_compute`]: beam search and lookahead against best-of-N at equal generated steps
//!   and at equal verifier calls (Snell et al., arXiv 2408.03314).
//! - [`tournament`]: knockout brackets by rounds, against Chen et al.'s bound.

pub mod best_of_n;
pub mod equal_compute;
pub mod lookahead;
pub mod notebook;
pub mod sampling;
pub mod tournament;
