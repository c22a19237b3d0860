//! `pathology mc ballard | kalah-gap` (Chi & Nau 1987, Sections 4.2 and 4.5): every format
//! parses, the same seed gives the same bytes for any thread count, Ballard's shards merge
//! into the unsharded run byte for byte, and bad input is refused naming the option.

use crate::common::{ShardManifests, csv_body, json_of, refused, rows_of, stdout_of, write_shards};

const BALLARD: &[&str] = &[
    "mc", "ballard", "--height", "4", "--errors", "0,0.3", "--trials", "41", "--seed", "5",
];
const GAP: &[&str] = &[
    "mc",
    "kalah-gap",
    "--boards",
    "4",
    "--variant",
    "default,turns",
    "--seed",
    "2",
];

fn run(args: &[&str], more: &[&str]) -> String {
    stdout_of(&[args, more].concat())
}

#[test]
fn both_commands_print_every_format_the_same_for_any_thread_count() {
    for (args, first, rows, numeric) in [(BALLARD, "ballard", 8, "share"), (GAP, "gap", 8, "rhf")] {
        for format in ["text", "markdown", "latex"] {
            assert!(run(args, &["--format", format]).contains("pathology"));
        }
        let csv = run(args, &["--format", "csv", "--threads", "1"]);
        assert_eq!(csv, run(args, &["--format", "csv", "--threads", "2"]));
        let body = csv_body(&csv).join("\n");
        let mut reader = csv::Reader::from_reader(body.as_bytes());
        let column = reader
            .headers()
            .unwrap()
            .iter()
            .position(|h| h == numeric)
            .unwrap();
        for r in reader.records() {
            r.unwrap()[column].parse::<f64>().unwrap();
        }
        let report = json_of(&[args, &["--format", "json"]].concat());
        assert_eq!(report["tables"][0]["name"], first);
        assert_eq!(rows_of(&report).len(), rows);
    }
}

#[test]
fn ballard_shards_merge_into_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let full = run(BALLARD, &["--format", "json"]);
    let paths = write_shards(
        BALLARD,
        &["--threads", "1"],
        dir.path(),
        "shard",
        ShardManifests::Inline,
    );
    let merged = stdout_of(&["merge", &paths[1], &paths[2], &paths[0], "--format", "json"]);
    assert_eq!(merged, full);
    refused(
        &["merge", &paths[0], &paths[1]],
        &["FILE", "shard 3/3 missing"],
    );
}

#[test]
fn bad_input_is_refused_naming_the_option() {
    fn ballard<'a>(more: &[&'a str]) -> Vec<&'a str> {
        [&["mc", "ballard", "--trials", "5"][..], more].concat()
    }
    refused(&ballard(&["--branching", "4"]), &["--branching", "2..=3"]);
    refused(&ballard(&["--height", "13"]), &["--height", "2..=12"]);
    refused(&ballard(&["--mix", "1"]), &["--mix", "[0, 1)"]);
    refused(
        &ballard(&["--errors", "0.3,0.1"]),
        &["--errors", "increasing"],
    );
    refused(&ballard(&["--errors", "0,0.7"]), &["--errors", "[0, 0.5]"]);
    refused(&ballard(&["--search-depth", "9"]), &["--search-depth"]);
    refused(
        &["mc", "ballard", "--trials", "1000000000000"],
        &["--trials"],
    );
    refused(&["mc", "kalah-gap", "--variant", "best"], &["--variant"]);
    refused(&["mc", "kalah-gap", "--boards", "0"], &["--boards"]);
    refused(&["mc", "kalah-gap", "--boards", "100000000"], &["--boards"]);
}
