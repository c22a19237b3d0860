//! `decision --game sum`: its special cases print what today's engines print
//! (exact rationals, every shared column), `binomial:N` is the centred binomial, and bad input
//! is refused by name (exit 2).

use crate::common::{json_of, refused, stdout_of};
use serde_json::Value;

/// The CSV table of a command: the header and the rows, comment lines dropped.
fn csv(args: &[&str]) -> (Vec<String>, Vec<Vec<String>>) {
    let out = stdout_of(args);
    let mut lines = out.lines().filter(|l| !l.starts_with('#') && !l.is_empty());
    let header = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    (header, rows)
}

/// The column `name` of a CSV table.
fn column(table: &(Vec<String>, Vec<Vec<String>>), name: &str) -> Vec<String> {
    let i = table
        .0
        .iter()
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name} in {:?}", table.0));
    table.1.iter().map(|r| r[i].clone()).collect()
}

fn assert_same_columns(ours: &[&str], theirs: &[&str], columns: &[&str]) {
    let (a, b) = (csv(ours), csv(theirs));
    assert_eq!(a.1.len(), b.1.len());
    for name in columns {
        let (x, y) = (column(&a, name), column(&b, name));
        assert_eq!(x, y, "column {name}: {ours:?} vs {theirs:?}");
        // Not a comparison of two columns of ones: some D is below 1.
        if *name == "D_exact" {
            assert!(x.iter().any(|v| v != "1/1"), "{x:?}");
        }
    }
}

#[test]
fn sign_outcome_with_unit_steps_is_the_n_game() {
    for (b, h, q) in [("2", "6", "1/2"), ("3", "5", "3/5"), ("2", "7", "2/5")] {
        for e in ["1/10", "3/10"] {
            let q_value = pathology::numeric::number::parse_rational(q).unwrap();
            let minus = format!(
                "-1:{}",
                num_rational::BigRational::from_integer(1.into()) - q_value
            );
            let step = format!("1:{q},{minus}");
            let common = [
                "--branching",
                b,
                "--height",
                h,
                "--evaluator",
                "artificial",
                "--e",
                e,
                "--exact",
                "--format",
                "csv",
            ];
            let mut ours = vec![
                "decision",
                "--game",
                "sum",
                "--outcome",
                "sign",
                "--step",
                &step,
            ];
            ours.extend(common);
            let mut theirs = vec!["decision", "--game", "n", "--q", q];
            theirs.extend(common);
            assert_same_columns(&ours, &theirs, &["D_exact"]);
            // and the root's probability of being non-trivial
            let mut ours_root = ours.clone();
            ours_root.extend(["--table", "root"]);
            let mut theirs_root = theirs.clone();
            theirs_root.extend(["--table", "root"]);
            assert_same_columns(&ours_root, &theirs_root, &["nontrivial_exact"]);
        }
    }
}

#[test]
fn zero_steps_are_the_multi_valued_p_game() {
    let dir = tempfile::tempdir().unwrap();
    let histogram = dir.path().join("noise.csv");
    // The histogram evaluator with E = v + N, N in {-1, 0, 1} with 1/4, 1/2, 1/4: the
    // additive evaluator of path-sum trees.
    let mut rows = String::new();
    for v in [0, 1, 2] {
        for (n, p) in [(1, "1/4"), (0, "1/2"), (-1, "1/4")] {
            rows.push_str(&format!("{v},{},{p}\n", v + n));
        }
    }
    std::fs::write(&histogram, rows).unwrap();
    let histogram = histogram.to_str().unwrap();
    for (b, h) in [("2", "5"), ("3", "4"), ("2", "6")] {
        let common = [
            "--branching",
            b,
            "--height",
            h,
            "--exact",
            "--format",
            "csv",
        ];
        let mut ours = vec![
            "decision",
            "--game",
            "sum",
            "--step",
            "0",
            "--leaf",
            "0:1/4,1:1/2,2:1/4",
            "--evaluator",
            "additive",
            "--noise",
            "1:1/4,0:1/2,-1:1/4",
        ];
        ours.extend(common);
        let mut theirs = vec![
            "decision",
            "--game",
            "p",
            "--leaves",
            "0:1/4,1:1/2,2:1/4",
            "--evaluator",
            "histogram",
            "--histogram",
            histogram,
        ];
        theirs.extend(common);
        assert_same_columns(&ours, &theirs, &["D_exact", "optimal_exact", "loss_exact"]);
    }
    // The perfect evaluator: D = 1 at every depth in both.
    let ours = csv(&[
        "decision",
        "--game",
        "sum",
        "--step",
        "0",
        "--leaf",
        "0:1/3,1:1/3,5:1/3",
        "--evaluator",
        "perfect",
        "--height",
        "4",
        "--exact",
        "--format",
        "csv",
        "--table",
        "root",
    ]);
    let theirs = csv(&[
        "decision",
        "--game",
        "p",
        "--leaves",
        "0:1/3,1:1/3,5:1/3",
        "--evaluator",
        "perfect",
        "--height",
        "4",
        "--exact",
        "--format",
        "csv",
        "--table",
        "root",
    ]);
    assert_eq!(
        column(&ours, "nontrivial_exact"),
        column(&theirs, "nontrivial_exact")
    );
}

