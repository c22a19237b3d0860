//! Unit tests of `validate.rs` (moved out of it to keep the file under 1,200 lines).

use super::*;

#[test]
fn erfc_matches_known_values() {
    // Reference values from mpmath at 30 digits, rounded to f64; libm's erfc is within a few 1e-16 of
    // them (the hand-written series it replaces was off by up to 1.04e-13).
    let cases = [
        (0.0, 1.0),
        (0.1, 0.887_537_083_981_715),
        (0.5, 0.479_500_122_186_953_5),
        (1.0, 0.157_299_207_050_285_13),
        (1.5, 0.033_894_853_524_689_274),
        (2.0, 0.004_677_734_981_047_266),
        (3.0, 2.209_049_699_858_544e-5),
        (4.0, 1.541_725_790_028_002e-8),
        (5.0, 1.537_459_794_428_035e-12),
        (10.0, 2.088_487_583_762_545e-45),
        (20.0, 5.395_865_611_607_901e-176),
        (-1.0, 1.842_700_792_949_714_8),
    ];
    for (x, expected) in cases {
        let got = erfc(x);
        assert!(
            ((got - expected) / expected).abs() < 1e-15,
            "erfc({x}) = {got:e}, want {expected:e}"
        );
    }
    assert!(erfc(f64::NAN).is_nan());
    assert_eq!(erfc(f64::INFINITY), 0.0);
    assert_eq!(erfc(f64::NEG_INFINITY), 2.0);
}

#[test]
fn holm_adjusts_step_down() {
    // p-values 0.01, 0.04, 0.03 with m = 3: adjusted 0.03, 0.06, 0.06.
    let mut rows: Vec<CheckedRow> = [0.01, 0.04, 0.03]
        .iter()
        .enumerate()
        .map(|(i, &p)| CheckedRow {
            line: i as u64 + 2,
            kind: "rhf".into(),
            parameters: String::new(),
            estimate: 0.0,
            trials: 1,
            exact: 0.0,
            z: 0.0,
            p_value: p,
            verdict: Verdict::Agrees,
            holm_p_value: p,
            holm_verdict: Verdict::Agrees,
        })
        .collect();
    apply_holm(&mut rows, 0.05);
    let adjusted: Vec<f64> = rows.iter().map(|r| r.holm_p_value).collect();
    for (a, b) in adjusted.iter().zip([0.03, 0.06, 0.06]) {
        assert!((a - b).abs() < 1e-12, "{adjusted:?}");
    }
    assert_eq!(rows[0].holm_verdict, Verdict::Disagrees);
    assert_eq!(rows[2].holm_verdict, Verdict::Agrees);
    assert_eq!(rows[2].verdict, Verdict::Disagrees);
}

#[test]
fn malformed_rows_are_reported_and_the_rest_checked() {
    let csv = "kind,h,d,f1,f2,w,estimate,trials\n\
               dgame,10,1,0.1,0.1,,0.607,1000\n\
               dgame,10,11,0.1,0.1,,0.6,1000\n\
               dgame,10,1,abc,0.1,,0.6,1000\n\
               chess,10,1,0.1,0.1,,0.6,1000\n\
               rhf,,,,,0.2,0.14,0\n\
               rhf,,,,,0.2,1.5,100\n\
               rhf,,,,,0.2,0.14,100\n";
    let report = validate(csv.as_bytes(), 0.05).unwrap();
    assert_eq!(report.rows.len(), 2);
    let lines: Vec<u64> = report.errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![3, 4, 5, 6, 7]);
    assert!(
        report.errors[0].reason.contains("'d'"),
        "{}",
        report.errors[0].reason
    );
    assert!(report.errors[2].reason.contains("unknown kind 'chess'"));
    assert!(report.errors[3].reason.contains("'trials'"));
    assert!(report.errors[4].reason.contains("'estimate'"));
}

#[test]
fn whole_file_problems_are_errors() {
    assert!(validate("".as_bytes(), 0.05).is_err());
    assert!(validate("kind,estimate\ndgame,0.5\n".as_bytes(), 0.05).is_err());
    assert!(validate("kind,estimate,trials\n".as_bytes(), 1.5).is_err());
    let long = format!(
        "kind,estimate,trials\n{}\n",
        "x".repeat(MAX_LINE_BYTES + 10)
    );
    let err = validate(long.as_bytes(), 0.05).unwrap_err();
    assert!(err.to_string().contains("longer than"), "{err}");
}

#[test]
fn errprop_and_rhf_rows_use_the_exact_values() {
    let csv = "kind,gamma,delta,f1,f2,steps,quantity,w,estimate,trials\n\
               errprop,0.3,0.2,0.9,0.9,0,gamma,,0.3,1000\n\
               rhf,,,,,,,0.6,0,1000\n";
    let report = validate(csv.as_bytes(), 0.05).unwrap();
    assert_eq!(report.rows[0].exact, 0.3);
    assert_eq!(report.rows[0].z, 0.0);
    assert_eq!(report.rows[1].exact, 0.0);
    assert_eq!(report.rows[1].p_value, 1.0);
}
