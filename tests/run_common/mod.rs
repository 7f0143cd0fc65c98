//! What the `diskdash run` fault tests of both tiers share: the binary,
//! the fake tools (`tests/fakes/`), a PATH with them first, and reading
//! the records a run wrote.

#![allow(dead_code)] // each tier uses a part

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use diskdash::record::{Record, Status};

pub const BIN: &str = env!("CARGO_BIN_EXE_diskdash");

/// A registry of runs (`DISKDASH_RUN_REGISTRY`) no other run uses: a new
/// directory, under cargo's temporary directory for tests, for each call.
/// Runs that tests start at the same time on directories of one file
/// system would otherwise see each other, and each record would say so.
pub fn own_registry() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("run-registry")
        .join(format!(
            "{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ))
}

/// The binary, with a registry of runs of its own ([`own_registry`]).
pub fn diskdash() -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env("DISKDASH_RUN_REGISTRY", own_registry());
    cmd
}

pub fn fake(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fakes")
        .join(name)
}

/// A directory with `links` (tool name → program) to put on PATH.
pub fn bin_dir(links: &[(&str, PathBuf)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, to) in links {
        std::os::unix::fs::symlink(to, dir.path().join(name)).unwrap();
    }
    dir
}

/// PATH with `first` in front of the current one.
pub fn path_with(first: &Path) -> String {
    format!(
        "{}:{}",
        first.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

pub fn records(dir: &Path) -> Vec<Record> {
    if !dir.exists() {
        return Vec::new();
    }
    let mut out: Vec<Record> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap())
        .collect();
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

pub fn is_empty_dir(p: &Path) -> bool {
    std::fs::read_dir(p).unwrap().next().is_none()
}

pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

pub fn run(path: &str, args: &[&str]) -> Run {
    let o = diskdash()
        .arg("run")
        .args(args)
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Run {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

pub fn assert_vanished_run(r: &Run, out: &Path) {
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("target vanished"), "{}", r.stderr);
    let recs = records(out);
    assert_eq!(
        recs.len(),
        1,
        "the run stops at the test whose target vanished"
    );
    let rec = &recs[0];
    assert_eq!(rec.test.id, "dd-write-128k-fdatasync");
    assert_eq!(rec.status, Status::Failed);
    assert!(rec.metrics.is_empty());
    assert!(
        rec.error.as_deref().unwrap().starts_with("target vanished"),
        "{:?}",
        rec.error
    );
    // what the tool printed is kept
    assert!(rec
        .raw
        .as_ref()
        .unwrap()
        .stderr
        .as_deref()
        .unwrap()
        .contains("copied"));
}
