//! Evaluations as distributions, from the command line: `decision --game crit`,
//! `--leaves` and the new evaluators (and `exact`, their alias), refusals naming both
//! options, `validate`'s kinds `crit` and `mvpgame`, `mc distributions` against the exact
//! values at a fixed seed (pinned counts), and its shards merged byte for byte.

use super::decision::same_as;
use crate::common::{
    ShardManifests, json_of, parameter, pathology, refused, rows_of, stdout_of, table_rows,
    temp_file, write_shards,
};
use std::io::Write;

const CRIT: [&str; 10] = [
    "--game",
    "crit",
    "--branching",
    "2",
    "--height",
    "6",
    "--gamma",
    "0.9",
    "--evaluator",
    "gaussian",
];

fn histogram_file() -> tempfile::NamedTempFile {
    temp_file("value,evaluation,weight\n1,0.9,3\n1,0.5,1\n1,0.2,1\n-1,0.1,2\n-1,0.5,1\n-1,0.8,1\n")
}

/// `decision` and its alias `exact` print the same for the new options, in every format
/// (apart from the subcommand in the manifest).
#[test]
fn exact_is_decision_for_the_new_options() {
    same_as(
        "exact",
        &[&CRIT[..], &["--sigma", "0.5", "--levels", "40"]].concat(),
    );
    same_as(
        "exact",
        &[
            "--game",
            "p",
            "--height",
            "5",
            "--leaves",
            "0:1/4,1:1/2,2:1/4",
            "--evaluator",
            "uniform",
            "--halfwidth",
            "1",
            "--levels",
            "8",
            "--exact",
            "--depth",
            "3",
        ],
    );
    same_as(
        "exact",
        &[
            "--game",
            "crit",
            "--branching",
            "3",
            "--height",
            "8",
            "--gamma",
            "0.9,0.5",
            "--root-gamma",
            "0.8",
            "--evaluator",
            "expected-playout",
            "--levels",
            "3",
            "--range",
            "0,1",
        ],
    );
    // Today's options are still the families' engine (the alias check of tests/decision.rs
    // covers their output); the same P-game through both engines gives the same D.
    let d = |extra: &[&str]| -> Vec<f64> {
        let args = [
            &[
                "decision",
                "--game",
                "p",
                "--height",
                "7",
                "--p",
                "0.4",
                "--evaluator",
            ][..],
            &["artificial", "--e", "0.1", "--format", "json"],
            extra,
        ]
        .concat();
        rows_of(&json_of(&args))
            .iter()
            .map(|r| r["D"].as_f64().unwrap())
            .collect()
    };
    let families = d(&[]);
    let distributions = d(&["--levels", "2"]);
    assert_eq!(families.len(), 7);
    for (a, b) in families.iter().zip(&distributions) {
        assert!((a - b).abs() < 1e-10, "{families:?} vs {distributions:?}");
    }
}

/// The manifest names every parameter (the histogram's hash too) and its command
/// regenerates the result; a changed file is refused by the hash.
#[test]
fn the_manifest_regenerates_the_result() {
    let file = histogram_file();
    let path = file.path().to_str().unwrap();
    let report = json_of(&[
        "decision",
        "--game",
        "crit",
        "--branching",
        "3",
        "--height",
        "6",
        "--gamma",
        "0.9,0.5",
        "--evaluator",
        "histogram",
        "--histogram",
        path,
        "--depth",
        "4",
        "--format",
        "json",
    ]);
    let command = report["manifest"]["command"].as_str().unwrap().to_string();
    assert!(command.starts_with(&format!(
        "pathology decision --game crit --branching 3 --height 6 --gamma 0.9,0.5 --depth 4 \
         --evaluator histogram --histogram {path} --histogram-fnv1a64 "
    )));
    let args: Vec<&str> = command
        .split(' ')
        .skip(1)
        .chain(["--format", "json"])
        .collect();
    assert_eq!(json_of(&args), report);
    assert_eq!(rows_of(&report).len(), 1);
    std::fs::OpenOptions::new()
        .append(true)
        .open(file.path())
        .unwrap()
        .write_all(b"1,0.3,1\n")
        .unwrap();
    refused(&args, &["--histogram-fnv1a64", "the hash of --histogram"]);
}