#[test]
fn terminal_zero_changes_nothing() {
    let base = [
        "decision",
        "--game",
        "sum",
        "--step",
        "1:1/3,0:1/3,-1:1/3",
        "--leaf",
        "1:1/2,-1:1/2",
        "--height",
        "6",
        "--exact",
        "--format",
        "csv",
    ];
    let mut zero = base.to_vec();
    zero.extend(["--terminal", "0"]);
    let a = csv(&base);
    let b = csv(&zero);
    assert_eq!(a.1, b.1);
    let mut some = base.to_vec();
    some.extend(["--terminal", "1/5"]);
    assert_ne!(csv(&some).1, a.1);
}

#[test]
fn bad_input_is_refused_by_name() {
    let sum = ["decision", "--game", "sum", "--height", "4"];
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (
            vec!["--step", "1:1/2,-1:1/4"],
            vec!["--step", "summing to exactly 1"],
        ),
        (vec!["--step", "1:3/2,-1:-1/2"], vec!["--step", "[0, 1]"]),
        (vec!["--leaf", "1:1/2,1:1/2"], vec!["--leaf", "distinct"]),
        (vec!["--terminal", "1"], vec!["--terminal", "[0, 1)"]),
        (vec!["--terminal", "-0.1"], vec!["--terminal", "[0, 1)"]),
        (
            vec!["--evaluator", "artificial"],
            vec!["--evaluator artificial", "--outcome sign"],
        ),
        (
            vec!["--outcome", "sign", "--evaluator", "artificial", "--e", "2"],
            vec!["--e", "[0, 1]"],
        ),
        (
            vec!["--outcome", "sign", "--terminal", "1/4"],
            vec!["--terminal", "position"],
        ),
        (
            vec!["--evaluator", "gaussian", "--sigma", "1"],
            vec!["--sigma"],
        ),
        (vec!["--evaluator", "additive"], vec!["--noise"]),
        (vec!["--noise", "0"], vec!["--noise", "additive"]),
        (vec!["--q", "1/2"], vec!["--q", "--step"]),
        (vec!["--leaves", "0:1"], vec!["--leaves", "--leaf"]),
        (
            vec!["--step", "1000000:1/2,-1000000:1/2", "--leaf", "1:1"],
            vec!["--step", "span"],
        ),
    ];
    for (extra, mentions) in cases {
        let mut args = sum.to_vec();
        args.extend(extra);
        refused(&args, &mentions);
    }
    refused(
        &["decision", "--game", "p", "--height", "4", "--step", "0"],
        &["--step", "--game sum"],
    );
    refused(
        &[
            "decision",
            "--game",
            "n",
            "--height",
            "4",
            "--evaluator",
            "position",
        ],
        &["--evaluator position", "--game sum"],
    );
    // Work past about a minute is refused up front with an estimate.
    refused(
        &[
            "decision",
            "--game",
            "sum",
            "--height",
            "40",
            "--branching",
            "4",
            "--step",
            "1:1/3,0:1/3,-1:1/3",
            "--leaf",
            "1:1/2,-1:1/2",
            "--exact",
        ],
        &["would need about", "refused"],
    );
}

/// `binomial:N` is the centred binomial Bin(N, 1/2) - N/2, exactly: the
/// why-minimax cell typed with it equals the cell typed with its 17 and 9 fractions.
#[test]
fn binomial_shorthand_is_the_centred_binomial() {
    let common = [
        "decision",
        "--game",
        "sum",
        "--branching",
        "2",
        "--height",
        "8",
        "--step",
        "-1:1/4,0:1/2,1:1/4",
        "--evaluator",
        "additive",
        "--exact",
        "--format",
        "json",
    ];
    let long = json_of(
        &[
            &common[..],
            &[
                "--leaf",
                "-8:1/65536,-7:1/4096,-6:15/8192,-5:35/4096,-4:455/16384,-3:273/4096,-2:1001/8192,\
             -1:715/4096,0:6435/32768,1:715/4096,2:1001/8192,3:273/4096,4:455/16384,5:35/4096,\
             6:15/8192,7:1/4096,8:1/65536",
                "--noise",
                "-4:1/256,-3:1/32,-2:7/64,-1:7/32,0:35/128,1:7/32,2:7/64,3:1/32,4:1/256",
            ],
        ]
        .concat(),
    );
    let short = json_of(
        &[
            &common[..],
            &["--leaf", "binomial:16", "--noise", "binomial:8"],
        ]
        .concat(),
    );
    let rows = |report: &Value| -> Vec<Value> {
        report["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["rows"].clone())
            .collect()
    };
    assert_eq!(rows(&long), rows(&short));
    assert_eq!(short["manifest"]["parameters"]["leaf"], "binomial:16");
    for bad in ["binomial:0", "binomial:1025", "binomial:x", "binomial:"] {
        refused(
            &["decision", "--game", "sum", "--height", "4", "--leaf", bad],
            &["--leaf", "binomial:N with N a whole number in 1..=1024"],
        );
    }
    let help = stdout_of(&["decision", "--help"]);
    assert!(help.contains("binomial:N"), "{help}");
}
