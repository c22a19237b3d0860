//! A league (round robin) of candidates judged pairwise, beside the knockout bracket
//! ([`super::knockout`]; Chen et al., arXiv 2411.19477, compare every candidate with
//! opponents and take the best average win rate; here every pair is compared).
//!
//! **The model.** N candidates, each correct with probability R independently; every pair
//! meets once, in a match of K judge calls (as in the bracket): a correct candidate beats a
//! wrong one with probability w ([`super::judge_win`]); a match of two correct or of two
//! wrong candidates is a fair coin (the judge has no reason to prefer either; this is the
//! model's assumption, stated). The candidate with the most match wins is the answer, ties
//! among the top scorers broken uniformly. With c correct candidates out of N the answer
//! is correct with probability `A(c, N - c)`, and
//! `P_correct = sum_j W_j sum_c C(N, c) R_j^c (1 - R_j)^(N - c) A(c, N - c)`.
//!
//! **The joint law of the scores.** The win counts are not independent (every match gives
//! one win to one of two candidates), so `A` is computed over the match outcomes exactly,
//! by a dynamic programme that adds the candidates one at a time (the c correct ones, then
//! the wrong ones) and plays the new candidate's matches against every earlier one. The
//! state is the multiset of the earlier candidates' (class, score): candidates of one
//! class and one score are exchangeable, so the number of them that beat the new candidate
//! is binomial (`Bin(g, 1/2)` for the new candidate's class, `Bin(g, w)` or `Bin(g, 1 - w)`
//! across classes), and those move up by one. At the end the answer is correct with
//! probability (correct candidates at the top score) / (candidates at the top score). The
//! unit tests check `A` against the sum over all `2^(N(N-1)/2)` outcomes for N <= 4 in
//! rationals.
//!
//! **Cost.** The states are the multisets of scores reachable, a few thousand at N = 10;
//! each step tries every split of every group. Exact rationals in both modes (`f64` rounds
//! the exact value once), refused up front past [`MAX_LEAGUE`] candidates.

use std::collections::HashMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::arith::Value;
use super::{Estimate, Tasks};
use crate::analytic::distributions::Bounded;
use crate::error::{Error, Result};
use crate::numeric::number::Probability;

/// The largest league computed exactly.
pub const MAX_LEAGUE: u64 = 12;

/// Seconds of the dynamic programme for one (N, w), measured on the project machine for N
/// = 2..=12 and rounded up (the state count grows by about 2.5x per candidate).
fn league_seconds(n: u64) -> f64 {
    2e-5 * 2.6f64.powi(n as i32)
}

/// The cost of [`league`] before any work, and the refusal of sizes past [`MAX_LEAGUE`].
pub(crate) fn league_estimate(
    tasks: &Tasks,
    judge_calls: &[u64],
    sizes: &[u64],
) -> Result<Estimate> {
    if let Some(&n) = sizes.iter().find(|&&n| n > MAX_LEAGUE) {
        let seconds = league_seconds(n);
        return Err(crate::budget::refuse(
            format!("the exact league of N = {n} candidates"),
            crate::budget::estimated_seconds(seconds),
            format!("N at most {MAX_LEAGUE} (its state space grows by about 2.6x per candidate)"),
            "Ask for --league sizes of at most 12.",
        ));
    }
    let per: f64 = sizes.iter().map(|&n| league_seconds(n)).sum();
    Ok(Estimate::new(
        "the league",
        per * (judge_calls.len() * tasks.types().len()) as f64,
        1e6,
        super::EXACT_HINT,
    ))
}

