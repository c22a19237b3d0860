//! `pathology dgame`: D(d,h) for every depth (or one) and PS, for one (f1, f2).

use anyhow::Context;
use num_rational::BigRational;
use pathology::analytic::dgame::f2_from_p0;
use pathology::analytic::dgame::report::{Layout, complement_report};
use pathology::numeric::number::short_text;
use pathology::report::Report;

use super::args::{TableOutput, height, probability};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Height h of the node where the decision is made.
    #[arg(long, value_parser = height, allow_negative_numbers = true)]
    height: u32,
    /// Dependence factor f1 of win Max nodes, in [0, 1] (exact: 0.1 is 1/10).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    f1: BigRational,
    /// Dependence factor f2 of loss Min nodes, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true, required_unless_present = "p0", conflicts_with = "p0")]
    f2: Option<BigRational>,
    /// Derive f2 from f1 by Theorem 3.1 so that even-depth nodes are wins with probability p0.
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    p0: Option<BigRational>,
    /// Print only D(depth, h) (1 <= depth <= h).
    #[arg(long, value_parser = super::args::whole::<u32>, allow_negative_numbers = true)]
    depth: Option<u32>,
    /// Print the error probability 1 - D(d,h) instead, with a certified enclosure (relative
    /// error bounds, so it stays informative where D rounds to 1 at high f1, f2).
    #[arg(long, conflicts_with = "exact")]
    complement: bool,
    #[command(flatten)]
    output: TableOutput,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let f2 = match (&args.f2, &args.p0) {
        (Some(f2), _) => f2.clone(),
        (None, Some(p0)) => {
            f2_from_p0(&args.f1, p0).context("deriving f2 from --p0 (Theorem 3.1)")?
        }
        (None, None) => unreachable!("clap requires --f2 or --p0"),
    };
    if let Some(d) = args.depth
        && !(1..=args.height).contains(&d)
    {
        return Err(pathology::Error::invalid(
            "--depth",
            &format!("in 1..={} (at most --height)", args.height),
            d,
        )
        .into());
    }
    let title = format!(
        "D(d,{}) for f1 = {}, f2 = {}{}",
        args.height,
        short_text(&args.f1),
        short_text(&f2),
        args.p0
            .as_ref()
            .map(|p| format!(" (Theorem 3.1, p0 = {})", short_text(p)))
            .unwrap_or_default()
    );
    let mut report = Report::new("dgame", &title)
        .param("height", args.height)
        .param("f1", short_text(&args.f1));
    report = match &args.p0 {
        Some(p0) => report.param("p0", short_text(p0)),
        None => report.param("f2", short_text(&f2)),
    };
    if let Some(d) = args.depth {
        report = report.param("depth", d);
    }
    if args.complement {
        let report = report.param("complement", true);
        let report = complement(report, &args, &f2)?;
        return args.output.output.emit(&report, 10);
    }
    let settings = [(args.f1.clone(), f2)];
    args.output.emit(
        report,
        &settings,
        args.height,
        Layout::DepthRows,
        args.depth,
    )
}

/// `1 - D(d,h)` with its enclosures.
fn complement(report: Report, args: &Args, f2: &BigRational) -> anyhow::Result<Report> {
    use pathology::analytic::dgame::complement::ComplementSolver;
    let h = args.height;
    let mut solver = ComplementSolver::new(&args.f1, f2)?;
    let enclosures = match args.depth {
        Some(d) => vec![(d, solver.wrong_decision(d, h)?)],
        None => (1..=h).zip(solver.wrong_decision_column(h)?).collect(),
    };
    let title = format!(
        "1 - D(d,{h}) for f1 = {}, f2 = {}",
        short_text(&args.f1),
        short_text(f2)
    );
    let mut report = complement_report(report, &args.f1, f2, h, &enclosures);
    report.title = title.clone();
    report.tables[0].caption = title;
    Ok(report)
}
