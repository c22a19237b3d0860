//! [`super::Report`] as the tool's one report type: the tables `checked` and `malformed`.

use super::{Report, Verdict};

impl Report {
    /// The checked rows as a [`crate::report::Report`] (tables `checked` and, when some rows
    /// were malformed, `malformed`); `input` names what was read.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::validate::validate;
    /// let csv = "kind,h,d,f1,f2,estimate,trials\ndgame,10,1,0.1,0.1,0.61,10000\n";
    /// let report = validate(csv.as_bytes(), 0.05).unwrap().to_report("input.csv");
    /// assert_eq!(report.tables[0].rows.len(), 1);
    /// assert_eq!(report.manifest.parameter("alpha"), Some("0.05"));
    /// ```
    pub fn to_report(&self, input: &str) -> crate::report::Report {
        use crate::report::{Cell, Column, Kind, Table};
        let verdict = |v: Verdict| match v {
            Verdict::Agrees => "no difference detected",
            Verdict::Disagrees => "disagrees",
        };
        let mut checked = Table::new(
            "checked",
            "Simulation estimates against the exact values",
            vec![
                Column::key("line", Kind::Integer),
                Column::key("kind", Kind::Text),
                Column::key("parameters", Kind::Text),
                Column::new("estimate", Kind::Real),
                Column::new("trials", Kind::Integer),
                Column::new("exact", Kind::Real),
                Column::new("z", Kind::Real),
                Column::new("p_value", Kind::Real).labelled("p"),
                Column::new("verdict", Kind::Text),
                Column::new("holm_p_value", Kind::Real).labelled("Holm p"),
                Column::new("holm_verdict", Kind::Text).labelled("verdict (Holm)"),
            ],
        );
        for r in &self.rows {
            checked.push(vec![
                Cell::int(r.line),
                Cell::text(r.kind.clone()),
                Cell::text(r.parameters.clone()),
                Cell::Real(r.estimate),
                Cell::int(r.trials),
                Cell::Real(r.exact),
                if r.z.is_finite() {
                    Cell::Real(r.z)
                } else {
                    Cell::text(r.z.to_string())
                },
                Cell::Real(r.p_value),
                Cell::text(verdict(r.verdict)),
                Cell::Real(r.holm_p_value),
                Cell::text(verdict(r.holm_verdict)),
            ]);
        }
        let mut report =
            crate::report::Report::new("validate", "Validation against the exact values")
                .param("_", input)
                .param("alpha", self.alpha)
                .mode("exact-check")
                .with_table(checked);
        if !self.errors.is_empty() {
            let mut malformed = Table::new(
                "malformed",
                "malformed rows (not checked)",
                vec![
                    Column::key("line", Kind::Integer),
                    Column::new("reason", Kind::Text),
                ],
            );
            for e in &self.errors {
                malformed.push(vec![Cell::int(e.line), Cell::text(e.reason.clone())]);
            }
            report = report.with_table(malformed);
        }
        report.note(self.summary())
    }
}
