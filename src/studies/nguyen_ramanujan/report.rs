//! The UCT study ([`super::study`]) as a [`Report`]: `pathology mc uct`.
//!
//! One tidy row per (c, N), keyed by the exploration constant `c` and the iteration count `n`:
//! the setting's parameters (game `crit`|`p`|`n`, `b`, `h`, the critical rates or the board's
//! probability, the evaluator and its sigma, the decision rule, the seed), the boards drawn,
//! the counts (`successes`: games whose chosen root move wins; `trials`: games), the fraction
//! with its 95% Wilson interval, and the `exact` and `z` columns of every Monte Carlo report
//! (empty: UCT has no exact engine). The reading grid shows N down and c across.
//!
//! The report is built from integer counts alone ([`report_from_counts`]), so the outputs of
//! the N shards of a seeded run (`--shard K/N`) sum back into the unsharded run's output byte
//! for byte: [`merge_shards`] sums `successes`, `trials` and `boards_drawn` row by row (rows
//! keyed by `c` and `n`), rebuilds the spec from the manifest ([`spec_from_parameters`]) and
//! calls [`report_from_counts`]. (`pathology merge` dispatches to it once `mc uct` is in
//! [`crate::studies::merge::MERGEABLE`].)
//!
//! When [`UctStudySpec::exact_minimax`] is filled ([`super::exact::fill_exact_minimax`], by
//! the run and by [`merge_shards`] alike), a second table `minimax` lists the exact
//! probability that a depth-d minimax search with the same evaluator picks a winning move on
//! the same games, d = 1..8, beside the UCT rows, and [`UctStudySpec::exact_note`] says what
//! those values are.

use super::study::{
    ExactMinimax, UctCounts, UctEvaluator, UctGame, UctHistogram, UctStudySpec, board_kind,
};
use crate::error::{Error, Result};
use crate::report::read::ReadTable;
use crate::report::{Cell, Column, Grid, Kind, Report, Table, format_f64};
use crate::search::uct::FinalMove;
use crate::sim::level_tree::BoardSpec;
use crate::sim::report::{
    McRun, Parameters, Printed, comparison_cells, comparison_columns, summed_columns,
};
use crate::sim::stats::Proportion;

/// The subcommand of the study's reports.
pub const COMMAND: &str = "mc uct";

/// The text of a list of numbers in the manifest: `0.001,1,1000000`.
fn list<T: Copy>(values: &[T], text: impl Fn(T) -> String) -> String {
    values
        .iter()
        .map(|&v| text(v))
        .collect::<Vec<_>>()
        .join(",")
}

/// The manifest's parameters of a spec, in command-line order.
fn parameters(spec: &UctStudySpec, report: Report) -> Report {
    let report = report
        .param("game", spec.game.name())
        .param("branching", spec.game.branching())
        .param("height", spec.game.height());
    let report = match &spec.game {
        UctGame::Critical {
            gamma_max,
            gamma_min,
            ..
        } => {
            if gamma_max == gamma_min {
                report.param("gamma", format_f64(*gamma_max))
            } else {
                report.param(
                    "gamma",
                    format!("{},{}", format_f64(*gamma_max), format_f64(*gamma_min)),
                )
            }
        }
        UctGame::Board(board) => report.param("p", format_f64(board.parameter)),
    };
    let report = report.param("evaluator", spec.evaluator.name());
    let report = match spec.evaluator {
        UctEvaluator::Gaussian => report.param("sigma", format_f64(spec.sigma)),
        UctEvaluator::Artificial => report.param("error", format_f64(spec.error)),
        _ => report,
    };
    let report = match &spec.histogram {
        Some(h) => report
            .param("histogram", h.file.display())
            .param("histogram_fnv1a64", h.hash()),
        None => report,
    };
    report
        .param("c", list(&spec.exploration, format_f64))
        .param("iterations", list(&spec.iterations, |n| n.to_string()))
        .param("final", spec.final_move.name())
}

