//! The quick suite with the real tools against a temporary directory: one
//! `ok` record per test with non-zero metrics, raw output, host and target
//! facts, no scratch left, and records that `diskdash check` accepts.
//!
//! A missing tool fails the test (system tier: run with
//! `cargo test -- --include-ignored`).

use crate::require;

use std::path::Path;
use std::process::Command;

use diskdash::record::{Record, Status, StopReason, Tool};

const BIN: &str = env!("CARGO_BIN_EXE_diskdash");

fn need_tools() {
    let names: Vec<&str> = Tool::ALL.iter().map(|t| t.name()).collect();
    require::need(
        "real-tool test",
        &require::programs_missing(&names),
        "install them",
    );
}

fn records(dir: &Path) -> Vec<Record> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap())
        .collect()
}

#[test]
#[ignore = "system tier: needs fio, ioping, bonnie++ and dd"]
fn quick_suite_with_the_real_tools() {
    need_tools();
    // under target/, not /tmp: a tmpfs /tmp refuses fio's O_DIRECT
    let target = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    if let Err(e) = diskdash::run::doctor::o_direct_works(target.path()) {
        panic!("O_DIRECT does not work in {}: {e}", target.path().display());
    }
    let out = tempfile::tempdir().unwrap();
    let o = crate::run_common::diskdash()
        .args([
            "run",
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--out",
            out.path().to_str().unwrap(),
            "--study",
            "demo",
            "--provider",
            "local",
            "--offering",
            "disk",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("16 of 16 jobs ok"), "{stderr}");

    let recs = records(out.path());
    assert_eq!(recs.len(), 16);
    let mut ids: Vec<&str> = recs.iter().map(|r| r.test.id.as_str()).collect();
    ids.sort();
    let mut expected = vec![
        "fio-sustained-randread-4k-qd32",
        "fio-sustained-randwrite-4k-qd32",
        "fio-randread-4k-qd1",
        "fio-randrw70-4k-qd32",
        "dd-write-bulk",
        "dd-write-128k-fdatasync",
        "dd-write-8k-fdatasync",
        "dd-write-128k-dsync",
        "dd-write-8k-dsync",
        "fio-randread-4k-qd64",
        "fio-randwrite-4k-qd64",
        "ioping-latency",
        "ioping-seek",
        "ioping-seq",
        "ioping-seq-cached",
        "bonnie",
    ];
    expected.sort();
    assert_eq!(ids, expected);
    for r in &recs {
        assert_eq!(r.status, Status::Ok, "{}: {:?}", r.test.id, r.error);
        assert!(!r.metrics.is_empty(), "{}", r.test.id);
        for (name, m) in &r.metrics {
            assert!(
                m.value.is_finite() && m.value >= 0.0,
                "{} {name}",
                r.test.id
            );
        }
        let headline = match r.test.tool {
            Tool::Dd => "write_bw",
            Tool::Fio if r.test.id.contains("randread") => "read_iops",
            Tool::Fio => "write_iops",
            Tool::Ioping => "iops",
            Tool::Bonnie => "seq_char_write_bw",
        };
        assert!(
            r.metrics.get(headline).unwrap().value > 0.0,
            "{} {headline}",
            r.test.id
        );
        assert!(r.test.tool_version.is_some(), "{}", r.test.id);
        assert!(r
            .test
            .command
            .as_deref()
            .unwrap()
            .contains(".diskdash-scratch-"));
        let raw = r.raw.as_ref().unwrap();
        // fio stopped by its watcher exits 128 after printing its results
        let stopped_early = r.stop.as_ref().is_some_and(|s| {
            !matches!(
                s.reason,
                StopReason::WindowEnd | StopReason::FullWindowRequested
            )
        });
        let exit = if stopped_early { 128 } else { 0 };
        assert_eq!(raw.exit_code, Some(exit), "{}", r.test.id);
        // every sustained test says why it stopped, and no other test does
        assert_eq!(
            r.stop.is_some(),
            r.test.id.starts_with("fio-sustained-"),
            "{}",
            r.test.id
        );
        let printed = raw.stdout.as_deref().unwrap().len() + raw.stderr.as_deref().unwrap().len();
        assert!(printed > 0, "{}: no raw output kept", r.test.id);
        let h = &r.host;
        assert!(h.cpu_count.is_some() && h.memory_bytes.is_some() && h.kernel.is_some());
        assert!(h.arch.is_some() && h.os.is_some());
        let t = &r.target;
        assert!(t.path.is_some() && t.fs_type.is_some() && t.mount_point.is_some());
        assert!(t.device.is_some() && t.mount_options.is_some());
        assert!(t.size_bytes.unwrap() > 0 && t.free_bytes.unwrap() > 0);
        assert!(r.duration_s.unwrap() > 0.0);
    }
    // no scratch left behind
    assert!(std::fs::read_dir(target.path()).unwrap().next().is_none());
    // the sustained test kept real per-second logs: 20 s, or up to where
    // its watcher stopped it
    let sustained = recs
        .iter()
        .find(|r| r.test.id == "fio-sustained-randread-4k-qd32")
        .unwrap();
    let tl = sustained.timeline.as_ref().expect("a timeline");
    let n = tl.read.as_ref().unwrap().iops.len();
    let stop = sustained.stop.as_ref().expect("a stop");
    assert_eq!(stop.stopped_at_s, n as f64);
    if stop.reason == StopReason::WindowEnd {
        assert!((18..=21).contains(&n), "{n} samples");
    }
    assert_eq!(tl.logs.len(), 4, "{:?}", tl.logs.keys());
    assert!(tl.pattern.is_some());
    assert!(sustained.metrics.get("read_iops_sustained").unwrap().value > 0.0);
    // it read a file written once with incompressible data, by fio itself
    let pre = sustained.prefill.as_ref().expect("a pre-fill");
    assert_eq!(pre.error, None);
    assert_eq!(pre.bytes, (64u64 << 20) as f64);
    assert!(pre.bw.unwrap() > 0.0 && pre.seconds > 0.0, "{pre:?}");
    assert!(pre.command.contains("--refill_buffers"), "{}", pre.command);
    let cmd = sustained.test.command.as_deref().unwrap();
    assert!(cmd.contains("/prefill/fio.dat"), "{cmd}");
    // its I/O counts before the sustained test's own
    let prior = sustained.prior_io.as_ref().unwrap();
    assert!(prior.bytes >= pre.bytes && prior.seconds > 0.0, "{prior:?}");
    assert!(stderr.contains("pre-fill: ok"), "{stderr}");

    let check = Command::new(BIN)
        .arg("check")
        .arg(out.path())
        .output()
        .unwrap();
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
}

/// `diskdash run` of `ids` of the quick suite against a fresh directory
/// under `target/`: its records, after `check` accepted them.
fn run_quick(ids: &str) -> Vec<Record> {
    let target = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = crate::run_common::diskdash()
        .args(["run", "--suite", "quick", "--only", ids, "--target"])
        .arg(target.path())
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let check = Command::new(BIN)
        .arg("check")
        .arg(out.path())
        .output()
        .unwrap();
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    records(out.path())
}

#[test]
#[ignore = "system tier: needs fio"]
fn the_mixed_test_reads_and_writes_70_30_with_both_p99s() {
    require::need(
        "real-tool test",
        &require::programs_missing(&["fio"]),
        "install it",
    );
    let recs = run_quick("fio-randrw70-4k-qd32");
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert_eq!(r.status, Status::Ok, "{:?}", r.error);
    let m = |k: &str| r.metrics.get(k).unwrap_or_else(|| panic!("no {k}")).value;
    let (reads, writes) = (m("read_iops"), m("write_iops"));
    assert!(
        (reads / (reads + writes) - 0.7).abs() < 0.03,
        "{reads} read and {writes} write IOPS"
    );
    assert!(m("read_clat_p99") > 0.0 && m("write_clat_p99") > 0.0);
    // on the pre-filled file, time-based, without per-second series
    assert!(r
        .test
        .command
        .as_deref()
        .unwrap()
        .contains("/prefill/fio.dat"));
    assert_eq!(r.test.parameters["time_based"], true);
    assert_eq!(r.timeline, None);
    assert!(r.prefill.as_ref().unwrap().error.is_none());
}

#[test]
#[ignore = "system tier: needs dd and gzip"]
fn dd_writes_the_incompressible_bytes_fed_through_a_pipe() {
    use diskdash::run::exec::{Executor, RealExecutor};
    use diskdash::tools::argv::{BuildCtx, Params};
    require::need(
        "real-tool test",
        &require::programs_missing(&["dd", "gzip"]),
        "install them",
    );
    // the command the quick suite's bulk write runs, run by the executor
    // `run` uses, in a directory that stays for the file to be read
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let params: Params = toml::from_str("bs = '1M'\nsize = '64M'\nconv = 'fdatasync'").unwrap();
    let ctx = BuildCtx {
        dir: dir.path(),
        memory_bytes: None,
        is_root: false,
        test_id: "dd-write-bulk",
        free_bytes: None,
        data_file: None,
    };
    let inv = diskdash::tools::dd::command(&params, &ctx).unwrap();
    let mut ex = RealExecutor::new(std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0)));
    let o = ex
        .run(
            "dd-write-bulk",
            &inv,
            dir.path(),
            std::time::Duration::from_secs(300),
        )
        .unwrap();
    assert_eq!(o.exit_code, Some(0), "{}", o.stderr);
    assert!(o.stderr.contains("67108864 bytes"), "{}", o.stderr);
    let fed = o.fed.unwrap();
    assert_eq!(fed.bytes, 64 << 20);
    let file = dir.path().join("dd.dat");
    assert_eq!(std::fs::metadata(&file).unwrap().len(), 64 << 20);
    // the first MiB does not compress: gzip -9 keeps at least 99% of it
    let head = std::fs::read(&file).unwrap()[..1 << 20].to_vec();
    let mut gzip = Command::new("gzip")
        .args(["-9", "-c"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = gzip.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(&head).unwrap();
    });
    let packed = gzip.wait_with_output().unwrap().stdout;
    writer.join().unwrap();
    assert!(
        packed.len() as f64 >= 0.99 * (1 << 20) as f64,
        "gzip made 1 MiB into {} bytes",
        packed.len()
    );

    // and through `run`: the record's bytes, rate and command
    let recs = run_quick("dd-write-bulk");
    let r = &recs[0];
    assert_eq!(r.status, Status::Ok, "{:?}", r.error);
    assert_eq!(r.metrics.get("bytes").unwrap().value, (64u64 << 20) as f64);
    let bw = r.metrics.get("write_bw").unwrap().value;
    let elapsed = r.metrics.get("elapsed").unwrap().value;
    assert!((bw * elapsed / (64u64 << 20) as f64 - 1.0).abs() < 1e-9);
    let cmd = r.test.command.as_deref().unwrap();
    assert!(
        cmd.starts_with("(diskdash: 67108864 incompressible bytes, xoshiro256++ seed 0x"),
        "{cmd}"
    );
    assert!(
        cmd.contains(") | LC_ALL=C dd of=")
            && cmd.ends_with(" bs=1M count=64 iflag=fullblock conv=fdatasync"),
        "{cmd}"
    );
    assert!(!cmd.contains("/dev/zero"), "{cmd}");
    assert_eq!(r.test.parameters["input"], "incompressible");
    // the feed's own rate is kept, and is the disk's to judge only if far above
    let input = r.metrics.get("input_bw").unwrap().value;
    assert_eq!(r.warnings.is_empty(), input >= 2.0 * bw, "{:?}", r.warnings);
}
