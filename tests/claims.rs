//! The G-games and kalah-gap claims are decided by the one claims
//! layer (`report::claims`), run as a user would. Both fail on the old code: its `mc ggame`
//! claims table had columns `lower_rhf, higher_rhf, d, share_lower, share_higher, verdict`
//! with "unresolved" and a decided depth 1, and `mc kalah-gap` counted the paper's values
//! "reached" by its 95% intervals, with no claims table.

use crate::common::stdout_of;

/// `mc ggame`: depth 1 is not testable (both rules choose by the same static values), every
/// tested claim is Holm-corrected over the family, and the old verdict word is gone.
#[test]
fn ggame_claims_are_holm_corrected_and_depth_one_is_not_testable() {
    let csv = stdout_of(&[
        "mc", "ggame", "--height", "6", "--trials", "200", "--seed", "3", "--format", "csv",
        "--table", "claims",
    ]);
    let rows: Vec<&str> = csv.lines().filter(|l| l.contains("search depth")).collect();
    // Every ordered pair of evaluators at search depths 1..=5.
    assert!(!rows.is_empty() && rows.len().is_multiple_of(5), "{csv}");
    let depth_one: Vec<&&str> = rows
        .iter()
        .filter(|l| l.contains("search depth 1\""))
        .collect();
    assert_eq!(depth_one.len(), rows.len() / 5);
    for row in &rows {
        if row.contains("search depth 1\"") {
            assert!(row.contains("not testable here"), "{row}");
        } else {
            assert!(
                row.contains(&format!("Holm over {}", rows.len() - depth_one.len())),
                "{row}"
            );
        }
        assert!(!row.contains("unresolved"));
    }
}

/// `mc kalah-gap`: agreement with the paper is an equivalence test over one Holm family
/// (8 claims a reading), and the summary counts the claims' verdicts, not values "reached".
#[test]
fn kalah_gap_agreement_is_an_equivalence_test_over_one_family() {
    let csv = stdout_of(&[
        "mc",
        "kalah-gap",
        "--boards",
        "20",
        "--variant",
        "default,turns",
        "--format",
        "csv",
        "--table",
        "claims",
    ]);
    let rows: Vec<&str> = csv
        .lines()
        .filter(|l| l.contains("agrees with the paper"))
        .collect();
    assert_eq!(rows.len(), 16, "{csv}");
    assert!(rows.iter().all(|r| r.contains("equivalence within")));
    assert!(rows.iter().all(|r| r.contains("Holm over 16")));
    let summary = stdout_of(&[
        "mc",
        "kalah-gap",
        "--boards",
        "20",
        "--variant",
        "default",
        "--table",
        "summary",
    ]);
    assert!(
        summary.contains("rhf agrees") && !summary.contains("reached"),
        "{summary}"
    );
}
