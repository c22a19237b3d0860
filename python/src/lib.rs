//! Python bindings of `pathology` (PyO3): the native module `pathology._pathology`.
//!
//! Every function computes with the library, builds the same
//! [`pathology::report::Report`] the command line prints and returns it rendered as JSON
//! (`report::Format::Json`: manifest, tables of typed columns, notes); the Python package
//! (`python/pathology/__init__.py`) turns the rows into dicts of columns and exact rationals
//! into `fractions.Fraction`. Errors of the library (the message names the argument and its
//! allowed range) raise `ValueError`.
//!
//! The long computations (`exact`, `dgame`, `errprop`, `mc_dgame`) run through
//! [`interruptible`]: on a worker thread with the GIL released, while the calling thread
//! checks for signals every [`SIGNAL_POLL`]; Ctrl-C cancels the library's
//! [`pathology::cancel`] token, waits for the worker to stop (the library checks the token
//! between chunks of trials, levels and steps) and raises `KeyboardInterrupt`.
//!
//! Probabilities arrive as text (`"0.1"`, `"1/10"`) and are parsed exactly, as the command
//! line parses them: `0.1` is `1/10`, never the nearest `f64`.

use num_rational::BigRational;
use num_traits::{One, Zero};
use pathology::analytic::closed_form::report::{
    Xi, depth_one_report, emm_example_report, rhf_report, w_b_report,
};
use pathology::analytic::dgame::DependenceFactors;
use pathology::analytic::errprop::BackUp;
use pathology::analytic::errprop::report::{
    compute_trajectories, trajectory_report, trajectory_title,
};
use pathology::analytic::families::report::{exact_report, solve};
use pathology::analytic::families::{BaryDGame, Evaluator, Family, NGame, PGame, check_cost};
use pathology::cancel::{self, CancelToken};
use pathology::numeric::number::{Probability, parse_rational, short_text};
use pathology::report::{ExportOptions, Format, Report};
use pathology::sim::report::McRun;
use pathology::sim::runner::{Shard, TrialRunner};
use pathology::studies::crossval::dgame::{Engine, decision_counts};
use pathology::studies::crossval::report::DgameSpec;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// The library's error as a Python `ValueError` with its message.
fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// A number parsed exactly (any rational), naming the argument when malformed.
fn rational(name: &str, text: &str) -> PyResult<BigRational> {
    parse_rational(text).map_err(|e| {
        value_error(pathology::Error::invalid(
            name,
            "a number (0.1, 1/10, 1e-3)",
            format!("{text} ({e})"),
        ))
    })
}

/// A probability in `[0, 1]`, parsed exactly.
fn probability(name: &str, text: &str) -> PyResult<BigRational> {
    let value = rational(name, text)?;
    if value < BigRational::zero() || value > BigRational::one() {
        return Err(value_error(pathology::Error::invalid(
            name,
            "in [0, 1]",
            text,
        )));
    }
    Ok(value)
}

/// How often the calling thread takes the GIL to check for Ctrl-C while the library computes.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a worker thread with the GIL released, checking for signals (Ctrl-C) on
/// the calling thread every [`SIGNAL_POLL`]. When a signal handler raises (`KeyboardInterrupt`
/// for Ctrl-C), cancels the [`pathology::cancel`] token that `work` runs under, waits for
/// the worker to stop and raises that exception; whatever the worker returned is dropped,
/// so a partial result is never returned. A panic in `work` is re-raised here (PyO3 turns it
/// into `PanicException`), and library errors become `ValueError`.
///
/// Python runs signal handlers on the main thread only: called from another Python thread,
/// the check does nothing and the call runs to completion, as before.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> pathology::Result<T> + Send,
) -> PyResult<T> {
    let token = CancelToken::new();
    let done: Mutex<Option<pathology::Result<T>>> = Mutex::new(None);
    let take = || done.lock().unwrap_or_else(PoisonError::into_inner).take();
    let caller = std::thread::current();
    std::thread::scope(|s| {
        let worker = s.spawn(|| {
            /// Wakes the calling thread when the worker ends, by returning or panicking.
            struct Wake(std::thread::Thread);
            impl Drop for Wake {
                fn drop(&mut self) {
                    self.0.unpark();
                }
            }
            let _wake = Wake(caller);
            let result = cancel::scope(&token, work);
            *done.lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
        });
        loop {
            py.detach(|| std::thread::park_timeout(SIGNAL_POLL));
            let stored = take();
            if stored.is_some() || worker.is_finished() {
                if let Err(panic) = py.detach(|| worker.join()) {
                    std::panic::resume_unwind(panic);
                }
                // Joined without a panic: the result is stored (taken now or just before).
                let result = stored.or_else(take);
                return result
                    .expect("the worker stores its result before it ends")
                    .map_err(value_error);
            }
            if let Err(interrupt) = py.check_signals() {
                token.cancel();
                if let Err(panic) = py.detach(|| worker.join()) {
                    std::panic::resume_unwind(panic);
                }
                return Err(interrupt);
            }
        }
    })
}

