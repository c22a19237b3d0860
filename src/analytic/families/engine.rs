//! The shared core: distributions by height, their minimax back-up, and the root decision.
//!
//! Every family is described by a [`Model`]: at each height the nodes have a few *states*
//! (one for D- and P-games; the path sum for N-games), and a node's law is a pair of vectors
//! indexed by the evaluation `x`:
//!
//! - **conditional** pairs (D-games): `win[x] = Pr[X = x | win]`, `loss[x] = Pr[X = x | loss]`;
//! - **joint** pairs (P- and N-games): `win[x] = Pr[win, X = x]`, `loss[x] = Pr[loss, X = x]`.
//!
//! **One level** (Li & Marsland Section 6.1, generalised to b children). The children of a
//! node are independent given their merit values. Write `A`, `B` for the child's vectors
//! whose merit value is a win resp. a loss *for the player to move* (win for Max, loss for
//! Min) and `c_1..c_b` for the coefficients of the mover's table. Then the node's vectors are
//! `favoured = sum_k c_k A^k B^(b-k)` and `other = c_0 B^b`:
//!
//! - conditional (Definition 3.1 with exchangeable patterns): `c_k = q_k` (Max) or `r_k`
//!   (Min), the probability of exactly k favourable children, each pattern equally likely;
//!   `c_0 = 1`.
//! - joint: `c_k = C(b, k)`, `c_0 = 1` (children iid: some child favourable or all not).
//!
//! For the piece count the product is the convolution (the count of a node is the sum of its
//! children's counts). For the minimax back-up it is the entrywise product of CDFs at a Max
//! node (the maximum of independent values has the product of their CDFs) and of survival
//! functions `S(x) = Pr[X >= x]` at a Min node. N-games first mix the two child states
//! (edge +1 with probability q, -1 otherwise): the children are iid given the parent's path
//! sum, with the mixture law.
//!
//! **Root decision.** Ties are broken uniformly at random; equivalently every child gets an
//! independent uniform `U` and the mover takes the largest `X + U` (smallest for Min: the
//! engine reflects the axis, `Y = -X`). With `Y` continuous the probability that a given win
//! child is chosen is an integral of a product of piecewise-linear CDFs, exact in rationals:
//! on `[x, x + 1)` a CDF is linear between `F(x - 1)` and `F(x)`, and
//! `int_0^1 prod_i ((1 - s) u_i + s v_i) ds = sum_j e_j / ((m + 1) C(m, j))` with `e_j` the
//! sum over j-subsets of products of `v`s and `u`s.
//!
//! - joint (iid children): `Pr[correct] = sum_x a(x) sum_{j<b} T(x)^j T(x-1)^(b-1-j)` with `a`
//!   the pmf of a win-for-the-mover child, `T` the CDF of a child's evaluation; non-trivial
//!   roots: `Pr[correct, non-trivial] = Pr[correct] - P_win^b`, `Pr[non-trivial] = 1 -
//!   P_win^b - P_loss^b`.
//! - conditional: the root is a win for the mover with exactly k win children (k = 1..b-1,
//!   weight `c_k`); `Pr[correct | k] = k sum_x a(x) K_k(x)` with
//!   `K_k = sum_{i,l} C(k-1,i) C(b-k,l) / (b C(b-1,i+l)) A1^i A0^(k-1-i) B1^l B0^(b-k-l)`,
//!   `A1 = F_a(x)`, `A0 = F_a(x-1)`, `B` likewise for a loss child.
//!
//! **Rounding bounds** (`f64`). Each pair carries one error bound: the sup (CDFs) or L1
//! (pmfs) norm of the error of `win` and `loss` together, summed for joint pairs and the
//! larger of the two for conditional pairs. In those norms one level is Lipschitz with
//! constant `b (1 + e)^(b-1)`: the level is multilinear in the b children, and the derivative
//! with respect to one child is bounded by the product of the other children's masses (a
//! joint child has `|A| + |B| <= 1`, a conditional one `|A|, |B| <= 1` with `sum c_k = 1`).
//! The rounding of the level itself is tracked by [`super::tracked`]. Survival functions use
//! the state's mass (exact for conditional pairs; from the mass recursion, with its bound,
//! for joint pairs). The root sum `sum_x a(x) K(x)` is bounded by summation by parts:
//! `eta (|K(last)| + TV(K)) + eps_K + gamma_(n+3) sum |a K|`, with `eta` the CDF error, `TV`
//! the total variation of the computed `K` (measured) and `eps_K` the error of `K`.

