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
    // Padded by hand: a width in `format!` must fit 16 bits.
    let cells: Vec<String> = row
        .iter()
        .enumerate()
        .map(|(c, s)| {
            let w = widths.get(c).copied().unwrap_or(0);
            let pad = " ".repeat(w.saturating_sub(s.chars().count()));
            if c == 0 {
                format!("{s}{pad}")
            } else {
                format!("{pad}{s}")
            }
        })
        .collect();
    let mut line = cells.join("  ").trim_end().to_string();
    line.push('\n');
    line
}

/// The most characters a cell of a table laid out for reading (text, Markdown, LaTeX) shows
/// whole; CSV and JSON always hold every cell whole.
pub const MAX_SHOWN_CELL: usize = 1000;

/// `text` as a table for reading shows it: whole up to [`MAX_SHOWN_CELL`] characters, else
/// its first 40 characters and a statement of its length (a 70,000-digit parameter would
/// otherwise make every row of its table 70,000 characters wide).
///
/// # Examples
///
/// ```
/// use pathology::report::output::shortened;
/// assert_eq!(shortened("0.25".to_string()), "0.25");
/// let long = shortened(format!("0.{}", "1".repeat(70_000)));
/// assert!(long.starts_with("0.111") && long.ends_with("(70002 characters; --format csv or json prints it whole)"), "{long}");
/// ```
pub fn shortened(text: String) -> String {
    let count = text.chars().count();
    if count <= MAX_SHOWN_CELL {
        return text;
    }
    let head: String = text.chars().take(40).collect();
    format!("{head}... ({count} characters; --format csv or json prints it whole)")
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
/// One rule for every command's output paths ([`Destination::of`]): a
/// symbolic link at `path` is **replaced** by the new file (the file it pointed to is left
/// untouched), as a regular file is. Only a FIFO, a character or block device or a socket
/// (named directly or through a link) is written through in place (`write` gets the path
/// itself; a reader of a FIFO gets every byte and keeps its pipe, `/dev/full` reports its
/// error), and a directory is an error. While a partial file exists it is listed for
/// [`remove_partial_files`], which the binary calls when it is interrupted by a signal.
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
    match Destination::of(path) {
        Destination::Directory => {
            return Err(rename_failed(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                format!("{} is a directory", path.display()),
            )));
        }
        Destination::Through => return write(path),
        Destination::Replace => {}
    }
    let partial = partial_path(path);
    let _destination = register_destination(path);
    let registered = PartialFile::register(&partial);
    let result =
        write(&partial).and_then(|()| std::fs::rename(&partial, path).map_err(rename_failed));
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    drop(registered);
    result
}

/// How an output file path is written ([`write_atomically_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Destination {
    /// A new file is renamed over the path: nothing is there, a regular file, or a symbolic
    /// link (to a file, a directory or nothing), which is replaced and its target untouched.
    Replace,
    /// A FIFO, a device or a socket (itself or a link's target): written in place.
    Through,
    /// A directory: not a file's destination.
    Directory,
}

impl Destination {
    /// The rule for `path`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::output::Destination;
    /// let dir = tempfile::tempdir().unwrap();
    /// assert_eq!(Destination::of(&dir.path().join("new.csv")), Destination::Replace);
    /// assert_eq!(Destination::of(dir.path()), Destination::Directory);
    /// #[cfg(unix)]
    /// {
    ///     assert_eq!(Destination::of(std::path::Path::new("/dev/null")), Destination::Through);
    ///     let link = dir.path().join("link.csv");
    ///     std::os::unix::fs::symlink(dir.path(), &link).unwrap();
    ///     assert_eq!(Destination::of(&link), Destination::Replace); // even a link to a directory
    /// }
    /// ```
    pub fn of(path: &std::path::Path) -> Destination {
        let Ok(own) = std::fs::symlink_metadata(path) else {
            return Destination::Replace;
        };
        if own.file_type().is_symlink() {
            return match std::fs::metadata(path) {
                Ok(target) if !target.is_file() && !target.is_dir() => Destination::Through,
                _ => Destination::Replace,
            };
        }
        if own.is_dir() {
            Destination::Directory
        } else if own.is_file() {
            Destination::Replace
        } else {
            Destination::Through
        }
    }
}

