//! Times the exact engine at its speed targets (all depths at one height), then the
//! exact-rational runs near the refusal limit against the up-front estimate of
//! [`pathology::analytic::families::estimate_cost`]: `cargo run --release --example exact_speed`.

use std::time::Instant;

use num_rational::BigRational;
use pathology::analytic::families::{
    BaryDGame, Evaluator, ExactColumn, Family, NGame, PGame, decision_column, estimate_cost,
};
use pathology::numeric::number::{Probability, parse_rational};

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
    let q = |s: &str| -> BigRational { parse_rational(s).unwrap() };
    let tenth = Evaluator::Artificial { error: q("0.1") };
    let count_q = Evaluator::Count;
    let p_game = |b: u32| Family::P(PGame::new(b, q("0.4")).unwrap());
    let n_game = |b: u32| Family::N(NGame::new(b, q("1/2")).unwrap());
    let d_game = Family::D(
        BaryDGame::new(
            3,
            vec![q("0.2"), q("0.3"), q("0.5")],
            vec![q("0.3"), q("0.3"), q("0.4")],
        )
        .unwrap(),
    );
    let mut runs: Vec<(String, Family<BigRational>, &Evaluator<BigRational>, u32)> = Vec::new();
    for (b, heights) in [(2, 13..=15), (3, 9..=9)] {
        for h in heights {
            runs.push((format!("P b = {b}, p = 0.4"), p_game(b), &count_q, h));
        }
    }
    for (b, heights) in [(2, 13..=14), (3, 9..=9)] {
        for h in heights {
            runs.push((format!("N b = {b}, q = 1/2"), n_game(b), &count_q, h));
        }
    }
    let d_label = "D b = 3, qk = 0.2,0.3,0.5, rk = 0.3,0.3,0.4";
    runs.push((d_label.to_string(), d_game, &count_q, 9));
    runs.push((
        "P b = 2, p = 0.4, e = 0.1".to_string(),
        p_game(2),
        &tenth,
        14,
    ));
    for (label, family, evaluator, height) in runs {
        let estimate = estimate_cost(&family, evaluator, height);
        let start = Instant::now();
        decision_column(&family, evaluator, height).unwrap();
        println!(
            "{label:44} h = {height:2} exact {:8.3} s   estimate {:8.3} s, {:.0} MiB",
            start.elapsed().as_secs_f64(),
            estimate.seconds,
            estimate.bytes / 1048576.0
        );
    }
}
