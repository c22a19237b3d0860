//! Monte Carlo results as report rows, and the schema-driven half of `pathology merge`:
//! the shards of one seeded run checked against each other and their counts summed.
//!
//! Every row of a Monte Carlo report is self-describing: the experiment's parameters are
//! columns (so runs can be concatenated and read by `pathology validate`), beside the counts
//! (`successes`, `trials`), the estimate with its 95% interval, the exact value and the
//! z-score ([`comparison_columns`]). A study builds its report from the counts alone; a
//! sharded run (`--shard K/N`, [`Shard`]) prints its slice's counts, [`check_shards`] checks
//! that the inputs of a merge are the N slices of one run, [`summed_columns`] sums their
//! counts row by row, and the study rebuilds its report from the sums
//! ([`crate::studies::merge`] names the experiments), so the merged output is byte-identical
//! to the unsharded run with the same seed. Nothing here knows an experiment.

use num_rational::BigRational;

use super::runner::{Shard, TrialRunner};
use super::stats::{Comparison, Proportion};
use crate::error::{Error, Result};
use crate::numeric::number::parse_rational;
use crate::report::read::ReadTable;
use crate::report::{Cell, Column, Kind, Report};

/// A Monte Carlo run as a command asks for it: its trials (`--trials`, `--games`, `--pairs`,
/// ...), seed, worker threads (`None`: all cores) and shard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunConfig {
    /// Trials of the whole run (all shards).
    pub trials: u64,
    /// The seed of the random streams.
    pub seed: u64,
    /// Worker threads; `None` is all cores.
    pub threads: Option<usize>,
    /// The slice to run, if sharded.
    pub shard: Option<Shard>,
}

impl RunConfig {
    /// The worker threads: the ones asked for, or all cores.
    pub fn threads(&self) -> usize {
        self.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
    }

    /// The runner (sharded when asked), with a progress bar labelled `label`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::report::RunConfig;
    /// let config = RunConfig { trials: 100, seed: 7, threads: Some(1), shard: None };
    /// let runner = config.runner("demo").unwrap();
    /// assert_eq!((runner.trials(), runner.seed()), (100, 7));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TrialRunner::new`].
    pub fn runner(&self, label: &str) -> Result<TrialRunner> {
        let runner = TrialRunner::new(self.trials, self.seed, self.threads())?.with_progress(label);
        Ok(match self.shard {
            Some(s) => runner.with_shard(s),
            None => runner,
        })
    }

    /// The runner of [`RunConfig::runner`], refused up front when the run would take more
    /// than an hour ([`TrialRunner::check_budget`]): `what` names the experiment and its
    /// size, `seconds_per_trial` is one trial's cost on one thread.
    ///
    /// # Errors
    ///
    /// As [`TrialRunner::new`] and [`TrialRunner::check_budget`].
    pub fn budgeted_runner(
        &self,
        label: &str,
        what: &str,
        seconds_per_trial: f64,
    ) -> Result<TrialRunner> {
        let runner = self.runner(label)?;
        runner.check_budget(what, seconds_per_trial)?;
        Ok(runner)
    }