fn json(report: &Report) -> PyResult<String> {
    report
        .render(Format::Json, &ExportOptions::default())
        .map_err(value_error)
}

fn back_up(name: &str, text: &str) -> PyResult<BackUp> {
    match text {
        "max" => Ok(BackUp::Max),
        "min" => Ok(BackUp::Min),
        other => Err(value_error(pathology::Error::invalid(
            name,
            "'max' or 'min'",
            other,
        ))),
    }
}

/// Parameters of `exact`, parsed.
struct ExactSpec {
    game: String,
    branching: u32,
    height: u32,
    depth: Option<u32>,
    evaluator: String,
    e: BigRational,
    p: Option<BigRational>,
    q: BigRational,
    qk: Vec<BigRational>,
    rk: Vec<BigRational>,
    exact: bool,
}

fn convert<P: Probability>(values: &[BigRational]) -> Vec<P> {
    values.iter().map(P::from_rational).collect()
}

fn exact_in<P: Probability>(spec: &ExactSpec, report: Report) -> pathology::Result<Report> {
    let b = spec.branching;
    let family = match spec.game.as_str() {
        "d" => {
            BaryDGame::new(b, spec.qk.clone(), spec.rk.clone())?;
            Family::D(BaryDGame::new(
                b,
                convert::<P>(&spec.qk),
                convert::<P>(&spec.rk),
            )?)
        }
        "p" => match &spec.p {
            Some(p) => Family::P(PGame::new(b, P::from_rational(p))?),
            None if P::EXACT => {
                return Err(pathology::Error::invalid(
                    "p",
                    "given with exact=True (the default w_b is irrational)",
                    "nothing",
                ));
            }
            None => {
                let p = PGame::<f64>::pearl(b)?.p().to_f64();
                let p = BigRational::from_float(p).expect("w_b is finite");
                Family::P(PGame::new(b, P::from_rational(&p))?)
            }
        },
        _ => Family::N(NGame::new(b, P::from_rational(&spec.q))?),
    };
    let evaluator = match spec.evaluator.as_str() {
        "count" => Evaluator::Count,
        _ => Evaluator::Artificial {
            error: P::from_rational(&spec.e),
        },
    };
    if let Some(d) = spec.depth
        && !(1..=spec.height).contains(&d)
    {
        return Err(pathology::Error::invalid(
            "depth",
            &format!("in 1..={} (at most height)", spec.height),
            d,
        ));
    }
    check_cost(&family, &evaluator, spec.height)?;
    let column = solve(&family, &evaluator, spec.height)?;
    Ok(exact_report(
        report,
        &spec.game,
        b,
        &spec.evaluator,
        &column,
        spec.depth,
    ))
}

