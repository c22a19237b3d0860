//! `pathology decision --game g`: D(d,k) of a G-game (our reconstruction of Nau's game, see
//! [`crate::analytic::ggame`]) for one evaluator, and with `--rhf` the rate of heuristic flaw
//! rhf(d) (Chi & Nau 1987, Section 2) of every evaluator, as a [`Report`], in exact rationals
//! or in `f64` with rigorous error bounds.
//!
//! Tables: `decisions` (one row per depth d: `D(d,k)`), `root` (the probability that the root
//! is non-trivial, the condition of D) and, with `--rhf`, `flaws` (one row per evaluator and
//! depth; the text formats lay it out as a grid, one column per evaluator) with `dominates`:
//! for every ordered pair of evaluators, whether the first one's rhf is at most the second's
//! at every depth (and below it at some), the form in which Chi & Nau's conjecture is tested
//! by `pathology mc ggame`.

use num_rational::BigRational;

use super::{
    ALL_EVALUATORS, GEvaluator, MAX_MOVES, check_flaw_cost, check_moves, decision_polynomials,
    flaw_polynomials,
};
use crate::error::{Error, Result};
use crate::numeric::number::short_text;
use crate::report::{Cell, Column, Grid, Kind, Report, Table, printed_error_bound};

/// Decimals a reader's format shows by default.
pub const GGAME_DECIMALS: usize = 6;

/// The label every G-game output carries.
pub const RECONSTRUCTION: &str = "G-games are our reconstruction of Nau's (1983) game graphs \
     from secondary descriptions (Chi & Nau 1987 do not define them): a row of k + 1 squares, \
     each 1 with probability p; players alternately remove an end square; the last square \
     decides (1 = Max wins; Max moves last). Evaluators other than e1 are ours, not the paper's \
     e3.";

/// D(d,k) of a G-game (`pathology decision --game g`).
#[derive(Debug, Clone, PartialEq)]
pub struct GGameRequest {
    /// Moves k of the game (the row has `k + 1` squares; the height of the root).
    pub height: u32,
    /// The probability that a square is a 1 (default 1/2).
    pub p: Option<BigRational>,
    /// Only D(depth, k).
    pub depth: Option<u32>,
    /// The evaluator at the search front.
    pub evaluator: GEvaluator,
    /// Add rhf(d) of every evaluator (`--rhf`).
    pub flaws: bool,
    /// Exact rationals instead of `f64`.
    pub exact: bool,
}

/// A probability as a cell: exact, or `f64` with its bound.
fn value_cell(exact: bool, value: Option<(BigRational, (f64, f64))>) -> Cell {
    match value {
        None => Cell::Empty,
        Some((x, _)) if exact => Cell::Exact(x),
        Some((_, (value, bound))) => Cell::Bounded { value, bound },
    }
}

impl GGameRequest {
    /// The request from the command line's options: `evaluator` as `--evaluator` spells it
    /// (any value enum: its value's name; default `e1`). Options of the other families are
    /// refused by [`crate::analytic::decision::GameOptions`] before this is called.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::ggame::GEvaluator;
    /// use pathology::analytic::ggame::report::GGameRequest;
    /// let r = GGameRequest::from_options(6, None, None, Some(GEvaluator::E1Forced), false, true).unwrap();
    /// assert_eq!(r.evaluator, GEvaluator::E1Forced);
    /// let none: Option<GEvaluator> = None;
    /// assert_eq!(GGameRequest::from_options(6, None, None, none, false, true).unwrap().evaluator, GEvaluator::E1);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--evaluator` (not a G-game evaluator).
    pub fn from_options<E: clap::ValueEnum>(
        height: u32,
        depth: Option<u32>,
        p: Option<BigRational>,
        evaluator: Option<E>,
        flaws: bool,
        exact: bool,
    ) -> Result<Self> {
        let name = evaluator.and_then(|e| e.to_possible_value());
        let evaluator = match name.as_ref().map(|v| v.get_name()) {
            None => GEvaluator::E1,
            Some(name) => ALL_EVALUATORS
                .into_iter()
                .find(|e| e.name() == name)
                .ok_or_else(|| {
                    Error::invalid(
                        "--evaluator",
                        "e1, e1-forced, half or centre with --game g",
                        name,
                    )
                })?,
        };
        Ok(GGameRequest {
            height,
            p,
            depth,
            evaluator,
            flaws,
            exact,
        })
    }

