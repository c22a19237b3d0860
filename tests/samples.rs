//! `pathology samples`: every closed form equals a literal average over every k-subset of
//! every problem's samples, in rationals (score ties, tied votes, abstentions, several
//! correct answers); f64 agrees with exact within its printed bound; the compare band is
//! seeded and reproducible; every malformed input is refused with exit 2 and its place.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use num_rational::BigRational;
use num_traits::Zero;
use serde_json::Value;

use crate::common::{json_of, pathology, refused, stdout_of, table_rows};

const VOTES: &str = "tests/data/samples/votes.csv";
const VOTES_JSONL: &str = "tests/data/samples/votes.jsonl";
const COUNTS: &str = "tests/data/samples/counts.csv";
const TUNED: &str = "tests/data/samples/votes_tuned.csv";

/// One sample: answer (None: no answer), correct, score.
type Sample = (Option<String>, bool, f64);

/// The per-sample rows of a CSV `problem,correct,answer,score` (no quoting), by problem.
fn parse(text: &str) -> BTreeMap<String, Vec<Sample>> {
    let mut out: BTreeMap<String, Vec<Sample>> = BTreeMap::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let answer = (!f[2].is_empty()).then(|| f[2].to_string());
        out.entry(f[0].to_string())
            .or_default()
            .push((answer, f[1] == "1", f[3].parse().unwrap()));
    }
    out
}

fn ratio(a: usize, b: usize) -> BigRational {
    BigRational::new(a.into(), b.into())
}

/// The four metrics of one drawn subset, literally: (pass, all, majority, best).
fn subset_metrics(drawn: &[&Sample], ties_wrong: bool) -> [BigRational; 4] {
    let pass = ratio(usize::from(drawn.iter().any(|s| s.1)), 1);
    let all = ratio(usize::from(drawn.iter().all(|s| s.1)), 1);
    let mut votes: BTreeMap<&str, (usize, bool)> = BTreeMap::new();
    for s in drawn {
        if let Some(a) = &s.0 {
            let e = votes.entry(a.as_str()).or_insert((0, s.1));
            e.0 += 1;
        }
    }
    let top = votes.values().map(|v| v.0).max().unwrap_or(0);
    let tied: Vec<bool> = votes.values().filter(|v| v.0 == top).map(|v| v.1).collect();
    let majority = if top == 0 || (ties_wrong && tied.len() > 1) {
        BigRational::zero()
    } else {
        ratio(tied.iter().filter(|c| **c).count(), tied.len())
    };
    let best_score = drawn.iter().map(|s| s.2).fold(f64::NEG_INFINITY, f64::max);
    let best: Vec<bool> = drawn
        .iter()
        .filter(|s| s.2 == best_score)
        .map(|s| s.1)
        .collect();
    let best = ratio(best.iter().filter(|c| **c).count(), best.len());
    [pass, all, majority, best]
}

/// The mean over problems of the average over every k-subset, per metric.
fn brute_force(
    problems: &BTreeMap<String, Vec<Sample>>,
    k: usize,
    ties_wrong: bool,
) -> [BigRational; 4] {
    let mut total: [BigRational; 4] = std::array::from_fn(|_| BigRational::zero());
    for samples in problems.values() {
        let n = samples.len();
        let mut sum: [BigRational; 4] = std::array::from_fn(|_| BigRational::zero());
        let mut subsets = 0usize;
        for mask in 0u32..(1 << n) {
            if mask.count_ones() as usize != k {
                continue;
            }
            subsets += 1;
            let drawn: Vec<&Sample> = (0..n)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| &samples[i])
                .collect();
            for (s, v) in sum.iter_mut().zip(subset_metrics(&drawn, ties_wrong)) {
                *s += v;
            }
        }
        for (t, s) in total.iter_mut().zip(sum) {
            *t += s / ratio(subsets, 1);
        }
    }
    total.map(|t| t / ratio(problems.len(), 1))
}

