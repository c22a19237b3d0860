//! The test-time search study's first part: resampling with an imperfect verifier (Stroebl
//! et al.) and majority voting (Chen et al.), exact (`studies::inference::sampling`).

use super::{Job, Result};
use crate::report::ExportOptions;

/// Resampling in Stroebl et al.'s setting, voting on a mix of easy and hard queries and the
/// voting phase diagram: the report with its claims table (text and CSV), three figures.
pub(super) fn inference_sampling(job: &mut Job) -> Result<()> {
    use crate::plot::class_map;
    use crate::studies::inference::sampling::Sampling;
    let options = ExportOptions {
        decimals: 4,
        ..ExportOptions::default()
    };
    let command = "pathology reproduce".to_string();
    let study = Sampling::compute()?;
    let mut figures = job.charts(&study.panels())?;
    let phase = study.phase.panels();
    for ext in ["png", "svg"] {
        let path = job.out().join(format!("inference_sampling_phase.{ext}"));
        class_map(&path, &phase, job.options.style)?;
        figures.push(path);
    }
    let report = study.report();
    let what = "test-time search: resampling with an imperfect verifier (Stroebl et al.), majority voting on easy and hard queries and its phase diagram (Chen et al.); exact, with the claims table";
    job.text_and_csv(
        "inference_sampling",
        &report,
        &options,
        (what, &command, None),
    )?;
    job.print_table(&report, "claims_summary", 0, &options)?;
    job.printed.push('\n');
    job.printed.push_str(&study.phase.grid_text());
    job.files(
        &figures,
        |name| {
            let what = if name.starts_with("inference_sampling_resample") {
                "resampling in Stroebl et al.'s setting: P_correct, P_false_positive and P_none against k with the accuracy ceiling; the payoff (V = -1) with its best k and its limit (exact)"
            } else if name.starts_with("inference_sampling_vote") {
                "majority voting on this tool's mix in Chen et al.'s setting, 60% easy (R = 0.7) and 40% hard (R = 0.4) queries: P_correct against odd k with the best k and the limit (exact)"
            } else {
                "voting phase diagram: whether more votes help, hurt, rise then fall or fall then rise over every odd k (the closed form, checked against the exact values on k = 1..101), by R_easy, R_hard and the easy share"
            };
            (what.to_string(), command.clone())
        },
        None,
    );
    Ok(())
}
