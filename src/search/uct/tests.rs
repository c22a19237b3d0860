//! Unit tests of `search/uct.rs` (moved out of it to keep the file under 1,200 lines).

use super::*;
use crate::games::tree::{ExplicitTree, Node as TreeNode};
use crate::games::{SplittingGame, critical::CriticalGame};
use crate::search::evaluators::{NaturalFraction, Perfect};
use crate::search::solve;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// With enough iterations UCT finds a winning move in every won position of a b = 2,
/// H = 8 critical tree: the root and every won node below it (all 255 interior nodes
/// visited), for several evaluators and exploration constants.
#[test]
fn finds_the_winning_move_in_every_won_position() {
    for (gamma, evaluator, c) in [
        (1.0, CriticalEvaluator::Gaussian { sigma: 0.5 }, 1.0),
        (0.7, CriticalEvaluator::ExpectedPlayout, 0.5),
        (1.0, CriticalEvaluator::Perfect, 2.0),
    ] {
        let game = CriticalGame::new(2, 8, gamma, gamma, 17).unwrap();
        let mut uct = Uct::new();
        let mut r = rng(3);
        let params = UctParams::new(c).unwrap();
        let mut positions = 0;
        let mut stack = vec![game.root()];
        while let Some(node) = stack.pop() {
            if node.depth == 8 {
                continue;
            }
            for m in game.moves(&node) {
                stack.push(game.play(&node, m));
            }
            if !node.won_for_mover() {
                continue;
            }
            positions += 1;
            let decisions = uct
                .search(&game, &node, &evaluator, &params, &[20_000], &mut r)
                .unwrap();
            let chosen = game.play(&node, game.moves(&node)[decisions[0]]);
            assert_eq!(
                chosen.max_wins, node.max_wins,
                "a losing move chosen at depth {} ({evaluator:?}, c = {c})",
                node.depth
            );
            assert_eq!(solve(&game, &chosen), solve(&game, &node));
        }
        assert!(positions > 20);
    }
}

/// On small P-games (the real board-splitting game), UCT with many iterations picks a
/// move of the root's true value on every non-trivial board.
#[test]
fn finds_the_winning_move_on_p_games() {
    let mut r = rng(8);
    let mut boards = 0;
    let w = crate::analytic::closed_form::w_b(2).unwrap();
    while boards < 30 {
        let game = SplittingGame::p_game(2, 6, w, &mut r).unwrap();
        let root = game.root();
        let mover = game.to_move(&root);
        let values: Vec<f64> = game
            .moves(&root)
            .iter()
            .map(|&m| solve(&game, &game.play(&root, m)))
            .collect();
        let best = match mover {
            Player::Max => values.iter().copied().fold(0.0, f64::max),
            Player::Min => values.iter().copied().fold(1.0, f64::min),
        };
        if values.iter().all(|&v| v == best) {
            continue;
        }
        boards += 1;
        for (evaluator, c) in [
            (&NaturalFraction as &dyn Evaluator<SplittingGame>, 0.5),
            (&Perfect, 1.0),
        ] {
            let mut uct = Uct::new();
            let params = UctParams::new(c).unwrap();
            let d = uct
                .search(&game, &root, evaluator, &params, &[3000], &mut r)
                .unwrap();
            assert_eq!(values[d[0]], best, "board {boards}");
        }
    }
}

/// A random playout as the leaf value on P-games of b = 3.
#[test]
fn random_playouts_also_converge() {
    let mut r = rng(21);
    let game = SplittingGame::from_leaves(
        3,
        3,
        &(0..27)
            .map(|i| i % 9 == 4 || i == 26)
            .collect::<Vec<bool>>(),
    )
    .unwrap();
    let root = game.root();
    let values: Vec<f64> = (0..3).map(|m| solve(&game, &game.play(&root, m))).collect();
    let mut params = UctParams::new(0.7).unwrap();
    params.leaf = LeafValue::RandomPlayout;
    for final_move in [FinalMove::Mean, FinalMove::Visits] {
        params.final_move = final_move;
        let d = Uct::new()
            .search(&game, &root, &Perfect, &params, &[4000], &mut r)
            .unwrap();
        assert_eq!(values[d[0]], solve(&game, &root), "{final_move:?}");
    }
}

