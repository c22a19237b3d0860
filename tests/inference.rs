//! `pathology inference`: every closed form equals a literal brute force over all
//! outcomes of small instances (every sample, verifier draw, vote and rollout tree), in
//! rationals; f64 agrees with exact within its printed bound; bad input is refused by name.

use num_rational::BigRational;
use num_traits::{One, Zero};
use pathology::analytic::inference::{
    LookaheadSearch, Tasks, best_of_n, lookahead, pass_at_k, resample, vote,
};
use pathology::analytic::pathsum::Law;
use pathology::numeric::number::parse_rational;

use crate::common::{refused, stdout_of};

fn q(s: &str) -> BigRational {
    parse_rational(s).unwrap()
}

fn one() -> BigRational {
    BigRational::one()
}

/// Every sequence of `k` independent draws from `choices` (value, probability).
fn sequences<T: Clone>(choices: &[(T, BigRational)], k: usize) -> Vec<(Vec<T>, BigRational)> {
    let mut out = vec![(Vec::new(), one())];
    for _ in 0..k {
        let mut next = Vec::new();
        for (seq, p) in &out {
            for (c, pc) in choices {
                let mut s = seq.clone();
                s.push(c.clone());
                next.push((s, p * pc));
            }
        }
        out = next;
    }
    out
}

const MIX: &str = "2/3:1/4,1/5:1/2,1:1/4";

#[test]
fn pass_at_k_is_every_sample_enumerated() {
    let tasks = Tasks::parse(MIX).unwrap();
    let rows = pass_at_k::<BigRational>(&tasks, &[1, 2, 3, 4]).unwrap();
    for row in rows {
        let mut total = BigRational::zero();
        for t in tasks.types() {
            let draws = [(true, t.success.clone()), (false, one() - &t.success)];
            for (seq, p) in sequences(&draws, row.k as usize) {
                if seq.iter().any(|&c| c) {
                    total += &t.share * p;
                }
            }
        }
        assert_eq!(row.correct.value, total, "k = {}", row.k);
        assert_eq!(row.none.value, one() - total);
    }
}

#[test]
fn resample_is_every_sample_and_verifier_draw_enumerated() {
    let tasks = Tasks::parse(MIX).unwrap();
    for (c, s, v) in [("1", "0.75", "0"), ("2/3", "1/2", "-1"), ("0", "1", "1/2")] {
        let (c, s, v) = (q(c), q(s), q(v));
        let r = resample::<BigRational>(&tasks, &c, &s, &v, &[1, 2, 3, 4]).unwrap();
        for row in &r.rows {
            let (mut correct, mut fp, mut none) = (
                BigRational::zero(),
                BigRational::zero(),
                BigRational::zero(),
            );
            for t in tasks.types() {
                // One draw: (sample correct, verifier accepts), literally.
                let draws = [
                    ((true, true), &t.success * &c),
                    ((true, false), &t.success * (one() - &c)),
                    ((false, true), (one() - &t.success) * (one() - &s)),
                    ((false, false), (one() - &t.success) * &s),
                ];
                for (seq, p) in sequences(&draws, row.k.unwrap() as usize) {
                    match seq.iter().find(|(_, accepted)| *accepted) {
                        Some((true, _)) => correct += &t.share * &p,
                        Some((false, _)) => fp += &t.share * &p,
                        None => none += &t.share * &p,
                    }
                }
            }
            assert_eq!(row.correct.value, correct);
            assert_eq!(row.false_positive.value, fp);
            assert_eq!(row.none.value, none);
            assert_eq!(row.payoff.value, &correct + &v * &fp);
        }
    }
}

#[test]
fn stroebl_et_al_rates_are_their_printed_values() {
    let tasks = Tasks::parse("0.87:0.58,0.13:0.42").unwrap();
    let r = resample::<BigRational>(&tasks, &q("1"), &q("0.75"), &q("0"), &[1]).unwrap();
    assert_eq!(r.types[0].reject_wrong, q("0.0975"));
    assert_eq!(r.types[1].reject_wrong, q("0.6525"));
    assert_eq!(r.types[0].accept_wrong, q("0.0325"));
    assert_eq!(r.types[1].accept_wrong, q("0.2175"));
    let ceiling = q("0.58") * q("0.87") / q("0.9025") + q("0.42") * q("0.13") / q("0.3475");
    assert_eq!(r.limit.correct.value, ceiling);
    assert!(ceiling < one());
}

