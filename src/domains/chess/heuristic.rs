//! The evaluation functions, their granularity (`--levels`) and the noise added to them
//! (`--noise`).
//!
//! Values are White's: larger is better for White, and whole numbers, so that exact searches
//! compare them exactly. A heuristic scores the legal positions that do not end the game;
//! the search scores the ends itself (see [`super::exact`]).
//!
//! - `mopup`: the "mop-up evaluation" of the Chess Programming Wiki (after Chess 4.x),
//!   `4.7 CMD + 1.6 (14 - MD)` scaled by 10 to whole numbers: `47 CMD + 16 (14 - MD)`, with
//!   CMD the Black king's Manhattan distance from the four centre squares (0..6) and MD the
//!   Manhattan distance between the kings. It drives the Black king to the edge and brings
//!   the White king closer; it ignores the piece (so it cannot see a hanging rook).
//! - `room`: the "room" of Bratko's KRK advice (Bratko, *Prolog Programming for Artificial
//!   Intelligence*, the KRK program: squeeze the Black king's room), our whole-number form
//!   `4 (64 - area) + (7 - KD)`: `area` is the number of squares of the rectangle that the
//!   piece's file and rank fence the Black king into (64 when the Black king shares a file or
//!   rank with it), KD the kings' Chebyshev distance.
//! - `dtm`: the true values, a perfect heuristic: `-(plies to mate)` for won positions (2 DTM
//!   with Black to move, 2 DTM - 1 with White to move) and `-(2 L + 1)` for drawn ones, L the
//!   longest win. Depth-d minimax with it decides correctly at every depth (a test); with
//!   noise it is Sadikov, Bratko & Kononenko's (2005) model of a noisy evaluation around the
//!   true value.
//!
//! **Granularity** (`--levels G`, G >= 2): a value h becomes the nearest of G equally spaced
//! levels over the heuristic's range `[lo, hi]` on the endgame (the least and largest value
//! over every legal non-terminal position, both sides to move), numbered 0..G-1:
//! `round((h - lo) (G - 1) / (hi - lo))`, halves rounded up. With noise, the noisy value is
//! rounded, values beyond the range falling in the end levels.

use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::board::file;
use super::board::{Position, Side, king_distance, manhattan_distance, rank};
use super::solve::{Endgame, Terminal};
use crate::error::{Error, Result};
use crate::numeric::number::parse_rational;

/// An evaluation function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heuristic {
    /// The mop-up evaluation (Chess Programming Wiki, after Chess 4.x).
    Mopup,
    /// Bratko's KRK "room" with the kings' distance.
    Room,
    /// The true values (perfect).
    Dtm,
}

impl Heuristic {
    /// Every heuristic, in the order the help lists them.
    pub const ALL: [Heuristic; 3] = [Heuristic::Mopup, Heuristic::Room, Heuristic::Dtm];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Mopup => "mopup",
            Heuristic::Room => "room",
            Heuristic::Dtm => "dtm",
        }
    }

    /// The heuristic named `text`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--heuristic`.
    pub fn parse(text: &str) -> Result<Heuristic> {
        Heuristic::ALL
            .into_iter()
            .find(|h| h.name() == text.trim())
            .ok_or_else(|| Error::invalid("--heuristic", "one of mopup, room, dtm", text))
    }

    /// The value of a legal, non-terminal position; `longest` is the endgame's longest win
    /// with White to move (used by `dtm` alone).
    pub fn value(self, endgame: &Endgame, index: usize, longest: u8) -> i64 {
        let p = Position::from_index(index);
        match self {
            Heuristic::Mopup => {
                let centre = |x: i8| (3 - x).max(x - 4);
                let cmd = centre(file(p.black_king)) + centre(rank(p.black_king));
                let md = manhattan_distance(p.white_king, p.black_king);
                47 * i64::from(cmd) + 16 * (14 - i64::from(md))
            }
            Heuristic::Room => {
                let side = |b: i8, r: i8| match b.cmp(&r) {
                    std::cmp::Ordering::Less => r,
                    std::cmp::Ordering::Greater => 7 - r,
                    std::cmp::Ordering::Equal => 8,
                };
                let width = side(file(p.black_king), file(p.piece));
                let height = side(rank(p.black_king), rank(p.piece));
                let area = if width == 8 || height == 8 {
                    64
                } else {
                    i64::from(width) * i64::from(height)
                };
                4 * (64 - area) + 7 - i64::from(king_distance(p.white_king, p.black_king))
            }
            Heuristic::Dtm => {
                let longest = i64::from(longest);
                match endgame.dtm(index) {
                    Some(d) => {
                        let d = i64::from(d);
                        -(if p.side == Side::Black {
                            2 * d
                        } else {
                            2 * d - 1
                        })
                    }
                    None => -(2 * longest + 1),
                }
            }
        }
    }
}

