//! Reliability: runs refused up front with an estimate, write
//! errors reported, conflicting options rejected, messages naming the argument.

use crate::common::{pathology, process, refused, stdout_of};

/// 1e15 trials is refused up front with an estimate, for every `mc` experiment.
#[test]
fn mc_refuses_runs_above_an_hour() {
    let huge = "1000000000000000";
    let cases: [&[&str]; 5] = [
        &[
            "mc", "dgame", "--height", "10", "--f1", "0.3", "--f2", "0.3",
        ],
        &[
            "mc", "errprop", "--gamma", "0.1", "--delta", "0.1", "--f1", "0.3", "--f2", "0.3",
            "--steps", "3",
        ],
        &["mc", "rhf", "--w", "0.5", "--height", "6", "--depth", "2"],
        &["mc", "alphabeta"],
        &[
            "mc",
            "alphabeta",
            "--positions",
            "tictactoe",
            "--plies",
            "4",
        ],
    ];
    for args in cases {
        let mut all = args.to_vec();
        all.extend(["--trials", huge]);
        refused(&all, &["refused", "days", huge, "--shard"]);
    }
}

/// `mc alphabeta` cannot merge shards (means of fractions), so `--shard` is refused there
/// rather than producing output `merge` would reject.
#[test]
fn alphabeta_refuses_a_shard_it_could_not_merge() {
    refused(
        &["mc", "alphabeta", "--trials", "10", "--shard", "1/2"],
        &["--shard", "mc alphabeta", "unsharded"],
    );
}

/// Huge --games / --pairs are refused up front (before any
/// calibration or board), naming the option.
#[test]
fn studies_refuse_runs_above_an_hour() {
    let huge = "1000000000000000";
    let cases: [(&[&str], &str); 7] = [
        (&["mc", "emm", "--games", huge], "--games"),
        (&["mc", "emm-calibrate", "--games", huge], "--games"),
        (&["mc", "emm-figures", "--games", huge], "--games"),
        (
            &[
                "mc",
                "emm",
                "--evaluator",
                "natural",
                "--games",
                "10",
                "--calibration-games",
                huge,
            ],
            "--calibration-games",
        ),
        (&["mc", "match", "--w", "0.3", "--pairs", huge], "--pairs"),
        (&["mc", "match-sweep", "--pairs", huge], "--pairs"),
        (&["mc", "match-table", "--pairs", huge], "--pairs"),
    ];
    for (args, option) in cases {
        refused(
            args,
            &["refused", "days", huge, &format!("Use fewer {option}")],
        );
    }
}

/// The shard is what runs, so a small enough shard of a huge run is accepted, and
/// an invalid size is named before any estimate.
#[test]
fn mc_budget_counts_the_shard_and_validates_first() {
    let rhf = ["mc", "rhf", "--w", "0.5", "--height", "4", "--depth", "1"];
    let mut whole = rhf.to_vec();
    whole.extend(["--trials", "1000000000000"]);
    refused(&whole, &["refused"]);
    let mut shard = whole.clone();
    shard.extend(["--shard", "1/1000000", "--format", "csv"]);
    let out = stdout_of(&shard);
    assert!(
        out.contains(",1000000,"),
        "the shard runs its 10^6 trials: {out}"
    );
    refused(
        &[
            "mc",
            "errprop",
            "--gamma",
            "0.1",
            "--delta",
            "0.1",
            "--f1",
            "0.3",
            "--f2",
            "0.3",
            "--steps",
            "30",
            "--trials",
            "1000000000",
        ],
        &["--steps", "must be a whole number in 1..=10"],
    );
}

/// A write error on standard output is an error (exit 1, naming standard output);
/// a closed pipe (`| head`) is not.
#[cfg(target_os = "linux")]
#[test]
fn write_errors_on_stdout_are_reported() {
    use std::process::{Command, Stdio};
    let bin = assert_cmd::cargo::cargo_bin("pathology");
    // /dev/full: every write fails with ENOSPC.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = process()
        .args(["table", "1"])
        .stdout(Stdio::from(full))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write to standard output"), "{err}");
    // A descriptor opened read-only: writes fail with EBADF, which std's stdout swallows.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("read-only");
    std::fs::write(&path, "").unwrap();
    let read_only = std::fs::File::open(&path).unwrap();
    let out = process()
        .args(["table", "1"])
        .stdout(Stdio::from(read_only))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard output"));
    // /dev/null open read-write (Python's subprocess.DEVNULL, `1<>/dev/null`)
    // is a sink like any other, not a closed output: exit 0, and the --out file is written.
    // (`>&-` looks the same on Linux: the runtime opens /dev/null read-write in its place.)
    let dir = tempfile::tempdir().unwrap();
    let calibration = dir.path().join("c.json");
    let null = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
        .unwrap();
    let out = process()
        .args([
            "mc",
            "emm-calibrate",
            "--games",
            "20",
            "--height",
            "4",
            "--out",
        ])
        .arg(&calibration)
        .stdout(Stdio::from(null))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(calibration.exists());
    for redirect in ["1<>/dev/null", ">&-"] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("exec '{}' table 1 {redirect}", bin.display()))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{redirect}");
    }
    // `> /dev/null` and a pipe closed early are fine.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("'{}' table 1 > /dev/null", bin.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' table 1 --format csv | head -c 1 > /dev/null; exit ${{PIPESTATUS:-0}}",
            bin.display()
        ))
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("error"));
}

