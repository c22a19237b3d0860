//! `pathology mc samples` from the command line: the k-subsets drawn literally agree with the
//! exact curves of `pathology samples curves` (every interval checked against the exact
//! rational), the output does not depend on the thread count, shards merge byte for byte,
//! bad input is refused naming the option, and `validate` reads the rows (and a user's own
//! subsampled curve) against the exact curve, flagging a wrong one.

use crate::common::{
    ShardManifests, json_of, pathology, refused, rows_of, stdout_of, write_shards,
};

const VOTES: &str = "tests/data/samples/votes.csv";

fn run(extra: &[&str]) -> Vec<String> {
    let mut args = vec!["mc", "samples", VOTES, "--k", "1,2,4,8"];
    args.extend_from_slice(extra);
    args.iter().map(|s| s.to_string()).collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Every (metric, k) estimate is checked against the exact value of `samples curves`: no
/// row disagrees after Holm, none is 4 standard errors away, and at least 13 of the 16 95%
/// Wilson intervals cover the exact value (15.2 expected; 13 or fewer has probability below
/// 5% for intervals of 95%); the exact column is `samples curves`' value.
#[test]
fn the_estimates_cover_the_exact_curves() {
    let report = json_of(&strs(&run(&[
        "--trials", "20000", "--seed", "3", "--format", "json",
    ])));
    let curves = json_of(&[
        "samples", "curves", VOTES, "--k", "1,2,4,8", "--format", "json", "--table", "curves",
    ]);
    let exact_rows = rows_of(&curves);
    let rows = rows_of(&report);
    assert_eq!(rows.len(), 16);
    let mut covered = 0;
    for row in &rows {
        let twin = exact_rows
            .iter()
            .find(|r| r["metric"] == row["metric"] && r["k"] == row["k"])
            .unwrap();
        let exact = row["exact"].as_f64().unwrap();
        // samples curves' f64 value is within its rigorous bound (far below 1e-12).
        assert!(
            (twin["value"].as_f64().unwrap() - exact).abs() < 1e-12,
            "{row}"
        );
        let (low, high) = (
            row["estimate_lower"].as_f64().unwrap(),
            row["estimate_upper"].as_f64().unwrap(),
        );
        covered += usize::from(low <= exact && exact <= high);
        assert!(row["z"].as_f64().is_none_or(|z| z.abs() < 4.0), "{row}");
        assert_eq!(row["verdict"], "no difference detected", "{row}");
        assert_eq!(row["trials"], 20000);
        assert_eq!(row["seed"], "3");
    }
    assert!(
        covered >= 13,
        "{covered} of 16 intervals cover the exact value"
    );
    // k = 8 draws every sample: pass_at_k = 1 and pass_all = 0 in every trial.
    let at = |metric: &str, k: u64| {
        rows.iter()
            .find(|r| r["metric"] == metric && r["k"] == k)
            .unwrap()["successes"]
            .as_u64()
            .unwrap()
    };
    assert_eq!((at("pass_at_k", 8), at("pass_all", 8)), (20000, 0));
}

/// `--ties wrong` is respected: majority's estimate agrees with the exact curve with ties
/// scored wrong, which is below the uniform one at k = 2 on this file.
#[test]
fn ties_wrong_is_drawn_as_the_docs_define_it() {
    let majority = |ties: &str| {
        let report = json_of(&strs(&run(&[
            "--ties", ties, "--trials", "20000", "--seed", "9", "--format", "json",
        ])));
        rows_of(&report)
            .into_iter()
            .find(|r| r["metric"] == "majority" && r["k"] == 2)
            .unwrap()
    };
    let (uniform, wrong) = (majority("uniform"), majority("wrong"));
    assert!(wrong["exact"].as_f64() < uniform["exact"].as_f64());
    for row in [&uniform, &wrong] {
        assert_eq!(row["verdict"], "no difference detected", "{row}");
    }
    assert_eq!(wrong["ties"], "wrong");
}

/// The same seed gives byte-identical output on one thread and on two.
#[test]
fn output_does_not_depend_on_the_thread_count() {
    let one = stdout_of(&strs(&run(&[
        "--trials",
        "40000",
        "--seed",
        "5",
        "--threads",
        "1",
        "--format",
        "csv",
    ])));
    let two = stdout_of(&strs(&run(&[
        "--trials",
        "40000",
        "--seed",
        "5",
        "--threads",
        "2",
        "--format",
        "csv",
    ])));
    assert_eq!(one, two);
    let other_seed = stdout_of(&strs(&run(&[
        "--trials",
        "40000",
        "--seed",
        "6",
        "--threads",
        "2",
        "--format",
        "csv",
    ])));
    assert_ne!(one, other_seed);
}

/// Three shards merged with `pathology merge` equal the unsharded run, byte for byte, in
/// every format; a missing shard is refused.
#[test]
fn shards_merge_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let base = run(&["--trials", "3001", "--seed", "4"]);
    let base = strs(&base);
    let paths = write_shards(
        &base,
        &[],
        dir.path(),
        "samples",
        ShardManifests::InlineAndSidecar,
    );
    for format in ["text", "json", "csv"] {
        assert_eq!(
            stdout_of(&["merge", &paths[1], &paths[2], &paths[0], "--format", format]),
            stdout_of(&[&base[..], &["--format", format]].concat()),
            "{format}"
        );
    }
    refused(
        &["merge", &paths[0], &paths[1]],
        &["FILE", "shard 3/3 missing"],
    );
}

