//! `pathology samples compare A B`: two files of samples (two checkpoints) paired by problem
//! id, the difference `B - A` of every curve at every budget k, a simultaneous 95% band over
//! the k list, and where B is certified better, certified worse, or undecided.
//!
//! **The band.** For each metric, with `d_pk` the difference of problem p at `k`, `dbar_k`
//! its mean over the P problems and `se_k = sd_k / sqrt(P)`: the statistic is
//! `T = max_k |dbar_k - delta_k| / se_k` over the k list (`delta_k` the population
//! difference). Its 95% quantile `c` is estimated by a Gaussian multiplier bootstrap:
//! `R` replicates (`--replicates`, default 4000) of `T* = max_k |sum_p xi_p (d_pk - dbar_k)| /
//! (P se_k)` with `xi_p` independent standard normal draws; `c` is the `ceil(0.95 R)`-th
//! smallest `T*`. Given the data, the sum inside is exactly normal with the covariance of the
//! centred differences, and each replicate is drawn from that law through its pivoted
//! Cholesky factor (one normal per dimension of the covariance, at most one per budget,
//! instead of one per problem: the same law, see `band`; Box-Muller on a ChaCha8 stream
//! seeded with `--seed`, the same normals for every metric). The band is `dbar_k +- c se_k` at every k of the list at once. The Monte
//! Carlo standard error of `c` is estimated from the order statistics around it: the
//! distance between the `0.95 R -+ 1.96 sqrt(0.95 0.05 R)`-th smallest `T*` over `2 x 1.96`.
//! A budget whose `se_k` is 0 (every problem's difference equal) has a band of width 0 and
//! takes no part in the maximum.
//!
//! **Certified.** B is certified better at k where the band's lower end is above 0, certified
//! worse where its upper end is below 0, undecided elsewhere (simultaneously, at 95%).
//!
//! **The point crossover** is the first k of the list at which the sign (-, 0 or +) of the
//! in-sample difference `dbar_k` (exact with `--exact`) differs from its sign at the previous
//! k of the list.
//!
//! **The first budget at which B loses**, `L = min { k in the list : delta_k < 0 }` (none
//! when B loses nowhere on the list). On the event that the band covers every `delta_k` (at
//! least 95%), `delta_L < 0` puts `L` where the band's lower end is below 0, and
//! `delta_j >= 0` for every earlier j puts it no later than the first budget certified worse.
//! The confidence set is therefore `{ k_i : lower_i < 0 and upper_j >= 0 for every j < i }`,
//! with "none" added when no budget is certified worse.

use std::collections::HashMap;

use super::band::bootstrap;
use super::curves::{Curves, Metric, Ties, Value};
use super::input::Samples;
use super::report::{
    METRICS_NOTE, Source, error_cells, input_note, ks_text, mean_and_standard_error,
    prepared_curves, rounding_note, ties_name, value_cell, with_source_options,
};
use crate::error::{Error, Result};
use crate::report::{Cell, Column, Kind, Report, Table};

/// What `samples compare` computes.
#[derive(Debug, Clone)]
pub struct CompareRequest {
    /// The first file (A).
    pub a: Source,
    /// The second file (B); the differences are B - A.
    pub b: Source,
    /// The budgets k.
    pub ks: Vec<u64>,
    /// How a tie of votes is scored.
    pub ties: Ties,
    /// Exact rationals (else `f64` with a rigorous bound).
    pub exact: bool,
    /// Drop the problems with fewer samples than the largest k in either file.
    pub drop_short: bool,
    /// Keep the problems both files have (else refuse unmatched ids).
    pub common: bool,
    /// The seed of the multiplier bootstrap.
    pub seed: u64,
    /// Its replicates.
    pub replicates: u64,
}

