//! Multi-valued P-games: leaf values i.i.d. from a finite distribution, interior values by
//! minimax, evaluations at the frontier drawn from `E_v`.
//!
//! Conventions of [`crate::model`]: a complete b-ary tree of height h, heights counted from
//! the leaves, odd heights are Max nodes (the player who moves last is Max); the frontier of
//! a depth-d search is at height `h - d`; leaves are evaluated exactly.
//!
//! **Back-up.** For a threshold `v_j` (`j = 0..g-2`, between the j-th and the next value)
//! the engine carries the joint CDFs in the evaluation `x` of the pair (is `T > v_j`, `E`):
//! `W_j(x) = P(T > v_j, E <= x)`, `L_j(x) = P(T <= v_j, E <= x)`, and the masses
//! `m_j = P(T > v_j)`, `c_j = 1 - m_j`. Children are i.i.d.; at a Max node `T' > v` iff some
//! child's `T > v`, and `E' <= x` iff every child's `E <= x`, so
//!
//! `L_j' = L_j^b`, `W_j' = sum_{k>=1} C(b,k) W_j^k L_j^(b-k)` (the joint CDF `F(v, x) =
//! P(T <= v, E <= x)` of the parent is the b-th power of the child's);
//!
//! at a Min node the same holds for the strict survival functions `P(T > v, E > x) = m - W`
//! and `P(T <= v, E > x) = c - L` with the roles of the two events swapped. In `f64` every
//! level is subtraction-free (the conversions between CDF and survival are the only
//! differences, one per entry and level).
//!
//! **Root decision.** With the root's mover oriented to maximise (Min: both axes reversed),
//! `F(i, y) = P(T <= v_i, Y <= y)` and `q` its pmf, the probability that the move chosen by
//! depth-d minimax (uniform among ties) has the root's true value is, by symmetry over the b
//! i.i.d. children and the binomial sum over the tied ones,
//!
//! `P(optimal) = sum_{i,y} q(i,y) sum_{j<b} F(i,y)^j F(i,y-1)^(b-1-j)`.
//!
//! A root is **non-trivial** when its children do not all have the same true value
//! (`1 - sum_i P(T = v_i)^b`); `D(d,h) = (P(optimal) - sum_i P(T = v_i)^b) / (1 - sum_i
//! P(T = v_i)^b)`. The **expected loss** is `E[value(root) - value(chosen child)]` from the
//! mover's point of view (Max: `V_root - V_chosen`, Min: `V_chosen - V_root`; never
//! negative, in the leaves' value units, trivial roots counting 0), with `E[V_chosen] =
//! sum_{i,y} v_i q(i,y) sum_{j<b} G(y)^j G(y-1)^(b-1-j)` (`G` the evaluation's CDF).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;

use super::arith::{Count, Ends, Semiring, map_entries, power, sub_down, sub_up};
use super::evaluation::{Cdfs, Law, rational};
use super::{Value, check_branching, check_height};
use crate::error::{Error, Result};
use crate::numeric::enclosure::{Enclosure, Ring};
use crate::numeric::number::{Probability, parse_rational};

/// The largest height accepted (costs are checked separately).
pub const MAX_PGAME_HEIGHT: u32 = 1000;

/// A multi-valued P-game (module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct MultiValuedPGame<P> {
    branching: u32,
    height: u32,
    values: Vec<BigRational>,
    probabilities: Vec<P>,
}

/// Parses a leaf distribution `v1:p1,v2:p2,...` (values and probabilities as decimals or
/// fractions, exactly).
///
/// # Examples
///
/// ```
/// use pathology::analytic::distributions::parse_leaves;
/// let leaves = parse_leaves("1:0.4,-1:0.6").unwrap();
/// assert_eq!(leaves.len(), 2);
/// assert!(parse_leaves("1:0.5,0:0.4").unwrap_err().to_string().contains("summing to exactly 1"));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--leaves` for an item that is not `value:probability`,
/// a repeated value, a probability outside `[0, 1]`, or probabilities not summing to exactly
/// 1.
pub fn parse_leaves(text: &str) -> Result<Vec<(BigRational, BigRational)>> {
    let mut out: Vec<(BigRational, BigRational)> = Vec::new();
    for item in text.split(',') {
        let allowed = "items value:probability (like 1:0.4,-1:0.6)";
        let bad = || Error::invalid("--leaves", allowed, item.trim());
        let number = |t: &str| {
            parse_rational(t)
                .map_err(|e| Error::invalid("--leaves", &format!("{allowed}; {e}"), item.trim()))
        };
        let (v, p) = item.split_once(':').ok_or_else(bad)?;
        let (v, p) = (number(v)?, number(p)?);
        if out.iter().any(|(w, _)| *w == v) {
            return Err(Error::invalid("--leaves", "distinct values", item.trim()));
        }
        out.push((v, p));
    }
    let sum: BigRational = out.iter().map(|(_, p)| p.clone()).sum();
    if !sum.is_one() {
        return Err(Error::invalid(
            "--leaves",
            "probabilities summing to exactly 1",
            format!("a sum of {sum}"),
        ));
    }
    Ok(out)
}

