//! `pathology errprop`: the gamma/delta error-propagation map of Li & Marsland, Section 5.
//!
//! With flags it runs trajectories; the subcommands print Theorem 5.1/5.2 thresholds, fixed
//! points and the critical dependence factor, and write the figures. The reports are built by
//! [`pathology::analytic::errprop::report`].

use std::path::PathBuf;

use anyhow::Context;
use num_rational::BigRational;
use pathology::analytic::dgame::report::probability_cell;
use pathology::analytic::errprop::report::{
    F64_TRAJECTORY_NOTE, Trajectory, compute_trajectories, critical_f_report, fixed_point_report,
    long_run_report, map_title, setting_label, thresholds_report, trajectory_grid_row,
    trajectory_rows, trajectory_table, trajectory_title,
};
use pathology::analytic::errprop::{BackUp, theorem_5_1, theorem_5_2};
use pathology::numeric::number::{Probability, short_text};
use pathology::report::{Report, TableStream};

use super::args::{OutputArgs, probability};

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Sub>,
    #[command(flatten)]
    run: TrajectoryArgs,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// Theorem 5.1 and 5.2 thresholds F1, F2 and the rates H1, H2 at one (gamma, delta).
    Thresholds(ThresholdArgs),
    /// Fixed points of the map, their Jacobian eigenvalues and stability.
    FixedPoints(FixedPointArgs),
    /// The f = f1 = f2 at which a start point's long-run limit switches to (0, 0).
    CriticalF(CriticalArgs),
    /// Write Fig. 2, Fig. 3, the phase portrait, Fig. 4, rhf and EMM figures.
    Figures(FiguresArgs),
}

#[derive(Debug, clap::Args)]
struct TrajectoryArgs {
    /// Starting gamma = Pr[Psi = 1 | loss], in [0, 1] (exact: 0.3 is 3/10).
    #[arg(long, value_parser = probability, required = true)]
    gamma: Option<BigRational>,
    /// Starting delta = Pr[Psi = 0 | win], in [0, 1].
    #[arg(long, value_parser = probability, required = true)]
    delta: Option<BigRational>,
    /// Dependence factor f1 (comma-separated for several trajectories).
    #[arg(long, value_parser = probability, value_delimiter = ',', required_unless_present = "f")]
    f1: Vec<BigRational>,
    /// Dependence factor f2 (as many as --f1, or one for all).
    #[arg(long, value_parser = probability, value_delimiter = ',', required_unless_present = "f")]
    f2: Vec<BigRational>,
    /// f1 = f2 = f (comma-separated for several trajectories), instead of --f1/--f2.
    #[arg(long, value_parser = probability, value_delimiter = ',', conflicts_with_all = ["f1", "f2"])]
    f: Vec<BigRational>,
    /// Back-up steps (each is two tree levels).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=100_000), allow_negative_numbers = true)]
    steps: u32,
    /// Max-to-Max (formulas 3-4) or the dual Min-to-Min back-up.
    #[arg(long, value_enum, default_value_t = BackUp::Max)]
    from: BackUp,
    /// Iterate in exact rationals (they grow about 4x in size a step).
    #[arg(long)]
    exact: bool,
    /// Iterate in f64 until the point settles and report the limit.
    #[arg(long, conflicts_with = "exact")]
    long_run: bool,
    /// Also draw the trajectories to this .png or .svg file.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Figures for the screen (titled, 900x700 a panel) or a paper's single column (3.3 in
    /// at 300 dpi, fonts >= 8 pt, no title: the caption says it).
    #[arg(long, value_enum, requires = "plot", default_value_t = pathology::plot::Style::Screen)]
    style: pathology::plot::Style,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Debug, clap::Args)]
