//! The site in memory (relative path → bytes) and writing it to disk through
//! `crate::fsio`, guarded by a marker file listing what diskdash wrote.

use std::collections::{BTreeMap, HashSet};
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::fsio;

/// Marks a directory as a diskdash site; holds the list of files written.
pub const MARKER: &str = ".diskdash-site";
const MARKER_HEADER: &str =
    "diskdash site: files written by `diskdash report` (safe to delete the directory)";

/// A site being built: held in memory (tests, snapshots), or streamed to
/// an output directory as each file is added (the command), so that a build
/// of many thousand run pages never holds them all.
#[derive(Debug, Default)]
pub struct Site {
    /// In memory: relative path (with `/`) to content. Empty when streaming.
    pub files: BTreeMap<String, Vec<u8>>,
    /// HTML pages added (when streaming, a page added twice counts twice).
    /// A streaming site holds nothing else per file: the paths are listed
    /// in its marker as they are added, and read back from there.
    pages: usize,
    /// Where files go when streaming.
    stream: Option<Stream>,
}

#[derive(Debug)]
struct Stream {
    out: PathBuf,
    /// The marker, open for adding each path as it is added (after the
    /// files an earlier build listed in it), so that a build stopped on the
    /// way leaves every file it wrote listed.
    list: std::io::BufWriter<std::fs::File>,
    /// Where in the marker this build's paths begin: the lines before are
    /// its header and the files of earlier builds.
    ours_from: usize,
    /// The directory held nothing when the build began: no earlier file to
    /// compare with, and no reader of a page that is half written, so files
    /// are created directly (never over an existing one) instead of through
    /// a temp file and a rename.
    fresh: bool,
    /// Directories below `out` (relative, with `/`) known to be plain
    /// directories that exist: each is checked and created once.
    dirs: HashSet<String>,
    written: Written,
    /// The first write error; later files are not attempted.
    error: Option<anyhow::Error>,
}

/// How one file is to be written, decided before the (parallel) write.
enum Plan {
    /// Into a fresh directory: created, never replacing anything.
    Create,
    /// Over an earlier build: compared, then replaced through a temp file.
    Replace,
}

impl Stream {
    /// Makes sure the directory of `rel` exists below `out` as plain
    /// directories (no symbolic link on the way), checking each once.
    fn prepare(&mut self, rel: &str) -> Result<()> {
        let Some((dir, _)) = rel.rsplit_once('/') else {
            return Ok(());
        };
        if self.dirs.contains(dir) {
            return Ok(());
        }
        no_symlink_below(&self.out, dir)?;
        fsio::create_dir(&self.out.join(dir))?;
        let mut at = dir;
        loop {
            self.dirs.insert(at.to_string());
            match at.rsplit_once('/') {
                Some((parent, _)) => at = parent,
                None => break,
            }
        }
        Ok(())
    }

    /// Writes one file as planned; `true` when its content changed.
    fn write(out: &Path, rel: &str, bytes: &[u8], plan: Plan) -> Result<bool> {
        let full = out.join(rel);
        match plan {
            // a path added twice is there already: its first content is replaced
            Plan::Create => match fsio::write_fresh(&full, bytes) {
                Err(e)
                    if e.downcast_ref::<std::io::Error>().map(std::io::Error::kind)
                        == Some(std::io::ErrorKind::AlreadyExists) =>
                {
                    Stream::write(out, rel, bytes, Plan::Replace)
                }
                written => written.map(|()| true),
            },
            Plan::Replace => {
                // the directories were checked; the file itself may be a link
                if std::fs::symlink_metadata(&full).is_ok_and(|m| m.file_type().is_symlink()) {
                    bail!(
                        "`{}` is a symbolic link inside the site; diskdash never writes or removes \
                         through one (remove the link, or build into an empty directory)",
                        full.display()
                    );
                }
                // unchanged files keep their modification time: rebuilds stay cheap
                if std::fs::read(&full).ok().as_deref() == Some(bytes) {
                    return Ok(false);
                }
                fsio::replace_unsynced(&full, bytes).map(|()| true)
            }
        }
    }

    /// Plans the writing of files (directories made, each file's way of
    /// writing chosen); nothing is planned once a write has failed.
    fn plan(&mut self, files: Vec<(String, Vec<u8>)>) -> Planned {
        let mut planned = Planned {
            out: self.out.clone(),
            files: Vec::with_capacity(files.len()),
        };
        if self.error.is_some() {
            return planned;
        }
        for (rel, bytes) in files {
            if let Err(e) = self.prepare(&rel) {
                self.error = Some(e);
                break;
            }
            let plan = if self.fresh {
                Plan::Create
            } else {
                Plan::Replace
            };
            planned.files.push((rel, bytes, plan));
        }
        planned
    }