/// The spec of a run from its manifest's parameters (what `merge` calls; the exact minimax
/// values are not parameters and come back empty). With the histogram evaluator the file is
/// read again from the path the manifest names (relative to the working directory, as
/// `mc distributions`'s `merge` reads it) and refused unless its hash is the manifest's
/// `histogram_fnv1a64`: the law is needed for the exact minimax lines, and a changed file
/// is not silently merged.
///
/// # Examples
///
/// ```
/// use pathology::studies::nguyen_ramanujan::report::{report_from_counts, spec_from_parameters};
/// use pathology::studies::nguyen_ramanujan::study::{UctEvaluator, UctGame, UctStudySpec, run_counts};
/// use pathology::sim::report::McRun;
/// use pathology::sim::TrialRunner;
/// let game = UctGame::Critical { branching: 2, height: 12, gamma_max: 0.9, gamma_min: 0.8 };
/// let spec = UctStudySpec::new(game, UctEvaluator::Gaussian, 0.25, vec![0.5], vec![1, 20]).unwrap();
/// let counts = run_counts(&spec, &TrialRunner::new(10, 3, 1).unwrap()).unwrap();
/// let report = report_from_counts(&spec, &McRun { trials: 10, seed: 3, shard: None }, &counts);
/// assert_eq!(spec_from_parameters(&report.manifest.parameters).unwrap(), spec);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` for a missing parameter, or the manifest
/// parameter that does not parse or is out of range; as [`UctHistogram::read`] (naming
/// `--histogram` or `--histogram-fnv1a64`).
pub fn spec_from_parameters(parameters: &[(String, String)]) -> Result<UctStudySpec> {
    let p = Parameters(parameters);
    let numbers = |name: &str| -> Result<Vec<f64>> {
        p.get(name)?
            .split(',')
            .map(|v| {
                v.trim().parse::<f64>().map_err(|_| {
                    Error::invalid(&format!("manifest parameter {name}"), "numbers", v)
                })
            })
            .collect()
    };
    let branching: u32 = p.parse("branching", "a whole number")?;
    let height: u32 = p.parse("height", "a whole number")?;
    let game = match board_kind(p.get("game")?)? {
        None => {
            let gamma = numbers("gamma")?;
            let (gamma_max, gamma_min) = match gamma[..] {
                [g] => (g, g),
                [g, h] => (g, h),
                _ => {
                    return Err(Error::invalid(
                        "manifest parameter gamma",
                        "one or two rates",
                        p.get("gamma")?,
                    ));
                }
            };
            UctGame::Critical {
                branching,
                height,
                gamma_max,
                gamma_min,
            }
        }
        Some(kind) => UctGame::Board(BoardSpec::new(
            kind,
            branching,
            height,
            p.parse("p", "a number")?,
        )?),
    };
    let evaluator = UctEvaluator::parse(p.get("evaluator")?)?;
    let sigma = if evaluator == UctEvaluator::Gaussian {
        p.parse("sigma", "a number")?
    } else {
        0.0
    };
    let error = if evaluator == UctEvaluator::Artificial {
        p.parse("error", "a number")?
    } else {
        0.0
    };
    let iterations = p
        .get("iterations")?
        .split(',')
        .map(|v| {
            v.trim()
                .parse::<u64>()
                .map_err(|_| Error::invalid("manifest parameter iterations", "whole numbers", v))
        })
        .collect::<Result<Vec<u64>>>()?;
    let mut spec = if evaluator == UctEvaluator::Histogram {
        let file = std::path::Path::new(p.get("histogram")?);
        let histogram = UctHistogram::read(file, Some(p.get("histogram_fnv1a64")?))?;
        UctStudySpec::with_histogram(game, histogram, numbers("c")?, iterations)?
    } else {
        UctStudySpec::new(game, evaluator, sigma, numbers("c")?, iterations)?
    };
    spec.error = error;
    spec.final_move = FinalMove::parse(p.get("final")?)?;
    spec.check()?;
    Ok(spec)
}

