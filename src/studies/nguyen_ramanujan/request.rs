//! `pathology mc uct` as the command asks for it: the options as given (`None`: not given,
//! the default), checked against each other, turned into a [`UctStudySpec`], refused up front
//! when too expensive ([`check_budget`]), run, and returned as the report of
//! [`super::report`] with the exact minimax lines of [`super::exact`].
//!
//! Defaults: the critical game (`crit`) with b = 2, H = 50 and gamma = 1 (P- and N-games:
//! H = 10 and the family's default probability, w_b or 1/2), the Gaussian evaluator with
//! sigma = 0.25 (the authors' default; the artificial evaluator's e = 0.1), the paper's
//! exploration constants c in {0.001, 0.01, 0.1, 1, 10, 10^6}, decisions after 1, 10, 100 and
//! 1000 iterations, by the mean. An option of another game (`--gamma` with `--game p`, `--p`
//! with `--game crit`) or of another evaluator (`--sigma`, `--error`, `--histogram`) is refused
//! naming both. `--evaluator histogram` needs `--histogram FILE` (rows
//! `value,evaluation[,weight]`, true values `1` and `-1`, read as `decision` reads it); a
//! manifest's `--histogram-fnv1a64` refuses a file that has changed since.

use super::exact::fill_exact_minimax;
use super::report::report_from_counts;
use super::study::{
    UctEvaluator, UctGame, UctHistogram, UctStudySpec, board_kind, check_budget, run_counts,
};
use crate::error::{Error, Result};
use crate::report::Report;
use crate::search::uct::{FinalMove, MAX_ITERATIONS};
use crate::sim::level_tree::BoardSpec;
use crate::sim::report::RunConfig;

/// The paper's exploration constants (the authors' `c_values`).
pub const PAPER_C: [f64; 6] = [0.001, 0.01, 0.1, 1.0, 10.0, 1e6];

/// The default iteration grid of `mc uct`.
pub const DEFAULT_ITERATIONS: [u64; 4] = [1, 10, 100, 1000];

/// The options of `mc uct` as given.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UctRequest {
    /// `crit`, `p` or `n` (default `crit`).
    pub game: Option<String>,
    /// b (default 2).
    pub branching: Option<u32>,
    /// H (default 50 for `crit`, 10 for boards).
    pub height: Option<u32>,
    /// `G` or `G_MAX,G_MIN`, the critical rates (`crit` only; default 1).
    pub gamma: Option<String>,
    /// The square (P) or edge (N) probability (boards only; default w_b or 1/2).
    pub p: Option<f64>,
    /// `perfect`, `gaussian`, `expected-playout`, `random-playout`, `artificial` or
    /// `histogram` (default `gaussian`).
    pub evaluator: Option<String>,
    /// sigma of the Gaussian evaluator (default 0.25).
    pub sigma: Option<f64>,
    /// e of the artificial evaluator (default 0.1).
    pub error: Option<f64>,
    /// The exploration constants, comma-separated (default the paper's six).
    pub c: Option<String>,
    /// The iteration grid, comma-separated (default 1,10,100,1000).
    pub iterations: Option<String>,
    /// `mean` or `visits` (default `mean`).
    pub final_move: Option<String>,
    /// The histogram evaluator's CSV file (with `--evaluator histogram` only).
    pub histogram: Option<std::path::PathBuf>,
    /// The file's expected FNV-1a 64 hash, as a manifest prints it (with `--histogram` only).
    pub histogram_fnv1a64: Option<String>,
}

/// A comma-separated list of numbers; `option` names it in the error.
///
/// # Examples
///
/// ```
/// use pathology::studies::nguyen_ramanujan::request::parse_numbers;
/// assert_eq!(parse_numbers("0.1, 1,1e6", "--c").unwrap(), vec![0.1, 1.0, 1e6]);
/// assert!(parse_numbers("1,x", "--c").unwrap_err().to_string().starts_with("--c"));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `option`.
pub fn parse_numbers(text: &str, option: &str) -> Result<Vec<f64>> {
    text.split(',')
        .map(|v| {
            crate::numeric::arguments::real(v).map_err(|e| {
                Error::invalid(option, &format!("comma-separated numbers ({e})"), text)
            })
        })
        .collect()
}

