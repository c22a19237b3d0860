//! The commands that check `--table` before they run (so a wrong name is refused at once, not
//! after minutes) keep their list of names by hand; each list must be the tables the command's
//! report really has, in order. For each such command, a tiny run's JSON names its tables and
//! the refusal of `--table bogus` names the list.

use crate::common::pathology;

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
