//! Evaluations as distributions by Monte Carlo: real depth-d minimax on sampled critical
//! games and multi-valued P-games, with the evaluators of [`crate::analytic::distributions`],
//! against its exact `D(d,h)`.
//!
//! **A trial** draws one game whose root is non-trivial (a root without a losing move, or
//! whose children all have the same true value, is redrawn from the same stream: the
//! estimate is of `D`, the conditional probability), then searches it with
//! [`crate::search::decide`] at every depth `d = 1..=h`: depth-d minimax over the
//! [`crate::games::Game`] trait, ties at the root broken uniformly from the trial's stream.
//! A decision is correct when the chosen child has the root's true value (the critical game:
//! when it is won for Max).
//!
//! - **Critical game**: the lazy [`crate::games::critical::CriticalGame`] seeded from the
//!   trial's stream. Every node's randomness comes from its own key, so its evaluation is
//!   drawn once and is the same in every search (cached by construction): the Gaussian's
//!   normal draw is the node's ([`CriticalGame::standard_normal`]); the other evaluators
//!   take one uniform number from output `2^33` of the node's generator. Values are the
//!   exact engine's, `-1` and `+1`, Max's view; the expected-playout value is the game's own
//!   recursion ([`CriticalGame::expected_playout`]).
//! - **P-games**: a complete b-ary tree in heap order (node i's children `b i + 1 ..= b i +
//!   b`, heights from the leaves, odd heights Max nodes as [`crate::model`]); the leaves'
//!   values are drawn from the trial's stream by their probabilities, interior values by
//!   minimax, then one evaluation per interior node from the stream (in node order, one
//!   uniform number, two for the Gaussian by Box-Muller), used by every search.
//!
//! **Evaluations.** `perfect` is the true value; `artificial` the other value with
//! probability e; `gaussian` `v + sigma Z`; `uniform` `v + a (2U - 1)`; `histogram` a row
//! drawn by its weight. With `--levels G` every evaluation is binned as the engine bins it
//! (g equal bins of `[LO, HI]`, clamped; the default range the engine's: the atoms' span,
//! `8 sigma` or `a` beyond the values); discrete atoms are binned in exact rationals. An
//! unbinned continuous evaluation is sampled as it is, and its exact value is the engine's
//! at 1000 bins (the report states the engine's estimate of the distance to the continuous
//! limit).

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use crate::analytic::distributions::request::{DistributionRequest, GameSpec, ModelSpec};
use crate::error::{Error, Result};
use crate::games::Game;
use crate::games::critical::{CriticalGame, CriticalNode, splitmix_output};
use crate::model::Player;
use crate::numeric::number::rational_to_f64;
use crate::search::decide;
use crate::sim::runner::TrialRunner;
use crate::sim::stats::Proportion;

/// The most games drawn per trial in search of a non-trivial root (as `mc uct` and `mc emm`
/// bound theirs).
pub const MAX_ATTEMPTS: u32 = 10_000;

/// The largest number of nodes a sampled tree (or a critical game's deepest search) may have.
pub const MAX_NODES: f64 = (1u64 << 21) as f64;

/// The output of a critical-game node's generator that its evaluation's uniform number
/// comes from (above the game's own outputs `0..=2b` and `2^32`, `2^32 + 1`).
const EVALUATION_OUTPUT: u64 = 1 << 33;

