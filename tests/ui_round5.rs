//! Issue 44, parts B and C (items 17-26): the interfaces a researcher meets first (help,
//! `validate`'s columns, where files go, the manifest lines, interrupts, `reproduce --only`,
//! the `binomial:N` law, honest intervals, the time limit) and the figures' data.

use std::path::Path;
use std::process::Stdio;

use super::common::{json_of, pathology, refused, rows_of, stdout_of};
use predicates::prelude::*;
use serde_json::Value;

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

/// Item 17: help is wrapped to the terminal's width (COLUMNS when standard output is not a
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

/// Item 17: `decision --help` groups its options under one heading per game family.
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

/// Item 17: the summary of `decision` (in `pathology --help`) and its `--game` help name
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

fn write_temp(contents: &str) -> tempfile::NamedTempFile {
    use std::io::Write;
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(contents.as_bytes()).unwrap();
    file
}

/// `validate FILE --format json`: its exit code and the `checked` and `malformed` rows.
fn validated(csv: &str) -> (i32, Vec<Value>, Vec<Value>) {
    let file = write_temp(csv);
    let output = pathology()
        .args([
            "validate",
            file.path().to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let code = output.status.code().unwrap();
    let doc: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)));
    let table = |name: &str| {
        doc["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .map_or(Vec::new(), |t| t["rows"].as_array().unwrap().clone())
    };
    (code, table("checked"), table("malformed"))
}

/// Item 18: every kind reads `h, d, b` and `height, depth, branching` alike, and
/// `successes, trials` without `estimate`.
#[test]
fn validate_reads_both_vocabularies_and_successes() {
    let exact_of =
        |rows: &[Value]| -> Vec<String> { rows.iter().map(|r| r["exact"].to_string()).collect() };
    let short = "kind,b,h,d,p,estimate,trials\npgame,2,6,2,1/2,0.83,100\n";
    let long = "kind,branching,height,depth,p,estimate,trials\npgame,2,6,2,1/2,0.83,100\n";
    let (a, rows_a, bad_a) = validated(short);
    let (b, rows_b, bad_b) = validated(long);
    assert!(bad_a.is_empty() && bad_b.is_empty(), "{bad_a:?} {bad_b:?}");
    assert_eq!((a, rows_a.len()), (b, rows_b.len()));
    assert_eq!(exact_of(&rows_a), exact_of(&rows_b));
    let crit_long = "kind,height,depth,branching,gamma,evaluator,e,estimate,trials\n\
                     crit,6,2,2,1,artificial,0.1,0.8,100\n";
    let crit_short = "kind,h,d,b,gamma,evaluator,e,estimate,trials\n\
                      crit,6,2,2,1,artificial,0.1,0.8,100\n";
    let (_, crit_a, bad_a) = validated(crit_long);
    let (_, crit_b, bad_b) = validated(crit_short);
    assert!(bad_a.is_empty() && bad_b.is_empty(), "{bad_a:?} {bad_b:?}");
    assert_eq!(exact_of(&crit_a), exact_of(&crit_b));
    // successes and trials alone: the estimate is their ratio.
    let counts = "kind,b,h,d,p,successes,trials\npgame,2,6,2,1/2,83,100\n";
    let (_, rows_c, bad_c) = validated(counts);
    assert!(bad_c.is_empty(), "{bad_c:?}");
    assert_eq!(rows_c[0]["estimate"].as_f64(), Some(0.83));
    assert_eq!(exact_of(&rows_c), exact_of(&rows_a));
    let file = write_temp(counts);
    let text = stdout_of(&["validate", file.path().to_str().unwrap()]);
    assert!(text.contains("\n1 row checked, 0 malformed"), "{text}");
    // One parameter under both names is refused, naming both.
    let both = "kind,h,height,d,p,estimate,trials\npgame,6,6,2,1/2,0.83,100\n";
    let (code, _, bad) = validated(both);
    assert_eq!(code, 2);
    assert!(
        bad[0]["reason"]
            .as_str()
            .unwrap()
            .contains("'h' and 'height'"),
        "{bad:?}"
    );
}