/// An iteration grid: comma-separated whole numbers, `1e5` allowed.
///
/// # Examples
///
/// ```
/// use pathology::studies::nguyen_ramanujan::request::parse_iterations;
/// assert_eq!(parse_iterations("1,10,1e5").unwrap(), vec![1, 10, 100_000]);
/// assert!(parse_iterations("1,2.5").is_err());
/// assert!(parse_iterations("10,1").unwrap_err().to_string().starts_with("--iterations"));
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--iterations` unless the counts are increasing whole
/// numbers in `1..=2^31 - 1`.
pub fn parse_iterations(text: &str) -> Result<Vec<u64>> {
    let bad = || {
        Error::invalid(
            "--iterations",
            &format!(
                "comma-separated increasing whole numbers {}",
                crate::numeric::arguments::whole_range(1, MAX_ITERATIONS)
            ),
            text,
        )
    };
    let grid = text
        .split(',')
        .map(|v| {
            let v = v.trim();
            v.parse::<u64>().ok().or_else(|| {
                let x = v.parse::<f64>().ok()?;
                (x.fract() == 0.0 && (1.0..=MAX_ITERATIONS as f64).contains(&x)).then_some(x as u64)
            })
        })
        .collect::<Option<Vec<u64>>>()
        .ok_or_else(bad)?;
    crate::search::uct::check_iterations(&grid).map_err(|_| bad())?;
    Ok(grid)
}

/// The iteration counts `round(10^(k / per_decade))` from 1 to `last` (itself included), with
/// repeats removed: the log grid of the study.
///
/// # Examples
///
/// ```
/// use pathology::studies::nguyen_ramanujan::request::log_grid;
/// assert_eq!(log_grid(1000, 2), vec![1, 3, 10, 32, 100, 316, 1000]);
/// assert_eq!(log_grid(10, 4), vec![1, 2, 3, 6, 10]);
/// ```
pub fn log_grid(last: u64, per_decade: u32) -> Vec<u64> {
    let mut grid: Vec<u64> = Vec::new();
    for k in 0.. {
        let n = 10f64.powf(f64::from(k) / f64::from(per_decade)).round() as u64;
        if n >= last {
            break;
        }
        if grid.last() != Some(&n) {
            grid.push(n);
        }
    }
    grid.push(last);
    grid
}

