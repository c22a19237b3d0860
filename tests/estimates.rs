//! Generated command lines (valid and invalid) never panic, exit 0, 1 or 2, name
//! an argument on exit 2, and every accepted run finishes within the tool's own estimate
//! (printed on stderr when `PATHOLOGY_ESTIMATE` is set) or is refused up front, before any
//! estimate of accepted work is printed.
//!
//! The estimates are meant to be right within a factor of two or three on the development
//! machine; the test allows [`SLACK`] times the estimate plus [`OVERHEAD_SECONDS`] for the
//! process (start, rendering, a loaded CI machine). The generated sizes are small, so the
//! whole property runs in well under a minute.

use std::time::Instant;

use proptest::prelude::*;

use super::common::pathology;

/// Measured time may exceed the estimate by this factor.
const SLACK: f64 = 4.0;
/// Fixed per-process allowance in seconds: start-up, parsing, rendering, loaded machines.
const OVERHEAD_SECONDS: f64 = 3.0;

const HEIGHTS: [&str; 7] = ["-1", "0", "2", "6", "12", "41", "x"];
const FACTORS: [&str; 6] = ["0", "0.3", "1/3", "0.9", "1.5", "abc"];
const TRIALS: [&str; 6] = ["-5", "0", "10", "2000", "1000000000000000", "x"];
const STEPS: [&str; 6] = ["-1", "0", "3", "500", "100001", "z"];
const FORMATS: [&str; 4] = ["text", "csv", "json", "yaml"];

fn pick(values: &'static [&'static str]) -> impl Strategy<Value = &'static str> + Clone {
    proptest::sample::select(values)
}

fn command() -> impl Strategy<Value = Vec<String>> {
    let (h, f, t, k, fmt) = (
        pick(&HEIGHTS),
        pick(&FACTORS),
        pick(&TRIALS),
        pick(&STEPS),
        pick(&FORMATS),
    );
    let words = |w: Vec<&str>| w.into_iter().map(String::from).collect::<Vec<_>>();
    prop_oneof![
        (pick(&["1", "2", "3", "x"]), fmt.clone())
            .prop_map(move |(n, fmt)| words(vec!["table", n, "--format", fmt])),
        (h.clone(), f.clone(), f.clone(), any::<bool>()).prop_map(move |(h, a, b, exact)| {
            let mut w = words(vec!["dgame", "--height", h, "--f1", a, "--f2", b]);
            if exact {
                w.push("--exact".into());
            }
            w
        }),
        (
            h.clone(),
            pick(&["0.1", "0.25", "0.5", "0", "-1"]),
            fmt.clone()
        )
            .prop_map(move |(h, step, fmt)| {
                words(vec![
                    "sweep", "--height", h, "--from", "0", "--to", "1", "--step", step, "--format",
                    fmt,
                ])
            }),
        (
            h.clone(),
            pick(&["p", "n", "x"]),
            pick(&["2", "3", "1"]),
            f.clone(),
            any::<bool>()
        )
            .prop_map(move |(h, game, b, p, exact)| {
                let parameter = if game == "n" { "--q" } else { "--p" };
                let mut w = words(vec![
                    "exact",
                    "--game",
                    game,
                    "--branching",
                    b,
                    "--height",
                    h,
                    parameter,
                    p,
                ]);
                if exact {
                    w.push("--exact".into());
                }
                w
            }),
        (h.clone(), f.clone(), t.clone()).prop_map(move |(h, f, t)| {
            words(vec![
                "mc", "dgame", "--height", h, "--f1", f, "--f2", f, "--trials", t, "--seed", "3",
            ])
        }),
        (pick(&["0", "1", "3", "5", "11"]), f.clone(), t.clone()).prop_map(move |(k, f, t)| {
            words(vec![
                "mc", "errprop", "--gamma", "0.2", "--delta", "0.1", "--f1", f, "--f2", f,
                "--steps", k, "--trials", t,
            ])
        }),
        (h.clone(), pick(&["1", "3", "7"]), t.clone()).prop_map(move |(h, d, t)| {
            words(vec![
                "mc", "rhf", "--w", "0.5", "--height", h, "--depth", d, "--trials", t,
            ])
        }),
        (
            pick(&["2", "3", "9"]),
            pick(&["0", "3", "6", "8"]),
            t.clone(),
            any::<bool>()
        )
            .prop_map(move |(b, d, t, ttt)| {
                let (positions, option) = if ttt {
                    ("tictactoe", "--plies")
                } else {
                    ("trees", "--branching")
                };
                words(vec![
                    "mc",
                    "alphabeta",
                    "--positions",
                    positions,
                    option,
                    b,
                    "--depth",
                    d,
                    "--trials",
                    t,
                ])
            }),
        (f.clone(), f, k, fmt, any::<bool>()).prop_map(move |(a, b, k, fmt, exact)| {
            let list = format!("{a},{b}");
            let mut w = words(vec![
                "errprop", "--gamma", "0.3", "--delta", "0.2", "--f", &list, "--steps", k,
                "--format", fmt,
            ]);
            if exact {
                w.push("--exact".into());
            }
            w
        }),
    ]
}

/// The estimates (seconds) printed on stderr by the accepted cost checks.
fn estimates(stderr: &str) -> Vec<f64> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("pathology: estimate: "))
        .map(|rest| {
            let seconds = rest.split(" s for ").next().expect("estimate line");
            seconds.parse::<f64>().expect("estimate in seconds")
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn accepted_runs_finish_within_their_estimate(args in command()) {
        let start = Instant::now();
        let out = pathology().env("PATHOLOGY_ESTIMATE", "1").args(&args).output().unwrap();
        let elapsed = start.elapsed().as_secs_f64();
        let err = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        prop_assert!(!err.contains("panicked"), "{args:?}: {err}");
        prop_assert!(matches!(code, Some(0..=2)), "{args:?}: exit {code:?}: {err}");
        let estimates = estimates(&err);
        match code {
            Some(0) => {
                prop_assert!(!estimates.is_empty(), "{args:?}: accepted without an estimate: {err}");
                let allowed = SLACK * estimates.iter().sum::<f64>() + OVERHEAD_SECONDS;
                prop_assert!(
                    elapsed <= allowed,
                    "{args:?}: took {elapsed:.2} s, estimate {estimates:?} allows {allowed:.2} s"
                );
            }
            Some(2) => {
                let names_argument =
                    err.contains("--") || err.contains("NUMBER") || err.contains("TABLE");
                prop_assert!(names_argument, "{args:?}: exit 2 without an argument: {err}");
                // A refusal comes before the work: no accepted estimate was printed.
                if err.contains("refused") {
                    prop_assert!(estimates.is_empty(), "{args:?}: refused after accepting: {err}");
                }
            }
            _ => {}
        }
    }
}

/// The estimate line is on stderr only: standard output is the same bytes with and without
/// `PATHOLOGY_ESTIMATE`.
#[test]
fn estimates_leave_standard_output_alone() {
    let args = [
        "sweep", "--height", "8", "--from", "0", "--to", "1", "--step", "0.25",
    ];
    let plain = pathology().args(args).output().unwrap();
    let with = pathology()
        .env("PATHOLOGY_ESTIMATE", "1")
        .args(args)
        .output()
        .unwrap();
    assert_eq!(plain.stdout, with.stdout);
    assert!(plain.stderr.is_empty());
    let printed = estimates(&String::from_utf8_lossy(&with.stderr));
    assert_eq!(printed.len(), 1, "one estimate for one computation");
    assert!(printed[0] > 0.0 && printed[0] < 1.0);
}
