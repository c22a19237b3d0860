//! The report of `pathology inference frontier` (module [`super::frontier`]) and its figure
//! data: tables `frontier` (per budget: the best strategy and setting, its spend, the
//! runner-up, the ties) and `strategies` (per budget and strategy: its best setting within
//! the budget, the figure's points).

use num_rational::BigRational;

use super::compute::{count, whole_or_exact};
use super::frontier::{Frontier, FrontierRequest, STRATEGIES, Setting, Strategy};
use crate::analytic::distributions::Bounded;
use crate::error::Result;
use crate::numeric::number::{Probability, short_text};
use crate::report::figure::{Axes, Scale, Series};
use crate::report::{Cell, Column, Kind, Report, Table, printed_error_bound};

/// The tables of the frontier's report, in order.
pub const TABLES: [&str; 2] = ["frontier", "strategies"];

/// The frontier's figure: accuracy against budget, one series per strategy (its best
/// setting within each budget) and the frontier.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontierFigure {
    /// The axes (x the budget, on a base-2 axis when the budgets span a factor of 4 or more).
    pub axes: Axes,
    /// One series per strategy that fits some budget, then `frontier`.
    pub series: Vec<Series>,
}

fn cell<P: Probability>(b: &Bounded<P>) -> Cell {
    match b.value.exact_value() {
        Some(exact) => Cell::Exact(exact),
        None => Cell::Bounded {
            value: b.value.to_f64(),
            bound: b.bound,
        },
    }
}

fn real(name: &str, label: &str) -> Column {
    Column::new(name, Kind::Real).labelled(label)
}

/// The spend columns, named as lookahead's and beam search's.
fn spend_columns() -> [Column; 3] {
    [
        Column::new("steps", Kind::Integer).labelled("steps"),
        Column::new("verifier_calls", Kind::Integer).labelled("calls"),
        real("cost", "cost"),
    ]
}

fn spend_cells<P>(s: &Setting<P>) -> [Cell; 3] {
    [
        count(&s.spend.steps),
        count(&s.spend.calls),
        whole_or_exact(&s.cost),
    ]
}

fn named<P>(s: &Setting<P>) -> String {
    format!("{} {}", s.strategy.name(), s.strategy.setting_text(s.value))
}

impl FrontierRequest {
    /// The report in exact rationals (`exact`) or `f64` with rigorous bounds.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::{FrontierRequest, LookaheadSearch, Prices, Tasks};
    /// use pathology::analytic::pathsum::Law;
    /// use pathology::numeric::number::parse_rational;
    /// let request = FrontierRequest {
    ///     search: LookaheadSearch {
    ///         branching: 2,
    ///         steps: 2,
    ///         step_correct: parse_rational("1/2").unwrap(),
    ///         noise: Law::parse("--noise", "0:1/2,1:1/2").unwrap(),
    ///         growth: parse_rational("0").unwrap(),
    ///     },
    ///     mix: Tasks::parse_steps("1/2").unwrap(),
    ///     prices: Prices::unit(),
    ///     budgets: vec![3, 16],
    ///     beams: None,
    ///     depths: None,
    /// };
    /// let report = request.report(true).unwrap();
    /// assert_eq!(report.tables[0].name, "frontier");
    /// assert_eq!(report.tables[0].rows.len(), 2);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`FrontierRequest::compute`].
    pub fn report(&self, exact: bool) -> Result<Report> {
        Ok(self.report_and_figure(exact)?.0)
    }

    /// [`Self::report`] and the figure data ([`FrontierFigure`]) of the same computation.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::inference::{FrontierRequest, LookaheadSearch, Prices, Tasks};
    /// use pathology::analytic::pathsum::Law;
    /// use pathology::numeric::number::parse_rational;
    /// let request = FrontierRequest {
    ///     search: LookaheadSearch {
    ///         branching: 2,
    ///         steps: 2,
    ///         step_correct: parse_rational("1/2").unwrap(),
    ///         noise: Law::parse("--noise", "0:1/2,1:1/2").unwrap(),
    ///         growth: parse_rational("0").unwrap(),
    ///     },
    ///     mix: Tasks::parse_steps("1/2").unwrap(),
    ///     prices: Prices::unit(),
    ///     budgets: vec![4, 8, 16, 32],
    ///     beams: None,
    ///     depths: None,
    /// };
    /// let (report, figure) = request.report_and_figure(false).unwrap();
    /// assert_eq!(report.tables.len(), 2);
    /// // One series per strategy within some budget, then the frontier, one point a budget.
    /// let frontier = figure.series.last().unwrap();
    /// assert_eq!(frontier.points.len(), 4);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`FrontierRequest::compute`].
    pub fn report_and_figure(&self, exact: bool) -> Result<(Report, FrontierFigure)> {
        if exact {
            let f = self.compute::<BigRational>()?;
            Ok((self.laid_out(&f), self.figure(&f)))
        } else {
            let f = self.compute::<f64>()?;
            Ok((self.laid_out(&f), self.figure(&f)))
        }
    }

