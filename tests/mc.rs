//! The Monte Carlo commands: agreement with exact values, reproducibility across thread
//! counts, Ross's position, honest intervals for all-zero losses, shards that merge into the
//! unsharded run, and bad input (exit 2, a message naming the argument, no panic).

use crate::common::{
    ShardManifests, csv_body, json_of, parameter, refused, rows_of, stdout_of, table_rows,
    write_shards,
};
use serde_json::Value;

/// Agreement criterion: every depth within this many standard errors of the exact value.
const SIGMAS: f64 = 4.0;

fn dgame_args<'a>(
    h: &'a str,
    f1: &'a str,
    f2: &'a str,
    trials: &'a str,
    seed: &'a str,
) -> Vec<&'a str> {
    vec![
        "mc", "dgame", "--height", h, "--f1", f1, "--f2", f2, "--trials", trials, "--seed", seed,
        "--format", "json",
    ]
}

#[test]
fn mc_dgame_agrees_with_exact_values() {
    for (h, f1, f2) in [
        ("10", "0.1", "0.1"),
        ("8", "0.3", "0.8"),
        ("7", "0.9", "0.2"),
    ] {
        let report = json_of(&dgame_args(h, f1, f2, "30000", "11"));
        let rows = rows_of(&report);
        assert_eq!(rows.len(), h.parse::<usize>().unwrap());
        for row in &rows {
            let z = row["z"].as_f64().unwrap();
            assert!(z.abs() <= SIGMAS, "h={h} f1={f1} f2={f2}: {row}");
            let (low, high) = (
                row["estimate_lower"].as_f64().unwrap(),
                row["estimate_upper"].as_f64().unwrap(),
            );
            assert!(
                low <= row["estimate"].as_f64().unwrap()
                    && row["estimate"].as_f64().unwrap() <= high
            );
            assert!(row["exact"].as_f64().is_some() && row["d"].as_u64().is_some());
        }
        assert_eq!(parameter(&report, "trials"), "30000");
        assert_eq!(report["manifest"]["seed"], "11");
        assert!(
            rows.iter()
                .all(|r| r["trials"] == 30000 && r["seed"] == "11")
        );
    }
}

