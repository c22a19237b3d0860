//! `pathology sweep`: D(d,h) and PS over a range of f1.

use std::io::IsTerminal;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use num_rational::BigRational;
use pathology::analytic::dgame::report::{Layout, decision_report, f64_note};
use pathology::analytic::dgame::table::{
    SecondFactor, compute_columns_in_order, compute_columns_with_progress, sweep_settings,
};
use pathology::analytic::dgame::{DecisionColumn, DependenceFactors};
use pathology::numeric::number::{Probability, short_text};
use pathology::report::{Report, Table, TableStream};

use super::args::{OutputArgs, TableOutput, height, positive_rational, probability};

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
    let result = if args.output.exact {
        sweep::<BigRational>(report, &settings, args.height, &args.output.output, &bar)
    } else {
        sweep::<f64>(report, &settings, args.height, &args.output.output, &bar)
    };
    bar.finish_and_clear();
    result
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

/// D(d,h) of every setting in the mode `P`, one row per setting, each printed as soon as it
/// and the settings before it are computed (the settings run in parallel), in any format:
/// the output is byte for byte the whole report's. With `--table ps` the (small) PS table is
/// printed at the end.
fn sweep<P: Probability>(
    report: Report,
    settings: &[(BigRational, BigRational)],
    height: u32,
    output: &OutputArgs,
    bar: &ProgressBar,
) -> anyhow::Result<()> {
    let converted: Vec<(P, P)> = settings
        .iter()
        .map(|(a, b)| (P::from_rational(a), P::from_rational(b)))
        .collect();
    output.check_table(&["decisions", "ps"])?;
    if !matches!(output.table.as_deref(), None | Some("decisions")) {
        let columns = compute_columns_with_progress(&converted, height, &|| bar.inc(1))?;
        let report = decision_report(report, &columns, settings, Layout::SettingRows, None);
        return output.emit(&report, 3);
    }
    // The layout, and the widest it can be: every setting with placeholder values 1/2 (a
    // probability prints as wide as 1/2 to the same decimals, or narrower).
    let half = P::from_rational(&BigRational::new(1.into(), 2.into()));
    let placeholders = converted
        .iter()
        .map(|(a, b)| {
            Ok(DecisionColumn {
                factors: DependenceFactors::new(a.clone(), b.clone())?,
                height,
                values: vec![half.clone(); height as usize],
                error_bounds: vec![0.0; height as usize],
            })
        })
        .collect::<pathology::Result<Vec<_>>>()?;
    let layout = decision_report(
        report.clone(),
        &placeholders,
        settings,
        Layout::SettingRows,
        None,
    );
    let (decisions, ps_schema) = (&layout.tables[0], &layout.tables[1]);
    let others: Vec<&Table> = if output.table.is_none() {
        vec![ps_schema]
    } else {
        Vec::new()
    };
    // Opened at the first finished setting: the cost check inside
    // `compute_columns_in_order` refuses before anything is printed.
    let open = || {
        TableStream::start(
            std::io::BufWriter::new(
                super::stdout_writer().context("cannot write to standard output")?,
            ),
            &layout,
            decisions,
            &others,
            output.format,
            &output.options(3),
            decisions,
        )
        .context("cannot write to standard output")
    };
    let mut stream = None;
    let mut ps = ps_schema.clone();
    ps.rows.clear();
    let mut largest = 0.0f64;
    compute_columns_in_order(
        &converted,
        height,
        &|| bar.inc(1),
        |i, column: DecisionColumn<P>| {
            largest = column.error_bounds.iter().copied().fold(largest, f64::max);
            let one = decision_report(
                report.clone(),
                std::slice::from_ref(&column),
                &settings[i..=i],
                Layout::SettingRows,
                None,
            );
            let table = &one.tables[0];
            if stream.is_none() {
                stream = Some(bar.suspend(open)?);
            }
            let stream = stream.as_mut().expect("opened");
            bar.suspend(|| {
                if stream.wants_rows() {
                    stream.push_rows(&table.rows)?;
                }
                if let Some(grid) = &table.grid {
                    stream.push_grid(&grid.body)?;
                }
                Ok::<(), std::io::Error>(())
            })
            .context("cannot write to standard output")?;
            ps.rows.extend(one.tables[1].rows.iter().cloned());
            Ok::<(), anyhow::Error>(())
        },
    )?;
    let others = if output.table.is_none() {
        vec![ps]
    } else {
        Vec::new()
    };
    let notes = if P::EXACT {
        Vec::new()
    } else {
        vec![f64_note(height, largest)]
    };
    bar.finish_and_clear();
    let stream = match stream {
        Some(stream) => stream,
        None => open()?,
    };
    stream
        .finish(others, notes)
        .context("cannot write to standard output")?;
    Ok(())
}
