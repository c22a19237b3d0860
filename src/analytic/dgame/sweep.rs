//! `pathology sweep`: D(d,h) and PS over a range of f1 (Li & Marsland Section 6.2 beyond the
//! paper's tables), each setting's row written as soon as it and the settings before it are
//! computed.
//!
//! The settings run in parallel ([`compute_columns_in_order`]); the output is byte for byte
//! the whole report's ([`decision_report`] with [`Layout::SettingRows`]) in every format, and
//! it holds no more than the rows not yet printed. A progress bar counts the settings on
//! standard error when that is a terminal.

use std::io::Write;

use num_rational::BigRational;

use super::report::{Layout, decision_report, f64_note};
use super::table::{
    SecondFactor, compute_columns_in_order, compute_columns_with_progress, sweep_settings,
};
use super::{DecisionColumn, DependenceFactors};
use crate::error::Result;
use crate::numeric::number::{Probability, short_text};
use crate::progress::Task;
use crate::report::{RenderOptions, Report, StreamError, Table, TableStream};

/// Decimals a reader's format shows by default.
pub const SWEEP_DECIMALS: usize = 3;

/// A sweep of f1 from `from` to `to` (included when the steps land on it) by `step`.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepRequest {
    /// Height h of the node where the decision is made.
    pub height: u32,
    /// First f1.
    pub from: BigRational,
    /// Last f1.
    pub to: BigRational,
    /// Step of f1 (exact).
    pub step: BigRational,
    /// How f2 follows f1.
    pub second: SecondFactor<BigRational>,
    /// Exact rationals instead of `f64`.
    pub exact: bool,
}

impl SweepRequest {
    /// The (f1, f2) settings ([`sweep_settings`]).
    ///
    /// # Errors
    ///
    /// As [`sweep_settings`].
    pub fn settings(&self) -> Result<Vec<(BigRational, BigRational)>> {
        sweep_settings(&self.from, &self.to, &self.step, &self.second)
    }

    /// The report's title, manifest and mode parameter (no tables).
    pub fn manifest(&self) -> Report {
        let description = match &self.second {
            SecondFactor::Fixed(f2) => format!("f2 = {}", short_text(f2)),
            SecondFactor::FromP0(p0) => {
                format!("f2 from Theorem 3.1 with p0 = {}", short_text(p0))
            }
            SecondFactor::Equal => "f2 = f1".to_string(),
        };
        let title = format!(
            "D(d,{}) and PS for f1 from {} to {} step {}, {description}",
            self.height,
            short_text(&self.from),
            short_text(&self.to),
            short_text(&self.step)
        );
        let report = Report::new("sweep", &title)
            .param("height", self.height)
            .param("from", short_text(&self.from))
            .param("to", short_text(&self.to))
            .param("step", short_text(&self.step));
        let report = match &self.second {
            SecondFactor::Fixed(f2) => report.param("f2", short_text(f2)),
            SecondFactor::FromP0(p0) => report.param("p0", short_text(p0)),
            SecondFactor::Equal => report,
        };
        report.param("exact", self.exact)
    }

    /// Computes the sweep and writes its report, rendered as `options` say, into the writer
    /// that `open` gives; `open` is called once, when the first row is ready (so that a
    /// refused cost prints nothing) or, when no row is streamed, with the whole report.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::sweep::SweepRequest;
    /// use pathology::analytic::dgame::table::SecondFactor;
    /// use pathology::numeric::number::parse_rational;
    /// use pathology::report::{Format, RenderOptions};
    /// let q = |s: &str| parse_rational(s).unwrap();
    /// let request = SweepRequest {
    ///     height: 6, from: q("0.1"), to: q("0.3"), step: q("0.1"),
    ///     second: SecondFactor::Equal, exact: true,
    /// };
    /// let options = RenderOptions { format: Format::Csv, ..RenderOptions::default() };
    /// let mut out = Vec::new();
    /// request.write(&options, || Ok(&mut out)).unwrap();
    /// let csv = String::from_utf8(out).unwrap();
    /// assert_eq!(csv.lines().filter(|l| l.starts_with("0.")).count(), 18); // 3 settings x 6 depths
    /// ```
    ///
    /// # Errors
    ///
    /// [`StreamError::Library`] for invalid settings, a refused cost or a `--table` that is
    /// not `decisions` or `ps`; [`StreamError::Output`] when opening or writing fails.
    pub fn write<W, O>(&self, options: &RenderOptions, open: O) -> Result<(), StreamError>
    where
        W: Write + Send,
        O: FnOnce() -> std::io::Result<W> + Send,
    {
        let settings = self.settings()?;
        let report = self.manifest();
        let bar = Task::start("sweep", "settings", settings.len() as u64, true);
        if self.exact {
            sweep::<BigRational, W, O>(report, &settings, self.height, options, &bar, open)
        } else {
            sweep::<f64, W, O>(report, &settings, self.height, options, &bar, open)
        }
    }
}

