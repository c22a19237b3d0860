//! The findings of a hostile but fair sweep of the command line, one regression test
//! each (the release binary run as a user would).

use std::process::{Command, Stdio};

use crate::common::{pathology, process, rebind, refused, stdout_of};

/// `--out` through a symbolic link: the link is
/// replaced by the new file (as `reproduce` does), and its target is left untouched.
#[cfg(unix)]
#[test]
fn out_through_a_symlink_replaces_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("calibration.json");
    std::fs::write(&target, "old").unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    pathology()
        .args([
            "mc",
            "emm-calibrate",
            "--games",
            "50",
            "--height",
            "5",
            "--out",
        ])
        .arg(&link)
        .assert()
        .success();
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.is_file(), "the link was not replaced");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
    let written = std::fs::read_to_string(&link).unwrap();
    assert!(written.starts_with('{'), "{written}");
    // Nothing else was left in the directory (no partial file).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

/// A FIFO as `--out` is written through: its reader gets the whole file and the FIFO
/// stays a FIFO.
#[cfg(target_os = "linux")]
#[test]
fn out_to_a_fifo_is_written_through() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.json");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    pathology()
        .args([
            "mc",
            "emm-calibrate",
            "--games",
            "50",
            "--height",
            "5",
            "--out",
        ])
        .arg(&fifo)
        .assert()
        .success();
    let received = reader.join().unwrap();
    assert!(
        received.starts_with('{') && received.trim_end().ends_with('}'),
        "{received}"
    );
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced");
}

/// A device is never replaced: `/dev/full` reports its error and stays a device.
#[cfg(target_os = "linux")]
#[test]
fn out_to_a_device_is_never_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let out = pathology()
        .args([
            "mc",
            "emm-calibrate",
            "--games",
            "50",
            "--height",
            "5",
            "--out",
            "/dev/full",
        ])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let kind = std::fs::symlink_metadata("/dev/full").unwrap().file_type();
    assert!(kind.is_char_device(), "/dev/full is no longer a device");
}

