//! Best-of-n with a verifier whose wrong answers can outscore every correct one (a
//! study of `reproduce`), exactly.
//!
//! **The family.** A correct sample's score is uniform on {0, 1, 2}; a wrong sample scores 2
//! with probability t (the *tail knob*: the wrong law's mass at the top score) and 0
//! otherwise. Two task mixes: one type with R = 3/10, and Stroebl, Kapoor & Narayanan's two
//! types (R = 0.87 and 0.13, shares 0.58 and 0.42). For every t of [`TAILS`] the calculator
//! of `pathology inference best-of-n` gives `P_correct` exactly for n = 1..[`MAX_N`] and its
//! limit as n grows.
//!
//! **Two boundaries, derived.** Write `P(n)` for `P_correct`, per type R.
//!
//! - *The first extra sample.* `P(2) - P(1) = R (1 - R) (2A - 1)` with A = P(S_c > S_w) +
//!   P(S_c = S_w)/2 the verifier's AUC (two samples: both correct, or one of each and the
//!   correct one ranked first, ties halved). Here `A = 2(1 - t)/3 + 1/6`, so
//!   `P(2) - P(1) = (2/3)(1 - 2t) sum_j W_j R_j (1 - R_j)`: a second sample helps for t < 1/2
//!   and hurts for t > 1/2, whatever the mix.
//! - *The limit.* As n grows the largest score is the top level either law reaches (2), and
//!   the sample taken there is correct with probability `a/(a + b)`, `a = R/3`,
//!   `b = (1 - R) t`. It lies below `P(1) = R` exactly when `1/3 < t`: when the wrong law
//!   puts more mass on the top score than the correct law does (the likelihood ratio at the
//!   top below 1), many samples end worse than one, for every R in (0, 1) and so for every
//!   mix. A wrong law reaching above the correct law's maximum is the extreme case: the limit
//!   is then 0 for every R < 1.
//!
//! Between them (0 < t < 1/2) `P` rises and then falls: the middle score 1 is reached only
//! by correct samples, so moderate n lift the largest score to it, and large n to the top
//! score, where wrong samples share the ties. Each boundary is also located by exact
//! bisection in rationals on the calculator's own values ([`bisect`]).

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::analytic::inference::{Tasks, best_of_n};
use crate::analytic::pathsum::Law;
use crate::error::Result;
use crate::numeric::number::{parse_rational, rational_to_f64};
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence};
use crate::report::figure::{
    Axes, ErrorPoint, ErrorSeries, ExactLine, LegendPosition, Panel, Scale,
};
use crate::report::{Cell, Column, Kind, Table};

/// The correct samples' score law.
pub const CORRECT_SCORES: &str = "0:1/3,1:1/3,2:1/3";
/// The tail knob t: the wrong samples' probability of the top score 2 (else 0).
pub const TAILS: [&str; 11] = [
    "0", "1/10", "1/4", "3/10", "1/3", "2/5", "9/20", "1/2", "3/5", "4/5", "1",
];
/// The tail knobs drawn in the figure.
pub const DRAWN_TAILS: [&str; 7] = ["0", "1/10", "1/4", "1/3", "2/5", "1/2", "4/5"];
/// The task mixes: a name and `--tasks`.
pub const MIXES: [(&str, &str); 2] = [
    ("one type, R = 3/10", "3/10"),
    ("Stroebl et al.'s two types", "0.87:0.58,0.13:0.42"),
];
/// The largest n computed (every n from 1).
pub const MAX_N: u64 = 64;
/// Halvings of the bisections.
pub const BISECTION_STEPS: u32 = 24;

/// Bits of a fraction above which [`shown`] gives its `f64` enclosure instead of the fraction.
pub const SHOWN_BITS: u64 = 256;

