//! Li & Marsland's error propagation by Monte Carlo: the gamma/delta map checked against real
//! minimax back-ups of a noisy bi-valued evaluator on D-game trees.
//!
//! Li & Marsland (1990), Section 5.1, formulas (3) and (4) ([`crate::analytic::errprop::max_to_max`]):
//! if every node at depth 2k of a binary D-game search tree is evaluated by a bi-valued psi
//! with `gamma = Pr[psi = 1 | loss]` and `delta = Pr[psi = 0 | win]`, independently given its
//! merit value, the minimax value Psi at depth 2(k-1) has errors `(gamma', delta')`. Iterated
//! K times from `(gamma, delta)` the map gives the errors `(gamma_K, delta_K)` at the root of
//! a depth-2K search.
//!
//! # The tree
//!
//! Formulas (3)/(4) back up from **Max nodes** at depth 2k through Min nodes to the **Max
//! node** at depth 2(k-1) (the paper's Fig. 1), so the search root and the frontier are Max
//! nodes. With [`crate::model`]'s convention (the player who makes the last move is Max, odd
//! heights are Max nodes) a Max root whose frontier lies 2K levels down has height `2K + 1`
//! and the frontier nodes have height 1: they are interior Max nodes of the D-game, not its
//! leaves, which is what the paper's "search tree G" inside a larger game tree is. Each tree
//! draws the merit values from the root down to the frontier with conditions 2' and 3'
//! ([`DGameDraw::expand_between`]; a win Max node has two win children with probability
//! `f1`, a loss Min node two loss children with probability `f2`), reads each frontier node
//! with psi, and backs psi up by minimax (Max nodes take the larger value, Min nodes the
//! smaller). Nothing below the frontier is drawn: psi depends only on a frontier node's merit
//! value, and its children would never be looked at.
//!
//! # Conditioning
//!
//! `gamma_K` and `delta_K` are conditional on the root's merit value, so each trial draws
//! **two trees, one conditioned on a loss root and one on a win root** (in that order from the
//! trial's stream), and records whether the loss tree's root reads 1 (an error counted in
//! `gamma_K`) and whether the win tree's root reads 0 (counted in `delta_K`). Both estimates
//! therefore have exactly `trials` trees each, and no prior `p0` of the root enters.
//!
//! Within a tree the stream is used as: the merit values level by level
//! ([`DGameDraw::expand_between`], one `u32` per interior node), then one `f64` per frontier
//! node in tree order; psi is 1 for a win node when the draw is `>= delta` and for a loss node
//! when it is `< gamma`.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;
use serde::Serialize;

use crate::analytic::dgame::DependenceFactors;
use crate::analytic::errprop::{BackUp, ErrorPair, trajectory};
use crate::error::{Error, Result};
use crate::games::splitting::DGameDraw;
use crate::model::Player;
use crate::sim::runner::TrialRunner;
use crate::sim::stats::{Comparison, Proportion};

/// The most back-up steps K the experiment accepts (`4^K` frontier nodes per tree).
pub const MAX_STEPS: u32 = 10;

/// One estimated quantity, `gamma_K` or `delta_K`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct QuantityRow {
    /// `"gamma_K"` (Pr[Psi(root) = 1 | root loss]) or `"delta_K"` (Pr[Psi(root) = 0 | root
    /// win]).
    pub quantity: &'static str,
    /// The estimate, its 95% Wilson interval, the exact value from the map and the z-score.
    #[serde(flatten)]
    pub comparison: Comparison,
    /// Trees behind the estimate (all with the conditioning root value).
    pub trials: u64,
}

/// Reusable buffers of one thread's trials.
#[derive(Debug, Default)]
pub struct Scratch {
    nodes: Vec<u8>,
    randoms: Vec<u32>,
}

/// Checks `1 <= steps <= MAX_STEPS`.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--steps`.
pub(crate) fn check_steps(steps: u32) -> Result<()> {
    if !(1..=MAX_STEPS).contains(&steps) {
        return Err(Error::invalid(
            "--steps",
            &format!("in 1..={MAX_STEPS} for Monte Carlo"),
            steps,
        ));
    }
    Ok(())
}

