//! D(d,h), the probability that a search of depth d from a node of height h picks a winning
//! move (of a non-trivial node: one winning and one losing move), for every game family
//! through one request (`pathology decision`).
//!
//! - Li & Marsland's (1990) binary D-games with dependence factors f1, f2 (or f2 from p0 by
//!   Theorem 3.1): [`crate::analytic::dgame`], with PS and the certified complements
//!   `1 - D(d,h)`.
//! - b-ary D-games (q_k, r_k), P-games and N-games with the piece count or the artificial
//!   evaluator: [`crate::analytic::families`].
//! - Evaluations as distributions: Nguyen & Ramanujan's critical win-loss game and
//!   multi-valued P-games with the perfect, artificial, Gaussian, uniform, histogram and
//!   expected-playout evaluations: [`crate::analytic::distributions`].
//! - G-games (our reconstruction of Nau's game graphs) with e1, e1-forced, half or centre,
//!   and their rhf(d): [`crate::analytic::ggame::report`].
//!
//! All compute in `f64` (each value with a rigorous error bound) or in exact rationals. The
//! report is the one of `pathology dgame` or `pathology exact` (same tables, values, notes and
//! parameters), under the subcommand `decision`, so its manifest's command regenerates it.
//! [`GameOptions`] is what `--game` takes on the command line, as given: it decides which
//! engine answers and refuses, naming both, an option that belongs to another game or
//! evaluator (never ignores it).

use std::path::PathBuf;

use num_rational::BigRational;

use crate::analytic::dgame::report::DgameRequest;
use crate::analytic::distributions::request::{DistributionRequest, GameSpec, LeafLaw, ModelSpec};
use crate::analytic::distributions::{Histogram, PlayoutFormula, parse_leaves};
use crate::analytic::families::report::{
    EvaluatorRequest, FAMILY_DECIMALS, FamilyRequest, GameRequest,
};
use crate::analytic::ggame::report::{GGAME_DECIMALS, GGameRequest};
use crate::analytic::pathsum::report::pathsum_report;
use crate::analytic::pathsum::{Evaluator as PathSumEvaluator, Law, Outcome, PathSumGame};
use crate::error::{Error, Result};
use crate::numeric::arguments::{positive_rational, probability, whole_in};
use crate::numeric::number::parse_rational;
use crate::report::Report;

/// The subcommand a [`DecisionRequest`]'s manifest names.
pub const DECISION_COMMAND: &str = "decision";

/// D(d,h) of one game of one family.
#[derive(Debug, Clone, PartialEq)]
pub enum DecisionRequest {
    /// Li & Marsland's binary D-game (f1 with f2 or p0).
    LiMarsland(DgameRequest),
    /// A b-ary D-game, P-game or N-game.
    Family(FamilyRequest),
    /// The critical game or a multi-valued P-game with an evaluation model.
    Distributions(Box<DistributionRequest>),
    /// A G-game (reconstruction).
    GGame(GGameRequest),
    /// A path-sum tree.
    PathSum(Box<PathSumRequest>),
}

/// A path-sum tree at one depth or all, in exact rationals or `f64`.
#[derive(Debug, Clone, PartialEq)]
pub struct PathSumRequest {
    /// The game and its evaluator.
    pub game: PathSumGame,
    /// Only this depth.
    pub depth: Option<u32>,
    /// Exact rationals.
    pub exact: bool,
}

impl DecisionRequest {
    /// Decimals a reader's format shows by default: 3 for Li & Marsland's D-games (10 for
    /// their complements), 6 for the other families.
    pub fn decimals(&self) -> usize {
        match self {
            DecisionRequest::LiMarsland(r) => r.decimals(),
            DecisionRequest::Family(_)
            | DecisionRequest::Distributions(_)
            | DecisionRequest::PathSum(_) => FAMILY_DECIMALS,
            DecisionRequest::GGame(_) => GGAME_DECIMALS,
        }
    }

    /// The names of the tables [`Self::report`] will have, in order, known before any work
    /// (so that a wrong `--table` is refused at once).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::decision::DecisionRequest;
    /// use pathology::analytic::families::report::{EvaluatorRequest, FamilyRequest, GameRequest};
    /// let request = DecisionRequest::Family(FamilyRequest {
    ///     game: GameRequest::P { p: None }, branching: 2, height: 4, depth: None,
    ///     evaluator: EvaluatorRequest::Count, exact: false,
    /// });
    /// let names: Vec<String> = request.report().unwrap().tables.into_iter().map(|t| t.name).collect();
    /// assert_eq!(request.tables(), names);
    /// ```
    pub fn tables(&self) -> Vec<&'static str> {
        match self {
            DecisionRequest::LiMarsland(r) => r.tables(),
            DecisionRequest::GGame(r) if r.flaws => vec!["decisions", "root", "flaws", "dominates"],
            DecisionRequest::Distributions(r) => r.tables(),
            DecisionRequest::Family(_)
            | DecisionRequest::GGame(_)
            | DecisionRequest::PathSum(_) => {
                vec!["decisions", "root"]
            }
        }
    }

    /// The report of [`DgameRequest::report`] or [`FamilyRequest::report`], its manifest
    /// naming the subcommand [`DECISION_COMMAND`].
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::decision::DecisionRequest;
    /// use pathology::analytic::families::report::{EvaluatorRequest, FamilyRequest, GameRequest};
    /// let request = DecisionRequest::Family(FamilyRequest {
    ///     game: GameRequest::P { p: None }, branching: 2, height: 8, depth: Some(3),
    ///     evaluator: EvaluatorRequest::Count, exact: false,
    /// });
    /// let report = request.report().unwrap();
    /// assert_eq!(report.manifest.command_line(),
    ///     "pathology decision --game p --branching 2 --height 8 --depth 3 --evaluator count");
    /// assert_eq!(report.tables[0].rows.len(), 1);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`DgameRequest::report`], [`FamilyRequest::report`] and
    /// [`DistributionRequest::report`].
    pub fn report(&self) -> Result<Report> {
        self.report_as(DECISION_COMMAND)
    }

    /// [`Self::report`] with its manifest naming the subcommand `command` (an alias's).
    ///
    /// # Errors
    ///
    /// As [`Self::report`].
    pub fn report_as(&self, command: &str) -> Result<Report> {
        let mut report = match self {
            DecisionRequest::LiMarsland(r) => r.report()?,
            DecisionRequest::Family(r) => r.report()?,
            DecisionRequest::Distributions(r) => r.report(command)?,
            DecisionRequest::GGame(r) => r.report()?,
            DecisionRequest::PathSum(r) => pathsum_report(&r.game, r.depth, r.exact, command)?,
        };
        report.manifest.command = command.to_string();
        Ok(report)
    }
}

