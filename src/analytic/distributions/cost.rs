//! Up-front estimates of time and memory, and the refusals (through [`crate::budget`]).
//!
//! **f64.** Every level costs a fixed number of flops per entry (two ends, the kernel's
//! products and the widening), every root a few per entry and per child; the constants are
//! wall times on the project's 2-core machine, the depths running on both cores.
//!
//! **Exact.** The numbers grow: a level raises the children's numbers to the b-th power, so
//! a frontier whose CDFs have `B` bits of denominator gives numbers of about `b^k B` bits k
//! levels up (plus `(b - 1)` times the bits of a critical rate's denominator per level, and
//! for P-games `b^t` times the leaf probabilities' bits at height t). A level costs, per
//! entry, a few products of such numbers (Karatsuba-like, exponent 1.585 in 64-bit words),
//! and reading each value out a gcd quadratic in its size. Deterministic critical-game
//! levels (both node types' laws point masses: perfect evaluations, terminal frontiers, an
//! ordered expected-playout heuristic) are written over 1 by the engine and cost nothing
//! here either; the estimate finds them by propagating the supports of the laws.
//!
//! Measured (`cargo run --release --example distributions_speed`, the shared 2-core machine
//! under a load average of 4 to 6), beside the estimate:
//!
//! | run | measured | estimate |
//! |---|---|---|
//! | critical b = 8, H = 50, 1000-point histogram, every d, f64 | 3-4 ms | 9 ms |
//! | P-game b = 2, h = 30, g = 16, 1000 levels, every d, f64 | 0.62-0.89 s | 0.65 s |
//! | critical b = 5, H = 20, 10-point histogram, exact, d <= 6 | 77 ms | 92 ms |
//! | the same, d <= 7 | 1.0 s | 1 s |
//! | the same, d <= 8 | 19 s | 17 s |
//! | the same, d <= 9 | refused | 4 min, 1.7 GiB |
//! | the same, every d <= 20 | refused | 7.7e10 days, 15 PiB |
//!
//! The exact numbers of depth d have about `5^(d-1) x 5` bits (3.3 million bits of
//! denominator at d = 8): every depth of H = 20 is out of reach of any machine.

use super::critical::{Rates, frontier_law, value_index};
use super::evaluation::{Evaluation, Law, Model};
use super::histogram::BASE_BYTES;
use super::{CriticalGame, MultiValuedPGame};
use crate::budget::{Cost, announce_estimate};
use crate::error::Result;
use crate::numeric::number::Probability;

/// Wall seconds per entry, level and child of the f64 critical back-up (both ends).
const FLOAT_CRITICAL_SECONDS: f64 = 4.0e-9;
/// Wall seconds per entry, level, threshold and child of the f64 P-game back-up.
const FLOAT_PGAME_SECONDS: f64 = 1.5e-8;
/// Wall seconds per entry and child of an f64 root in enclosures.
const FLOAT_ROOT_SECONDS: f64 = 3.0e-8;
/// Wall seconds per (64-bit word)^1.585 of one exact product.
const PRODUCT_SECONDS: f64 = 4.0e-9;
/// Wall seconds per (64-bit word)^2 of the gcd reading a value out.
const GCD_SECONDS: f64 = 7.2e-10;
/// Peak bytes per byte of the numbers of a level (the vectors, their powers, the products'
/// buffers, two depths in flight).
const EXACT_BUFFER_FACTOR: f64 = 24.0;

/// Wall seconds per entry (level and true value) and (64-bit word)^2 of the law's common
/// denominator of reading an exact law out: the enclosures of its CDFs (one long division
/// each) and the histogram's normalisation that built it (a gcd per entry). Without this term,
/// a histogram whose weights have 3000 distinct prime denominators (about 40,000 bits) was
/// estimated at 1 ms.
const LAW_SECONDS: f64 = 2.0e-9;

