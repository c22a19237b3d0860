//! Exact D(d,h) of **path-sum trees** (`pathology decision --game sum`), with the
//! unconditional probability of an optimal move, the expected loss and the minimax bias.
//!
//! **Model.** A complete b-ary tree of height h with the tool's conventions (heights counted
//! from the leaves, odd heights Max, the front of a depth-d search at height h - d). Every
//! edge carries an independent increment drawn from a finite *step law*; a node's position
//! value s(n) is the sum of the increments from the root (s(root) = 0). A leaf's true value
//! is s(leaf) + Y with Y from the *leaf law*; interior true values are minimax values. Each
//! node strictly between the root and the leaves (the root's children included) is,
//! independently with probability T (`--terminal`), *terminal*: it has no children and its
//! true value is s(n) + Y as a leaf's, and a search evaluates it exactly.
//!
//! - Step law the point 0: the multi-valued P-game of `--game p --leaves` (tested equal, in
//!   rationals, to [`crate::analytic::distributions`]).
//! - Leaf law the point 0: the pure path-sum tree, the strongest local similarity (siblings
//!   differ by one increment). The variance ratio Var(step) h / (Var(step) h + Var(Y)) is the
//!   similarity knob between the two.
//! - `--outcome sign`: a leaf is a win for Max (value 1) when s + Y > 0, a loss (0)
//!   otherwise; with steps {+1: q, -1: 1 - q} and Y = 0 this is Nau's N-game (tested equal to
//!   [`crate::analytic::families`] with the artificial evaluator).
//!
//! Related models: Luštrek, Gams & Bratko (IJCAI 2005; AIJ 170, 2006) build real values
//! top-down (a node's value is its parent's plus a random change) and add Gaussian
//! evaluation noise; here the change is on the edges and the true values are minimax values
//! of the leaves' path sums (their leaves' values are our position values), and noise laws
//! are discrete (exact). Nau, Luštrek, Parker, Bratko & Gams (AIJ 174, 2010) vary local
//! similarity, granularity and branching; here similarity is the step/leaf variance ratio.
//! Early terminal nodes are Nau's and Pearl's forced wins. Sadikov, Bratko & Kononenko (TCS
//! 349, 2005) measure the minimax bias: the drift of the backed-up root evaluation from the
//! true root value, reported here as its mean and quantiles.
//!
//! **Evaluations** ([`Evaluator`]) at the front, on the node's true value: `perfect`,
//! `additive` (true value plus independent discrete noise, exact), `position` (the position
//! value s(n) itself) and, with sign outcomes, `artificial` (the win/loss value flipped with
//! probability e). Terminal nodes and leaves are evaluated exactly (D(h,h) = 1).
//!
//! **Printed for each d**: D(d,h) = P(depth-d minimax, ties uniform, moves to a child whose
//! true value is the root's | the root has a child of another value); the unconditional
//! probability of an optimal move; the expected loss E[|v(root) - v(chosen)|]; the mean and
//! the 5/50/95% quantiles of the minimax bias (backed-up root evaluation minus true root
//! value; not printed for sign outcomes with the position evaluator, whose scales differ).
//!
//! **Method** (the `engine` module). All values are put on one integer grid (the lcm of the
//! laws' denominators, divided by the gcd of the resulting integers). A subtree's pair
//! (T, E) = (true value, backed-up evaluation) relative to its root's position value has a
//! law that does not depend on that position value when both coordinates shift with it
//! (value outcomes); with sign outcomes the true value is absolute and the engine carries
//! one law per reachable position value. A child's pair in its parent's frame is the step
//! convolution of its own; a Max node's law is the law of the componentwise maximum of b
//! iid pairs (a Min node's, the minimum), computed by categories as a polynomial with
//! nonnegative terms; terminal nodes are a mixture with weight T. The root decision sums,
//! over a child's (t, e), `b f(t,e) sum_k C(b-1,k) A^k B^(b-1-k) / (k+1)` with A = P(T <= t,
//! E = e) and B = P(T <= t, E < e). Checked against brute force over all trees in rationals.
//!
//! **Cost.** Per depth d, one 2-D law per level above the front, of size (value grid width)
//! x (evaluation grid width), each costing about b^2 operations per cell: with a value grid
//! of width W at the top, O(h^2 W^2 b^2) over all depths (O(h W b) for the shared levels
//! below the fronts); sign outcomes multiply by the number of reachable position values
//! (O(h x step support)). Exact mode multiplies each operation by the cost of integers whose
//! size grows like b^h times the laws' denominator bits.
//!
//! **Modes.** Exact rationals (scaled integers over one denominator per level, reduced once
//! at the end) or `f64`, where every entry carries a relative rounding error tracked per
//! level (all maps are sums and products of nonnegative numbers), so each printed value has
//! a rigorous bound against the model at the `f64` parameters (assuming no underflow to
//! subnormal numbers).

mod affine;
mod continuous;
mod cost;
mod engine;
pub mod report;

use continuous::continuous;
pub use continuous::value_span;
use cost::check_cost;
pub use cost::estimate_cost;

use std::collections::BTreeSet;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::error::{Error, Result};
use crate::numeric::number::{Probability, Scaled, parse_rational};
use engine::{Grid, Relative, binomials, max_law, max_law_roundings, min_law, mix, root_sums};

/// The largest branching factor.
pub const MAX_BRANCHING: u32 = 60;
/// The largest height.
pub const MAX_HEIGHT: u32 = 64;
/// The largest `--levels`.
pub const MAX_LEVELS: u32 = 1 << 20;

/// `value` or `sign`.
fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Value => "value",
        Outcome::Sign => "sign",
    }
}

