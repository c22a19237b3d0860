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
    let super::normal::ContinuousTable {
        table,
        rows,
        best_at,
        widest,
        farthest,
    } = super::normal::continuous_table(
        "vote",
        "reward-weighted vote over k samples with the continuous normal laws: an answer's \
         weight is the sum of its samples' scores; the largest weight wins",
        "k",
        ks,
        values,
        lattice_rows.map(|rows| rows.into_iter().map(|r| r.correct).collect()),
        prices,
    );
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
        super::normal::law_name(score_correct),
        super::normal::law_name(score_wrong),
        widest
    ));
    if lattice {
        report = report
            .param("lattice", true)
            .note(super::normal::lattice_columns_note(
                score_correct,
                score_wrong,
                "k",
                farthest,
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
