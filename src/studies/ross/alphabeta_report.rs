//! Ross's (2020) tie-breaking analysis of one tic-tac-toe position ([`analyze`]) as a
//! [`Report`]: the root moves with their true and alpha-beta values, and the probability
//! that random tie-breaking picks a losing move, naively and with the safe rule.

use num_rational::BigRational;

use super::alphabeta::{Fraction, TieBreakAnalysis, analyze};
use crate::error::Result;
use crate::games::tictactoe::TicTacToe;
use crate::model::Player;
use crate::report::{Cell, Column, Kind, Report, Table};
use crate::sim::report::McRun;

/// The safe tie-breaking rule.
pub const SAFE_RULE: &str =
    "tied root moves whose alpha-beta value is a bound are re-searched with a full window";

fn fraction_cell(f: Fraction) -> Cell {
    Cell::Exact(BigRational::new(f.numerator.into(), f.denominator.into()))
}

/// Analyses the tic-tac-toe position `board` (nine characters `X`, `O`, `.`) and adds the
/// tables `moves` (`board`, `square`, `minimax`, `alphabeta`, `bound`) and `tie_breaking`
/// (`board`, `rule`, `loss_probability`, exact) to `report`.
///
/// # Examples
///
/// ```
/// use pathology::studies::ross::alphabeta_report::alphabeta_report;
/// use pathology::numeric::number::parse_rational;
/// use pathology::report::{Cell, Report};
/// let r = alphabeta_report(Report::new("alphabeta", "t"), "........O").unwrap();
/// assert_eq!(r.tables[1].rows[0][2], Cell::Exact(parse_rational("3/4").unwrap()));
/// ```
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `--board` for a malformed or finished position.
pub fn alphabeta_report(report: Report, board: &str) -> Result<Report> {
    let game = TicTacToe;
    let state = game.parse_board(board)?;
    let analysis: TieBreakAnalysis<usize> = analyze(&game, &state)?;
    let board = state.to_string();
    let to_move = match analysis.player {
        Player::Max => "X",
        Player::Min => "O",
    };
    let mut moves = Table::new(
        "moves",
        &format!(
            "Board {board} (squares 0..8 row-major), {to_move} to move; alpha-beta with the \
             root's bound passed on"
        ),
        vec![
            Column::key("board", Kind::Text),
            Column::key("square", Kind::Integer),
            Column::new("minimax", Kind::Real),
            Column::new("alphabeta", Kind::Real),
            Column::new("bound", Kind::Text),
        ],
    );
    for m in &analysis.moves {
        moves.push(vec![
            Cell::text(board.clone()),
            Cell::int(m.square as u64),
            Cell::Real(m.minimax),
            Cell::Real(m.alphabeta),
            Cell::text(m.bound.to_string()),
        ]);
    }
    let mut ties = Table::new(
        "tie_breaking",
        "probability that random tie-breaking among the best-looking moves picks a losing move",
        vec![
            Column::key("board", Kind::Text),
            Column::key("rule", Kind::Text),
            Column::new("loss_probability", Kind::Real).labelled("loss probability"),
        ],
    );
    for (rule, fraction) in [("naive", analysis.naive_loss), ("safe", analysis.safe_loss)] {
        ties.push(vec![
            Cell::text(board.clone()),
            Cell::text(rule),
            fraction_cell(fraction),
        ]);
    }
    Ok(report
        .with_table(moves)
        .with_table(ties)
        .note(format!("Safe rule: {SAFE_RULE}.")))
}
/// `mc alphabeta`: how often random tie-breaking over alpha-beta root values loses.
pub fn naive_loss_report(
    run: &McRun,
    positions: &str,
    described: &str,
    parameters: &[(&str, u64)],
    result: &crate::studies::ross::alphabeta::NaiveLossEstimate,
) -> Report {
    let title = format!("Random tie-breaking over alpha-beta root values: {described}");
    let mut report = Report::new("mc alphabeta", &title).param("positions", positions);
    for (name, value) in parameters {
        report = report.param(name, value);
    }
    let mut columns = vec![Column::key("positions", Kind::Text)];
    columns.extend(
        parameters
            .iter()
            .map(|(n, _)| Column::key(n, Kind::Integer)),
    );
    columns.extend([
        Column::key("seed", Kind::Text),
        Column::key("quantity", Kind::Text),
        Column::new("trials", Kind::Integer),
        Column::new("estimate", Kind::Interval).labelled("estimate [95% CI]"),
        Column::new("exact", Kind::Real),
        Column::new("z", Kind::Real),
    ]);
    let mut table = Table::new("estimates", &title, columns);
    let trials = run.shard.map_or(run.trials, |s| {
        let r = s.range(run.trials);
        r.end - r.start
    });
    for (name, c) in [
        ("naive_can_lose", &result.naive_can_lose),
        ("naive_loss_probability", &result.naive_loss_probability),
        ("safe_loss_probability", &result.safe_loss_probability),
    ] {
        let mut cells = vec![Cell::text(positions)];
        cells.extend(parameters.iter().map(|(_, v)| Cell::int(*v)));
        cells.extend([
            Cell::text(run.seed.to_string()),
            Cell::text(name),
            Cell::int(trials),
            Cell::Interval {
                estimate: c.estimate,
                lower: c.ci_low,
                upper: c.ci_high,
            },
            c.exact.map_or(Cell::Empty, Cell::Real),
            c.z.filter(|z| z.is_finite())
                .map_or(Cell::Empty, Cell::Real),
        ]);
        table.push(cells);
    }
    run.params(report).with_table(table).note(
        "naive_can_lose: a proportion (95% Wilson interval); the loss probabilities: means over positions \
         (95% normal interval); the safe rule never loses (exact 0)",
    )
}
