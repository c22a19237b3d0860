//! D-game results as [`Report`]s: the decision tables of `table`, `dgame` and `sweep` (Li &
//! Marsland Section 6.2, Tables 1-2), the certified complements `1 - D(d,h)`, the threshold
//! and its trend with the height.
//!
//! Every table is tidy: `decisions` has one row per (f1, f2, h, d) with `D`; `ps` one row per
//! (f1, f2, h) with `PS`. Text, Markdown and LaTeX show the paper's layout (depths down,
//! settings across, PS last) through a [`Grid`].

use num_rational::BigRational;

use super::DecisionColumn;
use super::complement::{ComplementSolver, Enclosure};
use super::f2_from_p0;
use super::table::{PAPER_HEIGHT, PaperTable, SecondFactor, compute_columns};
use super::threshold::{ThresholdReport, pathology_threshold};
use super::trend::TrendRow;
use crate::error::{Error, Result};
use crate::numeric::number::{Probability, short_text};
use crate::report::{Cell, Column, Grid, Kind, Report, Table, printed_error_bound};

/// D(d, `height`) of every (f1, f2) of `settings` computed in exact rationals (`exact`) or
/// `f64`, as [`decision_report`] lays them out, with the mode in the manifest (parameter
/// `exact`).
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::report::{Layout, settings_report};
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::Report;
/// let f = parse_rational("0.1").unwrap();
/// let report = settings_report(Report::new("dgame", "D"), &[(f.clone(), f)], 10,
///     Layout::DepthRows, Some(1), true).unwrap();
/// assert_eq!(report.manifest.mode, "exact");
/// assert_eq!(report.tables[0].rows.len(), 1);
/// ```
///
/// # Errors
///
/// As [`compute_columns`] (a refused cost, factors outside `[0, 1]`).
pub fn settings_report(
    report: Report,
    settings: &[(BigRational, BigRational)],
    height: u32,
    layout: Layout,
    only_depth: Option<u32>,
    exact: bool,
) -> Result<Report> {
    fn build<P: Probability>(
        report: Report,
        settings: &[(BigRational, BigRational)],
        height: u32,
        layout: Layout,
        only_depth: Option<u32>,
    ) -> Result<Report> {
        let converted: Vec<(P, P)> = settings
            .iter()
            .map(|(a, b)| (P::from_rational(a), P::from_rational(b)))
            .collect();
        let columns = compute_columns(&converted, height)?;
        Ok(decision_report(
            report, &columns, settings, layout, only_depth,
        ))
    }
    let report = report.param("exact", exact);
    if exact {
        build::<BigRational>(report, settings, height, layout, only_depth)
    } else {
        build::<f64>(report, settings, height, layout, only_depth)
    }
}

/// Li & Marsland's Table 1 or 2 (`pathology table 1|2`), exact or `f64`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::report::paper_table_report;
/// use pathology::analytic::dgame::table::PaperTable;
/// let report = paper_table_report(PaperTable::One, false).unwrap();
/// assert_eq!(report.manifest.command_line(), "pathology table 1");
/// ```
///
/// # Errors
///
/// As [`settings_report`] (never for the paper's tables).
pub fn paper_table_report(table: PaperTable, exact: bool) -> Result<Report> {
    let report = Report::new("table", table.caption()).param("_", table.number());
    settings_report(
        report,
        &table.settings(),
        PAPER_HEIGHT,
        Layout::DepthRows,
        None,
        exact,
    )
}

/// One D-game of Li & Marsland (`pathology dgame`): D(d,h) at every depth (or one) and PS
/// for one pair of dependence factors, or the certified error probabilities `1 - D(d,h)`.
#[derive(Debug, Clone, PartialEq)]
pub struct DgameRequest {
    /// Height h of the node where the decision is made (1..=40).
    pub height: u32,
    /// Dependence factor f1 of win Max nodes.
    pub f1: BigRational,
    /// f2: given ([`SecondFactor::Fixed`]), derived from p0 by Theorem 3.1
    /// ([`SecondFactor::FromP0`]) or equal to f1 ([`SecondFactor::Equal`]).
    pub second: SecondFactor<BigRational>,
    /// Only D(depth, h) (1 <= depth <= h).
    pub depth: Option<u32>,
    /// The error probability `1 - D(d,h)` with a certified enclosure instead (`f64` only).
    pub complement: bool,
    /// Exact rationals instead of `f64`.
    pub exact: bool,
}

