//! What needs root because it mounts a tmpfs: a target unmounted mid run,
//! a read-only target, and a site build stopped by a full disk. Moved here
//! from `run_faults.rs` and `report_site.rs` of the fast tier, with the
//! few helpers they share with those files.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::report_common::{report, sample_results};
use crate::require;
use diskdash::record::{Record, Status};

const BIN: &str = env!("CARGO_BIN_EXE_diskdash");

fn fake(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fakes")
        .join(name)
}

/// A directory with `links` (tool name → program) to put on PATH.
fn bin_dir(links: &[(&str, PathBuf)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, to) in links {
        std::os::unix::fs::symlink(to, dir.path().join(name)).unwrap();
    }
    dir
}

/// PATH with `first` in front of the current one.
fn path_with(first: &Path) -> String {
    format!(
        "{}:{}",
        first.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn records(dir: &Path) -> Vec<Record> {
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

fn is_empty_dir(p: &Path) -> bool {
    std::fs::read_dir(p).unwrap().next().is_none()
}

struct Run {
    code: Option<i32>,
    stderr: String,
}

fn run(path: &str, args: &[&str]) -> Run {
    let o = Command::new(BIN)
        .arg("run")
        .args(args)
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Run {
        code: o.status.code(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn assert_vanished_run(r: &Run, out: &Path) {
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

#[test]
#[ignore = "system tier: needs root (mounts a tmpfs)"]
fn a_build_stopped_by_a_full_disk_leaves_a_site_the_next_build_accepts() {
    need_mount("full-disk site test");
    let mnt = tempfile::tempdir().unwrap();
    struct Unmount<'a>(&'a Path);
    impl Drop for Unmount<'_> {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount")
                .arg("-l")
                .arg(self.0)
                .status();
        }
    }
    let ok = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=96k", "tmpfs"])
        .arg(mnt.path())
        .status()
        .unwrap()
        .success();
    assert!(ok, "cannot mount a tmpfs");
    let _guard = Unmount(mnt.path());
    let site = mnt.path().join("site");
    let (ok, _, stderr) = report(&[
        sample_results().as_os_str(),
        "--out".as_ref(),
        site.as_os_str(),
    ]);
    assert!(!ok, "the site fit in 96 KiB?");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    let (ok, _, stderr) = report(&[
        sample_results().as_os_str(),
        "--out".as_ref(),
        site.as_os_str(),
    ]);
    assert!(!ok);
    assert!(
        !stderr.contains("--force"),
        "the next build wants --force: {stderr}"
    );
    assert!(stderr.contains("No space left on device"), "{stderr}");
}

/// Fails `test` unless it can mount filesystems (root).
fn need_mount(test: &str) {
    require::need(test, &require::root_missing(), "it mounts a tmpfs");
}

/// A tmpfs mounted on a fresh directory, unmounted on drop (even when the
/// test fails first, or the run under test unmounted it already).
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(size: &str) -> Tmpfs {
        let dir = tempfile::tempdir().unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .status()
            .unwrap()
            .success();
        assert!(ok, "cannot mount a tmpfs on {}", dir.path().display());
        Tmpfs { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .stderr(Stdio::null())
            .status();
    }
}

#[test]
#[ignore = "system tier: needs root (mounts a tmpfs)"]
fn a_target_unmounted_mid_run_measures_nothing_on_the_disk_below() {
    need_mount("a_target_unmounted_mid_run_measures_nothing_on_the_disk_below");
    let bin = bin_dir(&[("dd", fake("vanish"))]);
    let volume = Tmpfs::mount("256m");
    let out = tempfile::tempdir().unwrap();
    let o = Command::new(BIN)
        .args(["run", "--target", volume.path().to_str().unwrap()])
        .args([
            "--suite",
            "quick",
            "--only",
            "dd-write-8k-dsync,dd-write-128k-fdatasync",
        ])
        .args(["--out", out.path().to_str().unwrap()])
        .env("PATH", path_with(bin.path()))
        .env("DISKDASH_FAKE_UMOUNT", volume.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let r = Run {
        code: o.status.code(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    assert_vanished_run(&r, out.path());
    // the empty mount point below (the root disk) got nothing
    assert!(
        is_empty_dir(volume.path()),
        "files written under the mount point"
    );
}

#[test]
#[ignore = "system tier: needs root (mounts a tmpfs)"]
fn a_read_only_target_is_a_usage_error_and_leaves_no_records_dir() {
    need_mount("a_read_only_target_is_a_usage_error_and_leaves_no_records_dir");
    let bin = bin_dir(&[("dd", fake("fail"))]);
    let volume = Tmpfs::mount("16m");
    let ok = Command::new("mount")
        .args(["-o", "remount,ro"])
        .arg(volume.path())
        .status()
        .unwrap()
        .success();
    assert!(ok, "cannot remount the tmpfs read-only");
    let out = tempfile::tempdir().unwrap();
    let records_dir = out.path().join("results");
    let r = run(
        &path_with(bin.path()),
        &[
            "--target",
            volume.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "dd-write-8k-dsync",
            "--out",
            records_dir.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("is the target writable?"), "{}", r.stderr);
    assert!(!records_dir.exists(), "an empty records directory was left");
}
