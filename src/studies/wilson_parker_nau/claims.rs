//! Wilson, Parker & Nau's (2009) claims on Figs. 3-6, decided by
//! [`crate::report::claims`]: each claim a continuous effect (a change of the fraction of
//! correct decisions between two search depths, or the product rule's lead over EMM) with its
//! interval, Holm-corrected within its family.
//!
//! **Correlation.** Every search depth and every decision rule of a setting is measured on
//! the same non-trivial games, and the counts do not record how the decisions pair up, so the
//! standard error of a difference of two such fractions is bounded by the sum of theirs
//! ([`Evidence::correlated_difference`], the worst case for any correlation): a decided claim
//! stays decided under the true correlation. The fall from depth 1 to 9 of minimax on binary
//! P-games (about 0.2) is far beyond that bound; a step of EMM of a few thousandths is not,
//! and is then undecided, not decided by its estimate.
//!
//! **Depths.** The figures' trees have height 10; depth 10 reaches the leaves, where every
//! rule is right, so "deeper search" is compared from depth 1 to depth 9.

use super::study::StudyCounts;
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence};
use crate::sim::level_tree::GameKind;

/// The family-wise error rate of every family here.
pub const ALPHA: f64 = 0.05;

/// One panel of Figs. 3-6: the figure, its game and evaluator, b, and the counts behind it.
#[derive(Debug, Clone)]
pub struct FigureCounts {
    /// The figure's number (3-6).
    pub figure: u32,
    /// P- or N-games.
    pub game: GameKind,
    /// Whether the evaluator is the natural one (Figs. 4 and 6).
    pub natural: bool,
    /// The branching factor.
    pub branching: u32,
    /// The counts of the panel.
    pub counts: StudyCounts,
}

/// Minimax, product, EMM (the order of [`super::study::ALGORITHMS`]).
const MINIMAX: usize = 0;
const PRODUCT: usize = 1;
const EMM: usize = 2;

impl FigureCounts {
    /// `(fraction, standard error)` of rule `rule` at search depth `depth` (from 1).
    fn fraction(&self, depth: usize, rule: usize) -> Option<(f64, f64)> {
        let p = self.counts.correct.get(depth.checked_sub(1)?)?[rule];
        (p.trials > 0).then(|| {
            let x = p.successes as f64 / p.trials as f64;
            (x, (x * (1.0 - x) / p.trials as f64).sqrt())
        })
    }

    /// The deepest search depth above the leaves.
    fn last(&self) -> usize {
        self.counts.correct.len().saturating_sub(1)
    }

    fn label(&self) -> String {
        format!(
            "Fig. {}: {}-games, b = {}",
            self.figure,
            match self.game {
                GameKind::P => "P",
                GameKind::N => "N",
            },
            self.branching
        )
    }

    /// `rule` at depth `a` minus at depth `b`, conservative (module docs).
    fn change(&self, rule: usize, a: usize, b: usize) -> Evidence {
        match (self.fraction(a, rule), self.fraction(b, rule)) {
            (Some(x), Some(y)) => Evidence::correlated_difference(x, y),
            _ => Evidence::NotTestable("no games at these depths".to_string()),
        }
    }
}

fn source(figures: &str) -> String {
    format!("Wilson, Parker & Nau 2009, {figures}")
}

