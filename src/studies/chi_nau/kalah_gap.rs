//! The kalah gap, measured not tuned: Chi & Nau's (1987) Section 4.5 table rerun under each
//! plausible reading of what the paper leaves unstated ([`KalahVariant`]), one choice changed
//! at a time from our documented default ([`super::kalah`]), every row with its 95% interval.
//!
//! The paper gives rhf(4) = 0.135, 0.1115, 0.08, 0.0765 and product's wins 63.4%, 55.5%,
//! 53.6%, 51.2% for w = 1, 0.95, 0, 0.5; our default rerun has rhf about 1.3-1.5 times these
//! and product's wins near 50%. The unstated choices tried here:
//!
//! - the board generator: 1-6 stones a pit (default), 0-6, or a mirrored board
//!   ([`super::kalah::BoardGenerator`]);
//! - how rhf's nodes are sampled: depth in sowings (default) or in turns
//!   ([`super::kalah::DepthUnit`]); a position counted per path (default) or once
//!   ([`super::kalah::NodeCounting`]);
//! - draws in the flaw count: `u = 1/2` (default), draws left out, a draw counted as a loss
//!   ([`super::kalah::DrawRule`]);
//! - which side's view `e_a^w` takes: South's (default) or the player to move's
//!   ([`super::kalah::EvaluationView`]);
//! - the advantage's scaling: by the board's stones (default) or by 36
//!   ([`super::kalah::AdvantageScale`]);
//! - the match's starts: South first (default) or both starts ([`super::kalah::MatchStarts`]);
//!   and, in every row, product's share of the **decisive** games (draws left out: the paper's
//!   two percentages add up to 100%).
//!
//! Every variant runs on the same seed, so its boards are the same as the default's wherever
//! the generator is. **We keep the documented default**: none of the variants is better
//! sourced than it (the paper says nothing more on any of them), and a variant that happens to
//! match is not thereby the paper's method.
//!
//! **Claims** ([`claim_families`], decided by [`crate::report::claims`]): per variant and w,
//! "our rhf(4) agrees with the paper's" and "product's share of the decisive games agrees with
//! the paper's win rate", each an **equivalence** test (`|ours - paper| <= margin`, two
//! one-sided tests): not rejecting the paper's value is not agreement, so a wide interval
//! around it is `undecided`, never a match. All variants x 8 quantities are **one family,
//! Holm-corrected** (family-wise error rate 0.05; 80 claims with every variant).
//!
//! - **The margins** are about 2.5 standard errors of the paper's own estimates, which are
//!   samples too (1000 boards: at most 2000 node pairs, 2000 games): 0.02 for rhf (the
//!   standard error of the paper's 0.135 over 2000 pairs is 0.0076, of its 0.0765 is 0.0059;
//!   0.02 is also below the 0.0235 between its w = 1 and w = 0.95 values, so agreement within
//!   it still tells those rows apart) and 2.5 points for win rates (the standard error of a
//!   share near 55% over 2000 games is 1.1 points). A difference within the margin could be
//!   the paper's sampling noise alone; a referee could not ask for a tighter match.
//! - **Correlated pairs and games, bounded, not estimated.** A board gives up to two node
//!   pairs (one per start) and two games (four with both starts), which share the board and are
//!   positively correlated; the counts kept are totals, not per board, so no design effect can
//!   be estimated. Instead every claim uses the worst case: the variance of a sum of `m`
//!   correlated terms is at most `m` times the sum of their variances (Cauchy-Schwarz), so
//!   the standard error is the independent one times `sqrt(m)` (m = 2 pairs, 2 games, 4 with
//!   both starts). The intervals are therefore conservative (too wide if the correlation is
//!   below 1), and so are both verdicts: `holds` and `fails` need the wide interval inside or
//!   outside the margin. The test is Wald's on that standard error (at least about 200 pairs
//!   and games a variant even at `reproduce`'s 100 boards).

use super::kalah::{
    AdvantageScale, BoardGenerator, DepthUnit, DrawRule, EvaluationView, KalahChoices, KalahSetup,
    KalahTable, MatchStarts, NodeCounting, PAPER_PRODUCT_WINS, PAPER_RHF, PAPER_WEIGHTS,
    kalah_table,
};
use super::variety_report::check_kalah_cost;
use crate::error::Result;
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence, Verdict, claims_table};
use crate::report::{Cell, Column, Kind, Report, Table};
use crate::sim::report::RunConfig;
use crate::sim::stats::{Comparison, Proportion};

