//! Reading reports back: the CSV and JSON that the exporters write (or a researcher's own CSV
//! of the same shape), as tables of text cells, for `validate` and `merge`.

use crate::error::{Error, Result};

/// A table read back: the manifest lines (CSV comments, or the JSON manifest flattened into
/// `key: value` lines), the header, and the rows with their line numbers in the input.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReadTable {
    /// `key: value` manifest lines (`tool: pathology 0.1.0`, `seed: 42`, ...).
    pub manifest: Vec<String>,
    /// The column names.
    pub header: Vec<String>,
    /// The rows: the 1-based line number (JSON: the row's index + 1) and the fields.
    pub rows: Vec<(u64, Vec<String>)>,
    /// The line number of the header.
    pub header_line: u64,
    /// CSV: the SHA-256 of the header and rows as read, re-encoded as the CSV writer writes
    /// them ([`crate::report::ROWS_DIGEST`]); `None` for JSON.
    pub rows_sha256: Option<String>,
}

impl ReadTable {
    /// The value of a manifest line `key: value`.
    pub fn manifest_value(&self, key: &str) -> Option<&str> {
        self.manifest
            .iter()
            .find_map(|l| l.strip_prefix(key).and_then(|rest| rest.strip_prefix(": ")))
    }

    /// The index of a column.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }
}

