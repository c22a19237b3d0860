//! `pathology inference beam` and `mc inference beam`: width 1 is greedy lookahead, a
//! difficulty mix is the weighted average of its types, the spend and best-of-N at equal
//! compute are what `inference best-of-n` computes at the matched N (a fractional N the
//! stated mix of its two neighbours), the simulation agrees with the exact values and its
//! shards merge, `validate` reads its rows, and bad input is refused naming the option.

use num_rational::BigRational;
use serde_json::Value;

use super::common::{
    ShardManifests, json_of, pathology, refused, rows_of, stdout_of, write_shards,
};

/// A finite noise law whose shifted copy (the correct prefixes' scores) is easy to write.
const NOISE: &str = "-1:1/4,0:1/2,1:1/4";
const CORRECT: &str = "0:1/4,1:1/2,2:1/4";

fn exact(cell: &Value) -> BigRational {
    let text = cell
        .as_str()
        .unwrap_or_else(|| panic!("an exact cell: {cell}"));
    text.parse().unwrap()
}

fn search(command: &str, list: &str, values: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "inference",
        command,
        "--branching",
        "3",
        "--steps",
        "4",
        "--noise",
        NOISE,
        "--growth",
        "1/2",
        list,
        values,
        "--exact",
        "--format",
        "json",
    ];
    args.extend(extra);
    if !extra.contains(&"--step-correct") {
        args.extend(["--step-correct", "0.7"]);
    }
    json_of(&args)
}

#[test]
fn width_one_is_greedy_lookahead_exactly() {
    let beam = rows_of(&search("beam", "--beams", "1,2", &[]));
    let greedy = rows_of(&search("lookahead", "--depth", "1", &[]));
    assert_eq!(
        exact(&beam[0]["P_correct_exact"]),
        exact(&greedy[0]["P_correct_exact"])
    );
    // The spend of width 1 and depth 1 is the same: L B steps and calls.
    for column in [
        "steps",
        "verifier_calls",
        "cost",
        "best_of_n_equal_steps_exact",
    ] {
        assert_eq!(beam[0][column], greedy[0][column], "{column}");
    }
    assert_eq!(beam[1]["steps"], 24, "{}", beam[1]);
}

#[test]
fn a_difficulty_mix_is_the_weighted_average_of_its_types() {
    for (command, list, values) in [("beam", "--beams", "1,2"), ("lookahead", "--depth", "1,3")] {
        let mixed = rows_of(&search(
            command,
            list,
            values,
            &["--step-correct", "0.9:1/4,0.5:3/4"],
        ));
        let easy = rows_of(&search(command, list, values, &["--step-correct", "0.9"]));
        let hard = rows_of(&search(command, list, values, &["--step-correct", "0.5"]));
        let quarter: BigRational = "1/4".parse().unwrap();
        let three: BigRational = "3/4".parse().unwrap();
        for i in 0..2 {
            for column in ["P_correct_exact", "best_of_n_equal_calls_exact"] {
                let average = &quarter * exact(&easy[i][column]) + &three * exact(&hard[i][column]);
                assert_eq!(
                    exact(&mixed[i][column]),
                    average,
                    "{command} {column} row {i}"
                );
            }
        }
    }
}

/// Best-of-n with `tasks` at `ns`, exactly, from `pathology inference best-of-n`.
fn best_of_n(tasks: &str, ns: &str) -> Vec<BigRational> {
    rows_of(&json_of(&[
        "inference",
        "best-of-n",
        "--tasks",
        tasks,
        "--score-correct",
        CORRECT,
        "--score-wrong",
        NOISE,
        "--n",
        ns,
        "--exact",
        "--format",
        "json",
    ]))
    .iter()
    .map(|r| exact(&r["P_correct_exact"]))
    .collect()
}

