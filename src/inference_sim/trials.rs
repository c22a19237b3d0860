//! One trial of each strategy, drawn from a trial's random stream (module docs of
//! [`super`]): every trial returns one flag per slot (a value of the list and a quantity),
//! which the runner sums into counts.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use crate::analytic::inference::{LookaheadSearch, Tasks};
use crate::analytic::pathsum::Law;

/// Seconds of one draw (one random index and its bookkeeping) on one thread, measured on the
/// project machine (about 6 ns) and rounded up; the cost models count draws.
pub(super) const DRAW_SECONDS: f64 = 1e-8;

/// An index drawn with given rational probabilities (module docs of [`super`]): exactly
/// when their common denominator is at most 2^64, else against thresholds rounded to
/// multiples of 2^-64.
#[derive(Debug, Clone)]
pub(super) struct Draw {
    /// The modulus of the uniform integer: `None` is 2^64.
    denominator: Option<u64>,
    /// `floor` of the cumulative probabilities times the modulus, but the last (the modulus).
    thresholds: Vec<u64>,
    /// Whether the thresholds are the probabilities exactly.
    pub(super) exact: bool,
}

impl Draw {
    /// The draw of the indices of `probabilities` (nonnegative, summing to 1).
    pub(super) fn new(probabilities: &[BigRational]) -> Draw {
        let lcm = probabilities
            .iter()
            .fold(BigInt::one(), |l, p| l.lcm(p.denom()));
        let two_64 = BigInt::one() << 64;
        let (modulus, exact) = if lcm <= two_64 {
            (lcm.clone(), true)
        } else {
            (two_64.clone(), false)
        };
        let mut cumulative = BigRational::zero();
        let mut thresholds = Vec::new();
        for p in &probabilities[..probabilities.len().saturating_sub(1)] {
            cumulative += p;
            let scaled = &cumulative * BigRational::from_integer(modulus.clone());
            // Exact: an integer; otherwise rounded to the nearest multiple of 2^-64.
            let t = if exact {
                scaled.to_integer()
            } else {
                (scaled + BigRational::new(1.into(), 2.into()))
                    .floor()
                    .to_integer()
            };
            thresholds.push(t.to_u64().unwrap_or(u64::MAX));
        }
        Draw {
            denominator: (modulus < two_64).then(|| modulus.to_u64().expect("below 2^64")),
            thresholds,
            exact,
        }
    }

    /// A Bernoulli draw with probability `p` of index 1.
    pub(super) fn bernoulli(p: &BigRational) -> Draw {
        Draw::new(&[BigRational::one() - p, p.clone()])
    }

    /// An index.
    pub(super) fn draw(&self, rng: &mut ChaCha8Rng) -> usize {
        if self.thresholds.is_empty() {
            return 0;
        }
        let u = match self.denominator {
            Some(d) => rng.random_range(0..d),
            None => rng.random::<u64>(),
        };
        self.thresholds.partition_point(|&t| t <= u)
    }

    /// A Bernoulli outcome (index 1).
    pub(super) fn hit(&self, rng: &mut ChaCha8Rng) -> bool {
        self.draw(rng) == 1
    }
}

/// The task mix: a type by its share, then samples correct with the type's probability.
#[derive(Debug, Clone)]
pub(super) struct Mix {
    types: Draw,
    success: Vec<Draw>,
    /// The types' `(share, success)` in `f64`, for the cost models.
    pub(super) rates: Vec<(f64, f64)>,
}

impl Mix {
    pub(super) fn new(tasks: &Tasks) -> Mix {
        let shares: Vec<BigRational> = tasks.types().iter().map(|t| t.share.clone()).collect();
        Mix {
            types: Draw::new(&shares),
            success: tasks
                .types()
                .iter()
                .map(|t| Draw::bernoulli(&t.success))
                .collect(),
            rates: tasks
                .types()
                .iter()
                .map(|t| (f64_of(&t.share), f64_of(&t.success)))
                .collect(),
        }
    }

    fn exact(&self) -> bool {
        self.types.exact && self.success.iter().all(|d| d.exact)
    }

