//! Speed of the path-sum engine (its speed targets, every depth at one height): b = 2,
//! h = 20, a value grid of about 2,000 points, f64: under 1 s; exact rationals, b = 2,
//! h = 10, 3-point step and noise laws: under 10 s; memory under 1 GB for each
//! (`cargo run --release --example pathsum_speed` prints the time, the estimate and the
//! peak memory).
//!
//! `cargo bench --bench pathsum`; CI only compiles it.

use criterion::{Criterion, criterion_group, criterion_main};
use num_rational::BigRational;
use pathology::analytic::pathsum::{Evaluator, Law, Outcome, PathSumGame, pathsum_column};
use std::hint::black_box;

/// A triangular law on the integers `-half..=half`.
fn triangular(half: i64) -> Law {
    let total: i64 = (-half..=half).map(|v| half + 1 - v.abs()).sum();
    let text: Vec<String> = (-half..=half)
        .map(|v| format!("{v}:{}/{total}", half + 1 - v.abs()))
        .collect();
    Law::parse("--step", &text.join(",")).unwrap()
}

fn targets(c: &mut Criterion) {
    let mut group = c.benchmark_group("pathsum");
    group.sample_size(10);
    let noise = Law::parse("--noise", "2:1/16,1:1/4,0:3/8,-1:1/4,-2:1/16").unwrap();
    let wide = PathSumGame {
        branching: 2,
        height: 20,
        step: triangular(50),
        leaf: triangular(50),
        terminal: BigRational::from_integer(0.into()),
        outcome: Outcome::Value,
        evaluator: Evaluator::Additive { noise },
        levels: None,
    };
    let depths: Vec<u32> = (1..=20).collect();
    group.bench_function("b=2 h=20 2001-point grid f64", |b| {
        b.iter(|| black_box(pathsum_column::<f64>(&wide, &depths).unwrap()))
    });
    let exact = PathSumGame {
        branching: 2,
        height: 10,
        step: Law::parse("--step", "1:1/3,0:1/3,-1:1/3").unwrap(),
        leaf: Law::parse("--leaf", "0").unwrap(),
        terminal: "1/10".parse().unwrap(),
        outcome: Outcome::Value,
        evaluator: Evaluator::Additive {
            noise: Law::parse("--noise", "1:1/4,0:1/2,-1:1/4").unwrap(),
        },
        levels: None,
    };
    let depths: Vec<u32> = (1..=10).collect();
    group.bench_function("b=2 h=10 3-point laws exact", |b| {
        b.iter(|| black_box(pathsum_column::<BigRational>(&exact, &depths).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, targets);
criterion_main!(benches);