/// The frontier values of every legal non-terminal position, built once: the heuristic,
/// rounded to `levels` when asked.
#[derive(Debug, Clone)]
pub struct Evaluation {
    heuristic: Heuristic,
    /// The raw heuristic per index (0 where illegal or terminal).
    raw: Vec<i64>,
    /// The least and largest raw value over legal non-terminal positions.
    range: (i64, i64),
    levels: Option<u32>,
}

impl Evaluation {
    /// The evaluation of `heuristic` on the endgame, with `levels` (>= 2) when given.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--levels` when it is below 2 or above 10^6.
    pub fn new(endgame: &Endgame, heuristic: Heuristic, levels: Option<u32>) -> Result<Self> {
        if let Some(g) = levels
            && !(2..=1_000_000).contains(&g)
        {
            return Err(Error::invalid(
                "--levels",
                "a whole number in 2..=1000000",
                g,
            ));
        }
        let mut raw = vec![0i64; super::board::POSITIONS];
        let mut range = (i64::MAX, i64::MIN);
        let longest = endgame.longest_win(Side::White);
        for index in endgame.legal_positions() {
            if endgame.terminal(index) == Terminal::No {
                let v = heuristic.value(endgame, index, longest);
                raw[index] = v;
                range = (range.0.min(v), range.1.max(v));
            }
        }
        if range.0 >= range.1 {
            range.1 = range.0 + 1;
        }
        Ok(Evaluation {
            heuristic,
            raw,
            range,
            levels,
        })
    }

    /// The heuristic.
    pub fn heuristic(&self) -> Heuristic {
        self.heuristic
    }

    /// The levels, if rounded.
    pub fn levels(&self) -> Option<u32> {
        self.levels
    }

    /// The heuristic's range `[lo, hi]` on the endgame.
    pub fn range(&self) -> (i64, i64) {
        self.range
    }

    /// The raw heuristic value of a legal non-terminal index.
    pub fn raw(&self, index: usize) -> i64 {
        self.raw[index]
    }

    /// The frontier value of a legal non-terminal index (rounded when levels are set).
    pub fn value(&self, index: usize) -> i64 {
        let h = self.raw[index];
        match self.levels {
            None => h,
            Some(g) => {
                let (lo, hi) = self.range;
                let (num, den) = (
                    2 * i128::from(h - lo) * i128::from(g - 1) + i128::from(hi - lo),
                    2 * i128::from(hi - lo),
                );
                (num.div_euclid(den)) as i64
            }
        }
    }

    /// The largest frontier value (`hi`, or G - 1).
    pub fn top(&self) -> i64 {
        match self.levels {
            None => self.range.1,
            Some(g) => i64::from(g) - 1,
        }
    }

    /// The least frontier value (`lo`, or 0).
    pub fn bottom(&self) -> i64 {
        match self.levels {
            None => self.range.0,
            Some(_) => 0,
        }
    }

    /// A noisy frontier value `h + noise` (rounded to the levels when set, clamped to the end
    /// levels), in `f64`.
    pub fn noisy_value(&self, index: usize, noise: f64) -> f64 {
        let h = self.raw[index] as f64 + noise;
        match self.levels {
            None => h,
            Some(g) => {
                let (lo, hi) = (self.range.0 as f64, self.range.1 as f64);
                let x = ((h - lo) * f64::from(g - 1) / (hi - lo) + 0.5).floor();
                x.clamp(0.0, f64::from(g - 1))
            }
        }
    }
}

/// The noise added to each frontier evaluation, drawn independently per search node.
#[derive(Debug, Clone, PartialEq)]
pub enum Noise {
    /// None: the heuristic as it is.
    None,
    /// A discrete law: values with probabilities (exact rationals, summing to 1).
    Discrete(Vec<(BigRational, BigRational)>),
    /// A centred Gaussian of this standard deviation (> 0).
    Gaussian(f64),
}

