//! The reward-weighted voting report with two normal score laws in `f64`: the continuous
//! laws' values as rigorous enclosures (`continuous::normal_weighted_vote`), the cost columns,
//! and with `--lattice` the 33-point lattices' values beside.

use super::*;

/// Reward-weighted voting with two normal score laws in `f64`: the continuous laws'
/// `P_correct` (enclosure midpoints, their half-widths as bounds) and, with `lattice`, the
/// lattice's value and the difference beside.
pub(super) fn weighted_vote_report(
    command: &str,
    request: &InferenceRequest,
    values: &[crate::numeric::enclosure::Enclosure],
    prices: &Prices,
    lattice: bool,
) -> Result<Report> {
    let InferenceRequest::Vote {
        tasks,
        wrong_answers,
        ks,
        scores: Some((score_correct, score_wrong)),
    } = request
    else {
        unreachable!("a reward-weighted vote request");
    };
    let lattice_rows = if lattice {
        Some(
            super::super::weighted_vote::<f64>(
                tasks,
                wrong_answers,
                score_correct,
                score_wrong,
                ks,
            )?
            .rows,
        )
    } else {
        None
    };
    let mut columns = vec![
        Column::key("k", Kind::Integer),
        real("P_correct", "P_correct"),
        real("P_false_positive", "P_false_positive"),
    ];
    if lattice {
        columns.push(real("P_correct_lattice", "P_correct (lattice)"));
        columns.push(real("difference", "difference"));
    }
    columns.extend(super::super::compute::sample_columns(false));
    let mut table = Table::new(
        "vote",
        "reward-weighted vote over k samples with the continuous normal laws: an answer's \
         weight is the sum of its samples' scores; the largest weight wins",
        columns,
    );
    let mut rows: Vec<(u64, Bounded<f64>)> = Vec::new();
    let (mut best, mut best_at): (Option<crate::numeric::enclosure::Enclosure>, u64) = (None, 0);
    let mut widest: f64 = 0.0;
    let mut farthest = (0.0_f64, ks[0]);
    for (i, (&k, e)) in ks.iter().zip(values).enumerate() {
        let mid = 0.5 * (e.lower + e.upper);
        let radius = e.radius_around(mid);
        widest = widest.max(e.upper - e.lower);
        let mut row = vec![
            Cell::int(k),
            Cell::Bounded {
                value: mid,
                bound: radius,
            },
            Cell::Bounded {
                value: 1.0 - mid,
                bound: radius.next_up(),
            },
        ];
        if let Some(l) = &lattice_rows {
            let on = &l[i].correct;
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
                farthest = (difference.abs(), k);
            }
        }
        row.extend(super::super::compute::sample_cells(k, k, prices));
        table.push(row);
        if best.is_none_or(|b| e.lower > b.upper) {
            (best, best_at) = (Some(*e), k);
        }
        rows.push((
            k,
            Bounded {
                value: mid,
                bound: radius,
            },
        ));
    }
    let name = |law: &Law| {
        let (mu, s) = super::super::continuous::normal_parameters(law).expect("a normal law");
        format!(
            "{} is N({}, {}^2)",
            law.text(),
            short_text(&mu),
            short_text(&s)
        )
    };
    let mut report = priced(
        Report::new(command, "reward-weighted voting")
            .param("tasks", tasks.given_text())
            .param(
                "wrong_answers",
                wrong_answers
                    .iter()
                    .map(short_text)
                    .collect::<Vec<_>>()
                    .join(","),
            )
            .param("k", list_text(ks)),
        prices,
    )
    .note(super::super::compute::sample_note(
        "samples: k per task; verifier_calls: k scores (each sample scored once)",
        prices,
    ))
    .param("weighted", true)
    .param("score_correct", score_correct.text())
    .param("score_wrong", score_wrong.text())
    .with_table(table)
    .mode("f64")
    .note(format!(
        "the largest P_correct over the list is at k = {best_at}; {}",
        first_below(tasks, "k", rows.iter().map(|(k, b)| (*k, b)))
    ))
    .note(format!(
        "continuous laws: {}, {}; given the counts (m_0 correct samples, m_j on wrong answer \
         j) the totals are independent normals T_0 ~ N(m_0 mu_c, m_0 s_c^2), T_j ~ N(m_j mu_w, \
         m_j s_w^2), ties have probability 0, and P_correct = sum W sum over the count vectors \
         (exact multinomial weights) of int f_0 prod_(m_j > 0) F_j dx (0 when m_0 = 0); each \
         value the midpoint of a rigorous enclosure (the widest {:.1e} wide; the bound is its \
         half-width): per count pattern validated Taylor quadrature of order 12 in \
         outward-rounded interval arithmetic on cells halved until narrow, the tails beyond \
         mu_0 -+ t s_0 bounded by the normal tails of T_0; libm's erfc and exp assumed within \
         4 ulps; --lattice adds the 33-point lattices' value (--exact computes the lattices \
         exactly)",
        name(score_correct),
        name(score_wrong),
        widest
    ));
    if lattice {
        report = report.param("lattice", true).note(format!(
            "P_correct_lattice: the lattices {} and {} (33 points each, steps S/4 out to 4 S), \
             within its f64 bound of the exact lattice value; difference = P_correct - \
             P_correct_lattice, largest in size {:.1e} at k = {}",
            score_correct.text(),
            score_wrong.text(),
            farthest.0,
            farthest.1
        ));
    }
    Ok(report)
}

/// The note of an exact reward-weighted vote whose score laws are normal: the values are the
/// 33-point lattices', not the continuous laws'. `None` when either law is not normal.
pub(super) fn exact_lattice_note(correct: &Law, wrong: &Law) -> Option<String> {
    let continuous = super::super::continuous::normal_parameters(correct).is_some()
        && super::super::continuous::normal_parameters(wrong).is_some();
    continuous.then(|| {
        format!(
            "--exact with normal score laws: every value is the lattices' ({}; {}), computed \
             exactly; without --exact P_correct is the continuous normal laws', rigorously \
             enclosed",
            super::super::continuous::lattice_text(correct).unwrap_or_default(),
            super::super::continuous::lattice_text(wrong).unwrap_or_default()
        )
    })
}
