//! Tables 1 and 2 of Li & Marsland (Section 6.2), and sweeps of D(d,h) over dependence
//! factors.
//!
//! Table 1: h = 10, `f1 = f2 = i/10` for `i = 1..=9`. Table 2: h = 10, `f1 = i/10`,
//! `f2 = 1 - f1`. Each column holds D(d,10) for d = 1..=10 and the pathological sum PS.

use num_rational::BigRational;
use rayon::prelude::*;

use super::{DecisionColumn, DependenceFactors, Solver, check_cost, f2_from_p0};
use crate::budget::Cost;
use crate::error::{Error, Result};
use crate::numeric::number::Probability;

/// One of the paper's two tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaperTable {
    /// Table 1: `f1 = f2 = i/10`.
    One,
    /// Table 2: `f1 = i/10`, `f2 = 1 - f1`.
    Two,
}

/// The height of both tables.
pub const PAPER_HEIGHT: u32 = 10;

impl PaperTable {
    /// The table with the given number.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::table::PaperTable;
    /// assert_eq!(PaperTable::from_number(2).unwrap(), PaperTable::Two);
    /// assert!(PaperTable::from_number(3).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] unless `number` is 1 or 2.
    pub fn from_number(number: u32) -> Result<Self> {
        match number {
            1 => Ok(PaperTable::One),
            2 => Ok(PaperTable::Two),
            _ => Err(Error::invalid(
                "table NUMBER",
                "1 or 2 (Li & Marsland's Tables 1 and 2)",
                number,
            )),
        }
    }

    /// The table's number (1 or 2).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::table::PaperTable;
    /// assert_eq!(PaperTable::Two.number(), 2);
    /// for table in [PaperTable::One, PaperTable::Two] {
    ///     assert_eq!(PaperTable::from_number(table.number()).unwrap(), table);
    /// }
    /// ```
    pub fn number(self) -> u32 {
        match self {
            PaperTable::One => 1,
            PaperTable::Two => 2,
        }
    }

    /// The paper's caption.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::table::PaperTable;
    /// assert!(PaperTable::One.caption().starts_with("Table 1:"));
    /// assert!(PaperTable::Two.caption().ends_with("f1 + f2 = 1"));
    /// ```
    pub fn caption(self) -> &'static str {
        match self {
            PaperTable::One => {
                "Table 1: The probabilities D(d,10) of making a correct decision for f1 = f2"
            }
            PaperTable::Two => {
                "Table 2: The probabilities D(d,10) of making a correct decision for f1 + f2 = 1"
            }
        }
    }

    /// The nine (f1, f2) settings of the table's columns, as exact rationals.
    ///
    /// # Examples
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use pathology::analytic::dgame::table::PaperTable;
    /// use pathology::numeric::number::parse_rational;
    /// let settings = PaperTable::Two.settings();
    /// assert_eq!(settings.len(), 9);
    /// assert_eq!(settings[0], (parse_rational("0.1").unwrap(), parse_rational("0.9").unwrap()));
    /// assert!(settings.iter().all(|(f1, f2)| f1 + f2 == BigRational::from_integer(1.into())));
    /// ```
    pub fn settings(self) -> Vec<(BigRational, BigRational)> {
        (1..=9)
            .map(|i| {
                let f1 = BigRational::new(i.into(), 10.into());
                let f2 = match self {
                    PaperTable::One => f1.clone(),
                    PaperTable::Two => BigRational::new((10 - i).into(), 10.into()),
                };
                (f1, f2)
            })
            .collect()
    }

    /// Computes the table's nine columns in mode `P` (`f64` or `BigRational`).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::table::PaperTable;
    /// let columns = PaperTable::One.compute::<f64>().unwrap();
    /// assert_eq!(format!("{:.3}", columns[0].pathological_sum()), "0.038");
    /// ```
    ///
    /// # Errors
    ///
    /// None in practice (the settings are valid); the signature shares
    /// [`compute_columns`]'s.
    pub fn compute<P: Probability>(self) -> Result<Vec<DecisionColumn<P>>> {
        let settings: Vec<(P, P)> = self
            .settings()
            .iter()
            .map(|(a, b)| (P::from_rational(a), P::from_rational(b)))
            .collect();
        compute_columns(&settings, PAPER_HEIGHT)
    }
}

