//! Up-front estimates of time and memory, so that infeasible sizes are refused before any
//! work (the support of the piece count grows as `b^h`, exact numbers as `b^h` bits).
//!
//! The model follows [`crate::dgame::cost`]: with the piece count, level t holds `states(t)`
//! pairs of vectors of `b^t + 1` entries and costs `2b - 2` products (convolutions: FFTs of
//! length `N >= 2 b^t`, `N log2 N` butterflies, three transforms each; exact: Kronecker
//! multiplications of `entries x bits` bits, `W log2 W` in their size `W` in words, as the
//! number-theoretic transform of the backend). Exact numbers at height t
//! have about `bits_t = log2(unit) + b (log2(mix) + bits_(t-1))` bits. The back-up of each
//! depth costs `O(b)` products per entry and level. With the artificial evaluator the front
//! has two values and only the exact numbers grow. Constants are those measured for the
//! binary engine; the estimate is meant to be right within a factor of a few.

use super::families::denominator_bits;
use super::{Evaluator, Family};
use crate::dgame::Cost;
use crate::dgame::cost::{
    MEMORY_LIMIT_BYTES, TIME_LIMIT_SECONDS, exact_multiply_seconds, exact_product_seconds,
    human_bytes, human_seconds,
};
use crate::error::{Error, Result};
use crate::number::Probability;

const FLOAT_RATE: f64 = 3.0e8;
const FFT_COEFFICIENT: f64 = 3.0e-9;

/// Estimates the time and memory of all depths at one height.
///
/// # Examples
///
/// ```
/// use pathology::exact::{Evaluator, Family, PGame, estimate_cost};
/// let small = estimate_cost(&Family::P(PGame::new(2, 0.5).unwrap()), &Evaluator::Count, 10);
/// assert!(small.seconds < 0.1);
/// let big = estimate_cost(&Family::P(PGame::new(3, 0.5).unwrap()), &Evaluator::Count, 20);
/// assert!(big.seconds > 60.0 || big.bytes > 1e10);
/// ```
pub fn estimate_cost<P: Probability>(
    family: &Family<P>,
    evaluator: &Evaluator<P>,
    height: u32,
) -> Cost {
    let b = f64::from(family.branching());
    let bf = b;
    let count = matches!(evaluator, Evaluator::Count);
    let states = |t: u32| match family {
        Family::N(_) => f64::from(height - t + 1),
        _ => 1.0,
    };
    let (mix_bits, leaf_bits, unit_bits) = match family {
        Family::N(g) => (denominator_bits(std::slice::from_ref(g.q())), 0.0, 0.0),
        Family::P(g) => (0.0, denominator_bits(std::slice::from_ref(g.p())), 0.0),
        Family::D(_) => (0.0, 0.0, denominator_bits(&family.parameters())),
    };
    let exact = P::EXACT;
    let evaluator_bits = match evaluator {
        Evaluator::Artificial { error } if exact => denominator_bits(std::slice::from_ref(error)),
        _ => 0.0,
    };
    let mut seconds = 0.0;
    let mut bytes = 0.0;
    let mut bits = leaf_bits.max(1.0);
    let top = height.saturating_sub(1);
    for t in 1..=top {
        bits = unit_bits + b * (mix_bits + bits) + evaluator_bits;
        let entries = if count { b.powi(t as i32) + 1.0 } else { 2.0 };
        let products = (2.0 * bf - 2.0) * states(t);
        if exact {
            let words = (entries * bits / 64.0).max(1.0);
            seconds += products * exact_multiply_seconds(words);
            bytes += 2.0 * states(t) * entries * bits / 8.0 + 3.0 * words * 8.0;
        } else if count {
            let size = (2.0 * entries).log2().ceil().exp2();
            seconds += products * 3.0 * size * size.log2() * FFT_COEFFICIENT;
            bytes += 2.0 * states(t) * entries * 8.0 + 5.0 * size * 16.0;
        }
    }
    // Back-up: every depth, every level above its front, ~4b products per entry.
    for d in 1..=height {
        let front = height - d;
        let entries = if count {
            b.powi(front as i32) + 1.0
        } else {
            2.0
        };
        for t in front + 1..height {
            let work = 4.0 * bf * entries * states(t);
            seconds += if exact {
                let t_bits = bits.min(unit_bits + b.powi(t as i32) * (mix_bits + leaf_bits + 1.0));
                work * exact_product_seconds(t_bits / 64.0)
            } else {
                work / FLOAT_RATE
            };
        }
        seconds += bf * bf * bf * entries / FLOAT_RATE;
    }
    Cost {
        seconds: seconds / 2.0, // two cores
        bytes,
    }
}

/// Refuses, with the estimate, a computation that would exceed about a minute or 16 GiB.
///
/// # Examples
///
/// ```
/// use pathology::exact::{Evaluator, Family, PGame, check_cost};
/// let game = Family::P(PGame::new(4, 0.5).unwrap());
/// assert!(check_cost(&game, &Evaluator::Count, 8).is_ok());
/// let refused = check_cost(&game, &Evaluator::Count, 16).unwrap_err();
/// assert!(refused.to_string().contains("refused"));
/// assert!(refused.is_usage());
/// ```
///
/// # Errors
///
/// [`Error::TooExpensive`] with the estimate and a hint.
pub fn check_cost<P: Probability>(
    family: &Family<P>,
    evaluator: &Evaluator<P>,
    height: u32,
) -> Result<Cost> {
    let b = family.branching();
    if matches!(evaluator, Evaluator::Count)
        && u64::from(b)
            .checked_pow(height.saturating_sub(1))
            .is_none_or(|n| n > 1 << 40)
    {
        return Err(Error::invalid(
            "--branching",
            &format!(
                "small enough that b^(h-1) <= 2^40 at --height {height} with the piece count (its support has b^(h-1) + 1 values)"
            ),
            b,
        ));
    }
    // Binary D-games with the piece count are computed by `dgame::Solver` (as `solve`
    // dispatches them): its own cost model and refusal apply.
    if let (Family::D(game), Evaluator::Count) = (family, evaluator)
        && b == 2
    {
        let factors = [(game.win_max()[1].clone(), game.loss_min()[1].clone())];
        return crate::dgame::check_cost(height, crate::dgame::table::denominator_bits(&factors));
    }
    let cost = estimate_cost(family, evaluator, height);
    if cost.seconds > TIME_LIMIT_SECONDS || cost.bytes > MEMORY_LIMIT_BYTES {
        let mode = if P::EXACT { "exact" } else { "f64" };
        let hint = if P::EXACT {
            "Use the f64 mode (drop --exact), whose rounding error is rigorously bounded, or a smaller --height or --branching."
        } else {
            "Use a smaller --height or --branching, or the artificial evaluator (two values per node)."
        };
        return Err(Error::TooExpensive {
            what: format!(
                "D(d,h) for a {}-game with b = {b} at height {height} ({} evaluator, {mode} mode)",
                family.name().to_uppercase(),
                evaluator.name()
            ),
            estimate: format!(
                "about {} and {} of memory",
                human_seconds(cost.seconds),
                human_bytes(cost.bytes)
            ),
            limit: format!(
                "{} and {}",
                human_seconds(TIME_LIMIT_SECONDS),
                human_bytes(MEMORY_LIMIT_BYTES)
            ),
            hint: hint.to_string(),
        });
    }
    Ok(cost)
}
