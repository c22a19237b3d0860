//! Where minimax is pathological over (noise sigma, granularity g) on P-games: a phase
//! diagram in the spirit of Nau, Luštrek, Parker, Bratko & Gams, *When is it better not to
//! look ahead?* (AIJ 174, 2010, Section 4's synthetic models: pathology "more likely when the
//! granularity was low, the branching factor was high, and the local similarity was low"), and
//! of Luštrek, Gams & Bratko (2005-2006: with real- or multi-valued true values and Gaussian
//! noise, minimax stops being pathological), computed exactly by
//! [`crate::analytic::distributions`] (the multi-valued P-game engine, `pgame.rs`: joint CDFs
//! `W_j, L_j` backed up by `L' = L^b`, `W' = sum_k C(b,k) W^k L^(b-k)`, and the
//! root-decision sum).
//!
//! **Model.** Complete b-ary trees of height h (b = 2, h = [`HEIGHTS`]`[0]`; b = 3, h =
//! [`HEIGHTS`]`[1]`), leaves i.i.d. (no local similarity: P-games), true values by minimax.
//! Two leaf laws: *two-valued* (win/loss, `+1` with probability `w_b`, the P-game of Pearl
//! and Nau with `D` constant over heights), and *five-valued* (`0..4`, uniform). A
//! non-terminal frontier node of true value v is evaluated `v + N(0, sigma^2)`, quantized to
//! g equal bins of the true values' span (`--range` = the smallest and largest leaf value;
//! evaluations beyond it fall in the end bins: a saturating evaluation of g distinct values,
//! the granularity). Leaves evaluate exactly, so depth h always decides correctly and the
//! deepest heuristic search is d = h - 1.
//!
//! **Pathological** cell: `D(h - 1, h) < D(1, h)`. Every value is exact for the quantized
//! evaluation (f64 within its printed bound); no continuous limit is involved.

use num_rational::BigRational;

use crate::analytic::closed_form::w_b;
use crate::analytic::distributions::request::{DistributionRequest, GameSpec, LeafLaw, ModelSpec};
use crate::error::Result;
use crate::numeric::number::{parse_rational, short_text};
use crate::report::figure::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel};
use crate::report::{Cell, Column, Kind, Report, Table};

use super::critical_curves::{claims_table, yes_no};

/// The branching factors and their heights.
pub const BRANCHINGS: [u32; 2] = [2, 3];
/// The heights for b = 2 and b = 3.
pub const HEIGHTS: [u32; 2] = [10, 7];
/// The noise levels (in units of the spacing of the true values).
pub const SIGMAS: [&str; 5] = ["0.125", "0.25", "0.5", "1", "2"];
/// The granularities g.
pub const GRANULARITIES: [u32; 8] = [2, 3, 4, 6, 8, 16, 32, 64];

/// The two leaf laws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaves {
    /// `+1` with probability `w_b`, `-1` otherwise.
    TwoValued,
    /// `0, 1, 2, 3, 4`, each with probability 1/5.
    FiveValued,
}

impl Leaves {
    /// The name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Leaves::TwoValued => "two-valued (win/loss, p = w_b)",
            Leaves::FiveValued => "five-valued (0..4 uniform)",
        }
    }
}

/// One cell of the diagram.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseCell {
    /// b.
    pub branching: u32,
    /// h.
    pub height: u32,
    /// The leaf law.
    pub leaves: Leaves,
    /// sigma, as text.
    pub sigma: &'static str,
    /// g.
    pub granularity: u32,
    /// `D(1, h)`.
    pub first: f64,
    /// `D(h - 1, h)`.
    pub deepest: f64,
    /// The largest rounding bound of the two.
    pub bound: f64,
}

impl PhaseCell {
    /// `D(h - 1, h) < D(1, h)`, by more than the two values' rounding bounds.
    pub fn pathological(&self) -> bool {
        self.deepest + 2.0 * self.bound < self.first
    }

    /// The two values are within their rounding bounds of each other: f64 cannot tell
    /// whether the cell is pathological (an evaluation that almost never errs).
    pub fn undecided(&self) -> bool {
        (self.deepest - self.first).abs() <= 2.0 * self.bound
    }

    /// `yes`, `no` or `within rounding`.
    pub fn verdict(&self) -> &'static str {
        if self.undecided() {
            "within rounding"
        } else {
            yes_no(self.pathological())
        }
    }
}

