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
/// given ([`partial_path`] of the destination, a sibling with the same extension), which is
/// then renamed over the destination. On any error the partial file is removed, so the
/// destination holds either its old contents or the complete new file, never a partial one.
/// `rename_failed` turns the rename's I/O error into `write`'s error type. Writers that want a
/// path of their own (plotters' bitmap and SVG backends) use it directly; [`write_atomically`]
/// is this with [`std::fs::write`].
///
/// The destination is `path` with its symbolic links followed ([`resolve_links`]): a link is
/// never replaced, the file it points to is written. Only a regular file (or nothing) is ever
/// replaced by a rename: a FIFO, a character or block device or a socket is written through
/// in place (`write` gets the destination itself; a reader of a FIFO gets every byte and keeps
/// its pipe, `/dev/full` reports its error), and a directory is an error. While a partial file
/// exists it is listed for [`remove_partial_files`], which the binary calls when it is
/// interrupted by a signal.
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
/// `write`'s error, or the rename's (through `rename_failed`, which also reports a
/// destination that is a directory, as [`std::io::ErrorKind::IsADirectory`]).
pub fn write_atomically_with<E>(
    path: &std::path::Path,
    write: impl FnOnce(&std::path::Path) -> Result<(), E>,
    rename_failed: impl FnOnce(std::io::Error) -> E,
) -> Result<(), E> {
    let destination = resolve_links(path);
    match std::fs::metadata(&destination) {
        Ok(meta) if meta.is_dir() => {
            return Err(rename_failed(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                format!("{} is a directory", destination.display()),
            )));
        }
        // A FIFO, a device or a socket: write through, never replace it.
        Ok(meta) if !meta.is_file() => return write(&destination),
        _ => {}
    }
    let partial = partial_path(&destination);
    let registered = PartialFile::register(&partial);
    let result = write(&partial)
        .and_then(|()| std::fs::rename(&partial, &destination).map_err(rename_failed));
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    drop(registered);
    result
}

/// `path` with its symbolic links followed to the final target (which need not exist: a
/// dangling link resolves to the path it names); a path that is not a link is returned as
/// it is. At most 40 links are followed, as the kernel does.
///
/// # Examples
///
/// ```
/// use pathology::report::output::resolve_links;
/// let dir = tempfile::tempdir().unwrap();
/// let target = dir.path().join("t.csv");
/// let link = dir.path().join("l.csv");
/// #[cfg(unix)]
/// {
///     std::os::unix::fs::symlink(&target, &link).unwrap();
///     assert_eq!(resolve_links(&link), target);
/// }
/// assert_eq!(resolve_links(&target), target);
/// ```
pub fn resolve_links(path: &std::path::Path) -> std::path::PathBuf {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        let is_link = std::fs::symlink_metadata(&current).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            break;
        }
        let Ok(target) = std::fs::read_link(&current) else {
            break;
        };
        current = if target.is_absolute() {
            target
        } else {
            current
                .parent()
                .map_or_else(|| target.clone(), |dir| dir.join(&target))
        };
    }
    current
}

/// The partial files being written now ([`write_atomically_with`]).
static PARTIAL_FILES: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

/// A partial file listed in [`PARTIAL_FILES`] while it exists.
struct PartialFile(std::path::PathBuf);

impl PartialFile {
    fn register(path: &std::path::Path) -> Self {
        if let Ok(mut files) = PARTIAL_FILES.lock() {
            files.push(path.to_path_buf());
        }
        PartialFile(path.to_path_buf())
    }
}

impl Drop for PartialFile {
    fn drop(&mut self) {
        if let Ok(mut files) = PARTIAL_FILES.lock()
            && let Some(i) = files.iter().position(|p| *p == self.0)
        {
            files.swap_remove(i);
        }
    }
}

/// Directories being built now (e.g. `reproduce`'s staging directory), removed with their
/// contents by [`remove_partial_files`].
static PARTIAL_DIRECTORIES: std::sync::Mutex<Vec<std::path::PathBuf>> =
    std::sync::Mutex::new(Vec::new());

/// Lists `dir` as a directory under construction until the returned guard is dropped:
/// [`remove_partial_files`] removes it (and everything in it) if the process is interrupted
/// first.
pub fn register_partial_directory(dir: &std::path::Path) -> PartialDirectory {
    if let Ok(mut dirs) = PARTIAL_DIRECTORIES.lock() {
        dirs.push(dir.to_path_buf());
    }
    PartialDirectory(dir.to_path_buf())
}

/// The guard of [`register_partial_directory`].
#[derive(Debug)]
pub struct PartialDirectory(std::path::PathBuf);

impl Drop for PartialDirectory {
    fn drop(&mut self) {
        if let Ok(mut dirs) = PARTIAL_DIRECTORIES.lock()
            && let Some(i) = dirs.iter().position(|p| *p == self.0)
        {
            dirs.swap_remove(i);
        }
    }
}

/// Removes every partial file and directory under construction. The binary calls it from
/// its SIGINT/SIGTERM handler before it exits, so an interrupted command leaves the old file
/// (or nothing) at each destination and no `.NAME.partial.EXT` beside it. Returns how many
/// were removed.
///
/// # Examples
///
/// ```
/// use pathology::report::output::remove_partial_files;
/// assert_eq!(remove_partial_files(), 0); // nothing is being written
/// ```
pub fn remove_partial_files() -> usize {
    let mut removed = 0;
    if let Ok(files) = PARTIAL_FILES.lock() {
        for file in files.iter() {
            if std::fs::remove_file(file).is_ok() {
                removed += 1;
            }
        }
    }
    if let Ok(dirs) = PARTIAL_DIRECTORIES.lock() {
        for dir in dirs.iter() {
            if std::fs::remove_dir_all(dir).is_ok() {
                removed += 1;
            }
        }
    }
    removed
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
