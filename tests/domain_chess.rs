//! `pathology domain krk | kqk`: every format with the manifest, exact rationals,
//! refusals of bad input naming the argument and its range (exit 2, no panic).

use crate::common::{json_of, parameter, pathology, refused, stdout_of};

#[test]
fn krk_prints_exact_accuracy_with_its_manifest() {
    let report = json_of(&[
        "domain", "krk", "--depth", "1..2", "--format", "json", "--table", "accuracy",
    ]);
    assert_eq!(parameter(&report, "heuristic"), "mopup");
    assert_eq!(parameter(&report, "depth"), "1,2");
    assert_eq!(report["manifest"]["mode"], "exact");
    let rows = report["tables"][0]["rows"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 2);
    // Every legal White-to-move KRK position is won (175,168); depth 2 always keeps the win.
    assert_eq!(rows[0]["positions"], 175168);
    assert_eq!(rows[0]["keeps_win_exact"], "170153573/179328240");
    assert_eq!(rows[1]["keeps_win_exact"], "1/1");
}

#[test]
fn kqk_facts_and_every_format() {
    let csv = stdout_of(&[
        "domain",
        "kqk",
        "--depth",
        "1",
        "--table",
        "endgame",
        "--format",
        "csv",
        "--manifest",
        "inline",
    ]);
    assert!(csv.contains("\"longest win, White to move\",10"), "{csv}");
    assert!(csv.contains("# command: pathology domain kqk"));
    for format in ["text", "markdown", "latex", "json"] {
        let out = stdout_of(&[
            "domain", "kqk", "--depth", "1", "--levels", "3", "--format", format,
        ]);
        assert!(out.contains("levels"), "{format}");
    }
}

#[test]
fn noise_runs_monte_carlo_repeatably_with_intervals() {
    let args = [
        "domain",
        "kqk",
        "--noise",
        "gaussian:5",
        "--depth",
        "1,2",
        "--trials",
        "200",
        "--format",
        "csv",
        "--table",
        "accuracy",
        "--manifest",
        "inline",
    ];
    let one = stdout_of(&[&args[..], &["--threads", "1"]].concat());
    let two = stdout_of(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    assert!(one.contains("keeps_win_lower"), "{one}");
    assert!(one.contains("# mode: monte-carlo"));
}

#[test]
fn bad_input_is_refused_naming_the_argument() {
    refused(&["domain", "krk", "--depth", "0"], &["--depth", "1..=40"]);
    refused(&["domain", "krk", "--depth", "5..2"], &["--depth"]);
    refused(&["domain", "krk", "--depth", "41"], &["--depth", "1..=40"]);
    refused(
        &["domain", "krk", "--noise", "gaussian:1", "--depth", "9"],
        &["--depth", "1..=8"],
    );
    refused(
        &["domain", "krk", "--noise", "0:0.5,1:0.6"],
        &["--noise", "summing to 1"],
    );
    refused(
        &["domain", "krk", "--noise", "gaussian:0"],
        &["--noise", "S > 0"],
    );
    refused(
        &["domain", "kqk", "--heuristic", "fast"],
        &["--heuristic", "mopup"],
    );
    refused(
        &["domain", "kqk", "--levels", "1"],
        &["--levels", "2..=1000000"],
    );
    refused(&["domain", "kqk", "--table", "nope"], &["--table"]);
    refused(
        &[
            "domain",
            "krk",
            "--noise",
            "gaussian:1",
            "--depth",
            "8",
            "--trials",
            "100000",
        ],
        &["refused", "--trials"],
    );
    pathology().args(["domain", "rook"]).assert().code(2);
}
