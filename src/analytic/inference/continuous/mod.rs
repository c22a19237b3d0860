//! The continuous laws behind the lattices `gaussian:S`, `normal:MU,S` and `uniform:A`, for
//! best-of-n and (normal laws) reward-weighted voting ([`normal_weighted_vote`], module
//! `weighted`).
//!
//! `gaussian:S` is N(0, S^2) on 33 points (steps of S/4 out to 4 S), `normal:MU,S` the same
//! shifted by MU, and `uniform:A` is U(-A, A) on 17 points (steps of A/8): the exact engine
//! of `pathology inference` computes with these lattices. This module computes best-of-n with
//! the continuous laws themselves. With a continuous correct law (density `f_c`) ties with it
//! have probability 0, and a type of per-sample success R gives
//!
//! `P_correct(n) = n R int f_c(x) G(x)^(n-1) dx`, `G = R F_c + (1 - R) F_w`
//!
//! (some correct sample has the largest score: n choices of it, each below it the other n - 1
//! samples). With a discrete correct law (atoms `p_s`) and a continuous wrong one, a tie at
//! the top is among correct samples only, and `P_correct(n) = sum_s G(s)^n - (G(s) - R p_s)^n`.
//!
//! Two normal laws (`gaussian:S`, `normal:MU,S`): [`normal_best_of_n`] encloses the integral
//! rigorously (validated Taylor quadrature in interval arithmetic with analytic tail bounds;
//! the module `normal` states the method and what it assumes of libm), an enclosure at most
//! 10^-9 wide for every n up to [`NORMAL_MAX_N`]. As n grows the largest score comes from the
//! law with the heavier upper tail: the larger s, or at equal s the larger mean
//! ([`normal_limit`]).
//!
//! Other pairs with a continuous law (a uniform law, or one continuous and one discrete): the
//! integral is computed numerically by adaptive Simpson quadrature on each interval between
//! the laws' breakpoints (the ends of a uniform law, the atoms of a discrete one), over the
//! correct law's support cut at 12 standard deviations; the normal distribution function by
//! `libm::erfc`. That result is a careful numerical value, not a rigorous enclosure: the
//! quadrature's error is estimated (Richardson), not bounded.

use num_traits::ToPrimitive;

mod interval;
pub mod normal;
mod weighted;

use num_rational::BigRational;

use super::Tasks;
use crate::analytic::pathsum::Law;
use crate::error::{Error, Result};
use crate::numeric::enclosure::Enclosure;

/// The largest n for which [`best_of_n`] integrates (beyond, `G^(n-1)` is a spike that the
/// quadrature would have to find: the report says the continuous value is not computed).
pub const MAX_N: u64 = 100_000;

/// The largest list of n that [`best_of_n`] integrates (one quadrature per n and task type).
pub const MAX_LIST: usize = 1_000;

/// The absolute tolerance of the quadrature per task type and n.
pub const TOLERANCE: f64 = 1e-12;

/// The largest n for which [`normal_best_of_n`] encloses `P_correct`.
pub const NORMAL_MAX_N: u64 = 1_000_000_000;

/// The longest list of n that [`normal_best_of_n`] takes (about 20 ms per n and task type).
pub const NORMAL_MAX_LIST: usize = 10_000;

/// The width [`normal_best_of_n`] aims at (and, in the tests, reaches) for each n.
pub const NORMAL_WIDTH: f64 = 1e-9;

/// The exact parameters (mean, standard deviation) of `gaussian:S` (mean 0) or
/// `normal:MU,S`; `None` for any other law.
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::continuous::normal_parameters;
/// use pathology::analytic::pathsum::Law;
/// let law = Law::parse("--score-correct", "normal:1,0.5").unwrap();
/// let (mu, s) = normal_parameters(&law).unwrap();
/// assert_eq!((mu.to_string(), s.to_string()), ("1".to_string(), "1/2".to_string()));
/// assert!(normal_parameters(&Law::parse("--score-correct", "uniform:1").unwrap()).is_none());
/// ```
pub fn normal_parameters(law: &Law) -> Option<(BigRational, BigRational)> {
    use crate::numeric::number::parse_rational;
    let text = law.text();
    let lower = text.to_ascii_lowercase();
    if let Some(s) = lower.strip_prefix("gaussian:") {
        return Some((BigRational::from_integer(0.into()), parse_rational(s).ok()?));
    }
    let (mu, s) = lower.strip_prefix("normal:")?.split_once(',')?;
    Some((parse_rational(mu).ok()?, parse_rational(s).ok()?))
}