/// A uniform number in `[0, 1)` from the top 53 bits of `x`.
fn unit(x: u64) -> f64 {
    (x >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Equal bins over `[lo, hi]` for continuous draws (f64).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bins {
    lo: f64,
    hi: f64,
    g: u32,
}

impl Bins {
    fn of(&self, x: f64) -> f64 {
        let i = ((x - self.lo) / (self.hi - self.lo) * f64::from(self.g)).floor();
        i.clamp(0.0, f64::from(self.g - 1))
    }
}

/// The bin of `x` in exact rationals (the engine's rule: clamped to `0..g`).
fn exact_bin(x: &BigRational, lo: &BigRational, hi: &BigRational, g: u32) -> f64 {
    if hi <= lo {
        return 0.0;
    }
    let position = ((x - lo) * BigRational::from_integer(g.into()) / (hi - lo)).floor();
    position
        .to_integer()
        .to_f64()
        .unwrap_or(0.0)
        .clamp(0.0, f64::from(g - 1))
}

/// How a frontier node's evaluation is drawn from its true value's index.
#[derive(Debug, Clone, PartialEq)]
enum Sampler {
    /// Per true value: cumulative probabilities and the keys of the atoms (their bins, or
    /// their ranks among all atoms: ordered like the exact levels).
    Table(Vec<Vec<(f64, f64)>>),
    /// `v + sigma Z`, binned or not.
    Gaussian {
        sigma: f64,
        values: Vec<f64>,
        bins: Option<Bins>,
    },
    /// `v + a (2U - 1)`, binned or not.
    Uniform {
        a: f64,
        values: Vec<f64>,
        bins: Option<Bins>,
    },
    /// The critical game's expected playout: the key of (depth, Max wins).
    Playout(Vec<[f64; 2]>),
}

impl Sampler {
    /// The key of a node of true value index `v` from its uniform number `u` (and normal
    /// draw `z`, used by the Gaussian only).
    fn draw(&self, v: usize, u: f64, z: f64) -> f64 {
        match self {
            Sampler::Table(table) => {
                let atoms = &table[v];
                atoms
                    .iter()
                    .find(|(cumulative, _)| u < *cumulative)
                    .unwrap_or(atoms.last().expect("an atom"))
                    .1
            }
            Sampler::Gaussian {
                sigma,
                values,
                bins,
            } => {
                let x = values[v] + sigma * z;
                bins.map_or(x, |b| b.of(x))
            }
            Sampler::Uniform { a, values, bins } => {
                let x = values[v] + a * (2.0 * u - 1.0);
                bins.map_or(x, |b| b.of(x))
            }
            Sampler::Playout(_) => unreachable!("the critical game reads its playout table"),
        }
    }
}

/// The sampled experiment of one [`DistributionRequest`].
#[derive(Debug, Clone)]
pub struct Experiment {
    request: DistributionRequest,
    /// The deepest depth searched (`1..=searched`; `--max-depth`, default the height).
    searched: u32,
    /// The game's true values (ascending) and their probabilities (P-games: the leaves';
    /// the critical game: -1 and +1).
    values: Vec<BigRational>,
    /// Cumulative leaf probabilities (P-games).
    leaf_cumulative: Vec<f64>,
    sampler: Sampler,
}

/// Per true value, the atoms `(evaluation, probability)` of a discrete model.
type Atoms = Vec<Vec<(BigRational, BigRational)>>;

/// The atoms of a discrete model per true value (`None` for the others).
fn atoms(model: &ModelSpec, values: &[BigRational]) -> Result<Option<Atoms>> {
    let one = BigRational::from_integer(1.into());
    Ok(Some(match model {
        ModelSpec::Perfect => values
            .iter()
            .map(|v| vec![(v.clone(), one.clone())])
            .collect(),
        ModelSpec::Artificial { e } => {
            if values.len() != 2 {
                return Err(Error::invalid(
                    "--leaves",
                    "two values with the artificial evaluation",
                    format!("{} values", values.len()),
                ));
            }
            let (lo, hi) = (&values[0], &values[1]);
            vec![
                vec![(lo.clone(), &one - e), (hi.clone(), e.clone())],
                vec![(lo.clone(), e.clone()), (hi.clone(), &one - e)],
            ]
        }
        ModelSpec::Histogram { histogram, .. } => values
            .iter()
            .map(|v| histogram.law(v).map(<[_]>::to_vec))
            .collect::<Result<_>>()?,
        _ => return Ok(None),
    }))
}

/// The sampling table of discrete atoms: keys are bins (with `levels`) or ranks.
fn table(
    atoms: &[Vec<(BigRational, BigRational)>],
    levels: Option<u32>,
    range: Option<&(BigRational, BigRational)>,
) -> Sampler {
    let all: Vec<&BigRational> = atoms.iter().flatten().map(|(x, _)| x).collect();
    let mut distinct: Vec<BigRational> = all.iter().map(|x| (*x).clone()).collect();
    distinct.sort();
    distinct.dedup();
    let key = |x: &BigRational| match levels {
        Some(g) => {
            let (lo, hi) = match range {
                Some((lo, hi)) => (lo.clone(), hi.clone()),
                None => (distinct[0].clone(), distinct[distinct.len() - 1].clone()),
            };
            exact_bin(x, &lo, &hi, g)
        }
        None => distinct.binary_search(x).expect("an atom") as f64,
    };
    Sampler::Table(
        atoms
            .iter()
            .map(|law| {
                let mut sum = BigRational::zero();
                law.iter()
                    .filter(|(_, p)| !p.is_zero())
                    .map(|(x, p)| {
                        sum += p;
                        (rational_to_f64(&sum), key(x))
                    })
                    .collect()
            })
            .collect(),
    )
}

/// The bins of a continuous model (the engine's defaults), if binned.
fn continuous_bins(
    request: &DistributionRequest,
    values: &[BigRational],
    spread: &BigRational,
) -> Option<Bins> {
    let g = request.levels?;
    let (lo, hi) = match &request.range {
        Some(r) => r.clone(),
        None => (&values[0] - spread, &values[values.len() - 1] + spread),
    };
    Some(Bins {
        lo: rational_to_f64(&lo),
        hi: rational_to_f64(&hi),
        g,
    })
}

impl Experiment {
    /// The experiment of `request` (its game and evaluation checked by the exact engine's
    /// rules first), refused when a trial's tree would have more than [`MAX_NODES`] nodes.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::request::{DistributionRequest, GameSpec, ModelSpec};
    /// use pathology::numeric::number::parse_rational;
    /// use pathology::studies::crossval::distributions::Experiment;
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let request = DistributionRequest {
    ///     game: GameSpec::Critical { gamma_max: q("1"), gamma_min: q("1"), root_gamma: None },
    ///     branching: 2, height: 6, depth: None, model: ModelSpec::Gaussian { sigma: q("0.5") },
    ///     levels: None, range: None, exact: false,
    /// };
    /// assert!(Experiment::new(&request).is_ok());
    /// // Searching every depth of a critical game of height 30 at b = 8 is refused, naming
    /// // the searched depth (the height itself may be large).
    /// let huge = DistributionRequest { branching: 8, height: 30, ..request };
    /// assert!(Experiment::new(&huge).unwrap_err().to_string().starts_with("--max-depth"));
    /// assert!(Experiment::searching(&huge, Some(5)).is_ok());
    /// ```
    ///
    /// # Errors
    ///
    /// As [`DistributionRequest::outcome`]'s checks (the games and the model), and
    /// [`Error::InvalidArgument`] naming `--height` (a P-game) or `--max-depth` (the critical
    /// game) for trees beyond [`MAX_NODES`].
    pub fn new(request: &DistributionRequest) -> Result<Self> {
        Self::searching(request, None)
    }

    /// The experiment of `request` searching only depths `1..=max_depth` (every depth when
    /// `None`). A P-game's trial draws its whole tree, so its height is limited; the critical
    /// game's nodes are drawn as the search reaches them, so only the searched depth is.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::request::{DistributionRequest, GameSpec, ModelSpec};
    /// use pathology::numeric::number::parse_rational;
    /// use pathology::studies::crossval::distributions::Experiment;
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let request = DistributionRequest {
    ///     game: GameSpec::Critical { gamma_max: q("0.9"), gamma_min: q("0.9"), root_gamma: None },
    ///     branching: 5, height: 50, depth: None, model: ModelSpec::Gaussian { sigma: q("0.5") },
    ///     levels: None, range: None, exact: false,
    /// };
    /// assert_eq!(Experiment::searching(&request, Some(6)).unwrap().searched_depth(), 6);
    /// let err = Experiment::searching(&request, None).unwrap_err().to_string();
    /// assert!(err.starts_with("--max-depth"), "{err}");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Self::new`]; naming `--max-depth` when it is 0 or above the height, or when the
    /// searched trees would pass [`MAX_NODES`] (the critical game).
    pub fn searching(request: &DistributionRequest, max_depth: Option<u32>) -> Result<Self> {
        let searched = max_depth.unwrap_or(request.height);
        if searched == 0 || searched > request.height {
            return Err(Error::invalid(
                "--max-depth",
                &format!("in 1..={} (the height)", request.height),
                searched,
            ));
        }
        let critical = matches!(request.game, GameSpec::Critical { .. });
        let limited = if critical { searched } else { request.height };
        let nodes = f64::from(request.branching).powi(limited as i32 + 1);
        if nodes > 2.0 * MAX_NODES {
            let most = (MAX_NODES.log2() / f64::from(request.branching).log2()).floor() as u32;
            return Err(if critical {
                Error::invalid(
                    "--max-depth",
                    &format!(
                        "at most {most} for Monte Carlo at b = {} (searches of at most 2^21 nodes; \
                         the critical game's nodes are drawn as the search reaches them, so \
                         --height may be larger)",
                        request.branching
                    ),
                    match max_depth {
                        Some(d) => d.to_string(),
                        None => format!("{searched} (the default, the height)"),
                    },
                )
            } else {
                Error::invalid(
                    "--height",
                    &format!(
                        "at most {most} for Monte Carlo at b = {} (trees of at most 2^21 nodes)",
                        request.branching
                    ),
                    request.height,
                )
            });
        }
        // The engine's own checks of the game and the model, before any work.
        let mut check = request.clone();
        check.depth = Some(1);
        check.exact = false;
        let _ = check.evaluation::<f64>()?;
        let (values, leaf_cumulative) = match &request.game {
            GameSpec::Critical { .. } => {
                request.critical_game::<f64>()?;
                let one = BigRational::from_integer(1.into());
                (vec![-one.clone(), one], Vec::new())
            }
            GameSpec::PGame(_) => {
                let game = request.pgame::<f64>()?.expect("a P-game");
                let total: f64 = game.probabilities().iter().sum();
                let mut sum = 0.0;
                let cumulative = game
                    .probabilities()
                    .iter()
                    .map(|p| {
                        sum += p / total;
                        sum
                    })
                    .collect();
                (game.values().to_vec(), cumulative)
            }
        };
        let as_f64: Vec<f64> = values.iter().map(rational_to_f64).collect();
        let sampler = match &request.model {
            ModelSpec::Gaussian { sigma } => {
                let s = rational_to_f64(sigma);
                let spread = sigma * BigRational::from_integer(8.into());
                Sampler::Gaussian {
                    sigma: s,
                    values: as_f64,
                    bins: continuous_bins(request, &values, &spread),
                }
            }
            ModelSpec::Uniform { halfwidth } => Sampler::Uniform {
                a: rational_to_f64(halfwidth),
                values: as_f64,
                bins: continuous_bins(request, &values, halfwidth),
            },
            ModelSpec::ExpectedPlayout(formula) => {
                if *formula != crate::analytic::distributions::PlayoutFormula::RandomPlay {
                    return Err(Error::invalid(
                        "--playout-formula",
                        "random-play for Monte Carlo (the sampled game's playout value is the exact mean)",
                        crate::analytic::distributions::request::formula_name(*formula),
                    ));
                }
                Sampler::Playout(playout_keys(request)?)
            }
            model => {
                let atoms = atoms(model, &values)?.expect("a discrete model");
                table(&atoms, request.levels, request.range.as_ref())
            }
        };
        Ok(Experiment {
            request: request.clone(),
            searched,
            values,
            leaf_cumulative,
            sampler,
        })
    }

    /// Seconds per trial on one thread (a fitted model: the nodes searched at every depth).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::distributions::request::{DistributionRequest, GameSpec, LeafLaw, ModelSpec};
    /// use pathology::numeric::number::parse_rational;
    /// use pathology::studies::crossval::distributions::Experiment;
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let request = DistributionRequest {
    ///     game: GameSpec::PGame(LeafLaw::WinLoss(Some(q("0.4")))), branching: 2, height: 8,
    ///     depth: None, model: ModelSpec::Perfect, levels: None, range: None, exact: false,
    /// };
    /// assert!(Experiment::new(&request).unwrap().trial_seconds() < 1e-3);
    /// ```
    pub fn trial_seconds(&self) -> f64 {
        let b = f64::from(self.request.branching);
        let h = self.request.height as i32;
        // Every depth's search visits its b^d frontier nodes and the nodes above them.
        let visits: f64 = (1..=self.searched as i32)
            .map(|d| b.powi(d) * b / (b - 1.0))
            .sum();
        match self.request.game {
            GameSpec::Critical { .. } => 2e-6 + 60e-9 * visits,
            GameSpec::PGame(_) => 2e-6 + 30e-9 * visits + 40e-9 * b.powi(h + 1) / (b - 1.0),
        }
    }

    /// One trial: whether depth-d minimax (d = 1..=h) moved to an optimal child of a
    /// non-trivial root; `None` when no non-trivial root turned up in [`MAX_ATTEMPTS`] draws.
    pub fn trial(&self, scratch: &mut Scratch, rng: &mut ChaCha8Rng) -> Option<Vec<bool>> {
        match self.request.game {
            GameSpec::Critical { .. } => self.critical_trial(rng),
            GameSpec::PGame(_) => self.pgame_trial(scratch, rng),
        }
    }

    fn critical_trial(&self, rng: &mut ChaCha8Rng) -> Option<Vec<bool>> {
        let GameSpec::Critical {
            gamma_max,
            gamma_min,
            root_gamma,
        } = &self.request.game
        else {
            unreachable!("a critical game")
        };
        let root_gamma = root_gamma.as_ref().map_or(1.0, rational_to_f64);
        let mut attempts = 0..MAX_ATTEMPTS;
        let game = loop {
            attempts.next()?;
            let game = CriticalGame::new(
                self.request.branching,
                self.request.height,
                rational_to_f64(gamma_max),
                rational_to_f64(gamma_min),
                rng.random(),
            )
            .and_then(|g| g.with_root_gamma(root_gamma))
            .expect("checked when the experiment was built");
            let root = game.root();
            if game
                .moves(&root)
                .into_iter()
                .any(|m| !game.play(&root, m).max_wins)
            {
                break game;
            }
        };
        let evaluate = |game: &CriticalGame, node: &CriticalNode| -> f64 {
            let v = usize::from(node.max_wins);
            match &self.sampler {
                Sampler::Playout(keys) => keys[node.depth as usize][v],
                Sampler::Gaussian { .. } => self.sampler.draw(v, 0.0, game.standard_normal(node)),
                sampler => sampler.draw(v, unit(splitmix_output(node.key, EVALUATION_OUTPUT)), 0.0),
            }
        };
        let root = game.root();
        Some(
            (1..=self.searched)
                .map(|d| {
                    let decision = decide(&game, &root, d, &evaluate, rng).expect("not terminal");
                    game.play(&root, decision.moves[decision.chosen]).max_wins
                })
                .collect(),
        )
    }

    fn pgame_trial(&self, scratch: &mut Scratch, rng: &mut ChaCha8Rng) -> Option<Vec<bool>> {
        let b = self.request.branching as usize;
        let h = self.request.height;
        scratch.shape(b, h);
        let n = scratch.height_of.len();
        let first_leaf = n - b.pow(h);
        // Leaves until the root is non-trivial, then the interior values by minimax.
        let mut attempts = 0..MAX_ATTEMPTS;
        loop {
            attempts.next()?;
            for i in first_leaf..n {
                let u: f64 = rng.random();
                let rank = self
                    .leaf_cumulative
                    .iter()
                    .position(|&c| u < c)
                    .unwrap_or(self.leaf_cumulative.len() - 1);
                scratch.truth[i] = rank as f64;
            }
            for i in (0..first_leaf).rev() {
                let children = &scratch.truth[b * i + 1..=b * i + b];
                scratch.truth[i] = match Player::to_move_at_height(scratch.height_of[i]) {
                    Player::Max => children.iter().copied().fold(f64::MIN, f64::max),
                    Player::Min => children.iter().copied().fold(f64::MAX, f64::min),
                };
            }
            let children = &scratch.truth[1..=b];
            if children.iter().any(|&t| t != children[0]) {
                break;
            }
        }
        for i in 1..first_leaf {
            let v = scratch.truth[i] as usize;
            let u: f64 = rng.random();
            let z = if matches!(self.sampler, Sampler::Gaussian { .. }) {
                let u2: f64 = rng.random();
                (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
            } else {
                0.0
            };
            scratch.evaluation[i] = self.sampler.draw(v, u, z);
        }
        let tree = SampledTree {
            branching: b,
            first_leaf,
            height_of: &scratch.height_of,
            truth: &scratch.truth,
        };
        let evaluation = &scratch.evaluation;
        let evaluate = |_: &SampledTree<'_>, i: &usize| evaluation[*i];
        Some(
            (1..=self.searched)
                .map(|d| {
                    let decision = decide(&tree, &0, d, &evaluate, rng).expect("not terminal");
                    tree.truth[tree.play(&0, decision.moves[decision.chosen])] == tree.truth[0]
                })
                .collect(),
        )
    }

    /// The correct decisions by depth over the runner's trials.
    ///
    /// # Errors
    ///
    /// As [`TrialRunner::run`]; [`Error::InvalidArgument`] naming the game's parameters when
    /// some trial found no non-trivial root in [`MAX_ATTEMPTS`] draws (instead of redrawing a rare
    /// non-trivial root without end).
    pub fn counts(&self, runner: &TrialRunner) -> Result<Vec<Proportion>> {
        let h = self.searched as usize;
        let (counts, failed) = runner.run(
            Scratch::default,
            |scratch, rng| self.trial(scratch, rng),
            (vec![Proportion::default(); h], 0u64),
            |(mut counts, failed), correct| match correct {
                Some(correct) => {
                    for (count, ok) in counts.iter_mut().zip(correct) {
                        count.record(ok);
                    }
                    (counts, failed)
                }
                None => (counts, failed + 1),
            },
        )?;
        if failed > 0 {
            let parameters = self.request.parameters();
            let given: Vec<String> = parameters
                .iter()
                .filter(|(name, _)| {
                    ["p", "leaves", "gamma", "root_gamma", "branching", "height"]
                        .contains(&name.as_str())
                })
                .map(|(name, value)| format!("--{} {value}", name.replace('_', "-")))
                .collect();
            let options = match self.request.game {
                GameSpec::Critical { .. } => "--gamma and --root-gamma",
                GameSpec::PGame(_) => "--p (or --leaves) and --height",
            };
            return Err(Error::invalid(
                options,
                &format!(
                    "parameters that give a non-trivial root (one with both an optimal and a \
                     non-optimal move) within {MAX_ATTEMPTS} draws; {failed} trial(s) drew none \
                     (the exact engine, `pathology decision`, gives the probability of a \
                     non-trivial root)"
                ),
                given.join(" "),
            ));
        }
        Ok(counts)
    }

    /// The deepest depth searched.
    pub fn searched_depth(&self) -> u32 {
        self.searched
    }

    /// The game's true values.
    pub fn values(&self) -> &[BigRational] {
        &self.values
    }
}

/// The expected-playout keys by depth: the game's own values, binned in exact rationals
/// from their doubles when `--levels` is given (the default range the two values' span at
/// each depth, as the engine's).
fn playout_keys(request: &DistributionRequest) -> Result<Vec<[f64; 2]>> {
    let game = request.critical_game::<f64>()?.expect("a critical game");
    let table = crate::games::critical::expected_playout_table(
        game.branching(),
        game.height(),
        *game.gamma_max(),
        *game.gamma_min(),
    );
    Ok((0..=request.height as usize)
        .map(|d| {
            let pair = [table[2 * d], table[2 * d + 1]];
            let Some(g) = request.levels else {
                return pair;
            };
            let exact = pair.map(|x| BigRational::from_float(x).expect("finite"));
            let (lo, hi) = match &request.range {
                Some(r) => r.clone(),
                None => (
                    exact[0].clone().min(exact[1].clone()),
                    exact[0].clone().max(exact[1].clone()),
                ),
            };
            [
                exact_bin(&exact[0], &lo, &hi, g),
                exact_bin(&exact[1], &lo, &hi, g),
            ]
        })
        .collect())
}

/// One thread's buffers: the tree's shape (node heights) and one trial's values.
#[derive(Debug, Default)]
pub struct Scratch {
    height_of: Vec<u32>,
    truth: Vec<f64>,
    evaluation: Vec<f64>,
}

impl Scratch {
    /// Sizes the buffers for a complete b-ary tree of height h in heap order.
    fn shape(&mut self, b: usize, h: u32) {
        let n = (0..=h).map(|t| b.pow(t)).sum::<usize>();
        if self.height_of.len() == n {
            return;
        }
        self.height_of = (0..=h)
            .flat_map(|depth| std::iter::repeat_n(h - depth, b.pow(depth)))
            .collect();
        self.truth = vec![0.0; n];
        self.evaluation = vec![0.0; n];
    }
}

/// A sampled P-game tree as a [`Game`]: states are heap indices; leaves' utilities are their
/// values' ranks (the order of the values).
struct SampledTree<'a> {
    branching: usize,
    first_leaf: usize,
    height_of: &'a [u32],
    truth: &'a [f64],
}

impl Game for SampledTree<'_> {
    type State = usize;
    type Move = usize;

    fn to_move(&self, state: &usize) -> Player {
        Player::to_move_at_height(self.height_of[*state])
    }

    fn moves(&self, state: &usize) -> Vec<usize> {
        if *state >= self.first_leaf {
            Vec::new()
        } else {
            (0..self.branching).collect()
        }
    }

    fn play(&self, state: &usize, mv: usize) -> usize {
        self.branching * state + 1 + mv
    }

    fn utility(&self, state: &usize) -> Option<f64> {
        (*state >= self.first_leaf).then(|| self.truth[*state])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::distributions::request::LeafLaw;
    use crate::numeric::number::parse_rational;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    #[test]
    fn exact_bins_follow_the_engines_rule() {
        let (lo, hi) = (q("0"), q("1"));
        assert_eq!(exact_bin(&q("0.25"), &lo, &hi, 4), 1.0);
        assert_eq!(exact_bin(&q("1"), &lo, &hi, 4), 3.0); // the last bin is closed
        assert_eq!(exact_bin(&q("-3"), &lo, &hi, 4), 0.0); // clamped
        let bins = Bins {
            lo: 0.0,
            hi: 1.0,
            g: 4,
        };
        assert_eq!(
            (bins.of(0.2499), bins.of(0.25), bins.of(7.0)),
            (0.0, 1.0, 3.0)
        );
    }

    #[test]
    fn perfect_evaluations_always_find_the_optimal_move() {
        let request = DistributionRequest {
            game: GameSpec::PGame(LeafLaw::Given(vec![
                (q("0"), q("0.3")),
                (q("1"), q("0.3")),
                (q("2"), q("0.4")),
            ])),
            branching: 3,
            height: 4,
            depth: None,
            model: ModelSpec::Perfect,
            levels: None,
            range: None,
            exact: false,
        };
        let counts = Experiment::new(&request)
            .unwrap()
            .counts(&TrialRunner::new(300, 1, 1).unwrap())
            .unwrap();
        assert!(counts.iter().all(|c| c.successes == 300 && c.trials == 300));
    }
}
