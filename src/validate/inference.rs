//! The kinds of `pathology inference` (`pass_at_k`, `resample`, `best_of_n`, `vote`,
//! `weighted_vote`, `lookahead`, `knockout`, `beam`): a measured curve's rows (k, n, d, r or M
//! with successes and trials, or an
//! estimate) against the model at the row's parameters, each row's exact value computed
//! alone by `pathology inference` in `f64` (its own refusal over the tool's limits makes the
//! row malformed).

use super::{Fields, MAX_EXACT_BOUND, RowResult, Target, field, probability, whole};
use crate::analytic::distributions::Bounded;
use crate::analytic::inference::report::InferenceRequest;
use crate::analytic::inference::{
    LookaheadSearch, MAX_BEAMS, MAX_COUNT, MAX_LOOKAHEAD_BRANCHING, MAX_STEPS, Prices, Tasks, beam,
    best_of_n, knockout, lookahead_mixed, parse_wrong_answers, pass_at_k, resample, vote,
    weighted_vote,
};
use crate::analytic::pathsum::Law;
use crate::numeric::number::{parse_rational, short_text};

/// The parameters of each kind (the list's column and `quantity` included).
pub(super) fn columns(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "pass_at_k" => &["tasks", "k", "quantity"],
        "resample" => &["tasks", "completeness", "soundness", "k", "quantity"],
        "best_of_n" => &["tasks", "score_correct", "score_wrong", "n", "quantity"],
        "vote" => &["tasks", "wrong_answers", "k", "quantity"],
        "knockout" => &["tasks", "judge_correct", "judge_calls", "r", "quantity"],
        "weighted_vote" => &[
            "tasks",
            "wrong_answers",
            "score_correct",
            "score_wrong",
            "k",
            "quantity",
        ],
        "lookahead" => &[
            "branching",
            "steps",
            "step_correct",
            "noise",
            "growth",
            "depth",
            "quantity",
        ],
        "beam" => &[
            "branching",
            "steps",
            "step_correct",
            "noise",
            "growth",
            "beams",
            "quantity",
        ],
        _ => return None,
    })
}

/// The further columns of `pathology mc inference`'s rows.
pub(super) const EXTRAS: [&str; 4] = ["z", "p_value", "holm_p_value", "verdict"];

/// The quantities each kind's `quantity` column may name (the first is the default).
fn quantities(kind: &str) -> &'static [&'static str] {
    match kind {
        "pass_at_k" => &["correct", "none"],
        "resample" => &["correct", "false_positive", "none"],
        "best_of_n" | "vote" | "weighted_vote" => &["correct", "false_positive"],
        "knockout" => &["correct", "fail"],
        "beam" => &["correct", "covered"],
        _ => &["correct", "first_decision", "best_of_n"],
    }
}

/// A library error about option `--NAME` as one about column `NAME`.
fn as_column(error: &crate::Error, option: &str, column: &str) -> String {
    error
        .to_string()
        .replacen(option, &format!("column '{column}'"), 1)
}

fn tasks(fields: &Fields) -> RowResult<Tasks> {
    Tasks::parse(field(fields, "tasks")?).map_err(|e| as_column(&e, "--tasks", "tasks"))
}

fn law(fields: &Fields, name: &str) -> RowResult<Law> {
    Law::parse(name, field(fields, name)?).map_err(|e| format!("column '{name}': {e}"))
}

/// The value of a row's quantity, checked to be precise enough to compare.
fn value(b: &Bounded<f64>) -> RowResult<f64> {
    if b.bound.is_nan() || b.bound > MAX_EXACT_BOUND {
        return Err(format!(
            "the exact value's f64 bound ({:.3e}) is above {MAX_EXACT_BOUND:e}: too wide to \
             compare with an estimate",
            b.bound
        ));
    }
    Ok(b.value)
}

/// A row's exact value, computed after the whole file's cost was estimated.
pub(super) type Compute = Box<dyn FnOnce() -> RowResult<f64>>;

