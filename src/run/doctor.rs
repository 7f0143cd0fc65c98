//! `diskdash doctor`: which tools are present, free space, filesystem, O_DIRECT.

use anyhow::{bail, Result};

use crate::cli::DoctorArgs;

/// Runs the command; returns the process exit status.
pub fn command(_args: &DoctorArgs) -> Result<u8> {
    bail!("`diskdash doctor` is not implemented yet")
}
