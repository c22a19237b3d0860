//! The UCT study of Nguyen & Ramanujan (2024): how often UCT's move at the root of a won
//! position is a winning move, by exploration constant `c` and iterations `N`.
//!
//! One trial is one game. On the critical win-loss game ([`crate::games::critical`]) the game
//! is a fresh seed drawn from the trial's stream (the root is a won Max node with exactly one
//! winning move, the root's critical rate being 1); on P- and N-games ([`BoardSpec`]) boards
//! are drawn from the stream until the root is *won for its mover and has a losing move* (the
//! authors' `get_pgame` keeps boards whose root is won with children of both values), and the
//! per-node values and counts are solved once. Then one draw from the stream seeds the
//! searches: the search with exploration constant `c` runs on the ChaCha8 generator seeded with
//! it and moved to stream `c.to_bits()`, so every `c` searches the **same game** (the authors
//! reuse each game for all their `c`) on a stream of its own that does not depend on which
//! other `c` are run. Each search records its decision after every count of the iteration grid
//! ([`Uct::search`]); a decision is a success when its move is winning for the root's mover.
//! Trials run through [`TrialRunner`] (one stream per game, so the counts do not depend on the
//! thread count, and the shards of a run sum to it).
//!
//! Evaluators ([`UctEvaluator`]), on UCT's `[0, 1]` scale for Max: `perfect` (1 or 0),
//! `gaussian` (`(t + sigma Z + 1) / 2` with `t = +-1` the true value and `Z` standard normal,
//! fixed per node), `artificial` (the true value, 1 or 0, replaced by the other with
//! probability e, fixed per node: Pearl's bi-valued model, Wilson, Parker & Nau's artificial
//! evaluator), `expected-playout` (critical game: the expected value of a random playout
//! under the generation law, [`CriticalGame::expected_playout`]; P- and N-games: the fraction
//! of the node's squares that are 1, which is the exact mean of a uniformly random playout on
//! the board, the authors' `mean-playout`), `random-playout` (the utility at the end of one
//! uniformly random playout, drawn from the search's stream), and `histogram` (an evaluation
//! drawn once per node from a user's histogram given the node's true value, `+1` when Max wins
//! and `-1` when Max loses, mapped by `(e + 1) / 2`: [`HistogramEvaluator`]; the paper's
//! Figure 5 heuristics are such histograms of chess-engine evaluations, not redistributable).

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::error::{Error, Result};
use crate::games::critical::{CriticalGame, CriticalNode};
use crate::games::{Game, Region, SplittingGame};
use crate::model::Player;
use crate::search::evaluators::{Evaluator, node_uniform};
use crate::search::uct::{
    CriticalEvaluator, FinalMove, HistogramEvaluator, LeafValue, Uct, UctParams, check_exploration,
    check_iterations,
};
use crate::sim::level_tree::{BoardSpec, GameKind, LevelTree};
use crate::sim::runner::TrialRunner;
use crate::sim::stats::Proportion;

/// The most boards drawn per trial in search of a non-trivial one.
pub const MAX_ATTEMPTS: u32 = 10_000;

/// The game of a study.
#[derive(Debug, Clone, PartialEq)]
pub enum UctGame {
    /// The critical win-loss game.
    Critical {
        /// b.
        branching: u32,
        /// H.
        height: u32,
        /// The critical rate at Max's nodes below the root.
        gamma_max: f64,
        /// The critical rate at Min's nodes.
        gamma_min: f64,
    },
    /// P- or N-game boards.
    Board(BoardSpec),
}

impl UctGame {
    /// `crit`, `p` or `n`, as `--game` spells it.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::nguyen_ramanujan::study::UctGame;
    /// let game = UctGame::Critical { branching: 2, height: 50, gamma_max: 1.0, gamma_min: 1.0 };
    /// assert_eq!(game.name(), "crit");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            UctGame::Critical { .. } => "crit",
            UctGame::Board(spec) => spec.kind.name(),
        }
    }

    /// b.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// use pathology::studies::nguyen_ramanujan::study::UctGame;
    /// let game = UctGame::Board(BoardSpec::new(GameKind::P, 3, 6, 0.5).unwrap());
    /// assert_eq!((game.name(), game.branching(), game.height()), ("p", 3, 6));
    /// ```
    pub fn branching(&self) -> u32 {
        match self {
            UctGame::Critical { branching, .. } => *branching,
            UctGame::Board(spec) => spec.tree.branching() as u32,
        }
    }

    /// H.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::nguyen_ramanujan::study::UctGame;
    /// let game = UctGame::Critical { branching: 2, height: 50, gamma_max: 1.0, gamma_min: 1.0 };
    /// assert_eq!(game.height(), 50);
    /// ```
    pub fn height(&self) -> u32 {
        match self {
            UctGame::Critical { height, .. } => *height,
            UctGame::Board(spec) => spec.tree.height(),
        }
    }

    /// Checks the game's parameters (a board's were checked by [`BoardSpec::new`]).
    fn check(&self) -> Result<()> {
        if let UctGame::Critical {
            branching,
            height,
            gamma_max,
            gamma_min,
        } = *self
        {
            CriticalGame::new(branching, height, gamma_max, gamma_min, 0)?;
        }
        Ok(())
    }
}

/// The evaluator of a study.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UctEvaluator {
    /// The true value.
    Perfect,
    /// The true value `+-1` plus Gaussian noise, mapped to `[0, 1]`.
    Gaussian,
    /// The expected value of a uniformly random playout.
    ExpectedPlayout,
    /// The value of one uniformly random playout.
    RandomPlayout,
    /// The true value, 1 or 0, wrong with probability e, fixed per node.
    Artificial,
    /// A draw from a user's histogram given the true value, fixed per node
    /// ([`UctStudySpec::histogram`]).
    Histogram,
}

