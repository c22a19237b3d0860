//! The cross-validation experiments (`mc dgame`, `mc errprop`, `mc rhf`) as [`Report`]s, and
//! their reports rebuilt from the summed counts of their shards (`pathology merge`,
//! [`crate::studies::merge`]).
//!
//! Every row is self-describing: the experiment's parameters are columns (so runs can be
//! concatenated and read by `pathology validate`), beside the counts (`successes`,
//! `trials`), the estimate with its 95% interval, the exact value and the z-score. The
//! report is built from the counts alone, by one function per experiment; a sharded run
//! (`--shard K/N`) prints its slice's counts, and `merge` sums the counts of all N slices
//! ([`crate::sim::report`]) and calls the same function ([`merge_dgame`], [`merge_errprop`],
//! [`merge_rhf`]), so the merged output is byte-identical to the unsharded run with the same
//! seed.

use num_rational::BigRational;
use num_traits::ToPrimitive;

use super::dgame::{Engine, decision_rows};
use crate::analytic::dgame::DependenceFactors;
use crate::analytic::errprop::ErrorPair;
use crate::error::{Error, Result};
use crate::numeric::number::short_text;
use crate::report::read::ReadTable;
use crate::report::{Cell, Column, Kind, Report, Table};
use crate::sim::report::{
    Manifest, McRun, RunConfig, comparison_cells, comparison_columns, rational_f64, successes_of,
    summed_counts,
};
use crate::sim::stats::Proportion;

/// `mc dgame`: D(d,h) estimated by minimax with psi on D-game boards.
#[derive(Debug, Clone, PartialEq)]
pub struct DgameSpec {
    /// The height h.
    pub height: u32,
    /// f1, exactly as given.
    pub f1: BigRational,
    /// f2, exactly as given.
    pub f2: BigRational,
    /// The search implementation.
    pub engine: Engine,
}

impl DgameSpec {
    /// The factors in `f64`.
    ///
    /// # Errors
    ///
    /// As [`DependenceFactors::new`].
    pub fn factors(&self) -> Result<DependenceFactors<f64>> {
        DependenceFactors::new(
            self.f1.to_f64().unwrap_or(f64::NAN),
            self.f2.to_f64().unwrap_or(f64::NAN),
        )
    }

    /// The report from the correct-decision counts by depth.
    ///
    /// # Errors
    ///
    /// As [`decision_rows`].
    pub fn report(&self, run: &McRun, counts: &[Proportion]) -> Result<Report> {
        let rows = decision_rows(&self.factors()?, self.height, counts)?;
        let engine = engine_name(self.engine);
        let title = format!(
            "D(d,{}) for f1 = {}, f2 = {}: minimax with psi on D-game boards ({engine} engine) against the exact value",
            self.height,
            short_text(&self.f1),
            short_text(&self.f2)
        );
        let report = Report::new("mc dgame", &title)
            .param("height", self.height)
            .param("f1", short_text(&self.f1))
            .param("f2", short_text(&self.f2))
            .param("engine", engine);
        let mut columns = vec![
            Column::key("kind", Kind::Text),
            Column::key("h", Kind::Integer),
            Column::key("d", Kind::Integer),
            Column::key("f1", Kind::Real),
            Column::key("f2", Kind::Real),
            Column::key("engine", Kind::Text),
            Column::key("seed", Kind::Text),
        ];
        columns.extend(comparison_columns());
        let mut table = Table::new("estimates", &title, columns);
        for (row, count) in rows.iter().zip(counts) {
            let mut cells = vec![
                Cell::text("dgame"),
                Cell::int(self.height),
                Cell::int(row.d),
                Cell::Exact(self.f1.clone()),
                Cell::Exact(self.f2.clone()),
                Cell::text(engine),
                Cell::text(run.seed.to_string()),
            ];
            cells.extend(comparison_cells(
                count.successes,
                count.trials,
                &row.comparison,
            ));
            table.push(cells);
        }
        Ok(run.params(report).with_table(table).note(
            "95% Wilson intervals; z = (estimate - exact) / sqrt(exact (1 - exact) / trials)",
        ))
    }

    fn from_manifest(m: &Manifest) -> Result<Self> {
        Ok(DgameSpec {
            height: m.number("height")?,
            f1: m.rational("f1")?,
            f2: m.rational("f2")?,
            engine: match m.get("engine")? {
                "generic" => Engine::Generic,
                _ => Engine::Fast,
            },
        })
    }
}