    fn laid_out<P: Probability>(&self, f: &Frontier<P>) -> Report {
        let mut columns = vec![
            Column::key("budget", Kind::Integer),
            Column::new("strategy", Kind::Text),
            Column::new("setting", Kind::Text),
            real("P_correct", "P_correct"),
        ];
        columns.extend(spend_columns());
        columns.extend([
            Column::new("runner_up", Kind::Text).labelled("runner-up"),
            real("runner_up_P_correct", "runner-up P_correct"),
            Column::new("ties", Kind::Text).labelled("tied with"),
        ]);
        let mut frontier = Table::new(
            "frontier",
            "per budget: the strategy and setting of the largest P_correct among those costing \
             at most the budget, its spend, the best of the other strategies (runner-up) and \
             the strategies tied with it",
            columns,
        );
        let none = "nothing costs at most the budget";
        for row in &f.rows {
            let mut cells = vec![Cell::int(row.budget)];
            match row.best {
                Some(b) => {
                    let s = &f.settings[b];
                    cells.extend([
                        Cell::text(s.strategy.name()),
                        Cell::text(s.strategy.setting_text(s.value)),
                        cell(&s.correct),
                    ]);
                    cells.extend(spend_cells(s));
                }
                None => {
                    cells.extend([Cell::text(none), Cell::Empty, Cell::Empty]);
                    cells.extend([Cell::Empty, Cell::Empty, Cell::Empty]);
                }
            }
            match row.runner_up {
                Some(r) => {
                    cells.extend([
                        Cell::text(named(&f.settings[r])),
                        cell(&f.settings[r].correct),
                    ]);
                }
                None => cells.extend([Cell::text("none"), Cell::Empty]),
            }
            cells.push(Cell::text(if row.ties.is_empty() {
                "none".to_string()
            } else {
                row.ties
                    .iter()
                    .map(|&i| named(&f.settings[i]))
                    .collect::<Vec<_>>()
                    .join("; ")
            }));
            frontier.push(cells);
        }
        let mut columns = vec![
            Column::key("budget", Kind::Integer),
            Column::key("strategy", Kind::Text),
            Column::new("setting", Kind::Text),
            real("P_correct", "P_correct"),
        ];
        columns.extend(spend_columns());
        let mut strategies = Table::new(
            "strategies",
            "per budget and strategy: its setting of the largest P_correct among those costing \
             at most the budget (the cheapest of equal ones)",
            columns,
        );
        for row in &f.rows {
            for (strategy, pick) in STRATEGIES.iter().zip(&row.per_strategy) {
                let mut cells = vec![Cell::int(row.budget), Cell::text(strategy.name())];
                match pick {
                    Some(i) => {
                        let s = &f.settings[*i];
                        cells.extend([
                            Cell::text(s.strategy.setting_text(s.value)),
                            cell(&s.correct),
                        ]);
                        cells.extend(spend_cells(s));
                    }
                    None => {
                        cells.push(Cell::text("none within the budget"));
                        cells.extend([Cell::Empty, Cell::Empty, Cell::Empty, Cell::Empty]);
                    }
                }
                strategies.push(cells);
            }
        }
        let search = &self.search;
        let mut report = Report::new("inference frontier", "compute-optimal frontier")
            .param("branching", search.branching)
            .param("steps", search.steps)
            .param("step_correct", self.mix.steps_text())
            .param("noise", search.noise.text())
            .param("growth", short_text(&search.growth))
            .param("cost_sample", short_text(&self.prices.sample))
            .param("cost_verifier", short_text(&self.prices.verifier))
            .param("budgets", super::list_text(&self.budgets));
        if let Some(widths) = &self.beams {
            let widths: Vec<u64> = widths.iter().map(|&m| u64::from(m)).collect();
            report = report.param("beams", super::list_text(&widths));
        }
        if let Some(depths) = &self.depths {
            let depths: Vec<u64> = depths.iter().map(|&d| u64::from(d)).collect();
            report = report.param("depth", super::list_text(&depths));
        }
        let values = |strategy: Strategy| -> String {
            let v: Vec<u64> = f
                .settings
                .iter()
                .filter(|s| s.strategy == strategy)
                .map(|s| s.value)
                .collect();
            if v.is_empty() {
                "none".to_string()
            } else {
                let letter = match strategy {
                    Strategy::BestOfN => "N",
                    Strategy::Beam => "M",
                    _ => "d",
                };
                format!("{letter} = {}", super::list_text(&v))
            }
        };
        let (a, v) = (
            short_text(&self.prices.sample),
            short_text(&self.prices.verifier),
        );
        report = report
            .with_table(frontier)
            .with_table(strategies)
            .note(format!(
                "spend of one run: best-of-N N L steps and N calls (N complete solutions, each \
                 scored once at length L); greedy L B of each (beam width 1, which is depth-1 \
                 lookahead exactly); beam width M L M B of each; depth-d lookahead sum over l = \
                 0..L-1 of B (B^(h+1) - 1)/(B - 1) steps and B^(h+1) calls, h = min(d, L - l) - \
                 1; cost = {a} steps + {v} calls (--cost-sample, --cost-verifier)"
            ))
            .note(format!(
                "settings computed (those costing at most the largest budget): best-of-N {}; \
                 greedy {}; beam {}; lookahead {}; a strategy's value at a budget \
                 is the largest P_correct of its settings within it (the cheapest of equal \
                 ones), the frontier the largest of the strategies' values",
                values(Strategy::BestOfN),
                if f.count(Strategy::Greedy) > 0 {
                    "computed"
                } else {
                    "above every budget"
                },
                values(Strategy::Beam),
                values(Strategy::Lookahead),
            ));
        if let Some(lattice) = super::continuous::lattice_text(&search.noise) {
            report = report.note(format!(
                "lattice law: {lattice}; every value above, and its bound, is for the lattice"
            ));
        }
        if P::EXACT {
            return report
                .note(
                    "exact: values compared as rationals; tied with: the other strategies \
                     whose value equals the best's",
                )
                .param("exact", true)
                .mode("exact");
        }
        report.mode("f64").note(format!(
            "f64: every value is within {} of the exact value of the model at the given \
             parameters (rigorous: outward-rounded interval arithmetic, or the exact value \
             rounded once; each value's own bound is its CSV/JSON column *_error_bound); \
             values are compared by their f64 midpoints, and tied with lists the other \
             strategies whose values are not separated by their bounds (--exact decides)",
            printed_error_bound(0.0, f.largest_bound())
        ))
    }

