//! Error-propagation results as [`Report`]s: trajectories of the gamma/delta map (Li &
//! Marsland Section 5, formulas 3-4 and the dual Min-to-Min map), their long-run limits, the
//! thresholds of Theorems 5.1 and 5.2, the fixed points of the map and the critical
//! `f = f1 = f2`.
//!
//! Every table is tidy and carries its parameters as key columns (`from`, `gamma0`, `delta0`,
//! `f1`, `f2`), so rows of different runs concatenate. Exact trajectories print exact cells;
//! `f64` trajectories print each value with a rigorous error bound from the same map run in
//! outward-rounded interval arithmetic ([`enclosed_trajectory`]).

use num_rational::BigRational;

use super::stability::{Attractor, attractor_of, certified_fixed_points, critical_f};
use super::{
    BackUp, ErrorPair, Thresholds, check_exact_trajectory, enclosed_trajectory, long_run,
    max_to_max, theorem_5_1, theorem_5_1_rates, theorem_5_2, trajectory,
};
use crate::analytic::dgame::report::probability_cell;
use crate::error::Result;
use crate::numeric::number::{Probability, rational_to_f64, short_text};
use crate::report::figure::Series;
use crate::report::{Cell, Column, Grid, Kind, Report, Table};

/// `Max-to-Max` or `Min-to-Min`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::report::map_title;
/// assert_eq!(map_title(BackUp::Min), "Min-to-Min");
/// ```
pub fn map_title(from: BackUp) -> &'static str {
    match from {
        BackUp::Max => "Max-to-Max",
        BackUp::Min => "Min-to-Min",
    }
}

/// `f1 = f2 = 0.7` or `f1 = 0.3, f2 = 0.6`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::report::setting_label;
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// assert_eq!(setting_label(&q("0.7"), &q("7/10")), "f1 = f2 = 0.7");
/// assert_eq!(setting_label(&q("0.3"), &q("0.6")), "f1 = 0.3, f2 = 0.6");
/// ```
pub fn setting_label(f1: &BigRational, f2: &BigRational) -> String {
    if f1 == f2 {
        format!("f1 = f2 = {}", short_text(f1))
    } else {
        format!("f1 = {}, f2 = {}", short_text(f1), short_text(f2))
    }
}

/// The name of an attractor as printed: `(0, 0)`, `(0, 1)`, `(1, 0)`.
pub fn attractor_name(a: Attractor) -> &'static str {
    match a {
        Attractor::Origin => "(0, 0)",
        Attractor::ZeroOne => "(0, 1)",
        Attractor::OneZero => "(1, 0)",
        Attractor::Other => "none of (0, 0), (0, 1), (1, 0)",
    }
}

/// One computed trajectory: its setting, its points and (in `f64`) a rigorous bound on the
/// error of each coordinate (0 in exact mode).
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory<P> {
    /// Dependence factor f1, as given.
    pub f1: BigRational,
    /// Dependence factor f2, as given.
    pub f2: BigRational,
    /// The points, step 0 (the start) first.
    pub points: Vec<ErrorPair<P>>,
    /// Bounds on `|exact - computed|` of gamma and delta at each step.
    pub error_bounds: Vec<ErrorPair<f64>>,
}

impl<P: Probability> Trajectory<P> {
    /// The points as a plot series `(gamma, delta)`, labelled by the setting.
    pub fn series(&self) -> Series {
        Series {
            label: setting_label(&self.f1, &self.f2),
            points: self
                .points
                .iter()
                .map(|p| (p.gamma.to_f64(), p.delta.to_f64()))
                .collect(),
        }
    }
}

