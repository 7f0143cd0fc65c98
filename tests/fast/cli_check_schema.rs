//! `diskdash check` and `diskdash schema`, driven through the binary.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::json;

fn diskdash() -> Command {
    Command::cargo_bin("diskdash").unwrap()
}

fn record(id: &str) -> serde_json::Value {
    json!({
        "schema": "diskdash.record/1",
        "id": id,
        "source": {"kind": "run", "diskdash_version": "0.1.0"},
        "subject": {"study": "demo", "provider": "local", "offering": "disk"},
        "host": {"cpu_model": null},
        "target": {},
        "test": {"id": "ioping-seek", "tool": "ioping"},
        "repetition": 1,
        "status": "ok",
        "metrics": {"iops": {"value": 11800.0, "unit": "IOPS"}}
    })
}

#[test]
fn schema_is_json_schema_of_the_record() {
    let out = diskdash().arg("schema").output().unwrap();
    assert!(out.status.success());
    let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(schema["title"], "Record");
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for field in [
        "schema", "id", "source", "subject", "host", "target", "test", "status",
    ] {
        assert!(required.contains(&field), "{field} not required");
    }
}

#[test]
fn check_passes_good_records_and_names_every_bad_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("good.json"), record("a").to_string()).unwrap();
    diskdash()
        .arg("check")
        .arg(d)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("1 record in 1 file: all valid"));

    std::fs::create_dir(d.join("sub")).unwrap();
    std::fs::write(d.join("sub/truncated.json"), "{\"schema\": \"diskdash.rec").unwrap();
    let mut future = record("b");
    future["schema"] = "diskdash.record/7".into();
    std::fs::write(d.join("future.json"), future.to_string()).unwrap();
    std::fs::write(d.join("zz-dup.jsonl"), format!("{}\n", record("a"))).unwrap();
    diskdash()
        .arg("check")
        .arg(d)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("truncated.json: not valid JSON"))
        .stdout(predicate::str::contains(
            "future.json: schema `diskdash.record/7` has major version 7",
        ))
        .stdout(predicate::str::contains(
            "zz-dup.jsonl:1: duplicate record id `a` (first seen in",
        ))
        .stdout(predicate::str::contains(
            "3 problems in 3 of 4 files read; 1 valid record",
        ));
}

#[test]
fn check_of_an_empty_tree_fails_and_says_what_it_expected() {
    let dir = tempfile::tempdir().unwrap();
    diskdash()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("no records found under"));
}

