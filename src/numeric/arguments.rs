//! Parsers of command-line values: exact rationals in a range and whole numbers in the
//! option's real range, with messages that name that range and what was given (never the
//! type's range or Rust's parse text). They are clap value parsers, shared by the command
//! line (`crate::cli`) and the library's request types that declare their own options.

use num_rational::BigRational;

use super::number::{parse_rational, rational_to_f64};

/// A probability in `[0, 1]`, parsed exactly (`0.1` is `1/10`).
///
/// # Examples
///
/// ```
/// use pathology::numeric::arguments::probability;
/// assert_eq!(probability("0.5").unwrap().to_string(), "1/2");
/// assert_eq!(probability("1.5").unwrap_err(), "must be in [0, 1], got 1.5");
/// ```
///
/// # Errors
///
/// The message clap prints after the option's name.
pub fn probability(text: &str) -> Result<BigRational, String> {
    let value = parse_rational(text).map_err(|e| format!("{e}; must be in [0, 1]"))?;
    let zero = BigRational::from_integer(0.into());
    let one = BigRational::from_integer(1.into());
    if value < zero || value > one {
        return Err(format!("must be in [0, 1], got {text}"));
    }
    Ok(value)
}

/// A number for an option that is computed in `f64` only: parsed exactly first
/// ([`parse_rational`], which refuses a value that `f64` cannot hold, `1e-400` or `1e400`, and
/// echoes the text as typed), then rounded to the nearest double once. `NaN`, `inf` and `""`
/// are not numbers.
///
/// # Examples
///
/// ```
/// use pathology::numeric::arguments::real;
/// assert_eq!(real("0.25"), Ok(0.25));
/// assert_eq!(real("1/4"), Ok(0.25));
/// assert!(real("1e-400").unwrap_err().contains("'1e-400'"));
/// assert!(real("NaN").is_err());
/// ```
///
/// # Errors
///
/// The message clap prints after the option's name.
pub fn real(text: &str) -> Result<f64, String> {
    parse_rational(text)
        .map(|value| rational_to_f64(&value))
        .map_err(|e| e.to_string())
}

/// A positive rational (a step), parsed exactly.
///
/// # Examples
///
/// ```
/// use pathology::numeric::arguments::positive_rational;
/// assert!(positive_rational("1/4").is_ok());
/// assert_eq!(positive_rational("0").unwrap_err(), "must be greater than 0, got 0");
/// ```
///
/// # Errors
///
/// The message clap prints after the option's name.
pub fn positive_rational(text: &str) -> Result<BigRational, String> {
    let value = parse_rational(text).map_err(|e| e.to_string())?;
    if value <= BigRational::from_integer(0.into()) {
        return Err(format!("must be greater than 0, got {text}"));
    }
    Ok(value)
}

/// A whole number of type `T` in `lo..=hi`, the option's real range: the error names that
/// range and what was given, whatever it was (a negative number, a fraction, `1e18`, a number
/// beyond 2^64), so that `--height -1` is never taken for an option nor answered with the
/// type's range or Rust's parse message.
///
/// # Examples
///
/// ```
/// use pathology::numeric::arguments::whole_in;
/// let height = whole_in::<u32>(1, 64);
/// assert_eq!(height("8"), Ok(8));
/// assert_eq!(height("-1").unwrap_err(), "must be a whole number in 1..=64, got -1");
/// ```
pub fn whole_in<T>(
    lo: u64,
    hi: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    move |text: &str| {
        let range = whole_range(lo, hi);
        match text.trim().parse::<u64>() {
            Ok(n) if (lo..=hi).contains(&n) => {
                T::try_from(n).map_err(|_| format!("must be a whole number {range}, got {text}"))
            }
            _ => Err(format!("must be a whole number {range}, got {text}")),
        }
    }
}

/// A range of whole numbers as the messages state it: `in 1..=64`, or in words when the
/// upper end is a type's limit (a power of two minus one from 2^16 on), which reads badly as
/// digits: `from 1 to 2^31 - 1`.
///
/// # Examples
///
/// ```
/// use pathology::numeric::arguments::whole_range;
/// assert_eq!(whole_range(1, 64), "in 1..=64");
/// assert_eq!(whole_range(1, (1 << 31) - 1), "from 1 to 2^31 - 1");
/// assert_eq!(whole_range(2, u64::from(u32::MAX)), "from 2 to 2^32 - 1");
/// assert_eq!(whole_range(0, u64::MAX), "from 0 to 2^64 - 1");
/// ```
pub fn whole_range(lo: u64, hi: u64) -> String {
    let ones = hi.count_ones();
    if ones >= 16 && hi.checked_add(1).is_none_or(u64::is_power_of_two) {
        format!("from {lo} to 2^{ones} - 1")
    } else {
        format!("in {lo}..={hi}")
    }
}

/// A whole number of type `T` of at least `lo`, for options whose upper end is set by the
/// cost check (which refuses with an estimate) rather than by a fixed range.
///
/// # Examples
///
/// ```
/// use pathology::numeric::arguments::at_least;
/// assert_eq!(at_least::<u32>(1)("3"), Ok(3));
/// assert!(at_least::<u32>(1)("0").unwrap_err().contains(">= 1"));
/// assert!(!at_least::<u32>(1)("99999999999").unwrap_err().contains("4294967295"));
/// ```
pub fn at_least<T>(lo: u64) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    // Never the type's limit in the message: a number too large for it is far
    // beyond the option's own limits, which the library checks with their reasons.
    move |text: &str| match text.trim().parse::<u64>() {
        Ok(n) if n >= lo => T::try_from(n).map_err(|_| {
            format!(
                "must be a whole number >= {lo} within the option's limits (see --help), got \
                 {text}"
            )
        }),
        _ => Err(format!("must be a whole number >= {lo}, got {text}")),
    }
}
