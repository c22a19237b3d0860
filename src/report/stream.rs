//! A report written while its main table is computed: each row is printed as soon as it is
//! known, in any of the five formats, byte for byte what [`Report::render`] prints for the
//! whole report (so a long run shows its rows as they come and holds none of them).
//!
//! The streamed table is the report's first; the other tables (small ones: the PS column of a
//! sweep) are handed over complete at [`TableStream::finish`], and so are the notes, which
//! may depend on every row (the largest error bound). What the formats need up front:
//!
//! - CSV and JSON write the tidy rows ([`TableStream::push_rows`]); the expansion of a
//!   typed column into plain columns (`D`, `D_exact`, `D_error_bound`) is taken from the
//!   first rows pushed, and later rows must need no other part.
//! - Text, Markdown and LaTeX write the reading layout ([`TableStream::push_grid`]), or the
//!   tidy rows under their labels when the table has no grid. Text aligns its columns and
//!   LaTeX sizes its font from the widest cells, so the caller gives, at
//!   [`TableStream::start`], a table laid out as the one to come whose cells are at least as
//!   wide (the keys of every setting, placeholder probabilities: a probability prints
//!   [`probability_text_width`] characters at most); a cell wider than that is printed whole
//!   and pushes its line's later cells right. The one difference from the whole report:
//!   when `f64` values print with fewer decimals than asked (their bound supports no more,
//!   e.g. 12 decimals), their columns stay as wide as the asked decimals would make them
//!   (text), and LaTeX's size estimate counts that width.
//!   Text also lists every exact value under the table: it reads them from the tidy rows.

use std::io::Write;

use super::cell::{self, Cell, Part};
use super::{ExportOptions, Format, Report, Table, csv_format, json_format, latex, markdown, text};
use crate::report::output::align_row;
use std::io::Result;

/// The printed width of a probability (a value in `[0, 1]`) in text with `decimals` decimals:
/// `0.500` is 5 characters at 3 decimals. An `f64` value whose bound supports fewer decimals
/// prints narrower, never wider.
///
/// # Examples
///
/// ```
/// use pathology::report::probability_text_width;
/// assert_eq!(probability_text_width(3), 5);
/// assert_eq!(probability_text_width(0), 1);
/// ```
pub fn probability_text_width(decimals: usize) -> usize {
    let one = num_rational::BigRational::from_integer(1.into());
    Cell::Exact(one).human(decimals).0.chars().count()
}

/// A report being written row by row: see the [module documentation](self).
pub struct TableStream<W: Write> {
    out: W,
    format: Format,
    decimals: usize,
    report: Report,
    table: Table,
    others: Vec<String>,
    /// Text: the column widths of the reading layout.
    widths: Vec<usize>,
    /// CSV and JSON: the expanded columns, fixed by the first rows pushed.
    columns: Option<Vec<(String, usize, Part)>>,
    rows: usize,
    reduced: bool,
    exact: Vec<String>,
    /// CSV: the manifest in `#` lines above the header.
    inline_manifest: bool,
    /// CSV: the digest of the header and rows written so far
    /// ([`crate::report::ROWS_DIGEST`]), the inline manifest's last line and the sidecar's
    /// `rows_sha256`.
    digest: Option<csv_format::RowsDigest>,
    /// Text, Markdown, LaTeX: the manifest left out.
    omit_manifest: bool,
}