/// log2 of the common denominator of the dependence factors, for [`check_cost`] in exact
/// mode (`None` in float mode).
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::table::denominator_bits;
/// use pathology::numeric::number::parse_rational;
/// assert_eq!(denominator_bits(&[(0.1, 0.2)]), None); // f64 mode
/// let (tenth, half) = (parse_rational("0.1").unwrap(), parse_rational("0.5").unwrap());
/// let bits = denominator_bits(&[(tenth, half)]).unwrap(); // common denominator 10
/// assert!((bits - 10f64.log2()).abs() < 1e-12);
/// ```
pub fn denominator_bits<P: Probability>(settings: &[(P, P)]) -> Option<f64> {
    if !P::EXACT {
        return None;
    }
    let one = <P::Scaled as crate::numeric::number::Scaled>::one_value();
    let bits = settings
        .iter()
        .map(|(a, b)| {
            let (_, m) = P::common_scale(&[a.clone(), b.clone()]);
            // m >= 1; a denominator beyond f64's range gives infinity, which is refused.
            P::from_scaled(&m, &one).to_f64().log2()
        })
        .fold(1.0, f64::max);
    Some(bits)
}

/// D(d,h) for every depth and every (f1, f2) setting, the settings computed in parallel.
/// Refuses up front work that would exceed the limits of [`check_cost`], for one setting and
/// for all of them on the available threads.
///
/// # Examples
///
/// ```
/// use pathology::Error;
/// use pathology::analytic::dgame::table::compute_columns;
/// let columns = compute_columns(&[(0.1, 0.1), (0.9, 0.9)], 10).unwrap();
/// assert_eq!(format!("{:.3}", columns[0].value(1)), "0.608"); // Table 1, first cell
/// assert_eq!(format!("{:.3}", columns[1].pathological_sum()), "0.000");
/// assert!(compute_columns(&[(1.5, 0.5)], 10).is_err());
/// assert!(matches!(compute_columns(&[(0.1, 0.1)], 30), Err(Error::TooExpensive { .. })));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] for factors outside `[0, 1]` or a bad height;
/// [`Error::TooExpensive`] for work beyond the limits.
pub fn compute_columns<P: Probability>(
    settings: &[(P, P)],
    height: u32,
) -> Result<Vec<DecisionColumn<P>>> {
    compute_columns_with_progress(settings, height, &|| {})
}

/// [`compute_columns`], calling `done` (from the worker threads) each time a setting's column
/// is finished, e.g. to advance a progress bar.
///
/// # Examples
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use pathology::analytic::dgame::table::compute_columns_with_progress;
/// let finished = AtomicUsize::new(0);
/// let done = || {
///     finished.fetch_add(1, Ordering::Relaxed);
/// };
/// let columns = compute_columns_with_progress(&[(0.1, 0.1), (0.9, 0.9)], 10, &done).unwrap();
/// assert_eq!((columns.len(), finished.load(Ordering::Relaxed)), (2, 2));
/// ```
///
/// # Errors
///
/// As [`compute_columns`].
pub fn compute_columns_with_progress<P: Probability>(
    settings: &[(P, P)],
    height: u32,
    done: &(dyn Fn() + Sync),
) -> Result<Vec<DecisionColumn<P>>> {
    let mut columns = Vec::with_capacity(settings.len());
    compute_columns_in_order(settings, height, done, |_, column| {
        columns.push(column);
        Ok::<(), Error>(())
    })?;
    Ok(columns)
}

