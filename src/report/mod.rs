//! `diskdash report`: records → static site (pages, charts, data exports).

use anyhow::{bail, Result};

use crate::cli::ReportArgs;

pub mod charts;

/// Runs the command; returns the process exit status.
pub fn command(_args: &ReportArgs) -> Result<u8> {
    bail!("`diskdash report` is not implemented yet")
}
