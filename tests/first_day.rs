//! A researcher's first day. `reproduce` ends with one screen (what was written
//! where, the verdicts per claim family), not the full reports.

use crate::common::pathology;

#[test]
fn reproduce_ends_with_one_screen() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    let run = pathology()
        .args(["reproduce", "--steps", "7,8", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = String::from_utf8(run.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() < 60, "{} lines:\n{text}", lines.len());
    assert!(lines.iter().all(|l| l.chars().count() <= 200), "{text}");
    assert!(lines[0].contains("files written to"), "{text}");
    assert!(text.contains("INDEX.md"), "{text}");
    // Step 7's claims (the critical game, the phase diagram) and step 8's (UCT), per family.
    let claims = text
        .split("Claims of the papers")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    assert!(claims.contains("   7  gamma = 1: pathology"), "{claims}");
    assert!(claims.contains("   8  UCT falls with N"), "{claims}");
}
