//! The real-domains study of `pathology reproduce`, timed: `cargo run --release
//! --example domains_study [-- --full] [-- --rows]` prints the claims summary (or, with
//! `--rows`, the Markdown rows docs/domains.md quotes) and the seconds it took.

use std::time::Instant;

use pathology::domains::study::DomainStudy;
use pathology::report::{ExportOptions, Format};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let full = std::env::args().any(|a| a == "--full");
    let start = Instant::now();
    let study = DomainStudy::compute(full, pathology::reproduce::DEFAULT_SEED, None)?;
    let seconds = start.elapsed().as_secs_f64();
    if std::env::args().any(|a| a == "--rows") {
        for row in pathology::report::claims::markdown_rows(&study.claim_families()) {
            println!("{row}");
        }
    } else {
        let mut report = study.report();
        report
            .tables
            .retain(|t| t.name == "claims" || t.name == "claims_summary");
        println!(
            "{}",
            report.render(Format::Text, &ExportOptions::default())?
        );
    }
    println!(
        "domains study ({}): {seconds:.1} s",
        if full { "full" } else { "reduced" }
    );
    Ok(())
}
