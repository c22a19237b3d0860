//! `pathology errprop`'s trajectories of the gamma/delta map (Li & Marsland Section 5), each
//! row written as soon as it is computed, or their long-run limits.
//!
//! CSV and JSON compute and print one trajectory at a time and hold only it; text, Markdown
//! and LaTeX, whose rows are steps across all settings, hold the trajectories' points (not
//! their printed rows). The output is byte for byte [`trajectory_report`]'s
//! (see [`crate::report::stream`]).

use std::io::Write;

use num_rational::BigRational;

use super::BackUp;
#[cfg(doc)]
use super::report::trajectory_report;
use super::report::{
    F64_TRAJECTORY_NOTE, Trajectory, compute_trajectories, long_run_report, map_title,
    setting_label, trajectory_grid_row, trajectory_rows, trajectory_table, trajectory_title,
};
use crate::analytic::dgame::report::probability_cell;
use crate::error::{Error, Result};
use crate::numeric::number::{Probability, short_text};
use crate::report::figure::Series;
use crate::report::{RenderOptions, Report, StreamError, TableStream};

/// Decimals a reader's format shows by default.
pub const TRAJECTORY_DECIMALS: usize = 6;

/// Trajectories (or long-run limits) of the map from one start, for one or more (f1, f2).
#[derive(Debug, Clone, PartialEq)]
pub struct TrajectoryRequest {
    /// Starting gamma = Pr[Psi = 1 | loss].
    pub gamma: BigRational,
    /// Starting delta = Pr[Psi = 0 | win].
    pub delta: BigRational,
    /// The settings' f1 (`--f1`; empty when [`TrajectoryRequest::f`] is given).
    pub f1: Vec<BigRational>,
    /// The settings' f2: as many as f1, or one for all.
    pub f2: Vec<BigRational>,
    /// f1 = f2 = f, one setting each (`--f`), instead of f1 and f2.
    pub f: Vec<BigRational>,
    /// Back-up steps (each is two tree levels).
    pub steps: u32,
    /// Max-to-Max or the dual Min-to-Min back-up.
    pub from: BackUp,
    /// Iterate in exact rationals.
    pub exact: bool,
    /// Iterate in `f64` until the point settles and report the limit instead.
    pub long_run: bool,
}

/// The trajectories' points as plot series, with the figure's title.
#[derive(Debug, Clone, PartialEq)]
pub struct TrajectoryFigure {
    /// The figure's title.
    pub title: String,
    /// One series `(gamma, delta)` per setting.
    pub series: Vec<Series>,
}

impl TrajectoryRequest {
    /// The (f1, f2) settings.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] when f2 has neither one value nor as many as f1.
    pub fn settings(&self) -> Result<Vec<(BigRational, BigRational)>> {
        if !self.f.is_empty() {
            return Ok(self.f.iter().map(|f| (f.clone(), f.clone())).collect());
        }
        let (n1, n2) = (self.f1.len(), self.f2.len());
        Ok(match (n1, n2) {
            _ if n1 == n2 => self
                .f1
                .iter()
                .cloned()
                .zip(self.f2.iter().cloned())
                .collect(),
            (_, 1) => self
                .f1
                .iter()
                .map(|a| (a.clone(), self.f2[0].clone()))
                .collect(),
            (1, _) => self
                .f2
                .iter()
                .map(|b| (self.f1[0].clone(), b.clone()))
                .collect(),
            _ => {
                return Err(Error::invalid(
                    "--f2",
                    &format!("one value or as many as --f1 ({n1})"),
                    format!("{n2} values"),
                ));
            }
        })
    }

    /// The report's title and manifest (no tables).
    pub fn manifest(&self) -> Report {
        let (gamma, delta) = (&self.gamma, &self.delta);
        let title = if self.long_run {
            format!(
                "Long-run limit of the {} back-up (f64) from ({}, {})",
                map_title(self.from),
                short_text(gamma),
                short_text(delta)
            )
        } else {
            trajectory_title(self.from, gamma, delta)
        };
        let list =
            |values: &[BigRational]| values.iter().map(short_text).collect::<Vec<_>>().join(",");
        let mut report = Report::new("errprop", &title)
            .param("gamma", short_text(gamma))
            .param("delta", short_text(delta));
        report = if self.f.is_empty() {
            report
                .param("f1", list(&self.f1))
                .param("f2", list(&self.f2))
        } else {
            report.param("f", list(&self.f))
        };
        report = report.param("from", self.from.name());
        if self.long_run {
            report.param("long_run", true)
        } else {
            report.param("steps", self.steps).param("exact", self.exact)
        }
    }