impl<W: Write> TableStream<W> {
    /// Starts writing `report` (manifest and title; its tables and notes are ignored) whose
    /// first table is `table` (columns, caption and, for the reading layout, the grid's
    /// header; its rows and grid body are ignored), followed at [`Self::finish`] by the
    /// tables `others` (their names and whether they are shown count here, their rows at
    /// the finish). `widest` is laid out as `table` will be, with cells at least as wide as
    /// any to come.
    ///
    /// # Errors
    ///
    /// The writer's error when writing fails.
    pub fn start(
        mut out: W,
        report: &Report,
        table: &Table,
        others: &[&Table],
        format: Format,
        options: &ExportOptions,
        widest: &Table,
    ) -> Result<Self> {
        let report = Report {
            tables: Vec::new(),
            notes: Vec::new(),
            ..report.clone()
        };
        let mut table = table.clone();
        table.rows.clear();
        if let Some(grid) = &mut table.grid {
            grid.body.clear();
            grid.rules_after.clear();
        }
        table.data_only = false;
        let header = reading_header(&table);
        let mut widest_rows = header.clone();
        widest_rows.extend(widest.human(options.decimals).body);
        let widths = crate::report::output::column_widths(&widest_rows);
        let head = match format {
            Format::Csv => String::new(),
            Format::Json => json_format::head(&report),
            Format::Text => {
                let mut s = format!("{}\n", report.title);
                s.push_str(&text::table_head(&report, &table));
                for row in &header {
                    s.push_str(&align_row(row, &widths));
                }
                s
            }
            Format::Markdown => {
                let mut s = markdown::head(&report, !options.omit_manifest);
                s.push_str(&markdown::table_head(&report, &table));
                let joined = markdown::header(&header, widths.len());
                s.push_str(&crate::report::output::markdown_header(&joined));
                s
            }
            Format::Latex => {
                let mut s = latex::head(&report, !options.omit_manifest);
                let shown = 1 + others.iter().filter(|t| !t.data_only).count();
                s.push_str(&latex::table_open(
                    &report,
                    &table,
                    shown,
                    &header,
                    &widest_rows,
                ));
                s
            }
        };
        out.write_all(head.as_bytes())?;
        out.flush()?;
        Ok(TableStream {
            out,
            format,
            decimals: options.decimals,
            report,
            table,
            others: others.iter().map(|t| t.name.clone()).collect(),
            widths,
            columns: None,
            rows: 0,
            reduced: false,
            exact: Vec::new(),
            inline_manifest: options.inline_manifest,
            digest: (format == Format::Csv).then(csv_format::RowsDigest::new),
            omit_manifest: options.omit_manifest,
        })
    }

    /// Whether [`Self::push_rows`] is needed: CSV and JSON print the tidy rows, text lists
    /// their exact values, and a table without a grid shows them in every format.
    pub fn wants_rows(&self) -> bool {
        !matches!(self.format, Format::Markdown | Format::Latex) || self.table.grid.is_none()
    }

    /// Whether [`Self::push_grid`] is needed: text, Markdown and LaTeX of a table with a grid.
    pub fn wants_grid(&self) -> bool {
        !matches!(self.format, Format::Csv | Format::Json) && self.table.grid.is_some()
    }

    /// Writes (or, for the formats that show the grid, notes the exact values of) tidy rows.
    ///
    /// # Errors
    ///
    /// The writer's error when writing fails; a cell that is not a finite number
    /// ([`Cell::is_finite`]).
    ///
    /// # Panics
    ///
    /// When a row has the wrong number of cells, or a cell needs a part its column's first
    /// rows did not (an exact value in a column of `f64` ones): bugs of the caller.
    pub fn push_rows(&mut self, rows: &[Vec<Cell>]) -> Result<()> {
        if rows.is_empty() {
            return Ok(());
        }
        super::check_finite(&self.table, rows).map_err(std::io::Error::other)?;
        for row in rows {
            assert_eq!(
                row.len(),
                self.table.columns.len(),
                "row of {}",
                self.table.name
            );
        }
        let mut out = String::new();
        match self.format {
            Format::Csv | Format::Json => {
                if self.columns.is_none() {
                    self.open_machine_table(rows, &mut out);
                }
                let columns = self.columns.as_ref().expect("opened");
                check_parts(&self.table, columns, rows);
                if self.format == Format::Csv {
                    let records = rows.iter().map(|row| csv_format::record(columns, row));
                    let text = csv_records(records);
                    if let Some(digest) = &mut self.digest {
                        digest.text(&text);
                    }
                    out.push_str(&text);
                } else {
                    for row in rows {
                        out.push_str(&json_format::row_text(columns, row, self.rows == 0));
                        self.rows += 1;
                    }
                }
            }
            Format::Text | Format::Markdown | Format::Latex => {
                if self.format == Format::Text {
                    self.exact
                        .extend(super::exact_lines_of(&self.table.columns, rows));
                }
                if self.table.grid.is_none() {
                    let (decimals, reduced) = (self.decimals, &mut self.reduced);
                    let body: Vec<Vec<String>> = rows
                        .iter()
                        .map(|row| {
                            row.iter()
                                .zip(&self.table.columns)
                                .map(|(cell, column)| show(cell, column.key, decimals, reduced))
                                .collect()
                        })
                        .collect();
                    out.push_str(&self.body_text(&body));
                }
            }
        }
        self.write(&out)
    }

