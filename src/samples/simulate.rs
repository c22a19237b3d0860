//! `pathology mc samples`: the curves of [`super::curves`] estimated by drawing the k-subsets
//! literally, beside their exact values, and the report rebuilt from the summed counts of its
//! shards (`pathology merge`).
//!
//! **One trial** draws a problem uniformly among the P problems of the file, then a uniformly
//! random ordering of the first `k_max` of its n samples (a partial Fisher-Yates shuffle:
//! the j-th draw is uniform among the samples not drawn yet), so that for every k of the
//! list the first k drawn are a uniform k-subset without replacement. On each prefix every
//! metric's rule is applied as `samples curves` defines it:
//!
//! - pass_at_k: some drawn sample is correct; pass_all: every drawn sample is correct;
//! - majority: the drawn samples with an answer vote for it; one answer among those with the
//!   most votes is drawn uniformly (with `--ties wrong` a tie of two or more answers is
//!   wrong); no answer drawn is wrong;
//! - best_of_k: one drawn sample among those of the largest score is drawn uniformly.
//!
//! Every trial is then a Bernoulli draw whose success probability is exactly the curve's
//! value (the mean over problems of the expectation over all `C(n, k)` subsets), so the
//! successes of one row are binomial: the estimate carries its 95% Wilson interval and is
//! tested against the exact value with the score test, Holm's correction over the table's
//! rows, as `mc inference`. Drawing the problem per trial (rather than running every problem
//! in each trial) is what makes the binomial interval honest. The rows of one run share its
//! trials (the subsets of one trial are nested), which changes none of the rows' laws.
//!
//! **The samples drawn.** The reader keeps each problem's aggregate, not its rows: the
//! number of samples per answer and per score level, with their correctness. The samples
//! are rebuilt from it: the c correct ones first, each given a correct answer group and the
//! correct part of a score level, then the wrong ones. Every metric depends only on the
//! multiset of its own labels (correct; answer; score and correct), which the rebuilt samples
//! share with the file, and a uniform subset of them has the law of a uniform subset of the
//! file's rows; only the joint law of answer and score within one sample (which no metric
//! reads) may differ from the file's.
//!
//! **Draws.** Every index is drawn with `random_range` (exactly uniform), on the seeded
//! runner's stream of the trial ([`crate::sim::runner`]): the same seed gives the same counts
//! on any number of threads, and `--shard K/N` runs a slice of the trials whose counts
//! `pathology merge` sums.

use std::io::Read;

use num_traits::ToPrimitive;
use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::curves::{Metric, Ties, Value};
use super::input::{InputFormat, Problem, Samples};
use super::report::{Source, input_note, ks_text, ties_name, with_source_options};
use crate::analytic::distributions::{FNV1A64_BASIS, fnv1a64_extend};
use crate::error::{Error, Result};
use crate::report::read::ReadTable;
use crate::report::{Cell, Column, Kind, Report, Table};
use crate::sim::report::{
    Manifest, McRun, RunConfig, comparison_cells, comparison_columns, summed_counts,
};
use crate::sim::stats::{Proportion, holm_adjusted, two_sided_p};

/// The experiment `merge` rebuilds here.
pub const MERGEABLE: [&str; 1] = ["mc samples"];

/// The family-wise error rate of the verdicts.
pub const ALPHA: f64 = 0.05;

/// The `validate` kind of the rows.
pub const KIND: &str = "samples";

/// The tables of `mc samples`.
pub const TABLES: &[&str] = &["estimates"];

/// Seconds of one drawn sample and of one evaluation of a metric at one k (measured on one
/// thread of the project machine, rounded up).
const SECONDS_PER_DRAW: f64 = 2e-8;
const SECONDS_PER_EVALUATION: f64 = 2e-8;

