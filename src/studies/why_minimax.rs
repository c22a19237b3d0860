//! **Why minimax works**: where deeper search stops being pathological, computed
//! exactly on path-sum trees ([`crate::analytic::pathsum`]) with three ingredients the
//! pathological models lack, each a claims family decided by [`crate::report::claims`].
//!
//! 1. **Local similarity** (Nau, Luštrek, Parker, Bratko & Gams, *When is it better not to
//!    look ahead?*, AIJ 174, 2010, Section 4: pathology "more likely when ... the local
//!    similarity was low"; Luštrek, Gams & Bratko, IJCAI 2005 and AIJ 170, 2006: trees whose
//!    values are built top-down are not pathological). A complete b-ary tree of height h
//!    whose leaf values are path sums plus an independent leaf term: the step law has
//!    variance r (`{-1: r/2, 0: 1 - r, 1: r/2}`) and the leaf term is the centred binomial
//!    `Bin(2m, 1/2) - m` of variance `m/2 = h (1 - r)`, so every leaf value has variance h
//!    and r = Var(path sum) / Var(leaf value) is the *similarity knob*: r = 0 is the
//!    multi-valued P-game (independent leaves with `4h + 1` values, no similarity), r = 1 the
//!    pure path-sum tree (siblings' leaves differ by one step). The front is evaluated as its
//!    true value plus independent noise `Bin(2n, 1/2) - n` (variance `sigma^2 = n/2`, a
//!    discrete stand-in for Gaussian noise that keeps every probability rational). Our
//!    knob is not Nau et al.'s: their synthetic models set similarity by how a node's value
//!    is built from its parent's, which we could not retrieve in full; the variance ratio is
//!    the nearest quantity our model defines, and we say so wherever it is printed.
//! 2. **Early terminal nodes** (Pearl 1983; Nau 1983: enough forced wins end pathology).
//!    Two-valued P-games (step law 0, leaf term `+1` with probability p near `w_b`, outcome the
//!    sign, artificial evaluator with error 0.1), where every node strictly between the root
//!    and the leaves is terminal with probability T and evaluated exactly when reached.
//! 3. **Granularity** (Nau et al. 2010, Section 4: pathology more likely when the
//!    granularity is low): the same trees at sigma^2 = 2 with the front's evaluations in G
//!    equal bins over [-2h, 2h] (`--levels`).
//! 4. **Minimax bias** (Sadikov, Bratko & Kononenko, TCS 349, 2005: the backed-up evaluation
//!    drifts from the true value while decisions improve, since siblings share the drift).
//!    The mean bias (backed-up root evaluation minus true root value) at d = 1 and d = h - 1.
//!
//! **Gain** of a setting: `D(h-1,h) - D(1,h)`, positive where the deepest heuristic search
//! decides better than the shallowest (depth h reaches the leaves and is always right). Every
//! number is the engine's `f64` value with its rigorous rounding bound, so each claim is
//! decided by the sign of an enclosure (exact evidence, no multiple-testing correction).

use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::analytic::pathsum::{
    DepthRow, Evaluator, Law, Levels, Outcome, PathSumColumn, PathSumGame, pathsum_column,
};
use crate::error::Result;
use crate::numeric::number::parse_rational;
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence};
use crate::report::figure::{Axes, ErrorPoint, ErrorSeries, LegendPosition, Panel, Scale};
use crate::report::{Cell, Column, Kind, Report, Table};

/// `(b, h)` of the similarity grid.
pub const SIMILARITY_TREES: [(u32, u32); 2] = [(2, 8), (3, 6)];
/// The similarity knob r = Var(path sum) / Var(leaf value).
pub const RATIOS: [&str; 5] = ["0", "1/4", "1/2", "3/4", "1"];
/// The noise's n: `Bin(2n, 1/2) - n`, variance `sigma^2 = n / 2`.
pub const NOISES: [u32; 3] = [1, 4, 16];
/// `(b, h, p)` of the terminal grid (p: the leaf's win probability, `w_b` to two decimals).
pub const TERMINAL_TREES: [(u32, u32, &str); 3] = [(2, 10, "0.38"), (3, 7, "0.32"), (4, 6, "0.28")];
/// The terminal densities T.
pub const TERMINALS: [&str; 5] = ["0", "1/20", "1/10", "1/5", "3/10"];
/// The granularity grid's G: the front's evaluations in G equal bins over [-2h, 2h].
pub const GRANULARITIES: [u32; 3] = [4, 8, 16];
/// The granularity grid's noise n (sigma^2 = 2).
pub const GRANULARITY_NOISE: u32 = 4;
/// The artificial evaluator's error rate in the terminal grid.
pub const TERMINAL_ERROR: &str = "0.1";

