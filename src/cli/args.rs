//! Argument parsers shared by the subcommands. Probabilities are parsed as exact rationals.

pub use crate::numeric::arguments::{at_least, positive_rational, probability, real, whole_in};
use crate::numeric::number::{Probability, parse_rational};
use crate::sim::report::RunConfig;
use crate::sim::runner::Shard;
use num_rational::BigRational;

use crate::report::{Format, RenderOptions, Report};

/// The output options every table-printing command takes.
#[derive(Debug, Clone, clap::Args)]
pub struct OutputArgs {
    /// Output format (CSV writes one table: the first, or the one named by --table).
    #[arg(long, value_enum, default_value_t = Format::Text, help_heading = "Output")]
    pub format: Format,
    /// Decimals of values in text, Markdown and LaTeX (0..=30; CSV and JSON print full
    /// precision).
    #[arg(long, value_parser = whole_in::<u8>(0, 30), allow_negative_numbers = true, help_heading = "Output")]
    pub decimals: Option<u8>,
    /// Print only this table of the report (every format); its name is in the JSON output and
    /// in the CSV manifest.
    #[arg(long, allow_negative_numbers = true, help_heading = "Output")]
    pub table: Option<String>,
    /// Where the manifest (tool, version, commit, command, parameters, seed) goes: none, inline
    /// or FILE. CSV: none (its default: a plain header and rows, which pandas and polars read
    /// with default arguments), inline (`# key: value` lines above the header) or FILE (written
    /// there as JSON; name it OUT.csv.manifest.json beside OUT.csv and `pathology merge
    /// OUT.csv` finds it). Text, Markdown and LaTeX carry it by default (inline); none leaves
    /// it out, FILE writes it there too. JSON always carries it.
    #[arg(
        long,
        value_parser = manifest_place,
        value_name = "none|inline|FILE",
        allow_negative_numbers = true,
        help_heading = "Output"
    )]
    pub manifest: Option<ManifestPlace>,
}

/// `--manifest`: where CSV output puts the manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ManifestPlace {
    /// Plain CSV: header and rows only.
    None,
    /// `# key: value` lines above the header.
    Inline,
    /// A JSON file (the sidecar layout, [`crate::report::csv_sidecar`]).
    File(std::path::PathBuf),
}

/// Parses `--manifest`: `none` or `inline` in any case, or a file name (`./none` for a file
/// called none). `-` is refused (standard output carries the CSV), and so is the file standard
/// output goes to (`--manifest out.csv > out.csv` would leave only the manifest).
fn manifest_place(text: &str) -> Result<ManifestPlace, String> {
    if text.eq_ignore_ascii_case("none") {
        return Ok(ManifestPlace::None);
    }
    if text.eq_ignore_ascii_case("inline") {
        return Ok(ManifestPlace::Inline);
    }
    match text {
        "" => Err("must be none, inline or a file name, got an empty value".to_string()),
        "-" => Err(
            "must be none, inline or a file name, got - (standard output carries the CSV; \
             --manifest inline puts the manifest there as # lines)"
                .to_string(),
        ),
        path if is_standard_output(std::path::Path::new(path)) => Err(format!(
            "must be a file other than the one standard output goes to, got {path} (the \
             manifest would replace the CSV; name it {path}.manifest.json or use --manifest inline)"
        )),
        path => Ok(ManifestPlace::File(path.into())),
    }
}

