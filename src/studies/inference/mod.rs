//! Issue 45's study of test-time search, exactly: best-of-n and verifier-guided lookahead.

pub mod best_of_n;
pub mod lookahead;
