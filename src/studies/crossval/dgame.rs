//! D(d,h) by Monte Carlo: generate D-game boards, search them, count correct decisions.
//!
//! Li & Marsland (1990), Section 6.1: at a node g of height h with one win child g1 and one
//! loss child g2, a depth-d search with Nau's psi compares the depth-(d-1) minimax values
//! `Psi(g1)`, `Psi(g2)`; the decision is correct when it picks g1 if Max moves at g and g2 if
//! Min moves, i.e. when `Psi(g1) > Psi(g2)`, and ties are broken at random, so
//! `D(d,h) = Pr[Psi(g1) > Psi(g2)] + 1/2 Pr[Psi(g1) = Psi(g2)]`. Each trial draws a
//! height-h D-game conditioned on its root having one win and one loss child (which child
//! wins with probability 1/2, [`DGameDraw::conditioned_root`]), searches it to every depth
//! `d = 1..=h`, and records which decisions were correct; ties at the root draw from the
//! trial's stream. Players follow [`crate::model`]: odd heights are Max nodes.
//!
//! Two engines produce **the same decisions from the same stream**:
//!
//! - [`Engine::Generic`]: a real board ([`SplittingGame`]) searched by
//!   [`crate::search::decide`] with [`PieceCount`] over the [`crate::games::Game`] trait.
//! - [`Engine::Fast`]: the leaves as a byte array in tree order; psi of every node at every
//!   height by pairwise sums, and the minimax values for all search depths in one pass per
//!   height.

use rand::rngs::ChaCha8Rng;
use serde::Serialize;

use crate::analytic::dgame::{DependenceFactors, Solver};
use crate::error::{Error, Result};
use crate::games::SplittingGame;
use crate::games::splitting::DGameDraw;
use crate::model::Player;
use crate::search::evaluators::PieceCount;
use crate::search::{decide, pick_uniform};
use crate::sim::runner::TrialRunner;
use crate::sim::stats::{Comparison, Proportion};

/// The largest height the experiment accepts (`2^20` leaves per trial).
pub const MAX_HEIGHT: u32 = 20;

/// Which implementation searches the boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// The specialised D-game path (same results, much faster).
    #[default]
    Fast,
    /// Boards and searches through the generic `Game` trait.
    Generic,
}

/// One depth's result.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DepthRow {
    /// The search depth d.
    pub d: u32,
    /// Trials whose decision was correct.
    pub correct: u64,
    /// The estimate, interval, exact D(d,h) and z-score.
    #[serde(flatten)]
    pub comparison: Comparison,
}

/// Scratch buffers of the fast path, reused across one thread's trials.
#[derive(Debug, Default)]
pub struct Scratch {
    leaves: Vec<u8>,
    randoms: Vec<u32>,
    psi: Vec<u32>,
    work: Vec<u32>,
    values: [Vec<u32>; 2],
}

/// Validates the height.
pub(crate) fn check_height(height: u32) -> Result<()> {
    if !(1..=MAX_HEIGHT).contains(&height) {
        return Err(Error::invalid(
            "--height",
            &format!("in 1..={MAX_HEIGHT} for Monte Carlo"),
            height,
        ));
    }
    Ok(())
}

/// One trial: a conditioned D-game of height `height` searched to every depth. Bit `d - 1`
/// of the result is set when the depth-d decision is correct.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::DependenceFactors;
/// use pathology::games::splitting::DGameDraw;
/// use pathology::studies::crossval::dgame::{Engine, Scratch, trial};
/// use pathology::sim::runner::trial_rng;
/// let draw = DGameDraw::new(&DependenceFactors::new(0.3, 0.6).unwrap());
/// let mut scratch = Scratch::default();
/// let fast = trial(Engine::Fast, &draw, 8, &mut scratch, &mut trial_rng(1, 4));
/// let generic = trial(Engine::Generic, &draw, 8, &mut scratch, &mut trial_rng(1, 4));
/// assert_eq!(fast, generic);
/// assert_eq!(fast >> 6, 0b11); // depths 7 and 8 see the merit values
/// ```
pub fn trial(
    engine: Engine,
    draw: &DGameDraw,
    height: u32,
    scratch: &mut Scratch,
    rng: &mut ChaCha8Rng,
) -> u64 {
    let win_child = draw.conditioned_root(height, rng, &mut scratch.leaves, &mut scratch.randoms);
    match engine {
        Engine::Fast => fast_decisions(height, win_child, scratch, rng),
        Engine::Generic => generic_decisions(height, win_child, &scratch.leaves, rng),
    }
}