/// [`LAW_SECONDS`] for one law.
fn law_reading(law: &Law, values: f64) -> f64 {
    let words = (law.denominator_bits() / 64.0).max(1.0);
    LAW_SECONDS * law.levels as f64 * values * words * words
}

/// The cost of one exact product of numbers of `bits` bits.
fn product(bits: f64) -> f64 {
    PRODUCT_SECONDS * (bits / 64.0).max(1.0).powf(1.585)
}

/// Products per entry of a level: the powers' squarings and multiplications.
fn products_per_entry(b: usize) -> f64 {
    let powering = |n: usize| (usize::BITS - n.leading_zeros()) as f64 + n.count_ones() as f64;
    powering(b) + powering(b.saturating_sub(1)) + 3.0
}

/// Whether each level of a walk up from a critical-game frontier at a depth of the parity
/// of `first` is a pair of point masses, by propagating the supports (the maximum of
/// independent variables takes the values of their supports at or above the largest of
/// their least values; the minimum likewise).
fn point_mass_levels(
    won: Vec<bool>,
    lost: Vec<bool>,
    rates: &Rates,
    first: u32,
    steps: u32,
) -> Vec<bool> {
    let n = won.len();
    let least = |s: &[bool]| s.iter().position(|&x| x).unwrap_or(0);
    let most = |s: &[bool]| s.iter().rposition(|&x| x).unwrap_or(0);
    let (mut won, mut lost) = (won, lost);
    let mut out = Vec::with_capacity(steps as usize);
    for j in 0..steps {
        let max_parent = (first + j + 1).is_multiple_of(2);
        let gamma = if max_parent { &rates.max } else { &rates.min };
        let (with_won, with_lost) = if num_traits::One::is_one(gamma) {
            (true, false)
        } else if num_traits::Zero::is_zero(gamma) {
            (false, true)
        } else {
            (true, true)
        };
        // A won node: its optimal child (lost) and the others (mixed); a lost node: won ones.
        let mixed_least = match (with_won, with_lost) {
            (true, true) => least(&won).min(least(&lost)),
            (true, false) => least(&won),
            _ => least(&lost),
        };
        let mixed_most = match (with_won, with_lost) {
            (true, true) => most(&won).max(most(&lost)),
            (true, false) => most(&won),
            _ => most(&lost),
        };
        // The bounds once per level, not once per entry (that was quadratic in the levels).
        let (from, to) = (least(&lost).max(mixed_least), most(&lost).min(mixed_most));
        let new_won: Vec<bool> = (0..n)
            .map(|x| {
                // The optimal child's support (lost) is always there; the others add won's.
                let present = lost[x] || (with_won && won[x]);
                present && if max_parent { x >= from } else { x <= to }
            })
            .collect();
        let new_lost = won.clone();
        won = new_won;
        lost = new_lost;
        let single = |s: &[bool]| s.iter().filter(|&&x| x).count() == 1;
        out.push(single(&won) && single(&lost));
    }
    out
}

/// Estimates the time and memory of [`super::critical_column`] at these depths.
///
/// # Examples
///
/// ```
/// use pathology::analytic::distributions::{CriticalGame, Evaluation, Model, estimate_critical_cost};
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let game = CriticalGame::new(5, 20, q("1"), q("1")).unwrap();
/// let noisy = Evaluation::new(Model::Artificial { error: q("1/10") });
/// let depths: Vec<u32> = (1..=20).collect();
/// // Exact numbers of about 5^19 * 4 bits: far beyond any limit.
/// assert!(estimate_critical_cost(&game, &noisy, &depths).unwrap().seconds > 1e6);
/// let small = estimate_critical_cost(&game, &noisy, &[1, 2, 3]).unwrap();
/// assert!(small.seconds < 1.0);
/// ```
///
/// # Errors
///
/// As the evaluation's validation (a bad parameter, named).
pub fn estimate_critical_cost<P: Probability>(
    game: &CriticalGame<P>,
    evaluation: &Evaluation<P>,
    depths: &[u32],
) -> Result<Cost> {
    let rates = game.rates()?;
    let mut laws: Vec<(u32, Law)> = Vec::new();
    for &d in depths {
        let key = law_key(game, evaluation, d);
        if !laws.iter().any(|(k, _)| *k == key) {
            laws.push((key, frontier_law(game, &rates, evaluation, d, None)?));
        }
    }
    let law_of = |d: u32| {
        let key = law_key(game, evaluation, d);
        &laws.iter().find(|(k, _)| *k == key).expect("built").1
    };
    Ok(critical_cost::<P>(
        game, evaluation, &rates, depths, &law_of,
    ))
}

