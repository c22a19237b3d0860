//! Unit tests of the chess endgames.

use std::sync::OnceLock;

use super::board::{POSITIONS, Piece, Position, Side};
use super::exact::{Decision, EndScores, decisions, frontier_values, next_values, tree_value};
use super::heuristic::{Evaluation, Heuristic, Noise};
use super::solve::{Endgame, Terminal};
use super::{ChessConfig, Rows, accuracy_by_depth};
use crate::sim::report::RunConfig;

fn krk() -> &'static Endgame {
    static KRK: OnceLock<Endgame> = OnceLock::new();
    KRK.get_or_init(|| Endgame::solve(Piece::Rook))
}

fn kqk() -> &'static Endgame {
    static KQK: OnceLock<Endgame> = OnceLock::new();
    KQK.get_or_init(|| Endgame::solve(Piece::Queen))
}

fn at(text: &str) -> usize {
    Position::parse(text).unwrap().index()
}

#[test]
fn longest_wins_are_16_for_krk_and_10_for_kqk() {
    assert_eq!(krk().longest_win(Side::White), 16);
    assert_eq!(kqk().longest_win(Side::White), 10);
}

/// The classes of legal Black-to-move KRK positions under the board's eight symmetries, by
/// DTM: the UCI repository's "Chess (King-Rook vs. King)" data set (Bain, 1994; 28,056
/// positions, Black to move, "draw" and depths 0 to 16), which was computed independently.
#[test]
fn krk_symmetry_classes_match_the_uci_krkopt_data_set() {
    let e = krk();
    let mut seen = std::collections::BTreeSet::new();
    let mut by_dtm = [0u64; 18]; // index 0: draws, k + 1: DTM k
    for i in POSITIONS / 2..POSITIONS {
        if !e.is_legal(i) {
            continue;
        }
        let p = Position::from_index(i);
        let canonical = (0..8).map(|s| p.reflected(s).index()).min().unwrap();
        if seen.insert(canonical) {
            by_dtm[e.dtm(i).map_or(0, |d| usize::from(d) + 1)] += 1;
        }
    }
    assert_eq!(seen.len(), 28056);
    assert_eq!(
        by_dtm,
        [
            2796, 27, 78, 246, 81, 198, 471, 592, 683, 1433, 1712, 1985, 2854, 3597, 4194, 4553,
            2166, 390
        ]
    );
}

#[test]
fn legal_position_counts_follow_from_the_squares() {
    // Black to move: three distinct squares with the kings not adjacent. Kings on 64 squares
    // have 3612 non-adjacent ordered pairs (64 * 63 - 420 adjacent ordered pairs), the piece
    // any of the 62 other squares.
    let black = (POSITIONS / 2..POSITIONS)
        .filter(|&i| krk().is_legal(i))
        .count();
    assert_eq!(black, 3612 * 62);
    assert_eq!(
        (POSITIONS / 2..POSITIONS)
            .filter(|&i| kqk().is_legal(i))
            .count(),
        3612 * 62
    );
    // White to move: fewer (the Black king may not be in check).
    let white = (0..POSITIONS / 2).filter(|&i| krk().is_legal(i)).count();
    assert!(white < black);
}

#[test]
fn values_are_invariant_under_the_eight_reflections() {
    for e in [krk(), kqk()] {
        for i in (0..POSITIONS).filter(|&i| e.is_legal(i)) {
            let p = Position::from_index(i);
            for s in 1..8 {
                let q = p.reflected(s).index();
                assert!(e.is_legal(q));
                assert_eq!(e.dtm(q), e.dtm(i), "{p:?} under symmetry {s}");
                assert_eq!(e.terminal(q), e.terminal(i));
            }
        }
    }
}

