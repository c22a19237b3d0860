//! `pathology merge` of the shards of sampled `pathology domain eight-puzzle | kqk` runs
//! (Gaussian noise: Monte Carlo): byte for byte the unsharded run with the same seed, from
//! JSON shards and from CSV shards of the table split by distance; what is not a shard of
//! one run (a missing or repeated shard, an exact output, a CSV of another table) refused
//! naming FILE, exit 2.

use crate::common::{refused, stdout_of};

/// A sampled run of each domain, and the table its shards are merged from.
const PUZZLE: (&[&str], &str) = (
    &[
        "domain",
        "eight-puzzle",
        "--noise",
        "gaussian:2",
        "--depth",
        "1..2",
        "--trials",
        "300",
        "--seed",
        "5",
    ],
    "by_distance",
);
const KQK: (&[&str], &str) = (
    &[
        "domain",
        "kqk",
        "--noise",
        "gaussian:40",
        "--depth",
        "1,2",
        "--trials",
        "300",
        "--seed",
        "3",
    ],
    "by_dtm",
);

fn with(run: &[&str], more: &[&str]) -> Vec<String> {
    run.iter().chain(more).map(|s| s.to_string()).collect()
}

fn output(args: &[String]) -> String {
    stdout_of(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// Writes the three shards of `run` as `format` (CSV: of `table`, manifest inline) into
/// `dir` and returns their paths.
fn shards(dir: &std::path::Path, run: &[&str], table: &str, format: &str) -> Vec<String> {
    (1..=3)
        .map(|k| {
            let shard = format!("{k}/3");
            let mut more = vec!["--shard", &shard, "--format", format];
            if format == "csv" {
                more.extend(["--table", table, "--manifest", "inline"]);
            }
            let path = dir.join(format!("{}{k}.{format}", run[1]));
            std::fs::write(&path, output(&with(run, &more))).unwrap();
            path.to_str().unwrap().to_string()
        })
        .collect()
}

fn merged(files: &[&str], more: &[&str]) -> String {
    stdout_of(&[&["merge"][..], files, more].concat())
}

fn json_shards_merge_to_the_unsharded_run((run, table): (&[&str], &str)) {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), run, table, "json");
    let f: Vec<&str> = files.iter().map(String::as_str).collect();
    // Any order.
    let json = merged(&[f[2], f[0], f[1]], &["--format", "json"]);
    assert_eq!(json, output(&with(run, &["--format", "json"])));
    assert!(!json.contains("\"shard\""), "{json}");
    let text = merged(&f, &["--format", "text"]);
    assert_eq!(text, output(&with(run, &[])));
}

fn csv_shards_merge_to_the_unsharded_run((run, table): (&[&str], &str)) {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), run, table, "csv");
    let f: Vec<&str> = files.iter().map(String::as_str).collect();
    assert_eq!(
        merged(&f, &["--format", "json"]),
        output(&with(run, &["--format", "json"]))
    );
    let csv = ["--format", "csv", "--table", table, "--manifest", "inline"];
    assert_eq!(merged(&f, &csv), output(&with(run, &csv)));
    // CSV and JSON shards mix.
    let json = shards(dir.path(), run, table, "json");
    assert_eq!(
        merged(&[f[0], &json[1], f[2]], &["--format", "text"]),
        output(&with(run, &[]))
    );
}

fn non_shards_are_refused((run, table): (&[&str], &str)) {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), run, table, "json");
    let f: Vec<&str> = files.iter().map(String::as_str).collect();
    refused(&["merge", f[0], f[2]], &["FILE", "shard 2/3 missing"]);
    refused(
        &["merge", f[0], f[1], f[1], f[2]],
        &["FILE", "repeats shard 2/3"],
    );
    // The exact (noise-free) output of the domain is complete, not a shard.
    let exact = dir.path().join("exact.json");
    let exact_run = with(&run[..2], &["--depth", "1,2", "--format", "json"]);
    std::fs::write(&exact, output(&exact_run)).unwrap();
    let exact = exact.to_str().unwrap();
    refused(
        &["merge", exact, f[1], f[2]],
        &["FILE", "exact", "not a shard"],
    );
    refused(&["merge", f[0], f[1], exact], &["FILE", "exact"]);
    // A CSV of the per-depth table lacks the split the merge needs.
    let accuracy = dir.path().join("accuracy.csv");
    let first = with(
        run,
        &["--shard", "1/3", "--format", "csv", "--manifest", "inline"],
    );
    std::fs::write(&accuracy, output(&first)).unwrap();
    refused(
        &["merge", accuracy.to_str().unwrap(), f[1], f[2]],
        &["FILE", "--format json", &format!("--table {table}")],
    );
}

#[test]
fn eight_puzzle_json_shards_merge_to_the_unsharded_run() {
    json_shards_merge_to_the_unsharded_run(PUZZLE);
}

#[test]
fn kqk_json_shards_merge_to_the_unsharded_run() {
    json_shards_merge_to_the_unsharded_run(KQK);
}

#[test]
fn eight_puzzle_csv_shards_of_by_distance_merge() {
    csv_shards_merge_to_the_unsharded_run(PUZZLE);
}

#[test]
fn kqk_csv_shards_of_by_dtm_merge() {
    csv_shards_merge_to_the_unsharded_run(KQK);
}

#[test]
fn eight_puzzle_merge_refuses_what_is_not_a_shard() {
    non_shards_are_refused(PUZZLE);
}

#[test]
fn kqk_merge_refuses_what_is_not_a_shard() {
    non_shards_are_refused(KQK);
}

#[test]
fn merge_names_the_mc_and_domain_experiments_it_knows() {
    let dir = tempfile::tempdir().unwrap();
    let shard = output(&with(
        &[
            "mc", "dgame", "--height", "3", "--f1", "0.1", "--f2", "0.1", "--trials", "20",
        ],
        &["--shard", "1/1", "--format", "json"],
    ));
    let path = dir.path().join("other.json");
    std::fs::write(
        &path,
        shard.replace(
            "\"subcommand\": \"mc dgame\"",
            "\"subcommand\": \"mc other\"",
        ),
    )
    .unwrap();
    refused(
        &["merge", path.to_str().unwrap()],
        &[
            "FILE",
            "mc dgame",
            "domain eight-puzzle",
            "domain kqk",
            "got mc other",
        ],
    );
}
