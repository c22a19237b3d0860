//! What the test-time strategies spend (`samples`, `verifier_calls`, `cost`), the payoff of
//! no answer (`--abstain-value`) and the compute-optimal frontier (`inference frontier`):
//! resampling's expected samples against a direct sum and a simulation, the frontier's rows
//! against each strategy run on its own, and the abstain value's exact effect.

use num_rational::BigRational;
use num_traits::{One, Zero};
use pathology::analytic::inference::frontier::{STRATEGIES, Strategy};
use pathology::analytic::inference::{
    FrontierRequest, LookaheadSearch, Payoffs, Prices, Tasks, beam, best_of_n, lookahead_mixed,
    resample_with,
};
use pathology::analytic::pathsum::Law;
use pathology::numeric::number::parse_rational;
use predicates::prelude::*;
use rand::{RngExt, SeedableRng};

use crate::common::pathology;

fn q(text: &str) -> BigRational {
    parse_rational(text).unwrap()
}

fn payoffs(v: &str, u: &str) -> Payoffs {
    Payoffs {
        false_positive: q(v),
        abstain: q(u),
    }
}

/// `sum_j W_j sum_{i<k} (1 - alpha_j)^i`, term by term.
fn direct_samples(tasks: &Tasks, c: &BigRational, s: &BigRational, k: u64) -> BigRational {
    let one = BigRational::one();
    let mut total = BigRational::zero();
    for t in tasks.types() {
        let alpha = &t.success * c + (&one - &t.success) * (&one - s);
        let mut power = one.clone();
        for _ in 0..k {
            total += &t.share * &power;
            power *= &one - &alpha;
        }
    }
    total
}

#[test]
fn resampling_s_expected_samples_are_the_direct_sum() {
    let tasks = Tasks::parse("0.87:0.58,0.13:0.42").unwrap();
    let (c, s) = (q("0.9"), q("0.75"));
    let ks = [1, 2, 5, 10, 40];
    let r = resample_with::<BigRational>(&tasks, &c, &s, &payoffs("0", "0"), &ks).unwrap();
    for (row, &k) in r.rows.iter().zip(&ks) {
        let samples = row.samples.as_ref().unwrap().value.clone();
        assert_eq!(samples, direct_samples(&tasks, &c, &s, k), "k = {k}");
    }
    // One sample is always drawn; as k grows, sum_j W_j / alpha_j.
    assert_eq!(r.rows[0].samples.as_ref().unwrap().value, q("1"));
    let one = BigRational::one();
    let limit: BigRational = tasks
        .types()
        .iter()
        .map(|t| &t.share / (&t.success * &c + (&one - &t.success) * (&one - &s)))
        .sum();
    assert_eq!(r.limit.samples.as_ref().unwrap().value, limit);
    // f64 agrees within its bound.
    let float = resample_with::<f64>(&tasks, &c, &s, &payoffs("0", "0"), &ks).unwrap();
    for (x, y) in r.rows.iter().zip(&float.rows) {
        let exact = pathology::numeric::number::rational_to_f64(&x.samples.as_ref().unwrap().value);
        let y = y.samples.as_ref().unwrap();
        assert!((exact - y.value).abs() <= y.bound + 1e-300, "{exact} {y:?}");
    }
}

