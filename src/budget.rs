//! **Layer 2, the budget.** What work costs and when it is refused: the limits, the units
//! estimates are printed in, the one refusal message, and the announcement of an accepted
//! estimate (`PATHOLOGY_ESTIMATE`).
//!
//! May import: [`crate::error`] only. It knows no experiment and no calculator: each
//! computation owns its estimate (operation counts times its own measured constants, in the
//! module that computes it) and comes here to compare it with a limit and to word the
//! refusal. So every refusal of the tool reads the same way:
//!
//! ```text
//! <what> would need <estimate>; refused (limit: <limit>). <what to do instead>
//! ```
//!
//! The limits: about a minute and 16 GiB for the analytic commands
//! ([`ANALYTIC_TIME_LIMIT_SECONDS`], [`MEMORY_LIMIT_BYTES`]), an hour on the threads a run
//! uses for the Monte Carlo experiments ([`MONTE_CARLO_TIME_LIMIT_SECONDS`]).

use crate::error::{Error, Result};

/// Time limit of an analytic computation: about a minute.
pub const ANALYTIC_TIME_LIMIT_SECONDS: f64 = 60.0;

/// Memory limit of every computation: well under the project machine's 24 GiB.
pub const MEMORY_LIMIT_BYTES: f64 = 16.0 * 1024.0 * 1024.0 * 1024.0;

/// Wall-clock limit of a Monte Carlo run: one hour on the threads it runs on. Above it a run
/// is refused up front; split it with `--shard K/N` over machines and `pathology merge` the
/// outputs instead.
pub const MONTE_CARLO_TIME_LIMIT_SECONDS: f64 = 3600.0;

/// The largest Monte Carlo limit `--time-limit` accepts: a week.
pub const MAX_MONTE_CARLO_LIMIT_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

/// The Monte Carlo limit in force (f64 bits): [`MONTE_CARLO_TIME_LIMIT_SECONDS`] unless a
/// command raised it ([`raise_monte_carlo_limit`]).
static MONTE_CARLO_LIMIT_BITS: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(MONTE_CARLO_TIME_LIMIT_SECONDS.to_bits());

/// The wall-clock limit of a Monte Carlo run now: one hour, or what `--time-limit` set.
///
/// # Examples
///
/// ```
/// use pathology::budget::{monte_carlo_limit_seconds, raise_monte_carlo_limit};
/// assert_eq!(monte_carlo_limit_seconds(), 3600.0);
/// {
///     let _raised = raise_monte_carlo_limit(5.0 * 3600.0);
///     assert_eq!(monte_carlo_limit_seconds(), 18000.0);
/// }
/// assert_eq!(monte_carlo_limit_seconds(), 3600.0); // restored when the guard is dropped
/// ```
pub fn monte_carlo_limit_seconds() -> f64 {
    f64::from_bits(MONTE_CARLO_LIMIT_BITS.load(std::sync::atomic::Ordering::Relaxed))
}

/// Sets the Monte Carlo limit to `seconds` (the command line's `--time-limit`, for a long job
/// on one machine) until the returned guard is dropped, which restores the previous limit.
/// A run accepted above [`MONTE_CARLO_TIME_LIMIT_SECONDS`] prints its estimate on standard
/// error ([`check_wall_time`]).
pub fn raise_monte_carlo_limit(seconds: f64) -> MonteCarloLimit {
    let previous =
        MONTE_CARLO_LIMIT_BITS.swap(seconds.to_bits(), std::sync::atomic::Ordering::Relaxed);
    MonteCarloLimit { previous }
}

/// The guard of [`raise_monte_carlo_limit`].
#[derive(Debug)]
pub struct MonteCarloLimit {
    previous: u64,
}