/// One reading of the unstated choices: the default, or the default with one choice changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum KalahVariant {
    /// Our documented default (docs/chi_nau_ballard_kalah.md lists its choices).
    Default,
    /// Every pit 0 to 6 stones (boards with an empty side drawn again).
    Pits0To6,
    /// South's pits 1 to 6, North's the same (a symmetric start).
    Mirrored,
    /// rhf's depth 4 counted in turns (an extra move does not count).
    Turns,
    /// Depth-4 positions counted once, not once per path.
    Once,
    /// Forced draws left out of rhf's nodes.
    DrawsExcluded,
    /// A forced draw counted as a loss (u = 1 only for a forced win).
    DrawsAsLoss,
    /// e_a^w from the view of the player to move at each node.
    MoverView,
    /// The kalah advantage scaled by 36 stones, not the board's.
    Scale36,
    /// The match from both starts (4 games a board).
    BothStarts,
}

impl KalahVariant {
    /// Every variant, the default first.
    pub const ALL: [KalahVariant; 10] = [
        KalahVariant::Default,
        KalahVariant::Pits0To6,
        KalahVariant::Mirrored,
        KalahVariant::Turns,
        KalahVariant::Once,
        KalahVariant::DrawsExcluded,
        KalahVariant::DrawsAsLoss,
        KalahVariant::MoverView,
        KalahVariant::Scale36,
        KalahVariant::BothStarts,
    ];

    /// The choices of this variant.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::chi_nau::kalah::{DrawRule, KalahChoices};
    /// use pathology::studies::chi_nau::kalah_gap::KalahVariant;
    /// assert_eq!(KalahVariant::Default.choices(), KalahChoices::default());
    /// assert_eq!(KalahVariant::DrawsAsLoss.choices().draws, DrawRule::AsLoss);
    /// ```
    pub fn choices(self) -> KalahChoices {
        let d = KalahChoices::default();
        match self {
            KalahVariant::Default => d,
            KalahVariant::Pits0To6 => KalahChoices {
                generator: BoardGenerator::Pits0To6,
                ..d
            },
            KalahVariant::Mirrored => KalahChoices {
                generator: BoardGenerator::Mirrored1To6,
                ..d
            },
            KalahVariant::Turns => KalahChoices {
                depth: DepthUnit::Turns,
                ..d
            },
            KalahVariant::Once => KalahChoices {
                nodes: NodeCounting::Once,
                ..d
            },
            KalahVariant::DrawsExcluded => KalahChoices {
                draws: DrawRule::Excluded,
                ..d
            },
            KalahVariant::DrawsAsLoss => KalahChoices {
                draws: DrawRule::AsLoss,
                ..d
            },
            KalahVariant::MoverView => KalahChoices {
                view: EvaluationView::Mover,
                ..d
            },
            KalahVariant::Scale36 => KalahChoices {
                scale: AdvantageScale::MaxStones,
                ..d
            },
            KalahVariant::BothStarts => KalahChoices {
                starts: MatchStarts::Both,
                ..d
            },
        }
    }

    /// The variant's name on the command line.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::studies::chi_nau::kalah_gap::KalahVariant;
    /// assert_eq!(KalahVariant::DrawsAsLoss.name(), "draws-as-loss");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            KalahVariant::Default => "default",
            KalahVariant::Pits0To6 => "pits0-to6",
            KalahVariant::Mirrored => "mirrored",
            KalahVariant::Turns => "turns",
            KalahVariant::Once => "once",
            KalahVariant::DrawsExcluded => "draws-excluded",
            KalahVariant::DrawsAsLoss => "draws-as-loss",
            KalahVariant::MoverView => "mover-view",
            KalahVariant::Scale36 => "scale36",
            KalahVariant::BothStarts => "both-starts",
        }
    }

    /// What the variant changes, in words.
    pub fn description(self) -> &'static str {
        match self {
            KalahVariant::Default => {
                "our default: pits 1-6, plies, per path, draw = 1/2, South's view, scale T, South first"
            }
            KalahVariant::Pits0To6 => "board generator: every pit 0-6 stones",
            KalahVariant::Mirrored => "board generator: South 1-6, North the same",
            KalahVariant::Turns => "rhf depth counted in turns",
            KalahVariant::Once => "depth-4 positions counted once",
            KalahVariant::DrawsExcluded => "forced draws left out of the flaw count",
            KalahVariant::DrawsAsLoss => "a forced draw counts as a loss in the flaw count",
            KalahVariant::MoverView => "e_a^w from the player to move's view",
            KalahVariant::Scale36 => "e_a scaled by 36 stones",
            KalahVariant::BothStarts => "match from both starts",
        }
    }
}

