//! Ballard's claim on incremental games (Chi & Nau 1987, Section 4.2), **rebuilt as a
//! reconstruction of the claim, not of Ballard's experiment** (his 1983 Duke technical report
//! is not public; we know it only from Chi & Nau's paragraph).
//!
//! Chi & Nau quote Ballard: "lowering the accuracy of either max's or min's static
//! evaluations, or both, serves to increase the amount of improvement produced by a
//! non-minimax strategy", on "a class of incremental games with uniform branching factor",
//! with "a weighted combination of the computational schemes used in the minimax and product
//! rules" as one non-minimax rule. We test that sentence here:
//!
//! - **Games.** Nau's N-games ([`crate::games::splitting`]: every tree edge `+1` with
//!   probability `q`, else `-1`; a leaf is a win for Max when its path sum is positive), the
//!   incremental games of the literature that we can define exactly, with `b = 2` and `3`.
//! - **The rule.** [`crate::search::mixed`]: `w` minimax + `(1 - w)` product at every node
//!   (our formula from Chi & Nau's sentence; `w = 1` is minimax, `w = 0` product).
//! - **The evaluator.** Artificial, with an error rate for each player: every node `n` has two
//!   uniforms fixed with the board, `r1(n)` and `r2(n)`; the player P (Max or Min) whose search
//!   evaluates `n` reads the bit `v = u(n)` (the true value, 1 a win for Max) flipped when
//!   `r1(n) < e_P`, and the value `(v + r2(n)) / 2`, in [1/2, 1) for a reported win and in
//!   [0, 1/2) for a reported loss. So `e_P = 0` orders all of P's frontier nodes correctly,
//!   `e_P = 1/2` makes them noise. A bit alone would not do: on values 0 and 1 the product
//!   rule *is* minimax and every mixture ties. Terminal squares are exact. "Max's static
//!   evaluations" are those of Max's searches: with the even default search depth they are
//!   exactly the frontier nodes where Max is to move (a depth-d search from height t has its
//!   frontier at height t - d). `r1` is shared by both players (common random numbers), so
//!   with `e_max <= e_min` Max's mistakes are a subset of Min's.
//! - **The match.** A pair is one board played twice: the mixed rule moves first once and
//!   minimax once; each player searches to the search depth with its rule and its own error
//!   rate, ties broken uniformly at random. The **improvement** is the mixed rule's share of
//!   the games minus 1/2, with the 95% interval of
//!   [`PairCounts::interval`](crate::studies::chi_nau::matches::PairCounts::interval) (pairs
//!   as units). Every (b, e_max, e_min) cell plays on the same boards with the same `r1`, `r2`.
//! - **The claim** ([`claims`]): for each b, the improvement with Max's error rate at the top
//!   of the grid (Min's at the bottom), Min's at the top, and both at the top, against both at
//!   the bottom: the difference with a 95% interval that adds the two intervals' variances
//!   (conservative: common random numbers correlate the cells positively). "Holds" when that
//!   interval lies above 0; the table also says whether the estimates rise monotonically
//!   along the grid.
//!
//! **What our rerun shows** (`pathology mc ballard --trials 10000`, seed 1, grid 0..0.3):
//! the claim's direction holds in all six rows (b = 2, 3; Max's, Min's, both lowered; the
//! increase's interval above 0), but the effect is small (at most +0.8 points of share) and
//! starts below zero: with exact frontier orderings the mixed rule loses 0.3 (b = 2) and 0.6
//! (b = 3) points to minimax; it gains only where Min's evaluations are noisy.
//!
//! Shards (`--shard K/N`) print their counts; [`merge`] rebuilds the unsharded report from
//! the summed counts, byte for byte.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::matches::PairCounts;
use crate::error::{Error, Result};
use crate::model::Player;
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence};
use crate::report::figure::{
    Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel, Scale, interval_y_range,
};
use crate::report::read::ReadTable;
use crate::report::{Cell, Column, Kind, Report, Table, format_f64};
use crate::search::mixed::mix_values;
use crate::sim::level_tree::{BoardSpec, GameKind, LevelTree, choose_best_of};
use crate::sim::report::{McRun, Parameters, Printed, RunConfig, summed_columns};
use crate::sim::runner::TrialRunner;
use crate::sim::stats::{Comparison, Z_95};

/// The default grid of error rates (both players).
pub const DEFAULT_ERRORS: [f64; 4] = [0.0, 0.1, 0.2, 0.3];

/// Measured cost of one pair in one cell (b = 3, height 8, search depth 2), single core, on
/// the loaded development machine, with a margin.
const SECONDS_PER_PAIR_CELL: f64 = 4.0e-6;

