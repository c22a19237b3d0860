//! What a verifier-guided search spends, and best-of-N at equal compute beside it.
//!
//! **Counts.** A search generates steps (each proposed step of a solution is one generated
//! step) and calls the verifier (each scored prefix is one call). They do not depend on the
//! draws: the search does not know that a prefix is wrong, so it runs all L steps.
//!
//! - Depth-d lookahead, at each prefix of l = 0..L-1 steps: B candidates, each with a
//!   complete B-ary subtree of `h = min(d, L - l) - 1` more levels: `B (B^(h+1) - 1)/(B - 1)`
//!   generated steps and `B^(h+1)` calls (the frontier).
//! - Beam search of width M: `L M B` generated steps and `L M B` calls.
//! - Best-of-N: N complete solutions of L steps, `N L` generated steps and N calls (one
//!   score per complete solution).
//!
//! **Equal compute.** Best-of-N beside a search at equal generated steps has `N = steps / L`,
//! at equal verifier calls `N = calls`, at equal cost `N = (a steps + v calls) / (a L + v)`
//! (prices a per step, v per call). A match N that is not a whole number is met in
//! expectation: `floor(N)` samples and one more with probability `N - floor(N)`, whose
//! accuracy is `(1 - f) P(floor N) + f P(floor N + 1)`, exactly.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::arith::weighted;
use super::{LookaheadSearch, MAX_COUNT, TaskType, Tasks, best_of_n};
use crate::analytic::distributions::Bounded;
use crate::error::{Error, Result};
use crate::numeric::number::Probability;

/// The prices of a generated step and of a verifier call.
#[derive(Debug, Clone, PartialEq)]
pub struct Prices {
    /// The price of one generated step (`--cost-sample`).
    pub sample: BigRational,
    /// The price of one verifier call (`--cost-verifier`).
    pub verifier: BigRational,
}

impl Prices {
    /// One per step and one per call.
    pub fn unit() -> Prices {
        Prices {
            sample: BigRational::one(),
            verifier: BigRational::one(),
        }
    }

    /// Checks that both prices are at least 0 and one is positive.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--cost-sample` or `--cost-verifier`.
    pub fn check(&self) -> Result<()> {
        if self.sample.is_negative() {
            return Err(Error::invalid("--cost-sample", "at least 0", &self.sample));
        }
        if self.verifier.is_negative() {
            return Err(Error::invalid(
                "--cost-verifier",
                "at least 0",
                &self.verifier,
            ));
        }
        if self.sample.is_zero() && self.verifier.is_zero() {
            return Err(Error::invalid(
                "--cost-sample",
                "positive when --cost-verifier is 0 (one of the prices positive)",
                &self.sample,
            ));
        }
        Ok(())
    }
}

/// What one run of a search generates and scores.
#[derive(Debug, Clone, PartialEq)]
pub struct Spend {
    /// Generated steps.
    pub steps: BigInt,
    /// Verifier calls.
    pub calls: BigInt,
}

impl Spend {
    /// Depth-d lookahead (module docs).
    pub fn lookahead(branching: u32, steps: u32, depth: u32) -> Spend {
        let b = BigInt::from(branching);
        let (mut generated, mut calls) = (BigInt::zero(), BigInt::zero());
        for l in 0..steps {
            let h = depth.min(steps - l) - 1;
            let frontier = num_traits::pow(b.clone(), h as usize + 1);
            generated += &b * (&frontier - 1u32) / (&b - 1u32);
            calls += frontier;
        }
        Spend {
            steps: generated,
            calls,
        }
    }

    /// Beam search of width M (module docs).
    pub fn beam(branching: u32, steps: u32, beams: u32) -> Spend {
        let n = BigInt::from(steps) * BigInt::from(beams) * BigInt::from(branching);
        Spend {
            steps: n.clone(),
            calls: n,
        }
    }

    /// `a steps + v calls`.
    pub fn cost(&self, prices: &Prices) -> BigRational {
        &prices.sample * BigRational::from_integer(self.steps.clone())
            + &prices.verifier * BigRational::from_integer(self.calls.clone())
    }
}

/// Best-of-N at one matched N.
#[derive(Debug, Clone, PartialEq)]
pub struct Matched<P> {
    /// The matched N (a rational: met in expectation when not whole).
    pub n: BigRational,
    /// Best-of-N's probability of a correct answer (`None`: not computed, see the note).
    pub correct: Option<Bounded<P>>,
}

