//! Beam search guided by a process reward model over a solution of L steps, exactly.
//!
//! **Model.** The steps and the verifier are lookahead's ([`super::LookaheadSearch`]): from
//! a correct prefix each proposed next step is correct with probability Q, a wrong prefix
//! has only wrong continuations, and a prefix of m steps is scored
//! `1{prefix correct} + (1 + G (m - 1)) Z` with a fresh Z from the noise law for every
//! scored prefix. Beam search of width M: the search starts from M copies of the empty
//! prefix; at step t = 1..L each of the M beams is expanded into B candidate next steps, the
//! M B new prefixes (of t steps) are scored, and the M of the largest scores are kept (ties
//! broken uniformly: a uniformly random subset of the tied candidates at the threshold
//! fills the beam). After step L the answer is the complete solution of the largest score
//! (ties uniform), the same as the top of the M kept.
//!
//! **State.** A wrong beam has only wrong descendants, so what matters of the beam is the
//! number i of correct beams. Given i, the `i B` candidates of the correct beams are correct
//! independently with probability Q (c of them, binomial) and the other `M B - c` are wrong;
//! correct candidates' scores are independent draws from `1 + sZ`, wrong ones' from `sZ`
//! (s = 1 + G (t - 1)). The state after a step is the number j of correct candidates among
//! the M kept, so `P(j | i) = sum_c Binomial(iB, Q)(c) S_M(j | c, MB - c)` with `S_K(j | c,
//! w)` the probability that j of the top K of c correct and w wrong scored candidates are
//! correct. The start is i = M; steps 1..L-1 move the law of i by these transitions, and the
//! last step answers correctly with probability `sum_c Binomial(iB, Q)(c) S_1(1 | c, MB -
//! c)`.
//!
//! **The selection law `S_K`.** A uniform tie-break is an ordering by independent uniform
//! keys U within a score level, so each candidate gets the continuous key `k + U` (k its
//! level's index): the top K by key are the top K by score with the ties broken uniformly.
//! A correct candidate's key has the piecewise-linear CDF `H_c(k + u) = F_c(k-) + p_c(k) u`
//! (F_c the CDF of its score, `p_c` the level's mass), a wrong one's `H_w` likewise. The
//! K-th largest key lies in level k at `k + u`; if it is a correct candidate, j - 1 other
//! correct and K - j wrong lie above it and the rest below:
//!
//! `c p_c C(c-1, j-1) C(w, K-j) int_0^1 H_c^(c-j) (1-H_c)^(j-1) H_w^(w-K+j) (1-H_w)^(K-j) du`,
//!
//! and if it is a wrong one, `w p_w C(w-1, K-j-1) C(c, j) int_0^1 H_c^(c-j) (1-H_c)^j
//! H_w^(w-K+j) (1-H_w)^(K-j-1) du`. With t = 1 - u, `H = F u + F(k-) t` and `1 - H = (1 - F)
//! u + (1 - F(k-)) t` are homogeneous in (u, t), the integrand is a homogeneous polynomial
//! of degree `c + w - 1` with non-negative coefficients, and `int_0^1 u^a t^(N-a) du =
//! a! (N-a)! / (N+1)!`. Summed over the levels this is `S_K(j | c, w)` exactly; a brute
//! force over every score outcome with the hypergeometric tie rule equals it in the tests.
//!
//! **Numbers.** Exact: every CDF value is an integer over the noise law's denominator D and
//! Q over its denominator e, so a selection law is integers over `D^(MB) (MB)!`, a transition
//! over that times `e^(MB)`, and the answer is reduced once. `f64`: the same sums on pairs
//! of doubles enclosing each value, each end moved one double outward after every operation
//! but the products of polynomials, whose entries are summed in plain doubles and widened
//! once by the a priori bound of a sum of non-negative products; every term is non-negative,
//! so the pairs stay near roundoff.
//!
//! **Work.** A selection law depends on the two score laws' CDFs on their common levels
//! alone, and with G > 0 those stop changing once the scale exceeds the inverse of the noise
//! law's least gap between atoms (for a law on the integers at the latest from the second
//! step on); each distinct pair of CDFs is computed once, so the selection law of a step is
//! computed only while the scale has not yet settled, and once after.

