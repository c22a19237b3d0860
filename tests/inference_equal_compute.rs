//! The equal-compute study of `reproduce`: its step writes the report, the claims and three
//! figures, every claim is decided, and a file regenerates alone byte for byte.

use crate::common::stdout_of;

/// `reproduce --steps` of the study writes its text and CSV reports and three figures in PNG
/// and SVG; the claims summary decides every claim (no undecided exact claim); `--only`
/// regenerates the CSV alone, byte for byte.
#[test]
fn the_equal_compute_step_writes_its_report_claims_and_figures() {
    let step = pathology::reproduce::ARTEFACTS
        .iter()
        .position(|a| a.writes("inference_equal_compute.txt"))
        .expect("a step writes inference_equal_compute.txt")
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
    for stem in ["beam", "lookahead", "knockout"] {
        for ext in ["png", "svg"] {
            let name = format!("inference_equal_compute_{stem}.{ext}");
            assert!(whole.join(&name).exists(), "{name} missing: {printed}");
        }
    }
    let text = std::fs::read_to_string(whole.join("inference_equal_compute.txt")).unwrap();
    for table in [
        "Beam search with a PRM against best-of-N",
        "Depth-d lookahead against best-of-N",
        "Knockout brackets of N = 2^r candidates",
        "Claims: each with its effect",
    ] {
        assert!(text.contains(table), "{table}");
    }
    // Ten families, each with every claim decided: the undecided and not-testable columns
    // are 0 and holds + fails is the family's size.
    let summary: Vec<Vec<u64>> = printed
        .lines()
        .filter(|l| l.contains("beam search") || l.contains("lookahead") || l.contains("knockout"))
        .filter_map(|l| {
            let numbers: Vec<u64> = l
                .split_whitespace()
                .rev()
                .take(4)
                .map_while(|t| t.parse().ok())
                .collect();
            (numbers.len() == 4).then_some(numbers)
        })
        .collect();
    assert_eq!(summary.len(), 10, "{printed}");
    for numbers in &summary {
        assert_eq!(&numbers[..2], [0, 0], "{printed}");
        assert!(numbers[2] + numbers[3] > 0);
    }
    let only = dir.path().join("only");
    stdout_of(&[
        "reproduce",
        "--only",
        "inference_equal_compute.csv",
        "--out",
        only.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(only.join("inference_equal_compute.csv")).unwrap(),
        std::fs::read(whole.join("inference_equal_compute.csv")).unwrap()
    );
}
