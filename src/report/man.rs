//! Man pages (roff, clap_mangen) of a clap command tree: one page for the command and one per
//! subcommand, nested ones joined with `-` (`pathology-mc-dgame`), as the main page's SEE ALSO
//! section names them. The command line (`pathology man`) passes its own parser, so the pages
//! cannot drift from the options.

use std::path::{Path, PathBuf};

/// Every page of `command`: `(file stem, command)`, the main page first, then each
/// subcommand's, depth first.
///
/// # Examples
///
/// ```
/// let command = clap::Command::new("tool").subcommand(clap::Command::new("run"));
/// let pages = pathology::report::man::pages(command);
/// let stems: Vec<&str> = pages.iter().map(|(stem, _)| stem.as_str()).collect();
/// assert_eq!(stems, ["tool", "tool-run"]);
/// ```
pub fn pages(mut command: clap::Command) -> Vec<(String, clap::Command)> {
    fn walk(command: &clap::Command, stem: &str, out: &mut Vec<(String, clap::Command)>) {
        for sub in command.get_subcommands() {
            if sub.get_name() == "help" {
                continue;
            }
            let name = format!("{stem}-{}", sub.get_name());
            // clap names are `&'static str` without its `string` feature: a few short names,
            // made once per call.
            let page: &'static str = name.clone().leak();
            out.push((
                name.clone(),
                sub.clone().name(page).bin_name(name.replace('-', " ")),
            ));
            walk(sub, &name, out);
        }
    }
    command.build();
    let stem = command.get_name().to_string();
    let mut out = vec![(stem.clone(), command.clone())];
    walk(&command, &stem, &mut out);
    out
}

/// The sections clap_mangen does not write, in roff, after the options and subcommands of
/// every page: EXIT STATUS, ENVIRONMENT and EXAMPLES (the example is the page's own command).
fn extra_sections(command: &clap::Command) -> String {
    let name = command
        .get_bin_name()
        .unwrap_or_else(|| command.get_name())
        .to_string();
    let main = !name.contains(' ');
    let example = if main {
        "pathology decision \\-\\-height 10 \\-\\-f1 0.3 \\-\\-f2 0.3\n.br\npathology reproduce\n.br\npathology man \\-\\-out ~/.local/share/man/man1".to_string()
    } else {
        format!("{} \\-\\-help", name.replace('-', "\\-"))
    };
    format!(
        ".SH \"EXIT STATUS\"\n\
         .TP\n0\nSuccess (also for \\fB\\-\\-help\\fR, \\fB\\-\\-version\\fR and a closed pipe).\n\
         .TP\n1\nAn error that is not the input's (an output that cannot be written); for \\fBvalidate\\fR, rows that disagree with their exact values.\n\
         .TP\n2\nBad input: a usage error or a value outside its range (the message names the argument and the range), work refused up front as too large (the message gives the estimate); for \\fBvalidate\\fR, malformed rows.\n\
         .SH ENVIRONMENT\n\
         .TP\nPATHOLOGY_ESTIMATE\nWhen set (to any value), every up\\-front cost check that accepts a run prints its estimate on standard error.\n\
         .SH EXAMPLES\n{example}\n"
    )
}

/// One page in roff: clap_mangen's sections, then EXIT STATUS, ENVIRONMENT and EXAMPLES,
/// then VERSION.
///
/// # Examples
///
/// ```
/// let page = pathology::report::man::render(pathology::cli::command()).unwrap();
/// let page = String::from_utf8(page).unwrap();
/// for section in [".SH NAME", ".SH \"EXIT STATUS\"", ".SH ENVIRONMENT", ".SH EXAMPLES"] {
///     assert!(page.contains(section), "{section}");
/// }
/// ```
pub fn render(command: clap::Command) -> std::io::Result<Vec<u8>> {
    let mut page = Vec::new();
    let extra = extra_sections(&command);
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    if command.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut page)?;
    }
    if command.get_subcommands().any(|s| !s.is_hide_set()) {
        man.render_subcommands_section(&mut page)?;
    }
    if command.get_after_long_help().is_some() || command.get_after_help().is_some() {
        man.render_extra_section(&mut page)?;
    }
    page.extend_from_slice(extra.as_bytes());
    if command.get_version().is_some() || command.get_long_version().is_some() {
        man.render_version_section(&mut page)?;
    }
    Ok(page)
}

/// Writes every page of `command` into `dir` (created if missing) as `STEM.1`; returns the
/// paths. Errors name `--out` and the path.
pub fn write_all(command: clap::Command, dir: &Path) -> crate::Result<Vec<PathBuf>> {
    let invalid = |what: &str, path: &Path, e: std::io::Error| {
        crate::Error::invalid("--out", what, format!("{} ({e})", path.display()))
    };
    std::fs::create_dir_all(dir).map_err(|e| invalid("a directory that can be created", dir, e))?;
    let mut written = Vec::new();
    for (stem, page) in pages(command) {
        let path = dir.join(format!("{stem}.1"));
        let bytes = render(page).map_err(|e| invalid("a writable directory", &path, e))?;
        super::output::write_atomically(&path, bytes)
            .map_err(|e| invalid("a writable directory", &path, e))?;
        written.push(path);
    }
    Ok(written)
}
