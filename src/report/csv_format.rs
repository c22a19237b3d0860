//! CSV: one tidy table, a plain header and rows; the manifest beside it in a JSON sidecar
//! (a file `NAME.csv` has `NAME.csv.manifest.json`), or in `#` comment lines above the header
//! with `--manifest inline`. The layout of every format: `docs/output-formats.md`.

use super::cell::{Cell, Machine, Part};
use super::{ExportOptions, Exporter, Report, Table};
use crate::error::Result;

/// CSV in tidy long format: one observation per row, one column per variable (a typed column
/// expands into `x`, `x_exact`, `x_error_bound`, `x_lower`, `x_upper` as its cells need).
/// A report with several tables writes one, chosen with `--table` (the first by default).
/// By default the output is the header and the rows only, which `pandas.read_csv` and
/// `polars.read_csv` load with their default arguments; the manifest (and the names of the
/// other tables) is in the sidecar [`csv_sidecar`] that the commands writing files put at
/// [`sidecar_path`]. With [`ExportOptions::inline_manifest`] (`--manifest inline`) the
/// manifest comes first in `# key: value` lines, which readers skip with `comment='#'`
/// (pandas), `comment_prefix="#"` (polars) or `comment.char = "#"` (R).
///
/// # Examples
///
/// ```
/// use pathology::report::{ExportOptions, Format, Report};
/// let report = Report::new("table", "Table 1").param("_", 1);
/// # let report = report.with_table({
/// #     use pathology::report::{Cell, Column, Kind, Table};
/// #     let mut t = Table::new("decisions", "D(d,10)", vec![Column::new("d", Kind::Integer)]);
/// #     t.push(vec![Cell::Integer(1)]);
/// #     t
/// # });
/// let plain = report.render(Format::Csv, &ExportOptions::default()).unwrap();
/// assert_eq!(plain, "d\n1\n");
/// let inline = ExportOptions { inline_manifest: true, ..ExportOptions::default() };
/// let commented = report.render(Format::Csv, &inline).unwrap();
/// assert!(commented.starts_with("# tool: pathology "));
/// // The last line binds the manifest to the rows: the SHA-256 of "d\n1\n".
/// assert!(commented.contains("# table: decisions (D(d,10))\nd\n1\n# rows sha256: "));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Csv;

impl Exporter for Csv {
    fn export(&self, report: &Report, options: &ExportOptions) -> Result<String> {
        let table = report.csv_table(options)?;
        let others: Vec<&str> = report
            .tables
            .iter()
            .filter(|t| t.name != table.name)
            .map(|t| t.name.as_str())
            .collect();
        let mut out = if options.inline_manifest {
            preamble(report, table, &others)
        } else {
            String::new()
        };
        let columns = table.expanded();
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.write_record(header(&columns)).map_err(csv_bug)?;
        for row in &table.rows {
            writer
                .write_record(record(&columns, row))
                .map_err(csv_bug)?;
        }
        let bytes = writer
            .into_inner()
            .map_err(|e| csv_bug(e.into_error().into()))?;
        let digest = options.inline_manifest.then(|| sha256_hex(&bytes));
        out.push_str(&String::from_utf8(bytes).expect("CSV of UTF-8 strings is UTF-8"));
        if let Some(digest) = digest {
            out.push_str(&rows_digest_line(&digest));
        }
        Ok(out)
    }
}

/// The manifest key that binds a CSV manifest to the rows it was written with: `rows sha256:
/// HEX`, the SHA-256 of the header and rows exactly as the CSV writes them (of a plain CSV
/// file, `sha256sum NAME.csv` prints it). Inline (`--manifest inline`) it is the last line,
/// after the rows (a streamed table knows it only then); in a sidecar it is the key
/// `rows_sha256`. `pathology merge` recomputes it from the rows it reads
/// ([`crate::report::read::check_manifest_binds_rows`]) and refuses a manifest spliced onto other
/// rows.
pub const ROWS_DIGEST: &str = "rows sha256";

/// The inline manifest's last line, `# rows sha256: HEX`.
pub(crate) fn rows_digest_line(hex: &str) -> String {
    format!("# {ROWS_DIGEST}: {hex}\n")
}

/// SHA-256 of `bytes`, in lower-case hexadecimal.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex(&sha2::Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The SHA-256 of CSV records as the CSV writer writes them, fed as text already written
/// (a streamed table's header and rows) or record by record (the fields a reader read back,
/// re-encoded the way the writer quotes them).
pub(crate) struct RowsDigest(sha2::Sha256);

