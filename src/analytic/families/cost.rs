//! Up-front estimates of time and memory, so that infeasible sizes are refused before any
//! work (the support of the piece count grows as `b^h`, exact numbers as `b^h` bits).
//!
//! The model follows the engine ([`super::engine`]). Exact numbers at height t have
//! `bits_t = unit_t + b (mix + bits_(t-1))` bits, `bits_0` those of the leaves' denominator
//! (`unit_t`: the lcm of a D-game's q or r denominators, `mix`: an N-game's q). With the
//! piece count, level t holds `states(t)` pairs of vectors of `b^t + 1` entries, and is
//! computed by Horner's rule from the children's vectors (`n = b^(t-1) + 1` entries of
//! `bits_(t-1)` bits): for j = 2..b, two products whose result has `j (n - 1) + 1` entries
//! of `j bits_(t-1)` bits, each one Kronecker multiplication of `W` words (the NTT of
//! [`crate::numeric::ntt`], `W log2 W`). The back-up of a depth with its front at height f works
//! entrywise on `b^f + 1` entries (2 with the artificial evaluator): at each level t above
//! the front, products of `bits_(t-1)`-bit numbers (dashu's Karatsuba/Toom, exponent 1.585),
//! `b (b - 1) / 2` of them per entry; the root decision adds as many (joint rule) or `b^2`
//! (conditional rule) products of `bits_(h-1)`-bit numbers per entry, and reducing each
//! depth's value costs a gcd quadratic in the root's numbers (what dominates with the
//! artificial evaluator, whose error-rate bits enter at the front and grow by b a level).
//!
//! The constants are wall times on the project's idle 2-core machine (a level's products
//! and the depths run on both cores), fitted to the measured psi and back-up parts of all
//! depths of 14 exact runs (P- and N-games with b = 2 at h = 12..15, b = 3 at h = 9, a
//! D-game with b = 3 at h = 9, P-games with b = 4 at h = 7 and b = 5 at h = 6, the artificial
//! evaluator at h = 16..18), each part within 0.8-1.25 of the measurement, then checked
//! where the limit falls (estimate / measured wall time, peak memory / estimate):
//!
//! | run | estimate | measured | peak / estimate |
//! |---|---|---|---|
//! | P-game b = 2, p = 0.4, h = 16 | 41 s | 40.4 s | 6.8 / 9.6 GB |
//! | N-game b = 2, q = 1/2, h = 16 | 44 s | 44.3 s | 8.2 / 9.2 GB |
//! | P-game b = 3, p = 0.4, h = 10 | 20 s | 15.7 s | 3.0 / 3.4 GB |
//! | N-game b = 3, q = 1/2, h = 10 | 13 s | 16.2 s | 2.6 / 2.4 GB |
//! | D-game b = 3, h = 10 | 26 s | 26.4 s | 3.4 / 4.7 GB |
//! | P-game b = 4, p = 0.4, h = 8 | 19 s | 16.7 s | 2.1 / 2.4 GB |
//! | P-game b = 2, artificial e = 0.1, h = 20 | 31 s | 32.4 s | 0.17 / 0.2 GB |
//!
//! The model it replaces counted each level's products on the parent's vectors instead of
//! the children's and the sum of the parameters' denominator bits instead of their lcm, and
//! missed the reduction's gcd: it overestimated the piece count 4 to 15 times (P-game
//! b = 2, h = 16 refused at 5 min, N-game h = 15 at 2 min) and underestimated memory up to
//! 3 times. The `malachite` build's back-up products are about 1.4 times slower (measured
//! on the D-game engine), so its back-up constants are scaled by that.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, ToPrimitive};

use super::{Evaluator, Family};
use crate::budget::Cost;
use crate::error::{Error, Result};
use crate::numeric::number::Probability;

