//! **Layer 9, the list of artefacts.** May import every layer below it.
//!
//! The papers' artefacts in one list: what `pathology reproduce` regenerates, and how.
//!
//! [`ARTEFACTS`] names every step, in order: Li & Marsland's (1990) Tables 1 and 2 and the
//! h = 10 threshold (Section 4), their Figs. 2-4 and the phase portrait of the gamma/delta
//! map (Sections 5 and 6), Chi & Nau's (1987) Figs. 2 and 3, kalah table (4.5) and othello
//! matches (4.3), G-games as we reconstruct them (4.1), Wilson, Parker & Nau's (2009) Figs. 1
//! and 3-6, the trend of the pathology threshold with the height (beyond the papers), a
//! cross-validation of every Monte Carlo estimate against its exact value, the critical-game
//! curves and (sigma, g) phase diagram of evaluations as distributions, and Nguyen &
//! Ramanujan's Figure 5 setting (UCT beside exact minimax). [`run`] walks the list into a directory and writes
//! `INDEX.md` last, saying what each file reproduces, the command that regenerates it and
//! its seed.
//!
//! Every file is a deterministic function of the code and [`Options::seed`]: re-running gives
//! byte-identical files (timings are returned, never written). Every file is written through
//! [`crate::report::output::write_atomically_with`], so an interrupted run leaves no partial file.

mod steps;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::plot::Style;
use crate::progress::Task;
use crate::report::output::write_atomically;
use crate::sim::runner::TrialRunner;

/// The default base seed of the Monte Carlo items.
pub const DEFAULT_SEED: u64 = 20_261_121;

/// What to reproduce, where.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The directory written into (created if missing).
    pub out: PathBuf,
    /// The base seed: each Monte Carlo item derives its own from it.
    pub seed: u64,
    /// The papers' full sizes instead of the reduced defaults.
    pub full: bool,
    /// Worker threads of the Monte Carlo items (results do not depend on it).
    pub threads: usize,
    /// How the figures are drawn.
    pub style: Style,
}

impl Options {
    /// The reduced defaults into `out`: [`DEFAULT_SEED`], all cores, screen figures.
    ///
    /// # Examples
    ///
    /// ```
    /// let options = pathology::reproduce::Options::new("plots");
    /// assert_eq!(options.seed, pathology::reproduce::DEFAULT_SEED);
    /// assert!(!options.full);
    /// ```
    pub fn new(out: impl Into<PathBuf>) -> Self {
        Options {
            out: out.into(),
            seed: DEFAULT_SEED,
            full: false,
            threads: std::thread::available_parallelism().map_or(1, usize::from),
            style: Style::Screen,
        }
    }
}

/// An error of [`run`]: [`crate::plot::ArtefactError`], the error of writing artefacts.
pub use crate::plot::ArtefactError as ReproduceError;

/// The result type of [`run`].
pub type Result<T, E = ReproduceError> = std::result::Result<T, E>;

/// One line of `INDEX.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    /// The file name (in [`Options::out`]).
    pub file: String,
    /// What it reproduces.
    pub reproduces: String,
    /// The command that regenerates it.
    pub command: String,
    /// The seed of its Monte Carlo items, if any.
    pub seed: Option<u64>,
}

/// One step of [`ARTEFACTS`]: a label and the function that writes its files.
#[derive(Clone, Copy)]
pub struct Artefact {
    /// What the step reproduces.
    pub label: &'static str,
    step: fn(&mut Job) -> Result<()>,
}

impl std::fmt::Debug for Artefact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Artefact")
            .field("label", &self.label)
            .finish_non_exhaustive()
    }
}