/// What `mc samples` runs.
#[derive(Debug, Clone)]
pub struct McSamples {
    /// The file and how to read it.
    pub source: Source,
    /// The budgets k, in the order given.
    pub ks: Vec<u64>,
    /// How a tie of votes is scored.
    pub ties: Ties,
    /// Drop the problems with fewer samples than the largest k (else refuse them).
    pub drop_short: bool,
    /// The FNV-1a hash the file's bytes must have (`--file-fnv1a64`), if given.
    pub file_hash: Option<u64>,
}

/// The FNV-1a 64-bit hash of a file's bytes, read in blocks.
///
/// # Examples
///
/// ```
/// use pathology::samples::simulate::file_fnv1a64;
/// let dir = std::env::temp_dir().join(format!("fnv-doc-{}", std::process::id()));
/// std::fs::write(&dir, b"a").unwrap();
/// assert_eq!(file_fnv1a64(&dir).unwrap(), 0xaf63dc4c8601ec8c); // FNV-1a 64 of "a"
/// std::fs::remove_file(&dir).unwrap();
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming the file when it cannot be read.
pub fn file_fnv1a64(path: &std::path::Path) -> Result<u64> {
    let name = path.display().to_string();
    let unreadable = |e: std::io::Error| {
        Error::invalid(
            &format!("input file {name}"),
            "a readable file",
            format!("an error: {e}"),
        )
    };
    let mut file = std::fs::File::open(path).map_err(unreadable)?;
    let mut hash = FNV1A64_BASIS;
    let mut block = vec![0u8; 1 << 16];
    loop {
        let read = file.read(&mut block).map_err(unreadable)?;
        if read == 0 {
            return Ok(hash);
        }
        hash = fnv1a64_extend(hash, &block[..read]);
    }
}

/// Parses a hash written as 16 hexadecimal digits (`--file-fnv1a64`).
///
/// # Examples
///
/// ```
/// use pathology::samples::simulate::parse_hash;
/// assert_eq!(parse_hash("--file-fnv1a64", "00000000000000ff").unwrap(), 255);
/// assert!(parse_hash("--file-fnv1a64", "xyz").is_err());
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `option` when the text is not 1 to 16 hex digits.
pub fn parse_hash(option: &str, text: &str) -> Result<u64> {
    let t = text.trim();
    if t.is_empty() || t.len() > 16 || !t.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(Error::invalid(
            option,
            "the file's FNV-1a 64-bit hash as 16 hexadecimal digits (as the manifest prints it)",
            text,
        ));
    }
    u64::from_str_radix(t, 16).map_err(|_| Error::invalid(option, "16 hexadecimal digits", text))
}

/// Checks the file's bytes against `expected` when given; returns the file's hash.
fn checked_hash(path: &std::path::Path, expected: Option<u64>, option: &str) -> Result<u64> {
    let hash = file_fnv1a64(path)?;
    if let Some(want) = expected
        && want != hash
    {
        return Err(Error::invalid(
            option,
            &format!(
                "the FNV-1a 64-bit hash of {} as it is now ({hash:016x})",
                path.display()
            ),
            format!("{want:016x}: the file changed since the run that recorded it"),
        ));
    }
    Ok(hash)
}

/// One problem's samples rebuilt from its aggregate (module docs).
#[derive(Debug, Clone)]
struct Drawn {
    correct: Vec<bool>,
    /// The answer group of each sample ([`NO_ANSWER`] for none).
    answer: Vec<u32>,
    /// Whether each answer group is correct.
    group_correct: Vec<bool>,
    /// The score level of each sample (its rank among the problem's levels).
    level: Vec<u32>,
}

const NO_ANSWER: u32 = u32::MAX;

