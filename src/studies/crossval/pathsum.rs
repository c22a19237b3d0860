//! Path-sum trees by Monte Carlo (the independent check of the exact engine): real depth-d minimax on
//! sampled path-sum trees with terminal nodes, against the exact `D(d,h)` of
//! [`crate::analytic::pathsum`].
//!
//! **A trial** draws one tree whose root is non-trivial (a root whose children all have
//! the same true value is redrawn from the same stream, at most [`MAX_ATTEMPTS`] times: the
//! estimate is of `D`, the conditional probability), then searches it with
//! [`crate::search::decide`] at every depth `d = 1..=h`: depth-d minimax over the
//! [`crate::games::Game`] trait, ties at the root broken uniformly from the trial's stream.
//! A decision is correct when the chosen child's true value is the root's.
//!
//! **The tree** is the model of [`crate::analytic::pathsum`]: a complete b-ary tree of
//! height h in heap order (node i's children `b i + 1 ..= b i + b`; heights from the
//! leaves, odd heights Max nodes). Top-down in node order, each node below the root draws
//! its edge's increment from the step law (one uniform number), so its position value s(n)
//! is its parent's plus the increment; a node strictly between the root and the leaves (the
//! root's children included) is then terminal with probability T (one more uniform number);
//! a terminal node or a leaf draws its own term Y from the leaf law (one more) and its true
//! value is `s + Y` (value outcomes) or a win, 1, when `s + Y > 0`, else 0 (sign outcomes).
//! The descendants of a terminal node are not part of the game and draw nothing. Interior
//! true values are minimax values of their children's.
//!
//! **Evaluations.** Every non-terminal interior node below the root draws its evaluation
//! once, in node order, after the root was found non-trivial, and every search uses that
//! draw: `perfect` is the true value, `additive` the true value plus a draw of the noise law,
//! `position` the position value s(n), `artificial` (sign outcomes) the other value (1 - v)
//! with probability e. Terminal nodes and leaves are evaluated exactly (the game's utility).
//!
//! **Numbers.** Every value is a whole multiple of one grid unit (the lcm of the laws'
//! denominators over the gcd of the resulting integers, as the exact engine's grid), so the
//! sums, comparisons and ties of the search are exact in `f64`. Draws from a law use its
//! cumulative probabilities in `f64`.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use crate::analytic::pathsum::{Evaluator, Law, Outcome, PathSumGame};
use crate::error::{Error, Result};
use crate::games::Game;
use crate::model::Player;
use crate::numeric::number::rational_to_f64;
use crate::search::decide;
use crate::sim::runner::TrialRunner;
use crate::sim::stats::Proportion;

pub use super::distributions::{MAX_ATTEMPTS, MAX_NODES};

/// A law on the grid: its atoms' grid values and cumulative probabilities.
#[derive(Debug, Clone, PartialEq)]
struct GridLaw {
    values: Vec<i64>,
    cumulative: Vec<f64>,
}

impl GridLaw {
    fn new(law: &Law, scale: &BigRational) -> GridLaw {
        let mut sum = BigRational::zero();
        let (values, cumulative) = law
            .atoms()
            .iter()
            .map(|(v, p)| {
                sum += p;
                let grid = (v * scale).to_integer().to_i64().unwrap_or(0);
                (grid, rational_to_f64(&sum))
            })
            .unzip();
        GridLaw { values, cumulative }
    }

    /// The atom of the uniform number `u` in `[0, 1)`.
    fn draw(&self, u: f64) -> i64 {
        let k = self
            .cumulative
            .iter()
            .position(|&c| u < c)
            .unwrap_or(self.values.len() - 1);
        self.values[k]
    }
}

/// How a non-terminal front node is evaluated.
#[derive(Debug, Clone, PartialEq)]
enum Front {
    Perfect,
    Additive(GridLaw),
    Position,
    /// The error rate e, in `f64`.
    Artificial(f64),
}

/// The sampled experiment of one [`PathSumGame`].
#[derive(Debug, Clone)]
pub struct Experiment {
    game: PathSumGame,
    steps: GridLaw,
    leaves: GridLaw,
    terminal: f64,
    front: Front,
    /// The grid value of a win (sign outcomes: 1 in grid units).
    win: i64,
}

