//! `pathology inference`: test-time search, exactly (pass-at-k, resampling with an imperfect
//! verifier, best-of-n, majority voting, verifier-guided lookahead, beam search). Parses the options into
//! [`crate::analytic::inference::report::InferenceRequest`] and prints its report.

use num_rational::BigRational;

use crate::analytic::inference::report::{InferenceRequest, knockout_setting, table_names};
use crate::analytic::inference::{
    LookaheadSearch, MAX_BEAMS, MAX_COUNT, Prices, Tasks, check_beams, parse_list,
    parse_wrong_answers,
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
    /// Read the W of --tasks as positive weights and divide them by their sum (exactly; the
    /// report records the weights as given and their sum).
    #[arg(long)]
    weights: bool,
}

impl TaskArgs {
    fn parse(&self) -> crate::Result<Tasks> {
        Tasks::parse_with(&self.tasks, self.weights)
    }
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    strategy: Strategy,
}

/// `pass-at-k`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct PassAtKOptions {
    #[command(flatten)]
    tasks: TaskArgs,
    /// The numbers of samples k: a range A..B, A..B:S (step S), A..B:xF (doubling for F =
    /// 2) or a list 1,2,4 (each at least 1).
    #[arg(long, allow_hyphen_values = true)]
    k: String,
}

/// `resample`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct ResampleOptions {
    #[command(flatten)]
    tasks: TaskArgs,
    /// C: the probability that the verifier accepts a correct sample, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    completeness: BigRational,
    /// S: the probability that it rejects a wrong sample, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    soundness: BigRational,
    /// The largest numbers of samples k: a range A..B, A..B:S, A..B:xF or a list (each at
    /// least 1).
    #[arg(long, allow_hyphen_values = true)]
    k: String,
    /// V: the payoff of a false positive (a wrong accepted answer; a correct one pays 1,
    /// none 0); any rational, default 0.
    #[arg(long, value_parser = rational, default_value = "0", allow_hyphen_values = true)]
    false_positive_value: BigRational,
    /// U: the payoff of no answer (no sample accepted); any rational, default 0.
    #[arg(long, value_parser = rational, default_value = "0", allow_hyphen_values = true)]
    abstain_value: BigRational,
}

/// The prices of the cost column of pass-at-k, resample, best-of-n and vote.
#[derive(Debug, Clone, clap::Args)]
pub struct PriceArgs {
    /// The price of one sample (at least 0), for the cost column.
    #[arg(long, value_parser = rational, default_value = "1", allow_hyphen_values = true)]
    cost_sample: BigRational,
    /// The price of one verifier call (at least 0; not both prices 0).
    #[arg(long, value_parser = rational, default_value = "1", allow_hyphen_values = true)]
    cost_verifier: BigRational,
}

impl PriceArgs {
    fn prices(&self) -> crate::Result<Prices> {
        let prices = Prices {
            sample: self.cost_sample.clone(),
            verifier: self.cost_verifier.clone(),
        };
        prices.check()?;
        Ok(prices)
    }
}

/// `best-of-n`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct BestOfNOptions {
    #[command(flatten)]
    tasks: TaskArgs,
    /// The score law of a correct sample: v:p,... (probabilities summing to 1), one value,
    /// normal:MU,S / gaussian:S (the normal law itself, its P_correct rigorously enclosed;
    /// --exact: its 33-point lattice) or uniform:A (its 17-point lattice).
    #[arg(long, allow_hyphen_values = true)]
    score_correct: String,
    /// The score law of a wrong sample (as --score-correct).
    #[arg(long, allow_hyphen_values = true)]
    score_wrong: String,
    /// The numbers of samples n: a range A..B, A..B:S (step S), A..B:xF (doubling for F =
    /// 2) or a list (each at least 1).
    #[arg(
        long,
        allow_hyphen_values = true,
        required_unless_present = "k",
        conflicts_with = "k"
    )]
    n: Option<String>,
    /// The same as --n (the papers' k); give one of the two.
    #[arg(long, allow_hyphen_values = true)]
    k: Option<String>,
    /// With normal score laws: add the 33-point lattice's P_correct and its difference from
    /// the continuous value beside it.
    #[arg(long)]
    lattice: bool,
}