/// An exact value as a cell: the fraction itself when its parts have at most [`SHOWN_BITS`]
/// bits together, else the double nearest to it with a rigorous bound (an enclosure of the
/// exact value, so a claim decided on it has the exact value's sign: the enclosure of a
/// nonzero rational never holds 0 here, and 0 is always shown as the fraction 0).
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::report::Cell;
/// use pathology::studies::inference::best_of_n::shown;
/// let small = BigRational::new(3.into(), 10.into());
/// assert_eq!(shown(&small), Cell::Exact(small.clone()));
/// let large = num_traits::pow(small, 200);
/// let Cell::Bounded { value, bound } = shown(&large) else { unreachable!() };
/// assert!(value > 0.0 && bound < value);
/// ```
pub fn shown(x: &BigRational) -> Cell {
    if x.numer().bits() + x.denom().bits() <= SHOWN_BITS {
        return Cell::Exact(x.clone());
    }
    let value = rational_to_f64(x);
    let enclosure = crate::numeric::enclosure::Enclosure::of(x);
    Cell::Bounded {
        value,
        bound: (value - enclosure.lower).max(enclosure.upper - value),
    }
}

/// The wrong samples' score law at tail knob t: `0:1-t,2:t`.
pub fn wrong_scores(t: &BigRational) -> Law {
    let rest = BigRational::one() - t;
    Law::parse("--score-wrong", &format!("0:{rest},2:{t}")).expect("t in [0, 1]")
}

/// One curve: a mix and a tail knob.
#[derive(Debug, Clone)]
pub struct Curve {
    /// The index of the mix in [`MIXES`].
    pub mix: usize,
    /// The tail knob t (as written in [`TAILS`]).
    pub tail: &'static str,
    /// `P(n)` for n = 1..=[`MAX_N`].
    pub values: Vec<BigRational>,
    /// The limit as n grows.
    pub limit: BigRational,
    /// The first n of 1..=[`MAX_N`] with the largest `P(n)`.
    pub best: u64,
}

impl Curve {
    /// `P(n)`.
    pub fn at(&self, n: u64) -> &BigRational {
        &self.values[n as usize - 1]
    }

    /// `P(best n)`.
    pub fn peak(&self) -> &BigRational {
        self.at(self.best)
    }

    /// The largest `P(n + 1) - P(n)` over the list (below 0: P falls at every n).
    pub fn largest_step(&self) -> BigRational {
        self.values
            .windows(2)
            .map(|w| &w[1] - &w[0])
            .max()
            .expect("at least two values")
    }
}

/// A bisection's result: the boundary found exactly, or a bracket `[low, high]` whose ends
/// have opposite signs.
#[derive(Debug, Clone, PartialEq)]
pub struct Bracket {
    /// The lower end.
    pub low: BigRational,
    /// The upper end (equal to `low` when the boundary was hit exactly).
    pub high: BigRational,
    /// Halvings made.
    pub steps: u32,
}

/// Bisects `[low, high]` for a sign change of `f` (positive at `low`, negative at `high`):
/// `steps` halvings in exact rationals, stopping early at an exact zero.
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::studies::inference::best_of_n::bisect;
/// let third = BigRational::new(1.into(), 3.into());
/// let b = bisect(|t| Ok(&third - t), 10).unwrap();
/// assert!(b.low < third && third < b.high);
/// assert_eq!(&b.high - &b.low, BigRational::new(1.into(), 1024.into()));
/// ```
///
/// # Errors
///
/// As `f`.
pub fn bisect(f: impl Fn(&BigRational) -> Result<BigRational>, steps: u32) -> Result<Bracket> {
    let (mut low, mut high) = (BigRational::zero(), BigRational::one());
    let two = BigRational::from_integer(2.into());
    for step in 0..steps {
        let middle = (&low + &high) / &two;
        let value = f(&middle)?;
        if value.is_zero() {
            return Ok(Bracket {
                low: middle.clone(),
                high: middle,
                steps: step + 1,
            });
        }
        if value.is_positive() {
            low = middle;
        } else {
            high = middle;
        }
    }
    Ok(Bracket { low, high, steps })
}

