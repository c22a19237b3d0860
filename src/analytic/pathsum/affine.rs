//! Maps of a [`Law`]'s values that keep it exact: the lookahead's frontier scores
//! `shift + scale Z` are this law moved and stretched, never re-parsed from text (whose numbers
//! must fit `f64`).

use num_rational::BigRational;
use num_traits::Signed;

use super::Law;

impl Law {
    /// The law of `shift + scale Z`, Z of this law, for `scale > 0` (so the atoms stay
    /// increasing and distinct), exactly. Its values need not fit `f64`: a score law is
    /// compared, never computed with (`--noise 1e308:1/2,-1e308:1/2` scaled by 2 is fine).
    pub(crate) fn affine(&self, shift: &BigRational, scale: &BigRational) -> Law {
        debug_assert!(scale.is_positive(), "an increasing map");
        Law {
            atoms: self
                .atoms
                .iter()
                .map(|(v, p)| (shift + scale * v, p.clone()))
                .collect(),
            spec: None,
        }
    }
}