/// The columns of the estimates table.
fn columns() -> Vec<Column> {
    let mut columns = vec![
        Column::key("kind", Kind::Text),
        Column::key("game", Kind::Text),
        Column::key("b", Kind::Integer),
        Column::key("h", Kind::Integer),
        Column::key("gamma_max", Kind::Real),
        Column::key("gamma_min", Kind::Real),
        Column::key("p", Kind::Real),
        Column::key("evaluator", Kind::Text),
        Column::key("sigma", Kind::Real),
        Column::key("error", Kind::Real),
        Column::key("final", Kind::Text),
        Column::key("c", Kind::Real),
        Column::key("n", Kind::Integer).labelled("N"),
        Column::key("seed", Kind::Text),
        Column::new("boards_drawn", Kind::Integer),
    ];
    columns.extend(comparison_columns());
    columns
}

/// The parameter cells every row of a spec shares: game to final.
fn setting_cells(spec: &UctStudySpec) -> Vec<Cell> {
    let (gamma_max, gamma_min, p) = match &spec.game {
        UctGame::Critical {
            gamma_max,
            gamma_min,
            ..
        } => (Cell::Real(*gamma_max), Cell::Real(*gamma_min), Cell::Empty),
        UctGame::Board(board) => (Cell::Empty, Cell::Empty, Cell::Real(board.parameter)),
    };
    let sigma = if spec.evaluator == UctEvaluator::Gaussian {
        Cell::Real(spec.sigma)
    } else {
        Cell::Empty
    };
    let error = if spec.evaluator == UctEvaluator::Artificial {
        Cell::Real(spec.error)
    } else {
        Cell::Empty
    };
    vec![
        Cell::text(spec.game.name()),
        Cell::int(spec.game.branching()),
        Cell::int(spec.game.height()),
        gamma_max,
        gamma_min,
        p,
        Cell::text(spec.evaluator.name()),
        sigma,
        error,
        Cell::text(spec.final_move.name()),
    ]
}

/// `critical win-loss game, b = 2, H = 50, gamma = 1, gaussian evaluator (sigma = 0.25)`.
fn describe(spec: &UctStudySpec) -> String {
    let game = match &spec.game {
        UctGame::Critical {
            branching,
            height,
            gamma_max,
            gamma_min,
        } => {
            let gamma = if gamma_max == gamma_min {
                format!("gamma = {}", format_f64(*gamma_max))
            } else {
                format!(
                    "gamma_max = {}, gamma_min = {}",
                    format_f64(*gamma_max),
                    format_f64(*gamma_min)
                )
            };
            format!("critical win-loss game, b = {branching}, H = {height}, {gamma}")
        }
        UctGame::Board(board) => format!(
            "{}-games, b = {}, H = {}, p = {}",
            board.kind.name().to_uppercase(),
            board.tree.branching(),
            board.tree.height(),
            format_f64(board.parameter)
        ),
    };
    let evaluator = match spec.evaluator {
        UctEvaluator::Gaussian => {
            format!("gaussian evaluator (sigma = {})", format_f64(spec.sigma))
        }
        UctEvaluator::Artificial => {
            format!("artificial evaluator (e = {})", format_f64(spec.error))
        }
        UctEvaluator::Histogram => match &spec.histogram {
            Some(h) => format!(
                "histogram evaluator ({}, FNV-1a {})",
                h.file.display(),
                h.hash()
            ),
            None => "histogram evaluator".to_string(),
        },
        other => format!("{} evaluator", other.name()),
    };
    format!("{game}, {evaluator}")
}