/// `Bin(2n, 1/2) - n` (the point 0 when n = 0): the law `binomial:2n` of `--leaf` and
/// `--noise`.
///
/// # Examples
///
/// ```
/// use pathology::studies::why_minimax::centred_binomial;
/// let law = centred_binomial(2);
/// assert_eq!(law.text(), "binomial:4");
/// let atoms: Vec<String> = law.atoms().iter().map(|(v, p)| format!("{v}:{p}")).collect();
/// assert_eq!(atoms.join(","), "-2:1/16,-1:1/4,0:3/8,1:1/4,2:1/16");
/// assert_eq!(law.variance(), num_rational::BigRational::from_integer(1.into()));
/// ```
pub fn centred_binomial(n: u32) -> Law {
    if n == 0 {
        return Law::point(0.into());
    }
    Law::parse("--noise", &format!("binomial:{}", 2 * n)).expect("a law")
}

/// The step law of variance r: `{-1: r/2, 0: 1 - r, 1: r/2}`.
fn step_law(r: &BigRational) -> Law {
    let half = r / BigRational::from_integer(2.into());
    let mut items = Vec::new();
    for (v, p) in [(-1, half.clone()), (0, BigRational::one() - r), (1, half)] {
        if !p.is_zero() {
            items.push(format!("{v}:{p}"));
        }
    }
    Law::parse("--step", &items.join(",")).expect("a law")
}

/// One setting's game and every depth's numbers.
#[derive(Debug, Clone)]
pub struct Setting {
    /// The game.
    pub game: PathSumGame,
    /// The similarity knob r (similarity grid) or the terminal density T (terminal grid).
    pub knob: &'static str,
    /// The noise's n (similarity grid; 0 in the terminal grid).
    pub noise: u32,
    /// D, loss and bias at every depth.
    pub column: PathSumColumn<f64>,
}

impl Setting {
    fn row(&self, d: u32) -> &DepthRow<f64> {
        &self.column.rows[d as usize - 1]
    }

    fn deepest(&self) -> &DepthRow<f64> {
        self.row(self.game.height - 1)
    }

    /// `D(h-1,h) - D(1,h)` and its bound.
    pub fn gain(&self) -> (f64, f64) {
        let (a, b) = (self.deepest(), self.row(1));
        (
            a.decision - b.decision,
            a.bounds[0] + b.bounds[0] + f64::EPSILON * 2.0,
        )
    }
}

/// The study: the similarity grid and the terminal grid.
#[derive(Debug, Clone)]
pub struct WhyMinimax {
    /// (b, h) x r x sigma.
    pub similarity: Vec<Setting>,
    /// (b, h) x r x G at sigma^2 = 2 (`levels` set).
    pub granularity: Vec<Setting>,
    /// (b, h, p) x T.
    pub terminals: Vec<Setting>,
}

/// The similarity grid's game at `(b, h)`, knob r and noise n.
///
/// # Examples
///
/// ```
/// use pathology::studies::why_minimax::similarity_game;
/// let game = similarity_game(2, 8, "1/4", 4).unwrap();
/// // Var(leaf) = h (1 - r) = 6 = m / 2: m = 12, so 25 atoms.
/// assert_eq!(game.leaf.atoms().len(), 25);
/// assert_eq!(game.step.text(), "-1:1/8,0:3/4,1:1/8");
/// ```
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] when r is not in [0, 1] or `2 h (1 - r)` is not whole.
pub fn similarity_game(b: u32, h: u32, r: &str, n: u32) -> Result<PathSumGame> {
    let r = parse_rational(r).map_err(|e| crate::Error::invalid("r", "a rational", e))?;
    let m = BigRational::from_integer((2 * h).into()) * (BigRational::one() - &r);
    if r < BigRational::zero() || r > BigRational::one() || !m.is_integer() {
        return Err(crate::Error::invalid(
            "r",
            "in [0, 1] with 2 h (1 - r) whole",
            r,
        ));
    }
    let m: u32 = m.to_integer().try_into().expect("at most 2h");
    Ok(PathSumGame {
        branching: b,
        height: h,
        step: step_law(&r),
        leaf: centred_binomial(m),
        terminal: BigRational::zero(),
        outcome: Outcome::Value,
        evaluator: Evaluator::Additive {
            noise: centred_binomial(n),
        },
        levels: None,
    })
}

/// The terminal grid's game at `(b, h, p)` and density T.
///
/// # Errors
///
/// As [`parse_rational`] on the constants.
pub fn terminal_game(b: u32, h: u32, p: &str, t: &str) -> Result<PathSumGame> {
    let p = parse_rational(p).map_err(|e| crate::Error::invalid("p", "a rational", e))?;
    let q = BigRational::one() - &p;
    Ok(PathSumGame {
        branching: b,
        height: h,
        step: Law::point(0.into()),
        leaf: Law::parse("--leaf", &format!("1:{p},-1:{q}"))?,
        terminal: parse_rational(t).map_err(|e| crate::Error::invalid("T", "a rational", e))?,
        outcome: Outcome::Sign,
        evaluator: Evaluator::Artificial {
            error: parse_rational(TERMINAL_ERROR).expect("a constant"),
        },
        levels: None,
    })
}

fn all_depths(game: &PathSumGame) -> Vec<u32> {
    (1..=game.height).collect()
}

