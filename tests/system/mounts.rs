//! What needs root because it mounts a tmpfs: a target unmounted mid run,
//! a read-only target, a target in memory, and a site build stopped by a
//! full disk. Moved here
//! from `run_faults.rs` and `report_site.rs` of the fast tier; the run
//! helpers are `tests/run_common/`.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::report_common::{report, sample_results};
use crate::require;
use crate::run_common::*;

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

#[test]
#[ignore = "system tier: needs root (mounts a tmpfs)"]
fn doctor_exits_0_when_the_standard_suite_does_not_fit() {
    need_mount("doctor space test");
    let mnt = tempfile::tempdir().unwrap();
    let ok = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=16m", "tmpfs"])
        .arg(mnt.path())
        .status()
        .unwrap()
        .success();
    assert!(ok, "cannot mount a tmpfs");
    struct Unmount<'a>(&'a Path);
    impl Drop for Unmount<'_> {
        fn drop(&mut self) {
            let _ = Command::new("umount").arg("-l").arg(self.0).status();
        }
    }
    let _guard = Unmount(mnt.path());
    // and no tool on PATH: missing tools are reported too, not a failure
    let empty = tempfile::tempdir().unwrap();
    let o = diskdash()
        .args(["doctor", "--target"])
        .arg(mnt.path())
        .env("PATH", empty.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("NOT ENOUGH: those tests would be skipped"),
        "{stdout}"
    );
    assert!(stdout.contains("  fio        MISSING"), "{stdout}");
    assert_eq!(o.status.code(), Some(0), "{stdout}");
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
    let o = diskdash()
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
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
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

#[test]
#[ignore = "system tier: needs root (mounts a tmpfs)"]
fn a_tmpfs_target_is_named_as_memory_by_doctor_run_and_the_record() {
    need_mount("a_tmpfs_target_is_named_as_memory_by_doctor_run_and_the_record");
    // room for the test's 4 MiB and the 64 MiB a run keeps spare
    let volume = Tmpfs::mount("256m");
    let target = volume.path().to_str().unwrap();
    let said = "the target is on tmpfs, which keeps its files in memory: the numbers measure RAM, not a disk";
    let o = diskdash()
        .args(["doctor", "--target", target])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains(&format!("warning      {said}")), "{stdout}");
    // a real dd of 4 MiB: the run says it first, the record keeps it
    let out = tempfile::tempdir().unwrap();
    let path = std::env::var("PATH").unwrap_or_default();
    let r = run(
        &path,
        &[
            "--target",
            target,
            "--suite",
            "quick",
            "--only",
            "dd-write-8k-dsync",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr.starts_with(&format!("warning: {said}\n")),
        "{}",
        r.stderr
    );
    let records = records(out.path());
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].target.warning.as_deref(), Some(said));
    // a dry run says it too
    let r = run(
        &path,
        &["--target", target, "--suite", "quick", "--dry-run"],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stderr.contains(said), "{}", r.stderr);
}
