//! **Layer 1, progress.** May import: nothing of the crate.
//!
//! Reporting the work done by long computations: the command line's progress bars on a
//! terminal, and the Python package's `progress=True` or progress callback.
//!
//! Not a formula of the papers: plumbing, in the manner of [`crate::cancel`]. A long loop
//! starts a [`Task`] (a label such as `mc uct`, a unit such as `games`, and the total) and
//! advances it as work is done; tasks started while another is running on the same thread
//! nest under it (the `reproduce` artefacts, then the trials of one artefact). Who sees a
//! task:
//!
//! - a caller that runs the computation inside [`scope`] with a [`Progress`] and reads it from
//!   another thread with [`Progress::poll`] (the Python package polls it every 50 ms on the
//!   calling thread, so its callback runs there, with the GIL, never on a worker);
//! - otherwise, when the task asks for a bar, runs on the command's own thread (not one of
//!   rayon's workers, where an engine may run once per setting) and standard error is a
//!   terminal, an indicatif bar on standard error (nested tasks stack, one line each). Standard output is never
//!   touched, so a report is byte for byte the same with or without a bar.
//!
//! A task nobody watches costs nothing but its creation: [`Task::is_watched`] tells hot
//! loops (the Monte Carlo runner's per-trial count) whether to count at all. Counting is
//! one relaxed atomic add; the numbers are progress, never results, and no result depends
//! on them.

use std::cell::RefCell;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

/// One task's state at a poll: its label, unit, work done and total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stage {
    /// What runs (`mc uct`, `sweep`, `reproduce`).
    pub label: String,
    /// What is counted (`trials`, `games`, `settings`, [`WORK`]: `reproduce`'s steps weighted
    /// by their measured times).
    pub unit: String,
    /// Units done.
    pub done: u64,
    /// Units in all.
    pub total: u64,
    /// What the task is at now, when it says (`reproduce`: the step), or empty.
    pub detail: String,
}

/// One report of [`Progress::poll`]: the chain of tasks, outermost first, and whether its
/// last (innermost) task has just ended (its final count).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Update {
    /// The tasks, outermost first; the last is the one this update is about.
    pub chain: Vec<Stage>,
    /// Whether the last task of `chain` ended (a final count), or is running.
    pub ended: bool,
}

/// A record of the tasks running under [`scope`], read from another thread with
/// [`Progress::poll`]. Clones share the record.
///
/// # Examples
///
/// ```
/// use pathology::progress::{Progress, Task, scope};
/// let progress = Progress::new();
/// scope(&progress, || {
///     let outer = Task::start("reproduce", "artefacts", 2, false);
///     outer.advance(1);
///     let inner = Task::start("mc dgame", "trials", 10, true);
///     inner.advance(4);
///     // The chain of running tasks, outermost first.
///     let updates = progress.poll();
///     let chain = &updates.last().unwrap().chain;
///     assert_eq!((chain[0].done, chain[0].total), (1, 2));
///     assert_eq!((chain[1].label.as_str(), chain[1].done), ("mc dgame", 4));
///     // Nothing changed since: nothing to report.
///     assert!(progress.poll().is_empty());
///     inner.advance(6);
/// });
/// // A task that ended is reported once more, with its final count.
/// let updates = progress.poll();
/// assert!(updates[0].ended);
/// assert_eq!(updates[0].chain.last().unwrap().done, 10);
/// assert!(progress.poll().is_empty());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Progress {
    shared: Arc<Mutex<Record>>,
}

#[derive(Debug, Default)]
struct Record {
    /// The running tasks, outermost first.
    running: Vec<Running>,
    /// Tasks that ended since the last poll, with their final counts.
    ended: Vec<Update>,
    /// The chain the last poll returned, to report only changes.
    last: Option<Vec<Stage>>,
    next_id: u64,
}

#[derive(Debug)]
struct Running {
    id: u64,
    label: String,
    unit: String,
    total: u64,
    done: Arc<AtomicU64>,
    detail: Arc<Mutex<String>>,
}

