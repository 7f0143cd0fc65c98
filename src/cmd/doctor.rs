//! `diskdash doctor`: its flags.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct DoctorArgs {
    /// Directory that would be benchmarked.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub target: PathBuf,
    /// Install the missing tools with this distribution's package manager (the command is shown first).
    #[arg(long)]
    pub install: bool,
}

/// Runs the command.
pub fn execute(args: &DoctorArgs) -> Result<u8> {
    crate::run::doctor::command(&args.target, args.install)
}