fn generic_decisions(height: u32, win_child: usize, leaves: &[u8], rng: &mut ChaCha8Rng) -> u64 {
    let leaves: Vec<bool> = leaves.iter().map(|&x| x == 1).collect();
    let game = SplittingGame::from_leaves(2, height, &leaves).expect("validated height");
    let root = game.root();
    // The correct move is the win child for Max, the loss child for Min.
    let correct_move = match Player::to_move_at_height(height) {
        Player::Max => win_child,
        Player::Min => 1 - win_child,
    };
    let mut mask = 0;
    for d in 1..=height {
        let decision = decide(&game, &root, d, &PieceCount, rng).expect("height >= 1");
        if decision.chosen == correct_move {
            mask |= 1 << (d - 1);
        }
    }
    mask
}

/// `values[f]` = the minimax value at the child (height `h - 1`) with psi evaluated at
/// height `f`, for `f = 0..=h-1`.
fn backed_up_values(leaves: &[u8], psi: &mut Vec<u32>, work: &mut Vec<u32>, values: &mut Vec<u32>) {
    let top = leaves.len().trailing_zeros(); // the child's height
    psi.clear();
    psi.extend(leaves.iter().map(|&x| u32::from(x)));
    values.clear();
    for frontier in 0..=top {
        if frontier == top {
            values.push(psi[0]);
            break;
        }
        // Back up psi at height `frontier` to the child: the first level reads psi.
        work.clear();
        let first = Player::to_move_at_height(frontier + 1);
        work.extend(
            psi.chunks_exact(2)
                .map(|pair| combine(first, pair[0], pair[1])),
        );
        for t in frontier + 2..=top {
            let player = Player::to_move_at_height(t);
            let len = work.len() / 2;
            for i in 0..len {
                work[i] = combine(player, work[2 * i], work[2 * i + 1]);
            }
            work.truncate(len);
        }
        values.push(work[0]);
        // psi one level up: the sum of the children's.
        let half = psi.len() / 2;
        for i in 0..half {
            psi[i] = psi[2 * i] + psi[2 * i + 1];
        }
        psi.truncate(half);
    }
}

#[inline]
fn combine(player: Player, a: u32, b: u32) -> u32 {
    match player {
        Player::Max => a.max(b),
        Player::Min => a.min(b),
    }
}

fn fast_decisions(
    height: u32,
    win_child: usize,
    scratch: &mut Scratch,
    rng: &mut ChaCha8Rng,
) -> u64 {
    let Scratch {
        leaves,
        psi,
        work,
        values,
        ..
    } = scratch;
    let (first, second) = leaves.split_at(leaves.len() / 2);
    backed_up_values(first, psi, work, &mut values[0]);
    backed_up_values(second, psi, work, &mut values[1]);
    let (win, loss) = (&values[win_child], &values[1 - win_child]);
    // On a tie the root's player picks a child uniformly (as `decide` does): the correct
    // child is the win child for Max, the loss child for Min.
    let correct_move = match Player::to_move_at_height(height) {
        Player::Max => win_child,
        Player::Min => 1 - win_child,
    };
    let mut mask = 0;
    for d in 1..=height {
        let f = (height - d) as usize;
        let correct = match win[f].cmp(&loss[f]) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => pick_uniform(rng, 2) == correct_move,
        };
        if correct {
            mask |= 1 << (d - 1);
        }
    }
    mask
}

