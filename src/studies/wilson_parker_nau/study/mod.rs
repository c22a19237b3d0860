//! Decision quality of minimax, the product rule and error minimizing minimax (EMM) at every
//! search depth: Wilson, Parker & Nau (2009), "Experiments", Figs. 3-6.
//!
//! **Games.** P-games (squares 1 with probability `p`, default `w_b`) and N-games (edges +1
//! with probability `p`, default 1/2) of branching factor `b` and height `H`
//! ([`crate::games::splitting`]; a 1-square is a win for Max, who moves last). Each trial draws
//! boards until it finds a **non-trivial** one: the root has both a winning and a losing move
//! for the player to move (Wilson et al.: "10,000 non-trivial P-games"; a trivial root makes
//! every decision correct or every decision wrong whatever the search does). The number of
//! boards drawn is reported.
//!
//! **Decisions.** On each board the root is searched to every depth `d = 1..=H` by the three
//! algorithms, all on the same board and the same static evaluations: minimax
//! ([`crate::search::minimax`](mod@crate::search::minimax)), the product rule ([`crate::search::product`](mod@crate::search::product)) and EMM
//! (Algorithm 1, [`crate::search::emm`](mod@crate::search::emm)). A depth-d search values the root's children by
//! depth-`(d - 1)` searches; minimax and product move to a child with the best value for the
//! player to move, EMM to the child most likely to be a win for it (a child judged a win with
//! error `er` is a win with probability `1 - er`, one judged a loss with probability `er`); ties
//! are broken uniformly at random (the trial's stream). A decision is **correct** when the
//! chosen child's true value is a win for the player to move (Wilson et al.: "its true minimax
//! value is maximal among moves at that node"). At `d = H` every search reaches the squares, so
//! every decision is correct.
//!
//! **Evaluators** ([`StudyEvaluator`]):
//!
//! - *Artificial* with error `e`: every interior node's binary evaluation is its true value,
//!   flipped with probability `e` independently per node (drawn once per node and board, so
//!   the three algorithms see the same evaluations). Minimax searches the 0/1 values; EMM gets
//!   each judgement with its error `e`. The product rule needs probabilities: it gets the
//!   probability that the node is a win for Max given the judgement, `1 - e` for a judged win
//!   and `e` for a judged loss (on 0/1 values the product rule *is* minimax; the paper does not
//!   say what it fed the product rule, and this is the only reading under which its curve can
//!   differ from minimax's).
//! - *Natural*: the fraction of the remaining squares that are wins for the player to move.
//!   Made binary for EMM "a state with more wins than losses is evaluated as a win, while one
//!   containing more losses than wins is a loss"; the paper does not say what a tie is (only
//!   possible for even b), and we **count a tie as a win for the player to move** (who chooses
//!   among the parts). The paper's sentence "the product rule still uses the unaltered natural
//!   evaluation" implies the others use the binary one: minimax and EMM search the binary
//!   evaluation, the product rule the fraction of 1-squares (Max's win probability estimate).
//!   EMM's errors come from a [`Calibration`]: "we estimated the associated error (used by EMM)
//!   by generating many completely solved game trees and recording the percent occurrence along
//!   with the true minimax value of the node": for each node height and binary judgement, the
//!   fraction of nodes so judged whose true value differs ([`calibrate`], on unconditioned random
//!   boards). A cell that no node reached gets error 1/2.
//!
//! Terminal squares are exact for every algorithm (EMM: error 0). With the natural evaluator
//! the study also records minimax searching the unaltered fraction ([`FRACTION_MINIMAX`]), the
//! classical pathological setting, as a fourth curve that is not in the paper.
//!
//! **What our reruns show** (10,000 non-trivial games per setting, d = 10, seed 1,
//! `pathology mc emm-figures`; P-games with `p = w_b`, N-games with `p = 1/2`; fractions of
//! correct decisions at depths 1..9, depth 10 being 1 for all):
//!
//! - *Minimax is pathological on P-games* (artificial e = 0.1): **confirmed**, b = 2 falls from
//!   0.897 to 0.697, b = 3 from 0.875 to 0.469.
//! - *Product is pathological with the artificial evaluator* (footnote 4): **confirmed on
//!   P-games** (b = 2: 0.895 to 0.771; b = 3: 0.875 to 0.595); on N-games it only dips from
//!   depth 1 to 2 (0.900 to 0.894, b = 2) and then improves to 0.971.
//! - *EMM is never pathological with the artificial evaluator*: **almost**. It rises from
//!   0.898 to 0.983 (P, b = 2), 0.877 to 0.976 (P, b = 3), 0.899 to 0.994 (N, b = 2), 0.902 to
//!   0.996 (N, b = 3), but on binary P-games every odd-to-even step loses a little: 0.952 to
//!   0.945 (d = 3 to 4), 0.971 to 0.965, 0.981 to 0.976, reproduced with seeds 2 and 3 (e.g.
//!   0.954 to 0.945); for b = 3 the same steps are flat (0.925, 0.925), and N-games at b = 3
//!   end 0.996 to 0.995.
//! - *Product slightly ahead of EMM with the natural evaluator*: product is ahead, but **not
//!   slightly** at the default `p = w_b`: P-games b = 2, product 0.676-0.752 against EMM
//!   0.498-0.677 (b = 3: 0.530-0.553 against 0.437-0.501); N-games b = 2 from 0.912 against
//!   0.752 at depth 1 to 0.986 for both at depth 8. EMM itself is not pathological with the
//!   natural evaluator (it never falls by more than its interval). With `p = w_b` the
//!   binary natural evaluator says "loss for Max" on almost every large board, so binary
//!   minimax decides by coin flip (0.49-0.52 for b = 2); with `--p 0.5` the picture is the
//!   paper's (P-games b = 2: product 0.761-0.872, EMM 0.675-0.874, binary minimax 0.656-0.750,
//!   minimax on the fraction 0.760 falling to 0.649). Minimax on the unaltered fraction (our
//!   extra curve) is pathological on P-games (b = 2: 0.677 to 0.580 at depth 8).
//!
//! **Fast path.** Boards are [`LevelTree`] arrays. For search depth d the static values of the
//! front (height `H - d`) are backed up level by level to the root's children, so the three
//! algorithms cost `O(sum_t t b^(H-t+1))` per board for all depths together. The unit tests
//! check every decision against the generic searches of [`crate::search`] on a real
//! [`crate::games::SplittingGame`], and EMM on Wilson et al.'s Fig. 2.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::model::Player;
use crate::sim::level_tree::{BoardSpec, LevelTree, choose_best_of};
use crate::sim::runner::TrialRunner;
use crate::sim::stats::{Comparison, Proportion};