/// The frontier laws that differ: by parity, and by depth for the playout and the
/// terminal depth.
pub(crate) fn law_key<P: Probability>(
    game: &CriticalGame<P>,
    evaluation: &Evaluation<P>,
    d: u32,
) -> u32 {
    if matches!(evaluation.model, Model::ExpectedPlayout(_)) || d == game.height() {
        d
    } else {
        d % 2
    }
}

/// [`estimate_critical_cost`] with the frontier laws at hand.
pub(crate) fn critical_cost<'a, P: Probability>(
    game: &CriticalGame<P>,
    evaluation: &Evaluation<P>,
    rates: &Rates,
    depths: &[u32],
    law_of: &dyn Fn(u32) -> &'a Law,
) -> Cost {
    let b = game.branching() as usize;
    let bf = b as f64;
    // One walk per law (the engine's grouping).
    let mut groups: Vec<(u32, Vec<u32>)> = Vec::new();
    for &d in depths {
        let key = law_key(game, evaluation, d);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push(d),
            None => groups.push((key, vec![d])),
        }
    }
    let mut seconds = 0.0;
    let mut largest: f64 = 0.0;
    for (_, group) in &groups {
        let law = law_of(group[0]);
        seconds += law_reading(law, 2.0);
        let (exact, bytes) = exact_walk_cost(b, rates, law, group);
        if P::EXACT || exact < CHEAP_EXACT_SECONDS {
            seconds += exact;
            largest = largest.max(EXACT_BUFFER_FACTOR * bytes);
        } else {
            let n = law.levels as f64;
            let top = f64::from(*group.last().expect("a depth"));
            seconds += FLOAT_CRITICAL_SECONDS * (top - 1.0) * n * (bf + 4.0)
                + FLOAT_ROOT_SECONDS * n * bf * group.len() as f64;
            largest = largest.max(64.0 * n);
        }
    }
    let passes = if evaluation.is_continuous() { 3.0 } else { 1.0 };
    // The walks run on both cores when there are two or more.
    let cores = if groups.len() > 1 { 2.0 } else { 1.0 };
    Cost {
        seconds: passes * seconds / cores + 1e-3,
        bytes: BASE_BYTES + passes * largest,
    }
}

/// In f64 mode a walk whose exact computation is estimated below this many seconds is
/// computed exactly and rounded (deterministic evaluations and terminal frontiers, whose
/// enclosures would widen with every level although their values are 0 and 1).
pub(crate) const CHEAP_EXACT_SECONDS: f64 = 2.0e-4;

