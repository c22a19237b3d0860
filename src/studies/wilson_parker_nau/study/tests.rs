//! Unit tests of the EMM study: the fast path against a reference implementation and the
//! generic searches, and the calibration.

use super::*;
use crate::games::tree::{ExplicitTree, Node};
use crate::games::{Game, Region, SplittingGame};
use crate::search::emm::emm;
use crate::search::minimax::choose_best;
use crate::search::{minimax, product};
use crate::sim::level_tree::GameKind;
use approx::assert_relative_eq;
use rand::SeedableRng;
use std::collections::HashMap;

const TOLERANCE: f64 = 1e-12;

/// The decisions of one trial replayed through the generic searches on a real board.
fn generic_decisions(
    spec: &BoardSpec,
    evaluator: &StudyEvaluator,
    seed: u64,
) -> (Decisions, Decisions) {
    let mut s = Scratch::default();
    let fast = trial(
        spec,
        evaluator,
        &mut s,
        &mut ChaCha8Rng::seed_from_u64(seed),
    )
    .unwrap();
    // Replay: the same stream up to the searches, then the generic searches.
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = Scratch::default();
    let tree = &spec.tree;
    let h = tree.height();
    let b = tree.branching();
    let children = tree.offset(h - 1);
    let mut attempts = 0;
    loop {
        attempts += 1;
        spec.draw(&mut rng, &mut g.leaves);
        tree.solve(&g.leaves, &mut g.wins);
        let kids = &g.wins[children..children + b];
        if kids.iter().any(|&w| w) && kids.iter().any(|&w| !w) {
            break;
        }
    }
    g.evaluate(tree, evaluator, &mut rng);
    let game = spec.game(&g.leaves).unwrap();
    let index: HashMap<Region, usize> = tree
        .regions(&game)
        .into_iter()
        .enumerate()
        .map(|(n, r)| (r, n))
        .collect();
    // Minimax's static values are the binary judgements.
    let mm = |_: &SplittingGame, r: &Region| f64::from(u8::from(g.judged[index[r]]));
    let pr = |_: &SplittingGame, r: &Region| g.product[index[r]];
    let em = |_: &SplittingGame, r: &Region| (g.judged[index[r]], g.error[index[r]]);
    let root = game.root();
    let mover = game.to_move(&root);
    let kids: Vec<Region> = game
        .moves(&root)
        .into_iter()
        .map(|m| game.play(&root, m))
        .collect();
    let mut correct = [0u32; 4];
    let natural = matches!(evaluator, StudyEvaluator::Natural(_));
    for d in 1..=h {
        let mv: Vec<f64> = kids.iter().map(|c| minimax(&game, c, d - 1, &mm)).collect();
        let pv: Vec<f64> = kids.iter().map(|c| product(&game, c, d - 1, &pr)).collect();
        let ev: Vec<f64> = kids
            .iter()
            .map(|c| {
                let v = emm(&game, c, d - 1, &em);
                if v.win_for_max == (mover == Player::Max) {
                    1.0 - v.error
                } else {
                    v.error
                }
            })
            .collect();
        let chosen = [
            choose_best(&mv, mover, &mut rng),
            choose_best(&pv, mover, &mut rng),
            choose_best(&ev, Player::Max, &mut rng),
        ];
        for (bits, k) in correct.iter_mut().zip(chosen) {
            let truth = crate::search::solve(&game, &kids[k]) == 1.0;
            if truth == (mover == Player::Max) {
                *bits |= 1 << (d - 1);
            }
        }
        if natural {
            let fv: Vec<f64> = kids.iter().map(|c| minimax(&game, c, d - 1, &pr)).collect();
            let k = choose_best(&fv, mover, &mut rng);
            if (crate::search::solve(&game, &kids[k]) == 1.0) == (mover == Player::Max) {
                correct[FRACTION_MINIMAX] |= 1 << (d - 1);
            }
        }
    }
    (fast, Decisions { correct, attempts })
}

#[test]
fn fast_decisions_match_the_generic_searches() {
    let calibration =
        |spec: &BoardSpec| calibrate(spec, &TrialRunner::new(40, 3, 1).unwrap()).unwrap();
    for (kind, b, h) in [
        (GameKind::P, 2, 6),
        (GameKind::N, 3, 4),
        (GameKind::P, 3, 5),
    ] {
        let spec = BoardSpec::new(kind, b, h, kind.default_parameter(b).unwrap()).unwrap();
        for evaluator in [
            StudyEvaluator::Artificial { error: 0.1 },
            StudyEvaluator::Artificial { error: 0.3 },
            StudyEvaluator::Natural(calibration(&spec)),
        ] {
            for seed in 0..15 {
                let (fast, slow) = generic_decisions(&spec, &evaluator, seed);
                assert_eq!(fast, slow, "{kind:?} b={b} h={h} {evaluator:?} seed {seed}");
            }
        }
    }
}

