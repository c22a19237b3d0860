//! Work and input limits: every `mc` command, kalah and othello included, refuses runs above
//! one hour on its threads (and `--time-limit` raises that limit); `sweep` refuses with a hint
//! that fits its mode; long `errprop` runs stream their rows (bounded memory, identical
//! bytes); endless input is refused; refusals of work too large or values beyond doubles come
//! before the work, with the reason first and type limits in words; the cost estimate sees a
//! histogram's denominators.

use num_rational::BigRational;
use num_traits::ToPrimitive;
use pathology::analytic::dgame::report::{Layout, decision_report};
use pathology::analytic::dgame::table::{SecondFactor, compute_columns, sweep_settings};
use pathology::analytic::errprop::BackUp;
use pathology::analytic::errprop::report::{
    compute_trajectories, trajectory_report, trajectory_title,
};
use pathology::numeric::number::parse_rational;
use pathology::report::{ExportOptions, Format, Report};

use crate::common::{pathology, process, refused};
use predicates::prelude::*;
use std::process::Stdio;
use std::time::Duration;

/// kalah and othello refuse beyond one hour on their threads, as every other `mc` command
/// (they used to accept up to one core-day): 2,000,000 boards at the measured 2 ms a board
/// are about 67 min on one thread; 40,000 openings at depth 3 (0.1 s each) about 67 min.
#[test]
fn kalah_and_othello_refuse_beyond_one_hour() {
    refused(
        &["mc", "kalah", "--boards", "2000000", "--threads", "1"],
        &["--boards 2000000", "on 1 thread", "limit: 60 min"],
    );
    refused(
        &[
            "mc",
            "othello",
            "--openings",
            "40000",
            "--depth",
            "3",
            "--threads",
            "1",
        ],
        &["--openings 40000", "on 1 thread", "limit: 60 min"],
    );
}

/// `sweep` in f64 refuses beyond its minute (height 26 used to be accepted at an estimated
/// 9.4 min) and does not tell an f64 run to "use the f64 mode"; the exact mode's refusal
/// does suggest it.
#[test]
fn sweep_refusals_fit_the_mode() {
    let f64_run = [
        "sweep", "--height", "26", "--from", "0", "--to", "1", "--step", "0.1",
    ];
    refused(&f64_run, &["in f64 mode", "refused", "smaller height"]);
    let out = super::common::pathology().args(f64_run).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("f64 mode (drop"));
    let huge = [
        "sweep", "--height", "35", "--from", "0", "--to", "1", "--step", "0.5",
    ];
    refused(&huge, &["in f64 mode", "refused", "smaller height"]);
    let out = super::common::pathology().args(huge).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("drop --exact"));
    let exact = [
        "sweep", "--height", "20", "--from", "0", "--to", "1", "--step", "0.5", "--exact",
    ];
    refused(&exact, &["exact mode", "drop --exact"]);
}

/// Trajectory rows of subnormal values (f = 0.7: the errors underflow to 1e-323) print the
/// library's values: gamma and delta read back as the same f64, and each printed error bound
/// is the library's bound plus the distance of the printed decimal from the f64, rounded
/// upward to its printed digits (not below, and less than one unit of its last digit above). How fast these rows print (before the exact-integer printing,
/// 20,001 rows took 5 s of CPU) is measured by `examples/subnormal_rows.rs`.
#[test]
fn subnormal_trajectory_rows_print_the_library_values() {
    let out = super::common::stdout_of(&[
        "errprop", "--gamma", "0.3", "--delta", "0.2", "--f", "0.7", "--steps", "20000",
        "--format", "csv",
    ]);
    let q = |s: &str| parse_rational(s).unwrap();
    let settings = [(q("0.7"), q("0.7"))];
    let library = compute_trajectories::<f64>(&q("0.3"), &q("0.2"), &settings, BackUp::Max, 20000)
        .unwrap()
        .remove(0);
    let rows: Vec<Vec<&str>> = out
        .lines()
        .filter(|l| l.starts_with("max,"))
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), library.points.len());
    let mut subnormal = 0;
    for (row, (point, bound)) in rows
        .iter()
        .zip(library.points.iter().zip(&library.error_bounds))
    {
        let (gamma, delta) = (point.gamma, point.delta);
        assert_eq!(row[10].parse::<f64>().unwrap(), gamma, "{row:?}");
        assert_eq!(row[12].parse::<f64>().unwrap(), delta, "{row:?}");
        assert_rounded_up(row[11], row[10], gamma, bound.gamma);
        assert_rounded_up(row[13], row[12], delta, bound.delta);
        if gamma > 0.0 && gamma < f64::MIN_POSITIVE {
            subnormal += 1;
        }
    }
    assert!(subnormal > 10_000, "{subnormal} subnormal rows");
}

