//! The real-domains study of `pathology reproduce`: Nau, Luštrek, Parker, Bratko &
//! Gams, *When is it better not to look ahead?* (AIJ 174, 2010), asked whether lookahead
//! pathology occurs in real decision-making. Here the 8-puzzle ([`super::eight_puzzle`]) and
//! the KRK and KQK endgames ([`super::chess`]) answer it at every position.
//!
//! - **Exact, every position**: each domain with two heuristics (8-puzzle: Manhattan distance
//!   and misplaced tiles; chess: mop-up and room), raw and rounded to 4 levels, at depths
//!   1..=10 (8-puzzle, moves) and 1..=6 (chess, plies); `--full`: 1..=20 and 1..=10. The
//!   measure is the probability of a correct decision (8-puzzle: on an optimal path; chess: a
//!   fastest win; the chess table also gives keeping the win), ties uniform, averaged over
//!   every position, and the fraction of positions where depth d + 1 decides correctly with a
//!   smaller probability than depth d (local pathology).
//! - **Sampled, with noise**: Gaussian noise added to every frontier evaluation, three levels
//!   per domain, by the Monte Carlo runner (a uniformly drawn position per trial, each depth
//!   searched with its own noise); 95% Wilson intervals.
//! - **Claims** ([`crate::report::claims`]): local pathology occurs; deeper search is better on
//!   average (at the deepest depth, and at every added ply); low granularity brings more local
//!   pathology; with noise, deeper search still helps. Exact claims decide by the sign of an
//!   exact rational; sampled ones by a conservative normal test (the depths share their
//!   positions, so the standard errors are added), Holm-corrected within their family.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use super::{chess, eight_puzzle};
use crate::error::Result;
use crate::numeric::number::rational_to_f64;
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence, wilson_interval};
use crate::report::figure::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel, Scale};
use crate::report::{Cell, Column, Kind, Report, Table};
use crate::sim::report::RunConfig;
use crate::sim::stats::Proportion;

/// The three domains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// The 8-puzzle (minimin lookahead, depths in moves).
    EightPuzzle,
    /// King and rook against king (minimax, depths in plies).
    Krk,
    /// King and queen against king.
    Kqk,
}

impl Domain {
    /// Every domain, in the order of the tables.
    pub const ALL: [Domain; 3] = [Domain::EightPuzzle, Domain::Krk, Domain::Kqk];

    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            Domain::EightPuzzle => "eight-puzzle",
            Domain::Krk => "krk",
            Domain::Kqk => "kqk",
        }
    }

    /// The two heuristics of the study.
    fn heuristics(self) -> [&'static str; 2] {
        match self {
            Domain::EightPuzzle => ["manhattan", "misplaced"],
            _ => ["mopup", "room"],
        }
    }

    /// The noise levels (standard deviations in the heuristic's units) of the sampled part.
    fn noise_levels(self) -> [&'static str; 3] {
        match self {
            Domain::EightPuzzle => ["1", "2", "4"],
            _ => ["20", "40", "80"],
        }
    }

    /// The piece of a chess endgame (`None` for the 8-puzzle).
    fn piece(self) -> Option<chess::Piece> {
        match self {
            Domain::EightPuzzle => None,
            Domain::Krk => Some(chess::Piece::Rook),
            Domain::Kqk => Some(chess::Piece::Queen),
        }
    }

    /// What a correct decision is.
    fn measure(self) -> &'static str {
        match self {
            Domain::EightPuzzle => "P(on an optimal path)",
            _ => "P(fastest win)",
        }
    }
}

/// The rounding of the granularity part.
pub const LEVELS: u32 = 4;

/// One exact curve: a domain, heuristic and granularity at every depth of the study.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactCurve {
    /// The domain.
    pub domain: Domain,
    /// The heuristic's name.
    pub heuristic: &'static str,
    /// `Some(G)`: rounded to G levels.
    pub levels: Option<u32>,
    /// Positions (the same at every depth).
    pub positions: u64,
    /// Per depth: (d, P(correct), P(keeps the win) for chess, fraction with d + 1 worse).
    pub rows: Vec<(u32, BigRational, Option<BigRational>, BigRational)>,
    /// Per depth and true distance (8-puzzle: moves to the goal; chess: DTM): (d, distance,
    /// positions, fraction with d + 1 worse).
    pub by_distance: Vec<(u32, u8, u64, BigRational)>,
}

