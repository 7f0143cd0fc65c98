//! `diskdash report`: its flags, and how they become [`crate::report::ReportOptions`].

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::report::{self, ReportOptions};

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
    /// Exchange rates (CSV: from,to,rate,as_of,source) that convert prices in
    /// other currencies into each study baseline's; columns in docs/publishing.md.
    #[arg(long, value_name = "FILE")]
    pub rates: Option<PathBuf>,
    /// Published performance limits (CSV) to put beside burst and sustained levels
    /// ("measured / promised"); columns in docs/publishing.md.
    #[arg(long, value_name = "FILE")]
    pub limits: Option<PathBuf>,
    /// Offering to compare against (`provider offering` or its slug) instead of the cheapest per GB.
    #[arg(long, value_name = "ID")]
    pub baseline: Option<String>,
    /// Site title.
    #[arg(long, default_value = "Storage benchmark results")]
    pub title: String,
    /// Where the site will be published (`https://example.org/results`):
    /// `data/<study>.md` then links its charts by absolute URL, so a post
    /// pasted elsewhere shows them.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Treat an invalid record as an error instead of leaving it out.
    #[arg(long)]
    pub strict: bool,
    /// Write into a non-empty directory that is not an earlier diskdash site.
    #[arg(long)]
    pub force: bool,
}

/// The report's options from its flags.
pub fn options(args: &ReportArgs) -> ReportOptions {
    ReportOptions {
        dirs: args.dirs.clone(),
        out: args.out.clone(),
        prices: args.prices.clone(),
        rates: args.rates.clone(),
        limits: args.limits.clone(),
        baseline: args.baseline.clone(),
        title: args.title.clone(),
        base_url: args.base_url.clone(),
        strict: args.strict,
        force: args.force,
    }
}

/// Runs the command.
pub fn execute(args: &ReportArgs) -> Result<u8> {
    report::command(&options(args))
}
