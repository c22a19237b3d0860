//! `pathology reproduce`: the main job. Regenerates the papers' tables into `plots/`.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;
use num_rational::BigRational;
use pathology::dgame::table::PaperTable;
use pathology::dgame::threshold::pathology_threshold;
use pathology::output::{DecisionTable, Format, Layout};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory to write into.
    #[arg(long, default_value = "plots")]
    out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    fs::create_dir_all(&args.out)
        .with_context(|| format!("creating the output directory {}", args.out.display()))?;
    let mut printed = String::new();
    for table in [PaperTable::One, PaperTable::Two] {
        // Computed exactly; every printed decimal is the exact value correctly rounded.
        let columns = table.compute::<BigRational>()?;
        let render = DecisionTable {
            title: table.caption().to_string(),
            columns: &columns,
            layout: Layout::DepthRows,
            decimals: 3,
            only_depth: None,
            labels: None,
        };
        let stem = format!("table{}", table.number());
        for format in [Format::Text, Format::Markdown, Format::Csv, Format::Latex] {
            write(
                &args.out,
                &format!("{stem}.{}", format.extension()),
                &render.render(format),
            )?;
        }
        printed.push_str(&render.render(Format::Text));
        printed.push('\n');
    }
    let report = pathology_threshold(10, 1000, 1e-10)?;
    let text = super::threshold::to_text(&report);
    write(&args.out, "threshold_h10.txt", &text)?;
    printed.push_str(&text);
    let figures = super::errprop::write_figures(&args.out)?;
    printed.push_str(&format!("\n{} figure files (Li & Marsland Figs. 2-4, phase portrait, Chi & Nau Fig. 2, Wilson et al. Fig. 1)\n", figures.len()));
    printed.push_str(&format!("\nwritten to {}/\n", args.out.display()));
    super::print(&printed)
}

fn write(dir: &Path, name: &str, contents: &str) -> anyhow::Result<()> {
    let path = dir.join(name);
    fs::write(&path, contents).with_context(|| format!("writing {}", path.display()))
}
