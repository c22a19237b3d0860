//! Voting at the budgets papers report, and the inputs every inference strategy shares:
//! many wrong answers by the plurality recurrence (f64 within its bound of exact, both equal
//! to the sum over every vote sequence on small k), lists with steps and doublings,
//! `normal:MU,S` laws, `--weights`, `--k` for best-of-n, and the first budget where more
//! samples fall below one sample's accuracy.

use num_rational::BigRational;
use num_traits::Zero;
use pathology::analytic::inference::{Tasks, parse_list, vote};
use pathology::numeric::number::parse_rational;

use super::common::{json_of, refused, stdout_of};

fn q(s: &str) -> BigRational {
    parse_rational(s).unwrap()
}

/// Every sequence of k labels (0 the correct answer) with its probability.
fn plurality_by_sequences(success: &BigRational, wrong: &[BigRational], k: usize) -> BigRational {
    let mut p = vec![success.clone()];
    p.extend(
        wrong
            .iter()
            .map(|u| (BigRational::from_integer(1.into()) - success) * u),
    );
    let labels = p.len();
    let mut total = BigRational::zero();
    let mut counts = vec![0usize; labels];
    fn walk(
        p: &[BigRational],
        k: usize,
        weight: BigRational,
        counts: &mut Vec<usize>,
        total: &mut BigRational,
    ) {
        if k == 0 {
            let top = *counts.iter().max().unwrap();
            if counts[0] == top {
                let tied = counts.iter().filter(|&&c| c == top).count();
                *total += weight / BigRational::from_integer(tied.into());
            }
            return;
        }
        for (label, pl) in p.iter().enumerate() {
            counts[label] += 1;
            walk(p, k - 1, &weight * pl, counts, total);
            counts[label] -= 1;
        }
    }
    walk(
        &p,
        k,
        BigRational::from_integer(1.into()),
        &mut counts,
        &mut total,
    );
    total
}

/// Four and five wrong answers (equal, unequal, a zero share): exact equals the sum over
/// every vote sequence, and f64 lies within its stated bound of exact.
#[test]
fn many_wrong_answers_are_every_vote_sequence() {
    let tasks = Tasks::parse("0.35:0.5,0.2:0.5").unwrap();
    for wrong in [
        vec![q("1/4"), q("1/4"), q("1/4"), q("1/4")],
        vec![q("0.4"), q("0.3"), q("0.2"), q("0.1")],
        vec![q("1/5"), q("0"), q("2/5"), q("1/5"), q("1/5")],
    ] {
        let ks = [1, 2, 3, 4, 5, 6];
        let exact = vote::<BigRational>(&tasks, &wrong, &ks).unwrap();
        let float = vote::<f64>(&tasks, &wrong, &ks).unwrap();
        for ((e, f), &k) in exact.rows.iter().zip(&float.rows).zip(&ks) {
            let want: BigRational = tasks
                .types()
                .iter()
                .map(|t| &t.share * plurality_by_sequences(&t.success, &wrong, k as usize))
                .sum();
            assert_eq!(e.correct.value, want, "{wrong:?} k = {k}");
            let gap = (pathology::numeric::number::rational_to_f64(&want) - f.correct.value).abs();
            assert!(
                gap <= f.correct.bound,
                "{wrong:?} k = {k}: {gap} > {}",
                f.correct.bound
            );
            assert!(f.correct.bound < 1e-13, "{}", f.correct.bound);
        }
    }
}

/// Ten wrong answers at k up to 256: f64 within its bound of exact on a doubling list, the
/// bound small, and the answer at a large k falls as the theory of plurality says (R below
/// the largest wrong share's mass loses with more votes).
#[test]
fn ten_wrong_answers_agree_between_the_modes() {
    let tasks = Tasks::parse("0.15").unwrap();
    let ten: Vec<BigRational> = (0..10).map(|_| q("0.1")).collect();
    let ks = parse_list("--k", "1..256:x2", 1 << 20).unwrap();
    let exact = vote::<BigRational>(&tasks, &ten, &ks).unwrap();
    let float = vote::<f64>(&tasks, &ten, &ks).unwrap();
    for (e, f) in exact.rows.iter().zip(&float.rows) {
        let gap =
            (pathology::numeric::number::rational_to_f64(&e.correct.value) - f.correct.value).abs();
        assert!(
            gap <= f.correct.bound,
            "k = {}: {gap} > {}",
            e.k,
            f.correct.bound
        );
        assert!(f.correct.bound < 1e-11, "{}", f.correct.bound);
    }
    // The correct answer (0.15) beats each wrong one (0.085): votes help.
    assert!(float.rows[8].correct.value > 0.9, "{:?}", float.rows[8]);
    assert_eq!(exact.best, 256);
}

