//! Reward-weighted voting with normal score laws as the continuous laws: the rigorous
//! enclosures against closed forms (k = 1 and k = 2), a seeded simulation of the continuous
//! model, their width up to k = 20, the report (continuous by default, the lattice beside it
//! with `--lattice`, the lattice alone with `--exact`) and the refusals.

use num_rational::BigRational;
use pathology::analytic::inference::{Tasks, continuous};
use pathology::analytic::pathsum::Law;
use pathology::numeric::enclosure::Enclosure;
use pathology::numeric::number::parse_rational;

use super::common::{contains, json_of, phi, refused, table_rows};

fn law(text: &str) -> Law {
    Law::parse("--score", text).unwrap()
}

fn enclosures(
    tasks: &str,
    wrong: &str,
    correct: &str,
    wrong_law: &str,
    ks: &[u64],
) -> Vec<Enclosure> {
    let shares: Vec<BigRational> = wrong
        .split(',')
        .map(|u| parse_rational(u).unwrap())
        .collect();
    continuous::normal_weighted_vote(
        &Tasks::parse(tasks).unwrap(),
        &shares,
        &law(correct),
        &law(wrong_law),
        ks,
    )
    .unwrap()
    .unwrap()
}

/// k = 1: the one sample's answer, `P = sum W R` (whatever the wrong answers' split). k = 2
/// with one wrong answer: both correct 1, one of each `P(Y_c > Y_w)` with
/// `Y_c - Y_w ~ N(mu_c - mu_w, s_c^2 + s_w^2)`, both wrong 0.
#[test]
fn enclosures_contain_the_closed_forms_at_one_and_two_votes() {
    let mix = [(0.7, 0.6), (0.2, 0.4)];
    let tasks = "0.7:0.6,0.2:0.4";
    for (c, w, (mc, sc), (mw, sw)) in [
        ("normal:1,1", "normal:0,1", (1.0, 1.0), (0.0, 1.0)),
        ("gaussian:1", "gaussian:2", (0.0, 1.0), (0.0, 2.0)),
        (
            "normal:-0.5,0.75",
            "normal:0.25,1.5",
            (-0.5, 0.75),
            (0.25, 1.5),
        ),
    ] {
        let (mc, sc, mw, sw): (f64, f64, f64, f64) = (mc, sc, mw, sw);
        let p = enclosures(tasks, "1", c, w, &[1, 2]);
        let above = phi((mc - mw) / (sc * sc + sw * sw).sqrt());
        let one: f64 = mix.iter().map(|(r, share)| share * r).sum();
        let two: f64 = mix
            .iter()
            .map(|(r, share)| share * (r * r + 2.0 * r * (1.0 - r) * above))
            .sum();
        contains(&p[0], one, 1e-14);
        contains(&p[1], two, 1e-13);
        for e in &p {
            assert!(e.upper - e.lower <= 1e-9, "{c} {w}: {e:?}");
        }
        // Three wrong answers: at k = 1 the split does not matter.
        let split = enclosures(tasks, "0.5,0.25,0.25", c, w, &[1]);
        contains(&split[0], one, 1e-14);
    }
}

