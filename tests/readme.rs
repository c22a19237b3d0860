//! Every `$ pathology ...` block of the README (and of the pages under
//! `docs/`) is the real output of the command (the manifest, which the README leaves out,
//! masked), so the tour cannot drift.
//!
//! A fenced block whose lines start with `$ pathology` is run command by command (in a
//! temporary directory where `examples/`, `tests/` and `data/` are the repository's, standard output then standard
//! error), and each command's output must equal the lines that follow it up to the next `$`
//! line or the end of the block. A block preceded by a line `<!-- readme: not run (reason) -->`
//! is skipped, the reason saying why (e.g. it needs a file the README does not create).
//! `PATHOLOGY_UPDATE_README=1 cargo test --release --test integration readme` rewrites the
//! blocks with the real output, for review with `git diff`.

use crate::common::process;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Splits a command line like a POSIX shell does for the simple cases the README uses:
/// single and double quotes, backslash escapes outside single quotes, a `#` comment after
/// whitespace.
pub(crate) fn split(line: &str) -> Vec<String> {
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
pub(crate) struct Example {
    pub(crate) line: usize,
    pub(crate) words: Vec<String>,
    pub(crate) expected: Vec<String>,
}

/// The runnable blocks: `(index of the first line of the block's body, examples)`.
pub(crate) fn examples(readme: &str) -> Vec<(usize, usize, Vec<Example>)> {
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

/// Runs one command in `dir`. A command ending in `> FILE` writes its standard output, whole,
/// to FILE there (as a shell would) and shows only its standard error.
fn run(dir: &Path, words: &[String]) -> String {
    assert_eq!(words[0], "pathology");
    let (words, redirect) = match words.iter().position(|w| w == ">") {
        Some(at) => {
            assert_eq!(
                at + 2,
                words.len(),
                "`> FILE` must end the command: {words:?}"
            );
            (&words[..at], Some(dir.join(&words[at + 1])))
        }
        None => (words, None),
    };
    let output = process()
        .args(&words[1..])
        .current_dir(dir)
        .env_remove("PATHOLOGY_ESTIMATE")
        .output()
        .unwrap();
    let mut text = match redirect {
        Some(file) => {
            std::fs::write(file, &output.stdout).unwrap();
            String::new()
        }
        None => without_manifest(&String::from_utf8_lossy(&output.stdout)),
    };
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

/// Runs every block of one Markdown file; returns the failures (or rewrites the file's blocks
/// with `PATHOLOGY_UPDATE_README`) and the number of runnable blocks.
fn check_file(path: &Path, dir: &Path, update: bool) -> (Vec<String>, usize) {
    let readme = std::fs::read_to_string(path).unwrap();
    let name = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    let blocks = examples(&readme);
    let mut lines: Vec<String> = readme.lines().map(str::to_string).collect();
    let mut failures = Vec::new();
    // Rewritten from the last block up, so earlier line numbers stay valid.
    for (start, end, list) in blocks.iter().rev() {
        let mut body = Vec::new();
        for example in list {
            let actual = run(dir, &example.words);
            let expected = example.expected.join("\n");
            if actual.trim_end() != expected.trim_end() {
                failures.push(format!(
                    "{name} line {}: `{}`\n--- {name}\n{}\n--- actual\n{}",
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
        std::fs::write(path, text).unwrap();
    }
    (failures, blocks.len())
}

/// `README.md`, then every page of `docs/` (`*.md`) in name order.
fn readme_and_docs() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    let mut files = vec![root().join("README.md")];
    files.extend(docs);
    files
}

/// The README and the longer pages under `docs/` it links to.
#[test]
fn every_readme_command_prints_what_the_readme_shows() {
    let dir = tempfile::tempdir().unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(root().join("examples"), dir.path().join("examples")).unwrap();
        // docs/samples.md reads the example evaluation logs under tests/data/samples/.
        std::os::unix::fs::symlink(root().join("tests"), dir.path().join("tests")).unwrap();
        // and the real and synthetic evaluation data under data/samples/.
        std::os::unix::fs::symlink(root().join("data"), dir.path().join("data")).unwrap();
    }
    let update = std::env::var_os("PATHOLOGY_UPDATE_README").is_some();
    let files = readme_and_docs();
    let mut failures = Vec::new();
    for (i, path) in files.iter().enumerate() {
        let (mut found, blocks) = check_file(path, dir.path(), update);
        if i == 0 {
            assert!(
                blocks >= 5,
                "only {blocks} runnable blocks found in the README"
            );
        }
        failures.append(&mut found);
    }
    assert!(
        update || failures.is_empty(),
        "{} example(s) differ from the real output (PATHOLOGY_UPDATE_README=1 rewrites them):\n\n{}",
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

/// The README and docs state only what a claims table prints. Outside fenced
/// blocks (whose `$ pathology` commands the test above runs), a paragraph that uses a verdict
/// word (holds, fails, undecided, confirmed, ...) must carry a marker
/// `<!-- verdicts checked by: path::to::test_name -->` (in the paragraph, or alone in the
/// paragraph just before it) naming a test that exists and checks those sentences against the
/// claims table; quoted text (`"..."`, `` `...` ``) and the vocabulary itself ("holds / fails /
/// undecided") are not verdicts.
#[test]
fn no_verdict_in_the_docs_without_a_claims_table_behind_it() {
    const WORDS: [&str; 12] = [
        "hold",
        "holds",
        "held",
        "confirmed",
        "confirms",
        "confirm",
        "refuted",
        "fails",
        "fail",
        "failed",
        "undecided",
        "testable",
    ];
    let sources = test_sources();
    let files = readme_and_docs();
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let mut paragraphs: Vec<(usize, String)> = Vec::new();
        let mut fence = false;
        let mut current = String::new();
        let mut start = 0;
        for (i, line) in text.lines().enumerate() {
            if line.starts_with("```") {
                fence = !fence;
                continue;
            }
            if fence {
                continue;
            }
            if line.trim().is_empty() {
                if !current.is_empty() {
                    paragraphs.push((start, std::mem::take(&mut current)));
                }
                continue;
            }
            if current.is_empty() {
                start = i + 1;
            }
            current.push_str(line);
            current.push('\n');
        }
        if !current.is_empty() {
            paragraphs.push((start, current));
        }
        let mut carried: Option<String> = None;
        for (line, paragraph) in &paragraphs {
            let marker = verdict_marker(paragraph);
            let alone = marker.is_some()
                && paragraph.trim().starts_with("<!--")
                && paragraph.trim().ends_with("-->");
            if alone {
                carried = marker;
                continue;
            }
            let marker = marker.or(carried.take());
            let words = verdict_words(paragraph, &WORDS);
            if words.is_empty() {
                continue;
            }
            match marker {
                Some(test) => {
                    let name = test.rsplit("::").next().unwrap_or(&test).to_string();
                    if !sources.contains(&format!("fn {name}(")) {
                        failures.push(format!(
                            "{}:{line}: the marker names {test}, which is no test",
                            path.display()
                        ));
                    }
                }
                None => failures.push(format!(
                    "{}:{line}: verdict words {words:?} with no claims table behind them:\n{}",
                    path.display(),
                    paragraph.lines().next().unwrap_or("")
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `path::to::test` of a `<!-- verdicts checked by: path::to::test -->` marker.
fn verdict_marker(paragraph: &str) -> Option<String> {
    let at = paragraph.find("<!-- verdicts checked by:")?;
    let rest = &paragraph[at + "<!-- verdicts checked by:".len()..];
    let end = rest.find("-->")?;
    Some(rest[..end].trim().to_string())
}

/// The verdict words of `paragraph` outside quotes, code spans, HTML comments and the
/// vocabulary phrase.
fn verdict_words(paragraph: &str, words: &[&str]) -> Vec<String> {
    let mut text = String::new();
    let mut quote: Option<char> = None;
    let mut rest = paragraph;
    while let Some(c) = rest.chars().next() {
        if quote.is_none() && rest.starts_with("<!--") {
            let end = rest.find("-->").map_or(rest.len(), |e| e + 3);
            rest = &rest[end..];
            continue;
        }
        match (quote, c) {
            (None, '"' | '`' | '\u{201c}') => {
                quote = Some(if c == '\u{201c}' { '\u{201d}' } else { c })
            }
            (Some(q), _) if c == q => quote = None,
            (None, _) => text.push(c),
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    let lower = text
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let mut cleaned = lower.clone();
    for vocabulary in [
        "holds / fails / undecided / not testable",
        "holds / fails / undecided",
        "holds, fails, undecided",
        "{holds, fails, undecided}",
    ] {
        cleaned = cleaned.replace(vocabulary, " ");
    }
    cleaned
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| words.contains(w))
        .map(str::to_string)
        .collect()
}

/// Every Rust source of the package (library and tests), for the markers' test names.
fn test_sources() -> String {
    let mut all = String::new();
    let mut stack = vec![root().join("src"), root().join("tests")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                all.push_str(&std::fs::read_to_string(path).unwrap());
            }
        }
    }
    all
}

/// The README is a short front page (at most 200 lines); the rest is the guide
/// under `docs/`, and every relative link of the README and the guide leads to a file that
/// exists.
#[test]
fn the_readme_is_short_and_its_links_resolve() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 200, "README.md has {lines} lines");
    let files = readme_and_docs();
    let mut broken = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let dir = path.parent().unwrap();
        let mut fence = false;
        for line in text.lines() {
            if line.starts_with("```") {
                fence = !fence;
            }
            if fence {
                continue;
            }
            let mut rest = line;
            while let Some(at) = rest.find("](") {
                rest = &rest[at + 2..];
                let Some(end) = rest.find(')') else { break };
                let target = &rest[..end];
                rest = &rest[end..];
                if target.contains("://")
                    || target.starts_with('#')
                    || target.starts_with("mailto:")
                {
                    continue;
                }
                let file = target.split('#').next().unwrap_or(target);
                if !dir.join(file).exists() {
                    broken.push(format!("{}: {target}", path.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