use num_rational::BigRational;
use rayon::prelude::*;

use super::tracked::{Coef, Ring, Tracked, add, homogeneous, magnitude, mul, norm, scale};
use crate::cancel::CancelToken;
use crate::error::Result;
use crate::model::Player;
use crate::numeric::fft::ConvolutionMethod;
use crate::numeric::number::{Probability, Scaled};

/// How the root's children are distributed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RootRule {
    /// Conditional pairs; the root has k favourable children with weight `c_k`.
    Conditional,
    /// Joint pairs; the root's children are iid.
    Joint,
}

/// The coefficients of one height: `favoured[k - 1] = c_k`, `other = c_0`, all over `unit`.
#[derive(Debug, Clone)]
pub(crate) struct Table<S> {
    pub favoured: Vec<Coef<S>>,
    pub other: Coef<S>,
    pub unit: S,
}

/// N-games: child `i` (edge -1) with weight `minus`, child `i + 1` (edge +1) with `plus`.
#[derive(Debug, Clone)]
pub(crate) struct Mixture<S> {
    pub minus: Coef<S>,
    pub plus: Coef<S>,
    pub unit: S,
}

/// A family at one tree height, as scaled numbers.
#[derive(Debug, Clone)]
pub(crate) struct Model<S> {
    pub branching: usize,
    pub height: u32,
    /// `tables[t]` for the nodes of height t (index 0 unused).
    pub tables: Vec<Table<S>>,
    pub mixture: Option<Mixture<S>>,
    /// The pairs at height 0, one per state, over the count 0 or 1.
    pub leaves: Vec<Pair<S>>,
    pub leaf_denominator: S,
    /// The pair error of the leaves (rounding of `1 - p`).
    pub leaf_error: f64,
    pub rule: RootRule,
}

impl<S: Scaled> Model<S> {
    /// The number of states at height t.
    pub fn states(&self, t: u32) -> usize {
        match self.mixture {
            Some(_) => (self.height - t + 1) as usize,
            None => 1,
        }
    }

    fn combine_errors(&self, win: f64, loss: f64) -> f64 {
        match self.rule {
            RootRule::Conditional => win.max(loss),
            RootRule::Joint => win + loss,
        }
    }
}

/// The two vectors of a state.
#[derive(Debug, Clone)]
pub(crate) struct Pair<S> {
    pub win: Vec<S>,
    pub loss: Vec<S>,
}

/// All states of one height over one denominator, with their pair error bound.
#[derive(Debug, Clone)]
pub(crate) struct Level<S> {
    pub states: Vec<Pair<S>>,
    pub denominator: S,
    pub error: f64,
}

fn u<S: Scaled>() -> f64 {
    S::UNIT_ROUNDOFF
}

fn gamma(n: f64, u: f64) -> f64 {
    n * u / (1.0 - n * u)
}

/// `x^n` in the ring of scaled numbers.
pub(crate) fn power<S: Scaled>(x: &S, n: usize) -> S {
    (0..n).fold(S::one_value(), |acc, _| acc.mul(x))
}

/// A small non-negative integer as a scaled number.
pub(crate) fn integer<P: Probability>(n: u64) -> P::Scaled {
    let (values, _) = P::common_scale(&[P::from_rational(&BigRational::from_integer(n.into()))]);
    values[0].clone()
}