const FLOAT_RATE: f64 = 3.0e8;
const FFT_COEFFICIENT: f64 = 3.0e-9;
/// Wall seconds per `W log2 W` of one Kronecker product of a psi level (`W` words of the
/// packed product) when a level has one state: its two products at a time, each on the
/// transform's own parallel tasks.
const PSI_PRODUCT_COEFFICIENT: f64 = 0.72e-8;
/// The same for levels of several states (N-games), whose states fill both cores.
const PSI_PRODUCT_COEFFICIENT_STATES: f64 = 0.45e-8;
/// Wall seconds per entry and (64-bit word)^1.585 of one back-up product, the depths on both
/// cores.
const BACKUP_PRODUCT_COEFFICIENT: f64 = 4.0e-9 * BACKEND_FACTOR;
/// The same for the products of the root decision.
const ROOT_PRODUCT_COEFFICIENT: f64 = 3.8e-9 * BACKEND_FACTOR;
/// Wall seconds per (64-bit word)^2 of the gcd that reduces each depth's value (quadratic in
/// the size of the root's numbers: the cost that dominates with the artificial evaluator).
const GCD_COEFFICIENT: f64 = 7.2e-10 * BACKEND_FACTOR;
/// The back-up's products and gcds by malachite take about 1.4 times dashu's.
const BACKEND_FACTOR: f64 = if cfg!(feature = "malachite") {
    1.4
} else {
    1.0
};
/// Peak bytes per byte of the largest packed product (piece count) or of `height` root
/// numbers (artificial evaluator), over the levels kept; twice that for D-games (the
/// conditional root decision holds more vectors).
const BUFFER_FACTOR: f64 = 28.0;
/// Fixed bytes of a run (the binary, thread stacks, the allocator).
const BASE_BYTES: f64 = 20.0e6;

/// `log2` of the lcm of the denominators of `values` (the common scale of
/// [`Probability::common_scale`]); 0 in float mode.
fn scale_bits<P: Probability>(values: &[P]) -> f64 {
    let lcm = values
        .iter()
        .filter_map(Probability::exact_value)
        .fold(BigInt::one(), |acc, r| acc.lcm(r.denom()));
    log2(&lcm)
}

/// `log2 x` of a positive integer of any size.
fn log2(x: &BigInt) -> f64 {
    let bits = x.bits();
    if bits <= 1000 {
        x.to_f64().map_or(bits as f64, f64::log2)
    } else {
        let shift = bits - 64;
        (x >> shift).to_f64().map_or(bits as f64, f64::log2) + shift as f64
    }
}

