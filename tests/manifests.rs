//! Manifests: shards whose manifest and rows cannot be mixed, manifest paths that cannot
//! swallow the output, `--manifest` keywords in any case, and `--manifest none`.

use crate::common::{pathology, process, refused, stdout_of};
use std::path::Path;

/// A sampled KRK run split in two, as a researcher would shard it.
const KRK: &[&str] = &[
    "domain",
    "krk",
    "--depth",
    "1..2",
    "--noise",
    "gaussian:1",
    "--trials",
    "40",
];

/// A small UCT run (its rows carry a `seed` column).
const UCT: &[&str] = &[
    "mc",
    "uct",
    "--game",
    "crit",
    "--branching",
    "2",
    "--height",
    "4",
    "--gamma",
    "1",
    "--evaluator",
    "gaussian",
    "--sigma",
    "0.5",
    "--iterations",
    "50",
    "--games",
    "40",
    "--format",
    "csv",
];

/// Runs `run` with `more`, standard output into `file`; panics unless it succeeds.
fn run_into(run: &[&str], more: &[&str], file: &Path) {
    let output = pathology().args(run).args(more).output().unwrap();
    assert!(
        output.status.success(),
        "{run:?} {more:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::write(file, output.stdout).unwrap();
}

/// The KRK shard `k` of seed `seed`: CSV of by_dtm with its sidecar.
fn krk_shard(dir: &Path, seed: u64, k: u32) -> String {
    let csv = dir.join(format!("s{seed}_{k}.csv"));
    let sidecar = format!("{}.manifest.json", csv.display());
    let (shard, seed) = (format!("{k}/2"), seed.to_string());
    let more = [
        "--shard",
        &shard,
        "--seed",
        &seed,
        "--format",
        "csv",
        "--table",
        "by_dtm",
        "--manifest",
        &sidecar,
    ];
    run_into(KRK, &more, &csv);
    csv.display().to_string()
}

fn merge(files: &[&str]) -> std::process::Output {
    pathology().arg("merge").args(files).output().unwrap()
}

#[test]
fn a_sidecar_moved_onto_another_runs_rows_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let a1 = krk_shard(dir.path(), 1, 1);
    let a2 = krk_shard(dir.path(), 1, 2);
    let b2 = krk_shard(dir.path(), 7, 2);
    assert!(merge(&[&a1, &a2]).status.success());
    // The seed-7 rows with the seed-1 shard's sidecar: before this round they merged into a
    // "seed 1" result with other counts.
    let spliced = dir.path().join("spliced.csv");
    std::fs::copy(&b2, &spliced).unwrap();
    std::fs::copy(
        format!("{a2}.manifest.json"),
        format!("{}.manifest.json", spliced.display()),
    )
    .unwrap();
    let out = merge(&[&a1, spliced.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("spliced.csv: the manifest belongs to other rows"),
        "{err}"
    );
}

#[test]
fn an_inline_manifest_pasted_onto_other_rows_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = |seed: &str, k: &str| {
        let out = pathology()
            .args(UCT)
            .args(["--manifest", "inline", "--shard", k, "--seed", seed])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let (a1, a2, b2) = (text("1", "1/2"), text("1", "2/2"), text("7", "2/2"));
    let first = dir.path().join("a1.csv");
    std::fs::write(&first, &a1).unwrap();
    let rows = |t: &str| -> String {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let comments = |t: &str| -> String {
        t.lines()
            .filter(|l| l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    // The seed-1 manifest (with its digest line) over the seed-7 rows.
    let pasted = dir.path().join("pasted.csv");
    std::fs::write(&pasted, format!("{}{}", comments(&a2), rows(&b2))).unwrap();
    let out = merge(&[first.to_str().unwrap(), pasted.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("pasted.csv: the manifest belongs"));
    // Even with the digest line recomputed for the new rows, the rows' own seed column (7)
    // contradicts the manifest (1).
    let digest = {
        use std::io::Write;
        let mut child = std::process::Command::new("sha256sum")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(rows(&b2).as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        String::from_utf8(out.stdout).unwrap()[..64].to_string()
    };
    let manifest: String = comments(&a2)
        .lines()
        .filter(|l| !l.starts_with("# rows sha256"))
        .map(|l| format!("{l}\n"))
        .collect();
    let forged = dir.path().join("forged.csv");
    std::fs::write(
        &forged,
        format!("{manifest}{}# rows sha256: {digest}\n", rows(&b2)),
    )
    .unwrap();
    let out = merge(&[first.to_str().unwrap(), forged.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("forged.csv") && err.contains("column seed is 7, the manifest says 1"),
        "{err}"
    );
    // The untouched shards still merge, and a manifest without a digest line is refused.
    let second = dir.path().join("a2.csv");
    std::fs::write(&second, &a2).unwrap();
    assert!(
        merge(&[first.to_str().unwrap(), second.to_str().unwrap()])
            .status
            .success()
    );
    let bare = dir.path().join("bare.csv");
    std::fs::write(&bare, format!("{manifest}{}", rows(&a2))).unwrap();
    let out = merge(&[first.to_str().unwrap(), bare.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no rows sha256 line"));
}

#[test]
fn an_inline_manifest_and_a_sidecar_that_disagree_are_refused_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("a1.csv");
    run_into(
        UCT,
        &["--manifest", "inline", "--shard", "1/2", "--seed", "1"],
        &first,
    );
    let second = dir.path().join("a2.csv");
    run_into(
        UCT,
        &["--manifest", "inline", "--shard", "2/2", "--seed", "1"],
        &second,
    );
    let sidecar = format!("{}.manifest.json", second.display());
    for (seed, shard) in [("999", "2/2"), ("1", "1/2")] {
        run_into(
            UCT,
            &["--shard", shard, "--seed", seed, "--manifest", &sidecar],
            &dir.path().join("ignored.csv"),
        );
        let out = merge(&[first.to_str().unwrap(), second.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "seed {seed} shard {shard}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("a2.csv (its # lines) and")
                && err.contains("a2.csv.manifest.json disagree"),
            "{err}"
        );
    }
    // A sidecar that says what the # lines say is no conflict.
    run_into(
        UCT,
        &["--shard", "2/2", "--seed", "1", "--manifest", &sidecar],
        &dir.path().join("ignored.csv"),
    );
    assert!(
        merge(&[first.to_str().unwrap(), second.to_str().unwrap()])
            .status
            .success()
    );
}

#[test]
fn a_manifest_path_that_is_standard_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let file = std::fs::File::create(&out).unwrap();
    let output = process()
        .args([
            "decision", "--height", "4", "--f1", "0.3", "--p0", "0.5", "--format", "csv",
        ])
        .arg("--manifest")
        .arg(&out)
        .stdout(file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("--manifest")
            && err.contains("must be a file other than the one standard output goes to"),
        "{err}"
    );
    // Nothing was written over it: not the manifest either.
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "");
    refused(
        &[
            "decision",
            "--height",
            "4",
            "--f1",
            "0.3",
            "--p0",
            "0.5",
            "--format",
            "csv",
            "--manifest",
            "-",
        ],
        &["--manifest", "standard output carries the CSV"],
    );
}

#[test]
fn manifest_keywords_are_accepted_in_any_case() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "decision", "--height", "4", "--f1", "0.3", "--p0", "0.5", "--format", "csv",
    ];
    for keyword in ["NONE", "None", "INLINE", "Inline"] {
        let out = pathology()
            .current_dir(dir.path())
            .args(args)
            .args(["--manifest", keyword])
            .output()
            .unwrap();
        assert!(out.status.success(), "{keyword}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            text.starts_with("# tool: pathology"),
            keyword.eq_ignore_ascii_case("inline"),
            "{keyword}: {text}"
        );
    }
    // No file of either name was created.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `--manifest none` leaves the manifest out of text, Markdown and LaTeX; they
/// carry it by default.
#[test]
fn manifest_none_drops_the_manifest_lines() {
    for (format, marker) in [
        ("text", "# command:"),
        ("markdown", "<summary>manifest</summary>"),
        ("latex", "% command:"),
    ] {
        let with = stdout_of(&["wb", "--branching", "3", "--format", format]);
        assert!(with.contains(marker), "{format}: {with}");
        let without = stdout_of(&[
            "wb",
            "--branching",
            "3",
            "--format",
            format,
            "--manifest",
            "none",
        ]);
        assert!(!without.contains(marker), "{format}: {without}");
        assert!(!without.contains("commit"), "{format}: {without}");
        // The tables are the same.
        assert!(with.contains(without.lines().nth(2).unwrap_or_default()));
    }
    // A streamed command too.
    let sweep = stdout_of(&[
        "sweep",
        "--height",
        "6",
        "--from",
        "0.1",
        "--to",
        "0.3",
        "--step",
        "0.1",
        "--manifest",
        "none",
    ]);
    assert!(!sweep.contains("# "), "{sweep}");
}
