//! Validates a simulation from Rust code: runs the tool's own D-game Monte Carlo (standing
//! in for a researcher's simulator), adds one deliberately biased estimate, and checks all of
//! them against the exact D(d,h) with Holm's correction:
//! `cargo run --release --example validate_simulation`.

use std::fmt::Write as _;

use pathology::analytic::dgame::DependenceFactors;
use pathology::sim::runner::TrialRunner;
use pathology::studies::crossval::dgame::{Engine, estimate_decisions};
use pathology::validate::validate;

fn main() -> pathology::Result<()> {
    let (height, trials) = (8, 20_000);
    let factors = DependenceFactors::new(0.25, 0.25)?;
    let runner = TrialRunner::new(trials, 7, 2)?;
    let rows = estimate_decisions(&factors, height, Engine::Fast, &runner)?;
    let mut csv = String::from("kind,h,d,f1,f2,estimate,trials\n");
    for r in &rows {
        let _ = writeln!(
            csv,
            "dgame,{height},{},0.25,0.25,{},{trials}",
            r.d, r.comparison.estimate
        );
    }
    // A biased simulator: 5 standard errors too optimistic at depth 1 (a whole number of
    // successes: `validate` refuses an estimate impossible for its trial count).
    let exact = rows[0].comparison.exact.unwrap_or(0.5);
    let n = trials as f64;
    let biased = ((exact + 5.0 * (exact * (1.0 - exact) / n).sqrt()) * n).round() / n;
    let _ = writeln!(csv, "dgame,{height},1,0.25,0.25,{biased},{trials}");
    let report = validate(csv.as_bytes(), 0.05)?;
    for r in &report.rows {
        println!(
            "line {:2}  {:28} estimate {:.4}  exact {:.4}  z {:+6.2}  Holm p {:.2e}  {:?}",
            r.line, r.parameters, r.estimate, r.exact, r.z, r.holm_p_value, r.holm_verdict
        );
    }
    println!("{}", report.summary());
    Ok(())
}
