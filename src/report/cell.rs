//! Typed cells and how each format prints them: values to the nearest, bounds outward.

use num_bigint::BigUint;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use super::Kind;
use crate::numeric::number::format_decimal;

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

    /// Whether every number of the cell is finite: a NaN anywhere, or an infinity in a value
    /// or an interval, is a computation that went wrong, never an output. An
    /// infinite error bound around a finite value is kept: it is the documented "nothing is
    /// known about this value" of the error-propagation trajectories (module docs of
    /// [`crate::report`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::Cell;
    /// assert!(Cell::Real(0.5).is_finite());
    /// assert!(!Cell::Real(f64::NAN).is_finite());
    /// assert!(!Cell::Bounded { value: f64::NAN, bound: 0.0 }.is_finite());
    /// assert!(Cell::Bounded { value: 1.0, bound: f64::INFINITY }.is_finite()); // nothing known
    /// assert!(Cell::text("inf").is_finite()); // text is not a number
    /// ```
    pub fn is_finite(&self) -> bool {
        match self {
            Cell::Bounded { value, bound } => value.is_finite() && !bound.is_nan(),
            Cell::Real(value) => value.is_finite(),
            Cell::Interval {
                estimate,
                lower,
                upper,
            } => estimate.is_finite() && lower.is_finite() && upper.is_finite(),
            Cell::Exact(_) | Cell::Integer(_) | Cell::Text(_) | Cell::Empty => true,
        }
    }

    /// The cell as messages show it: numbers as Rust prints doubles (`-inf`, `NaN`), never
    /// the cell's type name.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::report::Cell;
    /// assert_eq!(Cell::Real(f64::NEG_INFINITY).message_text(), "-inf");
    /// assert_eq!(Cell::Bounded { value: f64::NAN, bound: 0.5 }.message_text(), "NaN (error bound 0.5)");
    /// assert_eq!(Cell::Interval { estimate: 1.0, lower: 0.0, upper: f64::INFINITY }.message_text(), "1 [0, inf]");
    /// ```
    pub fn message_text(&self) -> String {
        match self {
            Cell::Exact(r) => r.to_string(),
            Cell::Bounded { value, bound } => format!("{value} (error bound {bound})"),
            Cell::Real(value) => value.to_string(),
            Cell::Interval {
                estimate,
                lower,
                upper,
            } => format!("{estimate} [{lower}, {upper}]"),
            Cell::Integer(i) => i.to_string(),
            Cell::Text(t) => t.clone(),
            Cell::Empty => String::new(),
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
            } => {
                let tiny = |x: f64| x != 0.0 && x.abs() < 1e-3;
                let text = if tiny(*estimate) || tiny(*lower) || tiny(*upper) {
                    // Scientific with `decimals` significant digits, ends rounded outward.
                    let end = |x: f64, up: bool| {
                        if !x.is_finite() {
                            format!("{x}")
                        } else if x >= 0.0 {
                            scientific_directed_f64(x, decimals, up)
                        } else {
                            format!("-{}", scientific_directed_f64(-x, decimals, !up))
                        }
                    };
                    format!(
                        "{:.prec$e} [{}, {}]",
                        estimate,
                        end(*lower, false),
                        end(*upper, true),
                        prec = decimals.saturating_sub(1)
                    )
                } else {
                    format!(
                        "{} [{}, {}]",
                        human_real(*estimate, decimals),
                        fixed_directed(*lower, decimals, false),
                        fixed_directed(*upper, decimals, true)
                    )
                };
                (text, false)
            }
            Cell::Integer(i) => (i.to_string(), false),
            Cell::Text(s) => (s.clone(), false),
            Cell::Empty => (String::new(), false),
        }
    }

    /// A key cell (a parameter) as readers see it: exact rationals in their short form
    /// (`0.1`, `1/3`), reals as their shortest round trip.
    pub(crate) fn human_key(&self) -> String {
        match self {
            Cell::Exact(r) => crate::numeric::number::short_text(r),
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
                if value.is_finite() && bound.is_finite() {
                    Number(printed_error_bound(*value, *bound))
                } else {
                    Str(non_finite(if bound.is_nan() {
                        *bound
                    } else {
                        f64::INFINITY
                    })
                    .to_string())
                }
            }
            (Cell::Interval { estimate, .. }, Part::Value) => finite(*estimate),
            (Cell::Interval { lower, .. }, Part::Lower) => number(*lower, format_lower),
            (Cell::Interval { upper, .. }, Part::Upper) => number(*upper, format_upper),
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

/// `x` as a machine-format number; JSON has no infinities and no NaN, so a non-finite value is
/// written as the string `inf`, `-inf` or `nan` (in CSV, the same text), never as a bare token
/// that a JSON parser rejects.
fn finite(x: f64) -> Machine {
    number(x, format_f64)
}

/// `format(x)` as a number when `x` is finite, else [`non_finite`]'s string.
fn number(x: f64, format: impl FnOnce(f64) -> String) -> Machine {
    if x.is_finite() {
        Machine::Number(format(x))
    } else {
        Machine::Str(non_finite(x).to_string())
    }
}

/// The text of a non-finite value in every format: `inf`, `-inf` or `nan`.
pub(crate) fn non_finite(x: f64) -> &'static str {
    if x.is_nan() {
        "nan"
    } else if x > 0.0 {
        "inf"
    } else {
        "-inf"
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
/// use pathology::numeric::number::parse_rational;
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
/// use pathology::numeric::number::parse_rational;
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
    let exact = Dyadic::from_f64(x);
    let limit = Dyadic::from_f64(if up { x.next_up() } else { x.next_down() });
    for digits in 1..=40 {
        let (s, value) = exact.scientific_directed(digits, up);
        let inside = if up {
            value.cmp_value(&limit).is_le()
        } else {
            value.cmp_value(&limit).is_ge()
        };
        if inside {
            return scientific_to_plain(&s);
        }
    }
    unreachable!("40 digits always land between two neighbouring doubles")
}

/// A positive number `m 2^twos 10^tens` held exactly: every finite `f64` and every decimal
/// is one. Directed decimal rounding of such numbers needs one integer division and no gcd,
/// so that tiny and huge doubles (a subnormal has a 1074-bit denominator) print as fast as
/// others, where `BigRational` arithmetic reduced every intermediate by a gcd (the machine
/// formats were 17-100x slower on subnormal values).
/// [`crate::numeric::number::format_scientific_directed`] is the
/// reference; the unit tests compare the two.
#[derive(Debug, Clone)]
struct Dyadic {
    mantissa: BigUint,
    twos: i64,
    tens: i64,
}

impl Dyadic {
    /// The exact value of an `f64 >= 0`; infinity counts as `2^1024` (the next step above
    /// `f64::MAX`, the upper neighbour [`format_upper`] needs).
    fn from_f64(x: f64) -> Self {
        debug_assert!(x >= 0.0, "{x}");
        let bits = x.to_bits();
        let exponent = ((bits >> 52) & 0x7ff) as i64;
        let fraction = bits & ((1u64 << 52) - 1);
        let (mantissa, twos) = if exponent == 0 {
            (fraction, -1074)
        } else {
            (fraction | (1u64 << 52), exponent - 1075)
        };
        Dyadic {
            mantissa: BigUint::from(mantissa),
            twos,
            tens: 0,
        }
    }

    /// The exact value of a decimal `m 10^tens`.
    fn decimal(mantissa: BigUint, tens: i64) -> Self {
        Dyadic {
            mantissa,
            twos: 0,
            tens,
        }
    }

    /// The value of a non-negative decimal as Rust and [`format_f64`] print it (`0.608`,
    /// `8.3121e-12`, `1e300`, `123`).
    fn parse_decimal(text: &str) -> Self {
        let (mantissa, exponent) = match text.split_once(['e', 'E']) {
            Some((m, e)) => (m, e.parse::<i64>().expect("decimal exponent")),
            None => (text, 0),
        };
        let fraction = mantissa.split_once('.').map_or(0, |(_, f)| f.len() as i64);
        let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
        Dyadic::decimal(
            digits.parse::<BigUint>().expect("decimal digits"),
            exponent - fraction,
        )
    }

    fn is_zero(&self) -> bool {
        self.mantissa.is_zero()
    }

    /// The two mantissas scaled to the common powers `2^min(twos) 10^min(tens)`.
    fn aligned(&self, other: &Self) -> (BigUint, BigUint, i64, i64) {
        let twos = self.twos.min(other.twos);
        let tens = self.tens.min(other.tens);
        let scale = |d: &Dyadic| {
            let mut m = &d.mantissa << ((d.twos - twos) as u64);
            if d.tens > tens {
                m *= ten_to((d.tens - tens) as u64);
            }
            m
        };
        (scale(self), scale(other), twos, tens)
    }

    fn add(&self, other: &Self) -> Self {
        let (a, b, twos, tens) = self.aligned(other);
        Dyadic {
            mantissa: a + b,
            twos,
            tens,
        }
    }

    /// `|self - other|`.
    fn abs_diff(&self, other: &Self) -> Self {
        let (a, b, twos, tens) = self.aligned(other);
        let mantissa = if a >= b { a - b } else { b - a };
        Dyadic {
            mantissa,
            twos,
            tens,
        }
    }

    fn cmp_value(&self, other: &Self) -> std::cmp::Ordering {
        let (a, b, _, _) = self.aligned(other);
        a.cmp(&b)
    }

    /// `floor(self / 10^shift)` and whether the division left a remainder.
    fn divide_by_ten_power(&self, shift: i64) -> (BigUint, bool) {
        let (quotient, remainder, _) = self.divide_exactly(shift);
        (quotient, !remainder.is_zero())
    }

    /// `floor(self 10^places)` and whether the dropped part is at least a half
    /// ([`Rounding::HalfUp`]) or non-zero ([`Rounding::Inexact`]).
    fn scaled_integer(&self, places: usize, rounding: Rounding) -> (BigUint, bool) {
        let (quotient, remainder, denominator) = self.divide_exactly(-(places as i64));
        let flag = match rounding {
            Rounding::HalfUp => (remainder << 1u32) >= denominator,
            Rounding::Inexact => !remainder.is_zero(),
        };
        (quotient, flag)
    }

    /// Quotient, remainder and divisor of `self / 10^shift` as one integer division.
    fn divide_exactly(&self, shift: i64) -> (BigUint, BigUint, BigUint) {
        let r = self.tens - shift;
        let mut numerator = self.mantissa.clone();
        let mut denominator = BigUint::from(1u32);
        if self.twos >= 0 {
            numerator <<= self.twos as u64;
        } else {
            denominator <<= (-self.twos) as u64;
        }
        if r >= 0 {
            numerator *= ten_to(r as u64);
        } else {
            denominator *= ten_to((-r) as u64);
        }
        let (quotient, remainder) = numerator.div_rem(&denominator);
        (quotient, remainder, denominator)
    }

    /// The value rounded to `digits` significant decimal digits, down or up, as
    /// [`crate::numeric::number::format_scientific_directed`] prints it (`1.25e-3`), and that
    /// decimal's exact value.
    fn scientific_directed(&self, digits: usize, up: bool) -> (String, Dyadic) {
        assert!(!self.is_zero(), "a positive value");
        let digits = digits.max(1) as i64;
        // log10 of the value, within about one of the truth; corrected below.
        let log10 = (self.mantissa.bits() as f64 - 0.5) * std::f64::consts::LOG10_2
            + self.twos as f64 * std::f64::consts::LOG10_2
            + self.tens as f64;
        let mut e = log10.floor() as i64;
        let low = ten_to((digits - 1) as u64);
        let high = ten_to(digits as u64);
        let (mut mantissa, inexact) = loop {
            let (q, inexact) = self.divide_by_ten_power(e + 1 - digits);
            if q < low {
                e -= 1;
            } else if q >= high {
                e += 1;
            } else {
                break (q, inexact);
            }
        };
        if up && inexact {
            mantissa += 1u32;
            if mantissa == high {
                mantissa = low;
                e += 1;
            }
        }
        let text = mantissa.to_string();
        let (first, rest) = text.split_at(1);
        let s = if rest.is_empty() {
            format!("{first}e{e}")
        } else {
            format!("{first}.{rest}e{e}")
        };
        (s, Dyadic::decimal(mantissa, e + 1 - digits))
    }
}

/// `10^n`.
fn ten_to(n: u64) -> BigUint {
    num_traits::pow(BigUint::from(10u32), n as usize)
}

/// [`crate::numeric::number::format_scientific_directed`] of a finite `x >= 0` without `BigRational`
/// arithmetic.
fn scientific_directed_f64(x: f64, digits: usize, up: bool) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    Dyadic::from_f64(x).scientific_directed(digits, up).0
}

