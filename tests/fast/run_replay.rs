//! End-to-end `diskdash run` through the replay executor: captured output of
//! the real tools played back, so the whole run path (plan, free-space and
//! tool checks, parsing, records, layout, exit status) runs without them.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;

use clap::Parser;
use diskdash::cmd::run::RunArgs;
use diskdash::cmd::{Cli, Command};
use diskdash::record::{Record, Status, Tool};
use diskdash::run::exec::{Capture, ReplayExecutor};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/replay")
}

fn run_args(extra: &[&str]) -> RunArgs {
    let mut argv = vec!["diskdash", "run"];
    argv.extend_from_slice(extra);
    match Cli::try_parse_from(argv).unwrap().command {
        Command::Run(a) => a,
        other => panic!("not a run: {other:?}"),
    }
}

fn replay() -> ReplayExecutor {
    ReplayExecutor::new()
        .load_dir(&fixtures())
        .unwrap()
        .version_of(Tool::Dd, "coreutils 9.1")
        .version_of(Tool::Fio, "3.33")
        .version_of(Tool::Ioping, "1.3")
}

/// Every record under `dir`, sorted by id.
fn records(dir: &Path) -> Vec<(PathBuf, Record)> {
    let mut out: Vec<(PathBuf, Record)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            (e.path().to_path_buf(), serde_json::from_str(&text).unwrap())
        })
        .collect();
    out.sort_by(|a, b| a.1.id.cmp(&b.1.id));
    out
}

fn find<'a>(recs: &'a [(PathBuf, Record)], id: &str) -> &'a Record {
    &recs
        .iter()
        .find(|(_, r)| r.test.id == id)
        .unwrap_or_else(|| panic!("no record for {id}"))
        .1
}

