//! The 8-puzzle solved completely, and the accuracy of depth-d single-agent lookahead
//! (minimin) at every state: the 8-puzzle half of Nau, Luštrek, Parker, Bratko & Gams,
//! *When is it better not to look ahead?* (AIJ 174, 2010), which asks whether lookahead
//! pathology occurs in real decision-making. The puzzle is small enough (181,440 states)
//! that the question is answered for every position, exactly, against the true distances.
//!
//! - [`board`]: the states reachable from the goal `1 2 3 / 4 5 6 / 7 8 _` (blank in the
//!   bottom-right corner), ranked by a perfect hash of permutations, with their optimal
//!   solution lengths by breadth-first search from the goal: 181,440 states, the largest
//!   distance 31, reached by exactly two states (tests).
//! - [`heuristic`]: Manhattan distance, misplaced tiles and the true distance, granularity
//!   (`--levels`) and noise (`--noise`, Gaussian or a discrete law, per search node).
//! - [`exact`]: with a deterministic heuristic, depth-d minimin at every state by a dynamic
//!   programme over the state index, each decision's probability of being correct exactly.
//! - [`noisy`]: with discrete noise and small trees, the same exactly (laws of subtree
//!   values, memoised per state and moves left).
//! - [`monte_carlo`]: otherwise, trees searched with sampled noise on the seeded runner.
//! - [`report`](mod@report): the tables.
//!
//! **The decision.** At a state s other than the goal, depth-d lookahead considers every
//! path of d moves, or fewer when it reaches the goal, scores it by the moves made plus the
//! heuristic at its end (the goal scores 0, without noise), and makes the first move of a
//! best path; ties among first moves are broken uniformly at random. Paths may revisit
//! states (undoing the previous move is allowed), so that the tree search equals a dynamic
//! programme over the states (a test checks this against a literal tree search for d <= 4).
//! The decision is *correct* when the move lies on an optimal path, i.e. leads to a state one
//! move nearer the goal. The positions are the 181,439 states other than the goal; per
//! depth we report the mean probability of a correct decision, the fraction of positions
//! where depth d + 1 decides correctly with a smaller probability than depth d (*local
//! pathology*), the mean over positions of that decrease (`max(0, P_d - P_{d+1})`), and the
//! same split by the position's true distance.
//!
//! **What we take from the paper, and what we chose.** The paper's text was not at hand
//! when this module was written (only its abstract: experiments on two chess endgames,
//! kalah and the 8-puzzle, finding local pathology in all of them), so none of its
//! settings is transcribed here. A secondhand summary of it (the project's specification) is
//! followed instead. Our choices, with
//! their sources: the goal with the blank in the bottom-right corner (the usual textbook
//! goal; its largest distance, 31, is the puzzle's known diameter for a corner blank); the
//! heuristics Manhattan distance and misplaced tiles (Russell & Norvig, *Artificial
//! Intelligence: A Modern Approach*, Section 3.6, h2 and h1) and the true distance with
//! noise (the perfect evaluation corrupted by noise, as Sadikov, Bratko & Kononenko, TCS 349
//! (2005), did for KRK); noise and granularity as the paper's synthetic models vary them
//! (Gaussian or discrete noise drawn per node, rounding to G levels); revisiting states
//! allowed in the lookahead.
//!
//! # Examples
//!
//! ```
//! use pathology::domains::eight_puzzle::{PuzzleConfig, accuracy_by_depth, report};
//! let result = accuracy_by_depth(&PuzzleConfig::exact(vec![1, 2])).unwrap();
//! let report = report(&result);
//! assert_eq!(report.tables[0].name, "accuracy");
//! ```

pub mod board;
pub mod exact;
pub mod heuristic;
pub mod monte_carlo;
pub mod noisy;
pub mod report;

#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use rayon::prelude::*;

use crate::budget;
use crate::error::{Error, Result};
use crate::sim::report::RunConfig;
use crate::sim::stats::Proportion;