mod calibration;

pub use calibration::{Calibration, CalibrationRow, calibrate, check_writable, natural_judgement};

/// Boards a trial may draw before giving up on finding a non-trivial one.
pub const MAX_ATTEMPTS: u32 = 10_000;

/// The three algorithms, in the order of every result array.
pub const ALGORITHMS: [&str; 3] = ["minimax", "product", "emm"];

/// Index of the fourth decision in [`Decisions::correct`]: minimax on the natural evaluator's
/// unaltered fraction (the classical pathological setting), recorded with the natural
/// evaluator only.
pub const FRACTION_MINIMAX: usize = 3;

/// The static evaluator of a study.
#[derive(Debug, Clone, PartialEq)]
pub enum StudyEvaluator {
    /// The artificial binary evaluator with error rate `error`.
    Artificial {
        /// The error rate e, in [0, 1/2].
        error: f64,
    },
    /// The natural evaluator with EMM's errors from a calibration table.
    Natural(Calibration),
}

impl StudyEvaluator {
    /// `artificial (e = 0.1)` or `natural`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::wilson_parker_nau::study::StudyEvaluator;
    /// assert_eq!(StudyEvaluator::Artificial { error: 0.1 }.name(), "artificial (e = 0.1)");
    /// ```
    pub fn name(&self) -> String {
        match self {
            StudyEvaluator::Artificial { error } => format!("artificial (e = {error})"),
            StudyEvaluator::Natural(_) => "natural".to_string(),
        }
    }
}

/// Per-thread buffers, reused across trials.
#[derive(Debug, Default)]
pub struct Scratch {
    leaves: Vec<bool>,
    wins: Vec<bool>,
    ones: Vec<u32>,
    /// Static values: the product rule's, EMM's judgements (also minimax's 0/1 values) and
    /// errors.
    product: Vec<f64>,
    judged: Vec<bool>,
    error: Vec<f64>,
    /// Minimax's backed-up values at every search depth at once: bit `d - 1` of a node's
    /// entry is its value under the depth-`d` search of the root (defined from the depth whose
    /// front is the node's height).
    minimax_bits: Vec<u32>,
    /// Ping-pong buffers of backed-up values.
    product_levels: [Vec<f64>; 2],
    emm_levels: [Vec<(bool, f64)>; 2],
    fraction_levels: [Vec<u32>; 2],
}

/// One trial's decisions: bit `d - 1` of entry `a` is set when algorithm `a` ([`ALGORITHMS`],
/// then [`FRACTION_MINIMAX`]) decided correctly at depth d.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decisions {
    /// Correct-decision bits per algorithm.
    pub correct: [u32; 4],
    /// Boards drawn to find a non-trivial one.
    pub attempts: u32,
}

/// The product rule's back-up of one node over its children's values.
fn product_step(children: &[f64], mover: Player) -> f64 {
    match mover {
        Player::Max => crate::search::product::at_least_one(children),
        Player::Min => children.iter().product(),
    }
}