/// A printed error bound for a printed value: a decimal `s` (three significant digits,
/// rounded up) such that the true value (within `bound` of `value`) lies within `s` of the
/// value as [`format_f64`] prints it.
///
/// # Examples
///
/// ```
/// use pathology::report::{format_f64, printed_error_bound};
/// use pathology::numeric::number::parse_rational;
/// use num_rational::BigRational;
/// use num_traits::Signed;
/// let (v, b) = (0.6081234567890123, 8.3121e-12);
/// let printed = parse_rational(&printed_error_bound(v, b)).unwrap();
/// let gap = (parse_rational(&format_f64(v)).unwrap() - BigRational::from_float(v).unwrap()).abs();
/// assert!(printed >= BigRational::from_float(b).unwrap() + gap);
/// ```
pub fn printed_error_bound(value: f64, bound: f64) -> String {
    if !value.is_finite() || !bound.is_finite() {
        return format!("{}", f64::INFINITY);
    }
    // The printed value has the sign of the value, so |printed - value| is the distance of
    // their magnitudes.
    let exact_value = Dyadic::from_f64(value.abs());
    let printed = Dyadic::parse_decimal(format_f64(value).trim_start_matches('-'));
    let needed = Dyadic::from_f64(bound.max(0.0)).add(&printed.abs_diff(&exact_value));
    if needed.is_zero() {
        return "0".to_string();
    }
    // Three significant digits, rounded up: a bound loose by at most 1% and easy to read.
    scientific_to_plain(&needed.scientific_directed(3, true).0)
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

/// An `f64` with `places` decimals, correctly rounded from its exact binary value (to the
/// nearest, ties away from zero, as [`format_decimal`]).
fn fixed(x: f64, places: usize) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    let scaled = Dyadic::from_f64(x.abs());
    let (mut rounded, half_or_more) = scaled.scaled_integer(places, Rounding::HalfUp);
    if half_or_more {
        rounded += 1u32;
    }
    decimal_text(x < 0.0, &rounded, places)
}

