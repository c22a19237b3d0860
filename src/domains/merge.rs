//! `pathology merge` for the sampled real domains: the shards of one seeded `pathology domain
//! eight-puzzle | krk | kqk` run (Monte Carlo: Gaussian noise, `--method monte-carlo`, or
//! `auto` falling back to sampling) combined into the report of the unsharded run with the
//! same seed, byte for byte.
//!
//! A shard's per-depth totals (the `accuracy` table) are the sums of its rows split by the
//! root's true distance (every root has one: a non-goal state of the puzzle, a won position
//! of the endgame), so the merge reads the split table alone (`by_distance` of the puzzle,
//! `by_dtm` of the endgames: the table JSON shards are read at, and the one a CSV shard must
//! hold), sums its counts over the shards, rebuilds the engine's rows in the engine's order
//! and the rest of the result (the solved domain, the heuristic's range) from the manifest's
//! parameters, and calls the domain's report. The checks of the shards against each other are
//! the Monte Carlo engine's ([`crate::sim::report::check_shards`]), as for `mc` experiments.

use std::collections::BTreeMap;

use super::{chess, eight_puzzle};
use crate::error::{Error, Result};
use crate::report::Report;
use crate::report::read::ReadTable;
use crate::sim::report::{Manifest, McRun, Printed, RunConfig, check_printed, check_shards};
use crate::sim::stats::Proportion;

/// The domain experiments `merge` knows (their sampled runs).
pub const MERGEABLE: &[&str] = &["domain eight-puzzle", "domain krk", "domain kqk"];

/// The table of a domain's report that its shards are merged from (`None`: not a domain
/// experiment `merge` knows).
///
/// # Examples
///
/// ```
/// use pathology::domains::merge::shard_table;
/// assert_eq!(shard_table("domain eight-puzzle"), Some("by_distance"));
/// assert_eq!(shard_table("domain kqk"), Some("by_dtm"));
/// assert_eq!(shard_table("mc dgame"), None);
/// ```
pub fn shard_table(subcommand: &str) -> Option<&'static str> {
    match subcommand {
        "domain eight-puzzle" => Some("by_distance"),
        "domain krk" | "domain kqk" => Some("by_dtm"),
        _ => None,
    }
}

/// Merges the shards of one sampled domain run (each read at its [`shard_table`]: JSON, or
/// CSV written with `--table by_distance` / `--table by_dtm`) into the report of the
/// unsharded run.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` when an input is an exact (complete) output, an
/// unsharded one, a CSV of another table, or not a shard of the same run as the others (a
/// shard missing or repeated); naming the file and line when a row's counts are not whole
/// numbers, exceed the shard's trials or disagree with the estimates printed beside them.
pub fn merge(inputs: &[(String, ReadTable)]) -> Result<Report> {
    let Some((_, first)) = inputs.first() else {
        return Err(Error::invalid("FILE", "at least one shard output", "none"));
    };
    let subcommand = first.manifest_value("subcommand").unwrap_or("").to_string();
    let table = shard_table(&subcommand).ok_or_else(|| {
        Error::invalid(
            "FILE",
            &format!("the output of one of {}", MERGEABLE.join(", ")),
            &subcommand,
        )
    })?;
    for (file, read) in inputs {
        refuse_non_shards(file, read, &subcommand, table)?;
    }
    let manifest = check_shards(inputs)?;
    match subcommand.as_str() {
        "domain eight-puzzle" => merge_puzzle(&manifest, inputs),
        "domain krk" => merge_chess(chess::Piece::Rook, &manifest, inputs),
        _ => merge_chess(chess::Piece::Queen, &manifest, inputs),
    }
}

/// Refuses, by name, what is not a shard of a sampled domain run.
fn refuse_non_shards(file: &str, read: &ReadTable, subcommand: &str, table: &str) -> Result<()> {
    let allowed = format!(
        "a shard of a sampled {subcommand} run (with noise, written with --shard K/N and \
         --format json, or as CSV with --table {table})"
    );
    if read.manifest_value("subcommand") == Some(subcommand) {
        if read.manifest_value("mode") == Some("exact") {
            return Err(Error::invalid(
                "FILE",
                &allowed,
                format!("{file}, an exact {subcommand} output (complete: not a shard)"),
            ));
        }
        if read.manifest_value("parameter shard").is_none() {
            return Err(Error::invalid(
                "FILE",
                &allowed,
                format!("{file}, an unsharded output"),
            ));
        }
    }
    let key = if table == "by_distance" {
        "distance"
    } else {
        "dtm"
    };
    if read.manifest_value("subcommand") == Some(subcommand) && read.column(key).is_none() {
        return Err(Error::invalid(
            "FILE",
            &format!(
                "{allowed}; a CSV holds one table, so shard with --format json or --table {table}"
            ),
            format!("{file}, a CSV of another table"),
        ));
    }
    Ok(())
}