    /// Writes rows of the reading layout (a label and cells), in text, Markdown and LaTeX;
    /// ignored by CSV and JSON.
    ///
    /// # Errors
    ///
    /// The writer's error when writing fails.
    pub fn push_grid(&mut self, rows: &[(String, Vec<Cell>)]) -> Result<()> {
        if !self.wants_grid() || rows.is_empty() {
            return Ok(());
        }
        let cells: Vec<Vec<Cell>> = rows.iter().map(|(_, cells)| cells.clone()).collect();
        for row in &cells {
            if let Some(cell) = row.iter().find(|c| !c.is_finite()) {
                return Err(std::io::Error::other(crate::error::Error::invalid(
                    &format!("a cell of table {}", self.table.name),
                    "a finite number: the f64 computation overflowed or underflowed",
                    cell.message_text(),
                )));
            }
        }
        let (decimals, reduced) = (self.decimals, &mut self.reduced);
        let body: Vec<Vec<String>> = rows
            .iter()
            .map(|(label, cells)| {
                std::iter::once(label.clone())
                    .chain(cells.iter().map(|c| show(c, false, decimals, reduced)))
                    .collect()
            })
            .collect();
        let out = self.body_text(&body);
        self.write(&out)
    }

    /// Ends the streamed table, writes the `others` tables (complete, in the order and with
    /// the names given at [`Self::start`]) and the `notes`, and returns the writer.
    ///
    /// # Errors
    ///
    /// The writer's error when writing fails.
    ///
    /// # Panics
    ///
    /// When `others` are not the tables named at the start.
    pub fn finish(self, others: Vec<Table>, notes: Vec<String>) -> Result<W> {
        self.finish_with_rows_digest(others, notes)
            .map(|(out, _)| out)
    }

    /// As [`Self::finish`], also returning the SHA-256 of the CSV header and rows written
    /// ([`crate::report::ROWS_DIGEST`]; `None` for the other formats), for the manifest file
    /// written after the stream ([`super::RenderOptions::write_streamed_manifest`]).
    ///
    /// # Errors
    ///
    /// As [`Self::finish`].
    ///
    /// # Panics
    ///
    /// As [`Self::finish`].
    pub fn finish_with_rows_digest(
        mut self,
        others: Vec<Table>,
        notes: Vec<String>,
    ) -> Result<(W, Option<String>)> {
        let names: Vec<&str> = others.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names, self.others,
            "the other tables of {}",
            self.table.name
        );
        self.report.notes = notes;
        let mut out = String::new();
        let mut rows_digest = None;
        match self.format {
            Format::Csv => {
                if self.columns.is_none() {
                    self.open_machine_table(&[], &mut out);
                }
                let digest = self.digest.take().map(csv_format::RowsDigest::finish);
                if let Some(hex) = &digest
                    && self.inline_manifest
                {
                    out.push_str(&csv_format::rows_digest_line(hex));
                }
                rows_digest = digest;
            }
            Format::Json => {
                if self.columns.is_none() {
                    self.open_machine_table(&[], &mut out);
                }
                out.push_str(json_format::table_close(self.rows == 0));
                for table in &others {
                    let columns = table.expanded();
                    out.push_str(&json_format::table_open(table, &columns, false));
                    for (r, row) in table.rows.iter().enumerate() {
                        out.push_str(&json_format::row_text(&columns, row, r == 0));
                    }
                    out.push_str(json_format::table_close(table.rows.is_empty()));
                }
                out.push_str(&json_format::tail(false, &self.report.notes));
            }
            Format::Text | Format::Markdown | Format::Latex => {
                if self.format == Format::Latex {
                    out.push_str(latex::TABLE_CLOSE);
                }
                let shown = 1 + others.iter().filter(|t| !t.data_only).count();
                for table in others.iter().filter(|t| !t.data_only) {
                    let (block, reduced) = match self.format {
                        Format::Text => text::table_block(&self.report, table, self.decimals),
                        Format::Markdown => {
                            markdown::table_block(&self.report, table, self.decimals)
                        }
                        _ => latex::table_block(&self.report, table, self.decimals, shown),
                    };
                    out.push_str(&block);
                    self.reduced |= reduced;
                }
                match self.format {
                    Format::Text => {
                        for table in &others {
                            self.exact.extend(table.exact_lines());
                        }
                        out.push_str(&text::tail(
                            &self.report,
                            &self.exact,
                            self.reduced,
                            !self.omit_manifest,
                        ));
                    }
                    Format::Markdown => out.push_str(&markdown::tail(&self.report, self.reduced)),
                    _ => out.push_str(&latex::tail(&self.report, self.reduced)),
                }
            }
        }
        self.write(&out)?;
        Ok((self.out, rows_digest))
    }

    /// CSV: the comment lines (with `--manifest inline`) and header; JSON: the table's opening. The column expansion
    /// is that of `rows` (the first pushed).
    fn open_machine_table(&mut self, rows: &[Vec<Cell>], out: &mut String) {
        let columns = super::expanded_columns(&self.table.columns, rows);
        if self.format == Format::Csv {
            if self.inline_manifest {
                let others: Vec<&str> = self.others.iter().map(String::as_str).collect();
                out.push_str(&csv_format::preamble(&self.report, &self.table, &others));
            }
            let header = csv_records(std::iter::once(csv_format::header(&columns)));
            if let Some(digest) = &mut self.digest {
                digest.text(&header);
            }
            out.push_str(&header);
        } else {
            out.push_str(&json_format::table_open(&self.table, &columns, true));
        }
        self.columns = Some(columns);
    }

    fn body_text(&self, body: &[Vec<String>]) -> String {
        body.iter()
            .map(|row| match self.format {
                Format::Text => align_row(row, &self.widths),
                Format::Markdown => markdown::row(row),
                _ => latex::row(row),
            })
            .collect()
    }

    fn write(&mut self, text: &str) -> Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.out.flush()?;
        Ok(())
    }
}

