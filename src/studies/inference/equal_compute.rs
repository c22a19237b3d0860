//! Test-time search at equal compute (a study of `reproduce`), exactly: beam search with a
//! process reward model (PRM) against best-of-N as the PRM gets worse with depth, on an easy
//! and a hard mix (Snell, Lee, Xu & Kumar, arXiv 2408.03314, Section 5), and verifier-guided
//! lookahead against best-of-N, where the verdict depends on what is counted as compute.
//!
//! **Settings, fixed before any number was computed.** Snell et al. compare at equal
//! generation budgets (the candidates scored per step, our M B); one of their settings
//! expands each kept prefix into 4 proposals, so B = 4; solutions of L = 5 steps, widths
//! M = 1, 2, 4, 8 (budgets N = M B = 4 to 32 complete solutions' worth of steps; larger M
//! are out of the step's time), the 33-point `gaussian:1` noise law of the docs' examples
//! (a correct prefix scores 1 plus noise, so the PRM's signal is one standard deviation), and
//! G = 0 (a PRM as noisy at every depth) or G = 1/4 (its noise doubles from the first step
//! to the last, s = 1 + G (m - 1)). Snell et al. bin questions by the base model's pass@1; a
//! complete solution of our model is correct with probability `Q^L`, so the *easy* mix
//! `0.95:1/2,0.9:1/2` has pass@1 0.68 and the *hard* mix
//! `0.7:1/2,0.6:1/2` pass@1 0.12. Lookahead takes the docs'
//! example: B = 4, L = 5, Q = 0.8, `gaussian:1`, d = 1..5, at each G.
//!
//! **Equal compute, two ways.** A search generates steps and calls the verifier (module
//! `analytic::inference::compute`): beam search of width M generates and scores `L M B`
//! steps; depth-d lookahead generates `B (B^(h+1) - 1)/(B - 1)` steps and scores `B^(h+1)`
//! prefixes at each of the L prefixes (`h = min(d, L - l) - 1`). Best-of-N generates `N L`
//! steps and calls the verifier N times (one score per complete solution, at length L). So
//! at *equal generated steps* (Snell et al.'s budget) `N = steps / L` (`M B` for beam search)
//! and at *equal verifier calls* `N = calls` (`L M B`); a fractional N is met in expectation,
//! `(1 - f) P(floor N) + f P(floor N + 1)` with `f = N - floor N`.
//!
//! Every value is the exact rational of the calculators of `pathology inference beam`,
//! `lookahead` and `best-of-n`; every claim is the sign of an exact difference.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::best_of_n::shown;
use crate::analytic::inference::{
    LookaheadSearch, Spend, TaskType, Tasks, beam, best_of_n, lookahead,
};
use crate::analytic::pathsum::Law;
use crate::error::Result;
use crate::numeric::number::{parse_rational, rational_to_f64};
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence};
use crate::report::figure::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel, Scale};
use crate::report::{Cell, Column, Kind, Table};

/// B, candidates per beam (Snell et al.'s expansion) and per lookahead decision.
pub const BRANCHING: u32 = 4;
/// L, the steps of a solution.
pub const STEPS: u32 = 5;
/// The PRM's noise law.
pub const NOISE: &str = "gaussian:1";
/// The growth G of the PRM's noise with the prefix length.
pub const GROWTHS: [&str; 2] = ["0", "1/4"];
/// The difficulty mixes of beam search: a name and `--step-correct`.
pub const MIXES: [(&str, &str); 2] = [("easy", "0.95:1/2,0.9:1/2"), ("hard", "0.7:1/2,0.6:1/2")];
/// The beam widths M.
pub const WIDTHS: [u32; 4] = [1, 2, 4, 8];
/// Lookahead's Q.
pub const LOOKAHEAD_Q: &str = "0.8";

const SNELL: &str = "Snell, Lee, Xu & Kumar, arXiv 2408.03314, Section 5 (beam search against best-of-N by question difficulty)";

/// The search model at G.
fn search(q: &BigRational, growth: &str) -> Result<LookaheadSearch> {
    Ok(LookaheadSearch {
        branching: BRANCHING,
        steps: STEPS,
        step_correct: q.clone(),
        noise: Law::parse("--noise", NOISE)?,
        growth: parse_rational(growth).expect("a constant"),
    })
}

