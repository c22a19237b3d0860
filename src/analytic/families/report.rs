//! Exact D(d,h) columns of every family as [`Report`]s (`pathology exact`), and the dispatch
//! that sends binary D-games with the piece count to Li & Marsland's engine
//! ([`crate::analytic::dgame::Solver`]), so that `exact --game d --branching 2` prints the same `f64`
//! values as `dgame`, bit for bit.

use super::{Evaluator, ExactColumn, Family, decision_column};
use crate::analytic::dgame::report::probability_cell;
use crate::analytic::dgame::{DependenceFactors, Solver};
use crate::error::Result;
use crate::model::Player;
use crate::numeric::number::Probability;
use crate::report::{Cell, Column, Grid, Kind, Report, Table, printed_error_bound};

/// D(d,h) at every depth for one family and evaluator: binary D-games with the piece count
/// through [`Solver`] (Tables 1-2's engine), everything else through [`decision_column`].
///
/// # Examples
///
/// ```
/// use pathology::analytic::families::report::solve;
/// use pathology::analytic::families::{BaryDGame, Evaluator, Family};
/// let game = BaryDGame::new(2, vec![0.9, 0.1], vec![0.9, 0.1]).unwrap();
/// let column = solve(&Family::D(game), &Evaluator::Count, 10).unwrap();
/// assert!((column.values[0] - 0.608).abs() < 5e-4); // Table 1, f1 = f2 = 0.1
/// ```
///
/// # Errors
///
/// As [`decision_column`] and [`Solver::decision_column`].
pub fn solve<P: Probability>(
    family: &Family<P>,
    evaluator: &Evaluator<P>,
    height: u32,
) -> Result<ExactColumn<P>> {
    match (family, evaluator) {
        (Family::D(g), Evaluator::Count) if g.branching() == 2 => {
            let factors = DependenceFactors::new(g.win_max()[1].clone(), g.loss_min()[1].clone())?;
            let c = Solver::new(factors).decision_column(height)?;
            let same = match Player::to_move_at_height(height) {
                Player::Max => &g.win_max()[1],
                Player::Min => &g.loss_min()[1],
            };
            Ok(ExactColumn {
                height,
                values: c.values,
                error_bounds: c.error_bounds,
                nontrivial: P::certain().minus(same),
            })
        }
        _ => decision_column(family, evaluator, height),
    }
}

/// The report of one exact column: table `decisions` with one row per depth (the game,
/// branching factor, height, evaluator and their parameters are in the manifest), and
/// table `root` with the probability that a root is non-trivial.
///
/// # Examples
///
/// ```
/// use pathology::analytic::families::report::{exact_report, solve};
/// use pathology::analytic::families::{Evaluator, Family, PGame};
/// use pathology::report::Report;
/// let column = solve(&Family::P(PGame::new(2, 0.5).unwrap()), &Evaluator::Count, 4).unwrap();
/// let report = exact_report(Report::new("exact", "P-game"), "p", 2, "count", &column, None);
/// assert_eq!(report.tables[0].rows.len(), 4);
/// ```
pub fn exact_report<P: Probability>(
    report: Report,
    game: &str,
    branching: u32,
    evaluator: &str,
    column: &ExactColumn<P>,
    only_depth: Option<u32>,
) -> Report {
    let h = column.height;
    let depths: Vec<u32> = match only_depth {
        Some(d) => vec![d],
        None => (1..=h).collect(),
    };
    let key = |name: &str, kind| Column::key(name, kind);
    let mut table = Table::new(
        "decisions",
        &report.title,
        vec![
            key("game", Kind::Text),
            key("b", Kind::Integer),
            key("h", Kind::Integer),
            key("evaluator", Kind::Text),
            key("d", Kind::Integer),
            Column::new("D", Kind::Real).labelled(&format!("D(d,{h})")),
        ],
    );
    let mut grid = Grid {
        header: vec![vec!["d".to_string(), format!("D(d,{h})")]],
        ..Grid::default()
    };
    for d in depths {
        let i = d as usize - 1;
        grid.body.push((
            d.to_string(),
            vec![probability_cell(&column.values[i], column.error_bounds[i])],
        ));
        table.push(vec![
            Cell::text(game),
            Cell::int(branching),
            Cell::int(h),
            Cell::text(evaluator),
            Cell::int(d),
            probability_cell(&column.values[i], column.error_bounds[i]),
        ]);
    }
    table.grid = Some(grid);
    let mut root = Table::new(
        "root",
        "the probability that a root is non-trivial (the condition of D(d,h))",
        vec![
            key("game", Kind::Text),
            key("b", Kind::Integer),
            key("h", Kind::Integer),
            Column::new("nontrivial", Kind::Real),
        ],
    );
    root.push(vec![
        Cell::text(game),
        Cell::int(branching),
        Cell::int(h),
        match column.nontrivial.exact_string() {
            Some(_) => probability_cell(&column.nontrivial, 0.0),
            None => Cell::Real(column.nontrivial.to_f64()),
        },
    ]);
    let mut report = report
        .mode(if P::EXACT { "exact" } else { "f64" })
        .with_table(table)
        .with_table(root);
    if !P::EXACT {
        let largest = column.error_bounds.iter().copied().fold(0.0, f64::max);
        report = report.note(format!(
            "f64: every D value is within {} of the exact value at the f64 parameters \
             (rigorous rounding bound, rounded up; each value's own bound is the CSV/JSON \
             column D_error_bound)",
            printed_error_bound(0.0, largest)
        ));
    }
    report
}
