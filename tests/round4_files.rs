//! Issue 34 (reliability, round 4): the file-system and input items, one regression test each
//! (the release binary run as a user would). Item 1: two `reproduce` runs into one `--out`;
//! item 2: an interrupted `reproduce` leaves `--out` whole; item 4: `--out`/`--plot` replace a
//! symbolic link; item 13: endless input is refused; item 14: options and output paths are
//! checked before any work; and two of the "Unclear" findings.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{pathology, refused};

fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("pathology")
}

/// The quick steps of `reproduce` used here: the exact tables (1) and the cross-validation
/// (5), which is seeded, so a mix of two runs shows in the files' seeds.
const QUICK_STEPS: &str = "1,5";

fn quick_reproduce(out: &Path, seed: u64) -> Command {
    let mut command = Command::new(bin());
    command
        .args([
            "reproduce",
            "--steps",
            QUICK_STEPS,
            "--threads",
            "1",
            "--seed",
        ])
        .arg(seed.to_string())
        .arg("--out")
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    command
}

/// Checks that `out` holds one run's files whole: every file but `extra` is listed by
/// INDEX.md and every listed file is there, the index names one seed, and every manifest
/// line `# seed: N` of every file names that one. Returns the seed (`None` when `out` holds no
/// run yet: no INDEX.md and no file but `extra`).
fn one_whole_run(out: &Path, extra: &[&str]) -> Option<u64> {
    let names: BTreeSet<String> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !extra.contains(&n.as_str()))
        .collect();
    let Ok(index) = std::fs::read_to_string(out.join("INDEX.md")) else {
        assert!(names.is_empty(), "files without an index: {names:?}");
        return None;
    };
    let mut listed = BTreeSet::from(["INDEX.md".to_string()]);
    let mut seeds = BTreeSet::new();
    for line in index.lines().filter(|l| l.starts_with("| [")) {
        let file = line[3..line.find(']').unwrap()].to_string();
        let seed = line.trim_end_matches(" |").rsplit("| ").next().unwrap();
        if seed != "-" {
            seeds.insert(seed.parse::<u64>().unwrap());
        }
        listed.insert(file);
    }
    assert_eq!(
        names,
        listed,
        "the files of {} and its index differ",
        out.display()
    );
    assert_eq!(seeds.len(), 1, "INDEX.md names the seeds {seeds:?}");
    let seed = *seeds.first().unwrap();
    for name in &names {
        let text = std::fs::read_to_string(out.join(name)).unwrap_or_default();
        for line in text.lines() {
            // The manifests' base seed (the commands listed in crossval.txt derive their own).
            for key in ["# seed: "] {
                if let Some(at) = line.find(key) {
                    let rest = &line[at + key.len()..];
                    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    assert_eq!(
                        digits,
                        seed.to_string(),
                        "{name} names another seed than INDEX.md: {line}"
                    );
                }
            }
        }
    }
    Some(seed)
}

/// The entries beside `out` in its parent, but `out` itself.
fn leftovers_beside(out: &Path) -> Vec<String> {
    let name = out.file_name().unwrap().to_string_lossy().into_owned();
    std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| *n != name)
        .collect()
}

/// Item 1: a second `reproduce` into the `--out` of a running one is refused (exit 2, naming
/// `--out` and the running process), and the directory ends with the first run's files
/// alone, its INDEX.md naming that run's seed. (Before: the second run deleted the first
/// one's staging directory and the result mixed the two seeds.)
#[cfg(target_os = "linux")]
#[test]
fn a_second_reproduce_into_one_out_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    let mut first = quick_reproduce(&out, 111).spawn().unwrap();
    let lock = dir.path().join(".plots.reproduce.lock");
    let pid = first.id().to_string();
    let start = Instant::now();
    while std::fs::read_to_string(&lock).map_or(true, |t| t != pid) {
        assert!(start.elapsed() < Duration::from_secs(60), "no lock taken");
        std::thread::sleep(Duration::from_millis(5));
    }
    let second = quick_reproduce(&out, 222).output().unwrap();
    let err = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--out") && err.contains(&format!("process {pid}")),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(first.wait().unwrap().success());
    assert_eq!(one_whole_run(&out, &[]), Some(111));
    // Nothing is left beside plots/ (no lock file, no staging directory).
    assert_eq!(leftovers_beside(&out), Vec::<String>::new());
}