impl WhyMinimax {
    /// Computes both grids (about 0.3 s in `f64`).
    ///
    /// # Errors
    ///
    /// As [`pathsum_column`].
    pub fn compute() -> Result<WhyMinimax> {
        let mut similarity = Vec::new();
        for (b, h) in SIMILARITY_TREES {
            for n in NOISES {
                for r in RATIOS {
                    let game = similarity_game(b, h, r, n)?;
                    let column = pathsum_column::<f64>(&game, &all_depths(&game))?;
                    similarity.push(Setting {
                        game,
                        knob: r,
                        noise: n,
                        column,
                    });
                }
            }
        }
        let mut granularity = Vec::new();
        for (b, h) in SIMILARITY_TREES {
            for g in GRANULARITIES {
                for r in RATIOS {
                    let mut game = similarity_game(b, h, r, GRANULARITY_NOISE)?;
                    let span = BigRational::from_integer((2 * h).into());
                    game.levels = Some(Levels {
                        count: g,
                        low: -span.clone(),
                        high: span,
                    });
                    let column = pathsum_column::<f64>(&game, &all_depths(&game))?;
                    granularity.push(Setting {
                        game,
                        knob: r,
                        noise: GRANULARITY_NOISE,
                        column,
                    });
                }
            }
        }
        let mut terminals = Vec::new();
        for (b, h, p) in TERMINAL_TREES {
            for t in TERMINALS {
                let game = terminal_game(b, h, p, t)?;
                let column = pathsum_column::<f64>(&game, &all_depths(&game))?;
                terminals.push(Setting {
                    game,
                    knob: t,
                    noise: 0,
                    column,
                });
            }
        }
        Ok(WhyMinimax {
            similarity,
            granularity,
            terminals,
        })
    }

    /// The similarity setting at `(b, r, n)`.
    pub fn similar(&self, b: u32, r: &str, n: u32) -> Option<&Setting> {
        self.similarity
            .iter()
            .find(|s| s.game.branching == b && s.knob == r && s.noise == n)
    }

    /// The granularity setting at `(b, r, G)`.
    pub fn granular(&self, b: u32, r: &str, g: u32) -> Option<&Setting> {
        self.granularity.iter().find(|s| {
            s.game.branching == b
                && s.knob == r
                && s.game.levels.as_ref().map(|l| l.count) == Some(g)
        })
    }

    /// The terminal setting at `(b, T)`.
    pub fn terminal(&self, b: u32, t: &str) -> Option<&Setting> {
        self.terminals
            .iter()
            .find(|s| s.game.branching == b && s.knob == t)
    }

