//! Small text-layout helpers shared by the exporters of [`crate::report`] and by the
//! commands that still lay out text by hand: aligned columns, Markdown tables, LaTeX escaping
//! and CSV into a string. Formats, manifests and typed tables live in [`crate::report`].

/// Aligns rows of cells into columns: the first column left-aligned, the rest right-aligned,
/// separated by two spaces.
///
/// # Examples
///
/// ```
/// use pathology::output::align_columns;
/// let rows = vec![
///     vec!["d".to_string(), "0.1".to_string()],
///     vec!["10".to_string(), "1.000".to_string()],
/// ];
/// assert_eq!(align_columns(&rows), "d     0.1\n10  1.000\n");
/// ```
pub fn align_columns(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if c == 0 {
                    format!("{s:<w$}", w = widths[c])
                } else {
                    format!("{s:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// A Markdown table from a header and rows (numbers right-aligned).
///
/// # Examples
///
/// ```
/// use pathology::output::markdown_table;
/// let header = vec!["d".to_string(), "D(d,10)".to_string()];
/// let rows = vec![vec!["1".to_string(), "0.608".to_string()]];
/// assert_eq!(markdown_table(&header, &rows), "| d | D(d,10) |\n|:--|--:|\n| 1 | 0.608 |\n");
/// ```
pub fn markdown_table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut out = format!("| {} |\n", header.join(" | "));
    let rule: Vec<&str> = (0..header.len())
        .map(|i| if i == 0 { ":--" } else { "--:" })
        .collect();
    out.push_str(&format!("|{}|\n", rule.join("|")));
    for row in rows {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    out
}

/// Escapes text for LaTeX.
///
/// # Examples
///
/// ```
/// use pathology::output::latex_escape;
/// assert_eq!(latex_escape("a_b & 50%"), "a\\_b \\& 50\\%");
/// assert_eq!(latex_escape("x^2"), "x\\textasciicircum{}2");
/// ```
pub fn latex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            _ => out.push(c),
        }
    }
    out
}

/// Writes CSV records into a string.
///
/// # Examples
///
/// ```
/// use pathology::output::csv_string;
/// let rows = vec![vec!["0.1".to_string(), "0.608".to_string()], vec!["a,b".to_string(), "x".to_string()]];
/// assert_eq!(csv_string(&["f", "D"], &rows).unwrap(), "f,D\n0.1,0.608\n\"a,b\",x\n");
/// ```
///
/// # Errors
///
/// Never in practice (writing into memory); the `csv` writer's error is passed on.
pub fn csv_string(header: &[&str], rows: &[Vec<String>]) -> Result<String, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(header)?;
    for row in rows {
        writer.write_record(row)?;
    }
    let bytes = writer.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8(bytes).expect("CSV of UTF-8 strings is UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_text_columns() {
        let rows = vec![
            vec!["d".to_string(), "0.1".to_string()],
            vec!["10".to_string(), "1.000".to_string()],
        ];
        assert_eq!(align_columns(&rows), "d     0.1\n10  1.000\n");
    }

    #[test]
    fn escapes_latex() {
        assert_eq!(latex_escape("a_b & 50%"), "a\\_b \\& 50\\%");
    }
}
