use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::*;
use crate::analytic::inference::Tasks;
use crate::report::Cell;

/// `problems` problems of `n` samples, each problem's rate drawn from `mix` (`(p, share)`).
pub(crate) fn synthetic(seed: u64, problems: usize, n: u64, mix: &[(f64, f64)]) -> Vec<(u64, u64)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..problems)
        .map(|_| {
            let u: f64 = rng.random();
            let mut acc = 0.0;
            let mut p = mix[mix.len() - 1].0;
            for &(r, w) in mix {
                acc += w;
                if u < acc {
                    p = r;
                    break;
                }
            }
            let c = (0..n).filter(|_| rng.random::<f64>() < p).count() as u64;
            (c, n)
        })
        .collect()
}

const MIX: [(f64, f64); 3] = [(0.05, 0.3), (0.4, 0.5), (0.9, 0.2)];

#[test]
fn the_certificate_holds_and_the_likelihood_beats_the_true_mix() {
    let data = synthetic(1, 1060, 128, &MIX);
    let fit = fit_mixture(&data).unwrap();
    assert!(fit.certified(), "{fit:?}");
    assert!(fit.max_gradient <= CERTIFICATE_TOLERANCE);
    // Equality on the support: D_G vanishes at every support point (to the iterations'
    // precision), which the largest gradient found includes.
    assert!(fit.max_gradient >= -1e-9, "{fit:?}");
    let truth = log_likelihood(&data, &MIX.map(|m| m.0), &MIX.map(|m| m.1)).unwrap();
    assert!(
        fit.log_likelihood >= truth,
        "{} < {truth}",
        fit.log_likelihood
    );
    let sum: f64 = fit.weights.iter().sum();
    assert!((sum - 1.0).abs() < 1e-12);
    assert!(fit.support.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn a_known_mixture_is_recovered_from_a_large_sample() {
    let mix = [(0.1, 0.5), (0.7, 0.5)];
    let data = synthetic(7, 6000, 128, &mix);
    let fit = fit_mixture(&data).unwrap();
    assert!(fit.certified(), "{fit:?}");
    for &(p, w) in &mix {
        let near: f64 = fit
            .support
            .iter()
            .zip(&fit.weights)
            .filter(|(s, _)| (**s - p).abs() < 0.03)
            .map(|(_, w)| w)
            .sum();
        assert!((near - w).abs() < 0.03, "mass near {p}: {near}; {fit:?}");
    }
}

#[test]
fn one_distinct_count_gives_its_share_as_a_point_mass() {
    let fit = fit_mixture(&[(3, 10); 5]).unwrap();
    assert_eq!(fit.support.len(), 1);
    assert!((fit.support[0] - 0.3).abs() < 1e-7, "{fit:?}");
    assert!((fit.weights[0] - 1.0).abs() < 1e-12);
    assert!(fit.certified());
}

#[test]
fn all_correct_and_all_wrong_data_give_the_ends() {
    let correct = fit_mixture(&[(10, 10), (4, 4)]).unwrap();
    assert_eq!(
        (correct.support.clone(), correct.weights.clone()),
        (vec![1.0], vec![1.0])
    );
    assert!(correct.certified());
    assert_eq!(correct.log_likelihood, 0.0);
    let wrong = fit_mixture(&[(0, 7); 3]).unwrap();
    assert_eq!(
        (wrong.support.clone(), wrong.weights.clone()),
        (vec![0.0], vec![1.0])
    );
    let both = fit_mixture(&[(0, 6), (6, 6), (0, 6)]).unwrap();
    assert_eq!(both.support, vec![0.0, 1.0]);
    assert!((both.weights[0] - 2.0 / 3.0).abs() < 1e-9, "{both:?}");
}

#[test]
fn the_printed_mix_sums_to_one_exactly_and_parses_as_tasks() {
    let data = synthetic(3, 500, 32, &MIX);
    let fit = fit_mixture(&data).unwrap();
    let mix = rounded_mix(&fit);
    let sum = mix.iter().fold(BigRational::zero(), |a, (_, w)| a + w);
    assert_eq!(sum, BigRational::one());
    let report = fit_report(&data, &[1, 4, 32, 64], true).unwrap();
    let tasks = report
        .notes
        .iter()
        .find_map(|n| n.strip_prefix("--tasks "))
        .expect("the --tasks note");
    let parsed = Tasks::parse(tasks).unwrap();
    assert_eq!(parsed.types().len(), mix.len());
    for (t, (r, w)) in parsed.types().iter().zip(&mix) {
        assert_eq!((&t.success, &t.share), (r, w));
    }
}

/// pass@k by brute force: the share of k-subsets of the n samples with a correct one.
fn brute_pass_at_k(c: u64, n: u64, k: u64) -> BigRational {
    let (mut hit, mut all) = (0u64, 0u64);
    for subset in 0u64..(1 << n) {
        if u64::from(subset.count_ones()) == k {
            all += 1;
            if subset & ((1 << c) - 1) != 0 {
                hit += 1;
            }
        }
    }
    BigRational::new(BigInt::from(hit), BigInt::from(all))
}

#[test]
fn the_in_sample_pass_at_k_is_the_mean_over_every_subset() {
    let counts = [(0, 6), (1, 6), (3, 6), (6, 6), (2, 5)];
    for k in 1..=5u64 {
        let brute = counts.iter().fold(BigRational::zero(), |a, &(c, n)| {
            a + brute_pass_at_k(c, n, k)
        }) / BigRational::from_integer(BigInt::from(counts.len()));
        assert_eq!(
            in_sample_pass_at_k(&counts, &[k]).unwrap()[0],
            brute,
            "k = {k}"
        );
    }
}

#[test]
fn the_f64_report_agrees_with_the_exact_one_within_its_bounds() {
    let data = synthetic(5, 300, 16, &MIX);
    let exact = fit_report(&data, &[1, 2, 8, 16, 40], true).unwrap();
    let fast = fit_report(&data, &[1, 2, 8, 16, 40], false).unwrap();
    let (e, f) = (
        exact.table("pass_at_k").unwrap(),
        fast.table("pass_at_k").unwrap(),
    );
    let mut compared = 0;
    for (re, rf) in e.rows.iter().zip(&f.rows) {
        for column in 1..3 {
            match (&re[column], &rf[column]) {
                (Cell::Exact(x), Cell::Bounded { value, bound }) => {
                    let x = crate::numeric::number::rational_to_f64(x);
                    assert!((x - value).abs() <= *bound, "{x} vs {value} +- {bound}");
                    compared += 1;
                }
                (Cell::Empty, Cell::Empty) => {}
                other => panic!("{other:?}"),
            }
        }
    }
    // k = 40 is above n = 16: the data's column is empty there.
    assert_eq!(compared, 9);
}

#[test]
fn bad_counts_and_budgets_are_refused() {
    let message = |r: Result<MixFit>| r.unwrap_err().to_string();
    assert!(message(fit_mixture(&[])).contains("at least one problem"));
    assert!(message(fit_mixture(&[(3, 2)])).contains("c <= n"));
    assert!(message(fit_mixture(&[(0, 0)])).contains("n >= 1"));
    let e = in_sample_pass_at_k(&[(1, 4)], &[5])
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("--k must be in 1..=4"), "{e}");
    let e = fit_report(&[(1, 4)], &[0], true).unwrap_err().to_string();
    assert!(e.starts_with("--k"), "{e}");
    let e = fit_report(&[(1, 4)], &[MAX_EXACT_K_SUM + 1], true)
        .unwrap_err()
        .to_string();
    assert!(e.contains("--exact"), "{e}");
}

#[test]
fn problems_of_many_sample_sizes_are_fitted_from_a_grid_start() {
    // 400 problems of 400 different n: more distinct shares than starting points.
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let data: Vec<(u64, u64)> = (0..400u64)
        .map(|i| {
            let n = 20 + i;
            let p = if rng.random::<f64>() < 0.5 { 0.2 } else { 0.8 };
            ((0..n).filter(|_| rng.random::<f64>() < p).count() as u64, n)
        })
        .collect();
    let fit = fit_mixture(&data).unwrap();
    assert!(fit.groups > MAX_START);
    assert!(fit.certified(), "{fit:?}");
    let truth = log_likelihood(&data, &[0.2, 0.8], &[0.5, 0.5]).unwrap();
    assert!(fit.log_likelihood >= truth);
}