fn back_up_product(below: &[f64], b: usize, mover: Player, out: &mut Vec<f64>) {
    out.clear();
    out.extend(below.chunks_exact(b).map(|c| product_step(c, mover)));
}

/// The static error EMM gets for a node of height `t` judged `judged` (as
/// [`Scratch::evaluate`] stores it): 0 at the squares, `e` or the calibration's otherwise.
fn static_error(evaluator: &StudyEvaluator, t: u32, judged: bool) -> f64 {
    if t == 0 {
        return 0.0;
    }
    match evaluator {
        StudyEvaluator::Artificial { error } => *error,
        StudyEvaluator::Natural(calibration) => calibration.error(t, judged),
    }
}

/// The product rule's static value of a node of height `t` judged `judged`, when it is a
/// function of the judgement (the squares, and every node under the artificial evaluator).
fn static_product(evaluator: &StudyEvaluator, t: u32, judged: bool) -> Option<f64> {
    match evaluator {
        _ if t == 0 => Some(f64::from(u8::from(judged))),
        StudyEvaluator::Artificial { error } => Some(if judged { 1.0 - error } else { *error }),
        StudyEvaluator::Natural(_) => None,
    }
}

/// Whether every child wins (`all`) or some child does, for each group of `b` in `below`.
fn back_up_bools(below: &[bool], b: usize, all: bool, out: &mut [bool]) {
    match (b, all) {
        (2, false) => {
            for (o, c) in out.iter_mut().zip(below.chunks_exact(2)) {
                *o = c[0] | c[1];
            }
        }
        (2, true) => {
            for (o, c) in out.iter_mut().zip(below.chunks_exact(2)) {
                *o = c[0] & c[1];
            }
        }
        (3, false) => {
            for (o, c) in out.iter_mut().zip(below.chunks_exact(3)) {
                *o = c[0] | c[1] | c[2];
            }
        }
        (3, true) => {
            for (o, c) in out.iter_mut().zip(below.chunks_exact(3)) {
                *o = c[0] & c[1] & c[2];
            }
        }
        (_, false) => {
            for (o, c) in out.iter_mut().zip(below.chunks_exact(b)) {
                *o = c.iter().any(|&w| w);
            }
        }
        (_, true) => {
            for (o, c) in out.iter_mut().zip(below.chunks_exact(b)) {
                *o = c.iter().all(|&w| w);
            }
        }
    }
}

/// [`LevelTree::solve`] without the per-node bounds checks: the same values.
fn solve_fast(tree: &LevelTree, leaves: &[bool], wins: &mut Vec<bool>) {
    wins.clear();
    wins.extend_from_slice(leaves);
    wins.resize(tree.len(), false);
    let b = tree.branching();
    for t in 1..=tree.height() {
        let (lower, upper) = wins.split_at_mut(tree.offset(t));
        let below = &lower[tree.offset(t - 1)..];
        let all = Player::to_move_at_height(t) == Player::Min;
        back_up_bools(below, b, all, &mut upper[..tree.width(t)]);
    }
}

impl Scratch {
    /// Fills the static arrays for `evaluator` (after the board is drawn and solved).
    fn evaluate(&mut self, tree: &LevelTree, evaluator: &StudyEvaluator, rng: &mut ChaCha8Rng) {
        let n = tree.len();
        let leaves = tree.width(0);
        self.product.clear();
        self.judged.clear();
        self.error.clear();
        // Terminal squares: exact.
        self.product
            .extend(self.leaves.iter().map(|&u| f64::from(u8::from(u))));
        self.judged.extend_from_slice(&self.leaves);
        self.error.resize(leaves, 0.0);
        match evaluator {
            StudyEvaluator::Artificial { error } => {
                let (win, loss) = (1.0 - error, *error);
                for &truth in &self.wins[leaves..n] {
                    let judged = truth != (rng.random::<f64>() < *error);
                    self.product.push(if judged { win } else { loss });
                    self.judged.push(judged);
                }
                self.error.resize(n, *error);
            }
            StudyEvaluator::Natural(calibration) => {
                tree.count_ones(&self.leaves, &mut self.ones);
                for t in 1..=tree.height() {
                    let squares = (tree.branching() as u32).pow(t);
                    let errors = [calibration.error(t, false), calibration.error(t, true)];
                    for k in tree.offset(t)..tree.offset(t) + tree.width(t) {
                        let judged = natural_judgement(t, self.ones[k], squares);
                        self.product
                            .push(f64::from(self.ones[k]) / f64::from(squares));
                        self.judged.push(judged);
                        self.error.push(errors[usize::from(judged)]);
                    }
                }
            }
        }
    }

