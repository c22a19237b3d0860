//! The real-domains study of `pathology reproduce` (issue 38), timed: `cargo run --release
//! --example domains_study [-- --full]` prints the claims summary and the seconds it took.

use std::time::Instant;

use pathology::domains::study::DomainStudy;
use pathology::report::{ExportOptions, Format};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let full = std::env::args().any(|a| a == "--full");
    let start = Instant::now();
    let study = DomainStudy::compute(full, 1, None)?;
    let seconds = start.elapsed().as_secs_f64();
    let mut report = study.report();
    report
        .tables
        .retain(|t| t.name == "claims" || t.name == "claims_summary");
    println!(
        "{}",
        report.render(Format::Text, &ExportOptions::default())?
    );
    println!(
        "domains study ({}): {seconds:.1} s",
        if full { "full" } else { "reduced" }
    );
    Ok(())
}
