//! Checking records without holding them: what `diskdash check` needs.

use std::path::PathBuf;

use anyhow::Result;

use super::find::{gather, Gathered};
use super::read::read_file;
use super::{Problem, CHUNK_FILES};

/// A record's id, line and warnings, or the problem that left it out.
type Seen = Result<(Box<str>, Option<usize>, Vec<String>), Problem>;

/// What checking the records under some paths found.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    /// Every problem, sorted by file: invalid records, duplicate ids,
    /// symlinked records.
    pub problems: Vec<Problem>,
    /// Paths that could not be read or walked, each with the error.
    pub unreadable: Vec<Problem>,
    /// Number of record files read.
    pub files: usize,
    /// Paths named but not read as record files: those the walk left out
    /// with a problem (a link, an unfinished write, a directory too deep)
    /// and those that could not be read.
    pub unread: Vec<PathBuf>,
    /// Number of valid records (a duplicate id counted once).
    pub records: usize,
    /// The warnings valid records carry (`timeline not attached: ...`),
    /// each with the record's file and line: said, not problems.
    pub warnings: Vec<Problem>,
}

/// Reads and validates every record under `paths` as [`super::load`]
/// does, with the same problems, but holds of each record only its id and
/// where it is (to find duplicate ids): memory does not grow with what
/// the records hold.
pub fn check(paths: &[PathBuf]) -> Result<Checked> {
    use rayon::prelude::*;
    let Gathered {
        files,
        mut problems,
        mut unreadable,
    } = gather(paths);
    let mut unread: Vec<PathBuf> = problems
        .iter()
        .chain(&unreadable)
        .map(|p| p.path.clone())
        .collect();
    unread.sort();
    unread.dedup();
    // each valid record's id, file and line, in file order
    let mut ids: Vec<(Box<str>, u32, Option<usize>)> = Vec::new();
    let mut warnings = Vec::new();
    for (c, chunk) in files.chunks(CHUNK_FILES).enumerate() {
        let read: Vec<Vec<Seen>> = chunk
            .par_iter()
            .map(|file| {
                read_file(file)
                    .into_iter()
                    .map(|item| {
                        item.map(|f| (f.summary.id.into_boxed_str(), f.line, f.summary.warnings))
                    })
                    .collect()
            })
            .collect();
        for (k, items) in read.into_iter().enumerate() {
            let file = (c * CHUNK_FILES + k) as u32;
            for item in items {
                match item {
                    Ok((id, line, said)) => {
                        warnings.extend(said.into_iter().map(|w| Problem {
                            path: chunk[k].clone(),
                            line,
                            message: format!("record `{id}`: warning: {w}"),
                        }));
                        ids.push((id, file, line))
                    }
                    Err(problem) => problems.push(problem),
                }
            }
        }
    }
    // of records sharing an id, the first in file order is kept
    let mut by_id: Vec<u32> = (0..ids.len() as u32).collect();
    by_id.sort_unstable_by(|&a, &b| {
        super::folded_cmp(&ids[a as usize].0, &ids[b as usize].0).then(a.cmp(&b))
    });
    let mut records = 0;
    let mut first = 0usize;
    for (k, &i) in by_id.iter().enumerate() {
        let i = i as usize;
        if k == 0 || !ids[first].0.eq_ignore_ascii_case(&ids[i].0) {
            first = i;
            records += 1;
            continue;
        }
        let (kept_id, kept_file, kept_line) = &ids[first];
        let kept = files[*kept_file as usize].display();
        let at = match kept_line {
            Some(l) => format!("{kept}:{l}"),
            None => kept.to_string(),
        };
        let (id, file, line) = &ids[i];
        problems.push(Problem {
            message: super::duplicate_message(id, kept_id, &at),
            path: files[*file as usize].clone(),
            line: *line,
        });
    }
    problems.sort();
    unreadable.sort();
    warnings.sort();
    Ok(Checked {
        problems,
        unreadable,
        files: files.len(),
        unread,
        records,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_finds_what_load_finds() {
        let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let dir = tempfile::tempdir().unwrap();
        let good = std::fs::read_dir(fixtures.join("emulated"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "json"))
            .unwrap();
        let text = std::fs::read_to_string(good).unwrap();
        std::fs::write(dir.path().join("a.json"), &text).unwrap();
        std::fs::write(
            dir.path().join("b.jsonl"),
            text.replace('\n', "") + "\n{}\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("c.json"), "{").unwrap();
        for paths in [vec![dir.path().to_path_buf()], vec![fixtures]] {
            let loaded = super::super::load(&paths).unwrap();
            let checked = check(&paths).unwrap();
            assert_eq!(checked.problems, loaded.problems);
            assert_eq!(checked.unreadable, loaded.unreadable);
            assert_eq!(
                (checked.files, checked.records),
                (loaded.files, loaded.records.len())
            );
        }
    }
}
