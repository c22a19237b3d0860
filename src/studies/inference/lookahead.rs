//! Verifier-guided lookahead against its depth and against best-of-n (a study
//! of `reproduce`), exactly.
//!
//! **Settings.** B = 3 candidate steps per decision, a solution of L = 8 steps, each
//! proposed step from a correct prefix correct with probability Q = 3/5, and two noise laws
//! for the verifier's Z, both centred binomials: [`NOISES`] (five points at spacing 1,
//! standard deviation 1; nine points at spacing 1/2, standard deviation `1/sqrt 2`). The
//! verifier scores a prefix of m steps `1{correct} + (1 + G (m - 1)) Z` with G in
//! [`GROWTHS`]. Every `P_correct` is the calculator of `pathology inference lookahead` in
//! exact rationals, with best-of-n over `B^L` complete solutions beside it.
//!
//! **What the order of scores can see.** The search compares scores only; with a lattice
//! noise law of spacing delta, a correct and a wrong node's scores `1 + sZ` and `sZ'` are
//! ordered by Z first once `s delta > 1`, the correctness bit breaking the ties. So on the
//! five-point law every G > 0 gives the same numbers (s > 1 from the second step on), and
//! on the nine-point law G enters through s < 2, s = 2 and s > 2 only.
//!
//! **Ceilings.** A lookahead that commits to one of B candidates per step is correct at
//! most when every step offers a correct candidate: `(1 - (1 - Q)^B)^L`; best-of-n over
//! `B^L` complete solutions at most when one of them is correct: `1 - (1 - Q^L)^(B^L)`
//! ([`ceilings`]).

use num_rational::BigRational;
use num_traits::One;

use super::best_of_n::shown;
use crate::analytic::inference::{Lookahead, LookaheadSearch, lookahead};
use crate::analytic::pathsum::Law;
use crate::error::Result;
use crate::numeric::number::{parse_rational, rational_to_f64};
use crate::report::claims::{Claim, ClaimFamily, Direction, Evidence};
use crate::report::figure::{
    Axes, ErrorPoint, ErrorSeries, ExactLine, LegendPosition, Panel, Scale,
};
use crate::report::{Cell, Column, Kind, Table};

/// B.
pub const BRANCHING: u32 = 3;
/// L.
pub const STEPS: u32 = 8;
/// Q.
pub const STEP_CORRECT: &str = "3/5";
/// The noise laws: a name and the law.
pub const NOISES: [(&str, &str); 2] = [
    (
        "5-point Z = Bin(4,1/2) - 2",
        "-2:1/16,-1:1/4,0:3/8,1:1/4,2:1/16",
    ),
    (
        "9-point Z = (Bin(8,1/2) - 4)/2",
        "-2:1/256,-3/2:1/32,-1:7/64,-1/2:7/32,0:35/128,1/2:7/32,1:7/64,3/2:1/32,2:1/256",
    ),
];
/// The growth G of the verifier's noise with the prefix length.
pub const GROWTHS: [&str; 3] = ["0", "1/4", "1"];

/// One setting's exact result.
#[derive(Debug, Clone)]
pub struct Setting {
    /// The index of the noise law in [`NOISES`].
    pub noise: usize,
    /// G.
    pub growth: &'static str,
    /// The calculator's result at d = 1..=L.
    pub result: Lookahead<BigRational>,
}

impl Setting {
    /// `P_correct` at depth d.
    pub fn at(&self, d: u32) -> &BigRational {
        &self.result.rows[d as usize - 1].correct.value
    }

    /// The first depth with the largest `P_correct`.
    pub fn best(&self) -> u32 {
        self.result.best
    }

    /// The best-of-n baseline over `B^L` complete solutions.
    pub fn baseline(&self) -> &BigRational {
        &self
            .result
            .best_of_n
            .as_ref()
            .expect("B^L = 6561 is computed exactly")
            .value
    }

    /// The largest `P_correct` over d < L.
    pub fn best_below_full(&self) -> &BigRational {
        (1..STEPS).map(|d| self.at(d)).max().expect("L > 1")
    }

    /// The first d with `P(d + 1) < P(d)` (`None`: P never falls).
    pub fn first_fall(&self) -> Option<u32> {
        (1..STEPS).find(|&d| self.at(d + 1) < self.at(d))
    }
}

