//! The distribution engines as the commands ask for them: one [`DistributionRequest`] (plain
//! data, the parameters as the user gave them, in exact rationals) for the critical game and
//! multi-valued P-games with any evaluation model, in `f64` or exact rationals. It builds
//! the engines' games and evaluations, computes the report ([`super::report`]) and writes the
//! manifest in the command line's own terms (`--game crit --gamma 0.9 --evaluator gaussian
//! --sigma 0.5`), so that the manifest's command regenerates the result. The Monte Carlo
//! cross-validation (`mc distributions`) and `validate` read the same request.

use std::path::PathBuf;

use num_rational::BigRational;

use super::{
    CriticalGame, Depths, Evaluation, Histogram, Model, MultiValuedPGame, Outcome, Playout,
    PlayoutFormula, critical_column, estimate_critical_cost, estimate_pgame_cost, pgame_column,
};
use crate::budget::Cost;
use crate::error::{Error, Result};
use crate::numeric::number::{Probability, short_text};
use crate::report::Report;

/// How the leaves of a P-game are drawn.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LeafLaw {
    /// `--leaves v1:p1,...`: a finite distribution (values and probabilities exactly).
    Given(Vec<(BigRational, BigRational)>),
    /// Today's P-game: +1 (a win for Max) with probability p (`None`: `w_b`, irrational,
    /// `f64` only), -1 otherwise.
    WinLoss(Option<BigRational>),
}

/// The game of a [`DistributionRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GameSpec {
    /// Nguyen & Ramanujan's critical win-loss game (`--game crit`).
    Critical {
        /// Max's critical rate.
        gamma_max: BigRational,
        /// Min's critical rate.
        gamma_min: BigRational,
        /// The root's rate (`None`: 1, as mcts-lp).
        root_gamma: Option<BigRational>,
    },
    /// A multi-valued P-game (`--game p` with a distribution evaluator or `--leaves`).
    PGame(LeafLaw),
}

/// The evaluation model of a [`DistributionRequest`], parameters as given.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ModelSpec {
    /// The true value.
    Perfect,
    /// The other true value with probability e.
    Artificial {
        /// The error rate.
        e: BigRational,
    },
    /// `v + N(0, sigma^2)`.
    Gaussian {
        /// The standard deviation.
        sigma: BigRational,
    },
    /// `v + U(-a, a)`.
    Uniform {
        /// The half-width a.
        halfwidth: BigRational,
    },
    /// An empirical law read from a CSV file.
    Histogram {
        /// The file, as given.
        file: PathBuf,
        /// Its law.
        histogram: Histogram,
    },
    /// The expected-playout value (critical game only).
    ExpectedPlayout(PlayoutFormula),
}

impl ModelSpec {
    /// `perfect`, `artificial`, `gaussian`, `uniform`, `histogram` or `expected-playout`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::request::ModelSpec;
    /// assert_eq!(ModelSpec::Perfect.name(), "perfect");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            ModelSpec::Perfect => "perfect",
            ModelSpec::Artificial { .. } => "artificial",
            ModelSpec::Gaussian { .. } => "gaussian",
            ModelSpec::Uniform { .. } => "uniform",
            ModelSpec::Histogram { .. } => "histogram",
            ModelSpec::ExpectedPlayout(_) => "expected-playout",
        }
    }
}

/// The name of a playout formula as the options spell it.
pub fn formula_name(formula: PlayoutFormula) -> &'static str {
    match formula {
        PlayoutFormula::RandomPlay => "random-play",
        PlayoutFormula::AuthorsCode => "authors-code",
    }
}

/// `D(d,h)` of the critical game or a multi-valued P-game with an evaluation model.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DistributionRequest {
    /// The game.
    pub game: GameSpec,
    /// Branching factor b.
    pub branching: u32,
    /// Height h (P-games) or terminal depth H (critical game).
    pub height: u32,
    /// Only this depth.
    pub depth: Option<u32>,
    /// The evaluation model.
    pub model: ModelSpec,
    /// `--levels G`: bin the evaluations into G equal bins.
    pub levels: Option<u32>,
    /// `--range LO,HI` of the bins.
    pub range: Option<(BigRational, BigRational)>,
    /// Exact rationals instead of `f64`.
    pub exact: bool,
}