use std::collections::HashMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::arith::{Arith, Value, bits, larger};
use super::{Estimate, LookaheadSearch, Tasks};
use crate::analytic::distributions::Bounded;
use crate::error::{Error, Result};
use crate::numeric::enclosure::Enclosure;
use crate::numeric::number::Probability;

/// The largest beam width M.
pub const MAX_BEAMS: u32 = 4096;

/// Checks the search model and the widths (`1..=MAX_BEAMS`, a nonempty list, `M B` at most
/// `2^32 - 1`).
///
/// # Errors
///
/// As [`LookaheadSearch::check_model`]; [`Error::InvalidArgument`] naming `--beams`.
pub fn check_beams(search: &LookaheadSearch, widths: &[u32]) -> Result<()> {
    search.check_model()?;
    if widths.is_empty() {
        return Err(Error::invalid("--beams", "a nonempty list", "none"));
    }
    if let Some(m) = widths.iter().find(|&&m| m == 0 || m > MAX_BEAMS) {
        return Err(Error::invalid("--beams", &format!("in 1..={MAX_BEAMS}"), m));
    }
    Ok(())
}

/// One row of beam search.
#[derive(Debug, Clone, PartialEq)]
pub struct BeamRow<P> {
    /// The beam width M.
    pub beams: u32,
    /// The probability that the answer (the top complete solution) is correct.
    pub correct: Bounded<P>,
    /// The probability that some complete candidate of the last step is correct (the
    /// answer's ceiling: what a perfect final verifier would reach).
    pub covered: Bounded<P>,
}

/// Beam search: the rows and the best width.
#[derive(Debug, Clone, PartialEq)]
pub struct Beam<P> {
    /// One row per width.
    pub rows: Vec<BeamRow<P>>,
    /// The width of the list with the largest `P_correct` (exact: the first such; f64: a
    /// later width replaces the best so far only when its enclosure lies wholly above it).
    pub best: u32,
}

/// Beam search of each width of `widths` (module docs), the W-weighted average over the
/// difficulty mix `mix` (each type's steps correct with probability its R; `search`'s own
/// Q is not used).
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::{LookaheadSearch, Tasks, beam};
/// use pathology::analytic::pathsum::Law;
/// use pathology::numeric::number::parse_rational;
/// use num_rational::BigRational;
/// let search = LookaheadSearch {
///     branching: 2,
///     steps: 2,
///     step_correct: parse_rational("1/2").unwrap(),
///     noise: Law::parse("--noise", "0").unwrap(), // a perfect verifier
///     growth: parse_rational("0").unwrap(),
/// };
/// let r = beam::<BigRational>(&search, &Tasks::parse("1/2").unwrap(), &[1, 2]).unwrap();
/// // Width 1 is greedy: a correct step is found whenever one is proposed, 3/4 per step.
/// assert_eq!(r.rows[0].correct.value.to_string(), "9/16");
/// // Width 2 keeps a correct first step whenever one of its 4 candidates is (15/16), and
/// // answers correctly whenever one of the 4 complete candidates is.
/// assert!(r.rows[1].correct.value > r.rows[0].correct.value);
/// assert_eq!(r.rows[1].correct.value, r.rows[1].covered.value);
/// ```
///
/// # Errors
///
/// As [`check_beams`]; [`Error::TooExpensive`] past the analytic limits;
/// [`Error::Interrupted`] when cancelled.
pub fn beam<P: Probability>(
    search: &LookaheadSearch,
    mix: &Tasks,
    widths: &[u32],
) -> Result<Beam<P>> {
    check_beams(search, widths)?;
    beam_estimate_checked(search, mix, widths, P::EXACT).check()?;
    let exact = P::EXACT;
    let cancel = crate::cancel::current();
    let mut rows = Vec::new();
    let mut best: Option<(u32, Value)> = None;
    for &m in widths {
        cancel.check()?;
        let (correct, covered) = if exact {
            width::<BigInt>(search, mix, m)?
        } else {
            width::<Bracket>(search, mix, m)?
        };
        cancel.check()?;
        rows.push(BeamRow {
            beams: m,
            correct: correct.bounded(0.0, 1.0),
            covered: covered.bounded(0.0, 1.0),
        });
        if best.as_ref().is_none_or(|(_, b)| larger(&correct, b)) {
            best = Some((m, correct));
        }
    }
    Ok(Beam {
        rows,
        best: best.expect("a nonempty list").0,
    })
}