/// `printed` is `bound + |value_text - value|` rounded upward: at least that, and less than
/// it plus the place value of the printed last digit, compared in exact rationals.
fn assert_rounded_up(printed: &str, value_text: &str, value: f64, bound: f64) {
    let exact = |x: f64| BigRational::from_float(x).unwrap();
    let gap = parse_rational(value_text).unwrap() - exact(value);
    let needed = exact(bound)
        + if gap < BigRational::default() {
            -gap
        } else {
            gap
        };
    let printed_value = parse_rational(printed).unwrap();
    let (mantissa, exponent) = printed
        .split_once('e')
        .map_or((printed, 0), |(m, e)| (m, e.parse::<i32>().unwrap()));
    let places = mantissa.split_once('.').map_or(0, |(_, f)| f.len()) as i32;
    let unit = BigRational::from_integer(10.into()).pow(exponent - places);
    assert!(
        printed_value >= needed,
        "{printed} is below the bound of {value_text}"
    );
    assert!(
        printed_value < needed + unit,
        "{printed} is more than one digit above the bound of {value_text}"
    );
}

/// Every format, with its name on the command line.
const FORMATS: [(Format, &str); 5] = [
    (Format::Text, "text"),
    (Format::Csv, "csv"),
    (Format::Json, "json"),
    (Format::Markdown, "markdown"),
    (Format::Latex, "latex"),
];

/// The report a streamed `errprop` run prints, built whole by the library.
fn whole_trajectory_report(format: Format, exact: bool, steps: u32) -> String {
    let q = |s: &str| parse_rational(s).unwrap();
    let (gamma, delta) = (q("0.3"), q("0.2"));
    let settings: Vec<_> = ["0.7", "0.9", "1/3"].iter().map(|f| (q(f), q(f))).collect();
    let head = Report::new("errprop", &trajectory_title(BackUp::Min, &gamma, &delta))
        .param("gamma", "0.3")
        .param("delta", "0.2")
        .param("f", "0.7,0.9,1/3")
        .param("from", "min")
        .param("steps", steps)
        .param("exact", exact);
    let report = if exact {
        let t = compute_trajectories::<BigRational>(&gamma, &delta, &settings, BackUp::Min, steps);
        trajectory_report(head.mode("exact"), &gamma, &delta, BackUp::Min, &t.unwrap())
    } else {
        let t = compute_trajectories::<f64>(&gamma, &delta, &settings, BackUp::Min, steps);
        trajectory_report(head, &gamma, &delta, BackUp::Min, &t.unwrap())
    };
    let options = ExportOptions {
        decimals: 6,
        ..ExportOptions::default()
    };
    report.render(format, &options).unwrap()
}

/// `errprop` prints its rows as they are computed (CSV and JSON hold one
/// trajectory at a time: 11 x 100,001 steps as CSV peaked at 15.5 MB against 1.03 GB when the
/// whole report was built), and what it prints is byte for byte the whole report.
#[test]
fn streamed_trajectories_are_the_whole_report() {
    for (exact, steps) in [(false, "40"), (true, "6")] {
        for (format, name) in FORMATS {
            let mut args = vec![
                "errprop",
                "--gamma",
                "0.3",
                "--delta",
                "0.2",
                "--f",
                "0.7,0.9,1/3",
                "--from",
                "min",
                "--steps",
                steps,
                "--format",
                name,
            ];
            if exact {
                args.push("--exact");
            }
            assert_eq!(
                super::common::stdout_of(&args),
                whole_trajectory_report(format, exact, steps.parse().unwrap()),
                "{name}, exact {exact}"
            );
        }
    }
}

