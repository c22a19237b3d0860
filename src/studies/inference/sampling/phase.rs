//! The voting phase diagram: for a mix of an easy type (R_easy > 1/2) and a hard one
//! (R_hard < 1/2) with one wrong answer, does the accuracy of majority voting rise, fall, or
//! turn as the number of votes k grows? Each cell is decided twice, exactly: on the odd
//! k = 1..=[`super::VOTE_MAX_K`] from the engine's rationals ([`range_class`]), and on every
//! odd k by the closed form of the increments ([`tail_class`], module docs of
//! [`super`]).

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::{MAX_SCAN, VOTE_MAX_K, constant, power};
use crate::analytic::inference::{Tasks, vote};
use crate::error::Result;
use crate::report::figure::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel, Scale};
use crate::report::{Cell, Column, Kind, Table};

/// The easy type's per-sample success R_easy (x axis).
pub const EASY: [&str; 9] = [
    "0.55", "0.6", "0.65", "0.7", "0.75", "0.8", "0.85", "0.9", "0.95",
];
/// The hard type's R_hard (y axis).
pub const HARD: [&str; 9] = [
    "0.05", "0.1", "0.15", "0.2", "0.25", "0.3", "0.35", "0.4", "0.45",
];
/// The easy type's share W_easy (one panel each).
pub const SHARES: [&str; 3] = ["1/4", "1/2", "3/4"];

/// How the accuracy moves with k (odd k; a zero increment counts for neither direction).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// It never falls and rises somewhere: more votes help.
    Help,
    /// It never rises and falls somewhere: more votes hurt.
    Hurt,
    /// It rises, then falls: a best k in between.
    Turn,
    /// It falls, then rises: a worst k in between.
    Dip,
    /// Every increment is 0.
    Flat,
    /// Any other pattern (none occurs: the closed form allows at most one sign change).
    Other,
}

impl Class {
    /// Every class, in the figure's order.
    pub const ALL: [Class; 6] = [
        Class::Help,
        Class::Hurt,
        Class::Turn,
        Class::Dip,
        Class::Flat,
        Class::Other,
    ];

    /// The class in words.
    pub fn word(self) -> &'static str {
        match self {
            Class::Help => "more votes help",
            Class::Hurt => "more votes hurt",
            Class::Turn => "rise then fall",
            Class::Dip => "fall then rise",
            Class::Flat => "flat",
            Class::Other => "other",
        }
    }

    /// Its mark in the text grid.
    pub fn mark(self) -> char {
        match self {
            Class::Help => '+',
            Class::Hurt => '-',
            Class::Turn => '^',
            Class::Dip => 'v',
            Class::Flat => '=',
            Class::Other => '?',
        }
    }
}

/// The class of a curve from its successive values (odd k = 1, 3, ...), with the index of
/// its first largest value.
///
/// # Examples
///
/// ```
/// use pathology::studies::inference::sampling::phase::{Class, range_class};
/// use num_rational::BigRational;
/// let v = |xs: &[i64]| xs.iter().map(|&x| BigRational::from_integer(x.into())).collect::<Vec<_>>();
/// assert_eq!(range_class(&v(&[1, 3, 3, 2])), (Class::Turn, 1));
/// assert_eq!(range_class(&v(&[3, 1, 2])), (Class::Dip, 0));
/// assert_eq!(range_class(&v(&[2, 2])), (Class::Flat, 0));
/// ```
pub fn range_class(values: &[BigRational]) -> (Class, usize) {
    let signs: Vec<bool> = values
        .windows(2)
        .filter(|w| w[1] != w[0])
        .map(|w| w[1] > w[0])
        .collect();
    let changes = signs.windows(2).filter(|w| w[0] != w[1]).count();
    let class = match (signs.first(), changes) {
        (None, _) => Class::Flat,
        (Some(true), 0) => Class::Help,
        (Some(false), 0) => Class::Hurt,
        (Some(true), 1) => Class::Turn,
        (Some(false), 1) => Class::Dip,
        _ => Class::Other,
    };
    let mut best = 0;
    for (i, v) in values.iter().enumerate() {
        if *v > values[best] {
            best = i;
        }
    }
    (class, best)
}

