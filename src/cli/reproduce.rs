//! `pathology reproduce`: the main job. Parses the arguments and walks
//! [`crate::reproduce::ARTEFACTS`] into `plots/` (or `--out`), with `INDEX.md` saying what
//! each file reproduces and how to regenerate it.

use std::path::PathBuf;

use crate::reproduce::{DEFAULT_SEED, Options, ReproduceError};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory to write into.
    #[arg(long, default_value = "plots")]
    out: PathBuf,
    /// Base seed of the Monte Carlo items (each item derives its own from it).
    #[arg(long, value_parser = super::args::seed, default_value_t = DEFAULT_SEED, allow_negative_numbers = true)]
    seed: u64,
    /// The papers' full sizes (heights 10..=20 for the trend; larger Monte Carlo runs), instead
    /// of the reduced defaults (the README gives the measured time of a default run).
    #[arg(long)]
    full: bool,
    /// Worker threads for the Monte Carlo items (default: all cores; results do not depend
    /// on it).
    #[arg(long, value_parser = super::args::threads, allow_negative_numbers = true)]
    threads: Option<usize>,
    /// Figures for the screen (titled, 900x700 a panel) or a paper's single column (3.3 in
    /// at 300 dpi, fonts >= 8 pt, no title: the caption says it).
    #[arg(long, value_enum, default_value_t = crate::plot::Style::Screen)]
    style: crate::plot::Style,
    /// Only these steps of the list (numbered from 1, comma-separated): a quick run for tests
    /// of the run's machinery. Hidden: INDEX.md then lists only their files.
    #[arg(long, hide = true, value_delimiter = ',', allow_negative_numbers = true, value_parser = super::args::whole_in::<usize>(1, crate::reproduce::ARTEFACTS.len() as u64))]
    steps: Option<Vec<usize>>,
    /// Regenerate only this file of --out (a name as INDEX.md lists it, e.g. table1.md): its
    /// step runs alone and every other file, INDEX.md included, is left as it was.
    #[arg(
        long,
        value_name = "NAME",
        conflicts_with = "steps",
        allow_hyphen_values = true
    )]
    only: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let options = Options {
        out: args.out,
        seed: args.seed,
        full: args.full,
        threads: args.threads.unwrap_or_else(super::args::default_threads),
        style: args.style,
        steps: args.steps,
    };
    if let Some(name) = &args.only {
        let outcome = crate::reproduce::run_only(&options, name).map_err(library_error)?;
        let seconds: f64 = outcome.timings.iter().map(|(_, t)| t.as_secs_f64()).sum();
        return super::print(&format!(
            "{} written in {seconds:.1} s; the other files of {}, INDEX.md included, are as they were\n",
            options.out.join(name).display(),
            options.out.display()
        ));
    }
    // The summary is printed before the new files replace the old ones: when standard output
    // cannot take it (a full disk), the run fails with --out unchanged; a closed pipe (`|
    // head`) only cuts the summary short.
    crate::reproduce::run_announcing(&options, |outcome| {
        use std::io::Write;
        let text = outcome.text(&options.out);
        let printed = crate::report::stdout_writer()
            .and_then(|mut out| out.write_all(text.as_bytes()).and_then(|()| out.flush()));
        match printed {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            other => other,
        }
    })
    .map_err(library_error)?;
    Ok(())
}

/// Keeps the library's usage errors visible to [`super::report`] (exit code 2).
pub(super) fn library_error(error: ReproduceError) -> anyhow::Error {
    match error {
        ReproduceError::Library(e) => e.into(),
        other => other.into(),
    }
}