/// D(d,h) for a b-ary D-game (`game="d"`, `qk`, `rk`), a P-game (`"p"`, `p`, default w_b) or
/// an N-game (`"n"`, `q`, default 1/2), with the piece count (`evaluator="count"`) or the
/// artificial evaluator (`"artificial"`, error rate `e`, default 1/10); as `pathology exact`.
#[pyfunction]
#[pyo3(signature = (game, height, branching=2, depth=None, evaluator="count", e=None, p=None, q=None, qk=None, rk=None, exact=false))]
#[allow(clippy::too_many_arguments)]
fn exact(
    py: Python<'_>,
    game: &str,
    height: u32,
    branching: u32,
    depth: Option<u32>,
    evaluator: &str,
    e: Option<&str>,
    p: Option<&str>,
    q: Option<&str>,
    qk: Option<Vec<String>>,
    rk: Option<Vec<String>>,
    exact: bool,
) -> PyResult<String> {
    let invalid = |name: &str, allowed: &str, got: &str| {
        Err(value_error(pathology::Error::invalid(name, allowed, got)))
    };
    if !["d", "p", "n"].contains(&game) {
        return invalid("game", "'d', 'p' or 'n'", game);
    }
    if !["count", "artificial"].contains(&evaluator) {
        return invalid("evaluator", "'count' or 'artificial'", evaluator);
    }
    // Options of another family or evaluator are refused, never ignored (as the CLI does).
    for (name, given, belongs, allowed) in [
        ("p", p.is_some(), game == "p", "given only with game='p'"),
        ("q", q.is_some(), game == "n", "given only with game='n'"),
        ("qk", qk.is_some(), game == "d", "given only with game='d'"),
        ("rk", rk.is_some(), game == "d", "given only with game='d'"),
        (
            "e",
            e.is_some(),
            evaluator == "artificial",
            "given only with evaluator='artificial'",
        ),
    ] {
        if given && !belongs {
            return invalid(name, allowed, "a value");
        }
    }
    if game == "d" && (qk.is_none() || rk.is_none()) {
        return invalid(
            "qk and rk",
            "given for D-games (q_1,...,q_b and r_1,...,r_b)",
            "nothing",
        );
    }
    let list = |name: &str, v: &Option<Vec<String>>| -> PyResult<Vec<BigRational>> {
        v.iter().flatten().map(|t| probability(name, t)).collect()
    };
    let spec = ExactSpec {
        game: game.to_string(),
        branching,
        height,
        depth,
        evaluator: evaluator.to_string(),
        e: probability("e", e.unwrap_or("1/10"))?,
        p: p.map(|t| probability("p", t)).transpose()?,
        q: probability("q", q.unwrap_or("1/2"))?,
        qk: list("qk", &qk)?,
        rk: list("rk", &rk)?,
        exact,
    };
    let mut report = Report::new("exact", &format!("D(d,{height})"))
        .param("game", game)
        .param("branching", branching)
        .param("height", height);
    if let Some(d) = depth {
        report = report.param("depth", d);
    }
    report = report.param("evaluator", evaluator);
    if evaluator == "artificial" {
        report = report.param("e", short_text(&spec.e));
    }
    let texts = |v: &[BigRational]| v.iter().map(short_text).collect::<Vec<_>>().join(",");
    report = match game {
        "d" => report
            .param("qk", texts(&spec.qk))
            .param("rk", texts(&spec.rk)),
        "p" => match &spec.p {
            Some(p) => report.param("p", short_text(p)),
            None => report,
        },
        _ => report.param("q", short_text(&spec.q)),
    };
    let report = report.param("exact", exact);
    let built = interruptible(py, || {
        if spec.exact {
            exact_in::<BigRational>(&spec, report)
        } else {
            exact_in::<f64>(&spec, report)
        }
    })?;
    json(&built)
}

/// D(d,h) of Li & Marsland's binary D-game with dependence factors f1, f2 (Tables 1-2).
#[pyfunction]
#[pyo3(signature = (f1, f2, height, depth=None, exact=false))]
fn dgame(
    py: Python<'_>,
    f1: &str,
    f2: &str,
    height: u32,
    depth: Option<u32>,
    exact: bool,
) -> PyResult<String> {
    let (f1, f2) = (probability("f1", f1)?, probability("f2", f2)?);
    let factors = DependenceFactors::new(f1.clone(), f2.clone()).map_err(value_error)?;
    let game = BaryDGame::from_factors(&factors);
    let spec = ExactSpec {
        game: "d".to_string(),
        branching: 2,
        height,
        depth,
        evaluator: "count".to_string(),
        e: BigRational::zero(),
        p: None,
        q: BigRational::zero(),
        qk: game.win_max().to_vec(),
        rk: game.loss_min().to_vec(),
        exact,
    };
    let title = format!(
        "D(d,{height}) for f1 = {}, f2 = {}",
        short_text(&f1),
        short_text(&f2)
    );
    let mut report = Report::new("dgame", &title)
        .param("height", height)
        .param("f1", short_text(&f1))
        .param("f2", short_text(&f2));
    if let Some(d) = depth {
        report = report.param("depth", d);
    }
    let report = report.param("exact", exact);
    let built = interruptible(py, || {
        if exact {
            exact_in::<BigRational>(&spec, report)
        } else {
            exact_in::<f64>(&spec, report)
        }
    })?;
    json(&built)
}