/// The largest number of atoms of a law.
pub const MAX_ATOMS: usize = 4096;
/// The largest width of the integer value grid a law may span (in grid steps).
pub const MAX_GRID_SPAN: i64 = 1 << 20;

/// A finite law: distinct rational values with positive probabilities summing to 1.
#[derive(Debug, Clone, PartialEq)]
pub struct Law {
    atoms: Vec<(BigRational, BigRational)>,
    /// `gaussian:S` or `uniform:A` for a stated discretization of a continuous law (its
    /// text; the atoms are the discretization).
    spec: Option<String>,
}

/// Atoms per side of a discretized continuous law (`gaussian:S`: steps of S/4 out to 4 S;
/// `uniform:A`: steps of A/8 out to A).
pub const CONTINUOUS_SIDE: i64 = 16;

impl Law {
    /// The point mass at `value`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::pathsum::Law;
    /// assert_eq!(Law::point(0.into()).atoms().len(), 1);
    /// ```
    pub fn point(value: BigInt) -> Law {
        Law {
            atoms: vec![(BigRational::from_integer(value), BigRational::one())],
            spec: None,
        }
    }

    /// Parses `v1:p1,v2:p2,...` (rationals or decimals; a lone `v` is the point mass at v)
    /// for the option `name`, or a continuous law as its stated discretization:
    ///
    /// - `gaussian:S`: N(0, S^2) on the 33 points k S / 4, |k| <= 16; each point has the
    ///   normal mass of its cell of width S / 4 (the two end points the tails beyond), rounded
    ///   to a multiple of 2^-40, the centre taking the remainder so the law sums to 1 exactly;
    /// - `normal:MU,S`: N(MU, S^2), the lattice of `gaussian:S` shifted by MU;
    /// - `uniform:A`: U(-A, A) on the 17 points k A / 8, |k| <= 8, with the mass of each cell:
    ///   1/16, and 1/32 at the ends.
    /// - `binomial:N`: the centred binomial Bin(N, 1/2) - N/2, N in 1..=1024: the N + 1
    ///   values k - N/2 (k = 0..N) with probabilities C(N, k) / 2^N, exact; variance N/4.
    ///
    /// The discretization is the law computed with (exactly, in `--exact`). Its variance
    /// ([`Law::variance`]) is about S^2 + S^2/192 for the Gaussian (Sheppard's cell term, less
    /// the tails beyond 4 S folded into the end points).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::pathsum::Law;
    /// let law = Law::parse("--step", "1:1/2,-1:0.5").unwrap();
    /// assert_eq!(law.atoms().len(), 2);
    /// assert!(Law::parse("--step", "1:1/2,-1:1/4").unwrap_err().to_string().contains("summing to exactly 1"));
    /// let normal = Law::parse("--noise", "gaussian:2").unwrap();
    /// assert_eq!((normal.atoms().len(), normal.text().as_str()), (33, "gaussian:2"));
    /// let v: f64 = num_traits::ToPrimitive::to_f64(&normal.variance()).unwrap();
    /// assert!((v - 4.0 * (1.0 + 1.0 / 192.0)).abs() < 1e-3, "{v}");
    /// let flat = Law::parse("--step", "uniform:1").unwrap();
    /// assert_eq!(flat.atoms().len(), 17);
    /// assert!(Law::parse("--noise", "gaussian:0").unwrap_err().to_string().contains("S > 0"));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `name` for malformed items, repeated values,
    /// negative probabilities, probabilities not summing to 1 or more than [`MAX_ATOMS`]
    /// atoms.
    pub fn parse(name: &str, text: &str) -> Result<Law> {
        let allowed = "items value:probability (like 1:0.4,-1:0.6), or one value";
        let number = |t: &str, item: &str| {
            parse_rational(t.trim())
                .map_err(|e| Error::invalid(name, &format!("{allowed}; {e}"), item.trim()))
        };
        let lower = text.trim().to_ascii_lowercase();
        if lower.starts_with("binomial:") {
            return continuous::binomial(name, text.trim());
        }
        if lower.starts_with("normal:") {
            return continuous::normal(name, text.trim());
        }
        if lower.starts_with("gaussian:") || lower.starts_with("uniform:") {
            return continuous(name, text.trim(), lower.starts_with("uniform:"));
        }
        let items: Vec<&str> = text.split(',').collect();
        if items.len() == 1 && !text.contains(':') {
            let v = number(text, text)?;
            return Ok(Law {
                atoms: vec![(v, BigRational::one())],
                spec: None,
            });
        }
        if items.len() > MAX_ATOMS {
            return Err(Error::invalid(
                name,
                &format!("at most {MAX_ATOMS} atoms"),
                items.len(),
            ));
        }
        let mut atoms: Vec<(BigRational, BigRational)> = Vec::new();
        for item in items {
            let (v, p) = item
                .split_once(':')
                .ok_or_else(|| Error::invalid(name, allowed, item.trim()))?;
            let (v, p) = (number(v, item)?, number(p, item)?);
            if p.is_negative() {
                return Err(Error::invalid(name, "probabilities in [0, 1]", item.trim()));
            }
            if atoms.iter().any(|(w, _)| *w == v) {
                return Err(Error::invalid(name, "distinct values", item.trim()));
            }
            atoms.push((v, p));
        }
        let sum: BigRational = atoms.iter().map(|(_, p)| p.clone()).sum();
        if !sum.is_one() {
            return Err(Error::invalid(
                name,
                "probabilities summing to exactly 1",
                format!("a sum of {sum}"),
            ));
        }
        atoms.retain(|(_, p)| !p.is_zero());
        atoms.sort();
        Ok(Law { atoms, spec: None })
    }