impl Running {
    fn stage(&self) -> Stage {
        Stage {
            label: self.label.clone(),
            unit: self.unit.clone(),
            done: self.done.load(Ordering::Relaxed),
            total: self.total,
            detail: self
                .detail
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone(),
        }
    }
}

impl Progress {
    /// An empty record.
    pub fn new() -> Self {
        Self::default()
    }

    fn record(&self) -> std::sync::MutexGuard<'_, Record> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// What changed since the last poll, in order: the chains (outermost task first) of the
    /// tasks that ended, each with its final count, then the chain of the running tasks
    /// when it differs from the last one returned. Empty when nothing changed.
    pub fn poll(&self) -> Vec<Update> {
        let mut record = self.record();
        let mut updates = std::mem::take(&mut record.ended);
        if let Some(last) = updates.last() {
            record.last = Some(last.chain.clone());
        }
        if !record.running.is_empty() {
            let chain: Vec<Stage> = record.running.iter().map(Running::stage).collect();
            if record.last.as_ref() != Some(&chain) {
                record.last = Some(chain.clone());
                updates.push(Update {
                    chain,
                    ended: false,
                });
            }
        }
        updates
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Progress>> = const { RefCell::new(None) };
}

/// Runs `work` on this thread with `progress` recording the tasks it starts, restoring the
/// previous record afterwards (also when `work` panics). Tasks started inside report to
/// `progress` and show no terminal bar.
pub fn scope<R>(progress: &Progress, work: impl FnOnce() -> R) -> R {
    /// Puts the previous record back when dropped.
    struct Restore(Option<Progress>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|current| *current.borrow_mut() = previous);
        }
    }
    let _restore = Restore(CURRENT.with(|current| current.replace(Some(progress.clone()))));
    work()
}

/// The record of the innermost [`scope`] on this thread, if any.
pub fn current() -> Option<Progress> {
    CURRENT.with(|current| current.borrow().clone())
}

/// The terminal's bars: nested tasks stack, one line each.
static BARS: LazyLock<MultiProgress> = LazyLock::new(MultiProgress::new);

/// A running piece of work that reports how much of it is done, to the [`current`]
/// [`Progress`] or to a bar on a terminal (module docs). Ends when dropped. `&Task` can be
/// shared with worker threads (`advance` is an atomic add).
///
/// # Examples
///
/// ```
/// use pathology::progress::Task;
/// // Outside a scope and off a terminal (as in this test), nobody watches.
/// let task = Task::start("counting", "items", 3, true);
/// assert!(!task.is_watched());
/// task.advance(3); // harmless either way
/// ```
#[derive(Debug)]
pub struct Task {
    done: Arc<AtomicU64>,
    detail: Arc<Mutex<String>>,
    bar: Option<ProgressBar>,
    owner: Option<(Progress, u64)>,
    /// The characters a bar's message may take ([`BAR_LINE_WIDTH`] less the rest).
    room: usize,
}

/// The widest line a terminal bar draws: its message is cut to fit.
pub const BAR_LINE_WIDTH: usize = 100;

/// The unit of a task that counts work rather than items ([`Task::start_work`]): its bar shows
/// the share done, in percent, and its ETA follows the work.
pub const WORK: &str = "work";

/// The cells of a bar.
const BAR_CELLS: usize = 20;

/// The indicatif template of a bar counting `unit`.
fn bar_template(unit: &str) -> String {
    let counts = if unit == WORK {
        "{percent:>3}%".to_string()
    } else {
        format!("{{pos}}/{{len}} {unit}")
    };
    format!("{{prefix}} [{{elapsed_precise}}] {{bar:{BAR_CELLS}}} {counts} (eta {{eta}}) {{msg}}")
}

/// The characters left for the message of a bar labelled `label` counting `total` `unit`s,
/// on a line of [`BAR_LINE_WIDTH`]: the rest of the line is the label, the elapsed time
/// (`[hh:mm:ss]`), the bar, the counts (or the percentage) and the ETA (at most 12 characters
/// with its parentheses: `(eta 59m 59s)`, `(eta 1h 59m)`).
fn message_room(label: &str, unit: &str, total: u64) -> usize {
    let counts = if unit == WORK {
        4
    } else {
        2 * total.to_string().len() + 2 + unit.chars().count()
    };
    let fixed = label.chars().count() + 12 + BAR_CELLS + 1 + counts + 1 + 14 + 1;
    BAR_LINE_WIDTH.saturating_sub(fixed)
}

