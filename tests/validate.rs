//! `pathology validate`: honest estimates pass, biased ones are flagged, bad files fail
//! clearly, both column vocabularies are read, and its help and messages name what it reads.

use crate::common::{pathology, stdout_of, temp_file};
use predicates::prelude::*;
use serde_json::Value;
use std::io::Write;

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
    let report = validate_json(&temp_file(csv.as_bytes()));
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    for row in &rows[..8] {
        assert_eq!(row["holm_verdict"], "no difference detected", "{row}");
    }
    assert_eq!(rows[8]["holm_verdict"], "disagrees");
    assert!((rows[8]["z"].as_f64().unwrap() - expected_z).abs() < 1e-6);
    assert_eq!(report["disagree_holm"], 1);
}

#[test]
fn malformed_rows_get_line_numbers_and_the_rest_is_checked() {
    let file = temp_file(
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
        let file = temp_file(contents);
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

/// The exact D(d,h) that `pathology exact` prints for these arguments.
fn exact_value(args: &[&str]) -> f64 {
    let output = pathology()
        .args(["exact"])
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    doc["tables"][0]["rows"][0]["D"].as_f64().unwrap()
}

#[test]
fn p_n_and_bary_d_game_rows_are_checked_against_pathology_exact() {
    // Estimates at the exact value (rounded to whole counts of 100000) agree; one 6 standard
    // errors off disagrees; the exact column is the one `pathology exact` prints.
    let cases: [(&str, &str, Vec<&str>); 4] = [
        (
            "pgame,2,8,3,,,,,artificial,0.1",
            "p=w_2 evaluator=artificial e=0.1",
            vec![
                "--game",
                "p",
                "--height",
                "8",
                "--depth",
                "3",
                "--evaluator",
                "artificial",
                "--e",
                "0.1",
            ],
        ),
        (
            "pgame,3,6,2,1/2,,,,count,",
            "p=0.5 evaluator=count",
            vec![
                "--game",
                "p",
                "--branching",
                "3",
                "--p",
                "1/2",
                "--height",
                "6",
                "--depth",
                "2",
            ],
        ),
        (
            "ngame,3,6,4,,0.5,,,artificial,0.2",
            "q=0.5 evaluator=artificial e=0.2",
            vec![
                "--game",
                "n",
                "--branching",
                "3",
                "--height",
                "6",
                "--depth",
                "4",
                "--evaluator",
                "artificial",
                "--e",
                "0.2",
            ],
        ),
        (
            "bdgame,3,6,2,,,0.5;0.25;0.25,\"0.5,0.5\",count,",
            "qk=0.5;0.25;0.25 rk=0.5;0.5 evaluator=count",
            vec![
                "--game",
                "d",
                "--branching",
                "3",
                "--qk",
                "0.5,0.25,0.25",
                "--rk",
                "0.5,0.5",
                "--height",
                "6",
                "--depth",
                "2",
            ],
        ),
    ];
    let n = 100_000.0;
    let mut csv = String::from("kind,b,h,d,p,q,qk,rk,evaluator,e,estimate,trials\n");
    let mut exact = Vec::new();
    for (row, _, args) in &cases {
        let value = exact_value(args);
        csv.push_str(&format!("{row},{},100000\n", (value * n).round() / n));
        exact.push(value);
    }
    let (row, _, _) = &cases[0];
    let off = exact[0] + 6.0 * (exact[0] * (1.0 - exact[0]) / n).sqrt();
    csv.push_str(&format!("{row},{},100000\n", (off * n).round() / n));
    let report = validate_json(&temp_file(csv.as_bytes()));
    assert_eq!(report["malformed"], 0, "{report}");
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    for (i, (_, parameters, _)) in cases.iter().enumerate() {
        assert_eq!(rows[i]["exact"].as_f64().unwrap(), exact[i], "{}", rows[i]);
        assert!(
            rows[i]["parameters"]
                .as_str()
                .unwrap()
                .ends_with(parameters),
            "{}",
            rows[i]
        );
        assert_eq!(
            rows[i]["holm_verdict"], "no difference detected",
            "{}",
            rows[i]
        );
    }
    assert_eq!(rows[4]["holm_verdict"], "disagrees");
    assert!(rows[4]["z"].as_f64().unwrap() > 5.9);
}

#[test]
fn new_kind_rows_with_bad_parameters_are_malformed() {
    let file = temp_file(
        b"kind,b,h,d,p,q,qk,rk,evaluator,e,estimate,trials\n\
          pgame,2,8,1,,,,,count,0.1,0.9,1000\n\
          pgame,2,8,1,,,,,artificial,,0.9,1000\n\
          ngame,2,8,1,,,,,minimax,,0.9,1000\n\
          bdgame,3,6,2,,,0.5;0.25,0.5;0.5,count,,0.8,1000\n\
          pgame,1,8,1,,,,,count,,0.9,1000\n\
          ngame,2,8,1,0.5,,,,count,,0.9,1000\n",
    );
    let report = validate_json(&file);
    assert_eq!(report["checked"], 0);
    let reasons: Vec<&str> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons.len(), 6, "{reasons:?}");
    assert!(reasons[0].contains("evaluator is count"), "{}", reasons[0]);
    assert!(reasons[1].contains("'e'"), "{}", reasons[1]);
    assert!(reasons[2].contains("count or artificial"), "{}", reasons[2]);
    assert!(reasons[3].contains("summing to 1"), "{}", reasons[3]);
    assert!(
        reasons[4].contains("'b' must be in 2..=60"),
        "{}",
        reasons[4]
    );
    assert!(
        reasons[5].contains("'p' is not a parameter of kind 'ngame'"),
        "{}",
        reasons[5]
    );
}

#[test]
fn line_numbers_are_physical_lines_of_the_file() {
    // The example's rows are on lines 6-17 (four comment lines and the
    // header come first), and comment and blank lines after the header count too.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/validate_input.csv");
    let output = pathology()
        .args(["validate", path, "--format", "json"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let lines: Vec<u64> = doc["tables"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, (6..=17).collect::<Vec<u64>>());
    let file = temp_file(
        b"kind,h,d,f1,f2,estimate,trials\n\
          # a comment\n\
          \n\
          dgame,4,1,0.2,0.4,0.9,10\r\n\
          # another\n\
          dgame,4,1,0.2,0.4,0.95,10\n\
          dgame,4,\"1\n\",0.2,0.4,0.9,10\n\
          dgame,4,1,0.2,0.4,0.9,10",
    );
    let report = validate_json(&file);
    let lines: Vec<u64> = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, vec![4, 7, 9]);
    assert_eq!(report["errors"][0]["line"], 6);
}

#[test]
fn an_estimate_impossible_for_its_trials_is_malformed() {
    // 0.6 from 1 trial is no k/1; rounded printings of k/n are accepted
    // (1/3 as 0.3333 or 0.33; 2/3 as the shortest f64) but 0.5 from 3 trials is not, and a
    // successes column must match.
    let file = temp_file(
        b"kind,h,d,f1,f2,estimate,trials\n\
          dgame,4,1,0.2,0.4,0.6,1\n\
          dgame,4,1,0.2,0.4,0.3333,3\n\
          dgame,4,1,0.2,0.4,0.33,3\n\
          dgame,4,1,0.2,0.4,0.6666666666666666,3\n\
          dgame,4,1,0.2,0.4,0.5,3\n\
          dgame,4,1,0.2,0.4,2/3,3\n\
          dgame,4,1,0.2,0.4,0.91,20000\n",
    );
    let report = validate_json(&file);
    let errors = report["errors"].as_array().unwrap();
    let lines: Vec<u64> = errors.iter().map(|e| e["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, vec![2, 6], "{errors:?}");
    let reason = errors[0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("estimate 0.6 is not k/1 for any whole k"),
        "{reason}"
    );
    assert_eq!(report["checked"], 5);
    let file = temp_file(
        b"kind,h,d,f1,f2,successes,estimate,trials\n\
          dgame,4,1,0.2,0.4,9,0.9,10\n\
          dgame,4,1,0.2,0.4,8,0.9,10\n",
    );
    let report = validate_json(&file);
    assert_eq!(report["checked"], 1);
    let reason = report["errors"][0]["reason"].as_str().unwrap();
    assert!(reason.contains("successes/trials = 8/10"), "{reason}");
}

#[test]
fn conflicting_and_unknown_fields_are_malformed() {
    // F2 with p0, xi with branching, a field beyond the header and a value
    // in a column the kind does not read.
    let file = temp_file(
        b"kind,h,d,f1,f2,p0,w,xi,branching,estimate,trials\n\
          dgame,4,1,0.2,0.4,0.5,,,,0.9,10\n\
          rhf,,,,,,0.2,0.3,3,0.1,10\n\
          dgame,4,1,0.2,0.4,,,,,0.9,10,surplus\n\
          dgame,4,1,0.2,0.4,,0.3,,,0.9,10\n\
          dgame,4,1,0.2,0.4,,,,,0.9,10\n",
    );
    let report = validate_json(&file);
    assert_eq!(report["checked"], 1);
    let reasons: Vec<&str> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["reason"].as_str().unwrap())
        .collect();
    assert!(
        reasons[0].contains("columns 'f2' and 'p0' are alternatives"),
        "{}",
        reasons[0]
    );
    assert!(
        reasons[1].contains("columns 'xi' and 'branching' are alternatives"),
        "{}",
        reasons[1]
    );
    assert!(
        reasons[2].contains("12 fields but the header has 11 columns"),
        "{}",
        reasons[2]
    );
    assert!(
        reasons[3].contains("column 'w' is not a parameter of kind 'dgame'"),
        "{}",
        reasons[3]
    );
}

#[test]
fn a_too_large_trials_value_names_the_range() {
    let file = temp_file(
        b"kind,h,d,f1,f2,estimate,trials\n\
          dgame,4,1,0.2,0.4,1,99999999999999999999\n",
    );
    let report = validate_json(&file);
    let reason = report["errors"][0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("column 'trials' must be in 1..=18446744073709551615"),
        "{reason}"
    );
}

#[test]
fn the_whole_file_cost_is_estimated_up_front() {
    // 40 rows at h = 24 with distinct parameters would take minutes; refused
    // at once with the estimate. The same 40 rows with one setting share one column.
    let mut distinct = String::from("kind,h,d,f1,f2,estimate,trials\n");
    let mut shared = distinct.clone();
    for i in 0..40 {
        distinct.push_str(&format!(
            "dgame,24,{},0.{},0.5,0.5,1000\n",
            i % 24 + 1,
            i + 10
        ));
        shared.push_str(&format!("dgame,18,{},0.3,0.5,0.5,1000\n", i % 18 + 1));
    }
    let file = temp_file(distinct.as_bytes());
    pathology()
        .args(["validate", file.path().to_str().unwrap()])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "validating 40 rows (40 distinct exact D(.,h) columns, each computed once) would need about",
        ))
        .stderr(predicate::str::contains("refused"));
    let report = validate_json(&temp_file(shared.as_bytes()));
    assert_eq!(report["checked"], 40);
}

#[test]
fn the_csv_of_pathology_mc_is_read_as_it_is() {
    for args in [
        &["dgame", "--height", "6", "--f1", "0.2", "--f2", "1/3"][..],
        &["rhf", "--w", "0.2", "--height", "6", "--depth", "2"],
        &[
            "errprop", "--gamma", "0.3", "--delta", "0.2", "--f1", "0.9", "--f2", "0.9", "--steps",
            "2",
        ],
    ] {
        let mc = pathology()
            .arg("mc")
            .args(args)
            .args(["--trials", "300", "--seed", "4", "--format", "csv"])
            .output()
            .unwrap();
        assert!(mc.status.success());
        let report = validate_json(&temp_file(&mc.stdout));
        assert_eq!(report["malformed"], 0, "{args:?}: {report}");
        assert!(report["checked"].as_u64().unwrap() >= 1);
    }
}

/// The malformed rows of `validate` for a CSV text: `(line, reason)`, from its JSON report.
fn malformed(csv: &str) -> Vec<(u64, String)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.csv");
    std::fs::write(&path, csv).unwrap();
    let output = pathology()
        .args(["validate", path.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    report["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "malformed")
        .unwrap()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["line"].as_u64().unwrap(),
                r["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// `validate`'s `crit` and `mvpgame` rows said "branching must be must be
/// a whole number in 2..=60, got 61, got 61" (also levels, sigma) and "evaluator must be
/// invalid variant: bogus" with no allowed list; each is said once, and the evaluator's
/// allowed values are listed.
#[test]
fn validate_distribution_rows_say_each_range_once() {
    let rows = malformed(
        "kind,height,depth,gamma,branching,levels,sigma,evaluator,estimate,trials\n\
         crit,4,1,0.9,61,,,,0.5,10\n\
         crit,4,1,0.9,2,0,,,0.5,10\n\
         crit,4,1,0.9,2,,-1,gaussian,0.5,10\n\
         crit,4,1,0.9,2,,,bogus,0.5,10\n",
    );
    let reasons: Vec<&str> = rows.iter().map(|(_, r)| r.as_str()).collect();
    assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), [2, 3, 4, 5]);
    for reason in &reasons {
        assert!(!reason.contains("must be must be"), "{reason}");
        assert_eq!(reason.matches(", got").count(), 1, "{reason}");
    }
    assert!(reasons[0].contains("branching must be a whole number in 2..=60, got 61"));
    assert!(reasons[1].contains("levels must be a whole number in 1..="));
    assert!(reasons[2].contains("sigma must be greater than 0, got -1"));
    assert!(
        reasons[3].contains("expected-playout") && reasons[3].contains("gaussian"),
        "{}",
        reasons[3]
    );
    assert!(!reasons[3].contains("invalid variant"), "{}", reasons[3]);
}

/// `validate --help` names the kinds `crit` and `mvpgame`.
#[test]
fn validate_help_names_every_kind() {
    let help = stdout_of(&["validate", "--help"]);
    for kind in [
        "dgame", "errprop", "rhf", "pgame", "ngame", "bdgame", "crit", "mvpgame",
    ] {
        assert!(
            help.contains(&format!("{kind} (")),
            "{kind} missing:\n{help}"
        );
    }
}

/// A quote left open is reported on the line where it opens (it was
/// reported on line 1, the header, or not at all when it ended the file), and the rows
/// before it are still checked.
#[test]
fn validate_reports_an_unclosed_quote_on_its_line() {
    let good = "dgame,10,1,0.1,0.1,0.61,10000\n";
    let header = "kind,h,d,f1,f2,estimate,trials\n";
    for (csv, line) in [
        (format!("{header}\"dgame,10,1,0.1,0.1,0.61,10000\n"), 2),
        (
            format!("{header}{good}dgame,10,1,\"0.1,0.1,0.61,10000\n{good}"),
            3,
        ),
        (
            format!("# comment\n{header}{good}dgame,10,1,0.1,0.1,0.61,\"10000\n"),
            4,
        ),
    ] {
        let rows = malformed(&csv);
        assert_eq!(rows.len(), 1, "{csv}: {rows:?}");
        assert_eq!(rows[0].0, line, "{csv}: {rows:?}");
        assert!(rows[0].1.contains("never closed"), "{rows:?}");
    }
}

/// `validate FILE --format json`: its exit code and the `checked` and `malformed` rows.
fn validated(csv: &str) -> (i32, Vec<Value>, Vec<Value>) {
    let file = temp_file(csv);
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

/// Every kind reads `h, d, b` and `height, depth, branching` alike, and
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
    let file = temp_file(counts);
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

/// The rows of `mc emm` are refused with a plain statement of what validate reads,
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
