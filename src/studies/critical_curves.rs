//! D against the search depth d on Nguyen & Ramanujan's critical win-loss game (ICAPS 2024,
//! arXiv 2212.05208, Section 3's game family; the settings of their Figure 5 as the authors'
//! code `mcts-lp` runs them: b in {2, 5, 8}, gamma in {0.9, 1}, the Gaussian and the
//! expected-playout heuristics), computed exactly by [`crate::analytic::distributions`]
//! (formula of `critical.rs`: `X_won' = X_lost (gamma X_won + (1 - gamma) X_lost)^(b-1)`,
//! `X_lost' = X_won^b`, and the root-decision sum), here with **depth-d minimax** in place of
//! the paper's UCT.
//!
//! **Settings.** The root's rate is mcts-lp's (1: exactly one winning root move, so `D(d)`
//! equals the unconditional probability of a winning move); the mover's rate `gamma` at every
//! other won node; heights `H` ([`REDUCED_HEIGHT`], and the paper's [`FULL_HEIGHT`] with `pathology reproduce --full`). Evaluations: Gaussian `v +
//! N(0, sigma^2)` on the true values `v = -1, +1` for sigma in {0.25, 0.5, 1, 2}, computed as
//! the exact value of the evaluation quantized to the engine's 1000 bins, with the change at
//! 2000 bins reported as an **estimate** of the distance to the continuous limit (never a
//! bound); and the expected-playout value (the probability that uniformly random play from the
//! node ends in a win for Max, exact from the game's parameters).
//!
//! **Claims** ([`CriticalStudy::claim_families`], table `claims`, decided by
//! [`crate::report::claims`]): the paper's statements are about UCT; the claims table carries
//! them over to minimax and says so. Each is a sign of a continuous effect per setting, exact
//! for the quantized model with its margin: pathology at gamma = 1 (`D(H-1) - D(1) < 0`); a
//! smaller rate (0.9) weakens it (the mean over `d < H` of `D_0.9(d) - D_1(d)` is positive);
//! and Nau et al. (2010)'s "more likely when the branching factor is high" (the fall
//! `D(1) - D(H-1)` is larger at b = 8 than at b = 2). An effect within the estimated
//! quantization error is "not testable here".

use num_rational::BigRational;

use crate::analytic::distributions::PlayoutFormula;
use crate::analytic::distributions::request::{DistributionRequest, GameSpec, ModelSpec};
use crate::error::Result;
use crate::numeric::number::parse_rational;
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence};
use crate::report::figure::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel, Scale};
use crate::report::{Cell, Column, Kind, Report, Table};

/// The branching factors of the study (the paper's Figure 5).
pub const BRANCHINGS: [u32; 3] = [2, 5, 8];
/// The critical rates of the study.
pub const GAMMAS: [&str; 2] = ["0.9", "1"];
/// The terminal depth H of `pathology reproduce`.
pub const REDUCED_HEIGHT: u32 = 20;
/// The terminal depth H of `pathology reproduce --full` (the paper's Figure 5).
pub const FULL_HEIGHT: u32 = 50;
/// The Gaussian noise levels of the study.
pub const SIGMAS: [&str; 4] = ["0.25", "0.5", "1", "2"];

/// One heuristic of the study.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heuristic {
    /// `v + N(0, sigma^2)`, sigma as text.
    Gaussian(&'static str),
    /// The expected-playout value.
    ExpectedPlayout,
}

impl Heuristic {
    /// Every heuristic of the study, in order.
    pub fn all() -> Vec<Heuristic> {
        SIGMAS
            .iter()
            .map(|s| Heuristic::Gaussian(s))
            .chain([Heuristic::ExpectedPlayout])
            .collect()
    }

    /// The legend entry.
    pub fn label(&self) -> String {
        match self {
            Heuristic::Gaussian(s) => format!("gaussian sigma = {s}"),
            Heuristic::ExpectedPlayout => "expected playout".to_string(),
        }
    }
}

