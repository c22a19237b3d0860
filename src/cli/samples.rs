//! `pathology samples`: exact curves over the sampling budget k from evaluation samples
//! (per-sample rows or per-problem counts), and two checkpoints compared. Parses the options
//! into [`crate::samples::report::CurvesRequest`] or
//! [`crate::samples::compare::CompareRequest`] and prints its report.

use std::path::PathBuf;

use crate::analytic::inference::{MAX_COUNT, parse_list};
use crate::samples::compare::{COMPARE_TABLES, CompareRequest, compare_report};
use crate::samples::curves::Ties;
use crate::samples::input::{Columns, InputFormat};
use crate::samples::report::{
    CURVES_TABLES, CurvesRequest, Source, beyond_file_report, curves_report, fit_file_report,
};

use super::args::{OutputArgs, seed, shard, whole_in};
use crate::sim::runner::Shard;

const SAMPLES_EXAMPLES: &str = "Examples:
  pathology samples curves tests/data/samples/votes.csv --k 1..8
  pathology samples curves tests/data/samples/votes.jsonl --k 1,2,4 --exact --ties wrong
  pathology samples curves counts.csv --k 1..128 --c-column solved --n-column attempts
  pathology samples compare base.csv tuned.csv --k 1..64 --seed 7 --table summary
  pathology samples fit tests/data/samples/counts.csv --k 1,2,4,8,16
  pathology samples beyond tests/data/samples/counts.csv --k 16,64,256 --moments 4";

/// How to read the input files.
#[derive(Debug, Clone, clap::Args)]
pub struct InputArgs {
    /// The files' format (default: from the extension: .csv, or .jsonl / .json-lines /
    /// .ndjson).
    #[arg(long, value_enum, help_heading = "Input")]
    input_format: Option<InputFormat>,
    /// The column of the problem id.
    #[arg(long, default_value = "problem", help_heading = "Input")]
    problem_column: String,
    /// The column saying whether a sample is correct (0/1/true/false): per-sample rows.
    #[arg(long, default_value = "correct", help_heading = "Input")]
    correct_column: String,
    /// The column of a sample's answer (optional; empty or null is no answer).
    #[arg(long, default_value = "answer", help_heading = "Input")]
    answer_column: String,
    /// The column of a sample's score (optional; a finite number).
    #[arg(long, default_value = "score", help_heading = "Input")]
    score_column: String,
    /// The column of a problem's correct samples c: per-problem count rows.
    #[arg(long, default_value = "c", help_heading = "Input")]
    c_column: String,
    /// The column of a problem's samples n: per-problem count rows.
    #[arg(long, default_value = "n", help_heading = "Input")]
    n_column: String,
}

impl InputArgs {
    fn source(&self, path: PathBuf) -> Source {
        Source {
            path,
            format: self.input_format,
            columns: Columns {
                problem: self.problem_column.clone(),
                correct: self.correct_column.clone(),
                answer: self.answer_column.clone(),
                score: self.score_column.clone(),
                c: self.c_column.clone(),
                n: self.n_column.clone(),
            },
        }
    }
}

/// The options of every `samples` command.
#[derive(Debug, Clone, clap::Args)]
pub struct CurveOptions {
    /// The budgets k: a range A..B or a list 1,2,4 (each at least 1 and at most every
    /// problem's n).
    #[arg(long, allow_hyphen_values = true)]
    k: String,
    /// A tie of votes: one of the tied answers picked uniformly, or wrong.
    #[arg(long, value_enum, default_value_t = Ties::Uniform)]
    ties: Ties,
    /// Drop the problems with fewer samples than the largest k (counted in the output)
    /// instead of refusing them.
    #[arg(long)]
    drop_short: bool,
    /// Compute in exact rationals (and print them) instead of f64 with a rigorous bound.
    #[arg(long)]
    exact: bool,
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,
}

/// `pathology samples`.
#[derive(Debug, clap::Args)]
#[command(after_help = SAMPLES_EXAMPLES)]
pub struct Args {
    #[command(subcommand)]
    command: SamplesCommand,
}

