//! The reports of `pathology samples curves` (and the pieces `compare` shares): the curves
//! with their standard errors and intervals, the best k of each curve, the budgets where a
//! curve falls, and the claims that it falls, decided on the per-problem differences.

use std::path::PathBuf;

use super::curves::{self, Curves, Metric, Ties, Value};
use super::input::{self, Columns, InputFormat, Samples};
use crate::error::Result;
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence};
use crate::report::{Cell, Column, Kind, Report, Table, printed_error_bound};
use crate::sim::runner::Shard;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Seconds of one `u128` multiply-add of the DPs, and of one big-integer step of the exact
/// sums (measured on the project machine, rounded up).
const SECONDS_PER_OPERATION: f64 = 4e-9;
const SECONDS_PER_BIG_OPERATION: f64 = 3e-7;

/// Where the samples come from and how to read them.
#[derive(Debug, Clone)]
pub struct Source {
    /// The file.
    pub path: PathBuf,
    /// Its format (`None`: from the extension).
    pub format: Option<InputFormat>,
    /// The column names.
    pub columns: Columns,
}

impl Source {
    /// Reads the file ([`input::read`]).
    ///
    /// # Errors
    ///
    /// As [`input::read`].
    pub fn read(&self) -> Result<Samples> {
        input::read(&self.path, self.format, &self.columns)
    }
}

/// The options of `source` that differ from the defaults, as manifest parameters (so that
/// the manifest's command reads the file the same way).
pub fn with_source_options(mut report: Report, source: &Source) -> Report {
    let defaults = Columns::default();
    let columns = &source.columns;
    for (name, value, default) in [
        ("problem_column", &columns.problem, &defaults.problem),
        ("correct_column", &columns.correct, &defaults.correct),
        ("answer_column", &columns.answer, &defaults.answer),
        ("score_column", &columns.score, &defaults.score),
        ("c_column", &columns.c, &defaults.c),
        ("n_column", &columns.n, &defaults.n),
    ] {
        if value != default {
            report = report.param(name, value);
        }
    }
    if let Some(format) = source.format {
        report = report.param(
            "input_format",
            match format {
                InputFormat::Csv => "csv",
                InputFormat::Jsonl => "jsonl",
            },
        );
    }
    report
}

/// What `samples curves` computes.
#[derive(Debug, Clone)]
pub struct CurvesRequest {
    /// The file.
    pub source: Source,
    /// The budgets k.
    pub ks: Vec<u64>,
    /// How a tie of votes is scored.
    pub ties: Ties,
    /// Exact rationals (else `f64` with a rigorous bound).
    pub exact: bool,
    /// Drop the problems with fewer samples than the largest k (else refuse them).
    pub drop_short: bool,
    /// `--shard K/N`: only the K-th of N slices of the problems, as sums that `pathology
    /// merge` adds ([`super::shards`]).
    pub shard: Option<Shard>,
}

/// What the input summary note says of a file: its name, its rows, whether they were
/// per-sample, the problems used and those dropped by `--drop-short`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputSummary {
    /// The file as the user named it.
    pub source: String,
    /// The data rows read.
    pub rows: u64,
    /// Per-sample rows (else per-problem counts).
    pub per_sample: bool,
    /// The problems used.
    pub problems: u64,
    /// The problems dropped (`--drop-short`).
    pub dropped: u64,
}

impl InputSummary {
    /// The summary of `samples` (its problems those used).
    pub fn of(samples: &Samples, dropped: u64) -> Self {
        InputSummary {
            source: samples.source.clone(),
            rows: samples.rows,
            per_sample: samples.per_sample,
            problems: samples.problems.len() as u64,
            dropped,
        }
    }

    /// The input summary note.
    pub fn note(&self) -> String {
        let dropped = self.dropped;
        format!(
            "{}: {} {} rows, {} problems used{}",
            self.source,
            self.rows,
            if self.per_sample {
                "per-sample"
            } else {
                "per-problem count"
            },
            self.problems,
            if dropped > 0 {
                format!(
                    ", {dropped} problem{} dropped with fewer samples than the largest k \
                     (--drop-short)",
                    if dropped == 1 { "" } else { "s" }
                )
            } else {
                String::new()
            }
        )
    }
}

