//! The closed forms as [`Report`]s: `rhf(w)` (Chi & Nau Section 5), `w_b` (Nau, Pearl), the
//! EMM depth-one errors and Fig. 2 example (Wilson, Parker & Nau).
//!
//! Values computed in `f64` carry a rigorous error bound, derived in exact rationals: `w_b`
//! is bracketed by two doubles at which `(1 - x)^b - x` has opposite signs (checked exactly);
//! `rhf` in `f64` is compared with its exact value at the same inputs, plus the effect of the
//! error of `xi` when `xi = w_b` (`|d rhf / d xi| <= 1`).

use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive};

use super::{DepthOneTree, rhf, two_level_example_error, w_b};
use crate::analytic::emm::{BackUpRule, back_up, figure_2_tree};
use crate::error::Result;
use crate::numeric::number::{rational_to_f64, short_text};
use crate::report::{Cell, Column, Kind, Report, Table};

/// Branching factors up to this get a certified bound on `w_b` (the exact check computes
/// `(1 - x)^b` of a 53-bit `x`).
pub const CERTIFIED_BRANCHING_LIMIT: u32 = 4096;

/// `w_b` with a rigorous bound on its error, when `branching` is at most
/// [`CERTIFIED_BRANCHING_LIMIT`].
///
/// # Examples
///
/// ```
/// use pathology::analytic::closed_form::report::certified_w_b;
/// let (x, bound) = certified_w_b(2).unwrap();
/// let exact = (3.0 - 5f64.sqrt()) / 2.0;
/// assert!((x - exact).abs() <= bound.unwrap() && bound.unwrap() < 1e-15);
/// ```
///
/// # Errors
///
/// As [`w_b`].
pub fn certified_w_b(branching: u32) -> Result<(f64, Option<f64>)> {
    let x = w_b(branching)?;
    if branching > CERTIFIED_BRANCHING_LIMIT {
        return Ok((x, None));
    }
    let g = |y: f64| {
        let y = BigRational::from_float(y).expect("finite");
        num_traits::pow(BigRational::one() - &y, branching as usize) - y
    };
    let zero = BigRational::from_integer(0.into());
    let (mut lower, mut upper) = (x.next_down(), x.next_up());
    for _ in 0..64 {
        let (low_ok, high_ok) = (g(lower) >= zero, g(upper) <= zero);
        if low_ok && high_ok {
            let bound = (x - lower).max(upper - x).next_up();
            return Ok((x, Some(bound)));
        }
        if !low_ok {
            lower = (lower - (x - lower)).max(0.0);
        }
        if !high_ok {
            upper = (upper + (upper - x)).min(1.0);
        }
    }
    Ok((x, None))
}

/// The report of `pathology wb`: a table `w_b` (`branching`, `w_b` with its bound).
///
/// # Examples
///
/// ```
/// use pathology::analytic::closed_form::report::w_b_report;
/// use pathology::report::Report;
/// let r = w_b_report(Report::new("wb", "w_3"), 3).unwrap();
/// assert!((r.tables[0].rows[0][1].to_f64().unwrap() - 0.3176721962).abs() < 1e-10);
/// ```
///
/// # Errors
///
/// As [`w_b`].
pub fn w_b_report(report: Report, branching: u32) -> Result<Report> {
    let (x, bound) = certified_w_b(branching)?;
    let mut table = Table::new(
        "w_b",
        &report.title,
        vec![
            Column::key("branching", Kind::Integer).labelled("b"),
            Column::new("w_b", Kind::Real),
        ],
    );
    table.push(vec![
        Cell::int(branching),
        match bound {
            Some(bound) => Cell::Bounded { value: x, bound },
            None => Cell::Real(x),
        },
    ]);
    Ok(report.with_table(table).note(format!(
        "w_{branching} is the root in (0, 1) of (1 - x)^{branching} = x."
    )))
}

/// Where `xi` of [`rhf_report`] comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Xi {
    /// Given exactly.
    Given(BigRational),
    /// `w_b` for this branching factor.
    WB(u32),
}