/// Runs the map from the exact start `(gamma, delta)` for every `(f1, f2)` setting, in the
/// mode `P`; in `f64` each value gets a rigorous error bound.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::report::compute_trajectories;
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let t = compute_trajectories::<f64>(&q("0.3"), &q("0.2"), &[(q("0.7"), q("0.7"))], BackUp::Max, 5).unwrap();
/// assert_eq!(t[0].points.len(), 6);
/// assert!(t[0].error_bounds[5].gamma > 0.0 && t[0].error_bounds[5].gamma < 1e-14);
/// ```
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] for values outside `[0, 1]`;
/// [`crate::Error::TooExpensive`] for exact trajectories estimated beyond the time limit.
pub fn compute_trajectories<P: Probability>(
    gamma: &BigRational,
    delta: &BigRational,
    settings: &[(BigRational, BigRational)],
    from: BackUp,
    steps: u32,
) -> Result<Vec<Trajectory<P>>> {
    let exact_start = ErrorPair::new(gamma.clone(), delta.clone())?;
    let start = ErrorPair::new(P::from_rational(gamma), P::from_rational(delta))?;
    settings
        .iter()
        .map(|(f1, f2)| {
            if P::EXACT {
                check_exact_trajectory(gamma, delta, f1, f2, steps)?;
            }
            let points = trajectory(
                start.clone(),
                &P::from_rational(f1),
                &P::from_rational(f2),
                from,
                steps,
            )?;
            let error_bounds = if P::EXACT {
                vec![
                    ErrorPair {
                        gamma: 0.0,
                        delta: 0.0
                    };
                    points.len()
                ]
            } else {
                enclosed_trajectory(&exact_start, f1, f2, from, steps)?
                    .iter()
                    .zip(&points)
                    .map(|(e, p)| ErrorPair {
                        gamma: e.gamma.radius_around(p.gamma.to_f64()),
                        delta: e.delta.radius_around(p.delta.to_f64()),
                    })
                    .collect()
            };
            Ok(Trajectory {
                f1: f1.clone(),
                f2: f2.clone(),
                points,
                error_bounds,
            })
        })
        .collect()
}

fn key(name: &str, kind: Kind) -> Column {
    Column::key(name, kind)
}

/// The key columns of a run: the map and the start.
fn run_columns() -> Vec<Column> {
    vec![
        key("from", Kind::Text),
        key("gamma0", Kind::Real).labelled("gamma_0"),
        key("delta0", Kind::Real).labelled("delta_0"),
    ]
}

fn run_cells(from: BackUp, gamma: &BigRational, delta: &BigRational) -> Vec<Cell> {
    vec![
        Cell::text(from.name()),
        Cell::Exact(gamma.clone()),
        Cell::Exact(delta.clone()),
    ]
}

/// The note of an `f64` trajectory report.
pub const F64_TRAJECTORY_NOTE: &str = "f64 values carry rigorous error bounds (the map rerun in \
     outward-rounded interval arithmetic from the exact start and factors); --exact computes \
     in rationals.";

/// The table `trajectories` without rows: its columns (`from`, `gamma0`, `delta0`, `f1`,
/// `f2`, `step`, `gamma`, `delta`), its caption (the settings' `labels`) and the header of
/// its reading layout (one row per step, two columns per setting).
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::report::trajectory_table;
/// let t = trajectory_table(&["f1 = f2 = 0.7".to_string()]);
/// assert_eq!(t.columns.len(), 8);
/// assert_eq!(t.grid.unwrap().header[0], ["step", "gamma", "delta"]);
/// ```
pub fn trajectory_table(labels: &[String]) -> Table {
    let mut columns = run_columns();
    columns.extend([
        key("f1", Kind::Real),
        key("f2", Kind::Real),
        key("step", Kind::Integer),
        Column::new("gamma", Kind::Real),
        Column::new("delta", Kind::Real),
    ]);
    let mut table = Table::new("trajectories", &labels.join("; "), columns);
    let mut header = vec!["step".to_string()];
    for label in labels {
        if labels.len() == 1 {
            header.extend(["gamma".to_string(), "delta".to_string()]);
        } else {
            header.extend([format!("gamma ({label})"), format!("delta ({label})")]);
        }
    }
    table.grid = Some(Grid {
        header: vec![header],
        body: Vec::new(),
        rules_after: Vec::new(),
    });
    table
}