    /// Minimax's values at every search depth at once ([`Scratch::minimax_bits`]): a Max node
    /// ORs its children's bits, a Min node ANDs them, and its own static value is the bit of
    /// the depth whose front it is on.
    fn minimax_all_depths(&mut self, tree: &LevelTree) {
        let h = tree.height();
        let b = tree.branching();
        self.minimax_bits.clear();
        self.minimax_bits.resize(tree.offset(h), 0);
        let bits = &mut self.minimax_bits;
        let leaf_bit = 1u32 << (h - 1);
        for (m, &j) in bits.iter_mut().zip(&self.judged[..tree.width(0)]) {
            *m = if j { leaf_bit } else { 0 };
        }
        for t in 1..h {
            let (lower, upper) = bits.split_at_mut(tree.offset(t));
            let below = &lower[tree.offset(t - 1)..];
            let out = &mut upper[..tree.width(t)];
            let judged = &self.judged[tree.offset(t)..tree.offset(t) + tree.width(t)];
            // Bits of the depths whose front is below this node; the static one above them.
            let searched = !0u32 << (h - t);
            let static_bit = 1u32 << (h - t - 1);
            let max_node = Player::to_move_at_height(t) == Player::Max;
            for ((o, c), &j) in out.iter_mut().zip(below.chunks_exact(b)).zip(judged) {
                let backed = if max_node {
                    c.iter().fold(0, |a, &x| a | x)
                } else {
                    c.iter().fold(!0, |a, &x| a & x)
                };
                *o = (backed & searched) | if j { static_bit } else { 0 };
            }
        }
    }
}

/// The largest branching factor whose first back-up above the front goes through a table.
const MAX_TABLED_BRANCHING: usize = 6;

/// Whether a trial's board is non-trivial: the root has a winning and a losing move.
fn non_trivial(kids: &[bool]) -> bool {
    kids.iter().any(|&w| w) && kids.iter().any(|&w| !w)
}

/// One trial: draws boards until one is non-trivial, evaluates it, and decides at the root
/// with every algorithm at every depth.
///
/// Minimax's binary values are backed up for every depth in one pass
/// (one bit per depth); the product rule and EMM are backed up per depth from
/// its front, the first level above the front through a table of the few values the front's
/// judgements allow (the same functions on the same inputs, so the same bits).
///
/// # Examples
///
/// With `e = 0` every algorithm decides correctly at every depth.
///
/// ```
/// use pathology::studies::wilson_parker_nau::study::{Scratch, StudyEvaluator, trial};
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// use pathology::sim::runner::trial_rng;
/// let spec = BoardSpec::new(GameKind::P, 2, 6, 0.382).unwrap();
/// let perfect = StudyEvaluator::Artificial { error: 0.0 };
/// let d = trial(&spec, &perfect, &mut Scratch::default(), &mut trial_rng(1, 0)).unwrap();
/// assert_eq!(d.correct, [0b111111, 0b111111, 0b111111, 0]);
/// ```
pub fn trial(
    spec: &BoardSpec,
    evaluator: &StudyEvaluator,
    s: &mut Scratch,
    rng: &mut ChaCha8Rng,
) -> Option<Decisions> {
    let attempts = draw_non_trivial(spec, s, rng)?;
    Some(Decisions {
        correct: decide(spec, evaluator, s, rng, StreamAfter::Read),
        attempts,
    })
}

/// Draws boards until one is non-trivial (into `s`); returns the boards drawn, or `None`
/// after [`MAX_ATTEMPTS`].
fn draw_non_trivial(spec: &BoardSpec, s: &mut Scratch, rng: &mut ChaCha8Rng) -> Option<u32> {
    let tree = &spec.tree;
    let b = tree.branching();
    let children = tree.offset(tree.height() - 1);
    let mut attempts = 0;
    loop {
        if attempts == MAX_ATTEMPTS {
            return None;
        }
        attempts += 1;
        spec.draw(rng, &mut s.leaves);
        solve_fast(tree, &s.leaves, &mut s.wins);
        if non_trivial(&s.wins[children..children + b]) {
            return Some(attempts);
        }
    }
}

/// Whether the caller reads the trial's stream after [`decide`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StreamAfter {
    /// It does ([`trial`] hands the stream back): every depth is searched, so the stream ends
    /// where the straightforward trial leaves it.
    Read,
    /// It does not (the runner drops the stream after the trial): the depth-H search is not
    /// run, its decisions are recorded as correct. They always are: at d = H every algorithm
    /// backs up from the squares, which are exact (minimax and the fraction: the true 0/1
    /// values; product: products and `1 - prod(1 - x)` of 0s and 1s are exact; EMM: every
    /// square has error 0, so each back-up has aggregate error exactly 0 and keeps the
    /// searched value), and a non-trivial root has a winning child, so each chooses a winning
    /// child whatever its tie-break draws. Those draws come last in the trial, so skipping them
    /// changes no value drawn before; the unit test `skipping_the_last_depth_changes_nothing`
    /// checks the bits against the full search.
    Dropped,
}