/// The mean and the standard error `sd / sqrt(P)` of `values` (no standard error for fewer
/// than two values).
///
/// # Examples
///
/// ```
/// use pathology::samples::report::mean_and_standard_error;
/// let (mean, se) = mean_and_standard_error(&[0.0, 1.0, 1.0, 0.0]);
/// assert_eq!(mean, 0.5);
/// assert!((se.unwrap() - (1.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-15);
/// ```
pub fn mean_and_standard_error(values: &[f64]) -> (f64, Option<f64>) {
    let count = values.len() as f64;
    let mean = values.iter().sum::<f64>() / count;
    if values.len() < 2 {
        return (mean, None);
    }
    let squares: f64 = values.iter().map(|v| (v - mean) * (v - mean)).sum();
    (mean, Some((squares / (count - 1.0)).sqrt() / count.sqrt()))
}

/// A mean as a cell: exact, or bounded.
pub fn value_cell(value: &Value) -> Cell {
    match value {
        Value::Exact(r) => Cell::Exact(r.clone()),
        Value::Bounded { value, bound } => Cell::Bounded {
            value: *value,
            bound: *bound,
        },
    }
}

/// The standard error and the normal 95% interval around `center` as cells (empty for one
/// problem).
pub fn error_cells(center: f64, standard_error: Option<f64>) -> (Cell, Cell) {
    match standard_error {
        Some(se) => (
            Cell::Real(se),
            Cell::Interval {
                estimate: center,
                lower: center - Z95 * se,
                upper: center + Z95 * se,
            },
        ),
        None => (Cell::Empty, Cell::Empty),
    }
}

/// The note on the rounding of an `f64` report, or nothing in exact mode.
pub fn rounding_note(curves: &[&Curves]) -> Option<String> {
    let mut largest = 0.0f64;
    let mut exact = true;
    for c in curves {
        for v in c.means.iter().flatten() {
            if let Value::Bounded { bound, .. } = v {
                exact = false;
                largest = largest.max(*bound);
            }
        }
    }
    (!exact).then(|| {
        format!(
            "f64: every mean is within {} of the exact expectation over all k-subsets \
             (rigorous rounding bound, rounded up: the subset counts are whole numbers computed \
             exactly, then converted and divided; each value's own bound is the CSV/JSON column \
             value_error_bound); --exact prints the rationals",
            printed_error_bound(0.0, largest)
        )
    })
}

/// Reads, checks and computes: the samples (with the problems dropped), the metrics and the
/// curves. Refuses work above the analytic budget before it starts.
///
/// # Errors
///
/// As [`input::read`] and [`curves::check_budgets`]; [`crate::Error::TooExpensive`] above
/// the budget.
pub fn prepared_curves(
    samples: &mut Samples,
    ks: &[u64],
    ties: Ties,
    exact: bool,
    drop_short: bool,
    label: &str,
) -> Result<(u64, Curves)> {
    let dropped = curves::check_budgets(samples, ks, drop_short)?;
    let metrics = Metric::of(samples);
    check_cost(samples, &metrics, ks, exact)?;
    let task = crate::progress::Task::start(label, "problems", samples.problems.len() as u64, true);
    let result = curves::compute(samples, &metrics, ks, ties, exact, &|| task.advance(1));
    task.clear();
    Ok((dropped, result?))
}

/// Refuses curves that would take more than the analytic budget.
pub(crate) fn check_cost(
    samples: &Samples,
    metrics: &[Metric],
    ks: &[u64],
    exact: bool,
) -> Result<()> {
    let operations = curves::operations(samples, metrics, ks);
    let n_max = samples.problems.iter().map(|p| p.n).max().unwrap_or(0);
    let per_operation = if curves::counts_fit_u128(n_max, metrics) {
        SECONDS_PER_OPERATION
    } else {
        SECONDS_PER_BIG_OPERATION
    };
    let mut seconds = operations * per_operation;
    if exact {
        seconds +=
            (samples.problems.len() * ks.len() * metrics.len()) as f64 * SECONDS_PER_BIG_OPERATION;
    }
    let bytes = (samples.problems.len() * ks.len() * metrics.len()) as f64
        * if exact { 200.0 } else { 8.0 };
    let cost = crate::budget::Cost { seconds, bytes };
    if cost.exceeds_limits() {
        return Err(cost.refusal(
            format!(
                "the curves of {} problems at {} budgets",
                samples.problems.len(),
                ks.len()
            ),
            "Ask for fewer budgets k (--k), or drop --exact.",
        ));
    }
    Ok(())
}