#[test]
fn mc_dgame_output_does_not_depend_on_threads_or_engine() {
    let mut args = dgame_args("9", "0.2", "0.4", "20000", "5");
    let one = stdout_of(&[&args[..], &["--threads", "1"]].concat());
    let two = stdout_of(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    args.extend(["--engine", "generic", "--threads", "2"]);
    let generic: Value = serde_json::from_str(&stdout_of(&args)).unwrap();
    let fast: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(
        rows_of(&generic),
        rows_of(&fast)
            .iter()
            .map(|r| {
                let mut r = r.clone();
                r["engine"] = "generic".into();
                r
            })
            .collect::<Vec<_>>()
    );
    let other_seed = stdout_of(&dgame_args("9", "0.2", "0.4", "20000", "6"));
    let other: Value = serde_json::from_str(&other_seed).unwrap();
    assert_ne!(rows_of(&other), rows_of(&fast));
}

#[test]
fn mc_dgame_text_and_csv() {
    let text = stdout_of(&[
        "mc", "dgame", "--height", "4", "--f1", "0.5", "--f2", "0.5", "--trials", "100",
    ]);
    assert!(text.starts_with("D(d,4) for f1 = 0.5, f2 = 0.5"), "{text}");
    let csv = stdout_of(&[
        "mc", "dgame", "--height", "4", "--f1", "1/2", "--f2", "0.5", "--trials", "100",
        "--format", "csv",
    ]);
    let mut lines = csv_body(&csv).into_iter();
    assert_eq!(
        lines.next(),
        Some(
            "kind,h,d,f1,f1_exact,f2,f2_exact,engine,seed,successes,trials,estimate,estimate_lower,estimate_upper,exact,z"
        )
    );
    assert_eq!(lines.count(), 4);
}

#[test]
fn alphabeta_on_ross_position() {
    let report = json_of(&["alphabeta", "--board", "........O", "--format", "json"]);
    let table = |name: &str| table_rows(&report, name);
    let moves = table("moves");
    let squares: Vec<u64> = moves
        .iter()
        .map(|m| m["square"].as_u64().unwrap())
        .collect();
    assert_eq!(squares, vec![0, 1, 2, 3, 4, 5, 6, 7]);
    for m in &moves {
        let square = m["square"].as_u64().unwrap();
        let expected_true = if square == 4 { 0.0 } else { -1.0 };
        assert_eq!(
            m["minimax"].as_f64().unwrap(),
            expected_true,
            "square {square}"
        );
        if (5..=7).contains(&square) {
            assert_eq!(m["alphabeta"].as_f64().unwrap(), 0.0);
            assert_eq!(m["bound"], "true");
        }
    }
    let loss = |rule: &str| {
        table("tie_breaking")
            .into_iter()
            .find(|r| r["rule"] == rule)
            .unwrap()["loss_probability"]
            .as_f64()
    };
    assert_eq!(loss("naive"), Some(0.75));
    assert_eq!(loss("safe"), Some(0.0));
    let text = stdout_of(&["alphabeta", "--board", "........O"]);
    assert!(text.contains("3/4"), "{text}");
}

#[test]
fn mc_alphabeta_reports_naive_losses_and_safe_zero() {
    let args = [
        "mc",
        "alphabeta",
        "--branching",
        "3",
        "--depth",
        "4",
        "--trials",
        "2000",
        "--seed",
        "3",
        "--format",
        "json",
    ];
    let report = json_of(&args);
    let quantity = |report: &Value, name: &str| {
        rows_of(report)
            .into_iter()
            .find(|r| r["quantity"] == name)
            .unwrap()
    };
    assert!(
        quantity(&report, "naive_can_lose")["estimate"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    assert_eq!(
        quantity(&report, "safe_loss_probability")["estimate"].as_f64(),
        Some(0.0)
    );
    let again = stdout_of(&[&args[..], &["--threads", "1"]].concat());
    assert_eq!(serde_json::from_str::<Value>(&again).unwrap(), report);
    let ttt = json_of(&[
        "mc",
        "alphabeta",
        "--positions",
        "tictactoe",
        "--plies",
        "3",
        "--trials",
        "300",
        "--format",
        "json",
    ]);
    assert_eq!(parameter(&ttt, "plies"), "3");
    assert_eq!(
        quantity(&ttt, "safe_loss_probability")["estimate"].as_f64(),
        Some(0.0)
    );
}

#[test]
fn bad_input_is_refused() {
    refused(
        &[
            "mc", "dgame", "--height", "6", "--f1", "0.5", "--f2", "0.5", "--trials", "0",
        ],
        &["--trials", "at least 1"],
    );
    refused(
        &[
            "mc", "dgame", "--height", "6", "--f1", "1.5", "--f2", "0.5", "--trials", "10",
        ],
        &["--f1", "[0, 1]"],
    );
    refused(
        &[
            "mc", "dgame", "--height", "6", "--f1", "0.5", "--f2", "-0.5", "--trials", "10",
        ],
        &["--f2", "[0, 1]"],
    );
    refused(
        &[
            "mc", "dgame", "--height", "30", "--f1", "0.5", "--f2", "0.5", "--trials", "10",
        ],
        &["--height"],
    );
    refused(
        &[
            "mc",
            "dgame",
            "--height",
            "6",
            "--f1",
            "0.5",
            "--f2",
            "0.5",
            "--trials",
            "10",
            "--threads",
            "0",
        ],
        &["--threads"],
    );
    refused(&["mc", "alphabeta", "--trials", "0"], &["--trials"]);
    refused(
        &["mc", "alphabeta", "--trials", "10", "--branching", "1"],
        &["--branching"],
    );
    refused(
        &["alphabeta", "--board", "XX......."],
        &["--board", "mark counts"],
    );
    refused(
        &["alphabeta", "--board", "XXXOO...."],
        &["--board", "not over"],
    );
    refused(&["alphabeta", "--board", "..."], &["--board"]);
}

fn errprop_args<'a>(
    gamma: &'a str,
    delta: &'a str,
    f1: &'a str,
    f2: &'a str,
    steps: &'a str,
    trials: &'a str,
) -> Vec<&'a str> {
    vec![
        "mc", "errprop", "--gamma", gamma, "--delta", delta, "--f1", f1, "--f2", f2, "--steps",
        steps, "--trials", trials, "--seed", "13", "--format", "json",
    ]
}

/// Both rows of `mc errprop` within SIGMAS of the map; returns (gamma_K, delta_K) estimates.
fn errprop_rows_agree(report: &Value) -> (f64, f64) {
    let rows = rows_of(report);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["quantity"], "gamma");
    assert_eq!(rows[1]["quantity"], "delta");
    let trials: u64 = parameter(report, "trials").parse().unwrap();
    for row in &rows {
        let z = row["z"].as_f64().unwrap();
        assert!(z.abs() <= SIGMAS, "{report}");
        let estimate = row["estimate"].as_f64().unwrap();
        assert!(row["estimate_lower"].as_f64().unwrap() <= estimate);
        assert!(estimate <= row["estimate_upper"].as_f64().unwrap());
        assert_eq!(row["trials"].as_u64(), Some(trials));
        assert!(row["exact"].as_f64().is_some());
    }
    (
        rows[0]["estimate"].as_f64().unwrap(),
        rows[1]["estimate"].as_f64().unwrap(),
    )
}

