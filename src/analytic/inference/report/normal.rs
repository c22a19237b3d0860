//! The best-of-n report with two normal score laws in `f64`: the continuous laws' values as
//! rigorous enclosures (`continuous::normal`), the exact limit, the cost columns, and with
//! `--lattice` the lattice's values beside.

use super::*;

/// Best-of-n with two normal score laws in `f64`: the continuous laws' `P_correct` (enclosure
/// midpoints, their half-widths as bounds), the exact limit and, with `lattice`, the
/// lattice's value and the difference beside.
pub(super) fn best_of_n_report(
    command: &str,
    request: &InferenceRequest,
    values: &[crate::numeric::enclosure::Enclosure],
    prices: &Prices,
    lattice: bool,
) -> Result<Report> {
    let InferenceRequest::BestOfN {
        tasks,
        score_correct,
        score_wrong,
        ns,
    } = request
    else {
        unreachable!("a best-of-n request");
    };
    let lattice_rows = if lattice {
        Some(best_of_n::<f64>(tasks, score_correct, score_wrong, ns)?.rows)
    } else {
        None
    };
    let limit = super::super::continuous::normal_limit(tasks, score_correct, score_wrong)
        .expect("normal laws");
    let ContinuousTable {
        table,
        rows,
        best_at,
        widest,
        farthest,
    } = continuous_table(
        "best_of_n",
        "best-of-n with the continuous normal laws: the sample of the largest verifier score",
        "n",
        ns,
        values,
        lattice_rows.map(|rows| rows.into_iter().map(|r| r.correct).collect()),
        prices,
    );
    let mut limit_table = Table::new(
        "limit",
        "the limit as n grows: the largest score is from the law with the heavier upper tail",
        vec![
            Column::key("n", Kind::Text),
            real("P_correct", "P_correct"),
            real("P_false_positive", "P_false_positive"),
        ],
    );
    let one = BigRational::from_integer(1.into());
    limit_table.push(vec![
        Cell::text("infinity"),
        Cell::Exact(limit.clone()),
        Cell::Exact(&one - &limit),
    ]);
    let mut report = priced(
        Report::new(command, "best-of-n")
            .param("tasks", tasks.given_text())
            .param("score_correct", score_correct.text())
            .param("score_wrong", score_wrong.text())
            .param("n", list_text(ns)),
        prices,
    )
    .with_table(table)
    .with_table(limit_table)
    .mode("f64")
    .note(super::super::compute::sample_note(
        "samples: n per task; verifier_calls: n scores (each sample scored once)",
        prices,
    ))
    .note(format!(
        "the largest P_correct over the list is at n = {best_at}; {}; as n grows P_correct \
             tends to {} (per task type 1, 0 or R as the correct law's upper tail is heavier, \
             lighter or the same: the larger S, or at equal S the larger MU)",
        first_below(tasks, "n", rows.iter().map(|(n, b)| (*n, b))),
        short_text(&limit)
    ))
    .note(format!(
        "continuous laws: {}, {}; P_correct = sum W n R int f_c G^(n-1) dx with G = R F_c + \
             (1 - R) F_w, each value the midpoint of a rigorous enclosure (the widest {:.1e} \
             wide; the bound is its half-width): validated Taylor quadrature of order 12 in \
             outward-rounded interval arithmetic on cells halved until narrow, the tails beyond \
             the cells bounded analytically (by n R (1 - F_c(B)) above and G(A)^n below); libm's \
             erfc, exp, log and log1p assumed within 4 ulps; --lattice adds the 33-point \
             lattice's value (--exact computes the lattice exactly)",
        law_name(score_correct),
        law_name(score_wrong),
        widest
    ));
    if lattice {
        report = report.param("lattice", true).note(lattice_columns_note(
            score_correct,
            score_wrong,
            "n",
            farthest,
        ));
    }
    Ok(report)
}

