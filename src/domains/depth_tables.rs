//! The two tables every domain report has: `accuracy` (one row per search depth, over every
//! position) and its split by the position's true distance (`by_dtm` for the chess endgames,
//! `by_distance` for the 8-puzzle), exact or sampled. The domains differ only in the split's
//! name, the value columns and the captions, so one builder serves both.

use crate::report::{Cell, Column, Kind, Report, Table};
use crate::sim::stats::Proportion;

/// What a domain's two depth tables are called and hold.
pub(crate) struct DepthTables<'a> {
    /// The split table's name (`by_dtm`, `by_distance`).
    pub split_table: &'a str,
    /// The split table's key column after `d` (`dtm`, `distance`).
    pub split_key: &'a str,
    /// The caption of `accuracy`.
    pub caption: &'a str,
    /// The caption of the split table.
    pub split_caption: &'a str,
    /// The value columns after the keys, the same in both tables.
    pub columns: Vec<Column>,
}

impl DepthTables<'_> {
    /// `report` with the two tables: each row of `rows` gives its depth, its true distance
    /// (`None` on a row over every position, which goes into `accuracy`) and its value cells.
    pub(crate) fn build<R>(
        self,
        report: Report,
        rows: &[R],
        row: impl Fn(&R) -> (u32, Option<u8>, Vec<Cell>),
    ) -> Report {
        let columns = |split: bool| {
            let mut columns = vec![Column::key("d", Kind::Integer)];
            if split {
                columns.push(Column::key(self.split_key, Kind::Integer));
            }
            columns.extend(self.columns.iter().cloned());
            columns
        };
        let mut all = Table::new("accuracy", self.caption, columns(false));
        let mut split = Table::new(self.split_table, self.split_caption, columns(true));
        for r in rows {
            let (depth, distance, values) = row(r);
            let mut cells = vec![Cell::int(depth)];
            match distance {
                None => {
                    cells.extend(values);
                    all.push(cells);
                }
                Some(distance) => {
                    cells.push(Cell::int(distance));
                    cells.extend(values);
                    split.push(cells);
                }
            }
        }
        report.with_table(all).with_table(split)
    }
}

/// A sampled proportion's estimate and 95% interval; empty when it has no trials.
pub(crate) fn interval(p: Proportion) -> Cell {
    if p.trials == 0 {
        return Cell::Empty;
    }
    let c = p.compare(None);
    Cell::Interval {
        estimate: c.estimate,
        lower: c.ci_low,
        upper: c.ci_high,
    }
}