/// The tidy rows of the `steps` of one trajectory in the table [`trajectory_table`].
///
/// # Panics
///
/// When `steps` goes beyond the trajectory's points.
pub fn trajectory_rows<P: Probability>(
    gamma: &BigRational,
    delta: &BigRational,
    from: BackUp,
    t: &Trajectory<P>,
    steps: std::ops::Range<usize>,
) -> Vec<Vec<Cell>> {
    steps
        .map(|k| (k, (&t.points[k], &t.error_bounds[k])))
        .map(|(k, (p, b))| {
            let mut row = run_cells(from, gamma, delta);
            row.extend([
                Cell::Exact(t.f1.clone()),
                Cell::Exact(t.f2.clone()),
                Cell::int(k as u64),
                probability_cell(&p.gamma, b.gamma),
                probability_cell(&p.delta, b.delta),
            ]);
            row
        })
        .collect()
}

/// The row of step `k` in the reading layout of [`trajectory_table`]: gamma and delta of
/// every trajectory.
pub fn trajectory_grid_row<P: Probability>(
    k: usize,
    trajectories: &[Trajectory<P>],
) -> (String, Vec<Cell>) {
    let cells = trajectories
        .iter()
        .flat_map(|t| {
            let (p, b) = (&t.points[k], &t.error_bounds[k]);
            [
                probability_cell(&p.gamma, b.gamma),
                probability_cell(&p.delta, b.delta),
            ]
        })
        .collect();
    (k.to_string(), cells)
}

/// Adds the table `trajectories` ([`trajectory_table`]: one row per setting and step) to
/// `report`; text, Markdown and LaTeX show one row per step and two columns per setting.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::report::{compute_trajectories, trajectory_report};
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::{Cell, Report};
/// let q = |s: &str| parse_rational(s).unwrap();
/// let t = compute_trajectories::<num_rational::BigRational>(&q("0.3"), &q("0.2"), &[(q("0.7"), q("0.7"))], BackUp::Max, 1).unwrap();
/// let r = trajectory_report(Report::new("errprop", "t"), &q("0.3"), &q("0.2"), BackUp::Max, &t);
/// assert_eq!(r.tables[0].rows[1][6], Cell::Exact(q("10071/40000")));
/// ```
pub fn trajectory_report<P: Probability>(
    report: Report,
    gamma: &BigRational,
    delta: &BigRational,
    from: BackUp,
    trajectories: &[Trajectory<P>],
) -> Report {
    let labels: Vec<String> = trajectories
        .iter()
        .map(|t| setting_label(&t.f1, &t.f2))
        .collect();
    let mut table = trajectory_table(&labels);
    for t in trajectories {
        for row in trajectory_rows(gamma, delta, from, t, 0..t.points.len()) {
            table.push(row);
        }
    }
    let steps = trajectories.first().map_or(0, |t| t.points.len());
    if let Some(grid) = &mut table.grid {
        grid.body = (0..steps)
            .map(|k| trajectory_grid_row(k, trajectories))
            .collect();
    }
    let exact = trajectories.first().is_some_and(|_| P::EXACT);
    let report = report.with_table(table);
    if exact {
        report
    } else {
        report.note(F64_TRAJECTORY_NOTE)
    }
}

/// The title of a trajectory report.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::report::trajectory_title;
/// use pathology::numeric::number::parse_rational;
/// let t = trajectory_title(BackUp::Max, &parse_rational("0.3").unwrap(), &parse_rational("0.2").unwrap());
/// assert_eq!(t, "Max-to-Max back-up (Li & Marsland formulas 3-4), start (gamma, delta) = (0.3, 0.2)");
/// ```
pub fn trajectory_title(from: BackUp, gamma: &BigRational, delta: &BigRational) -> String {
    format!(
        "{} back-up ({}), start (gamma, delta) = ({}, {})",
        map_title(from),
        match from {
            BackUp::Max => "Li & Marsland formulas 3-4",
            BackUp::Min => "the dual of formulas 3-4",
        },
        short_text(gamma),
        short_text(delta)
    )
}

