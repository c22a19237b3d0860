//! Times the certified classification of every depth pair at f1 = f2 = 0.99, the hardest
//! case (D(d,h) agree to 30 decimals and only the relative enclosures of 1 - D order them),
//! and prints the enclosures: `cargo run --release --example certify -- 16 20`.

use std::time::Instant;

use pathology::analytic::dgame::complement::ComplementSolver;
use pathology::analytic::dgame::threshold::classify_pairs;
use pathology::numeric::number::parse_rational;

fn main() {
    let heights: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("heights are whole numbers"))
        .collect();
    let heights = if heights.is_empty() {
        vec![12, 16, 20]
    } else {
        heights
    };
    let f = parse_rational("0.99").expect("a valid factor");
    for h in heights {
        let start = Instant::now();
        let pairs = classify_pairs(&f, &f, h).expect("an affordable height");
        let seconds = start.elapsed().as_secs_f64();
        let counts = pairs.counts();
        println!(
            "h = {h:2}: every pair classified in {seconds:.2} s; {}",
            counts.summary()
        );
        println!(
            "        pathological depths: {:?}",
            pairs.pathological_depths()
        );
        // The enclosures themselves, from depth 2 (search front at height h - 2).
        let start = Instant::now();
        let mut solver = ComplementSolver::new(&f, &f).expect("a valid factor");
        let mut line = Vec::new();
        for d in 2..h.saturating_sub(1) {
            let e = solver.wrong_decision(d, h).expect("an affordable front");
            line.push(format!("{d}: {:.3e}", e.estimate));
            assert!(e.upper() <= e.lower() * (1.0 + 1e-8), "a loose enclosure");
        }
        println!(
            "        1 - D(d,{h}) for d = 2..{} in {:.2} s (relative width < 1e-8): {}",
            h.saturating_sub(2),
            start.elapsed().as_secs_f64(),
            line.join(", ")
        );
    }
}
