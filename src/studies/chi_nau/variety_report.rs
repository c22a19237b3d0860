//! Chi & Nau's (1987) "variety of games" and Ross's (2020) node counts as [`Report`]s:
//! `pathology mc kalah` (Section 4.5's table, [`super::kalah`]), `pathology mc othello`
//! (Section 4.3, Teague's study, [`super::othello`]) and `pathology mc nodes` (Ross's 9! and
//! "about 85%", [`crate::search::node_counts`]).
//!
//! Every row is self-describing: the parameters are columns, the seed is text, counts sit
//! beside the estimates, estimates are 95% intervals (Wilson for fractions of games and of
//! node pairs; a normal interval over boards or openings for the paired score), and the
//! paper's value is a column where the paper gives one. The tables `claims` and
//! `claims_summary` decide each of the paper's claims by an effect with its interval, Holm-
//! corrected within its family ([`super::variety_claims`], which states the conservative
//! bounds on the correlation of games played from the same boards or openings).
//!
//! Sizes are checked up front ([`check_kalah_cost`], [`check_othello_cost`]): the cost of a
//! run is estimated from per-trial costs measured on the development machine (two loaded
//! cores; see [`KALAH_SECONDS_PER_BOARD`], [`OTHELLO_POSITIONS_PER_SECOND`]) and runs
//! estimated above [`crate::budget::MONTE_CARLO_TIME_LIMIT_SECONDS`] (one hour on the threads they run
//! on, the limit of every other `mc` command) are refused with the estimate.

use super::kalah::{KalahSetup, KalahTable, kalah_table};
use super::othello::{OthelloEvaluator, OthelloMatches, OthelloSetup, othello_matches};
use crate::error::{Error, Result};
use crate::games::tictactoe::TicTacToe;
use crate::report::{Cell, Column, Kind, Report, Table};
use crate::search::node_counts::{
    CENTRE_FIRST_ORDER, SQUARE_ORDER, compare_searches, sequence_counts,
};
use crate::sim::report::RunConfig;
use crate::sim::stats::Comparison;

/// Plays `mc kalah` with `setup` on `config.trials` boards (unsharded; refused up front
/// beyond an hour) and returns its report.
///
/// # Errors
///
/// As [`RunConfig::runner`], [`check_kalah_cost`] and [`kalah_table`].
pub fn kalah_run(setup: &KalahSetup, config: &RunConfig) -> Result<Report> {
    let runner = config.runner("mc kalah")?;
    check_kalah_cost(setup, config.trials, runner.effective_threads())?;
    Ok(kalah_report(&kalah_table(setup, &runner)?))
}

/// Plays `mc othello` at the search `depths` (distinct) from openings of `opening_plies`
/// random plies, on `config.trials` openings (unsharded; refused up front beyond an hour),
/// and returns its report.
///
/// # Errors
///
/// As [`OthelloSetup::new`]; [`Error::InvalidArgument`] naming `--depth` for repeated
/// depths; as [`check_othello_cost`] and [`othello_matches`].
pub fn othello_run(depths: &[u32], opening_plies: u32, config: &RunConfig) -> Result<Report> {
    let setups = depths
        .iter()
        .map(|&d| OthelloSetup::new(opening_plies, d))
        .collect::<Result<Vec<_>>>()?;
    let mut sorted = depths.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != depths.len() {
        return Err(Error::invalid(
            "--depth",
            "distinct search depths",
            depths
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(","),
        ));
    }
    let runner = config.runner("mc othello")?;
    check_othello_cost(depths, config.trials, runner.effective_threads())?;
    let results = setups
        .iter()
        .map(|s| othello_matches(s, &runner))
        .collect::<Result<Vec<_>>>()?;
    Ok(othello_report(&results))
}

/// Measured cost of one kalah board with Chi & Nau's setup (4 weights, rhf at depth 4,
/// search depth 2; both starts, 8 games): 1000 boards took 2.0 s on one thread. Other setups
/// are scaled by their weights, `3^(search depth - 2)` and `3^(depth - 4)` (three pits a side).
pub const KALAH_SECONDS_PER_BOARD: f64 = 2.0e-3;

/// Search speed of the othello matches (positions per second on one thread): measured 7e6
/// in CPU time, taken conservatively for a loaded machine.
pub const OTHELLO_POSITIONS_PER_SECOND: f64 = 1.5e6;