/// `(P(1), P(2), limit)` of a mix at tail knob t, from the calculator.
fn first_two_and_limit(
    tasks: &Tasks,
    t: &BigRational,
) -> Result<(BigRational, BigRational, BigRational)> {
    let correct = Law::parse("--score-correct", CORRECT_SCORES).expect("a law");
    let r = best_of_n::<BigRational>(tasks, &correct, &wrong_scores(t), &[1, 2])?;
    Ok((
        r.rows[0].correct.value.clone(),
        r.rows[1].correct.value.clone(),
        r.limit.correct.value,
    ))
}

/// `sum_j W_j R_j (1 - R_j)`.
fn spread(tasks: &Tasks) -> BigRational {
    tasks
        .types()
        .iter()
        .map(|t| &t.share * &t.success * (BigRational::one() - &t.success))
        .sum()
}

/// The closed form of `P(2) - P(1)`: `(2/3)(1 - 2t) sum_j W_j R_j (1 - R_j)`.
pub fn first_difference(tasks: &Tasks, t: &BigRational) -> BigRational {
    let two = BigRational::from_integer(2.into());
    &two / BigRational::from_integer(3.into()) * (BigRational::one() - &two * t) * spread(tasks)
}

/// The closed form of the limit: `sum_j W_j (R_j/3) / (R_j/3 + (1 - R_j) t)`.
pub fn limit(tasks: &Tasks, t: &BigRational) -> BigRational {
    tasks
        .types()
        .iter()
        .map(|ty| {
            let a = &ty.success / BigRational::from_integer(3.into());
            let b = (BigRational::one() - &ty.success) * t;
            &ty.share * &a / (&a + b)
        })
        .sum()
}

/// The study: every curve, and the two boundaries bisected on each mix.
#[derive(Debug, Clone)]
pub struct BestOfNStudy {
    /// Mix by mix, t by t.
    pub curves: Vec<Curve>,
    /// Per mix: the bisection of `limit - P(1)` (the limit boundary) and of `P(2) - P(1)`.
    pub brackets: Vec<(Bracket, Bracket)>,
}

impl BestOfNStudy {
    /// Computes every curve exactly and bisects both boundaries.
    ///
    /// # Errors
    ///
    /// As the calculator (never for these sizes).
    pub fn compute() -> Result<BestOfNStudy> {
        let correct = Law::parse("--score-correct", CORRECT_SCORES).expect("a law");
        let ns: Vec<u64> = (1..=MAX_N).collect();
        let mut curves = Vec::new();
        let mut brackets = Vec::new();
        for (mix, (_, text)) in MIXES.iter().enumerate() {
            let tasks = Tasks::parse(text)?;
            for tail in TAILS {
                let t = parse_rational(tail).expect("a constant");
                let r = best_of_n::<BigRational>(&tasks, &correct, &wrong_scores(&t), &ns)?;
                curves.push(Curve {
                    mix,
                    tail,
                    values: r.rows.into_iter().map(|row| row.correct.value).collect(),
                    limit: r.limit.correct.value,
                    best: r.best,
                });
            }
            let limit_side = bisect(
                |t| {
                    let (one, _, lim) = first_two_and_limit(&tasks, t)?;
                    Ok(lim - one)
                },
                BISECTION_STEPS,
            )?;
            let first_side = bisect(
                |t| {
                    let (one, two, _) = first_two_and_limit(&tasks, t)?;
                    Ok(two - one)
                },
                BISECTION_STEPS,
            )?;
            brackets.push((limit_side, first_side));
        }
        Ok(BestOfNStudy { curves, brackets })
    }

    /// The curve of `mix` at `tail`.
    pub fn curve(&self, mix: usize, tail: &str) -> Option<&Curve> {
        self.curves.iter().find(|c| c.mix == mix && c.tail == tail)
    }

