//! Checking a researcher's own simulation results against the exact values.
//!
//! Input: CSV with a header and one row per estimate. Every row has `kind`, `estimate` (a
//! proportion in `[0, 1]`) and `trials` (a positive whole number), plus the parameters of its
//! kind:
//!
//! | kind | parameters | exact value |
//! |---|---|---|
//! | `dgame` | `h`, `d`, `f1`, and `f2` or `p0` | D(d,h) of Li & Marsland ([`crate::dgame`]) |
//! | `errprop` | `gamma`, `delta`, `f1`, `f2`, `steps`, `quantity` (`gamma` or `delta`), optional `from` (`max`, default, or `min`) | the error-propagation map iterated `steps` times ([`crate::errprop`]) |
//! | `rhf` | `w`, and optionally `xi` or `branching` (default `xi = w_2`) | Chi & Nau's rhf(w) ([`crate::closed_form`]) |
//!
//! Columns may come in any order; columns a kind does not use may be empty; lines starting
//! with `#` are comments. For each row the
//! tool computes the exact value `p`, the score statistic
//! `z = (estimate - p) / sqrt(p (1 - p) / trials)` (the variance under the null hypothesis
//! that the simulation estimates `p`), and its two-sided normal p-value. Over all rows it
//! applies **Holm's step-down correction** for multiple testing (family-wise error rate at
//! level `alpha`), and reports each row's verdict both uncorrected and corrected.
//!
//! Malformed rows are reported with their line number and reason and the rest are still
//! checked; nothing is silently dropped. Memory is bounded: a line may hold at most
//! [`MAX_LINE_BYTES`] bytes and a file at most [`MAX_ROWS`] rows (both refused with a clear
//! error beyond that).

use std::collections::HashMap;
use std::io::{self, Read};

use num_rational::BigRational;
use serde::Serialize;

use crate::closed_form::{rhf, w_b};
use crate::dgame::{DependenceFactors, Solver, check_cost, f2_from_p0};
use crate::error::{Error, Result};
use crate::errprop::{BackUp, ErrorPair, trajectory};
use crate::number::{Probability, parse_rational};

/// The longest line accepted.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// The most data rows accepted.
pub const MAX_ROWS: usize = 1_000_000;
/// D-game columns kept in the cache.
const CACHE_COLUMNS: usize = 256;

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
    /// The line number in the file (the header is line 1).
    pub line: u64,
    /// `dgame`, `errprop` or `rhf`.
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
            "{} rows checked, {} malformed; at level {}: {} disagree without correction, {} with \
             Holm's step-down correction (family-wise error rate {})",
            self.rows.len(),
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
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::invalid("--alpha", "in (0, 1)", alpha));
    }
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .from_reader(LineGuard::new(input));
    let header = reader
        .headers()
        .map_err(|e| input_error(&e))?
        .iter()
        .map(|h| h.to_ascii_lowercase())
        .collect::<Vec<_>>();
    if header.iter().all(|h| h.is_empty()) {
        return Err(Error::invalid(
            "input",
            "a CSV file with a header row",
            "an empty file",
        ));
    }
    for required in ["kind", "estimate", "trials"] {
        if !header.iter().any(|h| h == required) {
            return Err(Error::invalid(
                "input",
                &format!("a header with a '{required}' column"),
                format!("columns {}", header.join(",")),
            ));
        }
    }
    let mut checker = Checker::default();
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for (index, record) in reader.records().enumerate() {
        let line = index as u64 + 2;
        if index >= MAX_ROWS {
            return Err(Error::invalid(
                "input",
                &format!("at most {MAX_ROWS} rows (split larger files)"),
                format!("more rows (line {line})"),
            ));
        }
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                if matches!(e.kind(), csv::ErrorKind::Io(_)) {
                    return Err(input_error(&e));
                }
                errors.push(RowError {
                    line,
                    reason: e.to_string(),
                });
                continue;
            }
        };
        if record.iter().all(str::is_empty) {
            continue;
        }
        let fields: HashMap<&str, &str> = header
            .iter()
            .map(String::as_str)
            .zip(record.iter())
            .filter(|(_, v)| !v.is_empty())
            .collect();
        match checker.check(line, &fields) {
            Ok(row) => rows.push(row),
            Err(reason) => errors.push(RowError { line, reason }),
        }
    }
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

/// Computes exact values, caching D-game columns.
#[derive(Default)]
struct Checker {
    columns: HashMap<(u32, String, String), Vec<f64>>,
}

type RowResult<T> = std::result::Result<T, String>;

fn field<'a>(fields: &HashMap<&str, &'a str>, name: &str) -> RowResult<&'a str> {
    fields
        .get(name)
        .copied()
        .ok_or_else(|| format!("missing value in column '{name}'"))
}

