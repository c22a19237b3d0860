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

use super::critical::{Rates, frontier_law, value_index};
use super::evaluation::{Cdfs, Evaluation, Model};
use super::{CriticalGame, MultiValuedPGame};
use crate::budget::{Cost, announce_estimate};
use crate::error::Result;
use crate::numeric::number::Probability;

/// Wall seconds per entry, level and child of the f64 critical back-up (both ends).
const FLOAT_CRITICAL_SECONDS: f64 = 4.0e-9;
/// Wall seconds per entry, level, threshold and child of the f64 P-game back-up.
const FLOAT_PGAME_SECONDS: f64 = 6.0e-9;
/// Wall seconds per entry and child of an f64 root in enclosures.
const FLOAT_ROOT_SECONDS: f64 = 3.0e-8;
/// Wall seconds per (64-bit word)^1.585 of one exact product.
const PRODUCT_SECONDS: f64 = 4.0e-9;
/// Wall seconds per (64-bit word)^2 of the gcd reading a value out.
const GCD_SECONDS: f64 = 7.2e-10;
/// Fixed bytes of a run.
const BASE_BYTES: f64 = 20.0e6;
/// Peak bytes per byte of the numbers of a level (the vectors, their powers, the products'
/// buffers, two depths in flight).
const EXACT_BUFFER_FACTOR: f64 = 24.0;

/// The cost of one exact product of numbers of `bits` bits.
fn product(bits: f64) -> f64 {
    PRODUCT_SECONDS * (bits / 64.0).max(1.0).powf(1.585)
}

/// Products per entry of a level: the powers' squarings and multiplications.
fn products_per_entry(b: usize) -> f64 {
    let powering = |n: usize| (usize::BITS - n.leading_zeros()) as f64 + n.count_ones() as f64;
    powering(b) + powering(b.saturating_sub(1)) + 3.0
}

/// The support of a law (levels of positive mass).
fn support(cdf: &[bool]) -> Vec<bool> {
    cdf.to_vec()
}

/// Whether each back-up level of a critical-game depth is a pair of point masses, by
/// propagating the supports (the maximum of independent variables takes the values in
/// their supports at or above the largest of their least values; the minimum likewise).
fn point_mass_levels(won: Vec<bool>, lost: Vec<bool>, rates: &Rates, depth: u32) -> Vec<bool> {
    let n = won.len();
    let least = |s: &[bool]| s.iter().position(|&x| x).unwrap_or(0);
    let most = |s: &[bool]| s.iter().rposition(|&x| x).unwrap_or(0);
    let union = |a: &[bool], b: &[bool]| a.iter().zip(b).map(|(x, y)| *x || *y).collect::<Vec<_>>();
    let (mut won, mut lost) = (won, lost);
    let mut out = Vec::new();
    for k in (1..depth).rev() {
        let gamma = rates.at(k);
        let mixed = if num_traits::One::is_one(gamma) {
            won.clone()
        } else if num_traits::Zero::is_zero(gamma) {
            lost.clone()
        } else {
            union(&won, &lost)
        };
        let max_parent = k % 2 == 0;
        let extreme = |sets: &[&[bool]]| -> Vec<bool> {
            let all = sets.iter().fold(vec![false; n], |acc, s| union(&acc, s));
            if max_parent {
                let floor = sets.iter().map(|s| least(s)).max().unwrap_or(0);
                (0..n).map(|x| all[x] && x >= floor).collect()
            } else {
                let ceiling = sets.iter().map(|s| most(s)).min().unwrap_or(0);
                (0..n).map(|x| all[x] && x <= ceiling).collect()
            }
        };
        let new_won = extreme(&[&lost, &mixed]);
        let new_lost = extreme(&[&won]);
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
    let b = game.branching() as usize;
    let bf = b as f64;
    let rates = game.rates()?;
    let passes = if evaluation.is_continuous() { 3.0 } else { 1.0 };
    let levels_of = |d: u32, bins: Option<u32>| -> Result<super::evaluation::Law> {
        frontier_law(game, &rates, evaluation, d, bins)
    };
    if !P::EXACT {
        let n = if evaluation.is_continuous() {
            f64::from(super::DEFAULT_LEVELS)
        } else {
            // The laws of the two parities (and the playout's, two levels each).
            let mut n: f64 = 2.0;
            for d in depths.iter().take(2) {
                if *d < game.height() && !matches!(evaluation.model, Model::ExpectedPlayout(_)) {
                    n = n.max(levels_of(*d, None)?.levels as f64);
                }
            }
            n
        };
        let mut seconds = 0.0;
        for &d in depths {
            seconds += FLOAT_CRITICAL_SECONDS * f64::from(d.saturating_sub(1)) * n * (bf + 4.0);
            seconds += FLOAT_ROOT_SECONDS * n * bf / 4.0;
        }
        return Ok(Cost {
            seconds: passes * seconds / 2.0 + 1e-3,
            bytes: BASE_BYTES + passes * 64.0 * n * f64::from(game.height()),
        });
    }
    let gamma_bits = |k: u32| -> f64 {
        let g = rates.at(k);
        if num_traits::One::is_one(g) || num_traits::Zero::is_zero(g) {
            0.0
        } else {
            g.denom().bits() as f64
        }
    };
    let root_bits = rates.root.denom().bits() as f64;
    let mut seconds = 0.0;
    let mut largest: f64 = 0.0;
    for &d in depths {
        let law = levels_of(d, None)?;
        let n = law.levels as f64;
        let (w, l) = (value_index(true, d), value_index(false, d));
        let mass = |i: usize| -> Vec<bool> {
            match &law.cdfs {
                Cdfs::Exact(c) => (0..law.levels)
                    .map(|x| {
                        if x == 0 {
                            !num_traits::Zero::is_zero(&c[i][0])
                        } else {
                            c[i][x] > c[i][x - 1]
                        }
                    })
                    .collect(),
                Cdfs::Float(c) => (0..law.levels)
                    .map(|x| {
                        if x == 0 {
                            c[i][0] > 0.0
                        } else {
                            c[i][x] > c[i][x - 1]
                        }
                    })
                    .collect(),
            }
        };
        let points = point_mass_levels(support(&mass(w)), support(&mass(l)), &rates, d);
        let mut bits = law.denominator_bits();
        for (i, k) in (1..d).rev().enumerate() {
            seconds += n * 2.0 * products_per_entry(b) * product(bf * bits.max(1.0));
            bits = if points[i] {
                0.0
            } else {
                bf * bits + (bf - 1.0) * gamma_bits(k)
            };
            largest = largest.max(n * 2.0 * bits * bf / 8.0);
        }
        let top = bf * (bits + root_bits) + n.log2();
        seconds += n * 3.0 * bf * product(top) + 2.0 * GCD_SECONDS * (top / 64.0).powi(2);
        largest = largest.max(n * 3.0 * top / 8.0);
    }
    Ok(Cost {
        seconds: seconds / 2.0 + 1e-3,
        bytes: BASE_BYTES + EXACT_BUFFER_FACTOR * largest,
    })
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
        let mut seconds = 0.0;
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