    /// Counts what the writes did, keeping the first error in the order given.
    fn record(&mut self, done: Done) {
        for d in done.0 {
            match d {
                Ok(true) => self.written.changed += 1,
                Ok(false) => self.written.unchanged += 1,
                Err(e) => {
                    if self.error.is_none() {
                        self.error = Some(e);
                    }
                }
            }
        }
    }
}

/// Files planned to be written into a streaming site ([`Site::plan`]),
/// written without the site ([`Planned::write`]) so that several threads
/// can write at once.
pub struct Planned {
    out: PathBuf,
    files: Vec<(String, Vec<u8>, Plan)>,
}

/// What writing [`Planned`] files did, one result per file, for
/// [`Site::record`].
pub struct Done(Vec<Result<bool>>);

impl Planned {
    /// Writes the files (in parallel when there are several).
    pub fn write(self) -> Done {
        use rayon::prelude::*;
        let out = &self.out;
        let write =
            |(rel, bytes, plan): (String, Vec<u8>, Plan)| Stream::write(out, &rel, &bytes, plan);
        Done(if self.files.len() > 1 {
            self.files.into_par_iter().map(write).collect()
        } else {
            self.files.into_iter().map(write).collect()
        })
    }
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
    /// A site that writes each file into `out` as it is added. `out` must
    /// not exist, be empty, or hold an earlier diskdash site (marker file);
    /// anything else is refused unless `force`. Call [`Site::finish`] at the end.
    pub fn streaming(out: &Path, force: bool) -> Result<Site> {
        let fresh = check_out_dir(out, force)?;
        // the marker goes first: a build stopped by a full disk (whose final
        // marker cannot be written either) still leaves a directory the
        // next build accepts without --force
        no_symlink_below(out, MARKER)?;
        let marker = out.join(MARKER);
        if !marker.is_file() {
            // its header: the paths follow as they are added
            fsio::write_atomic(&marker, format!("{MARKER_HEADER}\n").as_bytes())?;
        }
        let list = std::fs::OpenOptions::new()
            .append(true)
            .open(&marker)
            .with_context(|| format!("failed to open `{}`", marker.display()))?;
        let ours_from = list
            .metadata()
            .with_context(|| format!("failed to read `{}`", marker.display()))?
            .len() as usize;
        Ok(Site {
            stream: Some(Stream {
                out: out.to_path_buf(),
                list: std::io::BufWriter::new(list),
                ours_from,
                fresh,
                dirs: HashSet::new(),
                written: Written::default(),
                error: None,
            }),
            ..Site::default()
        })
    }

    /// Adds a file (writing it at once when streaming). A write error is
    /// kept and returned by [`Site::finish`].
    pub fn add(&mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.add_all(vec![(path.into(), bytes.into())]);
    }

    /// Adds files in order, as many [`Site::add`]s would; a streaming site
    /// writes them in parallel.
    pub fn add_all(&mut self, files: Vec<(String, Vec<u8>)>) {
        let planned = self.plan(files);
        let done = planned.write();
        self.record(done);
    }

    /// Adds files and plans their writing: in memory they are added at
    /// once, and nothing is left to write; when streaming they are written
    /// by [`Planned::write`], which needs no site, and the result given to
    /// [`Site::record`]. Between the two, other threads may add files.
    pub fn plan(&mut self, files: Vec<(String, Vec<u8>)>) -> Planned {
        let Some(st) = &mut self.stream else {
            for (path, bytes) in files {
                let page = path.ends_with(".html");
                if self.files.insert(path, bytes).is_none() && page {
                    self.pages += 1;
                }
            }
            return Planned {
                out: PathBuf::new(),
                files: Vec::new(),
            };
        };
        let mut listed = Ok(());
        for (path, _) in &files {
            self.pages += usize::from(path.ends_with(".html"));
            if listed.is_ok() {
                use std::io::Write;
                listed = writeln!(st.list, "{path}");
            }
        }
        if let Err(e) = listed {
            st.error
                .get_or_insert(anyhow::Error::new(e).context(format!(
                    "failed to list the files written in `{}`",
                    st.out.join(MARKER).display()
                )));
        }
        st.plan(files)
    }