/// [`compute_columns_with_progress`], handing each column to `emit` as soon as it and every
/// column before it are finished, in the order of `settings` (so that a caller can print a
/// row per setting while the others are computed). The columns are computed in parallel;
/// `emit` runs on one thread at a time. The first error, of a column or of `emit`, stops the
/// settings not yet started and is returned.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::table::compute_columns_in_order;
/// let mut seen = Vec::new();
/// compute_columns_in_order(&[(0.1, 0.1), (0.5, 0.5), (0.9, 0.9)], 8, &|| {}, |i, column| {
///     seen.push((i, column.height));
///     Ok::<(), pathology::Error>(())
/// })
/// .unwrap();
/// assert_eq!(seen, vec![(0, 8), (1, 8), (2, 8)]);
/// ```
///
/// # Errors
///
/// As [`compute_columns`], and `emit`'s error.
pub fn compute_columns_in_order<P, E, F>(
    settings: &[(P, P)],
    height: u32,
    done: &(dyn Fn() + Sync),
    emit: F,
) -> std::result::Result<(), E>
where
    P: Probability,
    E: From<Error> + Send,
    F: FnMut(usize, DecisionColumn<P>) -> std::result::Result<(), E> + Send,
{
    check_columns_cost(settings, height)?;
    let factors: Vec<DependenceFactors<P>> = settings
        .iter()
        .map(|(a, b)| DependenceFactors::new(a.clone(), b.clone()))
        .collect::<Result<_>>()?;
    struct Ordered<P, E, F> {
        next: usize,
        waiting: std::collections::BTreeMap<usize, DecisionColumn<P>>,
        emit: F,
        failed: Option<E>,
    }
    let state = std::sync::Mutex::new(Ordered {
        next: 0,
        waiting: std::collections::BTreeMap::new(),
        emit,
        failed: None,
    });
    let failed = std::sync::atomic::AtomicBool::new(false);
    factors.into_par_iter().enumerate().for_each(|(i, f)| {
        use std::sync::atomic::Ordering::Relaxed;
        if failed.load(Relaxed) {
            return;
        }
        let column = Solver::new(f).decision_column(height);
        done();
        let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
        if state.failed.is_some() {
            return;
        }
        match column {
            Err(e) => {
                state.failed = Some(e.into());
                failed.store(true, Relaxed);
            }
            Ok(column) => {
                state.waiting.insert(i, column);
                loop {
                    let next = state.next;
                    let Some(column) = state.waiting.remove(&next) else {
                        break;
                    };
                    if let Err(e) = (state.emit)(next, column) {
                        state.failed = Some(e);
                        failed.store(true, Relaxed);
                        break;
                    }
                    state.next += 1;
                }
            }
        }
    });
    let state = state.into_inner().unwrap_or_else(|e| e.into_inner());
    match state.failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Estimated wall seconds of `settings` columns of `seconds` each (the single-column estimate
/// of [`check_cost`]) run one per thread on `threads` threads.
///
/// A float column runs on one core, so the settings go in rounds of `threads`. An exact column
/// already spreads its transforms and back-up products over every core, in about 1/1.45 of
/// its one-core time on 2 cores; settings in parallel only recover that loss, so
/// the total is the sum of the columns' core time shared by the threads (measured: 11 settings
/// at h = 15 in 63.8 s where one takes 8.0 s).
fn sweep_seconds(seconds: f64, settings: usize, threads: usize, exact: bool) -> f64 {
    let settings = settings.max(1);
    if exact {
        const ONE_CORE_PER_ALL_CORES: f64 = 1.5;
        let shared = seconds * ONE_CORE_PER_ALL_CORES * settings as f64 / threads as f64;
        shared.max(seconds)
    } else {
        seconds * settings.div_ceil(threads) as f64
    }
}

/// Refuses settings whose columns would exceed the limits of [`check_cost`], one at a time
/// and all of them on the available threads; announces the estimate otherwise.
fn check_columns_cost<P: Probability>(settings: &[(P, P)], height: u32) -> Result<()> {
    super::distribution::check_depth(1, height)?;
    let cost = check_cost(height, denominator_bits(settings))?;
    // The settings run in parallel, one per thread: the whole run has to fit in the same
    // limit as one computation (a minute), as every analytic command's does.
    let threads = rayon::current_num_threads().max(1);
    let exact = denominator_bits(settings).is_some();
    let total = sweep_seconds(cost.seconds, settings.len(), threads, exact);
    let in_flight = settings.len().clamp(1, threads) as f64;
    let sweep = Cost {
        seconds: total,
        bytes: cost.bytes * in_flight,
    };
    if sweep.exceeds_limits() {
        let mode = if exact { "exact" } else { "f64" };
        let hint = if exact {
            "Use fewer settings (a larger --step), the f64 mode (drop --exact) or a smaller height."
        } else {
            "Use fewer settings (a larger --step) or a smaller height."
        };
        return Err(sweep.refusal(
            format!(
                "{} settings at height {height} in {mode} mode on {threads} thread{}",
                settings.len(),
                if threads == 1 { "" } else { "s" }
            ),
            hint,
        ));
    }
    crate::budget::announce_estimate(
        &format!("{} settings at height {height}", settings.len()),
        total,
    );
    Ok(())
}

/// How the second dependence factor of a sweep is chosen.
#[derive(Debug, Clone, PartialEq)]
pub enum SecondFactor<P> {
    /// `f2 = f1`.
    Equal,
    /// A fixed `f2`.
    Fixed(P),
    /// `f2` from `f1` and `p0` by Theorem 3.1.
    FromP0(P),
}

impl<P> SecondFactor<P> {
    /// `f2` as the command line gives it: fixed by `--f2`, else from `--p0` by Theorem 3.1,
    /// else `f1`.
    pub fn given(f2: Option<P>, p0: Option<P>) -> Self {
        match (f2, p0) {
            (Some(f2), _) => SecondFactor::Fixed(f2),
            (None, Some(p0)) => SecondFactor::FromP0(p0),
            (None, None) => SecondFactor::Equal,
        }
    }
}

/// The (f1, f2) settings of a sweep: `f1 = from, from + step, ...` up to and including `to`
/// (exact steps), with `f2` chosen by `second`.
///
/// # Examples
///
/// ```
/// use pathology::analytic::dgame::table::{SecondFactor, sweep_settings};
/// use pathology::numeric::number::parse_rational;
/// let q = |s: &str| parse_rational(s).unwrap();
/// let settings = sweep_settings(&q("0.1"), &q("0.3"), &q("0.1"), &SecondFactor::Equal).unwrap();
/// assert_eq!(settings, vec![(q("0.1"), q("0.1")), (q("0.2"), q("0.2")), (q("0.3"), q("0.3"))]);
/// let fixed = sweep_settings(&q("0"), &q("1"), &q("1/2"), &SecondFactor::Fixed(q("0.7"))).unwrap();
/// assert_eq!(fixed.len(), 3);
/// assert!(sweep_settings(&q("0.1"), &q("0.3"), &q("0"), &SecondFactor::Equal).is_err());
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] when `step <= 0`, `from > to`, a factor falls outside `[0, 1]`,
/// or the sweep would have more than 100,000 points.
pub fn sweep_settings(
    from: &BigRational,
    to: &BigRational,
    step: &BigRational,
    second: &SecondFactor<BigRational>,
) -> Result<Vec<(BigRational, BigRational)>> {
    let zero = BigRational::from_integer(0.into());
    if *step <= zero {
        return Err(Error::invalid("--step", "greater than 0", step));
    }
    if from > to {
        return Err(Error::invalid(
            "--from",
            &format!("at most --to ({to})"),
            from,
        ));
    }
    super::check_unit("--from", from)?;
    super::check_unit("--to", to)?;
    let points = ((to - from) / step).floor().to_integer() + 1;
    if points > 100_000.into() {
        return Err(Error::invalid(
            "--step",
            "large enough for at most 100000 points between --from and --to",
            step,
        ));
    }
    let mut out = Vec::new();
    let mut f1 = from.clone();
    while f1 <= *to {
        let f2 = match second {
            SecondFactor::Equal => f1.clone(),
            SecondFactor::Fixed(f2) => {
                super::check_unit("--f2", f2)?;
                f2.clone()
            }
            SecondFactor::FromP0(p0) => f2_from_p0(&f1, p0)?,
        };
        out.push((f1.clone(), f2));
        f1 += step;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;

    #[test]
    fn settings_match_the_paper() {
        let one = PaperTable::One.settings();
        assert_eq!(one.len(), 9);
        assert_eq!(
            one[2],
            (
                parse_rational("0.3").unwrap(),
                parse_rational("0.3").unwrap()
            )
        );
        let two = PaperTable::Two.settings();
        assert_eq!(
            two[0],
            (
                parse_rational("0.1").unwrap(),
                parse_rational("0.9").unwrap()
            )
        );
        assert!(PaperTable::from_number(3).is_err());
    }

    #[test]
    fn sweep_steps_are_exact_and_inclusive() {
        let q = |s| parse_rational(s).unwrap();
        let s = sweep_settings(&q("0.1"), &q("0.3"), &q("0.1"), &SecondFactor::Equal).unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[2].0, q("3/10"));
        let s =
            sweep_settings(&q("0"), &q("1"), &q("1/3"), &SecondFactor::FromP0(q("0.5"))).unwrap();
        assert_eq!(s.len(), 4);
        assert_eq!(s[0].1, q("1/3"));
        assert!(sweep_settings(&q("0.5"), &q("0.1"), &q("0.1"), &SecondFactor::Equal).is_err());
        assert!(sweep_settings(&q("0"), &q("1"), &q("0"), &SecondFactor::Equal).is_err());
        assert!(sweep_settings(&q("0"), &q("1"), &q("0.1"), &SecondFactor::Fixed(q("2"))).is_err());
    }

    #[test]
    fn exact_denominator_bits_follow_the_settings() {
        let q = |s| parse_rational(s).unwrap();
        let bits = denominator_bits(&[(q("0.1"), q("0.25"))]).unwrap();
        assert!((bits - 20f64.log2()).abs() < 1e-9);
        assert_eq!(denominator_bits::<f64>(&[(0.1, 0.2)]), None);
    }
}
