//! **Layer 8, validation of a user's results.** May import every layer up to
//! [`crate::studies`]; not [`crate::plot`] or [`crate::reproduce`].
//!
//! Checking a researcher's own simulation results against the exact values.
//!
//! Input: CSV with a header and one row per estimate. Every row has `kind`, `estimate` (a
//! proportion in `[0, 1]`; or `successes` alone, the estimate then `successes / trials`) and
//! `trials` (a whole number in `1..=2^64-1`), plus the parameters of its kind, whose size
//! parameters may be named `h`, `d`, `b` or `height`, `depth`, `branching` in every kind:
//!
//! | kind | parameters | exact value |
//! |---|---|---|
//! | `dgame` | `h`, `d`, `f1`, and `f2` or `p0` | D(d,h) of Li & Marsland ([`crate::analytic::dgame`]) |
//! | `errprop` | `gamma`, `delta`, `f1`, `f2`, `steps`, `quantity` (`gamma` or `delta`), optional `from` (`max`, default, or `min`) | the error-propagation map iterated `steps` times ([`crate::analytic::errprop`]) |
//! | `rhf` | `w`, and optionally `xi` or `branching` (default `xi = w_2`) | Chi & Nau's rhf(w) ([`crate::analytic::closed_form`]) |
//! | `pgame` | `h`, `d`, optional `b` (default 2), `p` (default `w_b`), `evaluator` (`count`, default, or `artificial` with its error rate `e`) | D(d,h) of a P-game ([`crate::analytic::families`]) |
//! | `ngame` | `h`, `d`, optional `b` (default 2), `q` (default 1/2), `evaluator`, `e` | D(d,h) of an N-game ([`crate::analytic::families`]) |
//! | `bdgame` | `h`, `d`, `qk` and `rk` (`q_1;...;q_b`, each summing to 1), optional `b` (default 2), `evaluator`, `e` | D(d,h) of a b-ary D-game (Li & Marsland Definition 3.1, [`crate::analytic::families`]) |
//! | `crit` | `height`, `depth`, `gamma` (`G` or `G_MAX,G_MIN`), optional `branching` (default 2), `root_gamma`, `evaluator` (default `expected-playout`) and its parameters: `e`, `sigma`, `halfwidth`, `histogram` (a file, optional `histogram_fnv1a64`), `playout_formula`; `levels`, `range` | D(d) of Nguyen & Ramanujan's critical win-loss game ([`crate::analytic::distributions`]) |
//! | `mvpgame` | `height`, `depth`, `leaves` (`v1:p1,...`) or `p` (default `w_b`), optional `branching`, `evaluator` (`perfect`, `artificial`, `gaussian`, `uniform`, `histogram`; default `perfect`) and its parameters, `levels`, `range` | D(d,h) of a multi-valued P-game with an evaluation model ([`crate::analytic::distributions`]) |
//! | `sum` | `height`, `depth`, optional `branching` (default 2), `step` (`v1:p1,...`, default `1:1/2,-1:1/2`), `leaf` (default `0`), `terminal` (default 0), `outcome` (`value`, default, or `sign`), `evaluator` (`position`, default, `perfect`, `additive` with `noise`, `artificial` with `e`) | D(d,h) of a path-sum tree ([`crate::analytic::pathsum`]) |
//! | `pass_at_k`, `resample`, `best_of_n`, `vote`, `weighted_vote`, `lookahead`, `knockout`, `beam` | the options of `pathology inference` named with underscores, the list's value (`k`, `n`, `beams`, `r`, or `depth` alias `d`) and an optional `quantity` (module `inference`) | `pathology inference`'s value ([`crate::analytic::inference`]) |
//! | `samples` | `file`, `metric`, `k`, optional `ties`, `min_n`, the input options and `file_fnv1a64` (module `samples`) | the exact curve of `pathology samples curves` ([`crate::samples::curves`]) |
//!
//! The kinds `crit` and `mvpgame` name their columns as `pathology decision` names its
//! options (`root_gamma` for `--root-gamma`) and read them by the same rules
//! ([`crate::analytic::decision::GameOptions`]): a column of another evaluator is malformed,
//! as the option is refused. Their exact values are `pathology decision`'s in `f64`; for an
//! unbinned Gaussian or uniform evaluation that is the value at 1000 bins (the command prints
//! the change at 2000 bins as an estimate of the distance to the continuous limit). A
//! `histogram` is a path read from the current directory. `pathology mc distributions`
//! writes such rows. The kind `sum` reads its columns as `pathology decision --game sum`
//! reads its options (a column of another game or evaluator is malformed); its exact value
//! is that command's in `f64`; `pathology mc sum` writes such rows.
//!
//! Parameters are read as exact rationals (`0.1` is 1/10, `1/3` is 1/3); the exact values
//! are computed in `f64` with rigorous rounding bounds (below 1e-9 at every size allowed, far
//! below any sampling error). Columns may come in any order; columns a kind does not use
//! must be empty; lines starting with `#` are comments. The self-describing CSV and JSON of
//! `pathology mc dgame|errprop|rhf|distributions|sum|inference|samples` are read as they are: their further columns (`seed`,
//! `successes`, `estimate_lower`, `estimate_upper`, `exact`, `z`, `engine`, rhf's `p`,
//! `height`, `depth`, and `NAME_exact`, the exact form of parameter `NAME`, which is then
//! used and must agree with `NAME`) are read or checked but do not change the exact value
//! (`exact` is recomputed).
//!
//! **Malformed rows** are reported with their physical line number in the file (comment and
//! blank lines counted; the header is the first non-comment line) and reason, and the rest
//! are still checked; nothing is silently dropped. A row is malformed when a value is
//! missing or out of range, when it gives two alternative parameters (`f2` and `p0`; `xi`
//! and `branching`; `e` with the piece count), a value in a column its kind does not read,
//! or more fields than the header, and when its estimate is impossible for its trial count:
//! a decimal estimate with m places must lie within half a unit of its last place
//! (`0.5 * 10^-m`) plus `2^-52` of some `k / trials` (so `0.3333` from 3 trials is 1/3, but
//! 0.6 from 1 trial is refused), a fraction must equal some `k / trials`, and a `successes`
//! column must be that k.
//!
//! **Cost.** Rows with the same family, parameters and height share one exact D(., h)
//! column, computed once. The whole file's cost (the sum over its distinct columns of the
//! estimates of [`crate::analytic::dgame::estimate_cost`] and [`crate::analytic::families::estimate_cost`]) is
//! estimated before any column is computed, and a file over the tool's limits (about a
//! minute, 16 GiB) is refused up front with the estimate; a single column over them makes
//! its rows malformed.
//!
//! For each row the tool computes the exact value `p`, the score statistic
//! `z = (estimate - p) / sqrt(p (1 - p) / trials)` (the variance under the null hypothesis
//! that the simulation estimates `p`), and its two-sided normal p-value. Over all rows it
//! applies **Holm's step-down correction** for multiple testing (family-wise error rate at
//! level `alpha`), and reports each row's verdict both uncorrected and corrected.
//!
//! Memory is bounded: a line may hold at most [`MAX_LINE_BYTES`] bytes and a file at most
//! [`MAX_ROWS`] rows (both refused with a clear error beyond that).

