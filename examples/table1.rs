//! Regenerates Li & Marsland's Table 1 from Rust code, exactly, and prints it as Markdown:
//! `cargo run --release --example table1`.

use num_rational::BigRational;
use pathology::dgame::DecisionColumn;
use pathology::dgame::table::PaperTable;
use pathology::number::Probability;
use pathology::output::{DecisionTable, Format, Layout};

fn main() -> pathology::Result<()> {
    let columns: Vec<DecisionColumn<BigRational>> = PaperTable::One.compute()?;
    let table = DecisionTable {
        title: PaperTable::One.caption().to_string(),
        columns: &columns,
        layout: Layout::DepthRows,
        decimals: 3,
        only_depth: None,
        labels: None,
    };
    print!("{}", table.render(Format::Markdown));
    // The exact value behind the first cell, correctly rounded to 20 decimals.
    println!(
        "\nD(1,10) at f1 = f2 = 0.1 = {}",
        columns[0].value(1).to_decimal(20)
    );
    Ok(())
}