#[test]
fn mc_errprop_agrees_with_the_map() {
    for (gamma, delta, f1, f2, steps) in [
        ("0.3", "0.2", "0.8", "0.8", "3"),
        ("0.3", "0.2", "0.2", "0.2", "2"),
        ("0.15", "0.1", "0.6", "0.3", "4"),
        ("1/4", "1/8", "1/2", "1", "1"),
    ] {
        let report = json_of(&errprop_args(gamma, delta, f1, f2, steps, "20000"));
        errprop_rows_agree(&report);
        assert_eq!(parameter(&report, "steps"), steps);
        assert_eq!(report["manifest"]["seed"], "13");
    }
}

/// A wrong exact value fails the same check: the map with f1 and f2 swapped, from `pathology
/// errprop` itself.
#[test]
fn mc_errprop_check_rejects_swapped_factors() {
    let report = json_of(&errprop_args("0.3", "0.2", "0.9", "0.2", "2", "20000"));
    let (gamma, delta) = errprop_rows_agree(&report);
    let swapped = json_of(&errprop_args("0.3", "0.2", "0.2", "0.9", "2", "20000"));
    let n = 20000.0;
    let worst = rows_of(&swapped)
        .iter()
        .zip([gamma, delta])
        .map(|(row, estimate)| {
            let wrong = row["exact"].as_f64().unwrap();
            ((estimate - wrong) / (wrong * (1.0 - wrong) / n).sqrt()).abs()
        })
        .fold(0.0, f64::max);
    assert!(worst > SIGMAS, "swapped factors not rejected: {worst}");
}

fn rhf_args<'a>(w: &'a str, height: &'a str, depth: &'a str, trials: &'a str) -> Vec<&'a str> {
    vec![
        "mc", "rhf", "--w", w, "--height", height, "--depth", depth, "--trials", trials, "--seed",
        "17", "--format", "json",
    ]
}

#[test]
fn mc_rhf_agrees_with_the_closed_form() {
    for (w, height, depth) in [
        ("0", "6", "3"),
        ("0.15", "8", "8"),
        ("0.3", "7", "2"),
        ("0.45", "5", "4"),
        ("0.6", "6", "3"),
    ] {
        let full = json_of(&rhf_args(w, height, depth, "30000"));
        let report = &rows_of(&full)[0];
        let z = report["z"].as_f64().unwrap();
        assert!(z.abs() <= SIGMAS, "{report}");
        let (low, estimate, high) = (
            report["estimate_lower"].as_f64().unwrap(),
            report["estimate"].as_f64().unwrap(),
            report["estimate_upper"].as_f64().unwrap(),
        );
        assert!(low <= estimate && estimate <= high);
        let xi = report["xi"].as_f64().unwrap();
        assert!((xi * (1.0 - xi) - 0.236_068).abs() < 1e-6, "{report}"); // w_2 (1 - w_2)
        assert!(report["exact"].as_f64().is_some());
        assert_eq!(report["trials"], 30000);
        assert_eq!(full["manifest"]["seed"], "17");
    }
}

/// The check can fail: with leaves that win with probability 1/2, the paper's xi = 0.382
/// is rejected where the depth's own xi = 1/2 agrees.
#[test]
fn mc_rhf_check_rejects_a_wrong_xi() {
    let full = json_of(&[&rhf_args("0", "6", "6", "40000")[..], &["--p", "0.5"]].concat());
    let report = &rows_of(&full)[0];
    assert!(report["z"].as_f64().unwrap().abs() <= SIGMAS, "{report}");
    assert_eq!(report["xi"].as_f64(), Some(0.5));
    let wrong = 0.382 * 0.618; // rhf(0) with the paper's xi
    let estimate = report["estimate"].as_f64().unwrap();
    let z = (estimate - wrong) / (wrong * (1.0 - wrong) / 40000.0).sqrt();
    assert!(z.abs() > SIGMAS, "wrong xi not rejected: z = {z}");
}

