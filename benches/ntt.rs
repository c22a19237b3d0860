//! Speed of the exact mode's big multiplications: [`pathology::numeric::ntt`] against
//! dashu-int at 2^16, 2^18 and 2^20 words (squares and products), and the top psi level of
//! h = 14 (a square of 1.74M words).
//!
//! `cargo bench --bench ntt`; CI only compiles it.

use criterion::{Criterion, criterion_group, criterion_main};
use dashu_int::UBig;
use std::hint::black_box;

/// xorshift64 words.
fn words(len: usize, seed: &mut u64) -> Vec<u64> {
    (0..len)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        })
        .collect()
}

fn multiplications(c: &mut Criterion) {
    let mut group = c.benchmark_group("ntt");
    group.sample_size(10);
    let mut seed = 0x9e37_79b9_7f4a_7c15;
    for len in [1usize << 16, 1 << 18, 1 << 20, 1_740_000] {
        let (a, b) = (words(len, &mut seed), words(len, &mut seed));
        group.bench_function(format!("ntt square {len} words"), |bench| {
            bench.iter(|| black_box(pathology::numeric::ntt::square(&a)))
        });
        group.bench_function(format!("ntt multiply {len} words"), |bench| {
            bench.iter(|| black_box(pathology::numeric::ntt::multiply(&a, &b)))
        });
        let (x, y) = (UBig::from_words(&a), UBig::from_words(&b));
        group.bench_function(format!("dashu square {len} words"), |bench| {
            bench.iter(|| black_box(x.sqr()))
        });
        group.bench_function(format!("dashu multiply {len} words"), |bench| {
            bench.iter(|| black_box(&x * &y))
        });
    }
    group.finish();
}

criterion_group!(benches, multiplications);
criterion_main!(benches);
