//! `pathology exact`: D(d,h) for b-ary D-games, P-games and N-games with the piece count or
//! the artificial evaluator; the report is built by [`pathology::analytic::families::report`].

use num_rational::BigRational;
use pathology::analytic::families::report::{exact_report, solve};
use pathology::analytic::families::{BaryDGame, Evaluator, Family, NGame, PGame, check_cost};
use pathology::numeric::number::{Probability, parse_rational, short_text};
use pathology::report::Report;

use super::args::probability;

/// The game family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GameArg {
    /// Bi-valued b-ary D-game (Li & Marsland Definition 3.1): --qk, --rk.
    D,
    /// P-game: squares 1 with probability --p (default w_b).
    P,
    /// N-game: edges +1 with probability --q (default 1/2).
    N,
}

/// The static evaluator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EvaluatorArg {
    /// Nau's piece count (number of 1-squares below the front node).
    Count,
    /// Wilson et al.'s artificial evaluator: the true value, wrong with probability --e.
    Artificial,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Game family.
    #[arg(long, value_enum)]
    game: GameArg,
    /// Branching factor b (2..=60).
    #[arg(long, value_parser = super::args::whole::<u32>, default_value_t = 2, allow_negative_numbers = true)]
    branching: u32,
    /// Height h of the root (1..=64; cost limits are checked).
    #[arg(long, value_parser = super::args::whole::<u32>, allow_negative_numbers = true)]
    height: u32,
    /// Print only D(depth, h).
    #[arg(long, value_parser = super::args::whole::<u32>, allow_negative_numbers = true)]
    depth: Option<u32>,
    /// Static evaluator at the search front.
    #[arg(long, value_enum, default_value_t = EvaluatorArg::Count)]
    evaluator: EvaluatorArg,
    /// Error rate e of the artificial evaluator, in [0, 1] (default 0.1; only with
    /// --evaluator artificial).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    e: Option<BigRational>,
    /// P-games: square probability p in [0, 1] (default w_b, irrational: f64 only).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    p: Option<BigRational>,
    /// N-games: edge probability q in [0, 1] (default 1/2).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    q: Option<BigRational>,
    /// D-games: q_1,...,q_b, the probabilities that a win Max node has exactly k win
    /// children (comma-separated, summing to 1; missing entries are 0).
    #[arg(long, value_delimiter = ',')]
    qk: Vec<String>,
    /// D-games: r_1,...,r_b, the probabilities that a loss Min node has exactly k loss
    /// children.
    #[arg(long, value_delimiter = ',')]
    rk: Vec<String>,
    /// Compute in exact rationals instead of f64 (needs rational parameters).
    #[arg(long)]
    exact: bool,
    #[command(flatten)]
    output: super::args::OutputArgs,
}

fn rationals(name: &str, texts: &[String]) -> anyhow::Result<Vec<BigRational>> {
    texts
        .iter()
        .map(|t| {
            parse_rational(t).map_err(|e| {
                pathology::Error::invalid(name, "comma-separated numbers in [0, 1]", e).into()
            })
        })
        .collect()
}

impl Args {
    /// --e, default 1/10.
    fn error_rate(&self) -> BigRational {
        self.e
            .clone()
            .unwrap_or_else(|| BigRational::new(1.into(), 10.into()))
    }

    /// --q, default 1/2.
    fn edge_probability(&self) -> BigRational {
        self.q
            .clone()
            .unwrap_or_else(|| BigRational::new(1.into(), 2.into()))
    }
}

/// Options that belong to another game family or evaluator are refused, never ignored.
fn reject_unused(args: &Args) -> anyhow::Result<()> {
    let given = [
        (
            "--p",
            args.p.is_some(),
            args.game == GameArg::P,
            "given only with --game p",
        ),
        (
            "--q",
            args.q.is_some(),
            args.game == GameArg::N,
            "given only with --game n",
        ),
        (
            "--qk",
            !args.qk.is_empty(),
            args.game == GameArg::D,
            "given only with --game d",
        ),
        (
            "--rk",
            !args.rk.is_empty(),
            args.game == GameArg::D,
            "given only with --game d",
        ),
        (
            "--e",
            args.e.is_some(),
            args.evaluator == EvaluatorArg::Artificial,
            "given only with --evaluator artificial",
        ),
    ];
    for (name, is_given, belongs, allowed) in given {
        if is_given && !belongs {
            return Err(pathology::Error::invalid(name, allowed, "a value").into());
        }
    }
    Ok(())
}