/// Positions searched per opening (two evaluators, two games each) at search depths 1..=5,
/// 8 random opening plies: measured 1.7e3, 1.3e4, 1.5e5 (20 openings) and 8.2e5 (4 openings)
/// for depths 1-4; depth 5 extrapolated (about ten times depth 4).
pub const OTHELLO_POSITIONS_PER_OPENING: [f64; 5] = [2.0e3, 1.5e4, 1.5e5, 8.5e5, 8.5e6];

/// The estimated single-core seconds of a kalah run of `boards` boards.
///
/// # Examples
///
/// ```
/// use pathology::studies::chi_nau::kalah::KalahSetup;
/// use pathology::studies::chi_nau::variety_report::kalah_cost_seconds;
/// let s = kalah_cost_seconds(&KalahSetup::paper(), 1000);
/// assert!(s > 0.5 && s < 10.0);
/// ```
pub fn kalah_cost_seconds(setup: &KalahSetup, boards: u64) -> f64 {
    let weights = setup.weights.len() as f64 / 4.0;
    let search = 3f64.powi(setup.search_depth as i32 - 2);
    let depth = 3f64.powi(setup.flaw_depth as i32 - 4).max(1.0);
    KALAH_SECONDS_PER_BOARD * boards as f64 * weights.max(0.25) * search.max(1.0 / 9.0) * depth
}

/// Refuses kalah runs estimated above [`crate::budget::MONTE_CARLO_TIME_LIMIT_SECONDS`] (one hour) on `threads`
/// threads, as every `mc` command.
///
/// # Examples
///
/// ```
/// use pathology::studies::chi_nau::kalah::KalahSetup;
/// use pathology::studies::chi_nau::variety_report::check_kalah_cost;
/// assert!(check_kalah_cost(&KalahSetup::paper(), 1000, 1).is_ok());
/// assert!(check_kalah_cost(&KalahSetup::paper(), 1_000_000_000_000, 2).is_err());
/// ```
///
/// # Errors
///
/// [`crate::Error::TooExpensive`] naming `--boards` with the estimate.
pub fn check_kalah_cost(setup: &KalahSetup, boards: u64, threads: usize) -> Result<()> {
    crate::budget::check_wall_time(
        &format!("--boards {boards} (kalah, {} weights)", setup.weights.len()),
        kalah_cost_seconds(setup, boards),
        threads,
        None,
        "Use fewer --boards (the paper: 1000).",
    )
    .map(drop)
}

/// The estimated single-core seconds of an othello run: `openings` openings at each depth.
///
/// # Examples
///
/// ```
/// use pathology::studies::chi_nau::variety_report::othello_cost_seconds;
/// assert!(othello_cost_seconds(&[2], 100) < 5.0);
/// ```
pub fn othello_cost_seconds(depths: &[u32], openings: u64) -> f64 {
    depths
        .iter()
        .map(|&d| {
            let i = (d.clamp(1, 5) - 1) as usize;
            OTHELLO_POSITIONS_PER_OPENING[i] * openings as f64 / OTHELLO_POSITIONS_PER_SECOND
        })
        .sum()
}

/// Refuses othello runs estimated above [`crate::budget::MONTE_CARLO_TIME_LIMIT_SECONDS`] (one hour) on `threads`
/// threads, as every `mc` command.
///
/// # Examples
///
/// ```
/// use pathology::studies::chi_nau::variety_report::check_othello_cost;
/// assert!(check_othello_cost(&[2, 3], 500, 1).is_ok());
/// assert!(check_othello_cost(&[5], 1_000_000, 2).is_err());
/// ```
///
/// # Errors
///
/// [`crate::Error::TooExpensive`] naming `--openings` with the estimate.
pub fn check_othello_cost(depths: &[u32], openings: u64, threads: usize) -> Result<()> {
    crate::budget::check_wall_time(
        &format!(
            "--openings {openings} at search depths {}",
            join(depths.iter())
        ),
        othello_cost_seconds(depths, openings),
        threads,
        None,
        "Use fewer --openings or smaller --depth.",
    )
    .map(drop)
}

