//! Li & Marsland's Fig. 4 (Section 6.2): the pathological sum PS against f1 for p0 = 1/2
//! (f2 from Theorem 3.1) at h = 10, 12, 13, and the count of pathological adjacent pairs at
//! h = 10 ("only 167 pairs" among some 100 settings), as [`Report`]s.

use num_rational::BigRational;
use rayon::prelude::*;

use crate::analytic::dgame::report::{probability_cell, ps_error_bound};
use crate::analytic::dgame::table::compute_columns;
use crate::analytic::dgame::threshold::{DecisionCounts, classify_pairs};
use crate::error::Result;
use crate::report::{Cell, Column, Kind, Report, Table};

/// The heights of Fig. 4.
pub const FIGURE_4_HEIGHTS: [u32; 3] = [10, 12, 13];

/// Fig. 4's settings: f1 = k/100 for k in `ks`, f2 from Theorem 3.1 at p0 = 1/2.
///
/// # Examples
///
/// ```
/// use pathology::studies::li_marsland::figure_4::figure_4_settings;
/// use pathology::numeric::number::parse_rational;
/// let s = figure_4_settings(0..=0).unwrap();
/// assert_eq!(s[0].1, parse_rational("1/3").unwrap());
/// ```
///
/// # Errors
///
/// As [`crate::analytic::dgame::f2_from_p0`] (never for these settings).
pub fn figure_4_settings(ks: impl Iterator<Item = u32>) -> Result<Vec<(BigRational, BigRational)>> {
    let half = BigRational::new(1.into(), 2.into());
    ks.map(|k| {
        let f1 = BigRational::new(k.into(), 100.into());
        let f2 = crate::analytic::dgame::f2_from_p0(&f1, &half)?;
        Ok((f1, f2))
    })
    .collect()
}

/// The data of Fig. 4: a table `ps` (`h`, `f1`, `f2`, `PS` with its error bound) over
/// f1 = k/100, k = 1..99, for each height of [`FIGURE_4_HEIGHTS`].
///
/// # Errors
///
/// When a computation is refused (never for these settings).
pub fn figure_4_report() -> Result<Report> {
    let settings = figure_4_settings(1..=99)?;
    let float: Vec<(f64, f64)> = settings
        .iter()
        .map(|(a, b)| {
            (
                crate::numeric::number::rational_to_f64(a),
                crate::numeric::number::rational_to_f64(b),
            )
        })
        .collect();
    let mut table = Table::new(
        "ps",
        "the pathological sum PS for p0 = 1/2 (f2 from Theorem 3.1)",
        vec![
            Column::key("h", Kind::Integer),
            Column::key("f1", Kind::Real),
            Column::key("f2", Kind::Real),
            Column::new("PS", Kind::Real),
        ],
    );
    for h in FIGURE_4_HEIGHTS {
        for (c, (f1, f2)) in compute_columns::<f64>(&float, h)?.iter().zip(&settings) {
            table.push(vec![
                Cell::int(h),
                Cell::Exact(f1.clone()),
                Cell::Exact(f2.clone()),
                probability_cell(&c.pathological_sum(), ps_error_bound(c)),
            ]);
        }
    }
    Ok(Report::new(
        "errprop figures",
        "Li & Marsland Fig. 4: PS for p0 = 0.5 (f2 from Theorem 3.1)",
    )
    .with_table(table))
}

/// Pathological pair counts at one height over a set of settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairCounts {
    /// Pairs with D(d-1,h) > D(d,h), every sign decision certified or exact.
    pub exact: usize,
    /// Pairs with D(d-1,h) > D(d,h) in plain f64 comparisons.
    pub naive: usize,
    /// Pairs examined.
    pub pairs: usize,
    /// How the sign decisions were reached (undecided ones count as not pathological).
    pub decisions: DecisionCounts,
    /// Pairs where the naive f64 comparison and the exact decision differ.
    pub disagreements: usize,
}