impl UctEvaluator {
    /// The name `--evaluator` takes.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::nguyen_ramanujan::study::UctEvaluator;
    /// for e in UctEvaluator::ALL {
    ///     assert_eq!(UctEvaluator::parse(e.name()).unwrap(), e);
    /// }
    /// assert!(UctEvaluator::parse("chess-rand-10").is_err());
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            UctEvaluator::Perfect => "perfect",
            UctEvaluator::Gaussian => "gaussian",
            UctEvaluator::ExpectedPlayout => "expected-playout",
            UctEvaluator::RandomPlayout => "random-playout",
            UctEvaluator::Artificial => "artificial",
            UctEvaluator::Histogram => "histogram",
        }
    }

    /// Every evaluator.
    pub const ALL: [UctEvaluator; 6] = [
        UctEvaluator::Perfect,
        UctEvaluator::Gaussian,
        UctEvaluator::ExpectedPlayout,
        UctEvaluator::RandomPlayout,
        UctEvaluator::Artificial,
        UctEvaluator::Histogram,
    ];

    /// Parses an evaluator's name.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--evaluator`.
    pub fn parse(text: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|e| e.name() == text)
            .ok_or_else(|| {
                Error::invalid(
                    "--evaluator",
                    "perfect, gaussian, expected-playout, random-playout, artificial or histogram",
                    text,
                )
            })
    }
}

/// The exact probability that a depth-`d` minimax search picks a winning root move on the
/// same games, from the exact engine (computed by [`super::exact`]): shown in a second table
/// beside the UCT rows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactMinimax {
    /// The search depth d (1..=8).
    pub depth: u32,
    /// The probability.
    pub value: f64,
    /// A rigorous bound on its rounding error, if the engine gives one.
    pub bound: Option<f64>,
    /// A quantized continuous evaluator only: the same at twice the bins (the difference
    /// estimates the distance to the continuous evaluator; not a bound).
    pub refined: Option<f64>,
}

/// `--evaluator histogram` without `--histogram`.
pub(super) fn missing_histogram() -> Error {
    Error::invalid(
        "--histogram",
        "given with --evaluator histogram (a CSV file)",
        "nothing",
    )
}

/// The histogram of `--evaluator histogram`: the file named, and its law ready for per-node
/// draws (the law, exact, is [`HistogramEvaluator::histogram`]).
#[derive(Debug, Clone, PartialEq)]
pub struct UctHistogram {
    /// The file as `--histogram` names it (the report and the manifest print it; `merge`
    /// reads it again and checks its hash).
    pub file: std::path::PathBuf,
    /// The evaluator.
    pub evaluator: HistogramEvaluator,
}

impl UctHistogram {
    /// Reads `file` ([`crate::analytic::decision::read_checked_histogram`]: refused unless its
    /// hash is `expected`, when given) and prepares its draws.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--histogram` for a file that cannot be read, rows
    /// that do not parse or a missing true value (`1` or `-1`), or `--histogram-fnv1a64`
    /// for another hash.
    pub fn read(file: &std::path::Path, expected: Option<&str>) -> Result<Self> {
        let histogram = crate::analytic::decision::read_checked_histogram(file, expected)?;
        Ok(UctHistogram {
            file: file.to_path_buf(),
            evaluator: HistogramEvaluator::new(histogram)?,
        })
    }

    /// The law's hash as the manifest prints it (`--histogram-fnv1a64`, 16 hex digits).
    pub fn hash(&self) -> String {
        format!("{:016x}", self.evaluator.histogram().hash())
    }
}

/// Everything that fixes a UCT study's result (with the seed and the number of games).
#[derive(Debug, Clone, PartialEq)]
pub struct UctStudySpec {
    /// The game.
    pub game: UctGame,
    /// The evaluator.
    pub evaluator: UctEvaluator,
    /// sigma of the Gaussian evaluator (on the `+-1` scale; ignored by the others).
    pub sigma: f64,
    /// The error rate e of the artificial evaluator (ignored by the others).
    pub error: f64,
    /// The histogram of [`UctEvaluator::Histogram`] (given with it and only with it).
    pub histogram: Option<UctHistogram>,
    /// The exploration constants c, in the order of the report.
    pub exploration: Vec<f64>,
    /// The iteration counts N at which decisions are recorded, increasing.
    pub iterations: Vec<u64>,
    /// How the move is read out.
    pub final_move: FinalMove,
    /// **Exact d-ply minimax values to put beside the UCT rows** (a second table, `minimax`),
    /// filled by the caller from the exact engine; empty: no such table. Not a parameter of
    /// the run (not in the manifest): `merge` fills it again the same way.
    pub exact_minimax: Vec<ExactMinimax>,
    /// What the exact minimax values are (or why there are none), a note of the report;
    /// empty: no note.
    pub exact_note: String,
}