/// Parses `--league`: the numbers of candidates N of the league, a list like `--k`, each
/// in `2..=MAX_LEAGUE`.
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--league`.
pub fn parse_league(text: &str) -> Result<Vec<u64>> {
    let sizes = super::parse_list("--league", text, MAX_LEAGUE)?;
    if sizes.contains(&1) {
        return Err(Error::invalid(
            "--league",
            &format!("numbers of candidates N in 2..={MAX_LEAGUE}"),
            text,
        ));
    }
    Ok(sizes)
}

/// One row of the league.
#[derive(Debug, Clone, PartialEq)]
pub struct LeagueRow<P> {
    /// K.
    pub judge_calls_per_match: u64,
    /// N.
    pub candidates: u64,
    /// `K N (N - 1) / 2`.
    pub judge_calls: u64,
    /// The probability that the answer is correct.
    pub correct: Bounded<P>,
}

/// The state: per class (correct 0, wrong 1) and score, the number of candidates.
type State = Vec<u8>;

/// `A(c, m)`: the probability that a league of c correct and m wrong candidates picks a
/// correct one, a correct candidate beating a wrong one with probability `w` (module docs).
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::league_pick_correct;
/// use num_rational::BigRational;
/// let w = BigRational::new(3.into(), 4.into());
/// // One of each: the match decides, w.
/// assert_eq!(league_pick_correct(1, 1, &w), w);
/// assert_eq!(league_pick_correct(0, 3, &w), BigRational::from_integer(0.into()));
/// ```
pub fn league_pick_correct(correct: usize, wrong: usize, w: &BigRational) -> BigRational {
    let n = correct + wrong;
    if correct == 0 {
        return BigRational::zero();
    }
    if wrong == 0 {
        return BigRational::one();
    }
    let half = BigRational::new(BigInt::one(), BigInt::from(2));
    let one = BigRational::one();
    // Binomial weights C(g, j) p^j (1 - p)^(g - j) per p and g, j.
    let weights = |p: &BigRational| -> Vec<Vec<BigRational>> {
        (0..=n)
            .map(|g| {
                let mut row = Vec::with_capacity(g + 1);
                let mut binomial = BigInt::one();
                for j in 0..=g {
                    let term = BigRational::from_integer(binomial.clone())
                        * pow(p, j)
                        * pow(&(&one - p), g - j);
                    row.push(term);
                    binomial = binomial * BigInt::from(g - j) / BigInt::from(j + 1);
                }
                row
            })
            .collect()
    };
    let same = weights(&half);
    let correct_beats = weights(w);
    let wrong_beats = weights(&(&one - w));
    let mut states: HashMap<State, BigRational> = HashMap::new();
    states.insert(vec![0u8; 2 * n], one.clone());
    for t in 0..n {
        let class = usize::from(t >= correct);
        let mut next: HashMap<State, BigRational> = HashMap::new();
        for (state, probability) in &states {
            // The groups of earlier candidates: (class, score, count).
            let groups: Vec<(usize, usize, usize)> = state
                .iter()
                .enumerate()
                .filter(|(_, g)| **g > 0)
                .map(|(i, g)| (i / n, i % n, *g as usize))
                .collect();
            let table = |earlier: usize| -> &Vec<Vec<BigRational>> {
                match (earlier, class) {
                    (a, b) if a == b => &same,
                    (0, _) => &correct_beats, // an earlier correct one against a new wrong one
                    _ => &wrong_beats,
                }
            };
            // Every split: j_i of group i beat the new candidate.
            let mut splits = vec![0usize; groups.len()];
            loop {
                let mut weight = probability.clone();
                let mut new_state = state.clone();
                let mut score = 0usize;
                for (i, &(c, s, g)) in groups.iter().enumerate() {
                    let j = splits[i];
                    weight *= &table(c)[g][j];
                    new_state[c * n + s] -= j as u8;
                    new_state[c * n + s + 1] += j as u8;
                    score += g - j;
                }
                new_state[class * n + score] += 1;
                if !weight.is_zero() {
                    *next.entry(new_state).or_insert_with(BigRational::zero) += weight;
                }
                // The next split (odometer).
                let mut i = 0;
                while i < groups.len() {
                    splits[i] += 1;
                    if splits[i] <= groups[i].2 {
                        break;
                    }
                    splits[i] = 0;
                    i += 1;
                }
                if i == groups.len() {
                    break;
                }
            }
        }
        states = next;
    }
    let mut total = BigRational::zero();
    for (state, probability) in &states {
        let top = (0..n)
            .rev()
            .find(|&s| state[s] > 0 || state[n + s] > 0)
            .expect("a candidate");
        let (c, m) = (u64::from(state[top]), u64::from(state[n + top]));
        total += probability * BigRational::new(BigInt::from(c), BigInt::from(c + m));
    }
    total
}

fn pow(x: &BigRational, e: usize) -> BigRational {
    let mut out = BigRational::one();
    for _ in 0..e {
        out *= x;
    }
    out
}

