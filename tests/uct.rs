//! `pathology mc uct` (Nguyen & Ramanujan 2024, UCT on the critical win-loss game and on P-
//! and N-games): every game and option runs, every format carries the manifest, the output
//! does not depend on the thread count, three shards merge into the unsharded run byte for
//! byte, bad input is refused naming the option, and the statistics are those of the rest of
//! `mc` (successes / trials, Wilson interval, a pinned exact value checked by its z-score).

use serde_json::Value;

use crate::common::{csv_body, json_of, parameter, refused, stdout_of};

/// A small, fast run of `mc uct` (seed 7, H = 12 unless `extra` gives them) with `extra`.
fn uct_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "mc",
        "uct",
        "--c",
        "0.5,10",
        "--iterations",
        "1,10,100",
        "--games",
        "60",
    ];
    for (option, default) in [("--seed", "7"), ("--height", "12")] {
        if !extra.contains(&option) {
            args.extend([option, default]);
        }
    }
    args.extend_from_slice(extra);
    args
}

/// The table named `name` of a JSON report.
fn table<'a>(report: &'a Value, name: &str) -> &'a Vec<Value> {
    report["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no table {name}"))["rows"]
        .as_array()
        .unwrap()
}

/// Every game runs with a spread of its options; rows per (c, N) carry successes,
/// trials and a Wilson interval around the estimate; the critical game and P-games get the
/// exact d-ply minimax lines for d = 1..8 (fewer when H is smaller), and so do N-games with
/// the count evaluators; a combination without an exact engine gets a note instead.
#[test]
fn every_game_runs_with_its_minimax_lines() {
    for (game, extra, minimax_rows) in [
        ("crit", &["--branching", "3", "--gamma", "0.9,1"][..], 8),
        (
            "crit",
            &["--evaluator", "expected-playout", "--final", "visits"][..],
            8,
        ),
        (
            "crit",
            &["--evaluator", "artificial", "--error", "0.2"][..],
            8,
        ),
        (
            "crit",
            &["--evaluator", "gaussian", "--sigma", "0.5"][..],
            8,
        ),
        ("p", &["--height", "6", "--evaluator", "perfect"][..], 6),
        (
            "n",
            &["--height", "6", "--evaluator", "expected-playout"][..],
            6,
        ),
        ("n", &["--height", "6", "--evaluator", "gaussian"][..], 0),
    ] {
        let args = uct_args(&[&["--game", game, "--format", "json"][..], extra].concat());
        let report = json_of(&args);
        assert_eq!(parameter(&report, "game"), game, "{args:?}");
        let rows = table(&report, "estimates");
        assert_eq!(rows.len(), 6, "{args:?}");
        for row in rows {
            let (s, t) = (
                row["successes"].as_u64().unwrap(),
                row["trials"].as_u64().unwrap(),
            );
            assert_eq!(t, 60);
            let p = row["estimate"].as_f64().unwrap();
            assert!((p - s as f64 / t as f64).abs() < 1e-12);
            let (lo, hi) = (
                row["estimate_lower"].as_f64().unwrap(),
                row["estimate_upper"].as_f64().unwrap(),
            );
            assert!(lo <= p && p <= hi && 0.0 <= lo && hi <= 1.0, "{row}");
        }
        let minimax = report["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "minimax")
            .map_or(0, |t| t["rows"].as_array().unwrap().len());
        assert_eq!(minimax, minimax_rows, "{args:?}");
        if minimax_rows == 0 {
            let notes = report["notes"].to_string();
            assert!(notes.contains("minimax"), "{notes}");
        }
    }
}

/// The same seed gives the same bytes on 1 and 2 threads, in every format, and every format
/// carries the manifest (version, command, seed).
#[test]
fn output_does_not_depend_on_threads_and_carries_the_manifest() {
    for format in ["text", "csv", "json", "markdown", "latex"] {
        // CSV carries it with --manifest inline (the other formats ignore the option).
        let one = stdout_of(&uct_args(&[
            "--format",
            format,
            "--manifest",
            "inline",
            "--threads",
            "1",
        ]));
        let two = stdout_of(&uct_args(&[
            "--format",
            format,
            "--manifest",
            "inline",
            "--threads",
            "2",
        ]));
        assert_eq!(one, two, "{format}");
        assert!(one.contains("mc uct"), "{format}: no command in\n{one}");
        assert!(one.contains("seed"), "{format}: no seed in\n{one}");
    }
    let other = stdout_of(&uct_args(&["--format", "csv", "--seed", "8"]));
    assert_ne!(
        csv_body(&other),
        csv_body(&stdout_of(&uct_args(&["--format", "csv"])))
    );
}

/// Three shards, merged in any order, equal the unsharded run byte for byte (CSV and JSON,
/// with the minimax table rebuilt by `merge`); a missing shard is refused.
#[test]
fn three_shards_merge_into_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["csv", "json"] {
        let whole = stdout_of(&uct_args(&["--format", format, "--threads", "2"]));
        let mut paths = Vec::new();
        for k in ["3/3", "1/3", "2/3"] {
            let out = stdout_of(&uct_args(&[
                "--format",
                format,
                "--manifest",
                "inline",
                "--shard",
                k,
            ]));
            let path = dir.path().join(format!("shard{}.{format}", &k[..1]));
            std::fs::write(&path, out).unwrap();
            paths.push(path.to_str().unwrap().to_string());
        }
        let mut merge = vec!["merge", "--format", format];
        merge.extend(paths.iter().map(String::as_str));
        assert_eq!(stdout_of(&merge), whole, "{format}");
        refused(&["merge", &paths[0], &paths[1]], &["shard 2/3 missing"]);
    }
}

