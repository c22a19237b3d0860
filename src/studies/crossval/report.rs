//! Monte Carlo results as [`Report`]s, and `pathology merge`: shards of one seeded run summed
//! back into the unsharded result.
//!
//! Every row is self-describing: the experiment's parameters are columns (so runs can be
//! concatenated and read by `pathology validate`), beside the counts (`successes`,
//! `trials`), the estimate with its 95% interval, the exact value and the z-score. The
//! report is built from the counts alone, by one function per experiment; a sharded run
//! (`--shard K/N`, [`Shard`]) prints its slice's counts, and [`merge`] sums the counts of all
//! N slices and calls the same function, so the merged output is byte-identical to the
//! unsharded run with the same seed.

use num_rational::BigRational;
use num_traits::ToPrimitive;

use super::dgame::{Engine, decision_rows};
use crate::analytic::dgame::DependenceFactors;
use crate::analytic::errprop::ErrorPair;
use crate::error::{Error, Result};
use crate::numeric::number::{parse_rational, short_text};
use crate::report::read::ReadTable;
use crate::report::{Cell, Column, Kind, Report, Table};
use crate::sim::runner::Shard;
use crate::sim::stats::{Comparison, Proportion};

/// The run's size and seed, as printed in the manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct McRun {
    /// Trials of the whole run (all shards).
    pub trials: u64,
    /// The seed.
    pub seed: u64,
    /// The slice this output covers, if sharded.
    pub shard: Option<Shard>,
}

impl McRun {
    fn params(&self, report: Report) -> Report {
        let report = report.param("trials", self.trials);
        let report = match self.shard {
            Some(s) => report.param("shard", s),
            None => report,
        };
        report.mode("monte-carlo").seed(self.seed)
    }
}

/// The columns of an estimated proportion: counts, estimate with interval, exact value, z.
pub fn comparison_columns() -> Vec<Column> {
    vec![
        Column::new("successes", Kind::Integer),
        Column::new("trials", Kind::Integer),
        Column::new("estimate", Kind::Interval).labelled("estimate [95% CI]"),
        Column::new("exact", Kind::Real),
        Column::new("z", Kind::Real),
    ]
}

/// The cells of [`comparison_columns`].
pub fn comparison_cells(successes: u64, trials: u64, c: &Comparison) -> Vec<Cell> {
    vec![
        Cell::int(successes),
        Cell::int(trials),
        Cell::Interval {
            estimate: c.estimate,
            lower: c.ci_low,
            upper: c.ci_high,
        },
        c.exact.map_or(Cell::Empty, Cell::Real),
        c.z.filter(|z| z.is_finite())
            .map_or(Cell::Empty, Cell::Real),
    ]
}

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

/// A manifest's parameters (`name: value`), looked up by the experiments that rebuild a run
/// from them (`merge`).
pub(crate) struct Parameters<'a>(pub(crate) &'a [(String, String)]);

impl<'a> Parameters<'a> {
    /// The value of `name`; an error naming `FILE` when the manifest lacks it.
    pub(crate) fn get(&self, name: &str) -> Result<&'a str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| {
                Error::invalid("FILE", &format!("a manifest with parameter {name}"), "none")
            })
    }

    /// The value of `name` parsed as a `T`; the error says it must be `allowed`.
    pub(crate) fn parse<T: std::str::FromStr>(&self, name: &str, allowed: &str) -> Result<T> {
        let v = self.get(name)?;
        v.parse()
            .map_err(|_| Error::invalid(&format!("manifest parameter {name}"), allowed, v))
    }
}

/// A manifest read back.
#[derive(Debug, Clone, PartialEq)]
struct Manifest {
    subcommand: String,
    seed: u64,
    trials: u64,
    shard: Shard,
    parameters: Vec<(String, String)>,
    identity: Vec<String>,
}

