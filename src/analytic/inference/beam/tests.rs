use super::*;
use crate::analytic::pathsum::Law;
use crate::numeric::number::parse_rational;

fn q(text: &str) -> BigRational {
    parse_rational(text).unwrap()
}

fn search(b: u32, l: u32, step: &str, noise: &str, growth: &str) -> LookaheadSearch {
    LookaheadSearch {
        branching: b,
        steps: l,
        step_correct: q(step),
        noise: Law::parse("--noise", noise).unwrap(),
        growth: q(growth),
    }
}

fn exact(v: &Over<BigInt>, c: usize, j: usize) -> BigRational {
    BigRational::new(v.values[c][j].clone(), v.denominator.clone())
}

fn binomial(n: usize, k: usize) -> BigInt {
    (0..k).fold(BigInt::one(), |acc, i| {
        acc * BigInt::from(n - i) / BigInt::from(i + 1)
    })
}

/// `S_K(j | c, w)` by brute force: every level of every candidate, the threshold level,
/// and the hypergeometric law of the correct ones among the tied candidates kept.
fn brute_selection(
    masses_c: &[BigRational],
    masses_w: &[BigRational],
    c: usize,
    w: usize,
    keep: usize,
) -> Vec<BigRational> {
    let levels = masses_c.len();
    let n = c + w;
    let mut out = vec![BigRational::zero(); keep + 1];
    let mut index = vec![0usize; n];
    loop {
        let mut p = BigRational::one();
        for (i, &k) in index.iter().enumerate() {
            p *= if i < c { &masses_c[k] } else { &masses_w[k] };
        }
        if !p.is_zero() {
            // The K-th largest level.
            let mut sorted = index.clone();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            let threshold = sorted[keep - 1];
            let above_c = index[..c].iter().filter(|&&k| k > threshold).count();
            let above = index.iter().filter(|&&k| k > threshold).count();
            let tied_c = index[..c].iter().filter(|&&k| k == threshold).count();
            let tied = index.iter().filter(|&&k| k == threshold).count();
            let r = keep - above;
            for x in 0..=r.min(tied_c) {
                if r - x > tied - tied_c {
                    continue;
                }
                let h = BigRational::new(
                    binomial(tied_c, x) * binomial(tied - tied_c, r - x),
                    binomial(tied, r),
                );
                out[above_c + x] += &p * h;
            }
        }
        // The next outcome.
        let mut i = 0;
        loop {
            if i == n {
                return out;
            }
            index[i] += 1;
            if index[i] < levels {
                break;
            }
            index[i] = 0;
            i += 1;
        }
    }
}

fn masses(cdf: &[BigRational]) -> Vec<BigRational> {
    (0..cdf.len())
        .map(|k| {
            if k == 0 {
                cdf[0].clone()
            } else {
                &cdf[k] - &cdf[k - 1]
            }
        })
        .collect()
}

#[test]
fn the_selection_law_is_the_brute_force_over_every_score_outcome() {
    // Laws with ties between correct and wrong scores (a lattice of spacing 1/2 and signal
    // 1), a law with a gap, and the scale of a growing verifier.
    for (noise, growth, m) in [
        ("-1/2:1/4,0:1/2,1/2:1/4", "0", 1),
        ("-1:1/3,0:1/3,1:1/3", "0", 1),
        ("0:1/2,1:1/2", "0", 1),
        ("-1/2:1/4,0:1/2,1/2:1/4", "1", 3),
    ] {
        let s = search(2, 3, "1/2", noise, growth);
        let (fc, fw) = super::super::lookahead::frontier_cdfs(&s, m);
        let (mc, mw) = (masses(&fc), masses(&fw));
        for n in 2..=5 {
            for keep in 1..n {
                let law = selection::<BigInt>(&fc, &fw, n, keep).unwrap();
                for c in 0..=n {
                    let brute = brute_selection(&mc, &mw, c, n - c, keep);
                    let mut total = BigRational::zero();
                    for (j, b) in brute.iter().enumerate() {
                        assert_eq!(exact(&law, c, j), *b, "{noise} n={n} K={keep} c={c} j={j}");
                        total += b;
                    }
                    assert!(total.is_one(), "{noise} n={n} K={keep} c={c}: {total}");
                }
            }
        }
    }
}