/// The tables of every variant, in the order asked, on the same seed.
///
/// # Examples
///
/// ```
/// use pathology::sim::report::RunConfig;
/// use pathology::studies::chi_nau::kalah_gap::{KalahVariant, variant_tables};
/// let config = RunConfig { trials: 4, seed: 1, threads: Some(1), shard: None };
/// let tables = variant_tables(&[KalahVariant::Default, KalahVariant::Once], &config).unwrap();
/// assert_eq!(tables.len(), 2);
/// ```
///
/// # Errors
///
/// As [`RunConfig::runner`], [`check_kalah_cost`] and [`kalah_table`].
pub fn variant_tables(
    variants: &[KalahVariant],
    config: &RunConfig,
) -> Result<Vec<(KalahVariant, KalahTable)>> {
    let runner = config.runner("mc kalah-gap")?;
    let setup = |v: KalahVariant| KalahSetup {
        choices: v.choices(),
        ..KalahSetup::paper()
    };
    // Both starts play twice the games; the refusal counts it.
    let games: u64 = variants
        .iter()
        .map(|&v| if v == KalahVariant::BothStarts { 2 } else { 1 })
        .sum();
    check_kalah_cost(
        &KalahSetup::paper(),
        config.trials.saturating_mul(games),
        runner.effective_threads(),
    )?;
    variants
        .iter()
        .map(|&v| Ok((v, kalah_table(&setup(v), &runner)?)))
        .collect()
}

fn interval(c: &Comparison) -> Cell {
    Cell::Interval {
        estimate: c.estimate,
        lower: c.ci_low,
        upper: c.ci_high,
    }
}

/// The margins of agreement with the paper's rhf(4) and win rates (module docs), shared with
/// `mc kalah`'s claims.
pub use super::variety_claims::{RHF_MARGIN, WIN_MARGIN};

/// The largest number of node pairs, and of games, one board gives in `variant`: the
/// worst-case design effect of its claims (module docs).
fn per_board(variant: KalahVariant) -> (f64, f64) {
    match variant {
        KalahVariant::BothStarts => (2.0, 4.0),
        _ => (2.0, 2.0),
    }
}

/// `successes / trials - reference` from clusters of at most `design` correlated terms
/// ([`Evidence::clustered_proportion`]).
fn clustered(successes: u64, trials: u64, reference: f64, design: f64) -> Evidence {
    Evidence::clustered_proportion(successes, trials, reference, design)
}

/// The claims of agreement with the paper (module docs): one family over every variant and
/// quantity, Holm-corrected; per variant and w, rhf(4) within [`RHF_MARGIN`] of the paper's
/// and product's share of the decisive games within [`WIN_MARGIN`] of the paper's win rate.
///
/// # Examples
///
/// ```
/// use pathology::sim::report::RunConfig;
/// use pathology::studies::chi_nau::kalah_gap::{KalahVariant, claim_families, variant_tables};
/// let config = RunConfig { trials: 4, seed: 1, threads: Some(1), shard: None };
/// let tables = variant_tables(&[KalahVariant::Default], &config).unwrap();
/// let families = claim_families(&tables);
/// assert_eq!(families[0].claims.len(), 8);
/// ```
pub fn claim_families(tables: &[(KalahVariant, KalahTable)]) -> Vec<ClaimFamily> {
    let source = "Chi & Nau 1987, Sec. 4.5 (table)";
    let mut family = ClaimFamily::new("kalah gap: agreement with the paper", 0.05);
    for (variant, table) in tables {
        let (pairs_per_board, games_per_board) = per_board(*variant);
        for r in &table.rows {
            if let Some(paper_rhf) = paper(r.w, &PAPER_RHF) {
                family.push(Claim::new(
                    format!(
                        "{}, w = {}: rhf(4) agrees with the paper's {paper_rhf}",
                        variant.name(),
                        r.w
                    ),
                    source,
                    "rhf(4) - paper",
                    Direction::Within { margin: RHF_MARGIN },
                    clustered(r.flaws, r.pairs, paper_rhf, pairs_per_board),
                ));
            }
            if let Some(paper_wins) = paper(r.w, &PAPER_PRODUCT_WINS) {
                family.push(Claim::new(
                    format!(
                        "{}, w = {}: product's share of decisive games agrees with the paper's {:.1}%",
                        variant.name(),
                        r.w,
                        100.0 * paper_wins
                    ),
                    source,
                    "product's decisive share - paper",
                    Direction::Within {
                        margin: WIN_MARGIN,
                    },
                    clustered(
                        r.counts[0],
                        r.counts[0] + r.counts[1],
                        paper_wins,
                        games_per_board,
                    ),
                ));
            }
        }
    }
    vec![family]
}