/// Evaluates the board in `s` and decides at the root with every algorithm at every depth:
/// [`Decisions::correct`] (see [`StreamAfter`] for the depth-H search).
fn decide(
    spec: &BoardSpec,
    evaluator: &StudyEvaluator,
    s: &mut Scratch,
    rng: &mut ChaCha8Rng,
    after: StreamAfter,
) -> [u32; 4] {
    let tree = &spec.tree;
    let height = tree.height();
    let b = tree.branching();
    let root_mover = Player::to_move_at_height(height);
    let children = tree.offset(height - 1);
    s.evaluate(tree, evaluator, rng);
    s.minimax_all_depths(tree);
    let mover_wins = root_mover == Player::Max;
    let mut correct = [0u32; 4];
    let natural = matches!(evaluator, StudyEvaluator::Natural(_));
    let range = |t: u32| tree.offset(t)..tree.offset(t) + tree.width(t);
    // Tables of the first back-up above the front, indexed by the children's judgements
    // (bit k: child k), and for EMM the node's own judgement (bit b).
    let table_bits = b.min(MAX_TABLED_BRANCHING);
    let mut product_table = vec![0.0; 1 << table_bits];
    let mut emm_table = vec![(false, 0.0); 2 << table_bits];
    let mut kids_product = vec![0.0; b];
    let mut kids_emm = vec![(false, 0.0); b];
    let mut minimax_values = vec![0.0; b];
    let mut fraction_values = vec![0.0; b];
    let mut probabilities = vec![0.0; b];
    let searched = match after {
        StreamAfter::Read => height,
        StreamAfter::Dropped => height - 1,
    };
    for d in 1..=searched {
        let front = height - d;
        let [p0, p1] = &mut s.product_levels;
        let [e0, e1] = &mut s.emm_levels;
        let (product_kids, emm_kids): (&[f64], &[(bool, f64)]) = if d == 1 {
            kids_emm.clear();
            kids_emm.extend(range(front).map(|k| (s.judged[k], s.error[k])));
            (&s.product[range(front)], &kids_emm)
        } else {
            // The first level above the front.
            let t = front + 1;
            let mover = Player::to_move_at_height(t);
            let below = range(front);
            let judged_below = &s.judged[below.clone()];
            let key = |c: &[bool]| {
                c.iter()
                    .enumerate()
                    .fold(0usize, |a, (k, &j)| a | (usize::from(j) << k))
            };
            // A table has 2^b (product) and 2^(b + 1) (EMM) entries: only for small b.
            let tabled = b <= MAX_TABLED_BRANCHING;
            let tabled_product = static_product(evaluator, front, false)
                .zip(static_product(evaluator, front, true))
                .filter(|_| tabled);
            p0.clear();
            match tabled_product {
                Some((loss, win)) => {
                    for (pattern, entry) in product_table.iter_mut().enumerate() {
                        for (k, v) in kids_product.iter_mut().enumerate() {
                            *v = if pattern >> k & 1 == 1 { win } else { loss };
                        }
                        *entry = product_step(&kids_product, mover);
                    }
                    p0.extend(judged_below.chunks_exact(b).map(|c| product_table[key(c)]));
                }
                None => back_up_product(&s.product[below.clone()], b, mover, p0),
            }
            let errors = [
                static_error(evaluator, front, false),
                static_error(evaluator, front, true),
            ];
            let own_errors = [
                static_error(evaluator, t, false),
                static_error(evaluator, t, true),
            ];
            e0.clear();
            if tabled {
                for (pattern, entry) in emm_table.iter_mut().enumerate() {
                    for (k, v) in kids_emm.iter_mut().enumerate() {
                        let j = pattern >> k & 1 == 1;
                        *v = (j, errors[usize::from(j)]);
                    }
                    let own = pattern >> b & 1 == 1;
                    *entry = crate::search::emm::back_up_step(
                        &kids_emm,
                        own,
                        own_errors[usize::from(own)],
                        mover,
                    );
                }
                e0.extend(
                    judged_below
                        .chunks_exact(b)
                        .zip(&s.judged[range(t)])
                        .map(|(c, &own)| emm_table[key(c) | usize::from(own) << b]),
                );
            } else {
                for (c, &own) in judged_below.chunks_exact(b).zip(&s.judged[range(t)]) {
                    for (v, &j) in kids_emm.iter_mut().zip(c) {
                        *v = (j, errors[usize::from(j)]);
                    }
                    e0.push(crate::search::emm::back_up_step(
                        &kids_emm,
                        own,
                        own_errors[usize::from(own)],
                        mover,
                    ));
                }
            }
            // The levels above it.
            for t in front + 2..height {
                let mover = Player::to_move_at_height(t);
                back_up_product(p0, b, mover, p1);
                std::mem::swap(p0, p1);
                e1.clear();
                let statics = tree.offset(t);
                e1.extend(e0.chunks_exact(b).enumerate().map(|(i, c)| {
                    crate::search::emm::back_up_step(
                        c,
                        s.judged[statics + i],
                        s.error[statics + i],
                        mover,
                    )
                }));
                std::mem::swap(e0, e1);
            }
            (p0, e0)
        };
        for (k, v) in minimax_values.iter_mut().enumerate() {
            *v = f64::from((s.minimax_bits[children + k] >> (d - 1)) & 1);
        }
        let chosen = [
            choose_best_of(&minimax_values, root_mover, rng),
            choose_best_of(product_kids, root_mover, rng),
            {
                for (p, &(win_for_max, er)) in probabilities.iter_mut().zip(emm_kids) {
                    *p = if win_for_max == mover_wins {
                        1.0 - er
                    } else {
                        er
                    };
                }
                choose_best_of(&probabilities, Player::Max, rng)
            },
        ];
        for (bits, k) in correct.iter_mut().zip(chosen) {
            if s.wins[children + k] == mover_wins {
                *bits |= 1 << (d - 1);
            }
        }
        if natural {
            // Minimax on the fraction of 1-squares: every front node has b^front squares, so
            // the counts order (and tie) like the fractions.
            let [f0, f1] = &mut s.fraction_levels;
            f0.clear();
            f0.extend_from_slice(&s.ones[range(front)]);
            for t in front + 1..height {
                f1.clear();
                f1.extend(
                    f0.chunks_exact(b)
                        .map(|c| match Player::to_move_at_height(t) {
                            Player::Max => c.iter().copied().max().unwrap_or(0),
                            Player::Min => c.iter().copied().min().unwrap_or(0),
                        }),
                );
                std::mem::swap(f0, f1);
            }
            let squares = f64::from((b as u32).pow(front));
            for (v, &ones) in fraction_values.iter_mut().zip(f0.iter()) {
                *v = f64::from(ones) / squares;
            }
            if s.wins[children + choose_best_of(&fraction_values, root_mover, rng)] == mover_wins {
                correct[FRACTION_MINIMAX] |= 1 << (d - 1);
            }
        }
    }
    if searched < height {
        // The depth-H decisions, always correct (see StreamAfter::Dropped).
        let recorded = if natural { 4 } else { 3 };
        for bits in &mut correct[..recorded] {
            *bits |= 1 << (height - 1);
        }
    }
    correct
}