fn join<T: std::fmt::Display>(items: impl Iterator<Item = T>) -> String {
    items.map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

fn interval(c: &Comparison) -> Cell {
    Cell::Interval {
        estimate: c.estimate,
        lower: c.ci_low,
        upper: c.ci_high,
    }
}

fn optional(x: Option<f64>) -> Cell {
    x.map_or(Cell::Empty, Cell::Real)
}

/// `pathology mc kalah`: Chi & Nau's Section 4.5 table from a [`super::kalah::kalah_table`]
/// run, with the tables `kalah` (one row per w) and `claims`.
///
/// # Examples
///
/// ```
/// use pathology::sim::TrialRunner;
/// use pathology::studies::chi_nau::kalah::{KalahSetup, kalah_table};
/// use pathology::studies::chi_nau::variety_report::kalah_report;
/// let setup = KalahSetup::paper();
/// let table = kalah_table(&setup, &TrialRunner::new(4, 1, 1).unwrap()).unwrap();
/// let report = kalah_report(&table);
/// assert_eq!(report.tables[0].rows.len(), 4);
/// assert_eq!(report.manifest.seed, Some(1));
/// assert_eq!(report.manifest.mode, "monte-carlo");
/// ```
pub fn kalah_report(table: &KalahTable) -> Report {
    let setup = &table.setup;
    let title = format!(
        "Three-hole kalah (Chi & Nau 1987, Section 4.5): rhf({}) of e_a^w against the exact solver, \
         and minimax against product at search depth {}, {} random boards",
        setup.flaw_depth, setup.search_depth, table.boards
    );
    let report = Report::new("mc kalah", &title)
        .param("boards", table.boards)
        .param("w", join(setup.weights.iter()))
        .param("depth", setup.flaw_depth)
        .param("search_depth", setup.search_depth)
        .mode("monte-carlo")
        .seed(table.seed);
    let mut rows = Table::new(
        "kalah",
        &title,
        vec![
            Column::key("w", Kind::Real),
            Column::key("depth", Kind::Integer),
            Column::key("search_depth", Kind::Integer),
            Column::key("boards", Kind::Integer),
            Column::key("seed", Kind::Text),
            Column::new("flaws", Kind::Integer),
            Column::new("pairs", Kind::Integer),
            Column::new("rhf", Kind::Interval).labelled("rhf [95% CI]"),
            Column::new("paper_rhf", Kind::Real).labelled("paper rhf"),
            Column::new("games", Kind::Integer),
            Column::new("product_wins", Kind::Integer).labelled("product won"),
            Column::new("product_share", Kind::Interval).labelled("product wins [95% CI]"),
            Column::new("paper_product_share", Kind::Real).labelled("paper"),
            Column::new("minimax_wins", Kind::Integer).labelled("minimax won"),
            Column::new("minimax_share", Kind::Interval).labelled("minimax wins [95% CI]"),
            Column::new("draws", Kind::Integer),
            Column::new("draw_share", Kind::Interval).labelled("draws [95% CI]"),
            Column::new("product_score", Kind::Interval).labelled("product score [95% CI]"),
        ],
    );
    for r in &table.rows {
        rows.push(vec![
            Cell::Real(r.w),
            Cell::int(setup.flaw_depth),
            Cell::int(setup.search_depth),
            Cell::int(table.boards),
            Cell::text(table.seed.to_string()),
            Cell::int(r.flaws),
            Cell::int(r.pairs),
            interval(&r.rhf),
            optional(r.rhf.exact),
            Cell::int(r.games),
            Cell::int(r.counts[0]),
            interval(&r.product_wins),
            optional(r.product_wins.exact),
            Cell::int(r.counts[1]),
            interval(&r.minimax_wins),
            Cell::int(r.counts[2]),
            interval(&r.draws),
            interval(&r.product_score),
        ]);
    }
    let families = super::variety_claims::kalah_claim_families(table);
    report
        .with_table(rows)
        .with_table(crate::report::claims::claims_table(&families))
        .with_table(crate::report::claims::summary_table(&families))
        .note(
        "A board is played twice per w from South moving first (minimax South once, product South once); \
         rhf pairs: one pair of distinct depth-4 nodes per start (two starts per board), flaws against the \
         exact solver (draw = 1/2). Fractions of games and of pairs: 95% Wilson intervals (games treated \
         as independent); product score (win 1, draw 1/2) per board: 95% normal interval. Every w uses \
         the same boards and pairs. Rules, generator and evaluators: the API documentation (cargo doc) \
         of the kalah game and study; docs/chi_nau_ballard_kalah.md lists the choices the paper \
         leaves open.",
    )
    .note(CLAIMS_NOTE)
}

/// `pathology mc othello`: minimax against product from random openings, one
/// [`OthelloMatches`] per search depth, with the tables `othello` (one row per depth and
/// evaluator) and `claims`.
///
/// # Examples
///
/// ```
/// use pathology::sim::TrialRunner;
/// use pathology::studies::chi_nau::othello::{OthelloSetup, othello_matches};
/// use pathology::studies::chi_nau::variety_report::othello_report;
/// let setup = OthelloSetup::new(6, 1).unwrap();
/// let result = othello_matches(&setup, &TrialRunner::new(2, 1, 1).unwrap()).unwrap();
/// let report = othello_report(&[result]);
/// assert_eq!(report.tables[0].rows.len(), 2); // weak, strong
/// assert_eq!(report.manifest.parameter("openings"), Some("2"));
/// ```
pub fn othello_report(results: &[OthelloMatches]) -> Report {
    let first = results.first();
    let openings = first.map_or(0, |r| r.openings);
    let seed = first.map_or(0, |r| r.seed);
    let plies = first.map_or(0, |r| r.setup.opening_plies);
    let depths: Vec<u32> = results.iter().map(|r| r.setup.depth).collect();
    let title = format!(
        "Othello (Chi & Nau 1987, Section 4.3, Teague's study): minimax against product with a weak \
         and a strong evaluator, {openings} openings of {plies} random plies, search depth {}",
        join(depths.iter())
    );
    let report = Report::new("mc othello", &title)
        .param("openings", openings)
        .param("depth", join(depths.iter()))
        .param("opening_plies", plies)
        .mode("monte-carlo")
        .seed(seed);
    let mut rows = Table::new(
        "othello",
        &title,
        vec![
            Column::key("depth", Kind::Integer),
            Column::key("evaluator", Kind::Text),
            Column::key("opening_plies", Kind::Integer),
            Column::key("openings", Kind::Integer),
            Column::key("seed", Kind::Text),
            Column::new("games", Kind::Integer),
            Column::new("minimax_wins", Kind::Integer).labelled("minimax won"),
            Column::new("minimax_share", Kind::Interval).labelled("minimax wins [95% CI]"),
            Column::new("paper_minimax_share", Kind::Real).labelled("Teague"),
            Column::new("product_wins", Kind::Integer).labelled("product won"),
            Column::new("product_share", Kind::Interval).labelled("product wins [95% CI]"),
            Column::new("draws", Kind::Integer),
            Column::new("draw_share", Kind::Interval).labelled("draws [95% CI]"),
            Column::new("minimax_score", Kind::Interval).labelled("minimax score [95% CI]"),
            Column::new("positions", Kind::Integer),
        ],
    );
    for result in results {
        let depth = result.setup.depth;
        for r in &result.rows {
            rows.push(vec![
                Cell::int(depth),
                Cell::text(evaluator_name(r.evaluator)),
                Cell::int(result.setup.opening_plies),
                Cell::int(result.openings),
                Cell::text(result.seed.to_string()),
                Cell::int(r.games),
                Cell::int(r.counts[0]),
                interval(&r.minimax_wins),
                optional(r.minimax_wins.exact),
                Cell::int(r.counts[1]),
                interval(&r.product_wins),
                Cell::int(r.counts[2]),
                interval(&r.draws),
                interval(&r.minimax_score),
                Cell::int(r.nodes),
            ]);
        }
    }
    let families = super::variety_claims::othello_claim_families(results);
    report
        .with_table(rows)
        .with_table(crate::report::claims::claims_table(&families))
        .with_table(crate::report::claims::summary_table(&families))
        .note(
        "Each opening is played twice per evaluator (minimax moving first once, product once); both \
         players use the same evaluator and depth. Fractions of games: 95% Wilson intervals (games \
         treated as independent); minimax score (win 1, draw 1/2) per opening: 95% normal interval. \
         Teague's evaluators, depths and openings are unknown; ours are in the API \
         documentation (cargo doc) of the othello study. positions: every position the searches visited.",
    )
    .note(CLAIMS_NOTE)
}

/// The claims tables' note: how the correlation of a board's or an opening's games is bounded.
const CLAIMS_NOTE: &str = "claims: games and node pairs of one board or opening are treated as fully \
     correlated (standard errors times sqrt(2); a difference of two quantities measured on the same \
     boards or openings gets the sum of their standard errors), so a decided claim stays decided under \
     any correlation; agreement with a paper's value is an equivalence test (rhf within 0.02, a win rate \
     within 2.5 points).";

fn evaluator_name(e: OthelloEvaluator) -> &'static str {
    match e {
        OthelloEvaluator::Weak => "weak",
        OthelloEvaluator::Strong => "strong",
    }
}