/// The game families of `--game`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GameName {
    /// Bi-valued b-ary D-game (Li & Marsland Definition 3.1): --qk, --rk.
    D,
    /// P-game: squares 1 with probability --p (default w_b), or leaf values --leaves.
    P,
    /// N-game: edges +1 with probability --q (default 1/2).
    N,
    /// Nguyen & Ramanujan's critical win-loss game: --gamma, Max moves at depth 0, terminal
    /// nodes at depth --height.
    Crit,
    /// G-game (our reconstruction of Nau's game graphs): --height + 1 squares, each 1 with
    /// probability --p (default 1/2); evaluators e1, e1-forced, half, centre.
    G,
    /// Path-sum tree: edge increments from --step, leaf terms from --leaf,
    /// terminal nodes with probability --terminal, --outcome value or sign.
    Sum,
}

impl GameName {
    fn name(self) -> &'static str {
        match self {
            GameName::D => "d",
            GameName::P => "p",
            GameName::N => "n",
            GameName::Crit => "crit",
            GameName::G => "g",
            GameName::Sum => "sum",
        }
    }
}

/// The static evaluators of `--evaluator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EvaluatorName {
    /// Nau's piece count (number of 1-squares below the front node); --game d, p, n.
    Count,
    /// Wilson et al.'s artificial evaluator: the true value, wrong with probability --e.
    Artificial,
    /// The true value.
    Perfect,
    /// The true value plus N(0, --sigma^2) noise.
    Gaussian,
    /// The true value plus U(-a, a) noise, a = --halfwidth.
    Uniform,
    /// A draw from an empirical law per true value (--histogram FILE).
    Histogram,
    /// Nguyen & Ramanujan's expected playout value; --game crit.
    ExpectedPlayout,
    /// G-games: the fraction of 1-squares (the default with --game g).
    E1,
    /// G-games: e1, but 1 (0) when the central squares are all 1 (0): forced outcomes.
    E1Forced,
    /// G-games: the fraction of 1-squares in the central half of the row.
    Half,
    /// G-games: the fraction of 1-squares among the central two or three squares.
    Centre,
    /// Path-sum trees: the true value plus independent discrete noise (--noise).
    Additive,
    /// Path-sum trees: the node's position value s(n) (the default with --game sum).
    Position,
}

impl EvaluatorName {
    fn name(self) -> &'static str {
        match self {
            EvaluatorName::Count => "count",
            EvaluatorName::Artificial => "artificial",
            EvaluatorName::Perfect => "perfect",
            EvaluatorName::Gaussian => "gaussian",
            EvaluatorName::Uniform => "uniform",
            EvaluatorName::Histogram => "histogram",
            EvaluatorName::ExpectedPlayout => "expected-playout",
            EvaluatorName::E1 => "e1",
            EvaluatorName::E1Forced => "e1-forced",
            EvaluatorName::Half => "half",
            EvaluatorName::Centre => "centre",
            EvaluatorName::Additive => "additive",
            EvaluatorName::Position => "position",
        }
    }

    /// The G-games' evaluators.
    fn of_ggames(self) -> bool {
        matches!(
            self,
            EvaluatorName::E1
                | EvaluatorName::E1Forced
                | EvaluatorName::Half
                | EvaluatorName::Centre
        )
    }
}

