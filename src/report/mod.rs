//! **Layer 2, the report schema and its exporters.** May import: [`crate::error`],
//! [`crate::numeric`]. Renders and merges by schema alone: it knows no experiment.
//!
//! One report type for every result the tool prints, and one exporter per format.
//!
//! The library computes and returns a [`Report`]; an [`Exporter`] renders it; the binary only
//! parses arguments and picks the exporter (the model is hyperfine's `src/export/`: one trait,
//! one small file per format, all serialising the same result type). So every command gets
//! every format, the manifest and the exporters' tests for free.
//!
//! A report is a [`Manifest`] (tool, version, git commit, the canonical command, every
//! parameter, the mode, the seed) and one or more named [`Table`]s of typed [`Column`]s.
//! Tables are **tidy**: one observation per row, one column per variable; parameters are
//! columns too, so that rows of different runs can be concatenated and read back by
//! `pathology validate` and `pathology merge`.
//!
//! Cells are typed ([`Cell`]): an exact rational, an `f64` with a rigorous error bound, a
//! plain `f64`, a confidence interval, a whole number or text. The machine formats expand a
//! typed column into plain columns: a column `D` of exact cells becomes `D` (the nearest
//! `f64`) and `D_exact` (`"p/q"`); of bounded cells `D` and `D_error_bound`; an interval
//! column `estimate` becomes `estimate`, `estimate_lower`, `estimate_upper`.
//!
//! **Non-finite numbers.** JSON has no infinities and no NaN, so a value, bound or interval
//! end that is not finite is written as the string `"inf"`, `"-inf"` or `"nan"` in JSON and as
//! the same text in CSV (an infinite error bound means that nothing is known about the value);
//! every JSON output parses with a strict parser. An empty cell (no value, e.g. no exact
//! value to compare with) is `null` in JSON and an empty field in CSV.
//!
//! **Printed bounds stay bounds.** A printed error bound is rounded up so that the true value
//! lies within it of the *printed* value (the bound covers the decimal rounding of the value
//! too); a printed interval end is rounded outward (lower ends down, upper ends up). Values
//! that are not bounds (an estimate, an exact value shown to 3 decimals) are rounded to the
//! nearest.
//!
//! The manifest holds no wall-clock field, so seeded output is byte-identical run after run
//! and for any thread count; its command is canonical (no `--threads`, `--format` or output
//! paths), the command that regenerates the result alone.

mod cell;
pub mod claims;
mod csv_format;
pub mod figure;
mod json_format;
mod latex;
pub mod man;
mod markdown;
pub mod output;
pub mod read;
pub mod render;
pub mod stream;
mod text;

pub use cell::{Cell, format_f64, format_lower, format_upper, printed_error_bound};
pub use csv_format::{Csv, CsvFiles, ROWS_DIGEST, csv_sidecar, sidecar_path};
pub use json_format::Json;
pub use latex::Latex;
pub use markdown::Markdown;
pub use render::{RenderOptions, StreamError, stdout_buffered, stdout_writer};
pub use stream::{TableStream, probability_text_width};
pub use text::Text;

use crate::error::{Error, Result};

/// The tool's name as it appears in manifests.
pub const TOOL: &str = "pathology";
/// The tool's version (from `Cargo.toml`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The git commit the binary was built from (`unknown` outside a git checkout), with
/// `-dirty` when the work tree had uncommitted changes to tracked files at build time.
pub const COMMIT: &str = env!("PATHOLOGY_GIT_COMMIT");

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Aligned plain text, laid out like the paper.
    #[default]
    Text,
    /// Comma-separated values: one table, tidy long format; the manifest goes beside it (a
    /// NAME.csv.manifest.json file for the files a command writes; on standard output as
    /// --manifest says: none by default).
    Csv,
    /// JSON: `{"manifest", "tables": [{"name", "caption", "columns", "rows"}], "notes"}`.
    Json,
    /// A Markdown (GitHub) table, the manifest first in a fenced text block (copyable as is).
    Markdown,
    /// A LaTeX `table` with booktabs, caption and label, manifest in `%` comments.
    Latex,
}

