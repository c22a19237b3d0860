//! The simultaneous band of `samples compare`: the Gaussian multiplier bootstrap of
//! `T = max_k |dbar_k - delta_k| / se_k`, drawn through the covariance it implies.
//!
//! With `y_pk = (d_pk - dbar_k) / (P se_k)` (0 at a budget whose `se_k` is 0) and `xi_p`
//! independent standard normals, the multiplier bootstrap's replicate is
//! `T* = max_k |S_k|`, `S = Y^T xi`. Given the data, `S` is exactly normal with mean 0 and
//! covariance `C = Y^T Y` (a K x K matrix, K the number of budgets), so a replicate can be
//! drawn as `S = L z` with `L L^T = C` and `z` standard normal of dimension `rank(C) <= K`:
//! the same law as drawing one `xi_p` for each of the P problems, at a cost per replicate
//! that does not grow with P (Chernozhukov, Chetverikov & Kato 2013, "Gaussian
//! approximations and multiplier bootstrap for maxima of sums of high-dimensional random
//! vectors", Ann. Statist. 41(6), state the bootstrap as this conditional Gaussian law).
//!
//! `C` is summed once over the distinct rows of `Y` (each with its number of problems);
//! `L` is its Cholesky factor with diagonal pivoting, stopped when the largest remaining
//! diagonal is at most `K eps max_k C_kk` (the default tolerance of LAPACK's `dpstrf`):
//! the directions left out have a variance at the level of `C`'s own rounding. The normals
//! are Box-Muller pairs (both used) on a ChaCha8 stream seeded with `--seed`; replicate `r`
//! takes `rank` normals from word `r x 4 ceil(rank / 2)` of the stream, so replicates run
//! in parallel chunks and give the same `T*` whatever the number of threads. Each metric
//! has its own factor; all use the same normals (the first `rank` of each replicate's).

use std::collections::HashMap;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// The bootstrap's critical value and its Monte Carlo standard error, for one metric.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Band {
    /// The `ceil(0.95 R)`-th smallest `T*`.
    pub(crate) critical: f64,
    /// Its Monte Carlo standard error from the order statistics around it.
    pub(crate) critical_error: f64,
}

/// Standard normal draws by Box-Muller (both of each pair used).
pub(crate) fn normals(rng: &mut ChaCha8Rng, out: &mut [f64]) {
    let mut i = 0;
    while i < out.len() {
        let u1 = 1.0 - rng.random::<f64>();
        let u2 = rng.random::<f64>();
        let radius = (-2.0 * u1.ln()).sqrt();
        let (sin, cos) = (std::f64::consts::TAU * u2).sin_cos();
        out[i] = radius * cos;
        if i + 1 < out.len() {
            out[i + 1] = radius * sin;
        }
        i += 2;
    }
}

/// Words of the ChaCha8 stream that one replicate's `count` normals take: two `u64` draws
/// (four 32-bit words) per Box-Muller pair.
fn words_per_replicate(count: usize) -> u128 {
    count.div_ceil(2) as u128 * 4
}

/// Replicates per parallel task.
const REPLICATE_CHUNK: usize = 64;

/// The centred, scaled covariance `C = Y^T Y` of one metric over its budgets with
/// `se_k > 0` (`differences[i][p]`, `standard_errors[i]`), summed over the distinct rows of
/// `Y`; lower triangle, row-major, `n x n` with `n` the number of such budgets.
fn covariance(differences: &[Vec<f64>], standard_errors: &[f64]) -> (usize, Vec<f64>) {
    let problems = differences[0].len();
    let active: Vec<usize> = (0..differences.len())
        .filter(|&i| standard_errors[i] > 0.0)
        .collect();
    let n = active.len();
    let scale: Vec<f64> = active
        .iter()
        .map(|&i| 1.0 / (problems as f64 * standard_errors[i]))
        .collect();
    let mean: Vec<f64> = active
        .iter()
        .map(|&i| differences[i].iter().sum::<f64>() / problems as f64)
        .collect();
    let mut count: HashMap<Vec<u64>, u64> = HashMap::new();
    let mut order: Vec<Vec<u64>> = Vec::new();
    let rows = (0..problems).map(|p| -> Vec<u64> {
        active
            .iter()
            .map(|&i| differences[i][p].to_bits())
            .collect()
    });
    for key in rows {
        match count.get_mut(&key) {
            Some(m) => *m += 1,
            None => {
                count.insert(key.clone(), 1);
                order.push(key);
            }
        }
    }
    let mut c = vec![0.0; n * n];
    let mut v = vec![0.0; n];
    for key in &order {
        let m = count[key] as f64;
        for (j, bits) in key.iter().enumerate() {
            v[j] = (f64::from_bits(*bits) - mean[j]) * scale[j];
        }
        for i in 0..n {
            let w = m * v[i];
            for (cij, vj) in c[i * n..i * n + i + 1].iter_mut().zip(&v) {
                *cij += w * vj;
            }
        }
    }
    (n, c)
}

