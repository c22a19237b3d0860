//! The heuristics, their granularity (`--levels`) and the noise added to them (`--noise`).
//!
//! - `manhattan`: the sum over the eight tiles of each tile's Manhattan distance from its goal
//!   cell (the blank not counted); Russell & Norvig's h2. Admissible (a test checks it
//!   against the true distance of every state). Range on the puzzle: 0..=22.
//! - `misplaced`: the number of tiles not on their goal cell (the blank not counted); Russell
//!   & Norvig's h1. Range 0..=8.
//! - `distance`: the true optimal solution length, a perfect heuristic (range 0..=31); with
//!   noise, the model of a noisy evaluation around the true value.
//!
//! **Granularity** (`--levels G`, G >= 2): a (noisy) value v becomes the nearest of G equally
//! spaced levels over the heuristic's range `[lo, hi]` on the whole puzzle (the least and
//! largest value over all 181,440 states; `lo` is 0 for all three),
//! `level = round((v - lo) (G - 1) / (hi - lo))` with halves rounded up and levels beyond
//! `0..G-1` clamped to the ends, and is mapped back to the heuristic's units,
//! `lo + (hi - lo) level / (G - 1)`, because the minimin search adds it to the moves made.
//!
//! **Noise** (`--noise`): `gaussian:S` adds a normal deviate of standard deviation S, a
//! discrete law `v1:p1,v2:p2,...` (exact rationals, probabilities summing to 1) adds v_i with
//! probability p_i; drawn independently at every frontier node of the search tree (two
//! frontier nodes holding the same state draw separately). The goal is recognised by the
//! search and scored 0 without noise.
//!
//! Values are whole numbers on a common scale K (the search's move costs K): K = 1 for the
//! raw heuristic, K = G - 1 with levels, K = the common denominator of a discrete law's
//! values without levels, so exact searches compare values exactly.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive};

use super::board::{GOAL, Puzzle};
use crate::error::{Error, Result};
use crate::numeric::number::parse_rational;

/// A heuristic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heuristic {
    /// Sum of the tiles' Manhattan distances.
    Manhattan,
    /// Number of misplaced tiles.
    Misplaced,
    /// The true distance (perfect).
    Distance,
}

impl Heuristic {
    /// Every heuristic, in the order the help lists them.
    pub const ALL: [Heuristic; 3] = [
        Heuristic::Manhattan,
        Heuristic::Misplaced,
        Heuristic::Distance,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Manhattan => "manhattan",
            Heuristic::Misplaced => "misplaced",
            Heuristic::Distance => "distance",
        }
    }

    /// The heuristic named `text`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--heuristic`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::domains::eight_puzzle::Heuristic;
    /// assert_eq!(Heuristic::parse("manhattan").unwrap(), Heuristic::Manhattan);
    /// assert!(Heuristic::parse("euclid").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Heuristic> {
        Heuristic::ALL
            .into_iter()
            .find(|h| h.name() == text.trim())
            .ok_or_else(|| {
                Error::invalid("--heuristic", "one of manhattan, misplaced, distance", text)
            })
    }

    /// The value of state `index`.
    pub fn value(self, puzzle: &Puzzle, index: usize) -> u8 {
        let tiles = puzzle.tiles(index);
        match self {
            Heuristic::Manhattan => (0..9)
                .filter(|&cell| tiles[cell] != 0)
                .map(|cell| {
                    let home = usize::from(tiles[cell]) - 1;
                    (cell / 3).abs_diff(home / 3) + (cell % 3).abs_diff(home % 3)
                })
                .sum::<usize>() as u8,
            Heuristic::Misplaced => (0..9)
                .filter(|&cell| tiles[cell] != 0 && tiles[cell] != GOAL[cell])
                .count() as u8,
            Heuristic::Distance => puzzle.distance(index),
        }
    }
}

/// A discrete noise law: values (a common denominator) and probabilities.
#[derive(Debug, Clone, PartialEq)]
pub struct DiscreteLaw {
    /// The values as written.
    pub values: Vec<BigRational>,
    /// Their probabilities (each in (0, 1], summing to 1).
    pub probabilities: Vec<BigRational>,
    /// The values' common denominator.
    pub denominator: i64,
    /// The values times the common denominator.
    pub numerators: Vec<i64>,
    /// The probabilities' common denominator q.
    pub weight_denominator: BigInt,
    /// The probabilities times q: whole weights.
    pub weights: Vec<BigInt>,
}

