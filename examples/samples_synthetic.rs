//! Writes `data/samples/synthetic_votes.csv`, the **synthetic** per-sample evaluation log that
//! `pathology reproduce` and docs/samples.md use for majority@k and best-of-k (the real data
//! sets shipped beside it have no verifier scores). Every draw follows the models of
//! `pathology inference` (docs/inference.md), with probabilities that are multiples of 1/30
//! drawn as uniform integers below 30, on one ChaCha8 stream (seed 20261129), so the file is
//! byte-identical on every machine:
//!
//! - 400 problems of 32 samples; a problem's type is R = 7/10 with probability 3/5 and
//!   R = 2/5 otherwise (`--tasks 0.7:0.6,0.4:0.4`, Chen et al.'s rise and fall of voting);
//! - a sample is correct with probability R (answer `c`), else wrong answer `w1`, `w2` or `w3`
//!   with probabilities 1/2, 3/10, 1/5 (`--wrong-answers 0.5,0.3,0.2`);
//! - a correct sample's score is 0, 1 or 2 with probability 1/3 each, a wrong one's is 2 with
//!   probability 2/5 and 0 otherwise (`--score-correct 0:1/3,1:1/3,2:1/3
//!   --score-wrong 0:3/5,2:2/5`: the wrong answers put more mass on the top score than the
//!   correct ones, so best-of-n rises, then falls below best-of-1).
//!
//! `cargo run --release --example samples_synthetic [PATH]` (default
//! `data/samples/synthetic_votes.csv`).

use std::fmt::Write as _;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// The generator's seed.
const SEED: u64 = 20_261_129;
/// Problems and samples per problem.
const PROBLEMS: usize = 400;
const SAMPLES: usize = 32;

/// A uniform integer below 30.
fn thirtieth(rng: &mut ChaCha8Rng) -> u32 {
    rng.random_range(0..30u32)
}

fn main() -> std::io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "data/samples/synthetic_votes.csv".to_string());
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut out = String::from("problem,correct,answer,score\n");
    for p in 0..PROBLEMS {
        // R = 7/10 (21/30) with probability 3/5 (18/30), else R = 2/5 (12/30).
        let r = if thirtieth(&mut rng) < 18 { 21 } else { 12 };
        for _ in 0..SAMPLES {
            let correct = thirtieth(&mut rng) < r;
            let (answer, score) = if correct {
                ("c", thirtieth(&mut rng) / 10)
            } else {
                let u = thirtieth(&mut rng);
                let answer = if u < 15 {
                    "w1"
                } else if u < 24 {
                    "w2"
                } else {
                    "w3"
                };
                (answer, if thirtieth(&mut rng) < 12 { 2 } else { 0 })
            };
            let _ = writeln!(out, "p{p:03},{},{answer},{score}", u8::from(correct));
        }
    }
    std::fs::write(&path, out)?;
    eprintln!("{path}: {PROBLEMS} problems x {SAMPLES} samples (synthetic, seed {SEED})");
    Ok(())
}