impl<P: Probability> MultiValuedPGame<P> {
    /// A game of branching factor b and height h whose leaves take `value` with
    /// `probability` (any order; exact mode: summing to exactly 1; `f64`: to within
    /// `8 g` ulps, and the engine uses the doubles divided by their exact sum).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::{MultiValuedPGame, parse_leaves};
    /// let leaves = parse_leaves("0:0.25,1:0.5,2:0.25").unwrap();
    /// let game = MultiValuedPGame::new(2, 6, leaves).unwrap();
    /// assert_eq!(game.values().len(), 3);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--branching` outside `2..=60`, `--height` outside
    /// `1..=1000`, or `--leaves` with fewer than two values of positive probability, a
    /// probability outside `[0, 1]`, a repeated value, or probabilities not summing to 1.
    pub fn new(branching: u32, height: u32, leaves: Vec<(BigRational, P)>) -> Result<Self> {
        check_branching(branching)?;
        check_height(height, MAX_PGAME_HEIGHT)?;
        let mut leaves = leaves;
        leaves.sort_by(|a, b| a.0.cmp(&b.0));
        if leaves.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(Error::invalid(
                "--leaves",
                "distinct values",
                "a repeated value",
            ));
        }
        for (_, p) in &leaves {
            crate::analytic::dgame::check_unit("--leaves", p)?;
        }
        let sum = leaves
            .iter()
            .fold(P::impossible(), |acc, (_, p)| acc.plus(p));
        let ok = if P::EXACT {
            sum == P::certain()
        } else {
            (sum.to_f64() - 1.0).abs() <= 8.0 * leaves.len() as f64 * f64::EPSILON
        };
        if !ok {
            return Err(Error::invalid(
                "--leaves",
                "probabilities summing to exactly 1",
                format!("a sum of {}", sum.to_f64()),
            ));
        }
        let positive = leaves.iter().filter(|(_, p)| p.to_f64() > 0.0).count();
        if positive < 2 {
            return Err(Error::invalid(
                "--leaves",
                "at least two values of positive probability (else no root has a non-optimal move)",
                format!("{positive}"),
            ));
        }
        let (values, probabilities) = leaves.into_iter().unzip();
        Ok(MultiValuedPGame {
            branching,
            height,
            values,
            probabilities,
        })
    }

    /// Today's P-game: values +1 (Max wins) with probability p and -1 otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::MultiValuedPGame;
    /// let game = MultiValuedPGame::win_loss(2, 8, 0.4).unwrap();
    /// assert_eq!(game.probabilities(), &[0.6, 0.4]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`MultiValuedPGame::new`].
    pub fn win_loss(branching: u32, height: u32, p: P) -> Result<Self> {
        let q = P::certain().minus(&p);
        Self::new(
            branching,
            height,
            vec![
                (BigRational::from_integer(1.into()), p),
                (-BigRational::from_integer(1.into()), q),
            ],
        )
    }

    /// The branching factor b.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::MultiValuedPGame;
    /// assert_eq!(MultiValuedPGame::win_loss(3, 8, 0.5).unwrap().branching(), 3);
    /// ```
    pub fn branching(&self) -> u32 {
        self.branching
    }

    /// The height h.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::MultiValuedPGame;
    /// assert_eq!(MultiValuedPGame::win_loss(3, 8, 0.5).unwrap().height(), 8);
    /// ```
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The leaf values, ascending.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::MultiValuedPGame;
    /// let game = MultiValuedPGame::win_loss(2, 4, 0.5).unwrap();
    /// assert!(game.values()[0] < game.values()[1]);
    /// ```
    pub fn values(&self) -> &[BigRational] {
        &self.values
    }

    /// The leaf probabilities, in the order of [`MultiValuedPGame::values`].
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::MultiValuedPGame;
    /// assert_eq!(MultiValuedPGame::win_loss(2, 4, 0.25).unwrap().probabilities(), &[0.75, 0.25]);
    /// ```
    pub fn probabilities(&self) -> &[P] {
        &self.probabilities
    }

    /// The leaf probabilities as exact rationals summing to 1 (`f64`: divided by their sum).
    pub(crate) fn exact_probabilities(&self) -> Result<Vec<BigRational>> {
        let raw: Vec<BigRational> = self
            .probabilities
            .iter()
            .map(|p| rational(p, "--leaves"))
            .collect::<Result<_>>()?;
        let sum: BigRational = raw.iter().cloned().sum();
        Ok(raw.into_iter().map(|p| p / &sum).collect())
    }
}

