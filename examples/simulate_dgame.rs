//! A reference simulation of Li & Marsland's D-games, written from the README's "Models"
//! section alone (no code of the library), whose estimates `pathology validate` checks:
//! `cargo run --release --example simulate_dgame | pathology validate -`.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// CSV rows (`kind,h,d,f1,f2,estimate,trials`) of D(d,h) estimated on `trials` boards.
pub fn simulate(h: u32, f1: f64, f2: f64, trials: u64, seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut correct = vec![0u64; h as usize + 1];
    for _ in 0..trials {
        // The root's children (height h - 1): one win and one loss for Max, in random order.
        let first_wins = rng.random::<bool>();
        let mut level = vec![first_wins, !first_wins];
        for t in (1..h).rev() {
            // Expand the nodes of height t; odd heights are Max nodes.
            let (max_node, f) = if t % 2 == 1 { (true, f1) } else { (false, f2) };
            let mut next = Vec::with_capacity(2 * level.len());
            for &win in &level {
                // A win Max node or a loss Min node keeps two children like itself with
                // probability f, else one win and one loss in random order; the others two like it.
                if win == max_node && rng.random::<f64>() >= f {
                    let a = rng.random::<bool>();
                    next.extend([a, !a]);
                } else {
                    next.extend([win, win]);
                }
            }
            level = next;
        }
        // psi of every node: the 1-squares (wins for Max) below it, heights 0..h-1.
        let mut psi = vec![level.iter().map(|&w| u32::from(w)).collect::<Vec<_>>()];
        while psi.last().unwrap().len() > 2 {
            let below = psi.last().unwrap();
            psi.push(below.chunks(2).map(|c| c[0] + c[1]).collect());
        }
        for d in 1..=h {
            // Depth d: psi at height h - d, minimax up to the root's children (height h - 1).
            let mut values = psi[(h - d) as usize].clone();
            for t in (h - d + 1)..h {
                let max = |c: &[u32]| {
                    if t % 2 == 1 {
                        c[0].max(c[1])
                    } else {
                        c[0].min(c[1])
                    }
                };
                values = values.chunks(2).map(max).collect();
            }
            let root_is_max = h % 2 == 1;
            let pick_first = match values[0].cmp(&values[1]) {
                std::cmp::Ordering::Equal => rng.random::<bool>(),
                order => (order == std::cmp::Ordering::Greater) == root_is_max,
            };
            // Max wants the win child, Min the loss child.
            correct[d as usize] += u64::from(pick_first == (first_wins == root_is_max));
        }
    }
    let mut csv = String::from("kind,h,d,f1,f2,estimate,trials\n");
    for d in 1..=h {
        let estimate = correct[d as usize] as f64 / trials as f64;
        csv += &format!("dgame,{h},{d},{f1},{f2},{estimate},{trials}\n");
    }
    csv
}

#[allow(dead_code)]
fn main() {
    print!("{}", simulate(10, 0.3, 0.3, 20_000, 1));
}