/// The binomial coefficient C(n, k).
pub(crate) fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// Mixes the two child states of every parent state (N-games), or passes the single state
/// through. Returns the mixed pairs, their denominator and pair error.
fn mix_children<P: Probability>(
    model: &Model<P::Scaled>,
    count: usize,
    children: &Level<P::Scaled>,
    ring: Ring,
) -> (Vec<Pair<P::Scaled>>, P::Scaled, f64) {
    let Some(m) = &model.mixture else {
        return (
            children.states.clone(),
            children.denominator.clone(),
            children.error,
        );
    };
    let e = children.error;
    let results: Vec<(Pair<P::Scaled>, f64)> = (0..count)
        .into_par_iter()
        .map(|i| {
            let one = |lo: &[P::Scaled], hi: &[P::Scaled]| {
                add::<P>(
                    &scale::<P>(&m.minus, &Tracked::exact(lo.to_vec()), ring),
                    &scale::<P>(&m.plus, &Tracked::exact(hi.to_vec()), ring),
                    ring,
                )
            };
            let (lo, hi) = (&children.states[i], &children.states[i + 1]);
            let win = one(&lo.win, &hi.win);
            let loss = one(&lo.loss, &hi.loss);
            let rounding = model.combine_errors(win.error, loss.error);
            (
                Pair {
                    win: win.values,
                    loss: loss.values,
                },
                rounding,
            )
        })
        .collect();
    let weights = magnitude::<P>(&m.minus.value) + magnitude::<P>(&m.plus.value);
    let deltas = m.minus.error + m.plus.error;
    let rounding = results.iter().map(|r| r.1).fold(0.0, f64::max);
    let error = if u::<P::Scaled>() == 0.0 {
        0.0
    } else {
        weights * e + deltas * e + rounding
    };
    let pairs = results.into_iter().map(|r| r.0).collect();
    (pairs, m.unit.mul(&children.denominator), error)
}

/// One level: the states of height t from the (oriented) states of height t - 1.
fn step<P: Probability>(
    model: &Model<P::Scaled>,
    t: u32,
    children: &Level<P::Scaled>,
    ring: Ring,
) -> Level<P::Scaled> {
    let b = model.branching;
    let mover = Player::to_move_at_height(t);
    let table = &model.tables[t as usize];
    let count = model.states(t);
    let (mixed, mixed_denominator, mixed_error) = mix_children::<P>(model, count, children, ring);
    let results: Vec<(Pair<P::Scaled>, f64)> = (0..count)
        .into_par_iter()
        .map(|i| {
            let child = &mixed[i];
            let (a, other) = match mover {
                Player::Max => (&child.win, &child.loss),
                Player::Min => (&child.loss, &child.win),
            };
            let (fav, oth) = homogeneous::<P>(&table.favoured, &table.other, a, other, ring);
            let rounding = model.combine_errors(fav.error, oth.error);
            let pair = match mover {
                Player::Max => Pair {
                    win: fav.values,
                    loss: oth.values,
                },
                Player::Min => Pair {
                    win: oth.values,
                    loss: fav.values,
                },
            };
            (pair, rounding)
        })
        .collect();
    let error = if u::<P::Scaled>() == 0.0 {
        0.0
    } else {
        let propagated = b as f64 * (1.0 + mixed_error).powi(b as i32 - 1) * mixed_error;
        propagated + results.iter().map(|r| r.1).fold(0.0, f64::max)
    };
    Level {
        states: results.into_iter().map(|r| r.0).collect(),
        denominator: table.unit.mul(&power(&mixed_denominator, b)),
        error,
    }
}

/// The leaves' pmfs (over the count 0 or 1).
pub(crate) fn leaf_level<S: Scaled>(model: &Model<S>) -> Level<S> {
    Level {
        states: model.leaves.clone(),
        denominator: model.leaf_denominator.clone(),
        error: model.leaf_error,
    }
}

/// The pmfs of the piece count at heights `0..=top`, checking `cancel` before each level.
pub(crate) fn count_levels<P: Probability>(
    model: &Model<P::Scaled>,
    top: u32,
    method: ConvolutionMethod,
    cancel: &CancelToken,
) -> Result<Vec<Level<P::Scaled>>> {
    let mut levels = vec![leaf_level(model)];
    for t in 1..=top {
        cancel.check()?;
        let next = step::<P>(model, t, &levels[t as usize - 1], Ring::Convolution(method));
        levels.push(next);
    }
    Ok(levels)
}

/// The merit-value masses (`Pr[win]`, `Pr[loss]` as one-entry vectors) at heights `0..=top`:
/// the count recursion with every count collapsed to one value, checking `cancel` before
/// each level.
pub(crate) fn mass_levels<P: Probability>(
    model: &Model<P::Scaled>,
    top: u32,
    cancel: &CancelToken,
) -> Result<Vec<Level<P::Scaled>>> {
    let collapse =
        |v: &[P::Scaled]| vec![v.iter().fold(P::Scaled::zero_value(), |acc, x| acc.add(x))];
    let leaves = leaf_level(model);
    let mut levels = vec![Level {
        states: leaves
            .states
            .iter()
            .map(|p| Pair {
                win: collapse(&p.win),
                loss: collapse(&p.loss),
            })
            .collect(),
        denominator: leaves.denominator,
        error: leaves.error,
    }];
    for t in 1..=top {
        cancel.check()?;
        let next = step::<P>(
            model,
            t,
            &levels[t as usize - 1],
            Ring::Convolution(ConvolutionMethod::Direct),
        );
        levels.push(next);
    }
    Ok(levels)
}