/// Reads CSV with `#` comment lines (manifest lines are the comments of the form
/// `# key: value`), a header and rows. Line numbers count every line of the input,
/// comments included.
///
/// # Examples
///
/// ```
/// use pathology::report::read::read_csv;
/// let t = read_csv("# tool: pathology 0.1.0\n# a comment\nkind,d\ndgame,1\n").unwrap();
/// assert_eq!(t.header, vec!["kind", "d"]);
/// assert_eq!(t.rows, vec![(4, vec!["dgame".to_string(), "1".to_string()])]);
/// assert_eq!(t.manifest_value("tool"), Some("pathology 0.1.0"));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `input` when there is no header or a row is not CSV.
pub fn read_csv(text: &str) -> Result<ReadTable> {
    let mut table = ReadTable::default();
    let mut body = String::new();
    let mut line_numbers = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let number = i as u64 + 1;
        let trimmed = line.trim_start();
        if let Some(comment) = trimmed.strip_prefix('#') {
            let comment = comment.trim();
            if comment.contains(": ") {
                table.manifest.push(comment.to_string());
            }
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        body.push_str(line);
        body.push('\n');
        line_numbers.push(number);
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(body.as_bytes());
    let mut digest = crate::report::csv_format::RowsDigest::new();
    for (k, record) in reader.records().enumerate() {
        let record = record.map_err(|e| {
            Error::invalid(
                "input",
                "CSV",
                format!("line {}: {e}", line_numbers.get(k).copied().unwrap_or(0)),
            )
        })?;
        digest.record(&record);
        let fields: Vec<String> = record.iter().map(|f| f.trim().to_string()).collect();
        let line = line_numbers.get(k).copied().unwrap_or(0);
        if k == 0 {
            table.header = fields;
            table.header_line = line;
        } else {
            table.rows.push((line, fields));
        }
    }
    if table.header.is_empty() {
        return Err(Error::invalid(
            "input",
            "CSV with a header line",
            "no header",
        ));
    }
    table.rows_sha256 = Some(digest.finish());
    Ok(table)
}

/// Checks that a CSV's manifest was written with the rows read: its `rows sha256` line
/// ([`crate::report::ROWS_DIGEST`]) must be the digest of the rows, and a
/// `seed` or `shard` column must hold the manifest's value in every row (numbers compared
/// as exact rationals). Then the
/// `rows sha256` line is removed from the manifest. JSON tables have no digest (the manifest
/// and rows are one document); their columns are checked.
///
/// # Examples
///
/// ```
/// use pathology::report::read::{check_manifest_binds_rows, read_csv};
/// use pathology::report::{Cell, Column, ExportOptions, Format, Kind, Report, Table};
/// let mut t = Table::new("estimates", "a run", vec![Column::new("x", Kind::Integer)]);
/// t.push(vec![Cell::Integer(17)]);
/// let report = Report::new("mc demo", "A run").seed(7).with_table(t);
/// let inline = ExportOptions { inline_manifest: true, ..ExportOptions::default() };
/// let text = report.render(Format::Csv, &inline).unwrap();
/// let mut table = read_csv(&text).unwrap();
/// check_manifest_binds_rows(&mut table, "a.csv").unwrap();
/// assert_eq!(table.manifest_value("rows sha256"), None); // checked, then dropped
/// // The same manifest on other rows is refused, naming the file.
/// let mut spliced = read_csv(&text.replace("\n17\n", "\n10\n")).unwrap();
/// let e = check_manifest_binds_rows(&mut spliced, "a.csv").unwrap_err().to_string();
/// assert!(e.contains("a.csv: the manifest belongs to other rows"), "{e}");
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` (with `name`) when the digest is missing or
/// differs, or a column disagrees with the manifest.
pub fn check_manifest_binds_rows(table: &mut ReadTable, name: &str) -> Result<()> {
    use crate::report::csv_format::ROWS_DIGEST;
    if let Some(actual) = &table.rows_sha256 {
        let Some(stated) = table.manifest_value(ROWS_DIGEST).map(str::to_string) else {
            return Err(Error::invalid(
                "FILE",
                &format!(
                    "a CSV whose manifest names the digest of its rows ({ROWS_DIGEST}: written by \
                     this version of pathology)"
                ),
                format!("{name}, whose manifest has no {ROWS_DIGEST} line"),
            ));
        };
        if stated != *actual {
            return Err(Error::invalid(
                "FILE",
                "a CSV whose manifest was written with its rows",
                format!(
                    "{name}: the manifest belongs to other rows (its {ROWS_DIGEST} is {stated}, \
                     the rows' is {actual})"
                ),
            ));
        }
        let key = format!("{ROWS_DIGEST}: ");
        table.manifest.retain(|l| !l.starts_with(&key));
    }
    for (column, value) in manifest_columns(table) {
        let Some(index) = table.column(&column) else {
            continue;
        };
        for (line, fields) in &table.rows {
            let cell = fields.get(index).map(String::as_str).unwrap_or("");
            if !cell.is_empty() && !same_value(cell, &value) {
                return Err(Error::invalid(
                    "FILE",
                    "rows of the run its manifest describes",
                    format!(
                        "{name}, line {line}: column {column} is {cell}, the manifest says {value}"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The manifest values a column of the same name must repeat: the seed and the shard (other
/// parameters do not bind a column of their name: `trials` is the run's total, a row's
/// `trials` its own count).
fn manifest_columns(table: &ReadTable) -> Vec<(String, String)> {
    let mut columns = Vec::new();
    if let Some(seed) = table.manifest_value("seed") {
        columns.push(("seed".to_string(), seed.to_string()));
    }
    if let Some(shard) = table.manifest_value("parameter shard") {
        columns.push(("shard".to_string(), shard.to_string()));
    }
    columns
}

/// Whether a cell and a manifest value are the same: equal text, or equal exact rationals.
fn same_value(cell: &str, value: &str) -> bool {
    cell == value
        || matches!(
            (
                crate::numeric::number::parse_rational(cell),
                crate::numeric::number::parse_rational(value)
            ),
            (Ok(a), Ok(b)) if a == b
        )
}

/// Reads one table of a JSON report (`name`, or the first when `None`).
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `input` when the text is not a report of this tool's
/// JSON shape, or naming `--table` when it has no such table.
pub fn read_json(text: &str, name: Option<&str>) -> Result<ReadTable> {
    let malformed = |why: &str| Error::invalid("input", "a JSON report of pathology", why);
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| malformed(&e.to_string()))?;
    let mut table = ReadTable {
        manifest: manifest_lines(&value).map_err(&malformed)?,
        ..ReadTable::default()
    };
    let tables = value
        .get("tables")
        .and_then(|t| t.as_array())
        .ok_or_else(|| malformed("no \"tables\" array"))?;
    let chosen = match name {
        None => tables.first(),
        Some(n) => tables
            .iter()
            .find(|t| t.get("name").and_then(|x| x.as_str()) == Some(n)),
    }
    .ok_or_else(|| Error::invalid("--table", "a table of the report", name.unwrap_or("none")))?;
    let columns = chosen
        .get("columns")
        .and_then(|c| c.as_array())
        .ok_or_else(|| malformed("a table without \"columns\""))?;
    table.header = columns
        .iter()
        .map(|c| c.get("name").map(plain).unwrap_or_default())
        .collect();
    let rows = chosen
        .get("rows")
        .and_then(|r| r.as_array())
        .ok_or_else(|| malformed("a table without \"rows\""))?;
    for (i, row) in rows.iter().enumerate() {
        let object = row
            .as_object()
            .ok_or_else(|| malformed(&format!("row {} is not an object", i + 1)))?;
        let fields = table
            .header
            .iter()
            .map(|h| object.get(h).map(plain).unwrap_or_default())
            .collect();
        table.rows.push((i as u64 + 1, fields));
    }
    Ok(table)
}

/// The `manifest` object of a JSON report or CSV sidecar, flattened into the `key: value`
/// lines of the inline CSV manifest (`tool: pathology 0.1.0`, `parameter seed: 1`, ...).
fn manifest_lines(value: &serde_json::Value) -> std::result::Result<Vec<String>, &'static str> {
    let manifest = value
        .get("manifest")
        .and_then(|m| m.as_object())
        .ok_or("no \"manifest\" object")?;
    let mut lines = Vec::new();
    for (key, v) in manifest {
        match (key.as_str(), v) {
            ("parameters", serde_json::Value::Object(params)) => {
                for (p, pv) in params {
                    lines.push(format!("parameter {p}: {}", plain(pv)));
                }
            }
            ("version", _) => {}
            ("tool", v) => lines.push(format!(
                "tool: {} {}",
                plain(v),
                manifest.get("version").map(plain).unwrap_or_default()
            )),
            (k, v) => lines.push(format!("{k}: {}", plain(v))),
        }
    }
    Ok(lines)
}

/// Reads the manifest lines of a CSV sidecar (`NAME.csv.manifest.json`,
/// [`crate::report::csv_sidecar`]) as [`read_csv`] reads them from `# key: value` lines.
///
/// # Examples
///
/// ```
/// use pathology::report::read::{read_csv, read_sidecar};
/// use pathology::report::{csv_sidecar, Cell, Column, ExportOptions, Format, Kind, Report, Table};
/// let mut t = Table::new("decisions", "D(d,10)", vec![Column::new("d", Kind::Integer)]);
/// t.push(vec![Cell::Integer(1)]);
/// let report = Report::new("table", "Table 1").param("_", 1).seed(7).with_table(t);
/// let inline = ExportOptions { inline_manifest: true, ..ExportOptions::default() };
/// let commented = read_csv(&report.render(Format::Csv, &inline).unwrap()).unwrap();
/// let mut from_sidecar = commented.clone();
/// from_sidecar.manifest = read_sidecar(&csv_sidecar(&report, &inline).unwrap(), "t").unwrap();
/// for key in ["tool", "commit", "command", "mode", "seed", "parameter _"] {
///     assert_eq!(from_sidecar.manifest_value(key), commented.manifest_value(key), "{key}");
/// }
/// assert_eq!(from_sidecar.manifest_value("seed"), Some("7"));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` (with `name`) when the text is not a sidecar.
pub fn read_sidecar(text: &str, name: &str) -> Result<Vec<String>> {
    let malformed = |why: &str| {
        Error::invalid(
            "FILE",
            "a CSV manifest sidecar of pathology (NAME.csv.manifest.json)",
            format!("{name} ({why})"),
        )
    };
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| malformed(&e.to_string()))?;
    let mut lines = manifest_lines(&value).map_err(malformed)?;
    if let Some(digest) = value.get("rows_sha256").and_then(|d| d.as_str()) {
        lines.push(format!(
            "{}: {digest}",
            crate::report::csv_format::ROWS_DIGEST
        ));
    }
    Ok(lines)
}

