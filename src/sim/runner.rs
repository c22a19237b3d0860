//! A seeded, parallel trial runner whose results do not depend on the number of threads.
//!
//! Seeding: one ChaCha8 generator is seeded once from the user's seed
//! (`ChaCha8Rng::seed_from_u64`); trial `i` runs on a generator with the same 256-bit key
//! (`from_seed(get_seed())`; the generator is not `Clone`) moved to stream `i`
//! (`set_stream(i)`), so every trial has its own independent stream, fixed by the seed and the
//! trial's index alone. Trials run on a local rayon pool of the requested size, in chunks of a
//! fixed size; each chunk's results are collected **in trial order** and folded on the calling
//! thread in that order, so even floating-point sums are identical for any thread count.

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rayon::prelude::*;

use crate::budget;
use crate::error::{Error, Result};
use crate::progress::Task;

/// Trials per chunk (fixed, so chunking does not depend on the thread count).
const CHUNK: u64 = 1 << 14;

/// How many trials to run, from which seed, on how many threads.
#[derive(Debug, Clone)]
pub struct TrialRunner {
    trials: u64,
    seed: u64,
    threads: usize,
    progress: Option<String>,
    /// What one trial is, in progress reports (`trials`, `games`, `pairs`).
    unit: &'static str,
    shard: Option<Shard>,
    /// Whether the command running this can be split with `--shard K/N` (its refusals suggest
    /// it only then).
    shardable: bool,
}