pub use board::Puzzle;
pub use heuristic::{Evaluation, Heuristic, Noise};
pub use report::report;

/// The largest search depth with a deterministic heuristic (exact).
pub const MAX_DEPTH: u32 = 100;
/// The largest search depth with noise sampled (trees of 16 moves are about 10^7 nodes).
pub const MAX_NOISY_DEPTH: u32 = 16;
/// The largest depth (the depths asked, plus one for local pathology) of the exact route with
/// discrete noise: beyond it the laws' denominators have thousands of digits.
pub const MAX_EXACT_NOISY_DEPTH: u32 = 6;

/// How the accuracies are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Exact when the heuristic is deterministic, or the noise discrete and the trees small
    /// enough (the estimate under a minute); Monte Carlo otherwise.
    Auto,
    /// Exact, or refused with the estimate.
    Exact,
    /// Monte Carlo (roots drawn uniformly), whatever the noise.
    MonteCarlo,
}

impl Method {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Exact => "exact",
            Method::MonteCarlo => "monte-carlo",
        }
    }

    /// The method named `text`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--method`.
    pub fn parse(text: &str) -> Result<Method> {
        [Method::Auto, Method::Exact, Method::MonteCarlo]
            .into_iter()
            .find(|m| m.name() == text.trim())
            .ok_or_else(|| Error::invalid("--method", "one of auto, exact, monte-carlo", text))
    }
}

/// One request: heuristic, levels, noise, depths, method and (sampled) the run.
#[derive(Debug, Clone)]
pub struct PuzzleConfig {
    /// The heuristic.
    pub heuristic: Heuristic,
    /// Granularity: G levels, or the raw values.
    pub levels: Option<u32>,
    /// Noise per frontier node.
    pub noise: Noise,
    /// Search depths in moves (each in 1..=[`MAX_DEPTH`]).
    pub depths: Vec<u32>,
    /// Exact, Monte Carlo, or whichever fits.
    pub method: Method,
    /// Trials, seed, threads and shard (threads also for the exact noisy route).
    pub run: RunConfig,
}

impl PuzzleConfig {
    /// Manhattan distance without noise at `depths`.
    pub fn exact(depths: Vec<u32>) -> PuzzleConfig {
        PuzzleConfig {
            heuristic: Heuristic::Manhattan,
            levels: None,
            noise: Noise::None,
            depths,
            method: Method::Auto,
            run: RunConfig {
                trials: 10_000,
                seed: 1,
                threads: None,
                shard: None,
            },
        }
    }
}

/// One exact row: one depth, over every position or those at one true distance.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactRow {
    /// Search depth d (moves).
    pub depth: u32,
    /// The positions' true distance, or `None` for every position.
    pub distance: Option<u8>,
    /// Positions.
    pub positions: u64,
    /// The mean probability that the decision lies on an optimal path.
    pub correct: BigRational,
    /// The fraction of positions where depth d + 1 is correct with a smaller probability.
    pub worse: BigRational,
    /// The mean over positions of `max(0, P_d - P_{d+1})`.
    pub mean_drop: BigRational,
}

/// One Monte Carlo row.
#[derive(Debug, Clone, PartialEq)]
pub struct SampledRow {
    /// Search depth d (moves).
    pub depth: u32,
    /// The roots' true distance, or `None` for every root.
    pub distance: Option<u8>,
    /// Correct decisions, of the trials.
    pub correct: Proportion,
}

/// The rows: exact, or sampled.
#[derive(Debug, Clone, PartialEq)]
pub enum Rows {
    /// Exact over every position.
    Exact(Vec<ExactRow>),
    /// Monte Carlo.
    Sampled(Vec<SampledRow>),
}