/// The artificial evaluator's pmfs at a front of height >= 1: the true value, read wrongly
/// with probability `e`: a win node's evaluation is 0 with probability e, 1 otherwise.
pub(crate) fn artificial_front<P: Probability>(
    masses: &Level<P::Scaled>,
    wrong: &Coef<P::Scaled>,
    right: &Coef<P::Scaled>,
    unit: &P::Scaled,
) -> Level<P::Scaled> {
    let states = masses
        .states
        .iter()
        .map(|m| Pair {
            win: vec![m.win[0].mul(&wrong.value), m.win[0].mul(&right.value)],
            loss: vec![m.loss[0].mul(&right.value), m.loss[0].mul(&wrong.value)],
        })
        .collect();
    let u = u::<P::Scaled>();
    let error = if u == 0.0 {
        0.0
    } else {
        let weights = magnitude::<P>(&wrong.value) + magnitude::<P>(&right.value);
        let e = masses.error;
        // Per vector: weights e + deltas (mass + e) + two roundings; masses are <= 1 + e, and
        // the two vectors of a pair together count at most twice.
        2.0 * (weights * e + (wrong.error + right.error) * (1.0 + e))
            + 4.04 * u * weights * (1.0 + e)
    };
    Level {
        states,
        denominator: unit.mul(&masses.denominator),
        error,
    }
}

/// Prefix sums by recursive summation.
fn prefix_sums<S: Scaled>(v: &[S]) -> Vec<S> {
    let mut acc = S::zero_value();
    v.iter()
        .map(|x| {
            acc = acc.add(x);
            acc.clone()
        })
        .collect()
}

/// `S(x) = total - F(x - 1)`, `S(0) = total`.
fn survival<S: Scaled>(cdf: &[S], total: &S) -> Vec<S> {
    (0..cdf.len())
        .map(|i| {
            if i == 0 {
                total.clone()
            } else {
                total.sub(&cdf[i - 1])
            }
        })
        .collect()
}

/// `F(x) = total - S(x + 1)`, `F(last) = total`.
fn cdf_from_survival<S: Scaled>(survival: &[S], total: &S) -> Vec<S> {
    let n = survival.len();
    (0..n)
        .map(|i| {
            if i + 1 == n {
                total.clone()
            } else {
                total.sub(&survival[i + 1])
            }
        })
        .collect()
}

/// The masses of every state of `level` (CDFs: the last entries; survival functions
/// (`survivals`): the first; exact, and what exact mode uses), or in float modes those of the
/// mass recursion with their bound; conditional pairs have mass exactly the denominator.
/// The masses `(win, loss)` of every state and their error bound.
type Totals<S> = (Vec<(S, S)>, f64);

/// A conversion between CDFs and survival functions given the total.
type Conversion<S> = fn(&[S], &S) -> Vec<S>;

fn totals<P: Probability>(
    model: &Model<P::Scaled>,
    level: &Level<P::Scaled>,
    masses: &Level<P::Scaled>,
    survivals: bool,
) -> Totals<P::Scaled> {
    let mass = |v: &[P::Scaled]| {
        if survivals {
            v[0].clone()
        } else {
            v.last().expect("non-empty").clone()
        }
    };
    match model.rule {
        RootRule::Conditional => (
            level
                .states
                .iter()
                .map(|_| (level.denominator.clone(), level.denominator.clone()))
                .collect(),
            0.0,
        ),
        RootRule::Joint if u::<P::Scaled>() == 0.0 => (
            level
                .states
                .iter()
                .map(|p| (mass(&p.win), mass(&p.loss)))
                .collect(),
            0.0,
        ),
        RootRule::Joint => (
            masses
                .states
                .iter()
                .map(|p| (p.win[0].clone(), p.loss[0].clone()))
                .collect(),
            masses.error,
        ),
    }
}

