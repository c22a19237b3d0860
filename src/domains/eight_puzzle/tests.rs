use num_rational::BigRational;
use num_traits::{One, Zero};
use rand::RngExt;

use super::board::{GOAL, Puzzle, STATES};
use super::exact::{self, UNIT};
use super::heuristic::{Evaluation, Heuristic, Noise};
use super::noisy::Tree;
use super::*;

fn puzzle() -> Puzzle {
    Puzzle::solve()
}

#[test]
fn the_puzzle_has_181440_states_and_its_diameter_31_is_reached_by_two() {
    let p = puzzle();
    assert_eq!(p.len(), STATES);
    let h = p.histogram();
    assert_eq!(h.len(), 32);
    assert_eq!(h[31], 2);
    assert_eq!(h.iter().sum::<u64>(), 181_440);
    // The known counts near the goal: 1, 2, 4, 8, 16 (corner blank).
    assert_eq!(&h[..5], &[1, 2, 4, 8, 16]);
    let far: Vec<[u8; 9]> = (0..p.len())
        .filter(|&i| p.distance(i) == 31)
        .map(|i| p.tiles(i))
        .collect();
    assert!(far.contains(&[8, 6, 7, 2, 5, 4, 3, 0, 1]));
    assert!(far.contains(&[6, 4, 7, 8, 5, 0, 3, 2, 1]));
}

#[test]
fn neighbours_are_symmetric_and_differ_by_one_in_distance() {
    let p = puzzle();
    for s in 0..p.len() {
        for n in p.successors(s) {
            assert!(p.successors(n).any(|m| m == s));
            assert_eq!(p.distance(s).abs_diff(p.distance(n)), 1);
        }
        assert_eq!(p.index_of(&p.tiles(s)), Some(s));
    }
    assert_eq!(p.tiles(0), GOAL);
}

#[test]
fn manhattan_and_misplaced_are_admissible_and_ranges_are_as_documented() {
    let p = puzzle();
    for h in [Heuristic::Manhattan, Heuristic::Misplaced] {
        for s in 0..p.len() {
            assert!(h.value(&p, s) <= p.distance(s), "{} at {s}", h.name());
        }
    }
    let range = |h| Evaluation::new(&p, h, None, &Noise::None).unwrap().range();
    assert_eq!(range(Heuristic::Manhattan), (0, 22));
    assert_eq!(range(Heuristic::Misplaced), (0, 8));
    assert_eq!(range(Heuristic::Distance), (0, 31));
}

#[test]
fn the_dynamic_programme_equals_the_literal_tree_search() {
    let p = puzzle();
    let mut rng = crate::sim::runner::trial_rng(5, 0);
    let noise = Noise::None;
    for (h, levels) in [
        (Heuristic::Manhattan, None),
        (Heuristic::Misplaced, None),
        (Heuristic::Manhattan, Some(4)),
    ] {
        let e = Evaluation::new(&p, h, levels, &noise).unwrap();
        let v = exact::values(&p, &e, 3);
        for _ in 0..200 {
            let root = 1 + rng.random_range(0..p.len() - 1);
            for d in 1..=4u32 {
                let tree = exact::tree_scores(&p, &e, root, d);
                let dp: Vec<i64> = p
                    .successors(root)
                    .map(|n| e.scale() + v[(d - 1) as usize][n])
                    .collect();
                assert_eq!(tree, dp, "root {root}, depth {d}");
            }
        }
    }
}

#[test]
fn a_perfect_heuristic_decides_correctly_at_every_depth() {
    let p = puzzle();
    let e = Evaluation::new(&p, Heuristic::Distance, None, &Noise::None).unwrap();
    let all = exact::decisions_by_depth(&p, &e, &[1, 2, 5, 31]);
    for per_state in &all {
        assert!(per_state[1..].iter().all(|&x| u64::from(x) == UNIT));
    }
}

#[test]
fn manhattan_decides_correctly_next_to_the_goal() {
    // At distance 1 the goal is a move away and scores 1; every other move scores at least 2.
    let p = puzzle();
    let e = Evaluation::new(&p, Heuristic::Manhattan, None, &Noise::None).unwrap();
    let first = exact::decisions_by_depth(&p, &e, &[1]);
    for s in (1..p.len()).filter(|&s| p.distance(s) == 1) {
        assert_eq!(u64::from(first[0][s]), UNIT);
    }
}

#[test]
fn exact_rows_are_consistent() {
    let result = accuracy_by_depth(&PuzzleConfig::exact(vec![2, 1])).unwrap();
    let Rows::Exact(rows) = &result.rows else {
        panic!("exact expected")
    };
    assert_eq!(result.config.depths, vec![1, 2]);
    // One overall row and 31 distance rows per depth.
    assert_eq!(rows.len(), 2 * 32);
    let all = &rows[0];
    assert_eq!((all.depth, all.distance, all.positions), (1, None, 181_439));
    let by: u64 = rows[1..32].iter().map(|r| r.positions).sum();
    assert_eq!(by, 181_439);
    // The overall mean is the positions-weighted mean of the distance rows.
    let weighted: BigRational = rows[1..32]
        .iter()
        .map(|r| &r.correct * BigRational::from_integer(r.positions.into()))
        .sum();
    assert_eq!(
        weighted / BigRational::from_integer(181_439.into()),
        all.correct
    );
    assert!(all.correct > BigRational::zero() && all.correct < BigRational::one());
}

