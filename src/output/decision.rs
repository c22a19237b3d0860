//! Rendering of D(d,h) columns: the paper's Tables 1-2, `dgame` and `sweep` output.

use serde_json::{Value, json};

use super::{Format, align_columns, csv_string, latex_escape, markdown_table};
use crate::dgame::DecisionColumn;
use crate::number::{Probability, short_text};

/// How the columns are laid out in text, Markdown and LaTeX.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One row per depth d, one column per (f1, f2) setting, PS last: the paper's layout.
    DepthRows,
    /// One row per setting, one column per depth, PS last: for sweeps.
    SettingRows,
}

/// A set of D(d,h) columns ready to print.
#[derive(Debug, Clone)]
pub struct DecisionTable<'a, P: Probability> {
    /// A caption printed above text, Markdown and LaTeX tables and stored in JSON.
    pub title: String,
    /// The columns (all of the same height).
    pub columns: &'a [DecisionColumn<P>],
    /// The layout of text, Markdown and LaTeX.
    pub layout: Layout,
    /// Decimals of printed values (the paper uses 3).
    pub decimals: usize,
    /// Show only this depth (and PS); `None` shows every depth.
    pub only_depth: Option<u32>,
    /// How to print each column's (f1, f2) in text, Markdown, LaTeX and CSV (e.g. the exact
    /// inputs `13/27` rather than the double nearest to them); `None` prints the columns' own
    /// factors.
    pub labels: Option<Vec<(String, String)>>,
}

/// One setting's values, formatted once.
struct Formatted {
    f1: String,
    f2: String,
    values: Vec<String>,
    ps: String,
}