/// `mc ballard`: the setting (plain data, as the command line gives it).
#[derive(Debug, Clone, PartialEq)]
pub struct BallardRequest {
    /// Branching factors (each 2 or 3).
    pub branchings: Vec<u32>,
    /// Height of the N-games (2..=12).
    pub height: u32,
    /// Probability q of a `+1` edge.
    pub q: f64,
    /// Search depth of both players (1..=height).
    pub search_depth: u32,
    /// Weight of minimax in the mixed rule, in [0, 1).
    pub mix: f64,
    /// Error rates of the grid, each in [0, 1/2], for both Max and Min (increasing).
    pub errors: Vec<f64>,
}

impl BallardRequest {
    /// Chi & Nau's description: b = 2 and 3; our defaults for the rest (height 8, q = 1/2,
    /// search depth 2, mix 1/2, error rates 0, 0.1, 0.2, 0.3).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::chi_nau::ballard::BallardRequest;
    /// let r = BallardRequest::default_setting();
    /// assert_eq!(r.branchings, vec![2, 3]);
    /// assert!(r.check().is_ok());
    /// ```
    pub fn default_setting() -> Self {
        BallardRequest {
            branchings: vec![2, 3],
            height: 8,
            q: 0.5,
            search_depth: 2,
            mix: 0.5,
            errors: DEFAULT_ERRORS.to_vec(),
        }
    }

    /// Checks the setting.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::chi_nau::ballard::BallardRequest;
    /// let mut r = BallardRequest::default_setting();
    /// r.mix = 1.0; // minimax against itself
    /// assert!(r.check().is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--branching` (each 2 or 3, distinct), `--height`
    /// (2..=12), `--q` ([0, 1]), `--search-depth` (1..=height), `--mix` ([0, 1)), `--errors`
    /// (each in [0, 1/2], strictly increasing, at least two).
    pub fn check(&self) -> Result<()> {
        let list = |v: &[f64]| {
            v.iter()
                .map(|x| format_f64(*x))
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut b = self.branchings.clone();
        b.sort_unstable();
        b.dedup();
        if b.is_empty()
            || b.len() != self.branchings.len()
            || b.iter().any(|&x| !(2..=3).contains(&x))
        {
            let got = self
                .branchings
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",");
            return Err(Error::invalid(
                "--branching",
                "distinct values, each 2 or 3",
                got,
            ));
        }
        if !(2..=12).contains(&self.height) {
            return Err(Error::invalid("--height", "in 2..=12", self.height));
        }
        if !(0.0..=1.0).contains(&self.q) {
            return Err(Error::invalid("--q", "in [0, 1]", self.q));
        }
        if !(1..=self.height).contains(&self.search_depth) {
            return Err(Error::invalid(
                "--search-depth",
                &format!("in 1..={} (the height)", self.height),
                self.search_depth,
            ));
        }
        if !(0.0..1.0).contains(&self.mix) {
            return Err(Error::invalid(
                "--mix",
                "in [0, 1) (1 is minimax itself)",
                self.mix,
            ));
        }
        let increasing = self.errors.windows(2).all(|p| p[0] < p[1]);
        if self.errors.len() < 2
            || !increasing
            || self.errors.iter().any(|e| !(0.0..=0.5).contains(e))
        {
            return Err(Error::invalid(
                "--errors",
                "at least two strictly increasing rates, each in [0, 0.5]",
                list(&self.errors),
            ));
        }
        Ok(())
    }

    /// Plays the grid on `config.trials` pairs (its shard's, if sharded; refused up front
    /// beyond an hour) and returns the report.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::report::RunConfig;
    /// use pathology::studies::chi_nau::ballard::BallardRequest;
    /// let mut r = BallardRequest::default_setting();
    /// r.height = 4;
    /// r.errors = vec![0.0, 0.3];
    /// let config = RunConfig { trials: 20, seed: 1, threads: Some(1), shard: None };
    /// let report = r.play(&config).unwrap();
    /// assert_eq!(report.table("ballard").unwrap().rows.len(), 8); // 2 b x 2 x 2 rates
    /// ```
    ///
    /// # Errors
    ///
    /// As [`BallardRequest::check`], [`RunConfig::runner`] and the budget.
    pub fn play(&self, config: &RunConfig) -> Result<Report> {
        self.check()?;
        let runner = config.runner("mc ballard")?;
        let cells = self.cells().len() as f64;
        let size = self
            .branchings
            .iter()
            .map(|&b| f64::from(b).powi(self.height as i32) / 6561.0)
            .sum::<f64>()
            .max(0.01);
        runner.check_budget_of(
            "--trials",
            "mc ballard",
            SECONDS_PER_PAIR_CELL * cells * (1.0 + size) * f64::from(self.height),
        )?;
        let counts = self.counts(&runner)?;
        Ok(ballard_report(self, &config.run(), &counts))
    }

