//! JSON: one shape for every command.

use super::cell::Cell;
use super::cell::{Machine, Part};
use super::{ExportOptions, Exporter, Report, Table};
use crate::error::Result;

/// JSON of one shape for every command:
///
/// ```text
/// {"manifest": {"tool", "version", "commit", "command", "mode", "seed", "parameters": {..}},
///  "title": "..",
///  "tables": [{"name", "caption", "columns": [{"name", "label", "kind", "of"}], "rows": [{..}]}],
///  "notes": [..]}
/// ```
///
/// Rows are objects whose keys are the CSV header's (so `pandas.DataFrame(table["rows"])`
/// gives the CSV's frame); numbers are JSON numbers printed as the CSV prints them (bounds
/// rounded outward), exact rationals and seeds are strings, missing values `null`. Written
/// by hand so that printed bounds keep their directed decimals.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json;

/// A JSON string literal.
pub(crate) fn string(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

impl Exporter for Json {
    fn export(&self, report: &Report, _options: &ExportOptions) -> Result<String> {
        let mut out = head(report);
        for (t, table) in report.tables.iter().enumerate() {
            let columns = table.expanded();
            out.push_str(&table_open(table, &columns, t == 0));
            for (r, row) in table.rows.iter().enumerate() {
                out.push_str(&row_text(&columns, row, r == 0));
            }
            out.push_str(table_close(table.rows.is_empty()));
        }
        out.push_str(&tail(report.tables.is_empty(), &report.notes));
        Ok(out)
    }
}

/// The manifest and title, up to the opening of the tables array.
pub(crate) fn head(report: &Report) -> String {
    let mut out = String::from("{\n");
    out.push_str(&manifest(&report.manifest));
    out.push_str(&format!(
        ",\n  \"title\": {},\n  \"tables\": [",
        string(&report.title)
    ));
    out
}

/// The `"manifest": {..}` member, indented as in the report (no comma after it).
pub(crate) fn manifest(m: &super::Manifest) -> String {
    let mut out = String::from("  \"manifest\": {\n");
    out.push_str(&format!("    \"tool\": {},\n", string(&m.tool)));
    out.push_str(&format!("    \"version\": {},\n", string(&m.version)));
    out.push_str(&format!("    \"commit\": {},\n", string(&m.commit)));
    out.push_str(&format!(
        "    \"command\": {},\n",
        string(&m.command_line())
    ));
    out.push_str(&format!("    \"subcommand\": {},\n", string(&m.command)));
    out.push_str(&format!("    \"mode\": {},\n", string(&m.mode)));
    out.push_str(&format!(
        "    \"seed\": {},\n",
        m.seed
            .map_or("null".to_string(), |s| string(&s.to_string()))
    ));
    // Positional arguments are `argument`, then `argument_2`, ... (keys stay unique when a
    // command takes two files).
    let mut positional = 0;
    let parameters: Vec<String> = m
        .parameters
        .iter()
        .map(|(n, v)| {
            let n = if n == "_" {
                positional += 1;
                if positional == 1 {
                    "argument".to_string()
                } else {
                    format!("argument_{positional}")
                }
            } else {
                n.clone()
            };
            format!("{}: {}", string(&n), string(v))
        })
        .collect();
    out.push_str(&format!(
        "    \"parameters\": {{{}}}\n  }}",
        parameters.join(", ")
    ));
    out
}

/// A table's name, caption and columns, up to the opening of its rows array.
pub(crate) fn table_open(table: &Table, columns: &[(String, usize, Part)], first: bool) -> String {
    let mut out = String::from(if first { "\n" } else { ",\n" });
    out.push_str(&format!(
        "    {{\n      \"name\": {},\n      \"caption\": {},\n      \"columns\": [",
        string(&table.name),
        string(&table.caption)
    ));
    let described: Vec<String> = columns
        .iter()
        .map(|(h, i, part)| {
            let c = &table.columns[*i];
            let kind = match part {
                Part::Exact => "\"exact_rational\"".to_string(),
                Part::ErrorBound => "\"error_bound\"".to_string(),
                Part::Lower => "\"lower_bound\"".to_string(),
                Part::Upper => "\"upper_bound\"".to_string(),
                Part::Value | Part::Plain => serde_json::to_string(&c.kind).expect("kind"),
            };
            format!(
                "{{\"name\": {}, \"label\": {}, \"kind\": {}, \"of\": {}}}",
                string(h),
                string(&c.label),
                kind,
                string(&c.name)
            )
        })
        .collect();
    out.push_str(&described.join(", "));
    out.push_str("],\n      \"rows\": [");
    out
}

/// One row object (`first`: the table's first row).
pub(crate) fn row_text(columns: &[(String, usize, Part)], row: &[Cell], first: bool) -> String {
    let fields: Vec<String> = columns
        .iter()
        .map(|(h, i, part)| {
            let value = match row[*i].machine(*part) {
                Machine::Number(s) => s,
                Machine::Str(s) => string(&s),
                Machine::Null => "null".to_string(),
            };
            format!("{}: {}", string(h), value)
        })
        .collect();
    format!(
        "{}        {{{}}}",
        if first { "\n" } else { ",\n" },
        fields.join(", ")
    )
}

/// The end of a table (`empty`: it has no rows).
pub(crate) fn table_close(empty: bool) -> &'static str {
    if empty {
        "]\n    }"
    } else {
        "\n      ]\n    }"
    }
}

/// The end of the tables array and the notes.
pub(crate) fn tail(no_tables: bool, notes: &[String]) -> String {
    let mut out = String::from(if no_tables { "],\n" } else { "\n  ],\n" });
    let notes: Vec<String> = notes.iter().map(|n| string(n)).collect();
    out.push_str(&format!("  \"notes\": [{}]\n}}\n", notes.join(", ")));
    out
}
