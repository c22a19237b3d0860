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
//! Three leaf laws: *two-valued* (win/loss, `+1` with probability `w_b`, the P-game of Pearl
//! and Nau with `D` constant over heights), *five-valued* (`0..4`, uniform) and *33-valued*
//! (`0..32`, uniform: enough distinct values for Luštrek, Bratko & Gams's 2012 point that
//! pathology can vanish without similarity between siblings). A
//! non-terminal frontier node of true value v is evaluated `v + N(0, sigma^2)`, quantized to
//! g equal bins of the true values' span (`--range` = the smallest and largest leaf value;
//! evaluations beyond it fall in the end bins: a saturating evaluation of g distinct values,
//! the granularity). Leaves evaluate exactly, so depth h always decides correctly and the
//! deepest heuristic search is d = h - 1.
//!
//! **Pathological** cell: `D(h - 1, h) < D(1, h)`. Every value is exact for the quantized
//! evaluation (f64 within its printed bound); no continuous limit is involved. The claims
//! ([`PhaseDiagram::claim_families`]) are signs of continuous effects per setting, decided by
//! [`crate::report::claims`], never counts of cells.

use num_rational::BigRational;

use crate::analytic::closed_form::w_b;
use crate::analytic::distributions::request::{DistributionRequest, GameSpec, LeafLaw, ModelSpec};
use crate::error::Result;
use crate::numeric::number::{parse_rational, short_text};
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence};
use crate::report::figure::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel};
use crate::report::{Cell, Column, Kind, Report, Table};

use super::critical_curves::yes_no;

/// The branching factors and their heights.
pub const BRANCHINGS: [u32; 2] = [2, 3];
/// The heights for b = 2 and b = 3.
pub const HEIGHTS: [u32; 2] = [10, 7];
/// The noise levels (in units of the spacing of the true values).
pub const SIGMAS: [&str; 5] = ["0.125", "0.25", "0.5", "1", "2"];
/// The granularities g.
pub const GRANULARITIES: [u32; 8] = [2, 3, 4, 6, 8, 16, 32, 64];

/// The leaf laws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaves {
    /// `+1` with probability `w_b`, `-1` otherwise.
    TwoValued,
    /// `0, 1, 2, 3, 4`, each with probability 1/5.
    FiveValued,
    /// `0, 1, ..., 32`, each with probability 1/33.
    ManyValued,
}

impl Leaves {
    /// Every leaf law of the diagram, in order.
    pub const ALL: [Leaves; 3] = [Leaves::TwoValued, Leaves::FiveValued, Leaves::ManyValued];