/// Best-of-n's `P_correct` at each n of `ns` with two normal score laws (`gaussian:S`,
/// `normal:MU,S` as the continuous laws they name), each as a rigorous enclosure (module
/// `normal`: validated Taylor quadrature, analytic tails; libm's `erfc`, `exp`, `log`,
/// `log1p` assumed within 4 ulps). `Ok(None)` when either law is not normal.
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::{Tasks, continuous};
/// use pathology::analytic::pathsum::Law;
/// let tasks = Tasks::parse("0.6").unwrap();
/// let law = |s: &str| Law::parse("--score", s).unwrap();
/// let p = continuous::normal_best_of_n(&tasks, &law("normal:1,1"), &law("normal:0,1"), &[1, 2])
///     .unwrap()
///     .unwrap();
/// // n = 1: one sample, correct with probability R.
/// assert!(p[0].lower <= 0.6 && 0.6 <= p[0].upper && p[0].upper - p[0].lower < 1e-9);
/// // n = 2: R^2 + 2 R (1 - R) Phi(1 / sqrt 2) = 0.36 + 0.48 * 0.76024994...
/// let want = 0.36 + 0.48 * 0.760_249_938_906_523;
/// assert!(p[1].lower - 1e-15 <= want && want <= p[1].upper + 1e-15);
/// ```
///
/// # Errors
///
/// [`Error::TooExpensive`] for work beyond the budget (the refusal states the estimate);
/// [`Error::InvalidArgument`] naming `--n` for a list longer than [`NORMAL_MAX_LIST`] or an n
/// above [`NORMAL_MAX_N`] (or 0).
pub fn normal_best_of_n(
    tasks: &Tasks,
    correct: &Law,
    wrong: &Law,
    ns: &[u64],
) -> Result<Option<Vec<Enclosure>>> {
    let (Some((mu_c, s_c)), Some((mu_w, s_w))) =
        (normal_parameters(correct), normal_parameters(wrong))
    else {
        return Ok(None);
    };
    normal_estimate(tasks, ns).check()?;
    if ns.len() > NORMAL_MAX_LIST {
        return Err(Error::invalid(
            "--n",
            &format!("a list of at most {NORMAL_MAX_LIST} values with normal score laws"),
            format!("{} values", ns.len()),
        ));
    }
    if let Some(n) = ns.iter().find(|&&n| n == 0 || n > NORMAL_MAX_N) {
        return Err(Error::invalid(
            "--n",
            &format!("each n in 1..={NORMAL_MAX_N} with normal score laws"),
            n,
        ));
    }
    let (c, w) = (
        normal::Normal::new(&mu_c, &s_c),
        normal::Normal::new(&mu_w, &s_w),
    );
    let types: Vec<(interval::Iv, interval::Iv)> = tasks
        .types()
        .iter()
        .map(|t| (interval::Iv::of(&t.success), interval::Iv::of(&t.share)))
        .collect();
    // The quadrature starts from cells of half the smaller standard deviation over the range
    // where the integrand has mass: laws of very different scales need many, so the work is
    // counted (cheaply: the cuts only) and refused up front when it is too much.
    let settings: Vec<(normal::Setting, normal::Cuts, interval::Iv)> = ns
        .iter()
        .flat_map(|&n| {
            types.iter().map(move |&(success, share)| {
                let setting = normal::Setting {
                    correct: c,
                    wrong: w,
                    success,
                    n,
                };
                let cuts = setting.cuts();
                (setting, cuts, share)
            })
        })
        .collect();
    let cells: f64 = settings.iter().map(|(s, cuts, _)| s.cells(cuts)).sum();
    super::Estimate::new(
        "best-of-n with normal score laws (the continuous integral)",
        cells * NORMAL_CELL_SECONDS,
        ns.len() as f64 * 256.0,
        NORMAL_HINT,
    )
    .check()?;
    let cancel = crate::cancel::current();
    let mut out = Vec::with_capacity(ns.len());
    for one_n in settings.chunks(types.len()) {
        cancel.check()?;
        let mut total = interval::Iv::zero();
        for (setting, cuts, share) in one_n {
            total = total.add(share.mul(setting.probability_within(*cuts)));
        }
        out.push(Enclosure {
            lower: total.lo.max(0.0),
            upper: total.hi.min(1.0),
        });
    }
    Ok(Some(out))
}

