//! The exact engine against the Monte Carlo side: `mc::emm_study`'s minimax curve with the
//! artificial evaluator and its minimax-on-the-fraction curve, on P- and N-games, at fixed
//! seeds; every depth within `SIGMAS` standard errors of the exact value.

use pathology::exact::study::{attach_exact, exact_minimax_curve};
use pathology::mc::TrialRunner;
use pathology::mc::emm_study::{FRACTION_MINIMAX, StudyEvaluator, calibrate, run};
use pathology::mc::level_tree::{BoardSpec, GameKind};

/// Agreement criterion, as in the other Monte Carlo checks (tests/mc.rs).
const SIGMAS: f64 = 4.0;

fn check(spec: &BoardSpec, evaluator: &StudyEvaluator, trials: u64, seed: u64) {
    let mut result = run(spec, evaluator, &TrialRunner::new(trials, seed, 2).unwrap()).unwrap();
    let curve = exact_minimax_curve(spec, evaluator).unwrap();
    assert!(curve.error_bounds.iter().all(|&b| b < 1e-9));
    attach_exact(&mut result, &curve);
    for depth in &result.depths {
        let c = if curve.decision == FRACTION_MINIMAX {
            depth.minimax_fraction.unwrap()
        } else {
            depth.minimax
        };
        let z = c.z.unwrap();
        assert!(
            z.abs() <= SIGMAS,
            "{:?} b={} H={} {}: depth {} estimate {} exact {} z {z}",
            spec.kind,
            spec.tree.branching(),
            spec.tree.height(),
            evaluator.name(),
            depth.depth,
            c.estimate,
            c.exact.unwrap()
        );
    }
}

#[test]
fn artificial_minimax_matches_the_monte_carlo() {
    for (kind, b, h, p, e, seed) in [
        (GameKind::P, 2, 8, None, 0.1, 1),
        (GameKind::P, 3, 5, None, 0.2, 2),
        (GameKind::N, 2, 8, Some(0.5), 0.1, 3),
        (GameKind::N, 3, 5, Some(0.6), 0.3, 4),
    ] {
        let p = p.unwrap_or_else(|| kind.default_parameter(b).unwrap());
        let spec = BoardSpec::new(kind, b, h, p).unwrap();
        check(
            &spec,
            &StudyEvaluator::Artificial { error: e },
            20_000,
            seed,
        );
    }
}

#[test]
fn minimax_on_the_fraction_matches_the_monte_carlo() {
    for (kind, b, h, p, seed) in [
        (GameKind::P, 2, 8, 0.5, 5),
        (GameKind::P, 3, 4, 0.4, 6),
        (GameKind::N, 2, 7, 0.5, 7),
    ] {
        let spec = BoardSpec::new(kind, b, h, p).unwrap();
        let table = calibrate(&spec, &TrialRunner::new(200, seed, 2).unwrap()).unwrap();
        check(&spec, &StudyEvaluator::Natural(table), 20_000, seed);
    }
}
