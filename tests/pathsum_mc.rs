//! From the command line: `mc sum` plays real depth-d minimax
//! on sampled path-sum trees with terminal nodes against `decision --game sum`'s exact
//! values at a fixed seed (pinned counts, every |z| < 3, the same for any thread count), its
//! CSV passes `validate` (kind `sum`), its shards merge byte for byte, and bad input is
//! refused naming the option.

use crate::common::{
    ShardManifests, json_of, parameter, pathology, refused, rows_of, stdout_of, temp_file,
    write_shards,
};

/// (a) value outcomes, steps ±1, terminal 1/10, additive noise {-1, 0, 1} in thirds.
const ADDITIVE: [&str; 12] = [
    "--branching",
    "2",
    "--height",
    "5",
    "--step",
    "1:1/2,-1:1/2",
    "--terminal",
    "1/10",
    "--evaluator",
    "additive",
    "--noise",
    "-1:1/3,0:1/3,1:1/3",
];

/// (b) the N-game case: sign outcomes, steps ±1 with q = 0.6, artificial e = 0.1, terminal 1/5.
const NGAME: [&str; 12] = [
    "--height",
    "5",
    "--step",
    "1:0.6,-1:0.4",
    "--terminal",
    "1/5",
    "--outcome",
    "sign",
    "--evaluator",
    "artificial",
    "--e",
    "0.1",
];

/// (c) b = 3, steps {-1, 0, 1}, leaf terms ±1, the position evaluator (the default).
const POSITION: [&str; 8] = [
    "--branching",
    "3",
    "--height",
    "4",
    "--step",
    "-1:1/3,0:1/3,1:1/3",
    "--leaf",
    "-1:1/2,1:1/2",
];

