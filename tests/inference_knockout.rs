//! `pathology inference knockout` (the bracket of 2^r candidates judged by K calls per
//! match, and the league beside it) and `mc inference knockout`: the exact values equal a
//! literal enumeration of every candidate and every judge call for small brackets, f64 agrees
//! with exact within its bound, the exact failure probability is at most Chen et al.'s bound
//! on every row where it applies, the simulated bracket agrees with the exact value, its
//! shards merge byte for byte, `validate` reads its rows, and bad input is refused naming the
//! option before any work.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use pathology::analytic::inference::{Tasks, judge_win, knockout, league, parse_judge_correct};
use pathology::numeric::number::parse_rational;

use crate::common::{
    ShardManifests, json_of, pathology, refused, rows_of, stdout_of, table_rows, write_shards,
};

fn q(s: &str) -> BigRational {
    parse_rational(s).unwrap()
}

/// The probability that the bracket's winner is correct, by enumerating every pattern of
/// correct candidates and every outcome of every judge call of every match, in rationals:
/// a mixed match goes to the correct candidate on a strict majority of its K calls and is
/// a fair coin at a tie; a match of one class sends the first on.
fn literal_bracket(r: u32, success: &BigRational, judge: &BigRational, k: u32) -> BigRational {
    let n = 1usize << r;
    let one = BigRational::one();
    let half = BigRational::new(1.into(), 2.into());
    // The probability that a given field of candidates produces a correct winner, by
    // recursion over the matches, each match's K calls enumerated one outcome at a time.
    fn play(field: &[bool], judge: &BigRational, k: u32, half: &BigRational) -> BigRational {
        if field.len() == 1 {
            return if field[0] {
                BigRational::one()
            } else {
                BigRational::zero()
            };
        }
        // Every outcome of the first round's matches, then the rest of the bracket.
        let pairs: Vec<(bool, bool)> = field.chunks(2).map(|p| (p[0], p[1])).collect();
        // The law of each match's winner class: (probability correct wins).
        let mut winners: Vec<Vec<(bool, BigRational)>> = Vec::new();
        for &(a, b) in &pairs {
            if a == b {
                winners.push(vec![(a, BigRational::one())]);
                continue;
            }
            let mut correct_wins = BigRational::zero();
            for calls in 0u32..(1 << k) {
                let right = calls.count_ones();
                let mut weight = BigRational::one();
                for i in 0..k {
                    weight *= if calls >> i & 1 == 1 {
                        judge.clone()
                    } else {
                        BigRational::one() - judge
                    };
                }
                if 2 * right > k {
                    correct_wins += weight;
                } else if 2 * right == k {
                    correct_wins += weight * half;
                }
            }
            let lose = BigRational::one() - &correct_wins;
            winners.push(vec![(true, correct_wins), (false, lose)]);
        }
        let mut total = BigRational::zero();
        let mut choice = vec![0usize; winners.len()];
        loop {
            let mut weight = BigRational::one();
            let mut next = Vec::new();
            for (i, options) in winners.iter().enumerate() {
                weight *= &options[choice[i]].1;
                next.push(options[choice[i]].0);
            }
            if !weight.is_zero() {
                total += weight * play(&next, judge, k, half);
            }
            let mut i = 0;
            while i < choice.len() {
                choice[i] += 1;
                if choice[i] < winners[i].len() {
                    break;
                }
                choice[i] = 0;
                i += 1;
            }
            if i == choice.len() {
                break;
            }
        }
        total
    }
    let mut total = BigRational::zero();
    for pattern in 0u32..(1 << n) {
        let field: Vec<bool> = (0..n).map(|i| pattern >> i & 1 == 1).collect();
        let mut weight = BigRational::one();
        for &c in &field {
            weight *= if c { success.clone() } else { &one - success };
        }
        total += weight * play(&field, judge, k, &half);
    }
    total
}