/// Options of another game or evaluator are refused with both named; so are missing
/// parameters and sizes past the limits.
#[test]
fn foreign_options_are_refused_naming_both() {
    fn with<'a>(more: &[&'a str]) -> Vec<&'a str> {
        [&["decision", "--height", "6"][..], more].concat()
    }
    for (args, mentions) in [
        (
            with(&["--game", "crit", "--gamma", "1", "--p", "0.3"]),
            vec!["--p", "--game crit"],
        ),
        (
            with(&["--game", "p", "--gamma", "1"]),
            vec!["--gamma", "--game p"],
        ),
        (
            with(&["--game", "p", "--sigma", "1"]),
            vec!["--sigma", "--evaluator count"],
        ),
        (
            with(&[
                "--game",
                "p",
                "--evaluator",
                "uniform",
                "--halfwidth",
                "1",
                "--sigma",
                "1",
            ]),
            vec!["--sigma", "--evaluator uniform"],
        ),
        (
            with(&["--game", "n", "--evaluator", "gaussian", "--sigma", "1"]),
            vec!["--evaluator gaussian", "--game n"],
        ),
        (
            with(&["--game", "crit", "--gamma", "1", "--evaluator", "count"]),
            vec!["--evaluator count", "--game crit"],
        ),
        (
            with(&["--game", "p", "--evaluator", "expected-playout"]),
            vec!["--evaluator expected-playout", "--game p"],
        ),
        (
            with(&["--game", "p", "--leaves", "0:0.5,1:0.5"]),
            vec!["--leaves", "--evaluator count"],
        ),
        (
            with(&["--game", "p", "--evaluator", "perfect", "--range", "0,1"]),
            vec!["--range", "--levels"],
        ),
        (with(&["--game", "crit"]), vec!["--gamma", "nothing"]),
        (
            with(&["--game", "p", "--evaluator", "gaussian"]),
            vec!["--sigma", "--evaluator gaussian"],
        ),
        (
            with(&[
                "--game",
                "crit",
                "--gamma",
                "1",
                "--evaluator",
                "gaussian",
                "--sigma",
                "0.5",
                "--exact",
            ]),
            vec!["--exact", "gaussian"],
        ),
        (
            with(&[
                "--game",
                "p",
                "--leaves",
                "0:0.5,1:0.4",
                "--evaluator",
                "perfect",
            ]),
            vec!["--leaves", "summing to exactly 1"],
        ),
        (
            with(&["--f1", "0.3", "--f2", "0.3", "--leaves", "0:0.5,1:0.5"]),
            vec!["--f1", "--leaves"],
        ),
        (
            vec![
                "decision",
                "--game",
                "crit",
                "--height",
                "40",
                "--gamma",
                "0.9",
                "--evaluator",
                "artificial",
                "--exact",
            ],
            vec!["refused", "drop --exact"],
        ),
        (
            vec![
                "mc",
                "distributions",
                "--game",
                "crit",
                "--branching",
                "8",
                "--height",
                "30",
                "--gamma",
                "1",
                "--evaluator",
                "perfect",
                "--trials",
                "10",
            ],
            vec!["--height", "for Monte Carlo"],
        ),
        (
            vec![
                "mc",
                "distributions",
                "--game",
                "n",
                "--height",
                "4",
                "--trials",
                "10",
            ],
            vec!["--game", "possible values: p, crit", "'n'"],
        ),
    ] {
        refused(&args, &mentions);
    }
}

/// `--depth` prints one depth; every format renders it.
#[test]
fn one_depth_in_every_format() {
    let args = |format: &'static str| {
        let mut args = vec!["decision"];
        args.extend(CRIT);
        args.extend(["--sigma", "1", "--depth", "2", "--format", format]);
        args
    };
    let d = rows_of(&json_of(&args("json")))[0]["D"].as_f64().unwrap();
    assert_eq!(rows_of(&json_of(&args("json"))).len(), 1);
    for format in ["text", "csv", "markdown", "latex"] {
        let out = stdout_of(&args(format));
        // CSV carries the double's shortest text, the others 6 decimals, correctly rounded.
        let printed = if format == "csv" {
            d.to_string()
        } else {
            format!("{d:.6}")
        };
        assert!(out.contains(&printed), "{format}: {out}");
    }
}