/// The report of `pathology mc uct` from the counts of a run (or of the summed shards).
///
/// # Examples
///
/// ```
/// use pathology::studies::nguyen_ramanujan::report::report_from_counts;
/// use pathology::studies::nguyen_ramanujan::study::{ExactMinimax, UctEvaluator, UctGame, UctStudySpec, run_counts};
/// use pathology::sim::report::McRun;
/// use pathology::sim::TrialRunner;
/// let game = UctGame::Critical { branching: 2, height: 50, gamma_max: 1.0, gamma_min: 1.0 };
/// let mut spec = UctStudySpec::new(game, UctEvaluator::Gaussian, 0.25, vec![0.1, 10.0], vec![1, 10, 100])
///     .unwrap();
/// let counts = run_counts(&spec, &TrialRunner::new(20, 1, 2).unwrap()).unwrap();
/// let run = McRun { trials: 20, seed: 1, shard: None };
/// let report = report_from_counts(&spec, &run, &counts);
/// assert_eq!(report.table("estimates").unwrap().rows.len(), 6); // one row per (c, N)
/// assert_eq!(report.manifest.command_line(),
///     "pathology mc uct --game crit --branching 2 --height 50 --gamma 1 --evaluator gaussian \
///      --sigma 0.25 --c 0.1,10 --iterations 1,10,100 --final mean --trials 20 --seed 1");
/// // Exact minimax values from elsewhere go into a second table.
/// spec.exact_minimax = vec![ExactMinimax { depth: 1, value: 0.5, bound: None, refined: None }];
/// assert_eq!(report_from_counts(&spec, &run, &counts).table("minimax").unwrap().rows.len(), 1);
/// ```
pub fn report_from_counts(spec: &UctStudySpec, run: &McRun, counts: &UctCounts) -> Report {
    let title = format!(
        "UCT (Nguyen & Ramanujan 2024): fraction of games whose chosen root move wins, by \
         exploration constant c and iterations N; {}",
        describe(spec)
    );
    let mut table = Table::new("estimates", &title, columns());
    let mut grid = Grid {
        header: vec![
            std::iter::once("N".to_string())
                .chain(
                    spec.exploration
                        .iter()
                        .map(|&c| format!("c = {}", format_f64(c))),
                )
                .collect(),
        ],
        body: Vec::new(),
        rules_after: Vec::new(),
    };
    let mut grid_rows: Vec<Vec<Cell>> = vec![Vec::new(); spec.iterations.len()];
    let setting = setting_cells(spec);
    for (i, &c) in spec.exploration.iter().enumerate() {
        for (k, &n) in spec.iterations.iter().enumerate() {
            let count = counts
                .correct
                .get(i * spec.iterations.len() + k)
                .copied()
                .unwrap_or_default();
            let comparison = count.compare(None);
            let compared = comparison_cells(count.successes, count.trials, &comparison);
            grid_rows[k].push(compared[2].clone());
            let mut cells = vec![Cell::text("uct")];
            cells.extend(setting.iter().cloned());
            cells.extend([
                Cell::Real(c),
                Cell::int(n),
                Cell::text(run.seed.to_string()),
                Cell::int(counts.boards_drawn),
            ]);
            cells.extend(compared);
            table.push(cells);
        }
    }
    grid.body = spec
        .iterations
        .iter()
        .zip(grid_rows)
        .map(|(n, cells)| (n.to_string(), cells))
        .collect();
    table.grid = Some(grid);
    let mut report = run
        .params(parameters(spec, Report::new(COMMAND, &title)))
        .with_table(table);
    if !spec.exact_minimax.is_empty() {
        report = report.with_table(minimax_table(spec, &spec.exact_minimax));
    }
    if !spec.exact_note.is_empty() {
        report = report.note(spec.exact_note.clone());
    }
    report
        .note(format!(
            "{} games{} ({} boards drawn), seed {}; each c searches the same games",
            counts.games,
            run.shard
                .map(|s| format!(" in shard {s} of {}", run.trials))
                .unwrap_or_default(),
            counts.boards_drawn,
            run.seed
        ))
        .note(
            "95% Wilson intervals; a success is a game whose chosen root move wins for the \
             root's mover; UCT has no exact value (exact and z empty)",
        )
        .note(game_note(spec))
        .note(
            "UCT: UCB1 mean + c sqrt(ln N / n) for the mover on values in [0, 1] for Max (1 a \
             win for Max); one node expanded per iteration, chosen uniformly among the \
             unexpanded moves; terminal nodes valued exactly; decision: final mean = the best \
             mean for the mover (an unexpanded move, uniformly, while some root move is \
             unexpanded, as the authors' code reads it), final visits = the most visited child; \
             ties uniform",
        )
}