/// Best-of-N beside one row: at equal generated steps, verifier calls and cost.
#[derive(Debug, Clone, PartialEq)]
pub struct EqualCompute<P> {
    /// The search's spend.
    pub spend: Spend,
    /// Its cost at the prices.
    pub cost: BigRational,
    /// At equal generated steps.
    pub steps: Matched<P>,
    /// At equal verifier calls.
    pub calls: Matched<P>,
    /// At equal cost.
    pub cost_matched: Matched<P>,
}

/// Best-of-N beside every spend of `spends` (module docs), over the difficulty mix `mix`
/// (a complete solution of a type with step probability Q is correct with probability
/// `Q^L`), scored at length L by `search`'s verifier. Returns the rows and, when best-of-N
/// is left out (a matched N above the largest N, or exact powers too large), why.
///
/// # Errors
///
/// As [`best_of_n`] (its refusal is turned into the note, not an error);
/// [`Error::Interrupted`] when cancelled.
pub(crate) fn equal_compute<P: Probability>(
    search: &LookaheadSearch,
    mix: &Tasks,
    spends: &[Spend],
    prices: &Prices,
) -> Result<(Vec<EqualCompute<P>>, Option<String>)> {
    let l = BigInt::from(search.steps);
    let per_solution = &prices.sample * BigRational::from_integer(l.clone()) + &prices.verifier;
    let matched: Vec<[BigRational; 3]> = spends
        .iter()
        .map(|s| {
            [
                BigRational::new(s.steps.clone(), l.clone()),
                BigRational::from_integer(s.calls.clone()),
                s.cost(prices) / &per_solution,
            ]
        })
        .collect();
    let mut ns: Vec<u64> = Vec::new();
    let mut too_large = false;
    for n in matched.iter().flatten() {
        let floor = n.floor().to_integer();
        for whole in [floor.clone(), floor + 1u32] {
            match whole.to_u64() {
                Some(w) if (1..=MAX_COUNT).contains(&w) => ns.push(w),
                _ => too_large = true,
            }
        }
    }
    ns.sort_unstable();
    ns.dedup();
    let (correct, wrong) = search.frontier(search.steps);
    let solutions = Tasks::from_types(
        mix.types()
            .iter()
            .map(|t| TaskType {
                success: num_traits::pow(t.success.clone(), search.steps as usize),
                share: t.share.clone(),
            })
            .collect(),
    );
    let mut note = None;
    let mut values: Option<Vec<Bounded<P>>> = None;
    if too_large {
        note = Some(format!(
            "best-of-N at equal compute is not computed: a matched N is above {MAX_COUNT}"
        ));
    } else {
        let estimate =
            super::best_of_n::best_of_n_estimate(&solutions, &correct, &wrong, &ns, P::EXACT)?;
        if estimate.cost.exceeds_limits() {
            note = Some(format!(
                "best-of-N at equal compute is left out{}: {} would take {}",
                if P::EXACT { " in exact rationals" } else { "" },
                estimate.what,
                crate::budget::human_seconds(estimate.cost.seconds)
            ));
        } else {
            let rows = best_of_n::<P>(&solutions, &correct, &wrong, &ns)?.rows;
            values = Some(rows.into_iter().map(|r| r.correct).collect());
        }
    }
    let at = |n: &BigRational| -> Matched<P> {
        let correct = values.as_ref().map(|v| {
            let floor = n.floor();
            let f = n - &floor;
            let whole = floor.to_integer().to_u64().expect("checked");
            let index = |w: u64| ns.binary_search(&w).expect("listed");
            let low = &v[index(whole)];
            let high = &v[index(whole + 1)];
            interpolate(low, high, &f)
        });
        Matched {
            n: n.clone(),
            correct,
        }
    };
    let rows = spends
        .iter()
        .zip(&matched)
        .map(|(s, [steps, calls, cost])| EqualCompute {
            spend: s.clone(),
            cost: s.cost(prices),
            steps: at(steps),
            calls: at(calls),
            cost_matched: at(cost),
        })
        .collect();
    Ok((rows, note))
}

