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
//! byte-identical files (timings are returned, never written). Every file is written into a
//! staging directory of the run's own, which replaces the output directory in one atomic step
//! when every step has succeeded ([`run`]); a second run into the same directory is refused
//! while the first holds its lock.

mod crossval_rows;
mod equal_compute;
mod generation;
mod samples_data;
mod sampling;
mod steps;
mod verifier_search;

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
    /// Only these steps of [`ARTEFACTS`] (numbered from 1), for quick checks of the run's
    /// machinery; `None` runs them all. `INDEX.md` lists the files of the steps run.
    pub steps: Option<Vec<usize>>,
}

/// The command that regenerates the file `name` alone, from the command `command` of its
/// step: `pathology reproduce ...` becomes `pathology reproduce --only NAME ...` (the other
/// commands already write their own files).
fn alone(command: &str, name: &str) -> String {
    match command.strip_prefix("pathology reproduce") {
        Some(rest) if rest.is_empty() || rest.starts_with(' ') => {
            format!("pathology reproduce --only {name}{rest}")
        }
        _ => command.to_string(),
    }
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
            steps: None,
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

/// One step of [`ARTEFACTS`]: a label, the files it writes and the function that writes them.
#[derive(Clone, Copy)]
pub struct Artefact {
    /// What the step reproduces.
    pub label: &'static str,
    /// The beginnings of the names of the files it writes (every file it writes starts with
    /// one of them, and no other step's does; a run checks it): `reproduce --only NAME`
    /// finds the step of NAME here.
    pub files: &'static [&'static str],
    /// Its share of a run's work, in tenths of a second measured on two cores (reduced sizes):
    /// the progress bar's ETA follows the work, not the number of steps.
    pub work: u64,
    step: fn(&mut Job) -> Result<()>,
}

