//! The [`Report`] of a path-sum tree: table `decisions` (one row per depth: D, the
//! unconditional probability of an optimal move, the expected loss and the minimax bias),
//! table `root` (the probability of a non-trivial root), the rounding note in `f64`, and
//! every parameter in the manifest, so that a command (or a study) only builds a
//! [`PathSumGame`] and calls [`pathsum_report`].

use num_rational::BigRational;

use super::{Evaluator, Outcome, PathSumGame, pathsum_column};
use crate::error::Result;
use crate::numeric::number::Probability;
use crate::report::{Cell, Column, Grid, Kind, Report, Table, printed_error_bound};

fn cell<P: Probability>(value: &P, bound: f64) -> Cell {
    match value.exact_value() {
        Some(exact) => Cell::Exact(exact),
        None => Cell::Bounded {
            value: value.to_f64(),
            bound,
        },
    }
}

fn quantile(q: &BigRational, exact: bool) -> Cell {
    if exact {
        Cell::Exact(q.clone())
    } else {
        Cell::Real(crate::numeric::number::rational_to_f64(q))
    }
}

/// The report of `game` at `depth` (every depth when `None`), in exact rationals or `f64`,
/// under the subcommand `command`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::pathsum::{Evaluator, Law, Outcome, PathSumGame};
/// use pathology::analytic::pathsum::report::pathsum_report;
/// let game = PathSumGame {
///     branching: 2, height: 5, step: Law::parse("--step", "1:1/2,-1:1/2").unwrap(),
///     leaf: Law::parse("--leaf", "1:1/2,-1:1/2").unwrap(), terminal: "1/10".parse().unwrap(),
///     outcome: Outcome::Value, evaluator: Evaluator::Position,
///     levels: None,
/// };
/// let report = pathsum_report(&game, None, false, "decision").unwrap();
/// assert_eq!(report.tables[0].rows.len(), 5);
/// assert_eq!(report.manifest.parameter("terminal"), Some("1/10"));
/// ```
///
/// # Errors
///
/// As [`pathsum_column`].
pub fn pathsum_report(
    game: &PathSumGame,
    depth: Option<u32>,
    exact: bool,
    command: &str,
) -> Result<Report> {
    if exact {
        build::<BigRational>(game, depth, command)
    } else {
        build::<f64>(game, depth, command)
    }
}

/// The manifest parameters of `game`, named as `decision --game sum` spells its options.
pub fn parameters(game: &PathSumGame) -> Vec<(String, String)> {
    let mut out = vec![
        ("game".to_string(), "sum".to_string()),
        ("branching".to_string(), game.branching.to_string()),
        ("height".to_string(), game.height.to_string()),
        ("step".to_string(), game.step.text()),
        ("leaf".to_string(), game.leaf.text()),
        ("terminal".to_string(), game.terminal.to_string()),
        (
            "outcome".to_string(),
            match game.outcome {
                Outcome::Value => "value",
                Outcome::Sign => "sign",
            }
            .to_string(),
        ),
        ("evaluator".to_string(), game.evaluator.name().to_string()),
    ];
    match &game.evaluator {
        Evaluator::Additive { noise } => out.push(("noise".to_string(), noise.text())),
        Evaluator::Artificial { error } => out.push(("e".to_string(), error.to_string())),
        _ => {}
    }
    if let Some(levels) = &game.levels {
        out.push(("levels".to_string(), levels.count.to_string()));
        out.push((
            "range".to_string(),
            format!("{},{}", levels.low, levels.high),
        ));
    }
    out
}