    /// The cells (b, e_max, e_min) in row order.
    fn cells(&self) -> Vec<(u32, f64, f64)> {
        let mut out = Vec::new();
        for &b in &self.branchings {
            for &e_max in &self.errors {
                for &e_min in &self.errors {
                    out.push((b, e_max, e_min));
                }
            }
        }
        out
    }

    /// The pair counts of every cell, in [`Self::cells`] order (the mixed rule's wins).
    fn counts(&self, runner: &TrialRunner) -> Result<Vec<PairCounts>> {
        let specs = self
            .branchings
            .iter()
            .map(|&b| BoardSpec::new(GameKind::N, b, self.height, self.q))
            .collect::<Result<Vec<_>>>()?;
        let cells = self.cells().len();
        runner.run(
            Board::default,
            |board, rng| {
                let mut won = Vec::with_capacity(cells);
                for spec in &specs {
                    board.draw(spec, rng);
                    for &e_max in &self.errors {
                        for &e_min in &self.errors {
                            board.evaluate(&spec.tree, e_max, e_min);
                            won.push(play_pair(
                                &spec.tree,
                                board,
                                self.search_depth,
                                self.mix,
                                rng,
                            ));
                        }
                    }
                }
                won
            },
            vec![PairCounts::default(); cells],
            |mut counts, won: Vec<u8>| {
                for (c, w) in counts.iter_mut().zip(won) {
                    c.record(w);
                }
                counts
            },
        )
    }

    fn from_parameters(p: &Parameters) -> Result<Self> {
        let numbers = |name: &str| -> Result<Vec<f64>> {
            p.get(name)?
                .split(',')
                .map(|x| {
                    x.parse().map_err(|_| {
                        Error::invalid(&format!("manifest parameter {name}"), "numbers", x)
                    })
                })
                .collect()
        };
        Ok(BallardRequest {
            branchings: numbers("branching")?.iter().map(|&b| b as u32).collect(),
            height: p.parse("height", "a whole number")?,
            q: p.parse("q", "a number")?,
            search_depth: p.parse("search_depth", "a whole number")?,
            mix: p.parse("mix", "a number")?,
            errors: numbers("errors")?,
        })
    }
}

/// One board and the two players' static values.
#[derive(Debug, Clone, Default)]
struct Board {
    leaves: Vec<bool>,
    wins: Vec<bool>,
    flip: Vec<f64>,
    jitter: Vec<f64>,
    /// Static values of Max's searches, then Min's.
    statics: [Vec<f64>; 2],
}

impl Board {
    fn draw(&mut self, spec: &BoardSpec, rng: &mut ChaCha8Rng) {
        spec.draw(rng, &mut self.leaves);
        spec.tree.solve(&self.leaves, &mut self.wins);
        let n = spec.tree.len();
        self.flip.clear();
        self.flip.extend((0..n).map(|_| rng.random::<f64>()));
        self.jitter.clear();
        self.jitter.extend((0..n).map(|_| rng.random::<f64>()));
    }

    fn evaluate(&mut self, tree: &LevelTree, e_max: f64, e_min: f64) {
        for (statics, e) in self.statics.iter_mut().zip([e_max, e_min]) {
            statics.clear();
            statics.extend(self.wins.iter().zip(&self.flip).zip(&self.jitter).map(
                |((&u, &r1), &r2)| {
                    let v = u != (r1 < e);
                    (f64::from(u8::from(v)) + r2) / 2.0
                },
            ));
            for (value, &leaf) in statics[..tree.width(0)].iter_mut().zip(&self.leaves) {
                *value = f64::from(u8::from(leaf));
            }
        }
    }
}

/// The mixed value (weight `weight` of minimax; 1 is minimax) of node `i` at height `t`.
fn value(tree: &LevelTree, statics: &[f64], t: u32, i: usize, depth: u32, weight: f64) -> f64 {
    if t == 0 || depth == 0 {
        return statics[tree.index(t, i)];
    }
    let b = tree.branching();
    let mut buffer = [0.0f64; 3];
    for (k, slot) in buffer[..b].iter_mut().enumerate() {
        *slot = value(tree, statics, t - 1, b * i + k, depth - 1, weight);
    }
    mix_values(Player::to_move_at_height(t), &buffer[..b], weight)
}

