//! Speed of the Monte Carlo D-game experiment (speed target: at h = 10 with all 10 depths,
//! at least 100,000 trees per second on two cores). Throughput is reported in trees.
//!
//! `cargo bench --bench mc`; CI only compiles it.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pathology::analytic::dgame::DependenceFactors;
use pathology::games::splitting::DGameDraw;
use pathology::sim::TrialRunner;
use pathology::sim::runner::trial_rng;
use pathology::studies::crossval::dgame::{Engine, Scratch, estimate_decisions, trial};
use std::hint::black_box;

const HEIGHT: u32 = 10;

fn single_trees(c: &mut Criterion) {
    let factors = DependenceFactors::new(0.1, 0.1).unwrap();
    let draw = DGameDraw::new(&factors);
    let mut group = c.benchmark_group("one tree h=10, all depths");
    group.throughput(Throughput::Elements(1));
    for engine in [Engine::Fast, Engine::Generic] {
        let mut scratch = Scratch::default();
        let mut index = 0;
        group.bench_function(format!("{engine:?}"), |b| {
            b.iter(|| {
                index += 1;
                let mut rng = trial_rng(1, index);
                black_box(trial(engine, &draw, HEIGHT, &mut scratch, &mut rng))
            })
        });
    }
    let (mut leaves, mut randoms) = (Vec::new(), Vec::new());
    let mut index = 0;
    group.bench_function("generation only", |b| {
        b.iter(|| {
            index += 1;
            let mut rng = trial_rng(1, index);
            black_box(draw.conditioned_root(HEIGHT, &mut rng, &mut leaves, &mut randoms))
        })
    });
    group.finish();
}

fn experiment(c: &mut Criterion) {
    let factors = DependenceFactors::new(0.1, 0.1).unwrap();
    let mut group = c.benchmark_group("mc dgame h=10, 50,000 trees");
    group.sample_size(10);
    group.throughput(Throughput::Elements(50_000));
    for threads in [1, 2] {
        let runner = TrialRunner::new(50_000, 7, threads).unwrap();
        group.bench_function(format!("fast, {threads} thread(s)"), |b| {
            b.iter(|| {
                black_box(estimate_decisions(&factors, HEIGHT, Engine::Fast, &runner).unwrap())
            })
        });
    }
    let runner = TrialRunner::new(5_000, 7, 2).unwrap();
    group.throughput(Throughput::Elements(5_000));
    group.bench_function("generic, 2 threads, 5,000 trees", |b| {
        b.iter(|| {
            black_box(estimate_decisions(&factors, HEIGHT, Engine::Generic, &runner).unwrap())
        })
    });
    group.finish();
}

/// `mc errprop` (two trees of depth 2K per trial) and `mc rhf` (two subtrees of height H - D
/// per trial); throughput in trials.
fn errprop_and_rhf(c: &mut Criterion) {
    use pathology::analytic::errprop::ErrorPair;
    use pathology::studies::crossval::errprop::estimate_errors;
    use pathology::studies::crossval::rhf::{FlawSetup, estimate_flaw_rate};
    let mut group = c.benchmark_group("mc errprop K=3 / mc rhf H=10 D=4, 2 threads");
    group.sample_size(10);
    let start = ErrorPair::new(0.3, 0.2).unwrap();
    let factors = DependenceFactors::new(0.7, 0.7).unwrap();
    let runner = TrialRunner::new(100_000, 7, 2).unwrap();
    group.throughput(Throughput::Elements(100_000));
    group.bench_function("errprop, 100,000 trials", |b| {
        b.iter(|| black_box(estimate_errors(&start, &factors, 3, &runner).unwrap()))
    });
    let setup = FlawSetup::new(0.25, 0.381_966_011_250_105_1, 10, 4).unwrap();
    group.bench_function("rhf, 100,000 trials", |b| {
        b.iter(|| black_box(estimate_flaw_rate(&setup, &runner).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, single_trees, experiment, errprop_and_rhf);
criterion_main!(benches);