#[test]
fn best_of_n_is_every_sample_and_score_enumerated() {
    let tasks = Tasks::parse(MIX).unwrap();
    let laws = [
        ("0:1/2,1:1/4,2:1/4", "0:1/3,1:1/3,3:1/3"),
        ("1", "1"),
        ("0:1/2,1:1/2", "0:1/4,1:3/4"),
    ];
    for (lc, lw) in laws {
        let (correct, wrong) = (
            Law::parse("--score-correct", lc).unwrap(),
            Law::parse("--score-wrong", lw).unwrap(),
        );
        let r = best_of_n::<BigRational>(&tasks, &correct, &wrong, &[1, 2, 3, 4]).unwrap();
        for row in &r.rows {
            let mut total = BigRational::zero();
            for t in tasks.types() {
                let mut draws = Vec::new();
                for (v, p) in correct.atoms() {
                    draws.push(((true, v.clone()), &t.success * p));
                }
                for (v, p) in wrong.atoms() {
                    draws.push(((false, v.clone()), (one() - &t.success) * p));
                }
                for (seq, p) in sequences(&draws, row.n.unwrap() as usize) {
                    let top = seq.iter().map(|(_, v)| v.clone()).max().unwrap();
                    let tied: Vec<bool> = seq
                        .iter()
                        .filter(|(_, v)| *v == top)
                        .map(|(c, _)| *c)
                        .collect();
                    let good = tied.iter().filter(|&&c| c).count();
                    total += &t.share * p * BigRational::new(good.into(), tied.len().into());
                }
            }
            assert_eq!(row.correct.value, total, "{lc} / {lw}, n = {:?}", row.n);
        }
    }
}

#[test]
fn vote_is_every_vote_enumerated() {
    let tasks = Tasks::parse(MIX).unwrap();
    for wrong in [
        vec![q("1")],
        vec![q("1/2"), q("1/2")],
        vec![q("1/6"), q("1/3"), q("1/2")],
    ] {
        let r = vote::<BigRational>(&tasks, &wrong, &[1, 2, 3, 4, 5]).unwrap();
        for row in &r.rows {
            let mut total = BigRational::zero();
            for t in tasks.types() {
                let mut draws = vec![(0usize, t.success.clone())];
                for (i, u) in wrong.iter().enumerate() {
                    draws.push((i + 1, (one() - &t.success) * u));
                }
                for (seq, p) in sequences(&draws, row.k as usize) {
                    let mut counts = vec![0usize; wrong.len() + 1];
                    for &label in &seq {
                        counts[label] += 1;
                    }
                    let top = *counts.iter().max().unwrap();
                    let tied = counts.iter().filter(|&&c| c == top).count();
                    if counts[0] == top {
                        total += &t.share * p / BigRational::from_integer(tied.into());
                    }
                }
            }
            assert_eq!(row.correct.value, total, "{wrong:?}, k = {}", row.k);
        }
    }
}

/// Every frontier of a fresh subtree: `below` more levels under a node (correct or not)
/// whose frontier is at prefix length `m`: (probability, the frontier's scores).
fn frontiers(
    s: &LookaheadSearch,
    correct: bool,
    below: u32,
    m: u32,
) -> Vec<(BigRational, Vec<BigRational>)> {
    if below == 0 {
        let scale = one() + &s.growth * BigRational::from_integer((m - 1).into());
        let bonus = if correct { one() } else { BigRational::zero() };
        return s
            .noise
            .atoms()
            .iter()
            .map(|(z, p)| (p.clone(), vec![&bonus + &scale * z]))
            .collect();
    }
    let mut out = vec![(one(), Vec::new())];
    for _ in 0..s.branching {
        let mut next = Vec::new();
        for (p, scores) in &out {
            let kinds: Vec<(bool, BigRational)> = if correct {
                vec![
                    (true, s.step_correct.clone()),
                    (false, one() - &s.step_correct),
                ]
            } else {
                vec![(false, one())]
            };
            for (child, pc) in kinds {
                for (pf, f) in frontiers(s, child, below - 1, m) {
                    let mut all = scores.clone();
                    all.extend(f);
                    next.push((p * &pc * pf, all));
                }
            }
        }
        out = next;
    }
    out
}

