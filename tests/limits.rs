//! Issue 13's remaining reliability items: every `mc` command, kalah and othello included,
//! refuses runs above one hour on its threads; `sweep` refuses with a hint that fits its mode;
//! long `errprop` runs stream their rows (bounded memory, identical bytes).

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

/// Trajectory rows of subnormal values (f = 0.7: the errors underflow) print in CSV at about
/// the speed of other values: 20,001 rows take well under a second (before the exact-integer
/// printing: 5 s of CPU, 34 s wall on the loaded development machine). The bound leaves room
/// for a loaded machine.
#[test]
fn subnormal_trajectory_rows_print_fast() {
    let start = std::time::Instant::now();
    let out = super::common::stdout_of(&[
        "errprop", "--gamma", "0.3", "--delta", "0.2", "--f", "0.7", "--steps", "20000",
        "--format", "csv",
    ]);
    let elapsed = start.elapsed().as_secs_f64();
    assert!(
        out.lines().last().unwrap().contains("e-32"),
        "subnormal rows"
    );
    assert!(
        elapsed < 5.0,
        "{elapsed:.1} s for 20,001 subnormal CSV rows"
    );
}
