//! **Layer 10, the command line.** May import every layer below. One file per subcommand: it
//! parses arguments (clap), calls one library function and hands the report to an exporter;
//! no row is built here. The binary (`src/main.rs`) calls [`main`]; [`command`] is the parser
//! itself (for completions, man pages, and the tests that walk every option).

mod alphabeta;
mod args;
mod ballard;
mod closed_form;
mod completions;
mod decision;
mod dgame;
mod domain;
mod domain_chess;
mod domain_puzzle;
mod emm;
mod errprop;
mod exact;
mod ggame;
mod inference;
mod matches;
mod mc;
mod merge;
mod reproduce;
mod samples;
mod studies;
mod sweep;
mod table;
mod threshold;
mod trend;
mod uct;
mod validate;
mod variety;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `--version`: the package version and the git commit the binary was built from (`-dirty`
/// when the sources had uncommitted changes, `unknown` outside a git checkout).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("PATHOLOGY_GIT_COMMIT"),
    ")"
);

/// Exact probabilities of minimax search pathology.
#[derive(Debug, Parser)]
// Help is wrapped to the terminal's width (the COLUMNS variable when standard output is not
// a terminal), at most 100 columns.
#[command(name = "pathology", version = VERSION, about, long_about = None, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Regenerate the papers' tables and figures into plots/ (the main job).
    Reproduce(reproduce::Args),
    /// D(d,h), the probability of a correct decision at search depth d, for every game
    /// family: Li & Marsland's D-games (--f1 with --f2 or --p0) and --game d (b-ary D-games),
    /// p (P-games), n (N-games), crit (the critical game), g (G-games), sum (path-sum trees);
    /// f64 or --exact.
    Decision(Box<decision::Args>),
    /// Li & Marsland's Table 1 (f1 = f2) or Table 2 (f1 + f2 = 1): D(d,10) and PS.
    Table(table::Args),
    /// Alias of `decision` for Li & Marsland's D-games (--f1 with --f2 or --p0), kept for
    /// scripts: D(d,h) for every depth d (or one) and PS.
    Dgame(dgame::Args),
    /// Alias of `decision` for --game d|p|n|crit|g|sum (every family but Li & Marsland's
    /// D-games), kept for scripts.
    Exact(Box<exact::Args>),
    /// D(d,h) and PS over a range of f1.
    Sweep(sweep::Args),
    /// The largest f = f1 = f2 found pathological on the grid k/N, refined by bisection: certified
    /// that no grid point above it is pathological (points between grid points are not checked).
    Threshold(threshold::Args),
    /// How the threshold and the peak of PS move with the height h.
    Trend(trend::Args),
    /// Check your own simulation results (CSV) against the exact values.
    Validate(validate::Args),
    /// Li & Marsland's gamma/delta error-propagation map: trajectories, thresholds, fixed points.
    Errprop(Box<errprop::Args>),
    /// Chi & Nau's rate of heuristic flaw rhf(w) of the evaluator e^w = w u + (1 - w) r.
    Rhf(closed_form::RhfArgs),
    /// w_b, the root in (0, 1) of (1 - x)^b = x.
    Wb(closed_form::WbArgs),
    /// Wilson, Parker & Nau's error minimizing minimax: depth-one errors, the Fig. 2 example.
    Emm(closed_form::EmmArgs),
    /// Test-time search, exactly: pass-at-k, resampling with an imperfect verifier,
    /// best-of-n, majority voting, verifier-guided lookahead, beam search.
    Inference(inference::Args),
    /// Exact curves from evaluation samples: pass@k, pass^k, majority@k and best-of-k over
    /// the budget k (expectations over all k-subsets), and two checkpoints compared.
    Samples(samples::Args),
    /// Monte Carlo experiments: exact values checked against real searches.
    Mc(mc::Args),
    /// Real domains solved completely (Nau et al. 2010): decision accuracy by depth over every
    /// position.
    Domain(domain::Args),
    /// Ross's alpha-beta tie-breaking analysis of a tic-tac-toe position.
    Alphabeta(alphabeta::Args),
    /// Combine the outputs of a sharded `mc` or sampled `domain` run (--shard K/N) into the
    /// unsharded result.
    Merge(merge::Args),
    /// Print a shell completion script (bash, elvish, fish, powershell, zsh) to stdout.
    Completions(completions::CompletionsArgs),
    /// Print the man page pathology(1) (roff) to stdout.
    Man(completions::ManArgs),
}

/// The binary's entry point: installs the signal handler (SIGINT, SIGTERM, SIGHUP remove the
/// partial files and staging directories being written, print `interrupted; OUT unchanged`
/// naming what was being written, then exit 130), parses the
/// arguments, runs the command and chooses the exit code.
pub fn main() -> ExitCode {
    let _ = ctrlc::set_handler(|| {
        let message = crate::report::output::interrupted_message();
        crate::report::output::remove_partial_files();
        let _ = writeln!(io::stderr(), "{message}");
        std::process::exit(130);
    });
    let args = match Cli::try_parse() {
        Ok(args) => args,
        Err(e) => return parse_error(&e),
    };
    match run(args) {
        Ok(code) => code,
        Err(error) => report(&error),
    }
}

