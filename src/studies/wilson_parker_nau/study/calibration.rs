//! The natural evaluator's error table (Wilson, Parker & Nau 2009: "we estimated the
//! associated error (used by EMM) by generating many completely solved game trees"): its
//! estimation on random boards, and its JSON file.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Scratch, solve_fast};
use crate::error::{Error, Result};
use crate::model::Player;
use crate::sim::level_tree::{BoardSpec, GameKind};
use crate::sim::runner::TrialRunner;

/// One cell of the natural evaluator's error table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CalibrationRow {
    /// The height of the nodes (1..=H).
    pub node_height: u32,
    /// The binary judgement: the node looks like a win for Max.
    pub judged_win_for_max: bool,
    /// Nodes of this height so judged.
    pub nodes: u64,
    /// Of those, nodes whose true value differs.
    pub wrong: u64,
    /// `wrong / nodes` (1/2 when no node was so judged): EMM's error for this judgement.
    pub error: f64,
}

/// The natural evaluator's error rates by node height and judgement, and the games they were
/// estimated on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// P-games or N-games.
    pub game: GameKind,
    /// Branching factor b.
    pub branching: u32,
    /// Height H of the trees.
    pub height: u32,
    /// The square or edge probability.
    pub p: f64,
    /// Random boards solved.
    pub games: u64,
    /// The seed of their streams.
    pub seed: u64,
    /// Two rows per node height (judged loss, then judged win), heights ascending.
    pub rows: Vec<CalibrationRow>,
}

/// One CSV line of a saved calibration: the metadata repeated on every row.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct CalibrationLine {
    game: GameKind,
    branching: u32,
    height: u32,
    p: f64,
    games: u64,
    seed: u64,
    node_height: u32,
    judged_win_for_max: bool,
    nodes: u64,
    wrong: u64,
    error: f64,
}

fn calibration_error(message: impl std::fmt::Display) -> Error {
    Error::invalid(
        "--calibration",
        "a calibration table written by `pathology mc emm-calibrate` (.json or .csv)",
        message,
    )
}

impl Calibration {
    /// EMM's error for a node of height `t` judged a win (or not) for Max.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::wilson_parker_nau::study::calibrate;
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// use pathology::sim::TrialRunner;
    /// let spec = BoardSpec::new(GameKind::P, 2, 2, 0.5).unwrap();
    /// let table = calibrate(&spec, &TrialRunner::new(200, 1, 1).unwrap()).unwrap();
    /// // Height 1 (Max, b = 2): "at least half the squares are 1" is exactly the true value.
    /// assert_eq!((table.error(1, false), table.error(1, true)), (0.0, 0.0));
    /// // Height 2 (Min): 3 or 4 ones out of 4 is always a win, but 2 ones can be one
    /// // in each half.
    /// assert_eq!(table.error(2, true), 0.0);
    /// assert!(table.error(2, false) > 0.0);
    /// ```
    pub fn error(&self, t: u32, judged_win_for_max: bool) -> f64 {
        let index = 2 * (t as usize - 1) + usize::from(judged_win_for_max);
        self.rows.get(index).map_or(0.5, |r| r.error)
    }

    /// Checks that the table was estimated on boards like `spec`.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::wilson_parker_nau::study::calibrate;
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// use pathology::sim::TrialRunner;
    /// let spec = BoardSpec::new(GameKind::P, 2, 2, 0.5).unwrap();
    /// let table = calibrate(&spec, &TrialRunner::new(200, 1, 1).unwrap()).unwrap();
    /// assert!(table.check_matches(&spec).is_ok());
    /// let other = BoardSpec::new(GameKind::N, 2, 2, 0.5).unwrap();
    /// assert!(table.check_matches(&other).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--calibration` when the game, b, H or p differ.
    pub fn check_matches(&self, spec: &BoardSpec) -> Result<()> {
        let ours = (spec.kind, spec.tree.branching() as u32, spec.tree.height());
        let theirs = (self.game, self.branching, self.height);
        let rows_ok = self.rows.len() == 2 * self.height as usize
            && self.rows.iter().enumerate().all(|(i, r)| {
                r.node_height as usize == i / 2 + 1 && r.judged_win_for_max == (i % 2 == 1)
            });
        if ours != theirs || (self.p - spec.parameter).abs() > 1e-12 || !rows_ok {
            return Err(Error::invalid(
                "--calibration",
                &format!(
                    "a table for {}-games with b = {}, H = {}, p = {} (two rows per height)",
                    spec.kind.name().to_uppercase(),
                    ours.1,
                    ours.2,
                    spec.parameter
                ),
                format!(
                    "one for {}-games with b = {}, H = {}, p = {}",
                    self.game.name().to_uppercase(),
                    self.branching,
                    self.height,
                    self.p
                ),
            ));
        }
        Ok(())
    }

