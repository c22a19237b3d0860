//! `pathology trend`: how the pathology threshold f* and the peak of PS move with the height.

use std::path::PathBuf;

use pathology::dgame::report::trend_report;
use pathology::dgame::trend::{TrendRow, height_trend};
use pathology::report::Report;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Smallest height.
    #[arg(long, default_value_t = 10, value_parser = super::args::height, allow_negative_numbers = true)]
    from: u32,
    /// Largest height.
    #[arg(long, default_value_t = 20, value_parser = super::args::height, allow_negative_numbers = true)]
    to: u32,
    /// Threshold grid steps N (f = k/N), then bisection.
    #[arg(long, value_parser = super::args::whole::<u32>, default_value_t = 100, allow_negative_numbers = true)]
    grid: u32,
    /// Bisection tolerance of the threshold.
    #[arg(long, default_value_t = 1e-7)]
    tolerance: f64,
    /// PS peak grid steps (f = k/N for k = 1..N-1).
    #[arg(long, value_parser = super::args::whole::<u32>, default_value_t = 100, allow_negative_numbers = true)]
    peak_grid: u32,
    /// Directory for trend.csv and the two figures.
    #[arg(long, default_value = "plots")]
    out: PathBuf,
    #[command(flatten)]
    output: super::args::OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.from > args.to {
        return Err(pathology::Error::invalid(
            "--from",
            &format!("at most --to ({})", args.to),
            args.from,
        )
        .into());
    }
    let heights: Vec<u32> = (args.from..=args.to).collect();
    let rows = height_trend(&heights, args.grid, args.tolerance, args.peak_grid)?;
    let report = report(
        &rows,
        args.from,
        args.to,
        args.grid,
        args.tolerance,
        args.peak_grid,
    );
    let files = pathology::plot::figures::trend_figures(&args.out, &rows, &report)?;
    args.output.emit(&report, 4)?;
    eprintln!(
        "written: {}",
        files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

/// The trend report with its canonical command.
pub fn report(
    rows: &[TrendRow],
    from: u32,
    to: u32,
    grid: u32,
    tolerance: f64,
    peak_grid: u32,
) -> Report {
    let report = Report::new(
        "trend",
        "Pathology against height (f1 = f2 = f): the certified threshold f* above which no depth \
         pair is pathological, and the peak of PS over f",
    )
    .param("from", from)
    .param("to", to)
    .param("grid", grid)
    .param("tolerance", tolerance)
    .param("peak_grid", peak_grid);
    trend_report(report, rows)
}
