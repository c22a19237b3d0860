//! Knockout tournaments by rounds (a study of `reproduce`), exactly: where the bracket's
//! accuracy rises with the rounds and where it falls, and Chen, Pan, Li, Ding & Zhou's
//! published bound (arXiv 2411.19477) beside the exact failure probability.
//!
//! **Settings, fixed before any number was computed.** One easy task type (a candidate
//! correct with R = 0.6) and one hard (R = 0.2), equal shares: one sample is right with
//! probability 0.4. Four judges, as accuracies P on (easy, hard): well above 1/2 (0.8, 0.8),
//! near 1/2 (0.55, 0.55), reliable on easy tasks and misled on hard ones (0.8, 0.45), and
//! below 1/2 (0.45, 0.45); K = 1, 5 and 25 judge calls per match; r = 1..8 rounds
//! (N = 2^r = 2 to 256 candidates). The bracket's recursion gives `q_(r+1) - q_r =
//! q_r (1 - q_r)(2w - 1)` per type (`analytic::inference::knockout`), so a type gains from
//! every round exactly when P > 1/2; the mixed judge is the case the published bound's
//! assumption (`p_comp > 1/2` on every problem) leaves out.
//!
//! **The bound.** Chen et al.: `P(fail) <= (1 - R)^N + ceil(log2 N) exp(-2 K (P - 1/2)^2)`
//! when P > 1/2, per type (a mix: the W-weighted sum). The calculator encloses it in f64
//! (`libm`'s exp widened); the claim compares the enclosure's lower end, a double and so an
//! exact rational, with the exact failure probability.

use num_rational::BigRational;
use num_traits::FromPrimitive;

use super::best_of_n::shown;
use crate::analytic::inference::{Knockout, Tasks, knockout};
use crate::error::Result;
use crate::numeric::number::{parse_rational, rational_to_f64};
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence};
use crate::report::figure::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel, Scale};
use crate::report::{Cell, Column, Kind, Table};

/// The task mix `R:W`.
pub const TASKS: &str = "0.6:1/2,0.2:1/2";
/// The judges: a name and P on the easy and the hard type.
pub const JUDGES: [(&str, [&str; 2]); 4] = [
    ("well above 1/2", ["0.8", "0.8"]),
    ("near 1/2", ["0.55", "0.55"]),
    ("misled on hard tasks", ["0.8", "0.45"]),
    ("below 1/2", ["0.45", "0.45"]),
];
/// Judge calls K per match.
pub const JUDGE_CALLS: [u64; 3] = [1, 5, 25];
/// The largest number of rounds r (every r from 1).
pub const MAX_ROUNDS: u64 = 8;

const CHEN: &str =
    "Chen, Pan, Li, Ding & Zhou, arXiv 2411.19477 (failure falls with N when p_comp > 1/2)";

/// One judge's brackets.
#[derive(Debug, Clone)]
pub struct JudgeSetting {
    /// The index of the judge in [`JUDGES`].
    pub judge: usize,
    /// The calculator's result over every K and r.
    pub result: Knockout<BigRational>,
}

impl JudgeSetting {
    /// `P_correct` at K (an index of [`JUDGE_CALLS`]) and r = 0..=[`MAX_ROUNDS`] (r = 0:
    /// one sample).
    pub fn curve(&self, k: usize) -> Vec<BigRational> {
        let per_k = MAX_ROUNDS as usize;
        std::iter::once(self.result.one_sample.clone())
            .chain(
                self.result.rows[k * per_k..(k + 1) * per_k]
                    .iter()
                    .map(|row| row.correct.value.clone()),
            )
            .collect()
    }

    /// The smallest change of `P_correct` from a round to the next, `min_r q_r - q_(r-1)`.
    pub fn smallest_change(&self, k: usize) -> BigRational {
        let c = self.curve(k);
        c.windows(2).map(|w| &w[1] - &w[0]).min().expect("r = 1..")
    }
}

/// The study.
#[derive(Debug, Clone)]
pub struct TournamentStudy {
    /// Judge by judge.
    pub judges: Vec<JudgeSetting>,
}