/// `digits / 10^places` as text with `places` decimals (`-` only for a non-zero value).
fn decimal_text(negative: bool, digits: &BigUint, places: usize) -> String {
    let text = digits.to_string();
    let body = if places == 0 {
        text
    } else {
        let padded = format!("{text:0>width$}", width = places + 1);
        let (int, frac) = padded.split_at(padded.len() - places);
        format!("{int}.{frac}")
    };
    if negative && !digits.is_zero() {
        format!("-{body}")
    } else {
        body
    }
}

/// How [`Dyadic::scaled_integer`] reports what the floor dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rounding {
    /// Whether the dropped part is at least one half.
    HalfUp,
    /// Whether anything was dropped.
    Inexact,
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
    if !x.is_finite() {
        return format!("{x}");
    }
    // Away from zero when rounding a positive value up or a negative one down.
    let away = up == (x > 0.0);
    let (mut rounded, inexact) =
        Dyadic::from_f64(x.abs()).scaled_integer(places, Rounding::Inexact);
    if away && inexact {
        rounded += 1u32;
    }
    decimal_text(x < 0.0, &rounded, places)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::number::{format_scientific_directed, parse_rational};
    use num_bigint::BigInt;
    use num_traits::Signed;

    /// The reference implementations in `BigRational` arithmetic (the code before the fast
    /// path): the fast path must print exactly the same text.
    mod reference {
        use super::*;

        pub fn directed(x: f64, up: bool) -> String {
            if !x.is_finite() {
                return format!("{x}");
            }
            if x == 0.0 {
                return "0".to_string();
            }
            if x < 0.0 {
                return format!("-{}", directed(-x, !up));
            }
            let exact = BigRational::from_float(x).unwrap();
            let limit =
                BigRational::from_float(if up { x.next_up() } else { x.next_down() }).unwrap();
            for digits in 1..=40 {
                let s = format_scientific_directed(&exact, digits, up);
                let value = parse_rational(&s).unwrap();
                if (up && value <= limit) || (!up && value >= limit) {
                    return scientific_to_plain(&s);
                }
            }
            unreachable!()
        }

        pub fn printed_error_bound(value: f64, bound: f64) -> String {
            let exact_value = BigRational::from_float(value).unwrap();
            let printed = parse_rational(&format_f64(value)).unwrap();
            let needed =
                BigRational::from_float(bound.max(0.0)).unwrap() + (printed - exact_value).abs();
            if needed.is_zero() {
                return "0".to_string();
            }
            scientific_to_plain(&format_scientific_directed(&needed, 3, true))
        }
    }

    /// Doubles of every magnitude: subnormal, tiny, ordinary, huge, and a deterministic
    /// spread of random bit patterns.
    fn doubles() -> Vec<f64> {
        let mut out = vec![
            f64::from_bits(1),
            f64::from_bits(2),
            f64::from_bits(0x000f_ffff_ffff_ffff),
            f64::MIN_POSITIVE,
            1e-310,
            4.9e-324,
            1e-300,
            8.3121e-12,
            0.1,
            1.0 / 3.0,
            0.5,
            0.6081,
            1.0,
            1e23,
            123456.789,
            2.5e20,
            1e300,
            f64::MAX,
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..400 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let x = f64::from_bits(state >> 1);
            if x.is_finite() && x > 0.0 {
                out.push(x);
            }
        }
        out
    }

    #[test]
    fn fast_directed_printing_matches_the_rational_reference() {
        for x in doubles() {
            for up in [false, true] {
                if x == f64::MAX {
                    // The reference cannot take the infinite neighbour; the fast path can.
                    let printed = parse_rational(&directed(x, up)).unwrap();
                    let max = rational(f64::MAX);
                    let above = BigRational::from_integer(BigInt::from(1u32) << 1024u32);
                    let below = rational(f64::MAX.next_down());
                    assert!(if up {
                        max <= printed && printed <= above
                    } else {
                        below <= printed && printed <= max
                    });
                    continue;
                }
                assert_eq!(directed(x, up), reference::directed(x, up), "{x:e} up={up}");
                assert_eq!(directed(-x, up), reference::directed(-x, up), "-{x:e}");
            }
            for digits in [1, 2, 3, 6, 17, 25] {
                let r = BigRational::from_float(x).unwrap();
                for up in [false, true] {
                    assert_eq!(
                        scientific_directed_f64(x, digits, up),
                        format_scientific_directed(&r, digits, up),
                        "{x:e} {digits} up={up}"
                    );
                }
            }
        }
    }

    #[test]
    fn fast_fixed_decimals_match_the_rational_reference() {
        let reference_fixed = |x: f64, places: usize| format_decimal(&rational(x), places);
        let reference_directed = |x: f64, places: usize, up: bool| {
            let scale = BigRational::from_integer(num_traits::pow(BigInt::from(10u32), places));
            let scaled = rational(x) * &scale;
            let rounded = if up { scaled.ceil() } else { scaled.floor() };
            format_decimal(&(rounded / scale), places)
        };
        let mut values = doubles();
        values.extend([0.0005, 0.0015, 0.125, 2.5, 1e-4, 0.9995]);
        for x in values {
            if x > 1e30 {
                continue;
            }
            for places in [0, 1, 3, 6, 17, 30] {
                for v in [x, -x] {
                    assert_eq!(
                        fixed(v, places),
                        reference_fixed(v, places),
                        "{v:e} {places}"
                    );
                    for up in [false, true] {
                        assert_eq!(
                            fixed_directed(v, places, up),
                            reference_directed(v, places, up),
                            "{v:e} {places} up={up}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn fast_error_bounds_match_the_rational_reference() {
        let values = doubles();
        for (i, &v) in values.iter().enumerate() {
            let b = values[(i * 7 + 3) % values.len()] * 1e-12;
            for (value, bound) in [(v, b), (-v, b), (v, 0.0), (v, 5e-324), (0.0, b)] {
                assert_eq!(
                    printed_error_bound(value, bound),
                    reference::printed_error_bound(value, bound),
                    "{value:e} {bound:e}"
                );
            }
        }
    }

    fn rational(x: f64) -> BigRational {
        BigRational::from_float(x).unwrap()
    }

    #[test]
    fn directed_decimals_bracket_the_double() {
        for &x in &[
            8.3121e-12,
            0.1,
            1.0 / 3.0,
            0.6081,
            1e-300,
            123456.789,
            2.5e20,
        ] {
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
        assert_eq!(
            parts(Kind::Real, [Cell::Real(1.0)].iter()),
            vec![Part::Value]
        );
    }
}
