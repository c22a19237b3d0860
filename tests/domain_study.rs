//! The real-domains study of `reproduce`: docs/domains.md quotes its claims table
//! and the numbers it states are the study's.

use num_rational::BigRational;
use pathology::domains::study::{Domain, DomainStudy, LEVELS};
use pathology::numeric::number::rational_to_f64;

/// docs/domains.md holds the claims table's rows, and the numbers of its bullets are the
/// study's: the range of local pathology, the 8-puzzle's exact dip from depth 9 to 10, KRK's
/// fall from 4 to 5 plies, and the granularity effects of opposite signs.
#[test]
fn the_docs_quote_the_claims_table() {
    let study = DomainStudy::compute(false, pathology::reproduce::DEFAULT_SEED, None).unwrap();
    let docs = std::fs::read_to_string("docs/domains.md").unwrap();
    for row in pathology::report::claims::markdown_rows(&study.claim_families()) {
        assert!(docs.contains(&row), "docs/domains.md lacks: {row}");
    }
    let raw: Vec<_> = study.exact.iter().filter(|c| c.levels.is_none()).collect();
    let worse: Vec<f64> = raw
        .iter()
        .map(|c| rational_to_f64(&c.mean_worse()))
        .collect();
    let percent = |x: f64| format!("{:.1}%", 100.0 * x);
    let (lo, hi) = worse
        .iter()
        .fold((1.0f64, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
    assert!(docs.contains(&format!("{} to {}", percent(lo), percent(hi))));
    let manhattan = study.curve(Domain::EightPuzzle, "manhattan", None);
    assert_eq!(
        manhattan.worst_step(),
        (BigRational::new((-25).into(), 181_439.into()), 9)
    );
    assert!(docs.contains("-25/181439"));
    let krk = study.curve(Domain::Krk, "mopup", None);
    let (step, at) = krk.worst_step();
    assert_eq!(
        (format!("{:.3}", -rational_to_f64(&step)), at),
        ("0.053".to_string(), 4)
    );
    let failing = study
        .exact
        .iter()
        .filter(|c| c.worst_step().0 < BigRational::from_integer(0.into()))
        .count();
    assert_eq!(failing, 7);
    let coarse = |domain: Domain, heuristic: &str| {
        rational_to_f64(
            &(study.curve(domain, heuristic, Some(LEVELS)).mean_worse()
                - study.curve(domain, heuristic, None).mean_worse()),
        )
    };
    assert_eq!(
        [
            format!("{:.3}", coarse(Domain::EightPuzzle, "manhattan")),
            format!("{:.3}", coarse(Domain::EightPuzzle, "misplaced")),
        ],
        ["-0.024", "-0.068"]
    );
    for domain in [Domain::Krk, Domain::Kqk] {
        for heuristic in ["mopup", "room"] {
            assert!(coarse(domain, heuristic) > 0.0);
        }
    }
}