#[derive(Debug, clap::Subcommand)]
enum SamplesCommand {
    /// pass_at_k, pass_all, majority and best_of_k per budget k: exact expectations over all
    /// k-subsets of each problem's samples, averaged over problems, with standard errors,
    /// the best k, where a curve falls, and the claims that it does.
    #[command(after_help = "Examples:
  pathology samples curves tests/data/samples/votes.csv --k 1..8
  pathology samples curves tests/data/samples/votes.jsonl --k 1,2,4 --exact
  pathology samples curves evals.csv --k 1..64 --problem-column task_id --answer-column pred")]
    Curves {
        /// The samples: per-sample rows (problem, correct, optional answer and score) or
        /// per-problem counts (problem, c, n), CSV or JSONL (`-`: standard input, with
        /// --input-format).
        file: PathBuf,
        /// Compute only the K-th of N slices of the problems (their ids sorted), as exact
        /// sums; `pathology merge` of the N outputs gives the unsharded report, byte for byte.
        #[arg(long, value_parser = shard, allow_negative_numbers = true)]
        shard: Option<Shard>,
        #[command(flatten)]
        options: CurveOptions,
    },
    /// B - A of every curve per k, paired by problem id, with a simultaneous 95% band over
    /// the k list: where B is certified better or worse, the point crossover, and a
    /// confidence set for the first budget at which B loses.
    #[command(after_help = "Examples:
  pathology samples compare base.csv tuned.csv --k 1..64
  pathology samples compare base.jsonl tuned.jsonl --k 1,4,16,64 --common --seed 7 --replicates 10000")]
    Compare {
        /// File A (the baseline).
        a: PathBuf,
        /// File B (the differences are B - A).
        b: PathBuf,
        /// Keep the problems both files have (their number is stated) instead of refusing
        /// ids found in one file only.
        #[arg(long)]
        common: bool,
        /// Seed of the multiplier bootstrap's normal draws.
        #[arg(long, value_parser = seed, default_value_t = 1, allow_negative_numbers = true)]
        seed: u64,
        #[command(flatten)]
        unsharded: Unsharded,
        /// Replicates of the multiplier bootstrap (100..=1000000).
        #[arg(long, value_parser = whole_in::<u64>(100, 1_000_000), default_value_t = 4000, allow_negative_numbers = true)]
        replicates: u64,
        #[command(flatten)]
        options: CurveOptions,
    },
    /// The mix of task difficulties the counts estimate: the nonparametric maximum
    /// likelihood estimate of the law of per-problem success rates, with its certificate,
    /// as the --tasks string of `pathology inference`, and its pass@k beside the data's.
    #[command(after_help = "Examples:
  pathology samples fit tests/data/samples/counts.csv --k 1,2,4,8,16
  pathology samples fit tests/data/samples/votes.csv --k 1..8 --exact")]
    Fit {
        /// The samples or counts (per-sample rows are reduced to their counts).
        file: PathBuf,
        /// The budgets k of the fitted and the data's pass@k: a range A..B or a list.
        #[arg(long, allow_hyphen_values = true)]
        k: String,
        /// Exact rationals where the report offers them, instead of f64.
        #[arg(long)]
        exact: bool,
        #[command(flatten)]
        unsharded: Unsharded,
        #[command(flatten)]
        input: InputArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The sharp range of pass@k for budgets k beyond the samples drawn, over every law of
    /// the failure rate whose first J moments are the data's.
    #[command(after_help = "Examples:
  pathology samples beyond tests/data/samples/counts.csv --k 16,64,256 --moments 4
  pathology samples beyond tests/data/samples/counts.csv --k 16 --moments 2 --exact")]
    Beyond {
        /// The samples or counts (per-sample rows are reduced to their counts).
        file: PathBuf,
        /// The budgets k: a range A..B or a list.
        #[arg(long, allow_hyphen_values = true)]
        k: String,
        /// J: the data's moments the range keeps (at most every problem's n).
        #[arg(long, value_parser = whole_in::<u32>(1, u64::from(crate::samples::beyond::MAX_MOMENTS)), allow_negative_numbers = true)]
        moments: u32,
        /// Bootstrap replicates over problems for the range's sampling uncertainty (0: none).
        #[arg(long, value_parser = whole_in::<u64>(0, crate::samples::beyond::MAX_REPLICATES), default_value_t = 0, allow_negative_numbers = true)]
        replicates: u64,
        /// Seed of the bootstrap.
        #[arg(long, value_parser = seed, default_value_t = 1, allow_negative_numbers = true)]
        seed: u64,
        /// Exact rationals where the extremes are rational (else certified enclosures).
        #[arg(long)]
        exact: bool,
        #[command(flatten)]
        unsharded: Unsharded,
        #[command(flatten)]
        input: InputArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
}

/// `pathology mc samples`: the k-subsets drawn literally against the exact curves.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  pathology mc samples tests/data/samples/votes.csv --k 1,2,4,8 --trials 100000 --seed 1
  pathology mc samples tests/data/samples/votes.jsonl --k 1..8 --ties wrong --trials 20000
  pathology mc samples votes.csv --k 1,4 --trials 1000000 --shard 1/2 --format json > a.json")]
pub struct McArgs {
    /// The samples: per-sample rows (problem, correct, optional answer and score) or
    /// per-problem counts (problem, c, n), CSV or JSONL.
    file: PathBuf,
    /// The budgets k: a range A..B or a list 1,2,4 (each at least 1 and at most every
    /// problem's n).
    #[arg(long, allow_hyphen_values = true)]
    k: String,
    /// A tie of votes: one of the tied answers drawn uniformly, or wrong.
    #[arg(long, value_enum, default_value_t = Ties::Uniform)]
    ties: Ties,
    /// Drop the problems with fewer samples than the largest k (counted in the output)
    /// instead of refusing them.
    #[arg(long)]
    drop_short: bool,
    /// Refuse the file unless its bytes have this FNV-1a 64-bit hash (16 hex digits; every
    /// run records the hash in its manifest, so its command reruns on the same file only).
    #[arg(long, value_name = "HEX")]
    file_fnv1a64: Option<String>,
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    run: super::args::RunOptions,
}

/// Runs `pathology mc samples`.
pub fn run_mc(args: McArgs) -> anyhow::Result<()> {
    args.run.check_table(crate::samples::simulate::TABLES)?;
    let file_hash = args
        .file_fnv1a64
        .as_deref()
        .map(|h| crate::samples::simulate::parse_hash("--file-fnv1a64", h))
        .transpose()?;
    let experiment = crate::samples::simulate::McSamples {
        source: args.input.source(args.file),
        ks: parse_list("--k", &args.k, MAX_K)?,
        ties: args.ties,
        drop_short: args.drop_short,
        file_hash,
    };
    args.run.emit(&experiment.estimate(&args.run.config())?)
}

/// `--shard` of the commands that do not shard, hidden: given, it is refused with the reason.
#[derive(Debug, Clone, clap::Args)]
pub struct Unsharded {
    /// Refused: only `samples curves` shards.
    #[arg(long, hide = true, allow_hyphen_values = true)]
    shard: Option<String>,
}

impl Unsharded {
    /// Refuses `--shard`, saying why `command` cannot be split over problems.
    fn refuse(&self, command: &str, why: &str) -> anyhow::Result<()> {
        match &self.shard {
            None => Ok(()),
            Some(given) => Err(crate::Error::invalid(
                "--shard",
                &format!(
                    "not given to samples {command}, which does not shard: {why}; `samples \
                     curves --shard K/N` does"
                ),
                given,
            )
            .into()),
        }
    }
}

/// The largest budget k the lists take.
const MAX_K: u64 = MAX_COUNT;

/// Runs `pathology samples`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        SamplesCommand::Curves {
            file,
            shard,
            options,
        } => {
            if shard.is_some() {
                options.output.check_table(&["sums"])?;
            } else {
                options.output.check_table(CURVES_TABLES)?;
            }
            let request = CurvesRequest {
                source: options.input.source(file),
                ks: parse_list("--k", &options.k, MAX_K)?,
                ties: options.ties,
                exact: options.exact,
                drop_short: options.drop_short,
                shard,
            };
            let report = if request.shard.is_some() {
                crate::samples::shards::shard_report(&request)?
            } else {
                curves_report(&request)?
            };
            options.output.emit(&report, 4)
        }
        SamplesCommand::Compare {
            a,
            b,
            common,
            seed,
            replicates,
            unsharded,
            options,
        } => {
            unsharded.refuse(
                "compare",
                "its simultaneous band draws one bootstrap multiplier per problem and takes, in \
                 each replicate, a maximum over k of sums over every problem, which sums over \
                 slices of the problems cannot give",
            )?;
            options.output.check_table(COMPARE_TABLES)?;
            let request = CompareRequest {
                a: options.input.source(a),
                b: options.input.source(b),
                ks: parse_list("--k", &options.k, MAX_K)?,
                ties: options.ties,
                exact: options.exact,
                drop_short: options.drop_short,
                common,
                seed,
                replicates,
            };
            let report = compare_report(&request)?;
            options.output.emit(&report, 4)
        }
        SamplesCommand::Fit {
            file,
            k,
            exact,
            unsharded,
            input,
            output,
        } => {
            unsharded.refuse(
                "fit",
                "the maximum likelihood mix is found by iterating over every problem's counts \
                 at once (two numbers per problem: a million problems are read in seconds)",
            )?;
            let ks = parse_list("--k", &k, MAX_K)?;
            let report = fit_file_report(&input.source(file), &ks, exact)?;
            output.emit(&report, 6)
        }
        SamplesCommand::Beyond {
            file,
            k,
            moments,
            replicates,
            seed,
            exact,
            unsharded,
            input,
            output,
        } => {
            unsharded.refuse(
                "beyond",
                "its bootstrap resamples the problems as a whole and its extremes need every \
                 moment of the whole data (two numbers per problem are read in seconds)",
            )?;
            let ks = parse_list("--k", &k, MAX_K)?;
            let report =
                beyond_file_report(&input.source(file), &ks, moments, replicates, seed, exact)?;
            output.emit(&report, 6)
        }
    }
}