/// The seconds (one core) and the bytes of the largest level's numbers of one exact walk
/// up from a frontier law, reading out the root at `depths` (one parity, ascending).
pub(crate) fn exact_walk_cost(b: usize, rates: &Rates, law: &Law, depths: &[u32]) -> (f64, f64) {
    let bf = b as f64;
    let first = depths[0];
    let top = *depths.last().expect("a depth");
    let gamma_bits = |max_parent: bool| -> f64 {
        let g = if max_parent { &rates.max } else { &rates.min };
        if num_traits::One::is_one(g) || num_traits::Zero::is_zero(g) {
            0.0
        } else {
            g.denom().bits() as f64
        }
    };
    let root_bits = rates.root.denom().bits() as f64;
    let n = law.levels as f64;
    let (w, l) = (value_index(true, first), value_index(false, first));
    let points = point_mass_levels(law.support(w), law.support(l), rates, first, top - 1);
    let mut bits = law.denominator_bits();
    let mut seconds = 0.0;
    let mut largest: f64 = 0.0;
    for j in 0..top {
        if depths.contains(&(j + 1)) {
            let size = bf * (bits + root_bits) + n.log2();
            seconds += n * 3.0 * bf * product(size) + 2.0 * GCD_SECONDS * (size / 64.0).powi(2);
            largest = largest.max(n * 3.0 * size / 8.0);
        }
        if j + 1 == top {
            break;
        }
        let max_parent = (first + j + 1).is_multiple_of(2);
        seconds += n * 2.0 * products_per_entry(b) * product(bf * bits.max(1.0));
        bits = if points[j as usize] {
            0.0
        } else {
            bf * bits + (bf - 1.0) * gamma_bits(max_parent)
        };
        largest = largest.max(n * 2.0 * bits * bf / 8.0);
    }
    (seconds, largest)
}

/// Refuses, with the estimate, a critical-game computation past about a minute or 16 GiB.
///
/// # Examples
///
/// ```
/// use pathology::analytic::distributions::{CriticalGame, Evaluation, Model, check_critical_cost};
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let game = CriticalGame::new(5, 20, q("1"), q("1")).unwrap();
/// let noisy = Evaluation::new(Model::Artificial { error: q("1/10") });
/// let refused = check_critical_cost(&game, &noisy, &(1..=20).collect::<Vec<_>>()).unwrap_err();
/// assert!(refused.to_string().contains("refused"));
/// ```
///
/// # Errors
///
/// [`crate::Error::TooExpensive`] with the estimate and a hint.
pub fn check_critical_cost<P: Probability>(
    game: &CriticalGame<P>,
    evaluation: &Evaluation<P>,
    depths: &[u32],
) -> Result<Cost> {
    let cost = estimate_critical_cost(game, evaluation, depths)?;
    refuse_critical(game, evaluation, depths, cost)
}

/// Refuses or announces a critical-game estimate.
pub(crate) fn refuse_critical<P: Probability>(
    game: &CriticalGame<P>,
    evaluation: &Evaluation<P>,
    depths: &[u32],
    cost: Cost,
) -> Result<Cost> {
    let what = format!(
        "the critical game with b = {}, H = {}, depths {}..={} ({} evaluation, {} mode)",
        game.branching(),
        game.height(),
        depths.first().copied().unwrap_or(1),
        depths.last().copied().unwrap_or(1),
        evaluation.name(),
        if P::EXACT { "exact" } else { "f64" }
    );
    refuse_or_announce::<P>(cost, what)
}

fn refuse_or_announce<P: Probability>(cost: Cost, what: String) -> Result<Cost> {
    if cost.exceeds_limits() {
        let hint = if P::EXACT {
            "Exact numbers grow like b^d bits: use the f64 mode (drop --exact), whose rounding error is rigorously bounded, or fewer depths."
        } else {
            "Use a smaller --height, --branching or --levels."
        };
        return Err(cost.refusal(what, hint));
    }
    announce_estimate(&what, cost.seconds);
    Ok(cost)
}

