//! The one way diskdash walks a directory tree, shared by the record
//! directories `report` and `check` read ([`crate::ingest`]) and the tool
//! output `import` reads ([`crate::import`]).

use std::path::Path;

use walkdir::{DirEntry, WalkDir};

/// The deepest a walk goes below its root: a directory this many levels
/// down is given (see [`too_deep`]) but not entered. Record and tool
/// output directories are a few levels deep; a tree of a thousand levels
/// is a mistake or a trap, and its paths near `PATH_MAX` (4096 bytes)
/// cannot all be opened anyway.
pub const MAX_DEPTH: usize = 256;

/// Whether `entry` is a directory the walk gave but did not enter, being
/// [`MAX_DEPTH`] levels below the root: the caller names it.
pub fn too_deep(entry: &DirEntry) -> bool {
    entry.depth() >= MAX_DEPTH && entry.file_type().is_dir()
}

/// What is said of a directory [`too_deep`] to enter.
pub fn too_deep_message() -> String {
    format!("a directory {MAX_DEPTH} levels deep; not entered (diskdash walks at most {MAX_DEPTH} levels below a path given)")
}

/// The entries below `root`, `root` itself first, by [`walkdir`]:
///
/// - in the order of their file names, each directory in its place and
///   followed by what it holds, so a walk's order never depends on the
///   file system's;
/// - hidden entries (a name starting with `.`) below `root` left out,
///   with all they hold, except diskdash's unfinished writes
///   ([`unfinished_write`]), given so that they are named;
/// - at most [`MAX_DEPTH`] levels below `root`;
/// - symbolic links below `root` not followed: a link is given as a link
///   (its [`DirEntry::file_type`] says so) and a linked directory is not
///   entered; `root` itself is followed when it is a link.
///
/// `enter` narrows the walk further: an entry it refuses is left out with
/// all it holds (ingest leaves out diskdash's own sites; `|_| true` for
/// none). Errors (a directory that cannot be read) come as `Err` items,
/// and the walk goes on after them.
pub fn tree(
    root: &Path,
    mut enter: impl FnMut(&DirEntry) -> bool,
) -> impl Iterator<Item = walkdir::Result<DirEntry>> {
    WalkDir::new(root)
        .max_depth(MAX_DEPTH)
        .follow_links(false)
        .follow_root_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(move |e| visible(e) && enter(e))
}

/// Whether the walk enters `entry`: the root always, anything else unless
/// it is hidden; diskdash's own unfinished writes are hidden but given, so
/// that they can be named (see [`unfinished_write`]).
fn visible(entry: &DirEntry) -> bool {
    entry.depth() == 0
        || entry.file_name().as_encoded_bytes().first() != Some(&b'.')
        || unfinished_write(entry)
}

/// Whether `entry` is a temp file of diskdash's atomic writes
/// ([`crate::fsio`]) left behind: diskdash was killed (SIGKILL, the OOM
/// killer, a power cut) between writing it and renaming it into place.
pub fn unfinished_write(entry: &DirEntry) -> bool {
    entry.file_type().is_file()
        && entry
            .file_name()
            .as_encoded_bytes()
            .starts_with(crate::fsio::TEMP_PREFIX.as_bytes())
}

/// What is said of an [`unfinished_write`].
pub const UNFINISHED_WRITE: &str = "an unfinished write of diskdash's (its temp file, left when diskdash was killed before renaming it into place); the record inside may be complete: rename it to `*.json` to keep it (then run `diskdash check`), or delete it";

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;

    fn walked(root: &Path) -> Vec<(PathBuf, bool)> {
        tree(root, |_| true)
            .map(|e| {
                let e = e.unwrap();
                let rel = e.path().strip_prefix(root).unwrap().to_path_buf();
                (rel, e.file_type().is_symlink())
            })
            .collect()
    }

    #[test]
    fn sorted_by_name_hidden_left_out_links_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".root");
        for d in ["b", "a/z", ".hidden", "c"] {
            fs::create_dir_all(root.join(d)).unwrap();
        }
        for f in [
            "b/2.json",
            "b/10.json",
            "a/z/x",
            "a/y",
            ".hidden/h.json",
            "a/.h",
            "c/f",
        ] {
            fs::write(root.join(f), "").unwrap();
        }
        std::os::unix::fs::symlink(root.join("c"), root.join("d")).unwrap();
        std::os::unix::fs::symlink(root.join("c/f"), root.join("e")).unwrap();
        let got = walked(&root);
        let names: Vec<String> = got.iter().map(|(p, _)| p.display().to_string()).collect();
        assert_eq!(
            names,
            [
                "",
                "a",
                "a/y",
                "a/z",
                "a/z/x",
                "b",
                "b/10.json",
                "b/2.json",
                "c",
                "c/f",
                "d",
                "e"
            ]
        );
        let links: Vec<&str> = got
            .iter()
            .zip(&names)
            .filter(|((_, link), _)| *link)
            .map(|(_, n)| n.as_str())
            .collect();
        assert_eq!(links, ["d", "e"]);
        // a root that is a link is followed
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(root.join("a"), &link).unwrap();
        assert_eq!(walked(&link).len(), 4);
    }
}