/// Adds the table `limits` (one row per setting: the key columns, the `f64` limit `gamma`,
/// `delta`, the `steps` taken, whether it `settled` and the `limit` attractor) of the map
/// iterated in `f64` until it settles.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::report::long_run_report;
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::{Cell, Report};
/// let q = |s: &str| parse_rational(s).unwrap();
/// let r = long_run_report(Report::new("errprop", "t"), &q("0.3"), &q("0.2"), &[(q("0.2"), q("0.2"))], BackUp::Max).unwrap();
/// assert_eq!(r.tables[0].rows[0][9], Cell::text("(0, 1)"));
/// ```
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] for values outside `[0, 1]`.
pub fn long_run_report(
    report: Report,
    gamma: &BigRational,
    delta: &BigRational,
    settings: &[(BigRational, BigRational)],
    from: BackUp,
) -> Result<Report> {
    let start = ErrorPair::new(rational_to_f64(gamma), rational_to_f64(delta))?;
    let mut columns = run_columns();
    columns.extend([
        key("f1", Kind::Real),
        key("f2", Kind::Real),
        Column::new("gamma", Kind::Real),
        Column::new("delta", Kind::Real),
        Column::new("steps", Kind::Integer),
        Column::new("settled", Kind::Text),
        Column::new("limit", Kind::Text),
    ]);
    let mut table = Table::new("limits", &report.title, columns);
    for (f1, f2) in settings {
        let run = long_run(&start, rational_to_f64(f1), rational_to_f64(f2), from)?;
        let limit = if run.settled {
            attractor_name(attractor_of(&run.limit))
        } else {
            "not settled"
        };
        let mut row = run_cells(from, gamma, delta);
        row.extend([
            Cell::Exact(f1.clone()),
            Cell::Exact(f2.clone()),
            Cell::Real(run.limit.gamma),
            Cell::Real(run.limit.delta),
            Cell::int(run.steps),
            Cell::text(run.settled.to_string()),
            Cell::text(limit),
        ]);
        table.push(row);
    }
    Ok(report.with_table(table).note(format!(
        "f64 iteration until a step moves the point by at most {:e}.",
        super::SETTLE_TOLERANCE
    )))
}

/// Adds the Theorem 5.1/5.2 thresholds (table `thresholds`: `gamma`, `delta`, `theorem`,
/// `F1`, `F2`) and, with `at = Some((f1, f2))`, the rates and one-step ratios there (table
/// `rates`: `gamma`, `delta`, `f1`, `f2`, `H1`, `H2`, `gamma_ratio`, `delta_ratio`); the
/// theorems' statements are notes.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::theorem_5_1;
/// use pathology::analytic::errprop::report::thresholds_report;
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::Report;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let t = theorem_5_1(0.2, 0.2).unwrap();
/// let r = thresholds_report(Report::new("errprop thresholds", "t"), &q("0.2"), &q("0.2"), Some(t), None, None);
/// assert_eq!(r.tables[0].rows[0][3].to_f64(), Some(t.f1));
/// ```
pub fn thresholds_report(
    report: Report,
    gamma: &BigRational,
    delta: &BigRational,
    theorem_5_1: Option<Thresholds>,
    theorem_5_2: Option<Thresholds>,
    at: Option<(&BigRational, &BigRational)>,
) -> Report {
    let (g, d) = (rational_to_f64(gamma), rational_to_f64(delta));
    let mut table = Table::new(
        "thresholds",
        "the thresholds F1, F2 of Theorems 5.1 and 5.2",
        vec![
            key("gamma", Kind::Real),
            key("delta", Kind::Real),
            key("theorem", Kind::Text),
            Column::new("F1", Kind::Real),
            Column::new("F2", Kind::Real),
        ],
    );
    let mut notes = Vec::new();
    for (name, t) in [("5.1", theorem_5_1), ("5.2", theorem_5_2)] {
        if let Some(t) = t {
            table.push(vec![
                Cell::Exact(gamma.clone()),
                Cell::Exact(delta.clone()),
                Cell::text(name),
                Cell::Real(t.f1),
                Cell::Real(t.f2),
            ]);
        }
    }
    if theorem_5_1.is_some() {
        notes.push(format!(
            "Theorem 5.1 (valid for gamma < 0.5, delta < 0.25): for f1 > F1 and f2 > F2 the \
             errors shrink at least geometrically, gamma'/gamma < H1 < 1 and delta'/delta < H2 \
             < 1, with F1 = 1/(2 - 4 delta), F2 = 1/(2 (1 - gamma)), H1 = 2 (gamma f2 + 1 - f2) \
             = 2 - {} f2, H2 = 4 delta f1 + 2 (1 - f1) = 2 - {} f1.",
            2.0 * (1.0 - g),
            2.0 - 4.0 * d
        ));
    }
    if theorem_5_2.is_some() {
        notes.push(
            "Theorem 5.2 (valid for gamma < 0.3, delta < 0.25): for f1 < F1 and f2 < F2 one \
             back-up makes both errors larger, gamma' > gamma and delta' > delta, with \
             F1 = 1 - 1/((2 - delta)(1 - gamma^2 - gamma (1 - delta))) and \
             F2 = 1 - (1 - sqrt(1 - gamma))/(gamma (1 - delta))."
                .to_string(),
        );
    }
    let mut report = report.with_table(table);
    match at {
        Some((f1, f2)) => {
            let (a, b) = (rational_to_f64(f1), rational_to_f64(f2));
            let (h1, h2) = theorem_5_1_rates(g, d, a, b);
            let (next_gamma, next_delta) = max_to_max(&g, &d, &a, &b);
            let mut rates = Table::new(
                "rates",
                "Theorem 5.1's rates H1, H2 and one Max-to-Max back-up's ratios",
                vec![
                    key("gamma", Kind::Real),
                    key("delta", Kind::Real),
                    key("f1", Kind::Real),
                    key("f2", Kind::Real),
                    Column::new("H1", Kind::Real),
                    Column::new("H2", Kind::Real),
                    Column::new("gamma_ratio", Kind::Real).labelled("gamma'/gamma"),
                    Column::new("delta_ratio", Kind::Real).labelled("delta'/delta"),
                ],
            );
            rates.push(vec![
                Cell::Exact(gamma.clone()),
                Cell::Exact(delta.clone()),
                Cell::Exact(f1.clone()),
                Cell::Exact(f2.clone()),
                Cell::Real(h1),
                Cell::Real(h2),
                Cell::Real(next_gamma / g),
                Cell::Real(next_delta / d),
            ]);
            report = report.with_table(rates);
        }
        None => notes.push("--f1 and --f2 evaluate H1, H2 and the one-step ratios.".to_string()),
    }
    for note in notes {
        report = report.note(note);
    }
    report
}

