//! **Layer 1, arithmetic.** The number types and the fast and rigorous arithmetic under every
//! calculator: the two modes (`f64` and exact rationals) behind one trait, double-double,
//! the FFT and the three-prime NTT, outward-rounded enclosures.
//!
//! May import: [`crate::error`] only. Nothing here knows a game, a
//! paper or a report.
//!
//! - [`arguments`]: parsers of command-line values (rationals and whole numbers in a
//!   range, their messages naming the range).
//! - [`number`]: the [`number::Probability`] trait over `f64` and
//!   [`num_rational::BigRational`], scaled integers with one common denominator, exact
//!   parsing (`0.1` is 1/10) and correctly rounded decimals.
//! - [`dd`]: double-double numbers with rigorous error bounds.
//! - [`fft`]: the in-house real FFT convolution and its rounding-error bound.
//! - [`ntt`]: the three-prime number-theoretic transform of the exact mode's big products.
//! - [`enclosure`]: intervals of doubles with outward rounding.

pub mod arguments;
pub mod dd;
pub mod enclosure;
pub mod fft;
pub mod ntt;
pub mod number;