impl UctStudySpec {
    /// A study with the decision by the mean and no exact minimax values.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::nguyen_ramanujan::study::{UctEvaluator, UctGame, UctStudySpec};
    /// let game = UctGame::Critical { branching: 2, height: 50, gamma_max: 1.0, gamma_min: 1.0 };
    /// let spec = UctStudySpec::new(game, UctEvaluator::Gaussian, 0.25, vec![0.1, 1.0], vec![1, 10, 100])
    ///     .unwrap();
    /// assert_eq!(spec.rows(), 6);
    /// let game = UctGame::Critical { branching: 2, height: 50, gamma_max: 1.0, gamma_min: 1.0 };
    /// let err = UctStudySpec::new(game, UctEvaluator::Gaussian, 0.25, vec![], vec![1]).unwrap_err();
    /// assert!(err.to_string().starts_with("--c must be"));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--c` (none, negative or not finite), `--iterations`
    /// (not increasing whole numbers from 1), `--sigma` (negative or not finite), `--error`
    /// (outside `[0, 1]`), `--histogram` (missing with [`UctEvaluator::Histogram`], or given
    /// with another evaluator), or the critical game's `--branching`, `--height` or `--gamma`.
    pub fn new(
        game: UctGame,
        evaluator: UctEvaluator,
        sigma: f64,
        exploration: Vec<f64>,
        iterations: Vec<u64>,
    ) -> Result<Self> {
        let spec = UctStudySpec {
            game,
            evaluator,
            sigma,
            error: 0.0,
            histogram: None,
            exploration,
            iterations,
            final_move: FinalMove::Mean,
            exact_minimax: Vec::new(),
            exact_note: String::new(),
        };
        spec.check()?;
        Ok(spec)
    }

    /// A study with the histogram evaluator ([`UctEvaluator::Histogram`]), the decision by
    /// the mean and no exact minimax values.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::nguyen_ramanujan::study::{UctGame, UctHistogram, UctStudySpec};
    /// use std::io::Write;
    /// let mut file = tempfile::NamedTempFile::new().unwrap();
    /// file.write_all(b"value,evaluation,weight\n1,0.5,3\n1,-0.5,1\n-1,-0.5,3\n-1,0.5,1\n").unwrap();
    /// let histogram = UctHistogram::read(file.path(), None).unwrap();
    /// let game = UctGame::Critical { branching: 2, height: 50, gamma_max: 1.0, gamma_min: 1.0 };
    /// let spec = UctStudySpec::with_histogram(game, histogram, vec![1.0], vec![1, 10]).unwrap();
    /// assert_eq!(spec.evaluator.name(), "histogram");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`UctStudySpec::new`].
    pub fn with_histogram(
        game: UctGame,
        histogram: UctHistogram,
        exploration: Vec<f64>,
        iterations: Vec<u64>,
    ) -> Result<Self> {
        let mut spec =
            UctStudySpec::new(game, UctEvaluator::Perfect, 0.0, exploration, iterations)?;
        spec.evaluator = UctEvaluator::Histogram;
        spec.histogram = Some(histogram);
        spec.check()?;
        Ok(spec)
    }

    /// Checks every parameter (see [`UctStudySpec::new`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::nguyen_ramanujan::study::{UctEvaluator, UctGame, UctStudySpec};
    /// let game = UctGame::Critical { branching: 2, height: 50, gamma_max: 1.0, gamma_min: 1.0 };
    /// let mut spec = UctStudySpec::new(game, UctEvaluator::Gaussian, 0.25, vec![1.0], vec![1, 10]).unwrap();
    /// spec.sigma = f64::NAN;
    /// assert!(spec.check().unwrap_err().to_string().starts_with("--sigma"));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`UctStudySpec::new`].
    pub fn check(&self) -> Result<()> {
        if self.exploration.is_empty() {
            return Err(Error::invalid(
                "--c",
                "one or more exploration constants",
                "none",
            ));
        }
        for &c in &self.exploration {
            check_exploration(c)?;
        }
        let mut sorted = self.exploration.clone();
        sorted.sort_by(f64::total_cmp);
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(Error::invalid(
                "--c",
                "distinct exploration constants",
                self.exploration
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
            ));
        }
        check_iterations(&self.iterations)?;
        if !(self.sigma.is_finite() && self.sigma >= 0.0) {
            return Err(Error::invalid(
                "--sigma",
                "finite and at least 0",
                self.sigma,
            ));
        }
        if !(0.0..=1.0).contains(&self.error) {
            return Err(Error::invalid("--error", "in [0, 1]", self.error));
        }
        match (self.evaluator, &self.histogram) {
            (UctEvaluator::Histogram, None) => return Err(missing_histogram()),
            (other, Some(_)) if other != UctEvaluator::Histogram => {
                return Err(Error::invalid(
                    "--histogram",
                    "given only with --evaluator histogram",
                    format!("--evaluator {}", other.name()),
                ));
            }
            _ => {}
        }
        self.game.check()
    }

    /// The number of (c, N) rows.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::nguyen_ramanujan::study::{UctEvaluator, UctGame, UctStudySpec};
    /// let game = UctGame::Critical { branching: 2, height: 50, gamma_max: 1.0, gamma_min: 1.0 };
    /// let spec = UctStudySpec::new(game, UctEvaluator::Perfect, 0.0, vec![0.1, 1.0, 10.0], vec![1, 10]).unwrap();
    /// assert_eq!(spec.rows(), 6);
    /// ```
    pub fn rows(&self) -> usize {
        self.exploration.len() * self.iterations.len()
    }

    fn params(&self, exploration: f64) -> UctParams {
        UctParams {
            exploration,
            final_move: self.final_move,
            leaf: match self.evaluator {
                UctEvaluator::RandomPlayout => LeafValue::RandomPlayout,
                _ => LeafValue::Evaluator,
            },
        }
    }

    /// The last iteration count (every search runs that long).
    fn last(&self) -> u64 {
        *self.iterations.last().unwrap_or(&0)
    }
}

/// The counts of a run (or of summed shards).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UctCounts {
    /// Games played.
    pub games: u64,
    /// Boards drawn (P- and N-games; the games themselves for the critical game).
    pub boards_drawn: u64,
    /// Successes and trials per row: index `i * iterations.len() + k` for the `i`-th c and
    /// the `k`-th N.
    pub correct: Vec<Proportion>,
}

/// Per-thread buffers, reused across games.
#[derive(Debug, Default)]
pub struct Scratch {
    critical: Option<Uct<CriticalNode>>,
    board: Option<Uct<Region>>,
    leaves: Vec<bool>,
    wins: Vec<bool>,
    ones: Vec<u32>,
}