/// Adds the table `fixed_points` (`from`, `f1`, `f2`, `gamma`, `delta`, the real and
/// imaginary parts of the Jacobian's two eigenvalues, `stability`) of the map at `(f1, f2)`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::report::fixed_point_report;
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::{Cell, Report};
/// let q = |s: &str| parse_rational(s).unwrap();
/// let r = fixed_point_report(Report::new("errprop fixed-points", "t"), &q("0.7"), &q("0.7"), BackUp::Max).unwrap();
/// assert!(r.tables[0].rows.iter().any(|row| row[3].to_f64() == Some(0.0) && row[4].to_f64() == Some(1.0)));
/// ```
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] for factors outside `[0, 1]`.
pub fn fixed_point_report(
    report: Report,
    f1: &BigRational,
    f2: &BigRational,
    from: BackUp,
) -> Result<Report> {
    let found = certified_fixed_points(f1, f2, from)?;
    let mut table = Table::new(
        "fixed_points",
        &report.title,
        vec![
            key("from", Kind::Text),
            key("f1", Kind::Real),
            key("f2", Kind::Real),
            Column::new("gamma", Kind::Interval),
            Column::new("delta", Kind::Interval),
            Column::new("eigenvalue1_re", Kind::Real).labelled("eigenvalue 1 (re)"),
            Column::new("eigenvalue1_im", Kind::Real).labelled("(im)"),
            Column::new("eigenvalue2_re", Kind::Real).labelled("eigenvalue 2 (re)"),
            Column::new("eigenvalue2_im", Kind::Real).labelled("(im)"),
            Column::new("stability", Kind::Text),
            Column::new("certificate", Kind::Text),
        ],
    );
    let interval = |value: f64, e: &crate::numeric::enclosure::Enclosure| Cell::Interval {
        estimate: value,
        lower: e.lower,
        upper: e.upper,
    };
    for p in &found.points {
        table.push(vec![
            Cell::text(from.name()),
            Cell::Exact(f1.clone()),
            Cell::Exact(f2.clone()),
            interval(p.point.gamma, &p.enclosure.gamma),
            interval(p.point.delta, &p.enclosure.delta),
            Cell::Real(p.eigenvalues[0].0),
            Cell::Real(p.eigenvalues[0].1),
            Cell::Real(p.eigenvalues[1].0),
            Cell::Real(p.eigenvalues[1].1),
            Cell::text(p.stability.name()),
            Cell::text(p.certificate.name()),
        ]);
    }
    let mut report = report.with_table(table).note(
        "Every fixed point is certified: the corners are mapped to themselves in exact \
         rationals (stability from the exact Jacobian); the others pass a Krawczyk test in \
         outward-rounded interval arithmetic, which proves a unique fixed point in the printed \
         interval (on the invariant edge gamma = 0 or delta = 0 for points on it). \
         Non-corner stability comes from f64 eigenvalues.",
    );
    if found.uncertified > 0 {
        report = report.note(format!(
            "{} candidate root{} of the Newton solver not certified, dropped.",
            found.uncertified,
            if found.uncertified == 1 { "" } else { "s" }
        ));
    }
    Ok(report)
}