impl Drop for MonteCarloLimit {
    fn drop(&mut self) {
        MONTE_CARLO_LIMIT_BITS.store(self.previous, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Estimated cost of a computation: wall-clock seconds and peak bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// Estimated wall-clock seconds on a 2-core machine.
    pub seconds: f64,
    /// Estimated peak memory in bytes.
    pub bytes: f64,
}

impl Cost {
    /// Whether the run exceeds [`ANALYTIC_TIME_LIMIT_SECONDS`] or [`MEMORY_LIMIT_BYTES`].
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::budget::Cost;
    /// assert!(!Cost { seconds: 59.0, bytes: 1e9 }.exceeds_limits());
    /// assert!(Cost { seconds: 61.0, bytes: 1e9 }.exceeds_limits());
    /// assert!(Cost { seconds: 1.0, bytes: 1e11 }.exceeds_limits());
    /// ```
    pub fn exceeds_limits(&self) -> bool {
        // Written so that an estimate that overflowed to NaN is over the limits too.
        !(self.seconds <= ANALYTIC_TIME_LIMIT_SECONDS && self.bytes <= MEMORY_LIMIT_BYTES)
    }

    /// The refusal of `what` at this cost: the estimated time and memory against both
    /// analytic limits, and `hint`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::budget::Cost;
    /// let e = Cost { seconds: 300.0, bytes: 2048.0 }.refusal("a run".into(), "Ask less.");
    /// assert_eq!(
    ///     e.to_string(),
    ///     "a run would need about 5 min and about 2.0 KiB of memory; refused (limit: 60 s and 16.0 GiB). Ask less."
    /// );
    /// // An estimate past what f64 holds is worded, never "inf".
    /// let e = Cost { seconds: f64::INFINITY, bytes: f64::INFINITY }.refusal("a run".into(), "");
    /// assert!(e.to_string().contains("more than 2.1e303 days and more than 1.8e308 B of memory"), "{e}");
    /// ```
    pub fn refusal(&self, what: String, hint: &str) -> Error {
        refuse(
            what,
            format!(
                "{} and {} of memory",
                estimated_seconds(self.seconds),
                estimated_bytes(self.bytes)
            ),
            format!(
                "{} and {}",
                human_seconds(ANALYTIC_TIME_LIMIT_SECONDS),
                human_bytes(MEMORY_LIMIT_BYTES)
            ),
            hint,
        )
    }
}

/// The one refusal: `what` would need `estimate`, over `limit`; `hint` says what to do
/// instead. Every cost check of the tool words its refusal through this function.
///
/// # Examples
///
/// ```
/// use pathology::budget::refuse;
/// let e = refuse("a board".into(), "more than 2^22 squares".into(), "4194304 squares".into(), "Ask less.");
/// assert_eq!(
///     e.to_string(),
///     "a board would need more than 2^22 squares; refused (limit: 4194304 squares). Ask less."
/// );
/// assert!(e.is_usage());
/// ```
pub fn refuse(what: String, estimate: String, limit: String, hint: impl Into<String>) -> Error {
    Error::TooExpensive {
        what,
        estimate,
        limit,
        hint: hint.into(),
    }
}

/// Refuses `what` when `seconds` exceeds `limit_seconds`, the estimate printed as
/// `<prefix><seconds>` (e.g. `up to 3 min`) and the limit in [`human_seconds`].
///
/// # Errors
///
/// [`Error::TooExpensive`] when `seconds > limit_seconds`.
///
/// # Examples
///
/// ```
/// use pathology::budget::check_seconds;
/// assert!(check_seconds(|| "a scan".into(), 30.0, 60.0, "up to ", "Ask less.").is_ok());
/// let e = check_seconds(|| "a scan".into(), 300.0, 60.0, "up to ", "Ask less.").unwrap_err();
/// assert_eq!(e.to_string(), "a scan would need up to 5 min; refused (limit: 60 s). Ask less.");
/// ```
pub fn check_seconds(
    what: impl FnOnce() -> String,
    seconds: f64,
    limit_seconds: f64,
    estimate_prefix: &str,
    hint: &str,
) -> Result<()> {
    if seconds.is_nan() || seconds > limit_seconds {
        let prefix = if seconds.is_finite() {
            estimate_prefix
        } else {
            ""
        };
        return Err(refuse(
            what(),
            format!("{prefix}{}", human_seconds(seconds)),
            human_seconds(limit_seconds),
            hint,
        ));
    }
    Ok(())
}

/// Refuses `what`, a Monte Carlo run of `core_seconds` single-core seconds spread over
/// `threads` threads, when its wall time exceeds the limit in force
/// ([`monte_carlo_limit_seconds`]: [`MONTE_CARLO_TIME_LIMIT_SECONDS`] unless raised, and then
/// a run accepted above the default prints its estimate on standard error);
/// `per_unit` (e.g. `6.4 us per trial`) is added to the estimate when given. Announces the
/// accepted estimate ([`announce_estimate`]) and returns its wall seconds.
///
/// # Errors
///
/// [`Error::TooExpensive`] above the limit.
///
/// # Examples
///
/// ```
/// use pathology::budget::check_wall_time;
/// assert_eq!(check_wall_time("a run", 100.0, 2, None, "Ask less.").unwrap(), 50.0);
/// let e = check_wall_time("a run", 9000.0, 1, Some("2.0 ms per board"), "Ask less.").unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "a run would need about 2.5 h on 1 thread (2.0 ms per board); refused (limit: 60 min). \
///      Ask less. Or allow it with --time-limit MINUTES (up to a week)."
/// );
/// ```
pub fn check_wall_time(
    what: &str,
    core_seconds: f64,
    threads: usize,
    per_unit: Option<&str>,
    hint: &str,
) -> Result<f64> {
    let threads = threads.max(1);
    let seconds = core_seconds / threads as f64;
    let limit = monte_carlo_limit_seconds();
    let per_unit = per_unit.map(|p| format!(" ({p})")).unwrap_or_default();
    let estimate = format!(
        "{} on {threads} thread{}{per_unit}",
        estimated_seconds(seconds),
        if threads == 1 { "" } else { "s" }
    );
    if seconds.is_nan() || seconds > limit {
        let hint = if limit < MAX_MONTE_CARLO_LIMIT_SECONDS {
            format!("{hint} Or allow it with --time-limit MINUTES (up to a week).")
        } else {
            hint.to_string()
        };
        return Err(refuse(
            what.to_string(),
            estimate,
            human_seconds(limit),
            hint,
        ));
    }
    if seconds > MONTE_CARLO_TIME_LIMIT_SECONDS {
        eprintln!(
            "pathology: {what} will need {estimate} (over the default limit of {}; allowed by \
             --time-limit {})",
            human_seconds(MONTE_CARLO_TIME_LIMIT_SECONDS),
            human_seconds(limit)
        );
    }
    announce_estimate(what, seconds);
    Ok(seconds)
}

/// The environment variable that makes every up-front cost check print the estimate of the
/// run it accepts ([`announce_estimate`]); its value does not matter.
pub const ESTIMATE_VARIABLE: &str = "PATHOLOGY_ESTIMATE";

/// When [`ESTIMATE_VARIABLE`] is set, prints `pathology: estimate: <seconds> s for <what>` on
/// standard error: the estimated wall-clock seconds of a run that a cost check accepted (the
/// refusals print theirs anyway). Standard output is never touched, so reports stay
/// byte-identical; the integration tests compare the estimate with the measured time.
///
/// # Examples
///
/// ```
/// use pathology::budget::announce_estimate;
/// announce_estimate("11 settings at height 10", 0.02); // silent unless PATHOLOGY_ESTIMATE is set
/// ```
pub fn announce_estimate(what: &str, seconds: f64) {
    if std::env::var_os(ESTIMATE_VARIABLE).is_some() {
        eprintln!("pathology: estimate: {seconds:e} s for {what}");
    }
}

/// `12 ms`, `12 s`, `35 min`, `2.1 h`, `4.0e3 days`; an estimate past what `f64` holds
/// (infinite or NaN) is `more than 2.1e303 days`.
///
/// # Examples
///
/// ```
/// use pathology::budget::human_seconds;
/// assert_eq!(human_seconds(0.0123), "12 ms");
/// assert_eq!(human_seconds(300.0), "5 min");
/// assert_eq!(human_seconds(9000.0), "2.5 h");
/// assert_eq!(human_seconds(f64::INFINITY), "more than 2.1e303 days");
/// ```
pub fn human_seconds(s: f64) -> String {
    if !s.is_finite() {
        format!("more than {}", human_seconds(f64::MAX))
    } else if s < 1.0 {
        format!("{:.0} ms", s * 1e3)
    } else if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < 172_800.0 {
        format!("{:.1} h", s / 3600.0)
    } else if s < 1000.0 * 86_400.0 {
        format!("{:.1} days", s / 86_400.0)
    } else {
        format!("{:.1e} days", s / 86_400.0)
    }
}

/// `about 5 min`, or [`human_seconds`]'s `more than 2.1e303 days` for an estimate past what
/// `f64` holds: an estimate in words, never `about inf days`.
///
/// # Examples
///
/// ```
/// use pathology::budget::estimated_seconds;
/// assert_eq!(estimated_seconds(300.0), "about 5 min");
/// assert_eq!(estimated_seconds(f64::NAN), "more than 2.1e303 days");
/// ```
pub fn estimated_seconds(s: f64) -> String {
    if s.is_finite() {
        format!("about {}", human_seconds(s))
    } else {
        human_seconds(s)
    }
}

/// `about 2.0 KiB`, or [`human_bytes`]'s `more than 1.8e308 B` past what `f64` holds.
///
/// # Examples
///
/// ```
/// use pathology::budget::estimated_bytes;
/// assert_eq!(estimated_bytes(2048.0), "about 2.0 KiB");
/// assert_eq!(estimated_bytes(f64::INFINITY), "more than 1.8e308 B");
/// ```
pub fn estimated_bytes(b: f64) -> String {
    if b.is_finite() {
        format!("about {}", human_bytes(b))
    } else {
        human_bytes(b)
    }
}

/// `about 75 s`, `about 5 min`, `about 2.5 h`, `about 1.2e1 days`: a long estimate in whole
/// units, days always in scientific notation (the exact trajectories' refusal).
///
/// # Examples
///
/// ```
/// use pathology::budget::about_seconds;
/// assert_eq!(about_seconds(75.0), "about 75 s");
/// assert_eq!(about_seconds(1e6), "about 1.2e1 days");
/// ```
pub fn about_seconds(s: f64) -> String {
    if !s.is_finite() {
        human_seconds(s)
    } else if s < 120.0 {
        format!("about {s:.0} s")
    } else if s < 7200.0 {
        format!("about {:.0} min", s / 60.0)
    } else if s < 172_800.0 {
        format!("about {:.1} h", s / 3600.0)
    } else {
        format!("about {:.1e} days", s / 86_400.0)
    }
}

/// `5.0 us`, `12 ms`, `3 s`: the cost of one trial.
///
/// # Examples
///
/// ```
/// use pathology::budget::per_trial_seconds;
/// assert_eq!(per_trial_seconds(6.4e-6), "6.4 us");
/// assert_eq!(per_trial_seconds(0.012), "12 ms");
/// ```
pub fn per_trial_seconds(seconds: f64) -> String {
    if seconds < 1e-3 {
        format!("{:.1} us", seconds * 1e6)
    } else {
        human_seconds(seconds)
    }
}

/// `512 KiB`, `3.2 GiB`; past what `f64` holds, `more than 1.8e308 B`.
///
/// # Examples
///
/// ```
/// use pathology::budget::human_bytes;
/// assert_eq!(human_bytes(512.0), "512.0 B");
/// assert_eq!(human_bytes(1536.0), "1.5 KiB");
/// assert_eq!(human_bytes(16.0 * 1024.0 * 1024.0 * 1024.0), "16.0 GiB");
/// assert_eq!(human_bytes(f64::INFINITY), "more than 1.8e308 B");
/// ```
pub fn human_bytes(b: f64) -> String {
    if !b.is_finite() {
        return format!("more than {}", human_bytes(f64::MAX));
    }
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = b;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit + 1 == UNITS.len() && value >= 1024.0 {
        return format!("{b:.1e} B");
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_human_units() {
        assert_eq!(human_seconds(0.0123), "12 ms");
        assert_eq!(human_seconds(300.0), "5 min");
        assert_eq!(human_seconds(3.0 * 86_400.0), "3.0 days");
        assert_eq!(human_seconds(2e8), "2.3e3 days");
        assert_eq!(human_bytes(1536.0), "1.5 KiB");
        assert_eq!(human_bytes(1e20), "1.0e20 B");
        assert_eq!(about_seconds(3.0 * 86_400.0), "about 3.0e0 days");
    }

    #[test]
    fn limits_are_inclusive() {
        let at = Cost {
            seconds: ANALYTIC_TIME_LIMIT_SECONDS,
            bytes: MEMORY_LIMIT_BYTES,
        };
        assert!(!at.exceeds_limits());
        assert!(check_seconds(String::new, 60.0, 60.0, "", "").is_ok());
        assert!(check_wall_time("x", MONTE_CARLO_TIME_LIMIT_SECONDS, 1, None, "").is_ok());
        assert!(check_wall_time("x", MONTE_CARLO_TIME_LIMIT_SECONDS * 2.01, 2, None, "").is_err());
    }
}