/// Seconds per n and task type of [`normal_best_of_n`] (measured: 22 values of n from 1 to
/// 10^6 for one type in 0.03 s, 1.4 ms each; twice that allowed).
const NORMAL_SECONDS: f64 = 3e-3;

/// Seconds per starting cell of the quadrature of [`normal_best_of_n`], its halvings
/// included (measured on n = 1..10^6 doubling, one task type: N(0, 0.01^2) against
/// N(0, 100^2), 316,684 cells in 2.75 s; N(1000, 1) against N(0, 1), 10,300 cells in 0.16 s;
/// rounded up to about twice the larger).
const NORMAL_CELL_SECONDS: f64 = 2e-5;

/// What to ask for instead of a continuous best-of-n that is too long.
const NORMAL_HINT: &str = "The score laws' standard deviations (or their means, in units of the \
     smaller deviation) are far apart, and the quadrature's cells are half the smaller \
     deviation: ask for fewer values of n, or for the lattice laws exactly with --exact.";

/// The cost of [`normal_best_of_n`], before any work.
pub(crate) fn normal_estimate(tasks: &Tasks, ns: &[u64]) -> super::Estimate {
    super::Estimate::new(
        "best-of-n",
        ns.len() as f64 * tasks.types().len() as f64 * NORMAL_SECONDS,
        ns.len() as f64 * 256.0,
        super::FLOAT_HINT,
    )
}

/// The longest list of k that [`normal_weighted_vote`] takes.
pub const WEIGHTED_MAX_LIST: usize = 1_000;

/// Reward-weighted voting's `P_correct` at each k of `ks` with two normal score laws
/// (`gaussian:S`, `normal:MU,S` as the continuous laws they name; `wrong` the wrong answers'
/// shares), each as a rigorous enclosure: per count vector the correct answer's total beats
/// every wrong total with probability `int f_0 prod F_j dx`, enclosed by validated Taylor
/// quadrature with analytic tails (module `normal`'s method and assumptions), summed with the
/// count vectors' exact multinomial weights. `Ok(None)` when either law is not normal.
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::{Tasks, continuous};
/// use pathology::analytic::pathsum::Law;
/// use num_rational::BigRational;
/// let tasks = Tasks::parse("0.6").unwrap();
/// let law = |s: &str| Law::parse("--score", s).unwrap();
/// let one_wrong = [BigRational::from_integer(1.into())];
/// let p = continuous::normal_weighted_vote(
///     &tasks, &one_wrong, &law("normal:1,1"), &law("normal:0,1"), &[1, 2],
/// )
/// .unwrap()
/// .unwrap();
/// // k = 1: the one sample's answer, correct with probability R.
/// assert!(p[0].lower <= 0.6 && 0.6 <= p[0].upper && p[0].upper - p[0].lower < 1e-9);
/// // k = 2: both correct, or one of each with the correct score above the wrong one:
/// // R^2 + 2 R (1 - R) Phi(1 / sqrt 2) = 0.36 + 0.48 * 0.76024994...
/// let want = 0.36 + 0.48 * 0.760_249_938_906_523;
/// assert!(p[1].lower - 1e-15 <= want && want <= p[1].upper + 1e-15);
/// ```
///
/// # Errors
///
/// [`Error::TooExpensive`] for work beyond the budget (the refusal states the estimate:
/// the count vectors grow as the partitions of k); [`Error::InvalidArgument`] naming `--k`
/// for a list longer than [`WEIGHTED_MAX_LIST`] or a k of 0; [`Error::Interrupted`] when
/// cancelled.
pub fn normal_weighted_vote(
    tasks: &Tasks,
    wrong: &[BigRational],
    correct: &Law,
    wrong_law: &Law,
    ks: &[u64],
) -> Result<Option<Vec<Enclosure>>> {
    let (Some(c), Some(w)) = (normal_parameters(correct), normal_parameters(wrong_law)) else {
        return Ok(None);
    };
    if ks.len() > WEIGHTED_MAX_LIST {
        return Err(Error::invalid(
            "--k",
            &format!("a list of at most {WEIGHTED_MAX_LIST} values with normal score laws"),
            format!("{} values", ks.len()),
        ));
    }
    if let Some(k) = ks.iter().find(|&&k| k == 0) {
        return Err(Error::invalid("--k", "each k at least 1", k));
    }
    weighted_estimate(tasks, wrong, (&c.1, &w.1), ks).check()?;
    let types: Vec<(BigRational, BigRational)> = tasks
        .types()
        .iter()
        .map(|t| (t.success.clone(), t.share.clone()))
        .collect();
    let values = weighted::enclose(&types, wrong, (&c.0, &c.1), (&w.0, &w.1), ks)?;
    Ok(Some(
        values
            .iter()
            .map(|v| Enclosure {
                lower: v.lo,
                upper: v.hi,
            })
            .collect(),
    ))
}