/// The K-th of N disjoint slices of the trial indices `0..trials` (`--shard K/N`): slice K
/// holds the indices `floor((K-1) T / N) .. floor(K T / N)`, so the slices cover every trial
/// exactly once, and each trial keeps its own stream. Summing the shards' counts gives the
/// unsharded run's counts exactly (`pathology merge`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl Shard {
    /// Parses `K/N` with `1 <= K <= N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::runner::Shard;
    /// let s = Shard::parse("2/4").unwrap();
    /// assert_eq!((s.index, s.count), (2, 4));
    /// assert_eq!(s.range(10), 2..5);
    /// assert!(Shard::parse("5/4").is_err());
    /// assert!(Shard::parse("0/4").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--shard`.
    pub fn parse(text: &str) -> Result<Self> {
        let bad = || {
            Error::invalid(
                "--shard",
                "K/N with whole numbers 1 <= K <= N <= 1000000",
                text,
            )
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count || count > 1_000_000 {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The trial indices of this shard.
    pub fn range(&self, trials: u64) -> std::ops::Range<u64> {
        let at = |k: u64| (u128::from(k) * u128::from(trials) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The random stream of trial `index` under `seed`.
///
/// # Examples
///
/// ```
/// use pathology::sim::runner::trial_rng;
/// use rand::RngExt;
/// let a: u64 = trial_rng(1, 0).random();
/// assert_eq!(a, trial_rng(1, 0).random::<u64>());
/// assert_ne!(a, trial_rng(1, 1).random::<u64>());
/// assert_ne!(a, trial_rng(2, 0).random::<u64>());
/// ```
pub fn trial_rng(seed: u64, index: u64) -> ChaCha8Rng {
    stream(&ChaCha8Rng::seed_from_u64(seed).get_seed(), index)
}

fn stream(key: &[u8; 32], index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::from_seed(*key);
    rng.set_stream(index);
    rng
}

impl TrialRunner {
    /// A runner for `trials >= 1` trials from `seed` on `threads >= 1` threads.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::runner::TrialRunner;
    /// use rand::RngExt;
    /// let runner = TrialRunner::new(1000, 7, 2).unwrap();
    /// let hits = runner
    ///     .run(|| (), |_, rng| rng.random::<f64>() < 0.5, 0u64, |n, hit| n + u64::from(hit))
    ///     .unwrap();
    /// assert!(hits > 400 && hits < 600);
    /// assert!(TrialRunner::new(0, 7, 2).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--trials` or `--threads` when it is 0.
    pub fn new(trials: u64, seed: u64, threads: usize) -> Result<Self> {
        if trials == 0 {
            return Err(Error::invalid("--trials", "at least 1", trials));
        }
        if threads == 0 {
            return Err(Error::invalid("--threads", "at least 1", threads));
        }
        Ok(TrialRunner {
            trials,
            seed,
            threads,
            progress: None,
            unit: "trials",
            shard: None,
            shardable: true,
        })
    }

    /// Runs only the trials of one shard (`--shard K/N`).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::runner::{Shard, TrialRunner};
    /// use rand::RngExt;
    /// let count = |shard: Option<&str>| {
    ///     let mut r = TrialRunner::new(1000, 7, 2).unwrap();
    ///     if let Some(s) = shard {
    ///         r = r.with_shard(Shard::parse(s).unwrap());
    ///     }
    ///     r.run(|| (), |_, rng| rng.random::<f64>() < 0.5, 0u64, |n, hit| n + u64::from(hit)).unwrap()
    /// };
    /// assert_eq!(count(Some("1/3")) + count(Some("2/3")) + count(Some("3/3")), count(None));
    /// ```
    pub fn with_shard(mut self, shard: Shard) -> Self {
        self.shard = Some(shard);
        self
    }

    /// Marks the run as one of a command that has no `--shard` option (`mc emm-calibrate`,
    /// `mc emm-figures`): its refusal then suggests only fewer trials.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::runner::TrialRunner;
    /// let huge = TrialRunner::new(1_000_000_000_000, 1, 1).unwrap().without_sharding();
    /// let err = huge.check_budget_of("--games", "mc emm-calibrate", 1e-4).unwrap_err();
    /// assert!(!err.to_string().contains("--shard"));
    /// ```
    pub fn without_sharding(mut self) -> Self {
        self.shardable = false;
        self
    }

    /// The shard, if any.
    pub fn shard(&self) -> Option<Shard> {
        self.shard
    }

    /// The trials this runner runs (its shard's, or all).
    pub fn trials_run(&self) -> u64 {
        let range = self.indices();
        range.end - range.start
    }

    fn indices(&self) -> std::ops::Range<u64> {
        self.shard.map_or(0..self.trials, |s| s.range(self.trials))
    }

    /// Shows a progress bar with this label on stderr while running, when stderr is a
    /// terminal. Whatever the label, the run reports its trials as a [`Task`] to the current
    /// [`crate::progress::Progress`] (Python's `progress=`), under this label or `trials`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::runner::TrialRunner;
    /// // The bar only shows on a terminal; the results are the same either way.
    /// let runner = TrialRunner::new(100, 1, 1).unwrap().with_progress("counting");
    /// assert_eq!(runner.run(|| (), |_, _| 1u64, 0, |n, x| n + x).unwrap(), 100);
    /// ```
    pub fn with_progress(mut self, label: &str) -> Self {
        self.progress = Some(label.to_string());
        self
    }

    /// Names what one trial is in progress reports (`games` for `mc uct`, `pairs` for
    /// `mc match`); `trials` by default.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::progress::{Progress, scope};
    /// use pathology::sim::runner::TrialRunner;
    /// let progress = Progress::new();
    /// let runner = TrialRunner::new(10, 1, 1).unwrap().with_progress("mc uct").counting("games");
    /// scope(&progress, || runner.run(|| (), |_, _| 1u64, 0, |n, x| n + x)).unwrap();
    /// let last = progress.poll().pop().unwrap();
    /// assert_eq!((last.chain[0].unit.as_str(), last.chain[0].done), ("games", 10));
    /// ```
    pub fn counting(mut self, unit: &'static str) -> Self {
        self.unit = unit;
        self
    }

    /// The number of trials.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::runner::TrialRunner;
    /// assert_eq!(TrialRunner::new(1000, 7, 2).unwrap().trials(), 1000);
    /// ```
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// The seed.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::runner::TrialRunner;
    /// assert_eq!(TrialRunner::new(1000, 7, 2).unwrap().seed(), 7);
    /// ```
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The threads the trials actually run on: the requested number, capped at the cores
    /// available.
    pub fn effective_threads(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        self.threads.min(cores).max(1)
    }

    /// The estimated wall-clock seconds of this run at `seconds_per_trial` (measured on one
    /// thread; each experiment has its own model): the trials run (the shard's,
    /// or all) times the cost, over [`TrialRunner::effective_threads`].
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::runner::{Shard, TrialRunner};
    /// let runner = TrialRunner::new(1_000_000, 1, 1).unwrap();
    /// assert_eq!(runner.estimate_seconds(1e-6), 1.0);
    /// let half = runner.with_shard(Shard::parse("1/2").unwrap());
    /// assert_eq!(half.estimate_seconds(1e-6), 0.5);
    /// ```
    pub fn estimate_seconds(&self, seconds_per_trial: f64) -> f64 {
        self.trials_run() as f64 * seconds_per_trial / self.effective_threads() as f64
    }

    /// Refuses, with the estimate, a run that would take longer than
    /// [`budget::MONTE_CARLO_TIME_LIMIT_SECONDS`] (one hour) on its threads; returns the estimate
    /// in seconds otherwise. `what` names the experiment and its size (`mc dgame at height
    /// 10`); `seconds_per_trial` is one trial's cost on one thread (each experiment estimates its own).
    /// Every `mc` command calls this before running, so that `--trials 1e15` is refused
    /// instead of running for decades.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::Error;
    /// use pathology::sim::runner::{Shard, TrialRunner};
    /// let ok = TrialRunner::new(1_000_000, 1, 1).unwrap();
    /// assert!(ok.check_budget("mc dgame at height 10", 1e-5).unwrap() < 60.0);
    /// let huge = TrialRunner::new(1_000_000_000_000_000, 1, 1).unwrap();
    /// let err = huge.check_budget("mc dgame at height 10", 1e-5).unwrap_err();
    /// assert!(matches!(err, Error::TooExpensive { .. }) && err.is_usage());
    /// assert!(err.to_string().contains("1000000000000000 trials"));
    /// // A shard small enough runs.
    /// let shard = huge.with_shard(Shard::parse("1/1000000").unwrap());
    /// assert!(shard.check_budget("mc dgame at height 10", 1e-9).is_ok());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::TooExpensive`] naming the trials, the shard, the threads and the estimate.
    pub fn check_budget(&self, what: &str, seconds_per_trial: f64) -> Result<f64> {
        self.check_budget_of("--trials", what, seconds_per_trial)
    }

    /// [`check_budget`](Self::check_budget) for a command whose trial count has another
    /// option name (`--games`, `--pairs`, `--calibration-games`), which the refusal names.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::runner::TrialRunner;
    /// let huge = TrialRunner::new(1_000_000_000_000, 1, 1).unwrap();
    /// let err = huge.check_budget_of("--pairs", "mc match", 1e-5).unwrap_err();
    /// assert!(err.to_string().contains("--pairs 1000000000000"));
    /// assert!(err.to_string().contains("Use fewer --pairs"));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`check_budget`](Self::check_budget).
    pub fn check_budget_of(&self, option: &str, what: &str, seconds_per_trial: f64) -> Result<f64> {
        let threads = self.effective_threads();
        let core_seconds = self.trials_run() as f64 * seconds_per_trial;
        let trials = match self.shard {
            Some(s) => format!(
                "{} trials (shard {s} of {option} {})",
                self.trials_run(),
                self.trials
            ),
            None if option == "--trials" => format!("{} trials", self.trials),
            None => format!("{option} {}", self.trials),
        };
        let hint = if self.shardable && (self.shard.is_some() || option != "--calibration-games") {
            format!(
                "Use fewer {option}, or split the run with --shard K/N over several \
                 machines and combine the outputs with `pathology merge`."
            )
        } else {
            format!("Use fewer {option}.")
        };
        let per_trial = format!("{} per trial", budget::per_trial_seconds(seconds_per_trial));
        // The announcement names the experiment alone, as before.
        let seconds = self.estimate_seconds(seconds_per_trial);
        if seconds > budget::MONTE_CARLO_TIME_LIMIT_SECONDS {
            return budget::check_wall_time(
                &format!("{what} with {trials}"),
                core_seconds,
                threads,
                Some(&per_trial),
                &hint,
            );
        }
        budget::announce_estimate(what, seconds);
        Ok(seconds)
    }

    /// Runs `trial` once per trial index with that trial's stream and a per-thread scratch
    /// value from `init`, and folds the results into `accumulator` in trial order.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::runner::{TrialRunner, trial_rng};
    /// use rand::RngExt;
    /// // Trial i runs on trial_rng(seed, i), and results are folded in trial order.
    /// let draws = TrialRunner::new(5, 7, 2)
    ///     .unwrap()
    ///     .run(|| (), |_, rng| rng.random::<u64>(), Vec::new(), |mut v, x| {
    ///         v.push(x);
    ///         v
    ///     })
    ///     .unwrap();
    /// let expected: Vec<u64> = (0..5).map(|i| trial_rng(7, i).random()).collect();
    /// assert_eq!(draws, expected);
    /// // A floating-point sum does not depend on the thread count.
    /// let sum = |threads| {
    ///     TrialRunner::new(10_000, 3, threads)
    ///         .unwrap()
    ///         .run(|| (), |_, rng| rng.random::<f64>(), 0.0, |s, x| s + x)
    ///         .unwrap()
    /// };
    /// assert_eq!(sum(1), sum(2));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--threads` when the thread pool cannot be built;
    /// [`Error::Interrupted`] when the [`crate::cancel`] token is cancelled (checked between
    /// chunks of trials).
    pub fn run<S, T, A>(
        &self,
        init: impl Fn() -> S + Sync + Send,
        trial: impl Fn(&mut S, &mut ChaCha8Rng) -> T + Sync + Send,
        mut accumulator: A,
        mut fold: impl FnMut(A, T) -> A,
    ) -> Result<A>
    where
        T: Send,
    {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(|e| {
                Error::invalid("--threads", "a number of threads the system can start", e)
            })?;
        let task = Task::start(
            self.progress.as_deref().unwrap_or("trials"),
            self.unit,
            self.trials_run(),
            self.progress.is_some(),
        );
        // Counting each trial (one relaxed add) only when someone watches; the chunk's end
        // sets the exact count either way.
        let watched = task.is_watched();
        let key = ChaCha8Rng::seed_from_u64(self.seed).get_seed();
        let indices = self.indices();
        let cancel = crate::cancel::current();
        let mut start = indices.start;
        while start < indices.end {
            cancel.check()?;
            let end = (start + CHUNK).min(indices.end);
            // A trial started after a cancellation is skipped (`None`), so that a chunk of
            // long trials (UCT games) stops soon; the run is then an error, never a result.
            let results: Vec<Option<T>> = pool.install(|| {
                (start..end)
                    .into_par_iter()
                    .map_init(&init, |scratch, index| {
                        if cancel.is_cancelled() {
                            return None;
                        }
                        let mut rng = stream(&key, index);
                        let result = trial(scratch, &mut rng);
                        if watched {
                            task.advance(1);
                        }
                        Some(result)
                    })
                    .collect()
            });
            for result in results {
                // A skipped trial: the run was cancelled (the partial fold is dropped).
                let Some(result) = result else {
                    return Err(Error::Interrupted);
                };
                accumulator = fold(accumulator, result);
            }
            task.set(end - indices.start);
            start = end;
        }
        Ok(accumulator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// Long trials (a chunk holds all 200 of them) stop soon after a cancellation, not at
    /// the chunk's end; the trials done so far are reported as progress meanwhile.
    #[test]
    fn long_trials_stop_inside_a_chunk_and_report_progress() {
        use crate::cancel::{CancelToken, scope};
        use crate::progress::{self, Progress};
        use std::time::{Duration, Instant};
        let token = CancelToken::new();
        let record = Progress::new();
        let (stopper, watcher) = (token.clone(), record.clone());
        let seen = std::thread::spawn(move || {
            // Wait until some trials are reported done, then cancel.
            let start = Instant::now();
            let mut seen = 0;
            while seen == 0 && start.elapsed() < Duration::from_secs(20) {
                std::thread::sleep(Duration::from_millis(5));
                seen = watcher
                    .poll()
                    .last()
                    .map_or(0, |u| u.chain.last().unwrap().done);
            }
            stopper.cancel();
            seen
        });
        let ran = std::sync::atomic::AtomicU64::new(0);
        let runner = TrialRunner::new(200, 1, 2).unwrap().counting("games");
        let run = progress::scope(&record, || {
            scope(&token, || {
                runner.run(
                    || (),
                    |_, _| {
                        ran.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        std::thread::sleep(Duration::from_millis(20));
                    },
                    0u64,
                    |n, ()| n + 1,
                )
            })
        });
        assert_eq!(run, Err(Error::Interrupted));
        let seen = seen.join().unwrap();
        assert!((1..200).contains(&seen), "{seen}");
        // The trials after the cancellation were skipped (at most the 2 running went on).
        let ran = ran.into_inner();
        assert!(ran < 200, "{ran}");
    }

    /// Floating sums in trial order: identical for 1 and 3 threads, bit for bit.
    #[test]
    fn results_do_not_depend_on_threads() {
        let sum = |threads| {
            TrialRunner::new(40_000, 11, threads)
                .unwrap()
                .run(|| (), |_, rng| rng.random::<f64>(), 0.0f64, |s, x| s + x)
                .unwrap()
        };
        let one = sum(1);
        assert_eq!(one.to_bits(), sum(3).to_bits());
        assert!((one / 40_000.0 - 0.5).abs() < 0.01);
    }

    #[test]
    fn trials_follow_their_own_streams() {
        let runner = TrialRunner::new(3, 5, 2).unwrap();
        let firsts = runner
            .run(
                || (),
                |_, rng| rng.random::<u64>(),
                vec![],
                |mut v, x| {
                    v.push(x);
                    v
                },
            )
            .unwrap();
        let expected: Vec<u64> = (0..3).map(|i| trial_rng(5, i).random()).collect();
        assert_eq!(firsts, expected);
    }
}
