//! `diskdash check`: validate records and list every problem with its file.

use anyhow::{bail, Result};

use crate::cli::CheckArgs;

/// Runs the command; returns the process exit status.
pub fn command(_args: &CheckArgs) -> Result<u8> {
    bail!("`diskdash check` is not implemented yet")
}