/// The backed-up value `Psi(root)` (true for 1) of one depth-2K search tree whose Max root
/// (height `2K + 1`) has the given merit value; `steps` is K.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::DependenceFactors;
/// use pathology::analytic::errprop::ErrorPair;
/// use pathology::games::splitting::DGameDraw;
/// use pathology::studies::crossval::errprop::{Scratch, root_reads_win};
/// use pathology::sim::runner::trial_rng;
/// let draw = DGameDraw::new(&DependenceFactors::new(0.4, 0.7).unwrap());
/// let exact = ErrorPair::new(0.0, 0.0).unwrap(); // a perfect evaluator
/// let mut scratch = Scratch::default();
/// let mut rng = trial_rng(3, 0);
/// assert!(root_reads_win(&draw, &exact, 3, true, &mut scratch, &mut rng));
/// assert!(!root_reads_win(&draw, &exact, 3, false, &mut scratch, &mut rng));
/// ```
pub fn root_reads_win(
    draw: &DGameDraw,
    errors: &ErrorPair<f64>,
    steps: u32,
    root_win: bool,
    scratch: &mut Scratch,
    rng: &mut ChaCha8Rng,
) -> bool {
    let Scratch { nodes, randoms } = scratch;
    let top = 2 * steps + 1;
    nodes.clear();
    nodes.push(u8::from(root_win));
    draw.expand_between(top, 1, nodes, rng, randoms);
    // psi at the frontier (Max nodes of height 1), in place.
    for node in nodes.iter_mut() {
        let r: f64 = rng.random();
        let reads_win = if *node == 1 {
            r >= errors.delta
        } else {
            r < errors.gamma
        };
        *node = u8::from(reads_win);
    }
    // Minimax from height 2 up to the root.
    for t in 2..=top {
        let half = nodes.len() / 2;
        match Player::to_move_at_height(t) {
            Player::Max => {
                for i in 0..half {
                    nodes[i] = nodes[2 * i] | nodes[2 * i + 1];
                }
            }
            Player::Min => {
                for i in 0..half {
                    nodes[i] = nodes[2 * i] & nodes[2 * i + 1];
                }
            }
        }
        nodes.truncate(half);
    }
    nodes[0] == 1
}

/// One trial: a tree with a loss root, then one with a win root. Returns (the loss root reads
/// 1, the win root reads 0): the two kinds of error.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::DependenceFactors;
/// use pathology::analytic::errprop::ErrorPair;
/// use pathology::games::splitting::DGameDraw;
/// use pathology::studies::crossval::errprop::{Scratch, trial};
/// use pathology::sim::runner::trial_rng;
/// let draw = DGameDraw::new(&DependenceFactors::new(0.5, 0.5).unwrap());
/// let always_one = ErrorPair::new(1.0, 0.0).unwrap(); // psi = 1 everywhere
/// let mut scratch = Scratch::default();
/// // Every root reads 1: the loss root is wrong, the win root right (gamma' = 1, delta' = 0).
/// assert_eq!(trial(&draw, &always_one, 2, &mut scratch, &mut trial_rng(1, 0)), (true, false));
/// ```
pub fn trial(
    draw: &DGameDraw,
    errors: &ErrorPair<f64>,
    steps: u32,
    scratch: &mut Scratch,
    rng: &mut ChaCha8Rng,
) -> (bool, bool) {
    let loss_reads_win = root_reads_win(draw, errors, steps, false, scratch, rng);
    let win_reads_win = root_reads_win(draw, errors, steps, true, scratch, rng);
    (loss_reads_win, !win_reads_win)
}

