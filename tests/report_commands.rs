//! Every command converted to the report layer (errprop and its subcommands, rhf, wb, emm,
//! alphabeta) in every format: the manifest names the version, CSV parses with a header and
//! numeric columns, JSON has the common shape; Markdown and LaTeX snapshots.

use super::common::stdout_of;
use serde_json::Value;

const FORMATS: [&str; 5] = ["text", "csv", "json", "markdown", "latex"];

/// The commands, with one numeric column each that their CSV must hold.
const COMMANDS: &[(&[&str], &str)] = &[
    (
        &[
            "errprop", "--gamma", "0.3", "--delta", "0.2", "--f", "0.7,0.8", "--steps", "3",
        ],
        "gamma",
    ),
    (
        &[
            "errprop", "--gamma", "0.3", "--delta", "0.2", "--f", "0.7", "--steps", "2", "--exact",
        ],
        "gamma",
    ),
    (
        &[
            "errprop",
            "--gamma",
            "0.3",
            "--delta",
            "0.2",
            "--f",
            "0.2,0.9",
            "--long-run",
        ],
        "delta",
    ),
    (
        &[
            "errprop",
            "thresholds",
            "--gamma",
            "0.2",
            "--delta",
            "0.2",
            "--f1",
            "0.7",
            "--f2",
            "0.7",
        ],
        "F1",
    ),
    (
        &["errprop", "fixed-points", "--f1", "0.7", "--f2", "0.7"],
        "gamma",
    ),
    (
        &["errprop", "critical-f", "--gamma", "0.3", "--delta", "0.2"],
        "critical_f",
    ),
    (&["rhf", "--w", "0.2"], "rhf"),
    (&["rhf", "--w", "0.25", "--xi", "0.5", "--exact"], "rhf"),
    (&["wb", "--branching", "3"], "w_b"),
    (&["emm", "example"], "root_error"),
    (&["emm", "depth-one", "--e", "0.1"], "error"),
    (&["alphabeta", "--board", "........O"], "minimax"),
];

/// The output in `format`; CSV with its manifest inline (`--manifest inline`, which the other
/// formats ignore: they always carry it), the CSV's plain layout is tests/csv_layout.rs's.
fn run(args: &[&str], format: &str) -> String {
    stdout_of(&[args, &["--format", format, "--manifest", "inline"]].concat())
}

#[test]
fn every_converted_command_prints_every_format_with_the_manifest() {
    let version = env!("CARGO_PKG_VERSION");
    for (args, numeric) in COMMANDS {
        for format in FORMATS {
            let out = run(args, format);
            assert!(
                out.contains(&format!("pathology {version}"))
                    || out.contains(&format!("\"version\": \"{version}\"")),
                "{args:?} {format}: no version in\n{out}"
            );
            assert!(out.contains("commit"), "{args:?} {format}: no commit");
        }
        // CSV: the comments, then a header and rows whose numeric column parses.
        let csv = run(args, "csv");
        let body: String = csv
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        let mut reader = csv::Reader::from_reader(body.as_bytes());
        let header = reader.headers().unwrap().clone();
        let column = header
            .iter()
            .position(|h| h == *numeric)
            .unwrap_or_else(|| panic!("{args:?}: no column {numeric} in {header:?}"));
        let records: Vec<_> = reader.records().map(Result::unwrap).collect();
        assert!(!records.is_empty(), "{args:?}: CSV without rows");
        for record in &records {
            assert_eq!(record.len(), header.len());
            let field = &record[column];
            assert!(
                field.parse::<f64>().is_ok(),
                "{args:?}: {numeric} = {field:?}"
            );
        }
        // JSON: manifest, tables (name, columns, rows), notes.
        let v: Value = serde_json::from_str(&run(args, "json")).unwrap();
        assert_eq!(v["manifest"]["version"], version, "{args:?}");
        assert_eq!(v["manifest"]["tool"], "pathology");
        assert!(v["notes"].is_array());
        let tables = v["tables"].as_array().unwrap();
        assert!(!tables.is_empty());
        for table in tables {
            assert!(table["name"].is_string(), "{args:?}");
            assert!(!table["columns"].as_array().unwrap().is_empty());
            let rows = table["rows"].as_array().unwrap();
            assert!(!rows.is_empty(), "{args:?}: table {} empty", table["name"]);
            for row in rows {
                assert_eq!(
                    row.as_object().unwrap().len(),
                    table["columns"].as_array().unwrap().len()
                );
            }
        }
        assert!(
            tables[0]["rows"][0][*numeric].is_number(),
            "{args:?}: {numeric} not a number"
        );
    }
}

/// The output with its `commit:` line (which changes with every commit) replaced.
fn redacted(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("commit: ") {
            Some(i) => format!("{}commit: [commit]", &line[..i]),
            None => line.to_string(),
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn markdown_and_latex_match_snapshots() {
    let trajectory = [
        "errprop", "--gamma", "0.3", "--delta", "0.2", "--f", "0.7", "--steps", "3",
    ];
    let wb = ["wb", "--branching", "2"];
    for format in ["markdown", "latex"] {
        let out = redacted(&run(&trajectory, format));
        assert!(out.contains("commit: [commit]"), "{out}");
        insta::assert_snapshot!(format!("errprop_trajectory_{format}"), out);
        let out = redacted(&run(&wb, format));
        assert!(out.contains("commit: [commit]"), "{out}");
        insta::assert_snapshot!(format!("wb_2_{format}"), out);
    }
}

#[test]
fn printed_bounds_of_f64_trajectories_cover_the_exact_values() {
    let base = [
        "errprop", "--gamma", "0.3", "--delta", "0.2", "--f", "0.7,0.3", "--steps", "6",
    ];
    let float: Value = serde_json::from_str(&run(&base, "json")).unwrap();
    let exact: Value =
        serde_json::from_str(&run(&[&base[..], &["--exact"]].concat(), "json")).unwrap();
    let rows = |v: &Value| v["tables"][0]["rows"].as_array().unwrap().clone();
    let (float, exact) = (rows(&float), rows(&exact));
    assert_eq!(float.len(), 14);
    for (f, e) in float.iter().zip(&exact) {
        for key in ["gamma", "delta"] {
            let q = |s: &str| pathology::numeric::number::parse_rational(s).unwrap();
            let value = q(&f[key].to_string());
            let bound = q(&f[format!("{key}_error_bound")].to_string());
            let truth = q(e[format!("{key}_exact")].as_str().unwrap());
            let gap = if value > truth {
                &value - &truth
            } else {
                &truth - &value
            };
            assert!(gap <= bound, "{key}: |{value} - {truth}| > {bound}");
        }
    }
}