impl DgameRequest {
    /// Decimals a reader's format shows by default: 10 for the complements (which stay
    /// informative where D rounds to 1), else 3 as the paper's tables.
    pub fn decimals(&self) -> usize {
        if self.complement { 10 } else { 3 }
    }

    /// The names of the tables [`Self::report`] will have, known before any work: the
    /// complements alone, or the decisions and PS.
    pub fn tables(&self) -> Vec<&'static str> {
        if self.complement {
            vec!["complements"]
        } else {
            vec!["decisions", "ps"]
        }
    }

    /// f2 as the request fixes it.
    ///
    /// # Errors
    ///
    /// [`Error::Context`] around [`f2_from_p0`]'s error when p0 gives no f2 in `[0, 1]`.
    pub fn f2(&self) -> Result<BigRational> {
        match &self.second {
            SecondFactor::Equal => Ok(self.f1.clone()),
            SecondFactor::Fixed(f2) => Ok(f2.clone()),
            SecondFactor::FromP0(p0) => f2_from_p0(&self.f1, p0)
                .map_err(|e| e.context("deriving f2 from --p0 (Theorem 3.1)")),
        }
    }

    /// The report: table `decisions` (and `ps`), or `complements` with `--complement`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::report::DgameRequest;
    /// use pathology::analytic::dgame::table::SecondFactor;
    /// use pathology::numeric::number::parse_rational;
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let request = DgameRequest {
    ///     height: 10, f1: q("0.3"), second: SecondFactor::FromP0(q("0.5")),
    ///     depth: None, complement: false, exact: false,
    /// };
    /// let report = request.report().unwrap();
    /// assert_eq!(report.manifest.command_line(), "pathology dgame --height 10 --f1 0.3 --p0 0.5");
    /// assert_eq!(report.tables[0].rows.len(), 10);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a height outside 1..=40, a depth outside 1..=h, or
    /// `--complement` with `--exact`; as [`DgameRequest::f2`], [`settings_report`] and
    /// [`ComplementSolver`].
    pub fn report(&self) -> Result<Report> {
        let h = self.height;
        if !(1..=40).contains(&h) {
            return Err(Error::invalid("--height", "in 1..=40", h));
        }
        if self.complement && self.exact {
            return Err(Error::invalid(
                "--complement",
                "given without --exact (its enclosures are f64)",
                "--exact",
            ));
        }
        let f2 = self.f2()?;
        if let Some(d) = self.depth
            && !(1..=h).contains(&d)
        {
            return Err(Error::invalid(
                "--depth",
                &format!("in 1..={h} (at most --height)"),
                d,
            ));
        }
        let theorem = match &self.second {
            SecondFactor::FromP0(p0) => format!(" (Theorem 3.1, p0 = {})", short_text(p0)),
            _ => String::new(),
        };
        let title = format!(
            "D(d,{h}) for f1 = {}, f2 = {}{theorem}",
            short_text(&self.f1),
            short_text(&f2),
        );
        let mut report = Report::new("dgame", &title)
            .param("height", h)
            .param("f1", short_text(&self.f1));
        report = match &self.second {
            SecondFactor::FromP0(p0) => report.param("p0", short_text(p0)),
            _ => report.param("f2", short_text(&f2)),
        };
        if let Some(d) = self.depth {
            report = report.param("depth", d);
        }
        if self.complement {
            return self.complement_report(report.param("complement", true), &f2);
        }
        let settings = [(self.f1.clone(), f2)];
        settings_report(
            report,
            &settings,
            h,
            Layout::DepthRows,
            self.depth,
            self.exact,
        )
    }

    /// `1 - D(d,h)` with its enclosures.
    fn complement_report(&self, report: Report, f2: &BigRational) -> Result<Report> {
        let h = self.height;
        let mut solver = ComplementSolver::new(&self.f1, f2)?;
        let enclosures = match self.depth {
            Some(d) => vec![(d, solver.wrong_decision(d, h)?)],
            None => (1..=h).zip(solver.wrong_decision_column(h)?).collect(),
        };
        let title = format!(
            "1 - D(d,{h}) for f1 = {}, f2 = {}",
            short_text(&self.f1),
            short_text(f2)
        );
        let mut report = complement_report(report, &self.f1, f2, h, &enclosures);
        report.title = title.clone();
        report.tables[0].caption = title;
        Ok(report)
    }
}