impl ExactCurve {
    /// The mean over the depths of the fraction of positions where d + 1 is worse.
    pub fn mean_worse(&self) -> BigRational {
        let sum = self
            .rows
            .iter()
            .fold(BigRational::zero(), |acc, r| acc + &r.3);
        sum / BigRational::from_integer(BigInt::from(self.rows.len()))
    }

    /// P(correct) at the deepest depth minus at depth 1.
    pub fn gain(&self) -> BigRational {
        &self.rows[self.rows.len() - 1].1 - &self.rows[0].1
    }

    /// The smallest change of P(correct) from one depth to the next, and the depth d where
    /// it happens (from d to d + 1).
    pub fn worst_step(&self) -> (BigRational, u32) {
        self.rows
            .windows(2)
            .map(|w| (&w[1].1 - &w[0].1, w[0].0))
            .min_by(|a, b| a.0.cmp(&b.0))
            .expect("at least two depths")
    }

    fn label(&self) -> String {
        match self.levels {
            Some(g) => format!("{}, {g} levels", self.heuristic),
            None => self.heuristic.to_string(),
        }
    }
}

/// One sampled curve: a domain's first heuristic with Gaussian noise.
#[derive(Debug, Clone, PartialEq)]
pub struct SampledCurve {
    /// The domain.
    pub domain: Domain,
    /// The heuristic's name.
    pub heuristic: &'static str,
    /// The noise's standard deviation, as given.
    pub sigma: &'static str,
    /// The seed of the run.
    pub seed: u64,
    /// Per depth: (d, correct decisions of the trials).
    pub rows: Vec<(u32, Proportion)>,
}

impl SampledCurve {
    /// P(correct) at the deepest depth minus at depth 1, as a conservative normal estimate
    /// (the depths search the same positions, so their standard errors are added).
    pub fn gain(&self) -> Evidence {
        let estimate = |p: &Proportion| {
            let x = p.successes as f64 / p.trials as f64;
            (x, (x * (1.0 - x) / p.trials as f64).sqrt())
        };
        Evidence::correlated_difference(
            estimate(&self.rows[self.rows.len() - 1].1),
            estimate(&self.rows[0].1),
        )
    }
}

/// The study's results.
#[derive(Debug, Clone, PartialEq)]
pub struct DomainStudy {
    /// Whether the full sizes were run.
    pub full: bool,
    /// Trials of each sampled curve.
    pub trials: u64,
    /// The seed of the first sampled curve (one more per curve).
    pub seed: u64,
    /// The exact curves.
    pub exact: Vec<ExactCurve>,
    /// The sampled curves.
    pub sampled: Vec<SampledCurve>,
}

/// The depths of the exact part: (8-puzzle, chess).
fn exact_depths(full: bool) -> (u32, u32) {
    if full { (20, 10) } else { (10, 6) }
}

/// The depths of the sampled part: (8-puzzle, chess).
const SAMPLED_DEPTHS: (u32, u32) = (6, 4);

impl DomainStudy {
    /// Runs the study: exact at every position, the noisy part with seeds `seed`, `seed + 1`,
    /// ... (one per sampled curve) on `threads` worker threads (the output does not depend on
    /// their number).
    ///
    /// # Errors
    ///
    /// As the domains' `accuracy_by_depth`.
    pub fn compute(full: bool, seed: u64, threads: Option<usize>) -> Result<DomainStudy> {
        let (puzzle_depth, chess_depth) = exact_depths(full);
        let trials = if full { 40_000 } else { 4_000 };
        let mut exact = Vec::new();
        let mut sampled = Vec::new();
        let first = seed;
        let mut seed = seed;
        for domain in Domain::ALL {
            for heuristic in domain.heuristics() {
                for levels in [None, Some(LEVELS)] {
                    exact.push(exact_curve(
                        domain,
                        heuristic,
                        levels,
                        puzzle_depth,
                        chess_depth,
                    )?);
                }
            }
            for sigma in domain.noise_levels() {
                let run = RunConfig {
                    trials,
                    seed,
                    threads,
                    shard: None,
                };
                seed = seed.wrapping_add(1);
                sampled.push(sampled_curve(domain, sigma, run)?);
            }
        }
        Ok(DomainStudy {
            full,
            trials,
            seed: first,
            exact,
            sampled,
        })
    }