/// SplitMix64: a small seeded generator, independent of the crate's.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1).
    fn uniform(&mut self) -> f64 {
        ((self.next() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// A standard normal by Box-Muller.
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// The continuous model simulated directly (`mc inference vote --weighted` samples the laws'
/// atoms, the 33-point lattices, so it cannot check the continuous value): 200,000 trials,
/// seed 2024, k = 5 votes, R = 0.45, three wrong answers of shares 1/2, 1/4, 1/4, correct
/// scores N(1, 1) and wrong ones N(0, 1.5^2). The enclosure lies within the Wilson interval at
/// z = 3.29 (99.9%) of the simulated frequency.
#[test]
fn a_seeded_simulation_of_the_continuous_model_agrees() {
    let (trials, k, r) = (200_000u32, 5usize, 0.45);
    let shares = [0.5, 0.25, 0.25];
    let mut rng = Rng(2024);
    let mut wins = 0u32;
    for _ in 0..trials {
        let mut totals: [Option<f64>; 4] = [None; 4];
        for _ in 0..k {
            let (label, score) = if rng.uniform() < r {
                (0, 1.0 + rng.normal())
            } else {
                let u = rng.uniform();
                let label = if u < shares[0] {
                    1
                } else if u < shares[0] + shares[1] {
                    2
                } else {
                    3
                };
                (label, 1.5 * rng.normal())
            };
            *totals[label].get_or_insert(0.0) += score;
        }
        let top = totals.iter().flatten().copied().fold(f64::MIN, f64::max);
        wins += u32::from(totals[0] == Some(top));
    }
    let p = enclosures("0.45", "0.5,0.25,0.25", "normal:1,1", "normal:0,1.5", &[5])[0];
    assert!(p.upper - p.lower <= 1e-9, "{p:?}");
    let (n, x, z) = (f64::from(trials), f64::from(wins), 3.29_f64);
    let hat = x / n;
    let centre = (hat + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (hat * (1.0 - hat) / n + z * z / (4.0 * n * n)).sqrt();
    assert!(
        centre - half <= p.lower && p.upper <= centre + half,
        "{p:?} against {hat} +- {half}"
    );
}

/// The enclosures stay within 1e-9 up to k = 20, with one wrong answer and with three, and
/// more votes help when the correct scores are higher.
#[test]
fn enclosures_are_narrow_up_to_twenty_votes() {
    let ks: Vec<u64> = (1..=20).collect();
    for (wrong, c, w) in [
        ("1", "normal:1,1", "normal:0,1"),
        ("0.5,0.3,0.2", "normal:0.5,0.5", "gaussian:2"),
        ("0.25,0.25,0.25,0.25", "normal:1,2", "normal:0,0.5"),
    ] {
        let p = enclosures("0.4:0.5,0.8:0.5", wrong, c, w, &ks);
        for (k, e) in ks.iter().zip(&p) {
            assert!(e.upper - e.lower <= 1e-9, "{wrong} {c} {w} k = {k}: {e:?}");
            assert!(0.0 <= e.lower && e.upper <= 1.0);
        }
        assert!(p[19].lower > p[0].upper, "{wrong} {c} {w}: {p:?}");
    }
}

fn vote(extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "inference",
        "vote",
        "--weighted",
        "--tasks",
        "0.6",
        "--wrong-answers",
        "0.5,0.5",
        "--score-correct",
        "normal:1,1",
        "--score-wrong",
        "gaussian:1",
        "--k",
        "1,3,6",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    json_of(&args)
}

/// The main answer is the continuous law's (its bound the enclosure's half-width);
/// `--lattice` adds the lattice's value and the difference; `--exact` is the lattice in
/// rationals (its note says so), whose value the `--lattice` column matches within its bound.
#[test]
fn the_report_leads_with_the_continuous_law_and_lattice_adds_the_lattice() {
    let plain = vote(&[]);
    let with = vote(&["--lattice"]);
    let exact = vote(&["--exact"]);
    let rows = table_rows(&plain, "vote");
    let lattice_rows = table_rows(&with, "vote");
    let exact_rows = table_rows(&exact, "vote");
    let value = |row: &serde_json::Value, column: &str| row[column].as_f64().unwrap();
    let bound = |row: &serde_json::Value, column: &str| {
        row[format!("{column}_error_bound")].as_f64().unwrap()
    };
    let library = enclosures("0.6", "0.5,0.5", "normal:1,1", "gaussian:1", &[1, 3, 6]);
    for (i, row) in rows.iter().enumerate() {
        let (v, b) = (value(row, "P_correct"), bound(row, "P_correct"));
        assert!(b <= 5e-10, "{row}");
        assert!(
            v - b <= library[i].lower + 1e-16 && library[i].upper <= v + b + 1e-16,
            "{row}"
        );
        let with_row = &lattice_rows[i];
        assert_eq!(value(with_row, "P_correct"), v);
        let on = value(with_row, "P_correct_lattice");
        let exact_value = value(&exact_rows[i], "P_correct");
        assert!(exact_rows[i]["P_correct_exact"].is_string());
        assert!((on - exact_value).abs() <= bound(with_row, "P_correct_lattice") + 1e-15);
        let difference = value(with_row, "difference");
        assert!((difference - (v - on)).abs() < 1e-15, "{with_row}");
    }
    // The lattices and the continuous laws part at k = 3 by more than 1e-5.
    assert!(value(&lattice_rows[1], "difference").abs() > 1e-5);
    let notes = |report: &serde_json::Value| report["notes"].to_string();
    assert!(
        notes(&plain).contains("rigorous enclosure"),
        "{}",
        notes(&plain)
    );
    assert!(
        notes(&exact).contains("--exact with normal score laws"),
        "{}",
        notes(&exact)
    );
    assert!(notes(&exact).contains("33 points"), "{}", notes(&exact));
}

#[test]
fn bad_input_is_refused_naming_the_option() {
    let base = |k: &'static str, wrong: &'static str| {
        vec![
            "inference",
            "vote",
            "--weighted",
            "--tasks",
            "0.6",
            "--wrong-answers",
            wrong,
            "--score-correct",
            "normal:1,1",
            "--score-wrong",
            "normal:0,1",
            "--k",
            k,
        ]
    };
    // Ten wrong answers and k = 40: the count patterns (partitions) are too many.
    refused(
        &base("40", "0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1"),
        &["would need", "refused", "fewer votes k"],
    );
    let mut mc = vec!["mc"];
    mc.extend(base("1,2", "1"));
    mc.extend(["--lattice", "--trials", "10"]);
    refused(&mc, &["--lattice"]);
    // --lattice is the weighted vote's.
    refused(
        &[
            "inference",
            "vote",
            "--tasks",
            "0.6",
            "--k",
            "1",
            "--lattice",
        ],
        &["--weighted"],
    );
}