/// Best-of-N over complete solutions of `mix`, scored at length L by `search`'s verifier,
/// at every matched N of `matched` (each at least 1; a fractional N met in expectation).
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::analytic::inference::{LookaheadSearch, Tasks};
/// use pathology::analytic::pathsum::Law;
/// use pathology::numeric::number::parse_rational;
/// use pathology::studies::inference::equal_compute::best_of_matched;
/// let search = LookaheadSearch {
///     branching: 2,
///     steps: 2,
///     step_correct: parse_rational("1/2").unwrap(),
///     noise: Law::parse("--noise", "0").unwrap(), // a perfect verifier
///     growth: parse_rational("0").unwrap(),
/// };
/// let tasks = Tasks::parse_steps("1/2").unwrap();
/// let n = [BigRational::from_integer(2.into()), parse_rational("3/2").unwrap()];
/// let p = best_of_matched(&search, &tasks, &n).unwrap();
/// // Right when one of N solutions is, each with Q^L = 1/4: 1 - (3/4)^2.
/// assert_eq!(p[0].to_string(), "7/16");
/// // N = 3/2: one solution, and a second with probability 1/2.
/// assert_eq!(p[1].to_string(), "11/32");
/// ```
///
/// # Errors
///
/// As [`best_of_n`].
pub fn best_of_matched(
    search: &LookaheadSearch,
    mix: &Tasks,
    matched: &[BigRational],
) -> Result<Vec<BigRational>> {
    let whole = |n: &BigRational| n.floor().to_integer().to_u64().expect("a small N");
    let mut ns: Vec<u64> = matched
        .iter()
        .flat_map(|n| [whole(n), whole(n) + u64::from(!n.is_integer())])
        .collect();
    ns.sort_unstable();
    ns.dedup();
    let s =
        BigRational::one() + &search.growth * BigRational::from_integer((search.steps - 1).into());
    let correct = search.noise.affine(&BigRational::one(), &s);
    let wrong = search.noise.affine(&BigRational::zero(), &s);
    let solutions = Tasks::from_types(
        mix.types()
            .iter()
            .map(|t| TaskType {
                success: num_traits::pow(t.success.clone(), search.steps as usize),
                share: t.share.clone(),
            })
            .collect(),
    );
    let rows = best_of_n::<BigRational>(&solutions, &correct, &wrong, &ns)?.rows;
    let at = |w: u64| &rows[ns.binary_search(&w).expect("listed")].correct.value;
    Ok(matched
        .iter()
        .map(|n| {
            let f = n - n.floor();
            if f.is_zero() {
                at(whole(n)).clone()
            } else {
                (BigRational::one() - &f) * at(whole(n)) + f * at(whole(n) + 1)
            }
        })
        .collect())
}

/// A search's value beside best-of-N at equal generated steps and at equal verifier calls.
#[derive(Debug, Clone)]
pub struct Compared {
    /// What one run spends.
    pub spend: Spend,
    /// The search's `P_correct`.
    pub correct: BigRational,
    /// N at equal generated steps, `steps / L`.
    pub n_steps: BigRational,
    /// Best-of-N there.
    pub at_steps: BigRational,
    /// N at equal verifier calls, `calls`.
    pub n_calls: BigRational,
    /// Best-of-N there.
    pub at_calls: BigRational,
}

impl Compared {
    /// `P_search - P_best-of-N` at equal generated steps.
    pub fn lead_steps(&self) -> BigRational {
        &self.correct - &self.at_steps
    }

    /// `P_search - P_best-of-N` at equal verifier calls.
    pub fn lead_calls(&self) -> BigRational {
        &self.correct - &self.at_calls
    }
}

/// Best-of-N beside every search value (`(spend, P_correct)`) of one setting.
fn compare(
    search: &LookaheadSearch,
    mix: &Tasks,
    runs: Vec<(Spend, BigRational)>,
) -> Result<Vec<Compared>> {
    let l = BigInt::from(search.steps);
    let n_steps: Vec<BigRational> = runs
        .iter()
        .map(|(s, _)| BigRational::new(s.steps.clone(), l.clone()))
        .collect();
    let n_calls: Vec<BigRational> = runs
        .iter()
        .map(|(s, _)| BigRational::from_integer(s.calls.clone()))
        .collect();
    let all: Vec<BigRational> = n_steps.iter().chain(&n_calls).cloned().collect();
    let values = best_of_matched(search, mix, &all)?;
    let (at_steps, at_calls) = values.split_at(runs.len());
    Ok(runs
        .into_iter()
        .enumerate()
        .map(|(i, (spend, correct))| Compared {
            spend,
            correct,
            n_steps: n_steps[i].clone(),
            at_steps: at_steps[i].clone(),
            n_calls: n_calls[i].clone(),
            at_calls: at_calls[i].clone(),
        })
        .collect())
}

/// Beam search on one mix at one G, width by width.
#[derive(Debug, Clone)]
pub struct BeamSetting {
    /// The index of the mix in [`MIXES`].
    pub mix: usize,
    /// G.
    pub growth: &'static str,
    /// One per width of [`WIDTHS`].
    pub rows: Vec<Compared>,
    /// `P_covered` per width (some complete candidate correct).
    pub covered: Vec<BigRational>,
}

