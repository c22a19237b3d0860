//! The exact d-ply minimax lines beside UCT: the probability that a depth-d minimax search
//! with **the same evaluator on the same games** moves to a winning child, d = 1..=8 (at most
//! the height), ties among the best children broken uniformly.
//!
//! Which engine, by game and evaluator (the searches' conventions are the engines': the
//! critical game's depths from a Max root whose rate is 1, the boards' heights with the last
//! mover Max; a non-trivial root, which the UCT games always have; terminal nodes exact):
//!
//! | game | perfect, artificial | expected-playout | gaussian | random-playout | histogram |
//! |:--|:--|:--|:--|:--|:--|
//! | crit | [`critical_column`] | [`critical_column`], the searches' `f64` values per depth | [`critical_column`], quantized | [`critical_column`] on a histogram per depth | [`critical_column`], the user's histogram |
//! | p | [`decision_column`] (artificial, e = 0 for perfect) | [`decision_column`], count | [`pgame_column`], quantized | none | [`pgame_column`], the user's histogram |
//! | n | [`decision_column`] (artificial, e = 0 for perfect) | [`decision_column`], count | none | none | none |
//!
//! - *Expected playout, critical game*: the searches value a node by the exact mean of a
//!   uniformly random playout under the generation law, computed in `f64`
//!   ([`crate::games::critical::expected_playout_table`]; formula
//!   [`PlayoutFormula::RandomPlay`], not the authors' closed form
//!   [`PlayoutFormula::AuthorsCode`]). The exact side takes **those `f64` values** as point
//!   masses per depth (a histogram): the won and the lost node's values converge
//!   geometrically with the remaining depth and coincide in `f64` near the root for b >= 5 at
//!   H = 50, where both sides then see ties (broken uniformly) and decide at random. The
//!   unrounded rational values ([`PlayoutFormula::RandomPlay`] in the engine) never tie; the
//!   note gives that line too where it differs.
//! - *Expected playout, boards*: the fraction of the node's squares that are 1; every node of
//!   a minimax frontier has the same height, so its order is the piece count's
//!   ([`FamilyEvaluator::Count`]).
//! - *Gaussian*: the searches draw continuous noise; the exact side is exact for the
//!   heuristic quantized to [`DEFAULT_LEVELS`] equal bins over `[-1 - 8 sigma, 1 + 8 sigma]`,
//!   and is computed again at twice the bins: the difference (reported) estimates the distance
//!   to the continuous Gaussian, it is not a bound. sigma = 0 is the perfect evaluator.
//! - *Random playout, critical game*: one playout from a frontier node of depth d ends in a
//!   win for Max with the node type's expected-playout probability, independently of the
//!   other frontier nodes (their subtrees are disjoint), so the frontier law is a two-point
//!   histogram per depth with exactly those weights.
//! - *Histogram*: the user's file as the searches read it (true values `1` and `-1`, one law
//!   for every depth), exact rationals in, `f64` enclosures out (the engine's fast path); only
//!   the evaluations' order matters to minimax, so the searches' `(e + 1) / 2` does not
//!   change the lines.
//! - *None*: random playouts on boards (their outcome is not independent of the node's value
//!   through a law the engines carry) and the Gaussian and histogram evaluators on N-games
//!   (whose leaves are correlated): the report says so and has no minimax table.
//!
//! An engine that refuses (its cost, or a branching factor above its 60) leaves the table out
//! with a note naming the refusal; only a cancellation is an error.

use num_rational::BigRational;

use super::study::{ExactMinimax, UctEvaluator, UctGame, UctStudySpec};
use crate::analytic::distributions::{
    self, CriticalGame, DEFAULT_LEVELS, Depths, Evaluation, Histogram, Model, MultiValuedPGame,
    Outcome, Playout, PlayoutFormula, critical_column, pgame_column,
};
use crate::analytic::families::{
    Evaluator as FamilyEvaluator, Family, NGame, PGame, decision_column,
};
use crate::error::{Error, Result};
use crate::report::format_f64;
use crate::sim::level_tree::GameKind;

/// The deepest minimax line (d = 1..8).
pub const MAX_DEPTH: u32 = 8;