    /// The claims, each the sign of an exact effect (an `f64` enclosure):
    ///
    /// - Local similarity (Nau et al. 2010, Sec. 4), per (b, sigma): `gain(r = 1) - gain(r =
    ///   0) > 0`.
    /// - Path-sum trees are not pathological (Luštrek, Gams & Bratko 2006), per (b, sigma):
    ///   `gain(r = 1) > 0`.
    /// - Enough distinct values remove pathology without similarity (Luštrek, Bratko & Gams
    ///   2012), per (b, sigma) at r = 0 (4h + 1 leaf values): `gain(r = 0) > 0`.
    /// - More early terminal nodes, larger gain (Pearl 1983; Nau 1983), per b:
    ///   `gain(T = 3/10) - gain(T = 0) > 0`; enough of them end pathology: `gain(T = 3/10) > 0`.
    /// - The deeper evaluation stays biased while decisions improve (Sadikov, Bratko &
    ///   Kononenko 2005: evaluation accuracy and decision accuracy differ), per (b, sigma) at
    ///   r = 1 where the gain is positive: `|mean bias(h-1)| > 0`. (Whether the bias grows
    ///   with depth is printed, not claimed: the table `similarity` has it at d = 1 and h - 1.)
    pub fn claim_families(&self) -> Vec<ClaimFamily> {
        let bounded = |(value, bound): (f64, f64)| Evidence::Exact(Cell::Bounded { value, bound });
        let mut similarity = ClaimFamily::new("local similarity: larger gain", 0.05);
        let mut pathsum = ClaimFamily::new("path-sum trees: no pathology", 0.05);
        let mut values = ClaimFamily::new("independent many-valued leaves: no pathology", 0.05);
        let mut more = ClaimFamily::new("more terminal nodes: larger gain", 0.05);
        let mut enough = ClaimFamily::new("enough terminal nodes: no pathology", 0.05);
        let mut bias = ClaimFamily::new("deeper search: evaluation stays biased", 0.05);
        let mut coarse = ClaimFamily::new("low granularity: smaller gain", 0.05);
        let (low, high) = (RATIOS[0], RATIOS[RATIOS.len() - 1]);
        for (b, h) in SIMILARITY_TREES {
            for n in NOISES {
                let (Some(independent), Some(similar)) =
                    (self.similar(b, low, n), self.similar(b, high, n))
                else {
                    continue;
                };
                let setting = format!("b = {b}, h = {h}, sigma^2 = {}", sigma2(n));
                let (gi, bi) = independent.gain();
                let (gs, bs) = similar.gain();
                similarity.push(Claim::new(
                    setting.clone(),
                    "Nau et al. 2010, Sec. 4",
                    "gain(r = 1) - gain(r = 0), gain = D(h-1,h) - D(1,h)",
                    Direction::Greater,
                    bounded((gs - gi, bs + bi)),
                ));
                pathsum.push(Claim::new(
                    setting.clone(),
                    "Luštrek, Gams & Bratko 2006",
                    "D(h-1,h) - D(1,h) at r = 1",
                    Direction::Greater,
                    bounded((gs, bs)),
                ));
                values.push(Claim::new(
                    format!("{setting}, {} leaf values", 4 * h + 1),
                    "Luštrek, Bratko & Gams 2012",
                    "D(h-1,h) - D(1,h) at r = 0",
                    Direction::Greater,
                    bounded((gi, bi)),
                ));
                let deepest = similar.deepest();
                if let (Some(mean), true) = (deepest.bias_mean, gs > bs) {
                    bias.push(Claim::new(
                        setting,
                        "Sadikov, Bratko & Kononenko 2005",
                        "abs(mean bias(h-1)) at r = 1 (where D(h-1,h) > D(1,h))",
                        Direction::Greater,
                        bounded((mean.abs(), deepest.bounds[3])),
                    ));
                }
            }
        }
        for (b, h) in SIMILARITY_TREES {
            for r in RATIOS {
                let (Some(fine), Some(binned)) = (
                    self.similar(b, r, GRANULARITY_NOISE),
                    self.granular(b, r, GRANULARITIES[0]),
                ) else {
                    continue;
                };
                let (gf, bf) = fine.gain();
                let (gc, bc) = binned.gain();
                coarse.push(Claim::new(
                    format!(
                        "b = {b}, h = {h}, r = {r}, sigma^2 = {}",
                        sigma2(GRANULARITY_NOISE)
                    ),
                    "Nau et al. 2010, Sec. 4",
                    format!("gain(unbinned) - gain(G = {})", GRANULARITIES[0]),
                    Direction::Greater,
                    bounded((gf - gc, bf + bc)),
                ));
            }
        }
        let (none, most) = (TERMINALS[0], TERMINALS[TERMINALS.len() - 1]);
        for (b, h, p) in TERMINAL_TREES {
            let (Some(zero), Some(dense)) = (self.terminal(b, none), self.terminal(b, most)) else {
                continue;
            };
            let setting = format!("b = {b}, h = {h}, p = {p}, e = {TERMINAL_ERROR}");
            let (g0, b0) = zero.gain();
            let (gt, bt) = dense.gain();
            more.push(Claim::new(
                setting.clone(),
                "Pearl 1983; Nau 1983",
                format!("gain(T = {most}) - gain(T = 0)"),
                Direction::Greater,
                bounded((gt - g0, bt + b0)),
            ));
            enough.push(Claim::new(
                setting,
                "Pearl 1983; Nau 1983",
                format!("D(h-1,h) - D(1,h) at T = {most}"),
                Direction::Greater,
                bounded((gt, bt)),
            ));
        }
        vec![similarity, pathsum, values, coarse, more, enough, bias]
    }

