//! `pathology trend`: how the pathology threshold f* and the peak of PS move with the height.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;
use pathology::dgame::trend::{TrendRow, height_trend};
use pathology::number::Probability;
use pathology::output::{align_columns, csv_string};
use pathology::plot::{Axes, Series, line_chart};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Smallest height.
    #[arg(long, default_value_t = 10, value_parser = super::args::height)]
    from: u32,
    /// Largest height.
    #[arg(long, default_value_t = 20, value_parser = super::args::height)]
    to: u32,
    /// Threshold grid steps N (f = k/N), then bisection.
    #[arg(long, default_value_t = 100)]
    grid: u32,
    /// Bisection tolerance of the threshold.
    #[arg(long, default_value_t = 1e-7)]
    tolerance: f64,
    /// PS peak grid steps (f = k/N for k = 1..N-1).
    #[arg(long, default_value_t = 100)]
    peak_grid: u32,
    /// Directory for trend.csv and the two figures.
    #[arg(long, default_value = "plots")]
    out: PathBuf,
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
    let files = write(&args.out, &rows)?;
    let mut text = to_text(&rows);
    text.push_str(&format!(
        "\nwritten: {}\n",
        files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    super::print(&text)
}

/// The table as text.
pub fn to_text(rows: &[TrendRow]) -> String {
    let mut table = vec![vec![
        "h".to_string(),
        "f*".to_string(),
        "last pair".to_string(),
        "undecided".to_string(),
        "PS peak".to_string(),
        "at f".to_string(),
    ]];
    for r in rows {
        table.push(vec![
            r.height.to_string(),
            r.threshold
                .estimate()
                .map_or("-".to_string(), |f| format!("{f:.7}")),
            r.threshold
                .last_pairs
                .iter()
                .map(|d| format!("({},{d})", d - 1))
                .collect::<Vec<_>>()
                .join(" "),
            r.threshold.decisions.undecided.to_string(),
            format!("{:.4}", r.ps_peak),
            format!("{:.2}", r.ps_peak_at),
        ]);
    }
    format!(
        "Pathology against height (f1 = f2 = f): the certified threshold f* above which no depth \
         pair is pathological, and the peak of PS over f\n\n{}",
        align_columns(&table)
    )
}

/// Writes `trend.csv`, `trend_threshold.{png,svg}` and `trend_ps_peak.{png,svg}`.
pub fn write(dir: &Path, rows: &[TrendRow]) -> anyhow::Result<Vec<PathBuf>> {
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let header = [
        "h",
        "f_star",
        "f_star_lower",
        "f_star_upper",
        "last_pairs",
        "undecided",
        "ps_peak",
        "ps_peak_at",
        "ps_peak_error_bound",
    ];
    let csv_rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.height.to_string(),
                r.threshold
                    .estimate()
                    .map_or(String::new(), |f| format!("{f}")),
                r.threshold
                    .lower
                    .as_ref()
                    .map_or(String::new(), |f| format!("{}", f.to_f64())),
                format!("{}", r.threshold.upper.to_f64()),
                r.threshold
                    .last_pairs
                    .iter()
                    .map(|d| format!("{}-{d}", d - 1))
                    .collect::<Vec<_>>()
                    .join(" "),
                r.threshold.decisions.undecided.to_string(),
                format!("{}", r.ps_peak),
                format!("{}", r.ps_peak_at),
                format!("{:.2e}", r.ps_peak_error_bound),
            ]
        })
        .collect();
    let mut written = Vec::new();
    let csv_path = dir.join("trend.csv");
    fs::write(&csv_path, csv_string(&header, &csv_rows)?)
        .with_context(|| format!("writing {}", csv_path.display()))?;
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