impl Drawn {
    fn new(problem: &Problem, samples: &Samples) -> Drawn {
        let n = problem.n as usize;
        let c = problem.c as usize;
        let correct: Vec<bool> = (0..n).map(|i| i < c).collect();
        // Correct groups fill 0..c in order, the wrong ones and the abstentions c..n.
        let mut answer = vec![NO_ANSWER; n];
        if samples.has_answers {
            let (mut right, mut wrong) = (0usize, c);
            for (g, group) in problem.answers.iter().enumerate() {
                let at = if group.correct {
                    &mut right
                } else {
                    &mut wrong
                };
                for slot in &mut answer[*at..*at + group.count as usize] {
                    *slot = g as u32;
                }
                *at += group.count as usize;
            }
        }
        let mut level = vec![0u32; n];
        if samples.has_scores {
            let (mut right, mut wrong) = (0usize, c);
            for (s, l) in problem.scores.iter().enumerate() {
                for slot in &mut level[right..right + l.correct as usize] {
                    *slot = s as u32;
                }
                right += l.correct as usize;
                let w = (l.count - l.correct) as usize;
                for slot in &mut level[wrong..wrong + w] {
                    *slot = s as u32;
                }
                wrong += w;
            }
        }
        Drawn {
            correct,
            answer,
            group_correct: problem.answers.iter().map(|g| g.correct).collect(),
            level,
        }
    }
}

/// A thread's scratch: the samples' order (the identity between trials), the swaps of the
/// trial, and the votes per answer group.
struct Scratch {
    order: Vec<u32>,
    swaps: Vec<usize>,
    votes: Vec<u32>,
    voted: Vec<u32>,
    tied: Vec<u32>,
}

/// The trials' plan: the problems' samples, the sorted distinct budgets, the metrics.
struct Plan {
    problems: Vec<Drawn>,
    grid: Vec<u64>,
    metrics: Vec<Metric>,
    ties: Ties,
}

impl Plan {
    fn scratch(&self) -> Scratch {
        let n_max = self
            .problems
            .iter()
            .map(|p| p.correct.len())
            .max()
            .unwrap_or(0);
        let groups = self
            .problems
            .iter()
            .map(|p| p.group_correct.len())
            .max()
            .unwrap_or(0);
        Scratch {
            order: (0..n_max as u32).collect(),
            swaps: Vec::with_capacity(n_max),
            votes: vec![0; groups],
            voted: Vec::with_capacity(groups),
            tied: Vec::with_capacity(groups),
        }
    }

    /// One trial: a problem, then its samples drawn one at a time; the flags of every
    /// (metric, k) slot, metric-major.
    fn trial(&self, s: &mut Scratch, rng: &mut ChaCha8Rng) -> Vec<bool> {
        let problem = &self.problems[rng.random_range(0..self.problems.len())];
        let n = problem.correct.len();
        let k_max = *self.grid.last().expect("a nonempty list") as usize;
        let width = self.grid.len();
        let mut flags = vec![false; self.metrics.len() * width];
        let (mut any, mut all) = (false, true);
        let mut top = 0u32;
        // The largest level drawn, the samples drawn at it and how many of them are correct.
        let (mut best, mut at_best, mut right_at_best) = (0u32, 0u64, 0u64);
        let mut next = 0usize;
        s.swaps.clear();
        for j in 0..k_max {
            let i = j + rng.random_range(0..n - j);
            s.order.swap(j, i);
            s.swaps.push(i);
            let x = s.order[j] as usize;
            let right = problem.correct[x];
            any |= right;
            all &= right;
            let g = problem.answer[x];
            if g != NO_ANSWER {
                let v = &mut s.votes[g as usize];
                if *v == 0 {
                    s.voted.push(g);
                }
                *v += 1;
                top = top.max(*v);
            }
            let level = problem.level[x];
            if at_best == 0 || level > best {
                (best, at_best, right_at_best) = (level, 1, u64::from(right));
            } else if level == best {
                at_best += 1;
                right_at_best += u64::from(right);
            }
            while next < width && self.grid[next] == j as u64 + 1 {
                for (m, metric) in self.metrics.iter().enumerate() {
                    flags[m * width + next] = match metric {
                        Metric::PassAtK => any,
                        Metric::PassAll => all,
                        Metric::Majority => self.majority(problem, s, top, rng),
                        Metric::BestOfK => rng.random_range(0..at_best) < right_at_best,
                    };
                }
                next += 1;
            }
        }
        // Back to the identity, and no votes, for the next trial on this thread.
        for (j, &i) in s.swaps.iter().enumerate().rev() {
            s.order.swap(j, i);
        }
        for &g in &s.voted {
            s.votes[g as usize] = 0;
        }
        s.voted.clear();
        flags
    }

