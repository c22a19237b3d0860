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
//! **Cost.** The states are the multisets of scores reachable; each step splits one group.
//! The time grows about 10.5 times per candidate (measured: 0.16 s at N = 8, 1.5 s at 9,
//! 25 s at 10, for every c). Exact rationals in both modes (`f64` rounds the exact value
//! once), refused up front past [`MAX_LEAGUE`] candidates or the tool's time limit.

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
pub const MAX_LEAGUE: u64 = 10;

/// Seconds of the dynamic programme for one (N, w) and every c, measured on the project
/// machine under load (N = 7: 0.02 s, 8: 0.16 s, 9: 1.5 s, 10: 25 s) and rounded up: about
/// 10.5 times more per candidate.
fn league_seconds(n: u64) -> f64 {
    1.6e-9 * 10.5f64.powi(n as i32)
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
            format!("--league {n} (the exact league of {n} candidates)"),
            crate::budget::estimated_seconds(seconds),
            format!("N at most {MAX_LEAGUE} (the time grows about 10.5 times per candidate)"),
            "Ask for --league sizes of at most 10.",
        ));
    }
    let per: f64 = sizes.iter().map(|&n| league_seconds(n)).sum();
    Ok(Estimate::new(
        "the exact league",
        per * (judge_calls.len() * tasks.types().len()) as f64,
        1e6,
        super::EXACT_HINT,
    ))
}

/// Parses `--league`: the numbers of candidates N of the league, a list like `--k`, each
/// in `2..=1000` (sizes past [`MAX_LEAGUE`] are refused by the estimate, with the time they
/// would take).
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--league`.
pub fn parse_league(text: &str) -> Result<Vec<u64>> {
    let allowed = "a range A..B or a comma list of numbers of candidates N in 2..=1000";
    let sizes = super::parse_list("--league", text, 1000)
        .map_err(|_| Error::invalid("--league", allowed, text))?;
    if sizes.contains(&1) {
        return Err(Error::invalid("--league", allowed, text));
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

/// The state: per class (correct 0, wrong 1) and score, the number of candidates, then the
/// new candidate's score so far.
type State = Vec<u8>;

/// `A(c, m)`: the probability that a league of c correct and m wrong candidates picks a
/// correct one, a correct candidate beating a wrong one with probability `w` (module docs).
///
/// Every match contributes one factor, over 2 (a match within a class) or over `v` (w =
/// u/v, a match across), so the weights are integers over `2^(C(c,2) + C(m,2)) v^(c m)`
/// and no fraction is reduced until the end. A new candidate meets the groups of earlier
/// candidates one group at a time, from the highest score down (so that those moved up are
/// not met again), and the states of each step are merged.
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
    let (u, v) = (w.numer().clone(), w.denom().clone());
    let lose = &v - &u;
    let binomials: Vec<Vec<BigInt>> = (0..=n)
        .map(|g| {
            let mut row = vec![BigInt::one()];
            for j in 0..g {
                let next = &row[j] * BigInt::from(g - j) / BigInt::from(j + 1);
                row.push(next);
            }
            row
        })
        .collect();
    let powers = |x: &BigInt| -> Vec<BigInt> {
        let mut out = vec![BigInt::one()];
        for i in 0..n {
            let next = &out[i] * x;
            out.push(next);
        }
        out
    };
    let (u_powers, lose_powers) = (powers(&u), powers(&lose));
    // The integer factor of j of g earlier candidates beating the new one: within a class
    // C(g, j) (over 2^g); an earlier correct one against a new wrong one C(g, j) u^j
    // (v - u)^(g - j), an earlier wrong one against a new correct one the other way round
    // (over v^g).
    let factor = |earlier: usize, new: usize, g: usize, j: usize| -> BigInt {
        let b = &binomials[g][j];
        match (earlier, new) {
            (a, b2) if a == b2 => b.clone(),
            (0, _) => b * &u_powers[j] * &lose_powers[g - j],
            _ => b * &lose_powers[j] * &u_powers[g - j],
        }
    };
    let width = 2 * n;
    let mut states: HashMap<State, BigInt> = HashMap::new();
    states.insert(vec![0u8; width + 1], BigInt::one());
    for t in 0..n {
        let new = usize::from(t >= correct);
        for class in 0..2 {
            for score in (0..n - 1).rev() {
                let slot = class * n + score;
                let mut next: HashMap<State, BigInt> = HashMap::with_capacity(states.len());
                for (state, weight) in states {
                    let g = usize::from(state[slot]);
                    if g == 0 {
                        *next.entry(state).or_insert_with(BigInt::zero) += weight;
                        continue;
                    }
                    for j in 0..=g {
                        let mut moved = state.clone();
                        moved[slot] -= j as u8;
                        moved[slot + 1] += j as u8;
                        moved[width] += (g - j) as u8;
                        let f = factor(class, new, g, j);
                        if f.is_zero() {
                            continue;
                        }
                        *next.entry(moved).or_insert_with(BigInt::zero) += &weight * f;
                    }
                }
                states = next;
            }
        }
        // The new candidate takes its place at the score it made.
        let mut placed: HashMap<State, BigInt> = HashMap::with_capacity(states.len());
        for (mut state, weight) in states {
            let score = usize::from(state[width]);
            state[width] = 0;
            state[new * n + score] += 1;
            *placed.entry(state).or_insert_with(BigInt::zero) += weight;
        }
        states = placed;
    }
    // sum over the states of weight x a / (a + b), over lcm(1..=n) to stay in integers.
    let lcm = (1..=n as u64).fold(BigInt::one(), |l, k| {
        let k = BigInt::from(k);
        let g = num_integer::Integer::gcd(&l, &k);
        l * k / g
    });
    let mut total = BigInt::zero();
    for (state, weight) in &states {
        let top = (0..n)
            .rev()
            .find(|&s| state[s] > 0 || state[n + s] > 0)
            .expect("a candidate");
        let (a, b) = (u64::from(state[top]), u64::from(state[n + top]));
        total += weight * BigInt::from(a) * (&lcm / BigInt::from(a + b));
    }
    let same = correct * (correct - 1) / 2 + wrong * (wrong - 1) / 2;
    let denominator = lcm * (BigInt::one() << same) * v.pow((correct * wrong) as u32);
    BigRational::new(total, denominator)
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
            // A(c, N - c) depends on w only: computed once per distinct P.
            let mut picks: Vec<(BigRational, Vec<BigRational>)> = Vec::new();
            for (t, p) in tasks.types().iter().zip(judge_correct) {
                let w = super::judge_win(p, k);
                let n_usize = n as usize;
                let pick_of = match picks.iter().position(|(x, _)| *x == w) {
                    Some(i) => i,
                    None => {
                        let values = (0..=n_usize)
                            .map(|c| league_pick_correct(c, n_usize - c, &w))
                            .collect();
                        picks.push((w.clone(), values));
                        picks.len() - 1
                    }
                };
                let r = &t.success;
                let miss = BigRational::one() - r;
                let mut binomial = BigInt::one();
                let n = n as usize;
                for c in 0..=n {
                    let pick = picks[pick_of].1[c].clone();
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