/// `mc kalah-gap`: the sensitivity table (one row per variant and w), the claims table
/// ([`claim_families`]) and a summary (per variant, its claims' verdicts), `boards` boards per variant
/// from `seed` on `threads` threads (`None`: all cores; unsharded).
///
/// # Examples
///
/// ```
/// use pathology::studies::chi_nau::kalah_gap::{KalahVariant, kalah_gap};
/// let report = kalah_gap(&[KalahVariant::Default, KalahVariant::Turns], 4, 1, Some(1)).unwrap();
/// assert_eq!(report.table("gap").unwrap().rows.len(), 8);
/// assert_eq!(report.table("summary").unwrap().rows.len(), 2);
/// ```
///
/// # Errors
///
/// As [`variant_tables`].
pub fn kalah_gap(
    variants: &[KalahVariant],
    boards: u64,
    seed: u64,
    threads: Option<usize>,
) -> Result<Report> {
    let config = &RunConfig {
        trials: boards,
        seed,
        threads,
        shard: None,
    };
    let tables = variant_tables(variants, config)?;
    let title = format!(
        "The kalah gap (Chi & Nau 1987, Section 4.5): rhf(4) and minimax against product under \
         each reading of the unstated choices, one changed at a time, {} boards each",
        config.trials
    );
    let report = Report::new("mc kalah-gap", &title)
        .param("boards", config.trials)
        .param(
            "variant",
            variants
                .iter()
                .map(|v| v.name())
                .collect::<Vec<_>>()
                .join(","),
        )
        .mode("monte-carlo")
        .seed(config.seed);
    let mut gap = Table::new(
        "gap",
        &title,
        vec![
            Column::key("variant", Kind::Text),
            Column::key("w", Kind::Real),
            Column::key("boards", Kind::Integer),
            Column::key("seed", Kind::Text),
            Column::new("pairs", Kind::Integer),
            Column::new("rhf", Kind::Interval).labelled("rhf(4) [95% CI]"),
            Column::new("paper_rhf", Kind::Real).labelled("paper"),
            Column::new("games", Kind::Integer),
            Column::new("product_share", Kind::Interval).labelled("product wins [95% CI]"),
            Column::new("decisive_share", Kind::Interval)
                .labelled("product, decisive games [95% CI]"),
            Column::new("paper_product_share", Kind::Real).labelled("paper"),
            Column::new("draw_share", Kind::Interval).labelled("draws [95% CI]"),
            Column::new("product_score", Kind::Interval).labelled("product score [95% CI]"),
        ],
    );
    let mut summary = Table::new(
        "summary",
        &format!(
            "Per variant, the verdicts of table claims (one family, Holm): rhf(4) within {RHF_MARGIN} \
             and product's decisive share within {} points of the paper's four values (equivalence \
             tests; pairs and games of a board bounded as fully correlated)",
            100.0 * WIN_MARGIN
        ),
        vec![
            Column::key("variant", Kind::Text),
            Column::new("changes", Kind::Text),
            Column::new("rhf_agrees", Kind::Integer).labelled("rhf agrees"),
            Column::new("rhf_differs", Kind::Integer).labelled("rhf differs"),
            Column::new("wins_agree", Kind::Integer).labelled("win rate agrees"),
            Column::new("wins_differ", Kind::Integer).labelled("win rate differs"),
            Column::new("undecided", Kind::Integer),
            Column::new("rhf_order", Kind::Text).labelled("rhf order steps shown"),
            Column::new("product_ahead", Kind::Integer).labelled("w with product ahead"),
        ],
    );
    let families = claim_families(&tables);
    let decided = families[0].decide();
    for (variant, table) in &tables {
        let prefix = format!("{}, w = ", variant.name());
        let count = |quantity: &str, verdict: Verdict| {
            decided
                .iter()
                .filter(|d| {
                    d.claim.statement.starts_with(&prefix)
                        && d.claim.quantity.starts_with(quantity)
                        && d.verdict == verdict
                })
                .count() as u64
        };
        for r in &table.rows {
            let decisive = Proportion {
                successes: r.counts[0],
                trials: r.counts[0] + r.counts[1],
            }
            .compare(None);
            let paper_rhf = paper(r.w, &PAPER_RHF);
            let paper_wins = paper(r.w, &PAPER_PRODUCT_WINS);
            gap.push(vec![
                Cell::text(variant.name()),
                Cell::Real(r.w),
                Cell::int(table.boards),
                Cell::text(table.seed.to_string()),
                Cell::int(r.pairs),
                interval(&r.rhf),
                paper_rhf.map_or(Cell::Empty, Cell::Real),
                Cell::int(r.games),
                interval(&r.product_wins),
                interval(&decisive),
                paper_wins.map_or(Cell::Empty, Cell::Real),
                interval(&r.draws),
                interval(&r.product_score),
            ]);
        }
        // The variant's own claims of `mc kalah` (Holm within each family of the variant):
        // the order steps shown of 3, and the w where product's score is shown above 1/2.
        let own = super::variety_claims::kalah_claim_families(table);
        let holds = |name: &str| {
            own.iter().find(|f| f.name.starts_with(name)).map(|f| {
                let decided = f.decide();
                let n = decided
                    .iter()
                    .filter(|d| d.verdict == Verdict::Holds)
                    .count();
                (n, decided.len())
            })
        };
        summary.push(vec![
            Cell::text(variant.name()),
            Cell::text(variant.description()),
            Cell::int(count("rhf", Verdict::Holds)),
            Cell::int(count("rhf", Verdict::Fails)),
            Cell::int(count("product", Verdict::Holds)),
            Cell::int(count("product", Verdict::Fails)),
            Cell::int(count("rhf", Verdict::Undecided) + count("product", Verdict::Undecided)),
            Cell::text(
                holds("kalah: rhf(4) in the order")
                    .map_or(String::new(), |(n, of)| format!("{n} of {of}")),
            ),
            Cell::int(holds("kalah: product performs better").map_or(0, |(n, _)| n) as u64),
        ]);
    }
    Ok(report
        .with_table(gap)
        .with_table(claims_table(&families))
        .with_table(summary)
        .note(
            "summary: rhf order steps shown counts the adjacent steps of the paper's order \
             1 > 0.95 > 0 > 0.5 whose difference of rhf(4) lies above 0 (mc kalah's claims, Holm \
             within the variant, a difference's standard error the sum of the two); w with \
             product ahead counts the w whose product score lies above 1/2 (the same rules)",
        )
        .note(
        "Each variant changes one unstated choice of our default (docs/chi_nau_ballard_kalah.md); \
         all run on the same seed. rhf: 95% Wilson interval over node pairs; product wins: of all games \
         and of decisive games (draws left out, as the paper's percentages add up to 100%), 95% Wilson \
         (games treated as independent); product score (win 1, draw 1/2) per board: 95% normal interval. \
         Claims: agreement with the paper's value is an equivalence test (rhf within 0.02, decisive \
         share within 2.5 points, about 2.5 standard errors of the paper's own 1000-board estimates), \
         one family over every variant and quantity, Holm-corrected; the pairs and games of a board \
         are bounded as fully correlated (standard error times sqrt(2), sqrt(4) with both starts), \
         so the claims' intervals are conservative. We keep the documented default: no variant is \
         better sourced, and one that matches is not thereby the paper's method.",
        ))
}

