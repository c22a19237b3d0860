//! The Monte Carlo commands: agreement with exact values, reproducibility across thread
//! counts, Ross's position, and bad input (exit 2, a message naming the argument, no panic).

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

/// Agreement criterion: every depth within this many standard errors of the exact value.
const SIGMAS: f64 = 4.0;

fn pathology() -> Command {
    Command::cargo_bin("pathology").unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let output = pathology().args(args).output().unwrap();
    assert!(
        output.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn json_of(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).unwrap()
}

fn refused(args: &[&str], mentions: &[&str]) {
    let mut assert = pathology()
        .args(args)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("panicked").not());
    for m in mentions {
        assert = assert.stderr(predicate::str::contains(*m));
    }
}

fn dgame_args<'a>(
    h: &'a str,
    f1: &'a str,
    f2: &'a str,
    trials: &'a str,
    seed: &'a str,
) -> Vec<&'a str> {
    vec![
        "mc", "dgame", "--height", h, "--f1", f1, "--f2", f2, "--trials", trials, "--seed", seed,
        "--format", "json",
    ]
}

#[test]
fn mc_dgame_agrees_with_exact_values() {
    for (h, f1, f2) in [
        ("10", "0.1", "0.1"),
        ("8", "0.3", "0.8"),
        ("7", "0.9", "0.2"),
    ] {
        let report = json_of(&dgame_args(h, f1, f2, "30000", "11"));
        let rows = report["rows"].as_array().unwrap();
        assert_eq!(rows.len(), h.parse::<usize>().unwrap());
        for row in rows {
            let z = row["z"].as_f64().unwrap();
            assert!(z.abs() <= SIGMAS, "h={h} f1={f1} f2={f2}: {row}");
            let (low, high) = (
                row["ci_low"].as_f64().unwrap(),
                row["ci_high"].as_f64().unwrap(),
            );
            assert!(
                low <= row["estimate"].as_f64().unwrap()
                    && row["estimate"].as_f64().unwrap() <= high
            );
            assert!(row["exact"].as_f64().is_some() && row["d"].as_u64().is_some());
        }
        assert_eq!(report["trials"], 30000);
        assert_eq!(report["seed"], 11);
    }
}

#[test]
fn mc_dgame_output_does_not_depend_on_threads_or_engine() {
    let mut args = dgame_args("9", "0.2", "0.4", "20000", "5");
    let one = stdout_of(&[&args[..], &["--threads", "1"]].concat());
    let two = stdout_of(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    args.extend(["--engine", "generic", "--threads", "2"]);
    let generic: Value = serde_json::from_str(&stdout_of(&args)).unwrap();
    let fast: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(generic["rows"], fast["rows"]);
    let other_seed = stdout_of(&dgame_args("9", "0.2", "0.4", "20000", "6"));
    let other: Value = serde_json::from_str(&other_seed).unwrap();
    assert_ne!(other["rows"], fast["rows"]);
}

#[test]
fn mc_dgame_text_and_csv() {
    let text = stdout_of(&[
        "mc", "dgame", "--height", "4", "--f1", "0.5", "--f2", "0.5", "--trials", "100",
    ]);
    assert!(text.starts_with("D(d,4) for f1 = 0.5, f2 = 0.5"), "{text}");
    let csv = stdout_of(&[
        "mc", "dgame", "--height", "4", "--f1", "1/2", "--f2", "0.5", "--trials", "100",
        "--format", "csv",
    ]);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("d,correct,estimate,ci_low,ci_high,exact,z")
    );
    assert_eq!(lines.count(), 4);
}

#[test]
fn alphabeta_on_ross_position() {
    let report = json_of(&["alphabeta", "--board", "........O", "--format", "json"]);
    let moves = report["moves"].as_array().unwrap();
    let squares: Vec<u64> = moves
        .iter()
        .map(|m| m["square"].as_u64().unwrap())
        .collect();
    assert_eq!(squares, vec![0, 1, 2, 3, 4, 5, 6, 7]);
    for m in moves {
        let square = m["square"].as_u64().unwrap();
        let expected_true = if square == 4 { 0.0 } else { -1.0 };
        assert_eq!(
            m["minimax"].as_f64().unwrap(),
            expected_true,
            "square {square}"
        );
        if (5..=7).contains(&square) {
            assert_eq!(m["alphabeta"].as_f64().unwrap(), 0.0);
            assert_eq!(m["bound"], true);
        }
    }
    assert_eq!(
        report["naive_random_tiebreak_loss_probability"].as_f64(),
        Some(0.75)
    );
    assert_eq!(
        report["safe_random_tiebreak_loss_probability"].as_f64(),
        Some(0.0)
    );
    let text = stdout_of(&["alphabeta", "--board", "........O"]);
    assert!(text.contains("3/4"), "{text}");
}

#[test]
fn mc_alphabeta_reports_naive_losses_and_safe_zero() {
    let args = [
        "mc",
        "alphabeta",
        "--branching",
        "3",
        "--depth",
        "4",
        "--trials",
        "2000",
        "--seed",
        "3",
        "--format",
        "json",
    ];
    let report = json_of(&args);
    assert!(report["naive_can_lose"]["estimate"].as_f64().unwrap() > 0.0);
    assert_eq!(
        report["safe_loss_probability"]["estimate"].as_f64(),
        Some(0.0)
    );
    let again = stdout_of(&[&args[..], &["--threads", "1"]].concat());
    assert_eq!(serde_json::from_str::<Value>(&again).unwrap(), report);
    let ttt = json_of(&[
        "mc",
        "alphabeta",
        "--positions",
        "tictactoe",
        "--plies",
        "3",
        "--trials",
        "300",
        "--format",
        "json",
    ]);
    assert_eq!(ttt["plies"], 3);
    assert_eq!(ttt["safe_loss_probability"]["estimate"].as_f64(), Some(0.0));
}

#[test]
fn bad_input_is_refused() {
    refused(
        &[
            "mc", "dgame", "--height", "6", "--f1", "0.5", "--f2", "0.5", "--trials", "0",
        ],
        &["--trials", "at least 1"],
    );
    refused(
        &[
            "mc", "dgame", "--height", "6", "--f1", "1.5", "--f2", "0.5", "--trials", "10",
        ],
        &["--f1", "[0, 1]"],
    );
    refused(
        &[
            "mc", "dgame", "--height", "6", "--f1", "0.5", "--f2", "-0.5", "--trials", "10",
        ],
        &["--f2", "[0, 1]"],
    );
    refused(
        &[
            "mc", "dgame", "--height", "30", "--f1", "0.5", "--f2", "0.5", "--trials", "10",
        ],
        &["--height"],
    );
    refused(
        &[
            "mc",
            "dgame",
            "--height",
            "6",
            "--f1",
            "0.5",
            "--f2",
            "0.5",
            "--trials",
            "10",
            "--threads",
            "0",
        ],
        &["--threads"],
    );
    refused(&["mc", "alphabeta", "--trials", "0"], &["--trials"]);
    refused(
        &["mc", "alphabeta", "--trials", "10", "--branching", "1"],
        &["--branching"],
    );
    refused(
        &["alphabeta", "--board", "XX......."],
        &["--board", "mark counts"],
    );
    refused(
        &["alphabeta", "--board", "XXXOO...."],
        &["--board", "not over"],
    );
    refused(&["alphabeta", "--board", "..."], &["--board"]);
}
