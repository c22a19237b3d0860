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
