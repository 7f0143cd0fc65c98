//! The runs measuring each device now: every `run` keeps a file for itself
//! in one registry directory while it measures, locked (flock) for as long
//! as it lives, so that a run on another directory of the same device is
//! seen and the records of the tests it overlapped say so. The scratch
//! directory's lock ([`super::scratch`]) stops a second run on the same
//! target; this one only tells.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use serde::{Deserialize, Serialize};

/// The environment variable naming the registry directory; when set, it is
/// the only one used.
pub const ENV: &str = "DISKDASH_RUN_REGISTRY";

/// How often the registry is read while a test runs.
pub const POLL: Duration = Duration::from_secs(1);

/// The longest entry file read, and the longest run id and target path
/// taken from one.
const MAX_ENTRY_BYTES: u64 = 16 << 10;
const MAX_RUN_ID_CHARS: usize = 64;
const MAX_TARGET_CHARS: usize = 1024;

/// The registry directories: `$DISKDASH_RUN_REGISTRY` alone when set,
/// else `/run/lock/diskdash` and then `diskdash-runs` in the temporary
/// directory. A run registers in the first it can write and looks in all,
/// so that a run that could not write the first is still seen.
pub fn dirs() -> Vec<PathBuf> {
    match std::env::var_os(ENV).filter(|v| !v.is_empty()) {
        Some(d) => vec![PathBuf::from(d)],
        None => vec![
            PathBuf::from("/run/lock/diskdash"),
            std::env::temp_dir().join("diskdash-runs"),
        ],
    }
}

/// A device number as `major:minor`.
pub fn device_name(dev: u64) -> String {
    format!("{}:{}", libc::major(dev), libc::minor(dev))
}

/// What a run's file says of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The run's id.
    pub run_id: String,
    /// Its target.
    pub target: String,
    /// The target's device, `major:minor`.
    pub device: String,
    /// Its process.
    pub pid: u32,
}

impl Entry {
    /// The sentence a record of a test this run overlapped carries.
    pub fn warning(&self) -> String {
        format!(
            "another diskdash run (run id {}, target {}) measured the same device ({}) during \
             this test: its figures may be shared with that run",
            self.run_id, self.target, self.device
        )
    }
}

/// Where to look for the runs on one device, and which run is ours.
#[derive(Clone, Debug)]
struct Look {
    dirs: Vec<PathBuf>,
    dev: u64,
    own: String,
}

impl Look {
    fn others(&self) -> Vec<Entry> {
        others(&self.dirs, self.dev, &self.own)
    }
}

/// This run's entry: its file, locked; removed when dropped.
#[derive(Debug)]
pub struct Registered {
    look: Look,
    path: PathBuf,
    /// Held (and its flock with it) until the file is removed.
    lock: Option<File>,
}

/// The file name prefix of the entries of device `dev`.
fn prefix(dev: u64) -> String {
    format!("{}-{}.", libc::major(dev), libc::minor(dev))
}