#[test]
fn best_of_n_at_equal_compute_is_best_of_n_at_the_matched_n() {
    // B = 2, L = 3, d = 2: 6 + 6 + 2 = 14 generated steps (N = 14/3: 4 samples and a fifth
    // with probability 2/3), 4 + 4 + 2 = 10 calls; cost 14 + 10 = 24 at unit prices, N =
    // 24 / (3 + 1) = 6. A correct solution has probability 0.6^3 = 27/125.
    let report = json_of(&[
        "inference",
        "lookahead",
        "--branching",
        "2",
        "--steps",
        "3",
        "--step-correct",
        "0.6",
        "--noise",
        NOISE,
        "--depth",
        "2",
        "--exact",
        "--format",
        "json",
    ]);
    let row = &rows_of(&report)[0];
    assert_eq!(
        (row["steps"].as_i64(), row["verifier_calls"].as_i64()),
        (Some(14), Some(10))
    );
    assert_eq!(exact(&row["n_equal_steps_exact"]), "14/3".parse().unwrap());
    let p = best_of_n("27/125", "4,5,6,10");
    let third: BigRational = "1/3".parse().unwrap();
    let two_thirds: BigRational = "2/3".parse().unwrap();
    assert_eq!(
        exact(&row["best_of_n_equal_steps_exact"]),
        &third * &p[0] + &two_thirds * &p[1]
    );
    assert_eq!(exact(&row["best_of_n_equal_cost_exact"]), p[2]);
    assert_eq!(exact(&row["best_of_n_equal_calls_exact"]), p[3]);
    // Prices: a call costs 3 steps: cost 14 + 30 = 44, N = 44 / (3 + 3).
    let priced = json_of(&[
        "inference",
        "lookahead",
        "--branching",
        "2",
        "--steps",
        "3",
        "--step-correct",
        "0.6",
        "--noise",
        NOISE,
        "--depth",
        "2",
        "--cost-sample",
        "1",
        "--cost-verifier",
        "3",
        "--exact",
        "--format",
        "json",
    ]);
    let row = &rows_of(&priced)[0];
    assert_eq!(row["cost"].as_f64(), Some(44.0), "{row}");
    assert_eq!(exact(&row["n_equal_cost_exact"]), "22/3".parse().unwrap());
}

/// The comparison that motivates equal compute: depth-1 lookahead against best-of-N with
/// B = 4, L = 5, Q = 0.8 and gaussian:1 wins at equal generated steps (N = 4) and loses at
/// equal verifier calls (N = 20).
#[test]
fn depth_one_lookahead_wins_at_equal_steps_and_loses_at_equal_calls() {
    let report = json_of(&[
        "inference",
        "lookahead",
        "--branching",
        "4",
        "--steps",
        "5",
        "--step-correct",
        "0.8",
        "--noise",
        "gaussian:1",
        "--depth",
        "1",
        "--format",
        "json",
    ]);
    let row = &rows_of(&report)[0];
    let value = |c: &str| row[c].as_f64().unwrap();
    assert_eq!(row["n_equal_steps"].as_f64(), Some(4.0), "{row}");
    assert_eq!(row["n_equal_calls"].as_f64(), Some(20.0), "{row}");
    assert!(value("best_of_n_equal_steps") < value("P_correct"), "{row}");
    assert!(value("P_correct") < value("best_of_n_equal_calls"), "{row}");
    // The f64 values agree with exact within their bounds.
    let exact_report = json_of(&[
        "inference",
        "lookahead",
        "--branching",
        "4",
        "--steps",
        "5",
        "--step-correct",
        "0.8",
        "--noise",
        "gaussian:1",
        "--depth",
        "1",
        "--exact",
        "--format",
        "json",
    ]);
    let exact_row = &rows_of(&exact_report)[0];
    for column in [
        "P_correct",
        "best_of_n_equal_steps",
        "best_of_n_equal_calls",
    ] {
        let e = exact(&exact_row[format!("{column}_exact")]);
        let as_f64 = pathology::numeric::number::rational_to_f64(&e);
        let bound = row[format!("{column}_error_bound")].as_f64().unwrap();
        assert!(
            (as_f64 - value(column)).abs() <= bound.max(1e-300),
            "{column}"
        );
    }
}