impl Manifest {
    fn read(table: &ReadTable, file: &str) -> Result<Self> {
        let missing = |what: &str| {
            Error::invalid(
                "FILE",
                &format!("output of a sharded pathology mc run (its manifest has {what})"),
                file,
            )
        };
        let subcommand = table
            .manifest_value("subcommand")
            .ok_or_else(|| missing("a subcommand"))?
            .to_string();
        let seed = table
            .manifest_value("seed")
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| missing("a seed"))?;
        let mut parameters = Vec::new();
        for line in &table.manifest {
            if let Some(rest) = line.strip_prefix("parameter ")
                && let Some((name, value)) = rest.split_once(": ")
            {
                parameters.push((name.to_string(), value.to_string()));
            }
        }
        let get = |name: &str| {
            parameters
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        let shard = Shard::parse(&get("shard").ok_or_else(|| missing("a shard parameter"))?)?;
        // `mc match*` count pairs, the other experiments trials.
        let trials = get("trials")
            .or_else(|| get("pairs"))
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| missing("a trials parameter"))?;
        let identity = table
            .manifest
            .iter()
            .filter(|l| l.starts_with("tool: ") || l.starts_with("commit: "))
            .cloned()
            .collect();
        Ok(Manifest {
            subcommand,
            seed,
            trials,
            shard,
            parameters,
            identity,
        })
    }

    fn get(&self, name: &str) -> Result<&str> {
        Parameters(&self.parameters).get(name)
    }

    fn number<T: std::str::FromStr>(&self, name: &str) -> Result<T> {
        Parameters(&self.parameters).parse(name, "a whole number")
    }

    fn rational(&self, name: &str) -> Result<BigRational> {
        let v = self.get(name)?;
        parse_rational(v)
            .map_err(|e| Error::invalid(&format!("manifest parameter {name}"), "a rational", e))
    }

    /// Everything but the shard: what must agree between shards of one run.
    fn run_identity(&self) -> (String, u64, Vec<(String, String)>, Vec<String>) {
        // Sorted: JSON objects come back in key order, CSV comments in the written order.
        let mut params: Vec<(String, String)> = self
            .parameters
            .iter()
            .filter(|(n, _)| n != "shard")
            .cloned()
            .collect();
        params.sort();
        let mut identity = self.identity.clone();
        identity.sort();
        (self.subcommand.clone(), self.seed, params, identity)
    }
}

/// The whole-number columns `counts` summed over shards, one entry per row in row order (in
/// the order of `counts`), checking that every shard has the first shard's rows: as many, with
/// the same values in the `keys` columns. Every mergeable experiment sums its counts with this.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` (a missing column, another number of rows) or the
/// file and line (a count that is not a whole number, keys unlike the first shard's).
pub(crate) fn summed_columns(
    inputs: &[(String, ReadTable)],
    keys: &[&str],
    counts: &[&str],
) -> Result<Vec<Vec<u64>>> {
    let mut sums: Vec<Vec<u64>> = Vec::new();
    let mut first_keys: Vec<Vec<String>> = Vec::new();
    for (k, (file, table)) in inputs.iter().enumerate() {
        let column = |name: &str| {
            table.column(name).ok_or_else(|| {
                Error::invalid("FILE", &format!("a table with a {name} column"), file)
            })
        };
        let count_columns = counts
            .iter()
            .map(|n| column(n))
            .collect::<Result<Vec<_>>>()?;
        let key_columns = keys.iter().map(|n| column(n)).collect::<Result<Vec<_>>>()?;
        if k > 0 && table.rows.len() != sums.len() {
            return Err(Error::invalid(
                "FILE",
                &format!("{} rows like the first shard", sums.len()),
                format!("{file} with {} rows", table.rows.len()),
            ));
        }
        for (i, (line, fields)) in table.rows.iter().enumerate() {
            let field = |c: usize| fields.get(c).map(String::as_str).unwrap_or("");
            let row = count_columns
                .iter()
                .map(|&c| {
                    field(c).parse::<u64>().map_err(|_| {
                        Error::invalid(
                            &format!("{file} line {line}"),
                            "whole-number counts",
                            field(c),
                        )
                    })
                })
                .collect::<Result<Vec<u64>>>()?;
            let key: Vec<String> = key_columns.iter().map(|&c| field(c).to_string()).collect();
            if k == 0 {
                sums.push(row);
                first_keys.push(key);
            } else {
                if key != first_keys[i] {
                    return Err(Error::invalid(
                        &format!("{file} line {line}"),
                        &format!(
                            "the same row keys as the first shard ({})",
                            first_keys[i].join(", ")
                        ),
                        key.join(", "),
                    ));
                }
                for (sum, value) in sums[i].iter_mut().zip(row) {
                    *sum += value;
                }
            }
        }
    }
    Ok(sums)
}

/// Counts `(successes, trials)` summed over shards ([`summed_columns`]).
fn summed_counts(inputs: &[(String, ReadTable)], keys: &[&str]) -> Result<Vec<Proportion>> {
    Ok(summed_columns(inputs, keys, &["successes", "trials"])?
        .into_iter()
        .map(|row| Proportion {
            successes: row[0],
            trials: row[1],
        })
        .collect())
}

