//! Estimates from Monte Carlo trials: a proportion with its 95% Wilson score interval and a
//! z-score against an exact value, and a mean with a normal interval.
//!
//! Wilson interval (Wilson 1927) for `k` successes in `n` trials, `p = k/n`, `z = 1.96`:
//! `(p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)`. The z-score against an exact
//! probability `p0` uses the exact standard error: `(p - p0) / sqrt(p0 (1 - p0) / n)`.

use num_bigint::BigInt;
use num_rational::BigRational;
use serde::Serialize;

use crate::numeric::number::rational_to_f64;

/// The score statistic of an estimated proportion against the exact value `p`:
/// `(estimate - p) / sqrt(p (1 - p) / trials)`, the variance taken under the null hypothesis;
/// 0 when they are equal and infinite when `p` is 0 or 1 and the estimate differs (an event
/// of probability 0 that happened, or of probability 1 that failed: a certain disagreement).
/// A tiny `p` whose variance underflows (`p` = 1e-320) keeps its finite statistic.
///
/// # Examples
///
/// ```
/// use pathology::sim::stats::proportion_z;
/// assert!((proportion_z(0.54, 0.5, 1000) - 2.5298).abs() < 1e-4);
/// assert_eq!(proportion_z(1.0, 1.0, 10), 0.0);
/// assert_eq!(proportion_z(0.9, 1.0, 10), f64::NEG_INFINITY);
/// assert_eq!(proportion_z(0.0, 0.0, 20000), 0.0);
/// assert_eq!(proportion_z(0.5, 0.0, 20000), f64::INFINITY);
/// // Not 0 but 4.9e-324, observed never in 20000 trials: agreement, not z = -inf.
/// assert!(proportion_z(0.0, 4.9e-324, 20000).abs() < 1e-100);
/// ```
pub fn proportion_z(estimate: f64, exact: f64, trials: u64) -> f64 {
    let difference = estimate - exact;
    let variance = exact * (1.0 - exact) / trials as f64;
    if difference == 0.0 {
        0.0
    } else if variance >= f64::MIN_POSITIVE {
        difference / variance.sqrt()
    } else if exact > 0.0 && exact < 1.0 {
        // The variance underflows: its square root taken factor by factor.
        difference / (exact.sqrt() * ((1.0 - exact) / trials as f64).sqrt())
    } else {
        difference.signum() * f64::INFINITY
    }
}

/// The two-sided normal p-value of a score statistic, `2 (1 - Phi(|z|)) = erfc(|z| / sqrt 2)`
/// (`libm`'s erfc, accurate in the far tails); 0 for an infinite z.
///
/// # Examples
///
/// ```
/// use pathology::sim::stats::two_sided_p;
/// assert!((two_sided_p(1.959963984540054) - 0.05).abs() < 1e-9);
/// assert_eq!(two_sided_p(0.0), 1.0);
/// assert_eq!(two_sided_p(f64::INFINITY), 0.0);
/// ```
pub fn two_sided_p(z: f64) -> f64 {
    libm::erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// Holm's step-down adjusted p-values, in the order given: sort the m p-values, adjust the
/// i-th smallest to `max_{j <= i} min(1, (m - j + 1) p_(j))`. A hypothesis is rejected at
/// family-wise error rate alpha where its adjusted value is at most alpha.
///
/// # Examples
///
/// ```
/// use pathology::sim::stats::holm_adjusted;
/// let adjusted = holm_adjusted(&[0.01, 0.04, 0.03]);
/// // 3 x 0.01, then max(3 x 0.01, 2 x 0.03), then max(2 x 0.03, 1 x 0.04).
/// for (a, b) in adjusted.iter().zip([0.03, 0.06, 0.06]) {
///     assert!((a - b).abs() < 1e-15, "{adjusted:?}");
/// }
/// ```
pub fn holm_adjusted(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]).then(a.cmp(&b)));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p_values[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// The two-sided 95% normal quantile.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Each tail of the 95% intervals: 0.025.
pub const TAIL_95: f64 = 0.025;

/// An estimate compared with an exact value: what experiments report.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Comparison {
    /// The estimate.
    pub estimate: f64,
    /// Lower end of the 95% interval.
    pub ci_low: f64,
    /// Upper end of the 95% interval.
    pub ci_high: f64,
    /// The exact value, when known.
    pub exact: Option<f64>,
    /// `(estimate - exact) / standard error`; infinite (`null` in JSON) when the exact
    /// value has no variance but the estimate differs from it.
    pub z: Option<f64>,
}

