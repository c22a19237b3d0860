use pathology::analytic::ggame::*;
fn main() {
    let k: u32 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(12);
    let p: f64 = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(0.5);
    let t = std::time::Instant::now();
    for e in ALL_EVALUATORS {
        let ds: Vec<String> = (1..=k).map(|d| format!("{:.4}", decision_polynomials(k, d, e).unwrap().value_f64(p))).collect();
        println!("D {:?}: {}", e, ds.join(" "));
    }
    println!("D time {:?}", t.elapsed());
    let t = std::time::Instant::now();
    if k <= 40 {
    for e in ALL_EVALUATORS {
        let r: Vec<String> = flaw_polynomials(k, e).unwrap().iter().map(|f| format!("{:.4}", f.value_f64(p))).collect();
        println!("rhf {:?}: {}", e, r.join(" "));
    }}
    println!("rhf time {:?}", t.elapsed());
    if k <= 20 { let t = std::time::Instant::now(); let _ = enumerate(k, GEvaluator::E1).unwrap(); println!("enum time {:?}", t.elapsed()); }
}
