//! D(d,h), the probability that a search of depth d from a node of height h picks a winning
//! move (of a non-trivial node: one winning and one losing move), for every game family
//! through one request (`pathology decision`).
//!
//! - Li & Marsland's (1990) binary D-games with dependence factors f1, f2 (or f2 from p0 by
//!   Theorem 3.1): [`crate::analytic::dgame`], with PS and the certified complements
//!   `1 - D(d,h)`.
//! - b-ary D-games (q_k, r_k), P-games and N-games with the piece count or the artificial
//!   evaluator: [`crate::analytic::families`].
//! - G-games (our reconstruction of Nau's game graphs) with e1, e1-forced, half or centre,
//!   and their rhf(d): [`crate::analytic::ggame::report`].
//!
//! Both compute in `f64` (each value with a rigorous error bound) or in exact rationals. The
//! report is the one of `pathology dgame` or `pathology exact` (same tables, values, notes and
//! parameters), under the subcommand `decision`, so its manifest's command regenerates it.

use crate::analytic::dgame::report::DgameRequest;
use crate::analytic::families::report::{FAMILY_DECIMALS, FamilyRequest};
use crate::analytic::ggame::report::{GGAME_DECIMALS, GGameRequest};
use crate::error::Result;
use crate::report::Report;

/// The subcommand a [`DecisionRequest`]'s manifest names.
pub const DECISION_COMMAND: &str = "decision";

/// D(d,h) of one game of one family.
#[derive(Debug, Clone, PartialEq)]
pub enum DecisionRequest {
    /// Li & Marsland's binary D-game (f1 with f2 or p0).
    LiMarsland(DgameRequest),
    /// A b-ary D-game, P-game or N-game.
    Family(FamilyRequest),
    /// A G-game (reconstruction).
    GGame(GGameRequest),
}

impl DecisionRequest {
    /// Decimals a reader's format shows by default: 3 for Li & Marsland's D-games (10 for
    /// their complements), 6 for the other families.
    pub fn decimals(&self) -> usize {
        match self {
            DecisionRequest::LiMarsland(r) => r.decimals(),
            DecisionRequest::Family(_) => FAMILY_DECIMALS,
            DecisionRequest::GGame(_) => GGAME_DECIMALS,
        }
    }

    /// The report of [`DgameRequest::report`] or [`FamilyRequest::report`], its manifest
    /// naming the subcommand [`DECISION_COMMAND`].
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::decision::DecisionRequest;
    /// use pathology::analytic::families::report::{EvaluatorRequest, FamilyRequest, GameRequest};
    /// let request = DecisionRequest::Family(FamilyRequest {
    ///     game: GameRequest::P { p: None }, branching: 2, height: 8, depth: Some(3),
    ///     evaluator: EvaluatorRequest::Count, exact: false,
    /// });
    /// let report = request.report().unwrap();
    /// assert_eq!(report.manifest.command_line(),
    ///     "pathology decision --game p --branching 2 --height 8 --depth 3 --evaluator count");
    /// assert_eq!(report.tables[0].rows.len(), 1);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`DgameRequest::report`], [`FamilyRequest::report`] and [`GGameRequest::report`].
    pub fn report(&self) -> Result<Report> {
        let mut report = match self {
            DecisionRequest::LiMarsland(r) => r.report()?,
            DecisionRequest::Family(r) => r.report()?,
            DecisionRequest::GGame(r) => r.report()?,
        };
        report.manifest.command = DECISION_COMMAND.to_string();
        Ok(report)
    }
}