/// The UCB1 choices step by step on a hand-made tree, against hand-computed scores.
///
/// Root (Max) with children A, B, C; A and B are Min nodes with two leaves each, C a leaf.
/// Values: A's leaves 1 and 0, B's leaves 0 and 0, C = 1 (a terminal). Evaluator: the
/// constant 0.5 at interior nodes.
#[test]
fn ucb1_arithmetic_by_hand() {
    let tree = ExplicitTree::new(vec![
        TreeNode::Interior(Player::Max, vec![1, 2, 3]), // 0: root
        TreeNode::Interior(Player::Min, vec![4, 5]),    // 1: A
        TreeNode::Interior(Player::Min, vec![6, 7]),    // 2: B
        TreeNode::Leaf(1.0),                            // 3: C
        TreeNode::Leaf(1.0),
        TreeNode::Leaf(0.0),
        TreeNode::Leaf(0.0),
        TreeNode::Leaf(0.0),
    ]);
    let half = |_: &ExplicitTree, _: &usize| 0.5;
    let c = 0.5;
    let params = UctParams::new(c).unwrap();
    // Iterations 1-3 expand A, B, C in some order: means 0.5, 0.5, 1.
    let mut uct = Uct::new();
    uct.search(&tree, &0, &half, &params, &[3], &mut rng(1))
        .unwrap();
    let stats = uct.root_children();
    assert_eq!(
        stats.iter().map(|s| (s.visits, s.mean)).collect::<Vec<_>>(),
        vec![(1, 0.5), (1, 0.5), (1, 1.0)]
    );
    // Iteration 4: N = 3, each child n = 1: C scores 1 + 0.5 sqrt(ln 3) = 1.524, A and B
    // 1.024: C (terminal) again, value 1.
    assert!((ucb1_score(1.0, 1, 3, c, Player::Max) - 1.524_073_5).abs() < 1e-6);
    uct.search(&tree, &0, &half, &params, &[4], &mut rng(1))
        .unwrap();
    assert_eq!(uct.root_children()[2].visits, 2);
    // Iteration 5: N = 4: C 1 + 0.5 sqrt(ln 4 / 2) = 1.416, A and B 0.5 + 0.5 sqrt(ln 4)
    // = 1.089: C again. C keeps winning until ln N grows: A's score passes C's when
    // 0.5 + 0.5 sqrt(ln N) > 1 + 0.5 sqrt(ln N / n_C).
    let mut expected_c_visits = 1u32;
    for n in 3u32..40 {
        let score_c = ucb1_score(1.0, expected_c_visits, n, c, Player::Max);
        let score_a = ucb1_score(0.5, 1, n, c, Player::Max);
        if score_c > score_a {
            expected_c_visits += 1;
        } else {
            // Iteration n + 1 goes to A or B (tied at 1 visit each).
            let mut uct = Uct::new();
            uct.search(&tree, &0, &half, &params, &[u64::from(n) + 1], &mut rng(1))
                .unwrap();
            let stats = uct.root_children();
            assert_eq!(stats[2].visits, expected_c_visits, "N = {n}");
            assert_eq!(stats[0].visits + stats[1].visits, 3);
            // The visited one expanded a leaf under a Min node: A's first expansion is
            // leaf 1 or 0, B's is 0.
            return;
        }
    }
    panic!("A never overtook C");
}

/// Min maximises 1 - mean: at a Min root the child with the lower mean wins at c = 0.
#[test]
fn min_prefers_low_means() {
    let tree = ExplicitTree::new(vec![
        TreeNode::Interior(Player::Min, vec![1, 2]),
        TreeNode::Leaf(0.0),
        TreeNode::Leaf(1.0),
    ]);
    for final_move in [FinalMove::Mean, FinalMove::Visits] {
        let mut params = UctParams::new(0.0).unwrap();
        params.final_move = final_move;
        let mut uct = Uct::new();
        let d = uct
            .search(&tree, &0, &Perfect, &params, &[2, 10], &mut rng(4))
            .unwrap();
        assert_eq!(d[1], 0, "{final_move:?}");
        // c = 0: after both are expanded only the better child is visited.
        let stats = uct.root_children();
        assert_eq!((stats[0].visits, stats[1].visits), (9, 1));
        if final_move == FinalMove::Mean {
            assert_eq!(d[0], 0);
        }
    }
}