    /// The majority's pick among the answers with the most votes (`top`) so far.
    fn majority(&self, problem: &Drawn, s: &mut Scratch, top: u32, rng: &mut ChaCha8Rng) -> bool {
        if top == 0 {
            return false;
        }
        s.tied.clear();
        s.tied.extend(
            s.voted
                .iter()
                .copied()
                .filter(|&g| s.votes[g as usize] == top),
        );
        let t = s.tied.len();
        if t > 1 && self.ties == Ties::Wrong {
            return false;
        }
        let pick = if t == 1 { 0 } else { rng.random_range(0..t) };
        problem.group_correct[s.tied[pick] as usize]
    }

    /// Expected seconds of one trial on one thread.
    fn seconds_per_trial(&self) -> f64 {
        let k_max = *self.grid.last().expect("a nonempty list") as f64;
        let groups = self
            .problems
            .iter()
            .map(|p| p.group_correct.len())
            .max()
            .unwrap_or(0) as f64;
        let evaluations = (self.grid.len() * self.metrics.len()) as f64 * (1.0 + groups.min(k_max));
        (2.0 * k_max + 4.0) * SECONDS_PER_DRAW + evaluations * SECONDS_PER_EVALUATION
    }
}

/// The exact column: per (metric, k of the list as given) the value, read once.
struct Exact {
    samples: Samples,
    dropped: u64,
    metrics: Vec<Metric>,
    grid: Vec<u64>,
    /// `values[m][i]`: metric m at `grid[i]`, exact.
    values: Vec<Vec<Value>>,
    hash: u64,
}

impl McSamples {
    /// Reads the file (its hash checked when given), checks the budgets, and computes the
    /// exact curves (refused above the analytic budget).
    fn exact(&self) -> Result<Exact> {
        let hash = checked_hash(&self.source.path, self.file_hash, "--file-fnv1a64")?;
        self.exact_of(self.source.read()?, hash)
    }

    /// The exact curves of samples already read, whose bytes hash to `hash`.
    fn exact_of(&self, mut samples: Samples, hash: u64) -> Result<Exact> {
        let mut grid = self.ks.clone();
        grid.sort_unstable();
        grid.dedup();
        let (dropped, curves) = super::report::prepared_curves(
            &mut samples,
            &grid,
            self.ties,
            true,
            self.drop_short,
            "mc samples (exact)",
        )?;
        Ok(Exact {
            samples,
            dropped,
            metrics: curves.metrics,
            grid,
            values: curves.means,
            hash,
        })
    }

    /// Draws the k-subsets literally (refused up front beyond the Monte Carlo time limit)
    /// and returns the report: per metric and k, the estimate with its 95% Wilson interval
    /// beside the exact value, z, the p-value and Holm's verdict.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::samples::curves::Ties;
    /// use pathology::samples::input::Columns;
    /// use pathology::samples::report::Source;
    /// use pathology::samples::simulate::McSamples;
    /// use pathology::sim::report::RunConfig;
    /// let source = Source {
    ///     path: "tests/data/samples/votes.csv".into(),
    ///     format: None,
    ///     columns: Columns::default(),
    /// };
    /// let mc = McSamples { source, ks: vec![1, 4], ties: Ties::Uniform, drop_short: false, file_hash: None };
    /// let config = RunConfig { trials: 2000, seed: 7, threads: Some(1), shard: None };
    /// let report = mc.estimate(&config).unwrap();
    /// // Four metrics at two budgets.
    /// assert_eq!(report.tables[0].rows.len(), 8);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Source::read`], [`super::curves::check_budgets`] and
    /// [`RunConfig::budgeted_runner`]; naming `--file-fnv1a64` when the file's hash differs.
    pub fn estimate(&self, config: &RunConfig) -> Result<Report> {
        let exact = self.exact()?;
        self.run_with(exact, config)
    }