fn probability(fields: &HashMap<&str, &str>, name: &str) -> RowResult<BigRational> {
    let text = field(fields, name)?;
    let value = parse_rational(text).map_err(|e| format!("column '{name}': {e}"))?;
    let (zero, one) = (
        BigRational::from_integer(0.into()),
        BigRational::from_integer(1.into()),
    );
    if value < zero || value > one {
        return Err(format!("column '{name}' must be in [0, 1], got {text}"));
    }
    Ok(value)
}

fn whole(
    fields: &HashMap<&str, &str>,
    name: &str,
    range: std::ops::RangeInclusive<u64>,
) -> RowResult<u64> {
    let text = field(fields, name)?;
    let value: u64 = text
        .parse()
        .map_err(|_| format!("column '{name}' must be a whole number, got '{text}'"))?;
    if !range.contains(&value) {
        return Err(format!(
            "column '{name}' must be in {}..={}, got {value}",
            range.start(),
            range.end()
        ));
    }
    Ok(value)
}

impl Checker {
    fn check(&mut self, line: u64, fields: &HashMap<&str, &str>) -> RowResult<CheckedRow> {
        let kind = field(fields, "kind")?.to_ascii_lowercase();
        let estimate = probability(fields, "estimate")?.to_f64();
        let trials = whole(fields, "trials", 1..=u64::MAX)?;
        let (parameters, exact) = match kind.as_str() {
            "dgame" => self.dgame(fields)?,
            "errprop" => errprop_value(fields)?,
            "rhf" => rhf_value(fields)?,
            other => {
                return Err(format!(
                    "unknown kind '{other}' (expected dgame, errprop or rhf)"
                ));
            }
        };
        let z = crate::mc::stats::proportion_z(estimate, exact, trials);
        let p_value = two_sided_p(z);
        Ok(CheckedRow {
            line,
            kind,
            parameters,
            estimate,
            trials,
            exact,
            z,
            p_value,
            verdict: Verdict::Agrees,
            holm_p_value: p_value,
            holm_verdict: Verdict::Agrees,
        })
    }

    fn dgame(&mut self, fields: &HashMap<&str, &str>) -> RowResult<(String, f64)> {
        let h = whole(fields, "h", 1..=24)? as u32;
        let d = whole(fields, "d", 1..=u64::from(h))? as u32;
        let f1 = probability(fields, "f1")?;
        let f2 = match (fields.get("f2"), fields.get("p0")) {
            (Some(_), _) => probability(fields, "f2")?,
            (None, Some(_)) => {
                f2_from_p0(&f1, &probability(fields, "p0")?).map_err(|e| e.to_string())?
            }
            (None, None) => return Err("missing value in column 'f2' (or 'p0')".to_string()),
        };
        let key = (h, f1.to_string(), f2.to_string());
        if !self.columns.contains_key(&key) {
            check_cost(h, None).map_err(|e| e.to_string())?;
            if self.columns.len() >= CACHE_COLUMNS {
                self.columns.clear();
            }
            let factors =
                DependenceFactors::new(f1.to_f64(), f2.to_f64()).map_err(|e| e.to_string())?;
            let column = Solver::new(factors)
                .decision_column(h)
                .map_err(|e| e.to_string())?;
            self.columns.insert(key.clone(), column.values);
        }
        let exact = self.columns[&key][d as usize - 1];
        Ok((
            format!("h={h} d={d} f1={} f2={}", short(&f1), short(&f2)),
            exact,
        ))
    }
}

fn short(value: &BigRational) -> String {
    crate::number::short_text(value)
}

fn errprop_value(fields: &HashMap<&str, &str>) -> RowResult<(String, f64)> {
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
        exact,
    ))
}

fn rhf_value(fields: &HashMap<&str, &str>) -> RowResult<(String, f64)> {
    let w = probability(fields, "w")?;
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
    Ok((format!("w={} {xi_text}", short(&w)), exact))
}