use std::collections::HashMap;
use std::io::Read;

use num_rational::BigRational;
use serde::Serialize;

use crate::analytic::closed_form::{rhf, w_b};
use crate::analytic::decision::GameOptions;
use crate::analytic::dgame::{DependenceFactors, Solver, check_cost, f2_from_p0};
use crate::analytic::distributions::request::DistributionRequest;
use crate::analytic::errprop::{BackUp, ErrorPair, trajectory};
use crate::analytic::families::report::solve;
use crate::analytic::families::{
    BaryDGame, Evaluator, Family, MAX_BRANCHING, MAX_HEIGHT, NGame, PGame,
};
use crate::analytic::pathsum::report::parameters as pathsum_parameters;
use crate::analytic::pathsum::{MAX_HEIGHT as PATHSUM_MAX_HEIGHT, PathSumGame, pathsum_column};
use crate::budget::Cost;
use crate::error::{Error, Result};
use crate::numeric::number::{Probability, parse_rational};
use crate::studies::crossval::pathsum_report::game_from_parameters;

/// The longest line accepted.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// The most data rows accepted.
pub const MAX_ROWS: usize = 1_000_000;

/// The verdict on one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Consistent with the exact value at the chosen level.
    Agrees,
    /// The estimate differs significantly from the exact value.
    Disagrees,
}

/// One checked row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckedRow {
    /// The physical line number in the file (comment and blank lines counted).
    pub line: u64,
    /// `dgame`, `errprop`, `rhf`, `pgame`, `ngame`, `bdgame`, `crit`, `mvpgame` or `sum`.
    pub kind: String,
    /// The parameters as read, `name=value` separated by spaces.
    pub parameters: String,
    /// The simulated estimate.
    pub estimate: f64,
    /// Its number of trials.
    pub trials: u64,
    /// The exact value.
    pub exact: f64,
    /// The score statistic.
    pub z: f64,
    /// The two-sided p-value.
    pub p_value: f64,
    /// The verdict at level alpha without correction.
    pub verdict: Verdict,
    /// Holm's adjusted p-value.
    pub holm_p_value: f64,
    /// The verdict at level alpha with Holm's correction.
    pub holm_verdict: Verdict,
}

/// A row that could not be checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RowError {
    /// The line number in the file.
    pub line: u64,
    /// Why.
    pub reason: String,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The significance level.
    pub alpha: f64,
    /// The checked rows, in file order.
    pub rows: Vec<CheckedRow>,
    /// The malformed rows, in file order.
    pub errors: Vec<RowError>,
}

impl Report {
    /// Rows that disagree without correction.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::validate::validate;
    /// let csv = "kind,h,d,f1,f2,estimate,trials\n\
    ///            dgame,10,1,0.1,0.1,0.61,10000\n\
    ///            dgame,10,1,0.1,0.1,0.70,10000\n";
    /// let report = validate(csv.as_bytes(), 0.05).unwrap();
    /// assert_eq!(report.rows.len(), 2);
    /// assert_eq!(report.disagreeing(), 1); // 0.70 is far from D(1,10) = 0.608
    /// ```
    pub fn disagreeing(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.verdict == Verdict::Disagrees)
            .count()
    }

    /// Rows that disagree after Holm's correction.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::validate::validate;
    /// let csv = "kind,h,d,f1,f2,estimate,trials\n\
    ///            dgame,10,1,0.1,0.1,0.61,10000\n\
    ///            dgame,10,1,0.1,0.1,0.70,10000\n";
    /// let report = validate(csv.as_bytes(), 0.05).unwrap();
    /// assert_eq!(report.holm_disagreeing(), 1);
    /// assert!(report.holm_disagreeing() <= report.disagreeing()); // Holm only removes rejections
    /// ```
    pub fn holm_disagreeing(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.holm_verdict == Verdict::Disagrees)
            .count()
    }

    /// A one-paragraph summary.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::validate::validate;
    /// let csv = "kind,h,d,f1,f2,estimate,trials\n\
    ///            dgame,10,1,0.1,0.1,0.61,10000\n\
    ///            dgame,10,1,0.1,0.1,0.70,10000\n";
    /// let report = validate(csv.as_bytes(), 0.05).unwrap();
    /// assert!(report.summary().starts_with("2 rows checked, 0 malformed; at level 0.05: 1 disagree"));
    /// ```
    pub fn summary(&self) -> String {
        format!(
            "{} row{} checked, {} malformed; at level {}: {} disagree without correction, {} \
             with Holm's step-down correction (family-wise error rate {})",
            self.rows.len(),
            if self.rows.len() == 1 { "" } else { "s" },
            self.errors.len(),
            self.alpha,
            self.disagreeing(),
            self.holm_disagreeing(),
            self.alpha
        )
    }
}

