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

/// `prefix --name value ...` for a cell's `(name, value)` options (`_` in a name written `-`).
pub(super) fn command_line(prefix: &str, args: &[(&str, &str)]) -> String {
    std::iter::once(prefix.to_string())
        .chain(
            args.iter()
                .map(|(n, v)| format!("--{} {v}", n.replace('_', "-"))),
        )
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
/// `lookahead`) after the path-sum ones; they share `quantity`, `steps` (lookahead's L),
/// `branching`, `depth` and `noise` with the older kinds.
pub(super) const INFERENCE_COLUMNS: [&str; 10] = [
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
];

/// The `mc inference` cells of the cross-validation, as the subcommand and its `(option,
/// value)` pairs (small: each costs well under a second): Stroebl et al.'s resampling
/// setting, Chen et al.'s two-type vote around its best k, best-of-n with wrong scores
/// reaching above the correct ones, and lookahead on a three-step solution.
pub(super) const INFERENCE_CELLS: [(&str, &[(&str, &str)]); 5] = [
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
    let index = ["k", "n", "d"]
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
