//! Markdown (GitHub) tables, the manifest first in a fenced text block (exact text: its
//! `command:` line pastes back into a shell).

use super::{ExportOptions, Exporter, Report, Table};
use crate::error::Result;
use crate::report::output::markdown_table;

/// Markdown: the manifest as a fenced text block inside a collapsed `<details>` element (its
/// lines exactly as in the text format, so the `command:` line pastes back into a shell), the
/// title in bold, each table (its reading layout; several header rows are joined into one),
/// the notes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Markdown;

/// Escapes the characters that would break a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

impl Exporter for Markdown {
    fn export(&self, report: &Report, options: &ExportOptions) -> Result<String> {
        let mut out = head(report, !options.omit_manifest);
        let mut reduced = false;
        for table in report.tables.iter().filter(|t| !t.data_only) {
            let (block, r) = table_block(report, table, options.decimals);
            out.push_str(&block);
            reduced |= r;
        }
        out.push_str(&tail(report, reduced));
        Ok(out)
    }
}

/// A shown table: its head and rows, and whether a value was printed with fewer decimals.
pub(crate) fn table_block(report: &Report, table: &Table, decimals: usize) -> (String, bool) {
    let grid = table.human(decimals);
    let columns = grid
        .header
        .iter()
        .chain(&grid.body)
        .map(Vec::len)
        .max()
        .unwrap_or(0);
    let body: Vec<Vec<String>> = grid
        .body
        .iter()
        .map(|row| row.iter().map(|s| cell(s)).collect())
        .collect();
    let mut out = table_head(report, table);
    out.push_str(&markdown_table(&header(&grid.header, columns), &body));
    (out, grid.reduced)
}

/// The manifest block (with `manifest`) and the title. The fence is longer than any run of
/// backticks in the manifest, so no manifest line can close it.
pub(crate) fn head(report: &Report, manifest: bool) -> String {
    let mut out = String::new();
    if manifest {
        let lines = report.manifest.lines();
        let longest_run = lines
            .iter()
            .flat_map(|line| line.split(|c| c != '`'))
            .map(str::len)
            .max()
            .unwrap_or(0);
        let fence = "`".repeat((longest_run + 1).max(3));
        out.push_str(&format!(
            "<details><summary>manifest</summary>\n\n{fence}text\n"
        ));
        for line in lines {
            out.push_str(&format!("{line}\n"));
        }
        out.push_str(&format!("{fence}\n\n</details>\n\n"));
    }
    out.push_str(&format!("**{}**\n", cell(&report.title)));
    out
}

/// What precedes a shown table: a blank line and its caption unless it is the title.
pub(crate) fn table_head(report: &Report, table: &Table) -> String {
    if table.caption == report.title {
        "\n".to_string()
    } else {
        format!("\n*{}*\n\n", cell(&table.caption))
    }
}

/// The one header row of `columns` cells: the header rows joined with ` / `.
pub(crate) fn header(rows: &[Vec<String>], columns: usize) -> Vec<String> {
    (0..columns)
        .map(|c| {
            let parts: Vec<&str> = rows
                .iter()
                .filter_map(|row| row.get(c).map(String::as_str))
                .filter(|s| !s.is_empty())
                .collect();
            cell(&parts.join(" / "))
        })
        .collect()
}

/// One body row.
pub(crate) fn row(cells: &[String]) -> String {
    let cells: Vec<String> = cells.iter().map(|s| cell(s)).collect();
    format!("| {} |\n", cells.join(" | "))
}

/// The notes (with [`super::REDUCED_NOTE`] when some value was printed with fewer decimals).
pub(crate) fn tail(report: &Report, reduced: bool) -> String {
    report
        .notes_with(reduced)
        .iter()
        .map(|note| format!("\n{}\n", cell(note)))
        .collect()
}
