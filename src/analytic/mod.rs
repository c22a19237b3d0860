//! **Layer 3, analytic calculators.** Exact (or rigorously bounded `f64`) answers computed
//! from the models' definitions, never by sampling.
//!
//! May import: the ground layers ([`crate::error`], [`crate::cancel`], [`crate::numeric`],
//! [`crate::model`], [`crate::report`], [`crate::budget`]). Must not know the games' move
//! generators, the searches, the Monte Carlo engine or the papers' studies.
//!
//! - [`dgame`]: Li & Marsland's (1990) binary D-games: psi, D(d,h), PS, Tables 1-2, sweeps,
//!   certified thresholds and their trend with the height.
//! - [`errprop`]: the gamma/delta error-propagation map (formulas 3-4), Theorems 5.1/5.2,
//!   fixed points and their stability.
//! - [`closed_form`]: Chi & Nau's rhf(w), Wilson et al.'s w_b and depth-one errors.
//! - [`emm`]: Wilson, Parker & Nau's Fig. 2 back-up rule, exactly.
//! - [`families`]: D(d,h) for b-ary D-games, P-games and N-games with the piece count or
//!   the artificial evaluator.
//! - [`distributions`]: evaluations as distributions: D(d,h), optimal-move probabilities and
//!   expected loss for multi-valued P-games and Nguyen & Ramanujan's critical win-loss game,
//!   any evaluation law `E_v` (noisy, histogram, quantized).
//! - [`decision`]: D(d,h) for every family through one request (`pathology decision`).
//! - [`inference`]: test-time search (best-of-n, voting, verifier resampling, verifier-guided
//!   lookahead) with the probability of a correct answer, exactly.
//! - [`ggame`]: Nau's G-games as we reconstruct them: true values, D(d,k) and rhf(d), exactly.

pub mod closed_form;
pub mod decision;
pub mod dgame;
pub mod distributions;
pub mod emm;
pub mod errprop;
pub mod families;
pub mod ggame;
pub mod inference;
pub mod pathsum;
