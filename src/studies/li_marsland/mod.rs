//! Li & Marsland (1990), *On Minimax Game Tree Search Pathology and Node-Value Dependence*:
//! the study artefacts built on [`crate::analytic::dgame`] and [`crate::analytic::errprop`].
//!
//! - [`figure_4`]: Fig. 4, PS against f1 for p0 = 1/2, and the count of pathological pairs.

pub mod figure_4;