/// `text` cut to `room` characters (its end replaced by `...` when cut).
fn cut(text: &str, room: usize) -> String {
    if text.chars().count() <= room {
        return text.to_string();
    }
    let kept: String = text.chars().take(room.saturating_sub(3)).collect();
    format!("{kept}...")
}

impl Task {
    /// Starts a task of `total` units named `label` (`unit` says what is counted). It
    /// reports to the [`current`] [`Progress`] when there is one; otherwise, with `bar` and
    /// when standard error is a terminal, it draws a bar there.
    pub fn start(label: &str, unit: &str, total: u64, bar: bool) -> Task {
        let done = Arc::new(AtomicU64::new(0));
        let detail = Arc::new(Mutex::new(String::new()));
        if let Some(progress) = current() {
            let mut record = progress.record();
            let id = record.next_id;
            record.next_id += 1;
            record.running.push(Running {
                id,
                label: label.to_string(),
                unit: unit.to_string(),
                total,
                done: Arc::clone(&done),
                detail: Arc::clone(&detail),
            });
            drop(record);
            return Task {
                done,
                detail,
                bar: None,
                owner: Some((progress, id)),
                room: message_room(label, unit, total),
            };
        }
        // A task started on one of rayon's worker threads (an engine run once per setting
        // in parallel) draws no bar: only the command's own thread does.
        let bar =
            (bar && rayon::current_thread_index().is_none() && std::io::stderr().is_terminal())
                .then(|| {
                    let bar = BARS.add(ProgressBar::new(total));
                    if let Ok(style) = ProgressStyle::with_template(&bar_template(unit)) {
                        bar.set_style(style);
                    }
                    bar.set_prefix(label.to_string());
                    bar
                });
        Task {
            done,
            detail,
            bar,
            owner: None,
            room: message_room(label, unit, total),
        }
    }

    /// A task that counts `total` units of work ([`WORK`]: a caller's own measure, such as
    /// `reproduce`'s steps weighted by their measured times), so that its bar's percentage
    /// and ETA follow the work rather than the number of steps.
    pub fn start_work(label: &str, total: u64, bar: bool) -> Task {
        Task::start(label, WORK, total, bar)
    }

    /// Whether anyone sees this task (a [`Progress`] or a bar): loops that would count
    /// often count only then.
    pub fn is_watched(&self) -> bool {
        self.bar.is_some() || self.owner.is_some()
    }

    /// Adds `units` to the work done.
    pub fn advance(&self, units: u64) {
        self.done.fetch_add(units, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.inc(units);
        }
    }

    /// Sets the work done to `units` (a loop that counts in its own chunks).
    pub fn set(&self, units: u64) {
        self.done.store(units, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.set_position(units);
        }
    }

    /// Says what the task is at now (`reproduce`: the artefact it builds).
    pub fn set_detail(&self, detail: &str) {
        detail.clone_into(&mut self.detail.lock().unwrap_or_else(PoisonError::into_inner));
        if let Some(bar) = &self.bar {
            bar.set_message(cut(detail, self.room));
        }
    }

    /// Runs `work` with the terminal's bars hidden (for a caller that prints to the same
    /// terminal), or just runs it when this task has no bar.
    pub fn suspend<R>(&self, work: impl FnOnce() -> R) -> R {
        if self.bar.is_some() {
            BARS.suspend(work)
        } else {
            work()
        }
    }

    /// Clears this task's bar from the terminal now (before the caller prints its last
    /// lines); the task still counts until it is dropped.
    pub fn clear(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    /// The work done so far.
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }
}

