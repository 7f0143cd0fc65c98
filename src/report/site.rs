//! Where a site's files go: one [`Output`] that every page, chart and data
//! file is written through, into a directory ([`Dir`], the command) or into
//! memory ([`Memory`], tests and snapshots). The build does not know which.

use std::collections::{BTreeMap, HashSet};
use std::io::Write as _;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};

use crate::fsio;

/// Marks a directory as a diskdash site; holds the list of files written.
pub const MARKER: &str = ".diskdash-site";
const MARKER_HEADER: &str =
    "diskdash site: files written by `diskdash report` (safe to delete the directory)";

/// Where a build writes its files. Pages are built in parallel, so files
/// are written from several threads at once; a path written twice holds
/// the second content (two pages writing one path write the same bytes).
pub trait Output: Sync {
    /// Writes the file at `path`, relative with `/`.
    fn write(&self, path: &str, bytes: &[u8]) -> Result<()>;
}

/// A site held in memory.
#[derive(Debug, Default)]
pub struct Memory(Mutex<BTreeMap<String, Vec<u8>>>);

impl Output for Memory {
    fn write(&self, path: &str, bytes: &[u8]) -> Result<()> {
        let mut files = self.0.lock().unwrap_or_else(|e| e.into_inner());
        files.insert(path.to_string(), bytes.to_vec());
        Ok(())
    }
}

impl Memory {
    /// The files written.
    pub fn into_site(self) -> Site {
        Site {
            files: self.0.into_inner().unwrap_or_else(|e| e.into_inner()),
        }
    }
}

