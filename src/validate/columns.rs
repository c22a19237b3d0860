//! The columns `validate` reads: each kind's parameters, the columns of `pathology mc`'s
//! output that it checks or ignores, and the two vocabularies of the size parameters (`h`,
//! `d`, `b` and `height`, `depth`, `branching`), read alike in every kind.

use std::collections::HashMap;

/// The columns that `pathology mc` prints besides a kind's parameters; they are read (or
/// checked) but do not change the exact value.
pub(super) const OUTPUT_COLUMNS: [&str; 8] = [
    "kind",
    "estimate",
    "trials",
    "successes",
    "seed",
    "estimate_lower",
    "estimate_upper",
    "exact",
];

/// The parameters of each kind, and the further columns its `pathology mc` output has.
pub(super) fn kind_columns(
    kind: &str,
) -> Option<(&'static [&'static str], &'static [&'static str])> {
    Some(match kind {
        "dgame" => (&["h", "d", "f1", "f2", "p0"], &["engine", "z"]),
        "errprop" => (
            &["gamma", "delta", "f1", "f2", "steps", "quantity", "from"],
            &["z"],
        ),
        "rhf" => (&["w", "xi", "branching"], &["p", "height", "depth", "z"]),
        "pgame" => (&["b", "h", "d", "p", "evaluator", "e"], &["z"]),
        "ngame" => (&["b", "h", "d", "q", "evaluator", "e"], &["z"]),
        "bdgame" => (&["b", "h", "d", "qk", "rk", "evaluator", "e"], &["z"]),
        "crit" => (&CRIT_COLUMNS, &["z"]),
        "mvpgame" => (&MVPGAME_COLUMNS, &["z"]),
        "sum" => (&SUM_COLUMNS, &["z"]),
        "samples" => (&super::samples::COLUMNS, &super::samples::EXTRAS),
        other => (super::inference::columns(other)?, &super::inference::EXTRAS),
    })
}

/// Every kind `validate` reads, in the order the help and the docs list them: the one list
/// that the help text, `docs/validate.md` and the error message are checked against.
pub const KINDS: [&str; 18] = [
    "dgame",
    "errprop",
    "rhf",
    "pgame",
    "ngame",
    "bdgame",
    "crit",
    "mvpgame",
    "sum",
    "pass_at_k",
    "resample",
    "best_of_n",
    "vote",
    "weighted_vote",
    "lookahead",
    "knockout",
    "beam",
    "samples",
];

/// The `pathology mc` commands whose CSV and JSON `validate` reads as they are, with the kinds
/// of their rows.
pub const WRITTEN_BY: [(&str, &[&str]); 7] = [
    ("mc dgame", &["dgame"]),
    ("mc errprop", &["errprop"]),
    ("mc rhf", &["rhf"]),
    ("mc distributions", &["crit", "mvpgame"]),
    ("mc sum", &["sum"]),
    (
        "mc inference",
        &[
            "pass_at_k",
            "resample",
            "best_of_n",
            "vote",
            "weighted_vote",
            "lookahead",
            "knockout",
            "beam",
        ],
    ),
    ("mc samples", &["samples"]),
];

/// The kinds for messages: "dgame, errprop, ... or sum".
pub(super) fn kinds_in_words() -> String {
    let (last, rest) = KINDS.split_last().expect("kinds");
    format!("{} or {last}", rest.join(", "))
}

/// The parameters of kind `crit` (named as `pathology decision`'s options).
pub(super) const CRIT_COLUMNS: [&str; 14] = [
    "branching",
    "height",
    "depth",
    "gamma",
    "root_gamma",
    "evaluator",
    "e",
    "sigma",
    "halfwidth",
    "histogram",
    "histogram_fnv1a64",
    "playout_formula",
    "levels",
    "range",
];

/// The parameters of kind `sum` (named as `pathology decision --game sum`'s options).
pub(super) const SUM_COLUMNS: [&str; 10] = [
    "branching",
    "height",
    "depth",
    "step",
    "leaf",
    "terminal",
    "outcome",
    "evaluator",
    "e",
    "noise",
];

/// The parameters of kind `mvpgame`.
pub(super) const MVPGAME_COLUMNS: [&str; 13] = [
    "branching",
    "height",
    "depth",
    "leaves",
    "p",
    "evaluator",
    "e",
    "sigma",
    "halfwidth",
    "histogram",
    "histogram_fnv1a64",
    "levels",
    "range",
];

/// The kinds whose size parameters are `h`, `d`, `b` (as `pathology mc dgame` and
/// `pathology exact` print them); the others' are `height`, `depth`, `branching`.
const SHORT_NAMES: [&str; 4] = ["dgame", "pgame", "ngame", "bdgame"];

/// The size parameters' two names.
const PAIRS: [(&str, &str); 3] = [("h", "height"), ("d", "depth"), ("b", "branching")];

/// The name that kind `kind` reads for the column `name`: `height`, `depth` and `branching`
/// are `h`, `d` and `b` for the kinds of [`SHORT_NAMES`], and the other way round for the
/// rest, so either vocabulary is read in every kind.
pub(super) fn canonical<'a>(kind: &str, name: &'a str) -> &'a str {
    let short = SHORT_NAMES.contains(&kind);
    for (s, long) in PAIRS {
        if short && name == long {
            return s;
        }
        if !short && name == s {
            return long;
        }
    }
    name
}

/// A row's fields under the names its kind reads ([`canonical`]); a row that gives one
/// parameter under both names (`h` and `height`) is refused.
pub(super) fn canonical_fields<'a>(
    kind: &str,
    fields: HashMap<&'a str, &'a str>,
) -> Result<HashMap<&'a str, &'a str>, String> {
    let mut out = HashMap::with_capacity(fields.len());
    for (name, value) in fields {
        let read = canonical(kind, name);
        if out.insert(read, value).is_some() {
            let mut pair = [name, read];
            if name == read {
                pair[0] = PAIRS
                    .iter()
                    .find(|(s, l)| *s == read || *l == read)
                    .map_or(read, |(s, l)| if *s == read { *l } else { *s });
            }
            pair.sort_unstable();
            return Err(format!(
                "columns '{}' and '{}' name the same parameter: give one, not both",
                pair[0], pair[1]
            ));
        }
    }
    Ok(out)
}