/// The result of [`accuracy_by_depth`].
#[derive(Debug, Clone)]
pub struct DomainReport {
    /// The request (depths sorted, without repeats).
    pub config: PuzzleConfig,
    /// The rows.
    pub rows: Rows,
    /// States at each true distance 0..=31.
    pub histogram: Vec<u64>,
    /// The heuristic's range `[lo, hi]` on the puzzle (the levels' range).
    pub range: (i64, i64),
    /// Why an `auto` request with noise was sampled rather than exact, if it was.
    pub fallback: Option<String>,
}

/// The accuracy of depth-d minimin decisions at every position, for each depth of the
/// request: exact with a deterministic heuristic (and with discrete noise when the trees
/// are small), Monte Carlo otherwise.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--depth`, `--levels`, `--method` or `--trials`;
/// [`Error::TooExpensive`] when the exact route would take more than a minute (with
/// `--method exact`) or the sampled one more than an hour.
///
/// # Examples
///
/// ```
/// use pathology::domains::eight_puzzle::{PuzzleConfig, Rows, accuracy_by_depth};
/// let result = accuracy_by_depth(&PuzzleConfig::exact(vec![1])).unwrap();
/// let Rows::Exact(rows) = &result.rows else { panic!() };
/// assert_eq!(rows[0].positions, 181_439);
/// ```
pub fn accuracy_by_depth(config: &PuzzleConfig) -> Result<DomainReport> {
    let depths: Vec<u32> = config
        .depths
        .iter()
        .copied()
        .collect::<BTreeSet<u32>>()
        .into_iter()
        .collect();
    let depth_error = |limit: u32| {
        Error::invalid(
            "--depth",
            &format!("a list or range of whole numbers in 1..={limit}"),
            config
                .depths
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(","),
        )
    };
    if depths.is_empty() || depths[0] == 0 || depths[depths.len() - 1] > MAX_DEPTH {
        return Err(depth_error(MAX_DEPTH));
    }
    let mut config = config.clone();
    config.depths = depths.clone();
    let puzzle = Puzzle::solve();
    let evaluation = Evaluation::new(&puzzle, config.heuristic, config.levels, &config.noise)?;
    let sampled = match (&config.noise, config.method) {
        (_, Method::MonteCarlo) | (Noise::Gaussian(..), Method::Auto) => true,
        (Noise::Gaussian(..), Method::Exact) => {
            return Err(Error::invalid(
                "--method",
                "auto or monte-carlo with Gaussian noise (exact needs none or a discrete law)",
                "exact",
            ));
        }
        _ => false,
    };
    let mut fallback = None;
    let rows = if sampled {
        if depths[depths.len() - 1] > MAX_NOISY_DEPTH {
            return Err(depth_error(MAX_NOISY_DEPTH));
        }
        Rows::Sampled(sample(&puzzle, &evaluation, &config)?)
    } else {
        let extended: Vec<u32> = depths
            .iter()
            .flat_map(|&d| [d, d + 1])
            .collect::<BTreeSet<u32>>()
            .into_iter()
            .collect();
        match &config.noise {
            Noise::Discrete(law) => {
                match noisy_exact(&puzzle, &evaluation, law, &extended, &config) {
                    Ok((p, denominator)) => {
                        Rows::Exact(aggregate(&puzzle, &depths, &extended, &p, |x| {
                            BigRational::new(x, denominator.clone())
                        }))
                    }
                    Err(e) if config.method == Method::Auto && e.is_usage() => {
                        fallback = Some(e.to_string());
                        if depths[depths.len() - 1] > MAX_NOISY_DEPTH {
                            return Err(depth_error(MAX_NOISY_DEPTH));
                        }
                        Rows::Sampled(sample(&puzzle, &evaluation, &config)?)
                    }
                    Err(e) => return Err(e),
                }
            }
            _ => {
                let p: Vec<Vec<u64>> = exact::decisions_by_depth(&puzzle, &evaluation, &extended)
                    .into_iter()
                    .map(|v| v.into_iter().map(u64::from).collect())
                    .collect();
                let unit = BigInt::from(exact::UNIT);
                Rows::Exact(aggregate(&puzzle, &depths, &extended, &p, |x: u64| {
                    BigRational::new(BigInt::from(x), unit.clone())
                }))
            }
        }
    };
    Ok(DomainReport {
        config,
        rows,
        histogram: puzzle.histogram(),
        range: evaluation.range(),
        fallback,
    })
}