/// At N = 1 one root move has been expanded (uniformly) and the decision is an unexpanded
/// move, uniformly (the authors' readout); exactly one root move of the critical game wins,
/// so the decision wins with probability exactly 1/2 for b = 2 and 3/4 * 1/3 = 1/4 for b = 4.
/// The estimates agree with these values (|z| < 4, as the rest of `mc` checks). With the
/// perfect evaluator and 3000 iterations UCT wins every game of b = 2, H = 10; not so at
/// b = 4 (the perfect values of a won node's losing children pull its mean down), which is
/// the paper's point and not checked here.
#[test]
fn first_decisions_match_their_exact_values() {
    for (b, exact) in [("2", 0.5), ("4", 0.25)] {
        let report = json_of(&[
            "mc",
            "uct",
            "--branching",
            b,
            "--height",
            "10",
            "--c",
            "1",
            "--iterations",
            "1,3000",
            "--evaluator",
            "perfect",
            "--games",
            "2000",
            "--seed",
            "3",
            "--format",
            "json",
        ]);
        let rows = table(&report, "estimates");
        let p = rows[0]["estimate"].as_f64().unwrap();
        let z = (p - exact) / (exact * (1.0 - exact) / 2000.0).sqrt();
        assert!(z.abs() < 4.0, "b = {b}: {p} against {exact}");
        if b == "2" {
            assert_eq!(rows[1]["estimate"].as_f64().unwrap(), 1.0);
        }
    }
}

