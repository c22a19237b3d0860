use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::*;
use crate::report::Cell;
use crate::samples::fit::tests::synthetic;

fn q(a: i64, b: i64) -> BigRational {
    BigRational::new(BigInt::from(a), BigInt::from(b))
}

/// A law of q: `(point, weight)`.
fn law() -> Vec<(BigRational, BigRational)> {
    vec![
        (q(1, 10), q(1, 5)),
        (q(1, 2), q(3, 10)),
        (q(4, 5), q(1, 4)),
        (q(97, 100), q(1, 4)),
    ]
}

fn moment_of(law: &[(BigRational, BigRational)], k: usize) -> BigRational {
    law.iter().fold(BigRational::zero(), |a, (x, w)| {
        a + w * num_traits::pow(x.clone(), k)
    })
}

#[test]
fn a_known_law_lies_in_every_range_and_the_ranges_narrow_as_j_grows() {
    let law = law();
    let mut previous: Option<Vec<(BigRational, BigRational)>> = None;
    for j in 1..=7usize {
        let m: Vec<BigRational> = (0..=j).map(|t| moment_of(&law, t)).collect();
        let mut range = moment_range(&m).unwrap();
        assert!(matches!(range, MomentRange::Interior { .. }), "J = {j}");
        let ranges: Vec<(BigRational, BigRational)> = (1..=40).map(|k| range.range(k)).collect();
        for (k, (low, high)) in (1..=40).zip(&ranges) {
            let truth = moment_of(&law, k);
            assert!(low <= &truth && &truth <= high, "J = {j}, k = {k}");
            if k <= j {
                assert_eq!((low, high), (&truth, &truth), "J = {j}, k = {k}");
            }
        }
        if let Some(previous) = &previous {
            for ((l0, h0), (l1, h1)) in previous.iter().zip(&ranges) {
                assert!(l0 <= l1 && h1 <= h0, "J = {j}");
            }
            // Strictly narrower somewhere beyond J.
            assert!(previous.iter().zip(&ranges).any(|(a, b)| a != b), "J = {j}");
        }
        previous = Some(ranges);
    }
}

#[test]
fn four_points_are_determined_by_eight_moments() {
    // The lower representation of J = 7 has four interior nodes: the law itself, so m_8 is
    // on the boundary and the law is unique from J = 8 on.
    let law = law();
    let m: Vec<BigRational> = (0..=10).map(|t| moment_of(&law, t)).collect();
    match moment_range(&m).unwrap() {
        MomentRange::Unique {
            mut law,
            determined_by,
        } => {
            assert_eq!(determined_by, 8);
            assert_eq!(law.nodes(), 4);
            assert_eq!(law.moment(30), moment_of(&self::law(), 30));
        }
        other => panic!("{other:?}"),
    }
    // A later moment that differs from the law's is refused.
    let mut wrong = m.clone();
    wrong[10] += q(1, 1_000_000);
    let e = moment_range(&wrong).unwrap_err().to_string();
    assert!(e.starts_with("--moments must be at most 9"), "{e}");
}

#[test]
fn the_closed_forms_of_j_1_and_2_are_the_general_extremes() {
    let data = synthetic(2, 400, 16, &[(0.2, 0.4), (0.6, 0.3), (0.95, 0.3)]);
    let law = law();
    for m2 in [
        data_moments(&data, 2).unwrap(),
        (0..=2).map(|t| moment_of(&law, t)).collect(),
    ] {
        for j in 1..=2usize {
            let m = &m2[..=j];
            let mut range = moment_range(m).unwrap();
            for k in (j as u32 + 1)..=12 {
                assert_eq!(
                    closed_form_range(m, k).unwrap(),
                    range.range(k as usize),
                    "J = {j}, k = {k}"
                );
            }
        }
    }
    // J = 1: [m_1^k, m_1] exactly.
    let (low, high) = closed_form_range(&[q(1, 1), q(2, 3)], 4).unwrap();
    assert_eq!((low, high), (q(16, 81), q(2, 3)));
}

#[test]
fn a_large_sample_of_a_mixture_has_its_in_sample_values_in_the_range() {
    // Up to k = n / 2 here. Near k = n the estimates m_k are no longer jointly some law's
    // moments with m_1..m_J: see the next test.
    let data = synthetic(4, 3000, 64, &[(0.15, 0.35), (0.55, 0.4), (0.9, 0.25)]);
    for j in [1u32, 2, 3] {
        let report = beyond_report(&data, &[4, 8, 16, 32], j, 0, 1, true).unwrap();
        let table = report.table("beyond").unwrap();
        for row in &table.rows {
            match (&row[1], &row[2], &row[3]) {
                (Cell::Exact(low), Cell::Exact(high), Cell::Exact(inside)) => {
                    assert!(low <= inside && inside <= high, "J = {j}: {row:?}");
                }
                other => panic!("{other:?}"),
            }
        }
    }
}

