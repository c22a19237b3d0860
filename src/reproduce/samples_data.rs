//! The evaluation-data step: `pathology samples` on the data shipped under `data/samples/`
//! (compiled in, so that an installed binary reproduces it too). Real: DeepSeek-R1-Distill-
//! Qwen-1.5B against DeepScaleR-1.5B-Preview, 1,060 prompts x 128 generations (the counts of
//! Yang, Zhang & Chen 2026): both pass@k curves, their difference with its simultaneous band
//! and claims, the fitted mixes and the range of pass@k beyond 128; Code Llama 7B on
//! CRUXEval-O, 800 problems x 10 answers: pass@k and majority@k with the claims that majority
//! falls. Synthetic (`examples/samples_synthetic.rs`): majority@k and best-of-k with the
//! claims that they fall, beside the exact values of the models that drew it.

use std::path::{Path, PathBuf};

use super::{Job, ReproduceError, Result};
use crate::analytic::inference::{Tasks, best_of_n, parse_wrong_answers, vote};
use crate::analytic::pathsum::Law;
use crate::plot::samples::{BandFigure, BandPoint, StemFigure, difference_band, mix_stems};
use crate::plot::{
    Axes, ErrorPoint, ErrorSeries, ExactLine, LegendPosition, Panel, Scale,
    error_bar_chart_with_exact,
};
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence};
use crate::report::{Cell, ExportOptions, Report};
use crate::samples::compare::{CompareRequest, compare_report};
use crate::samples::curves::Ties;
use crate::samples::input::{Columns, InputFormat};
use crate::samples::report::{
    CurvesRequest, Source, beyond_file_report, curves_report, fit_file_report,
};

/// The shipped files, by their path in the repository.
const FILES: [(&str, &str); 4] = [
    (
        "data/samples/deepscaler_base.jsonl",
        include_str!("../../data/samples/deepscaler_base.jsonl"),
    ),
    (
        "data/samples/deepscaler_rl.jsonl",
        include_str!("../../data/samples/deepscaler_rl.jsonl"),
    ),
    (
        "data/samples/cruxeval_o.csv",
        include_str!("../../data/samples/cruxeval_o.csv"),
    ),
    (
        "data/samples/synthetic_votes.csv",
        include_str!("../../data/samples/synthetic_votes.csv"),
    ),
];

/// The budgets of each set.
const CRUX_KS: &str = "1..10";
const SYNTHETIC_KS: [u64; 10] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32];
/// The budgets beyond the 128 samples, and the moments that bound them.
const BEYOND_KS: [u64; 4] = [128, 256, 512, 1024];
const MOMENTS: u32 = 16;
/// The budgets at which the comparison's claims are made: the paper's early gain and late loss.
const CLAIM_KS: [(u64, bool); 4] = [(1, true), (8, true), (64, false), (128, false)];
/// The models that drew the synthetic set (`examples/samples_synthetic.rs`).
const SYNTHETIC_TASKS: &str = "0.7:0.6,0.4:0.4";
const SYNTHETIC_WRONG: &str = "0.5,0.3,0.2";
const SYNTHETIC_CORRECT_SCORES: &str = "0:1/3,1:1/3,2:1/3";
const SYNTHETIC_WRONG_SCORES: &str = "0:3/5,2:2/5";

/// The shipped files written into the output directory for the run (removed after it), and
/// the reports' mentions of those paths put back to the repository's.
struct Inputs {
    written: Vec<(PathBuf, &'static str)>,
}

impl Inputs {
    fn write(out: &Path) -> Result<Inputs> {
        let mut written = Vec::new();
        for (name, text) in FILES {
            let file = name.rsplit('/').next().unwrap_or(name);
            let path = out.join(format!(".input-{file}"));
            std::fs::write(&path, text).map_err(|source| ReproduceError::Io {
                what: format!("writing {}", path.display()),
                source,
            })?;
            written.push((path, name));
        }
        Ok(Inputs { written })
    }

