//! `samples curves --shard K/N` and its merge: the problems split into N slices, each
//! shard's exact sums ([`Moments`]) written out, and `pathology merge` adding them into the
//! report of the unsharded run, byte for byte.
//!
//! **Which problems a shard holds.** Every shard reads the whole file (so every shard refuses
//! the same malformed input, and `--drop-short` drops the same problems), sorts the ids of
//! the problems used by their bytes, and keeps positions `floor((K-1) P / N) ..
//! floor(K P / N)` of that order (the slices of `mc ... --shard`, over problems instead of
//! trials): slices of sizes differing by at most one, each problem in exactly one.
//!
//! **What merges exactly.** Every statistic of `samples curves` is a function of sums over
//! problems ([`super::moments`]): the exact sum of the exact values (exact mode), and the
//! exact sums of the `f64` values, of their squares and of the products of consecutive
//! budgets' values and of each budget's with the last one's (`f64` mode's mean and every
//! standard error and claim), and the largest relative rounding bound (a maximum). Sums of
//! rationals and a maximum do not depend on how the problems are split or ordered, so the
//! merged report is the one-run report byte for byte in both modes, and the `f64` mode's
//! bound is the one-run's: each shard's sums are exact, the merge adds them exactly, and the
//! single rounding of the mean happens after the merge.

use num_rational::BigRational;

use super::curves::{Curves, Metric, Ties};
use super::input::{Columns, InputFormat};
use super::moments::Moments;
use super::report::{CurvesRequest, InputSummary, Source, curves_manifest, curves_report_of};
use crate::error::{Error, Result};
use crate::numeric::number::parse_rational;
use crate::report::read::ReadTable;
use crate::report::{Cell, Column, Kind, Report, Table};
use crate::sim::runner::Shard;

/// The experiments whose shards [`merge`] combines.
pub const MERGEABLE: &[&str] = &["samples curves"];

/// The columns of a shard's `sums` table: the key, then the sums, then what every row of
/// every shard repeats.
const COLUMNS: [&str; 14] = [
    "metric",
    "k",
    "problems",
    "sum",
    "squares",
    "next",
    "last",
    "relative",
    "exact_sum",
    "rows",
    "used",
    "dropped",
    "input",
    "shard",
];

pub use super::input::select_shard as select;

/// Runs `samples curves --shard K/N`: the manifest of the run with its shard, and the `sums`
/// table (one row per metric and k) that [`merge`] adds.
///
/// # Errors
///
/// As [`super::report::curves_of`]; [`Error::InvalidArgument`] naming `--shard` without one.
pub fn shard_report(request: &CurvesRequest) -> Result<Report> {
    let shard = request
        .shard
        .ok_or_else(|| Error::invalid("--shard", "given (K/N)", "nothing"))?;
    let (input, curves) = super::report::curves_of(request)?;
    Ok(sums_report(request, shard, &input, &curves))
}

