//! Typed cells and how each format prints them: values to the nearest, bounds outward.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

use super::Kind;
use crate::number::{format_decimal, format_scientific_directed, parse_rational};

/// One typed value of a table.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// An exact rational.
    Exact(BigRational),
    /// An `f64` whose true value lies within `bound` of it (a rigorous bound).
    Bounded {
        /// The computed value.
        value: f64,
        /// The bound on its error.
        bound: f64,
    },
    /// A plain `f64` (an estimate, a statistic, a parameter).
    Real(f64),
    /// A confidence interval.
    Interval {
        /// The point estimate.
        estimate: f64,
        /// The lower end.
        lower: f64,
        /// The upper end.
        upper: f64,
    },
    /// A whole number.
    Integer(i128),
    /// Text.
    Text(String),
    /// No value.
    Empty,
}

impl Cell {
    /// An integer cell from any integer type.
    pub fn int(value: impl Into<i128>) -> Self {
        Cell::Integer(value.into())
    }

    /// A text cell.
    pub fn text(value: impl Into<String>) -> Self {
        Cell::Text(value.into())
    }

    /// The nearest `f64` of a numeric cell (the estimate of an interval).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::Cell;
    /// assert_eq!(Cell::Bounded { value: 0.5, bound: 1e-12 }.to_f64(), Some(0.5));
    /// assert_eq!(Cell::text("x").to_f64(), None);
    /// ```
    pub fn to_f64(&self) -> Option<f64> {
        match self {
            Cell::Exact(r) => r.to_f64(),
            Cell::Bounded { value, .. } | Cell::Real(value) => Some(*value),
            Cell::Interval { estimate, .. } => Some(*estimate),
            Cell::Integer(i) => Some(*i as f64),
            Cell::Text(_) | Cell::Empty => None,
        }
    }

    /// The cell as readers see it (text, Markdown, LaTeX), with `decimals` decimals; the
    /// second value is true when an `f64` value was printed with fewer decimals because its
    /// error bound supports no more.
    pub(crate) fn human(&self, decimals: usize) -> (String, bool) {
        match self {
            Cell::Exact(r) => (format_decimal(r, decimals), false),
            Cell::Bounded { value, bound } => {
                let supported = supported_decimals(*bound);
                let places = decimals.min(supported);
                (fixed(*value, places), places < decimals)
            }
            Cell::Real(x) => (human_real(*x, decimals), false),
            Cell::Interval {
                estimate,
                lower,
                upper,
            } => (
                format!(
                    "{} [{}, {}]",
                    human_real(*estimate, decimals),
                    fixed_directed(*lower, decimals, false),
                    fixed_directed(*upper, decimals, true)
                ),
                false,
            ),
            Cell::Integer(i) => (i.to_string(), false),
            Cell::Text(s) => (s.clone(), false),
            Cell::Empty => (String::new(), false),
        }
    }

    /// A key cell (a parameter) as readers see it: exact rationals in their short form
    /// (`0.1`, `1/3`), reals as their shortest round trip.
    pub(crate) fn human_key(&self) -> String {
        match self {
            Cell::Exact(r) => crate::number::short_text(r),
            Cell::Real(x) | Cell::Bounded { value: x, .. } => format_f64(*x),
            other => other.human(6).0,
        }
    }

    /// The value of one expanded part in the machine formats.
    pub(crate) fn machine(&self, part: Part) -> Machine {
        use Machine::{Null, Number, Str};
        match (self, part) {
            (Cell::Exact(r), Part::Value) => r.to_f64().map_or(Null, |x| Number(format_f64(x))),
            (Cell::Exact(r), Part::Exact) => Str(format!("{}/{}", r.numer(), r.denom())),
            (Cell::Bounded { value, .. }, Part::Value) | (Cell::Real(value), Part::Value) => {
                finite(*value)
            }
            (Cell::Bounded { value, bound }, Part::ErrorBound) => {
                Number(printed_error_bound(*value, *bound))
            }
            (Cell::Interval { estimate, .. }, Part::Value) => finite(*estimate),
            (Cell::Interval { lower, .. }, Part::Lower) => Number(format_lower(*lower)),
            (Cell::Interval { upper, .. }, Part::Upper) => Number(format_upper(*upper)),
            (Cell::Integer(i), Part::Plain) => Number(i.to_string()),
            (Cell::Text(s), Part::Plain) => Str(s.clone()),
            _ => Null,
        }
    }
}

/// A machine-format value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Machine {
    /// A number, as decimal text.
    Number(String),
    /// A string.
    Str(String),
    /// Nothing (an empty CSV field, JSON `null`).
    Null,
}

fn finite(x: f64) -> Machine {
    if x.is_finite() {
        Machine::Number(format_f64(x))
    } else {
        Machine::Null
    }
}

/// The part of a typed column that one plain column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    /// The value (nearest `f64`, estimate).
    Value,
    /// The exact rational.
    Exact,
    /// The printed error bound.
    ErrorBound,
    /// The lower end of an interval.
    Lower,
    /// The upper end of an interval.
    Upper,
    /// An integer or text as it is.
    Plain,
}