fn engine_name(engine: Engine) -> &'static str {
    match engine {
        Engine::Fast => "fast",
        Engine::Generic => "generic",
    }
}

/// `mc errprop`: gamma_K and delta_K from minimax back-ups against the map (3)-(4).
#[derive(Debug, Clone, PartialEq)]
pub struct ErrpropSpec {
    /// Starting gamma.
    pub gamma: BigRational,
    /// Starting delta.
    pub delta: BigRational,
    /// f1.
    pub f1: BigRational,
    /// f2.
    pub f2: BigRational,
    /// Back-up steps K.
    pub steps: u32,
}

impl ErrpropSpec {
    /// The starting errors and the factors in `f64`, as the experiment runs them.
    ///
    /// # Errors
    ///
    /// As [`ErrorPair::new`] and [`DependenceFactors::new`].
    pub fn start_and_factors(&self) -> Result<(ErrorPair<f64>, DependenceFactors<f64>)> {
        Ok((
            ErrorPair::new(rational_f64(&self.gamma), rational_f64(&self.delta))?,
            DependenceFactors::new(rational_f64(&self.f1), rational_f64(&self.f2))?,
        ))
    }

    /// The rows (`gamma_K`, then `delta_K`) from their counts, against the map.
    ///
    /// # Errors
    ///
    /// As [`Self::start_and_factors`] and [`super::errprop::exact_errors`]; naming `FILE`
    /// unless there are exactly two counts.
    pub fn rows_from_counts(
        &self,
        counts: &[Proportion],
    ) -> Result<[super::errprop::QuantityRow; 2]> {
        let [gamma, delta] = counts else {
            return Err(Error::invalid(
                "FILE",
                "two rows (gamma, delta) per shard",
                counts.len(),
            ));
        };
        let (start, factors) = self.start_and_factors()?;
        let exact = super::errprop::exact_errors(&start, &factors, self.steps)?;
        Ok([
            super::errprop::QuantityRow {
                quantity: "gamma_K",
                comparison: gamma.compare(Some(exact.gamma)),
                trials: gamma.trials,
            },
            super::errprop::QuantityRow {
                quantity: "delta_K",
                comparison: delta.compare(Some(exact.delta)),
                trials: delta.trials,
            },
        ])
    }

    fn from_manifest(m: &Manifest) -> Result<Self> {
        Ok(ErrpropSpec {
            gamma: m.rational("gamma")?,
            delta: m.rational("delta")?,
            f1: m.rational("f1")?,
            f2: m.rational("f2")?,
            steps: m.number("steps")?,
        })
    }

    /// The report of the estimated rows.
    pub fn report(&self, run: &McRun, rows: &[super::errprop::QuantityRow]) -> Report {
        let title = format!(
            "Errors at the Max root of depth-{} D-game searches (K = {}) from gamma = {}, delta = {}, f1 = {}, f2 = {}, against the map (3)-(4)",
            2 * self.steps,
            self.steps,
            short_text(&self.gamma),
            short_text(&self.delta),
            short_text(&self.f1),
            short_text(&self.f2)
        );
        let report = Report::new("mc errprop", &title)
            .param("gamma", short_text(&self.gamma))
            .param("delta", short_text(&self.delta))
            .param("f1", short_text(&self.f1))
            .param("f2", short_text(&self.f2))
            .param("steps", self.steps);
        let mut columns: Vec<Column> = [
            "kind", "gamma", "delta", "f1", "f2", "steps", "from", "quantity", "seed",
        ]
        .iter()
        .map(|n| {
            let kind = match *n {
                "kind" | "from" | "quantity" | "seed" => Kind::Text,
                "steps" => Kind::Integer,
                _ => Kind::Real,
            };
            Column::key(n, kind)
        })
        .collect();
        columns.extend(comparison_columns());
        let mut table = Table::new("estimates", &title, columns);
        for r in rows {
            let mut cells = vec![
                Cell::text("errprop"),
                Cell::Exact(self.gamma.clone()),
                Cell::Exact(self.delta.clone()),
                Cell::Exact(self.f1.clone()),
                Cell::Exact(self.f2.clone()),
                Cell::int(self.steps),
                Cell::text("max"),
                Cell::text(r.quantity.trim_end_matches("_K")),
                Cell::text(run.seed.to_string()),
            ];
            cells.extend(comparison_cells(
                successes_of(r.comparison.estimate, r.trials),
                r.trials,
                &r.comparison,
            ));
            table.push(cells);
        }
        run.params(report).with_table(table).note(
            "gamma = Pr[Psi = 1 | loss root], delta = Pr[Psi = 0 | win root]; each from its own trees \
             (trials with that root value); 95% Wilson intervals",
        )
    }
}