    /// The name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Leaves::TwoValued => "two-valued (win/loss, p = w_b)",
            Leaves::FiveValued => "five-valued (0..4 uniform)",
            Leaves::ManyValued => "33-valued (0..32 uniform)",
        }
    }

    /// The number of distinct leaf values.
    pub fn values(self) -> u32 {
        match self {
            Leaves::TwoValued => 2,
            Leaves::FiveValued => 5,
            Leaves::ManyValued => 33,
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
        Leaves::FiveValued | Leaves::ManyValued => {
            let n = leaves.values();
            (
                LeafLaw::Given(
                    (0..n)
                        .map(|v| (q(&v.to_string()), q(&format!("1/{n}"))))
                        .collect(),
                ),
                (q("0"), q(&(n - 1).to_string())),
            )
        }
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
    /// assert_eq!(diagram.cells.len(), 2 * 3 * 5 * 8);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`DistributionRequest::outcome`].
    pub fn compute_at(heights: &[u32; 2]) -> Result<PhaseDiagram> {
        let mut cells = Vec::new();
        for (&b, &h) in BRANCHINGS.iter().zip(heights) {
            for leaves in Leaves::ALL {
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

    /// The report: table `phase` (one row per cell) and table `claims`.
    pub fn report(&self) -> Report {
        let families = self.claim_families();
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
            .with_table(crate::report::claims::claims_table(&families))
            .with_table(crate::report::claims::summary_table(&families))
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

    fn cell(&self, b: u32, leaves: Leaves, sigma: &str, g: u32) -> Option<&PhaseCell> {
        self.cells.iter().find(|c| {
            c.branching == b && c.leaves == leaves && c.sigma == sigma && c.granularity == g
        })
    }

    /// The claims, decided by [`ClaimFamily`] on exact values of the quantized model (each an
    /// `f64` enclosure of a continuous effect; a verdict states its margin, and an enclosure
    /// that holds 0 is undecided). `fall = D(1,h) - D(h-1,h)`, positive where the cell is
    /// pathological.
    ///
    /// - Low granularity (Nau et al. 2010), per (b, leaves, sigma): `fall(g = 4) - fall(g =
    ///   64) > 0`.
    /// - High branching factor (Nau et al. 2010), per (leaves, sigma): the mean over g of
    ///   `fall(b = 3) - fall(b = 2)` is above 0 (h = 7 against h = 10: trees of 2,187 and
    ///   1,024 leaves).
    /// - Enough distinct values remove pathology (Luštrek, Bratko & Gams 2012), per (b, leaves
    ///   with 5 or 33 values, sigma), at g = 64: `D(h-1,h) - D(1,h) > 0`.
    /// - Two-valued P-games are pathological (Pearl; Nau), per (b, sigma), at g = 64:
    ///   `D(h-1,h) - D(1,h) < 0`.
    pub fn claim_families(&self) -> Vec<ClaimFamily> {
        let fall = |c: &PhaseCell| c.first - c.deepest;
        let bounded = |value: f64, bound: f64| Evidence::Exact(Cell::Bounded { value, bound });
        let (coarse, fine) = (4, GRANULARITIES[GRANULARITIES.len() - 1]);
        let mut granularity = ClaimFamily::new("low granularity: larger fall", 0.05);
        let mut branching = ClaimFamily::new("b = 3: larger fall than b = 2", 0.05);
        let mut values = ClaimFamily::new("many values: no pathology", 0.05);
        let mut two = ClaimFamily::new("two-valued P-games: pathology", 0.05);
        for b in BRANCHINGS {
            for leaves in Leaves::ALL {
                for sigma in SIGMAS {
                    let (Some(c), Some(f)) = (
                        self.cell(b, leaves, sigma, coarse),
                        self.cell(b, leaves, sigma, fine),
                    ) else {
                        continue;
                    };
                    let setting = format!("b = {b}, {} values, sigma = {sigma}", leaves.values());
                    granularity.push(Claim::new(
                        setting.clone(),
                        "Nau et al. 2010, Sec. 4",
                        format!("fall(g = {coarse}) - fall(g = {fine})"),
                        Direction::Greater,
                        bounded(fall(c) - fall(f), 2.0 * (c.bound + f.bound)),
                    ));
                    let at_fine = bounded(f.deepest - f.first, 2.0 * f.bound);
                    match leaves {
                        Leaves::TwoValued => two.push(Claim::new(
                            setting,
                            "Pearl 1983; Nau 1982",
                            format!("D(h-1,h) - D(1,h) at g = {fine}"),
                            Direction::Less,
                            at_fine,
                        )),
                        _ => values.push(Claim::new(
                            setting,
                            "Luštrek, Bratko & Gams 2012",
                            format!("D(h-1,h) - D(1,h) at g = {fine}"),
                            Direction::Greater,
                            at_fine,
                        )),
                    }
                }
            }
        }
        for leaves in Leaves::ALL {
            for sigma in SIGMAS {
                let pairs: Vec<(&PhaseCell, &PhaseCell)> = GRANULARITIES
                    .iter()
                    .filter_map(|&g| {
                        Some((
                            self.cell(BRANCHINGS[1], leaves, sigma, g)?,
                            self.cell(BRANCHINGS[0], leaves, sigma, g)?,
                        ))
                    })
                    .collect();
                if pairs.is_empty() {
                    continue;
                }
                let n = pairs.len() as f64;
                let mean = pairs.iter().map(|(x, y)| fall(x) - fall(y)).sum::<f64>() / n;
                let bound = pairs
                    .iter()
                    .map(|(x, y)| 2.0 * (x.bound + y.bound))
                    .fold(0.0, f64::max);
                branching.push(Claim::new(
                    format!("{} values, sigma = {sigma}", leaves.values()),
                    "Nau et al. 2010, Sec. 4",
                    "mean over g of fall(b = 3) - fall(b = 2)",
                    Direction::Greater,
                    bounded(mean, bound),
                ));
            }
        }
        vec![granularity, branching, values, two]
    }

    /// Figure data: one panel per (b, leaves), `D(h-1,h) - D(1,h)` against `log2 g`, one
    /// series per sigma; below the dashed zero line is pathological.
    pub fn panels(&self) -> Vec<Panel> {
        let mut panels = Vec::new();
        for (b, h) in BRANCHINGS.iter().zip(self.heights()) {
            for leaves in Leaves::ALL {
                let series: Vec<ErrorSeries> = SIGMAS
                    .iter()
                    .map(|&sigma| ErrorSeries {
                        label: format!("noise sigma = {sigma}"),
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
                // Room below the curves for the legend (the figure shares one y range across
                // its panels, the widest of them).
                let span = (hi - lo).max(0.01);
                let (lo, hi) = (lo - 0.45 * span, hi + 0.05 * span);
                panels.push(Panel {
                    axes: Axes {
                        title: format!("P-game b = {b}, h = {h}, {}", leaves.name()),
                        x_label: "log2 g (g evaluation levels; value + N(0, sigma^2), quantized)"
                            .to_string(),
                        y_label: "D(h-1,h) - D(1,h); below 0: pathological".to_string(),
                        x_range: (
                            0.8,
                            f64::from(GRANULARITIES[GRANULARITIES.len() - 1]).log2() + 0.2,
                        ),
                        y_range: (lo, hi),
                    },
                    series,
                    // The panels share their series: one legend, in the first panel.
                    legend: if panels.is_empty() {
                        LegendPosition::LowerRight
                    } else {
                        LegendPosition::Hidden
                    },
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
        for leaves in Leaves::ALL {
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
        assert_eq!(diagram.cells.len(), 240);
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
        assert_eq!(report.table("phase").unwrap().rows.len(), 240);
        // 30 granularity + 15 branching + 20 many-valued + 10 two-valued claims.
        assert_eq!(report.table("claims").unwrap().rows.len(), 75);
        assert_eq!(report.manifest.command_line(), "pathology reproduce");
        assert_eq!(diagram.panels().len(), 6);
        assert_eq!(grid_text(&diagram).lines().count(), 31);
    }

    /// Issue 35, item 1: the diagram reaches the boundary the old claims denied. With 33
    /// equally spaced leaf values and sigma = 2 spacings, D rises with d at fine granularity
    /// (not pathological) and coarse bins bring pathology back; the docs quote the claims
    /// table's rows and no longer credit sibling similarity to Luštrek et al.
    #[test]
    fn many_values_remove_pathology_and_coarse_bins_bring_it_back() {
        let diagram = PhaseDiagram::compute().unwrap();
        for b in BRANCHINGS {
            let fine = diagram.cell(b, Leaves::ManyValued, "2", 64).unwrap();
            assert!(fine.deepest > fine.first + 2.0 * fine.bound, "{fine:?}");
            let coarse = diagram.cell(b, Leaves::ManyValued, "2", 8).unwrap();
            assert!(coarse.pathological(), "{coarse:?}");
        }
        let rows = crate::report::claims::markdown_rows(&diagram.claim_families());
        for row in &rows {
            println!("{row}");
        }

        let docs = include_str!("../../docs/distributions.md");
        for row in &rows {
            assert!(
                docs.contains(row.as_str()),
                "docs/distributions.md lacks: {row}"
            );
        }
        for old in [
            "Their models build values with similarity between siblings",
            "**no** as a phase boundary",
            "pathology is a property of the game, not of the",
        ] {
            assert!(!docs.contains(old), "{old}");
        }
    }
}