/// `sweep` prints a row per setting as soon as it and the settings before
/// it are done, byte for byte the whole report (the PS table, which JSON lists after the
/// decisions, is written at the end).
#[test]
fn streamed_sweeps_are_the_whole_report() {
    let q = |s: &str| parse_rational(s).unwrap();
    let settings = sweep_settings(&q("0.1"), &q("0.9"), &q("0.2"), &SecondFactor::Equal).unwrap();
    let converted: Vec<(f64, f64)> = settings
        .iter()
        .map(|(a, b)| (a.to_f64().unwrap(), b.to_f64().unwrap()))
        .collect();
    let columns = compute_columns(&converted, 9).unwrap();
    let head = Report::new(
        "sweep",
        "D(d,9) and PS for f1 from 0.1 to 0.9 step 0.2, f2 = f1",
    )
    .param("height", 9)
    .param("from", "0.1")
    .param("to", "0.9")
    .param("step", "0.2")
    .param("exact", false);
    let report = decision_report(head, &columns, &settings, Layout::SettingRows, None);
    for (format, name) in FORMATS {
        let printed = super::common::stdout_of(&[
            "sweep", "--height", "9", "--from", "0.1", "--to", "0.9", "--step", "0.2", "--format",
            name,
        ]);
        assert_eq!(
            printed,
            report.render(format, &ExportOptions::default()).unwrap(),
            "{name}"
        );
    }
}

/// A reader that stops early (`| head`) ends a streamed run at once, with exit code 0 and
/// the rows it read intact.
#[test]
fn a_closed_pipe_ends_a_streamed_run_cleanly() {
    use std::io::{BufRead, BufReader};
    let mut child = process()
        .args([
            "errprop",
            "--gamma",
            "0.3",
            "--delta",
            "0.2",
            "--f",
            "0.5,0.6,0.7,0.8,0.9",
            "--steps",
            "100000",
            "--format",
            "csv",
            "--manifest",
            "inline",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let lines: Vec<String> = BufReader::new(stdout)
        .lines()
        .take(30)
        .map(Result::unwrap)
        .collect();
    // Dropping the reader closes the pipe.
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    assert!(lines[0].starts_with("# tool: pathology"));
    assert!(lines.last().unwrap().starts_with("min,") || lines.last().unwrap().starts_with("max,"));
}

/// A command that must be refused within a minute (endless input is not read to the end).
fn refused_in_time(command: &mut assert_cmd::Command, mentions: &[&str]) {
    let mut assert = command
        .timeout(Duration::from_secs(120))
        .assert()
        .code(2)
        .stdout(predicates::str::is_empty());
    for m in mentions {
        assert = assert.stderr(predicates::str::contains(*m));
    }
}

/// Endless input (`/dev/zero`) is refused naming the option or file and the cap, for
/// `--histogram`, `merge`, `validate` and a `validate` row naming the file (before: each read
/// until memory ran out).
#[cfg(target_os = "linux")]
#[test]
fn endless_input_is_refused() {
    refused_in_time(
        pathology().args([
            "decision",
            "--game",
            "crit",
            "--gamma",
            "0.5",
            "--height",
            "4",
            "--evaluator",
            "histogram",
            "--histogram",
            "/dev/zero",
        ]),
        &["--histogram", "/dev/zero", "256 MiB"],
    );
    refused_in_time(
        pathology().args(["merge", "/dev/zero"]),
        &["/dev/zero", "256 MiB"],
    );
    refused_in_time(
        pathology().args(["validate", "/dev/zero"]),
        &["65536 bytes"],
    );
    // A JSON input is read whole: the cap holds it too (a "{" then endless blanks).
    refused_in_time(
        pathology()
            .args(["validate", "-"])
            .write_stdin(format!("{{{}", " ".repeat(300 << 20))),
        &["256 MiB"],
    );
    let rows = "kind,height,depth,gamma,evaluator,histogram,estimate,trials\n\
                crit,4,1,0.5,histogram,/dev/zero,0.5,100\n";
    let out = pathology()
        .args(["validate", "-"])
        .write_stdin(rows)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("256 MiB") && text.contains("/dev/zero"),
        "{text}"
    );
}

/// A binned law of 2^20 levels (the largest accepted) costs time linear in the
/// levels: its D(d) is the limit the finer bins approach, within the guard's minute (232 s
/// before the fix: the cost estimate itself was quadratic in the levels).
#[test]
fn a_million_levels_are_computed_within_the_guard() {
    let decision = |levels: &str| -> Vec<f64> {
        let out = pathology()
            .args([
                "decision", "--game", "crit", "--height", "6", "--gamma", "1",
            ])
            .args([
                "--evaluator",
                "gaussian",
                "--sigma",
                "0.5",
                "--levels",
                levels,
            ])
            .args(["--format", "json", "--table", "decisions"])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json["tables"][0]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["D"].as_f64().unwrap())
            .collect()
    };
    let fine = decision("1048576");
    let coarse = decision("65536");
    assert_eq!(fine.len(), 6);
    for (f, c) in fine.iter().zip(&coarse) {
        assert!((f - c).abs() < 1e-3, "{fine:?} against {coarse:?}");
    }
    // The Monte Carlo side and validate build the same law.
    pathology()
        .args([
            "mc",
            "distributions",
            "--game",
            "crit",
            "--gamma",
            "1",
            "--height",
            "6",
        ])
        .args([
            "--evaluator",
            "gaussian",
            "--sigma",
            "0.5",
            "--levels",
            "1048576",
        ])
        .args(["--trials", "20"])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let dir = tempfile::tempdir().unwrap();
    let rows = dir.path().join("rows.csv");
    std::fs::write(
        &rows,
        "kind,height,depth,gamma,evaluator,sigma,levels,estimate,trials\n\
         crit,6,2,1,gaussian,0.5,1048576,0.99,100\n\
         crit,6,3,1,gaussian,0.5,1048576,0.98,100\n",
    )
    .unwrap();
    pathology()
        .arg("validate")
        .arg(&rows)
        .timeout(Duration::from_secs(60))
        .assert()
        .code(predicate::in_iter([0, 1]))
        .stdout(predicate::str::contains("crit"));
}

