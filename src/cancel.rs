//! **Layer 1, cancellation.** May import: [`crate::error`].
//!
//! Cancelling long computations (Ctrl-C in the Python package).
//!
//! Not a formula of the papers: the plumbing that lets a caller stop the long loops of the
//! library early. A caller creates a [`CancelToken`], runs the computation inside [`scope`]
//! on one thread and calls [`CancelToken::cancel`] from another thread (the Python package
//! does so when `KeyboardInterrupt` arrives). The long loops check the token at their natural
//! granularity:
//!
//! - the Monte Carlo runner ([`crate::sim::runner::TrialRunner::run`]) before each trial: a
//!   trial not yet started is skipped (the trials, their random streams and the fold order
//!   are untouched);
//! - the exact engines ([`crate::analytic::dgame::Solver`], [`crate::analytic::families::decision_column`]) once
//!   per level of the recursions over the height;
//! - error-propagation trajectories ([`crate::analytic::errprop::trajectory`],
//!   [`crate::analytic::errprop::enclosed_trajectory`]) once per step;
//! - the test-time search engines ([`crate::analytic::inference`]) once per value of k or n
//!   (pass-at-k, resampling, best-of-n), per task type and per vote count (voting), per
//!   decision, depth and level of a decision's subtree (lookahead).
//!
//! A cancelled computation returns [`Error::Interrupted`]: never a panic, never a partial
//! result. Outside a [`scope`] nothing is ever cancelled, and a check is one relaxed atomic
//! load per chunk, level or step. The token is looked up on the thread that calls the
//! library ([`current`]), once per computation, and handed explicitly to the work that the
//! computation gives to rayon's threads.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};

/// A shared flag that asks the computations watching it to stop. Clones share the flag.
///
/// # Examples
///
/// ```
/// use pathology::Error;
/// use pathology::cancel::CancelToken;
/// let token = CancelToken::new();
/// let watcher = token.clone();
/// assert!(watcher.check().is_ok());
/// token.cancel();
/// assert!(watcher.is_cancelled());
/// assert_eq!(watcher.check(), Err(Error::Interrupted));
/// ```
#[derive(Debug, Clone, Default)]
pub struct CancelToken {
    flag: Arc<AtomicBool>,
}

impl CancelToken {
    /// A token not yet cancelled.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every computation watching this token to stop (from any thread).
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether [`CancelToken::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// `Err(Error::Interrupted)` once the token is cancelled, `Ok(())` before.
    ///
    /// # Errors
    ///
    /// [`Error::Interrupted`] when the token is cancelled.
    pub fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            Err(Error::Interrupted)
        } else {
            Ok(())
        }
    }
}

thread_local! {
    static CURRENT: RefCell<Option<CancelToken>> = const { RefCell::new(None) };
}

/// Runs `work` on this thread with `token` as the [`current`] token, restoring the previous
/// one afterwards (also when `work` panics). Computations started inside `work` return
/// [`Error::Interrupted`] soon after `token` is cancelled.
///
/// # Examples
///
/// ```
/// use std::time::{Duration, Instant};
/// use pathology::Error;
/// use pathology::cancel::{CancelToken, scope};
/// use pathology::sim::runner::TrialRunner;
/// let token = CancelToken::new();
/// let stopper = token.clone();
/// std::thread::spawn(move || {
///     std::thread::sleep(Duration::from_millis(100));
///     stopper.cancel();
/// });
/// let start = Instant::now();
/// // Days of trials, stopped after about 0.1 s.
/// let runner = TrialRunner::new(u64::MAX, 1, 1).unwrap();
/// let run = scope(&token, || runner.run(|| (), |_, _| 1u64, 0u64, |n, x| n + x));
/// assert_eq!(run, Err(Error::Interrupted));
/// assert!(start.elapsed() < Duration::from_secs(10));
/// ```
pub fn scope<R>(token: &CancelToken, work: impl FnOnce() -> R) -> R {
    /// Puts the previous token back when dropped.
    struct Restore(Option<CancelToken>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|current| *current.borrow_mut() = previous);
        }
    }
    let _restore = Restore(CURRENT.with(|current| current.replace(Some(token.clone()))));
    work()
}

