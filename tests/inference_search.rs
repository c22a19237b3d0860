//! The test-time search study of `reproduce`: its step writes the report,
//! the claims and both figures, and a file regenerates alone byte for byte.

use crate::common::stdout_of;

/// `reproduce --steps` of the study writes its text and CSV reports and two figures in PNG
/// and SVG; the claims summary counts every claim decided (no undecided exact claim); `--only`
/// regenerates the CSV alone, byte for byte.
#[test]
fn the_study_step_writes_its_report_claims_and_figures() {
    let step = pathology::reproduce::ARTEFACTS
        .iter()
        .position(|a| a.writes("inference_search.txt"))
        .expect("a step writes inference_search.txt")
        + 1;
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let printed = stdout_of(&[
        "reproduce",
        "--steps",
        &step.to_string(),
        "--out",
        whole.to_str().unwrap(),
    ]);
    for name in [
        "inference_search.txt",
        "inference_search.csv",
        "inference_search_best_of_n.png",
        "inference_search_best_of_n.svg",
        "inference_search_lookahead.png",
        "inference_search_lookahead.svg",
    ] {
        assert!(whole.join(name).exists(), "{name} missing: {printed}");
    }
    let text = std::fs::read_to_string(whole.join("inference_search.txt")).unwrap();
    for table in [
        "The two boundaries in t",
        "Where deeper lookahead stops helping",
        "Claims: each with its effect",
    ] {
        assert!(text.contains(table), "{table}");
    }
    // Every claim of the summary is decided: the undecided column is 0 in each family row.
    let summary: Vec<&str> = printed
        .lines()
        .filter(|l| l.contains("best-of-n:") || l.contains("lookahead"))
        .filter(|l| {
            let tokens: Vec<&str> = l.split_whitespace().collect();
            tokens.len() >= 6
                && tokens[tokens.len() - 4..]
                    .iter()
                    .all(|t| t.parse::<u64>().is_ok())
        })
        .collect();
    assert_eq!(summary.len(), 8, "{printed}");
    for line in &summary {
        let numbers: Vec<&str> = line.split_whitespace().rev().take(2).collect();
        assert_eq!(numbers, ["0", "0"], "{line}");
    }
    let only = dir.path().join("only");
    stdout_of(&[
        "reproduce",
        "--only",
        "inference_search.csv",
        "--out",
        only.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(only.join("inference_search.csv")).unwrap(),
        std::fs::read(whole.join("inference_search.csv")).unwrap()
    );
}