    /// The exact curve of `domain`, `heuristic` and `levels`.
    pub fn curve(&self, domain: Domain, heuristic: &str, levels: Option<u32>) -> &ExactCurve {
        self.exact
            .iter()
            .find(|c| c.domain == domain && c.heuristic == heuristic && c.levels == levels)
            .expect("a curve of the study")
    }

    /// The claims, in four exact families and one sampled one.
    pub fn claim_families(&self) -> Vec<ClaimFamily> {
        // Where each claim comes from. The paper's body was not at hand (only its abstract
        // and a summary with page references, Bennett 2012, CogSci Summaries), so the
        // sources are the abstract and the summarised pages.
        let occurs = "Nau et al. 2010, abstract";
        let helps = "Nau et al. 2010, abstract and Sec. 1 (lookahead believed to help)";
        let granular = "Nau et al. 2010, p. 14 (via Bennett's summary)";
        let exact = |x: BigRational| Evidence::Exact(Cell::Exact(x));
        let mut local = ClaimFamily::new("real domains: local pathology occurs", 0.05);
        let mut deeper = ClaimFamily::new("real domains: deepest search beats depth 1", 0.05);
        let mut every = ClaimFamily::new("real domains: every added ply helps on average", 0.05);
        let mut coarse =
            ClaimFamily::new("real domains: low granularity, more local pathology", 0.05);
        let mut noisy = ClaimFamily::new(
            "real domains with noise: deepest search beats depth 1",
            0.05,
        );
        for c in &self.exact {
            let what = format!("{} {}", c.domain.name(), c.label());
            let last = c.rows[c.rows.len() - 1].0;
            let measure = c.domain.measure();
            if c.levels.is_none() {
                local.push(Claim::new(
                    format!("{what}: some positions decide worse one step deeper (d = 1..{last})"),
                    occurs,
                    "mean over the depths d of the fraction of positions where d + 1 is worse",
                    Direction::Greater,
                    exact(c.mean_worse()),
                ));
                let rounded = self.curve(c.domain, c.heuristic, Some(LEVELS));
                coarse.push(Claim::new(
                    format!(
                        "{what}: {LEVELS} levels bring more local pathology than raw values (d = 1..{last})"
                    ),
                    granular,
                    format!("mean fraction with d + 1 worse: {LEVELS} levels - raw"),
                    Direction::Greater,
                    exact(rounded.mean_worse() - c.mean_worse()),
                ));
            }
            deeper.push(Claim::new(
                format!("{what}: depth {last} decides better than depth 1 on average ({measure})"),
                helps,
                "P(correct) at the deepest d - at d = 1",
                Direction::Greater,
                exact(c.gain()),
            ));
            let (step, at) = c.worst_step();
            every.push(Claim::new(
                format!(
                    "{what}: no depth up to {last} decides worse on average than the one before ({measure}; the smallest change is from d = {at})"
                ),
                helps,
                "smallest change of P(correct) from d to d + 1",
                Direction::Greater,
                exact(step),
            ));
        }
        for s in &self.sampled {
            let last = s.rows[s.rows.len() - 1].0;
            noisy.push(Claim::new(
                format!(
                    "{} {} + Gaussian noise sigma = {}: depth {last} decides better than depth 1 ({})",
                    s.domain.name(),
                    s.heuristic,
                    s.sigma,
                    s.domain.measure()
                ),
                helps,
                "P(correct) at the deepest d - at d = 1 (same positions, SEs added)",
                Direction::Greater,
                s.gain(),
            ));
        }
        vec![local, deeper, every, coarse, noisy]
    }

