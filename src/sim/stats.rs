//! Estimates from Monte Carlo trials: a proportion with its 95% Wilson score interval and a
//! z-score against an exact value, and a mean with a normal interval.
//!
//! Wilson interval (Wilson 1927) for `k` successes in `n` trials, `p = k/n`, `z = 1.96`:
//! `(p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)`. The z-score against an exact
//! probability `p0` uses the exact standard error: `(p - p0) / sqrt(p0 (1 - p0) / n)`.

use serde::Serialize;

/// The score statistic of an estimated proportion against the exact value `p`:
/// `(estimate - p) / sqrt(p (1 - p) / trials)`, the variance taken under the null hypothesis;
/// 0 when they are equal and infinite when `p` is 0 or 1 and the estimate differs.
///
/// # Examples
///
/// ```
/// use pathology::sim::stats::proportion_z;
/// assert!((proportion_z(0.54, 0.5, 1000) - 2.5298).abs() < 1e-4);
/// assert_eq!(proportion_z(1.0, 1.0, 10), 0.0);
/// assert_eq!(proportion_z(0.9, 1.0, 10), f64::NEG_INFINITY);
/// ```
pub fn proportion_z(estimate: f64, exact: f64, trials: u64) -> f64 {
    let difference = estimate - exact;
    let variance = exact * (1.0 - exact) / trials as f64;
    if difference == 0.0 {
        0.0
    } else if variance > 0.0 {
        difference / variance.sqrt()
    } else {
        difference.signum() * f64::INFINITY
    }
}

/// The two-sided 95% normal quantile.
pub const Z_95: f64 = 1.959_963_984_540_054;

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
