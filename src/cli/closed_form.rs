//! `pathology rhf`, `pathology wb`, `pathology emm`: the closed forms of Chi & Nau (rhf),
//! Nau/Pearl (w_b) and Wilson, Parker & Nau (EMM depth-one errors, the Fig. 2 example). The
//! reports are built by [`crate::analytic::closed_form::report`].

use crate::analytic::closed_form::report::{Xi, depth_one_at, emm_example_at, rhf_at, w_b_at};
use num_rational::BigRational;

use super::args::{OutputArgs, probability};

#[derive(Debug, clap::Args)]
pub struct RhfArgs {
    /// Weight w of the true value in e^w = w u + (1 - w) r, in [0, 1].
    #[arg(long, value_parser = probability, allow_negative_numbers = true)]
    w: BigRational,
    /// xi = Pr[u(n) = 1] (default: w_b for --branching, i.e. w_2 = 0.381966...).
    #[arg(long, value_parser = probability, conflicts_with = "branching", allow_negative_numbers = true)]
    xi: Option<BigRational>,
    /// Take xi = w_b for this branching factor.
    #[arg(long, default_value_t = 2, value_parser = super::args::whole_in::<u32>(2, u64::from(u32::MAX)), allow_negative_numbers = true)]
    branching: u32,
    /// Compute exactly (needs --xi: w_b is irrational).
    #[arg(long, requires = "xi")]
    exact: bool,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Debug, clap::Args)]
pub struct WbArgs {
    /// Branching factor b >= 2.
    #[arg(long, value_parser = super::args::whole_in::<u32>(2, u64::from(u32::MAX)), allow_negative_numbers = true)]
    branching: u32,
    #[command(flatten)]
    output: OutputArgs,
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
    #[arg(long, value_parser = probability, default_value = "0.1", allow_negative_numbers = true)]
    error: BigRational,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Debug, clap::Args)]
struct DepthOneArgs {
    /// Static evaluation error e, in [0, 1].
    #[arg(long, value_parser = probability, allow_negative_numbers = true)]
    e: BigRational,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run_rhf(args: RhfArgs) -> anyhow::Result<()> {
    let xi = match args.xi {
        Some(x) => Xi::Given(x),
        None => Xi::WB(args.branching),
    };
    args.output.emit(&rhf_at(&args.w, &xi, args.exact)?, 10)
}

pub fn run_wb(args: WbArgs) -> anyhow::Result<()> {
    args.output.emit(&w_b_at(args.branching)?, 10)
}

pub fn run_emm(args: EmmArgs) -> anyhow::Result<()> {
    match args.command {
        EmmCommand::Example(a) => a.output.emit(&emm_example_at(&a.error), 6),
        EmmCommand::DepthOne(a) => a.output.emit(&depth_one_at(&a.e), 6),
    }
}
