//! `diskdash import`: its flags, and how they become [`crate::import::ImportOptions`].

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::builder::PossibleValuesParser;
use clap::Args;

use super::subject::SubjectArgs;
use crate::error::usage;
use crate::import::{self, ImportOptions, StartedAt};
use crate::record::is_valid_id;

/// The values `--tool` takes: `auto`, then every registered tool's name
/// and aliases (`bonnie++`, `bonnie`), so a new tool needs no flag of its own.
fn tool_names() -> PossibleValuesParser {
    let names = crate::tools::TOOLS
        .iter()
        .flat_map(|t| std::iter::once(t.tool().name()).chain(t.aliases().iter().copied()));
    PossibleValuesParser::new(std::iter::once("auto").chain(names))
}

#[derive(Args, Debug, Clone)]
pub struct ImportArgs {
    /// Which tool printed the files; `auto` recognises it from the content.
    #[arg(long, default_value = "auto", value_parser = tool_names())]
    pub tool: String,
    /// Tool output files or directories to walk.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub subject: SubjectArgs,
    /// Test id for every imported record (instead of the one derived from the file).
    #[arg(long)]
    pub test_id: Option<String>,
    /// The name of the machine the output came from, for every record (none without it); 1 to 64 characters, no control character.
    #[arg(long, value_name = "NAME", value_parser = super::run::parse_host_name)]
    pub host_name: Option<String>,
    /// With --host-name: record a stable hash of the name (`anon-` and 12 hex digits) instead of the name, for publishing.
    #[arg(long, requires = "host_name")]
    pub anonymous_host: bool,
    /// When output that prints no date of its own was measured: RFC 3339 (2023-03-01T12:00:00Z) or a date (2023-03-01, midnight UTC). A date the output prints is kept.
    #[arg(long, value_name = "TIME", value_parser = parse_started_at)]
    pub started_at: Option<StartedAt>,
    /// Directory the records are written to.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// `--started-at`'s value ([`crate::tools::date::flag`]).
fn parse_started_at(value: &str) -> Result<StartedAt, String> {
    let (at, plain_date) = crate::tools::date::flag(value)?;
    Ok(StartedAt { at, plain_date })
}

/// The import's options from its flags; a bad flag is a usage error.
pub fn options(args: &ImportArgs) -> Result<ImportOptions> {
    if let Some(id) = &args.test_id {
        super::subject::within("--test-id", id, crate::record::MAX_ID_LEN).map_err(usage)?;
        if !is_valid_id(id) {
            bail!(crate::error::UsageError(format!(
                "--test-id `{id}`: expected letters, digits, `.`, `_` or `-`"
            )));
        }
    }
    Ok(ImportOptions {
        // `auto` names no tool
        tool: crate::tools::by_name(&args.tool),
        files: args.files.clone(),
        subject: super::subject::from_args(&args.subject).map_err(usage)?,
        test_id: args.test_id.clone(),
        host_name: args.host_name.as_deref().map(|n| {
            if args.anonymous_host {
                crate::record::anonymous_host_name(n)
            } else {
                n.to_string()
            }
        }),
        started_at: args.started_at,
        out: args.out.clone(),
    })
}

/// Runs the command.
pub fn execute(args: &ImportArgs) -> Result<u8> {
    let opts = options(args)?;
    if let Some(w) = super::subject::unpriced_warning(&opts.subject) {
        crate::tell!("warning: {}", crate::term::shown(&w));
    }
    import::command(&opts)
}
