//! Test-time search (issue 45's study): resampling with an imperfect verifier, majority
//! voting, best-of-n and verifier-guided lookahead, exact.

pub mod chen;
pub mod notebook;