/// The straightforward implementation the fast [`trial`] replaced (kept to check it, bit for
/// bit, on random boards).
/// Seconds per non-trivial game of `mc emm` (and per board of `mc emm-calibrate`): draw,
/// solve and search the board at every depth with minimax, the product rule and EMM, with
/// about two boards drawn per non-trivial game. Measured at 36-53 ns per tree node (b = 2,
/// H = 10..14; b = 3, H = 8; N-games b = 2, H = 12; one thread); the model takes 100 ns.
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::study::study_game_seconds;
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// let spec = BoardSpec::new(GameKind::P, 2, 10, 0.38).unwrap();
/// assert!(study_game_seconds(&spec) > 1e-4 && study_game_seconds(&spec) < 1e-3);
/// ```
pub fn study_game_seconds(spec: &BoardSpec) -> f64 {
    1e-6 + 100e-9 * spec.tree.len() as f64
}

/// One search depth's results.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DepthResult {
    /// The search depth d.
    pub depth: u32,
    /// Minimax's fraction of correct decisions, with its 95% Wilson interval.
    pub minimax: Comparison,
    /// The product rule's.
    pub product: Comparison,
    /// EMM's.
    pub emm: Comparison,
    /// With the natural evaluator: minimax searching the unaltered fraction of 1-squares
    /// instead of its binary form (not one of the paper's curves; shown for comparison).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimax_fraction: Option<Comparison>,
}

impl DepthResult {
    /// The three comparisons in [`ALGORITHMS`] order.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::wilson_parker_nau::study::{ALGORITHMS, StudyEvaluator, run};
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// use pathology::sim::TrialRunner;
    /// let spec = BoardSpec::new(GameKind::P, 2, 4, 0.382).unwrap();
    /// let evaluator = StudyEvaluator::Artificial { error: 0.1 };
    /// let r = run(&spec, &evaluator, &TrialRunner::new(100, 1, 1).unwrap()).unwrap();
    /// let first = &r.depths[0];
    /// assert_eq!(ALGORITHMS, ["minimax", "product", "emm"]);
    /// assert_eq!(first.by_algorithm(), [&first.minimax, &first.product, &first.emm]);
    /// // Depth 4 reaches the squares: every algorithm is always right.
    /// assert!(r.depths[3].by_algorithm().iter().all(|c| c.estimate == 1.0));
    /// ```
    pub fn by_algorithm(&self) -> [&Comparison; 3] {
        [&self.minimax, &self.product, &self.emm]
    }
}

/// A study's results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StudyResult {
    /// Non-trivial games searched.
    pub games: u64,
    /// Boards drawn to find them.
    pub boards_drawn: u64,
    /// One row per search depth 1..=H.
    pub depths: Vec<DepthResult>,
}

