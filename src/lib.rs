//! # pathology
//!
//! Exact probabilities of minimax search pathology, and the tools to check them.
//!
//! The crate computes, exactly or in fast floating point, the quantities that the literature
//! on minimax pathology could only tabulate or sample, and checks them against real searches
//! on real games. Its modules are layers; each imports only the layers below it (a test,
//! `tests/architecture.rs`, keeps it so; `ARCHITECTURE.md` has the map):
//!
//! | layer | modules | what it is |
//! |--:|:--|:--|
//! | 0 | [`error`] | the error type |
//! | 1 | [`numeric`], [`cancel`], [`progress`] | number types (exact rationals and `f64` behind one trait), dd, FFT, NTT, enclosures; cancelling long computations and reporting their progress |
//! | 2 | [`model`], [`report`], [`budget`] | shared conventions; the one result type and its exporters; costs and refusals |
//! | 3 | [`analytic`] | exact calculators: D-games, the gamma/delta map, closed forms, the exact game families |
//! | 4 | [`games`] | the `Game` trait and the real games |
//! | 5 | [`search`] | minimax, alpha-beta, product, EMM over the `Game` trait |
//! | 6 | [`sim`] | the Monte Carlo engine: seeded parallel trials, shards, statistics, sampled trees |
//! | 7 | [`studies`], [`domains`], [`inference_sim`], [`samples`] | one module per paper, and the Monte Carlo-against-exact cross-validation; real domains solved completely (the 8-puzzle, KRK, KQK); test-time search simulated; exact curves from evaluation samples, the fitted mix of difficulties, pass@k beyond n |
//! | 8 | [`plot`], [`validate`] | figures; the user's own simulation results checked |
//! | 9 | [`reproduce`] | the one list of every artefact `pathology reproduce` writes |
//! | 10 | [`cli`] | the command line: argument parsing and one library call per subcommand (the binary, and the Python package's `run`, call it) |
//!
//! Conventions ([`model`]): the player who makes the last move is Max, so nodes of odd
//! height are Max nodes.
//!
//! # Examples
//!
//! Table 1's first column, exactly:
//!
//! ```
//! use num_rational::BigRational;
//! use pathology::analytic::dgame::{DependenceFactors, Solver};
//! use pathology::numeric::number::{Probability, parse_rational};
//!
//! let f = parse_rational("0.1").unwrap(); // 1/10 exactly, never through f64
//! let mut solver = Solver::new(DependenceFactors::new(f.clone(), f).unwrap());
//! let column = solver.decision_column(10).unwrap();
//! assert_eq!(column.value(1).to_decimal(3), "0.608");
//! assert_eq!(column.value(10), &BigRational::from_integer(1.into()));
//! assert_eq!(column.pathological_sum().to_decimal(3), "0.038");
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod analytic;
pub mod budget;
pub mod cancel;
pub mod cli;
pub mod domains;
pub mod error;
pub mod games;
pub mod inference_sim;
pub mod model;
pub mod numeric;
pub mod plot;
pub mod progress;
pub mod report;
pub mod reproduce;
pub mod samples;
pub mod search;
pub mod sim;
pub mod studies;
pub mod validate;

pub use error::{Error, Result};
