//! The README's "Models" section defines each family precisely enough to
//! simulate it: the reference simulations in `examples/` (written from that section alone, no
//! library code) are run here and their estimates validated against the exact values.

#[allow(dead_code, clippy::all)]
#[path = "../examples/simulate_dgame.rs"]
mod simulate_dgame;
#[allow(dead_code, clippy::all)]
#[path = "../examples/simulate_pgame.rs"]
mod simulate_pgame;

use pathology::validate::validate;

/// Every row of `csv` is checked (none malformed) and agrees with its exact value at
/// family-wise level 0.05 (Holm).
fn agrees(csv: &str, rows: usize) {
    let report = validate(csv.as_bytes(), 0.05).unwrap();
    assert!(report.errors.is_empty(), "malformed: {:?}", report.errors);
    assert_eq!(report.rows.len(), rows);
    assert_eq!(report.holm_disagreeing(), 0, "{csv}");
}

#[test]
fn the_d_game_simulation_agrees_with_the_exact_values() {
    agrees(&simulate_dgame::simulate(8, 0.3, 0.2, 20_000, 11), 8);
    agrees(&simulate_dgame::simulate(7, 0.6, 0.6, 20_000, 12), 7);
}

#[test]
fn the_p_and_n_game_simulations_agree_with_the_exact_values() {
    use simulate_pgame::{Board, simulate};
    agrees(&simulate(Board::P(0.4), 2, 7, Some(0.1), 10_000, 13), 7);
    agrees(&simulate(Board::P(0.5), 3, 5, None, 10_000, 14), 5);
    agrees(&simulate(Board::N(0.5), 2, 7, None, 10_000, 15), 7);
    agrees(&simulate(Board::N(0.5), 3, 5, Some(0.2), 10_000, 16), 5);
}