/// A site's files: relative path (with `/`) to content.
#[derive(Debug, Default)]
pub struct Site {
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Site {
    /// Writes the files into `out` (see [`Dir::open`] for which
    /// directories are accepted).
    pub fn write(&self, out: &Path, force: bool) -> Result<Written> {
        let dir = Dir::open(out, force)?;
        for (path, bytes) in &self.files {
            dir.write(path, bytes)?;
        }
        dir.finish()
    }
}

/// A site written into a directory, file by file as the build makes them.
///
/// Every path is listed in the directory's marker before its file is
/// written, after the files of earlier builds, so that a build stopped on
/// the way leaves every file it wrote listed and the next build accepts the
/// directory. [`Dir::finish`] removes the files an earlier build listed
/// that this one did not write, and lists this build's files alone.
#[derive(Debug)]
pub struct Dir {
    out: PathBuf,
    /// The directory held nothing when the build began: no earlier file to
    /// compare with, and no reader of a page that is half written, so files
    /// are created directly (never over an existing one) instead of through
    /// a temp file and a rename.
    fresh: bool,
    /// The files an earlier build listed, as the marker held them.
    earlier: Vec<u8>,
    /// The plain relative paths of `earlier`: the files diskdash may
    /// replace without --force.
    listed: HashSet<String>,
    /// Whether files the site did not write may be replaced (--force).
    force: bool,
    state: Mutex<State>,
    /// The directory itself, open and locked (`flock`) for the build: a
    /// second build into it stops rather than mixing two sites.
    _lock: std::fs::File,
}

#[derive(Debug)]
struct State {
    /// The marker, open for adding each path as it is written: each
    /// line goes to the file in one write before its file is written, so a
    /// build killed on the way leaves every file it wrote listed.
    list: std::fs::File,
    /// The paths written, one a line, in the order written.
    ours: String,
    /// Directories below `out` (relative, with `/`) known to be plain
    /// directories that exist: each is checked and created once.
    dirs: HashSet<String>,
    /// The files this build created where none was: written again, they
    /// are still the site's own.
    created: HashSet<String>,
    written: Written,
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
    /// HTML pages written.
    pub pages: usize,
    /// Files the site had not written that --force replaced, by path.
    pub forced: Vec<String>,
}

impl Dir {
    /// Opens `out` for a build. `out` must not exist, be empty, or hold an
    /// earlier diskdash site (marker file); anything else is refused unless
    /// `force`. Call [`Dir::finish`] at the end.
    pub fn open(out: &Path, force: bool) -> Result<Dir> {
        if out.exists() && !out.is_dir() {
            bail!("`{}` exists and is not a directory", out.display());
        }
        let existed = out.exists();
        fsio::create_dir(out)?;
        let lock = lock(out)?;
        let fresh = match check_out_dir(out, force) {
            Ok(fresh) => fresh,
            Err(e) => {
                // what this build made, it takes back
                if !existed {
                    let _ = std::fs::remove_dir(out);
                }
                return Err(e);
            }
        };
        // the marker goes first: a build stopped by a full disk (whose final
        // marker cannot be written either) still leaves a directory the
        // next build accepts without --force
        no_symlink_below(out, MARKER)?;
        let marker = out.join(MARKER);
        let earlier = if marker.is_file() {
            std::fs::read(&marker)
                .with_context(|| format!("failed to read `{}`", marker.display()))?
        } else {
            // its header: the paths follow as they are written
            fsio::write_atomic(&marker, format!("{MARKER_HEADER}\n").as_bytes())?;
            Vec::new()
        };
        let mut list = std::fs::OpenOptions::new()
            .append(true)
            .open(&marker)
            .with_context(|| format!("failed to open `{}`", marker.display()))?;
        // a line an earlier build left cut short is ended: no path of this
        // build's is joined to it
        if !earlier.is_empty() && !earlier.ends_with(b"\n") {
            list.write_all(b"\n").with_context(|| listing(&marker))?;
        }
        if !fresh {
            remove_temp_files(out)?;
        }
        let listed = earlier
            .split(|&b| b == b'\n')
            .skip(1)
            .filter_map(|l| std::str::from_utf8(l).ok())
            .filter(|rel| is_plain_relative(rel))
            .map(str::to_string)
            .collect();
        Ok(Dir {
            out: out.to_path_buf(),
            fresh,
            force,
            listed,
            _lock: lock,
            earlier,
            state: Mutex::new(State {
                list,
                ours: String::new(),
                dirs: HashSet::new(),
                created: HashSet::new(),
                written: Written::default(),
            }),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Lists `rel` in the marker and makes sure its directory exists below
    /// `out` as plain directories (no symbolic link on the way), checking
    /// each once.
    fn prepare(&self, rel: &str) -> Result<()> {
        let mut st = self.state();
        st.ours.push_str(rel);
        st.ours.push('\n');
        // one write of the whole line: a kill never leaves half a path
        st.list
            .write_all(format!("{rel}\n").as_bytes())
            .with_context(|| listing(&self.out.join(MARKER)))?;
        let Some((dir, _)) = rel.rsplit_once('/') else {
            return Ok(());
        };
        if st.dirs.contains(dir) {
            return Ok(());
        }
        no_symlink_below(&self.out, dir)?;
        fsio::create_dir(&self.out.join(dir))?;
        let mut at = dir;
        loop {
            st.dirs.insert(at.to_string());
            match at.rsplit_once('/') {
                Some((parent, _)) => at = parent,
                None => break,
            }
        }
        Ok(())
    }

    /// Fails when a file the site did not write (no build listed it, this
    /// one did not create it) is at `rel`, unless --force, which has it
    /// named; checked before `rel` is listed, so that a refused build never
    /// lists the user's file as the site's.
    fn refuse_foreign(&self, rel: &str) -> Result<()> {
        if self.fresh || self.listed.contains(rel) || self.state().created.contains(rel) {
            return Ok(());
        }
        let full = self.out.join(rel);
        if std::fs::symlink_metadata(&full).is_err() {
            return Ok(());
        }
        if !self.force {
            bail!(
                "`{}` was not written by diskdash (the site's `{MARKER}` does not list it) and \
                 this build writes that path; move it away, or pass --force to replace it",
                full.display()
            );
        }
        self.state().written.forced.push(rel.to_string());
        Ok(())
    }

    /// Writes one file; `true` when its content changed.
    fn put(&self, rel: &str, bytes: &[u8]) -> Result<bool> {
        let full = self.out.join(rel);
        if self.fresh {
            match fsio::write_fresh(&full, bytes) {
                // a path written twice is there already: it is replaced
                Err(e)
                    if e.downcast_ref::<std::io::Error>().map(std::io::Error::kind)
                        == Some(std::io::ErrorKind::AlreadyExists) => {}
                written => {
                    written?;
                    self.state().created.insert(rel.to_string());
                    return Ok(true);
                }
            }
        }
        // the directories were checked; the file itself may be a link
        let meta = match std::fs::symlink_metadata(&full) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => {
                return Err(e).with_context(|| format!("failed to read `{}`", full.display()))
            }
        };
        if let Some(m) = &meta {
            if m.file_type().is_symlink() {
                bail!(
                    "`{}` is a symbolic link inside the site; diskdash never writes or removes \
                     through one (remove the link, or build into an empty directory)",
                    full.display()
                );
            }
            if !m.is_file() {
                bail!(
                    "`{}` is not a regular file (a directory, FIFO, device or socket) where the \
                     site writes one; remove it",
                    full.display()
                );
            }
            // unchanged files keep their modification time: rebuilds stay cheap
            if m.len() == bytes.len() as u64 && same_bytes(&full, bytes)? {
                return Ok(false);
            }
        }
        fsio::replace_unsynced(&full, bytes)?;
        if meta.is_none() {
            self.state().created.insert(rel.to_string());
        }
        Ok(true)
    }

    /// Ends the build: removes files an earlier build listed that this one
    /// did not write (no other file is ever deleted) and lists this build's
    /// files in the marker, sorted. A build that failed is not finished:
    /// its marker lists both builds' files, so that nothing diskdash wrote
    /// is left unaccounted for.
    pub fn finish(self) -> Result<Written> {
        let marker = self.out.join(MARKER);
        no_symlink_below(&self.out, MARKER)?;
        let State {
            list,
            ours,
            mut written,
            ..
        } = self.state.into_inner().unwrap_or_else(|e| e.into_inner());
        drop(list);
        fn sorted<'t>(lines: impl Iterator<Item = &'t str>) -> Vec<&'t str> {
            let mut v: Vec<&str> = lines.collect();
            v.sort_unstable();
            v.dedup();
            v
        }
        let ours = sorted(ours.lines());
        // a path written twice is one page
        written.pages = ours.iter().filter(|p| p.ends_with(".html")).count();
        let is_ours = |rel: &str| ours.binary_search(&rel).is_ok();
        // only plain relative paths: a marker must never lead outside `out`;
        // a line that is not UTF-8 (one cut short, say) names no file
        let earlier = self.earlier.split(|&b| b == b'\n').skip(1);
        for rel in sorted(earlier.filter_map(|l| std::str::from_utf8(l).ok())) {
            if !is_plain_relative(rel) || is_ours(rel) {
                continue;
            }
            no_symlink_below(&self.out, rel)?;
            let path = self.out.join(rel);
            if path.is_file() {
                std::fs::remove_file(&path)
                    .with_context(|| format!("failed to remove `{}`", path.display()))?;
                written.removed += 1;
            }
        }
        fsio::write_atomic_with(&marker, &mut |w| {
            writeln!(w, "{MARKER_HEADER}")?;
            for rel in &ours {
                writeln!(w, "{rel}")?;
            }
            Ok(())
        })?;
        written.forced.sort();
        written.forced.dedup();
        Ok(written)
    }
}

impl Output for Dir {
    fn write(&self, path: &str, bytes: &[u8]) -> Result<()> {
        self.refuse_foreign(path)?;
        self.prepare(path)?;
        let changed = self.put(path, bytes)?;
        let mut st = self.state();
        if changed {
            st.written.changed += 1;
        } else {
            st.written.unchanged += 1;
        }
        Ok(())
    }
}

/// Takes the build's lock on `out`: an exclusive `flock` on the directory
/// itself (no file is added to the site), refused at once when another
/// build holds it.
fn lock(out: &Path) -> Result<std::fs::File> {
    use std::os::fd::AsRawFd;
    let dir =
        std::fs::File::open(out).with_context(|| format!("failed to open `{}`", out.display()))?;
    // SAFETY: flock on a descriptor this function owns
    if unsafe { libc::flock(dir.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let e = std::io::Error::last_os_error();
        if e.kind() == std::io::ErrorKind::WouldBlock {
            bail!(
                "another `diskdash report` is building into `{}`; two builds into one directory \
                 would mix their sites: wait for it to end, or build into another directory",
                out.display()
            );
        }
        return Err(e).with_context(|| format!("failed to lock `{}`", out.display()));
    }
    Ok(dir)
}

/// Removes the temp files (`.diskdash-tmp-*`) a killed build left below
/// `out`, never following a link: they are no page, and would be published.
fn remove_temp_files(out: &Path) -> Result<()> {
    for e in walkdir::WalkDir::new(out).follow_links(false) {
        let e = e.with_context(|| format!("failed to read `{}`", out.display()))?;
        if e.file_type().is_file()
            && e.file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(fsio::TEMP_PREFIX))
        {
            std::fs::remove_file(e.path())
                .with_context(|| format!("failed to remove `{}`", e.path().display()))?;
        }
    }
    Ok(())
}

/// Whether the file at `path` holds exactly `bytes`, read in chunks (a
/// page the size of the new one, but never the whole of a large file).
fn same_bytes(path: &Path, bytes: &[u8]) -> Result<bool> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)
        .with_context(|| format!("failed to read `{}`", path.display()))?;
    let mut buf = vec![0u8; 64 << 10];
    let mut at = 0;
    loop {
        let n = file
            .read(&mut buf)
            .with_context(|| format!("failed to read `{}`", path.display()))?;
        if n == 0 {
            return Ok(at == bytes.len());
        }
        if at + n > bytes.len() || buf[..n] != bytes[at..at + n] {
            return Ok(false);
        }
        at += n;
    }
}

