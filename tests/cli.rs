//! The command line: formats, snapshots, and bad input (exit 2, a message naming the
//! argument, no panic).

use crate::common::{csv_body, json_of, process, redact_commit, refused, stdout_of};
use num_rational::BigRational;
use pathology::numeric::number::parse_rational;
use std::process::Stdio;

#[test]
fn bad_dependence_factors_are_refused() {
    refused(
        &["dgame", "--height", "10", "--f1", "1.5", "--f2", "0.5"],
        &["--f1", "[0, 1]"],
    );
    refused(
        &["dgame", "--height", "10", "--f1", "NaN", "--f2", "0.5"],
        &["--f1", "[0, 1]"],
    );
    refused(
        &["dgame", "--height", "10", "--f1", "abc", "--f2", "0.5"],
        &["--f1", "abc"],
    );
    refused(
        &["dgame", "--height", "10", "--f1", "0.5", "--f2", "1/0"],
        &["--f2", "zero denominator"],
    );
    refused(
        &["dgame", "--height", "10", "--f1", "0.5", "--f2", "-0.1"],
        &["--f2", "[0, 1]"],
    );
}

#[test]
fn bad_heights_and_depths_are_refused() {
    refused(
        &["dgame", "--height", "0", "--f1", "0.5", "--f2", "0.5"],
        &["--height", "1..=40"],
    );
    refused(
        &["dgame", "--height", "41", "--f1", "0.5", "--f2", "0.5"],
        &["--height", "1..=40"],
    );
    refused(
        &[
            "dgame", "--height", "10", "--depth", "11", "--f1", "0.5", "--f2", "0.5",
        ],
        &["--depth", "1..=10"],
    );
    refused(
        &[
            "dgame", "--height", "10", "--depth", "0", "--f1", "0.5", "--f2", "0.5",
        ],
        &["--depth"],
    );
}

#[test]
fn exact_computations_beyond_a_minute_are_refused_with_an_estimate() {
    refused(
        &[
            "dgame", "--height", "20", "--f1", "0.1", "--f2", "0.1", "--exact",
        ],
        &["height 20 in exact mode", "would need about", "f64 mode"],
    );
    refused(
        &["dgame", "--height", "30", "--f1", "0.1", "--f2", "0.1"],
        &["height 30 in f64 mode"],
    );
}

#[test]
fn unknown_tables_and_bad_p0_are_refused() {
    refused(
        &["table", "3"],
        // The message names `table` itself.
        &[
            "<TABLE>",
            "`pathology table` takes a table number in 1..=2",
            "got 3",
        ],
    );
    refused(&["table", "1", "--format", "xml"], &["--format"]);
    refused(
        &["dgame", "--height", "10", "--f1", "0", "--p0", "0.9"],
        &["p0", "Theorem 3.1"],
    );
    refused(
        &[
            "sweep", "--height", "10", "--from", "0.5", "--to", "0.1", "--step", "0.1",
        ],
        &["--from", "at most --to"],
    );
    refused(
        &[
            "sweep", "--height", "10", "--from", "0", "--to", "1", "--step", "0",
        ],
        &["--step", "greater than 0"],
    );
    refused(&["threshold", "--height", "10", "--grid", "0"], &["--grid"]);
}

#[test]
fn dgame_one_depth_and_p0() {
    let text = stdout_of(&[
        "dgame", "--height", "10", "--f1", "0.1", "--f2", "0.1", "--depth", "1",
    ]);
    assert!(text.contains("0.608"), "{text}");
    assert!(!text.lines().any(|l| l.starts_with("2 ")), "{text}");
    let json = stdout_of(&[
        "dgame", "--height", "10", "--f1", "0.5", "--p0", "0.5", "--exact", "--format", "json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    // Theorem 3.1 at p0 = 1/2: f2 = (1 + f1)/(3 - f1) = 3/5.
    let cells = doc["tables"][0]["rows"].as_array().unwrap();
    assert_eq!(cells[0]["f2_exact"], "3/5");
    assert_eq!(cells.len(), 10);
    assert_eq!(cells[9]["D_exact"], "1/1");
}

#[test]
fn json_field_names_are_stable() {
    let doc: serde_json::Value =
        serde_json::from_str(&stdout_of(&["table", "2", "--format", "json"])).unwrap();
    assert_eq!(doc["tables"][0]["name"], "decisions");
    let cell = &doc["tables"][0]["rows"][0];
    for key in ["f1", "f2", "h", "d", "D", "D_error_bound"] {
        assert!(cell.get(key).is_some(), "rows[0] lacks {key}: {cell}");
    }
    assert!(cell.get("D_exact").is_none());
    assert!(cell["f1"].is_number());
    assert_eq!(doc["tables"][1]["name"], "ps");
    let ps = &doc["tables"][1]["rows"][3];
    for key in ["f1", "f2", "h", "PS"] {
        assert!(ps.get(key).is_some(), "ps[3] lacks {key}");
    }
    assert!((ps["PS"].as_f64().unwrap() - 0.035).abs() < 5e-4);
}

#[test]
fn sweep_tabulates_one_row_per_f1() {
    let csv = stdout_of(&[
        "sweep", "--height", "8", "--from", "0.1", "--to", "0.3", "--step", "0.1", "--format",
        "csv",
    ]);
    // 3 settings x 8 depths rows + header (PS is its own table: --table ps).
    assert_eq!(csv_body(&csv).len(), 1 + 3 * 8);
    let ps = stdout_of(&[
        "sweep", "--height", "8", "--from", "0.1", "--to", "0.3", "--step", "0.1", "--format",
        "csv", "--table", "ps",
    ]);
    assert_eq!(csv_body(&ps).len(), 1 + 3);
    let text = stdout_of(&[
        "sweep", "--height", "8", "--from", "0.2", "--to", "0.6", "--step", "0.2", "--p0", "0.5",
    ]);
    assert!(text.contains("Theorem 3.1"), "{text}");
}

#[test]
fn threshold_at_height_10_is_just_above_the_papers_0_57() {
    let doc: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "threshold",
        "--height",
        "10",
        "--grid",
        "200",
        "--tolerance",
        "1e-9",
        "--format",
        "json",
    ]))
    .unwrap();
    let row = &doc["tables"][0]["rows"][0];
    let estimate = row["f_star"].as_f64().unwrap();
    assert!(estimate > 0.57 && estimate < 0.58, "{doc}");
    assert!(row["f_star_upper"].as_f64().unwrap() - row["f_star_lower"].as_f64().unwrap() < 1e-9);
    assert_eq!(row["last_pairs"], "(7,8)");
    assert_eq!(row["undecided"], 0);
}