/// Scaled numbers over one denominator.
struct Over<A> {
    values: Vec<Vec<A>>,
    denominator: A,
}

/// An integer in the arithmetic `A`.
fn integer<A: Arith>(n: &BigInt) -> A {
    A::scale(&[BigRational::from_integer(n.clone())])
        .0
        .remove(0)
}

/// `C(x, y)` for `x <= n`, as a table in `A`.
fn binomials<A: Arith>(n: usize) -> Vec<Vec<A>> {
    let mut rows: Vec<Vec<BigInt>> = vec![vec![BigInt::one()]];
    for x in 1..=n {
        let previous = &rows[x - 1];
        let mut row = vec![BigInt::one(); x + 1];
        for y in 1..x {
            row[y] = &previous[y - 1] + &previous[y];
        }
        rows.push(row);
    }
    rows.iter()
        .map(|row| row.iter().map(integer::<A>).collect())
        .collect()
}

/// `(X u + Y t)^e` for `e = 0..=n`: coefficients of `u^a t^(e-a)`, `C(e, a) X^a Y^(e-a)`.
fn expansions<A: Arith>(x: &A, y: &A, n: usize, choose: &[Vec<A>]) -> Vec<Vec<A>> {
    let mut xp = vec![A::one_value()];
    let mut yp = vec![A::one_value()];
    for k in 1..=n {
        xp.push(xp[k - 1].mul(x));
        yp.push(yp[k - 1].mul(y));
    }
    (0..=n)
        .map(|e| {
            (0..=e)
                .map(|a| choose[e][a].mul(&xp[a]).mul(&yp[e - a]))
                .collect()
        })
        .collect()
}

