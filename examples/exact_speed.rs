//! Times the exact engine at the speed targets (all depths at one height):
//! `cargo run --release --example exact_speed`.

use std::time::Instant;

use num_rational::BigRational;
use pathology::exact::{Evaluator, ExactColumn, Family, NGame, PGame, decision_column};
use pathology::number::{Probability, parse_rational};

fn report<P: Probability>(label: &str, run: impl FnOnce() -> ExactColumn<P>) {
    let start = Instant::now();
    let column = run();
    let seconds = start.elapsed().as_secs_f64();
    let bound = column.error_bounds.iter().copied().fold(0.0, f64::max);
    println!(
        "{label:44} {seconds:7.3} s   D(1,h) = {:.6}   max bound {bound:.1e}",
        column.values[0].to_f64()
    );
}

fn main() {
    let count = Evaluator::Count;
    report("P-game b = 2, h = 20, p = w_2, f64", || {
        decision_column(&Family::P(PGame::pearl(2).unwrap()), &count, 20).unwrap()
    });
    report("P-game b = 3, h = 12, p = w_3, f64", || {
        decision_column(&Family::P(PGame::pearl(3).unwrap()), &count, 12).unwrap()
    });
    report("N-game b = 2, h = 16, q = 1/2, f64", || {
        decision_column(&Family::N(NGame::new(2, 0.5).unwrap()), &count, 16).unwrap()
    });
    report("P-game b = 2, h = 10, p = 1/2, exact", || {
        let half: BigRational = parse_rational("1/2").unwrap();
        decision_column(
            &Family::P(PGame::new(2, half).unwrap()),
            &Evaluator::Count,
            10,
        )
        .unwrap()
    });
}