/// The Cholesky factor with diagonal pivoting of a symmetric positive semidefinite `n x n`
/// matrix given by its lower triangle (row-major): its columns `j < rank`, each holding
/// rows `j..n` of the pivoted order (the order itself does not matter for `max_k |S_k|`).
fn pivoted_cholesky(n: usize, mut a: Vec<f64>) -> Vec<Vec<f64>> {
    let at = |i: usize, j: usize| if i >= j { i * n + j } else { j * n + i };
    let largest = (0..n).map(|i| a[i * n + i]).fold(0.0f64, f64::max);
    let tolerance = n as f64 * f64::EPSILON * largest;
    let mut columns: Vec<Vec<f64>> = Vec::new();
    for j in 0..n {
        let pivot = (j..n)
            .max_by(|&x, &y| a[x * n + x].total_cmp(&a[y * n + y]))
            .unwrap_or(j);
        if a[pivot * n + pivot] <= tolerance {
            break;
        }
        if pivot != j {
            for k in 0..n {
                if k != j && k != pivot {
                    a.swap(at(j, k), at(pivot, k));
                }
            }
            a.swap(j * n + j, pivot * n + pivot);
            // The rows already factored move with the budget they belong to.
            for (c, column) in columns.iter_mut().enumerate() {
                column.swap(j - c, pivot - c);
            }
        }
        let diagonal = a[j * n + j].sqrt();
        let column: Vec<f64> = (j..n)
            .map(|i| {
                if i == j {
                    diagonal
                } else {
                    a[i * n + j] / diagonal
                }
            })
            .collect();
        for i in j + 1..n {
            let li = column[i - j];
            for k in j + 1..=i {
                a[i * n + k] -= li * column[k - j];
            }
        }
        columns.push(column);
    }
    columns
}

/// `T* = max_k |(L z)_k|` for each replicate's normals (`rank_max` per replicate).
fn maxima(columns: &[Vec<f64>], n: usize, z: &[f64], rank_max: usize) -> Vec<f64> {
    let mut s = vec![0.0; n];
    z.chunks(rank_max)
        .map(|draws| {
            s.iter_mut().for_each(|x| *x = 0.0);
            for (j, (column, &w)) in columns.iter().zip(draws).enumerate() {
                for (x, &l) in s[j..].iter_mut().zip(column) {
                    *x += w * l;
                }
            }
            s.iter().fold(0.0f64, |m, x| m.max(x.abs()))
        })
        .collect()
}

