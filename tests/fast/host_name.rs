//! Which machine a record came from (`host.name`): `run` records the
//! hostname, `--host-name`, or under `--anonymous-host` a hash of the name;
//! `import --host-name` names every record; a bad name is a usage error.

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::run_common::{path_with, records, run, Run};
use diskdash::record::Record;

/// A dd that copies 128 MiB in 1 s, every time.
fn fake_dd(dir: &Path) {
    let dd = dir.join("dd");
    std::fs::write(
        &dd,
        "#!/bin/sh\ncase \"$1\" in --version) echo 'dd (coreutils) 9.1'; exit 0 ;; esac\n\
         echo '128+0 records in' >&2\necho '128+0 records out' >&2\n\
         echo '134217728 bytes (134 MB, 128 MiB) copied, 1.0 s, 134 MB/s' >&2\n",
    )
    .unwrap();
    std::fs::set_permissions(&dd, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
}

/// `diskdash run` of two repetitions of one dd test with the fake dd and
/// `extra` flags: what it printed, its records, and the records' JSON text.
fn run_dd(extra: &[&str]) -> (Run, Vec<Record>, String) {
    let bin = tempfile::tempdir().unwrap();
    fake_dd(bin.path());
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut args = vec![
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        "quick",
        "--only",
        "dd-write-128k-fdatasync",
        "--repeat",
        "2",
        "--out",
        out.path().to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let r = run(&path_with(bin.path()), &args);
    let recs = records(out.path());
    let text: String = walkdir::WalkDir::new(out.path())
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    (r, recs, text)
}

fn names(recs: &[Record]) -> Vec<Option<&str>> {
    recs.iter().map(|r| r.host.name.as_deref()).collect()
}

/// `anon-` and the first 12 hex digits of SHA-256(name), computed here.
fn anon(name: &str) -> String {
    let hex: String = Sha256::digest(name.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("anon-{}", &hex[..12])
}

fn kernel_hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap()
        .trim()
        .to_string()
}

#[test]
fn run_records_the_machines_hostname_in_every_record() {
    let hostname = kernel_hostname();
    let (r, recs, _) = run_dd(&[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(recs.len(), 2);
    assert_eq!(names(&recs), [Some(hostname.as_str()); 2]);
    assert!(
        r.stderr
            .contains(&format!("host name {hostname} (the hostname)\n")),
        "{}",
        r.stderr
    );
}

#[test]
fn run_host_name_is_recorded_exactly() {
    let (r, recs, _) = run_dd(&["--host-name", "web-3"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(names(&recs), [Some("web-3"); 2]);
    assert!(
        r.stderr.contains("host name web-3 (--host-name)\n"),
        "{}",
        r.stderr
    );
    // surrounding blanks are no part of a name
    let (r, recs, _) = run_dd(&["--host-name", " db1.example.com "]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(names(&recs), [Some("db1.example.com"); 2]);
}

#[test]
fn anonymous_host_records_a_hash_of_the_name_and_not_the_name() {
    // of the hostname
    let hostname = kernel_hostname();
    let (r, recs, text) = run_dd(&["--anonymous-host"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let want = anon(&hostname);
    assert_eq!(want.len(), 17);
    assert!(want[5..].bytes().all(|b| b.is_ascii_hexdigit()), "{want}");
    assert_eq!(names(&recs), [Some(want.as_str()); 2]);
    assert!(
        r.stderr.contains(&format!(
            "host name {want} (--anonymous-host: a hash of the hostname, which is not recorded)\n"
        )),
        "{}",
        r.stderr
    );
    // of the name given: the same name, the same hash, and the name is
    // nowhere in the records
    let (r, recs, text_web3) = run_dd(&["--host-name", "web-3", "--anonymous-host"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(anon("web-3"), "anon-9f11eb4e46c5");
    assert_eq!(names(&recs), [Some("anon-9f11eb4e46c5"); 2]);
    assert!(!text_web3.contains("web-3"), "{text_web3}");
    assert!(text_web3.contains("\"name\": \"anon-9f11eb4e46c5\""));
    // nor is the hostname (as a name: a short hostname such as `vm` may
    // be another field's value)
    assert!(
        !text.contains(&format!("\"name\": \"{hostname}\"")),
        "{hostname}: {text}"
    );
    assert!(text.contains(&format!("\"name\": \"{want}\"")), "{text}");
}

#[test]
fn a_bad_host_name_exits_2_naming_the_flag_and_runs_nothing() {
    for (bad, why) in [
        ("", "but it is empty"),
        ("web\n3", "but it holds a control character"),
        (&*"x".repeat(65), "but it has 65"),
    ] {
        let (r, recs, _) = run_dd(&["--host-name", bad]);
        assert_eq!(r.code, Some(2), "{bad:?}: {}", r.stderr);
        assert!(r.stderr.contains("'--host-name <NAME>'"), "{}", r.stderr);
        assert!(
            r.stderr
                .contains("expected a machine name of 1 to 64 characters and no control character"),
            "{}",
            r.stderr
        );
        assert!(r.stderr.contains(why), "{bad:?}: {}", r.stderr);
        assert!(recs.is_empty(), "{bad:?}");
    }
    // 64 is a name
    let (r, recs, _) = run_dd(&["--host-name", &"x".repeat(64)]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(recs[0].host.name.as_deref(), Some(&*"x".repeat(64)));
}

fn import(extra: &[&str]) -> (std::process::Output, Vec<Record>) {
    let out = tempfile::tempdir().unwrap();
    let o = std::process::Command::new(crate::run_common::BIN)
        .arg("import")
        .args(extra)
        .arg("--out")
        .arg(out.path())
        .args([
            "tests/fixtures/dd/gnu91-loop-x3.txt",
            "tests/fixtures/dd/gnu91-write-8k-dsync.txt",
        ])
        .output()
        .unwrap();
    (o, records(out.path()))
}

#[test]
fn import_host_name_names_every_record_and_without_it_none() {
    let (o, recs) = import(&["--host-name", "web-3"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    // three runs in one file, one in the other
    assert_eq!(recs.len(), 4);
    assert_eq!(names(&recs), [Some("web-3"); 4]);
    let (o, recs) = import(&["--host-name", "web-3", "--anonymous-host"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(names(&recs), [Some("anon-9f11eb4e46c5"); 4]);
    let (o, recs) = import(&[]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(names(&recs), [None; 4]);
    // a bad name is a usage error, and so is --anonymous-host alone
    let (o, recs) = import(&["--host-name", "web\t3"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("'--host-name <NAME>'"), "{err}");
    assert!(err.contains("but it holds a control character"), "{err}");
    assert!(recs.is_empty());
    let (o, _) = import(&["--anonymous-host"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("--host-name <NAME>"));
}