    /// The run as the manifest states it.
    pub fn run(&self) -> McRun {
        McRun {
            trials: self.trials,
            seed: self.seed,
            shard: self.shard,
        }
    }
}

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
    /// Adds the run's size, shard, mode and seed to `report`'s manifest.
    pub fn params(&self, report: Report) -> Report {
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

/// The cells of [`comparison_columns`]. With no trials (a shard with no trials of its own)
/// the estimate, its interval and z are left empty: 0/0 estimates nothing.
pub fn comparison_cells(successes: u64, trials: u64, c: &Comparison) -> Vec<Cell> {
    let mut cells = vec![Cell::int(successes), Cell::int(trials)];
    let [estimate, exact, z] = estimate_cells(c);
    if trials == 0 {
        cells.extend([Cell::Empty, exact, Cell::Empty]);
    } else {
        cells.extend([estimate, exact, z]);
    }
    cells
}

/// A cell that a shard row prints beside its counts, as recomputed from them: `merge` checks
/// every cell of every shard row against these ([`summed_columns`]), so that a shard whose
/// estimate, interval or z-score was edited (or whose counts were) is refused naming its file,
/// line and column instead of being merged.
#[derive(Debug, Clone, PartialEq)]
pub enum Printed {
    /// An estimate `successes / trials`, checked as `pathology validate` checks an estimate
    /// ([`crate::sim::stats::check_printed_proportion`]: that proportion as printed).
    Proportion {
        /// The column.
        column: String,
        /// The successes.
        successes: u64,
        /// The trials (at least 1).
        trials: u64,
    },
    /// A number, to its printed decimals ([`crate::sim::stats::check_printed_value`]);
    /// `None`: the cell is empty.
    Value {
        /// The column.
        column: String,
        /// The number, or `None` for an empty cell.
        value: Option<f64>,
    },
}

impl Printed {
    /// A number in `column` (`None`: an empty cell).
    pub fn value(column: &str, value: Option<f64>) -> Printed {
        Printed::Value {
            column: column.to_string(),
            value,
        }
    }

    /// The three cells of the interval column `column` (`NAME`, `NAME_lower`, `NAME_upper`):
    /// the estimate of `c` (checked as the proportion `proportion` when it is one) and its
    /// interval; all empty when `c` is `None` (no trials).
    pub fn interval(
        column: &str,
        c: Option<&Comparison>,
        proportion: Option<Proportion>,
    ) -> Vec<Printed> {
        let estimate = match (c, proportion) {
            (Some(_), Some(p)) if p.trials > 0 => Printed::Proportion {
                column: column.to_string(),
                successes: p.successes,
                trials: p.trials,
            },
            _ => Printed::value(column, c.map(|c| c.estimate)),
        };
        vec![
            estimate,
            Printed::value(&format!("{column}_lower"), c.map(|c| c.ci_low)),
            Printed::value(&format!("{column}_upper"), c.map(|c| c.ci_high)),
        ]
    }

    /// The cells of an estimated proportion `p` with its 95% Wilson interval in `column` and
    /// its z-score in `z` against `exact` (the exact value the row prints): empty with no
    /// trials, an infinite z empty (as [`comparison_cells`] prints them).
    pub fn wilson(column: &str, z: &str, p: Proportion, exact: Option<f64>) -> Vec<Printed> {
        let c = (p.trials > 0).then(|| p.compare(exact));
        let mut cells = Printed::interval(column, c.as_ref(), Some(p));
        cells.push(Printed::value(
            z,
            c.and_then(|c| c.z).filter(|z| z.is_finite()),
        ));
        cells
    }

    /// The cells of [`comparison_columns`] of a row whose first two counts are `successes`
    /// and `trials`; `cell` reads a number the row prints (its `exact` value).
    pub fn comparison(counts: &[u64], cell: &dyn Fn(&str) -> Option<f64>) -> Vec<Printed> {
        let p = Proportion {
            successes: counts[0],
            trials: counts[1],
        };
        Printed::wilson("estimate", "z", p, cell("exact"))
    }

    /// Checks the cell of `fields` (under `header`) against this; `at` names the file and
    /// line, `counts` the row's counts in words.
    fn check(&self, at: &str, header: &[String], fields: &[String], counts: &str) -> Result<()> {
        let column = match self {
            Printed::Proportion { column, .. } | Printed::Value { column, .. } => column,
        };
        let Some(index) = header.iter().position(|h| h == column) else {
            return Err(Error::invalid(
                at,
                &format!("a table with a {column} column"),
                "none",
            ));
        };
        let text = fields.get(index).map_or("", |f| f.trim());
        let at = format!("{at} column {column}");
        match self {
            Printed::Proportion {
                successes, trials, ..
            } => {
                let value = parse_rational(text).map_err(|_| {
                    Error::invalid(&at, &format!("the estimate {successes}/{trials}"), text)
                })?;
                crate::sim::stats::check_printed_proportion(text, &value, *trials, Some(*successes))
                    .map_err(|reason| {
                        Error::invalid(
                            &at,
                            &format!("consistent with the row's counts ({counts}): {reason}"),
                            text,
                        )
                    })
            }
            Printed::Value { value, .. } => crate::sim::stats::check_printed_value(text, *value)
                .map_err(|expected| {
                    Error::invalid(
                        &at,
                        &format!("{expected} as recomputed from the row's counts ({counts})"),
                        if text.is_empty() {
                            "an empty cell"
                        } else {
                            text
                        },
                    )
                }),
        }
    }
}

/// The cells a shard row must print, from its counts (in the order of the counted columns)
/// and a reader of the numbers it prints (`cell("exact")`: the exact value beside them).
pub type PrintedCells<'a> = dyn Fn(&[u64], &dyn Fn(&str) -> Option<f64>) -> Vec<Printed> + 'a;

/// The estimate with its interval, the exact value and the z-score of `c` (the last three of
/// [`comparison_columns`]; an infinite z is left empty).
pub fn estimate_cells(c: &Comparison) -> [Cell; 3] {
    [
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

/// A manifest's parameters (`name: value`), looked up by the experiments that rebuild a run
/// from them (`merge`).
pub struct Parameters<'a>(pub &'a [(String, String)]);

impl<'a> Parameters<'a> {
    /// The value of `name`; an error naming `FILE` when the manifest lacks it.
    pub fn get(&self, name: &str) -> Result<&'a str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| {
                Error::invalid("FILE", &format!("a manifest with parameter {name}"), "none")
            })
    }

    /// The value of `name` parsed as a `T`; the error says it must be `allowed`.
    pub fn parse<T: std::str::FromStr>(&self, name: &str, allowed: &str) -> Result<T> {
        let v = self.get(name)?;
        v.parse()
            .map_err(|_| Error::invalid(&format!("manifest parameter {name}"), allowed, v))
    }
}

