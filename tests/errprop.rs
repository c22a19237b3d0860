//! CLI tests of `pathology errprop`, `rhf`, `wb` and `emm`.

use super::common::{pathology, table_rows};
use predicates::prelude::*;
use serde_json::Value;

/// f64 and exact values agree to this.
const FLOAT_AGREEMENT: f64 = 1e-12;

fn json(args: &[&str]) -> Value {
    let out = pathology().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The rows of the report's table `name`.
fn rows(v: &Value, name: &str) -> Vec<Value> {
    table_rows(v, name)
}

fn ratio(text: &str) -> f64 {
    pathology::numeric::number::rational_to_f64(
        &pathology::numeric::number::parse_rational(text).unwrap(),
    )
}

#[test]
fn exact_trajectory_json_has_rational_strings() {
    let v = json(&[
        "errprop", "--gamma", "0.3", "--delta", "0.2", "--f1", "0.7", "--f2", "0.7", "--steps",
        "1", "--exact", "--format", "json",
    ]);
    let points = rows(&v, "trajectories");
    assert_eq!(points.len(), 2);
    assert_eq!(points[1]["step"], 1);
    assert_eq!(points[1]["gamma_exact"], "10071/40000");
    assert_eq!(points[1]["delta_exact"], "9207/50000");
}

#[test]
fn float_json_agrees_with_exact_json() {
    let base = [
        "errprop", "--gamma", "0.3", "--delta", "0.2", "--f", "0.8", "--steps", "5", "--format",
        "json",
    ];
    let float = json(&base);
    let mut exact_args = base.to_vec();
    exact_args.push("--exact");
    let exact = json(&exact_args);
    let (float, exact) = (rows(&float, "trajectories"), rows(&exact, "trajectories"));
    assert_eq!(float.len(), 6);
    assert_eq!(float.len(), exact.len());
    for (f, e) in float.iter().zip(&exact) {
        for key in ["gamma", "delta"] {
            let x = f[key].as_f64().unwrap();
            let y = ratio(e[&format!("{key}_exact")].as_str().unwrap());
            assert!((x - y).abs() < FLOAT_AGREEMENT, "{key}: {x} vs {y}");
        }
    }
}

#[test]
fn min_to_min_runs() {
    let v = json(&[
        "errprop", "--gamma", "0.2", "--delta", "0.3", "--f", "0.2", "--steps", "30", "--from",
        "min", "--format", "json",
    ]);
    let last = rows(&v, "trajectories").last().unwrap().clone();
    // The dual of (0, 1): every node read as 1.
    assert!(
        (last["gamma"].as_f64().unwrap() - 1.0).abs() < 1e-9,
        "{last}"
    );
    assert!(last["delta"].as_f64().unwrap() < 1e-9);
}

#[test]
fn long_run_reports_limits() {
    pathology()
        .args([
            "errprop",
            "--gamma",
            "0.3",
            "--delta",
            "0.2",
            "--f",
            "0.2,0.9",
            "--long-run",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("(0, 1)").and(predicate::str::contains("(0, 0)")));
}

#[test]
fn too_many_exact_steps_are_refused() {
    pathology()
        .args([
            "errprop", "--gamma", "0.3", "--delta", "0.2", "--f", "0.7", "--steps", "30", "--exact",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("f64").and(predicate::str::contains("steps")));
}

#[test]
fn thresholds_and_range_errors() {
    let v = json(&[
        "errprop",
        "thresholds",
        "--gamma",
        "0.2",
        "--delta",
        "0.2",
        "--format",
        "json",
    ]);
    let thresholds = rows(&v, "thresholds");
    let t51 = thresholds.iter().find(|r| r["theorem"] == "5.1").unwrap();
    assert!((t51["F1"].as_f64().unwrap() - 1.0 / 1.2).abs() < 1e-12);
    assert!((t51["F2"].as_f64().unwrap() - 0.625).abs() < 1e-12);
    pathology()
        .args(["errprop", "thresholds", "--gamma", "0.4", "--delta", "0.1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("gamma").and(predicate::str::contains("(0, 0.3)")));
    pathology()
        .args([
            "errprop",
            "thresholds",
            "--gamma",
            "0.4",
            "--delta",
            "0.1",
            "--theorem",
            "5.1",
        ])
        .assert()
        .success();
    pathology()
        .args([
            "errprop",
            "thresholds",
            "--gamma",
            "0.1",
            "--delta",
            "0.3",
            "--theorem",
            "5.1",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("delta").and(predicate::str::contains("(0, 0.25)")));
}

#[test]
fn bad_input_names_the_argument() {
    pathology()
        .args(["errprop", "--gamma", "1.5", "--delta", "0.2", "--f", "0.7"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--gamma"));
    pathology()
        .args([
            "errprop", "--gamma", "0.3", "--delta", "0.2", "--f", "0.7", "--plot", "x.pdf",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--plot"));
    pathology()
        .args(["wb", "--branching", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--branching"));
    pathology()
        .args(["rhf", "--w", "abc"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--w"));
}

#[test]
fn fixed_points_and_critical_f() {
    let v = json(&[
        "errprop",
        "fixed-points",
        "--f1",
        "0.7",
        "--f2",
        "0.7",
        "--format",
        "json",
    ]);
    let points = rows(&v, "fixed_points");
    assert!(
        points
            .iter()
            .any(|p| p["gamma"] == 0.0 && p["delta"] == 1.0 && p["stability"] == "attracting")
    );
    let v = json(&[
        "errprop",
        "critical-f",
        "--gamma",
        "0.3",
        "--delta",
        "0.2",
        "--format",
        "json",
    ]);
    let f = rows(&v, "critical_f")[0]["critical_f"].as_f64().unwrap();
    assert!((f - 0.651504).abs() < 1e-6, "{f}");
}

#[test]
fn closed_forms() {
    let v = json(&["wb", "--branching", "3", "--format", "json"]);
    assert!((rows(&v, "w_b")[0]["w_b"].as_f64().unwrap() - 0.3176721962).abs() < 1e-10);
    let v = json(&["rhf", "--w", "0.25", "--xi", "0.5", "--format", "json"]);
    let row = &rows(&v, "rhf")[0];
    assert_eq!(row["w"], 0.25);
    assert!((row["rhf"].as_f64().unwrap() - 1.0 / 9.0).abs() < 1e-15);
    pathology()
        .args(["emm", "example"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("91/1000")
                .and(predicate::str::contains("0.091000"))
                .and(predicate::str::contains("1729/10000"))
                .and(predicate::str::contains("0.172900")),
        );
}

#[test]
fn plots_are_written_and_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.png", "b.png", "a.svg", "b.svg"] {
        pathology()
            .args([
                "errprop",
                "--gamma",
                "0.3",
                "--delta",
                "0.2",
                "--f",
                "0.7,0.8,0.9",
                "--plot",
            ])
            .arg(dir.path().join(name))
            .assert()
            .success();
    }
    for (a, b) in [("a.png", "b.png"), ("a.svg", "b.svg")] {
        let x = std::fs::read(dir.path().join(a)).unwrap();
        let y = std::fs::read(dir.path().join(b)).unwrap();
        assert!(!x.is_empty());
        assert_eq!(x, y, "{a} and {b} differ");
    }
}

#[test]
fn figures_are_written_and_reproducible() {
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for dir in [&one, &two] {
        pathology()
            .args(["errprop", "figures", "--out"])
            .arg(dir.path())
            .assert()
            .success();
    }
    let mut names: Vec<_> = std::fs::read_dir(one.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert!(names.len() >= 11, "{names:?}");
    for name in names {
        let x = std::fs::read(one.path().join(&name)).unwrap();
        let y = std::fs::read(two.path().join(&name)).unwrap();
        assert!(!x.is_empty(), "{name:?} is empty");
        assert_eq!(x, y, "{name:?} differs between runs");
    }
    let report = std::fs::read_to_string(one.path().join("dgame_fig4_pairs.txt")).unwrap();
    assert!(
        report.contains("total over the 100 settings: exact 167"),
        "{report}"
    );
}

/// `errprop fixed-points` rows as `(gamma, delta, stability, certificate)`, and the notes.
fn fixed_point_rows(f: &str, from: &str) -> (Vec<Value>, String) {
    let v = json(&[
        "errprop",
        "fixed-points",
        "--f1",
        f,
        "--f2",
        f,
        "--from",
        from,
        "--format",
        "json",
    ]);
    (rows(&v, "fixed_points"), v["notes"].to_string())
}

#[test]
fn fixed_points_near_one_half_list_no_spurious_near_origin_points() {
    // At f = 1/2 the map is the identity to first order at the origin, and
    // Newton's residual test accepted (3.5e-23, 1.04e-7) "saddle" and (1e-7, 1.9e-7)
    // "repelling". None is a fixed point: on gamma = 0 the map sends delta to about
    // delta + 3/4 delta^2 (f = 1/2).
    for f in ["0.5", "0.49999999"] {
        for from in ["max", "min"] {
            let (points, notes) = fixed_point_rows(f, from);
            for p in &points {
                let (g, d) = (p["gamma"].as_f64().unwrap(), p["delta"].as_f64().unwrap());
                assert!(
                    (g == 0.0 && d == 0.0) || g.max(d) > 0.1,
                    "f = {f}, {from}: spurious point ({g}, {d}) in {points:?}"
                );
                assert_ne!(p["certificate"], Value::Null, "{p}");
            }
            let origin = points
                .iter()
                .find(|p| p["gamma"] == 0.0 && p["delta"] == 0.0)
                .unwrap();
            let eigenvalue = origin["eigenvalue1_re"].as_f64().unwrap();
            if f == "0.5" {
                // Exactly 1 (from the exact Jacobian diag(2 (1 - f2), 2 (1 - f1))).
                assert_eq!(origin["stability"], "non-hyperbolic", "{origin}");
                assert_eq!(eigenvalue, 1.0);
                assert_eq!(origin["eigenvalue2_re"].as_f64().unwrap(), 1.0);
            } else {
                assert_eq!(origin["stability"], "repelling", "{origin}");
                assert!(eigenvalue > 1.0 && eigenvalue < 1.0 + 1e-7, "{eigenvalue}");
            }
            assert_eq!(origin["certificate"], "exact");
            assert!(
                notes.contains("not certified, dropped"),
                "f = {f}, {from}: the dropped candidates are counted: {notes}"
            );
        }
    }
}

#[test]
fn fixed_points_at_seven_tenths_are_the_seven_of_the_readme() {
    // README: "(0,0), (0,1) and (1,0) attracting, three saddles, and a repelling point on the
    // line gamma + delta = 1".
    let (points, _) = fixed_point_rows("0.7", "max");
    assert_eq!(points.len(), 7, "{points:?}");
    let count = |s: &str| points.iter().filter(|p| p["stability"] == s).count();
    assert_eq!(
        (count("attracting"), count("saddle"), count("repelling")),
        (3, 3, 1)
    );
    for corner in [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0)] {
        assert!(points.iter().any(|p| p["gamma"] == corner.0
            && p["delta"] == corner.1
            && p["stability"] == "attracting"
            && p["certificate"] == "exact"));
    }
    let repelling = points
        .iter()
        .find(|p| p["stability"] == "repelling")
        .unwrap();
    let bound = |key: &str| repelling[key].as_f64().unwrap();
    assert!(bound("gamma_lower") + bound("delta_lower") <= 1.0);
    assert!(bound("gamma_upper") + bound("delta_upper") >= 1.0);
    assert!((bound("gamma") - 0.618_033_988_749_895).abs() < 1e-9);
    for p in &points {
        let certificate = p["certificate"].as_str().unwrap();
        assert!(
            ["exact", "krawczyk", "krawczyk-on-edge"].contains(&certificate),
            "{p}"
        );
        for key in ["gamma", "delta"] {
            let (lower, upper) = (
                p[&format!("{key}_lower")].as_f64().unwrap(),
                p[&format!("{key}_upper")].as_f64().unwrap(),
            );
            assert!(0.0 <= lower && lower <= upper && upper <= 1.0, "{p}");
            assert!(upper - lower < 1e-6, "{p}");
        }
    }
}

#[test]
fn every_listed_fixed_point_maps_to_itself_within_its_enclosure() {
    use pathology::analytic::errprop::stability::{Certificate, fixed_points};
    use pathology::analytic::errprop::{BackUp, back_up_in};
    use pathology::numeric::enclosure::Enclosure;
    let mut checked = 0;
    for i in 0..=10 {
        for j in 0..=10 {
            let (f1, f2) = (f64::from(i) / 10.0, f64::from(j) / 10.0);
            for from in [BackUp::Max, BackUp::Min] {
                let points = fixed_points(f1, f2, from).unwrap();
                for p in &points {
                    let e = &p.enclosure;
                    // The interval image of the enclosure meets the enclosure (a fixed point
                    // in it maps into it), and the f64 image of the listed point stays
                    // within the enclosure's width of it.
                    let (fe1, fe2) = (Enclosure::point(f1), Enclosure::point(f2));
                    let (g, d) = back_up_in(&e.gamma, &e.delta, &fe1, &fe2, from);
                    for (image, enclosure) in [(g, e.gamma), (d, e.delta)] {
                        assert!(
                            image.lower <= enclosure.upper && enclosure.lower <= image.upper,
                            "f = ({f1}, {f2}), {from:?}: {p:?} maps to {image:?}"
                        );
                    }
                    let (g, d) = back_up_in(&p.point.gamma, &p.point.delta, &f1, &f2, from);
                    let width = |e: &Enclosure| e.upper - e.lower + 1e-15;
                    assert!((g - p.point.gamma).abs() <= width(&e.gamma), "{p:?}");
                    assert!((d - p.point.delta).abs() <= width(&e.delta), "{p:?}");
                    assert!(e.gamma.lower <= p.point.gamma && p.point.gamma <= e.gamma.upper);
                    assert!(e.delta.lower <= p.point.delta && p.point.delta <= e.delta.upper);
                    if p.certificate == Certificate::Exact {
                        assert_eq!((g, d), (p.point.gamma, p.point.delta));
                    }
                    checked += 1;
                }
                // The Min-to-Min map is the Max-to-Max map with gamma <-> delta, f1 <-> f2.
                if from == BackUp::Min {
                    let mirrored: Vec<(f64, f64)> = fixed_points(f2, f1, BackUp::Max)
                        .unwrap()
                        .iter()
                        .map(|p| (p.point.delta, p.point.gamma))
                        .collect();
                    assert_eq!(points.len(), mirrored.len(), "f = ({f1}, {f2})");
                    for p in &points {
                        let a = (p.point.gamma, p.point.delta);
                        assert!(
                            mirrored
                                .iter()
                                .any(|b| (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9),
                            "f = ({f1}, {f2}): {a:?} not in {mirrored:?}"
                        );
                    }
                }
            }
        }
    }
    assert!(checked >= 3 * 11 * 11 * 2, "{checked}");
}

#[test]
fn huge_trajectory_sets_are_refused_up_front_with_an_estimate() {
    // 10001 values x 100000 steps was killed by the kernel at 17.5 GB;
    // 101 values took 5 GB. The rows are now streamed (101 values would hold 160 MB), but
    // both are refused before any work, with the estimate: 10^9 and 10^7 rows are hours and
    // minutes of printing. The refusal comes before the work: no estimate of an accepted run
    // is announced (PATHOLOGY_ESTIMATE) and nothing is printed.
    for n in [10_001, 101] {
        let f: Vec<String> = (0..n)
            .map(|i| format!("{}", f64::from(i) / f64::from(n - 1)))
            .collect();
        let out = pathology()
            .env("PATHOLOGY_ESTIMATE", "1")
            .args(["errprop", "--gamma", "0.3", "--delta", "0.2", "--f"])
            .arg(f.join(","))
            .args(["--steps", "100000", "--format", "csv"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{n} values");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("{n} trajectories of 100000 steps"))
                && err.contains("would need")
                && err.contains("of memory")
                && err.contains("refused"),
            "{err}"
        );
        assert!(!err.contains("pathology: estimate:"), "{err}");
    }
    // Many exact trajectories: each is cheap, all together are not.
    let f: Vec<String> = (0..1001)
        .map(|i| format!("{}", f64::from(i) / 1000.0))
        .collect();
    pathology()
        .args([
            "errprop", "--gamma", "0.3", "--delta", "0.2", "--exact", "--steps", "6",
        ])
        .arg("--f")
        .arg(f.join(","))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "1001 trajectories of 6 steps in exact rationals",
        ));
    // One long f64 trajectory is still fine.
    pathology()
        .args([
            "errprop", "--gamma", "0.3", "--delta", "0.2", "--f", "0.3", "--steps", "20000",
            "--format", "csv",
        ])
        .assert()
        .success();
}