/// The options of `--game` as the command line gives them (`pathology decision --game`,
/// `exact`, `mc distributions` flatten them; the command sets [`GameOptions::height`],
/// [`GameOptions::depth`] and [`GameOptions::exact`] from its own options):
/// [`GameOptions::request`] picks the engine and refuses an option that belongs to another
/// game or evaluator, naming both.
#[derive(Debug, Clone, PartialEq, Default, clap::Args)]
pub struct GameOptions {
    /// Game family: d (b-ary D-game: --qk, --rk), p (P-game: --p or --leaves), n (N-game:
    /// --q), crit (critical win-loss game: --gamma), g (G-game: --p, evaluators e1,
    /// e1-forced, half, centre), sum (path-sum tree: --step, --leaf, --terminal, --outcome).
    #[arg(long, value_enum)]
    pub game: Option<GameName>,
    /// Branching factor b (2..=60) [default: 2].
    #[arg(long, value_parser = whole_in::<u32>(2, 60), allow_negative_numbers = true)]
    pub branching: Option<u32>,
    /// Height h of the root, or terminal depth H of the critical game (set by the command).
    #[arg(skip)]
    pub height: u32,
    /// Only this depth (set by the command).
    #[arg(skip)]
    pub depth: Option<u32>,
    /// Static evaluator at the search front [default: count; --game crit: expected-playout].
    #[arg(long, value_enum, help_heading = "Evaluator")]
    pub evaluator: Option<EvaluatorName>,
    /// Error rate e of the artificial evaluator, in [0, 1] (default 0.1; only with
    /// --evaluator artificial).
    #[arg(long, value_parser = probability, allow_hyphen_values = true, help_heading = "Evaluator")]
    pub e: Option<BigRational>,
    /// P-games (and G-games): square probability p in [0, 1] (P-games: default w_b,
    /// irrational: f64 only; G-games: default 1/2).
    #[arg(long, value_parser = probability, allow_hyphen_values = true, help_heading = "P-game (--game p)")]
    pub p: Option<BigRational>,
    /// N-games: edge probability q in [0, 1] (default 1/2).
    #[arg(long, value_parser = probability, allow_hyphen_values = true, help_heading = "N-game (--game n)")]
    pub q: Option<BigRational>,
    /// b-ary D-games: q_1,...,q_b, the probabilities that a win Max node has exactly k win
    /// children (comma-separated, summing to 1; missing entries are 0).
    #[arg(
        long,
        value_delimiter = ',',
        allow_negative_numbers = true,
        help_heading = "b-ary D-game (--game d)"
    )]
    pub qk: Vec<String>,
    /// b-ary D-games: r_1,...,r_b, the probabilities that a loss Min node has exactly k
    /// loss children.
    #[arg(
        long,
        value_delimiter = ',',
        allow_negative_numbers = true,
        help_heading = "b-ary D-game (--game d)"
    )]
    pub rk: Vec<String>,
    /// Critical game: the critical rate G of both players, or G_MAX,G_MIN, in [0, 1].
    #[arg(
        long,
        allow_hyphen_values = true,
        help_heading = "Critical game (--game crit)"
    )]
    pub gamma: Option<String>,
    /// Critical game: the root's own rate, in (0, 1] [default: 1, as the authors' code:
    /// exactly one winning move at the root].
    #[arg(long, value_parser = probability, allow_hyphen_values = true, help_heading = "Critical game (--game crit)")]
    pub root_gamma: Option<BigRational>,
    /// P-games: leaf values and probabilities v1:p1,v2:p2,... (exact, summing to 1).
    #[arg(long, allow_hyphen_values = true, help_heading = "P-game (--game p)")]
    pub leaves: Option<String>,
    /// Gaussian evaluator: the noise's standard deviation sigma, above 0.
    #[arg(long, value_parser = positive_rational, allow_hyphen_values = true, help_heading = "Evaluator")]
    pub sigma: Option<BigRational>,
    /// Uniform evaluator: the noise's half-width a, above 0.
    #[arg(long, value_parser = positive_rational, allow_hyphen_values = true, help_heading = "Evaluator")]
    pub halfwidth: Option<BigRational>,
    /// Histogram evaluator: a CSV file of rows `value,evaluation[,weight]`.
    #[arg(long, help_heading = "Evaluator")]
    pub histogram: Option<PathBuf>,
    /// The histogram's FNV-1a 64 hash as the manifest prints it (refused unless the file's).
    #[arg(long, help_heading = "Evaluator")]
    pub histogram_fnv1a64: Option<String>,
    /// Bin the evaluations into G equal bins (1..=1048576); without it a continuous evaluator
    /// is computed at 1000 and 2000 bins (their gap estimates the continuous limit).
    #[arg(long, value_parser = whole_in::<u32>(1, 1 << 20), allow_negative_numbers = true, help_heading = "Evaluator")]
    pub levels: Option<u32>,
    /// The bins' range LO,HI [default: the evaluations' span; Gaussian: 8 sigma beyond the
    /// values; uniform: a beyond]; evaluations outside it are clamped into the end bins, and
    /// a range that holds none of them is refused.
    #[arg(long, allow_hyphen_values = true, help_heading = "Evaluator")]
    pub range: Option<String>,
    /// Expected-playout formula [default: random-play, the exact mean].
    #[arg(long, value_enum, help_heading = "Critical game (--game crit)")]
    pub playout_formula: Option<PlayoutFormula>,
    /// Exact rationals instead of `f64` (set by the command).
    #[arg(skip)]
    pub exact: bool,
    /// G-games: add rhf(d) of every evaluator (set by `decision --rhf`).
    #[arg(skip)]
    pub rhf: bool,
    /// Path-sum trees: the law of an edge's increment, v1:p1,v2:p2,... (exact, summing to
    /// 1; one value: the point mass), gaussian:S / uniform:A discretized on 33 / 17 points,
    /// or binomial:N, the centred binomial Bin(N, 1/2) - N/2: the N + 1 values k - N/2 for
    /// k = 0..N with probabilities C(N, k)/2^N, exact (N in 1..=1024; binomial:2 is
    /// -1:1/4,0:1/2,1:1/4) [default: 1:1/2,-1:1/2].
    #[arg(
        long,
        allow_hyphen_values = true,
        help_heading = "Path-sum tree (--game sum)"
    )]
    pub step: Option<String>,
    /// Path-sum trees: the law of a leaf's own term Y added to its path sum (as --step)
    /// [default: 0].
    #[arg(
        long,
        allow_hyphen_values = true,
        help_heading = "Path-sum tree (--game sum)"
    )]
    pub leaf: Option<String>,
    /// Path-sum trees: the probability that a node strictly between the root and the leaves
    /// is terminal (no children, value s + Y, evaluated exactly), in [0, 1) [default: 0].
    #[arg(
        long,
        allow_hyphen_values = true,
        help_heading = "Path-sum tree (--game sum)"
    )]
    pub terminal: Option<String>,
    /// Path-sum trees: the leaves' value (value: s + Y; sign: a win for Max, 1, when s + Y
    /// > 0, else 0) [default: value].
    #[arg(long, value_enum, help_heading = "Path-sum tree (--game sum)")]
    pub outcome: Option<Outcome>,
    /// Path-sum trees, --evaluator additive: the noise law v1:p1,v2:p2,... added to the
    /// true value, or gaussian:S, uniform:A, binomial:N (as --step).
    #[arg(
        long,
        allow_hyphen_values = true,
        help_heading = "Path-sum tree (--game sum)"
    )]
    pub noise: Option<String>,
}