/// Prints clap's help, version or usage error and chooses the exit code: clap's (0 for help
/// and version, 2 for a usage error), but 1 when the help or version cannot be written
/// (`--help > /dev/full`); a closed pipe (`--help | head -1`) is not an error.
fn parse_error(error: &clap::Error) -> ExitCode {
    let printed = error.print().and_then(|()| io::stdout().flush());
    match printed {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe && !error.use_stderr() => {
            let _ = writeln!(io::stderr(), "error: cannot write to standard output: {e}");
            ExitCode::from(1)
        }
        _ => ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2)),
    }
}

/// The command-line parser (clap), with every subcommand and option.
///
/// # Examples
///
/// ```
/// let command = pathology::cli::command();
/// assert!(command.get_subcommands().any(|s| s.get_name() == "decision"));
/// ```
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// Runs the parsed command; the exit code is 0 unless `validate` found disagreeing (1) or
/// malformed (2) rows.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    if let Command::Validate(args) = cli.command {
        return Ok(match validate::run(args)? {
            validate::Outcome::Agrees => ExitCode::SUCCESS,
            validate::Outcome::Disagrees => ExitCode::from(1),
            validate::Outcome::Malformed => ExitCode::from(2),
        });
    }
    run_command(cli.command).map(|()| ExitCode::SUCCESS)
}

fn run_command(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Reproduce(args) => reproduce::run(args),
        Command::Decision(args) => decision::run(*args),
        Command::Table(args) => table::run(args),
        Command::Dgame(args) => dgame::run(args),
        Command::Exact(args) => exact::run(*args),
        Command::Sweep(args) => sweep::run(args),
        Command::Threshold(args) => threshold::run(args),
        Command::Trend(args) => trend::run(args),
        Command::Validate(_) => unreachable!("validate returns its outcome"),
        Command::Errprop(args) => errprop::run(*args),
        Command::Rhf(args) => closed_form::run_rhf(args),
        Command::Wb(args) => closed_form::run_wb(args),
        Command::Emm(args) => closed_form::run_emm(args),
        Command::Inference(args) => inference::run(args),
        Command::Samples(args) => samples::run(args),
        Command::Mc(args) => mc::run(args),
        Command::Domain(args) => domain::run(args),
        Command::Alphabeta(args) => alphabeta::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Completions(args) => completions::run_completions(args),
        Command::Man(args) => completions::run_man(args),
    }
}

/// Runs the command line `argv` (the words after `pathology`) in this process as the binary
/// would, with standard output captured and `input` as standard input
/// ([`crate::report::render::capture`]): the bytes printed and the exit code (0, or
/// `validate`'s 1 and 2). `--help` and `--version` return their text. The Python package's
/// `run` is this.
///
/// # Errors
///
/// clap's usage error ([`clap::Error`]) or the command's, as the binary reports them.
pub fn run_captured(argv: &[String], input: Option<Vec<u8>>) -> anyhow::Result<(Vec<u8>, u8)> {
    use clap::error::ErrorKind;
    let words = std::iter::once("pathology".to_string()).chain(argv.iter().cloned());
    let cli = match Cli::try_parse_from(words) {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            return Ok((e.render().to_string().into_bytes(), 0));
        }
        Err(e) => return Err(e.into()),
    };
    let (code, printed) = crate::report::render::capture(input, || run(cli));
    let code = code?;
    Ok((
        printed,
        [1, 2]
            .into_iter()
            .find(|&c| code == ExitCode::from(c))
            .unwrap_or(0),
    ))
}

/// Prints an error and chooses the exit code: 2 for the user's input (as clap does for usage
/// errors), 0 for a closed pipe (`| head`), 1 otherwise.
pub fn report(error: &anyhow::Error) -> ExitCode {
    for cause in error.chain() {
        if let Some(io) = cause.downcast_ref::<io::Error>()
            && io.kind() == io::ErrorKind::BrokenPipe
        {
            return ExitCode::SUCCESS;
        }
    }
    let _ = writeln!(io::stderr(), "error: {error:#}");
    let usage = error.chain().any(|c| {
        c.downcast_ref::<crate::Error>()
            .is_some_and(crate::Error::is_usage)
    });
    ExitCode::from(if usage { 2 } else { 1 })
}

/// Writes text to standard output. A closed pipe (`| head`) is reported as
/// [`io::ErrorKind::BrokenPipe`] (which [`report`] treats as success); any other write error,
/// and a standard output that is closed (`>&-`) or not writable, is an error naming standard
/// output.
pub(crate) fn print(text: &str) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut out = crate::report::stdout_writer().context("cannot write to standard output")?;
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write to standard output")?;
    Ok(())
}

/// Paths joined by `separator`, as the commands list the files they wrote.
pub(crate) fn list(paths: &[std::path::PathBuf], separator: &str) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(separator)
}