/// The report of one shard from its curves.
fn sums_report(
    request: &CurvesRequest,
    shard: Shard,
    input: &InputSummary,
    curves: &Curves,
) -> Report {
    let mut table = Table::new(
        "sums",
        "One shard's exact sums over its problems, per metric and k (pathology merge adds the \
         shards' sums into the unsharded report)",
        COLUMNS
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let kind = match *name {
                    "k" | "problems" | "rows" | "used" | "dropped" => Kind::Integer,
                    _ => Kind::Text,
                };
                if i < 2 {
                    Column::key(name, kind)
                } else {
                    Column::new(name, kind)
                }
            })
            .collect(),
    );
    let moments = &curves.moments;
    let text = |x: &BigRational| Cell::text(x.to_string());
    for (m, metric) in curves.metrics.iter().enumerate() {
        for (i, &k) in curves.ks.iter().enumerate() {
            table.push(vec![
                Cell::text(metric.name()),
                Cell::int(k),
                Cell::int(moments.problems),
                text(&moments.sum[m][i]),
                text(&moments.squares[m][i]),
                moments.next[m].get(i).map_or(Cell::Empty, text),
                text(&moments.last[m][i]),
                Cell::text(format!("{:?}", moments.relative[m][i])),
                moments
                    .exact
                    .as_ref()
                    .map_or(Cell::Empty, |e| text(&e[m][i])),
                Cell::int(input.rows),
                Cell::int(input.problems),
                Cell::int(input.dropped),
                Cell::text(if input.per_sample {
                    "per-sample"
                } else {
                    "counts"
                }),
                Cell::text(shard.to_string()),
            ]);
        }
    }
    let mut report = curves_manifest(request).param("shard", shard);
    report.title = "Exact curves over the sampling budget k: the sums of one shard".to_string();
    report
        .with_table(table)
        .note(format!(
            "shard {shard}: {} of the {} problems used (positions floor((K-1)P/N) .. \
             floor(KP/N) of the ids sorted by their bytes); pathology merge of the {} shards \
             gives the unsharded report",
            moments.problems, input.problems, shard.count
        ))
        .note(
            "sum, squares, next, last: exact sums over the shard's problems of the f64 values \
             v(k), v(k)^2, v(k) v(next k), v(k) v(last k); relative: the largest relative \
             rounding bound of a value; exact_sum: the exact sum of the exact values (--exact)",
        )
}

/// A shard's manifest lines that must agree between the shards of one run (the tool and its
/// version, the commit, the experiment, the mode and every parameter but the shard), sorted
/// (JSON reads back in key order).
fn identity(table: &ReadTable) -> Vec<String> {
    let mut lines: Vec<String> = table
        .manifest
        .iter()
        .filter(|l| {
            ["tool: ", "commit: ", "subcommand: ", "mode: ", "parameter "]
                .iter()
                .any(|p| l.starts_with(p))
                && !l.starts_with("parameter shard: ")
        })
        .cloned()
        .collect();
    lines.sort();
    lines
}

/// A manifest parameter (`argument` for the file).
fn parameter<'a>(table: &'a ReadTable, file: &str, name: &str) -> Result<&'a str> {
    table
        .manifest_value(&format!("parameter {name}"))
        .ok_or_else(|| {
            Error::invalid(
                "FILE",
                &format!("a shard of samples curves (its manifest has parameter {name})"),
                file,
            )
        })
}

/// The request of the unsharded run, from a shard's manifest.
fn request_of(table: &ReadTable, file: &str) -> Result<CurvesRequest> {
    let get = |name: &str| parameter(table, file, name);
    let flag = |name: &str| -> Result<bool> {
        let v = get(name)?;
        v.parse()
            .map_err(|_| Error::invalid(&format!("manifest parameter {name}"), "true or false", v))
    };
    let defaults = Columns::default();
    let column = |name: &str, default: &str| {
        table
            .manifest_value(&format!("parameter {name}"))
            .unwrap_or(default)
            .to_string()
    };
    let format = match table.manifest_value("parameter input_format") {
        None => None,
        Some("csv") => Some(InputFormat::Csv),
        Some("jsonl") => Some(InputFormat::Jsonl),
        Some(other) => {
            return Err(Error::invalid(
                "manifest parameter input_format",
                "csv or jsonl",
                other,
            ));
        }
    };
    let ties = match get("ties")? {
        "uniform" => Ties::Uniform,
        "wrong" => Ties::Wrong,
        other => {
            return Err(Error::invalid(
                "manifest parameter ties",
                "uniform or wrong",
                other,
            ));
        }
    };
    Ok(CurvesRequest {
        source: Source {
            path: get("argument")?.into(),
            format,
            columns: Columns {
                problem: column("problem_column", &defaults.problem),
                correct: column("correct_column", &defaults.correct),
                answer: column("answer_column", &defaults.answer),
                score: column("score_column", &defaults.score),
                c: column("c_column", &defaults.c),
                n: column("n_column", &defaults.n),
            },
        },
        ks: crate::analytic::inference::parse_list(
            "--k",
            get("k")?,
            crate::analytic::inference::MAX_COUNT,
        )?,
        ties,
        exact: flag("exact")?,
        drop_short: flag("drop_short")?,
        shard: None,
    })
}

