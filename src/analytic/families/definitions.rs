//! The three game families as [`Model`]s of the shared core: b-ary D-games, P-games and
//! N-games, with their validation.

use super::engine::{Mixture, Model, Pair, RootRule, Table, binomial, integer};
use super::tracked::Coef;
use crate::analytic::dgame::{DependenceFactors, check_unit};
use crate::error::{Error, Result};
use crate::model::Player;
use crate::numeric::number::{Probability, Scaled};

/// The largest branching factor accepted (binomial coefficients stay exact in `u64`).
pub const MAX_BRANCHING: u32 = 60;

/// The largest height accepted (cost limits are checked separately).
pub const MAX_HEIGHT: u32 = 64;

pub(crate) fn check_branching(branching: u32) -> Result<()> {
    if !(2..=MAX_BRANCHING).contains(&branching) {
        return Err(Error::invalid(
            "--branching",
            &format!("in 2..={MAX_BRANCHING}"),
            branching,
        ));
    }
    Ok(())
}

fn display<P: Probability>(value: &P) -> String {
    value
        .exact_string()
        .unwrap_or_else(|| format!("{}", value.to_f64()))
}

/// `1 - x` as a coefficient over the unit of `x`: exact in exact mode; in float modes one
/// rounding (`u |1 - x|`).
fn complement<P: Probability>(numerator: &P::Scaled, unit: &P::Scaled) -> Coef<P::Scaled> {
    let value = unit.sub(numerator);
    let u = <P::Scaled as Scaled>::UNIT_ROUNDOFF;
    let error = 1.01 * u * super::tracked::magnitude::<P>(&value);
    Coef { value, error }
}

/// A bi-valued b-ary D-game (Li & Marsland, Definition 3.1, with exchangeable children): a
/// win Max node has exactly k win children with probability `q_k` (k = 1..b), a loss Min
/// node exactly k loss children with probability `r_k`, each pattern with k such children
/// equally likely; a loss Max node has only loss children and a win Min node only win
/// children.
///
/// For b = 2 this is the paper's game with `f1 = q_2`, `f2 = r_2`
/// ([`BaryDGame::from_factors`]).
#[derive(Debug, Clone, PartialEq)]
pub struct BaryDGame<P> {
    branching: u32,
    win_max: Vec<P>,
    loss_min: Vec<P>,
}

impl<P: Probability> BaryDGame<P> {
    /// A D-game from `q = (q_1, ..., q_m)` and `r = (r_1, ..., r_n)` with `m, n <= b`
    /// (missing entries are 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::BaryDGame;
    /// use pathology::numeric::number::parse_rational;
    /// let q: Vec<_> = ["1/2", "1/4", "1/4"].iter().map(|s| parse_rational(s).unwrap()).collect();
    /// let game = BaryDGame::new(3, q.clone(), q.clone()).unwrap();
    /// assert_eq!(game.branching(), 3);
    /// assert!(BaryDGame::new(2, q.clone(), q.clone()).is_err()); // q_3 for b = 2
    /// let err = BaryDGame::new(3, q[..2].to_vec(), q).unwrap_err();
    /// assert!(err.to_string().starts_with("q must be a distribution summing to 1"));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--branching` outside `2..=60`, `q` or `r` with more
    /// than b entries, an entry outside `[0, 1]`, or entries not summing to 1 (exactly in
    /// exact mode, to within `8 b` ulps in `f64`).
    pub fn new(branching: u32, win_max: Vec<P>, loss_min: Vec<P>) -> Result<Self> {
        check_branching(branching)?;
        let check = |name: &str, values: &[P]| -> Result<Vec<P>> {
            if values.len() > branching as usize {
                return Err(Error::invalid(
                    name,
                    &format!("at most b = {branching} values ({name}_k for k = 1..=b)"),
                    format!("{} values", values.len()),
                ));
            }
            for (k, v) in values.iter().enumerate() {
                check_unit(&format!("{name}_{}", k + 1), v)?;
            }
            let sum = values.iter().fold(P::impossible(), |acc, v| acc.plus(v));
            let ok = if P::EXACT {
                sum == P::certain()
            } else {
                (sum.to_f64() - 1.0).abs() <= 8.0 * f64::from(branching) * f64::EPSILON
            };
            if !ok {
                return Err(Error::invalid(
                    name,
                    "a distribution summing to 1 over k = 1..=b favourable children",
                    display(&sum),
                ));
            }
            let mut out = values.to_vec();
            out.resize(branching as usize, P::impossible());
            Ok(out)
        };
        Ok(BaryDGame {
            branching,
            win_max: check("q", &win_max)?,
            loss_min: check("r", &loss_min)?,
        })
    }