/// The two-sided normal p-value `2 (1 - Phi(|z|)) = erfc(|z| / sqrt 2)`.
///
/// # Examples
///
/// ```
/// let p = pathology::validate::two_sided_p(1.959963984540054);
/// assert!((p - 0.05).abs() < 1e-9);
/// ```
pub fn two_sided_p(z: f64) -> f64 {
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// The complementary error function, to about 1e-15 relative accuracy: the series of
/// `erf` for `x < 2`, else the continued fraction of `erfc` (Lentz's method).
///
/// # Examples
///
/// ```
/// use pathology::validate::erfc;
/// assert_eq!(erfc(0.0), 1.0);
/// assert!((erfc(1.0) - 0.157_299_207_050_285_1).abs() < 1e-15);
/// assert!((erfc(-1.0) - (2.0 - erfc(1.0))).abs() < 1e-15);
/// // The continued fraction keeps tiny tails accurate, where 1 - erf(x) would give 0.
/// assert!((erfc(10.0) / 2.088_487_583_762_544_8e-45 - 1.0).abs() < 1e-14);
/// ```
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 2.0 {
        // erf(x) = 2/sqrt(pi) sum_n (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        return 1.0 - 2.0 / std::f64::consts::PI.sqrt() * sum;
    }
    if x > 27.0 {
        return 0.0;
    }
    // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
    let tiny = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..300 {
        let a = f64::from(k) / 2.0;
        d = x + a * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = x + a / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / f
}

/// Holm's step-down procedure: sort the m p-values, adjust the i-th smallest to
/// `max_{j <= i} min(1, (m - j + 1) p_(j))`, and reject where the adjusted value is at most
/// alpha.
fn apply_holm(rows: &mut [CheckedRow], alpha: f64) {
    let m = rows.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| rows[a].p_value.total_cmp(&rows[b].p_value).then(a.cmp(&b)));
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        let adjusted = ((m - rank) as f64 * rows[i].p_value).min(1.0);
        running = running.max(adjusted);
        rows[i].holm_p_value = running;
    }
    for row in rows.iter_mut() {
        row.verdict = if row.p_value <= alpha {
            Verdict::Disagrees
        } else {
            Verdict::Agrees
        };
        row.holm_verdict = if row.holm_p_value <= alpha {
            Verdict::Disagrees
        } else {
            Verdict::Agrees
        };
    }
}

/// Passes bytes through, failing with a clear error on a line longer than [`MAX_LINE_BYTES`],
/// so that the CSV reader never buffers an unbounded record.
struct LineGuard<R> {
    inner: R,
    current: usize,
    line: u64,
}

impl<R> LineGuard<R> {
    fn new(inner: R) -> Self {
        LineGuard {
            inner,
            current: 0,
            line: 1,
        }
    }
}

impl<R: Read> Read for LineGuard<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &b in &buf[..n] {
            if b == b'\n' {
                self.current = 0;
                self.line += 1;
            } else {
                self.current += 1;
                if self.current > MAX_LINE_BYTES {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("line {} is longer than {MAX_LINE_BYTES} bytes", self.line),
                    ));
                }
            }
        }
        Ok(n)
    }
}