/// `value_exact` of the `curves` row of `metric` at `k`.
fn exact_value(report: &Value, metric: &str, k: usize) -> BigRational {
    let row = table_rows(report, "curves")
        .into_iter()
        .find(|r| r["metric"] == metric && r["k"] == k)
        .unwrap_or_else(|| panic!("no row {metric} k={k}"));
    row["value_exact"].as_str().unwrap().parse().unwrap()
}

/// A small seeded generator (a linear congruential one) for the random instances.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn closed_forms_equal_the_average_over_every_subset_on_the_example() {
    let problems = parse(&std::fs::read_to_string(VOTES).unwrap());
    for ties in ["uniform", "wrong"] {
        let report = json_of(&[
            "samples", "curves", VOTES, "--k", "1..8", "--exact", "--ties", ties, "--format",
            "json",
        ]);
        for k in 1..=8 {
            let want = brute_force(&problems, k, ties == "wrong");
            for (m, name) in ["pass_at_k", "pass_all", "majority", "best_of_k"]
                .iter()
                .enumerate()
            {
                assert_eq!(
                    exact_value(&report, name, k),
                    want[m],
                    "{name} k={k} ties {ties}"
                );
            }
        }
    }
}

#[test]
fn closed_forms_equal_the_average_over_every_subset_on_random_instances() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Lcg(2026);
    for instance in 0..6 {
        let mut text = String::from("problem,correct,answer,score\n");
        for p in 0..4 {
            let n = 3 + rng.below(7); // 3..=9 samples
            let answers = 1 + rng.below(4);
            // Each answer correct or not, fixed per problem (two may be correct).
            let correct: Vec<bool> = (0..answers).map(|_| rng.below(3) == 0).collect();
            for _ in 0..n {
                let a = rng.below(answers + 1); // answers = no answer
                let (answer, ok) = if a == answers {
                    (String::new(), false)
                } else {
                    (format!("a{a}"), correct[a as usize])
                };
                let score = rng.below(3) as f64 / 2.0; // three levels: many ties
                text.push_str(&format!("q{p},{},{answer},{score}\n", u8::from(ok)));
            }
        }
        let path = write(dir.path(), &format!("r{instance}.csv"), &text);
        let problems = parse(&text);
        let k_max = problems.values().map(Vec::len).min().unwrap();
        let path = path.to_str().unwrap();
        let ks = format!("1..{k_max}");
        let report = json_of(&[
            "samples", "curves", path, "--k", &ks, "--exact", "--format", "json",
        ]);
        let f64_report = json_of(&["samples", "curves", path, "--k", &ks, "--format", "json"]);
        for k in 1..=k_max {
            let want = brute_force(&problems, k, false);
            for (m, name) in ["pass_at_k", "pass_all", "majority", "best_of_k"]
                .iter()
                .enumerate()
            {
                assert_eq!(
                    exact_value(&report, name, k),
                    want[m],
                    "{text}\n{name} k={k}"
                );
                let row = table_rows(&f64_report, "curves")
                    .into_iter()
                    .find(|r| r["metric"] == *name && r["k"] == k)
                    .unwrap();
                let (value, bound) = (
                    row["value"].as_f64().unwrap(),
                    row["value_error_bound"].as_f64().unwrap(),
                );
                let exact: f64 = num_traits::ToPrimitive::to_f64(&want[m]).unwrap();
                assert!(
                    (value - exact).abs() <= bound,
                    "{name} k={k}: {value} +- {bound} vs {exact}"
                );
            }
        }
    }
}