/// A continuous-law table (`index` and the list, `P_correct` with `P_false_positive = 1 -
/// P_correct`, the lattice's value and the difference when given, the cost columns of one
/// sample and one score per unit of the index), with what the notes say of it.
pub(super) struct ContinuousTable {
    /// The table.
    pub(super) table: Table,
    /// `(index, P_correct)` per row, for the first budget below one sample's accuracy.
    pub(super) rows: Vec<(u64, Bounded<f64>)>,
    /// The first index whose enclosure lies above every earlier best.
    pub(super) best_at: u64,
    /// The widest enclosure.
    pub(super) widest: f64,
    /// The largest difference from the lattice in size, and where.
    pub(super) farthest: (f64, u64),
}

/// The table of [`ContinuousTable`] from the enclosures of `list` (the lattice's `P_correct`
/// per row when `lattice` is given).
pub(super) fn continuous_table(
    name: &str,
    title: &str,
    index: &str,
    list: &[u64],
    values: &[crate::numeric::enclosure::Enclosure],
    lattice: Option<Vec<Bounded<f64>>>,
    prices: &Prices,
) -> ContinuousTable {
    let mut columns = vec![
        Column::key(index, Kind::Integer),
        real("P_correct", "P_correct"),
        real("P_false_positive", "P_false_positive"),
    ];
    if lattice.is_some() {
        columns.push(real("P_correct_lattice", "P_correct (lattice)"));
        columns.push(real("difference", "difference"));
    }
    columns.extend(super::super::compute::sample_columns(false));
    let mut table = Table::new(name, title, columns);
    let mut rows: Vec<(u64, Bounded<f64>)> = Vec::new();
    let (mut best, mut best_at): (Option<crate::numeric::enclosure::Enclosure>, u64) = (None, 0);
    let mut widest: f64 = 0.0;
    let mut farthest = (0.0_f64, list[0]);
    for (i, (&n, e)) in list.iter().zip(values).enumerate() {
        let mid = 0.5 * (e.lower + e.upper);
        let radius = e.radius_around(mid);
        widest = widest.max(e.upper - e.lower);
        let mut row = vec![
            Cell::int(n),
            Cell::Bounded {
                value: mid,
                bound: radius,
            },
            Cell::Bounded {
                value: 1.0 - mid,
                bound: radius.next_up(),
            },
        ];
        if let Some(l) = &lattice {
            let on = &l[i];
            let difference = mid - on.value;
            row.push(Cell::Bounded {
                value: on.value,
                bound: on.bound,
            });
            row.push(Cell::Bounded {
                value: difference,
                bound: (radius + on.bound).next_up().next_up(),
            });
            if difference.abs() > farthest.0 {
                farthest = (difference.abs(), n);
            }
        }
        row.extend(super::super::compute::sample_cells(n, n, prices));
        table.push(row);
        if best.is_none_or(|b| e.lower > b.upper) {
            (best, best_at) = (Some(*e), n);
        }
        rows.push((
            n,
            Bounded {
                value: mid,
                bound: radius,
            },
        ));
    }
    ContinuousTable {
        table,
        rows,
        best_at,
        widest,
        farthest,
    }
}

/// A normal law as the notes name it: `normal:1,2 is N(1, 2^2)`.
pub(super) fn law_name(law: &Law) -> String {
    let (mu, s) = super::super::continuous::normal_parameters(law).expect("a normal law");
    format!(
        "{} is N({}, {}^2)",
        law.text(),
        short_text(&mu),
        short_text(&s)
    )
}

/// The note of the `--lattice` columns: which lattices, and the largest difference.
pub(super) fn lattice_columns_note(
    correct: &Law,
    wrong: &Law,
    index: &str,
    farthest: (f64, u64),
) -> String {
    format!(
        "P_correct_lattice: the lattices {} and {} (33 points each, steps S/4 out to 4 S), \
         within its f64 bound of the exact lattice value; difference = P_correct - \
         P_correct_lattice, largest in size {:.1e} at {index} = {}",
        correct.text(),
        wrong.text(),
        farthest.0,
        farthest.1
    )
}