/// The claims, five families:
///
/// 1. *minimax is pathological on P-games* (artificial evaluator, Fig. 3): per b,
///    `D_minimax(9) - D_minimax(1) < 0`;
/// 2. *the product rule is pathological with the artificial evaluator* (footnote 4, on the
///    P-games of Fig. 3): per b, `D_product(9) - D_product(1) < 0`;
/// 3. *EMM is not pathological with the artificial evaluator* (Figs. 3 and 5): per game and
///    b, `D_EMM(9) - D_EMM(1) > 0`;
/// 4. *EMM's accuracy rises with every ply* (the same claim read step by step): per game, b
///    and depth k = 1..8, `D_EMM(k + 1) - D_EMM(k) > 0`; a step that falls significantly
///    fails;
/// 5. *the product rule is ahead of EMM with the natural evaluator* (Figs. 4 and 6): per game
///    and b, the mean over depths 2..9 of `D_product(d) - D_EMM(d)` above 0 (depth 1 left out:
///    there every rule chooses alike), its standard error bounded by the mean of the
///    depths' bounds.
///
/// # Examples
///
/// ```
/// use pathology::sim::TrialRunner;
/// use pathology::sim::level_tree::{BoardSpec, GameKind};
/// use pathology::studies::wilson_parker_nau::claims::{FigureCounts, claim_families};
/// use pathology::studies::wilson_parker_nau::study::{StudyEvaluator, run_counts_shared};
/// let spec = BoardSpec::new(GameKind::P, 2, 4, 0.382).unwrap();
/// let runner = TrialRunner::new(50, 1, 1).unwrap();
/// let evaluators = [StudyEvaluator::Artificial { error: 0.1 }];
/// let counts = run_counts_shared(&spec, &evaluators, &runner).unwrap().remove(0);
/// let panel = FigureCounts { figure: 3, game: GameKind::P, natural: false, branching: 2, counts };
/// let families = claim_families(&[panel]);
/// assert_eq!(families.iter().map(|f| f.claims.len()).collect::<Vec<_>>(), [1, 1, 1, 2]);
/// ```
pub fn claim_families(panels: &[FigureCounts]) -> Vec<ClaimFamily> {
    let mut minimax = ClaimFamily::new(
        "Wilson et al.: minimax is pathological on P-games (artificial evaluator)",
        ALPHA,
    );
    let mut product = ClaimFamily::new(
        "Wilson et al.: product is pathological with the artificial evaluator",
        ALPHA,
    );
    let mut emm = ClaimFamily::new(
        "Wilson et al.: EMM is not pathological with the artificial evaluator",
        ALPHA,
    );
    let mut steps = ClaimFamily::new(
        "Wilson et al.: EMM's accuracy rises with every ply (artificial evaluator)",
        ALPHA,
    );
    let mut ahead = ClaimFamily::new(
        "Wilson et al.: product is ahead of EMM with the natural evaluator",
        ALPHA,
    );
    for panel in panels {
        let last = panel.last();
        let label = panel.label();
        if !panel.natural {
            if panel.game == GameKind::P {
                minimax.push(Claim::new(
                    format!("{label}: minimax is less often right at depth {last} than at 1"),
                    source("Fig. 3"),
                    format!("D_minimax({last}) - D_minimax(1)"),
                    Direction::Less,
                    panel.change(MINIMAX, last, 1),
                ));
                product.push(Claim::new(
                    format!("{label}: product is less often right at depth {last} than at 1"),
                    source("footnote 4, Fig. 3"),
                    format!("D_product({last}) - D_product(1)"),
                    Direction::Less,
                    panel.change(PRODUCT, last, 1),
                ));
            }
            emm.push(Claim::new(
                format!("{label}: EMM is more often right at depth {last} than at 1"),
                source("Figs. 3 and 5"),
                format!("D_EMM({last}) - D_EMM(1)"),
                Direction::Greater,
                panel.change(EMM, last, 1),
            ));
            for k in 1..last {
                steps.push(Claim::new(
                    format!(
                        "{label}: EMM is more often right at depth {} than at {k}",
                        k + 1
                    ),
                    source("Figs. 3 and 5"),
                    "D_EMM(k + 1) - D_EMM(k)",
                    Direction::Greater,
                    panel.change(EMM, k + 1, k),
                ));
            }
        } else {
            let leads: Option<Vec<Evidence>> = (2..=last)
                .map(|d| {
                    Some(Evidence::correlated_difference(
                        panel.fraction(d, PRODUCT)?,
                        panel.fraction(d, EMM)?,
                    ))
                })
                .collect();
            let evidence = match leads {
                Some(leads) if !leads.is_empty() => {
                    let n = leads.len() as f64;
                    let (sum, se) = leads.iter().fold((0.0, 0.0), |(s, e), l| match l {
                        Evidence::Normal {
                            estimate,
                            standard_error,
                        } => (s + estimate, e + standard_error),
                        _ => (s, e),
                    });
                    Evidence::Normal {
                        estimate: sum / n,
                        standard_error: se / n,
                    }
                }
                _ => Evidence::NotTestable("no games at these depths".to_string()),
            };
            ahead.push(Claim::new(
                format!("{label}: product is more often right than EMM (depths 2-{last})"),
                source("Figs. 4 and 6"),
                "mean over d of D_product(d) - D_EMM(d)",
                Direction::Greater,
                evidence,
            ));
        }
    }
    [minimax, product, emm, steps, ahead]
        .into_iter()
        .filter(|f| !f.claims.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::claims::Verdict;
    use crate::sim::stats::Proportion;

    fn panel(natural: bool, correct: &[[u64; 3]], games: u64) -> FigureCounts {
        FigureCounts {
            figure: if natural { 4 } else { 3 },
            game: GameKind::P,
            natural,
            branching: 2,
            counts: StudyCounts {
                games,
                boards_drawn: games,
                correct: correct
                    .iter()
                    .map(|c| {
                        let p = |s| Proportion {
                            successes: s,
                            trials: games,
                        };
                        [p(c[0]), p(c[1]), p(c[2]), p(0)]
                    })
                    .collect(),
                fraction: false,
            },
        }
    }

    /// The README's old "EMM ... almost" read a verdict off estimates 0.007 apart. With the
    /// conservative bound a step of that size at 10,000 games is undecided; a fall of 0.2 is
    /// decided.
    #[test]
    fn small_steps_are_undecided_and_large_falls_decided() {
        let rows = [
            [8970, 8950, 8980],
            [8000, 8500, 9520],
            [7500, 8200, 9450],
            [6970, 7710, 9830],
            [10000, 10000, 10000],
        ];
        let families = claim_families(&[panel(false, &rows, 10_000)]);
        let minimax = families[0].decide();
        assert_eq!(minimax[0].verdict, Verdict::Holds, "{:?}", minimax[0]);
        let steps = families[3].decide();
        assert_eq!(steps.len(), 3);
        assert_eq!(steps[0].verdict, Verdict::Holds);
        assert_eq!(steps[1].verdict, Verdict::Undecided, "{:?}", steps[1]);
        assert_eq!(steps[2].verdict, Verdict::Holds);
        assert!(steps[0].test.contains("Holm over 3"), "{}", steps[0].test);
    }

    /// The natural evaluator's claim averages depths 2..H-1 and leaves depth 1 out.
    #[test]
    fn product_ahead_averages_depths_two_to_last() {
        let rows = [
            [5000, 9000, 1000],
            [5000, 6000, 5000],
            [5000, 7000, 5000],
            [10000, 10000, 10000],
        ];
        let families = claim_families(&[panel(true, &rows, 10_000)]);
        assert_eq!(families.len(), 1);
        let Evidence::Normal { estimate, .. } = families[0].claims[0].evidence else {
            panic!()
        };
        assert!((estimate - 0.15).abs() < 1e-12, "{estimate}");
        assert_eq!(families[0].decide()[0].verdict, Verdict::Holds);
    }
}