impl Format {
    /// The usual file extension.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::Format;
    /// assert_eq!(Format::Markdown.extension(), "md");
    /// assert_eq!(Format::Latex.extension(), "tex");
    /// ```
    pub fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Markdown => "md",
            Format::Latex => "tex",
        }
    }

    /// The exporter for this format.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::{ExportOptions, Format, Report, Table, Column, Kind, Cell};
    /// let mut table = Table::new("t", "A table", vec![Column::new("d", Kind::Integer)]);
    /// table.push(vec![Cell::Integer(1)]);
    /// let report = Report::new("demo", "A demo").with_table(table);
    /// let csv = Format::Csv.exporter().export(&report, &ExportOptions::default()).unwrap();
    /// assert_eq!(csv, "d\n1\n"); // plain: the manifest goes beside it (`CsvFiles`)
    /// ```
    pub fn exporter(self) -> &'static dyn Exporter {
        match self {
            Format::Text => &Text,
            Format::Csv => &Csv,
            Format::Json => &Json,
            Format::Markdown => &Markdown,
            Format::Latex => &Latex,
        }
    }
}

/// Options of an export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportOptions {
    /// Decimals of values in text, Markdown and LaTeX (machine formats print full precision).
    pub decimals: usize,
    /// The table a CSV export writes (CSV holds one table); `None` is the first.
    pub table: Option<String>,
    /// CSV only: the manifest as `# key: value` lines above the header (`--manifest
    /// inline`). Off by default: the CSV is a plain header and rows, which
    /// `pandas.read_csv` and `polars.read_csv` load with their default arguments, and a
    /// file's manifest goes beside it ([`csv_sidecar`], [`sidecar_path`]).
    pub inline_manifest: bool,
    /// Text, Markdown and LaTeX: leave the manifest out (`--manifest none`); they carry it by
    /// default. CSV and JSON ignore it.
    pub omit_manifest: bool,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            decimals: 3,
            table: None,
            inline_manifest: false,
            omit_manifest: false,
        }
    }
}

/// Renders a report in one format.
pub trait Exporter: Sync {
    /// The rendered report.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--table` when CSV is asked for a table the report
    /// does not have.
    fn export(&self, report: &Report, options: &ExportOptions) -> Result<String>;
}

/// What kind of values a column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A probability or other real number: exact rationals, `f64` with a rigorous error
    /// bound, or plain `f64`.
    Real,
    /// A confidence interval: estimate, lower and upper end.
    Interval,
    /// A whole number.
    Integer,
    /// Text (names, seeds: a seed is text so that values above 2^53 survive JSON readers).
    Text,
}

/// One column of a table.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The machine name (CSV header, JSON key): lowercase, no spaces (`d`, `f1`, `estimate`).
    pub name: String,
    /// The human header (text, Markdown, LaTeX): `D(d,10)`.
    pub label: String,
    /// The kind of its cells.
    pub kind: Kind,
    /// A key column: a parameter that identifies the observation (`f1`, `h`, `d`), printed
    /// in its short exact form (`0.1`, `1/3`) rather than to a number of decimals.
    pub key: bool,
}

impl Column {
    /// A column whose label is its name.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::{Column, Kind};
    /// let c = Column::new("h", Kind::Integer).labelled("height");
    /// assert_eq!((c.name.as_str(), c.label.as_str()), ("h", "height"));
    /// ```
    pub fn new(name: &str, kind: Kind) -> Self {
        Column {
            name: name.to_string(),
            label: name.to_string(),
            kind,
            key: false,
        }
    }

    /// A key column (a parameter identifying the observation).
    pub fn key(name: &str, kind: Kind) -> Self {
        Column {
            key: true,
            ..Column::new(name, kind)
        }
    }

    /// The same column with a human label.
    pub fn labelled(mut self, label: &str) -> Self {
        self.label = label.to_string();
        self
    }
}

/// A grid of cells laid out for reading (the paper's layout of Table 1: depths down,
/// settings across, PS last), shown by text, Markdown and LaTeX instead of the tidy rows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Grid {
    /// Header rows (text).
    pub header: Vec<Vec<String>>,
    /// Body rows: a text label and cells.
    pub body: Vec<(String, Vec<Cell>)>,
    /// Body rows after which a rule is drawn (LaTeX `\midrule`), by index.
    pub rules_after: Vec<usize>,
}

/// A named table of typed columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The machine name (`decisions`, `ps`), used by `--table` and JSON.
    pub name: String,
    /// The caption.
    pub caption: String,
    /// The columns.
    pub columns: Vec<Column>,
    /// The rows: one cell per column.
    pub rows: Vec<Vec<Cell>>,
    /// The reading layout for text, Markdown and LaTeX (`None`: the rows themselves).
    pub grid: Option<Grid>,
    /// Data only: not shown by text, Markdown and LaTeX (its values are in another table's
    /// grid), still in CSV and JSON.
    pub data_only: bool,
}