impl Comparison {
    /// The CSV cells `estimate, ci_low, ci_high, exact, z` (empty when unknown or infinite).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::stats::Proportion;
    /// let c = Proportion { successes: 540, trials: 1000 }.compare(Some(0.5));
    /// let cells = c.csv_cells();
    /// assert_eq!((cells[0].as_str(), cells[3].as_str()), ("0.54", "0.5"));
    /// assert!(cells[4].starts_with("2.529"));
    /// ```
    pub fn csv_cells(&self) -> [String; 5] {
        let optional = |x: Option<f64>| x.map_or_else(String::new, |x| x.to_string());
        [
            self.estimate.to_string(),
            self.ci_low.to_string(),
            self.ci_high.to_string(),
            optional(self.exact),
            optional(self.z),
        ]
    }
}

/// Successes out of trials (a Bernoulli estimate).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Proportion {
    /// Trials that succeeded.
    pub successes: u64,
    /// Trials.
    pub trials: u64,
}

impl Proportion {
    /// Records one trial.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::stats::Proportion;
    /// let mut p = Proportion::default();
    /// for success in [true, false, true] {
    ///     p.record(success);
    /// }
    /// assert_eq!(p, Proportion { successes: 2, trials: 3 });
    /// ```
    pub fn record(&mut self, success: bool) {
        self.trials += 1;
        self.successes += u64::from(success);
    }

    /// The estimate `k/n` (0 when there were no trials).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::stats::Proportion;
    /// assert_eq!(Proportion { successes: 3, trials: 4 }.estimate(), 0.75);
    /// assert_eq!(Proportion::default().estimate(), 0.0);
    /// ```
    pub fn estimate(&self) -> f64 {
        if self.trials == 0 {
            0.0
        } else {
            self.successes as f64 / self.trials as f64
        }
    }

    /// The Wilson score interval at normal quantile `z`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::stats::{Proportion, Z_95};
    /// let p = Proportion { successes: 0, trials: 10 };
    /// let (low, high) = p.wilson_interval(Z_95);
    /// assert_eq!(low, 0.0);
    /// assert!((high - 0.2775).abs() < 1e-4); // never the degenerate [0, 0]
    /// ```
    pub fn wilson_interval(&self, z: f64) -> (f64, f64) {
        crate::report::claims::wilson_interval(self.successes, self.trials, z)
    }

    /// The z-score of the estimate against the exact probability `exact`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::stats::Proportion;
    /// let p = Proportion { successes: 540, trials: 1000 };
    /// assert!((p.z_score(0.5) - 2.5298).abs() < 1e-4);
    /// ```
    pub fn z_score(&self, exact: f64) -> f64 {
        proportion_z(self.estimate(), exact, self.trials)
    }

    /// The estimate, its 95% Wilson interval and, given an exact value, the z-score.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::stats::Proportion;
    /// let c = Proportion { successes: 50, trials: 100 }.compare(Some(0.5));
    /// assert_eq!((c.estimate, c.z), (0.5, Some(0.0)));
    /// assert!((c.ci_low - 0.4038).abs() < 1e-4 && (c.ci_high - 0.5962).abs() < 1e-4);
    /// assert_eq!(Proportion { successes: 50, trials: 100 }.compare(None).z, None);
    /// ```
    pub fn compare(&self, exact: Option<f64>) -> Comparison {
        let (ci_low, ci_high) = self.wilson_interval(Z_95);
        Comparison {
            estimate: self.estimate(),
            ci_low,
            ci_high,
            exact,
            z: exact.map(|e| self.z_score(e)),
        }
    }
}

