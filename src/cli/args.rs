//! Argument parsers shared by the subcommands. Probabilities are parsed as exact rationals.

use num_rational::BigRational;
use pathology::number::parse_rational;

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

use num_rational::BigRational as Exact;
use pathology::dgame::table::compute_columns;
use pathology::number::{Probability, short_text};
use pathology::output::{DecisionTable, Format, Layout};

/// Options shared by the commands that print D(d,h) tables.
#[derive(Debug, Clone, clap::Args)]
pub struct TableOutput {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Compute in exact rationals (and print them) instead of f64.
    #[arg(long)]
    pub exact: bool,
    /// Decimals of printed values (0..=30; the paper prints 3).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(0..=30))]
    pub decimals: u8,
}

impl TableOutput {
    /// Computes D(d, `height`) for every setting in the chosen mode and renders the table.
    pub fn render(
        &self,
        title: &str,
        settings: &[(Exact, Exact)],
        height: u32,
        layout: Layout,
        only_depth: Option<u32>,
    ) -> anyhow::Result<String> {
        if self.exact {
            self.render_in::<Exact>(title, settings, height, layout, only_depth)
        } else {
            self.render_in::<f64>(title, settings, height, layout, only_depth)
        }
    }

    fn render_in<P: Probability>(
        &self,
        title: &str,
        settings: &[(Exact, Exact)],
        height: u32,
        layout: Layout,
        only_depth: Option<u32>,
    ) -> anyhow::Result<String> {
        let labels = settings
            .iter()
            .map(|(a, b)| (short_text(a), short_text(b)))
            .collect();
        let settings: Vec<(P, P)> = settings
            .iter()
            .map(|(a, b)| (P::from_rational(a), P::from_rational(b)))
            .collect();
        let columns = compute_columns(&settings, height)?;
        let table = DecisionTable {
            title: title.to_string(),
            columns: &columns,
            layout,
            decimals: usize::from(self.decimals),
            only_depth,
            labels: Some(labels),
        };
        let mut text = table.render(self.format);
        if self.format == Format::Text {
            text.push_str(&table.exact_appendix());
            if !P::EXACT {
                text.push_str(&format!(
                    "\nf64: every D value is within {:.1e} of the exact value (rigorous rounding bound); \
                     estimated peak memory {}\n",
                    table.max_error_bound(),
                    pathology::dgame::cost::human_bytes(pathology::dgame::estimate_cost(height, None).bytes)
                ));
            }
        }
        Ok(text)
    }
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