/// The grid scale of `game`: every value times it is a whole number (the lcm of the laws'
/// denominators, and 1's with sign outcomes, over the gcd of the resulting integers).
fn grid_scale(game: &PathSumGame) -> BigRational {
    let one = BigRational::one();
    let mut values: Vec<&BigRational> = Vec::new();
    values.extend(game.step.atoms().iter().map(|a| &a.0));
    values.extend(game.leaf.atoms().iter().map(|a| &a.0));
    if let Evaluator::Additive { noise } = &game.evaluator {
        values.extend(noise.atoms().iter().map(|a| &a.0));
    }
    if game.outcome == Outcome::Sign {
        values.push(&one);
    }
    let lcm = values.iter().fold(BigInt::one(), |l, v| l.lcm(v.denom()));
    let gcd = values
        .iter()
        .map(|v| (*v * &lcm).to_integer())
        .fold(BigInt::zero(), |g, v| g.gcd(&v))
        .max(BigInt::one());
    BigRational::new(lcm, gcd)
}

impl Experiment {
    /// The experiment of `game` (checked by the exact engine's rules first), refused when a
    /// trial's tree would have more than [`MAX_NODES`] nodes.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::pathsum::{Evaluator, Law, Outcome, PathSumGame};
    /// use pathology::studies::crossval::pathsum::Experiment;
    /// let game = PathSumGame {
    ///     branching: 2, height: 5, step: Law::parse("--step", "1:1/2,-1:1/2").unwrap(),
    ///     leaf: Law::point(0.into()), terminal: "1/10".parse().unwrap(),
    ///     outcome: Outcome::Value, evaluator: Evaluator::Position, levels: None,
    /// };
    /// assert!(Experiment::new(&game).is_ok());
    /// let huge = PathSumGame { height: 30, ..game };
    /// assert!(Experiment::new(&huge).unwrap_err().to_string().starts_with("--height must be at most 21"));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`PathSumGame::validate`]; [`Error::InvalidArgument`] naming `--height` for trees
    /// beyond [`MAX_NODES`], and `--evaluator` for an evaluator this experiment does not
    /// sample.
    pub fn new(game: &PathSumGame) -> Result<Self> {
        game.validate()?;
        let nodes = f64::from(game.branching).powi(game.height as i32 + 1);
        if nodes > 2.0 * MAX_NODES {
            let most = (MAX_NODES.log2() / f64::from(game.branching).log2()).floor() as u32;
            return Err(Error::invalid(
                "--height",
                &format!(
                    "at most {most} for Monte Carlo at b = {} (trees of at most 2^21 nodes)",
                    game.branching
                ),
                game.height,
            ));
        }
        if game.levels.is_some() {
            return Err(Error::invalid(
                "--levels",
                "not given to mc sum (its searches do not bin evaluations yet; decision --game \
                 sum --levels computes the binned model exactly)",
                game.levels.as_ref().map_or(0, |l| l.count),
            ));
        }
        let scale = grid_scale(game);
        // Evaluators added to the exact engine later are refused until they are sampled.
        #[allow(unreachable_patterns)]
        let front = match &game.evaluator {
            Evaluator::Perfect => Front::Perfect,
            Evaluator::Additive { noise } => Front::Additive(GridLaw::new(noise, &scale)),
            Evaluator::Position => Front::Position,
            Evaluator::Artificial { error } => Front::Artificial(rational_to_f64(error)),
            other => {
                return Err(Error::invalid(
                    "--evaluator",
                    "perfect, additive, position or artificial for `mc sum`",
                    other.name(),
                ));
            }
        };
        Ok(Experiment {
            steps: GridLaw::new(&game.step, &scale),
            leaves: GridLaw::new(&game.leaf, &scale),
            terminal: rational_to_f64(&game.terminal),
            front,
            win: scale.to_integer().to_i64().unwrap_or(1),
            game: game.clone(),
        })
    }

    /// The game.
    pub fn game(&self) -> &PathSumGame {
        &self.game
    }

