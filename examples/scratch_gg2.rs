use pathology::analytic::ggame::*;
fn main() {
    let k: u32 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(40);
    for e in ALL_EVALUATORS {
        let t = std::time::Instant::now();
        for d in 1..=k { let _ = decision_polynomials(k, d, e).unwrap(); }
        println!("D {:?} {:?}", e, t.elapsed());
    }
    for d in [1, 5, 10, 20, 30, 39] {
        let t = std::time::Instant::now();
        let _ = decision_polynomials(k, d, GEvaluator::E1).unwrap();
        println!("d {d} {:?}", t.elapsed());
    }
}
