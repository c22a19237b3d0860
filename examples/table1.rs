//! Regenerates Li & Marsland's Table 1 from Rust code, exactly, and prints it as Markdown:
//! `cargo run --release --example table1`.

use num_rational::BigRational;
use pathology::analytic::dgame::DecisionColumn;
use pathology::analytic::dgame::report::{Layout, decision_report};
use pathology::analytic::dgame::table::PaperTable;
use pathology::numeric::number::Probability;
use pathology::report::{ExportOptions, Format, Report};

fn main() -> pathology::Result<()> {
    let columns: Vec<DecisionColumn<BigRational>> = PaperTable::One.compute()?;
    let report = decision_report(
        Report::new("table", PaperTable::One.caption())
            .param("_", 1)
            .param("exact", true),
        &columns,
        &PaperTable::One.settings(),
        Layout::DepthRows,
        None,
    );
    print!(
        "{}",
        report.render(Format::Markdown, &ExportOptions::default())?
    );
    // The exact value behind the first cell, correctly rounded to 20 decimals.
    println!(
        "\nD(1,10) at f1 = f2 = 0.1 = {}",
        columns[0].value(1).to_decimal(20)
    );
    Ok(())
}