/// `P(2m+3) - P(2m+1)` of majority voting with one wrong answer on a mix of types `(R, W)`:
/// `sum_j W_j C(2m+1, m) (R_j (1 - R_j))^(m+1) (2 R_j - 1)`.
///
/// # Examples
///
/// ```
/// use pathology::studies::inference::sampling::phase::odd_increment;
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// // P(3) - P(1) = p q (2p - 1) at p = 0.6: 0.24 x 0.2.
/// assert_eq!(odd_increment(&[(q("0.6"), q("1"))], 0), q("0.048"));
/// ```
pub fn odd_increment(types: &[(BigRational, BigRational)], m: u64) -> BigRational {
    let one = BigRational::one();
    let two = BigRational::from_integer(2.into());
    let c = BigRational::from_integer(binomial(2 * m + 1, m));
    types
        .iter()
        .map(|(p, w)| w * &c * power(&(p * (&one - p)), m + 1) * (&two * p - &one))
        .sum()
}

/// `C(n, k)`.
fn binomial(n: u64, k: u64) -> BigInt {
    let mut c = BigInt::one();
    for i in 0..k {
        c = c * BigInt::from(n - i) / BigInt::from(i + 1);
    }
    c
}

/// The class of the voting curve over every odd k, by the closed form (module docs of
/// [`super`]), with the odd k where the increments change sign (Turn: the best k; Dip: the
/// worst). `Other` when the argument does not apply (several types whose `R (1 - R)` values
/// interleave).
///
/// # Examples
///
/// ```
/// use pathology::studies::inference::sampling::phase::{Class, tail_class};
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let mix = [(q("0.7"), q("0.6")), (q("0.4"), q("0.4"))];
/// assert_eq!(tail_class(&mix), (Class::Turn, Some(17)));
/// ```
pub fn tail_class(types: &[(BigRational, BigRational)]) -> (Class, Option<u64>) {
    let one = BigRational::one();
    let two = BigRational::from_integer(2.into());
    // (coefficient W (2R - 1), x = R (1 - R)) of the types that move.
    let terms: Vec<(BigRational, BigRational)> = types
        .iter()
        .map(|(p, w)| (w * (&two * p - &one), p * (&one - p)))
        .filter(|(a, x)| !a.is_zero() && x.is_positive())
        .collect();
    let xs = |positive: bool| -> Vec<&BigRational> {
        terms
            .iter()
            .filter(|(a, _)| a.is_positive() == positive)
            .map(|(_, x)| x)
            .collect()
    };
    let (gaining, losing) = (xs(true), xs(false));
    if gaining.is_empty() {
        return (
            if losing.is_empty() {
                Class::Flat
            } else {
                Class::Hurt
            },
            None,
        );
    }
    if losing.is_empty() {
        return (Class::Help, None);
    }
    let sign = |m: u64| -> BigRational {
        terms
            .iter()
            .map(|(a, x)| a * power(x, m + 1))
            .sum::<BigRational>()
    };
    let (g_min, g_max) = (gaining.iter().min().unwrap(), gaining.iter().max().unwrap());
    let (l_min, l_max) = (losing.iter().min().unwrap(), losing.iter().max().unwrap());
    let first = sign(0);
    let scan = |stop: &dyn Fn(&BigRational) -> bool| {
        (0..MAX_SCAN).find(|&m| stop(&sign(m))).map(|m| 2 * m + 1)
    };
    if g_max < l_min {
        // Ends negative, at most one change from + to -.
        if first.is_positive() {
            (Class::Turn, scan(&|s| !s.is_positive()))
        } else {
            (Class::Hurt, None)
        }
    } else if g_min > l_max {
        // Ends positive, at most one change from - to +.
        if first.is_negative() {
            (Class::Dip, scan(&|s| !s.is_negative()))
        } else {
            (Class::Help, None)
        }
    } else if g_min == g_max && g_max == l_min && l_min == l_max {
        // One common x: every increment has the sign of the first.
        let class = if first.is_positive() {
            Class::Help
        } else if first.is_negative() {
            Class::Hurt
        } else {
            Class::Flat
        };
        (class, None)
    } else {
        (Class::Other, None)
    }
}

