//! `pathology dgame`: D(d,h) for every depth (or one) and PS, for one (f1, f2).

use anyhow::Context;
use num_rational::BigRational;
use pathology::dgame::f2_from_p0;
use pathology::number::short_text;
use pathology::output::Layout;

use super::args::{TableOutput, height, probability};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Height h of the node where the decision is made.
    #[arg(long, value_parser = height)]
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
    #[arg(long)]
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
    if args.complement {
        return super::print(&complement_table(&args, &f2)?);
    }
    let settings = [(args.f1.clone(), f2)];
    let text = args.output.render(
        &title,
        &settings,
        args.height,
        Layout::DepthRows,
        args.depth,
    )?;
    super::print(&text)
}

/// `1 - D(d,h)` with its enclosure, in the chosen format.
fn complement_table(args: &Args, f2: &BigRational) -> anyhow::Result<String> {
    use pathology::dgame::complement::ComplementSolver;
    use pathology::number::format_scientific_directed;
    use pathology::output::{Format, align_columns, csv_string, latex_escape, markdown_table};

    let h = args.height;
    let mut solver = ComplementSolver::new(&args.f1, f2)?;
    let enclosures = match args.depth {
        Some(d) => vec![(d, solver.wrong_decision(d, h)?)],
        None => (1..=h).zip(solver.wrong_decision_column(h)?).collect(),
    };
    let bound = |x: f64, digits: usize, up: bool| {
        let exact = BigRational::from_float(x).expect("enclosure bounds are finite");
        format_scientific_directed(&exact, digits, up)
    };
    let (f1_text, f2_text) = (short_text(&args.f1), short_text(f2));
    let title = format!("1 - D(d,{h}) for f1 = {f1_text}, f2 = {f2_text}");
    let note = "1 - D(d,h) lies between lower and upper (rigorous: relative rounding bounds, \
                bounds rounded outward); the pair (d-1, d) is pathological when 1 - D rises";
    let rows = |digits: usize| -> Vec<Vec<String>> {
        enclosures
            .iter()
            .map(|(d, e)| {
                vec![
                    d.to_string(),
                    if digits > 10 {
                        format!("{:e}", e.estimate)
                    } else {
                        format!("{:.6e}", e.estimate)
                    },
                    bound(e.lower(), digits, false),
                    bound(e.upper(), digits, true),
                ]
            })
            .collect()
    };
    let header = ["d", "1 - D(d,h)", "lower", "upper"];
    Ok(match args.output.format {
        Format::Text => {
            let mut table = vec![header.iter().map(|s| s.to_string()).collect()];
            table.extend(rows(10));
            format!("{title}\n\n{}\n{note}\n", align_columns(&table))
        }
        Format::Csv => {
            let csv_rows: Vec<Vec<String>> = rows(17)
                .into_iter()
                .map(|r| {
                    let mut row = vec![h.to_string(), f1_text.clone(), f2_text.clone()];
                    row.extend(r);
                    row
                })
                .collect();
            csv_string(
                &["h", "f1", "f2", "d", "complement", "lower", "upper"],
                &csv_rows,
            )?
        }
        Format::Json => {
            let cells: Vec<serde_json::Value> = enclosures
                .iter()
                .map(|(d, e)| {
                    serde_json::json!({
                        "d": d,
                        "complement": e.estimate,
                        "lower": e.lower(),
                        "upper": e.upper(),
                        "relative_error_bound": e.slack.relative,
                        "absolute_error_bound": e.slack.absolute,
                    })
                })
                .collect();
            let value = serde_json::json!({
                "h": h, "f1": f1_text, "f2": f2_text, "cells": cells,
            });
            format!("{}\n", serde_json::to_string_pretty(&value)?)
        }
        Format::Markdown => {
            let header: Vec<String> = header.iter().map(|s| s.to_string()).collect();
            format!(
                "**{title}**\n\n{}\n{note}\n",
                markdown_table(&header, &rows(10))
            )
        }
        Format::Latex => {
            let mut out = format!(
                "% {}\n\\begin{{tabular}}{{rrrr}}\n\\toprule\n$d$ & $1 - D(d,{h})$ & lower & upper \\\\\n\\midrule\n",
                latex_escape(&title)
            );
            for row in rows(10) {
                out.push_str(&format!("{} \\\\\n", row.join(" & ")));
            }
            out.push_str("\\bottomrule\n\\end{tabular}\n");
            out
        }
    })
}