#[test]
fn counts_jsonl_and_csv_give_the_same_curves() {
    let from_samples = json_of(&[
        "samples", "curves", VOTES, "--k", "1..8", "--exact", "--format", "json",
    ]);
    let from_counts = json_of(&[
        "samples", "curves", COUNTS, "--k", "1..8", "--exact", "--format", "json",
    ]);
    let from_jsonl = json_of(&[
        "samples",
        "curves",
        VOTES_JSONL,
        "--k",
        "1..8",
        "--exact",
        "--format",
        "json",
    ]);
    for k in 1..=8 {
        for name in ["pass_at_k", "pass_all"] {
            assert_eq!(
                exact_value(&from_samples, name, k),
                exact_value(&from_counts, name, k)
            );
        }
    }
    assert_eq!(
        table_rows(&from_samples, "curves"),
        table_rows(&from_jsonl, "curves")
    );
    // Counts define no majority and no best-of-k.
    assert!(
        table_rows(&from_counts, "curves")
            .iter()
            .all(|r| r["metric"] != "majority")
    );
}

#[test]
fn the_best_k_falls_and_claims_tables_agree_with_the_curves() {
    let report = json_of(&[
        "samples", "curves", VOTES, "--k", "1..8", "--exact", "--format", "json",
    ]);
    for best in table_rows(&report, "best") {
        let metric = best["metric"].as_str().unwrap();
        let values: Vec<BigRational> = (1..=8).map(|k| exact_value(&report, metric, k)).collect();
        let top = values.iter().max().unwrap();
        let first = values.iter().position(|v| v == top).unwrap() + 1;
        assert_eq!(best["best_k"], first, "{metric}");
    }
    for fall in table_rows(&report, "falls") {
        let metric = fall["metric"].as_str().unwrap();
        let (k1, k2) = (
            fall["k1"].as_u64().unwrap() as usize,
            fall["k2"].as_u64().unwrap() as usize,
        );
        assert!(exact_value(&report, metric, k2) < exact_value(&report, metric, k1));
    }
    let claims = table_rows(&report, "claims");
    assert!(!claims.is_empty(), "majority falls on the example data");
    for claim in claims {
        assert!(
            ["holds", "fails", "undecided"].contains(&claim["verdict"].as_str().unwrap()),
            "{claim}"
        );
        assert_eq!(claim["family"], "curves fall with k");
        let text = claim["claim"].as_str().unwrap();
        let (metric, rest) = text.split_once("@k falls from k = ").unwrap();
        let (k1, k2) = rest.split_once(" to k = ").unwrap();
        let (k1, k2): (usize, usize) = (k1.parse().unwrap(), k2.parse().unwrap());
        let exact = exact_value(&report, metric, k2) - exact_value(&report, metric, k1);
        let exact: f64 = num_traits::ToPrimitive::to_f64(&exact).unwrap();
        // The effect is the mean of the paired per-problem differences: the exact difference.
        assert!(
            (claim["effect"].as_f64().unwrap() - exact).abs() < 1e-12,
            "{claim}"
        );
        assert!(claim["p_holm"].as_f64().unwrap() >= claim["p"].as_f64().unwrap());
    }
}

#[test]
fn every_format_and_the_manifest_come_with_the_report() {
    let text = stdout_of(&["samples", "curves", VOTES, "--k", "1,2,4"]);
    assert!(
        text.contains("pathology samples curves tests/data/samples/votes.csv --k 1,2,4"),
        "{text}"
    );
    assert!(text.contains("rigorous rounding bound"), "{text}");
    let csv = stdout_of(&[
        "samples", "curves", VOTES, "--k", "1,2,4", "--format", "csv", "--table", "best",
    ]);
    assert!(csv.starts_with("metric,best_k,"), "{csv}");
}