/// Adds the table `critical_f` (`from`, `gamma0`, `delta0`, `critical_f` as an interval: the
/// bisection's midpoint and bracket, `below_limit`: the attractor below it) for the start
/// `(gamma, delta)`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::report::critical_f_report;
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::Report;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let r = critical_f_report(Report::new("errprop critical-f", "t"), &q("0.3"), &q("0.2"), BackUp::Max).unwrap();
/// let f = r.tables[0].rows[0][3].to_f64().unwrap();
/// assert!((f - 0.651504).abs() < 1e-6);
/// ```
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] for a start outside `[0, 1]`.
pub fn critical_f_report(
    report: Report,
    gamma: &BigRational,
    delta: &BigRational,
    from: BackUp,
) -> Result<Report> {
    let start = ErrorPair::new(rational_to_f64(gamma), rational_to_f64(delta))?;
    let c = critical_f(&start, from)?;
    let mut columns = run_columns();
    columns.extend([
        Column::new("critical_f", Kind::Interval).labelled("f*"),
        Column::new("below_limit", Kind::Text).labelled("limit below f*"),
    ]);
    let mut table = Table::new("critical_f", &report.title, columns);
    let mut row = run_cells(from, gamma, delta);
    row.extend([
        Cell::Interval {
            estimate: c.estimate(),
            lower: c.below,
            upper: c.above,
        },
        Cell::text(attractor_name(c.below_attractor)),
    ]);
    table.push(row);
    Ok(report.with_table(table).note(
        "f* is bracketed by bisection of f64 iterations: the long-run limit is the one below \
         for f <= f*_lower and (0, 0) for f >= f*_upper.",
    ))
}

/// `pathology errprop thresholds`: Theorems 5.1 and 5.2 at one start (gamma, delta), and the
/// rates at (f1, f2) when both are given.
#[derive(Debug, Clone, PartialEq)]
pub struct ThresholdsRequest {
    /// gamma: in (0, 0.5) for Theorem 5.1, (0, 0.3) for Theorem 5.2.
    pub gamma: BigRational,
    /// delta: in (0, 0.25) for both theorems.
    pub delta: BigRational,
    /// The (f1, f2) at which to evaluate H1, H2 and the one-step ratios.
    pub at: Option<(BigRational, BigRational)>,
    /// Which theorem: `5.1`, `5.2` or `both`.
    pub theorem: String,
}

