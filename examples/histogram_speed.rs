//! The critical game from a 1,000-row histogram: where a process's time goes.
//!
//! ```text
//! cargo run --release --example histogram_speed [HISTOGRAM.csv] [RUNS]
//! ```
//!
//! Without a file it writes the benchmark's two histograms (1,000 rows, true values ±1,
//! evaluations in thousandths, weights `p/q` with p, q in 1..=50 or integers in 1..=50) from a
//! fixed generator. It prints the median time of reading and parsing the histogram, and of the
//! whole command in-process (`decision --game crit --height 6 --gamma 1 --evaluator histogram
//! --format csv`), over RUNS runs (default 50). The process-to-process comparison with an
//! independent Python recursion is `benches/python/critical_histogram_speed.py`.

use std::io::Write;
use std::time::{Duration, Instant};

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// A 64-bit linear congruential generator (Knuth's constants): the same file every time.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn write_histogram(path: &std::path::Path, rational: bool) {
    let mut rng = Lcg(43);
    let mut f = std::fs::File::create(path).expect("create the histogram");
    writeln!(f, "value,evaluation,weight").unwrap();
    for i in 0..1000 {
        let value = if i % 2 == 0 { 1 } else { -1 };
        let evaluation = rng.below(1000);
        let weight = if rational {
            format!("{}/{}", 1 + rng.below(50), 1 + rng.below(50))
        } else {
            format!("{}", 1 + rng.below(50))
        };
        writeln!(f, "{value},0.{evaluation:03},{weight}").unwrap();
    }
}

fn time(path: &std::path::Path, runs: usize) {
    let parse = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let h = pathology::analytic::decision::read_histogram(path).expect("a histogram");
            std::hint::black_box(h);
            start.elapsed()
        })
        .collect();
    let argv: Vec<String> = [
        "decision",
        "--game",
        "crit",
        "--height",
        "6",
        "--gamma",
        "1",
        "--evaluator",
        "histogram",
        "--histogram",
        &path.display().to_string(),
        "--format",
        "csv",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let whole = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let (out, code) = pathology::cli::run_captured(&argv, None).expect("the command runs");
            assert_eq!(code, 0);
            std::hint::black_box(out);
            start.elapsed()
        })
        .collect();
    println!(
        "{}: read and parse {:.2} ms, whole command in-process {:.2} ms (median of {runs})",
        path.display(),
        median(parse).as_secs_f64() * 1e3,
        median(whole).as_secs_f64() * 1e3
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = args
        .get(2)
        .map_or(50, |r| r.parse().expect("RUNS a whole number"));
    match args.get(1) {
        Some(path) => time(std::path::Path::new(path), runs),
        None => {
            let dir = std::env::temp_dir().join(format!("histogram_speed_{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            for rational in [true, false] {
                let path = dir.join(if rational {
                    "rational.csv"
                } else {
                    "integer.csv"
                });
                write_histogram(&path, rational);
                time(&path, runs);
            }
            std::fs::remove_dir_all(&dir).ok();
        }
    }
}