impl Noise {
    /// Parses `none`, `gaussian:S` (S > 0) or `v1:p1,v2:p2,...` (values and probabilities
    /// exact: `0.1` is 1/10; probabilities in (0, 1] summing to 1).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--noise` and the allowed forms.
    pub fn parse(text: &str) -> Result<Noise> {
        let bad = || Error::invalid("--noise", crate::domains::NOISE_ALLOWED, text);
        let text_trim = text.trim();
        if text_trim == "none" {
            return Ok(Noise::None);
        }
        if let Some(s) = text_trim.strip_prefix("gaussian:") {
            let s = parse_rational(s).map_err(|_| bad())?;
            let sigma = s.to_f64().filter(|x| x.is_finite() && *x > 0.0);
            return match sigma {
                Some(x) if s.is_positive() => Ok(Noise::Gaussian(x)),
                _ => Err(bad()),
            };
        }
        let mut law: Vec<(BigRational, BigRational)> = Vec::new();
        if text_trim.split(',').count() > 64 {
            return Err(bad());
        }
        for part in text_trim.split(',') {
            let (v, p) = part.split_once(':').ok_or_else(bad)?;
            let v = parse_rational(v.trim()).map_err(|_| bad())?;
            let p = parse_rational(p.trim()).map_err(|_| bad())?;
            if !p.is_positive() || p > BigRational::one() {
                return Err(bad());
            }
            match law.iter_mut().find(|(x, _)| *x == v) {
                Some((_, q)) => *q += p,
                None => law.push((v, p)),
            }
        }
        let total: BigRational = law.iter().map(|(_, p)| p.clone()).sum();
        if law.is_empty()
            || total != BigRational::one()
            || !crate::domains::noise_values_allowed(law.iter().map(|(v, _)| v))
        {
            return Err(bad());
        }
        law.sort();
        if law.len() == 1 && law[0].0.is_zero() {
            return Ok(Noise::None);
        }
        Ok(Noise::Discrete(law))
    }

    /// The law as the manifest prints it.
    pub fn text(&self) -> String {
        match self {
            Noise::None => "none".to_string(),
            Noise::Gaussian(s) => format!("gaussian:{s}"),
            Noise::Discrete(law) => law
                .iter()
                .map(|(v, p)| format!("{v}:{p}"))
                .collect::<Vec<_>>()
                .join(","),
        }
    }

    /// The law in `f64` for sampling: cumulative probabilities and values (`None` for no
    /// noise).
    pub fn sampler(&self) -> Sampler {
        match self {
            Noise::None => Sampler::None,
            Noise::Gaussian(s) => Sampler::Gaussian(*s),
            Noise::Discrete(law) => {
                let mut acc = BigRational::zero();
                let mut cumulative = Vec::new();
                let mut values = Vec::new();
                for (v, p) in law {
                    acc += p;
                    cumulative.push(acc.to_f64().unwrap_or(1.0));
                    values.push(v.to_f64().unwrap_or(0.0));
                }
                Sampler::Discrete { cumulative, values }
            }
        }
    }
}

/// A noise law ready to draw from in `f64`.
#[derive(Debug, Clone)]
pub enum Sampler {
    /// No noise.
    None,
    /// A centred Gaussian of this standard deviation.
    Gaussian(f64),
    /// A discrete law.
    Discrete {
        /// Cumulative probabilities (the last is 1).
        cumulative: Vec<f64>,
        /// The values.
        values: Vec<f64>,
    },
}

impl Sampler {
    /// One draw.
    pub fn sample(&self, rng: &mut impl rand::Rng) -> f64 {
        use rand::RngExt;
        match self {
            Sampler::None => 0.0,
            Sampler::Gaussian(s) => {
                // Box-Muller from two uniforms, the first in (0, 1].
                let u: f64 = 1.0 - rng.random::<f64>();
                let v: f64 = rng.random::<f64>();
                s * (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
            }
            Sampler::Discrete { cumulative, values } => {
                let u: f64 = rng.random::<f64>();
                let k = cumulative
                    .partition_point(|&c| c <= u)
                    .min(values.len() - 1);
                values[k]
            }
        }
    }
}