/// Pairs the problems of two files by id: both reordered to A's order of the common ids.
/// Returns how many problems of A and of B had no partner.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming the files, the count and the first unmatched ids when
/// some id is in one file only and `common` is false, or when no id is common.
pub fn pair(a: &mut Samples, b: &mut Samples, common: bool) -> Result<(usize, usize)> {
    let in_b: HashMap<&str, usize> = b
        .problems
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.as_str(), i))
        .collect();
    let in_a: HashMap<&str, usize> = a
        .problems
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.as_str(), i))
        .collect();
    let only_a: Vec<&str> = a
        .problems
        .iter()
        .map(|p| p.id.as_str())
        .filter(|id| !in_b.contains_key(id))
        .collect();
    let only_b: Vec<&str> = b
        .problems
        .iter()
        .map(|p| p.id.as_str())
        .filter(|id| !in_a.contains_key(id))
        .collect();
    let shown = |ids: &[&str]| {
        let mut text: Vec<String> = ids.iter().take(5).map(|id| format!("{id:?}")).collect();
        if ids.len() > 5 {
            text.push("...".into());
        }
        text.join(", ")
    };
    if !common && (!only_a.is_empty() || !only_b.is_empty()) {
        let mut parts = Vec::new();
        if !only_a.is_empty() {
            parts.push(format!(
                "{} only in {}: {}",
                only_a.len(),
                a.source,
                shown(&only_a)
            ));
        }
        if !only_b.is_empty() {
            parts.push(format!(
                "{} only in {}: {}",
                only_b.len(),
                b.source,
                shown(&only_b)
            ));
        }
        return Err(Error::invalid(
            "the problem ids of the two files",
            "the same in both (or --common keeps the ids both have)",
            format!("problem ids {}", parts.join("; ")),
        ));
    }
    let order: Vec<usize> = a
        .problems
        .iter()
        .filter_map(|p| in_b.get(p.id.as_str()).copied())
        .collect();
    if order.is_empty() {
        return Err(Error::invalid(
            "the problem ids of the two files",
            "shared by at least one problem",
            format!("no common id in {} and {}", a.source, b.source),
        ));
    }
    let (unmatched_a, unmatched_b) = (only_a.len(), only_b.len());
    let keep: std::collections::HashSet<String> = only_a.iter().map(|s| s.to_string()).collect();
    a.problems.retain(|p| !keep.contains(&p.id));
    let mut taken: Vec<Option<super::input::Problem>> = std::mem::take(&mut b.problems)
        .into_iter()
        .map(Some)
        .collect();
    b.problems = order
        .iter()
        .map(|&i| taken[i].take().expect("each id once"))
        .collect();
    Ok((unmatched_a, unmatched_b))
}

/// A list of budgets as text (`none` for none).
fn list(ks: &[u64]) -> String {
    if ks.is_empty() {
        "none".to_string()
    } else {
        ks_text(ks)
    }
}

/// The sign of a value as text, or `None` when an `f64` bound leaves it open.
fn sign_word(value: &Value) -> Option<&'static str> {
    value.certain_sign().map(|s| match s {
        -1 => "-",
        0 => "0",
        _ => "+",
    })
}

