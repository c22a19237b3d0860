//! Every CSV the tool writes is plain (a header row, then rows of as many
//! fields, no `#` comment lines), so that `pandas.read_csv(path)` and `polars.read_csv(path)`
//! load it with default arguments (python/tests/test_csv_layout.py reads them so); the
//! manifest goes into `NAME.csv.manifest.json` beside a CSV file (or into `--manifest FILE`,
//! or `#` lines with `--manifest inline`), and `merge` reads it from there.

use super::common::{pathology, refused, stdout_of};
use serde_json::Value;
use std::path::Path;

/// Checks that `text` is plain CSV: no comment line, a header of distinct non-empty names,
/// every row as many fields as the header. Returns (columns, rows).
pub fn check_plain(name: &str, text: &str) -> (usize, usize) {
    assert!(!text.is_empty(), "{name}: empty");
    for (i, line) in text.lines().enumerate() {
        assert!(
            !line.starts_with('#'),
            "{name} line {}: a comment line: {line}",
            i + 1
        );
    }
    let mut reader = csv::ReaderBuilder::new()
        .flexible(false)
        .from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    assert!(!header.is_empty(), "{name}: no header");
    for (i, field) in header.iter().enumerate() {
        assert!(!field.is_empty(), "{name}: column {} has no name", i + 1);
        assert!(
            !header.iter().take(i).any(|f| f == field),
            "{name}: column {field} twice"
        );
    }
    let mut rows = 0;
    for record in reader.records() {
        record.unwrap_or_else(|e| panic!("{name}: {e}"));
        rows += 1;
    }
    assert!(rows > 0, "{name}: no rows");
    (header.len(), rows)
}

/// SHA-256 in lower-case hexadecimal.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Checks that `path` is a CSV sidecar (the keys of `$defs/sidecar` of
/// docs/schema/report.schema.json; python/tests validates it against the schema itself) and
/// returns it.
pub fn check_sidecar(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{} unreadable: {e}", path.display()));
    let value: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "caption",
            "manifest",
            "notes",
            "other_tables",
            "rows_sha256",
            "table",
            "title"
        ],
        "{}",
        path.display()
    );
    // The digest binds the sidecar to the CSV beside it: the SHA-256 of the file's bytes.
    let name = path.display().to_string();
    if let Some(csv) = name.strip_suffix(".manifest.json")
        && let Ok(bytes) = std::fs::read(csv)
    {
        assert_eq!(value["rows_sha256"], sha256_hex(&bytes).as_str(), "{csv}");
    }
    let manifest = &value["manifest"];
    assert_eq!(manifest["tool"], "pathology", "{}", path.display());
    assert!(
        manifest["command"]
            .as_str()
            .is_some_and(|c| c.starts_with("pathology ")),
        "{}",
        path.display()
    );
    value
}

/// Commands of every kind with CSV output on standard output, cheap: whole reports, one
/// table of several, the streamed ones (sweep, trajectories), Monte Carlo, shards.
const STDOUT_COMMANDS: &[&[&str]] = &[
    &["table", "1"],
    &["table", "2", "--table", "ps"],
    &[
        "decision",
        "--game",
        "p",
        "--branching",
        "2",
        "--height",
        "4",
    ],
    &[
        "sweep", "--height", "8", "--from", "0.1", "--to", "0.3", "--step", "0.1",
    ],
    &["threshold", "--height", "6", "--grid", "20"],
    &[
        "errprop", "--gamma", "0.3", "--delta", "0.2", "--f", "0.7,0.8", "--steps", "3",
    ],
    &["errprop", "critical-f", "--gamma", "0.3", "--delta", "0.2"],
    &["rhf", "--w", "0.25", "--xi", "0.5", "--exact"],
    &["wb", "--branching", "3"],
    &["emm", "example"],
    &["alphabeta", "--board", "........O"],
    &[
        "mc", "dgame", "--height", "4", "--f1", "0.1", "--f2", "0.1", "--trials", "200",
    ],
    &[
        "mc", "dgame", "--height", "4", "--f1", "0.1", "--f2", "0.1", "--trials", "200", "--shard",
        "1/2",
    ],
    &[
        "mc",
        "match",
        "--game",
        "p",
        "--height",
        "4",
        "--search-depth",
        "2",
        "--w",
        "0.5",
        "--pairs",
        "40",
    ],
    &[
        "decision",
        "--game",
        "sum",
        "--branching",
        "2",
        "--height",
        "4",
        "--step",
        "1:1/2,-1:1/2",
        "--terminal",
        "1/10",
    ],
    &[
        "mc",
        "sum",
        "--branching",
        "2",
        "--height",
        "4",
        "--step",
        "1:1/2,-1:1/2",
        "--trials",
        "200",
    ],
    &["domain", "kqk", "--depth", "1"],
    &[
        "domain",
        "eight-puzzle",
        "--heuristic",
        "misplaced",
        "--depth",
        "1..2",
    ],
];