/// The probability that the search from a prefix of l steps (correct or not) ends correct:
/// every candidate, subtree and score of this decision enumerated, then the next decision.
fn search_brute(s: &LookaheadSearch, d: u32, l: u32, prefix_correct: bool) -> BigRational {
    if l == s.steps {
        return if prefix_correct {
            one()
        } else {
            BigRational::zero()
        };
    }
    let reach = d.min(s.steps - l);
    // One candidate: (probability, correct, the largest score of its subtree).
    let mut candidate = Vec::new();
    let kinds: Vec<(bool, BigRational)> = if prefix_correct {
        vec![
            (true, s.step_correct.clone()),
            (false, one() - &s.step_correct),
        ]
    } else {
        vec![(false, one())]
    };
    for (c, pc) in kinds {
        for (pf, scores) in frontiers(s, c, reach - 1, l + reach) {
            candidate.push(((c, scores.into_iter().max().unwrap()), pc.clone() * pf));
        }
    }
    let next_correct = search_brute(s, d, l + 1, true);
    let next_wrong = search_brute(s, d, l + 1, false);
    let mut total = BigRational::zero();
    for (seq, p) in sequences(&candidate, s.branching as usize) {
        let top = seq.iter().map(|(_, v)| v.clone()).max().unwrap();
        let tied: Vec<bool> = seq
            .iter()
            .filter(|(_, v)| *v == top)
            .map(|(c, _)| *c)
            .collect();
        let good = BigRational::new(
            tied.iter().filter(|&&c| c).count().into(),
            tied.len().into(),
        );
        total += &p * (&good * &next_correct + (one() - &good) * &next_wrong);
    }
    total
}

#[test]
fn lookahead_is_every_rollout_tree_enumerated() {
    let cases = [
        (2, 2, "2/3", "0:1/2,1:1/2", "0", vec![1, 2]),
        (2, 2, "1/2", "0:1/3,1:1/3,2:1/3", "1", vec![1, 2]),
        (2, 3, "3/4", "0:1/2,2:1/2", "1/2", vec![1, 2]),
        (3, 2, "1/3", "-1:1/4,0:1/2,1:1/4", "0", vec![1]),
        (2, 1, "1/2", "0", "0", vec![1]),
    ];
    for (b, l, qq, noise, g, depths) in cases {
        let s = LookaheadSearch {
            branching: b,
            steps: l,
            step_correct: q(qq),
            noise: Law::parse("--noise", noise).unwrap(),
            growth: q(g),
        };
        let r = lookahead::<BigRational>(&s, &depths).unwrap();
        for row in &r.rows {
            let brute = search_brute(&s, row.depth, 0, true);
            assert_eq!(
                row.correct.value, brute,
                "B={b} L={l} Q={qq} {noise} G={g} d={}",
                row.depth
            );
            // The first decision alone: a search of one step with the same frontier.
            let first = LookaheadSearch {
                steps: 1,
                ..s.clone()
            };
            if row.depth == 1 && g == "0" {
                assert_eq!(row.first.value, search_brute(&first, 1, 0, true));
            }
        }
        // Best-of-n over B^L complete solutions, each correct with probability Q^L.
        let n = (b as u64).pow(l);
        let per = num_traits::pow(q(qq), l as usize);
        let tasks = Tasks::parse(&format!("{per}")).unwrap();
        let scale = one() + q(g) * BigRational::from_integer((l - 1).into());
        let shifted = |bonus: &BigRational| {
            s.noise
                .atoms()
                .iter()
                .map(|(z, p)| format!("{}:{}", bonus + &scale * z, p))
                .collect::<Vec<_>>()
                .join(",")
        };
        let correct = Law::parse("--x", &shifted(&one())).unwrap();
        let wrong = Law::parse("--x", &shifted(&BigRational::zero())).unwrap();
        let expected = best_of_n::<BigRational>(&tasks, &correct, &wrong, &[n]).unwrap();
        assert_eq!(
            r.best_of_n.as_ref().unwrap().value,
            expected.rows[0].correct.value
        );
    }
}