/// Resampling run literally, counting the samples drawn: 200,000 trials of seed 7 (one
/// ChaCha8 stream); the exact expectation lies within the estimate's 99.9% normal interval
/// (its 95% interval is printed).
#[test]
fn resampling_s_expected_samples_match_a_simulation() {
    let tasks = Tasks::parse("0.87:0.58,0.13:0.42").unwrap();
    let (c, s) = (q("0.9"), q("0.75"));
    let k = 6u64;
    let exact = resample_with::<BigRational>(&tasks, &c, &s, &payoffs("0", "0"), &[k])
        .unwrap()
        .rows[0]
        .samples
        .clone()
        .unwrap()
        .value;
    let exact = pathology::numeric::number::rational_to_f64(&exact);
    let f = |r: &BigRational| pathology::numeric::number::rational_to_f64(r);
    let (cf, sf) = (f(&c), f(&s));
    let types: Vec<(f64, f64)> = tasks
        .types()
        .iter()
        .map(|t| (f(&t.success), f(&t.share)))
        .collect();
    let trials = 200_000u64;
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(7);
    let (mut sum, mut squares) = (0.0f64, 0.0f64);
    for _ in 0..trials {
        let u: f64 = rng.random();
        let r = if u < types[0].1 {
            types[0].0
        } else {
            types[1].0
        };
        let mut drawn = 0u64;
        while drawn < k {
            drawn += 1;
            let correct = rng.random::<f64>() < r;
            let accepted = if correct {
                rng.random::<f64>() < cf
            } else {
                rng.random::<f64>() >= sf
            };
            if accepted {
                break;
            }
        }
        sum += drawn as f64;
        squares += (drawn * drawn) as f64;
    }
    let n = trials as f64;
    let mean = sum / n;
    let se = ((squares / n - mean * mean) / n).sqrt();
    println!(
        "expected samples at k = {k}: exact {exact:.6}, simulated {mean:.6} [{:.6}, {:.6}] (95%, \
         {trials} trials, seed 7)",
        mean - 1.96 * se,
        mean + 1.96 * se
    );
    assert!(
        (mean - exact).abs() <= 3.29 * se,
        "{mean} vs {exact} (se {se})"
    );
}