/// The noise added to every frontier evaluation.
#[derive(Debug, Clone, PartialEq)]
pub enum Noise {
    /// No noise: the decisions are deterministic up to ties.
    None,
    /// A normal deviate of this standard deviation (> 0), and the text it was given as.
    Gaussian(f64, String),
    /// A discrete law.
    Discrete(DiscreteLaw),
}

use crate::domains::NOISE_ALLOWED;

impl Noise {
    /// Parses `none`, `gaussian:S` or `v1:p1,v2:p2,...` (exact rationals: `0.1` is 1/10).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--noise`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::domains::eight_puzzle::Noise;
    /// assert_eq!(Noise::parse("none").unwrap(), Noise::None);
    /// assert!(matches!(Noise::parse("gaussian:1.5").unwrap(), Noise::Gaussian(s, _) if s == 1.5));
    /// assert!(matches!(Noise::parse("-1:1/4,0:1/2,1:1/4").unwrap(), Noise::Discrete(_)));
    /// assert!(Noise::parse("-1:0.5,1:0.4").is_err()); // sums to 0.9
    /// ```
    pub fn parse(text: &str) -> Result<Noise> {
        let bad = || Error::invalid("--noise", NOISE_ALLOWED, text);
        let t = text.trim();
        if t == "none" {
            return Ok(Noise::None);
        }
        if let Some(s) = t.strip_prefix("gaussian:") {
            let sigma = parse_rational(s).map_err(|_| bad())?;
            if !sigma.is_positive() {
                return Err(bad());
            }
            let f = sigma.to_f64().ok_or_else(bad)?;
            return Ok(Noise::Gaussian(f, s.trim().to_string()));
        }
        let mut values = Vec::new();
        let mut probabilities = Vec::new();
        if t.split(',').count() > 64 {
            return Err(bad());
        }
        for part in t.split(',') {
            let (v, p) = part.split_once(':').ok_or_else(bad)?;
            let v = parse_rational(v).map_err(|_| bad())?;
            let p = parse_rational(p).map_err(|_| bad())?;
            if !p.is_positive() || p > BigRational::one() {
                return Err(bad());
            }
            if v.abs() > BigRational::from_integer(1_000_000.into()) {
                return Err(bad());
            }
            values.push(v);
            probabilities.push(p);
        }
        let total: BigRational = probabilities.iter().sum();
        if values.is_empty() || values.len() > 64 || !total.is_one() {
            return Err(bad());
        }
        let denominator = values
            .iter()
            .fold(BigInt::one(), |acc, v| acc.lcm(v.denom()));
        if denominator > BigInt::from(1_000_000) {
            return Err(bad());
        }
        let numerators = values
            .iter()
            .map(|v| (v * BigRational::from_integer(denominator.clone())).to_integer())
            .map(|n| n.to_i64().unwrap_or(0))
            .collect();
        let weight_denominator = probabilities
            .iter()
            .fold(BigInt::one(), |acc, p| acc.lcm(p.denom()));
        let weights = probabilities
            .iter()
            .map(|p| (p * BigRational::from_integer(weight_denominator.clone())).to_integer())
            .collect();
        Ok(Noise::Discrete(DiscreteLaw {
            values,
            probabilities,
            denominator: denominator.to_i64().unwrap_or(1),
            numerators,
            weight_denominator,
            weights,
        }))
    }

    /// The text of the noise as the manifest prints it.
    pub fn text(&self) -> String {
        match self {
            Noise::None => "none".to_string(),
            Noise::Gaussian(_, s) => format!("gaussian:{s}"),
            Noise::Discrete(law) => law
                .values
                .iter()
                .zip(&law.probabilities)
                .map(|(v, p)| format!("{v}:{p}"))
                .collect::<Vec<_>>()
                .join(","),
        }
    }
}