    /// The long-run limits ([`long_run_report`]), for [`TrajectoryRequest::long_run`].
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::errprop::BackUp;
    /// use pathology::analytic::errprop::stream::TrajectoryRequest;
    /// use pathology::numeric::number::parse_rational;
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let request = TrajectoryRequest {
    ///     gamma: q("0.3"), delta: q("0.2"), f1: vec![], f2: vec![], f: vec![q("0.7")],
    ///     steps: 10, from: BackUp::Max, exact: false, long_run: true,
    /// };
    /// assert_eq!(request.long_run_report().unwrap().tables[0].rows.len(), 1);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TrajectoryRequest::settings`] and [`long_run_report`].
    pub fn long_run_report(&self) -> Result<Report> {
        let settings = self.settings()?;
        long_run_report(
            self.manifest(),
            &self.gamma,
            &self.delta,
            &settings,
            self.from,
        )
    }

    /// Computes the trajectories and writes their report, rendered as `options` say, into
    /// the writer that `open` gives (opened once the cost is accepted); with `figure`, also
    /// returns the points for a plot.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::errprop::BackUp;
    /// use pathology::analytic::errprop::stream::TrajectoryRequest;
    /// use pathology::numeric::number::parse_rational;
    /// use pathology::report::{Format, RenderOptions};
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let request = TrajectoryRequest {
    ///     gamma: q("0.3"), delta: q("0.2"), f1: vec![], f2: vec![], f: vec![q("0.7"), q("0.8")],
    ///     steps: 4, from: BackUp::Max, exact: true, long_run: false,
    /// };
    /// let options = RenderOptions { format: Format::Csv, ..RenderOptions::default() };
    /// let mut out = Vec::new();
    /// let figure = request.write(&options, true, || Ok(&mut out)).unwrap().unwrap();
    /// assert_eq!(figure.series.len(), 2);
    /// assert_eq!(String::from_utf8(out).unwrap().lines().filter(|l| l.starts_with("max,")).count(), 10);
    /// ```
    ///
    /// # Errors
    ///
    /// [`StreamError::Library`] for invalid values, a refused cost or a `--table` other than
    /// `trajectories`; [`StreamError::Output`] when opening or writing fails.
    pub fn write<W: Write>(
        &self,
        options: &RenderOptions,
        figure: bool,
        open: impl FnOnce() -> std::io::Result<W>,
    ) -> Result<Option<TrajectoryFigure>, StreamError> {
        let settings = self.settings()?;
        super::check_trajectory_cost(
            &self.gamma,
            &self.delta,
            &settings,
            self.steps,
            self.exact,
            options.format,
        )?;
        let report = self.manifest();
        let series = if self.exact {
            self.trajectories::<BigRational, W>(
                report.mode("exact"),
                &settings,
                options,
                figure,
                open,
            )?
        } else {
            self.trajectories::<f64, W>(report, &settings, options, figure, open)?
        };
        Ok(figure.then(|| TrajectoryFigure {
            title: format!(
                "{} back-up from ({}, {})",
                map_title(self.from),
                short_text(&self.gamma),
                short_text(&self.delta)
            ),
            series,
        }))
    }

    /// The trajectories in the mode `P`, each row printed as soon as it is computed; returns
    /// their series (with `figure`). `--table` naming another table is refused before any
    /// work.
    fn trajectories<P: Probability, W: Write>(
        &self,
        report: Report,
        settings: &[(BigRational, BigRational)],
        output: &RenderOptions,
        figure: bool,
        open: impl FnOnce() -> std::io::Result<W>,
    ) -> Result<Vec<Series>, StreamError> {
        let (gamma, delta) = (&self.gamma, &self.delta);
        output.check_table(&["trajectories"])?;
        let labels: Vec<String> = settings.iter().map(|(a, b)| setting_label(a, b)).collect();
        let table = trajectory_table(&labels);
        // The widest row: the last step's label, every value a probability.
        let half = P::from_rational(&BigRational::new(1.into(), 2.into()));
        let mut widest = table.clone();
        if let Some(grid) = &mut widest.grid {
            let cells = vec![probability_cell(&half, 0.0); 2 * settings.len()];
            grid.body = vec![(self.steps.to_string(), cells)];
        }
        let mut stream = TableStream::start(
            open().map_err(StreamError::Output)?,
            &report,
            &table,
            &[],
            output.format,
            &output.export_options(TRAJECTORY_DECIMALS),
            &widest,
        )
        .map_err(StreamError::Output)?;
        let run = |setting: &(BigRational, BigRational)| {
            compute_trajectories::<P>(
                gamma,
                delta,
                std::slice::from_ref(setting),
                self.from,
                self.steps,
            )
            .map(|mut one| one.remove(0))
        };
        let mut series = Vec::new();
        if stream.wants_grid() {
            let computed = settings.iter().map(run).collect::<Result<Vec<_>>>()?;
            (|| {
                let n = self.steps as usize + 1;
                for start in (0..n).step_by(4096) {
                    let rows: Vec<_> = (start..n.min(start + 4096))
                        .map(|k| trajectory_grid_row(k, &computed))
                        .collect();
                    stream.push_grid(&rows)?;
                }
                if P::EXACT && stream.wants_rows() {
                    for t in &computed {
                        push_trajectory(&mut stream, gamma, delta, self.from, t)?;
                    }
                }
                Ok::<(), std::io::Error>(())
            })()
            .map_err(StreamError::Output)?;
            if figure {
                series = computed.iter().map(|t| t.series()).collect();
            }
        } else {
            for setting in settings {
                let t = run(setting)?;
                push_trajectory(&mut stream, gamma, delta, self.from, &t)
                    .map_err(StreamError::Output)?;
                if figure {
                    series.push(t.series());
                }
            }
        }
        let mut notes = report.notes.clone();
        if !P::EXACT {
            notes.push(F64_TRAJECTORY_NOTE.to_string());
        }
        let mut finished = report.clone().with_table(table.clone());
        finished.notes.clone_from(&notes);
        let (_, rows_sha256) = stream
            .finish_with_rows_digest(Vec::new(), notes)
            .map_err(StreamError::Output)?;
        // The manifest file last: the notes are known at the end.
        output.write_streamed_manifest(&finished, rows_sha256.as_deref())?;
        Ok(series)
    }
}

/// Pushes the tidy rows of a trajectory, 4096 steps at a time.
fn push_trajectory<W: Write, P: Probability>(
    stream: &mut TableStream<W>,
    gamma: &BigRational,
    delta: &BigRational,
    from: BackUp,
    t: &Trajectory<P>,
) -> std::io::Result<()> {
    let n = t.points.len();
    for start in (0..n).step_by(4096) {
        stream.push_rows(&trajectory_rows(
            gamma,
            delta,
            from,
            t,
            start..n.min(start + 4096),
        ))?;
    }
    Ok(())
}