/// A shard is merged against the file it was run on: a file changed since is refused,
/// naming the hash.
#[test]
fn a_merge_refuses_a_file_changed_since_the_shards_ran() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("votes.csv");
    std::fs::copy(VOTES, &file).unwrap();
    let file = file.display().to_string();
    let base = [
        "mc", "samples", &file, "--k", "1,2", "--trials", "200", "--seed", "1",
    ];
    let paths = write_shards(&base, &[], dir.path(), "s", ShardManifests::Inline);
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("extra,1,9,0.5\n");
    std::fs::write(&file, text).unwrap();
    refused(
        &["merge", &paths[0], &paths[1], &paths[2]],
        &["--file-fnv1a64", "the file changed"],
    );
}

/// Bad input is refused, exit 2, naming the option (or the file and line), before any trial;
/// a run too large is refused with its estimate.
#[test]
fn bad_input_is_refused_naming_the_option() {
    let base = |k: &str, trials: &str| {
        vec![
            "mc".to_string(),
            "samples".into(),
            VOTES.into(),
            "--k".into(),
            k.into(),
            "--trials".into(),
            trials.into(),
        ]
    };
    refused(&strs(&base("0,1", "100")), &["--k"]);
    refused(&strs(&base("9", "100")), &["--k", "k = 9 above n"]);
    refused(&strs(&base("1", "0")), &["--trials"]);
    refused(
        &strs(&base("1,2", "1000000000000000")),
        &["1000000000000000 trials", "--shard"],
    );
    refused(
        &[
            "mc",
            "samples",
            VOTES,
            "--k",
            "1",
            "--trials",
            "10",
            "--file-fnv1a64",
            "zz",
        ],
        &["--file-fnv1a64"],
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "problem,correct\na,1\nb,maybe\n").unwrap();
    let bad = bad.display().to_string();
    refused(
        &["mc", "samples", &bad, "--k", "1", "--trials", "10"],
        &["bad.csv", "line 3", "correct"],
    );
}

/// `validate` reads `mc samples`' CSV as it is, and a user's own subsampled curve: a curve
/// drawn right passes, the same curve with one value moved by about 8 standard errors is
/// flagged (exit 1), and a file whose hash differs from the row's is malformed (exit 2).
#[test]
fn validate_checks_a_subsampled_curve_against_the_exact_one() {
    let dir = tempfile::tempdir().unwrap();
    let csv = stdout_of(&strs(&run(&[
        "--trials",
        "5000",
        "--seed",
        "2",
        "--format",
        "csv",
        "--manifest",
        "inline",
    ])));
    let path = dir.path().join("mc.csv");
    std::fs::write(&path, &csv).unwrap();
    let report = json_of(&["validate", path.to_str().unwrap(), "--format", "json"]);
    let checked = rows_of(&report);
    assert_eq!(checked.len(), 16);
    assert!(
        checked
            .iter()
            .all(|r| r["holm_verdict"] == "no difference detected"),
        "{report}"
    );
    // A user's curve: majority@4 = 253/525 = 0.4819 exactly; 10000 trials.
    let mine = dir.path().join("mine.csv");
    let write = |successes: u64| {
        std::fs::write(
            &mine,
            format!(
                "kind,file,metric,k,successes,trials\n\
                 samples,{VOTES},majority,4,{successes},10000\n\
                 samples,{VOTES},pass_at_k,8,10000,10000\n\
                 samples,{VOTES},pass_all,8,0,10000\n"
            ),
        )
        .unwrap();
    };
    write(4830);
    pathology()
        .args(["validate", mine.to_str().unwrap()])
        .assert()
        .code(0);
    // 0.4419: 8 standard errors (sqrt(0.48 * 0.52 / 10000) = 0.005) below.
    write(4419);
    let out = pathology()
        .args(["validate", mine.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = rows_of(&report);
    assert_eq!(rows[0]["holm_verdict"], "disagrees");
    assert!((rows[0]["exact"].as_f64().unwrap() - 253.0 / 525.0).abs() < 1e-15);
    // The certain rows agree exactly (z = 0), never flagged.
    assert!(
        rows[1..]
            .iter()
            .all(|r| r["z"] == 0.0 && r["holm_verdict"] == "no difference detected")
    );
    std::fs::write(
        &mine,
        format!(
            "kind,file,metric,k,successes,trials,file_fnv1a64\n\
             samples,{VOTES},pass_at_k,1,1,2,0000000000000001\n"
        ),
    )
    .unwrap();
    pathology()
        .args(["validate", mine.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(predicates::str::contains("file_fnv1a64"));
}