/// `pathology merge` for `mc uct`: the shards' `successes`, `trials` and `boards_drawn` summed
/// row by row (rows keyed by `c` and `n`, checked against the first shard's), and the report
/// of the unsharded run rebuilt from them by [`report_from_counts`]. `parameters` are the
/// shards' common manifest parameters; the exact minimax lines are computed again from them
/// ([`super::exact::fill_exact_minimax`]), as the unsharded run computes them.
///
/// # Examples
///
/// ```
/// use pathology::report::{ExportOptions, Format};
/// use pathology::report::read::read_any;
/// use pathology::sim::TrialRunner;
/// use pathology::sim::report::{McRun, check_shards};
/// use pathology::sim::runner::Shard;
/// use pathology::studies::nguyen_ramanujan::exact::fill_exact_minimax;
/// use pathology::studies::nguyen_ramanujan::report::{merge_shards, report_from_counts};
/// use pathology::studies::nguyen_ramanujan::study::{UctEvaluator, UctGame, UctStudySpec, run_counts};
/// let game = UctGame::Critical { branching: 2, height: 20, gamma_max: 1.0, gamma_min: 1.0 };
/// let mut spec = UctStudySpec::new(game, UctEvaluator::Gaussian, 0.5, vec![0.3, 3.0], vec![1, 50]).unwrap();
/// fill_exact_minimax(&mut spec).unwrap();
/// let run = McRun { trials: 12, seed: 8, shard: None };
/// let csv = |shard: Option<Shard>| {
///     let runner = TrialRunner::new(12, 8, 1).unwrap();
///     let runner = match shard { Some(s) => runner.with_shard(s), None => runner };
///     let report = report_from_counts(&spec, &McRun { shard, ..run }, &run_counts(&spec, &runner).unwrap());
///     // The shards carry their manifests inline (`--manifest inline`).
///     let inline = ExportOptions { inline_manifest: true, ..ExportOptions::default() };
///     report.render(Format::Csv, &inline).unwrap()
/// };
/// let shards: Vec<_> = ["1/2", "2/2"]
///     .iter()
///     .map(|s| (s.to_string(), read_any(&csv(Some(Shard::parse(s).unwrap())), None).unwrap()))
///     .collect();
/// let manifest = check_shards(&shards).unwrap();
/// let merged = merge_shards(&run, &manifest.parameters, &shards).unwrap();
/// let inline = ExportOptions { inline_manifest: true, ..ExportOptions::default() };
/// assert_eq!(merged.render(Format::Csv, &inline).unwrap(), csv(None));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` when a shard lacks a column, has other rows or
/// non-integer counts, or the summed games are not the run's trials; as
/// [`spec_from_parameters`]; [`Error::Interrupted`] when cancelled.
pub fn merge_shards(
    run: &McRun,
    parameters: &[(String, String)],
    inputs: &[(String, ReadTable)],
) -> Result<Report> {
    let mut spec = spec_from_parameters(parameters)?;
    super::exact::fill_exact_minimax(&mut spec)?;
    // Every row of a shard counts the shard's games (its slice of the run), each a success
    // or not, drawn from at least as many boards.
    let check = |row: &[u64], slice: u64| {
        if row[1] != slice {
            Err(format!("a row of the shard's {slice} games"))
        } else if row[0] > row[1] || row[2] < row[1] {
            Err("successes <= trials <= boards_drawn".to_string())
        } else {
            Ok(())
        }
    };
    let sums = summed_columns(
        inputs,
        &["c", "n"],
        &["successes", "trials", "boards_drawn"],
        &check,
        &Printed::comparison,
    )?;
    if sums.len() != spec.rows() {
        return Err(Error::invalid(
            "FILE",
            &format!("{} rows (one per c and N)", spec.rows()),
            sums.len(),
        ));
    }
    // Every row of a shard counts all its games and boards.
    let (games, boards_drawn) = sums.first().map_or((0, 0), |row| (row[1], row[2]));
    if games != run.trials {
        return Err(Error::invalid(
            "FILE",
            &format!(
                "shards whose games add up to the run's {} trials",
                run.trials
            ),
            games,
        ));
    }
    let counts = UctCounts {
        games,
        boards_drawn,
        correct: sums
            .iter()
            .map(|row| Proportion {
                successes: row[0],
                trials: row[1],
            })
            .collect(),
    };
    Ok(report_from_counts(&spec, run, &counts))
}