/// Seconds of one cell of the weighted vote's quadrature per score law in its integrand
/// (measured; twice that allowed).
const WEIGHTED_CELL_SECONDS: f64 = 2.5e-7;

/// The cost of [`normal_weighted_vote`], before any work: per distinct integral its cells
/// (growing with the logarithm of the ratio of the deviations) times the laws in it, per task
/// type and integral an exact weight, and the programme of the shares' sums (measured: 0.6 s
/// for k = 1..20 with three wrong answers, 8.6 s for k = 30 with ten; estimated at about
/// twice that).
pub(crate) fn weighted_estimate(
    tasks: &Tasks,
    wrong: &[BigRational],
    (s_c, s_w): (&BigRational, &BigRational),
    ks: &[u64],
) -> super::Estimate {
    let top = ks.iter().copied().max().unwrap_or(0) as f64;
    let m = wrong.len();
    let (integrals, states) = weighted::counts(ks, m);
    // The weights' numbers: powers up to k of the shares' and the successes' denominators.
    let d = wrong.iter().fold(num_bigint::BigInt::from(1), |acc, u| {
        num_integer::Integer::lcm(&acc, u.denom())
    });
    let r_bits = tasks
        .types()
        .iter()
        .map(|t| super::arith::bits(t.success.denom()))
        .fold(0.0, f64::max);
    let bits = top * (super::arith::bits(&d) + r_bits + 2.0);
    let ratio = (s_c.to_f64().unwrap_or(1.0) / s_w.to_f64().unwrap_or(1.0)).max(1.0);
    // About 29 cells of half the correct total's deviation, four halvings each, and more
    // halvings (a few per halving of the scale) where a steeper wrong law's step lies.
    let cells = 29.0 * 4.0 * (1.0 + (top.sqrt() * ratio).max(1.0).log2());
    let laws = 1.0 + top.min(m as f64);
    let seconds = integrals * cells * laws * WEIGHTED_CELL_SECONDS
        + integrals * tasks.types().len() as f64 * 20.0 * super::product_seconds(bits).max(2e-7)
        + states * m as f64 * top * super::product_seconds(bits).max(2e-7);
    super::Estimate::new(
        "reward-weighted voting with normal score laws (one integral per count pattern)",
        seconds,
        states * bits / 8.0 * 2.0 + integrals * 64.0,
        "Ask for fewer votes k or fewer wrong answers (the count patterns grow as the \
         partitions of k), or give --exact for the 33-point lattices.",
    )
}

/// The limit of best-of-n's `P_correct` as n grows with two normal score laws, exactly: per
/// task type 1 when the correct law's upper tail is the heavier (larger s, or equal s and
/// larger mean), 0 when the wrong one's is, R when the laws are equal (and R itself when R
/// is 0 or 1). `None` when either law is not normal.
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::{Tasks, continuous};
/// use pathology::analytic::pathsum::Law;
/// let tasks = Tasks::parse("0.6:0.5,0.2:0.5").unwrap();
/// let law = |s: &str| Law::parse("--score", s).unwrap();
/// let limit = continuous::normal_limit(&tasks, &law("normal:1,1"), &law("gaussian:1")).unwrap();
/// assert_eq!(limit.to_string(), "1");
/// let limit = continuous::normal_limit(&tasks, &law("gaussian:1"), &law("gaussian:2")).unwrap();
/// assert_eq!(limit.to_string(), "0");
/// ```
pub fn normal_limit(tasks: &Tasks, correct: &Law, wrong: &Law) -> Option<BigRational> {
    use num_traits::{One, Zero};
    let (mu_c, s_c) = normal_parameters(correct)?;
    let (mu_w, s_w) = normal_parameters(wrong)?;
    let heavier = s_c.cmp(&s_w).then(mu_c.cmp(&mu_w));
    Some(
        tasks
            .types()
            .iter()
            .map(|t| {
                let per_type = if t.success.is_zero() || t.success.is_one() {
                    t.success.clone()
                } else {
                    match heavier {
                        std::cmp::Ordering::Greater => BigRational::one(),
                        std::cmp::Ordering::Less => BigRational::zero(),
                        std::cmp::Ordering::Equal => t.success.clone(),
                    }
                };
                &t.share * per_type
            })
            .sum(),
    )
}