/// One curve: `D(d)` for `d = 1..=H` of one setting.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// b.
    pub branching: u32,
    /// gamma (both movers), as text.
    pub gamma: &'static str,
    /// The heuristic.
    pub heuristic: Heuristic,
    /// `D(d)`, `d = 1..=H` (f64, within `bound`).
    pub decision: Vec<f64>,
    /// The largest rounding bound of `decision`.
    pub bound: f64,
    /// Gaussian: the estimate of the distance to the continuous limit
    /// ([`crate::analytic::distributions::continuous_limit_estimate`]: twice the largest change
    /// of `D` between 1000 and 2000 bins; not a bound).
    pub continuous_gap: Option<f64>,
}

impl Curve {
    /// `D(H - 1) < D(1)`, by more than the two values' rounding bounds.
    pub fn pathological(&self) -> bool {
        let h = self.decision.len();
        h >= 2 && self.decision[h - 2] + 2.0 * self.bound < self.decision[0]
    }

    /// The mean over `d = 2..H-1` of the fraction of its possible fall that the curve has
    /// made by depth d, `(D(1) - D(d)) / (D(1) - 1/b)` (1/b: a random move), with a rigorous
    /// bound on its rounding error; `None` when `D(1)` is within its bound of 1/b (no fall is
    /// possible). Unlike the fall to `D(H-1)`, it does not saturate where the curve reaches
    /// 1/b: a curve that gets there sooner scores more.
    pub fn mean_fall_fraction(&self) -> Option<(f64, f64)> {
        let h = self.decision.len();
        let floor = 1.0 / f64::from(self.branching);
        let floor_error = floor * f64::EPSILON;
        let possible = self.decision[0] - floor;
        let possible_error = self.bound + floor_error;
        if h < 3 || possible <= 2.0 * possible_error {
            return None;
        }
        let depths = &self.decision[1..h - 1];
        let mean = depths
            .iter()
            .map(|d| (self.decision[0] - d) / possible)
            .sum::<f64>()
            / depths.len() as f64;
        // Each term n/m with |dn| <= 2 bound, |dm| <= possible_error, |n| <= 1: its error is
        // at most (2 bound + possible_error) / (m - possible_error); f64 rounding of the
        // terms and the mean adds a few ulps of values below 2 (a generous 1e-14).
        let bound = (2.0 * self.bound + possible_error) / (possible - possible_error) + 1e-14;
        Some((mean, bound))
    }

    /// `D(1) - min_{d < H} D(d)` (zero when no depth is worse than d = 1).
    pub fn drop(&self) -> f64 {
        let h = self.decision.len();
        let inner = &self.decision[..h.saturating_sub(1).max(1)];
        (self.decision[0] - inner.iter().copied().fold(f64::INFINITY, f64::min)).max(0.0)
    }
}

/// The study at one height.
#[derive(Debug, Clone, PartialEq)]
pub struct CriticalStudy {
    /// The terminal depth H.
    pub height: u32,
    /// Every curve, by b, then gamma, then heuristic.
    pub curves: Vec<Curve>,
}

fn q(text: &str) -> BigRational {
    parse_rational(text).expect("a constant of the study")
}

/// The request of one setting (every depth, f64).
///
/// # Examples
///
/// ```
/// use pathology::studies::critical_curves::{Heuristic, request};
/// let r = request(5, 20, "0.9", &Heuristic::Gaussian("0.5"));
/// assert_eq!(r.parameters()[0], ("game".to_string(), "crit".to_string()));
/// ```
pub fn request(
    branching: u32,
    height: u32,
    gamma: &str,
    heuristic: &Heuristic,
) -> DistributionRequest {
    DistributionRequest {
        game: GameSpec::Critical {
            gamma_max: q(gamma),
            gamma_min: q(gamma),
            root_gamma: None,
        },
        branching,
        height,
        depth: None,
        model: match heuristic {
            Heuristic::Gaussian(sigma) => ModelSpec::Gaussian { sigma: q(sigma) },
            Heuristic::ExpectedPlayout => ModelSpec::ExpectedPlayout(PlayoutFormula::RandomPlay),
        },
        levels: None,
        range: None,
        exact: false,
    }
}