/// Item 18: the rows of `mc emm` are refused with a plain statement of what validate reads,
/// and the `mc` outputs it names are read as they are.
#[test]
fn validate_says_which_mc_outputs_it_reads() {
    let emm = stdout_of(&["mc", "emm", "--trials", "50", "--format", "csv"]);
    let (code, _, bad) = validated(&emm);
    assert_eq!(code, 2);
    let reason = bad[0]["reason"].as_str().unwrap();
    for named in ["`pathology mc dgame`", "`sum`", "`mc emm`"] {
        assert!(reason.contains(named), "{reason}");
    }
    for args in [
        &[
            "mc", "dgame", "--height", "4", "--f1", "0.3", "--f2", "0.3", "--trials", "200",
        ][..],
        &[
            "mc", "rhf", "--w", "0.2", "--height", "6", "--depth", "2", "--trials", "200",
        ][..],
        &["mc", "sum", "--height", "4", "--trials", "200"][..],
    ] {
        let csv = stdout_of(&[args, &["--format", "csv"]].concat());
        let (code, rows, bad) = validated(&csv);
        assert!(bad.is_empty() && !rows.is_empty(), "{args:?}: {bad:?}");
        assert!(code == 0 || code == 1, "{args:?}");
    }
}

/// Item 19: `trend` writes no file unless --out names a directory (it wrote trend.csv and two
/// figures into the current directory); the figure commands name their default directory;
/// `mc study-figures` takes --threads; `errprop figures` writes Li & Marsland's figures only.
#[test]
fn commands_write_files_only_where_told() {
    let cwd = tempfile::tempdir().unwrap();
    pathology()
        .current_dir(cwd.path())
        .args(["trend", "--from", "10", "--to", "10"])
        .assert()
        .success();
    assert_eq!(std::fs::read_dir(cwd.path()).unwrap().count(), 0);
    pathology()
        .current_dir(cwd.path())
        .args(["trend", "--from", "10", "--to", "10", "--out", "t"])
        .assert()
        .success();
    assert!(cwd.path().join("t/trend.csv").exists());

    let command = pathology::cli::command();
    let default_out = |path: &[&str]| -> String {
        let mut c = &command;
        for name in path {
            c = c.find_subcommand(name).unwrap();
        }
        let out = c.get_arguments().find(|a| a.get_id() == "out").unwrap();
        out.get_default_values()[0].to_string_lossy().into_owned()
    };
    assert_eq!(default_out(&["mc", "emm-figures"]), "emm-figures");
    assert_eq!(default_out(&["mc", "study-figures"]), "study-figures");
    assert_eq!(default_out(&["errprop", "figures"]), "errprop-figures");
    assert!(
        command
            .clone()
            .try_get_matches_from(["pathology", "mc", "study-figures", "--threads", "1"])
            .is_ok()
    );

    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("figures");
    stdout_of(&["errprop", "figures", "--out", dir.to_str().unwrap()]);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(
        names.iter().any(|n| n == "dgame_fig4_pairs.txt"),
        "{names:?}"
    );
    for name in &names {
        assert!(
            name.starts_with("errprop_") || name.starts_with("dgame_fig4"),
            "{name} is not one of Li & Marsland's figures"
        );
    }
}