/// `(1 - f) low + f high`, exactly or with a rigorous bound.
fn interpolate<P: Probability>(low: &Bounded<P>, high: &Bounded<P>, f: &BigRational) -> Bounded<P> {
    if f.is_zero() {
        return low.clone();
    }
    weighted(&[(BigRational::one() - f, low), (f.clone(), high)])
}

/// A rational as a cell of a real column: a whole number below 2^53 as the double it is
/// exactly, else the exact rational.
pub(crate) fn whole_or_exact(n: &BigRational) -> crate::report::Cell {
    const EXACT_DOUBLES: i64 = 1 << 53;
    if n.is_integer()
        && let Some(x) = n.to_integer().to_i64().filter(|x| x.abs() < EXACT_DOUBLES)
    {
        return crate::report::Cell::Real(x as f64);
    }
    crate::report::Cell::Exact(n.clone())
}

/// A count as a cell of an integer column (empty beyond 2^127, with the report's note).
pub(crate) fn count(n: &BigInt) -> crate::report::Cell {
    n.to_i128()
        .map_or(crate::report::Cell::Empty, crate::report::Cell::int)
}

/// What a sample-based strategy spends per task, as columns `samples`, `verifier_calls` and
/// `cost` beside each row (lookahead and beam search count `steps` instead of samples):
/// `samples` is whole (`Kind::Integer`) or, for resampling, an expectation (`Kind::Real`).
pub(crate) fn sample_columns(expected: bool) -> Vec<crate::report::Column> {
    use crate::report::{Column, Kind};
    let kind = if expected { Kind::Real } else { Kind::Integer };
    vec![
        Column::new("samples", kind).labelled("samples"),
        Column::new("verifier_calls", kind).labelled("calls"),
        Column::new("cost", Kind::Real).labelled("cost"),
    ]
}

/// The cells of [`sample_columns`] for whole counts: `a samples + v calls`, exactly.
pub(crate) fn sample_cells(samples: u64, calls: u64, prices: &Prices) -> Vec<crate::report::Cell> {
    let cost = &prices.sample * BigRational::from_integer(samples.into())
        + &prices.verifier * BigRational::from_integer(calls.into());
    vec![
        crate::report::Cell::int(samples),
        crate::report::Cell::int(calls),
        whole_or_exact(&cost),
    ]
}

/// `factor x`, exactly, or in `f64` with a rigorous bound (not clamped: a cost is no
/// probability). `x` is an expected count; `factor` a price.
pub(crate) fn scaled<P: Probability>(x: &Bounded<P>, factor: &BigRational) -> Bounded<P> {
    if P::EXACT {
        let value = x.value.exact_value().expect("exact mode") * factor;
        return Bounded {
            value: P::from_rational(&value),
            bound: 0.0,
        };
    }
    let enclosed = if x.bound == 0.0 {
        crate::numeric::enclosure::Enclosure::point(x.value.to_f64())
    } else {
        crate::numeric::enclosure::Enclosure::around(x.value.to_f64(), x.bound)
    };
    let product = crate::numeric::enclosure::Ring::mul(
        &crate::numeric::enclosure::Enclosure::of(factor),
        &enclosed,
    );
    super::arith::Value::Float(product).bounded(f64::MIN, f64::MAX)
}

/// The note that says how a sample-based strategy's spend is counted: `what` names its
/// samples and calls.
pub(crate) fn sample_note(what: &str, prices: &Prices) -> String {
    format!(
        "{what}; cost = {} samples + {} verifier_calls (--cost-sample, --cost-verifier, default \
         1 each)",
        crate::numeric::number::short_text(&prices.sample),
        crate::numeric::number::short_text(&prices.verifier),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counts_are_the_stated_sums() {
        // d = 1: B candidates per step, one call each.
        let s = Spend::lookahead(4, 5, 1);
        assert_eq!((s.steps, s.calls), (BigInt::from(20), BigInt::from(20)));
        // d = L = 2, B = 3: at l = 0, 3 candidates with 3 children each (12 steps, 9 calls);
        // at l = 1, 3 candidates (3 steps, 3 calls).
        let s = Spend::lookahead(3, 2, 2);
        assert_eq!((s.steps, s.calls), (BigInt::from(15), BigInt::from(12)));
        let s = Spend::beam(4, 20, 8);
        assert_eq!((s.steps, s.calls), (BigInt::from(640), BigInt::from(640)));
    }
}
