//! The test-time search study of `reproduce` (resampling and voting): its step writes every
//! file it lists, `--only` regenerates one of them byte for byte, and the numbers
//! docs/inference.md states are the study's.

use num_rational::BigRational;
use pathology::numeric::number::format_decimal;
use pathology::studies::inference::sampling::phase::Class;
use pathology::studies::inference::sampling::{Sampling, VOTE_MAX_K, payoff_falls_from_one};

use crate::common::stdout_of;

/// The step's number in `reproduce --steps` (found by its files, not by its place).
fn step() -> String {
    let i = pathology::reproduce::ARTEFACTS
        .iter()
        .position(|a| a.writes("inference_sampling.txt"))
        .expect("a step writes the study");
    (i + 1).to_string()
}

#[test]
fn reproduce_writes_the_sampling_study_and_only_regenerates_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let printed = stdout_of(&[
        "reproduce",
        "--steps",
        &step(),
        "--out",
        whole.to_str().unwrap(),
    ]);
    for family in [
        "Stroebl et al.: the printed rates           4      0          0             0",
        "Stroebl et al.: an imperfect verifier       5      0          0             0",
        "voting on this tool's mix 0.7:0.6,0.4:0.4 (Chen et al.'s setting)      7      0          0             0",
    ] {
        let squeeze = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(squeeze(&printed).contains(&squeeze(family)), "{printed}");
    }
    let index = std::fs::read_to_string(whole.join("INDEX.md")).unwrap();
    let mut files = vec![
        "inference_sampling.txt".to_string(),
        "inference_sampling.csv".to_string(),
        "inference_sampling.csv.manifest.json".to_string(),
    ];
    for stem in ["resample", "vote", "phase"] {
        for ext in ["png", "svg"] {
            files.push(format!("inference_sampling_{stem}.{ext}"));
        }
    }
    for name in &files {
        assert!(whole.join(name).is_file(), "{name} not written");
        assert!(
            index.contains(&format!("[{name}]")),
            "{name} not in INDEX.md"
        );
    }
    let on_disk = std::fs::read_dir(&whole).unwrap().count();
    assert_eq!(
        on_disk,
        files.len() + 1,
        "only the study's files and INDEX.md"
    );
    let text = std::fs::read_to_string(whole.join("inference_sampling.txt")).unwrap();
    assert!(text.contains("beta_1 = 0.0975 (R = 0.87)"), "{text}");
    assert!(text.contains("k=2: payoff = 75581/160000"), "{text}");
    let only = dir.path().join("only");
    for name in ["inference_sampling_phase.png", "inference_sampling.txt"] {
        stdout_of(&["reproduce", "--only", name, "--out", only.to_str().unwrap()]);
        assert_eq!(
            std::fs::read(only.join(name)).unwrap(),
            std::fs::read(whole.join(name)).unwrap(),
            "{name}"
        );
    }
}