/// A shard whose counts were edited is refused naming its file (the rows' digest) and,
/// its digest forged, its line (exit 2); more successes than trials is not a panic.
#[test]
fn merge_checks_counts_against_the_manifests() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for k in 1..=3 {
        let csv = stdout_of(&[
            "mc",
            "dgame",
            "--height",
            "6",
            "--f1",
            "0.3",
            "--f2",
            "0.3",
            "--trials",
            "3000",
            "--seed",
            "4",
            "--shard",
            &format!("{k}/3"),
            "--format",
            "csv",
            "--manifest",
            "inline",
        ]);
        let path = dir.path().join(format!("shard-{k}.csv"));
        std::fs::write(&path, &csv).unwrap();
        files.push((path, csv));
    }
    let args = |paths: &[&std::path::Path]| {
        let mut a = vec!["merge".to_string()];
        a.extend(paths.iter().map(|p| p.display().to_string()));
        a
    };
    let paths: Vec<&std::path::Path> = files.iter().map(|(p, _)| p.as_path()).collect();
    pathology().args(args(&paths)).assert().success();
    // Trials edited from 1000 to 5000 in one row of shard 2: the rows no longer match the
    // digest their manifest names.
    let (path, csv) = &files[1];
    let edited = csv.replacen(",1000,", ",5000,", 1);
    assert_ne!(&edited, csv);
    std::fs::write(path, &edited).unwrap();
    let out = pathology().args(args(&paths)).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("shard-2.csv: the manifest belongs to other rows"),
        "{err}"
    );
    // With the digest line forged to match, the counts are still checked against the
    // manifest, naming the line.
    std::fs::write(path, rebind(&edited)).unwrap();
    let out = pathology().args(args(&paths)).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("shard-2.csv line"), "{err}");
    assert!(err.contains("1000 trials"), "{err}");
    // More successes than trials: refused the same way, never a panic.
    let line = csv
        .lines()
        .find(|l| l.starts_with("dgame,"))
        .unwrap()
        .to_string();
    let fields: Vec<&str> = line.split(',').collect();
    let successes_at = fields.len() - 7;
    let mut bad: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
    bad[successes_at] = "1500".to_string();
    std::fs::write(path, rebind(&csv.replacen(&line, &bad.join(","), 1))).unwrap();
    let out = pathology().args(args(&paths)).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("successes"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Columns that differ only in case, or repeat, are refused (exit 2).
#[test]
fn validate_rejects_case_variant_and_duplicate_columns() {
    for header in [
        "kind,h,d,D,f1,f2,estimate,trials",
        "kind,h,d,f1,F1,f2,estimate,trials",
        "kind,h,d,f1,f2,f2,estimate,trials",
    ] {
        let csv = format!("{header}\ndgame,10,1,2,0.1,0.1,0.6,1000\n");
        let out = pathology()
            .args(["validate", "-"])
            .write_stdin(csv)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{header}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("distinct"), "{header}: {err}");
    }
    // A header and no rows is an error, not "every estimate agrees".
    let out = pathology()
        .args(["validate", "-"])
        .write_stdin("kind,h,d,f1,f2,estimate,trials\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `exact` with the artificial evaluator at heights where the f64 bound says nothing
/// is refused, and validate never calls a value it cannot compute "agrees".
#[test]
fn exact_refuses_f64_columns_without_information() {
    for (game, height) in [("p", "40"), ("p", "50"), ("p", "64"), ("n", "64")] {
        refused(
            &[
                "exact",
                "--game",
                game,
                "--height",
                height,
                "--evaluator",
                "artificial",
            ],
            &["--height", "rounding bound"],
        );
    }
    // Still fine where the bound is small.
    let text = stdout_of(&[
        "exact",
        "--game",
        "p",
        "--height",
        "24",
        "--evaluator",
        "artificial",
    ]);
    assert!(text.contains("within"), "{text}");
    let csv =
        "kind,b,h,d,p,evaluator,e,estimate,trials\npgame,2,64,1,0.4,artificial,0.1,0.9,1000\n";
    let out = pathology()
        .args(["validate", "-"])
        .write_stdin(csv)
        .output()
        .unwrap();
    assert_ne!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Infinite bounds in JSON are strings, so every JSON output parses strictly.
#[test]
fn json_never_holds_bare_infinities() {
    let text = stdout_of(&[
        "errprop", "--gamma", "0.3", "--delta", "0.2", "--f1", "0.1", "--f2", "0.8", "--steps",
        "100", "--format", "json",
    ]);
    let value: serde_json::Value = serde_json::from_str(&text).expect("strict JSON");
    assert!(text.contains("\"inf\""), "the test needs an infinite bound");
    assert!(value["tables"][0]["rows"].as_array().unwrap().len() > 50);
}

/// Options that scale the work are estimated and refused up front, the refusal naming
/// an option the command has.
#[test]
fn work_scaling_options_are_refused_up_front() {
    refused(
        &["trend", "--from", "10", "--to", "40", "--out", "unused"],
        &["trend over heights 10..=40", "--to"],
    );
    refused(
        &["trend", "--peak-grid", "4294967295", "--out", "unused"],
        &["--peak-grid"],
    );
    refused(
        &["trend", "--peak-grid", "1000000", "--out", "unused"],
        &["--peak-grid"],
    );
    refused(
        &["threshold", "--height", "16", "--grid", "1000000"],
        &["--grid"],
    );
    refused(
        &["threshold", "--height", "14", "--tolerance", "1e-300"],
        &["--tolerance"],
    );
}

/// `reproduce` builds in a staging directory and moves the files into place at the
/// end, so an interrupted run leaves the previous run whole (its index and files); SIGINT
/// removes the staging directory. The staging directory is beside
/// `--out` (`.plots.reproduce.staging.PID`), one per run.
#[cfg(target_os = "linux")]
#[test]
fn interrupted_reproduce_leaves_the_previous_run_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("INDEX.md"), "previous index").unwrap();
    std::fs::write(out.join("table1.txt"), "previous table").unwrap();
    let mut child = process()
        .args(["reproduce", "--seed", "2", "--out"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the staging directory has some files, then interrupt.
    let staging = dir
        .path()
        .join(format!(".plots.reproduce.staging.{}", child.id()));
    let start = std::time::Instant::now();
    while std::fs::read_dir(&staging).map_or(0, |d| d.count()) < 3 {
        assert!(start.elapsed().as_secs() < 60, "no staged files");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_eq!(
        std::fs::read_to_string(out.join("INDEX.md")).unwrap(),
        "previous index"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("table1.txt")).unwrap(),
        "previous table"
    );
    assert!(!staging.exists(), "the staging directory was left behind");
    // Nor the lock file: only plots/ is left in the parent.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

/// A signal while a figure is being drawn leaves no `.NAME.partial.EXT`.
#[cfg(target_os = "linux")]
#[test]
fn a_signal_leaves_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("p.svg");
    // A long trajectory set whose plot is written last; interrupt while it runs.
    let mut child = process()
        .args([
            "errprop", "--gamma", "0.3", "--delta", "0.2", "--f", "0.7,0.8", "--steps", "100000",
            "--plot",
        ])
        .arg(&plot)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    // Finished before the signal (exit 0) or interrupted (130): never a partial file.
    assert!(matches!(status.code(), Some(0) | Some(130)), "{status:?}");
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.contains(".partial"), "left {name}");
    }
}

/// A rerun of `reproduce` leaves files whose bytes differ only in the commit line as
/// they were.
#[test]
fn reproduce_does_not_churn_on_a_new_commit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    pathology()
        .args(["reproduce", "--out"])
        .arg(&out)
        .assert()
        .success();
    let table = out.join("table1.txt");
    let text = std::fs::read_to_string(&table).unwrap();
    let commit_line = text
        .lines()
        .find(|l| l.starts_with("# commit: "))
        .expect("a commit line")
        .to_string();
    let older = text.replace(
        &commit_line,
        "# commit: 0123456789abcdef0123456789abcdef01234567",
    );
    std::fs::write(&table, &older).unwrap();
    let tampered = out.join("table2.txt");
    let mut t2 = std::fs::read_to_string(&tampered).unwrap();
    t2.push_str("tampered\n");
    std::fs::write(&tampered, &t2).unwrap();
    pathology()
        .args(["reproduce", "--out"])
        .arg(&out)
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&table).unwrap(), older);
    assert!(
        !std::fs::read_to_string(&tampered)
            .unwrap()
            .contains("tampered")
    );
}