    /// [`McSamples::estimate`] on samples already read ([`super::input::read_text`]) from
    /// text whose FNV-1a 64-bit hash is `hash` (`pathology reproduce` runs its example data
    /// so, wherever it runs); the report names `self.source.path`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::samples::curves::Ties;
    /// use pathology::samples::input::{Columns, InputFormat, read_text};
    /// use pathology::samples::report::Source;
    /// use pathology::samples::simulate::McSamples;
    /// use pathology::sim::report::RunConfig;
    /// let text = "problem,c,n\na,1,4\n";
    /// let samples = read_text("t.csv", text, InputFormat::Csv, &Columns::default()).unwrap();
    /// let source = Source { path: "t.csv".into(), format: None, columns: Columns::default() };
    /// let mc = McSamples { source, ks: vec![2], ties: Ties::Uniform, drop_short: false, file_hash: None };
    /// let config = RunConfig { trials: 100, seed: 1, threads: Some(1), shard: None };
    /// let report = mc.estimate_read(samples, 0, &config).unwrap();
    /// assert_eq!(report.tables[0].rows.len(), 2); // pass_at_k and pass_all at k = 2
    /// ```
    ///
    /// # Errors
    ///
    /// As [`McSamples::estimate`], but for the reading.
    pub fn estimate_read(&self, samples: Samples, hash: u64, config: &RunConfig) -> Result<Report> {
        let exact = self.exact_of(samples, hash)?;
        self.run_with(exact, config)
    }

    fn run_with(&self, exact: Exact, config: &RunConfig) -> Result<Report> {
        let plan = Plan {
            problems: exact
                .samples
                .problems
                .iter()
                .map(|p| Drawn::new(p, &exact.samples))
                .collect(),
            grid: exact.grid.clone(),
            metrics: exact.metrics.clone(),
            ties: self.ties,
        };
        let what = format!(
            "mc samples on {} ({} problems, k up to {})",
            exact.samples.source,
            plan.problems.len(),
            plan.grid.last().expect("a nonempty list")
        );
        let runner = config.budgeted_runner("mc samples", &what, plan.seconds_per_trial())?;
        let slots = plan.metrics.len() * plan.grid.len();
        let counts = runner.run(
            || plan.scratch(),
            |scratch, rng| plan.trial(scratch, rng),
            vec![0u64; slots],
            |mut counts, flags| {
                for (count, flag) in counts.iter_mut().zip(flags) {
                    *count += u64::from(flag);
                }
                counts
            },
        )?;
        let trials = runner.trials_run();
        let proportions: Vec<Proportion> = self
            .rows(&exact)
            .iter()
            .map(|&(_, _, slot)| Proportion {
                successes: counts[slot],
                trials,
            })
            .collect();
        self.report_with(&config.run(), &proportions, &exact)
    }

    /// The rows in order: per metric, per k of the list as given; with the slot of their
    /// counts (duplicates of a k share one).
    fn rows(&self, exact: &Exact) -> Vec<(Metric, u64, usize)> {
        let width = exact.grid.len();
        let mut rows = Vec::new();
        for (m, &metric) in exact.metrics.iter().enumerate() {
            for &k in &self.ks {
                let i = exact.grid.binary_search(&k).expect("a k of the list");
                rows.push((metric, k, m * width + i));
            }
        }
        rows
    }

    /// The report from the counts of its rows (in row order), against the exact values.
    ///
    /// # Errors
    ///
    /// As [`McSamples::estimate`]'s reading and exact values; naming `FILE` when the counts
    /// are not one per row.
    pub fn report(&self, run: &McRun, counts: &[Proportion]) -> Result<Report> {
        let exact = self.exact()?;
        self.report_with(run, counts, &exact)
    }