    /// The atoms `(value, probability)`, values increasing, probabilities positive.
    pub fn atoms(&self) -> &[(BigRational, BigRational)] {
        &self.atoms
    }

    /// `v1:p1,v2:p2,...` as [`Law::parse`] reads it (`gaussian:S` or `uniform:A` for a
    /// discretized continuous law).
    pub fn text(&self) -> String {
        if let Some(spec) = &self.spec {
            return spec.clone();
        }
        self.atoms
            .iter()
            .map(|(v, p)| format!("{v}:{p}"))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The variance.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::pathsum::Law;
    /// let one = num_rational::BigRational::from_integer(1.into());
    /// assert_eq!(Law::parse("--step", "1:1/2,-1:1/2").unwrap().variance(), one);
    /// ```
    pub fn variance(&self) -> BigRational {
        let mean: BigRational = self.atoms.iter().map(|(v, p)| v * p).sum();
        self.atoms
            .iter()
            .map(|(v, p)| (v - &mean) * (v - &mean) * p)
            .sum()
    }
}

/// What a leaf's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Outcome {
    /// The real value s + Y.
    Value,
    /// A win for Max (1) when s + Y > 0, a loss (0) otherwise.
    Sign,
}

/// The static evaluator at the search front.
#[derive(Debug, Clone, PartialEq)]
pub enum Evaluator {
    /// The true value.
    Perfect,
    /// The true value plus independent discrete noise.
    Additive {
        /// The noise law.
        noise: Law,
    },
    /// The node's position value s(n) (no noise).
    Position,
    /// Sign outcomes: the win/loss value, flipped with probability `error`.
    Artificial {
        /// The error rate e, in [0, 1].
        error: BigRational,
    },
}

impl Evaluator {
    /// `perfect`, `additive`, `position` or `artificial`.
    pub fn name(&self) -> &'static str {
        match self {
            Evaluator::Perfect => "perfect",
            Evaluator::Additive { .. } => "additive",
            Evaluator::Position => "position",
            Evaluator::Artificial { .. } => "artificial",
        }
    }
}

/// `--levels G --range LO,HI`: the front's evaluations binned into G equal bins over
/// [LO, HI] (an evaluation beyond it in the end bin; one on an inner edge in the upper bin),
/// each bin read as its centre.
#[derive(Debug, Clone, PartialEq)]
pub struct Levels {
    /// G.
    pub count: u32,
    /// LO.
    pub low: BigRational,
    /// HI.
    pub high: BigRational,
}

/// A path-sum tree with its evaluator: everything [`pathsum_column`] needs.
#[derive(Debug, Clone, PartialEq)]
pub struct PathSumGame {
    /// Branching factor b.
    pub branching: u32,
    /// Height h of the root.
    pub height: u32,
    /// The law of an edge's increment.
    pub step: Law,
    /// The law of a leaf's (and terminal node's) own term Y.
    pub leaf: Law,
    /// The probability T that a node strictly between the root and the leaves is terminal.
    pub terminal: BigRational,
    /// Real values or signs.
    pub outcome: Outcome,
    /// The front's evaluator.
    pub evaluator: Evaluator,
    /// Granularity: the front's heuristic evaluations binned (`None`: not binned).
    pub levels: Option<Levels>,
}

impl PathSumGame {
    /// Checks the parameters.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::pathsum::{Evaluator, Law, Outcome, PathSumGame};
    /// let game = PathSumGame {
    ///     branching: 2, height: 4, step: Law::parse("--step", "1:1/2,-1:1/2").unwrap(),
    ///     leaf: Law::point(0.into()), terminal: num_rational::BigRational::from_integer(1.into()), outcome: Outcome::Value,
    ///     evaluator: Evaluator::Perfect,
    ///     levels: None,
    /// };
    /// assert!(game.validate().unwrap_err().to_string().starts_with("--terminal must be in [0, 1)"));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the option: b outside 2..=60, h outside 1..=64, T
    /// outside [0, 1), an error rate outside [0, 1], `artificial` with value outcomes, the
    /// position evaluator with sign outcomes and terminal nodes (an exact evaluation of a
    /// terminal node and a position value are on different scales), or a grid too wide.
    pub fn validate(&self) -> Result<()> {
        if !(2..=MAX_BRANCHING).contains(&self.branching) {
            return Err(Error::invalid(
                "--branching",
                &format!("in 2..={MAX_BRANCHING}"),
                self.branching,
            ));
        }
        if !(1..=MAX_HEIGHT).contains(&self.height) {
            return Err(Error::invalid(
                "--height",
                &format!("in 1..={MAX_HEIGHT}"),
                self.height,
            ));
        }
        if self.terminal.is_negative() || self.terminal >= BigRational::one() {
            return Err(Error::invalid("--terminal", "in [0, 1)", &self.terminal));
        }
        match (&self.evaluator, self.outcome) {
            (Evaluator::Artificial { .. }, Outcome::Value) => {
                return Err(Error::invalid(
                    "--evaluator artificial",
                    "given only with --outcome sign (it flips a win/loss value)",
                    "--outcome value",
                ));
            }
            (Evaluator::Artificial { error }, _)
                if error.is_negative() || *error > BigRational::one() =>
            {
                return Err(Error::invalid("--e", "in [0, 1]", error));
            }
            (Evaluator::Position, Outcome::Sign) if !self.terminal.is_zero() => {
                return Err(Error::invalid(
                    "--terminal",
                    "0 with --outcome sign and --evaluator position (an exact win/loss and a \
                     position value are on different scales)",
                    &self.terminal,
                ));
            }
            _ => {}
        }
        if let Some(levels) = &self.levels {
            if self.outcome == Outcome::Sign
                || matches!(self.evaluator, Evaluator::Artificial { .. })
            {
                return Err(Error::invalid(
                    "--levels",
                    "given only with --outcome value and a real-valued evaluator (perfect, \
                     additive or position)",
                    format!(
                        "--outcome {}, --evaluator {}",
                        outcome_name(self.outcome),
                        self.evaluator.name()
                    ),
                ));
            }
            if !(1..=MAX_LEVELS).contains(&levels.count) {
                return Err(Error::invalid(
                    "--levels",
                    &format!("in 1..={MAX_LEVELS}"),
                    levels.count,
                ));
            }
            if levels.low >= levels.high {
                return Err(Error::invalid(
                    "--range",
                    "LO,HI with LO < HI",
                    format!("{},{}", levels.low, levels.high),
                ));
            }
        }
        cost::check_magnitude(self).and_then(|()| Grid_::new(self).map(|_| ()))
    }