    /// The claims, each the sign of an exact rational:
    ///
    /// - the first extra sample: `P(2) - P(1)` has the sign of 1/2 - t (0 at t = 1/2);
    /// - the limit: `limit - P(1)` has the sign of 1/3 - t (0 at t = 1/3);
    /// - rise then fall: for 0 < t < 1/2 the best n lies strictly between 1 and infinity
    ///   (`min(P(best) - P(1), P(best) - limit) > 0`);
    /// - fall from the start: for t > 1/2, `P(n + 1) < P(n)` at every n of 1..64.
    pub fn claim_families(&self) -> Vec<ClaimFamily> {
        let exact = |x: BigRational| Evidence::Exact(shown(&x));
        let source = "this tool (derived in docs/inference.md)";
        let half = BigRational::new(1.into(), 2.into());
        let third = BigRational::new(1.into(), 3.into());
        let mut first = ClaimFamily::new("best-of-n: the second sample", 0.05);
        let mut limit = ClaimFamily::new("best-of-n: many samples against one", 0.05);
        let mut turn = ClaimFamily::new("best-of-n: rise then fall", 0.05);
        let mut fall = ClaimFamily::new("best-of-n: fall from the start", 0.05);
        let sign_direction = |x: &BigRational, boundary: &BigRational| {
            if x < boundary {
                Direction::Greater
            } else if x > boundary {
                Direction::Less
            } else {
                Direction::Within { margin: 0.0 }
            }
        };
        for c in &self.curves {
            let mix = MIXES[c.mix].0;
            let t = parse_rational(c.tail).expect("a constant");
            let words = |boundary: &BigRational, up: &str, down: &str, at: &str| {
                if &t < boundary {
                    up.to_string()
                } else if &t > boundary {
                    down.to_string()
                } else {
                    at.to_string()
                }
            };
            first.push(Claim::new(
                format!(
                    "{mix}, t = {}: {}",
                    c.tail,
                    words(
                        &half,
                        "a second sample helps (t < 1/2)",
                        "a second sample hurts (t > 1/2)",
                        "a second sample changes nothing (t = 1/2)"
                    )
                ),
                source,
                "P(2) - P(1)",
                sign_direction(&t, &half),
                exact(c.at(2) - c.at(1)),
            ));
            limit.push(Claim::new(
                format!(
                    "{mix}, t = {}: {}",
                    c.tail,
                    words(
                        &third,
                        "many samples end better than one (t < 1/3)",
                        "many samples end worse than one (t > 1/3)",
                        "many samples end exactly as one (t = 1/3)"
                    )
                ),
                source,
                "limit as n grows - P(1)",
                sign_direction(&t, &third),
                exact(&c.limit - c.at(1)),
            ));
            if t.is_positive() && t < half {
                let inside = (c.peak() - c.at(1)).min(c.peak() - &c.limit);
                turn.push(Claim::new(
                    format!(
                        "{mix}, t = {}: P rises, then falls (best n = {} of 1..{MAX_N})",
                        c.tail, c.best
                    ),
                    source,
                    "min(P(best n) - P(1), P(best n) - limit)",
                    Direction::Greater,
                    exact(inside),
                ));
            }
            if t > half {
                fall.push(Claim::new(
                    format!(
                        "{mix}, t = {}: every extra sample hurts (n = 1..{MAX_N})",
                        c.tail
                    ),
                    source,
                    "largest P(n + 1) - P(n)",
                    Direction::Less,
                    exact(c.largest_step()),
                ));
            }
        }
        vec![first, limit, turn, fall]
    }