/// `vote`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct VoteOptions {
    #[command(flatten)]
    tasks: TaskArgs,
    /// The wrong answers' shares U1,U2,... of a wrong sample (in [0, 1], summing to 1);
    /// 1 is one wrong answer.
    #[arg(long, default_value = "1", allow_hyphen_values = true)]
    wrong_answers: String,
    /// The numbers of votes k: a range A..B, A..B:S, A..B:xF or a list (each at least 1).
    #[arg(long, allow_hyphen_values = true)]
    k: String,
    /// Reward-weighted voting: an answer's weight is the sum of its samples' scores (from
    /// --score-correct and --score-wrong); the largest weight wins.
    #[arg(long, requires_all = ["score_correct", "score_wrong"])]
    weighted: bool,
    /// With --weighted: the score law of a correct sample (as best-of-n's).
    #[arg(long, allow_hyphen_values = true, requires = "weighted")]
    score_correct: Option<String>,
    /// With --weighted: the score law of a wrong sample.
    #[arg(long, allow_hyphen_values = true, requires = "weighted")]
    score_wrong: Option<String>,
    /// With --weighted and normal score laws: add the 33-point lattices' P_correct and its
    /// difference from the continuous value beside it.
    #[arg(long, requires = "weighted")]
    lattice: bool,
}

/// The search model that lookahead and beam search share.
#[derive(Debug, Clone, clap::Args)]
pub struct SearchArgs {
    /// B: candidate steps per decision (2..=1024).
    #[arg(long, value_parser = super::args::whole_in::<u32>(2, 1024), allow_negative_numbers = true)]
    branching: u32,
    /// L: the steps of a solution (1..=10000).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 10_000), allow_negative_numbers = true)]
    steps: u32,
    /// Q: the probability that a proposed step from a correct prefix is correct, in [0, 1];
    /// or a difficulty mix Q:W,Q:W,... (shares W summing to 1: the W-weighted average).
    #[arg(long, allow_hyphen_values = true)]
    step_correct: String,
    /// The law of the verifier's noise Z (as --score-correct of best-of-n).
    #[arg(long, allow_hyphen_values = true)]
    noise: String,
    /// G >= 0: a prefix of m steps is scored 1{correct} + (1 + G (m - 1)) Z.
    #[arg(long, value_parser = rational, default_value = "0", allow_hyphen_values = true)]
    growth: BigRational,
    /// The price of one generated step (at least 0), for the cost column and best-of-N at
    /// equal cost.
    #[arg(long, value_parser = rational, default_value = "1", allow_hyphen_values = true)]
    cost_sample: BigRational,
    /// The price of one verifier call (at least 0; not both prices 0).
    #[arg(long, value_parser = rational, default_value = "1", allow_hyphen_values = true)]
    cost_verifier: BigRational,
}

impl SearchArgs {
    /// The model, the mix and the prices, checked.
    fn parts(self) -> crate::Result<(LookaheadSearch, Tasks, Prices)> {
        let mix = Tasks::parse_steps(&self.step_correct)?;
        let search = LookaheadSearch {
            branching: self.branching,
            steps: self.steps,
            step_correct: mix.types()[0].success.clone(),
            noise: Law::parse("--noise", &self.noise)?,
            growth: self.growth,
        };
        search.check_model()?;
        let prices = Prices {
            sample: self.cost_sample,
            verifier: self.cost_verifier,
        };
        prices.check()?;
        Ok((search, mix, prices))
    }
}

/// `lookahead`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct LookaheadOptions {
    #[command(flatten)]
    search: SearchArgs,
    /// The lookahead depths d: a range A..B or a list, each in 1..=L.
    #[arg(long, allow_hyphen_values = true)]
    depth: String,
}

