//! **Layer 7, test-time search simulated literally.** May import every layer up to
//! [`crate::sim`]; a peer of [`crate::studies`] and [`crate::domains`], so none of them
//! imports another.
//!
//! `pathology mc inference pass-at-k|resample|best-of-n|vote|lookahead|knockout` runs each strategy
//! of `pathology inference` ([`crate::analytic::inference`]) as it is stated, with the
//! seeded runner ([`crate::sim::runner`]), and puts every estimate beside the exact value:
//!
//! - every trial draws a task type by its share, then samples one at a time, each correct
//!   with the type's probability R;
//! - pass-at-k: the first correct sample's index decides every k of the list;
//! - resample: each sample is shown to the verifier, which accepts a correct one with
//!   probability C and a wrong one with probability 1 - S; the first accepted one is the
//!   answer (its index decides every k: no answer when it comes after k);
//! - best-of-n: each sample gets a score drawn from its law; the answer of the first n
//!   samples is one of the largest score, chosen uniformly among the tied samples (kept as
//!   the samples arrive: the t-th sample tied with the best so far replaces the choice with
//!   probability 1/t, so at every n the choice is uniform among the tied);
//! - vote: each sample is the correct answer or wrong answer i; at every k of the list the
//!   answer is a label with the most votes, drawn uniformly among the tied labels;
//! - lookahead: at every decision, each of the B candidate steps gets a fresh subtree of
//!   the following `min(d, L - l) - 1` steps, node by node (a child of a correct node is
//!   correct with probability Q, a child of a wrong node is wrong), every frontier node is
//!   scored `1{correct} + (1 + G (m - 1)) Z` with its own draw of Z, and the candidate whose
//!   subtree holds the largest score is taken (ties uniform); the search stops at the first
//!   wrong step (the answer is then wrong whatever follows). Best-of-n over `B^L` complete
//!   solutions (each step correct with probability Q until one is wrong) is run beside it
//!   when it costs no more than the lookahead itself;
//! - knockout: `2^r` candidates drawn for the largest r of the list, then the bracket played
//!   round by round: a correct and a wrong candidate meet in K judge calls (a strict
//!   majority wins, a tie a fair coin), two of one class send the first on; after round i
//!   the first winner is the winner of the first `2^i` candidates, so one bracket decides
//!   every r of the list.
//!
//! **Draws.** A law's probabilities are rationals; an index is drawn with them exactly when
//! their common denominator is at most 2^64 (a uniform integer below it against integer
//! thresholds), otherwise against thresholds rounded to multiples of 2^-64. Scores are
//! compared as ranks in the sorted list of the exact values a law can take, so ties are
//! exact.
//!
//! - [`report`]: the experiments as reports (one row per value of the list and quantity:
//!   counts, estimate with its 95% Wilson interval, exact value, z, p-value, Holm), and
//!   `pathology merge`.

pub mod report;
mod trials;

pub use report::{MERGEABLE, McInference, merge};

#[cfg(test)]
mod tests;