/// One game's outcome: success bits per row, and the boards drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameOutcome {
    /// Whether the decision of each row (in [`UctCounts::correct`] order) was winning.
    pub correct: Vec<bool>,
    /// Boards drawn for this game (1 for the critical game).
    pub boards_drawn: u32,
}

/// Plays one game of the study from the trial's stream: `None` when no non-trivial board
/// turned up in [`MAX_ATTEMPTS`] draws.
///
/// # Examples
///
/// ```
/// use pathology::studies::nguyen_ramanujan::study::{Scratch, UctEvaluator, UctGame, UctStudySpec, play_game};
/// use pathology::sim::runner::trial_rng;
/// let game = UctGame::Critical { branching: 2, height: 10, gamma_max: 1.0, gamma_min: 1.0 };
/// let spec = UctStudySpec::new(game, UctEvaluator::Perfect, 0.0, vec![1.0], vec![2, 5000]).unwrap();
/// let outcome = play_game(&spec, &mut Scratch::default(), &mut trial_rng(1, 0)).unwrap().unwrap();
/// assert_eq!(outcome.correct.len(), 2);
/// assert!(outcome.correct[1]); // 5000 iterations with the perfect evaluator
/// ```
///
/// # Errors
///
/// As [`UctStudySpec::check`] (a spec built by [`UctStudySpec::new`] passes).
pub fn play_game(
    spec: &UctStudySpec,
    scratch: &mut Scratch,
    rng: &mut ChaCha8Rng,
) -> Result<Option<GameOutcome>> {
    match &spec.game {
        UctGame::Critical {
            branching,
            height,
            gamma_max,
            gamma_min,
        } => {
            let game =
                CriticalGame::new(*branching, *height, *gamma_max, *gamma_min, rng.random())?;
            let root = game.root();
            let winning: Vec<bool> = game
                .moves(&root)
                .iter()
                .map(|&m| game.play(&root, m).max_wins)
                .collect();
            let evaluator = match spec.evaluator {
                UctEvaluator::Perfect | UctEvaluator::RandomPlayout => {
                    Some(CriticalEvaluator::Perfect)
                }
                UctEvaluator::Gaussian => Some(CriticalEvaluator::Gaussian { sigma: spec.sigma }),
                UctEvaluator::ExpectedPlayout => Some(CriticalEvaluator::ExpectedPlayout),
                UctEvaluator::Artificial => {
                    Some(CriticalEvaluator::Artificial { error: spec.error })
                }
                UctEvaluator::Histogram => None,
            };
            let uct = scratch.critical.get_or_insert_with(Uct::new);
            let correct = match (evaluator, &spec.histogram) {
                (Some(e), _) => search_all(spec, uct, &game, &root, &e, &winning, rng)?,
                (None, Some(h)) => {
                    search_all(spec, uct, &game, &root, &h.evaluator, &winning, rng)?
                }
                (None, None) => return Err(missing_histogram()),
            };
            Ok(Some(GameOutcome {
                correct,
                boards_drawn: 1,
            }))
        }
        UctGame::Board(board) => {
            let Some(attempts) = draw_non_trivial(board, scratch, rng) else {
                return Ok(None);
            };
            let game = board.game(&scratch.leaves)?;
            board.tree.count_ones(&scratch.leaves, &mut scratch.ones);
            let tree = &board.tree;
            let h = tree.height();
            let root = game.root();
            let mover_is_max = Player::to_move_at_height(h) == Player::Max;
            let winning: Vec<bool> = (0..tree.branching())
                .map(|k| scratch.wins[tree.index(h - 1, k)] == mover_is_max)
                .collect();
            let evaluator = BoardEvaluator {
                tree,
                wins: &scratch.wins,
                ones: &scratch.ones,
                evaluator: spec.evaluator,
                sigma: spec.sigma,
                error: spec.error,
                histogram: spec.histogram.as_ref().map(|h| &h.evaluator),
                seed: rng.random(),
            };
            let uct = scratch.board.get_or_insert_with(Uct::new);
            let correct = search_all(spec, uct, &game, &root, &evaluator, &winning, rng)?;
            Ok(Some(GameOutcome {
                correct,
                boards_drawn: attempts,
            }))
        }
    }
}

/// Runs one search per c on the same game, each on its own stream, and marks the winning
/// decisions.
fn search_all<G: Game, E: Evaluator<G>>(
    spec: &UctStudySpec,
    uct: &mut Uct<G::State>,
    game: &G,
    root: &G::State,
    evaluator: &E,
    winning: &[bool],
    rng: &mut ChaCha8Rng,
) -> Result<Vec<bool>> {
    let search_seed: u64 = rng.random();
    let mut correct = Vec::with_capacity(spec.rows());
    for &c in &spec.exploration {
        let mut stream = ChaCha8Rng::seed_from_u64(search_seed);
        stream.set_stream(c.to_bits());
        let decisions = uct.search(
            game,
            root,
            evaluator,
            &spec.params(c),
            &spec.iterations,
            &mut stream,
        )?;
        correct.extend(decisions.iter().map(|&d| winning[d]));
    }
    Ok(correct)
}

/// Draws boards until the root is won for its mover and has a losing move (into `s.leaves`,
/// its values into `s.wins`); returns the boards drawn, or `None` after [`MAX_ATTEMPTS`].
fn draw_non_trivial(spec: &BoardSpec, s: &mut Scratch, rng: &mut ChaCha8Rng) -> Option<u32> {
    let tree = &spec.tree;
    let h = tree.height();
    let mover_is_max = Player::to_move_at_height(h) == Player::Max;
    let children = tree.offset(h - 1);
    for attempt in 1..=MAX_ATTEMPTS {
        spec.draw(rng, &mut s.leaves);
        tree.solve(&s.leaves, &mut s.wins);
        let kids = &s.wins[children..children + tree.branching()];
        let winning = kids.iter().filter(|&&w| w == mover_is_max).count();
        if winning > 0 && winning < kids.len() {
            return Some(attempt);
        }
    }
    None
}