/// A running mean with its sample variance (sums in the order values are added).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Mean {
    count: u64,
    sum: f64,
    sum_of_squares: f64,
}

impl Mean {
    /// Adds one value.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::stats::Mean;
    /// let mut m = Mean::default();
    /// m.record(2.0);
    /// m.record(4.0);
    /// assert_eq!(m.estimate(), 3.0);
    /// ```
    pub fn record(&mut self, value: f64) {
        self.count += 1;
        self.sum += value;
        self.sum_of_squares += value * value;
    }

    /// The sample mean.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::stats::Mean;
    /// let mut m = Mean::default();
    /// assert_eq!(m.estimate(), 0.0); // no values yet
    /// for v in [1.0, 2.0, 6.0] {
    ///     m.record(v);
    /// }
    /// assert_eq!(m.estimate(), 3.0);
    /// ```
    pub fn estimate(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum / self.count as f64
        }
    }

    /// The standard error of the mean (sample standard deviation over sqrt n).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::stats::Mean;
    /// let mut m = Mean::default();
    /// m.record(1.0);
    /// assert_eq!(m.standard_error(), 0.0); // undefined for one value: 0
    /// for v in [2.0, 3.0, 4.0] {
    ///     m.record(v);
    /// }
    /// // Sample variance 5/3, over n = 4.
    /// assert!((m.standard_error() - (5.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-15);
    /// ```
    pub fn standard_error(&self) -> f64 {
        if self.count < 2 {
            return 0.0;
        }
        let n = self.count as f64;
        let variance = ((self.sum_of_squares - self.sum * self.sum / n) / (n - 1.0)).max(0.0);
        (variance / n).sqrt()
    }

    /// The mean, a 95% normal interval and, given an exact value, the z-score.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::stats::Mean;
    /// let mut m = Mean::default();
    /// for v in [1.0, 2.0, 3.0, 4.0] { m.record(v); }
    /// let c = m.compare(Some(2.5));
    /// assert_eq!((c.estimate, c.z), (2.5, Some(0.0)));
    /// ```
    pub fn compare(&self, exact: Option<f64>) -> Comparison {
        let se = self.standard_error();
        let estimate = self.estimate();
        Comparison {
            estimate,
            ci_low: estimate - Z_95 * se,
            ci_high: estimate + Z_95 * se,
            exact,
            z: exact.map(|e| {
                let d = estimate - e;
                if d == 0.0 {
                    0.0
                } else if se > 0.0 {
                    d / se
                } else {
                    d.signum() * f64::INFINITY
                }
            }),
        }
    }

    /// [`Mean::compare`] for values that lie in [0, 1] (probabilities). When every value is 0
    /// (or every value is 1) the normal interval has zero width, which no finite sample
    /// justifies; the Clopper-Pearson interval of 0 (or n) successes in n trials,
    /// `[0, 1 - 0.025^(1/n)]` (or its mirror), is given instead. It is a valid 95% interval
    /// for the mean of any values in [0, 1]: a value is above 0 with probability at least
    /// the mean, so all n are 0 with probability at most `(1 - mean)^n`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::stats::Mean;
    /// let mut m = Mean::default();
    /// for _ in 0..2000 { m.record(0.0); }
    /// let c = m.compare_unit(Some(0.0));
    /// assert_eq!((c.estimate, c.ci_low, c.z), (0.0, 0.0, Some(0.0)));
    /// assert!((c.ci_high - (1.0 - 0.025f64.powf(1.0 / 2000.0))).abs() < 1e-15);
    /// assert!((c.ci_high - 0.001843).abs() < 1e-6);
    /// ```
    pub fn compare_unit(&self, exact: Option<f64>) -> Comparison {
        let mut comparison = self.compare(exact);
        if self.count > 0 {
            let n = self.count as f64;
            let bound = 1.0 - TAIL_95.powf(1.0 / n);
            if self.sum == 0.0 {
                comparison.ci_low = 0.0;
                comparison.ci_high = bound;
            } else if self.sum == n {
                comparison.ci_low = 1.0 - bound;
                comparison.ci_high = 1.0;
            }
        }
        comparison
    }
}

