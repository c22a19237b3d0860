//! Up-front time estimates of Monte Carlo runs, so that a run that would take longer than
//! [`TIME_LIMIT_SECONDS`] (one hour) is refused before it starts, with the estimate in the
//! error, as the analytic commands refuse work above their limits ([`crate::dgame::cost`]).
//!
//! A run's estimate is `trials run x seconds per trial / threads`, where the trials run are the
//! shard's (`--shard K/N`) or all, and the threads are the requested ones capped at the cores
//! available ([`crate::mc::runner::TrialRunner::check_budget`]). The per-trial costs below were measured with
//! `--threads 1` on the release build (a 2-core machine shared with other work, so they err on
//! the slow side); each is a fixed cost per trial (the trial's streams, its draw, the fold)
//! plus a cost per node searched:
//!
//! | experiment | measured | model |
//! |---|---|---|
//! | `mc dgame`, fast engine | h = 4: 250 ns; h = 8: 1.7 us; h = 20: 6.3 ms | 250 ns + 6 ns x 2^h |
//! | `mc dgame`, generic engine | h = 8: 30 us; h = 16: 11 ms | 1 us + 200 ns x 2^h |
//! | `mc errprop` | K = 1: 210 ns; K = 5: 17 us; K = 10: 16.6 ms | 200 ns + 16 ns x 4^K |
//! | `mc rhf` | H - D = 1: 170 ns; H - D = 19: 5.5 ms | 200 ns + 6 ns x 2^(H-D+1) |
//! | `mc alphabeta`, trees | b = 2, d = 10: 177 us; b = 5, d = 8: 20 ms | 500 ns + 60 ns x nodes |
//! | `mc alphabeta`, tic-tac-toe | 1 ply: 3.1 ms; 4 plies: 30 us; 8 plies: 5 us | 8 us + 80 ns x (9 - plies)! |
//!
//! The estimates are meant to be right within a factor of two or three.

use crate::error::Result;
use crate::mc::alphabeta::RandomTrees;
use crate::mc::dgame::Engine;
use crate::mc::level_tree::BoardSpec;
use crate::mc::rhf::FlawSetup;

/// Wall-clock limit of a Monte Carlo run: one hour on the threads it runs on. Above it the
/// run is refused up front ([`crate::mc::runner::TrialRunner::check_budget`]); split it with `--shard K/N` over
/// machines and `pathology merge` the outputs instead.
pub const TIME_LIMIT_SECONDS: f64 = 3600.0;

/// Seconds per trial of `mc dgame` at height `h` (one conditioned D-game with `2^h` leaves
/// searched to every depth).
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `--height` outside `1..=20`, as the experiment.
///
/// # Examples
///
/// ```
/// use pathology::mc::cost::dgame_trial_seconds;
/// use pathology::mc::dgame::Engine;
/// let fast = dgame_trial_seconds(10, Engine::Fast).unwrap();
/// assert!(fast < 1e-5);
/// assert!(dgame_trial_seconds(10, Engine::Generic).unwrap() > fast);
/// assert!(dgame_trial_seconds(40, Engine::Fast).is_err()); // --height outside 1..=20
/// ```
pub fn dgame_trial_seconds(height: u32, engine: Engine) -> Result<f64> {
    crate::mc::dgame::check_height(height)?;
    let leaves = 2f64.powf(f64::from(height));
    Ok(match engine {
        Engine::Fast => 250e-9 + 6e-9 * leaves,
        Engine::Generic => 1e-6 + 200e-9 * leaves,
    })
}

/// Seconds per trial of `mc errprop` with `steps` back-up steps K (two trees with `4^K`
/// frontier nodes each).
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `--steps` outside `1..=10`, as the experiment.
///
/// # Examples
///
/// ```
/// use pathology::mc::cost::errprop_trial_seconds;
/// assert!(errprop_trial_seconds(10).unwrap() > 0.01);
/// assert!(errprop_trial_seconds(30).is_err()); // --steps outside 1..=10
/// ```
pub fn errprop_trial_seconds(steps: u32) -> Result<f64> {
    crate::mc::errprop::check_steps(steps)?;
    Ok(200e-9 + 16e-9 * 4f64.powf(f64::from(steps)))
}

/// Seconds per trial of `mc rhf` on a P-game of height H with nodes compared at depth D
/// (two subtrees of height `H - D`).
///
/// # Examples
///
/// ```
/// use pathology::mc::cost::rhf_trial_seconds;
/// use pathology::mc::rhf::FlawSetup;
/// let deep = FlawSetup::new(0.5, 0.4, 20, 10).unwrap();
/// let shallow = FlawSetup::new(0.5, 0.4, 20, 1).unwrap();
/// assert!(rhf_trial_seconds(&shallow) > rhf_trial_seconds(&deep));
/// ```
pub fn rhf_trial_seconds(setup: &FlawSetup) -> f64 {
    let subtree = setup.height.saturating_sub(setup.depth);
    200e-9 + 6e-9 * 2f64.powf(f64::from(subtree) + 1.0)
}