    /// Li & Marsland's binary D-game: `q = (1 - f1, f1)`, `r = (1 - f2, f2)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::DependenceFactors;
    /// use pathology::analytic::families::BaryDGame;
    /// let game = BaryDGame::from_factors(&DependenceFactors::new(0.25, 0.5).unwrap());
    /// assert_eq!(game.win_max(), &[0.75, 0.25]);
    /// assert_eq!(game.loss_min(), &[0.5, 0.5]);
    /// ```
    pub fn from_factors(factors: &DependenceFactors<P>) -> Self {
        let one = P::certain();
        BaryDGame {
            branching: 2,
            win_max: vec![one.minus(factors.f1()), factors.f1().clone()],
            loss_min: vec![one.minus(factors.f2()), factors.f2().clone()],
        }
    }

    /// The branching factor b.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::BaryDGame;
    /// let game = BaryDGame::new(2, vec![0.5, 0.5], vec![1.0]).unwrap();
    /// assert_eq!(game.branching(), 2);
    /// ```
    pub fn branching(&self) -> u32 {
        self.branching
    }

    /// `q_1..q_b`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::BaryDGame;
    /// let game = BaryDGame::new(3, vec![1.0], vec![1.0]).unwrap();
    /// assert_eq!(game.win_max(), &[1.0, 0.0, 0.0]);
    /// ```
    pub fn win_max(&self) -> &[P] {
        &self.win_max
    }

    /// `r_1..r_b`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::BaryDGame;
    /// let game = BaryDGame::new(2, vec![1.0], vec![0.0, 1.0]).unwrap();
    /// assert_eq!(game.loss_min(), &[0.0, 1.0]);
    /// ```
    pub fn loss_min(&self) -> &[P] {
        &self.loss_min
    }

    fn table(values: &[P]) -> Table<P::Scaled> {
        let (numerators, unit) = P::common_scale(values);
        Table {
            favoured: numerators.into_iter().map(Coef::exact).collect(),
            other: Coef::exact(unit.clone()),
            unit,
        }
    }

    pub(crate) fn model(&self, height: u32) -> Model<P::Scaled> {
        let (max, min) = (Self::table(&self.win_max), Self::table(&self.loss_min));
        let tables = (0..=height)
            .map(|t| match Player::to_move_at_height(t.max(1)) {
                Player::Max => max.clone(),
                Player::Min => min.clone(),
            })
            .collect();
        let (zero, one) = (P::Scaled::zero_value(), P::Scaled::one_value());
        Model {
            branching: self.branching as usize,
            height,
            tables,
            mixture: None,
            leaves: vec![Pair {
                win: vec![zero.clone(), one.clone()],
                loss: vec![one.clone(), zero],
            }],
            leaf_denominator: one,
            leaf_error: 0.0,
            rule: RootRule::Conditional,
        }
    }
}

/// The table of joint pairs: `c_k = C(b, k)`, `c_0 = 1`.
fn binomial_table<P: Probability>(branching: u32) -> Table<P::Scaled> {
    let b = u64::from(branching);
    Table {
        favoured: (1..=b)
            .map(|k| Coef::exact(integer::<P>(binomial(b, k))))
            .collect(),
        other: Coef::exact(P::Scaled::one_value()),
        unit: P::Scaled::one_value(),
    }
}

/// A P-game (Pearl; Chi & Nau 1987, Section 2; Wilson et al. 2009, "Experiments"): every
/// square of the board is 1 with probability `p` independently. A P-game is a b-ary D-game
/// whose `q_k`, `r_k` depend on the height through the win probability of the children
/// (binomial patterns conditioned on the node's value); with `p = w_b` they do not
/// ([`PGame::pearl`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PGame<P> {
    branching: u32,
    p: P,
}

impl<P: Probability> PGame<P> {
    /// A P-game with square probability `p`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::PGame;
    /// let game = PGame::new(3, 0.5).unwrap();
    /// assert_eq!((game.branching(), *game.p()), (3, 0.5));
    /// assert!(PGame::new(1, 0.5).is_err());
    /// assert!(PGame::new(2, 1.5).unwrap_err().to_string().starts_with("--p must be in [0, 1]"));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--branching` outside `2..=60` or `--p` outside
    /// `[0, 1]`.
    pub fn new(branching: u32, p: P) -> Result<Self> {
        check_branching(branching)?;
        check_unit("--p", &p)?;
        Ok(PGame { branching, p })
    }

    /// The branching factor b.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::PGame;
    /// assert_eq!(PGame::new(2, 0.5).unwrap().branching(), 2);
    /// ```
    pub fn branching(&self) -> u32 {
        self.branching
    }

    /// The square probability p.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::PGame;
    /// assert_eq!(*PGame::new(2, 0.25).unwrap().p(), 0.25);
    /// ```
    pub fn p(&self) -> &P {
        &self.p
    }

