//! Ross's (2020) tie-breaking analysis of one tic-tac-toe position ([`analyze`]) as a
//! [`Report`]: the root moves with their true and alpha-beta values, and the probability
//! that random tie-breaking picks a losing move, naively and with the safe rule.

use num_rational::BigRational;

use super::alphabeta::{
    Fraction, RandomTrees, TieBreakAnalysis, analyze, estimate_naive_losses,
    estimate_naive_losses_tictactoe, tictactoe_trial_seconds, tree_trial_seconds,
};
use crate::error::{Error, Result};
use crate::games::tictactoe::TicTacToe;
use crate::model::Player;
use crate::report::{Cell, Column, Kind, Report, Table};
use crate::sim::report::{McRun, RunConfig};

/// `pathology alphabeta`: [`alphabeta_report`] of one position with its title and manifest.
///
/// # Examples
///
/// ```
/// use pathology::studies::ross::alphabeta_report::position_report;
/// let report = position_report("........O").unwrap();
/// assert_eq!(report.manifest.command_line(), "pathology alphabeta --board ........O");
/// ```
///
/// # Errors
///
/// As [`alphabeta_report`].
pub fn position_report(board: &str) -> Result<Report> {
    let report = Report::new(
        "alphabeta",
        "Ross's alpha-beta tie-breaking analysis of a tic-tac-toe position",
    )
    .param("board", board)
    .mode("exact");
    alphabeta_report(report, board)
}

/// Where `mc alphabeta` draws its positions from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Positions {
    /// Random uniform game trees (--branching, --depth, --max-value).
    Trees,
    /// Random tic-tac-toe positions after --plies random moves.
    Tictactoe,
}

/// `mc alphabeta`: the positions and their options as given (`None`: not given, the
/// default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NaiveLossRequest {
    /// Random game trees or random tic-tac-toe positions.
    pub positions: Positions,
    /// Random moves from the empty tic-tac-toe board (default 3); tic-tac-toe only.
    pub plies: Option<u32>,
    /// Branching factor of the random trees (default 3); trees only.
    pub branching: Option<usize>,
    /// Depth of the random trees (default 4); trees only.
    pub depth: Option<u32>,
    /// Leaf values uniform on 0..=max_value (default 2); trees only.
    pub max_value: Option<u32>,
}

impl NaiveLossRequest {
    /// Runs `mc alphabeta` (refused up front beyond an hour) and returns its report.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::report::RunConfig;
    /// use pathology::studies::ross::alphabeta_report::{NaiveLossRequest, Positions};
    /// let request = NaiveLossRequest {
    ///     positions: Positions::Trees, plies: None, branching: None, depth: Some(2), max_value: None,
    /// };
    /// let config = RunConfig { trials: 200, seed: 3, threads: Some(1), shard: None };
    /// assert_eq!(request.estimate(&config).unwrap().tables[0].rows.len(), 3);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a shard (its outputs cannot be merged yet) or an option
    /// of the other kind of positions; as the estimates and the budget.
    pub fn estimate(&self, config: &RunConfig) -> Result<Report> {
        // Its estimates are means of fractions, which `merge` cannot rebuild from counts yet:
        // a shard's output could never be combined, so a sharded run is refused.
        if let Some(shard) = config.shard {
            return Err(Error::invalid(
                "--shard",
                "left out for mc alphabeta (its shards cannot be merged yet; run it unsharded)",
                shard,
            ));
        }
        // Options of the other kind of positions would be silently ignored: reject them.
        let tree_options = [
            ("--branching", self.branching.is_some()),
            ("--depth", self.depth.is_some()),
            ("--max-value", self.max_value.is_some()),
        ];
        match self.positions {
            Positions::Trees if self.plies.is_some() => {
                return Err(Error::invalid(
                    "--plies",
                    "given only with --positions tictactoe (random trees take --branching, --depth and --max-value)",
                    self.plies.unwrap_or_default(),
                ));
            }
            Positions::Tictactoe => {
                if let Some((name, _)) = tree_options.iter().find(|(_, given)| *given) {
                    return Err(Error::invalid(
                        name,
                        "given only with --positions trees (tic-tac-toe takes --plies)",
                        "it with --positions tictactoe",
                    ));
                }
            }
            Positions::Trees => {}
        }
        let plies = self.plies.unwrap_or(3);
        let trees = RandomTrees {
            branching: self.branching.unwrap_or(3),
            depth: self.depth.unwrap_or(4),
            max_value: self.max_value.unwrap_or(2),
        };
        let (what, per_trial) = match self.positions {
            Positions::Trees => (
                format!(
                    "mc alphabeta on random trees (b = {}, depth {})",
                    trees.branching, trees.depth
                ),
                tree_trial_seconds(&trees)?,
            ),
            Positions::Tictactoe => (
                format!("mc alphabeta on tic-tac-toe after --plies {plies}"),
                tictactoe_trial_seconds(plies)?,
            ),
        };
        let runner = config.budgeted_runner("mc alphabeta", &what, per_trial)?;
        let run = config.run();
        Ok(match self.positions {
            Positions::Trees => naive_loss_report(
                &run,
                "trees",
                &format!(
                    "random trees (b = {}, depth {}, leaves 0..={})",
                    trees.branching, trees.depth, trees.max_value
                ),
                &[
                    ("branching", trees.branching as u64),
                    ("depth", u64::from(trees.depth)),
                    ("max_value", u64::from(trees.max_value)),
                ],
                &estimate_naive_losses(trees, &runner)?,
            ),
            Positions::Tictactoe => naive_loss_report(
                &run,
                "tictactoe",
                &format!("random tic-tac-toe positions after {plies} random moves"),
                &[("plies", u64::from(plies))],
                &estimate_naive_losses_tictactoe(plies, &runner)?,
            ),
        })
    }
}

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
        ]);
        cells.extend(crate::sim::report::estimate_cells(c));
        table.push(cells);
    }
    run.params(report).with_table(table).note(
        "naive_can_lose: a proportion (95% Wilson interval); the loss probabilities: means over positions \
         (95% normal interval; when every position's is 0, the Clopper-Pearson interval of 0 in n, \
         [0, 1 - 0.025^(1/n)], valid for any mean of values in [0, 1]); the safe rule never loses \
         (exact 0)",
    )
}
