//! Where output files go and how they are replaced (the release binary run as a user would):
//! two `reproduce` runs into one `--out` are refused; an interrupted or failed `reproduce`
//! leaves `--out` whole and says so; `--out`/`--plot` replace a symbolic link; commands write
//! files only where told; `reproduce --only` regenerates one file.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{pathology, process, refused, stdout_of};

/// The quick steps of `reproduce` used here: the exact tables (1) and the cross-validation
/// (5), which is seeded, so a mix of two runs shows in the files' seeds.
const QUICK_STEPS: &str = "1,5";

fn quick_reproduce(out: &Path, seed: u64) -> Command {
    let mut command = process();
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

/// A second `reproduce` into the `--out` of a running one is refused (exit 2, naming
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

/// A run killed (SIGKILL or SIGINT) at any moment leaves `--out` whole: either the
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

/// A staging directory and a lock file left by a killed run (SIGKILL leaves both) are
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

/// One rule for every command, as `reproduce` had it: a symbolic link at an output
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

/// A link to a character device is still written through (the device stays, nothing
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

#[test]
fn reproduce_into_a_full_standard_output_fails_before_replacing_out() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    pathology()
        .args(["reproduce", "--steps", "1", "--out"])
        .arg(&out)
        .assert()
        .success();
    let index = std::fs::read_to_string(out.join("INDEX.md")).unwrap();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = process()
        .args(["reproduce", "--steps", "2", "--out"])
        .arg(&out)
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("writing the summary to standard output") && err.contains("unchanged"),
        "{err}"
    );
    // The previous generation is in place, and nothing of the failed run is left beside it.
    assert_eq!(
        std::fs::read_to_string(out.join("INDEX.md")).unwrap(),
        index
    );
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, vec!["plots".to_string()]);
}

/// `trend` writes no file unless --out names a directory (it wrote trend.csv and two
/// figures into the current directory); the figure commands name their default directory;
/// `mc study-figures` takes --threads; `errprop figures` writes Li & Marsland's figures only.
#[test]
fn commands_write_files_only_where_told() {
    let cwd = tempfile::tempdir().unwrap();
    pathology()
        .current_dir(cwd.path())
        .args(["trend", "--from", "10", "--to", "10"])
        .assert()
        .success();
    assert_eq!(std::fs::read_dir(cwd.path()).unwrap().count(), 0);
    pathology()
        .current_dir(cwd.path())
        .args(["trend", "--from", "10", "--to", "10", "--out", "t"])
        .assert()
        .success();
    assert!(cwd.path().join("t/trend.csv").exists());

    let command = pathology::cli::command();
    let default_out = |path: &[&str]| -> String {
        let mut c = &command;
        for name in path {
            c = c.find_subcommand(name).unwrap();
        }
        let out = c.get_arguments().find(|a| a.get_id() == "out").unwrap();
        out.get_default_values()[0].to_string_lossy().into_owned()
    };
    assert_eq!(default_out(&["mc", "emm-figures"]), "emm-figures");
    assert_eq!(default_out(&["mc", "study-figures"]), "study-figures");
    assert_eq!(default_out(&["errprop", "figures"]), "errprop-figures");
    assert!(
        command
            .clone()
            .try_get_matches_from(["pathology", "mc", "study-figures", "--threads", "1"])
            .is_ok()
    );

    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("figures");
    stdout_of(&["errprop", "figures", "--out", dir.to_str().unwrap()]);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(
        names.iter().any(|n| n == "dgame_fig4_pairs.txt"),
        "{names:?}"
    );
    for name in &names {
        assert!(
            name.starts_with("errprop_") || name.starts_with("dgame_fig4"),
            "{name} is not one of Li & Marsland's figures"
        );
    }
}

/// An interrupt says what it left unchanged (it was silent).
#[cfg(unix)]
#[test]
fn an_interrupt_says_the_output_is_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plots");
    let child = process()
        .args(["reproduce", "--out", out.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains(&format!("interrupted; {} unchanged", out.display())),
        "{stderr}"
    );
}

/// `reproduce --only NAME` regenerates one file alone, byte for byte as a run of its
/// step writes it, and INDEX.md gives each file a command that regenerates it alone.
#[test]
fn reproduce_only_regenerates_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    stdout_of(&[
        "reproduce",
        "--steps",
        "1,2",
        "--out",
        whole.to_str().unwrap(),
    ]);
    let index = std::fs::read_to_string(whole.join("INDEX.md")).unwrap();
    let rows: Vec<&str> = index.lines().filter(|l| l.starts_with("| [")).collect();
    assert!(rows.len() > 20);
    for row in &rows {
        let command = row.split('`').nth(1).unwrap();
        assert!(
            !command.starts_with("pathology reproduce") || command.contains(" --only "),
            "{row}"
        );
    }
    let rhf_row = rows
        .iter()
        .find(|r| r.starts_with("| [rhf_chi_nau_fig2.png]"))
        .unwrap();
    assert!(
        rhf_row.contains("`pathology reproduce --only rhf_chi_nau_fig2.png`"),
        "{rhf_row}"
    );
    let only = dir.path().join("only");
    std::fs::create_dir(&only).unwrap();
    std::fs::write(only.join("mine.txt"), "a file of the user's").unwrap();
    for name in ["rhf_chi_nau_fig2.png", "table1.md"] {
        let printed = stdout_of(&["reproduce", "--only", name, "--out", only.to_str().unwrap()]);
        assert!(printed.contains(name), "{printed}");
        assert_eq!(
            std::fs::read(only.join(name)).unwrap(),
            std::fs::read(whole.join(name)).unwrap(),
            "{name}"
        );
    }
    let mut left: Vec<String> = std::fs::read_dir(&only)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["mine.txt", "rhf_chi_nau_fig2.png", "table1.md"]);
    for bad in ["INDEX.md", "nonsense.png", "../table1.md"] {
        refused(
            &["reproduce", "--only", bad, "--out", only.to_str().unwrap()],
            &["--only"],
        );
    }
}
