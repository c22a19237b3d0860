//! The KRK and KQK chess endgames (White king and rook or queen against the lone Black king),
//! solved completely, and the accuracy of depth-d minimax decisions over every won position:
//! the chess half of Nau, Luštrek, Parker, Bratko & Gams, *When is it better not to look
//! ahead?* (AIJ 174, 2010), which asks whether lookahead pathology occurs in real
//! decision-making; these endgames are small enough that the question is answered for every
//! position exactly, against the true values of a solver.
//!
//! - [`board`]: positions (2 * 64^3 indices, both sides to move), legality, moves.
//! - [`solve`]: the successor table and retrograde analysis to distance-to-mate (DTM);
//!   stalemate and the capture of the piece are draws. KRK's longest win is 16 moves and
//!   KQK's 10 with White to move (tests).
//! - [`heuristic`]: the evaluation functions (`mopup`, `room`, `dtm`), granularity
//!   (`--levels`) and noise (`--noise`).
//! - [`exact`]: depth-d minimax over every position at once (transpositions shared) and the
//!   exact decision accuracy with a deterministic evaluation.
//! - [`monte_carlo`]: with noise drawn per search node, trees searched by the seeded runner.
//! - [`mod@report`]: the tables.
//!
//! **What we take from the paper, and what we chose.** The paper's text was not at hand when
//! this module was written, so none of its settings (its evaluation functions, noise levels or
//! figures) is transcribed here; a secondhand summary of it (the project's specification) is
//! followed instead: every won position
//! with White to move is a root, White's decision at depth d is *correct* when it keeps the
//! win and, in a second measure, when it is a fastest win, and *local pathology* is depth
//! d + 1 deciding worse than depth d. The evaluation functions are ours, with their sources
//! named in [`heuristic`]: the mop-up evaluation (Chess Programming Wiki), a form of Bratko's
//! KRK "room", and the true values (Sadikov, Bratko & Kononenko, *Bias and pathology in
//! minimax search*, TCS 349 (2005), corrupted the true KRK values with noise). Noise is
//! Gaussian or a discrete law, drawn independently per search node; granularity is rounding
//! to G levels, the factors the paper's synthetic models study (its Section 4).
//!
//! # Examples
//!
//! ```no_run
//! use pathology::domains::chess::{ChessConfig, accuracy_by_depth, report};
//! let config = ChessConfig::exact(pathology::domains::chess::board::Piece::Rook, vec![1, 2, 3]);
//! let result = accuracy_by_depth(&config).unwrap();
//! println!("{}", report(&result).tables[0].rows.len());
//! ```

pub mod board;
pub mod exact;
pub mod heuristic;
pub mod monte_carlo;
pub mod report;
pub mod solve;

#[cfg(test)]
mod tests;

use num_bigint::BigInt;
use num_rational::BigRational;

use crate::error::{Error, Result};
use crate::sim::report::RunConfig;
use crate::sim::stats::Proportion;

pub use board::Piece;
pub use heuristic::{Evaluation, Heuristic, Noise};
pub use report::report;
pub use solve::Endgame;

/// The largest search depth of the exact (deterministic) computation.
pub const MAX_EXACT_DEPTH: u32 = 40;
/// The largest search depth of the noisy (Monte Carlo) computation: trees of 8 plies are
/// already about 10^7 nodes.
pub const MAX_NOISY_DEPTH: u32 = 8;

/// One request: endgame, evaluation, noise, depths and (with noise) the Monte Carlo run.
#[derive(Debug, Clone)]
pub struct ChessConfig {
    /// KRK or KQK.
    pub piece: Piece,
    /// The evaluation function.
    pub heuristic: Heuristic,
    /// Granularity: G levels, or the raw values.
    pub levels: Option<u32>,
    /// Noise per search node.
    pub noise: Noise,
    /// Search depths in plies (each >= 1), ascending, no repeats.
    pub depths: Vec<u32>,
    /// Trials, seed, threads and shard (used only with noise).
    pub run: RunConfig,
}

impl ChessConfig {
    /// The deterministic `mopup` heuristic at `depths`.
    pub fn exact(piece: Piece, depths: Vec<u32>) -> ChessConfig {
        ChessConfig {
            piece,
            heuristic: Heuristic::Mopup,
            levels: None,
            noise: Noise::None,
            depths,
            run: RunConfig {
                trials: 1000,
                seed: 1,
                threads: None,
                shard: None,
            },
        }
    }
}

/// One row of the exact results: one depth, over every root or those of one DTM.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactRow {
    /// Search depth d (plies).
    pub depth: u32,
    /// The roots' DTM, or `None` for every root.
    pub dtm: Option<u8>,
    /// Roots.
    pub positions: u64,
    /// P(the decision keeps the win), averaged over the roots.
    pub keep: BigRational,
    /// P(the decision is a fastest win).
    pub fastest: BigRational,
    /// Fraction of roots where depth d + 1 keeps the win with a smaller probability.
    pub worse_keep: BigRational,
    /// Fraction of roots where depth d + 1 wins fastest with a smaller probability.
    pub worse_fastest: BigRational,
}

