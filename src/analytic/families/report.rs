//! Exact D(d,h) columns of every family as [`Report`]s (`pathology exact`), and the dispatch
//! that sends binary D-games with the piece count to Li & Marsland's engine
//! ([`crate::analytic::dgame::Solver`]), so that `exact --game d --branching 2` prints the same `f64`
//! values as `dgame`, bit for bit.

use num_rational::BigRational;

use super::{BaryDGame, Evaluator, ExactColumn, Family, NGame, PGame, check_cost, decision_column};
use crate::analytic::dgame::report::probability_cell;
use crate::analytic::dgame::{DependenceFactors, Solver};
use crate::error::{Error, Result};
use crate::model::Player;
use crate::numeric::number::{Probability, parse_rational, short_text};
use crate::report::{Cell, Column, Grid, Kind, Report, Table, printed_error_bound};

/// Decimals a reader's format shows by default.
pub const FAMILY_DECIMALS: usize = 6;

/// A game family of [`FamilyRequest`], with its parameters as the user gave them.
#[derive(Debug, Clone, PartialEq)]
pub enum GameRequest {
    /// Bi-valued b-ary D-game (Li & Marsland Definition 3.1): q_1..q_b and r_1..r_b as
    /// text (numbers, comma-separated on the command line; missing entries are 0).
    D {
        /// q_k: the probabilities that a win Max node has exactly k win children.
        qk: Vec<String>,
        /// r_k: the probabilities that a loss Min node has exactly k loss children.
        rk: Vec<String>,
    },
    /// P-game: squares 1 with probability p (default w_b, irrational: `f64` only).
    P {
        /// The square probability.
        p: Option<BigRational>,
    },
    /// N-game: edges +1 with probability q (default 1/2).
    N {
        /// The edge probability.
        q: Option<BigRational>,
    },
}

impl GameRequest {
    /// `d`, `p` or `n`.
    pub fn name(&self) -> &'static str {
        match self {
            GameRequest::D { .. } => "d",
            GameRequest::P { .. } => "p",
            GameRequest::N { .. } => "n",
        }
    }
}

/// The static evaluator of a [`FamilyRequest`].
#[derive(Debug, Clone, PartialEq)]
pub enum EvaluatorRequest {
    /// Nau's piece count.
    Count,
    /// Wilson et al.'s artificial evaluator with error rate e (default 1/10).
    Artificial {
        /// The error rate.
        e: Option<BigRational>,
    },
}

/// D(d,h) of one game family (`pathology exact`): b-ary D-games, P-games, N-games with the
/// piece count or the artificial evaluator, in `f64` or exact rationals.
#[derive(Debug, Clone, PartialEq)]
pub struct FamilyRequest {
    /// The family and its parameters.
    pub game: GameRequest,
    /// Branching factor b.
    pub branching: u32,
    /// Height h of the root.
    pub height: u32,
    /// Only D(depth, h).
    pub depth: Option<u32>,
    /// The static evaluator at the search front.
    pub evaluator: EvaluatorRequest,
    /// Exact rationals instead of `f64`.
    pub exact: bool,
}

fn rationals(name: &str, texts: &[String]) -> Result<Vec<BigRational>> {
    texts
        .iter()
        .map(|t| {
            parse_rational(t)
                .map_err(|e| Error::invalid(name, "comma-separated numbers in [0, 1]", e))
        })
        .collect()
}

fn convert<P: Probability>(values: &[BigRational]) -> Vec<P> {
    values.iter().map(P::from_rational).collect()
}

impl FamilyRequest {
    /// The artificial evaluator's error rate (default 1/10).
    fn error_rate(e: &Option<BigRational>) -> BigRational {
        e.clone()
            .unwrap_or_else(|| BigRational::new(1.into(), 10.into()))
    }

    /// The N-game's edge probability (default 1/2).
    fn edge_probability(q: &Option<BigRational>) -> BigRational {
        q.clone()
            .unwrap_or_else(|| BigRational::new(1.into(), 2.into()))
    }

    /// The report: table `decisions` (one row per depth) and table `root`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::report::{EvaluatorRequest, FamilyRequest, GameRequest};
    /// let request = FamilyRequest {
    ///     game: GameRequest::N { q: None }, branching: 2, height: 6, depth: None,
    ///     evaluator: EvaluatorRequest::Count, exact: false,
    /// };
    /// let report = request.report().unwrap();
    /// assert_eq!(report.title, "D(d,6) for an N-game, b = 2, q = 0.5, piece count");
    /// assert_eq!(report.tables[0].rows.len(), 6);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for invalid parameters (a D-game without q_k and r_k, a
    /// P-game without p in exact mode, a depth outside 1..=h); [`Error::TooExpensive`] when
    /// [`check_cost`] refuses.
    pub fn report(&self) -> Result<Report> {
        if self.exact {
            self.report_in::<BigRational>()
        } else {
            self.report_in::<f64>()
        }
    }