    /// The table as CSV, one row per (node height, judgement), the metadata on every row.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::wilson_parker_nau::study::calibrate;
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// use pathology::sim::TrialRunner;
    /// let spec = BoardSpec::new(GameKind::P, 2, 2, 0.5).unwrap();
    /// let table = calibrate(&spec, &TrialRunner::new(200, 1, 1).unwrap()).unwrap();
    /// let csv = table.to_csv().unwrap();
    /// assert!(csv.starts_with("game,branching,height,p,games,seed,node_height"));
    /// assert_eq!(csv.lines().count(), 1 + 4); // a header and two rows per height
    /// ```
    ///
    /// # Errors
    ///
    /// Never in practice (writing to memory).
    pub fn to_csv(&self) -> Result<String> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        for r in &self.rows {
            writer
                .serialize(CalibrationLine {
                    game: self.game,
                    branching: self.branching,
                    height: self.height,
                    p: self.p,
                    games: self.games,
                    seed: self.seed,
                    node_height: r.node_height,
                    judged_win_for_max: r.judged_win_for_max,
                    nodes: r.nodes,
                    wrong: r.wrong,
                    error: r.error,
                })
                .map_err(calibration_error)?;
        }
        let bytes = writer.into_inner().map_err(calibration_error)?;
        String::from_utf8(bytes).map_err(calibration_error)
    }

    /// Reads a table written by [`Calibration::to_csv`].
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::wilson_parker_nau::study::{Calibration, calibrate};
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// use pathology::sim::TrialRunner;
    /// let spec = BoardSpec::new(GameKind::P, 2, 2, 0.5).unwrap();
    /// let table = calibrate(&spec, &TrialRunner::new(200, 1, 1).unwrap()).unwrap();
    /// assert_eq!(Calibration::from_csv(&table.to_csv().unwrap()).unwrap(), table);
    /// assert!(Calibration::from_csv("not a table").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--calibration` for malformed text.
    pub fn from_csv(text: &str) -> Result<Self> {
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let lines: Vec<CalibrationLine> = reader
            .deserialize()
            .collect::<std::result::Result<_, _>>()
            .map_err(calibration_error)?;
        let first = lines
            .first()
            .ok_or_else(|| calibration_error("an empty table"))?;
        Ok(Calibration {
            game: first.game,
            branching: first.branching,
            height: first.height,
            p: first.p,
            games: first.games,
            seed: first.seed,
            rows: lines
                .iter()
                .map(|l| CalibrationRow {
                    node_height: l.node_height,
                    judged_win_for_max: l.judged_win_for_max,
                    nodes: l.nodes,
                    wrong: l.wrong,
                    error: l.error,
                })
                .collect(),
        })
    }

    /// Writes the table as JSON (`.json`) or CSV (any other extension), atomically
    /// ([`crate::report::output::write_atomically`]: a failed write leaves the old file, or none).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::wilson_parker_nau::study::{Calibration, calibrate};
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// use pathology::sim::TrialRunner;
    /// let spec = BoardSpec::new(GameKind::P, 2, 2, 0.5).unwrap();
    /// let table = calibrate(&spec, &TrialRunner::new(200, 1, 1).unwrap()).unwrap();
    /// let name = format!("pathology-doc-save-{}.json", std::process::id());
    /// let path = std::env::temp_dir().join(name);
    /// table.save(&path).unwrap();
    /// assert_eq!(Calibration::load(&path).unwrap(), table);
    /// std::fs::remove_file(&path).unwrap();
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--out` when the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<()> {
        let text = if is_json(path) {
            serde_json::to_string_pretty(self).map_err(calibration_error)? + "\n"
        } else {
            self.to_csv()?
        };
        crate::report::output::write_atomically(path, text).map_err(|e| unwritable(path, e))
    }

    /// Reads a table saved by [`Calibration::save`].
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::wilson_parker_nau::study::{Calibration, calibrate};
    /// use pathology::sim::level_tree::{BoardSpec, GameKind};
    /// use pathology::sim::TrialRunner;
    /// let spec = BoardSpec::new(GameKind::P, 2, 2, 0.5).unwrap();
    /// let table = calibrate(&spec, &TrialRunner::new(200, 1, 1).unwrap()).unwrap();
    /// let name = format!("pathology-doc-load-{}.csv", std::process::id());
    /// let path = std::env::temp_dir().join(name);
    /// table.save(&path).unwrap();
    /// assert_eq!(Calibration::load(&path).unwrap(), table);
    /// std::fs::remove_file(&path).unwrap();
    /// assert!(Calibration::load(&path).is_err()); // no such file any more
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--calibration` when the file cannot be read or
    /// parsed.
    pub fn load(path: &Path) -> Result<Self> {
        let text = crate::report::read::read_capped(
            path,
            "--calibration",
            "a calibration table written by `pathology mc emm-calibrate` (.json or .csv)",
        )?;
        if is_json(path) {
            serde_json::from_str(&text)
                .map_err(|e| calibration_error(format!("{}: {e}", path.display())))
        } else {
            Self::from_csv(&text)
        }
    }
}