/// An argv as the record's command line shows it.
fn shell_words(argv: &[String]) -> String {
    argv.iter()
        .map(|a| diskdash::tools::argv::shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

fn is_empty_dir(p: &Path) -> bool {
    std::fs::read_dir(p).unwrap().next().is_none()
}

#[test]
fn quick_suite_replayed_gives_one_ok_record_per_test() {
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let args = run_args(&[
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        "quick",
        "--out",
        out.path().to_str().unwrap(),
        "--study",
        "Demo Study",
        "--provider",
        "local",
        "--offering",
        "Disk 1",
        "--price-per-gb-month",
        "0.1",
    ]);
    let mut ex = replay();
    let code = diskdash::cmd::run::run_with(&args, &mut ex, &AtomicUsize::new(0)).unwrap();
    let recs = records(out.path());
    for (_, r) in &recs {
        assert_eq!(r.status, Status::Ok, "{}: {:?}", r.test.id, r.error);
        // each record names its suite: part of what the report pools
        assert_eq!(r.test.suite.as_deref(), Some("quick"), "{}", r.test.id);
    }
    assert_eq!(code, 0);
    // one record per test: the pre-fill is none
    assert_eq!(recs.len(), 16);
    assert_eq!(ex.ran.len(), 17);
    // the pre-fill, then the sustained test, to meet the volume as handed over
    assert_eq!(ex.ran[..2], ["prefill", "fio-sustained-randread-4k-qd32"]);
    let (prefill, test) = (&ex.argv[0], &ex.argv[1]);
    let arg = |argv: &[String], key: &str| {
        argv.iter()
            .find(|a| a.starts_with(key))
            .cloned()
            .unwrap_or_else(|| panic!("no {key} in {argv:?}"))
    };
    assert_eq!(prefill[0], "fio");
    for flag in ["--rw=write", "--bs=1M", "--refill_buffers", "--direct=1"] {
        assert!(prefill.contains(&flag.to_string()), "{flag}: {prefill:?}");
    }
    // the very file and size the sustained test reads
    assert_eq!(arg(prefill, "--filename="), arg(test, "--filename="));
    assert!(arg(test, "--filename=").ends_with("/prefill/fio.dat"));
    assert_eq!(arg(prefill, "--size="), arg(test, "--size="));
    assert_eq!(arg(prefill, "--size="), format!("--size={}", 64 << 20));
    let sustained = find(&recs, "fio-sustained-randread-4k-qd32");
    assert_eq!(sustained.timeline.as_ref().unwrap().logs.len(), 4);
    // the pre-fill's own facts, from fio's JSON: 67108864 bytes at 1427848170 B/s
    let pre = sustained.prefill.as_ref().expect("a prefill");
    assert_eq!(pre.bytes, (64 << 20) as f64);
    assert_eq!(pre.bw, Some(1427848170.0));
    assert_eq!(pre.seconds, 1.0);
    assert_eq!(pre.error, None);
    assert_eq!(pre.command, shell_words(prefill));
    // the sustained test met a volume that had had the pre-fill only; the
    // next test knows what both had done
    let prior = sustained.prior_io.as_ref().unwrap();
    assert_eq!((prior.seconds, prior.bytes), (1.0, (64 << 20) as f64));
    // the sustained write writes into it next; the QD1 and mixed tests
    // read it too, right after, and keep no per-second series
    assert_eq!(
        ex.ran[2..5],
        [
            "fio-sustained-randwrite-4k-qd32",
            "fio-randread-4k-qd1",
            "fio-randrw70-4k-qd32"
        ]
    );
    for argv in &ex.argv[3..5] {
        assert_eq!(arg(argv, "--filename="), arg(test, "--filename="));
        assert!(!argv.iter().any(|a| a.contains("_log")), "{argv:?}");
    }
    let mixed = find(&recs, "fio-randrw70-4k-qd32");
    let qd1 = find(&recs, "fio-randread-4k-qd1");
    for r in [mixed, qd1] {
        assert_eq!(r.timeline, None);
        assert_eq!(r.test.parameters["prefilled"], true);
        assert_eq!(r.prefill.as_ref().unwrap().bytes, (64 << 20) as f64);
    }
    let m = |r: &Record, k: &str| r.metrics.get(k).unwrap().value;
    // fio's JSON: 45536 read and 19569 write IOPS, 70:30
    let (reads, writes) = (m(mixed, "read_iops"), m(mixed, "write_iops"));
    assert!(
        (reads / (reads + writes) - 0.70).abs() < 0.01,
        "{reads} {writes}"
    );
    assert_eq!(m(mixed, "read_clat_p99"), 0.003424256);
    assert_eq!(m(mixed, "write_clat_p99"), 0.004620288);
    assert_eq!(m(qd1, "read_clat_p99"), 0.000129536);
    let bulk = find(&recs, "dd-write-bulk");
    assert_eq!(bulk.prefill, None);
    let next = bulk.prior_io.as_ref().unwrap();
    // the pre-fill, the sustained read and write, the QD1 and mixed tests
    assert_eq!(next.seconds, 5.0);
    let written = find(&recs, "fio-sustained-randwrite-4k-qd32");
    let io = |r: &Record, k: &str| r.metrics.get(k).map_or(0.0, |v| v.value);
    assert_eq!(
        next.bytes,
        (64 << 20) as f64
            + io(sustained, "read_io_bytes")
            + io(written, "write_io_bytes")
            + io(qd1, "read_io_bytes")
            + io(mixed, "read_io_bytes")
            + io(mixed, "write_io_bytes")
    );
    // nothing left in the target: the scratch directory is gone
    assert!(is_empty_dir(target.path()));

    let run_id = recs[0].1.run_id.clone().unwrap();
    for (path, r) in &recs {
        // <out>/<study>/<offering>/<run_id>/<id>.json
        let expected = out
            .path()
            .join("demo-study")
            .join("disk-1")
            .join(&run_id)
            .join(format!("{}.json", r.id));
        assert_eq!(path, &expected);
        assert_eq!(r.id, format!("{run_id}.{}.r1", r.test.id));
        assert_eq!(r.run_id.as_deref(), Some(run_id.as_str()));
        assert_eq!(r.schema, "diskdash.record/1");
        assert!(matches!(r.source, diskdash::record::Source::Run { .. }));
        assert_eq!(r.subject.provider.as_deref(), Some("local"));
        assert_eq!(r.subject.region, None);
        assert_eq!(r.subject.price.as_ref().unwrap().per_gb_month, 0.1);
        assert!(!r.metrics.is_empty(), "{}", r.test.id);
        assert!(r.host.cpu_count.unwrap() >= 1);
        assert!(r.host.memory_bytes.unwrap() > 0);
        assert!(r.target.fs_type.is_some() && r.target.free_bytes.is_some());
        assert_eq!(
            r.target.path.as_deref(),
            Some(target.path().canonicalize().unwrap().to_str().unwrap())
        );
        let started = r.started_at.as_deref().unwrap();
        assert!(started.len() == 20 && started.ends_with('Z'), "{started}");
        assert_eq!(r.duration_s, Some(1.0));
        let raw = r.raw.as_ref().unwrap();
        assert_eq!(raw.exit_code, Some(0));
        assert!(diskdash::record::validate(r).is_empty());
    }

    // the exact commands, with the scratch directory inside the target
    let dd = find(&recs, "dd-write-8k-dsync");
    let cmd = dd.test.command.as_deref().unwrap();
    let scratch = target
        .path()
        .canonicalize()
        .unwrap()
        .join(format!(".diskdash-scratch-{run_id}"));
    let file = scratch.join("dd-write-8k-dsync.r1/dd.dat");
    assert_eq!(
        cmd,
        format!(
            "(diskdash: 4194304 incompressible bytes, xoshiro256++ seed {:#018x}) | \
             LC_ALL=C dd of={} bs=8k count=512 iflag=fullblock oflag=dsync",
            diskdash::tools::argv::Feed::seed_for(&file),
            file.display()
        )
    );
    assert_eq!(dd.test.parameters["input"], "incompressible");
    assert_eq!(dd.test.tool_version.as_deref(), Some("coreutils 9.1"));
    assert_eq!(dd.test.parameters["count"], 512);
    // dd's summary is on stderr and kept raw
    assert!(dd
        .raw
        .as_ref()
        .unwrap()
        .stderr
        .as_deref()
        .unwrap()
        .contains("2.3 MB/s"));

    // values traced back to the captured lines
    // ioping -B: "9 2526532 3562 14590751 210462 280726 414464 56753 ..." (ns)
    let lat = find(&recs, "ioping-latency");
    assert!((lat.metrics.get("lat_avg").unwrap().value - 280726e-9).abs() < 1e-12);
    assert_eq!(lat.metrics.get("lat_avg").unwrap().unit, "s");
    // bonnie++ CSV: per-char write 759 K/sec = KiB/s; version from its report
    let bonnie = find(&recs, "bonnie");
    assert_eq!(
        bonnie.metrics.get("seq_char_write_bw").unwrap().value,
        759.0 * 1024.0
    );
    assert_eq!(bonnie.test.tool_version.as_deref(), Some("2.00a"));
    assert!(
        !bonnie.metrics.contains_key("seq_block_write_bw"),
        "+++++ is absent"
    );
    // fio: the record's stdout is the JSON file; read_iops as fio computed it
    let fio = find(&recs, "fio-randread-4k-qd64");
    let json_text =
        std::fs::read_to_string(fixtures().join("fio-randread-4k-qd64/output")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&json_text).unwrap();
    assert_eq!(
        fio.raw.as_ref().unwrap().stdout.as_deref(),
        Some(json_text.as_str())
    );
    let iops = json["jobs"][0]["read"]["iops"].as_f64().unwrap();
    assert!((fio.metrics.get("read_iops").unwrap().value - iops).abs() < 1e-6 * iops);
    // dd: 67108864 bytes in 0.375255 s
    let bulk = find(&recs, "dd-write-bulk");
    let bw = bulk.metrics.get("write_bw").unwrap().value;
    assert!((bw / 179e6 - 1.0).abs() < 0.01, "{bw}");
}

#[test]
fn missing_tool_unparseable_output_and_failure_give_records_and_exit_1() {
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let args = run_args(&[
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        "quick",
        "--out",
        out.path().to_str().unwrap(),
        "--only",
        "fio-randread-4k-qd64,ioping-latency,ioping-seek,bonnie",
    ]);
    let mut ex = replay()
        .without("fio")
        .capture(
            "ioping-latency",
            Capture {
                stdout: "<html>502 Bad Gateway</html>\n".into(),
                ..Default::default()
            },
        )
        .capture(
            "ioping-seek",
            Capture {
                stderr: "ioping: failed to create temporary file: No space left\n".into(),
                exit_code: 1,
                ..Default::default()
            },
        );
    let code = diskdash::cmd::run::run_with(&args, &mut ex, &AtomicUsize::new(0)).unwrap();
    assert_eq!(code, 1);
    let recs = records(out.path());
    assert_eq!(recs.len(), 4);
    // study and offering not given: `unknown` directories
    assert!(recs[0].0.starts_with(out.path().join("unknown/unknown")));

    let fio = find(&recs, "fio-randread-4k-qd64");
    assert_eq!(fio.status, Status::Skipped);
    let e = fio.error.as_deref().unwrap();
    assert!(
        e.starts_with("`fio` is not installed") && e.contains("install it with:"),
        "{e}"
    );
    assert_eq!(fio.raw, None);
    assert_eq!(fio.subject.study, None);

    let garbage = find(&recs, "ioping-latency");
    assert_eq!(garbage.status, Status::Failed);
    assert!(garbage
        .error
        .as_deref()
        .unwrap()
        .starts_with("cannot parse the output of `ioping`"));
    assert_eq!(
        garbage.raw.as_ref().unwrap().stdout.as_deref(),
        Some("<html>502 Bad Gateway</html>\n")
    );
    assert!(garbage.metrics.is_empty());

    let failed = find(&recs, "ioping-seek");
    assert_eq!(failed.status, Status::Failed);
    assert_eq!(
        failed.error.as_deref(),
        Some(
            "`ioping` exited with status 1: ioping: failed to create temporary file: No space left"
        )
    );
    assert_eq!(failed.raw.as_ref().unwrap().exit_code, Some(1));

    // the run went on after them
    assert_eq!(find(&recs, "bonnie").status, Status::Ok);
    assert_eq!(ex.ran, ["ioping-latency", "ioping-seek", "bonnie"]);
    assert!(is_empty_dir(target.path()));
}

#[test]
fn a_test_that_does_not_fit_is_skipped_and_the_run_goes_on() {
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let suite = out.path().join("huge.toml");
    std::fs::write(
        &suite,
        "base = \"quick\"\n[[test]]\nid = \"dd-write-bulk\"\ntool = \"dd\"\nsize = \"1P\"\n",
    )
    .unwrap();
    let records_dir = out.path().join("records");
    let args = run_args(&[
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        suite.to_str().unwrap(),
        "--out",
        records_dir.to_str().unwrap(),
        "--only",
        "dd-write-bulk,dd-write-8k-dsync",
        "--repeat",
        "2",
    ]);
    let mut ex = replay();
    let code = diskdash::cmd::run::run_with(&args, &mut ex, &AtomicUsize::new(0)).unwrap();
    assert_eq!(code, 1);
    let recs = records(&records_dir);
    assert_eq!(recs.len(), 4);
    let skipped: Vec<&Record> = recs
        .iter()
        .map(|(_, r)| r)
        .filter(|r| r.test.id == "dd-write-bulk")
        .collect();
    assert_eq!(skipped.len(), 2);
    for r in skipped {
        assert_eq!(r.status, Status::Skipped);
        let e = r.error.as_deref().unwrap();
        assert!(
            e.starts_with("not enough free space: the test writes up to 1048576.00 GiB"),
            "{e}"
        );
        assert_eq!(r.test.parameters["count"], 1u64 << 30);
    }
    assert_eq!(ex.ran, ["dd-write-8k-dsync", "dd-write-8k-dsync"]);
    let reps: Vec<u32> = recs
        .iter()
        .filter(|(_, r)| r.test.id == "dd-write-8k-dsync")
        .map(|(_, r)| r.repetition)
        .collect();
    assert_eq!(reps, [1, 2]);
}

#[test]
fn a_signal_before_a_job_stops_the_run_with_128_plus_signal() {
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let args = run_args(&[
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        "quick",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    let mut ex = replay();
    let sig = AtomicUsize::new(libc::SIGTERM as usize);
    let code = diskdash::cmd::run::run_with(&args, &mut ex, &sig).unwrap();
    assert_eq!(code, 128 + 15);
    assert!(ex.ran.is_empty());
    assert!(is_empty_dir(target.path()));
}

#[test]
fn usage_errors_give_2_and_touch_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let o = out.to_str().unwrap();
    for argv in [
        vec!["--out", o],
        vec![
            "--target",
            dir.path().join("missing").to_str().unwrap(),
            "--out",
            o,
        ],
        vec!["--target", file.to_str().unwrap(), "--out", o],
        vec!["--target", "/dev/null", "--out", o],
        vec![
            "--target",
            dir.path().to_str().unwrap(),
            "--out",
            o,
            "--only",
            "nope",
        ],
        vec![
            "--target",
            dir.path().to_str().unwrap(),
            "--out",
            o,
            "--suite",
            "nosuch.toml",
        ],
        vec![
            "--target",
            dir.path().to_str().unwrap(),
            "--out",
            o,
            "--label",
            "novalue",
        ],
        // records `check` would refuse: never benchmark for an hour to write them
        vec![
            "--target",
            dir.path().to_str().unwrap(),
            "--out",
            o,
            "--price-per-gb-month",
            "0",
        ],
        vec![
            "--target",
            dir.path().to_str().unwrap(),
            "--out",
            o,
            "--price-per-gb-month",
            "0.1",
            "--currency",
            "dollars",
        ],
    ] {
        let mut ex = replay();
        let code =
            diskdash::cmd::run::run_with(&run_args(&argv), &mut ex, &AtomicUsize::new(0)).unwrap();
        assert_eq!(code, 2, "{argv:?}");
        assert!(ex.ran.is_empty());
    }
    // --out below a file: refused before any test runs
    let bad_out = file.join("records");
    let argv = [
        "--target",
        dir.path().to_str().unwrap(),
        "--out",
        bad_out.to_str().unwrap(),
    ];
    let mut ex = replay();
    let code =
        diskdash::cmd::run::run_with(&run_args(&argv), &mut ex, &AtomicUsize::new(0)).unwrap();
    assert_eq!(code, 2);
    assert!(ex.ran.is_empty());
    // only the file made above: no output directory, no scratch
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["file"]);
}

#[test]
fn a_time_based_fio_test_keeps_its_per_second_logs_as_a_timeline() {
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let suite = out.path().join("sustained.toml");
    std::fs::write(
        &suite,
        "name = \"s\"\n[[test]]\nid = \"fio-sustained-read-1m-qd4\"\ntool = \"fio\"\nrw = \"read\"\n\
         bs = \"1m\"\niodepth = 4\nsize = \"32m\"\ntime_based = true\nruntime = 15\n",
    )
    .unwrap();
    // fio 3.33's output and logs of that test (tests/fixtures/fio/logs/tree),
    // under the names diskdash gives them
    let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fio/logs/tree");
    let read = |n: &str| std::fs::read_to_string(tree.join(n)).unwrap();
    let logs = ["iops", "bw", "lat", "clat"]
        .iter()
        .map(|k| {
            (
                format!("fio_{k}.1.log"),
                read(&format!("seqread_{k}.1.log")),
            )
        })
        .collect();
    let mut ex = replay().capture(
        "fio-sustained-read-1m-qd4",
        Capture {
            output_file: Some(read("seqread.json")),
            logs,
            ..Default::default()
        },
    );
    let records_dir = out.path().join("records");
    let args = run_args(&[
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        suite.to_str().unwrap(),
        "--out",
        records_dir.to_str().unwrap(),
    ]);
    let code = diskdash::cmd::run::run_with(&args, &mut ex, &AtomicUsize::new(0)).unwrap();
    assert_eq!(code, 0);
    let recs = records(&records_dir);
    let r = find(&recs, "fio-sustained-read-1m-qd4");
    assert_eq!(r.status, Status::Ok, "{:?}", r.error);
    let tl = r.timeline.as_ref().expect("a timeline");
    // `1000, 891, 0, 0, 0` in the IOPS log
    assert_eq!(tl.read.as_ref().unwrap().iops[0], 891.0);
    assert_eq!(
        tl.logs["fio_iops.1.log"],
        diskdash::digest::hex_sha256(read("seqread_iops.1.log").as_bytes())
    );
    assert!(tl.pattern.is_some());
    assert_eq!(r.metrics.get("read_bw_sustained").unwrap().unit, "B/s");
    assert!(!r.test.parameters.contains_key("timeline_error"));
    let cmd = r.test.command.as_deref().unwrap();
    assert!(cmd.contains("--log_avg_msec=1000"), "{cmd}");
    assert!(cmd.contains("--write_iops_log="), "{cmd}");
}

#[test]
fn a_failed_prefill_fails_the_sustained_tests_instead_of_reading_unwritten_blocks() {
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let args = run_args(&[
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        "quick",
        "--out",
        out.path().to_str().unwrap(),
        "--only",
        "fio-sustained-randread-4k-qd32,dd-write-bulk",
    ]);
    let error = "fio: io_u error on file prefill/fio.dat: No space left on device: write offset=0, buflen=1048576";
    let mut ex = replay().capture(
        "prefill",
        Capture {
            stderr: format!("{error}\n"),
            exit_code: 1,
            duration_s: 2.0,
            ..Default::default()
        },
    );
    let code = diskdash::cmd::run::run_with(&args, &mut ex, &AtomicUsize::new(0)).unwrap();
    assert_eq!(code, 1);
    // the sustained test did not run; the test after it did
    assert_eq!(ex.ran, ["prefill", "dd-write-bulk"]);
    let recs = records(out.path());
    assert_eq!(recs.len(), 2);
    let sustained = find(&recs, "fio-sustained-randread-4k-qd32");
    assert_eq!(sustained.status, Status::Failed);
    let e = sustained.error.as_deref().unwrap();
    assert!(
        e.starts_with("the pre-fill of the file this test reads failed")
            && e.ends_with(&format!("`fio` exited with status 1: {error}")),
        "{e}"
    );
    assert!(sustained.metrics.is_empty() && sustained.raw.is_none());
    let pre = sustained.prefill.as_ref().unwrap();
    assert_eq!((pre.bytes, pre.seconds, pre.bw), (0.0, 2.0, None));
    assert_eq!(
        pre.error.as_deref(),
        Some(format!("`fio` exited with status 1: {error}").as_str())
    );
    // what it ran for counts, at the most it would have written
    let next = find(&recs, "dd-write-bulk").prior_io.clone().unwrap();
    assert_eq!((next.seconds, next.bytes), (2.0, (64 << 20) as f64));
    for (_, r) in &recs {
        assert!(diskdash::record::validate(r).is_empty(), "{}", r.test.id);
    }
    assert!(is_empty_dir(target.path()));
}

#[test]
fn a_prefill_that_does_not_fit_skips_the_sustained_tests() {
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let suite = out.path().join("huge.toml");
    std::fs::write(
        &suite,
        "base = \"quick\"\n[[test]]\nid = \"fio-sustained-randread-4k-qd32\"\ntool = \"fio\"\nsize = \"1P\"\n",
    )
    .unwrap();
    let records_dir = out.path().join("records");
    let args = run_args(&[
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        suite.to_str().unwrap(),
        "--out",
        records_dir.to_str().unwrap(),
        "--only",
        "fio-sustained-randread-4k-qd32,dd-write-8k-dsync",
    ]);
    let mut ex = replay();
    let code = diskdash::cmd::run::run_with(&args, &mut ex, &AtomicUsize::new(0)).unwrap();
    assert_eq!(code, 1);
    assert_eq!(ex.ran, ["dd-write-8k-dsync"]);
    let recs = records(&records_dir);
    let sustained = find(&recs, "fio-sustained-randread-4k-qd32");
    assert_eq!(sustained.status, Status::Skipped);
    let e = sustained.error.as_deref().unwrap();
    assert!(
        e.contains("did not run, so neither did the test: not enough free space: the pre-fill writes 1048576.00 GiB"),
        "{e}"
    );
    let pre = sustained.prefill.as_ref().unwrap();
    assert_eq!((pre.bytes, pre.seconds), (0.0, 0.0));
    // nothing ran before the next test
    let next = find(&recs, "dd-write-8k-dsync").prior_io.clone().unwrap();
    assert_eq!((next.seconds, next.bytes), (0.0, 0.0));
}

#[test]
fn a_prefill_that_wrote_less_than_the_file_fails_the_sustained_test() {
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    // fio's own output of the pre-fill, as if it had stopped after 1 MiB
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("prefill/output")).unwrap())
            .unwrap();
    json["jobs"][0]["write"]["io_bytes"] = (1u64 << 20).into();
    json["jobs"][0]["write"]["io_kbytes"] = 1024.into();
    let args = run_args(&[
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        "quick",
        "--out",
        out.path().to_str().unwrap(),
        "--only",
        "fio-sustained-randread-4k-qd32",
    ]);
    let mut ex = replay().capture(
        "prefill",
        Capture {
            output_file: Some(json.to_string()),
            duration_s: 1.0,
            ..Default::default()
        },
    );
    let code = diskdash::cmd::run::run_with(&args, &mut ex, &AtomicUsize::new(0)).unwrap();
    assert_eq!(code, 1);
    assert_eq!(ex.ran, ["prefill"]);
    let recs = records(out.path());
    let r = find(&recs, "fio-sustained-randread-4k-qd32");
    assert_eq!(r.status, Status::Failed);
    assert!(
        r.error
            .as_deref()
            .unwrap()
            .ends_with("fio wrote 1048576 bytes of the 67108864 the sustained tests read"),
        "{:?}",
        r.error
    );
    assert_eq!(r.prefill.as_ref().unwrap().bytes, 1048576.0);
}