    /// Seconds per trial on one thread (a fitted model: drawing the tree, then the nodes
    /// searched at every depth).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::pathsum::{Evaluator, Law, Outcome, PathSumGame};
    /// use pathology::studies::crossval::pathsum::Experiment;
    /// let game = PathSumGame {
    ///     branching: 2, height: 8, step: Law::parse("--step", "1:1/2,-1:1/2").unwrap(),
    ///     leaf: Law::point(0.into()), terminal: "0".parse().unwrap(),
    ///     outcome: Outcome::Value, evaluator: Evaluator::Perfect, levels: None,
    /// };
    /// assert!(Experiment::new(&game).unwrap().trial_seconds() < 1e-3);
    /// ```
    pub fn trial_seconds(&self) -> f64 {
        let b = f64::from(self.game.branching);
        let h = self.game.height as i32;
        let visits: f64 = (1..=h).map(|d| b.powi(d) * b / (b - 1.0)).sum();
        2e-6 + 30e-9 * visits + 60e-9 * b.powi(h + 1) / (b - 1.0)
    }

    /// The true value of a leaf or terminal node at position `s` with its own term `y`.
    fn outcome(&self, s: i64, y: i64) -> i64 {
        match self.game.outcome {
            Outcome::Value => s + y,
            Outcome::Sign => {
                if s + y > 0 {
                    self.win
                } else {
                    0
                }
            }
        }
    }

    /// Draws a tree into `scratch` (positions, terminal flags, true values); whether its
    /// root is non-trivial.
    fn draw_tree(&self, scratch: &mut Scratch, rng: &mut ChaCha8Rng) -> bool {
        let b = self.game.branching as usize;
        let n = scratch.height_of.len();
        let first_leaf = n - b.pow(self.game.height);
        scratch.position[0] = 0;
        scratch.state[0] = NodeState::Interior;
        for i in 1..n {
            let parent = (i - 1) / b;
            if scratch.state[parent] != NodeState::Interior {
                scratch.state[i] = NodeState::Absent;
                continue;
            }
            let s = scratch.position[parent] + self.steps.draw(rng.random());
            scratch.position[i] = s;
            let terminal = i < first_leaf && rng.random::<f64>() < self.terminal;
            if i >= first_leaf || terminal {
                scratch.state[i] = NodeState::Exact;
                let y = self.leaves.draw(rng.random());
                scratch.truth[i] = self.outcome(s, y) as f64;
            } else {
                scratch.state[i] = NodeState::Interior;
            }
        }
        for i in (0..first_leaf).rev() {
            if scratch.state[i] != NodeState::Interior {
                continue;
            }
            let children = &scratch.truth[b * i + 1..=b * i + b];
            scratch.truth[i] = match Player::to_move_at_height(scratch.height_of[i]) {
                Player::Max => children.iter().copied().fold(f64::MIN, f64::max),
                Player::Min => children.iter().copied().fold(f64::MAX, f64::min),
            };
        }
        let children = &scratch.truth[1..=b];
        children.iter().any(|&t| t != children[0])
    }

    /// Draws every non-terminal interior node's evaluation below the root, in node order.
    fn draw_evaluations(&self, scratch: &mut Scratch, rng: &mut ChaCha8Rng) {
        let b = self.game.branching as usize;
        let first_leaf = scratch.height_of.len() - b.pow(self.game.height);
        for i in 1..first_leaf {
            if scratch.state[i] != NodeState::Interior {
                continue;
            }
            let t = scratch.truth[i];
            scratch.evaluation[i] = match &self.front {
                Front::Perfect => t,
                Front::Position => scratch.position[i] as f64,
                Front::Additive(noise) => t + noise.draw(rng.random()) as f64,
                Front::Artificial(e) => {
                    if rng.random::<f64>() < *e {
                        self.win as f64 - t
                    } else {
                        t
                    }
                }
            };
        }
    }

