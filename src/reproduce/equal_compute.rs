//! The equal-compute step of the test-time search study: beam search and lookahead against
//! best-of-N at equal generated steps and at equal verifier calls, and knockout brackets by
//! rounds against Chen et al.'s bound, exact, with the claims table and three figures.

use super::{Job, Result};
use crate::report::{ExportOptions, Report};
use crate::studies::inference::equal_compute::{
    BRANCHING, EqualComputeStudy, LOOKAHEAD_Q, MIXES, NOISE, STEPS, WIDTHS,
};
use crate::studies::inference::tournament::{JUDGE_CALLS, MAX_ROUNDS, TASKS, TournamentStudy};

/// The report of both studies: their tables, `claims` and `claims_summary`.
fn report(search: &EqualComputeStudy, brackets: &TournamentStudy) -> Report {
    let mut families = search.claim_families();
    families.extend(brackets.claim_families());
    let mut report = Report::new(
        "reproduce",
        "Test-time search at equal compute, exactly: beam search and lookahead against best-of-N at equal generated steps and at equal verifier calls, and knockout brackets by rounds",
    )
    .mode("exact");
    for table in search.tables().into_iter().chain(brackets.tables()) {
        report = report.with_table(table);
    }
    let widths: Vec<String> = WIDTHS.iter().map(u32::to_string).collect();
    report
        .with_table(crate::report::claims::claims_table(&families))
        .with_table(crate::report::claims::summary_table(&families))
        .note(
            "every value is computed in exact rationals; a fraction whose numerator and denominator have more than 256 bits together is shown as the double nearest to it, within the bound printed beside it in the CSV, and every claim is decided on the exact value (the sign of an exact difference), so no claim has a p-value",
        )
        .note(format!(
            "beam search: B = {BRANCHING}, L = {STEPS}, M = {}, noise {NOISE} (the 33-point lattice of N(0, 1)), a prefix of m steps scored 1{{correct}} + (1 + G (m - 1)) Z; mixes {} ({}) and {} ({}); steps = calls = L M B per run; best-of-N scores N complete solutions at length L (N L steps, N calls): N = M B at equal generated steps (Snell et al.'s budget), N = L M B at equal verifier calls",
            widths.join(", "),
            MIXES[0].0,
            MIXES[0].1,
            MIXES[1].0,
            MIXES[1].1,
        ))
        .note(format!(
            "lookahead: B = {BRANCHING}, L = {STEPS}, Q = {LOOKAHEAD_Q}, noise {NOISE}, d = 1..{STEPS}; N = steps / L at equal generated steps, a fractional N met in expectation ((1 - f) P(floor N) + f P(floor N + 1)), N = calls at equal verifier calls"
        ))
        .note(format!(
            "knockout: tasks {TASKS}, K = {} judge calls per match, r = 1..{MAX_ROUNDS}; Chen et al.'s bound (1 - R)^N + r exp(-2 K (P - 1/2)^2) per type, W-weighted, enclosed in f64; its claim compares the enclosure's lower end with the exact P(fail)",
            JUDGE_CALLS
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ))
}

/// The equal-compute study (exact): the report (text and CSV), the claims summary for the
/// terminal, and three figures.
pub(super) fn equal_compute(job: &mut Job) -> Result<()> {
    let options = ExportOptions {
        decimals: 4,
        ..ExportOptions::default()
    };
    let command = "pathology reproduce".to_string();
    let search = EqualComputeStudy::compute()?;
    let brackets = TournamentStudy::compute()?;
    let mut panels = search.panels();
    panels.extend(brackets.panels());
    let figures = job.charts(&panels)?;
    let report = report(&search, &brackets);
    let what = "test-time search at equal compute, exact: beam search (Snell et al.'s question, an easy and a hard mix, G = 0 and 1/4) and lookahead against best-of-N at equal generated steps and at equal verifier calls; knockout brackets by rounds with Chen et al.'s bound; with the claims table";
    job.text_and_csv(
        "inference_equal_compute",
        &report,
        &options,
        (what, &command, None),
    )?;
    job.print_table(&report, "claims_summary", 0, &options)?;
    job.files(
        &figures,
        |name| {
            let what = if name.starts_with("inference_equal_compute_beam") {
                "beam search with a PRM against best-of-N at equal generated steps and at equal verifier calls, by the budget N = M B, one panel per mix (easy, hard) and G (exact)"
            } else if name.starts_with("inference_equal_compute_lookahead") {
                "depth-d lookahead against best-of-N at equal generated steps and at equal verifier calls, one panel per G (exact)"
            } else {
                "knockout brackets: P_correct against N = 2^r candidates per judge accuracy, one panel per K judge calls per match, one sample's accuracy dashed (exact)"
            };
            (what.to_string(), command.clone())
        },
        None,
    );
    Ok(())
}
