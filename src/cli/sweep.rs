//! `pathology sweep`: D(d,h) and PS over a range of f1.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};
use num_rational::BigRational;
use pathology::dgame::report::{Layout, decision_report};
use pathology::dgame::table::{SecondFactor, compute_columns_with_progress, sweep_settings};
use pathology::number::{Probability, short_text};
use pathology::report::Report;

use super::args::{TableOutput, height, positive_rational, probability};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Height h of the node where the decision is made.
    #[arg(long, value_parser = height, allow_negative_numbers = true)]
    height: u32,
    /// First f1, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    from: BigRational,
    /// Last f1 (included when the steps land on it), in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    to: BigRational,
    /// Step of f1, exact (0.01 is 1/100).
    #[arg(long, value_parser = positive_rational, allow_hyphen_values = true)]
    step: BigRational,
    /// A fixed f2 (default: f2 = f1).
    #[arg(long, value_parser = probability, allow_hyphen_values = true, conflicts_with = "p0")]
    f2: Option<BigRational>,
    /// Derive f2 from each f1 by Theorem 3.1 with this p0.
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    p0: Option<BigRational>,
    #[command(flatten)]
    output: TableOutput,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (second, description) = match (args.f2, args.p0) {
        (Some(f2), _) => {
            let d = format!("f2 = {}", short_text(&f2));
            (SecondFactor::Fixed(f2), d)
        }
        (None, Some(p0)) => {
            let d = format!("f2 from Theorem 3.1 with p0 = {}", short_text(&p0));
            (SecondFactor::FromP0(p0), d)
        }
        (None, None) => (SecondFactor::Equal, "f2 = f1".to_string()),
    };
    let settings = sweep_settings(&args.from, &args.to, &args.step, &second)?;
    let title = format!(
        "D(d,{}) and PS for f1 from {} to {} step {}, {description}",
        args.height,
        short_text(&args.from),
        short_text(&args.to),
        short_text(&args.step)
    );
    let mut report = Report::new("sweep", &title)
        .param("height", args.height)
        .param("from", short_text(&args.from))
        .param("to", short_text(&args.to))
        .param("step", short_text(&args.step));
    report = match &second {
        SecondFactor::Fixed(f2) => report.param("f2", short_text(f2)),
        SecondFactor::FromP0(p0) => report.param("p0", short_text(p0)),
        SecondFactor::Equal => report,
    };
    let report = report.param("exact", args.output.exact);
    let bar = progress_bar(settings.len());
    let report = if args.output.exact {
        build::<BigRational>(report, &settings, args.height, &bar)?
    } else {
        build::<f64>(report, &settings, args.height, &bar)?
    };
    bar.finish_and_clear();
    // The rows are printed once all are computed: text aligns its columns over every row, and
    // the cells are small (one row per setting, one cell per depth) next to the computation.
    args.output.output.emit(&report, 3)
}

/// A bar of settings done on stderr, when stderr is a terminal (standard output stays the
/// report alone, byte for byte).
fn progress_bar(settings: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(settings as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "sweep [{elapsed_precise}] {wide_bar} {pos}/{len} settings (eta {eta})",
    ) {
        bar.set_style(style);
    }
    bar
}

/// D(d,h) of every setting in the mode `P`, advancing `bar` as settings finish, as a report
/// laid out one row per setting (what `TableOutput::emit` prints, with progress).
fn build<P: Probability>(
    report: Report,
    settings: &[(BigRational, BigRational)],
    height: u32,
    bar: &ProgressBar,
) -> anyhow::Result<Report> {
    let converted: Vec<(P, P)> = settings
        .iter()
        .map(|(a, b)| (P::from_rational(a), P::from_rational(b)))
        .collect();
    let columns = compute_columns_with_progress(&converted, height, &|| bar.inc(1))?;
    Ok(decision_report(
        report,
        &columns,
        settings,
        Layout::SettingRows,
        None,
    ))
}
