//! True zeros and ones: a probability that is exactly 0 or 1 in the model is printed and
//! stored as 0 or 1 (not as the smallest double beside it), a perfect simulation of it agrees,
//! and `validate` reads such rows with z = 0 and exit 0.

use super::common::{json_of, pathology, rows_of, stdout_of};

/// `mc inference` runs whose quantities are 0 or 1 exactly, at 20000 trials.
const PERFECT: [&[&str]; 3] = [
    &[
        "resample",
        "--tasks",
        "1",
        "--completeness",
        "1",
        "--soundness",
        "0.5",
        "--k",
        "2",
    ],
    &[
        "best-of-n",
        "--tasks",
        "0",
        "--score-correct",
        "1",
        "--score-wrong",
        "0:1/2,2:1/2",
        "--n",
        "1..3",
    ],
    &[
        "lookahead",
        "--branching",
        "2",
        "--steps",
        "3",
        "--step-correct",
        "0",
        "--noise",
        "1:1/2,-1:1/2",
        "--depth",
        "1..3",
    ],
];

fn mc(options: &[&str], format: &str) -> Vec<String> {
    let mut args = vec!["mc", "inference"];
    args.extend(options);
    args.extend(["--trials", "20000", "--seed", "1", "--format", format]);
    args.into_iter().map(String::from).collect()
}

#[test]
fn exact_zeros_and_ones_are_printed_as_such_and_agree() {
    for options in PERFECT {
        let args = mc(options, "json");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let report = json_of(&args);
        for row in rows_of(&report) {
            let exact = row["exact"].as_f64().unwrap();
            assert!(exact == 0.0 || exact == 1.0, "{options:?}: {row}");
            assert_eq!(row["estimate"].as_f64().unwrap(), exact, "{row}");
            assert_eq!(row["z"].as_f64(), Some(0.0), "{row}");
            assert_eq!(row["verdict"], "no difference detected", "{row}");
        }
    }
}

#[test]
fn inference_prints_exact_zeros_with_no_bound() {
    let csv = stdout_of(&[
        "inference",
        "resample",
        "--tasks",
        "1",
        "--completeness",
        "1",
        "--soundness",
        "0.5",
        "--k",
        "2",
        "--format",
        "csv",
    ]);
    let row = csv.lines().find(|l| l.starts_with("2,")).unwrap();
    // R = 1, C = 1: the first sample is accepted, so exactly one sample and one call (cost 2).
    assert_eq!(row, "2,1,0,0,0,0,0,1,0,1,0,1,0,2,0", "{csv}");
}

#[test]
fn validate_reads_exact_zero_rows_with_z_zero() {
    let dir = tempfile::tempdir().unwrap();
    for (i, options) in PERFECT.iter().enumerate() {
        let path = dir.path().join(format!("{i}.csv"));
        let args = mc(options, "csv");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        std::fs::write(&path, stdout_of(&args)).unwrap();
        let out = pathology()
            .args(["validate", path.to_str().unwrap(), "--format", "json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{options:?}");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for row in rows_of(&report) {
            assert_eq!(row["z"].as_f64(), Some(0.0), "{row}");
            assert_eq!(row["holm_verdict"], "no difference detected", "{row}");
        }
    }
}

/// An estimate of an exact 0 that is not 0 is a certain disagreement, and says so.
#[test]
fn an_event_of_probability_zero_observed_is_a_certain_disagreement() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zero.csv");
    std::fs::write(
        &path,
        "kind,tasks,k,quantity,successes,trials\npass_at_k,0,3,correct,1,20000\n",
    )
    .unwrap();
    let out = pathology()
        .args(["validate", path.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = &rows_of(&report)[0];
    assert_eq!(row["exact"].as_f64(), Some(0.0), "{row}");
    assert_eq!(row["holm_verdict"], "disagrees", "{row}");
}