/// Options of the other kind of positions are rejected, naming both options.
#[test]
fn alphabeta_rejects_options_of_the_other_positions() {
    refused(
        &[
            "mc",
            "alphabeta",
            "--positions",
            "tictactoe",
            "--branching",
            "5",
            "--trials",
            "10",
        ],
        &["--branching", "--positions"],
    );
    refused(
        &[
            "mc",
            "alphabeta",
            "--positions",
            "trees",
            "--plies",
            "5",
            "--trials",
            "10",
        ],
        &["--plies", "--positions"],
    );
    refused(
        &["mc", "alphabeta", "--plies", "5", "--trials", "10"],
        &["--plies", "--positions tictactoe"],
    );
    let out = stdout_of(&[
        "mc",
        "alphabeta",
        "--positions",
        "tictactoe",
        "--plies",
        "5",
        "--trials",
        "10",
        "--format",
        "csv",
    ]);
    assert!(out.contains("tictactoe,5,"), "{out}");
}

/// Messages: negative numbers are values, rejected with the option's name and range.
#[test]
fn negative_numbers_name_the_option_and_range() {
    refused(
        &[
            "errprop", "--gamma", "0.1", "--delta", "0.1", "--f", "0.5", "--steps", "-1",
        ],
        &["--steps", "0..=100000"],
    );
    refused(
        &[
            "mc",
            "dgame",
            "--height",
            "3",
            "--f1",
            "0.3",
            "--f2",
            "0.3",
            "--trials",
            "10",
            "--seed=-1",
        ],
        &["--seed", "0..=2^64-1"],
    );
    refused(
        &[
            "mc", "errprop", "--gamma", "0.1", "--delta", "0.1", "--f1", "0.3", "--f2", "0.3",
            "--steps", "-1", "--trials", "3",
        ],
        &["--steps", "whole number"],
    );
    // `<TABLE>` and `table` are named, not `<NUMBER>`.
    refused(&["table", "-1"], &["<TABLE>", "pathology table"]);
    let out = pathology()
        .args(["table", "1", "--steps", "-1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

/// Messages: a figure that cannot be written names its path, without Rust debug text; a `--plot` that names a directory is refused before any work
/// (exit 2, naming `--plot` and the path) instead of failing at the end (exit 1).
#[test]
fn figure_write_errors_name_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("d.png");
    std::fs::create_dir(&target).unwrap();
    let out = pathology()
        .args([
            "errprop", "--gamma", "0.1", "--delta", "0.1", "--f", "0.5", "--plot",
        ])
        .arg(&target)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--plot must be") && err.contains(&target.display().to_string()),
        "{err}"
    );
    assert!(
        !err.contains("Os {") && !err.contains("ImageError("),
        "{err}"
    );
}

/// A run that stops early leaves no index claiming a mix of runs and no half-written
/// file. The interruption is a name taken by a directory in `--out`. The run is built beside `--out` and swapped in whole, so a failed run leaves the old
/// index and files untouched (before, the old index was removed first).
#[test]
fn reproduce_that_fails_leaves_the_old_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    std::fs::create_dir_all(out.join("table1.txt")).unwrap();
    std::fs::write(out.join("INDEX.md"), "seed 20261121 for every file\n").unwrap();
    let result = pathology()
        .args(["reproduce", "--steps", "1", "--seed", "99", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&result.stderr).contains("table1.txt"));
    assert_eq!(
        std::fs::read_to_string(out.join("INDEX.md")).unwrap(),
        "seed 20261121 for every file\n",
        "the old index must stay"
    );
    assert!(out.join("table1.txt").is_dir());
    let partial: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".partial"))
        .collect();
    assert!(partial.is_empty(), "no partial file is left: {partial:?}");
}