/// The multiplier bootstrap of every metric (`differences[m][i][p]`, budget i, problem p),
/// `replicates` replicates from `seed`.
pub(crate) fn bootstrap(
    differences: &[Vec<Vec<f64>>],
    standard_errors: &[Vec<f64>],
    replicates: u64,
    seed: u64,
) -> Vec<Band> {
    use rayon::prelude::*;
    let factors: Vec<(usize, Vec<Vec<f64>>)> = differences
        .iter()
        .zip(standard_errors)
        .map(|(d, se)| {
            let (n, c) = covariance(d, se);
            (n, pivoted_cholesky(n, c))
        })
        .collect();
    let rank_max = factors.iter().map(|f| f.1.len()).max().unwrap_or(0).max(1);
    let words = words_per_replicate(rank_max);
    let starts: Vec<u64> = (0..replicates).step_by(REPLICATE_CHUNK).collect();
    let chunks: Vec<Vec<Vec<f64>>> = starts
        .par_iter()
        .map(|&start| {
            let count = (replicates - start).min(REPLICATE_CHUNK as u64) as usize;
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_word_pos(u128::from(start) * words);
            let mut z = vec![0.0; count * rank_max];
            for draws in z.chunks_mut(rank_max) {
                normals(&mut rng, draws);
            }
            factors
                .iter()
                .map(|(n, columns)| maxima(columns, *n, &z, rank_max))
                .collect()
        })
        .collect();
    (0..factors.len())
        .map(|m| {
            let mut t: Vec<f64> = chunks.iter().flat_map(|c| c[m].iter().copied()).collect();
            t.sort_by(f64::total_cmp);
            let r = t.len() as f64;
            let at = |rank: f64| t[(rank.clamp(1.0, r) as usize) - 1];
            let spread = 1.959_963_984_540_054 * (0.95 * 0.05 * r).sqrt();
            Band {
                critical: at((0.95 * r).ceil()),
                critical_error: (at((0.95 * r + spread).ceil()) - at((0.95 * r - spread).floor()))
                    / (2.0 * 1.959_963_984_540_054),
            }
        })
        .collect()
}

/// Seconds of one replicate's work per budget squared (the triangular product and the
/// normals), measured on the reference machine and rounded up, for the refusal estimate.
pub(crate) const SECONDS_PER_REPLICATE_BUDGET_SQUARED: f64 = 2e-9;

