//! Times UCT on Nguyen & Ramanujan's critical win-loss game (H = 50): iterations per second
//! on one thread by branching factor, critical rate, evaluator and exploration constant (the
//! paper's six c), bytes per node, the histogram evaluator against the Gaussian (b = 2), and
//! the rate with every core running its own games; then the estimate of the paper's Figure 5
//! grid in core-hours from the measured costs, and the wall time of the reduced grid that
//! `pathology reproduce` runs (its figures go to the temporary directory's `uct_fig5/`, its
//! claims table to standard output).
//!
//! `cargo run --release --example uct_speed -- [games] [iterations]` (default 4 games of
//! 100,000 iterations per setting). Rates are per second of the thread's own CPU time
//! (`/proc/thread-self/schedstat`, so that other processes on a shared machine do not count;
//! wall time where that file is missing) and, for the parallel run, per wall-clock second.

use std::time::Instant;

use pathology::analytic::distributions::Histogram;
use pathology::games::critical::{CriticalGame, CriticalNode};
use pathology::plot::Style;
use pathology::plot::uct::uct_figures;
use pathology::report::{ExportOptions, Format};
use pathology::search::evaluators::Evaluator;
use pathology::search::uct::{CriticalEvaluator, HistogramEvaluator, Uct, UctParams};
use pathology::sim::TrialRunner;
use pathology::sim::level_tree::{BoardSpec, GameKind};
use pathology::studies::nguyen_ramanujan::figure5::{Grid, grid_report, run_grid};
use pathology::studies::nguyen_ramanujan::study::{
    UctEvaluator, UctGame, UctStudySpec, game_seconds, run_counts,
};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rayon::prelude::*;

/// The paper's exploration constants (the authors' `c_values`).
const C_VALUES: [f64; 6] = [0.001, 0.01, 0.1, 1.0, 10.0, 1e6];

/// Seconds this thread has run on a CPU, if the kernel says.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns * 1e-9)
}

/// Seconds the whole process has run on CPUs (user and system; clock ticks of 1/100 s).
fn process_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's closing parenthesis; utime and stime are fields 14, 15.
    let rest = text.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// A clock of the thread's CPU time, or of wall time.
struct Clock {
    wall: Instant,
    cpu: Option<f64>,
}

impl Clock {
    fn start() -> Self {
        Clock {
            wall: Instant::now(),
            cpu: thread_cpu_seconds(),
        }
    }

