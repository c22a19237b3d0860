//! The rows of the cross-validation input that come from the newer `mc` commands (`mc
//! distributions`, `mc sum`, `mc inference`): their cells, columns and the CSV helpers, so
//! that [`super::steps::cross_validation`] stays a list of experiments.

use std::fmt::Write as _;

use super::Result;

/// The columns of the `crit` and `mvpgame` rows of the cross-validation input, after the
/// older kinds' (the kinds share `gamma`, `evaluator` and `e`).
pub(super) const DISTRIBUTION_COLUMNS: [&str; 11] = [
    "branching",
    "height",
    "depth",
    "root_gamma",
    "leaves",
    "p",
    "sigma",
    "halfwidth",
    "playout_formula",
    "levels",
    "range",
];

/// The `mc distributions` cells of the cross-validation, as `(option, value)` pairs of
/// `pathology mc distributions` (small trees: each costs well under a second).
pub(super) const DISTRIBUTION_CELLS: [&[(&str, &str)]; 5] = [
    &[
        ("game", "crit"),
        ("branching", "2"),
        ("height", "6"),
        ("gamma", "0.9"),
        ("evaluator", "gaussian"),
        ("sigma", "1"),
        ("levels", "12"),
    ],
    &[
        ("game", "crit"),
        ("branching", "3"),
        ("height", "5"),
        ("gamma", "1"),
        ("evaluator", "expected-playout"),
    ],
    &[
        ("game", "crit"),
        ("branching", "3"),
        ("height", "5"),
        ("gamma", "0.9,0.5"),
        ("root_gamma", "0.8"),
        ("evaluator", "artificial"),
        ("e", "0.2"),
    ],
    &[
        ("game", "p"),
        ("branching", "2"),
        ("height", "5"),
        ("leaves", "0:1/3,1:1/3,3:1/3"),
        ("evaluator", "uniform"),
        ("halfwidth", "1.5"),
        ("levels", "6"),
    ],
    &[
        ("game", "p"),
        ("branching", "3"),
        ("height", "4"),
        ("leaves", "0:1/4,1:1/2,2:1/4"),
        ("evaluator", "gaussian"),
        ("sigma", "0.5"),
        ("levels", "8"),
    ],
];

/// The columns of the `sum` rows of the cross-validation input, after the distributions'
/// (the `sum` rows share `evaluator`, `e`, `branching`, `height` and `depth`).
pub(super) const SUM_COLUMNS: [&str; 5] = ["step", "leaf", "terminal", "outcome", "noise"];

/// The `mc sum` cells of the cross-validation, as `(option, value)` pairs of `pathology mc
/// sum` (small trees: each costs well under a second): (a) value outcomes, steps ±1,
/// terminal nodes, additive noise; (b) the N-game case (sign outcomes, steps ±1 with q =
/// 0.6, the artificial evaluator) with terminal nodes; (c) b = 3, steps {-1, 0, 1}, leaf
/// terms ±1, the position evaluator.
pub(super) const SUM_CELLS: [&[(&str, &str)]; 3] = [
    &[
        ("branching", "2"),
        ("height", "5"),
        ("step", "1:1/2,-1:1/2"),
        ("leaf", "0"),
        ("terminal", "1/10"),
        ("evaluator", "additive"),
        ("noise", "-1:1/3,0:1/3,1:1/3"),
    ],
    &[
        ("branching", "2"),
        ("height", "5"),
        ("step", "1:0.6,-1:0.4"),
        ("terminal", "1/5"),
        ("outcome", "sign"),
        ("evaluator", "artificial"),
        ("e", "0.1"),
    ],
    &[
        ("branching", "3"),
        ("height", "4"),
        ("step", "-1:1/3,0:1/3,1:1/3"),
        ("leaf", "-1:1/2,1:1/2"),
        ("evaluator", "position"),
    ],
];