/// One row of the Monte Carlo results.
#[derive(Debug, Clone, PartialEq)]
pub struct SampledRow {
    /// Search depth d (plies).
    pub depth: u32,
    /// The roots' DTM, or `None` for every root.
    pub dtm: Option<u8>,
    /// Decisions that kept the win, of the trials.
    pub keep: Proportion,
    /// Decisions that won fastest.
    pub fastest: Proportion,
}

/// The results' rows: exact, or sampled.
#[derive(Debug, Clone, PartialEq)]
pub enum Rows {
    /// A deterministic evaluation: exact over every root.
    Exact(Vec<ExactRow>),
    /// Noise: Monte Carlo.
    Sampled(Vec<SampledRow>),
}

/// Facts of the solved endgame, printed with the results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndgameFacts {
    /// Legal positions with White to move.
    pub white_positions: u64,
    /// Legal positions with Black to move.
    pub black_positions: u64,
    /// Won positions with White to move (the roots).
    pub won_white: u64,
    /// Won positions with Black to move.
    pub won_black: u64,
    /// Checkmates (Black to move).
    pub mates: u64,
    /// Stalemates (Black to move).
    pub stalemates: u64,
    /// The longest win with White to move (moves).
    pub longest_white: u8,
    /// The longest win with Black to move.
    pub longest_black: u8,
    /// Roots per DTM (index = DTM).
    pub roots_by_dtm: Vec<u64>,
}

impl EndgameFacts {
    /// The facts of a solved endgame.
    pub fn of(endgame: &Endgame) -> EndgameFacts {
        use board::{POSITIONS, Side};
        let half = POSITIONS / 2;
        let mut f = EndgameFacts {
            white_positions: 0,
            black_positions: 0,
            won_white: 0,
            won_black: 0,
            mates: 0,
            stalemates: 0,
            longest_white: endgame.longest_win(Side::White),
            longest_black: endgame.longest_win(Side::Black),
            roots_by_dtm: vec![0; usize::from(endgame.longest_win(Side::White)) + 1],
        };
        for i in endgame.legal_positions() {
            let white = i < half;
            if white {
                f.white_positions += 1;
            } else {
                f.black_positions += 1;
            }
            match (white, endgame.dtm(i)) {
                (true, Some(d)) => {
                    f.won_white += 1;
                    f.roots_by_dtm[usize::from(d)] += 1;
                }
                (false, Some(_)) => f.won_black += 1,
                _ => {}
            }
            match endgame.terminal(i) {
                solve::Terminal::Mate => f.mates += 1,
                solve::Terminal::Stalemate => f.stalemates += 1,
                solve::Terminal::No => {}
            }
        }
        f
    }
}

/// The result of [`accuracy_by_depth`].
#[derive(Debug, Clone, PartialEq)]
pub struct DomainReport {
    /// What was asked.
    pub config: DomainSettings,
    /// The solved endgame's facts.
    pub facts: EndgameFacts,
    /// The heuristic's range `[lo, hi]` on the endgame (before rounding).
    pub range: (i64, i64),
    /// The rows.
    pub rows: Rows,
}

/// The request as the report states it (the config without the thread count).
#[derive(Debug, Clone, PartialEq)]
pub struct DomainSettings {
    /// KRK or KQK.
    pub piece: Piece,
    /// The evaluation.
    pub heuristic: Heuristic,
    /// Granularity.
    pub levels: Option<u32>,
    /// Noise.
    pub noise: Noise,
    /// Depths.
    pub depths: Vec<u32>,
    /// The run, with noise.
    pub run: Option<crate::sim::report::McRun>,
}

/// Checks the depths against the allowed range and orders them.
fn checked_depths(depths: &[u32], max: u32, noisy: bool) -> Result<Vec<u32>> {
    let allowed = if noisy {
        format!("whole numbers in 1..={max} (with noise the searches are trees)")
    } else {
        format!("whole numbers in 1..={max}")
    };
    if depths.is_empty() {
        return Err(Error::invalid("--depth", &allowed, "none"));
    }
    for &d in depths {
        if !(1..=max).contains(&d) {
            return Err(Error::invalid("--depth", &allowed, d));
        }
    }
    let mut sorted = depths.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    Ok(sorted)
}

/// Decision accuracy by depth over every won White-to-move position of KRK or KQK: exact
/// with a deterministic evaluation (every root, every depth, ties as probabilities), Monte
/// Carlo with noise.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--depth` or `--levels` out of range, or `--trials` or
/// `--threads` of 0; [`Error::TooExpensive`] for a Monte Carlo run over the hour limit.
pub fn accuracy_by_depth(config: &ChessConfig) -> Result<DomainReport> {
    let noisy = config.noise != Noise::None;
    let max = if noisy {
        MAX_NOISY_DEPTH
    } else {
        MAX_EXACT_DEPTH
    };
    let depths = checked_depths(&config.depths, max, noisy)?;
    if let Some(g) = config.levels
        && !(2..=1_000_000).contains(&g)
    {
        return Err(Error::invalid(
            "--levels",
            "a whole number in 2..=1000000",
            g,
        ));
    }
    let endgame = Endgame::solve(config.piece);
    let evaluation = Evaluation::new(&endgame, config.heuristic, config.levels)?;
    let facts = EndgameFacts::of(&endgame);
    let roots = endgame.won_white_positions();
    let (rows, run) = if noisy {
        let rows = sampled_rows(&endgame, &evaluation, config, &depths, &roots, &facts)?;
        (Rows::Sampled(rows), Some(config.run.run()))
    } else {
        (
            Rows::Exact(exact_rows(&endgame, &evaluation, &depths, &roots, &facts)),
            None,
        )
    };
    Ok(DomainReport {
        config: DomainSettings {
            piece: config.piece,
            heuristic: config.heuristic,
            levels: config.levels,
            noise: config.noise.clone(),
            depths,
            run,
        },
        facts,
        range: evaluation.range(),
        rows,
    })
}