impl CriticalStudy {
    /// Computes every curve at terminal depth `height`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::critical_curves::CriticalStudy;
    /// let study = CriticalStudy::compute(6).unwrap();
    /// assert_eq!(study.curves.len(), 30);
    /// // Searching to the terminal depth always finds the winning move.
    /// assert!(study.curves.iter().all(|c| (c.decision[5] - 1.0).abs() < 1e-9));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`DistributionRequest::outcome`] (a height past the limits is refused).
    pub fn compute(height: u32) -> Result<CriticalStudy> {
        let mut curves = Vec::new();
        for b in BRANCHINGS {
            for gamma in GAMMAS {
                for heuristic in Heuristic::all() {
                    let outcome = request(b, height, gamma, &heuristic).outcome::<f64>()?;
                    let rows = &outcome.column.rows;
                    let continuous_gap = outcome.refined.as_ref().map(|refined| {
                        crate::analytic::distributions::continuous_limit_estimate(
                            rows.iter()
                                .zip(&refined.rows)
                                .map(|(a, b)| a.decision.value - b.decision.value),
                        )
                    });
                    curves.push(Curve {
                        branching: b,
                        gamma,
                        heuristic,
                        decision: rows.iter().map(|r| r.decision.value).collect(),
                        bound: rows.iter().map(|r| r.decision.bound).fold(0.0, f64::max),
                        continuous_gap,
                    });
                }
            }
        }
        Ok(CriticalStudy { height, curves })
    }

    fn curve(&self, b: u32, gamma: &str, heuristic: &Heuristic) -> Option<&Curve> {
        self.curves
            .iter()
            .find(|c| c.branching == b && c.gamma == gamma && &c.heuristic == heuristic)
    }

    /// The report: table `curves` (one row per setting and depth) and table `claims`.
    pub fn report(&self) -> Report {
        let h = self.height;
        let families = self.claim_families();
        let mut curves = Table::new(
            "curves",
            &format!("D(d) of the critical game, H = {h}, depth-d minimax (exact engine, f64)"),
            vec![
                Column::key("b", Kind::Integer),
                Column::key("gamma", Kind::Text),
                Column::key("evaluator", Kind::Text),
                Column::key("d", Kind::Integer),
                Column::new("D", Kind::Real),
            ],
        );
        for c in &self.curves {
            for (d, value) in (1..).zip(&c.decision) {
                curves.push(vec![
                    Cell::int(c.branching),
                    Cell::text(c.gamma),
                    Cell::text(c.heuristic.label()),
                    Cell::int(d),
                    Cell::Bounded {
                        value: *value,
                        bound: c.bound,
                    },
                ]);
            }
        }
        let mut summary = Table::new(
            "settings",
            &format!("per setting: D(1), D(H - 1), the drop D(1) - min D(d<H), H = {h}"),
            vec![
                Column::key("b", Kind::Integer),
                Column::key("gamma", Kind::Text),
                Column::key("evaluator", Kind::Text),
                Column::new("D(1)", Kind::Real),
                Column::new("D(H-1)", Kind::Real),
                Column::new("drop", Kind::Real),
                Column::new("pathological", Kind::Text),
                Column::new("bins_gap_estimate", Kind::Text),
            ],
        );
        for c in &self.curves {
            summary.push(vec![
                Cell::int(c.branching),
                Cell::text(c.gamma),
                Cell::text(c.heuristic.label()),
                Cell::Real(c.decision[0]),
                Cell::Real(c.decision[c.decision.len().saturating_sub(2)]),
                Cell::Real(c.drop()),
                Cell::text(yes_no(c.pathological())),
                Cell::text(
                    c.continuous_gap
                        .map_or("exact".to_string(), |g| format!("{g:.1e}")),
                ),
            ]);
        }
        let gap = self
            .curves
            .iter()
            .filter_map(|c| c.continuous_gap)
            .fold(0.0, f64::max);
        let bound = self.curves.iter().map(|c| c.bound).fold(0.0, f64::max);
        // No subcommand computes this study alone: `pathology reproduce` writes it (H =
        // REDUCED_HEIGHT, `--full`: FULL_HEIGHT), and the manifest names that command.
        Report::new(
            "reproduce",
            &format!("D against d on the critical win-loss game, H = {h}"),
        )
        .param("full", h == FULL_HEIGHT)
        .mode("f64")
            .with_table(curves)
            .with_table(summary)
            .with_table(crate::report::claims::claims_table(&families))
            .with_table(crate::report::claims::summary_table(&families))
            .note(format!(
                "f64 values within {bound:.1e} of the quantized model's exact value; Gaussian: the \
                 evaluation quantized to 1000 bins, twice the largest change at 2000 bins, \
                 {gap:.1e}, estimates the distance to the continuous limit (not a bound)"
            ))
            .note("root rate 1 (mcts-lp): exactly one winning root move, so D(d) is also the probability of a winning move")
    }