/// Ross's empty board and his position (O on square 8, X to move).
pub const ROSS_BOARDS: [&str; 2] = [".........", "........O"];

/// `pathology mc nodes`: Ross's (2020) counts on tic-tac-toe, exactly: the tables
/// `sequences` (move sequences, games and tree nodes of each board; Ross's 9! beside the
/// empty board's fillings) and `searches` (nodes visited by full-depth minimax and alpha-beta
/// in two move orders; Ross's "about 85%" fewer beside the reduction).
///
/// # Examples
///
/// ```
/// use pathology::studies::chi_nau::variety_report::{ROSS_BOARDS, nodes_report};
/// use pathology::report::Cell;
/// let r = nodes_report(&ROSS_BOARDS).unwrap();
/// let sequences = r.table("sequences").unwrap();
/// let fillings = sequences.column_index("fillings").unwrap();
/// assert_eq!(sequences.rows[0][fillings], Cell::int(362_880u64));
/// ```
///
/// # Errors
///
/// [`crate::Error::InvalidArgument`] naming `--board` for a malformed position.
pub fn nodes_report(boards: &[&str]) -> Result<Report> {
    let parsed = boards
        .iter()
        .map(|b| TicTacToe.parse_board(b))
        .collect::<Result<Vec<_>>>()?;
    let title = "Tic-tac-toe (Ross 2020): move sequences, and nodes visited by full-depth minimax and alpha-beta";
    let mut report = Report::new("mc nodes", title).mode("exact");
    for b in &parsed {
        report = report.param("board", b);
    }
    let mut sequences = Table::new(
        "sequences",
        "Move sequences below each position (the game stops at a win or a full board)",
        vec![
            Column::key("board", Kind::Text),
            Column::new("fillings", Kind::Integer).labelled("fillings (no win detection)"),
            Column::new("paper_fillings", Kind::Integer).labelled("Ross"),
            Column::new("fillings_tree_nodes", Kind::Integer).labelled("nodes, no win detection"),
            Column::new("tree_nodes", Kind::Integer).labelled("game-tree nodes"),
            Column::new("complete_games", Kind::Integer).labelled("complete games"),
            Column::new("x_wins", Kind::Integer).labelled("X wins"),
            Column::new("o_wins", Kind::Integer).labelled("O wins"),
            Column::new("draws", Kind::Integer),
        ],
    );
    let mut searches = Table::new(
        "searches",
        "Nodes visited by full-depth searches (every position generated, the root included)",
        vec![
            Column::key("board", Kind::Text),
            Column::key("order", Kind::Text),
            Column::new("value", Kind::Real),
            Column::new("minimax_nodes", Kind::Integer).labelled("minimax nodes"),
            Column::new("minimax_leaves", Kind::Integer).labelled("minimax leaves"),
            Column::new("alphabeta_nodes", Kind::Integer).labelled("alpha-beta nodes"),
            Column::new("alphabeta_leaves", Kind::Integer).labelled("alpha-beta leaves"),
            Column::new("reduction", Kind::Real).labelled("fewer nodes"),
            Column::new("paper_reduction", Kind::Real).labelled("Ross"),
        ],
    );
    for board in &parsed {
        let text = board.to_string();
        let s = sequence_counts(board);
        let empty = text.chars().all(|c| c == '.');
        sequences.push(vec![
            Cell::text(text.clone()),
            Cell::int(s.fillings),
            if empty {
                Cell::int(362_880u64)
            } else {
                Cell::Empty
            },
            Cell::int(s.fillings_tree_nodes),
            Cell::int(s.tree_nodes),
            Cell::int(s.complete_games),
            Cell::int(s.x_wins),
            Cell::int(s.o_wins),
            Cell::int(s.draws),
        ]);
        for order in [SQUARE_ORDER, CENTRE_FIRST_ORDER] {
            let c = compare_searches(board, order);
            searches.push(vec![
                Cell::text(text.clone()),
                Cell::text(join(order.iter())),
                Cell::Real(c.value),
                Cell::int(c.minimax_nodes),
                Cell::int(c.minimax_leaves),
                Cell::int(c.alphabeta_nodes),
                Cell::int(c.alphabeta_leaves),
                Cell::Real(c.reduction),
                Cell::Real(0.85),
            ]);
        }
    }
    Ok(report
        .with_table(sequences)
        .with_table(searches)
        .note(
            "Ross: \"if we ignore the fact that some of those permutations end earlier than nine moves \
             due to a winning row, then the total number of nodes ... is 9 factorial (362,880)\" (the \
             fillings of the empty board); alpha-beta reduces the nodes \"by about 85%, in my testing\" \
             (his conditions are not given). Orders: squares 0-8 row-major (Ross's numbering), and \
             centre, corners, edges. Values: +1 X wins, 0 draw, -1 O wins. All counts exact.",
        ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{ExportOptions, Format};
    use crate::sim::TrialRunner;
    use crate::studies::chi_nau::kalah::kalah_table;
    use crate::studies::chi_nau::othello::{OthelloSetup, othello_matches};

    /// Ross's counts, pinned: 9! fillings, 255,168 games, 549,946 nodes; alpha-beta's nodes
    /// in both orders from both boards.
    #[test]
    fn nodes_report_has_rosss_counts() {
        let r = nodes_report(&ROSS_BOARDS).unwrap();
        let seq = r.table("sequences").unwrap();
        let col = |t: &Table, name: &str| t.column_index(name).unwrap();
        assert_eq!(seq.rows[0][col(seq, "fillings")], Cell::int(362_880u64));
        assert_eq!(
            seq.rows[0][col(seq, "complete_games")],
            Cell::int(255_168u64)
        );
        assert_eq!(seq.rows[0][col(seq, "tree_nodes")], Cell::int(549_946u64));
        assert_eq!(seq.rows[1][col(seq, "paper_fillings")], Cell::Empty);
        let s = r.table("searches").unwrap();
        let ab: Vec<Cell> = s
            .rows
            .iter()
            .map(|row| row[col(s, "alphabeta_nodes")].clone())
            .collect();
        assert_eq!(ab, [18_297u64, 7_275, 3_957, 1_702].map(Cell::int).to_vec());
        assert!(nodes_report(&["XX"]).is_err());
    }

    /// The kalah report carries the paper's values and a claims table; it renders in every
    /// format.
    #[test]
    fn kalah_report_renders() {
        let table = kalah_table(&KalahSetup::paper(), &TrialRunner::new(6, 2, 2).unwrap()).unwrap();
        let r = kalah_report(&table);
        let k = r.table("kalah").unwrap();
        let paper = k.column_index("paper_rhf").unwrap();
        assert_eq!(k.rows[0][paper], Cell::Real(0.135));
        assert!(r.table("claims").unwrap().rows.len() >= 5);
        for f in [
            Format::Text,
            Format::Csv,
            Format::Json,
            Format::Markdown,
            Format::Latex,
        ] {
            assert!(!r.render(f, &ExportOptions::default()).unwrap().is_empty());
        }
    }

    #[test]
    fn othello_report_has_a_row_per_depth_and_evaluator() {
        let runner = TrialRunner::new(2, 1, 1).unwrap();
        let results: Vec<_> = [1, 2]
            .iter()
            .map(|&d| othello_matches(&OthelloSetup::new(4, d).unwrap(), &runner).unwrap())
            .collect();
        let r = othello_report(&results);
        assert_eq!(r.tables[0].rows.len(), 4);
        assert_eq!(r.table("claims").unwrap().rows.len(), 6);
        assert_eq!(r.manifest.parameter("depth"), Some("1,2"));
    }

    #[test]
    fn huge_runs_are_refused_with_an_estimate() {
        let e = check_kalah_cost(&KalahSetup::paper(), u64::MAX, 2).unwrap_err();
        assert!(e.to_string().contains("--boards"));
        let e = check_othello_cost(&[3], 1 << 40, 2).unwrap_err();
        assert!(e.to_string().contains("--openings"), "{e}");
        // `reproduce --full`'s sizes (the paper's 1000 boards, 500 openings at depths 1-3)
        // stay well inside the hour on one thread.
        assert!(kalah_cost_seconds(&KalahSetup::paper(), 1000) < 60.0);
        assert!(check_kalah_cost(&KalahSetup::paper(), 1000, 1).is_ok());
        assert!(othello_cost_seconds(&[1, 2, 3], 500) < 120.0);
        assert!(check_othello_cost(&[1, 2, 3], 500, 1).is_ok());
        // One hour, as every mc command: 2 hours of one core are refused on one thread and
        // accepted on two.
        let two_hours = (2.0 * 3600.0 / KALAH_SECONDS_PER_BOARD) as u64;
        assert!(check_kalah_cost(&KalahSetup::paper(), two_hours, 1).is_err());
        assert!(check_kalah_cost(&KalahSetup::paper(), two_hours, 2).is_ok());
    }
}