impl ThresholdsRequest {
    /// The report of [`thresholds_report`] with its title and manifest.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::errprop::report::ThresholdsRequest;
    /// use pathology::numeric::number::parse_rational;
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let request = ThresholdsRequest { gamma: q("0.2"), delta: q("0.1"), at: None, theorem: "both".into() };
    /// assert_eq!(request.report().unwrap().tables[0].rows.len(), 2);
    /// let outside = ThresholdsRequest { gamma: q("0.4"), ..request };
    /// assert!(outside.report().unwrap_err().to_string().starts_with("Theorem 5.2 (--theorem 5.1"));
    /// ```
    ///
    /// # Errors
    ///
    /// [`crate::Error::InvalidArgument`] for a theorem other than `5.1`, `5.2` or `both`;
    /// [`crate::Error::Context`] naming the theorem around its error when gamma or delta
    /// lies outside its range.
    pub fn report(&self) -> Result<Report> {
        let theorem = self.theorem.as_str();
        if !["5.1", "5.2", "both"].contains(&theorem) {
            return Err(crate::Error::invalid(
                "--theorem",
                "5.1, 5.2 or both",
                theorem,
            ));
        }
        let (gamma, delta) = (self.gamma.to_f64(), self.delta.to_f64());
        let want = |t: &str| theorem == t || theorem == "both";
        let context = |name: &'static str, other: &'static str| {
            let hint = if theorem == "both" {
                format!(" (--theorem {other} gives the other theorem alone)")
            } else {
                String::new()
            };
            move |e: crate::Error| e.context(format!("Theorem {name}{hint}"))
        };
        let t51 = if want("5.1") {
            Some(theorem_5_1(gamma, delta).map_err(context("5.1", "5.2"))?)
        } else {
            None
        };
        let t52 = if want("5.2") {
            Some(theorem_5_2(gamma, delta).map_err(context("5.2", "5.1"))?)
        } else {
            None
        };
        let title = format!(
            "Li & Marsland Section 5 thresholds at gamma = {}, delta = {}",
            short_text(&self.gamma),
            short_text(&self.delta)
        );
        let mut report = Report::new("errprop thresholds", &title)
            .param("gamma", short_text(&self.gamma))
            .param("delta", short_text(&self.delta));
        if let Some((f1, f2)) = &self.at {
            report = report
                .param("f1", short_text(f1))
                .param("f2", short_text(f2));
        }
        let report = report.param("theorem", theorem);
        let at = self.at.as_ref().map(|(a, b)| (a, b));
        Ok(thresholds_report(
            report,
            &self.gamma,
            &self.delta,
            t51,
            t52,
            at,
        ))
    }
}

/// `pathology errprop fixed-points`: the fixed points of the map at (f1, f2).
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::report::fixed_points;
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let report = fixed_points(&q("0.7"), &q("0.7"), BackUp::Max).unwrap();
/// assert_eq!(report.title, "Fixed points of the Max-to-Max back-up at f1 = 0.7, f2 = 0.7");
/// ```
///
/// # Errors
///
/// As [`fixed_point_report`].
pub fn fixed_points(f1: &BigRational, f2: &BigRational, from: BackUp) -> Result<Report> {
    let title = format!(
        "Fixed points of the {} back-up at f1 = {}, f2 = {}",
        map_title(from),
        short_text(f1),
        short_text(f2)
    );
    let report = Report::new("errprop fixed-points", &title)
        .param("f1", short_text(f1))
        .param("f2", short_text(f2))
        .param("from", from.name());
    fixed_point_report(report, f1, f2, from)
}

/// `pathology errprop critical-f`: the critical `f = f1 = f2` from the start (gamma, delta).
///
/// # Examples
///
/// ```
/// use pathology::analytic::errprop::BackUp;
/// use pathology::analytic::errprop::report::critical_f_at;
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let report = critical_f_at(&q("0.3"), &q("0.2"), BackUp::Max).unwrap();
/// assert_eq!(report.manifest.command_line(), "pathology errprop critical-f --gamma 0.3 --delta 0.2 --from max");
/// ```
///
/// # Errors
///
/// As [`critical_f_report`].
pub fn critical_f_at(gamma: &BigRational, delta: &BigRational, from: BackUp) -> Result<Report> {
    let title = format!(
        "Critical f = f1 = f2 for the {} back-up from ({}, {})",
        map_title(from),
        short_text(gamma),
        short_text(delta)
    );
    let report = Report::new("errprop critical-f", &title)
        .param("gamma", short_text(gamma))
        .param("delta", short_text(delta))
        .param("from", from.name());
    critical_f_report(report, gamma, delta, from)
}