#[test]
fn the_simulation_agrees_and_its_shards_merge() {
    let base = [
        "mc",
        "inference",
        "beam",
        "--branching",
        "3",
        "--steps",
        "4",
        "--step-correct",
        "0.8:1/2,0.6:1/2",
        "--noise",
        "gaussian:1",
        "--growth",
        "1/4",
        "--beams",
        "1,3",
        "--trials",
        "3001",
        "--seed",
        "11",
    ];
    let report = json_of(&[&base[..], &["--format", "json"]].concat());
    let rows = rows_of(&report);
    assert_eq!(rows.len(), 4);
    for row in &rows {
        assert_eq!(row["verdict"], "no difference detected", "{row}");
        assert_eq!(row["trials"], 3001, "{row}");
    }
    // Same seed, another thread count: the same output.
    assert_eq!(
        stdout_of(&[&base[..], &["--threads", "1"]].concat()),
        stdout_of(&[&base[..], &["--threads", "2"]].concat())
    );
    let dir = tempfile::tempdir().unwrap();
    let paths = write_shards(
        &base,
        &[],
        dir.path(),
        "beam",
        ShardManifests::InlineAndSidecar,
    );
    for format in ["text", "csv"] {
        assert_eq!(
            stdout_of(&["merge", &paths[2], &paths[0], &paths[1], "--format", format]),
            stdout_of(&[&base[..], &["--format", format]].concat()),
            "{format}"
        );
    }
    // validate reads the rows as they are.
    let csv = stdout_of(&[&base[..], &["--format", "csv"]].concat());
    let file = super::common::temp_file(csv);
    let checked = stdout_of(&["validate", file.path().to_str().unwrap()]);
    assert!(
        checked.contains("4 rows checked, 0 malformed") && checked.contains("0 with Holm"),
        "{checked}"
    );
}

#[test]
fn bad_input_is_refused_naming_the_option() {
    let with = |replace: &str, value: &'static str| -> Vec<&'static str> {
        let mut args = vec![
            "inference",
            "beam",
            "--branching",
            "3",
            "--steps",
            "4",
            "--step-correct",
            "0.7",
            "--noise",
            "gaussian:1",
            "--beams",
            "2",
        ];
        match args.iter().position(|a| *a == replace) {
            Some(i) => args[i + 1] = value,
            None => {
                args.push(Box::leak(replace.to_string().into_boxed_str()));
                args.push(value);
            }
        }
        args
    };
    let cases: [(&str, &'static str, &[&str]); 9] = [
        ("--beams", "0", &["--beams must be", "got 0"]),
        ("--branching", "1", &["--branching", "2"]),
        ("--step-correct", "1.5", &["--step-correct", "[0, 1]"]),
        (
            "--step-correct",
            "0.9:0.5,0.5:0.4",
            &["--step-correct", "summing to exactly 1"],
        ),
        ("--noise", "gaussian:0", &["--noise", "S > 0"]),
        ("--noise", "gaussian:-1", &["--noise", "S > 0"]),
        ("--growth", "-1", &["--growth", "at least 0"]),
        ("--cost-sample", "-1", &["--cost-sample", "at least 0"]),
        ("--beams", "5000", &["--beams must be", "4096"]),
    ];
    for (option, value, mentions) in cases {
        refused(&with(option, value), mentions);
    }
    let mut both_free = with("--cost-sample", "0");
    both_free.extend(["--cost-verifier", "0"]);
    refused(&both_free, &["--cost-sample", "positive"]);
    // Too large: refused up front with the estimate, in both modes.
    for extra in [&[][..], &["--exact"][..]] {
        let start = std::time::Instant::now();
        let mut args = with("--beams", "4096");
        let at = args.iter().position(|a| *a == "--branching").unwrap();
        args[at + 1] = "1024";
        args.extend(extra);
        pathology()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicates::str::contains("beam search"))
            .stderr(predicates::str::contains("would need"));
        assert!(start.elapsed().as_secs() < 10);
    }
}