impl Report {
    /// The checked rows as a [`crate::report::Report`] (tables `checked` and, when some rows
    /// were malformed, `malformed`); `input` names what was read.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::validate::validate;
    /// let csv = "kind,h,d,f1,f2,estimate,trials\ndgame,10,1,0.1,0.1,0.61,10000\n";
    /// let report = validate(csv.as_bytes(), 0.05).unwrap().to_report("input.csv");
    /// assert_eq!(report.tables[0].rows.len(), 1);
    /// assert_eq!(report.manifest.parameter("alpha"), Some("0.05"));
    /// ```
    pub fn to_report(&self, input: &str) -> crate::report::Report {
        use crate::report::{Cell, Column, Kind, Table};
        let verdict = |v: Verdict| match v {
            Verdict::Agrees => "agrees",
            Verdict::Disagrees => "disagrees",
        };
        let mut checked = Table::new(
            "checked",
            "Simulation estimates against the exact values",
            vec![
                Column::key("line", Kind::Integer),
                Column::key("kind", Kind::Text),
                Column::key("parameters", Kind::Text),
                Column::new("estimate", Kind::Real),
                Column::new("trials", Kind::Integer),
                Column::new("exact", Kind::Real),
                Column::new("z", Kind::Real),
                Column::new("p_value", Kind::Real).labelled("p"),
                Column::new("verdict", Kind::Text),
                Column::new("holm_p_value", Kind::Real).labelled("Holm p"),
                Column::new("holm_verdict", Kind::Text).labelled("verdict (Holm)"),
            ],
        );
        for r in &self.rows {
            checked.push(vec![
                Cell::int(r.line),
                Cell::text(r.kind.clone()),
                Cell::text(r.parameters.clone()),
                Cell::Real(r.estimate),
                Cell::int(r.trials),
                Cell::Real(r.exact),
                if r.z.is_finite() {
                    Cell::Real(r.z)
                } else {
                    Cell::text(r.z.to_string())
                },
                Cell::Real(r.p_value),
                Cell::text(verdict(r.verdict)),
                Cell::Real(r.holm_p_value),
                Cell::text(verdict(r.holm_verdict)),
            ]);
        }
        let mut report =
            crate::report::Report::new("validate", "Validation against the exact values")
                .param("_", input)
                .param("alpha", self.alpha)
                .mode("exact-check")
                .with_table(checked);
        if !self.errors.is_empty() {
            let mut malformed = Table::new(
                "malformed",
                "malformed rows (not checked)",
                vec![
                    Column::key("line", Kind::Integer),
                    Column::new("reason", Kind::Text),
                ],
            );
            for e in &self.errors {
                malformed.push(vec![Cell::int(e.line), Cell::text(e.reason.clone())]);
            }
            report = report.with_table(malformed);
        }
        report.note(self.summary())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erfc_matches_known_values() {
        let cases = [
            (0.0, 1.0),
            (0.5, 0.4795001221869535),
            (1.0, 0.15729920705028513),
            (2.0, 0.004677734981047266),
            (3.0, 2.209049699858544e-5),
            (5.0, 1.537_459_794_428_035e-12),
            (10.0, 2.088487583762545e-45),
        ];
        for (x, expected) in cases {
            let got = erfc(x);
            assert!(
                ((got - expected) / expected).abs() < 1e-13,
                "erfc({x}) = {got}, want {expected}"
            );
        }
        assert!((erfc(-1.0) - (2.0 - 0.15729920705028513)).abs() < 1e-15);
    }

    #[test]
    fn holm_adjusts_step_down() {
        // p-values 0.01, 0.04, 0.03 with m = 3: adjusted 0.03, 0.06, 0.06.
        let mut rows: Vec<CheckedRow> = [0.01, 0.04, 0.03]
            .iter()
            .enumerate()
            .map(|(i, &p)| CheckedRow {
                line: i as u64 + 2,
                kind: "rhf".into(),
                parameters: String::new(),
                estimate: 0.0,
                trials: 1,
                exact: 0.0,
                z: 0.0,
                p_value: p,
                verdict: Verdict::Agrees,
                holm_p_value: p,
                holm_verdict: Verdict::Agrees,
            })
            .collect();
        apply_holm(&mut rows, 0.05);
        let adjusted: Vec<f64> = rows.iter().map(|r| r.holm_p_value).collect();
        for (a, b) in adjusted.iter().zip([0.03, 0.06, 0.06]) {
            assert!((a - b).abs() < 1e-12, "{adjusted:?}");
        }
        assert_eq!(rows[0].holm_verdict, Verdict::Disagrees);
        assert_eq!(rows[2].holm_verdict, Verdict::Agrees);
        assert_eq!(rows[2].verdict, Verdict::Disagrees);
    }

    #[test]
    fn malformed_rows_are_reported_and_the_rest_checked() {
        let csv = "kind,h,d,f1,f2,w,estimate,trials\n\
                   dgame,10,1,0.1,0.1,,0.6075,1000\n\
                   dgame,10,11,0.1,0.1,,0.6,1000\n\
                   dgame,10,1,abc,0.1,,0.6,1000\n\
                   chess,10,1,0.1,0.1,,0.6,1000\n\
                   rhf,,,,,0.2,0.14,0\n\
                   rhf,,,,,0.2,1.5,100\n\
                   rhf,,,,,0.2,0.14,100\n";
        let report = validate(csv.as_bytes(), 0.05).unwrap();
        assert_eq!(report.rows.len(), 2);
        let lines: Vec<u64> = report.errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![3, 4, 5, 6, 7]);
        assert!(
            report.errors[0].reason.contains("'d'"),
            "{}",
            report.errors[0].reason
        );
        assert!(report.errors[2].reason.contains("unknown kind 'chess'"));
        assert!(report.errors[3].reason.contains("'trials'"));
        assert!(report.errors[4].reason.contains("'estimate'"));
    }

    #[test]
    fn whole_file_problems_are_errors() {
        assert!(validate("".as_bytes(), 0.05).is_err());
        assert!(validate("kind,estimate\ndgame,0.5\n".as_bytes(), 0.05).is_err());
        assert!(validate("kind,estimate,trials\n".as_bytes(), 1.5).is_err());
        let long = format!(
            "kind,estimate,trials\n{}\n",
            "x".repeat(MAX_LINE_BYTES + 10)
        );
        let err = validate(long.as_bytes(), 0.05).unwrap_err();
        assert!(err.to_string().contains("longer than"), "{err}");
    }

    #[test]
    fn errprop_and_rhf_rows_use_the_exact_values() {
        let csv = "kind,gamma,delta,f1,f2,steps,quantity,w,estimate,trials\n\
                   errprop,0.3,0.2,0.9,0.9,0,gamma,,0.3,1000\n\
                   rhf,,,,,,,0.6,0,1000\n";
        let report = validate(csv.as_bytes(), 0.05).unwrap();
        assert_eq!(report.rows[0].exact, 0.3);
        assert_eq!(report.rows[0].z, 0.0);
        assert_eq!(report.rows[1].exact, 0.0);
        assert_eq!(report.rows[1].p_value, 1.0);
    }
}
