//! `pathology decision`, the one way to ask for D(d,h): the same values, tables and notes as
//! its aliases `dgame` (Li & Marsland's D-games, --f1) and `exact` (--game d|p|n) in every
//! format, its manifest naming `decision`, and options of the other kind refused by name
//! (exit 2).

use super::common::{json_of, pathology, redact_commit, refused, stdout_of};
use predicates::prelude::*;

/// `decision`'s output with its subcommand written as `alias`'s: the manifest's subcommand
/// and command lines (and LaTeX's labels, made from the subcommand) are the only difference.
fn as_alias(text: &str, alias: &str) -> String {
    text.replace("subcommand: decision", &format!("subcommand: {alias}"))
        .replace(
            "\"subcommand\": \"decision\"",
            &format!("\"subcommand\": \"{alias}\""),
        )
        .replace("pathology decision", &format!("pathology {alias}"))
        .replace("tab:decision-", &format!("tab:{alias}-"))
}

/// `decision ARGS` prints what `alias ARGS` prints, in every format, apart from the
/// subcommand.
pub fn same_as(alias: &str, args: &[&str]) {
    for format in ["text", "csv", "json", "markdown", "latex"] {
        let mut decision = vec!["decision"];
        decision.extend(args);
        decision.extend(["--format", format]);
        let mut old = vec![alias];
        old.extend(args);
        old.extend(["--format", format]);
        assert_eq!(
            as_alias(&redact_commit(&stdout_of(&decision)), alias),
            redact_commit(&stdout_of(&old)),
            "{decision:?}"
        );
    }
}

#[test]
fn li_marsland_d_games_are_dgame() {
    same_as("dgame", &["--height", "10", "--f1", "0.3", "--p0", "0.5"]);
    same_as(
        "dgame",
        &["--height", "8", "--f1", "0.1", "--f2", "0.2", "--exact"],
    );
    same_as(
        "dgame",
        &[
            "--height",
            "12",
            "--f1",
            "0.9",
            "--f2",
            "0.9",
            "--complement",
            "--depth",
            "4",
        ],
    );
}

#[test]
fn the_families_are_exact() {
    same_as(
        "exact",
        &["--game", "p", "--branching", "3", "--height", "6"],
    );
    same_as("exact", &["--game", "n", "--height", "6", "--exact"]);
    same_as(
        "exact",
        &[
            "--game",
            "p",
            "--height",
            "8",
            "--evaluator",
            "artificial",
            "--e",
            "0.2",
        ],
    );
    same_as(
        "exact",
        &[
            "--game",
            "d",
            "--branching",
            "3",
            "--height",
            "5",
            "--qk",
            "0.2,0.3,0.5",
            "--rk",
            "0.1,0.4,0.5",
        ],
    );
}

#[test]
fn the_manifest_names_decision_and_regenerates_the_result() {
    let report = json_of(&[
        "decision", "--height", "6", "--game", "p", "--format", "json",
    ]);
    let manifest = &report["manifest"];
    assert_eq!(manifest["subcommand"], "decision");
    let command = manifest["command"].as_str().unwrap();
    assert_eq!(
        command,
        "pathology decision --game p --branching 2 --height 6 --evaluator count"
    );
    let args: Vec<&str> = command
        .split(' ')
        .skip(1)
        .chain(["--format", "json"])
        .collect();
    assert_eq!(json_of(&args), report);
}

#[test]
fn binary_d_games_of_both_engines_agree() {
    // Li & Marsland's engine (--f1) and the families' (--game d, b = 2) on the same game.
    let rows = |args: &[&str]| -> Vec<f64> {
        json_of(args)["tables"][0]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["D"].as_f64().unwrap())
            .collect()
    };
    let li_marsland = rows(&[
        "decision", "--height", "10", "--f1", "0.1", "--f2", "0.1", "--format", "json",
    ]);
    let family = rows(&[
        "decision", "--height", "10", "--game", "d", "--qk", "0.9,0.1", "--rk", "0.9,0.1",
        "--format", "json",
    ]);
    assert_eq!(li_marsland, family);
    assert!((li_marsland[0] - 0.608).abs() < 5e-4); // Table 1, f1 = f2 = 0.1
}

#[test]
fn options_of_the_other_kind_are_refused_by_name() {
    let h = ["decision", "--height", "8"];
    fn with<'a>(more: &[&'a str]) -> Vec<&'a str> {
        [&["decision", "--height", "8"][..], more].concat()
    }
    refused(
        &with(&["--f1", "0.3", "--f2", "0.3", "--game", "p"]),
        &["--f1", "--game"],
    );
    refused(
        &with(&["--f1", "0.3", "--f2", "0.3", "--qk", "0.5,0.5"]),
        &["--f1", "--qk"],
    );
    refused(
        &with(&["--f1", "0.3", "--f2", "0.3", "--branching", "3"]),
        &["--f1", "--branching"],
    );
    refused(
        &with(&["--f1", "0.3", "--p0", "0.5", "--evaluator", "count"]),
        &["--f1", "--evaluator"],
    );
    refused(&with(&["--game", "p", "--f2", "0.3"]), &["--game", "--f2"]);
    refused(&with(&["--game", "p", "--p0", "0.3"]), &["--game", "--p0"]);
    refused(
        &with(&["--game", "p", "--complement"]),
        &["--game", "--complement"],
    );
    refused(
        &with(&["--f1", "0.3", "--f2", "0.3", "--complement", "--exact"]),
        &["--complement", "--exact"],
    );
    refused(
        &with(&["--f1", "0.3", "--f2", "0.3", "--p0", "0.5"]),
        &["--f2", "--p0"],
    );
    refused(&with(&["--game", "n", "--p", "0.3"]), &["--p", "--game p"]);
    // Neither family, or a D-game without its second factor.
    refused(&h, &["--f1", "--game"]);
    refused(&with(&["--f1", "0.3"]), &["--f2", "--p0"]);
    // Li & Marsland's engine stops at height 40; the families check their own cost.
    refused(
        &["decision", "--height", "41", "--f1", "0.3", "--f2", "0.3"],
        &["--height must be in 1..=40, got 41"],
    );
}

#[test]
fn help_lists_decision_first_after_reproduce_and_the_aliases() {
    let help = stdout_of(&["--help"]);
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(commands[..2], ["reproduce", "decision"]);
    for alias in ["dgame", "exact"] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(alias))
            .unwrap();
        assert!(line.contains("Alias of `decision`"), "{line}");
    }
    pathology()
        .args(["decision", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--qk").and(predicate::str::contains("--p0")));
}

/// `--table refined` names the table a continuous evaluation without `--levels` adds (the
/// default bins and twice as many), and is refused where there is no such table.
#[test]
fn the_refined_table_of_a_continuous_evaluation_can_be_asked_for() {
    let base = [
        "decision",
        "--game",
        "crit",
        "--branching",
        "2",
        "--height",
        "6",
        "--gamma",
        "0.9",
        "--evaluator",
        "gaussian",
        "--sigma",
        "0.5",
    ];
    let refined = stdout_of(&[&base[..], &["--table", "refined", "--format", "csv"]].concat());
    assert!(
        refined.lines().filter(|l| !l.starts_with('#')).count() > 1,
        "{refined}"
    );
    refused(
        &[&base[..], &["--levels", "40", "--table", "refined"]].concat(),
        &["--table", "decisions, root"],
    );
}
