//! Speed of the exact engine for P-, N- and b-ary D-games (speed targets, all depths at one
//! height: P-game b = 2, h = 20, f64 under 2 s; b = 3, h = 12 under 10 s; N-game b = 2,
//! h = 16 under 10 s; exact P-game b = 2, h = 10, p = 1/2 under 5 s).
//!
//! `cargo bench --bench exact`; CI only compiles it.

use criterion::{Criterion, criterion_group, criterion_main};
use num_rational::BigRational;
use pathology::analytic::families::{Evaluator, Family, NGame, PGame, decision_column};
use pathology::numeric::number::parse_rational;
use std::hint::black_box;

fn targets(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact");
    group.sample_size(10);
    let count = Evaluator::Count;
    group.bench_function("P-game b=2 h=20 f64", |b| {
        let game = Family::P(PGame::pearl(2).unwrap());
        b.iter(|| black_box(decision_column(&game, &count, 20).unwrap()))
    });
    group.bench_function("P-game b=3 h=12 f64", |b| {
        let game = Family::P(PGame::pearl(3).unwrap());
        b.iter(|| black_box(decision_column(&game, &count, 12).unwrap()))
    });
    group.bench_function("N-game b=2 h=16 f64", |b| {
        let game = Family::N(NGame::new(2, 0.5).unwrap());
        b.iter(|| black_box(decision_column(&game, &count, 16).unwrap()))
    });
    group.bench_function("P-game b=2 h=10 p=1/2 exact", |b| {
        let half: BigRational = parse_rational("1/2").unwrap();
        let game = Family::P(PGame::new(2, half).unwrap());
        b.iter(|| black_box(decision_column(&game, &Evaluator::Count, 10).unwrap()))
    });
    group.bench_function("P-game b=2 h=16 artificial f64", |b| {
        let game = Family::P(PGame::pearl(2).unwrap());
        let artificial = Evaluator::Artificial { error: 0.1 };
        b.iter(|| black_box(decision_column(&game, &artificial, 16).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, targets);
criterion_main!(benches);