/// docs/inference.md's section on the study states the study's numbers.
#[test]
fn the_docs_state_the_studys_numbers() {
    let study = Sampling::compute().unwrap();
    let page = std::fs::read_to_string("docs/inference.md").unwrap();
    let start = page
        .find("## The study in reproduce: resampling and voting")
        .expect("the section");
    let end = start
        + page[start..]
            .find("## What is ours")
            .expect("the next section");
    let section = page[start..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let has = |s: &str| assert!(section.contains(s), "the section lacks {s:?}");
    let d4 = |r: &BigRational| format_decimal(r, 4);
    has(&format!("= {}", d4(&study.resample.limit.correct.value)));
    let one = BigRational::from_integer(1.into());
    has(&format!(
        "below 1 by {}",
        d4(&(&one - &study.resample.limit.correct.value))
    ));
    let peak = study.peak.clone().unwrap();
    assert_eq!(peak.best, 2);
    has("the payoff's largest value over every k >= 1 is at k = 2");
    has(&format!(
        "at k = 2 ({})",
        d4(&study.resample.rows[1].payoff.value)
    ));
    has(&format!(
        "unlimited resampling is worth {}",
        d4(&study.resample.limit.payoff.value)
    ));
    for t in &study.resample.types {
        let boundary = -&t.accept_correct / &t.accept_wrong;
        has(&format!("{} = {}", boundary, d4(&boundary)));
    }
    // The first increment's zero: at or below it the payoff falls from k = 1 on.
    let from_one = payoff_falls_from_one(&study.resample.types).unwrap();
    has(&format!(
        "for V <= {from_one} = {} (at V = {from_one}, P(2) ties P(1)",
        d4(&from_one)
    ));
    has(&format!("falls from k = 1 on for every V <= {from_one}"));
    let best = study.vote_best_odd();
    assert_eq!(best, 17);
    // With x_e < x_h the increments end negative: the cells that rise first, and those that
    // never rise, counted on the phase diagram.
    let q = |s: &str| pathology::numeric::number::parse_rational(s).unwrap();
    let x = |p: &str| q(p) * (BigRational::from_integer(1.into()) - q(p));
    let easy_closer: Vec<&Class> = study
        .phase
        .cells
        .iter()
        .filter(|c| x(c.easy) < x(c.hard))
        .map(|c| &c.tail.0)
        .collect();
    let count = |class: Class| easy_closer.iter().filter(|&&&c| c == class).count();
    assert_eq!(
        count(Class::Turn) + count(Class::Hurt),
        easy_closer.len(),
        "{easy_closer:?}"
    );
    has(&format!(
        "of the {} cells of the phase diagram below with `x_e < x_h`, {} rise then fall and {} never rise",
        easy_closer.len(),
        count(Class::Turn),
        count(Class::Hurt)
    ));
    has(&format!(
        "largest at k = 17 ({})",
        format_decimal(study.vote_at(best), 6)
    ));
    let late: Vec<_> = study
        .phase
        .cells
        .iter()
        .filter(|c| c.range.0 != c.tail.0)
        .collect();
    assert_eq!(late.len(), 2);
    has("Two cells change class only beyond k = 101");
    for c in late {
        let turn = c.tail.1.unwrap();
        assert!(turn > VOTE_MAX_K);
        has(&format!(
            "W_easy = {}, R_easy = {}, R_hard = {}",
            c.share, c.easy, c.hard
        ));
        has(&format!("k = {turn}"));
        assert!(matches!(c.tail.0, Class::Turn | Class::Dip));
    }
    assert_eq!(study.phase.cells.len(), 243);
    has("(243 cells)");
    // The flat line: R_easy + R_hard = 1 at W_easy = 1/2, and nowhere else.
    for c in &study.phase.cells {
        let on_line = c.share == "1/2"
            && pathology::numeric::number::parse_rational(c.easy).unwrap()
                + pathology::numeric::number::parse_rational(c.hard).unwrap()
                == one;
        assert_eq!(
            c.range.0 == Class::Flat,
            on_line,
            "{} {} {}",
            c.share,
            c.easy,
            c.hard
        );
    }
}

/// The claims count docs/inference.md states for the study is the one its summary table
/// prints, read from the committed `plots/inference_sampling.txt` and from the study itself.
#[test]
fn the_docs_count_the_claims_of_the_summary_table() {
    let text = std::fs::read_to_string("plots/inference_sampling.txt").unwrap();
    let block = text
        .split("Verdicts per claim family")
        .nth(1)
        .expect("the summary table");
    // Rows after the header, up to the blank line: the family, then five counts.
    let rows: Vec<Vec<u64>> = block
        .lines()
        .skip(3)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let numbers: Vec<u64> = l
                .split_whitespace()
                .rev()
                .take(5)
                .map(|t| t.parse().unwrap())
                .collect();
            numbers.into_iter().rev().collect()
        })
        .collect();
    let total = |i: usize| rows.iter().map(|r| r[i]).sum::<u64>();
    let (claims, holds, fails) = (total(0), total(1), total(2));
    assert_eq!(claims, holds + fails, "every claim decided");
    let study = Sampling::compute().unwrap();
    let report = study.report();
    let summary = report.table("claims_summary").unwrap();
    assert_eq!(summary.rows.len(), rows.len());
    let computed = |i: usize| -> u64 {
        summary
            .rows
            .iter()
            .map(|r| match &r[i + 1] {
                pathology::report::Cell::Integer(n) => *n as u64,
                other => panic!("{other:?}"),
            })
            .sum()
    };
    assert_eq!(
        (computed(0), computed(1), computed(2)),
        (claims, holds, fails)
    );
    let page = std::fs::read_to_string("docs/inference.md").unwrap();
    let prose = page.split_whitespace().collect::<Vec<_>>().join(" ");
    let sentence = format!(
        "The claims table has {claims} claims in {} families: {holds} hold and {fails} fail.",
        rows.len()
    );
    assert!(
        prose.contains(&sentence),
        "docs/inference.md lacks {sentence:?}"
    );
}