#[test]
fn f64_agrees_with_exact_within_its_bound() {
    let within = |exact: &BigRational, value: f64, bound: f64| {
        let x = pathology::numeric::number::rational_to_f64(exact);
        assert!(
            (x - value).abs() <= bound + x.abs() * 1e-16 + 1e-300,
            "{x} vs {value} +- {bound}"
        );
    };
    let tasks = Tasks::parse("0.87:0.58,0.13:0.42").unwrap();
    let ks = [1, 2, 5, 17, 100];
    let (c, s, v) = (q("0.9"), q("0.75"), q("-0.5"));
    let e = resample::<BigRational>(&tasks, &c, &s, &v, &ks).unwrap();
    let f = resample::<f64>(&tasks, &c, &s, &v, &ks).unwrap();
    for (a, b) in e.rows.iter().zip(&f.rows) {
        within(&a.correct.value, b.correct.value, b.correct.bound);
        within(&a.payoff.value, b.payoff.value, b.payoff.bound);
        within(&a.none.value, b.none.value, b.none.bound);
    }
    let correct = Law::parse("--score-correct", "gaussian:1").unwrap();
    let wrong = Law::parse("--score-wrong", "-1/2:1/4,0:1/4,1/2:1/4,3:1/4").unwrap();
    let e = best_of_n::<BigRational>(&tasks, &correct, &wrong, &ks).unwrap();
    let f = best_of_n::<f64>(&tasks, &correct, &wrong, &ks).unwrap();
    for (a, b) in e.rows.iter().zip(&f.rows) {
        within(&a.correct.value, b.correct.value, b.correct.bound);
        assert!(b.correct.bound < 1e-12, "{}", b.correct.bound);
    }
    let wrong3 = [q("1/2"), q("1/4"), q("1/4")];
    let e = vote::<BigRational>(&tasks, &wrong3, &ks).unwrap();
    let f = vote::<f64>(&tasks, &wrong3, &ks).unwrap();
    for (a, b) in e.rows.iter().zip(&f.rows) {
        within(&a.correct.value, b.correct.value, b.correct.bound);
    }
    let search = LookaheadSearch {
        branching: 3,
        steps: 5,
        step_correct: q("0.6"),
        noise: Law::parse("--noise", "-1:1/4,0:1/2,1:1/4").unwrap(),
        growth: q("0.25"),
    };
    let depths = [1, 2, 3, 4, 5];
    let e = lookahead::<BigRational>(&search, &depths).unwrap();
    let f = lookahead::<f64>(&search, &depths).unwrap();
    for (a, b) in e.rows.iter().zip(&f.rows) {
        within(&a.correct.value, b.correct.value, b.correct.bound);
        within(&a.first.value, b.first.value, b.first.bound);
        assert!(b.correct.bound < 1e-9, "{}", b.correct.bound);
    }
    let (a, b) = (e.best_of_n.unwrap(), f.best_of_n.unwrap());
    within(&a.value, b.value, b.bound);
}

/// A deep lookahead's subtree maxima have CDF values within a few units of roundoff of 1:
/// plain enclosures of their powers widened by a factor B per level (the bound was 1.7e-9 at
/// B = 4, L = 10 and 0.5 at B = 8, L = 20); the two-sided enclosures keep it near roundoff.
#[test]
fn deep_lookahead_bounds_stay_near_roundoff_and_hold() {
    let within = |exact: &BigRational, value: f64, bound: f64| {
        let x = pathology::numeric::number::rational_to_f64(exact);
        assert!((x - value).abs() <= bound, "{x} vs {value} +- {bound}");
    };
    let noise = Law::parse(
        "--noise",
        "-2:1/16,-3/2:1/16,-1:1/8,-1/2:1/8,0:1/4,1/2:1/8,1:1/8,3/2:1/16,2:1/16",
    )
    .unwrap();
    for growth in ["0", "1/2"] {
        let search = LookaheadSearch {
            branching: 4,
            steps: 7,
            step_correct: q("0.6"),
            noise: noise.clone(),
            growth: q(growth),
        };
        let depths: Vec<u32> = (1..=7).collect();
        let e = lookahead::<BigRational>(&search, &depths).unwrap();
        let f = lookahead::<f64>(&search, &depths).unwrap();
        for (a, b) in e.rows.iter().zip(&f.rows) {
            within(&a.correct.value, b.correct.value, b.correct.bound);
            within(&a.first.value, b.first.value, b.first.bound);
            assert!(b.correct.bound < 1e-12, "G = {growth}: {}", b.correct.bound);
            assert!(b.first.bound < 1e-12, "G = {growth}: {}", b.first.bound);
        }
        let (a, b) = (e.best_of_n.unwrap(), f.best_of_n.unwrap());
        within(&a.value, b.value, b.bound);
        assert!(b.bound < 1e-12, "G = {growth}: best-of-n {}", b.bound);
    }
    let search = LookaheadSearch {
        branching: 8,
        steps: 20,
        step_correct: q("0.6"),
        noise,
        growth: q("0"),
    };
    let depths: Vec<u32> = (1..=20).collect();
    let f = lookahead::<f64>(&search, &depths).unwrap();
    for row in &f.rows {
        assert!(
            row.correct.bound < 1e-10,
            "d = {}: {}",
            row.depth,
            row.correct.bound
        );
        assert!(
            row.first.bound < 1e-10,
            "d = {}: {}",
            row.depth,
            row.first.bound
        );
    }
    let baseline = f.best_of_n.unwrap();
    assert!(baseline.bound < 1e-10, "best-of-8^20: {}", baseline.bound);
}