#[test]
fn the_mixed_test_is_judged_on_both_directions_iops_and_p99_and_qd1_on_its_p99() {
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    for (offering, price) in [("cheap", "0.05"), ("dear", "0.10")] {
        let args = run_args(&[
            "--target",
            target.path().to_str().unwrap(),
            "--suite",
            "quick",
            "--only",
            "fio-randread-4k-qd1,fio-randrw70-4k-qd32",
            "--out",
            out.path().to_str().unwrap(),
            "--study",
            "mix",
            "--provider",
            "p",
            "--offering",
            offering,
            "--price-per-gb-month",
            price,
        ]);
        let mut ex = replay();
        let code = diskdash::cmd::run::run_with(&args, &mut ex, &AtomicUsize::new(0)).unwrap();
        assert_eq!(code, 0);
    }
    let site = tempfile::tempdir().unwrap();
    let site = site.path().join("site");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_diskdash"))
        .arg("report")
        .arg(out.path())
        .arg("--out")
        .arg(&site)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(site.join("data/value.csv")).unwrap();
    let mut rd = csv::Reader::from_reader(text.as_bytes());
    let headers = rd.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (t, m, o, v) = (col("test"), col("metric"), col("offering"), col("verdict"));
    let mut judged: Vec<(String, String)> = rd
        .records()
        .map(|r| r.unwrap())
        .filter(|r| &r[o] == "dear" && !r[v].is_empty())
        .map(|r| (r[t].to_string(), r[m].to_string()))
        .collect();
    judged.sort();
    let pair = |t: &str, m: &str| (t.to_string(), m.to_string());
    assert_eq!(
        judged,
        [
            pair("fio-randread-4k-qd1", "read_clat_p99"),
            pair("fio-randread-4k-qd1", "read_iops"),
            pair("fio-randrw70-4k-qd32", "read_clat_p99"),
            pair("fio-randrw70-4k-qd32", "read_iops"),
            pair("fio-randrw70-4k-qd32", "write_clat_p99"),
            pair("fio-randrw70-4k-qd32", "write_iops"),
        ]
    );
}

