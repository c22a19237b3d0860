//! G-games (our reconstruction of Nau's game graphs, Chi & Nau 1987, Section 4.1): the
//! solver and the exact D(d,k) against brute force through the real searches, the exact D
//! against Monte Carlo, and the command line (`decision --game g`, `mc ggame`, `merge`).

use num_rational::BigRational;
use pathology::analytic::ggame::{ALL_EVALUATORS, decision_polynomials};
use pathology::games::Game;
use pathology::games::ggame::{GGame, Interval};
use pathology::model::Player;
use pathology::sim::TrialRunner;
use pathology::studies::chi_nau::ggame::GGameStudy;

use crate::common::{csv_body, refused, stdout_of};

fn half() -> BigRational {
    BigRational::new(1.into(), 2.into())
}

fn board(k: u32, bits: u32) -> GGame {
    let squares: Vec<bool> = (0..=k).map(|x| bits >> x & 1 == 1).collect();
    GGame::from_squares(&squares).unwrap()
}

/// The lattice solver equals the game-tree search of `search::solve` at the root of every
/// board for every k <= 10.
#[test]
fn solver_equals_tree_search_on_every_board() {
    for k in 1..=10u32 {
        for bits in 0..1u32 << (k + 1) {
            let game = board(k, bits);
            let tree = pathology::search::solve(&game, &game.root());
            let lattice = game.solve()[k as usize][0];
            assert_eq!(tree, f64::from(u8::from(lattice)), "k={k} board {bits:b}");
        }
    }
}

/// The exact D(d,k) equals brute force at p = 1/2 (every board equally likely): for every
/// board with a non-trivial root, the children's values by the generic minimax search over
/// the Game trait, counted correct (1), tied (1/2) or wrong (0); every k <= 8, depth and
/// evaluator.
#[test]
fn exact_decisions_equal_brute_force_searches() {
    for k in 1..=8u32 {
        for evaluator in ALL_EVALUATORS {
            let eval = |g: &GGame, s: &Interval| g.evaluate(evaluator, s);
            for d in 1..=k {
                let (mut twice_good, mut twice_total) = (0i64, 0i64);
                for bits in 0..1u32 << (k + 1) {
                    let game = board(k, bits);
                    let root = game.root();
                    let children: Vec<Interval> = game
                        .moves(&root)
                        .iter()
                        .map(|&m| game.play(&root, m))
                        .collect();
                    let wins: Vec<bool> = children.iter().map(|c| game.wins(c)).collect();
                    if wins[0] == wins[1] {
                        continue;
                    }
                    let values: Vec<f64> = children
                        .iter()
                        .map(|c| pathology::search::minimax(&game, c, d - 1, &eval))
                        .collect();
                    let max = game.to_move(&root) == Player::Max;
                    twice_total += 2;
                    twice_good += if values[0] == values[1] {
                        1
                    } else {
                        let first = (values[0] > values[1]) == max;
                        2 * i64::from(wins[usize::from(!first)] == max)
                    };
                }
                let brute = BigRational::new(twice_good.into(), twice_total.into());
                let exact = decision_polynomials(k, d, evaluator)
                    .unwrap()
                    .value(&half());
                assert_eq!(exact, Some(brute), "k={k} d={d} {evaluator:?}");
            }
        }
    }
}

/// The exact D(d,k) lies within the Monte Carlo estimates' intervals: at k = 8, p = 1/2,
/// 4000 boards, every |z| below 4 and at most 1 in 8 rows outside its 95% interval (about
/// 1 in 20 expected), and rows with D = 1 estimated exactly 1.
#[test]
fn exact_decisions_lie_within_monte_carlo_intervals() {
    let study = GGameStudy::new(8, half());
    let counts = study
        .counts(&TrialRunner::new(4000, 2026, 2).unwrap())
        .unwrap();
    let (mut rows, mut outside) = (0, 0);
    for (evaluator, per_depth) in ALL_EVALUATORS.iter().zip(&counts) {
        for (d, c) in (1..=8).zip(per_depth) {
            let exact = decision_polynomials(8, d, *evaluator)
                .unwrap()
                .value_f64(0.5);
            let comparison = c.decisions.compare(Some(exact));
            assert!(c.decisions.trials > 1000, "non-trivial roots are common");
            if exact == 1.0 {
                assert_eq!(
                    c.decisions.successes, c.decisions.trials,
                    "{evaluator:?} d={d}"
                );
                continue;
            }
            let z = comparison.z.unwrap();
            assert!(z.abs() < 4.0, "{evaluator:?} d={d}: z = {z}");
            rows += 1;
            if !(comparison.ci_low..=comparison.ci_high).contains(&exact) {
                outside += 1;
            }
        }
    }
    assert!(
        rows > 10 && 8 * outside <= rows,
        "{outside} of {rows} outside"
    );
}