/// A score law without its lattice.
#[derive(Debug, Clone, PartialEq)]
enum Score {
    /// N(mean, sd^2).
    Normal(f64, f64),
    /// U(-a, a).
    Uniform(f64),
    /// A discrete law: (value, probability).
    Atoms(Vec<(f64, f64)>),
}

impl Score {
    /// The law `law` stands for: the continuous one of `gaussian:S` or `uniform:A`, else its
    /// atoms.
    fn of(law: &Law) -> Score {
        let text = law.text();
        let width = |prefix: &str| {
            text.strip_prefix(prefix)
                .and_then(|w| crate::numeric::number::parse_rational(w).ok())
                .and_then(|w| w.to_f64())
        };
        if let Some(s) = width("gaussian:") {
            return Score::Normal(0.0, s);
        }
        if let Some((mu, s)) = text.strip_prefix("normal:").and_then(|rest| {
            let (mu, s) = rest.split_once(',')?;
            let number = |t: &str| crate::numeric::number::parse_rational(t).ok()?.to_f64();
            Some((number(mu)?, number(s)?))
        }) {
            return Score::Normal(mu, s);
        }
        if let Some(a) = width("uniform:") {
            return Score::Uniform(a);
        }
        Score::Atoms(
            law.atoms()
                .iter()
                .map(|(v, p)| (v.to_f64().unwrap_or(0.0), p.to_f64().unwrap_or(0.0)))
                .collect(),
        )
    }

    fn continuous(&self) -> bool {
        !matches!(self, Score::Atoms(_))
    }

    /// P(score <= x).
    fn cdf(&self, x: f64) -> f64 {
        match self {
            Score::Normal(mu, sd) => 0.5 * libm::erfc(-(x - mu) / (sd * std::f64::consts::SQRT_2)),
            Score::Uniform(a) => ((x + a) / (2.0 * a)).clamp(0.0, 1.0),
            Score::Atoms(atoms) => atoms.iter().filter(|(v, _)| *v <= x).map(|a| a.1).sum(),
        }
    }

    /// The density (continuous laws only).
    fn pdf(&self, x: f64) -> f64 {
        match self {
            Score::Normal(mu, sd) => {
                let z = (x - mu) / sd;
                (-0.5 * z * z).exp() / (sd * (2.0 * std::f64::consts::PI).sqrt())
            }
            Score::Uniform(a) if x.abs() < *a => 0.5 / a,
            _ => 0.0,
        }
    }

    /// Where the integrand may jump or bend: the ends of a uniform law, the atoms.
    fn breaks(&self) -> Vec<f64> {
        match self {
            Score::Normal(..) => Vec::new(),
            Score::Uniform(a) => vec![-a, *a],
            Score::Atoms(atoms) => atoms.iter().map(|a| a.0).collect(),
        }
    }

    /// The support of a continuous law (a normal one cut at 12 standard deviations).
    fn span(&self) -> (f64, f64) {
        match self {
            Score::Normal(mu, sd) => (mu - 12.0 * sd, mu + 12.0 * sd),
            Score::Uniform(a) => (-a, *a),
            Score::Atoms(_) => (0.0, 0.0),
        }
    }

    /// How the report names it.
    fn name(&self) -> String {
        match self {
            Score::Normal(mu, sd) => format!("N({}, {})", fmt(*mu), fmt(sd * sd)),
            Score::Uniform(a) => format!("U(-{}, {})", fmt(*a), fmt(*a)),
            Score::Atoms(_) => "its atoms".to_string(),
        }
    }
}

/// A width as the shortest decimal that reads back as it (`0.25`, `1`).
fn fmt(x: f64) -> String {
    format!("{x}")
}