/// The replayed sustained tests of the quick suite, with `extra` flags:
/// their records by test id, and the argv each ran with.
fn sustained_run(extra: &[&str]) -> (Vec<(PathBuf, Record)>, ReplayExecutor, u8) {
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut argv = vec![
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        "quick",
        "--only",
        "fio-sustained-randread-4k-qd32,fio-sustained-randwrite-4k-qd32",
        "--out",
        out.path().to_str().unwrap(),
        "--provider",
        "emulated",
        "--offering",
        "flat",
    ];
    argv.extend_from_slice(extra);
    let mut ex = replay();
    let code =
        diskdash::cmd::run::run_with(&run_args(&argv), &mut ex, &AtomicUsize::new(0)).unwrap();
    (records(out.path()), ex, code)
}

#[test]
fn every_sustained_record_says_why_and_when_it_stopped() {
    use diskdash::record::StopReason;
    let (recs, ex, code) = sustained_run(&[]);
    assert_eq!(code, 0);
    // the write test writes into the pre-filled file, after the read
    assert_eq!(
        ex.ran,
        [
            "prefill",
            "fio-sustained-randread-4k-qd32",
            "fio-sustained-randwrite-4k-qd32"
        ]
    );
    assert!(ex.argv[2].contains(&"--rw=randwrite".to_string()));
    assert!(ex.argv[2].iter().any(|a| a.ends_with("/prefill/fio.dat")));
    // watched: fio reports its status every second
    assert!(ex.argv[1].contains(&"--status-interval=1".to_string()));
    for id in [
        "fio-sustained-randread-4k-qd32",
        "fio-sustained-randwrite-4k-qd32",
    ] {
        let r = find(&recs, id);
        assert_eq!(r.status, Status::Ok, "{id}: {:?}", r.error);
        let stop = r.stop.as_ref().expect("a stop");
        // nothing known of the volume: it ran its window, and says that a
        // burst longer than it is not ruled out
        assert_eq!(stop.reason, StopReason::WindowEnd, "{id}");
        assert_eq!(stop.window_s, 20.0);
        assert!(stop.burst_not_excluded, "{id}");
        assert!(diskdash::record::validate(r).is_empty());
    }
    let w = find(&recs, "fio-sustained-randwrite-4k-qd32");
    // 19 rows in its IOPS log
    assert_eq!(w.stop.as_ref().unwrap().stopped_at_s, 19.0);
    assert_eq!(w.warnings, ["burst not excluded beyond 19 s"]);
    // its own timeline, of writes: 25,936 IOPS in the first second
    let tl = w.timeline.as_ref().unwrap();
    assert_eq!(tl.write.as_ref().unwrap().iops[0], 25936.0);
    assert!(w.metrics.get("write_iops_sustained").is_some());
    // the record keeps fio's final document, not the status stream
    let raw = w.raw.as_ref().unwrap().stdout.as_deref().unwrap();
    assert_eq!(raw.matches("\"fio version\"").count(), 1);
    // a run whose reader thinks 20 s is the whole answer: the JSON says so
    let text = serde_json::to_string(&w.stop).unwrap();
    assert!(text.contains("\"reason\":\"window-end\""), "{text}");
}