#[test]
fn every_command_prints_plain_csv_and_writes_its_manifest_on_request() {
    let dir = tempfile::tempdir().unwrap();
    for (k, args) in STDOUT_COMMANDS.iter().enumerate() {
        let name = args.join(" ");
        let csv = stdout_of(&[args, &["--format", "csv"][..]].concat());
        check_plain(&name, &csv);
        // --manifest FILE: the same CSV, and the manifest there as JSON.
        let sidecar = dir.path().join(format!("{k}.csv.manifest.json"));
        let with_file = stdout_of(
            &[
                args,
                &["--format", "csv", "--manifest", sidecar.to_str().unwrap()][..],
            ]
            .concat(),
        );
        assert_eq!(with_file, csv, "{name}");
        let value = check_sidecar(&sidecar);
        let json: Value =
            serde_json::from_str(&stdout_of(&[args, &["--format", "json"][..]].concat())).unwrap();
        assert_eq!(value["manifest"], json["manifest"], "{name}");
        assert_eq!(value["notes"], json["notes"], "{name}");
        let table = args
            .iter()
            .position(|a| *a == "--table")
            .map_or(json["tables"][0]["name"].as_str().unwrap(), |i| args[i + 1]);
        assert_eq!(value["table"], table, "{name}");
        // --manifest inline: the old layout, the manifest in # lines above the same CSV.
        let inline = stdout_of(&[args, &["--format", "csv", "--manifest", "inline"][..]].concat());
        assert!(inline.starts_with("# tool: pathology "), "{name}");
        // Its last line binds the manifest to the rows: the SHA-256 of the plain CSV, which
        // the sidecar names too.
        let digest = sha256_hex(csv.as_bytes());
        assert_eq!(value["rows_sha256"], digest.as_str(), "{name}");
        assert!(
            inline.ends_with(&format!("{csv}# rows sha256: {digest}\n")),
            "{name}"
        );
        let comments = inline.lines().take_while(|l| l.starts_with('#')).count();
        assert_eq!(
            inline.lines().count() - comments - 1,
            csv.lines().count(),
            "{name}"
        );
    }
}

/// The CSV files under `dir`: each plain, each with its sidecar. Returns how many.
fn check_directory(dir: &Path) -> usize {
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "csv") {
            check_plain(
                &path.display().to_string(),
                &std::fs::read_to_string(&path).unwrap(),
            );
            check_sidecar(&pathology::report::sidecar_path(&path));
            count += 1;
        }
    }
    count
}

#[test]
fn the_commands_writing_csv_files_write_them_plain_with_a_sidecar() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    stdout_of(&["trend", "--from", "10", "--to", "11", "--out", out]);
    stdout_of(&["errprop", "figures", "--out", out]);
    stdout_of(&[
        "mc",
        "match-sweep",
        "--pairs",
        "5",
        "--seed",
        "21",
        "--out",
        out,
    ]);
    stdout_of(&[
        "mc",
        "emm-figures",
        "--games",
        "20",
        "--seed",
        "4",
        "--out",
        out,
    ]);
    // trend.csv, dgame_fig4.csv, chi_nau_fig3.csv, wilson_fig3..6_*.csv
    assert_eq!(check_directory(dir.path()), 7);
}