/// `(favoured', other')` of one level: `favoured' = sum_{k>=1} C(b,k) A^k B^(b-k)`,
/// `other' = B^b` (exact: `(A + B)^b - B^b`; float: a subtraction-free Horner scheme).
fn kernel<S: Semiring>(a: &S, b_: &S, b: usize) -> (S, S) {
    if S::EXACT {
        let other = power(b_, b);
        (power(&a.add(b_), b).sub(&other), other)
    } else {
        let mut powers = vec![S::one()];
        for k in 1..b {
            powers.push(powers[k - 1].mul(b_));
        }
        // h = sum_{j=0}^{b-1} C(b, j+1) A^j B^(b-1-j), by Horner in A.
        let mut h = S::one();
        for j in (0..b - 1).rev() {
            let c = S::integer(super::arith::binomial(b as u64, j as u64 + 1));
            h = h.mul(a).add(&c.mul(&powers[b - 1 - j]));
        }
        (a.mul(&h), powers[b - 1].mul(b_))
    }
}

/// The rounding counts of [`kernel`] in `f64`.
fn kernel_counts(b: usize) -> (u32, u32) {
    let (f, o) = kernel(&Count(0), &Count(0), b);
    (f.0, o.0)
}

/// Exact state of one height: per threshold the two vectors and masses, over `denominator`.
#[derive(Debug, Clone)]
struct ExactState {
    w: Vec<Vec<BigInt>>,
    l: Vec<Vec<BigInt>>,
    m: Vec<BigInt>,
    c: Vec<BigInt>,
    denominator: BigInt,
    survival: bool,
}

/// Float state: enclosures.
#[derive(Debug, Clone)]
struct FloatState {
    w: Vec<Ends>,
    l: Vec<Ends>,
    m: Ends,
    c: Ends,
    survival: bool,
}

/// The masses `(m_j, c_j) = (P(T > v_j), P(T <= v_j))` at heights `0..=top`, exactly,
/// with their denominators.
pub(crate) fn exact_masses(
    probabilities: &[BigRational],
    b: usize,
    top: u32,
) -> Vec<(Vec<BigInt>, Vec<BigInt>, BigInt)> {
    let (numerators, denominator) = BigRational::common_scale(probabilities);
    let g = probabilities.len();
    let c: Vec<BigInt> = (0..g - 1).map(|j| numerators[..=j].iter().sum()).collect();
    let m: Vec<BigInt> = c.iter().map(|x| &denominator - x).collect();
    let mut out = vec![(m, c, denominator)];
    for t in 1..=top {
        let (m, c, d) = out.last().expect("leaves");
        let max = t % 2 == 1;
        let (m2, c2): (Vec<BigInt>, Vec<BigInt>) = (0..g - 1)
            .map(|j| {
                if max {
                    kernel(&m[j], &c[j], b)
                } else {
                    let (c2, m2) = kernel(&c[j], &m[j], b);
                    (m2, c2)
                }
            })
            .unzip();
        let d2 = num_traits::pow(d.clone(), b);
        out.push((m2, c2, d2));
    }
    out
}

