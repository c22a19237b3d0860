//! Packaging: shell completions and the man page are generated from the clap definition.

use super::common::{refused, stdout_of};

#[test]
fn completions_name_the_subcommands_in_every_common_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let script = stdout_of(&["completions", shell]);
        for subcommand in ["reproduce", "exact", "validate", "errprop", "merge"] {
            assert!(
                script.contains(subcommand),
                "{shell} completion script does not mention {subcommand}"
            );
        }
    }
    // Options of a subcommand are completed too.
    assert!(stdout_of(&["completions", "bash"]).contains("--seed"));
}

#[test]
fn an_unknown_shell_is_refused() {
    refused(&["completions", "tcsh"], &["tcsh", "bash", "zsh"]);
    refused(&["completions"], &["<SHELL>"]);
}

#[test]
fn the_man_page_is_roff() {
    let page = stdout_of(&["man"]);
    // clap_mangen defines the quote string (.ie/.el) before the title macro; the first macro
    // after those is .TH.
    let first = page
        .lines()
        .find(|line| !line.starts_with(".ie") && !line.starts_with(".el"))
        .unwrap();
    assert!(first.starts_with(".TH pathology 1"), "{first}");
    assert!(page.contains(".SH NAME") && page.contains(".SH SYNOPSIS"));
    assert!(page.contains("reproduce"));
    assert!(page.contains("completions"));
}

/// The text of a file of the repository.
fn file(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The value of `key = "..."` in the first section of a TOML file that has it.
fn toml_string(text: &str, key: &str) -> String {
    text.lines()
        .find_map(|l| {
            l.strip_prefix(key)
                .and_then(|r| r.trim_start().strip_prefix('='))
                .map(|v| v.trim().trim_matches('"').to_string())
        })
        .unwrap_or_else(|| panic!("no {key}"))
}

#[test]
fn every_version_and_the_tag_text_name_the_same_release() {
    let version = toml_string(&file("Cargo.toml"), "version");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    assert_eq!(toml_string(&file("python/Cargo.toml"), "version"), version);
    assert_eq!(
        toml_string(&file("python/pyproject.toml"), "version"),
        version
    );
    let citation = file("CITATION.cff");
    assert!(
        citation.lines().any(|l| l == format!("version: {version}")),
        "CITATION.cff"
    );
    // The first version heading of the changelog is this version, under an empty Unreleased.
    let changelog = file("CHANGELOG.md");
    let headings: Vec<&str> = changelog.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(headings[0], "## [Unreleased]");
    assert!(
        headings[1].starts_with(&format!("## [{version}] - ")),
        "{}",
        headings[1]
    );
    let release = file("docs/release.md");
    let tag = release
        .split("\n## Tag text\n")
        .nth(1)
        .expect("a tag text section");
    assert!(
        tag.trim_start()
            .starts_with(&format!("pathology {version}:")),
        "{tag}"
    );
    assert!(release.contains(&format!("git tag -a v{version}")));
}

#[test]
fn the_python_distribution_is_minimax_pathology_in_every_install_line() {
    // `pathology` on the Python package index is an unrelated package.
    assert_eq!(
        toml_string(&file("python/pyproject.toml"), "name"),
        "minimax-pathology"
    );
    let mut pages = vec!["README.md".to_string(), "python/README.md".to_string()];
    for entry in
        std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")).unwrap()
    {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            pages.push(format!("docs/{name}"));
        }
    }
    // Every install command in a code block (prose may say what `pip install pathology` does).
    let mut installs = 0;
    for page in &pages {
        let text = file(page);
        let mut fenced = false;
        let commands = text.lines().filter(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
            }
            fenced && l.contains("pip install")
        });
        for line in commands {
            for word in line
                .split("pip install")
                .skip(1)
                .flat_map(|rest| rest.split('#').next().unwrap_or("").split_whitespace())
            {
                assert_ne!(
                    word.trim_matches(|c| c == '`' || c == '"'),
                    "pathology",
                    "{page}: {line}"
                );
                installs += usize::from(word.contains("minimax-pathology"));
            }
        }
    }
    assert!(
        installs >= 2,
        "the docs show how to install minimax-pathology"
    );
    let ci = file(".ci/run");
    assert!(ci.contains("minimax_pathology-0.1.0.tar.gz") && ci.contains("maturin sdist"));
}

#[test]
fn the_crate_manifest_has_what_a_registry_shows_and_leaves_out_the_plots() {
    let manifest = file("Cargo.toml");
    for key in [
        "description",
        "documentation",
        "readme",
        "license",
        "keywords",
        "categories",
    ] {
        assert!(
            manifest
                .lines()
                .any(|l| l.starts_with(&format!("{key} = "))),
            "Cargo.toml has no {key}"
        );
    }
    let list = |key: &str| -> usize {
        let line = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{key} = [")))
            .unwrap();
        line.matches('"').count() / 2
    };
    // The registry takes at most five of each.
    assert!(list("keywords") <= 5 && list("categories") <= 5);
    for excluded in ["\"/plots/\"", "\"/python/\""] {
        assert!(manifest.contains(excluded), "{excluded} not excluded");
    }
    assert!(file(".ci/run").contains("cargo package"));
}
