//! Test-time search, exact: resampling with an imperfect verifier (Stroebl et al. 2024, and
//! their notebook's reward curve), majority voting (Chen et al. 2024, the shape for every k),
//! best-of-n and verifier-guided lookahead.

pub mod best_of_n;
pub mod chen;
pub mod lookahead;
pub mod notebook;