/// One game: `mixed_first` says whether the mixed rule moves at the root. Returns whether the
/// mixed rule won.
fn play_game(
    tree: &LevelTree,
    board: &Board,
    depth: u32,
    mix: f64,
    mixed_first: bool,
    rng: &mut ChaCha8Rng,
) -> bool {
    let b = tree.branching();
    let mut i = 0;
    for (turn, t) in (1..=tree.height()).rev().enumerate() {
        let mover = Player::to_move_at_height(t);
        let mixed_moves = (turn % 2 == 0) == mixed_first;
        let weight = if mixed_moves { mix } else { 1.0 };
        let statics = match mover {
            Player::Max => &board.statics[0],
            Player::Min => &board.statics[1],
        };
        let mut values = [0.0f64; 3];
        for (k, v) in values[..b].iter_mut().enumerate() {
            *v = value(
                tree,
                statics,
                t - 1,
                b * i + k,
                depth.saturating_sub(1),
                weight,
            );
        }
        i = b * i + choose_best_of(&values[..b], mover, rng);
    }
    let max_won = board.leaves[i];
    let first_is_max = Player::to_move_at_height(tree.height()) == Player::Max;
    let mixed_is_max = mixed_first == first_is_max;
    max_won == mixed_is_max
}

/// Games won by the mixed rule in a pair (0, 1 or 2).
fn play_pair(tree: &LevelTree, board: &Board, depth: u32, mix: f64, rng: &mut ChaCha8Rng) -> u8 {
    [true, false]
        .into_iter()
        .map(|first| u8::from(play_game(tree, board, depth, mix, first, rng)))
        .sum()
}

/// The claims of Ballard's sentence, per branching factor: `(b, what, low cell, high cell)`.
fn claim_cells(request: &BallardRequest) -> Vec<(u32, &'static str, usize, usize)> {
    let k = request.errors.len();
    let per_b = k * k;
    let mut out = Vec::new();
    for (j, &b) in request.branchings.iter().enumerate() {
        let at = |i_max: usize, i_min: usize| j * per_b + i_max * k + i_min;
        out.push((b, "Max's", at(0, 0), at(k - 1, 0)));
        out.push((b, "Min's", at(0, 0), at(0, k - 1)));
        out.push((b, "both players'", at(0, 0), at(k - 1, k - 1)));
    }
    out
}

fn improvement(c: &PairCounts) -> (f64, f64, f64) {
    let (low, high) = c.interval(Z_95);
    (c.estimate() - 0.5, low - 0.5, high - 0.5)
}

/// The difference of the improvements of `high` and `low` with a 95% interval whose standard
/// error is the sum of the two cells' (half-widths read as `z` standard errors): the cells
/// share boards, so the worst case over correlations.
///
/// # Examples
///
/// ```
/// use pathology::studies::chi_nau::ballard::difference;
/// use pathology::studies::chi_nau::matches::PairCounts;
/// let low = PairCounts { lost_both: 300, split: 400, won_both: 300 };
/// let high = PairCounts { lost_both: 200, split: 400, won_both: 400 };
/// let (d, lo, hi) = difference(&low, &high);
/// assert!((d - 0.1).abs() < 1e-12 && lo > 0.0 && hi < 0.2);
/// ```
pub fn difference(low: &PairCounts, high: &PairCounts) -> (f64, f64, f64) {
    let d = high.estimate() - low.estimate();
    let half = Z_95 * (standard_error(low) + standard_error(high));
    (d, d - half, d + half)
}

/// The standard error of a cell's share (the half-width of its 95% interval over Z_95).
fn standard_error(c: &PairCounts) -> f64 {
    let (l, h) = c.interval(Z_95);
    (h - l) / (2.0 * Z_95)
}

