//! Command-line flags (clap derive structs only; no logic).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Run the classic storage benchmarks, keep every result as a
/// self-describing record, and publish price/performance comparisons.
#[derive(Parser, Debug)]
#[command(name = "diskdash", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the benchmark set against a directory and write one record per test execution.
    Run(RunArgs),
    /// Turn existing tool output (files or directories) into records.
    Import(ImportArgs),
    /// Build the static site from every record found under the directories.
    Report(ReportArgs),
    /// Validate records; list every problem with its file; exit 1 if any.
    Check(CheckArgs),
    /// Print the record's JSON Schema.
    Schema,
    /// Show which tools are installed, free space, filesystem and O_DIRECT support.
    Doctor(DoctorArgs),
}

/// What is measured; goes into every record. A flag left out is recorded as unknown.
#[derive(Args, Debug, Clone, Default)]
pub struct SubjectArgs {
    /// Which comparison the run belongs to.
    #[arg(long)]
    pub study: Option<String>,
    /// Who sells the storage.
    #[arg(long)]
    pub provider: Option<String>,
    /// What is sold (volume type, instance type, plan).
    #[arg(long)]
    pub offering: Option<String>,
    /// Region or data centre.
    #[arg(long)]
    pub region: Option<String>,
    /// Size of the tested volume in GB.
    #[arg(long, value_name = "GB")]
    pub size_gb: Option<f64>,
    /// List price per GB per month.
    #[arg(long, value_name = "PRICE")]
    pub price_per_gb_month: Option<f64>,
    /// Currency of the price.
    #[arg(long, default_value = "USD")]
    pub currency: String,
    /// Free-form label (repeatable).
    #[arg(long = "label", value_name = "KEY=VALUE")]
    pub labels: Vec<String>,
}

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Directory to benchmark (a scratch directory is created inside it).
    #[arg(long, value_name = "DIR")]
    pub target: Option<PathBuf>,
    /// `quick`, `standard`, or a suite file (TOML).
    #[arg(long, default_value = "standard")]
    pub suite: String,
    /// Where records go; `-` streams JSON Lines to stdout.
    #[arg(long, default_value = "results", value_name = "DIR")]
    pub out: PathBuf,
    #[command(flatten)]
    pub subject: SubjectArgs,
    /// Repetitions of each test (default: 3 for standard, 1 for quick; bonnie++ once unless set).
    #[arg(long)]
    pub repeat: Option<u32>,
    /// Run only these test ids (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "ID,..")]
    pub only: Vec<String>,
    /// Skip these test ids (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "ID,..")]
    pub skip: Vec<String>,
    /// Print what would run, sizes included, and touch nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// List the suite's tests with their commands.
    #[arg(long)]
    pub list: bool,
    /// Time limit per test in seconds (overrides the suite's).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ToolChoice {
    Auto,
    Fio,
    Dd,
    Ioping,
    Bonnie,
}

#[derive(Args, Debug, Clone)]
pub struct ImportArgs {
    /// Which tool printed the files; `auto` recognises it from the content.
    #[arg(long, value_enum, default_value = "auto")]
    pub tool: ToolChoice,
    /// Tool output files or directories to walk.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub subject: SubjectArgs,
    /// Test id for every imported record (instead of the one derived from the file).
    #[arg(long)]
    pub test_id: Option<String>,
    /// Directory the records are written to.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// Directories (or files) of records.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Output directory of the site.
    #[arg(long, value_name = "SITE")]
    pub out: PathBuf,
    /// Price list (CSV) overriding the records' prices.
    #[arg(long, value_name = "FILE")]
    pub prices: Option<PathBuf>,
    /// Offering to compare against (`provider offering` or its slug) instead of the cheapest per GB.
    #[arg(long, value_name = "ID")]
    pub baseline: Option<String>,
    /// Site title.
    #[arg(long, default_value = "Storage benchmark results")]
    pub title: String,
    /// Treat an invalid record as an error instead of leaving it out.
    #[arg(long)]
    pub strict: bool,
    /// Write into a non-empty directory that is not an earlier diskdash site.
    #[arg(long)]
    pub force: bool,
}

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// Directories (or files) of records.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct DoctorArgs {
    /// Directory that would be benchmarked.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub target: PathBuf,
}
