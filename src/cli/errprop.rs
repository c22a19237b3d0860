//! `pathology errprop`: the gamma/delta error-propagation map of Li & Marsland, Section 5.
//!
//! With flags it runs trajectories; the subcommands print Theorem 5.1/5.2 thresholds, fixed
//! points and the critical dependence factor, and write the figures. The reports are built by
//! [`crate::analytic::errprop::report`], the trajectories streamed by
//! [`crate::analytic::errprop::stream`].

use std::path::PathBuf;

use crate::analytic::errprop::BackUp;
use crate::analytic::errprop::report::{ThresholdsRequest, critical_f_at, fixed_points};
use crate::analytic::errprop::stream::{TRAJECTORY_DECIMALS, TrajectoryRequest};
use anyhow::Context;
use num_rational::BigRational;

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
    /// Write Li & Marsland's Figs. 2, 3 and 4 (with its data and pair count) and the phase
    /// portrait of the gamma/delta map (into ./errprop-figures unless --out).
    Figures(FiguresArgs),
}

#[derive(Debug, clap::Args)]
struct TrajectoryArgs {
    /// Starting gamma = Pr[Psi = 1 | loss], in [0, 1] (exact: 0.3 is 3/10).
    #[arg(long, value_parser = probability, required = true, allow_negative_numbers = true)]
    gamma: Option<BigRational>,
    /// Starting delta = Pr[Psi = 0 | win], in [0, 1].
    #[arg(long, value_parser = probability, required = true, allow_negative_numbers = true)]
    delta: Option<BigRational>,
    /// Dependence factor f1 (comma-separated for several trajectories).
    #[arg(long, value_parser = probability, value_delimiter = ',', required_unless_present = "f", allow_negative_numbers = true)]
    f1: Vec<BigRational>,
    /// Dependence factor f2 (as many as --f1, or one for all).
    #[arg(long, value_parser = probability, value_delimiter = ',', required_unless_present = "f", allow_negative_numbers = true)]
    f2: Vec<BigRational>,
    /// f1 = f2 = f (comma-separated for several trajectories), instead of --f1/--f2.
    #[arg(long, value_parser = probability, value_delimiter = ',', conflicts_with_all = ["f1", "f2"], allow_negative_numbers = true)]
    f: Vec<BigRational>,
    /// Back-up steps (each is two tree levels).
    #[arg(long, default_value_t = 10, value_parser = super::args::whole_in::<u32>(0, 100_000), allow_negative_numbers = true)]
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
    #[arg(long, value_enum, requires = "plot", default_value_t = crate::plot::Style::Screen)]
    style: crate::plot::Style,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Debug, clap::Args)]
struct ThresholdArgs {
    /// gamma: in (0, 0.5) for Theorem 5.1, (0, 0.3) for Theorem 5.2.
    #[arg(long, value_parser = probability, allow_negative_numbers = true)]
    gamma: BigRational,
    /// delta: in (0, 0.25) for both theorems.
    #[arg(long, value_parser = probability, allow_negative_numbers = true)]
    delta: BigRational,
    /// f1 at which to evaluate H1, H2 and the one-step ratios (with --f2).
    #[arg(long, value_parser = probability, requires = "f2", allow_negative_numbers = true)]
    f1: Option<BigRational>,
    /// f2 at which to evaluate H1, H2 (with --f1).
    #[arg(long, value_parser = probability, requires = "f1", allow_negative_numbers = true)]
    f2: Option<BigRational>,
    /// Which theorem(s): each checks its own range of gamma and delta.
    #[arg(long, value_parser = ["5.1", "5.2", "both"], default_value = "both", allow_negative_numbers = true)]
    theorem: String,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Debug, clap::Args)]
struct FixedPointArgs {
    /// Dependence factor f1.
    #[arg(long, value_parser = probability, allow_negative_numbers = true)]
    f1: BigRational,
    /// Dependence factor f2.
    #[arg(long, value_parser = probability, allow_negative_numbers = true)]
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
    #[arg(long, value_parser = probability, allow_negative_numbers = true)]
    gamma: BigRational,
    /// Starting delta.
    #[arg(long, value_parser = probability, allow_negative_numbers = true)]
    delta: BigRational,
    /// Max-to-Max or Min-to-Min map.
    #[arg(long, value_enum, default_value_t = BackUp::Max)]
    from: BackUp,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Debug, clap::Args)]
struct FiguresArgs {
    /// Directory to write into (created if missing).
    #[arg(long, default_value = "errprop-figures")]
    out: PathBuf,
    /// Figures for the screen (titled, 900x700 a panel) or a paper's single column (3.3 in
    /// at 300 dpi, fonts >= 8 pt, no title: the caption says it).
    #[arg(long, value_enum, default_value_t = crate::plot::Style::Screen)]
    style: crate::plot::Style,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Some(Sub::Thresholds(a)) => {
            let request = ThresholdsRequest {
                gamma: a.gamma,
                delta: a.delta,
                at: a.f1.zip(a.f2),
                theorem: a.theorem,
            };
            a.output.emit(&request.report()?, 6)
        }
        Some(Sub::FixedPoints(a)) => a.output.emit(&fixed_points(&a.f1, &a.f2, a.from)?, 9),
        Some(Sub::CriticalF(a)) => a
            .output
            .emit(&critical_f_at(&a.gamma, &a.delta, a.from)?, 9),
        Some(Sub::Figures(a)) => {
            crate::report::output::check_directory("--out", &a.out)?;
            let written = crate::plot::figures::li_marsland_figures(&a.out, a.style)?;
            super::print(&format!("{}\n", super::list(&written, "\n")))
        }
        None => run_trajectories(args.run),
    }
}

fn run_trajectories(args: TrajectoryArgs) -> anyhow::Result<()> {
    let request = TrajectoryRequest {
        gamma: args.gamma.expect("clap requires --gamma"),
        delta: args.delta.expect("clap requires --delta"),
        f1: args.f1,
        f2: args.f2,
        f: args.f,
        steps: args.steps,
        from: args.from,
        exact: args.exact,
        long_run: args.long_run,
    };
    if let Some(path) = &args.plot {
        request.settings()?;
        crate::plot::image_kind(path)?;
        crate::report::output::check_file("--plot", path, true)?;
    }
    if args.long_run {
        return args
            .output
            .emit(&request.long_run_report()?, TRAJECTORY_DECIMALS);
    }
    let figure = request
        .write(
            &args.output.options(),
            args.plot.is_some(),
            crate::report::stdout_buffered,
        )
        .map_err(crate::report::StreamError::into_command_error)?;
    if let (Some(path), Some(figure)) = (&args.plot, figure) {
        crate::plot::trajectories(path, &figure.title, &figure.series, args.style)
            .with_context(|| format!("drawing {}", path.display()))?;
    }
    Ok(())
}