/// Every artefact that [`run`] regenerates, in order. "What reproduces Table 1" is answered
/// here: each step's function (in `steps.rs`) lists its files with their descriptions.
pub const ARTEFACTS: [Artefact; 11] = [
    Artefact {
        label: "Tables 1 and 2 (exact) and the h = 10 threshold",
        step: steps::tables,
    },
    Artefact {
        label: "Li & Marsland Figs. 2-4, phase portrait, Chi & Nau Fig. 2, Wilson et al. Fig. 1",
        step: steps::analytic_figures,
    },
    Artefact {
        label: "threshold and PS peak against height",
        step: steps::trend,
    },
    Artefact {
        label: "Chi & Nau Fig. 3 and Wilson, Parker & Nau Figs. 3-6 (simulations)",
        step: steps::studies,
    },
    Artefact {
        label: "cross-validation: Monte Carlo against exact values",
        step: steps::cross_validation,
    },
    Artefact {
        label: "Chi & Nau's kalah table and othello matches (simulations)",
        step: steps::chi_nau_variety,
    },
    Artefact {
        label: "critical-game curves and the (sigma, granularity) phase diagram (exact, issue 27)",
        step: steps::distribution_studies,
    },
    Artefact {
        label: "Nguyen & Ramanujan Fig. 5 setting: UCT against exact minimax (simulations)",
        step: steps::uct,
    },
    Artefact {
        label: "G-games (reconstruction): exact D and rhf, Monte Carlo matches and claims",
        step: steps::ggame,
    },
    Artefact {
        label: "Chi & Nau 4.2 (Ballard's claim, reconstructed) and the kalah gap (simulations)",
        step: steps::chi_nau_ballard_kalah_gap,
    },
    Artefact {
        label: "plots/INDEX.md",
        step: |_| Ok(()),
    },
];

/// The state of a run: options, the index so far and the text for the terminal.
struct Job {
    options: Options,
    index: Vec<IndexEntry>,
    printed: String,
}

impl Job {
    /// Writes `name` atomically and lists it in the index.
    fn file(
        &mut self,
        name: &str,
        contents: &str,
        reproduces: &str,
        command: &str,
        seed: Option<u64>,
    ) -> Result<()> {
        let path = self.options.out.join(name);
        write_atomically(&path, contents).map_err(|source| ReproduceError::Io {
            what: format!("writing {}", path.display()),
            source,
        })?;
        self.index.push(IndexEntry {
            file: name.to_string(),
            reproduces: reproduces.to_string(),
            command: command.to_string(),
            seed,
        });
        Ok(())
    }

    /// Adds `report`'s table `table` to the text for the terminal, with its first `notes`
    /// notes (nothing when the report has no such table).
    fn print_table(
        &mut self,
        report: &crate::report::Report,
        table: &str,
        notes: usize,
        options: &crate::report::ExportOptions,
    ) -> Result<()> {
        if let Some(chosen) = report.table(table) {
            let mut only = report.clone();
            only.tables = vec![chosen.clone()];
            only.notes.truncate(notes);
            self.printed.push('\n');
            self.printed
                .push_str(&only.render(crate::report::Format::Text, options)?);
        }
        Ok(())
    }

    /// Lists files written by a figure writer in the index.
    fn files(
        &mut self,
        paths: &[PathBuf],
        describe: impl Fn(&str) -> (String, String),
        seed: Option<u64>,
    ) {
        for p in paths {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let (reproduces, command) = describe(&name);
            self.index.push(IndexEntry {
                file: name,
                reproduces,
                command,
                seed,
            });
        }
    }

    fn runner(&self, trials: u64, seed: u64) -> Result<TrialRunner> {
        Ok(TrialRunner::new(trials, seed, self.options.threads)?)
    }

    fn out(&self) -> &Path {
        &self.options.out
    }
}

/// What [`run`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Every file written but `INDEX.md`, in order.
    pub index: Vec<IndexEntry>,
    /// The tables and summaries for the terminal.
    pub printed: String,
    /// Each step's label and wall time.
    pub timings: Vec<(&'static str, Duration)>,
}