fn column(csv: &str, name: &str) -> Vec<String> {
    let body = csv_body(csv);
    let header: Vec<&str> = body[0].split(',').collect();
    let i = header.iter().position(|h| *h == name).unwrap();
    body[1..]
        .iter()
        .map(|l| l.split(',').nth(i).unwrap().to_string())
        .collect()
}

/// `decision --game g` prints D(d,k) (exact or f64 with bounds) and with `--rhf` the flaws;
/// options of other families and G-game options elsewhere are refused by name.
#[test]
fn decision_command_prints_g_games_and_refuses_by_name() {
    let exact = stdout_of(&[
        "decision",
        "--game",
        "g",
        "--height",
        "6",
        "--evaluator",
        "centre",
        "--exact",
        "--format",
        "csv",
        "--manifest",
        "inline",
    ]);
    assert!(exact.contains("reconstruction"), "{exact}");
    let d = column(&exact, "D_exact");
    assert_eq!(d.len(), 6);
    assert_eq!(d[5], "1/1"); // a full-depth search reaches the squares
    let float = stdout_of(&[
        "decision",
        "--game",
        "g",
        "--height",
        "6",
        "--evaluator",
        "centre",
        "--format",
        "csv",
    ]);
    let value: f64 = column(&float, "D")[1].parse().unwrap();
    let exact = decision_polynomials(6, 2, pathology::analytic::ggame::GEvaluator::Centre)
        .unwrap()
        .value_f64(0.5);
    assert!((value - exact).abs() < 1e-12);
    let flaws = stdout_of(&[
        "decision",
        "--game",
        "g",
        "--height",
        "6",
        "--rhf",
        "--format",
        "csv",
        "--table",
        "dominates",
    ]);
    assert!(flaws.contains("centre,e1,yes"), "{flaws}");
    refused(
        &[
            "decision",
            "--game",
            "g",
            "--height",
            "6",
            "--evaluator",
            "count",
        ],
        &["--evaluator"],
    );
    refused(
        &["decision", "--game", "g", "--height", "6", "--q", "0.5"],
        &["--q"],
    );
    refused(
        &["decision", "--game", "p", "--height", "6", "--rhf"],
        &["--rhf"],
    );
    // `exact` is an alias of `decision --game`: the same table for G-games too.
    let table = |command: &str| {
        stdout_of(&[command, "--game", "g", "--height", "6", "--format", "csv"])
            .lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(table("exact"), table("decision"));
    refused(
        &[
            "decision",
            "--game",
            "p",
            "--height",
            "6",
            "--evaluator",
            "e1",
        ],
        &["--evaluator"],
    );
}

/// `mc ggame` with `--shard K/N`: `merge` gives the unsharded output byte for byte; the
/// claims table is there; bad sizes are refused by name.
#[test]
fn mc_ggame_shards_merge_into_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "mc", "ggame", "--height", "5", "--p", "0.4", "--trials", "90", "--seed", "3",
    ];
    let full = stdout_of(&[&base[..], &["--format", "json"]].concat());
    let text = stdout_of(&[&base[..], &["--format", "text", "--threads", "2"]].concat());
    assert!(
        text.contains("claims") || text.contains("Chi & Nau's claim"),
        "{text}"
    );
    let mut paths = Vec::new();
    for (k, format) in [("1/2", "csv"), ("2/2", "json")] {
        let shard = stdout_of(
            &[
                &base[..],
                &[
                    "--shard",
                    k,
                    "--format",
                    format,
                    "--manifest",
                    "inline",
                    "--threads",
                    "1",
                ],
            ]
            .concat(),
        );
        let path = dir.path().join(format!("shard{}.{format}", &k[..1]));
        std::fs::write(&path, shard).unwrap();
        paths.push(path.display().to_string());
    }
    assert_eq!(
        stdout_of(&["merge", &paths[1], &paths[0], "--format", "json"]),
        full
    );
    assert_eq!(stdout_of(&["merge", &paths[0], &paths[1]]), text);
    refused(
        &["mc", "ggame", "--height", "31", "--trials", "5"],
        &["--height"],
    );
    refused(
        &[
            "mc", "ggame", "--height", "5", "--p", "1.5", "--trials", "5",
        ],
        &["--p"],
    );
}