/// Adaptive Simpson on `[a, b]` to absolute tolerance `tol`.
fn simpson(f: &dyn Fn(f64) -> f64, a: f64, b: f64, tol: f64) -> f64 {
    fn step(
        f: &dyn Fn(f64) -> f64,
        (a, fa): (f64, f64),
        (m, fm): (f64, f64),
        (b, fb): (f64, f64),
        whole: f64,
        tol: f64,
        depth: u32,
    ) -> f64 {
        let (l, r) = (0.5 * (a + m), 0.5 * (m + b));
        let (fl, fr) = (f(l), f(r));
        let left = (m - a) / 6.0 * (fa + 4.0 * fl + fm);
        let right = (b - m) / 6.0 * (fm + 4.0 * fr + fb);
        let delta = left + right - whole;
        // Below the rounding noise of the sums no halving helps: stop there too.
        let noise = 64.0 * f64::EPSILON * (left.abs() + right.abs());
        if depth == 0 || delta.abs() <= (15.0 * tol).max(noise) {
            return left + right + delta / 15.0;
        }
        step(f, (a, fa), (l, fl), (m, fm), left, tol / 2.0, depth - 1)
            + step(f, (m, fm), (r, fr), (b, fb), right, tol / 2.0, depth - 1)
    }
    // Start from 64 panels, so that a narrow peak (G^(n-1) at large n) is seen.
    let panels = 64;
    let h = (b - a) / f64::from(panels);
    let mut total = 0.0;
    for i in 0..panels {
        let (x0, x1) = (a + h * f64::from(i), a + h * f64::from(i + 1));
        let m = 0.5 * (x0 + x1);
        let (f0, fm, f1) = (f(x0), f(m), f(x1));
        let whole = (x1 - x0) / 6.0 * (f0 + 4.0 * fm + f1);
        total += step(
            f,
            (x0, f0),
            (m, fm),
            (x1, f1),
            whole,
            tol / f64::from(panels),
            30,
        );
    }
    total
}

/// Best-of-n's `P_correct` at each n of `ns` with the continuous laws that `gaussian:S` and
/// `uniform:A` discretize (a discrete law as it is), by numerical quadrature (module docs).
/// `None` when neither law is such a lattice, when both are discrete, or when the list or an n
/// is beyond [`MAX_LIST`] or [`MAX_N`].
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::{Tasks, continuous};
/// use pathology::analytic::pathsum::Law;
/// let tasks = Tasks::parse("0.6").unwrap();
/// let law = |s: &str| Law::parse("--score", s).unwrap();
/// // Equal continuous laws: the largest score is any sample's, correct with probability R.
/// let p = continuous::best_of_n(&tasks, &law("gaussian:1"), &law("gaussian:1"), &[1, 4]).unwrap();
/// assert!((p[0] - 0.6).abs() < 1e-9 && (p[1] - 0.6).abs() < 1e-9);
/// ```
pub fn best_of_n(tasks: &Tasks, correct: &Law, wrong: &Law, ns: &[u64]) -> Option<Vec<f64>> {
    if let Ok(Some(enclosures)) = normal_best_of_n(tasks, correct, wrong, ns) {
        return Some(
            enclosures
                .iter()
                .map(|e| 0.5 * (e.lower + e.upper))
                .collect(),
        );
    }
    let (c, w) = (Score::of(correct), Score::of(wrong));
    if !(c.continuous() || w.continuous())
        || ns.len() > MAX_LIST
        || ns.iter().any(|&n| n == 0 || n > MAX_N)
    {
        return None;
    }
    let types: Vec<(f64, f64)> = tasks
        .types()
        .iter()
        .map(|t| {
            (
                t.success.to_f64().unwrap_or(0.0),
                t.share.to_f64().unwrap_or(0.0),
            )
        })
        .collect();
    let values = ns
        .iter()
        .map(|&n| {
            types
                .iter()
                .map(|&(r, share)| share * one_type(&c, &w, r, n))
                .sum()
        })
        .collect();
    Some(values)
}

