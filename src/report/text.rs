//! Aligned plain text, laid out like the papers' tables, with the manifest in a footer.

use super::{ExportOptions, Exporter, Report, Table};
use crate::error::Result;
use crate::report::output::align_columns;

/// Plain text: the title, each table (in its reading layout), exact values when there are
/// any, the notes, and the manifest as `#` lines at the end.
#[derive(Debug, Clone, Copy, Default)]
pub struct Text;

impl Exporter for Text {
    fn export(&self, report: &Report, options: &ExportOptions) -> Result<String> {
        let mut out = format!("{}\n", report.title);
        let mut reduced = false;
        let mut exact = Vec::new();
        for table in &report.tables {
            exact.extend(table.exact_lines());
        }
        for table in report.tables.iter().filter(|t| !t.data_only) {
            let (block, r) = table_block(report, table, options.decimals);
            out.push_str(&block);
            reduced |= r;
        }
        out.push_str(&tail(report, &exact, reduced, !options.omit_manifest));
        Ok(out)
    }
}

/// A shown table: its head and aligned rows, and whether a value was printed with fewer
/// decimals.
pub(crate) fn table_block(report: &Report, table: &Table, decimals: usize) -> (String, bool) {
    let grid = table.human(decimals);
    let mut rows = grid.header;
    rows.extend(grid.body);
    let mut out = table_head(report, table);
    out.push_str(&align_columns(&rows));
    (out, grid.reduced)
}

/// What precedes a shown table's rows: a blank line and its caption unless it is the title.
pub(crate) fn table_head(report: &Report, table: &Table) -> String {
    if table.caption == report.title {
        "\n".to_string()
    } else {
        format!("\n{}\n\n", table.caption)
    }
}

/// What follows the tables: the exact values, the notes (with [`super::REDUCED_NOTE`] when some
/// value was printed with fewer decimals) and, with `manifest`, the manifest.
pub(crate) fn tail(report: &Report, exact: &[String], reduced: bool, manifest: bool) -> String {
    let mut out = String::new();
    if !exact.is_empty() {
        out.push_str("\nExact values:\n");
        for line in exact {
            out.push_str(line);
            out.push('\n');
        }
    }
    let notes = report.notes_with(reduced);
    if !notes.is_empty() {
        out.push('\n');
        for note in notes {
            out.push_str(&note);
            out.push('\n');
        }
    }
    if manifest {
        out.push('\n');
        for line in report.manifest.lines() {
            out.push_str(&format!("# {line}\n"));
        }
    }
    out
}