    /// The evidence for a claim about `effect` (a difference of two curves' values, each
    /// within `bound`): exact for the quantized model, but not testable where every curve is
    /// D = 1 at every depth (the evaluator decides perfectly, so there is no fall to test),
    /// nor where the effect is within the sum of the curves' estimated distances to the
    /// continuous Gaussian (a verdict that small could be the quantization's: the effect
    /// combines both curves, so both their errors).
    fn evidence(effect: f64, bound: f64, curves: &[&Curve]) -> Evidence {
        let gap: f64 = curves.iter().filter_map(|c| c.continuous_gap).sum();
        Self::evidence_with_gap(effect, bound, gap, curves)
    }

    /// [`Self::evidence`] with the quantization error `gap` of the effect given (for an effect
    /// that is not a plain difference of D values).
    fn evidence_with_gap(effect: f64, bound: f64, gap: f64, curves: &[&Curve]) -> Evidence {
        if curves
            .iter()
            .all(|c| c.decision.iter().all(|&d| d >= 1.0 - c.bound))
        {
            return Evidence::NotTestable(
                "D = 1 at every depth: this evaluator decides perfectly here, so there is no \
                 fall to test"
                    .to_string(),
            );
        }
        if gap > 0.0 && effect.abs() <= gap {
            return Evidence::NotTestable(format!(
                "the effect {effect:.2e} is within the estimated quantization error {gap:.2e}"
            ));
        }
        Evidence::Exact(Cell::Bounded {
            value: effect,
            bound,
        })
    }