/// The `curves` table: one row per metric and k.
fn curves_table(curves: &Curves, problems: u64) -> Table {
    let mut table = Table::new(
        "curves",
        "Each metric's exact expectation over all k-subsets of every problem's samples, \
         averaged over problems, with its standard error over problems and normal 95% interval",
        vec![
            Column::key("metric", Kind::Text),
            Column::key("k", Kind::Integer),
            Column::new("value", Kind::Real),
            Column::new("standard_error", Kind::Real).labelled("s.e."),
            Column::new("interval95", Kind::Interval).labelled("95% interval"),
            Column::new("problems", Kind::Integer),
        ],
    );
    for (m, metric) in curves.metrics.iter().enumerate() {
        for (i, &k) in curves.ks.iter().enumerate() {
            let value = &curves.means[m][i];
            let se = curves.moments.standard_error(m, i);
            let (se, interval) = error_cells(value.to_f64(), se);
            table.push(vec![
                Cell::text(metric.name()),
                Cell::int(k),
                value_cell(value),
                se,
                interval,
                Cell::int(problems),
            ]);
        }
    }
    table
}

/// The index of the largest mean of a curve (the first of equal ones); in `f64` mode values
/// within their bounds of the largest are reported beside it.
fn best_index(values: &[Value]) -> usize {
    let mut best = 0;
    for (i, v) in values.iter().enumerate() {
        let better = match (v, &values[best]) {
            (Value::Exact(a), Value::Exact(b)) => a > b,
            _ => v.to_f64() > values[best].to_f64(),
        };
        if better {
            best = i;
        }
    }
    best
}

/// The `best` table (each curve's best k) and the `falls` table (each pair of consecutive
/// budgets where a curve's mean falls, exactly or beyond its bound).
fn best_and_falls(curves: &Curves) -> (Table, Table) {
    let mut best = Table::new(
        "best",
        "The best k of each curve (the first k of the largest mean; a tie of exact values takes \
         the smallest k) and the budgets where it falls",
        vec![
            Column::key("metric", Kind::Text),
            Column::new("best_k", Kind::Integer).labelled("best k"),
            Column::new("value", Kind::Real),
            Column::new("falls_at", Kind::Text).labelled("falls from k1 to k2"),
        ],
    );
    let mut falls = Table::new(
        "falls",
        "Consecutive budgets k1 < k2 of the list where a curve's mean falls (certain: exact, or \
         beyond the f64 bound)",
        vec![
            Column::key("metric", Kind::Text),
            Column::key("k1", Kind::Integer),
            Column::key("k2", Kind::Integer),
            Column::new("difference", Kind::Real).labelled("value(k2) - value(k1)"),
        ],
    );
    for (m, metric) in curves.metrics.iter().enumerate() {
        let values = &curves.means[m];
        let b = best_index(values);
        let mut fell = Vec::new();
        for i in 1..values.len() {
            let d = values[i].minus(&values[i - 1]);
            if d.certain_sign() == Some(-1) {
                fell.push(format!("{}->{}", curves.ks[i - 1], curves.ks[i]));
                falls.push(vec![
                    Cell::text(metric.name()),
                    Cell::int(curves.ks[i - 1]),
                    Cell::int(curves.ks[i]),
                    value_cell(&d),
                ]);
            }
        }
        best.push(vec![
            Cell::text(metric.name()),
            Cell::int(curves.ks[b]),
            value_cell(&values[b]),
            Cell::text(if fell.is_empty() {
                "never".to_string()
            } else {
                fell.join(", ")
            }),
        ]);
    }
    (best, falls)
}