/// `payoff(U) - payoff(0) = U P_none`, exactly, at every k and in the limit.
#[test]
fn the_abstain_value_adds_exactly_u_times_p_none() {
    let tasks = Tasks::parse("0.6:1/2,0.1:1/2").unwrap();
    let (c, s) = (q("0.8"), q("0.9"));
    let ks = [1, 3, 8];
    let base = resample_with::<BigRational>(&tasks, &c, &s, &payoffs("-1", "0"), &ks).unwrap();
    let u = q("-3/7");
    let with = resample_with::<BigRational>(
        &tasks,
        &c,
        &s,
        &Payoffs {
            false_positive: q("-1"),
            abstain: u.clone(),
        },
        &ks,
    )
    .unwrap();
    for (x, y) in base
        .rows
        .iter()
        .zip(&with.rows)
        .chain([(&base.limit, &with.limit)])
    {
        // P_none > 0 at every k of the list (as k grows it tends to 0: no type rejects all).
        assert!(x.k.is_none() || !x.none.value.is_zero());
        assert_eq!(&y.payoff.value - &x.payoff.value, &u * &x.none.value);
        assert_eq!(x.correct, y.correct);
    }
    // The command line: the payoff column moves by U P_none, and the manifest records U.
    let json = |extra: &[&str]| -> serde_json::Value {
        let out = pathology()
            .args(["inference", "resample", "--tasks", "0.6:1/2,0.1:1/2"])
            .args([
                "--completeness",
                "0.8",
                "--soundness",
                "0.9",
                "--k",
                "1,3,8",
            ])
            .args([
                "--false-positive-value",
                "-1",
                "--exact",
                "--format",
                "json",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let plain = json(&[]);
    let abstain = json(&["--abstain-value", "-3/7"]);
    let column = |j: &serde_json::Value, name: &str| -> Vec<BigRational> {
        j["tables"][0]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let cell = &r[format!("{name}_exact")];
                q(cell
                    .as_str()
                    .unwrap_or_else(|| panic!("{name}_exact in {r}")))
            })
            .collect()
    };
    let (p0, p1, none) = (
        column(&plain, "payoff"),
        column(&abstain, "payoff"),
        column(&plain, "P_none"),
    );
    for i in 0..3 {
        assert_eq!(&p1[i] - &p0[i], &u * &none[i]);
    }
    assert!(abstain.to_string().contains("\"abstain_value\""));
}

fn search(branching: u32, steps: u32, noise: &str) -> LookaheadSearch {
    LookaheadSearch {
        branching,
        steps,
        step_correct: q("0.7"),
        noise: Law::parse("--noise", noise).unwrap(),
        growth: q("1/4"),
    }
}

/// Each frontier row equals the largest of the strategies run one by one (best-of-n on
/// complete solutions, lookahead, beam search) at every setting within its budget, and its
/// spend is that setting's.
#[test]
fn the_frontier_is_the_best_of_the_strategies_run_separately() {
    let search = search(2, 3, "0:1/2,1:1/4,2:1/4");
    let mix = Tasks::parse_steps("0.8:1/2,0.5:1/2").unwrap();
    let prices = Prices {
        sample: q("1"),
        verifier: q("1/2"),
    };
    let budgets = vec![2, 5, 9, 14, 30, 60, 120];
    let request = FrontierRequest {
        search: search.clone(),
        mix: mix.clone(),
        prices: prices.clone(),
        budgets: budgets.clone(),
        beams: Some(vec![1, 2, 3, 4]),
        depths: None,
    };
    let f = request.compute::<BigRational>().unwrap();
    // Every setting run on its own: (strategy, setting, cost, P_correct).
    let l = BigRational::from_integer(3.into());
    let per_solution = &prices.sample * &l + &prices.verifier;
    let solutions = Tasks::parse(
        &mix.types()
            .iter()
            .map(|t| format!("{}:{}", num_traits::pow(t.success.clone(), 3), t.share))
            .collect::<Vec<_>>()
            .join(","),
    )
    .unwrap();
    // The noise 0:1/2,1:1/4,2:1/4 at the scale 1 + G (L - 1) = 3/2 of complete solutions.
    let correct = Law::parse("--score-correct", "1:1/2,5/2:1/4,4:1/4").unwrap();
    let wrong = Law::parse("--score-wrong", "0:1/2,3/2:1/4,3:1/4").unwrap();
    let ns: Vec<u64> = (1..=120).collect();
    let bon = best_of_n::<BigRational>(&solutions, &correct, &wrong, &ns).unwrap();
    let mut all: Vec<(Strategy, u64, BigRational, BigRational)> = Vec::new();
    for (n, row) in ns.iter().zip(&bon.rows) {
        let cost = &per_solution * BigRational::from_integer((*n).into());
        all.push((Strategy::BestOfN, *n, cost, row.correct.value.clone()));
    }
    let look = lookahead_mixed::<BigRational>(&search, &mix, &[1, 2, 3]).unwrap();
    for row in &look.rows {
        let spend = pathology::analytic::inference::Spend::lookahead(2, 3, row.depth);
        let strategy = if row.depth == 1 {
            Strategy::Greedy
        } else {
            Strategy::Lookahead
        };
        all.push((
            strategy,
            u64::from(row.depth),
            spend.cost(&prices),
            row.correct.value.clone(),
        ));
    }
    let beams = beam::<BigRational>(&search, &mix, &[1, 2, 3, 4]).unwrap();
    // Width 1 is greedy: depth-1 lookahead, exactly.
    assert_eq!(beams.rows[0].correct.value, look.rows[0].correct.value);
    for row in beams.rows.iter().skip(1) {
        let spend = pathology::analytic::inference::Spend::beam(2, 3, row.beams);
        all.push((
            Strategy::Beam,
            u64::from(row.beams),
            spend.cost(&prices),
            row.correct.value.clone(),
        ));
    }
    let mut winners = std::collections::BTreeSet::new();
    for row in &f.rows {
        let c = BigRational::from_integer(row.budget.into());
        let within: Vec<&(Strategy, u64, BigRational, BigRational)> =
            all.iter().filter(|x| x.2 <= c).collect();
        let top = within.iter().map(|x| x.3.clone()).max();
        let Some(best) = row.best else {
            assert!(within.is_empty(), "budget {}", row.budget);
            continue;
        };
        let s = &f.settings[best];
        assert_eq!(Some(s.correct.value.clone()), top, "budget {}", row.budget);
        assert!(s.cost <= c);
        // The setting is one of the separate runs', with its value and cost.
        assert!(
            all.iter().any(|x| x.0 == s.strategy
                && x.1 == s.value
                && x.2 == s.cost
                && x.3 == s.correct.value),
            "{:?}",
            (s.strategy, s.value)
        );
        // Each strategy's pick is its best within the budget.
        for (strategy, pick) in STRATEGIES.iter().zip(&row.per_strategy) {
            let own = within
                .iter()
                .filter(|x| x.0 == *strategy)
                .map(|x| x.3.clone())
                .max();
            assert_eq!(pick.map(|i| f.settings[i].correct.value.clone()), own);
        }
        // The runner-up is the best of the other strategies.
        let others = row
            .per_strategy
            .iter()
            .flatten()
            .filter(|&&i| i != best)
            .map(|&i| f.settings[i].correct.value.clone())
            .max();
        assert_eq!(
            row.runner_up.map(|i| f.settings[i].correct.value.clone()),
            others
        );
        winners.insert(s.strategy);
    }
    // The small budgets are best-of-N's alone; a search wins somewhere on the list.
    assert_eq!(f.rows[0].best, None);
    assert_eq!(
        f.settings[f.rows[1].best.unwrap()].strategy,
        Strategy::BestOfN
    );
    assert!(winners.len() >= 2, "{winners:?}");
}

/// The command line's frontier in f64 agrees with the exact one within its bound, writes
/// its figure, and refuses bad input before any work.
#[test]
fn the_frontier_command_runs_and_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "inference",
        "frontier",
        "--branching",
        "2",
        "--steps",
        "3",
        "--step-correct",
        "0.7",
        "--noise",
        "0:1/2,1:1/4,2:1/4",
    ];
    let png = dir.path().join("frontier.png");
    pathology()
        .args(base)
        .args(["--budgets", "1..64:x2", "--plot"])
        .arg(&png)
        .assert()
        .success()
        .stdout(predicate::str::contains("compute-optimal frontier"));
    assert!(std::fs::metadata(&png).unwrap().len() > 1000);
    for (args, option) in [
        (vec!["--budgets", "0,4"], "--budgets"),
        (vec!["--budgets", "-4"], "--budgets"),
        (
            vec!["--budgets", "4", "--cost-sample", "-1"],
            "--cost-sample",
        ),
        (
            vec!["--budgets", "4", "--cost-verifier", "-1/2"],
            "--cost-verifier",
        ),
        (vec!["--budgets", "4", "--beams", "0"], "--beams"),
        (vec!["--budgets", "4", "--depth", "9"], "--depth"),
    ] {
        pathology()
            .args(base)
            .args(&args)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(option));
    }
    for (args, option) in [
        (vec!["--abstain-value", "abc"], "--abstain-value"),
        (vec!["--cost-sample", "-2"], "--cost-sample"),
    ] {
        pathology()
            .args([
                "inference",
                "resample",
                "--tasks",
                "0.5",
                "--completeness",
                "1",
            ])
            .args(["--soundness", "0.5", "--k", "1..3"])
            .args(&args)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(option));
    }
}

