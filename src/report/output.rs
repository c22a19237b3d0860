//! Small text-layout helpers shared by the exporters of [`crate::report`] and by the
//! commands that still lay out text by hand: aligned columns, Markdown tables, LaTeX escaping
//! and CSV into a string. Formats, manifests and typed tables live in [`crate::report`].

/// Aligns rows of cells into columns: the first column left-aligned, the rest right-aligned,
/// separated by two spaces.
///
/// # Examples
///
/// ```
/// use pathology::report::output::align_columns;
/// let rows = vec![
///     vec!["d".to_string(), "0.1".to_string()],
///     vec!["10".to_string(), "1.000".to_string()],
/// ];
/// assert_eq!(align_columns(&rows), "d     0.1\n10  1.000\n");
/// ```
pub fn align_columns(rows: &[Vec<String>]) -> String {
    let widths = column_widths(rows);
    rows.iter().map(|row| align_row(row, &widths)).collect()
}

/// The width in characters of each column of `rows`: its widest cell.
///
/// # Examples
///
/// ```
/// use pathology::report::output::column_widths;
/// let rows = vec![vec!["d".to_string(), "0.1".to_string()], vec!["10".to_string()]];
/// assert_eq!(column_widths(&rows), [2, 3]);
/// ```
pub fn column_widths(rows: &[Vec<String>]) -> Vec<usize> {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// One line of [`align_columns`] with given column widths (a cell wider than its width is
/// printed whole, pushing the cells after it right).
///
/// # Examples
///
/// ```
/// use pathology::report::output::align_row;
/// let row = vec!["d".to_string(), "0.1".to_string()];
/// assert_eq!(align_row(&row, &[2, 5]), "d     0.1\n");
/// ```
pub fn align_row(row: &[String], widths: &[usize]) -> String {
    let cells: Vec<String> = row
        .iter()
        .enumerate()
        .map(|(c, s)| {
            let w = widths.get(c).copied().unwrap_or(0);
            if c == 0 {
                format!("{s:<w$}")
            } else {
                format!("{s:>w$}")
            }
        })
        .collect();
    let mut line = cells.join("  ").trim_end().to_string();
    line.push('\n');
    line
}

/// A Markdown table from a header and rows (numbers right-aligned).
///
/// # Examples
///
/// ```
/// use pathology::report::output::markdown_table;
/// let header = vec!["d".to_string(), "D(d,10)".to_string()];
/// let rows = vec![vec!["1".to_string(), "0.608".to_string()]];
/// assert_eq!(markdown_table(&header, &rows), "| d | D(d,10) |\n|:--|--:|\n| 1 | 0.608 |\n");
/// ```
pub fn markdown_table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut out = markdown_header(header);
    for row in rows {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    out
}

/// The header line and alignment rule of [`markdown_table`] (the first column left-aligned,
/// the rest right-aligned).
///
/// # Examples
///
/// ```
/// use pathology::report::output::markdown_header;
/// let header = vec!["d".to_string(), "D".to_string()];
/// assert_eq!(markdown_header(&header), "| d | D |\n|:--|--:|\n");
/// ```
pub fn markdown_header(header: &[String]) -> String {
    let rule: Vec<&str> = (0..header.len())
        .map(|i| if i == 0 { ":--" } else { "--:" })
        .collect();
    format!("| {} |\n|{}|\n", header.join(" | "), rule.join("|"))
}

/// Escapes text for LaTeX.
///
/// # Examples
///
/// ```
/// use pathology::report::output::latex_escape;
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
/// use pathology::report::output::csv_string;
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

/// The temporary sibling that [`write_atomically`] writes before renaming it into place:
/// `.NAME.partial.EXT` in the same directory (same file system, so the rename is atomic; the
/// extension is kept, because image writers choose the format by it).
///
/// # Examples
///
/// ```
/// use pathology::report::output::partial_path;
/// use std::path::Path;
/// assert_eq!(partial_path(Path::new("plots/fig2.png")), Path::new("plots/.fig2.partial.png"));
/// assert_eq!(partial_path(Path::new("INDEX")), Path::new(".INDEX.partial"));
/// ```
pub fn partial_path(path: &std::path::Path) -> std::path::PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(ext) => format!(".{stem}.partial.{}", ext.to_string_lossy()),
        None => format!(".{stem}.partial"),
    };
    path.with_file_name(name)
}

/// Writes `contents` to `path` so that an interrupted run never leaves a half-written file
/// there: the bytes go to [`partial_path`] first, which is then renamed over `path`.
///
/// # Examples
///
/// ```
/// use pathology::report::output::write_atomically;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("table1.csv");
/// write_atomically(&path, "d,D\n").unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "d,D\n");
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1); // no partial file left
/// ```
///
/// # Errors
///
/// The I/O error of writing or renaming (the partial file is removed).
pub fn write_atomically(path: &std::path::Path, contents: impl AsRef<[u8]>) -> std::io::Result<()> {
    write_atomically_with(path, |partial| std::fs::write(partial, contents), |e| e)
}

/// The one way this crate writes a file: `write` writes the complete file at the path it is
/// given ([`partial_path`] of `path`, a sibling with the same extension), which is then
/// renamed over `path`. On any error the partial file is removed, so `path` holds either its
/// old contents or the complete new file, never a partial one. `rename_failed` turns the
/// rename's I/O error into `write`'s error type. Writers that want a path of their own
/// (plotters' bitmap and SVG backends) use it directly; [`write_atomically`] is this with
/// [`std::fs::write`].
///
/// # Examples
///
/// ```
/// use pathology::report::output::write_atomically_with;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("fig.svg");
/// let failed = write_atomically_with(&path, |partial| {
///     std::fs::write(partial, "<svg")?; // half a file, then an error
///     Err(std::io::Error::other("interrupted"))
/// }, |e| e);
/// assert!(failed.is_err());
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0); // nothing left behind
/// write_atomically_with(&path, |partial| std::fs::write(partial, "<svg/>"), |e| e).unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "<svg/>");
/// ```
///
/// # Errors
///
/// `write`'s error, or the rename's (through `rename_failed`).
pub fn write_atomically_with<E>(
    path: &std::path::Path,
    write: impl FnOnce(&std::path::Path) -> Result<(), E>,
    rename_failed: impl FnOnce(std::io::Error) -> E,
) -> Result<(), E> {
    let partial = partial_path(path);
    let result =
        write(&partial).and_then(|()| std::fs::rename(&partial, path).map_err(rename_failed));
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    result
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
