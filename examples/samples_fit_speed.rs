//! Times `samples fit` (the NPMLE of the mix of success rates, with its certificate) on
//! 1,060 problems of 128 samples drawn (seeded) from a known three-point mix, prints the
//! recovered mix beside the true one, and times `samples beyond` (the sharp range of pass@k
//! from J moments) for J up to 32: `cargo run --release --example samples_fit_speed`.

use std::time::Instant;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use pathology::samples::beyond::{beyond_report, data_moments, moment_range};
use pathology::samples::fit::{fit_mixture, fit_report, log_likelihood};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

const MIX: [(f64, f64); 3] = [(0.05, 0.3), (0.4, 0.5), (0.9, 0.2)];

fn synthetic(seed: u64, problems: usize, n: u64) -> Vec<(u64, u64)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..problems)
        .map(|_| {
            let u: f64 = rng.random();
            let mut acc = 0.0;
            let mut p = MIX[MIX.len() - 1].0;
            for &(r, w) in &MIX {
                acc += w;
                if u < acc {
                    p = r;
                    break;
                }
            }
            ((0..n).filter(|_| rng.random::<f64>() < p).count() as u64, n)
        })
        .collect()
}

fn main() {
    let data = synthetic(1, 1060, 128);
    let start = Instant::now();
    let fit = fit_mixture(&data).expect("valid counts");
    let fitted = start.elapsed();
    println!(
        "fit: 1,060 problems x 128 samples: {:.3} s, {} iterations, {} distinct (c, n), \
         max D/N = {:.2e} ({})",
        fitted.as_secs_f64(),
        fit.iterations,
        fit.groups,
        fit.max_gradient,
        if fit.certified() {
            "certified"
        } else {
            "NOT certified"
        }
    );
    println!("  true mix:   {MIX:?}");
    let found: Vec<String> = fit
        .support
        .iter()
        .zip(&fit.weights)
        .map(|(p, w)| format!("({p:.4}, {w:.4})"))
        .collect();
    println!("  fitted mix: [{}]", found.join(", "));
    let truth = log_likelihood(&data, &MIX.map(|m| m.0), &MIX.map(|m| m.1)).expect("a law");
    println!(
        "  log-likelihood: fitted {:.4}, true mix {truth:.4}",
        fit.log_likelihood
    );
    let ks: Vec<u64> = (1..=128).collect();
    for exact in [false, true] {
        let start = Instant::now();
        fit_report(&data, &ks, exact).expect("a report");
        println!(
            "fit report, k = 1..128, {}: {:.3} s",
            if exact { "exact" } else { "f64" },
            start.elapsed().as_secs_f64()
        );
    }

    // beyond on the data: the moments are some law's up to the largest feasible J.
    for j in [1u32, 2, 4, 8, 16, 32] {
        let start = Instant::now();
        let outcome = data_moments(&data, j).and_then(|m| moment_range(&m).map(|_| ()));
        println!(
            "beyond, data, J = {j:2}: {:.4} s ({})",
            start.elapsed().as_secs_f64(),
            match outcome {
                Ok(()) => "feasible".to_string(),
                Err(e) => e.to_string().chars().take(60).collect::<String>() + "...",
            }
        );
    }
    // beyond on the exact moments of a 17-point law, interior up to J = 33.
    let points: Vec<(BigRational, BigRational)> = (1..=17)
        .map(|i| {
            (
                BigRational::new(BigInt::from(i), BigInt::from(18)),
                BigRational::new(BigInt::from(i % 5 + 1), BigInt::from(1)),
            )
        })
        .collect();
    let total = points.iter().fold(BigRational::zero(), |a, p| a + &p.1);
    for j in [8usize, 16, 32] {
        let moments: Vec<BigRational> = (0..=j)
            .map(|t| {
                points.iter().fold(BigRational::zero(), |a, (x, w)| {
                    a + w * num_traits::pow(x.clone(), t) / &total
                })
            })
            .collect();
        let start = Instant::now();
        let mut range = moment_range(&moments).expect("interior moments");
        let (low, high) = range.range(j + 1);
        let exact_time = start.elapsed().as_secs_f64();
        println!(
            "beyond, 17-point law, J = {j}: range and E[q^{}] in {exact_time:.4} s (width {:.3e})",
            j + 1,
            pathology::numeric::number::rational_to_f64(&(high - low))
        );
    }
    let start = Instant::now();
    beyond_report(&data, &[129, 256, 1024, 1_000_000], 6, 0, 1, false).expect("J = 6 feasible");
    println!(
        "beyond report, data, J = 6, k = 129..10^6, f64 (certified enclosures): {:.3} s",
        start.elapsed().as_secs_f64()
    );
    let start = Instant::now();
    beyond_report(&data, &[129, 256, 1024], 6, 1000, 1, false).expect("J = 6 feasible");
    println!(
        "beyond report with 1,000 bootstrap replicates: {:.3} s",
        start.elapsed().as_secs_f64()
    );
}