    /// Expected samples until the first that `hit` (probability per sample, from the
    /// type's success probability) or `most`, over the mix: `(1 - (1 - p)^most) / p`, computed
    /// as `-expm1(most log1p(-p)) / p` (in plain `f64`, `1 - p` is 1 for p = 1e-300 and the
    /// estimate would be 0 draws where it is `most`).
    pub(super) fn expected_until(&self, most: u64, hit: impl Fn(f64) -> f64) -> f64 {
        let most = most as f64;
        self.rates
            .iter()
            .map(|&(w, r)| {
                let p = hit(r).min(1.0);
                if p > 0.0 {
                    w * (-(most * (-p).ln_1p()).exp_m1() / p).min(most)
                } else {
                    w * most
                }
            })
            .sum()
    }
}

fn f64_of(x: &BigRational) -> f64 {
    crate::sim::report::rational_f64(x)
}

/// Ranks of two ascending lists of distinct values in their merged sorted list of distinct
/// values (equal values share a rank).
pub(super) fn ranks(a: &[BigRational], b: &[BigRational]) -> (Vec<u32>, Vec<u32>) {
    let (mut ra, mut rb) = (Vec::with_capacity(a.len()), Vec::with_capacity(b.len()));
    let (mut i, mut j, mut rank) = (0, 0, 0u32);
    while i < a.len() || j < b.len() {
        let order = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) => x.cmp(y),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        if order != std::cmp::Ordering::Greater {
            ra.push(rank);
            i += 1;
        }
        if order != std::cmp::Ordering::Less {
            rb.push(rank);
            j += 1;
        }
        rank += 1;
    }
    (ra, rb)
}

/// A uniform choice among tied maxima, kept as candidates arrive (the t-th tied candidate
/// replaces the choice with probability 1/t).
pub(super) struct Choice<T> {
    best: Option<u32>,
    tied: u64,
    pub(super) chosen: T,
}

impl<T: Copy> Choice<T> {
    pub(super) fn new(none: T) -> Self {
        Choice {
            best: None,
            tied: 0,
            chosen: none,
        }
    }

    pub(super) fn offer(&mut self, score: u32, value: T, rng: &mut ChaCha8Rng) {
        match self.best {
            Some(b) if score < b => {}
            Some(b) if score == b => {
                self.tied += 1;
                if rng.random_range(0..self.tied) == 0 {
                    self.chosen = value;
                }
            }
            _ => {
                self.best = Some(score);
                self.tied = 1;
                self.chosen = value;
            }
        }
    }
}

/// Pass-at-k: one flag per k of `grid` (ascending): a correct sample among the first k.
pub(super) fn pass_at_k(mix: &Mix, grid: &[u64], rng: &mut ChaCha8Rng) -> Vec<bool> {
    let most = *grid.last().expect("a nonempty list");
    let t = mix.types.draw(rng);
    let first = (1..=most).find(|_| mix.success[t].hit(rng));
    grid.iter()
        .map(|&k| first.is_some_and(|f| f <= k))
        .collect()
}

/// Resampling: the verifier's two acceptance draws.
#[derive(Debug, Clone)]
pub(super) struct Verifier {
    /// Accepts a correct sample (probability C).
    pub(super) accept_correct: Draw,
    /// Accepts a wrong sample (probability 1 - S).
    pub(super) accept_wrong: Draw,
}

/// Resampling: three flags per k of `grid` (correct, false positive, none).
pub(super) fn resample(
    mix: &Mix,
    verifier: &Verifier,
    grid: &[u64],
    rng: &mut ChaCha8Rng,
) -> Vec<bool> {
    let most = *grid.last().expect("a nonempty list");
    let t = mix.types.draw(rng);
    let accepted = (1..=most).find_map(|i| {
        let correct = mix.success[t].hit(rng);
        let accept = if correct {
            &verifier.accept_correct
        } else {
            &verifier.accept_wrong
        };
        accept.hit(rng).then_some((i, correct))
    });
    let mut flags = Vec::with_capacity(3 * grid.len());
    for &k in grid {
        let answer = accepted.filter(|&(i, _)| i <= k);
        flags.extend([
            answer.is_some_and(|(_, c)| c),
            answer.is_some_and(|(_, c)| !c),
            answer.is_none(),
        ]);
    }
    flags
}

/// Best-of-n's score laws, as ranks of their values.
#[derive(Debug, Clone)]
pub(super) struct Scores {
    correct: Draw,
    wrong: Draw,
    correct_rank: Vec<u32>,
    wrong_rank: Vec<u32>,
}