/// Validates simulation results read from `input` (CSV with a header).
///
/// # Examples
///
/// ```
/// use pathology::validate::{Verdict, validate};
/// let csv = "kind,h,d,f1,f2,estimate,trials\n\
///            dgame,10,1,0.1,0.1,0.6076,100000\n\
///            dgame,10,1,0.1,0.1,0.6300,100000\n";
/// let report = validate(csv.as_bytes(), 0.05).unwrap();
/// assert_eq!(report.rows[0].holm_verdict, Verdict::Agrees);
/// assert_eq!(report.rows[1].holm_verdict, Verdict::Disagrees);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] when `alpha` is outside `(0, 1)`, the input is empty, lacks a
/// `kind`, `estimate` or `trials` column, is not UTF-8 CSV, has a line longer than
/// [`MAX_LINE_BYTES`] or more than [`MAX_ROWS`] rows. Problems of single rows are reported in
/// [`Report::errors`] instead.
pub fn validate<R: Read>(input: R, alpha: f64) -> Result<Report> {
    validate_with_files(input, alpha, &[])
}

/// [`validate`], the `samples` rows' files named in `files` read from the texts given
/// (`pathology reproduce` checks its example data so, wherever it runs).
///
/// # Examples
///
/// ```
/// use pathology::validate::validate_with_files;
/// let rows = "kind,file,metric,k,successes,trials\nsamples,mine.csv,pass_at_k,2,50,100\n";
/// let files = [("mine.csv", "problem,c,n\na,1,4\n")]; // pass@2 = 1/2 exactly
/// let report = validate_with_files(rows.as_bytes(), 0.05, &files).unwrap();
/// assert_eq!((report.rows[0].exact, report.rows[0].z), (0.5, 0.0));
/// ```
///
/// # Errors
///
/// As [`validate`].
pub fn validate_with_files<R: Read>(
    input: R,
    alpha: f64,
    files: &[(&str, &str)],
) -> Result<Report> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::invalid("--alpha", "in (0, 1)", alpha));
    }
    let _files = samples::FileCache::with(files);
    // Fields are trimmed by hand (not by the reader) so that the newlines inside a quoted
    // field can be counted for the line numbers. Records end at `\n` only (a `\r` before it
    // is trimmed with the field), and a final newline is appended so that every record ends
    // with one.
    let read = std::rc::Rc::new(std::cell::Cell::new(None));
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .comment(Some(b'#'))
        .trim(csv::Trim::Headers)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_reader(LineGuard::new(input.chain(&b"\n"[..]), read.clone()));
    let raw_header: Vec<String> = reader
        .headers()
        .map_err(|e| input_error(&e))?
        .iter()
        .map(str::to_string)
        .collect();
    if read.get() == Some(reader.position().byte()) && raw_header.iter().any(|h| h.contains('\n')) {
        return Err(Error::invalid(
            "input",
            "a header whose quotes (\") are closed",
            "a quote in the header that is never closed (the whole file was read as the header)",
        ));
    }
    let header: Vec<String> = raw_header.iter().map(|h| h.to_ascii_lowercase()).collect();
    // Column names are read without regard to case, so `d` and `D` (or two `f2`) would name
    // one parameter twice and one of them would silently win: refused.
    for (i, name) in header.iter().enumerate() {
        if name.is_empty() {
            continue;
        }
        if let Some(j) = header[..i].iter().position(|h| h == name) {
            return Err(Error::invalid(
                "input",
                "a header whose column names are distinct (ignoring case)",
                format!(
                    "columns {} and {} (both read as '{name}')",
                    raw_header[j], raw_header[i]
                ),
            ));
        }
    }
    if header.iter().all(|h| h.is_empty()) {
        return Err(Error::invalid(
            "input",
            "a CSV file with a header row",
            "an empty file",
        ));
    }
    for required in ["kind", "estimate", "trials"] {
        // `successes` (with `trials`) says what `estimate` does: either is enough.
        let alternative = (required == "estimate").then_some("successes");
        if !header
            .iter()
            .any(|h| h == required || Some(h.as_str()) == alternative)
        {
            let wanted = match alternative {
                Some(other) => {
                    format!("a header with an '{required}' column (or a '{other}' column)")
                }
                None => format!("a header with a '{required}' column"),
            };
            return Err(Error::invalid(
                "input",
                &wanted,
                format!("columns {}", header.join(",")),
            ));
        }
    }
    // Pass 1: parse every row (cheap), collecting the distinct exact columns it needs.
    let mut parsed = Vec::new();
    let mut errors = Vec::new();
    let mut record = csv::StringRecord::new();
    let mut count = 0usize;
    loop {
        // The reader skips comment and blank lines before a record without reporting them
        // in the record's position; the position after the record is exact. A record ends
        // with its newline (one is appended to the input), so it starts `1 + (newlines
        // inside its quoted fields)` lines before that.
        let result = reader.read_record(&mut record);
        let end = reader.position().line();
        let more = match result {
            Ok(more) => more,
            Err(e) => {
                if matches!(e.kind(), csv::ErrorKind::Io(_)) {
                    return Err(input_error(&e));
                }
                errors.push(RowError {
                    line: end.saturating_sub(1).max(1),
                    reason: e.to_string(),
                });
                continue;
            }
        };
        if !more {
            break;
        }
        let inner = record
            .iter()
            .map(|f| f.bytes().filter(|&b| b == b'\n').count() as u64)
            .sum::<u64>();
        // The appended newline ends every record, unless a quote left open swallowed it: the
        // record then runs to the end of the input (every byte read, the last read empty),
        // and starts `inner` lines before its end (it has no terminating newline).
        if read.get() == Some(reader.position().byte()) {
            errors.push(RowError {
                line: end.saturating_sub(inner).max(1),
                reason: "a quote (\") opened on this line is never closed: the rest of the file \
                         was read as one field"
                    .to_string(),
            });
            continue;
        }
        let line = end.saturating_sub(1 + inner).max(1);
        count += 1;
        if count > MAX_ROWS {
            return Err(Error::invalid(
                "input",
                &format!("at most {MAX_ROWS} rows (split larger files)"),
                format!("more rows (line {line})"),
            ));
        }
        if record.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        match parse_row(line, &header, &record) {
            Ok(row) => parsed.push(row),
            Err(reason) => errors.push(RowError { line, reason }),
        }
    }
    if parsed.is_empty() && errors.is_empty() {
        return Err(Error::invalid(
            "input",
            "at least one row of results below the header",
            "a header and no rows",
        ));
    }
    // The whole file's cost, before any exact column is computed.
    let mut groups: HashMap<ColumnKey, Vec<usize>> = HashMap::new();
    let mut order = Vec::new();
    for (i, row) in parsed.iter().enumerate() {
        if let Target::Column { key, .. } = &row.target {
            let entry = groups.entry(key.clone()).or_default();
            if entry.is_empty() {
                order.push(key.clone());
            }
            entry.push(i);
        }
    }
    let mut refused: HashMap<ColumnKey, String> = HashMap::new();
    let mut total = Cost {
        seconds: 0.0,
        bytes: 0.0,
    };
    for key in &order {
        match key.check_cost() {
            Ok(cost) => {
                total.seconds += cost.seconds;
                total.bytes = total.bytes.max(cost.bytes);
            }
            Err(e) => {
                refused.insert(key.clone(), e.to_string());
            }
        }
    }
    // The inference rows, each computed alone: a row over the limits is refused by itself
    // (its row reason), the others add up.
    let mut inference_rows = 0usize;
    for row in &mut parsed {
        if let Target::Inference { estimate, .. } = &row.target {
            if estimate.cost.exceeds_limits() {
                let reason = estimate.cost.refusal(estimate.what.clone(), estimate.hint);
                row.target = Target::Refused(reason.to_string());
            } else {
                inference_rows += 1;
                total.seconds += estimate.cost.seconds;
                total.bytes = total.bytes.max(estimate.cost.bytes);
            }
        }
    }
    if total.exceeds_limits() {
        return Err(total.refusal(
            format!(
                "validating {} rows ({} distinct exact D(.,h) columns, each computed once{})",
                parsed.len(),
                order.len() - refused.len(),
                if inference_rows > 0 {
                    format!(", and {inference_rows} values of `pathology inference`")
                } else {
                    String::new()
                }
            ),
            "Split the file, or use fewer distinct parameter settings or smaller heights.",
        ));
    }
    crate::budget::announce_estimate(&format!("validating {} rows", parsed.len()), total.seconds);
    // Pass 2: one exact column per distinct setting, shared by all its rows.
    let mut exact: Vec<Option<std::result::Result<f64, String>>> = Vec::new();
    for row in &mut parsed {
        exact.push(
            match std::mem::replace(&mut row.target, Target::Value(f64::NAN)) {
                Target::Value(v) => Some(Ok(v)),
                Target::Refused(reason) => Some(Err(reason)),
                Target::Inference { compute, .. } => Some(compute()),
                column @ Target::Column { .. } => {
                    row.target = column;
                    None
                }
            },
        );
    }
    for key in &order {
        let column = match refused.remove(key) {
            Some(reason) => Err(reason),
            None => key.column().map_err(|e| e.to_string()),
        };
        for &i in &groups[key] {
            let Target::Column { d, .. } = parsed[i].target else {
                unreachable!("grouped rows are column rows")
            };
            exact[i] = Some(match &column {
                Ok(values) => Ok(values[d as usize - 1]),
                Err(reason) => Err(reason.clone()),
            });
        }
    }
    let mut rows = Vec::new();
    for (row, value) in parsed.into_iter().zip(exact) {
        match value.expect("every row has its value") {
            Ok(exact) if !exact.is_finite() || !(0.0..=1.0).contains(&exact) => {
                errors.push(RowError {
                    line: row.line,
                    reason: format!("no usable exact value (computed {exact})"),
                });
            }
            Ok(exact) => {
                let z = crate::sim::stats::proportion_z(row.estimate, exact, row.trials);
                let p_value = two_sided_p(z);
                rows.push(CheckedRow {
                    line: row.line,
                    kind: row.kind,
                    parameters: row.parameters,
                    estimate: row.estimate,
                    trials: row.trials,
                    exact,
                    z,
                    p_value,
                    verdict: Verdict::Agrees,
                    holm_p_value: p_value,
                    holm_verdict: Verdict::Agrees,
                });
            }
            Err(reason) => errors.push(RowError {
                line: row.line,
                reason,
            }),
        }
    }
    errors.sort_by_key(|e| e.line);
    apply_holm(&mut rows, alpha);
    Ok(Report {
        alpha,
        rows,
        errors,
    })
}