/// The claims of Ballard's sentence, decided by [`ClaimFamily`] (Holm within each family;
/// normal approximations over pairs; a difference of two cells, measured on the same boards,
/// with the two standard errors added, the worst case over correlations). Per b and per lowered accuracy (Max's, Min's, both):
///
/// - **the improvement increases**: improvement at the raised rates minus at the lowest rates
///   is above 0;
/// - **a non-minimax strategy improves**: the improvement itself at the raised rates is above
///   0 (Ballard's sentence presupposes an improvement to increase).
///
/// A cell with no pairs (an empty shard) is not testable.
pub fn claim_families(request: &BallardRequest, counts: &[PairCounts]) -> Vec<ClaimFamily> {
    let source = "Chi & Nau 1987, Sec. 4.2 (Ballard 1983), reconstructed";
    let mut increases = ClaimFamily::new("Ballard: lowering accuracy increases it", 0.05);
    let mut improves = ClaimFamily::new("Ballard: the mixed rule improves", 0.05);
    for (b, what, low, high) in claim_cells(request) {
        let setting = format!("b = {b}, {what} accuracy lowered");
        let (low, high) = (&counts[low], &counts[high]);
        let empty = low.pairs() == 0 || high.pairs() == 0;
        let evidence = |estimate: f64, standard_error: f64| {
            if empty {
                Evidence::NotTestable("no pairs in this run (an empty shard)".to_string())
            } else {
                Evidence::Normal {
                    estimate,
                    standard_error,
                }
            }
        };
        let (d, _, _) = difference(low, high);
        increases.push(Claim::new(
            setting.clone(),
            source,
            "improvement(raised) - improvement(lowest)",
            Direction::Greater,
            // The same boards: the standard errors added, the worst case over correlations.
            evidence(d, standard_error(low) + standard_error(high)),
        ));
        improves.push(Claim::new(
            setting,
            source,
            "improvement at the raised rates (share - 1/2)",
            Direction::Greater,
            evidence(high.estimate() - 0.5, standard_error(high)),
        ));
    }
    vec![increases, improves]
}

/// The claims table ([`claim_families`]).
pub fn claims(request: &BallardRequest, counts: &[PairCounts]) -> Table {
    crate::report::claims::claims_table(&claim_families(request, counts))
}

/// The report of `mc ballard` from its counts (a shard's, if sharded).
pub fn ballard_report(request: &BallardRequest, run: &McRun, counts: &[PairCounts]) -> Report {
    let list = |v: &[f64]| {
        v.iter()
            .map(|x| format_f64(*x))
            .collect::<Vec<_>>()
            .join(",")
    };
    let title = format!(
        "Ballard's claim on incremental games (Chi & Nau 1987, Section 4.2), a reconstruction of \
         the claim, not of Ballard's experiment: the mixed rule {} minimax + {} product against \
         minimax on N-games of height {}, q = {}, search depth {}, artificial evaluator with error \
         rates e_max for Max's and e_min for Min's static evaluations",
        format_f64(request.mix),
        format_f64(1.0 - request.mix),
        request.height,
        format_f64(request.q),
        request.search_depth
    );
    let report = Report::new("mc ballard", &title)
        .param(
            "branching",
            request
                .branchings
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(","),
        )
        .param("height", request.height)
        .param("q", format_f64(request.q))
        .param("search_depth", request.search_depth)
        .param("mix", format_f64(request.mix))
        .param("errors", list(&request.errors));
    let report = run.params(report);
    let mut table = Table::new(
        "ballard",
        &title,
        vec![
            Column::key("b", Kind::Integer),
            Column::key("e_max", Kind::Real),
            Column::key("e_min", Kind::Real),
            Column::key("mix", Kind::Real),
            Column::key("seed", Kind::Text),
            Column::new("pairs", Kind::Integer),
            Column::new("mixed_wins", Kind::Integer).labelled("games won by mixed"),
            Column::new("lost_both", Kind::Integer).labelled("mixed lost both"),
            Column::new("split", Kind::Integer).labelled("split 1-1"),
            Column::new("won_both", Kind::Integer).labelled("mixed won both"),
            Column::new("share", Kind::Interval).labelled("mixed share [95% CI]"),
            Column::new("improvement", Kind::Interval).labelled("improvement [95% CI]"),
        ],
    );
    for ((b, e_max, e_min), c) in request.cells().into_iter().zip(counts) {
        let interval = |(e, l, h): (f64, f64, f64)| Cell::Interval {
            estimate: e,
            lower: l,
            upper: h,
        };
        let share = improvement(c);
        let empty = c.pairs() == 0;
        table.push(vec![
            Cell::int(b),
            Cell::Real(e_max),
            Cell::Real(e_min),
            Cell::Real(request.mix),
            Cell::text(run.seed.to_string()),
            Cell::int(c.pairs()),
            Cell::int(c.minimax_wins()),
            Cell::int(c.lost_both),
            Cell::int(c.split),
            Cell::int(c.won_both),
            if empty {
                Cell::Empty
            } else {
                interval((share.0 + 0.5, share.1 + 0.5, share.2 + 0.5))
            },
            if empty { Cell::Empty } else { interval(share) },
        ]);
    }
    report.with_table(table).with_table(claims(request, counts)).note(
        "A reconstruction of Ballard's claim, not of his experiment: the mixing formula, the games \
         (Nau's N-games) and the evaluator are ours (see docs/chi_nau_ballard_kalah.md). \
         share: the mixed rule's fraction of the 2 x pairs games (each board played twice, each rule \
         moving first once; columns mixed_wins, lost_both, split, won_both count the mixed rule's \
         games and pairs); 95% interval over pairs (z^2/2 pseudo-pairs at 0 and at 1); improvement = \
         share - 1/2. Every cell plays the same boards and node noise. Claims: increase = improvement \
         at the raised rates minus at the lowest rates, and the improvement at the raised rates, \
         the difference with the two cells' standard errors added (they share boards, and the \
         pairing is not recorded: the worst case over correlations), Holm-corrected within its \
         family.",
    )
}