#[test]
fn cli_prints_every_column_in_every_mode() {
    let csv = stdout_of(&[
        "inference",
        "resample",
        "--tasks",
        "0.87:0.58,0.13:0.42",
        "--completeness",
        "1",
        "--soundness",
        "0.75",
        "--k",
        "1..3",
        "--exact",
        "--format",
        "csv",
    ]);
    let header = csv.lines().next().unwrap();
    assert_eq!(
        header,
        "k,P_correct,P_correct_exact,P_false_positive,P_false_positive_exact,P_none,\
         P_none_exact,payoff,payoff_exact,samples,samples_exact,verifier_calls,\
         verifier_calls_exact,cost,cost_exact"
    );
    let types = stdout_of(&[
        "inference",
        "resample",
        "--tasks",
        "0.87:0.58,0.13:0.42",
        "--completeness",
        "1",
        "--soundness",
        "0.75",
        "--k",
        "1",
        "--exact",
        "--format",
        "csv",
        "--table",
        "types",
    ]);
    assert!(
        types.contains("39/400") && types.contains("87/400"),
        "{types}"
    ); // 0.0975, 0.2175
    let bon = stdout_of(&[
        "inference",
        "best-of-n",
        "--tasks",
        "0.5",
        "--score-correct",
        "1",
        "--score-wrong",
        "0:1/2,2:1/2",
        "--n",
        "1,2",
        "--exact",
        "--format",
        "csv",
    ]);
    // n = 2: two samples, two scores, cost 4 at the default prices.
    assert_eq!(bon.lines().nth(2).unwrap(), "2,0.5,1/2,0.5,1/2,2,2,4");
    let v = stdout_of(&[
        "inference",
        "vote",
        "--tasks",
        "0.6",
        "--k",
        "1..3",
        "--format",
        "csv",
    ]);
    assert!(v.starts_with("k,P_correct,P_correct_error_bound"), "{v}");
    let la = stdout_of(&[
        "inference",
        "lookahead",
        "--branching",
        "2",
        "--steps",
        "2",
        "--step-correct",
        "1/2",
        "--noise",
        "0",
        "--depth",
        "1..2",
        "--exact",
        "--format",
        "csv",
    ]);
    assert!(
        la.contains("d,P_correct,P_correct_exact,first_decision,first_decision_exact,steps,"),
        "{la}"
    );
    // Depth 1 with B = 2, L = 2: 4 steps and 4 calls (cost 8); best-of-2 at equal steps,
    // best-of-4 at equal calls; the last column best-of-B^L.
    assert!(la.contains("\n1,0.5625,9/16,0.75,3/4,4,4,8,2,"), "{la}");
    assert!(la.contains(",0.68359375,175/256\n"), "{la}");
    let pk = stdout_of(&[
        "inference",
        "pass-at-k",
        "--tasks",
        "0.5",
        "--k",
        "2",
        "--exact",
        "--format",
        "json",
    ]);
    assert!(pk.contains("\"P_correct\"") && pk.contains("3/4"), "{pk}");
}

