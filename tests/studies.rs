//! The game-playing studies (Chi & Nau's matches, Wilson, Parker & Nau's EMM figures) at
//! reduced sizes: byte-identical output from the same seed (twice, and on 1 vs 2 threads),
//! the paper's table transcribed as golden data, and bad input (exit 2, the argument named,
//! no panic).

use std::path::Path;

use crate::common::{
    ShardManifests, csv_body, parameter, refused, rows_of, stdout_of, write_shards,
};
use serde_json::Value;

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
    assert_eq!(csv_body(&outputs[0]).len(), 52); // header + 51 values of w
    assert_eq!(same_files(dirs[0].path(), dirs[1].path()), 4); // CSV, its manifest, PNG, SVG
    // The figure's CSV is the report's CSV, as printed.
    let written = std::fs::read_to_string(dirs[0].path().join("chi_nau_fig3.csv")).unwrap();
    assert_eq!(written, outputs[0]);
    assert_eq!(same_files(dirs[1].path(), dirs[2].path()), 4);
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
    let rows = rows_of(&report);
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    let share = row["share"].as_f64().unwrap();
    assert!(row["share_lower"].as_f64().unwrap() <= share);
    assert!(share <= row["share_upper"].as_f64().unwrap());
    assert_eq!(row["pairs"], 400);
    assert_eq!(row["evaluator"], "ew");
    assert_eq!(row["w"], 0.5);
    assert_eq!(
        row["minimax_wins"].as_f64().unwrap(),
        share * 800.0,
        "the share is the fraction of the 800 games"
    );
    // The split counts add up to the pairs and the wins.
    let count = |name: &str| row[name].as_u64().unwrap();
    assert_eq!(
        count("pairs_lost_both") + count("pairs_split") + count("pairs_won_both"),
        400
    );
    assert_eq!(
        count("pairs_split") + 2 * count("pairs_won_both"),
        count("minimax_wins")
    );
}

/// One pair used to print the zero-width interval [50.0%, 50.0%]. One pair
/// now gives an interval that spans most of [0, 1] and contains the estimate; so does a run
/// whose pairs all split (w = 1: both players perfect, every pair split).
#[test]
fn match_intervals_are_honest_at_small_n() {
    for (w, pairs) in [("0.5", "1"), ("0.1", "1"), ("1", "1"), ("1", "30")] {
        let report: Value = serde_json::from_str(&stdout_of(&[
            "mc", "match", "--w", w, "--pairs", pairs, "--seed", "7", "--format", "json",
        ]))
        .unwrap();
        let row = &rows_of(&report)[0];
        let (low, share, high) = (
            row["share_lower"].as_f64().unwrap(),
            row["share"].as_f64().unwrap(),
            row["share_upper"].as_f64().unwrap(),
        );
        assert!(low <= share && share <= high, "w = {w}: {row}");
        assert!(high - low > 0.1, "w = {w}, {pairs} pairs: [{low}, {high}]");
        if pairs == "1" {
            assert!(low < 0.25 && high > 0.75, "one pair: [{low}, {high}]");
        }
        if w == "1" {
            assert_eq!(row["pairs_split"].as_u64(), pairs.parse::<u64>().ok());
            assert!(low < 0.5 && 0.5 < high);
        }
    }
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

/// Chi & Nau's Section 4.4 table, transcribed in `tests/data/chi_nau_depth11.csv`, is what
/// `mc match-table` prints beside our numbers, cell for cell.
#[test]
fn match_table_reports_the_papers_numbers() {
    let golden = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/chi_nau_depth11.csv"),
    )
    .unwrap();
    let report: Value = serde_json::from_str(&stdout_of(&[
        "mc",
        "match-table",
        "--pairs",
        "40",
        "--seed",
        "2",
        "--format",
        "json",
    ]))
    .unwrap();
    let rows = rows_of(&report);
    let lines: Vec<&str> = golden.lines().skip(1).collect();
    assert_eq!(
        rows.len(),
        2 * lines.len(),
        "one row per depth and evaluator"
    );
    for line in lines {
        let cells: Vec<f64> = line.split(',').map(|c| c.parse().unwrap()).collect();
        for (e, paper) in [("e1", cells[1]), ("e2", cells[2])] {
            let found: Vec<&Value> = rows
                .iter()
                .filter(|r| r["search_depth"].as_f64() == Some(cells[0]) && r["evaluator"] == e)
                .collect();
            assert_eq!(found.len(), 1, "depth {}, {e}", cells[0]);
            let row = found[0];
            assert!((row["paper"].as_f64().unwrap() * 100.0 - paper).abs() < 1e-9);
            assert_eq!(row["pairs"], 40);
            assert_eq!(row["h"], 11);
            let share = row["share"].as_f64().unwrap();
            assert!(row["share_lower"].as_f64().unwrap() <= share);
        }
    }
}

