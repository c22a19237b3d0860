//! Argument parsers shared by the subcommands. Probabilities are parsed as exact rationals.

use num_rational::BigRational;
use pathology::numeric::number::parse_rational;
use pathology::sim::runner::Shard;

/// A probability in `[0, 1]`, parsed exactly (`0.1` is `1/10`).
pub fn probability(text: &str) -> Result<BigRational, String> {
    let value = parse_rational(text).map_err(|e| format!("{e}; must be in [0, 1]"))?;
    let zero = BigRational::from_integer(0.into());
    let one = BigRational::from_integer(1.into());
    if value < zero || value > one {
        return Err(format!("must be in [0, 1], got {text}"));
    }
    Ok(value)
}

/// A positive rational (a step), parsed exactly.
pub fn positive_rational(text: &str) -> Result<BigRational, String> {
    let value = parse_rational(text).map_err(|e| e.to_string())?;
    if value <= BigRational::from_integer(0.into()) {
        return Err(format!("must be greater than 0, got {text}"));
    }
    Ok(value)
}

use pathology::report::{Format, RenderOptions, Report};

/// The output options every table-printing command takes.
#[derive(Debug, Clone, clap::Args)]
pub struct OutputArgs {
    /// Output format (CSV writes one table: the first, or the one named by --table).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Decimals of values in text, Markdown and LaTeX (0..=30; CSV and JSON print full
    /// precision).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=30), allow_negative_numbers = true)]
    pub decimals: Option<u8>,
    /// Print only this table of the report (every format); its name is in the JSON output and
    /// in the CSV comments.
    #[arg(long)]
    pub table: Option<String>,
}

impl OutputArgs {
    /// The library's render options.
    pub fn options(&self) -> RenderOptions {
        RenderOptions {
            format: self.format,
            decimals: self.decimals.map(usize::from),
            table: self.table.clone(),
        }
    }

    /// Renders the report (with `default_decimals` unless --decimals is given) and prints it.
    pub fn emit(&self, report: &Report, default_decimals: usize) -> anyhow::Result<()> {
        super::print(&self.options().render(report, default_decimals)?)
    }
}

/// Options of the commands that print D(d,h) tables.
#[derive(Debug, Clone, clap::Args)]
pub struct TableOutput {
    /// Compute in exact rationals (and print them) instead of f64.
    #[arg(long)]
    pub exact: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Height argument: 1..=40 (cost limits are checked by the library).
pub fn height(text: &str) -> Result<u32, String> {
    let h: u32 = text
        .parse()
        .map_err(|_| format!("must be a whole number in 1..=40, got {text}"))?;
    if !(1..=40).contains(&h) {
        return Err(format!("must be in 1..=40, got {h}"));
    }
    Ok(h)
}

/// Worker threads: 1..=1024.
pub fn threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!("must be a whole number in 1..=1024, got {text}")),
    }
}

/// A whole number of type `T` (`u32`, `u64`, `usize`): the error names the type's range, also
/// for negative numbers (which the options accept as values, so that `--steps -1` is
/// rejected with the range instead of being taken for an option).
pub fn whole<T>(text: &str) -> Result<T, String>
where
    T: std::str::FromStr + num_traits::Bounded + std::fmt::Display,
{
    text.parse().map_err(|_| {
        format!(
            "must be a whole number in {}..={}, got {text}",
            T::min_value(),
            T::max_value()
        )
    })
}

/// A seed: a whole number in `0..=2^64-1`.
pub fn seed(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| {
        format!("must be a whole number in 0..=2^64-1 (18446744073709551615), got {text}")
    })
}

/// `--shard K/N` ([`Shard::parse`]), its error naming the range.
pub fn shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text).map_err(|e| match e {
        pathology::Error::InvalidArgument { allowed, .. } => {
            format!("must be {allowed}, got {text}")
        }
        other => other.to_string(),
    })
}

/// A count of at least 1 (`--trials`, `--games`, `--pairs`, `--boards`).
pub fn count(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1, got 0".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("must be a whole number of at least 1, got {text}")),
    }
}

/// A number in [0, 1] as `f64`.
pub fn unit(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("must be a number in [0, 1], got {text}")),
    }
}

/// All cores.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}
