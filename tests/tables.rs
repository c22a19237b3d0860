//! Li & Marsland's Tables 1 and 2, transcribed in `tests/data/`, against the exact engine:
//! all 99 entries of each table (90 D values and 9 PS) at 3 decimals.

use num_rational::BigRational;
use pathology::analytic::dgame::DecisionColumn;
use pathology::analytic::dgame::table::PaperTable;
use pathology::numeric::number::{Probability, parse_rational};

/// A transcribed table: the (f1, f2) of each column and the printed rows, `d = 1..=10` then PS.
struct Golden {
    settings: Vec<(BigRational, BigRational)>,
    rows: Vec<(String, Vec<String>)>,
}

fn golden(name: &str) -> Golden {
    let path = format!("{}/tests/data/{name}.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header = lines.next().expect("header");
    let settings = header
        .split(',')
        .skip(1)
        .map(|s| {
            let (a, b) = s.split_once('/').expect("f1/f2");
            (parse_rational(a).unwrap(), parse_rational(b).unwrap())
        })
        .collect();
    let rows = lines
        .map(|l| {
            let mut cells = l.split(',').map(str::to_string);
            let label = cells.next().unwrap();
            (label, cells.collect())
        })
        .collect();
    Golden { settings, rows }
}

fn check_table(table: PaperTable) {
    let golden = golden(&format!("table{}", table.number()));
    assert_eq!(
        golden.settings,
        table.settings(),
        "column order of the transcription"
    );
    assert_eq!(golden.rows.len(), 11);
    let columns: Vec<DecisionColumn<BigRational>> = table.compute().unwrap();
    let mut compared = 0;
    for (label, printed) in &golden.rows {
        for (column, expected) in columns.iter().zip(printed) {
            let value = if label == "PS" {
                column.pathological_sum()
            } else {
                column.value(label.parse().unwrap()).clone()
            };
            assert_eq!(
                &value.to_decimal(3),
                expected,
                "Table {} row {label}, f1 = {}, f2 = {}",
                table.number(),
                column.factors.f1(),
                column.factors.f2()
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 99);
}

#[test]
fn table_1_matches_the_paper_cell_for_cell() {
    check_table(PaperTable::One);
}

#[test]
fn table_2_matches_the_paper_cell_for_cell() {
    check_table(PaperTable::Two);
}

/// The CLI's exact JSON carries the same values: each `exact` string rounds to the printed cell.
#[test]
fn cli_exact_json_reproduces_table_1() {
    let output = crate::common::pathology()
        .args(["table", "1", "--exact", "--format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let golden = golden("table1");
    let cells = doc["tables"][0]["rows"].as_array().unwrap();
    assert_eq!(cells.len(), 90);
    for cell in cells {
        let d = cell["d"].as_u64().unwrap() as usize;
        let f1 = parse_rational(cell["f1_exact"].as_str().unwrap()).unwrap();
        let column = golden.settings.iter().position(|(a, _)| *a == f1).unwrap();
        let exact = parse_rational(cell["D_exact"].as_str().unwrap()).unwrap();
        assert_eq!(exact.to_decimal(3), golden.rows[d - 1].1[column]);
        assert!((cell["D"].as_f64().unwrap() - exact.to_f64()).abs() == 0.0);
    }
    let ps = doc["tables"][1]["rows"].as_array().unwrap();
    assert_eq!(ps.len(), 9);
    for (entry, expected) in ps.iter().zip(&golden.rows[10].1) {
        let exact = parse_rational(entry["PS_exact"].as_str().unwrap()).unwrap();
        assert_eq!(&exact.to_decimal(3), expected);
    }
}

/// The float path prints the same table (agreement with exact is tested to 1e-12 in the
/// library; here the user-visible output).
#[test]
fn float_tables_print_the_same_decimals_as_exact_ones() {
    for table in [PaperTable::One, PaperTable::Two] {
        let exact: Vec<DecisionColumn<BigRational>> = table.compute().unwrap();
        let float: Vec<DecisionColumn<f64>> = table.compute().unwrap();
        for (e, f) in exact.iter().zip(&float) {
            for d in 1..=10 {
                assert_eq!(e.value(d).to_decimal(3), f.value(d).to_decimal(3));
                assert!((e.value(d).to_f64() - f.value(d)).abs() <= 1e-12);
            }
            assert!((e.pathological_sum().to_f64() - f.pathological_sum()).abs() <= 1e-12);
        }
    }
}
