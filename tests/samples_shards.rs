//! `pathology samples curves --shard K/N` and `pathology merge`: the shards' exact sums merge
//! into the one-run report byte for byte (exact and f64, CSV and JSON shards, more shards
//! than problems, `--drop-short`, standard input); shards of other runs, a missing or
//! repeated shard are refused; `compare`, `fit` and `beyond` refuse `--shard` with the
//! reason.

use crate::common::{ShardManifests, json_of, pathology, refused, stdout_of, write_shards};

const VOTES: &str = "tests/data/samples/votes.csv";
const VOTES_JSONL: &str = "tests/data/samples/votes.jsonl";
const COUNTS: &str = "tests/data/samples/counts.csv";

/// A per-sample file of 23 problems (ids not in sorted order), 12 samples each (9 for three
/// of them), up to 4 answers and 6 score levels, from a fixed linear congruential stream.
fn generated(dir: &std::path::Path) -> String {
    let mut state: u64 = 12345;
    let mut next = |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m
    };
    let mut text = String::from("problem,correct,answer,score\n");
    for p in 0..23u64 {
        let id = format!("q{}", (p * 7) % 23);
        let n = if p % 8 == 3 { 9 } else { 12 };
        for _ in 0..n {
            let answer = next(5);
            let correct = answer == 0;
            let shown = if answer == 4 {
                String::new()
            } else {
                format!("a{answer}")
            };
            let score = next(6) as f64 / 5.0;
            text.push_str(&format!("{id},{},{shown},{score}\n", u8::from(correct)));
        }
    }
    let path = dir.join("generated.csv");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Runs `base` in `shards` shards (JSON) and merges them in reverse order.
fn merged_json(base: &[&str], shards: u64, dir: &std::path::Path, format: &str) -> String {
    let mut files = Vec::new();
    for k in (1..=shards).rev() {
        let shard = format!("{k}/{shards}");
        let out = stdout_of(&[base, &["--shard", &shard, "--format", "json"]].concat());
        let path = dir.join(format!("shard-{k}-of-{shards}.json"));
        std::fs::write(&path, out).unwrap();
        files.push(path.display().to_string());
    }
    let args: Vec<&str> = ["merge"]
        .into_iter()
        .chain(files.iter().map(String::as_str))
        .chain(["--format", format])
        .collect();
    stdout_of(&args)
}

#[test]
fn merged_shards_are_the_one_run_report_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let generated = generated(dir.path());
    let runs: Vec<Vec<&str>> = vec![
        vec!["samples", "curves", VOTES, "--k", "1,2,4,8"],
        vec!["samples", "curves", VOTES, "--k", "1..8", "--exact"],
        vec![
            "samples",
            "curves",
            VOTES_JSONL,
            "--k",
            "1,3,8",
            "--ties",
            "wrong",
        ],
        vec!["samples", "curves", COUNTS, "--k", "1..8", "--exact"],
        vec!["samples", "curves", &generated, "--k", "1,2,3,5,9"],
        vec![
            "samples",
            "curves",
            &generated,
            "--k",
            "2..12",
            "--drop-short",
            "--exact",
        ],
    ];
    for base in &runs {
        for format in ["json", "text"] {
            let one = stdout_of(&[base.as_slice(), &["--format", format]].concat());
            // 1 shard, 2 shards, and more shards than problems (empty shards).
            for shards in [1, 2, 9] {
                let merged = merged_json(base, shards, dir.path(), format);
                assert_eq!(merged, one, "{base:?} in {shards} shards, {format}");
            }
        }
        // CSV shards with their manifests inline, beside a JSON one.
        let paths = write_shards(base, &[], dir.path(), "mixed", ShardManifests::Inline);
        let mut args = vec!["merge"];
        args.extend(paths.iter().map(String::as_str));
        args.extend(["--format", "csv"]);
        let one = stdout_of(&[base.as_slice(), &["--format", "csv"]].concat());
        assert_eq!(stdout_of(&args), one, "{base:?} mixed CSV and JSON shards");
    }
}