/// The row's parameters in words and its exact value to compute ([`Target::Inference`]:
/// its estimate now, its work after every row's estimate was added up).
pub(super) fn inference_value(kind: &str, fields: &Fields) -> RowResult<(String, Target)> {
    let error = |e: crate::Error| e.to_string();
    let allowed = quantities(kind);
    let quantity = fields
        .get("quantity")
        .map_or(allowed[0].to_string(), |q| q.to_ascii_lowercase());
    if !allowed.contains(&quantity.as_str()) {
        return Err(format!(
            "column 'quantity' must be one of {} for kind {kind}, got '{quantity}'",
            allowed.join(", ")
        ));
    }
    let q = quantity.clone();
    let (text, request, compute): (String, InferenceRequest, Compute) = match kind {
        "pass_at_k" => {
            let tasks = tasks(fields)?;
            let k = whole(fields, "k", 1..=MAX_COUNT)?;
            let text = format!("tasks={} k={k}", tasks.text());
            let request = InferenceRequest::PassAtK {
                tasks: tasks.clone(),
                ks: vec![k],
            };
            (
                text,
                request,
                Box::new(move || {
                    let row = &pass_at_k::<f64>(&tasks, &[k]).map_err(error)?[0];
                    value(if q == "none" { &row.none } else { &row.correct })
                }),
            )
        }
        "resample" => {
            let tasks = tasks(fields)?;
            let (c, s) = (
                probability(fields, "completeness")?,
                probability(fields, "soundness")?,
            );
            let k = whole(fields, "k", 1..=MAX_COUNT)?;
            let zero = num_rational::BigRational::from_integer(0.into());
            let text = format!(
                "tasks={} completeness={} soundness={} k={k}",
                tasks.text(),
                short_text(&c),
                short_text(&s)
            );
            let request = InferenceRequest::Resample {
                tasks: tasks.clone(),
                completeness: c.clone(),
                soundness: s.clone(),
                false_positive_value: zero.clone(),
                abstain_value: zero.clone(),
                ks: vec![k],
            };
            (
                text,
                request,
                Box::new(move || {
                    let r = resample::<f64>(&tasks, &c, &s, &zero, &[k]).map_err(error)?;
                    let row = &r.rows[0];
                    value(match q.as_str() {
                        "false_positive" => &row.false_positive,
                        "none" => &row.none,
                        _ => &row.correct,
                    })
                }),
            )
        }
        "best_of_n" => {
            let tasks = tasks(fields)?;
            let (correct, wrong) = (law(fields, "score_correct")?, law(fields, "score_wrong")?);
            let n = whole(fields, "n", 1..=MAX_COUNT)?;
            let text = format!(
                "tasks={} score_correct={} score_wrong={} n={n}",
                tasks.text(),
                correct.text(),
                wrong.text()
            );
            let request = InferenceRequest::BestOfN {
                tasks: tasks.clone(),
                score_correct: correct.clone(),
                score_wrong: wrong.clone(),
                ns: vec![n],
            };
            (
                text,
                request,
                Box::new(move || {
                    let r = best_of_n::<f64>(&tasks, &correct, &wrong, &[n]).map_err(error)?;
                    let row = &r.rows[0];
                    value(if q == "false_positive" {
                        &row.false_positive
                    } else {
                        &row.correct
                    })
                }),
            )
        }
        "vote" | "weighted_vote" => {
            let tasks = tasks(fields)?;
            let text = fields.get("wrong_answers").copied().unwrap_or("1");
            let wrong = parse_wrong_answers(text)
                .map_err(|e| as_column(&e, "--wrong-answers", "wrong_answers"))?;
            let k = whole(fields, "k", 1..=MAX_COUNT)?;
            let scores = match kind {
                "weighted_vote" => {
                    let law = |column: &str, option: &str| {
                        Law::parse(option, field(fields, column)?)
                            .map_err(|e| as_column(&e, option, column))
                    };
                    Some((
                        law("score_correct", "--score-correct")?,
                        law("score_wrong", "--score-wrong")?,
                    ))
                }
                _ => None,
            };
            let words = match &scores {
                Some((c, w)) => format!(
                    "tasks={} wrong_answers={text} score_correct={} score_wrong={} k={k}",
                    tasks.text(),
                    c.text(),
                    w.text()
                ),
                None => format!("tasks={} wrong_answers={text} k={k}", tasks.text()),
            };
            let request = InferenceRequest::Vote {
                tasks: tasks.clone(),
                wrong_answers: wrong.clone(),
                ks: vec![k],
                scores: scores.clone(),
            };
            (
                words,
                request,
                Box::new(move || {
                    let r = match &scores {
                        None => vote::<f64>(&tasks, &wrong, &[k]),
                        Some((c, w)) => weighted_vote::<f64>(&tasks, &wrong, c, w, &[k]),
                    }
                    .map_err(error)?;
                    let row = &r.rows[0];
                    value(if q == "false_positive" {
                        &row.false_positive
                    } else {
                        &row.correct
                    })
                }),
            )
        }
        "knockout" => {
            let tasks_text = field(fields, "tasks")?.to_string();
            let judge_text = field(fields, "judge_correct")?.to_string();
            let calls_text = field(fields, "judge_calls")?.to_string();
            let r = whole(fields, "r", 1..=crate::analytic::inference::MAX_ROUNDS)?;
            let text = |name: &str| -> Option<String> {
                match name {
                    "tasks" => Some(tasks_text.clone()),
                    "judge_correct" => Some(judge_text.clone()),
                    "judge_calls" => Some(calls_text.clone()),
                    "rounds" => Some(r.to_string()),
                    _ => None,
                }
            };
            let setting =
                crate::analytic::inference::report::knockout_setting(&text).map_err(|e| {
                    as_column(&e, "--tasks", "tasks")
                        .replacen("--judge-correct", "column 'judge_correct'", 1)
                        .replacen("--judge-calls", "column 'judge_calls'", 1)
                })?;
            if setting.judge_calls.len() != 1 {
                return Err(format!(
                    "column 'judge_calls' must be one K in 1..={}, got '{calls_text}'",
                    crate::analytic::inference::MAX_JUDGE_CALLS
                ));
            }
            let words = format!(
                "tasks={} judge_correct={} judge_calls={} r={r}",
                setting.tasks.text(),
                setting.judge_correct_text(),
                setting.judge_calls[0]
            );
            let request = InferenceRequest::Knockout {
                setting: setting.clone(),
            };
            (
                words,
                request,
                Box::new(move || {
                    let k = knockout::<f64>(
                        &setting.tasks,
                        &setting.judge_correct,
                        &setting.judge_calls,
                        &[r],
                    )
                    .map_err(error)?;
                    let row = &k.rows[0];
                    value(if q == "fail" {
                        &row.failure
                    } else {
                        &row.correct
                    })
                }),
            )
        }
        _ => {
            let branching =
                whole(fields, "branching", 2..=u64::from(MAX_LOOKAHEAD_BRANCHING))? as u32;
            let steps = whole(fields, "steps", 1..=u64::from(MAX_STEPS))? as u32;
            let growth = match fields.get("growth") {
                Some(text) => parse_rational(text).map_err(|e| format!("column 'growth': {e}"))?,
                None => num_rational::BigRational::from_integer(0.into()),
            };
            let mix = Tasks::parse_steps(field(fields, "step_correct")?)
                .map_err(|e| as_column(&e, "--step-correct", "step_correct"))?;
            let search = LookaheadSearch {
                branching,
                steps,
                step_correct: mix.types()[0].success.clone(),
                noise: law(fields, "noise")?,
                growth,
            };
            let model = format!(
                "branching={branching} steps={steps} step_correct={} noise={} growth={}",
                mix.steps_text(),
                search.noise.text(),
                short_text(&search.growth)
            );
            let library = |e: crate::Error| {
                as_column(&e, "--growth", "growth").replacen("--noise", "column 'noise'", 1)
            };
            if kind == "beam" {
                let width = whole(fields, "beams", 1..=u64::from(MAX_BEAMS))? as u32;
                let request = InferenceRequest::Beam {
                    search: search.clone(),
                    mix: mix.clone(),
                    widths: vec![width],
                    prices: Prices::unit(),
                };
                (
                    format!("{model} beams={width}"),
                    request,
                    Box::new(move || {
                        let r = beam::<f64>(&search, &mix, &[width]).map_err(library)?;
                        value(if q == "covered" {
                            &r.rows[0].covered
                        } else {
                            &r.rows[0].correct
                        })
                    }),
                )
            } else {
                // Best-of-B^L does not depend on the depth (given or not).
                let depth = if quantity == "best_of_n" && !fields.contains_key("depth") {
                    1
                } else {
                    whole(fields, "depth", 1..=u64::from(steps))? as u32
                };
                let depth_text = if quantity == "best_of_n" {
                    String::new()
                } else {
                    format!(" depth={depth}")
                };
                let request = InferenceRequest::Lookahead {
                    search: search.clone(),
                    mix: mix.clone(),
                    depths: vec![depth],
                    prices: Prices::unit(),
                };
                (
                    format!("{model}{depth_text}"),
                    request,
                    Box::new(move || {
                        let r = lookahead_mixed::<f64>(&search, &mix, &[depth]).map_err(library)?;
                        match q.as_str() {
                            "first_decision" => value(&r.rows[0].first),
                            "best_of_n" => value(r.best_of_n.as_ref().ok_or_else(|| {
                                r.baseline_note.clone().unwrap_or_else(|| {
                                    "best-of-B^L is not computed here".to_string()
                                })
                            })?),
                            _ => value(&r.rows[0].correct),
                        }
                    }),
                )
            }
        }
    };
    let estimate = request.estimate(false).map_err(|e| {
        as_column(&e, "--growth", "growth").replacen("--noise", "column 'noise'", 1)
    })?;
    Ok((
        format!("{text} quantity={quantity}"),
        Target::Inference { estimate, compute },
    ))
}