/// How the settings of a decision table are laid out for readers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One row per depth d, one column per (f1, f2) setting, PS last: the paper's layout.
    DepthRows,
    /// One row per setting, one column per depth, PS last: for sweeps.
    SettingRows,
}

/// A probability as a cell: exact when the mode is exact, else `f64` with its bound.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::report::probability_cell;
/// use pathology::report::Cell;
/// assert_eq!(probability_cell(&0.5f64, 1e-12), Cell::Bounded { value: 0.5, bound: 1e-12 });
/// ```
pub fn probability_cell<P: Probability>(value: &P, bound: f64) -> Cell {
    match value.exact_value() {
        Some(exact) => Cell::Exact(exact),
        None => Cell::Bounded {
            value: value.to_f64(),
            bound,
        },
    }
}

/// A bound on the rounding error of PS: each positive term `D(d-1) - D(d)` is off by at most
/// the sum of the two bounds, and a term that is really zero or negative can appear as at
/// most that much (plus the summation's own rounding, far smaller).
pub fn ps_error_bound<P: Probability>(c: &DecisionColumn<P>) -> f64 {
    let sum: f64 = c.error_bounds.windows(2).map(|w| w[0] + w[1]).sum();
    sum * (1.0 + 1e-9)
}

/// Adds the D(d,h) and PS tables of `columns` to `report`; `labels` are the settings as the
/// user gave them (exact), printed instead of the columns' own (possibly rounded) factors;
/// `only_depth` keeps one depth. In `f64` mode a note states the largest error bound (rounded
/// up) and the estimated peak memory.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::report::{Layout, decision_report};
/// use pathology::analytic::dgame::table::PaperTable;
/// use pathology::report::{ExportOptions, Format, Report};
/// let columns = PaperTable::One.compute::<f64>().unwrap();
/// let report = decision_report(Report::new("table", "Table 1"), &columns,
///     &PaperTable::One.settings(), Layout::DepthRows, None);
/// let text = report.render(Format::Text, &ExportOptions::default()).unwrap();
/// assert!(text.lines().any(|l| l.starts_with("PS") && l.contains("0.038")));
/// assert_eq!(report.tables[0].rows.len(), 90);
/// ```
pub fn decision_report<P: Probability>(
    report: Report,
    columns: &[DecisionColumn<P>],
    labels: &[(BigRational, BigRational)],
    layout: Layout,
    only_depth: Option<u32>,
) -> Report {
    let height = columns.first().map_or(0, |c| c.height);
    let depths: Vec<u32> = match only_depth {
        Some(d) => vec![d],
        None => (1..=height).collect(),
    };
    let key = |name: &str, kind| Column::key(name, kind);
    let mut decisions = Table::new(
        "decisions",
        &report.title,
        vec![
            key("f1", Kind::Real),
            key("f2", Kind::Real),
            key("h", Kind::Integer),
            key("d", Kind::Integer),
            Column::new("D", Kind::Real).labelled(&format!("D(d,{height})")),
        ],
    );
    let mut ps = Table::new(
        "ps",
        &format!("the pathological sum PS at h = {height}"),
        vec![
            key("f1", Kind::Real),
            key("f2", Kind::Real),
            key("h", Kind::Integer),
            Column::new("PS", Kind::Real),
        ],
    );
    ps.data_only = true;
    let mut d_cells: Vec<Vec<Cell>> = Vec::new();
    let mut ps_cells = Vec::new();
    for (c, (f1, f2)) in columns.iter().zip(labels) {
        let mut row_cells = Vec::new();
        for &d in &depths {
            let cell = probability_cell(c.value(d), c.error_bounds[d as usize - 1]);
            decisions.push(vec![
                Cell::Exact(f1.clone()),
                Cell::Exact(f2.clone()),
                Cell::int(c.height),
                Cell::int(d),
                cell.clone(),
            ]);
            row_cells.push(cell);
        }
        let ps_cell = probability_cell(&c.pathological_sum(), ps_error_bound(c));
        ps.push(vec![
            Cell::Exact(f1.clone()),
            Cell::Exact(f2.clone()),
            Cell::int(c.height),
            ps_cell.clone(),
        ]);
        d_cells.push(row_cells);
        ps_cells.push(ps_cell);
    }
    let f1_labels: Vec<String> = labels.iter().map(|(a, _)| short_text(a)).collect();
    let f2_labels: Vec<String> = labels.iter().map(|(_, b)| short_text(b)).collect();
    decisions.grid = Some(match layout {
        Layout::DepthRows => {
            let mut body: Vec<(String, Vec<Cell>)> = depths
                .iter()
                .enumerate()
                .map(|(k, d)| {
                    (
                        d.to_string(),
                        d_cells.iter().map(|c| c[k].clone()).collect(),
                    )
                })
                .collect();
            body.push(("PS".to_string(), ps_cells));
            Grid {
                header: vec![
                    std::iter::once("f1".to_string()).chain(f1_labels).collect(),
                    std::iter::once("f2".to_string()).chain(f2_labels).collect(),
                ],
                rules_after: vec![body.len() - 2],
                body,
            }
        }
        Layout::SettingRows => {
            let mut header = vec!["f1".to_string(), "f2".to_string()];
            header.extend(depths.iter().map(|d| format!("d={d}")));
            header.push("PS".to_string());
            let body = d_cells
                .into_iter()
                .zip(ps_cells)
                .enumerate()
                .map(|(i, (mut cells, ps))| {
                    cells.insert(0, Cell::text(f2_labels[i].clone()));
                    cells.push(ps);
                    (f1_labels[i].clone(), cells)
                })
                .collect();
            Grid {
                header: vec![header],
                body,
                rules_after: Vec::new(),
            }
        }
    });
    let mut report = report
        .mode(if P::EXACT { "exact" } else { "f64" })
        .with_table(decisions)
        .with_table(ps);
    if !P::EXACT {
        let largest = columns
            .iter()
            .flat_map(|c| c.error_bounds.iter().copied())
            .fold(0.0, f64::max);
        report = report.note(f64_note(height, largest));
    }
    report
}

