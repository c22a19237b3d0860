//! `pathology rhf`, `pathology wb`, `pathology emm`: the closed forms of Chi & Nau (rhf),
//! Nau/Pearl (w_b) and Wilson, Parker & Nau (EMM depth-one errors, the Fig. 2 example).

use std::path::{Path, PathBuf};

use anyhow::Context;
use num_rational::BigRational;
use pathology::closed_form::{DepthOneTree, rhf, two_level_example_error, w_b};
use pathology::emm::{BackUpRule, back_up, figure_2_tree};
use pathology::number::{Probability, short_text};
use serde_json::json;

use super::args::probability;

/// Output style.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Style {
    Text,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct RhfArgs {
    /// Weight w of the true value in e^w = w u + (1 - w) r, in [0, 1].
    #[arg(long, value_parser = probability)]
    w: BigRational,
    /// xi = Pr[u(n) = 1] (default: w_b for --branching, i.e. w_2 = 0.381966...).
    #[arg(long, value_parser = probability, conflicts_with = "branching")]
    xi: Option<BigRational>,
    /// Take xi = w_b for this branching factor.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(2..))]
    branching: u32,
    /// Compute exactly (needs --xi: w_b is irrational).
    #[arg(long, requires = "xi")]
    exact: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Style::Text)]
    format: Style,
}

#[derive(Debug, clap::Args)]
pub struct WbArgs {
    /// Branching factor b >= 2.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..))]
    branching: u32,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Style::Text)]
    format: Style,
}

#[derive(Debug, clap::Args)]
pub struct EmmArgs {
    #[command(subcommand)]
    command: EmmCommand,
}

#[derive(Debug, clap::Subcommand)]
enum EmmCommand {
    /// Wilson et al.'s Fig. 2 example, backed up by Algorithm 1 in exact arithmetic.
    Example(ExampleArgs),
    /// The depth-one error formulas error(A..D) at one evaluation error e.
    DepthOne(DepthOneArgs),
}

#[derive(Debug, clap::Args)]
struct ExampleArgs {
    /// Static evaluation error e (the paper: 0.1).
    #[arg(long, value_parser = probability, default_value = "0.1")]
    error: BigRational,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Style::Text)]
    format: Style,
}

#[derive(Debug, clap::Args)]
struct DepthOneArgs {
    /// Static evaluation error e, in [0, 1].
    #[arg(long, value_parser = probability)]
    e: BigRational,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Style::Text)]
    format: Style,
}

pub fn run_rhf(args: RhfArgs) -> anyhow::Result<()> {
    let (value, value_text, xi_f64, exact) = match (&args.xi, args.exact) {
        (Some(xi), true) => {
            let r: BigRational = rhf(args.w.clone(), xi.clone())?;
            (r.to_f64(), r.to_decimal(10), xi.to_f64(), r.exact_string())
        }
        (Some(xi), false) => {
            let r = rhf(args.w.to_f64(), xi.to_f64())?;
            (r, r.to_decimal(10), xi.to_f64(), None)
        }
        (None, _) => {
            let xi = w_b(args.branching)?;
            let r = rhf(args.w.to_f64(), xi)?;
            (r, r.to_decimal(10), xi, None)
        }
    };
    let xi_source = match &args.xi {
        Some(x) => format!("xi = {}", short_text(x)),
        None => format!("xi = w_{} = {xi_f64:.10}", args.branching),
    };
    let text = match args.format {
        Style::Json => {
            let mut v = json!({
                "w": args.w.to_f64(),
                "rhf": value,
                "xi": xi_f64,
                "xi_source": if args.xi.is_some() { "given".to_string() } else { format!("w_{}", args.branching) },
            });
            if let Some(e) = exact {
                v["rhf_exact"] = json!(e);
            }
            format!("{}\n", serde_json::to_string_pretty(&v)?)
        }
        Style::Text => format!(
            "rhf({}) = {value_text}  ({xi_source}; Chi & Nau Section 5: ((1-2w)/(1-w))^2 xi (1-xi) \
             for w <= 0.5, 0 above;\n two distinct nodes at one depth, independent true values and \
             noise){}\n",
            short_text(&args.w),
            exact.map(|e| format!("\nexact: {e}")).unwrap_or_default()
        ),
    };
    super::print(&text)
}

pub fn run_wb(args: WbArgs) -> anyhow::Result<()> {
    let x = w_b(args.branching)?;
    let text = match args.format {
        Style::Json => format!(
            "{}\n",
            serde_json::to_string_pretty(&json!({"branching": args.branching, "w_b": x}))?
        ),
        Style::Text => format!(
            "w_{} = {x:.10}  (the root in (0, 1) of (1 - x)^{} = x)\n",
            args.branching, args.branching
        ),
    };
    super::print(&text)
}

pub fn run_emm(args: EmmArgs) -> anyhow::Result<()> {
    match args.command {
        EmmCommand::Example(a) => super::print(&emm_example(&a)?),
        EmmCommand::DepthOne(a) => super::print(&depth_one(&a)?),
    }
}