#[test]
fn the_recursion_equals_every_candidate_and_judge_call_enumerated() {
    for (success, judge) in [("0.3", "0.8"), ("2/3", "0.45"), ("0.5", "0.5")] {
        for r in 1..=2u32 {
            for k in 1..=4u32 {
                let tasks = Tasks::parse(success).unwrap();
                let exact =
                    knockout::<BigRational>(&tasks, &[q(judge)], &[u64::from(k)], &[u64::from(r)])
                        .unwrap();
                assert_eq!(
                    exact.rows[0].correct.value,
                    literal_bracket(r, &q(success), &q(judge), k),
                    "R = {success}, P = {judge}, r = {r}, K = {k}"
                );
            }
        }
    }
    // A mix with one judge accuracy per type: the W-weighted sum of the types' brackets.
    let tasks = Tasks::parse("0.3:1/4,0.9:3/4").unwrap();
    let judge = parse_judge_correct("0.8,0.4", 2).unwrap();
    let mixed = knockout::<BigRational>(&tasks, &judge, &[3], &[2]).unwrap();
    let expected = q("1/4") * literal_bracket(2, &q("0.3"), &q("0.8"), 3)
        + q("3/4") * literal_bracket(2, &q("0.9"), &q("0.4"), 3);
    assert_eq!(mixed.rows[0].correct.value, expected);
}

/// Chen et al.'s bound, `(1 - R)^N + r exp(-2 K (P - 1/2)^2)`, is at least the exact failure
/// probability on every row where P > 1/2, exact and f64, and the report's verdict says so.
#[test]
fn the_exact_failure_is_at_most_the_published_bound_on_every_row() {
    let ks: Vec<u64> = (1..=8).collect();
    for success in ["0.05", "0.3", "0.5", "0.9"] {
        for judge in ["0.51", "0.6", "0.75", "0.99", "1"] {
            let tasks = Tasks::parse(success).unwrap();
            let exact =
                knockout::<BigRational>(&tasks, &[q(judge)], &ks, &[1, 2, 3, 4, 6]).unwrap();
            let float =
                knockout::<f64>(&tasks, &[q(judge)], &ks, &(1..=20).collect::<Vec<_>>()).unwrap();
            for row in &exact.rows {
                let (lower, _) = row.bound.expect("P > 1/2");
                assert!(
                    row.failure.value <= BigRational::from_float(lower).unwrap(),
                    "R = {success}, P = {judge}, {row:?}"
                );
                assert_eq!(row.within_bound, Some(true), "{row:?}");
                // The bound recomputed here from its formula.
                let (r, k) = (row.rounds as i32, row.judge_calls_per_match as f64);
                let p: f64 = judge.parse().unwrap();
                let mine = (1.0 - success.parse::<f64>().unwrap()).powi(1 << r)
                    + f64::from(r) * (-2.0 * k * (p - 0.5) * (p - 0.5)).exp();
                assert!(
                    (mine - lower).abs() <= 1e-12 * mine.max(1e-300) + 1e-300,
                    "{mine} {lower}"
                );
            }
            for row in &float.rows {
                assert_eq!(row.within_bound, Some(true), "{row:?}");
            }
        }
    }
}

#[test]
fn f64_agrees_with_exact_within_its_bound() {
    let tasks = Tasks::parse("0.2:0.3,0.6:0.5,0.95:0.2").unwrap();
    let judge = parse_judge_correct("0.7,0.55,0.3", 3).unwrap();
    let ks = [1, 2, 5, 9];
    let rounds = [1, 3, 5, 7];
    let exact = knockout::<BigRational>(&tasks, &judge, &ks, &rounds).unwrap();
    let float = knockout::<f64>(&tasks, &judge, &ks, &rounds).unwrap();
    for (e, f) in exact.rows.iter().zip(&float.rows) {
        for (x, y) in [(&e.correct, &f.correct), (&e.failure, &f.failure)] {
            let gap = (BigRational::from_float(y.value).unwrap() - &x.value).abs();
            assert!(
                gap <= BigRational::from_float(y.bound).unwrap(),
                "{gap} > {} at {e:?}",
                y.bound
            );
        }
        assert_eq!(e.against_one_sample, f.against_one_sample);
    }
    assert_eq!(exact.best, float.best);
}

