//! `mc sum` as a [`Report`], and its report rebuilt from the summed counts of its shards
//! (`pathology merge`).
//!
//! Every row is self-describing and is a row `pathology validate` reads as it is: kind
//! `sum`, the game's parameters named as `pathology decision --game sum` names its options
//! (`branching`, `height`, `step`, `leaf`, `terminal`, `outcome`, `evaluator`, and `noise` or
//! `e`), `depth`, `seed`, the counts (`successes` of `trials` non-trivial roots), the
//! estimate with its 95% Wilson interval, the exact `D(d,h)` (the engine in `f64`) and the
//! z-score.

use crate::analytic::decision::{EvaluatorName, GameName, GameOptions};
use crate::analytic::pathsum::report::parameters;
use crate::analytic::pathsum::{Outcome, PathSumGame, pathsum_column};
use crate::error::{Error, Result};
use crate::report::read::ReadTable;
use crate::report::{Cell, Column, Kind, Report, Table, printed_error_bound};
use crate::sim::report::{
    Manifest, McRun, RunConfig, comparison_cells, comparison_columns, summed_counts,
};
use crate::sim::stats::Proportion;

use super::pathsum::Experiment;

/// The `validate` kind of `mc sum`'s rows.
pub const KIND: &str = "sum";

/// `mc sum`: depth-d minimax on sampled path-sum trees against the exact engine.
#[derive(Debug, Clone, PartialEq)]
pub struct PathSumSpec {
    /// The game and its evaluator.
    pub game: PathSumGame,
}

/// The path-sum game that `pairs` name (the manifest's parameters, or a `validate` row's
/// columns), read by `pathology decision --game sum`'s rules
/// ([`GameOptions::pathsum_request`]); `game`, when given, must be `sum`.
///
/// # Examples
///
/// ```
/// use pathology::studies::crossval::pathsum_report::game_from_parameters;
/// let pairs = [("branching", "3"), ("height", "4"), ("step", "1:1/2,-1:1/2"),
///              ("evaluator", "additive"), ("noise", "1:1/2,-1:1/2")];
/// let game = game_from_parameters(pairs.iter().map(|(n, v)| (*n, *v))).unwrap();
/// assert_eq!((game.branching, game.height), (3, 4));
/// let err = game_from_parameters([("height", "4"), ("colour", "red")].into_iter()).unwrap_err();
/// assert!(err.to_string().starts_with("colour must be"), "{err}");
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming the parameter whose value does not parse or does not
/// belong to path-sum trees, and as [`GameOptions::pathsum_request`].
pub fn game_from_parameters<'a>(
    pairs: impl Iterator<Item = (&'a str, &'a str)>,
) -> Result<PathSumGame> {
    fn named<T: clap::ValueEnum>(name: &str, text: &str) -> Result<T> {
        T::from_str(text, true).map_err(|_| {
            let names: Vec<String> = T::value_variants()
                .iter()
                .filter_map(|v| v.to_possible_value())
                .map(|v| v.get_name().to_string())
                .collect();
            Error::invalid(name, &format!("one of {}", names.join(", ")), text)
        })
    }
    fn whole(name: &str, text: &str, low: u32, high: u32) -> Result<u32> {
        text.trim()
            .parse::<u32>()
            .ok()
            .filter(|v| (low..=high).contains(v))
            .ok_or_else(|| Error::invalid(name, &format!("a whole number in {low}..={high}"), text))
    }
    let mut options = GameOptions {
        game: Some(GameName::Sum),
        ..GameOptions::default()
    };
    let mut height = None;
    for (name, text) in pairs {
        let owned = || Some(text.to_string());
        match name {
            "game" if text == "sum" => {}
            "game" => return Err(Error::invalid(name, "sum", text)),
            "branching" => options.branching = Some(whole(name, text, 2, 60)?),
            "height" => height = Some(whole(name, text, 1, 64)?),
            "step" => options.step = owned(),
            "leaf" => options.leaf = owned(),
            "terminal" => options.terminal = owned(),
            "outcome" => options.outcome = Some(named::<Outcome>(name, text)?),
            "evaluator" => options.evaluator = Some(named::<EvaluatorName>(name, text)?),
            "e" => {
                let e = crate::numeric::number::parse_rational(text.trim())
                    .map_err(|err| Error::invalid(name, &format!("in [0, 1]; {err}"), text))?;
                options.e = Some(e);
            }
            "noise" => options.noise = owned(),
            other => {
                return Err(Error::invalid(
                    other,
                    "a parameter of path-sum trees (branching, height, step, leaf, terminal, \
                     outcome, evaluator, e, noise)",
                    "an unknown name",
                ));
            }
        }
    }
    options.height = height.ok_or_else(|| Error::invalid("height", "given", "nothing"))?;
    Ok(options.pathsum_request()?.game)
}

