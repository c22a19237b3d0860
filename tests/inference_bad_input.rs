//! Bad input to beam search, the knockout bracket and (reward-weighted) voting, in
//! `inference` and `mc inference`: each refused with exit 2 before any work, naming the
//! option and its allowed range, with no panic and no file written (the manifest file that
//! `--manifest FILE` asks for is not created).

use predicates::prelude::*;

use super::common::{pathology, stdout_of};

/// Runs `args` with `--manifest FILE` in a fresh directory and checks the refusal: exit
/// code 2, every one of `mentions` in the error, no panic, nothing on standard output, and
/// FILE not created.
fn refused_without_files(args: &[&str], mentions: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("manifest.json");
    let mut assert = pathology()
        .args(args)
        .args(["--manifest", manifest.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("panicked").not());
    for m in mentions {
        assert = assert.stderr(predicate::str::contains(*m));
    }
    assert!(!manifest.exists(), "{args:?} wrote {}", manifest.display());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "{args:?} wrote a file"
    );
}

/// `args` with `option` set to `value` (the option replaced, or appended when absent).
fn with(args: &[&'static str], option: &'static str, value: &'static str) -> Vec<&'static str> {
    let mut out = args.to_vec();
    match out.iter().position(|a| *a == option) {
        Some(at) => out[at + 1] = value,
        None => out.extend([option, value]),
    }
    out
}

const BEAM: [&str; 13] = [
    "beam",
    "--branching",
    "2",
    "--steps",
    "3",
    "--step-correct",
    "0.6",
    "--noise",
    "-1:1/4,0:1/2,1:1/4",
    "--beams",
    "1..3",
    "--growth",
    "1/2",
];

const KNOCKOUT: [&str; 9] = [
    "knockout",
    "--tasks",
    "0.4",
    "--judge-correct",
    "0.7",
    "--judge-calls",
    "3",
    "--rounds",
    "1..3",
];

const VOTE: [&str; 5] = ["vote", "--tasks", "0.4", "--k", "1..5"];

/// The command under `inference` and, when `mc` holds, under `mc inference` (with a few
/// trials: a refusal comes before them).
fn both(args: &[&'static str], mc: bool, mentions: &[&str]) {
    let mut exact = vec!["inference"];
    exact.extend(args);
    refused_without_files(&exact, mentions);
    if mc {
        let mut simulated = vec!["mc", "inference"];
        simulated.extend(args);
        simulated.extend(["--trials", "100"]);
        refused_without_files(&simulated, mentions);
    }
}

#[test]
fn beam_widths_outside_1_to_4096_are_refused() {
    for m in ["0", "4097", "0..3"] {
        both(&with(&BEAM, "--beams", m), true, &["--beams", "4096"]);
    }
}

#[test]
fn beam_branching_below_2_is_refused() {
    for b in ["1", "0", "-2"] {
        both(&with(&BEAM, "--branching", b), true, &["--branching", "2"]);
    }
}

#[test]
fn beam_step_probability_outside_0_1_is_refused() {
    for q in ["1.5", "-0.1", "0.5:1/2,1.2:1/2"] {
        both(
            &with(&BEAM, "--step-correct", q),
            true,
            &["--step-correct", "[0, 1]"],
        );
    }
}

#[test]
fn beam_noise_of_no_positive_scale_and_negative_growth_are_refused() {
    for law in ["gaussian:-1", "gaussian:0", "normal:0,0", "uniform:0"] {
        both(&with(&BEAM, "--noise", law), true, &["--noise", "> 0"]);
    }
    both(
        &with(&BEAM, "--growth", "-1/4"),
        true,
        &["--growth", "at least 0"],
    );
}

#[test]
fn knockout_calls_rounds_and_judge_outside_their_ranges_are_refused() {
    for k in ["0", "10001", "0..3"] {
        both(
            &with(&KNOCKOUT, "--judge-calls", k),
            true,
            &["--judge-calls", "10000"],
        );
    }
    for r in ["0", "41"] {
        both(&with(&KNOCKOUT, "--rounds", r), true, &["--rounds", "40"]);
    }
    for p in ["1.5", "-0.1", "0.6,1.1"] {
        both(
            &with(&KNOCKOUT, "--judge-correct", p),
            true,
            &["--judge-correct", "[0, 1]"],
        );
    }
    for n in ["1", "0", "1001"] {
        both(
            &with(&KNOCKOUT, "--league", n),
            false,
            &["--league", "1000"],
        );
    }
}

/// An even K is accepted and its tie of K/2 calls each is a fair coin (as the help and the
/// docs say), so the extra call only turns a majority of one into a tie: the bracket at
/// K = 2 is exactly the bracket at K = 1 (`p^2 + 2 p (1 - p) / 2 = p`), at K = 4 exactly
/// that at K = 3.
#[test]
fn knockout_even_calls_break_a_tie_by_a_fair_coin() {
    let exact = |k: &'static str| {
        let mut args = vec!["inference"];
        args.extend(with(&KNOCKOUT, "--judge-calls", k));
        args.extend(["--exact", "--format", "csv", "--table", "knockout"]);
        stdout_of(&args)
    };
    let (one, two) = (exact("1"), exact("2"));
    let values = |csv: &str| -> Vec<String> {
        csv.lines()
            .skip(1)
            .map(|l| l.split(',').nth(5).unwrap().to_string())
            .collect()
    };
    assert_eq!(values(&one).len(), 3, "{one}");
    assert_eq!(values(&one), values(&two), "{one}\n{two}");
    let (three, four) = (exact("3"), exact("4"));
    assert_eq!(values(&three), values(&four), "{three}\n{four}");
    assert_ne!(values(&one), values(&three));
}

#[test]
fn task_weights_that_are_not_positive_are_refused() {
    for tasks in ["0.3:0,0.6:1", "0.3:-1,0.6:2"] {
        let mut args = with(&KNOCKOUT, "--tasks", tasks);
        args.push("--weights");
        both(&args, true, &["--tasks", "positive weights"]);
        let mut args = with(&VOTE, "--tasks", tasks);
        args.push("--weights");
        both(&args, true, &["--tasks", "positive weights"]);
    }
}

#[test]
fn vote_lists_with_a_step_of_0_or_a_factor_below_2_are_refused() {
    for (k, allowed) in [
        ("1..64:0", "step S of at least 1"),
        ("1..64:x1", "factor F of at least 2"),
        ("1..64:x0", "factor F of at least 2"),
    ] {
        both(&with(&VOTE, "--k", k), true, &["--k", allowed]);
        both(&with(&BEAM, "--beams", k), true, &["--beams", allowed]);
        // Rounds take no doubling (r is already the exponent of N = 2^r).
        both(
            &with(&KNOCKOUT, "--rounds", k),
            true,
            &["--rounds", "1..=40"],
        );
    }
    for k in ["0", "0..4"] {
        both(
            &with(&VOTE, "--k", k),
            true,
            &["--k", "whole numbers in 1..="],
        );
    }
}

#[test]
fn weighted_vote_score_laws_of_no_positive_scale_are_refused() {
    let mut weighted = VOTE.to_vec();
    weighted.extend([
        "--weighted",
        "--score-correct",
        "1:1/2,2:1/2",
        "--score-wrong",
        "1",
    ]);
    for law in ["gaussian:-1", "gaussian:0", "normal:0,0"] {
        both(
            &with(&weighted, "--score-correct", law),
            true,
            &["--score-correct", "S > 0"],
        );
        both(
            &with(&weighted, "--score-wrong", law),
            true,
            &["--score-wrong", "S > 0"],
        );
    }
    both(
        &with(&weighted, "--wrong-answers", "0.5,0.6"),
        true,
        &["--wrong-answers", "summing to exactly 1"],
    );
}

/// `--weights` reads knockout's W as positive weights divided by their sum, as every other
/// strategy does: `0.3:1,0.6:3` with it is `0.3:1/4,0.6:3/4` without it.
#[test]
fn knockout_reads_task_weights() {
    let run = |tasks: &'static str, weights: bool| {
        let mut args = vec!["inference"];
        args.extend(with(&KNOCKOUT, "--tasks", tasks));
        args.extend(["--exact", "--format", "csv", "--table", "knockout"]);
        if weights {
            args.push("--weights");
        }
        stdout_of(&args)
    };
    assert_eq!(run("0.3:1,0.6:3", true), run("0.3:1/4,0.6:3/4", false));
}
