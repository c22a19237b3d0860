//! Times one FFT convolution of two `2^19 + 1` probability vectors (the top level of
//! D(d, 20)), the square and the two-input path, with their rigorous L1 bounds:
//! `cargo run --release --example fft_speed`.

use std::time::Instant;

use pathology::numeric::fft::{convolve, convolve_direct};

fn probability_vector(n: usize, step: usize, modulus: usize) -> Vec<f64> {
    let raw: Vec<f64> = (0..n)
        .map(|k| ((k * step) % modulus) as f64 + 1.0)
        .collect();
    let total: f64 = raw.iter().sum();
    raw.iter().map(|x| x / total).collect()
}

fn main() {
    let n = (1 << 19) + 1;
    let a = probability_vector(n, 7919, 1000);
    let b = probability_vector(n, 104_729, 997);
    let _ = convolve(&a[..1000], &a[..1000]); // warm the weight tables of small sizes
    for (label, x, y) in [("square a*a", &a, &a), ("product a*b", &a, &b)] {
        let reps = 5;
        let start = Instant::now();
        let mut result = convolve(x, y);
        for _ in 1..reps {
            result = convolve(x, y);
        }
        let ms = start.elapsed().as_secs_f64() * 1e3 / f64::from(reps);
        let (c, bound) = result;
        // Spot-check a few entries against the direct sums (full direct is quadratic).
        let (head, _) = convolve_direct(&x[..64], &y[..64]);
        let gap = c
            .iter()
            .zip(&head[..64])
            .map(|(p, q)| (p - q).abs())
            .fold(0.0, f64::max);
        println!(
            "{label:12} 2^19+1: {ms:7.1} ms per convolution ({reps} runs, the first builds the weights); L1 bound {bound:.2e}; max gap on c[0..64] {gap:.1e}"
        );
    }
}