/// The league over every K of `judge_calls` and N of `sizes` (module docs).
///
/// # Examples
///
/// ```
/// use pathology::analytic::inference::{Tasks, league, parse_judge_correct};
/// use num_rational::BigRational;
/// let tasks = Tasks::parse("1/2").unwrap();
/// let judge = parse_judge_correct("1", 1).unwrap();
/// let rows = league::<BigRational>(&tasks, &judge, &[1], &[2]).unwrap();
/// assert_eq!(rows[0].correct.value.to_string(), "3/4"); // a perfect judge, as the bracket
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--judge-correct`; [`Error::TooExpensive`] past
/// [`MAX_LEAGUE`] candidates.
pub fn league<P: Probability>(
    tasks: &Tasks,
    judge_correct: &[BigRational],
    judge_calls: &[u64],
    sizes: &[u64],
) -> Result<Vec<LeagueRow<P>>> {
    super::knockout::knockout_estimate(tasks, judge_correct, judge_calls, &[1], false)?;
    league_estimate(tasks, judge_calls, sizes)?.check()?;
    let cancel = crate::cancel::current();
    let mut rows = Vec::new();
    for &k in judge_calls {
        for &n in sizes {
            if cancel.is_cancelled() {
                break;
            }
            let mut total = BigRational::zero();
            for (t, p) in tasks.types().iter().zip(judge_correct) {
                let w = super::judge_win(p, k);
                let r = &t.success;
                let miss = BigRational::one() - r;
                let mut binomial = BigInt::one();
                let n = n as usize;
                for c in 0..=n {
                    let pick = league_pick_correct(c, n - c, &w);
                    total += &t.share
                        * BigRational::from_integer(binomial.clone())
                        * pow(r, c)
                        * pow(&miss, n - c)
                        * pick;
                    binomial = binomial * BigInt::from(n - c) / BigInt::from(c + 1);
                }
            }
            rows.push(LeagueRow {
                judge_calls_per_match: k,
                candidates: n,
                judge_calls: k * n * (n - 1) / 2,
                correct: Value::Reduced(total).bounded(0.0, 1.0),
            });
        }
    }
    cancel.check()?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `A(c, m)` as the sum over every outcome of every match (each pair's winner), in
    /// rationals.
    fn by_enumeration(correct: usize, wrong: usize, w: &BigRational) -> BigRational {
        let n = correct + wrong;
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect();
        let half = BigRational::new(1.into(), 2.into());
        let mut total = BigRational::zero();
        for outcome in 0u64..(1 << pairs.len()) {
            let mut wins = vec![0usize; n];
            let mut weight = BigRational::one();
            for (i, &(a, b)) in pairs.iter().enumerate() {
                let a_wins = outcome >> i & 1 == 1;
                let (a_correct, b_correct) = (a < correct, b < correct);
                let p_a = match (a_correct, b_correct) {
                    (true, false) => w.clone(),
                    (false, true) => BigRational::one() - w,
                    _ => half.clone(),
                };
                if a_wins {
                    wins[a] += 1;
                    weight *= p_a;
                } else {
                    wins[b] += 1;
                    weight *= BigRational::one() - p_a;
                }
            }
            let top = *wins.iter().max().unwrap();
            let tied: Vec<usize> = (0..n).filter(|&i| wins[i] == top).collect();
            let right = tied.iter().filter(|&&i| i < correct).count();
            total += weight * BigRational::new(right.into(), tied.len().into());
        }
        total
    }

    #[test]
    fn the_programme_equals_the_sum_over_every_outcome_up_to_four_candidates() {
        for w in ["3/4", "1/3", "1/2", "1", "0", "81/125"] {
            let w = crate::numeric::number::parse_rational(w).unwrap();
            for n in 1..=4 {
                for c in 0..=n {
                    assert_eq!(
                        league_pick_correct(c, n - c, &w),
                        by_enumeration(c, n - c, &w),
                        "c = {c}, m = {}, w = {w}",
                        n - c
                    );
                }
            }
        }
    }

    #[test]
    fn a_fair_judge_picks_a_correct_candidate_in_proportion() {
        // w = 1/2: every candidate is exchangeable, so the answer is correct with c / N.
        let half = BigRational::new(1.into(), 2.into());
        for (c, m) in [(1, 4), (2, 3), (3, 3)] {
            assert_eq!(
                league_pick_correct(c, m, &half),
                BigRational::new((c as i64).into(), ((c + m) as i64).into())
            );
        }
    }
}
