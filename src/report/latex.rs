//! LaTeX: a `table` with booktabs rules, caption and label; the manifest in `%` comments.

use super::{ExportOptions, Exporter, Report, Table};
use crate::error::Result;
use crate::report::output::latex_escape;

/// The text width of a standard `article` column at 10 pt, in points.
pub const ARTICLE_COLUMN_PT: f64 = 345.0;

/// LaTeX (needs `\usepackage{booktabs}`): one `table` float per shown table, with
/// `\caption` and `\label{tab:COMMAND-TABLE}`. The width is estimated from the longest cell
/// of each column (a digit is half an em; `\tabcolsep` 6 pt a side); a table wider than an
/// article column at `\normalsize` is set in `\small` or `\footnotesize` when that fits, and
/// otherwise a `% warning` comment says that it does not fit and what to do.
#[derive(Debug, Clone, Copy, Default)]
pub struct Latex;

/// A LaTeX label part: letters, digits and hyphens.
fn label_part(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// The estimated width in points of a table at a font size (pt), from its cells.
fn estimated_width(rows: &[Vec<String>], size: f64) -> f64 {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut width = 0.0;
    for c in 0..columns {
        let chars = rows
            .iter()
            .filter_map(|r| r.get(c))
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(0);
        width += chars as f64 * 0.5 * size + 12.0;
    }
    width
}

impl Exporter for Latex {
    fn export(&self, report: &Report, options: &ExportOptions) -> Result<String> {
        let mut out = head(report, !options.omit_manifest);
        let mut reduced = false;
        let shown: Vec<_> = report.tables.iter().filter(|t| !t.data_only).collect();
        for table in &shown {
            let (block, r) = table_block(report, table, options.decimals, shown.len());
            out.push_str(&block);
            reduced |= r;
        }
        out.push_str(&tail(report, reduced));
        Ok(out)
    }
}

/// A shown table (of `shown` in the report): its float, and whether a value was printed with
/// fewer decimals.
pub(crate) fn table_block(
    report: &Report,
    table: &Table,
    decimals: usize,
    shown: usize,
) -> (String, bool) {
    let grid = table.human(decimals);
    let mut all = grid.header.clone();
    all.extend(grid.body.iter().cloned());
    let mut out = table_open(report, table, shown, &grid.header, &all);
    for (i, cells) in grid.body.iter().enumerate() {
        out.push_str(&row(cells));
        if grid.rules_after.contains(&i) && i + 1 < grid.body.len() {
            out.push_str("\\midrule\n");
        }
    }
    out.push_str(TABLE_CLOSE);
    (out, grid.reduced)
}

/// The manifest comments (with `manifest`).
pub(crate) fn head(report: &Report, manifest: bool) -> String {
    let mut out = String::new();
    for line in report.manifest.lines().iter().filter(|_| manifest) {
        out.push_str(&format!("% {line}\n"));
    }
    out.push_str("% needs \\usepackage{booktabs}\n");
    out
}

/// A table's float, size, caption, label and header, up to its first body row; the size is
/// chosen from the cells of `widest` (the header and rows at least as wide as the body's).
pub(crate) fn table_open(
    report: &Report,
    table: &Table,
    shown: usize,
    header: &[Vec<String>],
    widest: &[Vec<String>],
) -> String {
    let columns = widest.iter().map(Vec::len).max().unwrap_or(0);
    let size = [(10.0, ""), (9.0, "\\small\n"), (8.0, "\\footnotesize\n")]
        .into_iter()
        .find(|(pt, _)| estimated_width(widest, *pt) <= ARTICLE_COLUMN_PT);
    let caption = if shown > 1 || table.caption != report.title {
        format!("{}: {}", report.title, table.caption)
    } else {
        report.title.clone()
    };
    let mut out = String::from("\\begin{table}[htbp]\n\\centering\n");
    match size {
        Some((_, command)) => out.push_str(command),
        None => out.push_str(&format!(
            "% warning: this table is about {:.0} pt wide in \\footnotesize, wider than an article column ({ARTICLE_COLUMN_PT} pt): it does not fit; set it in a table* across two columns or landscape, or print fewer columns\n\\footnotesize\n",
            estimated_width(widest, 8.0)
        )),
    }
    out.push_str(&format!(
        "\\caption{{{}}}\n\\label{{tab:{}-{}}}\n",
        latex_escape(&caption),
        label_part(&report.manifest.command),
        label_part(&table.name)
    ));
    out.push_str(&format!(
        "\\begin{{tabular}}{{l{}}}\n\\toprule\n",
        "r".repeat(columns.saturating_sub(1))
    ));
    for cells in header {
        out.push_str(&row(cells));
    }
    out.push_str("\\midrule\n");
    out
}

/// One row of cells.
pub(crate) fn row(cells: &[String]) -> String {
    let cells: Vec<String> = cells.iter().map(|s| latex_escape(s)).collect();
    format!("{} \\\\\n", cells.join(" & "))
}

/// The end of a table.
pub(crate) const TABLE_CLOSE: &str = "\\bottomrule\n\\end{tabular}\n\\end{table}\n";

/// The notes as comments (with [`super::REDUCED_NOTE`] when some value was printed with fewer
/// decimals).
pub(crate) fn tail(report: &Report, reduced: bool) -> String {
    report
        .notes_with(reduced)
        .iter()
        .map(|note| format!("% note: {}\n", note.replace('\n', " ")))
        .collect()
}