fn input_error(e: &csv::Error) -> Error {
    Error::invalid("input", "UTF-8 CSV with lines of at most 65536 bytes", e)
}

/// A row that parsed: its exact value is known, or is one entry of a column to compute.
struct ParsedRow {
    line: u64,
    kind: String,
    parameters: String,
    estimate: f64,
    trials: u64,
    target: Target,
}

enum Target {
    /// Already computed (errprop, rhf: cheap closed forms).
    Value(f64),
    /// A value of `pathology inference` (or a `samples` curve's), computed alone after the
    /// whole file's estimate.
    Inference {
        estimate: crate::analytic::inference::Estimate,
        compute: inference::Compute,
    },
    /// `D(d, h)` of a column shared by every row with the same key.
    Column { key: ColumnKey, d: u32 },
    /// A value whose computation is refused (the row's reason).
    Refused(String),
}

/// One exact D(., h) column: a family with its parameters (as exact rationals), an
/// evaluator and a height.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum ColumnKey {
    /// Li & Marsland's binary D-game (kind `dgame`).
    DGame {
        h: u32,
        f1: BigRational,
        f2: BigRational,
    },
    /// The families of [`crate::analytic::families`] (kinds `pgame`, `ngame`, `bdgame`).
    Exact {
        game: GameKey,
        /// `None` for the piece count, else the artificial evaluator's error rate.
        error: Option<BigRational>,
        h: u32,
    },
    /// Evaluations as distributions (kinds `crit`, `mvpgame`): every depth, in f64.
    Distributions(Box<DistributionRequest>),
    /// Path-sum trees (kind `sum`): every depth, in f64.
    PathSum(SumKey),
}

