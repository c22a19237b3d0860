//! What a caller asks of an export (format, decimals, one table of the report) and where a
//! streamed report goes: the plumbing between a computed [`Report`] and the bytes printed.
//!
//! A command's output options ([`RenderOptions`]) say the format, the decimals (each command
//! has its own default) and, optionally, the one table to print. The streamed commands (a
//! sweep, the gamma/delta trajectories) write while they compute, into a writer opened only
//! once the first row is ready ([`StreamError`] tells their computation's errors from the
//! writer's).
//!
//! Standard output and input go through [`stdout_writer`] and [`stdin_reader`], which a
//! [`capture`] redirects to memory: the Python package runs the command line in-process
//! (`pathology::cli::run_captured`) and returns what the command printed.

use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use super::{ExportOptions, Format, Report};
use crate::error::{Error, Result};

/// How to render a report: format, decimals and, optionally, the one table to print.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RenderOptions {
    /// The output format.
    pub format: Format,
    /// Decimals of values in text, Markdown and LaTeX; `None` is the command's default.
    pub decimals: Option<usize>,
    /// Print only this table of the report (every format).
    pub table: Option<String>,
    /// CSV only: the manifest in `#` lines above the header ([`ExportOptions::inline_manifest`]).
    pub inline_manifest: bool,
    /// Text, Markdown and LaTeX: the manifest left out ([`ExportOptions::omit_manifest`]).
    pub omit_manifest: bool,
    /// Write the manifest to this file as JSON ([`super::csv_sidecar`]), whatever the format
    /// (`--manifest FILE`); [`RenderOptions::write_manifest`].
    pub manifest_file: Option<std::path::PathBuf>,
}

impl RenderOptions {
    /// The export options: `default_decimals` unless [`RenderOptions::decimals`] is given.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::RenderOptions;
    /// let options = RenderOptions { decimals: Some(5), ..RenderOptions::default() };
    /// assert_eq!(options.export_options(3).decimals, 5);
    /// assert_eq!(RenderOptions::default().export_options(3).decimals, 3);
    /// ```
    pub fn export_options(&self, default_decimals: usize) -> ExportOptions {
        ExportOptions {
            decimals: self.decimals.unwrap_or(default_decimals),
            table: None,
            inline_manifest: self.inline_manifest,
            omit_manifest: self.omit_manifest,
        }
    }

    /// Refuses a [`RenderOptions::table`] that is none of `names` (the tables of the report
    /// to come), so that a command can check it before computing.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::RenderOptions;
    /// let options = RenderOptions { table: Some("ps".into()), ..RenderOptions::default() };
    /// assert!(options.check_table(&["decisions", "ps"]).is_ok());
    /// assert_eq!(
    ///     options.check_table(&["decisions"]).unwrap_err().to_string(),
    ///     "--table must be one of decisions, got ps"
    /// );
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--table` and the allowed names.
    pub fn check_table(&self, names: &[&str]) -> Result<()> {
        match &self.table {
            Some(name) if !names.contains(&name.as_str()) => Err(Error::invalid(
                "--table",
                &format!("one of {}", names.join(", ")),
                name,
            )),
            _ => Ok(()),
        }
    }

    /// Writes the manifest of `report` (as rendered: its one table [`RenderOptions::table`]
    /// if given) to [`RenderOptions::manifest_file`], atomically; nothing when that is `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::{Cell, Column, Format, Kind, RenderOptions, Report, Table};
    /// let mut a = Table::new("a", "Table a", vec![Column::new("x", Kind::Integer)]);
    /// a.push(vec![Cell::Integer(1)]);
    /// let report = Report::new("demo", "A demo").with_table(a);
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("out.csv.manifest.json");
    /// let options = RenderOptions { format: Format::Csv, manifest_file: Some(path.clone()),
    ///                               ..RenderOptions::default() };
    /// options.write_manifest(&report).unwrap();
    /// assert!(std::fs::read_to_string(&path).unwrap().contains("\"table\": \"a\""));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`RenderOptions::check_table`]; [`Error::InvalidArgument`] naming `--manifest` when
    /// the file cannot be written.
    pub fn write_manifest(&self, report: &Report) -> Result<()> {
        self.write_manifest_with(report, None)
    }