/// The `depth` parameter: the sorted depths.
fn depths(manifest: &Manifest) -> Result<Vec<u32>> {
    let text = manifest.get("depth")?;
    text.split(',')
        .map(|d| d.trim().parse::<u32>())
        .collect::<std::result::Result<Vec<u32>, _>>()
        .map_err(|_| {
            Error::invalid(
                "manifest parameter depth",
                "a comma-separated list of whole numbers",
                text,
            )
        })
}

/// The optional `levels` parameter.
fn levels(manifest: &Manifest) -> Result<Option<u32>> {
    match manifest.parameters.iter().any(|(n, _)| n == "levels") {
        true => manifest.number("levels").map(Some),
        false => Ok(None),
    }
}

/// The counts of every `(depth, key)` row (in the order of `counts`, the first the trials)
/// summed over the shards, each row checked: whole numbers, successes at most the trials, the
/// printed estimates those of the counts (`printed`), a depth of the run, no row twice, and
/// the trials of each depth summing to the shard's slice (every trial searches every depth
/// once, from a root of one key).
fn summed_rows(
    inputs: &[(String, ReadTable)],
    run_depths: &[u32],
    key: &str,
    counts: &[&str],
    printed: &dyn Fn(&[u64]) -> Vec<Printed>,
) -> Result<BTreeMap<(u32, u8), Vec<u64>>> {
    let mut sums: BTreeMap<(u32, u8), Vec<u64>> = BTreeMap::new();
    for (file, table) in inputs {
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
        let (d_column, key_column) = (column("d")?, column(key)?);
        let count_columns = counts
            .iter()
            .map(|n| column(n))
            .collect::<Result<Vec<_>>>()?;
        let mut per_depth: BTreeMap<u32, u64> = BTreeMap::new();
        let mut seen = std::collections::BTreeSet::new();
        for (line, fields) in &table.rows {
            let at = || format!("{file} line {line}");
            let field = |c: usize| fields.get(c).map(String::as_str).unwrap_or("");
            let depth = field(d_column)
                .parse::<u32>()
                .ok()
                .filter(|d| run_depths.contains(d))
                .ok_or_else(|| {
                    Error::invalid(
                        &at(),
                        &format!(
                            "a depth d of the run ({})",
                            manifest.get("depth").unwrap_or("")
                        ),
                        field(d_column),
                    )
                })?;
            let k = field(key_column).parse::<u8>().map_err(|_| {
                Error::invalid(&at(), &format!("a whole-number {key}"), field(key_column))
            })?;
            if !seen.insert((depth, k)) {
                return Err(Error::invalid(
                    &at(),
                    &format!("each (d, {key}) once"),
                    format!("d {depth}, {key} {k} again"),
                ));
            }
            let row = count_columns
                .iter()
                .map(|&c| {
                    field(c)
                        .parse::<u64>()
                        .map_err(|_| Error::invalid(&at(), "whole-number counts", field(c)))
                })
                .collect::<Result<Vec<u64>>>()?;
            if row[1..].iter().any(|&s| s > row[0]) {
                return Err(Error::invalid(
                    &at(),
                    "at most as many successes as trials",
                    row.iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                ));
            }
            check_printed(
                &at(),
                table,
                fields,
                counts,
                &row,
                &|c: &[u64], _: &dyn Fn(&str) -> Option<f64>| printed(c),
            )?;
            let total = per_depth.entry(depth).or_default();
            *total = total.saturating_add(row[0]);
            let sum = sums.entry((depth, k)).or_insert_with(|| vec![0; row.len()]);
            for (s, v) in sum.iter_mut().zip(&row) {
                *s = s
                    .checked_add(*v)
                    .ok_or_else(|| Error::invalid(&at(), "counts whose sums fit in 64 bits", v))?;
            }
        }
        for &d in run_depths {
            let total = per_depth.get(&d).copied().unwrap_or(0);
            if total != slice {
                return Err(Error::invalid(
                    "FILE",
                    &format!(
                        "rows of depth {d} with the shard's {slice} trials in all (shard {} of \
                         the manifest's {})",
                        manifest.shard, manifest.trials
                    ),
                    format!("{file} with {total}"),
                ));
            }
        }
    }
    Ok(sums)
}

fn proportion(successes: u64, trials: u64) -> Proportion {
    Proportion { successes, trials }
}

/// The printed cells of an interval column for `p`.
fn interval(column: &str, p: Proportion) -> Vec<Printed> {
    let c = (p.trials > 0).then(|| p.compare(None));
    Printed::interval(column, c.as_ref(), Some(p))
}