/// Estimates the time and memory of [`super::pgame_column`] at these depths.
///
/// # Examples
///
/// ```
/// use pathology::analytic::distributions::{Evaluation, Model, MultiValuedPGame, estimate_pgame_cost};
/// let game = MultiValuedPGame::win_loss(2, 30, 0.4).unwrap();
/// let noisy = Evaluation::new(Model::Gaussian { sigma: 0.5 }).levels(1000, None).unwrap();
/// let cost = estimate_pgame_cost(&game, &noisy, &(1..=30).collect::<Vec<_>>()).unwrap();
/// assert!(cost.seconds < 5.0);
/// ```
///
/// # Errors
///
/// As the evaluation's validation (a bad parameter, named).
pub fn estimate_pgame_cost<P: Probability>(
    game: &MultiValuedPGame<P>,
    evaluation: &Evaluation<P>,
    depths: &[u32],
) -> Result<Cost> {
    let b = game.branching() as usize;
    let bf = b as f64;
    let g = game.values().len() as f64;
    let h = game.height();
    let passes = if evaluation.is_continuous() { 3.0 } else { 1.0 };
    let law = evaluation.law(game.values(), None, None)?;
    let n = law.levels as f64;
    if !P::EXACT {
        let mut seconds = law_reading(&law, g);
        for &d in depths {
            let levels = f64::from(d.saturating_sub(1));
            seconds += FLOAT_PGAME_SECONDS * levels * (g - 1.0) * n * (3.0 * bf + 6.0);
            seconds += FLOAT_ROOT_SECONDS * g * n * (2.0 * bf + 4.0);
        }
        return Ok(Cost {
            seconds: passes * seconds / 2.0 + 1e-3,
            bytes: BASE_BYTES + passes * 2.0 * 40.0 * g * n,
        });
    }
    let probabilities = game.exact_probabilities()?;
    let leaf_bits = probabilities
        .iter()
        .fold(num_bigint::BigInt::from(1), |acc, p| {
            num_integer::Integer::lcm(&acc, p.denom())
        })
        .bits() as f64;
    let law_bits = law.denominator_bits();
    let mut seconds = 0.0;
    let mut largest: f64 = 0.0;
    for &d in depths {
        let front = h - d;
        let mut bits = bf.powi(front as i32) * leaf_bits + if front > 0 { law_bits } else { 0.0 };
        let entries = (g - 1.0) * if front > 0 { n } else { g };
        for _ in front + 1..h {
            seconds += entries * 2.0 * products_per_entry(b) * product(bf * bits.max(1.0));
            bits *= bf;
            largest = largest.max(entries * 2.0 * bits / 8.0);
        }
        let top = bf * bits + 64.0;
        seconds +=
            entries * (3.0 * bf + 4.0) * product(top) + 3.0 * GCD_SECONDS * (top / 64.0).powi(2);
        largest = largest.max(entries * 2.0 * top / 8.0);
    }
    Ok(Cost {
        seconds: seconds / 2.0 + 1e-3,
        bytes: BASE_BYTES + EXACT_BUFFER_FACTOR * largest,
    })
}

/// Refuses, with the estimate, a P-game computation past about a minute or 16 GiB.
///
/// # Examples
///
/// ```
/// use pathology::analytic::distributions::{Evaluation, Model, MultiValuedPGame, check_pgame_cost};
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let game = MultiValuedPGame::win_loss(2, 30, q("2/5")).unwrap();
/// let e = Evaluation::new(Model::Artificial { error: q("1/10") });
/// assert!(check_pgame_cost(&game, &e, &[1]).is_err()); // 2^29 times 2/5's bits
/// assert!(check_pgame_cost(&game, &e, &[30]).is_err());
/// ```
///
/// # Errors
///
/// [`crate::Error::TooExpensive`] with the estimate and a hint.
pub fn check_pgame_cost<P: Probability>(
    game: &MultiValuedPGame<P>,
    evaluation: &Evaluation<P>,
    depths: &[u32],
) -> Result<Cost> {
    let cost = estimate_pgame_cost(game, evaluation, depths)?;
    let what = format!(
        "the {}-valued P-game with b = {}, h = {}, depths {}..={} ({} evaluation, {} mode)",
        game.values().len(),
        game.branching(),
        game.height(),
        depths.first().copied().unwrap_or(1),
        depths.last().copied().unwrap_or(1),
        evaluation.name(),
        if P::EXACT { "exact" } else { "f64" }
    );
    refuse_or_announce::<P>(cost, what)
}