impl PathSumSpec {
    /// Runs `mc sum` (refused up front beyond an hour) and returns its report.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::pathsum::{Evaluator, Law, Outcome, PathSumGame};
    /// use pathology::sim::report::RunConfig;
    /// use pathology::studies::crossval::pathsum_report::PathSumSpec;
    /// let game = PathSumGame {
    ///     branching: 2, height: 4, step: Law::parse("--step", "1:1/2,-1:1/2").unwrap(),
    ///     leaf: Law::point(0.into()), terminal: "1/10".parse().unwrap(),
    ///     outcome: Outcome::Value, evaluator: Evaluator::Position, levels: None,
    /// };
    /// let config = RunConfig { trials: 300, seed: 7, threads: Some(1), shard: None };
    /// let report = PathSumSpec { game }.estimate(&config).unwrap();
    /// assert_eq!(report.tables[0].rows.len(), 4);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Experiment::new`], [`RunConfig::budgeted_runner`] and [`Self::report`].
    pub fn estimate(&self, config: &RunConfig) -> Result<Report> {
        let experiment = Experiment::new(&self.game)?;
        // The exact column's own checks (cost, a non-trivial root) before any trial.
        let depths: Vec<u32> = (1..=self.game.height).collect();
        let column = pathsum_column::<f64>(&self.game, &depths)?;
        let runner = config.budgeted_runner(
            "mc sum",
            &format!(
                "mc sum (path-sum tree, b = {}, h = {})",
                self.game.branching, self.game.height
            ),
            experiment.trial_seconds(),
        )?;
        let counts = experiment.counts(&runner)?;
        self.report_with(&config.run(), &counts, &column)
    }

    /// The report from the correct-decision counts by depth, against the exact engine in
    /// `f64`.
    ///
    /// # Errors
    ///
    /// As [`pathsum_column`]; naming `FILE` when the counts are not one per depth.
    pub fn report(&self, run: &McRun, counts: &[Proportion]) -> Result<Report> {
        let depths: Vec<u32> = (1..=self.game.height).collect();
        let column = pathsum_column::<f64>(&self.game, &depths)?;
        self.report_with(run, counts, &column)
    }

