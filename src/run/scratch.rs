//! The one scratch directory `run` writes its test files into: created with
//! a unique name under the target, removed when the run ends however it ends.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// Checks that `target` is an existing directory (not a file, not a device).
pub fn check_target(target: &Path) -> Result<PathBuf> {
    use std::os::unix::fs::FileTypeExt;
    let meta = match std::fs::metadata(target) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!(
                "target `{}` does not exist (expected a directory on the filesystem to test)",
                target.display()
            )
        }
        Err(e) => {
            return Err(e).with_context(|| format!("cannot read target `{}`", target.display()))
        }
    };
    let ft = meta.file_type();
    if ft.is_block_device() || ft.is_char_device() {
        bail!(
            "target `{}` is a device; diskdash never writes to devices: mount a filesystem on it and give a directory there",
            target.display()
        );
    }
    if !ft.is_dir() {
        bail!(
            "target `{}` is not a directory (expected a directory on the filesystem to test)",
            target.display()
        );
    }
    std::fs::canonicalize(target)
        .with_context(|| format!("cannot resolve target `{}`", target.display()))
}

/// The scratch directory; removed (with everything in it) on drop.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
    /// Device and inode of the directory as created: the same path on
    /// another device (a volume unmounted under the run) is not it.
    dev_ino: (u64, u64),
    /// `.lock` inside it, locked (flock) for as long as the run lives: a
    /// scratch directory whose lock can be taken was left behind.
    _lock: std::fs::File,
    removed: bool,
}

/// The lock file inside a scratch directory.
const LOCK: &str = ".lock";

/// A scratch directory found under a target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Where it is.
    pub path: PathBuf,
    /// The run id in its name.
    pub run_id: String,
    /// Bytes its files take.
    pub bytes: u64,
    /// Whether the run that made it still holds its lock.
    pub alive: bool,
}

/// Every `.diskdash-scratch-*` directory directly under `target`, sorted by
/// name, with its size and whether its run is alive. A directory without a
/// lock file (or whose lock can be taken) belongs to a run that is gone:
/// killed with SIGKILL, by the OOM killer, or a crash of the machine.
pub fn scratches(target: &Path) -> Vec<Found> {
    let Ok(entries) = std::fs::read_dir(target) else {
        return Vec::new();
    };
    let mut out: Vec<Found> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let run_id = name.strip_prefix(".diskdash-scratch-")?.to_string();
            let path = e.path();
            Some(Found {
                bytes: tree_bytes(&path),
                alive: is_locked(&path.join(LOCK)),
                path,
                run_id,
            })
        })
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// One line about a found scratch directory, for `doctor` and `run`.
pub fn describe(found: &Found) -> String {
    format!(
        "`{}`: run {}, {}, {}",
        crate::term::shown(&found.path),
        found.run_id,
        super::gib(found.bytes),
        if found.alive {
            "still running"
        } else {
            "left behind by a run that is gone (remove it with `diskdash run --clean-stale`)"
        }
    )
}

/// Bytes of the regular files below `dir` (links not followed).
fn tree_bytes(dir: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.blocks() * 512)
        .sum()
}

/// Whether another process holds the lock on `path`.
fn is_locked(path: &Path) -> bool {
    use std::os::fd::AsRawFd;
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    // SAFETY: flock(2) on a descriptor we own; the lock, if taken, goes
    // with the file when it is closed below.
    let r = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    r != 0
}

/// Removes a scratch directory left behind by a run that is not alive;
/// refuses one whose run still holds its lock.
pub fn remove_stale(found: &Found) -> Result<()> {
    if is_locked(&found.path.join(LOCK)) {
        bail!(
            "`{}` belongs to a run that is still going; left alone",
            found.path.display()
        );
    }
    remove_tree(&found.path)
}

/// The scratch directory name for a run id.
/// The other runs alive on `target` (their scratch directories' locks
/// held), `own` left out.
pub fn others_alive(target: &Path, own: &str) -> Vec<Found> {
    scratches(target)
        .into_iter()
        .filter(|f| f.alive && f.run_id != own)
        .collect()
}

/// Why a run does not start on `target` while `other` runs there: two runs
/// at once would each measure a share of the disk.
pub fn busy(target: &Path, other: &Found) -> String {
    format!(
        "another diskdash run ({}) is measuring `{}` (its scratch directory `{}` is in use); \
         two runs on one volume would each measure a share of it: wait for it to end, or \
         run on another volume",
        other.run_id,
        crate::term::shown(target),
        crate::term::shown(&other.path)
    )
}

pub fn scratch_name(run_id: &str) -> String {
    format!(".diskdash-scratch-{run_id}")
}

impl Scratch {
    /// Creates `path`; fails if it exists, so two runs never share one.
    pub fn create(path: PathBuf) -> Result<Scratch> {
        std::fs::create_dir(&path).with_context(|| {
            format!(
                "cannot create the scratch directory `{}` (is the target writable?)",
                path.display()
            )
        })?;
        let dev_ino = dev_ino(&path)
            .with_context(|| format!("cannot read the scratch directory `{}`", path.display()))?;
        let lock = lock_file(&path.join(LOCK))?;
        Ok(Scratch {
            path,
            dev_ino,
            _lock: lock,
            removed: false,
        })
    }

    /// Checks that the scratch directory is still the one created, on the
    /// same device: fails with "target vanished" when the target was
    /// removed, unmounted or replaced under the run, so that no test
    /// measures another disk.
    pub fn verify(&self) -> Result<()> {
        match dev_ino(&self.path) {
            Ok(now) if now == self.dev_ino => Ok(()),
            Ok(_) => bail!(
                "target vanished: `{}` is no longer the scratch directory this run created \
                 (the target was unmounted or replaced); the run stopped",
                self.path.display()
            ),
            Err(e) => bail!(
                "target vanished: the scratch directory `{}` is gone ({e}; the target was \
                 removed or unmounted); the run stopped",
                self.path.display()
            ),
        }
    }

