//! The test-time search commands under hostile input: no panic (huge noise values, cells
//! longer than a format width, tiny probabilities), every run estimated before its work and
//! refused with the estimate when it is too large, in `f64` as in exact, in `inference`,
//! `mc inference` and `validate`; the estimate printed under `PATHOLOGY_ESTIMATE`.

use std::time::{Duration, Instant};

use super::common::{pathology, refused, stdout_of};

/// A refusal must come this fast: before the work, not after it.
const PROMPT: Duration = Duration::from_secs(10);

fn lookahead_huge_noise(prefix: &[&'static str], extra: &[&'static str]) -> Vec<&'static str> {
    let mut args = prefix.to_vec();
    args.extend([
        "lookahead",
        "--branching",
        "2",
        "--steps",
        "2",
        "--step-correct",
        "0.6",
        "--noise",
        "1e308:1/2,-1e308:1/2",
        "--growth",
        "1",
        "--depth",
        "1",
    ]);
    args.extend(extra);
    args
}

/// Noise values near the largest double, scaled by the growth past it: the scores are only
/// compared, so every mode computes them (no panic), and f64 agrees with exact.
#[test]
fn lookahead_scores_beyond_f64_are_compared_exactly() {
    let float = stdout_of(&lookahead_huge_noise(&["inference"], &["--format", "csv"]));
    let exact = stdout_of(&lookahead_huge_noise(
        &["inference"],
        &["--exact", "--format", "csv"],
    ));
    let value = |csv: &str| -> f64 {
        let row = csv
            .lines()
            .find(|l| l.starts_with("1,"))
            .unwrap()
            .to_string();
        let cell = row.split(',').nth(1).unwrap().to_string();
        match cell.split_once('/') {
            Some((n, d)) => n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap(),
            None => cell.parse().unwrap(),
        }
    };
    assert!(
        (value(&float) - value(&exact)).abs() < 1e-12,
        "{float}\n{exact}"
    );
    let mc = stdout_of(&lookahead_huge_noise(
        &["mc", "inference"],
        &["--trials", "2000", "--format", "csv"],
    ));
    assert!(!mc.contains("disagrees"), "{mc}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.csv");
    std::fs::write(&path, mc).unwrap();
    pathology()
        .args(["validate", path.to_str().unwrap()])
        .assert()
        .code(0);
}

/// A text cell over 65,535 characters (the widest a format width holds; it panicked): the
/// task mix of 1,000 types of 60 decimals each, a cell of every row of `mc inference`, is shown
/// shortened in text, saying so, and whole in CSV. (A parameter of 70,000 digits takes tens of
/// seconds to convert; the layout is the same.)
#[test]
fn cells_longer_than_a_format_width_are_shortened_in_text() {
    let tasks = (0..1000)
        .map(|i| format!("0.{i:03}{}:1/1000", "7".repeat(57)))
        .collect::<Vec<_>>()
        .join(",");
    assert!(tasks.len() > 68_000);
    let args = [
        "mc",
        "inference",
        "pass-at-k",
        "--tasks",
        &tasks,
        "--k",
        "1,2",
        "--trials",
        "100",
    ];
    let text = stdout_of(&args);
    let tables = text.split("\n# ").next().unwrap();
    assert!(
        tables.contains("characters; --format csv or json prints it whole)"),
        "{}",
        &tables[..2000.min(tables.len())]
    );
    assert!(tables.lines().all(|l| l.len() < 2000), "{tables}");
    let csv = stdout_of(&[&args[..], &["--format", "csv"]].concat());
    // As the manifest writes it: 60 decimals, shares as decimals.
    assert!(
        csv.contains(&format!("0.999{}:0.001", "7".repeat(57))),
        "{}",
        &csv[..500]
    );
}

fn refused_promptly(args: &[&str], mentions: &[&str]) {
    let start = Instant::now();
    refused(args, mentions);
    assert!(start.elapsed() < PROMPT, "{args:?}: {:?}", start.elapsed());
}

