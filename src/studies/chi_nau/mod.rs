//! Chi & Nau (1987), *Comparing Minimax and Product in a Variety of Games*.
//!
//! - [`matches`](mod@matches): minimax against product on P-games (Section 4.4's depth-11
//!   table, Section 5's Fig. 3).
//! - [`match_report`]: the match studies as reports (tidy rows, all formats) and their shards
//!   merged.
//! - [`ggame`](mod@ggame): Section 4.1 on G-games as we reconstruct them: D(d,k) by search
//!   against exact, minimax against product with four evaluators, the rhf claim tested.
//! - [`ballard`]: Section 4.2, Ballard's claim on incremental games, rebuilt on N-games with
//!   a mixed minimax/product rule and per-player error rates (a reconstruction of the claim).
//! - [`kalah`]: Section 4.5's three-hole kalah table: rhf(4) of `e_a^w` against the exact
//!   solver, and minimax against product at search depth 2.
//! - [`kalah_gap`]: the kalah table rerun under each reading of the paper's unstated choices
//!   (`mc kalah-gap`), every row with intervals; the documented default kept.
//! - [`othello`]: Section 4.3 (Teague): minimax against product in othello with a weak and a
//!   strong evaluator.
//! - [`variety_report`]: the kalah table, the othello matches and Ross's node counts as
//!   reports (`pathology mc kalah | othello | nodes`), with the papers' values and claims.

pub mod ballard;
pub mod ggame;
pub mod kalah;
pub mod kalah_gap;
pub mod match_report;
pub mod matches;
pub mod othello;
pub mod variety_claims;
pub mod variety_report;