    fn terminal_allowed_at(&self, height: u32) -> bool {
        height >= 1 && height < self.height && !self.terminal.is_zero()
    }
}

/// The integer grid: every value times `scale` is an integer.
#[derive(Debug, Clone)]
struct Grid_ {
    /// Grid value of one unit: value = grid / scale.
    scale: BigRational,
    steps: Vec<i64>,
    leaves: Vec<i64>,
    noise: Vec<i64>,
    /// The grid value of a win (sign outcomes).
    win: i64,
    /// `--levels`: (LO, half a bin's width, G) in grid units.
    bins: Option<(i64, i64, u32)>,
}

impl Grid_ {
    fn new(game: &PathSumGame) -> Result<Grid_> {
        let mut values: Vec<&BigRational> = Vec::new();
        values.extend(game.step.atoms.iter().map(|a| &a.0));
        values.extend(game.leaf.atoms.iter().map(|a| &a.0));
        let one = BigRational::one();
        if let Evaluator::Additive { noise } = &game.evaluator {
            values.extend(noise.atoms.iter().map(|a| &a.0));
        }
        if game.outcome == Outcome::Sign {
            values.push(&one);
        }
        let half = game.levels.as_ref().map(|l| {
            (&l.high - &l.low) / BigRational::from_integer((2 * u64::from(l.count)).into())
        });
        if let (Some(l), Some(half)) = (&game.levels, &half) {
            values.push(&l.low);
            values.push(half);
        }
        let lcm = values.iter().fold(BigInt::one(), |l, v| l.lcm(v.denom()));
        let ints: Vec<BigInt> = values.iter().map(|v| (*v * &lcm).to_integer()).collect();
        let gcd = ints
            .iter()
            .fold(BigInt::zero(), |g, v| g.gcd(v))
            .max(BigInt::one());
        let scale = BigRational::new(lcm, gcd.clone());
        let to_grid = |law: &Law, name: &str| -> Result<Vec<i64>> {
            law.atoms
                .iter()
                .map(|(v, _)| {
                    (v * &scale)
                        .to_integer()
                        .to_i64()
                        .filter(|x| x.abs() <= MAX_GRID_SPAN)
                        .ok_or_else(|| {
                            Error::invalid(
                                name,
                                &format!(
                                    "values spanning at most {MAX_GRID_SPAN} steps of the grid \
                                     1/{} (the lcm of the laws' denominators over the gcd of \
                                     their values)",
                                    scale
                                ),
                                law.text(),
                            )
                        })
                })
                .collect()
        };
        let steps = to_grid(&game.step, "--step")?;
        let leaves = to_grid(&game.leaf, "--leaf")?;
        let noise = match &game.evaluator {
            Evaluator::Additive { noise } => to_grid(noise, "--noise")?,
            _ => Vec::new(),
        };
        let win = (&one * &scale).to_integer().to_i64().unwrap_or(i64::MAX);
        let bins = match (&game.levels, &half) {
            (Some(l), Some(half)) => {
                let grid = |x: &BigRational| {
                    (x * &scale)
                        .to_integer()
                        .to_i64()
                        .filter(|x| x.abs() <= MAX_GRID_SPAN)
                        .ok_or_else(|| {
                            Error::invalid(
                                "--range",
                                &format!(
                                    "a range and bins on a grid of at most {MAX_GRID_SPAN} steps \
                                     (here the grid is 1/{scale})"
                                ),
                                format!("{},{}", l.low, l.high),
                            )
                        })
                };
                Some((grid(&l.low)?, grid(half)?, l.count))
            }
            _ => None,
        };
        let span = |v: &[i64]| v.iter().max().unwrap_or(&0) - v.iter().min().unwrap_or(&0);
        let total = span(&steps) * i64::from(game.height) + span(&leaves) + span(&noise);
        if total > MAX_GRID_SPAN || (game.outcome == Outcome::Sign && win > MAX_GRID_SPAN) {
            return Err(Error::invalid(
                "--step",
                &format!(
                    "laws whose values span at most {MAX_GRID_SPAN} grid steps over the tree \
                     (here the grid is 1/{scale} and the span {total})"
                ),
                game.step.text(),
            ));
        }
        Ok(Grid_ {
            scale,
            steps,
            leaves,
            noise,
            win,
            bins,
        })
    }
}

