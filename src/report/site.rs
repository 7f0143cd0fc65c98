//! The site in memory (relative path → bytes) and writing it to disk through
//! `crate::fsio`, guarded by a marker file listing what diskdash wrote.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path};

use anyhow::{bail, Context, Result};

use crate::fsio;

/// Marks a directory as a diskdash site; holds the list of files written.
pub const MARKER: &str = ".diskdash-site";
const MARKER_HEADER: &str =
    "diskdash site: files written by `diskdash report` (safe to delete the directory)";

/// A site held in memory: relative path (with `/`) to content.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Site {
    /// Relative path to file content, sorted.
    pub files: BTreeMap<String, Vec<u8>>,
}

/// What a write did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Files whose content changed (or that are new).
    pub changed: usize,
    /// Files already holding the same bytes.
    pub unchanged: usize,
    /// Files of an earlier build that this build no longer has, removed.
    pub removed: usize,
}

impl Site {
    /// Adds a file.
    pub fn add(&mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.files.insert(path.into(), bytes.into());
    }

    /// Number of HTML pages.
    pub fn pages(&self) -> usize {
        self.files.keys().filter(|p| p.ends_with(".html")).count()
    }

    /// The marker file's content: a header line and every path.
    fn manifest(&self) -> Vec<u8> {
        let mut s = String::from(MARKER_HEADER);
        s.push('\n');
        for p in self.files.keys() {
            s.push_str(p);
            s.push('\n');
        }
        s.into_bytes()
    }

    /// Writes the site into `out`. `out` must not exist, be empty, or hold an
    /// earlier diskdash site (marker file); anything else is refused unless
    /// `force`. Files listed by an earlier build's marker and absent from
    /// this one are removed; no other file is ever deleted. Files already
    /// holding the right bytes are left untouched.
    pub fn write(&self, out: &Path, force: bool) -> Result<Written> {
        let earlier = check_out_dir(out, force)?;
        let mut written = Written::default();
        for (rel, bytes) in &self.files {
            let path = out.join(rel);
            if std::fs::read(&path).ok().as_deref() == Some(bytes.as_slice()) {
                written.unchanged += 1;
                continue;
            }
            fsio::write_atomic_unsynced(&path, bytes)?;
            written.changed += 1;
        }
        for rel in earlier.difference(&self.files.keys().cloned().collect()) {
            let path = out.join(rel);
            if path.is_file() {
                std::fs::remove_file(&path)
                    .with_context(|| format!("failed to remove `{}`", path.display()))?;
                written.removed += 1;
            }
        }
        fsio::write_atomic(&out.join(MARKER), &self.manifest())?;
        Ok(written)
    }
}

/// Checks the output directory; returns the files an earlier build wrote.
fn check_out_dir(out: &Path, force: bool) -> Result<BTreeSet<String>> {
    if !out.exists() {
        return Ok(BTreeSet::new());
    }
    if !out.is_dir() {
        bail!("`{}` exists and is not a directory", out.display());
    }
    let marker = out.join(MARKER);
    if marker.is_file() {
        let text = std::fs::read_to_string(&marker)
            .with_context(|| format!("failed to read `{}`", marker.display()))?;
        // only plain relative paths: a marker must never lead outside `out`
        return Ok(text
            .lines()
            .skip(1)
            .filter(|l| is_plain_relative(l))
            .map(str::to_string)
            .collect());
    }
    let mut entries =
        std::fs::read_dir(out).with_context(|| format!("failed to read `{}`", out.display()))?;
    if entries.next().is_some() && !force {
        bail!(
            "`{}` is not empty and holds no earlier diskdash site (no `{MARKER}` file); choose an empty directory or pass --force",
            out.display()
        );
    }
    Ok(BTreeSet::new())
}

fn is_plain_relative(p: &str) -> bool {
    !p.is_empty()
        && Path::new(p)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(files: &[(&str, &str)]) -> Site {
        let mut s = Site::default();
        for (p, c) in files {
            s.add(*p, c.as_bytes());
        }
        s
    }

    #[test]
    fn refuses_a_foreign_directory_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        let s = site(&[("index.html", "<p>hi</p>")]);
        let err = s.write(dir.path(), false).unwrap_err();
        assert!(format!("{err:#}").contains("--force"));
        assert!(!dir.path().join("index.html").exists());
        s.write(dir.path(), true).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
            "mine"
        );
        assert!(dir.path().join(MARKER).is_file());
    }

    #[test]
    fn rebuild_removes_only_files_it_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let first = site(&[("index.html", "a"), ("runs/old.html", "old")]);
        assert_eq!(first.write(dir.path(), false).unwrap().changed, 2);
        std::fs::write(dir.path().join("CNAME"), "example").unwrap();
        let second = site(&[("index.html", "a"), ("runs/new.html", "new")]);
        let w = second.write(dir.path(), false).unwrap();
        assert_eq!(
            w,
            Written {
                changed: 1,
                unchanged: 1,
                removed: 1
            }
        );
        assert!(!dir.path().join("runs/old.html").exists());
        assert!(dir.path().join("runs/new.html").exists());
        assert!(dir.path().join("CNAME").exists());
    }

    #[test]
    fn a_tampered_marker_cannot_delete_outside() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        std::fs::create_dir(&out).unwrap();
        std::fs::write(dir.path().join("keep.txt"), "x").unwrap();
        std::fs::write(
            out.join(MARKER),
            format!("{MARKER_HEADER}\n../keep.txt\n/etc/hostname\n"),
        )
        .unwrap();
        site(&[("index.html", "a")]).write(&out, false).unwrap();
        assert!(dir.path().join("keep.txt").exists());
    }
}