/// The frontier evaluation, built once: the heuristic per state, its range, the levels and
/// the common scale of values.
#[derive(Debug, Clone)]
pub struct Evaluation {
    heuristic: Heuristic,
    raw: Vec<u8>,
    range: (i64, i64),
    levels: Option<u32>,
    scale: i64,
    /// Discrete noise numerators on the scale's denominator (without levels: the scale).
    noise_denominator: i64,
}

impl Evaluation {
    /// The evaluation of `heuristic` on the puzzle, with `levels` (2..=10^6) when given and
    /// the scale that `noise` (when discrete) needs.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--levels` outside 2..=1000000.
    pub fn new(
        puzzle: &Puzzle,
        heuristic: Heuristic,
        levels: Option<u32>,
        noise: &Noise,
    ) -> Result<Self> {
        if let Some(g) = levels
            && !(2..=1_000_000).contains(&g)
        {
            return Err(Error::invalid(
                "--levels",
                "a whole number in 2..=1000000",
                g,
            ));
        }
        let raw: Vec<u8> = (0..puzzle.len())
            .map(|i| heuristic.value(puzzle, i))
            .collect();
        let lo = raw.iter().copied().min().map_or(0, i64::from);
        let hi = raw.iter().copied().max().map_or(1, i64::from).max(lo + 1);
        let noise_denominator = match noise {
            Noise::Discrete(law) => law.denominator,
            _ => 1,
        };
        let scale = match levels {
            Some(g) => i64::from(g) - 1,
            None => noise_denominator,
        };
        Ok(Evaluation {
            heuristic,
            raw,
            range: (lo, hi),
            levels,
            scale,
            noise_denominator,
        })
    }

    /// The heuristic.
    pub fn heuristic(&self) -> Heuristic {
        self.heuristic
    }

    /// The heuristic's range `[lo, hi]` on the puzzle.
    pub fn range(&self) -> (i64, i64) {
        self.range
    }

    /// The scale K: values are whole multiples of 1/K, a move costs K.
    pub fn scale(&self) -> i64 {
        self.scale
    }

    /// The raw heuristic of `index`.
    pub fn raw(&self, index: usize) -> u8 {
        self.raw[index]
    }

    /// The level (scaled value) of `num / den` in heuristic units, rounded half up and
    /// clamped; `num / den` is `h + noise`.
    fn level_scaled(&self, num: i128, den: i128, g: u32) -> i64 {
        let (lo, hi) = (i128::from(self.range.0), i128::from(self.range.1));
        let top = i128::from(g) - 1;
        // level = floor(((num/den - lo) top / (hi - lo)) + 1/2)
        let n = (num - lo * den) * top;
        let d = den * (hi - lo);
        let level = (2 * n + d).div_euclid(2 * d).clamp(0, top);
        (lo * top + (hi - lo) * level) as i64
    }

    /// The scaled value of state `index` without noise.
    pub fn scaled(&self, index: usize) -> i64 {
        let h = i64::from(self.raw[index]);
        match self.levels {
            Some(g) => self.level_scaled(i128::from(h), 1, g),
            None => h * self.scale,
        }
    }

    /// The scaled value of state `index` with the discrete noise value `numerator /
    /// noise denominator` added.
    pub fn scaled_with(&self, index: usize, numerator: i64) -> i64 {
        let h = i64::from(self.raw[index]);
        let den = self.noise_denominator;
        match self.levels {
            Some(g) => self.level_scaled(
                i128::from(h) * i128::from(den) + i128::from(numerator),
                i128::from(den),
                g,
            ),
            // Without levels the scale is the noise's denominator.
            None => h * den + numerator,
        }
    }

    /// The value of `index` plus the real noise `x`, in heuristic units (Monte Carlo).
    pub fn real_with(&self, index: usize, x: f64) -> f64 {
        let v = f64::from(self.raw[index]) + x;
        match self.levels {
            Some(g) => {
                let (lo, hi) = (self.range.0 as f64, self.range.1 as f64);
                let top = f64::from(g) - 1.0;
                let level = ((v - lo) * top / (hi - lo) + 0.5).floor().clamp(0.0, top);
                lo + (hi - lo) * level / top
            }
            None => v,
        }
    }
}