    pub(crate) fn model(&self, height: u32) -> Model<P::Scaled> {
        let (numerators, unit) = P::common_scale(std::slice::from_ref(&self.p));
        let p = numerators[0].clone();
        let not_p = complement::<P>(&p, &unit);
        let zero = P::Scaled::zero_value();
        let table = binomial_table::<P>(self.branching);
        Model {
            branching: self.branching as usize,
            height,
            tables: vec![table; height as usize + 1],
            mixture: None,
            leaves: vec![Pair {
                win: vec![zero.clone(), p],
                loss: vec![not_p.value, zero],
            }],
            leaf_denominator: unit,
            leaf_error: not_p.error,
            rule: RootRule::Joint,
        }
    }
}

impl PGame<f64> {
    /// Pearl's level-invariant P-game, `p = w_b` ([`crate::analytic::closed_form::w_b`]): every node
    /// is a loss for the player to move with probability `w_b`, and the game is the b-ary
    /// D-game with `q_k = r_k = C(b,k) w^k (1-w)^(b-k) / (1 - w)` at every height (for b = 2,
    /// `f1 = f2 = w_2 / (2 - w_2) = sqrt 5 - 2`). `w_b` is irrational, so only `f64`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::PGame;
    /// let game = PGame::pearl(2).unwrap();
    /// assert!((game.p() - 0.381_966_011_250_105_1).abs() < 1e-15);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--branching` outside `2..=60`.
    pub fn pearl(branching: u32) -> Result<Self> {
        check_branching(branching)?;
        PGame::new(branching, crate::analytic::closed_form::w_b(branching)?)
    }
}

/// An N-game (Nau's incremental game; Wilson et al. 2009, "Experiments"): every edge of the
/// tree is +1 with probability `q`, -1 otherwise, and a square is 1 when the sum of the edges
/// on its path from the root is positive ([`crate::games::SplittingGame::n_game`]). A
/// subtree's law depends only on its height and the path sum `s` at its root, which the
/// engine carries as the state.
#[derive(Debug, Clone, PartialEq)]
pub struct NGame<P> {
    branching: u32,
    q: P,
}

impl<P: Probability> NGame<P> {
    /// An N-game with edge probability `q` (Nau and Wilson et al. use 1/2).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::NGame;
    /// let game = NGame::new(2, 0.5).unwrap();
    /// assert_eq!((game.branching(), *game.q()), (2, 0.5));
    /// assert!(NGame::new(2, -0.5).unwrap_err().to_string().starts_with("--q must be in [0, 1]"));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--branching` outside `2..=60` or `--q` outside
    /// `[0, 1]`.
    pub fn new(branching: u32, q: P) -> Result<Self> {
        check_branching(branching)?;
        check_unit("--q", &q)?;
        Ok(NGame { branching, q })
    }

    /// The branching factor b.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::NGame;
    /// assert_eq!(NGame::new(3, 0.5).unwrap().branching(), 3);
    /// ```
    pub fn branching(&self) -> u32 {
        self.branching
    }

    /// The edge probability q.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::families::NGame;
    /// assert_eq!(*NGame::new(3, 0.25).unwrap().q(), 0.25);
    /// ```
    pub fn q(&self) -> &P {
        &self.q
    }

    /// States at height t are the path sums `s = 2i - (H - t)`, `i = 0..=H - t`; a child of
    /// state i is state i (edge -1) or i + 1 (edge +1) one level down.
    pub(crate) fn model(&self, height: u32) -> Model<P::Scaled> {
        let (numerators, unit) = P::common_scale(std::slice::from_ref(&self.q));
        let q = numerators[0].clone();
        let minus = complement::<P>(&q, &unit);
        let (zero, one) = (P::Scaled::zero_value(), P::Scaled::one_value());
        let leaves = (0..=height)
            .map(|i| {
                let sum = 2 * i64::from(i) - i64::from(height);
                if sum > 0 {
                    Pair {
                        win: vec![zero.clone(), one.clone()],
                        loss: vec![zero.clone(), zero.clone()],
                    }
                } else {
                    Pair {
                        win: vec![zero.clone(), zero.clone()],
                        loss: vec![one.clone(), zero.clone()],
                    }
                }
            })
            .collect();
        let table = binomial_table::<P>(self.branching);
        Model {
            branching: self.branching as usize,
            height,
            tables: vec![table; height as usize + 1],
            mixture: Some(Mixture {
                minus,
                plus: Coef::exact(q),
                unit,
            }),
            leaves,
            leaf_denominator: one,
            leaf_error: 0.0,
            rule: RootRule::Joint,
        }
    }
}