/// Whether `path` names the file that standard output goes to (same device and inode).
fn is_standard_output(path: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let (Ok(target), Ok(stdout)) = (
            std::fs::metadata(path),
            std::fs::metadata("/dev/stdout").or_else(|_| std::fs::metadata("/proc/self/fd/1")),
        ) else {
            return false;
        };
        // A terminal or /dev/null shared by both is not a file the manifest would replace.
        target.is_file() && target.dev() == stdout.dev() && target.ino() == stdout.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

impl OutputArgs {
    /// The library's render options.
    pub fn options(&self) -> RenderOptions {
        RenderOptions {
            format: self.format,
            decimals: self.decimals.map(usize::from),
            table: self.table.clone(),
            inline_manifest: self.manifest == Some(ManifestPlace::Inline),
            omit_manifest: self.manifest == Some(ManifestPlace::None),
            manifest_file: match &self.manifest {
                Some(ManifestPlace::File(path)) => Some(path.clone()),
                _ => None,
            },
        }
    }

    /// Refuses, before any work, a `--table` that names none of `names` (the tables the
    /// command's report will have), before any work.
    pub fn check_table(&self, names: &[&str]) -> crate::Result<()> {
        self.options().check_table(names)
    }

    /// Renders the report (with `default_decimals` unless --decimals is given) and prints it.
    /// With `--manifest FILE` the manifest is written there first; CSV without a manifest
    /// into a file, run at a terminal, gets a one-line note on standard error saying where
    /// the manifest can go.
    pub fn emit(&self, report: &Report, default_decimals: usize) -> anyhow::Result<()> {
        let options = self.options();
        let text = options.render(report, default_decimals)?;
        options.write_manifest(report)?;
        manifest_note(&options);
        super::print(&text)
    }
}

/// The note on standard error when CSV goes without its manifest into a file or a pipe
/// while a person watches the terminal (never in scripts: standard error must be a terminal).
pub fn manifest_note(options: &RenderOptions) {
    use std::io::IsTerminal;
    if options.format == Format::Csv
        && !options.inline_manifest
        && options.manifest_file.is_none()
        && !std::io::stdout().is_terminal()
        && std::io::stderr().is_terminal()
    {
        eprintln!(
            "note: the CSV has no manifest (command, version, commit, seed); \
             --manifest FILE writes it as JSON, --manifest inline as # lines"
        );
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

/// A number in `(0, 1)` parsed exactly first (`1/3`, `1e-12`, `0.001` alike), as an `f64`.
pub fn fraction_below_one(text: &str) -> Result<f64, String> {
    let value =
        parse_rational(text).map_err(|_| format!("must be a number in (0, 1), got {text}"))?;
    let zero = BigRational::from_integer(0.into());
    let one = BigRational::from_integer(1.into());
    if value <= zero || value >= one {
        return Err(format!("must be a number in (0, 1), got {text}"));
    }
    let x = value.to_f64();
    if x <= 0.0 {
        return Err(format!(
            "must be a number in (0, 1) that f64 can hold (at least about 5e-324), got {text}"
        ));
    }
    Ok(x)
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
        crate::Error::InvalidArgument { allowed, .. } => {
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

/// A number in [0, 1] as `f64`, parsed exactly first ([`real`]: `1e-400` is refused, not
/// taken for 0).
pub fn unit(text: &str) -> Result<f64, String> {
    match real(text) {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        Ok(_) => Err(format!("must be a number in [0, 1], got {text}")),
        Err(e) => Err(format!("{e}; must be a number in [0, 1]")),
    }
}

/// All cores.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Seed, threads and output: the options every seeded run takes (the shard, whose help names
/// what is sliced, is each command's own).
#[derive(Debug, Clone, clap::Args)]
pub struct SeedThreads {
    /// Seed of the random streams (the same seed gives the same output for any --threads).
    #[arg(long, value_parser = seed, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub output: OutputArgs,
}

impl SeedThreads {
    /// The run as the library takes it.
    pub fn config(&self, trials: u64, shard: Option<Shard>) -> crate::sim::report::RunConfig {
        crate::sim::report::RunConfig {
            trials,
            seed: self.seed,
            threads: self.threads,
            shard,
        }
    }
}

/// Options shared by the experiments: the trials, the shard, seed, threads and output.
#[derive(Debug, Clone, clap::Args)]
pub struct RunOptions {
    /// Number of trials (at least 1).
    #[arg(long, value_parser = count, allow_negative_numbers = true)]
    pub trials: u64,
    /// Run only the K-th of N disjoint slices of the seeded trials (K/N, 1 <= K <= N); `pathology
    /// merge` sums the N outputs into the unsharded result, byte for byte.
    #[arg(long, value_parser = shard, allow_negative_numbers = true)]
    pub shard: Option<Shard>,
    #[command(flatten)]
    pub seeded: SeedThreads,
}

impl RunOptions {
    /// The run as the library takes it.
    pub fn config(&self) -> RunConfig {
        self.seeded.config(self.trials, self.shard)
    }

    /// Refuses, before any work, a `--table` that names none of `names`.
    pub fn check_table(&self, names: &[&str]) -> crate::Result<()> {
        self.seeded.output.check_table(names)
    }

    /// Prints the report with 4 decimals unless --decimals.
    pub fn emit(&self, report: &crate::report::Report) -> anyhow::Result<()> {
        self.seeded.output.emit(report, 4)
    }
}