/// What the game and the evaluator are, in words.
fn game_note(spec: &UctStudySpec) -> String {
    let game = match spec.game {
        UctGame::Critical { .. } => {
            "critical win-loss game (a fresh seed per game): Max to move at the root, which is \
             won and has exactly one winning move (critical rate 1 at the root, as in the \
             authors' code); below it a won node's non-optimal moves lose for the mover with \
             the mover's gamma"
        }
        UctGame::Board(_) => {
            "P-/N-game boards drawn until the root is won for its mover and has a losing move; \
             the root's mover follows the last-mover-is-Max convention"
        }
    };
    let evaluator = match spec.evaluator {
        UctEvaluator::Perfect => "perfect evaluator: 1 when Max wins the node, else 0",
        UctEvaluator::Gaussian => {
            "gaussian evaluator: (t + sigma Z + 1) / 2, t = +-1 the true value, Z standard \
             normal fixed per node (the authors rescale by the range of 1e5 draws, which \
             amounts to a larger c)"
        }
        UctEvaluator::ExpectedPlayout => {
            "expected-playout evaluator: the expected value for Max of a uniformly random \
             playout (critical game: under the generation law given the node's type and \
             depth; boards: the node's fraction of 1-squares)"
        }
        UctEvaluator::RandomPlayout => {
            "random-playout evaluator: the utility at the end of one uniformly random playout"
        }
        UctEvaluator::Artificial => {
            "artificial evaluator: the true value (1 when Max wins the node, else 0), replaced \
             by the other with probability e independently per node"
        }
        UctEvaluator::Histogram => {
            "histogram evaluator: an evaluation e drawn once per node from the --histogram \
             file's rows of the node's true value (1 when Max wins it, -1 when Max loses it, \
             as decision reads the file), mapped to (e + 1) / 2; the law is read in exact \
             rationals and each evaluation drawn with its probability to within 2^-53 (the \
             cumulative weights rounded to multiples of 2^-53)"
        }
    };
    format!("{game}; {evaluator}")
}