    /// The tables `best_of_n` (one row per mix and t) and `best_of_n_boundaries` (the
    /// bisections).
    pub fn tables(&self) -> Vec<Table> {
        let real = |name: &str| Column::new(name, Kind::Real);
        let mut curves = Table::new(
            "best_of_n",
            "Best-of-n, exact: correct scores uniform on {0, 1, 2}, wrong scores 2 with probability t, else 0",
            vec![
                Column::key("mix", Kind::Text),
                Column::key("t", Kind::Text),
                real("P(1)"),
                real("P(2)"),
                Column::new("best n", Kind::Integer),
                real("P(best n)"),
                real("P(64)"),
                real("limit"),
                real("P(2) - P(1)"),
                real("limit - P(1)"),
            ],
        );
        for c in &self.curves {
            curves.push(vec![
                Cell::text(MIXES[c.mix].0),
                Cell::text(c.tail),
                shown(c.at(1)),
                shown(c.at(2)),
                Cell::int(c.best),
                shown(c.peak()),
                shown(c.at(MAX_N)),
                shown(&c.limit),
                shown(&(c.at(2) - c.at(1))),
                shown(&(&c.limit - c.at(1))),
            ]);
        }
        let mut boundaries = Table::new(
            "best_of_n_boundaries",
            "The two boundaries in t, bisected in exact rationals on the calculator's values",
            vec![
                Column::key("mix", Kind::Text),
                Column::key("sign of", Kind::Text),
                Column::new("derived", Kind::Text),
                Column::new("bisection low", Kind::Text),
                Column::new("bisection high", Kind::Text),
                Column::new("halvings", Kind::Integer),
            ],
        );
        for (mix, (lim, first)) in self.brackets.iter().enumerate() {
            for (what, derived, b) in [("limit - P(1)", "1/3", lim), ("P(2) - P(1)", "1/2", first)]
            {
                boundaries.push(vec![
                    Cell::text(MIXES[mix].0),
                    Cell::text(what),
                    Cell::text(derived),
                    Cell::text(b.low.to_string()),
                    Cell::text(b.high.to_string()),
                    Cell::int(b.steps),
                ]);
            }
        }
        vec![curves, boundaries]
    }

    /// The figure: `P(n)` against n per tail knob, one panel per mix, the best n and the
    /// limit in each series' label, and the best n of every curve with an interior best joined by a dashed line
    /// (the exact lines, one list per panel), `P(1)` as the grey reference.
    pub fn panels(&self) -> (Vec<Panel>, Vec<Vec<ExactLine>>) {
        let mut panels = Vec::new();
        let mut lines = Vec::new();
        for (mix, (name, _)) in MIXES.iter().enumerate() {
            let drawn: Vec<&Curve> = DRAWN_TAILS
                .iter()
                .filter_map(|t| self.curve(mix, t))
                .collect();
            let series: Vec<ErrorSeries> = drawn
                .iter()
                .map(|c| ErrorSeries {
                    label: if c.best == MAX_N {
                        format!(
                            "t = {}: rises on n = 1..{MAX_N}, limit {:.2}",
                            c.tail,
                            rational_to_f64(&c.limit)
                        )
                    } else {
                        format!(
                            "t = {}: best n = {}, limit {:.2}",
                            c.tail,
                            c.best,
                            rational_to_f64(&c.limit)
                        )
                    },
                    points: c
                        .values
                        .iter()
                        .enumerate()
                        .map(|(i, v)| {
                            let y = rational_to_f64(v);
                            ErrorPoint {
                                x: (i + 1) as f64,
                                y,
                                low: y,
                                high: y,
                            }
                        })
                        .collect(),
                })
                .collect();
            lines.push(vec![ExactLine {
                label: "the best n as t varies".to_string(),
                points: drawn
                    .iter()
                    .filter(|c| c.best < MAX_N)
                    .map(|c| (c.best as f64, rational_to_f64(c.peak())))
                    .collect(),
            }]);
            panels.push(Panel {
                axes: Axes {
                    title: format!("best-of-n, {name}"),
                    x_label: "n (samples scored by the verifier; each tick doubles n)".to_string(),
                    y_label: "P_correct".to_string(),
                    // A budget that doubles, on a log axis; a probability, up to 1 (the
                    // legend beside the plot area, since the curves fill every corner).
                    x_range: (0.85, MAX_N as f64 * 1.18),
                    x_scale: Scale::Log2,
                    y_range: (0.0, 1.0),
                },
                series,
                legend: LegendPosition::Right,
                reference: Some(rational_to_f64(self.curves_of(mix)[0].at(1))),
            });
        }
        (panels, lines)
    }