impl Outcome {
    /// The text for the terminal: the tables and summaries, the file count and the timings.
    pub fn text(&self, out: &Path) -> String {
        let mut printed = self.printed.clone();
        let _ = write!(
            printed,
            "\n{} files written to {}/ (listed in INDEX.md)\ntimings:\n",
            self.index.len() + 1,
            out.display()
        );
        for (label, time) in &self.timings {
            let _ = writeln!(printed, "  {:6.1} s  {label}", time.as_secs_f64());
        }
        printed
    }
}

/// The staging directory of a run into `out`: every artefact is written here first.
pub fn staging_directory(out: &Path) -> PathBuf {
    out.join(".reproduce.partial")
}

/// Regenerates every artefact of [`ARTEFACTS`] into [`Options::out`], then `INDEX.md`. A
/// progress bar goes to standard error when it is a terminal.
///
/// The run is built in a staging directory inside the output directory
/// ([`staging_directory`]) and moved into place only when every step has succeeded: the old
/// `INDEX.md` is removed, each new file is renamed over its old version, and the new
/// `INDEX.md` is written last. So an interrupted or failed run leaves the previous run's files
/// and index untouched (the staging directory is removed on errors, and by the binary's signal
/// handler on SIGINT/SIGTERM: [`crate::report::output::remove_partial_files`]); a stale
/// staging directory left by a killed process is removed by the next run.
///
/// # Errors
///
/// [`ReproduceError`] when a file cannot be written or a computation fails.
pub fn run(options: &Options) -> Result<Outcome> {
    let out = &options.out;
    let io = |what: String| move |source| ReproduceError::Io { what, source };
    std::fs::create_dir_all(out).map_err(io(format!(
        "creating the output directory {}",
        out.display()
    )))?;
    let staging = staging_directory(out);
    if staging.exists() {
        std::fs::remove_dir_all(&staging)
            .map_err(io(format!("removing the stale {}", staging.display())))?;
    }
    std::fs::create_dir(&staging).map_err(io(format!("creating {}", staging.display())))?;
    let guard = crate::report::output::register_partial_directory(&staging);
    let staged = Options {
        out: staging.clone(),
        ..options.clone()
    };
    let result = run_steps(&staged).and_then(|outcome| {
        move_into_place(&staging, out, options.full, &outcome)?;
        Ok(outcome)
    });
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    drop(guard);
    result
}

/// Moves a finished run from `staging` into `out`: the old index first, then every file, the
/// new index last.
fn move_into_place(staging: &Path, out: &Path, full: bool, outcome: &Outcome) -> Result<()> {
    let io = |what: String| move |source| ReproduceError::Io { what, source };
    // The old index is taken out of the way first (kept aside to compare), so no index ever
    // claims a mix of two runs' files.
    let old_index = staging.with_file_name(".INDEX.previous.md");
    match std::fs::rename(out.join("INDEX.md"), &old_index) {
        Err(source) if source.kind() != std::io::ErrorKind::NotFound => {
            return Err(ReproduceError::Io {
                what: "removing the old INDEX.md".to_string(),
                source,
            });
        }
        _ => {}
    }
    let mut names: Vec<PathBuf> = std::fs::read_dir(staging)
        .map_err(io(format!("reading {}", staging.display())))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()
        .map_err(io(format!("reading {}", staging.display())))?;
    names.sort();
    for from in names {
        let Some(name) = from.file_name() else {
            continue;
        };
        let to = out.join(name);
        if same_but_commit(&from, &to) {
            // Committed artefacts do not churn when only the commit changed.
            std::fs::remove_file(&from).map_err(io(format!("removing {}", from.display())))?;
            continue;
        }
        std::fs::rename(&from, &to).map_err(io(format!("moving {} into place", to.display())))?;
    }
    let index = index_markdown(full, &outcome.index);
    // Written last (atomically): it lists every file of this run with its seed.
    let index_path = out.join("INDEX.md");
    let staged_index = staging.join("INDEX.md");
    write_atomically(&staged_index, index).map_err(io("writing INDEX.md".to_string()))?;
    if same_but_commit(&staged_index, &old_index) {
        write_atomically(&index_path, std::fs::read(&old_index).unwrap_or_default())
            .map_err(io("writing INDEX.md".to_string()))?;
        let _ = std::fs::remove_file(&staged_index);
    } else {
        std::fs::rename(&staged_index, &index_path).map_err(io("writing INDEX.md".to_string()))?;
    }
    let _ = std::fs::remove_file(&old_index);
    std::fs::remove_dir(staging).map_err(io(format!("removing {}", staging.display())))
}

