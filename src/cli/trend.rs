//! `pathology trend`: how the pathology threshold f* and the peak of PS move with the height.

use std::path::PathBuf;

use crate::analytic::dgame::report::height_trend_run;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Smallest height.
    #[arg(long, default_value_t = 10, value_parser = super::args::height, allow_negative_numbers = true)]
    from: u32,
    /// Largest height.
    #[arg(long, default_value_t = 20, value_parser = super::args::height, allow_negative_numbers = true)]
    to: u32,
    /// Threshold grid steps N (f = k/N), then bisection.
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 1_000_000), default_value_t = 100, allow_negative_numbers = true)]
    grid: u32,
    /// Bisection tolerance of the threshold.
    #[arg(long, value_parser = super::args::fraction_below_one, default_value_t = 1e-7, allow_negative_numbers = true)]
    tolerance: f64,
    /// PS peak grid steps (f = k/N for k = 1..N-1).
    #[arg(long, value_parser = super::args::at_least::<u32>(2), default_value_t = 100, allow_negative_numbers = true)]
    peak_grid: u32,
    /// Also write trend.csv and the two figures into this directory (created if missing);
    /// without it only the table is printed.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Figures for the screen (titled, 900x700 a panel) or a paper's single column (3.3 in
    /// at 300 dpi, fonts >= 8 pt, no title: the caption says it).
    #[arg(long, value_enum, default_value_t = crate::plot::Style::Screen)]
    style: crate::plot::Style,
    #[command(flatten)]
    output: super::args::OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    // Every option and the output directory are checked before the heights are computed.
    args.output.check_table(&["trend"])?;
    if let Some(out) = &args.out {
        crate::report::output::check_directory("--out", out)?;
    }
    let (rows, report) = height_trend_run(
        args.from,
        args.to,
        args.grid,
        args.tolerance,
        args.peak_grid,
    )?;
    let report = match &args.out {
        Some(out) => {
            let files = crate::plot::figures::trend_figures(out, &rows, &report, args.style)?;
            // The files are part of the result: the note says where they went, in every format.
            report.note(format!("files written: {}", super::list(&files, ", ")))
        }
        None => report,
    };
    args.output.emit(&report, 4)
}
