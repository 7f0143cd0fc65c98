//! `diskdash import`: existing tool output → records.

use anyhow::{bail, Result};

use crate::cli::ImportArgs;

/// Runs the command; returns the process exit status.
pub fn command(_args: &ImportArgs) -> Result<u8> {
    bail!("`diskdash import` is not implemented yet")
}
