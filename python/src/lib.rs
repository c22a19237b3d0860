//! Python bindings of `pathology` (PyO3): the native module `pathology._pathology`.
//!
//! The package runs the command line itself, in-process: [`run`] hands the words of a command
//! line to [`pathology::cli::run_captured`], which parses them with the binary's clap parser
//! (the same defaults, ranges, cost checks and refusals) and runs the command with its
//! standard output captured. The Python layer (`python/pathology/__init__.py`) builds the
//! words from keyword arguments, forces `--format json` where the command has it and turns
//! the JSON (manifest, tables of typed columns, notes) into a `Report`. [`commands`] lists
//! every subcommand of [`pathology::cli::command`] with its options, so that the Python side
//! maps `qk=` to `--qk` and a test walks every command of the parser.
//!
//! Long commands run through [`interruptible`]: on a worker thread with the GIL released,
//! while the calling thread checks for signals every [`SIGNAL_POLL`]; Ctrl-C cancels the
//! library's [`pathology::cancel`] token, waits for the worker to stop (the library checks
//! the token between trials, levels and steps, and the test-time search engines between
//! their values of k, n and d) and raises `KeyboardInterrupt`.
//!
//! Progress: with a callback, [`interruptible`] runs the command inside a
//! [`pathology::progress::scope`] and, at each poll, hands the callback what changed (the
//! chain of running tasks, outermost first, as `(label, unit, done, total, detail)` tuples,
//! and whether the innermost one just ended), on the calling thread with the GIL; if the
//! callback raises, the command is cancelled and its exception raised.
//!
//! Threads and `fork`: each command runs on this process's own rayon pool ([`pool`]), never
//! on rayon's global pool, whose threads a forked child (a `fork` process pool, the default
//! start method on Linux before Python 3.14) does not have and which cannot be rebuilt. The
//! pool remembers the process id that built it: in a child the first call builds a fresh pool
//! (the parent's one is leaked, its threads exist only in the parent). `os.register_at_fork`
//! calls [`after_fork_in_child`] in the child: a fork while another thread of the parent was
//! inside a call leaves that call's locks held for ever in the child, so the child's calls
//! then raise `RuntimeError` naming the `spawn` and `forkserver` start methods instead of
//! waiting for ever.
//!
//! Errors: the user's input (clap's usage errors, the library's invalid arguments and
//! refusals) raises `ValueError` with the message the command line prints; any other failure
//! (a file that cannot be written) raises `RuntimeError`.

use pathology::cancel::{self, CancelToken};
use pathology::progress::{self, Progress};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// How often the calling thread takes the GIL to check for Ctrl-C while the library computes.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a worker thread with the GIL released, checking for signals (Ctrl-C) on
/// the calling thread every [`SIGNAL_POLL`]. When a signal handler raises (`KeyboardInterrupt`
/// for Ctrl-C), cancels the [`pathology::cancel`] token that `work` runs under, waits for
/// the worker to stop and raises that exception; whatever the worker returned is dropped,
/// so a partial result is never returned. A panic in `work` is re-raised here (PyO3 turns it
/// into `PanicException`).
///
/// Python runs signal handlers on the main thread only: called from another Python thread,
/// the check does nothing and the call runs to completion.
fn interruptible<T: Send>(
    py: Python<'_>,
    on_progress: Option<&Bound<'_, PyAny>>,
    group: Option<u64>,
    work: impl FnOnce() -> anyhow::Result<T> + Send,
) -> PyResult<T> {
    let token = CancelToken::new();
    let _member = group.map(|g| Member::join(g, &token));
    let record = on_progress.map(|_| Progress::new());
    let done: Mutex<Option<anyhow::Result<T>>> = Mutex::new(None);
    let take = || done.lock().unwrap_or_else(PoisonError::into_inner).take();
    let caller = std::thread::current();
    // Hands the callback what changed since the last poll.
    let report = || -> PyResult<()> {
        if let (Some(callback), Some(record)) = (on_progress, &record) {
            for update in record.poll() {
                let chain: Vec<(String, String, u64, u64, String)> = update
                    .chain
                    .into_iter()
                    .map(|s| (s.label, s.unit, s.done, s.total, s.detail))
                    .collect();
                callback.call1((chain, update.ended))?;
            }
        }
        Ok(())
    };
    std::thread::scope(|s| {
        let worker = s.spawn(|| {
            /// Wakes the calling thread when the worker ends, by returning or panicking.
            struct Wake(std::thread::Thread);
            impl Drop for Wake {
                fn drop(&mut self) {
                    self.0.unpark();
                }
            }
            let _wake = Wake(caller);
            let result = match &record {
                Some(record) => progress::scope(record, || cancel::scope(&token, work)),
                None => cancel::scope(&token, work),
            };
            *done.lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
        });
        loop {
            py.detach(|| std::thread::park_timeout(SIGNAL_POLL));
            let stored = take();
            if stored.is_some() || worker.is_finished() {
                if let Err(panic) = py.detach(|| worker.join()) {
                    std::panic::resume_unwind(panic);
                }
                // Joined without a panic: the result is stored (taken now or just before).
                let result = stored.or_else(take);
                report()?;
                return result
                    .expect("the worker stores its result before it ends")
                    .map_err(python_error);
            }
            // An exception on this thread (Ctrl-C, or the callback's) stops the worker.
            if let Some(raised) = py.check_signals().err().or_else(|| report().err()) {
                token.cancel();
                if let Err(panic) = py.detach(|| worker.join()) {
                    std::panic::resume_unwind(panic);
                }
                return Err(raised);
            }
        }
    })
}