    /// As [`RenderOptions::write_manifest`] after a stream ([`super::TableStream`]) wrote the
    /// rows, which `report` no longer holds: `rows_sha256` is the digest the stream returned
    /// ([`super::TableStream::finish_with_rows_digest`]), `None` when it was not CSV.
    ///
    /// # Errors
    ///
    /// As [`RenderOptions::write_manifest`].
    pub fn write_streamed_manifest(
        &self,
        report: &Report,
        rows_sha256: Option<&str>,
    ) -> Result<()> {
        self.write_manifest_with(report, Some(rows_sha256))
    }

    /// `streamed`: the digest a stream computed (`Some(None)`: not CSV); `None`: the rows are in
    /// `report`, and the digest is that of their CSV when the output is CSV.
    fn write_manifest_with(&self, report: &Report, streamed: Option<Option<&str>>) -> Result<()> {
        let Some(path) = &self.manifest_file else {
            return Ok(());
        };
        let one;
        let chosen = match &self.table {
            None => report,
            Some(name) => {
                let names: Vec<&str> = report.tables.iter().map(|t| t.name.as_str()).collect();
                self.check_table(&names)?;
                let mut copy = report.clone();
                copy.tables.retain(|t| &t.name == name);
                one = copy;
                &one
            }
        };
        let options = self.export_options(0);
        // The sidecar binds the CSV that was printed; another format has no CSV rows.
        let text = match streamed {
            Some(digest) => super::csv_format::sidecar(chosen, &options, digest)?,
            None if self.format == super::Format::Csv => super::csv_sidecar(chosen, &options)?,
            None => super::csv_format::sidecar(chosen, &options, None)?,
        };
        super::output::write_atomically(path, text).map_err(|e| {
            Error::invalid(
                "--manifest",
                "none, inline or a file that can be written",
                format!("{} ({e})", path.display()),
            )
        })
    }

    /// Renders the report (or its one table [`RenderOptions::table`]) with
    /// `default_decimals` unless [`RenderOptions::decimals`] is given.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::{Cell, Column, Format, Kind, RenderOptions, Report, Table};
    /// let mut a = Table::new("a", "Table a", vec![Column::new("x", Kind::Integer)]);
    /// a.push(vec![Cell::Integer(1)]);
    /// let mut b = Table::new("b", "Table b", vec![Column::new("y", Kind::Integer)]);
    /// b.push(vec![Cell::Integer(2)]);
    /// let report = Report::new("demo", "A demo").with_table(a).with_table(b);
    /// let options = RenderOptions { format: Format::Csv, table: Some("b".into()), ..RenderOptions::default() };
    /// assert!(options.render(&report, 3).unwrap().ends_with("y\n2\n"));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`RenderOptions::check_table`] and [`Report::render`].
    pub fn render(&self, report: &Report, default_decimals: usize) -> Result<String> {
        let options = self.export_options(default_decimals);
        match &self.table {
            None => report.render(self.format, &options),
            Some(name) => {
                let names: Vec<&str> = report.tables.iter().map(|t| t.name.as_str()).collect();
                self.check_table(&names)?;
                let mut table = report.table(name).cloned().expect("checked");
                table.data_only = false;
                let mut one = report.clone();
                one.tables = vec![table];
                one.render(self.format, &options)
            }
        }
    }
}

/// Why a streamed report stopped: its computation failed (or refused), or its writer did.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// The computation's error (a refusal, an invalid argument, an interruption).
    #[error(transparent)]
    Library(#[from] Error),
    /// Opening or writing the output failed (a closed pipe included).
    #[error(transparent)]
    Output(io::Error),
}

impl StreamError {
    /// As the command line reports it: the library's error, or a failed write naming
    /// standard output.
    pub fn into_command_error(self) -> anyhow::Error {
        match self {
            StreamError::Library(e) => e.into(),
            StreamError::Output(e) => {
                anyhow::Error::new(e).context("cannot write to standard output")
            }
        }
    }
}

/// Buffered [`stdout_writer`], for the streamed commands.
pub fn stdout_buffered() -> io::Result<io::BufWriter<Stdout>> {
    stdout_writer().map(io::BufWriter::new)
}

/// Standard output as the commands write it: the process's standard output, or the buffer of
/// the running [`capture`] (the Python package runs the command line in-process and returns
/// what it printed).
#[derive(Debug)]
pub enum Stdout {
    /// The process's standard output ([`stdout_writer`]'s descriptor duplicate on Unix).
    #[cfg(unix)]
    Process(std::fs::File),
    /// The process's standard output (locked).
    #[cfg(not(unix))]
    Process(io::StdoutLock<'static>),
    /// The buffer of the running [`capture`].
    Captured(Arc<Mutex<Vec<u8>>>),
}

impl io::Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stdout::Process(out) => out.write(buf),
            Stdout::Captured(bytes) => {
                bytes
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .extend_from_slice(buf);
                Ok(buf.len())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stdout::Process(out) => out.flush(),
            Stdout::Captured(_) => Ok(()),
        }
    }
}