fn merge_puzzle(manifest: &Manifest, inputs: &[(String, ReadTable)]) -> Result<Report> {
    use eight_puzzle::{
        DomainReport, Evaluation, Heuristic, Method, Noise, Puzzle, PuzzleConfig, Rows, SampledRow,
    };
    let heuristic = Heuristic::parse(manifest.get("heuristic")?)?;
    let noise = Noise::parse(manifest.get("noise")?)?;
    let levels = levels(manifest)?;
    let depths = depths(manifest)?;
    let method = Method::parse(manifest.get("method")?)?;
    let fallback = match (&noise, method) {
        (Noise::Discrete(_), Method::Auto) => {
            let max = depths.iter().max().copied().unwrap_or(0) + 1;
            match eight_puzzle::exact_noisy_depth_refusal(max) {
                Some(why) => Some(why.to_string()),
                None => {
                    return Err(Error::invalid(
                        "FILE",
                        "shards of a run sampled for a reason merge can repeat (--method \
                         monte-carlo, Gaussian noise, or depths beyond the exact route's)",
                        "shards of --method auto with discrete noise sampled because of a time \
                         estimate; shard with --method monte-carlo",
                    ));
                }
            }
        }
        _ => None,
    };
    let sums = summed_rows(
        inputs,
        &depths,
        "distance",
        &["trials", "successes"],
        &|c| interval("correct", proportion(c[1], c[0])),
    )?;
    let puzzle = Puzzle::solve();
    let evaluation = Evaluation::new(&puzzle, heuristic, levels, &noise)?;
    let groups = usize::from(puzzle.max_distance()) + 1;
    if let Some(&(d, k)) = sums
        .keys()
        .find(|(_, k)| *k == 0 || usize::from(*k) >= groups)
    {
        return Err(Error::invalid(
            "FILE",
            &format!("rows of distances 1..={}", groups - 1),
            format!("d {d}, distance {k}"),
        ));
    }
    let mut rows = Vec::new();
    for &d in &depths {
        let counts = |k: u8| {
            sums.get(&(d, k))
                .map_or(Proportion::default(), |c| proportion(c[1], c[0]))
        };
        let mut total = Proportion::default();
        for k in 1..groups as u8 {
            total.trials += counts(k).trials;
            total.successes += counts(k).successes;
        }
        rows.push(SampledRow {
            depth: d,
            distance: None,
            correct: total,
        });
        for k in 1..groups as u8 {
            rows.push(SampledRow {
                depth: d,
                distance: Some(k),
                correct: counts(k),
            });
        }
    }
    let result = DomainReport {
        config: PuzzleConfig {
            heuristic,
            levels,
            noise,
            depths,
            method,
            run: RunConfig {
                trials: manifest.trials,
                seed: manifest.seed,
                threads: None,
                shard: None,
            },
        },
        rows: Rows::Sampled(rows),
        histogram: puzzle.histogram(),
        range: evaluation.range(),
        fallback,
    };
    Ok(eight_puzzle::report(&result))
}

fn merge_chess(
    piece: chess::Piece,
    manifest: &Manifest,
    inputs: &[(String, ReadTable)],
) -> Result<Report> {
    use chess::{DomainReport, DomainSettings, Endgame, EndgameFacts, Evaluation, Heuristic};
    use chess::{Noise, Rows, SampledRow};
    let heuristic = Heuristic::parse(manifest.get("heuristic")?)?;
    let noise = Noise::parse(manifest.get("noise")?)?;
    let levels = levels(manifest)?;
    let depths = depths(manifest)?;
    let sums = summed_rows(
        inputs,
        &depths,
        "dtm",
        &["trials", "keeps", "fastest"],
        &|c| {
            let mut cells = interval("keeps_win", proportion(c[1], c[0]));
            cells.extend(interval("fastest_win", proportion(c[2], c[0])));
            cells
        },
    )?;
    let endgame = Endgame::solve(piece);
    let evaluation = Evaluation::new(&endgame, heuristic, levels)?;
    let facts = EndgameFacts::of(&endgame);
    let buckets = facts.roots_by_dtm.len();
    if let Some(&(d, k)) = sums.keys().find(|(_, k)| usize::from(*k) >= buckets) {
        return Err(Error::invalid(
            "FILE",
            &format!("rows of DTMs 0..={}", buckets - 1),
            format!("d {d}, dtm {k}"),
        ));
    }
    let mut rows = Vec::new();
    for &d in &depths {
        let split: Vec<SampledRow> = sums
            .range((d, 0)..=(d, u8::MAX))
            .filter(|(_, c)| c[0] > 0)
            .map(|(&(_, k), c)| SampledRow {
                depth: d,
                dtm: Some(k),
                keep: proportion(c[1], c[0]),
                fastest: proportion(c[2], c[0]),
            })
            .collect();
        let mut keep = Proportion::default();
        let mut fastest = Proportion::default();
        for row in &split {
            keep.trials += row.keep.trials;
            keep.successes += row.keep.successes;
            fastest.trials += row.fastest.trials;
            fastest.successes += row.fastest.successes;
        }
        rows.push(SampledRow {
            depth: d,
            dtm: None,
            keep,
            fastest,
        });
        rows.extend(split);
    }
    let result = DomainReport {
        config: DomainSettings {
            piece,
            heuristic,
            levels,
            noise,
            depths,
            run: Some(McRun {
                trials: manifest.trials,
                seed: manifest.seed,
                shard: None,
            }),
        },
        facts,
        range: evaluation.range(),
        rows: Rows::Sampled(rows),
    };
    Ok(chess::report(&result))
}