/// The paired per-problem differences `value(k_j) - value(k_i)` of metric `m` as evidence (a
/// normal test on their mean with the standard error over problems), from the exact sums.
fn paired_evidence(curves: &Curves, m: usize, i: usize, j: usize) -> Evidence {
    match curves.moments.paired(m, i, j) {
        (estimate, Some(standard_error)) => Evidence::Normal {
            estimate,
            standard_error,
        },
        _ => Evidence::NotTestable("one problem: no standard error over problems".to_string()),
    }
}

/// The claims that majority@k and best-of-k fall: for each pair of consecutive budgets where
/// the mean falls, and from the best k to the largest k when that is not one of them.
fn fall_claims(curves: &Curves, source: &str) -> ClaimFamily {
    let mut family = ClaimFamily::new("curves fall with k", 0.05);
    for (m, metric) in curves.metrics.iter().enumerate() {
        if !matches!(metric, Metric::Majority | Metric::BestOfK) {
            continue;
        }
        let values = &curves.means[m];
        let mut pairs: Vec<(usize, usize)> = (1..values.len())
            .filter(|&i| values[i].minus(&values[i - 1]).certain_sign() == Some(-1))
            .map(|i| (i - 1, i))
            .collect();
        let b = best_index(values);
        let last = values.len() - 1;
        if b + 1 < last {
            pairs.push((b, last));
        }
        for (i, j) in pairs {
            let (k1, k2) = (curves.ks[i], curves.ks[j]);
            family.push(Claim::new(
                format!("{}@k falls from k = {k1} to k = {k2}", metric.name()),
                source.to_string(),
                format!("mean over problems of {0}@{k2} - {0}@{k1}", metric.name()),
                Direction::Less,
                paired_evidence(curves, m, i, j),
            ));
        }
    }
    family
}

/// Runs `samples curves`: the report.
///
/// # Errors
///
/// As [`prepared_curves`].
pub fn curves_report(request: &CurvesRequest) -> Result<Report> {
    if let Some(shard) = request.shard {
        return Err(crate::Error::invalid(
            "--shard",
            "given to samples::shards::shard_report, which writes a shard's sums",
            shard,
        ));
    }
    let (input, curves) = curves_of(request)?;
    Ok(curves_report_of(request, &input, &curves))
}

/// Reads, checks and computes the curves of `request` (of its shard's problems with
/// `request.shard`), keeping only the sums over problems; the input summary is the whole
/// file's.
///
/// # Errors
///
/// As [`Source::read`] and [`curves::check_budgets`]; [`crate::Error::TooExpensive`] above
/// the budget.
pub fn curves_of(request: &CurvesRequest) -> Result<(InputSummary, Curves)> {
    let mut samples = request.source.read()?;
    let dropped = curves::check_budgets(&mut samples, &request.ks, request.drop_short)?;
    let input = InputSummary::of(&samples, dropped);
    if let Some(shard) = request.shard {
        input::select_shard(&mut samples, shard);
    }
    let metrics = Metric::of(&samples);
    check_cost(&samples, &metrics, &request.ks, request.exact)?;
    let task = crate::progress::Task::start(
        "samples curves",
        "problems",
        samples.problems.len() as u64,
        true,
    );
    let result = curves::compute_moments(
        &samples,
        &metrics,
        &request.ks,
        request.ties,
        request.exact,
        &|| task.advance(1),
    );
    task.clear();
    Ok((input, result?))
}

/// The report of `samples curves` from its curves (of every problem: one run, or the merged
/// sums of its shards) and the input summary.
pub fn curves_report_of(request: &CurvesRequest, input: &InputSummary, curves: &Curves) -> Report {
    let (best, falls) = best_and_falls(curves);
    let claims = fall_claims(curves, &input.source);
    let tested = claims.claims.len();
    let mut report = curves_manifest(request);
    report = report
        .with_table(curves_table(curves, input.problems))
        .with_table(best)
        .with_table(falls)
        .with_table(claims.table());
    report = report.note(input.note());
    report = report.note(METRICS_NOTE);
    report = report.note(
        "standard_error: the sample standard deviation of the per-problem values over sqrt(P) \
         (P problems); interval95: value +- 1.96 standard errors (normal approximation, over \
         the population of problems the file samples); the value itself is exact",
    );
    report = report.note(format!(
        "claims: {tested} claim{} that majority@k or best_of_k falls, each a two-sided normal \
         (Wald) test on the mean of the paired per-problem differences value(k2) - value(k1) \
         (the large-sample paired t-test), Holm within the family at 0.05",
        if tested == 1 { "" } else { "s" }
    ));
    if let Some(note) = rounding_note(&[curves]) {
        report = report.note(note);
    }
    report
}