/// What the running [`capture`] collects and feeds.
struct Capture {
    output: Arc<Mutex<Vec<u8>>>,
    input: Option<Vec<u8>>,
}

/// The running capture. Process-wide, not per thread: the streamed commands open their
/// output on whichever of rayon's threads finishes the first row.
static CAPTURE: Mutex<Option<Capture>> = Mutex::new(None);

/// Held for the whole of a [`capture`]: one runs at a time.
static CAPTURING: Mutex<()> = Mutex::new(());

fn running() -> std::sync::MutexGuard<'static, Option<Capture>> {
    CAPTURE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs `work` with standard output captured: every [`stdout_writer`] opened during `work`
/// (on any thread) writes into a buffer, returned with `work`'s result; and standard input
/// ([`stdin_reader`]) reads `input` when given. Captures run one at a time: a second one
/// (from another thread) waits for the first to end, and one must not be started inside
/// another.
///
/// # Examples
///
/// ```
/// use std::io::{Read, Write};
/// use pathology::report::render::{capture, stdin_reader, stdout_writer};
/// let (read, printed) = capture(Some(b"d,D\n".to_vec()), || {
///     let mut text = String::new();
///     stdin_reader().read_to_string(&mut text).unwrap();
///     stdout_writer().unwrap().write_all(b"printed\n").unwrap();
///     text
/// });
/// assert_eq!((read.as_str(), printed.as_slice()), ("d,D\n", &b"printed\n"[..]));
/// ```
pub fn capture<R>(input: Option<Vec<u8>>, work: impl FnOnce() -> R) -> (R, Vec<u8>) {
    /// Ends the capture, even when `work` panics.
    struct End;
    impl Drop for End {
        fn drop(&mut self) {
            *running() = None;
        }
    }
    let _one = CAPTURING.lock().unwrap_or_else(PoisonError::into_inner);
    let output = Arc::new(Mutex::new(Vec::new()));
    *running() = Some(Capture {
        output: Arc::clone(&output),
        input,
    });
    let end = End;
    let result = work();
    drop(end);
    let bytes = std::mem::take(&mut *output.lock().unwrap_or_else(PoisonError::into_inner));
    (result, bytes)
}

/// Standard input: the input of the running [`capture`] (read once; then empty), or the
/// process's.
pub fn stdin_reader() -> Box<dyn io::BufRead> {
    let injected = running().as_mut().map(|c| c.input.take());
    match injected {
        Some(input) => Box::new(io::Cursor::new(input.unwrap_or_default())),
        None => Box::new(io::BufReader::new(io::stdin())),
    }
}

/// Standard output: the buffer of the running [`capture`], or else the process's. On Unix the process's is a file of its own: Rust's `stdout()` treats a
/// descriptor that reports `EBADF` (one opened read-only) as a sink that accepts everything,
/// so `pathology table 1 1< file` would exit 0 having written nothing. Writes to a duplicate
/// of descriptor 1 report `EBADF`, and a closed pipe `EPIPE` (which the binary treats as
/// success, as `| head` wants). Only such errors mean that standard output is unusable: a
/// descriptor open read-write on `/dev/null` (Python's `subprocess.DEVNULL`, `1<>/dev/null`)
/// is a valid sink. A shell's `>&-` cannot be told apart from it on Linux (the Rust runtime
/// opens `/dev/null` read-write on a closed descriptor 1 before `main`), so it, too, discards
/// the output and exits 0.
///
/// # Errors
///
/// An [`io::Error`] when descriptor 1 cannot be duplicated.
pub fn stdout_writer() -> io::Result<Stdout> {
    if let Some(bytes) = running().as_ref().map(|c| Arc::clone(&c.output)) {
        return Ok(Stdout::Captured(bytes));
    }
    process_stdout().map(Stdout::Process)
}

#[cfg(unix)]
fn process_stdout() -> io::Result<std::fs::File> {
    use std::os::fd::AsFd;
    io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .map(std::fs::File::from)
        .map_err(|e| io::Error::new(e.kind(), format!("standard output is closed ({e})")))
}

#[cfg(not(unix))]
fn process_stdout() -> io::Result<io::StdoutLock<'static>> {
    Ok(io::stdout().lock())
}