/// One `mc sum` cell: its rows in the cross-validation input's columns (values with a comma
/// quoted) and its command (without `--trials` and `--seed`).
pub(super) fn sum_rows(
    args: &[(&str, &str)],
    runner: &crate::sim::runner::TrialRunner,
) -> Result<(String, String)> {
    use crate::studies::crossval::pathsum::Experiment;
    use crate::studies::crossval::pathsum_report::{KIND, game_from_parameters};
    let game = game_from_parameters(args.iter().copied())?;
    let counts = Experiment::new(&game)?.counts(runner)?;
    let parameters = crate::analytic::pathsum::report::parameters(&game);
    let value = |name: &str| quoted_parameter(&parameters, name);
    let mut rows = String::new();
    for (depth, count) in (1..).zip(&counts) {
        let _ = write!(
            rows,
            "{KIND},,,,,,,,,,{},{},,{},{}",
            // A decimal (the nearest f64 to k/n, which `validate` reads back as k/n), as the
            // distribution rows.
            count.successes as f64 / count.trials as f64,
            count.trials,
            value("evaluator"),
            value("e"),
        );
        for column in DISTRIBUTION_COLUMNS {
            let cell = match column {
                "depth" => depth.to_string(),
                "branching" | "height" => value(column),
                _ => String::new(),
            };
            let _ = write!(rows, ",{cell}");
        }
        for column in SUM_COLUMNS {
            let _ = write!(rows, ",{}", value(column));
        }
        rows.push('\n');
    }
    Ok((rows, command_line("pathology mc sum", args)))
}

/// The value of parameter `name` as a CSV field (quoted when it holds a comma; empty when
/// absent).
pub(super) fn quoted_parameter(parameters: &[(String, String)], name: &str) -> String {
    parameters
        .iter()
        .find(|(n, _)| n == name)
        .map_or(String::new(), |(_, v)| {
            if v.contains(',') {
                format!("\"{v}\"")
            } else {
                v.clone()
            }
        })
}