/// `S_K(j | c, n - c)` for `c = 0..=n`, `j = 0..=K` (module docs), from the two score
/// laws' CDFs on their common ascending levels; `1 <= keep < n`.
fn selection<A: Arith>(
    cdf_correct: &[BigRational],
    cdf_wrong: &[BigRational],
    n: usize,
    keep: usize,
) -> Result<Over<A>> {
    debug_assert!(keep >= 1 && keep < n);
    let levels = cdf_correct.len();
    // Every input exactly as a rational (complements and masses too, so that the f64
    // enclosures of values near 0 keep their relative precision).
    let one = BigRational::one();
    let mut inputs: Vec<BigRational> = Vec::with_capacity(6 * levels);
    for cdf in [cdf_correct, cdf_wrong] {
        inputs.extend(cdf.iter().cloned());
        inputs.extend(cdf.iter().map(|f| &one - f));
        inputs.extend((0..levels).map(|k| {
            if k == 0 {
                cdf[0].clone()
            } else {
                &cdf[k] - &cdf[k - 1]
            }
        }));
    }
    let (scaled, d) = A::scale(&inputs);
    let part =
        |law: usize, kind: usize| &scaled[(3 * law + kind) * levels..(3 * law + kind + 1) * levels];
    let (fc, sc, mc) = (part(0, 0), part(0, 1), part(0, 2));
    let (fw, sw, mw) = (part(1, 0), part(1, 1), part(1, 2));
    let choose = binomials::<A>(n);
    // int_0^1 u^a t^(N-a) du = a! (N-a)! / (N+1)!, N = n - 1.
    let big_n = n - 1;
    let mut factorial = vec![BigInt::one()];
    for k in 1..=n {
        let next = &factorial[k - 1] * BigInt::from(k);
        factorial.push(next);
    }
    let betas: Vec<BigRational> = (0..=big_n)
        .map(|a| {
            BigRational::new(
                &factorial[a] * &factorial[big_n - a],
                factorial[big_n + 1].clone(),
            )
        })
        .collect();
    let (beta, beta_denominator) = A::scale(&betas);
    let zero = A::zero_value();
    let cancel = crate::cancel::current();
    let mut out: Vec<Vec<A>> = vec![vec![A::zero_value(); keep + 1]; n + 1];
    for k in 0..levels {
        cancel.check()?;
        // F(k-) and 1 - F(k-).
        let (lc, lw) = if k == 0 {
            (&zero, &zero)
        } else {
            (&fc[k - 1], &fw[k - 1])
        };
        let (rc, rw) = if k == 0 {
            (&d, &d)
        } else {
            (&sc[k - 1], &sw[k - 1])
        };
        let (pc, pw) = (mc[k].clone(), mw[k].clone());
        if pc.is_zero_value() && pw.is_zero_value() {
            continue;
        }
        // Below the key: F u + F(k-) t; above it: (1 - F) u + (1 - F(k-)) t.
        let below_c = expansions(&fc[k], lc, n, &choose);
        let above_c = expansions(&sc[k], rc, n, &choose);
        let below_w = expansions(&fw[k], lw, n, &choose);
        let above_w = expansions(&sw[k], rw, n, &choose);
        let integral = |alpha: usize, b: usize, gamma: usize, delta: usize| -> A {
            let correct = A::convolve(&below_c[alpha], &above_c[b]);
            let wrong = A::convolve(&below_w[gamma], &above_w[delta]);
            let both = A::convolve(&correct, &wrong);
            let mut sum = A::zero_value();
            for (x, y) in both.iter().zip(&beta) {
                sum.add_product(x, y);
            }
            sum
        };
        // The integral of the first term at (c, j) is the second term's at (c - 1, j - 1)
        // (the same exponents), so each is computed once: `first[c][j]`, j >= 1.
        let mut first: Vec<Vec<Option<A>>> = vec![vec![None; keep + 1]; n + 1];
        for (c, row) in first.iter_mut().enumerate() {
            let w = n - c;
            for (j, slot) in row.iter_mut().enumerate().skip(1) {
                if j <= c && w + j >= keep {
                    *slot = Some(integral(c - j, j - 1, w + j - keep, keep - j));
                }
            }
        }
        for c in 0..=n {
            let w = n - c;
            for j in 0..=keep.min(c) {
                if w + j < keep {
                    continue;
                }
                let mut total = A::zero_value();
                // The K-th largest key is a correct candidate's.
                if j >= 1 && !pc.is_zero_value() {
                    let coefficient = integer::<A>(&BigInt::from(c))
                        .mul(&choose[c - 1][j - 1])
                        .mul(&choose[w][keep - j]);
                    let value = first[c][j].as_ref().expect("computed");
                    total = total.add(&coefficient.mul(&pc).mul(value));
                }
                // The K-th largest key is a wrong candidate's: exponents (c - j, j, w - K + j,
                // K - j - 1), those of the first term at (c + 1, j + 1).
                if keep > j && w >= 1 && !pw.is_zero_value() {
                    let coefficient = integer::<A>(&BigInt::from(w))
                        .mul(&choose[w - 1][keep - j - 1])
                        .mul(&choose[c][j]);
                    let value = first[c + 1][j + 1].as_ref().expect("computed");
                    total = total.add(&coefficient.mul(&pw).mul(value));
                }
                if !total.is_zero_value() {
                    out[c][j] = out[c][j].add(&total);
                }
            }
        }
    }
    Ok(Over {
        values: out,
        denominator: d.power(n as u64).mul(&beta_denominator),
    })
}