/// The command's error as Python sees it: `ValueError` for the user's input (clap's usage
/// errors, the library's invalid arguments and refusals), `RuntimeError` otherwise; the
/// message is the one the command line prints after `error: `.
fn python_error(error: anyhow::Error) -> PyErr {
    if let Some(usage) = error.downcast_ref::<clap::Error>() {
        let text = usage.render().to_string();
        let text = text.trim_end();
        let text = text.strip_prefix("error: ").unwrap_or(text);
        let text = text
            .split("\n\nFor more information")
            .next()
            .unwrap_or(text);
        return PyValueError::new_err(text.to_string());
    }
    let usage = error.chain().any(|c| {
        c.downcast_ref::<pathology::Error>()
            .is_some_and(pathology::Error::is_usage)
    });
    let message = format!("{error:#}");
    if usage {
        PyValueError::new_err(message)
    } else {
        PyRuntimeError::new_err(message)
    }
}

/// The commands running in a cancel group (the shards of one `run_sharded` call, on worker
/// threads where Ctrl-C never reaches them), and the groups cancelled.
struct Groups {
    running: Vec<(u64, u64, CancelToken)>,
    cancelled: Vec<u64>,
    next: u64,
}

static GROUPS: Mutex<Groups> = Mutex::new(Groups {
    running: Vec::new(),
    cancelled: Vec::new(),
    next: 0,
});

fn groups() -> std::sync::MutexGuard<'static, Groups> {
    GROUPS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A running command's membership of its group, left when it ends.
struct Member(u64);

impl Member {
    /// Registers `token` in `group`; cancels it at once when the group was cancelled.
    fn join(group: u64, token: &CancelToken) -> Member {
        let mut groups = groups();
        if groups.cancelled.contains(&group) {
            token.cancel();
        }
        groups.next += 1;
        let id = groups.next;
        groups.running.push((group, id, token.clone()));
        Member(id)
    }
}

impl Drop for Member {
    fn drop(&mut self) {
        groups().running.retain(|(_, id, _)| *id != self.0);
    }
}

/// Cancels every command running in `group` and every one that starts in it later (the
/// library stops at its next check, between trials): `run_sharded` calls it on Ctrl-C so
/// that the shards running on an executor's threads stop promptly instead of running out.
#[pyfunction]
fn cancel_group(group: u64) {
    let mut groups = groups();
    if !groups.cancelled.contains(&group) {
        groups.cancelled.push(group);
    }
    for (g, _, token) in &groups.running {
        if *g == group {
            token.cancel();
        }
    }
}

/// Held while a command runs: the library captures one command's output at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The calls of [`run`] under way in this process (counted before any lock is taken and
/// until every lock is released): a child forked while this is above 0 inherits locks that
/// no thread of it will release.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// Set in a child forked while a call was under way ([`after_fork_in_child`]).
static FORKED_MID_CALL: AtomicBool = AtomicBool::new(false);

/// The pool the commands run on and the id of the process that built it.
static POOL: Mutex<Option<(u32, Arc<rayon::ThreadPool>)>> = Mutex::new(None);

/// Counts one call of [`run`] while alive.
struct Running;