    fn report_with(&self, run: &McRun, counts: &[Proportion], exact: &Exact) -> Result<Report> {
        let rows = self.rows(exact);
        if counts.len() != rows.len() {
            return Err(Error::invalid(
                "FILE",
                &format!("{} rows (one per metric and k)", rows.len()),
                counts.len(),
            ));
        }
        let file = self.source.path.display().to_string();
        let k_max = *exact.grid.last().expect("a nonempty list");
        let title = "Evaluation samples' k-subsets drawn literally against the exact curves of \
                     `pathology samples curves`";
        let mut report = Report::new("mc samples", title)
            .param("_", &file)
            .param("k", ks_text(&self.ks))
            .param("ties", ties_name(self.ties))
            .param("drop_short", self.drop_short);
        report = with_source_options(report, &self.source)
            .param("file_fnv1a64", format!("{:016x}", exact.hash));
        let source_columns: Vec<(String, String)> =
            with_source_options(Report::new("mc samples", title), &self.source)
                .manifest
                .parameters;
        let mut columns = vec![
            Column::key("kind", Kind::Text),
            Column::key("file", Kind::Text),
        ];
        columns.extend(
            source_columns
                .iter()
                .map(|(name, _)| Column::key(name, Kind::Text)),
        );
        columns.push(Column::key("file_fnv1a64", Kind::Text));
        if self.drop_short {
            columns.push(Column::key("min_n", Kind::Integer));
        }
        columns.extend([
            Column::key("metric", Kind::Text),
            Column::key("k", Kind::Integer),
            Column::key("ties", Kind::Text),
            Column::key("seed", Kind::Text),
        ]);
        columns.extend(comparison_columns());
        columns.push(Column::new("p_value", Kind::Real));
        columns.push(Column::new("holm_p_value", Kind::Real).labelled("Holm p"));
        columns.push(Column::new("verdict", Kind::Text));
        let values: Vec<f64> = rows
            .iter()
            .map(|&(metric, k, _)| {
                let m = exact
                    .metrics
                    .iter()
                    .position(|&x| x == metric)
                    .expect("a metric");
                let i = exact.grid.binary_search(&k).expect("a k");
                match &exact.values[m][i] {
                    Value::Exact(r) => r.to_f64().unwrap_or(f64::NAN),
                    v => v.to_f64(),
                }
            })
            .collect();
        let comparisons: Vec<_> = counts
            .iter()
            .zip(&values)
            .map(|(count, &value)| count.compare(Some(value)))
            .collect();
        let tested: Vec<usize> = (0..rows.len()).filter(|&i| counts[i].trials > 0).collect();
        // The exact value is the f64 nearest the rational: an estimate that rounds to it is
        // the value itself (z = 0, p-value 1).
        let p_values: Vec<f64> = tested
            .iter()
            .map(|&i| two_sided_p(comparisons[i].z.unwrap_or(f64::INFINITY)))
            .collect();
        let adjusted = holm_adjusted(&p_values);
        let infinite = tested
            .iter()
            .filter(|&&i| comparisons[i].z.is_none_or(f64::is_infinite))
            .count();
        let mut table = Table::new("estimates", title, columns);
        for (i, (&(metric, k, _), count)) in rows.iter().zip(counts).enumerate() {
            let mut cells = vec![Cell::text(KIND), Cell::text(file.clone())];
            cells.extend(source_columns.iter().map(|(_, v)| Cell::text(v.clone())));
            cells.push(Cell::text(format!("{:016x}", exact.hash)));
            if self.drop_short {
                cells.push(Cell::int(k_max));
            }
            cells.extend([
                Cell::text(metric.name()),
                Cell::int(k),
                Cell::text(ties_name(self.ties)),
                Cell::text(run.seed.to_string()),
            ]);
            cells.extend(comparison_cells(
                count.successes,
                count.trials,
                &comparisons[i],
            ));
            match tested.iter().position(|&t| t == i) {
                Some(t) => cells.extend([
                    Cell::Real(p_values[t]),
                    Cell::Real(adjusted[t]),
                    Cell::text(if adjusted[t] > ALPHA {
                        "no difference detected"
                    } else {
                        "disagrees"
                    }),
                ]),
                None => cells.extend([Cell::Empty, Cell::Empty, Cell::Empty]),
            }
            table.push(cells);
        }
        let disagree = adjusted.iter().filter(|&&a| a <= ALPHA).count();
        report = run
            .params(report)
            .with_table(table)
            .note(format!(
                "{disagree} of {} rows disagree with the exact value after Holm's step-down \
                 correction (two-sided score test of estimate = exact, z = (estimate - exact) / \
                 sqrt(exact (1 - exact) / trials), family-wise error rate {ALPHA} over the \
                 table's rows); 95% Wilson intervals; the rows of one run share its trials",
                tested.len()
            ))
            .note(
                "each trial draws a problem uniformly, then k of its samples uniformly without \
                 replacement (the first k of a random order, nested over the k list), and \
                 applies each metric's rule: majority picks one of the tied answers uniformly \
                 (or scores a tie wrong with --ties wrong), no answer drawn is wrong; best_of_k \
                 picks one of the drawn samples of the largest score uniformly; every index is \
                 drawn exactly uniformly",
            )
            .note(
                "exact: the mean over problems of the expectation over all C(n,k) subsets \
                 (`pathology samples curves --exact`), printed as the nearest f64",
            )
            .note(input_note(&exact.samples, exact.dropped));
        if infinite > 0 {
            report = report.note(format!(
                "{infinite} rows have an infinite z (left empty): the exact value is 0 or 1 and \
                 the estimate differs, an event of probability 0 observed (or of probability 1 \
                 missed), a certain disagreement"
            ));
        }
        Ok(report)
    }