/// The default ±1 steps at b = 10, h = 25 overflow f64; the refusal says so (not
/// that the laws give no choices), and the true refusal of a law without choices reads as a
/// sentence.
#[test]
fn path_sum_refusals_give_the_real_reason_in_a_sentence() {
    pathology()
        .args([
            "decision",
            "--game",
            "sum",
            "--branching",
            "10",
            "--height",
            "25",
        ])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(
            "--height must be small enough that the f64",
        ))
        .stderr(predicate::str::contains("--exact"))
        .stderr(predicate::str::contains("different true values").not());
    pathology()
        .args(["decision", "--game", "sum", "--height", "5", "--step", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--step must be a law that, with the --leaf law, gives a root children of \
             different true values",
        ))
        .stderr(predicate::str::contains("must be and").not());
}

/// Values beyond what doubles hold are refused before any work by one rule, in
/// `decision` (either mode) and `mc sum` alike, and no message shows a Rust type's name.
#[test]
fn path_sum_values_beyond_doubles_are_refused_by_one_rule() {
    let law = "1e308:1/2,-1e308:1/2";
    for args in [
        vec!["decision", "--game", "sum", "--height", "5", "--step", law],
        vec![
            "decision", "--game", "sum", "--height", "5", "--step", law, "--exact",
        ],
        vec![
            "mc", "sum", "--height", "5", "--step", law, "--trials", "10",
        ],
    ] {
        pathology()
            .args(&args)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(
                "--step must be values small enough",
            ))
            .stderr(predicate::str::contains("1e300"))
            .stderr(predicate::str::contains("Real(").not());
    }
    // 1e299 per step over 5 steps is within the rule, and computed.
    pathology()
        .args([
            "decision",
            "--game",
            "sum",
            "--height",
            "5",
            "--step",
            "1e299:1/2,-1e299:1/2",
        ])
        .assert()
        .success();
}