/// A shard's manifest read back.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// The experiment (`mc dgame`).
    pub subcommand: String,
    /// The seed.
    pub seed: u64,
    /// The trials (or pairs) of the whole run.
    pub trials: u64,
    /// The slice this output covers.
    pub shard: Shard,
    /// Every `parameter name: value` line.
    pub parameters: Vec<(String, String)>,
    identity: Vec<String>,
}

impl Manifest {
    /// Reads the manifest of `file`'s table.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `FILE` when it is not the output of a sharded run.
    pub fn read(table: &ReadTable, file: &str) -> Result<Self> {
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

    /// The parameter `name`.
    ///
    /// # Errors
    ///
    /// When the manifest lacks it.
    pub fn get(&self, name: &str) -> Result<&str> {
        Parameters(&self.parameters).get(name)
    }

    /// The parameter `name` as a whole number.
    ///
    /// # Errors
    ///
    /// When the manifest lacks it or it is not a whole number.
    pub fn number<T: std::str::FromStr>(&self, name: &str) -> Result<T> {
        Parameters(&self.parameters).parse(name, "a whole number")
    }

    /// The parameter `name` as an exact rational.
    ///
    /// # Errors
    ///
    /// When the manifest lacks it or it is not a number.
    pub fn rational(&self, name: &str) -> Result<BigRational> {
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

/// A check of one shard row's counts (in the order of the counted columns) against the
/// shard's slice of the run (`slice`: its trials, or pairs, from its own manifest); `Err`
/// holds what the row must be.
pub type RowCheck<'a> = dyn Fn(&[u64], u64) -> std::result::Result<(), String> + 'a;

/// The whole-number columns `counts` summed over shards, one entry per row in row order (in
/// the order of `counts`), checking that every shard has the first shard's rows: as many, with
/// the same values in the `keys` columns, and that `check` accepts every row's counts against
/// the shard's slice of the run (its size from the shard's own manifest: `--shard K/N` of the
/// manifest's trials), and that every row prints the cells `printed` recomputes from its
/// counts ([`check_printed`]: estimates, intervals, z-scores, derived counts). Every mergeable
/// experiment sums its counts with this, so an edited count or estimate is refused naming its
/// file and line (a shard with one success fewer and the estimate unchanged would merge into
/// a wrong answer).
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` (a missing column or manifest, another number of
/// rows) or the file and line (a count that is not a whole number, keys unlike the first
/// shard's, counts that `check` refuses, a printed cell unlike its counts' (with its column),
/// a sum beyond 2^64 - 1).
pub fn summed_columns(
    inputs: &[(String, ReadTable)],
    keys: &[&str],
    counts: &[&str],
    check: &RowCheck<'_>,
    printed: &PrintedCells<'_>,
) -> Result<Vec<Vec<u64>>> {
    let mut sums: Vec<Vec<u64>> = Vec::new();
    let mut first_keys: Vec<Vec<String>> = Vec::new();
    for (k, (file, table)) in inputs.iter().enumerate() {
        let manifest = Manifest::read(table, file)?;
        let slice = {
            let range = manifest.shard.range(manifest.trials);
            range.end - range.start
        };
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
            let at = || format!("{file} line {line}");
            let field = |c: usize| fields.get(c).map(String::as_str).unwrap_or("");
            let row = count_columns
                .iter()
                .map(|&c| {
                    field(c)
                        .parse::<u64>()
                        .map_err(|_| Error::invalid(&at(), "whole-number counts", field(c)))
                })
                .collect::<Result<Vec<u64>>>()?;
            check(&row, slice).map_err(|allowed| {
                let got = counts
                    .iter()
                    .zip(&row)
                    .map(|(n, v)| format!("{n} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                Error::invalid(
                    &at(),
                    &format!(
                        "{allowed} (shard {} of the manifest's {})",
                        manifest.shard, manifest.trials
                    ),
                    got,
                )
            })?;
            check_printed(&at(), table, fields, counts, &row, printed)?;
            let key: Vec<String> = key_columns.iter().map(|&c| field(c).to_string()).collect();
            if k == 0 {
                sums.push(row);
                first_keys.push(key);
            } else {
                if key != first_keys[i] {
                    return Err(Error::invalid(
                        &at(),
                        &format!(
                            "the same row keys as the first shard ({})",
                            first_keys[i].join(", ")
                        ),
                        key.join(", "),
                    ));
                }
                for (sum, value) in sums[i].iter_mut().zip(row) {
                    *sum = sum.checked_add(value).ok_or_else(|| {
                        Error::invalid(&at(), "counts whose sums fit in 64 bits", value)
                    })?;
                }
            }
        }
    }
    Ok(sums)
}

/// Checks the cells of one shard row (`fields` of `table`, at `at`: its file and line) that
/// `printed` recomputes from the row's `counts` (named by `names`): the one consistency check
/// of a shard's rows, shared by every mergeable experiment.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming the file, line and column of the first cell that is not
/// what the row's counts give.
pub fn check_printed(
    at: &str,
    table: &ReadTable,
    fields: &[String],
    names: &[&str],
    counts: &[u64],
    printed: &PrintedCells<'_>,
) -> Result<()> {
    let cell = |name: &str| {
        table
            .column(name)
            .and_then(|c| fields.get(c))
            .and_then(|f| f.trim().parse::<f64>().ok())
            .filter(|x| x.is_finite())
    };
    let words = names
        .iter()
        .zip(counts)
        .map(|(n, v)| format!("{n} {v}"))
        .collect::<Vec<_>>()
        .join(", ");
    for expected in printed(counts, &cell) {
        expected.check(at, &table.header, fields, &words)?;
    }
    Ok(())
}

/// Counts `(successes, trials)` summed over shards ([`summed_columns`]): every row must have
/// `successes <= trials`, exactly the shard's slice of trials, and print the estimate, its
/// Wilson interval and z that these counts give ([`Printed::comparison`]).
///
/// # Errors
///
/// As [`summed_columns`].
pub fn summed_counts(inputs: &[(String, ReadTable)], keys: &[&str]) -> Result<Vec<Proportion>> {
    let check = |row: &[u64], slice: u64| {
        if row[1] != slice {
            Err(format!("a row of the shard's {slice} trials"))
        } else if row[0] > row[1] {
            Err("at most as many successes as trials".to_string())
        } else {
            Ok(())
        }
    };
    Ok(summed_columns(
        inputs,
        keys,
        &["successes", "trials"],
        &check,
        &Printed::comparison,
    )?
    .into_iter()
    .map(|row| Proportion {
        successes: row[0],
        trials: row[1],
    })
    .collect())
}

/// A rational parameter in `f64`, converted as the command line converts it
/// ([`crate::numeric::number::Probability::to_f64`]), so a merged run recomputes the same exact values.
pub fn rational_f64(x: &BigRational) -> f64 {
    <BigRational as crate::numeric::number::Probability>::to_f64(x)
}

/// Checks that `inputs` are the N shards of one seeded run (`--shard 1/N` .. `N/N`, any order;
/// CSV or JSON as read by [`crate::report::read`]): the same experiment, parameters, seed,
/// version and commit, each shard exactly once. Returns the first shard's manifest.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` when they are not.
pub fn check_shards(inputs: &[(String, ReadTable)]) -> Result<Manifest> {
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
    Ok(manifest)
}

/// The successes behind an estimate `k / n` (exact for `n < 2^52`).
pub fn successes_of(estimate: f64, trials: u64) -> u64 {
    (estimate * trials as f64).round() as u64
}
