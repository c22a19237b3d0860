//! Regression tests of issue 13 (reliability): runs refused up front with an estimate, write
//! errors reported, conflicting options rejected, messages naming the argument.

use crate::common::{pathology, refused, stdout_of};
use predicates::prelude::*;

/// Item 12: 1e15 trials is refused up front with an estimate, for every `mc` experiment.
#[test]
fn mc_refuses_runs_above_an_hour() {
    let huge = "1000000000000000";
    let cases: [&[&str]; 5] = [
        &["mc", "dgame", "--height", "10", "--f1", "0.3", "--f2", "0.3"],
        &[
            "mc", "errprop", "--gamma", "0.1", "--delta", "0.1", "--f1", "0.3", "--f2", "0.3",
            "--steps", "3",
        ],
        &["mc", "rhf", "--w", "0.5", "--height", "6", "--depth", "2"],
        &["mc", "alphabeta"],
        &["mc", "alphabeta", "--positions", "tictactoe", "--plies", "4"],
    ];
    for args in cases {
        let mut all = args.to_vec();
        all.extend(["--trials", huge]);
        refused(&all, &["refused", "days", huge, "--shard"]);
    }
}

/// Item 12: the shard is what runs, so a small enough shard of a huge run is accepted, and
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
    assert!(out.contains(",1000000,"), "the shard runs its 10^6 trials: {out}");
    refused(
        &[
            "mc", "errprop", "--gamma", "0.1", "--delta", "0.1", "--f1", "0.3", "--f2", "0.3",
            "--steps", "30", "--trials", "1000000000",
        ],
        &["--steps must be in 1..=10"],
    );
}