impl Scores {
    pub(super) fn new(correct: &Law, wrong: &Law) -> Scores {
        let values = |l: &Law| l.atoms().iter().map(|(v, _)| v.clone()).collect::<Vec<_>>();
        let masses = |l: &Law| l.atoms().iter().map(|(_, p)| p.clone()).collect::<Vec<_>>();
        let (correct_rank, wrong_rank) = ranks(&values(correct), &values(wrong));
        Scores {
            correct: Draw::new(&masses(correct)),
            wrong: Draw::new(&masses(wrong)),
            correct_rank,
            wrong_rank,
        }
    }
}

/// Best-of-n: one flag per n of `grid`: the chosen sample of the first n is correct.
pub(super) fn best_of_n(
    mix: &Mix,
    scores: &Scores,
    grid: &[u64],
    rng: &mut ChaCha8Rng,
) -> Vec<bool> {
    let t = mix.types.draw(rng);
    let mut choice = Choice::new(false);
    let mut flags = Vec::with_capacity(grid.len());
    let mut i = 0u64;
    for &n in grid {
        while i < n {
            i += 1;
            let correct = mix.success[t].hit(rng);
            let score = if correct {
                scores.correct_rank[scores.correct.draw(rng)]
            } else {
                scores.wrong_rank[scores.wrong.draw(rng)]
            };
            choice.offer(score, correct, rng);
        }
        flags.push(choice.chosen);
    }
    flags
}

/// Voting: one flag per k of `grid`: a label of the most votes, drawn uniformly among the
/// tied labels, is the correct answer (label 0; `wrong` draws a wrong answer 1, 2, ...).
pub(super) fn vote(
    mix: &Mix,
    wrong: &Draw,
    labels: usize,
    grid: &[u64],
    rng: &mut ChaCha8Rng,
) -> Vec<bool> {
    let t = mix.types.draw(rng);
    let mut votes = vec![0u64; labels + 1];
    let mut flags = Vec::with_capacity(grid.len());
    let mut i = 0u64;
    for &k in grid {
        while i < k {
            i += 1;
            let label = if mix.success[t].hit(rng) {
                0
            } else {
                1 + wrong.draw(rng)
            };
            votes[label] += 1;
        }
        let most = *votes.iter().max().expect("labels");
        let tied = votes.iter().filter(|&&v| v == most).count() as u64;
        let pick = rng.random_range(0..tied);
        let label = votes
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v == most)
            .nth(pick as usize)
            .map(|(l, _)| l);
        flags.push(label == Some(0));
    }
    flags
}

/// The score laws of reward-weighted voting as exact integers: every value times the common
/// denominator of all the values of both laws, so that a sum of scores is an exact integer
/// and equal totals are a tie.
#[derive(Debug, Clone)]
pub(super) struct Weights {
    correct: Draw,
    wrong: Draw,
    correct_values: Vec<i128>,
    wrong_values: Vec<i128>,
}

impl Weights {
    /// The laws' draws and integer values; `None` when k samples' totals could leave
    /// `i128` (values times the denominator above `2^120 / k`).
    pub(super) fn new(correct: &Law, wrong: &Law, k: u64) -> Option<Weights> {
        let denominator = correct
            .atoms()
            .iter()
            .chain(wrong.atoms())
            .fold(BigInt::one(), |acc, (v, _)| acc.lcm(v.denom()));
        let limit = (BigInt::one() << 120usize) / BigInt::from(k.max(1));
        let integers = |law: &Law| -> Option<Vec<i128>> {
            law.atoms()
                .iter()
                .map(|(v, _)| {
                    let x = v.numer() * (&denominator / v.denom());
                    if x.magnitude() > limit.magnitude() {
                        None
                    } else {
                        x.to_i128()
                    }
                })
                .collect()
        };
        let masses = |l: &Law| l.atoms().iter().map(|(_, p)| p.clone()).collect::<Vec<_>>();
        Some(Weights {
            correct: Draw::new(&masses(correct)),
            wrong: Draw::new(&masses(wrong)),
            correct_values: integers(correct)?,
            wrong_values: integers(wrong)?,
        })
    }
}