/// `knockout`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct KnockoutOptions {
    #[command(flatten)]
    tasks: TaskArgs,
    /// P: the probability that one judge call picks the correct of a correct and a wrong
    /// candidate, in [0, 1]; one value, or one per task type (P1,P2,...).
    #[arg(long, allow_hyphen_values = true)]
    judge_correct: String,
    /// K: judge calls per match, a range A..B or a list (each in 1..=10000); a strict
    /// majority wins, a tie at even K is a fair coin.
    #[arg(long, allow_hyphen_values = true)]
    judge_calls: String,
    /// r: rounds of the bracket (N = 2^r candidates), a range A..B, A..B:STEP or a list,
    /// each in 1..=40.
    #[arg(long, allow_hyphen_values = true)]
    rounds: String,
    /// N: league sizes (every pair compared), a range or a list, each in 2..=1000, computed exactly
    /// (past 10 candidates refused with the time it would take).
    #[arg(long, allow_hyphen_values = true)]
    league: Option<String>,
    /// The price of one generated candidate (a rational at least 0); adds a cost column.
    #[arg(long, allow_hyphen_values = true)]
    cost_sample: Option<String>,
    /// The price of one judge call (a rational at least 0); adds a cost column.
    #[arg(long, allow_hyphen_values = true)]
    cost_verifier: Option<String>,
}

/// `mc inference knockout`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct McKnockoutOptions {
    #[command(flatten)]
    tasks: TaskArgs,
    /// P: the probability that one judge call picks the correct candidate, in [0, 1]; one
    /// value, or one per task type.
    #[arg(long, allow_hyphen_values = true)]
    judge_correct: String,
    /// K: judge calls per match, one value in 1..=10000.
    #[arg(long, allow_hyphen_values = true)]
    judge_calls: String,
    /// r: rounds of the bracket (N = 2^r candidates), a range A..B, A..B:STEP or a list.
    #[arg(long, allow_hyphen_values = true)]
    rounds: String,
}

impl KnockoutOptions {
    fn request(self) -> crate::Result<InferenceRequest> {
        let text = |name: &str| -> Option<String> {
            match name {
                "tasks" => Some(self.tasks.tasks.clone()),
                "weights" => self.tasks.weights.then(|| "true".to_string()),
                "judge_correct" => Some(self.judge_correct.clone()),
                "judge_calls" => Some(self.judge_calls.clone()),
                "rounds" => Some(self.rounds.clone()),
                "league" => self.league.clone(),
                "cost_sample" => self.cost_sample.clone(),
                "cost_verifier" => self.cost_verifier.clone(),
                _ => None,
            }
        };
        Ok(InferenceRequest::Knockout {
            setting: knockout_setting(&text)?,
        })
    }
}

impl McKnockoutOptions {
    fn request(self) -> crate::Result<InferenceRequest> {
        KnockoutOptions {
            tasks: self.tasks,
            judge_correct: self.judge_correct,
            judge_calls: self.judge_calls,
            rounds: self.rounds,
            league: None,
            cost_sample: None,
            cost_verifier: None,
        }
        .request()
    }
}

/// `beam`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct BeamOptions {
    #[command(flatten)]
    search: SearchArgs,
    /// The beam widths M: a range A..B or a list, each in 1..=4096.
    #[arg(long, allow_hyphen_values = true)]
    beams: String,
}

impl PassAtKOptions {
    fn request(self) -> crate::Result<InferenceRequest> {
        Ok(InferenceRequest::PassAtK {
            tasks: self.tasks.parse()?,
            ks: parse_list("--k", &self.k, MAX_COUNT)?,
        })
    }
}

impl ResampleOptions {
    fn request(self) -> crate::Result<InferenceRequest> {
        Ok(InferenceRequest::Resample {
            tasks: self.tasks.parse()?,
            completeness: self.completeness,
            soundness: self.soundness,
            false_positive_value: self.false_positive_value,
            abstain_value: self.abstain_value,
            ks: parse_list("--k", &self.k, MAX_COUNT)?,
        })
    }
}