fn mc_sum(args: &[&str], more: &[&str]) -> Vec<String> {
    [&["mc", "sum"][..], args, more]
        .concat()
        .iter()
        .map(|s| s.to_string())
        .collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Pinned counts at seed 11, 4000 trials; every |z| < 3; the exact column is `decision
/// --game sum`'s; the CSV passes `validate` (every row agrees); threads do not matter.
#[test]
fn monte_carlo_agrees_with_the_exact_values_at_a_fixed_seed() {
    let runs: [(&[&str], &[u64]); 3] = [
        (&ADDITIVE, &[3679, 3736, 3757, 3798, 4000]),
        (&NGAME, &[3664, 3668, 3817, 3822, 4000]),
        (&POSITION, &[2843, 3124, 3218, 4000]),
    ];
    for (args, pinned) in runs {
        let run = mc_sum(args, &["--trials", "4000", "--seed", "11"]);
        let report = json_of(&[&strs(&run)[..], &["--format", "json", "--threads", "1"]].concat());
        assert_eq!(parameter(&report, "game"), "sum");
        let rows = rows_of(&report);
        assert_eq!(rows.len(), pinned.len());
        let decision = json_of(
            &[
                &["decision", "--game", "sum"][..],
                args,
                &["--format", "json"],
            ]
            .concat(),
        );
        for ((row, &successes), exact) in rows.iter().zip(pinned).zip(rows_of(&decision)) {
            assert_eq!(row["kind"], "sum");
            assert_eq!(row["successes"].as_u64().unwrap(), successes, "{args:?}");
            assert_eq!(row["trials"].as_u64().unwrap(), 4000);
            assert!(row["z"].as_f64().unwrap().abs() < 3.0, "{row}");
            assert_eq!(row["exact"].as_f64(), exact["D"].as_f64(), "{row}");
        }
        let csv = stdout_of(&[&strs(&run)[..], &["--format", "csv", "--threads", "1"]].concat());
        let two = stdout_of(&[&strs(&run)[..], &["--format", "csv", "--threads", "2"]].concat());
        let body = |t: &str| -> String {
            t.lines()
                .filter(|l| !l.starts_with("# command"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(body(&csv), body(&two), "{args:?}");
        let file = temp_file(&csv);
        let out = stdout_of(&["validate", file.path().to_str().unwrap()]);
        assert!(
            out.contains(&format!(
                "{} rows checked, 0 malformed; at level 0.05: 0 disagree",
                pinned.len()
            )),
            "{out}"
        );
    }
}

/// Shards merge into the unsharded run, byte for byte, in every format.
#[test]
fn shards_merge_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let base = mc_sum(&NGAME, &["--trials", "1201", "--seed", "4"]);
    let base = strs(&base);
    // Shard 1 is CSV with its manifest inline, shard 3 plain CSV with its sidecar.
    let paths = write_shards(
        &base,
        &[],
        dir.path(),
        "shard",
        ShardManifests::InlineAndSidecar,
    );
    for format in ["text", "json", "csv"] {
        assert_eq!(
            stdout_of(&["merge", &paths[2], &paths[0], &paths[1], "--format", format]),
            stdout_of(&[&base[..], &["--format", format]].concat())
        );
    }
    refused(
        &["merge", &paths[0], &paths[1]],
        &["FILE", "shard 3/3 missing"],
    );
}

/// Bad input is refused naming the option, exit 2, before any trial.
#[test]
fn bad_input_is_refused_naming_the_option() {
    let trials = ["--trials", "10"];
    let cases: [(&[&str], &[&str]); 8] = [
        (
            &["--height", "30"],
            &["--height must be at most 21 for Monte Carlo at b = 2", "30"],
        ),
        (
            &["--height", "8", "--branching", "8"],
            &["--height must be at most 7 for Monte Carlo at b = 8"],
        ),
        (
            &["--height", "4", "--evaluator", "gaussian"],
            &["--evaluator", "gaussian"],
        ),
        (
            &["--height", "4", "--game", "p"],
            &["--game must be sum", "got p"],
        ),
        (
            &["--height", "4", "--p", "0.3"],
            &["--p must be given only with --game p"],
        ),
        (
            &["--height", "4", "--noise", "1:1/2,-1:1/2"],
            &["--noise must be given exactly when --evaluator additive"],
        ),
        (
            &["--height", "4", "--terminal", "1"],
            &["--terminal must be in [0, 1)"],
        ),
        (
            &["--height", "4", "--step", "0"],
            &["--step", "children of different true values"],
        ),
    ];
    for (args, mentions) in cases {
        refused(&[&["mc", "sum"][..], args, &trials].concat(), mentions);
    }
    refused(
        &["mc", "sum", "--height", "12", "--trials", "1000000000000"],
        &["--trials"],
    );
    // The help lists only the path-sum options and the evaluators `mc sum` samples.
    let help = stdout_of(&["mc", "sum", "--help"]);
    for shown in [
        "--step",
        "--leaf",
        "--terminal",
        "--outcome",
        "--noise",
        "--e ",
    ] {
        assert!(help.contains(shown), "{shown}");
    }
    for hidden in [
        "--gamma",
        "--leaves",
        "--sigma",
        "--levels",
        "--qk",
        "expected-playout",
    ] {
        assert!(!help.contains(hidden), "{hidden}");
    }
}

/// `validate` reads kind `sum` with `decision --game sum`'s option names; a malformed row
/// gets its reason and the others are still checked.
#[test]
fn validate_checks_sum_rows() {
    let decision = json_of(&[
        "decision", "--game", "sum", "--height", "4", "--depth", "2", "--format", "json",
    ]);
    let exact = rows_of(&decision)[0]["D"].as_f64().unwrap();
    let csv = "kind,height,depth,step,sigma,evaluator,noise,estimate,trials\n\
               sum,4,2,1:1/2,,position,,0.5,10\n\
               sum,4,2,,1,,,0.5,10\n\
               sum,4,5,,,,,0.5,10\n\
               sum,4,2,,,perfect,1:1,0.5,10\n\
               sum,4,2,,,,,0.83,100\n";
    let file = temp_file(csv);
    let output = pathology()
        .args([
            "validate",
            file.path().to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let text = report.to_string();
    for reason in [
        "--step must be probabilities summing to exactly 1",
        "column 'sigma' is not a parameter of kind 'sum'",
        "column 'depth' must be in 1..=4, got 5",
        "--noise must be given exactly when --evaluator additive",
    ] {
        assert!(text.contains(reason), "{reason}: {text}");
    }
    let rows = rows_of(&report);
    assert_eq!(rows.len(), 1, "{report}");
    assert_eq!(rows[0]["exact"].as_f64().unwrap(), exact);
}