/// Lookahead at one G, depth by depth.
#[derive(Debug, Clone)]
pub struct LookaheadSetting {
    /// G.
    pub growth: &'static str,
    /// One per depth d = 1..=L.
    pub rows: Vec<Compared>,
}

/// The study.
#[derive(Debug, Clone)]
pub struct EqualComputeStudy {
    /// Mix by mix, G by G.
    pub beams: Vec<BeamSetting>,
    /// G by G.
    pub lookahead: Vec<LookaheadSetting>,
}

/// Beam search on mix `mix` (an index of [`MIXES`]) at `growth`, exactly.
fn beam_setting(mix: usize, growth: &'static str) -> Result<BeamSetting> {
    let tasks = Tasks::parse_steps(MIXES[mix].1)?;
    let search = search(&tasks.types()[0].success, growth)?;
    let r = beam::<BigRational>(&search, &tasks, &WIDTHS)?;
    let runs = r
        .rows
        .iter()
        .map(|row| {
            (
                Spend::beam(BRANCHING, STEPS, row.beams),
                row.correct.value.clone(),
            )
        })
        .collect();
    Ok(BeamSetting {
        mix,
        growth,
        rows: compare(&search, &tasks, runs)?,
        covered: r.rows.iter().map(|row| row.covered.value.clone()).collect(),
    })
}

/// Lookahead at `growth`, d = 1..=L, exactly.
fn lookahead_setting(growth: &'static str) -> Result<LookaheadSetting> {
    let q = parse_rational(LOOKAHEAD_Q).expect("a constant");
    let tasks = Tasks::parse_steps(LOOKAHEAD_Q)?;
    let search = search(&q, growth)?;
    let depths: Vec<u32> = (1..=STEPS).collect();
    let r = lookahead::<BigRational>(&search, &depths)?;
    let runs = r
        .rows
        .iter()
        .map(|row| {
            (
                Spend::lookahead(BRANCHING, STEPS, row.depth),
                row.correct.value.clone(),
            )
        })
        .collect();
    Ok(LookaheadSetting {
        growth,
        rows: compare(&search, &tasks, runs)?,
    })
}

/// A y range from the tenth below the lowest value of `series` to 1.
fn fitted(series: &[ErrorSeries]) -> (f64, f64) {
    let low = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.y))
        .fold(1.0, f64::min);
    ((low * 10.0).floor() / 10.0, 1.0)
}

/// The index of the largest width.
const LARGEST: usize = WIDTHS.len() - 1;