/// A path-sum game, keyed by its parameters' text (the laws as exact rationals).
#[derive(Debug, Clone)]
struct SumKey {
    text: String,
    game: Box<PathSumGame>,
}

impl PartialEq for SumKey {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for SumKey {}

impl std::hash::Hash for SumKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum GameKey {
    /// `p = None` is the default `w_b` (irrational: computed in f64).
    P {
        b: u32,
        p: Option<BigRational>,
    },
    N {
        b: u32,
        q: BigRational,
    },
    D {
        b: u32,
        qk: Vec<BigRational>,
        rk: Vec<BigRational>,
    },
}

impl GameKey {
    /// The family in f64 (the parameters were validated in rationals when parsed).
    fn family(&self) -> Result<Family<f64>> {
        Ok(match self {
            GameKey::P { b, p: Some(p) } => Family::P(PGame::new(*b, p.to_f64())?),
            GameKey::P { b, p: None } => Family::P(PGame::pearl(*b)?),
            GameKey::N { b, q } => Family::N(NGame::new(*b, q.to_f64())?),
            GameKey::D { b, qk, rk } => Family::D(BaryDGame::new(
                *b,
                qk.iter().map(Probability::to_f64).collect(),
                rk.iter().map(Probability::to_f64).collect(),
            )?),
        })
    }
}

impl ColumnKey {
    fn evaluator(error: &Option<BigRational>) -> Evaluator<f64> {
        match error {
            None => Evaluator::Count,
            Some(e) => Evaluator::Artificial { error: e.to_f64() },
        }
    }

    /// The estimated cost, or the refusal of this column alone.
    fn check_cost(&self) -> Result<Cost> {
        match self {
            ColumnKey::DGame { h, .. } => check_cost(*h, None),
            ColumnKey::Exact { game, error, h } => {
                let family = game.family()?;
                let evaluator = Self::evaluator(error);
                let cost = crate::analytic::families::check_cost(&family, &evaluator, *h)?;
                // Binary D-games with the piece count go to Li & Marsland's engine.
                Ok(match (&family, &evaluator) {
                    (Family::D(g), Evaluator::Count) if g.branching() == 2 => {
                        crate::analytic::dgame::estimate_cost(*h, None)
                    }
                    _ => cost,
                })
            }
            ColumnKey::Distributions(request) => {
                let cost = request.estimate_cost()?;
                if cost.exceeds_limits() {
                    return Err(cost.refusal(
                        format!("the exact D(.,{}) column of this row", request.height),
                        "Use a smaller height, branching factor or --levels.",
                    ));
                }
                Ok(cost)
            }
            ColumnKey::PathSum(key) => {
                let depths: Vec<u32> = (1..=key.game.height).collect();
                let cost = crate::analytic::pathsum::estimate_cost(&key.game, &depths, false)?;
                if cost.exceeds_limits() {
                    return Err(cost.refusal(
                        format!("the exact D(.,{}) column of this row", key.game.height),
                        "Use a smaller height, branching factor or coarser laws.",
                    ));
                }
                Ok(cost)
            }
        }
    }