/// `prefix --name value ...` for a cell's `(name, value)` options (`_` in a name written `-`;
/// a value `true` is a flag, written `--name` alone).
pub(super) fn command_line(prefix: &str, args: &[(&str, &str)]) -> String {
    std::iter::once(prefix.to_string())
        .chain(args.iter().map(|(n, v)| {
            let name = n.replace('_', "-");
            if *v == "true" {
                format!("--{name}")
            } else {
                format!("--{name} {v}")
            }
        }))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `csv` with every row padded with empty fields to the header's width, so that every row
/// has as many fields as the header (pandas and polars read it with default arguments).
pub(super) fn padded(csv: &str) -> String {
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(csv.as_bytes());
    let mut writer = ::csv::Writer::from_writer(Vec::new());
    let mut width = 0;
    for record in reader.records() {
        let record = record.expect("the cross-validation input is CSV");
        width = width.max(record.len());
        let mut fields: Vec<&str> = record.iter().collect();
        fields.resize(width, "");
        writer
            .write_record(&fields)
            .expect("writing CSV into memory");
    }
    String::from_utf8(writer.into_inner().expect("flushing into memory")).expect("UTF-8")
}

/// One `mc distributions` cell: its rows in the cross-validation input's columns (values
/// with a comma quoted) and its command (without `--trials` and `--seed`).
pub(super) fn distribution_rows(
    args: &[(&str, &str)],
    runner: &crate::sim::runner::TrialRunner,
) -> Result<(String, String)> {
    use crate::analytic::decision::GameOptions;
    use crate::studies::crossval::distributions::Experiment;
    use crate::studies::crossval::distributions_report::kind;
    let request = GameOptions::from_parameters(args.iter().copied())?.distribution_request()?;
    let counts = Experiment::new(&request)?.counts(runner)?;
    let parameters = request.parameters();
    let value = |name: &str| quoted_parameter(&parameters, name);
    let mut rows = String::new();
    for (depth, count) in (1..).zip(&counts) {
        let _ = write!(
            rows,
            "{},,,,,{},,,,,{},{},,{},{}",
            kind(&request),
            value("gamma"),
            // A decimal (the nearest f64 to k/n, which `validate` reads back as k/n), so
            // that CSV readers infer one numeric type for the column.
            count.successes as f64 / count.trials as f64,
            count.trials,
            value("evaluator"),
            value("e"),
        );
        for column in DISTRIBUTION_COLUMNS {
            let cell = if column == "depth" {
                depth.to_string()
            } else {
                value(column)
            };
            let _ = write!(rows, ",{cell}");
        }
        rows.push('\n');
    }
    Ok((rows, command_line("pathology mc distributions", args)))
}

/// The columns of the inference rows (`pass_at_k`, `resample`, `best_of_n`, `vote`,
/// `weighted_vote`, `lookahead`, `knockout`, `beam`) after the path-sum ones; they share
/// `quantity`, `steps` (lookahead's and beam's L), `branching`, `depth` and `noise` with the
/// older kinds. Each kind's list is its own column: `k`, `n`, `depth`, `r` (knockout's
/// rounds) or `beams` (beam's width M).
pub(super) const INFERENCE_COLUMNS: [&str; 14] = [
    "tasks",
    "completeness",
    "soundness",
    "k",
    "n",
    "score_correct",
    "score_wrong",
    "wrong_answers",
    "step_correct",
    "growth",
    "judge_correct",
    "judge_calls",
    "r",
    "beams",
];

/// The `mc inference` cells of the cross-validation, as the subcommand and its `(option,
/// value)` pairs (a value `true` is a flag; small: each costs well under a second):
/// Stroebl et al.'s resampling setting, Chen et al.'s two-type vote around its best k,
/// best-of-n with wrong scores reaching above the correct ones, lookahead on a three-step
/// solution, reward-weighted voting whose wrong answers can outweigh a correct majority,
/// knockout brackets at odd K and at even K (a tie a fair coin), and beam search over a
/// difficulty mix with a verifier whose noise grows with depth.
pub(super) const INFERENCE_CELLS: [(&str, &[(&str, &str)]); 9] = [
    (
        "pass-at-k",
        &[("tasks", "0.3:0.5,0.05:0.5"), ("k", "1,4,16")],
    ),
    (
        "resample",
        &[
            ("tasks", "0.87:0.58,0.13:0.42"),
            ("completeness", "1"),
            ("soundness", "0.75"),
            ("k", "1,2,5"),
        ],
    ),
    (
        "best-of-n",
        &[
            ("tasks", "0.4"),
            ("score_correct", "0:1/2,1:1/2"),
            ("score_wrong", "0:3/4,2:1/4"),
            ("n", "1,4,16"),
        ],
    ),
    (
        "vote",
        &[
            ("tasks", "0.7:0.6,0.4:0.4"),
            ("wrong_answers", "1"),
            ("k", "1,5,17"),
        ],
    ),
    (
        "lookahead",
        &[
            ("branching", "2"),
            ("steps", "3"),
            ("step_correct", "0.6"),
            ("noise", "-1:1/4,0:1/2,1:1/4"),
            ("depth", "1..3"),
        ],
    ),
    (
        "vote",
        &[
            ("tasks", "0.4"),
            ("wrong_answers", "0.5,0.5"),
            ("weighted", "true"),
            ("score_correct", "1:1/2,2:1/2"),
            ("score_wrong", "1:1/4,3:3/4"),
            ("k", "1,3,6"),
        ],
    ),
    (
        "knockout",
        &[
            ("tasks", "0.3:0.5,0.6:0.5"),
            ("judge_correct", "0.7"),
            ("judge_calls", "3"),
            ("rounds", "1..3"),
        ],
    ),
    (
        "knockout",
        &[
            ("tasks", "0.4"),
            ("judge_correct", "0.8"),
            ("judge_calls", "2"),
            ("rounds", "1,3"),
        ],
    ),
    (
        "beam",
        &[
            ("branching", "2"),
            ("steps", "3"),
            ("step_correct", "0.8:1/2,0.5:1/2"),
            ("noise", "-1:1/4,0:1/2,1:1/4"),
            ("growth", "1/2"),
            ("beams", "1..3"),
        ],
    ),
];

/// One `mc inference` cell: its rows in the cross-validation input's columns (values with a
/// comma quoted) and its command (without `--trials` and `--seed`).
pub(super) fn inference_rows(
    subcommand: &str,
    args: &[(&str, &str)],
    config: &crate::sim::report::RunConfig,
) -> Result<(String, String)> {
    use crate::analytic::inference::report::InferenceRequest;
    use crate::inference_sim::McInference;
    use crate::report::Cell;
    let request = InferenceRequest::from_options(subcommand, args)?;
    let report = McInference { request }.estimate(config)?;
    let table = &report.tables[0];
    let column = |name: &str| {
        table.column_index(name).ok_or_else(|| {
            super::ReproduceError::Internal(format!("mc inference has no column {name}"))
        })
    };
    let (kind, quantity, successes, trials) = (
        column("kind")?,
        column("quantity")?,
        column("successes")?,
        column("trials")?,
    );
    let index = ["k", "n", "d", "r", "beams"]
        .iter()
        .find_map(|name| table.column_index(name))
        .ok_or_else(|| super::ReproduceError::Internal("mc inference has no index".into()))?;
    let index_name = table.columns[index].name.clone();
    let text = Cell::message_text;
    let count = |cell: &Cell| match cell {
        Cell::Integer(i) => u64::try_from(*i).unwrap_or(0),
        _ => 0,
    };
    let parameters: Vec<(String, String)> = args
        .iter()
        .map(|(n, v)| ((*n).to_string(), (*v).to_string()))
        .collect();
    let value = |name: &str| quoted_parameter(&parameters, name);
    let mut rows = String::new();
    for row in &table.rows {
        let (s, n) = (count(&row[successes]), count(&row[trials]));
        let position = text(&row[index]);
        let _ = write!(
            rows,
            "{},,,,,,,{},{},,{},{},,,",
            text(&row[kind]),
            value("steps"),
            text(&row[quantity]),
            // A decimal (the nearest f64 to k/n, which `validate` reads back as k/n), as the
            // distribution rows.
            s as f64 / n as f64,
            n,
        );
        for column in DISTRIBUTION_COLUMNS {
            let cell = match column {
                "branching" => value("branching"),
                "depth" if index_name == "d" => position.clone(),
                _ => String::new(),
            };
            let _ = write!(rows, ",{cell}");
        }
        for column in SUM_COLUMNS {
            let cell = if column == "noise" {
                value("noise")
            } else {
                String::new()
            };
            let _ = write!(rows, ",{cell}");
        }
        for column in INFERENCE_COLUMNS {
            let cell = if column == index_name {
                position.clone()
            } else {
                value(column)
            };
            let _ = write!(rows, ",{cell}");
        }
        rows.push('\n');
    }
    Ok((
        rows,
        command_line(&format!("pathology mc inference {subcommand}"), args),
    ))
}

/// The columns of the `samples` rows after the inference ones (they share `k`).
pub(super) const SAMPLES_COLUMNS: [&str; 3] = ["file", "metric", "ties"];

/// The shipped example evaluation logs (five problems of eight samples, with ties of votes
/// and of scores and abstentions) that the `mc samples` cells draw from, as the rows name
/// them; their text is built in, so that `reproduce` runs them wherever it runs.
pub(super) const SAMPLES_FILE: &str = "tests/data/samples/votes.csv";

/// The text of [`SAMPLES_FILE`].
pub(super) const SAMPLES_TEXT: &str = include_str!("../../tests/data/samples/votes.csv");

/// The `mc samples` cells of the cross-validation, as the k list and `--ties`: every metric
/// at budgets 1 to 8 (k = 8 takes all of a problem's samples: pass_at_k 1 and pass_all 0
/// exactly), and ties scored wrong at k = 3 and 5.
pub(super) const SAMPLES_CELLS: [(&str, &str); 2] = [("1,2,4,8", "uniform"), ("3,5", "wrong")];

/// One `mc samples` cell on [`SAMPLES_FILE`]: its rows in the cross-validation input's
/// columns and its command (without `--trials` and `--seed`).
pub(super) fn samples_rows(
    ks: &str,
    ties: &str,
    config: &crate::sim::report::RunConfig,
) -> Result<(String, String)> {
    use crate::report::Cell;
    use crate::samples::curves::Ties;
    use crate::samples::input::{Columns, InputFormat, read_text};
    use crate::samples::report::Source;
    use crate::samples::simulate::McSamples;
    let columns = Columns::default();
    let samples = read_text(SAMPLES_FILE, SAMPLES_TEXT, InputFormat::Csv, &columns)?;
    let experiment = McSamples {
        source: Source {
            path: SAMPLES_FILE.into(),
            format: None,
            columns,
        },
        ks: crate::analytic::inference::parse_list("--k", ks, 64)?,
        ties: if ties == "wrong" {
            Ties::Wrong
        } else {
            Ties::Uniform
        },
        drop_short: false,
        file_hash: None,
    };
    let hash = crate::analytic::distributions::fnv1a64(SAMPLES_TEXT.as_bytes());
    let report = experiment.estimate_read(samples, hash, config)?;
    let table = &report.tables[0];
    let column = |name: &str| {
        table.column_index(name).ok_or_else(|| {
            super::ReproduceError::Internal(format!("mc samples has no column {name}"))
        })
    };
    let (metric, k, successes, trials) = (
        column("metric")?,
        column("k")?,
        column("successes")?,
        column("trials")?,
    );
    let count = |cell: &Cell| match cell {
        Cell::Integer(i) => u64::try_from(*i).unwrap_or(0),
        _ => 0,
    };
    let mut rows = String::new();
    for row in &table.rows {
        let (s, n) = (count(&row[successes]), count(&row[trials]));
        // A decimal (the nearest f64 to k/n, which `validate` reads back as k/n), as the
        // other rows.
        let _ = write!(rows, "samples,,,,,,,,,,{},{n},,,", s as f64 / n as f64);
        for _ in DISTRIBUTION_COLUMNS.iter().chain(&SUM_COLUMNS) {
            rows.push(',');
        }
        for name in INFERENCE_COLUMNS {
            rows.push(',');
            if name == "k" {
                rows.push_str(&Cell::message_text(&row[k]));
            }
        }
        let _ = writeln!(
            rows,
            ",{SAMPLES_FILE},{},{ties}",
            Cell::message_text(&row[metric])
        );
    }
    Ok((
        rows,
        format!("pathology mc samples {SAMPLES_FILE} --k {ks} --ties {ties}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `mc samples` rows are `validate`'s input as they are written, under the full
    /// header of the cross-validation input; each agrees with its exact value, and the
    /// certain ones (pass_at_k = 1, pass_all = 0 at k = 8) are drawn exactly.
    #[test]
    fn samples_cells_are_validated_against_the_exact_curves() {
        let mut csv = String::from(
            "kind,h,d,f1,f2,gamma,delta,steps,quantity,w,estimate,trials,b,evaluator,e,",
        );
        for names in [
            &DISTRIBUTION_COLUMNS[..],
            &SUM_COLUMNS[..],
            &INFERENCE_COLUMNS[..],
        ] {
            csv.push_str(&names.join(","));
            csv.push(',');
        }
        csv.push_str(&SAMPLES_COLUMNS.join(","));
        csv.push('\n');
        for (i, (ks, ties)) in SAMPLES_CELLS.iter().enumerate() {
            let config = crate::sim::report::RunConfig {
                trials: 2000,
                seed: 5 + i as u64,
                threads: Some(1),
                shard: None,
            };
            let (rows, command) = samples_rows(ks, ties, &config).unwrap();
            assert!(
                command.ends_with(&format!("--k {ks} --ties {ties}")),
                "{command}"
            );
            csv.push_str(&rows);
        }
        let csv = padded(&csv);
        let report = crate::validate::validate_with_files(
            csv.as_bytes(),
            0.05,
            &[(SAMPLES_FILE, SAMPLES_TEXT)],
        )
        .unwrap();
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        assert_eq!(report.rows.len(), 4 * 4 + 4 * 2);
        assert!(report.rows.iter().all(|r| r.z.abs() < 4.5), "{report:?}");
        let certain: Vec<_> = report
            .rows
            .iter()
            .filter(|r| r.exact == 0.0 || r.exact == 1.0)
            .collect();
        assert_eq!(certain.len(), 2);
        assert!(certain.iter().all(|r| r.estimate == r.exact && r.z == 0.0));
    }
}
