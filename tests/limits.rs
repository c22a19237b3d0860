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