/// Reward-weighted voting: one flag per k of `grid`: among the labels that got a sample, one
/// of the largest total score, drawn uniformly among the tied, is the correct answer. Per
/// sample: its correctness, then (wrong) its label, then its score.
pub(super) fn weighted_vote(
    mix: &Mix,
    wrong: &Draw,
    labels: usize,
    weights: &Weights,
    grid: &[u64],
    rng: &mut ChaCha8Rng,
) -> Vec<bool> {
    let t = mix.types.draw(rng);
    let mut totals: Vec<Option<i128>> = vec![None; labels + 1];
    let mut flags = Vec::with_capacity(grid.len());
    let mut i = 0u64;
    for &k in grid {
        while i < k {
            i += 1;
            let (label, score) = if mix.success[t].hit(rng) {
                (0, weights.correct_values[weights.correct.draw(rng)])
            } else {
                let label = 1 + wrong.draw(rng);
                (label, weights.wrong_values[weights.wrong.draw(rng)])
            };
            *totals[label].get_or_insert(0) += score;
        }
        let most = totals.iter().flatten().max().copied().expect("a sample");
        let tied = totals.iter().filter(|v| **v == Some(most)).count() as u64;
        let pick = rng.random_range(0..tied);
        let label = totals
            .iter()
            .enumerate()
            .filter(|&(_, v)| *v == Some(most))
            .nth(pick as usize)
            .map(|(l, _)| l);
        flags.push(label == Some(0));
    }
    flags
}

/// Verifier-guided lookahead, literally (module docs of [`super`]).
#[derive(Debug, Clone)]
pub(super) struct Walk {
    branching: u32,
    steps: u32,
    /// The difficulty mix: a type by its share, then its step draw.
    types: Draw,
    step: Vec<Draw>,
    noise: Draw,
    /// Per frontier length m (an index into `tables`, `usize::MAX` when never scored).
    table_of: Vec<usize>,
    /// Per scale: the ranks of `1 + sZ` (correct) and `sZ` (wrong) by atom of Z.
    tables: Vec<(Vec<u32>, Vec<u32>)>,
    /// Whether best-of-`B^L` runs beside the lookahead.
    pub(super) baseline: bool,
}

/// The most rank entries the lookahead's tables may hold (frontier lengths times atoms).
pub(super) const MAX_TABLE_ENTRIES: f64 = (1u64 << 26) as f64;

impl Walk {
    /// The walk of `search` at `depths` (checked) over the difficulty mix `mix`, with the
    /// baseline when `baseline`.
    pub(super) fn new(
        search: &LookaheadSearch,
        mix: &Tasks,
        depths: &[u32],
        baseline: bool,
    ) -> Walk {
        let steps = search.steps;
        let mut scored = vec![false; steps as usize + 1];
        for &d in depths {
            for l in 0..steps {
                scored[(l + d).min(steps) as usize] = true;
            }
        }
        scored[steps as usize] |= baseline;
        let z: Vec<BigRational> = search
            .noise
            .atoms()
            .iter()
            .map(|(v, _)| v.clone())
            .collect();
        let masses: Vec<BigRational> = search
            .noise
            .atoms()
            .iter()
            .map(|(_, p)| p.clone())
            .collect();
        let mut table_of = vec![usize::MAX; steps as usize + 1];
        let mut tables = Vec::new();
        for m in 1..=steps {
            if !scored[m as usize] {
                continue;
            }
            if search.growth.is_zero() && !tables.is_empty() {
                table_of[m as usize] = 0;
                continue;
            }
            let scale =
                BigRational::one() + &search.growth * BigRational::from_integer((m - 1).into());
            let wrong: Vec<BigRational> = z.iter().map(|v| &scale * v).collect();
            let correct: Vec<BigRational> = wrong.iter().map(|v| v + BigRational::one()).collect();
            let (c, w) = ranks(&correct, &wrong);
            table_of[m as usize] = tables.len();
            tables.push((c, w));
        }
        Walk {
            branching: search.branching,
            steps,
            types: Draw::new(
                &mix.types()
                    .iter()
                    .map(|t| t.share.clone())
                    .collect::<Vec<_>>(),
            ),
            step: mix
                .types()
                .iter()
                .map(|t| Draw::bernoulli(&t.success))
                .collect(),
            noise: Draw::new(&masses),
            table_of,
            tables,
            baseline,
        }
    }

    /// The rank entries the tables of `search` at `depths` would hold (checked before they
    /// are built).
    pub(super) fn table_entries(search: &LookaheadSearch, depths: &[u32]) -> f64 {
        let lengths = if search.growth.is_zero() {
            1
        } else {
            let low = depths.iter().copied().min().unwrap_or(1);
            search.steps - low + 1
        };
        2.0 * f64::from(lengths) * search.noise.atoms().len() as f64
    }