/// The counts a study's results are built from: integers, so that the counts of the shards
/// of a run (`--shard K/N`) sum to the unsharded run's exactly (`pathology merge`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StudyCounts {
    /// Non-trivial games searched.
    pub games: u64,
    /// Boards drawn to find them.
    pub boards_drawn: u64,
    /// `correct[d - 1][a]`: the correct decisions at search depth d of decision `a`
    /// ([`ALGORITHMS`] order, then [`FRACTION_MINIMAX`]).
    pub correct: Vec<[Proportion; 4]>,
    /// Whether [`FRACTION_MINIMAX`] was recorded (the natural evaluator).
    pub fraction: bool,
}

impl StudyCounts {
    /// The decisions recorded: 3, or 4 with [`FRACTION_MINIMAX`].
    pub fn decisions(&self) -> usize {
        if self.fraction { 4 } else { 3 }
    }

    /// The estimates with their 95% Wilson intervals (no exact values).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::wilson_parker_nau::study::{StudyEvaluator, run, run_counts};
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// use pathology::sim::TrialRunner;
    /// let spec = BoardSpec::new(GameKind::P, 2, 4, 0.382).unwrap();
    /// let evaluator = StudyEvaluator::Artificial { error: 0.1 };
    /// let runner = TrialRunner::new(100, 1, 1).unwrap();
    /// let counts = run_counts(&spec, &evaluator, &runner).unwrap();
    /// assert_eq!(counts.result(), run(&spec, &evaluator, &runner).unwrap());
    /// ```
    pub fn result(&self) -> StudyResult {
        StudyResult {
            games: self.games,
            boards_drawn: self.boards_drawn,
            depths: self
                .correct
                .iter()
                .enumerate()
                .map(|(i, t)| DepthResult {
                    depth: i as u32 + 1,
                    minimax: t[0].compare(None),
                    product: t[1].compare(None),
                    emm: t[2].compare(None),
                    minimax_fraction: self.fraction.then(|| t[FRACTION_MINIMAX].compare(None)),
                })
                .collect(),
        }
    }
}

/// Runs the study: `runner.trials()` non-trivial games, each searched at every depth by every
/// algorithm.
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::study::{StudyEvaluator, run};
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// use pathology::sim::TrialRunner;
/// let spec = BoardSpec::new(GameKind::P, 2, 6, 0.382).unwrap();
/// let evaluator = StudyEvaluator::Artificial { error: 0.1 };
/// let r = run(&spec, &evaluator, &TrialRunner::new(200, 1, 2).unwrap()).unwrap();
/// assert_eq!(r.depths.len(), 6);
/// assert_eq!(r.depths[5].emm.estimate, 1.0); // depth 6 reaches the squares
/// assert!(r.boards_drawn >= 200);
/// ```
///
/// # Errors
///
/// As [`run_counts`].
pub fn run(
    spec: &BoardSpec,
    evaluator: &StudyEvaluator,
    runner: &TrialRunner,
) -> Result<StudyResult> {
    Ok(run_counts(spec, evaluator, runner)?.result())
}