/// `x` as the manifest writes it: a terminating decimal, else the fraction.
fn text(x: &BigRational) -> String {
    short_text(x)
}

impl DistributionRequest {
    /// `crit` or `p`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::request::{DistributionRequest, GameSpec, LeafLaw, ModelSpec};
    /// let r = DistributionRequest { game: GameSpec::PGame(LeafLaw::WinLoss(None)), branching: 2,
    ///     height: 4, depth: None, model: ModelSpec::Perfect, levels: None, range: None, exact: false };
    /// assert_eq!(r.game_name(), "p");
    /// ```
    pub fn game_name(&self) -> &'static str {
        match self.game {
            GameSpec::Critical { .. } => "crit",
            GameSpec::PGame(_) => "p",
        }
    }

    /// The evaluation in mode `P`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--levels` or `--range` ([`Evaluation::levels`]).
    pub fn evaluation<P: Probability>(&self) -> Result<Evaluation<P>> {
        let p = |x: &BigRational| P::from_rational(x);
        let model = match &self.model {
            ModelSpec::Perfect => Model::Perfect,
            ModelSpec::Artificial { e } => Model::Artificial { error: p(e) },
            ModelSpec::Gaussian { sigma } => Model::Gaussian { sigma: p(sigma) },
            ModelSpec::Uniform { halfwidth } => Model::Uniform {
                halfwidth: p(halfwidth),
            },
            ModelSpec::Histogram { histogram, .. } => Model::Histogram(histogram.clone()),
            ModelSpec::ExpectedPlayout(formula) => Model::ExpectedPlayout(Playout {
                formula: *formula,
                decimals: None,
            }),
        };
        let evaluation = Evaluation::new(model);
        match self.levels {
            Some(g) => evaluation.levels(g, self.range.clone()),
            None => Ok(evaluation),
        }
    }

    /// The critical game in mode `P`, if the request is one.
    ///
    /// # Errors
    ///
    /// As [`CriticalGame::new`] and [`CriticalGame::with_root_gamma`].
    pub fn critical_game<P: Probability>(&self) -> Result<Option<CriticalGame<P>>> {
        let GameSpec::Critical {
            gamma_max,
            gamma_min,
            root_gamma,
        } = &self.game
        else {
            return Ok(None);
        };
        let game = CriticalGame::new(
            self.branching,
            self.height,
            P::from_rational(gamma_max),
            P::from_rational(gamma_min),
        )?;
        Ok(Some(match root_gamma {
            Some(r) => game
                .with_root_gamma(P::from_rational(r))
                .map_err(|e| rename(e, "--gamma", "--root-gamma"))?,
            None => game,
        }))
    }

    /// The leaf law as (value, probability) pairs in mode `P` (`w_b` in `f64` for the
    /// default P-game), if the request is a P-game.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--p` for the default `w_b` in exact mode.
    pub fn leaves<P: Probability>(&self) -> Result<Option<Vec<(BigRational, P)>>> {
        let GameSpec::PGame(law) = &self.game else {
            return Ok(None);
        };
        let one = BigRational::from_integer(1.into());
        let win_loss = |p: P| {
            vec![
                (one.clone(), p.clone()),
                (-one.clone(), P::certain().minus(&p)),
            ]
        };
        Ok(Some(match law {
            LeafLaw::Given(leaves) => leaves
                .iter()
                .map(|(v, p)| (v.clone(), P::from_rational(p)))
                .collect(),
            LeafLaw::WinLoss(Some(p)) => win_loss(P::from_rational(p)),
            LeafLaw::WinLoss(None) if P::EXACT => {
                return Err(Error::invalid(
                    "--p",
                    "given with --exact (the default w_b is irrational)",
                    "nothing",
                ));
            }
            LeafLaw::WinLoss(None) => {
                let w = crate::analytic::closed_form::w_b(self.branching)?;
                win_loss(P::from_rational(
                    &BigRational::from_float(w).expect("w_b is finite"),
                ))
            }
        }))
    }

    /// The P-game in mode `P`, if the request is one.
    ///
    /// # Errors
    ///
    /// As [`Self::leaves`] and [`MultiValuedPGame::new`].
    pub fn pgame<P: Probability>(&self) -> Result<Option<MultiValuedPGame<P>>> {
        match self.leaves::<P>()? {
            Some(leaves) => Ok(Some(
                MultiValuedPGame::new(self.branching, self.height, leaves).map_err(|e| {
                    match &self.game {
                        // `--p` set the two leaves: name it, never `--leaves`, which the user did not type.
                        GameSpec::PGame(LeafLaw::WinLoss(Some(p))) => match e {
                            Error::InvalidArgument { name, .. } if name == "--leaves" => {
                                Error::invalid(
                                    "--p",
                                    "in (0, 1): at 0 or 1 no root has a non-optimal move",
                                    text(p),
                                )
                            }
                            other => other,
                        },
                        _ => e,
                    }
                })?,
            )),
            None => Ok(None),
        }
    }

    fn depths(&self) -> Depths {
        self.depth.map_or(Depths::All, Depths::One)
    }

    /// Checks the model against the game before any work: the expected-playout heuristic
    /// is the critical game's.
    fn check(&self) -> Result<()> {
        if let (ModelSpec::ExpectedPlayout(_), GameSpec::PGame(_)) = (&self.model, &self.game) {
            return Err(Error::invalid(
                "--evaluator expected-playout",
                "given only with --game crit (it is the critical game's heuristic)",
                "--game p",
            ));
        }
        Ok(())
    }

    /// The engine's outcome in mode `P` at the requested depths.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::request::{DistributionRequest, GameSpec, ModelSpec};
    /// use pathology::numeric::number::parse_rational;
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let request = DistributionRequest {
    ///     game: GameSpec::Critical { gamma_max: q("1"), gamma_min: q("1"), root_gamma: None },
    ///     branching: 2, height: 6, depth: None, model: ModelSpec::Artificial { e: q("0.1") },
    ///     levels: None, range: None, exact: false,
    /// };
    /// let outcome = request.outcome::<f64>().unwrap();
    /// assert_eq!(outcome.column.rows.len(), 6);
    /// assert_eq!(outcome.column.rows[5].decision.value, 1.0);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`critical_column`] and [`pgame_column`], and the games' constructors.
    pub fn outcome<P: Probability>(&self) -> Result<Outcome<P>> {
        self.check()?;
        let evaluation = self.evaluation::<P>()?;
        if let Some(game) = self.critical_game::<P>()? {
            return critical_column(&game, &evaluation, self.depths());
        }
        let game = self.pgame::<P>()?.expect("a P-game");
        pgame_column(&game, &evaluation, self.depths())
    }

    /// The estimated cost of [`Self::outcome`] in `f64` at every depth (what `validate`
    /// adds up before it computes anything).
    ///
    /// # Errors
    ///
    /// As the games' constructors and the evaluation's validation.
    pub fn estimate_cost(&self) -> Result<Cost> {
        self.check()?;
        let evaluation = self.evaluation::<f64>()?;
        let depths: Vec<u32> = (1..=self.height).collect();
        if let Some(game) = self.critical_game::<f64>()? {
            return estimate_critical_cost(&game, &evaluation, &depths);
        }
        let game = self.pgame::<f64>()?.expect("a P-game");
        estimate_pgame_cost(&game, &evaluation, &depths)
    }

    /// The parameters in the command line's terms and order (without `--depth` and
    /// `--exact`): the game's, then the evaluator's. The Monte Carlo report uses them as
    /// its columns, the manifest as the command.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::request::{DistributionRequest, GameSpec, ModelSpec};
    /// use pathology::numeric::number::parse_rational;
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let request = DistributionRequest {
    ///     game: GameSpec::Critical { gamma_max: q("0.9"), gamma_min: q("0.9"), root_gamma: None },
    ///     branching: 5, height: 50, depth: None, model: ModelSpec::Gaussian { sigma: q("0.5") },
    ///     levels: None, range: None, exact: false,
    /// };
    /// let names: Vec<String> = request.parameters().into_iter().map(|(n, _)| n).collect();
    /// assert_eq!(names, ["game", "branching", "height", "gamma", "evaluator", "sigma"]);
    /// ```
    pub fn parameters(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = vec![
            ("game".into(), self.game_name().into()),
            ("branching".into(), self.branching.to_string()),
            ("height".into(), self.height.to_string()),
        ];
        match &self.game {
            GameSpec::Critical {
                gamma_max,
                gamma_min,
                root_gamma,
            } => {
                let gamma = if gamma_max == gamma_min {
                    text(gamma_max)
                } else {
                    format!("{},{}", text(gamma_max), text(gamma_min))
                };
                out.push(("gamma".into(), gamma));
                if let Some(r) = root_gamma {
                    out.push(("root_gamma".into(), text(r)));
                }
            }
            GameSpec::PGame(LeafLaw::Given(leaves)) => {
                let items: Vec<String> = leaves
                    .iter()
                    .map(|(v, p)| format!("{}:{}", text(v), text(p)))
                    .collect();
                out.push(("leaves".into(), items.join(",")));
            }
            GameSpec::PGame(LeafLaw::WinLoss(Some(p))) => out.push(("p".into(), text(p))),
            GameSpec::PGame(LeafLaw::WinLoss(None)) => {}
        }
        out.push(("evaluator".into(), self.model.name().into()));
        match &self.model {
            ModelSpec::Perfect => {}
            ModelSpec::Artificial { e } => out.push(("e".into(), text(e))),
            ModelSpec::Gaussian { sigma } => out.push(("sigma".into(), text(sigma))),
            ModelSpec::Uniform { halfwidth } => out.push(("halfwidth".into(), text(halfwidth))),
            ModelSpec::Histogram { file, histogram } => {
                out.push(("histogram".into(), file.display().to_string()));
                out.push((
                    "histogram_fnv1a64".into(),
                    format!("{:016x}", histogram.hash()),
                ));
            }
            ModelSpec::ExpectedPlayout(formula) => {
                if *formula != PlayoutFormula::RandomPlay {
                    out.push(("playout_formula".into(), formula_name(*formula).into()));
                }
            }
        }
        if let Some(g) = self.levels {
            out.push(("levels".into(), g.to_string()));
        }
        if let Some((lo, hi)) = &self.range {
            out.push(("range".into(), format!("{},{}", text(lo), text(hi))));
        }
        out
    }

    /// The names of the report's tables: `decisions` and `root`, and `refined` for a
    /// continuous model (Gaussian, uniform) without `--levels`, which is computed at the
    /// default bins and at twice as many.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::request::{DistributionRequest, GameSpec, ModelSpec};
    /// use pathology::numeric::number::parse_rational;
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let mut request = DistributionRequest {
    ///     game: GameSpec::Critical { gamma_max: q("1"), gamma_min: q("1"), root_gamma: None },
    ///     branching: 2, height: 4, depth: None, model: ModelSpec::Gaussian { sigma: q("0.5") },
    ///     levels: None, range: None, exact: false,
    /// };
    /// let names: Vec<String> = request.report("decision").unwrap().tables.into_iter().map(|t| t.name).collect();
    /// assert_eq!(request.tables(), names);
    /// assert_eq!(request.tables(), ["decisions", "root", "refined"]);
    /// request.model = ModelSpec::Perfect;
    /// assert_eq!(request.tables(), ["decisions", "root"]);
    /// ```
    pub fn tables(&self) -> Vec<&'static str> {
        let continuous = matches!(
            self.model,
            ModelSpec::Gaussian { .. } | ModelSpec::Uniform { .. }
        );
        if continuous && self.levels.is_none() {
            vec!["decisions", "root", "refined"]
        } else {
            vec!["decisions", "root"]
        }
    }

    /// The report of `pathology decision` (table `decisions`, one row per depth; `root`;
    /// `refined` for an unbinned continuous model), its manifest naming `command` and the
    /// options that regenerate it.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::request::{DistributionRequest, GameSpec, LeafLaw, ModelSpec};
    /// use pathology::numeric::number::parse_rational;
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let request = DistributionRequest {
    ///     game: GameSpec::PGame(LeafLaw::Given(vec![(q("0"), q("0.5")), (q("1"), q("0.5"))])),
    ///     branching: 2, height: 4, depth: Some(2), model: ModelSpec::Perfect,
    ///     levels: None, range: None, exact: true,
    /// };
    /// let report = request.report("decision").unwrap();
    /// assert_eq!(report.manifest.command_line(),
    ///     "pathology decision --game p --branching 2 --height 4 --leaves 0:0.5,1:0.5 --depth 2 --evaluator perfect --exact");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Self::outcome`].
    pub fn report(&self, command: &str) -> Result<Report> {
        if self.exact {
            self.report_in::<BigRational>(command)
        } else {
            self.report_in::<f64>(command)
        }
    }

    fn report_in<P: Probability>(&self, command: &str) -> Result<Report> {
        self.check()?;
        let evaluation = self.evaluation::<P>()?;
        let mut report = match self.critical_game::<P>()? {
            Some(game) => super::report::critical_report(&game, &evaluation, self.depths())?,
            None => {
                let game = self.pgame::<P>()?.expect("a P-game");
                super::report::pgame_report(&game, &evaluation, self.depths())?
            }
        };
        let mut parameters = self.parameters();
        // `--depth` after the game's options, as the families' manifests have it.
        if let Some(d) = self.depth {
            let at = parameters
                .iter()
                .position(|(n, _)| n == "evaluator")
                .unwrap_or(parameters.len());
            parameters.insert(at, ("depth".into(), d.to_string()));
        }
        parameters.push(("exact".into(), self.exact.to_string()));
        report.manifest.command = command.to_string();
        report.manifest.parameters = parameters;
        Ok(report)
    }
}

/// `error` with the option `from` renamed `to` (a shared check reported under the option
/// the user gave).
fn rename(error: Error, from: &str, to: &str) -> Error {
    match error {
        Error::InvalidArgument { name, allowed, got } if name == from => Error::InvalidArgument {
            name: to.to_string(),
            allowed,
            got,
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::parse_rational;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    fn crit(model: ModelSpec) -> DistributionRequest {
        DistributionRequest {
            game: GameSpec::Critical {
                gamma_max: q("1"),
                gamma_min: q("1"),
                root_gamma: None,
            },
            branching: 2,
            height: 6,
            depth: None,
            model,
            levels: None,
            range: None,
            exact: false,
        }
    }

    #[test]
    fn the_manifest_regenerates_the_command() {
        let mut r = crit(ModelSpec::Gaussian { sigma: q("0.5") });
        r.depth = Some(3);
        r.game = GameSpec::Critical {
            gamma_max: q("0.9"),
            gamma_min: q("0.5"),
            root_gamma: Some(q("0.9")),
        };
        let report = r.report("decision").unwrap();
        assert_eq!(
            report.manifest.command_line(),
            "pathology decision --game crit --branching 2 --height 6 --gamma 0.9,0.5 \
             --root-gamma 0.9 --depth 3 --evaluator gaussian --sigma 0.5"
        );
        assert_eq!(report.tables[0].rows.len(), 1);
    }

    #[test]
    fn the_playout_heuristic_is_the_critical_games() {
        let mut r = crit(ModelSpec::ExpectedPlayout(PlayoutFormula::RandomPlay));
        r.game = GameSpec::PGame(LeafLaw::WinLoss(Some(q("0.4"))));
        let err = r.report("decision").unwrap_err().to_string();
        assert!(err.contains("--evaluator expected-playout") && err.contains("--game p"));
    }

    #[test]
    fn the_default_p_is_f64_only_and_root_gamma_is_named() {
        let mut r = crit(ModelSpec::Perfect);
        r.game = GameSpec::PGame(LeafLaw::WinLoss(None));
        r.exact = true;
        assert!(
            r.report("decision")
                .unwrap_err()
                .to_string()
                .starts_with("--p")
        );
        let mut r = crit(ModelSpec::Perfect);
        r.game = GameSpec::Critical {
            gamma_max: q("1"),
            gamma_min: q("1"),
            root_gamma: Some(q("0")),
        };
        assert!(
            r.report("decision")
                .unwrap_err()
                .to_string()
                .starts_with("--root-gamma")
        );
    }
}