    fn curves_of(&self, mix: usize) -> Vec<&Curve> {
        self.curves.iter().filter(|c| c.mix == mix).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::claims::Verdict;

    /// Every sample's (correct, score) enumerated for n samples, the uniform tie-break
    /// counted exactly: P(the sample taken is correct).
    fn brute_force(r: &BigRational, t: &BigRational, n: u32) -> BigRational {
        let third = BigRational::new(1.into(), 3.into());
        let q = BigRational::one() - r;
        // (correct, score, probability) of one sample.
        let mut outcomes = Vec::new();
        for s in 0..3 {
            outcomes.push((true, s, r * &third));
        }
        outcomes.push((false, 0, &q * (BigRational::one() - t)));
        outcomes.push((false, 2, &q * t));
        let k = outcomes.len();
        let mut total = BigRational::zero();
        for index in 0..k.pow(n) {
            let mut rest = index;
            let mut p = BigRational::one();
            let mut picks = Vec::new();
            for _ in 0..n {
                let o = &outcomes[rest % k];
                rest /= k;
                p *= &o.2;
                picks.push((o.0, o.1));
            }
            let top = picks.iter().map(|x| x.1).max().unwrap();
            let tied: Vec<bool> = picks.iter().filter(|x| x.1 == top).map(|x| x.0).collect();
            let correct = tied.iter().filter(|&&c| c).count();
            total += p * BigRational::new(correct.into(), tied.len().into());
        }
        total
    }

    #[test]
    fn the_boundary_cells_equal_a_brute_force_in_rationals() {
        let correct = Law::parse("--score-correct", CORRECT_SCORES).unwrap();
        let r = BigRational::new(3.into(), 10.into());
        let tasks = Tasks::parse("3/10").unwrap();
        for tail in ["1/3", "1/2", "2/5"] {
            let t = parse_rational(tail).unwrap();
            let rows = best_of_n::<BigRational>(&tasks, &correct, &wrong_scores(&t), &[1, 2, 3, 4])
                .unwrap()
                .rows;
            for (i, row) in rows.iter().enumerate() {
                assert_eq!(
                    row.correct.value,
                    brute_force(&r, &t, i as u32 + 1),
                    "t = {tail}"
                );
            }
        }
        // At t = 1/2 the second sample changes nothing; at t = 1/3 the limit is P(1).
        let half = parse_rational("1/2").unwrap();
        assert_eq!(brute_force(&r, &half, 2), brute_force(&r, &half, 1));
        assert_eq!(limit(&tasks, &parse_rational("1/3").unwrap()), r);
    }

    #[test]
    fn the_closed_forms_equal_the_calculator() {
        for (_, text) in MIXES {
            let tasks = Tasks::parse(text).unwrap();
            for tail in TAILS {
                let t = parse_rational(tail).unwrap();
                let (one, two, lim) = first_two_and_limit(&tasks, &t).unwrap();
                assert_eq!(
                    two - &one,
                    first_difference(&tasks, &t),
                    "{text} t = {tail}"
                );
                assert_eq!(lim, limit(&tasks, &t), "{text} t = {tail}");
            }
        }
    }

    #[test]
    fn the_claims_are_decided_as_derived_and_the_bisections_bracket_the_boundaries() {
        let study = BestOfNStudy::compute().unwrap();
        let families = study.claim_families();
        let counts: Vec<usize> = families.iter().map(|f| f.claims.len()).collect();
        // 11 t x 2 mixes; 6 t in (0, 1/2); 3 t above 1/2.
        assert_eq!(counts, vec![22, 22, 12, 6]);
        for family in &families {
            for d in family.decide() {
                assert_eq!(
                    d.verdict,
                    Verdict::Holds,
                    "{}: {}",
                    family.name,
                    d.claim.statement
                );
            }
        }
        let third = parse_rational("1/3").unwrap();
        for (lim, first) in &study.brackets {
            assert!(lim.low < third && third < lim.high, "{lim:?}");
            assert_eq!(
                &lim.high - &lim.low,
                BigRational::new(1.into(), (1u64 << BISECTION_STEPS).into())
            );
            // The midpoint of the first halving is the boundary itself.
            assert_eq!(
                (first.low.clone(), first.steps),
                (parse_rational("1/2").unwrap(), 1)
            );
        }
        // t = 0: the verifier separates perfectly at the top, P rises to 1 over the list.
        let clean = study.curve(0, "0").unwrap();
        assert_eq!(
            (clean.best, clean.limit.clone()),
            (MAX_N, BigRational::one())
        );
    }
}