/// A cell as the reading layout shows it, noting in `reduced` a value printed with fewer
/// decimals.
fn show(cell: &Cell, key: bool, decimals: usize, reduced: &mut bool) -> String {
    if key {
        return cell.human_key();
    }
    let (text, r) = cell.human(decimals);
    *reduced |= r;
    text
}

/// CSV records as text (quoted as the batch exporter quotes them).
fn csv_records<I, R, F>(records: I) -> String
where
    I: IntoIterator<Item = R>,
    R: IntoIterator<Item = F>,
    F: AsRef<[u8]>,
{
    let mut writer = csv::Writer::from_writer(Vec::new());
    for record in records {
        writer.write_record(record).expect("CSV into memory");
    }
    let bytes = writer.into_inner().expect("CSV into memory");
    String::from_utf8(bytes).expect("CSV of UTF-8 is UTF-8")
}

/// The header rows of the reading layout.
fn reading_header(table: &Table) -> Vec<Vec<String>> {
    match &table.grid {
        Some(grid) => grid.header.clone(),
        None => vec![table.columns.iter().map(|c| c.label.clone()).collect()],
    }
}

/// Checks that no cell of `rows` needs a part its column lacks.
fn check_parts(table: &Table, columns: &[(String, usize, Part)], rows: &[Vec<Cell>]) {
    for (i, column) in table.columns.iter().enumerate() {
        for part in cell::parts(column.kind, rows.iter().map(|r| &r[i])) {
            assert!(
                columns.iter().any(|(_, j, p)| *j == i && *p == part),
                "column {} of {} needs {part:?}, which its first rows did not",
                column.name,
                table.name
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Column, Grid, Kind};
    use num_rational::BigRational;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    /// A report like a sweep's: a main table with a grid (one row per setting), a data-only
    /// second table, exact or bounded cells, a note.
    fn sweep_like(exact: bool, with_grid: bool) -> Report {
        let value = |v: i64| {
            if exact {
                Cell::Exact(q(v, 7))
            } else {
                Cell::Bounded {
                    value: v as f64 / 7.0,
                    bound: if v == 3 { 1e-2 } else { 1e-15 },
                }
            }
        };
        let mut main = Table::new(
            "decisions",
            "D by setting",
            vec![
                Column::key("f1", Kind::Real),
                Column::key("d", Kind::Integer),
                Column::new("D", Kind::Real).labelled("D(d,2)"),
            ],
        );
        let mut ps = Table::new(
            "ps",
            "PS",
            vec![Column::key("f1", Kind::Real), Column::new("PS", Kind::Real)],
        );
        ps.data_only = with_grid;
        let mut body = Vec::new();
        for (i, f1) in [q(1, 10), q(1, 3), q(7, 8)].into_iter().enumerate() {
            let mut cells = Vec::new();
            for d in 1..=2 {
                let v = value(i as i64 + d);
                main.push(vec![
                    Cell::Exact(f1.clone()),
                    Cell::int(d as u64),
                    v.clone(),
                ]);
                cells.push(v);
            }
            ps.push(vec![Cell::Exact(f1.clone()), value(i as i64)]);
            body.push((crate::numeric::number::short_text(&f1), cells));
        }
        if with_grid {
            main.grid = Some(Grid {
                header: vec![vec!["f1".into(), "d=1".into(), "d=2".into()]],
                body,
                rules_after: Vec::new(),
            });
        }
        Report::new("sweep", "A sweep | of 3")
            .param("height", 2)
            .with_table(main)
            .with_table(ps)
            .note("largest bound 1e-2")
    }

    /// Streams `report` in chunks of one setting and returns what was written.
    fn streamed(report: &Report, format: Format, decimals: usize) -> String {
        let options = ExportOptions {
            decimals,
            ..ExportOptions::default()
        };
        let (main, others) = (&report.tables[0], &report.tables[1..]);
        let other_refs: Vec<&Table> = others.iter().collect();
        let mut stream = TableStream::start(
            Vec::new(),
            report,
            main,
            &other_refs,
            format,
            &options,
            main,
        )
        .unwrap();
        for (k, rows) in main.rows.chunks(2).enumerate() {
            if stream.wants_rows() {
                stream.push_rows(rows).unwrap();
            }
            if let Some(grid) = &main.grid {
                stream.push_grid(&grid.body[k..k + 1]).unwrap();
            }
        }
        let out = stream
            .finish(others.to_vec(), report.notes.clone())
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn streaming_writes_what_the_exporters_write() {
        for exact in [false, true] {
            for with_grid in [true, false] {
                let report = sweep_like(exact, with_grid);
                for format in [
                    Format::Text,
                    Format::Csv,
                    Format::Json,
                    Format::Markdown,
                    Format::Latex,
                ] {
                    for decimals in [0, 3, 12] {
                        let options = ExportOptions {
                            decimals,
                            ..ExportOptions::default()
                        };
                        let whole = report.render(format, &options).unwrap();
                        assert_eq!(
                            streamed(&report, format, decimals),
                            whole,
                            "{format:?}, exact {exact}, grid {with_grid}, {decimals} decimals"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn an_empty_stream_is_an_empty_table() {
        let mut report = sweep_like(true, true);
        report.tables[0].rows.clear();
        report.tables[0].grid.as_mut().unwrap().body.clear();
        for format in [Format::Csv, Format::Json, Format::Text] {
            let whole = report.render(format, &ExportOptions::default()).unwrap();
            let main = &report.tables[0];
            let others: Vec<&Table> = report.tables[1..].iter().collect();
            let stream = TableStream::start(
                Vec::new(),
                &report,
                main,
                &others,
                format,
                &ExportOptions::default(),
                main,
            )
            .unwrap();
            let out = stream
                .finish(report.tables[1..].to_vec(), report.notes.clone())
                .unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), whole, "{format:?}");
        }
    }

    #[test]
    fn widths_come_from_the_widest_rows_given() {
        assert_eq!(probability_text_width(3), 5);
        assert_eq!(probability_text_width(12), 14);
        let report = sweep_like(true, true);
        let main = &report.tables[0];
        let mut widest = main.clone();
        let grid = widest.grid.as_mut().unwrap();
        grid.body = vec![("0.1234".to_string(), vec![Cell::Real(0.0), Cell::Real(0.0)])];
        let mut stream = TableStream::start(
            Vec::new(),
            &report,
            main,
            &[],
            Format::Text,
            &ExportOptions::default(),
            &widest,
        )
        .unwrap();
        stream
            .push_grid(&main.grid.as_ref().unwrap().body[..1])
            .unwrap();
        let out = String::from_utf8(stream.finish(Vec::new(), Vec::new()).unwrap()).unwrap();
        assert!(
            out.contains("\nf1        d=1    d=2\n0.1     0.143  0.286\n"),
            "{out}"
        );
    }
}