/// One depth's numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthRow<P> {
    /// The search depth d.
    pub depth: u32,
    /// D(d,h).
    pub decision: P,
    /// P(optimal move), over all roots.
    pub optimal: P,
    /// E[|v(root) - v(chosen)|].
    pub loss: P,
    /// The mean minimax bias E[backed-up root evaluation - true root value] (`None` for
    /// sign outcomes with the position evaluator).
    pub bias_mean: Option<P>,
    /// The 5%, 50% and 95% quantiles of the bias (smallest value whose CDF reaches the
    /// level; in `f64` a CDF within the bound of a level may put it one atom off).
    pub bias_quantiles: Option<[BigRational; 3]>,
    /// Rounding bounds of decision, optimal, loss and bias mean (0 in exact mode).
    pub bounds: [f64; 4],
}

/// D(d,h) and the rest for the asked depths.
#[derive(Debug, Clone, PartialEq)]
pub struct PathSumColumn<P> {
    /// The height h.
    pub height: u32,
    /// One row per depth.
    pub rows: Vec<DepthRow<P>>,
    /// P(the root has children of different true values).
    pub nontrivial: P,
    /// Its rounding bound.
    pub nontrivial_bound: f64,
}

/// The laws of one level: one grid per reachable position value (one grid in all when the
/// law does not depend on it), their common denominator, their relative rounding error.
#[derive(Debug, Clone)]
struct Level<S> {
    grids: Vec<Grid<S>>,
    /// The position value of each grid (one grid, `[0]`, when the law does not depend on it).
    positions: Vec<i64>,
    den: S,
    rho: Relative,
}

/// The engine's fixed inputs in scaled numbers.
struct Setup<S> {
    b: usize,
    h: u32,
    outcome: Outcome,
    evaluator: Evaluator,
    grid: Grid_,
    step_weights: Vec<S>,
    step_unit: S,
    leaf_weights: Vec<S>,
    leaf_unit: S,
    noise_weights: Vec<S>,
    noise_unit: S,
    /// (1 - T, T) numerators over `terminal_unit`.
    terminal: Option<(S, S, S)>,
    /// (1 - e, e) numerators over `error_unit`.
    error: Option<(S, S, S)>,
    /// Reachable position values at each depth from the root (`[0]` at every depth when
    /// the laws do not depend on it).
    reach: Vec<Vec<i64>>,
    /// Reachable position values at each depth for the levels at and above a binned front
    /// (`--levels`: a binned evaluation depends on the absolute position).
    reach_binned: Vec<Vec<i64>>,
    binom: Vec<Vec<S>>,
}

fn scale_of<P: Probability>(law: &Law) -> (Vec<<P as Probability>::Scaled>, P::Scaled) {
    let ps: Vec<P> = law.atoms.iter().map(|(_, p)| P::from_rational(p)).collect();
    P::common_scale(&ps)
}

fn pair_of<P: Probability>(x: &BigRational) -> (P::Scaled, P::Scaled, P::Scaled) {
    let complement = BigRational::one() - x;
    let (n, unit) = P::common_scale(&[P::from_rational(&complement), P::from_rational(x)]);
    (n[0].clone(), n[1].clone(), unit)
}

impl<S: Scaled> Setup<S> {
    fn t_relative(&self) -> bool {
        self.outcome == Outcome::Value
    }

    /// Whether evaluations shift with the position value at front height `front`.
    fn e_relative(&self, front: u32) -> bool {
        self.outcome == Outcome::Value || (self.evaluator == Evaluator::Position && front > 0)
    }

    /// The grid of `level` at position `s`.
    fn at(level: &Level<S>, s: i64) -> &Grid<S> {
        if level.positions.len() == 1 {
            &level.grids[0]
        } else {
            &level.grids[level.positions.binary_search(&s).unwrap_or(0)]
        }
    }

    /// The leaf law at position `s` (a terminal node's too), with its exact evaluation when
    /// `evaluated`.
    fn leaf_grid(&self, s: i64, evaluated: bool) -> Grid<S> {
        let points: Vec<(i64, i64, S)> = self
            .grid
            .leaves
            .iter()
            .zip(&self.leaf_weights)
            .map(|(&y, w)| {
                let t = match self.outcome {
                    Outcome::Value => y,
                    Outcome::Sign => {
                        if s + y > 0 {
                            self.grid.win
                        } else {
                            0
                        }
                    }
                };
                // Unevaluated (below the front): the gap 0 as a placeholder.
                let _ = evaluated;
                (t, t, w.clone())
            })
            .collect();
        Grid::from_points(&points)
    }

    /// The leaves' level (depth h).
    fn leaf_level(&self, evaluated: bool) -> Level<S> {
        let depth = self.h as usize;
        Level {
            grids: self.reach[depth]
                .iter()
                .map(|&s| self.leaf_grid(s, evaluated))
                .collect(),
            positions: self.reach[depth].clone(),
            den: self.leaf_unit.clone(),
            rho: Relative(0.0),
        }
    }

    /// A child's law in its parent's frame at depth `depth` (the parent's), position `s`:
    /// over `step_unit * child.den`.
    fn child_law(&self, child: &Level<S>, s: i64, e_shift: Option<bool>) -> Grid<S> {
        let parts: Vec<(S, &Grid<S>, i64, i64)> = self
            .grid
            .steps
            .iter()
            .zip(&self.step_weights)
            .map(|(&x, w)| {
                let g = Self::at(child, s + x);
                let dt = if self.t_relative() { x } else { 0 };
                // Below the front (no evaluation) the gap stays 0.
                let dd = match e_shift {
                    Some(true) => x - dt,
                    Some(false) => -dt,
                    None => 0,
                };
                (w.clone(), g, dt, dd)
            })
            .collect();
        mix(&parts).trimmed()
    }