/// Seconds of the covariance per problem and budget squared (measured, rounded up).
pub(crate) const SECONDS_PER_PROBLEM_BUDGET_SQUARED: f64 = 2e-9;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::report::mean_and_standard_error;

    /// The definition: one `xi_p` per problem, one sequential stream.
    fn multiplier_maxima(d: &[Vec<f64>], se: &[f64], replicates: u64, seed: u64) -> Vec<f64> {
        let (ks, problems) = (d.len(), d[0].len());
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut xi = vec![0.0; problems];
        (0..replicates)
            .map(|_| {
                normals(&mut rng, &mut xi);
                (0..ks)
                    .filter(|&i| se[i] > 0.0)
                    .map(|i| {
                        let mean = d[i].iter().sum::<f64>() / problems as f64;
                        let s: f64 = (0..problems).map(|p| xi[p] * (d[i][p] - mean)).sum();
                        (s / (problems as f64 * se[i])).abs()
                    })
                    .fold(0.0, f64::max)
            })
            .collect()
    }

    /// 101 problems over 5 budgets: rows repeated, all-zero rows, a budget with se = 0 and
    /// two budgets equal (a covariance of rank 3).
    fn data() -> (Vec<Vec<f64>>, Vec<f64>) {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut d = vec![vec![0.0; 101]; 5];
        for p in 0..101 {
            let kind = rng.random_range(0..4u32);
            let x = rng.random::<f64>() - 0.5;
            for (i, row) in d.iter_mut().enumerate() {
                row[p] = match (kind, i) {
                    (_, 4) => 0.25,
                    (0, _) => 0.0,
                    (1, _) => 0.5 / (i as f64 + 1.0),
                    (_, 3) => x,
                    _ => x * (i as f64 + 1.0) - 0.1,
                };
            }
        }
        let se = d
            .iter()
            .map(|r| mean_and_standard_error(r).1.unwrap())
            .collect();
        (d, se)
    }

    #[test]
    fn the_factor_reproduces_the_covariance_of_every_problem() {
        let (d, se) = data();
        assert_eq!(se[4], 0.0);
        let (n, c) = covariance(&d, &se);
        assert_eq!(n, 4);
        // The covariance summed over every problem's own row, as defined.
        for i in 0..n {
            for j in 0..=i {
                let mean = |k: usize| d[k].iter().sum::<f64>() / 101.0;
                let direct: f64 = (0..101)
                    .map(|p| {
                        (d[i][p] - mean(i)) * (d[j][p] - mean(j)) / (101.0 * 101.0 * se[i] * se[j])
                    })
                    .sum();
                assert!((c[i * n + j] - direct).abs() < 1e-12, "{i} {j}");
            }
        }
        let columns = pivoted_cholesky(n, c.clone());
        // Budgets 0..4 are affine in one draw for kinds 2 and 3 and fixed for kinds 0 and 1:
        // the centred rows span at most 3 dimensions.
        assert!(columns.len() <= 3, "rank {}", columns.len());
        // L L^T is C up to the order of the pivots: compare the sorted diagonals and the
        // total of all entries (both invariant under a symmetric permutation).
        let mut product = vec![0.0; n * n];
        for (j, column) in columns.iter().enumerate() {
            for a in 0..column.len() {
                for b in 0..column.len() {
                    product[(j + a) * n + j + b] += column[a] * column[b];
                }
            }
        }
        let full = |i: usize, j: usize| c[i.max(j) * n + i.min(j)];
        let mut expected: Vec<f64> = (0..n).map(|i| full(i, i)).collect();
        let mut got: Vec<f64> = (0..n).map(|i| product[i * n + i]).collect();
        expected.sort_by(f64::total_cmp);
        got.sort_by(f64::total_cmp);
        for (a, b) in got.iter().zip(&expected) {
            assert!((a - b).abs() < 1e-12, "{a} {b}");
        }
        let total_expected: f64 = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .map(|(i, j)| full(i, j))
            .sum();
        let total_got: f64 = product.iter().sum();
        assert!((total_got - total_expected).abs() < 1e-11);
    }

    #[test]
    fn the_drawn_band_has_the_law_of_the_multiplier_bootstrap() {
        // Different streams, one law: the two critical values agree within their Monte
        // Carlo error (20,000 replicates each; 4.5 combined standard errors).
        let (d, se) = data();
        let replicates = 20_000;
        let band = &bootstrap(
            std::slice::from_ref(&d),
            std::slice::from_ref(&se),
            replicates,
            5,
        )[0];
        let mut t = multiplier_maxima(&d, &se, replicates, 9);
        t.sort_by(f64::total_cmp);
        let direct = t[(0.95 * replicates as f64).ceil() as usize - 1];
        let tolerance = 4.5 * (2.0f64).sqrt() * band.critical_error;
        assert!(
            (band.critical - direct).abs() < tolerance,
            "{} {direct} {tolerance}",
            band.critical
        );
        assert!(
            band.critical > 1.9 && band.critical < 2.5,
            "{}",
            band.critical
        );
    }

    #[test]
    fn the_band_does_not_depend_on_the_chunking() {
        // 150 replicates (chunks of 64, 64 and 22, each from its own stream position)
        // against one sequential stream of the same normals.
        let (d, se) = data();
        let (n, c) = covariance(&d, &se);
        let columns = pivoted_cholesky(n, c);
        let rank = columns.len();
        let mut z = vec![0.0; 150 * rank];
        let mut stream = ChaCha8Rng::seed_from_u64(11);
        for draws in z.chunks_mut(rank) {
            normals(&mut stream, draws);
        }
        let mut t = maxima(&columns, n, &z, rank);
        t.sort_by(f64::total_cmp);
        let band = &bootstrap(&[d], &[se], 150, 11)[0];
        assert_eq!(band.critical, t[(0.95f64 * 150.0).ceil() as usize - 1]);
    }

    #[test]
    fn three_independent_budgets_give_a_critical_value_between_pointwise_and_bonferroni() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut d = vec![vec![0.0; 400]; 3];
        for row in &mut d {
            normals(&mut rng, row);
        }
        let se: Vec<f64> = d
            .iter()
            .map(|r| mean_and_standard_error(r).1.unwrap())
            .collect();
        let band = &bootstrap(&[d], &[se], 4000, 7)[0];
        // 1.96 pointwise; the 95% quantile of the largest of three independent |N(0,1)| is
        // 2.39.
        assert!(
            band.critical > 2.2 && band.critical < 2.6,
            "{}",
            band.critical
        );
        assert!(band.critical_error > 0.0 && band.critical_error < 0.1);
    }

    #[test]
    fn every_budget_with_no_spread_gives_a_band_of_zero() {
        let d = vec![vec![0.5; 10]; 3];
        let se = vec![0.0; 3];
        let band = &bootstrap(&[d], &[se], 200, 1)[0];
        assert_eq!(band.critical, 0.0);
    }
}