#[test]
fn mc_errprop_and_rhf_do_not_depend_on_threads() {
    for format in ["json", "csv", "text"] {
        let mut args = errprop_args("0.3", "0.2", "0.4", "0.6", "3", "20000");
        *args.last_mut().unwrap() = format;
        let one = stdout_of(&[&args[..], &["--threads", "1"]].concat());
        let two = stdout_of(&[&args[..], &["--threads", "2"]].concat());
        assert_eq!(one, two, "{format}");
        let mut args = rhf_args("0.2", "7", "3", "20000");
        *args.last_mut().unwrap() = format;
        let one = stdout_of(&[&args[..], &["--threads", "1"]].concat());
        let two = stdout_of(&[&args[..], &["--threads", "2"]].concat());
        assert_eq!(one, two, "{format}");
    }
    let a = stdout_of(&errprop_args("0.3", "0.2", "0.4", "0.6", "3", "5000"));
    let mut other = errprop_args("0.3", "0.2", "0.4", "0.6", "3", "5000");
    other[15] = "14"; // another seed
    assert_ne!(a, stdout_of(&other));
}

#[test]
fn mc_errprop_and_rhf_text_and_csv() {
    let text = stdout_of(&[
        "mc", "errprop", "--gamma", "0.3", "--delta", "0.2", "--f1", "0.5", "--f2", "0.5",
        "--steps", "2", "--trials", "100",
    ]);
    assert!(
        text.lines()
            .any(|l| l.starts_with("errprop") && l.contains(" gamma "))
            && text
                .lines()
                .any(|l| l.starts_with("errprop") && l.contains(" delta ")),
        "{text}"
    );
    let csv = stdout_of(&[
        "mc", "rhf", "--w", "0.2", "--height", "4", "--depth", "2", "--trials", "100", "--format",
        "csv",
    ]);
    let mut lines = csv_body(&csv).into_iter();
    assert_eq!(
        lines.next(),
        Some(
            "kind,w,w_exact,xi,p,height,depth,seed,successes,trials,estimate,estimate_lower,estimate_upper,exact,z"
        )
    );
    assert_eq!(lines.count(), 1);
}

#[test]
fn mc_errprop_and_rhf_refuse_bad_input() {
    let errprop = |gamma: &str, delta: &str, steps: &str, trials: &str| {
        vec![
            "mc".to_string(),
            "errprop".into(),
            "--gamma".into(),
            gamma.into(),
            "--delta".into(),
            delta.into(),
            "--f1".into(),
            "0.5".into(),
            "--f2".into(),
            "0.5".into(),
            "--steps".into(),
            steps.into(),
            "--trials".into(),
            trials.into(),
        ]
    };
    fn as_strs(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }
    refused(&as_strs(&errprop("0.3", "0.2", "2", "0")), &["--trials"]);
    refused(
        &as_strs(&errprop("1.3", "0.2", "2", "10")),
        &["--gamma", "[0, 1]"],
    );
    refused(
        &as_strs(&errprop("0.3", "-0.2", "2", "10")),
        &["--delta", "[0, 1]"],
    );
    refused(
        &as_strs(&errprop("0.3", "0.2", "0", "10")),
        &["--steps", "1..=10"],
    );
    refused(
        &as_strs(&errprop("0.3", "0.2", "11", "10")),
        &["--steps", "1..=10"],
    );
    refused(
        &[
            "mc", "errprop", "--gamma", "0.3", "--delta", "0.2", "--f1", "2", "--f2", "0.5",
            "--steps", "2", "--trials", "10",
        ],
        &["--f1", "[0, 1]"],
    );
    refused(
        &[
            "mc", "rhf", "--w", "0.2", "--height", "6", "--depth", "2", "--trials", "0",
        ],
        &["--trials"],
    );
    refused(
        &[
            "mc", "rhf", "--w", "1.2", "--height", "6", "--depth", "2", "--trials", "10",
        ],
        &["--w", "[0, 1]"],
    );
    refused(
        &[
            "mc", "rhf", "--w", "0.2", "--height", "6", "--depth", "2", "--trials", "10", "--p",
            "-1",
        ],
        &["--p", "[0, 1]"],
    );
    refused(
        &[
            "mc", "rhf", "--w", "0.2", "--height", "6", "--depth", "7", "--trials", "10",
        ],
        &["--depth", "1..=6"],
    );
    refused(
        &[
            "mc", "rhf", "--w", "0.2", "--height", "6", "--depth", "0", "--trials", "10",
        ],
        &["--depth"],
    );
    refused(
        &[
            "mc", "rhf", "--w", "0.2", "--height", "40", "--depth", "2", "--trials", "10",
        ],
        &["--height", "1..=20"],
    );
}