/// The study's counts: the trials of `runner` (its shard's only, when sharded), each a
/// non-trivial game searched at every depth by every algorithm.
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::study::{StudyEvaluator, run_counts};
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// use pathology::sim::TrialRunner;
/// use pathology::sim::runner::Shard;
/// let spec = BoardSpec::new(GameKind::N, 2, 5, 0.5).unwrap();
/// let evaluator = StudyEvaluator::Artificial { error: 0.1 };
/// let runner = || TrialRunner::new(300, 4, 2).unwrap();
/// let full = run_counts(&spec, &evaluator, &runner()).unwrap();
/// let parts: Vec<_> = ["1/2", "2/2"]
///     .iter()
///     .map(|s| run_counts(&spec, &evaluator, &runner().with_shard(Shard::parse(s).unwrap())).unwrap())
///     .collect();
/// assert_eq!(parts[0].games + parts[1].games, full.games);
/// assert_eq!(parts[0].boards_drawn + parts[1].boards_drawn, full.boards_drawn);
/// assert_eq!(
///     parts[0].correct[0][0].successes + parts[1].correct[0][0].successes,
///     full.correct[0][0].successes
/// );
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--error` outside [0, 1/2] or `--calibration` for a table
/// of other games; naming `--p` when some trial found no non-trivial board in
/// [`MAX_ATTEMPTS`] draws.
pub fn run_counts(
    spec: &BoardSpec,
    evaluator: &StudyEvaluator,
    runner: &TrialRunner,
) -> Result<StudyCounts> {
    let mut counts = run_counts_shared(spec, std::slice::from_ref(evaluator), runner)?;
    Ok(counts.remove(0))
}

/// The most evaluators [`run_counts_shared`] runs on the same boards.
pub const MAX_SHARED: usize = 4;

/// [`run_counts`] for up to [`MAX_SHARED`] evaluators on the same games: each trial draws its
/// non-trivial board once and then runs every evaluator on a copy of its stream positioned
/// just after the board, so the counts of each evaluator are exactly its own
/// [`run_counts`] (the boards of a trial do not depend on the evaluator), for the cost of
/// drawing the boards once. Wilson et al.'s artificial and natural figures of a game share
/// their seed, and so their boards.
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::study::{StudyEvaluator, calibrate, run_counts, run_counts_shared};
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// use pathology::sim::TrialRunner;
/// let spec = BoardSpec::new(GameKind::P, 2, 5, 0.382).unwrap();
/// let natural = StudyEvaluator::Natural(calibrate(&spec, &TrialRunner::new(50, 9, 1).unwrap()).unwrap());
/// let artificial = StudyEvaluator::Artificial { error: 0.1 };
/// let runner = TrialRunner::new(200, 1, 2).unwrap();
/// let both = run_counts_shared(&spec, &[artificial.clone(), natural.clone()], &runner).unwrap();
/// assert_eq!(both[0], run_counts(&spec, &artificial, &runner).unwrap());
/// assert_eq!(both[1], run_counts(&spec, &natural, &runner).unwrap());
/// ```
///
/// # Errors
///
/// As [`run_counts`], and [`Error::InvalidArgument`] naming `evaluators` for none or more than
/// [`MAX_SHARED`].
pub fn run_counts_shared(
    spec: &BoardSpec,
    evaluators: &[StudyEvaluator],
    runner: &TrialRunner,
) -> Result<Vec<StudyCounts>> {
    if evaluators.is_empty() || evaluators.len() > MAX_SHARED {
        return Err(Error::invalid(
            "evaluators",
            &format!("1 to {MAX_SHARED} evaluators"),
            evaluators.len(),
        ));
    }
    for evaluator in evaluators {
        match evaluator {
            StudyEvaluator::Artificial { error } => {
                if !(0.0..=0.5).contains(error) {
                    return Err(Error::invalid("--error", "in [0, 0.5]", error));
                }
            }
            StudyEvaluator::Natural(calibration) => calibration.check_matches(spec)?,
        }
    }
    let height = spec.tree.height() as usize;
    let shared = evaluators.len();
    let (tallies, drawn, failed) = runner.run(
        Scratch::default,
        |s, rng| {
            let attempts = draw_non_trivial(spec, s, rng)?;
            let mut correct = [[0u32; 4]; MAX_SHARED];
            let (first, others) = evaluators.split_first().expect("at least one evaluator");
            // The runner drops the stream after the trial: no depth-H search needed.
            let after = StreamAfter::Dropped;
            if others.is_empty() {
                correct[0] = decide(spec, first, s, rng, after);
            } else {
                // Every evaluator continues from the position after the board.
                let after_board = rng_copy(rng);
                correct[0] = decide(spec, first, s, rng, after);
                for (c, evaluator) in correct[1..].iter_mut().zip(others) {
                    *c = decide(spec, evaluator, s, &mut rng_copy(&after_board), after);
                }
            }
            Some((correct, attempts))
        },
        (
            vec![vec![[Proportion::default(); 4]; height]; shared],
            0u64,
            0u64,
        ),
        |(mut tallies, drawn, failed), decisions| match decisions {
            Some((correct, attempts)) => {
                for (tally, bits) in tallies.iter_mut().zip(correct) {
                    for (depth, t) in tally.iter_mut().enumerate() {
                        for (a, p) in t.iter_mut().enumerate() {
                            p.record(bits[a] & (1 << depth) != 0);
                        }
                    }
                }
                (tallies, drawn + u64::from(attempts), failed)
            }
            None => (tallies, drawn + u64::from(MAX_ATTEMPTS), failed + 1),
        },
    )?;
    if failed > 0 {
        return Err(Error::invalid(
            "--p",
            &format!(
                "a probability that gives non-trivial roots (both a winning and a losing move) \
                 within {MAX_ATTEMPTS} boards"
            ),
            spec.parameter,
        ));
    }
    Ok(tallies
        .into_iter()
        .zip(evaluators)
        .map(|(correct, evaluator)| StudyCounts {
            games: runner.trials_run(),
            boards_drawn: drawn,
            correct,
            fraction: matches!(evaluator, StudyEvaluator::Natural(_)),
        })
        .collect())
}

/// A generator at the same key, stream and position as `rng`: its outputs from here on are
/// `rng`'s.
fn rng_copy(rng: &ChaCha8Rng) -> ChaCha8Rng {
    use rand::SeedableRng;
    let mut copy = ChaCha8Rng::from_seed(rng.get_seed());
    copy.set_stream(rng.get_stream());
    copy.set_word_pos(rng.get_word_pos());
    copy
}

#[cfg(test)]
mod tests;