    /// Creates one job's directory inside it (never its parents: a
    /// vanished scratch directory is not recreated elsewhere).
    pub fn create_job_dir(&self, job_dir: &Path) -> Result<()> {
        self.verify()?;
        if job_dir.parent() != Some(self.path.as_path()) {
            bail!(
                "job directory `{}` is not inside the scratch directory `{}`",
                job_dir.display(),
                self.path.display()
            );
        }
        std::fs::create_dir(job_dir)
            .with_context(|| format!("failed to create directory `{}`", job_dir.display()))
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Removes one job's directory inside it, so the next test has the space.
    /// Nothing is removed from a directory that replaced the scratch.
    pub fn clear(&self, job_dir: &Path) -> Result<()> {
        if job_dir.starts_with(&self.path) && job_dir.exists() && self.verify().is_ok() {
            std::fs::remove_dir_all(job_dir)
                .with_context(|| format!("cannot remove `{}`", job_dir.display()))?;
        }
        Ok(())
    }

    /// Removes the directory and everything in it.
    /// A directory that replaced it under the same name is not ours and
    /// is left alone.
    pub fn remove(mut self) -> Result<()> {
        self.removed = true;
        if self.verify().is_err() {
            return Ok(());
        }
        remove_tree(&self.path)
    }
}

/// Creates `path` and holds an exclusive lock on it.
fn lock_file(path: &Path) -> Result<std::fs::File> {
    use std::os::fd::AsRawFd;
    let f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("cannot create `{}`", path.display()))?;
    // SAFETY: flock(2) on a descriptor we own.
    if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return Err(std::io::Error::last_os_error())
            .with_context(|| format!("cannot lock `{}`", path.display()));
    }
    Ok(f)
}

/// Device and inode of `path` itself (a symlink is not followed).
fn dev_ino(path: &Path) -> std::io::Result<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::symlink_metadata(path)?;
    if !m.is_dir() {
        return Err(std::io::Error::other("not a directory"));
    }
    Ok((m.dev(), m.ino()))
}

fn remove_tree(path: &Path) -> Result<()> {
    match std::fs::remove_dir_all(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("cannot remove scratch `{}`", path.display())),
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !self.removed && self.verify().is_ok() {
            if let Err(e) = remove_tree(&self.path) {
                crate::tell!("warning: {}", crate::term::shown(&e));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_that_are_not_directories_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let e = check_target(&file).unwrap_err().to_string();
        assert!(e.contains("is not a directory"), "{e}");
        let e = check_target(&dir.path().join("nope"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not exist"), "{e}");
        let e = check_target(Path::new("/dev/null"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a device"), "{e}");
        assert_eq!(
            check_target(dir.path()).unwrap(),
            dir.path().canonicalize().unwrap()
        );
    }

    #[test]
    fn scratch_is_unique_and_gone_after_drop() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(scratch_name("r1"));
        {
            let s = Scratch::create(p.clone()).unwrap();
            std::fs::create_dir(s.path().join("job")).unwrap();
            std::fs::write(s.path().join("job/data"), "x").unwrap();
            assert!(Scratch::create(p.clone()).is_err());
        }
        assert!(!p.exists());
    }

    #[test]
    fn scratches_of_runs_gone_are_told_from_live_ones() {
        let dir = tempfile::tempdir().unwrap();
        let live = Scratch::create(dir.path().join(scratch_name("live"))).unwrap();
        let stale = dir.path().join(scratch_name("gone"));
        std::fs::create_dir_all(stale.join("job.r1")).unwrap();
        std::fs::write(stale.join("job.r1/data"), vec![1u8; 8192]).unwrap();
        std::fs::write(stale.join(LOCK), "").unwrap();
        let found = scratches(dir.path());
        assert_eq!(found.len(), 2);
        assert_eq!((found[0].run_id.as_str(), found[0].alive), ("gone", false));
        assert!(found[0].bytes >= 8192, "{}", found[0].bytes);
        assert_eq!((found[1].run_id.as_str(), found[1].alive), ("live", true));
        assert!(remove_stale(&found[1]).is_err());
        remove_stale(&found[0]).unwrap();
        assert!(!stale.exists());
        assert!(live.path().exists());
    }

    #[test]
    fn a_scratch_removed_or_replaced_is_noticed_and_not_recreated() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(scratch_name("r1"));
        let s = Scratch::create(p.clone()).unwrap();
        s.verify().unwrap();
        s.create_job_dir(&p.join("a.r1")).unwrap();
        std::fs::remove_dir_all(&p).unwrap();
        let e = s.create_job_dir(&p.join("b.r1")).unwrap_err();
        assert!(format!("{e:#}").starts_with("target vanished"), "{e:#}");
        assert!(!p.exists());
        // same path, another directory (made while the first still exists,
        // so that it cannot reuse its inode)
        std::fs::create_dir(&p).unwrap();
        let s = Scratch::create(dir.path().join("second")).unwrap();
        let other = dir.path().join("other");
        std::fs::create_dir(&other).unwrap();
        std::fs::remove_dir_all(s.path()).unwrap();
        std::fs::rename(&other, s.path()).unwrap();
        let e = s.verify().unwrap_err();
        assert!(
            format!("{e:#}").contains("no longer the scratch directory"),
            "{e:#}"
        );
    }
}