/// The flat index ([`LevelTree`]) of the node of `region` in a board of this shape.
///
/// # Examples
///
/// ```
/// use pathology::games::{Game, SplittingGame};
/// use pathology::sim::level_tree::LevelTree;
/// use pathology::studies::nguyen_ramanujan::study::flat_index;
/// let tree = LevelTree::new(3, 4).unwrap();
/// let game = SplittingGame::from_leaves(3, 4, &[false; 81]).unwrap();
/// for (i, region) in tree.regions(&game).iter().enumerate() {
///     assert_eq!(flat_index(&tree, region), i);
/// }
/// ```
pub fn flat_index(tree: &LevelTree, region: &Region) -> usize {
    let b = tree.branching();
    let t = region.height;
    let moves_made = tree.height() - t;
    // The root's mover cuts rows first: rows are cut ceil(m/2) times, columns floor(m/2).
    let (row_cuts, col_cuts) = (moves_made.div_ceil(2), moves_made / 2);
    let row_block = (region.row / region.rows) as usize;
    let col_block = (region.col / region.cols) as usize;
    let mut index = 0;
    for k in 0..moves_made {
        let digit = if k % 2 == 0 {
            row_block / b.pow(row_cuts - 1 - k / 2) % b
        } else {
            col_block / b.pow(col_cuts - 1 - k / 2) % b
        };
        index = index * b + digit;
    }
    tree.index(t, index)
}

/// The evaluators on a solved board, by flat index.
struct BoardEvaluator<'a> {
    tree: &'a LevelTree,
    wins: &'a [bool],
    ones: &'a [u32],
    evaluator: UctEvaluator,
    sigma: f64,
    error: f64,
    /// The histogram's draws ([`UctEvaluator::Histogram`]; there by [`UctStudySpec::check`]).
    histogram: Option<&'a HistogramEvaluator>,
    /// The seed of the Gaussian noise, the artificial errors and the histogram draws (fixed
    /// per node through [`node_uniform`]).
    seed: u64,
}

impl Evaluator<SplittingGame> for BoardEvaluator<'_> {
    fn evaluate(&self, _game: &SplittingGame, state: &Region) -> f64 {
        let i = flat_index(self.tree, state);
        let truth = f64::from(u8::from(self.wins[i]));
        match self.evaluator {
            UctEvaluator::Perfect | UctEvaluator::RandomPlayout => truth,
            UctEvaluator::Gaussian => {
                // Box-Muller on two per-node uniforms, u1 in (0, 1].
                let u1 = 1.0 - node_uniform(state, self.seed, 11);
                let u2 = node_uniform(state, self.seed, 12);
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                truth + self.sigma * z / 2.0
            }
            UctEvaluator::ExpectedPlayout => {
                let squares = f64::from(state.rows) * f64::from(state.cols);
                f64::from(self.ones[i]) / squares
            }
            UctEvaluator::Artificial => {
                let wrong = node_uniform(state, self.seed, 13) < self.error;
                f64::from(u8::from(self.wins[i] != wrong))
            }
            UctEvaluator::Histogram => self.histogram.map_or(truth, |h| {
                h.value(self.wins[i], node_uniform(state, self.seed, 14))
            }),
        }
    }
}

/// The study's counts: the games of `runner` (its shard's only, when sharded).
///
/// # Examples
///
/// ```
/// use pathology::sim::TrialRunner;
/// use pathology::sim::runner::Shard;
/// use pathology::studies::nguyen_ramanujan::study::{UctEvaluator, UctGame, UctStudySpec, run_counts};
/// let game = UctGame::Critical { branching: 3, height: 20, gamma_max: 0.9, gamma_min: 0.9 };
/// let spec = UctStudySpec::new(game, UctEvaluator::Gaussian, 0.5, vec![0.5, 5.0], vec![1, 30]).unwrap();
/// let runner = || TrialRunner::new(40, 7, 2).unwrap();
/// let full = run_counts(&spec, &runner()).unwrap();
/// assert_eq!(full.correct.len(), 4);
/// assert!(full.correct.iter().all(|p| p.trials == 40));
/// let parts: Vec<_> = ["1/2", "2/2"]
///     .iter()
///     .map(|s| run_counts(&spec, &runner().with_shard(Shard::parse(s).unwrap())).unwrap())
///     .collect();
/// for row in 0..4 {
///     assert_eq!(parts[0].correct[row].successes + parts[1].correct[row].successes,
///                full.correct[row].successes);
/// }
/// ```
///
/// # Errors
///
/// As [`UctStudySpec::check`]; [`Error::InvalidArgument`] naming `--p` when some game found
/// no non-trivial board in [`MAX_ATTEMPTS`] draws; [`Error::Interrupted`] when cancelled.
pub fn run_counts(spec: &UctStudySpec, runner: &TrialRunner) -> Result<UctCounts> {
    spec.check()?;
    let rows = spec.rows();
    let initial = (vec![Proportion::default(); rows], 0u64, 0u64, None::<Error>);
    let (correct, drawn, failed, error) = runner.run(
        Scratch::default,
        |scratch, rng| play_game(spec, scratch, rng),
        initial,
        |(mut correct, drawn, failed, error), outcome| match outcome {
            Ok(Some(game)) => {
                for (p, &bit) in correct.iter_mut().zip(&game.correct) {
                    p.record(bit);
                }
                (correct, drawn + u64::from(game.boards_drawn), failed, error)
            }
            Ok(None) => (correct, drawn + u64::from(MAX_ATTEMPTS), failed + 1, error),
            Err(e) => (correct, drawn, failed, error.or(Some(e))),
        },
    )?;
    if let Some(e) = error {
        return Err(e);
    }
    if failed > 0 {
        let p = match &spec.game {
            UctGame::Board(board) => board.parameter,
            UctGame::Critical { .. } => f64::NAN,
        };
        return Err(Error::invalid(
            "--p",
            &format!(
                "a probability that gives roots won for their mover with a losing move within \
                 {MAX_ATTEMPTS} boards"
            ),
            p,
        ));
    }
    Ok(UctCounts {
        games: runner.trials_run(),
        boards_drawn: drawn,
        correct,
    })
}