/// A histogram file (true values 1 and -1, on the +-1 scale) in `dir`.
fn histogram_file(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

const HISTOGRAM: &str = "value,evaluation,weight\n1,0.9,4\n1,0.1,2\n1,-0.4,1\n-1,-0.9,4\n\
                         -1,-0.1,2\n-1,0.4,1\n";

/// `--evaluator histogram --histogram FILE`: the manifest names the file and its hash and its
/// command line regenerates the output; 1 and 2 threads give the same bytes; two shards merge
/// into the unsharded run byte for byte in every format `merge` writes (`merge` reads the
/// file again and refuses it once it has changed); P-games get exact lines, N-games a note.
#[test]
fn histogram_runs_are_deterministic_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let file = histogram_file(dir.path(), "h.csv", HISTOGRAM);
    let run = |extra: &[&str]| {
        let base = [
            "--branching",
            "3",
            "--gamma",
            "0.9",
            "--evaluator",
            "histogram",
            "--histogram",
            &file,
        ];
        stdout_of(&uct_args(&[&base[..], extra].concat()))
    };
    let report: Value = serde_json::from_str(&run(&["--format", "json"])).unwrap();
    assert_eq!(parameter(&report, "histogram"), file);
    let hash = parameter(&report, "histogram_fnv1a64").to_string();
    assert_eq!(hash.len(), 16);
    let command = report["manifest"]["command"].as_str().unwrap();
    assert!(
        command.contains(&format!(
            "--evaluator histogram --histogram {file} --histogram-fnv1a64 {hash} "
        )),
        "{command}"
    );
    let again: Vec<&str> = command
        .split(' ')
        .skip(1)
        .chain(["--format", "json"])
        .collect();
    assert_eq!(json_of(&again), report);
    assert_eq!(table(&report, "minimax").len(), 8);
    for format in ["text", "csv", "json"] {
        let whole = run(&["--format", format, "--threads", "1"]);
        assert_eq!(
            run(&["--format", format, "--threads", "2"]),
            whole,
            "{format}"
        );
        if format == "text" {
            continue; // merge reads CSV and JSON
        }
        let mut paths = Vec::new();
        for k in ["2/2", "1/2"] {
            let out = run(&[
                "--format",
                format,
                "--manifest",
                "inline",
                "--shard",
                k,
                "--threads",
                "2",
            ]);
            let path = dir.path().join(format!("shard{}.{format}", &k[..1]));
            std::fs::write(&path, out).unwrap();
            paths.push(path.to_str().unwrap().to_string());
        }
        let merged = stdout_of(&["merge", "--format", format, &paths[0], &paths[1]]);
        assert_eq!(merged, whole, "{format}");
        let merged_text = stdout_of(&["merge", "--format", "text", &paths[0], &paths[1]]);
        assert_eq!(merged_text, run(&["--format", "text"]), "{format}");
    }
    // A changed file is refused by merge and by the manifest's command line.
    let shards = [
        dir.path().join("shard1.csv").to_str().unwrap().to_string(),
        dir.path().join("shard2.csv").to_str().unwrap().to_string(),
    ];
    histogram_file(dir.path(), "h.csv", &format!("{HISTOGRAM}1,0.5,1\n"));
    let mismatch = ["--histogram-fnv1a64", "the hash of --histogram"];
    refused(&["merge", &shards[0], &shards[1]], &mismatch);
    refused(&again, &mismatch);
    // P-games get the exact lines of the distributions engine; N-games a note saying why not.
    for (game, rows) in [("p", 6), ("n", 0)] {
        let report = json_of(&uct_args(&[
            "--game",
            game,
            "--height",
            "6",
            "--evaluator",
            "histogram",
            "--histogram",
            &histogram_file(dir.path(), "g.csv", HISTOGRAM),
            "--format",
            "json",
        ]));
        let minimax = report["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "minimax")
            .map_or(0, |t| t["rows"].as_array().unwrap().len());
        assert_eq!(minimax, rows, "{game}");
        if rows == 0 {
            assert!(
                report["notes"]
                    .to_string()
                    .contains("histogram evaluator on N-games")
            );
        }
    }
}

/// The histogram's options are refused up front, naming them: each without the other, a
/// file that is missing, a directory, not CSV, with a negative weight, or without the true
/// value -1 (exit 2, no panic, nothing on standard output).
#[test]
fn bad_histograms_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let good = histogram_file(dir.path(), "good.csv", HISTOGRAM);
    let negative = histogram_file(dir.path(), "negative.csv", "1,0.5,1\n-1,-0.5,-1\n");
    let won_only = histogram_file(dir.path(), "won.csv", "1,0.5\n");
    let not_csv = histogram_file(dir.path(), "text.csv", "[package]\nname = 1\n");
    let missing = dir.path().join("missing.csv");
    let missing = missing.to_str().unwrap();
    let folder = dir.path().to_str().unwrap();
    fn with(file: &str) -> Vec<&str> {
        vec!["mc", "uct", "--evaluator", "histogram", "--histogram", file]
    }
    for (args, mentions) in [
        (
            vec!["mc", "uct", "--histogram", good.as_str()],
            &[
                "--histogram",
                "--evaluator histogram",
                "got --evaluator gaussian",
            ][..],
        ),
        (
            vec!["mc", "uct", "--evaluator", "histogram"],
            &["--histogram must be given with --evaluator histogram"][..],
        ),
        (
            vec![
                "mc",
                "uct",
                "--evaluator",
                "histogram",
                "--histogram-fnv1a64",
                "00",
            ],
            &["--histogram-fnv1a64", "--histogram"][..],
        ),
        (with(missing), &["--histogram", "missing.csv"][..]),
        (
            with(folder),
            &["--histogram", "a readable UTF-8 CSV file"][..],
        ),
        (with(&negative), &["--histogram", "weights at least 0"][..]),
        (with(&won_only), &["--histogram", "true value -1"][..]),
        (
            with(&not_csv),
            &["--histogram", "numbers as decimals or fractions"][..],
        ),
        (
            [with(&good), vec!["--histogram-fnv1a64", "0123456789abcdef"]].concat(),
            &["--histogram-fnv1a64", "the hash of --histogram"][..],
        ),
    ] {
        refused(&args, mentions);
    }
}

/// Bad input is refused up front naming the option and its allowed range (exit 2, nothing
/// on standard output).
#[test]
fn bad_input_is_refused() {
    for (extra, mention) in [
        (&["--game", "chess"][..], "--game"),
        (&["--c", "-1"][..], "--c"),
        (&["--c", "1,x"][..], "--c"),
        (&["--iterations", "10,1"][..], "--iterations"),
        (&["--iterations", "0"][..], "--iterations"),
        (&["--gamma", "1.5"][..], "--gamma"),
        (&["--game", "p", "--gamma", "0.9"][..], "--gamma"),
        (&["--sigma", "-0.1"][..], "--sigma"),
        (&["--evaluator", "perfect", "--sigma", "0.1"][..], "--sigma"),
        (&["--evaluator", "chess"][..], "--evaluator"),
        (&["--final", "best"][..], "--final"),
        (&["--branching", "1"][..], "--branching"),
        (&["--shard", "4/3"][..], "--shard"),
        (&["--games", "0"][..], "--games"),
    ] {
        let mut args = vec!["mc", "uct"];
        args.extend_from_slice(extra);
        refused(&args, &[mention]);
    }
    // Too much work is refused with an estimate before it starts.
    refused(
        &[
            "mc",
            "uct",
            "--branching",
            "8",
            "--iterations",
            "100000",
            "--games",
            "100000000",
        ],
        &["--games"],
    );
}