/// Figure data of an `mc ballard` report: one panel per b, the improvement (the mixed rule's
/// share minus 1/2, with its 95% interval) against Min's error rate, one series per Max's
/// error rate, a dashed line at 0 (no improvement). The series are shifted apart by a small
/// fraction of the grid's spacing so that their intervals do not hide each other (the axis
/// label says so).
///
/// # Examples
///
/// ```
/// use pathology::sim::report::RunConfig;
/// use pathology::studies::chi_nau::ballard::{BallardRequest, panels};
/// let config = RunConfig { trials: 20, seed: 1, threads: Some(1), shard: None };
/// let report = BallardRequest::default_setting().play(&config).unwrap();
/// let panels = panels(&report);
/// assert_eq!(panels.len(), 2); // b = 2, 3
/// assert_eq!(panels[0].series.len(), 4); // e_max = 0, 0.1, 0.2, 0.3
/// assert_eq!(panels[0].reference, Some(0.0));
/// ```
pub fn panels(report: &Report) -> Vec<Panel> {
    let Some(table) = report.table("ballard") else {
        return Vec::new();
    };
    let (Some(b_at), Some(max_at), Some(min_at), Some(improvement_at)) = (
        table.column_index("b"),
        table.column_index("e_max"),
        table.column_index("e_min"),
        table.column_index("improvement"),
    ) else {
        return Vec::new();
    };
    /// (b, e_max, e_min, (estimate, lower, upper)) of a row with an interval.
    type Row = (u32, f64, f64, (f64, f64, f64));
    let rows: Vec<Row> = table
        .rows
        .iter()
        .filter_map(|row| {
            let Cell::Interval {
                estimate,
                lower,
                upper,
            } = row[improvement_at]
            else {
                return None;
            };
            Some((
                row[b_at].to_f64()? as u32,
                row[max_at].to_f64()?,
                row[min_at].to_f64()?,
                (estimate, lower, upper),
            ))
        })
        .collect();
    let mut branchings: Vec<u32> = rows.iter().map(|r| r.0).collect();
    branchings.dedup();
    let mut maxes: Vec<f64> = rows.iter().map(|r| r.1).collect();
    maxes.sort_by(f64::total_cmp);
    maxes.dedup();
    let mut mins: Vec<f64> = rows.iter().map(|r| r.2).collect();
    mins.sort_by(f64::total_cmp);
    mins.dedup();
    let spacing = mins
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::INFINITY, f64::min);
    let spacing = if spacing.is_finite() { spacing } else { 0.1 };
    let shift = |i: usize| (i as f64 - (maxes.len() as f64 - 1.0) / 2.0) * spacing * 0.06;
    let x_range = (
        mins.first().copied().unwrap_or(0.0) - spacing / 2.0,
        mins.last().copied().unwrap_or(0.0) + spacing / 2.0,
    );
    branchings
        .iter()
        .map(|&b| {
            let mine: Vec<_> = rows.iter().filter(|r| r.0 == b).collect();
            let series = maxes
                .iter()
                .enumerate()
                .map(|(i, &e_max)| ErrorSeries {
                    label: format!("e_max = {}", format_f64(e_max)),
                    points: mine
                        .iter()
                        .filter(|r| r.1 == e_max)
                        .map(|r| ErrorPoint {
                            x: r.2 + shift(i),
                            y: r.3.0,
                            low: r.3.1,
                            high: r.3.2,
                        })
                        .collect(),
                })
                .collect();
            Panel {
                axes: Axes {
                    title: format!("Ballard's claim (reconstruction), N-games b = {b}"),
                    x_label: "Min's error rate e_min (series shifted apart slightly)".to_string(),
                    y_label: "improvement of the mixed rule (share - 1/2)".to_string(),
                    x_range,
                    x_scale: Scale::Linear,
                    y_range: interval_y_range(mine.iter().map(|r| (r.3.1, r.3.2)), 0.0),
                },
                series,
                legend: LegendPosition::UpperLeft,
                reference: Some(0.0),
            }
        })
        .collect()
}