#[test]
fn bad_input_is_refused_by_name_before_any_work() {
    let base = ["inference", "pass-at-k", "--k", "1..3", "--tasks"];
    fn with<'a>(base: &[&'a str], tail: &[&'a str]) -> Vec<&'a str> {
        let mut v: Vec<&str> = base.to_vec();
        v.extend_from_slice(tail);
        v
    }
    refused(
        &with(&base, &["0.5:0.5,0.2:0.4"]),
        &["--tasks", "summing to exactly 1"],
    );
    refused(&with(&base, &["1.5"]), &["--tasks", "[0, 1]"]);
    refused(&with(&base, &[""]), &["--tasks"]);
    refused(
        &["inference", "pass-at-k", "--tasks", "0.5", "--k", "0,1"],
        &["--k", "1..="],
    );
    refused(
        &[
            "inference",
            "resample",
            "--tasks",
            "0.5",
            "--completeness",
            "1.2",
            "--soundness",
            "0.5",
            "--k",
            "1",
        ],
        &["--completeness", "[0, 1]"],
    );
    refused(
        &[
            "inference",
            "resample",
            "--tasks",
            "0.5",
            "--completeness",
            "1",
            "--soundness",
            "-0.1",
            "--k",
            "1",
        ],
        &["--soundness", "[0, 1]"],
    );
    refused(
        &[
            "inference",
            "best-of-n",
            "--tasks",
            "0.5",
            "--score-correct",
            "",
            "--score-wrong",
            "0",
            "--n",
            "1",
        ],
        &["--score-correct"],
    );
    refused(
        &[
            "inference",
            "vote",
            "--tasks",
            "0.5",
            "--wrong-answers",
            "0.5,0.4",
            "--k",
            "1",
        ],
        &["--wrong-answers", "summing to exactly 1"],
    );
    let la = |b: &str, l: &str, d: &str| {
        vec![
            "inference".to_string(),
            "lookahead".into(),
            "--branching".into(),
            b.into(),
            "--steps".into(),
            l.into(),
            "--step-correct".into(),
            "0.5".into(),
            "--noise".into(),
            "0:1/2,1:1/2".into(),
            "--depth".into(),
            d.into(),
        ]
    };
    for (args, name) in [
        (la("1", "3", "1"), "--branching"),
        (la("2", "0", "1"), "--steps"),
        (la("2", "3", "4"), "--depth"),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, &[name]);
    }
    refused(
        &[
            "inference",
            "best-of-n",
            "--tasks",
            "0.5",
            "--score-correct",
            "gaussian:1",
            "--score-wrong",
            "0",
            "--n",
            "1000000000",
            "--exact",
        ],
        &["refused", "leave out --exact"],
    );
}

/// The manifest's command line reruns the run it describes: `--exact` is in it when the
/// values are exact (it was left out while the mode line said exact).
#[test]
fn the_exact_manifest_command_says_exact() {
    let out = stdout_of(&[
        "inference",
        "pass-at-k",
        "--tasks",
        "0.5:1",
        "--k",
        "1,2",
        "--exact",
    ]);
    let command = out
        .lines()
        .find(|l| l.starts_with("# command: "))
        .expect("a command line");
    assert_eq!(
        command,
        "# command: pathology inference pass-at-k --tasks 0.5:1 --k 1,2 --cost-sample 1 \
         --cost-verifier 1 --exact"
    );
    let out = stdout_of(&["inference", "pass-at-k", "--tasks", "0.5:1", "--k", "1,2"]);
    assert!(out.contains(
        "# command: pathology inference pass-at-k --tasks 0.5:1 --k 1,2 --cost-sample 1 \
         --cost-verifier 1\n"
    ));
}

/// Best-of-n's `G(s)^n` for n in the billions: the plain enclosure of `G(s)^n` near 1
/// widened with n (the bound was 1.7e-7 at n = 10^9 on these laws); the two-sided one holds
/// the complement to relative precision.
#[test]
fn best_of_n_bounds_stay_near_roundoff_at_a_billion_samples() {
    let total: i64 = (1..=100).sum();
    let law = |offset: i64, rising: bool| {
        let text: Vec<String> = (0..100i64)
            .map(|i| {
                let w = if rising { i + 1 } else { 100 - i };
                format!("{}/10:{w}/{total}", offset * 10 + i)
            })
            .collect();
        Law::parse("--score", &text.join(",")).unwrap()
    };
    let tasks = Tasks::parse("0.3:0.5,0.7:0.5").unwrap();
    let ns: Vec<u64> = (0..=9).map(|e| 10u64.pow(e)).collect();
    let f = best_of_n::<f64>(&tasks, &law(2, true), &law(0, false), &ns).unwrap();
    for row in &f.rows {
        assert!(
            row.correct.bound < 1e-12,
            "n = {:?}: {}",
            row.n,
            row.correct.bound
        );
    }
    let small = [1u64, 2, 7];
    let e = best_of_n::<BigRational>(&tasks, &law(2, true), &law(0, false), &small).unwrap();
    let f = best_of_n::<f64>(&tasks, &law(2, true), &law(0, false), &small).unwrap();
    for (a, b) in e.rows.iter().zip(&f.rows) {
        let x = pathology::numeric::number::rational_to_f64(&a.correct.value);
        assert!(
            (x - b.correct.value).abs() <= b.correct.bound,
            "{x} vs {:?}",
            b.correct
        );
    }
}
