//! `pathology merge`: the outputs of the N shards of one seeded `mc` run, of a sampled
//! `domain` run or of `samples curves`, combined into the unsharded result: `domain
//! eight-puzzle | krk | kqk` go to [`crate::domains::merge`], `samples curves` to
//! [`crate::samples::shards::merge`], the `mc` experiments to [`crate::studies::merge`].

use std::path::PathBuf;

use crate::report::read::read_any;
use crate::samples::simulate as samples_mc;
use crate::{domains, inference_sim, samples, studies};
use anyhow::Context;

/// Combine the outputs of `pathology mc ... --shard K/N`, of a sampled `pathology domain
/// eight-puzzle|krk|kqk ... --shard K/N` or of `pathology samples curves ... --shard K/N`
/// (K = 1..N, CSV or JSON, any order) into the result of the unsharded run (with the same
/// seed), byte for byte. A domain's CSV shards must hold
/// its table split by distance (`--table by_distance`, `--table by_dtm`). A CSV shard
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
        let json = text.trim_start().starts_with('{');
        if !json {
            let sidecar = crate::report::sidecar_path(path);
            if table.manifest.is_empty() {
                table.manifest = sidecar_manifest(path)?;
            } else if name != "-" && sidecar.is_file() {
                // Two manifests for one shard: they must say the same.
                let beside = sidecar_manifest(path)?;
                // The seed and parameters first: a differing command line says less.
                let differing = beside
                    .iter()
                    .filter(|l| !table.manifest.contains(l))
                    .min_by_key(|l| !(l.starts_with("seed: ") || l.starts_with("parameter ")));
                if let Some(line) = differing {
                    return Err(crate::Error::invalid(
                        "FILE",
                        "a CSV shard whose # manifest lines and manifest sidecar agree",
                        format!(
                            "{name} (its # lines) and {} disagree: the sidecar says {line:?}, \
                             the # lines {}",
                            sidecar.display(),
                            disagreeing(&table.manifest, line)
                        ),
                    )
                    .into());
                }
            }
        }
        // A domain's shards are merged from its table split by distance: JSON is read there.
        let subcommand = table.manifest_value("subcommand").unwrap_or("").to_string();
        if json && let Some(split) = domains::merge::shard_table(&subcommand) {
            table = read_any(&text, Some(split)).map_err(|_| {
                crate::Error::invalid(
                    "FILE",
                    &format!("a JSON output of {subcommand} with its {split} table"),
                    &name,
                )
            })?;
        }
        crate::report::read::check_manifest_binds_rows(&mut table, &name)?;
        inputs.push((name, table));
    }
    let subcommand = inputs
        .first()
        .and_then(|(_, t)| t.manifest_value("subcommand"))
        .unwrap_or("")
        .to_string();
    let report = if domains::merge::MERGEABLE.contains(&subcommand.as_str()) {
        domains::merge::merge(&inputs)?
    } else if inference_sim::MERGEABLE.contains(&subcommand.as_str()) {
        inference_sim::merge(&inputs)?
    } else if samples_mc::MERGEABLE.contains(&subcommand.as_str()) {
        samples_mc::merge(&inputs)?
    } else if samples::shards::MERGEABLE.contains(&subcommand.as_str()) {
        samples::shards::merge(&inputs)?
    } else if studies::merge::MERGEABLE.contains(&subcommand.as_str()) {
        studies::merge::merge(&inputs)?
    } else {
        // Not shards of one run first (as for a known experiment), then the experiment.
        crate::sim::report::check_shards(&inputs)?;
        let known: Vec<&str> = studies::merge::MERGEABLE
            .iter()
            .chain(domains::merge::MERGEABLE)
            .chain(&inference_sim::MERGEABLE)
            .chain(&samples_mc::MERGEABLE)
            .chain(samples::shards::MERGEABLE)
            .copied()
            .collect();
        return Err(crate::Error::invalid(
            "FILE",
            &format!("the output of one of {}", known.join(", ")),
            subcommand,
        )
        .into());
    };
    args.output.emit(&report, 4)
}

/// What `lines` say of the key of `line` (`key: value`): its value there, or that they lack it.
fn disagreeing(lines: &[String], line: &str) -> String {
    let key = line.split_once(": ").map_or(line, |(k, _)| k);
    lines
        .iter()
        .find(|l| l.split_once(": ").is_some_and(|(k, _)| k == key))
        .map_or_else(|| format!("have no {key} line"), |l| format!("say {l:?}"))
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