impl Artefact {
    /// Whether this step writes the file `name` (by [`Artefact::files`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::reproduce::ARTEFACTS;
    /// assert!(ARTEFACTS[0].writes("table1.md"));
    /// assert!(!ARTEFACTS[0].writes("errprop_fig2.png"));
    /// ```
    pub fn writes(&self, name: &str) -> bool {
        self.files.iter().any(|prefix| name.starts_with(prefix))
    }
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
pub const ARTEFACTS: [Artefact; 17] = [
    Artefact {
        label: "Tables 1 and 2 (exact) and the h = 10 threshold",
        files: &["table1.", "table2.", "threshold_h10."],
        work: 5,
        step: steps::tables,
    },
    Artefact {
        label: "Li & Marsland Figs. 2-4, phase portrait, Chi & Nau Fig. 2, Wilson et al. Fig. 1",
        files: &[
            "errprop_",
            "rhf_chi_nau_fig2.",
            "emm_depth_one_fig1.",
            "dgame_fig4",
        ],
        work: 2,
        step: steps::analytic_figures,
    },
    Artefact {
        label: "threshold and PS peak against height",
        files: &["trend"],
        work: 23,
        step: steps::trend,
    },
    Artefact {
        label: "Chi & Nau Fig. 3 and Wilson, Parker & Nau Figs. 3-6 (simulations)",
        files: &["chi_nau_fig3.", "wilson_"],
        work: 490,
        step: steps::studies,
    },
    Artefact {
        label: "cross-validation: Monte Carlo against exact values",
        files: &["crossval"],
        work: 46,
        step: steps::cross_validation,
    },
    Artefact {
        label: "Chi & Nau's kalah table and othello matches (simulations)",
        files: &["chi_nau_kalah.", "chi_nau_othello."],
        work: 46,
        step: steps::chi_nau_variety,
    },
    Artefact {
        label: "critical-game curves and the (sigma, granularity) phase diagram (exact)",
        files: &["critical_curves", "phase_diagram"],
        work: 25,
        step: steps::distribution_studies,
    },
    Artefact {
        label: "Nguyen & Ramanujan Fig. 5 setting: UCT against exact minimax (simulations)",
        files: &["uct_fig5"],
        work: 53,
        step: steps::uct,
    },
    Artefact {
        label: "G-games (reconstruction): exact D and rhf, Monte Carlo matches and claims",
        files: &["ggame"],
        work: 7,
        step: steps::ggame,
    },
    Artefact {
        label: "Chi & Nau 4.2 (Ballard's claim, reconstructed) and the kalah gap (simulations)",
        files: &["chi_nau_ballard.", "chi_nau_kalah_gap."],
        work: 46,
        step: steps::chi_nau_ballard_kalah_gap,
    },
    Artefact {
        label: "why minimax works: similarity, early terminal nodes, minimax bias (exact)",
        files: &["why_"],
        work: 2,
        step: steps::why_minimax,
    },
    Artefact {
        label: "real domains at every position: the 8-puzzle, KRK and KQK (exact; noise sampled)",
        files: &["domains"],
        work: 498,
        step: steps::domains,
    },
    Artefact {
        label: "test-time search: resampling (Stroebl et al.) and voting (Chen et al.), exact",
        files: &["inference_sampling"],
        work: 5,
        step: sampling::inference_sampling,
    },
    Artefact {
        label: "test-time search: best-of-n's tail boundaries, lookahead by depth against best-of-n (exact)",
        files: &["inference_search"],
        work: 6,
        step: verifier_search::verifier_search,
    },
    Artefact {
        label: "test-time search at equal compute: beam search and lookahead against best-of-N, knockout brackets (exact)",
        files: &["inference_equal_compute"],
        work: 40,
        step: equal_compute::equal_compute,
    },
    Artefact {
        label: "evaluation data: real pass@k of a base and an RL model, CRUXEval majority@k, synthetic best-of-k",
        files: &["samples_"],
        work: 3,
        step: samples_data::samples_data,
    },
    Artefact {
        label: "plots/INDEX.md",
        files: &["INDEX.md"],
        work: 1,
        step: |_| Ok(()),
    },
];

/// The state of a run: options, the index so far and the text for the terminal.
struct Job {
    options: Options,
    index: Vec<IndexEntry>,
    printed: String,
    verdicts: Vec<(usize, String, [u64; 4])>,
    step: usize,
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
            command: alone(command, name),
            seed,
        });
        Ok(())
    }

    /// Writes `report` in `format` as `name` and lists it in the index; CSV is written with
    /// its manifest sidecar ([`crate::report::CsvFiles`]), which is listed too.
    /// Writes `STEM.txt` and `STEM.csv` (with its sidecar) of `report` and lists them.
    fn text_and_csv(
        &mut self,
        stem: &str,
        report: &crate::report::Report,
        options: &crate::report::ExportOptions,
        listing: (&str, &str, Option<u64>),
    ) -> Result<()> {
        for format in [crate::report::Format::Text, crate::report::Format::Csv] {
            let name = format!("{stem}.{}", format.extension());
            self.rendered(&name, report, format, options, listing)?;
        }
        Ok(())
    }

    /// Draws each `(stem, panels)` as `STEM.png` and `STEM.svg`; the paths, to list.
    fn charts(&self, figures: &[(String, Vec<crate::plot::Panel>)]) -> Result<Vec<PathBuf>> {
        let mut paths = Vec::new();
        for (stem, panels) in figures {
            for ext in ["png", "svg"] {
                let path = self.out().join(format!("{stem}.{ext}"));
                crate::plot::error_bar_chart(&path, panels, self.options.style)?;
                paths.push(path);
            }
        }
        Ok(paths)
    }

    fn rendered(
        &mut self,
        name: &str,
        report: &crate::report::Report,
        format: crate::report::Format,
        options: &crate::report::ExportOptions,
        (reproduces, command, seed): (&str, &str, Option<u64>),
    ) -> Result<()> {
        if format != crate::report::Format::Csv {
            return self.file(
                name,
                &report.render(format, options)?,
                reproduces,
                command,
                seed,
            );
        }
        let files = crate::report::CsvFiles::render(report, options)?;
        let written = files
            .write(&self.options.out.join(name))
            .map_err(|(path, source)| ReproduceError::Io {
                what: format!("writing {}", path.display()),
                source,
            })?;
        self.files(
            &written,
            |_| (reproduces.to_string(), command.to_string()),
            seed,
        );
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
        if let Some(claims) = report.table("claims") {
            let step = self.step;
            self.verdicts.extend(
                crate::report::claims::verdict_counts(claims)
                    .into_iter()
                    .map(|(family, counts)| (step, family, counts)),
            );
        }
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

    /// Lists files written by a figure writer in the index (a CSV's manifest sidecar as
    /// "the manifest of NAME.csv").
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
            let (mut reproduces, command) = describe(&name);
            if let Some(csv) = name.strip_suffix(".manifest.json") {
                reproduces =
                    format!("the manifest of {csv} (JSON: command, version, commit, seed, notes)");
            }
            self.index.push(IndexEntry {
                command: alone(&command, &name),
                file: name,
                reproduces,
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
    /// The verdicts of every claims table the run wrote, per family: `(step, family, [holds,
    /// fails, undecided, not testable])`, the step numbered from 1 in [`ARTEFACTS`].
    pub verdicts: Vec<(usize, String, [u64; 4])>,
    /// Each step's label and wall time.
    pub timings: Vec<(&'static str, Duration)>,
}

impl Outcome {
    /// The text for the terminal, one screen: what was written where (the steps with their
    /// file counts and times) and the verdicts of every claims table, per family. The full
    /// reports, and the tables [`Outcome::printed`] holds, are in the files.
    pub fn text(&self, out: &Path) -> String {
        let total: f64 = self.timings.iter().map(|(_, t)| t.as_secs_f64()).sum();
        let mut text = format!(
            "{} files written to {}/ in {total:.1} s (each listed with its command and seed in {}/INDEX.md)\n\n",
            self.index.len() + 1,
            out.display(),
            out.display()
        );
        let width = self.timings.iter().map(|(l, _)| l.len()).max().unwrap_or(4);
        let _ = writeln!(text, "step  {:width$}  seconds", "");
        for (label, time) in &self.timings {
            let step = ARTEFACTS
                .iter()
                .position(|a| a.label == *label)
                .map_or(0, |i| i + 1);
            let _ = writeln!(text, "{step:4}  {label:width$}  {:7.1}", time.as_secs_f64());
        }
        if !self.verdicts.is_empty() {
            let width = self
                .verdicts
                .iter()
                .map(|(_, f, _)| f.chars().count())
                .max()
                .unwrap_or(6);
            let _ = write!(
                text,
                "\nClaims of the papers, verdicts per family (Holm within each family; every claim's \
                 effect, interval and test is in table claims of the study's .txt file)\n\n\
                 step  {:width$}  holds  fails  undecided  not testable\n",
                "family"
            );
            for (step, family, c) in &self.verdicts {
                let pad = width - family.chars().count();
                let _ = writeln!(
                    text,
                    "{step:4}  {family}{:pad$}  {:5}  {:5}  {:9}  {:12}",
                    "", c[0], c[1], c[2], c[3]
                );
            }
        }
        text
    }
}

/// The staging directory of a run into `out`: every artefact is written here first. It is a
/// sibling of `out` (`.NAME.reproduce.staging.PID` beside it, on the same file system), one per
/// process, so two runs never share one; `out`'s symbolic links are followed first.
///
/// # Examples
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let staging = pathology::reproduce::staging_directory(&dir.path().join("plots"));
/// let name = staging.file_name().unwrap().to_string_lossy().into_owned();
/// assert_eq!(name, format!(".plots.reproduce.staging.{}", std::process::id()));
/// ```
pub fn staging_directory(out: &Path) -> PathBuf {
    match generation::Target::resolve(out) {
        Ok(target) => target.staging(),
        Err(_) => {
            let name = out
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            out.with_file_name(format!(".{name}.reproduce.staging.{}", std::process::id()))
        }
    }
}

/// Regenerates every artefact of [`ARTEFACTS`] into [`Options::out`], then `INDEX.md`. A
/// progress bar goes to standard error when it is a terminal.
///
/// One run at a time writes into a directory: the run holds a lock (`.NAME.reproduce.lock`
/// beside `out`, holding its process id, removed when the run ends) and a second run into the
/// same directory is refused with [`crate::Error::InvalidArgument`] naming `--out` and the
/// process. The run is built in its own staging directory beside `out`
/// ([`staging_directory`]). When every step has succeeded, the files of `out` that the run did
/// not produce are hard-linked into the staging directory (so the files a user put there
/// stay), a produced file equal to its old version but for the commit hashes keeps the old
/// bytes, and the two directories are swapped in one atomic system call (Linux
/// `renameat2(RENAME_EXCHANGE)`); the old generation is removed afterwards. So at every
/// instant `out` holds either the previous run's files and index or this run's, whole, and an
/// interrupt or a failed step leaves the previous run untouched (the staging directory is
/// removed on errors, and by the binary's signal handler on SIGINT/SIGTERM:
/// [`crate::report::output::remove_partial_files`]). Where the exchange is not supported
/// (not Linux, or a file system that refuses it) `out` is renamed aside and the staging
/// directory renamed into place: between the two renames `out` is missing, and a run killed
/// there leaves the old generation whole beside it, which the next run puts back. Staging and
/// old directories left by a killed run are removed by the next run, under the lock.
///
/// `out` is created if missing; a symbolic link to a directory is followed (the directory it
/// names is replaced, the link stays). As the directory is replaced, a shell whose working
/// directory is `out` is left in the removed old generation (`cd .` returns to the new one).
///
/// # Errors
///
/// [`ReproduceError`] when a file cannot be written or a computation fails;
/// [`ReproduceError::Library`] naming `--out` when `out` is not a directory or another run
/// is writing it.
pub fn run(options: &Options) -> Result<Outcome> {
    run_announcing(options, |_| Ok(()))
}

/// As [`run`], with `announce` called once every step has succeeded and before the new
/// generation replaces `out` (the command line prints its summary there): when it fails (a
/// full disk behind standard output), `out` is left as it was and the error is returned, so
/// an exit status of failure always means the previous generation is still in place.
///
/// # Errors
///
/// As [`run`]; [`ReproduceError::Io`] saying `out` is unchanged when `announce` fails.
pub fn run_announcing(
    options: &Options,
    announce: impl FnOnce(&Outcome) -> std::io::Result<()>,
) -> Result<Outcome> {
    let target = generation::Target::resolve(&options.out)?;
    let _lock = generation::Lock::acquire(&target, &options.out)?;
    let _destination = crate::report::output::register_destination(&options.out);
    target.recover()?;
    let staging = target.staging();
    let old = generation::old_directory(&target);
    let io = |what: String| move |source| ReproduceError::Io { what, source };
    std::fs::create_dir(&staging).map_err(io(format!("creating {}", staging.display())))?;
    let guard = crate::report::output::register_partial_directory(&staging);
    let old_guard = crate::report::output::register_partial_directory(&old);
    let staged = Options {
        out: staging.clone(),
        ..options.clone()
    };
    let result = run_steps(&staged).and_then(|outcome| {
        let index = index_markdown(options.full, &outcome.index);
        // INDEX.md is one more file of the generation: it lists every file of this run.
        write_atomically(&staging.join("INDEX.md"), index)
            .map_err(io("writing INDEX.md".to_string()))?;
        generation::complete(&staging, &target.real, same_but_commit)?;
        announce(&outcome).map_err(io(format!(
            "writing the summary to standard output ({} unchanged)",
            options.out.display()
        )))?;
        let previous = guard.exclusive(|| generation::switch(&staging, &target))?;
        // The new generation is in place: an old one that cannot be removed now is removed by
        // the next run.
        let _ = std::fs::remove_dir_all(&previous);
        Ok(outcome)
    });
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    drop(old_guard);
    drop(guard);
    result
}

/// Regenerates the one file `name` into [`Options::out`] (`pathology reproduce --only NAME`):
/// the step of [`ARTEFACTS`] that writes it ([`Artefact::writes`]) runs alone into a staging
/// directory beside `out`, and only `name` is moved into `out`, atomically; every other file
/// of `out`, `INDEX.md` included, is left as it was. The file is the one a whole run with the
/// same options writes, byte for byte (each step derives its seeds from [`Options::seed`]
/// alone); as in [`run`], a file equal to the old one but for its commit keeps the old bytes.
/// [`Options::steps`] is ignored. The returned outcome lists the one file.
///
/// # Errors
///
/// [`ReproduceError::Library`] naming `--only` when no step writes `name` (or it is
/// `INDEX.md`, which lists every file), or `--out` as [`run`]; as [`run`] otherwise.
pub fn run_only(options: &Options, name: &str) -> Result<Outcome> {
    let allowed = "the name of a file that reproduce writes, as plots/INDEX.md lists them \
                   (INDEX.md itself only with a whole run)";
    let found = ARTEFACTS
        .iter()
        .position(|a| a.writes(name))
        .filter(|&i| i + 1 < ARTEFACTS.len() && !name.contains('/'));
    let Some(step) = found else {
        return Err(crate::Error::invalid("--only", allowed, name).into());
    };
    let target = generation::Target::resolve(&options.out)?;
    let _lock = generation::Lock::acquire(&target, &options.out)?;
    let _destination = crate::report::output::register_destination(&options.out.join(name));
    target.recover()?;
    let staging = target.staging();
    let io = |what: String| move |source| ReproduceError::Io { what, source };
    std::fs::create_dir(&staging).map_err(io(format!("creating {}", staging.display())))?;
    let guard = crate::report::output::register_partial_directory(&staging);
    let staged = Options {
        out: staging.clone(),
        steps: Some(vec![step + 1]),
        ..options.clone()
    };
    let result = run_steps(&staged).and_then(|outcome| {
        let Some(entry) = outcome.index.iter().find(|e| e.file == name) else {
            return Err(crate::Error::invalid("--only", allowed, name).into());
        };
        let (new, old) = (staging.join(name), target.real.join(name));
        if !same_but_commit(&new, &old) {
            let bytes = std::fs::read(&new).map_err(io(format!("reading {}", new.display())))?;
            write_atomically(&old, bytes).map_err(io(format!("writing {}", old.display())))?;
        }
        Ok(Outcome {
            index: vec![entry.clone()],
            printed: String::new(),
            verdicts: Vec::new(),
            timings: outcome.timings,
        })
    });
    let _ = std::fs::remove_dir_all(&staging);
    drop(guard);
    result
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
        verdicts: Vec::new(),
        step: 0,
    };
    let chosen: Vec<(usize, Artefact)> = ARTEFACTS
        .into_iter()
        .enumerate()
        .filter(|(i, _)| options.steps.as_ref().is_none_or(|s| s.contains(&(i + 1))))
        .map(|(i, a)| (i + 1, a))
        .collect();
    let task = Task::start_work("reproduce", chosen.iter().map(|(_, a)| a.work).sum(), true);
    let mut timings = Vec::new();
    for (step, artefact) in chosen {
        job.step = step;
        task.set_detail(artefact.label);
        let start = Instant::now();
        let before = job.index.len();
        (artefact.step)(&mut job)?;
        // `--only NAME` finds a file's step by its name: every file must be its step's.
        if let Some(stray) = job.index[before..].iter().find(|e| {
            !artefact.writes(&e.file) || ARTEFACTS.iter().filter(|a| a.writes(&e.file)).count() != 1
        }) {
            return Err(ReproduceError::Internal(format!(
                "step {step} wrote {}, which its list of files does not name alone",
                stray.file
            )));
        }
        timings.push((artefact.label, start.elapsed()));
        task.advance(artefact.work);
    }
    Ok(Outcome {
        index: job.index,
        printed: job.printed,
        verdicts: job.verdicts,
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
