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
pub struct ManArgs {}

/// Writes the completion script for the chosen shell to standard output.
pub fn run_completions(args: CompletionsArgs) -> anyhow::Result<()> {
    let mut command = super::Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "pathology", &mut script);
    super::print(&String::from_utf8(script)?)
}

/// Writes the man page `pathology(1)` (roff) to standard output, with one section listing
/// the subcommands.
pub fn run_man(_args: ManArgs) -> anyhow::Result<()> {
    let command = super::Cli::command();
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    super::print(&String::from_utf8(page)?)
}
