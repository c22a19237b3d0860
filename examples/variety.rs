//! Chi & Nau's (1987) "variety of games" and Ross's (2020) node counts, printed as tables.
//!
//! ```text
//! cargo run --release --example variety -- [kalah|othello|ross|all] [--full] [--seed N] [--threads N]
//! ```
//!
//! Reduced sizes by default; `--full` runs the paper's sizes (kalah: 1000 boards).

use std::time::Instant;

use pathology::games::TicTacToe;
use pathology::games::othello::{OthelloBoard, perft};
use pathology::search::node_counts::{
    CENTRE_FIRST_ORDER, SQUARE_ORDER, compare_searches, sequence_counts,
};
use pathology::sim::TrialRunner;
use pathology::studies::chi_nau::kalah::{KalahSetup, PAPER_BOARDS, kalah_table};
use pathology::studies::chi_nau::othello::{OthelloSetup, othello_matches};

fn percent(c: &pathology::sim::Comparison) -> String {
    format!(
        "{:5.1}% [{:4.1}, {:4.1}]",
        100.0 * c.estimate,
        100.0 * c.ci_low,
        100.0 * c.ci_high
    )
}

fn kalah(full: bool, seed: u64, threads: usize) {
    let boards = if full { PAPER_BOARDS } else { 200 };
    let runner = TrialRunner::new(boards, seed, threads).expect("valid runner");
    let start = Instant::now();
    let table = kalah_table(&KalahSetup::paper(), &runner).expect("valid setup");
    println!(
        "Three-hole kalah (Chi & Nau 1987, 4.5): {} boards, seed {}, rhf at depth {}, search depth {} ({:.1} s on {} threads)",
        table.boards,
        table.seed,
        table.setup.flaw_depth,
        table.setup.search_depth,
        start.elapsed().as_secs_f64(),
        threads
    );
    println!(
        "{:>5} | {:>26} | {:>6} | {:>24} | {:>24} | {:>22} | {:>22}",
        "w",
        "rhf(4) [95%]",
        "paper",
        "product wins [95%]",
        "minimax wins [95%]",
        "draws [95%]",
        "product score [95%]"
    );
    for row in &table.rows {
        println!(
            "{:>5} | {:.4} [{:.4}, {:.4}] {:>4}/{:<4} | {:>6} | {} ({:>5}) | {} | {} | {}",
            row.w,
            row.rhf.estimate,
            row.rhf.ci_low,
            row.rhf.ci_high,
            row.flaws,
            row.pairs,
            row.rhf.exact.map_or(String::new(), |p| format!("{p}")),
            percent(&row.product_wins),
            row.product_wins
                .exact
                .map_or(String::new(), |p| format!("{:.1}%", 100.0 * p)),
            percent(&row.minimax_wins),
            percent(&row.draws),
            percent(&row.product_score),
        );
    }
    println!("claims: {:?}", table.claims());
}

fn othello(full: bool, seed: u64, threads: usize) {
    let start = Instant::now();
    let leaves = perft(&OthelloBoard::start(), 8);
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "Othello perft(8) from the start = {leaves} ({seconds:.3} s, {:.2e} leaves/s on one thread)",
        leaves as f64 / seconds
    );
    let (openings, depths): (u64, &[u32]) = if full {
        (500, &[1, 2, 3])
    } else {
        (100, &[1, 2])
    };
    for &depth in depths {
        let setup = OthelloSetup::new(8, depth).expect("valid setup");
        let runner = TrialRunner::new(openings, seed, threads).expect("valid runner");
        let start = Instant::now();
        let result = othello_matches(&setup, &runner).expect("valid setup");
        let seconds = start.elapsed().as_secs_f64();
        let nodes: u64 = result.rows.iter().map(|r| r.nodes).sum();
        println!(
            "Othello (Chi & Nau 1987, 4.3): {} openings of {} random plies, search depth {}, seed {} ({:.1} s on {} threads, {:.2e} positions/s per thread)",
            result.openings,
            setup.opening_plies,
            depth,
            result.seed,
            seconds,
            threads,
            nodes as f64 / seconds / threads as f64
        );
        println!(
            "{:>9} | {:>24} | {:>7} | {:>24} | {:>22} | {:>24}",
            "evaluator",
            "minimax wins [95%]",
            "Teague",
            "product wins [95%]",
            "draws [95%]",
            "minimax score [95%]"
        );
        for row in &result.rows {
            println!(
                "{:>9} | {} | {:>6.1}% | {} | {} | {}",
                format!("{:?}", row.evaluator).to_lowercase(),
                percent(&row.minimax_wins),
                100.0 * row.minimax_wins.exact.unwrap_or(f64::NAN),
                percent(&row.product_wins),
                percent(&row.draws),
                percent(&row.minimax_score),
            );
        }
    }
}

fn ross() {
    println!("Tic-tac-toe (Ross 2020): move sequences and nodes visited by full-depth searches");
    for text in [".........", "........O"] {
        let board = TicTacToe.parse_board(text).expect("valid board");
        let c = sequence_counts(&board);
        println!(
            "{text}: {} fillings ignoring wins ({} nodes in that tree); game tree: {} nodes, {} complete games (X {} / O {} / draw {})",
            c.fillings,
            c.fillings_tree_nodes,
            c.tree_nodes,
            c.complete_games,
            c.x_wins,
            c.o_wins,
            c.draws
        );
        for (name, order) in [
            ("squares 0-8", SQUARE_ORDER),
            ("centre, corners, edges", CENTRE_FIRST_ORDER),
        ] {
            let s = compare_searches(&board, order);
            println!(
                "  order {name:<24} value {:>2}: minimax {} nodes ({} leaves), alpha-beta {} nodes ({} leaves): {:.1}% fewer nodes",
                s.value,
                s.minimax_nodes,
                s.minimax_leaves,
                s.alphabeta_nodes,
                s.alphabeta_leaves,
                100.0 * s.reduction
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let full = args.iter().any(|a| a == "--full");
    let value = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map_or(default, |v| v.parse().expect("a number"))
    };
    let seed = value("--seed", 1);
    let threads = value("--threads", 2) as usize;
    let what = args
        .iter()
        .find(|a| !a.starts_with("--") && a.parse::<u64>().is_err())
        .map_or("all", String::as_str);
    if what == "kalah" || what == "all" {
        kalah(full, seed, threads);
    }
    if what == "ross" || what == "all" {
        ross();
    }
    if what == "othello" || what == "all" {
        othello(full, seed, threads);
    }
}