#[test]
fn full_sustained_runs_the_window_unwatched_and_says_so() {
    use diskdash::record::StopReason;
    let (recs, ex, code) = sustained_run(&["--full-sustained"]);
    assert_eq!(code, 0);
    assert!(!ex.argv[1]
        .iter()
        .any(|a| a.starts_with("--status-interval")));
    let r = find(&recs, "fio-sustained-randread-4k-qd32");
    assert_eq!(
        r.stop.as_ref().unwrap().reason,
        StopReason::FullWindowRequested
    );
}

#[test]
fn limits_saying_the_offering_does_not_burst_rule_a_longer_burst_out() {
    let dir = tempfile::tempdir().unwrap();
    let limits = dir.path().join("limits.csv");
    std::fs::write(
        &limits,
        "provider,offering,size_min_gb,size_max_gb,baseline_iops,burst_iops,baseline_mbps,burst_mbps,source,as_of\n\
         emulated,flat,,,3000,,125,,test,2026-12-01\n",
    )
    .unwrap();
    let (recs, _, code) = sustained_run(&["--limits", limits.to_str().unwrap()]);
    assert_eq!(code, 0);
    for (_, r) in &recs {
        let stop = r.stop.as_ref().unwrap();
        assert!(!stop.burst_not_excluded, "{}", r.test.id);
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    }
}