/// The masses at heights `0..=top`, enclosed.
fn float_masses(probabilities: &[BigRational], b: usize, top: u32) -> Vec<(Ends, Ends)> {
    let g = probabilities.len();
    let enclose = |x: &BigRational| Enclosure::of(x);
    let c: Vec<Enclosure> = (0..g - 1)
        .map(|j| enclose(&probabilities[..=j].iter().cloned().sum()))
        .collect();
    let m: Vec<Enclosure> = (0..g - 1)
        .map(|j| enclose(&probabilities[j + 1..].iter().cloned().sum()))
        .collect();
    let ends = |v: &[Enclosure]| Ends {
        lo: v.iter().map(|e| e.lower).collect(),
        hi: v.iter().map(|e| e.upper).collect(),
    };
    let mut out = vec![(ends(&m), ends(&c))];
    let (kf, ko) = kernel_counts(b);
    for t in 1..=top {
        let (m, c) = out.last().expect("leaves");
        let max = t % 2 == 1;
        let run = |fav: &Ends, oth: &Ends| {
            let lo: (Vec<f64>, Vec<f64>) = (0..g - 1)
                .map(|j| kernel(&fav.lo[j], &oth.lo[j], b))
                .unzip();
            let hi: (Vec<f64>, Vec<f64>) = (0..g - 1)
                .map(|j| kernel(&fav.hi[j], &oth.hi[j], b))
                .unzip();
            (
                Ends::widen(lo.0, hi.0, kf, 1.0),
                Ends::widen(lo.1, hi.1, ko, 1.0),
            )
        };
        let next = if max {
            run(m, c)
        } else {
            let (c2, m2) = run(c, m);
            (m2, c2)
        };
        out.push(next);
    }
    out
}

/// The oriented joint CDF of the root's children and the root's quantities, in a ring.
pub(crate) trait RootRing: Clone + Send + Sync {
    fn zero() -> Self;
    fn one() -> Self;
    fn add(&self, o: &Self) -> Self;
    fn sub(&self, o: &Self) -> Self;
    fn mul(&self, o: &Self) -> Self;
}

impl RootRing for BigInt {
    fn zero() -> Self {
        BigInt::from(0)
    }
    fn one() -> Self {
        BigInt::from(1)
    }
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    fn mul(&self, o: &Self) -> Self {
        crate::numeric::number::Scaled::mul(self, o)
    }
}

impl RootRing for Enclosure {
    fn zero() -> Self {
        Enclosure::point(0.0)
    }
    fn one() -> Self {
        <Enclosure as Ring>::one()
    }
    fn add(&self, o: &Self) -> Self {
        Ring::add(self, o)
    }
    fn sub(&self, o: &Self) -> Self {
        Ring::sub(self, o)
    }
    fn mul(&self, o: &Self) -> Self {
        Ring::mul(self, o)
    }
}

/// `(P(optimal), P(trivial), E[V_root], E[V_chosen])` from the oriented joint CDF `f[i][y]`
/// (`i = g - 1`: the evaluation's marginal) and the oriented values (module docs); in the
/// exact ring the results are over `D^b` (`values` already scaled).
pub(crate) fn root_quantities<R: RootRing>(f: &[Vec<R>], values: &[R], b: usize) -> (R, R, R, R) {
    let g = f.len();
    let n = f[0].len();
    let zero = R::zero();
    let at = |i: isize, y: isize| -> &R {
        if i < 0 || y < 0 {
            &zero
        } else {
            &f[i as usize][y as usize]
        }
    };
    let k_of = |f1: &R, f0: &R| {
        // sum_{j<b} f1^j f0^(b-1-j) by Horner: h = h f1 + f0^(j)...
        let mut h = R::one();
        let mut p0 = R::one();
        for _ in 1..b {
            p0 = p0.mul(f0);
            h = h.mul(f1).add(&p0);
        }
        h
    };
    let rows: Vec<(R, R)> = map_entries::<BigInt, (R, R)>(g, |i| {
        let mut correct = R::zero();
        let mut chosen = R::zero();
        for y in 0..n {
            let (ii, yy) = (i as isize, y as isize);
            let q = at(ii, yy)
                .sub(at(ii - 1, yy))
                .sub(at(ii, yy - 1))
                .add(at(ii - 1, yy - 1));
            correct = correct.add(&q.mul(&k_of(at(ii, yy), at(ii, yy - 1))));
            let kg = k_of(at(g as isize - 1, yy), at(g as isize - 1, yy - 1));
            chosen = chosen.add(&values[i].mul(&q.mul(&kg)));
        }
        (correct, chosen)
    });
    let mut correct = R::zero();
    let mut chosen = R::zero();
    for (c, e) in &rows {
        correct = correct.add(c);
        chosen = chosen.add(e);
    }
    let mut trivial = R::zero();
    let mut root_value = R::zero();
    let last = n as isize - 1;
    for (i, value) in values.iter().enumerate().take(g) {
        let ii = i as isize;
        let p = at(ii, last).sub(at(ii - 1, last));
        let mut pb = R::one();
        let mut below = R::one();
        let mut upto = R::one();
        for _ in 0..b {
            pb = pb.mul(&p);
            below = below.mul(at(ii - 1, last));
            upto = upto.mul(at(ii, last));
        }
        trivial = trivial.add(&pb);
        root_value = root_value.add(&value.mul(&upto.sub(&below)));
    }
    (correct, trivial, root_value, chosen)
}