fn unwritable(path: &Path, e: std::io::Error) -> Error {
    Error::invalid(
        "--out",
        "a file that can be written",
        format!("{}: {e}", path.display()),
    )
}

/// Checks that `path` can be written, before any work is done, by the rule every output file
/// follows ([`crate::report::output::check_file`]): a symbolic link is replaced by the new file
/// (its target is untouched), a FIFO or a device is written through (and not opened here: a
/// FIFO would block until a reader came, then hand it an empty file), a directory is refused,
/// and a missing parent directory is refused.
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::study::check_writable;
/// let dir = tempfile::tempdir().unwrap();
/// assert!(check_writable(&dir.path().join("c.json")).is_ok());
/// assert!(!dir.path().join("c.json").exists()); // nothing left behind
/// let e = check_writable(&dir.path().join("no/such/dir/c.json")).unwrap_err();
/// assert!(e.to_string().starts_with("--out must be"));
/// assert!(check_writable(dir.path()).is_err()); // a directory
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming `--out` when the file cannot be created for writing (a
/// missing directory, a parent that is a file, no permission) or is a directory.
pub fn check_writable(path: &Path) -> Result<()> {
    crate::report::output::check_file("--out", path, false)
}

fn is_json(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// The natural evaluator made binary: whether a node of height `t` with `ones` 1-squares out
/// of `squares` looks like a win for Max. The player to move judges its own winning squares
/// (1-squares for Max, 0-squares for Min) against its losing ones; a tie counts as a win for
/// the player to move.
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::study::natural_judgement;
/// assert!(natural_judgement(1, 1, 2)); // Max to move (odd height), a tie: Max's
/// assert!(!natural_judgement(2, 2, 4)); // Min to move, a tie: Min's
/// assert!(natural_judgement(2, 3, 4)); // Min to move, more 1s: Max's
/// ```
pub fn natural_judgement(t: u32, ones: u32, squares: u32) -> bool {
    match Player::to_move_at_height(t) {
        Player::Max => 2 * ones >= squares,
        Player::Min => 2 * ones > squares,
    }
}

/// Estimates the natural evaluator's error table on `runner.trials()` random boards like
/// `spec` (not conditioned on being non-trivial): every node of height 1..=H is judged and
/// compared with its true value.
///
/// # Examples
///
/// ```
/// use pathology::studies::wilson_parker_nau::study::calibrate;
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// use pathology::sim::TrialRunner;
/// let spec = BoardSpec::new(GameKind::P, 2, 4, 0.382).unwrap();
/// let table = calibrate(&spec, &TrialRunner::new(50, 1, 1).unwrap()).unwrap();
/// assert_eq!(table.rows.len(), 8);
/// let nodes: u64 = table.rows.iter().filter(|r| r.node_height == 1).map(|r| r.nodes).sum();
/// assert_eq!(nodes, 50 * 8); // 8 nodes of height 1 per board
/// ```
///
/// # Errors
///
/// As [`TrialRunner::run`].
pub fn calibrate(spec: &BoardSpec, runner: &TrialRunner) -> Result<Calibration> {
    let tree = &spec.tree;
    let height = tree.height();
    let counts = runner.run(
        Scratch::default,
        |s, rng| {
            spec.draw(rng, &mut s.leaves);
            solve_fast(tree, &s.leaves, &mut s.wins);
            tree.count_ones(&s.leaves, &mut s.ones);
            // [t][judged] -> (nodes, wrong)
            let mut counts = vec![[(0u64, 0u64); 2]; height as usize];
            for t in 1..=height {
                let squares = (tree.branching() as u32).pow(t);
                let cell = &mut counts[t as usize - 1];
                for n in tree.offset(t)..tree.offset(t) + tree.width(t) {
                    let judged = natural_judgement(t, s.ones[n], squares);
                    let c = &mut cell[usize::from(judged)];
                    c.0 += 1;
                    c.1 += u64::from(judged != s.wins[n]);
                }
            }
            counts
        },
        vec![[(0u64, 0u64); 2]; height as usize],
        |mut total, counts| {
            for (t, c) in total.iter_mut().zip(counts) {
                for j in 0..2 {
                    t[j].0 += c[j].0;
                    t[j].1 += c[j].1;
                }
            }
            total
        },
    )?;
    let rows = counts
        .iter()
        .enumerate()
        .flat_map(|(i, cell)| {
            (0..2).map(move |j| CalibrationRow {
                node_height: i as u32 + 1,
                judged_win_for_max: j == 1,
                nodes: cell[j].0,
                wrong: cell[j].1,
                error: if cell[j].0 == 0 {
                    0.5
                } else {
                    cell[j].1 as f64 / cell[j].0 as f64
                },
            })
        })
        .collect();
    Ok(Calibration {
        game: spec.kind,
        branching: tree.branching() as u32,
        height,
        p: spec.parameter,
        games: runner.trials_run(),
        seed: runner.seed(),
        rows,
    })
}
