//! The four benchmark tools. Each file holds both how the tool's command
//! line is built (for `run`) and how its output is parsed (for `run` and
//! `import`). Parsers are pure functions over text.

use std::collections::BTreeMap;

use anyhow::Result;

use crate::record::{Metric, Tool};

pub mod bonnie;
pub mod dd;
pub mod fio;
pub mod ioping;

/// What a parser took from one result in a tool's output.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    /// Metric name to value, in canonical units.
    pub metrics: BTreeMap<String, Metric>,
    /// Parameters the output (or a command line pasted above it) states.
    pub parameters: BTreeMap<String, serde_json::Value>,
    /// The tool's version, when the output names it.
    pub tool_version: Option<String>,
    /// The test id derived from the command line or job header, when the
    /// text holds one (`dd-write-8k-dsync`, `fio-randread-4k-qd64`).
    pub test_id: Option<String>,
    /// The command line found in the text, when there is one.
    pub command: Option<String>,
}

/// Parses `text` as output of `tool`. One entry per result (a bonnie++ CSV
/// line, a fio group); fails with a message saying what was expected.
pub fn parse(tool: Tool, text: &str) -> Result<Vec<Parsed>> {
    match tool {
        Tool::Dd => dd::parse(text),
        Tool::Fio => fio::parse(text),
        Tool::Ioping => ioping::parse(text),
        Tool::Bonnie => bonnie::parse(text),
    }
}

/// Guesses which tool printed `text`; `None` if it looks like none of them.
pub fn detect(text: &str) -> Option<Tool> {
    // fio first: its text output can quote dd-like lines in job names, and
    // bonnie++ CSV is the least distinctive.
    [Tool::Fio, Tool::Ioping, Tool::Dd, Tool::Bonnie]
        .into_iter()
        .find(|&t| match t {
            Tool::Fio => fio::looks_like(text),
            Tool::Ioping => ioping::looks_like(text),
            Tool::Dd => dd::looks_like(text),
            Tool::Bonnie => bonnie::looks_like(text),
        })
}