/// The distinct top-M selection laws of steps 1..L-1, the index of each step's law among
/// them, and the top-1 law of the answer.
struct Selections<A> {
    inner: Vec<Over<A>>,
    step: Vec<usize>,
    last: Over<A>,
}

/// The selection laws of one width: the top-M law of each step 1..L-1 and the top-1 law of
/// the answer. A selection law is a function of the two score laws' CDFs on their common
/// levels alone, and those CDFs repeat across steps: with G = 0 every step has the same,
/// and with G > 0 the scale s = 1 + G (t - 1) changes the levels but not their order and
/// masses once s exceeds the inverse of the noise law's least gap between atoms (every
/// s > 1 for a law on the integers), so each distinct pair of CDFs is computed once.
fn selections<A: Arith>(search: &LookaheadSearch, m: usize) -> Result<Selections<A>> {
    let n = m * search.branching as usize;
    let unsettled = unsettled_steps(search);
    let mut seen: HashMap<(Vec<BigRational>, Vec<BigRational>), usize> = HashMap::new();
    let mut settled: Option<usize> = None;
    let mut inner = Vec::new();
    let mut step = Vec::new();
    for t in 1..search.steps {
        crate::cancel::current().check()?;
        if t > unsettled
            && let Some(index) = settled
        {
            step.push(index);
            continue;
        }
        let cdfs = super::lookahead::frontier_cdfs(search, t);
        let index = match seen.get(&cdfs) {
            Some(&index) => index,
            None => {
                inner.push(selection::<A>(&cdfs.0, &cdfs.1, n, m)?);
                seen.insert(cdfs, inner.len() - 1);
                inner.len() - 1
            }
        };
        if t > unsettled {
            settled = Some(index);
        }
        step.push(index);
    }
    let (fc, fw) = super::lookahead::frontier_cdfs(search, search.steps);
    Ok(Selections {
        inner,
        step,
        last: selection::<A>(&fc, &fw, n, 1)?,
    })
}

/// The number of leading steps t (prefix lengths 1, 2, ...) at which the scale `s = 1 + G
/// (t - 1)` is at most `1 / delta`, delta the least gap between two atoms of the noise law:
/// past them `1 + s z_i` lies above `s z_j` exactly when `z_i >= z_j`, so the order of the
/// two score laws' levels, and with it their CDFs on the common levels, no longer changes.
/// 0 when G = 0 (every step is the first's) or when the law has one atom.
fn unsettled_steps(search: &LookaheadSearch) -> u32 {
    let atoms = search.noise.atoms();
    let Some(delta) = atoms.windows(2).map(|w| &w[1].0 - &w[0].0).min() else {
        return 0;
    };
    if search.growth.is_zero() {
        return 0;
    }
    let limit = BigRational::one() / delta;
    let mut t = 0;
    while t + 1 < search.steps
        && BigRational::one() + &search.growth * BigRational::from_integer(t.into()) <= limit
    {
        t += 1;
    }
    t
}

/// The probability laws of the number of correct candidates given i correct beams,
/// `Binomial(iB, Q)` over `e^(MB)`, for `i = 0..=M`.
fn candidate_laws<A: Arith>(q: &BigRational, b: usize, m: usize) -> Over<A> {
    let (coefficients, e) = A::scale(&[q.clone(), BigRational::one() - q]);
    let n = m * b;
    let choose = binomials::<A>(n);
    let mut qc = vec![A::one_value()];
    let mut qw = vec![A::one_value()];
    let mut ep = vec![A::one_value()];
    for k in 1..=n {
        qc.push(qc[k - 1].mul(&coefficients[0]));
        qw.push(qw[k - 1].mul(&coefficients[1]));
        ep.push(ep[k - 1].mul(&e));
    }
    let values = (0..=m)
        .map(|i| {
            let ib = i * b;
            (0..=ib)
                .map(|c| choose[ib][c].mul(&qc[c]).mul(&qw[ib - c]).mul(&ep[n - ib]))
                .collect()
        })
        .collect();
    Over {
        values,
        denominator: ep[n].clone(),
    }
}

