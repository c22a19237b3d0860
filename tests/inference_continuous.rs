//! Best-of-n with normal score laws as the continuous laws: the rigorous enclosures against
//! closed forms (n = 1 and n = 2), a seeded Monte Carlo run at n = 1000, their width on the
//! doubling list to 10^6, the limit as n grows, the report (continuous by default, the
//! lattice beside it with `--lattice`, the lattice alone with `--exact`) and the refusals.

use pathology::analytic::inference::{Tasks, continuous};
use pathology::analytic::pathsum::Law;
use pathology::numeric::enclosure::Enclosure;

use super::common::{contains, json_of, pathology, phi, refused, table_rows};

fn law(text: &str) -> Law {
    Law::parse("--score", text).unwrap()
}

fn enclosures(tasks: &str, correct: &str, wrong: &str, ns: &[u64]) -> Vec<Enclosure> {
    continuous::normal_best_of_n(
        &Tasks::parse(tasks).unwrap(),
        &law(correct),
        &law(wrong),
        ns,
    )
    .unwrap()
    .unwrap()
}

/// n = 1: one sample, `P = sum W R`. n = 2: `P = sum W (R^2 + 2 R (1 - R) P(Y_c > Y_w))`
/// with `Y_c - Y_w ~ N(mu_c - mu_w, s_c^2 + s_w^2)`.
#[test]
fn enclosures_contain_the_closed_forms_at_one_and_two_samples() {
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
        let p = enclosures(tasks, c, w, &[1, 2]);
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
    }
}

/// The doubling list 1, 2, ..., 2^20 and 10^6: every enclosure at most 1e-9 wide, and the
/// correct law shifted up by one standard deviation makes more samples help all the way.
#[test]
fn enclosures_stay_narrow_to_a_million_samples() {
    let mut ns: Vec<u64> = (0..=20).map(|e| 1u64 << e).collect();
    ns.push(1_000_000);
    for (tasks, c, w) in [
        ("0.6", "normal:1,1", "normal:0,1"),
        ("0.7:0.6,0.2:0.4", "normal:1,1", "normal:0,1"),
        ("0.6", "gaussian:1", "gaussian:2"),
    ] {
        let p = enclosures(tasks, c, w, &ns);
        for (n, e) in ns.iter().zip(&p) {
            assert!(e.upper - e.lower <= 1e-9, "{tasks} {c} {w} n = {n}: {e:?}");
        }
        if w == "normal:0,1" {
            for pair in p[..21].windows(2) {
                assert!(pair[1].lower > pair[0].upper, "{pair:?}");
            }
        }
    }
}