/// The exact noisy probabilities per extended depth and state as whole numerators over one
/// common denominator (returned beside them), after the cost check.
fn noisy_exact(
    puzzle: &Puzzle,
    evaluation: &Evaluation,
    law: &heuristic::DiscreteLaw,
    extended: &[u32],
    config: &PuzzleConfig,
) -> Result<(Vec<Vec<BigInt>>, BigInt)> {
    let max = extended[extended.len() - 1];
    let what =
        || format!("the exact 8-puzzle with discrete noise at depths up to {max} (with d + 1)");
    if let Some(refusal) = exact_noisy_depth_refusal(max) {
        return Err(refusal);
    }
    let roots = |s: usize| {
        let mut tree = noisy::Tree::new(puzzle, evaluation, law);
        extended
            .iter()
            .map(|&d| tree.correct_scaled(s, d))
            .collect::<Vec<_>>()
    };
    // The estimate: a sample of roots spread over the index, timed on one thread.
    const SAMPLE: usize = 24;
    let start = std::time::Instant::now();
    for i in 0..SAMPLE {
        roots(1 + i * (puzzle.len() - 1) / SAMPLE);
    }
    let threads = config.run.threads();
    let seconds =
        start.elapsed().as_secs_f64() / SAMPLE as f64 * (puzzle.len() - 1) as f64 / threads as f64;
    budget::check_seconds(
        what,
        seconds,
        budget::ANALYTIC_TIME_LIMIT_SECONDS,
        "about ",
        "Use --method monte-carlo, or smaller depths.",
    )?;
    budget::announce_estimate(&what(), seconds);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::invalid("--threads", "a number of threads the system can start", e))?;
    let per_root: Vec<Vec<(BigInt, u32)>> =
        pool.install(|| (1..puzzle.len()).into_par_iter().map(roots).collect());
    // One denominator 12 q^E for all: E the largest exponent.
    let top = per_root
        .iter()
        .flat_map(|r| r.iter().map(|p| p.1))
        .max()
        .unwrap_or(0);
    let q = &law.weight_denominator;
    let powers: Vec<BigInt> = std::iter::successors(Some(BigInt::from(1)), |p| Some(p * q))
        .take(top as usize + 1)
        .collect();
    let scaled = (0..extended.len())
        .map(|k| {
            std::iter::once(BigInt::zero())
                .chain(
                    per_root
                        .iter()
                        .map(|r| &r[k].0 * &powers[(top - r[k].1) as usize]),
                )
                .collect()
        })
        .collect();
    Ok((scaled, BigInt::from(12) * &powers[top as usize]))
}

/// The refusal of the exact route with discrete noise that depends on the depths alone: trees
/// deeper than [`MAX_EXACT_NOISY_DEPTH`] (`max` is the largest depth asked, plus one). An
/// `auto` request refused so is sampled, and its report says why; `pathology merge` rebuilds
/// that note from this.
pub fn exact_noisy_depth_refusal(max: u32) -> Option<Error> {
    (max > MAX_EXACT_NOISY_DEPTH).then(|| {
        budget::refuse(
            format!("the exact 8-puzzle with discrete noise at depths up to {max} (with d + 1)"),
            format!("trees of depth {max}"),
            format!("depth {MAX_EXACT_NOISY_DEPTH}"),
            "Use --method monte-carlo, or smaller depths.",
        )
    })
}