    /// The report: tables `similarity`, `terminals`, `depths` (every depth of the r = 0, 1/2
    /// and 1 settings at b = 2, sigma^2 = 2), `claims` and `claims_summary`.
    pub fn report(&self) -> Report {
        let families = self.claim_families();
        let real = |name: &str| Column::new(name, Kind::Real);
        let bounded = |row: &DepthRow<f64>, k: usize| {
            let value = match k {
                0 => row.decision,
                2 => row.loss,
                _ => row.bias_mean.unwrap_or(f64::NAN),
            };
            Cell::Bounded {
                value,
                bound: row.bounds[k],
            }
        };
        let mut similarity = Table::new(
            "similarity",
            "Path-sum trees: D, loss and mean bias at d = 1 and h - 1 by similarity r and noise sigma^2",
            vec![
                Column::key("b", Kind::Integer),
                Column::key("h", Kind::Integer),
                Column::key("r", Kind::Text),
                Column::key("sigma^2", Kind::Text),
                real("D(1,h)"),
                real("D(h-1,h)"),
                real("gain"),
                real("loss(1)"),
                real("loss(h-1)"),
                real("bias(1)"),
                real("bias(h-1)"),
            ],
        );
        for s in &self.similarity {
            let (gain, bound) = s.gain();
            similarity.push(vec![
                Cell::int(s.game.branching),
                Cell::int(s.game.height),
                Cell::text(s.knob),
                Cell::text(sigma2(s.noise)),
                bounded(s.row(1), 0),
                bounded(s.deepest(), 0),
                Cell::Bounded { value: gain, bound },
                bounded(s.row(1), 2),
                bounded(s.deepest(), 2),
                bounded(s.row(1), 3),
                bounded(s.deepest(), 3),
            ]);
        }
        let mut granularity = Table::new(
            "granularity",
            "Path-sum trees at sigma^2 = 2 with the front's evaluations in G equal bins over [-2h, 2h]: D at d = 1 and h - 1",
            vec![
                Column::key("b", Kind::Integer),
                Column::key("h", Kind::Integer),
                Column::key("r", Kind::Text),
                Column::key("G", Kind::Integer),
                real("D(1,h)"),
                real("D(h-1,h)"),
                real("gain"),
            ],
        );
        for s in &self.granularity {
            let (gain, bound) = s.gain();
            granularity.push(vec![
                Cell::int(s.game.branching),
                Cell::int(s.game.height),
                Cell::text(s.knob),
                Cell::int(s.game.levels.as_ref().map_or(0, |l| l.count)),
                bounded(s.row(1), 0),
                bounded(s.deepest(), 0),
                Cell::Bounded { value: gain, bound },
            ]);
        }
        let mut terminals = Table::new(
            "terminals",
            "Two-valued P-games with early terminal nodes: D at d = 1 and h - 1 by terminal density T",
            vec![
                Column::key("b", Kind::Integer),
                Column::key("h", Kind::Integer),
                Column::key("p", Kind::Text),
                Column::key("T", Kind::Text),
                real("D(1,h)"),
                real("D(h-1,h)"),
                real("gain"),
            ],
        );
        for s in &self.terminals {
            let (gain, bound) = s.gain();
            let p = TERMINAL_TREES
                .iter()
                .find(|(b, _, _)| *b == s.game.branching)
                .map_or("", |t| t.2);
            terminals.push(vec![
                Cell::int(s.game.branching),
                Cell::int(s.game.height),
                Cell::text(p),
                Cell::text(s.knob),
                bounded(s.row(1), 0),
                bounded(s.deepest(), 0),
                Cell::Bounded { value: gain, bound },
            ]);
        }
        let mut depths = Table::new(
            "depths",
            "Every depth at b = 2, h = 8, sigma^2 = 2: D, expected loss and the minimax bias (mean and quantiles)",
            vec![
                Column::key("r", Kind::Text),
                Column::key("d", Kind::Integer),
                real("D(d,h)"),
                real("loss"),
                real("bias mean"),
                Column::new("bias 5%", Kind::Text),
                Column::new("bias 50%", Kind::Text),
                Column::new("bias 95%", Kind::Text),
            ],
        );
        for r in ["0", "1/2", "1"] {
            let Some(s) = self.similar(2, r, 4) else {
                continue;
            };
            for row in &s.column.rows {
                let q = row.bias_quantiles.clone();
                let quantile =
                    |k: usize| Cell::text(q.as_ref().map_or(String::new(), |q| q[k].to_string()));
                depths.push(vec![
                    Cell::text(r),
                    Cell::int(row.depth),
                    bounded(row, 0),
                    bounded(row, 2),
                    bounded(row, 3),
                    quantile(0),
                    quantile(1),
                    quantile(2),
                ]);
            }
        }
        let bound = self
            .similarity
            .iter()
            .chain(&self.granularity)
            .chain(&self.terminals)
            .flat_map(|s| s.column.rows.iter().map(|r| r.bounds[0]))
            .fold(0.0, f64::max);
        Report::new(
            "reproduce",
            "Why minimax works: local similarity, early terminal nodes and minimax bias on path-sum trees (exact)",
        )
        .mode("f64")
        .with_table(similarity)
        .with_table(granularity)
        .with_table(terminals)
        .with_table(depths)
        .with_table(crate::report::claims::claims_table(&families))
        .with_table(crate::report::claims::summary_table(&families))
        .note(format!(
            "exact values of the models in f64, each D within {bound:.1e} (every cell's own bound in the CSV); gain = D(h-1,h) - D(1,h), below 0: pathological"
        ))
        .note(
            "similarity grid: steps {-1: r/2, 0: 1-r, 1: r/2}, leaf term Bin(2m,1/2) - m with m = 2h(1-r) (every leaf value has variance h), noise Bin(2n,1/2) - n (sigma^2 = n/2) added to the true value; r = 0 is the multi-valued P-game, r = 1 the pure path-sum tree; r is our similarity knob, not Nau et al.'s definition",
        )
        .note(format!(
            "terminal grid: step 0, leaf +1 with probability p (w_b to two decimals) else -1, sign outcomes, artificial evaluator e = {TERMINAL_ERROR}; every node strictly between root and leaves terminal with probability T and evaluated exactly"
        ))
    }