/// `sum_c law_i(c) S(j | c)` for every i: a transition (rows i, columns j).
fn compose<A: Arith>(laws: &Over<A>, select: &Over<A>) -> Over<A> {
    let columns = select.values[0].len();
    let values = laws
        .values
        .iter()
        .map(|law| {
            let mut row = vec![A::zero_value(); columns];
            for (c, p) in law.iter().enumerate() {
                if p.is_zero_value() {
                    continue;
                }
                for (x, s) in row.iter_mut().zip(&select.values[c]) {
                    x.add_product(p, s);
                }
            }
            row
        })
        .collect();
    Over {
        values,
        denominator: laws.denominator.mul(&select.denominator),
    }
}

/// `(P_correct, P_covered)` of width m over the mix.
fn width<A: Arith>(search: &LookaheadSearch, mix: &Tasks, m: u32) -> Result<(Value, Value)> {
    let m = m as usize;
    let b = search.branching as usize;
    let selected = selections::<A>(search, m)?;
    let exact = is_exact::<A>();
    let mut correct = Value::of(&BigRational::zero(), exact);
    let mut covered = Value::of(&BigRational::zero(), exact);
    for t in mix.types() {
        let laws = candidate_laws::<A>(&t.success, b, m);
        let mut transitions: HashMap<usize, Over<A>> = HashMap::new();
        // The law of i: all M beams correct at the start.
        let mut state: Vec<A> = (0..=m)
            .map(|i| {
                if i == m {
                    A::one_value()
                } else {
                    A::zero_value()
                }
            })
            .collect();
        let mut denominator = A::one_value();
        for step in 1..search.steps {
            crate::cancel::current().check()?;
            let key = selected.step[step as usize - 1];
            let transition = transitions
                .entry(key)
                .or_insert_with(|| compose(&laws, &selected.inner[key]));
            let mut next = vec![A::zero_value(); m + 1];
            for (p, row) in state.iter().zip(&transition.values) {
                if p.is_zero_value() {
                    continue;
                }
                for (x, s) in next.iter_mut().zip(row) {
                    x.add_product(p, s);
                }
            }
            state = next;
            denominator = denominator.mul(&transition.denominator);
        }
        let answer = compose(&laws, &selected.last);
        let mut sum = A::zero_value();
        let mut cover = A::zero_value();
        // 1 - (1 - Q)^(iB): the candidates' laws at c = 0 are (1 - Q)^(iB) over e^(MB).
        for (i, p) in state.iter().enumerate() {
            sum.add_product(p, &answer.values[i][1]);
            let none = &laws.values[i][0];
            cover.add_product(p, &laws.denominator.sub(none));
        }
        let w = Value::of(&t.share, exact);
        let value = A::value(&sum, &denominator.mul(&answer.denominator));
        let cover_value = A::value(&cover, &denominator.mul(&laws.denominator));
        correct = correct.add(&w.mul(&value));
        covered = covered.add(&w.mul(&cover_value));
    }
    Ok((correct, covered))
}

/// A non-negative real between two doubles: the `f64` arithmetic of the beam's sums, every
/// one of whose values is a sum of products of non-negative numbers (probabilities,
/// binomial coefficients, Beta integrals). A rounded-to-nearest result lies between the
/// doubles beside the exact one, so each end moves one double outward after every
/// operation (the lower end never below 0); an operand that is exactly 0 (or 1 in a product)
/// keeps the result exact, so true zeros stay points.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bracket {
    lower: f64,
    upper: f64,
}

impl Bracket {
    fn point(x: f64) -> Bracket {
        Bracket { lower: x, upper: x }
    }

    fn is_point(&self, x: f64) -> bool {
        self.lower == x && self.upper == x
    }

