//! Second check from the command line: `mc inference` runs each strategy of
//! `pathology inference` literally at a fixed seed (pinned counts, every row agreeing with
//! the exact value after Holm, the same output for any thread count), its exact column is
//! `pathology inference`'s, its shards merge byte for byte, and bad input is refused naming
//! the option before any trial.

use crate::common::{
    ShardManifests, json_of, pathology, refused, rows_of, stdout_of, table_rows, write_shards,
};

/// One experiment per strategy: its subcommand, options, and the counts pinned at seed 11,
/// 4000 trials, one thread (rows in the order printed).
const RUNS: [(&str, &[&str], &[u64]); 5] = [
    (
        "pass-at-k",
        &["--tasks", "0.87:0.58,0.13:0.42", "--k", "1,2,5,10"],
        &[2224, 2652, 3101, 3554],
    ),
    (
        "resample",
        &[
            "--tasks",
            "0.87:0.58,0.13:0.42",
            "--completeness",
            "0.9",
            "--soundness",
            "0.75",
            "--k",
            "1..3",
        ],
        &[1992, 402, 1606, 2461, 654, 885, 2606, 827, 567],
    ),
    (
        "best-of-n",
        &[
            "--tasks",
            "0.3:0.5,0.7:0.5",
            "--score-correct",
            "0:0.5,1:0.5",
            "--score-wrong",
            "0:0.3,1:0.6,2:0.1",
            "--n",
            "1,2,8",
        ],
        &[2025, 1830, 1374],
    ),
    (
        "vote",
        &[
            "--tasks",
            "0.45:0.5,0.7:0.5",
            "--wrong-answers",
            "0.5,0.5",
            "--k",
            "1..4",
        ],
        &[2328, 2310, 2616, 2736],
    ),
    (
        "lookahead",
        &[
            "--branching",
            "2",
            "--steps",
            "3",
            "--step-correct",
            "0.6",
            "--noise",
            "0:1/2,1:1/2",
            "--growth",
            "1/2",
            "--depth",
            "1..3",
        ],
        &[1536, 3099, 1451, 2786, 1409, 2816, 2390],
    ),
];