fn listing(marker: &Path) -> String {
    format!("failed to list the files written in `{}`", marker.display())
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
    if out.join(MARKER).is_file() {
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
        let mem = Memory::default();
        for (p, c) in files {
            mem.write(p, c.as_bytes()).unwrap();
        }
        mem.into_site()
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
                removed: 1,
                pages: 2,
                forced: Vec::new(),
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
    fn the_marker_lists_each_file_as_it_is_written_and_sorted_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let listed = || std::fs::read_to_string(out.join(MARKER)).unwrap();
        let d = Dir::open(&out, false).unwrap();
        d.write("z.html", b"1").unwrap();
        d.write("a/b.svg", b"2").unwrap();
        d.write("z.html", b"3").unwrap();
        // a build stopped here has listed what it wrote, as it was written;
        // the path written twice holds its second content
        drop(d);
        assert_eq!(
            listed(),
            format!("{MARKER_HEADER}\nz.html\na/b.svg\nz.html\n")
        );
        assert_eq!(std::fs::read_to_string(out.join("z.html")).unwrap(), "3");
        // the next build lists its own, sorted, and removes the rest
        let d = Dir::open(&out, false).unwrap();
        d.write("m.html", b"4").unwrap();
        d.write("z.html", b"3").unwrap();
        let w = d.finish().unwrap();
        assert_eq!(w.pages, 2);
        assert_eq!(w.removed, 1);
        assert!(!out.join("a/b.svg").exists());
        assert_eq!(listed(), format!("{MARKER_HEADER}\nm.html\nz.html\n"));
    }

    #[test]
    fn a_line_an_earlier_build_left_cut_short_names_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let d = Dir::open(&out, false).unwrap();
        d.write("runs/a.html", b"a").unwrap();
        d.write("runs/b.html", b"b").unwrap();
        d.finish().unwrap();
        // a build stopped while listing `runs/b.html` again
        let marker = out.join(MARKER);
        let mut text = std::fs::read_to_string(&marker).unwrap();
        text.push_str("runs/b.h");
        std::fs::write(&marker, text).unwrap();
        let d = Dir::open(&out, false).unwrap();
        d.write("index.html", b"i").unwrap();
        let w = d.finish().unwrap();
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
        let d = Dir::open(&out, false).unwrap();
        d.write("a/b.html", b"ok").unwrap();
        // `a` is a directory now: this write fails, and the build with it
        let err = d.write("a", b"clash").unwrap_err();
        assert!(
            format!("{err:#}").contains("is not a regular file"),
            "{err:#}"
        );
        drop(d);
        let marker = std::fs::read_to_string(out.join(MARKER)).unwrap();
        assert!(marker.lines().any(|l| l == "a/b.html"), "{marker}");
        // so the next build is accepted without --force
        assert!(Dir::open(&out, false).is_ok());
    }

    #[test]
    fn a_file_the_site_did_not_write_is_replaced_only_with_force_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        site(&[("index.html", "a")]).write(&out, false).unwrap();
        // the user adds a file at a path a later build writes
        std::fs::write(out.join("notes.md"), "mine").unwrap();
        let later = site(&[("index.html", "a"), ("notes.md", "the site's")]);
        let err = format!("{:#}", later.write(&out, false).unwrap_err());
        assert!(
            err.contains("notes.md` was not written by diskdash"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(out.join("notes.md")).unwrap(),
            "mine"
        );
        let w = later.write(&out, true).unwrap();
        assert_eq!(w.forced, ["notes.md"]);
        // now the site's own: no --force needed, nothing named
        let w = later.write(&out, false).unwrap();
        assert!(w.forced.is_empty());
    }

    #[test]
    fn a_fifo_or_a_huge_file_in_the_site_is_never_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        site(&[("index.html", "a"), ("style.css", "b")])
            .write(&out, false)
            .unwrap();
        // a FIFO where a page goes: refused at once, not waited on
        std::fs::remove_file(out.join("index.html")).unwrap();
        let c = std::ffi::CString::new(out.join("index.html").to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = format!(
            "{:#}",
            site(&[("index.html", "a")]).write(&out, false).unwrap_err()
        );
        assert!(err.contains("index.html` is not a regular file"), "{err}");
        std::fs::remove_file(out.join("index.html")).unwrap();
        // a sparse 4 GiB file at style.css: its size says it differs
        let f = std::fs::File::options()
            .write(true)
            .open(out.join("style.css"))
            .unwrap();
        f.set_len(4 << 30).unwrap();
        let w = site(&[("index.html", "a"), ("style.css", "b")])
            .write(&out, false)
            .unwrap();
        assert_eq!(w.changed, 2);
        assert_eq!(std::fs::read_to_string(out.join("style.css")).unwrap(), "b");
        // one of the same size and other bytes is told apart too
        std::fs::write(out.join("style.css"), "c").unwrap();
        let w = site(&[("index.html", "a"), ("style.css", "b")])
            .write(&out, false)
            .unwrap();
        assert_eq!((w.changed, w.unchanged), (1, 1));
    }

    #[test]
    fn temp_files_a_killed_build_left_are_removed_and_a_second_build_waits_its_turn() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        site(&[("runs/a.html", "a")]).write(&out, false).unwrap();
        let left = out.join("runs").join(format!("{}x1", fsio::TEMP_PREFIX));
        std::fs::write(&left, "half a page").unwrap();
        let first = Dir::open(&out, false).unwrap();
        assert!(!left.exists());
        let err = format!("{:#}", Dir::open(&out, false).unwrap_err());
        assert!(
            err.starts_with("another `diskdash report` is building into `"),
            "{err}"
        );
        first.finish().unwrap();
        assert!(Dir::open(&out, false).is_ok());
    }
}
