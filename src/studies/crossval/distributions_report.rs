//! `mc distributions` as a [`Report`], and its report rebuilt from the summed counts of its
//! shards (`pathology merge`).
//!
//! Every row is self-describing and is a row `pathology validate` reads as it is: kind
//! `crit` or `mvpgame`, the request's parameters named as the command line names them
//! (`branching`, `height`, `gamma`, `leaves`, `evaluator`, `sigma`, ...), `depth`, `seed`, the
//! counts (`successes` of `trials` non-trivial roots), the estimate with its 95% interval,
//! the exact `D(d,h)` and the z-score.

use crate::analytic::decision::GameOptions;
use crate::analytic::distributions::request::{DistributionRequest, GameSpec};
use crate::error::{Error, Result};
use crate::report::read::ReadTable;
use crate::report::{Cell, Column, Kind, Report, Table, printed_error_bound};
use crate::sim::report::{
    Manifest, McRun, RunConfig, comparison_cells, comparison_columns, summed_counts,
};
use crate::sim::stats::Proportion;

use super::distributions::Experiment;

/// `mc distributions`: depth-d minimax on sampled games against the exact engine.
#[derive(Debug, Clone, PartialEq)]
pub struct DistributionsSpec {
    /// The game and evaluation (every depth; `f64`).
    pub request: DistributionRequest,
    /// `--max-depth`: search depths `1..=D` only (default every depth to the height).
    pub max_depth: Option<u32>,
}

/// The `validate` kind of a request: `crit` or `mvpgame`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::distributions::request::{DistributionRequest, GameSpec, LeafLaw, ModelSpec};
/// use pathology::studies::crossval::distributions_report::kind;
/// let request = DistributionRequest { game: GameSpec::PGame(LeafLaw::WinLoss(None)),
///     branching: 2, height: 4, depth: None, model: ModelSpec::Perfect, levels: None,
///     range: None, exact: false };
/// assert_eq!(kind(&request), "mvpgame");
/// ```
pub fn kind(request: &DistributionRequest) -> &'static str {
    match request.game {
        GameSpec::Critical { .. } => "crit",
        GameSpec::PGame(_) => "mvpgame",
    }
}

impl DistributionsSpec {
    /// Runs `mc distributions` (refused up front beyond an hour) and returns its report.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::decision::{EvaluatorName, GameName, GameOptions};
    /// use pathology::sim::report::RunConfig;
    /// use pathology::studies::crossval::distributions_report::DistributionsSpec;
    /// let request = GameOptions {
    ///     game: Some(GameName::Crit), height: 6, gamma: Some("1".into()),
    ///     evaluator: Some(EvaluatorName::ExpectedPlayout), ..GameOptions::default()
    /// }.distribution_request().unwrap();
    /// let config = RunConfig { trials: 500, seed: 7, threads: Some(1), shard: None };
    /// let report = DistributionsSpec { request, max_depth: None }.estimate(&config).unwrap();
    /// assert_eq!(report.tables[0].rows.len(), 6);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Experiment::new`], [`RunConfig::budgeted_runner`] and [`Self::report`].
    pub fn estimate(&self, config: &RunConfig) -> Result<Report> {
        let experiment = Experiment::searching(&self.request, self.max_depth)?;
        let runner = config.budgeted_runner(
            "mc distributions",
            &format!(
                "mc distributions ({} game, b = {}, h = {})",
                self.request.game_name(),
                self.request.branching,
                self.request.height
            ),
            experiment.trial_seconds(),
        )?;
        let counts = experiment.counts(&runner)?;
        self.report(&config.run(), &counts)
    }

