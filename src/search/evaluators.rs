//! Static evaluators, values from Max's point of view.
//!
//! - [`PieceCount`]: Nau's psi, the number of 1-squares (Li & Marsland 1990, Section 4).
//! - [`NaturalFraction`]: the "natural" P-game evaluator, the fraction of the remaining board
//!   that is winning squares (Wilson, Parker & Nau 2009, "Experiments"); winning squares are
//!   1-squares, which are Max's wins ([`crate::games::splitting`]).
//! - [`Artificial`]: the "artificial" binary evaluator, the true value with probability
//!   `1 - e` and the wrong one with probability `e` (Wilson et al.).
//! - [`GammaDelta`]: Li & Marsland's bi-valued evaluator (Section 5):
//!   `gamma = Pr[eval = 1 | loss]`, `delta = Pr[eval = 0 | win]`.
//! - [`WeightedRandom`]: Chi & Nau's (1987, Section 5) `e^w(n) = w u(n) + (1 - w) r(n)` with
//!   `r(n)` uniform on [0, 1].
//! - [`Perfect`]: the true minimax value.
//!
//! The random evaluators are deterministic functions of the node and a seed: `r(n)` (and each
//! node's error) is **fixed per node** (Chi & Nau: "for each node n, let r(n) be a random
//! value"; Wilson et al.: each node mislabelled independently), so a node evaluated twice gets
//! the same value. The node's identity is its state's `Hash` (for board-splitting games,
//! the region: the same in every board, so **use a fresh seed per game**, e.g. drawn from
//! the trial's stream), fed to a fixed FNV-1a hasher
//! (stable across runs, unlike `std`'s `DefaultHasher`), mixed with the seed. Binary
//! evaluators work on games whose utilities are 1 (Max wins) and 0 (Max loses).

use std::hash::{Hash, Hasher};

use super::solve;
use crate::games::{Game, SplittingGame};

/// A static evaluation function.
///
/// Closures `Fn(&G, &G::State) -> f64` are evaluators too.
pub trait Evaluator<G: Game> {
    /// The estimated value of `state` for Max.
    fn evaluate(&self, game: &G, state: &G::State) -> f64;
}

impl<G: Game, F: Fn(&G, &G::State) -> f64> Evaluator<G> for F {
    fn evaluate(&self, game: &G, state: &G::State) -> f64 {
        self(game, state)
    }
}

/// Nau's piece count psi: the number of 1-squares in the remaining board.
///
/// # Examples
///
/// ```
/// use pathology::games::SplittingGame;
/// use pathology::search::evaluators::{Evaluator, NaturalFraction, PieceCount};
/// let game = SplittingGame::from_leaves(2, 2, &[true, false, true, true]).unwrap();
/// assert_eq!(PieceCount.evaluate(&game, &game.root()), 3.0);
/// assert_eq!(NaturalFraction.evaluate(&game, &game.root()), 0.75);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct PieceCount;

impl Evaluator<SplittingGame> for PieceCount {
    fn evaluate(&self, game: &SplittingGame, state: &crate::games::Region) -> f64 {
        f64::from(game.count_ones(state))
    }
}

/// The natural P-game evaluator: the fraction of 1-squares in the remaining board.
#[derive(Debug, Clone, Copy, Default)]
pub struct NaturalFraction;

impl Evaluator<SplittingGame> for NaturalFraction {
    fn evaluate(&self, game: &SplittingGame, state: &crate::games::Region) -> f64 {
        let squares = f64::from(state.rows * state.cols);
        f64::from(game.count_ones(state)) / squares
    }
}

/// The true minimax value (a full search); a perfect evaluator.
#[derive(Debug, Clone, Copy, Default)]
pub struct Perfect;

impl<G: Game> Evaluator<G> for Perfect {
    fn evaluate(&self, game: &G, state: &G::State) -> f64 {
        solve(game, state)
    }
}

/// A stable 64-bit FNV-1a hasher with a final avalanche (splitmix64).
#[derive(Debug, Clone)]
struct StableHasher(u64);