    fn family<P: Probability>(&self) -> Result<(Family<P>, String)> {
        let b = self.branching;
        Ok(match &self.game {
            GameRequest::D { qk, rk } => {
                if qk.is_empty() || rk.is_empty() {
                    return Err(Error::invalid(
                        "--qk and --rk",
                        "given for D-games (q_1,...,q_b and r_1,...,r_b)",
                        "nothing",
                    ));
                }
                let (qs, rs) = (rationals("--qk", qk)?, rationals("--rk", rk)?);
                // Validate in exact rationals (sums exactly 1), then convert.
                BaryDGame::new(b, qs.clone(), rs.clone())?;
                let game = BaryDGame::new(b, convert::<P>(&qs), convert::<P>(&rs))?;
                let text =
                    |v: &[BigRational]| v.iter().map(short_text).collect::<Vec<_>>().join(",");
                (
                    Family::D(game),
                    format!("D-game, b = {b}, q = ({}), r = ({})", text(&qs), text(&rs)),
                )
            }
            GameRequest::P { p: Some(p) } => (
                Family::P(PGame::new(b, P::from_rational(p))?),
                format!("P-game, b = {b}, p = {}", short_text(p)),
            ),
            GameRequest::P { p: None } if P::EXACT => {
                return Err(Error::invalid(
                    "--p",
                    "given with --exact (the default w_b is irrational)",
                    "nothing",
                ));
            }
            GameRequest::P { p: None } => {
                let p = PGame::pearl(b)?.p().to_f64();
                (
                    Family::P(PGame::new(
                        b,
                        P::from_rational(&BigRational::from_float(p).expect("finite")),
                    )?),
                    format!("P-game, b = {b}, p = w_{b} = {p}"),
                )
            }
            GameRequest::N { q } => {
                let q = Self::edge_probability(q);
                (
                    Family::N(NGame::new(b, P::from_rational(&q))?),
                    format!("N-game, b = {b}, q = {}", short_text(&q)),
                )
            }
        })
    }

    fn report_in<P: Probability>(&self) -> Result<Report> {
        let (family, label) = self.family::<P>()?;
        let evaluator = match &self.evaluator {
            EvaluatorRequest::Count => Evaluator::Count,
            EvaluatorRequest::Artificial { e } => Evaluator::Artificial {
                error: P::from_rational(&Self::error_rate(e)),
            },
        };
        let h = self.height;
        if let Some(d) = self.depth
            && !(1..=h).contains(&d)
        {
            return Err(Error::invalid(
                "--depth",
                &format!("in 1..={h} (at most --height)"),
                d,
            ));
        }
        let cost = check_cost(&family, &evaluator, h)?;
        crate::budget::announce_estimate(
            &format!("D(d,{h}) of a {}-game", family.name().to_uppercase()),
            cost.seconds,
        );
        let column = solve(&family, &evaluator, h)?;
        let (evaluator_name, evaluator_text) = match &self.evaluator {
            EvaluatorRequest::Count => ("count", "piece count".to_string()),
            EvaluatorRequest::Artificial { e } => (
                "artificial",
                format!(
                    "artificial evaluator, e = {}",
                    short_text(&Self::error_rate(e))
                ),
            ),
        };
        let game = self.game.name();
        let article = if game == "n" { "an" } else { "a" };
        let title = format!("D(d,{h}) for {article} {label}, {evaluator_text}");
        let mut report = Report::new("exact", &title)
            .param("game", game)
            .param("branching", self.branching)
            .param("height", h);
        if let Some(d) = self.depth {
            report = report.param("depth", d);
        }
        report = report.param("evaluator", evaluator_name);
        if let EvaluatorRequest::Artificial { e } = &self.evaluator {
            report = report.param("e", short_text(&Self::error_rate(e)));
        }
        report = match &self.game {
            GameRequest::D { qk, rk } => report.param("qk", qk.join(",")).param("rk", rk.join(",")),
            GameRequest::P { p: Some(p) } => report.param("p", short_text(p)),
            GameRequest::P { p: None } => report,
            GameRequest::N { q } => report.param("q", short_text(&Self::edge_probability(q))),
        };
        Ok(exact_report(
            report.param("exact", self.exact),
            game,
            self.branching,
            evaluator_name,
            &column,
            self.depth,
        ))
    }
}