/// A sweep is refused above the one-minute limit of the analytic commands (its
/// settings counted over the threads), and the f64 refusal does not suggest the f64 mode.
#[test]
fn sweep_refusals_fit_the_mode() {
    let f64_run = pathology()
        .args([
            "sweep", "--height", "26", "--from", "0", "--to", "1", "--step", "0.1",
        ])
        .output()
        .unwrap();
    assert_eq!(f64_run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&f64_run.stderr);
    assert!(
        err.contains("refused (limit: 60 s and 16.0 GiB)") && err.contains("in f64 mode"),
        "{err}"
    );
    assert!(
        !err.contains("Use the f64 mode") && !err.contains("the f64 mode"),
        "{err}"
    );
    refused(
        &[
            "sweep", "--height", "15", "--from", "0", "--to", "1", "--step", "0.1", "--exact",
        ],
        &["in exact mode", "refused", "drop --exact"],
    );
}

/// In f64, `--decimals 30` prints no more decimals than the rigorous error bound
/// supports, and says so.
#[test]
fn f64_tables_print_only_supported_decimals() {
    let out = stdout_of(&["table", "1", "--decimals", "30"]);
    let mut cells = 0;
    for line in out
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
    {
        for cell in line.split_whitespace().skip(1) {
            let decimals = cell.split_once('.').map_or(0, |(_, f)| f.len());
            assert!(decimals <= 12, "{cell} has {decimals} decimals: {line}");
            cells += 1;
        }
    }
    assert!(cells >= 90, "expected the D(d,10) cells, got {cells}");
    assert!(out.contains("fewer decimals than asked"), "{out}");
}

mod property {
    //! "Done when": generated argument combinations (valid and invalid, cheap sizes) never
    //! panic, exit with 0, 1 or 2, and name an argument when they exit with 2.

    use crate::common::pathology;
    use proptest::prelude::*;

    const NUMBERS: [&str; 8] = [
        "-1",
        "0",
        "3",
        "0.5",
        "abc",
        "41",
        "1e99",
        "99999999999999999999",
    ];
    const TRIALS: [&str; 5] = ["-5", "0", "200", "1000000000000000", "x"];

    fn command() -> impl Strategy<Value = Vec<String>> {
        let n = || proptest::sample::select(NUMBERS.to_vec());
        let t = || proptest::sample::select(TRIALS.to_vec());
        prop_oneof![
            n().prop_map(|a| vec!["table".into(), a.into()]),
            (n(), n(), n()).prop_map(|(h, f1, f2)| {
                ["dgame", "--height", h, "--f1", f1, "--f2", f2]
                    .map(String::from)
                    .to_vec()
            }),
            (n(), n(), t()).prop_map(|(h, f, trials)| {
                [
                    "mc", "dgame", "--height", h, "--f1", f, "--f2", f, "--trials", trials,
                ]
                .map(String::from)
                .to_vec()
            }),
            (n(), n(), t()).prop_map(|(k, g, trials)| {
                [
                    "mc", "errprop", "--gamma", g, "--delta", g, "--f1", "0.3", "--f2", "0.3",
                    "--steps", k, "--trials", trials,
                ]
                .map(String::from)
                .to_vec()
            }),
            (n(), n(), t()).prop_map(|(h, d, trials)| {
                [
                    "mc", "rhf", "--w", "0.5", "--height", h, "--depth", d, "--trials", trials,
                ]
                .map(String::from)
                .to_vec()
            }),
            (n(), n(), t(), any::<bool>()).prop_map(|(b, p, trials, ttt)| {
                let positions = if ttt { "tictactoe" } else { "trees" };
                let option = if ttt { "--plies" } else { "--branching" };
                [
                    "mc",
                    "alphabeta",
                    "--positions",
                    positions,
                    option,
                    b,
                    "--depth",
                    p,
                    "--trials",
                    trials,
                ]
                .map(String::from)
                .to_vec()
            }),
            (n(), n()).prop_map(|(k, f)| {
                [
                    "errprop", "--gamma", "0.1", "--delta", "0.1", "--f", f, "--steps", k,
                ]
                .map(String::from)
                .to_vec()
            }),
            (n(), n()).prop_map(|(h, step)| {
                [
                    "sweep", "--height", h, "--from", "0", "--to", "1", "--step", step,
                ]
                .map(String::from)
                .to_vec()
            }),
            n().prop_map(|s| {
                [
                    "mc", "dgame", "--height", "3", "--f1", "0.3", "--f2", "0.3", "--trials", "10",
                ]
                .map(String::from)
                .into_iter()
                .chain([format!("--seed={s}")])
                .collect()
            }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn generated_commands_fail_cleanly(args in command()) {
            let out = pathology().args(&args).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            let code = out.status.code();
            prop_assert!(!err.contains("panicked"), "{args:?}: {err}");
            prop_assert!(matches!(code, Some(0..=2)), "{args:?}: exit {code:?}: {err}");
            if code == Some(2) {
                let names_argument = err.contains("--")
                    || err.contains("NUMBER")
                    || err.contains("TABLE")
                    || err.contains("f1")
                    || err.contains("f2");
                prop_assert!(names_argument, "{args:?}: exit 2 without an argument: {err}");
            }
        }
    }
}