    /// The claims, decided by [`ClaimFamily`]: exact values of the quantized model, each
    /// verdict by the sign of a continuous effect with its margin (never a count of settings).
    ///
    /// - Pathology at gamma = 1, per b and heuristic: `D(H-1) - D(1) < 0`.
    /// - gamma = 0.9 weakens it, per b and heuristic: the mean over `d < H` of
    ///   `D_0.9(d) - D_1(d)` is above 0 (the area between the curves, which does not saturate
    ///   where both curves reach 1/b).
    /// - More pathology at larger b, per gamma and heuristic: the mean fraction of the possible
    ///   fall made by each depth ([`Curve::mean_fall_fraction`]) at b = 8 minus at b = 2 is
    ///   above 0. (The fall `D(1) - D(H-1)` saturated: where both curves end at 1/b it only
    ///   compares the depth-1 accuracies.)
    pub fn claim_families(&self) -> Vec<ClaimFamily> {
        let h = self.height as usize;
        let source_nr = "N&R 2024, Fig. 5 (for UCT; here minimax)";
        let mut pathology = ClaimFamily::new("gamma = 1: pathology", 0.05);
        let mut weaker = ClaimFamily::new("gamma = 0.9 weakens it", 0.05);
        let mut branching = ClaimFamily::new("larger b: larger fall", 0.05);
        for b in BRANCHINGS {
            for heuristic in Heuristic::all() {
                let Some(one) = self.curve(b, "1", &heuristic) else {
                    continue;
                };
                let fall = one.decision[h - 2] - one.decision[0];
                pathology.push(Claim::new(
                    format!("b = {b}, {}", heuristic.label()),
                    source_nr,
                    "D(H-1) - D(1)",
                    Direction::Less,
                    Self::evidence(fall, 2.0 * one.bound, &[one]),
                ));
                if let Some(nine) = self.curve(b, "0.9", &heuristic) {
                    let n = (h - 1) as f64;
                    let area = (0..h - 1)
                        .map(|d| nine.decision[d] - one.decision[d])
                        .sum::<f64>()
                        / n;
                    weaker.push(Claim::new(
                        format!("b = {b}, {}", heuristic.label()),
                        source_nr,
                        "mean over d < H of D_0.9(d) - D_1(d)",
                        Direction::Greater,
                        Self::evidence(area, nine.bound + one.bound, &[nine, one]),
                    ));
                }
            }
        }
        for gamma in GAMMAS {
            for heuristic in Heuristic::all() {
                let (Some(small), Some(large)) = (
                    self.curve(BRANCHINGS[0], gamma, &heuristic),
                    self.curve(BRANCHINGS[2], gamma, &heuristic),
                ) else {
                    continue;
                };
                let quantity =
                    "mean over 1 < d < H of [D(1) - D(d)] / [D(1) - 1/b]: b = 8 minus b = 2";
                let evidence = match (large.mean_fall_fraction(), small.mean_fall_fraction()) {
                    (Some((a, bound_a)), Some((b, bound_b))) => {
                        // The quantization error of each fraction is at most about twice
                        // its curve's distance estimate over its possible fall.
                        let scaled = |c: &Curve| {
                            c.continuous_gap.map_or(0.0, |g| {
                                2.0 * g / (c.decision[0] - 1.0 / f64::from(c.branching))
                            })
                        };
                        Self::evidence_with_gap(
                            a - b,
                            bound_a + bound_b,
                            scaled(large) + scaled(small),
                            &[large, small],
                        )
                    }
                    _ => Evidence::NotTestable(
                        "D(1) is 1/b (a random move): no fall is possible".to_string(),
                    ),
                };
                branching.push(Claim::new(
                    format!("gamma = {gamma}, {}", heuristic.label()),
                    "Nau et al. 2010, Sec. 6",
                    quantity,
                    Direction::Greater,
                    evidence,
                ));
            }
        }
        vec![pathology, weaker, branching]
    }

