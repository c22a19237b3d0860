//! The exact engine against the Monte Carlo side: `mc::emm_study`'s minimax curve with the
//! artificial evaluator and its minimax-on-the-fraction curve, on P- and N-games, at fixed
//! seeds; every depth within `SIGMAS` standard errors of the exact value.

use crate::common::process;
use pathology::sim::TrialRunner;
use pathology::sim::level_tree::{BoardSpec, GameKind};
use pathology::studies::wilson_parker_nau::exact_curve::{attach_exact, exact_minimax_curve};
use pathology::studies::wilson_parker_nau::study::{
    FRACTION_MINIMAX, StudyEvaluator, calibrate, run,
};

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

mod cli {
    use super::super::common::{json_of, parameter, refused, rows_of};

    fn values(report: &serde_json::Value) -> Vec<f64> {
        rows_of(report)
            .iter()
            .map(|r| r["D"].as_f64().unwrap())
            .collect()
    }

    #[test]
    fn every_family_runs_and_decides_correctly_at_full_depth() {
        for args in [
            vec!["--game", "p", "--branching", "3", "--height", "6"],
            vec!["--game", "p", "--height", "6", "--p", "1/2", "--exact"],
            vec![
                "--game",
                "n",
                "--height",
                "7",
                "--evaluator",
                "artificial",
                "--e",
                "0.2",
            ],
            vec![
                "--game",
                "n",
                "--branching",
                "3",
                "--height",
                "5",
                "--q",
                "0.6",
                "--exact",
            ],
            vec![
                "--game",
                "d",
                "--branching",
                "3",
                "--height",
                "5",
                "--qk",
                "0.5,0.3,0.2",
                "--rk",
                "1/5,3/10,1/2",
            ],
        ] {
            let mut all = vec!["exact"];
            all.extend(&args);
            all.extend(["--format", "json"]);
            let report = json_of(&all);
            let v = values(&report);
            let height: usize = parameter(&report, "height").parse().unwrap();
            assert_eq!(v.len(), height, "{args:?}");
            let rows = rows_of(&report);
            let last = &rows[v.len() - 1];
            assert!(v.iter().all(|x| (0.0..=1.0).contains(x)), "{args:?}");
            if args.contains(&"--exact") {
                assert!(rows[0]["D_exact"].as_str().unwrap().contains('/'));
                assert_eq!(last["D_exact"], "1/1", "{args:?}: D(h,h) = 1");
            } else {
                let bound = last["D_error_bound"].as_f64().unwrap();
                assert!(1.0 - v[v.len() - 1] <= bound, "{args:?}: D(h,h) = 1");
                assert!(rows[0]["D_error_bound"].as_f64().unwrap() < 1e-9);
            }
        }
    }

    /// b = 2 D-games with the piece count print exactly what `dgame` prints.
    #[test]
    fn binary_d_games_are_bit_identical_to_dgame() {
        let ours = json_of(&[
            "exact", "--game", "d", "--height", "10", "--qk", "0.9,0.1", "--rk", "0.3,0.7",
            "--format", "json",
        ]);
        let theirs = json_of(&[
            "dgame", "--height", "10", "--f1", "0.1", "--f2", "0.7", "--format", "json",
        ]);
        let theirs: Vec<f64> = rows_of(&theirs)
            .iter()
            .map(|c| c["D"].as_f64().unwrap())
            .collect();
        assert_eq!(values(&ours), theirs);
    }

    #[test]
    fn bad_input_exits_2_naming_the_argument() {
        refused(
            &["exact", "--game", "p", "--branching", "1", "--height", "4"],
            &["--branching"],
        );
        refused(
            &["exact", "--game", "p", "--height", "4", "--p", "1.5"],
            &["--p"],
        );
        refused(
            &["exact", "--game", "n", "--height", "4", "--q", "-0.1"],
            &["--q"],
        );
        refused(
            &["exact", "--game", "p", "--height", "4", "--exact"],
            &["--p"],
        );
        refused(
            &["exact", "--game", "p", "--height", "4", "--depth", "5"],
            &["--depth"],
        );
        refused(
            &[
                "exact",
                "--game",
                "p",
                "--height",
                "4",
                "--evaluator",
                "artificial",
                "--e",
                "2",
            ],
            &["--e"],
        );
        refused(
            &[
                "exact", "--game", "d", "--height", "4", "--qk", "0.5,0.6", "--rk", "1",
            ],
            &["q must be a distribution summing to 1"],
        );
        refused(
            &[
                "exact",
                "--game",
                "d",
                "--height",
                "4",
                "--qk",
                "0.5,0.25,0.25",
                "--rk",
                "1",
            ],
            &["at most b = 2"],
        );
        refused(&["exact", "--game", "d", "--height", "4"], &["--qk"]);
        // An option of another family or evaluator is refused, never ignored.
        for (args, named) in [
            (&["--game", "p", "--qk", "0.5,0.5"][..], "--qk"),
            (&["--game", "p", "--rk", "1"][..], "--rk"),
            (&["--game", "n", "--p", "0.3"][..], "--p"),
            (&["--game", "p", "--q", "0.3"][..], "--q"),
            (&["--game", "p", "--e", "0.1"][..], "--e"),
            (
                &["--game", "n", "--evaluator", "count", "--e", "0.1"][..],
                "--e",
            ),
        ] {
            let mut full = vec!["exact", "--height", "4"];
            full.extend_from_slice(args);
            refused(&full, &[named, "given only with"]);
        }
        refused(
            &["exact", "--game", "p", "--height", "4", "--p", "0"],
            &["--p", "(0, 1)"],
        );
        refused(
            &["exact", "--game", "p", "--branching", "3", "--height", "21"],
            &["refused"],
        );
        refused(
            &["exact", "--game", "p", "--branching", "4", "--height", "30"],
            &["--branching"],
        );
    }
}