/// The decimal places of a number as printed (`0.125` -> 3, `1.5e-3` -> 4, `7` -> 0), or
/// `None` for a fraction `a/b`.
///
/// # Examples
///
/// ```
/// use pathology::sim::stats::decimal_places;
/// assert_eq!(decimal_places("0.125"), Some(3));
/// assert_eq!(decimal_places("1.5e-3"), Some(4));
/// assert_eq!(decimal_places("1/3"), None);
/// ```
pub fn decimal_places(text: &str) -> Option<u32> {
    if text.contains('/') {
        return None;
    }
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i64>().unwrap_or(0)),
        None => (text, 0),
    };
    let places = mantissa.split_once('.').map_or(0, |(_, f)| f.len() as i64) - exponent;
    Some(places.clamp(0, 1000) as u32)
}

/// How far the value a number printed as `text` stands for may lie from it: half a unit of
/// its last decimal place (`0.5 * 10^-m`: numbers printed rounded to m decimals) plus `2^-52`
/// (a number printed as the shortest decimal of a double); 0 for a fraction `a/b`.
fn printed_tolerance(text: &str) -> BigRational {
    match decimal_places(text) {
        None => BigRational::from_integer(0.into()),
        Some(places) => {
            BigRational::new(
                1.into(),
                BigInt::from(10u32).pow(places) * BigInt::from(2u32),
            ) + BigRational::new(1.into(), BigInt::from(1u64 << 52))
        }
    }
}

/// Checks that an estimate printed as `text` (read exactly as `value`) is a proportion
/// `k / trials` for a whole k, as printed, and, given `successes`, that k is `successes`. The
/// one check of a printed estimate: `pathology validate` applies it to every row of a
/// user's results and `pathology merge` to every row of every shard.
///
/// A decimal with m places is accepted when some `k / trials` lies within half a unit of its
/// last place (`0.5 * 10^-m`: estimates printed rounded to a few decimals) plus `2^-52` (an
/// estimate printed as the shortest decimal of the double nearest `k / trials`); a fraction
/// `a/b` must equal some `k / trials` exactly.
///
/// # Examples
///
/// ```
/// use num_rational::BigRational;
/// use pathology::sim::stats::check_printed_proportion;
/// let third = BigRational::new(3333.into(), 10000.into());
/// assert!(check_printed_proportion("0.3333", &third, 3, Some(1)).is_ok());
/// assert!(check_printed_proportion("0.3333", &third, 3, Some(2)).is_err());
/// let six = BigRational::new(6.into(), 10.into());
/// assert!(check_printed_proportion("0.6", &six, 1, None).is_err());
/// ```
///
/// # Errors
///
/// What the estimate must be, in words, when it is not.
pub fn check_printed_proportion(
    text: &str,
    value: &BigRational,
    trials: u64,
    successes: Option<u64>,
) -> std::result::Result<(), String> {
    let tolerance = printed_tolerance(text);
    let n = BigRational::from_integer(trials.into());
    let off = |k: &BigRational| {
        let gap = value - k / &n;
        if gap < BigRational::from_integer(0.into()) {
            -gap
        } else {
            gap
        }
    };
    let nearest = (value * &n).round();
    if off(&nearest) > tolerance {
        return Err(format!(
            "estimate {text} is not k/{trials} for any whole k (the nearest is {}/{trials} = {}); \
             a proportion from {trials} trials must round to {text} at its printed precision",
            nearest.to_integer(),
            rational_to_f64(&(&nearest / &n))
        ));
    }
    if let Some(k) = successes {
        if k > trials {
            return Err(format!("successes {k} must be at most trials {trials}"));
        }
        if off(&BigRational::from_integer(k.into())) > tolerance {
            return Err(format!(
                "estimate {text} is not successes/trials = {k}/{trials}"
            ));
        }
    }
    Ok(())
}