fn paper(w: f64, values: &[f64; 4]) -> Option<f64> {
    PAPER_WEIGHTS
        .iter()
        .position(|&p| p == w)
        .map(|i| values[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::runner::TrialRunner;

    /// A paper value inside a wide interval is not agreement. The old rule
    /// ("paper in CI") counted rhf = 0.14 over 200 pairs against the paper's 0.135 as reached;
    /// the equivalence test leaves it undecided, holds only with a tight interval within the
    /// margin, fails where the interval lies outside it, and every claim is Holm-corrected
    /// over the whole family; the README and docs no longer count values "inside our
    /// intervals".
    #[test]
    fn agreement_needs_equivalence_and_the_whole_family_is_corrected() {
        use crate::report::claims::Verdict;
        let config = RunConfig {
            trials: 2,
            seed: 1,
            threads: Some(1),
            shard: None,
        };
        let mut tables =
            variant_tables(&[KalahVariant::Default, KalahVariant::Turns], &config).unwrap();
        // w = 1: paper rhf 0.135, wins 63.4%.
        let set = |t: &mut KalahTable, flaws, pairs, product, minimax| {
            t.rows[0].flaws = flaws;
            t.rows[0].pairs = pairs;
            t.rows[0].counts = [product, minimax, 0];
        };
        set(&mut tables[0].1, 28, 200, 1268, 732); // wide: 0.14 (old: reached)
        set(&mut tables[1].1, 2710, 20_000, 20_000, 30_000); // tight at 0.1355; 40%
        let old_inside = {
            let c = crate::sim::stats::Proportion {
                successes: 28,
                trials: 200,
            }
            .compare(None);
            c.ci_low <= 0.135 && 0.135 <= c.ci_high
        };
        assert!(old_inside);
        let families = claim_families(&tables);
        assert_eq!(families[0].claims.len(), 16);
        let decided = families[0].decide();
        let find = |statement: &str| {
            decided
                .iter()
                .find(|d| d.claim.statement.starts_with(statement))
                .unwrap()
        };
        let wide = find("default, w = 1: rhf(4)");
        assert_eq!(wide.verdict, Verdict::Undecided);
        assert_eq!(find("turns, w = 1: rhf(4)").verdict, Verdict::Holds);
        assert_eq!(find("turns, w = 1: product").verdict, Verdict::Fails);
        let tested = families[0].tested();
        assert!(
            wide.test.contains(&format!("Holm over {tested}")),
            "{}",
            wide.test
        );
        assert!(wide.test.contains("equivalence within"));
        let readme = include_str!("../../../README.md");
        let docs = include_str!("../../../docs/chi_nau_ballard_kalah.md");
        for old in [
            "inside our interval",
            "of 4 inside",
            "reaches 1 of 4",
            "paper in CI",
        ] {
            assert!(!readme.contains(old) && !docs.contains(old), "{old}");
        }
    }

    /// The default variant is exactly `mc kalah`'s table (same boards, pairs, games).
    #[test]
    fn default_variant_is_the_kalah_table() {
        let config = RunConfig {
            trials: 12,
            seed: 3,
            threads: Some(2),
            shard: None,
        };
        let tables = variant_tables(&[KalahVariant::Default], &config).unwrap();
        let direct =
            kalah_table(&KalahSetup::paper(), &TrialRunner::new(12, 3, 1).unwrap()).unwrap();
        assert_eq!(
            tables[0].1,
            KalahTable {
                setup: KalahSetup::paper(),
                ..direct
            }
        );
    }

    /// Each variant changes what it says: both starts double the games; a draw counted as a
    /// loss keeps the pairs, the coin flips and so the games, and can only remove flaws (a
    /// draw against a loss is no longer ordered); leaving draws out never adds pairs.
    #[test]
    fn variants_change_only_their_part() {
        let config = RunConfig {
            trials: 10,
            seed: 2,
            threads: Some(1),
            shard: None,
        };
        let all = variant_tables(&KalahVariant::ALL, &config).unwrap();
        let default = &all[0].1;
        for (v, t) in &all {
            assert_eq!(t.rows.len(), 4);
            for (r, d) in t.rows.iter().zip(&default.rows) {
                match v {
                    KalahVariant::BothStarts => {
                        assert_eq!((r.games, r.pairs), (2 * d.games, d.pairs));
                    }
                    KalahVariant::DrawsAsLoss => {
                        assert_eq!((r.pairs, r.counts), (d.pairs, d.counts));
                        assert!(r.flaws <= d.flaws);
                    }
                    KalahVariant::DrawsExcluded => assert!(r.pairs <= d.pairs),
                    _ => assert_eq!(r.games, d.games),
                }
            }
        }
    }
}
