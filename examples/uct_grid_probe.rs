use pathology::studies::nguyen_ramanujan::figure5::{Grid, grid_report, run_grid};
use pathology::report::{ExportOptions, Format};
fn main() {
    let full = std::env::args().nth(1).as_deref() == Some("full");
    let grid = Grid::paper(full);
    eprintln!("estimate {:.1} core-s", grid.core_seconds());
    let t = std::time::Instant::now();
    let results = run_grid(&grid, 20_261_121, 2).unwrap();
    eprintln!("grid {:.2} s", t.elapsed().as_secs_f64());
    let report = grid_report(&grid, 20_261_121, &results);
    let mut r = report.clone();
    r.tables.retain(|t| t.name == "claims" || t.name == "falls");
    println!("{}", r.render(Format::Text, &ExportOptions { decimals: 3, table: None }).unwrap());
    let files = pathology::plot::uct::uct_figures(std::path::Path::new("/tmp/uctfig"), &results, pathology::plot::Style::Screen).unwrap();
    eprintln!("{files:?} {:.2} s", t.elapsed().as_secs_f64());
}