impl Registered {
    /// Registers run `run_id` on `target` (of device `dev`) in the first of
    /// `dirs` that can be written; the error is the last one's.
    pub fn join(dirs: &[PathBuf], dev: u64, run_id: &str, target: &Path) -> Result<Registered> {
        let entry = Entry {
            run_id: run_id.to_string(),
            target: target.display().to_string(),
            device: device_name(dev),
            pid: std::process::id(),
        };
        let mut last = anyhow!("no registry directory");
        for dir in dirs {
            match write_entry(dir, dev, &entry) {
                Ok((path, lock)) => {
                    return Ok(Registered {
                        look: Look {
                            dirs: dirs.to_vec(),
                            dev,
                            own: run_id.to_string(),
                        },
                        path,
                        lock: Some(lock),
                    })
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// The other runs alive on the device now.
    pub fn others(&self) -> Vec<Entry> {
        self.look.others()
    }

    /// Starts reading the registry every `every` in a thread, gathering
    /// the other runs seen (see [`Watch`]).
    pub fn watch(&self, every: Duration) -> Watch {
        let seen: Arc<Mutex<BTreeMap<String, Entry>>> = Arc::default();
        let (stop, stopped) = mpsc::channel::<()>();
        let look = self.look.clone();
        let gathered = Arc::clone(&seen);
        let thread = std::thread::Builder::new()
            .name("run-registry".into())
            .spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                    add(&gathered, look.others());
                }
            })
            .ok();
        Watch {
            look: self.look.clone(),
            seen,
            stop: Some(stop),
            thread,
        }
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        // removed before the lock goes: a file seen unlocked is stale
        let _ = std::fs::remove_file(&self.path);
        drop(self.lock.take());
    }
}

/// Creates the directory if need be. Another user's runs register in the
/// next directory when they cannot write this one, and are read in both.
fn ensure_dir(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create `{}`", dir.display()))
}

/// Writes `entry` into `dir` under a temporary name, locks it, and renames
/// it into place: a file under its final name is locked from the start.
fn write_entry(dir: &Path, dev: u64, entry: &Entry) -> Result<(PathBuf, File)> {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    ensure_dir(dir)?;
    let name = format!("{}{}.{}.run", prefix(dev), entry.run_id, entry.pid);
    let path = dir.join(&name);
    let tmp = dir.join(format!(".{name}.tmp"));
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&tmp)
        .with_context(|| format!("cannot create `{}`", tmp.display()))?;
    let done = (|| -> Result<()> {
        // SAFETY: flock(2) on a descriptor we own.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            return Err(std::io::Error::last_os_error())
                .with_context(|| format!("cannot lock `{}`", tmp.display()));
        }
        f.write_all(serde_json::to_string(entry)?.as_bytes())
            .with_context(|| format!("cannot write `{}`", tmp.display()))?;
        std::fs::rename(&tmp, &path).with_context(|| format!("cannot rename `{}`", tmp.display()))
    })();
    if let Err(e) = done {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok((path, f))
}

/// The runs alive on device `dev` registered in `dirs`, run `own` left out,
/// sorted by run id. A file nobody holds the lock of belongs to a run that
/// is gone (killed, crashed): it is removed; one that does not read as an
/// entry is left out.
pub fn others(dirs: &[PathBuf], dev: u64, own: &str) -> Vec<Entry> {
    let prefix = prefix(dev);
    let mut found: BTreeMap<String, Entry> = BTreeMap::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for e in entries.filter_map(|e| e.ok()) {
            let name = e.file_name().to_string_lossy().into_owned();
            if !name.starts_with(&prefix) || !name.ends_with(".run") {
                continue;
            }
            if let Some(entry) = read_live(&e.path()).filter(|x| x.run_id != own) {
                found.insert(entry.run_id.clone(), entry);
            }
        }
    }
    found.into_values().collect()
}

/// The entry in the file at `path` when its run still holds its lock; a
/// file whose lock can be taken is removed.
fn read_live(path: &Path) -> Option<Entry> {
    use std::io::Read;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    // SAFETY: flock(2) on a descriptor we own; the lock, if taken, goes
    // with the file when it is closed.
    if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        let _ = std::fs::remove_file(path);
        return None;
    }
    let mut text = String::new();
    f.take(MAX_ENTRY_BYTES).read_to_string(&mut text).ok()?;
    let mut entry: Entry = serde_json::from_str(&text).ok()?;
    let id_ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if entry.run_id.is_empty()
        || entry.run_id.chars().count() > MAX_RUN_ID_CHARS
        || !entry.run_id.chars().all(id_ok)
    {
        return None;
    }
    entry.target = entry
        .target
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_TARGET_CHARS)
        .collect();
    entry.device = entry
        .device
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == ':')
        .take(32)
        .collect();
    Some(entry)
}

fn add(seen: &Mutex<BTreeMap<String, Entry>>, entries: Vec<Entry>) {
    let mut s = seen.lock().unwrap_or_else(|e| e.into_inner());
    for e in entries {
        s.entry(e.run_id.clone()).or_insert(e);
    }
}

/// The other runs seen on the device, read every [`POLL`] in a thread:
/// [`Watch::begin`] before a test and [`Watch::end`] after it give those
/// seen while it ran. The thread stops when this is dropped.
#[derive(Debug)]
pub struct Watch {
    look: Look,
    seen: Arc<Mutex<BTreeMap<String, Entry>>>,
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Watch {
    /// Forgets what was seen before, and reads the registry now.
    pub fn begin(&self) {
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).clear();
        add(&self.seen, self.look.others());
    }

