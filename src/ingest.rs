//! Finding and reading records: walk directories for `*.json` and `*.jsonl`,
//! validate each record, collect problems per file.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use crate::record::Record;

/// A record and where it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The file it came from.
    pub path: PathBuf,
    /// 1-based line number within a `*.jsonl` file; `None` for `*.json`.
    pub line: Option<usize>,
    /// The record, validated.
    pub record: Record,
}

/// One problem with one file (or one line of a `*.jsonl` file).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.path.display(), l, self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

/// Everything found under the paths: valid records sorted by id, and every
/// problem sorted by file.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    pub records: Vec<Found>,
    pub problems: Vec<Problem>,
    /// Number of record files read.
    pub files: usize,
}

/// Reads every record under `paths` (directories walked, files read as
/// given). Invalid records and duplicate ids become problems, not errors.
/// Fails only when a path does not exist.
pub fn load(_paths: &[PathBuf]) -> Result<Loaded> {
    bail!("ingest is not written yet")
}

/// Problems with one record's content (empty when valid).
pub fn validate(_record: &Record) -> Vec<String> {
    Vec::new()
}

/// Whether a path names a record file (`*.json` or `*.jsonl`).
pub fn is_record_file(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("json") | Some("jsonl")
    )
}
