//! Help as a researcher meets it first: every help line fits the terminal, `decision --help`
//! groups its options by game family, the summary names every game, and `reproduce --help`
//! names `--only`.

use super::common::{pathology, stdout_of};
use predicates::prelude::*;

/// Every subcommand's path (`["mc", "dgame"]`), from the parser itself.
fn subcommand_paths() -> Vec<Vec<String>> {
    fn walk(command: &clap::Command, prefix: &[String], out: &mut Vec<Vec<String>>) {
        for sub in command.get_subcommands() {
            let mut path = prefix.to_vec();
            path.push(sub.get_name().to_string());
            out.push(path.clone());
            walk(sub, &path, out);
        }
    }
    let mut out = vec![Vec::new()];
    walk(&pathology::cli::command(), &[], &mut out);
    out
}

/// Help is wrapped to the terminal's width (COLUMNS when standard output is not a
/// terminal), at most 100 columns: lines of 436 and 1,235 characters before. The usage line
/// is clap's own, unwrapped.
#[test]
fn every_help_line_fits_the_terminal_width() {
    for (columns, limit) in [("72", 72), ("250", 100)] {
        for path in subcommand_paths() {
            if path.last().is_some_and(|n| n == "help") {
                continue;
            }
            for flag in ["-h", "--help"] {
                let output = pathology()
                    .args(&path)
                    .arg(flag)
                    .env("COLUMNS", columns)
                    .output()
                    .unwrap();
                assert!(output.status.success(), "{path:?} {flag}");
                let text = String::from_utf8(output.stdout).unwrap();
                // clap never breaks the usage line (a command's required options in one
                // line); every other line is wrapped.
                for line in text.lines().filter(|l| !l.starts_with("Usage: ")) {
                    assert!(
                        line.chars().count() <= limit,
                        "{path:?} {flag} at COLUMNS={columns}: {} characters: {line}",
                        line.chars().count()
                    );
                }
            }
        }
    }
}

/// `decision --help` groups its options under one heading per game family.
#[test]
fn decision_help_groups_the_options_by_family() {
    let help = stdout_of(&["decision", "--help"]);
    let sections: Vec<(&str, &[&str])> = vec![
        (
            "Options:",
            &["--height", "--depth", "--exact", "--game", "--branching"],
        ),
        (
            "Li & Marsland's binary D-game (--f1):",
            &["--f1", "--f2", "--p0", "--complement"],
        ),
        ("b-ary D-game (--game d):", &["--qk", "--rk"]),
        ("P-game (--game p):", &["--p ", "--leaves"]),
        ("N-game (--game n):", &["--q "]),
        (
            "Critical game (--game crit):",
            &["--gamma", "--root-gamma", "--playout-formula"],
        ),
        ("G-game (--game g):", &["--rhf"]),
        (
            "Path-sum tree (--game sum):",
            &["--step", "--leaf", "--terminal", "--outcome", "--noise"],
        ),
        (
            "Evaluator:",
            &[
                "--evaluator",
                "--e ",
                "--sigma",
                "--halfwidth",
                "--histogram",
                "--levels",
                "--range",
            ],
        ),
        (
            "Output:",
            &["--format", "--decimals", "--table", "--manifest"],
        ),
    ];
    // The option lines of each heading, up to the next heading.
    let mut current = String::new();
    let mut options: std::collections::HashMap<String, Vec<String>> = Default::default();
    for line in help.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            current = line.to_string();
        } else if let Some(option) = line.trim_start().strip_prefix("--") {
            options
                .entry(current.clone())
                .or_default()
                .push(format!("--{option} "));
        }
    }
    for (heading, expected) in sections {
        let found = options
            .get(heading)
            .unwrap_or_else(|| panic!("no heading {heading}"));
        for option in expected {
            assert!(
                found.iter().any(|o| o.starts_with(option)),
                "{option} not under {heading}: {found:?}"
            );
        }
    }
}

/// The summary of `decision` (in `pathology --help`) and its `--game` help name
/// every value `--game` takes.
#[test]
fn decision_summary_lists_every_game() {
    use clap::ValueEnum;
    let command = pathology::cli::command();
    let decision = command.find_subcommand("decision").unwrap();
    let summary = decision.get_about().unwrap().to_string();
    let game = decision
        .get_arguments()
        .find(|a| a.get_id() == "game")
        .unwrap();
    let game_help = game.get_help().unwrap().to_string();
    for value in pathology::analytic::decision::GameName::value_variants() {
        let name = value.to_possible_value().unwrap().get_name().to_string();
        assert!(
            summary.contains(&format!("{name} (")),
            "--game {name} missing from the summary: {summary}"
        );
        assert!(
            game_help.contains(&format!("{name} (")),
            "--game {name} missing from its help: {game_help}"
        );
    }
}

#[test]
fn reproduce_help_names_only() {
    pathology()
        .args(["reproduce", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--only <NAME>"));
}