#[test]
fn compare_is_paired_seeded_and_reproducible() {
    let args = [
        "samples", "compare", VOTES, TUNED, "--k", "1..8", "--exact", "--format", "json", "--seed",
        "5",
    ];
    let first = stdout_of(&args);
    assert_eq!(first, stdout_of(&args), "same seed, same bytes");
    let report: Value = serde_json::from_str(&first).unwrap();
    let a = json_of(&[
        "samples", "curves", VOTES, "--k", "1..8", "--exact", "--format", "json",
    ]);
    let b = json_of(&[
        "samples", "curves", TUNED, "--k", "1..8", "--exact", "--format", "json",
    ]);
    for row in table_rows(&report, "differences") {
        let metric = row["metric"].as_str().unwrap();
        let k = row["k"].as_u64().unwrap() as usize;
        let d: BigRational = row["difference_exact"].as_str().unwrap().parse().unwrap();
        assert_eq!(d, exact_value(&b, metric, k) - exact_value(&a, metric, k));
        let (lo, hi) = (
            row["band95_lower"].as_f64().unwrap(),
            row["band95_upper"].as_f64().unwrap(),
        );
        let (plo, phi) = (
            row["interval95_lower"].as_f64().unwrap(),
            row["interval95_upper"].as_f64().unwrap(),
        );
        assert!(
            lo <= plo && phi <= hi,
            "the band contains the pointwise interval"
        );
        let verdict = row["verdict"].as_str().unwrap();
        assert_eq!(verdict == "B better", lo > 0.0);
        assert_eq!(verdict == "B worse", hi < 0.0);
    }
    for row in table_rows(&report, "summary") {
        let c = row["critical_value"].as_f64().unwrap();
        assert!((1.9..4.0).contains(&c), "{c}");
    }
    assert_eq!(report["manifest"]["seed"], "5");
}

#[test]
fn compare_refuses_unmatched_ids_or_keeps_the_common_ones() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(TUNED).unwrap();
    let fewer: String = text
        .lines()
        .filter(|l| !l.starts_with("geo-5"))
        .map(|l| format!("{l}\n"))
        .collect();
    let path = write(dir.path(), "fewer.csv", &fewer);
    let path = path.to_str().unwrap();
    refused(
        &["samples", "compare", VOTES, path, "--k", "1..4"],
        &["1 only in", "\"geo-5\"", "--common"],
    );
    let report = json_of(&[
        "samples", "compare", VOTES, path, "--k", "1..4", "--common", "--format", "json",
    ]);
    let notes = report["notes"].to_string();
    assert!(notes.contains("4 problems in both files"), "{notes}");
    assert!(notes.contains("1 only in"), "{notes}");
}

#[test]
fn short_problems_are_refused_or_dropped_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "c.csv", "problem,c,n\na,1,4\nb,2,2\n");
    let path = path.to_str().unwrap();
    refused(
        &["samples", "curves", path, "--k", "3"],
        &["--k", "\"b\" (n = 2)"],
    );
    let report = json_of(&[
        "samples",
        "curves",
        path,
        "--k",
        "3",
        "--drop-short",
        "--format",
        "json",
    ]);
    assert!(report["notes"].to_string().contains("1 problem dropped"));
    assert_eq!(table_rows(&report, "curves")[0]["problems"], 1);
}