    /// `D(d, h)` for `d = 1..=h` in f64 (rigorous rounding bounds far below any sampling
    /// error: about 1e-10 at the largest sizes allowed).
    fn column(&self) -> Result<Vec<f64>> {
        match self {
            ColumnKey::DGame { h, f1, f2 } => {
                let factors = DependenceFactors::new(f1.to_f64(), f2.to_f64())?;
                Ok(Solver::new(factors).decision_column(*h)?.values)
            }
            ColumnKey::Exact { game, error, h } => {
                let family = game.family()?;
                let column = solve(&family, &Self::evaluator(error), *h)?;
                // A z-score needs the exact value far more precisely than a sampling error:
                // a value whose f64 bound is wide is reported, never compared.
                if let Some(worst) = column
                    .error_bounds
                    .iter()
                    .copied()
                    .find(|b| b.is_nan() || *b > MAX_EXACT_BOUND)
                {
                    return Err(Error::invalid(
                        "h",
                        &format!(
                            "small enough that the exact value's f64 rounding bound stays below {MAX_EXACT_BOUND:e} (it is {worst:.3e} here)"
                        ),
                        h,
                    ));
                }
                Ok(column.values)
            }
            ColumnKey::Distributions(request) => Ok(request
                .outcome::<f64>()?
                .column
                .rows
                .iter()
                .map(|r| r.decision.value)
                .collect()),
            ColumnKey::PathSum(key) => {
                let depths: Vec<u32> = (1..=key.game.height).collect();
                let column = pathsum_column::<f64>(&key.game, &depths)?;
                if let Some(worst) = column
                    .rows
                    .iter()
                    .map(|r| r.bounds[0])
                    .find(|b| b.is_nan() || *b > MAX_EXACT_BOUND)
                {
                    return Err(Error::invalid(
                        "height",
                        &format!(
                            "small enough that the exact value's f64 rounding bound stays below {MAX_EXACT_BOUND:e} (it is {worst:.3e} here)"
                        ),
                        key.game.height,
                    ));
                }
                Ok(column.rows.iter().map(|r| r.decision).collect())
            }
        }
    }
}

type RowResult<T> = std::result::Result<T, String>;

/// The columns of a row, by header name (empty values left out).
type Fields<'a> = HashMap<&'a str, &'a str>;

fn field<'a>(fields: &Fields<'a>, name: &str) -> RowResult<&'a str> {
    fields
        .get(name)
        .copied()
        .ok_or_else(|| format!("missing value in column '{name}'"))
}

fn probability(fields: &Fields, name: &str) -> RowResult<BigRational> {
    let text = field(fields, name)?;
    let value = parse_rational(text).map_err(|e| format!("column '{name}': {e}"))?;
    let (zero, one) = (
        BigRational::from_integer(0.into()),
        BigRational::from_integer(1.into()),
    );
    if value < zero || value > one {
        return Err(format!("column '{name}' must be in [0, 1], got {text}"));
    }
    // The self-describing output of `pathology mc` prints a parameter twice: as a decimal
    // and, in `NAME_exact`, as the exact rational. The exact one wins; both must agree.
    if let Some(exact_text) = fields.get(format!("{name}_exact").as_str()) {
        let exact =
            parse_rational(exact_text).map_err(|e| format!("column '{name}_exact': {e}"))?;
        if exact != value && exact.to_f64() != value.to_f64() {
            return Err(format!(
                "columns '{name}' ({text}) and '{name}_exact' ({exact_text}) disagree"
            ));
        }
        return Ok(exact);
    }
    Ok(value)
}

fn whole(fields: &Fields, name: &str, range: std::ops::RangeInclusive<u64>) -> RowResult<u64> {
    let text = field(fields, name)?;
    let allowed = format!("{}..={}", range.start(), range.end());
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "column '{name}' must be a whole number in {allowed}, got '{text}'"
        ));
    }
    match digits.parse::<u64>() {
        Ok(value) if range.contains(&value) => Ok(value),
        _ => Err(format!("column '{name}' must be in {allowed}, got {text}")),
    }
}

/// The widest f64 rounding bound of an exact value that validate compares with an estimate.
const MAX_EXACT_BOUND: f64 = 1e-6;

fn parse_row(line: u64, header: &[String], record: &csv::StringRecord) -> RowResult<ParsedRow> {
    if record.len() > header.len() {
        return Err(format!(
            "{} fields but the header has {} columns (an extra field: '{}')",
            record.len(),
            header.len(),
            record.get(header.len()).unwrap_or_default().trim()
        ));
    }
    let fields: Fields = header
        .iter()
        .map(String::as_str)
        .zip(record.iter().map(str::trim))
        .filter(|(_, v)| !v.is_empty())
        .collect();
    let kind = field(&fields, "kind")?.to_ascii_lowercase();
    let Some((columns, extras)) = kind_columns(&kind) else {
        return Err(format!(
            "unknown kind '{kind}' (expected {}; validate reads the CSV and JSON of \
             `pathology mc dgame`, `errprop`, `rhf`, `distributions`, `sum` and `inference` as \
             they are; \
             the other `mc` outputs, such as `mc emm`'s, print their exact values and z-scores \
             themselves)",
            kinds_in_words()
        ));
    };
    let fields = canonical_fields(&kind, fields)?;
    // A value in a column the kind does not read is refused, never silently ignored.
    let mut unknown: Vec<&str> = header
        .iter()
        .map(|name| canonical(&kind, name))
        .filter(|name| fields.contains_key(name))
        .filter(|name| {
            !(OUTPUT_COLUMNS.contains(name)
                || columns.contains(name)
                || extras.contains(name)
                || name
                    .strip_suffix("_exact")
                    .is_some_and(|p| columns.contains(&p)))
        })
        .collect();
    unknown.dedup();
    if !unknown.is_empty() {
        return Err(format!(
            "column{} '{}' {} not a parameter of kind '{kind}' (its parameters: {})",
            if unknown.len() > 1 { "s" } else { "" },
            unknown.join("', '"),
            if unknown.len() > 1 { "are" } else { "is" },
            columns.join(", ")
        ));
    }
    let trials = whole(&fields, "trials", 1..=u64::MAX)?;
    let estimate = estimate_of(&fields, trials)?;
    let (parameters, target) = match kind.as_str() {
        "dgame" => dgame_target(&fields)?,
        "errprop" => errprop_value(&fields)?,
        "rhf" => rhf_value(&fields)?,
        "crit" | "mvpgame" => distributions_target(&kind, columns, &fields)?,
        "sum" => sum_target(&fields)?,
        "pass_at_k" | "resample" | "best_of_n" | "vote" | "weighted_vote" | "lookahead"
        | "knockout" | "beam" => inference::inference_value(&kind, &fields)?,
        "samples" => samples::samples_value(&fields)?,
        _ => exact_target(&kind, &fields)?,
    };
    Ok(ParsedRow {
        line,
        kind,
        parameters,
        estimate,
        trials,
        target,
    })
}