impl Drop for Task {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
            BARS.remove(&bar);
        }
        if let Some((progress, id)) = self.owner.take() {
            let mut record = progress.record();
            if let Some(at) = record.running.iter().position(|r| r.id == id) {
                let chain: Vec<Stage> = record.running[..=at].iter().map(Running::stage).collect();
                record.running.truncate(at);
                record.ended.push(Update { chain, ended: true });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outside a scope nothing records; inside, tasks nest, end in order and report their
    /// final counts once; the scope is restored after it.
    #[test]
    fn tasks_nest_and_report_changes_only() {
        assert!(current().is_none());
        let progress = Progress::new();
        scope(&progress, || {
            assert!(current().is_some());
            let outer = Task::start("reproduce", "artefacts", 3, true);
            assert!(outer.is_watched());
            outer.set_detail("table 1");
            let first = progress.poll();
            assert_eq!(first.len(), 1);
            assert_eq!(first[0].chain[0].detail, "table 1");
            assert!(!first[0].ended);
            {
                let inner = Task::start("mc dgame", "trials", 100, true);
                inner.advance(40);
                inner.advance(60);
                assert_eq!(inner.done(), 100);
            }
            outer.set(1);
            let updates = progress.poll();
            // The inner task's end (100 of 100), then the outer task alone at 1 of 3.
            assert_eq!(updates.len(), 2);
            assert!(updates[0].ended && !updates[1].ended);
            assert_eq!(updates[0].chain.len(), 2);
            assert_eq!(
                (updates[0].chain[1].done, updates[0].chain[1].total),
                (100, 100)
            );
            assert_eq!(updates[1].chain.len(), 1);
            assert_eq!(updates[1].chain[0].done, 1);
            assert!(progress.poll().is_empty());
        });
        assert!(current().is_none());
        let last = progress.poll();
        assert_eq!(last.len(), 1);
        assert_eq!(last[0].chain[0].label, "reproduce");
        assert!(last[0].ended);
    }

    /// A terminal that records the lines a bar draws.
    #[derive(Debug, Default, Clone)]
    struct Recorder(Arc<Mutex<Vec<String>>>);

    impl indicatif::TermLike for Recorder {
        fn width(&self) -> u16 {
            400
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push(s.to_string());
            Ok(())
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.write_line(s)
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A bar's line is at most 100 characters on a wide terminal (it was
    /// as wide as the terminal, 250 characters, with `reproduce`'s longest step label), and
    /// a work bar shows its share in percent.
    #[test]
    fn bar_lines_fit_in_100_characters() {
        let detail =
            "real domains at every position: the 8-puzzle, KRK and KQK (exact; noise sampled)";
        for (label, unit, total) in [
            ("reproduce", WORK, 1000),
            ("mc dgame", "trials", 1_000_000_000_000),
            ("reproduce", "artefacts", 13),
        ] {
            let recorder = Recorder::default();
            let target = indicatif::ProgressDrawTarget::term_like(Box::new(recorder.clone()));
            let bar = ProgressBar::with_draw_target(Some(total), target);
            bar.set_style(ProgressStyle::with_template(&bar_template(unit)).unwrap());
            bar.set_prefix(label.to_string());
            bar.set_message(cut(detail, message_room(label, unit, total)));
            bar.set_position(total / 3);
            bar.tick();
            bar.finish();
            let lines = recorder.0.lock().unwrap().clone();
            assert!(!lines.is_empty());
            // indicatif pads a line with spaces to clear what was there: not drawn text.
            for line in lines.iter().map(|l| l.trim_end()) {
                assert!(
                    line.chars().count() <= BAR_LINE_WIDTH,
                    "{} characters: {line}",
                    line.chars().count()
                );
            }
            if unit == WORK {
                assert!(lines.iter().any(|l| l.contains("33%")), "{lines:?}");
            }
        }
    }

    /// Counting from many threads at once loses nothing.
    #[test]
    fn advances_from_threads_add_up() {
        let progress = Progress::new();
        scope(&progress, || {
            let task = Task::start("trials", "trials", 80_000, true);
            std::thread::scope(|s| {
                for _ in 0..8 {
                    s.spawn(|| {
                        for _ in 0..10_000 {
                            task.advance(1);
                        }
                    });
                }
            });
            assert_eq!(task.done(), 80_000);
        });
    }
}
