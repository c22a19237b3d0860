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

/// One page in roff.
pub fn render(command: clap::Command) -> std::io::Result<Vec<u8>> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
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