/// `mc rhf`: Chi & Nau's rate of heuristic flaw against the closed form.
#[derive(Debug, Clone, PartialEq)]
pub struct RhfSpec {
    /// w.
    pub w: BigRational,
    /// The leaf win probability (text as given, or `w_2`).
    pub p: f64,
    /// The game height H.
    pub height: u32,
    /// The depth D of the compared nodes.
    pub depth: u32,
}

impl RhfSpec {
    /// The experiment's setup (w in `f64`, as the experiment runs it).
    ///
    /// # Errors
    ///
    /// As [`super::rhf::FlawSetup::new`].
    pub fn setup(&self) -> Result<super::rhf::FlawSetup> {
        super::rhf::FlawSetup::new(rational_f64(&self.w), self.p, self.height, self.depth)
    }

    /// The estimate from its count, against the closed form at the depth's exact xi.
    ///
    /// # Errors
    ///
    /// As [`Self::setup`] and [`crate::analytic::closed_form::rhf`].
    pub fn estimate_from_count(&self, count: &Proportion) -> Result<super::rhf::FlawEstimate> {
        let setup = self.setup()?;
        let xi = setup.xi();
        let exact = crate::analytic::closed_form::rhf(setup.w, xi)?;
        Ok(super::rhf::FlawEstimate {
            xi,
            comparison: count.compare(Some(exact)),
            trials: count.trials,
        })
    }

    fn from_manifest(m: &Manifest) -> Result<Self> {
        let p = m.get("p")?;
        Ok(RhfSpec {
            w: m.rational("w")?,
            p: p.parse()
                .map_err(|_| Error::invalid("manifest parameter p", "a number in [0, 1]", p))?,
            height: m.number("height")?,
            depth: m.number("depth")?,
        })
    }

    /// The report of one estimate.
    pub fn report(&self, run: &McRun, result: &super::rhf::FlawEstimate) -> Report {
        let title = format!(
            "rhf({}) of e^w, w = {}, on binary P-games of height {} (leaves win with p = {}), against the closed form",
            self.depth,
            short_text(&self.w),
            self.height,
            crate::report::format_f64(self.p)
        );
        let report = Report::new("mc rhf", &title)
            .param("w", short_text(&self.w))
            .param("p", crate::report::format_f64(self.p))
            .param("height", self.height)
            .param("depth", self.depth);
        let mut columns = vec![
            Column::key("kind", Kind::Text),
            Column::key("w", Kind::Real),
            Column::key("xi", Kind::Real),
            Column::key("p", Kind::Real),
            Column::key("height", Kind::Integer),
            Column::key("depth", Kind::Integer),
            Column::key("seed", Kind::Text),
        ];
        columns.extend(comparison_columns());
        let mut table = Table::new("estimates", &title, columns);
        let c = &result.comparison;
        let mut cells = vec![
            Cell::text("rhf"),
            Cell::Exact(self.w.clone()),
            Cell::Real(result.xi),
            Cell::Real(self.p),
            Cell::int(self.height),
            Cell::int(self.depth),
            Cell::text(run.seed.to_string()),
        ];
        cells.extend(comparison_cells(
            successes_of(c.estimate, result.trials),
            result.trials,
            c,
        ));
        table.push(cells);
        run.params(report).with_table(table).note(
            "trials are pairs of distinct nodes at depth D; xi is the exact win probability at that depth; \
             exact is the closed form rhf(w) at xi; 95% Wilson interval",
        )
    }
}

/// `mc dgame`'s report from the summed counts of its shards (keyed by `d`).
///
/// # Errors
///
/// As [`crate::sim::report::summed_counts`] and the manifest's parameters.
pub fn merge_dgame(
    run: &McRun,
    manifest: &Manifest,
    inputs: &[(String, ReadTable)],
) -> Result<Report> {
    let spec = DgameSpec::from_manifest(manifest)?;
    let counts = summed_counts(inputs, &["d"])?;
    spec.report(run, &counts)
}

