//! The report of `pathology inference knockout`: the bracket by K and r with Chen et al.'s
//! bound beside the exact failure probability, the best r per K, the league beside it and
//! each type's w.

use num_rational::BigRational;
use num_traits::Zero;

use super::{Knockout, LeagueRow, Tasks, knockout, league};
use crate::analytic::distributions::Bounded;
use crate::error::Result;
use crate::numeric::number::{Probability, short_text};
use crate::report::{Cell, Column, Kind, Report, Table, printed_error_bound};

/// What `pathology inference knockout` computes.
#[derive(Debug, Clone, PartialEq)]
pub struct KnockoutSetting {
    /// The task mix.
    pub tasks: Tasks,
    /// P per task type (`--judge-correct`, one value repeated or one per type).
    pub judge_correct: Vec<BigRational>,
    /// The list of K.
    pub judge_calls: Vec<u64>,
    /// The list of r.
    pub rounds: Vec<u64>,
    /// The list of league sizes N (empty: no league).
    pub league: Vec<u64>,
    /// The price of one generated candidate (`--cost-sample`).
    pub cost_sample: Option<BigRational>,
    /// The price of one judge call (`--cost-verifier`).
    pub cost_verifier: Option<BigRational>,
}

/// The setting from its options by name (`tasks`, `judge_correct`, `judge_calls`, `rounds`,
/// and optionally `league`, `cost_sample`, `cost_verifier`), each read as the command line
/// reads it.
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming the missing or malformed option.
pub(crate) fn setting_from(text: &dyn Fn(&str) -> Option<String>) -> Result<KnockoutSetting> {
    let given = |name: &str| {
        text(name).ok_or_else(|| {
            crate::Error::invalid(&format!("--{}", name.replace('_', "-")), "given", "nothing")
        })
    };
    let price = |name: &str| -> Result<Option<BigRational>> {
        text(name)
            .map(|t| parse_price(&format!("--{}", name.replace('_', "-")), &t))
            .transpose()
    };
    let tasks_text = given("tasks")?;
    // `--weights` (given as "true"): the W are positive weights divided by their sum.
    let tasks = Tasks::parse_with(&tasks_text, text("weights").as_deref() == Some("true"))?;
    // A type of share 0 is no type: refused here rather than dropped.
    if tasks.types().len() != tasks_text.split(',').count() {
        return Err(crate::Error::invalid(
            "--tasks",
            "items R:W with every share W above 0 (W in (0, 1], summing to 1)",
            tasks_text,
        ));
    }
    let judge_correct = super::parse_judge_correct(&given("judge_correct")?, tasks.types().len())?;
    Ok(KnockoutSetting {
        judge_correct,
        judge_calls: super::parse_judge_calls(&given("judge_calls")?)?,
        rounds: super::parse_rounds(&given("rounds")?)?,
        league: match text("league") {
            Some(t) if !t.is_empty() => super::parse_league(&t)?,
            _ => Vec::new(),
        },
        cost_sample: price("cost_sample")?,
        cost_verifier: price("cost_verifier")?,
        tasks,
    })
}

/// A price (`--cost-sample`, `--cost-verifier`): a rational at least 0, read exactly.
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `name` for a malformed or negative number.
pub fn parse_price(name: &str, text: &str) -> Result<BigRational> {
    let allowed = "a rational or decimal at least 0 (the price of one candidate or call)";
    let value = crate::numeric::number::parse_rational(text.trim())
        .map_err(|e| crate::Error::invalid(name, &format!("{allowed}; {e}"), text))?;
    if value < BigRational::zero() {
        return Err(crate::Error::invalid(name, allowed, text));
    }
    Ok(value)
}

/// The names of the report's tables.
pub(crate) const TABLES: [&str; 4] = ["knockout", "best", "league", "judge"];