/// Checks that a number printed as `text` is `value` as printed (to its decimals: half a
/// unit of its last place, plus 2^-52 relative for the shortest decimal of a double), or that
/// the cell is empty when `value` is `None`.
///
/// # Examples
///
/// ```
/// use pathology::sim::stats::check_printed_value;
/// assert!(check_printed_value("0.7225", Some(0.7224672001371107)).is_ok());
/// assert!(check_printed_value("0.7224672001371107", Some(0.7224672001371107)).is_ok());
/// assert!(check_printed_value("0.73", Some(0.7224672001371107)).is_err());
/// assert!(check_printed_value("", None).is_ok());
/// assert!(check_printed_value("0", None).is_err());
/// ```
///
/// # Errors
///
/// What the cell must hold, in words, when it does not.
pub fn check_printed_value(text: &str, value: Option<f64>) -> std::result::Result<(), String> {
    let text = text.trim();
    match value {
        None if text.is_empty() => Ok(()),
        None => Err("an empty cell".to_string()),
        Some(v) => {
            let printed: Option<f64> = text.parse().ok();
            let places = decimal_places(text).unwrap_or(17).min(300);
            let tolerance = 0.5 * 10f64.powi(-(places as i32)) * (1.0 + 1e-9)
                + 4.0 * f64::EPSILON * v.abs().max(1.0);
            match printed {
                Some(p) if (p - v).abs() <= tolerance => Ok(()),
                _ => Err(format!("{v}")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    const TOLERANCE: f64 = 1e-4;

    /// Reference values: Newcombe (1998), Table I, 81/263 -> (0.2553, 0.3662).
    #[test]
    fn wilson_interval_matches_newcombe() {
        let p = Proportion {
            successes: 81,
            trials: 263,
        };
        let (low, high) = p.wilson_interval(Z_95);
        assert_relative_eq!(low, 0.2553, epsilon = TOLERANCE);
        assert_relative_eq!(high, 0.3662, epsilon = TOLERANCE);
        let all = Proportion {
            successes: 29,
            trials: 29,
        };
        let (low, high) = all.wilson_interval(Z_95);
        assert_relative_eq!(low, 0.8830, epsilon = TOLERANCE);
        assert_eq!(high, 1.0);
        // All successes: the interval ends at exactly 1 (rounding once gave 1 - 2^-52).
        let all = Proportion {
            successes: 300,
            trials: 300,
        };
        assert_eq!(all.wilson_interval(Z_95).1, 1.0);
    }

    /// No successes (or no failures) give an interval that ends exactly at 0 (or 1).
    #[test]
    fn wilson_interval_contains_extreme_estimates() {
        for trials in [10, 1000, 30_000, 1 << 20] {
            let none = Proportion {
                successes: 0,
                trials,
            };
            assert_eq!(none.wilson_interval(Z_95).0, 0.0, "n = {trials}");
            let all = Proportion {
                successes: trials,
                trials,
            };
            assert_eq!(all.wilson_interval(Z_95).1, 1.0, "n = {trials}");
        }
    }

    #[test]
    fn z_scores_handle_certain_values() {
        let all = Proportion {
            successes: 10,
            trials: 10,
        };
        assert_eq!(all.z_score(1.0), 0.0);
        assert_eq!(all.z_score(0.0), f64::INFINITY);
        let c = all.compare(None);
        assert_eq!((c.estimate, c.z), (1.0, None));
    }
}