/// Every sample-based strategy's spend columns: pass-at-k k samples and k oracle checks,
/// best-of-n n and n, voting k and 0, weighted voting k and k, priced exactly.
#[test]
fn every_strategy_counts_its_samples_and_calls() {
    let columns = |args: &[&str]| -> (Vec<i64>, Vec<i64>, Vec<f64>) {
        let out = pathology()
            .args(args)
            .args([
                "--cost-sample",
                "3",
                "--cost-verifier",
                "1/2",
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let rows = j["tables"][0]["rows"].as_array().unwrap();
        (
            rows.iter()
                .map(|r| r["samples"].as_i64().unwrap())
                .collect(),
            rows.iter()
                .map(|r| r["verifier_calls"].as_i64().unwrap())
                .collect(),
            rows.iter().map(|r| r["cost"].as_f64().unwrap()).collect(),
        )
    };
    // Each command and its verifier calls as a function of its k or n.
    type Case<'a> = (&'a [&'a str], fn(i64) -> i64);
    let cases: [Case; 4] = [
        (
            &["inference", "pass-at-k", "--tasks", "0.4", "--k", "1,4"],
            |k| k,
        ),
        (
            &[
                "inference",
                "best-of-n",
                "--tasks",
                "0.4",
                "--score-correct",
                "1",
                "--score-wrong",
                "0",
                "--n",
                "1,4",
            ],
            |k| k,
        ),
        (
            &["inference", "vote", "--tasks", "0.6", "--k", "1,4"],
            |_| 0,
        ),
        (
            &[
                "inference",
                "vote",
                "--tasks",
                "0.6",
                "--k",
                "1,4",
                "--weighted",
                "--score-correct",
                "1",
                "--score-wrong",
                "0:1/2,1:1/2",
            ],
            |k| k,
        ),
    ];
    for (args, calls) in cases {
        let (samples, verifier, cost) = columns(args);
        assert_eq!(samples, vec![1, 4], "{args:?}");
        assert_eq!(verifier, vec![calls(1), calls(4)], "{args:?}");
        for i in 0..2 {
            let expected = 3.0 * samples[i] as f64 + 0.5 * verifier[i] as f64;
            assert_eq!(cost[i], expected, "{args:?}");
        }
    }
}
