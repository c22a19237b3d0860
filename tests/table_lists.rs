//! The commands that check `--table` before they run (so a wrong name is refused at once, not
//! after minutes) keep their list of names by hand; each list must be the tables the command's
//! report really has, in order. For each such command, a tiny run's JSON names its tables and
//! the refusal of `--table bogus` names the list; and every command that takes `--table`
//! refuses a wrong one before its (long) work.

use crate::common::pathology;
use predicates::prelude::*;
use std::path::Path;
use std::time::Duration;

fn tables_of(args: &[&str], dir: &std::path::Path) -> Vec<String> {
    let out = pathology()
        .args(args)
        .args(["--format", "json"])
        .current_dir(dir)
        .output()
        .unwrap();
    // `validate` exits non-zero when rows are malformed, and still prints its report.
    assert!(
        out.status.success() || (args[0] == "validate" && !out.stdout.is_empty()),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

fn listed(args: &[&str], dir: &std::path::Path) -> Vec<String> {
    let out = pathology()
        .args(args)
        .args(["--table", "bogus"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let at = err
        .find("--table must be one of ")
        .unwrap_or_else(|| panic!("{args:?}: {err}"));
    let rest = &err[at + "--table must be one of ".len()..];
    let end = rest.find(", got").unwrap();
    rest[..end].split(", ").map(str::to_string).collect()
}

#[test]
fn every_static_table_list_is_the_report_s_tables() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.csv");
    std::fs::write(
        &input,
        "kind,h,d,f1,f2,estimate,trials\ndgame,4,1,0.1,0.1,0.9,100\ndgame,4,x,0.1,0.1,0.9,100\n",
    )
    .unwrap();
    let input = input.to_str().unwrap().to_string();
    let commands: Vec<Vec<&str>> = vec![
        vec!["mc", "kalah", "--boards", "2"],
        vec!["mc", "othello", "--openings", "1", "--depth", "1"],
        vec!["mc", "nodes"],
        vec!["mc", "ballard", "--trials", "4"],
        vec!["mc", "kalah-gap", "--boards", "2", "--variant", "default"],
        vec!["mc", "match-sweep", "--pairs", "4"],
        vec!["mc", "match-table", "--pairs", "4"],
        vec![
            "mc",
            "uct",
            "--height",
            "4",
            "--games",
            "2",
            "--iterations",
            "1,2",
        ],
        vec!["domain", "eight-puzzle", "--depth", "1"],
        vec!["validate", &input],
        vec!["trend", "--from", "4", "--to", "4", "--out", "."],
    ];
    for args in &commands {
        assert_eq!(
            listed(args, dir.path()),
            tables_of(args, dir.path()),
            "{args:?}: the --table list is not the report's tables"
        );
    }
}

/// Every subcommand path (`["mc", "ggame"]`) whose command takes `--table`.
fn commands_with_table(command: &clap::Command, path: Vec<String>, out: &mut Vec<Vec<String>>) {
    if command
        .get_arguments()
        .any(|a| a.get_long() == Some("table"))
    {
        out.push(path.clone());
    }
    for sub in command.get_subcommands() {
        let mut p = path.clone();
        p.push(sub.get_name().to_string());
        commands_with_table(sub, p, out);
    }
}

/// A run of each command that takes minutes (or most of the analytic minute) but is within
/// the cost limits, so only a `--table` checked after the work would let it start.
fn long_runs(dir: &Path) -> Vec<Vec<String>> {
    let out = dir.to_str().unwrap();
    let rows = dir.join("rows.csv");
    std::fs::write(
        &rows,
        "kind,height,depth,gamma,evaluator,sigma,levels,estimate,trials\n\
         crit,6,2,1,gaussian,0.5,1048576,0.99,100\n",
    )
    .unwrap();
    let shard = |k: u32| {
        let file = dir.join(format!("shard{k}.json"));
        let text = pathology()
            .args(["mc", "dgame", "--height", "4", "--f1", "0.1", "--f2", "0.1"])
            .args(["--trials", "20", "--format", "json", "--shard"])
            .arg(format!("{k}/2"))
            .output()
            .unwrap()
            .stdout;
        std::fs::write(&file, text).unwrap();
        file.to_str().unwrap().to_string()
    };
    let runs: Vec<Vec<&str>> = vec![
        vec![
            "decision", "--game", "p", "--height", "16", "--exact", "--p", "1/3",
        ],
        vec!["table", "1", "--exact"],
        vec!["dgame", "--f1", "0.1", "--f2", "0.1", "--height", "16"],
        vec![
            "exact", "--game", "p", "--height", "16", "--exact", "--p", "1/3",
        ],
        vec![
            "sweep", "--height", "12", "--from", "0", "--to", "1", "--step", "0.01", "--exact",
        ],
        vec!["threshold", "--height", "20", "--grid", "100"],
        vec!["trend", "--from", "10", "--to", "17", "--out", out],
        vec!["validate", rows.to_str().unwrap()],
        vec![
            "errprop", "--gamma", "0.1", "--delta", "0.1", "--f", "0.5", "--steps", "100000",
        ],
        vec!["errprop", "thresholds", "--gamma", "0.1", "--delta", "0.1"],
        vec!["errprop", "fixed-points", "--f1", "0.3", "--f2", "0.3"],
        vec!["errprop", "critical-f", "--gamma", "0.1", "--delta", "0.1"],
        vec!["rhf", "--w", "0.5"],
        vec!["wb", "--branching", "2"],
        vec!["emm", "example"],
        vec!["emm", "depth-one", "--e", "0.1"],
        vec![
            "mc", "dgame", "--height", "20", "--f1", "0.1", "--f2", "0.1", "--trials", "500000",
        ],
        vec![
            "mc",
            "alphabeta",
            "--depth",
            "6",
            "--branching",
            "8",
            "--trials",
            "100000",
        ],
        vec![
            "mc", "errprop", "--gamma", "0.1", "--delta", "0.1", "--f1", "0.3", "--f2", "0.3",
            "--steps", "8", "--trials", "4000000",
        ],
        vec![
            "mc", "rhf", "--w", "0.5", "--height", "20", "--depth", "4", "--trials", "4000000",
        ],
        vec!["mc", "match", "--pairs", "500000000", "--evaluator", "e1"],
        vec!["mc", "match-sweep", "--pairs", "1000000", "--out", out],
        vec!["mc", "match-table", "--pairs", "1000000"],
        vec!["mc", "emm", "--games", "10000000"],
        vec!["mc", "emm-calibrate", "--games", "10000000"],
        vec!["mc", "emm-figures", "--games", "50000", "--out", out],
        vec!["mc", "kalah", "--boards", "100000"],
        vec!["mc", "othello", "--openings", "1000"],
        vec!["mc", "ggame", "--height", "20", "--trials", "4000000"],
        vec!["mc", "ballard", "--trials", "1000000"],
        vec!["mc", "kalah-gap", "--boards", "100000"],
        vec!["mc", "nodes"],
        vec![
            "mc",
            "distributions",
            "--game",
            "crit",
            "--gamma",
            "0.5",
            "--height",
            "12",
            "--trials",
            "3000000",
        ],
        vec!["mc", "sum", "--height", "12", "--trials", "3000000"],
        vec!["mc", "uct", "--games", "100000"],
        vec!["domain", "krk", "--depth", "1..8"],
        vec!["domain", "kqk", "--depth", "1..8"],
        vec!["domain", "eight-puzzle", "--depth", "1..20"],
        vec!["alphabeta", "--board", "........."],
        vec![
            "inference",
            "pass-at-k",
            "--tasks",
            "0.5",
            "--k",
            "1..1000",
            "--exact",
        ],
        vec![
            "inference",
            "resample",
            "--tasks",
            "0.5",
            "--completeness",
            "1",
            "--soundness",
            "0.5",
            "--k",
            "1..1000",
            "--exact",
        ],
        vec![
            "inference",
            "best-of-n",
            "--tasks",
            "0.6",
            "--score-correct",
            "gaussian:1",
            "--score-wrong",
            "gaussian:2",
            "--n",
            "1..1000",
            "--exact",
        ],
        vec![
            "inference",
            "vote",
            "--tasks",
            "0.5",
            "--wrong-answers",
            "1/3,1/3,1/3",
            "--k",
            "1..101",
            "--exact",
        ],
        vec![
            "inference",
            "lookahead",
            "--branching",
            "4",
            "--steps",
            "10",
            "--step-correct",
            "0.6",
            "--noise",
            "binomial:8",
            "--depth",
            "1..6",
            "--exact",
        ],
        // The same strategies simulated: millions of trials, each of hundreds of draws.
        vec![
            "mc",
            "inference",
            "pass-at-k",
            "--tasks",
            "0.01",
            "--k",
            "1..1000",
            "--trials",
            "10000000",
        ],
        vec![
            "mc",
            "inference",
            "resample",
            "--tasks",
            "0.01",
            "--completeness",
            "1",
            "--soundness",
            "1",
            "--k",
            "1..1000",
            "--trials",
            "10000000",
        ],
        vec![
            "mc",
            "inference",
            "best-of-n",
            "--tasks",
            "0.6",
            "--score-correct",
            "gaussian:1",
            "--score-wrong",
            "gaussian:2",
            "--n",
            "1..1000",
            "--trials",
            "1000000",
        ],
        vec![
            "mc",
            "inference",
            "vote",
            "--tasks",
            "0.5",
            "--wrong-answers",
            "1",
            "--k",
            "1..1001",
            "--trials",
            "1000000",
        ],
        vec![
            "mc",
            "inference",
            "lookahead",
            "--branching",
            "4",
            "--steps",
            "10",
            "--step-correct",
            "0.6",
            "--noise",
            "gaussian:1",
            "--depth",
            "1..4",
            "--trials",
            "1000000",
        ],
        vec![
            "inference",
            "knockout",
            "--tasks",
            "0.6",
            "--judge-correct",
            "0.7",
            "--judge-calls",
            "1..15",
            "--rounds",
            "1..12",
            "--league",
            "2..10",
            "--exact",
        ],
        vec![
            "inference",
            "beam",
            "--branching",
            "4",
            "--steps",
            "20",
            "--step-correct",
            "0.7",
            "--noise",
            "binomial:8",
            "--growth",
            "1/4",
            "--beams",
            "1..8",
            "--exact",
        ],
        vec![
            "inference",
            "frontier",
            "--branching",
            "4",
            "--steps",
            "10",
            "--step-correct",
            "0.6",
            "--noise",
            "binomial:8",
            "--budgets",
            "1..4096:x2",
            "--exact",
        ],
        vec![
            "mc",
            "inference",
            "knockout",
            "--tasks",
            "0.6",
            "--judge-correct",
            "0.7",
            "--judge-calls",
            "3",
            "--rounds",
            "1..12",
            "--trials",
            "1000000",
        ],
        vec![
            "mc",
            "inference",
            "beam",
            "--branching",
            "4",
            "--steps",
            "10",
            "--step-correct",
            "0.6",
            "--noise",
            "gaussian:1",
            "--beams",
            "1..8",
            "--trials",
            "1000000",
        ],
    ];
    let mut runs: Vec<Vec<String>> = runs
        .into_iter()
        .map(|r| r.into_iter().map(str::to_string).collect())
        .collect();
    runs.push(vec!["merge".into(), shard(1), shard(2)]);
    // The example evaluation logs are small: the samples commands' runs are short, and their
    // refusal is checked all the same (the table is checked before the file is read).
    let data = |name: &str| {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/samples")
            .join(name)
            .to_string_lossy()
            .into_owned()
    };
    for run in [
        vec![
            "samples".into(),
            "curves".into(),
            data("votes.csv"),
            "--k".into(),
            "1..8".into(),
        ],
        vec![
            "samples".into(),
            "compare".into(),
            data("votes.csv"),
            data("votes_tuned.csv"),
            "--k".into(),
            "1..8".into(),
            "--replicates".into(),
            "100000".into(),
        ],
        vec![
            "samples".into(),
            "fit".into(),
            data("counts.csv"),
            "--k".into(),
            "1..8".into(),
        ],
        vec![
            "samples".into(),
            "beyond".into(),
            data("counts.csv"),
            "--k".into(),
            "1..100".into(),
            "--moments".into(),
            "2".into(),
        ],
        vec![
            "mc".into(),
            "samples".into(),
            data("votes.csv"),
            "--k".into(),
            "1..8".into(),
            "--trials".into(),
            "100000000".into(),
        ],
    ] {
        runs.push(run);
    }
    runs
}

/// Every command that takes `--table` refuses a wrong one before its work: exit 2,
/// the list of its tables named, nothing on standard output, within seconds although each
/// run below would take minutes.
#[test]
fn every_command_refuses_a_wrong_table_before_its_work() {
    let mut paths = Vec::new();
    commands_with_table(&pathology::cli::command(), Vec::new(), &mut paths);
    let dir = tempfile::tempdir().unwrap();
    let runs = long_runs(dir.path());
    for path in &paths {
        // A run of this command itself, not of one of its subcommands.
        let is_subcommand = |word: &String| {
            paths
                .iter()
                .any(|p| p.len() == path.len() + 1 && p.starts_with(path) && p[path.len()] == *word)
        };
        assert!(
            runs.iter()
                .any(|r| r.starts_with(path) && r.get(path.len()).is_none_or(|w| !is_subcommand(w))),
            "{path:?} takes --table but has no long run in this test"
        );
    }
    assert!(paths.len() >= 39, "only {} commands found", paths.len());
    for run in &runs {
        pathology()
            .args(run)
            .args(["--table", "bogus"])
            .current_dir(dir.path())
            .timeout(Duration::from_secs(20))
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains("--table must be one of "))
            .stderr(predicate::str::contains("got bogus"));
    }
}

/// The lists of tables checked up front are the tables the reports really have (tiny runs
/// of the commands that `every_static_table_list_is_the_report_s_tables` does not run).
#[test]
fn more_table_lists_are_the_reports_tables() {
    let dir = tempfile::tempdir().unwrap();
    let commands: Vec<Vec<&str>> = vec![
        vec!["decision", "--f1", "0.1", "--f2", "0.1", "--height", "4"],
        vec![
            "decision",
            "--f1",
            "0.1",
            "--f2",
            "0.1",
            "--height",
            "4",
            "--complement",
        ],
        vec![
            "decision", "--game", "crit", "--height", "4", "--gamma", "1/2",
        ],
        vec!["decision", "--game", "g", "--height", "4", "--rhf"],
        vec!["decision", "--game", "sum", "--height", "4"],
        vec!["exact", "--game", "p", "--height", "4"],
        vec!["dgame", "--f1", "0.1", "--f2", "0.1", "--height", "4"],
        vec![
            "mc", "dgame", "--height", "4", "--f1", "0.1", "--f2", "0.1", "--trials", "10",
        ],
        vec!["mc", "alphabeta", "--trials", "10"],
        vec![
            "mc", "errprop", "--gamma", "0.1", "--delta", "0.1", "--f1", "0.3", "--f2", "0.3",
            "--steps", "2", "--trials", "10",
        ],
        vec![
            "mc", "rhf", "--w", "0.5", "--height", "4", "--depth", "2", "--trials", "10",
        ],
        vec![
            "mc",
            "match",
            "--pairs",
            "2",
            "--evaluator",
            "e1",
            "--height",
            "4",
        ],
        vec!["mc", "emm", "--games", "2", "--height", "4"],
        vec!["mc", "ggame", "--height", "4", "--trials", "10"],
        vec!["mc", "ballard", "--trials", "4"],
        vec![
            "mc",
            "distributions",
            "--game",
            "crit",
            "--gamma",
            "0.5",
            "--height",
            "4",
            "--trials",
            "10",
        ],
        vec!["mc", "sum", "--height", "4", "--trials", "10"],
        vec![
            "inference",
            "frontier",
            "--branching",
            "2",
            "--steps",
            "2",
            "--step-correct",
            "0.5",
            "--noise",
            "0",
            "--budgets",
            "4,8",
        ],
    ];
    for args in &commands {
        assert_eq!(
            listed(args, dir.path()),
            tables_of(args, dir.path()),
            "{args:?}"
        );
    }
}