/// The expected draws of a trial for a tiny success probability and a huge k: all k of them,
/// refused (they were estimated as about 1 and the run never ended).
#[test]
fn monte_carlo_draws_are_estimated_for_tiny_probabilities() {
    refused_promptly(
        &[
            "mc",
            "inference",
            "pass-at-k",
            "--tasks",
            "1e-300",
            "--k",
            "1000000000000000000",
            "--trials",
            "1",
        ],
        &["refused", "--k"],
    );
    refused_promptly(
        &[
            "mc",
            "inference",
            "pass-at-k",
            "--tasks",
            "1e-17",
            "--k",
            "1000000000000",
            "--trials",
            "1",
        ],
        &["refused"],
    );
    refused_promptly(
        &[
            "mc",
            "inference",
            "resample",
            "--tasks",
            "1",
            "--completeness",
            "1e-300",
            "--soundness",
            "1",
            "--k",
            "1000000000000000000",
            "--trials",
            "1",
        ],
        &["refused"],
    );
}

fn many_types() -> String {
    (1..=1000)
        .map(|i| format!("{}/1001:1/1000", i))
        .collect::<Vec<_>>()
        .join(",")
}

/// `f64` pass-at-k, resampling and best-of-n estimate their work: 1,000 task types at 100,000
/// values of k are refused at once with the estimate.
#[test]
fn f64_strategies_refuse_long_lists_up_front() {
    let tasks = many_types();
    refused_promptly(
        &[
            "inference",
            "pass-at-k",
            "--tasks",
            &tasks,
            "--k",
            "1..100000",
        ],
        &["pass-at-k would need about", "refused"],
    );
    refused_promptly(
        &[
            "inference",
            "resample",
            "--tasks",
            &tasks,
            "--completeness",
            "0.9",
            "--soundness",
            "0.8",
            "--k",
            "1..100000",
        ],
        &["resampling would need about", "refused"],
    );
    refused_promptly(
        &[
            "inference",
            "best-of-n",
            "--tasks",
            &tasks,
            "--score-correct",
            "gaussian:1",
            "--score-wrong",
            "gaussian:2",
            "--n",
            "1..100000",
        ],
        &["best-of-n would need about", "refused"],
    );
}

/// The exact lookahead's estimate is linear in the list: 4000 and 10000 steps at every depth
/// are refused at once, in words (never "inf").
#[test]
fn exact_lookahead_is_estimated_in_linear_time() {
    for steps in ["4000", "10000"] {
        let depth = format!("1..{steps}");
        let args = [
            "inference",
            "lookahead",
            "--branching",
            "2",
            "--steps",
            steps,
            "--step-correct",
            "0.6",
            "--noise",
            "1:1/2,-1:1/2",
            "--depth",
            &depth,
            "--exact",
        ];
        refused_promptly(
            &args,
            &["lookahead in exact rationals would need more than"],
        );
        let out = pathology().args(args).output().unwrap();
        assert!(!String::from_utf8_lossy(&out.stderr).contains("inf "));
    }
}

/// `validate` adds up the inference rows' estimates before computing any: 100 vote rows at
/// k = 8000 are refused at once.
#[test]
fn validate_estimates_inference_rows_before_work() {
    // Each row alone takes about 6 s (and is estimated so); the file, about 10 minutes.
    let mut csv = String::from("kind,tasks,k,successes,trials\n");
    for i in 0..100 {
        csv.push_str(&format!("vote,0.{}:1,8000,500,1000\n", 500 + i));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("votes.csv");
    std::fs::write(&path, csv).unwrap();
    refused_promptly(
        &["validate", path.to_str().unwrap()],
        &["100 values of `pathology inference`", "refused"],
    );
}

/// `PATHOLOGY_ESTIMATE` prints the accepted estimate of `inference` as of the other commands.
#[test]
fn inference_announces_its_estimate() {
    for args in [
        &["inference", "pass-at-k", "--tasks", "0.5", "--k", "1..10"][..],
        &[
            "inference",
            "vote",
            "--tasks",
            "0.6",
            "--k",
            "1..5",
            "--exact",
        ],
    ] {
        let out = pathology()
            .env("PATHOLOGY_ESTIMATE", "1")
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("pathology: estimate: "), "{args:?}: {err}");
    }
}

/// The `f64` lookahead at 10,000 steps and every depth (minutes of work, once estimated at
/// 26 s and accepted) is refused at once.
#[test]
fn f64_lookahead_over_every_depth_of_a_long_solution_is_refused() {
    refused_promptly(
        &[
            "inference",
            "lookahead",
            "--branching",
            "2",
            "--steps",
            "10000",
            "--step-correct",
            "0.6",
            "--noise",
            "1:1/2,-1:1/2",
            "--depth",
            "1..10000",
        ],
        &["lookahead would need about", "refused"],
    );
}