/// A JSON value as text: strings without quotes, numbers as written, `null` as empty.
fn plain(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Reads CSV or JSON (JSON when the first non-blank character is `{`).
///
/// # Errors
///
/// As [`read_csv`] and [`read_json`].
pub fn read_any(text: &str, name: Option<&str>) -> Result<ReadTable> {
    if text.trim_start().starts_with('{') {
        read_json(text, name)
    } else {
        read_csv(text)
    }
}

/// The most bytes read from one input: a file, standard input, or a file a row names. Every
/// input the command line reads goes through [`CappedReader`], so `/dev/zero` or an endless
/// pipe is refused instead of filling memory.
pub const MAX_INPUT_BYTES: u64 = 256 * 1024 * 1024;

/// [`MAX_INPUT_BYTES`] in words, for messages.
pub const MAX_INPUT_TEXT: &str = "256 MiB";

/// A reader that fails with [`std::io::ErrorKind::FileTooLarge`] once more than `cap` bytes
/// have come through, naming what it reads.
///
/// # Examples
///
/// ```
/// use std::io::Read;
/// use pathology::report::read::CappedReader;
/// let mut text = String::new();
/// assert!(CappedReader::new(&b"12345"[..], 5, "--histogram x").read_to_string(&mut text).is_ok());
/// let e = CappedReader::new(&b"123456"[..], 5, "--histogram x").read_to_string(&mut text).unwrap_err();
/// assert!(e.to_string().contains("--histogram x is longer than 5 bytes"), "{e}");
/// ```
#[derive(Debug)]
pub struct CappedReader<R> {
    inner: R,
    left: u64,
    cap: u64,
    what: String,
}

impl<R> CappedReader<R> {
    /// Reads `inner`, at most `cap` bytes; `what` names the input in the error.
    pub fn new(inner: R, cap: u64, what: impl Into<String>) -> Self {
        CappedReader {
            inner,
            left: cap,
            cap,
            what: what.into(),
        }
    }
}

impl<R: std::io::Read> std::io::Read for CappedReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // One byte more than is left is asked for, to tell "ends at the cap" from "goes on".
        let want = buf
            .len()
            .min(usize::try_from(self.left + 1).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        if n as u64 > self.left {
            let limit = if self.cap == MAX_INPUT_BYTES {
                MAX_INPUT_TEXT.to_string()
            } else {
                format!("{} bytes", self.cap)
            };
            return Err(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                format!(
                    "{} is longer than {limit}, the most read from one input",
                    self.what
                ),
            ));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// Reads the whole of `path` (`-`: standard input) as UTF-8 text, at most
/// [`MAX_INPUT_BYTES`]; errors name `option` (the option or argument that gave the path) and,
/// but for the cap's, `allowed` (what the file must be).
///
/// # Examples
///
/// ```
/// use pathology::report::read::read_capped;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("h.csv");
/// std::fs::write(&path, "1,0.5\n").unwrap();
/// assert_eq!(read_capped(&path, "--histogram", "a CSV file").unwrap(), "1,0.5\n");
/// #[cfg(unix)]
/// {
///     let e = read_capped(std::path::Path::new("/dev/zero"), "--histogram", "a CSV file").unwrap_err();
///     assert!(e.to_string().starts_with("--histogram must be a file of at most 256 MiB"), "{e}");
/// }
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `option`: a directory, an unreadable file, more than
/// [`MAX_INPUT_BYTES`], or text that is not UTF-8.
pub fn read_capped(path: &std::path::Path, option: &str, allowed: &str) -> Result<String> {
    use std::io::Read;
    let name = path.display().to_string();
    let mut bytes = Vec::new();
    let unreadable = |e: std::io::Error| Error::invalid(option, allowed, format!("{name} ({e})"));
    if name != "-" && path.is_dir() {
        return Err(Error::invalid(
            option,
            allowed,
            format!("{name} (a directory)"),
        ));
    }
    if name != "-" {
        std::fs::File::open(path).map_err(unreadable)?;
    }
    open_capped(path, option)?
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(option, &name, &e))?;
    String::from_utf8(bytes)
        .map_err(|_| Error::invalid(option, allowed, format!("{name} (not UTF-8)")))
}

/// The error of a failed read of `name`: the cap's own message, or the system's.
fn read_error(option: &str, name: &str, e: &std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::FileTooLarge {
        Error::invalid(
            option,
            &format!("a file of at most {MAX_INPUT_TEXT}"),
            format!("{name}, which is longer"),
        )
    } else {
        Error::invalid(option, "a readable file", format!("{name} ({e})"))
    }
}

/// Opens `path` (`-`: standard input) for buffered reading through a [`CappedReader`] of
/// [`MAX_INPUT_BYTES`]; a directory or an unreadable file is an error naming `option`.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `option`.
pub fn open_capped(path: &std::path::Path, option: &str) -> Result<Box<dyn std::io::BufRead>> {
    let name = path.display().to_string();
    let what = format!("{option} {name}");
    if name == "-" {
        let stdin = super::render::stdin_reader();
        return Ok(Box::new(std::io::BufReader::new(CappedReader::new(
            stdin,
            MAX_INPUT_BYTES,
            what,
        ))));
    }
    if path.is_dir() {
        return Err(Error::invalid(option, "a file, not a directory", &name));
    }
    let file = std::fs::File::open(path)
        .map_err(|e| Error::invalid(option, "a readable file", format!("{name} ({e})")))?;
    Ok(Box::new(std::io::BufReader::new(CappedReader::new(
        file,
        MAX_INPUT_BYTES,
        what,
    ))))
}

/// Opens an input file for buffered reading, `-` meaning standard input, at most
/// [`MAX_INPUT_BYTES`] ([`open_capped`]); a directory or an unreadable file is an input error
/// naming the path.
pub fn open_input(path: &std::path::Path) -> Result<Box<dyn std::io::BufRead>> {
    let name = path.display().to_string();
    if name == "-" {
        return open_capped(path, "FILE");
    }
    if path.is_dir() {
        return Err(Error::invalid("FILE", "a file, not a directory", &name));
    }
    let file = std::fs::File::open(path).map_err(|e| {
        Error::invalid(
            "FILE",
            "a readable CSV or JSON file",
            format!("{name} ({e})"),
        )
    })?;
    Ok(Box::new(std::io::BufReader::new(CappedReader::new(
        file,
        MAX_INPUT_BYTES,
        format!("FILE {name}"),
    ))))
}

/// Reads a whole input ([`open_input`]) as UTF-8 text; text that is not UTF-8 is an input
/// error naming the path.
pub fn read_input(path: &std::path::Path) -> Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    open_input(path)?.read_to_end(&mut bytes).map_err(|e| {
        if e.kind() == std::io::ErrorKind::FileTooLarge {
            read_error("FILE", &path.display().to_string(), &e)
        } else {
            Error::invalid(
                "FILE",
                "a readable CSV or JSON file",
                format!("{} ({e})", path.display()),
            )
        }
    })?;
    String::from_utf8(bytes)
        .map_err(|_| Error::invalid("FILE", "UTF-8 text (CSV or JSON)", path.display()))
}
