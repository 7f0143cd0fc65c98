//! Finding record files: the walk of each path given.

use std::path::{Path, PathBuf};

use super::{Problem, SITE_MARKER};

/// The record files under the paths given, each once, sorted, and the
/// problems the walks found.
pub(super) struct Gathered {
    pub(super) files: Vec<PathBuf>,
    pub(super) problems: Vec<Problem>,
    pub(super) unreadable: Vec<Problem>,
}

/// Walks every path given (see [`walk_records`]).
pub(super) fn gather(paths: &[PathBuf]) -> Gathered {
    // (file, what it is on disk): the second tells two spellings of one
    // file apart from two files, and is only needed when several paths
    // are given (a walk reaches each file once)
    let several = paths.len() > 1;
    let mut files: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
    let mut problems = Vec::new();
    let mut unreadable = Vec::new();
    for path in paths {
        let walk = walk_records(path);
        // links are not followed below the path itself, so only two paths
        // can reach one file twice, and then through their real
        // directories: one canonicalize per path
        let real = if several {
            std::fs::canonicalize(path).ok()
        } else {
            None
        };
        files.extend(walk.files.into_iter().map(|f| {
            let key = several.then(|| match (&real, f.strip_prefix(path)) {
                (Some(r), Ok(rel)) => r.join(rel),
                _ => f.clone(),
            });
            (f, key)
        }));
        problems.extend(walk.problems);
        unreadable.extend(walk.unreadable);
    }
    // Sorted so that which copy of a duplicate id wins, and the order of
    // problems, do not depend on the order the paths were given in.
    files.sort();
    files.dedup();
    if several {
        // one file reached twice (`results` and `./results`, or through a
        // symlink) is read once, not reported as a duplicate of itself
        let mut real = std::collections::BTreeSet::new();
        let first: Vec<bool> = files.iter().map(|(_, key)| real.insert(key)).collect();
        drop(real);
        let mut first = first.into_iter();
        files.retain(|_| first.next().unwrap_or(true));
    }
    let files: Vec<PathBuf> = files.into_iter().map(|(f, _)| f).collect();

    Gathered {
        files,
        problems,
        unreadable,
    }
}

/// What walking one path found.
#[derive(Default)]
pub(super) struct Walk {
    pub(super) files: Vec<PathBuf>,
    pub(super) problems: Vec<Problem>,
    pub(super) unreadable: Vec<Problem>,
}

/// A problem of a whole file or directory that a walk found.
fn walk_problem(path: &Path, message: String) -> Problem {
    Problem {
        path: path.to_path_buf(),
        line: None,
        message,
    }
}

/// Walks one path: the file itself, or every `*.json` and `*.jsonl` below
/// a directory (hidden entries and diskdash sites skipped); symlinked and
/// dangling `*.json` links named as problems, and what could not be read.
fn walk_records(path: &Path) -> Walk {
    let mut walk = Walk::default();
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            walk.unreadable.push(walk_problem(path, e.to_string()));
            return walk;
        }
    };
    if !meta.is_dir() {
        if meta.is_file() {
            walk.files.push(path.to_path_buf());
        } else {
            // a FIFO would hang the read, /dev/zero never end it
            walk.problems.push(walk_problem(
                path,
                "not a regular file (a FIFO, device or socket); expected a JSON record file".into(),
            ));
        }
        return walk;
    }
    if path.join(SITE_MARKER).exists() {
        return walk;
    }
    walk_dir(path)
}

/// [`walk_records`] below `dir`, a directory, by [`crate::walk::tree`]
/// (sorted by name, hidden entries left out, links not followed), with
/// directories that are diskdash sites left out too.
fn walk_dir(dir: &Path) -> Walk {
    let mut walk = Walk::default();
    let not_a_site =
        |e: &walkdir::DirEntry| !(e.file_type().is_dir() && e.path().join(SITE_MARKER).exists());
    for entry in crate::walk::tree(dir, not_a_site) {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                let message = e
                    .io_error()
                    .map_or_else(|| e.to_string(), |io| io.to_string());
                let path = e.path().unwrap_or(dir);
                walk.unreadable.push(walk_problem(path, message));
                continue;
            }
        };
        if crate::walk::too_deep(&entry) {
            walk.problems
                .push(walk_problem(entry.path(), crate::walk::too_deep_message()));
            continue;
        }
        if crate::walk::unfinished_write(&entry) {
            walk.problems.push(walk_problem(
                entry.path(),
                crate::walk::UNFINISHED_WRITE.into(),
            ));
            continue;
        }
        let kind = entry.file_type();
        if !is_record_file(entry.path()) || kind.is_dir() {
            continue;
        }
        // named like a record but a FIFO, device or socket: named, never read
        if !(kind.is_symlink() || kind.is_file()) {
            walk.problems.push(walk_problem(
                entry.path(),
                "not a regular file (a FIFO, device or socket); left out unread".into(),
            ));
            continue;
        }
        let entry = entry.into_path();
        if kind.is_symlink() {
            let to = std::fs::read_link(&entry)
                .map(|t| t.display().to_string())
                .unwrap_or_default();
            let message = if entry.exists() {
                format!("a symbolic link (to `{to}`); left out: records are read from regular files (copy it in, or name the link itself)")
            } else {
                format!("a dangling symbolic link (to `{to}`); left out")
            };
            walk.problems.push(walk_problem(&entry, message));
        } else {
            walk.files.push(entry);
        }
    }
    walk
}

/// Whether a path names a record file (`*.json` or `*.jsonl`).
pub fn is_record_file(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("json") | Some("jsonl")
    )
}
