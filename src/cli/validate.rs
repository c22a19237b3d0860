//! `pathology validate FILE`: a researcher's own simulation results against the exact values.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use pathology::output::{align_columns, csv_string};
use pathology::validate::{Report, validate};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// CSV with a header: kind (dgame | errprop | rhf), the kind's parameters, estimate,
    /// trials (see the README or `examples/validate_input.csv`).
    file: PathBuf,
    /// Significance level (family-wise, with Holm's correction).
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// Output format: text, csv or json.
    #[arg(long, value_parser = ["text", "csv", "json"], default_value = "text")]
    format: String,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let file = File::open(&args.file).map_err(|e| {
        pathology::Error::invalid(
            "FILE",
            "a readable CSV file",
            format!("{} ({e})", args.file.display()),
        )
    })?;
    let report = validate(BufReader::new(file), args.alpha)?;
    let text = match args.format.as_str() {
        "json" => format!("{}\n", serde_json::to_string_pretty(&to_json(&report))?),
        "csv" => to_csv(&report)?,
        _ => to_text(&report),
    };
    super::print(&text)
}

fn p_text(p: f64) -> String {
    if p >= 1e-3 {
        format!("{p:.4}")
    } else {
        format!("{p:.2e}")
    }
}

fn number(x: f64) -> String {
    if x.is_infinite() {
        x.to_string()
    } else {
        format!("{x:.4}")
    }
}

/// The checked rows as an aligned table (also used by `reproduce`).
pub fn rows_text(report: &Report) -> String {
    let mut rows = vec![
        [
            "line",
            "kind",
            "parameters",
            "estimate",
            "trials",
            "exact",
            "z",
            "p",
            "Holm p",
            "verdict (Holm)",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>(),
    ];
    for r in &report.rows {
        rows.push(vec![
            r.line.to_string(),
            r.kind.clone(),
            r.parameters.clone(),
            format!("{}", r.estimate),
            r.trials.to_string(),
            format!("{:.6}", r.exact),
            number(r.z),
            p_text(r.p_value),
            p_text(r.holm_p_value),
            format!("{:?}", r.holm_verdict).to_lowercase(),
        ]);
    }
    align_columns(&rows)
}

fn to_text(report: &Report) -> String {
    let mut out = rows_text(report);
    if !report.errors.is_empty() {
        out.push_str("\nmalformed rows (not checked):\n");
        for e in &report.errors {
            out.push_str(&format!("  line {}: {}\n", e.line, e.reason));
        }
    }
    out.push_str(&format!("\n{}\n", report.summary()));
    out
}

fn to_csv(report: &Report) -> anyhow::Result<String> {
    let header = [
        "line",
        "kind",
        "parameters",
        "estimate",
        "trials",
        "exact",
        "z",
        "p_value",
        "verdict",
        "holm_p_value",
        "holm_verdict",
        "error",
    ];
    let mut rows: Vec<(u64, Vec<String>)> = report
        .rows
        .iter()
        .map(|r| {
            (
                r.line,
                vec![
                    r.line.to_string(),
                    r.kind.clone(),
                    r.parameters.clone(),
                    r.estimate.to_string(),
                    r.trials.to_string(),
                    r.exact.to_string(),
                    r.z.to_string(),
                    r.p_value.to_string(),
                    format!("{:?}", r.verdict).to_lowercase(),
                    r.holm_p_value.to_string(),
                    format!("{:?}", r.holm_verdict).to_lowercase(),
                    String::new(),
                ],
            )
        })
        .collect();
    for e in &report.errors {
        let mut row = vec![String::new(); header.len()];
        row[0] = e.line.to_string();
        row[11] = e.reason.clone();
        rows.push((e.line, row));
    }
    rows.sort_by_key(|(line, _)| *line);
    let rows: Vec<Vec<String>> = rows.into_iter().map(|(_, r)| r).collect();
    Ok(csv_string(&header, &rows)?)
}

fn to_json(report: &Report) -> serde_json::Value {
    serde_json::json!({
        "alpha": report.alpha,
        "correction": "holm",
        "rows": report.rows,
        "errors": report.errors,
        "checked": report.rows.len(),
        "malformed": report.errors.len(),
        "disagree": report.disagreeing(),
        "disagree_holm": report.holm_disagreeing(),
        "summary": report.summary(),
    })
}