    fn figure<P: Probability>(&self, f: &Frontier<P>) -> FrontierFigure {
        let x = |budget: u64| budget as f64;
        let mut series: Vec<Series> = Vec::new();
        for (k, strategy) in STRATEGIES.iter().enumerate() {
            let points: Vec<(f64, f64)> = f
                .rows
                .iter()
                .filter_map(|row| {
                    row.per_strategy[k]
                        .map(|i| (x(row.budget), f.settings[i].correct.value.to_f64()))
                })
                .collect();
            if !points.is_empty() {
                series.push(Series {
                    label: strategy.name().to_string(),
                    points,
                });
            }
        }
        let frontier: Vec<(f64, f64)> = f
            .rows
            .iter()
            .filter_map(|row| {
                row.best
                    .map(|i| (x(row.budget), f.settings[i].correct.value.to_f64()))
            })
            .collect();
        series.push(Series {
            label: "frontier (the best of all)".to_string(),
            points: frontier,
        });
        let low = *self.budgets.iter().min().expect("nonempty") as f64;
        let high = *self.budgets.iter().max().expect("nonempty") as f64;
        let log = high >= 4.0 * low;
        let ys = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
        let (y_low, y_high) = ys.fold((1.0f64, 0.0f64), |(l, h), y| (l.min(y), h.max(y)));
        let margin = ((y_high - y_low) * 0.08).max(0.01);
        let search = &self.search;
        FrontierFigure {
            axes: Axes {
                title: format!(
                    "compute-optimal frontier: B = {}, L = {}, Q = {}, noise {}",
                    search.branching,
                    search.steps,
                    self.mix.steps_text(),
                    search.noise.text()
                ),
                x_label: format!(
                    "budget ({} steps + {} calls{})",
                    short_text(&self.prices.sample),
                    short_text(&self.prices.verifier),
                    if log { "; each tick doubles it" } else { "" }
                ),
                y_label: "P_correct (best setting within the budget)".to_string(),
                x_range: if log {
                    (low / 1.1, high * 1.1)
                } else {
                    (low - 0.5, high + 0.5)
                },
                x_scale: if log { Scale::Log2 } else { Scale::Linear },
                // Room above the curves for the legend (upper right).
                y_range: (
                    (y_low - margin).max(0.0),
                    (y_high + margin)
                        .max(y_high + 0.35 * (y_high - y_low))
                        .min(1.0),
                ),
            },
            series,
        }
    }
}