/// `mc match`, `match-sweep` and `match-table` with `--shard K/N`: `merge` sums the shards
/// (any order, CSV and JSON mixed) into the unsharded run's output byte for byte, in JSON and
/// text, and refuses an incomplete or repeated set.
#[test]
fn match_shards_merge_into_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("figures");
    let out = out.to_str().unwrap();
    let runs: [&[&str]; 3] = [
        &[
            "mc", "match", "--w", "0.3", "--pairs", "301", "--seed", "21",
        ],
        &["mc", "match-table", "--pairs", "5", "--seed", "21"],
        &[
            "mc",
            "match-sweep",
            "--pairs",
            "17",
            "--seed",
            "21",
            "--out",
            out,
        ],
    ];
    for (r, base) in runs.iter().enumerate() {
        let full = stdout_of(&[base, &["--format", "json"][..]].concat());
        let text = stdout_of(&[base, &["--format", "text"][..]].concat());
        let paths = write_shards(
            base,
            &["--threads", "1"],
            dir.path(),
            &format!("run{r}-shard"),
            ShardManifests::Inline,
        );
        let merged = stdout_of(&["merge", &paths[2], &paths[0], &paths[1], "--format", "json"]);
        assert_eq!(merged, full, "{base:?}");
        assert_eq!(stdout_of(&["merge", &paths[1], &paths[2], &paths[0]]), text);
        refused(
            &["merge", &paths[0], &paths[1]],
            &["FILE", "shard 3/3 missing"],
        );
        refused(
            &["merge", &paths[0], &paths[0], &paths[1]],
            &["FILE", "repeats shard 1/3"],
        );
    }
    refused(
        &[
            "mc", "match", "--w", "0.3", "--pairs", "3", "--shard", "4/3",
        ],
        &["--shard"],
    );
}

#[test]
fn emm_figures_are_byte_identical_across_runs_and_threads() {
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    for (dir, threads) in dirs.iter().zip(["1", "2", "2"]) {
        stdout_of(&[
            "mc",
            "emm-figures",
            "--games",
            "20",
            "--seed",
            "4",
            "--threads",
            threads,
            "--out",
            dir.path().to_str().unwrap(),
        ]);
    }
    // 4 figures x (PNG, SVG, CSV, the CSV's manifest) + 4 calibration tables + the claims
    // (wilson_claims.txt).
    assert_eq!(same_files(dirs[0].path(), dirs[1].path()), 21);
    assert_eq!(same_files(dirs[1].path(), dirs[2].path()), 21);
}

#[test]
fn emm_reports_every_depth_and_algorithm() {
    let report: Value = serde_json::from_str(&stdout_of(&[
        "mc",
        "emm",
        "--game",
        "n",
        "--branching",
        "2",
        "--height",
        "6",
        "--evaluator",
        "artificial",
        "--error",
        "0.1",
        "--games",
        "300",
        "--seed",
        "3",
        "--format",
        "json",
    ]))
    .unwrap();
    let rows = rows_of(&report);
    // One row per (depth, algorithm), depth-major.
    assert_eq!(rows.len(), 6 * 3);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["d"], (i / 3 + 1) as u64);
        assert_eq!(row["algorithm"], ["minimax", "product", "emm"][i % 3]);
        let share = row["estimate"].as_f64().unwrap();
        assert!(row["estimate_lower"].as_f64().unwrap() <= share);
        assert!(share <= row["estimate_upper"].as_f64().unwrap());
        assert_eq!(row["trials"], 300);
        assert_eq!(
            share,
            row["successes"].as_f64().unwrap() / 300.0,
            "the estimate is the counts' ratio"
        );
        // Minimax has an exact value (and z); product and EMM have no exact engine.
        let minimax = row["algorithm"] == "minimax";
        assert_eq!(row["exact"].is_number(), minimax, "{row}");
        assert_eq!(row["z"].is_number(), minimax, "{row}");
        assert_eq!(row["seed"], "3");
        assert_eq!(
            (row["game"].as_str(), row["b"].as_u64()),
            (Some("n"), Some(2))
        );
    }
    // The last depth reaches the squares: every decision is correct.
    assert_eq!(rows[5 * 3 + 2]["estimate"], 1.0);
    assert_eq!(parameter(&report, "trials"), "300");
    assert_eq!(report["manifest"]["mode"], "monte-carlo");
}