/// One cell of the diagram.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseCell {
    /// W_easy.
    pub share: &'static str,
    /// R_easy.
    pub easy: &'static str,
    /// R_hard.
    pub hard: &'static str,
    /// The accuracy at odd k = 1, 3, ..., [`VOTE_MAX_K`].
    pub values: Vec<BigRational>,
    /// The class on that range and the first best odd k.
    pub range: (Class, u64),
    /// The class over every odd k and where the increments change sign.
    pub tail: (Class, Option<u64>),
    /// The limit as k grows: W_easy.
    pub limit: BigRational,
}

impl PhaseCell {
    /// The mix `(R, W)` of the cell.
    pub fn types(&self) -> [(BigRational, BigRational); 2] {
        let w = constant(self.share);
        [
            (constant(self.easy), w.clone()),
            (constant(self.hard), BigRational::one() - w),
        ]
    }
}

/// The phase diagram over [`SHARES`] x [`EASY`] x [`HARD`].
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseDiagram {
    /// The cells, share by share, R_easy by R_easy, R_hard by R_hard.
    pub cells: Vec<PhaseCell>,
}

/// The odd k of the range.
pub fn odd_ks() -> Vec<u64> {
    (1..=VOTE_MAX_K).step_by(2).collect()
}

impl PhaseDiagram {
    /// Computes every cell: each R's curve once from the engine, mixed per cell (exact).
    ///
    /// # Errors
    ///
    /// As [`vote`] (never, for these constants).
    pub fn compute() -> Result<PhaseDiagram> {
        let ks = odd_ks();
        let one_wrong = [BigRational::one()];
        let mut curves: BTreeMap<&str, Vec<BigRational>> = BTreeMap::new();
        for r in EASY.iter().chain(&HARD) {
            let rows = vote::<BigRational>(&Tasks::parse(r)?, &one_wrong, &ks)?.rows;
            curves.insert(r, rows.into_iter().map(|row| row.correct.value).collect());
        }
        let mut cells = Vec::new();
        for share in SHARES {
            let w = constant(share);
            let rest = BigRational::one() - &w;
            for easy in EASY {
                for hard in HARD {
                    let values: Vec<BigRational> = curves[easy]
                        .iter()
                        .zip(&curves[hard])
                        .map(|(e, h)| &w * e + &rest * h)
                        .collect();
                    let (class, best) = range_class(&values);
                    let mut cell = PhaseCell {
                        share,
                        easy,
                        hard,
                        values,
                        range: (class, ks[best]),
                        tail: (Class::Other, None),
                        limit: w.clone(),
                    };
                    cell.tail = tail_class(&cell.types());
                    cells.push(cell);
                }
            }
        }
        Ok(PhaseDiagram { cells })
    }

    /// The table `phase`.
    pub fn table(&self) -> Table {
        let real = |name: &str| Column::new(name, Kind::Real);
        let mut table = Table::new(
            "phase",
            &format!(
                "Majority voting on a mix of an easy and a hard type (one wrong answer): the class of the accuracy over odd k = 1..{VOTE_MAX_K} (engine's exact values) and over every odd k (closed form), with the limit W_easy"
            ),
            vec![
                Column::key("W_easy", Kind::Text),
                Column::key("R_easy", Kind::Text),
                Column::key("R_hard", Kind::Text),
                real("P(1)"),
                real(&format!("P({VOTE_MAX_K})")),
                real("limit"),
                Column::new("class_range", Kind::Text)
                    .labelled(&format!("on odd k <= {VOTE_MAX_K}")),
                Column::new("best_k_range", Kind::Integer)
                    .labelled(&format!("best odd k <= {VOTE_MAX_K}")),
                Column::new("class_every_k", Kind::Text).labelled("on every odd k"),
                Column::new("turn_k", Kind::Text).labelled("k where it turns"),
            ],
        );
        for c in &self.cells {
            table.push(vec![
                Cell::text(c.share),
                Cell::text(c.easy),
                Cell::text(c.hard),
                Cell::Exact(c.values[0].clone()),
                Cell::Exact(c.values[c.values.len() - 1].clone()),
                Cell::Exact(c.limit.clone()),
                Cell::text(c.range.0.word()),
                Cell::int(c.range.1),
                Cell::text(c.tail.0.word()),
                Cell::text(c.tail.1.map_or(String::new(), |k| k.to_string())),
            ]);
        }
        table
    }