fn args<'a>(
    prefix: &[&'a str],
    subcommand: &'a str,
    options: &[&'a str],
    more: &[&'a str],
) -> Vec<&'a str> {
    [prefix, &[subcommand], options, more].concat()
}

/// The exact value `pathology inference` prints for a row of `mc inference`.
fn exact_of(inference: &serde_json::Value, row: &serde_json::Value) -> f64 {
    let table = |name: &str| table_rows(inference, name);
    let kind = row["kind"].as_str().unwrap();
    let quantity = row["quantity"].as_str().unwrap();
    let index = ["k", "n", "d"]
        .into_iter()
        .find(|i| row.get(*i).is_some())
        .unwrap();
    let rows = table(kind);
    let column = match quantity {
        "correct" => "P_correct",
        "false_positive" => "P_false_positive",
        "none" => "P_none",
        "first_decision" => "first_decision",
        _ => "best_of_n",
    };
    let at = rows
        .iter()
        .find(|r| quantity == "best_of_n" || r[index] == row[index])
        .unwrap();
    at[column].as_f64().unwrap()
}

/// Pinned counts at seed 11; every row agrees with the exact value after Holm (and |z| < 4);
/// the exact column is `pathology inference`'s; threads do not matter.
#[test]
fn every_strategy_agrees_with_the_exact_values_at_a_fixed_seed() {
    for (subcommand, options, pinned) in RUNS {
        let run = args(
            &["mc", "inference"],
            subcommand,
            options,
            &["--trials", "4000", "--seed", "11"],
        );
        let report = json_of(&[&run[..], &["--format", "json", "--threads", "1"]].concat());
        let rows = rows_of(&report);
        let exact = json_of(&args(
            &["inference"],
            subcommand,
            options,
            &["--format", "json"],
        ));
        let counts: Vec<u64> = rows
            .iter()
            .map(|r| r["successes"].as_u64().unwrap())
            .collect();
        assert_eq!(counts, pinned, "{subcommand}");
        for row in &rows {
            assert_eq!(row["trials"].as_u64().unwrap(), 4000);
            assert_eq!(row["verdict"], "no difference detected", "{row}");
            assert!(row["z"].as_f64().unwrap().abs() < 4.0, "{row}");
            assert_eq!(
                row["exact"].as_f64().unwrap(),
                exact_of(&exact, row),
                "{row}"
            );
        }
        let csv = |threads: &str| {
            let out = stdout_of(&[&run[..], &["--format", "csv", "--threads", threads]].concat());
            out.lines()
                .filter(|l| !l.starts_with("# command"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(csv("1"), csv("2"), "{subcommand}");
    }
}

/// A literal check of the tie-breaks: with every score equal, best-of-n picks one of n
/// samples regardless of their answers, so it is correct with probability R at every n (a
/// rule that preferred a correct tied sample would climb toward pass-at-n, one that
/// preferred a wrong one would fall toward R^n); and a vote of two labels tied at one vote
/// each is a coin toss (1/4 + 1/2 x 1/2, not 3/4 or 1/4).
#[test]
fn ties_are_broken_uniformly() {
    let report = json_of(&[
        "mc",
        "inference",
        "best-of-n",
        "--tasks",
        "0.3",
        "--score-correct",
        "0",
        "--score-wrong",
        "0",
        "--n",
        "1,4,16",
        "--trials",
        "20000",
        "--seed",
        "6",
        "--format",
        "json",
    ]);
    for row in rows_of(&report) {
        assert!(
            (row["exact"].as_f64().unwrap() - 0.3).abs() < 1e-12,
            "{row}"
        );
        assert_eq!(row["verdict"], "no difference detected", "{row}");
    }
    let vote = json_of(&[
        "mc",
        "inference",
        "vote",
        "--tasks",
        "0.5",
        "--k",
        "2",
        "--trials",
        "20000",
        "--seed",
        "6",
        "--format",
        "json",
    ]);
    let row = &rows_of(&vote)[0];
    assert!(
        (row["exact"].as_f64().unwrap() - 0.5).abs() < 1e-12,
        "{row}"
    );
    assert_eq!(row["verdict"], "no difference detected", "{row}");
}

/// Shards merge into the unsharded run, byte for byte, in every format (resample's payoff
/// table and lookahead's baseline row included).
#[test]
fn shards_merge_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let resample = args(
        &["mc", "inference"],
        "resample",
        RUNS[1].1,
        &[
            "--false-positive-value",
            "-1/2",
            "--trials",
            "1201",
            "--seed",
            "4",
        ],
    );
    let lookahead = args(
        &["mc", "inference"],
        "lookahead",
        RUNS[4].1,
        &["--trials", "601", "--seed", "4"],
    );
    for (name, base) in [("resample", resample), ("lookahead", lookahead)] {
        // Shard 1 is CSV with its manifest inline, shard 3 plain CSV with its sidecar.
        let paths = write_shards(
            &base,
            &[],
            dir.path(),
            name,
            ShardManifests::InlineAndSidecar,
        );
        for format in ["text", "json", "csv"] {
            assert_eq!(
                stdout_of(&["merge", &paths[2], &paths[0], &paths[1], "--format", format]),
                stdout_of(&[&base[..], &["--format", format]].concat()),
                "{name} {format}"
            );
        }
        refused(
            &["merge", &paths[0], &paths[1]],
            &["FILE", "shard 3/3 missing"],
        );
    }
}

/// Bad input is refused naming the option, exit 2, before any trial; a run too large is
/// refused with its estimate.
#[test]
fn bad_input_is_refused_naming_the_option() {
    let trials = ["--trials", "10"];
    let cases: [(&[&str], &[&str]); 8] = [
        (
            &["pass-at-k", "--tasks", "0.5", "--k", "0"],
            &["--k must be", "got 0"],
        ),
        (
            &["vote", "--tasks", "0.5:0.5,0.2:0.4", "--k", "3"],
            &["--tasks must be shares summing to exactly 1"],
        ),
        (
            &[
                "resample",
                "--tasks",
                "0.5",
                "--completeness",
                "1.5",
                "--soundness",
                "1",
                "--k",
                "2",
            ],
            &["--completeness", "1.5"],
        ),
        (
            &[
                "best-of-n",
                "--tasks",
                "0.5",
                "--score-correct",
                "1:1/2",
                "--score-wrong",
                "0",
                "--n",
                "2",
            ],
            &["--score-correct", "summing to exactly 1"],
        ),
        (
            &[
                "vote",
                "--tasks",
                "0.5",
                "--wrong-answers",
                "0.5,0.4",
                "--k",
                "2",
            ],
            &["--wrong-answers"],
        ),
        (
            &[
                "lookahead",
                "--branching",
                "1",
                "--steps",
                "3",
                "--step-correct",
                "0.5",
                "--noise",
                "0",
                "--depth",
                "1",
            ],
            &["--branching", "2..=1024"],
        ),
        (
            &[
                "lookahead",
                "--branching",
                "2",
                "--steps",
                "3",
                "--step-correct",
                "0.5",
                "--noise",
                "0",
                "--depth",
                "4",
            ],
            &["--depth", "1..=3"],
        ),
        (
            &[
                "pass-at-k",
                "--tasks",
                "0.5",
                "--k",
                "2",
                "--table",
                "payoff",
            ],
            &["--table must be one of estimates", "payoff"],
        ),
    ];
    for (options, mentions) in cases {
        refused(
            &[&["mc", "inference"][..], options, &trials].concat(),
            mentions,
        );
    }
    // Literal lookahead at B = 8, L = 12, d = 11 scores 8^10 leaves per candidate.
    refused(
        &[
            "mc",
            "inference",
            "lookahead",
            "--branching",
            "8",
            "--steps",
            "12",
            "--step-correct",
            "0.6",
            "--noise",
            "gaussian:1",
            "--depth",
            "1..11",
            "--trials",
            "1000",
        ],
        &["draws per trial", "refused", "--trials"],
    );
    // d = 20 at L = 20: one trial alone is over the limit, and the refusal names --depth.
    refused(
        &[
            "mc",
            "inference",
            "lookahead",
            "--branching",
            "8",
            "--steps",
            "20",
            "--step-correct",
            "0.6",
            "--noise",
            "gaussian:1",
            "--depth",
            "20",
            "--trials",
            "1",
        ],
        &["one trial of mc inference lookahead", "refused", "--depth"],
    );
    let out = pathology()
        .args([
            "mc",
            "inference",
            "pass-at-k",
            "--tasks",
            "0",
            "--k",
            "1000000000000",
            "--trials",
            "10",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "nothing printed before the refusal");
}

/// `validate` reads `mc inference`'s CSV as it is (every row agrees), and a researcher's
/// measured curve (successes and trials, or an estimate) against the model: a row biased by
/// many standard errors is the one flagged, a quantity the kind does not have is malformed.
#[test]
fn validate_reads_measured_curves_of_every_kind() {
    let dir = tempfile::tempdir().unwrap();
    for (subcommand, options, pinned) in RUNS {
        let run = args(
            &["mc", "inference"],
            subcommand,
            options,
            &["--trials", "4000", "--seed", "11"],
        );
        let csv = stdout_of(&[&run[..], &["--format", "csv"]].concat());
        let path = dir.path().join(format!("{subcommand}.csv"));
        std::fs::write(&path, csv).unwrap();
        let out = stdout_of(&["validate", path.to_str().unwrap()]);
        assert!(
            out.contains(&format!("{} rows checked, 0 malformed;", pinned.len()))
                && out.contains("disagree without correction, 0 with Holm's"),
            "{subcommand}: {out}"
        );
    }
    // Stroebl et al.'s setting measured by hand: P_correct at k = 1 is 0.87 x 0.58 + 0.13 x
    // 0.42 = 0.5592 and at k = 4 is 0.68765...; the last row claims 0.75 from 10000 trials.
    let measured = "kind,tasks,completeness,soundness,k,quantity,successes,trials,estimate\n\
        resample,\"0.87:0.58,0.13:0.42\",1,0.75,1,correct,5600,10000,\n\
        resample,\"0.87:0.58,0.13:0.42\",1,0.75,1,none,,10000,0.3301\n\
        resample,\"0.87:0.58,0.13:0.42\",1,0.75,4,correct,7500,10000,\n\
        resample,\"0.87:0.58,0.13:0.42\",1,0.75,4,first_decision,7500,10000,\n";
    let path = dir.path().join("measured.csv");
    std::fs::write(&path, measured).unwrap();
    let out = pathology()
        .args(["validate", path.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a malformed row exits 2");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let checked = report["tables"][0]["rows"].as_array().unwrap().clone();
    let verdicts: Vec<&str> = checked
        .iter()
        .map(|r| r["holm_verdict"].as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts,
        [
            "no difference detected",
            "no difference detected",
            "disagrees"
        ],
        "{checked:?}"
    );
    assert!((checked[0]["exact"].as_f64().unwrap() - 0.5592).abs() < 1e-12);
    let malformed = report["tables"][1]["rows"].as_array().unwrap();
    assert_eq!(malformed.len(), 1);
    assert!(
        malformed[0]["reason"]
            .as_str()
            .unwrap()
            .contains("column 'quantity' must be one of correct, false_positive, none"),
        "{malformed:?}"
    );
}