/// The estimate, checked to be a proportion `k / trials` for a whole `k`, as printed, and,
/// when a `successes` column is present (the output of `pathology mc`), that k
/// ([`crate::sim::stats::check_printed_proportion`], the check `merge` applies to shards).
fn estimate_of(fields: &Fields, trials: u64) -> RowResult<f64> {
    if !fields.contains_key("estimate") && fields.contains_key("successes") {
        // `successes` and `trials` alone: the estimate is their ratio.
        let successes = whole(fields, "successes", 0..=trials)?;
        return Ok(successes as f64 / trials as f64);
    }
    let value = probability(fields, "estimate")?;
    let text = field(fields, "estimate")?;
    let successes = if fields.contains_key("successes") {
        Some(whole(fields, "successes", 0..=trials)?)
    } else {
        None
    };
    crate::sim::stats::check_printed_proportion(text, &value, trials, successes)?;
    Ok(value.to_f64())
}

/// Two columns that say the same thing differently: giving both is a conflict.
fn alternatives(fields: &Fields, first: &str, second: &str) -> RowResult<()> {
    if fields.contains_key(first) && fields.contains_key(second) {
        return Err(format!(
            "columns '{first}' and '{second}' are alternatives: give one, not both (the \
             command-line options refuse the same pair)"
        ));
    }
    Ok(())
}

fn dgame_target(fields: &Fields) -> RowResult<(String, Target)> {
    let h = whole(fields, "h", 1..=24)? as u32;
    let d = whole(fields, "d", 1..=u64::from(h))? as u32;
    let f1 = probability(fields, "f1")?;
    alternatives(fields, "f2", "p0")?;
    let f2 = match (fields.get("f2"), fields.get("p0")) {
        (Some(_), _) => probability(fields, "f2")?,
        (None, Some(_)) => {
            f2_from_p0(&f1, &probability(fields, "p0")?).map_err(|e| e.to_string())?
        }
        (None, None) => return Err("missing value in column 'f2' (or 'p0')".to_string()),
    };
    DependenceFactors::new(f1.to_f64(), f2.to_f64()).map_err(|e| e.to_string())?;
    Ok((
        format!("h={h} d={d} f1={} f2={}", short(&f1), short(&f2)),
        Target::Column {
            key: ColumnKey::DGame { h, f1, f2 },
            d,
        },
    ))
}

/// A list of rationals separated by `;` (or `,` inside a quoted field).
fn rational_list(fields: &Fields, name: &str) -> RowResult<Vec<BigRational>> {
    field(fields, name)?
        .split([';', ','])
        .map(|t| parse_rational(t.trim()).map_err(|e| format!("column '{name}': {e}")))
        .collect()
}

fn list_text(values: &[BigRational]) -> String {
    values.iter().map(short).collect::<Vec<_>>().join(";")
}

/// `pgame`, `ngame`, `bdgame`: the families of [`crate::analytic::families`].
fn exact_target(kind: &str, fields: &Fields) -> RowResult<(String, Target)> {
    let b = match fields.get("b") {
        Some(_) => whole(fields, "b", 2..=u64::from(MAX_BRANCHING))? as u32,
        None => 2,
    };
    let h = whole(fields, "h", 1..=u64::from(MAX_HEIGHT))? as u32;
    let d = whole(fields, "d", 1..=u64::from(h))? as u32;
    let evaluator = fields
        .get("evaluator")
        .map_or("count".to_string(), |s| s.to_ascii_lowercase());
    let error = match evaluator.as_str() {
        "count" => {
            if fields.contains_key("e") {
                return Err(
                    "column 'e' is the artificial evaluator's error rate, but evaluator is count"
                        .to_string(),
                );
            }
            None
        }
        "artificial" => Some(probability(fields, "e")?),
        other => {
            return Err(format!(
                "column 'evaluator' must be count or artificial, got '{other}'"
            ));
        }
    };
    let (game, text) = match kind {
        "pgame" => match fields.get("p") {
            Some(_) => {
                let p = probability(fields, "p")?;
                let text = format!("p={}", short(&p));
                (GameKey::P { b, p: Some(p) }, text)
            }
            None => (GameKey::P { b, p: None }, format!("p=w_{b}")),
        },
        "ngame" => {
            let q = match fields.get("q") {
                Some(_) => probability(fields, "q")?,
                None => BigRational::new(1.into(), 2.into()),
            };
            let text = format!("q={}", short(&q));
            (GameKey::N { b, q }, text)
        }
        _ => {
            let (qk, rk) = (rational_list(fields, "qk")?, rational_list(fields, "rk")?);
            // Validated in exact rationals: the q_k and r_k must sum to exactly 1.
            BaryDGame::new(b, qk.clone(), rk.clone()).map_err(|e| e.to_string())?;
            let text = format!("qk={} rk={}", list_text(&qk), list_text(&rk));
            (GameKey::D { b, qk, rk }, text)
        }
    };
    game.family().map_err(|e| e.to_string())?;
    let evaluator_text = match &error {
        None => "evaluator=count".to_string(),
        Some(e) => format!("evaluator=artificial e={}", short(e)),
    };
    Ok((
        format!("b={b} h={h} d={d} {text} {evaluator_text}"),
        Target::Column {
            key: ColumnKey::Exact { game, error, h },
            d,
        },
    ))
}

