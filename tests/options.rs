//! Every integer option of every subcommand, fed 0, -1 and 2^64, is either
//! accepted (0, where 0 is in its range) or refused with a message that names the option and
//! states its real range: never the type's range (`0..=4294967295`), Rust's parse text
//! (`invalid digit found in string`), or `-1` taken for an unknown flag. The parser walked is
//! the binary's own (`pathology::cli::command()`), so an option added later is covered. A
//! typo in `--table` and an `--out` that is a file are refused before any work.

use crate::common::refused;
use clap::builder::ValueParser;
use std::any::TypeId;
use std::path::Path;

/// Whether a value parser produces an unsigned integer.
fn is_integer(parser: &ValueParser) -> bool {
    let id = parser.type_id();
    [
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
    ]
    .iter()
    .any(|t| id == *t)
}

/// Every (subcommand path, integer argument) of `command`.
fn integer_options(
    command: &clap::Command,
    path: Vec<String>,
    out: &mut Vec<(Vec<String>, clap::Arg)>,
) {
    for arg in command.get_arguments() {
        let takes_value = arg.get_num_args().is_none_or(|n| n.takes_values());
        if takes_value && is_integer(arg.get_value_parser()) {
            out.push((path.clone(), arg.clone()));
        }
    }
    for sub in command.get_subcommands() {
        let mut p = path.clone();
        p.push(sub.get_name().to_string());
        integer_options(sub, p, out);
    }
}

/// The lower end of the range a message states (`in 2..=60`, `of at least 1`, `>= 1`).
fn stated_lower_end(message: &str) -> Option<u64> {
    // `from 1 to 2^31 - 1` (a type's limit in words).
    if let Some(i) = message.find("whole number from ") {
        let rest = &message[i + "whole number from ".len()..];
        return rest[..rest.find(' ')?].parse().ok();
    }
    if let Some(i) = message.find("..=") {
        let head = &message[..i];
        let start = head
            .rfind(|c: char| !c.is_ascii_digit())
            .map_or(0, |j| j + 1);
        return head[start..].parse().ok();
    }
    // `>= 1` (the wording changed `of at least 1` to `>= 1`).
    let (i, marker) = match message.find("at least ") {
        Some(i) => (i, "at least "),
        None => (message.find(">= ")?, ">= "),
    };
    let rest = &message[i + marker.len()..];
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

#[test]
fn every_integer_option_names_itself_and_its_real_range() {
    let mut options = Vec::new();
    integer_options(&pathology::cli::command(), Vec::new(), &mut options);
    assert!(
        options.len() > 40,
        "only {} integer options found: the walk is broken",
        options.len()
    );
    let mut checked = 0;
    for (path, arg) in &options {
        let name = match arg.get_long() {
            Some(long) => format!("--{long}"),
            None => format!(
                "<{}>",
                arg.get_value_names()
                    .map_or("VALUE".into(), |v| v[0].to_string())
            ),
        };
        for value in ["0", "-1", "18446744073709551616"] {
            let mut argv = vec!["pathology".to_string()];
            argv.extend(path.iter().cloned());
            if arg.get_long().is_some() {
                argv.push(name.clone());
            }
            argv.push(value.to_string());
            let Err(error) = pathology::cli::command().try_get_matches_from(&argv) else {
                // Accepted at parse time: only 0 may be (e.g. --opening-plies 0).
                assert_eq!(value, "0", "{argv:?} was accepted");
                continue;
            };
            let message = error.to_string();
            if !message.contains("invalid value") {
                // 0 parsed, then another error (a missing required option): accepted.
                assert_eq!(value, "0", "{argv:?}: {message}");
                continue;
            }
            checked += 1;
            assert!(
                message.contains(&format!("'{name}")),
                "{argv:?} does not name the option: {message}"
            );
            // A type's limit is said in words (`2^32 - 1`), even where it
            // is the option's real limit (`wb --branching`).
            for internal in [
                "invalid digit",
                "number too large",
                "4294967295",
                "2147483647",
                "65535",
                "is not in",
            ] {
                assert!(!message.contains(internal), "{argv:?}: {message}");
            }
            let lower = stated_lower_end(&message)
                .unwrap_or_else(|| panic!("{argv:?} states no range: {message}"));
            if value == "0" {
                assert!(
                    lower > 0,
                    "{argv:?} refused 0 though its range starts at 0: {message}"
                );
            }
            assert!(
                message.contains(&format!("got {value}")),
                "{argv:?}: {message}"
            );
        }
    }
    assert!(checked > 80, "only {checked} refusals checked");
}

/// A typo in `--table` and an `--out` that is a file are refused before any work:
/// exit 2, nothing on standard output, no directory created. The settings would run for
/// minutes if the work started first.
#[test]
fn options_are_checked_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("fresh");
    let fresh = fresh.to_str().unwrap();
    refused(
        &[
            "trend", "--from", "10", "--to", "17", "--table", "bogus", "--out", fresh,
        ],
        &["--table must be one of trend, got bogus"],
    );
    assert!(!Path::new(fresh).exists(), "trend created its --out");
    let afile = dir.path().join("afile");
    std::fs::write(&afile, "").unwrap();
    refused(
        &[
            "trend",
            "--from",
            "10",
            "--to",
            "17",
            "--out",
            afile.to_str().unwrap(),
        ],
        &["--out must be a directory", "an existing regular file"],
    );
    refused(
        &["man", "--out", afile.to_str().unwrap()],
        &["--out must be a directory", "an existing regular file"],
    );
    refused(
        &[
            "mc",
            "match-sweep",
            "--pairs",
            "100000000",
            "--table",
            "bogus",
        ],
        &["--table", "bogus"],
    );
    refused(
        &["mc", "uct", "--games", "100000000", "--table", "bogus"],
        &["--table", "bogus"],
    );
    refused(
        &["mc", "kalah", "--boards", "100000000", "--table", "bogus"],
        &["--table", "bogus"],
    );
    let plot_dir = dir.path().join("p.svg");
    std::fs::create_dir(&plot_dir).unwrap();
    refused(
        &[
            "errprop",
            "--gamma",
            "0.1",
            "--delta",
            "0.1",
            "--f",
            "0.5",
            "--steps",
            "100000",
            "--plot",
            plot_dir.to_str().unwrap(),
        ],
        &["--plot must be a file that can be written", "a directory"],
    );
}
