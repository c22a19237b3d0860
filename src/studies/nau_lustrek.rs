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
use crate::report::figure::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel, Scale};
use crate::report::{Cell, Column, Kind, Report, Table};

use super::critical_curves::yes_no;

/// What the claims "b = 3: larger fall than b = 2" measure.
pub const BRANCHING_QUANTITY: &str =
    "mean over g of [D(1,h) - D(h-1,h)] / [D(1,h) - D_random]: b = 3 minus b = 2";

/// The branching factors and their heights.
pub const BRANCHINGS: [u32; 2] = [2, 3];
/// The heights for b = 2 and b = 3.
pub const HEIGHTS: [u32; 2] = [10, 7];
/// The noise levels, in the units of the leaf values (five and 33 values are one apart, the
/// two-valued -1 and +1 two apart).
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
    /// `D` of a move chosen at random (the same b, h and leaves at g = 1: one bin, so every
    /// evaluation ties), the floor that `D(d, h)` falls towards; not 1/b where children can
    /// share the best value.
    pub random: f64,
    /// The rounding bound of [`PhaseCell::random`].
    pub random_bound: f64,
}

impl PhaseCell {
    /// The fraction of the possible fall that the deepest search makes:
    /// `[D(1,h) - D(h-1,h)] / [D(1,h) - D_random]` with its rounding bound, or `None` where
    /// depth 1 is no better than a random move within rounding (no fall is possible). Unlike
    /// the fall itself it does not saturate where `D(h-1,h)` reaches the random move's `D`.
    pub fn fall_fraction(&self) -> Option<(f64, f64)> {
        let (numerator, numerator_bound) = (self.first - self.deepest, 2.0 * self.bound);
        let (denominator, denominator_bound) =
            (self.first - self.random, self.bound + self.random_bound);
        if denominator <= 2.0 * denominator_bound {
            return None;
        }
        let value = numerator / denominator;
        // The extremes of the quotient over the two enclosures (the denominator stays
        // positive), plus a few ulps of the division itself.
        let corners = [
            (numerator - numerator_bound) / (denominator - denominator_bound),
            (numerator - numerator_bound) / (denominator + denominator_bound),
            (numerator + numerator_bound) / (denominator - denominator_bound),
            (numerator + numerator_bound) / (denominator + denominator_bound),
        ];
        let bound = corners
            .iter()
            .map(|c| (c - value).abs())
            .fold(0.0, f64::max)
            + 4.0 * f64::EPSILON * value.abs();
        Some((value, bound))
    }

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
                // One bin: every evaluation ties and the move is chosen at random (the noise
                // does not matter then).
                let random = request(b, h, leaves, SIGMAS[0], 1)?.outcome::<f64>()?;
                let random = &random.column.rows[0].decision;
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
                            random: random.value,
                            random_bound: random.bound,
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
            .note(format!(
                "D_random, the D of a move chosen at random (g = 1: every evaluation ties), the floor D falls towards: {}",
                self.random_moves().join("; ")
            ))
    }

    /// `D_random` per (b, leaves), as text.
    fn random_moves(&self) -> Vec<String> {
        let mut out = Vec::new();
        for b in BRANCHINGS {
            for leaves in Leaves::ALL {
                if let Some(c) = self
                    .cells
                    .iter()
                    .find(|c| c.branching == b && c.leaves == leaves)
                {
                    out.push(format!(
                        "b = {b}, {} values: {:.4}",
                        leaves.values(),
                        c.random
                    ));
                }
            }
        }
        out
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
    /// - Low granularity (Nau et al. 2010), per (b, leaves, sigma): the fraction of the
    ///   possible fall at g = 4 minus at g = 64 is above 0 (the fall itself saturates as below).
    /// - High branching factor (Nau et al. 2010), per (leaves, sigma): the mean over g of the
    ///   fraction of the possible fall ([`PhaseCell::fall_fraction`]) at b = 3 minus at b = 2
    ///   is above 0 (h = 7 against h = 10: trees of 2,187 and 1,024 leaves). The fall itself
    ///   saturates: where both `D(h-1,h)` reach the random move's `D` (0.5 at b = 2; 0.44,
    ///   0.62 and 0.41 at b = 3 for 2, 5 and 33 values) it compares only the floors and the
    ///   depth-1 accuracies. Not testable where no depth falls (`D = 1` throughout).
    /// - Enough distinct values remove pathology (Luštrek, Bratko & Gams 2012), per (b, leaves
    ///   with 5 or 33 values, sigma), at g = 64: `D(h-1,h) - D(1,h) > 0`.
    /// - Two-valued P-games are pathological (Pearl; Nau), per (b, sigma), at g = 64:
    ///   `D(h-1,h) - D(1,h) < 0`.
    pub fn claim_families(&self) -> Vec<ClaimFamily> {
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
                        format!("[fall / (D(1,h) - D_random)] at g = {coarse} minus at g = {fine}"),
                        Direction::Greater,
                        Self::fraction_evidence(&[(c, f)]),
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
                branching.push(Claim::new(
                    format!("{} values, sigma = {sigma}", leaves.values()),
                    "Nau et al. 2010, Sec. 4",
                    BRANCHING_QUANTITY,
                    Direction::Greater,
                    Self::fraction_evidence(&pairs),
                ));
            }
        }
        vec![granularity, branching, values, two]
    }

    /// The evidence of a "larger fall" claim over pairs of cells `(x, y)` (b = 3 and b = 2 at
    /// each g; g = 4 and g = 64): the mean of the differences of their fall fractions
    /// ([`PhaseCell::fall_fraction`]), bounded by the mean of their bounds; not testable where
    /// no cell falls at all or where depth 1 is already no better than a random move.
    fn fraction_evidence(pairs: &[(&PhaseCell, &PhaseCell)]) -> Evidence {
        let perfect = |c: &PhaseCell| c.first >= 1.0 - c.bound && c.deepest >= 1.0 - c.bound;
        if pairs.iter().all(|(x, y)| perfect(x) && perfect(y)) {
            return Evidence::NotTestable(
                "D = 1 at depths 1 and h - 1 at every g compared: this noise never misleads \
                 the search here, so there is no fall to compare"
                    .to_string(),
            );
        }
        let mut differences = Vec::new();
        for (x, y) in pairs {
            let (Some((a, bound_a)), Some((b, bound_b))) = (x.fall_fraction(), y.fall_fraction())
            else {
                return Evidence::NotTestable(format!(
                    "at g = {} depth 1 is no better than a random move, so no fall is possible",
                    if x.fall_fraction().is_none() {
                        x.granularity
                    } else {
                        y.granularity
                    }
                ));
            };
            differences.push((a - b, bound_a + bound_b));
        }
        let n = differences.len() as f64;
        let mean = differences.iter().map(|d| d.0).sum::<f64>() / n;
        let bound = differences.iter().map(|d| d.1).sum::<f64>() / n + 4.0 * f64::EPSILON;
        Evidence::Exact(Cell::Bounded { value: mean, bound })
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
                // A margin around the curves (the figure shares one y range across its
                // panels, the widest of them; the shared legend has a cell of its own).
                let span = (hi - lo).max(0.01);
                let (lo, hi) = (lo - 0.05 * span, hi + 0.05 * span);
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
                        x_scale: Scale::Linear,
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

    /// Where both searches fall to the random move's D, the fall compares only depth-1
    /// accuracies (b = 3 would "fall more" just by deciding better at depth 1); the fraction of
    /// the possible fall is 1 for both, so the claim sees no difference. Where nothing falls,
    /// the claim is not testable, with its reason.
    #[test]
    fn larger_b_claims_compare_fractions_of_the_possible_fall() {
        let cell = |b: u32, g: u32, first: f64, deepest: f64, random: f64| PhaseCell {
            branching: b,
            height: if b == 2 { 10 } else { 7 },
            leaves: Leaves::FiveValued,
            sigma: "2",
            granularity: g,
            first,
            deepest,
            bound: 1e-12,
            random,
            random_bound: 1e-12,
        };
        // Both at their floors at every g; b = 3 decides better at depth 1.
        let mut cells = Vec::new();
        for g in GRANULARITIES {
            cells.push(cell(2, g, 0.7, 0.5, 0.5));
            cells.push(cell(3, g, 0.9, 0.62, 0.62));
        }
        let diagram = PhaseDiagram { cells };
        let families = diagram.claim_families();
        let branching = families
            .iter()
            .find(|f| f.name == "b = 3: larger fall than b = 2")
            .unwrap();
        let claim = &branching.claims[0];
        assert_eq!(claim.quantity, BRANCHING_QUANTITY);
        let Evidence::Exact(Cell::Bounded { value, bound }) = &claim.evidence else {
            panic!("{:?}", claim.evidence);
        };
        // The old effect, the difference of the falls, was 0.28 - 0.2 = 0.08 here.
        assert!(value.abs() <= *bound && *bound < 1e-9, "{value} {bound}");
        // Half the possible fall at b = 3, all of it at b = 2: -0.5.
        let half = PhaseDiagram {
            cells: GRANULARITIES
                .iter()
                .flat_map(|&g| [cell(2, g, 0.7, 0.5, 0.5), cell(3, g, 0.9, 0.76, 0.62)])
                .collect(),
        };
        let families = half.claim_families();
        let claim = &families[1].claims[0];
        let Evidence::Exact(Cell::Bounded { value, .. }) = &claim.evidence else {
            panic!("{:?}", claim.evidence);
        };
        assert!((value + 0.5).abs() < 1e-9, "{value}");
        // Low granularity: both g = 4 and g = 64 fall to the floor, g = 4 from higher up. The
        // fall (0.3 against 0.2) said "larger fall at g = 4"; the fractions are both 1.
        let coarse_first = PhaseDiagram {
            cells: GRANULARITIES
                .iter()
                .flat_map(|&g| {
                    let first = if g == 4 { 0.8 } else { 0.7 };
                    [cell(2, g, first, 0.5, 0.5), cell(3, g, 0.9, 0.62, 0.62)]
                })
                .collect(),
        };
        let families = coarse_first.claim_families();
        assert_eq!(families[0].name, "low granularity: larger fall");
        let Evidence::Exact(Cell::Bounded { value, bound }) = &families[0].claims[0].evidence
        else {
            panic!("{:?}", families[0].claims[0].evidence);
        };
        assert!(value.abs() <= *bound, "{value} {bound}");
        // Nothing falls: not testable, and the reason says why.
        let perfect = PhaseDiagram {
            cells: GRANULARITIES
                .iter()
                .flat_map(|&g| [cell(2, g, 1.0, 1.0, 0.5), cell(3, g, 1.0, 1.0, 0.62)])
                .collect(),
        };
        let families = perfect.claim_families();
        let Evidence::NotTestable(reason) = &families[1].claims[0].evidence else {
            panic!("{:?}", families[1].claims[0].evidence);
        };
        assert!(reason.contains("no fall"), "{reason}");
    }

    /// The random move's D is the engine's D at one bin, at every depth below h, and is not
    /// 1/b where children can share the best value.
    #[test]
    fn the_random_moves_d_is_the_one_bin_value() {
        let diagram = PhaseDiagram::compute_at(&[4, 3]).unwrap();
        for c in &diagram.cells {
            let one_bin = request(c.branching, c.height, c.leaves, "1", 1)
                .unwrap()
                .outcome::<f64>()
                .unwrap();
            let rows = &one_bin.column.rows;
            for row in &rows[..rows.len() - 1] {
                assert!((row.decision.value - c.random).abs() <= 2.0 * c.random_bound.max(1e-15));
            }
        }
        let five = diagram
            .cells
            .iter()
            .find(|c| c.branching == 3 && c.leaves == Leaves::FiveValued)
            .unwrap();
        assert!((five.random - 1.0 / 3.0).abs() > 0.05, "{five:?}");
    }

    /// The diagram reaches the boundary the old claims denied. With 33
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