#[test]
fn the_in_sample_value_at_k_equal_to_n_can_leave_the_range() {
    // Every problem solved at least once: the in-sample pass@n is 1, while every law with
    // mean m_1 > 0 has E[q^n] >= m_1^n > 0 (Jensen). The estimates m_1 and m_n are unbiased
    // but not jointly some law's moments.
    let counts = [(1, 4), (2, 4), (4, 4)];
    let report = beyond_report(&counts, &[4], 1, 0, 1, true).unwrap();
    let row = &report.table("beyond").unwrap().rows[0];
    match (&row[2], &row[3]) {
        (Cell::Exact(upper), Cell::Exact(inside)) => {
            assert_eq!(inside, &BigRational::one());
            // m_1 = (3/4 + 2/4 + 0)/3 = 5/12: the upper end is 1 - (5/12)^4.
            assert_eq!(upper, &(BigRational::one() - num_traits::pow(q(5, 12), 4)));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn moments_outside_the_moment_space_are_refused_with_the_largest_feasible_j() {
    let e = beyond_report(&[(1, 2)], &[3], 2, 0, 1, true)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("--moments must be at most 1 for these counts"),
        "{e}"
    );
    assert!(e.ends_with("got 2"), "{e}");
    assert!(beyond_report(&[(1, 2)], &[3], 1, 0, 1, true).is_ok());
    let e = data_moments(&[(1, 4), (2, 3)], 4).unwrap_err().to_string();
    assert!(e.starts_with("--moments must be in 1..=3"), "{e}");
    let e = data_moments(&[(1, 4)], 0).unwrap_err().to_string();
    assert!(e.starts_with("--moments"), "{e}");
    let e = beyond_report(&[(1, 4)], &[0], 1, 0, 1, true)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("--k"), "{e}");
    assert!(data_moments(&[], 1).is_err());
    assert!(data_moments(&[(5, 4)], 1).is_err());
}

#[test]
fn the_enclosures_hold_the_exact_extremes_and_are_narrow() {
    let data = synthetic(6, 1060, 128, &[(0.05, 0.3), (0.4, 0.5), (0.9, 0.2)]);
    let ks = [7u64, 20, 129, 300];
    for j in [2u32, 4, 5] {
        let m = data_moments(&data, j).unwrap();
        let mut range = moment_range(&m).unwrap();
        let exact = pass_ranges(&mut range, &m, &ks, true).unwrap();
        let enclosed = pass_ranges(&mut range, &m, &ks, false).unwrap();
        for ((e_low, e_high, status), (f_low, f_high, f_status)) in exact.iter().zip(&enclosed) {
            assert_eq!((*status, *f_status), ("exact", "enclosure"));
            for (e, f) in [(e_low, f_low), (e_high, f_high)] {
                match (e, f) {
                    (End::Exact(v), End::Enclosed { lower, upper }) => {
                        assert!(lower <= v && v <= upper, "J = {j}");
                        assert!(upper - lower <= BigRational::from_float(1e-9).unwrap());
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
    }
    // A k far beyond the exact recurrence's reach is enclosed within 1e-9.
    let m = data_moments(&data, 5).unwrap();
    let mut range = moment_range(&m).unwrap();
    let far = pass_ranges(&mut range, &m, &[1_000_000_000], true).unwrap();
    match &far[0] {
        (End::Enclosed { lower, upper }, End::Enclosed { .. }, "enclosure") => {
            assert!(upper - lower <= BigRational::from_float(1e-9).unwrap());
            assert!(
                lower <= upper && lower >= &BigRational::zero() && upper <= &BigRational::one()
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_bootstrap_is_seeded_and_independent_of_the_thread_count() {
    let data = synthetic(8, 200, 16, &[(0.3, 0.5), (0.8, 0.5)]);
    let run = |threads: usize, seed: u64| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| beyond_report(&data, &[8, 32], 2, 200, seed, false).unwrap())
    };
    let one = run(1, 5);
    assert_eq!(one, run(2, 5));
    assert_ne!(one, run(1, 6));
    let table = one.table("beyond").unwrap();
    for row in &table.rows {
        for cell in &row[5..7] {
            match cell {
                Cell::Interval {
                    estimate,
                    lower,
                    upper,
                } => {
                    assert!(lower <= upper && lower.is_finite(), "{row:?}");
                    // The point estimate is not forced inside a percentile interval, but with
                    // 200 problems it is near it.
                    assert!((estimate - lower).abs() < 0.5 && (upper - estimate).abs() < 0.5);
                }
                other => panic!("{other:?}"),
            }
        }
    }
    assert!(one.notes.iter().any(|n| n.starts_with("bootstrap:")));
}