/// What an existing path is, in words: "an existing regular file", "a directory", "a FIFO",
/// "a device", "a socket".
///
/// # Examples
///
/// ```
/// use pathology::report::output::kind_of;
/// let dir = tempfile::tempdir().unwrap();
/// assert_eq!(kind_of(&std::fs::metadata(dir.path()).unwrap()), "a directory");
/// ```
pub fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else if meta.is_file() {
        "an existing regular file"
    } else {
        "not a regular file"
    }
}

/// Checks, before any work, that `option`'s file `path` can be written by
/// [`write_atomically_with`]: not a directory, and (unless it is written through, a FIFO or a
/// device) a partial file can be created beside it. With `create_parents`, missing parent
/// directories are fine when the nearest existing one is a directory (the writer creates
/// them); without, the parent must exist.
///
/// # Examples
///
/// ```
/// use pathology::report::output::check_file;
/// let dir = tempfile::tempdir().unwrap();
/// assert!(check_file("--plot", &dir.path().join("a/b/p.svg"), true).is_ok());
/// assert!(check_file("--out", &dir.path().join("a/b/c.json"), false).is_err());
/// let e = check_file("--plot", dir.path(), true).unwrap_err();
/// assert!(e.to_string().starts_with("--plot must be a file that can be written"), "{e}");
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0); // nothing left behind
/// ```
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `option`.
pub fn check_file(option: &str, path: &std::path::Path, create_parents: bool) -> crate::Result<()> {
    let refuse = |why: String| {
        crate::Error::invalid(
            option,
            "a file that can be written (not a directory)",
            format!("{} ({why})", path.display()),
        )
    };
    match Destination::of(path) {
        Destination::Directory => return Err(refuse("a directory".to_string())),
        Destination::Through => return Ok(()),
        Destination::Replace => {}
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    if !parent.exists() {
        if !create_parents {
            return Err(refuse(format!("no directory {}", parent.display())));
        }
        return nearest_directory(&parent).map(drop).map_err(refuse);
    }
    let partial = partial_path(path);
    let registered = PartialFile::register(&partial);
    let probe = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(&partial)
        .map(drop);
    let _ = std::fs::remove_file(&partial);
    drop(registered);
    probe.map_err(|e| refuse(e.to_string()))
}

/// The nearest existing ancestor of `path` (itself included), which must be a directory.
fn nearest_directory(path: &std::path::Path) -> Result<&std::path::Path, String> {
    for ancestor in path.ancestors() {
        let ancestor = if ancestor.as_os_str().is_empty() {
            std::path::Path::new(".")
        } else {
            ancestor
        };
        match std::fs::metadata(ancestor) {
            Ok(meta) if meta.is_dir() => return Ok(ancestor),
            Ok(meta) => {
                return Err(format!("{} is {}", ancestor.display(), kind_of(&meta)));
            }
            Err(_) if std::fs::symlink_metadata(ancestor).is_ok() => {
                return Err(format!(
                    "{} is a symbolic link to nothing",
                    ancestor.display()
                ));
            }
            Err(_) => {}
        }
    }
    Ok(std::path::Path::new("."))
}

/// Checks, before any work, that `option`'s directory `dir` can hold the files a command
/// writes: an existing directory (or a link to one) in which a file can be created, or a
/// path whose nearest existing ancestor is a directory (it is created when the files are
/// written). A regular file, a FIFO or a device there is refused, saying what it is.
///
/// # Examples
///
/// ```
/// use pathology::report::output::check_directory;
/// let dir = tempfile::tempdir().unwrap();
/// assert!(check_directory("--out", dir.path()).is_ok());
/// assert!(check_directory("--out", &dir.path().join("new/deeper")).is_ok());
/// let file = dir.path().join("afile");
/// std::fs::write(&file, "").unwrap();
/// let e = check_directory("--out", &file).unwrap_err().to_string();
/// assert!(e.starts_with("--out must be a directory") && e.contains("an existing regular file"), "{e}");
/// assert!(check_directory("--out", &file.join("below")).is_err());
/// ```
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `option`.
pub fn check_directory(option: &str, dir: &std::path::Path) -> crate::Result<()> {
    let refuse = |why: String| {
        crate::Error::invalid(
            option,
            "a directory (or a path where one can be created)",
            format!("{} ({why})", dir.display()),
        )
    };
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {
            let probe = dir.join(format!(".pathology-probe.{}", std::process::id()));
            let registered = PartialFile::register(&probe);
            let made = std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .open(&probe)
                .map(drop);
            let _ = std::fs::remove_file(&probe);
            drop(registered);
            made.map_err(|e| refuse(format!("no file can be created in it: {e}")))
        }
        Ok(meta) => Err(refuse(kind_of(&meta).to_string())),
        Err(_) if std::fs::symlink_metadata(dir).is_ok() => {
            Err(refuse("a symbolic link to nothing".to_string()))
        }
        Err(_) => nearest_directory(dir).map(drop).map_err(refuse),
    }
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
#[derive(Debug)]
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

/// Lists `path` as a file to remove if the process is interrupted ([`remove_partial_files`])
/// until the returned guard is dropped (e.g. `reproduce`'s lock file, which must not outlive
/// the run in a git checkout).
pub fn register_partial_file(path: &std::path::Path) -> PartialFileGuard {
    PartialFileGuard {
        _file: PartialFile::register(path),
    }
}

/// The guard of [`register_partial_file`].
#[derive(Debug)]
pub struct PartialFileGuard {
    _file: PartialFile,
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

impl PartialDirectory {
    /// Runs `f` while [`remove_partial_files`] cannot run: a signal that arrives meanwhile
    /// removes the registered directories only after `f` returns. `reproduce` swaps its staging
    /// directory into place this way, so the handler never removes a directory that is
    /// changing places under it. `f` must not register or write partial files itself.
    pub fn exclusive<T>(&self, f: impl FnOnce() -> T) -> T {
        let held = PARTIAL_DIRECTORIES.lock();
        let result = f();
        drop(held);
        result
    }
}

impl Drop for PartialDirectory {
    fn drop(&mut self) {
        if let Ok(mut dirs) = PARTIAL_DIRECTORIES.lock()
            && let Some(i) = dirs.iter().position(|p| *p == self.0)
        {
            dirs.swap_remove(i);
        }
    }
}

/// The destinations being written now (a file being replaced, `reproduce`'s output directory):
/// what an interrupt leaves unchanged ([`interrupted_message`]).
static DESTINATIONS: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Lists `path` as a destination being written (a file, or a directory that a run replaces
/// whole) until the returned guard is dropped.
pub fn register_destination(path: &std::path::Path) -> DestinationGuard {
    if let Ok(mut paths) = DESTINATIONS.lock() {
        paths.push(path.to_path_buf());
    }
    DestinationGuard(path.to_path_buf())
}

/// The guard of [`register_destination`].
#[derive(Debug)]
pub struct DestinationGuard(std::path::PathBuf);

impl Drop for DestinationGuard {
    fn drop(&mut self) {
        if let Ok(mut paths) = DESTINATIONS.lock()
            && let Some(i) = paths.iter().position(|p| *p == self.0)
        {
            paths.swap_remove(i);
        }
    }
}

/// What the binary prints when a signal interrupts it: `interrupted; OUT unchanged`, naming
/// the destinations being written at that moment (their old contents stay, or nothing when
/// they did not exist: [`remove_partial_files`]), or `interrupted` when nothing was being
/// written.
///
/// # Examples
///
/// ```
/// use pathology::report::output::{interrupted_message, register_destination};
/// assert_eq!(interrupted_message(), "interrupted");
/// let _writing = register_destination(std::path::Path::new("plots"));
/// assert_eq!(interrupted_message(), "interrupted; plots unchanged");
/// ```
pub fn interrupted_message() -> String {
    // A file written inside a directory under construction (`reproduce`'s staging directory)
    // is not a destination of its own: the directory's is.
    let building: Vec<std::path::PathBuf> = PARTIAL_DIRECTORIES
        .lock()
        .map(|dirs| dirs.clone())
        .unwrap_or_default();
    let paths: Vec<String> = DESTINATIONS
        .lock()
        .map(|paths| {
            paths
                .iter()
                .filter(|p| !building.iter().any(|dir| p.starts_with(dir)))
                .map(|p| p.display().to_string())
                .collect()
        })
        .unwrap_or_default();
    if paths.is_empty() {
        "interrupted".to_string()
    } else {
        format!("interrupted; {} unchanged", paths.join(", "))
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
    // Directories first: a lock file registered beside one (`reproduce`'s) goes only after
    // them, so no other run can take the lock while they are still there.
    if let Ok(dirs) = PARTIAL_DIRECTORIES.lock() {
        for dir in dirs.iter() {
            if std::fs::remove_dir_all(dir).is_ok() {
                removed += 1;
            }
        }
    }
    if let Ok(files) = PARTIAL_FILES.lock() {
        for file in files.iter() {
            if std::fs::remove_file(file).is_ok() {
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