/// The shards of one `mc ballard` run merged into the unsharded report.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` when the shards' rows or counts do not fit the
/// run's parameters.
pub fn merge(
    parameters: &[(String, String)],
    seed: u64,
    inputs: &[(String, ReadTable)],
) -> Result<Report> {
    let p = Parameters(parameters);
    let request = BallardRequest::from_parameters(&p)?;
    request.check()?;
    let pairs: u64 = p.parse("trials", "a whole number")?;
    let check = |row: &[u64], slice: u64| {
        if row[0] != slice {
            Err(format!("a row of the shard's {slice} pairs"))
        } else if row[1] + row[2] + row[3] != row[0] {
            Err("lost_both + split + won_both = pairs".to_string())
        } else {
            Ok(())
        }
    };
    let sums = summed_columns(
        inputs,
        &["b", "e_max", "e_min"],
        &["pairs", "lost_both", "split", "won_both"],
        &check,
        &|row, _| {
            let c = PairCounts {
                lost_both: row[1],
                split: row[2],
                won_both: row[3],
            };
            let mut cells = c.printed("mixed_wins", "share");
            let shifted = (c.pairs() > 0).then(|| {
                let (estimate, ci_low, ci_high) = improvement(&c);
                Comparison {
                    estimate,
                    ci_low,
                    ci_high,
                    exact: None,
                    z: None,
                }
            });
            cells.extend(Printed::interval("improvement", shifted.as_ref(), None));
            cells
        },
    )?;
    if sums.len() != request.cells().len() {
        return Err(Error::invalid(
            "FILE",
            &format!("{} rows", request.cells().len()),
            sums.len(),
        ));
    }
    let counts: Vec<PairCounts> = sums
        .iter()
        .map(|r| PairCounts {
            lost_both: r[1],
            split: r[2],
            won_both: r[3],
        })
        .collect();
    let run = McRun {
        trials: pairs,
        seed,
        shard: None,
    };
    Ok(ballard_report(&request, &run, &counts))
}

#[cfg(test)]
mod tests {
    /// An increase that starts from a loss is not an improvement. Where the
    /// improvement grows from -0.6 to -0.05 points (b = 2, Max's accuracy), the "increases"
    /// claim can hold while "the mixed rule improves" does not; both families are
    /// Holm-corrected; the README and docs no longer say "holds in all 6 rows".
    #[test]
    fn an_increase_from_a_loss_is_not_an_improvement() {
        use crate::report::claims::Verdict;
        let request = BallardRequest {
            branchings: vec![2],
            errors: vec![0.0, 0.3],
            ..BallardRequest::default_setting()
        };
        // Cells (e_max, e_min): (0, 0), (0, 0.3), (0.3, 0), (0.3, 0.3).
        let cell = |lost_both, won_both| PairCounts {
            lost_both,
            split: 20_000 - lost_both - won_both,
            won_both,
        };
        let counts = [
            cell(500, 260),
            cell(300, 500),
            cell(420, 400),
            cell(300, 520),
        ];
        let families = claim_families(&request, &counts);
        let verdicts = |f: &ClaimFamily| -> Vec<Verdict> {
            f.decide().into_iter().map(|d| d.verdict).collect()
        };
        assert_eq!(families[0].claims.len(), 3);
        assert_eq!(verdicts(&families[0])[0], Verdict::Holds); // Max's: the increase
        assert_ne!(verdicts(&families[1])[0], Verdict::Holds); // but still below minimax
        for d in families[1].decide() {
            assert!(d.test.contains("Holm over 3"), "{}", d.test);
        }
        let readme = include_str!("../../../README.md");
        let docs = include_str!("../../../docs/chi_nau_ballard_kalah.md");
        assert!(!readme.contains("holds in all 6 rows") && !docs.contains("holds in all 6 rows"));
    }

    use super::*;
    use crate::report::read::read_any;
    use crate::report::{ExportOptions, Format};
    use crate::sim::runner::Shard;

    fn small() -> BallardRequest {
        BallardRequest {
            branchings: vec![2, 3],
            height: 4,
            q: 0.5,
            search_depth: 2,
            mix: 0.5,
            errors: vec![0.0, 0.4],
        }
    }