impl<P: Probability> DecisionTable<'_, P> {
    /// Renders the table in the given format.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::dgame::table::PaperTable;
    /// use pathology::output::{DecisionTable, Format, Layout};
    /// let columns = PaperTable::One.compute::<f64>().unwrap();
    /// let table = DecisionTable {
    ///     title: "Table 1".into(),
    ///     columns: &columns,
    ///     layout: Layout::DepthRows,
    ///     decimals: 3,
    ///     only_depth: None,
    ///     labels: None,
    /// };
    /// let text = table.render(Format::Text);
    /// assert!(text.lines().any(|l| l.starts_with("PS") && l.contains("0.038")));
    /// ```
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Csv => self.csv(),
            Format::Json => {
                let mut s =
                    serde_json::to_string_pretty(&self.json()).expect("JSON of plain values");
                s.push('\n');
                s
            }
            Format::Markdown => self.markdown(),
            Format::Latex => self.latex(),
        }
    }

    /// The printed (f1, f2) of column `i`.
    fn label(&self, i: usize) -> (String, String) {
        match &self.labels {
            Some(labels) => labels[i].clone(),
            None => {
                let c = &self.columns[i];
                (short_text(c.factors.f1()), short_text(c.factors.f2()))
            }
        }
    }

    fn formatted(&self) -> Vec<Formatted> {
        self.columns
            .iter()
            .enumerate()
            .map(|(i, c)| Formatted {
                f1: self.label(i).0,
                f2: self.label(i).1,
                values: c
                    .values
                    .iter()
                    .map(|v| v.to_decimal(self.decimals))
                    .collect(),
                ps: c.pathological_sum().to_decimal(self.decimals),
            })
            .collect()
    }

    fn height(&self) -> u32 {
        self.columns.first().map_or(0, |c| c.height)
    }

    /// The depths shown.
    fn depths(&self) -> Vec<u32> {
        match self.only_depth {
            Some(d) => vec![d],
            None => (1..=self.height()).collect(),
        }
    }

    /// Header rows and body rows in the chosen layout, shared by text, Markdown and LaTeX.
    fn grid(&self) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
        let cols = self.formatted();
        match self.layout {
            Layout::DepthRows => {
                let mut f1 = vec!["f1".to_string()];
                let mut f2 = vec!["f2".to_string()];
                f1.extend(cols.iter().map(|c| c.f1.clone()));
                f2.extend(cols.iter().map(|c| c.f2.clone()));
                let mut body: Vec<Vec<String>> = self
                    .depths()
                    .into_iter()
                    .map(|d| {
                        let mut row = vec![d.to_string()];
                        row.extend(cols.iter().map(|c| c.values[d as usize - 1].clone()));
                        row
                    })
                    .collect();
                let mut ps = vec!["PS".to_string()];
                ps.extend(cols.iter().map(|c| c.ps.clone()));
                body.push(ps);
                (vec![f1, f2], body)
            }
            Layout::SettingRows => {
                let mut header = vec!["f1".to_string(), "f2".to_string()];
                header.extend(self.depths().iter().map(|d| format!("d={d}")));
                header.push("PS".to_string());
                let body = cols
                    .iter()
                    .map(|c| {
                        let mut row = vec![c.f1.clone(), c.f2.clone()];
                        row.extend(
                            self.depths()
                                .iter()
                                .map(|&d| c.values[d as usize - 1].clone()),
                        );
                        row.push(c.ps.clone());
                        row
                    })
                    .collect();
                (vec![header], body)
            }
        }
    }

    fn text(&self) -> String {
        let (header, body) = self.grid();
        let mut rows = header;
        rows.extend(body);
        format!("{}\n\n{}", self.title, align_columns(&rows))
    }

    /// The exact values as `"p/q"` lines (empty in float mode): what `--exact` appends to
    /// the text table.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::dgame::{DependenceFactors, Solver};
    /// use pathology::number::parse_rational;
    /// use pathology::output::{DecisionTable, Layout};
    /// let f = parse_rational("0.5").unwrap();
    /// let columns = [Solver::new(DependenceFactors::new(f.clone(), f).unwrap()).decision_column(2).unwrap()];
    /// let table = DecisionTable {
    ///     title: "f = 1/2".into(),
    ///     columns: &columns,
    ///     layout: Layout::DepthRows,
    ///     decimals: 3,
    ///     only_depth: None,
    ///     labels: None,
    /// };
    /// let appendix = table.exact_appendix();
    /// assert!(appendix.contains("D(1,2) at f1=0.5, f2=0.5: 1/1"));
    /// assert!(appendix.contains("PS at f1=0.5, f2=0.5, h=2: 0/1"));
    /// ```
    pub fn exact_appendix(&self) -> String {
        if !P::EXACT {
            return String::new();
        }
        let mut out = String::from("\nExact values:\n");
        for (i, c) in self.columns.iter().enumerate() {
            let (f1, f2) = self.label(i);
            for d in self.depths() {
                let exact = c.value(d).exact_string().unwrap_or_default();
                out.push_str(&format!(
                    "D({d},{}) at f1={f1}, f2={f2}: {exact}\n",
                    c.height
                ));
            }
            let ps = c.pathological_sum().exact_string().unwrap_or_default();
            out.push_str(&format!("PS at f1={f1}, f2={f2}, h={}: {ps}\n", c.height));
        }
        out
    }

    fn markdown(&self) -> String {
        let (header, body) = self.grid();
        let mut out = format!("**{}**\n\n", self.title);
        match self.layout {
            Layout::DepthRows => {
                let head: Vec<String> = std::iter::once("d".to_string())
                    .chain(header[0][1..].iter().zip(&header[1][1..]).map(|(a, b)| {
                        if a == b {
                            format!("f1 = f2 = {a}")
                        } else {
                            format!("f1 = {a}, f2 = {b}")
                        }
                    }))
                    .collect();
                out.push_str(&markdown_table(&head, &body));
            }
            Layout::SettingRows => out.push_str(&markdown_table(&header[0], &body)),
        }
        out
    }

    fn latex(&self) -> String {
        let (header, body) = self.grid();
        let columns = header[0].len();
        let mut out = format!(
            "% {}\n\\begin{{tabular}}{{l{}}}\n\\toprule\n",
            latex_escape(&self.title),
            "r".repeat(columns - 1)
        );
        let math = |s: &str| match s {
            "f1" => "$f_1$".to_string(),
            "f2" => "$f_2$".to_string(),
            other => latex_escape(other),
        };
        for row in &header {
            let cells: Vec<String> = row.iter().map(|s| math(s)).collect();
            out.push_str(&format!("{} \\\\\n", cells.join(" & ")));
        }
        out.push_str("\\midrule\n");
        let last = body.len().saturating_sub(1);
        for (i, row) in body.iter().enumerate() {
            if self.layout == Layout::DepthRows && i == last {
                out.push_str("\\midrule\n");
            }
            let cells: Vec<String> = row.iter().map(|s| latex_escape(s)).collect();
            out.push_str(&format!("{} \\\\\n", cells.join(" & ")));
        }
        out.push_str("\\bottomrule\n\\end{tabular}\n");
        out
    }

    fn csv(&self) -> String {
        let mut header = vec!["quantity", "f1", "f2", "h", "d", "value"];
        header.push(if P::EXACT { "exact" } else { "error_bound" });
        let mut rows = Vec::new();
        for (i, c) in self.columns.iter().enumerate() {
            let (f1, f2) = self.label(i);
            let mut push = |quantity: &str, d: String, v: &P, bound: f64| {
                let mut row = vec![
                    quantity.to_string(),
                    f1.clone(),
                    f2.clone(),
                    c.height.to_string(),
                    d,
                    format!("{}", v.to_f64()),
                ];
                row.push(v.exact_string().unwrap_or_else(|| format!("{bound:.2e}")));
                rows.push(row);
            };
            for d in self.depths() {
                push(
                    "D",
                    d.to_string(),
                    c.value(d),
                    c.error_bounds[d as usize - 1],
                );
            }
            push(
                "PS",
                String::new(),
                &c.pathological_sum(),
                ps_error_bound(c),
            );
        }
        csv_string(&header, &rows).expect("CSV into memory")
    }

    /// The largest rounding-error bound of the shown values (0 in exact mode).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::dgame::{DependenceFactors, Solver};
    /// use pathology::output::{DecisionTable, Layout};
    /// let columns = [Solver::new(DependenceFactors::new(0.1, 0.1).unwrap()).decision_column(10).unwrap()];
    /// let table = DecisionTable {
    ///     title: "f = 0.1".into(),
    ///     columns: &columns,
    ///     layout: Layout::DepthRows,
    ///     decimals: 3,
    ///     only_depth: None,
    ///     labels: None,
    /// };
    /// assert!(table.max_error_bound() > 0.0 && table.max_error_bound() < 1e-10);
    /// assert!(table.exact_appendix().is_empty()); // f64 mode has no exact values
    /// ```
    pub fn max_error_bound(&self) -> f64 {
        self.columns
            .iter()
            .flat_map(|c| c.error_bounds.iter().copied())
            .fold(0.0, f64::max)
    }

    /// The JSON document: `{"title", "mode", "cells": [{"f1", "f2", "h", "d", "value",
    /// "exact" | "error_bound"}], "ps": [{"f1", "f2", "h", "value", "exact" |
    /// "error_bound"}]}`. `f1`/`f2` are numbers in float mode and `"p/q"` strings in exact
    /// mode; float values carry their rigorous rounding bound.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::dgame::{DependenceFactors, Solver};
    /// use pathology::output::{DecisionTable, Layout};
    /// let columns = [Solver::new(DependenceFactors::new(0.1, 0.1).unwrap()).decision_column(10).unwrap()];
    /// let table = DecisionTable {
    ///     title: "f = 0.1".into(),
    ///     columns: &columns,
    ///     layout: Layout::DepthRows,
    ///     decimals: 3,
    ///     only_depth: None,
    ///     labels: None,
    /// };
    /// let json = table.json();
    /// assert_eq!(json["cells"].as_array().unwrap().len(), 10); // one cell per depth
    /// let ps = json["ps"][0]["value"].as_f64().unwrap();
    /// assert!((ps - 0.038).abs() < 5e-4); // Table 1's PS at f = 0.1
    /// ```
    pub fn json(&self) -> Value {
        let param = |v: &P| match v.exact_string() {
            Some(s) => Value::String(s),
            None => json!(v.to_f64()),
        };
        let entry = |c: &DecisionColumn<P>, d: Option<usize>, v: &P, bound: f64| {
            let mut m = serde_json::Map::new();
            m.insert("f1".into(), param(c.factors.f1()));
            m.insert("f2".into(), param(c.factors.f2()));
            m.insert("h".into(), json!(c.height));
            if let Some(d) = d {
                m.insert("d".into(), json!(d));
            }
            m.insert("value".into(), json!(v.to_f64()));
            match v.exact_string() {
                Some(e) => m.insert("exact".into(), Value::String(e)),
                None => m.insert("error_bound".into(), json!(bound)),
            };
            Value::Object(m)
        };
        let depths = self.depths();
        let cells: Vec<Value> = self
            .columns
            .iter()
            .flat_map(|c| {
                depths.iter().map(move |&d| {
                    entry(
                        c,
                        Some(d as usize),
                        c.value(d),
                        c.error_bounds[d as usize - 1],
                    )
                })
            })
            .collect();
        let ps: Vec<Value> = self
            .columns
            .iter()
            .map(|c| entry(c, None, &c.pathological_sum(), ps_error_bound(c)))
            .collect();
        json!({
            "title": self.title,
            "mode": if P::EXACT { "exact" } else { "f64" },
            "cells": cells,
            "ps": ps,
        })
    }
}

/// A bound on the rounding error of PS: each positive term `D(d-1) - D(d)` is off by at most
/// the sum of the two bounds, and a term that is really zero or negative can appear as at
/// most that much (plus the summation's own rounding, far smaller).
fn ps_error_bound<P: Probability>(c: &DecisionColumn<P>) -> f64 {
    let sum: f64 = c.error_bounds.windows(2).map(|w| w[0] + w[1]).sum();
    sum * (1.0 + 1e-9)
}