    /// The square probability (default 1/2).
    pub fn p(&self) -> BigRational {
        self.p
            .clone()
            .unwrap_or_else(|| BigRational::new(1.into(), 2.into()))
    }

    /// The report: tables `decisions`, `root` and (with `--rhf`) `flaws` and `dominates`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::ggame::GEvaluator;
    /// use pathology::analytic::ggame::report::GGameRequest;
    /// let request = GGameRequest {
    ///     height: 8, p: None, depth: None, evaluator: GEvaluator::Centre, flaws: true,
    ///     exact: true,
    /// };
    /// let report = request.report().unwrap();
    /// assert_eq!(report.manifest.command_line(),
    ///     "pathology decision --game g --height 8 --p 0.5 --evaluator centre --rhf --exact");
    /// assert_eq!(report.tables[0].rows.len(), 8);
    /// assert_eq!(report.table("flaws").unwrap().rows.len(), 4 * 8);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--height` outside `1..=120`, `--depth` outside
    /// `1..=height` or `--p` outside [0, 1]; [`Error::TooExpensive`] when rhf would take more
    /// than about a minute ([`check_flaw_cost`]).
    pub fn report(&self) -> Result<Report> {
        let k = self.height;
        check_moves(k, MAX_MOVES)?;
        if let Some(d) = self.depth
            && !(1..=k).contains(&d)
        {
            return Err(Error::invalid(
                "--depth",
                &format!("in 1..={k} (at most --height)"),
                d,
            ));
        }
        let p = self.p();
        if p < BigRational::from_integer(0.into()) || p > BigRational::from_integer(1.into()) {
            return Err(Error::invalid("--p", "in [0, 1]", short_text(&p)));
        }
        if self.flaws {
            check_flaw_cost(k, ALL_EVALUATORS.len())?;
        }
        let p_f64 = <BigRational as crate::numeric::number::Probability>::to_f64(&p);
        let title = format!(
            "D(d,{k}) for a G-game (reconstruction), k = {k}, p = {}, evaluator {}",
            short_text(&p),
            self.evaluator.name()
        );
        let mut report = Report::new("decision", &title)
            .param("game", "g")
            .param("height", k);
        if let Some(d) = self.depth {
            report = report.param("depth", d);
        }
        report = report
            .param("p", short_text(&p))
            .param("evaluator", self.evaluator.name())
            .param("rhf", self.flaws)
            .param("exact", self.exact)
            .mode(if self.exact { "exact" } else { "f64" });
        let depths: Vec<u32> = match self.depth {
            Some(d) => vec![d],
            None => (1..=k).collect(),
        };
        let key = |name: &str, kind| Column::key(name, kind);
        let mut decisions = Table::new(
            "decisions",
            &title,
            vec![
                key("game", Kind::Text),
                key("h", Kind::Integer),
                key("p", Kind::Real),
                key("evaluator", Kind::Text),
                key("d", Kind::Integer),
                Column::new("D", Kind::Real).labelled(&format!("D(d,{k})")),
            ],
        );
        let mut grid = Grid {
            header: vec![vec!["d".to_string(), format!("D(d,{k})")]],
            ..Grid::default()
        };
        let mut largest_bound: f64 = 0.0;
        let mut nontrivial = None;
        for d in depths {
            let poly = decision_polynomials(k, d, self.evaluator)?;
            let value = poly.value(&p).map(|x| {
                let bounded = poly.value_f64_bounded(p_f64).unwrap_or((f64::NAN, 0.0));
                largest_bound = largest_bound.max(bounded.1);
                (x, bounded)
            });
            let cell = value_cell(self.exact, value);
            grid.body.push((d.to_string(), vec![cell.clone()]));
            decisions.push(vec![
                Cell::text("g"),
                Cell::int(k),
                Cell::Exact(p.clone()),
                Cell::text(self.evaluator.name()),
                Cell::int(d),
                cell,
            ]);
            let root = poly.nontrivial();
            let (value, relative) = root.value_f64_bounded(p_f64);
            nontrivial.get_or_insert((root.value(&p), (value, value * relative)));
        }
        decisions.grid = Some(grid);
        let mut root = Table::new(
            "root",
            "the probability that the root is non-trivial (the condition of D(d,k))",
            vec![
                key("game", Kind::Text),
                key("h", Kind::Integer),
                key("p", Kind::Real),
                Column::new("nontrivial", Kind::Real),
            ],
        );
        root.push(vec![
            Cell::text("g"),
            Cell::int(k),
            Cell::Exact(p.clone()),
            value_cell(self.exact, nontrivial),
        ]);
        report = report.with_table(decisions).with_table(root);
        if self.flaws {
            let (flaws, dominates, bound) = flaw_tables(k, &p, p_f64, self.exact)?;
            largest_bound = largest_bound.max(bound);
            report = report.with_table(flaws).with_table(dominates);
        }
        if report.tables[0].rows.iter().any(|r| r[5] == Cell::Empty) {
            report = report.note("D is empty where no root is non-trivial (p = 0 or 1)");
        }
        if !self.exact {
            report = report.note(format!(
                "f64: every value is within {} of the exact value at the f64 p (rigorous \
                 rounding bound, rounded up; each value's own bound is the CSV/JSON column \
                 *_error_bound)",
                printed_error_bound(0.0, largest_bound)
            ));
        }
        Ok(report
            .note(
                "D(d,k): the probability that a depth-d minimax search at the root moves to a \
             winning child, given a non-trivial root; ties between the children's values \
             broken at random (count 1/2). rhf(d): two distinct positions (intervals) at depth \
             d, each counted once however many move orders reach it, on a random board; a flaw \
             is u(better_e) < u(worse_e), ties in e count 1/2",
            )
            .note(RECONSTRUCTION))
    }
}