struct ThresholdArgs {
    /// gamma: in (0, 0.5) for Theorem 5.1, (0, 0.3) for Theorem 5.2.
    #[arg(long, value_parser = probability)]
    gamma: BigRational,
    /// delta: in (0, 0.25) for both theorems.
    #[arg(long, value_parser = probability)]
    delta: BigRational,
    /// f1 at which to evaluate H1, H2 and the one-step ratios (with --f2).
    #[arg(long, value_parser = probability, requires = "f2")]
    f1: Option<BigRational>,
    /// f2 at which to evaluate H1, H2 (with --f1).
    #[arg(long, value_parser = probability, requires = "f1")]
    f2: Option<BigRational>,
    /// Which theorem(s): each checks its own range of gamma and delta.
    #[arg(long, value_parser = ["5.1", "5.2", "both"], default_value = "both")]
    theorem: String,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Debug, clap::Args)]
struct FixedPointArgs {
    /// Dependence factor f1.
    #[arg(long, value_parser = probability)]
    f1: BigRational,
    /// Dependence factor f2.
    #[arg(long, value_parser = probability)]
    f2: BigRational,
    /// Max-to-Max or Min-to-Min map.
    #[arg(long, value_enum, default_value_t = BackUp::Max)]
    from: BackUp,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Debug, clap::Args)]
struct CriticalArgs {
    /// Starting gamma.
    #[arg(long, value_parser = probability)]
    gamma: BigRational,
    /// Starting delta.
    #[arg(long, value_parser = probability)]
    delta: BigRational,
    /// Max-to-Max or Min-to-Min map.
    #[arg(long, value_enum, default_value_t = BackUp::Max)]
    from: BackUp,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Debug, clap::Args)]
struct FiguresArgs {
    /// Directory to write into.
    #[arg(long, default_value = "plots")]
    out: PathBuf,
    /// Figures for the screen (titled, 900x700 a panel) or a paper's single column (3.3 in
    /// at 300 dpi, fonts >= 8 pt, no title: the caption says it).
    #[arg(long, value_enum, default_value_t = pathology::plot::Style::Screen)]
    style: pathology::plot::Style,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Some(Sub::Thresholds(a)) => thresholds(&a),
        Some(Sub::FixedPoints(a)) => {
            let title = format!(
                "Fixed points of the {} back-up at f1 = {}, f2 = {}",
                map_title(a.from),
                short_text(&a.f1),
                short_text(&a.f2)
            );
            let report = Report::new("errprop fixed-points", &title)
                .param("f1", short_text(&a.f1))
                .param("f2", short_text(&a.f2))
                .param("from", a.from.name());
            a.output
                .emit(&fixed_point_report(report, &a.f1, &a.f2, a.from)?, 9)
        }
        Some(Sub::CriticalF(a)) => {
            let title = format!(
                "Critical f = f1 = f2 for the {} back-up from ({}, {})",
                map_title(a.from),
                short_text(&a.gamma),
                short_text(&a.delta)
            );
            let report = Report::new("errprop critical-f", &title)
                .param("gamma", short_text(&a.gamma))
                .param("delta", short_text(&a.delta))
                .param("from", a.from.name());
            a.output
                .emit(&critical_f_report(report, &a.gamma, &a.delta, a.from)?, 9)
        }
        Some(Sub::Figures(a)) => {
            let written = pathology::plot::figures::analytic_figures(&a.out, a.style)?;
            let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
            super::print(&format!("{}\n", names.join("\n")))
        }
        None => run_trajectories(&args.run),
    }
}

/// The (f1, f2) settings of a trajectory set.
fn settings(args: &TrajectoryArgs) -> anyhow::Result<Vec<(BigRational, BigRational)>> {
    if !args.f.is_empty() {
        return Ok(args.f.iter().map(|f| (f.clone(), f.clone())).collect());
    }
    let (n1, n2) = (args.f1.len(), args.f2.len());
    let pairs = match (n1, n2) {
        _ if n1 == n2 => args
            .f1
            .iter()
            .cloned()
            .zip(args.f2.iter().cloned())
            .collect(),
        (_, 1) => args
            .f1
            .iter()
            .map(|a| (a.clone(), args.f2[0].clone()))
            .collect(),
        (1, _) => args
            .f2
            .iter()
            .map(|b| (args.f1[0].clone(), b.clone()))
            .collect(),
        _ => {
            return Err(pathology::Error::invalid(
                "--f2",
                &format!("one value or as many as --f1 ({n1})"),
                format!("{n2} values"),
            )
            .into());
        }
    };
    Ok(pairs)
}