    fn outward(lower: f64, upper: f64) -> Bracket {
        Bracket {
            lower: lower.next_down().max(0.0),
            upper: upper.next_up(),
        }
    }
}

impl crate::numeric::number::Scaled for Bracket {
    fn zero_value() -> Self {
        Bracket::point(0.0)
    }
    fn one_value() -> Self {
        Bracket::point(1.0)
    }
    fn add(&self, other: &Self) -> Self {
        if self.is_point(0.0) {
            return *other;
        }
        if other.is_point(0.0) {
            return *self;
        }
        Bracket::outward(self.lower + other.lower, self.upper + other.upper)
    }
    fn sub(&self, other: &Self) -> Self {
        if other.is_point(0.0) {
            return *self;
        }
        // Used only where the exact difference is at least 0 (1 - (1 - Q)^(iB)).
        Bracket::outward(self.lower - other.upper, self.upper - other.lower)
    }
    fn mul(&self, other: &Self) -> Self {
        if self.is_point(0.0) || other.is_point(0.0) {
            return Bracket::point(0.0);
        }
        if self.is_point(1.0) {
            return *other;
        }
        if other.is_point(1.0) {
            return *self;
        }
        Bracket::outward(self.lower * other.lower, self.upper * other.upper)
    }
    fn add_product(&mut self, a: &Self, b: &Self) {
        *self = self.add(&a.mul(b));
    }
    fn is_zero_value(&self) -> bool {
        self.is_point(0.0)
    }
    /// The convolution with one widening per entry instead of one per operation: each end's
    /// sum of products is accumulated in plain round-to-nearest doubles, then widened by the
    /// a priori bound of a recursive sum of the entry's m non-negative products. Each term
    /// carries at most m rounding factors, so `s~ = sum p_i (1 + theta_i) + e` with
    /// `|theta_i| <= gamma_m = m u / (1 - m u)` and `|e| <= m eta (1 + gamma_m) / 2` (eta the
    /// least subnormal: an underflowed product is off by at most eta / 2, a sum is exact
    /// there); as `1 / (1 + gamma_m) = 1 - m u` and `1 / (1 - gamma_m) <= 1 + 2 m u` for
    /// `m u <= 1/4`, the exact sum lies in `[(s~ - m eta)(1 - m u), (s~ + m eta)(1 + 2 m u)]`,
    /// each operation of the widening rounded outward. An entry with no product of two
    /// nonzero operands stays the point 0.
    fn convolve(a: &[Self], b: &[Self]) -> Vec<Self> {
        if a.is_empty() || b.is_empty() {
            return Vec::new();
        }
        let len = a.len() + b.len() - 1;
        let mut lower = vec![0.0; len];
        let mut upper = vec![0.0; len];
        let mut terms = vec![0u32; len];
        for (i, x) in a.iter().enumerate() {
            // An end of a bracket is at least 0, so an upper end of 0 is the point 0.
            if x.upper == 0.0 {
                continue;
            }
            for (j, y) in b.iter().enumerate() {
                if y.upper == 0.0 {
                    continue;
                }
                lower[i + j] += x.lower * y.lower;
                upper[i + j] += x.upper * y.upper;
                terms[i + j] += 1;
            }
        }
        let u = f64::EPSILON / 2.0;
        let eta = f64::from_bits(1);
        (0..len)
            .map(|k| {
                if terms[k] == 0 {
                    return Bracket::point(0.0);
                }
                // Exact: m is a whole number, u and eta powers of 2.
                let m = f64::from(terms[k]);
                let (slack, mu) = (m * eta, m * u);
                let low = ((lower[k] - slack).next_down().max(0.0) * (1.0 - mu).next_down())
                    .next_down()
                    .max(0.0);
                let high = ((upper[k] + slack).next_up() * (1.0 + 2.0 * mu).next_up()).next_up();
                Bracket {
                    lower: low,
                    upper: high,
                }
            })
            .collect()
    }
}