/// The note of an `f64` table of D(d, `height`) whose largest error bound is `largest`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::report::f64_note;
/// let note = f64_note(10, 0.5e-13);
/// assert!(note.starts_with("f64: every D value is within 5.01e-14 of the exact value"), "{note}");
/// ```
pub fn f64_note(height: u32, largest: f64) -> String {
    format!(
        "f64: every D value is within {} of the exact value (rigorous rounding bound, rounded up); estimated peak memory {}",
        printed_error_bound(0.0, largest),
        crate::budget::human_bytes(super::estimate_cost(height, None).bytes)
    )
}

/// The certified complements `1 - D(d,h)` as a table with lower and upper bounds (rounded
/// outward when printed).
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::complement::ComplementSolver;
/// use pathology::analytic::dgame::report::complement_report;
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::Report;
/// let f = parse_rational("0.9").unwrap();
/// let mut solver = ComplementSolver::new(&f, &f).unwrap();
/// let rows: Vec<_> = (1..=6).zip(solver.wrong_decision_column(6).unwrap()).collect();
/// let report = complement_report(Report::new("dgame", "1 - D"), &f, &f, 6, &rows);
/// assert_eq!(report.tables[0].rows.len(), 6);
/// ```
pub fn complement_report(
    report: Report,
    f1: &BigRational,
    f2: &BigRational,
    height: u32,
    enclosures: &[(u32, Enclosure)],
) -> Report {
    let mut table = Table::new(
        "complements",
        &report.title,
        vec![
            Column::key("f1", Kind::Real),
            Column::key("f2", Kind::Real),
            Column::key("h", Kind::Integer),
            Column::key("d", Kind::Integer),
            Column::new("complement", Kind::Interval).labelled(&format!("1 - D(d,{height})")),
        ],
    );
    for (d, e) in enclosures {
        table.push(vec![
            Cell::Exact(f1.clone()),
            Cell::Exact(f2.clone()),
            Cell::int(height),
            Cell::int(*d),
            Cell::Interval {
                estimate: e.estimate,
                lower: e.lower(),
                upper: e.upper(),
            },
        ]);
    }
    report.mode("f64-enclosure").with_table(table).note(
        "1 - D(d,h) lies between complement_lower and complement_upper (rigorous: relative \
         rounding bounds, ends rounded outward when printed); the pair (d-1, d) is \
         pathological when 1 - D rises",
    )
}