/// With one judge accuracy per type on both sides of 1/2 the mix rises, then falls below one
/// sample: the report's best r and first r below one sample are those of the exact values.
#[test]
fn a_mix_of_judges_rises_then_falls_and_the_summary_says_where() {
    let tasks = Tasks::parse("0.5:0.5,0.9:0.5").unwrap();
    let judge = parse_judge_correct("0.9,0.35", 2).unwrap();
    let rounds: Vec<u64> = (1..=10).collect();
    let k = knockout::<BigRational>(&tasks, &judge, &[3], &rounds).unwrap();
    let values: Vec<BigRational> = k.rows.iter().map(|r| r.correct.value.clone()).collect();
    let best = (0..values.len())
        .max_by(|&a, &b| values[a].cmp(&values[b]).then(b.cmp(&a)))
        .unwrap();
    assert_eq!(k.best[0].best_rounds, rounds[best]);
    let below = values
        .iter()
        .position(|v| *v < k.one_sample)
        .map(|i| rounds[i]);
    assert_eq!(k.best[0].first_below, below);
    let floats: Vec<f64> = values
        .iter()
        .map(pathology::numeric::number::rational_to_f64)
        .collect();
    assert!(best > 0 && below.is_some(), "rises then falls: {floats:?}");
    // The docs' numbers: K = 3 is best at r = 3 and first below one sample (0.7) at r = 7.
    assert_eq!((k.best[0].best_rounds, k.best[0].first_below), (3, Some(7)));
    assert_eq!(k.direction, None);
}

/// The league of N = 2 is the bracket of one round; with a coin-flip judge every candidate
/// is exchangeable and the league is correct with one sample's probability.
#[test]
fn the_league_s_edge_cases() {
    let tasks = Tasks::parse("0.35:0.5,0.7:0.5").unwrap();
    let judge = parse_judge_correct("0.8", 2).unwrap();
    let l = league::<BigRational>(&tasks, &judge, &[3], &[2]).unwrap();
    let k = knockout::<BigRational>(&tasks, &judge, &[3], &[1]).unwrap();
    assert_eq!(l[0].correct.value, k.rows[0].correct.value);
    assert_eq!(l[0].judge_calls, 3);
    let fair = parse_judge_correct("1/2", 2).unwrap();
    for n in 2..=6 {
        let l = league::<BigRational>(&tasks, &fair, &[1], &[n]).unwrap();
        assert_eq!(l[0].correct.value, q("0.35") / BigInt::from(2) + q("0.35"));
        assert_eq!(l[0].judge_calls, n * (n - 1) / 2);
    }
    // An even K's w is K - 1's.
    assert_eq!(judge_win(&q("0.8"), 4), judge_win(&q("0.8"), 3));
}

#[test]
fn the_command_prints_the_columns_the_docs_name() {
    let report = json_of(&[
        "inference",
        "knockout",
        "--tasks",
        "0.6",
        "--judge-correct",
        "0.7",
        "--judge-calls",
        "1,2",
        "--rounds",
        "1..3",
        "--league",
        "3",
        "--cost-sample",
        "1",
        "--cost-verifier",
        "1/10",
        "--exact",
        "--format",
        "json",
    ]);
    let rows = table_rows(&report, "knockout");
    assert_eq!(rows.len(), 6);
    // K = 2, r = 3: N = 8 candidates, 2 x 7 judge calls, cost 8 + 14/10.
    let row = &rows[5];
    assert_eq!(row["candidates"], 8);
    assert_eq!(row["judge_calls"], 14);
    assert_eq!(row["cost_exact"], "47/5");
    assert_eq!(row["within_bound"], "yes");
    assert_eq!(row["vs_one_sample"], "above");
    // K = 2 gives K = 1's values (a tie is a coin).
    assert_eq!(rows[2]["P_correct_exact"], rows[5]["P_correct_exact"]);
    let league = table_rows(&report, "league");
    assert_eq!(league[0]["judge_calls"], 3);
    let best = table_rows(&report, "best");
    assert_eq!(best[0]["best_r"], 3);
    assert_eq!(best[0]["first_below"], "none on the list");
}

