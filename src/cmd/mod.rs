//! The command line: `Cli` and one file per subcommand (mdBook's layout),
//! each holding its clap flags and turning them into the stage's own
//! options. Stages never see clap types; `main.rs` dispatches here and
//! prints an error once, with the exit status [`exit_status`] gives.

use clap::{Parser, Subcommand};

use crate::term::shown;

pub mod catalogue;
pub mod check;
pub mod compare;
pub mod completions;
pub mod doctor;
pub mod import;
pub mod man;
pub mod report;
pub mod run;
pub mod subject;

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
    Run(run::RunArgs),
    /// Turn existing tool output (files or directories) into records.
    Import(import::ImportArgs),
    /// Build the static site from every record found under the directories.
    Report(report::ReportArgs),
    /// Validate records; list every problem with its file; exit 1 if any.
    Check(check::CheckArgs),
    /// Compare two directories of records: ratio new/base per configuration, test and judged metric; exit 1 on a regression.
    Compare(compare::CompareArgs),
    /// List the built-in catalogue of list prices and published limits, or check a price or limits file.
    Catalogue(catalogue::CatalogueArgs),
    /// Print the record's JSON Schema.
    Schema,
    /// Show which tools are installed, free space, filesystem and O_DIRECT support.
    Doctor(doctor::DoctorArgs),
    /// Print shell completions (bash, zsh, fish).
    Completions(completions::CompletionsArgs),
    /// Print the man page (or write one per subcommand with --out).
    Man(man::ManArgs),
}

/// Runs a subcommand; returns its exit status or the error that stopped it.
pub fn execute(command: &Command) -> anyhow::Result<u8> {
    if matches!(
        command,
        Command::Check(_)
            | Command::Compare(_)
            | Command::Catalogue(_)
            | Command::Doctor(_)
            | Command::Schema
            | Command::Completions(_)
            | Command::Man(_)
    ) {
        // their output is read by people and piped into `head`: a closed
        // pipe ends the process quietly, as it ends `ls` (Rust's runtime
        // ignores SIGPIPE, and println! then panics)
        // SAFETY: resetting a signal's disposition has no preconditions.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    match command {
        Command::Run(args) => run::execute(args),
        Command::Import(args) => import::execute(args),
        Command::Report(args) => report::execute(args),
        Command::Check(args) => check::execute(args),
        Command::Compare(args) => compare::execute(args),
        Command::Catalogue(args) => catalogue::execute(args),
        Command::Schema => {
            crate::say!("{}", shown(crate::record::json_schema()));
            Ok(0)
        }
        Command::Doctor(args) => doctor::execute(args),
        Command::Completions(args) => completions::execute(args),
        Command::Man(args) => man::execute(args),
    }
}

/// The build date, `YYYY-MM-DD` (UTC), that tells which catalogue
/// figures are more than a year old: `SOURCE_DATE_EPOCH` (seconds since
/// 1970-01-01 UTC) when set, for reproducible builds, else the clock.
pub fn build_day() -> anyhow::Result<String> {
    let now = match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(s) => {
            let secs: u64 = s.trim().parse().map_err(|_| {
                anyhow::anyhow!(
                    "SOURCE_DATE_EPOCH is `{}`, expected whole seconds since 1970-01-01 UTC",
                    shown(&s)
                )
            })?;
            std::time::UNIX_EPOCH
                .checked_add(std::time::Duration::from_secs(secs))
                .filter(|t| humantime::format_rfc3339_seconds(*t).to_string().len() == 20)
                .ok_or_else(|| anyhow::anyhow!("SOURCE_DATE_EPOCH is `{s}`, past the year 9999"))?
        }
        Err(_) => std::time::SystemTime::now(),
    };
    Ok(humantime::format_rfc3339_seconds(now).to_string()[..10].to_string())
}

/// The process exit status of a command's result. An error is printed
/// here, once, as `error: ...` with its context chain; a usage error
/// gives 2, any other 1.
pub fn exit_status(result: anyhow::Result<u8>) -> u8 {
    match result {
        Ok(code) => code,
        Err(e) => {
            crate::tell!("error: {}", shown(&e));
            crate::error::status_of(&e)
        }
    }
}
