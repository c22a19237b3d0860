//! Test-time search at equal compute (a study of `reproduce`), exactly: beam search with a
//! process reward model (PRM) against best-of-N as the PRM gets worse with depth, on an easy
//! and a hard mix (Snell, Lee, Xu & Kumar, arXiv 2408.03314, Section 5), and verifier-guided
//! lookahead against best-of-N, where the verdict depends on what is counted as compute.
//!
//! **Settings, fixed before any number was computed.** Snell et al. expand every beam into 4
//! candidates per step and compare at equal generation budgets N = 4 to 256; we take their
//! expansion B = 4, solutions of L = 5 steps, widths M = 1, 2, 4, 8 (budgets N = M B = 4 to
//! 32 complete solutions' worth of steps; larger M are out of the step's time), the
//! 33-point `gaussian:1` noise law of the docs' examples (a correct prefix scores 1 plus
//! noise, so the PRM's signal is one standard deviation), and G = 0 (a PRM as noisy at every
//! depth) or G = 1/4 (its noise doubles from the first step to the last, s = 1 + G (m - 1)).
//! Snell et al. bin questions by the base model's pass@1; a complete solution of our model is
//! correct with probability `Q^L`, so the *easy* mix `0.95:1/2,0.9:1/2` has pass@1 0.68 (their
//! easiest bins) and the *hard* mix `0.7:1/2,0.6:1/2` pass@1 0.12. Lookahead takes the docs'
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
    let l = BigInt::from(STEPS);
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
                        "Snell et al. (beam search leans on the PRM at every step, best-of-N only at the end)",
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