    /// Takes in what writing planned files did (see [`Site::plan`]).
    pub fn record(&mut self, done: Done) {
        if let Some(st) = &mut self.stream {
            st.record(done);
        }
    }

    /// Number of HTML pages.
    pub fn pages(&self) -> usize {
        self.pages
    }

    /// Ends a streaming build: removes files an earlier build listed that
    /// this one did not write (no other file is ever deleted) and writes the
    /// marker. After a write error the marker lists both builds' files, so
    /// that nothing diskdash wrote is left unaccounted for, and the error is
    /// returned. An in-memory site has nothing to finish.
    pub fn finish(self) -> Result<Written> {
        let Some(mut st) = self.stream else {
            return Ok(Written::default());
        };
        let marker = st.out.join(MARKER);
        no_symlink_below(&st.out, MARKER)?;
        if let Err(e) = std::io::Write::flush(&mut st.list) {
            st.error
                .get_or_insert(anyhow::Error::new(e).context(format!(
                    "failed to list the files written in `{}`",
                    marker.display()
                )));
        }
        drop(st.list);
        // the marker lists the files of both builds: kept as it is
        if let Some(e) = st.error {
            return Err(e);
        }
        let text = std::fs::read(&marker)
            .with_context(|| format!("failed to read `{}`", marker.display()))?;
        if text.len() < st.ours_from {
            bail!(
                "`{}` changed during the build: it is shorter than when the build began",
                marker.display()
            );
        }
        // earlier builds' files first, then this build's as added, each
        // sorted and listed once below
        let (earlier, ours) = text.split_at(st.ours_from);
        // an earlier line cut short (a build stopped mid-write) names no file
        let earlier = String::from_utf8_lossy(earlier);
        let ours = std::str::from_utf8(ours)
            .with_context(|| format!("`{}` is not UTF-8 text", marker.display()))?;
        fn sorted<'t>(lines: impl Iterator<Item = &'t str>) -> Vec<&'t str> {
            let mut v: Vec<&str> = lines.collect();
            v.sort_unstable();
            v.dedup();
            v
        }
        let ours = sorted(ours.lines());
        let is_ours = |rel: &str| ours.binary_search(&rel).is_ok();
        // only plain relative paths: a marker must never lead outside `out`
        for rel in sorted(earlier.lines().skip(1)) {
            if !is_plain_relative(rel) || is_ours(rel) {
                continue;
            }
            no_symlink_below(&st.out, rel)?;
            let path = st.out.join(rel);
            if path.is_file() {
                std::fs::remove_file(&path)
                    .with_context(|| format!("failed to remove `{}`", path.display()))?;
                st.written.removed += 1;
            }
        }
        // this build's files, sorted, written as they are listed
        fsio::write_atomic_with(&marker, &mut |w| {
            writeln!(w, "{MARKER_HEADER}")?;
            for rel in &ours {
                writeln!(w, "{rel}")?;
            }
            Ok(())
        })?;
        Ok(st.written)
    }

    /// Writes an in-memory site into `out` (see [`Site::streaming`] for
    /// which directories are accepted).
    pub fn write(&self, out: &Path, force: bool) -> Result<Written> {
        let mut target = Site::streaming(out, force)?;
        target.add_all(
            self.files
                .iter()
                .map(|(rel, bytes)| (rel.clone(), bytes.clone()))
                .collect(),
        );
        target.finish()
    }
}

/// Checks the output directory; returns whether it is fresh (missing or
/// empty).
fn check_out_dir(out: &Path, force: bool) -> Result<bool> {
    if !out.exists() {
        return Ok(true);
    }
    if !out.is_dir() {
        bail!("`{}` exists and is not a directory", out.display());
    }
    let marker = out.join(MARKER);
    if marker.is_file() {
        // read at the end, to remove the files this build no longer has
        std::fs::File::open(&marker)
            .with_context(|| format!("failed to read `{}`", marker.display()))?;
        return Ok(false);
    }
    let mut entries =
        std::fs::read_dir(out).with_context(|| format!("failed to read `{}`", out.display()))?;
    let empty = entries.next().is_none();
    if !empty && !force {
        bail!(
            "`{}` is not empty and holds no earlier diskdash site (no `{MARKER}` file); choose an empty directory or pass --force",
            out.display()
        );
    }
    Ok(empty)
}