    /// The report: the exact and sampled curves, local pathology by true distance, the
    /// claims table and its summary.
    pub fn report(&self) -> Report {
        let families = self.claim_families();
        let mut exact = Table::new(
            "exact",
            "Exact decision accuracy at every position: P(correct) (8-puzzle: the move lies on an optimal path; chess: a fastest win), P(keeps the win) (chess), and the fraction of positions where depth d + 1 decides correctly with a smaller probability (local pathology)",
            vec![
                Column::key("domain", Kind::Text),
                Column::key("heuristic", Kind::Text),
                Column::key("levels", Kind::Text),
                Column::key("d", Kind::Integer),
                Column::new("positions", Kind::Integer),
                Column::new("correct", Kind::Real).labelled("P(correct)"),
                Column::new("keeps_win", Kind::Real).labelled("P(keeps win)"),
                Column::new("worse_next", Kind::Real).labelled("d+1 worse"),
            ],
        );
        for c in &self.exact {
            for (d, correct, keep, worse) in &c.rows {
                exact.push(vec![
                    Cell::text(c.domain.name()),
                    Cell::text(c.heuristic),
                    Cell::text(levels_text(c.levels)),
                    Cell::int(*d),
                    Cell::int(c.positions),
                    Cell::Exact(correct.clone()),
                    keep.clone().map_or(Cell::Empty, Cell::Exact),
                    Cell::Exact(worse.clone()),
                ]);
            }
        }
        let mut by_distance = Table::new(
            "by_distance",
            "Local pathology by the position's true distance (8-puzzle: moves to the goal; chess: moves to mate), raw heuristics: the fraction of positions at that distance where depth d + 1 is worse than depth d, d = 1, 2, 3",
            vec![
                Column::key("domain", Kind::Text),
                Column::key("heuristic", Kind::Text),
                Column::key("d", Kind::Integer),
                Column::key("distance", Kind::Integer),
                Column::new("positions", Kind::Integer),
                Column::new("worse_next", Kind::Real).labelled("d+1 worse"),
            ],
        );
        for c in self.exact.iter().filter(|c| c.levels.is_none()) {
            for (d, distance, positions, worse) in &c.by_distance {
                by_distance.push(vec![
                    Cell::text(c.domain.name()),
                    Cell::text(c.heuristic),
                    Cell::int(*d),
                    Cell::int(*distance),
                    Cell::int(*positions),
                    Cell::Exact(worse.clone()),
                ]);
            }
        }
        let mut noisy = Table::new(
            "noisy",
            "With Gaussian noise on every frontier evaluation (Monte Carlo: a uniformly drawn position per trial, each depth searched with its own noise; 95% Wilson intervals)",
            vec![
                Column::key("domain", Kind::Text),
                Column::key("heuristic", Kind::Text),
                Column::key("sigma", Kind::Text),
                Column::key("d", Kind::Integer),
                Column::new("trials", Kind::Integer),
                Column::new("successes", Kind::Integer),
                Column::new("correct", Kind::Interval).labelled("P(correct) [95%]"),
                Column::new("seed", Kind::Text),
            ],
        );
        for s in &self.sampled {
            for (d, p) in &s.rows {
                noisy.push(vec![
                    Cell::text(s.domain.name()),
                    Cell::text(s.heuristic),
                    Cell::text(s.sigma),
                    Cell::int(*d),
                    Cell::int(p.trials),
                    Cell::int(p.successes),
                    interval(p),
                    Cell::text(s.seed.to_string()),
                ]);
            }
        }
        let (puzzle_depth, chess_depth) = exact_depths(self.full);
        Report::new(
            "reproduce",
            "Real domains solved completely (Nau et al. 2010): the 8-puzzle, KRK and KQK, decision accuracy by depth at every position",
        )
        .mode("exact; noise: monte-carlo")
        .param("full", self.full)
        .seed(self.seed)
        .with_table(exact)
        .with_table(by_distance)
        .with_table(noisy)
        .with_table(crate::report::claims::claims_table(&families))
        .with_table(crate::report::claims::summary_table(&families))
        .note(format!(
            "exact part: every position (8-puzzle: the 181,439 states other than the goal, depths 1..{puzzle_depth} in moves, minimin; KRK and KQK: every won position with White to move, depths 1..{chess_depth} in plies, minimax); ties broken uniformly, so each position contributes an exact probability; levels: the heuristic rounded to {LEVELS} equally spaced levels over its range"
        ))
        .note(
            "heuristics: 8-puzzle Manhattan distance and misplaced tiles (Russell & Norvig's h2 and h1); chess the mop-up evaluation (Chess Programming Wiki) and a whole-number form of Bratko's KRK 'room'; Nau et al.'s own evaluation functions are not transcribed here (see docs/domains.md)",
        )
        .note(format!(
            "sampled part: {} trials per curve, seeds {} to {} in the order of table noisy; the first heuristic of each domain with Gaussian noise of standard deviation sigma (in the heuristic's units) on every frontier evaluation; the claims on it use a conservative normal test (the depths search the same positions, so their standard errors are added) and Holm's correction within the family",
            self.trials,
            self.seed,
            self.seed.wrapping_add(self.sampled.len() as u64 - 1)
        ))
    }