/// The second table: exact d-ply minimax beside the UCT rows.
fn minimax_table(spec: &UctStudySpec, values: &[ExactMinimax]) -> Table {
    let mut columns = vec![Column::key("kind", Kind::Text)];
    columns.extend(
        [
            "game",
            "b",
            "h",
            "gamma_max",
            "gamma_min",
            "p",
            "evaluator",
            "sigma",
            "error",
        ]
        .iter()
        .zip([
            Kind::Text,
            Kind::Integer,
            Kind::Integer,
            Kind::Real,
            Kind::Real,
            Kind::Real,
            Kind::Text,
            Kind::Real,
            Kind::Real,
        ])
        .map(|(name, kind)| Column::key(name, kind)),
    );
    columns.push(Column::key("d", Kind::Integer));
    columns.push(Column::new("exact", Kind::Real));
    let refined = values.iter().any(|v| v.refined.is_some());
    if refined {
        columns.push(Column::new("refined", Kind::Real).labelled("exact at 2G"));
    }
    let mut table = Table::new(
        "minimax",
        &format!(
            "Exact probability that depth-d minimax picks a winning root move; {}",
            describe(spec)
        ),
        columns,
    );
    let setting = setting_cells(spec);
    for v in values {
        let mut cells = vec![Cell::text("minimax")];
        cells.extend(setting[..9].iter().cloned());
        cells.push(Cell::int(v.depth));
        cells.push(match v.bound {
            Some(bound) => Cell::Bounded {
                value: v.value,
                bound,
            },
            None => Cell::Real(v.value),
        });
        if refined {
            cells.push(v.refined.map_or(Cell::Empty, Cell::Real));
        }
        table.push(cells);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{ExportOptions, Format};
    use crate::sim::TrialRunner;
    use crate::sim::level_tree::GameKind;
    use crate::sim::runner::Shard;
    use crate::studies::nguyen_ramanujan::study::run_counts;

    fn spec() -> UctStudySpec {
        let game = UctGame::Board(BoardSpec::new(GameKind::N, 2, 6, 0.5).unwrap());
        let mut spec = UctStudySpec::new(
            game,
            UctEvaluator::ExpectedPlayout,
            0.0,
            vec![0.001, 1.0, 1e6],
            vec![1, 7, 60],
        )
        .unwrap();
        spec.final_move = FinalMove::Visits;
        spec
    }

    /// Summed shard counts rebuild the unsharded report byte for byte (CSV and JSON).
    #[test]
    fn shards_rebuild_the_unsharded_report() {
        let spec = spec();
        let games = 25;
        let runner = || TrialRunner::new(games, 12, 2).unwrap();
        let whole = run_counts(&spec, &runner()).unwrap();
        let run = McRun {
            trials: games,
            seed: 12,
            shard: None,
        };
        let expected = report_from_counts(&spec, &run, &whole);
        let mut summed = UctCounts {
            games: 0,
            boards_drawn: 0,
            correct: vec![Default::default(); spec.rows()],
        };
        for k in 1..=4 {
            let shard = Shard::parse(&format!("{k}/4")).unwrap();
            let part = run_counts(&spec, &runner().with_shard(shard)).unwrap();
            let report = report_from_counts(
                &spec,
                &McRun {
                    shard: Some(shard),
                    ..run
                },
                &part,
            );
            assert_eq!(
                report.manifest.parameter("shard"),
                Some(format!("{k}/4").as_str())
            );
            summed.games += part.games;
            summed.boards_drawn += part.boards_drawn;
            for (s, p) in summed.correct.iter_mut().zip(&part.correct) {
                s.successes += p.successes;
                s.trials += p.trials;
            }
        }
        let merged = report_from_counts(
            &spec_from_parameters(&expected.manifest.parameters).unwrap(),
            &run,
            &summed,
        );
        for format in [Format::Csv, Format::Json, Format::Text] {
            let options = ExportOptions::default();
            assert_eq!(
                merged.render(format, &options).unwrap(),
                expected.render(format, &options).unwrap()
            );
        }
    }

    /// The shards' CSV and JSON outputs, read back and merged, are the unsharded output byte
    /// for byte.
    #[test]
    fn merged_shard_files_equal_the_unsharded_output() {
        use crate::report::read::read_any;
        use crate::sim::report::check_shards;
        let spec = spec();
        let games = 17;
        let runner = || TrialRunner::new(games, 4, 2).unwrap();
        let run = McRun {
            trials: games,
            seed: 4,
            shard: None,
        };
        let mut with_exact = spec.clone();
        crate::studies::nguyen_ramanujan::exact::fill_exact_minimax(&mut with_exact).unwrap();
        assert!(!with_exact.exact_minimax.is_empty());
        let expected =
            report_from_counts(&with_exact, &run, &run_counts(&spec, &runner()).unwrap());
        for format in [Format::Csv, Format::Json] {
            let options = ExportOptions {
                inline_manifest: true, // CSV shards carry their manifest
                ..ExportOptions::default()
            };
            let inputs: Vec<(String, ReadTable)> = [3, 1, 2]
                .iter()
                .map(|&k| {
                    let shard = Shard::parse(&format!("{k}/3")).unwrap();
                    let counts = run_counts(&spec, &runner().with_shard(shard)).unwrap();
                    let report = report_from_counts(
                        &spec,
                        &McRun {
                            shard: Some(shard),
                            ..run
                        },
                        &counts,
                    );
                    let text = report.render(format, &options).unwrap();
                    (
                        format!("shard{k}"),
                        read_any(&text, Some("estimates")).unwrap(),
                    )
                })
                .collect();
            let manifest = check_shards(&inputs).unwrap();
            let merged = merge_shards(&run, &manifest.parameters, &inputs).unwrap();
            for out in [Format::Csv, Format::Json, Format::Markdown] {
                assert_eq!(
                    merged.render(out, &options).unwrap(),
                    expected.render(out, &options).unwrap()
                );
            }
            let short = &inputs[..2];
            assert!(merge_shards(&run, &manifest.parameters, short).is_err());
        }
    }

    /// Rows are keyed by (c, n), in c-major order, and parameters round-trip.
    #[test]
    fn rows_are_keyed_by_c_and_n() {
        let spec = spec();
        let counts = run_counts(&spec, &TrialRunner::new(5, 2, 1).unwrap()).unwrap();
        let report = report_from_counts(
            &spec,
            &McRun {
                trials: 5,
                seed: 2,
                shard: None,
            },
            &counts,
        );
        let table = report.table("estimates").unwrap();
        let (c, n) = (
            table.column_index("c").unwrap(),
            table.column_index("n").unwrap(),
        );
        let keys: Vec<(f64, i128)> = table
            .rows
            .iter()
            .map(|r| match (&r[c], &r[n]) {
                (Cell::Real(c), Cell::Integer(n)) => (*c, *n),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(keys[..4], [(0.001, 1), (0.001, 7), (0.001, 60), (1.0, 1)]);
        assert_eq!(
            spec_from_parameters(&report.manifest.parameters).unwrap(),
            spec
        );
        assert_eq!(
            report.manifest.command_line(),
            "pathology mc uct --game n --branching 2 --height 6 --p 0.5 --evaluator expected-playout \
             --c 0.001,1,1000000 --iterations 1,7,60 --final visits --trials 5 --seed 2"
        );
    }

    #[test]
    fn manifest_errors_name_the_parameter() {
        let spec = spec();
        let counts = UctCounts {
            games: 0,
            boards_drawn: 0,
            correct: vec![],
        };
        let report = report_from_counts(
            &spec,
            &McRun {
                trials: 1,
                seed: 1,
                shard: None,
            },
            &counts,
        );
        let mut parameters = report.manifest.parameters.clone();
        parameters.retain(|(n, _)| n != "iterations");
        let err = spec_from_parameters(&parameters).unwrap_err();
        assert!(err.to_string().contains("parameter iterations"), "{err}");
        let mut parameters = report.manifest.parameters.clone();
        for (n, v) in parameters.iter_mut() {
            if n == "c" {
                *v = "1,x".to_string();
            }
        }
        assert!(
            spec_from_parameters(&parameters)
                .unwrap_err()
                .to_string()
                .starts_with("manifest parameter c")
        );
    }
}