/// Seconds per UCT iteration on one thread, from `examples/uct_speed.rs` (release build, the
/// shared 2-core machine under load, per CPU second): the critical game with H = 50 and 10^5
/// iterations took 0.46-0.77 µs per iteration averaged over the paper's six c (b = 2:
/// 0.46-0.77; b = 5: 0.49-0.68; b = 8: 0.60-0.77; the slowest single c, 0.001-0.1 at b = 8
/// with the Gaussian evaluator, about 1 µs), a random playout about 25 ns a move. The model
/// takes `0.6 µs + 0.06 µs b`, plus `20 ns H` for a random playout and `3 ns H` for a board's
/// flat index: 1.3-2x the measured whole-game costs (examples/uct_speed.rs prints both).
fn seconds_per_iteration(spec: &UctStudySpec) -> f64 {
    let b = f64::from(spec.game.branching());
    let h = f64::from(spec.game.height());
    let playout = match spec.evaluator {
        UctEvaluator::RandomPlayout => 20e-9 * h,
        _ => 0.0,
    };
    let board = match spec.game {
        UctGame::Board(_) => 3e-9 * h,
        UctGame::Critical { .. } => 0.0,
    };
    0.6e-6 + 0.06e-6 * b + playout + board
}

/// Estimated seconds per game on one thread: every c searched for the last N iterations, and
/// for P- and N-games about three boards drawn and solved (10 ns a node).
///
/// # Examples
///
/// ```
/// use pathology::studies::nguyen_ramanujan::study::{UctEvaluator, UctGame, UctStudySpec, game_seconds};
/// let game = UctGame::Critical { branching: 2, height: 50, gamma_max: 1.0, gamma_min: 1.0 };
/// let c = vec![0.001, 0.01, 0.1, 1.0, 10.0, 1e6];
/// let spec = UctStudySpec::new(game, UctEvaluator::Gaussian, 0.25, c, vec![1, 100_000]).unwrap();
/// let seconds = game_seconds(&spec);
/// assert!(seconds > 0.3 && seconds < 0.6); // 6 searches of 1e5 iterations
/// ```
pub fn game_seconds(spec: &UctStudySpec) -> f64 {
    let searches = spec.exploration.len() as f64 * spec.last() as f64;
    let boards = match &spec.game {
        UctGame::Board(board) => 3.0 * 10e-9 * board.tree.len() as f64,
        UctGame::Critical { .. } => 0.0,
    };
    searches * seconds_per_iteration(spec) + boards
}

/// Peak bytes of one thread's search tree: at most one node per iteration with its share of
/// the child-index blocks ([`Uct::bytes_used`]), at most `bytes_per_node + 4 b` each.
///
/// # Examples
///
/// ```
/// use pathology::studies::nguyen_ramanujan::study::{UctEvaluator, UctGame, UctStudySpec, tree_bytes};
/// let game = UctGame::Critical { branching: 8, height: 50, gamma_max: 1.0, gamma_min: 1.0 };
/// let spec = UctStudySpec::new(game, UctEvaluator::Gaussian, 0.25, vec![1.0], vec![100_000]).unwrap();
/// assert_eq!(tree_bytes(&spec), (48.0 + 32.0) * 100_001.0);
/// ```
pub fn tree_bytes(spec: &UctStudySpec) -> f64 {
    let node = match spec.game {
        UctGame::Critical { .. } => Uct::<CriticalNode>::bytes_per_node(),
        UctGame::Board(_) => Uct::<Region>::bytes_per_node(),
    };
    let per_node = node as f64 + 4.0 * f64::from(spec.game.branching());
    per_node * (spec.last() as f64 + 1.0)
}