    fn report_with(
        &self,
        run: &McRun,
        counts: &[Proportion],
        column: &crate::analytic::pathsum::PathSumColumn<f64>,
    ) -> Result<Report> {
        let game = &self.game;
        if counts.len() != game.height as usize {
            return Err(Error::invalid(
                "FILE",
                &format!("one row per depth 1..={}", game.height),
                counts.len(),
            ));
        }
        let parameters = parameters(game);
        let title = format!(
            "D(d,{}) of a path-sum tree, b = {}, step {}, leaf {}, terminal {}, {} outcome, {} \
             evaluation: depth-d minimax on sampled trees against the exact value",
            game.height,
            game.branching,
            game.step.text(),
            game.leaf.text(),
            game.terminal,
            match game.outcome {
                Outcome::Value => "value",
                Outcome::Sign => "sign",
            },
            game.evaluator.name()
        );
        let mut report = Report::new("mc sum", &title);
        for (name, value) in &parameters {
            report = report.param(name, value);
        }
        let integer = |name: &str| matches!(name, "branching" | "height");
        let mut columns = vec![Column::key("kind", Kind::Text)];
        for (name, _) in parameters.iter().filter(|(n, _)| n != "game") {
            let kind = if integer(name) {
                Kind::Integer
            } else {
                Kind::Text
            };
            columns.push(Column::key(name, kind));
        }
        columns.push(Column::key("depth", Kind::Integer));
        columns.push(Column::key("seed", Kind::Text));
        columns.extend(comparison_columns());
        let mut table = Table::new("estimates", &title, columns);
        let mut largest_bound: f64 = 0.0;
        for (row, count) in column.rows.iter().zip(counts) {
            largest_bound = largest_bound.max(row.bounds[0]);
            let mut cells = vec![Cell::text(KIND)];
            for (name, value) in parameters.iter().filter(|(n, _)| n != "game") {
                cells.push(if integer(name) {
                    Cell::int(value.parse::<u64>().unwrap_or(0))
                } else {
                    Cell::text(value.clone())
                });
            }
            cells.push(Cell::int(row.depth));
            cells.push(Cell::text(run.seed.to_string()));
            cells.extend(comparison_cells(
                count.successes,
                count.trials,
                &count.compare(Some(row.decision)),
            ));
            table.push(cells);
        }
        Ok(run.params(report).with_table(table).note(
            "trials are trees with a non-trivial root (children of two true values); successes \
             are depth-d minimax decisions (ties at the root broken uniformly) for a child of the \
             root's true value; each node's evaluation is drawn once and used by every search; \
             95% Wilson intervals; z = (estimate - exact) / sqrt(exact (1 - exact) / trials)",
        )
        .note(format!(
            "exact: D(d,h) of the exact engine (`pathology decision --game sum`) in f64, within {} \
             of the model's value",
            printed_error_bound(0.0, largest_bound)
        )))
    }
}

/// `mc sum`'s report from the summed counts of its shards (keyed by `depth`).
///
/// # Errors
///
/// As [`crate::sim::report::summed_counts`], [`game_from_parameters`] on the manifest's
/// parameters and [`PathSumSpec::report`].
pub fn merge_sum(
    run: &McRun,
    manifest: &Manifest,
    inputs: &[(String, ReadTable)],
) -> Result<Report> {
    let game = game_from_parameters(
        manifest
            .parameters
            .iter()
            .filter(|(n, _)| !matches!(n.as_str(), "trials" | "shard"))
            .map(|(n, v)| (n.as_str(), v.as_str())),
    )?;
    let counts = summed_counts(inputs, &["depth"])?;
    PathSumSpec { game }.report(run, &counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_round_trip() {
        let pairs = [
            ("game", "sum"),
            ("branching", "3"),
            ("height", "4"),
            ("step", "-1:1/3,0:1/3,1:1/3"),
            ("leaf", "-1:1/2,1:1/2"),
            ("terminal", "1/10"),
            ("outcome", "value"),
            ("evaluator", "position"),
        ];
        let game = game_from_parameters(pairs.iter().map(|(n, v)| (*n, *v))).unwrap();
        let again = parameters(&game);
        let again = game_from_parameters(again.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        assert_eq!(again.unwrap(), game);
    }

    #[test]
    fn foreign_parameters_are_refused_by_name() {
        let err = |pairs: &[(&str, &str)]| {
            game_from_parameters(pairs.iter().map(|(n, v)| (*n, *v)))
                .unwrap_err()
                .to_string()
        };
        assert!(err(&[("height", "4"), ("game", "p")]).starts_with("game must be sum"));
        assert!(err(&[("height", "x")]).starts_with("height must be a whole number"));
        assert!(err(&[("branching", "2")]).starts_with("height must be given"));
        assert!(
            err(&[("height", "3"), ("evaluator", "artificial"), ("e", "0.1")])
                .starts_with("--evaluator artificial")
        );
    }
}
