//! `pathology completions <shell>` and `pathology man`: shell completion scripts
//! (clap_complete) and a roff man page (clap_mangen), both generated from the same clap
//! definition the binary parses, so they cannot drift from the options.

use clap::CommandFactory;
use clap_complete::Shell;

/// Arguments of `pathology completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to write a completion script for (bash, elvish, fish, powershell, zsh).
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Arguments of `pathology man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// The subcommand whose page to print (`table`, `mc dgame` as `mc-dgame`); without it the
    /// main page pathology(1).
    #[arg(conflicts_with = "out")]
    pub subcommand: Option<String>,
    /// Write every page (pathology.1 and one pathology-SUBCOMMAND.1 per subcommand, nested ones
    /// as pathology-mc-dgame.1) into this directory instead of printing one.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
}

/// Writes the completion script for the chosen shell to standard output.
pub fn run_completions(args: CompletionsArgs) -> anyhow::Result<()> {
    let mut command = super::Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "pathology", &mut script);
    super::print(&String::from_utf8(script)?)
}

/// Every page: `(file stem, command)`, the main page first, then each subcommand's (nested
/// ones joined with `-`), named as the main page's SEE ALSO section names them.
fn pages() -> Vec<(String, clap::Command)> {
    fn walk(command: &clap::Command, stem: &str, out: &mut Vec<(String, clap::Command)>) {
        for sub in command.get_subcommands() {
            if sub.get_name() == "help" {
                continue;
            }
            let name = format!("{stem}-{}", sub.get_name());
            // clap names are `&'static str` without its `string` feature: a few short names,
            // made once per `pathology man`.
            let page: &'static str = name.clone().leak();
            out.push((
                name.clone(),
                sub.clone().name(page).bin_name(name.replace('-', " ")),
            ));
            walk(sub, &name, out);
        }
    }
    let mut command = super::Cli::command();
    command.build();
    let mut out = vec![("pathology".to_string(), command.clone())];
    walk(&command, "pathology", &mut out);
    out
}

fn render(command: clap::Command) -> anyhow::Result<Vec<u8>> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    Ok(page)
}

/// Writes the man page `pathology(1)` (roff) to standard output, or one subcommand's page,
/// or with `--out` every page into a directory (pathology.1 refers to pathology-table(1) and
/// the others by those names).
pub fn run_man(args: ManArgs) -> anyhow::Result<()> {
    let pages = pages();
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| {
            crate::Error::invalid(
                "--out",
                "a directory that can be created",
                format!("{} ({e})", dir.display()),
            )
        })?;
        let mut written = Vec::new();
        for (stem, command) in pages {
            let path = dir.join(format!("{stem}.1"));
            crate::report::output::write_atomically(&path, render(command)?).map_err(|e| {
                crate::Error::invalid(
                    "--out",
                    "a writable directory",
                    format!("{} ({e})", path.display()),
                )
            })?;
            written.push(path);
        }
        eprintln!("{} man pages written to {}", written.len(), dir.display());
        return Ok(());
    }
    let wanted = match &args.subcommand {
        None => "pathology".to_string(),
        Some(name) => format!("pathology-{}", name.replace(' ', "-")),
    };
    let Some((_, command)) = pages.into_iter().find(|(stem, _)| *stem == wanted) else {
        return Err(crate::Error::invalid(
            "SUBCOMMAND",
            "a subcommand of pathology (`pathology --help` lists them; nested ones as mc-dgame)",
            args.subcommand.unwrap_or_default(),
        )
        .into());
    };
    super::print(&String::from_utf8(render(command)?)?)
}