    /// Figures: the gain against r per sigma (one panel per b), the gain against T (one
    /// panel), and D, the expected loss and the mean bias against d at b = 2, sigma^2 = 2.
    pub fn panels(&self) -> Vec<(String, Vec<Panel>)> {
        let exact = |x: f64, y: f64| ErrorPoint {
            x,
            y,
            low: y,
            high: y,
        };
        let ratio = |r: &str| {
            crate::numeric::number::rational_to_f64(&parse_rational(r).expect("a constant"))
        };
        let range = |ys: &mut dyn Iterator<Item = f64>, room: f64| {
            let (lo, hi) = ys.fold((0.0f64, 0.0f64), |(lo, hi), y| (lo.min(y), hi.max(y)));
            let span = (hi - lo).max(0.01);
            (lo - room * span, hi + 0.05 * span)
        };
        let mut similarity = Vec::new();
        for (b, h) in SIMILARITY_TREES {
            let series: Vec<ErrorSeries> = NOISES
                .iter()
                .map(|&n| ErrorSeries {
                    label: format!("sigma^2 = {}", sigma2(n)),
                    points: RATIOS
                        .iter()
                        .filter_map(|&r| self.similar(b, r, n))
                        .map(|s| exact(ratio(s.knob), s.gain().0))
                        .collect(),
                })
                .collect();
            let y_range = range(&mut self.similarity.iter().map(|s| s.gain().0), 0.35);
            similarity.push(Panel {
                axes: Axes {
                    title: format!("path-sum trees b = {b}, h = {h}"),
                    x_label: "r = Var(path sum) / Var(leaf value) (similarity)".to_string(),
                    y_label: "D(h-1,h) - D(1,h); below 0: pathological".to_string(),
                    x_range: (-0.05, 1.05),
                    x_scale: Scale::Linear,
                    y_range,
                },
                series,
                legend: if similarity.is_empty() {
                    LegendPosition::LowerRight
                } else {
                    LegendPosition::Hidden
                },
                reference: Some(0.0),
            });
        }
        let mut granularity = Vec::new();
        for (b, h) in SIMILARITY_TREES {
            let mut series: Vec<ErrorSeries> = GRANULARITIES
                .iter()
                .map(|&g| ErrorSeries {
                    label: format!("G = {g}"),
                    points: RATIOS
                        .iter()
                        .filter_map(|&r| self.granular(b, r, g))
                        .map(|s| exact(ratio(s.knob), s.gain().0))
                        .collect(),
                })
                .collect();
            series.push(ErrorSeries {
                label: "unbinned".to_string(),
                points: RATIOS
                    .iter()
                    .filter_map(|&r| self.similar(b, r, GRANULARITY_NOISE))
                    .map(|s| exact(ratio(s.knob), s.gain().0))
                    .collect(),
            });
            let y_range = range(
                &mut series
                    .iter()
                    .flat_map(|s| s.points.iter().map(|p| p.y))
                    .collect::<Vec<_>>()
                    .into_iter(),
                0.45,
            );
            granularity.push(Panel {
                axes: Axes {
                    title: format!(
                        "b = {b}, h = {h}, sigma^2 = 2, G bins over [-{0}, {0}]",
                        2 * h
                    ),
                    x_label: "r = Var(path sum) / Var(leaf value) (similarity)".to_string(),
                    y_label: "D(h-1,h) - D(1,h); below 0: pathological".to_string(),
                    x_range: (-0.05, 1.05),
                    x_scale: Scale::Linear,
                    y_range,
                },
                series,
                legend: if granularity.is_empty() {
                    LegendPosition::LowerRight
                } else {
                    LegendPosition::Hidden
                },
                reference: Some(0.0),
            });
        }
        let terminal_series: Vec<ErrorSeries> = TERMINAL_TREES
            .iter()
            .map(|&(b, h, p)| ErrorSeries {
                label: format!("b = {b}, h = {h}, p = {p}"),
                points: TERMINALS
                    .iter()
                    .filter_map(|&t| self.terminal(b, t))
                    .map(|s| exact(ratio(s.knob), s.gain().0))
                    .collect(),
            })
            .collect();
        let terminals = vec![Panel {
            axes: Axes {
                title: format!("two-valued P-games, artificial e = {TERMINAL_ERROR}"),
                x_label: "T (probability that a node is terminal)".to_string(),
                y_label: "D(h-1,h) - D(1,h); below 0: pathological".to_string(),
                x_range: (-0.01, 0.31),
                x_scale: Scale::Linear,
                y_range: range(&mut self.terminals.iter().map(|s| s.gain().0), 0.05),
            },
            series: terminal_series,
            legend: LegendPosition::LowerRight,
            reference: Some(0.0),
        }];
        let picked: Vec<&Setting> = ["0", "1/2", "1"]
            .iter()
            .filter_map(|r| self.similar(2, r, 4))
            .collect();
        let by_depth = |f: &dyn Fn(&DepthRow<f64>) -> f64| -> Vec<ErrorSeries> {
            picked
                .iter()
                .map(|s| ErrorSeries {
                    label: format!("r = {}", s.knob),
                    points: s
                        .column
                        .rows
                        .iter()
                        .filter(|row| row.depth < s.game.height)
                        .map(|row| exact(f64::from(row.depth), f(row)))
                        .collect(),
                })
                .collect()
        };
        let decision = by_depth(&|row| row.decision);
        let loss = by_depth(&|row| row.loss);
        let bias = by_depth(&|row| row.bias_mean.unwrap_or(0.0));
        let ys = |series: &[ErrorSeries]| -> Vec<f64> {
            series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.y))
                .collect()
        };
        let span = |v: Vec<f64>, include_zero: bool| {
            let (mut lo, mut hi) = v
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &y| {
                    (l.min(y), h.max(y))
                });
            if include_zero {
                lo = lo.min(0.0);
                hi = hi.max(0.0);
            }
            let pad = 0.1 * (hi - lo).max(0.01);
            (lo - 3.0 * pad, hi + pad)
        };
        let h = f64::from(SIMILARITY_TREES[0].1);
        let depths = vec![
            Panel {
                axes: Axes {
                    title: "b = 2, h = 8, sigma^2 = 2: decisions".to_string(),
                    x_label: "search depth d".to_string(),
                    y_label: "D(d,h)".to_string(),
                    x_range: (0.5, h - 0.5),
                    x_scale: Scale::Linear,
                    y_range: span(ys(&decision), false),
                },
                series: decision,
                legend: LegendPosition::LowerRight,
                reference: None,
            },
            Panel {
                axes: Axes {
                    title: "b = 2, h = 8, sigma^2 = 2: expected loss".to_string(),
                    x_label: "search depth d".to_string(),
                    y_label: "E|v(root) - v(chosen child)|".to_string(),
                    x_range: (0.5, h - 0.5),
                    x_scale: Scale::Linear,
                    y_range: (0.0, 1.1 * ys(&loss).into_iter().fold(0.01, f64::max)),
                },
                series: loss,
                legend: LegendPosition::Hidden,
                reference: None,
            },
            Panel {
                axes: Axes {
                    title: "b = 2, h = 8, sigma^2 = 2: minimax bias".to_string(),
                    x_label: "search depth d".to_string(),
                    y_label: "mean (backed-up root evaluation - true value)".to_string(),
                    x_range: (0.5, h - 0.5),
                    x_scale: Scale::Linear,
                    y_range: span(ys(&bias), true),
                },
                series: bias,
                legend: LegendPosition::Hidden,
                reference: Some(0.0),
            },
        ];
        vec![
            ("why_similarity".to_string(), similarity),
            ("why_granularity".to_string(), granularity),
            ("why_terminals".to_string(), terminals),
            ("why_depths".to_string(), depths),
        ]
    }
}