#[test]
fn every_problem_is_in_exactly_one_shard_by_sorted_id() {
    let dir = tempfile::tempdir().unwrap();
    let generated = generated(dir.path());
    let mut total = 0;
    let mut sizes = Vec::new();
    for k in 1..=4 {
        let shard = format!("{k}/4");
        let report = json_of(&[
            "samples", "curves", &generated, "--k", "1,2", "--shard", &shard, "--format", "json",
        ]);
        let rows = report["tables"][0]["rows"].as_array().unwrap().clone();
        assert_eq!(report["tables"][0]["name"], "sums");
        let problems = rows[0]["problems"].as_i64().unwrap();
        assert!(
            rows.iter()
                .all(|r| r["problems"].as_i64() == Some(problems))
        );
        assert!(rows.iter().all(|r| r["used"].as_i64() == Some(23)));
        sizes.push(problems);
        total += problems;
    }
    // floor(k 23 / 4) - floor((k - 1) 23 / 4).
    assert_eq!(sizes, vec![5, 6, 6, 6]);
    assert_eq!(total, 23);
}

#[test]
fn standard_input_reads_as_the_file_does() {
    let text = std::fs::read_to_string(VOTES).unwrap();
    let from_stdin = pathology()
        .args([
            "samples",
            "curves",
            "-",
            "--input-format",
            "csv",
            "--k",
            "1..8",
            "--exact",
            "--format",
            "csv",
        ])
        .write_stdin(text)
        .output()
        .unwrap();
    assert!(from_stdin.status.success());
    let from_file = stdout_of(&[
        "samples", "curves", VOTES, "--k", "1..8", "--exact", "--format", "csv",
    ]);
    let body = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        body(&String::from_utf8(from_stdin.stdout).unwrap()),
        body(&from_file)
    );
}

#[test]
fn shards_of_other_runs_or_missing_shards_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let write = |args: &[&str], name: &str| {
        let out = stdout_of(&[args, &["--format", "json"]].concat());
        let path = dir.path().join(name);
        std::fs::write(&path, out).unwrap();
        path.display().to_string()
    };
    let base = ["samples", "curves", VOTES, "--k", "1,2,4"];
    let one = write(&[&base[..], &["--shard", "1/2"]].concat(), "a1.json");
    let two = write(&[&base[..], &["--shard", "2/2"]].concat(), "a2.json");
    let other = write(
        &["samples", "curves", VOTES, "--k", "1,2,8", "--shard", "2/2"],
        "b2.json",
    );
    refused(&["merge", &one], &["shard 2/2 missing"]);
    refused(&["merge", &one, &one, &two], &["repeats shard 1/2"]);
    refused(
        &["merge", &one, &other],
        &["a shard of the same run", "parameter k"],
    );
    let mut edited: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&two).unwrap()).unwrap();
    edited["tables"][0]["rows"][0]["sum"] = "one half".into();
    let path = dir.path().join("edited.json");
    std::fs::write(&path, edited.to_string()).unwrap();
    refused(
        &["merge", &one, path.to_str().unwrap()],
        &["column sum", "an exact non-negative rational"],
    );
}

#[test]
fn compare_fit_and_beyond_refuse_shards_saying_why() {
    refused(
        &[
            "samples", "compare", VOTES, VOTES, "--k", "1,2", "--shard", "1/2",
        ],
        &["--shard", "bootstrap", "samples curves --shard K/N"],
    );
    refused(
        &["samples", "fit", COUNTS, "--k", "1,2", "--shard", "1/2"],
        &["--shard", "maximum likelihood"],
    );
    refused(
        &[
            "samples",
            "beyond",
            COUNTS,
            "--k",
            "8",
            "--moments",
            "2",
            "--shard",
            "1/2",
        ],
        &["--shard", "moment"],
    );
}