impl RowsDigest {
    pub(crate) fn new() -> Self {
        RowsDigest(sha2::Digest::new())
    }

    /// CSV text as the writer wrote it.
    pub(crate) fn text(&mut self, csv: &str) {
        sha2::Digest::update(&mut self.0, csv.as_bytes());
    }

    /// One record (the header or a row), encoded as the writer encodes it.
    pub(crate) fn record<I, F>(&mut self, fields: I)
    where
        I: IntoIterator<Item = F>,
        F: AsRef<[u8]>,
    {
        let mut writer = csv::WriterBuilder::new()
            .buffer_capacity(256)
            .from_writer(Vec::new());
        writer
            .write_record(fields)
            .expect("CSV into memory cannot fail");
        let bytes = writer
            .into_inner()
            .unwrap_or_else(|_| unreachable!("CSV into memory cannot fail"));
        sha2::Digest::update(&mut self.0, &bytes);
    }

    /// The digest in lower-case hexadecimal.
    pub(crate) fn finish(self) -> String {
        hex(&sha2::Digest::finalize(self.0))
    }
}

/// The comment lines above the header: the manifest, the table written and the `others`.
pub(crate) fn preamble(report: &Report, table: &Table, others: &[&str]) -> String {
    let mut out = String::new();
    for line in report.manifest.lines() {
        out.push_str(&format!("# {line}\n"));
    }
    out.push_str(&format!("# table: {} ({})\n", table.name, table.caption));
    if !others.is_empty() {
        out.push_str(&format!(
            "# other tables: {} (write one with --table NAME)\n",
            others.join(", ")
        ));
    }
    out
}

/// Where the manifest of the CSV file `path` goes: `path` with `.manifest.json` appended to
/// its file name (`plots/table1.csv` -> `plots/table1.csv.manifest.json`).
///
/// # Examples
///
/// ```
/// use pathology::report::sidecar_path;
/// use std::path::Path;
/// assert_eq!(sidecar_path(Path::new("plots/table1.csv")), Path::new("plots/table1.csv.manifest.json"));
/// ```
pub fn sidecar_path(path: &std::path::Path) -> std::path::PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".manifest.json");
    path.with_file_name(name)
}

/// The manifest of the CSV that [`Csv`] writes with `options`, as the JSON sidecar a
/// command writes beside a CSV file ([`sidecar_path`]): the JSON output's manifest and title,
/// the name and caption of the table the CSV holds, the names of the report's other tables
/// and the notes (which the CSV cannot hold):
///
/// ```text
/// {"manifest": {..the JSON output's manifest..}, "title": "..", "table": "decisions",
///  "caption": "..", "rows_sha256": "..", "other_tables": ["ps"], "notes": [..]}
/// ```
///
/// `rows_sha256` ([`crate::report::ROWS_DIGEST`]) is the SHA-256 of the plain CSV, which
/// binds the sidecar to its rows. `docs/schema/report.schema.json` describes it
/// (`$defs/sidecar`); `pathology merge` reads it when a CSV shard has no `#` manifest lines.
///
/// # Examples
///
/// ```
/// use pathology::report::{csv_sidecar, Cell, Column, ExportOptions, Kind, Report, Table};
/// let mut t = Table::new("decisions", "D(d,10)", vec![Column::new("d", Kind::Integer)]);
/// t.push(vec![Cell::Integer(1)]);
/// let report = Report::new("table", "Table 1").param("_", 1).with_table(t);
/// let sidecar = csv_sidecar(&report, &ExportOptions::default()).unwrap();
/// let value: serde_json::Value = serde_json::from_str(&sidecar).unwrap();
/// assert_eq!(value["manifest"]["command"], "pathology table 1");
/// assert_eq!(value["table"], "decisions");
/// assert_eq!(value["notes"], serde_json::json!([]));
/// // SHA-256 of the plain CSV "d\n1\n":
/// assert_eq!(value["rows_sha256"], "22aad777dadfc227761351ac4db67a9d03d47a31a4e3df938e8f9f521b21ad7a");
/// ```
///
/// # Errors
///
/// As [`Csv`]'s export: a [`ExportOptions::table`] that the report does not have.
pub fn csv_sidecar(report: &Report, options: &ExportOptions) -> Result<String> {
    let plain = ExportOptions {
        inline_manifest: false,
        ..options.clone()
    };
    let rows = Csv.export(report, &plain)?;
    sidecar(report, options, Some(&sha256_hex(rows.as_bytes())))
}