/// `(lookahead's ceiling, best-of-n's ceiling)`: `(1 - (1 - Q)^B)^L` and
/// `1 - (1 - Q^L)^(B^L)`.
pub fn ceilings() -> (BigRational, BigRational) {
    let q = parse_rational(STEP_CORRECT).expect("a constant");
    let one = BigRational::one();
    let step = &one - num_traits::pow(&one - &q, BRANCHING as usize);
    let search = num_traits::pow(step, STEPS as usize);
    // 1 - Q^L = c / e in lowest terms, so (c / e)^(B^L) is c^(B^L) / e^(B^L) in lowest
    // terms too, and so is 1 minus it: no gcd of numbers of a hundred thousand bits.
    let miss = &one - num_traits::pow(q, STEPS as usize);
    let leaves = num_traits::pow(BRANCHING as usize, STEPS as usize);
    let (c, e) = (
        num_traits::pow(miss.numer().clone(), leaves),
        num_traits::pow(miss.denom().clone(), leaves),
    );
    (search, BigRational::new_raw(&e - c, e))
}

/// `a - b` reduced only when small: the difference of two fractions of a hundred thousand
/// bits is kept as the unreduced `(a_n b_d - b_n a_d) / (a_d b_d)` (its value and sign are
/// what [`shown`] needs; a gcd of that size costs seconds).
fn difference(a: &BigRational, b: &BigRational) -> BigRational {
    if a.denom().bits() + b.denom().bits() <= 4096 {
        return a - b;
    }
    BigRational::new_raw(
        a.numer() * b.denom() - b.numer() * a.denom(),
        a.denom() * b.denom(),
    )
}

/// The study: every (noise, G) at d = 1..=L.
#[derive(Debug, Clone)]
pub struct LookaheadStudy {
    /// Noise by noise, G by G.
    pub settings: Vec<Setting>,
}

impl LookaheadStudy {
    /// Computes every setting exactly.
    ///
    /// # Errors
    ///
    /// As the calculator (never for these sizes).
    pub fn compute() -> Result<LookaheadStudy> {
        let depths: Vec<u32> = (1..=STEPS).collect();
        let mut settings = Vec::new();
        for (noise, (_, law)) in NOISES.iter().enumerate() {
            for growth in GROWTHS {
                let search = LookaheadSearch {
                    branching: BRANCHING,
                    steps: STEPS,
                    step_correct: parse_rational(STEP_CORRECT).expect("a constant"),
                    noise: Law::parse("--noise", law)?,
                    growth: parse_rational(growth).expect("a constant"),
                };
                settings.push(Setting {
                    noise,
                    growth,
                    result: lookahead::<BigRational>(&search, &depths)?,
                });
            }
        }
        Ok(LookaheadStudy { settings })
    }

    /// The setting of `noise` at `growth`.
    pub fn setting(&self, noise: usize, growth: &str) -> Option<&Setting> {
        self.settings
            .iter()
            .find(|s| s.noise == noise && s.growth == growth)
    }