/// `P_correct(n)` of one task type of per-sample success r (module docs).
fn one_type(c: &Score, w: &Score, r: f64, n: u64) -> f64 {
    if r == 0.0 {
        return 0.0;
    }
    let g = |x: f64| r * c.cdf(x) + (1.0 - r) * w.cdf(x);
    let power = (n - 1) as f64;
    if let Score::Atoms(atoms) = c {
        // Ties at a correct atom are among correct samples (the wrong law is continuous).
        return atoms
            .iter()
            .map(|&(s, p)| {
                let top = g(s);
                top.powf(n as f64) - (top - r * p).max(0.0).powf(n as f64)
            })
            .sum();
    }
    let (low, high) = c.span();
    let mut cuts: Vec<f64> = c
        .breaks()
        .into_iter()
        .chain(w.breaks())
        .filter(|x| *x > low && *x < high)
        .collect();
    cuts.push(low);
    cuts.push(high);
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    let integrand = |x: f64| {
        let gx = g(x);
        if gx <= 0.0 {
            0.0
        } else {
            c.pdf(x) * (power * gx.ln()).exp()
        }
    };
    let pieces = cuts.len().saturating_sub(1).max(1) as f64;
    let integral: f64 = cuts
        .windows(2)
        .map(|x| simpson(&integrand, x[0], x[1], TOLERANCE / (n as f64 * r * pieces)))
        .sum();
    n as f64 * r * integral
}

/// The lattice of a `gaussian:S` or `uniform:A` law, in words (`None` for another law).
pub fn lattice_text(law: &Law) -> Option<String> {
    let text = law.text();
    match Score::of(law) {
        Score::Normal(mu, sd) => Some(format!(
            "{text} is {} on the 33 points {}k {}/4, |k| <= 16 (spacing {}), each the normal mass of its cell (the end points the tails) rounded to a multiple of 2^-40",
            Score::Normal(mu, sd).name(),
            if mu == 0.0 {
                String::new()
            } else {
                format!("{} + ", fmt(mu))
            },
            fmt(sd),
            fmt(sd / 4.0)
        )),
        Score::Uniform(a) => Some(format!(
            "{text} is {} on the 17 points k {}/8, |k| <= 8 (spacing {}), each the mass of its cell",
            Score::Uniform(a).name(),
            fmt(a),
            fmt(a / 8.0)
        )),
        Score::Atoms(_) => None,
    }
}

