//! Markdown (GitHub) tables, the manifest in an HTML comment.

use super::{ExportOptions, Exporter, REDUCED_NOTE, Report};
use crate::error::Result;
use crate::output::markdown_table;

/// Markdown: the manifest as an HTML comment (invisible when rendered), the title in bold,
/// each table (its reading layout; several header rows are joined into one), the notes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Markdown;

/// Escapes the characters that would break a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

impl Exporter for Markdown {
    fn export(&self, report: &Report, options: &ExportOptions) -> Result<String> {
        let mut out = String::from("<!--\n");
        for line in report.manifest.lines() {
            out.push_str(&format!("{}\n", line.replace("--", "-\u{2060}-")));
        }
        out.push_str(&format!("-->\n**{}**\n", cell(&report.title)));
        let mut reduced = false;
        let shown: Vec<_> = report.tables.iter().filter(|t| !t.data_only).collect();
        for table in &shown {
            out.push('\n');
            if table.caption != report.title {
                out.push_str(&format!("*{}*\n\n", cell(&table.caption)));
            }
            let grid = table.human(options.decimals);
            reduced |= grid.reduced;
            let columns = grid
                .header
                .iter()
                .chain(&grid.body)
                .map(Vec::len)
                .max()
                .unwrap_or(0);
            let header: Vec<String> = (0..columns)
                .map(|c| {
                    let parts: Vec<&str> = grid
                        .header
                        .iter()
                        .filter_map(|row| row.get(c).map(String::as_str))
                        .filter(|s| !s.is_empty())
                        .collect();
                    cell(&parts.join(" / "))
                })
                .collect();
            let body: Vec<Vec<String>> = grid
                .body
                .iter()
                .map(|row| row.iter().map(|s| cell(s)).collect())
                .collect();
            out.push_str(&markdown_table(&header, &body));
        }
        let mut notes = report.notes.clone();
        if reduced {
            notes.push(REDUCED_NOTE.to_string());
        }
        for note in notes {
            out.push_str(&format!("\n{}\n", cell(&note)));
        }
        Ok(out)
    }
}
