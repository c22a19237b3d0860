//! `pathology validate FILE`: a researcher's own simulation results against the exact values.

use std::io::Read;
use std::path::PathBuf;

use crate::report::read::read_json;
use crate::validate::validate;

/// Exit codes: 0 when every row agrees (after Holm's correction), 1 when any row disagrees,
/// 2 on malformed input (a malformed row, a file that is not CSV or JSON, a bad option).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 when no row differs detectably from its exact value (Holm's \
correction), 1 when any row disagrees, 2 on malformed input (any malformed row, unreadable \
file, bad option)."
)]
pub struct Args {
    /// CSV with a header (or the JSON of a `pathology mc` command; `-` reads standard input):
    /// kind, the kind's parameters, trials and estimate (or successes: the estimate is then
    /// successes/trials). Kinds: dgame (h, d, f1, f2 or p0);
    /// errprop (gamma, delta, f1, f2, steps, quantity, from); rhf (w, xi or branching);
    /// pgame (b, h, d, p [default w_b], evaluator count|artificial, e); ngame (b, h, d, q
    /// [default 1/2], evaluator, e); bdgame (b, h, d, qk and rk as q1;q2;..., evaluator, e);
    /// crit (height, depth, gamma as G or G_MAX,G_MIN, branching, root_gamma, evaluator
    /// [default expected-playout] and its e, sigma, halfwidth, histogram, playout_formula;
    /// levels, range); mvpgame (height, depth, leaves as v1:p1,... or p, branching, evaluator
    /// perfect|artificial|gaussian|uniform|histogram [default perfect] and its parameters,
    /// levels, range), named as `pathology decision` names its options; sum (height, depth,
    /// branching, step, leaf, terminal, outcome, evaluator position|perfect|additive|artificial
    /// and its noise or e), named as `pathology decision --game sum` names its options;
    /// pass_at_k (tasks, k); resample (tasks, completeness, soundness, k); best_of_n (tasks,
    /// score_correct, score_wrong, n); vote (tasks, wrong_answers [default 1], k);
    /// weighted_vote (tasks, wrong_answers, score_correct, score_wrong, k); lookahead
    /// (branching, steps, step_correct, noise, growth [default 0], depth); beam (branching,
    /// steps, step_correct, noise, growth [default 0], beams); knockout (tasks,
    /// judge_correct, judge_calls, r), named as
    /// `pathology inference` names its options, each with an optional quantity (correct, the
    /// default; none; false_positive; first_decision; best_of_n; covered; fail); samples (file,
    /// metric pass_at_k|pass_all|majority|best_of_k, k, ties [default uniform], min_n, the input
    /// options of `pathology samples` as columns, file_fnv1a64): a subsampled curve against
    /// the exact curve of the samples file. Every
    /// kind reads h, d, b and height, depth, branching alike. b defaults to 2, evaluator to
    /// count; e is required with artificial. Estimates must be k/trials for a whole k to their
    /// printed precision, or successes with trials. The CSV and JSON that `pathology mc
    /// dgame|errprop|rhf|distributions|sum|inference|samples` print are read as they are; the other `mc` outputs
    /// (`mc emm`'s, for one) print their exact values and z-scores themselves. Line numbers are
    /// the file's physical
    /// lines. The whole file's cost is estimated first (one exact column per distinct
    /// setting) and refused when over about a minute or 16 GiB.
    file: PathBuf,
    /// Significance level (family-wise, with Holm's correction).
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    alpha: f64,
    #[command(flatten)]
    output: super::args::OutputArgs,
}

/// The outcome of a validation run, for the exit code.
pub enum Outcome {
    /// Every row agrees.
    Agrees,
    /// Some row disagrees.
    Disagrees,
    /// Some row was malformed.
    Malformed,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    args.output.check_table(&["checked", "malformed"])?;
    let name = args.file.display().to_string();
    let mut reader = crate::report::read::open_input(&args.file)?;
    // JSON (a report of `pathology mc`) is read whole; CSV is streamed with bounded memory.
    let is_json = reader
        .fill_buf()?
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{');
    let checked = if is_json {
        let mut text = String::new();
        reader.read_to_string(&mut text).map_err(|e| {
            if e.kind() == std::io::ErrorKind::FileTooLarge {
                crate::Error::invalid(
                    "FILE",
                    &format!("a file of at most {}", crate::report::read::MAX_INPUT_TEXT),
                    format!("{name}, which is longer"),
                )
            } else {
                crate::Error::invalid("FILE", "UTF-8 JSON", &name)
            }
        })?;
        let table = read_json(&text, None)?;
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.write_record(&table.header)?;
        for (_, row) in &table.rows {
            writer.write_record(row)?;
        }
        let csv = writer.into_inner().map_err(|e| e.into_error())?;
        validate(csv.as_slice(), args.alpha)?
    } else {
        validate(reader, args.alpha)?
    };
    let report = checked.to_report(&args.file.display().to_string());
    args.output.emit(&report, 4)?;
    Ok(if !checked.errors.is_empty() {
        Outcome::Malformed
    } else if checked.holm_disagreeing() > 0 {
        Outcome::Disagrees
    } else {
        Outcome::Agrees
    })
}
