use num_rational::BigRational;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use super::McInference;
use super::trials::{Choice, Draw, ranks};
use crate::analytic::inference::Tasks;
use crate::analytic::inference::report::InferenceRequest;
use crate::report::Cell;
use crate::sim::report::McRun;
use crate::sim::stats::Proportion;

fn q(text: &str) -> BigRational {
    crate::numeric::number::parse_rational(text).unwrap()
}

/// A law whose common denominator fits in 64 bits is drawn exactly: every residue of the
/// denominator maps to its atom, so the frequencies over one full cycle are the masses.
#[test]
fn draws_are_exact_below_two_to_the_64() {
    let draw = Draw::new(&[q("1/3"), q("1/2"), q("1/6")]);
    assert!(draw.exact);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut seen = [0u64; 3];
    for _ in 0..60_000 {
        seen[draw.draw(&mut rng)] += 1;
    }
    // Each within 5 standard deviations of its mass.
    for (count, mass) in seen.iter().zip([1.0 / 3.0, 0.5, 1.0 / 6.0]) {
        let sd = (60_000.0_f64 * mass * (1.0 - mass)).sqrt();
        assert!(
            (*count as f64 - 60_000.0 * mass).abs() < 5.0 * sd,
            "{seen:?}"
        );
    }
    // A denominator beyond 2^64 (3^41 is about 3.6e19) is rounded, and says so.
    let p = q("1/36472996377170786403");
    let rounded = Draw::new(&[p.clone(), BigRational::from_integer(1.into()) - p]);
    assert!(!rounded.exact);
    // A point mass draws nothing.
    let point = Draw::new(&[q("1")]);
    assert_eq!(point.draw(&mut rng), 0);
}

/// Ranks merge two sorted lists of exact values, equal values sharing a rank (1/3 and
/// 0.3333 are different values).
#[test]
fn ranks_tie_only_equal_values() {
    let (a, b) = ranks(
        &[q("0"), q("1/3"), q("1")],
        &[q("0.3333"), q("1/3"), q("2")],
    );
    assert_eq!(a, vec![0, 2, 3]);
    assert_eq!(b, vec![1, 2, 4]);
}

/// The verdict column flags a count far from the exact value after Holm, and only that row.
#[test]
fn a_wrong_count_disagrees_after_holm() {
    let experiment = McInference {
        request: InferenceRequest::PassAtK {
            tasks: Tasks::parse("1/2").unwrap(),
            ks: vec![1, 2],
        },
    };
    let run = McRun {
        trials: 1000,
        seed: 1,
        shard: None,
    };
    let counts = |first: u64, second: u64| {
        [first, second].map(|successes| Proportion {
            successes,
            trials: 1000,
        })
    };
    let verdicts = |first, second| -> Vec<Cell> {
        let report = experiment.report(&run, &counts(first, second)).unwrap();
        let table = &report.tables[0];
        let v = table.column_index("verdict").unwrap();
        table.rows.iter().map(|r| r[v].clone()).collect()
    };
    // Exact: 1/2 and 3/4.
    assert_eq!(
        verdicts(500, 752),
        vec![
            Cell::text("no difference detected"),
            Cell::text("no difference detected")
        ]
    );
    assert_eq!(
        verdicts(500, 600),
        vec![
            Cell::text("no difference detected"),
            Cell::text("disagrees")
        ]
    );
    assert!(experiment.report(&run, &counts(1, 2)[..1]).is_err());
}

/// The choice kept as candidates arrive is uniform over the tied maxima by position (the
/// first, middle and last of three tied candidates each about a third of the time), and a
/// larger score replaces it.
#[test]
fn the_kept_choice_is_uniform_over_the_tied() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut seen = [0u64; 4];
    for _ in 0..30_000 {
        let mut choice = Choice::new(usize::MAX);
        for (position, score) in [5u32, 2, 5, 5].into_iter().enumerate() {
            choice.offer(score, position, &mut rng);
        }
        seen[choice.chosen] += 1;
    }
    assert_eq!(seen[1], 0);
    for &count in [seen[0], seen[2], seen[3]].iter() {
        // 10000 expected; 5 standard deviations is about 408.
        assert!((count as f64 - 10_000.0).abs() < 410.0, "{seen:?}");
    }
    let mut choice = Choice::new(0usize);
    choice.offer(1, 1, &mut rng);
    choice.offer(7, 2, &mut rng);
    choice.offer(3, 3, &mut rng);
    assert_eq!(choice.chosen, 2);
}

/// The expected draws of a trial, `(1 - (1 - p)^k) / p`: for p = 1e-300 `1 - p` is 1 in
/// `f64`, and the plain formula says 0 draws where a trial draws all k samples.
#[test]
fn expected_draws_hold_for_tiny_probabilities_and_huge_k() {
    use super::trials::Mix;
    let mix = |r: &str| Mix::new(&Tasks::parse(r).unwrap());
    let k = 1_000_000_000_000_000_000u64;
    let tiny = mix("1e-300").expected_until(k, |r| r);
    assert!((tiny / k as f64 - 1.0).abs() < 1e-12, "{tiny}");
    // p = 1e-17 and k = 10^12: about k (1 - k p / 2) draws.
    let small = mix("1e-17").expected_until(1_000_000_000_000, |r| r);
    assert!((small / 1e12 - 1.0).abs() < 1e-5, "{small}");
    // The ordinary cases: one draw at p = 1, 1/p for large k, k for p = 0.
    assert_eq!(mix("1").expected_until(50, |r| r), 1.0);
    assert!((mix("0.25").expected_until(10_000, |r| r) - 4.0).abs() < 1e-9);
    assert_eq!(mix("0").expected_until(50, |r| r), 50.0);
}