/// The frontier state at height `front` from the masses and the law.
fn exact_frontier(masses: &(Vec<BigInt>, Vec<BigInt>, BigInt), law: &Law, g: usize) -> ExactState {
    let (m, c, d) = masses;
    let Cdfs::Exact {
        numerators,
        denominator: dc,
    } = &law.cdfs
    else {
        unreachable!("exact laws are rational")
    };
    let n = law.levels;
    let cdf = |i: usize, x: usize| &numerators[i][x];
    // Point probabilities over d: c_j - c_{j-1}.
    let cum = |j: isize| -> BigInt {
        if j < 0 {
            BigInt::from(0)
        } else if j as usize >= g - 1 {
            d.clone()
        } else {
            c[j as usize].clone()
        }
    };
    let p: Vec<BigInt> = (0..g)
        .map(|i| cum(i as isize) - cum(i as isize - 1))
        .collect();
    let mut l = Vec::with_capacity(g - 1);
    let mut running: Vec<BigInt> = vec![BigInt::from(0); n];
    for (j, pj) in p.iter().enumerate().take(g - 1) {
        for (x, r) in running.iter_mut().enumerate() {
            *r += pj * cdf(j, x);
        }
        l.push(running.clone());
    }
    let total: Vec<BigInt> = (0..n)
        .map(|x| p.iter().enumerate().map(|(i, pi)| pi * cdf(i, x)).sum())
        .collect();
    let w = l
        .iter()
        .map(|lj| lj.iter().zip(&total).map(|(a, t)| t - a).collect())
        .collect();
    ExactState {
        w,
        l,
        m: m.iter().map(|x| x * dc).collect(),
        c: c.iter().map(|x| x * dc).collect(),
        denominator: d * dc,
        survival: false,
    }
}

impl ExactState {
    fn convert_space(&mut self, survival: bool) {
        if self.survival == survival {
            return;
        }
        for j in 0..self.w.len() {
            let (m, c) = (&self.m[j], &self.c[j]);
            self.w[j] = self.w[j].iter().map(|x| m - x).collect();
            self.l[j] = self.l[j].iter().map(|x| c - x).collect();
        }
        self.survival = survival;
    }

    fn level(&mut self, t: u32, b: usize) {
        let max = t % 2 == 1;
        self.convert_space(!max);
        for j in 0..self.w.len() {
            let n = self.w[j].len();
            let (w, l) = (&self.w[j], &self.l[j]);
            let pairs: Vec<(BigInt, BigInt)> = map_entries::<BigInt, _>(n, |x| {
                if max {
                    kernel(&w[x], &l[x], b)
                } else {
                    let (l2, w2) = kernel(&l[x], &w[x], b);
                    (w2, l2)
                }
            });
            let (w2, l2) = pairs.into_iter().unzip();
            self.w[j] = w2;
            self.l[j] = l2;
            let (m2, c2) = if max {
                kernel(&self.m[j], &self.c[j], b)
            } else {
                let (c2, m2) = kernel(&self.c[j], &self.m[j], b);
                (m2, c2)
            };
            self.m[j] = m2;
            self.c[j] = c2;
        }
        self.denominator = num_traits::pow(self.denominator.clone(), b);
    }
}