/// Runs `samples compare`: the report.
///
/// # Errors
///
/// As [`super::input::read`], [`pair`] and [`prepared_curves`]; [`Error::TooExpensive`]
/// when the bootstrap would take more than the analytic budget.
pub fn compare_report(request: &CompareRequest) -> Result<Report> {
    let mut a = request.a.read()?;
    let mut b = request.b.read()?;
    let (only_a, only_b) = pair(&mut a, &mut b, request.common)?;
    let k_max = *request.ks.iter().max().unwrap_or(&0);
    // A pair is short when either file has fewer samples than the largest k: both go.
    let short: Vec<bool> = a
        .problems
        .iter()
        .zip(&b.problems)
        .map(|(x, y)| x.n < k_max || y.n < k_max)
        .collect();
    let dropped = short.iter().filter(|s| **s).count() as u64;
    if request.drop_short && dropped > 0 {
        if dropped == short.len() as u64 {
            return Err(Error::invalid(
                "--k",
                "at most the number of samples of some problem in both files (--drop-short \
                 dropped every pair)",
                k_max,
            ));
        }
        let mut it = short.iter();
        a.problems.retain(|_| !*it.next().unwrap_or(&false));
        let mut it = short.iter();
        b.problems.retain(|_| !*it.next().unwrap_or(&false));
    }
    let metrics: Vec<Metric> = Metric::of(&a)
        .into_iter()
        .filter(|m| Metric::of(&b).contains(m))
        .collect();
    let problems = a.problems.len();
    let ks = request.ks.len();
    let squared = (ks * ks * metrics.len()) as f64;
    let seconds = squared
        * (request.replicates as f64 * super::band::SECONDS_PER_REPLICATE_BUDGET_SQUARED
            + problems as f64 * super::band::SECONDS_PER_PROBLEM_BUDGET_SQUARED);
    crate::budget::check_seconds(
        || {
            format!(
                "a band of {} bootstrap replicates over {problems} problems and {ks} budgets",
                request.replicates
            )
        },
        seconds,
        crate::budget::ANALYTIC_TIME_LIMIT_SECONDS,
        "about ",
        "Ask for fewer --replicates or fewer budgets k.",
    )?;
    let (dropped_a, curves_a) = prepared_curves(
        &mut a,
        &request.ks,
        request.ties,
        request.exact,
        request.drop_short,
        "samples compare (A)",
    )?;
    let (dropped_b, curves_b) = prepared_curves(
        &mut b,
        &request.ks,
        request.ties,
        request.exact,
        request.drop_short,
        "samples compare (B)",
    )?;
    debug_assert_eq!(dropped_a + dropped_b, 0);
    let pick = |curves: &Curves, metric: Metric| {
        curves
            .metrics
            .iter()
            .position(|&m| m == metric)
            .expect("metric computed")
    };
    let mut differences = Vec::new();
    let mut standard_errors = Vec::new();
    for &metric in &metrics {
        let (ma, mb) = (pick(&curves_a, metric), pick(&curves_b, metric));
        let per_k: Vec<Vec<f64>> = (0..ks)
            .map(|i| {
                curves_b.per_problem[mb][i]
                    .iter()
                    .zip(&curves_a.per_problem[ma][i])
                    .map(|(y, x)| y - x)
                    .collect()
            })
            .collect();
        standard_errors.push(
            per_k
                .iter()
                .map(|d| mean_and_standard_error(d).1.unwrap_or(0.0))
                .collect::<Vec<f64>>(),
        );
        differences.push(per_k);
    }
    let task = crate::progress::Task::start("samples compare (band)", "replicates", 1, true);
    let bands = if problems >= 2 {
        let bands = bootstrap(
            &differences,
            &standard_errors,
            request.replicates,
            request.seed,
        );
        task.advance(1);
        bands
    } else {
        Vec::new()
    };
    task.clear();
    let mut table = Table::new(
        "differences",
        "B - A per metric and k: the in-sample difference of the exact curves, its standard \
         error over problems, the pointwise normal 95% interval and the simultaneous 95% band \
         over the k list",
        vec![
            Column::key("metric", Kind::Text),
            Column::key("k", Kind::Integer),
            Column::new("a", Kind::Real).labelled("A"),
            Column::new("b", Kind::Real).labelled("B"),
            Column::new("difference", Kind::Real).labelled("B - A"),
            Column::new("standard_error", Kind::Real).labelled("s.e."),
            Column::new("interval95", Kind::Interval).labelled("95% pointwise"),
            Column::new("band95", Kind::Interval).labelled("95% simultaneous"),
            Column::new("verdict", Kind::Text),
        ],
    );
    let mut summary = Table::new(
        "summary",
        "Per metric: the band's critical value, where B is certified better or worse over the \
         k list (simultaneous 95%), the point crossover, and the confidence set for the first \
         budget at which B loses",
        vec![
            Column::key("metric", Kind::Text),
            Column::new("critical_value", Kind::Real).labelled("c"),
            Column::new("critical_value_mc_se", Kind::Real).labelled("MC s.e. of c"),
            Column::new("better_at", Kind::Text).labelled("B better at k"),
            Column::new("worse_at", Kind::Text).labelled("B worse at k"),
            Column::new("undecided_at", Kind::Text).labelled("undecided at k"),
            Column::new("point_crossover", Kind::Text).labelled("point crossover"),
            Column::new("first_loss_set", Kind::Text).labelled("first loss: 95% set"),
        ],
    );
    for (m, &metric) in metrics.iter().enumerate() {
        let (ma, mb) = (pick(&curves_a, metric), pick(&curves_b, metric));
        let (mut better, mut worse, mut undecided, mut first_loss) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut certified_worse_seen = false;
        let mut crossover: Option<String> = None;
        let mut previous_sign: Option<Option<&str>> = None;
        for (i, &se) in standard_errors[m].iter().enumerate() {
            let k = request.ks[i];
            let (va, vb) = (&curves_a.means[ma][i], &curves_b.means[mb][i]);
            let d = vb.minus(va);
            let center = d.to_f64();
            let (se_cell, interval) = error_cells(center, (problems >= 2).then_some(se));
            let (band_cell, verdict) = match bands.get(m) {
                Some(band) => {
                    let (lower, upper) = (center - band.critical * se, center + band.critical * se);
                    let verdict = if lower > 0.0 {
                        better.push(k);
                        "B better"
                    } else if upper < 0.0 {
                        worse.push(k);
                        "B worse"
                    } else {
                        undecided.push(k);
                        "undecided"
                    };
                    if lower < 0.0 && !certified_worse_seen {
                        first_loss.push(k);
                    }
                    if upper < 0.0 {
                        certified_worse_seen = true;
                    }
                    (
                        Cell::Interval {
                            estimate: center,
                            lower,
                            upper,
                        },
                        verdict,
                    )
                }
                None => (Cell::Empty, "undecided"),
            };
            let sign = sign_word(&d);
            if crossover.is_none()
                && let Some(before) = previous_sign
            {
                match (before, sign) {
                    (Some(x), Some(y)) if x != y => crossover = Some(k.to_string()),
                    (Some(_), Some(_)) => {}
                    _ => crossover = Some("undetermined in f64 (--exact decides)".into()),
                }
            }
            previous_sign = Some(sign);
            table.push(vec![
                Cell::text(metric.name()),
                Cell::int(k),
                value_cell(va),
                value_cell(vb),
                value_cell(&d),
                se_cell,
                interval,
                band_cell,
                Cell::text(verdict),
            ]);
        }
        let mut set = list(&first_loss);
        if !certified_worse_seen {
            set = if first_loss.is_empty() {
                "none (B loses nowhere on the list)".to_string()
            } else {
                format!("{set}, or none")
            };
        }
        let band = bands.get(m);
        summary.push(vec![
            Cell::text(metric.name()),
            band.map_or(Cell::Empty, |b| Cell::Real(b.critical)),
            band.map_or(Cell::Empty, |b| Cell::Real(b.critical_error)),
            Cell::text(list(&better)),
            Cell::text(list(&worse)),
            Cell::text(list(&undecided)),
            Cell::text(crossover.unwrap_or_else(|| "none".into())),
            Cell::text(set),
        ]);
    }
    let mut report = Report::new(
        "samples compare",
        "Two checkpoints compared over the budget k",
    )
    .param("_", request.a.path.display())
    .param("_", request.b.path.display())
    .param("k", ks_text(&request.ks))
    .param("ties", ties_name(request.ties))
    .param("replicates", request.replicates)
    .param("common", request.common)
    .param("drop_short", request.drop_short)
    .param("exact", request.exact)
    .mode(if request.exact { "exact" } else { "f64" })
    .seed(request.seed);
    report = with_source_options(report, &request.a)
        .with_table(table)
        .with_table(summary);
    report = report.note(format!(
        "paired by problem id: {problems} problems in both files{}{}",
        if only_a + only_b > 0 {
            format!(
                " (--common: {only_a} only in {}, {only_b} only in {} left out)",
                a.source, b.source
            )
        } else {
            String::new()
        },
        if request.drop_short && dropped > 0 {
            format!(
                "; {dropped} pair{} dropped with fewer samples than the largest k in A or B \
                 (--drop-short)",
                if dropped == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        }
    ));
    report = report.note(input_note(&a, 0)).note(input_note(&b, 0));
    report = report.note(METRICS_NOTE);
    report = report.note(format!(
        "band95: simultaneous over the k list at 95%: difference +- c standard errors, c the \
         95% quantile of max over k of |t| by a Gaussian multiplier bootstrap ({} replicates, \
         seed {}; each replicate drawn from the Gaussian law of the multiplier sum through the \
         pivoted Cholesky factor of its covariance, Box-Muller normals on ChaCha8; critical_value_mc_se: the Monte Carlo standard \
         error of c from the order statistics around it); interval95: pointwise normal; both \
         over the population of problems the files sample",
        request.replicates, request.seed
    ));
    report = report.note(
        "B better/worse: the band lies above/below 0 at that k. point_crossover: the first k \
         where the sign of the in-sample difference B - A differs from its sign at the previous \
         k. first_loss_set: the ks with band lower end < 0 and no earlier k certified worse, \
         with 'none' when no k is certified worse: it holds the first k at which B's population \
         curve is below A's with 95% confidence",
    );
    if problems < 2 {
        report = report.note("one common problem: no standard error, no band");
    }
    if let Some(note) = rounding_note(&[&curves_a, &curves_b]) {
        report = report.note(note);
    }
    Ok(report)
}

/// The tables `samples compare` prints (for `--table`).
pub const COMPARE_TABLES: &[&str] = &["differences", "summary"];