    /// The largest frontier score (a rank) of a fresh subtree of `levels` levels below a
    /// node that is correct or not.
    fn frontier_max(
        &self,
        step: &Draw,
        correct: bool,
        levels: u32,
        table: usize,
        rng: &mut ChaCha8Rng,
    ) -> u32 {
        if levels == 0 {
            let z = self.noise.draw(rng);
            let (c, w) = &self.tables[table];
            return if correct { c[z] } else { w[z] };
        }
        let mut best = 0;
        for _ in 0..self.branching {
            let child = correct && step.hit(rng);
            best = best.max(self.frontier_max(step, child, levels - 1, table, rng));
        }
        best
    }

    /// Depth-d lookahead: (all L steps correct, the first decision correct).
    fn search(&self, step: &Draw, depth: u32, rng: &mut ChaCha8Rng) -> (bool, bool) {
        let mut first = false;
        for l in 0..self.steps {
            let reach = depth.min(self.steps - l);
            let table = self.table_of[(l + reach) as usize];
            let mut choice = Choice::new(false);
            for _ in 0..self.branching {
                let candidate = step.hit(rng);
                let score = self.frontier_max(step, candidate, reach - 1, table, rng);
                choice.offer(score, candidate, rng);
            }
            if l == 0 {
                first = choice.chosen;
            }
            if !choice.chosen {
                return (false, first);
            }
        }
        (true, first)
    }

    /// Best-of-`B^L` complete solutions scored at length L.
    fn best_of_leaves(&self, step: &Draw, rng: &mut ChaCha8Rng) -> bool {
        let leaves = u64::from(self.branching).pow(self.steps);
        let table = self.table_of[self.steps as usize];
        let (c, w) = &self.tables[table];
        let mut choice = Choice::new(false);
        for _ in 0..leaves {
            let correct = (0..self.steps).all(|_| step.hit(rng));
            let z = self.noise.draw(rng);
            choice.offer(if correct { c[z] } else { w[z] }, correct, rng);
        }
        choice.chosen
    }

    /// Two flags per depth of `grid` (all steps correct, first decision correct), then the
    /// baseline's flag when it runs.
    pub(super) fn trial(&self, grid: &[u32], rng: &mut ChaCha8Rng) -> Vec<bool> {
        // One type per trial (no draw with one type), shared by every depth.
        let step = &self.step[self.types.draw(rng)];
        let mut flags = Vec::with_capacity(2 * grid.len() + 1);
        for &d in grid {
            let (all, first) = self.search(step, d, rng);
            flags.extend([all, first]);
        }
        if self.baseline {
            flags.push(self.best_of_leaves(step, rng));
        }
        flags
    }

    /// Beam search of width `width`, literally (module docs of [`super`]): (the answer is
    /// correct, some complete candidate is correct).
    fn beam(&self, step: &Draw, width: usize, rng: &mut ChaCha8Rng) -> (bool, bool) {
        let b = self.branching as usize;
        let mut beams = vec![true; width];
        let mut candidates: Vec<(u32, bool)> = Vec::with_capacity(width * b);
        for t in 1..=self.steps {
            let (c, w) = &self.tables[self.table_of[t as usize]];
            candidates.clear();
            for &parent in &beams {
                for _ in 0..b {
                    let correct = parent && step.hit(rng);
                    let z = self.noise.draw(rng);
                    candidates.push((if correct { c[z] } else { w[z] }, correct));
                }
            }
            // A uniformly random order, then a stable sort by score: tied candidates keep a
            // uniformly random order, so the kept ones are a uniform subset of the tied.
            for i in (1..candidates.len()).rev() {
                let j = rng.random_range(0..=i);
                candidates.swap(i, j);
            }
            candidates.sort_by_key(|x| std::cmp::Reverse(x.0));
            if t == self.steps {
                break;
            }
            beams = candidates[..width].iter().map(|x| x.1).collect();
        }
        (candidates[0].1, candidates.iter().any(|x| x.1))
    }

    /// Two flags per width of `grid` (the answer correct, some complete candidate correct).
    pub(super) fn beam_trial(&self, grid: &[u32], rng: &mut ChaCha8Rng) -> Vec<bool> {
        let step = &self.step[self.types.draw(rng)];
        let mut flags = Vec::with_capacity(2 * grid.len());
        for &m in grid {
            let (correct, covered) = self.beam(step, m as usize, rng);
            flags.extend([correct, covered]);
        }
        flags
    }
}