#[test]
fn lists_take_steps_and_doublings() {
    let doubling = stdout_of(&[
        "inference",
        "vote",
        "--tasks",
        "0.6",
        "--k",
        "1..1024:x2",
        "--format",
        "csv",
    ]);
    let ks: Vec<&str> = doubling
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(
        ks,
        [
            "1", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1024"
        ]
    );
    let stepped = json_of(&[
        "inference",
        "pass-at-k",
        "--tasks",
        "0.5",
        "--k",
        "1..9:4",
        "--format",
        "json",
    ]);
    let rows = stepped["tables"][0]["rows"].as_array().unwrap();
    let ks: Vec<u64> = rows.iter().map(|r| r["k"].as_u64().unwrap()).collect();
    assert_eq!(ks, [1, 5, 9]);
    refused(
        &["inference", "vote", "--tasks", "0.6", "--k", "1..64:0"],
        &["--k", "step S of at least 1"],
    );
    refused(
        &[
            "inference",
            "best-of-n",
            "--tasks",
            "0.6",
            "--score-correct",
            "1",
            "--score-wrong",
            "0",
            "--n",
            "1..64:x1",
        ],
        &["--n", "factor F of at least 2"],
    );
}

#[test]
fn normal_laws_and_k_serve_best_of_n() {
    let by_n = stdout_of(&[
        "inference",
        "best-of-n",
        "--tasks",
        "0.6",
        "--score-correct",
        "normal:1,1",
        "--score-wrong",
        "gaussian:1",
        "--n",
        "1,2,4",
        "--format",
        "csv",
    ]);
    let by_k = stdout_of(&[
        "inference",
        "best-of-n",
        "--tasks",
        "0.6",
        "--score-correct",
        "normal:1,1",
        "--score-wrong",
        "gaussian:1",
        "--k",
        "1,2,4",
        "--format",
        "csv",
    ]);
    assert_eq!(by_n, by_k);
    // The correct law shifted up by one standard deviation: more samples help.
    let rows: Vec<f64> = by_n
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(rows[0] < rows[1] && rows[1] < rows[2], "{rows:?}");
    refused(
        &[
            "inference",
            "best-of-n",
            "--tasks",
            "0.6",
            "--score-correct",
            "1",
            "--score-wrong",
            "0",
            "--n",
            "1",
            "--k",
            "1",
        ],
        &["--k", "--n"],
    );
    refused(
        &[
            "inference",
            "best-of-n",
            "--tasks",
            "0.6",
            "--score-correct",
            "normal:0,0",
            "--score-wrong",
            "0",
            "--n",
            "1",
        ],
        &["--score-correct", "S > 0"],
    );
}

#[test]
fn weights_are_normalised_and_recorded() {
    let report = json_of(&[
        "inference",
        "pass-at-k",
        "--tasks",
        "0.87:0.27163,0.13:0.72836",
        "--weights",
        "--k",
        "1",
        "--exact",
        "--format",
        "json",
    ]);
    let text = report.to_string();
    assert!(text.contains("27163/99999"), "{text}");
    assert!(text.contains("0.99999"), "{text}");
    assert!(text.contains("--weights"), "{text}");
    refused(
        &[
            "inference",
            "pass-at-k",
            "--tasks",
            "0.87:0.27163,0.13:0.72836",
            "--k",
            "1",
        ],
        &["--tasks", "summing to exactly 1", "--weights"],
    );
    refused(
        &[
            "inference",
            "pass-at-k",
            "--tasks",
            "0.87:1,0.13:0",
            "--weights",
            "--k",
            "1",
        ],
        &["--tasks", "positive weights"],
    );
    refused(
        &[
            "inference",
            "vote",
            "--tasks",
            "0.87:1,0.13:-1",
            "--weights",
            "--k",
            "1",
        ],
        &["--tasks", "positive weights"],
    );
}