/// Fails when any component of `rel` below `out` (the file itself
/// included) is a symbolic link: a link inside the site would send a write
/// or a removal outside it. Components that do not exist yet are fine
/// (they are created as plain directories). `out` itself may be a link.
fn no_symlink_below(out: &Path, rel: &str) -> Result<()> {
    let mut path = out.to_path_buf();
    for part in Path::new(rel).components() {
        let Component::Normal(name) = part else {
            bail!("`{rel}` is not a plain relative path inside the site");
        };
        path.push(name);
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => bail!(
                "`{}` is a symbolic link inside the site; diskdash never writes or removes \
                 through one (remove the link, or build into an empty directory)",
                path.display()
            ),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => {
                return Err(e).with_context(|| format!("failed to read `{}`", path.display()))
            }
        }
    }
    Ok(())
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

    #[test]
    fn symlinks_inside_the_site_are_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let victim = dir.path().join("victim");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::create_dir(&victim).unwrap();
        std::fs::write(victim.join("victim.txt"), "keep").unwrap();
        std::os::unix::fs::symlink("../victim", out.join("ext")).unwrap();
        std::fs::write(
            out.join(MARKER),
            format!("{MARKER_HEADER}\next/victim.txt\nindex.html\n"),
        )
        .unwrap();
        let err = site(&[("index.html", "a")]).write(&out, false).unwrap_err();
        assert!(format!("{err:#}").contains("symbolic link"), "{err:#}");
        assert!(victim.join("victim.txt").exists());
        // a linked directory is not written through either
        std::fs::remove_file(out.join("ext")).unwrap();
        std::os::unix::fs::symlink("../victim", out.join("runs")).unwrap();
        let err = site(&[("runs/a.html", "a")])
            .write(&out, false)
            .unwrap_err();
        assert!(format!("{err:#}").contains("symbolic link"), "{err:#}");
        assert_eq!(std::fs::read_dir(&victim).unwrap().count(), 1);
    }

    #[test]
    fn the_marker_lists_each_file_as_it_is_added_and_sorted_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let listed = || std::fs::read_to_string(out.join(MARKER)).unwrap();
        let mut s = Site::streaming(&out, false).unwrap();
        s.add("z.html", "1");
        s.add("a/b.svg", "2");
        s.add("z.html", "3");
        // a build stopped here has listed what it wrote, as it was added;
        // the path added twice holds its second content
        drop(s);
        assert_eq!(
            listed(),
            format!("{MARKER_HEADER}\nz.html\na/b.svg\nz.html\n")
        );
        assert_eq!(std::fs::read_to_string(out.join("z.html")).unwrap(), "3");
        // the next build lists its own, sorted, and removes the rest
        let mut s = Site::streaming(&out, false).unwrap();
        s.add("m.html", "4");
        s.add("z.html", "3");
        assert_eq!(s.pages(), 2);
        let w = s.finish().unwrap();
        assert_eq!(w.removed, 1);
        assert!(!out.join("a/b.svg").exists());
        assert_eq!(listed(), format!("{MARKER_HEADER}\nm.html\nz.html\n"));
    }

    #[test]
    fn a_line_an_earlier_build_left_cut_short_names_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let mut s = Site::streaming(&out, false).unwrap();
        s.add("runs/a.html", "a");
        s.add("runs/b.html", "b");
        s.finish().unwrap();
        // a build stopped while listing `runs/b.html` again
        let marker = out.join(MARKER);
        let mut text = std::fs::read_to_string(&marker).unwrap();
        text.push_str("runs/b.h");
        std::fs::write(&marker, text).unwrap();
        let mut s = Site::streaming(&out, false).unwrap();
        s.add("index.html", "i");
        let w = s.finish().unwrap();
        // both earlier files are gone, and the cut line joined no path of
        // this build's into a name
        assert_eq!(w.removed, 2);
        assert!(!out.join("runs/b.html").exists());
        assert_eq!(
            std::fs::read_to_string(&marker).unwrap(),
            format!("{MARKER_HEADER}\nindex.html\n")
        );
    }

    #[test]
    fn a_failed_write_still_leaves_a_marker_listing_what_was_written() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let mut s = Site::streaming(&out, false).unwrap();
        s.add("a/b.html", "ok");
        // `a` is a directory now: this write fails
        s.add("a", "clash");
        s.add("c.html", "never attempted");
        let err = s.finish().unwrap_err();
        assert!(format!("{err:#}").contains("failed to write"), "{err:#}");
        assert!(!out.join("c.html").exists());
        let marker = std::fs::read_to_string(out.join(MARKER)).unwrap();
        assert!(marker.lines().any(|l| l == "a/b.html"), "{marker}");
        // so the next build is accepted without --force
        assert!(Site::streaming(&out, false).is_ok());
    }
}
