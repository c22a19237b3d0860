//! The tables of [`super::accuracy_by_depth`]: `accuracy` (one row per depth, every
//! position), `by_distance` (one row per depth and true distance) and `distances` (the
//! solved puzzle: states at each distance).

use super::{DomainReport, ExactRow, Method, Noise, Rows, SampledRow};
use crate::domains::depth_tables::{DepthTables, interval};
use crate::report::{Cell, Column, Kind, Report, Table};

/// The tables a report has, for `--table`.
pub const TABLES: [&str; 3] = ["accuracy", "by_distance", "distances"];

/// The report of a result.
///
/// # Examples
///
/// ```
/// use pathology::domains::eight_puzzle::{PuzzleConfig, accuracy_by_depth, report};
/// let r = report(&accuracy_by_depth(&PuzzleConfig::exact(vec![3])).unwrap());
/// assert_eq!(r.tables[1].name, "by_distance");
/// assert_eq!(r.tables[2].rows.len(), 32); // distances 0..=31
/// ```
pub fn report(result: &DomainReport) -> Report {
    let s = &result.config;
    let depths: Vec<String> = s.depths.iter().map(u32::to_string).collect();
    let title = format!(
        "8-puzzle: depth-d minimin decisions at every state ({} heuristic{}{})",
        s.heuristic.name(),
        s.levels
            .map(|g| format!(", {g} levels over [{}, {}]", result.range.0, result.range.1))
            .unwrap_or_default(),
        match &s.noise {
            Noise::None => String::new(),
            n => format!(", noise {}", n.text()),
        }
    );
    let mut report = Report::new("domain eight-puzzle", &title)
        .param("heuristic", s.heuristic.name())
        .param("noise", s.noise.text());
    if let Some(g) = s.levels {
        report = report.param("levels", g);
    }
    report = report
        .param("depth", depths.join(","))
        .param("method", s.method.name());
    report = match &result.rows {
        Rows::Exact(rows) => {
            let report = if matches!(s.noise, Noise::Discrete(_)) {
                report.param("threads", s.run.threads())
            } else {
                report
            };
            exact_tables(report.mode("exact"), rows)
        }
        Rows::Sampled(rows) => {
            let report = sampled_tables(s.run.run().params(report), rows);
            match &result.fallback {
                Some(why) if s.method == Method::Auto => report.note(format!(
                    "Sampled because the exact route was refused: {why}"
                )),
                _ => report,
            }
        }
    };
    let mut distances = Table::new(
        "distances",
        "The solved puzzle: states at each optimal solution length (breadth-first search from \
         the goal 1 2 3 / 4 5 6 / 7 8 _)",
        vec![
            Column::key("distance", Kind::Integer),
            Column::new("states", Kind::Integer),
        ],
    );
    for (d, &n) in result.histogram.iter().enumerate() {
        distances.push(vec![Cell::int(d as u64), Cell::int(n)]);
    }
    report.with_table(distances).note(
        "Depth-d minimin: every path of d moves (fewer when it reaches the goal, which scores \
         0) scored by moves made plus the heuristic at its end; states may be revisited; the \
         first move of a best path is made, ties broken uniformly at random. A decision is \
         correct when the move leads one step nearer the goal. Positions: the 181,439 states \
         other than the goal.",
    )
}

fn exact_tables(report: Report, rows: &[ExactRow]) -> Report {
    DepthTables {
        split_table: "by_distance",
        split_key: "distance",
        caption: "Exact decision accuracy at depth d over every position; d+1 worse: the fraction \
                  of positions where depth d + 1 decides correctly with a smaller probability \
                  (local pathology); mean drop: the mean over positions of max(0, P_d - P_{d+1})",
        split_caption: "The same, split by the position's true distance to the goal",
        columns: vec![
            Column::new("positions", Kind::Integer),
            Column::new("correct", Kind::Real).labelled("P(correct)"),
            Column::new("worse_next", Kind::Real).labelled("d+1 worse"),
            Column::new("mean_drop", Kind::Real).labelled("mean drop"),
        ],
    }
    .build(report, rows, |row| {
        (
            row.depth,
            row.distance,
            vec![
                Cell::int(row.positions),
                Cell::Exact(row.correct.clone()),
                Cell::Exact(row.worse.clone()),
                Cell::Exact(row.mean_drop.clone()),
            ],
        )
    })
}

fn sampled_tables(report: Report, rows: &[SampledRow]) -> Report {
    DepthTables {
        split_table: "by_distance",
        split_key: "distance",
        caption: "Monte Carlo decision accuracy at depth d (noise drawn per search node; roots \
                  drawn uniformly from the positions), with 95% Wilson intervals",
        split_caption: "The same, split by the root's true distance to the goal",
        columns: vec![
            Column::new("trials", Kind::Integer),
            Column::new("successes", Kind::Integer),
            Column::new("correct", Kind::Interval).labelled("P(correct) [95% CI]"),
        ],
    }
    .build(report, rows, |row| {
        (
            row.depth,
            row.distance,
            vec![
                Cell::int(row.correct.trials),
                Cell::int(row.correct.successes),
                interval(row.correct),
            ],
        )
    })
    .note(
        "Sampled: local pathology per position is not estimated (each trial searches each \
         depth with independent noise); compare the depths' intervals.",
    )
}
