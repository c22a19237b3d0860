//! Iterates Li & Marsland's gamma/delta map (formulas 3-4) from (0.3, 0.2) for three
//! dependence factors and draws the trajectories: `cargo run --release --example
//! trajectory_plot -- /tmp/trajectories.png`.

use pathology::analytic::errprop::{BackUp, ErrorPair, trajectory};
use pathology::plot::{Series, trajectories};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "trajectories.png".to_string());
    let mut series = Vec::new();
    for f in [0.45, 0.6, 0.75] {
        let points = trajectory(ErrorPair::new(0.3, 0.2)?, &f, &f, BackUp::Max, 12)?;
        println!(
            "f1 = f2 = {f}: after 12 back-ups gamma = {:.4}, delta = {:.4}",
            points[12].gamma, points[12].delta
        );
        series.push(Series {
            label: format!("f1 = f2 = {f}"),
            points: points.iter().map(|p| (p.gamma, p.delta)).collect(),
        });
    }
    trajectories(
        std::path::Path::new(&path),
        "gamma/delta trajectories from (0.3, 0.2)",
        &series,
        pathology::plot::Style::Screen,
    )?;
    println!("drawn to {path}");
    Ok(())
}