/// The sidecar of [`csv_sidecar`] with `rows_sha256` given: the digest of the CSV rows a
/// stream wrote, or `None` (JSON `null`) when the output was not CSV.
pub(crate) fn sidecar(
    report: &Report,
    options: &ExportOptions,
    rows_sha256: Option<&str>,
) -> Result<String> {
    let table = report.csv_table(options)?;
    let others: Vec<String> = report
        .tables
        .iter()
        .filter(|t| t.name != table.name)
        .map(|t| super::json_format::string(&t.name))
        .collect();
    let notes: Vec<String> = report
        .notes
        .iter()
        .map(|n| super::json_format::string(n))
        .collect();
    Ok(format!(
        "{{\n{},\n  \"title\": {},\n  \"table\": {},\n  \"caption\": {},\n  \"rows_sha256\": {},\n  \"other_tables\": [{}],\n  \"notes\": [{}]\n}}\n",
        super::json_format::manifest(&report.manifest),
        super::json_format::string(&report.title),
        super::json_format::string(&table.name),
        super::json_format::string(&table.caption),
        rows_sha256.map_or_else(|| "null".to_string(), super::json_format::string),
        others.join(", "),
        notes.join(", ")
    ))
}

/// A report's CSV file and its manifest sidecar, rendered, to be written together
/// ([`CsvFiles::write`]): how every command that writes a CSV file writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvFiles {
    /// The plain CSV (header and rows).
    pub csv: String,
    /// The sidecar ([`csv_sidecar`]).
    pub manifest: String,
}

impl CsvFiles {
    /// Renders `report`'s CSV (plain, whatever [`ExportOptions::inline_manifest`] says) and
    /// its sidecar.
    ///
    /// # Errors
    ///
    /// As [`csv_sidecar`].
    pub fn render(report: &Report, options: &ExportOptions) -> Result<Self> {
        let plain = ExportOptions {
            inline_manifest: false,
            ..options.clone()
        };
        // The sidecar's digest is that of this very CSV (rendered once).
        let csv = Csv.export(report, &plain)?;
        let manifest = sidecar(report, &plain, Some(&sha256_hex(csv.as_bytes())))?;
        Ok(CsvFiles { csv, manifest })
    }

    /// Writes the CSV to `path` and the sidecar to [`sidecar_path`]`(path)`, each atomically;
    /// returns the two paths, CSV first.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::{Cell, Column, CsvFiles, ExportOptions, Kind, Report, Table};
    /// let mut t = Table::new("decisions", "D(d,10)", vec![Column::new("d", Kind::Integer)]);
    /// t.push(vec![Cell::Integer(1)]);
    /// let report = Report::new("table", "Table 1").param("_", 1).with_table(t);
    /// let dir = tempfile::tempdir().unwrap();
    /// let files = CsvFiles::render(&report, &ExportOptions::default()).unwrap();
    /// let [csv, manifest] = files.write(&dir.path().join("t.csv")).unwrap();
    /// assert_eq!(std::fs::read_to_string(csv).unwrap(), "d\n1\n");
    /// assert!(manifest.ends_with("t.csv.manifest.json"));
    /// ```
    ///
    /// # Errors
    ///
    /// The path that could not be written, with the I/O error.
    pub fn write(
        &self,
        path: &std::path::Path,
    ) -> std::result::Result<[std::path::PathBuf; 2], (std::path::PathBuf, std::io::Error)> {
        let sidecar = sidecar_path(path);
        super::output::write_atomically(path, &self.csv).map_err(|e| (path.to_path_buf(), e))?;
        super::output::write_atomically(&sidecar, &self.manifest)
            .map_err(|e| (sidecar.clone(), e))?;
        Ok([path.to_path_buf(), sidecar])
    }
}

/// The header record of the expanded columns.
pub(crate) fn header(columns: &[(String, usize, Part)]) -> Vec<&str> {
    columns.iter().map(|(h, _, _)| h.as_str()).collect()
}

/// One row as a record of the expanded columns.
pub(crate) fn record(columns: &[(String, usize, Part)], row: &[Cell]) -> Vec<String> {
    columns
        .iter()
        .map(|(_, i, part)| match row[*i].machine(*part) {
            Machine::Number(s) | Machine::Str(s) => s,
            Machine::Null => String::new(),
        })
        .collect()
}

fn csv_bug(error: csv::Error) -> crate::Error {
    unreachable!("writing CSV into memory cannot fail: {error}")
}