/// Estimates `gamma_K` and `delta_K` at the root of depth-2K D-game search trees (`K =
/// steps`) and compares them with the Max-to-Max map (formulas 3 and 4) iterated K times from
/// `start` in f64 ([`trajectory`]).
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::DependenceFactors;
/// use pathology::analytic::errprop::ErrorPair;
/// use pathology::sim::TrialRunner;
/// use pathology::studies::crossval::errprop::estimate_errors;
/// let start = ErrorPair::new(0.3, 0.2).unwrap();
/// let factors = DependenceFactors::new(0.8, 0.8).unwrap();
/// let runner = TrialRunner::new(20_000, 1, 1).unwrap();
/// let [gamma, delta] = estimate_errors(&start, &factors, 2, &runner).unwrap();
/// assert_eq!((gamma.quantity, delta.quantity), ("gamma_K", "delta_K"));
/// assert!(gamma.comparison.z.unwrap().abs() < 4.0 && delta.comparison.z.unwrap().abs() < 4.0);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--steps` outside `1..=`[`MAX_STEPS`], or from the
/// runner.
pub fn estimate_errors(
    start: &ErrorPair<f64>,
    factors: &DependenceFactors<f64>,
    steps: u32,
    runner: &TrialRunner,
) -> Result<[QuantityRow; 2]> {
    check_steps(steps)?;
    let exact = exact_errors(start, factors, steps)?;
    let draw = DGameDraw::new(factors);
    let (gamma, delta) = runner.run(
        Scratch::default,
        |scratch, rng| trial(&draw, start, steps, scratch, rng),
        (Proportion::default(), Proportion::default()),
        |(mut gamma, mut delta), (loss_error, win_error)| {
            gamma.record(loss_error);
            delta.record(win_error);
            (gamma, delta)
        },
    )?;
    Ok([
        QuantityRow {
            quantity: "gamma_K",
            comparison: gamma.compare(Some(exact.gamma)),
            trials: gamma.trials,
        },
        QuantityRow {
            quantity: "delta_K",
            comparison: delta.compare(Some(exact.delta)),
            trials: delta.trials,
        },
    ])
}

