//! `pathology table 1|2`: Li & Marsland's Tables 1 and 2.

use crate::analytic::dgame::report::paper_table_report;
use crate::analytic::dgame::table::PaperTable;

use super::args::TableOutput;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which table: 1 (f1 = f2 = i/10) or 2 (f1 = i/10, f2 = 1 - f1).
    #[arg(value_name = "TABLE", value_parser = table_number, allow_negative_numbers = true)]
    number: u32,
    #[command(flatten)]
    output: TableOutput,
}

/// `table`'s number, its error naming the command (not only `'<NUMBER>'`).
fn table_number(text: &str) -> Result<u32, String> {
    super::args::whole_in::<u32>(1, 2)(text).map_err(|_| {
        format!(
            "`pathology table` takes a table number in 1..=2 (Li & Marsland's Tables 1 and 2), \
             got {text}"
        )
    })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let table = PaperTable::from_number(args.number)?;
    let report = paper_table_report(table, args.output.exact)?;
    args.output.output.emit(&report, 3)
}