/// Item 2: a run killed (SIGKILL or SIGINT) at any moment leaves `--out` whole: either the
/// previous run's files with its index, or the new run's, never a mix; a file the user put
/// there survives every run. Killed runs leave nothing the next run does not clean up.
#[cfg(target_os = "linux")]
#[test]
fn a_killed_reproduce_leaves_out_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("mine.txt"), "the user's").unwrap();
    let first = quick_reproduce(&out, 1).output().unwrap();
    assert!(first.status.success());
    let mut expected = Some(1);
    assert_eq!(one_whole_run(&out, &["mine.txt"]), expected);
    // Kill times spread over a run (about 2-4 s here), the last ones late enough to land
    // in or after the switch.
    let delays_ms = [150u64, 700, 1300, 2100, 2600, 3100, 3600, 5000];
    for (i, delay) in delays_ms.into_iter().enumerate() {
        let seed = 10 + i as u64;
        let mut child = quick_reproduce(&out, seed).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        let signal = if i % 2 == 0 { "-KILL" } else { "-INT" };
        Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        let status = child.wait().unwrap();
        let now = one_whole_run(&out, &["mine.txt"]);
        if status.success() {
            expected = Some(seed); // it finished before the signal
        }
        assert!(
            now == expected || now == Some(seed),
            "run {i} ({signal} after {delay} ms, {status}): seed {now:?}, expected {expected:?} or {seed}"
        );
        expected = now;
        if signal == "-INT" {
            // The handler removes the staging directory and the lock file.
            assert_eq!(
                leftovers_beside(&out),
                Vec::<String>::new(),
                "after {signal}"
            );
        }
        assert_eq!(
            std::fs::read_to_string(out.join("mine.txt")).unwrap(),
            "the user's"
        );
    }
    // The next run cleans up what SIGKILL left.
    assert!(quick_reproduce(&out, 99).output().unwrap().status.success());
    assert_eq!(one_whole_run(&out, &["mine.txt"]), Some(99));
    assert_eq!(leftovers_beside(&out), Vec::<String>::new());
}

/// Item 2: a staging directory and a lock file left by a killed run (SIGKILL leaves both) are
/// no obstacle: the next run removes the stale staging directory under a fresh lock.
#[cfg(target_os = "linux")]
#[test]
fn stale_staging_and_lock_are_cleaned_up() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    let stale = dir.path().join(".plots.reproduce.staging.1");
    std::fs::create_dir_all(&stale).unwrap();
    std::fs::write(stale.join("table1.txt"), "half a run").unwrap();
    std::fs::write(dir.path().join(".plots.reproduce.lock"), "1").unwrap();
    assert!(quick_reproduce(&out, 5).output().unwrap().status.success());
    assert_eq!(one_whole_run(&out, &[]), Some(5));
    assert_eq!(leftovers_beside(&out), Vec::<String>::new());
}

/// "Unclear": `reproduce --out` naming a regular file or a FIFO is refused naming `--out` and
/// what is there (before: "creating the directory afile: File exists").
#[cfg(target_os = "linux")]
#[test]
fn reproduce_out_that_is_not_a_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("afile");
    std::fs::write(&file, "").unwrap();
    let fifo = dir.path().join("pipe");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for (path, what) in [(&file, "an existing regular file"), (&fifo, "a FIFO")] {
        let path = path.to_str().unwrap();
        refused(
            &["reproduce", "--out", path],
            &["--out must be a directory", what],
        );
    }
}

/// A directory with one symbolic link named `name` to a file `target` holding "keep".
#[cfg(unix)]
fn dir_with_link(name: &str) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.txt");
    std::fs::write(&target, "keep").unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let link = out.join(name);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    (dir, link, target)
}

/// The link was replaced by a regular file and its target kept its bytes.
#[cfg(unix)]
fn link_replaced(link: &Path, target: &Path) {
    let meta = std::fs::symlink_metadata(link).unwrap();
    assert!(meta.is_file(), "{} is still a link", link.display());
    assert_eq!(std::fs::read_to_string(target).unwrap(), "keep");
}

/// Item 4: one rule for every command, as `reproduce` had it: a symbolic link at an output
/// path is replaced by the new file and its target is untouched (before: `trend`,
/// `mc emm-calibrate`, `--plot`, `man` and `mc match-sweep` overwrote the target).
#[cfg(unix)]
#[test]
fn outputs_replace_symbolic_links() {
    // trend --out DIR, DIR/trend.csv a link.
    let (_d, link, target) = dir_with_link("trend.csv");
    let out = link.parent().unwrap().to_str().unwrap().to_string();
    pathology()
        .args(["trend", "--from", "10", "--to", "11", "--grid", "10"])
        .args(["--peak-grid", "10", "--out", &out])
        .assert()
        .success();
    link_replaced(&link, &target);
    // mc match-sweep --out DIR, DIR/chi_nau_fig3.csv a link.
    let (_d, link, target) = dir_with_link("chi_nau_fig3.csv");
    let out = link.parent().unwrap().to_str().unwrap().to_string();
    pathology()
        .args([
            "mc",
            "match-sweep",
            "--pairs",
            "5",
            "--threads",
            "1",
            "--out",
            &out,
        ])
        .assert()
        .success();
    link_replaced(&link, &target);
    // man --out DIR, DIR/pathology.1 a link.
    let (_d, link, target) = dir_with_link("pathology.1");
    let out = link.parent().unwrap().to_str().unwrap().to_string();
    pathology().args(["man", "--out", &out]).assert().success();
    link_replaced(&link, &target);
    // mc emm-calibrate --out FILE, a link.
    let (_d, link, target) = dir_with_link("calibration.json");
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
    link_replaced(&link, &target);
    assert!(std::fs::read_to_string(&link).unwrap().starts_with('{'));
    // errprop --plot FILE, a link.
    let (_d, link, target) = dir_with_link("p.svg");
    pathology()
        .args([
            "errprop", "--gamma", "0.1", "--delta", "0.1", "--f", "0.5", "--steps", "3",
        ])
        .arg("--plot")
        .arg(&link)
        .assert()
        .success();
    link_replaced(&link, &target);
    assert!(std::fs::read_to_string(&link).unwrap().contains("<svg"));
}