impl BestOfNOptions {
    fn request(self) -> crate::Result<InferenceRequest> {
        Ok(InferenceRequest::BestOfN {
            tasks: self.tasks.parse()?,
            score_correct: Law::parse("--score-correct", &self.score_correct)?,
            score_wrong: Law::parse("--score-wrong", &self.score_wrong)?,
            ns: match (&self.n, &self.k) {
                (Some(n), _) => parse_list("--n", n, MAX_COUNT)?,
                (None, Some(k)) => parse_list("--k", k, MAX_COUNT)?,
                (None, None) => unreachable!("clap requires --n or --k"),
            },
        })
    }
}

impl VoteOptions {
    fn request(self) -> crate::Result<InferenceRequest> {
        Ok(InferenceRequest::Vote {
            tasks: self.tasks.parse()?,
            wrong_answers: parse_wrong_answers(&self.wrong_answers)?,
            ks: parse_list("--k", &self.k, MAX_COUNT)?,
            scores: match (&self.score_correct, &self.score_wrong) {
                (Some(c), Some(w)) if self.weighted => Some((
                    Law::parse("--score-correct", c)?,
                    Law::parse("--score-wrong", w)?,
                )),
                _ => None,
            },
        })
    }
}

impl LookaheadOptions {
    fn request(self) -> crate::Result<InferenceRequest> {
        let steps = self.search.steps;
        let (search, mix, prices) = self.search.parts()?;
        let depths: Vec<u32> = parse_list("--depth", &self.depth, u64::from(steps))?
            .into_iter()
            .map(|d| d as u32)
            .collect();
        search.check(&depths)?;
        Ok(InferenceRequest::Lookahead {
            search,
            mix,
            depths,
            prices,
        })
    }
}

impl BeamOptions {
    fn request(self) -> crate::Result<InferenceRequest> {
        let (search, mix, prices) = self.search.parts()?;
        let widths: Vec<u32> = parse_list("--beams", &self.beams, u64::from(MAX_BEAMS))?
            .into_iter()
            .map(|m| m as u32)
            .collect();
        check_beams(&search, &widths)?;
        Ok(InferenceRequest::Beam {
            search,
            mix,
            widths,
            prices,
        })
    }
}

#[derive(Debug, clap::Subcommand)]
enum Strategy {
    /// An oracle verifier: the probability that one of k samples is correct.
    PassAtK {
        #[command(flatten)]
        options: PassAtKOptions,
        #[command(flatten)]
        prices: PriceArgs,
        #[command(flatten)]
        common: Common,
    },
    /// Up to k samples, the first one an imperfect verifier accepts is the answer.
    Resample {
        #[command(flatten)]
        options: ResampleOptions,
        #[command(flatten)]
        prices: PriceArgs,
        #[command(flatten)]
        common: Common,
    },
    /// n samples scored by a verifier; the answer is one of the largest score (ties uniform).
    BestOfN {
        #[command(flatten)]
        options: BestOfNOptions,
        #[command(flatten)]
        prices: PriceArgs,
        #[command(flatten)]
        common: Common,
    },
    /// k samples; the answer with the most votes (ties broken uniformly).
    Vote {
        #[command(flatten)]
        options: VoteOptions,
        #[command(flatten)]
        prices: PriceArgs,
        #[command(flatten)]
        common: Common,
    },
    /// Verifier-guided depth-d lookahead over a solution of L steps, beside best-of-N at
    /// equal generated steps, verifier calls and cost.
    Lookahead {
        #[command(flatten)]
        options: LookaheadOptions,
        #[command(flatten)]
        common: Common,
    },
    /// 2^r candidates in a knockout bracket judged pairwise by K calls per match (Chen et
    /// al.'s bound beside the exact failure probability), and a league beside it.
    Knockout {
        #[command(flatten)]
        options: KnockoutOptions,
        #[command(flatten)]
        common: Common,
    },
    /// Beam search of width M with a process reward model over a solution of L steps, beside
    /// best-of-N at equal generated steps, verifier calls and cost.
    Beam {
        #[command(flatten)]
        options: BeamOptions,
        #[command(flatten)]
        common: Common,
    },
    /// The compute-optimal frontier: per budget, the best of best-of-N, greedy, beam search
    /// and lookahead (and its setting) in the step model of lookahead and beam search.
    Frontier {
        #[command(flatten)]
        options: FrontierOptions,
        #[command(flatten)]
        common: Common,
    },
}