#[test]
fn check_of_a_missing_path_is_an_error_naming_it() {
    diskdash()
        .args(["check", "no/such/dir"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("error: cannot read `no/such/dir`"));
}

/// Runs `diskdash ARGS` unable to read a directory it may not read: as
/// root (which reads everything) with CAP_DAC_OVERRIDE and
/// CAP_DAC_READ_SEARCH dropped from the bounding set before exec.
fn without_root_reading(args: &[&std::ffi::OsStr]) -> std::process::Output {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_diskdash"));
    cmd.args(args);
    // SAFETY: prctl(2) in the child before exec, nothing else.
    unsafe {
        cmd.pre_exec(|| {
            if libc::geteuid() == 0 {
                for cap in [1, 2] {
                    // CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
                    if libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
            }
            Ok(())
        });
    }
    cmd.output().unwrap()
}

#[test]
fn an_unreadable_dir_and_links_stop_neither_check_nor_report_and_a_missing_path_stops_report() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let recs = dir.path().join("recs");
    std::fs::create_dir_all(recs.join("locked")).unwrap();
    std::fs::create_dir_all(recs.join("open")).unwrap();
    std::fs::write(recs.join("open/a.json"), record("a").to_string()).unwrap();
    std::fs::write(recs.join("locked/b.json"), record("b").to_string()).unwrap();
    std::fs::write(dir.path().join("c.json"), record("c").to_string()).unwrap();
    std::fs::write(dir.path().join("elsewhere.json"), record("d").to_string()).unwrap();
    std::os::unix::fs::symlink("../../elsewhere.json", recs.join("open/linked.json")).unwrap();
    std::os::unix::fs::symlink("../nowhere.json", recs.join("open/dangling.json")).unwrap();
    // a FIFO named like a record: named, never read (a read would hang)
    let fifo = std::ffi::CString::new(recs.join("open/pipe.json").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a path this test owns
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    std::fs::set_permissions(recs.join("locked"), std::fs::Permissions::from_mode(0o000)).unwrap();
    let missing = dir.path().join("missing.json");
    let c = dir.path().join("c.json");
    let o = without_root_reading(&[
        "check".as_ref(),
        recs.as_os_str(),
        missing.as_os_str(),
        c.as_os_str(),
    ]);
    std::fs::set_permissions(recs.join("locked"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("cannot read `") && stderr.contains("locked"),
        "{stderr}"
    );
    assert!(stderr.contains("missing.json`"), "{stderr}");
    assert!(
        stdout.contains("linked.json: a symbolic link (to `../../elsewhere.json`)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("dangling.json: a dangling symbolic link"),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("pipe.json: not a regular file (a FIFO, device or socket); left out unread"),
        "{stdout}"
    );
    // a.json and c.json were read and are valid
    assert!(stdout.contains("; 2 valid records"), "{stdout}");

    std::fs::set_permissions(recs.join("locked"), std::fs::Permissions::from_mode(0o000)).unwrap();
    let site = dir.path().join("site");
    let report = |paths: &[&std::ffi::OsStr]| {
        let mut args: Vec<&std::ffi::OsStr> = vec!["report".as_ref()];
        args.extend(paths);
        args.extend(["--out".as_ref(), site.as_os_str()]);
        without_root_reading(&args)
    };
    // a records path given that is not there is a typo: the build stops
    // before the site is touched
    let o = report(&[recs.as_os_str(), missing.as_os_str(), c.as_os_str()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: records path `") && stderr.contains("missing.json` cannot be read"),
        "{stderr}"
    );
    assert!(!site.exists());
    // an unreadable directory below a path given is left out, the rest built
    let o = report(&[recs.as_os_str(), c.as_os_str()]);
    std::fs::set_permissions(recs.join("locked"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stderr.contains("locked: cannot read"), "{stderr}");
    assert!(site.join("runs").exists());
}

#[test]
fn every_hostile_record_is_refused_with_its_reason() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile/records");
    let expected = std::fs::read_to_string(dir.join("EXPECTED")).unwrap();
    let mut n = 0;
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let (file, says) = line.split_once('\t').unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_diskdash"))
            .arg("check")
            .arg(dir.join(file))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{file}: {stdout}");
        assert!(
            stdout.contains(says),
            "{file}: expected {says:?} in {stdout}"
        );
        // no control character reaches the terminal raw
        assert!(
            !o.stdout.iter().any(|&b| b < 0x20 && b != b'\n'),
            "{file}: raw control characters in {stdout:?}"
        );
        n += 1;
    }
    assert!(n >= 13, "{n} cases");
}

#[test]
fn a_fifo_or_a_device_is_refused_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.json");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    for path in [fifo.to_str().unwrap(), "/dev/zero"] {
        diskdash()
            .args(["check", path])
            .timeout(std::time::Duration::from_secs(10))
            .assert()
            .code(1)
            .stdout(predicate::str::contains("not a regular file"));
    }
}

#[test]
fn check_doctor_and_schema_end_quietly_on_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..400 {
        std::fs::write(
            dir.path().join(format!("bad{i:03}.json")),
            "{\"schema\": \"diskdash.record/1\"}",
        )
        .unwrap();
    }
    let target = dir.path().to_str().unwrap().to_string();
    for args in [
        vec!["check", target.as_str()],
        vec!["schema"],
        vec!["doctor", "--target", target.as_str()],
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_diskdash"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // read nothing: close the pipe at once, as `| head -0` would
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_record_file_far_larger_than_any_record_is_left_out_unread() {
    let dir = tempfile::tempdir().unwrap();
    let f = std::fs::File::create(dir.path().join("huge.json")).unwrap();
    // sparse: costs no disk, and reading it would cost 600 MB
    f.set_len(600 << 20).unwrap();
    std::fs::write(dir.path().join("good.json"), record("a").to_string()).unwrap();
    diskdash()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "huge.json: 629145600 bytes, larger than any record",
        ))
        .stdout(predicate::str::contains("1 valid record"));
}

/// Makes a chain of `levels` directories named `d` below `root`, a record
/// file at the bottom, by `mkdirat`/`openat` from the directory above (no
/// path is longer than one name: the whole chain is far past `PATH_MAX`);
/// returns a guard that removes the chain the same way.
fn deep_tree(root: &std::path::Path, levels: usize) -> DeepTree {
    use std::ffi::CString;
    let root_c = CString::new(root.to_str().unwrap()).unwrap();
    let d = CString::new("d").unwrap();
    // SAFETY: open(2), mkdirat(2), openat(2), close(2) with valid
    // NUL-terminated names and descriptors this function owns.
    unsafe {
        let mut fd = libc::open(root_c.as_ptr(), libc::O_DIRECTORY | libc::O_RDONLY);
        assert!(fd >= 0);
        for _ in 0..levels {
            assert_eq!(libc::mkdirat(fd, d.as_ptr(), 0o755), 0);
            let next = libc::openat(fd, d.as_ptr(), libc::O_DIRECTORY | libc::O_RDONLY);
            assert!(next >= 0);
            libc::close(fd);
            fd = next;
        }
        let name = CString::new("deep.json").unwrap();
        let f = libc::openat(fd, name.as_ptr(), libc::O_CREAT | libc::O_WRONLY, 0o644);
        assert!(f >= 0);
        libc::close(f);
        DeepTree { bottom: fd, levels }
    }
}

struct DeepTree {
    bottom: libc::c_int,
    levels: usize,
}

impl Drop for DeepTree {
    fn drop(&mut self) {
        use std::ffi::CString;
        let (d, up, file) = (
            CString::new("d").unwrap(),
            CString::new("..").unwrap(),
            CString::new("deep.json").unwrap(),
        );
        // SAFETY: as in `deep_tree`; each descriptor is closed once.
        unsafe {
            let mut fd = self.bottom;
            libc::unlinkat(fd, file.as_ptr(), 0);
            for _ in 0..self.levels {
                let parent = libc::openat(fd, up.as_ptr(), libc::O_DIRECTORY | libc::O_RDONLY);
                libc::close(fd);
                libc::unlinkat(parent, d.as_ptr(), libc::AT_REMOVEDIR);
                fd = parent;
            }
            libc::close(fd);
        }
    }
}

#[test]
fn a_tree_deeper_than_the_walk_bound_is_named_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("good.json"), record("a").to_string()).unwrap();
    let _tree = deep_tree(dir.path(), 2100);
    let out = diskdash().arg("check").arg(dir.path()).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("d/d: a directory 256 levels deep; not entered"),
        "{stdout}"
    );
    assert!(stdout.contains("1 valid record"), "{stdout}");

    let site = tempfile::tempdir().unwrap();
    let out = diskdash()
        .arg("report")
        .arg(dir.path())
        .arg("--out")
        .arg(site.path().join("site"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_huge_jsonl_line_is_left_out_unread_and_the_others_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.jsonl");
    std::fs::write(&path, format!("{}\n", record("a"))).unwrap();
    // sparse: a second line of zeros, 600 MB with no newline, costing no disk
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(600 << 20)
        .unwrap();
    diskdash()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("many.jsonl:2: a line of "))
        .stdout(predicate::str::contains(
            "bytes or more, larger than any record diskdash writes (at most 67108864 a line)",
        ))
        .stdout(predicate::str::contains("1 valid record"));
}

#[test]
fn an_unfinished_write_left_by_a_kill_is_named_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.json"), record("a").to_string()).unwrap();
    std::fs::write(
        dir.path().join(".diskdash-tmp-x1Yz9"),
        record("b").to_string(),
    )
    .unwrap();
    std::fs::write(dir.path().join(".other-hidden.json"), "garbage").unwrap();
    diskdash()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            ".diskdash-tmp-x1Yz9: an unfinished write of diskdash's",
        ))
        .stdout(predicate::str::contains("rename it to `*.json` to keep it"))
        .stdout(predicate::str::contains(".other-hidden").not())
        .stdout(predicate::str::contains("1 valid record"));
}