/// The note of a best-of-n report on lattice laws: which lattices, that the values are
/// theirs, and the continuous laws' values beside the lattice's (`lattice[i]` at `ns[i]`)
/// with the largest distance. `None` when neither law is a lattice.
pub fn best_of_n_note(
    tasks: &Tasks,
    correct: &Law,
    wrong: &Law,
    ns: &[u64],
    lattice: &[f64],
) -> Option<String> {
    let lattices: Vec<String> = [correct, wrong]
        .iter()
        .filter_map(|law| lattice_text(law))
        .collect();
    if lattices.is_empty() {
        return None;
    }
    let head = format!(
        "lattice laws: {}; every value above, and its bound, is for the lattice, not for the continuous law",
        lattices.join("; ")
    );
    let Some(values) = best_of_n(tasks, correct, wrong, ns) else {
        return Some(format!(
            "{head} (the continuous law's best-of-n is computed for at most {MAX_LIST} values of n up to {MAX_N}, so not here)"
        ));
    };
    let (at, distance) = ns
        .iter()
        .zip(lattice.iter().zip(&values))
        .map(|(&n, (l, c))| (n, (l - c).abs()))
        .fold((ns[0], 0.0), |best, x| if x.1 > best.1 { x } else { best });
    let shown: Vec<String> = ns
        .iter()
        .zip(&values)
        .take(12)
        .map(|(n, v)| format!("{v:.6} at n = {n}"))
        .collect();
    let how = match normal_best_of_n(tasks, correct, wrong, ns) {
        Ok(Some(enclosures)) => format!(
            "each continuous value the midpoint of a rigorous enclosure at most {:.1e} wide: validated Taylor quadrature of n R int f_c G^(n-1) dx per task type in outward-rounded interval arithmetic, the tails bounded analytically, libm's erfc, exp, log and log1p assumed within 4 ulps",
            enclosures
                .iter()
                .map(|e| e.upper - e.lower)
                .fold(0.0, f64::max)
        ),
        _ => format!(
            "the continuous values by adaptive Simpson quadrature of n R int f_c G^(n-1) dx per task type to an estimated {TOLERANCE:e}, erfc from libm: a careful numerical value, not a rigorous bound"
        ),
    };
    Some(format!(
        "{head}. With the continuous laws ({} correct, {} wrong) P_correct is {}{}; the lattice's values are off by at most {distance:.1e} (at n = {at}) ({how})",
        Score::of(correct).name(),
        Score::of(wrong).name(),
        shown.join(", "),
        if ns.len() > shown.len() { ", ..." } else { "" },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn law(s: &str) -> Law {
        Law::parse("--score", s).unwrap()
    }

    /// Closed forms: two normal laws N(0, 1) and N(0, s^2) at n = 2 give
    /// `P = R^2 + 2 R (1 - R) P(Z_c > Z_w) = R^2 + R (1 - R)` (symmetric: P(Z_c > Z_w) = 1/2);
    /// uniform against uniform U(-1, 1), U(-2, 2) at n = 2: P(S_c > S_w) = 1/2 as well; a
    /// correct law wider than the wrong one wins the limit.
    #[test]
    fn continuous_best_of_n_meets_closed_forms() {
        let tasks = Tasks::parse("0.3").unwrap();
        let r: f64 = 0.3;
        let want = r * r + r * (1.0 - r);
        for (c, w) in [
            ("gaussian:1", "gaussian:2"),
            ("uniform:1", "uniform:2"),
            ("gaussian:1", "uniform:3"),
        ] {
            let p = best_of_n(&tasks, &law(c), &law(w), &[1, 2]).unwrap();
            assert!((p[0] - r).abs() < 1e-10, "{c} {w}: {p:?}");
            assert!((p[1] - want).abs() < 1e-10, "{c} {w}: {p:?}");
        }
        // U(-1, 1) correct against U(-1/2, 1/2) wrong: P(S_c > S_w) = 1/2 by symmetry too,
        // and at n = 3 by the closed form n R int f_c G^(n-1).
        let p = best_of_n(&tasks, &law("uniform:2"), &law("uniform:1"), &[2, 1000]).unwrap();
        assert!((p[0] - want).abs() < 1e-10, "{p:?}");
        // Many samples: the top score is a correct sample's (the correct law reaches higher).
        assert!(p[1] > 0.999_999, "{p:?}");
        // A discrete wrong law: correct N(0, 1) against the point 0 at n = 2: the correct
        // sample is above 0 with probability 1/2, so P = R^2 + 2 R (1 - R) / 2.
        let p = best_of_n(&tasks, &law("gaussian:1"), &law("0"), &[2]).unwrap();
        assert!((p[0] - want).abs() < 1e-10, "{p:?}");
        // A discrete correct law against a continuous wrong one: correct always 0, wrong
        // N(0, 1): at n = 2, P = R^2 + 2 R (1 - R) / 2 again.
        let p = best_of_n(&tasks, &law("0"), &law("gaussian:1"), &[2]).unwrap();
        assert!((p[0] - want).abs() < 1e-10, "{p:?}");
        // Two discrete laws: no continuous law to compare with.
        assert_eq!(best_of_n(&tasks, &law("0"), &law("1"), &[2]), None);
    }

    /// The note names the lattice and the distance; against a Monte Carlo-free reference,
    /// the lattice of gaussian:1 against gaussian:2 at n = 16 is about 1e-3 from the
    /// continuous value.
    #[test]
    fn the_note_names_the_lattice_and_the_distance() {
        let tasks = Tasks::parse("0.6").unwrap();
        let (c, w) = (law("gaussian:1"), law("gaussian:2"));
        let lattice = crate::analytic::inference::best_of_n::<f64>(&tasks, &c, &w, &[16])
            .unwrap()
            .rows[0]
            .correct
            .value;
        let note = best_of_n_note(&tasks, &c, &w, &[16], &[lattice]).unwrap();
        assert!(
            note.contains("33 points k 1/4, |k| <= 16 (spacing 0.25)"),
            "{note}"
        );
        assert!(note.contains("(spacing 0.5)"), "{note}");
        let continuous = best_of_n(&tasks, &c, &w, &[16]).unwrap()[0];
        assert!(
            (lattice - continuous).abs() > 1e-4,
            "{lattice} {continuous}"
        );
        assert!(
            note.contains(&format!("{continuous:.6} at n = 16")),
            "{note}"
        );
        assert_eq!(
            best_of_n_note(&tasks, &law("0"), &law("1"), &[2], &[0.5]),
            None
        );
    }
}