impl Running {
    fn start() -> Running {
        RUNNING.fetch_add(1, Ordering::SeqCst);
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// This process's thread pool (all cores, or `RAYON_NUM_THREADS`), built on first use and
/// again in a forked child: the pool of the parent is leaked there, never used nor dropped
/// (its threads were not copied by `fork`; dropping it would wait on them).
fn pool() -> PyResult<Arc<rayon::ThreadPool>> {
    let pid = std::process::id();
    let mut slot = POOL.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((owner, pool)) = slot.as_ref()
        && *owner == pid
    {
        return Ok(Arc::clone(pool));
    }
    if let Some((_, inherited)) = slot.take() {
        std::mem::forget(inherited);
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("pathology-{i}"))
            .build()
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start the thread pool: {e}")))?,
    );
    *slot = Some((pid, Arc::clone(&pool)));
    Ok(pool)
}

/// Runs `work` on `pool`, under the calling thread's cancel token and progress record
/// (both are per thread: they are handed over to the pool's thread explicitly).
fn in_pool<R: Send>(pool: &rayon::ThreadPool, work: impl FnOnce() -> R + Send) -> R {
    let token = cancel::current();
    let record = progress::current();
    pool.install(|| match &record {
        Some(record) => progress::scope(record, || cancel::scope(&token, work)),
        None => cancel::scope(&token, work),
    })
}

/// Called by `os.register_at_fork(after_in_child=...)` in a child process right after
/// `fork`, while it has one thread: notes whether the parent was inside a call then.
#[pyfunction]
fn after_fork_in_child() {
    if RUNNING.load(Ordering::SeqCst) > 0 {
        FORKED_MID_CALL.store(true, Ordering::SeqCst);
    }
}

/// Runs the command line `argv` (the words after `pathology`) as the binary would, with
/// `stdin` (bytes) as standard input: what it printed (bytes) and its exit code (0, or
/// `validate`'s 1 and 2). `progress`, when given, is called on this thread with each change
/// of the running tasks: `progress(chain, ended)` (module docs).
///
/// `group`, when given, puts the command in a cancel group that [`cancel_group`] stops.
#[pyfunction]
#[pyo3(signature = (argv, stdin=None, progress=None, group=None))]
fn run<'py>(
    py: Python<'py>,
    argv: Vec<String>,
    stdin: Option<Vec<u8>>,
    progress: Option<Bound<'py, PyAny>>,
    group: Option<u64>,
) -> PyResult<(Bound<'py, PyBytes>, u8)> {
    if FORKED_MID_CALL.load(Ordering::SeqCst) {
        return Err(PyRuntimeError::new_err(
            "this process was forked (os.fork, or multiprocessing's 'fork' start method) while \
             another thread of its parent was inside a pathology call: the locks of that call \
             are held for ever here. Start worker processes with the 'spawn' or 'forkserver' \
             method (multiprocessing.get_context(\"spawn\")), or fork while no call runs",
        ));
    }
    let _running = Running::start();
    let pool = pool()?;
    let (printed, code) = interruptible(py, progress.as_ref(), group, || {
        // One command at a time captures the output (the library's capture is process-wide);
        // waiting for the one running now stops on Ctrl-C.
        let _one = loop {
            match ONE_AT_A_TIME.try_lock() {
                Ok(guard) => break guard,
                Err(std::sync::TryLockError::Poisoned(p)) => break p.into_inner(),
                Err(std::sync::TryLockError::WouldBlock) => {
                    cancel::current().check()?;
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
        };
        in_pool(&pool, || pathology::cli::run_captured(&argv, stdin))
    })?;
    Ok((PyBytes::new(py, &printed), code))
}

/// One option of a command, as the Python layer maps keyword arguments to it.
#[derive(IntoPyObject)]
struct OptionSpec {
    /// clap's id (the field name, `snake_case`).
    id: String,
    /// The long flag without `--` (`None` for a positional argument).
    long: Option<String>,
    /// Whether it takes a value (`False` for a flag such as `--exact`).
    takes_value: bool,
    /// Whether it must be given.
    required: bool,
    /// The values clap accepts, when it lists them (`--format`).
    choices: Vec<String>,
    /// The help line.
    help: String,
}

/// Every command of the parser: the path of subcommand names (`["mc", "dgame"]`), whether it
/// runs by itself (a command whose subcommand is required does not) and its options.
#[pyfunction]
fn commands() -> Vec<(Vec<String>, bool, Vec<OptionSpec>)> {
    fn walk(
        command: &clap::Command,
        path: &mut Vec<String>,
        out: &mut Vec<(Vec<String>, bool, Vec<OptionSpec>)>,
    ) {
        if !path.is_empty() {
            let options = command
                .get_arguments()
                .filter(|a| !matches!(a.get_id().as_str(), "help" | "version"))
                .map(|a| OptionSpec {
                    id: a.get_id().to_string(),
                    long: a.get_long().map(str::to_string),
                    takes_value: a.get_action().takes_values(),
                    required: a.is_required_set(),
                    choices: a
                        .get_possible_values()
                        .iter()
                        .map(|v| v.get_name().to_string())
                        .collect(),
                    help: a.get_help().map(ToString::to_string).unwrap_or_default(),
                })
                .collect();
            out.push((path.clone(), !command.is_subcommand_required_set(), options));
        }
        for sub in command.get_subcommands() {
            if sub.get_name() == "help" {
                continue;
            }
            path.push(sub.get_name().to_string());
            walk(sub, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    let mut command = pathology::cli::command();
    command.build();
    walk(&command, &mut Vec::new(), &mut out);
    out
}

/// The native module.
#[pymodule]
fn _pathology(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(commands, m)?)?;
    m.add_function(wrap_pyfunction!(cancel_group, m)?)?;
    m.add_function(wrap_pyfunction!(after_fork_in_child, m)?)?;
    Ok(())
}