/// A seeded Monte Carlo run at n = 1000 (R = 0.6, N(1, 1) against N(0, 1)): 4000 trials of
/// 1000 samples each, seed 20261129; the enclosure meets the 95% Wilson interval.
#[test]
fn a_seeded_monte_carlo_run_agrees_at_a_thousand_samples() {
    let (trials, n, seed, r) = (4000u32, 1000u32, 20_261_129u64, 0.6);
    let mut state = seed;
    let mut next = || {
        // SplitMix64 to a double in (0, 1).
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        ((z >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    };
    let mut wins = 0u32;
    for _ in 0..trials {
        let (mut top, mut correct) = (f64::NEG_INFINITY, false);
        for _ in 0..n {
            let is_correct = next() < r;
            // Box-Muller: one standard normal from two uniforms.
            let z = (-2.0 * next().ln()).sqrt() * (std::f64::consts::TAU * next()).cos();
            let score = if is_correct { 1.0 + z } else { z };
            if score > top {
                (top, correct) = (score, is_correct);
            }
        }
        wins += u32::from(correct);
    }
    let (k, t, z) = (f64::from(wins), f64::from(trials), 1.96);
    let p_hat = k / t;
    let centre = (p_hat + z * z / (2.0 * t)) / (1.0 + z * z / t);
    let half = z * (p_hat * (1.0 - p_hat) / t + z * z / (4.0 * t * t)).sqrt() / (1.0 + z * z / t);
    let e = enclosures("0.6", "normal:1,1", "normal:0,1", &[1000])[0];
    assert!(
        e.upper >= centre - half && e.lower <= centre + half,
        "{e:?} against {p_hat} [{}, {}] ({trials} trials, seed {seed})",
        centre - half,
        centre + half
    );
}

/// As n grows the largest score comes from the heavier upper tail: a wider correct law
/// wins (P_correct rises toward 1), a wider wrong law wins (toward 0), equal laws give R.
#[test]
fn the_heavier_upper_tail_takes_the_limit() {
    let ns = [1, 1 << 10, 1 << 20];
    let up = enclosures("0.6", "normal:0,2", "normal:0,1", &ns);
    let down = enclosures("0.6", "normal:0,1", "normal:0,2", &ns);
    let same = enclosures("0.6", "normal:0.5,1", "normal:0.5,1", &ns);
    assert!(up[2].lower > 0.999 && up[1].lower > up[0].upper, "{up:?}");
    assert!(
        down[2].upper < 0.001 && down[1].upper < down[0].lower,
        "{down:?}"
    );
    for e in &same {
        contains(e, 0.6, 1e-15);
    }
    let tasks = Tasks::parse("0.6").unwrap();
    let limit = |c: &str, w: &str| {
        continuous::normal_limit(&tasks, &law(c), &law(w))
            .unwrap()
            .to_string()
    };
    assert_eq!(limit("normal:0,2", "normal:0,1"), "1");
    assert_eq!(limit("normal:0,1", "normal:0,2"), "0");
    assert_eq!(limit("normal:1,1", "normal:0,1"), "1");
    assert_eq!(limit("normal:0.5,1", "normal:0.5,1"), "3/5");
}

fn best_of_n(extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "inference",
        "best-of-n",
        "--tasks",
        "0.6",
        "--score-correct",
        "gaussian:1",
        "--score-wrong",
        "gaussian:2",
        "--n",
        "1,16,256",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    json_of(&args)
}

/// The main answer is the continuous law's (its bound the enclosure's half-width, at most
/// 5e-10); `--lattice` adds the lattice's value and the difference; `--exact` is the lattice
/// in rationals, whose value the `--lattice` column matches within its bound.
#[test]
fn the_report_leads_with_the_continuous_law_and_lattice_adds_the_lattice() {
    let plain = best_of_n(&[]);
    let with = best_of_n(&["--lattice"]);
    let exact = best_of_n(&["--exact"]);
    let rows = table_rows(&plain, "best_of_n");
    let lattice_rows = table_rows(&with, "best_of_n");
    let exact_rows = table_rows(&exact, "best_of_n");
    let value = |row: &serde_json::Value, column: &str| row[column].as_f64().unwrap();
    let bound = |row: &serde_json::Value, column: &str| {
        row[format!("{column}_error_bound")].as_f64().unwrap()
    };
    let libraries = enclosures("0.6", "gaussian:1", "gaussian:2", &[1, 16, 256]);
    for (i, row) in rows.iter().enumerate() {
        let (v, b) = (value(row, "P_correct"), bound(row, "P_correct"));
        assert!(b <= 5e-10, "{row}");
        assert!(
            v - b <= libraries[i].lower + 1e-16 && libraries[i].upper <= v + b + 1e-16,
            "{row}"
        );
        let with_row = &lattice_rows[i];
        assert_eq!(value(with_row, "P_correct"), v);
        let on = value(with_row, "P_correct_lattice");
        // The exact lattice value rounded to a double (its rational is P_correct_exact).
        let exact_value = value(&exact_rows[i], "P_correct");
        assert!(exact_rows[i]["P_correct_exact"].is_string());
        assert!((on - exact_value).abs() <= bound(with_row, "P_correct_lattice") + 1e-15);
        let difference = value(with_row, "difference");
        assert!((difference - (v - on)).abs() < 1e-15, "{with_row}");
    }
    // The lattice and the continuous law part at n = 16 by more than 1e-4.
    assert!(value(&lattice_rows[1], "difference").abs() > 1e-4);
    // N(0, 1) against N(0, 4): the wrong law's heavier tail takes the limit.
    let limit = table_rows(&plain, "limit");
    assert_eq!(limit[0]["P_correct_exact"], "0/1");
    assert!(!rows.is_empty() && rows.len() == 3);
}

#[test]
fn bad_input_is_refused_naming_the_option() {
    let base = |c: &'static str, n: &'static str| {
        vec![
            "inference",
            "best-of-n",
            "--tasks",
            "0.6",
            "--score-correct",
            c,
            "--score-wrong",
            "normal:0,1",
            "--n",
            n,
        ]
    };
    refused(&base("gaussian:0", "1,2"), &["--score-correct", "S > 0"]);
    refused(&base("normal:1,-1", "1,2"), &["--score-correct"]);
    refused(&base("normal:1,1", "0,2"), &["--n"]);
    refused(&base("normal:1,1", "1..10001"), &["--n", "at most 10000"]);
    refused(&base("normal:1,1", "2000000000"), &["--n", "1000000000"]);
    let mut mc = vec!["mc"];
    mc.extend(base("normal:1,1", "1,2"));
    mc.extend(["--lattice", "--trials", "10"]);
    refused(&mc, &["--lattice"]);
    // The lattice flag is best-of-n's with normal laws in f64: the command runs with it, and
    // is refused where the flag would change nothing (the lattice is all there is).
    let mut args = base("normal:1,1", "1,2");
    args.push("--lattice");
    pathology().args(&args).assert().success();
    let mut exact = args.clone();
    exact.push("--exact");
    refused(&exact, &["--lattice", "--exact"]);
    let mut discrete = base("binomial:4", "1,2");
    discrete.push("--lattice");
    refused(&discrete, &["--lattice", "normal"]);
}
