//! `pathology merge`: the experiments whose shards can be merged, and the dispatch to the
//! study that rebuilds each one's report from the summed counts.
//!
//! The checks and the sums are schema-driven and live in the Monte Carlo engine
//! ([`crate::sim::report::check_shards`], [`crate::sim::report::summed_columns`]); each study
//! owns the function that turns its summed counts back into the very report an unsharded run
//! prints. A new mergeable experiment adds one line to [`MERGEABLE`] and one arm below.

use crate::error::{Error, Result};
use crate::report::Report;
use crate::report::read::ReadTable;
use crate::sim::report::{McRun, check_shards};

/// The experiments `merge` knows.
pub const MERGEABLE: &[&str] = &[
    "mc dgame",
    "mc errprop",
    "mc rhf",
    "mc emm",
    "mc match",
    "mc match-sweep",
    "mc match-table",
    "mc distributions",
    "mc uct",
    "mc ggame",
    "mc ballard",
    "mc sum",
];

/// Merges the outputs of the N shards of one seeded run (`--shard 1/N` .. `N/N`, any order;
/// CSV or JSON as read by [`crate::report::read`]) into the report of the unsharded run.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `FILE` when the inputs are not the shards of one run
/// (different experiment, parameters, seed, version or commit; a shard missing or repeated),
/// or an experiment `merge` does not know.
pub fn merge(inputs: &[(String, ReadTable)]) -> Result<Report> {
    let manifest = check_shards(inputs)?;
    let run = McRun {
        trials: manifest.trials,
        seed: manifest.seed,
        shard: None,
    };
    match manifest.subcommand.as_str() {
        "mc dgame" => super::crossval::report::merge_dgame(&run, &manifest, inputs),
        "mc errprop" => super::crossval::report::merge_errprop(&run, &manifest, inputs),
        "mc rhf" => super::crossval::report::merge_rhf(&run, &manifest, inputs),
        "mc distributions" => {
            super::crossval::distributions_report::merge_distributions(&run, &manifest, inputs)
        }
        "mc sum" => super::crossval::pathsum_report::merge_sum(&run, &manifest, inputs),
        "mc emm" => {
            super::wilson_parker_nau::report::merge_shards(&run, &manifest.parameters, inputs)
        }
        "mc match" | "mc match-sweep" | "mc match-table" => super::chi_nau::match_report::merge(
            &manifest.subcommand,
            &manifest.parameters,
            manifest.seed,
            inputs,
        ),
        "mc uct" => {
            super::nguyen_ramanujan::report::merge_shards(&run, &manifest.parameters, inputs)
        }
        "mc ggame" => super::chi_nau::ggame::merge(&run, &manifest, inputs),
        "mc ballard" => super::chi_nau::ballard::merge(&manifest.parameters, manifest.seed, inputs),
        other => Err(Error::invalid(
            "FILE",
            &format!("the output of one of {}", MERGEABLE.join(", ")),
            other,
        )),
    }
}