    /// The claims, each the sign of an exact rational:
    ///
    /// - G = 0: full depth is the best depth, after an initial fall
    ///   (`min(P(L) - max_{d<L} P(d), P(1) - P(2)) > 0`);
    /// - G > 0: the best depth is below L (`max_{d<L} P(d) - P(L) > 0`);
    /// - deeper lookahead beats one step (`P(L) - P(1) > 0`);
    /// - best-of-n over `B^L` complete solutions beats full lookahead
    ///   (`P_best-of-n - P(L) > 0`);
    /// - a verifier noisier with depth lowers full lookahead (`P_G(L) - P_0(L) < 0`).
    pub fn claim_families(&self) -> Vec<ClaimFamily> {
        let exact = |x: BigRational| Evidence::Exact(shown(&x));
        let expected = "the expectation lookahead rests on";
        let cinquin =
            "Cinquin, Pleiss & Kristiadi, arXiv 2510.20272 (tree search no better than best-of-N)";
        let mut depth = ClaimFamily::new("lookahead: where deeper stops helping", 0.05);
        let mut deeper = ClaimFamily::new("lookahead: full depth against one step", 0.05);
        let mut against = ClaimFamily::new("lookahead against best-of-n", 0.05);
        let mut growth = ClaimFamily::new("lookahead: a verifier noisier with depth", 0.05);
        for s in &self.settings {
            let what = format!("{}, G = {}", NOISES[s.noise].0, s.growth);
            let full = s.at(STEPS);
            if s.growth == "0" {
                // Both halves decided at once: full depth beats every shallower depth, and
                // the curve does not get there by rising all the way (P(2) < P(1)).
                let best = difference(full, s.best_below_full());
                let fall = difference(s.at(1), s.at(2));
                depth.push(Claim::new(
                    format!(
                        "{what}: full depth d = L = {STEPS} is the best depth, after an initial fall (P(2) < P(1))"
                    ),
                    expected,
                    "min(P(L) - max over d < L of P(d), P(1) - P(2))",
                    Direction::Greater,
                    exact(best.min(fall)),
                ));
            } else {
                depth.push(Claim::new(
                    format!("{what}: the best depth is below L = {STEPS}"),
                    "Cinquin et al., arXiv 2510.20272 (reward models degrade with depth)",
                    "max over d < L of P(d) - P(L)",
                    Direction::Greater,
                    exact(difference(s.best_below_full(), full)),
                ));
                let base = self.setting(s.noise, "0").expect("G = 0 is computed");
                growth.push(Claim::new(
                    format!("{what}: full lookahead is worse than with G = 0"),
                    "this tool",
                    "P_G(L) - P_0(L)",
                    Direction::Less,
                    exact(difference(full, base.at(STEPS))),
                ));
            }
            deeper.push(Claim::new(
                format!("{what}: lookahead to d = L beats d = 1"),
                expected,
                "P(L) - P(1)",
                Direction::Greater,
                exact(difference(full, s.at(1))),
            ));
            against.push(Claim::new(
                format!(
                    "{what}: best-of-{} complete solutions beats full lookahead",
                    s.result.leaves.unwrap_or(0)
                ),
                cinquin,
                "P(best-of-B^L) - P(L)",
                Direction::Greater,
                exact(difference(s.baseline(), full)),
            ));
        }
        vec![depth, deeper, against, growth]
    }

    /// The tables `lookahead` (every depth) and `lookahead_best` (per setting: the best d,
    /// where P first falls, full depth, best-of-n and the ceilings).
    pub fn tables(&self) -> Vec<Table> {
        let real = |name: &str| Column::new(name, Kind::Real);
        let mut every = Table::new(
            "lookahead",
            "Verifier-guided lookahead, exact: B = 3, L = 8, Q = 3/5, P_correct and the first decision's accuracy at every depth",
            vec![
                Column::key("noise", Kind::Text),
                Column::key("G", Kind::Text),
                Column::key("d", Kind::Integer),
                real("P_correct"),
                real("first decision"),
            ],
        );
        for s in &self.settings {
            for row in &s.result.rows {
                every.push(vec![
                    Cell::text(NOISES[s.noise].0),
                    Cell::text(s.growth),
                    Cell::int(row.depth),
                    shown(&row.correct.value),
                    shown(&row.first.value),
                ]);
            }
        }
        let (search_ceiling, any_ceiling) = ceilings();
        let mut best = Table::new(
            "lookahead_best",
            "Where deeper lookahead stops helping, and best-of-n over B^L = 6561 complete solutions (the leaves full lookahead's first decision scores)",
            vec![
                Column::key("noise", Kind::Text),
                Column::key("G", Kind::Text),
                Column::new("best d", Kind::Integer),
                real("P(best d)"),
                Column::new("first fall", Kind::Text),
                real("P(1)"),
                real("P(L)"),
                real("best-of-6561"),
                real("lookahead ceiling"),
                real("best-of-n ceiling"),
            ],
        );
        for s in &self.settings {
            best.push(vec![
                Cell::text(NOISES[s.noise].0),
                Cell::text(s.growth),
                Cell::int(s.best()),
                shown(s.at(s.best())),
                Cell::text(
                    s.first_fall()
                        .map_or("never".to_string(), |d| format!("d = {d} to {}", d + 1)),
                ),
                shown(s.at(1)),
                shown(s.at(STEPS)),
                shown(s.baseline()),
                shown(&search_ceiling),
                shown(&any_ceiling),
            ]);
        }
        vec![every, best]
    }

