//! Speed of the D-game engine (speed targets: Table 1 in f64 under 5 ms, exact under 1 s).
//!
//! `cargo bench --bench dgame`; CI only compiles it.

use criterion::{Criterion, criterion_group, criterion_main};
use num_rational::BigRational;
use pathology::analytic::dgame::complement::ComplementSolver;
use pathology::analytic::dgame::table::PaperTable;
use pathology::analytic::dgame::threshold::classify_pairs;
use pathology::analytic::dgame::{DecisionColumn, DependenceFactors, Solver};
use pathology::numeric::number::parse_rational;
use std::hint::black_box;

fn tables(c: &mut Criterion) {
    let mut group = c.benchmark_group("table1");
    group.bench_function("f64 (90 cells + PS)", |b| {
        b.iter(|| black_box(PaperTable::One.compute::<f64>().unwrap()))
    });
    group.sample_size(10);
    group.bench_function("exact (90 cells + PS)", |b| {
        b.iter(|| {
            let columns: Vec<DecisionColumn<BigRational>> = PaperTable::One.compute().unwrap();
            black_box(columns)
        })
    });
    group.finish();
}

fn columns(c: &mut Criterion) {
    let mut group = c.benchmark_group("column");
    for h in [10u32, 12, 14, 16] {
        group.bench_function(format!("f64 h={h} f=0.5"), |b| {
            b.iter(|| {
                let factors = DependenceFactors::new(0.5, 0.5).unwrap();
                black_box(Solver::new(factors).decision_column(h).unwrap())
            })
        });
    }
    group.sample_size(10);
    group.bench_function("f64 h=20 f=0.5 (FFT)", |b| {
        b.iter(|| {
            let factors = DependenceFactors::new(0.5, 0.5).unwrap();
            black_box(Solver::new(factors).decision_column(20).unwrap())
        })
    });
    let f = parse_rational("0.1").unwrap();
    group.bench_function("exact h=12 f=0.1", |b| {
        b.iter(|| {
            let factors = DependenceFactors::new(f.clone(), f.clone()).unwrap();
            black_box(Solver::new(factors).decision_column(12).unwrap())
        })
    });
    group.finish();
}

fn certified(c: &mut Criterion) {
    let f = parse_rational("0.5").unwrap();
    let mut group = c.benchmark_group("classify_pairs");
    group.sample_size(10);
    for h in [10u32, 12, 16] {
        group.bench_function(format!("h={h} f=0.5 (certified)"), |b| {
            b.iter(|| black_box(classify_pairs(&f, &f, h).unwrap()))
        });
    }
    group.finish();
}

fn complement(c: &mut Criterion) {
    let f = parse_rational("0.99").unwrap();
    let mut group = c.benchmark_group("complement");
    group.sample_size(10);
    for h in [12u32, 16] {
        group.bench_function(format!("1 - D(d,{h}) enclosures, every d, f=0.99"), |b| {
            b.iter(|| {
                let mut solver = ComplementSolver::new(&f, &f).unwrap();
                black_box(solver.wrong_decision_column(h).unwrap())
            })
        });
    }
    group.bench_function("classify_pairs h=16 f=0.99 (enclosures needed)", |b| {
        b.iter(|| black_box(classify_pairs(&f, &f, 16).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, tables, columns, certified, complement);
criterion_main!(benches);