/// Converts every pair of `level` with `convert` and the states' totals.
fn convert<P: Probability>(
    model: &Model<P::Scaled>,
    level: &Level<P::Scaled>,
    totals: &Totals<P::Scaled>,
    convert: Conversion<P::Scaled>,
) -> Level<P::Scaled> {
    let states: Vec<Pair<P::Scaled>> = level
        .states
        .iter()
        .zip(&totals.0)
        .map(|(p, (tw, tl))| Pair {
            win: convert(&p.win, tw),
            loss: convert(&p.loss, tl),
        })
        .collect();
    let u = u::<P::Scaled>();
    let error = if u == 0.0 {
        0.0
    } else {
        let rounding = states
            .iter()
            .map(|p| {
                model.combine_errors(
                    1.01 * u * norm::<P>(&p.win, Ring::Entrywise),
                    1.01 * u * norm::<P>(&p.loss, Ring::Entrywise),
                )
            })
            .fold(0.0, f64::max);
        level.error + totals.1 + rounding
    };
    Level {
        states,
        denominator: level.denominator.clone(),
        error,
    }
}

/// The CDFs of the minimax values backed up from the front `front` (pmfs) to height `top`,
/// checking `cancel` before each level.
pub(crate) fn back_up<P: Probability>(
    model: &Model<P::Scaled>,
    front: &Level<P::Scaled>,
    front_height: u32,
    top: u32,
    masses: &[Level<P::Scaled>],
    cancel: &CancelToken,
) -> Result<Level<P::Scaled>> {
    let u = u::<P::Scaled>();
    let mut cdf = Level {
        states: front
            .states
            .iter()
            .map(|p| Pair {
                win: prefix_sums(&p.win),
                loss: prefix_sums(&p.loss),
            })
            .collect(),
        denominator: front.denominator.clone(),
        error: 0.0,
    };
    cdf.error = if u == 0.0 {
        0.0
    } else {
        let n = front.states[0].win.len() as f64;
        let mass = front
            .states
            .iter()
            .map(|p| {
                model.combine_errors(
                    norm::<P>(&p.win, Ring::Convolution(ConvolutionMethod::Direct)),
                    norm::<P>(&p.loss, Ring::Convolution(ConvolutionMethod::Direct)),
                )
            })
            .fold(0.0, f64::max);
        front.error + gamma(n + 1.0, u) * mass
    };
    for t in front_height + 1..=top {
        cancel.check()?;
        cdf = match Player::to_move_at_height(t) {
            Player::Max => step::<P>(model, t, &cdf, Ring::Entrywise),
            Player::Min => {
                let below = totals::<P>(model, &cdf, &masses[t as usize - 1], false);
                let survivals = convert::<P>(model, &cdf, &below, survival);
                let parent = step::<P>(model, t, &survivals, Ring::Entrywise);
                let here = totals::<P>(model, &parent, &masses[t as usize], true);
                convert::<P>(model, &parent, &here, cdf_from_survival)
            }
        };
    }
    Ok(cdf)
}

/// `sum_x a(x) K(x)` with `a(x) = F(x) - F(x - 1)`, and its error bound by summation by
/// parts given the sup error `eta` of `F` and `eps_k` of `K` (`||a||_1 <= 1`).
fn stieltjes_sum<P: Probability>(
    cdf: &[P::Scaled],
    k: &[P::Scaled],
    eta: f64,
    eps_k: f64,
) -> (P::Scaled, f64) {
    let mut sum = P::Scaled::zero_value();
    let zero = P::Scaled::zero_value();
    let mut absolute = 0.0;
    let u = u::<P::Scaled>();
    for x in 0..cdf.len() {
        let previous = if x == 0 { &zero } else { &cdf[x - 1] };
        let a = cdf[x].sub(previous);
        if a.is_zero_value() {
            continue;
        }
        if u > 0.0 {
            absolute += magnitude::<P>(&a) * magnitude::<P>(&k[x]);
        }
        sum.add_product(&a, &k[x]);
    }
    if u == 0.0 {
        return (sum, 0.0);
    }
    let n = cdf.len() as f64;
    let last = magnitude::<P>(k.last().expect("non-empty"));
    let variation: f64 = k
        .windows(2)
        .map(|w| magnitude::<P>(&w[1].sub(&w[0])))
        .sum::<f64>()
        * (1.0 + 2.0 * gamma(n + 2.0, u));
    let bound = eta * (last + variation) + (1.0 + eta) * eps_k + gamma(n + 3.0, u) * absolute;
    (sum, bound * (1.0 + 1e-6))
}

