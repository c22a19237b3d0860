//! `pathology validate`: honest estimates pass, biased ones are flagged, bad files fail
//! clearly.

use super::common::pathology;
use predicates::prelude::*;
use std::io::Write;

fn write_temp(contents: &[u8]) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(contents).unwrap();
    file
}

fn validate_json(file: &tempfile::NamedTempFile) -> serde_json::Value {
    let output = pathology()
        .args([
            "validate",
            file.path().to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(
        matches!(output.status.code(), Some(0..=2)),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    // The common report shape, flattened back into the fields these tests read.
    let tables = doc["tables"].as_array().unwrap();
    let checked = tables.iter().find(|t| t["name"] == "checked").unwrap();
    let malformed = tables
        .iter()
        .find(|t| t["name"] == "malformed")
        .map_or(Vec::new(), |t| t["rows"].as_array().unwrap().clone());
    let rows = checked["rows"].as_array().unwrap();
    let disagree_holm = rows
        .iter()
        .filter(|r| r["holm_verdict"] == "disagrees")
        .count();
    // The exit status says the same: 2 for malformed rows, 1 for disagreement, else 0.
    let expected = if !malformed.is_empty() {
        2
    } else if disagree_holm > 0 {
        1
    } else {
        0
    };
    assert_eq!(output.status.code(), Some(expected));
    serde_json::json!({
        "rows": rows,
        "checked": rows.len(),
        "errors": malformed,
        "malformed": malformed.len(),
        "disagree_holm": disagree_holm,
        "manifest": doc["manifest"],
    })
}

#[test]
fn honest_mc_estimates_pass_and_a_five_sigma_bias_is_flagged() {
    // Honest rows from the tool's own Monte Carlo.
    let mc = pathology()
        .args([
            "mc", "dgame", "--height", "8", "--f1", "0.2", "--f2", "0.4", "--trials", "4000",
            "--seed", "11", "--format", "json",
        ])
        .output()
        .unwrap();
    assert!(mc.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&mc.stdout).unwrap();
    let mut csv = String::from("kind,h,d,f1,f2,estimate,trials\n");
    let mc_rows = doc["tables"][0]["rows"].as_array().unwrap();
    for row in mc_rows {
        csv.push_str(&format!(
            "dgame,8,{},0.2,0.4,{},4000\n",
            row["d"], row["estimate"]
        ));
    }
    // A biased row: 5 standard errors above the exact D(1,8), rounded to a whole number of
    // successes (an estimate impossible for its trial count is a malformed row).
    let exact = mc_rows[0]["exact"].as_f64().unwrap();
    let successes = ((exact + 5.0 * (exact * (1.0 - exact) / 4000.0).sqrt()) * 4000.0).round();
    let biased = successes / 4000.0;
    let expected_z = (biased - exact) / (exact * (1.0 - exact) / 4000.0).sqrt();
    assert!((expected_z - 5.0).abs() < 0.1, "{expected_z}");
    csv.push_str(&format!("dgame,8,1,0.2,0.4,{biased},4000\n"));
    let report = validate_json(&write_temp(csv.as_bytes()));
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    for row in &rows[..8] {
        assert_eq!(row["holm_verdict"], "agrees", "{row}");
    }
    assert_eq!(rows[8]["holm_verdict"], "disagrees");
    assert!((rows[8]["z"].as_f64().unwrap() - expected_z).abs() < 1e-6);
    assert_eq!(report["disagree_holm"], 1);
}

#[test]
fn malformed_rows_get_line_numbers_and_the_rest_is_checked() {
    let file = write_temp(
        b"kind,h,d,f1,f2,estimate,trials\n\
          dgame,10,1,0.1,0.1,0.607,1000\n\
          dgame,10,1,0.1,0.1,zero,1000\n\
          tictactoe,10,1,0.1,0.1,0.5,1000\n\
          dgame,10,1,0.1,0.1,0.6,-3\n",
    );
    let report = validate_json(&file);
    assert_eq!(report["checked"], 1);
    let errors = report["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 3);
    assert_eq!(errors[0]["line"], 3);
    assert!(errors[0]["reason"].as_str().unwrap().contains("estimate"));
    assert!(
        errors[1]["reason"]
            .as_str()
            .unwrap()
            .contains("unknown kind 'tictactoe'")
    );
    assert!(errors[2]["reason"].as_str().unwrap().contains("trials"));
}

#[test]
fn bad_files_fail_clearly() {
    let refused = |contents: &[u8], mention: &str| {
        let file = write_temp(contents);
        pathology()
            .args(["validate", file.path().to_str().unwrap()])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(mention))
            .stderr(predicate::str::contains("panicked").not());
    };
    refused(b"", "empty file");
    refused(
        b"kind,h,d,f1,f2,trials\ndgame,10,1,0.1,0.1,100\n",
        "'estimate' column",
    );
    refused(b"\xff\xfe\x00garbage\n", "input");
    pathology()
        .args(["validate", "/nonexistent/results.csv"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("FILE"));
}

#[test]
fn a_100_mb_file_is_refused_without_reading_it_into_memory() {
    // 100 MB on one line: refused at the first overlong line.
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(b"kind,estimate,trials\n").unwrap();
    let chunk = vec![b'7'; 1 << 20];
    for _ in 0..100 {
        file.write_all(&chunk).unwrap();
    }
    file.flush().unwrap();
    pathology()
        .args(["validate", file.path().to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "line 2 is longer than 65536 bytes",
        ));
}

#[test]
fn the_example_input_flags_exactly_its_biased_row() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/validate_input.csv");
    let output = pathology()
        .args(["validate", path, "--format", "json"])
        .output()
        .unwrap();
    // Exit status 1: a row disagrees.
    assert_eq!(output.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let report = serde_json::json!({
        "rows": doc["tables"][0]["rows"],
        "malformed": doc["tables"].as_array().unwrap().len() - 1,
    });
    let flagged: Vec<u64> = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["holm_verdict"] == "disagrees")
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(report["malformed"], 0);
    assert_eq!(flagged.len(), 1, "{report}");
}