/// Oriented joint CDF of the root's children from a state (module docs).
fn oriented<R: RootRing>(
    w: &[Vec<R>],
    l: &[Vec<R>],
    m: &[R],
    c: &[R],
    max_root: bool,
) -> Vec<Vec<R>> {
    let g = w.len() + 1;
    let n = w[0].len();
    if max_root {
        // CDF space: F(i, y) = L_i(y), the marginal L_0 + W_0.
        let mut f: Vec<Vec<R>> = l.to_vec();
        f.push((0..n).map(|y| l[0][y].add(&w[0][y])).collect());
        f
    } else {
        // Survival space: F(i, y) = W^S_{g-2-i}(n-2-y), W^S(-1) = m.
        let get = |v: &[R], total: &R, x: isize| {
            if x < 0 {
                total.clone()
            } else {
                v[x as usize].clone()
            }
        };
        let mut f: Vec<Vec<R>> = (0..g - 1)
            .map(|i| {
                let j = g - 2 - i;
                (0..n)
                    .map(|y| get(&w[j], &m[j], n as isize - 2 - y as isize))
                    .collect()
            })
            .collect();
        f.push(
            (0..n)
                .map(|y| {
                    let x = n as isize - 2 - y as isize;
                    get(&w[0], &m[0], x).add(&get(&l[0], &c[0], x))
                })
                .collect(),
        );
        f
    }
}

/// Root results of one depth: `(correct, trivial, loss)`.
pub(crate) type RootValues = (Value, Value, Value);

/// The exact root values for the frontier at height `front` of a game of height h.
pub(crate) fn exact_depth(
    values: &[BigRational],
    masses: &[(Vec<BigInt>, Vec<BigInt>, BigInt)],
    law: &Law,
    height: u32,
    front: u32,
    b: usize,
    cancel: &crate::cancel::CancelToken,
) -> Result<RootValues> {
    let g = values.len();
    let mut state = exact_frontier(&masses[front as usize], law, g);
    for t in front + 1..height {
        cancel.check()?;
        state.level(t, b);
    }
    let max_root = height % 2 == 1;
    state.convert_space(!max_root);
    let f = oriented(&state.w, &state.l, &state.m, &state.c, max_root);
    let oriented_values: Vec<BigRational> = if max_root {
        values.to_vec()
    } else {
        values.iter().rev().map(|v| -v).collect()
    };
    let (vn, vd) = BigRational::common_scale(&oriented_values);
    let (correct, trivial, root_value, chosen) = root_quantities(&f, &vn, b);
    let scale = num_traits::pow(state.denominator.clone(), b);
    let loss_scale = &scale * &vd;
    Ok((
        Value::Exact(BigRational::from_scaled(&correct, &scale)),
        Value::Exact(BigRational::from_scaled(&trivial, &scale)),
        Value::Exact(BigRational::from_scaled(
            &(root_value - chosen),
            &loss_scale,
        )),
    ))
}