/// `crit` and `mvpgame`: the distributions engine, the row read as the command line's
/// options (a `NAME_exact` column replaces `NAME`, and must agree with it).
fn distributions_target(
    kind: &str,
    parameters: &[&str],
    fields: &Fields,
) -> RowResult<(String, Target)> {
    let height = whole(fields, "height", 1..=64)? as u32;
    let depth = whole(fields, "depth", 1..=u64::from(height))? as u32;
    let mut pairs: Vec<(&str, String)> = vec![(
        "game",
        if kind == "crit" { "crit" } else { "p" }.to_string(),
    )];
    for &name in parameters.iter().filter(|n| **n != "depth") {
        let exact = format!("{name}_exact");
        let value = match (fields.get(name), fields.get(exact.as_str())) {
            (Some(plain), Some(exact_text)) => {
                let (a, b) = (parse_rational(plain), parse_rational(exact_text));
                match (a, b) {
                    (Ok(a), Ok(b)) if a == b || a.to_f64() == b.to_f64() => exact_text.to_string(),
                    _ => {
                        return Err(format!(
                            "columns '{name}' ({plain}) and '{exact}' ({exact_text}) disagree"
                        ));
                    }
                }
            }
            (Some(v), None) | (None, Some(v)) => v.to_string(),
            (None, None) => continue,
        };
        pairs.push((name, value));
    }
    if kind == "mvpgame" && !fields.contains_key("evaluator") {
        pairs.push(("evaluator", "perfect".to_string()));
    }
    let options = GameOptions::from_parameters(pairs.iter().map(|(n, v)| (*n, v.as_str())))
        .map_err(|e| e.to_string())?;
    let request = options.distribution_request().map_err(|e| e.to_string())?;
    // The engine's own checks of the game and the model (cheap), before the cost is counted.
    request
        .evaluation::<f64>()
        .and_then(|_| request.critical_game::<f64>().map(|_| ()))
        .and_then(|()| request.pgame::<f64>().map(|_| ()))
        .map_err(|e| e.to_string())?;
    let text = request
        .parameters()
        .iter()
        .filter(|(n, _)| n != "game")
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(" ");
    Ok((
        format!("{text} depth={depth}"),
        Target::Column {
            key: ColumnKey::Distributions(Box::new(request)),
            d: depth,
        },
    ))
}

/// `sum`: the path-sum engine, the row read as `pathology decision --game sum`'s options.
fn sum_target(fields: &Fields) -> RowResult<(String, Target)> {
    let height = whole(fields, "height", 1..=u64::from(PATHSUM_MAX_HEIGHT))? as u32;
    let depth = whole(fields, "depth", 1..=u64::from(height))? as u32;
    let pairs = SUM_COLUMNS
        .iter()
        .filter(|n| **n != "depth")
        .filter_map(|&n| fields.get(n).map(|v| (n, *v)));
    let game = game_from_parameters(pairs).map_err(|e| e.to_string())?;
    let text = pathsum_parameters(&game)
        .iter()
        .filter(|(n, _)| n != "game")
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(" ");
    Ok((
        format!("{text} depth={depth}"),
        Target::Column {
            key: ColumnKey::PathSum(SumKey {
                text,
                game: Box::new(game),
            }),
            d: depth,
        },
    ))
}

fn short(value: &BigRational) -> String {
    crate::numeric::number::short_text(value)
}

fn errprop_value(fields: &Fields) -> RowResult<(String, Target)> {
    let gamma = probability(fields, "gamma")?;
    let delta = probability(fields, "delta")?;
    let f1 = probability(fields, "f1")?;
    let f2 = probability(fields, "f2")?;
    let steps = whole(fields, "steps", 0..=10_000)? as u32;
    let quantity = field(fields, "quantity")?.to_ascii_lowercase();
    let from = match fields.get("from").map(|s| s.to_ascii_lowercase()) {
        None => BackUp::Max,
        Some(s) if s == "max" => BackUp::Max,
        Some(s) if s == "min" => BackUp::Min,
        Some(s) => return Err(format!("column 'from' must be max or min, got '{s}'")),
    };
    let start = ErrorPair::new(gamma.to_f64(), delta.to_f64()).map_err(|e| e.to_string())?;
    let points =
        trajectory(start, &f1.to_f64(), &f2.to_f64(), from, steps).map_err(|e| e.to_string())?;
    let last = points.last().expect("at least the start");
    let exact = match quantity.as_str() {
        "gamma" => last.gamma,
        "delta" => last.delta,
        other => {
            return Err(format!(
                "column 'quantity' must be gamma or delta, got '{other}'"
            ));
        }
    };
    Ok((
        format!(
            "gamma={} delta={} f1={} f2={} steps={steps} quantity={quantity}",
            short(&gamma),
            short(&delta),
            short(&f1),
            short(&f2)
        ),
        Target::Value(exact),
    ))
}

fn rhf_value(fields: &Fields) -> RowResult<(String, Target)> {
    let w = probability(fields, "w")?;
    alternatives(fields, "xi", "branching")?;
    let (xi, xi_text) = match (fields.get("xi"), fields.get("branching")) {
        (Some(_), _) => {
            let xi = probability(fields, "xi")?;
            (xi.to_f64(), format!("xi={}", short(&xi)))
        }
        (None, b) => {
            let b = match b {
                Some(_) => whole(fields, "branching", 2..=1_000_000)? as u32,
                None => 2,
            };
            (w_b(b).map_err(|e| e.to_string())?, format!("xi=w_{b}"))
        }
    };
    let exact = rhf(w.to_f64(), xi).map_err(|e| e.to_string())?;
    Ok((format!("w={} {xi_text}", short(&w)), Target::Value(exact)))
}

mod columns;
mod holm;
mod inference;
mod line_guard;
mod render;
mod samples;

pub use columns::{KINDS, WRITTEN_BY};
use columns::{
    OUTPUT_COLUMNS, SUM_COLUMNS, canonical, canonical_fields, kind_columns, kinds_in_words,
};
use holm::apply_holm;
pub use holm::{erfc, two_sided_p};
use line_guard::LineGuard;

#[cfg(test)]
mod tests;