    /// Figures: `domains_accuracy` (P(correct) against depth per heuristic, granularity and
    /// noise, one panel per domain) and `domains_local` (the local-pathology fraction against
    /// the true distance, one panel per domain).
    pub fn panels(&self) -> Vec<(String, Vec<Panel>)> {
        let point = |x: f64, y: f64| ErrorPoint {
            x,
            y,
            low: y,
            high: y,
        };
        let mut accuracy = Vec::new();
        let mut local = Vec::new();
        for domain in Domain::ALL {
            let mut series: Vec<ErrorSeries> = self
                .exact
                .iter()
                .filter(|c| c.domain == domain)
                .map(|c| ErrorSeries {
                    label: format!("{} (exact)", c.label()),
                    points: c
                        .rows
                        .iter()
                        .map(|r| point(f64::from(r.0), rational_to_f64(&r.1)))
                        .collect(),
                })
                .collect();
            series.extend(self.sampled.iter().filter(|s| s.domain == domain).map(|s| {
                ErrorSeries {
                    label: format!("{} + noise sigma = {}", s.heuristic, s.sigma),
                    points: s
                        .rows
                        .iter()
                        .map(|(d, p)| {
                            let y = p.successes as f64 / p.trials as f64;
                            let (low, high) = wilson_interval(p.successes, p.trials, Z95);
                            ErrorPoint {
                                x: f64::from(*d),
                                y,
                                low,
                                high,
                            }
                        })
                        .collect(),
                }
            }));
            let last = series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.x))
                .fold(1.0, f64::max);
            let (lo, hi) = series
                .iter()
                .flat_map(|s| s.points.iter().flat_map(|p| [p.low, p.high]))
                .fold((1.0f64, 0.0f64), |(l, h), y| (l.min(y), h.max(y)));
            let unit = if domain == Domain::EightPuzzle {
                "moves"
            } else {
                "plies"
            };
            accuracy.push(Panel {
                axes: Axes {
                    title: format!("{}: every position", domain.name()),
                    x_label: format!("search depth d ({unit})"),
                    y_label: domain.measure().to_string(),
                    x_range: (0.5, last + 0.5),
                    x_scale: Scale::Linear,
                    y_range: (
                        (lo - 0.35 * (hi - lo)).max(0.0),
                        (hi + 0.05 * (hi - lo)).min(1.0),
                    ),
                },
                series,
                legend: LegendPosition::LowerRight,
                reference: None,
            });
            let main = self.curve(domain, domain.heuristics()[0], None);
            let series: Vec<ErrorSeries> = [1u32, 2, 3]
                .iter()
                .map(|&d| ErrorSeries {
                    label: format!("{}, d = {d} against d = {}", main.heuristic, d + 1),
                    points: main
                        .by_distance
                        .iter()
                        .filter(|r| r.0 == d)
                        .map(|r| point(f64::from(r.1), rational_to_f64(&r.3)))
                        .collect(),
                })
                .collect();
            let far = series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.x))
                .fold(1.0, f64::max);
            let top = series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.y))
                .fold(0.0, f64::max);
            local.push(Panel {
                axes: Axes {
                    title: format!("{}: local pathology by true distance", domain.name()),
                    x_label: if domain == Domain::EightPuzzle {
                        "true distance to the goal (moves)".to_string()
                    } else {
                        "true distance to mate (moves)".to_string()
                    },
                    y_label: "fraction of positions where d + 1 is worse".to_string(),
                    x_range: (0.5, far + 0.5),
                    x_scale: Scale::Linear,
                    y_range: (0.0, (top * 1.15).max(0.01)),
                },
                series,
                legend: LegendPosition::UpperRight,
                reference: None,
            });
        }
        vec![
            ("domains_accuracy".to_string(), accuracy),
            ("domains_local".to_string(), local),
        ]
    }
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

