//! A reference simulation of P-games (and N-games) with Nau's piece count or the artificial
//! evaluator, written from the README's "Models" section alone (no code of the library),
//! whose estimates `pathology validate` checks:
//! `cargo run --release --example simulate_pgame | pathology validate -`.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// How the leaves are drawn: P-games (each square 1 with probability p) or N-games (each edge
/// +1 with probability q, a square 1 when its path sum is positive).
#[derive(Clone, Copy)]
pub enum Board {
    /// P-game with the square probability p.
    P(f64),
    /// N-game with the edge probability q.
    N(f64),
}

fn leaves(board: Board, b: usize, h: u32, rng: &mut ChaCha8Rng) -> Vec<bool> {
    match board {
        Board::P(p) => (0..b.pow(h)).map(|_| rng.random::<f64>() < p).collect(),
        Board::N(q) => {
            let mut sums = vec![0i32];
            for _ in 0..h {
                let edge = |rng: &mut ChaCha8Rng| if rng.random::<f64>() < q { 1 } else { -1 };
                sums = sums
                    .iter()
                    .flat_map(|&s| (0..b).map(|_| s + edge(rng)).collect::<Vec<_>>())
                    .collect();
            }
            sums.iter().map(|&s| s > 0).collect()
        }
    }
}

/// CSV rows of D(d,h) on non-trivial roots; `error` is the artificial evaluator's rate, `None`
/// the piece count.
pub fn simulate(
    board: Board,
    b: usize,
    h: u32,
    error: Option<f64>,
    trials: u64,
    seed: u64,
) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut correct = vec![0u64; h as usize + 1];
    let is_max = |t: u32| t % 2 == 1; // odd heights are Max nodes
    for _ in 0..trials {
        // levels[t]: (true value = win for Max, pieces) of the nodes of height t, tree order.
        let mut levels: Vec<Vec<(bool, u32)>>;
        loop {
            let bottom: Vec<(bool, u32)> = leaves(board, b, h, &mut rng)
                .into_iter()
                .map(|w| (w, u32::from(w)))
                .collect();
            levels = vec![bottom];
            for t in 1..=h {
                let below = levels.last().unwrap();
                let node = |c: &[(bool, u32)]| {
                    let win = if is_max(t) {
                        c.iter().any(|x| x.0)
                    } else {
                        c.iter().all(|x| x.0)
                    };
                    (win, c.iter().map(|x| x.1).sum())
                };
                levels.push(below.chunks(b).map(node).collect());
            }
            // Non-trivial: the root's children hold both a win and a loss for Max.
            let kids = &levels[h as usize - 1];
            if kids.iter().any(|x| x.0) && kids.iter().any(|x| !x.0) {
                break;
            }
        }
        for d in 1..=h {
            // Static values at height h - d (squares are exact), minimax up to the children.
            let front = (h - d) as usize;
            let mut values: Vec<f64> = levels[front]
                .iter()
                .map(|&(win, pieces)| match (front, error) {
                    (0, _) => f64::from(u8::from(win)),
                    (_, None) => f64::from(pieces),
                    (_, Some(e)) => f64::from(u8::from(win != (rng.random::<f64>() < e))),
                })
                .collect();
            for t in (front as u32 + 1)..h {
                let back = |c: &[f64]| {
                    c.iter()
                        .copied()
                        .fold(if is_max(t) { f64::MIN } else { f64::MAX }, |a, x| {
                            if is_max(t) { a.max(x) } else { a.min(x) }
                        })
                };
                values = values.chunks(b).map(back).collect();
            }
            let mover_max = is_max(h);
            let best =
                values
                    .iter()
                    .copied()
                    .fold(if mover_max { f64::MIN } else { f64::MAX }, |a, x| {
                        if mover_max { a.max(x) } else { a.min(x) }
                    });
            let tied: Vec<usize> = (0..b).filter(|&i| values[i] == best).collect();
            let chosen = tied[rng.random_range(0..tied.len())];
            correct[d as usize] += u64::from(levels[h as usize - 1][chosen].0 == mover_max);
        }
    }
    let (kind, param, x) = match board {
        Board::P(p) => ("pgame", "p", p),
        Board::N(q) => ("ngame", "q", q),
    };
    let (evaluator, e) = error.map_or(("count", String::new()), |e| ("artificial", e.to_string()));
    let mut csv = format!("kind,b,h,d,{param},evaluator,e,estimate,trials\n");
    for d in 1..=h {
        let estimate = correct[d as usize] as f64 / trials as f64;
        csv += &format!("{kind},{b},{h},{d},{x},{evaluator},{e},{estimate},{trials}\n");
    }
    csv
}

/// `simulate_pgame` (a P-game, artificial evaluator) or `simulate_pgame n` (an N-game, piece
/// count): one CSV for `pathology validate`.
#[allow(dead_code)]
fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("n") => print!("{}", simulate(Board::N(0.5), 3, 5, None, 20_000, 2)),
        _ => print!("{}", simulate(Board::P(0.4), 2, 8, Some(0.1), 20_000, 1)),
    }
}