#[test]
fn zero_noise_as_a_discrete_law_is_the_deterministic_result() {
    let p = puzzle();
    let zero = Noise::parse("0:1").unwrap();
    let Noise::Discrete(law) = &zero else {
        panic!()
    };
    let e = Evaluation::new(&p, Heuristic::Manhattan, None, &zero).unwrap();
    let det = exact::decisions_by_depth(&p, &e, &[1, 2, 3]);
    let mut rng = crate::sim::runner::trial_rng(9, 0);
    for _ in 0..100 {
        let root = 1 + rng.random_range(0..p.len() - 1);
        let mut tree = Tree::new(&p, &e, law);
        for (k, d) in [1u32, 2, 3].into_iter().enumerate() {
            let want = BigRational::new(u64::from(det[k][root]).into(), UNIT.into());
            assert_eq!(tree.correct(root, d), want);
        }
    }
}

#[test]
fn exact_discrete_noise_agrees_with_sampling_one_root() {
    // One root, depth 2, noise -1:1/2, 1:1/2: the exact law against 20,000 sampled searches.
    let p = puzzle();
    let noise = Noise::parse("-1:1/2,1:1/2").unwrap();
    let Noise::Discrete(law) = &noise else {
        panic!()
    };
    let e = Evaluation::new(&p, Heuristic::Manhattan, None, &noise).unwrap();
    let root = (1..p.len()).find(|&s| p.distance(s) == 6).unwrap();
    let exact = crate::sim::report::rational_f64(&Tree::new(&p, &e, law).correct(root, 2));
    let sampler = monte_carlo::Sampler::new(&e, &noise);
    let mut hits = 0u64;
    let n = 20_000u64;
    for i in 0..n {
        let mut rng = crate::sim::runner::trial_rng(3, i);
        hits += u64::from(sampler.correct(&p, root, 2, &mut rng));
    }
    let p_hat = hits as f64 / n as f64;
    let se = (exact * (1.0 - exact) / n as f64).sqrt().max(1e-9);
    assert!((p_hat - exact).abs() < 5.0 * se, "{p_hat} vs {exact}");
}

#[test]
fn levels_round_half_up_and_map_back_to_heuristic_units() {
    let p = puzzle();
    // Manhattan's range is [0, 22]; 3 levels are 0, 11, 22 (scale 2: 0, 22, 44).
    let e = Evaluation::new(&p, Heuristic::Manhattan, Some(3), &Noise::None).unwrap();
    assert_eq!(e.scale(), 2);
    for s in 0..p.len() {
        let h = i64::from(e.raw(s));
        let want = if h < 6 {
            0
        } else if h < 17 {
            22
        } else {
            44
        };
        assert_eq!(e.scaled(s), want, "h = {h}");
    }
    assert!(Evaluation::new(&p, Heuristic::Manhattan, Some(1), &Noise::None).is_err());
}

#[test]
fn bad_requests_name_their_argument() {
    let mut c = PuzzleConfig::exact(vec![0]);
    assert!(
        accuracy_by_depth(&c)
            .unwrap_err()
            .to_string()
            .contains("--depth")
    );
    c.depths = vec![MAX_DEPTH + 1];
    assert!(
        accuracy_by_depth(&c)
            .unwrap_err()
            .to_string()
            .contains("--depth")
    );
    c.depths = vec![1];
    c.noise = Noise::parse("gaussian:1").unwrap();
    c.method = Method::Exact;
    assert!(
        accuracy_by_depth(&c)
            .unwrap_err()
            .to_string()
            .contains("--method")
    );
    c.noise = Noise::parse("-1:1/2,1:1/2").unwrap();
    c.depths = vec![MAX_EXACT_NOISY_DEPTH];
    let e = accuracy_by_depth(&c).unwrap_err();
    assert!(e.is_usage() && e.to_string().contains("refused"), "{e}");
    for bad in ["gaussian:0", "gaussian:-1", "1:0.5", "x:1", "1:2,0:-1", ""] {
        assert!(Noise::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn monte_carlo_is_seeded_and_thread_count_independent() {
    let mut c = PuzzleConfig::exact(vec![1, 3]);
    c.noise = Noise::parse("gaussian:1").unwrap();
    c.run.trials = 400;
    c.run.threads = Some(1);
    let one = accuracy_by_depth(&c).unwrap().rows;
    c.run.threads = Some(2);
    let two = accuracy_by_depth(&c).unwrap().rows;
    assert_eq!(one, two);
    let Rows::Sampled(rows) = one else { panic!() };
    assert_eq!(rows[0].correct.trials, 400);
}

#[test]
fn monte_carlo_without_noise_agrees_with_the_exact_accuracy() {
    let mut c = PuzzleConfig::exact(vec![2]);
    let Rows::Exact(exact) = accuracy_by_depth(&c).unwrap().rows else {
        panic!()
    };
    c.method = Method::MonteCarlo;
    c.run.trials = 4000;
    let Rows::Sampled(sampled) = accuracy_by_depth(&c).unwrap().rows else {
        panic!()
    };
    let want = crate::sim::report::rational_f64(&exact[0].correct);
    let (lo, hi) = sampled[0].correct.wilson_interval(4.0);
    assert!(lo <= want && want <= hi, "{want} outside [{lo}, {hi}]");
}