/// Checks that `inputs` are the N shards of one `samples curves` run (the same manifest but
/// for the shard, each shard once); returns N.
fn check_shards(inputs: &[(String, ReadTable)]) -> Result<u64> {
    let Some((first_file, first)) = inputs.first() else {
        return Err(Error::invalid("FILE", "at least one shard output", "none"));
    };
    let shard_of = |table: &ReadTable, file: &str| -> Result<Shard> {
        Shard::parse(parameter(table, file, "shard")?)
            .map_err(|_| Error::invalid("FILE", "a shard output with parameter shard K/N", file))
    };
    let count = shard_of(first, first_file)?.count;
    let mut seen = vec![false; count as usize];
    let want = identity(first);
    for (file, table) in inputs {
        let shard = shard_of(table, file)?;
        let have = identity(table);
        if have != want {
            let line = have
                .iter()
                .find(|l| !want.contains(l))
                .or_else(|| want.iter().find(|l| !have.contains(l)))
                .cloned()
                .unwrap_or_default();
            return Err(Error::invalid(
                "FILE",
                &format!(
                    "a shard of the same run as {first_file} (same command but --shard, version \
                     and commit)"
                ),
                format!("{file}, whose manifest differs at {line:?}"),
            ));
        }
        if shard.count != count {
            return Err(Error::invalid(
                "FILE",
                &format!("a shard K/{count}"),
                format!("{file} (shard {shard})"),
            ));
        }
        let slot = &mut seen[shard.index as usize - 1];
        if *slot {
            return Err(Error::invalid(
                "FILE",
                "each shard once",
                format!("{file} repeats shard {shard}"),
            ));
        }
        *slot = true;
    }
    if let Some(k) = seen.iter().position(|s| !s) {
        return Err(Error::invalid(
            "FILE",
            &format!("all {count} shards"),
            format!("shard {}/{count} missing", k + 1),
        ));
    }
    Ok(count)
}