#[test]
fn malformed_input_is_refused_naming_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &[&str])] = &[
        ("empty.csv", "", &["empty file"]),
        ("header.csv", "problem,correct\n", &["no rows"]),
        (
            "bad.csv",
            "problem,correct\na,1\na,yes\n",
            &["line 3, column correct"],
        ),
        (
            "contradiction.csv",
            "problem,correct,answer\na,1,7\nb,0,7\na,0,7\n",
            &["line 4, column correct", "line 2"],
        ),
        (
            "nan.csv",
            "problem,correct,score\na,1,0.5\na,0,NaN\n",
            &["line 3, column score"],
        ),
        (
            "inf.csv",
            "problem,correct,score\na,1,inf\n",
            &["line 2, column score"],
        ),
        (
            "over.csv",
            "problem,c,n\na,5,4\n",
            &["line 2, column c", "at most n = 4"],
        ),
        (
            "dup.csv",
            "problem,c,n\na,1,4\nb,1,4\na,2,4\n",
            &["line 4", "already on line 2"],
        ),
        (
            "negative.csv",
            "problem,c,n\na,-1,4\n",
            &["line 2, column c"],
        ),
        (
            "fraction.csv",
            "problem,c,n\na,1,4.5\n",
            &["line 2, column n"],
        ),
        (
            "none.csv",
            "problem,c,n\na,0,0\n",
            &["line 2, column n", "no samples"],
        ),
        ("missing.csv", "problem,answer\na,1\n", &["column correct"]),
        ("noid.csv", "task,correct\na,1\n", &["column problem"]),
        ("short.csv", "problem,correct\na,1\nb\n", &["line 3"]),
        (
            "bad.jsonl",
            "{\"problem\": \"a\", \"correct\": 1}\n{\"problem\": \"a\", \"correct\": \n",
            &["line 2"],
        ),
        (
            "nocol.jsonl",
            "{\"problem\": \"a\", \"correct\": 1}\n{\"problem\": \"b\"}\n",
            &["line 2, column correct"],
        ),
    ];
    for (name, text, mentions) in cases {
        let path = write(dir.path(), name, text);
        let mut all = mentions.to_vec();
        all.push(name);
        refused(
            &["samples", "curves", path.to_str().unwrap(), "--k", "1"],
            &all,
        );
    }
    refused(&["samples", "curves", VOTES, "--k", "0"], &["--k"]);
    refused(
        &["samples", "curves", VOTES, "--k", "9"],
        &["--k", "k = 9 above n"],
    );
    refused(
        &[
            "samples",
            "curves",
            "tests/data/samples/nothing.txt",
            "--k",
            "1",
        ],
        &["--input-format"],
    );
}

#[test]
fn crlf_and_a_byte_order_mark_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let plain = std::fs::read_to_string(VOTES).unwrap();
    let windows = format!("\u{feff}{}", plain.replace('\n', "\r\n"));
    let path = write(dir.path(), "windows.csv", &windows);
    let a = json_of(&[
        "samples", "curves", VOTES, "--k", "1..8", "--exact", "--format", "json",
    ]);
    let b = json_of(&[
        "samples",
        "curves",
        path.to_str().unwrap(),
        "--k",
        "1..8",
        "--exact",
        "--format",
        "json",
    ]);
    assert_eq!(table_rows(&a, "curves"), table_rows(&b, "curves"));
}

#[test]
fn other_column_names_are_mapped() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "m.csv",
        "task_id,solved,attempts\na,1,4\nb,0,4\n",
    );
    let report = json_of(&[
        "samples",
        "curves",
        path.to_str().unwrap(),
        "--k",
        "2",
        "--exact",
        "--problem-column",
        "task_id",
        "--c-column",
        "solved",
        "--n-column",
        "attempts",
        "--format",
        "json",
    ]);
    assert_eq!(exact_value(&report, "pass_at_k", 2), ratio(1, 4)); // (1 - 3/6 + 0) / 2
    pathology()
        .args(["samples", "--help"])
        .assert()
        .success()
        .stdout(predicates::str::contains("compare"));
}

#[test]
fn fit_and_beyond_read_per_sample_rows_as_their_counts() {
    for command in [
        vec!["samples", "fit", "--k", "1,2,4,8,16", "--format", "json"],
        vec![
            "samples",
            "beyond",
            "--k",
            "4,16,64",
            "--moments",
            "3",
            "--exact",
            "--format",
            "json",
        ],
    ] {
        let with = |file: &str| {
            let mut args = command.clone();
            args.insert(2, file);
            json_of(&args)
        };
        let (counts, votes) = (with(COUNTS), with(VOTES));
        assert_eq!(counts["tables"], votes["tables"], "{command:?}");
        assert_eq!(counts["manifest"]["parameters"]["argument"], COUNTS);
    }
    refused(
        &["samples", "beyond", COUNTS, "--k", "16", "--moments", "9"],
        &["--moments"],
    );
}