fn interval(p: &Proportion) -> Cell {
    let (lower, upper) = wilson_interval(p.successes, p.trials, Z95);
    Cell::Interval {
        estimate: p.successes as f64 / p.trials as f64,
        lower,
        upper,
    }
}

fn levels_text(levels: Option<u32>) -> String {
    levels.map_or_else(|| "raw".to_string(), |g| g.to_string())
}

fn exact_curve(
    domain: Domain,
    heuristic: &'static str,
    levels: Option<u32>,
    puzzle_depth: u32,
    chess_depth: u32,
) -> Result<ExactCurve> {
    let run = RunConfig {
        trials: 1,
        seed: 1,
        threads: None,
        shard: None,
    };
    match domain.piece() {
        None => {
            let config = eight_puzzle::PuzzleConfig {
                heuristic: eight_puzzle::Heuristic::parse(heuristic)?,
                levels,
                noise: eight_puzzle::Noise::None,
                depths: (1..=puzzle_depth).collect(),
                method: eight_puzzle::Method::Exact,
                run,
            };
            let result = eight_puzzle::accuracy_by_depth(&config)?;
            let eight_puzzle::Rows::Exact(rows) = result.rows else {
                unreachable!("a deterministic heuristic is exact")
            };
            let all: Vec<_> = rows.iter().filter(|r| r.distance.is_none()).collect();
            Ok(ExactCurve {
                domain,
                heuristic,
                levels,
                positions: all[0].positions,
                rows: all
                    .iter()
                    .map(|r| (r.depth, r.correct.clone(), None, r.worse.clone()))
                    .collect(),
                by_distance: rows
                    .iter()
                    .filter(|r| r.depth <= 3)
                    .filter_map(|r| {
                        r.distance
                            .map(|k| (r.depth, k, r.positions, r.worse.clone()))
                    })
                    .collect(),
            })
        }
        Some(piece) => {
            let config = chess::ChessConfig {
                piece,
                heuristic: chess::Heuristic::parse(heuristic)?,
                levels,
                noise: chess::Noise::None,
                depths: (1..=chess_depth).collect(),
                run,
            };
            let result = chess::accuracy_by_depth(&config)?;
            let chess::Rows::Exact(rows) = result.rows else {
                unreachable!("a deterministic heuristic is exact")
            };
            let all: Vec<_> = rows.iter().filter(|r| r.dtm.is_none()).collect();
            Ok(ExactCurve {
                domain,
                heuristic,
                levels,
                positions: all[0].positions,
                rows: all
                    .iter()
                    .map(|r| {
                        (
                            r.depth,
                            r.fastest.clone(),
                            Some(r.keep.clone()),
                            r.worse_fastest.clone(),
                        )
                    })
                    .collect(),
                by_distance: rows
                    .iter()
                    .filter(|r| r.depth <= 3)
                    .filter_map(|r| {
                        r.dtm
                            .map(|k| (r.depth, k, r.positions, r.worse_fastest.clone()))
                    })
                    .collect(),
            })
        }
    }
}