/// The request of one cell (every depth, f64).
///
/// # Errors
///
/// As [`w_b`].
///
/// # Examples
///
/// ```
/// use pathology::studies::nau_lustrek::{Leaves, request};
/// let r = request(2, 6, Leaves::FiveValued, "0.5", 4).unwrap();
/// assert!(r.parameters().iter().any(|(n, v)| n == "range" && v == "0,4"));
/// ```
pub fn request(
    branching: u32,
    height: u32,
    leaves: Leaves,
    sigma: &str,
    granularity: u32,
) -> Result<DistributionRequest> {
    let q = |s: &str| parse_rational(s).expect("a constant of the study");
    let (law, range) = match leaves {
        Leaves::TwoValued => {
            let p = BigRational::from_float(w_b(branching)?).expect("finite");
            (LeafLaw::WinLoss(Some(p)), (q("-1"), q("1")))
        }
        Leaves::FiveValued => (
            LeafLaw::Given((0..5).map(|v| (q(&v.to_string()), q("1/5"))).collect()),
            (q("0"), q("4")),
        ),
    };
    Ok(DistributionRequest {
        game: GameSpec::PGame(law),
        branching,
        height,
        depth: None,
        model: ModelSpec::Gaussian { sigma: q(sigma) },
        levels: Some(granularity),
        range: Some(range),
        exact: false,
    })
}

/// The whole diagram.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseDiagram {
    /// Every cell, by b, leaves, sigma, g.
    pub cells: Vec<PhaseCell>,
}

impl PhaseDiagram {
    /// Computes every cell.
    ///
    /// # Errors
    ///
    /// As [`DistributionRequest::outcome`].
    pub fn compute() -> Result<PhaseDiagram> {
        Self::compute_at(&HEIGHTS)
    }

    /// Computes every cell at the heights `heights[i]` for `BRANCHINGS[i]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::nau_lustrek::PhaseDiagram;
    /// let diagram = PhaseDiagram::compute_at(&[4, 3]).unwrap();
    /// assert_eq!(diagram.cells.len(), 2 * 2 * 5 * 8);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`DistributionRequest::outcome`].
    pub fn compute_at(heights: &[u32; 2]) -> Result<PhaseDiagram> {
        let mut cells = Vec::new();
        for (&b, &h) in BRANCHINGS.iter().zip(heights) {
            for leaves in [Leaves::TwoValued, Leaves::FiveValued] {
                for sigma in SIGMAS {
                    for g in GRANULARITIES {
                        let outcome = request(b, h, leaves, sigma, g)?.outcome::<f64>()?;
                        let rows = &outcome.column.rows;
                        let (first, deepest) = (&rows[0], &rows[rows.len().saturating_sub(2)]);
                        cells.push(PhaseCell {
                            branching: b,
                            height: h,
                            leaves,
                            sigma,
                            granularity: g,
                            first: first.decision.value,
                            deepest: deepest.decision.value,
                            bound: first.decision.bound.max(deepest.decision.bound),
                        });
                    }
                }
            }
        }
        Ok(PhaseDiagram { cells })
    }

    /// `(pathological, decided)` cells among those kept (undecided ones left out).
    fn count(&self, keep: impl Fn(&PhaseCell) -> bool) -> (usize, usize) {
        let kept: Vec<&PhaseCell> = self
            .cells
            .iter()
            .filter(|c| keep(c) && !c.undecided())
            .collect();
        (kept.iter().filter(|c| c.pathological()).count(), kept.len())
    }

    /// The report: table `phase` (one row per cell) and table `claims`.
    pub fn report(&self) -> Report {
        let mut phase = Table::new(
            "phase",
            "D(1,h) and D(h-1,h) of P-games with Gaussian noise quantized to g levels",
            vec![
                Column::key("b", Kind::Integer),
                Column::key("h", Kind::Integer),
                Column::key("leaves", Kind::Text),
                Column::key("sigma", Kind::Text),
                Column::key("g", Kind::Integer),
                Column::new("D(1,h)", Kind::Real),
                Column::new("D(h-1,h)", Kind::Real),
                Column::new("pathological", Kind::Text),
            ],
        );
        for c in &self.cells {
            phase.push(vec![
                Cell::int(c.branching),
                Cell::int(c.height),
                Cell::text(c.leaves.name()),
                Cell::text(c.sigma),
                Cell::int(c.granularity),
                Cell::Bounded {
                    value: c.first,
                    bound: c.bound,
                },
                Cell::Bounded {
                    value: c.deepest,
                    bound: c.bound,
                },
                Cell::text(c.verdict()),
            ]);
        }
        let bound = self.cells.iter().map(|c| c.bound).fold(0.0, f64::max);
        // No subcommand computes the diagram alone: `pathology reproduce` writes it, and the
        // manifest names that command (the heights are in the title).
        let heights: Vec<String> = BRANCHINGS
            .iter()
            .zip(self.heights())
            .map(|(b, h)| format!("h = {h} at b = {b}"))
            .collect();
        Report::new(
            "reproduce",
            &format!(
                "Where minimax is pathological over (sigma, g): P-games, {}",
                heights.join(", ")
            ),
        )
        .mode("f64")
            .with_table(phase)
            .with_table(self.claims())
            .note(format!(
                "exact values of the quantized evaluation in f64, within {bound:.1e}; pathological: D(h-1,h) < D(1,h) by more than twice that"
            ))
            .note("bins: g equal bins over the leaves' value span, evaluations beyond it in the end bins")
    }