/// Seconds per trial of `mc alphabeta` on random uniform trees of branching b and depth d
/// (`(b^(d+1) - 1)/(b - 1)` nodes drawn and searched).
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `--branching` or `--depth` out of range, as the
/// experiment itself.
///
/// # Examples
///
/// ```
/// use pathology::mc::alphabeta::RandomTrees;
/// use pathology::mc::cost::tree_trial_seconds;
/// let trees = RandomTrees { branching: 5, depth: 8, max_value: 2 };
/// assert!(tree_trial_seconds(&trees).unwrap() > 0.01);
/// let wide = RandomTrees { branching: 9, ..trees };
/// assert!(tree_trial_seconds(&wide).is_err()); // --branching outside 2..=8
/// ```
pub fn tree_trial_seconds(trees: &RandomTrees) -> Result<f64> {
    crate::mc::alphabeta::check_trees(trees)?;
    let b = trees.branching as f64;
    let nodes = (b.powf(f64::from(trees.depth) + 1.0) - 1.0) / (b - 1.0);
    Ok(500e-9 + 60e-9 * nodes)
}

/// Seconds per trial of `mc alphabeta --positions tictactoe` after `plies` random moves (a
/// full search of the remaining game, at most `(9 - plies)!` lines).
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `--plies` outside `1..=8`, as the experiment.
///
/// # Examples
///
/// ```
/// use pathology::mc::cost::tictactoe_trial_seconds;
/// assert!(tictactoe_trial_seconds(1).unwrap() > tictactoe_trial_seconds(8).unwrap());
/// assert!(tictactoe_trial_seconds(9).is_err()); // --plies outside 1..=8
/// ```
pub fn tictactoe_trial_seconds(plies: u32) -> Result<f64> {
    crate::mc::alphabeta::check_plies(plies)?;
    let lines: f64 = (1..=9u32.saturating_sub(plies)).map(f64::from).product();
    Ok(8e-6 + 80e-9 * lines)
}

/// Seconds per non-trivial game of `mc emm` (and per board of `mc emm-calibrate`): draw,
/// solve and search the board at every depth with minimax, the product rule and EMM, with
/// about two boards drawn per non-trivial game. Measured at 36-53 ns per tree node (b = 2,
/// H = 10..14; b = 3, H = 8; N-games b = 2, H = 12; one thread); the model takes 100 ns.
///
/// # Examples
///
/// ```
/// use pathology::mc::cost::study_game_seconds;
/// use pathology::mc::level_tree::{BoardSpec, GameKind};
/// let spec = BoardSpec::new(GameKind::P, 2, 10, 0.38).unwrap();
/// assert!(study_game_seconds(&spec) > 1e-4 && study_game_seconds(&spec) < 1e-3);
/// ```
pub fn study_game_seconds(spec: &BoardSpec) -> f64 {
    1e-6 + 100e-9 * spec.tree.len() as f64
}

/// Seconds per pair of games of `mc match` at search depth `search_depth` (the board drawn and
/// evaluated once, then two games of `H` moves, each move a search of about `b^depth` nodes).
/// Measured at about 17 ns per unit of `b^H + 2 H b^depth` (H = 6 and 12, one thread); the
/// model takes 30 ns.
///
/// # Examples
///
/// ```
/// use pathology::mc::cost::match_pair_seconds;
/// use pathology::mc::level_tree::{BoardSpec, GameKind};
/// let spec = BoardSpec::new(GameKind::P, 2, 12, 0.38).unwrap();
/// assert!(match_pair_seconds(&spec, 6) > match_pair_seconds(&spec, 2));
/// ```
pub fn match_pair_seconds(spec: &BoardSpec, search_depth: u32) -> f64 {
    let b = f64::from(spec.tree.branching() as u32);
    let h = f64::from(spec.tree.height());
    let units = spec.tree.len() as f64 + 2.0 * h * b.powf(f64::from(search_depth));
    1e-6 + 30e-9 * units
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The models reproduce the measurements in the module docs within a factor of two.
    #[test]
    fn models_match_the_measurements() {
        let within = |model: f64, measured: f64| (0.5..=2.0).contains(&(model / measured));
        let dgame = |h, e| dgame_trial_seconds(h, e).unwrap();
        assert!(within(dgame(4, Engine::Fast), 250e-9));
        assert!(within(dgame(8, Engine::Fast), 1.7e-6));
        assert!(within(dgame(20, Engine::Fast), 6.3e-3));
        assert!(within(dgame(8, Engine::Generic), 30e-6));
        assert!(within(dgame(16, Engine::Generic), 11e-3));
        let errprop = |k| errprop_trial_seconds(k).unwrap();
        assert!(within(errprop(1), 210e-9));
        assert!(within(errprop(5), 17e-6));
        assert!(within(errprop(10), 16.6e-3));
        let rhf = |h, d| rhf_trial_seconds(&FlawSetup::new(0.5, 0.4, h, d).unwrap());
        assert!(within(rhf(2, 1), 170e-9));
        assert!(within(rhf(20, 1), 5.5e-3));
        let trees = |branching, depth| {
            tree_trial_seconds(&RandomTrees {
                branching,
                depth,
                max_value: 2,
            })
            .unwrap()
        };
        assert!(within(trees(2, 10), 177e-6));
        assert!(within(trees(5, 8), 20e-3));
        let ttt = |p| tictactoe_trial_seconds(p).unwrap();
        assert!(within(ttt(1), 3.1e-3));
        assert!(within(ttt(4), 30e-6));
        assert!(within(ttt(8), 5e-6));
    }
}