#[test]
fn mates_stalemates_and_captures_are_scored_as_defined() {
    let e = krk();
    // Black king a8, White king b6, rook h8: checkmate, DTM 0.
    let mate = at("Kb6 Rh8 ka8 b");
    assert_eq!((e.terminal(mate), e.dtm(mate)), (Terminal::Mate, Some(0)));
    // The move before it: mate in 1.
    assert_eq!(e.dtm(at("Kb6 Rh1 ka8 w")), Some(1));
    // Black king h8, White king f8, rook a7: stalemate, a draw.
    let stalemate = at("Kf8 Ra7 kh8 b");
    assert_eq!(e.terminal(stalemate), Terminal::Stalemate);
    assert_eq!(e.dtm(stalemate), None);
    // Black to move can take the undefended rook: a draw.
    assert_eq!(e.dtm(at("Ka1 Rd5 ke5 b")), None);
    // Defended, the rook is safe and White wins.
    assert!(e.dtm(at("Ke4 Rd5 kc5 b")).is_some());
    // Every Black-to-move DTM is the largest of its moves', every White-to-move one is one
    // more than the least.
    for i in (0..POSITIONS).filter(|&i| e.is_legal(i)) {
        let Some(d) = e.dtm(i) else { continue };
        if e.terminal(i) == Terminal::Mate {
            continue;
        }
        let next: Vec<Option<u8>> = e
            .successors_of(i)
            .iter()
            .map(|&s| {
                (s != super::solve::CAPTURE)
                    .then(|| e.dtm(s as usize))
                    .flatten()
            })
            .collect();
        if i < POSITIONS / 2 {
            assert_eq!(next.iter().flatten().min().map(|m| m + 1), Some(d));
        } else {
            assert!(next.iter().all(Option::is_some));
            assert_eq!(next.iter().flatten().max(), Some(&d));
        }
    }
}

#[test]
fn level_tables_equal_a_literal_tree_search() {
    let e = krk();
    for heuristic in [Heuristic::Mopup, Heuristic::Room] {
        let evaluation = Evaluation::new(e, heuristic, None).unwrap();
        let ends = EndScores::of(&evaluation);
        let mut values = frontier_values(e, &evaluation);
        let sample: Vec<usize> = e.won_white_positions().into_iter().step_by(4999).collect();
        for k in 0..=3u32 {
            if k > 0 {
                values = next_values(e, ends, &values, k);
            }
            for &r in &sample {
                assert_eq!(values[r], tree_value(e, &evaluation, r, k), "k = {k}");
                for &c in e.successors_of(r) {
                    assert_eq!(
                        values[c as usize],
                        tree_value(e, &evaluation, c as usize, k)
                    );
                }
            }
        }
    }
}

#[test]
fn the_perfect_heuristic_decides_correctly_at_every_depth() {
    for piece in [Piece::Rook, Piece::Queen] {
        let config = ChessConfig {
            heuristic: Heuristic::Dtm,
            ..ChessConfig::exact(piece, vec![1, 2, 3, 4, 5])
        };
        let Rows::Exact(rows) = accuracy_by_depth(&config).unwrap().rows else {
            panic!("a deterministic heuristic is exact")
        };
        let one = num_rational::BigRational::from_integer(1.into());
        let zero = num_rational::BigRational::from_integer(0.into());
        for row in rows {
            assert_eq!(
                (row.keep.clone(), row.fastest.clone()),
                (one.clone(), one.clone())
            );
            assert_eq!(
                (row.worse_keep, row.worse_fastest),
                (zero.clone(), zero.clone())
            );
        }
    }
}

#[test]
fn mopup_decides_worse_than_perfect_and_rows_add_up() {
    let config = ChessConfig::exact(Piece::Rook, vec![1, 2]);
    let result = accuracy_by_depth(&config).unwrap();
    let Rows::Exact(rows) = result.rows else {
        panic!("exact")
    };
    let all: Vec<_> = rows.iter().filter(|r| r.dtm.is_none()).collect();
    assert_eq!(all.len(), 2);
    let one = num_rational::BigRational::from_integer(1.into());
    for row in &all {
        assert_eq!(row.positions, result.facts.won_white);
        assert!(row.keep <= one && row.fastest <= row.keep);
    }
    // Depth 1 cannot see that a rook left next to the Black king is lost.
    assert!(all[0].keep < one);
    // The DTM rows' positions add up to all roots.
    let split: u64 = rows
        .iter()
        .filter(|r| r.depth == 1 && r.dtm.is_some())
        .map(|r| r.positions)
        .sum();
    assert_eq!(split, result.facts.won_white);
}