impl EqualComputeStudy {
    /// Computes every setting exactly.
    ///
    /// # Errors
    ///
    /// As the calculators (never for these sizes).
    pub fn compute() -> Result<EqualComputeStudy> {
        use rayon::prelude::*;
        // The settings are independent: computed in parallel (the two beam settings with
        // G > 0 take most of the time), each under the caller's cancel token.
        let token = crate::cancel::current();
        let jobs: Vec<(usize, &'static str)> = (0..MIXES.len())
            .flat_map(|mix| GROWTHS.iter().map(move |&g| (mix, g)))
            .collect();
        let (beams, lookahead) = rayon::join(
            || {
                jobs.par_iter()
                    .map(|&(mix, growth)| {
                        crate::cancel::scope(&token, || beam_setting(mix, growth))
                    })
                    .collect::<Result<Vec<_>>>()
            },
            || {
                GROWTHS
                    .par_iter()
                    .map(|&growth| crate::cancel::scope(&token, || lookahead_setting(growth)))
                    .collect::<Result<Vec<_>>>()
            },
        );
        Ok(EqualComputeStudy {
            beams: beams?,
            lookahead: lookahead?,
        })
    }

    /// Beam search on mix `mix` at `growth`.
    pub fn beam(&self, mix: usize, growth: &str) -> Option<&BeamSetting> {
        self.beams
            .iter()
            .find(|s| s.mix == mix && s.growth == growth)
    }

    /// The claims, each the sign of an exact difference (module docs for the settings):
    ///
    /// - beam search beats best-of-N at equal generated steps (Snell et al.'s budget),
    ///   per mix, G and M: `P_beam(M) - P_bon(M B) > 0`;
    /// - the same at equal verifier calls: `P_beam(M) - P_bon(L M B) > 0`;
    /// - beam search over-optimises on easy questions (Snell et al.): per G, at the largest
    ///   budget best-of-N is ahead on the easy mix while beam search is ahead on the hard
    ///   one, `min(P_bon - P_beam on easy, P_beam - P_bon on hard) > 0` at equal steps;
    /// - a PRM noisier with depth narrows beam search's lead at equal steps, per mix and M:
    ///   `lead_(G = 1/4) - lead_(G = 0) < 0`;
    /// - depth-d lookahead beats best-of-N at equal generated steps, and at equal verifier
    ///   calls, per G and d; and the verdict turns with the measure:
    ///   `min(P - P_bon(steps), P_bon(calls) - P) > 0`.
    pub fn claim_families(&self) -> Vec<ClaimFamily> {
        let exact = |x: BigRational| Evidence::Exact(shown(&x));
        let mut steps = ClaimFamily::new(
            "beam search against best-of-N at equal generated steps",
            0.05,
        );
        let mut calls = ClaimFamily::new(
            "beam search against best-of-N at equal verifier calls",
            0.05,
        );
        let mut over = ClaimFamily::new("beam search over-optimises on easy questions", 0.05);
        let mut depth = ClaimFamily::new("beam search: a PRM noisier with depth", 0.05);
        for s in &self.beams {
            let what = format!("{} mix, G = {}", MIXES[s.mix].0, s.growth);
            for (m, row) in WIDTHS.iter().zip(&s.rows) {
                steps.push(Claim::new(
                    format!(
                        "{what}: beam search of width M = {m} beats best-of-{} (equal generated steps)",
                        row.n_steps
                    ),
                    SNELL,
                    "P_beam(M) - P_best-of-N(N = M B)",
                    Direction::Greater,
                    exact(row.lead_steps()),
                ));
                calls.push(Claim::new(
                    format!(
                        "{what}: beam search of width M = {m} beats best-of-{} (equal verifier calls)",
                        row.n_calls
                    ),
                    "this tool (the other way to count a PRM's compute)",
                    "P_beam(M) - P_best-of-N(N = L M B)",
                    Direction::Greater,
                    exact(row.lead_calls()),
                ));
            }
        }
        for growth in GROWTHS {
            let (Some(easy), Some(hard)) = (self.beam(0, growth), self.beam(1, growth)) else {
                continue;
            };
            let (e, h) = (&easy.rows[LARGEST], &hard.rows[LARGEST]);
            let behind = -e.lead_steps();
            let ahead = h.lead_steps();
            over.push(Claim::new(
                format!(
                    "G = {growth}: at the largest budget (M = {}, N = {}) best-of-N beats beam search on the easy mix while beam search beats best-of-N on the hard mix (equal generated steps)",
                    WIDTHS[LARGEST], e.n_steps
                ),
                SNELL,
                "min(P_bon - P_beam on easy, P_beam - P_bon on hard)",
                Direction::Greater,
                exact(behind.min(ahead)),
            ));
            if growth == "0" {
                continue;
            }
            for (mix, _) in MIXES.iter().enumerate() {
                let (Some(base), Some(noisy)) = (self.beam(mix, "0"), self.beam(mix, growth))
                else {
                    continue;
                };
                for (i, m) in WIDTHS.iter().enumerate() {
                    depth.push(Claim::new(
                        format!(
                            "{} mix, M = {m}: a PRM noisier with depth (G = {growth}) narrows beam search's lead over best-of-N at equal generated steps",
                            MIXES[mix].0
                        ),
                        "this tool (beam search leans on the PRM at every step, best-of-N only at the end)",
                        "lead_G - lead_0, lead = P_beam - P_bon(M B)",
                        Direction::Less,
                        exact(noisy.rows[i].lead_steps() - base.rows[i].lead_steps()),
                    ));
                }
            }
        }
        let mut look_steps =
            ClaimFamily::new("lookahead against best-of-N at equal generated steps", 0.05);
        let mut look_calls =
            ClaimFamily::new("lookahead against best-of-N at equal verifier calls", 0.05);
        let mut turns = ClaimFamily::new("lookahead: the cost measure decides", 0.05);
        for s in &self.lookahead {
            for (d, row) in (1..=STEPS).zip(&s.rows) {
                let what = format!("G = {}, d = {d}", s.growth);
                look_steps.push(Claim::new(
                    format!(
                        "{what}: lookahead beats best-of-N at equal generated steps (N = {})",
                        row.n_steps
                    ),
                    "the expectation lookahead rests on",
                    "P_lookahead(d) - P_best-of-N(N = steps / L)",
                    Direction::Greater,
                    exact(row.lead_steps()),
                ));
                look_calls.push(Claim::new(
                    format!(
                        "{what}: lookahead beats best-of-N at equal verifier calls (N = {})",
                        row.n_calls
                    ),
                    "the expectation lookahead rests on",
                    "P_lookahead(d) - P_best-of-N(N = calls)",
                    Direction::Greater,
                    exact(row.lead_calls()),
                ));
                turns.push(Claim::new(
                    format!(
                        "{what}: lookahead beats best-of-N at equal generated steps and loses to it at equal verifier calls"
                    ),
                    "this tool",
                    "min(P - P_bon(steps / L), P_bon(calls) - P)",
                    Direction::Greater,
                    exact(row.lead_steps().min(-row.lead_calls())),
                ));
            }
        }
        vec![steps, calls, over, depth, look_steps, look_calls, turns]
    }

    /// The tables `beam_equal_compute` and `lookahead_equal_compute`.
    pub fn tables(&self) -> Vec<Table> {
        let real = |name: &str| Column::new(name, Kind::Real);
        let compared = |key: &str| {
            vec![
                Column::key(key, Kind::Integer),
                Column::new("steps", Kind::Integer),
                Column::new("verifier calls", Kind::Integer),
                real("P_correct"),
                real("N (steps)"),
                real("best-of-N (steps)"),
                real("lead (steps)"),
                real("N (calls)"),
                real("best-of-N (calls)"),
                real("lead (calls)"),
            ]
        };
        let cells = |row: &Compared| {
            vec![
                row.spend.steps.to_i64().map_or(Cell::Empty, Cell::int),
                row.spend.calls.to_i64().map_or(Cell::Empty, Cell::int),
                shown(&row.correct),
                Cell::Exact(row.n_steps.clone()),
                shown(&row.at_steps),
                shown(&row.lead_steps()),
                Cell::Exact(row.n_calls.clone()),
                shown(&row.at_calls),
                shown(&row.lead_calls()),
            ]
        };
        let mut columns = vec![Column::key("mix", Kind::Text), Column::key("G", Kind::Text)];
        columns.extend(compared("M"));
        columns.insert(6, real("P_covered"));
        let mut beams = Table::new(
            "beam_equal_compute",
            &format!(
                "Beam search with a PRM against best-of-N at equal generated steps (N = M B, Snell et al.'s budget) and at equal verifier calls (N = L M B), exact: B = {BRANCHING}, L = {STEPS}, noise {NOISE}; lead = P_beam - P_best-of-N"
            ),
            columns,
        );
        for s in &self.beams {
            for ((m, row), covered) in WIDTHS.iter().zip(&s.rows).zip(&s.covered) {
                let mut line = vec![
                    Cell::text(format!("{} ({})", MIXES[s.mix].0, MIXES[s.mix].1)),
                    Cell::text(s.growth),
                    Cell::int(*m),
                ];
                line.extend(cells(row));
                line.insert(6, shown(covered));
                beams.push(line);
            }
        }
        let mut columns = vec![Column::key("G", Kind::Text)];
        columns.extend(compared("d"));
        let mut look = Table::new(
            "lookahead_equal_compute",
            &format!(
                "Depth-d lookahead against best-of-N at equal generated steps (N = steps / L) and at equal verifier calls (N = calls), exact: B = {BRANCHING}, L = {STEPS}, Q = {LOOKAHEAD_Q}, noise {NOISE}; a fractional N is met in expectation; lead = P_lookahead - P_best-of-N"
            ),
            columns,
        );
        for s in &self.lookahead {
            for (d, row) in (1..=STEPS).zip(&s.rows) {
                let mut line = vec![Cell::text(s.growth), Cell::int(d)];
                line.extend(cells(row));
                look.push(line);
            }
        }
        vec![beams, look]
    }

    /// The figures: beam search and best-of-N at both matchings against the budget N = M B
    /// (one panel per mix and G), and lookahead with best-of-N at both matchings against d
    /// (one panel per G).
    pub fn panels(&self) -> Vec<(String, Vec<Panel>)> {
        let point = |x: f64, y: &BigRational| {
            let y = rational_to_f64(y);
            ErrorPoint {
                x,
                y,
                low: y,
                high: y,
            }
        };
        let series = |label: &str, points: Vec<ErrorPoint>| ErrorSeries {
            label: label.to_string(),
            points,
        };
        let mut beam_panels = Vec::new();
        for s in &self.beams {
            let x = |i: usize| f64::from(WIDTHS[i] * BRANCHING);
            let pick = |f: &dyn Fn(&Compared) -> &BigRational| {
                s.rows
                    .iter()
                    .enumerate()
                    .map(|(i, r)| point(x(i), f(r)))
                    .collect::<Vec<_>>()
            };
            let drawn = vec![
                series("beam search, width M = N / B", pick(&|r| &r.correct)),
                series("best-of-N, equal steps (N)", pick(&|r| &r.at_steps)),
                series("best-of-N, equal calls (L N)", pick(&|r| &r.at_calls)),
            ];
            beam_panels.push(Panel {
                axes: Axes {
                    title: format!(
                        "{} mix ({}), G = {}",
                        MIXES[s.mix].0, MIXES[s.mix].1, s.growth
                    ),
                    x_label: format!("budget N = M B (B = {BRANCHING}, L = {STEPS})"),
                    y_label: "P_correct".to_string(),
                    x_range: (3.0, 40.0),
                    x_scale: Scale::Log2,
                    y_range: fitted(&drawn),
                },
                series: drawn,
                legend: LegendPosition::LowerRight,
                reference: None,
            });
        }
        let mut look_panels = Vec::new();
        for s in &self.lookahead {
            let pick = |f: &dyn Fn(&Compared) -> &BigRational| {
                (1..=STEPS)
                    .zip(&s.rows)
                    .map(|(d, r)| point(f64::from(d), f(r)))
                    .collect::<Vec<_>>()
            };
            let drawn = vec![
                series("lookahead", pick(&|r| &r.correct)),
                series("best-of-N, equal steps", pick(&|r| &r.at_steps)),
                series("best-of-N, equal calls", pick(&|r| &r.at_calls)),
            ];
            look_panels.push(Panel {
                axes: Axes {
                    title: format!("lookahead, Q = {LOOKAHEAD_Q}, G = {}", s.growth),
                    x_label: format!("lookahead depth d (B = {BRANCHING}, L = {STEPS})"),
                    y_label: "P_correct".to_string(),
                    x_range: (0.5, f64::from(STEPS) + 0.5),
                    x_scale: Scale::Linear,
                    y_range: fitted(&drawn),
                },
                series: drawn,
                legend: LegendPosition::LowerRight,
                reference: None,
            });
        }
        vec![
            ("inference_equal_compute_beam".to_string(), beam_panels),
            ("inference_equal_compute_lookahead".to_string(), look_panels),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::inference::report::InferenceRequest;
    use crate::analytic::inference::{Prices, best_of_n};
    use crate::report::claims::Verdict;
    use std::sync::OnceLock;

    /// The study, computed once for every test of this module.
    pub(crate) fn study() -> &'static EqualComputeStudy {
        static STUDY: OnceLock<EqualComputeStudy> = OnceLock::new();
        STUDY.get_or_init(|| EqualComputeStudy::compute().unwrap())
    }

    fn holds(x: bool) -> Verdict {
        if x { Verdict::Holds } else { Verdict::Fails }
    }

    fn verdicts(family: &ClaimFamily) -> Vec<Verdict> {
        family.decide().into_iter().map(|d| d.verdict).collect()
    }

    /// Each verdict is recomputed here from the rows by comparisons of the exact values
    /// (not by the claims' own differences), and one flipped value flips its claim.
    #[test]
    fn the_claims_follow_the_exact_numbers_and_flip_with_them() {
        let study = study();
        let families = study.claim_families();
        let counts: Vec<usize> = families.iter().map(|f| f.claims.len()).collect();
        assert_eq!(counts, vec![16, 16, 2, 8, 10, 10, 10]);
        let rows: Vec<&Compared> = study.beams.iter().flat_map(|s| &s.rows).collect();
        let expected: Vec<Verdict> = rows.iter().map(|r| holds(r.correct > r.at_steps)).collect();
        assert_eq!(verdicts(&families[0]), expected);
        let expected: Vec<Verdict> = rows.iter().map(|r| holds(r.correct > r.at_calls)).collect();
        assert_eq!(verdicts(&families[1]), expected);
        for (i, growth) in GROWTHS.iter().enumerate() {
            let easy = &study.beam(0, growth).unwrap().rows[LARGEST];
            let hard = &study.beam(1, growth).unwrap().rows[LARGEST];
            let expected = easy.at_steps > easy.correct && hard.correct > hard.at_steps;
            assert_eq!(verdicts(&families[2])[i], holds(expected));
        }
        let mut expected = Vec::new();
        for mix in 0..MIXES.len() {
            let (base, noisy) = (
                study.beam(mix, "0").unwrap(),
                study.beam(mix, "1/4").unwrap(),
            );
            for i in 0..WIDTHS.len() {
                let (b, n) = (&base.rows[i], &noisy.rows[i]);
                // lead_G < lead_0, moved to one side: P_G + P_bon,0 < P_0 + P_bon,G.
                expected.push(holds(&n.correct + &b.at_steps < &b.correct + &n.at_steps));
            }
        }
        assert_eq!(verdicts(&families[3]), expected);
        let looks: Vec<&Compared> = study.lookahead.iter().flat_map(|s| &s.rows).collect();
        let steps: Vec<Verdict> = looks
            .iter()
            .map(|r| holds(r.correct > r.at_steps))
            .collect();
        let calls: Vec<Verdict> = looks
            .iter()
            .map(|r| holds(r.correct > r.at_calls))
            .collect();
        assert_eq!(verdicts(&families[4]), steps);
        assert_eq!(verdicts(&families[5]), calls);
        let turns: Vec<Verdict> = looks
            .iter()
            .map(|r| holds(r.correct > r.at_steps && r.at_calls > r.correct))
            .collect();
        assert_eq!(verdicts(&families[6]), turns);
        // Flip one value: best-of-N at equal steps of the hard mix's largest width set just
        // above beam search's. Its claim and the over-optimisation claim at G = 0 both move.
        let mut flipped = study.clone();
        let setting = flipped
            .beams
            .iter_mut()
            .find(|s| s.mix == 1 && s.growth == "0")
            .unwrap();
        let row = &mut setting.rows[LARGEST];
        row.at_steps = &row.correct + BigRational::new(1.into(), 1000.into());
        let before = verdicts(&families[0]);
        let after = verdicts(&flipped.claim_families()[0]);
        let changed: Vec<usize> = (0..before.len())
            .filter(|&i| before[i] != after[i])
            .collect();
        assert_eq!(changed, vec![2 * WIDTHS.len() + LARGEST]);
        assert_eq!(after[changed[0]], Verdict::Fails);
        // And on the easy mix: best-of-N above beam at the largest width makes the easy half
        // of the over-optimisation claim true; with the hard half true it holds.
        let mut flipped = study.clone();
        let setting = flipped
            .beams
            .iter_mut()
            .find(|s| s.mix == 0 && s.growth == "0")
            .unwrap();
        let row = &mut setting.rows[LARGEST];
        row.at_steps = &row.correct + BigRational::new(1.into(), 1000.into());
        let hard = &study.beam(1, "0").unwrap().rows[LARGEST];
        assert_eq!(
            verdicts(&flipped.claim_families()[2])[0],
            holds(hard.correct > hard.at_steps)
        );
    }

    /// Best-of-N at a fractional N is the mix of its two neighbours, and at whole N the
    /// calculator's value; the matched values equal `pathology inference beam`'s columns.
    #[test]
    fn best_of_n_at_equal_compute_is_the_calculator_s() {
        let tasks = Tasks::parse_steps("0.8:1/2,0.5:1/2").unwrap();
        let mut search = search(&tasks.types()[0].success, "1/2").unwrap();
        search.branching = 2;
        search.steps = 3;
        let n = BigRational::new(7.into(), 3.into());
        let values =
            best_of_matched(&search, &tasks, &[n, BigRational::from_integer(3.into())]).unwrap();
        let s = BigRational::from_integer(2.into());
        let solutions = Tasks::from_types(
            tasks
                .types()
                .iter()
                .map(|t| TaskType {
                    success: num_traits::pow(t.success.clone(), 3),
                    share: t.share.clone(),
                })
                .collect(),
        );
        let direct = best_of_n::<BigRational>(
            &solutions,
            &search.noise.affine(&BigRational::one(), &s),
            &search.noise.affine(&BigRational::zero(), &s),
            &[2, 3],
        )
        .unwrap();
        let (p2, p3) = (&direct.rows[0].correct.value, &direct.rows[1].correct.value);
        let third = BigRational::new(1.into(), 3.into());
        assert_eq!(values[0], (BigRational::one() - &third) * p2 + third * p3);
        assert_eq!(&values[1], p3);
        // The command's own equal-compute columns, exactly.
        let report = InferenceRequest::Beam {
            search: search.clone(),
            mix: tasks.clone(),
            widths: vec![1, 2],
            prices: Prices::unit(),
        }
        .report(true)
        .unwrap();
        let table = report.table("beam").unwrap();
        let column = |name: &str| {
            table
                .columns
                .iter()
                .position(|c| c.name == name)
                .unwrap_or_else(|| panic!("column {name}"))
        };
        let r = beam::<BigRational>(&search, &tasks, &[1, 2]).unwrap();
        let runs = r
            .rows
            .iter()
            .map(|row| (Spend::beam(2, 3, row.beams), row.correct.value.clone()))
            .collect();
        let rows = compare(&search, &tasks, runs).unwrap();
        for (row, compared) in table.rows.iter().zip(&rows) {
            assert_eq!(
                row[column("best_of_n_equal_steps")],
                Cell::Exact(compared.at_steps.clone())
            );
            assert_eq!(
                row[column("best_of_n_equal_calls")],
                Cell::Exact(compared.at_calls.clone())
            );
        }
    }

    /// docs/inference.md ("The study in reproduce: equal compute") quotes both tables to
    /// four decimals, every family's verdict counts and the numbers its prose gives; each is
    /// checked against the computed study here.
    #[test]
    fn the_equal_compute_claims_are_as_the_docs_state() {
        let study = study();
        let prose =
            crate::studies::inference::docs_prose("## The study in reproduce: equal compute");
        let has = |text: &str| assert!(prose.contains(text), "the docs lack {text:?}");
        let four = |x: &BigRational| format!("{:.4}", rational_to_f64(x));
        for s in &study.beams {
            for (m, row) in WIDTHS.iter().zip(&s.rows) {
                has(&format!(
                    "| {} | {} | {m} | {} | {} | {} |",
                    MIXES[s.mix].0,
                    s.growth,
                    four(&row.correct),
                    four(&row.at_steps),
                    four(&row.at_calls)
                ));
            }
        }
        for s in &study.lookahead {
            for (d, row) in (1..=STEPS).zip(&s.rows) {
                has(&format!(
                    "| {} | {d} | {} | {} | {} | {} | {} |",
                    s.growth,
                    row.spend.steps,
                    row.spend.calls,
                    four(&row.correct),
                    four(&row.at_steps),
                    four(&row.at_calls)
                ));
            }
        }
        let counts: Vec<(usize, usize)> = study
            .claim_families()
            .iter()
            .map(|f| {
                let v = verdicts(f);
                (
                    v.iter().filter(|v| **v == Verdict::Holds).count(),
                    v.iter().filter(|v| **v == Verdict::Fails).count(),
                )
            })
            .collect();
        assert_eq!(
            counts,
            vec![(16, 0), (14, 2), (0, 2), (4, 4), (4, 6), (1, 9), (3, 7)]
        );
        has("beats best-of-N in all 16 settings");
        has("it still wins in 14 of 16");
        has("(4 of 10 hold)");
        has("(1 of 10 holds)");
        has("holds in 3 of 10 settings");
        // The pass@1 of the two mixes.
        for (_, text) in MIXES {
            let pass: BigRational = Tasks::parse_steps(text)
                .unwrap()
                .types()
                .iter()
                .map(|t| &t.share * num_traits::pow(t.success.clone(), STEPS as usize))
                .sum();
            has(&format!(
                "`{text}` has pass@1 {:.2}",
                rational_to_f64(&pass)
            ));
        }
        // Greedy search on the easy mix loses at equal calls, by these margins.
        let easy = |g: &str| study.beam(0, g).unwrap();
        has(&format!(
            "by {} at G = 0 and {} at G = 1/4",
            four(&-easy("0").rows[0].lead_calls()),
            four(&-easy("1/4").rows[0].lead_calls())
        ));
        assert!(
            study
                .beams
                .iter()
                .all(|s| s.rows[1..].iter().all(|r| r.correct > r.at_calls))
        );
        has(&format!(
            "leads best-of-32 by {} (G = 0) and {} (G = 1/4)",
            four(&easy("0").rows[LARGEST].lead_steps()),
            four(&easy("1/4").rows[LARGEST].lead_steps())
        ));
        // The lead's shape at G = 0: largest at M = 2 on the easy mix, growing on the hard.
        let leads = |mix: usize| -> Vec<BigRational> {
            study
                .beam(mix, "0")
                .unwrap()
                .rows
                .iter()
                .map(Compared::lead_steps)
                .collect()
        };
        let (e, h) = (leads(0), leads(1));
        assert!(e[1] > e[0] && e[1] > e[2] && e[2] > e[3]);
        assert!(h.windows(2).all(|w| w[1] >= w[0]));
        has(&format!(
            "largest at M = 2 ({}) and shrinks to {} at M = 8, while on the hard mix it grows from {} to {}",
            four(&e[1]),
            four(&e[3]),
            four(&h[0]),
            four(&h[3])
        ));
        let changes = |mix: usize| -> Vec<BigRational> {
            let (b, n) = (
                study.beam(mix, "0").unwrap(),
                study.beam(mix, "1/4").unwrap(),
            );
            b.rows
                .iter()
                .zip(&n.rows)
                .map(|(b, n)| n.lead_steps() - b.lead_steps())
                .collect()
        };
        let range = |v: Vec<BigRational>| {
            let abs: Vec<BigRational> = v.iter().map(num_traits::Signed::abs).collect();
            format!(
                "by {} to {}",
                four(abs.iter().min().unwrap()),
                four(abs.iter().max().unwrap())
            )
        };
        has(&format!("hold, {})", range(changes(1))));
        has(&format!("fail, {})", range(changes(0))));
        let first = &study.lookahead[0].rows[0];
        has(&format!(
            "the numbers are {} against {} at equal steps and against {} at equal calls",
            four(&first.correct),
            four(&first.at_steps),
            four(&first.at_calls)
        ));
    }
}