    /// The report from the correct-decision counts by depth, against the exact engine in
    /// `f64`.
    ///
    /// # Errors
    ///
    /// As [`DistributionRequest::outcome`]; naming `FILE` when the counts are not one per
    /// depth.
    pub fn report(&self, run: &McRun, counts: &[Proportion]) -> Result<Report> {
        let request = DistributionRequest {
            depth: None,
            exact: false,
            ..self.request.clone()
        };
        let searched = self.max_depth.unwrap_or(request.height);
        if counts.len() != searched as usize {
            return Err(Error::invalid(
                "FILE",
                &format!("one row per depth 1..={searched}"),
                counts.len(),
            ));
        }
        let outcome = request.outcome::<f64>()?;
        let parameters = request.parameters();
        let title = format!(
            "D(d,{}) of the {} game, b = {}, {} evaluation: depth-d minimax on sampled games against the exact value",
            request.height,
            if kind(&request) == "crit" {
                "critical"
            } else {
                "multi-valued P-"
            },
            request.branching,
            request.model.name()
        )
        .replace("P- game", "P-game");
        let mut report = Report::new("mc distributions", &title);
        for (name, value) in &parameters {
            report = report.param(name, value);
        }
        if let Some(d) = self.max_depth {
            report = report.param("max-depth", d.to_string());
        }
        let mut columns = vec![Column::key("kind", Kind::Text)];
        for (name, _) in parameters.iter().filter(|(n, _)| n != "game") {
            let kind = match name.as_str() {
                "branching" | "height" => Kind::Integer,
                _ => Kind::Text,
            };
            columns.push(Column::key(name, kind));
        }
        columns.push(Column::key("depth", Kind::Integer));
        columns.push(Column::key("seed", Kind::Text));
        columns.extend(comparison_columns());
        let mut table = Table::new("estimates", &title, columns);
        let mut largest_bound: f64 = 0.0;
        for (row, count) in outcome.column.rows.iter().zip(counts) {
            let exact = row.decision.value;
            largest_bound = largest_bound.max(row.decision.bound);
            let mut cells = vec![Cell::text(kind(&request))];
            for (name, value) in parameters.iter().filter(|(n, _)| n != "game") {
                cells.push(match name.as_str() {
                    "branching" | "height" => Cell::int(value.parse::<u64>().unwrap_or(0)),
                    _ => Cell::text(value.clone()),
                });
            }
            cells.push(Cell::int(row.depth));
            cells.push(Cell::text(run.seed.to_string()));
            cells.extend(comparison_cells(
                count.successes,
                count.trials,
                &count.compare(Some(exact)),
            ));
            table.push(cells);
        }
        let mut report = run.params(report).with_table(table).note(
            "trials are games with a non-trivial root (a losing move, or children of two true values); \
             successes are depth-d minimax decisions for an optimal child; 95% Wilson intervals; \
             z = (estimate - exact) / sqrt(exact (1 - exact) / trials)",
        );
        report = report.note(format!(
            "exact: D(d,h) of the exact engine in f64, within {} of the model's value",
            printed_error_bound(0.0, largest_bound)
        ));
        if let Some(refined) = &outcome.refined {
            let gap = outcome
                .column
                .rows
                .iter()
                .zip(&refined.rows)
                .map(|(a, b)| (a.decision.value - b.decision.value).abs())
                .fold(0.0, f64::max);
            report = report.note(format!(
                "continuous evaluation: the sampled evaluations are unbinned, the exact values are the engine's at {} bins; \
                 their largest change at {} bins, {gap:.2e}, estimates the distance to the continuous limit (not a bound)",
                outcome.column.levels, refined.levels
            ));
        }
        Ok(report)
    }
}

/// The request a manifest's (or a row's) parameters name.
///
/// # Errors
///
/// As [`GameOptions::from_parameters`] and [`GameOptions::distribution_request`].
pub fn request_from_parameters(parameters: &[(String, String)]) -> Result<DistributionRequest> {
    GameOptions::from_parameters(
        parameters
            .iter()
            .filter(|(n, _)| !matches!(n.as_str(), "trials" | "shard" | "max-depth"))
            .map(|(n, v)| (n.as_str(), v.as_str())),
    )?
    .distribution_request()
}

/// `mc distributions`'s report from the summed counts of its shards (keyed by `depth`).
///
/// # Errors
///
/// As [`crate::sim::report::summed_counts`] and the manifest's parameters.
pub fn merge_distributions(
    run: &McRun,
    manifest: &Manifest,
    inputs: &[(String, ReadTable)],
) -> Result<Report> {
    let request = request_from_parameters(&manifest.parameters)?;
    let max_depth = match manifest.parameters.iter().find(|(n, _)| n == "max-depth") {
        Some((_, v)) => Some(v.parse::<u32>().map_err(|_| {
            Error::invalid("FILE", "a manifest whose max-depth is a whole number", v)
        })?),
        None => None,
    };
    let counts = summed_counts(inputs, &["depth"])?;
    DistributionsSpec { request, max_depth }.report(run, &counts)
}
