//! Times `pathology samples` on generated data (seeded, ChaCha8): pass@k for k = 1..128 on
//! 1,060 problems x 128 samples as counts, exact; majority@k and best-of-k for k = 1..64 on
//! 1,000 problems x 64 samples with up to 8 distinct answers, f64; the same exactly on 200
//! problems x 32 samples; and `samples compare` of two count files over k = 1..128 with its
//! default band (4,000 replicates). `cargo run --release --example samples_speed`.

use std::time::Instant;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use pathology::samples::compare::{CompareRequest, compare_report};
use pathology::samples::curves::{Metric, Ties, compute};
use pathology::samples::input::{AnswerGroup, Columns, Problem, Samples, ScoreLevel};
use pathology::samples::report::Source;

/// `problems` problems of `n` samples as counts: each problem's success rate uniform in
/// [0, 1], its c a binomial draw.
fn counts(rng: &mut ChaCha8Rng, problems: usize, n: u64) -> Samples {
    let problems = (0..problems)
        .map(|i| {
            let rate: f64 = rng.random();
            let c = (0..n).filter(|_| rng.random::<f64>() < rate).count() as u64;
            Problem {
                id: format!("p{i}"),
                n,
                c,
                answers: Vec::new(),
                scores: Vec::new(),
            }
        })
        .collect();
    Samples {
        source: "generated".into(),
        per_sample: false,
        has_answers: false,
        has_scores: false,
        rows: 0,
        problems,
    }
}

/// `problems` problems of `n` samples, each an answer among up to 8 (answer 0 correct, a
/// tenth of the samples abstain) with a score on a grid of 21 levels (many ties).
fn votes(rng: &mut ChaCha8Rng, problems: usize, n: u64) -> Samples {
    let problems = (0..problems)
        .map(|i| {
            let answers = 2 + (rng.random::<u64>() % 7) as usize; // 2..=8
            let weights: Vec<f64> = (0..answers).map(|_| rng.random::<f64>()).collect();
            let total: f64 = weights.iter().sum();
            let mut groups = vec![0u64; answers];
            let mut levels = vec![(0u64, 0u64); 21];
            let mut abstain = 0;
            for _ in 0..n {
                if rng.random::<f64>() < 0.1 {
                    abstain += 1;
                    levels[0].0 += 1;
                    continue;
                }
                let mut u = rng.random::<f64>() * total;
                let mut a = 0;
                while a + 1 < answers && u >= weights[a] {
                    u -= weights[a];
                    a += 1;
                }
                groups[a] += 1;
                let correct = a == 0;
                let mean = if correct { 12.0 } else { 8.0 };
                let level = ((mean + 6.0 * (rng.random::<f64>() - 0.5)) as usize).min(20);
                levels[level].0 += 1;
                levels[level].1 += u64::from(correct);
            }
            let _ = abstain;
            Problem {
                id: format!("p{i}"),
                n,
                c: groups[0],
                answers: groups
                    .iter()
                    .enumerate()
                    .filter(|&(_, &m)| m > 0)
                    .map(|(a, &count)| AnswerGroup {
                        count,
                        correct: a == 0,
                    })
                    .collect(),
                scores: levels
                    .into_iter()
                    .filter(|l| l.0 > 0)
                    .map(|(count, correct)| ScoreLevel { count, correct })
                    .collect(),
            }
        })
        .collect();
    Samples {
        source: "generated".into(),
        per_sample: true,
        has_answers: true,
        has_scores: true,
        rows: 0,
        problems,
    }
}

fn time<R>(label: &str, target: f64, work: impl FnOnce() -> R) -> R {
    let start = Instant::now();
    let result = work();
    let seconds = start.elapsed().as_secs_f64();
    println!("{label}: {seconds:.3} s (target < {target} s)");
    result
}

fn write_counts(path: &std::path::Path, samples: &Samples) {
    let mut text = String::from("problem,c,n\n");
    for p in &samples.problems {
        text.push_str(&format!("{},{},{}\n", p.id, p.c, p.n));
    }
    std::fs::write(path, text).expect("a writable temporary file");
}

fn main() {
    let mut rng = ChaCha8Rng::seed_from_u64(2021);
    let ks128: Vec<u64> = (1..=128).collect();
    let ks64: Vec<u64> = (1..=64).collect();
    let ks32: Vec<u64> = (1..=32).collect();

    let data = counts(&mut rng, 1060, 128);
    let curves = time(
        "pass@k, k = 1..128, 1,060 problems x 128 samples, exact",
        0.5,
        || {
            compute(
                &data,
                &[Metric::PassAtK],
                &ks128,
                Ties::Uniform,
                true,
                &|| (),
            )
            .unwrap()
        },
    );
    println!("  pass@128 = {:.6}", curves.means[0][127].to_f64());

    let data = votes(&mut rng, 1000, 64);
    let metrics = [Metric::Majority, Metric::BestOfK];
    let curves = time(
        "majority@k and best-of-k, k = 1..64, 1,000 problems x 64 samples, f64",
        5.0,
        || compute(&data, &metrics, &ks64, Ties::Uniform, false, &|| ()).unwrap(),
    );
    println!(
        "  majority@1 = {:.6}, majority@64 = {:.6} (bound {:.1e}); best@64 = {:.6}",
        curves.means[0][0].to_f64(),
        curves.means[0][63].to_f64(),
        curves.means[0][63].bound(),
        curves.means[1][63].to_f64()
    );

    let data = votes(&mut rng, 200, 32);
    let curves = time(
        "majority@k and best-of-k, k = 1..32, 200 problems x 32 samples, exact",
        10.0,
        || compute(&data, &metrics, &ks32, Ties::Uniform, true, &|| ()).unwrap(),
    );
    println!("  majority@32 = {:.6}", curves.means[0][31].to_f64());

    let dir = std::env::temp_dir().join(format!("samples_speed_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let (a, b) = (dir.join("a.csv"), dir.join("b.csv"));
    write_counts(&a, &counts(&mut rng, 1060, 128));
    write_counts(&b, &counts(&mut rng, 1060, 128));
    let source = |path: std::path::PathBuf| Source {
        path,
        format: None,
        columns: Columns::default(),
    };
    let request = CompareRequest {
        a: source(a),
        b: source(b),
        ks: ks128,
        ties: Ties::Uniform,
        exact: false,
        drop_short: false,
        common: true,
        seed: 1,
        replicates: 4000,
    };
    time(
        "samples compare, two files of 1,060 problems x 128 samples, k = 1..128, 4,000 replicates (f64, reading included)",
        f64::INFINITY,
        || compare_report(&request).unwrap(),
    );
    let _ = std::fs::remove_dir_all(&dir);
}
