//! `pathology exact`: D(d,h) for b-ary D-games, P-games and N-games with the piece count or
//! the artificial evaluator (issue 12). Minimal output (text, CSV, JSON, Markdown) until the
//! report layer lands.

use num_rational::BigRational;
use pathology::dgame::{DependenceFactors, Solver};
use pathology::exact::{
    BaryDGame, Evaluator, ExactColumn, Family, NGame, PGame, check_cost, decision_column,
};
use pathology::number::{Probability, parse_rational, short_text};
use pathology::output::{Format, align_columns, csv_string, markdown_table};
use serde_json::json;

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
    #[arg(long, default_value_t = 2)]
    branching: u32,
    /// Height h of the root (1..=64; cost limits are checked).
    #[arg(long)]
    height: u32,
    /// Print only D(depth, h).
    #[arg(long)]
    depth: Option<u32>,
    /// Static evaluator at the search front.
    #[arg(long, value_enum, default_value_t = EvaluatorArg::Count)]
    evaluator: EvaluatorArg,
    /// Error rate e of the artificial evaluator, in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true, default_value = "0.1")]
    e: BigRational,
    /// P-games: square probability p in [0, 1] (default w_b, irrational: f64 only).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    p: Option<BigRational>,
    /// N-games: edge probability q in [0, 1].
    #[arg(long, value_parser = probability, allow_hyphen_values = true, default_value = "1/2")]
    q: BigRational,
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
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Decimals of printed values (0..=30).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(0..=30))]
    decimals: u8,
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

pub fn run(args: Args) -> anyhow::Result<()> {
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
        GameArg::N => (
            Family::N(NGame::new(b, P::from_rational(&args.q))?),
            format!("N-game, b = {b}, q = {}", short_text(&args.q)),
        ),
    })
}

fn run_in<P: Probability>(args: &Args) -> anyhow::Result<()> {
    let (family, label) = family::<P>(args)?;
    let evaluator = match args.evaluator {
        EvaluatorArg::Count => Evaluator::Count,
        EvaluatorArg::Artificial => Evaluator::Artificial {
            error: P::from_rational(&args.e),
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
    check_cost(&family, &evaluator, h)?;
    let column = match (&family, &evaluator) {
        // b = 2 D-games with the piece count: Li & Marsland's engine, bit for bit.
        (Family::D(g), Evaluator::Count) if g.branching() == 2 => {
            let factors = DependenceFactors::new(g.win_max()[1].clone(), g.loss_min()[1].clone())?;
            let c = Solver::new(factors).decision_column(h)?;
            ExactColumn {
                height: h,
                values: c.values,
                error_bounds: c.error_bounds,
                nontrivial: P::certain().minus(
                    match pathology::model::Player::to_move_at_height(h) {
                        pathology::model::Player::Max => &g.win_max()[1],
                        pathology::model::Player::Min => &g.loss_min()[1],
                    },
                ),
            }
        }
        _ => decision_column(&family, &evaluator, h)?,
    };
    let evaluator_text = match args.evaluator {
        EvaluatorArg::Count => "piece count".to_string(),
        EvaluatorArg::Artificial => format!("artificial evaluator, e = {}", short_text(&args.e)),
    };
    let title = format!("D(d,{h}) for a {label}, {evaluator_text}");
    super::print(&render(args, &title, &column))
}

fn render<P: Probability>(args: &Args, title: &str, column: &ExactColumn<P>) -> String {
    let places = usize::from(args.decimals);
    let depths: Vec<u32> = match args.depth {
        Some(d) => vec![d],
        None => (1..=column.height).collect(),
    };
    let rows: Vec<Vec<String>> = depths
        .iter()
        .map(|&d| {
            let v = &column.values[d as usize - 1];
            let mut row = vec![d.to_string(), v.to_decimal(places)];
            row.push(match v.exact_string() {
                Some(e) => e,
                None => format!("{:.1e}", column.error_bounds[d as usize - 1]),
            });
            row
        })
        .collect();
    let last = if P::EXACT { "exact" } else { "bound" };
    let header = ["d", "D(d,h)", last];
    let note = if P::EXACT {
        "exact rationals".to_string()
    } else {
        "f64; bound: rigorous bound on the rounding error".to_string()
    };
    match args.format {
        Format::Text | Format::Latex => {
            let mut table = vec![header.iter().map(|s| s.to_string()).collect()];
            table.extend(rows);
            format!("{title}\n\n{}\n{note}\n", align_columns(&table))
        }
        Format::Markdown => {
            let header: Vec<String> = header.iter().map(|s| s.to_string()).collect();
            format!(
                "**{title}**\n\n{}\n{note}\n",
                markdown_table(&header, &rows)
            )
        }
        Format::Csv => csv_string(&header, &rows).unwrap_or_default(),
        Format::Json => {
            let cells: Vec<serde_json::Value> = depths
                .iter()
                .map(|&d| {
                    let i = d as usize - 1;
                    json!({
                        "d": d,
                        "value": column.values[i].to_f64(),
                        "exact": column.values[i].exact_string(),
                        "error_bound": column.error_bounds[i],
                    })
                })
                .collect();
            let value = json!({
                "title": title,
                "game": format!("{:?}", args.game).to_lowercase(),
                "branching": args.branching,
                "h": column.height,
                "evaluator": format!("{:?}", args.evaluator).to_lowercase(),
                "exact_mode": P::EXACT,
                "nontrivial": column.nontrivial.to_f64(),
                "rows": cells,
            });
            format!(
                "{}\n",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            )
        }
    }
}
