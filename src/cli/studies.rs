//! The game-playing studies shared by `pathology mc match*` ([`super::matches`]) and `pathology
//! mc emm*` ([`super::emm`]): their option parsers, and [`write_figures`], which regenerates Chi &
//! Nau's Fig. 3 and Wilson, Parker & Nau's Figs. 3-6.

use std::path::{Path, PathBuf};

use pathology::mc::TrialRunner;

/// Pairs per point of Chi & Nau's Fig. 3 (the paper's 8000) and non-trivial games per setting of
/// Wilson et al.'s Figs. 3-6 (the paper's 10,000) at full size, and the reduced defaults.
const FULL_SIZES: (u64, u64) = (8000, 10_000);
const REDUCED_SIZES: (u64, u64) = (8000, 5000);

/// Writes Chi & Nau's Fig. 3 and Wilson, Parker & Nau's Figs. 3-6 (PNG, SVG, CSV, and the
/// natural evaluator's calibration tables) into `out_dir`, at the papers' sizes when `full`,
/// else at reduced sizes (Fig. 3 of Chi & Nau is cheap and stays at 8000 pairs; Wilson et al.'s
/// figures use 5000 games per setting), seed 1, on all cores.
///
/// # Errors
///
/// When a file cannot be written.
pub fn write_figures(
    out_dir: &Path,
    full: bool,
    seed: u64,
    threads: usize,
) -> anyhow::Result<Vec<PathBuf>> {
    let (pairs, games) = if full { FULL_SIZES } else { REDUCED_SIZES };
    let (_, mut files) = super::matches::chi_nau_figure_3(out_dir, pairs, |pairs| {
        Ok(TrialRunner::new(pairs, seed, threads)?)
    })?;
    let (wilson, _) = super::emm::wilson_figures(out_dir, games, seed, threads)?;
    files.extend(wilson);
    Ok(files)
}

#[derive(Debug, clap::Args)]
pub struct StudyFiguresArgs {
    /// At the papers' sizes (8000 pairs per point, 10,000 games per setting) instead of the
    /// reduced defaults.
    #[arg(long)]
    full: bool,
    /// Directory to write into.
    #[arg(long, default_value = "plots")]
    out: PathBuf,
    /// Seed of the random streams.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run_study_figures(args: StudyFiguresArgs) -> anyhow::Result<()> {
    let files = write_figures(
        &args.out,
        args.full,
        args.seed,
        super::args::default_threads(),
    )?;
    super::print(&format!(
        "{} files written (Chi & Nau Fig. 3; Wilson, Parker & Nau Figs. 3-6):\n{}\n",
        files.len(),
        files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    ))
}