/// Trajectories of Li & Marsland's gamma/delta error-propagation map from (gamma, delta),
/// one per (f1, f2) pair (`f2` of length one applies to every `f1`).
#[pyfunction]
#[pyo3(signature = (gamma, delta, f1, f2, steps=10, back_up_from="max", exact=false))]
#[allow(clippy::too_many_arguments)]
fn errprop(
    py: Python<'_>,
    gamma: &str,
    delta: &str,
    f1: Vec<String>,
    f2: Vec<String>,
    steps: u32,
    back_up_from: &str,
    exact: bool,
) -> PyResult<String> {
    let (gamma, delta) = (probability("gamma", gamma)?, probability("delta", delta)?);
    let from = back_up("back_up_from", back_up_from)?;
    if steps > 100_000 {
        return Err(value_error(pathology::Error::invalid(
            "steps",
            "in 0..=100000",
            steps,
        )));
    }
    let f1s: Vec<BigRational> = f1
        .iter()
        .map(|t| probability("f1", t))
        .collect::<PyResult<_>>()?;
    let f2s: Vec<BigRational> = f2
        .iter()
        .map(|t| probability("f2", t))
        .collect::<PyResult<_>>()?;
    if f1s.is_empty() {
        return Err(value_error(pathology::Error::invalid(
            "f1",
            "at least one value",
            "none",
        )));
    }
    let settings: Vec<(BigRational, BigRational)> = match f2s.len() {
        1 => f1s.iter().map(|a| (a.clone(), f2s[0].clone())).collect(),
        n if n == f1s.len() => f1s.iter().cloned().zip(f2s.iter().cloned()).collect(),
        n => {
            return Err(value_error(pathology::Error::invalid(
                "f2",
                &format!("one value or as many as f1 ({})", f1s.len()),
                format!("{n} values"),
            )));
        }
    };
    let list = |v: &[BigRational]| v.iter().map(short_text).collect::<Vec<_>>().join(",");
    let report = Report::new("errprop", &trajectory_title(from, &gamma, &delta))
        .param("gamma", short_text(&gamma))
        .param("delta", short_text(&delta))
        .param("f1", list(&f1s))
        .param("f2", list(&f2s))
        .param("from", from.name())
        .param("steps", steps)
        .param("exact", exact);
    let built = interruptible(py, || -> pathology::Result<Report> {
        Ok(if exact {
            let t = compute_trajectories::<BigRational>(&gamma, &delta, &settings, from, steps)?;
            trajectory_report(report.mode("exact"), &gamma, &delta, from, &t)
        } else {
            let t = compute_trajectories::<f64>(&gamma, &delta, &settings, from, steps)?;
            trajectory_report(report, &gamma, &delta, from, &t)
        })
    })?;
    json(&built)
}

/// Chi & Nau's rhf(w) with xi given, or xi = w_b for the branching factor.
#[pyfunction]
#[pyo3(signature = (w, xi=None, branching=2, exact=false))]
fn rhf(w: &str, xi: Option<&str>, branching: u32, exact: bool) -> PyResult<String> {
    let w = probability("w", w)?;
    let mut report =
        Report::new("rhf", &format!("rhf({})", short_text(&w))).param("w", short_text(&w));
    let xi = match xi {
        Some(x) => {
            let x = probability("xi", x)?;
            report = report.param("xi", short_text(&x));
            Xi::Given(x)
        }
        None if exact => {
            return Err(value_error(pathology::Error::invalid(
                "xi",
                "given with exact=True (w_b is irrational)",
                "nothing",
            )));
        }
        None => {
            if branching < 2 {
                return Err(value_error(pathology::Error::invalid(
                    "branching",
                    "at least 2",
                    branching,
                )));
            }
            report = report.param("branching", branching);
            Xi::WB(branching)
        }
    };
    report = report.param("exact", exact);
    if exact {
        report = report.mode("exact");
    }
    json(&rhf_report(report, &w, &xi, exact).map_err(value_error)?)
}