    fn heights(&self) -> Vec<u32> {
        BRANCHINGS
            .iter()
            .map(|&b| {
                self.cells
                    .iter()
                    .find(|c| c.branching == b)
                    .map_or(0, |c| c.height)
            })
            .collect()
    }

    fn claims(&self) -> Table {
        let mut table =
            claims_table("The cited papers' qualitative claims, checked on this diagram");
        let low = GRANULARITIES[0];
        let high = GRANULARITIES[GRANULARITIES.len() - 1];
        let (p_low, n_low) = self.count(|c| c.granularity == low);
        let (p_high, n_high) = self.count(|c| c.granularity == high);
        let mut monotone = 0;
        let mut lines = 0;
        for b in BRANCHINGS {
            for leaves in [Leaves::TwoValued, Leaves::FiveValued] {
                for sigma in SIGMAS {
                    lines += 1;
                    let line: Vec<bool> = self
                        .cells
                        .iter()
                        .filter(|c| c.branching == b && c.leaves == leaves && c.sigma == sigma)
                        .map(PhaseCell::pathological)
                        .collect();
                    // Once not pathological at some g, not pathological at any larger g.
                    if line.windows(2).all(|w| w[0] || !w[1]) {
                        monotone += 1;
                    }
                }
            }
        }
        let mean_drop = |g: u32| {
            let drops: Vec<f64> = self
                .cells
                .iter()
                .filter(|c| c.granularity == g)
                .map(|c| c.first - c.deepest)
                .collect();
            drops.iter().sum::<f64>() / drops.len().max(1) as f64
        };
        table.push(vec![
            Cell::text("Nau et al. 2010: pathology is more likely when the granularity is low"),
            Cell::text("more pathological cells at low g"),
            Cell::text(format!(
                "pathological at g = {low}: {p_low} of {n_low}; at g = {high}: {p_high} of {n_high}; \
                 (b, leaves, sigma) lines with no pathology returning as g grows: {monotone} of {lines}; \
                 mean D(1,h) - D(h-1,h) at g = {low}: {:.4}, at g = {high}: {:.4}",
                mean_drop(low),
                mean_drop(high)
            )),
            Cell::text(yes_no(p_low > p_high && monotone == lines)),
        ]);
        let (p2, n2) = self.count(|c| c.branching == 2);
        let (p3, n3) = self.count(|c| c.branching == 3);
        table.push(vec![
            Cell::text(
                "Nau et al. 2010: pathology is more likely when the branching factor is high",
            ),
            Cell::text("more pathological cells at b = 3 than at b = 2"),
            Cell::text(format!("b = 2: {p2} of {n2}; b = 3: {p3} of {n3}")),
            Cell::text(yes_no(p3 > p2)),
        ]);
        let (two, n_two) = self.count(|c| c.leaves == Leaves::TwoValued);
        let (five, n_five) = self.count(|c| c.leaves == Leaves::FiveValued);
        let (five_fine, n_five_fine) =
            self.count(|c| c.leaves == Leaves::FiveValued && c.granularity >= 16);
        table.push(vec![
            Cell::text("Luštrek, Gams & Bratko: with more than two true values and Gaussian noise, pathology vanishes"),
            Cell::text("no pathology with five-valued leaves"),
            Cell::text(format!(
                "two-valued: {two} of {n_two} cells pathological; five-valued: {five} of {n_five} \
                 ({five_fine} of {n_five_fine} at g >= 16)"
            )),
            Cell::text(yes_no(five == 0)),
        ]);
        let undecided = self.cells.iter().filter(|c| c.undecided()).count();
        table.push(vec![
            Cell::text("Nau et al. 2010 / Pearl: P-games with two-valued leaves are pathological (no local similarity)"),
            Cell::text("pathology on two-valued P-games"),
            Cell::text(format!(
                "{two} of {n_two} decided two-valued cells pathological ({undecided} cells in all \
                 equal within f64 rounding: left out of every count)"
            )),
            Cell::text(yes_no(two == n_two)),
        ]);
        table
    }

