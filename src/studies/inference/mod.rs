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

/// The text of docs/inference.md from the first `start` to the next second-level heading,
/// its whitespace runs made single spaces (so that a number or phrase the docs quote can be
/// looked for across line breaks): for the tests that check the docs against a study.
#[cfg(test)]
pub(crate) fn docs_prose(start: &str) -> String {
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/inference.md"),
    )
    .unwrap();
    let section = page
        .split(start)
        .nth(1)
        .unwrap_or_else(|| panic!("docs/inference.md has no {start:?}"))
        .split("\n## ")
        .next()
        .unwrap_or_default();
    section.split_whitespace().collect::<Vec<_>>().join(" ")
}