/// The exact minimax lines of `spec`'s game and evaluator, and the note that says what they
/// are (or why there are none), into [`UctStudySpec::exact_minimax`] and
/// [`UctStudySpec::exact_note`]. The run and `merge` both call this, so their lines agree.
///
/// # Examples
///
/// ```
/// use pathology::studies::nguyen_ramanujan::exact::fill_exact_minimax;
/// use pathology::studies::nguyen_ramanujan::study::{UctEvaluator, UctGame, UctStudySpec};
/// let game = UctGame::Critical { branching: 2, height: 50, gamma_max: 1.0, gamma_min: 1.0 };
/// let mut spec = UctStudySpec::new(game, UctEvaluator::Perfect, 0.0, vec![1.0], vec![10]).unwrap();
/// fill_exact_minimax(&mut spec).unwrap();
/// assert_eq!(spec.exact_minimax.len(), 8);
/// assert!(spec.exact_minimax.iter().all(|m| m.value == 1.0)); // perfect information
/// ```
///
/// # Errors
///
/// [`Error::Interrupted`] when cancelled; a refusal of the engine is a note, not an error.
pub fn fill_exact_minimax(spec: &mut UctStudySpec) -> Result<()> {
    let (rows, note) = match exact_minimax(spec) {
        Ok(found) => found,
        Err(Error::Interrupted) => return Err(Error::Interrupted),
        Err(refused) => (
            Vec::new(),
            format!("no exact minimax values: the exact engine refused ({refused})"),
        ),
    };
    spec.exact_minimax = rows;
    spec.exact_note = note;
    Ok(())
}

/// The deepest line for a game of height `height`.
fn deepest(height: u32) -> u32 {
    MAX_DEPTH.min(height)
}

/// The rows of an outcome of the distributions engine (with the refined values of a
/// continuous evaluator).
fn outcome_rows(outcome: &Outcome<f64>) -> Vec<ExactMinimax> {
    outcome
        .column
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| ExactMinimax {
            depth: row.depth,
            value: row.decision.value,
            bound: Some(row.decision.bound),
            refined: outcome.refined.as_ref().map(|r| r.rows[i].decision.value),
        })
        .collect()
}

/// The note of a quantized Gaussian: the bins and the difference at twice as many.
fn quantized_note(rows: &[ExactMinimax], sigma: f64, engine: &str) -> String {
    let estimate = crate::analytic::distributions::continuous_limit_estimate(
        rows.iter().filter_map(|r| r.refined.map(|x| x - r.value)),
    );
    format!(
        "minimax: exact for the quantized heuristic ({engine}): the Gaussian binned into G = \
         {DEFAULT_LEVELS} equal bins over [-1 - 8 sigma, 1 + 8 sigma] (sigma = {}); twice the \
         largest change G vs 2G = {} bins, {estimate:.1e}, estimates the distance to the \
         continuous Gaussian the searches draw (column refined; an estimate, not a bound); \
         bound: rounding of the quantized value",
        format_f64(sigma),
        2 * DEFAULT_LEVELS
    )
}

