//! **Layer 7, evaluation samples.** May import every layer up to [`crate::sim`] (numeric,
//! report, budget, model, analytic, sim); a peer of [`crate::studies`], [`crate::domains`]
//! and [`crate::inference_sim`], so none of them imports another.
//!
//! `pathology samples`: curves and models from a researcher's own evaluation samples
//! (per-problem counts of correct answers among n samples).
//!
//! - [`fit`]: the nonparametric maximum likelihood estimate of the mix of per-problem
//!   success rates, with its certificate, as the `--tasks` string of `pathology inference`.
//! - [`beyond`]: the sharp range of pass@k beyond the samples drawn, over every law of the
//!   failure rate with the data's first moments (the Markov-Krein extremes).

pub mod beyond;
pub mod fit;