/// `frontier`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct FrontierOptions {
    #[command(flatten)]
    search: SearchArgs,
    /// The budgets C (in the prices' units: a steps + v calls): a range A..B, A..B:S,
    /// A..B:xF (1..4096:x2 doubles) or a list, each a whole number at least 1.
    #[arg(long, allow_hyphen_values = true)]
    budgets: String,
    /// The beam widths M to consider (default 2, 4, 8, ... up to the largest within the
    /// largest budget), each in 1..=4096 (width 1 is greedy).
    #[arg(long, allow_hyphen_values = true)]
    beams: Option<String>,
    /// The lookahead depths d to consider (default 2..=L), each in 1..=L (depth 1 is
    /// greedy).
    #[arg(long, allow_hyphen_values = true)]
    depth: Option<String>,
    /// Also draw accuracy against budget per strategy, the frontier marked, to this .png or
    /// .svg file.
    #[arg(long)]
    plot: Option<std::path::PathBuf>,
    /// Figures for the screen (titled, 900x700) or a paper's single column.
    #[arg(long, value_enum, requires = "plot", default_value_t = crate::plot::Style::Screen)]
    style: crate::plot::Style,
}

impl FrontierOptions {
    fn request(&self) -> crate::Result<crate::analytic::inference::FrontierRequest> {
        let steps = self.search.steps;
        let budgets = parse_list("--budgets", &self.budgets, MAX_COUNT)?;
        let (search, mix, prices) = self.search.clone().parts()?;
        let beams = match &self.beams {
            Some(text) => Some(
                parse_list("--beams", text, u64::from(MAX_BEAMS))?
                    .into_iter()
                    .map(|m| m as u32)
                    .collect(),
            ),
            None => None,
        };
        let depths = match &self.depth {
            Some(text) => Some(
                parse_list("--depth", text, u64::from(steps))?
                    .into_iter()
                    .map(|d| d as u32)
                    .collect(),
            ),
            None => None,
        };
        let request = crate::analytic::inference::FrontierRequest {
            search,
            mix,
            prices,
            budgets,
            beams,
            depths,
        };
        request.check()?;
        Ok(request)
    }
}

/// Runs `inference frontier`: every option and the plot's path checked before the work.
fn run_frontier(options: FrontierOptions, common: Common) -> anyhow::Result<()> {
    use anyhow::Context;
    let request = options.request()?;
    common.output.check_table(table_names("frontier"))?;
    if let Some(path) = &options.plot {
        crate::plot::image_kind(path)?;
        crate::report::output::check_file("--plot", path, true)?;
    }
    let (report, figure) = request.report_and_figure(common.exact)?;
    common.output.emit(&report, 6)?;
    if let Some(path) = &options.plot {
        crate::plot::line_chart(path, &figure.axes, &figure.series, true, options.style)
            .with_context(|| format!("drawing {}", path.display()))?;
    }
    Ok(())
}

/// `mc inference`: the strategies run literally.
#[derive(Debug, clap::Args)]
pub struct McArgs {
    #[command(subcommand)]
    strategy: McStrategy,
}

