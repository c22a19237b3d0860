//! `pathology inference`: test-time search, exactly (pass-at-k, resampling with an imperfect
//! verifier, best-of-n, majority voting, verifier-guided lookahead). Parses the options into
//! [`crate::analytic::inference::report::InferenceRequest`] and prints its report.

use num_rational::BigRational;

use crate::analytic::inference::report::{InferenceRequest, table_names};
use crate::analytic::inference::{
    LookaheadSearch, MAX_COUNT, Tasks, parse_list, parse_wrong_answers,
};
use crate::analytic::pathsum::Law;
use crate::numeric::number::parse_rational;

use super::args::{OutputArgs, probability};

/// The options every strategy takes.
#[derive(Debug, Clone, clap::Args)]
pub struct Common {
    /// Compute in exact rationals (and print them) instead of f64 with rigorous bounds.
    #[arg(long)]
    exact: bool,
    #[command(flatten)]
    output: OutputArgs,
}

/// The task mix.
#[derive(Debug, Clone, clap::Args)]
pub struct TaskArgs {
    /// Task types R:W,R:W,...: per-sample success probability R in [0, 1] and share W (the
    /// shares sum to 1); rationals or decimals, read exactly.
    #[arg(long, allow_hyphen_values = true)]
    tasks: String,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    strategy: Strategy,
}

#[derive(Debug, clap::Subcommand)]
enum Strategy {
    /// An oracle verifier: the probability that one of k samples is correct.
    PassAtK {
        #[command(flatten)]
        tasks: TaskArgs,
        /// The numbers of samples k: a range A..B or a list 1,2,4 (each at least 1).
        #[arg(long, allow_hyphen_values = true)]
        k: String,
        #[command(flatten)]
        common: Common,
    },
    /// Up to k samples, the first one an imperfect verifier accepts is the answer.
    Resample {
        #[command(flatten)]
        tasks: TaskArgs,
        /// C: the probability that the verifier accepts a correct sample, in [0, 1].
        #[arg(long, value_parser = probability, allow_hyphen_values = true)]
        completeness: BigRational,
        /// S: the probability that it rejects a wrong sample, in [0, 1].
        #[arg(long, value_parser = probability, allow_hyphen_values = true)]
        soundness: BigRational,
        /// The largest numbers of samples k: a range A..B or a list (each at least 1).
        #[arg(long, allow_hyphen_values = true)]
        k: String,
        /// V: the payoff of a false positive (a wrong accepted answer; a correct one pays 1,
        /// none 0); any rational, default 0.
        #[arg(long, value_parser = rational, default_value = "0", allow_hyphen_values = true)]
        false_positive_value: BigRational,
        #[command(flatten)]
        common: Common,
    },
    /// n samples scored by a verifier; the answer is one of the largest score (ties uniform).
    BestOfN {
        #[command(flatten)]
        tasks: TaskArgs,
        /// The score law of a correct sample: v:p,... (probabilities summing to 1), one value,
        /// or gaussian:S / uniform:A (their stated 33- and 17-point discretizations).
        #[arg(long, allow_hyphen_values = true)]
        score_correct: String,
        /// The score law of a wrong sample (as --score-correct).
        #[arg(long, allow_hyphen_values = true)]
        score_wrong: String,
        /// The numbers of samples n: a range A..B or a list (each at least 1).
        #[arg(long, allow_hyphen_values = true)]
        n: String,
        #[command(flatten)]
        common: Common,
    },
    /// k samples; the answer with the most votes (ties broken uniformly).
    Vote {
        #[command(flatten)]
        tasks: TaskArgs,
        /// The wrong answers' shares U1,U2,... of a wrong sample (in [0, 1], summing to 1);
        /// 1 is one wrong answer.
        #[arg(long, default_value = "1", allow_hyphen_values = true)]
        wrong_answers: String,
        /// The numbers of votes k: a range A..B or a list (each at least 1).
        #[arg(long, allow_hyphen_values = true)]
        k: String,
        #[command(flatten)]
        common: Common,
    },
    /// Verifier-guided depth-d lookahead over a solution of L steps, beside best-of-n over
    /// B^L complete solutions.
    Lookahead {
        /// B: candidate steps per decision (2..=1024).
        #[arg(long, value_parser = super::args::whole_in::<u32>(2, 1024), allow_negative_numbers = true)]
        branching: u32,
        /// L: the steps of a solution (1..=10000).
        #[arg(long, value_parser = super::args::whole_in::<u32>(1, 10_000), allow_negative_numbers = true)]
        steps: u32,
        /// Q: the probability that a proposed step from a correct prefix is correct, in [0, 1].
        #[arg(long, value_parser = probability, allow_hyphen_values = true)]
        step_correct: BigRational,
        /// The law of the verifier's noise Z (as --score-correct of best-of-n).
        #[arg(long, allow_hyphen_values = true)]
        noise: String,
        /// G >= 0: a prefix of m steps is scored 1{correct} + (1 + G (m - 1)) Z.
        #[arg(long, value_parser = rational, default_value = "0", allow_hyphen_values = true)]
        growth: BigRational,
        /// The lookahead depths d: a range A..B or a list, each in 1..=L.
        #[arg(long, allow_hyphen_values = true)]
        depth: String,
        #[command(flatten)]
        common: Common,
    },
}

fn rational(text: &str) -> Result<BigRational, String> {
    parse_rational(text).map_err(|e| format!("{e}; must be a rational or decimal number"))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (request, common) = match args.strategy {
        Strategy::PassAtK { tasks, k, common } => (
            InferenceRequest::PassAtK {
                tasks: Tasks::parse(&tasks.tasks)?,
                ks: parse_list("--k", &k, MAX_COUNT)?,
            },
            common,
        ),
        Strategy::Resample {
            tasks,
            completeness,
            soundness,
            k,
            false_positive_value,
            common,
        } => (
            InferenceRequest::Resample {
                tasks: Tasks::parse(&tasks.tasks)?,
                completeness,
                soundness,
                false_positive_value,
                ks: parse_list("--k", &k, MAX_COUNT)?,
            },
            common,
        ),
        Strategy::BestOfN {
            tasks,
            score_correct,
            score_wrong,
            n,
            common,
        } => (
            InferenceRequest::BestOfN {
                tasks: Tasks::parse(&tasks.tasks)?,
                score_correct: Law::parse("--score-correct", &score_correct)?,
                score_wrong: Law::parse("--score-wrong", &score_wrong)?,
                ns: parse_list("--n", &n, MAX_COUNT)?,
            },
            common,
        ),
        Strategy::Vote {
            tasks,
            wrong_answers,
            k,
            common,
        } => (
            InferenceRequest::Vote {
                tasks: Tasks::parse(&tasks.tasks)?,
                wrong_answers: parse_wrong_answers(&wrong_answers)?,
                ks: parse_list("--k", &k, MAX_COUNT)?,
            },
            common,
        ),
        Strategy::Lookahead {
            branching,
            steps,
            step_correct,
            noise,
            growth,
            depth,
            common,
        } => {
            let depths: Vec<u32> = parse_list("--depth", &depth, u64::from(steps))?
                .into_iter()
                .map(|d| d as u32)
                .collect();
            let search = LookaheadSearch {
                branching,
                steps,
                step_correct,
                noise: Law::parse("--noise", &noise)?,
                growth,
            };
            search.check(&depths)?;
            (InferenceRequest::Lookahead { search, depths }, common)
        }
    };
    common
        .output
        .check_table(table_names(request.subcommand()))?;
    let report = request.report(common.exact)?;
    common.output.emit(&report, 6)
}
