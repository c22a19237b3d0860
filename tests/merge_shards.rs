//! `pathology merge`: every mergeable command's shards are checked for internal consistency
//! before they are merged, a shard with no trials of its own prints empty estimates, and
//! standard input is read once.

use predicates::prelude::*;

use crate::common::{csv_body, pathology, rebind, refused, stdout_of};

/// One mergeable command (`--format` and `--shard` are added) and the cells a hostile edit
/// changes in its first shard: `(column, edit)`.
struct Mergeable {
    args: Vec<String>,
    edits: Vec<(&'static str, Edit)>,
}

#[derive(Clone, Copy)]
enum Edit {
    /// A count lowered by one (raised when it is 0): the printed estimate no longer follows.
    CountDown,
    /// A printed number moved by 0.01 (an interval end, a z-score, an estimate).
    Shift,
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

fn mergeable(dir: &std::path::Path) -> Vec<Mergeable> {
    let figures = dir.join("figures").display().to_string();
    let wilson = || {
        vec![
            ("successes", Edit::CountDown),
            ("estimate", Edit::Shift),
            ("estimate_lower", Edit::Shift),
            ("estimate_upper", Edit::Shift),
        ]
    };
    let pairs = |wins: &'static str| {
        vec![
            ("share", Edit::Shift),
            ("share_upper", Edit::Shift),
            (wins, Edit::CountDown),
        ]
    };
    let mut with_z = wilson();
    with_z.push(("z", Edit::Shift));
    vec![
        Mergeable {
            args: strings(&[
                "mc", "dgame", "--height", "5", "--f1", "0.3", "--f2", "0.6", "--trials", "41",
                "--seed", "21",
            ]),
            edits: with_z.clone(),
        },
        Mergeable {
            args: strings(&[
                "mc", "errprop", "--gamma", "0.3", "--delta", "0.2", "--f1", "0.9", "--f2", "0.9",
                "--steps", "2", "--trials", "41", "--seed", "5",
            ]),
            edits: with_z.clone(),
        },
        Mergeable {
            args: strings(&[
                "mc", "rhf", "--w", "0.2", "--height", "8", "--depth", "3", "--trials", "41",
                "--seed", "5",
            ]),
            edits: with_z.clone(),
        },
        Mergeable {
            args: strings(&[
                "mc",
                "emm",
                "--game",
                "p",
                "--branching",
                "2",
                "--height",
                "5",
                "--games",
                "41",
                "--seed",
                "13",
                "--evaluator",
                "artificial",
                "--error",
                "0.2",
            ]),
            edits: wilson(),
        },
        Mergeable {
            args: strings(&["mc", "match", "--w", "0.3", "--pairs", "21", "--seed", "21"]),
            edits: pairs("minimax_wins"),
        },
        Mergeable {
            args: strings(&["mc", "match-table", "--pairs", "5", "--seed", "21"]),
            edits: pairs("minimax_wins"),
        },
        Mergeable {
            args: strings(&[
                "mc",
                "match-sweep",
                "--pairs",
                "5",
                "--seed",
                "21",
                "--out",
                &figures,
            ]),
            edits: pairs("minimax_wins"),
        },
        Mergeable {
            args: strings(&[
                "mc", "ggame", "--height", "4", "--p", "0.4", "--trials", "41", "--seed", "3",
            ]),
            edits: vec![
                ("correct", Edit::CountDown),
                ("D", Edit::Shift),
                ("D_lower", Edit::Shift),
                ("share", Edit::Shift),
                ("minimax_wins", Edit::CountDown),
            ],
        },
        Mergeable {
            args: strings(&[
                "mc", "ballard", "--height", "4", "--errors", "0,0.3", "--trials", "21", "--seed",
                "5",
            ]),
            edits: vec![
                ("share", Edit::Shift),
                ("mixed_wins", Edit::CountDown),
                ("improvement", Edit::Shift),
                ("improvement_upper", Edit::Shift),
            ],
        },
        Mergeable {
            args: strings(&[
                "mc",
                "uct",
                "--c",
                "0.5,10",
                "--iterations",
                "1,10",
                "--games",
                "21",
                "--height",
                "8",
                "--seed",
                "7",
            ]),
            edits: wilson(),
        },
        Mergeable {
            args: strings(&[
                "mc",
                "distributions",
                "--game",
                "crit",
                "--branching",
                "2",
                "--height",
                "4",
                "--gamma",
                "0.9,0.5",
                "--root-gamma",
                "0.8",
                "--evaluator",
                "gaussian",
                "--sigma",
                "0.5",
                "--trials",
                "41",
                "--seed",
                "4",
            ]),
            edits: with_z,
        },
    ]
}

/// `csv` (a shard's CSV output) with `edit` applied to `column` in the first row where the
/// cell is not empty (and, for [`Edit::Shift`] of an estimate, where it moves off its counts).
fn edited(csv: &str, column: &str, edit: Edit) -> String {
    let comments: Vec<&str> = csv.lines().filter(|l| l.starts_with('#')).collect();
    let body = csv_body(csv).join("\n");
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(body.as_bytes());
    let mut records: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    let index = records[0]
        .iter()
        .position(|h| h == column)
        .unwrap_or_else(|| panic!("no column {column} in {csv}"));
    let row = (1..records.len())
        .find(|&r| !records[r][index].is_empty())
        .unwrap_or_else(|| panic!("no value in column {column} of {csv}"));
    let old = records[row][index].to_string();
    let new = match edit {
        Edit::CountDown => {
            let n: u64 = old.parse().unwrap();
            if n == 0 { 1 } else { n - 1 }.to_string()
        }
        Edit::Shift => {
            let x: f64 = old.parse().unwrap();
            (if x > 0.5 { x - 0.01 } else { x + 0.01 }).to_string()
        }
    };
    let mut fields: Vec<String> = records[row].iter().map(str::to_string).collect();
    fields[index] = new;
    records[row] = csv::StringRecord::from(fields);
    let mut writer = csv::Writer::from_writer(Vec::new());
    for r in &records {
        writer.write_record(r).unwrap();
    }
    let body = String::from_utf8(writer.into_inner().unwrap()).unwrap();
    // The rows' digest forged to match, so that the cell-level checks behind it are what
    // refuses the edit (without it the digest refuses first: see below).
    rebind(&format!("{}\n{body}", comments.join("\n")))
}

/// For every mergeable command, two shards (made by the release binary) merge;
/// one cell of the first edited (a count lowered with the estimate unchanged, an estimate, an
/// interval end, a z-score or a derived count moved) makes `merge` refuse, exit 2, naming the
/// file and the column. Before the fix the edited shard was merged (`successes` lowered by one
/// with `estimate` unchanged merged to 0.975 instead of 1.0).
#[test]
fn merge_refuses_every_mergeable_commands_edited_shard() {
    let dir = tempfile::tempdir().unwrap();
    for command in mergeable(dir.path()) {
        let args: Vec<&str> = command.args.iter().map(String::as_str).collect();
        let shard = |k: &str| {
            stdout_of(
                &[
                    &args[..],
                    &[
                        "--shard",
                        k,
                        "--format",
                        "csv",
                        "--manifest",
                        "inline",
                        "--threads",
                        "1",
                    ],
                ]
                .concat(),
            )
        };
        let (first, second) = (shard("1/2"), shard("2/2"));
        let second_path = dir.path().join("second.csv");
        std::fs::write(&second_path, &second).unwrap();
        let second_path = second_path.display().to_string();
        let good = dir.path().join("good.csv");
        std::fs::write(&good, &first).unwrap();
        let merged = stdout_of(&[
            "merge",
            good.to_str().unwrap(),
            &second_path,
            "--format",
            "csv",
        ]);
        let whole = stdout_of(&[&args[..], &["--format", "csv"]].concat());
        assert_eq!(csv_body(&merged), csv_body(&whole), "{args:?}");
        for (column, edit) in &command.edits {
            let name = format!("edited-{column}.csv");
            let path = dir.path().join(&name);
            let forged = edited(&first, column, *edit);
            std::fs::write(&path, &forged).unwrap();
            refused(
                &["merge", path.to_str().unwrap(), &second_path],
                &[&name, "line", "column"],
            );
            // The same edit under the manifest's own digest line: refused by the digest.
            let digest_line = |t: &str| {
                t.lines()
                    .find(|l| l.starts_with("# rows sha256: "))
                    .unwrap()
                    .to_string()
            };
            let unforged = forged.replace(&digest_line(&forged), &digest_line(&first));
            std::fs::write(&path, unforged).unwrap();
            refused(
                &["merge", path.to_str().unwrap(), &second_path],
                &[&name, "the manifest belongs to other rows"],
            );
        }
    }
}

/// The refusal names the edited cell and what the counts give: one
/// success fewer with the estimate unchanged.
#[test]
fn merge_names_the_edited_estimate_and_its_counts() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "mc", "rhf", "--w", "0.2", "--height", "8", "--depth", "3", "--trials", "21", "--seed", "5",
    ];
    let mut paths = Vec::new();
    for k in ["1/2", "2/2"] {
        let mut out = stdout_of(
            &[
                &base[..],
                &["--shard", k, "--format", "csv", "--manifest", "inline"],
            ]
            .concat(),
        );
        if k == "1/2" {
            out = edited(&out, "successes", Edit::CountDown);
        }
        let path = dir.path().join(format!("shard{}.csv", &k[..1]));
        std::fs::write(&path, out).unwrap();
        paths.push(path.display().to_string());
    }
    refused(
        &["merge", &paths[0], &paths[1]],
        &["shard1.csv line", "column estimate", "successes/trials"],
    );
}

