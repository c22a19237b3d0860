//! `pathology mc study-figures`: Chi & Nau's Fig. 3 and Wilson, Parker & Nau's Figs. 3-6,
//! written by [`crate::plot::studies::study_figures`].

use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct StudyFiguresArgs {
    /// At the papers' sizes (8000 pairs per point, 10,000 games per setting) instead of the
    /// reduced defaults.
    #[arg(long)]
    full: bool,
    /// Directory to write into (created if missing).
    #[arg(long, default_value = "study-figures")]
    out: PathBuf,
    /// Seed of the random streams.
    #[arg(long, value_parser = super::args::seed, default_value_t = 1, allow_negative_numbers = true)]
    seed: u64,
    /// Figures for the screen (titled, 900x700 a panel) or a paper's single column (3.3 in
    /// at 300 dpi, fonts >= 8 pt, no title: the caption says it).
    #[arg(long, value_enum, default_value_t = crate::plot::Style::Screen)]
    style: crate::plot::Style,
    /// Worker threads (default: all cores; the figures do not depend on it).
    #[arg(long, value_parser = super::args::threads, allow_negative_numbers = true)]
    threads: Option<usize>,
}

pub fn run_study_figures(args: StudyFiguresArgs) -> anyhow::Result<()> {
    crate::report::output::check_directory("--out", &args.out)?;
    let (files, _) = crate::plot::studies::study_figures(
        &args.out,
        args.full,
        args.seed,
        args.threads.unwrap_or_else(super::args::default_threads),
        args.style,
    )
    .map_err(super::reproduce::library_error)?;
    super::print(&format!(
        "{} files written (Chi & Nau Fig. 3; Wilson, Parker & Nau Figs. 3-6):\n{}\n",
        files.len(),
        super::list(&files, "\n")
    ))
}
