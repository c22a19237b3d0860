//! # pathology
//!
//! Exact probabilities of minimax search pathology, and the tools to check them.
//!
//! The crate computes, exactly or in fast floating point, the quantities that the literature
//! on minimax pathology could only tabulate or sample:
//!
//! - [`dgame`]: Li & Marsland's (1990) D-games with dependence factors `f1`, `f2`: the
//!   distributions of Nau's piece-count evaluation psi and of its minimax backed-up values,
//!   the probability `D(d,h)` of a correct decision at search depth d in a tree of height h,
//!   the pathological sum PS, Tables 1 and 2, sweeps, and a certified pathology threshold.
//! - [`number`]: the two modes, `f64` and exact rationals, behind one trait.
//! - [`report`]: every result as a typed table with a manifest, exported as text, CSV,
//!   JSON, Markdown and LaTeX (and read back by `validate` and `merge`).
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
//! use pathology::dgame::{DependenceFactors, Solver};
//! use pathology::number::{Probability, parse_rational};
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

pub mod cancel;
pub mod closed_form;
pub mod dd;
pub mod dgame;
pub mod emm;
pub mod error;
pub mod errprop;
pub mod exact;
pub mod fft;
pub mod games;
pub mod mc;
pub mod model;
pub mod ntt;
pub mod number;
pub mod output;
pub mod plot;
pub mod report;
pub mod reproduce;
pub mod search;
pub mod validate;

pub use error::{Error, Result};
