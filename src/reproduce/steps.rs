//! The steps of [`super::ARTEFACTS`]: each computes its tables, figures or cross-checks,
//! writes them and lists every file in the index with what it reproduces (Li & Marsland 1990,
//! Chi & Nau 1987, Wilson, Parker & Nau 2009) and the command that regenerates it.

use std::fmt::Write as _;

use num_rational::BigRational;

use super::crossval_rows::{
    DISTRIBUTION_CELLS, DISTRIBUTION_COLUMNS, INFERENCE_CELLS, INFERENCE_COLUMNS, SAMPLES_CELLS,
    SAMPLES_COLUMNS, SAMPLES_FILE, SAMPLES_TEXT, SUM_CELLS, SUM_COLUMNS, distribution_rows,
    inference_rows, padded, samples_rows, sum_rows,
};
use super::{Job, ReproduceError, Result};
use crate::analytic::dgame::DependenceFactors;
use crate::analytic::dgame::report::{Layout, decision_report, threshold_report};
use crate::analytic::dgame::table::PaperTable;
use crate::analytic::dgame::threshold::pathology_threshold;
use crate::analytic::dgame::trend::height_trend;
use crate::analytic::errprop::ErrorPair;
use crate::report::{ExportOptions, Format, Report};
use crate::sim::level_tree::{BoardSpec, GameKind};
use crate::studies::crossval::dgame::{Engine, estimate_decisions};
use crate::studies::crossval::errprop::estimate_errors;
use crate::studies::crossval::rhf::{FlawSetup, estimate_flaw_rate};
use crate::studies::wilson_parker_nau::report::calibration_seed;
use crate::studies::wilson_parker_nau::study::{
    self as emm_study, FRACTION_MINIMAX, StudyEvaluator,
};
use crate::validate::validate_with_files;

/// Boards of the natural evaluator's error table in the P-/N-game cross-validation rows.
const CALIBRATION_GAMES: u64 = 2000;

pub(super) fn tables(job: &mut Job) -> Result<()> {
    for table in [PaperTable::One, PaperTable::Two] {
        // Computed exactly; every printed decimal is the exact value correctly rounded.
        let columns = table.compute::<BigRational>()?;
        let n = table.number();
        let report = decision_report(
            Report::new("table", table.caption())
                .param("_", n)
                .param("exact", true),
            &columns,
            &table.settings(),
            Layout::DepthRows,
            None,
        );
        for format in [Format::Text, Format::Markdown, Format::Csv, Format::Latex] {
            let name = format!("table{n}.{}", format.extension());
            let what = format!(
                "Li & Marsland Table {n} (D(d,10) and PS), exact{}",
                if format == Format::Csv {
                    " (with the exact rationals; PS: --table ps)"
                } else {
                    ", 3 decimals"
                }
            );
            let format_name = format!("{format:?}").to_lowercase();
            let command = format!("pathology table {n} --exact --format {format_name}");
            job.rendered(
                &name,
                &report,
                format,
                &ExportOptions::default(),
                (&what, &command, None),
            )?;
        }
        job.printed
            .push_str(&report.render(Format::Text, &ExportOptions::default())?);
        job.printed.push('\n');
    }
    let threshold = pathology_threshold(10, 1000, 1e-10)?;
    let report = threshold_report(
        Report::new("threshold", "Pathology threshold at h = 10 (f1 = f2 = f)")
            .param("height", 10)
            .param("grid", 1000)
            .param("tolerance", 1e-10),
        &[threshold],
    );
    let text = report.render(
        Format::Text,
        &ExportOptions {
            decimals: 10,
            ..ExportOptions::default()
        },
    )?;
    job.file(
        "threshold_h10.txt",
        &text,
        "the largest pathological f = f1 = f2 at h = 10 on the grid k/1000, refined by \
         bisection; no grid point above it is pathological (the paper: \"> 0.57\")",
        "pathology threshold --height 10",
        None,
    )?;
    job.printed.push_str(&text);
    Ok(())
}

pub(super) fn analytic_figures(job: &mut Job) -> Result<()> {
    let written = crate::plot::figures::analytic_figures(job.out(), job.options.style)?;
    job.files(&written, describe_analytic, None);
    Ok(())
}