/// The calibration step saves a table that `mc emm --calibration` reuses: the same output as
/// calibrating on the fly with the same boards is not required, but reuse must be exact.
#[test]
fn calibration_is_saved_and_reused() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("calibration.json");
    let csv = dir.path().join("calibration.csv");
    for path in [&table, &csv] {
        stdout_of(&[
            "mc",
            "emm-calibrate",
            "--game",
            "p",
            "--branching",
            "2",
            "--height",
            "6",
            "--games",
            "200",
            "--out",
            path.to_str().unwrap(),
        ]);
    }
    let with = |path: &Path| {
        stdout_of(&[
            "mc",
            "emm",
            "--game",
            "p",
            "--branching",
            "2",
            "--height",
            "6",
            "--evaluator",
            "natural",
            "--games",
            "200",
            "--calibration",
            path.to_str().unwrap(),
            "--format",
            "csv",
            "--manifest",
            "inline",
        ])
    };
    let a = with(&table);
    assert_eq!(a, with(&table));
    assert_eq!(a, with(&csv), "the CSV and JSON tables are the same table");
    let body = csv_body(&a);
    assert!(
        body[0].starts_with(
            "kind,game,b,h,p,evaluator,e,calibration_games,calibration_seed,d,algorithm,"
        ),
        "{}",
        body[0]
    );
    // The manifest records the table by its games and seed (emm-calibrate's defaults).
    assert!(a.contains("# parameter calibration_games: 200\n"), "{a}");
    assert!(a.contains("# parameter calibration_seed: 1\n"), "{a}");
    // A table for other games is refused, naming the argument.
    refused(
        &[
            "mc",
            "emm",
            "--branching",
            "3",
            "--height",
            "6",
            "--evaluator",
            "natural",
            "--games",
            "10",
            "--calibration",
            table.to_str().unwrap(),
        ],
        &["--calibration", "b = 3"],
    );
}

#[test]
fn emm_rejects_bad_input() {
    refused(
        &[
            "mc", "emm", "--error", "0.7", "--games", "5", "--height", "4",
        ],
        &["--error", "[0, 0.5]"],
    );
    refused(
        &["mc", "emm", "--branching", "1", "--games", "5"],
        &["--branching", "in 2..=4194304"],
    );
    refused(
        &["mc", "emm", "--height", "0", "--games", "5"],
        &["--height"],
    );
    refused(
        &["mc", "emm", "--p", "2", "--games", "5"],
        &["--p", "[0, 1]"],
    );
    refused(
        &[
            "mc",
            "emm",
            "--evaluator",
            "natural",
            "--games",
            "5",
            "--calibration",
            "/nonexistent/table.json",
        ],
        &["--calibration"],
    );
    refused(
        &["mc", "emm", "--games", "5", "--p", "0", "--height", "4"],
        &["--p", "non-trivial"],
    );
    refused(
        &["mc", "emm-figures", "--games", "0"],
        &["--games", "at least 1"],
    );
}

/// `mc emm --shard K/N`: the merged shards (any order, CSV and JSON mixed) are the unsharded
/// run's output byte for byte, with the artificial evaluator and with the natural one (whose
/// calibration every shard estimates in full from its own seed).
#[test]
fn emm_shards_merge_into_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    for (name, evaluator) in [
        (
            "artificial",
            &["--evaluator", "artificial", "--error", "0.2"][..],
        ),
        (
            "natural",
            &["--evaluator", "natural", "--calibration-games", "150"][..],
        ),
    ] {
        let base = [
            &[
                "mc",
                "emm",
                "--game",
                "p",
                "--branching",
                "2",
                "--height",
                "6",
                "--games",
                "701",
                "--seed",
                "13",
            ][..],
            evaluator,
        ]
        .concat();
        let full_json = stdout_of(&[&base[..], &["--format", "json"]].concat());
        let full_text = stdout_of(&base);
        let paths = write_shards(
            &base,
            &["--threads", "1"],
            dir.path(),
            name,
            ShardManifests::Inline,
        );
        for (path, k) in paths.iter().zip(["1/3", "2/3", "3/3"]) {
            let out = std::fs::read_to_string(path).unwrap();
            assert!(
                out.contains(&format!("shard: {k}"))
                    || out.contains(&format!("\"shard\": \"{k}\"")),
                "{out}"
            );
        }
        let merged = stdout_of(&["merge", &paths[2], &paths[0], &paths[1], "--format", "json"]);
        assert_eq!(merged, full_json, "{name}");
        assert_eq!(
            stdout_of(&["merge", &paths[1], &paths[2], &paths[0]]),
            full_text,
            "{name}"
        );
        refused(
            &["merge", &paths[0], &paths[1]],
            &["FILE", "shard 3/3 missing"],
        );
    }
    // Shards of different calibrations are not one run.
    let other = stdout_of(&[
        "mc",
        "emm",
        "--game",
        "p",
        "--branching",
        "2",
        "--height",
        "6",
        "--games",
        "701",
        "--seed",
        "13",
        "--evaluator",
        "natural",
        "--calibration-games",
        "151",
        "--shard",
        "3/3",
        "--format",
        "csv",
        "--manifest",
        "inline",
    ]);
    let path = dir.path().join("other3.csv");
    std::fs::write(&path, other).unwrap();
    let first = dir.path().join("natural1.csv");
    let second = dir.path().join("natural2.json");
    refused(
        &[
            "merge",
            first.to_str().unwrap(),
            second.to_str().unwrap(),
            path.to_str().unwrap(),
        ],
        &["FILE", "calibration_games"],
    );
}