/// Item 20: `--manifest none` leaves the manifest out of text, Markdown and LaTeX; they
/// carry it by default.
#[test]
fn manifest_none_drops_the_manifest_lines() {
    for (format, marker) in [
        ("text", "# command:"),
        ("markdown", "<summary>manifest</summary>"),
        ("latex", "% command:"),
    ] {
        let with = stdout_of(&["wb", "--branching", "3", "--format", format]);
        assert!(with.contains(marker), "{format}: {with}");
        let without = stdout_of(&[
            "wb",
            "--branching",
            "3",
            "--format",
            format,
            "--manifest",
            "none",
        ]);
        assert!(!without.contains(marker), "{format}: {without}");
        assert!(!without.contains("commit"), "{format}: {without}");
        // The tables are the same.
        assert!(with.contains(without.lines().nth(2).unwrap_or_default()));
    }
    // A streamed command too.
    let sweep = stdout_of(&[
        "sweep",
        "--height",
        "6",
        "--from",
        "0.1",
        "--to",
        "0.3",
        "--step",
        "0.1",
        "--manifest",
        "none",
    ]);
    assert!(!sweep.contains("# "), "{sweep}");
}

/// Item 21: an interrupt says what it left unchanged (it was silent).
#[cfg(unix)]
#[test]
fn an_interrupt_says_the_output_is_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_pathology"))
        .args(["reproduce", "--out", out.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains(&format!("interrupted; {} unchanged", out.display())),
        "{stderr}"
    );
}

/// Item 22: `reproduce --only NAME` regenerates one file alone, byte for byte as a run of its
/// step writes it, and INDEX.md gives each file a command that regenerates it alone.
#[test]
fn reproduce_only_regenerates_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    stdout_of(&[
        "reproduce",
        "--steps",
        "1,2",
        "--out",
        whole.to_str().unwrap(),
    ]);
    let index = std::fs::read_to_string(whole.join("INDEX.md")).unwrap();
    let rows: Vec<&str> = index.lines().filter(|l| l.starts_with("| [")).collect();
    assert!(rows.len() > 20);
    for row in &rows {
        let command = row.split('`').nth(1).unwrap();
        assert!(
            !command.starts_with("pathology reproduce") || command.contains(" --only "),
            "{row}"
        );
    }
    let rhf_row = rows
        .iter()
        .find(|r| r.starts_with("| [rhf_chi_nau_fig2.png]"))
        .unwrap();
    assert!(
        rhf_row.contains("`pathology reproduce --only rhf_chi_nau_fig2.png`"),
        "{rhf_row}"
    );
    let only = dir.path().join("only");
    std::fs::create_dir(&only).unwrap();
    std::fs::write(only.join("mine.txt"), "a file of the user's").unwrap();
    for name in ["rhf_chi_nau_fig2.png", "table1.md"] {
        let printed = stdout_of(&["reproduce", "--only", name, "--out", only.to_str().unwrap()]);
        assert!(printed.contains(name), "{printed}");
        assert_eq!(
            std::fs::read(only.join(name)).unwrap(),
            std::fs::read(whole.join(name)).unwrap(),
            "{name}"
        );
    }
    let mut left: Vec<String> = std::fs::read_dir(&only)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["mine.txt", "rhf_chi_nau_fig2.png", "table1.md"]);
    for bad in ["INDEX.md", "nonsense.png", "../table1.md"] {
        refused(
            &["reproduce", "--only", bad, "--out", only.to_str().unwrap()],
            &["--only"],
        );
    }
}

