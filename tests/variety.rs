//! `pathology mc kalah | othello | nodes` (Chi & Nau's variety of games, Ross's node counts):
//! every format parses, the same seed gives the same bytes for any thread count, bad input
//! is refused naming the argument, and the counts are Ross's and the pinned ones.

use super::common::{csv_body, json_of, refused, rows_of, stdout_of};
use serde_json::Value;

const KALAH: &[&str] = &["mc", "kalah", "--boards", "12", "--seed", "3"];
const OTHELLO: &[&str] = &[
    "mc",
    "othello",
    "--openings",
    "3",
    "--depth",
    "1,2",
    "--seed",
    "3",
];
const NODES: &[&str] = &["mc", "nodes"];

fn with(args: &[&str], more: &[&str]) -> Vec<String> {
    args.iter().chain(more).map(|s| s.to_string()).collect()
}

fn out(args: &[&str], more: &[&str]) -> String {
    let all = with(args, more);
    stdout_of(&all.iter().map(String::as_str).collect::<Vec<_>>())
}

fn json(args: &[&str], more: &[&str]) -> Value {
    let all = with(args, &[more, &["--format", "json"]].concat());
    json_of(&all.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn every_command_prints_every_format_and_csv_and_json_parse() {
    for (args, first_table, numeric) in [
        (KALAH, "kalah", "rhf"),
        (OTHELLO, "othello", "minimax_share"),
        (NODES, "sequences", "fillings"),
    ] {
        for format in ["text", "markdown", "latex"] {
            let text = out(args, &["--format", format]);
            assert!(text.contains("pathology"), "{args:?} {format}: {text}");
        }
        let csv = out(args, &["--format", "csv"]);
        let body = csv_body(&csv).join("\n");
        let mut reader = csv::Reader::from_reader(body.as_bytes());
        let header = reader.headers().unwrap().clone();
        let column = header.iter().position(|h| h == numeric).unwrap();
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert!(!records.is_empty());
        for r in &records {
            r[column].parse::<f64>().unwrap();
        }
        let report = json(args, &[]);
        assert_eq!(report["tables"][0]["name"], first_table);
        assert!(!rows_of(&report).is_empty());
    }
}

#[test]
fn monte_carlo_reports_carry_seed_mode_and_the_papers_values() {
    let kalah = json(KALAH, &[]);
    assert_eq!(kalah["manifest"]["mode"], "monte-carlo");
    assert_eq!(kalah["manifest"]["seed"], "3");
    let rows = rows_of(&kalah);
    let paper: Vec<f64> = rows
        .iter()
        .map(|r| r["paper_rhf"].as_f64().unwrap())
        .collect();
    assert_eq!(paper, vec![0.135, 0.1115, 0.08, 0.0765]);
    let wins: Vec<f64> = rows
        .iter()
        .map(|r| r["paper_product_share"].as_f64().unwrap())
        .collect();
    assert_eq!(wins, vec![0.634, 0.555, 0.536, 0.512]);
    for r in &rows {
        assert_eq!(r["seed"], "3");
        let (low, est, high) = (
            r["rhf_lower"].as_f64().unwrap(),
            r["rhf"].as_f64().unwrap(),
            r["rhf_upper"].as_f64().unwrap(),
        );
        assert!(low <= est && est <= high);
        assert_eq!(r["pairs"], 24);
        assert_eq!(r["games"], 24);
    }
    let othello = json(OTHELLO, &[]);
    let paper: Vec<(String, f64)> = rows_of(&othello)
        .iter()
        .map(|r| {
            (
                r["evaluator"].as_str().unwrap().to_string(),
                r["paper_minimax_share"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(paper[0], ("weak".to_string(), 0.631));
    assert_eq!(paper[1], ("strong".to_string(), 0.828));
    assert_eq!(othello["manifest"]["parameters"]["depth"], "1,2");
}

#[test]
fn same_seed_same_bytes_for_any_thread_count() {
    for args in [KALAH, OTHELLO] {
        for format in ["csv", "json"] {
            let one = out(args, &["--format", format, "--threads", "1"]);
            let two = out(args, &["--format", format, "--threads", "2"]);
            assert_eq!(one, two, "{args:?} {format}");
        }
    }
    let other_seed = out(&KALAH[..4], &["--seed", "4", "--format", "csv"]);
    assert_ne!(other_seed, out(KALAH, &["--format", "csv"]));
}

/// Ross's 9! and the game's 255,168 complete games; the node counts of full-depth minimax
/// and alpha-beta in both move orders (pinned in `search::node_counts`).
#[test]
fn nodes_are_rosss_counts() {
    let report = json(NODES, &[]);
    assert_eq!(report["manifest"]["mode"], "exact");
    let sequences = rows_of(&report);
    assert_eq!(sequences[0]["board"], ".........");
    assert_eq!(sequences[0]["fillings"], 362_880);
    assert_eq!(sequences[0]["paper_fillings"], 362_880);
    assert_eq!(sequences[0]["complete_games"], 255_168);
    assert_eq!(sequences[0]["tree_nodes"], 549_946);
    assert_eq!(sequences[0]["fillings_tree_nodes"], 986_410);
    assert_eq!(sequences[1]["fillings"], 40_320);
    let searches = report["tables"][1]["rows"].as_array().unwrap();
    let got: Vec<(&str, &str, u64, u64)> = searches
        .iter()
        .map(|r| {
            (
                r["board"].as_str().unwrap(),
                r["order"].as_str().unwrap(),
                r["minimax_nodes"].as_u64().unwrap(),
                r["alphabeta_nodes"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (".........", "0,1,2,3,4,5,6,7,8", 549_946, 18_297),
            (".........", "4,0,2,6,8,1,3,5,7", 549_946, 7_275),
            ("........O", "0,1,2,3,4,5,6,7,8", 59_705, 3_957),
            ("........O", "4,0,2,6,8,1,3,5,7", 59_705, 1_702),
        ]
    );
    for r in searches {
        assert_eq!(r["paper_reduction"], 0.85);
    }
    let one = json(NODES, &["--board", "X...O...."]);
    assert_eq!(rows_of(&one).len(), 1);
}

/// The CLI gives the library's pinned reference runs (`mc::kalah` and `mc::othello` tests).
#[test]
fn pinned_reference_runs() {
    let kalah = json(&["mc", "kalah", "--boards", "50", "--seed", "1"], &[]);
    let got: Vec<(u64, u64, u64, u64)> = rows_of(&kalah)
        .iter()
        .map(|r| {
            (
                r["flaws"].as_u64().unwrap(),
                r["product_wins"].as_u64().unwrap(),
                r["minimax_wins"].as_u64().unwrap(),
                r["draws"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (21, 52, 45, 3),
            (18, 43, 52, 5),
            (20, 50, 43, 7),
            (19, 46, 45, 9)
        ]
    );
    let othello = json(
        &[
            "mc",
            "othello",
            "--openings",
            "10",
            "--depth",
            "2",
            "--seed",
            "1",
        ],
        &[],
    );
    let got: Vec<(u64, u64, u64, u64)> = rows_of(&othello)
        .iter()
        .map(|r| {
            (
                r["minimax_wins"].as_u64().unwrap(),
                r["product_wins"].as_u64().unwrap(),
                r["draws"].as_u64().unwrap(),
                r["positions"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, vec![(5, 15, 0, 54_436), (8, 12, 0, 83_371)]);
}

#[test]
fn bad_input_is_refused_naming_the_argument() {
    let kalah = |more: &[&str]| with(&["mc", "kalah", "--boards", "2"], more);
    for (args, name) in [
        (kalah(&["--w", "1.5"]), "--w"),
        (kalah(&["--w", "-0.1"]), "--w"),
        (kalah(&["--w", "abc"]), "--w"),
        (kalah(&["--depth", "0"]), "--depth"),
        (kalah(&["--search-depth", "0"]), "--search-depth"),
        (kalah(&["--search-depth", "9"]), "--search-depth"),
        (with(&["mc", "kalah", "--boards", "0"], &[]), "--boards"),
        (
            with(&["mc", "kalah", "--boards", "99999999999999999999"], &[]),
            "--boards",
        ),
        (
            with(&["mc", "othello", "--openings", "2", "--depth", "0"], &[]),
            "--depth",
        ),
        (
            with(&["mc", "othello", "--openings", "2", "--depth", "6"], &[]),
            "--depth",
        ),
        (
            with(&["mc", "othello", "--openings", "2", "--depth", "2,2"], &[]),
            "--depth",
        ),
        (
            with(
                &["mc", "othello", "--openings", "2", "--opening-plies", "30"],
                &[],
            ),
            "--opening-plies",
        ),
        (
            with(&["mc", "othello", "--openings", "0"], &[]),
            "--openings",
        ),
        (with(&["mc", "nodes", "--board", "XX"], &[]), "--board"),
        (
            with(&["mc", "nodes", "--board", "XXX......"], &[]),
            "--board",
        ),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, &[name]);
    }
}

/// Huge runs are refused up front (exit 2), with the estimated cost, before any work.
#[test]
fn huge_runs_are_refused_with_an_estimate() {
    refused(
        &["mc", "kalah", "--boards", "1000000000000"],
        &["--boards", "would need", "refused"],
    );
    refused(
        &["mc", "othello", "--openings", "100000000", "--depth", "5"],
        &["--openings", "would need", "refused"],
    );
}