#[test]
fn an_unreadable_limits_file_is_a_usage_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let limits = dir.path().join("limits.csv");
    std::fs::write(&limits, "provider,offering\nx,y\n").unwrap();
    let target = tempfile::tempdir().unwrap();
    let args = run_args(&[
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        "quick",
        "--limits",
        limits.to_str().unwrap(),
    ]);
    let e = diskdash::run::run_with(
        &diskdash::cmd::run::options(&args).unwrap(),
        &mut replay(),
        &AtomicUsize::new(0),
    )
    .unwrap_err();
    let text = format!("{e:#}");
    assert!(text.contains("check --limits"), "{text}");
    assert!(text.contains("limits.csv"), "{text}");
    assert!(is_empty_dir(target.path()));
}

/// A replay that notes, as each test starts, whether the pre-filled file's
/// directory is still in the scratch directory.
struct SeesPrefill {
    inner: ReplayExecutor,
    seen: Vec<(String, bool)>,
}

impl diskdash::run::exec::Executor for SeesPrefill {
    fn available(&self, program: &str) -> bool {
        self.inner.available(program)
    }

    fn version(&mut self, tool: Tool) -> Option<String> {
        self.inner.version(tool)
    }

    fn measures_device(&self) -> bool {
        self.inner.measures_device()
    }