#[derive(Debug, clap::Subcommand)]
enum McStrategy {
    /// Pass-at-k simulated: samples drawn until one is correct, against the exact value.
    PassAtK {
        #[command(flatten)]
        options: PassAtKOptions,
        #[command(flatten)]
        run: super::args::RunOptions,
    },
    /// Resampling simulated: each sample shown to the verifier until one is accepted.
    Resample {
        #[command(flatten)]
        options: ResampleOptions,
        #[command(flatten)]
        run: super::args::RunOptions,
    },
    /// Best-of-n simulated: scores drawn from their laws, the largest taken (ties uniform).
    BestOfN {
        #[command(flatten)]
        options: BestOfNOptions,
        #[command(flatten)]
        run: super::args::RunOptions,
    },
    /// Majority voting simulated: votes drawn, a label of the most votes taken (ties
    /// uniform).
    Vote {
        #[command(flatten)]
        options: VoteOptions,
        #[command(flatten)]
        run: super::args::RunOptions,
    },
    /// Verifier-guided lookahead simulated: fresh rollout subtrees drawn and scored at every
    /// decision, beside best-of-n over B^L complete solutions when that costs no more.
    Lookahead {
        #[command(flatten)]
        options: LookaheadOptions,
        #[command(flatten)]
        run: super::args::RunOptions,
    },
    /// The knockout bracket simulated: candidates drawn, every mixed match judged by K
    /// calls, against the exact value.
    Knockout {
        #[command(flatten)]
        options: McKnockoutOptions,
        #[command(flatten)]
        run: super::args::RunOptions,
    },
    /// Beam search simulated: M B candidates drawn and scored at every step, the M best kept
    /// (ties uniform), the best complete solution the answer.
    Beam {
        #[command(flatten)]
        options: BeamOptions,
        #[command(flatten)]
        run: super::args::RunOptions,
    },
}

/// Runs `mc inference`.
pub fn run_mc(args: McArgs) -> anyhow::Result<()> {
    let (request, run) = match args.strategy {
        McStrategy::PassAtK { options, run } => (options.request(), run),
        McStrategy::Resample { options, run } => (options.request(), run),
        McStrategy::BestOfN { options, .. } if options.lattice => {
            return Err(crate::Error::invalid(
                "--lattice",
                "not given to mc inference best-of-n (it samples the laws as given)",
                "given",
            )
            .into());
        }
        McStrategy::BestOfN { options, run } => (options.request(), run),
        McStrategy::Vote { options, .. } if options.lattice => {
            return Err(crate::Error::invalid(
                "--lattice",
                "not given to mc inference vote (it samples the laws as given)",
                "given",
            )
            .into());
        }
        McStrategy::Vote { options, run } => (options.request(), run),
        McStrategy::Lookahead { options, run } => (options.request(), run),
        McStrategy::Knockout { options, run } => (options.request(), run),
        McStrategy::Beam { options, run } => (options.request(), run),
    };
    let request = request?;
    run.check_table(crate::inference_sim::report::table_names(
        request.subcommand(),
    ))?;
    let experiment = crate::inference_sim::McInference { request };
    run.emit(&experiment.estimate(&run.config())?)
}

fn rational(text: &str) -> Result<BigRational, String> {
    parse_rational(text).map_err(|e| format!("{e}; must be a rational or decimal number"))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let lattice = match &args.strategy {
        Strategy::BestOfN { options, .. } => options.lattice,
        Strategy::Vote { options, .. } => options.lattice,
        _ => false,
    };
    let unit = PriceArgs {
        cost_sample: BigRational::from_integer(1.into()),
        cost_verifier: BigRational::from_integer(1.into()),
    };
    let (request, prices, common) = match args.strategy {
        Strategy::PassAtK {
            options,
            prices,
            common,
        } => (options.request(), prices, common),
        Strategy::Resample {
            options,
            prices,
            common,
        } => (options.request(), prices, common),
        Strategy::BestOfN {
            options,
            prices,
            common,
        } => (options.request(), prices, common),
        Strategy::Vote {
            options,
            prices,
            common,
        } => (options.request(), prices, common),
        Strategy::Lookahead { options, common } => (options.request(), unit, common),
        Strategy::Knockout { options, common } => (options.request(), unit, common),
        Strategy::Beam { options, common } => (options.request(), unit, common),
        Strategy::Frontier { options, common } => return run_frontier(options, common),
    };
    let request = request?;
    let prices = prices.prices()?;
    common
        .output
        .check_table(table_names(request.subcommand()))?;
    let report = request.report_with(common.exact, &prices, lattice)?;
    common.output.emit(&report, 6)
}