impl Part {
    /// The plain column's header.
    pub(crate) fn header(self, name: &str) -> String {
        match self {
            Part::Value | Part::Plain => name.to_string(),
            Part::Exact => format!("{name}_exact"),
            Part::ErrorBound => format!("{name}_error_bound"),
            Part::Lower => format!("{name}_lower"),
            Part::Upper => format!("{name}_upper"),
        }
    }
}

/// The parts a column of this kind expands into, given its cells: a real column gets an
/// exact part when any cell is exact and an error-bound part when any cell is bounded.
pub(crate) fn parts<'a>(kind: Kind, cells: impl Iterator<Item = &'a Cell>) -> Vec<Part> {
    match kind {
        Kind::Real => {
            let (mut exact, mut bounded) = (false, false);
            for c in cells {
                exact |= matches!(c, Cell::Exact(_));
                bounded |= matches!(c, Cell::Bounded { .. });
            }
            let mut parts = vec![Part::Value];
            if exact {
                parts.push(Part::Exact);
            }
            if bounded {
                parts.push(Part::ErrorBound);
            }
            parts
        }
        Kind::Interval => vec![Part::Value, Part::Lower, Part::Upper],
        Kind::Integer | Kind::Text => vec![Part::Plain],
    }
}

/// The shortest decimal that reads back as `x` (Rust's shortest round trip), in plain
/// notation for `1e-4 <= |x| < 1e15` and scientific notation otherwise.
///
/// # Examples
///
/// ```
/// use pathology::report::format_f64;
/// assert_eq!(format_f64(0.608), "0.608");
/// assert_eq!(format_f64(8.3121e-12), "8.3121e-12");
/// assert_eq!(format_f64(1.0), "1");
/// ```
pub fn format_f64(x: f64) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    let a = x.abs();
    if (1e-4..1e15).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// The shortest decimal `s` with `x <= s <= next_up(x)`: an upper bound that is as tight as
/// the `f64` itself.
///
/// # Examples
///
/// ```
/// use pathology::report::format_upper;
/// use pathology::number::parse_rational;
/// use num_rational::BigRational;
/// let x = 8.3121e-12;
/// let s = format_upper(x);
/// assert!(parse_rational(&s).unwrap() >= BigRational::from_float(x).unwrap());
/// assert_eq!(format_upper(0.5), "0.5");
/// ```
pub fn format_upper(x: f64) -> String {
    directed(x, true)
}

/// The shortest decimal `s` with `next_down(x) <= s <= x`: a lower bound as tight as `x`.
///
/// # Examples
///
/// ```
/// use pathology::report::format_lower;
/// use pathology::number::parse_rational;
/// use num_rational::BigRational;
/// let x = 0.1f64; // slightly above 1/10
/// assert!(parse_rational(&format_lower(x)).unwrap() <= BigRational::from_float(x).unwrap());
/// assert_eq!(format_lower(-0.25), "-0.25");
/// ```
pub fn format_lower(x: f64) -> String {
    directed(x, false)
}

fn directed(x: f64, up: bool) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    if x == 0.0 {
        return "0".to_string();
    }
    if x < 0.0 {
        return format!("-{}", directed(-x, !up));
    }
    let exact = BigRational::from_float(x).expect("finite");
    let limit = BigRational::from_float(if up { x.next_up() } else { x.next_down() })
        .expect("finite neighbour");
    for digits in 1..=40 {
        let s = format_scientific_directed(&exact, digits, up);
        let value = parse_rational(&s).expect("formatted decimal parses");
        let inside = if up { value <= limit } else { value >= limit };
        if inside {
            return scientific_to_plain(&s);
        }
    }
    unreachable!("40 digits always land between two neighbouring doubles")
}

/// A printed error bound for a printed value: a decimal `s` (three significant digits,
/// rounded up) such that the true value (within `bound` of `value`) lies within `s` of the
/// value as [`format_f64`] prints it.
///
/// # Examples
///
/// ```
/// use pathology::report::{format_f64, printed_error_bound};
/// use pathology::number::parse_rational;
/// use num_rational::BigRational;
/// let (v, b) = (0.6081234567890123, 8.3121e-12);
/// let printed = parse_rational(&printed_error_bound(v, b)).unwrap();
/// let gap = (parse_rational(&format_f64(v)).unwrap() - BigRational::from_float(v).unwrap()).abs();
/// assert!(printed >= BigRational::from_float(b).unwrap() + gap);
/// ```
pub fn printed_error_bound(value: f64, bound: f64) -> String {
    if !value.is_finite() || !bound.is_finite() {
        return format!("{}", f64::INFINITY);
    }
    let exact_value = BigRational::from_float(value).expect("finite");
    let printed = parse_rational(&format_f64(value)).expect("formatted f64 parses");
    let needed = BigRational::from_float(bound.max(0.0)).expect("finite") + (printed - exact_value).abs();
    if needed.is_zero() {
        return "0".to_string();
    }
    // Three significant digits, rounded up: a bound loose by at most 1% and easy to read.
    scientific_to_plain(&format_scientific_directed(&needed, 3, true))
}