/// `mc emm`'s report (`mc::emm_report`): the exact column of the minimax rows (artificial
/// evaluator) and of the minimax-on-the-fraction rows (natural) is `exact_minimax_curve`'s
/// value with its bound, and the other rows have none.
mod emm_report {
    use pathology::report::Cell;
    use pathology::sim::TrialRunner;
    use pathology::sim::level_tree::{BoardSpec, GameKind};
    use pathology::sim::report::McRun;
    use pathology::studies::wilson_parker_nau::exact_curve::exact_minimax_curve;
    use pathology::studies::wilson_parker_nau::report::{
        EmmSetting, EvaluatorSetting, study_report,
    };
    use pathology::studies::wilson_parker_nau::study::{StudyEvaluator, calibrate, run_counts};

    #[test]
    fn exact_column_is_the_exact_minimax_curve() {
        let spec = BoardSpec::new(GameKind::P, 2, 5, 0.4).unwrap();
        let table = calibrate(&spec, &TrialRunner::new(50, 2, 1).unwrap()).unwrap();
        for (evaluator, setting, exact_row) in [
            (
                StudyEvaluator::Artificial { error: 0.2 },
                EvaluatorSetting::Artificial { error: 0.2 },
                "minimax",
            ),
            (
                StudyEvaluator::Natural(table),
                EvaluatorSetting::Natural { games: 50, seed: 2 },
                "minimax_fraction",
            ),
        ] {
            let runner = TrialRunner::new(400, 6, 2).unwrap();
            let counts = run_counts(&spec, &evaluator, &runner).unwrap();
            let run = McRun {
                trials: 400,
                seed: 6,
                shard: None,
            };
            let setting = EmmSetting {
                spec: spec.clone(),
                evaluator: setting,
            };
            let report = study_report(&setting, &run, &counts);
            let t = report.table("estimates").unwrap();
            let column = |name: &str| t.column_index(name).unwrap();
            let curve = exact_minimax_curve(&spec, &evaluator).unwrap();
            let mut seen = 0;
            for row in &t.rows {
                let Cell::Integer(d) = row[column("d")] else {
                    panic!("d is an integer")
                };
                let d = d as usize;
                if row[column("algorithm")] == Cell::text(exact_row) {
                    assert_eq!(
                        row[column("exact")],
                        Cell::Bounded {
                            value: curve.values[d - 1],
                            bound: curve.error_bounds[d - 1]
                        }
                    );
                    assert!(matches!(row[column("z")], Cell::Real(z) if z.abs() < 4.0));
                    seen += 1;
                } else {
                    assert_eq!(row[column("exact")], Cell::Empty);
                    assert_eq!(row[column("z")], Cell::Empty);
                }
            }
            assert_eq!(seen, 5);
        }
    }
}

/// A binary piece-count D-game is computed by `dgame::Solver`, so `exact` refuses it with
/// `dgame`'s own estimate (the b-ary model overestimated it tenfold at h = 15; h = 17 is refused by both builds).
#[test]
fn binary_d_game_is_refused_with_the_d_game_estimate() {
    let stderr = |args: &[&str]| {
        let out = process().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let ours = stderr(&[
        "exact", "--game", "d", "--qk", "0.7,0.3", "--rk", "0.7,0.3", "--height", "17", "--exact",
    ]);
    let dgame = stderr(&[
        "dgame", "--f1", "0.3", "--f2", "0.3", "--height", "17", "--exact",
    ]);
    assert!(ours.contains("refused"), "{ours}");
    assert_eq!(ours, dgame);
}