    fn source(&self, name: &str, problem_column: &str) -> Source {
        let (path, _) = self
            .written
            .iter()
            .find(|(_, n)| *n == name)
            .expect("a shipped file");
        Source {
            path: path.clone(),
            format: Some(if name.ends_with(".csv") {
                InputFormat::Csv
            } else {
                InputFormat::Jsonl
            }),
            columns: Columns {
                problem: problem_column.into(),
                ..Columns::default()
            },
        }
    }

    /// `report` with every mention of a written path replaced by the repository path, and
    /// the format parameter (the extension says it) left out.
    fn relabel(&self, mut report: Report) -> Report {
        let fix = |text: &str| {
            self.written
                .iter()
                .fold(text.to_string(), |t, (path, name)| {
                    t.replace(&path.display().to_string(), name)
                })
        };
        report
            .manifest
            .parameters
            .retain(|(n, _)| n != "input_format");
        for (_, value) in &mut report.manifest.parameters {
            *value = fix(value);
        }
        for note in &mut report.notes {
            *note = fix(note);
        }
        for table in &mut report.tables {
            for row in &mut table.rows {
                for cell in row {
                    if let Cell::Text(t) = cell {
                        *t = fix(t);
                    }
                }
            }
        }
        report
    }
}

impl Drop for Inputs {
    fn drop(&mut self) {
        for (path, _) in &self.written {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A cell's value as `f64` (`NaN` for none).
fn number(cell: &Cell) -> f64 {
    match cell {
        Cell::Exact(r) => num_traits::ToPrimitive::to_f64(r).unwrap_or(f64::NAN),
        Cell::Bounded { value, .. } | Cell::Real(value) => *value,
        Cell::Interval { estimate, .. } => *estimate,
        Cell::Integer(i) => *i as f64,
        _ => f64::NAN,
    }
}

fn interval(cell: &Cell) -> (f64, f64) {
    match cell {
        Cell::Interval { lower, upper, .. } => (*lower, *upper),
        other => (number(other), number(other)),
    }
}

/// `(column index)` of `name` in `report`'s table `table`.
fn column(report: &Report, table: &str, name: &str) -> Result<usize> {
    report
        .table(table)
        .and_then(|t| t.column_index(name))
        .ok_or_else(|| ReproduceError::Internal(format!("no column {name} in table {table}")))
}

/// The curve of `metric` in a `samples curves` report, with its 95% intervals, and its best k.
fn curve(report: &Report, metric: &str) -> Result<(Vec<ErrorPoint>, u64)> {
    let table = report
        .table("curves")
        .ok_or_else(|| ReproduceError::Internal("no curves table".into()))?;
    let (m, k, v, i) = (
        column(report, "curves", "metric")?,
        column(report, "curves", "k")?,
        column(report, "curves", "value")?,
        column(report, "curves", "interval95")?,
    );
    let points: Vec<ErrorPoint> = table
        .rows
        .iter()
        .filter(|r| matches!(&r[m], Cell::Text(t) if t == metric))
        .map(|r| {
            let (low, high) = interval(&r[i]);
            ErrorPoint {
                x: number(&r[k]),
                y: number(&r[v]),
                low,
                high,
            }
        })
        .collect();
    let best = report
        .table("best")
        .and_then(|t| {
            t.rows
                .iter()
                .find(|r| matches!(&r[0], Cell::Text(x) if x == metric))
        })
        .map_or(0, |r| number(&r[1]) as u64);
    Ok((points, best))
}

/// A panel of curves on `[low, 1]`.
fn panel(title: &str, x_scale: Scale, x_max: f64, series: Vec<ErrorSeries>) -> Panel {
    let low = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.low))
        .fold(1.0, f64::min);
    let low = ((low - 0.03) * 20.0).floor().max(0.0) / 20.0;
    Panel {
        axes: Axes {
            title: title.into(),
            x_label: "budget k (samples drawn of each problem's n)".into(),
            y_label: "mean over problems (95% interval)".into(),
            x_range: (if x_scale == Scale::Log2 { 1.0 } else { 0.5 }, x_max),
            x_scale,
            y_range: (low, 1.0),
        },
        series,
        legend: LegendPosition::LowerRight,
        reference: None,
    }
}

/// The comparison's claims: B - A at the budgets of [`CLAIM_KS`], each a Wald test on the
/// mean of the paired per-problem differences, Holm within the family.
fn compare_claims(report: &Report) -> Result<ClaimFamily> {
    let table = report
        .table("differences")
        .ok_or_else(|| ReproduceError::Internal("no differences table".into()))?;
    let (m, k, d, se) = (
        column(report, "differences", "metric")?,
        column(report, "differences", "k")?,
        column(report, "differences", "difference")?,
        column(report, "differences", "standard_error")?,
    );
    let mut family = ClaimFamily::new("RL against its base over the budget k", 0.05);
    for (at, gain) in CLAIM_KS {
        let row = table
            .rows
            .iter()
            .find(|r| {
                matches!(&r[m], Cell::Text(t) if t == "pass_at_k") && number(&r[k]) as u64 == at
            })
            .ok_or_else(|| ReproduceError::Internal(format!("no pass_at_k row at k = {at}")))?;
        family.push(Claim::new(
            format!(
                "DeepScaleR-1.5B-Preview's pass@{at} is {} its base's",
                if gain { "above" } else { "below" }
            ),
            "Yang, Zhang & Chen 2026 (arXiv 2609.22547), Table 1, 32k fresh row",
            format!("mean over the 1,060 prompts of pass@{at}(RL) - pass@{at}(base)"),
            if gain {
                Direction::Greater
            } else {
                Direction::Less
            },
            Evidence::Normal {
                estimate: number(&row[d]),
                standard_error: number(&row[se]),
            },
        ));
    }
    Ok(family)
}

/// The step (module docs).
pub(super) fn samples_data(job: &mut Job) -> Result<()> {
    let options = ExportOptions {
        decimals: 4,
        ..ExportOptions::default()
    };
    let seed = job.options.seed;
    let inputs = Inputs::write(job.out())?;
    let (base, rl) = (
        inputs.source("data/samples/deepscaler_base.jsonl", "id"),
        inputs.source("data/samples/deepscaler_rl.jsonl", "id"),
    );
    let all_k: Vec<u64> = (1..=128).collect();
    let curves_of = |source: &Source, ks: &[u64]| {
        curves_report(&CurvesRequest {
            shard: None,
            source: source.clone(),
            ks: ks.to_vec(),
            ties: Ties::Uniform,
            exact: false,
            drop_short: false,
        })
        .map(|r| inputs.relabel(r))
    };

    // DeepScaleR against its base: the comparison with its claims.
    let compare = compare_report(&CompareRequest {
        a: base.clone(),
        b: rl.clone(),
        ks: all_k.clone(),
        ties: Ties::Uniform,
        exact: false,
        drop_short: false,
        common: false,
        seed,
        replicates: 4000,
    })?;
    let compare = inputs.relabel(compare);
    let families = [compare_claims(&compare)?];
    let compare = compare
        .with_table(crate::report::claims::claims_table(&families))
        .with_table(crate::report::claims::summary_table(&families))
        .note(format!(
            "claims: pass@k of RL - base at k = {}, each a two-sided normal (Wald) test on the mean of the paired per-prompt differences (the standard error above), Holm within the family at 0.05; the band is the simultaneous statement over all 128 budgets",
            CLAIM_KS.map(|(k, _)| k.to_string()).join(", ")
        ));
    let command = compare.manifest.command_line();
    job.text_and_csv(
        "samples_deepscaler_compare",
        &compare,
        &options,
        (
            "real data: DeepScaleR-1.5B-Preview (RL) against DeepSeek-R1-Distill-Qwen-1.5B (base), 1,060 prompts x 128 generations (Yang, Zhang & Chen 2026): pass@k and pass^k differences over k = 1..128 with the 95% simultaneous band, the certified budgets, the first-loss set and the claims",
            &command,
            Some(seed),
        ),
    )?;
    job.print_table(&compare, "claims_summary", 0, &options)?;
    also_print(job, &compare, "summary", &options)?;

    // Both curves, the fitted mixes and the range beyond the 128 samples.
    let curves_base = curves_of(&base, &all_k)?;
    let curves_rl = curves_of(&rl, &all_k)?;
    let mut mixes = Vec::new();
    for (role, source, label) in [
        ("base", &base, "base: DeepSeek-R1-Distill-Qwen-1.5B"),
        ("rl", &rl, "RL: DeepScaleR-1.5B-Preview"),
    ] {
        let fit = inputs.relabel(fit_file_report(source, &BEYOND_KS, false)?);
        let beyond = inputs.relabel(beyond_file_report(
            source, &BEYOND_KS, MOMENTS, 0, seed, false,
        )?);
        for (stem, report, what) in [
            (
                format!("samples_deepscaler_fit_{role}"),
                &fit,
                format!(
                    "real data, {label}: the NPMLE mix of per-prompt success rates with its certificate and the fitted pass@k"
                ),
            ),
            (
                format!("samples_deepscaler_beyond_{role}"),
                &beyond,
                format!(
                    "real data, {label}: the sharp range of pass@k at k = 128..1024 over every law with the data's first {MOMENTS} moments"
                ),
            ),
        ] {
            let command = report.manifest.command_line();
            job.text_and_csv(&stem, report, &options, (&what, &command, None))?;
        }
        also_print(job, &beyond, "beyond", &options)?;
        let (r, w) = (column(&fit, "mix", "R")?, column(&fit, "mix", "W")?);
        let atoms = fit
            .table("mix")
            .map(|t| {
                t.rows
                    .iter()
                    .map(|row| (number(&row[r]), number(&row[w])))
                    .collect()
            })
            .unwrap_or_default();
        mixes.push((label.to_string(), atoms));
    }

    // CRUXEval-O (real answers) and the synthetic votes and scores: curves with claims.
    let crux_ks = crate::analytic::inference::parse_list("--k", CRUX_KS, 10)?;
    let crux = family_named(
        curves_of(
            &inputs.source("data/samples/cruxeval_o.csv", "problem"),
            &crux_ks,
        )?,
        "CRUXEval-O: majority@k falls with k",
    );
    let synthetic = family_named(
        curves_of(
            &inputs.source("data/samples/synthetic_votes.csv", "problem"),
            &SYNTHETIC_KS,
        )?,
        "synthetic: majority@k or best-of-k falls with k",
    );
    for (stem, report, what) in [
        (
            "samples_cruxeval",
            &crux,
            "real data: Code Llama 7B on CRUXEval-O, 800 problems x 10 answers: pass@k, pass^k and majority@k for k = 1..10 with the claims that majority@k falls",
        ),
        (
            "samples_synthetic",
            &synthetic,
            "synthetic data (examples/samples_synthetic.rs, the models of pathology inference): majority@k and best-of-k with the claims that they fall",
        ),
    ] {
        let command = report.manifest.command_line();
        job.text_and_csv(stem, report, &options, (what, &command, None))?;
        job.print_table(report, "claims", 0, &options)?;
        also_print(job, report, "best", &options)?;
    }
    drop(inputs);

    // Figures.
    let mut written = Vec::new();
    let (pass_base, _) = curve(&curves_base, "pass_at_k")?;
    let (pass_rl, _) = curve(&curves_rl, "pass_at_k")?;
    let (crux_pass, _) = curve(&crux, "pass_at_k")?;
    let (crux_majority, crux_best) = curve(&crux, "majority")?;
    let (synthetic_majority, majority_best) = curve(&synthetic, "majority")?;
    let (synthetic_best_of, best_of_best) = curve(&synthetic, "best_of_k")?;
    let tasks = Tasks::parse(SYNTHETIC_TASKS)?;
    let model_vote = vote::<f64>(
        &tasks,
        &parse_wrong_answers(SYNTHETIC_WRONG)?,
        &SYNTHETIC_KS,
    )?;
    let model_best = best_of_n::<f64>(
        &tasks,
        &Law::parse("--score-correct", SYNTHETIC_CORRECT_SCORES)?,
        &Law::parse("--score-wrong", SYNTHETIC_WRONG_SCORES)?,
        &SYNTHETIC_KS,
    )?;
    let model = |label: &str, points: Vec<(f64, f64)>| {
        vec![ExactLine {
            label: label.into(),
            points,
        }]
    };
    let figures: Vec<(String, Vec<Panel>, Vec<Vec<ExactLine>>)> = vec![
        (
            "samples_deepscaler_curves".into(),
            vec![panel(
                "DeepSeek-R1-Distill-Qwen-1.5B and DeepScaleR (RL): pass@k, 1,060 prompts",
                Scale::Log2,
                128.0,
                vec![
                    ErrorSeries {
                        label: "base: R1-Distill-Qwen-1.5B (best k = 128)".into(),
                        points: pass_base,
                    },
                    ErrorSeries {
                        label: "RL: DeepScaleR-1.5B-Preview (best k = 128)".into(),
                        points: pass_rl,
                    },
                ],
            )],
            vec![],
        ),
        (
            "samples_cruxeval_curves".into(),
            vec![panel(
                "Code Llama 7B on CRUXEval-O: 800 problems x 10 answers",
                Scale::Linear,
                10.5,
                vec![
                    ErrorSeries {
                        label: "pass@k (best k = 10)".into(),
                        points: crux_pass,
                    },
                    ErrorSeries {
                        label: format!("majority@k (best k = {crux_best})"),
                        points: crux_majority,
                    },
                ],
            )],
            vec![],
        ),
        (
            "samples_synthetic_curves".into(),
            vec![
                panel(
                    "synthetic votes: majority@k",
                    Scale::Log2,
                    32.0,
                    vec![ErrorSeries {
                        label: format!("in-sample, 400 problems (best k = {majority_best})"),
                        points: synthetic_majority,
                    }],
                ),
                panel(
                    "synthetic scores: best-of-k",
                    Scale::Log2,
                    32.0,
                    vec![ErrorSeries {
                        label: format!("in-sample, 400 problems (best k = {best_of_best})"),
                        points: synthetic_best_of,
                    }],
                ),
            ],
            vec![
                model(
                    "the model's exact value",
                    model_vote
                        .rows
                        .iter()
                        .map(|r| (r.k as f64, r.correct.value))
                        .collect(),
                ),
                model(
                    "the model's exact value",
                    model_best
                        .rows
                        .iter()
                        .filter_map(|r| r.n.map(|n| (n as f64, r.correct.value)))
                        .collect(),
                ),
            ],
        ),
    ];
    for (stem, panels, exact) in &figures {
        for ext in ["png", "svg"] {
            let path = job.out().join(format!("{stem}.{ext}"));
            error_bar_chart_with_exact(&path, panels, exact, job.options.style)?;
            written.push(path);
        }
    }
    let band = band_figure(&compare)?;
    let stems = StemFigure {
        title: "the fitted mixes of per-prompt success rates (NPMLE), 1,060 prompts".into(),
        mixes,
    };
    for ext in ["png", "svg"] {
        let path = job.out().join(format!("samples_deepscaler_band.{ext}"));
        difference_band(&path, &band, job.options.style)?;
        written.push(path);
        let path = job.out().join(format!("samples_deepscaler_mix.{ext}"));
        mix_stems(&path, &stems, job.options.style)?;
        written.push(path);
    }
    let full = if job.options.full { " --full" } else { "" };
    let command = format!("pathology reproduce{full} --seed {seed}");
    job.files(
        &written,
        |name| {
            let what = if name.starts_with("samples_deepscaler_curves") {
                "real data: pass@k of the base and the RL model against k = 1..128 (log scale), 95% intervals over prompts"
            } else if name.starts_with("samples_deepscaler_band") {
                "real data: pass@k(RL) - pass@k(base) against k with the 95% simultaneous band; the budgets where RL is certified better or worse shaded"
            } else if name.starts_with("samples_deepscaler_mix") {
                "real data: the fitted mixes of per-prompt success rates (NPMLE) of the base and the RL model, atoms and shares as stems"
            } else if name.starts_with("samples_cruxeval") {
                "real data: pass@k and majority@k of Code Llama 7B on CRUXEval-O against k = 1..10, 95% intervals, the best k in the legend"
            } else {
                "synthetic data: majority@k and best-of-k against k, 95% intervals, the best k in the legend, the models' exact values dashed"
            };
            (what.to_string(), command.clone())
        },
        Some(seed),
    );
    Ok(())
}

/// Adds `report`'s table `table` to the terminal's text without counting its claims again.
fn also_print(job: &mut Job, report: &Report, table: &str, options: &ExportOptions) -> Result<()> {
    if let Some(chosen) = report.table(table) {
        let mut only = report.clone();
        only.tables = vec![chosen.clone()];
        only.notes.clear();
        job.printed.push('\n');
        job.printed
            .push_str(&only.render(crate::report::Format::Text, options)?);
    }
    Ok(())
}

/// `report` with its claims family (`samples curves` names it "curves fall with k") named
/// for its data set, so that the run's verdict summary tells the sets apart.
fn family_named(mut report: Report, name: &str) -> Report {
    for table in &mut report.tables {
        for row in &mut table.rows {
            for cell in row {
                if matches!(cell, Cell::Text(t) if t == "curves fall with k") {
                    *cell = Cell::text(name);
                }
            }
        }
    }
    report
}

/// The band figure of pass@k from the comparison's `differences` table.
fn band_figure(compare: &Report) -> Result<BandFigure> {
    let table = compare
        .table("differences")
        .ok_or_else(|| ReproduceError::Internal("no differences table".into()))?;
    let (m, k, d, b) = (
        column(compare, "differences", "metric")?,
        column(compare, "differences", "k")?,
        column(compare, "differences", "difference")?,
        column(compare, "differences", "band95")?,
    );
    let points = table
        .rows
        .iter()
        .filter(|r| matches!(&r[m], Cell::Text(t) if t == "pass_at_k"))
        .map(|r| {
            let (lower, upper) = interval(&r[b]);
            BandPoint {
                k: number(&r[k]),
                difference: number(&r[d]),
                lower,
                upper,
            }
        })
        .collect();
    Ok(BandFigure {
        title: "pass@k(DeepScaleR) - pass@k(base), 1,060 prompts, 95% simultaneous band".into(),
        y_label: "difference of pass@k, RL - base".into(),
        better: "RL certified better".into(),
        worse: "RL certified worse".into(),
        points,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::claims::verdict_counts;

    /// The verdicts docs/samples.md states for the evaluation data at the default seed: the
    /// four comparison claims hold, CRUXEval's four falls of majority@k are undecided, and of
    /// the synthetic set's nine falls of best-of-k eight hold and the last (k = 24 to 32) is
    /// undecided.
    #[test]
    fn the_evaluation_data_claims_are_as_the_docs_state() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = Inputs::write(dir.path()).unwrap();
        let compare = compare_report(&CompareRequest {
            a: inputs.source("data/samples/deepscaler_base.jsonl", "id"),
            b: inputs.source("data/samples/deepscaler_rl.jsonl", "id"),
            ks: (1..=128).collect(),
            ties: Ties::Uniform,
            exact: false,
            drop_short: false,
            common: false,
            seed: super::super::DEFAULT_SEED,
            replicates: 4000,
        })
        .unwrap();
        let decided = compare_claims(&compare).unwrap().decide();
        assert_eq!(decided.len(), 4);
        assert!(
            decided.iter().all(|d| d.verdict.word() == "holds"),
            "{decided:?}"
        );
        let counts = |name: &str, ks: &[u64]| {
            let report = curves_report(&CurvesRequest {
                shard: None,
                source: inputs.source(name, "problem"),
                ks: ks.to_vec(),
                ties: Ties::Uniform,
                exact: false,
                drop_short: false,
            })
            .unwrap();
            verdict_counts(report.table("claims").unwrap())
        };
        let crux = counts("data/samples/cruxeval_o.csv", &(1..=10).collect::<Vec<_>>());
        assert_eq!(crux[0].1, [0, 0, 4, 0], "{crux:?}");
        let synthetic = counts("data/samples/synthetic_votes.csv", &SYNTHETIC_KS);
        assert_eq!(synthetic[0].1, [8, 0, 1, 0], "{synthetic:?}");
    }
}