/// Whether the files `new` and `old` are equal but for the commit hashes in their manifest
/// lines (runs of at least 12 hexadecimal digits, `-dirty` included): then the old file stays,
/// its manifest naming the commit that first produced these very bytes.
fn same_but_commit(new: &Path, old: &Path) -> bool {
    let (Ok(new), Ok(old)) = (std::fs::read(new), std::fs::read(old)) else {
        return false;
    };
    if new == old {
        return true;
    }
    let (Ok(new), Ok(old)) = (String::from_utf8(new), String::from_utf8(old)) else {
        return false;
    };
    let (a, b): (Vec<&str>, Vec<&str>) = (new.split('\n').collect(), old.split('\n').collect());
    a.len() == b.len()
        && a.iter()
            .zip(&b)
            .all(|(x, y)| x == y || (x.contains("commit") && mask_commits(x) == mask_commits(y)))
}

/// `line` with every run of at least 12 hexadecimal digits (and a `-dirty` after it) replaced
/// by `#`.
fn mask_commits(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let mut j = i;
        while j < chars.len() && chars[j].is_ascii_hexdigit() {
            j += 1;
        }
        if j - i >= 12 {
            out.push('#');
            i = j;
            let rest: String = chars[i..].iter().take(6).collect();
            if rest == "-dirty" {
                i += 6;
            }
        } else if j > i {
            out.extend(&chars[i..j]);
            i = j;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// Runs every step into `options.out`.
fn run_steps(options: &Options) -> Result<Outcome> {
    let mut job = Job {
        options: options.clone(),
        index: Vec::new(),
        printed: String::new(),
    };
    let task = Task::start("reproduce", "artefacts", ARTEFACTS.len() as u64, true);
    let mut timings = Vec::new();
    for artefact in ARTEFACTS {
        task.set_detail(artefact.label);
        let start = Instant::now();
        (artefact.step)(&mut job)?;
        timings.push((artefact.label, start.elapsed()));
        task.advance(1);
    }
    Ok(Outcome {
        index: job.index,
        printed: job.printed,
        timings,
    })
}

/// `INDEX.md`: one table row per file, with what it reproduces, its command and seed.
///
/// # Examples
///
/// ```
/// use pathology::reproduce::{IndexEntry, index_markdown};
/// let entry = IndexEntry { file: "table1.md".into(), reproduces: "Table 1".into(),
///                          command: "pathology table 1".into(), seed: None };
/// assert!(index_markdown(false, &[entry]).ends_with("| [table1.md](table1.md) | Table 1 | `pathology table 1` | - |\n"));
/// ```
pub fn index_markdown(full: bool, entries: &[IndexEntry]) -> String {
    let mut out = format!(
        "# plots/\n\nGenerated by `pathology reproduce{}` (this file too) with {} {}, commit {}. \
         Re-running the same build with the same seed gives byte-identical files; a file that a \
         later build reproduces byte for byte but for its commit line is left as it was, so its \
         manifest names the build that first wrote it.\n\n\
         | file | reproduces | command | seed |\n|:--|:--|:--|--:|\n",
        if full { " --full" } else { "" },
        crate::report::TOOL,
        crate::report::VERSION,
        crate::report::COMMIT,
    );
    for e in entries {
        let _ = writeln!(
            out,
            "| [{f}]({f}) | {} | `{}` | {} |",
            e.reproduces.replace('|', "\\|"),
            e.command,
            e.seed.map_or("-".to_string(), |s| s.to_string()),
            f = e.file
        );
    }
    out
}