/// `emm-calibrate --out` is checked before any boards are solved (a huge
/// --games that could never finish in the time limit), and the error names --out.
#[test]
fn emm_calibrate_checks_out_before_computing() {
    use predicates::prelude::*;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    for out in [
        dir.path().join("no/such/dir/c.json"),
        file.join("c.json"), // the parent is a file
    ] {
        super::common::pathology()
            .args([
                "mc",
                "emm-calibrate",
                "--games",
                "1000000000000",
                "--out",
                out.to_str().unwrap(),
            ])
            .timeout(std::time::Duration::from_secs(120))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "--out must be a file that can be written",
            ))
            .stderr(predicate::str::contains("--calibration").not())
            .stderr(predicate::str::contains("panicked").not());
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn emm_calibrate_prints_a_report_in_every_format() {
    let args = [
        "mc",
        "emm-calibrate",
        "--game",
        "n",
        "--branching",
        "3",
        "--height",
        "4",
        "--games",
        "120",
        "--seed",
        "8",
    ];
    let report: Value =
        serde_json::from_str(&stdout_of(&[&args[..], &["--format", "json"]].concat())).unwrap();
    let rows = rows_of(&report);
    assert_eq!(rows.len(), 2 * 4);
    for t in 1..=4u32 {
        let nodes: u64 = rows
            .iter()
            .filter(|r| r["node_height"] == t)
            .map(|r| r["nodes"].as_u64().unwrap())
            .sum();
        assert_eq!(
            nodes,
            120 * 3u64.pow(4 - t),
            "every node of height {t} judged once"
        );
    }
    for r in &rows {
        let (nodes, wrong) = (r["nodes"].as_f64().unwrap(), r["wrong"].as_f64().unwrap());
        if nodes > 0.0 {
            assert_eq!(r["error"].as_f64().unwrap(), wrong / nodes);
        }
        assert!(r["error_lower"].as_f64().unwrap() <= r["error"].as_f64().unwrap());
    }
    assert_eq!(report["manifest"]["seed"], "8");
    assert_eq!(parameter(&report, "games"), "120");
    for (format, mark) in [
        ("text", "loss for Max"),
        ("csv", "kind,game,b,h,p,seed,node_height,"),
        ("markdown", "| height |"),
        ("latex", "\\begin{tabular}"),
    ] {
        let out = stdout_of(&[&args[..], &["--format", format]].concat());
        assert!(out.contains(mark), "{format}: {out}");
    }
}

/// `mc emm` prints the exact minimax value beside the estimate with z; at this
/// fixed seed the z-scores are pinned (seeded output is reproducible) and small.
#[test]
fn emm_minimax_z_scores_are_pinned() {
    let report: Value = serde_json::from_str(&stdout_of(&[
        "mc",
        "emm",
        "--game",
        "p",
        "--branching",
        "2",
        "--height",
        "8",
        "--games",
        "20000",
        "--seed",
        "1",
        "--format",
        "json",
    ]))
    .unwrap();
    let z: Vec<f64> = rows_of(&report)
        .iter()
        .filter(|r| r["algorithm"] == "minimax")
        .map(|r| r["z"].as_f64().unwrap())
        .collect();
    let pinned = [
        0.6128, -0.0809, 0.3704, 0.4703, -0.5352, 0.2206, -0.2028, 0.0,
    ];
    assert_eq!(z.len(), pinned.len());
    for (got, want) in z.iter().zip(pinned) {
        assert!((got - want).abs() < 5e-5, "{z:?}");
        assert!(got.abs() < 1.0);
    }
}
