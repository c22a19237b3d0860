//! Issue 13's remaining reliability items: every `mc` command, kalah and othello included,
//! refuses runs above one hour on its threads; `sweep` refuses with a hint that fits its mode;
//! long `errprop` runs stream their rows (bounded memory, identical bytes).

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

use super::common::refused;

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

/// Issue 13, item 11: `errprop` prints its rows as they are computed (CSV and JSON hold one
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

/// Issue 13, item 14: `sweep` prints a row per setting as soon as it and the settings before
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
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pathology"))
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
