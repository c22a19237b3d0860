//! `pathology trend`: how the pathology threshold f* and the peak of PS move with the height.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;
use pathology::dgame::report::trend_report;
use pathology::dgame::trend::{TrendRow, height_trend};
use pathology::plot::{Axes, Series, line_chart};
use pathology::report::{ExportOptions, Format, Report};

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
    let files = write(&args.out, &rows, &report)?;
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

/// Writes trend.csv (the report's CSV) and the two figures into `dir`.
pub fn write(dir: &Path, rows: &[TrendRow], report: &Report) -> anyhow::Result<Vec<PathBuf>> {
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut written = Vec::new();
    let csv_path = dir.join("trend.csv");
    let csv = report.render(Format::Csv, &ExportOptions::default())?;
    fs::write(&csv_path, csv).with_context(|| format!("writing {}", csv_path.display()))?;
    written.push(csv_path);
    let x_range = (
        f64::from(rows.first().map_or(0, |r| r.height)) - 0.5,
        f64::from(rows.last().map_or(1, |r| r.height)) + 0.5,
    );
    let point = |r: &TrendRow, y: f64| (f64::from(r.height), y);
    let thresholds = Series {
        label: "threshold f* (no pathology above)".to_string(),
        points: rows
            .iter()
            .filter_map(|r| r.threshold.estimate().map(|f| point(r, f)))
            .collect(),
    };
    let peak_at = Series {
        label: "f of the PS peak".to_string(),
        points: rows.iter().map(|r| point(r, r.ps_peak_at)).collect(),
    };
    let peaks = Series {
        label: "peak of PS over f".to_string(),
        points: rows.iter().map(|r| point(r, r.ps_peak)).collect(),
    };
    let max_peak = rows.iter().map(|r| r.ps_peak).fold(0.0, f64::max);
    for ext in ["png", "svg"] {
        let path = dir.join(format!("trend_threshold.{ext}"));
        let axes = Axes {
            title: "Pathology threshold and PS peak location against height (f1 = f2 = f)"
                .to_string(),
            x_label: "height h".to_string(),
            y_label: "dependence factor f".to_string(),
            x_range,
            y_range: (0.0, 1.0),
        };
        line_chart(&path, &axes, &[thresholds.clone(), peak_at.clone()], true)
            .with_context(|| format!("drawing {}", path.display()))?;
        written.push(path);
        let path = dir.join(format!("trend_ps_peak.{ext}"));
        let axes = Axes {
            title: "Peak pathological sum PS against height (f1 = f2 = f)".to_string(),
            x_label: "height h".to_string(),
            y_label: "max over f of PS".to_string(),
            x_range,
            y_range: (0.0, (max_peak * 1.15).max(0.05)),
        };
        line_chart(&path, &axes, std::slice::from_ref(&peaks), true)
            .with_context(|| format!("drawing {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}
