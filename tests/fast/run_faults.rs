//! Fault cases of `diskdash run`, driving the binary with fake tools first
//! on PATH (`tests/fakes/`: fail, hang, garbage) or tools missing from PATH:
//! record status and error, scratch gone, exit status, Ctrl-C and SIGTERM.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::run_common::*;
use diskdash::record::{Record, Status};

#[test]
fn a_tool_that_fails_gives_a_failed_record_and_exit_1() {
    let bin = bin_dir(&[("fio", fake("fail"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let r = run(
        &path_with(bin.path()),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "fio-randread-4k-qd64,fio-randwrite-4k-qd64",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let recs = records(out.path());
    assert_eq!(recs.len(), 2, "the run goes on after a failure");
    for rec in &recs {
        assert_eq!(rec.status, Status::Failed);
        assert_eq!(
            rec.error.as_deref(),
            Some("`fio` exited with status 1: fio: cannot open the device: Input/output error")
        );
        let raw = rec.raw.as_ref().unwrap();
        assert_eq!(raw.exit_code, Some(1));
        assert_eq!(
            raw.stderr.as_deref(),
            Some("fio: cannot open the device: Input/output error\n")
        );
    }
    assert!(is_empty_dir(target.path()), "scratch left behind");
    assert!(
        r.stderr.contains("[2/2] fio-randwrite-4k-qd64 r1/1 failed"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_record_that_cannot_be_written_is_printed_not_lost() {
    let bin = bin_dir(&[("dd", fake("lose-out"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = diskdash()
        .args([
            "run",
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "dd-write-8k-dsync",
            "--out",
            out.path().to_str().unwrap(),
        ])
        .env("PATH", path_with(bin.path()))
        .env("DISKDASH_FAKE_OUT", out.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("a record could not be written"), "{stderr}");
    // the record is on stderr, whole, and valid
    let line = stderr
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no record on stderr: {stderr}"));
    let rec = diskdash::record::from_json(line).unwrap();
    assert_eq!(rec.test.id, "dd-write-8k-dsync");
    assert_eq!(rec.status, Status::Ok);
    assert_eq!(
        rec.metrics.get("write_bw").unwrap().value,
        4194304.0 / 1.2232
    );
    assert!(is_empty_dir(target.path()), "scratch left behind");
}

#[test]
fn a_hanging_tool_is_stopped_at_the_time_limit() {
    let bin = bin_dir(&[("fio", fake("hang"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let r = run(
        &path_with(bin.path()),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "fio-randread-4k-qd64",
            "--timeout",
            "1",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "took {:?}",
        start.elapsed()
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let recs = records(out.path());
    assert_eq!(recs.len(), 1);
    let rec = &recs[0];
    assert_eq!(rec.status, Status::Failed);
    assert!(
        rec.error
            .as_deref()
            .unwrap()
            .starts_with("timed out after 1 s and was stopped"),
        "{:?}",
        rec.error
    );
    let d = rec.duration_s.unwrap();
    assert!((1.0..5.0).contains(&d), "{d}");
    // fio wrote no output file: what it printed is kept instead
    let raw = rec.raw.as_ref().unwrap();
    assert_eq!(raw.stdout.as_deref(), Some("started\n"));
    assert_eq!(raw.exit_code, None);
    assert!(is_empty_dir(target.path()));
}

#[test]
fn garbage_output_is_a_failed_record_with_the_raw_text() {
    let bin = bin_dir(&[("ioping", fake("garbage"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let r = run(
        &path_with(bin.path()),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "ioping-latency",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, Some(1));
    let recs = records(out.path());
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].status, Status::Failed);
    assert!(recs[0]
        .error
        .as_deref()
        .unwrap()
        .starts_with("cannot parse the output of `ioping`"));
    assert_eq!(
        recs[0].raw.as_ref().unwrap().stdout.as_deref(),
        Some("<html><body>502 Bad Gateway</body></html>\n")
    );
    assert!(is_empty_dir(target.path()));
}

#[test]
fn missing_tools_are_skipped_with_an_install_hint() {
    let dd = diskdash::run::exec::which("dd").expect("dd is on PATH");
    // PATH holds dd and nothing else
    let bin = bin_dir(&[("dd", dd)]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let r = run(
        bin.path().to_str().unwrap(),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "dd-write-128k-fdatasync,ioping-latency,fio-randread-4k-qd64",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, Some(1));
    let recs = records(out.path());
    assert_eq!(recs.len(), 3);
    let by_id = |id: &str| recs.iter().find(|r| r.test.id == id).unwrap();
    for (id, tool) in [
        ("ioping-latency", "ioping"),
        ("fio-randread-4k-qd64", "fio"),
    ] {
        let rec = by_id(id);
        assert_eq!(rec.status, Status::Skipped);
        let e = rec.error.as_deref().unwrap();
        assert!(
            e.starts_with(&format!(
                "`{tool}` is not installed (not found on PATH); install it with: "
            )),
            "{e}"
        );
        assert!(e.contains(tool), "{e}");
    }
    // dd ran (its record holds what it printed)
    let dd = by_id("dd-write-128k-fdatasync");
    assert_eq!(dd.raw.as_ref().unwrap().exit_code, Some(0));
    assert!(dd
        .raw
        .as_ref()
        .unwrap()
        .stderr
        .as_deref()
        .unwrap()
        .contains("records out"));
    assert!(is_empty_dir(target.path()));
}

/// Kills the child if a test fails before it ends, so no run outlives its test.
/// Whether a run on `target` has started `job` (`fio-randread-4k-qd64.r1`):
/// one of its scratch directories holds the job's directory.
fn in_test(target: &Path, job: &str) -> bool {
    std::fs::read_dir(target)
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|scratch| scratch.path().join(job).exists())
}

/// Waits until `ready`, failing with `what` after `within`.
fn wait_for(what: &str, within: Duration, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !ready() {
        assert!(Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_dry_run_without_a_target_prints_the_plan_for_100_gib_free() {
    let out = tempfile::tempdir().unwrap();
    let records_dir = out.path().join("records");
    let r = run(
        &std::env::var("PATH").unwrap_or_default(),
        &[
            "--dry-run",
            "--suite",
            "standard",
            "--out",
            records_dir.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(
        lines[0].starts_with("dry run of suite standard: ")
            && lines[0].ends_with(" against `TARGET` (nothing is written)"),
        "{}",
        r.stdout
    );
    assert!(lines[1].starts_with("scratch directory: TARGET/.diskdash-scratch-"));
    assert_eq!(
        lines[2],
        "free space: 100.00 GiB assumed (no --target given; the sizes that follow the free \
         space are those of a target with that much free)"
    );
    // the pre-fill is sized by that free space: min(16 GiB, half of it)
    assert!(
        r.stdout.contains("writes 16.00 GiB of incompressible data"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("rough duration: "), "{}", r.stdout);
    // nothing written; without --dry-run the target is still required
    assert!(!records_dir.exists());
    let r = run(
        &std::env::var("PATH").unwrap_or_default(),
        &["--out", records_dir.to_str().unwrap()],
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.contains("--target DIR is required"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_dry_run_with_probe_estimates_from_the_speed_it_measured_and_leaves_nothing() {
    // a fio that answers the probe with fixed figures: 100 MB/s writes,
    // 200 MB/s reads, 8,000 random read IOPS, 100 synchronised writes
    let dir = tempfile::tempdir().unwrap();
    let fio = dir.path().join("fio");
    let job = |name: &str, d: &str, bw: f64, iops: f64| {
        format!(r#"{{"jobname":"{name}","{d}":{{"bw_bytes":{bw},"iops":{iops}}}}}"#)
    };
    let json = format!(
        r#"{{"jobs":[{},{},{},{},{},{}]}}"#,
        job("seq-write", "write", 100e6, 95.0),
        job("seq-read", "read", 200e6, 190.0),
        job("rand-read-qd32", "read", 32768000.0, 8000.0),
        job("rand-read-qd1", "read", 1024000.0, 250.0),
        job("rand-write-qd32", "write", 16384000.0, 4000.0),
        job("sync-write", "write", 819200.0, 100.0),
    );
    std::fs::write(
        &fio,
        format!(
            "#!/bin/sh\ncase \"$1\" in --version) echo fio-3.33; exit 0 ;; esac\n\
             for a in \"$@\"; do case \"$a\" in --output=*) out=\"${{a#--output=}}\" ;; esac; done\n\
             touch \"$(dirname \"$out\")/probe.dat\"\nprintf '%s' '{json}' > \"$out\"\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fio, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let target = tempfile::tempdir().unwrap();
    let suite = dir.path().join("s.toml");
    std::fs::write(
        &suite,
        "[[test]]\nid = 'bulk'\ntool = 'dd'\nbs = '1M'\nsize = '1000M'\nconv = 'fdatasync'\n\
         [[test]]\nid = 'synced'\ntool = 'dd'\nbs = '8k'\ncount = '1000'\noflag = 'dsync'\n",
    )
    .unwrap();
    let args = |extra: &[&str]| {
        let mut a = vec![
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            suite.to_str().unwrap(),
        ];
        a.extend_from_slice(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let path = path_with(dir.path());
    let argv = args(&["--dry-run", "--probe"]);
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    let r = run(&path, &argv);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "probe (12 s of fio on the target): writes 100 MB/s, reads 200 MB/s, 4 KiB random \
             reads 8,000 IOPS (depth 32) and 250 IOPS (depth 1), random writes 4,000 IOPS, \
             synchronised 8 KiB writes 100 IOPS"
        ),
        "{}",
        r.stdout
    );
    // 1,048,576,000 bytes at 100 MB/s; 1,000 synchronised writes at 100 a second
    assert!(
        r.stdout
            .contains("bulk r1/1: writes up to 0.98 GiB, about 0:11, "),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("synced r1/1: writes up to 0.01 GiB, about 0:11, "),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("\nestimated duration: 0:22, tests that would be skipped left out"),
        "{}",
        r.stdout
    );
    // the probe's scratch is gone
    assert!(is_empty_dir(target.path()));
    // without fio: said, and the rough estimate
    let nothing = tempfile::tempdir().unwrap();
    let argv = args(&["--dry-run", "--probe"]);
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    let r = run(nothing.path().to_str().unwrap(), &argv);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "warning: the probe did not run (fio is not installed); the estimate is the rough one"
        ),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("\nrough duration: "), "{}", r.stdout);
    assert!(is_empty_dir(target.path()));
    // --probe needs --dry-run, and a target
    let argv = args(&["--probe"]);
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    let r = run(&path, &argv);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("--dry-run"), "{}", r.stderr);
    let r = run(&path, &["--dry-run", "--probe"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("--probe measures the target: give --target DIR"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_long_test_without_a_terminal_says_it_still_runs_every_interval() {
    // stderr is a pipe here, as in a log file or the fleet playbook's output
    let bin = bin_dir(&[("fio", fake("hang"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let r = run(
        &path_with(bin.path()),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "fio-randread-4k-qd64",
            "--timeout",
            "3",
            "--progress-interval",
            "1",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let ticks: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains(" running for "))
        .collect();
    // at 1, 2 (and perhaps 3) seconds of the 3-second limit
    assert!((2..=3).contains(&ticks.len()), "{}", r.stderr);
    assert!(
        ticks[0].starts_with("[1/1] fio-randread-4k-qd64 r1/1 running for 0:01, about "),
        "{}",
        ticks[0]
    );
    assert!(ticks[0].ends_with(" left in the run"), "{}", ticks[0]);
    assert!(ticks[1].contains(" running for 0:02, "), "{}", ticks[1]);
    // the ticks come before the test's own line, none after it
    let done = r
        .stderr
        .find("[1/1] fio-randread-4k-qd64 r1/1 failed")
        .unwrap();
    assert!(
        r.stderr.rfind(" running for ").unwrap() < done,
        "{}",
        r.stderr
    );
}

/// Starts a run whose second test hangs, waits until the first record is
/// written and the second test runs, sends `sig`, and checks the aftermath.
fn interrupt_mid_test(sig: libc::c_int, expected_code: i32, signal_name: &str) {
    let bin = bin_dir(&[("fio", fake("hang"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut guard = KillOnDrop(
        diskdash()
            .args([
                "run",
                "--target",
                target.path().to_str().unwrap(),
                "--suite",
                "quick",
                "--only",
                "dd-write-128k-fdatasync,fio-randread-4k-qd64",
                "--out",
                out.path().to_str().unwrap(),
            ])
            .env("PATH", path_with(bin.path()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let child = &mut guard.0;
    wait_for(
        "the run never reached the fio test",
        Duration::from_secs(60),
        || records(out.path()).len() == 1 && in_test(target.path(), "fio-randread-4k-qd64.r1"),
    );
    // let the fake tool get going
    std::thread::sleep(Duration::from_millis(300));
    let before = std::fs::read_to_string(
        walkdir::WalkDir::new(out.path())
            .into_iter()
            .map(|e| e.unwrap())
            .find(|e| e.file_type().is_file())
            .unwrap()
            .path(),
    )
    .unwrap();
    // SAFETY: signalling our own child process.
    unsafe {
        libc::kill(child.id() as libc::pid_t, sig);
    }
    let start = Instant::now();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(status.code(), Some(expected_code), "{stderr}");
    assert!(
        stderr.contains(&format!("interrupted by {signal_name}")),
        "{stderr}"
    );

    let recs = records(out.path());
    assert_eq!(recs.len(), 2);
    let dd = recs
        .iter()
        .find(|r| r.test.id == "dd-write-128k-fdatasync")
        .unwrap();
    assert_eq!(dd.raw.as_ref().unwrap().exit_code, Some(0));
    // the finished record is intact, byte for byte
    let after = serde_json::to_string_pretty(dd).unwrap() + "\n";
    assert_eq!(after, before);
    let fio = recs
        .iter()
        .find(|r| r.test.id == "fio-randread-4k-qd64")
        .unwrap();
    assert_eq!(fio.status, Status::Failed);
    assert_eq!(
        fio.error.as_deref(),
        Some(format!("interrupted by {signal_name}; the run stopped").as_str())
    );
    assert!(is_empty_dir(target.path()), "scratch left behind");
}

#[test]
fn ctrl_c_mid_test_keeps_finished_records_removes_scratch_exits_130() {
    interrupt_mid_test(libc::SIGINT, 130, "SIGINT");
}

#[test]
fn sigterm_mid_test_exits_143() {
    interrupt_mid_test(libc::SIGTERM, 143, "SIGTERM");
}

#[test]
fn out_dash_streams_json_lines_with_progress_on_stderr() {
    let bin = bin_dir(&[("fio", fake("fail")), ("ioping", fake("garbage"))]);
    let target = tempfile::tempdir().unwrap();
    let r = run(
        &path_with(bin.path()),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "fio-randread-4k-qd64,ioping-latency",
            "--out",
            "-",
            "--study",
            "s",
        ],
    );
    assert_eq!(r.code, Some(1));
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    let recs: Vec<Record> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs[0].test.id, "fio-randread-4k-qd64");
    assert_eq!(recs[1].test.id, "ioping-latency");
    assert_eq!(recs[1].subject.study.as_deref(), Some("s"));
    assert!(r.stderr.contains("[1/2] fio-randread-4k-qd64"));
    assert!(r.stderr.contains("records streamed to stdout"));
    assert!(is_empty_dir(target.path()));
    // nothing written to ./results or anywhere else in the target
}

#[test]
fn dry_run_and_list_touch_nothing() {
    let target = tempfile::tempdir().unwrap();
    let out = target.path().join("results");
    let r = run(
        &std::env::var("PATH").unwrap_or_default(),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "standard",
            "--only",
            "dd-write-bulk",
            "--out",
            out.to_str().unwrap(),
            "--dry-run",
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout
            .contains("dry run of suite standard: 1 job against"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("bs=1M count="));
    assert!(r.stdout.contains("conv=fdatasync"));
    assert!(!r.stdout.contains("pre-fill"), "{}", r.stdout);
    assert!(is_empty_dir(target.path()));

    // the whole suite: the pre-fill first, and the time it all takes
    let r = run(
        &std::env::var("PATH").unwrap_or_default(),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "standard",
            "--dry-run",
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(
        lines[0].starts_with("dry run of suite standard: 41 jobs and a pre-fill"),
        "{}",
        r.stdout
    );
    assert!(
        lines[3].starts_with("pre-fill before fio-sustained-randread-4k-qd32 (once, not a test)"),
        "{}",
        r.stdout
    );
    assert!(lines[4].contains("--rw=write --bs=1M") && lines[4].contains("--refill_buffers"));
    assert!(lines[5].starts_with("fio-sustained-randread-4k-qd32 r1/1: reads the pre-filled file"));
    let total = lines[lines.len() - 2];
    assert!(
        total.starts_with("rough duration: ") && total.contains("the pre-fill included"),
        "{total}"
    );
    assert_eq!(
        lines.last().unwrap(),
        &"burst limits: none known for (no --provider) (no --offering): --provider, \
          --offering and --size-gb find the volume's published limits"
    );
    assert!(is_empty_dir(target.path()));

    let r = run(
        &std::env::var("PATH").unwrap_or_default(),
        &["--list", "--suite", "quick"],
    );
    assert_eq!(r.code, Some(0));
    for id in [
        "dd-write-bulk",
        "ioping-seq-cached",
        "bonnie",
        "fio-randwrite-4k-qd64",
    ] {
        assert!(
            r.stdout.contains(&format!("\n{id}  [")),
            "{id}: {}",
            r.stdout
        );
    }
    assert!(r.stdout.contains("ioping -B -w 2 -RLC DIR"), "{}", r.stdout);
}

#[test]
fn bad_targets_exit_2_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f");
    std::fs::write(&file, "x").unwrap();
    let path = std::env::var("PATH").unwrap_or_default();
    for (target, msg) in [
        (dir.path().join("missing"), "does not exist"),
        (file.clone(), "is not a directory"),
        (PathBuf::from("/dev/null"), "is a device"),
    ] {
        let r = run(
            &path,
            &["--target", target.to_str().unwrap(), "--suite", "quick"],
        );
        assert_eq!(r.code, Some(2), "{}", r.stderr);
        assert!(r.stderr.starts_with("error: target `"), "{}", r.stderr);
        assert!(r.stderr.contains(msg), "{}", r.stderr);
    }
    let o = diskdash()
        .args(["doctor", "--target", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn doctor_names_missing_tools_and_how_to_install_them() {
    let target = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let o = diskdash()
        .args(["doctor", "--target", target.path().to_str().unwrap()])
        .env("PATH", empty.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    // it could check everything: missing tools are a fact it reports
    assert_eq!(o.status.code(), Some(0), "{text}");
    // bonnie++ may still be found in /usr/sbin, searched after PATH
    for tool in ["dd", "fio", "ioping"] {
        assert!(
            text.contains(&format!("  {tool:<10} MISSING")),
            "{tool}: {text}"
        );
    }
    let install = text.lines().find(|l| l.starts_with("install ")).unwrap();
    // the package list, whichever distribution's command precedes it
    assert!(install.contains(" coreutils fio ioping"), "{install}");
    assert!(text.contains("O_DIRECT     "), "{text}");
    assert!(text.contains("the standard suite needs"), "{text}");
    assert!(text.starts_with(&format!(
        "target       {}\n",
        target.path().canonicalize().unwrap().display()
    )));
    // the O_DIRECT probe cleaned up after itself
    assert!(is_empty_dir(target.path()));
}

#[test]
fn a_target_removed_mid_run_is_not_recreated_and_the_run_stops() {
    let bin = bin_dir(&[("dd", fake("vanish"))]);
    let parent = tempfile::tempdir().unwrap();
    let target = parent.path().join("volume");
    std::fs::create_dir(&target).unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = diskdash()
        .args([
            "run",
            "--target",
            target.to_str().unwrap(),
            "--suite",
            "quick",
        ])
        .args(["--only", "dd-write-8k-dsync,dd-write-128k-fdatasync"])
        .args(["--out", out.path().to_str().unwrap()])
        .env("PATH", path_with(bin.path()))
        .env("DISKDASH_FAKE_TARGET", &target)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let r = Run {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    assert_vanished_run(&r, out.path());
    assert!(!target.exists(), "the target was recreated");
}

#[test]
fn a_tool_leaving_children_on_its_pipes_does_not_hold_the_run() {
    let bin = bin_dir(&[("dd", fake("linger"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let pid_file = target
        .path()
        .join("..")
        .join(format!("diskdash-linger-{}.pid", std::process::id()));
    let start = Instant::now();
    let o = diskdash()
        .args(["run", "--target", target.path().to_str().unwrap()])
        .args([
            "--suite",
            "quick",
            "--only",
            "dd-write-8k-dsync",
            "--timeout",
            "2",
        ])
        .args(["--out", out.path().to_str().unwrap()])
        .env("PATH", path_with(bin.path()))
        .env("DISKDASH_FAKE_PID", &pid_file)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let took = start.elapsed();
    if let Ok(pid) = std::fs::read_to_string(&pid_file) {
        if let Ok(pid) = pid.trim().parse::<libc::pid_t>() {
            // SAFETY: ending the fake's escaped child.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        let _ = std::fs::remove_file(&pid_file);
    }
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(took < Duration::from_secs(8), "took {took:?}: {stderr}");
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let recs = records(out.path());
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].status, Status::Ok);
    assert!(recs[0]
        .raw
        .as_ref()
        .unwrap()
        .stderr
        .as_deref()
        .unwrap()
        .contains("copied"));
    assert!(is_empty_dir(target.path()), "scratch left behind");
}

#[test]
fn a_second_signal_exits_at_once_and_the_first_decides_the_status() {
    let bin = bin_dir(&[("fio", fake("stubborn"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut guard = KillOnDrop(
        diskdash()
            .args(["run", "--target", target.path().to_str().unwrap()])
            .args(["--suite", "quick", "--only", "fio-randread-4k-qd64"])
            .args(["--out", out.path().to_str().unwrap()])
            .env("PATH", path_with(bin.path()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let child = &mut guard.0;
    wait_for(
        "the run never reached the fio test",
        Duration::from_secs(30),
        || in_test(target.path(), "fio-randread-4k-qd64.r1"),
    );
    std::thread::sleep(Duration::from_millis(300));
    let pid = child.id() as libc::pid_t;
    // SAFETY: signalling our own child process.
    unsafe {
        libc::kill(pid, libc::SIGTERM);
    }
    // the tool ignores SIGTERM: diskdash would wait 3 s before SIGKILL
    std::thread::sleep(Duration::from_millis(300));
    let second = Instant::now();
    // SAFETY: as above.
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    let took = second.elapsed();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(
        took < Duration::from_millis(1500),
        "took {took:?}: {stderr}"
    );
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("second signal"), "{stderr}");
}

#[test]
fn a_tool_printing_without_end_gives_a_bounded_record_marked_truncated() {
    let bin = bin_dir(&[("dd", fake("flood"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = diskdash()
        .args(["run", "--target", target.path().to_str().unwrap()])
        .args(["--suite", "quick", "--only", "dd-write-8k-dsync"])
        .args(["--out", out.path().to_str().unwrap()])
        .env("PATH", path_with(bin.path()))
        .env("DISKDASH_FAKE_MIB", "24")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let file = walkdir::WalkDir::new(out.path())
        .into_iter()
        .map(|e| e.unwrap())
        .find(|e| e.file_type().is_file())
        .unwrap();
    // the two streams a record keeps, at most the limit each, and the rest
    let limit = diskdash::bounded::STREAM_LIMIT;
    assert!(24 << 20 > 2 * limit, "the flood fits in a record");
    let size = file.metadata().unwrap().len() as usize;
    assert!(size < 2 * limit + (1 << 20), "record of {size} bytes");
    let rec = &records(out.path())[0];
    // the tail kept dd's summary: the measurement is there
    assert_eq!(rec.status, Status::Ok, "{:?}", rec.error);
    let raw = rec.raw.as_ref().unwrap();
    assert!(raw.truncated);
    assert_eq!(raw.stdout_bytes, Some(24 << 20));
    assert!(raw.stderr_bytes.unwrap() > 24 << 20);
    let stdout = raw.stdout.as_deref().unwrap();
    assert!(stdout.len() <= limit + 100, "{}", stdout.len());
    assert!(stdout.contains("[... diskdash left out "), "no cut line");
    assert!(raw.stderr.as_deref().unwrap().ends_with("3.4 MB/s\n"));
}

#[test]
fn a_fio_output_file_linked_elsewhere_is_not_read() {
    let bin = bin_dir(&[("fio", fake("fio-link"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let secret_dir = tempfile::tempdir().unwrap();
    let secret = secret_dir.path().join("secret");
    std::fs::write(&secret, "SECRET-NOT-FOR-RECORDS\n").unwrap();
    let o = diskdash()
        .args(["run", "--target", target.path().to_str().unwrap()])
        .args(["--suite", "quick", "--only", "fio-randread-4k-qd64"])
        .args(["--out", out.path().to_str().unwrap()])
        .env("PATH", path_with(bin.path()))
        .env("DISKDASH_FAKE_LINK", &secret)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    let recs = records(out.path());
    assert_eq!(recs[0].status, Status::Failed);
    assert!(
        recs[0]
            .error
            .as_deref()
            .unwrap()
            .contains("did not write its output file"),
        "{:?}",
        recs[0].error
    );
    let text = serde_json::to_string(&recs[0]).unwrap();
    assert!(!text.contains("SECRET-NOT-FOR-RECORDS"), "{text}");
}

#[test]
fn a_result_check_would_refuse_is_written_as_a_failed_record() {
    let bin = bin_dir(&[("dd", fake("huge"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let r = run(
        &path_with(bin.path()),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "dd-write-8k-dsync",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let recs = records(out.path());
    assert_eq!(recs[0].status, Status::Failed);
    assert!(recs[0].metrics.is_empty());
    let e = recs[0].error.as_deref().unwrap();
    assert!(e.contains("would not pass `diskdash check`"), "{e}");
    assert!(e.contains("implausibly large"), "{e}");
    assert!(recs[0]
        .raw
        .as_ref()
        .unwrap()
        .stderr
        .as_deref()
        .unwrap()
        .contains("17 EB/s"));
    // and check accepts what run wrote
    let o = diskdash().arg("check").arg(out.path()).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn a_result_below_its_plausible_range_is_written_as_a_failed_record_naming_it() {
    let bin = bin_dir(&[("dd", fake("instant"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let r = run(
        &path_with(bin.path()),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "dd-write-8k-dsync",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let recs = records(out.path());
    assert_eq!(recs[0].status, Status::Failed);
    assert!(recs[0].metrics.is_empty());
    let e = recs[0].error.as_deref().unwrap();
    assert!(e.contains("would not pass `diskdash check`"), "{e}");
    assert!(
        e.contains(
            "metric `elapsed`: value 1e-13 is implausibly small (plausible: 0, or 1e-10 to 1e7 s)"
        ),
        "{e}"
    );
    let o = diskdash().arg("check").arg(out.path()).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn a_suite_cannot_make_fio_run_programs_or_load_engines() {
    let dir = tempfile::tempdir().unwrap();
    let target = tempfile::tempdir().unwrap();
    let path = std::env::var("PATH").unwrap_or_default();
    for (extra, expected) in [
        (
            "ioengine = \"exec\"\nprogram = \"touch\"\narguments = \"/tmp/pwned\"",
            "ioengine = exec",
        ),
        (
            "ioengine = \"external:/tmp/lib.so\"",
            "ioengine = external:/tmp/lib.so",
        ),
        ("ioengine = \"/tmp/lib.so\"", "ioengine = /tmp/lib.so"),
        (
            "ioeng = \"exec\"",
            "fio parameter `ioeng = exec` (fio's `ioengine`)",
        ),
        ("program = \"touch\"", "fio parameter `program`"),
        ("arguments = \"x\"", "fio parameter `arguments`"),
        ("std_redirect = 1", "fio parameter `std_redirect`"),
    ] {
        let suite = dir.path().join("s.toml");
        std::fs::write(
            &suite,
            format!("[[test]]\nid = \"evil\"\ntool = \"fio\"\n{extra}\n"),
        )
        .unwrap();
        let r = run(
            &path,
            &[
                "--target",
                target.path().to_str().unwrap(),
                "--suite",
                suite.to_str().unwrap(),
                "--dry-run",
            ],
        );
        assert_eq!(r.code, Some(2), "{extra}: {}", r.stderr);
        assert!(r.stderr.contains(expected), "{extra}: {}", r.stderr);
    }
    // the allowed engines still pass
    for engine in ["io_uring", "psync", "null"] {
        let suite = dir.path().join("s.toml");
        std::fs::write(
            &suite,
            format!("[[test]]\nid = \"ok\"\ntool = \"fio\"\nioengine = \"{engine}\"\n"),
        )
        .unwrap();
        let r = run(
            &path,
            &[
                "--target",
                target.path().to_str().unwrap(),
                "--suite",
                suite.to_str().unwrap(),
                "--dry-run",
            ],
        );
        assert_eq!(r.code, Some(0), "{engine}: {}", r.stderr);
    }
    assert!(is_empty_dir(target.path()));
}

#[test]
fn out_dash_refuses_to_start_into_a_closed_or_null_stdout() {
    use std::os::unix::process::CommandExt;
    let bin = bin_dir(&[("dd", fake("fail"))]);
    let target = tempfile::tempdir().unwrap();
    for closed in [false, true] {
        let mut cmd = diskdash();
        cmd.args(["run", "--target", target.path().to_str().unwrap()])
            .args([
                "--suite",
                "quick",
                "--only",
                "dd-write-8k-dsync",
                "--out",
                "-",
            ])
            .env("PATH", path_with(bin.path()))
            .stdin(Stdio::null())
            .stdout(Stdio::null());
        if closed {
            // SAFETY: close(2) in the child before exec, nothing else.
            unsafe {
                cmd.pre_exec(|| {
                    libc::close(1);
                    Ok(())
                });
            }
        }
        let o = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "closed={closed}: {stderr}");
        assert!(
            stderr.contains("standard output is closed or /dev/null"),
            "{stderr}"
        );
        assert!(!stderr.contains("records streamed"), "{stderr}");
        assert!(is_empty_dir(target.path()));
    }
}

/// Whether process `pid` has ended (gone, or a zombie nobody reaped yet).
fn ended(pid: libc::pid_t) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

#[test]
fn sigkill_takes_the_tool_along_and_the_scratch_left_is_found_and_cleaned() {
    use std::os::fd::AsRawFd;
    let bin = bin_dir(&[("fio", fake("hang-pid")), ("dd", fake("fail"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let pid_file = out.path().join("tool.pid");
    let mut guard = KillOnDrop(
        diskdash()
            .args(["run", "--target", target.path().to_str().unwrap()])
            .args(["--suite", "quick", "--only", "fio-randread-4k-qd64"])
            .args(["--out", out.path().join("r").to_str().unwrap()])
            .env("PATH", path_with(bin.path()))
            .env("DISKDASH_FAKE_PID", &pid_file)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    let tool = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|t| t.trim().parse::<libc::pid_t>().ok())
        {
            break pid;
        }
        assert!(Instant::now() < deadline, "the tool never started");
        std::thread::sleep(Duration::from_millis(20));
    };
    guard.0.kill().unwrap();
    guard.0.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(3);
    while !ended(tool) {
        if Instant::now() > deadline {
            // SAFETY: ending the orphan so that it does not outlive the test.
            unsafe {
                libc::kill(tool, libc::SIGKILL);
            }
            panic!("the tool kept running after diskdash was killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let stale: Vec<_> = std::fs::read_dir(target.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(stale.len(), 1, "{stale:?}");
    let run_id = stale[0]
        .strip_prefix(".diskdash-scratch-")
        .unwrap()
        .to_string();
    // a scratch whose run is alive (its lock held here) is listed, never removed
    let live = target
        .path()
        .join(".diskdash-scratch-20260101T000000Z-aaaaaa");
    std::fs::create_dir(&live).unwrap();
    let lock = std::fs::File::create(live.join(".lock")).unwrap();
    // SAFETY: flock(2) on a descriptor this test owns.
    assert_eq!(unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX) }, 0);

    let o = diskdash()
        .args(["doctor", "--target", target.path().to_str().unwrap()])
        .env("PATH", path_with(bin.path()))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    // a scratch left behind is reported, not a failure of doctor
    assert_eq!(o.status.code(), Some(0), "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("scratch ") && l.contains(&run_id))
        .unwrap_or_else(|| panic!("stale scratch not listed: {text}"));
    assert!(
        line.contains("GiB") && line.contains("--clean-stale"),
        "{line}"
    );
    assert!(
        text.contains("run 20260101T000000Z-aaaaaa, 0.00 GiB, still running"),
        "{text}"
    );

    let r = run(
        &path_with(bin.path()),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "dd-write-8k-dsync",
            "--out",
            out.path().join("r").to_str().unwrap(),
            "--clean-stale",
        ],
    );
    assert!(
        r.stderr.contains("removed `") && r.stderr.contains(&run_id),
        "{}",
        r.stderr
    );
    // the live run's volume is not measured twice: the run stops there
    assert!(
        r.stderr
            .contains("error: another diskdash run (20260101T000000Z-aaaaaa) is measuring `"),
        "{}",
        r.stderr
    );
    let left: Vec<_> = std::fs::read_dir(target.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(left, [live], "{}", r.stderr);
}

#[test]
fn a_full_disk_is_named_in_the_failed_record() {
    let bin = bin_dir(&[("dd", fake("enospc"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let r = run(
        &path_with(bin.path()),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "dd-write-8k-dsync",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let recs = records(out.path());
    assert_eq!(
        recs[0].error.as_deref(),
        Some("`dd` exited with status 1: dd: error writing 'dd.out': No space left on device")
    );
}

#[test]
fn a_zero_timeout_is_refused() {
    let target = tempfile::tempdir().unwrap();
    let r = run(
        &std::env::var("PATH").unwrap_or_default(),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--timeout",
            "0",
            "--dry-run",
        ],
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("--timeout"), "{}", r.stderr);
}

/// Runs two dd tests whose fake dd runs `script` (a shell line; `$OUT` is
/// `--out`) and returns the run with `--out`'s path.
fn run_losing_out(script: &str) -> (Run, tempfile::TempDir, PathBuf) {
    let bin = tempfile::tempdir().unwrap();
    let dd = bin.path().join("dd");
    std::fs::write(
        &dd,
        format!(
            "#!/bin/sh\ncase \"$1\" in --version) echo \"dd (coreutils) 9.1\"; exit 0 ;; esac\n\
             OUT=\"$DISKDASH_FAKE_OUT\"\n{script}\n\
             echo \"512+0 records in\" >&2\necho \"512+0 records out\" >&2\n\
             echo \"4194304 bytes (4.2 MB, 4.0 MiB) copied, 1.2232 s, 3.4 MB/s\" >&2\nexit 0\n"
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dd, std::fs::Permissions::from_mode(0o755)).unwrap();
    let target = tempfile::tempdir().unwrap();
    let parent = tempfile::tempdir().unwrap();
    let out = parent.path().join("results");
    let o = diskdash()
        .args(["run", "--target", target.path().to_str().unwrap()])
        .args(["--suite", "quick"])
        .args(["--only", "dd-write-8k-dsync,dd-write-128k-fdatasync"])
        .args(["--out", out.to_str().unwrap()])
        .env("PATH", path_with(bin.path()))
        .env("DISKDASH_FAKE_OUT", &out)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(is_empty_dir(target.path()), "scratch left behind");
    let r = Run {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    (r, parent, out)
}

/// The run stopped at its first record, naming `--out`, and that record
/// is on stderr as a whole, valid JSON line.
fn assert_out_lost(r: &Run, out: &Path, why: &str) {
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(
        r.stderr.contains(&out.display().to_string()) && r.stderr.contains(why),
        "{}",
        r.stderr
    );
    assert!(
        !r.stderr.contains("a file of that name exists"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("jobs ok"), "{}", r.stderr);
    let lines: Vec<&str> = r.stderr.lines().filter(|l| l.starts_with('{')).collect();
    assert_eq!(lines.len(), 1, "{}", r.stderr);
    let rec = diskdash::record::from_json(lines[0]).unwrap();
    // the first test of the run
    assert_eq!(rec.test.id, "dd-write-128k-fdatasync");
    assert_eq!(rec.status, Status::Ok);
}

#[test]
fn an_out_removed_mid_run_is_not_recreated_and_the_run_stops() {
    let (r, _parent, out) = run_losing_out("rm -rf \"$OUT\"");
    assert_out_lost(&r, &out, "missing or was removed");
    assert!(!out.exists(), "--out was recreated");
}

#[test]
fn an_out_replaced_mid_run_gets_no_record_and_the_run_stops() {
    let (r, _parent, out) = run_losing_out("rm -rf \"$OUT\" && mkdir \"$OUT\"");
    assert_out_lost(&r, &out, "replaced");
    assert!(records(&out).is_empty(), "a record went to the new --out");
}

#[test]
fn a_tool_without_its_exec_bit_is_named_not_executable() {
    use std::os::unix::fs::PermissionsExt;
    let bin = tempfile::tempdir().unwrap();
    let fio = bin.path().join("fio");
    std::fs::copy(fake("fail"), &fio).unwrap();
    std::fs::set_permissions(&fio, std::fs::Permissions::from_mode(0o644)).unwrap();
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    // only that directory: an executable fio further on would be run
    let r = run(
        bin.path().to_str().unwrap(),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "fio-randread-4k-qd64",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let recs = records(out.path());
    assert_eq!(recs.len(), 1);
    let err = recs[0].error.as_deref().unwrap();
    assert!(err.contains("not executable"), "{err}");
    assert!(err.contains(&fio.display().to_string()), "{err}");
    assert!(!err.contains("not installed"), "{err}");
    // and doctor says the same of it
    let o = diskdash()
        .args(["doctor", "--target", target.path().to_str().unwrap()])
        .env("PATH", bin.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let doctor = String::from_utf8_lossy(&o.stdout);
    let line = doctor
        .lines()
        .find(|l| l.trim_start().starts_with("fio "))
        .unwrap_or_else(|| panic!("no fio line: {doctor}"));
    assert!(line.contains("NOT EXECUTABLE"), "{line}");
    assert!(line.contains(&fio.display().to_string()), "{line}");
}

#[test]
fn a_repeat_above_its_limit_is_refused_naming_the_limit() {
    let target = tempfile::tempdir().unwrap();
    let path = std::env::var("PATH").unwrap_or_default();
    let t = target.path().to_str().unwrap();
    // checked first: today's code lists 1001 repetitions
    let r = run(
        &path,
        &[
            "--target", t, "--suite", "quick", "--repeat", "1001", "--list",
        ],
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("1000"), "{}", r.stderr);
    let r = run(
        &path,
        &[
            "--target",
            t,
            "--suite",
            "quick",
            "--repeat",
            "4294967295",
            "--list",
        ],
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("1000"), "{}", r.stderr);
    let r = run(
        &path,
        &[
            "--target", t, "--suite", "quick", "--repeat", "1000", "--list",
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn a_negative_value_in_a_fio_log_fails_the_record_without_its_timeline() {
    let bin = bin_dir(&[("fio", fake("neglog"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let suite = out.path().join("sustained.toml");
    std::fs::write(
        &suite,
        "name = \"s\"\n[[test]]\nid = \"fio-sustained-read-1m-qd4\"\ntool = \"fio\"\nrw = \"read\"\n\
         bs = \"1m\"\niodepth = 4\nsize = \"32m\"\ntime_based = true\nruntime = 15\n",
    )
    .unwrap();
    let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fio/logs/tree");
    let records_dir = out.path().join("records");
    let o = diskdash()
        .args(["run", "--target", target.path().to_str().unwrap()])
        .args(["--suite", suite.to_str().unwrap()])
        .args(["--out", records_dir.to_str().unwrap()])
        .env("PATH", path_with(bin.path()))
        .env("DISKDASH_FAKE_DIR", &tree)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    let recs = records(&records_dir);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].status, Status::Failed);
    assert!(recs[0].timeline.is_none());
    let e = recs[0].error.as_deref().unwrap();
    assert!(
        e.contains("fio log `fio_iops.1.log`: line 3: value -840 is negative"),
        "{e}"
    );
    // and check accepts what run wrote
    let o = diskdash().arg("check").arg(&records_dir).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn a_suite_test_id_too_long_for_a_record_id_is_refused_naming_it() {
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let suite = out.path().join("long.toml");
    let id = format!("dd-{}", "x".repeat(197));
    std::fs::write(
        &suite,
        format!("name = \"s\"\n[[test]]\nid = \"{id}\"\ntool = \"dd\"\nbs = \"8k\"\ncount = 1\n"),
    )
    .unwrap();
    let path = std::env::var("PATH").unwrap_or_default();
    let r = run(
        &path,
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            suite.to_str().unwrap(),
            "--list",
        ],
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("is 200 characters long, over the limit of 170"),
        "{}",
        r.stderr
    );
    // at the limit, every record id is within 200
    let id = format!("dd-{}", "x".repeat(167));
    std::fs::write(
        &suite,
        format!("name = \"s\"\n[[test]]\nid = \"{id}\"\ntool = \"dd\"\nbs = \"8k\"\ncount = 1\nrepeat = 1000\n"),
    )
    .unwrap();
    let r = run(
        &path,
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            suite.to_str().unwrap(),
            "--list",
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn a_tool_version_longer_than_a_name_is_cut_so_check_accepts_the_record() {
    let bin = tempfile::tempdir().unwrap();
    let dd = bin.path().join("dd");
    // a dd whose version line is one 300-character word, and whose run
    // prints a real summary
    std::fs::write(
        &dd,
        format!(
            "#!/bin/sh\ncase \"$1\" in --version) echo \"dd (coreutils) 9.{}\"; exit 0 ;; esac\n\
             echo '1024+0 records in' >&2\necho '1024+0 records out' >&2\n\
             echo '8388608 bytes (8.4 MB, 8.0 MiB) copied, 0.346904 s, 24.2 MB/s' >&2\n",
            "1".repeat(300)
        ),
    )
    .unwrap();
    let mut perm = std::fs::metadata(&dd).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&dd, perm).unwrap();
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let r = run(
        &path_with(bin.path()),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "dd-write-8k-dsync",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let recs = records(out.path());
    let v = recs[0].test.tool_version.as_deref().unwrap();
    assert_eq!(v.chars().count(), 200, "{v}");
    assert!(v.starts_with("coreutils 9.111") && v.ends_with('…'), "{v}");
    let o = diskdash().arg("check").arg(out.path()).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn a_tool_number_that_is_not_a_number_gives_a_failed_record_naming_it() {
    let bin = bin_dir(&[("fio", fake("bad-numbers"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let r = run(
        &path_with(bin.path()),
        &[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "fio-randread-4k-qd64",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let recs = records(out.path());
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].status, Status::Failed);
    assert_eq!(
        recs[0].error.as_deref(),
        Some("cannot parse the output of `fio`: fio JSON output: jobs[0].read.iops is \"NaN\": expected a number >= 0")
    );
    assert!(recs[0].metrics.is_empty(), "{:?}", recs[0].metrics);
    assert!(
        r.stderr.contains("jobs[0].read.iops is \"NaN\""),
        "{}",
        r.stderr
    );
}

/// A metadata service on a local port answering like GCP's, or (`answer`
/// false) one that accepts connections and never says a word.
fn metadata_server(answer: bool) -> (std::net::SocketAddr, std::thread::JoinHandle<()>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let handle = std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in listener.incoming().take(3) {
            let Ok(mut s) = s else { return };
            let mut buf = [0u8; 2048];
            let n = s.read(&mut buf).unwrap_or(0);
            let head = String::from_utf8_lossy(&buf[..n]).into_owned();
            if answer {
                let (code, body) =
                    if head.starts_with("GET /computeMetadata/v1/instance/machine-type ") {
                        (200, "projects/1/machineTypes/e2-small")
                    } else {
                        (404, "")
                    };
                let _ = write!(
                    s,
                    "HTTP/1.1 {code} X\r\nContent-Length: {}\r\n\r\n{body}",
                    body.len()
                );
            } else {
                held.push(s);
            }
        }
    });
    (addr, handle)
}

fn run_with_metadata(addr: std::net::SocketAddr, extra: &[&str]) -> (Run, Vec<Record>, Duration) {
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let o = diskdash()
        .args([
            "run",
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "dd-write-128k-fdatasync",
            "--out",
            out.path().to_str().unwrap(),
        ])
        .args(extra)
        .env("DISKDASH_METADATA_ADDR", addr.to_string())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let took = start.elapsed();
    let r = Run {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    (r, records(out.path()), took)
}

#[test]
fn the_instance_type_comes_from_the_flag_else_the_metadata_service() {
    let (addr, server) = metadata_server(true);
    let (r, recs, _) = run_with_metadata(addr, &[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr.contains("instance type e2-small (GCP metadata)"),
        "{}",
        r.stderr
    );
    assert_eq!(recs[0].host.instance_type.as_deref(), Some("e2-small"));
    drop(server);
    // the flag wins, and nothing is asked
    let (r, recs, _) = run_with_metadata(addr, &["--instance", "m5.large"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr.contains("instance type m5.large (--instance)"),
        "{}",
        r.stderr
    );
    assert_eq!(recs[0].host.instance_type.as_deref(), Some("m5.large"));
    // a flag that is no instance type name is a usage error
    let (r, recs, _) = run_with_metadata(addr, &["--instance", "m5 large; rm"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("--instance"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("expected an instance type such as m5.large"),
        "{}",
        r.stderr
    );
    assert!(recs.is_empty());
}

#[test]
fn doctor_names_the_instance_type_the_metadata_gives() {
    let (addr, _server) = metadata_server(true);
    let target = tempfile::tempdir().unwrap();
    let doctor = |addr: String| {
        let o = diskdash()
            .args(["doctor", "--target", target.path().to_str().unwrap()])
            .env("DISKDASH_METADATA_ADDR", addr)
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let text = doctor(addr.to_string());
    assert!(
        text.contains("\ninstance     e2-small (GCP metadata)\n"),
        "{text}"
    );
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = closed.local_addr().unwrap();
    drop(closed);
    let text = doctor(addr.to_string());
    assert!(
        text.contains(
            "\ninstance     unknown: no cloud metadata answered (give run --instance TYPE)\n"
        ),
        "{text}"
    );
}

#[test]
fn a_metadata_service_that_never_answers_costs_the_run_at_most_a_second() {
    let (addr, _server) = metadata_server(false);
    let (r, recs, took) = run_with_metadata(addr, &[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].host.instance_type, None);
    assert!(!r.stderr.contains("instance type"), "{}", r.stderr);
    // the test itself takes a fraction of a second (8 MiB with fdatasync)
    assert!(took < Duration::from_secs(6), "took {took:?}");
    // nothing listening at all: refused at once
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = closed.local_addr().unwrap();
    drop(closed);
    let (r, recs, _) = run_with_metadata(addr, &[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(recs[0].host.instance_type, None);
}

/// A dd that reports `rates` (seconds per copy of 128 MiB) in turn, one a
/// call, counting its calls in a file beside it.
fn dd_reporting(dir: &Path, seconds: &[&str]) -> PathBuf {
    let dd = dir.join("dd");
    let cases: String = seconds
        .iter()
        .enumerate()
        .map(|(i, s)| format!("  {}) t={s} ;;\n", i + 1))
        .collect();
    std::fs::write(
        &dd,
        format!(
            "#!/bin/sh\ncase \"$1\" in --version) echo 'dd (coreutils) 9.1'; exit 0 ;; esac\n\
             n=$(cat \"$0.count\" 2>/dev/null || echo 0); n=$((n+1)); echo $n > \"$0.count\"\n\
             case $n in\n{cases}  *) t=1.0 ;;\nesac\n\
             echo '128+0 records in' >&2\necho '128+0 records out' >&2\n\
             echo \"134217728 bytes (134 MB, 128 MiB) copied, $t s, 134 MB/s\" >&2\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&dd, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    dd
}

#[test]
fn a_third_repetition_is_left_out_when_the_first_two_agree_within_5_percent() {
    let run_with = |seconds: &[&str], extra: &[&str]| {
        let dir = tempfile::tempdir().unwrap();
        dd_reporting(dir.path(), seconds);
        let target = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        let suite = dir.path().join("s.toml");
        std::fs::write(
            &suite,
            "repeat = 3\n[[test]]\nid = 'bulk'\ntool = 'dd'\nbs = '1M'\nsize = '128M'\nconv = 'fdatasync'\n",
        )
        .unwrap();
        let mut args = vec![
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            suite.to_str().unwrap(),
            "--out",
            out.path().to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let r = run(&path_with(dir.path()), &args);
        (r, records(out.path()))
    };
    // 1.00 s and 1.04 s: 3.8% apart
    let (r, recs) = run_with(&["1.00", "1.04"], &[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(recs.len(), 2);
    assert!(
        r.stderr.contains(
            "[3/3] bulk r3/3 not run: r1 and r2 agree within 5% (write_bw 3.8% apart), \
             so the spread is known (--repeat 3 runs them all)"
        ),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("2 of 3 jobs ok (1 not needed: their spread was already known)"),
        "{}",
        r.stderr
    );
    // 1.00 s and 1.10 s: 9.1% apart, the third runs
    let (r, recs) = run_with(&["1.00", "1.10"], &[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(recs.len(), 3);
    assert!(!r.stderr.contains("not run"), "{}", r.stderr);
    // --repeat 3 asks for three
    let (r, recs) = run_with(&["1.00", "1.00"], &["--repeat", "3"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(recs.len(), 3);
}

#[test]
fn a_dry_run_says_which_published_limits_its_stop_rule_uses() {
    let out = tempfile::tempdir().unwrap();
    let records_dir = out.path().join("records");
    let dry = |extra: &[&str]| {
        let mut argv = vec![
            "--dry-run",
            "--suite",
            "standard",
            "--out",
            records_dir.to_str().unwrap(),
            "--provider",
            "Amazon",
            "--offering",
            "gp2",
            "--size-gb",
            "100",
        ];
        argv.extend_from_slice(extra);
        let r = run(&std::env::var("PATH").unwrap_or_default(), &argv);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        r.stdout
    };
    // without --limits, the catalogue's gp2 row (Amazon is AWS) gives its burst level
    let stdout = dry(&[]);
    assert_eq!(
        stdout.lines().last().unwrap(),
        "burst limits: the catalogue's row for Amazon gp2, promised as of 2026-12 \
         (https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html)"
    );
    assert!(
        stdout.contains("a flat level at a published burst level runs the whole window"),
        "{stdout}"
    );
    let stdout = dry(&["--no-catalogue"]);
    assert_eq!(
        stdout.lines().last().unwrap(),
        "burst limits: none (--no-catalogue)"
    );
    assert!(
        stdout.contains("nothing is known of the volume's bursts (no published limits row)"),
        "{stdout}"
    );
    // a --limits row replaces the catalogue's for its offering
    let limits = out.path().join("limits.csv");
    std::fs::write(
        &limits,
        "provider,offering,size_min_gb,size_max_gb,baseline_iops,baseline_iops_per_gb,burst_iops,baseline_mbps,baseline_mbps_per_gb,burst_mbps,source,as_of\n\
         AWS,gp2,,,100,3,,,,,,\n",
    )
    .unwrap();
    let stdout = dry(&["--limits", limits.to_str().unwrap()]);
    assert_eq!(
        stdout.lines().last().unwrap(),
        "burst limits: --limits line 2 for Amazon gp2"
    );
    assert!(
        stdout.contains("the offering is known not to burst (published limits)"),
        "{stdout}"
    );
}

#[test]
fn a_fio_test_whose_first_repetition_held_its_level_is_not_repeated() {
    let bin = bin_dir(&[("fio", fake("fio-json"))]);
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fio");
    let run_with = |json: &str, headline: &str, extra: &[&str]| {
        let dir = tempfile::tempdir().unwrap();
        let target = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        let suite = dir.path().join("s.toml");
        std::fs::write(
            &suite,
            format!(
                "repeat = 3\n[[test]]\nid = 't'\ntool = 'fio'\nheadline = '{headline}'\n\
                 rw = 'randrw'\nbs = '4k'\nsize = '64M'\ntime_based = true\nruntime = 20\n"
            ),
        )
        .unwrap();
        let o = diskdash()
            .args(["run", "--target", target.path().to_str().unwrap()])
            .args(["--suite", suite.to_str().unwrap()])
            .args(["--out", out.path().to_str().unwrap()])
            .args(extra)
            .env("PATH", path_with(bin.path()))
            .env("DISKDASH_FAKE_JSON", fixtures.join(json))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(0), "{stderr}");
        (records(out.path()).len(), stderr)
    };
    // reads held at the volume's cap: 1.6% over 39 samples of 500 ms
    let (n, stderr) = run_with("throttled-randread-4k-qd64-20s.json", "read_iops", &[]);
    assert_eq!(n, 1, "{stderr}");
    for rep in ["r2/3", "r3/3"] {
        assert!(
            stderr.contains(&format!(
                "t {rep} not run: r1 held its level (read_iops varied 1.6% over 39 of fio's own \
                 samples, at most 5%), so the spread is known (--repeat 3 runs them all)"
            )),
            "{stderr}"
        );
    }
    assert!(stderr.contains("1 of 3 jobs ok (2 not needed: their spread was already known)"));
    // the mixed test's writes varied 5.4%: a second repetition runs (the
    // replayed figures then agree, so not a third)
    let (n, stderr) = run_with("throttled-randrw70-4k-qd32-20s.json", "write_iops", &[]);
    assert_eq!(n, 2, "{stderr}");
    assert!(
        stderr.contains("t r3/3 not run: r1 and r2 agree within 5%"),
        "{stderr}"
    );
    // a p99 has no per-interval samples to have held
    let (n, stderr) = run_with("throttled-randread-4k-qd64-20s.json", "read_clat_p99", &[]);
    assert_eq!(n, 2, "{stderr}");
    // --repeat 3 runs them all
    let (n, stderr) = run_with(
        "throttled-randread-4k-qd64-20s.json",
        "read_iops",
        &["--repeat", "3"],
    );
    assert_eq!(n, 3, "{stderr}");
    assert!(!stderr.contains("not run"), "{stderr}");
}

#[test]
fn a_second_run_on_a_target_another_run_measures_stops_naming_it() {
    let bin = bin_dir(&[("fio", fake("hang"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let run = |only: &str| {
        let mut cmd = diskdash();
        cmd.args([
            "run",
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            only,
            "--out",
            out.path().to_str().unwrap(),
        ])
        .env("PATH", path_with(bin.path()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
        cmd
    };
    let mut first = KillOnDrop(run("fio-randread-4k-qd64").spawn().unwrap());
    wait_for(
        "the first run never reached its test",
        Duration::from_secs(60),
        || in_test(target.path(), "fio-randread-4k-qd64.r1"),
    );
    let second = run("dd-write-128k-fdatasync").output().unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: another diskdash run (")
            && stderr.contains("two runs on one volume would each measure a share of it"),
        "{stderr}"
    );
    // it wrote nothing: no record, and only the first run's scratch
    assert!(records(out.path()).is_empty());
    assert_eq!(std::fs::read_dir(target.path()).unwrap().count(), 1);
    // SAFETY: signalling our own child process.
    unsafe {
        libc::kill(first.0.id() as libc::pid_t, libc::SIGTERM);
    }
    first.0.wait().unwrap();
}

#[test]
fn runs_on_two_directories_of_one_device_at_once_say_so_in_their_records() {
    let bin = bin_dir(&[("fio", fake("fio-gate"))]);
    let json =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fio/randread-4k-qd64.json");
    let tmp = tempfile::tempdir().unwrap();
    let registry = tmp.path().join("registry");
    let dir = |name: &str| {
        let d = tmp.path().join(name);
        std::fs::create_dir(&d).unwrap();
        d.canonicalize().unwrap()
    };
    let (a, b, c) = (dir("a"), dir("b"), dir("c"));
    let run = |name: &str, target: &Path| {
        let mut cmd = diskdash();
        cmd.args(["run", "--target", target.to_str().unwrap()])
            .args(["--suite", "quick", "--only", "fio-randread-4k-qd64"])
            .arg("--out")
            .arg(tmp.path().join(format!("out-{name}")))
            .env("PATH", path_with(bin.path()))
            // one registry for the three runs
            .env("DISKDASH_RUN_REGISTRY", &registry)
            .env("DISKDASH_FAKE_JSON", &json)
            .env(
                "DISKDASH_FAKE_GATE",
                tmp.path().join(format!("gate-{name}")),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(tmp.path().join(format!("err-{name}"))).unwrap());
        cmd
    };
    let open_gate =
        |name: &str| std::fs::write(tmp.path().join(format!("gate-{name}")), "").unwrap();
    let stderr =
        |name: &str| std::fs::read_to_string(tmp.path().join(format!("err-{name}"))).unwrap();
    let record = |name: &str| {
        let recs = records(&tmp.path().join(format!("out-{name}")));
        assert_eq!(recs.len(), 1, "{}", stderr(name));
        assert_eq!(recs[0].status, Status::Ok, "{:?}", recs[0].error);
        recs.into_iter().next().unwrap()
    };
    let wait_in_test = |target: &Path| {
        let what = format!("the run on {target:?} never reached its test");
        wait_for(&what, Duration::from_secs(60), || {
            in_test(target, "fio-randread-4k-qd64.r1")
        });
    };
    let said = |rec: &Record| -> Vec<String> {
        rec.warnings
            .iter()
            .filter(|w| w.starts_with("another diskdash run"))
            .cloned()
            .collect()
    };
    // the run on `a` is in its test when the run on `b` starts its own;
    // `a`'s test ends while `b`'s still runs
    let mut first = KillOnDrop(run("a", &a).spawn().unwrap());
    wait_in_test(&a);
    let mut second = KillOnDrop(run("b", &b).spawn().unwrap());
    wait_in_test(&b);
    open_gate("a");
    assert_eq!(first.0.wait().unwrap().code(), Some(0), "{}", stderr("a"));
    open_gate("b");
    assert_eq!(second.0.wait().unwrap().code(), Some(0), "{}", stderr("b"));
    let (rec_a, rec_b) = (record("a"), record("b"));
    let (id_a, id_b) = (rec_a.run_id.clone().unwrap(), rec_b.run_id.clone().unwrap());
    {
        use std::os::unix::fs::MetadataExt;
        let dev = std::fs::metadata(&a).unwrap().dev();
        let device = format!("{}:{}", libc::major(dev), libc::minor(dev));
        let warning = |id: &str, target: &Path| {
            format!(
                "another diskdash run (run id {id}, target {}) measured the same device ({device}) \
                 during this test: its figures may be shared with that run",
                target.display()
            )
        };
        assert_eq!(said(&rec_a), [warning(&id_b, &b)], "{}", stderr("a"));
        assert_eq!(said(&rec_b), [warning(&id_a, &a)], "{}", stderr("b"));
        // and on the terminal, with the test it concerns
        assert!(
            stderr("b").contains(&format!(
                "warning: fio-randread-4k-qd64 r1: {}",
                warning(&id_a, &a)
            )),
            "{}",
            stderr("b")
        );
    }
    // a run alone on the device: no such warning, and the registry is left
    // empty (each run removes its file)
    open_gate("c");
    let third = run("c", &c).status().unwrap();
    assert_eq!(third.code(), Some(0), "{}", stderr("c"));
    assert!(said(&record("c")).is_empty(), "{:?}", record("c").warnings);
    assert!(
        !stderr("c").contains("another diskdash run"),
        "{}",
        stderr("c")
    );
    assert!(is_empty_dir(&registry));
}

#[test]
fn a_registry_that_cannot_be_written_is_said_once_and_the_run_goes_on() {
    let bin = bin_dir(&[("fio", fake("fio-json"))]);
    let json =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fio/randread-4k-qd64.json");
    let tmp = tempfile::tempdir().unwrap();
    let target = tmp.path().join("target");
    std::fs::create_dir(&target).unwrap();
    // a file where the registry directory would be
    let blocked = tmp.path().join("file");
    std::fs::write(&blocked, "").unwrap();
    let out = tmp.path().join("out");
    let o = diskdash()
        .args(["run", "--target", target.to_str().unwrap()])
        .args([
            "--suite",
            "quick",
            "--only",
            "fio-randread-4k-qd64,fio-randwrite-4k-qd64",
        ])
        .args(["--out", out.to_str().unwrap()])
        .env("PATH", path_with(bin.path()))
        .env("DISKDASH_RUN_REGISTRY", blocked.join("registry"))
        .env("DISKDASH_FAKE_JSON", &json)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr
            .matches("warning: other diskdash runs measuring this device at the same time cannot be detected")
            .count(),
        1,
        "{stderr}"
    );
    assert!(
        stderr.contains("set DISKDASH_RUN_REGISTRY to a writable directory"),
        "{stderr}"
    );
    assert_eq!(records(&out).len(), 2);
}