/// `(gamma_K, delta_K)`: the Max-to-Max map iterated `steps` times from `start`, in f64.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::DependenceFactors;
/// use pathology::analytic::errprop::ErrorPair;
/// use pathology::studies::crossval::errprop::exact_errors;
/// let start = ErrorPair::new(0.3, 0.2).unwrap();
/// let one = exact_errors(&start, &DependenceFactors::new(0.5, 0.5).unwrap(), 1).unwrap();
/// assert!((one.gamma - 0.302775).abs() < 1e-15 && (one.delta - 0.2151).abs() < 1e-15);
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--steps` outside `1..=`[`MAX_STEPS`].
pub fn exact_errors(
    start: &ErrorPair<f64>,
    factors: &DependenceFactors<f64>,
    steps: u32,
) -> Result<ErrorPair<f64>> {
    check_steps(steps)?;
    let points = trajectory(
        start.clone(),
        factors.f1(),
        factors.f2(),
        BackUp::Max,
        steps,
    )?;
    Ok(points[steps as usize].clone())
}

/// Seconds per trial of `mc errprop` with `steps` back-up steps K (two trees with `4^K`
/// frontier nodes each).
///
/// Measured with `--threads 1` on the release build: K = 1: 210 ns; K = 5: 17 us; K = 10:
/// 16.6 ms.
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `--steps` outside `1..=10`, as the experiment.
///
/// # Examples
///
/// ```
/// use pathology::studies::crossval::errprop::errprop_trial_seconds;
/// assert!(errprop_trial_seconds(10).unwrap() > 0.01);
/// assert!(errprop_trial_seconds(30).is_err()); // --steps outside 1..=10
/// ```
pub fn errprop_trial_seconds(steps: u32) -> Result<f64> {
    check_steps(steps)?;
    Ok(200e-9 + 16e-9 * 4f64.powf(f64::from(steps)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::errprop::max_to_max;

    /// The agreement criterion: |z| <= 4 for both quantities.
    const SIGMAS: f64 = 4.0;

    fn run(gamma: f64, delta: f64, f1: f64, f2: f64, steps: u32, trials: u64) -> [QuantityRow; 2] {
        let start = ErrorPair::new(gamma, delta).unwrap();
        let factors = DependenceFactors::new(f1, f2).unwrap();
        let runner = TrialRunner::new(trials, 2024, 2).unwrap();
        estimate_errors(&start, &factors, steps, &runner).unwrap()
    }

    /// Cross-validation: real back-ups agree with the iterated map (pathological and not).
    #[test]
    fn monte_carlo_agrees_with_the_map() {
        for (gamma, delta, f1, f2, steps) in [
            (0.3, 0.2, 0.9, 0.9, 3), // errors shrink (Theorem 5.1, Fig. 2)
            (0.3, 0.2, 0.1, 0.1, 3), // errors grow towards (0, 1) (Theorem 5.2, Fig. 3)
            (0.1, 0.05, 0.7, 0.2, 2),
            (0.4, 0.3, 0.2, 0.8, 4),
            (0.2, 0.1, 0.5, 0.5, 1),
        ] {
            for row in run(gamma, delta, f1, f2, steps, 20_000) {
                let z = row.comparison.z.unwrap();
                assert!(
                    z.abs() <= SIGMAS,
                    "gamma={gamma} delta={delta} f1={f1} f2={f2} K={steps}: {row:?}"
                );
            }
        }
    }

    /// The same check rejects a wrong exact value: the map with f1 and f2 swapped.
    #[test]
    fn check_rejects_swapped_factors() {
        let (gamma, delta, f1, f2, steps) = (0.3, 0.2, 0.9, 0.2, 2);
        let rows = run(gamma, delta, f1, f2, steps, 20_000);
        assert!(rows.iter().all(|r| r.comparison.z.unwrap().abs() <= SIGMAS));
        let mut wrong = (gamma, delta);
        for _ in 0..steps {
            wrong = max_to_max(&wrong.0, &wrong.1, &f2, &f1);
        }
        let z = |row: &QuantityRow, exact: f64| {
            let p = Proportion {
                successes: (row.comparison.estimate * row.trials as f64).round() as u64,
                trials: row.trials,
            };
            p.z_score(exact).abs()
        };
        let worst = z(&rows[0], wrong.0).max(z(&rows[1], wrong.1));
        assert!(
            worst > SIGMAS,
            "swapped factors not rejected: max |z| = {worst}"
        );
    }

    /// A perfect evaluator is never wrong; psi = 1 everywhere makes every root read 1.
    #[test]
    fn extreme_evaluators() {
        let perfect = run(0.0, 0.0, 0.3, 0.6, 3, 500);
        assert!(perfect.iter().all(|r| r.comparison.estimate == 0.0));
        assert!(perfect.iter().all(|r| r.comparison.exact == Some(0.0)));
        let [gamma, delta] = run(1.0, 0.0, 0.3, 0.6, 2, 500);
        assert_eq!(
            (gamma.comparison.estimate, gamma.comparison.exact),
            (1.0, Some(1.0))
        );
        assert_eq!(
            (delta.comparison.estimate, delta.comparison.exact),
            (0.0, Some(0.0))
        );
    }

    #[test]
    fn refuses_bad_steps() {
        let start = ErrorPair::new(0.3, 0.2).unwrap();
        let factors = DependenceFactors::new(0.5, 0.5).unwrap();
        let runner = TrialRunner::new(10, 1, 1).unwrap();
        for steps in [0, MAX_STEPS + 1] {
            let err = estimate_errors(&start, &factors, steps, &runner).unwrap_err();
            assert!(err.to_string().contains("--steps"), "{err}");
        }
    }

    /// The per-trial cost model reproduces its measurements within a factor of two.
    #[test]
    fn trial_cost_matches_the_measurements() {
        let within = |model: f64, measured: f64| (0.5..=2.0).contains(&(model / measured));
        let errprop = |k| errprop_trial_seconds(k).unwrap();
        assert!(within(errprop(1), 210e-9));
        assert!(within(errprop(5), 17e-6));
        assert!(within(errprop(10), 16.6e-3));
    }
}
