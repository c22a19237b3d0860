//! LaTeX: a `table` with booktabs rules, caption and label; the manifest in `%` comments.

use super::{ExportOptions, Exporter, REDUCED_NOTE, Report};
use crate::error::Result;
use crate::output::latex_escape;

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
        let mut out = String::new();
        for line in report.manifest.lines() {
            out.push_str(&format!("% {line}\n"));
        }
        out.push_str("% needs \\usepackage{booktabs}\n");
        let mut reduced = false;
        let shown: Vec<_> = report.tables.iter().filter(|t| !t.data_only).collect();
        for table in &shown {
            let grid = table.human(options.decimals);
            reduced |= grid.reduced;
            let mut all = grid.header.clone();
            all.extend(grid.body.iter().cloned());
            let columns = all.iter().map(Vec::len).max().unwrap_or(0);
            let size = [(10.0, ""), (9.0, "\\small\n"), (8.0, "\\footnotesize\n")]
                .into_iter()
                .find(|(pt, _)| estimated_width(&all, *pt) <= ARTICLE_COLUMN_PT);
            let caption = if shown.len() > 1 || table.caption != report.title {
                format!("{}: {}", report.title, table.caption)
            } else {
                report.title.clone()
            };
            out.push_str("\\begin{table}[htbp]\n\\centering\n");
            match size {
                Some((_, command)) => out.push_str(command),
                None => out.push_str(&format!(
                    "% warning: this table is about {:.0} pt wide in \\footnotesize, wider than an article column ({ARTICLE_COLUMN_PT} pt): it does not fit; set it in a table* across two columns or landscape, or print fewer columns\n\\footnotesize\n",
                    estimated_width(&all, 8.0)
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
            for row in &grid.header {
                let cells: Vec<String> = row.iter().map(|s| latex_escape(s)).collect();
                out.push_str(&format!("{} \\\\\n", cells.join(" & ")));
            }
            out.push_str("\\midrule\n");
            for (i, row) in grid.body.iter().enumerate() {
                let cells: Vec<String> = row.iter().map(|s| latex_escape(s)).collect();
                out.push_str(&format!("{} \\\\\n", cells.join(" & ")));
                if grid.rules_after.contains(&i) && i + 1 < grid.body.len() {
                    out.push_str("\\midrule\n");
                }
            }
            out.push_str("\\bottomrule\n\\end{tabular}\n\\end{table}\n");
        }
        let mut notes = report.notes.clone();
        if reduced {
            notes.push(REDUCED_NOTE.to_string());
        }
        for note in notes {
            out.push_str(&format!("% note: {}\n", note.replace('\n', " ")));
        }
        Ok(out)
    }
}