/// A refused 10,000-atom `--noise` gives the reason first and the value once,
/// shortened; the 8-puzzle and the chess endgames follow one rule.
#[test]
fn a_huge_noise_law_is_refused_briefly_by_one_rule() {
    let law = (0..10_000)
        .map(|i| format!("{i}:1/10000"))
        .collect::<Vec<_>>()
        .join(",");
    for domain in ["eight-puzzle", "krk", "kqk"] {
        let out = pathology()
            .args(["domain", domain, "--depth", "1", "--noise", &law])
            .timeout(Duration::from_secs(30))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{domain}");
        assert!(out.stdout.is_empty(), "{domain}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.len() < 1000, "{domain}: {} bytes of stderr", err.len());
        assert!(
            err.starts_with("error: --noise must be none, gaussian:S (S > 0) or a discrete law"),
            "{domain}: {err}"
        );
        assert!(err.contains("at most 64 values"), "{domain}: {err}");
        assert_eq!(
            err.matches("0:1/10000,1:1/10000").count(),
            1,
            "{domain}: {err}"
        );
    }
}

/// A type's limit is said in words, not as its digits.
#[test]
fn type_limits_are_said_in_words() {
    pathology()
        .args(["mc", "uct", "--iterations", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("from 1 to 2^31 - 1"))
        .stderr(predicate::str::contains("2147483647").not());
    for command in ["rhf", "wb"] {
        let mut args = vec![command, "--branching", "0"];
        if command == "rhf" {
            args.extend(["--w", "0.5"]);
        }
        pathology()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("from 2 to 2^32 - 1"))
            .stderr(predicate::str::contains("4294967295").not());
    }
}

/// A histogram of 3,000 rows over 97 evaluations weighted 1/p for distinct primes p
/// (a common denominator of about 40,000 bits) ran for 12.7 s against an estimate of 1 ms,
/// the estimate of the same rows weighted 1. The estimate now sees the denominator's size.
#[test]
fn the_estimate_sees_the_size_of_a_histogram_s_denominator() {
    let mut primes: Vec<u64> = Vec::new();
    let mut n = 2;
    while primes.len() < 3000 {
        n += 1;
        if primes
            .iter()
            .take_while(|p| *p * *p <= n)
            .all(|p| n % p != 0)
        {
            primes.push(n);
        }
    }
    let estimate = |weight: &dyn Fn(u64) -> String| -> f64 {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("h.csv");
        let text: String = primes
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let value = if i % 2 == 0 { 1 } else { -1 };
                format!("{value},{},{}\n", (i % 97) as f64 / 100.0, weight(*p))
            })
            .collect();
        std::fs::write(&file, text).unwrap();
        let out = pathology()
            .args([
                "decision", "--game", "crit", "--height", "6", "--gamma", "1",
            ])
            .args(["--evaluator", "histogram", "--histogram"])
            .arg(&file)
            .env("PATHOLOGY_ESTIMATE", "1")
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let err = String::from_utf8_lossy(&out.stderr);
        let at = err.find("estimate: ").unwrap_or_else(|| panic!("{err}")) + "estimate: ".len();
        err[at..].split(' ').next().unwrap().parse().unwrap()
    };
    let primed = estimate(&|p| format!("1/{p}"));
    let whole = estimate(&|_| "1".to_string());
    assert!(
        primed > 0.05 && primed > 20.0 * whole,
        "{primed} s against {whole} s"
    );
}

/// The Monte Carlo limit can be raised for a long job on one machine; the refusal
/// names the option and a run accepted above an hour prints its estimate first.
#[cfg(unix)]
#[test]
fn the_time_limit_can_be_raised() {
    let huge = [
        "mc",
        "dgame",
        "--height",
        "10",
        "--f1",
        "0.1",
        "--f2",
        "0.1",
        "--threads",
        "1",
    ];
    refused(
        &[&huge[..], &["--trials", "1000000000000"]].concat(),
        &["--time-limit MINUTES", "limit: 60 min"],
    );
    refused(
        &[
            &huge[..],
            &["--trials", "1000000000000", "--time-limit", "10080"],
        ]
        .concat(),
        &["limit: 7.0 days"],
    );
    refused(
        &[&huge[..], &["--trials", "10", "--time-limit", "0"]].concat(),
        &["--time-limit", "1..=10080"],
    );
    // About 5 hours on one thread: refused by default, accepted with --time-limit 600 (the
    // estimate printed first), then interrupted.
    let five_hours = (5.0 * 3600.0 / estimated_seconds_per_trial(&huge)) as u64;
    let trials = five_hours.to_string();
    refused(
        &[&huge[..], &["--trials", &trials]].concat(),
        &["refused (limit: 60 min)"],
    );
    let mut child = process()
        .args(huge)
        .args(["--trials", &trials, "--time-limit", "600"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.contains("will need about"), "{line}");
    assert!(line.contains("over the default limit of 60 min"), "{line}");
}

/// The seconds per trial the cost model of `args` assumes, from its refusal of 10^12 trials
/// on one thread.
fn estimated_seconds_per_trial(args: &[&str]) -> f64 {
    let output = pathology()
        .args(args)
        .args(["--trials", "1000000000000"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    // "... (1.2 us per trial); refused ..."
    let per = stderr
        .split(" per trial")
        .next()
        .and_then(|s| s.rsplit('(').next())
        .unwrap();
    let (number, unit) = per.split_once(' ').unwrap();
    let scale = match unit {
        "ns" => 1e-9,
        "us" | "µs" => 1e-6,
        "ms" => 1e-3,
        "s" => 1.0,
        other => panic!("unit {other} in {stderr}"),
    };
    number.parse::<f64>().unwrap() * scale
}