    fn run(
        &mut self,
        test_id: &str,
        inv: &diskdash::tools::argv::Invocation,
        dir: &Path,
        timeout: std::time::Duration,
    ) -> anyhow::Result<diskdash::run::exec::Outcome> {
        let prefill = dir.parent().unwrap().join("prefill");
        self.seen.push((test_id.to_string(), prefill.exists()));
        self.inner.run(test_id, inv, dir, timeout)
    }
}

#[test]
fn the_prefilled_file_is_removed_after_its_last_reader_even_when_that_repetition_is_left_out() {
    // the mixed test reads the pre-filled file three times, unless its
    // first two repetitions agree (the replay's do): its third is then
    // left out, and the file must go all the same, before the dd test
    // that needs the space
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("settle.toml");
    std::fs::write(
        &suite,
        r#"
name = "settle"
repeat = 3

[[test]]
id = "fio-randrw70-4k-qd32"
tool = "fio"
rw = "randrw"
rwmixread = 70
bs = "4k"
iodepth = 32
ioengine = "libaio"
direct = 1
size = "64M"
prefilled = true
time_based = true
runtime = 5
timeline = false

[[test]]
id = "dd-write-bulk"
tool = "dd"
bs = "1M"
size = "64M"
conv = "fdatasync"
"#,
    )
    .unwrap();
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let args = run_args(&[
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        suite.to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    let mut ex = SeesPrefill {
        inner: replay(),
        seen: Vec::new(),
    };
    let code = diskdash::cmd::run::run_with(&args, &mut ex, &AtomicUsize::new(0)).unwrap();
    assert_eq!(code, 0);
    let seen: Vec<(&str, bool)> = ex.seen.iter().map(|(t, s)| (t.as_str(), *s)).collect();
    assert_eq!(
        seen,
        [
            ("prefill", true),
            ("fio-randrw70-4k-qd32", true),
            ("fio-randrw70-4k-qd32", true),
            // r3 left out: the file is gone before dd runs
            ("dd-write-bulk", false),
            ("dd-write-bulk", false),
        ]
    );
}

/// fio's status stream of a watched test (real fio 3.33, eight status
/// documents, then its final results after SIGINT; see
/// `tests/fixtures/fio/README.md`), cut inside its final document, and no
/// per-second logs: what a fio killed while it printed its results leaves.
#[test]
fn a_sustained_test_whose_final_results_are_cut_off_keeps_what_it_measured() {
    use diskdash::record::StopReason;
    let stream = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/fio/status-interval-sigint.json"),
    )
    .unwrap();
    let last = stream[..stream.rfind("\"fio version\"").unwrap()]
        .rfind('{')
        .unwrap();
    // the final document's first 205 bytes, as in the failed runs
    let cut = &stream[..last + 205];
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut ex = replay().capture(
        "fio-sustained-randread-4k-qd32",
        Capture {
            stdout: String::new(),
            stderr: "fio: terminating on signal 2\n".into(),
            output_file: Some(cut.to_string()),
            exit_code: 0,
            duration_s: 9.0,
            logs: Vec::new(),
        },
    );
    let args = run_args(&[
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        "quick",
        "--only",
        "fio-sustained-randread-4k-qd32",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    let code = diskdash::cmd::run::run_with(&args, &mut ex, &AtomicUsize::new(0)).unwrap();
    assert_eq!(code, 0);
    let recs = records(out.path());
    let r = find(&recs, "fio-sustained-randread-4k-qd32");
    assert_eq!(r.status, Status::Ok, "{:?}", r.error);
    // fio's status of a second before the cut: 1,581 reads in 7.898 s
    let raw = r.raw.as_ref().unwrap().stdout.as_deref().unwrap();
    assert!(raw.contains("\"total_ios\" : 1581,"), "{raw}");
    assert_eq!(raw.matches("\"fio version\"").count(), 1);
    let iops = r.metrics.get("read_iops").unwrap().value;
    assert!((iops - 1581.0 / 7.898).abs() < 1.0, "{iops}");
    // the per-second series read while it ran is its timeline (too short
    // for a level: 8 s): fio ran at --rate_iops=200
    let tl = r
        .timeline
        .as_ref()
        .expect("a timeline from the status reports");
    assert!(tl.logs.is_empty());
    let series = &tl.read.as_ref().unwrap().iops;
    assert_eq!(series.len(), 8);
    assert!(
        series[1..].iter().all(|v| (v - 200.0).abs() < 12.0),
        "{series:?}"
    );
    assert_eq!(r.stop.as_ref().unwrap().reason, StopReason::WindowEnd);
    assert_eq!(r.stop.as_ref().unwrap().stopped_at_s, 8.0);
    let warned = |start: &str| r.warnings.iter().any(|w| w.starts_with(start));
    assert!(
        warned("fio's final results are cut off in its output file; the figures are those of its last whole status report, 7.90 s into the test"),
        "{:?}",
        r.warnings
    );
    assert!(warned("fio left no per-second logs"), "{:?}", r.warnings);
    assert!(diskdash::record::validate(r).is_empty());
}