/// Estimates the time and memory of all depths at one height.
///
/// # Examples
///
/// ```
/// use pathology::analytic::families::{Evaluator, Family, PGame, estimate_cost};
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
    let count = matches!(evaluator, Evaluator::Count);
    let states = |t: u32| match family {
        Family::N(_) => f64::from(height - t + 1),
        _ => 1.0,
    };
    let top = height.saturating_sub(1);
    let entries = |t: u32| {
        if count { b.powi(t as i32) + 1.0 } else { 2.0 }
    };
    if !P::EXACT {
        return float_cost(b, count, top, height, &states, &entries);
    }
    // bits[t]: the numbers at height t.
    let (mix_bits, leaf_bits, unit_bits) = match family {
        Family::N(g) => (scale_bits(std::slice::from_ref(g.q())), 0.0, 0.0),
        Family::P(g) => (0.0, scale_bits(std::slice::from_ref(g.p())), 0.0),
        Family::D(g) => (
            0.0,
            0.0,
            scale_bits(g.win_max()).max(scale_bits(g.loss_min())),
        ),
    };
    let mut bits = vec![leaf_bits];
    for t in 1..=height {
        bits.push(unit_bits + b * (mix_bits + bits[t as usize - 1]));
    }
    let evaluator_bits = match evaluator {
        Evaluator::Artificial { error } => scale_bits(std::slice::from_ref(error)),
        Evaluator::Count => 0.0,
    };
    let mut psi = 0.0;
    let mut levels_bytes = 0.0;
    let mut largest_product: f64 = 0.0;
    if count {
        for t in 1..=top {
            let (n, child_bits) = (b.powi(t as i32 - 1) + 1.0, bits[t as usize - 1].max(1.0));
            let coefficient = if states(t) > 1.0 {
                PSI_PRODUCT_COEFFICIENT_STATES
            } else {
                PSI_PRODUCT_COEFFICIENT
            };
            for j in 2..=family.branching() {
                let j = f64::from(j);
                let words = (j * (n - 1.0) + 1.0) * (j * child_bits + n.log2() + 1.0) / 64.0;
                psi += 2.0 * states(t) * coefficient * words * words.max(2.0).log2();
                largest_product = largest_product.max(words * 8.0);
            }
            // Every level is kept: the front of each depth.
            levels_bytes += 2.0 * states(t) * entries(t) * bits[t as usize].max(1.0) / 8.0;
        }
    }
    // Back-up: every depth, every level above its front, then the root decision and the
    // reduction of the value. The artificial evaluator's bits enter at the front and are
    // multiplied by b at every level above it.
    let is_d = matches!(family, Family::D(_));
    let per_level = b * (b - 1.0) / 2.0;
    let root = if is_d { b * b } else { per_level };
    let product = |bits: f64| (bits / 64.0).max(1.0).powf(1.585);
    let mut backup = 0.0;
    let mut root_number_bytes: f64 = 0.0;
    for d in 1..=height {
        let front = height - d;
        let n = entries(front);
        let grown = |t: u32| bits[t as usize] + b.powi((t - front) as i32) * evaluator_bits;
        for t in front + 1..=top {
            backup +=
                BACKUP_PRODUCT_COEFFICIENT * per_level * n * states(t) * product(grown(t - 1));
        }
        let root_bits = grown(top.max(front));
        backup += ROOT_PRODUCT_COEFFICIENT * root * n * product(root_bits);
        backup += GCD_COEFFICIENT * (b * root_bits / 64.0).powi(2);
        root_number_bytes = root_number_bytes.max(root_bits / 8.0);
    }
    // The artificial evaluator's memory grows with the numbers and the depths in flight
    // (measured: 43 and 170 MB at h = 18 and 20, 250 and 450 times the root's numbers).
    let largest = if count {
        largest_product
    } else {
        f64::from(height) * root_number_bytes
    };
    let buffers = BUFFER_FACTOR * largest * if is_d { 2.0 } else { 1.0 };
    Cost {
        seconds: psi + backup,
        bytes: BASE_BYTES + levels_bytes + buffers,
    }
}