    /// The note under the report: how the classes are decided.
    pub fn note(&self) -> String {
        let beyond = self.cells.iter().filter(|c| c.range.0 != c.tail.0).count();
        format!(
            "phase diagram: R_easy in {}..{}, R_hard in {}..{} (steps of 0.05), W_easy in {}; each class decided exactly from the increments between successive odd k (a zero increment counts for neither direction); the class on every odd k follows from the closed form, whose increments change sign at most once; {beyond} of {} cells change class only beyond k = {VOTE_MAX_K}",
            EASY[0],
            EASY[EASY.len() - 1],
            HARD[0],
            HARD[HARD.len() - 1],
            SHARES.join(", "),
            self.cells.len()
        )
    }

    /// The cell at `(share, easy, hard)`.
    pub fn cell(&self, share: &str, easy: &str, hard: &str) -> Option<&PhaseCell> {
        self.cells
            .iter()
            .find(|c| c.share == share && c.easy == easy && c.hard == hard)
    }

    /// One panel per share: x = R_easy, y = R_hard, one series per class (over every odd k; a
    /// class no cell has is an empty series, so each class keeps its look).
    pub fn panels(&self) -> Vec<Panel> {
        let f = |s: &str| crate::numeric::number::rational_to_f64(&constant(s));
        SHARES
            .iter()
            .enumerate()
            .map(|(i, share)| Panel {
                axes: Axes {
                    title: format!("W_easy = {share}"),
                    x_label: "R_easy (per-vote success, easy queries)".to_string(),
                    y_label: "R_hard (per-vote success, hard queries)".to_string(),
                    x_range: (0.5, 1.0),
                    x_scale: Scale::Linear,
                    y_range: (0.0, 0.5),
                },
                series: Class::ALL
                    .iter()
                    .filter(|&&class| class != Class::Other)
                    .map(|&class| ErrorSeries {
                        label: class.word().to_string(),
                        points: self
                            .cells
                            .iter()
                            .filter(|c| c.share == *share && c.tail.0 == class)
                            .map(|c| {
                                let y = f(c.hard);
                                ErrorPoint {
                                    x: f(c.easy),
                                    y,
                                    low: y,
                                    high: y,
                                }
                            })
                            .collect(),
                    })
                    .collect(),
                legend: if i == 0 {
                    LegendPosition::LowerRight
                } else {
                    LegendPosition::Hidden
                },
                reference: None,
            })
            .collect()
    }

    /// The diagram as text: one grid per share, R_hard down (largest first), R_easy across;
    /// the mark of the class on the range, then the class on every odd k where it differs.
    pub fn grid_text(&self) -> String {
        let mut out = format!(
            "voting phase diagram on odd k = 1..{VOTE_MAX_K} ({}; in brackets: the class on every odd k where it differs)\n",
            [
                Class::Help,
                Class::Hurt,
                Class::Turn,
                Class::Dip,
                Class::Flat
            ]
            .iter()
            .map(|c| format!("{} {}", c.mark(), c.word()))
            .collect::<Vec<_>>()
            .join(", ")
        );
        for share in SHARES {
            out.push_str(&format!(
                "  W_easy = {share}; R_easy = {} across\n",
                EASY.join(" ")
            ));
            for hard in HARD.iter().rev() {
                let marks: Vec<String> = EASY
                    .iter()
                    .filter_map(|easy| self.cell(share, easy, hard))
                    .map(|c| {
                        if c.range.0 == c.tail.0 {
                            format!(" {}  ", c.range.0.mark())
                        } else {
                            format!(" {}[{}]", c.range.0.mark(), c.tail.0.mark())
                        }
                    })
                    .collect();
                out.push_str(&format!("  R_hard = {hard:<4} {}\n", marks.join(" ")));
            }
        }
        out
    }
}