/// Before every root move is expanded the mean decision is an unexpanded move (the
/// authors' readout), uniform: at N = 1 with b = 2 it is the move not searched.
#[test]
fn early_decisions_pick_unexpanded_moves() {
    let game = CriticalGame::new(4, 6, 1.0, 1.0, 5).unwrap();
    let mut counts = [0u32; 4];
    for seed in 0..400 {
        let mut uct = Uct::new();
        let d = uct
            .search(
                &game,
                &game.root(),
                &CriticalEvaluator::Perfect,
                &UctParams::new(1.0).unwrap(),
                &[1],
                &mut rng(seed),
            )
            .unwrap();
        let expanded = uct.root_children()[0].move_index;
        assert_ne!(d[0], expanded);
        counts[d[0]] += 1;
    }
    assert!(counts.iter().all(|&n| n > 60), "{counts:?}");
}

/// Recording decisions does not change the search: the decision at N is the same
/// whatever grid it is read in, and the search is reproducible from its stream.
#[test]
fn checkpoints_do_not_disturb_the_search() {
    let game = CriticalGame::new(3, 20, 0.9, 0.9, 77).unwrap();
    let evaluator = CriticalEvaluator::Gaussian { sigma: 1.0 };
    let params = UctParams::new(0.3).unwrap();
    let mut uct = Uct::new();
    let all: Vec<u64> = (1..=300).collect();
    let every = uct
        .search(&game, &game.root(), &evaluator, &params, &all, &mut rng(9))
        .unwrap();
    let some = uct
        .search(
            &game,
            &game.root(),
            &evaluator,
            &params,
            &[7, 150, 300],
            &mut rng(9),
        )
        .unwrap();
    assert_eq!(some, vec![every[6], every[149], every[299]]);
    assert!(uct.node_count() <= 301); // terminal nodes are revisited, not added
}

/// The arena holds one node per iteration that expanded, and the bytes per node are
/// small.
#[test]
fn memory_is_one_node_per_iteration() {
    let game = CriticalGame::new(8, 50, 1.0, 1.0, 1).unwrap();
    let mut uct = Uct::new();
    uct.search(
        &game,
        &game.root(),
        &CriticalEvaluator::Gaussian { sigma: 0.5 },
        &UctParams::new(1.0).unwrap(),
        &[10_000],
        &mut rng(2),
    )
    .unwrap();
    assert_eq!(uct.node_count(), 10_001);
    assert!(Uct::<CriticalNode>::bytes_per_node() < 100);
    assert!(Uct::<crate::games::Region>::bytes_per_node() < 100);
}

/// The histogram evaluator's per-node draws follow the histogram's law: over the roots
/// (won) and their children (one won, one lost at gamma = 1) of 20,000 games, each
/// evaluation's frequency is within 5 standard deviations of its exact probability, only
/// the histogram's evaluations occur (mapped by `(e + 1) / 2`), and a node evaluated twice
/// gets the same value.
#[test]
fn histogram_draws_follow_the_law() {
    let text = "1,0.6,1\n1,1,2\n1,-0.2,3\n-1,-1,1\n-1,0.2,3\n0,0.5,1\n";
    let evaluator = HistogramEvaluator::new(Histogram::parse(text).unwrap()).unwrap();
    // (value on UCT's scale, exact probability) per true value: won, then lost.
    let won = [(0.4, 3.0 / 6.0), (0.8, 1.0 / 6.0), (1.0, 2.0 / 6.0)];
    let lost = [(0.0, 0.25), (0.6, 0.75)];
    let mut counts = [[0u32; 3], [0u32; 3]];
    let mut nodes = [0u32; 2];
    for seed in 0..20_000 {
        let game = CriticalGame::new(2, 6, 1.0, 1.0, seed).unwrap();
        let root = game.root();
        for node in [root, game.play(&root, 0), game.play(&root, 1)] {
            let value = evaluator.evaluate(&game, &node);
            assert_eq!(value, evaluator.evaluate(&game, &node));
            let (law, k) = if node.max_wins {
                (&won[..], 0)
            } else {
                (&lost[..], 1)
            };
            let atom = law.iter().position(|&(v, _)| v == value);
            let atom = atom.unwrap_or_else(|| panic!("{value} is not an atom of {law:?}"));
            counts[k][atom] += 1;
            nodes[k] += 1;
        }
    }
    assert_eq!(nodes, [40_000, 20_000]);
    for (k, law) in [&won[..], &lost[..]].into_iter().enumerate() {
        let n = f64::from(nodes[k]);
        for (atom, &(value, p)) in law.iter().enumerate() {
            let frequency = f64::from(counts[k][atom]) / n;
            let sd = (p * (1.0 - p) / n).sqrt();
            assert!(
                (frequency - p).abs() < 5.0 * sd,
                "value {value}: {frequency} against {p}"
            );
        }
    }
}