/// `--shard K/N` runs disjoint slices of the seeded trials; `merge` sums them into the
/// unsharded run's output byte for byte (any shard order, CSV or JSON shards), and refuses
/// an incomplete or repeated set.
#[test]
fn mc_dgame_shards_merge_into_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "mc", "dgame", "--height", "7", "--f1", "0.3", "--f2", "0.6", "--trials", "3001", "--seed",
        "21",
    ];
    let full = stdout_of(&[&base[..], &["--format", "json"]].concat());
    let paths = write_shards(
        &base,
        &["--threads", "1"],
        dir.path(),
        "shard",
        ShardManifests::Inline,
    );
    let merged = stdout_of(&["merge", &paths[2], &paths[0], &paths[1], "--format", "json"]);
    assert_eq!(merged, full);
    let text = stdout_of(&[&base[..], &["--format", "text"]].concat());
    assert_eq!(stdout_of(&["merge", &paths[0], &paths[1], &paths[2]]), text);
    refused(
        &["merge", &paths[0], &paths[1]],
        &["FILE", "shard 3/3 missing"],
    );
    refused(
        &["merge", &paths[0], &paths[0], &paths[1]],
        &["FILE", "repeats shard 1/3"],
    );
    refused(&[&base[..], &["--shard", "4/3"]].concat(), &["--shard"]);
}

/// `mc errprop` and `mc rhf` shards merge like `mc dgame`'s: the counts are summed and the
/// exact values recomputed from the manifest's parameters exactly as the command computes them,
/// so the merged output equals the unsharded run byte for byte.
#[test]
fn mc_errprop_and_rhf_shards_merge_into_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let runs: [&[&str]; 3] = [
        &[
            "mc", "errprop", "--gamma", "0.3", "--delta", "0.2", "--f1", "0.9", "--f2", "0.9",
            "--steps", "2", "--trials", "3001", "--seed", "5",
        ],
        &[
            "mc", "rhf", "--w", "0.2", "--height", "8", "--depth", "3", "--trials", "2001",
            "--seed", "5",
        ],
        &[
            "mc", "rhf", "--w", "1/3", "--height", "6", "--depth", "2", "--p", "1/2", "--trials",
            "1001", "--seed", "9",
        ],
    ];
    for (r, base) in runs.iter().enumerate() {
        let paths = write_shards(
            base,
            &[],
            dir.path(),
            &format!("run{r}-shard"),
            ShardManifests::Inline,
        );
        for format in ["text", "json", "csv"] {
            let full = stdout_of(&[base, &["--format", format][..]].concat());
            let merged = stdout_of(&["merge", &paths[1], &paths[2], &paths[0], "--format", format]);
            assert_eq!(merged, full, "{base:?} in {format}");
        }
        refused(&["merge", &paths[0], &paths[1]], &["shard 3/3 missing"]);
    }
}

/// A mean of probabilities that are all 0 gets the Clopper-Pearson interval
/// [0, 1 - 0.025^(1/n)], not [0, 0].
#[test]
fn an_all_zero_loss_gets_an_honest_interval() {
    let report = json_of(&[
        "mc",
        "alphabeta",
        "--trials",
        "2000",
        "--seed",
        "1",
        "--format",
        "json",
    ]);
    let safe = rows_of(&report)
        .into_iter()
        .find(|r| r["quantity"] == "safe_loss_probability")
        .unwrap();
    assert_eq!(safe["estimate"].as_f64(), Some(0.0));
    assert_eq!(safe["estimate_lower"].as_f64(), Some(0.0));
    let upper = safe["estimate_upper"].as_f64().unwrap();
    assert!(
        (upper - (1.0 - 0.025f64.powf(1.0 / 2000.0))).abs() < 1e-12,
        "{upper}"
    );
    let text = stdout_of(&["mc", "alphabeta", "--trials", "2000", "--seed", "1"]);
    // Printed rounded outward: the upper end up.
    assert!(text.contains("[0.0000, 0.0019]"), "{text}");
}