/// Beam search by brute force: every candidate's correctness and noise draw at every step,
/// every kept subset of the tied candidates with its probability; the answer uniform among
/// the top-scored complete candidates.
fn brute_beam(s: &LookaheadSearch, m: usize) -> BigRational {
    fn step(s: &LookaheadSearch, m: usize, t: u32, beams: &[bool]) -> BigRational {
        let b = s.branching as usize;
        let scale = BigRational::one() + &s.growth * BigRational::from_integer((t - 1).into());
        let atoms = s.noise.atoms();
        let n = beams.len() * b;
        let parents: Vec<bool> = beams
            .iter()
            .flat_map(|&x| std::iter::repeat_n(x, b))
            .collect();
        // Per candidate: (correct, atom) outcomes enumerated as a mixed-radix counter.
        let outcomes = 2 * atoms.len();
        let mut index = vec![0usize; n];
        let mut total = BigRational::zero();
        loop {
            let mut p = BigRational::one();
            let mut scored = Vec::with_capacity(n);
            for (i, &o) in index.iter().enumerate() {
                let (correct, atom) = (o % 2 == 1, o / 2);
                let pc = if !parents[i] {
                    if correct {
                        BigRational::zero()
                    } else {
                        BigRational::one()
                    }
                } else if correct {
                    s.step_correct.clone()
                } else {
                    BigRational::one() - &s.step_correct
                };
                p *= pc * &atoms[atom].1;
                let bonus = if correct {
                    BigRational::one()
                } else {
                    BigRational::zero()
                };
                scored.push((bonus + &scale * &atoms[atom].0, correct));
            }
            if !p.is_zero() {
                let keep = if t == s.steps { 1 } else { m };
                let mut sorted: Vec<&BigRational> = scored.iter().map(|(v, _)| v).collect();
                sorted.sort_unstable_by(|a, b| b.cmp(a));
                let threshold = sorted[keep - 1].clone();
                let above: Vec<bool> = scored
                    .iter()
                    .filter(|(v, _)| *v > threshold)
                    .map(|x| x.1)
                    .collect();
                let tied: Vec<bool> = scored
                    .iter()
                    .filter(|(v, _)| *v == threshold)
                    .map(|x| x.1)
                    .collect();
                let r = keep - above.len();
                // Every r-subset of the tied, equally likely.
                let subsets: Vec<Vec<bool>> = (0u32..(1 << tied.len()))
                    .filter(|mask| mask.count_ones() as usize == r)
                    .map(|mask| {
                        (0..tied.len())
                            .filter(|i| mask >> i & 1 == 1)
                            .map(|i| tied[i])
                            .collect()
                    })
                    .collect();
                let share = BigRational::new(BigInt::one(), BigInt::from(subsets.len()));
                for subset in subsets {
                    let mut kept = above.clone();
                    kept.extend(subset);
                    let value = if t == s.steps {
                        if kept[0] {
                            BigRational::one()
                        } else {
                            BigRational::zero()
                        }
                    } else {
                        step(s, m, t + 1, &kept)
                    };
                    total += &p * &share * value;
                }
            }
            let mut i = 0;
            loop {
                if i == n {
                    return total;
                }
                index[i] += 1;
                if index[i] < outcomes {
                    break;
                }
                index[i] = 0;
                i += 1;
            }
        }
    }
    step(s, m, 1, &vec![true; m])
}

#[test]
fn beam_search_is_the_brute_force_over_every_run() {
    for (b, l, m, noise, growth) in [
        (2, 2, 2, "0:1/3,1:2/3", "0"),
        (2, 2, 2, "0:1/2,1/2:1/2", "1"),
        (3, 2, 1, "0:1/3,1:2/3", "0"),
        (2, 3, 1, "-1:1/2,1:1/2", "1/2"),
    ] {
        let s = search(b, l, "2/3", noise, growth);
        let mix = Tasks::parse("2/3").unwrap();
        let r = beam::<BigRational>(&s, &mix, &[m as u32]).unwrap();
        assert_eq!(
            r.rows[0].correct.value,
            brute_beam(&s, m),
            "B={b} L={l} M={m} {noise} G={growth}"
        );
    }
}

#[test]
fn width_one_is_greedy_lookahead() {
    for (noise, growth) in [
        ("gaussian:1", "0"),
        ("-1:1/4,0:1/2,1:1/4", "1/2"),
        ("uniform:1", "2"),
    ] {
        let s = search(3, 4, "0.7", noise, growth);
        let mix = Tasks::parse("0.7").unwrap();
        let r = beam::<BigRational>(&s, &mix, &[1]).unwrap();
        let greedy = super::super::lookahead::<BigRational>(&s, &[1]).unwrap();
        assert_eq!(
            r.rows[0].correct.value, greedy.rows[0].correct.value,
            "{noise} G={growth}"
        );
    }
}