fn list(values: &[BigRational]) -> String {
    values.iter().map(short_text).collect::<Vec<_>>().join(",")
}

fn run_trajectories(args: &TrajectoryArgs) -> anyhow::Result<()> {
    let gamma = args.gamma.clone().expect("clap requires --gamma");
    let delta = args.delta.clone().expect("clap requires --delta");
    let settings = settings(args)?;
    if let Some(path) = &args.plot {
        pathology::plot::image_kind(path)?;
    }
    let title = if args.long_run {
        format!(
            "Long-run limit of the {} back-up (f64) from ({}, {})",
            map_title(args.from),
            short_text(&gamma),
            short_text(&delta)
        )
    } else {
        trajectory_title(args.from, &gamma, &delta)
    };
    let mut report = Report::new("errprop", &title)
        .param("gamma", short_text(&gamma))
        .param("delta", short_text(&delta));
    report = if args.f.is_empty() {
        report
            .param("f1", list(&args.f1))
            .param("f2", list(&args.f2))
    } else {
        report.param("f", list(&args.f))
    };
    report = report.param("from", args.from.name());
    if args.long_run {
        let report = report.param("long_run", true);
        let report = long_run_report(report, &gamma, &delta, &settings, args.from)?;
        return args.output.emit(&report, 6);
    }
    pathology::analytic::errprop::check_trajectory_cost(
        &gamma,
        &delta,
        &settings,
        args.steps,
        args.exact,
        args.output.format,
    )?;
    let report = report.param("steps", args.steps).param("exact", args.exact);
    if args.exact {
        trajectories::<BigRational>(args, report.mode("exact"), &gamma, &delta, &settings)
    } else {
        trajectories::<f64>(args, report, &gamma, &delta, &settings)
    }
}