/// The float engine: FFT convolutions of the piece count, a few flops per entry in the
/// back-up.
fn float_cost(
    b: f64,
    count: bool,
    top: u32,
    height: u32,
    states: &dyn Fn(u32) -> f64,
    entries: &dyn Fn(u32) -> f64,
) -> Cost {
    let mut seconds = 0.0;
    let mut bytes = 0.0;
    if count {
        for t in 1..=top {
            let products = (2.0 * b - 2.0) * states(t);
            let size = (2.0 * entries(t)).log2().ceil().exp2();
            seconds += products * 3.0 * size * size.log2() * FFT_COEFFICIENT;
            bytes += 2.0 * states(t) * entries(t) * 8.0 + 5.0 * size * 16.0;
        }
    }
    for d in 1..=height {
        let front = height - d;
        for t in front + 1..height {
            seconds += 4.0 * b * entries(front) * states(t) / FLOAT_RATE;
        }
        seconds += b * b * b * entries(front) / FLOAT_RATE;
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
/// use pathology::analytic::families::{Evaluator, Family, PGame, check_cost};
/// let game = Family::P(PGame::new(4, 0.5).unwrap());
/// assert!(check_cost(&game, &Evaluator::Count, 8).is_ok());
/// let refused = check_cost(&game, &Evaluator::Count, 16).unwrap_err();
/// assert!(refused.to_string().contains("refused"));
/// assert!(refused.is_usage());
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--height` outside `1..=64`, or `--branching` when the
/// piece count's support would exceed `2^40` values; [`Error::TooExpensive`] with the
/// estimate and a hint.
pub fn check_cost<P: Probability>(
    family: &Family<P>,
    evaluator: &Evaluator<P>,
    height: u32,
) -> Result<Cost> {
    // The height's own range first, so that a height beyond it is named as such.
    super::check_depth(1, height)?;
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
        return crate::analytic::dgame::check_cost(
            height,
            crate::analytic::dgame::table::denominator_bits(&factors),
        );
    }
    let cost = estimate_cost(family, evaluator, height);
    if cost.exceeds_limits() {
        let mode = if P::EXACT { "exact" } else { "f64" };
        let hint = if P::EXACT {
            "Use the f64 mode (drop --exact), whose rounding error is rigorously bounded, or a smaller --height or --branching."
        } else {
            "Use a smaller --height or --branching, or the artificial evaluator (two values per node)."
        };
        return Err(cost.refusal(
            format!(
                "D(d,h) for a {}-game with b = {b} at height {height} ({} evaluator, {mode} mode)",
                family.name().to_uppercase(),
                evaluator.name()
            ),
            hint,
        ));
    }
    Ok(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::families::{BaryDGame, NGame, PGame};
    use crate::numeric::number::parse_rational;
    use num_rational::BigRational;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    #[test]
    fn the_common_scale_is_the_lcm_of_the_denominators() {
        // 1/10, 3/10 and 1/2 share the scale 10 (the sum of their denominators' bits, 13,
        // was the old model's).
        let bits = scale_bits(&[q("1/10"), q("3/10"), q("1/2")]);
        assert!((bits - 10f64.log2()).abs() < 1e-12, "{bits}");
        assert_eq!(scale_bits(&[q("1"), q("0")]), 0.0);
        let huge = BigInt::from(3).pow(2000);
        let exact = 2000.0 * 3f64.log2();
        assert!((log2(&huge) - exact).abs() < 1e-9 * exact);
        assert_eq!(scale_bits(&[0.1f64, 0.3]), 0.0);
    }

    #[test]
    fn estimates_grow_with_height_and_the_limit_falls_where_measured() {
        let p = Family::P(PGame::new(2, q("0.4")).unwrap());
        let n = Family::N(NGame::new(2, q("1/2")).unwrap());
        let d3 = Family::D(
            BaryDGame::new(
                3,
                vec![q("0.2"), q("0.3"), q("0.5")],
                vec![q("0.3"), q("0.3"), q("0.4")],
            )
            .unwrap(),
        );
        let count = Evaluator::Count;
        for family in [&p, &n, &d3] {
            let costs: Vec<Cost> = (2..12).map(|h| estimate_cost(family, &count, h)).collect();
            assert!(costs.windows(2).all(|w| w[1].seconds > w[0].seconds));
            assert!(costs.windows(2).all(|w| w[1].bytes >= w[0].bytes));
        }
        // Measured: P- and N-games with b = 2 at h = 16 in 40 and 44 s, the D-game with b = 3
        // at h = 10 in 26 s; one more level is about four (b = 2) or nine times as much.
        for (family, accepted) in [(&p, 16), (&n, 16), (&d3, 10)] {
            assert!(check_cost(family, &count, accepted).is_ok());
            assert!(check_cost(family, &count, accepted + 1).is_err());
        }
        // A height beyond the engine's range is refused as a height, before the support check.
        let e = check_cost(&p, &count, 99).unwrap_err();
        assert_eq!(e.to_string(), "--height must be in 1..=64, got 99");
        // The artificial evaluator: 32 s measured at h = 20.
        let artificial = Evaluator::Artificial { error: q("0.1") };
        assert!(check_cost(&p, &artificial, 20).is_ok());
        assert!(check_cost(&p, &artificial, 21).is_err());
    }
}