    fn seconds(&self) -> f64 {
        match (self.cpu, thread_cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

/// Runs `games` searches of `iterations` iterations each; returns the mean bytes per
/// iteration of the trees.
fn run<E: Evaluator<CriticalGame>>(
    b: u32,
    gamma: f64,
    evaluator: &E,
    c: f64,
    games: u64,
    iterations: u64,
) -> f64 {
    let mut uct = Uct::<CriticalNode>::new();
    let params = UctParams::new(c).expect("a valid c");
    let mut bytes = 0.0;
    for g in 0..games {
        let game = CriticalGame::new(b, 50, gamma, gamma, g).expect("a valid game");
        let mut rng = ChaCha8Rng::seed_from_u64(g);
        uct.search(
            &game,
            &game.root(),
            evaluator,
            &params,
            &[iterations],
            &mut rng,
        )
        .expect("a valid search");
        bytes += uct.bytes_used() as f64 / iterations as f64;
    }
    bytes / games as f64
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("whole numbers"))
        .collect();
    let games = args.first().copied().unwrap_or(4);
    let iterations = args.get(1).copied().unwrap_or(100_000);
    println!(
        "UCT on the critical game, H = 50, {games} games x {iterations} iterations per setting, one \
         thread ({}); {} bytes per node",
        if thread_cpu_seconds().is_some() {
            "per CPU second"
        } else {
            "per wall second"
        },
        Uct::<CriticalNode>::bytes_per_node()
    );
    let evaluators = [
        (
            "gaussian(0.25)",
            CriticalEvaluator::Gaussian { sigma: 0.25 },
        ),
        ("expected-playout", CriticalEvaluator::ExpectedPlayout),
    ];
    // Seconds per iteration, averaged over the c grid, by (b, gamma, evaluator).
    let mut mean_costs = Vec::new();
    for b in [2u32, 5, 8] {
        for gamma in [1.0, 0.9] {
            for (name, evaluator) in evaluators {
                let mut line = Vec::new();
                let mut total_seconds = 0.0;
                let mut max_bytes: f64 = 0.0;
                for c in C_VALUES {
                    let clock = Clock::start();
                    let bytes = run(b, gamma, &evaluator, c, games, iterations);
                    let seconds = clock.seconds();
                    max_bytes = max_bytes.max(bytes);
                    total_seconds += seconds;
                    line.push(format!(
                        "{c:e}: {:.2}",
                        (games * iterations) as f64 / seconds / 1e6
                    ));
                }
                let per_iteration =
                    total_seconds / (C_VALUES.len() as u64 * games * iterations) as f64;
                mean_costs.push(per_iteration);
                println!(
                    "b = {b}, gamma = {gamma}, {name:16}: {:4.0} ns/iteration over the c grid \
                     ({:.2} M/s), at most {max_bytes:.0} bytes/iteration; M/s by c: {}",
                    per_iteration * 1e9,
                    1e-6 / per_iteration,
                    line.join(", ")
                );
            }
        }
    }
    // The histogram evaluator against the Gaussian: b = 2, gamma = 1, the c grid, one thread;
    // the docs' histogram (4 points per true value) and one of 1000 points per true value.
    let histogram = |text: &str| {
        HistogramEvaluator::new(Histogram::parse(text).expect("a histogram")).expect("1 and -1")
    };
    let small = histogram(include_str!("uct_histogram.csv"));
    let large: String = (0..1000)
        .map(|k| format!("1,{}/1000,{}\n-1,-{}/1000,{}\n", k, 1 + k % 7, k, 1 + k % 5))
        .collect();
    let large = histogram(&large);
    let gaussian = CriticalEvaluator::Gaussian { sigma: 0.25 };
    let rate = |evaluator: &dyn Fn(f64) -> f64| {
        let clock = Clock::start();
        for c in C_VALUES {
            evaluator(c);
        }
        (C_VALUES.len() as u64 * games * iterations) as f64 / clock.seconds() / 1e6
    };
    for _ in 0..2 {
        let g = rate(&|c| run(2, 1.0, &gaussian, c, games, iterations));
        let s = rate(&|c| run(2, 1.0, &small, c, games, iterations));
        let l = rate(&|c| run(2, 1.0, &large, c, games, iterations));
        println!(
            "b = 2, gamma = 1, the c grid, M iterations per second: gaussian(0.25) {g:.2}, \
             histogram of 4 points per true value {s:.2}, of 1000 points {l:.2}"
        );
    }
    // Every core on its own games: b = 2, gamma = 1, Gaussian, the whole c grid.
    let threads = rayon::current_num_threads();
    let start = Instant::now();
    let cpu: f64 = (0..threads as u64 * games)
        .into_par_iter()
        .map(|g| {
            let clock = Clock::start();
            for c in C_VALUES {
                let mut uct = Uct::<CriticalNode>::new();
                let game = CriticalGame::new(2, 50, 1.0, 1.0, g).expect("a valid game");
                let mut rng = ChaCha8Rng::seed_from_u64(g);
                let params = UctParams::new(c).expect("a valid c");
                uct.search(
                    &game,
                    &game.root(),
                    &CriticalEvaluator::Gaussian { sigma: 0.25 },
                    &params,
                    &[iterations],
                    &mut rng,
                )
                .expect("a valid search");
            }
            clock.seconds()
        })
        .sum();
    let wall = start.elapsed().as_secs_f64();
    let total = (threads as u64 * games * C_VALUES.len() as u64 * iterations) as f64;
    println!(
        "{threads} threads, b = 2, gamma = 1, gaussian(0.25), the c grid: {:.2} M iterations per \
         wall second ({:.2} M per CPU second and thread)",
        total / wall / 1e6,
        total / cpu / 1e6
    );
    // Whole games of the study (one thread): the cost model of `game_seconds` against them.
    for (name, game, evaluator) in [
        (
            "crit b = 2, H = 50, gaussian(0.25)",
            UctGame::Critical {
                branching: 2,
                height: 50,
                gamma_max: 1.0,
                gamma_min: 1.0,
            },
            UctEvaluator::Gaussian,
        ),
        (
            "crit b = 8, H = 50, random-playout",
            UctGame::Critical {
                branching: 8,
                height: 50,
                gamma_max: 0.9,
                gamma_min: 0.9,
            },
            UctEvaluator::RandomPlayout,
        ),
        (
            "P-game b = 2, H = 16, expected-playout",
            UctGame::Board(
                BoardSpec::new(
                    GameKind::P,
                    2,
                    16,
                    GameKind::P.default_parameter(2).expect("b = 2"),
                )
                .expect("a valid board"),
            ),
            UctEvaluator::ExpectedPlayout,
        ),
        (
            "N-game b = 3, H = 10, gaussian(0.25)",
            UctGame::Board(BoardSpec::new(GameKind::N, 3, 10, 0.5).expect("a valid board")),
            UctEvaluator::Gaussian,
        ),
    ] {
        let spec = UctStudySpec::new(
            game,
            evaluator,
            0.25,
            C_VALUES.to_vec(),
            vec![1, 10, 100, 1000, iterations / 10],
        )
        .expect("a valid spec");
        let runner = TrialRunner::new(games, 1, 1).expect("a valid runner");
        let (wall, cpu) = (Instant::now(), process_cpu_seconds());
        run_counts(&spec, &runner).expect("a run");
        let seconds = match (cpu, process_cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => wall.elapsed().as_secs_f64(),
        } / games as f64;
        println!(
            "study game, {name}, 6 c x {} iterations: {:.3} s measured, {:.3} s modelled",
            iterations / 10,
            seconds,
            game_seconds(&spec)
        );
    }
    // The paper's Figure 5: b in {2, 5, 8}, gamma in {0.9, 1}, two heuristics, six c, 500
    // games of 1e5 iterations each (decisions recorded along the way); the full grid of
    // `reproduce --full` has ten c (0.001 to 1e6, one per decade).
    let per_setting = 500.0 * 1e5;
    let mean_cost: f64 = mean_costs.iter().sum::<f64>();
    let full = Grid::paper(true);
    println!(
        "Figure 5 (b in 2, 5, 8; gamma in 0.9, 1; two evaluators; 500 games of 1e5 iterations): \
         at the measured costs {:.2} core-hours with the paper's 6 c, {:.2} with the full grid's \
         {} c; the full grid's up-front estimate (cost model): {:.2} core-hours",
        6.0 * per_setting * mean_cost / 3600.0,
        full.exploration.len() as f64 * per_setting * mean_cost / 3600.0,
        full.exploration.len(),
        full.core_seconds() / 3600.0
    );
    // The reduced grid of `pathology reproduce` on every core, with its exact minimax lines.
    let reduced = Grid::paper(false);
    let start = Instant::now();
    let results = run_grid(&reduced, 1, threads).expect("the reduced grid");
    let out = std::env::temp_dir().join("uct_fig5");
    std::fs::create_dir_all(&out).expect("a temporary directory");
    let figures = uct_figures(&out, &results, Style::Screen).expect("the figures");
    println!(
        "reduced Figure 5 grid ({} settings, {} c, {} games, iterations to {}) on {threads} \
         threads, with its {} figure files in {}: {:.2} s wall (estimated {:.2} core-s)",
        reduced.specs().expect("valid specs").len(),
        reduced.exploration.len(),
        reduced.games,
        reduced.iterations.last().copied().unwrap_or(0),
        figures.len(),
        out.display(),
        start.elapsed().as_secs_f64(),
        reduced.core_seconds()
    );
    // Its claims table, as `reproduce` writes it to uct_fig5.txt.
    let mut report = grid_report(&reduced, 1, &results);
    report.tables.retain(|t| t.name == "claims");
    report.notes.truncate(2);
    let options = ExportOptions {
        decimals: 3,
        ..ExportOptions::default()
    };
    println!(
        "{}",
        report
            .render(Format::Text, &options)
            .expect("a text rendering")
    );
}