/// `name` must be `allowed`, got `got`: a usage error.
fn refuse<T>(name: &str, allowed: &str, got: impl std::fmt::Display) -> Result<T> {
    Err(Error::invalid(name, allowed, got))
}

/// Parses `LO,HI` or `G_MAX,G_MIN`-like pairs (one number: both the same when `single`).
fn pair(name: &str, text: &str, allowed: &str, single: bool) -> Result<(BigRational, BigRational)> {
    let numbers: Vec<BigRational> = text
        .split(',')
        .map(|t| parse_rational(t.trim()))
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| Error::invalid(name, &format!("{allowed}; {e}"), text))?;
    match numbers.as_slice() {
        [x] if single => Ok((x.clone(), x.clone())),
        [a, b] => Ok((a.clone(), b.clone())),
        _ => refuse(name, allowed, text),
    }
}

impl GameOptions {
    fn game(&self) -> Result<GameName> {
        self.game
            .ok_or_else(|| Error::invalid("--game", "given (d, p, n, crit or g)", "nothing"))
    }

    /// The evaluator, with the game's default.
    fn evaluator(&self) -> Result<EvaluatorName> {
        Ok(self.evaluator.unwrap_or(match self.game()? {
            GameName::Crit => EvaluatorName::ExpectedPlayout,
            GameName::G => EvaluatorName::E1,
            GameName::Sum => EvaluatorName::Position,
            _ => EvaluatorName::Count,
        }))
    }

    /// Whether the distributions engine answers (else the families').
    fn uses_distributions(&self) -> Result<bool> {
        let evaluator = self.evaluator()?;
        Ok(self.game()? == GameName::Crit
            || !matches!(evaluator, EvaluatorName::Count | EvaluatorName::Artificial)
            || self.leaves.is_some()
            || self.levels.is_some())
    }

    /// Refuses every option that belongs to another game or evaluator, naming both.
    fn refuse_foreign(&self) -> Result<()> {
        let (game, evaluator) = (self.game()?, self.evaluator()?);
        let (g, ev) = (game.name(), evaluator.name());
        if game != GameName::Sum {
            for (name, given) in self.pathsum_options() {
                if given {
                    return refuse(name, "given only with --game sum", format!("--game {g}"));
                }
            }
            if matches!(evaluator, EvaluatorName::Additive | EvaluatorName::Position) {
                return refuse(
                    &format!("--evaluator {ev}"),
                    "given only with --game sum",
                    format!("--game {g}"),
                );
            }
        }
        let with_game = format!("a value with --game {g}");
        let with_evaluator = format!("a value with --evaluator {ev}");
        let distributions = !matches!(evaluator, EvaluatorName::Count) && !evaluator.of_ggames();
        let checks: [(&str, bool, bool, &str, &String); 15] = [
            (
                "--p",
                self.p.is_some(),
                game == GameName::P || game == GameName::G,
                "given only with --game p or g",
                &with_game,
            ),
            (
                "--q",
                self.q.is_some(),
                game == GameName::N,
                "given only with --game n",
                &with_game,
            ),
            (
                "--qk",
                !self.qk.is_empty(),
                game == GameName::D,
                "given only with --game d",
                &with_game,
            ),
            (
                "--rk",
                !self.rk.is_empty(),
                game == GameName::D,
                "given only with --game d",
                &with_game,
            ),
            (
                "--gamma",
                self.gamma.is_some(),
                game == GameName::Crit,
                "given only with --game crit",
                &with_game,
            ),
            (
                "--root-gamma",
                self.root_gamma.is_some(),
                game == GameName::Crit,
                "given only with --game crit",
                &with_game,
            ),
            (
                "--leaves",
                self.leaves.is_some(),
                game == GameName::P,
                "given only with --game p",
                &with_game,
            ),
            (
                "--leaves",
                self.leaves.is_some(),
                distributions,
                "given only with an evaluator of the distributions engine (not count)",
                &with_evaluator,
            ),
            (
                "--e",
                self.e.is_some(),
                evaluator == EvaluatorName::Artificial,
                "given only with --evaluator artificial",
                &with_evaluator,
            ),
            (
                "--sigma",
                self.sigma.is_some(),
                evaluator == EvaluatorName::Gaussian,
                "given only with --evaluator gaussian",
                &with_evaluator,
            ),
            (
                "--halfwidth",
                self.halfwidth.is_some(),
                evaluator == EvaluatorName::Uniform,
                "given only with --evaluator uniform",
                &with_evaluator,
            ),
            (
                "--histogram",
                self.histogram.is_some(),
                evaluator == EvaluatorName::Histogram,
                "given only with --evaluator histogram",
                &with_evaluator,
            ),
            (
                "--playout-formula",
                self.playout_formula.is_some(),
                evaluator == EvaluatorName::ExpectedPlayout,
                "given only with --evaluator expected-playout",
                &with_evaluator,
            ),
            (
                "--levels",
                self.levels.is_some(),
                distributions,
                "given only with an evaluator of the distributions engine (not count)",
                &with_evaluator,
            ),
            (
                "--range",
                self.range.is_some(),
                self.levels.is_some(),
                "given only with --levels (the bins' range)",
                &"a value without --levels".to_string(),
            ),
        ];
        for (name, given, belongs, allowed, got) in checks {
            if given && !belongs {
                return refuse(name, allowed, got);
            }
        }
        if self.rhf && game != GameName::G {
            return refuse("--rhf", "given only with --game g", &with_game);
        }
        if game == GameName::G && self.branching.is_some_and(|b| b != 2) {
            return refuse(
                "--branching",
                "2 with --game g (two ends of the row)",
                &with_game,
            );
        }
        if self.histogram_fnv1a64.is_some() && self.histogram.is_none() {
            return refuse(
                "--histogram-fnv1a64",
                "given only with --histogram (the file's expected hash)",
                "a value without --histogram",
            );
        }
        if self.leaves.is_some() && self.p.is_some() {
            return refuse(
                "--leaves",
                "given without --p (both set the leaves' law)",
                "--p too",
            );
        }
        let evaluator_name = format!("--evaluator {ev}");
        if evaluator.of_ggames() != (game == GameName::G) {
            return refuse(
                &evaluator_name,
                if game == GameName::G {
                    "e1, e1-forced, half or centre with --game g"
                } else {
                    "given only with --game g (the G-games' evaluators)"
                },
                format!("--game {g}"),
            );
        }
        match (evaluator, game) {
            (EvaluatorName::Count, GameName::Crit) => refuse(
                &evaluator_name,
                "given only with --game d, p or n (the piece count of board-splitting games)",
                "--game crit",
            ),
            (EvaluatorName::ExpectedPlayout, GameName::D | GameName::N | GameName::P) => refuse(
                &evaluator_name,
                "given only with --game crit (the critical game's heuristic)",
                format!("--game {g}"),
            ),
            (
                EvaluatorName::Perfect
                | EvaluatorName::Gaussian
                | EvaluatorName::Uniform
                | EvaluatorName::Histogram,
                GameName::D | GameName::N,
            ) => refuse(
                &evaluator_name,
                "given only with --game p or crit (evaluations as distributions)",
                format!("--game {g}"),
            ),
            _ => Ok(()),
        }
    }

