//! The tables of [`super::accuracy_by_depth`]: `accuracy` (one row per depth, every root),
//! `by_dtm` (one row per depth and root DTM) and `endgame` (the solved endgame's facts).

use num_bigint::BigInt;
use num_rational::BigRational;

use super::{DomainReport, ExactRow, Noise, Rows, SampledRow};
use crate::domains::depth_tables::{DepthTables, interval};
use crate::report::{Cell, Column, Kind, Report, Table};

/// The tables a report has, for `--table`.
pub const TABLES: [&str; 3] = ["accuracy", "by_dtm", "endgame"];

/// The report of a result.
///
/// # Examples
///
/// ```no_run
/// use pathology::domains::chess::{ChessConfig, Piece, accuracy_by_depth, report};
/// let r = report(&accuracy_by_depth(&ChessConfig::exact(Piece::Queen, vec![1, 2])).unwrap());
/// assert_eq!(r.tables[0].name, "accuracy");
/// ```
pub fn report(result: &DomainReport) -> Report {
    let s = &result.config;
    let name = s.piece.endgame();
    let depths: Vec<String> = s.depths.iter().map(u32::to_string).collect();
    let title = format!(
        "{}: depth-d minimax decisions over every won White-to-move position ({} heuristic{}{})",
        name.to_uppercase(),
        s.heuristic.name(),
        s.levels
            .map(|g| format!(", {g} levels"))
            .unwrap_or_default(),
        match &s.noise {
            Noise::None => String::new(),
            n => format!(", noise {}", n.text()),
        }
    );
    let mut report = Report::new(&format!("domain {name}"), &title)
        .param("heuristic", s.heuristic.name())
        .param("noise", s.noise.text());
    if let Some(g) = s.levels {
        report = report.param("levels", g);
    }
    report = report.param("depth", depths.join(","));
    report = match (&result.rows, s.run) {
        (Rows::Exact(rows), _) => exact_tables(report.mode("exact"), rows),
        (Rows::Sampled(rows), Some(run)) => sampled_tables(run.params(report), rows),
        (Rows::Sampled(rows), None) => sampled_tables(report, rows),
    };
    let f = &result.facts;
    let mut facts = Table::new(
        "endgame",
        "The solved endgame (retrograde analysis; DTM in White's moves)",
        vec![
            Column::key("fact", Kind::Text),
            Column::new("value", Kind::Integer),
        ],
    );
    for (fact, value) in [
        ("legal positions, White to move", f.white_positions),
        ("legal positions, Black to move", f.black_positions),
        ("won, White to move (the roots)", f.won_white),
        ("won, Black to move", f.won_black),
        ("checkmates", f.mates),
        ("stalemates", f.stalemates),
        ("longest win, White to move", u64::from(f.longest_white)),
        ("longest win, Black to move", u64::from(f.longest_black)),
        ("heuristic's least value (lo)", 0),
        ("heuristic's largest value (hi)", 0),
    ] {
        let cell = match fact {
            "heuristic's least value (lo)" => Cell::int(result.range.0),
            "heuristic's largest value (hi)" => Cell::int(result.range.1),
            _ => Cell::int(value),
        };
        facts.push(vec![Cell::text(fact), cell]);
    }
    report = report.with_table(facts);
    report
        .note(
            "A decision is White's move at a won position: it keeps the win when the move's \
             result is still won, and is a fastest win when the result's DTM is one less. \
             Ties among the best-valued moves are broken uniformly at random.",
        )
        .note(
            "Search: d plies from White's move; mate scores above every heuristic value (sooner \
             mates higher), stalemate and the piece's capture below every value.",
        )
}

fn exact_tables(report: Report, rows: &[ExactRow]) -> Report {
    DepthTables {
        split_table: "by_dtm",
        split_key: "dtm",
        caption: "Exact decision accuracy at depth d over every won position; d+1 worse: the \
                  fraction of positions where depth d + 1 decides correctly with a smaller \
                  probability (local pathology)",
        split_caption: "The same, split by the position's true distance to mate",
        columns: vec![
            Column::new("positions", Kind::Integer),
            Column::new("keeps_win", Kind::Real).labelled("P(keeps win)"),
            Column::new("fastest_win", Kind::Real).labelled("P(fastest win)"),
            Column::new("worse_next_keep", Kind::Real).labelled("d+1 worse (keep)"),
            Column::new("worse_next_fastest", Kind::Real).labelled("d+1 worse (fastest)"),
        ],
    }
    .build(report, rows, |row| {
        (
            row.depth,
            row.dtm,
            vec![
                Cell::int(row.positions),
                Cell::Exact(row.keep.clone()),
                Cell::Exact(row.fastest.clone()),
                Cell::Exact(row.worse_keep.clone()),
                Cell::Exact(row.worse_fastest.clone()),
            ],
        )
    })
}

fn sampled_tables(report: Report, rows: &[SampledRow]) -> Report {
    DepthTables {
        split_table: "by_dtm",
        split_key: "dtm",
        caption: "Monte Carlo decision accuracy at depth d (noise drawn per search node; roots \
                  drawn uniformly from the won positions)",
        split_caption: "The same, split by the root's true distance to mate",
        columns: vec![
            Column::new("trials", Kind::Integer),
            Column::new("keeps", Kind::Integer),
            Column::new("keeps_win", Kind::Interval).labelled("P(keeps win) [95% CI]"),
            Column::new("fastest", Kind::Integer),
            Column::new("fastest_win", Kind::Interval).labelled("P(fastest win) [95% CI]"),
        ],
    }
    .build(report, rows, |row| {
        (
            row.depth,
            row.dtm,
            vec![
                Cell::int(row.keep.trials),
                Cell::int(row.keep.successes),
                interval(row.keep),
                Cell::int(row.fastest.successes),
                interval(row.fastest),
            ],
        )
    })
    .note(
        "With noise, local pathology per position is not estimated (each trial searches \
         each depth with independent noise); compare the depths' intervals.",
    )
}

/// An exact fraction `a / n`.
pub fn fraction(a: u64, n: u64) -> BigRational {
    BigRational::new(BigInt::from(a), BigInt::from(n.max(1)))
}