fn shifted<S: Scaled>(v: &[S]) -> Vec<S> {
    let mut out = Vec::with_capacity(v.len());
    out.push(S::zero_value());
    out.extend_from_slice(&v[..v.len() - 1]);
    out
}

/// `D(d,h)` as `(value, bound)` from the CDFs of the root's children, or `None` when
/// non-trivial roots have probability 0. Also returns `Pr[non-trivial]` (joint) or the
/// weight of non-trivial patterns (conditional).
pub(crate) fn root_decision<P: Probability>(
    model: &Model<P::Scaled>,
    cdf: &Level<P::Scaled>,
    masses: &Level<P::Scaled>,
) -> Option<(P, f64, P)> {
    let b = model.branching;
    let height = model.height;
    let mover = Player::to_move_at_height(height);
    let count = 1;
    // The law of one child of the root (N-games: the mixture over the first edge).
    let (child, child_masses) = match &model.mixture {
        None => (cdf.clone(), masses.clone()),
        Some(_) => {
            let (pairs, denominator, error) = mix_children::<P>(model, count, cdf, Ring::Entrywise);
            let (mass_pairs, mass_denominator, mass_error) = mix_children::<P>(
                model,
                count,
                masses,
                Ring::Convolution(ConvolutionMethod::Direct),
            );
            (
                Level {
                    states: pairs,
                    denominator,
                    error,
                },
                Level {
                    states: mass_pairs,
                    denominator: mass_denominator,
                    error: mass_error,
                },
            )
        }
    };
    // Orient: the mover takes the largest Y (Y = X for Max, -X for Min).
    let (mover_win, mover_loss, eta) = match mover {
        Player::Max => (
            child.states[0].win.clone(),
            child.states[0].loss.clone(),
            child.error,
        ),
        Player::Min => {
            let t = totals::<P>(model, &child, &child_masses, false);
            let s = convert::<P>(model, &child, &t, survival);
            let reverse = |v: &[P::Scaled]| v.iter().rev().cloned().collect::<Vec<_>>();
            (
                reverse(&s.states[0].loss),
                reverse(&s.states[0].win),
                s.error,
            )
        }
    };
    let denominator = &child.denominator;
    let u = u::<P::Scaled>();
    let one = Coef::exact(P::Scaled::one_value());
    match model.rule {
        RootRule::Joint => {
            let total = add::<P>(
                &Tracked::exact(mover_win.clone()),
                &Tracked::exact(mover_loss.clone()),
                Ring::Entrywise,
            );
            let eta_t = eta + total.error;
            let before = shifted(&total.values);
            let ones = vec![one.clone(); b - 1];
            let (fav, oth) = homogeneous::<P>(&ones, &one, &total.values, &before, Ring::Entrywise);
            let k = add::<P>(&fav, &oth, Ring::Entrywise);
            let bf = b as f64;
            let eps_k = if u == 0.0 {
                0.0
            } else {
                bf * (bf - 1.0) * (1.0 + eta_t).powi(b as i32 - 2) * eta_t + k.error
            };
            let (sum, sum_error) = stieltjes_sum::<P>(&mover_win, &k.values, eta, eps_k);
            let p_win = power(mover_win.last().expect("non-empty"), b);
            let p_loss = power(mover_loss.last().expect("non-empty"), b);
            let all = power(denominator, b);
            let numerator = sum.sub(&p_win);
            let nontrivial = all.sub(&p_win).sub(&p_loss);
            if nontrivial.is_zero_value() {
                return None;
            }
            let power_error = if u == 0.0 {
                0.0
            } else {
                bf * (1.0 + eta).powi(b as i32 - 1) * eta + gamma(bf + 1.0, u)
            };
            let numerator_error = sum_error + power_error + 1.01 * u * 2.0;
            let nontrivial_error = 2.0 * power_error + 1.01 * u * 3.0;
            let (value, bound) =
                ratio::<P>(&numerator, numerator_error, &nontrivial, nontrivial_error);
            Some((value, bound, P::from_scaled(&nontrivial, &all)))
        }
        RootRule::Conditional => {
            let table = &model.tables[height as usize];
            let (a1, a0) = (mover_win.clone(), shifted(&mover_win));
            let (b1, b0) = (mover_loss.clone(), shifted(&mover_loss));
            let powers = |v: &[P::Scaled]| {
                let base = Tracked::exact(v.to_vec());
                let mut out = vec![Tracked::exact(vec![P::Scaled::one_value(); v.len()])];
                for _ in 1..b {
                    let next = mul::<P>(out.last().expect("non-empty"), &base, Ring::Entrywise);
                    out.push(next);
                }
                out
            };
            let (pa1, pa0, pb1, pb0) = (powers(&a1), powers(&a0), powers(&b1), powers(&b0));
            // Tie weights of every k over one denominator.
            let mut keys = Vec::new();
            let mut weights = Vec::new();
            for k in 1..b {
                for i in 0..k {
                    for l in 0..=b - k {
                        let w = BigRational::new(
                            (binomial(k as u64 - 1, i as u64) * binomial((b - k) as u64, l as u64))
                                .into(),
                            (b as u64 * binomial(b as u64 - 1, (i + l) as u64)).into(),
                        );
                        keys.push((k, i, l));
                        weights.push(P::from_rational(&w));
                    }
                }
            }
            let (weight_values, weight_unit) = P::common_scale(&weights);
            let bf = b as f64;
            let mut numerator = P::Scaled::zero_value();
            let mut numerator_error = 0.0;
            let mut nontrivial = P::Scaled::zero_value();
            let mut nontrivial_error = 0.0;
            let all_zero = (1..b).all(|k| table.favoured[k - 1].value.is_zero_value());
            for k in 1..b {
                let c = if all_zero && b == 2 {
                    Coef::exact(table.unit.clone())
                } else {
                    table.favoured[k - 1].clone()
                };
                if c.value.is_zero_value() {
                    continue;
                }
                let mut kk = Tracked::exact(vec![P::Scaled::zero_value(); a1.len()]);
                for (key, w) in keys.iter().zip(&weight_values) {
                    let &(kk_, i, l) = key;
                    if kk_ != k {
                        continue;
                    }
                    let term = mul::<P>(
                        &mul::<P>(&pa1[i], &pa0[k - 1 - i], Ring::Entrywise),
                        &mul::<P>(&pb1[l], &pb0[b - k - l], Ring::Entrywise),
                        Ring::Entrywise,
                    );
                    let weight = Coef {
                        value: w.clone(),
                        error: 1.01 * u * magnitude::<P>(w),
                    };
                    kk = add::<P>(
                        &kk,
                        &scale::<P>(&weight, &term, Ring::Entrywise),
                        Ring::Entrywise,
                    );
                }
                let eps_k = if u == 0.0 {
                    0.0
                } else {
                    (bf - 1.0) * (1.0 + eta).powi(b as i32 - 2) * eta + kk.error
                };
                let (sum, sum_error) = stieltjes_sum::<P>(&a1, &kk.values, eta, eps_k);
                let factor = c.value.mul(&integer::<P>(k as u64));
                numerator = numerator.add(&sum.mul(&factor));
                nontrivial = nontrivial.add(&c.value);
                if u > 0.0 {
                    let f = magnitude::<P>(&factor);
                    numerator_error += f * sum_error
                        + c.error * k as f64 * (magnitude::<P>(&sum) + sum_error)
                        + 2.02 * u * f * (magnitude::<P>(&sum) + sum_error);
                    nontrivial_error += c.error + 1.01 * u * magnitude::<P>(&nontrivial);
                }
            }
            if nontrivial.is_zero_value() {
                return None;
            }
            let scale_all = weight_unit.mul(&power(denominator, b));
            let (value, bound) = ratio::<P>(
                &numerator,
                numerator_error,
                &nontrivial.mul(&scale_all),
                nontrivial_error,
            );
            Some((value, bound, P::from_scaled(&nontrivial, &table.unit)))
        }
    }
}

/// `numerator / denominator` and the bound `(e_N + |D| e_G) / (G - e_G) + u |D|`.
fn ratio<P: Probability>(
    numerator: &P::Scaled,
    numerator_error: f64,
    denominator: &P::Scaled,
    denominator_error: f64,
) -> (P, f64) {
    let value = P::from_scaled(numerator, denominator);
    let u = u::<P::Scaled>();
    if u == 0.0 {
        return (value, 0.0);
    }
    let d = value.to_f64().abs();
    let g = magnitude::<P>(denominator) - denominator_error;
    let bound = if g > 0.0 {
        ((numerator_error + d * denominator_error) / g + 1.01 * u * d) * (1.0 + 1e-6)
    } else {
        f64::INFINITY
    };
    (value, bound)
}