    /// The request: the families' engine (`--game d`, `n`, and `p` with the piece count or
    /// the artificial evaluator on today's P-game) or the distributions' (`--game crit`,
    /// and `p` with `--leaves`, `--levels` or another evaluator).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::decision::{DecisionRequest, EvaluatorName, GameName, GameOptions};
    /// use pathology::numeric::number::parse_rational;
    /// let options = GameOptions {
    ///     game: Some(GameName::Crit), height: 8, gamma: Some("0.9".into()),
    ///     evaluator: Some(EvaluatorName::Gaussian), sigma: Some(parse_rational("0.5").unwrap()),
    ///     ..GameOptions::default()
    /// };
    /// assert!(matches!(options.clone().request().unwrap(), DecisionRequest::Distributions(_)));
    /// let foreign = GameOptions { q: Some(parse_rational("0.5").unwrap()), ..options };
    /// let err = foreign.request().unwrap_err().to_string();
    /// assert_eq!(err, "--q must be given only with --game n, got a value with --game crit");
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming an option of another game or evaluator (and that
    /// game or evaluator), a missing or malformed value (`--gamma`, `--leaves`, `--range`,
    /// `--histogram`), or a histogram whose hash is not `--histogram-fnv1a64`.
    pub fn request(self) -> Result<DecisionRequest> {
        if self.game()? == GameName::Sum {
            return Ok(DecisionRequest::PathSum(Box::new(self.pathsum_request()?)));
        }
        self.refuse_foreign()?;
        if self.game()? == GameName::G {
            return Ok(DecisionRequest::GGame(GGameRequest::from_options(
                self.height,
                self.depth,
                self.p,
                self.evaluator,
                self.rhf,
                self.exact,
            )?));
        }
        if self.uses_distributions()? {
            return Ok(DecisionRequest::Distributions(Box::new(
                self.distribution_request()?,
            )));
        }
        let (game, evaluator) = (self.game()?, self.evaluator()?);
        let evaluator = match evaluator {
            EvaluatorName::Count => EvaluatorRequest::Count,
            _ => EvaluatorRequest::Artificial { e: self.e },
        };
        let game = match game {
            GameName::D => GameRequest::D {
                qk: self.qk,
                rk: self.rk,
            },
            GameName::P => GameRequest::P { p: self.p },
            GameName::N => GameRequest::N { q: self.q },
            GameName::Crit | GameName::G | GameName::Sum => {
                unreachable!("the distributions, G-game or path-sum engine's")
            }
        };
        Ok(DecisionRequest::Family(FamilyRequest {
            game,
            branching: self.branching.unwrap_or(2),
            height: self.height,
            depth: self.depth,
            evaluator,
            exact: self.exact,
        }))
    }

    /// The request of the distributions engine (what `mc distributions` plays): the
    /// critical game or a P-game with any evaluator but the piece count.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::decision::{EvaluatorName, GameName, GameOptions};
    /// let options = GameOptions {
    ///     game: Some(GameName::P), height: 6, leaves: Some("0:1/4,1:1/2,2:1/4".into()),
    ///     evaluator: Some(EvaluatorName::Perfect), ..GameOptions::default()
    /// };
    /// assert_eq!(options.distribution_request().unwrap().game_name(), "p");
    /// let count = GameOptions { game: Some(GameName::P), height: 6, ..GameOptions::default() };
    /// assert!(count.distribution_request().unwrap_err().to_string().starts_with("--evaluator count"));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Self::request`]; `--game d` and `n` and the piece count are refused.
    pub fn distribution_request(self) -> Result<DistributionRequest> {
        self.refuse_foreign()?;
        let (game, evaluator) = (self.game()?, self.evaluator()?);
        if matches!(
            game,
            GameName::D | GameName::N | GameName::G | GameName::Sum
        ) {
            return refuse(
                "--game",
                "crit or p for evaluations as distributions",
                game.name(),
            );
        }
        let one = BigRational::from_integer(1.into());
        let zero = BigRational::from_integer(0.into());
        let game = match game {
            GameName::Crit => {
                let text = self.gamma.as_deref().ok_or_else(|| {
                    Error::invalid(
                        "--gamma",
                        "given with --game crit (G, or G_MAX,G_MIN)",
                        "nothing",
                    )
                })?;
                let allowed = "G or G_MAX,G_MIN with rates in [0, 1]";
                let (gamma_max, gamma_min) = pair("--gamma", text, allowed, true)?;
                if [&gamma_max, &gamma_min]
                    .iter()
                    .any(|g| **g < zero || **g > one)
                {
                    return refuse("--gamma", allowed, text);
                }
                GameSpec::Critical {
                    gamma_max,
                    gamma_min,
                    root_gamma: self.root_gamma.clone(),
                }
            }
            _ => GameSpec::PGame(match &self.leaves {
                Some(text) => LeafLaw::Given(parse_leaves(text)?),
                None => LeafLaw::WinLoss(self.p.clone()),
            }),
        };
        let required = |value: &Option<BigRational>, name: &str| {
            value.clone().ok_or_else(|| {
                Error::invalid(
                    name,
                    &format!("given with --evaluator {}", evaluator.name()),
                    "nothing",
                )
            })
        };
        let model = match evaluator {
            EvaluatorName::Count => {
                return refuse(
                    "--evaluator count",
                    "one of artificial, perfect, gaussian, uniform, histogram, expected-playout (the piece count needs boards)",
                    "count",
                );
            }
            EvaluatorName::Artificial => ModelSpec::Artificial {
                e: self
                    .e
                    .clone()
                    .unwrap_or_else(|| BigRational::new(1.into(), 10.into())),
            },
            EvaluatorName::Perfect => ModelSpec::Perfect,
            EvaluatorName::Gaussian => ModelSpec::Gaussian {
                sigma: required(&self.sigma, "--sigma")?,
            },
            EvaluatorName::Uniform => ModelSpec::Uniform {
                halfwidth: required(&self.halfwidth, "--halfwidth")?,
            },
            EvaluatorName::Histogram => self.histogram_model()?,
            EvaluatorName::ExpectedPlayout => ModelSpec::ExpectedPlayout(
                self.playout_formula.unwrap_or(PlayoutFormula::RandomPlay),
            ),
            EvaluatorName::E1
            | EvaluatorName::E1Forced
            | EvaluatorName::Half
            | EvaluatorName::Centre => {
                return refuse(
                    &format!("--evaluator {}", evaluator.name()),
                    "given only with --game g (the G-games' evaluators)",
                    format!("--game {}", self.game()?.name()),
                );
            }
            EvaluatorName::Additive | EvaluatorName::Position => {
                return refuse(
                    &format!("--evaluator {}", evaluator.name()),
                    "given only with --game sum",
                    format!("--game {}", self.game()?.name()),
                );
            }
        };
        let range = match &self.range {
            Some(text) => Some(pair("--range", text, "LO,HI (two numbers)", false)?),
            None => None,
        };
        Ok(DistributionRequest {
            game,
            branching: self.branching.unwrap_or(2),
            height: self.height,
            depth: self.depth,
            model,
            levels: self.levels,
            range,
            exact: self.exact,
        })
    }

    /// The histogram read from `--histogram`, checked against `--histogram-fnv1a64`.
    fn histogram_model(&self) -> Result<ModelSpec> {
        let file = self.histogram.clone().ok_or_else(|| {
            Error::invalid(
                "--histogram",
                "given with --evaluator histogram (a CSV file)",
                "nothing",
            )
        })?;
        let histogram = read_checked_histogram(&file, self.histogram_fnv1a64.as_deref())?;
        Ok(ModelSpec::Histogram { file, histogram })
    }
}

/// Reads a histogram file ([`read_histogram`]) and, when `expected` is given (the
/// `--histogram-fnv1a64` of a manifest), refuses it unless its hash ([`Histogram::hash`],
/// 16 hex digits, either case) is that one: a changed file is not silently used.
///
/// # Examples
///
/// ```
/// use pathology::analytic::decision::read_checked_histogram;
/// use std::io::Write;
/// let mut file = tempfile::NamedTempFile::new().unwrap();
/// file.write_all(b"1,1\n-1,-1\n").unwrap();
/// let h = read_checked_histogram(file.path(), None).unwrap();
/// let hash = format!("{:016x}", h.hash());
/// assert_eq!(read_checked_histogram(file.path(), Some(&hash)).unwrap(), h);
/// let err = read_checked_histogram(file.path(), Some("0123456789abcdef")).unwrap_err();
/// assert!(err.to_string().starts_with("--histogram-fnv1a64 must be the hash of --histogram"));
/// ```
///
/// # Errors
///
/// As [`read_histogram`]; [`Error::InvalidArgument`] naming `--histogram-fnv1a64` for another
/// hash.
pub fn read_checked_histogram(file: &std::path::Path, expected: Option<&str>) -> Result<Histogram> {
    let histogram = read_histogram(file)?;
    if let Some(expected) = expected {
        let actual = format!("{:016x}", histogram.hash());
        if !expected.eq_ignore_ascii_case(&actual) {
            return refuse(
                "--histogram-fnv1a64",
                &format!("the hash of --histogram {} ({actual})", file.display()),
                expected,
            );
        }
    }
    Ok(histogram)
}

/// Reads and parses a histogram file (`value,evaluation[,weight]` rows).
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--histogram` for a file that cannot be read as UTF-8
/// text or whose rows do not parse ([`Histogram::parse`]).
pub fn read_histogram(file: &std::path::Path) -> Result<Histogram> {
    let text = crate::report::read::read_capped(file, "--histogram", "a readable UTF-8 CSV file")?;
    Histogram::parse_file(&text, &file.display().to_string())
}

impl GameOptions {
    /// The options named as [`DistributionRequest::parameters`] names them (a manifest's
    /// parameters, a `validate` row's columns): the inverse of that list. Names it does not
    /// know are refused.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::decision::GameOptions;
    /// let pairs = [("game", "crit"), ("branching", "3"), ("height", "8"), ("gamma", "0.9,0.5"),
    ///              ("evaluator", "uniform"), ("halfwidth", "1/2"), ("levels", "16")];
    /// let options = GameOptions::from_parameters(pairs.iter().map(|(n, v)| (*n, *v))).unwrap();
    /// let request = options.distribution_request().unwrap();
    /// let again: Vec<(String, String)> = request.parameters();
    /// assert_eq!(again[3], ("gamma".to_string(), "0.9,0.5".to_string()));
    /// assert!(GameOptions::from_parameters([("colour", "red")].into_iter()).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the parameter whose value does not parse, or an
    /// unknown name.
    pub fn from_parameters<'a>(
        pairs: impl Iterator<Item = (&'a str, &'a str)>,
    ) -> Result<GameOptions> {
        // The value parsers' messages are what clap prints after an option's name ("must be
        // a whole number in 2..=60, got 61"): their allowed range is kept, not wrapped in a
        // second "must be ..., got ..." (as in "branching must be must be a whole number
        // in 2..=60, got 61, got 61").
        fn value<T>(name: &str, text: &str, parsed: std::result::Result<T, String>) -> Result<T> {
            parsed.map_err(|e| {
                let allowed = match e.rsplit_once("must be ") {
                    Some((_, allowed)) => allowed
                        .strip_suffix(&format!(", got {text}"))
                        .unwrap_or(allowed)
                        .to_string(),
                    None => format!("a number ({e})"),
                };
                Error::invalid(name, &allowed, text)
            })
        }
        // A named value is refused with the list of the allowed names (clap's own message,
        // "invalid variant: bogus", lists none).
        fn named<T: clap::ValueEnum>(name: &str, text: &str) -> Result<T> {
            T::from_str(text, true).map_err(|_| {
                let names: Vec<String> = T::value_variants()
                    .iter()
                    .filter_map(|v| v.to_possible_value())
                    .map(|v| v.get_name().to_string())
                    .collect();
                Error::invalid(name, &format!("one of {}", names.join(", ")), text)
            })
        }
        let mut options = GameOptions::default();
        for (name, text) in pairs {
            let owned = || Some(text.to_string());
            match name {
                "game" => options.game = Some(named(name, text)?),
                "branching" => {
                    options.branching = Some(value(name, text, whole_in::<u32>(2, 60)(text))?)
                }
                "height" => options.height = value(name, text, whole_in::<u32>(1, 64)(text))?,
                "evaluator" => options.evaluator = Some(named(name, text)?),
                "e" => options.e = Some(value(name, text, probability(text))?),
                "p" => options.p = Some(value(name, text, probability(text))?),
                "gamma" => options.gamma = owned(),
                "root_gamma" => options.root_gamma = Some(value(name, text, probability(text))?),
                "leaves" => options.leaves = owned(),
                "sigma" => options.sigma = Some(value(name, text, positive_rational(text))?),
                "halfwidth" => {
                    options.halfwidth = Some(value(name, text, positive_rational(text))?)
                }
                "histogram" => options.histogram = Some(PathBuf::from(text)),
                "histogram_fnv1a64" => options.histogram_fnv1a64 = owned(),
                "levels" => {
                    options.levels = Some(value(name, text, whole_in::<u32>(1, 1 << 20)(text))?)
                }
                "range" => options.range = owned(),
                "playout_formula" => options.playout_formula = Some(named(name, text)?),
                other => {
                    return refuse(
                        other,
                        "a parameter of evaluations as distributions",
                        "an unknown name",
                    );
                }
            }
        }
        Ok(options)
    }
}

impl GameOptions {
    /// The path-sum options and whether each is given.
    fn pathsum_options(&self) -> [(&'static str, bool); 5] {
        [
            ("--step", self.step.is_some()),
            ("--leaf", self.leaf.is_some()),
            ("--terminal", self.terminal.is_some()),
            ("--outcome", self.outcome.is_some()),
            ("--noise", self.noise.is_some()),
        ]
    }

    /// The request of `--game sum`: a [`PathSumGame`] from `--branching`, `--step`,
    /// `--leaf`, `--terminal`, `--outcome`, `--evaluator` (perfect, additive with
    /// `--noise`, position, artificial with `--e`); every other option is refused by name.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::decision::{EvaluatorName, GameName, GameOptions};
    /// let options = GameOptions {
    ///     game: Some(GameName::Sum), height: 6, step: Some("1:1/2,-1:1/2".into()),
    ///     terminal: Some("1/10".into()), evaluator: Some(EvaluatorName::Position),
    ///     ..GameOptions::default()
    /// };
    /// assert_eq!(options.clone().pathsum_request().unwrap().game.height, 6);
    /// let foreign = GameOptions { leaves: Some("0:1".into()), ..options };
    /// assert_eq!(foreign.pathsum_request().unwrap_err().to_string(),
    ///     "--leaves must be given only with --game p (with --game sum: --leaf), got a value with --game sum");
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the option: one of another game, an evaluator
    /// --game sum does not take, `--noise` without `--evaluator additive` (or the reverse),
    /// `--e` without `--evaluator artificial`, malformed laws, and as
    /// [`PathSumGame::validate`].
    pub fn pathsum_request(self) -> Result<PathSumRequest> {
        let evaluator = self.evaluator()?;
        let with_game = "a value with --game sum";
        let foreign: [(&str, bool, &str); 12] = [
            ("--p", self.p.is_some(), "given only with --game p or g"),
            (
                "--q",
                self.q.is_some(),
                "given only with --game n (with --game sum: --step)",
            ),
            ("--qk", !self.qk.is_empty(), "given only with --game d"),
            ("--rk", !self.rk.is_empty(), "given only with --game d"),
            (
                "--gamma",
                self.gamma.is_some(),
                "given only with --game crit",
            ),
            (
                "--root-gamma",
                self.root_gamma.is_some(),
                "given only with --game crit",
            ),
            (
                "--leaves",
                self.leaves.is_some(),
                "given only with --game p (with --game sum: --leaf)",
            ),
            (
                "--sigma",
                self.sigma.is_some(),
                "given only with --evaluator gaussian (not with --game sum)",
            ),
            (
                "--halfwidth",
                self.halfwidth.is_some(),
                "given only with --evaluator uniform (not with --game sum)",
            ),
            (
                "--histogram",
                self.histogram.is_some(),
                "given only with --evaluator histogram (not with --game sum)",
            ),
            (
                "--histogram-fnv1a64",
                self.histogram_fnv1a64.is_some(),
                "given only with --histogram",
            ),
            (
                "--playout-formula",
                self.playout_formula.is_some(),
                "given only with --game crit",
            ),
        ];
        if self.range.is_some() && self.levels.is_none() {
            return refuse("--range", "given only with --levels", with_game);
        }
        for (name, given, allowed) in foreign {
            if given {
                return refuse(name, allowed, with_game);
            }
        }
        if self.rhf {
            return refuse("--rhf", "given only with --game g", with_game);
        }
        if self.noise.is_some() != (evaluator == EvaluatorName::Additive) {
            return refuse(
                "--noise",
                "given exactly when --evaluator additive",
                if self.noise.is_some() {
                    format!("a value with --evaluator {}", evaluator.name())
                } else {
                    "nothing".to_string()
                },
            );
        }
        if self.e.is_some() && evaluator != EvaluatorName::Artificial {
            return refuse(
                "--e",
                "given only with --evaluator artificial",
                format!("a value with --evaluator {}", evaluator.name()),
            );
        }
        let evaluator = match evaluator {
            EvaluatorName::Perfect => PathSumEvaluator::Perfect,
            EvaluatorName::Position => PathSumEvaluator::Position,
            EvaluatorName::Additive => PathSumEvaluator::Additive {
                noise: Law::parse("--noise", self.noise.as_deref().unwrap_or("0"))?,
            },
            EvaluatorName::Artificial => PathSumEvaluator::Artificial {
                error: self
                    .e
                    .clone()
                    .unwrap_or_else(|| BigRational::new(1.into(), 10.into())),
            },
            other => {
                return refuse(
                    &format!("--evaluator {}", other.name()),
                    "perfect, additive, position or artificial with --game sum",
                    "--game sum",
                );
            }
        };
        let terminal = match &self.terminal {
            Some(text) => parse_rational(text.trim()).map_err(|e| {
                Error::invalid("--terminal", &format!("a number in [0, 1); {e}"), text)
            })?,
            None => BigRational::from_integer(0.into()),
        };
        let step = Law::parse("--step", self.step.as_deref().unwrap_or("1:1/2,-1:1/2"))?;
        let leaf = Law::parse("--leaf", self.leaf.as_deref().unwrap_or("0"))?;
        let levels = match self.levels {
            None => None,
            Some(count) => {
                let (low, high) = match &self.range {
                    Some(text) => pair("--range", text, "LO,HI (two numbers)", false)?,
                    None => crate::analytic::pathsum::value_span(&step, &leaf, self.height),
                };
                Some(crate::analytic::pathsum::Levels { count, low, high })
            }
        };
        let game = PathSumGame {
            branching: self.branching.unwrap_or(2),
            height: self.height,
            step,
            leaf,
            terminal,
            outcome: self.outcome.unwrap_or(Outcome::Value),
            evaluator,
            levels,
        };
        game.validate()?;
        Ok(PathSumRequest {
            game,
            depth: self.depth,
            exact: self.exact,
        })
    }
}