    /// One trial: whether depth-d minimax (d = 1..=h) moved to an optimal child of a
    /// non-trivial root; `None` when no non-trivial root turned up in [`MAX_ATTEMPTS`] draws.
    pub fn trial(&self, scratch: &mut Scratch, rng: &mut ChaCha8Rng) -> Option<Vec<bool>> {
        let b = self.game.branching as usize;
        scratch.shape(b, self.game.height);
        let mut attempts = 0..MAX_ATTEMPTS;
        loop {
            attempts.next()?;
            if self.draw_tree(scratch, rng) {
                break;
            }
        }
        self.draw_evaluations(scratch, rng);
        let tree = SampledTree {
            branching: b,
            height_of: &scratch.height_of,
            state: &scratch.state,
            truth: &scratch.truth,
        };
        let evaluation = &scratch.evaluation;
        let evaluate = |_: &SampledTree<'_>, i: &usize| evaluation[*i];
        Some(
            (1..=self.game.height)
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
    /// As [`TrialRunner::run`]; [`Error::InvalidArgument`] naming the laws when some trial
    /// found no non-trivial root in [`MAX_ATTEMPTS`] draws.
    pub fn counts(&self, runner: &TrialRunner) -> Result<Vec<Proportion>> {
        let h = self.game.height as usize;
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
            return Err(Error::invalid(
                "--step, --leaf and --terminal",
                &format!(
                    "laws that give a non-trivial root (children of two true values) within \
                     {MAX_ATTEMPTS} draws; {failed} trial(s) drew none (`pathology decision \
                     --game sum` gives the probability of a non-trivial root)"
                ),
                format!(
                    "--step {} --leaf {} --terminal {}",
                    self.game.step.text(),
                    self.game.leaf.text(),
                    self.game.terminal
                ),
            ));
        }
        Ok(counts)
    }
}

/// What a node of a sampled tree is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum NodeState {
    /// Below a terminal node: not in the game.
    #[default]
    Absent,
    /// A leaf or a terminal node: its true value is its utility.
    Exact,
    /// A node with children.
    Interior,
}

/// One thread's buffers: the tree's shape (node heights) and one trial's values.
#[derive(Debug, Default)]
pub struct Scratch {
    height_of: Vec<u32>,
    state: Vec<NodeState>,
    position: Vec<i64>,
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
        self.state = vec![NodeState::Absent; n];
        self.position = vec![0; n];
        self.truth = vec![0.0; n];
        self.evaluation = vec![0.0; n];
    }
}

/// A sampled path-sum tree as a [`Game`]: states are heap indices; leaves and terminal
/// nodes are the game's terminal states, their utilities their true values (grid units).
struct SampledTree<'a> {
    branching: usize,
    height_of: &'a [u32],
    state: &'a [NodeState],
    truth: &'a [f64],
}