/// The report of `pathology rhf`: a table `rhf` (`w`, `xi`, `xi_source`, `rhf`), exact when
/// `exact` (which needs a given `xi`), else `f64` with a rigorous bound.
///
/// # Examples
///
/// ```
/// use pathology::analytic::closed_form::report::{Xi, rhf_report};
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::{Cell, Report};
/// let q = |s: &str| parse_rational(s).unwrap();
/// let r = rhf_report(Report::new("rhf", "rhf"), &q("0.25"), &Xi::Given(q("0.5")), true).unwrap();
/// assert_eq!(r.tables[0].rows[0][3], Cell::Exact(q("1/9")));
/// let r = rhf_report(Report::new("rhf", "rhf"), &q("0.25"), &Xi::WB(2), false).unwrap();
/// assert!(matches!(r.tables[0].rows[0][3], Cell::Bounded { .. }));
/// ```
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `w` or `xi` outside `[0, 1]`, or `--exact`
/// with `xi = w_b` (irrational).
pub fn rhf_report(report: Report, w: &BigRational, xi: &Xi, exact: bool) -> Result<Report> {
    let (xi_cell, xi_exact, xi_bound, source) = match xi {
        Xi::Given(x) => (Cell::Exact(x.clone()), x.clone(), 0.0, "given".to_string()),
        Xi::WB(b) => {
            let (x, bound) = certified_w_b(*b)?;
            let cell = match bound {
                Some(bound) => Cell::Bounded { value: x, bound },
                None => Cell::Real(x),
            };
            let exact = BigRational::from_float(x).expect("finite");
            (
                cell,
                exact,
                bound.unwrap_or(f64::INFINITY),
                format!("w_{b}"),
            )
        }
    };
    if exact && !matches!(xi, Xi::Given(_)) {
        return Err(crate::Error::invalid(
            "--exact",
            "used with --xi (w_b is irrational)",
            "xi = w_b",
        ));
    }
    let exact_value: BigRational = rhf(w.clone(), xi_exact)?;
    let value_cell = if exact {
        Cell::Exact(exact_value)
    } else {
        let value = rhf(rational_to_f64(w), xi_cell.to_f64().expect("numeric"))?;
        let gap = (exact_value - BigRational::from_float(value).expect("finite")).abs();
        let gap = gap.to_f64().unwrap_or(f64::INFINITY).next_up();
        let bound = (gap + xi_bound).next_up();
        if bound.is_finite() {
            Cell::Bounded { value, bound }
        } else {
            Cell::Real(value)
        }
    };
    let mut table = Table::new(
        "rhf",
        &report.title,
        vec![
            Column::key("w", Kind::Real),
            Column::key("xi", Kind::Real),
            Column::key("xi_source", Kind::Text).labelled("xi from"),
            Column::new("rhf", Kind::Real).labelled("rhf(w)"),
        ],
    );
    table.push(vec![
        Cell::Exact(w.clone()),
        xi_cell,
        Cell::text(source),
        value_cell,
    ]);
    Ok(report.with_table(table).note(
        "Chi & Nau Section 5: rhf(w) = ((1-2w)/(1-w))^2 xi (1-xi) for w <= 0.5, 0 above; two \
         distinct nodes at one depth, independent true values and noise.",
    ))
}

/// The report of `pathology emm depth-one`: a table `depth_one` (`e`, `tree`, `error`) with
/// the static error and the root errors of Wilson et al.'s trees A-D and the two-level
/// example, all exact.
///
/// # Examples
///
/// ```
/// use pathology::analytic::closed_form::report::depth_one_report;
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::{Cell, Report};
/// let q = |s: &str| parse_rational(s).unwrap();
/// let r = depth_one_report(Report::new("emm depth-one", "t"), &q("0.1"));
/// assert_eq!(r.tables[0].rows[1][2], Cell::Exact(q("0.01"))); // error(A) = e^2
/// ```
pub fn depth_one_report(report: Report, e: &BigRational) -> Report {
    let mut table = Table::new(
        "depth_one",
        &report.title,
        vec![
            Column::key("e", Kind::Real),
            Column::key("tree", Kind::Text),
            Column::new("error", Kind::Real).labelled("root error"),
        ],
    );
    let rows = [
        ("static", e.clone()),
        ("A", DepthOneTree::A.error(e.clone())),
        ("B", DepthOneTree::B.error(e.clone())),
        ("C", DepthOneTree::C.error(e.clone())),
        ("D", DepthOneTree::D.error(e.clone())),
        ("D over two A", two_level_example_error(e.clone())),
    ];
    for (name, value) in rows {
        table.push(vec![
            Cell::Exact(e.clone()),
            Cell::text(name),
            Cell::Exact(value),
        ]);
    }
    report.with_table(table)
}

