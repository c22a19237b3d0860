//! The critical game's walk in the mode of the number type: exact rationals, or `f64`
//! enclosures unless the exact walk is estimated cheap. Above both [`super::critical`] (the
//! walks) and [`super::cost`] (their estimates), so that neither imports the other.

use super::Value;
use super::cost::{CHEAP_EXACT_SECONDS, exact_walk_cost};
use super::critical::{CriticalGame, Rates, exact_chain, float_chain};
use super::evaluation::{Cdfs, Law};
use crate::error::Result;
use crate::numeric::number::Probability;

/// `P(win)` at the depths of one walk (one law, one parity; ascending), in the mode of `P`:
/// exact rationals; in `f64` enclosures, or exact (then rounded) when the exact walk is
/// estimated cheap ([`CHEAP_EXACT_SECONDS`]: deterministic evaluations, whose
/// enclosures would widen level after level around values that are exactly 0 and 1).
pub(crate) fn correct_chain<P: Probability>(
    game: &CriticalGame<P>,
    rates: &Rates,
    law: &Law,
    depths: &[u32],
    cancel: &crate::cancel::CancelToken,
) -> Result<Vec<Value>> {
    let b = game.branching() as usize;
    let cheap = || {
        matches!(law.cdfs, Cdfs::Exact { .. })
            && exact_walk_cost(b, rates, law, depths).0 < CHEAP_EXACT_SECONDS
    };
    if P::EXACT || cheap() {
        Ok(exact_chain(b, rates, law, depths, cancel)?
            .into_iter()
            .map(Value::Exact)
            .collect())
    } else {
        Ok(float_chain(b, rates, law, depths, cancel)?
            .into_iter()
            .map(Value::Float)
            .collect())
    }
}