impl Game for SampledTree<'_> {
    type State = usize;
    type Move = usize;

    fn to_move(&self, state: &usize) -> Player {
        Player::to_move_at_height(self.height_of[*state])
    }

    fn moves(&self, state: &usize) -> Vec<usize> {
        if self.state[*state] == NodeState::Interior {
            (0..self.branching).collect()
        } else {
            Vec::new()
        }
    }

    fn play(&self, state: &usize, mv: usize) -> usize {
        self.branching * state + 1 + mv
    }

    fn utility(&self, state: &usize) -> Option<f64> {
        (self.state[*state] == NodeState::Exact).then(|| self.truth[*state])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::pathsum::pathsum_column;
    use rand::SeedableRng;

    fn game(text: &[(&str, &str)]) -> PathSumGame {
        let get = |name: &str, default: &str| {
            text.iter()
                .find(|(n, _)| *n == name)
                .map_or(default.to_string(), |(_, v)| v.to_string())
        };
        PathSumGame {
            branching: get("b", "2").parse().unwrap(),
            height: get("h", "3").parse().unwrap(),
            step: Law::parse("--step", &get("step", "1:1/2,-1:1/2")).unwrap(),
            leaf: Law::parse("--leaf", &get("leaf", "0")).unwrap(),
            terminal: get("terminal", "0").parse().unwrap(),
            outcome: if get("outcome", "value") == "sign" {
                Outcome::Sign
            } else {
                Outcome::Value
            },
            evaluator: Evaluator::Perfect,
            levels: None,
        }
    }

    /// The true value of node `i` by brute force from the drawn positions and leaf terms
    /// (a recursive minimax over the tree, independent of the bottom-up pass).
    fn brute(experiment: &Experiment, scratch: &Scratch, i: usize) -> f64 {
        let b = experiment.game.branching as usize;
        match scratch.state[i] {
            NodeState::Exact => scratch.truth[i],
            NodeState::Interior => {
                let values = (1..=b).map(|k| brute(experiment, scratch, b * i + k));
                match Player::to_move_at_height(scratch.height_of[i]) {
                    Player::Max => values.fold(f64::MIN, f64::max),
                    Player::Min => values.fold(f64::MAX, f64::min),
                }
            }
            NodeState::Absent => panic!("an absent node in the game"),
        }
    }

    #[test]
    fn sampled_trees_follow_the_model() {
        let game = game(&[
            ("b", "2"),
            ("h", "4"),
            ("step", "1:1/3,0:1/3,-1:1/3"),
            ("leaf", "1/2:1/2,-1/2:1/2"),
            ("terminal", "1/4"),
        ]);
        let experiment = Experiment::new(&game).unwrap();
        // The grid unit is 1/2: steps are 2 units, leaf terms 1.
        assert_eq!(experiment.steps.values, vec![-2, 0, 2]);
        assert_eq!(experiment.leaves.values, vec![-1, 1]);
        let mut scratch = Scratch::default();
        scratch.shape(2, 4);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut terminals = 0;
        for _ in 0..200 {
            experiment.draw_tree(&mut scratch, &mut rng);
            for i in 0..scratch.state.len() {
                if scratch.state[i] == NodeState::Absent {
                    continue;
                }
                // Positions are sums of increments; exact nodes are odd (s + Y, Y = ±1).
                if i > 0 {
                    let step = scratch.position[i] - scratch.position[(i - 1) / 2];
                    assert!([-2, 0, 2].contains(&step));
                }
                if scratch.state[i] == NodeState::Exact {
                    let y = scratch.truth[i] as i64 - scratch.position[i];
                    assert!(y == 1 || y == -1, "{y}");
                    if scratch.height_of[i] > 0 {
                        terminals += 1;
                    }
                }
                assert_eq!(scratch.truth[i], brute(&experiment, &scratch, i));
            }
            // The root is never terminal; below a terminal node nothing is drawn.
            assert_eq!(scratch.state[0], NodeState::Interior);
        }
        assert!(terminals > 0);
    }

    #[test]
    fn sign_outcomes_are_wins_and_losses() {
        let game = game(&[("outcome", "sign"), ("h", "3"), ("terminal", "1/5")]);
        let experiment = Experiment::new(&game).unwrap();
        assert_eq!(experiment.win, 1);
        let mut scratch = Scratch::default();
        scratch.shape(2, 3);
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for _ in 0..100 {
            experiment.draw_tree(&mut scratch, &mut rng);
            for i in 0..scratch.state.len() {
                if scratch.state[i] == NodeState::Exact {
                    let win = scratch.position[i] > 0;
                    assert_eq!(scratch.truth[i], if win { 1.0 } else { 0.0 });
                }
            }
        }
    }

    #[test]
    fn perfect_evaluations_always_find_the_optimal_move() {
        let game = game(&[("b", "3"), ("h", "4"), ("terminal", "1/5")]);
        let counts = Experiment::new(&game)
            .unwrap()
            .counts(&TrialRunner::new(300, 1, 1).unwrap())
            .unwrap();
        assert!(counts.iter().all(|c| c.successes == 300 && c.trials == 300));
        // The exact engine agrees: D(d,h) = 1 for the perfect evaluator.
        let exact = pathsum_column::<f64>(&game, &[1, 2, 3, 4]).unwrap();
        assert!(exact.rows.iter().all(|r| (r.decision - 1.0).abs() < 1e-12));
    }

    #[test]
    fn a_root_that_is_never_non_trivial_is_refused() {
        let game = game(&[("step", "0")]);
        let err = Experiment::new(&game)
            .unwrap()
            .counts(&TrialRunner::new(2, 1, 1).unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("--step, --leaf and --terminal"), "{err}");
    }
}