impl Table {
    /// An empty table.
    pub fn new(name: &str, caption: &str, columns: Vec<Column>) -> Self {
        Table {
            name: name.to_string(),
            caption: caption.to_string(),
            columns,
            rows: Vec::new(),
            grid: None,
            data_only: false,
        }
    }

    /// Appends a row.
    ///
    /// # Panics
    ///
    /// When the row has a different number of cells than the table has columns (a bug in
    /// the code building the table).
    pub fn push(&mut self, row: Vec<Cell>) {
        assert_eq!(
            row.len(),
            self.columns.len(),
            "row of table {} has {} cells for {} columns",
            self.name,
            row.len(),
            self.columns.len()
        );
        self.rows.push(row);
    }

    /// The index of a column by name.
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// The plain (expanded) column names of the machine formats, with the source column and
    /// the part of its cells each holds.
    pub(crate) fn expanded(&self) -> Vec<(String, usize, cell::Part)> {
        expanded_columns(&self.columns, &self.rows)
    }
}

/// Refuses rows of `table` with a number that is not finite ([`Cell::is_finite`]): every
/// format, the streamed ones too, goes through here, so no `nan` or `inf` reaches an output
/// column (`--p 1e-400` once printed D = NaN with the bound inf).
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming the table, column and row: a computation that lost its
/// meaning in `f64` (an underflow or an overflow); `--exact` computes in rationals.
pub(crate) fn check_finite(table: &Table, rows: &[Vec<Cell>]) -> Result<()> {
    for (r, row) in rows.iter().enumerate() {
        for (cell, column) in row.iter().zip(&table.columns) {
            if !cell.is_finite() {
                return Err(Error::invalid(
                    &format!(
                        "column {} of table {} (row {})",
                        column.name,
                        table.name,
                        r + 1
                    ),
                    "a finite number: the f64 computation overflowed or underflowed for these \
                     parameters, so nothing is printed (--exact computes in rationals where it \
                     is offered)",
                    cell.message_text(),
                ));
            }
        }
    }
    Ok(())
}

/// The provenance of a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// The tool's name.
    pub tool: String,
    /// Its version.
    pub version: String,
    /// The git commit it was built from.
    pub commit: String,
    /// The subcommand (`table`, `mc dgame`).
    pub command: String,
    /// Every parameter that affects the result, in order, as text.
    pub parameters: Vec<(String, String)>,
    /// `exact`, `f64`, `monte-carlo`, ...
    pub mode: String,
    /// The seed of the random streams, if any (text: seeds go beyond 2^53).
    pub seed: Option<u64>,
}

impl Manifest {
    /// The canonical command line that regenerates the result: the subcommand and every
    /// parameter as `--name value` (flags whose value is `true` as `--name`, `false` ones
    /// left out; a parameter named `_` is positional).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::Report;
    /// let r = Report::new("table", "Table 1").param("_", 1).param("exact", true).param("seed_free", false);
    /// assert_eq!(r.manifest.command_line(), "pathology table 1 --exact");
    /// ```
    pub fn command_line(&self) -> String {
        let mut out = format!("{} {}", self.tool, self.command);
        for (name, value) in &self.parameters {
            match (name.as_str(), value.as_str()) {
                (_, "false") => {}
                ("_", v) => out.push_str(&format!(" {}", shell_word(v))),
                (n, "true") => out.push_str(&format!(" --{}", n.replace('_', "-"))),
                (n, v) => out.push_str(&format!(" --{} {}", n.replace('_', "-"), shell_word(v))),
            }
        }
        if let Some(seed) = self.seed {
            out.push_str(&format!(" --seed {seed}"));
        }
        out
    }

    /// The value of a parameter.
    pub fn parameter(&self, name: &str) -> Option<&str> {
        self.parameters
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The manifest as `key: value` lines (what the text-like formats print in comments).
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![
            format!("tool: {} {}", self.tool, self.version),
            format!("commit: {}", self.commit),
            format!("subcommand: {}", self.command),
            format!("command: {}", self.command_line()),
            format!("mode: {}", self.mode),
        ];
        if let Some(seed) = self.seed {
            lines.push(format!("seed: {seed}"));
        }
        for (name, value) in &self.parameters {
            let name = if name == "_" { "argument" } else { name };
            lines.push(format!("parameter {name}: {value}"));
        }
        lines
    }
}