/// Every CSV committed under plots/ (reproduce's output) is plain, and every one but the
/// validate input crossval_input.csv (a data file for `pathology validate`, whose commands
/// are in crossval.txt) has its sidecar.
#[test]
fn the_committed_plots_csv_files_are_plain_with_a_sidecar() {
    let plots = Path::new(env!("CARGO_MANIFEST_DIR")).join("plots");
    let mut count = 0;
    for entry in std::fs::read_dir(&plots).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(csv) = name.strip_suffix(".manifest.json") {
            assert!(plots.join(csv).is_file(), "{name} has no {csv}");
        }
        if !name.ends_with(".csv") {
            continue;
        }
        check_plain(&name, &std::fs::read_to_string(&path).unwrap());
        if name != "crossval_input.csv" {
            check_sidecar(&pathology::report::sidecar_path(&path));
        }
        count += 1;
    }
    // Every CSV that plots/INDEX.md lists is there, and no other.
    let index = std::fs::read_to_string(plots.join("INDEX.md")).unwrap();
    let listed = index
        .lines()
        .filter(|l| l.starts_with("| [") && l.split(']').next().unwrap().ends_with(".csv"))
        .count();
    assert!(listed >= 23, "{listed} CSV files listed");
    assert_eq!(count, listed);
}

#[test]
fn merge_reads_the_manifest_of_csv_shards_from_their_sidecars() {
    let dir = tempfile::tempdir().unwrap();
    let run = [
        "mc", "dgame", "--height", "4", "--f1", "0.1", "--f2", "0.1", "--trials", "300", "--seed",
        "9",
    ];
    let whole = stdout_of(&[&run[..], &["--format", "csv"]].concat());
    let mut files = Vec::new();
    for k in 1..=3 {
        let csv = dir.path().join(format!("s{k}.csv"));
        let sidecar = pathology::report::sidecar_path(&csv);
        let text = stdout_of(
            &[
                &run[..],
                &[
                    "--shard",
                    &format!("{k}/3"),
                    "--format",
                    "csv",
                    "--manifest",
                    sidecar.to_str().unwrap(),
                ],
            ]
            .concat(),
        );
        std::fs::write(&csv, text).unwrap();
        files.push(csv.to_str().unwrap().to_string());
    }
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    let merged = stdout_of(&[&["merge"][..], &names, &["--format", "csv"]].concat());
    assert_eq!(merged, whole);
    // Inline manifests merge too, and the two layouts mix.
    let inline = dir.path().join("inline2.csv");
    let text = stdout_of(
        &[
            &run[..],
            &["--shard", "2/3", "--format", "csv", "--manifest", "inline"],
        ]
        .concat(),
    );
    std::fs::write(&inline, text).unwrap();
    let mixed = stdout_of(&[
        "merge",
        names[0],
        inline.to_str().unwrap(),
        names[2],
        "--format",
        "csv",
    ]);
    assert_eq!(mixed, whole);
    // The sidecars are checked as the inline manifests are: another seed is refused.
    let other = dir.path().join("other.csv");
    let text = stdout_of(
        &[
            &run[..8],
            &[
                "--trials",
                "300",
                "--seed",
                "10",
                "--shard",
                "2/3",
                "--format",
                "csv",
                "--manifest",
                pathology::report::sidecar_path(&other).to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    std::fs::write(&other, text).unwrap();
    refused(
        &["merge", names[0], other.to_str().unwrap(), names[2]],
        &["FILE must be"],
    );
    // A plain CSV shard without its sidecar: refused, naming the file it looked for.
    std::fs::remove_file(pathology::report::sidecar_path(Path::new(names[1]))).unwrap();
    refused(
        &["merge", names[0], names[1], names[2]],
        &["s2.csv.manifest.json", "--manifest inline"],
    );
}

#[test]
fn a_manifest_file_that_cannot_be_written_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/dir/m.json");
    let output = pathology()
        .args(["table", "1", "--format", "csv", "--manifest"])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--manifest must be"), "{stderr}");
    refused(&["table", "1", "--manifest", ""], &["--manifest"]);
}

/// docs/schema/report.schema.json names the manifest's keys as the JSON output has them
/// (python/tests/test_csv_layout.py validates whole outputs against the schema).
#[test]
fn the_schema_names_the_manifest_keys_of_the_json_output() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schema/report.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let json: Value =
        serde_json::from_str(&stdout_of(&["table", "1", "--format", "json"])).unwrap();
    let mut keys: Vec<&str> = json["manifest"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut required: Vec<&str> = schema["$defs"]["manifest"]["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    keys.sort_unstable();
    required.sort_unstable();
    assert_eq!(keys, required);
    let mut top: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    top.sort_unstable();
    assert_eq!(top, ["manifest", "notes", "tables", "title"]);
}