#[test]
fn bad_input_is_refused_naming_the_option() {
    let base = ["inference", "knockout", "--tasks", "0.6"];
    let with = |more: &[&'static str]| [&base[..], more].concat();
    refused(
        &with(&[
            "--judge-correct",
            "0.7",
            "--judge-calls",
            "0",
            "--rounds",
            "1..3",
        ]),
        &["--judge-calls", "1..=10000"],
    );
    refused(
        &with(&[
            "--judge-correct",
            "1.5",
            "--judge-calls",
            "3",
            "--rounds",
            "1..3",
        ]),
        &["--judge-correct", "[0, 1]"],
    );
    refused(
        &with(&[
            "--judge-correct",
            "0.7,0.2",
            "--judge-calls",
            "3",
            "--rounds",
            "1..3",
        ]),
        &["--judge-correct", "one per task type"],
    );
    refused(
        &with(&[
            "--judge-correct",
            "0.7",
            "--judge-calls",
            "3",
            "--rounds",
            "1..9:0",
        ]),
        &["--rounds", "step S at least 1"],
    );
    refused(
        &with(&[
            "--judge-correct",
            "0.7",
            "--judge-calls",
            "3",
            "--rounds",
            "41",
        ]),
        &["--rounds", "1..=40"],
    );
    refused(
        &with(&[
            "--judge-correct",
            "0.7",
            "--judge-calls",
            "3",
            "--rounds",
            "2",
            "--league",
            "13",
        ]),
        &["--league 13", "refused", "at most 10"],
    );
    refused(
        &with(&[
            "--judge-correct",
            "0.7",
            "--judge-calls",
            "3",
            "--rounds",
            "2",
            "--cost-sample",
            "-1",
        ]),
        &["--cost-sample", "at least 0"],
    );
    refused(
        &[
            "inference",
            "knockout",
            "--tasks",
            "0.6:1,0.3:0",
            "--judge-correct",
            "0.7",
            "--judge-calls",
            "3",
            "--rounds",
            "2",
        ],
        &["--tasks", "above 0"],
    );
    refused(
        &[
            "inference",
            "knockout",
            "--tasks",
            "0.6:-1,0.3:2",
            "--judge-correct",
            "0.7",
            "--judge-calls",
            "3",
            "--rounds",
            "2",
        ],
        &["--tasks"],
    );
    // Exact rationals past the limits: refused up front with the estimate.
    refused(
        &with(&[
            "--judge-correct",
            "0.7",
            "--judge-calls",
            "10000",
            "--rounds",
            "30",
            "--exact",
        ]),
        &["exact rationals", "Ask for fewer or smaller values"],
    );
}

const MC: [&str; 13] = [
    "mc",
    "inference",
    "knockout",
    "--tasks",
    "0.4:0.5,0.8:0.5",
    "--judge-correct",
    "0.7,0.45",
    "--judge-calls",
    "3",
    "--rounds",
    "1..4",
    "--seed",
    "5",
];

#[test]
fn the_simulated_bracket_agrees_with_the_exact_values_for_any_thread_count() {
    let run = |threads: &str, format: &str| {
        stdout_of(
            &[
                &MC[..],
                &["--trials", "6000", "--threads", threads, "--format", format],
            ]
            .concat(),
        )
    };
    let report: serde_json::Value = serde_json::from_str(&run("1", "json")).unwrap();
    let exact = json_of(&[
        "inference",
        "knockout",
        "--tasks",
        "0.4:0.5,0.8:0.5",
        "--judge-correct",
        "0.7,0.45",
        "--judge-calls",
        "3",
        "--rounds",
        "1..4",
        "--format",
        "json",
    ]);
    let exact_rows = table_rows(&exact, "knockout");
    let rows = rows_of(&report);
    assert_eq!(rows.len(), 4);
    for (row, e) in rows.iter().zip(&exact_rows) {
        assert_eq!(row["kind"], "knockout");
        assert_eq!(row["r"], e["r"]);
        assert_eq!(
            row["exact"].as_f64().unwrap(),
            e["P_correct"].as_f64().unwrap()
        );
        assert_eq!(row["verdict"], "no difference detected", "{row}");
    }
    let strip = |s: String| {
        s.lines()
            .filter(|l| !l.starts_with("# command"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(run("1", "csv")), strip(run("2", "csv")));
    // validate reads the rows as they are.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("knockout.csv");
    std::fs::write(&file, run("2", "csv")).unwrap();
    let out = pathology()
        .args(["validate", file.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("4 rows checked, 0 malformed"), "{text}");
}

#[test]
fn shards_merge_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let base = [&MC[..], &["--trials", "901"]].concat();
    let paths = write_shards(
        &base,
        &[],
        dir.path(),
        "knockout",
        ShardManifests::InlineAndSidecar,
    );
    for format in ["text", "json", "csv"] {
        assert_eq!(
            stdout_of(&["merge", &paths[2], &paths[0], &paths[1], "--format", format]),
            stdout_of(&[&base[..], &["--format", format]].concat()),
            "{format}"
        );
    }
    refused(
        &[
            &MC[..6],
            &[
                "0.7",
                "--judge-calls",
                "1,3",
                "--rounds",
                "2",
                "--trials",
                "10",
            ],
        ]
        .concat(),
        &["--judge-calls", "one value K"],
    );
}