/// The cumulative weights are the exact ones rounded to multiples of 2^-53: the draw's
/// boundaries sit there, and the last is exactly 1.
#[test]
fn histogram_boundaries_are_rounded_exact_weights() {
    let h = Histogram::parse("1,0,1\n1,1,2\n-1,0,1\n").unwrap();
    let evaluator = HistogramEvaluator::new(h).unwrap();
    let third = (((1u64 << 53) + 1) / 3) as f64 / TWO_53; // round(2^53 / 3) / 2^53
    assert_eq!(evaluator.tables[1].upper, vec![third, 1.0]);
    let below = third - 1.0 / TWO_53;
    assert_eq!(evaluator.value(true, below), 0.5);
    assert_eq!(evaluator.value(true, third), 1.0);
    assert_eq!(evaluator.value(true, 1.0 - 1.0 / TWO_53), 1.0);
    assert_eq!(evaluator.value(false, 0.999), 0.5);
    // The perfect evaluator's law gives the perfect evaluator's values.
    let perfect = Histogram::parse("1,1\n-1,-1\n").unwrap();
    let perfect = HistogramEvaluator::new(perfect).unwrap();
    let game = CriticalGame::new(3, 8, 0.8, 0.8, 5).unwrap();
    let mut stack = vec![game.root()];
    while let Some(node) = stack.pop() {
        assert_eq!(
            perfect.evaluate(&game, &node),
            CriticalEvaluator::Perfect.evaluate(&game, &node)
        );
        if node.depth < 5 {
            stack.extend(game.moves(&node).iter().map(|&m| game.play(&node, m)));
        }
    }
    let missing = Histogram::parse("-1,0\n").unwrap();
    let err = HistogramEvaluator::new(missing).unwrap_err().to_string();
    assert!(
        err.starts_with("--histogram") && err.contains("true value 1"),
        "{err}"
    );
}

/// The tables give the computed values bit for bit.
#[test]
fn tables_are_the_computed_values() {
    let tables: &[[f64; 2]] = &TABLES;
    for n in [1u32, 2, 3, 10, 4097, 65_535, 65_536, 1 << 20] {
        assert_eq!(
            sqrt_ln(n, tables).to_bits(),
            f64::from(n).ln().sqrt().to_bits()
        );
        assert_eq!(
            inverse_sqrt(n, tables).to_bits(),
            (1.0 / f64::from(n).sqrt()).to_bits()
        );
    }
}

#[test]
fn arguments_are_checked() {
    let game = CriticalGame::new(2, 3, 1.0, 1.0, 1).unwrap();
    let mut uct = Uct::new();
    let params = UctParams::new(1.0).unwrap();
    let err = uct
        .search(
            &game,
            &game.root(),
            &CriticalEvaluator::Perfect,
            &params,
            &[5, 3],
            &mut rng(1),
        )
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("--iterations must be increasing")
    );
    let mut bad = params;
    bad.exploration = f64::NAN;
    assert!(
        uct.search(
            &game,
            &game.root(),
            &CriticalEvaluator::Perfect,
            &bad,
            &[5],
            &mut rng(1)
        )
        .is_err()
    );
    let leaf = game.play(&game.play(&game.play(&game.root(), 0), 0), 0);
    assert!(
        uct.search(
            &game,
            &leaf,
            &CriticalEvaluator::Perfect,
            &params,
            &[5],
            &mut rng(1)
        )
        .is_err()
    );
}