/// Counts the pathological adjacent pairs at height `height` over `settings`.
///
/// # Errors
///
/// When a computation is refused.
pub fn count_pathological_pairs(
    settings: &[(BigRational, BigRational)],
    height: u32,
) -> Result<PairCounts> {
    let float: Vec<(f64, f64)> = settings
        .iter()
        .map(|(a, b)| {
            (
                crate::numeric::number::rational_to_f64(a),
                crate::numeric::number::rational_to_f64(b),
            )
        })
        .collect();
    let columns = compute_columns::<f64>(&float, height)?;
    let naive = columns
        .iter()
        .map(|c| c.values.windows(2).filter(|w| w[0] > w[1]).count())
        .sum();
    let classified: Vec<_> = settings
        .par_iter()
        .map(|(a, b)| classify_pairs(a, b, height))
        .collect::<Result<_>>()?;
    let disagreements = columns
        .iter()
        .zip(&classified)
        .map(|(column, exact)| {
            column
                .values
                .windows(2)
                .zip(&exact.pairs)
                .filter(|(w, (pathological, _))| (w[0] > w[1]) != *pathological)
                .count()
        })
        .sum();
    Ok(PairCounts {
        exact: classified
            .iter()
            .map(|c| c.pathological_depths().len())
            .sum(),
        naive,
        pairs: classified.iter().map(|c| c.pairs.len()).sum(),
        decisions: classified.iter().map(|c| c.counts()).sum(),
        disagreements,
    })
}

/// The pathological pair counts at h = 10 (the paper: 167) as a table `pairs` (`h`,
/// `settings`, `pairs`, `pathological` (certified), `naive` (plain f64 comparisons),
/// `disagreements`) with rows for the grid f1 = k/100, k = 1..99, for f1 = 0 and the total.
///
/// # Errors
///
/// When a computation is refused.
pub fn figure_4_pair_report() -> Result<Report> {
    let grid = figure_4_settings(1..=99)?;
    let zero = figure_4_settings(0..=0)?;
    let on_grid = count_pathological_pairs(&grid, 10)?;
    let at_zero = count_pathological_pairs(&zero, 10)?;
    let mut table = Table::new(
        "pairs",
        "Pathological adjacent pairs D(d-1,10) > D(d,10), p0 = 1/2, f2 from Theorem 3.1",
        vec![
            Column::key("h", Kind::Integer),
            Column::key("settings", Kind::Text),
            Column::new("pairs", Kind::Integer),
            Column::new("pathological", Kind::Integer).labelled("pathological (certified)"),
            Column::new("naive", Kind::Integer).labelled("naive f64"),
            Column::new("disagreements", Kind::Integer),
        ],
    );
    let total = |f: fn(&PairCounts) -> usize| f(&on_grid) + f(&at_zero);
    for (label, pairs, exact, naive, disagreements) in [
        (
            "f1 = k/100, k = 1..99",
            on_grid.pairs,
            on_grid.exact,
            on_grid.naive,
            on_grid.disagreements,
        ),
        (
            "f1 = 0 (f2 = 1/3)",
            at_zero.pairs,
            at_zero.exact,
            at_zero.naive,
            at_zero.disagreements,
        ),
        (
            "total (100 settings)",
            total(|c| c.pairs),
            total(|c| c.exact),
            total(|c| c.naive),
            total(|c| c.disagreements),
        ),
    ] {
        table.push(vec![
            Cell::int(10u32),
            Cell::text(label),
            Cell::int(pairs as u64),
            Cell::int(exact as u64),
            Cell::int(naive as u64),
            Cell::int(disagreements as u64),
        ]);
    }
    Ok(Report::new(
        "errprop figures",
        "Li & Marsland Section 6.2: \"only 167 pairs\" among some 100 settings",
    )
    .with_table(table)
    .note(format!(
        "total over the 100 settings: exact {}, naive f64 {}; the two differ on {} pairs.",
        total(|c| c.exact),
        total(|c| c.naive),
        total(|c| c.disagreements)
    ))
    .note(format!(
        "Sign decisions on the grid: {}.",
        on_grid.decisions.summary()
    ))
    .note(
        "Float noise: D(h-1,h) and D(h,h) are both exactly 1, and any f64 computation that \
         returns them as 1 +- 1e-16 turns their comparison into a coin flip that fakes \
         pathological pairs, so a naive float count can only be trusted where every decision \
         is certified. Here every decision is certified by a rigorous error bound or a theorem, \
         or made in exact rationals. (This engine's f64 path happens to return both as exactly \
         1.0 at these settings, so its naive count agrees on this grid.)",
    ))
}