/// The `flaws` table (rhf(d) of every evaluator at every depth), the `dominates` table and the
/// largest f64 error bound.
fn flaw_tables(k: u32, p: &BigRational, p_f64: f64, exact: bool) -> Result<(Table, Table, f64)> {
    let key = |name: &str, kind| Column::key(name, kind);
    let caption = format!(
        "rhf(d) of every evaluator, G-game (reconstruction), k = {k}, p = {}",
        short_text(p)
    );
    let mut flaws = Table::new(
        "flaws",
        &caption,
        vec![
            key("game", Kind::Text),
            key("h", Kind::Integer),
            key("p", Kind::Real),
            key("evaluator", Kind::Text),
            key("d", Kind::Integer),
            Column::new("rhf", Kind::Real).labelled("rhf(d)"),
        ],
    );
    let mut header = vec!["d".to_string()];
    header.extend(ALL_EVALUATORS.iter().map(|e| e.name().to_string()));
    let mut columns: Vec<Vec<Cell>> = Vec::new();
    let mut exact_values: Vec<Vec<BigRational>> = Vec::new();
    let mut largest: f64 = 0.0;
    for evaluator in ALL_EVALUATORS {
        let polys = flaw_polynomials(k, evaluator)?;
        let mut column = Vec::new();
        let mut values = Vec::new();
        for (i, poly) in polys.iter().enumerate() {
            let x = poly.value(p);
            let bounded = poly.value_f64_bounded(p_f64);
            largest = largest.max(bounded.1);
            let cell = value_cell(exact, Some((x.clone(), bounded)));
            flaws.push(vec![
                Cell::text("g"),
                Cell::int(k),
                Cell::Exact(p.clone()),
                Cell::text(evaluator.name()),
                Cell::int(i as u32 + 1),
                cell.clone(),
            ]);
            column.push(cell);
            values.push(x);
        }
        columns.push(column);
        exact_values.push(values);
    }
    flaws.grid = Some(Grid {
        header: vec![header],
        body: (0..k as usize)
            .map(|i| {
                (
                    (i + 1).to_string(),
                    columns.iter().map(|c| c[i].clone()).collect(),
                )
            })
            .collect(),
        rules_after: Vec::new(),
    });
    let mut dominates = Table::new(
        "dominates",
        "whether evaluator A's rhf is at most B's at every depth and below it at some (exact)",
        vec![
            key("lower", Kind::Text),
            key("higher", Kind::Text),
            Column::new("dominates", Kind::Text),
        ],
    );
    for (a, lower) in ALL_EVALUATORS.iter().enumerate() {
        for (b, higher) in ALL_EVALUATORS.iter().enumerate() {
            if a != b {
                let holds = dominates_at_every_depth(&exact_values[a], &exact_values[b]);
                dominates.push(vec![
                    Cell::text(lower.name()),
                    Cell::text(higher.name()),
                    Cell::text(if holds { "yes" } else { "no" }),
                ]);
            }
        }
    }
    Ok((flaws, dominates, largest))
}