/// Item 23: `binomial:N` is the centred binomial Bin(N, 1/2) - N/2, exactly: the
/// why-minimax cell typed with it equals the cell typed with its 17 and 9 fractions.
#[test]
fn binomial_shorthand_is_the_centred_binomial() {
    let common = [
        "decision",
        "--game",
        "sum",
        "--branching",
        "2",
        "--height",
        "8",
        "--step",
        "-1:1/4,0:1/2,1:1/4",
        "--evaluator",
        "additive",
        "--exact",
        "--format",
        "json",
    ];
    let long = json_of(
        &[
            &common[..],
            &[
                "--leaf",
                "-8:1/65536,-7:1/4096,-6:15/8192,-5:35/4096,-4:455/16384,-3:273/4096,-2:1001/8192,\
             -1:715/4096,0:6435/32768,1:715/4096,2:1001/8192,3:273/4096,4:455/16384,5:35/4096,\
             6:15/8192,7:1/4096,8:1/65536",
                "--noise",
                "-4:1/256,-3:1/32,-2:7/64,-1:7/32,0:35/128,1:7/32,2:7/64,3:1/32,4:1/256",
            ],
        ]
        .concat(),
    );
    let short = json_of(
        &[
            &common[..],
            &["--leaf", "binomial:16", "--noise", "binomial:8"],
        ]
        .concat(),
    );
    let rows = |report: &Value| -> Vec<Value> {
        report["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["rows"].clone())
            .collect()
    };
    assert_eq!(rows(&long), rows(&short));
    assert_eq!(short["manifest"]["parameters"]["leaf"], "binomial:16");
    for bad in ["binomial:0", "binomial:1025", "binomial:x", "binomial:"] {
        refused(
            &["decision", "--game", "sum", "--height", "4", "--leaf", bad],
            &["--leaf", "binomial:N with N a whole number in 1..=1024"],
        );
    }
    let help = stdout_of(&["decision", "--help"]);
    assert!(help.contains("binomial:N"), "{help}");
}

/// Item 24: a mean of probabilities that are all 0 gets the Clopper-Pearson interval
/// [0, 1 - 0.025^(1/n)], not [0, 0].
#[test]
fn an_all_zero_loss_gets_an_honest_interval() {
    let report = json_of(&[
        "mc",
        "alphabeta",
        "--trials",
        "2000",
        "--seed",
        "1",
        "--format",
        "json",
    ]);
    let safe = rows_of(&report)
        .into_iter()
        .find(|r| r["quantity"] == "safe_loss_probability")
        .unwrap();
    assert_eq!(safe["estimate"].as_f64(), Some(0.0));
    assert_eq!(safe["estimate_lower"].as_f64(), Some(0.0));
    let upper = safe["estimate_upper"].as_f64().unwrap();
    assert!(
        (upper - (1.0 - 0.025f64.powf(1.0 / 2000.0))).abs() < 1e-12,
        "{upper}"
    );
    let text = stdout_of(&["mc", "alphabeta", "--trials", "2000", "--seed", "1"]);
    // Printed rounded outward: the upper end up.
    assert!(text.contains("[0.0000, 0.0019]"), "{text}");
}

/// Item 24: the count columns of `threshold` and `trend` say they count sign decisions.
#[test]
fn threshold_counts_are_labelled() {
    let text = stdout_of(&["threshold", "--height", "10", "--grid", "100"]);
    let header = text.lines().nth(2).unwrap();
    for label in [
        "points evaluated",
        "signs by theorem",
        "signs by f64",
        "signs by enclosures",
        "signs by double-double",
        "signs in exact",
        "signs undecided",
    ] {
        assert!(header.contains(label), "{label}: {header}");
    }
}

/// Item 25: the Monte Carlo limit can be raised for a long job on one machine; the refusal
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
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pathology"))
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

#[test]
fn reproduce_help_names_only() {
    pathology()
        .args(["reproduce", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--only <NAME>"));
}

/// Item 26: docs/figures.md shows every figure that plots/INDEX.md lists (it showed 12 of 32).
#[test]
fn the_figures_page_shows_every_figure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let index = std::fs::read_to_string(root.join("plots/INDEX.md")).unwrap();
    let page = std::fs::read_to_string(root.join("docs/figures.md")).unwrap();
    let pngs: Vec<&str> = index
        .lines()
        .filter_map(|l| l.strip_prefix("| ["))
        .filter_map(|l| l.split(']').next())
        .filter(|name| name.ends_with(".png"))
        .collect();
    assert!(pngs.len() >= 30, "{pngs:?}");
    for png in pngs {
        assert!(
            page.contains(&format!("(../plots/{png})")),
            "{png} is not on docs/figures.md"
        );
    }
}