/// Refuses, with its estimate, a run longer than the Monte Carlo limit (one hour), naming
/// `--games` (or `--iterations` when one game alone, which runs on one thread, exceeds it),
/// or whose search trees (one per thread, [`tree_bytes`]) with the boards' arrays
/// exceed the memory limit, naming `--iterations`; returns the estimated seconds otherwise.
///
/// # Examples
///
/// ```
/// use pathology::sim::TrialRunner;
/// use pathology::studies::nguyen_ramanujan::study::{UctEvaluator, UctGame, UctStudySpec, check_budget};
/// let game = || UctGame::Critical { branching: 8, height: 50, gamma_max: 1.0, gamma_min: 1.0 };
/// let spec = UctStudySpec::new(game(), UctEvaluator::Gaussian, 0.25, vec![1.0], vec![100_000]).unwrap();
/// assert!(check_budget(&spec, &TrialRunner::new(10, 1, 2).unwrap()).is_ok());
/// let err = check_budget(&spec, &TrialRunner::new(1_000_000, 1, 2).unwrap()).unwrap_err();
/// assert!(err.to_string().contains("--games 1000000"));
/// let deep = UctStudySpec::new(game(), UctEvaluator::Gaussian, 0.25, vec![1.0], vec![1 << 30]).unwrap();
/// let err = check_budget(&deep, &TrialRunner::new(1, 1, 2).unwrap()).unwrap_err();
/// assert!(err.to_string().contains("Use fewer --iterations"));
/// ```
///
/// # Errors
///
/// [`Error::TooExpensive`] above either limit.
pub fn check_budget(spec: &UctStudySpec, runner: &TrialRunner) -> Result<f64> {
    let what = format!(
        "mc uct on {} games (b = {}, H = {}), {} c x {} iterations",
        spec.game.name(),
        spec.game.branching(),
        spec.game.height(),
        spec.exploration.len(),
        spec.last()
    );
    let boards = match &spec.game {
        UctGame::Board(board) => 16.0 * board.tree.len() as f64,
        UctGame::Critical { .. } => 0.0,
    };
    let bytes = runner.effective_threads() as f64 * (tree_bytes(spec) + boards);
    if bytes > crate::budget::MEMORY_LIMIT_BYTES {
        return Err(crate::budget::refuse(
            format!("{what} on {} threads", runner.effective_threads()),
            format!("{} of memory", crate::budget::human_bytes(bytes)),
            crate::budget::human_bytes(crate::budget::MEMORY_LIMIT_BYTES),
            "Use fewer --iterations (or fewer --threads).",
        ));
    }
    let one_game = game_seconds(spec);
    if one_game > crate::budget::monte_carlo_limit_seconds() {
        // One game runs on one thread: neither more threads nor shards help.
        return Err(crate::budget::refuse(
            format!("one game of {what}"),
            crate::budget::human_seconds(one_game),
            crate::budget::human_seconds(crate::budget::monte_carlo_limit_seconds()),
            "Use fewer --iterations (or fewer --c).",
        ));
    }
    runner.check_budget_of("--games", &what, one_game)
}