    /// One Markdown row per claim family for the docs (`docs/distributions.md` quotes them, and
    /// a test checks that it quotes exactly these): the verdicts of its claims, split into the
    /// Gaussian settings and expected playout, with the range of the Gaussian effects.
    pub fn summary_rows(&self) -> Vec<String> {
        use crate::report::claims::Verdict;
        self.claim_families()
            .iter()
            .map(|family| {
                let decided = family.decide();
                let mut parts = Vec::new();
                for (label, gaussian) in [("Gaussian", true), ("expected playout", false)] {
                    let of: Vec<_> = decided
                        .iter()
                        .filter(|d| d.claim.statement.contains("gaussian") == gaussian)
                        .collect();
                    let mut counts = Vec::new();
                    for verdict in [
                        Verdict::Holds,
                        Verdict::Fails,
                        Verdict::Undecided,
                        Verdict::NotTestable,
                    ] {
                        let n = of.iter().filter(|d| d.verdict == verdict).count();
                        if n > 0 {
                            counts.push(format!("{} {n}", verdict.word()));
                        }
                    }
                    let effects: Vec<f64> = of
                        .iter()
                        .filter(|d| d.verdict != Verdict::NotTestable)
                        .filter_map(|d| d.effect.to_f64())
                        .collect();
                    let range = if effects.is_empty() {
                        String::new()
                    } else {
                        let (low, high) = effects
                            .iter()
                            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| {
                                (l.min(x), h.max(x))
                            });
                        format!("; effect {low:.4} to {high:.4}")
                    };
                    parts.push(format!(
                        "{label} ({} settings): {}{range}",
                        of.len(),
                        counts.join(", ")
                    ));
                }
                format!(
                    "| {} | `{}` | {} |",
                    family.name,
                    family.claims[0].quantity,
                    parts.join(". ")
                )
            })
            .collect()
    }

    /// Figure data: one panel per b at critical rate `gamma`, one series per heuristic (the
    /// exact curves, drawn as lines through points without intervals).
    pub fn panels(&self, gamma: &str) -> Vec<Panel> {
        BRANCHINGS
            .iter()
            .map(|&b| {
                let series: Vec<ErrorSeries> = Heuristic::all()
                    .iter()
                    .filter_map(|heuristic| self.curve(b, gamma, heuristic))
                    .map(|c| ErrorSeries {
                        label: c.heuristic.label(),
                        points: (1..)
                            .zip(&c.decision)
                            .map(|(d, &y)| ErrorPoint {
                                x: f64::from(d),
                                y,
                                low: y,
                                high: y,
                            })
                            .collect(),
                    })
                    .collect();
                Panel {
                    axes: Axes {
                        title: format!(
                            "critical game, b = {b}, gamma = {gamma}, H = {}",
                            self.height
                        ),
                        x_label: "search depth d".to_string(),
                        y_label: "D(d) (exact)".to_string(),
                        x_range: (0.5, f64::from(self.height) + 0.5),
                        x_scale: Scale::Linear,
                        y_range: (0.0, 1.0),
                    },
                    series,
                    // The panels share their series: one legend, where the curves leave room
                    // at every gamma (b = 2's curves stay above 1/2).
                    legend: if b == BRANCHINGS[0] {
                        LegendPosition::LowerLeft
                    } else {
                        LegendPosition::Hidden
                    },
                    reference: None,
                }
            })
            .collect()
    }
}