/// Estimates D(d,h) for every depth d = 1..=h and compares each with the exact value from
/// [`Solver`] (in f64).
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::DependenceFactors;
/// use pathology::sim::TrialRunner;
/// use pathology::studies::crossval::dgame::{Engine, estimate_decisions};
/// let factors = DependenceFactors::new(0.3, 0.3).unwrap();
/// let runner = TrialRunner::new(20_000, 1, 1).unwrap();
/// let rows = estimate_decisions(&factors, 6, Engine::Fast, &runner).unwrap();
/// assert_eq!(rows.len(), 6);
/// assert!(rows.iter().all(|r| r.comparison.z.unwrap().abs() < 4.0));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--height` outside `1..=`[`MAX_HEIGHT`], or from the
/// runner.
pub fn estimate_decisions(
    factors: &DependenceFactors<f64>,
    height: u32,
    engine: Engine,
    runner: &TrialRunner,
) -> Result<Vec<DepthRow>> {
    let counts = decision_counts(factors, height, engine, runner)?;
    decision_rows(factors, height, &counts)
}

/// The rows of [`estimate_decisions`] from the correct-decision counts by depth (what
/// `pathology merge` sums over shards), each against the exact D(d,h).
///
/// # Errors
///
/// As [`Solver::decision_column`].
pub fn decision_rows(
    factors: &DependenceFactors<f64>,
    height: u32,
    counts: &[Proportion],
) -> Result<Vec<DepthRow>> {
    let exact = Solver::new(factors.clone()).decision_column(height)?;
    Ok(counts
        .iter()
        .enumerate()
        .map(|(i, p)| DepthRow {
            d: i as u32 + 1,
            correct: p.successes,
            comparison: p.compare(Some(exact.values[i])),
        })
        .collect())
}