/// The fast trial (minimax bit-parallel over depths, tabled first back-ups, integer
/// fraction counts) against the straightforward f64 back-ups it replaced: the same
/// decisions and the same stream position afterwards, on random boards of both games,
/// b = 2 to 4 (and b = 7, past the tables), both evaluators, several error rates.
#[test]
fn fast_trial_matches_the_reference_trial() {
    use rand::Rng;
    let calibration =
        |spec: &BoardSpec| calibrate(spec, &TrialRunner::new(60, 5, 1).unwrap()).unwrap();
    let mut checked = 0;
    for (kind, b, h) in [
        (GameKind::P, 2, 1),
        (GameKind::P, 2, 8),
        (GameKind::N, 2, 7),
        (GameKind::P, 3, 6),
        (GameKind::N, 3, 5),
        (GameKind::P, 4, 4),
        (GameKind::N, 7, 2),
    ] {
        let spec = BoardSpec::new(kind, b, h, kind.default_parameter(b).unwrap()).unwrap();
        for evaluator in [
            StudyEvaluator::Artificial { error: 0.0 },
            StudyEvaluator::Artificial { error: 0.1 },
            StudyEvaluator::Artificial { error: 0.45 },
            StudyEvaluator::Natural(calibration(&spec)),
        ] {
            let (mut fast, mut slow) = (Scratch::default(), reference::ReferenceScratch::default());
            for seed in 0..40 {
                let mut a = crate::sim::runner::trial_rng(seed, 3);
                let mut r = crate::sim::runner::trial_rng(seed, 3);
                let got = trial(&spec, &evaluator, &mut fast, &mut a);
                let want = reference::reference_trial(&spec, &evaluator, &mut slow, &mut r);
                assert_eq!(got, want, "{kind:?} b={b} h={h} {evaluator:?} seed {seed}");
                assert_eq!(a.next_u64(), r.next_u64(), "stream position, seed {seed}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 7 * 4 * 40);
}

/// The runner's trials skip the depth-H search (the stream is dropped after them): the same
/// decision bits as the full search, on the same boards from the same streams, for both
/// games, b = 2 to 4, both evaluators; and `solve_fast` (the calibration's solver) gives
/// [`LevelTree::solve`]'s values.
#[test]
fn skipping_the_last_depth_changes_nothing() {
    let calibration =
        |spec: &BoardSpec| calibrate(spec, &TrialRunner::new(60, 7, 1).unwrap()).unwrap();
    let mut checked = 0;
    for (kind, b, h) in [
        (GameKind::P, 2, 1),
        (GameKind::P, 2, 8),
        (GameKind::N, 2, 7),
        (GameKind::P, 3, 6),
        (GameKind::N, 3, 5),
        (GameKind::P, 4, 4),
    ] {
        let spec = BoardSpec::new(kind, b, h, kind.default_parameter(b).unwrap()).unwrap();
        for evaluator in [
            StudyEvaluator::Artificial { error: 0.0 },
            StudyEvaluator::Artificial { error: 0.1 },
            StudyEvaluator::Artificial { error: 0.5 },
            StudyEvaluator::Natural(calibration(&spec)),
        ] {
            let mut s = Scratch::default();
            for seed in 0..40 {
                let mut rng = crate::sim::runner::trial_rng(seed, 11);
                draw_non_trivial(&spec, &mut s, &mut rng).unwrap();
                let mut wins = Vec::new();
                spec.tree.solve(&s.leaves, &mut wins);
                assert_eq!(wins, s.wins, "solve_fast, seed {seed}");
                let after_board = rng_copy(&rng);
                let full = decide(&spec, &evaluator, &mut s, &mut rng, StreamAfter::Read);
                let skipped = decide(
                    &spec,
                    &evaluator,
                    &mut s,
                    &mut rng_copy(&after_board),
                    StreamAfter::Dropped,
                );
                assert_eq!(
                    full, skipped,
                    "{kind:?} b={b} h={h} {evaluator:?} seed {seed}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 6 * 4 * 40);
}

/// Evaluators sharing the boards get exactly their own runs' counts, in either order and
/// for any thread count (each continues on a copy of the stream after the board).
#[test]
fn shared_boards_give_each_evaluator_its_own_counts() {
    for (kind, b, h) in [(GameKind::P, 3, 5), (GameKind::N, 2, 7)] {
        let spec = BoardSpec::new(kind, b, h, kind.default_parameter(b).unwrap()).unwrap();
        let natural = StudyEvaluator::Natural(
            calibrate(&spec, &TrialRunner::new(50, 8, 1).unwrap()).unwrap(),
        );
        let evaluators = [
            StudyEvaluator::Artificial { error: 0.1 },
            natural,
            StudyEvaluator::Artificial { error: 0.3 },
        ];
        for threads in [1, 2] {
            let runner = TrialRunner::new(300, 6, threads).unwrap();
            let alone: Vec<StudyCounts> = evaluators
                .iter()
                .map(|e| run_counts(&spec, e, &runner).unwrap())
                .collect();
            assert_eq!(
                run_counts_shared(&spec, &evaluators, &runner).unwrap(),
                alone
            );
            let reversed: Vec<StudyEvaluator> = evaluators.iter().rev().cloned().collect();
            let mut back = run_counts_shared(&spec, &reversed, &runner).unwrap();
            back.reverse();
            assert_eq!(back, alone);
        }
    }
    let spec = BoardSpec::new(GameKind::P, 2, 4, 0.4).unwrap();
    let runner = TrialRunner::new(10, 1, 1).unwrap();
    let e = run_counts_shared(&spec, &[], &runner).unwrap_err();
    assert!(e.to_string().contains("evaluators"), "{e}");
}

/// Wilson et al.'s Fig. 2 through the fast back-up: B (Min) over D, E judged wins for Max;
/// C (Min) over F (win) and G (loss); every static error 10%. B = win with 10%, C = loss
/// for Max with 9%, and A = win with 9.1%, as the paper computes and as the generic EMM
/// does on the explicit tree.
#[test]
fn figure_2_through_the_fast_back_up() {
    let e = 0.1;
    let b = crate::search::emm::back_up_step(&[(true, e), (true, e)], true, e, Player::Min);
    assert!(b.0);
    assert_relative_eq!(b.1, 0.1, epsilon = TOLERANCE);
    let c = crate::search::emm::back_up_step(&[(true, e), (false, e)], true, e, Player::Min);
    assert!(!c.0);
    assert_relative_eq!(c.1, 0.09, epsilon = TOLERANCE);
    let a = crate::search::emm::back_up_step(&[b, c], true, e, Player::Max);
    assert!(a.0);
    assert_relative_eq!(a.1, 0.091, epsilon = TOLERANCE);
    // The same tree through the generic search.
    let tree = ExplicitTree::new(vec![
        Node::Interior(Player::Max, vec![1, 2]),
        Node::Interior(Player::Min, vec![3, 4]),
        Node::Interior(Player::Min, vec![5, 6]),
        Node::Interior(Player::Max, vec![]),
        Node::Interior(Player::Max, vec![]),
        Node::Interior(Player::Max, vec![]),
        Node::Interior(Player::Max, vec![]),
    ]);
    let eval = |_: &ExplicitTree, s: &usize| (*s != 6, 0.1);
    let generic = emm(&tree, &0, 2, &eval);
    assert_eq!((generic.win_for_max, generic.error), a);
}

/// Hand-checked statics on a height-2 board (root Min over two Max nodes), b = 2:
/// leaves 1 0 | 0 0, so the first Max node wins and the second loses. With e = 0 the
/// artificial evaluator judges them right and hands the product rule 1 and 0.
#[test]
fn hand_checked_statics() {
    let spec = BoardSpec::new(GameKind::P, 2, 2, 0.5).unwrap();
    let mut s = Scratch {
        leaves: vec![true, false, false, false],
        ..Scratch::default()
    };
    spec.tree.solve(&s.leaves, &mut s.wins);
    assert_eq!(s.wins[4..], [true, false, false]);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    s.evaluate(
        &spec.tree,
        &StudyEvaluator::Artificial { error: 0.0 },
        &mut rng,
    );
    assert_eq!(s.product[4..], [1.0, 0.0, 0.0]);
    assert_eq!(s.judged[4..], [true, false, false]);
}

#[test]
fn calibration_counts_every_node_and_round_trips() {
    let spec = BoardSpec::new(GameKind::P, 2, 5, 0.382).unwrap();
    let table = calibrate(&spec, &TrialRunner::new(30, 2, 2).unwrap()).unwrap();
    for t in 1..=5u32 {
        let nodes: u64 = table
            .rows
            .iter()
            .filter(|r| r.node_height == t)
            .map(|r| r.nodes)
            .sum();
        assert_eq!(nodes, 30 * 2u64.pow(5 - t));
    }
    // Height 1, Max to move over 2 squares, ties judged Max's: a judged win is wrong only
    // with no 1-square, impossible (0 ones is a judged loss); a judged loss (no 1s) is
    // always right.
    assert_eq!(table.rows[0].wrong + table.rows[1].wrong, 0);
    assert_eq!(
        Calibration::from_csv(&table.to_csv().unwrap()).unwrap(),
        table
    );
    let dir = tempfile::tempdir().unwrap();
    for name in ["t.json", "t.csv"] {
        let path = dir.path().join(name);
        table.save(&path).unwrap();
        assert_eq!(Calibration::load(&path).unwrap(), table);
    }
    let other = BoardSpec::new(GameKind::P, 3, 5, 0.382).unwrap();
    let e = table.check_matches(&other).unwrap_err().to_string();
    assert!(e.contains("--calibration"), "{e}");
}

#[test]
fn results_do_not_depend_on_threads() {
    let spec = BoardSpec::new(GameKind::N, 2, 6, 0.5).unwrap();
    let evaluator = StudyEvaluator::Artificial { error: 0.1 };
    let run_on = |threads| {
        run(
            &spec,
            &evaluator,
            &TrialRunner::new(300, 9, threads).unwrap(),
        )
        .unwrap()
    };
    assert_eq!(run_on(1), run_on(2));
}

#[test]
fn impossible_boards_are_reported() {
    let spec = BoardSpec::new(GameKind::P, 2, 4, 0.0).unwrap();
    let evaluator = StudyEvaluator::Artificial { error: 0.1 };
    let e = run(&spec, &evaluator, &TrialRunner::new(1, 1, 1).unwrap()).unwrap_err();
    assert!(e.to_string().contains("--p"), "{e}");
    let bad = StudyEvaluator::Artificial { error: 0.7 };
    let e = run(&spec, &bad, &TrialRunner::new(1, 1, 1).unwrap()).unwrap_err();
    assert!(e.to_string().contains("--error"), "{e}");
}

mod reference {
    use super::super::*;

    /// Per-thread buffers, reused across trials.
    #[derive(Debug, Default)]
    pub(super) struct ReferenceScratch {
        leaves: Vec<bool>,
        wins: Vec<bool>,
        ones: Vec<u32>,
        /// Static values for minimax and product, EMM's static judgements and errors.
        minimax: Vec<f64>,
        product: Vec<f64>,
        judged: Vec<bool>,
        error: Vec<f64>,
        /// Ping-pong buffers of backed-up values.
        levels: [Vec<f64>; 6],
        emm_levels: [Vec<(bool, f64)>; 2],
    }

    fn back_up_minimax_reference(below: &[f64], b: usize, mover: Player, out: &mut Vec<f64>) {
        out.clear();
        out.extend(below.chunks_exact(b).map(|c| match mover {
            Player::Max => c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            Player::Min => c.iter().copied().fold(f64::INFINITY, f64::min),
        }));
    }

    fn back_up_product_reference(below: &[f64], b: usize, mover: Player, out: &mut Vec<f64>) {
        out.clear();
        out.extend(below.chunks_exact(b).map(|c| match mover {
            Player::Max => crate::search::product::at_least_one(c),
            Player::Min => c.iter().product(),
        }));
    }

    impl ReferenceScratch {
        /// Fills the static arrays for `evaluator` (after the board is drawn and solved).
        fn evaluate(&mut self, tree: &LevelTree, evaluator: &StudyEvaluator, rng: &mut ChaCha8Rng) {
            let n = tree.len();
            let leaves = tree.width(0);
            self.minimax.clear();
            self.product.clear();
            self.judged.clear();
            self.error.clear();
            // Terminal squares: exact.
            for &u in &self.leaves {
                let v = f64::from(u8::from(u));
                self.minimax.push(v);
                self.product.push(v);
                self.judged.push(u);
                self.error.push(0.0);
            }
            match evaluator {
                StudyEvaluator::Artificial { error } => {
                    for &truth in &self.wins[leaves..n] {
                        let judged = truth != (rng.random::<f64>() < *error);
                        self.minimax.push(f64::from(u8::from(judged)));
                        self.product.push(if judged { 1.0 - error } else { *error });
                        self.judged.push(judged);
                        self.error.push(*error);
                    }
                }
                StudyEvaluator::Natural(calibration) => {
                    tree.count_ones(&self.leaves, &mut self.ones);
                    for t in 1..=tree.height() {
                        let squares = (tree.branching() as u32).pow(t);
                        for k in tree.offset(t)..tree.offset(t) + tree.width(t) {
                            let judged = natural_judgement(t, self.ones[k], squares);
                            self.minimax.push(f64::from(u8::from(judged)));
                            self.product
                                .push(f64::from(self.ones[k]) / f64::from(squares));
                            self.judged.push(judged);
                            self.error.push(calibration.error(t, judged));
                        }
                    }
                }
            }
        }
    }

    /// The straightforward trial: every algorithm backed up level by level in f64 from each
    /// depth's front.
    pub(super) fn reference_trial(
        spec: &BoardSpec,
        evaluator: &StudyEvaluator,
        s: &mut ReferenceScratch,
        rng: &mut ChaCha8Rng,
    ) -> Option<Decisions> {
        let tree = &spec.tree;
        let height = tree.height();
        let b = tree.branching();
        let root_mover = Player::to_move_at_height(height);
        let children = tree.offset(height - 1);
        let mut attempts = 0;
        loop {
            if attempts == MAX_ATTEMPTS {
                return None;
            }
            attempts += 1;
            spec.draw(rng, &mut s.leaves);
            tree.solve(&s.leaves, &mut s.wins);
            let kids = &s.wins[children..children + b];
            if kids.iter().any(|&w| w) && kids.iter().any(|&w| !w) {
                break;
            }
        }
        s.evaluate(tree, evaluator, rng);
        let mover_wins = root_mover == Player::Max;
        let mut correct = [0u32; 4];
        let natural = matches!(evaluator, StudyEvaluator::Natural(_));
        let mut probabilities = vec![0.0; b];
        for d in 1..=height {
            let front = height - d;
            let range = |t: u32| tree.offset(t)..tree.offset(t) + tree.width(t);
            let [m0, m1, p0, p1, f0, f1] = &mut s.levels;
            let [e0, e1] = &mut s.emm_levels;
            m0.clear();
            m0.extend_from_slice(&s.minimax[range(front)]);
            p0.clear();
            p0.extend_from_slice(&s.product[range(front)]);
            e0.clear();
            e0.extend(range(front).map(|k| (s.judged[k], s.error[k])));
            if natural {
                f0.clear();
                f0.extend_from_slice(&s.product[range(front)]);
            }
            for t in front + 1..height {
                let mover = Player::to_move_at_height(t);
                if natural {
                    back_up_minimax_reference(f0, b, mover, f1);
                    std::mem::swap(f0, f1);
                }
                back_up_minimax_reference(m0, b, mover, m1);
                std::mem::swap(m0, m1);
                back_up_product_reference(p0, b, mover, p1);
                std::mem::swap(p0, p1);
                e1.clear();
                let statics = tree.offset(t);
                e1.extend(e0.chunks_exact(b).enumerate().map(|(i, c)| {
                    crate::search::emm::back_up_step(
                        c,
                        s.judged[statics + i],
                        s.error[statics + i],
                        mover,
                    )
                }));
                std::mem::swap(e0, e1);
            }
            let chosen = [
                choose_best_of(m0, root_mover, rng),
                choose_best_of(p0, root_mover, rng),
                {
                    for (p, &(win_for_max, er)) in probabilities.iter_mut().zip(e0.iter()) {
                        *p = if win_for_max == mover_wins {
                            1.0 - er
                        } else {
                            er
                        };
                    }
                    choose_best_of(&probabilities, Player::Max, rng)
                },
            ];
            for (bits, k) in correct.iter_mut().zip(chosen) {
                if s.wins[children + k] == mover_wins {
                    *bits |= 1 << (d - 1);
                }
            }
            if natural && s.wins[children + choose_best_of(f0, root_mover, rng)] == mover_wins {
                correct[FRACTION_MINIMAX] |= 1 << (d - 1);
            }
        }
        Some(Decisions { correct, attempts })
    }
}