/// `yes` or `no`.
pub(crate) fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves_end_at_one_and_perfect_terminal_search() {
        let study = CriticalStudy::compute(5).unwrap();
        assert_eq!(study.curves.len(), 30);
        for c in &study.curves {
            assert_eq!(c.decision.len(), 5);
            assert!((c.decision[4] - 1.0).abs() <= 1e-9 + c.bound, "{c:?}");
            assert!(c.decision.iter().all(|d| (0.0..=1.0 + 1e-9).contains(d)));
            assert_eq!(
                c.continuous_gap.is_some(),
                c.heuristic != Heuristic::ExpectedPlayout
            );
        }
        let report = study.report();
        assert_eq!(report.table("curves").unwrap().rows.len(), 150);
        assert_eq!(report.table("claims").unwrap().rows.len(), 40);
        assert_eq!(report.manifest.command_line(), "pathology reproduce");
        assert_eq!(study.panels("1").len(), 3);
    }

    /// At the reduced height of `reproduce`: gamma = 0.9 raises D
    /// in every Gaussian setting (it was "partly", from a drop that saturates where both rates
    /// reach 1/b); "more at larger b" is decided per setting by the size of the fall, not by
    /// counting pathological settings; and D(H-1) does not fall to 1/b everywhere (b = 2,
    /// sigma = 0.25 stays near 1), so no claim or doc may say it does.
    #[test]
    fn claims_are_signs_of_continuous_effects() {
        use crate::report::claims::Verdict;
        let study = CriticalStudy::compute(REDUCED_HEIGHT).unwrap();
        let families = study.claim_families();
        let sizes: Vec<usize> = families.iter().map(|f| f.claims.len()).collect();
        assert_eq!(sizes, [15, 15, 10]);
        let verdicts = |f: &ClaimFamily| -> Vec<(String, Verdict)> {
            f.decide()
                .into_iter()
                .map(|d| (d.claim.statement, d.verdict))
                .collect()
        };
        for (statement, verdict) in verdicts(&families[1]) {
            if statement.contains("gaussian") {
                assert_eq!(verdict, Verdict::Holds, "{statement}");
            } else {
                assert_eq!(verdict, Verdict::NotTestable, "{statement}"); // both D = 1
            }
        }
        for (statement, verdict) in verdicts(&families[0]) {
            let expected = if statement.contains("gaussian") {
                Verdict::Holds
            } else {
                Verdict::NotTestable // expected playout: D = 1 at every depth, nothing to fall
            };
            assert_eq!(verdict, expected, "{statement}");
        }
        // The b claims follow the sign of the fall's difference, setting by setting.
        let h = REDUCED_HEIGHT as usize;
        for (claim, decided) in families[2].claims.iter().zip(families[2].decide()) {
            let gamma = if claim.statement.contains("gamma = 0.9") {
                "0.9"
            } else {
                "1"
            };
            let heuristic = Heuristic::all()
                .into_iter()
                .find(|x| claim.statement.ends_with(&x.label()))
                .unwrap();
            let fraction = |b| {
                let c = study.curve(b, gamma, &heuristic).unwrap();
                let floor = 1.0 / f64::from(b);
                (1..h - 1)
                    .map(|d| (c.decision[0] - c.decision[d]) / (c.decision[0] - floor))
                    .sum::<f64>()
                    / (h - 2) as f64
            };
            if heuristic == Heuristic::ExpectedPlayout {
                assert_eq!(decided.verdict, Verdict::NotTestable, "{claim:?}");
                continue;
            }
            let effect = fraction(8) - fraction(2);
            match decided.verdict {
                Verdict::Holds => assert!(effect > 0.0, "{claim:?}"),
                Verdict::Fails => assert!(effect <= 0.0, "{claim:?}"),
                _ => {}
            }
        }
        let c = study.curve(2, "1", &Heuristic::Gaussian("0.25")).unwrap();
        assert!(c.decision[h - 2] > 0.99, "{}", c.decision[h - 2]);
        for row in study.summary_rows() {
            println!("{row}");
        }
        // The docs state what this table prints, and nothing else.
        let docs = include_str!("../../docs/distributions.md");
        for row in study.summary_rows() {
            assert!(docs.contains(&row), "docs/distributions.md lacks: {row}");
        }
        let readme = include_str!("../../README.md");
        for old in [
            "towards 1/b",
            "weakens this in 6 of 12",
            "**partly**: the drop",
        ] {
            assert!(!readme.contains(old) && !docs.contains(old), "{old}");
        }
    }

    #[test]
    fn the_curves_are_the_engines_values() {
        let study = CriticalStudy::compute(4).unwrap();
        let c = study.curve(5, "0.9", &Heuristic::Gaussian("0.5")).unwrap();
        let direct = request(5, 4, "0.9", &Heuristic::Gaussian("0.5"))
            .outcome::<f64>()
            .unwrap();
        let values: Vec<f64> = direct
            .column
            .rows
            .iter()
            .map(|r| r.decision.value)
            .collect();
        assert_eq!(c.decision, values);
    }

    #[test]
    fn pathology_and_drop_follow_their_definitions() {
        let curve = |decision: Vec<f64>| Curve {
            branching: 2,
            gamma: "1",
            heuristic: Heuristic::ExpectedPlayout,
            decision,
            bound: 0.0,
            continuous_gap: None,
        };
        let c = curve(vec![0.8, 0.6, 0.7, 1.0]);
        assert!(c.pathological());
        assert!((c.drop() - 0.2).abs() < 1e-12);
        let c = curve(vec![0.6, 0.7, 0.9, 1.0]);
        assert!(!c.pathological());
        assert_eq!(c.drop(), 0.0);
    }
}