/// D(d,h) at every depth for one family and evaluator: binary D-games with the piece count
/// through [`Solver`] (Tables 1-2's engine), everything else through [`decision_column`].
///
/// # Examples
///
/// ```
/// use pathology::analytic::families::report::solve;
/// use pathology::analytic::families::{BaryDGame, Evaluator, Family};
/// let game = BaryDGame::new(2, vec![0.9, 0.1], vec![0.9, 0.1]).unwrap();
/// let column = solve(&Family::D(game), &Evaluator::Count, 10).unwrap();
/// assert!((column.values[0] - 0.608).abs() < 5e-4); // Table 1, f1 = f2 = 0.1
/// ```
///
/// # Errors
///
/// As [`decision_column`] and [`Solver::decision_column`].
pub fn solve<P: Probability>(
    family: &Family<P>,
    evaluator: &Evaluator<P>,
    height: u32,
) -> Result<ExactColumn<P>> {
    match (family, evaluator) {
        (Family::D(g), Evaluator::Count) if g.branching() == 2 => {
            let factors = DependenceFactors::new(g.win_max()[1].clone(), g.loss_min()[1].clone())?;
            let c = Solver::new(factors).decision_column(height)?;
            let same = match Player::to_move_at_height(height) {
                Player::Max => &g.win_max()[1],
                Player::Min => &g.loss_min()[1],
            };
            Ok(ExactColumn {
                height,
                values: c.values,
                error_bounds: c.error_bounds,
                nontrivial: P::certain().minus(same),
            })
        }
        _ => decision_column(family, evaluator, height),
    }
}

/// Table `root` of a decision report: one row with the game, b, h and `nontrivial`, the
/// probability that a root is non-trivial (the condition of `condition`, the decision
/// probability's name).
pub fn root_table(condition: &str, game: &str, branching: u32, h: u32, nontrivial: Cell) -> Table {
    let mut root = Table::new(
        "root",
        &format!("the probability that a root is non-trivial (the condition of {condition})"),
        vec![
            Column::key("game", Kind::Text),
            Column::key("b", Kind::Integer),
            Column::key("h", Kind::Integer),
            Column::new("nontrivial", Kind::Real),
        ],
    );
    root.push(vec![
        Cell::text(game),
        Cell::int(branching),
        Cell::int(h),
        nontrivial,
    ]);
    root
}

/// The report of one exact column: table `decisions` with one row per depth (the game,
/// branching factor, height, evaluator and their parameters are in the manifest), and
/// table `root` with the probability that a root is non-trivial.
///
/// # Examples
///
/// ```
/// use pathology::analytic::families::report::{exact_report, solve};
/// use pathology::analytic::families::{Evaluator, Family, PGame};
/// use pathology::report::Report;
/// let column = solve(&Family::P(PGame::new(2, 0.5).unwrap()), &Evaluator::Count, 4).unwrap();
/// let report = exact_report(Report::new("exact", "P-game"), "p", 2, "count", &column, None);
/// assert_eq!(report.tables[0].rows.len(), 4);
/// ```
pub fn exact_report<P: Probability>(
    report: Report,
    game: &str,
    branching: u32,
    evaluator: &str,
    column: &ExactColumn<P>,
    only_depth: Option<u32>,
) -> Report {
    let h = column.height;
    let depths: Vec<u32> = match only_depth {
        Some(d) => vec![d],
        None => (1..=h).collect(),
    };
    let key = |name: &str, kind| Column::key(name, kind);
    let mut table = Table::new(
        "decisions",
        &report.title,
        vec![
            key("game", Kind::Text),
            key("b", Kind::Integer),
            key("h", Kind::Integer),
            key("evaluator", Kind::Text),
            key("d", Kind::Integer),
            Column::new("D", Kind::Real).labelled(&format!("D(d,{h})")),
        ],
    );
    let mut grid = Grid {
        header: vec![vec!["d".to_string(), format!("D(d,{h})")]],
        ..Grid::default()
    };
    for d in depths {
        let i = d as usize - 1;
        grid.body.push((
            d.to_string(),
            vec![probability_cell(&column.values[i], column.error_bounds[i])],
        ));
        table.push(vec![
            Cell::text(game),
            Cell::int(branching),
            Cell::int(h),
            Cell::text(evaluator),
            Cell::int(d),
            probability_cell(&column.values[i], column.error_bounds[i]),
        ]);
    }
    table.grid = Some(grid);
    let root = root_table(
        "D(d,h)",
        game,
        branching,
        h,
        match column.nontrivial.exact_string() {
            Some(_) => probability_cell(&column.nontrivial, 0.0),
            None => Cell::Real(column.nontrivial.to_f64()),
        },
    );
    let mut report = report
        .mode(if P::EXACT { "exact" } else { "f64" })
        .with_table(table)
        .with_table(root);
    if !P::EXACT {
        let largest = column.error_bounds.iter().copied().fold(0.0, f64::max);
        report = report.note(format!(
            "f64: every D value is within {} of the exact value at the f64 parameters \
             (rigorous rounding bound, rounded up; each value's own bound is the CSV/JSON \
             column D_error_bound)",
            printed_error_bound(0.0, largest)
        ));
    }
    report
}