impl Arith for Bracket {
    fn scale(values: &[BigRational]) -> (Vec<Self>, Self) {
        (
            values
                .iter()
                .map(|v| {
                    let e = Enclosure::of(v);
                    Bracket {
                        lower: e.lower.max(0.0),
                        upper: e.upper,
                    }
                })
                .collect(),
            Bracket::point(1.0),
        )
    }
    fn value(numerator: &Self, denominator: &Self) -> Value {
        let enclose = |b: &Bracket| Enclosure {
            lower: b.lower,
            upper: b.upper,
        };
        <Enclosure as Arith>::value(&enclose(numerator), &enclose(denominator))
    }
}

/// Whether `A` is the exact arithmetic.
fn is_exact<A: Arith>() -> bool {
    std::any::TypeId::of::<A>() == std::any::TypeId::of::<BigInt>()
}

/// Seconds per operation of the exact selection sums per 64-bit word of their numbers, and
/// per operation of the `f64` enclosures (measured on the project machine, rounded up).
const EXACT_WORD_SECONDS: f64 = 2e-9;
const EXACT_OPERATION_SECONDS: f64 = 1e-7;
const FLOAT_SECONDS: f64 = 2e-8;

/// The cost of [`beam`], before any work (the model and widths checked).
pub(crate) fn beam_estimate(
    search: &LookaheadSearch,
    mix: &Tasks,
    widths: &[u32],
    exact: bool,
) -> Result<Estimate> {
    check_beams(search, widths)?;
    Ok(beam_estimate_checked(search, mix, widths, exact))
}

fn beam_estimate_checked(
    search: &LookaheadSearch,
    mix: &Tasks,
    widths: &[u32],
    exact: bool,
) -> Estimate {
    let (fc, fw) = super::lookahead::frontier_cdfs(search, 1);
    let levels = fc.len() as f64;
    // The top-M laws computed (module docs of `selections`) and the answer's top-1 law.
    let scales = f64::from((unsettled_steps(search) + 1).min(search.steps - 1)) + 1.0;
    let d_bits = if exact {
        let (_, d) = BigInt::scale(&[fc, fw].concat());
        bits(&d)
    } else {
        0.0
    };
    let e_bits = bits(search.step_correct.denom());
    let types = mix.types().len() as f64;
    let mut seconds = 0.0;
    let mut bytes: f64 = 0.0;
    for &m in widths {
        let m = f64::from(m);
        let n = m * f64::from(search.branching);
        // Per level, c and j: three products of polynomials of about c, w and n terms.
        let top_m = levels * (m + 1.0) * (n + 1.0).powi(3) / 3.0;
        let top_1 = levels * 2.0 * (n + 1.0).powi(3) / 3.0;
        let operations = (scales - 1.0) * top_m + top_1;
        // The state: L transitions of (M + 1)^2 products per type, and the laws of c.
        let state = types * (f64::from(search.steps) * (m + 1.0).powi(2) + (m + 1.0) * n * 4.0);
        if exact {
            let word_bits = n * (d_bits + e_bits) + n * n.log2().max(1.0);
            let per = EXACT_OPERATION_SECONDS + EXACT_WORD_SECONDS * word_bits / 64.0;
            let state_bits = word_bits * f64::from(search.steps);
            seconds += operations * per
                + state * (EXACT_OPERATION_SECONDS + EXACT_WORD_SECONDS * state_bits / 64.0);
            bytes = bytes.max((n + 1.0) * (m + 1.0) * scales * word_bits / 8.0 * 2.0);
        } else {
            seconds += (operations + state) * FLOAT_SECONDS;
            bytes = bytes.max((n + 1.0) * (m + 1.0) * scales * 32.0);
        }
    }
    if exact {
        Estimate::new(
            "beam search in exact rationals",
            seconds,
            bytes,
            super::EXACT_HINT,
        )
    } else {
        Estimate::new(
            "beam search",
            seconds,
            bytes,
            "Ask for smaller widths (--beams) or a smaller --branching.",
        )
    }
}

#[cfg(test)]
mod tests;