/// A rational parameter in `f64`, converted as the command line converts it
/// ([`crate::numeric::number::Probability::to_f64`]), so a merged run recomputes the same exact values.
fn rational_f64(x: &BigRational) -> f64 {
    <BigRational as crate::numeric::number::Probability>::to_f64(x)
}

/// The experiments `merge` knows.
pub const MERGEABLE: &[&str] = &[
    "mc dgame",
    "mc errprop",
    "mc rhf",
    "mc emm",
    "mc match",
    "mc match-sweep",
    "mc match-table",
];

/// Merges the outputs of the N shards of one seeded run (`--shard 1/N` .. `N/N`, any order;
/// CSV or JSON as read by [`crate::report::read`]) into the report of the unsharded run.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` when the inputs are not the shards of one run
/// (different experiment, parameters, seed, version or commit; a shard missing or repeated),
/// or an experiment `merge` does not know.
pub fn merge(inputs: &[(String, ReadTable)]) -> Result<Report> {
    let Some((first_file, first)) = inputs.first() else {
        return Err(Error::invalid("FILE", "at least one shard output", "none"));
    };
    let manifest = Manifest::read(first, first_file)?;
    let mut seen = vec![false; manifest.shard.count as usize];
    for (file, table) in inputs {
        let m = Manifest::read(table, file)?;
        let (a, b) = (m.run_identity(), manifest.run_identity());
        if a != b {
            let differs = if a.0 != b.0 {
                format!("experiment {} vs {}", a.0, b.0)
            } else if a.1 != b.1 {
                format!("seed {} vs {}", a.1, b.1)
            } else if a.2 != b.2 {
                format!("parameters {:?} vs {:?}", a.2, b.2)
            } else {
                format!("{} vs {}", a.3.join(", "), b.3.join(", "))
            };
            return Err(Error::invalid(
                "FILE",
                &format!(
                    "a shard of the same run as {first_file} (same experiment, parameters, seed, version and commit)"
                ),
                format!("{file}: {differs}"),
            ));
        }
        if m.shard.count != manifest.shard.count {
            return Err(Error::invalid(
                "FILE",
                &format!("a shard K/{}", manifest.shard.count),
                format!("{file} (shard {})", m.shard),
            ));
        }
        let slot = &mut seen[m.shard.index as usize - 1];
        if *slot {
            return Err(Error::invalid(
                "FILE",
                "each shard once",
                format!("{file} repeats shard {}", m.shard),
            ));
        }
        *slot = true;
    }
    if let Some(k) = seen.iter().position(|s| !s) {
        return Err(Error::invalid(
            "FILE",
            &format!("all {} shards", manifest.shard.count),
            format!("shard {}/{} missing", k + 1, manifest.shard.count),
        ));
    }
    let run = McRun {
        trials: manifest.trials,
        seed: manifest.seed,
        shard: None,
    };
    match manifest.subcommand.as_str() {
        "mc dgame" => {
            let spec = DgameSpec::from_manifest(&manifest)?;
            let counts = summed_counts(inputs, &["d"])?;
            spec.report(&run, &counts)
        }
        "mc errprop" => {
            let spec = ErrpropSpec::from_manifest(&manifest)?;
            let counts = summed_counts(inputs, &["quantity"])?;
            spec.rows_from_counts(&counts)
                .map(|rows| spec.report(&run, &rows))
        }
        "mc rhf" => {
            let spec = RhfSpec::from_manifest(&manifest)?;
            let counts = summed_counts(inputs, &["w"])?;
            let [count] = counts.as_slice() else {
                return Err(Error::invalid(
                    "FILE",
                    "one rhf row per shard",
                    counts.len(),
                ));
            };
            spec.estimate_from_count(count)
                .map(|estimate| spec.report(&run, &estimate))
        }
        "mc emm" => crate::studies::wilson_parker_nau::report::merge_shards(
            &run,
            &manifest.parameters,
            inputs,
        ),
        "mc match" | "mc match-sweep" | "mc match-table" => {
            crate::studies::chi_nau::match_report::merge(
                &manifest.subcommand,
                &manifest.parameters,
                manifest.seed,
                inputs,
            )
        }
        other => Err(Error::invalid(
            "FILE",
            &format!("the output of one of {}", MERGEABLE.join(", ")),
            other,
        )),
    }
}

/// The successes behind an estimate `k / n` (exact for `n < 2^52`).
fn successes_of(estimate: f64, trials: u64) -> u64 {
    (estimate * trials as f64).round() as u64
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
