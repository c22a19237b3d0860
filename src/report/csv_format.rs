//! CSV: one tidy table, the manifest in `#` comment lines above the header.

use super::cell::{Cell, Machine, Part};
use super::{ExportOptions, Exporter, Report, Table};
use crate::error::Result;

/// CSV in tidy long format: one observation per row, one column per variable (a typed column
/// expands into `x`, `x_exact`, `x_error_bound`, `x_lower`, `x_upper` as its cells need).
/// A report with several tables writes one, chosen with `--table` (the first by default);
/// the comment lines name the others. Readers skip the comments with `comment='#'`
/// (pandas) or `comment.char = "#"` (R).
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
        let mut out = preamble(report, table, &others);
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
        out.push_str(&String::from_utf8(bytes).expect("CSV of UTF-8 strings is UTF-8"));
        Ok(out)
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