/// The correct-decision counts by depth `d = 1..=height` (index `d - 1`) over the runner's
/// trials (its shard's, when sharded).
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--height` outside `1..=`[`MAX_HEIGHT`], and the
/// runner's errors.
pub fn decision_counts(
    factors: &DependenceFactors<f64>,
    height: u32,
    engine: Engine,
    runner: &TrialRunner,
) -> Result<Vec<Proportion>> {
    check_height(height)?;
    let draw = DGameDraw::new(factors);
    let counts = runner.run(
        Scratch::default,
        |scratch, rng| trial(engine, &draw, height, scratch, rng),
        vec![Proportion::default(); height as usize],
        |mut counts, mask| {
            for (d, count) in counts.iter_mut().enumerate() {
                count.record(mask >> d & 1 == 1);
            }
            counts
        },
    )?;
    Ok(counts)
}

/// Seconds per trial of `mc dgame` at height `h` (one conditioned D-game with `2^h` leaves
/// searched to every depth).
///
/// Measured with `--threads 1` on the release build: fast engine h = 4: 250 ns, h = 8:
/// 1.7 us, h = 20: 6.3 ms; generic engine h = 8: 30 us, h = 16: 11 ms.
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `--height` outside `1..=20`, as the experiment.
///
/// # Examples
///
/// ```
/// use pathology::studies::crossval::dgame::dgame_trial_seconds;
/// use pathology::studies::crossval::dgame::Engine;
/// let fast = dgame_trial_seconds(10, Engine::Fast).unwrap();
/// assert!(fast < 1e-5);
/// assert!(dgame_trial_seconds(10, Engine::Generic).unwrap() > fast);
/// assert!(dgame_trial_seconds(40, Engine::Fast).is_err()); // --height outside 1..=20
/// ```
pub fn dgame_trial_seconds(height: u32, engine: Engine) -> Result<f64> {
    check_height(height)?;
    let leaves = 2f64.powf(f64::from(height));
    Ok(match engine {
        Engine::Fast => 250e-9 + 6e-9 * leaves,
        Engine::Generic => 1e-6 + 200e-9 * leaves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::runner::trial_rng;

    /// The agreement criterion of the cross-validation: |z| <= 4 at every depth.
    const SIGMAS: f64 = 4.0;

    fn max_abs_z(rows: &[DepthRow]) -> f64 {
        rows.iter()
            .map(|r| r.comparison.z.unwrap().abs())
            .fold(0.0, f64::max)
    }

    /// Fast and generic engines make identical decisions from identical streams.
    #[test]
    fn engines_agree_trial_by_trial() {
        let mut scratch = Scratch::default();
        for (f1, f2, h) in [
            (0.1, 0.1, 6),
            (0.5, 0.9, 7),
            (0.0, 1.0, 5),
            (1.0, 0.0, 4),
            (0.3, 0.3, 1),
        ] {
            let draw = DGameDraw::new(&DependenceFactors::new(f1, f2).unwrap());
            for i in 0..300 {
                let fast = trial(Engine::Fast, &draw, h, &mut scratch, &mut trial_rng(9, i));
                let generic = trial(
                    Engine::Generic,
                    &draw,
                    h,
                    &mut scratch,
                    &mut trial_rng(9, i),
                );
                assert_eq!(fast, generic, "f1={f1} f2={f2} h={h} trial {i}");
            }
        }
    }

    /// Cross-validation: the searches agree with the exact D(d,h) at every depth.
    #[test]
    fn monte_carlo_agrees_with_exact_decisions() {
        for (f1, f2, h) in [(0.1, 0.1, 8), (0.3, 0.7, 7), (0.6, 0.2, 6), (0.05, 0.9, 9)] {
            let factors = DependenceFactors::new(f1, f2).unwrap();
            let runner = TrialRunner::new(40_000, 2024, 2).unwrap();
            let rows = estimate_decisions(&factors, h, Engine::Fast, &runner).unwrap();
            let worst = max_abs_z(&rows);
            assert!(worst <= SIGMAS, "f1={f1} f2={f2} h={h}: max |z| = {worst}");
        }
    }

    /// The same check rejects a wrong exact value: f1 and f2 swapped.
    #[test]
    fn check_rejects_swapped_factors() {
        let (f1, f2, h) = (0.1, 0.9, 8);
        let runner = TrialRunner::new(40_000, 2024, 2).unwrap();
        let rows = estimate_decisions(
            &DependenceFactors::new(f1, f2).unwrap(),
            h,
            Engine::Fast,
            &runner,
        )
        .unwrap();
        let wrong = Solver::new(DependenceFactors::new(f2, f1).unwrap())
            .decision_column(h)
            .unwrap();
        let worst = rows
            .iter()
            .map(|r| {
                let p = Proportion {
                    successes: r.correct,
                    trials: runner.trials_run(),
                };
                p.z_score(wrong.values[r.d as usize - 1]).abs()
            })
            .fold(0.0, f64::max);
        assert!(
            worst > SIGMAS,
            "swapped factors not rejected: max |z| = {worst}"
        );
        assert!(max_abs_z(&rows) <= SIGMAS);
    }

    #[test]
    fn refuses_bad_heights() {
        let factors = DependenceFactors::new(0.5, 0.5).unwrap();
        let runner = TrialRunner::new(10, 1, 1).unwrap();
        let err = estimate_decisions(&factors, 0, Engine::Fast, &runner).unwrap_err();
        assert!(err.to_string().contains("--height"));
        assert!(estimate_decisions(&factors, 21, Engine::Fast, &runner).is_err());
    }

    /// The per-trial cost model reproduces its measurements within a factor of two.
    #[test]
    fn trial_cost_matches_the_measurements() {
        let within = |model: f64, measured: f64| (0.5..=2.0).contains(&(model / measured));
        let dgame = |h, e| dgame_trial_seconds(h, e).unwrap();
        assert!(within(dgame(4, Engine::Fast), 250e-9));
        assert!(within(dgame(8, Engine::Fast), 1.7e-6));
        assert!(within(dgame(20, Engine::Fast), 6.3e-3));
        assert!(within(dgame(8, Engine::Generic), 30e-6));
        assert!(within(dgame(16, Engine::Generic), 11e-3));
    }
}