    /// Reads the registry now, and gives every other run seen since
    /// [`Watch::begin`], sorted by run id.
    pub fn end(&self) -> Vec<Entry> {
        add(&self.seen, self.look.others());
        std::mem::take(&mut *self.seen.lock().unwrap_or_else(|e| e.into_inner()))
            .into_values()
            .collect()
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dev_of(p: &Path) -> u64 {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(p).unwrap().dev()
    }

    #[test]
    fn a_run_sees_the_other_runs_on_its_device_and_not_itself() {
        let reg = tempfile::tempdir().unwrap();
        let dirs = vec![reg.path().to_path_buf()];
        let dev = dev_of(reg.path());
        let a = Registered::join(&dirs, dev, "run-a", Path::new("/mnt/a")).unwrap();
        assert!(a.others().is_empty());
        let b = Registered::join(&dirs, dev, "run-b", Path::new("/mnt/b")).unwrap();
        let seen = a.others();
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].run_id, "run-b");
        assert_eq!(seen[0].target, "/mnt/b");
        assert_eq!(seen[0].device, device_name(dev));
        assert_eq!(seen[0].pid, std::process::id());
        assert_eq!(b.others()[0].run_id, "run-a");
        assert_eq!(
            seen[0].warning(),
            format!(
                "another diskdash run (run id run-b, target /mnt/b) measured the same device \
                 ({}) during this test: its figures may be shared with that run",
                device_name(dev)
            )
        );
        // a run that ends takes its file with it
        drop(b);
        assert!(a.others().is_empty());
        drop(a);
        assert_eq!(std::fs::read_dir(reg.path()).unwrap().count(), 0);
    }

    #[test]
    fn another_devices_runs_are_left_out() {
        let reg = tempfile::tempdir().unwrap();
        let dirs = vec![reg.path().to_path_buf()];
        let dev = dev_of(reg.path());
        let other_dev = libc::makedev(libc::major(dev) + 1, libc::minor(dev));
        let a = Registered::join(&dirs, dev, "run-a", Path::new("/mnt/a")).unwrap();
        let b = Registered::join(&dirs, other_dev, "run-b", Path::new("/mnt/b")).unwrap();
        assert!(a.others().is_empty());
        assert!(b.others().is_empty());
        assert_eq!(others(&dirs, other_dev, "x")[0].run_id, "run-b");
    }

    #[test]
    fn a_file_whose_run_is_gone_is_ignored_and_removed() {
        let reg = tempfile::tempdir().unwrap();
        let dirs = vec![reg.path().to_path_buf()];
        let dev = dev_of(reg.path());
        // left by a run killed with SIGKILL: nobody holds its lock
        let stale = reg.path().join(format!("{}gone.1.run", prefix(dev)));
        let entry = Entry {
            run_id: "gone".into(),
            target: "/mnt/gone".into(),
            device: device_name(dev),
            pid: 1,
        };
        std::fs::write(&stale, serde_json::to_string(&entry).unwrap()).unwrap();
        let a = Registered::join(&dirs, dev, "run-a", Path::new("/mnt/a")).unwrap();
        assert!(a.others().is_empty());
        assert!(!stale.exists(), "the stale file is cleaned");
        assert!(a.path.exists());
    }

    #[test]
    fn the_watch_gathers_the_runs_seen_while_a_test_ran() {
        let reg = tempfile::tempdir().unwrap();
        let dirs = vec![reg.path().to_path_buf()];
        let dev = dev_of(reg.path());
        let a = Registered::join(&dirs, dev, "run-a", Path::new("/mnt/a")).unwrap();
        let watch = a.watch(Duration::from_millis(10));
        watch.begin();
        assert!(watch.end().is_empty());
        watch.begin();
        // a run that starts and ends within the test, between the reads
        // before and after it
        let b = Registered::join(&dirs, dev, "run-b", Path::new("/mnt/b")).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        drop(b);
        let seen = watch.end();
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert_eq!(seen[0].run_id, "run-b");
        // the next test starts afresh
        watch.begin();
        assert!(watch.end().is_empty());
    }

    #[test]
    fn a_registry_that_cannot_be_written_is_an_error_and_the_next_one_is_used() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("file");
        std::fs::write(&file, "").unwrap();
        let dev = dev_of(tmp.path());
        let unusable = file.join("registry");
        assert!(
            Registered::join(std::slice::from_ref(&unusable), dev, "r", Path::new("/t")).is_err()
        );
        let usable = tmp.path().join("registry");
        let r = Registered::join(&[unusable, usable.clone()], dev, "r", Path::new("/t")).unwrap();
        assert!(r.path.starts_with(&usable));
    }
}
