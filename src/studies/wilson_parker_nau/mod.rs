//! Wilson, Parker & Nau (2009), *Error Minimizing Minimax*.
//!
//! - [`study`]: the decision quality of minimax, the product rule and EMM at every search
//!   depth (Figs. 3-6), with the natural evaluator's error calibration.
//! - [`report`]: the study's reports (`mc emm`, `mc emm-calibrate`, `mc emm-figures`, and
//!   `pathology merge` of `mc emm` shards).
//! - [`request`]: `mc emm`, `mc emm-calibrate` and the budget of `mc emm-figures` as the
//!   commands ask for them.
//! - [`exact_curve`]: the exact minimax curve of [`crate::analytic::families`] beside the
//!   estimates.

pub mod claims;
pub mod exact_curve;
pub mod report;
pub mod request;
pub mod study;
