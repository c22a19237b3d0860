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

/// Writes the man page `pathology(1)` (roff) to standard output, or one subcommand's page,
/// or with `--out` every page into a directory ([`crate::report::man`]).
pub fn run_man(args: ManArgs) -> anyhow::Result<()> {
    if let Some(dir) = &args.out {
        crate::report::output::check_directory("--out", dir)?;
        let written = crate::report::man::write_all(super::Cli::command(), dir)?;
        eprintln!("{} man pages written to {}", written.len(), dir.display());
        return Ok(());
    }
    let wanted = match &args.subcommand {
        None => "pathology".to_string(),
        Some(name) => format!("pathology-{}", name.replace(' ', "-")),
    };
    let pages = crate::report::man::pages(super::Cli::command());
    let Some((_, command)) = pages.into_iter().find(|(stem, _)| *stem == wanted) else {
        return Err(crate::Error::invalid(
            "SUBCOMMAND",
            "a subcommand of pathology (`pathology --help` lists them; nested ones as mc-dgame)",
            args.subcommand.unwrap_or_default(),
        )
        .into());
    };
    super::print(&String::from_utf8(crate::report::man::render(command)?)?)
}
