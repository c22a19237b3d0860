//! `pathology threshold`: the dependence factor above which no depth is pathological.

use pathology::dgame::threshold::{ThresholdReport, pathology_threshold};
use pathology::number::{Probability, short_text};
use serde_json::json;

use super::args::height;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Height h of the node where the decision is made.
    #[arg(long, value_parser = height)]
    height: u32,
    /// Grid steps N: f = k/N is scanned from 1 downward before bisection.
    #[arg(long, default_value_t = 1000)]
    grid: u32,
    /// Stop bisecting when the bracket is narrower than this.
    #[arg(long, default_value_t = 1e-10)]
    tolerance: f64,
    /// Output format: text or json.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    format: String,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let report = pathology_threshold(args.height, args.grid, args.tolerance)?;
    let text = if args.format == "json" {
        format!("{}\n", serde_json::to_string_pretty(&to_json(&report))?)
    } else {
        to_text(&report)
    };
    super::print(&text)
}

/// The report as text.
pub fn to_text(r: &ThresholdReport) -> String {
    let mut out = format!("Pathology threshold at h = {} (f1 = f2 = f)\n\n", r.height);
    match &r.lower {
        Some(lo) => {
            out.push_str(&format!(
                "f* = {:.10}, between {} (pathological) and {} (not)\n",
                r.estimate().unwrap_or(f64::NAN),
                lo.to_decimal(12),
                r.upper.to_decimal(12)
            ));
            let pairs: Vec<String> = r
                .last_pairs
                .iter()
                .map(|d| format!("D({},{h}) > D({d},{h})", d - 1, h = r.height))
                .collect();
            out.push_str(&format!(
                "last pair to turn non-pathological: {}\n",
                pairs.join(", ")
            ));
        }
        None => out.push_str("no grid point has a pathological pair\n"),
    }
    let except = if r.uncertain.is_empty() {
        ""
    } else {
        " apart from the undecided pairs listed below"
    };
    out.push_str(&format!(
        "checked: no pathological pair at f = k/{n} for k = {}..={n}{except}; {} points evaluated\n",
        r.clear_from,
        r.evaluations,
        n = r.grid_steps,
    ));
    out.push_str(&format!("sign decisions: {}\n", r.decisions.summary()));
    if !r.uncertain.is_empty() {
        out.push_str(
            "not certified (f64 difference within its rounding bound, recomputation beyond the time budget):\n",
        );
        for (f, depths) in &r.uncertain {
            let pairs: Vec<String> = depths.iter().map(|d| format!("({},{d})", d - 1)).collect();
            out.push_str(&format!(
                "  f = {}: pairs {}\n",
                short_text(f),
                pairs.join(" ")
            ));
        }
    }
    out
}

/// The report as JSON.
pub fn to_json(r: &ThresholdReport) -> serde_json::Value {
    json!({
        "height": r.height,
        "estimate": r.estimate(),
        "lower": r.lower.as_ref().map(|x| x.to_f64()),
        "upper": r.upper.to_f64(),
        "lower_exact": r.lower.as_ref().map(short_text),
        "upper_exact": short_text(&r.upper),
        "last_pairs": r.last_pairs.iter().map(|d| json!({"shallower": d - 1, "deeper": d})).collect::<Vec<_>>(),
        "grid_steps": r.grid_steps,
        "clear_from": r.clear_from,
        "evaluations": r.evaluations,
        "relative_decisions": r.decisions.relative,
        "double_double_decisions": r.decisions.double_double,
        "exact_decisions": r.decisions.exact,
        "undecided": r.decisions.undecided,
        "uncertain": r.uncertain.iter().map(|(f, depths)| json!({"f": short_text(f), "depths": depths})).collect::<Vec<_>>(),
    })
}
