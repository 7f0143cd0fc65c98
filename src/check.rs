//! `diskdash check`: validate records and list every problem with its file.

use std::path::PathBuf;

use anyhow::Result;

use crate::term::shown;
use crate::{format, ingest};

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
    // a valid record's warnings are said, and leave it valid
    for warning in &loaded.warnings {
        crate::say!("{}", shown(problem_line(warning)));
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
    if loaded.problems.is_empty() && loaded.unreadable.is_empty() {
        crate::say!(
            "{} in {}: all valid",
            shown(format::count_of(loaded.records, "record", "records")),
            shown(format::count_of(loaded.files, "file", "files"))
        );
        Ok(0)
    } else {
        crate::say!("{}", shown(summary(&loaded)));
        Ok(1)
    }
}

/// The last line of a check that found problems: how many, in how many
/// of the files read, how many paths were not read, and how many records
/// are valid (`3 problems in 2 of 5 files read, 1 path not read; 4 valid
/// records`).
fn summary(c: &ingest::Checked) -> String {
    let mut bad: Vec<&PathBuf> = c
        .problems
        .iter()
        .map(|p| &p.path)
        .filter(|p| c.unread.binary_search(p).is_err())
        .collect();
    bad.sort();
    bad.dedup();
    let mut where_ = Vec::new();
    if c.files > 0 {
        where_.push(format!(
            "in {} of {} read",
            bad.len(),
            format::count_of(c.files, "file", "files")
        ));
    }
    if !c.unread.is_empty() {
        where_.push(format!(
            "{} not read",
            format::count_of(c.unread.len(), "path", "paths")
        ));
    }
    format!(
        "{}{}{}; {} valid {}",
        format::count_of(c.problems.len() + c.unreadable.len(), "problem", "problems"),
        if c.files > 0 { " " } else { ": " },
        where_.join(", "),
        format::whole(c.records as u64),
        if c.records == 1 { "record" } else { "records" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_problems_files_and_paths_in_words_that_agree() {
        let dir = tempfile::tempdir().unwrap();
        // only an unfinished write: one problem, no file read
        std::fs::write(dir.path().join(".diskdash-tmp-x.json"), "{").unwrap();
        let c = ingest::check(&[dir.path().to_path_buf()]).unwrap();
        assert_eq!(summary(&c), "1 problem: 1 path not read; 0 valid records");
        // and two bad record files beside one good
        std::fs::write(dir.path().join("a.json"), "{").unwrap();
        std::fs::write(dir.path().join("b.json"), "[]").unwrap();
        let good = crate::record::example_json().to_string();
        std::fs::write(dir.path().join("c.json"), good).unwrap();
        let c = ingest::check(&[dir.path().to_path_buf()]).unwrap();
        assert_eq!(
            summary(&c),
            "3 problems in 2 of 3 files read, 1 path not read; 1 valid record"
        );
    }
}