/// `1.25e-3` as `0.00125` when the exponent is in `-4..15`, else unchanged.
fn scientific_to_plain(s: &str) -> String {
    let Some((mantissa, exponent)) = s.split_once('e') else {
        return s.to_string();
    };
    let exponent: i64 = exponent.parse().expect("exponent");
    if !(-4..15).contains(&exponent) {
        return s.to_string();
    }
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let point = 1 + exponent; // digits before the decimal point
    let text = if point <= 0 {
        format!("0.{}{}", "0".repeat((-point) as usize), digits)
    } else if point as usize >= digits.len() {
        format!("{}{}", digits, "0".repeat(point as usize - digits.len()))
    } else {
        let (a, b) = digits.split_at(point as usize);
        format!("{a}.{b}")
    };
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// How many decimals an `f64` with this error bound supports: the last printed decimal is off
/// by at most half a unit plus the bound, less than one unit.
fn supported_decimals(bound: f64) -> usize {
    if bound <= 0.0 {
        return 17;
    }
    let mut places = 0usize;
    while places < 17 && 0.5 * 10f64.powi(-(places as i32 + 1)) > bound {
        places += 1;
    }
    places
}

/// An `f64` with `places` decimals, correctly rounded from its exact binary value.
fn fixed(x: f64, places: usize) -> String {
    match BigRational::from_float(x) {
        Some(r) => format_decimal(&r, places),
        None => format!("{x}"),
    }
}

/// A real number for readers: `places` decimals, or scientific notation when that would
/// print only zeros.
fn human_real(x: f64, places: usize) -> String {
    if x != 0.0 && x.is_finite() && x.abs() < 0.5 * 10f64.powi(-(places as i32)) {
        format!("{x:.prec$e}", prec = places.saturating_sub(1).max(1))
    } else {
        fixed(x, places)
    }
}

/// An `f64` rounded down or up to `places` decimals (a printed interval end).
fn fixed_directed(x: f64, places: usize, up: bool) -> String {
    let Some(r) = BigRational::from_float(x) else {
        return format!("{x}");
    };
    let scale = BigRational::from_integer(num_traits::pow(BigInt::from(10u32), places));
    let scaled = &r * &scale;
    let rounded = if up { scaled.ceil() } else { scaled.floor() };
    let value = rounded / scale;
    format_decimal(&value, places)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rational(x: f64) -> BigRational {
        BigRational::from_float(x).unwrap()
    }

    #[test]
    fn directed_decimals_bracket_the_double() {
        for &x in &[8.3121e-12, 0.1, 1.0 / 3.0, 0.6081, 1e-300, 123456.789, 2.5e20] {
            let up = parse_rational(&format_upper(x)).unwrap();
            let down = parse_rational(&format_lower(x)).unwrap();
            assert!(down <= rational(x) && rational(x) <= up, "{x}");
            assert!(up <= rational(x.next_up()) && down >= rational(x.next_down()));
        }
        assert_eq!(printed_error_bound(0.5, 8.3121e-12), "8.32e-12");
    }

    #[test]
    fn plain_notation_in_the_middle_range() {
        assert_eq!(scientific_to_plain("1.25e-3"), "0.00125");
        assert_eq!(scientific_to_plain("6e2"), "600");
        assert_eq!(scientific_to_plain("6.25e0"), "6.25");
        assert_eq!(scientific_to_plain("1.0e-7"), "1.0e-7");
    }

    #[test]
    fn bounded_values_print_only_supported_decimals() {
        let cell = Cell::Bounded {
            value: 0.123456789012345,
            bound: 1e-11,
        };
        let (text, reduced) = cell.human(30);
        assert_eq!(text, "0.1234567890");
        assert!(reduced);
        assert_eq!(cell.human(3), ("0.123".to_string(), false));
    }

    #[test]
    fn interval_ends_round_outward() {
        let cell = Cell::Interval {
            estimate: 0.5,
            lower: 0.12345,
            upper: 0.98761,
        };
        assert_eq!(cell.human(3).0, "0.500 [0.123, 0.988]");
        assert_eq!(fixed_directed(-0.12345, 2, false), "-0.13");
    }

    #[test]
    fn expansion_follows_the_cells() {
        let cells = [
            Cell::Exact(BigRational::new(1.into(), 3.into())),
            Cell::Bounded {
                value: 0.5,
                bound: 1e-12,
            },
        ];
        assert_eq!(
            parts(Kind::Real, cells.iter()),
            vec![Part::Value, Part::Exact, Part::ErrorBound]
        );
        assert_eq!(parts(Kind::Real, [Cell::Real(1.0)].iter()), vec![Part::Value]);
    }
}