#[test]
fn f64_agrees_with_exact_within_its_bound_and_the_mix_is_the_weighted_average() {
    let s = search(3, 5, "0.6", "-1:1/8,-1/2:1/4,0:1/4,1/2:1/4,1:1/8", "1/4");
    let mix = Tasks::parse("0.9:0.25,0.5:0.75").unwrap();
    let widths = [1, 2, 4];
    let e = beam::<BigRational>(&s, &mix, &widths).unwrap();
    let f = beam::<f64>(&s, &mix, &widths).unwrap();
    for (x, y) in e.rows.iter().zip(&f.rows) {
        let gap =
            (crate::numeric::number::rational_to_f64(&x.correct.value) - y.correct.value).abs();
        assert!(
            gap <= y.correct.bound && y.correct.bound < 1e-12,
            "{gap} {}",
            y.correct.bound
        );
        assert!(x.covered.value >= x.correct.value);
    }
    let parts: Vec<Beam<BigRational>> = ["0.9", "0.5"]
        .iter()
        .map(|t| beam::<BigRational>(&s, &Tasks::parse(t).unwrap(), &widths).unwrap())
        .collect();
    for (i, row) in e.rows.iter().enumerate() {
        let average =
            q("1/4") * &parts[0].rows[i].correct.value + q("3/4") * &parts[1].rows[i].correct.value;
        assert_eq!(row.correct.value, average);
    }
}

/// Past the steps whose scale is at most the inverse of the noise law's least gap, the two
/// score laws' CDFs on their common levels are those of the first such step at every later
/// step (so their selection law is computed once), and before them each distinct pair is
/// computed once.
#[test]
fn the_selection_laws_repeat_once_the_scale_passes_the_inverse_least_gap() {
    // Least gap 1/4: s = 1 + (t - 1)/2 is at most 4 for t = 1..=7.
    let s = search(2, 12, "0.6", "-1:1/4,-3/4:1/4,0:1/4,1:1/4", "1/2");
    assert_eq!(unsettled_steps(&s), 7);
    let settled = super::super::lookahead::frontier_cdfs(&s, 8);
    for t in 8..=12 {
        assert_eq!(
            super::super::lookahead::frontier_cdfs(&s, t),
            settled,
            "t = {t}"
        );
    }
    assert_ne!(super::super::lookahead::frontier_cdfs(&s, 7), settled);
    let selected = selections::<BigInt>(&s, 2).unwrap();
    let mut distinct: Vec<_> = (1..12)
        .map(|t| super::super::lookahead::frontier_cdfs(&s, t))
        .collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(selected.inner.len(), distinct.len());
    assert_eq!(selected.step.len(), 11);
    // On the integers every scale past 1 orders the levels alike; G = 0 has one law.
    assert_eq!(
        unsettled_steps(&search(2, 20, "0.6", "binomial:8", "1/4")),
        1
    );
    assert_eq!(unsettled_steps(&search(2, 20, "0.6", "binomial:8", "0")), 0);
    assert_eq!(unsettled_steps(&search(2, 20, "0.6", "0", "1")), 0);
}

/// The f64 sums (one widening per convolution entry) enclose the exact value with growing
/// noise over many steps, and at the speed target's size.
#[test]
fn f64_encloses_exact_with_growing_noise_over_many_steps() {
    for (b, l, noise, growth, m) in [
        (2, 12, "-1:1/4,-3/4:1/4,0:1/4,1:1/4", "1/2", 3),
        (4, 20, "binomial:8", "1/4", 8),
        (3, 6, "gaussian:1", "1", 2),
    ] {
        let s = search(b, l, "0.7", noise, growth);
        let mix = Tasks::parse("0.7").unwrap();
        let e = beam::<BigRational>(&s, &mix, &[m]).unwrap();
        let f = beam::<f64>(&s, &mix, &[m]).unwrap();
        for (x, y) in [
            (&e.rows[0].correct, &f.rows[0].correct),
            (&e.rows[0].covered, &f.rows[0].covered),
        ] {
            let gap = (crate::numeric::number::rational_to_f64(&x.value) - y.value).abs();
            assert!(
                gap <= y.bound && y.bound < 1e-12,
                "{noise} G={growth}: {gap} {}",
                y.bound
            );
        }
    }
}