/// `mc distributions` at a fixed seed: the counts are pinned and every estimate agrees
/// with the exact value (|z| < 3 at every depth).
#[test]
fn monte_carlo_agrees_with_the_exact_values_at_a_fixed_seed() {
    let runs: [(Vec<&str>, [u64; 6]); 2] = [
        (
            [
                &CRIT[..],
                &[
                    "--sigma", "1", "--levels", "12", "--trials", "4000", "--seed", "11",
                ],
            ]
            .concat(),
            [3547, 3354, 3168, 2912, 2750, 4000],
        ),
        (
            vec![
                "--game",
                "p",
                "--branching",
                "2",
                "--height",
                "5",
                "--leaves",
                "0:1/3,1:1/3,3:1/3",
                "--evaluator",
                "uniform",
                "--halfwidth",
                "1.5",
                "--levels",
                "6",
                "--trials",
                "4000",
                "--seed",
                "11",
            ],
            [3643, 3603, 3512, 3423, 4000, 0],
        ),
    ];
    for (args, pinned) in runs {
        let report =
            json_of(&[&["mc", "distributions"][..], &args, &["--format", "json"]].concat());
        let rows = rows_of(&report);
        for (row, &successes) in rows.iter().zip(&pinned) {
            assert_eq!(row["successes"].as_u64().unwrap(), successes, "{args:?}");
            assert_eq!(row["trials"].as_u64().unwrap(), 4000);
            assert!(row["z"].as_f64().unwrap().abs() < 3.0, "{row}");
        }
        // The rows are `validate`'s input as they are: every one agrees.
        let csv = stdout_of(&[&["mc", "distributions"][..], &args, &["--format", "csv"]].concat());
        let file = temp_file(&csv);
        pathology()
            .args(["validate", file.path().to_str().unwrap()])
            .assert()
            .success();
    }
}