/// `mc errprop`'s report from the summed counts of its shards (keyed by `quantity`).
///
/// # Errors
///
/// As [`crate::sim::report::summed_counts`] and the manifest's parameters.
pub fn merge_errprop(
    run: &McRun,
    manifest: &Manifest,
    inputs: &[(String, ReadTable)],
) -> Result<Report> {
    let spec = ErrpropSpec::from_manifest(manifest)?;
    let counts = summed_counts(inputs, &["quantity"])?;
    spec.rows_from_counts(&counts)
        .map(|rows| spec.report(run, &rows))
}

/// `mc rhf`'s report from the summed count of its shards (one row, keyed by `w`).
///
/// # Errors
///
/// As [`crate::sim::report::summed_counts`]; `FILE` when a shard has more than one row.
pub fn merge_rhf(
    run: &McRun,
    manifest: &Manifest,
    inputs: &[(String, ReadTable)],
) -> Result<Report> {
    let spec = RhfSpec::from_manifest(manifest)?;
    let counts = summed_counts(inputs, &["w"])?;
    let [count] = counts.as_slice() else {
        return Err(Error::invalid(
            "FILE",
            "one rhf row per shard",
            counts.len(),
        ));
    };
    spec.estimate_from_count(count)
        .map(|estimate| spec.report(run, &estimate))
}

impl DgameSpec {
    /// Runs `mc dgame` (refused up front beyond an hour) and returns its report.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::numeric::number::parse_rational;
    /// use pathology::sim::report::RunConfig;
    /// use pathology::studies::crossval::dgame::Engine;
    /// use pathology::studies::crossval::report::DgameSpec;
    /// let f = parse_rational("0.3").unwrap();
    /// let spec = DgameSpec { height: 6, f1: f.clone(), f2: f, engine: Engine::Fast };
    /// let config = RunConfig { trials: 1000, seed: 7, threads: Some(1), shard: None };
    /// assert_eq!(spec.estimate(&config).unwrap().tables[0].rows.len(), 6);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`super::dgame::dgame_trial_seconds`], [`RunConfig::budgeted_runner`] and
    /// [`super::dgame::decision_counts`].
    pub fn estimate(&self, config: &RunConfig) -> Result<Report> {
        let runner = config.budgeted_runner(
            "mc dgame",
            &format!("mc dgame at height {}", self.height),
            super::dgame::dgame_trial_seconds(self.height, self.engine)?,
        )?;
        let counts =
            super::dgame::decision_counts(&self.factors()?, self.height, self.engine, &runner)?;
        self.report(&config.run(), &counts)
    }
}

impl ErrpropSpec {
    /// Runs `mc errprop` (refused up front beyond an hour) and returns its report.
    ///
    /// # Errors
    ///
    /// As [`Self::start_and_factors`], [`super::errprop::errprop_trial_seconds`],
    /// [`RunConfig::budgeted_runner`] and [`super::errprop::estimate_errors`].
    pub fn estimate(&self, config: &RunConfig) -> Result<Report> {
        let (start, factors) = self.start_and_factors()?;
        let runner = config.budgeted_runner(
            "mc errprop",
            &format!("mc errprop with {} steps", self.steps),
            super::errprop::errprop_trial_seconds(self.steps)?,
        )?;
        let rows = super::errprop::estimate_errors(&start, &factors, self.steps, &runner)?;
        Ok(self.report(&config.run(), &rows))
    }
}

impl RhfSpec {
    /// The spec with the leaf win probability `p`, by default `w_2 = (3 - sqrt 5)/2`.
    ///
    /// # Errors
    ///
    /// As [`crate::analytic::closed_form::w_b`] (never for b = 2).
    pub fn with_default_p(
        w: BigRational,
        p: Option<&BigRational>,
        height: u32,
        depth: u32,
    ) -> Result<Self> {
        Ok(RhfSpec {
            p: match p {
                Some(p) => rational_f64(p),
                None => crate::analytic::closed_form::w_b(2)?,
            },
            w,
            height,
            depth,
        })
    }

    /// Runs `mc rhf` (refused up front beyond an hour) and returns its report.
    ///
    /// # Errors
    ///
    /// As [`Self::setup`], [`RunConfig::budgeted_runner`] and
    /// [`super::rhf::estimate_flaw_rate`].
    pub fn estimate(&self, config: &RunConfig) -> Result<Report> {
        let setup = self.setup()?;
        let runner = config.budgeted_runner(
            "mc rhf",
            &format!("mc rhf at height {} depth {}", self.height, self.depth),
            super::rhf::rhf_trial_seconds(&setup),
        )?;
        let result = super::rhf::estimate_flaw_rate(&setup, &runner)?;
        Ok(self.report(&config.run(), &result))
    }
}