/// Draws of one depth-d lookahead on one thread, at most (every decision made from a
/// correct prefix, every step drawn).
pub(super) fn lookahead_draws(search: &LookaheadSearch, depth: u32) -> f64 {
    let b = f64::from(search.branching);
    (0..search.steps)
        .map(|l| {
            let h = depth.min(search.steps - l) - 1;
            // Per candidate: the subtree's nodes (each a step draw) and its frontier's scores.
            let nodes: f64 = (0..=h).map(|j| b.powi(j as i32)).sum();
            b * (nodes + b.powi(h as i32) + 1.0)
        })
        .sum()
}

/// Draws of best-of-`B^L` (expected: steps until the first wrong one, and a score each).
pub(super) fn baseline_draws(search: &LookaheadSearch, mix: &Tasks) -> f64 {
    let q = mix
        .types()
        .iter()
        .map(|t| f64_of(&t.success))
        .fold(0.0, f64::max);
    let steps = f64::from(search.steps);
    let expected_steps = if q >= 1.0 {
        steps
    } else {
        (1.0 - q.powf(steps)) / (1.0 - q)
    };
    f64::from(search.branching).powf(steps) * (expected_steps + 2.0)
}

/// Draws of one beam search of width M on one thread: per step, M B step draws, noise draws
/// and shuffle draws, and the sort.
pub(super) fn beam_draws(search: &LookaheadSearch, width: u32) -> f64 {
    let n = f64::from(width) * f64::from(search.branching);
    f64::from(search.steps) * (3.0 * n + n * n.log2().max(1.0))
}

/// Whether every draw of these laws is exact (for the report's note).
pub(super) fn all_exact(mix: Option<&Mix>, draws: &[&Draw]) -> bool {
    mix.is_none_or(Mix::exact) && draws.iter().all(|d| d.exact)
}

impl Scores {
    pub(super) fn draws(&self) -> [&Draw; 2] {
        [&self.correct, &self.wrong]
    }
}

/// The knockout bracket: per type, one judge call's draw (correct with probability P).
#[derive(Debug, Clone)]
pub(super) struct Bracket {
    pub(super) mix: Mix,
    pub(super) judges: Vec<Draw>,
    /// K.
    pub(super) calls: u64,
}

impl Bracket {
    /// One tournament of `2^r` candidates for the largest r of `grid` (ascending), played
    /// literally: the candidates' correctness drawn, then round by round each pair meets;
    /// a correct and a wrong candidate are judged by K calls (a strict majority wins, a tie
    /// a fair coin); two of one class send the first on (the answer is the same either
    /// way). After round i the first winner is the winner of the first `2^i` candidates'
    /// bracket, so one tournament decides every r of the list: one flag each, its winner
    /// correct.
    pub(super) fn trial(&self, grid: &[u64], rng: &mut ChaCha8Rng) -> Vec<bool> {
        let most = *grid.last().expect("a nonempty list");
        let t = self.mix.types.draw(rng);
        let mut field: Vec<bool> = (0..1u64 << most)
            .map(|_| self.mix.success[t].hit(rng))
            .collect();
        let mut flags = Vec::with_capacity(grid.len());
        for round in 1..=most {
            let next: Vec<bool> = field
                .chunks(2)
                .map(|pair| {
                    if pair[0] == pair[1] {
                        return pair[0];
                    }
                    let right = (0..self.calls).filter(|_| self.judges[t].hit(rng)).count() as u64;
                    match (2 * right).cmp(&self.calls) {
                        std::cmp::Ordering::Greater => true,
                        std::cmp::Ordering::Less => false,
                        std::cmp::Ordering::Equal => rng.random_range(0..2u8) == 0,
                    }
                })
                .collect();
            field = next;
            if grid.contains(&round) {
                flags.push(field[0]);
            }
        }
        flags
    }

    /// Draws per trial: the candidates, and K calls per mixed match (at most `N - 1`).
    pub(super) fn draws(&self, most: u64) -> f64 {
        let n = 2f64.powi(most as i32);
        1.0 + n + (n - 1.0) * self.calls as f64
    }

    /// Whether every draw is exact.
    pub(super) fn exact(&self) -> bool {
        self.mix.exact() && self.judges.iter().all(|d| d.exact)
    }
}