impl KnockoutSetting {
    /// `--judge-correct` as it was given: one value when every type has the same.
    pub fn judge_correct_text(&self) -> String {
        if self
            .judge_correct
            .iter()
            .all(|p| *p == self.judge_correct[0])
        {
            short_text(&self.judge_correct[0])
        } else {
            self.judge_correct
                .iter()
                .map(short_text)
                .collect::<Vec<_>>()
                .join(",")
        }
    }

    /// What the report would cost, before any work.
    pub(crate) fn estimate(&self, exact: bool) -> Result<super::Estimate> {
        let mut e = super::knockout::knockout_estimate(
            &self.tasks,
            &self.judge_correct,
            &self.judge_calls,
            &self.rounds,
            exact,
        )?;
        if !self.league.is_empty() {
            let l = super::league::league_estimate(&self.tasks, &self.judge_calls, &self.league)?;
            e.cost.seconds += l.cost.seconds;
        }
        Ok(e)
    }

    fn priced(&self) -> bool {
        self.cost_sample.is_some() || self.cost_verifier.is_some()
    }

    /// `C_s N + C_v calls`, each price 0 when not given.
    fn cost(&self, candidates: u64, calls: u64) -> Cell {
        let price = |p: &Option<BigRational>| p.clone().unwrap_or_else(BigRational::zero);
        Cell::Exact(
            price(&self.cost_sample) * BigRational::from_integer(candidates.into())
                + price(&self.cost_verifier) * BigRational::from_integer(calls.into()),
        )
    }