#[test]
fn threshold_at_height_16_certifies_every_pair() {
    // Before the relative enclosures of 1 - D, three pairs at f = 0.99 stayed undecided here.
    let doc = json_of(&[
        "threshold",
        "--height",
        "16",
        "--grid",
        "100",
        "--tolerance",
        "1e-6",
        "--format",
        "json",
    ]);
    let row = &doc["tables"][0]["rows"][0];
    assert_eq!(row["undecided"], 0, "{doc}");
    assert!(row["relative_decisions"].as_u64().unwrap() > 0, "{doc}");
    assert_eq!(
        doc["tables"].as_array().unwrap().len(),
        1,
        "no table of undecided points"
    );
    let estimate = row["f_star"].as_f64().unwrap();
    assert!((estimate - 0.6571608).abs() < 1e-6, "{doc}");
}

#[test]
fn dgame_complement_encloses_the_exact_error_probability() {
    let exact = json_of(&[
        "dgame", "--height", "9", "--f1", "0.9", "--f2", "0.8", "--exact", "--format", "json",
    ]);
    let enclosed = json_of(&[
        "dgame",
        "--height",
        "9",
        "--f1",
        "0.9",
        "--f2",
        "0.8",
        "--complement",
        "--format",
        "json",
    ]);
    let cells = enclosed["tables"][0]["rows"].as_array().unwrap();
    assert_eq!(cells.len(), 9);
    for (e, x) in cells
        .iter()
        .zip(exact["tables"][0]["rows"].as_array().unwrap())
    {
        let d = parse_rational(x["D_exact"].as_str().unwrap()).unwrap();
        let complement = BigRational::from_integer(1.into()) - d;
        let lower = BigRational::from_float(e["complement_lower"].as_f64().unwrap()).unwrap();
        let upper = BigRational::from_float(e["complement_upper"].as_f64().unwrap()).unwrap();
        assert!(lower <= complement && complement <= upper, "{e}");
    }
    // Text: the bounds are printed rounded outward.
    let text = stdout_of(&[
        "dgame",
        "--height",
        "12",
        "--f1",
        "0.99",
        "--f2",
        "0.99",
        "--complement",
        "--depth",
        "3",
    ]);
    assert!(
        text.contains("[4.659408566e-10, 4.659408567e-10]"),
        "{text}"
    );
    refused(
        &[
            "dgame",
            "--height",
            "9",
            "--f1",
            "0.9",
            "--f2",
            "0.8",
            "--complement",
            "--exact",
        ],
        &["--exact"],
    );
    refused(
        &[
            "dgame",
            "--height",
            "24",
            "--f1",
            "0.9",
            "--f2",
            "0.8",
            "--complement",
        ],
        &["1 - D(1,24)", "would need"],
    );
}

#[test]
fn closed_pipe_is_not_an_error() {
    // `pathology table 1 --exact | head -c 1`: the reader goes away early.
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' table 1 --exact | head -c 1 >/dev/null; echo ${{PIPESTATUS[0]:-0}}",
            env!("CARGO_BIN_EXE_pathology")
        ))
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
}

#[test]
fn table_formats_match_snapshots() {
    for format in ["text", "markdown", "latex", "csv"] {
        let out = stdout_of(&["table", "1", "--format", format]);
        insta::assert_snapshot!(format!("table1_{format}"), redact_commit(&out));
    }
    let out = stdout_of(&[
        "dgame", "--height", "4", "--f1", "1/3", "--f2", "0.5", "--exact", "--format", "json",
    ]);
    insta::assert_snapshot!("dgame_h4_exact_json", redact_commit(&out));
}

/// "Unclear": help or version output that cannot be written (`> /dev/full`) exits non-zero
/// with a message; a closed pipe (`| head -1`) stays a success.
#[cfg(target_os = "linux")]
#[test]
fn unwritable_help_is_an_error() {
    for flag in ["--help", "--version"] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = process().arg(flag).stdout(full).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{flag}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("standard output"),
            "{flag}"
        );
    }
    let mut child = process()
        .arg("--help")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away at once
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// The count columns of `threshold` and `trend` say they count sign decisions.
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
