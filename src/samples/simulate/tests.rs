use super::*;
use crate::samples::curves;
use crate::samples::input::{AnswerGroup, ScoreLevel};
use crate::sim::runner::TrialRunner;

fn problem(groups: &[(u64, bool)], abstain: u64, scores: &[(u64, u64)]) -> Problem {
    let n = groups.iter().map(|g| g.0).sum::<u64>() + abstain;
    Problem {
        id: "p".into(),
        n,
        c: groups.iter().filter(|g| g.1).map(|g| g.0).sum(),
        answers: groups
            .iter()
            .map(|&(count, correct)| AnswerGroup { count, correct })
            .collect(),
        scores: scores
            .iter()
            .map(|&(count, correct)| ScoreLevel { count, correct })
            .collect(),
    }
}

fn samples(problems: Vec<Problem>) -> Samples {
    Samples {
        source: "t".into(),
        per_sample: true,
        has_answers: true,
        has_scores: true,
        rows: problems.iter().map(|p| p.n).sum(),
        problems,
    }
}

#[test]
fn the_rebuilt_samples_keep_every_label_count_and_agree_on_correctness() {
    let p = problem(
        &[(3, true), (2, false), (1, true), (1, false)],
        2,
        &[(2, 1), (4, 2), (3, 1)],
    );
    let s = samples(vec![p.clone()]);
    let d = Drawn::new(&p, &s);
    assert_eq!(d.correct.iter().filter(|&&c| c).count() as u64, p.c);
    for (g, group) in p.answers.iter().enumerate() {
        let mine: Vec<usize> = (0..9).filter(|&i| d.answer[i] == g as u32).collect();
        assert_eq!(mine.len() as u64, group.count);
        // A sample's answer group is correct exactly when the sample is.
        assert!(mine.iter().all(|&i| d.correct[i] == group.correct));
    }
    assert_eq!(d.answer.iter().filter(|&&a| a == NO_ANSWER).count(), 2);
    assert!((0..9).all(|i| d.answer[i] != NO_ANSWER || !d.correct[i]));
    for (l, level) in p.scores.iter().enumerate() {
        let at: Vec<usize> = (0..9).filter(|&i| d.level[i] == l as u32).collect();
        assert_eq!(at.len() as u64, level.count);
        assert_eq!(
            at.iter().filter(|&&i| d.correct[i]).count() as u64,
            level.correct
        );
    }
}

/// Every (metric, k) count of a seeded run is within 4.5 standard errors of the exact
/// value, on problems with ties of votes, abstentions and ties of scores, in both tie rules.
#[test]
fn the_drawn_subsets_estimate_the_exact_curves() {
    let problems = vec![
        problem(
            &[(3, true), (3, false), (1, false)],
            1,
            &[(3, 1), (3, 2), (2, 0)],
        ),
        problem(&[(2, true), (2, false), (2, false)], 0, &[(6, 2)]),
        problem(&[(1, true), (4, false)], 2, &[(1, 0), (5, 1), (1, 0)]),
    ];
    let s = samples(problems);
    let grid = vec![1, 2, 3, 5];
    for ties in [Ties::Uniform, Ties::Wrong] {
        let metrics = Metric::of(&s);
        let exact = curves::compute(&s, &metrics, &grid, ties, true, &|| ()).unwrap();
        let plan = Plan {
            problems: s.problems.iter().map(|p| Drawn::new(p, &s)).collect(),
            grid: grid.clone(),
            metrics: metrics.clone(),
            ties,
        };
        let trials = 40_000;
        let counts = TrialRunner::new(trials, 11, 1)
            .unwrap()
            .run(
                || plan.scratch(),
                |scratch, rng| plan.trial(scratch, rng),
                vec![0u64; metrics.len() * grid.len()],
                |mut c, flags| {
                    for (x, f) in c.iter_mut().zip(flags) {
                        *x += u64::from(f);
                    }
                    c
                },
            )
            .unwrap();
        for m in 0..metrics.len() {
            for i in 0..grid.len() {
                let p = exact.means[m][i].to_f64();
                let estimate = counts[m * grid.len() + i] as f64 / trials as f64;
                let se = (p * (1.0 - p) / trials as f64).sqrt();
                assert!(
                    (estimate - p).abs() <= 4.5 * se,
                    "{:?} k={} {ties:?}: {estimate} vs {p}",
                    metrics[m],
                    grid[i]
                );
            }
        }
    }
}

/// A problem whose every sample is correct: pass_all is 1 in every trial, and a problem
/// with no correct sample gives 0 everywhere: the certain rows are never missed.
#[test]
fn certain_values_are_drawn_with_certainty() {
    let s = samples(vec![problem(&[(4, true)], 0, &[(4, 4)])]);
    let plan = Plan {
        problems: s.problems.iter().map(|p| Drawn::new(p, &s)).collect(),
        grid: vec![1, 4],
        metrics: Metric::of(&s),
        ties: Ties::Uniform,
    };
    let mut scratch = plan.scratch();
    for t in 0..200 {
        let mut rng = crate::sim::runner::trial_rng(3, t);
        assert!(plan.trial(&mut scratch, &mut rng).iter().all(|&f| f));
    }
    let s = samples(vec![problem(&[(2, false), (1, false)], 1, &[(4, 0)])]);
    let plan = Plan {
        problems: s.problems.iter().map(|p| Drawn::new(p, &s)).collect(),
        grid: vec![2, 3],
        metrics: Metric::of(&s),
        ties: Ties::Uniform,
    };
    let mut scratch = plan.scratch();
    for t in 0..200 {
        let mut rng = crate::sim::runner::trial_rng(3, t);
        let flags = plan.trial(&mut scratch, &mut rng);
        // pass_all is true for no subset, pass_at_k for none either.
        assert!(flags.iter().all(|&f| !f), "{flags:?}");
    }
}

#[test]
fn a_hash_is_parsed_or_refused_naming_the_option() {
    assert_eq!(
        parse_hash("--file-fnv1a64", "af63dc4c8601ec8c").unwrap(),
        0xaf63_dc4c_8601_ec8c
    );
    let e = parse_hash("--file-fnv1a64", "12345678901234567").unwrap_err();
    assert!(e.to_string().contains("--file-fnv1a64"), "{e}");
}