    /// The level at height `height` (depth h - height) from the one below: step
    /// convolution, then max or min of b iid children (before terminal mixing).
    fn node_level(&self, child: &Level<S>, height: u32, e_shift: Option<bool>) -> Level<S> {
        let depth = (self.h - height) as usize;
        let max = height % 2 == 1;
        let mut ne = 1;
        let mut nt = 1;
        // Above a binned front the laws depend on the position value.
        let positions = if e_shift.is_some() && child.positions.len() > 1 {
            self.reach_binned[depth].clone()
        } else {
            self.reach[depth].clone()
        };
        let grids: Vec<Grid<S>> = positions
            .iter()
            .map(|&s| {
                let c = self.child_law(child, s, e_shift);
                nt = nt.max(c.nt);
                ne = ne.max(c.nd);
                if max {
                    max_law(&c, self.b, &self.binom)
                } else {
                    min_law(&c, self.b, &self.binom)
                }
            })
            .collect();
        let den = engine::power(&self.step_unit.mul(&child.den), self.b);
        let rho = child
            .rho
            .after(self.grid.steps.len() as f64 + 1.0)
            .power(self.b)
            .after(max_law_roundings(nt, ne, self.b));
        Level {
            grids,
            positions,
            den,
            rho,
        }
    }

    /// Mixes in terminal nodes at `height` (exactly evaluated when `evaluated`).
    fn with_terminals(&self, level: Level<S>, height: u32, evaluated: bool) -> Level<S> {
        let Some((keep, stop, unit)) = &self.terminal else {
            return level;
        };
        let _ = height;
        let a = keep.mul(&self.leaf_unit);
        let grids = level
            .grids
            .iter()
            .zip(&level.positions)
            .map(|(g, &s)| {
                let leaf = self.leaf_grid(s, evaluated);
                mix(&[(a.clone(), g, 0, 0), (stop.mul(&level.den), &leaf, 0, 0)])
            })
            .collect();
        Level {
            grids,
            positions: level.positions.clone(),
            den: unit.mul(&level.den).mul(&self.leaf_unit),
            rho: level.rho.after(4.0),
        }
    }

    /// The front evaluation of non-terminal nodes (at depth `depth`) from their true-value
    /// law, binned when `--levels` is given.
    fn evaluate(&self, level: Level<S>, depth: usize) -> Level<S> {
        let level = self.evaluate_unbinned(level);
        let Some((low, half, count)) = self.grid.bins else {
            return level;
        };
        // The evaluation e (relative to the position s) read as the centre of its bin:
        // bin k = floor((s + e - LO) / (2 half)) in 0..G, centre LO + (2k + 1) half.
        let centre = |absolute: i64| {
            let k = (absolute - low)
                .div_euclid(2 * half)
                .clamp(0, i64::from(count) - 1);
            low + (2 * k + 1) * half
        };
        let positions = self.reach_binned[depth].clone();
        let grids = positions
            .iter()
            .map(|&s| {
                let g = Self::at(&level, s);
                let pts: Vec<_> = g
                    .cells()
                    .map(|(t, gap, v)| (t, centre(s + t + gap) - s, v.clone()))
                    .collect();
                Grid::from_points(&pts)
            })
            .collect();
        Level {
            grids,
            positions,
            den: level.den,
            rho: level.rho,
        }
    }

    /// The front evaluation of non-terminal nodes from their true-value law.
    fn evaluate_unbinned(&self, level: Level<S>) -> Level<S> {
        let win = self.grid.win;
        let (grids, factor): (Vec<Grid<S>>, Option<S>) = match &self.evaluator {
            Evaluator::Perfect => (
                level
                    .grids
                    .iter()
                    .map(|g| {
                        let pts: Vec<_> = g.cells().map(|(t, _, v)| (t, t, v.clone())).collect();
                        Grid::from_points(&pts)
                    })
                    .collect(),
                None,
            ),
            Evaluator::Position => (
                level
                    .grids
                    .iter()
                    .map(|g| {
                        let pts: Vec<_> = g.cells().map(|(t, _, v)| (t, 0, v.clone())).collect();
                        Grid::from_points(&pts)
                    })
                    .collect(),
                None,
            ),
            Evaluator::Additive { .. } => (
                level
                    .grids
                    .iter()
                    .map(|g| {
                        let mut pts = Vec::new();
                        for (t, _, v) in g.cells() {
                            for (n, w) in self.grid.noise.iter().zip(&self.noise_weights) {
                                pts.push((t, t + n, v.mul(w)));
                            }
                        }
                        Grid::from_points(&pts)
                    })
                    .collect(),
                Some(self.noise_unit.clone()),
            ),
            Evaluator::Artificial { .. } => {
                let (right, wrong, unit) = self.error.clone().expect("checked");
                (
                    level
                        .grids
                        .iter()
                        .map(|g| {
                            let mut pts = Vec::new();
                            for (t, _, v) in g.cells() {
                                pts.push((t, t, v.mul(&right)));
                                pts.push((t, win - t, v.mul(&wrong)));
                            }
                            Grid::from_points(&pts)
                        })
                        .collect(),
                    Some(unit),
                )
            }
        };
        let den = match &factor {
            Some(f) => level.den.mul(f),
            None => level.den,
        };
        Level {
            grids,
            positions: level.positions,
            den,
            rho: level.rho.after(2.0 + self.grid.noise.len() as f64),
        }
    }
}