/// The lines and their note (module docs); an engine's refusal is an error here.
fn exact_minimax(spec: &UctStudySpec) -> Result<(Vec<ExactMinimax>, String)> {
    let common = "ties among the best children broken uniformly; on the searches' game \
                  definition (critical rates, root, terminal nodes exact)";
    match &spec.game {
        UctGame::Critical {
            branching,
            height,
            gamma_max,
            gamma_min,
        } => {
            let game = CriticalGame::new(*branching, *height, *gamma_max, *gamma_min)?;
            let depths = Depths::UpTo(deepest(*height));
            let engine = "the engine of decision --game crit, f64 enclosures";
            let plain = |model: Model<f64>, what: &str| -> Result<_> {
                let outcome = critical_column(&game, &Evaluation::new(model), depths)?;
                Ok((
                    outcome_rows(&outcome),
                    format!("minimax: exact ({engine}) with {what}; {common}"),
                ))
            };
            match spec.evaluator {
                UctEvaluator::Perfect => plain(Model::Perfect, "the perfect evaluator"),
                UctEvaluator::Gaussian if spec.sigma == 0.0 => plain(
                    Model::Perfect,
                    "the perfect evaluator (a Gaussian of sigma = 0)",
                ),
                UctEvaluator::Artificial => plain(
                    Model::Artificial { error: spec.error },
                    &format!("the artificial evaluator (e = {})", format_f64(spec.error)),
                ),
                UctEvaluator::Histogram => {
                    let (histogram, what) = user_histogram(spec)?;
                    plain(Model::Histogram(histogram), &what)
                }
                UctEvaluator::ExpectedPlayout => {
                    let table = crate::games::critical::expected_playout_table(
                        *branching, *height, *gamma_max, *gamma_min,
                    );
                    let mut rows = Vec::new();
                    for d in 1..=deepest(*height) {
                        let histogram = point_histogram(&table, d)?;
                        let evaluation = Evaluation::new(Model::Histogram(histogram));
                        rows.extend(outcome_rows(&critical_column(
                            &game,
                            &evaluation,
                            Depths::One(d),
                        )?));
                    }
                    let unrounded = critical_column(
                        &game,
                        &Evaluation::new(Model::ExpectedPlayout(Playout {
                            formula: PlayoutFormula::RandomPlay,
                            decimals: None,
                        })),
                        depths,
                    )?;
                    let unrounded = outcome_rows(&unrounded);
                    let same = rows
                        .iter()
                        .zip(&unrounded)
                        .all(|(a, b)| (a.value - b.value).abs() <= 1e-12);
                    let comparison = if same {
                        "the same as with the unrounded rational values".to_string()
                    } else {
                        format!(
                            "with the unrounded rational values (the exact engine, \
                             formula random-play), which never tie, d-ply minimax would get {}",
                            unrounded
                                .iter()
                                .map(|r| format!("{:.4}", r.value))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    };
                    Ok((
                        rows,
                        format!(
                            "minimax: exact ({engine}) with the expected-playout values the \
                             searches use: the exact mean of a uniformly random playout under \
                             the generation law (formula random-play, not the authors' closed \
                             form), computed in f64 (games::critical::expected_playout_table), \
                             as point masses per depth; where a won and a lost node's f64 values \
                             coincide (b >= 5 near the root at H = 50) they tie, and ties are \
                             broken uniformly on both sides; {comparison}; {common}"
                        ),
                    ))
                }
                UctEvaluator::Gaussian => {
                    let model = Model::Gaussian { sigma: spec.sigma };
                    let outcome = critical_column(&game, &Evaluation::new(model), depths)?;
                    let rows = outcome_rows(&outcome);
                    let note = quantized_note(&rows, spec.sigma, engine);
                    Ok((rows, format!("{note}; {common}")))
                }
                UctEvaluator::RandomPlayout => {
                    let table = crate::games::critical::expected_playout_table(
                        *branching, *height, *gamma_max, *gamma_min,
                    );
                    let mut rows = Vec::new();
                    for d in 1..=deepest(*height) {
                        let histogram = playout_histogram(&table, d)?;
                        let evaluation = Evaluation::new(Model::Histogram(histogram));
                        let outcome = critical_column(&game, &evaluation, Depths::One(d))?;
                        rows.extend(outcome_rows(&outcome));
                    }
                    Ok((
                        rows,
                        format!(
                            "minimax: exact ({engine}) with one random playout per frontier \
                             node: at depth d a two-point law, Max wins the playout with the \
                             node type's expected-playout probability (formula random-play), \
                             independently per node; {common}"
                        ),
                    ))
                }
            }
        }
        UctGame::Board(board) => {
            let b = board.tree.branching() as u32;
            let h = board.tree.height();
            let p = board.parameter;
            let family = match board.kind {
                GameKind::P => Family::P(PGame::new(b, p)?),
                GameKind::N => Family::N(NGame::new(b, p)?),
            };
            let engine = "the engine of decision --game p|n, f64 with a rounding bound";
            let families = |evaluator: FamilyEvaluator<f64>, what: &str| -> Result<_> {
                let column = decision_column(&family, &evaluator, h)?;
                let rows = (1..=deepest(h))
                    .map(|d| ExactMinimax {
                        depth: d,
                        value: column.values[d as usize - 1],
                        bound: Some(column.error_bounds[d as usize - 1]),
                        refined: None,
                    })
                    .collect();
                Ok((
                    rows,
                    format!("minimax: exact D(d,h) ({engine}) with {what}; {common}"),
                ))
            };
            let none = |why: &str| {
                Ok((
                    Vec::new(),
                    format!("no exact minimax values: no exact engine for {why}"),
                ))
            };
            match (spec.evaluator, board.kind) {
                (UctEvaluator::Perfect, _) => families(
                    FamilyEvaluator::Artificial { error: 0.0 },
                    "the perfect evaluator (artificial, e = 0)",
                ),
                (UctEvaluator::Gaussian, _) if spec.sigma == 0.0 => families(
                    FamilyEvaluator::Artificial { error: 0.0 },
                    "the perfect evaluator (a Gaussian of sigma = 0)",
                ),
                (UctEvaluator::Artificial, _) => families(
                    FamilyEvaluator::Artificial { error: spec.error },
                    &format!("the artificial evaluator (e = {})", format_f64(spec.error)),
                ),
                (UctEvaluator::ExpectedPlayout, _) => families(
                    FamilyEvaluator::Count,
                    "the piece count, whose order at a frontier is the fraction of 1-squares \
                     the searches use",
                ),
                (UctEvaluator::Gaussian, GameKind::P) => {
                    let game = MultiValuedPGame::new(b, h, plus_minus_leaves(p))?;
                    let model = Model::Gaussian { sigma: spec.sigma };
                    let outcome =
                        pgame_column(&game, &Evaluation::new(model), Depths::UpTo(deepest(h)))?;
                    let rows = outcome_rows(&outcome);
                    let note = quantized_note(
                        &rows,
                        spec.sigma,
                        "the engine of decision --game p --leaves, leaves 1:p,-1:1-p, f64 enclosures",
                    );
                    Ok((rows, format!("{note}; {common}")))
                }
                (UctEvaluator::Histogram, GameKind::P) => {
                    let game = MultiValuedPGame::new(b, h, plus_minus_leaves(p))?;
                    let (histogram, what) = user_histogram(spec)?;
                    let evaluation = Evaluation::new(Model::Histogram(histogram));
                    let outcome = pgame_column(&game, &evaluation, Depths::UpTo(deepest(h)))?;
                    Ok((
                        outcome_rows(&outcome),
                        format!(
                            "minimax: exact D(d,h) (the engine of decision --game p --leaves, leaves \
                             1:p,-1:1-p, f64 enclosures) with {what}; {common}"
                        ),
                    ))
                }
                (UctEvaluator::Gaussian | UctEvaluator::Histogram, GameKind::N) => none(&format!(
                    "the {} evaluator on N-games (their leaves are correlated)",
                    spec.evaluator.name()
                )),
                (UctEvaluator::RandomPlayout, _) => none(
                    "random playouts on P- and N-games (their outcome's law given the node's \
                     value is not one the engines carry)",
                ),
            }
        }
    }
}

/// The leaves of a P-game as the distributions engine takes them: `1` (Max wins the square)
/// with probability `p`, `-1` otherwise.
fn plus_minus_leaves(p: f64) -> Vec<(BigRational, f64)> {
    vec![
        (BigRational::from_integer((-1).into()), 1.0 - p),
        (BigRational::from_integer(1.into()), p),
    ]
}

/// The user's histogram of `spec` and the words that name it in the note.
fn user_histogram(spec: &UctStudySpec) -> Result<(Histogram, String)> {
    let h = spec
        .histogram
        .as_ref()
        .ok_or_else(super::study::missing_histogram)?;
    Ok((
        h.evaluator.histogram().clone(),
        format!(
            "the histogram evaluator of {} (FNV-1a {}; true values 1 and -1, the same law at \
             every depth, exact rationals)",
            h.file.display(),
            h.hash()
        ),
    ))
}

/// The point masses of the expected-playout values the searches use at depth `depth`: Max
/// wins (true value 1) and Max loses (-1), each its `f64` value as an exact rational.
fn point_histogram(table: &[f64], depth: u32) -> Result<Histogram> {
    let exact = |w: f64| {
        BigRational::from_float(w)
            .map(|x| x.to_string())
            .ok_or_else(|| Error::invalid("--evaluator", "a finite playout value", w))
    };
    let d = 2 * depth as usize;
    distributions::Histogram::parse(&format!(
        "1,{},1\n-1,{},1\n",
        exact(table[d + 1])?,
        exact(table[d])?
    ))
}

/// The two-point law of one random playout from a node of depth `depth` of the critical
/// game: Max wins it (evaluation 1) with the node type's expected-playout probability.
fn playout_histogram(table: &[f64], depth: u32) -> Result<Histogram> {
    let weight = |w: f64| -> Result<(String, String)> {
        let win = BigRational::from_float(w)
            .ok_or_else(|| Error::invalid("--evaluator", "a finite playout value", w))?;
        let loss = BigRational::from_integer(1.into()) - &win;
        Ok((win.to_string(), loss.to_string()))
    };
    let d = 2 * depth as usize;
    let (lost_win, lost_loss) = weight(table[d])?;
    let (won_win, won_loss) = weight(table[d + 1])?;
    distributions::Histogram::parse(&format!(
        "1,1,{won_win}\n1,0,{won_loss}\n-1,1,{lost_win}\n-1,0,{lost_loss}\n"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::uct::HistogramEvaluator;
    use crate::sim::level_tree::BoardSpec;
    use crate::studies::nguyen_ramanujan::study::UctHistogram;

    fn critical(b: u32, h: u32, gamma: f64) -> UctGame {
        UctGame::Critical {
            branching: b,
            height: h,
            gamma_max: gamma,
            gamma_min: gamma,
        }
    }

    /// A histogram evaluator of `text` (rows `value,evaluation[,weight]`).
    fn histogram(text: &str) -> UctHistogram {
        UctHistogram {
            file: "h.csv".into(),
            evaluator: HistogramEvaluator::new(Histogram::parse(text).unwrap()).unwrap(),
        }
    }

    fn lines(game: UctGame, evaluator: UctEvaluator) -> UctStudySpec {
        let mut spec = if evaluator == UctEvaluator::Histogram {
            let h = histogram("1,0.5,3\n1,-0.5,1\n-1,-0.5,3\n-1,0.5,1\n");
            UctStudySpec::with_histogram(game, h, vec![1.0], vec![1]).unwrap()
        } else {
            UctStudySpec::new(game, evaluator, 0.5, vec![1.0], vec![1]).unwrap()
        };
        spec.error = 0.1;
        fill_exact_minimax(&mut spec).unwrap();
        spec
    }

    /// The histogram of the perfect evaluator's law (won: 1, lost: -1) gives exactly the
    /// perfect evaluator's lines on the critical game (bit for bit) and on P-games (within the
    /// engines' rounding bounds: the perfect evaluator's lines there come from the families
    /// engine), and the note names the file and its hash.
    #[test]
    fn the_perfect_histogram_gives_the_perfect_lines() {
        let p = BoardSpec::new(GameKind::P, 2, 8, 0.382).unwrap();
        for game in [critical(3, 30, 0.8), UctGame::Board(p)] {
            let perfect = lines(game.clone(), UctEvaluator::Perfect);
            let mut same = UctStudySpec::with_histogram(
                game.clone(),
                histogram("1,1\n-1,-1\n"),
                vec![1.0],
                vec![1],
            )
            .unwrap();
            fill_exact_minimax(&mut same).unwrap();
            if game.name() == "crit" {
                // The same engine on the same law: the same numbers.
                assert_eq!(same.exact_minimax, perfect.exact_minimax);
            } else {
                // Another engine (the distributions engine, not the families'): the same
                // values within the two rigorous rounding bounds.
                assert_eq!(same.exact_minimax.len(), perfect.exact_minimax.len());
                for (a, b) in same.exact_minimax.iter().zip(&perfect.exact_minimax) {
                    let slack = a.bound.unwrap_or(0.0) + b.bound.unwrap_or(0.0);
                    assert!((a.value - b.value).abs() <= slack, "{a:?} {b:?}");
                }
            }
            assert!(
                same.exact_note.contains("h.csv (FNV-1a "),
                "{}",
                same.exact_note
            );
        }
    }

    /// Every game and evaluator gets its lines or a note saying why not.
    #[test]
    fn every_combination_has_lines_or_a_reason() {
        let p = BoardSpec::new(GameKind::P, 2, 6, 0.382).unwrap();
        let n = BoardSpec::new(GameKind::N, 2, 6, 0.5).unwrap();
        for evaluator in UctEvaluator::ALL {
            for game in [
                critical(3, 12, 0.9),
                UctGame::Board(p.clone()),
                UctGame::Board(n.clone()),
            ] {
                let spec = lines(game.clone(), evaluator);
                let none =
                    matches!(
                        (evaluator, &game),
                        (UctEvaluator::RandomPlayout, UctGame::Board(_))
                    ) || (matches!(evaluator, UctEvaluator::Gaussian | UctEvaluator::Histogram)
                        && game.name() == "n");
                assert_eq!(
                    spec.exact_minimax.is_empty(),
                    none,
                    "{evaluator:?} {game:?}"
                );
                assert!(!spec.exact_note.is_empty());
                if !none {
                    assert_eq!(spec.exact_minimax.len(), game.height().min(8) as usize);
                    for (d, row) in spec.exact_minimax.iter().enumerate() {
                        assert_eq!(row.depth as usize, d + 1);
                        assert!((0.0..=1.0).contains(&row.value), "{row:?}");
                    }
                }
                // A search that reaches the terminal nodes decides perfectly.
                if (game.name() == "crit" || !none)
                    && let Some(last) = spec.exact_minimax.last()
                    && last.depth == game.height()
                {
                    let slack = last.bound.unwrap_or(0.0) + 1e-12;
                    assert!((last.value - 1.0).abs() <= slack, "{evaluator:?} {game:?}");
                }
            }
        }
    }

    /// The Gaussian lines carry the refined values and say how far apart they are; at
    /// sigma = 0.25 depth 1 is nearly perfect (a win and a loss 8 sigma apart).
    #[test]
    fn gaussian_lines_are_quantized_and_refined() {
        let spec = lines(critical(2, 50, 1.0), UctEvaluator::Gaussian);
        assert!(spec.exact_minimax.iter().all(|r| r.refined.is_some()));
        assert!(spec.exact_note.contains("G vs 2G"), "{}", spec.exact_note);
        assert_eq!(spec.exact_minimax.len(), 8);
    }

    /// Random playouts on the critical game: the histogram's lines agree with a direct
    /// simulation of minimax with one playout per frontier node (b = 2, H = 6, d = 2).
    #[test]
    fn random_playout_lines_match_a_simulation() {
        use crate::games::Game;
        use crate::games::critical::CriticalGame as Lazy;
        use crate::search::uct::random_playout;
        use rand::SeedableRng;
        let spec = lines(critical(2, 6, 0.5), UctEvaluator::RandomPlayout);
        let exact = spec.exact_minimax[1].value;
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(3);
        let games = 20_000;
        let mut wins = 0u32;
        for seed in 0..games {
            let game = Lazy::new(2, 6, 0.5, 0.5, seed).unwrap();
            let root = game.root();
            // Depth 2: Max picks the child whose Min minimum over playouts is largest.
            let mut best = (f64::NEG_INFINITY, Vec::new());
            for m in game.moves(&root) {
                let child = game.play(&root, m);
                let value = game
                    .moves(&child)
                    .iter()
                    .map(|&k| random_playout(&game, &game.play(&child, k), &mut rng))
                    .fold(f64::INFINITY, f64::min);
                if value > best.0 {
                    best = (value, vec![child]);
                } else if value == best.0 {
                    best.1.push(child);
                }
            }
            let pick = crate::search::pick_uniform(&mut rng, best.1.len());
            wins += u32::from(best.1[pick].max_wins);
        }
        let estimate = f64::from(wins) / games as f64;
        let sd = (exact * (1.0 - exact) / games as f64).sqrt();
        assert!(
            (estimate - exact).abs() < 4.0 * sd + 1e-9,
            "{estimate} vs {exact}"
        );
    }
}
