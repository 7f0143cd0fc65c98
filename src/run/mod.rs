//! `diskdash run`: plan (suite → jobs), execute the tools, write records as
//! each test ends.

use anyhow::{bail, Result};

use crate::cli::RunArgs;

pub mod doctor;

/// Runs the command; returns the process exit status.
pub fn command(_args: &RunArgs) -> Result<u8> {
    bail!("`diskdash run` is not implemented yet")
}
