//! The kind `samples`: a user's own subsampled curve of `pathology samples` (per k, the
//! successes and trials of a metric estimated by drawing k of each problem's samples), against
//! the exact curve of the samples file ([`crate::samples::curves`], exact rationals, compared
//! as the nearest `f64`).
//!
//! A row names the file (`file`, a path read from the current directory, as `crit`'s
//! `histogram`), the `metric` (`pass_at_k`, `pass_all`, `majority`, `best_of_k`), the budget
//! `k`, and optionally `ties` (`uniform`, default, or `wrong`), `min_n` (only the problems
//! with at least `min_n` samples: `--drop-short` with the largest k `min_n`), the input
//! options of `pathology samples` as columns (`input_format`, `problem_column`, ...), and
//! `file_fnv1a64` (the file's hash, which the file must then have). Each distinct file (with
//! its reading options) is read once per validation; each row's exact value is computed
//! alone after the whole file's cost was estimated.
//!
//! The score test assumes every trial an independent draw of a problem (uniformly) and a
//! k-subset of its samples (uniformly): `pathology mc samples` draws so. A subsampling that
//! runs every problem equally often has a smaller variance (the problems' spread is then no
//! part of it), so the test is conservative for it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use num_traits::ToPrimitive;

use super::{Fields, RowResult, Target, field, whole};
use crate::analytic::inference::{Estimate, MAX_COUNT};
use crate::samples::curves::{self, Metric, Ties, Value};
use crate::samples::input::{self, Columns, InputFormat, Samples};
use crate::samples::simulate::{file_fnv1a64, parse_hash};

/// The parameters of the kind.
pub(super) const COLUMNS: [&str; 13] = [
    "file",
    "metric",
    "k",
    "ties",
    "min_n",
    "input_format",
    "problem_column",
    "correct_column",
    "answer_column",
    "score_column",
    "c_column",
    "n_column",
    "file_fnv1a64",
];

/// The further columns of `pathology mc samples`' rows.
pub(super) const EXTRAS: [&str; 4] = ["z", "p_value", "holm_p_value", "verdict"];

/// Seconds of one `u128` step of the curves' DPs and of one big-integer step of the exact
/// mean (as `samples curves` estimates them).
const SECONDS_PER_OPERATION: f64 = 4e-9;
const SECONDS_PER_BIG_OPERATION: f64 = 3e-7;

/// A file with its reading options (the format as 0 from the extension, 1 CSV, 2 JSONL):
/// what one read depends on.
type FileKey = (String, u8, [String; 6]);

/// A file as read (its samples and hash), or why it cannot be.
type FileRead = Rc<std::result::Result<(Samples, u64), String>>;

thread_local! {
    /// The files read during the current validation (cleared by [`FileCache`]).
    static FILES: RefCell<HashMap<FileKey, FileRead>> = RefCell::new(HashMap::new());
}

/// Keeps the files read by the rows of one validation; dropping it forgets them.
pub(super) struct FileCache;

impl FileCache {
    /// Starts a validation's cache, holding the `(path, text)` files given (read as the
    /// files of those paths with the default reading options).
    pub(super) fn with(files: &[(&str, &str)]) -> FileCache {
        FILES.with(|f| {
            let mut cache = f.borrow_mut();
            cache.clear();
            for &(path, text) in files {
                let columns = Columns::default();
                let read = InputFormat::detect(std::path::Path::new(path))
                    .and_then(|format| input::read_text(path, text, format, &columns))
                    .map(|samples| {
                        (
                            samples,
                            crate::analytic::distributions::fnv1a64(text.as_bytes()),
                        )
                    })
                    .map_err(|e| format!("column 'file': {e}"));
                cache.insert(key(path, None, &columns), Rc::new(read));
            }
        });
        FileCache
    }
}

impl Drop for FileCache {
    fn drop(&mut self) {
        FILES.with(|f| f.borrow_mut().clear());
    }
}

fn key(path: &str, format: Option<InputFormat>, columns: &Columns) -> FileKey {
    (
        path.to_string(),
        match format {
            None => 0,
            Some(InputFormat::Csv) => 1,
            Some(InputFormat::Jsonl) => 2,
        },
        [
            columns.problem.clone(),
            columns.correct.clone(),
            columns.answer.clone(),
            columns.score.clone(),
            columns.c.clone(),
            columns.n.clone(),
        ],
    )
}

/// The file read once (with its hash), or why it cannot be.
fn read_once(path: &str, format: Option<InputFormat>, columns: &Columns) -> FileRead {
    let key = key(path, format, columns);
    if let Some(found) = FILES.with(|f| f.borrow().get(&key).cloned()) {
        return found;
    }
    let path_buf = std::path::Path::new(path);
    let read = file_fnv1a64(path_buf)
        .and_then(|hash| Ok((input::read(path_buf, format, columns)?, hash)))
        .map_err(|e| format!("column 'file': {e}"));
    let read = Rc::new(read);
    FILES.with(|f| f.borrow_mut().insert(key, read.clone()));
    read
}