/// D(d,h) of every setting in the mode `P`, one row per setting, each printed as soon as it
/// and the settings before it are computed (the settings run in parallel), in any format:
/// the output is byte for byte the whole report's. With `--table ps` the (small) PS table is
/// printed at the end.
fn sweep<P, W, O>(
    report: Report,
    settings: &[(BigRational, BigRational)],
    height: u32,
    output: &RenderOptions,
    bar: &Task,
    open: O,
) -> Result<(), StreamError>
where
    P: Probability,
    W: Write + Send,
    O: FnOnce() -> std::io::Result<W> + Send,
{
    let converted: Vec<(P, P)> = settings
        .iter()
        .map(|(a, b)| (P::from_rational(a), P::from_rational(b)))
        .collect();
    output.check_table(&["decisions", "ps"])?;
    if !matches!(output.table.as_deref(), None | Some("decisions")) {
        let columns = compute_columns_with_progress(&converted, height, &|| bar.advance(1))?;
        let report = decision_report(report, &columns, settings, Layout::SettingRows, None);
        let text = output.render(&report, SWEEP_DECIMALS)?;
        let mut out = open().map_err(StreamError::Output)?;
        return out
            .write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(StreamError::Output);
    }
    // The layout, and the widest it can be: every setting with placeholder values 1/2 (a
    // probability prints as wide as 1/2 to the same decimals, or narrower).
    let half = P::from_rational(&BigRational::new(1.into(), 2.into()));
    let placeholders = converted
        .iter()
        .map(|(a, b)| {
            Ok(DecisionColumn {
                factors: DependenceFactors::new(a.clone(), b.clone())?,
                height,
                values: vec![half.clone(); height as usize],
                error_bounds: vec![0.0; height as usize],
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let layout = decision_report(
        report.clone(),
        &placeholders,
        settings,
        Layout::SettingRows,
        None,
    );
    let (decisions, ps_schema) = (&layout.tables[0], &layout.tables[1]);
    let others: Vec<&Table> = if output.table.is_none() {
        vec![ps_schema]
    } else {
        Vec::new()
    };
    let export = output.export_options(SWEEP_DECIMALS);
    // Opened at the first finished setting: the cost check inside
    // `compute_columns_in_order` refuses before anything is printed.
    let mut open = Some(open);
    let mut start = || {
        let out = open.take().expect("opened once")()?;
        TableStream::start(
            out,
            &layout,
            decisions,
            &others,
            output.format,
            &export,
            decisions,
        )
    };
    let mut stream = None;
    let mut ps = ps_schema.clone();
    ps.rows.clear();
    let mut largest = 0.0f64;
    compute_columns_in_order(
        &converted,
        height,
        &|| bar.advance(1),
        |i, column: DecisionColumn<P>| {
            largest = column.error_bounds.iter().copied().fold(largest, f64::max);
            let one = decision_report(
                report.clone(),
                std::slice::from_ref(&column),
                &settings[i..=i],
                Layout::SettingRows,
                None,
            );
            let table = &one.tables[0];
            if stream.is_none() {
                stream = Some(bar.suspend(&mut start).map_err(StreamError::Output)?);
            }
            let stream = stream.as_mut().expect("opened");
            bar.suspend(|| {
                if stream.wants_rows() {
                    stream.push_rows(&table.rows)?;
                }
                if let Some(grid) = &table.grid {
                    stream.push_grid(&grid.body)?;
                }
                Ok::<(), std::io::Error>(())
            })
            .map_err(StreamError::Output)?;
            ps.rows.extend(one.tables[1].rows.iter().cloned());
            Ok::<(), StreamError>(())
        },
    )?;
    let others = if output.table.is_none() {
        vec![ps]
    } else {
        Vec::new()
    };
    let notes = if P::EXACT {
        Vec::new()
    } else {
        vec![f64_note(height, largest)]
    };
    bar.clear();
    let stream = match stream {
        Some(stream) => stream,
        None => start().map_err(StreamError::Output)?,
    };
    let mut finished = layout.clone();
    finished.notes.clone_from(&notes);
    let (_, rows_sha256) = stream
        .finish_with_rows_digest(others, notes)
        .map_err(StreamError::Output)?;
    // The manifest file last: the notes are known at the end.
    output.write_streamed_manifest(&finished, rows_sha256.as_deref())?;
    Ok(())
}