pub fn run(args: Args) -> anyhow::Result<()> {
    reject_unused(&args)?;
    if args.exact {
        run_in::<BigRational>(&args)
    } else {
        run_in::<f64>(&args)
    }
}

fn convert<P: Probability>(values: &[BigRational]) -> Vec<P> {
    values.iter().map(P::from_rational).collect()
}

fn family<P: Probability>(args: &Args) -> anyhow::Result<(Family<P>, String)> {
    let b = args.branching;
    Ok(match args.game {
        GameArg::D => {
            if args.qk.is_empty() || args.rk.is_empty() {
                return Err(pathology::Error::invalid(
                    "--qk and --rk",
                    "given for D-games (q_1,...,q_b and r_1,...,r_b)",
                    "nothing",
                )
                .into());
            }
            let (qs, rs) = (rationals("--qk", &args.qk)?, rationals("--rk", &args.rk)?);
            // Validate in exact rationals (sums exactly 1), then convert.
            BaryDGame::new(b, qs.clone(), rs.clone())?;
            let game = BaryDGame::new(b, convert::<P>(&qs), convert::<P>(&rs))?;
            let text = |v: &[BigRational]| v.iter().map(short_text).collect::<Vec<_>>().join(",");
            (
                Family::D(game),
                format!("D-game, b = {b}, q = ({}), r = ({})", text(&qs), text(&rs)),
            )
        }
        GameArg::P => match &args.p {
            Some(p) => (
                Family::P(PGame::new(b, P::from_rational(p))?),
                format!("P-game, b = {b}, p = {}", short_text(p)),
            ),
            None if P::EXACT => {
                return Err(pathology::Error::invalid(
                    "--p",
                    "given with --exact (the default w_b is irrational)",
                    "nothing",
                )
                .into());
            }
            None => {
                let game = PGame::pearl(b)?;
                let p = game.p().to_f64();
                (
                    Family::P(PGame::new(
                        b,
                        P::from_rational(&BigRational::from_float(p).expect("finite")),
                    )?),
                    format!("P-game, b = {b}, p = w_{b} = {p}"),
                )
            }
        },
        GameArg::N => {
            let q = args.edge_probability();
            (
                Family::N(NGame::new(b, P::from_rational(&q))?),
                format!("N-game, b = {b}, q = {}", short_text(&q)),
            )
        }
    })
}

fn run_in<P: Probability>(args: &Args) -> anyhow::Result<()> {
    let (family, label) = family::<P>(args)?;
    let evaluator = match args.evaluator {
        EvaluatorArg::Count => Evaluator::Count,
        EvaluatorArg::Artificial => Evaluator::Artificial {
            error: P::from_rational(&args.error_rate()),
        },
    };
    let h = args.height;
    if let Some(d) = args.depth
        && !(1..=h).contains(&d)
    {
        return Err(pathology::Error::invalid(
            "--depth",
            &format!("in 1..={h} (at most --height)"),
            d,
        )
        .into());
    }
    let cost = check_cost(&family, &evaluator, h)?;
    pathology::budget::announce_estimate(
        &format!("D(d,{h}) of a {}-game", family.name().to_uppercase()),
        cost.seconds,
    );
    let column = solve(&family, &evaluator, h)?;
    let (evaluator_name, evaluator_text) = match args.evaluator {
        EvaluatorArg::Count => ("count", "piece count".to_string()),
        EvaluatorArg::Artificial => (
            "artificial",
            format!(
                "artificial evaluator, e = {}",
                short_text(&args.error_rate())
            ),
        ),
    };
    let game = format!("{:?}", args.game).to_lowercase();
    let article = if args.game == GameArg::N { "an" } else { "a" };
    let title = format!("D(d,{h}) for {article} {label}, {evaluator_text}");
    let mut report = Report::new("exact", &title)
        .param("game", &game)
        .param("branching", args.branching)
        .param("height", h);
    if let Some(d) = args.depth {
        report = report.param("depth", d);
    }
    report = report.param("evaluator", evaluator_name);
    if args.evaluator == EvaluatorArg::Artificial {
        report = report.param("e", short_text(&args.error_rate()));
    }
    report = match args.game {
        GameArg::D => report
            .param("qk", args.qk.join(","))
            .param("rk", args.rk.join(",")),
        GameArg::P => match &args.p {
            Some(p) => report.param("p", short_text(p)),
            None => report,
        },
        GameArg::N => report.param("q", short_text(&args.edge_probability())),
    };
    let report = exact_report(
        report.param("exact", args.exact),
        &game,
        args.branching,
        evaluator_name,
        &column,
        args.depth,
    );
    args.output.emit(&report, 6)
}