/// The empty report of `samples curves` with its manifest: the parameters of `request`
/// (without the shard).
pub fn curves_manifest(request: &CurvesRequest) -> Report {
    let report = Report::new("samples curves", "Exact curves over the sampling budget k")
        .param("_", request.source.path.display())
        .param("k", ks_text(&request.ks))
        .param("ties", ties_name(request.ties))
        .param("drop_short", request.drop_short)
        .param("exact", request.exact)
        .mode(if request.exact { "exact" } else { "f64" });
    with_source_options(report, &request.source)
}

/// What every curves report says the metrics are.
pub const METRICS_NOTE: &str = "pass_at_k = mean of 1 - C(n-c,k)/C(n,k) (Chen et al. 2021); \
     pass_all = mean of C(c,k)/C(n,k); majority: plurality of the drawn answers (no answer \
     does not vote; none drawn is wrong); best_of_k: the drawn sample of the largest score, \
     ties uniform; each the exact expectation over all C(n,k) subsets of k of a problem's n \
     samples, averaged over problems";

/// The input summary note ([`InputSummary::note`]).
pub fn input_note(samples: &Samples, dropped: u64) -> String {
    InputSummary::of(samples, dropped).note()
}

/// The k list as the manifest records it.
pub fn ks_text(ks: &[u64]) -> String {
    ks.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

/// `--ties`'s value as the manifest records it.
pub fn ties_name(ties: Ties) -> &'static str {
    match ties {
        Ties::Uniform => "uniform",
        Ties::Wrong => "wrong",
    }
}

/// The tables `samples curves` prints (for `--table`).
pub const CURVES_TABLES: &[&str] = &["curves", "best", "falls", "claims"];

/// The file's name first among the manifest's parameters (the positional argument), the
/// input options after the report's own, and `--exact` when it was asked for: the manifest's
/// command then regenerates the report of a file.
fn with_file(mut report: Report, source: &Source, exact: bool) -> Report {
    report
        .manifest
        .parameters
        .insert(0, ("_".to_string(), source.path.display().to_string()));
    if report.manifest.parameter("exact").is_none() {
        report = report.param("exact", exact);
    }
    with_source_options(report, source)
}

/// Runs `samples fit`: the file read with [`Source::read`] (per-sample rows reduced to their
/// counts) and fitted by [`super::fit::fit_report`].
///
/// # Errors
///
/// As [`Source::read`] and [`super::fit::fit_report`].
pub fn fit_file_report(source: &Source, ks: &[u64], exact: bool) -> Result<Report> {
    let samples = source.read()?;
    let report = super::fit::fit_report(&samples.counts(), ks, exact)?;
    Ok(with_file(report, source, exact).note(input_note(&samples, 0)))
}

/// Runs `samples beyond`: the file read with [`Source::read`] (per-sample rows reduced to
/// their counts) and bounded by [`super::beyond::beyond_report`].
///
/// # Errors
///
/// As [`Source::read`] and [`super::beyond::beyond_report`].
pub fn beyond_file_report(
    source: &Source,
    ks: &[u64],
    moments: u32,
    replicates: u64,
    seed: u64,
    exact: bool,
) -> Result<Report> {
    let samples = source.read()?;
    let mut report =
        super::beyond::beyond_report(&samples.counts(), ks, moments, replicates, seed, exact)?;
    if replicates > 0 && report.manifest.seed.is_none() {
        report = report.seed(seed);
    }
    Ok(with_file(report, source, exact).note(input_note(&samples, 0)))
}