impl Hasher for StableHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        let mut z = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// A number uniform on [0, 1), fixed by the node (its state's hash), a seed and a salt.
///
/// # Examples
///
/// ```
/// use pathology::search::evaluators::node_uniform;
/// let a = node_uniform(&(3u32, 4u32), 7, 0);
/// assert_eq!(a, node_uniform(&(3u32, 4u32), 7, 0));
/// assert_ne!(a, node_uniform(&(3u32, 4u32), 8, 0));
/// assert!((0.0..1.0).contains(&a));
/// ```
pub fn node_uniform<S: Hash + ?Sized>(state: &S, seed: u64, salt: u64) -> f64 {
    let mut hasher = StableHasher(0xcbf2_9ce4_8422_2325);
    seed.hash(&mut hasher);
    salt.hash(&mut hasher);
    state.hash(&mut hasher);
    (hasher.finish() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// The artificial binary evaluator: the true value (1 or 0) with probability `1 - e`, the
/// other with probability `e`, fixed per node.
///
/// # Examples
///
/// ```
/// use pathology::games::SplittingGame;
/// use pathology::search::evaluators::{Artificial, Evaluator};
/// let game = SplittingGame::from_leaves(2, 2, &[true, false, true, true]).unwrap();
/// let root = game.root(); // Min node: min(max(1,0), max(1,1)) = 1
/// assert_eq!(Artificial { error: 0.0, seed: 1 }.evaluate(&game, &root), 1.0);
/// assert_eq!(Artificial { error: 1.0, seed: 1 }.evaluate(&game, &root), 0.0);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Artificial {
    /// The error rate e.
    pub error: f64,
    /// Seed of the per-node errors.
    pub seed: u64,
}

impl<G: Game> Evaluator<G> for Artificial
where
    G::State: Hash,
{
    fn evaluate(&self, game: &G, state: &G::State) -> f64 {
        let truth = solve(game, state) >= 0.5;
        let wrong = node_uniform(state, self.seed, 1) < self.error;
        f64::from(u8::from(truth != wrong))
    }
}

/// Li & Marsland's bi-valued evaluator: a loss node evaluates to 1 with probability `gamma`,
/// a win node to 0 with probability `delta`, fixed per node.
#[derive(Debug, Clone, Copy)]
pub struct GammaDelta {
    /// `gamma = Pr[eval = 1 | loss]`.
    pub gamma: f64,
    /// `delta = Pr[eval = 0 | win]`.
    pub delta: f64,
    /// Seed of the per-node errors.
    pub seed: u64,
}

impl<G: Game> Evaluator<G> for GammaDelta
where
    G::State: Hash,
{
    fn evaluate(&self, game: &G, state: &G::State) -> f64 {
        let win = solve(game, state) >= 0.5;
        let r = node_uniform(state, self.seed, 2);
        let value = if win { r >= self.delta } else { r < self.gamma };
        f64::from(u8::from(value))
    }
}

/// Chi & Nau's `e^w(n) = w u(n) + (1 - w) r(n)`, `u` the true value (1 or 0), `r(n)` uniform
/// on [0, 1) and fixed per node.
///
/// # Examples
///
/// ```
/// use pathology::games::SplittingGame;
/// use pathology::search::evaluators::{Evaluator, WeightedRandom};
/// let game = SplittingGame::from_leaves(2, 2, &[true, false, true, true]).unwrap();
/// let e = WeightedRandom { weight: 0.6, seed: 4 }.evaluate(&game, &game.root());
/// assert!(e >= 0.6 && e < 1.0); // a win: w + (1 - w) r
/// ```
#[derive(Debug, Clone, Copy)]
pub struct WeightedRandom {
    /// The weight w of the true value.
    pub weight: f64,
    /// Seed of `r(n)`.
    pub seed: u64,
}

impl<G: Game> Evaluator<G> for WeightedRandom
where
    G::State: Hash,
{
    fn evaluate(&self, game: &G, state: &G::State) -> f64 {
        let u = if solve(game, state) >= 0.5 { 1.0 } else { 0.0 };
        self.weight * u + (1.0 - self.weight) * node_uniform(state, self.seed, 3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    const SIGMAS: f64 = 4.0;

    /// Evaluates every node at height `height` of many P-games; returns (errors on loss
    /// nodes, loss nodes, errors on win nodes, win nodes).
    fn error_counts<E: Evaluator<SplittingGame>>(eval: impl Fn(u64) -> E) -> (u32, u32, u32, u32) {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let mut counts = (0, 0, 0, 0);
        for seed in 0..300 {
            let eval = eval(seed);
            let game = SplittingGame::p_game(2, 6, 0.5, &mut rng).unwrap();
            let mut frontier = vec![game.root()];
            for _ in 0..3 {
                frontier = frontier
                    .iter()
                    .flat_map(|s| game.moves(s).into_iter().map(|m| game.play(s, m)))
                    .collect();
            }
            for s in &frontier {
                let win = solve(&game, s) == 1.0;
                let says_win = eval.evaluate(&game, s) == 1.0;
                if win {
                    counts.3 += 1;
                    counts.2 += u32::from(!says_win);
                } else {
                    counts.1 += 1;
                    counts.0 += u32::from(says_win);
                }
            }
        }
        counts
    }

    fn within(errors: u32, n: u32, p: f64) -> bool {
        let sd = (p * (1.0 - p) / f64::from(n)).sqrt();
        (f64::from(errors) / f64::from(n) - p).abs() < SIGMAS * sd.max(1e-12)
    }

    #[test]
    fn artificial_evaluator_errs_with_rate_e() {
        let (el, nl, ew, nw) = error_counts(|seed| Artificial { error: 0.1, seed });
        assert!(within(el + ew, nl + nw, 0.1), "{el} {nl} {ew} {nw}");
    }

    #[test]
    fn gamma_delta_evaluator_errs_by_merit_value() {
        let (el, nl, ew, nw) = error_counts(|seed| GammaDelta {
            gamma: 0.3,
            delta: 0.05,
            seed,
        });
        assert!(within(el, nl, 0.3), "{el}/{nl}");
        assert!(within(ew, nw, 0.05), "{ew}/{nw}");
    }

    #[test]
    fn random_evaluators_are_fixed_per_node() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let game = SplittingGame::p_game(2, 4, 0.5, &mut rng).unwrap();
        let eval = WeightedRandom {
            weight: 0.2,
            seed: 9,
        };
        let s = game.play(&game.root(), 1);
        assert_eq!(eval.evaluate(&game, &s), eval.evaluate(&game, &s));
        let other = game.play(&game.root(), 0);
        assert_ne!(eval.evaluate(&game, &s), eval.evaluate(&game, &other));
        // w = 1 is perfect, w = 0 is pure noise in [0, 1).
        let perfect = WeightedRandom {
            weight: 1.0,
            seed: 9,
        };
        assert_eq!(perfect.evaluate(&game, &s), solve(&game, &s));
    }

    /// Chi & Nau's rhf(d) = ((1 - 2w)/(1 - w))^2 (1 - xi) xi for w <= 1/2 (Section 5),
    /// measured on pairs of nodes from independent P-games with xi = w_2.
    #[test]
    fn weighted_random_rhf_matches_chi_and_nau() {
        let xi = crate::analytic::closed_form::w_b(2).unwrap();
        let w: f64 = 0.25;
        let exact = ((1.0 - 2.0 * w) / (1.0 - w)).powi(2) * (1.0 - xi) * xi;
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let n = 6000;
        let mut flaws = 0;
        for i in 0..n {
            // Nodes of different games: r drawn independently for each (one seed per game).
            let (eval_m, eval_k) = (
                WeightedRandom {
                    weight: w,
                    seed: 2 * u64::from(i),
                },
                WeightedRandom {
                    weight: w,
                    seed: 2 * u64::from(i) + 1,
                },
            );
            let m = SplittingGame::p_game(2, 4, xi, &mut rng).unwrap();
            let k = SplittingGame::p_game(2, 4, xi, &mut rng).unwrap();
            let (em, ek) = (
                eval_m.evaluate(&m, &m.root()),
                eval_k.evaluate(&k, &k.root()),
            );
            let (um, uk) = (solve(&m, &m.root()), solve(&k, &k.root()));
            // better_e has the larger evaluation (ties have probability 0).
            let (better, worse) = if em > ek { (um, uk) } else { (uk, um) };
            flaws += u32::from(better < worse);
        }
        assert!(within(flaws, n, exact), "{flaws}/{n} vs {exact}");
    }
}