/// `n / 2` as text.
fn sigma2(n: u32) -> String {
    if n.is_multiple_of(2) {
        (n / 2).to_string()
    } else {
        format!("{n}/2")
    }
}

/// The grid as text for the printed summary: `P` pathological, `+` deeper search better.
pub fn grid_text(study: &WhyMinimax) -> String {
    let mark = |s: &Setting| {
        let (gain, bound) = s.gain();
        if gain.abs() <= bound {
            '?'
        } else if gain < 0.0 {
            'P'
        } else {
            '+'
        }
    };
    let mut out = format!(
        "why minimax works (P: D(h-1,h) < D(1,h); +: deeper is better); r = {}; T = {}\n",
        RATIOS.join(","),
        TERMINALS.join(",")
    );
    for (b, h) in SIMILARITY_TREES {
        for n in NOISES {
            let marks: String = RATIOS
                .iter()
                .filter_map(|r| study.similar(b, r, n))
                .map(mark)
                .collect();
            out.push_str(&format!(
                "  path-sum b={b} h={h} sigma^2={:<4} {marks}\n",
                sigma2(n)
            ));
        }
    }
    for (b, h) in SIMILARITY_TREES {
        for g in GRANULARITIES {
            let marks: String = RATIOS
                .iter()
                .filter_map(|r| study.granular(b, r, g))
                .map(mark)
                .collect();
            out.push_str(&format!("  granularity b={b} h={h} G={g:<10} {marks}\n"));
        }
    }
    for (b, h, p) in TERMINAL_TREES {
        let marks: String = TERMINALS
            .iter()
            .filter_map(|t| study.terminal(b, t))
            .map(mark)
            .collect();
        out.push_str(&format!("  terminals b={b} h={h} p={p:<11} {marks}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::claims::Verdict;

    #[test]
    fn the_grids_are_the_engines_values_and_the_knob_keeps_the_leaf_variance() {
        let study = WhyMinimax::compute().unwrap();
        assert_eq!(study.similarity.len(), 2 * 3 * 5);
        assert_eq!(study.terminals.len(), 3 * 5);
        for s in &study.similarity {
            // Var(path sum) + Var(leaf term) = h for every r.
            let h = BigRational::from_integer(s.game.height.into());
            let total = s.game.step.variance() * &h + s.game.leaf.variance();
            assert_eq!(total, h, "{}", s.knob);
            // Depth h reaches the leaves: always right.
            assert!((s.column.rows.last().unwrap().decision - 1.0).abs() < 1e-9);
        }
        // r = 0 is the multi-valued P-game of `decision --game p --leaves` with the same
        // noise: the same D(1,h) as the engine of analytic::distributions would give is
        // checked by tests/pathsum.rs; here, its gain is a fall (pathology) at every sigma.
        for (b, _) in SIMILARITY_TREES {
            for n in NOISES {
                let s = study.similar(b, "0", n).unwrap();
                let (gain, bound) = s.gain();
                assert!(gain < -bound, "b = {b}, n = {n}: {gain}");
            }
        }
        // The report's tables have one row per setting; the claims one per setting of each
        // family (6 + 6 + 6 + 10 + 3 + 3, and 4 settings of r = 1 with a positive gain).
        let report = study.report();
        assert_eq!(report.table("similarity").unwrap().rows.len(), 30);
        assert_eq!(report.table("terminals").unwrap().rows.len(), 15);
        assert_eq!(report.table("depths").unwrap().rows.len(), 3 * 8);
        assert_eq!(report.table("granularity").unwrap().rows.len(), 30);
        assert_eq!(report.table("claims").unwrap().rows.len(), 38);
        assert_eq!(grid_text(&study).lines().count(), 1 + 6 + 6 + 3);
        assert_eq!(study.panels().len(), 4);
    }

    /// The boundaries the claims table prints: with enough terminal nodes (T = 3/10) the
    /// pathological two-valued P-games are not pathological at any b; similarity raises the
    /// gain at every sigma; and the independent many-valued leaves of this grid stay
    /// pathological (their noise is as wide as the values' spread).
    #[test]
    fn terminals_and_similarity_end_pathology_here() {
        let study = WhyMinimax::compute().unwrap();
        let families = study.claim_families();
        let verdicts = |name: &str| -> Vec<Verdict> {
            families
                .iter()
                .find(|f| f.name == name)
                .unwrap()
                .decide()
                .iter()
                .map(|d| d.verdict)
                .collect()
        };
        assert!(
            verdicts("local similarity: larger gain")
                .iter()
                .all(|v| *v == Verdict::Holds)
        );
        assert!(
            verdicts("more terminal nodes: larger gain")
                .iter()
                .all(|v| *v == Verdict::Holds)
        );
        assert!(
            verdicts("enough terminal nodes: no pathology")
                .iter()
                .all(|v| *v == Verdict::Holds)
        );
        assert!(
            verdicts("independent many-valued leaves: no pathology")
                .iter()
                .all(|v| *v == Verdict::Fails)
        );
        for (b, _, _) in TERMINAL_TREES {
            assert!(study.terminal(b, "0").unwrap().gain().0 < -0.2);
        }
    }

    /// docs/why_minimax.md quotes the claims table's rows, and the numbers its bullets state
    /// are the study's: the r = 1 falls at sigma^2 = 1/2, the gain's peak at r = 3/4, where
    /// the terminal density's gain crosses zero, and the bias smaller at h - 1 than at 1.
    #[test]
    fn the_docs_quote_the_claims_table() {
        let study = WhyMinimax::compute().unwrap();
        let rows = crate::report::claims::markdown_rows(&study.claim_families());
        let docs = include_str!("../../docs/why_minimax.md");
        for row in &rows {
            println!("{row}");
        }
        for row in &rows {
            assert!(
                docs.contains(row.as_str()),
                "docs/why_minimax.md lacks: {row}"
            );
        }
        let falls: Vec<String> = SIMILARITY_TREES
            .iter()
            .map(|&(b, _)| format!("{:.4}", -study.similar(b, "1", 1).unwrap().gain().0))
            .collect();
        assert_eq!(falls, ["0.0035", "0.0020"]);
        for (b, _) in SIMILARITY_TREES {
            for n in NOISES {
                let gains: Vec<f64> = RATIOS
                    .iter()
                    .map(|r| study.similar(b, r, n).unwrap().gain().0)
                    .collect();
                let peak = gains.iter().cloned().fold(f64::MIN, f64::max);
                assert_eq!(gains[3], peak, "b = {b}, n = {n}: {gains:?}");
            }
        }
        for (b, crossing) in [
            (2, ["1/10", "1/5"]),
            (3, ["1/5", "3/10"]),
            (4, ["1/5", "3/10"]),
        ] {
            assert!(study.terminal(b, crossing[0]).unwrap().gain().0 < 0.0);
            assert!(study.terminal(b, crossing[1]).unwrap().gain().0 > 0.0);
        }
        for s in study
            .granularity
            .iter()
            .filter(|s| s.game.levels.as_ref().unwrap().count == 8)
        {
            assert!(s.gain().0 < -s.gain().1, "G = 8 pathological: {}", s.knob);
        }
        let at_eight: Vec<String> = SIMILARITY_TREES
            .iter()
            .map(|&(b, _)| format!("{:.4}", study.granular(b, "1", 8).unwrap().gain().0))
            .collect();
        assert_eq!(at_eight, ["-0.0176", "-0.0092"]);
        for s in study
            .granularity
            .iter()
            .filter(|s| s.game.levels.as_ref().unwrap().count == 4)
        {
            assert_eq!(
                s.gain().0 > 0.0,
                s.knob == "3/4" || s.knob == "1",
                "{}",
                s.knob
            );
        }
        for s in &study.similarity {
            let (first, deepest) = (s.row(1).bias_mean.unwrap(), s.deepest().bias_mean.unwrap());
            assert!(deepest.abs() < first.abs(), "{}", s.knob);
        }
    }
}