fn exact_rows(
    endgame: &Endgame,
    evaluation: &Evaluation,
    depths: &[u32],
    roots: &[usize],
    facts: &EndgameFacts,
) -> Vec<ExactRow> {
    let max_depth = depths.iter().copied().max().unwrap_or(1) + 1;
    let decisions = exact::decisions(endgame, evaluation, roots, max_depth);
    let buckets = facts.roots_by_dtm.len();
    let mut rows = Vec::new();
    for &d in depths {
        let now = &decisions[d as usize - 1];
        let next = &decisions[d as usize];
        // Index 0: every root; index k + 1: roots of DTM k.
        let mut keep = vec![exact::RationalSum::default(); buckets + 1];
        let mut fastest = vec![exact::RationalSum::default(); buckets + 1];
        let mut worse = vec![(0u64, 0u64); buckets + 1];
        let mut count = vec![0u64; buckets + 1];
        for (r, &root) in roots.iter().enumerate() {
            let dtm = usize::from(endgame.dtm(root).unwrap_or(0));
            for b in [0, dtm + 1] {
                count[b] += 1;
                keep[b].add(now[r].keep, now[r].best);
                fastest[b].add(now[r].fastest, now[r].best);
                worse[b].0 += u64::from(next[r].keeps_less_than(now[r]));
                worse[b].1 += u64::from(next[r].fastest_less_than(now[r]));
            }
        }
        let fraction = |a: u64, n: u64| BigRational::new(BigInt::from(a), BigInt::from(n.max(1)));
        for b in 0..=buckets {
            if count[b] == 0 {
                continue;
            }
            rows.push(ExactRow {
                depth: d,
                dtm: (b > 0).then(|| (b - 1) as u8),
                positions: count[b],
                keep: keep[b].mean(count[b]),
                fastest: fastest[b].mean(count[b]),
                worse_keep: fraction(worse[b].0, count[b]),
                worse_fastest: fraction(worse[b].1, count[b]),
            });
        }
    }
    rows
}

fn sampled_rows(
    endgame: &Endgame,
    evaluation: &Evaluation,
    config: &ChessConfig,
    depths: &[u32],
    roots: &[usize],
    facts: &EndgameFacts,
) -> Result<Vec<SampledRow>> {
    use rand::RngExt;
    let branching = monte_carlo::branching(endgame);
    let nodes: f64 = depths
        .iter()
        .map(|&d| monte_carlo::tree_nodes(d, branching))
        .sum();
    let runner = config
        .run
        .runner(&format!("domain {}", config.piece.endgame()))?;
    runner.check_budget(
        &format!("domain {} with noise", config.piece.endgame()),
        nodes * SECONDS_PER_NODE,
    )?;
    let sampler = config.noise.sampler();
    let buckets = facts.roots_by_dtm.len();
    let slots = depths.len() * (buckets + 1);
    let tallies = runner.run(
        || (),
        |_, rng| {
            let root = roots[rng.random_range(0..roots.len())];
            let outcomes: Vec<(bool, bool)> = depths
                .iter()
                .map(|&d| monte_carlo::noisy_decision(endgame, evaluation, &sampler, root, d, rng))
                .collect();
            (usize::from(endgame.dtm(root).unwrap_or(0)), outcomes)
        },
        vec![(Proportion::default(), Proportion::default()); slots],
        |mut acc, (dtm, outcomes)| {
            for (k, (keep, fastest)) in outcomes.into_iter().enumerate() {
                for b in [0, dtm + 1] {
                    acc[k * (buckets + 1) + b].0.record(keep);
                    acc[k * (buckets + 1) + b].1.record(fastest);
                }
            }
            acc
        },
    )?;
    let mut rows = Vec::new();
    for (k, &d) in depths.iter().enumerate() {
        for b in 0..=buckets {
            let (keep, fastest) = tallies[k * (buckets + 1) + b];
            if b > 0 && keep.trials == 0 {
                continue;
            }
            rows.push(SampledRow {
                depth: d,
                dtm: (b > 0).then(|| (b - 1) as u8),
                keep,
                fastest,
            });
        }
    }
    Ok(rows)
}

/// One search node's cost on one core, for the Monte Carlo estimate (measured by
/// `examples/chess_speed.rs`).
const SECONDS_PER_NODE: f64 = 2e-7;