/// `pathology threshold`: the pathology threshold at one height ([`pathology_threshold`]) as
/// a report.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::report::threshold_at;
/// let report = threshold_at(8, 20, 1e-3).unwrap();
/// assert_eq!(report.title, "Pathology threshold at h = 8 (f1 = f2 = f)");
/// ```
///
/// # Errors
///
/// As [`pathology_threshold`].
pub fn threshold_at(height: u32, grid: u32, tolerance: f64) -> Result<Report> {
    let threshold = pathology_threshold(height, grid, tolerance)?;
    let report = Report::new(
        "threshold",
        &format!("Pathology threshold at h = {height} (f1 = f2 = f)"),
    )
    .param("height", height)
    .param("grid", grid)
    .param("tolerance", tolerance);
    Ok(threshold_report(report, &[threshold]))
}

/// The threshold scan of one height as a one-row table.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::report::threshold_report;
/// use pathology::analytic::dgame::threshold::pathology_threshold;
/// use pathology::report::Report;
/// let t = pathology_threshold(8, 20, 1e-3).unwrap();
/// let report = threshold_report(Report::new("threshold", "Threshold"), &[t]);
/// assert_eq!(report.tables[0].rows.len(), 1);
/// ```
pub fn threshold_report(report: Report, thresholds: &[ThresholdReport]) -> Report {
    let mut table = threshold_table(&report.title);
    let mut uncertain = Table::new(
        "undecided",
        "points above the lower bracket where some pairs could not be decided",
        vec![
            Column::key("h", Kind::Integer),
            Column::key("f", Kind::Real),
            Column::new("pairs", Kind::Text),
        ],
    );
    for t in thresholds {
        table.push(threshold_cells(t, None));
        for (f, depths) in &t.uncertain {
            uncertain.push(vec![
                Cell::int(t.height),
                Cell::Exact(f.clone()),
                Cell::text(pair_list(depths)),
            ]);
        }
    }
    let mut report = report.mode("certified").with_table(table);
    if !uncertain.rows.is_empty() {
        report = report.with_table(uncertain);
    }
    for t in thresholds {
        report = report.note(threshold_summary(t));
    }
    report.note(
        "f_star is the midpoint of [f_star_lower, f_star_upper]: the lower end has a certified \
         pathological pair, the upper end and every grid point above it none; last_pairs are \
         the pairs (d-1, d) pathological at the lower end",
    )
}