/// The enclosed root values for the frontier at height `front`.
pub(crate) fn float_depth(
    values: &[BigRational],
    probabilities: &[BigRational],
    law: &Law,
    height: u32,
    front: u32,
    b: usize,
    cancel: &crate::cancel::CancelToken,
) -> Result<RootValues> {
    let g = values.len();
    let all_masses = float_masses(probabilities, b, height - 1);
    let (m, c) = all_masses[front as usize].clone();
    // Point probabilities: p_i = c_i - c_{i-1} and m_{i-1} - m_i, intersected.
    let bound = |v: &Ends, j: isize, outside_low: f64, outside_high: f64, hi: bool| -> f64 {
        if j < 0 {
            outside_low
        } else if j as usize >= g - 1 {
            outside_high
        } else if hi {
            v.hi[j as usize]
        } else {
            v.lo[j as usize]
        }
    };
    let p: Vec<(f64, f64)> = (0..g as isize)
        .map(|i| {
            let from_c = (
                sub_down(
                    bound(&c, i, 0.0, 1.0, false),
                    bound(&c, i - 1, 0.0, 1.0, true),
                ),
                sub_up(
                    bound(&c, i, 0.0, 1.0, true),
                    bound(&c, i - 1, 0.0, 1.0, false),
                ),
            );
            let from_m = (
                sub_down(
                    bound(&m, i - 1, 1.0, 0.0, false),
                    bound(&m, i, 1.0, 0.0, true),
                ),
                sub_up(
                    bound(&m, i - 1, 1.0, 0.0, true),
                    bound(&m, i, 1.0, 0.0, false),
                ),
            );
            (from_c.0.max(from_m.0).max(0.0), from_c.1.min(from_m.1))
        })
        .collect();
    let n = law.levels;
    let cdf: Vec<Ends> = (0..g)
        .map(|i| {
            let (lo, hi) = law.ends(i);
            Ends { lo, hi }
        })
        .collect();
    // L_j = sum_{i<=j} p_i cdf_i, W_j = sum_{i>j} p_i cdf_i (monotone sums of products).
    let weighted = |range: std::ops::Range<usize>, hi: bool| -> Vec<f64> {
        (0..n)
            .map(|x| {
                range.clone().fold(0.0, |acc, i| {
                    acc + if hi {
                        p[i].1 * cdf[i].hi[x]
                    } else {
                        p[i].0 * cdf[i].lo[x]
                    }
                })
            })
            .collect()
    };
    let count = g as u32 + 2;
    let mut state = FloatState {
        w: (0..g - 1)
            .map(|j| {
                Ends::widen(
                    weighted(j + 1..g, false),
                    weighted(j + 1..g, true),
                    count,
                    1.0,
                )
            })
            .collect(),
        l: (0..g - 1)
            .map(|j| {
                Ends::widen(
                    weighted(0..j + 1, false),
                    weighted(0..j + 1, true),
                    count,
                    1.0,
                )
            })
            .collect(),
        m,
        c,
        survival: false,
    };
    let (kf, ko) = kernel_counts(b);
    for t in front + 1..height {
        cancel.check()?;
        let max = t % 2 == 1;
        state.convert_space(!max);
        for j in 0..g - 1 {
            let (fav, oth) = if max {
                (&state.w[j], &state.l[j])
            } else {
                (&state.l[j], &state.w[j])
            };
            let lo: (Vec<f64>, Vec<f64>) =
                (0..n).map(|x| kernel(&fav.lo[x], &oth.lo[x], b)).unzip();
            let hi: (Vec<f64>, Vec<f64>) =
                (0..n).map(|x| kernel(&fav.hi[x], &oth.hi[x], b)).unzip();
            let (fav2, oth2) = (
                Ends::widen(lo.0, hi.0, kf, 1.0),
                Ends::widen(lo.1, hi.1, ko, 1.0),
            );
            if max {
                state.w[j] = fav2;
                state.l[j] = oth2;
            } else {
                state.l[j] = fav2;
                state.w[j] = oth2;
            }
        }
        let (m2, c2) = all_masses[t as usize].clone();
        state.m = m2;
        state.c = c2;
    }
    let max_root = height % 2 == 1;
    state.convert_space(!max_root);
    let enc = |e: &Ends| -> Vec<Enclosure> {
        e.lo.iter()
            .zip(&e.hi)
            .map(|(&lower, &upper)| Enclosure { lower, upper })
            .collect()
    };
    let w: Vec<Vec<Enclosure>> = state.w.iter().map(enc).collect();
    let l: Vec<Vec<Enclosure>> = state.l.iter().map(enc).collect();
    let f = oriented(&w, &l, &enc(&state.m), &enc(&state.c), max_root);
    let oriented_values: Vec<Enclosure> = if max_root {
        values.iter().map(Enclosure::of).collect()
    } else {
        values.iter().rev().map(|v| Enclosure::of(&-v)).collect()
    };
    let (correct, trivial, root_value, chosen) = root_quantities(&f, &oriented_values, b);
    let loss = Ring::sub(&root_value, &chosen);
    // The loss is never negative.
    let loss = Enclosure {
        lower: loss.lower.max(0.0),
        upper: loss.upper.max(0.0),
    };
    Ok((
        Value::Float(correct),
        Value::Float(trivial),
        Value::Float(loss),
    ))
}

impl FloatState {
    fn convert_space(&mut self, survival: bool) {
        if self.survival == survival {
            return;
        }
        for j in 0..self.w.len() {
            self.w[j] = self.w[j].complement(self.m.lo[j], self.m.hi[j]);
            self.l[j] = self.l[j].complement(self.c.lo[j], self.c.hi[j]);
        }
        self.survival = survival;
    }
}

/// Checks that a P-game's parameters admit a non-trivial root.
pub(crate) fn check_values(values: &[BigRational]) -> Result<()> {
    if values.len() < 2 {
        return Err(Error::invalid(
            "--leaves",
            "at least two values",
            values.len(),
        ));
    }
    Ok(())
}