/// Shards merge into the unsharded run, byte for byte.
#[test]
fn shards_merge_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let file = histogram_file();
    let base = [
        "mc",
        "distributions",
        "--game",
        "crit",
        "--branching",
        "3",
        "--height",
        "5",
        "--gamma",
        "0.9,0.5",
        "--root-gamma",
        "0.8",
        "--evaluator",
        "histogram",
        "--histogram",
        file.path().to_str().unwrap(),
        "--trials",
        "1501",
        "--seed",
        "4",
    ];
    let paths = write_shards(
        &base,
        &["--threads", "1"],
        dir.path(),
        "shard",
        ShardManifests::Inline,
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

/// `validate` reads the kinds `crit` and `mvpgame` with the options' names, against
/// `decision`'s values; bad rows are malformed with a reason, the rest still checked.
#[test]
fn validate_checks_crit_and_mvpgame_rows() {
    let exact = |args: &[&str]| -> f64 {
        let report = json_of(&[&["decision"][..], args, &["--format", "json"]].concat());
        rows_of(&report)[0]["D"].as_f64().unwrap()
    };
    let crit = exact(
        &[
            &CRIT[..],
            &["--sigma", "1", "--levels", "12", "--depth", "3"],
        ]
        .concat(),
    );
    let mv = exact(&[
        "--game",
        "p",
        "--height",
        "5",
        "--leaves",
        "0:1/3,1:1/3,3:1/3",
        "--evaluator",
        "uniform",
        "--halfwidth",
        "1.5",
        "--levels",
        "6",
        "--depth",
        "2",
    ]);
    let close = |p: f64| ((p * 100_000.0).round() as u64).to_string();
    let csv = format!(
        "kind,branching,height,depth,gamma,leaves,evaluator,sigma,halfwidth,levels,estimate,trials\n\
         crit,2,6,3,0.9,,gaussian,1,,12,{}/100000,100000\n\
         mvpgame,2,5,2,,\"0:1/3,1:1/3,3:1/3\",uniform,,1.5,6,{}/100000,100000\n\
         crit,2,6,3,0.9,,gaussian,1,,12,0.5,100000\n\
         crit,2,6,3,0.9,,gaussian,,1.5,12,0.5,100\n\
         mvpgame,2,5,2,,\"0:1/3,1:1/3,3:1/3\",expected-playout,,,,0.5,100\n\
         crit,2,6,7,0.9,,gaussian,1,,12,0.5,100\n\
         crit,2,6,3,1.5,,gaussian,1,,12,0.5,100\n",
        close(crit),
        close(mv)
    );
    let file = temp_file(&csv);
    let output = pathology()
        .args([
            "validate",
            file.path().to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2)); // malformed rows
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let table = |name: &str| table_rows(&doc, name);
    let checked = table("checked");
    assert_eq!(checked.len(), 3);
    assert_eq!(checked[0]["exact"].as_f64().unwrap(), crit);
    assert_eq!(checked[1]["exact"].as_f64().unwrap(), mv);
    assert_eq!(checked[0]["holm_verdict"], "no difference detected");
    assert_eq!(checked[1]["holm_verdict"], "no difference detected");
    assert_eq!(checked[2]["holm_verdict"], "disagrees");
    assert!(
        checked[0]["parameters"]
            .as_str()
            .unwrap()
            .contains("gamma=0.9 evaluator=gaussian sigma=1 levels=12 depth=3")
    );
    let malformed = table("malformed");
    let reasons: Vec<&str> = malformed
        .iter()
        .map(|r| r["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons.len(), 4, "{reasons:?}");
    assert!(reasons[0].contains("--halfwidth") && reasons[0].contains("gaussian"));
    assert!(reasons[1].contains("expected-playout") && reasons[1].contains("--game p"));
    assert!(reasons[2].contains("'depth'"));
    assert!(reasons[3].contains("--gamma"));
}

/// The critical game at Nguyen & Ramanujan's H = 50 and b = 5 runs with
/// `--max-depth` (its nodes are drawn as the search reaches them); only the searched depths
/// are rows, each agreeing with the exact engine; shards merge byte for byte; the help lists
/// only the families and evaluators the command samples.
#[test]
fn critical_game_at_height_50_searches_the_first_depths() {
    let base = [
        "mc",
        "distributions",
        "--game",
        "crit",
        "--branching",
        "5",
        "--height",
        "50",
        "--gamma",
        "0.9",
        "--evaluator",
        "gaussian",
        "--sigma",
        "0.5",
        "--levels",
        "100",
        "--max-depth",
        "4",
        "--trials",
        "1200",
        "--seed",
        "3",
    ];
    let report = json_of(&[&base[..], &["--format", "json"]].concat());
    assert_eq!(parameter(&report, "max-depth"), "4");
    let rows = rows_of(&report);
    assert_eq!(rows.len(), 4);
    for (d, row) in rows.iter().enumerate() {
        assert_eq!(row["depth"].as_u64().unwrap(), d as u64 + 1);
        assert_eq!(row["height"].as_u64().unwrap(), 50);
        assert!(row["z"].as_f64().unwrap().abs() < 3.0, "{row}");
    }
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for k in ["1/2", "2/2"] {
        let path = dir.path().join(format!("shard{}.json", &k[..1]));
        let out = stdout_of(&[&base[..], &["--shard", k, "--format", "json"]].concat());
        std::fs::write(&path, out).unwrap();
        paths.push(path.display().to_string());
    }
    assert_eq!(
        stdout_of(&["merge", &paths[1], &paths[0]]),
        stdout_of(&base)
    );
    // Without --max-depth every depth to 50 would be searched: refused naming the option.
    let all = [&base[..16], &base[18..]].concat();
    refused(
        &all,
        &["--max-depth", "at most 9", "the default, the height"],
    );
    let mut deeper = base.to_vec();
    deeper[17] = "51";
    refused(&deeper, &["--max-depth", "1..=50"]);
    let help = stdout_of(&["mc", "distributions", "--help"]);
    assert!(
        help.contains("[possible values: p, crit]") || help.contains("- crit:"),
        "{help}"
    );
    for refused_family in [
        "- d:",
        "- n:",
        "- g:",
        "- sum:",
        "- count:",
        "- e1:",
        "- position:",
    ] {
        assert!(!help.contains(refused_family), "{refused_family} in {help}");
    }
    refused(
        &[
            "mc",
            "distributions",
            "--game",
            "n",
            "--height",
            "3",
            "--trials",
            "5",
        ],
        &["--game", "p, crit"],
    );
    refused(
        &[
            "mc",
            "distributions",
            "--game",
            "p",
            "--height",
            "3",
            "--trials",
            "5",
        ],
        &["--evaluator", "--game p"],
    );
}
