//! [`Report`]s of the distribution engines: a `D` table (one row per depth, with the
//! unconditional probability and the expected loss), the non-trivial table, notes (the
//! rounding bound in `f64`, the continuous-limit estimate of an unbinned continuous model),
//! and the manifest parameters (the game's, the evaluation's, a histogram's FNV-1a 64
//! hash), so that a command only parses its arguments and calls [`critical_report`] or
//! [`pgame_report`].

use super::{
    Column, CriticalGame, Depths, Evaluation, MultiValuedPGame, Outcome, critical_column,
    pgame_column,
};
use crate::error::Result;
use crate::numeric::number::Probability;
use crate::report::{Cell, Column as ReportColumn, Grid, Kind, Report, Table, printed_error_bound};

fn cell<P: Probability>(value: &P, bound: f64) -> Cell {
    match value.exact_value() {
        Some(exact) => Cell::Exact(exact),
        None => Cell::Bounded {
            value: value.to_f64(),
            bound,
        },
    }
}

fn text<P: Probability>(value: &P) -> String {
    value
        .exact_value()
        .map(|r| {
            if r.denom() == &num_bigint::BigInt::from(1) {
                r.numer().to_string()
            } else {
                format!("{}/{}", r.numer(), r.denom())
            }
        })
        .unwrap_or_else(|| value.to_f64().to_string())
}

/// The tables and notes of one outcome, added to `report`.
fn tables<P: Probability>(
    mut report: Report,
    game: &str,
    branching: u32,
    outcome: &Outcome<P>,
    d_label: &str,
) -> Report {
    let column = &outcome.column;
    let h = column.height;
    let key = |name: &str, kind| ReportColumn::key(name, kind);
    let mut table = Table::new(
        "decisions",
        &report.title,
        vec![
            key("game", Kind::Text),
            key("b", Kind::Integer),
            key("h", Kind::Integer),
            key("d", Kind::Integer),
            ReportColumn::new("D", Kind::Real).labelled(d_label),
            ReportColumn::new("optimal", Kind::Real).labelled("P(optimal move)"),
            ReportColumn::new("loss", Kind::Real).labelled("expected loss"),
        ],
    );
    let mut grid = Grid {
        header: vec![vec![
            "d".to_string(),
            d_label.to_string(),
            "P(optimal move)".to_string(),
            "expected loss".to_string(),
        ]],
        ..Grid::default()
    };
    for row in &column.rows {
        let cells = vec![
            cell(&row.decision.value, row.decision.bound),
            cell(&row.unconditional.value, row.unconditional.bound),
            cell(&row.expected_loss.value, row.expected_loss.bound),
        ];
        grid.body.push((row.depth.to_string(), cells.clone()));
        let mut full = vec![
            Cell::text(game),
            Cell::int(branching),
            Cell::int(h),
            Cell::int(row.depth),
        ];
        full.extend(cells);
        table.push(full);
    }
    table.grid = Some(grid);
    let root = crate::analytic::families::report::root_table(
        "D",
        game,
        branching,
        h,
        cell(&column.nontrivial.value, column.nontrivial.bound),
    );
    report = report
        .mode(if P::EXACT { "exact" } else { "f64" })
        .with_table(table)
        .with_table(root);
    if !P::EXACT {
        let largest = column
            .rows
            .iter()
            .flat_map(|r| {
                [
                    r.decision.bound,
                    r.unconditional.bound,
                    r.expected_loss.bound,
                ]
            })
            .fold(0.0, f64::max);
        report = report.note(format!(
            "f64: every value is within {} of the exact value of the model at the f64 parameters \
             (rigorous: outward-rounded interval arithmetic, rounded up; each value's own bound \
             is its CSV/JSON column *_error_bound)",
            printed_error_bound(0.0, largest)
        ));
    }
    if let Some(refined) = &outcome.refined {
        report = report.with_table(refined_table(column, refined));
        let estimate = super::continuous_limit_estimate(
            column
                .rows
                .iter()
                .zip(&refined.rows)
                .map(|(a, b)| a.decision.value.to_f64() - b.decision.value.to_f64()),
        );
        report = report.note(format!(
            "continuous evaluation: computed as its quantization to {} and to {} equal bins \
             ({} and {} levels occur); twice the largest change of D between the two, \
             {estimate:.2e}, estimates the distance of every printed value to the continuous \
             limit (an estimate, not a bound; table 'refined')",
            super::DEFAULT_LEVELS,
            2 * super::DEFAULT_LEVELS,
            column.levels,
            refined.levels
        ));
    }
    report
}

/// D at twice the bins (data only: CSV and JSON).
fn refined_table<P: Probability>(coarse: &Column<P>, fine: &Column<P>) -> Table {
    let mut table = Table::new(
        "refined",
        "D at twice the bins (twice the largest change over the rows estimates the distance \
         to the continuous limit; one row's change alone can understate it)",
        vec![
            ReportColumn::key("d", Kind::Integer),
            ReportColumn::new("D_coarse", Kind::Real),
            ReportColumn::new("D_fine", Kind::Real),
        ],
    );
    for (a, b) in coarse.rows.iter().zip(&fine.rows) {
        table.push(vec![
            Cell::int(a.depth),
            cell(&a.decision.value, a.decision.bound),
            cell(&b.decision.value, b.decision.bound),
        ]);
    }
    table.data_only = true;
    table
}

fn with_parameters<P: Probability>(
    mut report: Report,
    evaluation: &Evaluation<P>,
    depths: Depths,
) -> Report {
    for (name, value) in evaluation.parameters() {
        report = report.param(&name, value);
    }
    match depths {
        Depths::All => report,
        Depths::One(d) => report.param("depth", d),
        Depths::UpTo(d) => report.param("max_depth", d),
    }
}