    /// The experiment of a shard's manifest.
    fn from_manifest(m: &Manifest) -> Result<Self> {
        use super::input::Columns;
        let defaults = Columns::default();
        let column = |name: &str, default: &str| -> String {
            m.get(name)
                .map_or_else(|_| default.to_string(), str::to_string)
        };
        let format = match m.get("input_format") {
            Ok("csv") => Some(InputFormat::Csv),
            Ok("jsonl") => Some(InputFormat::Jsonl),
            Ok(other) => {
                return Err(Error::invalid(
                    "manifest parameter input_format",
                    "csv or jsonl",
                    other,
                ));
            }
            Err(_) => None,
        };
        let ties = match m.get("ties")? {
            "uniform" => Ties::Uniform,
            "wrong" => Ties::Wrong,
            other => {
                return Err(Error::invalid(
                    "manifest parameter ties",
                    "uniform or wrong",
                    other,
                ));
            }
        };
        Ok(McSamples {
            source: Source {
                path: m.get("argument")?.into(),
                format,
                columns: Columns {
                    problem: column("problem_column", &defaults.problem),
                    correct: column("correct_column", &defaults.correct),
                    answer: column("answer_column", &defaults.answer),
                    score: column("score_column", &defaults.score),
                    c: column("c_column", &defaults.c),
                    n: column("n_column", &defaults.n),
                },
            },
            ks: crate::analytic::inference::parse_list(
                "--k",
                m.get("k")?,
                crate::analytic::inference::MAX_COUNT,
            )?,
            ties,
            drop_short: m.get("drop_short")? == "true",
            file_hash: Some(parse_hash(
                "manifest parameter file_fnv1a64",
                m.get("file_fnv1a64")?,
            )?),
        })
    }
}

/// `mc samples`' report from the summed counts of its shards (keyed by metric and k); the
/// file is read again and must have the hash the shards recorded.
///
/// # Errors
///
/// As [`crate::sim::report::check_shards`], [`crate::sim::report::summed_counts`], the
/// manifest's parameters and [`McSamples::report`].
pub fn merge(inputs: &[(String, ReadTable)]) -> Result<Report> {
    let manifest = crate::sim::report::check_shards(inputs)?;
    let run = McRun {
        trials: manifest.trials,
        seed: manifest.seed,
        shard: None,
    };
    let spec = McSamples::from_manifest(&manifest)?;
    let counts = summed_counts(inputs, &["metric", "k"])?;
    spec.report(&run, &counts)
}

#[cfg(test)]
mod tests;
