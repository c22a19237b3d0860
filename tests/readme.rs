//! Issue 26, item 10: every `$ pathology ...` block of the README is the real output of the
//! command (the manifest, which the README leaves out, masked), so the tour cannot drift.
//!
//! A fenced block whose lines start with `$ pathology` is run command by command (in a
//! temporary directory where `examples/` is the repository's, standard output then standard
//! error), and each command's output must equal the lines that follow it up to the next `$`
//! line or the end of the block. A block preceded by a line `<!-- readme: not run (reason) -->`
//! is skipped, the reason saying why (e.g. it needs a file the README does not create).
//! `PATHOLOGY_UPDATE_README=1 cargo test --release --test integration readme` rewrites the
//! blocks with the real output, for review with `git diff`.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Splits a command line like a POSIX shell does for the simple cases the README uses:
/// single and double quotes, backslash escapes outside single quotes, a `#` comment after
/// whitespace.
fn split(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for d in chars.by_ref() {
                    if d == '\'' {
                        break;
                    }
                    word.push(d);
                }
            }
            '"' => {
                in_word = true;
                while let Some(d) = chars.next() {
                    match d {
                        '"' => break,
                        '\\' => {
                            if let Some(e) = chars.next() {
                                word.push(e);
                            }
                        }
                        _ => word.push(d),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(e) = chars.next() {
                    word.push(e);
                }
            }
            '#' if !in_word => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The output without its manifest (the trailing `# ...` lines of the text format) and
/// without trailing blank lines.
fn without_manifest(text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    while lines
        .last()
        .is_some_and(|l| l.starts_with("# ") || l.trim().is_empty())
    {
        lines.pop();
    }
    lines.join("\n")
}

/// One command of a block: its line in the README, its words and the expected output.
struct Example {
    line: usize,
    words: Vec<String>,
    expected: Vec<String>,
}

/// The runnable blocks: `(index of the first line of the block's body, examples)`.
fn examples(readme: &str) -> Vec<(usize, usize, Vec<Example>)> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with("```") {
            i += 1;
            continue;
        }
        let skipped = i > 0 && lines[i - 1].starts_with("<!-- readme: not run");
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && !lines[end].starts_with("```") {
            end += 1;
        }
        let body = &lines[start..end];
        if !skipped && body.first().is_some_and(|l| l.starts_with("$ pathology ")) {
            let mut list: Vec<Example> = Vec::new();
            for (k, l) in body.iter().enumerate() {
                if let Some(command) = l.strip_prefix("$ ") {
                    list.push(Example {
                        line: start + k + 1,
                        words: split(command),
                        expected: Vec::new(),
                    });
                } else if let Some(last) = list.last_mut() {
                    last.expected.push(l.to_string());
                }
            }
            blocks.push((start, end, list));
        }
        i = end + 1;
    }
    blocks
}

fn run(dir: &Path, words: &[String]) -> String {
    assert_eq!(words[0], "pathology");
    let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("pathology"))
        .args(&words[1..])
        .current_dir(dir)
        .env_remove("PATHOLOGY_ESTIMATE")
        .output()
        .unwrap();
    let mut text = without_manifest(&String::from_utf8_lossy(&output.stdout));
    let err = String::from_utf8_lossy(&output.stderr);
    let err = err.trim_end();
    if !err.is_empty() {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(err);
    }
    text
}

#[test]
fn every_readme_command_prints_what_the_readme_shows() {
    let path = root().join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let dir = tempfile::tempdir().unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(root().join("examples"), dir.path().join("examples")).unwrap();
    let update = std::env::var_os("PATHOLOGY_UPDATE_README").is_some();
    let blocks = examples(&readme);
    assert!(
        blocks.len() >= 5,
        "only {} runnable blocks found",
        blocks.len()
    );
    let mut lines: Vec<String> = readme.lines().map(str::to_string).collect();
    let mut failures = Vec::new();
    // Rewritten from the last block up, so earlier line numbers stay valid.
    for (start, end, list) in blocks.iter().rev() {
        let mut body = Vec::new();
        for example in list {
            let actual = run(dir.path(), &example.words);
            let expected = example.expected.join("\n");
            if actual.trim_end() != expected.trim_end() {
                failures.push(format!(
                    "README line {}: `{}`\n--- README\n{}\n--- actual\n{}",
                    example.line,
                    example.words.join(" "),
                    expected,
                    actual
                ));
            }
            body.push(format!(
                "$ {}",
                lines[example.line - 1].trim_start_matches("$ ")
            ));
            body.extend(actual.lines().map(str::to_string));
        }
        if update {
            lines.splice(*start..*end, body);
        }
    }
    if update {
        let mut text = lines.join("\n");
        text.push('\n');
        std::fs::write(&path, text).unwrap();
        return;
    }
    assert!(
        failures.is_empty(),
        "{} README example(s) differ from the real output (PATHOLOGY_UPDATE_README=1 rewrites them):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_splitter_reads_the_readme_s_quoting() {
    assert_eq!(
        split(r#"pathology alphabeta --board "........O"   # Ross's position"#),
        ["pathology", "alphabeta", "--board", "........O"]
    );
    assert_eq!(split("a 'b c' d\\ e"), ["a", "b c", "d e"]);
    assert_eq!(without_manifest("x\n\n# tool: t\n# seed: 1\n"), "x");
}