    /// Figure data: one panel per (b, leaves), `D(h-1,h) - D(1,h)` against `log2 g`, one
    /// series per sigma; below the dashed zero line is pathological.
    pub fn panels(&self) -> Vec<Panel> {
        let mut panels = Vec::new();
        for (b, h) in BRANCHINGS.iter().zip(self.heights()) {
            for leaves in [Leaves::TwoValued, Leaves::FiveValued] {
                let series: Vec<ErrorSeries> = SIGMAS
                    .iter()
                    .map(|&sigma| ErrorSeries {
                        label: format!("sigma = {sigma}"),
                        points: self
                            .cells
                            .iter()
                            .filter(|c| c.branching == *b && c.leaves == leaves && c.sigma == sigma)
                            .map(|c| {
                                let y = c.deepest - c.first;
                                ErrorPoint {
                                    x: f64::from(c.granularity).log2(),
                                    y,
                                    low: y,
                                    high: y,
                                }
                            })
                            .collect(),
                    })
                    .collect();
                let ys = series.iter().flat_map(|s| s.points.iter().map(|p| p.y));
                let (lo, hi) = ys.fold((0.0f64, 0.0f64), |(lo, hi), y| (lo.min(y), hi.max(y)));
                // Room below the curves for the legend.
                let span = (hi - lo).max(0.01);
                let (lo, hi) = (lo - 0.5 * span, hi + 0.05 * span);
                panels.push(Panel {
                    axes: Axes {
                        title: format!("P-game b = {b}, h = {h}, {}", leaves.name()),
                        x_label: "log2 g (granularity)".to_string(),
                        y_label: "D(h-1,h) - D(1,h)".to_string(),
                        x_range: (
                            0.8,
                            f64::from(GRANULARITIES[GRANULARITIES.len() - 1]).log2() + 0.2,
                        ),
                        y_range: (lo, hi),
                    },
                    series,
                    legend: LegendPosition::LowerRight,
                    reference: Some(0.0),
                });
            }
        }
        panels
    }
}

/// The grid as text for the printed summary: one line per (b, leaves, sigma), `P` for a
/// pathological cell and `.` for the others, g ascending.
pub fn grid_text(diagram: &PhaseDiagram) -> String {
    let mut out = format!(
        "phase diagram (P: D(h-1,h) < D(1,h); ?: equal within rounding); g = {}\n",
        GRANULARITIES.map(|g| g.to_string()).join(",")
    );
    for b in BRANCHINGS {
        for leaves in [Leaves::TwoValued, Leaves::FiveValued] {
            for sigma in SIGMAS {
                let marks: String = diagram
                    .cells
                    .iter()
                    .filter(|c| c.branching == b && c.leaves == leaves && c.sigma == sigma)
                    .map(|c| match c.verdict() {
                        "yes" => 'P',
                        "no" => '.',
                        _ => '?',
                    })
                    .collect();
                out.push_str(&format!(
                    "  b={b} {:<32} sigma={:<6} {marks}\n",
                    leaves.name(),
                    short_text(&parse_rational(sigma).expect("a constant"))
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_the_engines_values_and_two_levels_are_the_artificial_evaluator() {
        let diagram = PhaseDiagram::compute_at(&[4, 3]).unwrap();
        assert_eq!(diagram.cells.len(), 160);
        // b = 2, two-valued leaves, sigma = 1, g = 2.
        let cell = &diagram.cells[3 * GRANULARITIES.len()];
        assert_eq!((cell.branching, cell.granularity, cell.sigma), (2, 2, "1"));
        // g = 2 over [-1, 1] is the sign of v + sigma Z: the artificial evaluator with
        // e = P(Z > 1 / sigma) = Phi(-1).
        let phi_minus_one = 0.158_655_253_931_457_05;
        let artificial = DistributionRequest {
            model: ModelSpec::Artificial {
                e: BigRational::from_float(phi_minus_one).unwrap(),
            },
            levels: None,
            range: None,
            ..request(2, 4, Leaves::TwoValued, "1", 2).unwrap()
        }
        .outcome::<f64>()
        .unwrap();
        let rows = &artificial.column.rows;
        assert!((rows[0].decision.value - cell.first).abs() < 1e-9);
        assert!((rows[2].decision.value - cell.deepest).abs() < 1e-9);
        let report = diagram.report();
        assert_eq!(report.table("phase").unwrap().rows.len(), 160);
        assert_eq!(report.table("claims").unwrap().rows.len(), 4);
        assert_eq!(report.manifest.command_line(), "pathology reproduce");
        assert_eq!(diagram.panels().len(), 4);
        assert_eq!(grid_text(&diagram).lines().count(), 21);
    }
}
