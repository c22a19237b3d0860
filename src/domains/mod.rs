//! **Layer 7, real domains solved completely.** The domains of Nau, Luštrek, Parker, Bratko &
//! Gams, *When is it better not to look ahead?* (AIJ 174, 2010) that are small enough to
//! solve completely, so that the question "is deeper search better here?" is answered for
//! every position, exactly, with the true values from a solver.
//!
//! May import every layer below (the searches and the Monte Carlo engine: [`crate::sim`]);
//! [`crate::reproduce`] and [`crate::cli`] call it. A peer of [`crate::studies`], so neither
//! imports the other.
//!
//! - [`eight_puzzle`]: the 8-puzzle, with single-agent lookahead (minimin).
//! - [`chess`]: the KRK and KQK endgames.
//! - [`merge`]: `pathology merge` of the shards of a sampled run.
//! - [`study`]: the study of `pathology reproduce` over all three, with its claims table.

pub mod chess;
mod depth_tables;
pub mod eight_puzzle;
pub mod merge;
pub mod study;

/// What a domain's `--noise` may be: one rule for the 8-puzzle and the chess endgames (the
/// searches add the noise in whole numbers over the values' common denominator).
pub(crate) const NOISE_ALLOWED: &str = "none, gaussian:S (S > 0) or a discrete law \
     v1:p1,v2:p2,... (at most 64 values, probabilities in (0, 1] summing to 1, values' common \
     denominator at most 10^6, |values| at most 10^6)";

/// Whether the values of a discrete `--noise` law keep [`NOISE_ALLOWED`]'s limits: at most
/// 64 of them, each of magnitude at most 10^6, their common denominator at most 10^6.
pub(crate) fn noise_values_allowed<'a>(
    values: impl IntoIterator<Item = &'a num_rational::BigRational>,
) -> bool {
    use num_integer::Integer;
    use num_traits::Signed;
    let limit = num_bigint::BigInt::from(1_000_000);
    let mut denominator = num_bigint::BigInt::from(1);
    let mut count = 0;
    for v in values {
        count += 1;
        denominator = denominator.lcm(v.denom());
        if count > 64 || v.abs() > num_rational::BigRational::from_integer(limit.clone()) {
            return false;
        }
    }
    denominator <= limit
}