/// One shard's table read back: its sums, the metrics in row order and the input summary.
fn read_shard(
    file: &str,
    table: &ReadTable,
    request: &CurvesRequest,
) -> Result<(Moments, Vec<Metric>, InputSummary)> {
    let index = COLUMNS
        .iter()
        .map(|name| {
            table.column(name).ok_or_else(|| {
                Error::invalid(
                    "FILE",
                    &format!("a samples curves shard with a {name} column"),
                    file,
                )
            })
        })
        .collect::<Result<Vec<usize>>>()?;
    let ks = request.ks.len();
    if ks == 0 || table.rows.is_empty() || !table.rows.len().is_multiple_of(ks) {
        return Err(Error::invalid(
            "FILE",
            &format!("a whole number of metrics' rows, {ks} (the budgets k) per metric"),
            format!("{file} with {} rows", table.rows.len()),
        ));
    }
    let metrics_count = table.rows.len() / ks;
    let mut moments = Moments::empty(metrics_count, ks, request.exact);
    let mut metrics = Vec::new();
    let mut summary: Option<(u64, u64, u64, String)> = None;
    for (r, (line, fields)) in table.rows.iter().enumerate() {
        let (m, i) = (r / ks, r % ks);
        let field = |c: usize| fields.get(index[c]).map(String::as_str).unwrap_or("");
        let bad = |c: usize, allowed: &str| {
            Error::invalid(
                &format!("{file}, line {line}, column {}", COLUMNS[c]),
                allowed,
                field(c).to_string(),
            )
        };
        let whole = |c: usize| {
            field(c)
                .parse::<u64>()
                .map_err(|_| bad(c, "a whole number"))
        };
        let rational = |c: usize| -> Result<BigRational> {
            parse_rational(field(c))
                .ok()
                .filter(|x| *x >= BigRational::from_integer(0.into()))
                .ok_or_else(|| bad(c, "an exact non-negative rational"))
        };
        let name = field(0);
        let metric = [
            Metric::PassAtK,
            Metric::PassAll,
            Metric::Majority,
            Metric::BestOfK,
        ]
        .into_iter()
        .find(|x| x.name() == name)
        .ok_or_else(|| bad(0, "pass_at_k, pass_all, majority or best_of_k"))?;
        if i == 0 {
            metrics.push(metric);
        } else if metrics[m] != metric {
            return Err(bad(
                0,
                &format!("{} (the metric of the rows before)", metrics[m].name()),
            ));
        }
        if whole(1)? != request.ks[i] {
            return Err(bad(
                1,
                &format!("{} (the manifest's k list, in order)", request.ks[i]),
            ));
        }
        let problems = whole(2)?;
        if r == 0 {
            moments.problems = problems;
        } else if problems != moments.problems {
            return Err(bad(
                2,
                &format!("{} (as on the shard's first row)", moments.problems),
            ));
        }
        moments.sum[m][i] = rational(3)?;
        moments.squares[m][i] = rational(4)?;
        if i + 1 < ks {
            moments.next[m][i] = rational(5)?;
        }
        moments.last[m][i] = rational(6)?;
        moments.relative[m][i] = field(7)
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && (0.0..1.0).contains(x))
            .ok_or_else(|| bad(7, "a relative bound in [0, 1)"))?;
        if let Some(exact) = &mut moments.exact {
            exact[m][i] = rational(8)?;
        }
        let here = (whole(9)?, whole(10)?, whole(11)?, field(12).to_string());
        match &summary {
            None => summary = Some(here),
            Some(s) if *s == here => {}
            Some(_) => {
                return Err(bad(
                    9,
                    "the same rows, used, dropped and input on every row of a shard",
                ));
            }
        }
    }
    let (rows, used, dropped, kind) = summary.unwrap_or_default();
    let input = InputSummary {
        source: request.source.path.display().to_string(),
        rows,
        per_sample: kind == "per-sample",
        problems: used,
        dropped,
    };
    Ok((moments, metrics, input))
}

/// The unsharded report of `samples curves` from its shards' sums.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` when the inputs are not the N shards of one run,
/// or the file, line and column of a malformed cell, or of shards that disagree on the input
/// (its rows, its problems, the metrics) or whose problems do not add up to the run's.
pub fn merge(inputs: &[(String, ReadTable)]) -> Result<Report> {
    check_shards(inputs)?;
    let (first_file, first) = &inputs[0];
    let request = request_of(first, first_file)?;
    let mut total: Option<(Moments, Vec<Metric>, InputSummary)> = None;
    for (file, table) in inputs {
        let (moments, metrics, input) = read_shard(file, table, &request)?;
        match &mut total {
            None => total = Some((moments, metrics, input)),
            Some((sum, m, i)) => {
                if *m != metrics || *i != input {
                    return Err(Error::invalid(
                        "FILE",
                        &format!(
                            "a shard of the same input as {first_file} (the same metrics, rows, \
                             problems used and dropped)"
                        ),
                        file,
                    ));
                }
                sum.add(&moments);
            }
        }
    }
    let (moments, metrics, input) = total.expect("at least one shard");
    if moments.problems != input.problems {
        return Err(Error::invalid(
            "FILE",
            &format!(
                "shards whose problems add up to the {} problems used",
                input.problems
            ),
            format!("{} problems", moments.problems),
        ));
    }
    let curves = Curves::from_moments(request.ks.clone(), metrics, moments);
    Ok(curves_report_of(&request, &input, &curves))
}
