//! `pathology domain eight-puzzle`: the solved puzzle, exact accuracies, every
//! format with its manifest, the sampled route's seeding and sharding, and bad input refused
//! with exit 2 naming the argument.

use crate::common::{csv_body, json_of, parameter, pathology, refused, rows_of, stdout_of};

#[test]
fn the_distance_table_counts_every_state_and_the_two_farthest() {
    let report = json_of(&[
        "domain",
        "eight-puzzle",
        "--depth",
        "1",
        "--table",
        "distances",
        "--format",
        "json",
    ]);
    let rows = rows_of(&report);
    assert_eq!(rows.len(), 32);
    let total: u64 = rows.iter().map(|r| r["states"].as_u64().unwrap()).sum();
    assert_eq!(total, 181_440);
    assert_eq!(rows[31]["distance"].as_u64(), Some(31));
    assert_eq!(rows[31]["states"].as_u64(), Some(2));
}

#[test]
fn the_perfect_heuristic_is_always_correct_and_never_pathological() {
    let csv = stdout_of(&[
        "domain",
        "eight-puzzle",
        "--heuristic",
        "distance",
        "--depth",
        "1,3,31",
        "--format",
        "csv",
    ]);
    let body = csv_body(&csv);
    assert_eq!(
        body[0],
        "d,positions,correct,correct_exact,worse_next,worse_next_exact,mean_drop,mean_drop_exact"
    );
    for (line, d) in body[1..].iter().zip(["1", "3", "31"]) {
        assert_eq!(*line, format!("{d},181439,1,1/1,0,0/1,0,0/1"));
    }
}

#[test]
fn every_format_carries_the_manifest_with_every_parameter() {
    let args = [
        "domain",
        "eight-puzzle",
        "--heuristic",
        "misplaced",
        "--levels",
        "5",
        "--depth",
        "1..2",
    ];
    let report = json_of(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(parameter(&report, "heuristic"), "misplaced");
    assert_eq!(parameter(&report, "levels"), "5");
    assert_eq!(parameter(&report, "depth"), "1,2");
    assert_eq!(parameter(&report, "noise"), "none");
    assert_eq!(parameter(&report, "method"), "auto");
    assert_eq!(report["manifest"]["mode"].as_str(), Some("exact"));
    // Text, and CSV with `--manifest inline`, print the manifest as comments (plain CSV
    // carries it in a sidecar); Markdown and LaTeX the tables and title.
    for format in [
        &["--format", "text"][..],
        &["--format", "csv", "--manifest", "inline"],
    ] {
        let out = stdout_of(&[&args[..], format].concat());
        assert!(
            out.contains("--levels 5") && out.contains("--heuristic misplaced"),
            "{format:?}: {out}"
        );
    }
    for format in ["markdown", "latex"] {
        let out = stdout_of(&[&args[..], &["--format", format]].concat());
        assert!(
            out.contains("misplaced heuristic, 5 levels"),
            "{format}: {out}"
        );
    }
}

#[test]
fn discrete_noise_is_exact_and_gaussian_noise_is_sampled_with_intervals() {
    let noisy = json_of(&[
        "domain",
        "eight-puzzle",
        "--noise=-1:1/2,1:1/2",
        "--depth",
        "1",
        "--threads",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(noisy["manifest"]["mode"].as_str(), Some("exact"));
    let gaussian = |threads: &str, shard: Option<&str>| {
        let mut args = vec![
            "domain",
            "eight-puzzle",
            "--noise",
            "gaussian:2",
            "--depth",
            "1,2",
            "--trials",
            "300",
            "--seed",
            "7",
            "--threads",
            threads,
            "--format",
            "csv",
            "--manifest",
            "inline",
        ];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        stdout_of(&args)
    };
    let one = gaussian("1", None);
    assert_eq!(one, gaussian("2", None));
    assert!(
        one.contains("# mode: monte-carlo") && one.contains("# seed: 7"),
        "{one}"
    );
    assert_eq!(
        csv_body(&one)[0],
        "d,trials,successes,correct,correct_lower,correct_upper"
    );
    // The shards' trials add up to the whole run's, per depth.
    let trials =
        |csv: &str| -> u64 { csv_body(csv)[1].split(',').nth(1).unwrap().parse().unwrap() };
    let halves = trials(&gaussian("1", Some("1/2"))) + trials(&gaussian("1", Some("2/2")));
    assert_eq!(halves, 300);
}

#[test]
fn bad_input_is_refused_naming_the_argument() {
    fn run<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        [&["domain", "eight-puzzle"][..], extra].concat()
    }
    refused(&run(&["--depth", "0"]), &["--depth", "1..=100"]);
    refused(&run(&["--depth", "5..2"]), &["--depth"]);
    refused(&run(&["--depth", "1,x"]), &["--depth"]);
    refused(&run(&["--depth", "101"]), &["--depth"]);
    refused(
        &run(&["--heuristic", "euclid"]),
        &["--heuristic", "manhattan"],
    );
    refused(&run(&["--levels", "1"]), &["--levels"]);
    refused(&run(&["--noise", "gaussian:0"]), &["--noise"]);
    refused(&run(&["--noise", "1:0.5,2:0.6"]), &["--noise"]);
    refused(&run(&["--method", "fast"]), &["--method"]);
    refused(
        &run(&["--noise", "gaussian:1", "--method", "exact", "--depth", "1"]),
        &["--method"],
    );
    refused(
        &run(&["--noise", "gaussian:1", "--depth", "17"]),
        &["--depth", "1..=16"],
    );
    refused(
        &run(&["--noise=-1:1/2,1:1/2", "--method", "exact", "--depth", "6"]),
        &["refused"],
    );
    refused(&run(&["--table", "bogus"]), &["--table"]);
    pathology().args(run(&["--trials", "0"])).assert().code(2);
}