impl TournamentStudy {
    /// Computes every bracket exactly.
    ///
    /// # Errors
    ///
    /// As the calculator (never for these sizes).
    pub fn compute() -> Result<TournamentStudy> {
        let tasks = Tasks::parse(TASKS)?;
        let rounds: Vec<u64> = (1..=MAX_ROUNDS).collect();
        let judges = JUDGES
            .iter()
            .enumerate()
            .map(|(judge, (_, ps))| {
                let ps: Vec<BigRational> = ps
                    .iter()
                    .map(|p| parse_rational(p).expect("a constant"))
                    .collect();
                Ok(JudgeSetting {
                    judge,
                    result: knockout::<BigRational>(&tasks, &ps, &JUDGE_CALLS, &rounds)?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(TournamentStudy { judges })
    }

    /// `bound's lower end - exact failure`, exactly, for a row with a bound.
    fn slack(row: &crate::analytic::inference::KnockoutRow<BigRational>) -> Option<BigRational> {
        row.bound.map(|(lower, _)| {
            BigRational::from_f64(lower).expect("a finite bound") - &row.failure.value
        })
    }

    /// The claims, each the sign of an exact rational:
    ///
    /// - every round helps (Chen et al.), per judge and K: `min_r (q_r - q_(r-1)) > 0`;
    /// - after r = 8 rounds the bracket beats one sample: `q_8 - q_0 > 0`;
    /// - Chen et al.'s bound holds, per row with a bound: `bound - P(fail) > 0` (the
    ///   bound's lower end).
    pub fn claim_families(&self) -> Vec<ClaimFamily> {
        let exact = |x: BigRational| Evidence::Exact(shown(&x));
        let mut every = ClaimFamily::new("knockout: every round helps", 0.05);
        let mut end = ClaimFamily::new("knockout: 2^8 candidates against one sample", 0.05);
        let mut bound = ClaimFamily::new("knockout: Chen et al.'s bound holds", 0.05);
        for s in &self.judges {
            let name = JUDGES[s.judge].0;
            for (i, k) in JUDGE_CALLS.iter().enumerate() {
                let what = format!("judge {name}, K = {k}");
                every.push(Claim::new(
                    format!("{what}: P_correct rises at every round r = 1..{MAX_ROUNDS}"),
                    CHEN,
                    "min over r of P(r) - P(r - 1), P(0) one sample",
                    Direction::Greater,
                    exact(s.smallest_change(i)),
                ));
                let c = self.judges[s.judge].curve(i);
                end.push(Claim::new(
                    format!("{what}: the bracket of 2^{MAX_ROUNDS} candidates beats one sample"),
                    CHEN,
                    "P(8) - P(0)",
                    Direction::Greater,
                    exact(&c[MAX_ROUNDS as usize] - &c[0]),
                ));
            }
            for row in &s.result.rows {
                if let Some(slack) = Self::slack(row) {
                    bound.push(Claim::new(
                        format!(
                            "judge {name}, K = {}, r = {}: P(fail) is at most the published bound",
                            row.judge_calls_per_match, row.rounds
                        ),
                        CHEN,
                        "bound (lower end of its enclosure) - P(fail)",
                        Direction::Greater,
                        exact(slack),
                    ));
                }
            }
        }
        vec![every, end, bound]
    }

    /// The table `knockout_rounds`: every judge, K and r, with the change from the round
    /// before, the failure probability and the bound.
    pub fn tables(&self) -> Vec<Table> {
        let real = |name: &str| Column::new(name, Kind::Real);
        let mut table = Table::new(
            "knockout_rounds",
            &format!(
                "Knockout brackets of N = 2^r candidates, exact: tasks {TASKS} (one sample right with probability 0.4), judge accuracy P on (easy, hard), K judge calls per match; change = P(r) - P(r - 1); Chen et al.'s bound rounded up (empty where a P <= 1/2), slack = bound's lower end - P(fail)"
            ),
            vec![
                Column::key("judge", Kind::Text),
                Column::key("K", Kind::Integer),
                Column::key("r", Kind::Integer),
                Column::new("N", Kind::Integer),
                Column::new("judge calls", Kind::Integer),
                real("P_correct"),
                real("change"),
                real("P(fail)"),
                real("bound"),
                real("slack"),
            ],
        );
        for s in &self.judges {
            let (name, ps) = JUDGES[s.judge];
            for (i, _) in JUDGE_CALLS.iter().enumerate() {
                let curve = s.curve(i);
                let rows = &s.result.rows[i * MAX_ROUNDS as usize..][..MAX_ROUNDS as usize];
                for (r, row) in rows.iter().enumerate() {
                    table.push(vec![
                        Cell::text(format!("{name} ({}, {})", ps[0], ps[1])),
                        Cell::int(row.judge_calls_per_match),
                        Cell::int(row.rounds),
                        Cell::int(row.candidates),
                        Cell::int(row.judge_calls),
                        shown(&row.correct.value),
                        shown(&(&curve[r + 1] - &curve[r])),
                        shown(&row.failure.value),
                        row.bound
                            .map_or(Cell::Empty, |(_, upper)| Cell::Real(upper)),
                        Self::slack(row).map_or(Cell::Empty, |x| shown(&x)),
                    ]);
                }
            }
        }
        vec![table]
    }

    /// The figure: `P_correct` against N = 2^r per judge, one panel per K, one sample's
    /// accuracy dashed.
    pub fn panels(&self) -> Vec<(String, Vec<Panel>)> {
        let panels = JUDGE_CALLS
            .iter()
            .enumerate()
            .map(|(i, k)| Panel {
                axes: Axes {
                    title: format!("knockout, K = {k} judge calls per match"),
                    x_label: "candidates N = 2^r (N = 1: one sample)".to_string(),
                    y_label: "P_correct".to_string(),
                    x_range: (0.8, 320.0),
                    x_scale: Scale::Log2,
                    y_range: (0.0, 1.0),
                },
                series: self
                    .judges
                    .iter()
                    .map(|s| {
                        let (name, ps) = JUDGES[s.judge];
                        ErrorSeries {
                            label: format!("{name}: P = {}, {}", ps[0], ps[1]),
                            points: s
                                .curve(i)
                                .iter()
                                .enumerate()
                                .map(|(r, y)| {
                                    let y = rational_to_f64(y);
                                    ErrorPoint {
                                        x: f64::from(1u32 << r),
                                        y,
                                        low: y,
                                        high: y,
                                    }
                                })
                                .collect(),
                        }
                    })
                    .collect(),
                legend: if i == 0 {
                    LegendPosition::LowerLeft
                } else {
                    LegendPosition::Hidden
                },
                reference: Some(rational_to_f64(&self.judges[0].result.one_sample)),
            })
            .collect();
        vec![("inference_equal_compute_knockout".to_string(), panels)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::inference::judge_win;
    use crate::report::claims::Verdict;
    use num_traits::One;

    fn verdicts(family: &ClaimFamily) -> Vec<Verdict> {
        family.decide().into_iter().map(|d| d.verdict).collect()
    }

    /// The bracket's recursion by hand, per type: `q_(r+1) = q_r^2 + 2 q_r (1 - q_r) w`.
    fn by_hand(judge: usize, k: u64, r: u64) -> BigRational {
        let tasks = Tasks::parse(TASKS).unwrap();
        tasks
            .types()
            .iter()
            .zip(JUDGES[judge].1)
            .map(|(t, p)| {
                let w = judge_win(&parse_rational(p).unwrap(), k);
                let mut q = t.success.clone();
                for _ in 0..r {
                    q = &q * &q
                        + BigRational::from_integer(2.into()) * &q * (BigRational::one() - &q) * &w;
                }
                &t.share * q
            })
            .sum()
    }

    /// The verdicts are the signs read off the curves (every round up; the end above one
    /// sample; the failure below the bound's lower end), the curves are the recursion, and
    /// a failure probability set above its bound flips that row's claim.
    #[test]
    fn the_claims_follow_the_exact_brackets_and_flip_with_them() {
        let study = TournamentStudy::compute().unwrap();
        let families = study.claim_families();
        let mut rises = Vec::new();
        let mut ends = Vec::new();
        for s in &study.judges {
            for (i, &k) in JUDGE_CALLS.iter().enumerate() {
                let c = s.curve(i);
                assert_eq!(c[MAX_ROUNDS as usize], by_hand(s.judge, k, MAX_ROUNDS));
                assert_eq!(c[3], by_hand(s.judge, k, 3));
                rises.push(if c.windows(2).all(|w| w[1] > w[0]) {
                    Verdict::Holds
                } else {
                    Verdict::Fails
                });
                ends.push(if c[MAX_ROUNDS as usize] > c[0] {
                    Verdict::Holds
                } else {
                    Verdict::Fails
                });
            }
        }
        assert_eq!(verdicts(&families[0]), rises);
        assert_eq!(verdicts(&families[1]), ends);
        // A bound only where every type's P > 1/2: the first two judges, 3 K and 8 r each.
        assert_eq!(
            families[2].claims.len(),
            2 * JUDGE_CALLS.len() * MAX_ROUNDS as usize
        );
        assert!(verdicts(&families[2]).iter().all(|v| *v == Verdict::Holds));
        let mut broken = study.clone();
        let row = &mut broken.judges[0].result.rows[0];
        row.failure.value = BigRational::from_f64(row.bound.unwrap().0).unwrap()
            + BigRational::new(1.into(), 1_000_000.into());
        let after = verdicts(&broken.claim_families()[2]);
        assert_eq!(after[0], Verdict::Fails);
        assert!(after[1..].iter().all(|v| *v == Verdict::Holds));
    }

    /// docs/inference.md ("The study in reproduce: equal compute", knockout) states the
    /// verdict counts of the three knockout families and the numbers below; each is checked
    /// against the computed brackets here.
    #[test]
    fn the_knockout_claims_are_as_the_docs_state() {
        let study = TournamentStudy::compute().unwrap();
        let prose = crate::studies::inference::docs_prose("**Knockout by rounds.**");
        let has = |text: &str| assert!(prose.contains(text), "the docs lack {text:?}");
        let four = |x: &BigRational| format!("{:.4}", rational_to_f64(x));
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
        assert_eq!(counts, vec![(6, 6), (9, 3), (48, 0)]);
        has("(6 of 12 hold;");
        has("beats one sample in 9 of 12");
        has("holds in all 48 rows");
        // Near 1/2 at K = 1: every round adds about 0.02; 256 candidates reach this.
        let near = &study.judges[1];
        let c = near.curve(0);
        assert!(c.windows(2).all(|w| {
            let step = rational_to_f64(&(&w[1] - &w[0]));
            (0.0195..0.0205).contains(&step)
        }));
        has(&format!(
            "256 candidates reach {}",
            four(&c[MAX_ROUNDS as usize])
        ));
        // The misled judge: rises then falls, its best r per K, and above one sample at r = 8.
        let misled = &study.judges[2];
        let mut best = Vec::new();
        for (i, k) in JUDGE_CALLS.iter().enumerate() {
            let c = misled.curve(i);
            let r = (0..c.len()).max_by(|&a, &b| c[a].cmp(&c[b])).unwrap();
            assert!(r > 0 && r < MAX_ROUNDS as usize);
            assert!(c[MAX_ROUNDS as usize] > c[0]);
            best.push(format!("{r} at K = {k} ({})", four(&c[r])));
        }
        has(&format!(
            "best r is {}, {} and {}",
            best[0], best[1], best[2]
        ));
        let below = &study.judges[3];
        has(&format!(
            "down to {} at K = 25",
            four(&below.curve(2)[MAX_ROUNDS as usize])
        ));
        // Where the bound is below 1, and its rise with r at K = 25.
        let rows: Vec<_> = study.judges[..2]
            .iter()
            .flat_map(|s| &s.result.rows)
            .collect();
        let informative = rows
            .iter()
            .filter(|r| r.bound.is_some_and(|(_, upper)| upper < 1.0))
            .count();
        has(&format!(
            "below 1, and so says something, in {informative} of them"
        ));
        let k25 = &study.judges[0].result.rows[2 * MAX_ROUNDS as usize..];
        let bound = |r: usize| format!("{:.4}", k25[r - 1].bound.unwrap().1);
        has(&format!(
            "rises from {} at r = 5 to {} at r = 8",
            bound(5),
            bound(8)
        ));
        assert!(
            k25.windows(2)
                .all(|w| w[1].failure.value < w[0].failure.value)
        );
    }
}
