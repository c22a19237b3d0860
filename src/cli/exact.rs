//! `pathology exact`, an alias of `pathology decision --game d|p|n` kept for scripts: D(d,h)
//! for b-ary D-games, P-games and N-games with the piece count or the artificial evaluator,
//! by [`crate::analytic::families::report::FamilyRequest`]. Its manifest names `exact`.

use crate::analytic::families::report::{
    EvaluatorRequest, FAMILY_DECIMALS, FamilyRequest, GameRequest,
};
use num_rational::BigRational;

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
    /// G-game (our reconstruction of Nau's): --height + 1 squares, 1 with probability --p; decision only.
    G,
}

/// The static evaluator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EvaluatorArg {
    /// Nau's piece count (number of 1-squares below the front node).
    Count,
    /// Wilson et al.'s artificial evaluator: the true value, wrong with probability --e.
    Artificial,
    /// G-games: the fraction of 1-squares (the default with --game g).
    E1,
    /// G-games: e1, but 1 (0) when the central squares are all 1 (0): forced outcomes.
    E1Forced,
    /// G-games: the fraction of 1-squares in the central half of the row.
    Half,
    /// G-games: the fraction of 1-squares among the central two or three squares.
    Centre,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Game family.
    #[arg(long, value_enum)]
    pub game: GameArg,
    /// Branching factor b (2..=60).
    #[arg(long, value_parser = super::args::whole_in::<u32>(2, 60), default_value_t = 2, allow_negative_numbers = true)]
    pub branching: u32,
    /// Height h of the root (1..=64; cost limits are checked).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 64), allow_negative_numbers = true)]
    pub height: u32,
    /// Print only D(depth, h).
    #[arg(long, value_parser = super::args::whole_in::<u32>(1, 64), allow_negative_numbers = true)]
    pub depth: Option<u32>,
    /// Static evaluator at the search front.
    #[arg(long, value_enum, default_value_t = EvaluatorArg::Count)]
    pub evaluator: EvaluatorArg,
    /// Error rate e of the artificial evaluator, in [0, 1] (default 0.1; only with
    /// --evaluator artificial).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    pub e: Option<BigRational>,
    /// P-games: square probability p in [0, 1] (default w_b, irrational: f64 only).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    pub p: Option<BigRational>,
    /// N-games: edge probability q in [0, 1] (default 1/2).
    #[arg(long, value_parser = probability, allow_hyphen_values = true)]
    pub q: Option<BigRational>,
    /// D-games: q_1,...,q_b, the probabilities that a win Max node has exactly k win
    /// children (comma-separated, summing to 1; missing entries are 0).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    pub qk: Vec<String>,
    /// D-games: r_1,...,r_b, the probabilities that a loss Min node has exactly k loss
    /// children.
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    pub rk: Vec<String>,
    /// Compute in exact rationals instead of f64 (needs rational parameters).
    #[arg(long)]
    pub exact: bool,
    #[command(flatten)]
    pub output: super::args::OutputArgs,
}

impl Args {
    /// The library's request; options that belong to another game family or evaluator are
    /// refused, never ignored.
    pub fn request(self) -> anyhow::Result<FamilyRequest> {
        let given = [
            (
                "--p",
                self.p.is_some(),
                self.game == GameArg::P,
                "given only with --game p",
            ),
            (
                "--q",
                self.q.is_some(),
                self.game == GameArg::N,
                "given only with --game n",
            ),
            (
                "--qk",
                !self.qk.is_empty(),
                self.game == GameArg::D,
                "given only with --game d",
            ),
            (
                "--rk",
                !self.rk.is_empty(),
                self.game == GameArg::D,
                "given only with --game d",
            ),
            (
                "--e",
                self.e.is_some(),
                self.evaluator == EvaluatorArg::Artificial,
                "given only with --evaluator artificial",
            ),
        ];
        for (name, is_given, belongs, allowed) in given {
            if is_given && !belongs {
                return Err(crate::Error::invalid(name, allowed, "a value").into());
            }
        }
        Ok(FamilyRequest {
            game: match self.game {
                GameArg::D => GameRequest::D {
                    qk: self.qk,
                    rk: self.rk,
                },
                GameArg::P => GameRequest::P { p: self.p },
                GameArg::N => GameRequest::N { q: self.q },
                GameArg::G => return Err(crate::analytic::ggame::report::g_only("--game g").into()),
            },
            branching: self.branching,
            height: self.height,
            depth: self.depth,
            evaluator: match self.evaluator {
                EvaluatorArg::Count => EvaluatorRequest::Count,
                EvaluatorArg::Artificial => EvaluatorRequest::Artificial { e: self.e },
                _ => return Err(crate::analytic::ggame::report::g_only("--evaluator").into()),
            },
            exact: self.exact,
        })
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let output = args.output.clone();
    output.emit(&args.request()?.report()?, FAMILY_DECIMALS)
}