#[test]
fn decisions_count_ties_and_compare_probabilities() {
    let e = kqk();
    let evaluation = Evaluation::new(e, Heuristic::Mopup, Some(2)).unwrap();
    let roots = e.won_white_positions();
    let all = decisions(e, &evaluation, &roots[..100], 2);
    for d in &all[0] {
        assert!(d.best >= 1 && d.keep <= d.best && d.fastest <= d.keep);
    }
    let half = Decision {
        best: 2,
        keep: 1,
        fastest: 0,
    };
    let whole = Decision {
        best: 3,
        keep: 3,
        fastest: 1,
    };
    assert!(half.keeps_less_than(whole) && !whole.keeps_less_than(half));
    assert!(half.fastest_less_than(whole));
}

#[test]
fn levels_round_to_the_range() {
    let e = krk();
    let raw = Evaluation::new(e, Heuristic::Mopup, None).unwrap();
    let (lo, hi) = raw.range();
    let two = Evaluation::new(e, Heuristic::Mopup, Some(2)).unwrap();
    let five = Evaluation::new(e, Heuristic::Mopup, Some(5)).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for i in e
        .legal_positions()
        .filter(|&i| e.terminal(i) == Terminal::No)
    {
        assert!((0..=1).contains(&two.value(i)));
        seen.insert(five.value(i));
        if raw.value(i) == lo {
            assert_eq!(five.value(i), 0);
        }
        if raw.value(i) == hi {
            assert_eq!(five.value(i), 4);
        }
    }
    assert_eq!(seen.len(), 5);
    assert!(Evaluation::new(e, Heuristic::Mopup, Some(1)).is_err());
}

#[test]
fn noise_laws_parse_exactly_or_name_the_argument() {
    assert_eq!(Noise::parse("none").unwrap(), Noise::None);
    assert_eq!(Noise::parse("0:1").unwrap(), Noise::None);
    assert!(matches!(
        Noise::parse("-1:1/4,0:0.5,1:0.25").unwrap(),
        Noise::Discrete(law) if law.len() == 3
    ));
    assert_eq!(Noise::parse("gaussian:2").unwrap(), Noise::Gaussian(2.0));
    for bad in ["0:0.5,1:0.6", "gaussian:0", "gaussian:-1", "1:0", "x", ""] {
        let e = Noise::parse(bad).unwrap_err();
        assert!(e.to_string().contains("--noise"), "{bad}: {e}");
    }
    assert!(
        Heuristic::parse("nope")
            .unwrap_err()
            .to_string()
            .contains("--heuristic")
    );
}

#[test]
fn depths_out_of_range_are_refused_naming_the_argument() {
    for depths in [vec![0], vec![41], vec![]] {
        let e = accuracy_by_depth(&ChessConfig::exact(Piece::Queen, depths)).unwrap_err();
        assert!(e.to_string().contains("--depth"));
    }
    let noisy = ChessConfig {
        noise: Noise::Gaussian(1.0),
        ..ChessConfig::exact(Piece::Queen, vec![9])
    };
    assert!(
        accuracy_by_depth(&noisy)
            .unwrap_err()
            .to_string()
            .contains("--depth")
    );
}

fn sampled(config: &ChessConfig) -> Vec<super::SampledRow> {
    match accuracy_by_depth(config).unwrap().rows {
        Rows::Sampled(rows) => rows,
        Rows::Exact(_) => panic!("noise is sampled"),
    }
}

#[test]
fn noisy_runs_repeat_for_any_thread_count_and_tiny_noise_keeps_the_truth() {
    let config = |threads, noise: &str, heuristic| ChessConfig {
        heuristic,
        noise: Noise::parse(noise).unwrap(),
        run: RunConfig {
            trials: 300,
            seed: 5,
            threads: Some(threads),
            shard: None,
        },
        ..ChessConfig::exact(Piece::Queen, vec![1, 2])
    };
    let one = sampled(&config(1, "gaussian:3", Heuristic::Mopup));
    let two = sampled(&config(2, "gaussian:3", Heuristic::Mopup));
    assert_eq!(one, two);
    // True values moved by less than half a ply's step keep their order: always correct.
    for row in sampled(&config(2, "gaussian:0.01", Heuristic::Dtm)) {
        assert_eq!(row.keep.successes, row.keep.trials);
        assert_eq!(row.fastest.successes, row.fastest.trials);
    }
    for row in sampled(&config(1, "-1/4:1/2,1/4:1/2", Heuristic::Dtm)) {
        assert_eq!(row.fastest.successes, row.fastest.trials);
    }
}