/// The reachable position values at depths `0..=h` (only `[0]` when nothing depends on
/// them).
fn reachable(steps: &[i64], h: u32, per_position: bool) -> Vec<Vec<i64>> {
    let mut out = vec![vec![0i64]];
    for _ in 0..h {
        if !per_position {
            out.push(vec![0]);
            continue;
        }
        let set: BTreeSet<i64> = out
            .last()
            .expect("nonempty")
            .iter()
            .flat_map(|s| steps.iter().map(move |x| s + x))
            .collect();
        out.push(set.into_iter().collect());
    }
    out
}

/// D(d,h), the optimal-move probability, the expected loss and the minimax bias of a
/// path-sum tree for each of `depths` (each in `1..=h`).
///
/// # Examples
///
/// ```
/// use pathology::analytic::pathsum::{Evaluator, Law, Outcome, PathSumGame, pathsum_column};
/// use num_rational::BigRational;
/// let game = PathSumGame {
///     branching: 2, height: 4, step: Law::parse("--step", "1:1/2,-1:1/2").unwrap(),
///     leaf: Law::point(0.into()), terminal: num_rational::BigRational::from_integer(0.into()), outcome: Outcome::Value,
///     evaluator: Evaluator::Additive { noise: Law::parse("--noise", "1:1/4,0:1/2,-1:1/4").unwrap() },
///     levels: None,
/// };
/// let column = pathsum_column::<BigRational>(&game, &[1, 2, 3, 4]).unwrap();
/// assert_eq!(column.rows[3].decision, BigRational::from_integer(1.into())); // D(h,h) = 1
/// ```
///
/// # Errors
///
/// As [`PathSumGame::validate`]; [`Error::InvalidArgument`] naming `--depth` outside
/// `1..=h` or the laws when no root is non-trivial; [`Error::TooExpensive`] past about a
/// minute or the memory limit; [`Error::Interrupted`] when cancelled.
pub fn pathsum_column<P: Probability>(
    game: &PathSumGame,
    depths: &[u32],
) -> Result<PathSumColumn<P>> {
    game.validate()?;
    let h = game.height;
    for &d in depths {
        if !(1..=h).contains(&d) {
            return Err(Error::invalid(
                "--depth",
                &format!("in 1..={h} (at most the height)"),
                d,
            ));
        }
    }
    check_cost(game, depths, P::EXACT)?;
    let cancel = crate::cancel::current();
    let grid = Grid_::new(game)?;
    let (step_weights, step_unit) = scale_of::<P>(&game.step);
    let (leaf_weights, leaf_unit) = scale_of::<P>(&game.leaf);
    let (noise_weights, noise_unit) = match &game.evaluator {
        Evaluator::Additive { noise } => scale_of::<P>(noise),
        _ => (Vec::new(), P::Scaled::one_value()),
    };
    let terminal = (!game.terminal.is_zero()).then(|| pair_of::<P>(&game.terminal));
    let error = match &game.evaluator {
        Evaluator::Artificial { error } => Some(pair_of::<P>(error)),
        _ => None,
    };
    let per_position = game.outcome == Outcome::Sign;
    let reach = reachable(&grid.steps, h, per_position);
    let reach_binned = if game.levels.is_some() {
        reachable(&grid.steps, h, true)
    } else {
        reach.clone()
    };
    let setup = Setup {
        b: game.branching as usize,
        h,
        outcome: game.outcome,
        evaluator: game.evaluator.clone(),
        reach,
        reach_binned,
        grid,
        step_weights,
        step_unit,
        leaf_weights,
        leaf_unit,
        noise_weights,
        noise_unit,
        terminal,
        error,
        binom: binomials(game.branching as usize),
    };
    // Shared levels below every front: `pre[k]` before terminal mixing, `own[k]` after.
    let lowest_front = depths.iter().map(|d| h - d).max().unwrap_or(0);
    let mut pre: Vec<Level<P::Scaled>> = vec![setup.leaf_level(false)];
    let mut own: Vec<Level<P::Scaled>> = vec![setup.leaf_level(false)];
    for k in 1..=lowest_front {
        cancel.check()?;
        let level = setup.node_level(&own[k as usize - 1], k, None);
        pre.push(level.clone());
        own.push(if game.terminal_allowed_at(k) {
            setup.with_terminals(level, k, false)
        } else {
            level
        });
    }
    let mut rows = Vec::with_capacity(depths.len());
    let mut nontrivial = None;
    for &d in depths {
        cancel.check()?;
        let front = h - d;
        let e_shift = setup.e_relative(front);
        let mut level = if front == 0 {
            setup.leaf_level(true)
        } else {
            let evaluated = setup.evaluate(pre[front as usize].clone(), d as usize);
            if game.terminal_allowed_at(front) {
                setup.with_terminals(evaluated, front, true)
            } else {
                evaluated
            }
        };
        for k in front + 1..h {
            cancel.check()?;
            let next = setup.node_level(&level, k, Some(e_shift));
            level = if game.terminal_allowed_at(k) {
                setup.with_terminals(next, k, true)
            } else {
                next
            };
        }
        let (row, nt) = root_row::<P>(&setup, &level, d, e_shift, game)?;
        rows.push(row);
        nontrivial = Some(nt);
    }
    let (nontrivial, nontrivial_bound) = nontrivial.unwrap_or((P::impossible(), 0.0));
    let worst = rows.iter().map(|r| r.bounds[0]).fold(0.0, f64::max);
    if !P::EXACT && (worst.is_nan() || worst > crate::analytic::families::MAX_F64_ERROR_BOUND) {
        return Err(cost::f64_refusal(h, worst));
    }
    Ok(PathSumColumn {
        height: h,
        rows,
        nontrivial,
        nontrivial_bound,
    })
}