impl UctRequest {
    /// The spec the options ask for (without the exact lines).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::nguyen_ramanujan::request::UctRequest;
    /// let spec = UctRequest::default().spec().unwrap();
    /// assert_eq!((spec.game.name(), spec.game.branching(), spec.game.height()), ("crit", 2, 50));
    /// assert_eq!(spec.exploration.len(), 6);
    /// let p = UctRequest { game: Some("p".into()), gamma: Some("0.9".into()), ..Default::default() };
    /// assert_eq!(p.spec().unwrap_err().to_string(), "--gamma must be given only with --game crit, got --game p");
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the option: one of another game or evaluator (and
    /// the `--game` or `--evaluator` given), or a value out of range
    /// ([`UctStudySpec::new`], [`BoardSpec::new`]).
    pub fn spec(&self) -> Result<UctStudySpec> {
        let game_name = self.game.as_deref().unwrap_or("crit");
        let kind = board_kind(game_name)?;
        let only = |option: &str, given: bool, allowed: &str, got: String| {
            if given {
                Err(Error::invalid(
                    option,
                    &format!("given only with {allowed}"),
                    got,
                ))
            } else {
                Ok(())
            }
        };
        let branching = self.branching.unwrap_or(2);
        let game = match kind {
            None => {
                only(
                    "--p",
                    self.p.is_some(),
                    "--game p or n",
                    format!("--game {game_name}"),
                )?;
                let gamma = parse_numbers(self.gamma.as_deref().unwrap_or("1"), "--gamma")?;
                let (gamma_max, gamma_min) = match gamma[..] {
                    [g] => (g, g),
                    [g, h] => (g, h),
                    _ => {
                        return Err(Error::invalid(
                            "--gamma",
                            "G or G_MAX,G_MIN",
                            self.gamma.as_deref().unwrap_or_default(),
                        ));
                    }
                };
                UctGame::Critical {
                    branching,
                    height: self.height.unwrap_or(50),
                    gamma_max,
                    gamma_min,
                }
            }
            Some(kind) => {
                only(
                    "--gamma",
                    self.gamma.is_some(),
                    "--game crit",
                    format!("--game {game_name}"),
                )?;
                let p = kind.parameter_or_default(branching, self.p)?;
                UctGame::Board(BoardSpec::new(
                    kind,
                    branching,
                    self.height.unwrap_or(10),
                    p,
                )?)
            }
        };
        let evaluator = UctEvaluator::parse(self.evaluator.as_deref().unwrap_or("gaussian"))?;
        let got = format!("--evaluator {}", evaluator.name());
        only(
            "--sigma",
            self.sigma.is_some() && evaluator != UctEvaluator::Gaussian,
            "--evaluator gaussian",
            got.clone(),
        )?;
        only(
            "--error",
            self.error.is_some() && evaluator != UctEvaluator::Artificial,
            "--evaluator artificial",
            got.clone(),
        )?;
        only(
            "--histogram",
            self.histogram.is_some() && evaluator != UctEvaluator::Histogram,
            "--evaluator histogram",
            got,
        )?;
        only(
            "--histogram-fnv1a64",
            self.histogram_fnv1a64.is_some() && self.histogram.is_none(),
            "--histogram (the file's expected hash)",
            "no --histogram".to_string(),
        )?;
        let sigma = match evaluator {
            UctEvaluator::Gaussian => self.sigma.unwrap_or(0.25),
            _ => 0.0,
        };
        let exploration = match &self.c {
            Some(text) => parse_numbers(text, "--c")?,
            None => PAPER_C.to_vec(),
        };
        let iterations = match &self.iterations {
            Some(text) => parse_iterations(text)?,
            None => DEFAULT_ITERATIONS.to_vec(),
        };
        let mut spec = match &self.histogram {
            Some(file) => UctStudySpec::with_histogram(
                game,
                UctHistogram::read(file, self.histogram_fnv1a64.as_deref())?,
                exploration,
                iterations,
            )?,
            None => UctStudySpec::new(game, evaluator, sigma, exploration, iterations)?,
        };
        if evaluator == UctEvaluator::Artificial {
            spec.error = self.error.unwrap_or(0.1);
        }
        spec.final_move = FinalMove::parse(self.final_move.as_deref().unwrap_or("mean"))?;
        spec.check()?;
        Ok(spec)
    }

    /// Runs the study on `config.trials` games (its shard's, if sharded) and returns its
    /// report, with the exact minimax lines.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::report::RunConfig;
    /// use pathology::studies::nguyen_ramanujan::request::UctRequest;
    /// let request = UctRequest { height: Some(12), c: Some("1".into()), iterations: Some("1,30".into()),
    ///                            ..Default::default() };
    /// let config = RunConfig { trials: 20, seed: 1, threads: Some(1), shard: None };
    /// let report = request.run(&config).unwrap();
    /// assert_eq!(report.manifest.command, "mc uct");
    /// assert_eq!(report.table("estimates").unwrap().rows.len(), 2);
    /// assert_eq!(report.table("minimax").unwrap().rows.len(), 8);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`UctRequest::spec`], [`check_budget`] (refused up front, naming `--games` or
    /// `--iterations`) and [`run_counts`].
    pub fn run(&self, config: &RunConfig) -> Result<Report> {
        let mut spec = self.spec()?;
        let runner = config.runner("mc uct")?.counting("games");
        check_budget(&spec, &runner)?;
        fill_exact_minimax(&mut spec)?;
        let counts = run_counts(&spec, &runner)?;
        Ok(report_from_counts(&spec, &config.run(), &counts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(pairs: &[(&str, &str)]) -> UctRequest {
        let mut r = UctRequest::default();
        for &(k, v) in pairs {
            let s = Some(v.to_string());
            match k {
                "game" => r.game = s,
                "gamma" => r.gamma = s,
                "p" => r.p = Some(v.parse().unwrap()),
                "evaluator" => r.evaluator = s,
                "sigma" => r.sigma = Some(v.parse().unwrap()),
                "error" => r.error = Some(v.parse().unwrap()),
                "height" => r.height = Some(v.parse().unwrap()),
                "iterations" => r.iterations = s,
                "histogram" => r.histogram = Some(v.into()),
                "histogram_fnv1a64" => r.histogram_fnv1a64 = s,
                _ => panic!("{k}"),
            }
        }
        r
    }

    #[test]
    fn options_of_another_game_or_evaluator_are_refused_naming_both() {
        for (pairs, message) in [
            (
                &[("game", "n"), ("gamma", "1")][..],
                "--gamma must be given only with --game crit, got --game n",
            ),
            (
                &[("p", "0.4")][..],
                "--p must be given only with --game p or n, got --game crit",
            ),
            (
                &[("evaluator", "perfect"), ("sigma", "1")][..],
                "--sigma must be given only with --evaluator gaussian, got --evaluator perfect",
            ),
            (
                &[("error", "0.2")][..],
                "--error must be given only with --evaluator artificial, got --evaluator gaussian",
            ),
            (
                &[("histogram", "h.csv")][..],
                "--histogram must be given only with --evaluator histogram, got --evaluator gaussian",
            ),
            (
                &[("evaluator", "histogram")][..],
                "--histogram must be given with --evaluator histogram (a CSV file), got nothing",
            ),
            (
                &[("evaluator", "histogram"), ("histogram_fnv1a64", "00")][..],
                "--histogram-fnv1a64 must be given only with --histogram (the file's expected \
                 hash), got no --histogram",
            ),
            (
                &[
                    ("evaluator", "histogram"),
                    ("histogram", "/nonexistent/h.csv"),
                ][..],
                "--histogram must be a readable UTF-8 CSV file, got /nonexistent/h.csv (No such \
                 file or directory (os error 2))",
            ),
        ] {
            assert_eq!(request(pairs).spec().unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn defaults_and_values() {
        let spec = request(&[("game", "p"), ("evaluator", "artificial"), ("error", "0.2")])
            .spec()
            .unwrap();
        assert_eq!((spec.game.height(), spec.error), (10, 0.2));
        let spec = request(&[("gamma", "0.9,0.8"), ("iterations", "1,1e3")])
            .spec()
            .unwrap();
        assert_eq!(
            spec.game,
            UctGame::Critical {
                branching: 2,
                height: 50,
                gamma_max: 0.9,
                gamma_min: 0.8
            }
        );
        assert_eq!(spec.iterations, vec![1, 1000]);
        assert!(
            request(&[("gamma", "1,1,1")])
                .spec()
                .unwrap_err()
                .to_string()
                .starts_with("--gamma")
        );
        assert!(
            request(&[("evaluator", "artificial"), ("error", "2")])
                .spec()
                .unwrap_err()
                .to_string()
                .starts_with("--error")
        );
    }
}