/// Whether `lower[d] <= higher[d]` at every depth and `<` at some.
///
/// # Examples
///
/// ```
/// use pathology::analytic::ggame::report::dominates_at_every_depth;
/// assert!(dominates_at_every_depth(&[0, 1, 2], &[0, 2, 2]));
/// assert!(!dominates_at_every_depth(&[0, 1, 2], &[0, 1, 2]));
/// assert!(!dominates_at_every_depth(&[0, 3, 2], &[1, 2, 2]));
/// ```
pub fn dominates_at_every_depth<T: PartialOrd>(lower: &[T], higher: &[T]) -> bool {
    lower.iter().zip(higher).all(|(a, b)| a <= b) && lower.iter().zip(higher).any(|(a, b)| a < b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(evaluator: GEvaluator, exact: bool) -> GGameRequest {
        GGameRequest {
            height: 7,
            p: Some(BigRational::new(3.into(), 10.into())),
            depth: None,
            evaluator,
            flaws: true,
            exact,
        }
    }

    /// The f64 report's cells lie within their bounds of the exact report's.
    #[test]
    fn f64_report_agrees_with_exact_report() {
        for evaluator in ALL_EVALUATORS {
            let exact = request(evaluator, true).report().unwrap();
            let float = request(evaluator, false).report().unwrap();
            for name in ["decisions", "root", "flaws"] {
                let (a, b) = (exact.table(name).unwrap(), float.table(name).unwrap());
                assert_eq!(a.rows.len(), b.rows.len());
                for (ra, rb) in a.rows.iter().zip(&b.rows) {
                    let (Cell::Exact(x), Cell::Bounded { value, bound }) =
                        (ra.last().unwrap(), rb.last().unwrap())
                    else {
                        panic!("{name}: {ra:?} {rb:?}");
                    };
                    let x = <BigRational as crate::numeric::number::Probability>::to_f64(x);
                    assert!(
                        (x - value).abs() <= bound + x * f64::EPSILON,
                        "{name} {x} {value}"
                    );
                }
            }
        }
    }

    #[test]
    fn refuses_bad_requests_by_name() {
        let mut r = request(GEvaluator::E1, true);
        r.depth = Some(8);
        assert!(r.report().unwrap_err().to_string().contains("--depth"));
        r.depth = None;
        r.height = 0;
        assert!(r.report().unwrap_err().to_string().contains("--height"));
        r.height = 70;
        let refused = r.report().unwrap_err().to_string();
        assert!(
            refused.contains("refused") && refused.contains("rhf"),
            "{refused}"
        );
        r.flaws = false;
        assert_eq!(r.report().unwrap().tables.len(), 2); // D alone is cheap at k = 70
    }

    /// p = 0: no non-trivial root, D is empty, not NaN.
    #[test]
    fn no_nontrivial_root_gives_empty_cells() {
        let mut r = request(GEvaluator::E1, false);
        r.p = Some(BigRational::from_integer(0.into()));
        r.flaws = false;
        let report = r.report().unwrap();
        assert!(
            report.tables[0]
                .rows
                .iter()
                .all(|row| row[5] == Cell::Empty)
        );
        assert!(
            report
                .notes
                .iter()
                .any(|n| n.contains("no root is non-trivial"))
        );
    }
}