fn sampled_curve(domain: Domain, sigma: &'static str, run: RunConfig) -> Result<SampledCurve> {
    let heuristic = domain.heuristics()[0];
    let seed = run.seed;
    let noise = format!("gaussian:{sigma}");
    let rows: Vec<(u32, Proportion)> = match domain.piece() {
        None => {
            let config = eight_puzzle::PuzzleConfig {
                heuristic: eight_puzzle::Heuristic::parse(heuristic)?,
                levels: None,
                noise: eight_puzzle::Noise::parse(&noise)?,
                depths: (1..=SAMPLED_DEPTHS.0).collect(),
                method: eight_puzzle::Method::MonteCarlo,
                run,
            };
            let eight_puzzle::Rows::Sampled(rows) = eight_puzzle::accuracy_by_depth(&config)?.rows
            else {
                unreachable!("Gaussian noise is sampled")
            };
            rows.into_iter()
                .filter(|r| r.distance.is_none())
                .map(|r| (r.depth, r.correct))
                .collect()
        }
        Some(piece) => {
            let config = chess::ChessConfig {
                piece,
                heuristic: chess::Heuristic::parse(heuristic)?,
                levels: None,
                noise: chess::Noise::parse(&noise)?,
                depths: (1..=SAMPLED_DEPTHS.1).collect(),
                run,
            };
            let chess::Rows::Sampled(rows) = chess::accuracy_by_depth(&config)?.rows else {
                unreachable!("Gaussian noise is sampled")
            };
            rows.into_iter()
                .filter(|r| r.dtm.is_none())
                .map(|r| (r.depth, r.fastest))
                .collect()
        }
    };
    Ok(SampledCurve {
        domain,
        heuristic,
        sigma,
        seed,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sampled part gives the same counts on one thread and on two, for every domain.
    #[test]
    fn the_sampled_curves_do_not_depend_on_the_thread_count() {
        for domain in Domain::ALL {
            let run = |threads| {
                let config = RunConfig {
                    trials: 300,
                    seed: 5,
                    threads: Some(threads),
                    shard: None,
                };
                sampled_curve(domain, domain.noise_levels()[1], config).unwrap()
            };
            let one = run(1);
            assert_eq!(one, run(2), "{}", domain.name());
            assert_eq!(
                one.rows.len() as u32,
                if domain == Domain::EightPuzzle { 6 } else { 4 }
            );
            assert!(one.rows.iter().all(|(_, p)| p.trials == 300));
        }
    }

    /// The exact curves are the domain engines' own rows: the 8-puzzle's Manhattan distance
    /// at depth 1 is the value docs/domains.md prints, and a perfect heuristic would need no
    /// study (every curve here is below 1 somewhere).
    #[test]
    fn the_exact_curves_are_the_engines_rows() {
        let curve = exact_curve(Domain::EightPuzzle, "manhattan", None, 3, 2).unwrap();
        assert_eq!(curve.positions, 181_439);
        assert_eq!(
            curve.rows[0].1,
            BigRational::new(105_445.into(), 181_439.into())
        );
        assert_eq!(
            curve.rows[0].3,
            BigRational::new(21_909.into(), 181_439.into())
        );
        let positions: u64 = curve
            .by_distance
            .iter()
            .filter(|r| r.0 == 1)
            .map(|r| r.2)
            .sum();
        assert_eq!(positions, 181_439);
        let krk = exact_curve(Domain::Krk, "mopup", None, 3, 2).unwrap();
        assert_eq!(krk.positions, 175_168);
        let fastest: Vec<String> = krk
            .rows
            .iter()
            .map(|r| format!("{:.3}", rational_to_f64(&r.1)))
            .collect();
        assert_eq!(fastest, ["0.452", "0.709"]);
    }
}