/// The threshold in words: the bracket, the last pair, what was checked and how.
fn threshold_summary(t: &ThresholdReport) -> String {
    let h = t.height;
    let mut out = match &t.lower {
        Some(lo) => format!(
            "h = {h}: f* = {:.10}, between {} (pathological) and {} (not); last pair to turn \
             non-pathological: {}. ",
            t.estimate().unwrap_or(f64::NAN),
            lo.to_decimal(12),
            t.upper.to_decimal(12),
            t.last_pairs
                .iter()
                .map(|d| format!("D({},{h}) > D({d},{h})", d - 1))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => format!("h = {h}: no grid point has a pathological pair. "),
    };
    out.push_str(&format!(
        "Checked: no pathological pair at f = k/{n} for k = {}..={n}{}; {} points evaluated; \
         sign decisions: {}.",
        t.clear_from,
        if t.uncertain.is_empty() {
            ""
        } else {
            " apart from the undecided pairs in table undecided"
        },
        t.evaluations,
        t.decisions.summary(),
        n = t.grid_steps,
    ));
    out
}

fn threshold_table(caption: &str) -> Table {
    Table::new(
        "threshold",
        caption,
        vec![
            Column::key("h", Kind::Integer),
            Column::key("grid", Kind::Integer),
            Column::new("f_star", Kind::Real).labelled("f*"),
            Column::new("f_star_lower", Kind::Real).labelled("pathological at"),
            Column::new("f_star_upper", Kind::Real).labelled("clear from"),
            Column::new("last_pairs", Kind::Text).labelled("last pair"),
            Column::new("clear_from_k", Kind::Integer).labelled("clear from k"),
            Column::new("evaluations", Kind::Integer).labelled("points evaluated"),
            Column::new("theorem_decisions", Kind::Integer).labelled("signs by theorem"),
            Column::new("f64_decisions", Kind::Integer).labelled("signs by f64"),
            Column::new("relative_decisions", Kind::Integer).labelled("signs by enclosures"),
            Column::new("double_double_decisions", Kind::Integer)
                .labelled("signs by double-double"),
            Column::new("exact_decisions", Kind::Integer).labelled("signs in exact"),
            Column::new("undecided", Kind::Integer).labelled("signs undecided"),
        ],
    )
}

fn pair_list(depths: &[u32]) -> String {
    depths
        .iter()
        .map(|d| format!("({},{d})", d - 1))
        .collect::<Vec<_>>()
        .join(" ")
}

fn threshold_cells(t: &ThresholdReport, extra: Option<Vec<Cell>>) -> Vec<Cell> {
    let mut cells = vec![
        Cell::int(t.height),
        Cell::int(t.grid_steps),
        t.estimate().map_or(Cell::Empty, Cell::Real),
        t.lower.clone().map_or(Cell::Empty, Cell::Exact),
        Cell::Exact(t.upper.clone()),
        Cell::text(pair_list(&t.last_pairs)),
        Cell::int(t.clear_from),
        Cell::int(t.evaluations as u64),
        Cell::int(t.decisions.theorem as u64),
        Cell::int(t.decisions.float_bound as u64),
        Cell::int(t.decisions.relative as u64),
        Cell::int(t.decisions.double_double as u64),
        Cell::int(t.decisions.exact as u64),
        Cell::int(t.decisions.undecided as u64),
    ];
    cells.extend(extra.unwrap_or_default());
    cells
}

/// The trend of the threshold and of the PS peak with the height, one row per height.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::report::trend_report;
/// use pathology::analytic::dgame::trend::height_trend;
/// use pathology::report::Report;
/// let rows = height_trend(&[8], 20, 1e-3, 10).unwrap();
/// let report = trend_report(Report::new("trend", "Trend"), &rows);
/// assert_eq!(report.tables[0].columns.last().unwrap().name, "ps_peak_at");
/// ```
pub fn trend_report(report: Report, rows: &[TrendRow]) -> Report {
    let mut table = threshold_table(&report.title);
    table.name = "trend".to_string();
    table
        .columns
        .push(Column::new("ps_peak", Kind::Real).labelled("PS peak"));
    table
        .columns
        .push(Column::new("ps_peak_at", Kind::Real).labelled("at f"));
    for r in rows {
        table.push(threshold_cells(
            &r.threshold,
            Some(vec![
                Cell::Bounded {
                    value: r.ps_peak,
                    bound: r.ps_peak_error_bound,
                },
                Cell::Real(r.ps_peak_at),
            ]),
        ));
    }
    report.mode("certified").with_table(table)
}

/// The trend over the heights `from..=to` (`pathology trend`): the rows of
/// [`crate::analytic::dgame::trend::height_trend`] and their report.
///
/// # Errors
///
/// `--from` above `--to`, and [`crate::analytic::dgame::trend::height_trend`]'s errors.
pub fn height_trend_run(
    from: u32,
    to: u32,
    grid: u32,
    tolerance: f64,
    peak_grid: u32,
) -> crate::error::Result<(Vec<TrendRow>, Report)> {
    if from > to {
        return Err(crate::error::Error::invalid(
            "--from",
            &format!("at most --to ({to})"),
            from,
        ));
    }
    let heights: Vec<u32> = (from..=to).collect();
    let rows = crate::analytic::dgame::trend::height_trend(&heights, grid, tolerance, peak_grid)?;
    let report = height_trend_report(&rows, from, to, grid, tolerance, peak_grid);
    Ok((rows, report))
}

/// The report of `pathology trend --from FROM --to TO`: [`trend_report`] with its title and
/// parameters (the threshold's grid steps and bisection tolerance, the PS peak's grid steps).
pub fn height_trend_report(
    rows: &[TrendRow],
    from: u32,
    to: u32,
    grid: u32,
    tolerance: f64,
    peak_grid: u32,
) -> Report {
    let report = Report::new(
        "trend",
        "Pathology against height (f1 = f2 = f): the threshold f* (the largest f found \
         pathological on the grid, refined by bisection; no grid point above it is \
         pathological), and the peak of PS over f",
    )
    .param("from", from)
    .param("to", to)
    .param("grid", grid)
    .param("tolerance", tolerance)
    .param("peak_grid", peak_grid);
    trend_report(report, rows)
}