/// The root's row from the level of its children (depth 1).
fn root_row<P: Probability>(
    setup: &Setup<P::Scaled>,
    children: &Level<P::Scaled>,
    depth: u32,
    e_shift: bool,
    game: &PathSumGame,
) -> Result<(DepthRow<P>, (P, f64))> {
    let b = setup.b;
    let c = setup.child_law(children, 0, Some(e_shift));
    let max = setup.h % 2 == 1;
    let oriented = if max { c.clone() } else { c.flipped() };
    let sums = root_sums(&oriented, b, &setup.binom);
    let den = engine::power(&setup.step_unit.mul(&children.den), b);
    let rho_c = children.rho.after(setup.grid.steps.len() as f64 + 1.0);
    let rho = rho_c
        .power(b)
        .after((c.nt * c.nd + 2 * c.nt + 2 * c.nd) as f64 + 4.0 * b as f64 + 8.0);
    if sums.nontrivial.is_zero_value() {
        // In f64 a zero may be an underflow (then the rounding bound is not finite).
        if !P::EXACT && (!rho.0.is_finite() || rho.0 >= 1.0) {
            return Err(cost::f64_refusal(setup.h, rho.0));
        }
        let allowed = "a law that, with the --leaf law, gives a root children of different true \
                       values (else every move is optimal and D(d,h) is undefined)";
        return Err(Error::invalid("--step", allowed, game.step.text()));
    }
    let u = f64::EPSILON;
    let to_p = |x: &P::Scaled| P::from_scaled(x, &den);
    let nontrivial = to_p(&sums.nontrivial);
    let correct = to_p(&sums.correct);
    let all_equal = to_p(&sums.all_equal);
    let decision_value = P::from_scaled(&sums.correct.sub(&sums.all_equal), &sums.nontrivial);
    let unit = P::from_rational(&(BigRational::one() / &setup.grid.scale));
    let loss = P::from_scaled(&sums.root_value.sub(&sums.chosen_value), &den).times(&unit);
    let (r, bounds) = if P::EXACT {
        (0.0, [0.0; 4])
    } else {
        let r = rho.0;
        let nt = nontrivial.to_f64();
        let dv = decision_value.to_f64().abs();
        let decision_bound = (r * (correct.to_f64() + all_equal.to_f64()) / nt + dv * r)
            / (1.0 - r).max(1e-300)
            + 4.0 * u;
        let magnitude = to_p(&sums.magnitude).to_f64() * unit.to_f64();
        (
            r,
            [
                decision_bound,
                r * correct.to_f64() + 2.0 * u,
                r * magnitude + 4.0 * u * magnitude + 1e-300,
                0.0,
            ],
        )
    };
    let mut bounds = bounds;
    // Bias: the root's own pair law.
    let comparable = !(setup.outcome == Outcome::Sign && setup.evaluator == Evaluator::Position);
    let (bias_mean, bias_quantiles) = if comparable {
        let root = if max {
            max_law(&c, b, &setup.binom)
        } else {
            min_law(&c, b, &setup.binom)
        };
        let mut by_gap: std::collections::BTreeMap<i64, P::Scaled> = Default::default();
        for (_, gap, v) in root.cells() {
            let entry = by_gap
                .entry(gap)
                .or_insert_with(<P::Scaled as Scaled>::zero_value);
            *entry = entry.add(v);
        }
        let (mut pos, mut neg, mut total) = (
            <P::Scaled as Scaled>::zero_value(),
            <P::Scaled as Scaled>::zero_value(),
            <P::Scaled as Scaled>::zero_value(),
        );
        for (k, v) in &by_gap {
            let w = v.mul(&engine::small::<P::Scaled>(k.unsigned_abs()));
            if *k < 0 {
                neg = neg.add(&w);
            } else {
                pos = pos.add(&w);
            }
            total = total.add(v);
        }
        let mean = P::from_scaled(&pos.sub(&neg), &den).times(&unit);
        if !P::EXACT {
            let rho_root = rho_c
                .power(b)
                .after(max_law_roundings(c.nt, c.nd, b) + (c.nt * c.nd) as f64);
            bounds[3] =
                rho_root.0 * P::from_scaled(&pos.add(&neg), &den).to_f64() * unit.to_f64() + 1e-300;
        }
        let levels = [
            BigRational::new(5.into(), 100.into()),
            BigRational::new(1.into(), 2.into()),
            BigRational::new(95.into(), 100.into()),
        ];
        let scale = &setup.grid.scale;
        let quantiles = levels.map(|q| {
            let target = P::from_rational(&q);
            let mut cum = <P::Scaled as Scaled>::zero_value();
            let mut found = by_gap.keys().last().copied().unwrap_or(0);
            for (k, v) in &by_gap {
                cum = cum.add(v);
                if P::from_scaled(&cum, &total) >= target {
                    found = *k;
                    break;
                }
            }
            BigRational::from_integer(found.into()) / scale
        });
        (Some(mean), Some(quantiles))
    } else {
        (None, None)
    };
    let _ = r;
    let nontrivial_bound = if P::EXACT {
        0.0
    } else {
        rho.0 * nontrivial.to_f64() + 2.0 * u
    };
    let clamp = |x: P| {
        if x > P::certain() {
            P::certain()
        } else if x < P::impossible() {
            P::impossible()
        } else {
            x
        }
    };
    Ok((
        DepthRow {
            depth,
            decision: clamp(decision_value),
            optimal: clamp(correct),
            loss,
            bias_mean,
            bias_quantiles,
            bounds,
        },
        (nontrivial, nontrivial_bound),
    ))
}

#[cfg(test)]
mod tests;