/// A shard with no trials of its own (`--trials 2 --shard 3/4`) prints its
/// counts 0/0 with the estimate, interval and z cells empty (it printed `0 [0, 1]`), and the
/// four shards still merge into the unsharded run, byte for byte.
#[test]
fn empty_shards_print_no_estimate_and_still_merge() {
    let dir = tempfile::tempdir().unwrap();
    let runs: [&[&str]; 6] = [
        &[
            "mc", "dgame", "--height", "3", "--f1", "0.3", "--f2", "0.6", "--trials", "2",
            "--seed", "21",
        ],
        &[
            "mc", "errprop", "--gamma", "0.3", "--delta", "0.2", "--f1", "0.9", "--f2", "0.9",
            "--steps", "2", "--trials", "2", "--seed", "5",
        ],
        &[
            "mc", "rhf", "--w", "0.2", "--height", "8", "--depth", "3", "--trials", "2", "--seed",
            "5",
        ],
        &[
            "mc",
            "emm",
            "--game",
            "p",
            "--branching",
            "2",
            "--height",
            "4",
            "--games",
            "2",
            "--seed",
            "13",
            "--evaluator",
            "artificial",
            "--error",
            "0.2",
        ],
        &[
            "mc",
            "uct",
            "--c",
            "0.5",
            "--iterations",
            "1,10",
            "--games",
            "2",
            "--height",
            "8",
            "--seed",
            "7",
        ],
        &[
            "mc",
            "distributions",
            "--game",
            "crit",
            "--branching",
            "2",
            "--height",
            "3",
            "--gamma",
            "0.9,0.5",
            "--root-gamma",
            "0.8",
            "--trials",
            "2",
            "--seed",
            "4",
        ],
    ];
    for base in runs {
        let mut paths = Vec::new();
        for k in ["1/4", "2/4", "3/4", "4/4"] {
            let out = stdout_of(
                &[
                    base,
                    &["--shard", k, "--format", "csv", "--manifest", "inline"][..],
                ]
                .concat(),
            );
            if k == "3/4" {
                let body = csv_body(&out);
                let header: Vec<&str> = body[0].split(',').collect();
                let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
                for row in &body[1..] {
                    let fields: Vec<&str> = row.split(',').collect();
                    // `mc distributions` quotes its gamma pair: count from the end.
                    let end = |name: &str| fields[fields.len() - (header.len() - at(name))];
                    assert_eq!(end("trials"), "0", "{base:?}: {row}");
                    for empty in ["estimate", "estimate_lower", "estimate_upper", "z"] {
                        assert_eq!(end(empty), "", "{base:?}: {empty} in {row}");
                    }
                }
            }
            let path = dir.path().join(format!("empty{}.csv", &k[..1]));
            std::fs::write(&path, out).unwrap();
            paths.push(path.display().to_string());
        }
        for format in ["csv", "json"] {
            let whole = stdout_of(&[base, &["--format", format][..]].concat());
            let merged = stdout_of(&[
                "merge", &paths[2], &paths[0], &paths[3], &paths[1], "--format", format,
            ]);
            assert_eq!(merged, whole, "{base:?} in {format}");
        }
    }
    let text = stdout_of(&[
        "mc",
        "uct",
        "--c",
        "0.5",
        "--iterations",
        "1",
        "--games",
        "2",
        "--shard",
        "3/4",
    ]);
    assert!(!text.contains("0.0000 [0, 1]"), "{text}");
}

/// `merge - -` said "got no header" (the second `-` read standard input
/// again, empty); it is refused saying standard input holds one shard.
#[test]
fn merge_refuses_standard_input_twice() {
    pathology()
        .args(["merge", "-", "-"])
        .write_stdin("")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("at most once"))
        .stderr(predicates::str::contains("no header").not());
}