fn describe_analytic(name: &str) -> (String, String) {
    let stem = name.split('.').next().unwrap_or(name);
    let (what, command) = match stem {
        "errprop_fig2" => (
            "Li & Marsland Fig. 2: declining errors, f1 = f2 = 0.7, 0.8, 0.9",
            "pathology errprop figures --out plots",
        ),
        "errprop_fig3" => (
            "Li & Marsland Fig. 3: errors migrating to (0, 1), f1 = f2 = 0.1, 0.2, 0.3",
            "pathology errprop figures --out plots",
        ),
        "errprop_phase_portrait" => (
            "phase portrait of the gamma/delta map at f = 0.7 with basins (beyond the paper)",
            "pathology errprop figures --out plots",
        ),
        "dgame_fig4" => (
            "Li & Marsland Fig. 4: PS against f1 for p0 = 0.5, h = 10, 12, 13",
            "pathology errprop figures --out plots",
        ),
        "dgame_fig4_pairs" => (
            "the pathological-pair count behind Fig. 4 (the paper: 167)",
            "pathology errprop figures --out plots",
        ),
        "rhf_chi_nau_fig2" => ("Chi & Nau Fig. 2: rhf(w) of e^w", "pathology reproduce"),
        "emm_depth_one_fig1" => (
            "Wilson, Parker & Nau Fig. 1: depth-one error formulas",
            "pathology reproduce",
        ),
        _ => (
            "a figure of the error-propagation module",
            "pathology errprop figures --out plots",
        ),
    };
    (what.to_string(), command.to_string())
}

pub(super) fn trend(job: &mut Job) -> Result<()> {
    let to = if job.options.full { 20 } else { 16 };
    let heights: Vec<u32> = (10..=to).collect();
    let rows = height_trend(&heights, 100, 1e-7, 100)?;
    let report = crate::analytic::dgame::report::height_trend_report(&rows, 10, to, 100, 1e-7, 100);
    let written =
        crate::plot::figures::trend_figures(job.out(), &rows, &report, job.options.style)?;
    let command = format!("pathology trend --from 10 --to {to} --out plots");
    job.files(
        &written,
        |name| {
            let what = if name.starts_with("trend_ps_peak") {
                "peak of PS over f = f1 = f2 against height (beyond the paper)"
            } else if name.starts_with("trend_threshold") {
                "certified pathology threshold f* and the PS peak location against height (beyond the paper)"
            } else {
                "threshold and PS peak by height, as data"
            };
            (what.to_string(), command.clone())
        },
        None,
    );
    job.printed.push('\n');
    job.printed.push_str(&report.render(
        Format::Text,
        &ExportOptions {
            decimals: 4,
            ..ExportOptions::default()
        },
    )?);
    Ok(())
}

pub(super) fn studies(job: &mut Job) -> Result<()> {
    let seed = job.options.seed;
    let (written, wilson) = crate::plot::studies::study_figures(
        job.out(),
        job.options.full,
        seed,
        job.options.threads,
        job.options.style,
    )?;
    job.print_table(
        &wilson,
        "claims_summary",
        0,
        &ExportOptions {
            decimals: 4,
            ..ExportOptions::default()
        },
    )?;
    let full = if job.options.full { " --full" } else { "" };
    let command = format!("pathology mc study-figures{full} --seed {seed} --out plots");
    let games = crate::plot::studies::wilson_games(job.options.full);
    job.files(
        &written,
        |name| {
            let what = if name.starts_with("chi_nau_fig3") {
                "Chi & Nau Fig. 3: minimax's share of wins against product, against rhf(w) (P-games, depth 6, search depth 2)".to_string()
            } else if name == "wilson_claims.txt" {
                "Wilson, Parker & Nau: the paper's claims on Figs. 3-6, each an effect with its interval, Holm-corrected (claims tables)".to_string()
            } else if let Some(n) = name.strip_prefix("wilson_fig").and_then(|r| r.chars().next()) {
                format!(
                    "Wilson, Parker & Nau Fig. {n}: fraction of correct decisions of minimax, product and EMM against search depth, {games} non-trivial games per setting"
                )
            } else {
                "data behind the simulation figures".to_string()
            };
            (what, command.clone())
        },
        Some(seed),
    );
    Ok(())
}