fn metric_of(text: &str) -> RowResult<Metric> {
    Ok(match text.to_ascii_lowercase().as_str() {
        "pass_at_k" => Metric::PassAtK,
        "pass_all" => Metric::PassAll,
        "majority" => Metric::Majority,
        "best_of_k" => Metric::BestOfK,
        other => {
            return Err(format!(
                "column 'metric' must be pass_at_k, pass_all, majority or best_of_k, got '{other}'"
            ));
        }
    })
}

/// The row's parameters in words and its exact value to compute.
pub(super) fn samples_value(fields: &Fields) -> RowResult<(String, Target)> {
    let path = field(fields, "file")?;
    let metric = metric_of(field(fields, "metric")?)?;
    let k = whole(fields, "k", 1..=MAX_COUNT)?;
    let ties = match fields
        .get("ties")
        .map(|t| t.to_ascii_lowercase())
        .as_deref()
    {
        None | Some("uniform") => Ties::Uniform,
        Some("wrong") => Ties::Wrong,
        Some(other) => {
            return Err(format!(
                "column 'ties' must be uniform or wrong, got '{other}'"
            ));
        }
    };
    let min_n = match fields.get("min_n") {
        Some(_) => Some(whole(fields, "min_n", k..=MAX_COUNT)?),
        None => None,
    };
    let format = match fields
        .get("input_format")
        .map(|t| t.to_ascii_lowercase())
        .as_deref()
    {
        None => None,
        Some("csv") => Some(InputFormat::Csv),
        Some("jsonl") => Some(InputFormat::Jsonl),
        Some(other) => {
            return Err(format!(
                "column 'input_format' must be csv or jsonl, got '{other}'"
            ));
        }
    };
    let defaults = Columns::default();
    let name = |column: &str, default: &str| {
        fields
            .get(column)
            .map_or_else(|| default.to_string(), |v| (*v).to_string())
    };
    let columns = Columns {
        problem: name("problem_column", &defaults.problem),
        correct: name("correct_column", &defaults.correct),
        answer: name("answer_column", &defaults.answer),
        score: name("score_column", &defaults.score),
        c: name("c_column", &defaults.c),
        n: name("n_column", &defaults.n),
    };
    let read = read_once(path, format, &columns);
    let (samples, hash) = match read.as_ref() {
        Ok(found) => found,
        Err(reason) => return Err(reason.clone()),
    };
    if let Some(text) = fields.get("file_fnv1a64") {
        let want = parse_hash("column 'file_fnv1a64'", text).map_err(|e| e.to_string())?;
        if want != *hash {
            return Err(format!(
                "column 'file_fnv1a64': {path} hashes to {hash:016x}, not {want:016x} (the file \
                 changed since the row was written)"
            ));
        }
    }
    if !Metric::of(samples).contains(&metric) {
        return Err(format!(
            "column 'metric': {} is not defined by {path} (majority needs an answer column, \
             best_of_k a score column, both per-sample rows)",
            metric.name()
        ));
    }
    let mut samples = samples.clone();
    if let Some(m) = min_n {
        samples.problems.retain(|p| p.n >= m);
        if samples.problems.is_empty() {
            return Err(format!(
                "column 'min_n': no problem of {path} has {m} samples or more"
            ));
        }
    }
    curves::check_budgets(&mut samples, &[k], false)
        .map_err(|e| e.to_string().replacen("--k", "column 'k'", 1))?;
    let operations = curves::operations(&samples, &[metric], &[k]);
    let big = samples.problems.iter().any(|p| p.n > 127);
    let seconds = operations
        * if big {
            SECONDS_PER_BIG_OPERATION
        } else {
            SECONDS_PER_OPERATION
        }
        + samples.problems.len() as f64 * SECONDS_PER_BIG_OPERATION;
    let estimate = Estimate::new(
        format!(
            "the exact {}@{k} of {} problems of {path}",
            metric.name(),
            samples.problems.len()
        ),
        seconds,
        samples.problems.len() as f64 * 200.0,
        "Split the file, or use smaller budgets k.",
    );
    let text = format!(
        "file={path} metric={} k={k} ties={}{}",
        metric.name(),
        crate::samples::report::ties_name(ties),
        min_n.map_or(String::new(), |m| format!(" min_n={m}"))
    );
    let compute: super::inference::Compute = Box::new(move || {
        let curves = curves::compute(&samples, &[metric], &[k], ties, true, &|| ())
            .map_err(|e| e.to_string())?;
        match &curves.means[0][0] {
            Value::Exact(r) => Ok(r.to_f64().unwrap_or(f64::NAN)),
            other => Ok(other.to_f64()),
        }
    });
    Ok((text, Target::Inference { estimate, compute }))
}