/// The kind of a board game from `--game`.
///
/// # Examples
///
/// ```
/// use pathology::studies::nguyen_ramanujan::study::board_kind;
/// use pathology::sim::level_tree::GameKind;
/// assert_eq!(board_kind("p").unwrap(), Some(GameKind::P));
/// assert_eq!(board_kind("crit").unwrap(), None);
/// assert!(board_kind("d").is_err());
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--game`.
pub fn board_kind(name: &str) -> Result<Option<GameKind>> {
    match name {
        "crit" => Ok(None),
        "p" => Ok(Some(GameKind::P)),
        "n" => Ok(Some(GameKind::N)),
        other => Err(Error::invalid("--game", "crit, p or n", other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::solve;
    use crate::sim::runner::{Shard, trial_rng};

    fn critical(b: u32, h: u32, gamma: f64) -> UctGame {
        UctGame::Critical {
            branching: b,
            height: h,
            gamma_max: gamma,
            gamma_min: gamma,
        }
    }

    /// The counts do not depend on the thread count, and the shards sum to the whole run.
    #[test]
    fn deterministic_across_threads_and_shards() {
        for game in [
            critical(2, 30, 0.9),
            UctGame::Board(
                BoardSpec::new(GameKind::P, 2, 8, GameKind::P.default_parameter(2).unwrap())
                    .unwrap(),
            ),
            UctGame::Board(BoardSpec::new(GameKind::N, 3, 5, 0.5).unwrap()),
        ] {
            let spec = UctStudySpec::new(
                game,
                UctEvaluator::Gaussian,
                0.5,
                vec![0.01, 0.5, 100.0],
                vec![1, 3, 40, 200],
            )
            .unwrap();
            let runner = |threads| TrialRunner::new(30, 5, threads).unwrap();
            let one = run_counts(&spec, &runner(1)).unwrap();
            let two = run_counts(&spec, &runner(2)).unwrap();
            assert_eq!(one, two);
            let mut summed = vec![Proportion::default(); spec.rows()];
            let mut drawn = 0;
            for k in 1..=3 {
                let shard = Shard::parse(&format!("{k}/3")).unwrap();
                let part = run_counts(&spec, &runner(2).with_shard(shard)).unwrap();
                drawn += part.boards_drawn;
                for (s, p) in summed.iter_mut().zip(&part.correct) {
                    s.successes += p.successes;
                    s.trials += p.trials;
                }
            }
            assert_eq!(summed, one.correct);
            assert_eq!(drawn, one.boards_drawn);
        }
    }

    /// A c's decisions do not depend on which other c are run (each has its own stream).
    #[test]
    fn each_c_has_its_own_stream() {
        let spec = |c: Vec<f64>| {
            UctStudySpec::new(
                critical(3, 12, 1.0),
                UctEvaluator::Gaussian,
                1.0,
                c,
                vec![5, 50],
            )
            .unwrap()
        };
        let both = play_game(
            &spec(vec![0.2, 3.0]),
            &mut Scratch::default(),
            &mut trial_rng(4, 9),
        )
        .unwrap()
        .unwrap();
        let alone = play_game(
            &spec(vec![3.0]),
            &mut Scratch::default(),
            &mut trial_rng(4, 9),
        )
        .unwrap()
        .unwrap();
        assert_eq!(both.correct[2..], alone.correct[..]);
    }

    /// Board games are non-trivial, their flat indices match the regions, and the success
    /// bits are the true values of the chosen moves.
    #[test]
    fn board_games_are_non_trivial() {
        let board = BoardSpec::new(GameKind::P, 2, 6, 0.45).unwrap();
        let mut scratch = Scratch::default();
        for i in 0..20 {
            let mut rng = trial_rng(3, i);
            let attempts = draw_non_trivial(&board, &mut scratch, &mut rng).unwrap();
            assert!(attempts >= 1);
            let game = board.game(&scratch.leaves).unwrap();
            let root = game.root();
            let mover = game.to_move(&root);
            let root_value = solve(&game, &root);
            assert_eq!(root_value, if mover == Player::Max { 1.0 } else { 0.0 });
            let children: Vec<f64> = (0..2).map(|m| solve(&game, &game.play(&root, m))).collect();
            assert_ne!(children[0], children[1]);
            let regions = board.tree.regions(&game);
            for (k, region) in regions.iter().enumerate() {
                assert_eq!(flat_index(&board.tree, region), k);
                assert_eq!(scratch.wins[k], solve(&game, region) == 1.0);
            }
        }
    }

    /// With the perfect evaluator and enough iterations every game is decided correctly, on
    /// the critical game and on P-games.
    #[test]
    fn perfect_information_decides_correctly() {
        for game in [
            critical(2, 8, 1.0),
            UctGame::Board(BoardSpec::new(GameKind::P, 2, 6, 0.382).unwrap()),
        ] {
            let spec =
                UctStudySpec::new(game, UctEvaluator::Perfect, 0.0, vec![1.0], vec![2000]).unwrap();
            let counts = run_counts(&spec, &TrialRunner::new(20, 1, 2).unwrap()).unwrap();
            assert_eq!(counts.correct[0].successes, 20);
        }
    }

    /// A histogram of the perfect evaluator's law (won: 1, lost: -1, weight 1) decides
    /// exactly as the perfect evaluator in every game, on the critical game and on P- and
    /// N-games (the same counts, row by row); a histogram that inverts it does not.
    #[test]
    fn the_perfect_histogram_is_the_perfect_evaluator() {
        let histogram = |text: &str| UctHistogram {
            file: "perfect.csv".into(),
            evaluator: HistogramEvaluator::new(
                crate::analytic::distributions::Histogram::parse(text).unwrap(),
            )
            .unwrap(),
        };
        for game in [
            critical(3, 20, 0.9),
            UctGame::Board(BoardSpec::new(GameKind::P, 2, 8, 0.382).unwrap()),
            UctGame::Board(BoardSpec::new(GameKind::N, 2, 7, 0.5).unwrap()),
        ] {
            let (c, n) = (vec![0.05, 1.0, 50.0], vec![1, 4, 30, 300]);
            let perfect = UctStudySpec::new(
                game.clone(),
                UctEvaluator::Perfect,
                0.0,
                c.clone(),
                n.clone(),
            )
            .unwrap();
            let same = UctStudySpec::with_histogram(
                game.clone(),
                histogram("1,1\n-1,-1\n"),
                c.clone(),
                n.clone(),
            )
            .unwrap();
            let inverted =
                UctStudySpec::with_histogram(game.clone(), histogram("1,-1\n-1,1\n"), c, n)
                    .unwrap();
            let runner = || TrialRunner::new(40, 11, 2).unwrap();
            let expected = run_counts(&perfect, &runner()).unwrap();
            assert_eq!(run_counts(&same, &runner()).unwrap(), expected, "{game:?}");
            assert_ne!(
                run_counts(&inverted, &runner()).unwrap(),
                expected,
                "{game:?}"
            );
        }
    }

    /// The histogram evaluator is given with its histogram and only with it.
    #[test]
    fn the_histogram_goes_with_its_evaluator() {
        let err = UctStudySpec::new(
            critical(2, 10, 1.0),
            UctEvaluator::Histogram,
            0.0,
            vec![1.0],
            vec![1],
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "--histogram must be given with --evaluator histogram (a CSV file), got nothing"
        );
        let mut spec = UctStudySpec::new(
            critical(2, 10, 1.0),
            UctEvaluator::Gaussian,
            0.5,
            vec![1.0],
            vec![1],
        )
        .unwrap();
        spec.histogram = Some(UctHistogram {
            file: "h.csv".into(),
            evaluator: HistogramEvaluator::new(
                crate::analytic::distributions::Histogram::parse("1,1\n-1,-1\n").unwrap(),
            )
            .unwrap(),
        });
        assert_eq!(
            spec.check().unwrap_err().to_string(),
            "--histogram must be given only with --evaluator histogram, got --evaluator gaussian"
        );
    }

    /// Impossible boards are refused naming --p.
    #[test]
    fn impossible_boards_are_reported() {
        let board = UctGame::Board(BoardSpec::new(GameKind::P, 2, 4, 0.0).unwrap());
        let spec =
            UctStudySpec::new(board, UctEvaluator::Perfect, 0.0, vec![1.0], vec![1]).unwrap();
        let err = run_counts(&spec, &TrialRunner::new(1, 1, 1).unwrap()).unwrap_err();
        assert!(err.to_string().starts_with("--p must be"));
    }

    #[test]
    fn arguments_are_checked() {
        let spec = |sigma: f64, c: Vec<f64>, n: Vec<u64>| {
            UctStudySpec::new(critical(2, 10, 1.0), UctEvaluator::Gaussian, sigma, c, n)
        };
        assert!(
            spec(-1.0, vec![1.0], vec![1])
                .unwrap_err()
                .to_string()
                .starts_with("--sigma")
        );
        assert!(
            spec(1.0, vec![1.0, 1.0], vec![1])
                .unwrap_err()
                .to_string()
                .starts_with("--c")
        );
        assert!(
            spec(1.0, vec![1.0], vec![3, 2])
                .unwrap_err()
                .to_string()
                .starts_with("--iterations")
        );
        let bad = UctStudySpec::new(
            critical(2, 10, 1.5),
            UctEvaluator::Gaussian,
            1.0,
            vec![1.0],
            vec![1],
        );
        assert!(bad.unwrap_err().to_string().starts_with("--gamma"));
    }
}