/// Item 4: a link to a character device is still written through (the device stays, nothing
/// is renamed over the link).
#[cfg(target_os = "linux")]
#[test]
fn a_link_to_a_device_is_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("null.json");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
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
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

/// A command that must be refused within a minute (endless input is not read to the end).
fn refused_in_time(command: &mut assert_cmd::Command, mentions: &[&str]) {
    let mut assert = command
        .timeout(Duration::from_secs(120))
        .assert()
        .code(2)
        .stdout(predicates::str::is_empty());
    for m in mentions {
        assert = assert.stderr(predicates::str::contains(*m));
    }
}

/// Item 13: endless input (`/dev/zero`) is refused naming the option or file and the cap, for
/// `--histogram`, `merge`, `validate` and a `validate` row naming the file (before: each read
/// until memory ran out).
#[cfg(target_os = "linux")]
#[test]
fn endless_input_is_refused() {
    refused_in_time(
        pathology().args([
            "decision",
            "--game",
            "crit",
            "--gamma",
            "0.5",
            "--height",
            "4",
            "--evaluator",
            "histogram",
            "--histogram",
            "/dev/zero",
        ]),
        &["--histogram", "/dev/zero", "256 MiB"],
    );
    refused_in_time(
        pathology().args(["merge", "/dev/zero"]),
        &["/dev/zero", "256 MiB"],
    );
    refused_in_time(
        pathology().args(["validate", "/dev/zero"]),
        &["65536 bytes"],
    );
    // A JSON input is read whole: the cap holds it too (a "{" then endless blanks).
    refused_in_time(
        pathology()
            .args(["validate", "-"])
            .write_stdin(format!("{{{}", " ".repeat(300 << 20))),
        &["256 MiB"],
    );
    let rows = "kind,height,depth,gamma,evaluator,histogram,estimate,trials\n\
                crit,4,1,0.5,histogram,/dev/zero,0.5,100\n";
    let out = pathology()
        .args(["validate", "-"])
        .write_stdin(rows)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("256 MiB") && text.contains("/dev/zero"),
        "{text}"
    );
}

/// Item 14: a typo in `--table` and an `--out` that is a file are refused before any work:
/// exit 2, nothing on standard output, no directory created. The settings would run for
/// minutes if the work started first.
#[test]
fn options_are_checked_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("fresh");
    let fresh = fresh.to_str().unwrap();
    refused(
        &[
            "trend", "--from", "10", "--to", "17", "--table", "bogus", "--out", fresh,
        ],
        &["--table must be one of trend, got bogus"],
    );
    assert!(!Path::new(fresh).exists(), "trend created its --out");
    let afile = dir.path().join("afile");
    std::fs::write(&afile, "").unwrap();
    refused(
        &[
            "trend",
            "--from",
            "10",
            "--to",
            "17",
            "--out",
            afile.to_str().unwrap(),
        ],
        &["--out must be a directory", "an existing regular file"],
    );
    refused(
        &["man", "--out", afile.to_str().unwrap()],
        &["--out must be a directory", "an existing regular file"],
    );
    refused(
        &[
            "mc",
            "match-sweep",
            "--pairs",
            "100000000",
            "--table",
            "bogus",
        ],
        &["--table", "bogus"],
    );
    refused(
        &["mc", "uct", "--games", "100000000", "--table", "bogus"],
        &["--table", "bogus"],
    );
    refused(
        &["mc", "kalah", "--boards", "100000000", "--table", "bogus"],
        &["--table", "bogus"],
    );
    let plot_dir = dir.path().join("p.svg");
    std::fs::create_dir(&plot_dir).unwrap();
    refused(
        &[
            "errprop",
            "--gamma",
            "0.1",
            "--delta",
            "0.1",
            "--f",
            "0.5",
            "--steps",
            "100000",
            "--plot",
            plot_dir.to_str().unwrap(),
        ],
        &["--plot must be a file that can be written", "a directory"],
    );
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
        let out = Command::new(bin()).arg(flag).stdout(full).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{flag}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("standard output"),
            "{flag}"
        );
    }
    let mut child = Command::new(bin())
        .arg("--help")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away at once
    assert_eq!(child.wait().unwrap().code(), Some(0));
}