fn build<P: Probability>(game: &PathSumGame, depth: Option<u32>, command: &str) -> Result<Report> {
    let depths: Vec<u32> = match depth {
        Some(d) => vec![d],
        None => (1..=game.height).collect(),
    };
    let column = pathsum_column::<P>(game, &depths)?;
    let h = game.height;
    let title = format!(
        "D(d,{h}) for a path-sum tree, b = {}, step {}, leaf {}, terminal {}, {} outcome, {} evaluation",
        game.branching,
        game.step.text(),
        game.leaf.text(),
        game.terminal,
        match game.outcome {
            Outcome::Value => "value",
            Outcome::Sign => "sign",
        },
        game.evaluator.name()
    ) + &game.levels.as_ref().map_or(String::new(), |l| {
        format!(" in {} levels over [{}, {}]", l.count, l.low, l.high)
    });
    let mut report = Report::new(command, &title);
    for (name, value) in parameters(game) {
        report = report.param(&name, value);
    }
    if let Some(d) = depth {
        report = report.param("depth", d);
    }
    report = report.param("exact", P::EXACT);
    let label = format!("D(d,{h})");
    let key = |name: &str, kind| Column::key(name, kind);
    let mut table = Table::new(
        "decisions",
        &title,
        vec![
            key("game", Kind::Text),
            key("b", Kind::Integer),
            key("h", Kind::Integer),
            key("d", Kind::Integer),
            Column::new("D", Kind::Real).labelled(&label),
            Column::new("optimal", Kind::Real).labelled("P(optimal move)"),
            Column::new("loss", Kind::Real).labelled("expected loss"),
            Column::new("bias_mean", Kind::Real).labelled("bias mean"),
            Column::new("bias_q05", Kind::Real).labelled("bias 5%"),
            Column::new("bias_q50", Kind::Real).labelled("bias 50%"),
            Column::new("bias_q95", Kind::Real).labelled("bias 95%"),
        ],
    );
    let mut grid = Grid {
        header: vec![vec![
            "d".to_string(),
            label.clone(),
            "P(optimal move)".to_string(),
            "expected loss".to_string(),
            "bias mean".to_string(),
            "bias 5%".to_string(),
            "bias 50%".to_string(),
            "bias 95%".to_string(),
        ]],
        ..Grid::default()
    };
    for row in &column.rows {
        let mut cells = vec![
            cell(&row.decision, row.bounds[0]),
            cell(&row.optimal, row.bounds[1]),
            cell(&row.loss, row.bounds[2]),
        ];
        match (&row.bias_mean, &row.bias_quantiles) {
            (Some(mean), Some(q)) => {
                cells.push(cell(mean, row.bounds[3]));
                cells.extend(q.iter().map(|x| quantile(x, P::EXACT)));
            }
            _ => cells.extend([Cell::Empty, Cell::Empty, Cell::Empty, Cell::Empty]),
        }
        grid.body.push((row.depth.to_string(), cells.clone()));
        let mut full = vec![
            Cell::text("sum"),
            Cell::int(game.branching),
            Cell::int(h),
            Cell::int(row.depth),
        ];
        full.extend(cells);
        table.push(full);
    }
    table.grid = Some(grid);
    let root = crate::analytic::families::report::root_table(
        "D",
        "sum",
        game.branching,
        h,
        cell(&column.nontrivial, column.nontrivial_bound),
    );
    report = report
        .mode(if P::EXACT { "exact" } else { "f64" })
        .with_table(table)
        .with_table(root);
    if !P::EXACT {
        let largest = column
            .rows
            .iter()
            .flat_map(|r| r.bounds)
            .fold(column.nontrivial_bound, f64::max);
        report = report.note(format!(
            "f64: every value is within {} of the exact value of the model at the f64 parameters \
             (rigorous: relative rounding errors of nonnegative sums and products tracked per \
             level, assuming no underflow; each value's own bound is its CSV/JSON column \
             *_error_bound); the bias quantiles are exact atoms of the computed law",
            printed_error_bound(0.0, largest)
        ));
    }
    Ok(report.note(
        "D(d,h): the probability that depth-d minimax (ties broken uniformly) moves to a child \
         of the root's true value, given that the root has a child of another value; P(optimal \
         move) over all roots; the expected loss E[|value(root) - value(chosen)|]; the minimax \
         bias: backed-up root evaluation minus true root value (mean, and the smallest values \
         whose CDF reaches 5%, 50%, 95%)",
    ))
}