/// The report of a critical win-loss game: computes [`critical_column`] and lays it out
/// (tables `decisions`, `root`, and `refined` for an unbinned continuous evaluation).
///
/// # Examples
///
/// ```
/// use pathology::analytic::distributions::report::critical_report;
/// use pathology::analytic::distributions::{CriticalGame, Depths, Evaluation, Model};
/// let game = CriticalGame::new(2, 8, 1.0, 1.0).unwrap();
/// let report = critical_report(&game, &Evaluation::new(Model::Artificial { error: 0.1 }), Depths::All).unwrap();
/// assert_eq!(report.tables[0].rows.len(), 8);
/// assert_eq!(report.manifest.parameter("evaluation"), Some("artificial"));
/// ```
///
/// # Errors
///
/// As [`critical_column`].
pub fn critical_report<P: Probability>(
    game: &CriticalGame<P>,
    evaluation: &Evaluation<P>,
    depths: Depths,
) -> Result<Report> {
    let outcome = critical_column(game, evaluation, depths)?;
    let title = format!(
        "D(d) for the critical win-loss game, b = {}, H = {}, gamma = ({}, {}), root gamma {}, {} evaluation",
        game.branching(),
        game.height(),
        text(game.gamma_max()),
        text(game.gamma_min()),
        text(game.gamma_root()),
        evaluation.name()
    );
    let report = Report::new("distributions critical", &title)
        .param("branching", game.branching())
        .param("height", game.height())
        .param(
            "gamma",
            format!("{},{}", text(game.gamma_max()), text(game.gamma_min())),
        )
        .param("root_gamma", text(game.gamma_root()));
    let report = with_parameters(report, evaluation, depths);
    Ok(tables(report, "critical", game.branching(), &outcome, "D(d)")
        .note("D(d): the probability that depth-d minimax (ties broken uniformly) moves to a winning child, given that the root has a losing move; P(optimal move) over all roots; the expected loss 2 (1 - P(optimal move)) in units of the values +1, -1"))
}

/// The report of a multi-valued P-game: computes [`pgame_column`] and lays it out.
///
/// # Examples
///
/// ```
/// use pathology::analytic::distributions::report::pgame_report;
/// use pathology::analytic::distributions::{Depths, Evaluation, Histogram, Model, MultiValuedPGame, parse_leaves};
/// let game = MultiValuedPGame::new(2, 6, parse_leaves("0:0.3,1:0.4,2:0.3").unwrap()).unwrap();
/// let histogram = Histogram::parse("0,0\n0,1\n1,1\n2,2\n2,1\n").unwrap();
/// let report = pgame_report(&game, &Evaluation::new(Model::Histogram(histogram)), Depths::All).unwrap();
/// assert_eq!(report.tables[0].rows.len(), 6);
/// assert!(report.manifest.parameter("histogram_fnv1a64").is_some());
/// ```
///
/// # Errors
///
/// As [`pgame_column`].
pub fn pgame_report<P: Probability>(
    game: &MultiValuedPGame<P>,
    evaluation: &Evaluation<P>,
    depths: Depths,
) -> Result<Report> {
    let outcome = pgame_column(game, evaluation, depths)?;
    let leaves: Vec<String> = game
        .values()
        .iter()
        .zip(game.probabilities())
        .map(|(v, p)| {
            let v = if v.denom() == &num_bigint::BigInt::from(1) {
                v.numer().to_string()
            } else {
                format!("{}/{}", v.numer(), v.denom())
            };
            format!("{v}:{}", text(p))
        })
        .collect();
    let title = format!(
        "D(d,{}) for a {}-valued P-game, b = {}, {} evaluation",
        game.height(),
        game.values().len(),
        game.branching(),
        evaluation.name()
    );
    let report = Report::new("distributions pgame", &title)
        .param("branching", game.branching())
        .param("height", game.height())
        .param("leaves", leaves.join(","));
    let report = with_parameters(report, evaluation, depths);
    let label = format!("D(d,{})", game.height());
    Ok(tables(report, "p", game.branching(), &outcome, &label)
        .note("D(d,h): the probability that depth-d minimax (ties broken uniformly) moves to a child of the root's true value, given that the root has a child of another value; P(optimal move) over all roots; the expected loss E[value(root) - value(chosen)] from the mover's point of view (never negative)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::distributions::{Histogram, Model};
    use crate::report::{ExportOptions, Format};

    #[test]
    fn reports_render_in_every_format() {
        let game = CriticalGame::new(3, 6, 0.9, 0.9).unwrap();
        let h = Histogram::parse("1,1,3\n1,0\n-1,0,3\n-1,1\n").unwrap();
        let report = critical_report(
            &game,
            &Evaluation::new(Model::Histogram(h.clone())),
            Depths::All,
        )
        .unwrap();
        for format in [
            Format::Text,
            Format::Csv,
            Format::Json,
            Format::Markdown,
            Format::Latex,
        ] {
            let out = report.render(format, &ExportOptions::default()).unwrap();
            assert!(!out.is_empty());
        }
        let hash = format!("{:016x}", h.hash());
        assert_eq!(
            report.manifest.parameter("histogram_fnv1a64"),
            Some(hash.as_str())
        );
        let gaussian = critical_report(
            &game,
            &Evaluation::new(Model::Gaussian { sigma: 0.5 }),
            Depths::UpTo(3),
        )
        .unwrap();
        assert!(gaussian.table("refined").is_some());
        assert!(gaussian.notes.iter().any(|n| n.contains("not a bound")));
    }
}
