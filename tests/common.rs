//! Helpers shared by the integration tests.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

/// The `pathology` binary under test.
pub fn pathology() -> Command {
    Command::cargo_bin("pathology").unwrap()
}

/// Runs a command that must succeed and returns its standard output.
pub fn stdout_of(args: &[&str]) -> String {
    let output = pathology().args(args).output().unwrap();
    assert!(
        output.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Runs a command that must succeed and parses its standard output as JSON.
pub fn json_of(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).unwrap()
}

/// Runs a command that must be refused: exit code 2, stderr naming `mentions`, nothing on
/// standard output (refused up front, before any row is printed), no panic.
pub fn refused(args: &[&str], mentions: &[&str]) {
    let mut assert = pathology()
        .args(args)
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("panicked").not());
    for m in mentions {
        assert = assert.stderr(predicate::str::contains(*m));
    }
}

/// The rows of a report's first table (the common JSON shape: manifest, tables, notes).
pub fn rows_of(report: &Value) -> Vec<Value> {
    report["tables"][0]["rows"].as_array().unwrap().clone()
}

/// The rows of a JSON report's table `name` (panics naming a missing table).
pub fn table_rows(report: &Value, name: &str) -> Vec<Value> {
    report["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no table {name} in the report"))["rows"]
        .as_array()
        .unwrap()
        .clone()
}

/// A manifest parameter of a JSON report.
pub fn parameter<'a>(report: &'a Value, name: &str) -> &'a str {
    report["manifest"]["parameters"][name].as_str().unwrap()
}

/// The CSV lines after the `#` manifest comments.
pub fn csv_body(csv: &str) -> Vec<&str> {
    csv.lines().filter(|l| !l.starts_with('#')).collect()
}

/// The output with the git commit of its manifest replaced by `[commit]`, so that snapshots
/// survive new commits (the manifest itself stays in the snapshot).
pub fn redact_commit(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("commit") {
            Some(i) if line[i..].starts_with("commit: ") || line[i..].starts_with("commit\": ") => {
                let cut = i + line[i..].find(' ').unwrap() + 1;
                let end = if line.ends_with("\",") {
                    "\"[commit]\","
                } else {
                    "[commit]"
                };
                format!("{}{end}", &line[..cut])
            }
            _ => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// An inline-manifest CSV with its `# rows sha256:` line recomputed for its (edited) rows, as
/// a forger would: what only the checks behind the digest can catch.
pub fn rebind(csv: &str) -> String {
    use sha2::Digest;
    let rows: String = csv
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let digest: String = sha2::Sha256::digest(rows.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let manifest: String = csv
        .lines()
        .filter(|l| l.starts_with('#') && !l.starts_with("# rows sha256: "))
        .map(|l| format!("{l}\n"))
        .collect();
    format!("{manifest}{rows}# rows sha256: {digest}\n")
}

/// The `pathology` binary as a plain process, for the tests that need its pipes, signals or
/// raw exit status rather than `assert_cmd`'s assertions.
pub fn process() -> std::process::Command {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("pathology"))
}

/// A temporary file holding `contents` (removed when the returned handle is dropped).
pub fn temp_file(contents: impl AsRef<[u8]>) -> tempfile::NamedTempFile {
    use std::io::Write;
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(contents.as_ref()).unwrap();
    file
}

/// Where the shards of [`write_shards`] carry their manifests.
#[derive(Clone, Copy)]
pub enum ShardManifests {
    /// Every shard with its manifest inline (`--manifest inline`).
    Inline,
    /// Shard 1 inline, shard 2 (JSON) in its body, shard 3 in its sidecar file.
    InlineAndSidecar,
}

/// Runs `base` as three shards written into `dir` and returns their paths in shard order:
/// `1/3` as CSV, `2/3` as JSON and `3/3` as CSV, named `{stem}1.csv`, `{stem}2.json` and
/// `{stem}3.csv`, each run with `--shard K/3 --format F`, its manifest option and `extra`.
pub fn write_shards(
    base: &[&str],
    extra: &[&str],
    dir: &std::path::Path,
    stem: &str,
    manifests: ShardManifests,
) -> Vec<String> {
    let mut paths = Vec::new();
    for (k, format) in [("1/3", "csv"), ("2/3", "json"), ("3/3", "csv")] {
        let path = dir.join(format!("{stem}{}.{format}", &k[..1]));
        let sidecar = pathology::report::sidecar_path(&path).display().to_string();
        let manifest: &[&str] = match (manifests, k) {
            (ShardManifests::Inline, _) | (ShardManifests::InlineAndSidecar, "1/3") => {
                &["--manifest", "inline"]
            }
            (ShardManifests::InlineAndSidecar, "3/3") => &["--manifest", &sidecar],
            (ShardManifests::InlineAndSidecar, _) => &[],
        };
        let out = stdout_of(&[base, &["--shard", k, "--format", format], manifest, extra].concat());
        std::fs::write(&path, out).unwrap();
        paths.push(path.display().to_string());
    }
    paths
}

/// The standard normal distribution function `Phi(x)` by the Maclaurin series of erf summed
/// to convergence: a reference independent of libm's erfc (for |x| <= 2 the terms stay below
/// 60, so the sum is good to about 1e-14).
pub fn phi(x: f64) -> f64 {
    let y = x / std::f64::consts::SQRT_2;
    let (mut term, mut sum, mut k) = (y, y, 0.0);
    while term.abs() > 1e-18 {
        k += 1.0;
        term *= -y * y / k;
        sum += term / (2.0 * k + 1.0);
    }
    0.5 + sum / std::f64::consts::PI.sqrt()
}

/// Asserts that the enclosure `e`, widened by `slack` on each side, contains `x`.
pub fn contains(e: &pathology::numeric::enclosure::Enclosure, x: f64, slack: f64) {
    assert!(
        e.lower - slack <= x && x <= e.upper + slack,
        "{x} not in [{}, {}]",
        e.lower,
        e.upper
    );
}