    /// The report in mode `P`.
    pub(crate) fn report<P: Probability>(&self, command: &str) -> Result<Report> {
        self.estimate(P::EXACT)?.check()?;
        let k: Knockout<P> = knockout(
            &self.tasks,
            &self.judge_correct,
            &self.judge_calls,
            &self.rounds,
        )?;
        let leagues: Vec<LeagueRow<P>> = if self.league.is_empty() {
            Vec::new()
        } else {
            league(
                &self.tasks,
                &self.judge_correct,
                &self.judge_calls,
                &self.league,
            )?
        };
        let cell = |b: &Bounded<P>| match b.value.exact_value() {
            Some(x) => Cell::Exact(x),
            None => Cell::Bounded {
                value: b.value.to_f64(),
                bound: b.bound,
            },
        };
        let real = |name: &str, label: &str| Column::new(name, Kind::Real).labelled(label);
        let mut columns = vec![
            Column::key("K", Kind::Integer),
            Column::key("r", Kind::Integer),
            Column::new("candidates", Kind::Integer).labelled("N"),
            Column::new("judge_calls", Kind::Integer).labelled("judge calls"),
        ];
        if self.priced() {
            columns.push(real("cost", "cost"));
        }
        columns.extend([
            real("P_correct", "P_correct"),
            real("P_fail", "P_fail"),
            Column::new("chen_bound", Kind::Real).labelled("Chen et al. bound"),
            Column::new("within_bound", Kind::Text).labelled("fail <= bound"),
            Column::new("vs_one_sample", Kind::Text).labelled("vs one sample"),
        ]);
        let mut table = Table::new(
            "knockout",
            "knockout bracket of N = 2^r candidates, K judge calls per match (a strict \
             majority wins; a K/2 tie is a fair coin); Chen et al.'s bound on P_fail, \
             (1 - R)^N + r exp(-2 K (P - 1/2)^2) weighted over the types, rounded up",
            columns,
        );
        let order = |o: Option<std::cmp::Ordering>| {
            Cell::text(match o {
                Some(std::cmp::Ordering::Greater) => "above",
                Some(std::cmp::Ordering::Less) => "below",
                Some(std::cmp::Ordering::Equal) => "equal",
                None => "undecided in f64",
            })
        };
        for row in &k.rows {
            let mut cells = vec![
                Cell::int(row.judge_calls_per_match),
                Cell::int(row.rounds),
                Cell::int(row.candidates),
                Cell::int(row.judge_calls),
            ];
            if self.priced() {
                cells.push(self.cost(row.candidates, row.judge_calls));
            }
            cells.extend([
                cell(&row.correct),
                cell(&row.failure),
                row.bound
                    .map_or(Cell::Empty, |(_, upper)| Cell::Real(upper)),
                match (row.bound, row.within_bound) {
                    (None, _) => Cell::text("no bound (P <= 1/2)"),
                    (_, Some(true)) => Cell::text("yes"),
                    (_, Some(false)) => Cell::text("NO"),
                    (_, None) => Cell::text("undecided in f64"),
                },
                order(row.against_one_sample),
            ]);
            table.push(cells);
        }
        let mut best = Table::new(
            "best",
            "per K: the r of the list with the largest P_correct, and the first r of the list \
             whose P_correct is below one sample's",
            vec![
                Column::key("K", Kind::Integer),
                Column::new("best_r", Kind::Integer).labelled("best r"),
                real("P_best", "P_correct at best r"),
                Column::new("first_below", Kind::Text).labelled("first r below one sample"),
            ],
        );
        for b in &k.best {
            let at = k
                .rows
                .iter()
                .find(|r| {
                    r.judge_calls_per_match == b.judge_calls_per_match && r.rounds == b.best_rounds
                })
                .expect("the best row");
            best.push(vec![
                Cell::int(b.judge_calls_per_match),
                Cell::int(b.best_rounds),
                cell(&at.correct),
                b.first_below.map_or(Cell::text("none on the list"), |r| {
                    Cell::text(r.to_string())
                }),
            ]);
        }
        let mut judge = Table::new(
            "judge",
            "per task type and K: w, the probability that a correct candidate beats a wrong \
             one in a match of K judge calls",
            vec![
                Column::key("R", Kind::Real),
                Column::key("W", Kind::Real),
                Column::key("P", Kind::Real),
                Column::key("K", Kind::Integer),
                real("w", "w"),
            ],
        );
        for ((t, p), ws) in self
            .tasks
            .types()
            .iter()
            .zip(&self.judge_correct)
            .zip(&k.judge_win)
        {
            for (kk, w) in self.judge_calls.iter().zip(ws) {
                judge.push(vec![
                    Cell::Exact(t.success.clone()),
                    Cell::Exact(t.share.clone()),
                    Cell::Exact(p.clone()),
                    Cell::int(*kk),
                    Cell::Exact(w.clone()),
                ]);
            }
        }
        let mut report = Report::new(command, "knockout tournament of candidates")
            .param("tasks", self.tasks.given_text())
            .param("judge_correct", self.judge_correct_text())
            .param("judge_calls", super::list_text(&self.judge_calls))
            .param("rounds", super::list_text(&self.rounds));
        if !self.league.is_empty() {
            report = report.param("league", super::list_text(&self.league));
        }
        if let Some(c) = &self.cost_sample {
            report = report.param("cost_sample", short_text(c));
        }
        if let Some(c) = &self.cost_verifier {
            report = report.param("cost_verifier", short_text(c));
        }
        report = report.with_table(table).with_table(best);
        let mut bounds: Vec<f64> = k
            .rows
            .iter()
            .flat_map(|r| [r.correct.bound, r.failure.bound])
            .collect();
        if !leagues.is_empty() {
            let mut columns = vec![
                Column::key("K", Kind::Integer),
                Column::key("N", Kind::Integer),
                Column::new("judge_calls", Kind::Integer).labelled("judge calls"),
            ];
            if self.priced() {
                columns.push(real("cost", "cost"));
            }
            columns.push(real("P_correct", "P_correct"));
            columns.push(Column::new("vs_one_sample", Kind::Text).labelled("vs one sample"));
            let mut table = Table::new(
                "league",
                "league of N candidates: every pair compared once with K judge calls, a match of \
                 two correct or two wrong candidates a fair coin; the most match wins is the \
                 answer, ties among the top broken uniformly (exact: a dynamic programme over \
                 the candidates' scores)",
                columns,
            );
            for row in &leagues {
                let mut cells = vec![
                    Cell::int(row.judge_calls_per_match),
                    Cell::int(row.candidates),
                    Cell::int(row.judge_calls),
                ];
                if self.priced() {
                    cells.push(self.cost(row.candidates, row.judge_calls));
                }
                let exact = row.correct.value.exact_value();
                let versus = match exact {
                    Some(x) => Some(x.cmp(&k.one_sample)),
                    None => {
                        let v = row.correct.value.to_f64();
                        let one = super::arith::approx(&k.one_sample);
                        if v - row.correct.bound > one {
                            Some(std::cmp::Ordering::Greater)
                        } else if v + row.correct.bound < one {
                            Some(std::cmp::Ordering::Less)
                        } else {
                            None
                        }
                    }
                };
                cells.push(cell(&row.correct));
                cells.push(order(versus));
                table.push(cells);
                bounds.push(row.correct.bound);
            }
            report = report.with_table(table);
        }
        report = report.with_table(judge);
        report = report.note(format!(
            "one sample's accuracy sum_j W_j R_j = {}; {}",
            P::from_rational(&k.one_sample).to_decimal(6),
            match k.direction {
                Some(std::cmp::Ordering::Greater) => {
                    "every type's P is above 1/2, so every round raises each type's accuracy \
                     (q_(r+1) - q_r = q_r (1 - q_r)(2w - 1) > 0 for 0 < R < 1): more rounds \
                     help at every r, not only on the list"
                }
                Some(std::cmp::Ordering::Less) => {
                    "every type's P is below 1/2, so every round lowers each type's accuracy \
                     (q_(r+1) - q_r = q_r (1 - q_r)(2w - 1) < 0 for 0 < R < 1): more rounds \
                     hurt at every r, not only on the list"
                }
                Some(std::cmp::Ordering::Equal) => {
                    "every type's P is 1/2 (w = 1/2), so the bracket's winner is correct with \
                     one sample's probability at every r"
                }
                None => {
                    "the types' P lie on both sides of 1/2: the types with P > 1/2 gain at every \
                     round and those with P < 1/2 lose, so the mix may rise and then fall"
                }
            }
        ));
        report = report.note(
            "Chen et al.'s bound (arXiv 2411.19477, stated in their abstract, v1, for p_gen > 0 \
             and p_comp > 1/2): P(final output is incorrect) <= (1 - p_gen)^N + ceil(log2 N) \
             exp(-2 K (p_comp - 1/2)^2), here p_gen = R, p_comp = P, ceil(log2 N) = r, weighted \
             over the types; computed in f64 with libm's exp widened by four ulps, printed \
             rounded up; `fail <= bound` compares the exact failure probability (or its f64 \
             enclosure's upper end) with the bound's lower end",
        );
        if self.judge_calls.iter().any(|k| k % 2 == 0) {
            report = report.note(
                "even K: a tie of K/2 calls each is broken by a fair coin, so w at an even K \
                 equals w at K - 1 (the extra call only turns a majority of one into a tie)",
            );
        }
        if self.priced() {
            report = report.note(format!(
                "cost = {} x candidates + {} x judge calls (--cost-sample, --cost-verifier; a \
                 price not given is 0)",
                self.cost_sample
                    .as_ref()
                    .map_or("0".to_string(), short_text),
                self.cost_verifier
                    .as_ref()
                    .map_or("0".to_string(), short_text),
            ));
        }
        if P::EXACT {
            return Ok(report.param("exact", true).mode("exact"));
        }
        let largest = bounds.into_iter().fold(0.0, f64::max);
        Ok(report.mode("f64").note(format!(
            "f64: every value is within {} of the exact value of the model at the given \
             parameters (rigorous: outward-rounded interval arithmetic, or the exact value \
             rounded once; each value's own bound is its CSV/JSON column *_error_bound)",
            printed_error_bound(0.0, largest)
        )))
    }
}