/// The trajectories in the mode `P`, each row printed as soon as it is computed (see
/// [`pathology::report::stream`]): CSV and JSON compute and print one trajectory at a time
/// and hold only it; text, Markdown and LaTeX, whose rows are steps across all settings,
/// hold the trajectories' points (not their printed rows). `--table` naming another table
/// is refused before any work.
fn trajectories<P: Probability>(
    args: &TrajectoryArgs,
    report: Report,
    gamma: &BigRational,
    delta: &BigRational,
    settings: &[(BigRational, BigRational)],
) -> anyhow::Result<()> {
    let output = &args.output;
    output.check_table(&["trajectories"])?;
    let labels: Vec<String> = settings.iter().map(|(a, b)| setting_label(a, b)).collect();
    let table = trajectory_table(&labels);
    // The widest row: the last step's label, every value a probability.
    let half = P::from_rational(&BigRational::new(1.into(), 2.into()));
    let mut widest = table.clone();
    if let Some(grid) = &mut widest.grid {
        let cells = vec![probability_cell(&half, 0.0); 2 * settings.len()];
        grid.body = vec![(args.steps.to_string(), cells)];
    }
    let mut stream = TableStream::start(
        std::io::BufWriter::new(super::stdout_writer().context("cannot write to standard output")?),
        &report,
        &table,
        &[],
        output.format,
        &output.options(6),
        &widest,
    )
    .context("cannot write to standard output")?;
    let run = |setting: &(BigRational, BigRational)| {
        compute_trajectories::<P>(
            gamma,
            delta,
            std::slice::from_ref(setting),
            args.from,
            args.steps,
        )
        .map(|mut one| one.remove(0))
    };
    let mut series = Vec::new();
    if stream.wants_grid() {
        let computed = settings
            .iter()
            .map(run)
            .collect::<pathology::Result<Vec<_>>>()?;
        (|| {
            let n = args.steps as usize + 1;
            for start in (0..n).step_by(4096) {
                let rows: Vec<_> = (start..n.min(start + 4096))
                    .map(|k| trajectory_grid_row(k, &computed))
                    .collect();
                stream.push_grid(&rows)?;
            }
            if P::EXACT && stream.wants_rows() {
                for t in &computed {
                    push_trajectory(&mut stream, gamma, delta, args.from, t)?;
                }
            }
            Ok::<(), std::io::Error>(())
        })()
        .context("cannot write to standard output")?;
        if args.plot.is_some() {
            series = computed.iter().map(|t| t.series()).collect();
        }
    } else {
        for setting in settings {
            let t = run(setting)?;
            push_trajectory(&mut stream, gamma, delta, args.from, &t)
                .context("cannot write to standard output")?;
            if args.plot.is_some() {
                series.push(t.series());
            }
        }
    }
    let mut notes = report.notes.clone();
    if !P::EXACT {
        notes.push(F64_TRAJECTORY_NOTE.to_string());
    }
    stream
        .finish(Vec::new(), notes)
        .context("cannot write to standard output")?;
    if let Some(path) = &args.plot {
        let title = format!(
            "{} back-up from ({}, {})",
            map_title(args.from),
            short_text(gamma),
            short_text(delta)
        );
        pathology::plot::trajectories(path, &title, &series, args.style)
            .with_context(|| format!("drawing {}", path.display()))?;
    }
    Ok(())
}

/// Pushes the tidy rows of a trajectory, 4096 steps at a time.
fn push_trajectory<W: std::io::Write, P: Probability>(
    stream: &mut TableStream<W>,
    gamma: &BigRational,
    delta: &BigRational,
    from: BackUp,
    t: &Trajectory<P>,
) -> std::io::Result<()> {
    let n = t.points.len();
    for start in (0..n).step_by(4096) {
        stream.push_rows(&trajectory_rows(
            gamma,
            delta,
            from,
            t,
            start..n.min(start + 4096),
        ))?;
    }
    Ok(())
}

fn thresholds(args: &ThresholdArgs) -> anyhow::Result<()> {
    let (gamma, delta) = (args.gamma.to_f64(), args.delta.to_f64());
    let want = |t: &str| args.theorem == t || args.theorem == "both";
    let hint = |other: &str| {
        if args.theorem == "both" {
            format!(" (--theorem {other} gives the other theorem alone)")
        } else {
            String::new()
        }
    };
    let t51 = if want("5.1") {
        Some(theorem_5_1(gamma, delta).with_context(|| format!("Theorem 5.1{}", hint("5.2")))?)
    } else {
        None
    };
    let t52 = if want("5.2") {
        Some(theorem_5_2(gamma, delta).with_context(|| format!("Theorem 5.2{}", hint("5.1")))?)
    } else {
        None
    };
    let title = format!(
        "Li & Marsland Section 5 thresholds at gamma = {}, delta = {}",
        short_text(&args.gamma),
        short_text(&args.delta)
    );
    let mut report = Report::new("errprop thresholds", &title)
        .param("gamma", short_text(&args.gamma))
        .param("delta", short_text(&args.delta));
    if let (Some(f1), Some(f2)) = (&args.f1, &args.f2) {
        report = report
            .param("f1", short_text(f1))
            .param("f2", short_text(f2));
    }
    let report = report.param("theorem", &args.theorem);
    let at = args.f1.as_ref().zip(args.f2.as_ref());
    args.output.emit(
        &thresholds_report(report, &args.gamma, &args.delta, t51, t52, at),
        6,
    )
}