    /// The flat-array search equals the generic [`crate::search::mixed::mixed`] on the same
    /// static values, at every depth and weight (0: product, 1: minimax).
    #[test]
    fn flat_search_equals_the_generic_search() {
        use crate::games::SplittingGame;
        use crate::search::mixed::mixed;
        use rand::SeedableRng;
        let spec = BoardSpec::new(GameKind::N, 3, 4, 0.5).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut board = Board::default();
        board.draw(&spec, &mut rng);
        board.evaluate(&spec.tree, 0.2, 0.3);
        let game = SplittingGame::from_leaves(3, 4, &board.leaves).unwrap();
        let regions = spec.tree.regions(&game);
        for statics in &board.statics {
            let eval = |_: &SplittingGame, s: &crate::games::Region| {
                statics[regions.iter().position(|r| r == s).unwrap()]
            };
            for depth in 0..=4 {
                for w in [0.0, 0.5, 1.0] {
                    let flat = value(&spec.tree, statics, 4, 0, depth, w);
                    let generic = mixed(&game, &game.root(), depth, &eval, w);
                    assert_eq!(flat, generic, "depth {depth}, w {w}");
                }
            }
        }
    }

    /// The evaluator: error rate 0 orders every node by its true value; the measured rate of
    /// flipped bits is near e.
    #[test]
    fn evaluator_error_rates() {
        use rand::SeedableRng;
        let spec = BoardSpec::new(GameKind::N, 2, 10, 0.5).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut board = Board::default();
        board.draw(&spec, &mut rng);
        board.evaluate(&spec.tree, 0.0, 0.25);
        let n = board.wins.len();
        let wrong = |s: &[f64]| (0..n).filter(|&i| (s[i] >= 0.5) != board.wins[i]).count();
        assert_eq!(wrong(&board.statics[0]), 0);
        let rate = wrong(&board.statics[1]) as f64 / n as f64;
        // About 0.25 of the interior nodes (2047 nodes, 1024 exact leaves): 4 sigma.
        let interior = (n - 1024) as f64;
        let expected = 0.25 * interior / n as f64;
        assert!(
            (rate - expected).abs() < 4.0 * (0.25 * 0.75 / interior).sqrt(),
            "{rate}"
        );
    }

    /// Minimax against itself (mix = 1 is refused; here played directly) scores exactly one
    /// game per pair when both players are perfect.
    #[test]
    fn perfect_players_split_every_pair() {
        use rand::SeedableRng;
        let spec = BoardSpec::new(GameKind::N, 2, 6, 0.5).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let mut board = Board::default();
        for _ in 0..20 {
            board.draw(&spec, &mut rng);
            board.evaluate(&spec.tree, 0.0, 0.0);
            // Search to the end: both rules play perfectly on exact leaves.
            assert_eq!(play_pair(&spec.tree, &board, 6, 0.5, &mut rng), 1);
        }
    }

    #[test]
    fn thread_counts_and_shards_give_the_same_report() {
        let r = small();
        let (pairs, seed) = (60, 4);
        let full = |threads| {
            r.play(&RunConfig {
                trials: pairs,
                seed,
                threads: Some(threads),
                shard: None,
            })
            .unwrap()
        };
        let one = full(1);
        assert_eq!(one, full(2));
        let mut inputs = Vec::new();
        for k in [2, 1, 3] {
            let shard = Shard { index: k, count: 3 };
            let config = RunConfig {
                trials: pairs,
                seed,
                threads: Some(1),
                shard: Some(shard),
            };
            let report = r.play(&config).unwrap();
            let format = if k == 2 { Format::Json } else { Format::Csv };
            // A CSV shard carries its manifest inline (`--manifest inline`).
            let inline = ExportOptions {
                inline_manifest: true,
                ..ExportOptions::default()
            };
            let text = report.render(format, &inline).unwrap();
            inputs.push((format!("shard{k}"), read_any(&text, None).unwrap()));
        }
        let merged = crate::studies::merge::merge(&inputs).unwrap();
        assert_eq!(merged, one);
    }

    #[test]
    fn refuses_bad_settings() {
        let bad = |f: &dyn Fn(&mut BallardRequest)| {
            let mut r = small();
            f(&mut r);
            r.check().unwrap_err().to_string()
        };
        assert!(bad(&|r| r.branchings = vec![4]).contains("--branching"));
        assert!(bad(&|r| r.branchings = vec![2, 2]).contains("--branching"));
        assert!(bad(&|r| r.height = 13).contains("--height"));
        assert!(bad(&|r| r.search_depth = 5).contains("--search-depth"));
        assert!(bad(&|r| r.errors = vec![0.3, 0.1]).contains("--errors"));
        assert!(bad(&|r| r.errors = vec![0.0, 0.6]).contains("--errors"));
        assert!(bad(&|r| r.q = 1.5).contains("--q"));
    }
}