#[test]
fn the_first_fall_below_one_sample_is_printed_beside_the_best() {
    // Two easy types and a hard one: votes rise then fall; the heavy-tailed wrong law makes
    // best-of-n fall below one sample from n = 4.
    let vote = stdout_of(&[
        "inference",
        "vote",
        "--tasks",
        "0.7:0.6,0.4:0.4",
        "--k",
        "1,15,101,1001",
    ]);
    assert!(
        vote.contains(
            "at no k of the list is P_correct below one sample's accuracy (sum W R = 0.58)"
        ),
        "{vote}"
    );
    let best = stdout_of(&[
        "inference",
        "best-of-n",
        "--tasks",
        "0.6",
        "--score-correct",
        "gaussian:1",
        "--score-wrong",
        "gaussian:2",
        "--n",
        "1,2,4,8",
    ]);
    assert!(
        best.contains("more samples first fall below one sample's accuracy (sum W R = 0.6) at n = 4 on the list"),
        "{best}"
    );
}

const WEIGHTED: [&str; 12] = [
    "--weighted",
    "--tasks",
    "0.5:0.5,0.3:0.5",
    "--wrong-answers",
    "1/2,1/2",
    "--score-correct",
    "0:1/4,1:1/2,2:1/4",
    "--score-wrong",
    "-1:1/2,2:1/2",
    "--k",
    "1,2,5",
    "--exact",
];

/// Reward-weighted voting: f64 is exact rounded once; the simulation agrees at a fixed seed,
/// its shards merge byte for byte and `validate` reads its rows as they are.
#[test]
fn weighted_voting_is_simulated_merged_and_validated() {
    let exact = json_of(&[&["inference", "vote"][..], &WEIGHTED, &["--format", "json"]].concat());
    let float = json_of(
        &[
            &["inference", "vote"][..],
            &WEIGHTED[..11],
            &["--format", "json"],
        ]
        .concat(),
    );
    let rows = exact["tables"][0]["rows"].as_array().unwrap();
    let frows = float["tables"][0]["rows"].as_array().unwrap();
    for (e, f) in rows.iter().zip(frows) {
        let (n, d) = e["P_correct_exact"]
            .as_str()
            .unwrap()
            .split_once('/')
            .unwrap();
        let value: f64 = n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap();
        assert!(
            (value - f["P_correct"].as_f64().unwrap()).abs() < 1e-12,
            "{e} {f}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let run: Vec<&str> = [
        &["mc", "inference", "vote"][..],
        &WEIGHTED[..11],
        &["--trials", "3001", "--seed", "5"],
    ]
    .concat();
    let csv = stdout_of(&[&run[..], &["--format", "csv"]].concat());
    assert!(csv.contains("weighted_vote"), "{csv}");
    let path = dir.path().join("weighted.csv");
    std::fs::write(&path, &csv).unwrap();
    let out = stdout_of(&["validate", path.to_str().unwrap()]);
    assert!(
        out.contains("3 rows checked, 0 malformed;")
            && out.contains("disagree without correction, 0 with Holm's"),
        "{out}"
    );
    let mut shards = Vec::new();
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let text = stdout_of(&[&run[..], &["--shard", &shard, "--format", "json"]].concat());
        let p = dir.path().join(format!("shard{k}.json"));
        std::fs::write(&p, text).unwrap();
        shards.push(p.to_str().unwrap().to_string());
    }
    assert_eq!(
        stdout_of(&["merge", &shards[0], &shards[1], "--format", "csv"]),
        csv
    );
    refused(
        &[
            "inference",
            "vote",
            "--tasks",
            "0.6",
            "--k",
            "1",
            "--score-correct",
            "1",
        ],
        &["--weighted"],
    );
}
