//! `fio`: building its command line and parsing its output.

use anyhow::{bail, Result};

use super::Parsed;

// ---------------------------------------------------------------- parsing

/// Whether `text` looks like output of this tool.
pub fn looks_like(_text: &str) -> bool {
    false
}

/// Parses the tool's output into metrics in canonical units.
pub fn parse(_text: &str) -> Result<Vec<Parsed>> {
    bail!("the fio parser is not written yet")
}

// ----------------------------------------------------------- command line
