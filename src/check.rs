//! `diskdash check`: validate records and list every problem with its file.

use std::path::PathBuf;

use anyhow::Result;

use crate::ingest;
use crate::term::shown;

/// A problem as printed to a terminal, `path[:line]: message`: the path
/// through [`shown`] as a path (a byte that is not UTF-8 as `\xff`), the
/// message as text.
pub fn problem_line(p: &ingest::Problem) -> String {
    match p.line {
        Some(l) => format!("{}:{}: {}", shown(&p.path), l, shown(&p.message)),
        None => format!("{}: {}", shown(&p.path), shown(&p.message)),
    }
}

/// Runs the command: prints each problem as `path[:line]: message`, then a
/// summary. Returns 0 when every record is valid, 1 otherwise (also when
/// no record was found at all).
pub fn command(dirs: &[PathBuf]) -> Result<u8> {
    let loaded = ingest::check(dirs)?;
    // a path that cannot be read is named, and the others are checked
    for p in &loaded.unreadable {
        crate::tell!(
            "error: cannot read `{}`: {}",
            shown(&p.path),
            shown(&p.message)
        );
    }
    for problem in &loaded.problems {
        crate::say!("{}", shown(problem_line(problem)));
    }
    let names = dirs
        .iter()
        .map(|d| format!("`{}`", shown(d)))
        .collect::<Vec<_>>()
        .join(", ");
    if loaded.files == 0 && loaded.problems.is_empty() {
        if !loaded.unreadable.is_empty() {
            return Ok(1);
        }
        crate::say!(
            "no records found under {} (expected *.json or *.jsonl written by `diskdash run` or `diskdash import`)",
            shown(&names)
        );
        return Ok(1);
    }
    let bad_files = {
        let mut paths: Vec<_> = loaded.problems.iter().map(|p| &p.path).collect();
        paths.dedup();
        paths.len()
    };
    if loaded.problems.is_empty() && loaded.unreadable.is_empty() {
        crate::say!(
            "{} records in {} files: all valid",
            loaded.records,
            loaded.files
        );
        Ok(0)
    } else {
        crate::say!(
            "{} problems in {} of {} files; {} valid records",
            loaded.problems.len() + loaded.unreadable.len(),
            bad_files,
            loaded.files,
            loaded.records
        );
        Ok(1)
    }
}