/// w_b, the root in (0, 1) of (1 - x)^b = x, certified.
#[pyfunction]
fn w_b(branching: u32) -> PyResult<String> {
    let report = Report::new(
        "wb",
        &format!("w_{branching}, the root in (0, 1) of (1 - x)^{branching} = x"),
    )
    .param("branching", branching);
    json(&w_b_report(report, branching).map_err(value_error)?)
}

/// Wilson, Parker & Nau's depth-one error formulas error(A..D) at static error e, exactly.
#[pyfunction]
fn emm_depth_one(e: &str) -> PyResult<String> {
    let e = probability("e", e)?;
    let title = format!(
        "Wilson, Parker & Nau depth-one errors at e = {}",
        short_text(&e)
    );
    let report = Report::new("emm depth-one", &title)
        .param("e", short_text(&e))
        .mode("exact");
    json(&depth_one_report(report, &e))
}

/// Wilson, Parker & Nau's Fig. 2 example backed up by Algorithm 1, exactly.
#[pyfunction]
#[pyo3(signature = (error="1/10"))]
fn emm_example(error: &str) -> PyResult<String> {
    let error = probability("error", error)?;
    let title = format!(
        "Wilson, Parker & Nau Fig. 2 at static error e = {}",
        short_text(&error)
    );
    let report = Report::new("emm example", &title)
        .param("error", short_text(&error))
        .mode("exact");
    json(&emm_example_report(report, &error))
}

/// The Monte Carlo check of D(d,h) on D-game boards (`pathology mc dgame`): seeded, the
/// same output for any thread count, optionally one shard K/N of the trials.
#[pyfunction]
#[pyo3(signature = (height, f1, f2, trials, seed=1, threads=None, shard=None, engine="fast"))]
#[allow(clippy::too_many_arguments)]
fn mc_dgame(
    py: Python<'_>,
    height: u32,
    f1: &str,
    f2: &str,
    trials: u64,
    seed: u64,
    threads: Option<usize>,
    shard: Option<&str>,
    engine: &str,
) -> PyResult<String> {
    let engine = match engine {
        "fast" => Engine::Fast,
        "generic" => Engine::Generic,
        other => {
            return Err(value_error(pathology::Error::invalid(
                "engine",
                "'fast' or 'generic'",
                other,
            )));
        }
    };
    let spec = DgameSpec {
        height,
        f1: probability("f1", f1)?,
        f2: probability("f2", f2)?,
        engine,
    };
    let shard = shard.map(Shard::parse).transpose().map_err(value_error)?;
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let mut runner = TrialRunner::new(trials, seed, threads).map_err(value_error)?;
    if let Some(s) = shard {
        runner = runner.with_shard(s);
    }
    let run = McRun {
        trials,
        seed,
        shard,
    };
    let built = interruptible(py, || -> pathology::Result<Report> {
        let counts = decision_counts(&spec.factors()?, spec.height, spec.engine, &runner)?;
        spec.report(&run, &counts)
    })?;
    json(&built)
}

/// `pathology validate` on CSV text: the report and the exit code the command would give
/// (0 every row agrees, 1 some row disagrees, 2 some row malformed).
#[pyfunction]
#[pyo3(signature = (text, alpha=0.05))]
fn validate(py: Python<'_>, text: &str, alpha: f64) -> PyResult<(String, u8)> {
    let checked = py
        .detach(|| pathology::validate::validate(text.as_bytes(), alpha))
        .map_err(value_error)?;
    let code = if !checked.errors.is_empty() {
        2
    } else if checked.holm_disagreeing() > 0 {
        1
    } else {
        0
    };
    Ok((json(&checked.to_report("<text>"))?, code))
}

/// The native module.
#[pymodule]
fn _pathology(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(exact, m)?)?;
    m.add_function(wrap_pyfunction!(dgame, m)?)?;
    m.add_function(wrap_pyfunction!(errprop, m)?)?;
    m.add_function(wrap_pyfunction!(rhf, m)?)?;
    m.add_function(wrap_pyfunction!(w_b, m)?)?;
    m.add_function(wrap_pyfunction!(emm_depth_one, m)?)?;
    m.add_function(wrap_pyfunction!(emm_example, m)?)?;
    m.add_function(wrap_pyfunction!(mc_dgame, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    Ok(())
}
