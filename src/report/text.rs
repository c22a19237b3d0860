//! Aligned plain text, laid out like the papers' tables, with the manifest in a footer.

use super::{ExportOptions, Exporter, REDUCED_NOTE, Report};
use crate::error::Result;
use crate::output::align_columns;

/// Plain text: the title, each table (in its reading layout), exact values when there are
/// any, the notes, and the manifest as `#` lines at the end.
#[derive(Debug, Clone, Copy, Default)]
pub struct Text;

impl Exporter for Text {
    fn export(&self, report: &Report, options: &ExportOptions) -> Result<String> {
        let mut out = format!("{}\n", report.title);
        let mut reduced = false;
        let mut exact = Vec::new();
        let shown: Vec<_> = report.tables.iter().filter(|t| !t.data_only).collect();
        for table in &report.tables {
            exact.extend(table.exact_lines());
        }
        for table in &shown {
            out.push('\n');
            if table.caption != report.title {
                out.push_str(&format!("{}\n\n", table.caption));
            }
            let grid = table.human(options.decimals);
            reduced |= grid.reduced;
            let mut rows = grid.header;
            rows.extend(grid.body);
            out.push_str(&align_columns(&rows));
        }
        if !exact.is_empty() {
            out.push_str("\nExact values:\n");
            for line in exact {
                out.push_str(&line);
                out.push('\n');
            }
        }
        let mut notes = report.notes.clone();
        if reduced {
            notes.push(REDUCED_NOTE.to_string());
        }
        if !notes.is_empty() {
            out.push('\n');
            for note in notes {
                out.push_str(&note);
                out.push('\n');
            }
        }
        out.push('\n');
        for line in report.manifest.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        Ok(out)
    }
}
