//! The verifier-search step of the test-time search study: best-of-n with a heavy-tailed wrong-answer score
//! law and verifier-guided lookahead against its depth and against best-of-n, exact, with
//! the claims table and two figures.

use super::{Job, Result};
use crate::report::{ExportOptions, Format, Report};
use crate::studies::inference::best_of_n::{BISECTION_STEPS, BestOfNStudy, CORRECT_SCORES, MAX_N};
use crate::studies::inference::lookahead::{BRANCHING, LookaheadStudy, STEP_CORRECT, STEPS};

/// The report of both studies: their tables, `claims` and `claims_summary`.
fn report(best: &BestOfNStudy, search: &LookaheadStudy) -> Report {
    let mut families = best.claim_families();
    families.extend(search.claim_families());
    let mut report = Report::new(
        "reproduce",
        "Test-time search, exactly: best-of-n when wrong answers can outscore correct ones, and verifier-guided lookahead against its depth and against best-of-n",
    )
    .mode("exact");
    for table in best.tables().into_iter().chain(search.tables()) {
        report = report.with_table(table);
    }
    report
        .with_table(crate::report::claims::claims_table(&families))
        .with_table(crate::report::claims::summary_table(&families))
        .note(
            "every value is computed in exact rationals; a fraction whose numerator and denominator have more than 256 bits together is shown as the double nearest to it, within the bound printed beside it in the CSV, and every claim is decided on the exact value or on such an enclosure of it (the same sign)",
        )
        .note(format!(
            "best-of-n: correct scores {CORRECT_SCORES}, wrong scores 2 with probability t and 0 otherwise; P(n) exact for n = 1..{MAX_N}, best n the first n of that list with the largest P; the limit as n grows is the share of correct samples at the top score 2"
        ))
        .note(format!(
            "best-of-n boundaries: P(2) - P(1) = (2/3)(1 - 2t) sum W R (1 - R) changes sign at t = 1/2 (the verifier's AUC is 1/2 there); the limit equals P(1) at t = 1/3 (the correct law's mass at the top score); each also bisected in rationals from [0, 1], {BISECTION_STEPS} halvings at most"
        ))
        .note(format!(
            "lookahead: B = {BRANCHING}, L = {STEPS}, Q = {STEP_CORRECT}, a prefix of m steps scored 1{{correct}} + (1 + G (m - 1)) Z, fresh rollouts per decision; best-of-6561 is best-of-n over B^L complete solutions scored at length L; the ceilings are (1 - (1 - Q)^B)^L (a correct candidate at every step) and 1 - (1 - Q^L)^(B^L) (a correct solution among B^L)"
        ))
}

/// The verifier-search study (exact): the report (text and CSV), the claims summary and the
/// grid of best depths for the terminal, and two figures.
pub(super) fn verifier_search(job: &mut Job) -> Result<()> {
    use crate::plot::error_bar_chart_with_exact;
    let options = ExportOptions {
        decimals: 4,
        ..ExportOptions::default()
    };
    let command = "pathology reproduce".to_string();
    let best = BestOfNStudy::compute()?;
    let search = LookaheadStudy::compute()?;
    let mut figures = Vec::new();
    let (best_panels, ridges) = best.panels();
    let (search_panels, lines) = search.panels();
    for ext in ["png", "svg"] {
        let path = job.out().join(format!("inference_search_best_of_n.{ext}"));
        error_bar_chart_with_exact(&path, &best_panels, &ridges, job.options.style)?;
        figures.push(path);
        let path = job.out().join(format!("inference_search_lookahead.{ext}"));
        error_bar_chart_with_exact(&path, &search_panels, &lines, job.options.style)?;
        figures.push(path);
    }
    let report = report(&best, &search);
    let what = "test-time search, exact: best-of-n by the wrong answers' top-score mass t (two boundaries in t), verifier-guided lookahead by depth and verifier growth G against best-of-n over B^L solutions; with the claims table";
    job.text_and_csv(
        "inference_search",
        &report,
        &options,
        (what, &command, None),
    )?;
    job.print_table(&report, "claims_summary", 0, &options)?;
    // The best depths, printed without counting the claims a second time.
    if let Some(table) = report.table("lookahead_best") {
        let mut only = report.clone();
        only.tables = vec![table.clone()];
        only.notes.clear();
        job.printed.push('\n');
        job.printed.push_str(&only.render(Format::Text, &options)?);
    }
    job.files(
        &figures,
        |name| {
            let what = if name.starts_with("inference_search_best_of_n") {
                "best-of-n: P_correct against n = 1..64 per tail knob t (the wrong law's mass at the top score), one type R = 3/10 and Stroebl et al.'s two types; best n and limit in the legend, the best n as t varies joined by the dashed line (curves with an interior best), P(1) as the grey line"
            } else {
                "verifier-guided lookahead: P_correct against depth d per verifier growth G, B = 3, L = 8, Q = 3/5, two noise laws; best d in the legend; below, the same curves on [0, 1] with best-of-n over 3^8 complete solutions dashed"
            };
            (what.to_string(), command.clone())
        },
        None,
    );
    Ok(())
}