/// The rows of every depth of `depths` from the probabilities at the `extended` depths
/// (which hold every d and d + 1), over every position and by true distance.
fn aggregate<T>(
    puzzle: &Puzzle,
    depths: &[u32],
    extended: &[u32],
    probabilities: &[Vec<T>],
    to_rational: impl Fn(T) -> BigRational,
) -> Vec<ExactRow>
where
    T: Clone + PartialOrd + Zero + std::ops::Sub<Output = T>,
{
    let at = |d: u32| &probabilities[extended.iter().position(|&e| e == d).unwrap_or(0)];
    let max = usize::from(puzzle.max_distance());
    let mut rows = Vec::new();
    for &d in depths {
        let (now, next) = (at(d), at(d + 1));
        // Per distance (0 unused): positions, sum of P, worse count, sum of drops.
        let mut groups = vec![(0u64, T::zero(), 0u64, T::zero()); max + 1];
        for s in 1..puzzle.len() {
            let g = &mut groups[usize::from(puzzle.distance(s))];
            g.0 += 1;
            g.1 = g.1.clone() + now[s].clone();
            if next[s] < now[s] {
                g.2 += 1;
                g.3 = g.3.clone() + (now[s].clone() - next[s].clone());
            }
        }
        let row = |distance: Option<u8>, (n, sum, worse, drop): (u64, T, u64, T)| {
            let over = BigRational::from_integer(BigInt::from(n.max(1)));
            ExactRow {
                depth: d,
                distance,
                positions: n,
                correct: to_rational(sum) / &over,
                worse: BigRational::from_integer(BigInt::from(worse)) / &over,
                mean_drop: to_rational(drop) / &over,
            }
        };
        let total = groups[1..]
            .iter()
            .cloned()
            .fold((0, T::zero(), 0, T::zero()), |a, g| {
                (a.0 + g.0, a.1 + g.1, a.2 + g.2, a.3 + g.3)
            });
        rows.push(row(None, total));
        for (k, g) in groups.into_iter().enumerate().skip(1) {
            rows.push(row(Some(k as u8), g));
        }
    }
    rows
}

/// Seconds per searched node of the sampled tree search (measured: `examples/puzzle_speed.rs`).
const SECONDS_PER_NODE: f64 = 7e-8;

/// The Monte Carlo rows.
fn sample(
    puzzle: &Puzzle,
    evaluation: &Evaluation,
    config: &PuzzleConfig,
) -> Result<Vec<SampledRow>> {
    let depths = &config.depths;
    let b = monte_carlo::mean_branching(puzzle);
    let per_trial: f64 = depths
        .iter()
        .map(|&d| monte_carlo::tree_nodes(d, b) * SECONDS_PER_NODE)
        .sum();
    let runner = config.run.budgeted_runner(
        "domain eight-puzzle",
        &format!(
            "domain eight-puzzle at depths up to {}",
            depths[depths.len() - 1]
        ),
        per_trial,
    )?;
    let sampler = monte_carlo::Sampler::new(evaluation, &config.noise);
    let groups = usize::from(puzzle.max_distance()) + 1;
    let roots = (puzzle.len() - 1) as u64;
    let counts = runner.run(
        || (),
        |_, rng| {
            use rand::RngExt;
            let root = 1 + rng.random_range(0..roots) as usize;
            let hits: Vec<bool> = depths
                .iter()
                .map(|&d| sampler.correct(puzzle, root, d, rng))
                .collect();
            (puzzle.distance(root), hits)
        },
        vec![Proportion::default(); depths.len() * groups],
        |mut acc, (distance, hits)| {
            for (i, hit) in hits.into_iter().enumerate() {
                acc[i * groups].record(hit);
                acc[i * groups + usize::from(distance)].record(hit);
            }
            acc
        },
    )?;
    let mut rows = Vec::new();
    for (i, &d) in depths.iter().enumerate() {
        for k in 0..groups {
            rows.push(SampledRow {
                depth: d,
                distance: (k > 0).then_some(k as u8),
                correct: counts[i * groups + k],
            });
        }
    }
    Ok(rows)
}