    /// The figure: `P_correct` against d per G (the best d in each series' label), one panel
    /// per noise law fitted to the curves, then the same curves on [0, 1] with best-of-n over
    /// `B^L` complete solutions as dashed lines (the exact lines of panels 3 and 4).
    pub fn panels(&self) -> (Vec<Panel>, Vec<Vec<ExactLine>>) {
        let mut zoomed = Vec::new();
        let mut whole = Vec::new();
        let mut lines = vec![Vec::new(), Vec::new()];
        for (noise, (name, _)) in NOISES.iter().enumerate() {
            let settings: Vec<&Setting> = GROWTHS
                .iter()
                .filter_map(|g| self.setting(noise, g))
                .collect();
            let series: Vec<ErrorSeries> = settings
                .iter()
                .map(|s| ErrorSeries {
                    label: format!("G = {}: best d = {}", s.growth, s.best()),
                    points: (1..=STEPS)
                        .map(|d| {
                            let y = rational_to_f64(s.at(d));
                            ErrorPoint {
                                x: f64::from(d),
                                y,
                                low: y,
                                high: y,
                            }
                        })
                        .collect(),
                })
                .collect();
            let top = series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.y))
                .fold(0.0, f64::max);
            // One dashed line per distinct best-of-n value (G > 0 share theirs here).
            let mut baselines: Vec<(Vec<&str>, f64)> = Vec::new();
            for s in &settings {
                let y = rational_to_f64(s.baseline());
                match baselines.iter_mut().find(|(_, v)| *v == y) {
                    Some(entry) => entry.0.push(s.growth),
                    None => baselines.push((vec![s.growth], y)),
                }
            }
            lines.push(
                baselines
                    .into_iter()
                    .map(|(growths, y)| ExactLine {
                        label: format!("best-of-6561, G = {}: {y:.4}", growths.join(", ")),
                        points: vec![(0.5, y), (f64::from(STEPS) + 0.5, y)],
                    })
                    .collect(),
            );
            // B, L and Q in the x label: the title stays within the plot area's width.
            let title = name.to_string();
            let x_label =
                format!("lookahead depth d (B = {BRANCHING}, L = {STEPS}, Q = {STEP_CORRECT})");
            zoomed.push(Panel {
                axes: Axes {
                    title: format!("lookahead, {title}"),
                    x_label: x_label.clone(),
                    y_label: "P_correct (all L steps correct)".to_string(),
                    x_range: (0.5, f64::from(STEPS) + 0.5),
                    x_scale: Scale::Linear,
                    y_range: (0.0, 1.15 * top),
                },
                series: series.clone(),
                // Beside the plot area in all four panels, so that their x axes line up.
                legend: LegendPosition::Right,
                reference: None,
            });
            whole.push(Panel {
                axes: Axes {
                    title: format!("against best-of-n, {title}"),
                    x_label: x_label.clone(),
                    y_label: "P_correct on [0, 1]".to_string(),
                    x_range: (0.5, f64::from(STEPS) + 0.5),
                    x_scale: Scale::Linear,
                    y_range: (0.0, 1.0),
                },
                series,
                legend: LegendPosition::Right,
                reference: None,
            });
        }
        zoomed.extend(whole);
        (zoomed, lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::claims::Verdict;
    use num_traits::Zero;

    /// The decision at a correct prefix, enumerated: B = 2 candidates, one more level below
    /// each (h = 1, four frontier nodes), every step's correctness and every frontier score
    /// drawn, the tie-break counted exactly.
    fn brute_force_decision(q: &BigRational, noise: &Law) -> BigRational {
        let one = BigRational::one();
        // A candidate: correct with q; its two children correct with q if it is.
        let mut total = BigRational::zero();
        let atoms = noise.atoms();
        let k = atoms.len();
        for shape in 0..(1u32 << 6) {
            // Bits: candidate 0, candidate 1, then two children each.
            let bit = |i: u32| shape >> i & 1 == 1;
            let mut p = one.clone();
            let mut correct = [false; 6];
            for c in 0..2u32 {
                correct[c as usize] = bit(c);
                p *= if bit(c) { q.clone() } else { &one - q };
                for child in 0..2u32 {
                    let i = 2 + 2 * c + child;
                    let ok = bit(c) && bit(i);
                    if bit(c) {
                        p *= if bit(i) { q.clone() } else { &one - q };
                    } else if bit(i) {
                        p = BigRational::zero();
                    }
                    correct[i as usize] = ok;
                }
            }
            if p.is_zero() {
                continue;
            }
            for draw in 0..k.pow(4) {
                let mut rest = draw;
                let mut weight = p.clone();
                let mut best: [Option<BigRational>; 2] = [None, None];
                for c in 0..2usize {
                    for child in 0..2usize {
                        let (z, pz) = &atoms[rest % k];
                        rest /= k;
                        weight *= pz;
                        let bonus = if correct[2 + 2 * c + child] {
                            one.clone()
                        } else {
                            BigRational::zero()
                        };
                        let score = bonus + z;
                        if best[c].as_ref().is_none_or(|b| score > *b) {
                            best[c] = Some(score);
                        }
                    }
                }
                let (a, b) = (best[0].clone().unwrap(), best[1].clone().unwrap());
                let share = if a > b {
                    if correct[0] {
                        one.clone()
                    } else {
                        BigRational::zero()
                    }
                } else if b > a {
                    if correct[1] {
                        one.clone()
                    } else {
                        BigRational::zero()
                    }
                } else {
                    BigRational::new(
                        (u8::from(correct[0]) + u8::from(correct[1])).into(),
                        2.into(),
                    )
                };
                total += weight * share;
            }
        }
        total
    }

    #[test]
    fn a_decision_equals_a_brute_force_in_rationals() {
        let noise = Law::parse("--noise", NOISES[0].1).unwrap();
        let q = parse_rational(STEP_CORRECT).unwrap();
        let search = LookaheadSearch {
            branching: 2,
            steps: 2,
            step_correct: q.clone(),
            noise: noise.clone(),
            growth: parse_rational("0").unwrap(),
        };
        let r = lookahead::<BigRational>(&search, &[2]).unwrap();
        assert_eq!(r.rows[0].first.value, brute_force_decision(&q, &noise));
    }

    #[test]
    fn the_claims_follow_the_exact_numbers() {
        let study = LookaheadStudy::compute().unwrap();
        let families = study.claim_families();
        let counts: Vec<usize> = families.iter().map(|f| f.claims.len()).collect();
        assert_eq!(counts, vec![6, 6, 6, 4]);
        let verdicts = |i: usize| -> Vec<Verdict> {
            families[i]
                .decide()
                .into_iter()
                .map(|d| d.verdict)
                .collect()
        };
        // Each verdict is the sign of an exact rational, checked here against the rows.
        for (i, s) in study.settings.iter().enumerate() {
            let full = s.at(STEPS);
            let holds = |x: bool| if x { Verdict::Holds } else { Verdict::Fails };
            let expected = if s.growth == "0" {
                full > s.best_below_full() && s.at(2) < s.at(1)
            } else {
                s.best_below_full() > full
            };
            assert_eq!(verdicts(0)[i], holds(expected));
            assert_eq!(verdicts(1)[i], holds(full > s.at(1)));
            assert_eq!(verdicts(2)[i], holds(s.baseline() > full));
        }
        // The five-point law is a lattice of spacing 1: every G > 0 orders the scores alike.
        let (a, b) = (
            study.setting(0, "1/4").unwrap(),
            study.setting(0, "1").unwrap(),
        );
        assert_eq!(a.result.rows, b.result.rows);
        // Best-of-n at equal leaves beats full lookahead everywhere here, below its ceiling.
        let (search_ceiling, any_ceiling) = ceilings();
        for s in &study.settings {
            assert_eq!(
                verdicts(2)[study
                    .settings
                    .iter()
                    .position(|x| std::ptr::eq(x, s))
                    .unwrap()],
                Verdict::Holds
            );
            assert!(s.at(STEPS) <= &search_ceiling && s.baseline() <= &any_ceiling);
        }
    }

    /// docs/inference.md quotes table `lookahead_best` (to four decimals) and the claims'
    /// verdicts by family; both are checked against the computed study here.
    #[test]
    fn the_docs_quote_the_study() {
        let study = LookaheadStudy::compute().unwrap();
        let page = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/inference.md"),
        )
        .unwrap();
        let four = |x: &BigRational| format!("{:.4}", rational_to_f64(x));
        for s in &study.settings {
            let noise = if s.noise == 0 { "5-point" } else { "9-point" };
            let growth = if s.noise == 0 && s.growth != "0" {
                "1/4 and 1"
            } else {
                s.growth
            };
            let row = format!(
                "| {noise} | {growth} | {} | {} | {} | {} | {} |",
                s.best(),
                four(s.at(s.best())),
                four(s.at(1)),
                four(s.at(STEPS)),
                four(s.baseline())
            );
            assert!(page.contains(&row), "{row}");
        }
        let families = study.claim_families();
        let count = |i: usize, v: Verdict| {
            families[i]
                .decide()
                .iter()
                .filter(|d| d.verdict == v)
                .count()
        };
        // Where deeper stops helping: 3 hold, 3 fail; full depth against one step: 3 and 3;
        // best-of-n beats full lookahead in all six; growth lowers full depth in all four.
        assert_eq!((count(0, Verdict::Holds), count(0, Verdict::Fails)), (3, 3));
        assert_eq!((count(1, Verdict::Holds), count(1, Verdict::Fails)), (3, 3));
        assert_eq!(count(2, Verdict::Holds), 6);
        assert_eq!(count(3, Verdict::Holds), 4);
        assert!(page.contains("beats full lookahead in all six settings"));
        // The account of the curves' shape and of the gap to best-of-n, number by number.
        let prose = page.split_whitespace().collect::<Vec<_>>().join(" ");
        let has = |text: &str| assert!(prose.contains(text), "docs/inference.md lacks {text:?}");
        let lowest = |s: &Setting| (1..=STEPS).min_by(|&a, &b| s.at(a).cmp(s.at(b))).unwrap();
        for s in study.settings.iter().filter(|s| s.noise == 0) {
            let bottom = lowest(s);
            assert!(
                (1..bottom).all(|d| s.at(d + 1) < s.at(d)),
                "falls to {bottom}"
            );
            assert!(
                (bottom..STEPS).all(|d| s.at(d + 1) > s.at(d)),
                "rises from {bottom}"
            );
            assert_eq!(bottom, if s.growth == "0" { 4 } else { 3 });
        }
        has(
            "keeps falling down to d = 4 (G = 0) or d = 3 (G > 0), then rises at every further depth",
        );
        for s in &study.settings {
            assert!(s.at(2) < s.at(1), "P first falls from d = 1 to d = 2");
        }
        let range = |values: Vec<&BigRational>| {
            let (low, high) = (values.iter().min().unwrap(), values.iter().max().unwrap());
            format!("{} to {}", four(low), four(high))
        };
        let fulls: Vec<&BigRational> = study.settings.iter().map(|s| s.at(STEPS)).collect();
        has(&format!("full lookahead reaches only {}", range(fulls)));
        let any_depth = study
            .settings
            .iter()
            .flat_map(|s| (1..=STEPS).map(move |d| s.at(d)))
            .max()
            .unwrap();
        has(&format!("no depth more than {}", four(any_depth)));
        let firsts: Vec<&BigRational> = study
            .settings
            .iter()
            .map(|s| &s.result.rows[STEPS as usize - 1].first.value)
            .collect();
        has(&format!(
            "first decision is right with probability {}",
            range(firsts)
        ));
        let baselines: Vec<&BigRational> = study.settings.iter().map(|s| s.baseline()).collect();
        has(&format!("only once ({} here)", range(baselines)));
        let (search_ceiling, _) = ceilings();
        has(&format!("`(1 - (1 - Q)^B)^L = {}`", four(&search_ceiling)));
        let q = parse_rational(STEP_CORRECT).unwrap();
        let offered =
            BigRational::one() - num_traits::pow(BigRational::one() - q, BRANCHING as usize);
        has(&format!(
            "`1 - (1 - Q)^B = {}`",
            crate::numeric::number::short_text(&offered)
        ));
        let gaps: Vec<BigRational> = study
            .settings
            .iter()
            .map(|s| difference(s.baseline(), s.at(STEPS)))
            .collect();
        let two = |x: &BigRational| format!("{:.2}", rational_to_f64(x));
        has(&format!(
            "by {} to {}",
            two(gaps.iter().min().unwrap()),
            two(gaps.iter().max().unwrap())
        ));
        assert!(
            page.contains("lowers full-depth\nlookahead in all four cases")
                || page.contains("lowers full-depth lookahead in all four cases")
        );
    }
}
