//! `diskdash check`: its flags.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// Directories (or files) of records.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
}

/// Runs the command.
pub fn execute(args: &CheckArgs) -> Result<u8> {
    crate::check::command(&args.dirs)
}