/// The token of the innermost [`scope`] on this thread, or a token that is never cancelled.
///
/// # Examples
///
/// ```
/// use pathology::cancel::{CancelToken, current, scope};
/// assert!(!current().is_cancelled());
/// let token = CancelToken::new();
/// token.cancel();
/// assert!(scope(&token, || current().is_cancelled()));
/// assert!(!current().is_cancelled());
/// ```
pub fn current() -> CancelToken {
    CURRENT.with(|current| current.borrow().clone().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::dgame::{DependenceFactors, Solver};
    use crate::analytic::errprop::{BackUp, ErrorPair, trajectory};
    use crate::analytic::families::{Evaluator, Family, NGame, decision_column};
    use crate::sim::runner::TrialRunner;
    use num_rational::BigRational;
    use std::time::{Duration, Instant};

    /// A token cancelled from another thread after `delay`.
    fn cancelled_after(delay: Duration) -> CancelToken {
        let token = CancelToken::new();
        let stopper = token.clone();
        std::thread::spawn(move || {
            std::thread::sleep(delay);
            stopper.cancel();
        });
        token
    }

    fn exact(text: &str) -> BigRational {
        crate::numeric::number::parse_rational(text).unwrap()
    }

    #[test]
    fn scopes_nest_and_restore_the_previous_token() {
        let outer = CancelToken::new();
        let inner = CancelToken::new();
        inner.cancel();
        scope(&outer, || {
            assert!(current().check().is_ok());
            assert_eq!(scope(&inner, || current().check()), Err(Error::Interrupted));
            assert!(current().check().is_ok());
            outer.cancel();
            assert_eq!(current().check(), Err(Error::Interrupted));
        });
        assert!(current().check().is_ok());
        // Restored after a panic too.
        let caught = std::panic::catch_unwind(|| scope(&inner, || panic!("inside")));
        assert!(caught.is_err());
        assert!(current().check().is_ok());
    }

    /// An mc run of 10^12 trials (hours) stops within 2 s of the cancel, with the error.
    #[test]
    fn a_cancelled_monte_carlo_run_returns_interrupted_promptly() {
        let runner = TrialRunner::new(1_000_000_000_000, 3, 2).unwrap();
        let token = cancelled_after(Duration::from_millis(200));
        let start = Instant::now();
        let run = scope(&token, || {
            runner.run(
                || (),
                |_, rng| rand::RngExt::random::<f64>(rng),
                0.0f64,
                |s, x| s + x,
            )
        });
        let elapsed = start.elapsed();
        assert_eq!(run, Err(Error::Interrupted));
        assert!(token.is_cancelled());
        assert!(elapsed < Duration::from_millis(2200), "took {elapsed:?}");
    }

    /// An uncancelled scope changes nothing: the same sum, bit for bit.
    #[test]
    fn an_uncancelled_scope_gives_the_same_results() {
        let runner = TrialRunner::new(50_000, 9, 2).unwrap();
        let sum = || {
            runner
                .run(
                    || (),
                    |_, rng| rand::RngExt::random::<f64>(rng),
                    0.0f64,
                    |s, x| s + x,
                )
                .unwrap()
        };
        let plain = sum();
        let scoped = scope(&CancelToken::new(), sum);
        assert_eq!(plain.to_bits(), scoped.to_bits());
        let factors = DependenceFactors::new(exact("1/10"), exact("1/10")).unwrap();
        let column = Solver::new(factors.clone()).decision_column(8).unwrap();
        let scoped = scope(&CancelToken::new(), || {
            Solver::new(factors).decision_column(8).unwrap()
        });
        assert_eq!(column.values, scoped.values);
    }

    /// The exact engines check once per level: a cancelled token stops them before the
    /// first level, whatever the height.
    #[test]
    fn exact_engines_return_interrupted_when_cancelled() {
        let token = CancelToken::new();
        token.cancel();
        let factors = DependenceFactors::new(exact("1/10"), exact("1/10")).unwrap();
        let mut solver = Solver::new(factors);
        assert_eq!(
            scope(&token, || solver.decision_column(12)).map(|c| c.values),
            Err(Error::Interrupted)
        );
        // The cache holds whole levels only: the solver still answers correctly.
        let reference = Solver::new(DependenceFactors::new(exact("1/10"), exact("1/10")).unwrap())
            .decision_column(6)
            .unwrap();
        assert_eq!(solver.decision_column(6).unwrap().values, reference.values);
        let game = Family::N(NGame::new(2, exact("1/2")).unwrap());
        let column = scope(&token, || decision_column(&game, &Evaluator::Count, 10));
        assert_eq!(column.map(|c| c.values), Err(Error::Interrupted));
        assert!(decision_column(&game, &Evaluator::Count, 4).is_ok());
    }

    /// An exact run at a large height, cancelled mid-way, stops within 2 s.
    #[test]
    fn a_long_exact_column_stops_promptly() {
        let factors = DependenceFactors::new(exact("1/10"), exact("3/10")).unwrap();
        let token = cancelled_after(Duration::from_millis(200));
        let start = Instant::now();
        let column = scope(&token, || Solver::new(factors).decision_column(17));
        let elapsed = start.elapsed();
        assert_eq!(column.map(|c| c.values), Err(Error::Interrupted));
        assert!(elapsed < Duration::from_millis(2200), "took {elapsed:?}");
    }

    /// Every test-time search engine, exact and f64, returns the error when cancelled
    /// (never a partial table), and answers again under a token not cancelled.
    #[test]
    fn inference_engines_return_interrupted_when_cancelled() {
        use crate::analytic::inference::{
            LookaheadSearch, Tasks, best_of_n, lookahead, pass_at_k, resample, vote,
        };
        use crate::analytic::pathsum::Law;
        let token = CancelToken::new();
        token.cancel();
        let tasks = Tasks::parse("0.87:0.58,0.13:0.42").unwrap();
        let (c, s, v) = (exact("1"), exact("3/4"), exact("0"));
        let ks = [1, 2, 3];
        let laws = (
            Law::parse("a", "0:1/2,1:1/2").unwrap(),
            Law::parse("b", "0").unwrap(),
        );
        let search = LookaheadSearch {
            branching: 2,
            steps: 3,
            step_correct: exact("3/5"),
            noise: Law::parse("--noise", "0:1/2,1:1/2").unwrap(),
            growth: exact("0"),
        };
        let wrong = [exact("1/2"), exact("1/2")];
        /// One engine's call, its result dropped.
        type Run<'a> = Box<dyn Fn() -> crate::Result<()> + 'a>;
        let runs: Vec<(&str, Run)> = vec![
            (
                "pass-at-k",
                Box::new(|| pass_at_k::<f64>(&tasks, &ks).map(drop)),
            ),
            (
                "pass-at-k exact",
                Box::new(|| pass_at_k::<BigRational>(&tasks, &ks).map(drop)),
            ),
            (
                "resample",
                Box::new(|| resample::<f64>(&tasks, &c, &s, &v, &ks).map(drop)),
            ),
            (
                "resample exact",
                Box::new(|| resample::<BigRational>(&tasks, &c, &s, &v, &ks).map(drop)),
            ),
            (
                "best-of-n",
                Box::new(|| best_of_n::<f64>(&tasks, &laws.0, &laws.1, &ks).map(drop)),
            ),
            (
                "best-of-n exact",
                Box::new(|| best_of_n::<BigRational>(&tasks, &laws.0, &laws.1, &ks).map(drop)),
            ),
            (
                "vote",
                Box::new(|| vote::<f64>(&tasks, &wrong, &ks).map(drop)),
            ),
            (
                "lookahead",
                Box::new(|| lookahead::<f64>(&search, &[1, 2, 3]).map(drop)),
            ),
            (
                "lookahead exact",
                Box::new(|| lookahead::<BigRational>(&search, &[1, 2, 3]).map(drop)),
            ),
        ];
        for (name, run) in &runs {
            assert_eq!(scope(&token, run), Err(Error::Interrupted), "{name}");
            assert_eq!(scope(&CancelToken::new(), run), Ok(()), "{name}");
        }
    }

    /// An exact lookahead of seconds (B = 4, L = 10, d = 9: ten decisions of subtrees up to
    /// 8 levels deep), cancelled mid-way, returns the error instead of its rows. (How promptly
    /// is measured, not asserted: a timed assert fails on a loaded machine.)
    #[test]
    fn a_long_exact_lookahead_cancelled_midway_returns_interrupted() {
        use crate::analytic::inference::{LookaheadSearch, lookahead};
        use crate::analytic::pathsum::Law;
        let search = LookaheadSearch {
            branching: 4,
            steps: 10,
            step_correct: exact("3/5"),
            noise: Law::parse("--noise", "gaussian:1").unwrap(),
            growth: exact("0"),
        };
        let token = cancelled_after(Duration::from_millis(100));
        let run = scope(&token, || lookahead::<BigRational>(&search, &[9]));
        assert_eq!(run.map(drop), Err(Error::Interrupted));
    }

    #[test]
    fn trajectories_return_interrupted_when_cancelled() {
        let token = CancelToken::new();
        token.cancel();
        let start = ErrorPair::new(0.3, 0.2).unwrap();
        let run = scope(&token, || trajectory(start, &0.7, &0.7, BackUp::Max, 1000));
        assert_eq!(run, Err(Error::Interrupted));
        // No steps: nothing to interrupt.
        let start = ErrorPair::new(0.3, 0.2).unwrap();
        let run = scope(&token, || trajectory(start, &0.7, &0.7, BackUp::Max, 0));
        assert_eq!(run.map(|p| p.len()), Ok(1));
    }
}