/// Quotes a word for a POSIX shell when needed.
fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./,:=+".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// A result: manifest, tables and notes.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Provenance.
    pub manifest: Manifest,
    /// The title.
    pub title: String,
    /// The tables, main one first.
    pub tables: Vec<Table>,
    /// Notes printed under the tables (what a bound means, what was refused, ...).
    pub notes: Vec<String>,
}

impl Report {
    /// An empty report of a subcommand, in `f64` mode with no parameters.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::Report;
    /// let r = Report::new("wb", "w_b").param("branching", 2).mode("f64");
    /// assert_eq!(r.manifest.parameter("branching"), Some("2"));
    /// assert_eq!(r.manifest.version, env!("CARGO_PKG_VERSION"));
    /// ```
    pub fn new(command: &str, title: &str) -> Self {
        Report {
            manifest: Manifest {
                tool: TOOL.to_string(),
                version: VERSION.to_string(),
                commit: COMMIT.to_string(),
                command: command.to_string(),
                parameters: Vec::new(),
                mode: "f64".to_string(),
                seed: None,
            },
            title: title.to_string(),
            tables: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Adds a parameter (its `Display` text).
    pub fn param(mut self, name: &str, value: impl std::fmt::Display) -> Self {
        self.manifest
            .parameters
            .push((name.to_string(), value.to_string()));
        self
    }

    /// Sets the mode.
    pub fn mode(mut self, mode: &str) -> Self {
        self.manifest.mode = mode.to_string();
        self
    }

    /// Sets the seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.manifest.seed = Some(seed);
        self
    }

    /// Adds a table.
    pub fn with_table(mut self, table: Table) -> Self {
        self.tables.push(table);
        self
    }

    /// Adds a note.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// A table by name.
    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name == name)
    }

    /// Renders the report in a format.
    ///
    /// # Errors
    ///
    /// As [`Exporter::export`].
    pub fn render(&self, format: Format, options: &ExportOptions) -> Result<String> {
        for table in &self.tables {
            check_finite(table, &table.rows)?;
        }
        format.exporter().export(self, options)
    }

    /// The notes, with [`REDUCED_NOTE`] after them when `reduced` (some value was printed with
    /// fewer decimals than asked).
    pub(crate) fn notes_with(&self, reduced: bool) -> Vec<String> {
        let mut notes = self.notes.clone();
        if reduced {
            notes.push(REDUCED_NOTE.to_string());
        }
        notes
    }

    /// The table a CSV export writes.
    pub(crate) fn csv_table(&self, options: &ExportOptions) -> Result<&Table> {
        let names = || {
            self.tables
                .iter()
                .map(|t| t.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match &options.table {
            None => self
                .tables
                .first()
                .ok_or_else(|| Error::invalid("--table", "a table of the report", "none")),
            Some(name) => self
                .table(name)
                .ok_or_else(|| Error::invalid("--table", &format!("one of {}", names()), name)),
        }
    }
}

/// A table laid out for readers: header rows, body rows (all text), the body rows after which
/// a rule goes, and whether some `f64` value was printed with fewer decimals than asked
/// because its bound supports no more.
pub(crate) struct HumanGrid {
    pub header: Vec<Vec<String>>,
    pub body: Vec<Vec<String>>,
    pub rules_after: Vec<usize>,
    pub reduced: bool,
}

impl Table {
    /// The reader's layout: the grid when there is one, else the rows under the labels.
    pub(crate) fn human(&self, decimals: usize) -> HumanGrid {
        let mut reduced = false;
        let mut show = |cell: &Cell, key: bool| {
            if key {
                return output::shortened(cell.human_key());
            }
            let (text, r) = cell.human(decimals);
            reduced |= r;
            output::shortened(text)
        };
        match &self.grid {
            Some(grid) => {
                let body = grid
                    .body
                    .iter()
                    .map(|(label, cells)| {
                        std::iter::once(label.clone())
                            .chain(cells.iter().map(|c| show(c, false)))
                            .collect()
                    })
                    .collect();
                HumanGrid {
                    header: grid.header.clone(),
                    body,
                    rules_after: grid.rules_after.clone(),
                    reduced,
                }
            }
            None => {
                let header = vec![self.columns.iter().map(|c| c.label.clone()).collect()];
                let body = self
                    .rows
                    .iter()
                    .map(|row| {
                        row.iter()
                            .zip(&self.columns)
                            .map(|(cell, column)| show(cell, column.key))
                            .collect()
                    })
                    .collect();
                HumanGrid {
                    header,
                    body,
                    rules_after: Vec::new(),
                    reduced,
                }
            }
        }
    }

    /// Lines `key=value, ...: label = p/q` for every exact non-key cell (what text output
    /// appends so that exact values are never lost in print).
    pub(crate) fn exact_lines(&self) -> Vec<String> {
        exact_lines_of(&self.columns, &self.rows)
    }
}

/// The plain (expanded) column names of the machine formats for `rows` under `columns`, with
/// the source column and the part of its cells each holds ([`Table::expanded`]).
pub(crate) fn expanded_columns(
    columns: &[Column],
    rows: &[Vec<Cell>],
) -> Vec<(String, usize, cell::Part)> {
    let mut out = Vec::new();
    for (i, column) in columns.iter().enumerate() {
        for part in cell::parts(column.kind, rows.iter().map(|r| &r[i])) {
            out.push((part.header(&column.name), i, part));
        }
    }
    out
}

/// The exact-value lines of `rows` under `columns` ([`Table::exact_lines`]).
pub(crate) fn exact_lines_of(columns: &[Column], rows: &[Vec<Cell>]) -> Vec<String> {
    let mut lines = Vec::new();
    for row in rows {
        let keys: Vec<String> = row
            .iter()
            .zip(columns)
            .filter(|(_, c)| c.key)
            .map(|(cell, c)| format!("{}={}", c.name, cell.human_key()))
            .collect();
        for (cell, column) in row.iter().zip(columns) {
            if let (Cell::Exact(r), false) = (cell, column.key) {
                lines.push(format!(
                    "{}: {} = {}/{}",
                    keys.join(", "),
                    column.label,
                    r.numer(),
                    r.denom()
                ));
            }
        }
    }
    lines
}

/// The note that text, Markdown and LaTeX add when values were printed with fewer decimals.
pub(crate) const REDUCED_NOTE: &str = "Some f64 values are printed with fewer decimals than \
     asked: their rigorous error bound supports no more (--exact prints any number of decimals).";

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;

    pub(crate) fn sample() -> Report {
        let mut t = Table::new(
            "decisions",
            "D(d,2)",
            vec![
                Column::new("f1", Kind::Real),
                Column::new("d", Kind::Integer),
                Column::new("D", Kind::Real).labelled("D(d,2)"),
                Column::new("estimate", Kind::Interval),
                Column::new("seed", Kind::Text),
            ],
        );
        t.push(vec![
            Cell::Exact(BigRational::new(1.into(), 10.into())),
            Cell::Integer(1),
            Cell::Exact(BigRational::new(2.into(), 3.into())),
            Cell::Interval {
                estimate: 0.6,
                lower: 0.55,
                upper: 0.65,
            },
            Cell::Text("18446744073709551615".into()),
        ]);
        Report::new("demo", "A demo")
            .param("height", 2)
            .mode("exact")
            .seed(u64::MAX)
            .with_table(t)
            .note("a note")
    }

    #[test]
    fn manifest_names_version_commit_and_seed() {
        let r = sample();
        let lines = r.manifest.lines();
        assert!(lines[0].starts_with("tool: pathology "));
        assert!(lines.iter().any(|l| l == "seed: 18446744073709551615"));
        assert_eq!(
            r.manifest.command_line(),
            "pathology demo --height 2 --seed 18446744073709551615"
        );
    }

    #[test]
    fn every_format_carries_the_manifest() {
        let r = sample();
        for format in [
            Format::Text,
            Format::Csv,
            Format::Json,
            Format::Markdown,
            Format::Latex,
        ] {
            // CSV with `--manifest inline`; plain CSV's manifest is its sidecar.
            let options = ExportOptions {
                inline_manifest: true,
                ..ExportOptions::default()
            };
            let out = r.render(format, &options).unwrap();
            assert!(out.contains(VERSION), "{format:?}: {out}");
            assert!(out.contains(COMMIT), "{format:?}");
        }
    }

    #[test]
    fn csv_table_is_chosen_by_name() {
        let r = sample();
        let options = ExportOptions {
            table: Some("nope".into()),
            ..ExportOptions::default()
        };
        let err = r.render(Format::Csv, &options).unwrap_err();
        assert!(err.to_string().contains("--table must be one of decisions"));
    }

    #[test]
    fn shell_words_are_quoted() {
        assert_eq!(shell_word("0.1,0.2"), "0.1,0.2");
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("........O"), "........O");
    }
}