fn emm_example(args: &ExampleArgs) -> anyhow::Result<String> {
    let tree = figure_2_tree();
    let emm = back_up(&tree, &args.error, BackUpRule::Emm);
    let plain = back_up(&tree, &args.error, BackUpRule::Minimax);
    let exact = |v: &BigRational| v.exact_string().unwrap_or_default();
    let value = |win: bool| if win { "win" } else { "loss" };
    Ok(match args.format {
        Style::Json => format!(
            "{}\n",
            serde_json::to_string_pretty(&json!({
                "static_error": exact(&args.error),
                "emm": {"root": value(emm.win), "error": exact(&emm.error), "error_decimal": emm.error.to_f64()},
                "without_static_preference": {"root": value(plain.win), "error": exact(&plain.error), "error_decimal": plain.error.to_f64()},
            }))?
        ),
        Style::Text => format!(
            "Wilson, Parker & Nau Fig. 2: root A (player 1 to move) over B and C (player 2 to move);\n\
             leaves D, E under B and F under C are wins for player 1, G under C a loss; static error e = {}\n\n\
             EMM (Algorithm 1):              root A is a {} for player 1 with error {} = {}\n\
             without the static preference:  root A is a {} for player 1 with error {} = {}\n",
            short_text(&args.error),
            value(emm.win),
            exact(&emm.error),
            emm.error.to_decimal(6),
            value(plain.win),
            exact(&plain.error),
            plain.error.to_decimal(6),
        ),
    })
}

fn depth_one(args: &DepthOneArgs) -> anyhow::Result<String> {
    let e = &args.e;
    let rows = [
        ("A", DepthOneTree::A.error(e.clone())),
        ("B", DepthOneTree::B.error(e.clone())),
        ("C", DepthOneTree::C.error(e.clone())),
        ("D", DepthOneTree::D.error(e.clone())),
        ("D over two A", two_level_example_error(e.clone())),
    ];
    Ok(match args.format {
        Style::Json => {
            let mut v = json!({"e": e.to_f64()});
            for (name, value) in &rows {
                v[format!("error({name})")] = json!(value.to_f64());
            }
            format!("{}\n", serde_json::to_string_pretty(&v)?)
        }
        Style::Text => {
            let mut table = vec![vec![
                "tree".to_string(),
                "root error".into(),
                "exact".into(),
            ]];
            table.push(vec!["static".into(), e.to_decimal(6), short_text(e)]);
            for (name, value) in &rows {
                table.push(vec![
                    (*name).to_string(),
                    value.to_decimal(6),
                    short_text(value),
                ]);
            }
            format!(
                "Wilson, Parker & Nau depth-one errors at e = {}\n\n{}",
                short_text(e),
                pathology::output::align_columns(&table)
            )
        }
    })
}

/// Writes Chi & Nau's Fig. 2 (rhf against w) and Wilson et al.'s Fig. 1 (depth-one errors)
/// as PNG and SVG into `out_dir`.
///
/// # Errors
///
/// When a file cannot be written.
pub fn write_figures(out_dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    use pathology::plot::{Axes, Series, line_chart};
    let mut written = Vec::new();
    let grid = |n: u32, top: f64| (0..=n).map(move |k| top * f64::from(k) / f64::from(n));
    let xi = w_b(2)?;
    let rhf_series = vec![Series {
        label: format!("xi = w_2 = {xi:.3}"),
        points: grid(200, 1.0)
            .map(|w| Ok((w, rhf(w, xi)?)))
            .collect::<anyhow::Result<_>>()?,
    }];
    let rhf_axes = Axes {
        title: "Chi & Nau Fig. 2: rhf of e^w = w u + (1 - w) r".into(),
        x_label: "w".into(),
        y_label: "rhf".into(),
        x_range: (0.0, 1.0),
        y_range: (0.0, 0.25),
    };
    let error_series: Vec<Series> = [
        ("static evaluation, f(e) = e", None),
        ("A: e^2", Some(DepthOneTree::A)),
        ("B, C: e (1 - e)", Some(DepthOneTree::B)),
        ("D: 1 - (1 - e)^2", Some(DepthOneTree::D)),
    ]
    .into_iter()
    .map(|(label, tree)| Series {
        label: label.to_string(),
        points: grid(100, 0.5)
            .map(|e| (e, tree.map_or(e, |t| t.error(e))))
            .collect(),
    })
    .chain(std::iter::once(Series {
        label: "D over two A: 1 - (1 - e^2)^2".into(),
        points: grid(100, 0.5)
            .map(|e| (e, two_level_example_error(e)))
            .collect(),
    }))
    .collect();
    let error_axes = Axes {
        title: "Wilson et al. Fig. 1: depth-one search error".into(),
        x_label: "leaf evaluation error e".into(),
        y_label: "error at the root".into(),
        x_range: (0.0, 0.5),
        y_range: (0.0, 0.8),
    };
    for ext in ["png", "svg"] {
        let path = out_dir.join(format!("rhf_chi_nau_fig2.{ext}"));
        line_chart(&path, &rhf_axes, &rhf_series, false)
            .with_context(|| format!("drawing {}", path.display()))?;
        written.push(path);
        let path = out_dir.join(format!("emm_depth_one_fig1.{ext}"));
        line_chart(&path, &error_axes, &error_series, false)
            .with_context(|| format!("drawing {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}