/// Runs the Monte Carlo experiments, checks every estimate against its exact value with
/// [`validate_with_files`] (score test, Holm's correction) and writes the report.
pub(super) fn cross_validation(job: &mut Job) -> Result<()> {
    let scale = if job.options.full { 10 } else { 1 };
    let mut csv =
        String::from("kind,h,d,f1,f2,gamma,delta,steps,quantity,w,estimate,trials,b,evaluator,e,");
    csv.push_str(&DISTRIBUTION_COLUMNS.join(","));
    csv.push(',');
    csv.push_str(&SUM_COLUMNS.join(","));
    csv.push(',');
    csv.push_str(&INFERENCE_COLUMNS.join(","));
    csv.push(',');
    csv.push_str(&SAMPLES_COLUMNS.join(","));
    csv.push('\n');
    let mut item = 0u64;
    let mut next_seed = || {
        item += 1;
        job.options.seed.wrapping_add(item)
    };
    let mut commands = Vec::new();
    for (h, f1, f2) in [
        (10u32, 0.1, 0.1),
        (10, 0.5, 0.5),
        (10, 0.3, 0.7),
        (12, 0.4, 0.4),
    ] {
        let trials = 40_000 * scale;
        let seed = next_seed();
        let factors = DependenceFactors::new(f1, f2)?;
        let rows = estimate_decisions(&factors, h, Engine::Fast, &job.runner(trials, seed)?)?;
        for r in rows {
            let _ = writeln!(
                csv,
                "dgame,{h},{},{f1},{f2},,,,,,{},{trials},,,",
                r.d, r.comparison.estimate
            );
        }
        commands.push(format!(
            "pathology mc dgame --height {h} --f1 {f1} --f2 {f2} --trials {trials} --seed {seed}"
        ));
    }
    for (gamma, delta, f1, f2, steps) in [
        (0.3, 0.2, 0.9, 0.9, 3u32),
        (0.3, 0.2, 0.1, 0.1, 3),
        (0.2, 0.1, 0.6, 0.4, 4),
    ] {
        let trials = 20_000 * scale;
        let seed = next_seed();
        let rows = estimate_errors(
            &ErrorPair::new(gamma, delta)?,
            &DependenceFactors::new(f1, f2)?,
            steps,
            &job.runner(trials, seed)?,
        )?;
        for r in rows {
            let quantity = if r.quantity.starts_with("gamma") {
                "gamma"
            } else {
                "delta"
            };
            let _ = writeln!(
                csv,
                "errprop,,,{f1},{f2},{gamma},{delta},{steps},{quantity},,{},{},,,",
                r.comparison.estimate, r.trials
            );
        }
        commands.push(format!(
            "pathology mc errprop --gamma {gamma} --delta {delta} --f1 {f1} --f2 {f2} --steps {steps} --trials {trials} --seed {seed}"
        ));
    }
    for w in [0.0, 0.2, 0.4] {
        let trials = 100_000 * scale;
        let seed = next_seed();
        let p = crate::analytic::closed_form::w_b(2)?;
        let setup = FlawSetup::new(w, p, 10, 4)?;
        let estimate = estimate_flaw_rate(&setup, &job.runner(trials, seed)?)?;
        let _ = writeln!(
            csv,
            "rhf,,,,,,,,,{w},{},{},,,",
            estimate.comparison.estimate, estimate.trials
        );
        commands.push(format!(
            "pathology mc rhf --w {w} --height 10 --depth 4 --trials {trials} --seed {seed}"
        ));
    }
    // P- and N-games (Wilson et al.'s study, b = 2 and 3) at their default parameters (p =
    // w_b, q = 1/2): minimax with the artificial evaluator (the study's minimax curve) and
    // minimax on the fraction of 1-squares (the piece count, recorded with the natural
    // evaluator), against `pathology exact` (see `crate::studies::wilson_parker_nau::exact_curve`).
    for (kind, b, h) in [
        (GameKind::P, 2u32, 8u32),
        (GameKind::P, 3, 5),
        (GameKind::N, 2, 8),
        (GameKind::N, 3, 5),
    ] {
        let parameter = kind.default_parameter(b)?;
        let spec = BoardSpec::new(kind, b, h, parameter)?;
        let game = format!("{}game", kind.name());
        for artificial in [true, false] {
            let games = 4_000 * scale;
            let seed = next_seed();
            let (evaluator, decision, columns) = if artificial {
                (
                    StudyEvaluator::Artificial { error: 0.1 },
                    0,
                    "artificial,0.1",
                )
            } else {
                // EMM's error table, estimated as `mc emm --evaluator natural` does (its
                // seed derived from the study's), so that the command below regenerates
                // the rows; only minimax on the fraction is read.
                let calibration = emm_study::calibrate(
                    &spec,
                    &job.runner(CALIBRATION_GAMES, calibration_seed(seed))?,
                )?;
                (
                    StudyEvaluator::Natural(calibration),
                    FRACTION_MINIMAX,
                    "count,",
                )
            };
            let result = emm_study::run(&spec, &evaluator, &job.runner(games, seed)?)?;
            for depth in &result.depths {
                let comparison = if decision == FRACTION_MINIMAX {
                    depth.minimax_fraction.as_ref().ok_or_else(|| {
                        ReproduceError::Internal(
                            "the natural evaluator records minimax on the fraction".to_string(),
                        )
                    })?
                } else {
                    &depth.minimax
                };
                let _ = writeln!(
                    csv,
                    "{game},{h},{},,,,,,,,{},{},{b},{columns}",
                    depth.depth, comparison.estimate, result.games
                );
            }
            commands.push(if artificial {
                format!(
                    "pathology mc emm --game {} --branching {b} --height {h} --evaluator artificial --error 0.1 --games {games} --seed {seed} (column minimax)",
                    kind.name()
                )
            } else {
                format!(
                    "pathology mc emm --game {} --branching {b} --height {h} --evaluator natural --calibration-games {CALIBRATION_GAMES} --games {games} --seed {seed} (column minimax_fraction)",
                    kind.name()
                )
            });
        }
    }
    // Evaluations as distributions: depth-d minimax on sampled critical games
    // and multi-valued P-games, against `pathology decision`'s exact engine.
    for args in DISTRIBUTION_CELLS {
        let trials = 3_000 * scale;
        let seed = next_seed();
        let (rows, command) = distribution_rows(args, &job.runner(trials, seed)?)?;
        csv.push_str(&rows);
        commands.push(format!("{command} --trials {trials} --seed {seed}"));
    }
    // Path-sum trees: depth-d minimax on sampled trees with terminal nodes,
    // against `pathology decision --game sum`'s exact engine.
    for args in SUM_CELLS {
        let trials = 3_000 * scale;
        let seed = next_seed();
        let (rows, command) = sum_rows(args, &job.runner(trials, seed)?)?;
        csv.push_str(&rows);
        commands.push(format!("{command} --trials {trials} --seed {seed}"));
    }
    // Test-time search: each strategy run literally by `mc inference`, against
    // `pathology inference`'s exact value.
    for (subcommand, args) in INFERENCE_CELLS {
        let trials = 3_000 * scale;
        let seed = next_seed();
        let config = crate::sim::report::RunConfig {
            trials,
            seed,
            threads: Some(job.options.threads),
            shard: None,
        };
        let (rows, command) = inference_rows(subcommand, args, &config)?;
        csv.push_str(&rows);
        commands.push(format!("{command} --trials {trials} --seed {seed}"));
    }
    // Evaluation samples: k of each problem's samples drawn literally by `mc samples`,
    // against `pathology samples curves`' exact curves.
    for (ks, ties) in SAMPLES_CELLS {
        let trials = 3_000 * scale;
        let seed = next_seed();
        let config = crate::sim::report::RunConfig {
            trials,
            seed,
            threads: Some(job.options.threads),
            shard: None,
        };
        let (rows, command) = samples_rows(ks, ties, &config)?;
        csv.push_str(&rows);
        commands.push(format!("{command} --trials {trials} --seed {seed}"));
    }
    let csv = padded(&csv);
    let report = validate_with_files(csv.as_bytes(), 0.05, &[(SAMPLES_FILE, SAMPLES_TEXT)])?;
    if !report.errors.is_empty() {
        return Err(ReproduceError::Internal(format!(
            "malformed cross-validation rows: {:?}",
            report.errors
        )));
    }
    let agree = report.rows.len() - report.holm_disagreeing();
    let summary = format!(
        "no difference from the exact value detected for {agree} of {} estimates at \
         family-wise level 0.05 (score tests, Holm's step-down correction); largest |z| = {:.2}",
        report.rows.len(),
        report.rows.iter().map(|r| r.z.abs()).fold(0.0, f64::max)
    );
    let text = format!(
        "Cross-validation: every Monte Carlo estimate of this run against its exact value\n\
         (base seed {}; each experiment's command below regenerates it; `line` is the line of\n\
         crossval_input.csv)\n\n{}\ncommands:\n{}\n\n{summary}\n",
        job.options.seed,
        report.to_report("crossval_input.csv").render(
            Format::Text,
            &ExportOptions {
                decimals: 4,
                ..ExportOptions::default()
            }
        )?,
        commands
            .iter()
            .map(|c| format!("  {c}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let seed = Some(job.options.seed);
    job.file(
        "crossval.txt",
        &text,
        "cross-validation report: Monte Carlo (real searches) against the exact D(d,h) of D-games, P-games and N-games, the gamma/delta map, rhf, evaluations as distributions, path-sum trees, test-time search (mc inference) and evaluation samples (mc samples)",
        "pathology reproduce",
        seed,
    )?;
    job.file(
        "crossval_input.csv",
        &csv,
        "the cross-validation estimates, in the input format of `pathology validate`",
        "pathology validate plots/crossval_input.csv",
        seed,
    )?;
    job.printed.push('\n');
    job.printed.push_str(&summary);
    job.printed.push('\n');
    Ok(())
}

/// Chi & Nau's (1987) three-hole kalah table (Section 4.5) and Teague's othello matches
/// (Section 4.3): reports into `chi_nau_kalah.{txt,csv}` and `chi_nau_othello.{txt,csv}`,
/// figures beside them. Reduced: 250 boards, 100 openings at depths 1-3; `--full`: the
/// paper's 1000 boards, 500 openings.
pub(super) fn chi_nau_variety(job: &mut Job) -> Result<()> {
    use crate::studies::chi_nau::kalah::{KalahSetup, PAPER_BOARDS, kalah_table};
    use crate::studies::chi_nau::othello::{OthelloSetup, othello_matches};
    use crate::studies::chi_nau::variety_report::{kalah_report, othello_report};
    let seed = job.options.seed;
    let (boards, openings) = if job.options.full {
        (PAPER_BOARDS, 500)
    } else {
        (250, 100)
    };
    let kalah = kalah_table(&KalahSetup::paper(), &job.runner(boards, seed)?)?;
    let othello = [1, 2, 3]
        .iter()
        .map(|&d| -> Result<_> {
            Ok(othello_matches(
                &OthelloSetup::new(8, d)?,
                &job.runner(openings, seed)?,
            )?)
        })
        .collect::<Result<Vec<_>>>()?;
    let options = ExportOptions {
        decimals: 4,
        ..ExportOptions::default()
    };
    for (stem, report, what) in [
        (
            "chi_nau_kalah",
            kalah_report(&kalah),
            "Chi & Nau 4.5: three-hole kalah, rhf(4) of e_a^w and product against minimax (w = 1, 0.95, 0, 0.5), with the paper's values and claims",
        ),
        (
            "chi_nau_othello",
            othello_report(&othello),
            "Chi & Nau 4.3 (Teague): othello, minimax against product with a weak and a strong evaluator, search depths 1-3, with Teague's values and claims",
        ),
    ] {
        let command = report.manifest.command_line();
        for format in [Format::Text, Format::Csv] {
            let name = format!("{stem}.{}", format.extension());
            let what = if format == Format::Csv {
                format!("{what} (data table)")
            } else {
                what.to_string()
            };
            job.rendered(
                &name,
                &report,
                format,
                &options,
                (&what, &command, Some(seed)),
            )?;
        }
        job.print_table(&report, "claims_summary", 0, &options)?;
    }
    let written =
        crate::plot::studies::variety_figures(job.out(), &kalah, &othello, job.options.style)?;
    let full = if job.options.full { " --full" } else { "" };
    job.files(
        &written,
        |name| {
            let what = if name.starts_with("chi_nau_kalah") {
                "Chi & Nau 4.5 (kalah): rhf(4) and product's share against w, 95% intervals, the paper's values dashed"
            } else {
                "Chi & Nau 4.3 (othello): minimax's share of games won against search depth, 95% intervals, Teague's values dashed"
            };
            (what.to_string(), format!("pathology reproduce{full} --seed {seed}"))
        },
        Some(seed),
    );
    Ok(())
}

/// The evaluations-as-distributions studies, exact: D against d on the critical win-loss game (Nguyen & Ramanujan's
/// b, gamma and heuristics, depth-d minimax; H = 20, `--full` H = 50) and the (sigma,
/// granularity) phase diagram of P-games with b = 2 and 3 (Nau et al. 2010, Luštrek et al.),
/// each with its claims table and figures.
pub(super) fn distribution_studies(job: &mut Job) -> Result<()> {
    use crate::plot::{Panel, error_bar_chart, error_bar_charts_alike};
    use crate::studies::critical_curves::{CriticalStudy, GAMMAS};
    use crate::studies::nau_lustrek::{PhaseDiagram, grid_text};
    let options = ExportOptions {
        decimals: 4,
        ..ExportOptions::default()
    };
    let full = if job.options.full { " --full" } else { "" };
    let command = format!("pathology reproduce{full}");
    let height = if job.options.full {
        crate::studies::critical_curves::FULL_HEIGHT
    } else {
        crate::studies::critical_curves::REDUCED_HEIGHT
    };
    let study = CriticalStudy::compute(height)?;
    let diagram = PhaseDiagram::compute()?;
    let mut figures = Vec::new();
    // The two gammas' figures draw each series (heuristic) in one style.
    let panels: Vec<Vec<Panel>> = GAMMAS.iter().map(|gamma| study.panels(gamma)).collect();
    for gamma in GAMMAS {
        for ext in ["png", "svg"] {
            figures.push(
                job.out()
                    .join(format!("critical_curves_gamma{gamma}.{ext}")),
            );
        }
    }
    for ext in ["png", "svg"] {
        let paths: Vec<std::path::PathBuf> = GAMMAS
            .iter()
            .map(|gamma| {
                job.out()
                    .join(format!("critical_curves_gamma{gamma}.{ext}"))
            })
            .collect();
        let alike: Vec<(&std::path::Path, &[Panel])> = paths
            .iter()
            .zip(&panels)
            .map(|(path, panels)| (path.as_path(), panels.as_slice()))
            .collect();
        error_bar_charts_alike(&alike, job.options.style)?;
    }
    for ext in ["png", "svg"] {
        let path = job.out().join(format!("phase_diagram.{ext}"));
        error_bar_chart(&path, &diagram.panels(), job.options.style)?;
        figures.push(path);
    }
    for (stem, report, what) in [
        (
            "critical_curves",
            study.report(),
            format!(
                "Nguyen & Ramanujan's critical game: exact D(d) of depth-d minimax, H = {height}, b = 2, 5, 8, gamma = 0.9, 1, Gaussian sigma = 0.25-2 and expected playout, with the claims table"
            ),
        ),
        (
            "phase_diagram",
            diagram.report(),
            "Nau et al. 2010 / Luštrek et al.: where minimax is pathological over (sigma, granularity g), P-games b = 2 and 3, exact, with the claims table".to_string(),
        ),
    ] {
        job.text_and_csv(stem, &report, &options, (&what, &command, None))?;
        job.print_table(&report, "claims_summary", 0, &options)?;
    }
    job.printed.push('\n');
    job.printed.push_str(&grid_text(&diagram));
    job.files(
        &figures,
        |name| {
            let what = if name.starts_with("phase_diagram") {
                "phase diagram: D(h-1,h) - D(1,h) against log2 g per sigma, P-games b = 2, 3 (below zero: pathological)".to_string()
            } else {
                format!(
                    "critical game: exact D(d) against d, H = {height}, one panel per b ({})",
                    name.trim_end_matches(".png").trim_end_matches(".svg")
                )
            };
            (what, command.clone())
        },
        None,
    );
    Ok(())
}

/// The why-minimax-works study, exact. Path-sum trees over the similarity knob r and
/// noise sigma, two-valued P-games with early terminal nodes, and the minimax bias
/// (`studies::why_minimax`), with the claims table and three figures.
pub(super) fn why_minimax(job: &mut Job) -> Result<()> {
    use crate::studies::why_minimax::{WhyMinimax, grid_text};
    let options = ExportOptions {
        decimals: 4,
        ..ExportOptions::default()
    };
    let command = "pathology reproduce".to_string();
    let study = WhyMinimax::compute()?;
    let figures = job.charts(&study.panels())?;
    let report = study.report();
    let what = "why minimax works: path-sum trees by similarity, noise and granularity, P-games with early terminal nodes, minimax bias; exact, with the claims table";
    job.text_and_csv("why_minimax", &report, &options, (what, &command, None))?;
    job.print_table(&report, "claims_summary", 0, &options)?;
    job.printed.push('\n');
    job.printed.push_str(&grid_text(&study));
    job.files(
        &figures,
        |name| {
            let what = if name.starts_with("why_similarity") {
                "why minimax works: D(h-1,h) - D(1,h) against the similarity knob r, per noise sigma^2, b = 2 and 3 (below zero: pathological)"
            } else if name.starts_with("why_granularity") {
                "why minimax works: D(h-1,h) - D(1,h) against r with the front's evaluations in G = 4, 8, 16 bins and unbinned, sigma^2 = 2, b = 2 and 3"
            } else if name.starts_with("why_terminals") {
                "why minimax works: D(h-1,h) - D(1,h) against the terminal density T, two-valued P-games b = 2, 3, 4"
            } else {
                "why minimax works: D(d,h), the expected loss and the mean minimax bias against d, b = 2, h = 8, sigma^2 = 2, r = 0, 1/2, 1"
            };
            (what.to_string(), command.clone())
        },
        None,
    );
    Ok(())
}

/// The real-domains study: the 8-puzzle, KRK and KQK solved completely, decision accuracy by depth
/// at every position (exact), with Gaussian noise sampled (`domains::study`); the claims of
/// Nau et al. 2010 on these domains, two figures. `--full`: deeper exact depths and 10 times
/// the trials.
pub(super) fn domains(job: &mut Job) -> Result<()> {
    use crate::domains::study::DomainStudy;
    let options = ExportOptions {
        decimals: 4,
        ..ExportOptions::default()
    };
    let seed = job.options.seed;
    let full = if job.options.full { " --full" } else { "" };
    let command = format!("pathology reproduce{full} --seed {seed}");
    let study = DomainStudy::compute(job.options.full, seed, Some(job.options.threads.max(1)))?;
    let figures = job.charts(&study.panels())?;
    let report = study.report();
    let what = "real domains at every position: the 8-puzzle, KRK and KQK, exact accuracy and local pathology by depth, noise sampled; the claims of Nau et al. 2010";
    job.text_and_csv("domains", &report, &options, (what, &command, Some(seed)))?;
    job.print_table(&report, "claims_summary", 0, &options)?;
    job.files(
        &figures,
        |name| {
            let what = if name.starts_with("domains_accuracy") {
                "real domains: P(correct) against search depth at every position, per heuristic and granularity (exact) and with Gaussian noise (sampled, 95% intervals)"
            } else {
                "real domains: the fraction of positions where depth d + 1 decides worse than d, against the true distance (exact, d = 1, 2, 3)"
            };
            (what.to_string(), command.clone())
        },
        Some(seed),
    );
    Ok(())
}

/// Nguyen & Ramanujan (2024), UCT in the paper's Figure 5 setting (critical game, H = 50, b in
/// {2, 5, 8}, gamma in {0.9, 1}, the paper's six c; Gaussian and expected-playout evaluators):
/// the claims table, every setting's estimates and exact minimax lines, a figure per b and
/// evaluator. Reduced: 100 games, iterations 1 to 10^3; `--full`: 500 games, 1 to 10^5, c
/// from 0.001 to 10^6 one per decade (estimated up front on standard error, refused past the
/// Monte Carlo budget with the commands to run as shards instead).
pub(super) fn uct(job: &mut Job) -> Result<()> {
    use crate::studies::nguyen_ramanujan::figure5::{Grid, grid_report, run_grid};
    let seed = job.options.seed;
    let grid = Grid::paper(job.options.full);
    let threads = job.options.threads.max(1);
    let wall = grid.check_budget(threads, seed)?;
    if job.options.full {
        eprintln!(
            "UCT Figure 5 grid: estimated {:.2} core-hours, about {} on {threads} threads",
            grid.core_seconds() / 3600.0,
            crate::budget::human_seconds(wall)
        );
    }
    let results = run_grid(&grid, seed, threads)?;
    let report = grid_report(&grid, seed, &results);
    let full = if job.options.full { " --full" } else { "" };
    let command = format!("pathology reproduce{full} --seed {seed}");
    let options = ExportOptions {
        decimals: 4,
        ..ExportOptions::default()
    };
    let mut text = report.clone();
    text.tables.retain(|t| t.name != "estimates");
    job.file(
        "uct_fig5.txt",
        &text.render(Format::Text, &options)?,
        "Nguyen & Ramanujan Fig. 5 setting: does UCT's accuracy fall with more iterations (claims, falls per c, exact d-ply minimax lines)",
        &command,
        Some(seed),
    )?;
    for (table, what) in [
        ("claims", "the claims table (one row per setting)"),
        (
            "estimates",
            "every setting's fraction of winning moves by c and N (data of the figures)",
        ),
        (
            "minimax",
            "every setting's exact d-ply minimax lines, d = 1..8",
        ),
    ] {
        job.rendered(
            &format!("uct_fig5_{table}.csv"),
            &report,
            Format::Csv,
            &ExportOptions {
                decimals: 4,
                table: Some(table.to_string()),
                ..ExportOptions::default()
            },
            (
                &format!("Nguyen & Ramanujan Fig. 5 setting: {what}"),
                &command,
                Some(seed),
            ),
        )?;
    }
    job.print_table(&report, "claims_summary", 0, &options)?;
    let written = crate::plot::uct::uct_figures(job.out(), &results, job.options.style)?;
    job.files(
        &written,
        |name| {
            (
                format!(
                    "Nguyen & Ramanujan Fig. 5 setting ({}): fraction of games whose UCT move wins against log10 N, one curve per c, 95% intervals, exact minimax dashed",
                    name.trim_start_matches("uct_fig5_").split('.').next().unwrap_or(name)
                ),
                command.clone(),
            )
        },
        Some(seed),
    );
    Ok(())
}

/// G-games, our reconstruction of Nau's game graphs (Chi & Nau 1987, Section 4.1): the exact
/// D(d,k) of e1 with rhf(d) of every evaluator (`ggame_exact.{txt,csv}`) and the Monte Carlo
/// study (`ggame_mc.{txt,csv}`: D by search against exact, minimax against product, the
/// claims) and its figure (`ggame.{png,svg}`). Reduced: k = 10, 4000 boards; `--full`: k = 16, 40000 boards.
pub(super) fn ggame(job: &mut Job) -> Result<()> {
    use crate::analytic::ggame::GEvaluator;
    use crate::analytic::ggame::report::GGameRequest;
    use crate::sim::report::McRun;
    use crate::studies::chi_nau::ggame::GGameStudy;
    let seed = job.options.seed;
    let (k, boards) = if job.options.full {
        (16, 40_000)
    } else {
        (10, 4_000)
    };
    let half = BigRational::new(1.into(), 2.into());
    let exact = GGameRequest {
        height: k,
        p: Some(half.clone()),
        depth: None,
        evaluator: GEvaluator::E1,
        flaws: true,
        exact: false,
    }
    .report()?;
    let study = GGameStudy::new(k, half);
    let counts = study.counts(&job.runner(boards, seed)?)?;
    let run = McRun {
        trials: boards,
        seed,
        shard: None,
    };
    let mc = study.report(&run, &counts)?;
    let options = ExportOptions {
        decimals: 4,
        ..ExportOptions::default()
    };
    for (stem, report, what, seed) in [
        (
            "ggame_exact",
            &exact,
            "G-games (reconstruction, Chi & Nau 4.1): exact D(d,k) of minimax with e1 and rhf(d) of four evaluators",
            None,
        ),
        (
            "ggame_mc",
            &mc,
            "G-games (reconstruction, Chi & Nau 4.1): D(d,k) by search against exact, minimax against product per evaluator, the rhf claim tested",
            Some(seed),
        ),
    ] {
        let command = report.manifest.command_line();
        job.text_and_csv(stem, report, &options, (what, &command, seed))?;
    }
    let figure = study.figure(&run, &counts)?;
    let written = crate::plot::studies::ggame_figures(job.out(), &figure, job.options.style)?;
    let full = if job.options.full { " --full" } else { "" };
    job.files(
        &written,
        |_| {
            (
                "G-games (reconstruction): minimax's share against product by search depth per evaluator (95%), beside the exact rhf(d)".to_string(),
                format!("pathology reproduce{full} --seed {seed}"),
            )
        },
        Some(seed),
    );
    job.print_table(&mc, "claims_summary", 0, &options)?;
    Ok(())
}

/// Chi & Nau's (1987) Section 4.2, Ballard's claim rebuilt on N-games (a reconstruction of
/// the claim), and Section 4.5's kalah table under each reading of its unstated choices:
/// `chi_nau_ballard.{txt,csv}` and `chi_nau_kalah_gap.{txt,csv}`. Reduced: 500 pairs, 100
/// boards per variant; `--full`: 10000 pairs, the paper's 1000 boards per variant.
pub(super) fn chi_nau_ballard_kalah_gap(job: &mut Job) -> Result<()> {
    use crate::plot::error_bar_chart;
    use crate::sim::report::RunConfig;
    use crate::studies::chi_nau::ballard::BallardRequest;
    use crate::studies::chi_nau::kalah::PAPER_BOARDS;
    use crate::studies::chi_nau::kalah_gap::{KalahVariant, kalah_gap};
    let (seed, threads) = (job.options.seed, Some(job.options.threads));
    let (pairs, boards) = if job.options.full {
        (10_000, PAPER_BOARDS)
    } else {
        (500, 100)
    };
    let config = RunConfig {
        trials: pairs,
        seed,
        threads,
        shard: None,
    };
    let ballard = BallardRequest::default_setting().play(&config)?;
    let ballard_panels = crate::studies::chi_nau::ballard::panels(&ballard);
    let ballard_command = ballard.manifest.command_line();
    let gap = kalah_gap(&KalahVariant::ALL, boards, seed, threads)?;
    let options = ExportOptions {
        decimals: 4,
        ..ExportOptions::default()
    };
    for (stem, report, what, summary) in [
        (
            "chi_nau_ballard",
            ballard,
            "Chi & Nau 4.2: Ballard's claim rebuilt on N-games (b = 2, 3), the mixed rule 0.5 minimax + 0.5 product against minimax as Max's and Min's error rates grow (a reconstruction of the claim, not of Ballard's experiment)",
            "claims",
        ),
        (
            "chi_nau_kalah_gap",
            gap,
            "Chi & Nau 4.5: the kalah table under each reading of the unstated choices (one changed at a time), rhf(4) and product's wins with 95% intervals",
            "summary",
        ),
    ] {
        let command = report.manifest.command_line();
        job.text_and_csv(stem, &report, &options, (what, &command, Some(seed)))?;
        job.print_table(&report, summary, 0, &options)?;
    }
    let mut figures = Vec::new();
    for ext in ["png", "svg"] {
        let path = job.out().join(format!("chi_nau_ballard.{ext}"));
        error_bar_chart(&path, &ballard_panels, job.options.style)?;
        figures.push(path);
    }
    job.files(
        &figures,
        |_| {
            (
                "Chi & Nau 4.2, Ballard's claim rebuilt: the mixed rule's improvement over minimax against Min's error rate, one curve per Max's, one panel per b, 95% intervals".to_string(),
                ballard_command.clone(),
            )
        },
        Some(seed),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::validate;

    /// The `mc distributions` rows of the cross-validation are `validate`'s input as they
    /// are written (the older kinds' rows beside them), and agree with the exact values.
    #[test]
    fn distribution_cells_are_validated_against_the_exact_engine() {
        let mut csv = String::from(
            "kind,h,d,f1,f2,gamma,delta,steps,quantity,w,estimate,trials,b,evaluator,e,",
        );
        csv.push_str(&DISTRIBUTION_COLUMNS.join(","));
        csv.push('\n');
        csv.push_str("rhf,,,,,,,,,0,1/2,10,,,\n");
        let mut commands = Vec::new();
        for (i, args) in DISTRIBUTION_CELLS.iter().enumerate() {
            let runner = crate::sim::runner::TrialRunner::new(400, 7 + i as u64, 1).unwrap();
            let (rows, command) = distribution_rows(args, &runner).unwrap();
            csv.push_str(&rows);
            commands.push(command);
        }
        let report = validate(csv.as_bytes(), 0.05).unwrap();
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let heights: usize = DISTRIBUTION_CELLS
            .iter()
            .map(|args| {
                args.iter()
                    .find(|(n, _)| *n == "height")
                    .map_or(0, |(_, h)| h.parse::<usize>().unwrap())
            })
            .sum();
        assert_eq!(report.rows.len(), 1 + heights);
        assert!(report.rows.iter().all(|r| r.z.abs() < 4.0), "{report:?}");
        assert!(commands[2].contains("--gamma 0.9,0.5 --root-gamma 0.8"));
    }
}