/// The report of `pathology emm example`: a table `example` (`e`, `rule`, `root`,
/// `root_error`) of Wilson et al.'s Fig. 2 tree backed up by EMM (Algorithm 1) and by
/// minimax without the static preference, exactly.
///
/// # Examples
///
/// ```
/// use pathology::analytic::closed_form::report::emm_example_report;
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::{Cell, Report};
/// let q = |s: &str| parse_rational(s).unwrap();
/// let r = emm_example_report(Report::new("emm example", "t"), &q("0.1"));
/// assert_eq!(r.tables[0].rows[0][3], Cell::Exact(q("91/1000")));
/// ```
pub fn emm_example_report(report: Report, error: &BigRational) -> Report {
    let tree = figure_2_tree();
    let mut table = Table::new(
        "example",
        &report.title,
        vec![
            Column::key("e", Kind::Real),
            Column::key("rule", Kind::Text),
            Column::new("root", Kind::Text).labelled("root A for player 1"),
            Column::new("root_error", Kind::Real).labelled("error"),
        ],
    );
    for (name, rule) in [
        ("EMM (Algorithm 1)", BackUpRule::Emm),
        ("without the static preference", BackUpRule::Minimax),
    ] {
        let v = back_up(&tree, error, rule);
        table.push(vec![
            Cell::Exact(error.clone()),
            Cell::text(name),
            Cell::text(if v.win { "win" } else { "loss" }),
            Cell::Exact(v.error),
        ]);
    }
    report.with_table(table).note(
        "Wilson, Parker & Nau Fig. 2: root A (player 1 to move) over B and C (player 2 to \
         move); leaves D, E under B and F under C are wins for player 1, G under C a loss.",
    )
}

/// `pathology rhf`: rhf(w) with xi given, or `w_b` of a branching factor.
///
/// # Examples
///
/// ```
/// use pathology::analytic::closed_form::report::{Xi, rhf_at};
/// use pathology::numeric::number::parse_rational;
/// let report = rhf_at(&parse_rational("0.2").unwrap(), &Xi::WB(2), false).unwrap();
/// assert_eq!(report.manifest.command_line(), "pathology rhf --w 0.2 --branching 2");
/// ```
///
/// # Errors
///
/// As [`rhf_report`].
pub fn rhf_at(w: &BigRational, xi: &Xi, exact: bool) -> Result<Report> {
    let report = Report::new("rhf", &format!("rhf({})", short_text(w))).param("w", short_text(w));
    let report = match xi {
        Xi::Given(x) => report.param("xi", short_text(x)),
        Xi::WB(b) => report.param("branching", b),
    };
    let report = report.param("exact", exact);
    let report = if exact { report.mode("exact") } else { report };
    rhf_report(report, w, xi, exact)
}

/// `pathology wb`: `w_b` with its certified bound.
///
/// # Examples
///
/// ```
/// use pathology::analytic::closed_form::report::w_b_at;
/// assert_eq!(w_b_at(3).unwrap().title, "w_3, the root in (0, 1) of (1 - x)^3 = x");
/// ```
///
/// # Errors
///
/// As [`w_b_report`].
pub fn w_b_at(branching: u32) -> Result<Report> {
    let b = branching;
    let report = Report::new(
        "wb",
        &format!("w_{b}, the root in (0, 1) of (1 - x)^{b} = x"),
    )
    .param("branching", b);
    w_b_report(report, b)
}

/// `pathology emm example`: Wilson, Parker & Nau's Fig. 2 at static error `error`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::closed_form::report::emm_example_at;
/// use pathology::numeric::number::parse_rational;
/// let report = emm_example_at(&parse_rational("0.1").unwrap());
/// assert_eq!(report.manifest.mode, "exact");
/// ```
pub fn emm_example_at(error: &BigRational) -> Report {
    let title = format!(
        "Wilson, Parker & Nau Fig. 2 at static error e = {}",
        short_text(error)
    );
    let report = Report::new("emm example", &title)
        .param("error", short_text(error))
        .mode("exact");
    emm_example_report(report, error)
}

/// `pathology emm depth-one`: the depth-one errors at evaluation error `e`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::closed_form::report::depth_one_at;
/// use pathology::numeric::number::parse_rational;
/// let report = depth_one_at(&parse_rational("0.1").unwrap());
/// assert_eq!(report.manifest.command_line(), "pathology emm depth-one --e 0.1");
/// ```
pub fn depth_one_at(e: &BigRational) -> Report {
    let title = format!(
        "Wilson, Parker & Nau depth-one errors at e = {}",
        short_text(e)
    );
    let report = Report::new("emm depth-one", &title)
        .param("e", short_text(e))
        .mode("exact");
    depth_one_report(report, e)
}
