//! `pathology merge`: the outputs of the N shards of one seeded `mc` run combined into the
//! unsharded result.

use std::path::PathBuf;

use crate::report::read::read_any;
use crate::studies::merge::merge;
use anyhow::Context;

/// Combine the outputs of `pathology mc ... --shard K/N` (K = 1..N, CSV or JSON, any order)
/// into the result of the unsharded run with the same seed, byte for byte. A CSV shard
/// carries its manifest in `#` lines (`--manifest inline`) or beside it in
/// NAME.csv.manifest.json (`--manifest NAME.csv.manifest.json`).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shard outputs (`-` reads standard input once).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    output: super::args::OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    // Standard input holds one shard: a second `-` would read it again, empty.
    let stdin = args.files.iter().filter(|p| p.as_os_str() == "-").count();
    if stdin > 1 {
        return Err(crate::Error::invalid(
            "FILE",
            "given as - (standard input) at most once: it holds one shard",
            format!("- {stdin} times"),
        )
        .into());
    }
    let mut inputs = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        let text =
            crate::report::read::read_input(path).with_context(|| format!("reading {name}"))?;
        let mut table = read_any(&text, None).with_context(|| format!("reading {name}"))?;
        if table.manifest.is_empty() && !text.trim_start().starts_with('{') {
            table.manifest = sidecar_manifest(path)?;
        }
        inputs.push((name, table));
    }
    let report = merge(&inputs)?;
    args.output.emit(&report, 4)
}

/// The manifest of a plain CSV shard, from its sidecar `NAME.csv.manifest.json`.
fn sidecar_manifest(path: &std::path::Path) -> anyhow::Result<Vec<String>> {
    let sidecar = crate::report::sidecar_path(path);
    let name = path.display().to_string();
    if name == "-" || !sidecar.is_file() {
        return Err(crate::Error::invalid(
            "FILE",
            "a shard output with its manifest (JSON; CSV written with --manifest inline; or CSV \
             with its manifest beside it, written with --manifest NAME.csv.manifest.json)",
            format!(
                "{name}, a CSV without # manifest lines{}",
                if name == "-" {
                    String::new()
                } else {
                    format!(" and no {}", sidecar.display())
                }
            ),
        )
        .into());
    }
    let text = crate::report::read::read_capped(
        &sidecar,
        "FILE",
        "a readable CSV manifest sidecar (NAME.csv.manifest.json)",
    )?;
    Ok(crate::report::read::read_sidecar(
        &text,
        &sidecar.display().to_string(),
    )?)
}
