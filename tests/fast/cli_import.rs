//! `diskdash import`, driven through the binary on the parser fixtures.

use std::path::Path;

use assert_cmd::Command;
use diskdash::record::{Record, Source, Status};
use predicates::prelude::*;

fn diskdash() -> Command {
    Command::cargo_bin("diskdash").unwrap()
}

fn records_under(dir: &Path) -> Vec<Record> {
    let mut out: Vec<Record> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| serde_json::from_slice(&std::fs::read(e.path()).unwrap()).unwrap())
        .collect();
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

#[test]
fn a_dd_log_becomes_a_record_with_the_runs_test_id_and_exact_bandwidth() {
    let out = tempfile::tempdir().unwrap();
    diskdash()
        .args(["import", "--study", "demo", "--provider", "Linode"])
        .args([
            "--offering",
            "Block Storage",
            "--price-per-gb-month",
            "0.10",
        ])
        .arg("--out")
        .arg(out.path())
        .arg("tests/fixtures/dd/gnu91-write-8k-dsync.txt")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("imported 1 record into"));
    let records = records_under(out.path());
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r.test.id, "dd-write-8k-dsync");
    assert_eq!(r.status, Status::Ok);
    // 8388608 bytes in 0.346904 s, not dd's rounded "24.2 MB/s"
    assert_eq!(
        r.metrics.get("write_bw").unwrap().value,
        8388608.0 / 0.346904
    );
    assert_eq!(r.metrics.get("write_bw").unwrap().unit, "B/s");
    assert_eq!(r.subject.price.as_ref().unwrap().per_gb_month, 0.10);
    assert_eq!(r.subject.offering.as_deref(), Some("Block Storage"));
    // `dd if=/dev/zero ...`: the rate stands, with the caveat of zeros
    assert_eq!(r.warnings, [diskdash::tools::dd::ZEROS_CAVEAT]);
    match &r.source {
        Source::Import { file, sha256, .. } => {
            assert_eq!(file, "tests/fixtures/dd/gnu91-write-8k-dsync.txt");
            let bytes = std::fs::read(file).unwrap();
            assert_eq!(sha256, &diskdash::digest::hex_sha256(&bytes));
        }
        other => panic!("source {other:?}"),
    }
    assert!(r
        .raw
        .as_ref()
        .unwrap()
        .stdout
        .as_deref()
        .unwrap()
        .contains("0.346904 s"));
    // the record lands where run would put it: <study>/<offering>/<id>.json
    assert!(out
        .path()
        .join("demo/block-storage")
        .join(format!("{}.json", r.id))
        .is_file());
}

#[test]
fn an_ioping_seek_log_converts_binary_units_and_time_units() {
    let out = tempfile::tempdir().unwrap();
    diskdash()
        .arg("import")
        .arg("--out")
        .arg(out.path())
        .arg("tests/fixtures/ioping/ioping13-R.txt")
        .assert()
        .code(0);
    let r = &records_under(out.path())[0];
    assert_eq!(r.test.id, "ioping-seek");
    assert_eq!(r.metrics.get("iops").unwrap().value, 5790.0); // "5.79 k iops"
    assert_eq!(r.metrics.get("bw").unwrap().value, 22.6 * 1048576.0); // "22.6 MiB/s"
    assert_eq!(r.metrics.get("lat_avg").unwrap().value, 172.6e-6); // "172.6 us"
    assert_eq!(r.metrics.get("lat_max").unwrap().value, 5.02e-3); // "5.02 ms"
}

#[test]
fn importing_twice_never_overwrites() {
    let out = tempfile::tempdir().unwrap();
    let import = || {
        diskdash()
            .arg("import")
            .arg("--out")
            .arg(out.path())
            .arg("tests/fixtures/dd/gnu91-write-8k-dsync.txt")
            .assert()
            .code(0)
    };
    import();
    let path = walkdir::WalkDir::new(out.path())
        .into_iter()
        .map(|e| e.unwrap())
        .find(|e| e.file_type().is_file())
        .unwrap()
        .into_path();
    std::fs::write(&path, "edited by hand").unwrap();
    import().stdout(predicate::str::contains("exists, left alone"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "edited by hand");
}

#[test]
fn a_garbage_file_is_an_error_naming_it_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("notes.txt");
    std::fs::write(&garbage, "my vps feels fast today\n").unwrap();
    let out = dir.path().join("out");
    diskdash()
        .arg("import")
        .arg("--out")
        .arg(&out)
        .arg(&garbage)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("notes.txt"))
        .stderr(predicate::str::contains(
            "not recognised as dd, fio, ioping or bonnie++ output",
        ));
    assert!(!out.exists() || records_under(&out).is_empty());

    // forcing a tool that does not match is an error too, naming the tool
    diskdash()
        .args(["import", "--tool", "fio", "--out"])
        .arg(&out)
        .arg("tests/fixtures/dd/gnu91-write-8k-dsync.txt")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not fio output"));
    assert!(!out.exists() || records_under(&out).is_empty());
}

#[test]
fn a_directory_of_mixed_files_imports_the_recognised_and_lists_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    for f in [
        "tests/fixtures/dd/gnu91-write-128k-fdatasync.txt",
        "tests/fixtures/ioping/ioping13-RLC.txt",
        "tests/fixtures/bonnie/2.00a-quiet.csv",
    ] {
        std::fs::copy(f, logs.join(Path::new(f).file_name().unwrap())).unwrap();
    }
    std::fs::write(logs.join("todo.txt"), "buy more disks\n").unwrap();
    std::fs::write(
        logs.join("de.txt"),
        std::fs::read("tests/fixtures/dd/locale-de.txt").unwrap(),
    )
    .unwrap();
    let out = dir.path().join("out");
    diskdash()
        .arg("import")
        .arg("--out")
        .arg(&out)
        .arg(&logs)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("todo.txt`: not recognised"))
        .stdout(predicate::str::contains(
            "de.txt`: recognised as dd output, not imported: dd output is not in the C locale",
        ))
        .stdout(predicate::str::contains("LC_ALL=C"))
        .stdout(predicate::str::contains("imported 3 records"));
    let ids: Vec<String> = records_under(&out)
        .into_iter()
        .map(|r| r.test.id.clone())
        .collect();
    let mut ids_sorted = ids.clone();
    ids_sorted.sort();
    assert_eq!(
        ids_sorted,
        ["bonnie", "dd-write-128k-fdatasync", "ioping-seq-cached"]
    );
    // and the imported records pass check
    diskdash().arg("check").arg(&out).assert().code(0);
}

#[test]
fn a_bench_fio_tree_imports_the_json_and_skips_the_latency_logs() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("bench-fio/RANDREAD");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::copy(
        "tests/fixtures/fio/randread-4k-qd64.json",
        tree.join("randread-64-1.json"),
    )
    .unwrap();
    std::fs::write(
        tree.join("randread-64-1_lat.1.log"),
        "0, 123456, 0, 4096, 0\n1, 98000, 0, 4096, 0\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    diskdash()
        .arg("import")
        .arg("--out")
        .arg(&out)
        .arg(dir.path().join("bench-fio"))
        .assert()
        .code(0)
        // a latency log alone makes no timeline: a warning on the record
        .stderr(predicate::str::contains(
            "randread-64-1.json`: timeline not attached: fio logs `randread-64-1_lat.1.log` hold latencies only",
        ))
        .stdout(predicate::str::contains("skipped").not())
        .stdout(predicate::str::contains("imported 1 record into"));
    let r = &records_under(&out)[0];
    assert_eq!(r.test.id, "fio-randread-4k-qd64");
    assert_eq!(r.test.tool_version.as_deref(), Some("3.33"));
    // fio 3.x JSON: "bw_bytes" : 340551388, "iops" : 83142.428786
    assert_eq!(r.metrics.get("read_bw").unwrap().value, 340551388.0);
    assert_eq!(r.metrics.get("read_iops").unwrap().value, 83142.428786);
    assert!(!r.metrics.contains_key("write_iops"));
    assert!(r.timeline.is_none());
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn a_bench_fio_tree_of_six_runs_with_broken_logs_imports_six_with_warnings() {
    // six runs of bench-fio's layout: `<name>.json` beside `<name>_*.1.log`,
    // the real fio JSON and logs of tests/fixtures/fio/logs/tree; three
    // runs' IOPS logs empty, garbled or in fio's unspaced form
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("results");
    std::fs::create_dir(&tree).unwrap();
    let src = Path::new("tests/fixtures/fio/logs/tree");
    let iops = std::fs::read_to_string(src.join("seqread_iops.1.log")).unwrap();
    for (n, log) in [
        (1, None),
        (2, Some(String::new())),
        (3, Some("garbage, not a log\n".to_string())),
        (4, Some(iops.replace(", ", ","))),
        (5, None),
        (6, None),
    ] {
        let name = format!("run{n}");
        std::fs::copy(src.join("seqread.json"), tree.join(format!("{name}.json"))).unwrap();
        for kind in ["iops", "bw", "lat", "clat"] {
            std::fs::copy(
                src.join(format!("seqread_{kind}.1.log")),
                tree.join(format!("{name}_{kind}.1.log")),
            )
            .unwrap();
        }
        if let Some(log) = log {
            std::fs::write(tree.join(format!("{name}_iops.1.log")), log).unwrap();
        }
        // each run its own file: a different byte, the same figures
        let json = tree.join(format!("{name}.json"));
        let text = std::fs::read_to_string(&json).unwrap();
        std::fs::write(&json, format!("{text}{}", "\n".repeat(n))).unwrap();
    }
    let out = dir.path().join("out");
    diskdash()
        .arg("import")
        .arg("--out")
        .arg(&out)
        .arg(&tree)
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "run2.json`: timeline not attached: fio log `run2_iops.1.log`: an empty fio log",
        ))
        .stderr(predicate::str::contains(
            "run3.json`: timeline not attached: fio log `run3_iops.1.log`: line 1: `garbage, not a log` is not a fio log row",
        ))
        .stdout(predicate::str::contains("skipped").not())
        .stdout(predicate::str::contains("imported 6 records into"));
    let records = records_under(&out);
    assert_eq!(records.len(), 6);
    let with_timeline = records.iter().filter(|r| r.timeline.is_some()).count();
    assert_eq!(with_timeline, 4);
    for r in &records {
        assert_eq!(r.status, Status::Ok);
        assert_eq!(r.warnings.len(), usize::from(r.timeline.is_none()));
    }
    // check says the warnings and accepts the records
    diskdash()
        .arg("check")
        .arg(&out)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "warning: timeline not attached: fio log `run2_iops.1.log`",
        ));
}

#[test]
fn a_refusal_is_not_followed_by_imported_0_records() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("notes.txt");
    std::fs::write(&garbage, "my vps feels fast today\n").unwrap();
    let out = dir.path().join("out");
    diskdash()
        .arg("import")
        .arg("--out")
        .arg(&out)
        .arg(&garbage)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("imported").not());
    // one refused beside one imported: both counted
    diskdash()
        .arg("import")
        .arg("--out")
        .arg(&out)
        .arg(&garbage)
        .arg("tests/fixtures/dd/gnu91-loop-x3.txt")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "imported 3 records from 1 file into",
        ))
        .stdout(predicate::str::contains("; 1 file refused"));
}

#[test]
fn one_log_imported_into_two_studies_gives_two_ids_that_check_accepts() {
    let out = tempfile::tempdir().unwrap();
    for study in ["study-a", "study-b"] {
        diskdash()
            .args(["import", "--study", study, "--offering", "disk", "--out"])
            .arg(out.path())
            .arg("tests/fixtures/dd/gnu91-write-8k-dsync.txt")
            .assert()
            .code(0);
    }
    let ids: Vec<String> = records_under(out.path())
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(ids.len(), 2);
    assert!(
        ids[0].starts_with("study-a.disk.dd-write-8k-dsync."),
        "{ids:?}"
    );
    assert!(
        ids[1].starts_with("study-b.disk.dd-write-8k-dsync."),
        "{ids:?}"
    );
    diskdash().arg("check").arg(out.path()).assert().code(0);
}

#[test]
fn fio_runs_appended_to_one_log_become_one_record_each() {
    let out = tempfile::tempdir().unwrap();
    diskdash()
        .args(["import", "--out"])
        .arg(out.path())
        .arg("tests/fixtures/fio/runs-appended-x3.txt")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("imported 3 records"));
    let records = records_under(out.path());
    assert_eq!(records.len(), 3);
    for r in &records {
        assert_eq!(r.test.id, "fio-randread-4k-qd8");
        assert_eq!(r.status, Status::Ok);
        // one run's IOPS, never the sum of three
        assert!(r.metrics.get("read_iops").unwrap().value < 35000.0);
    }
    let mut reps: Vec<u32> = records.iter().map(|r| r.repetition).collect();
    reps.sort();
    assert_eq!(reps, [1, 2, 3]);
}

#[test]
fn a_fio_error_is_passed_on_naming_the_form_found() {
    let out = tempfile::tempdir().unwrap();
    diskdash()
        .args(["import", "--out"])
        .arg(out.path())
        .arg("tests/fixtures/fio/error22.json")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "recognised as fio output, not imported: fio JSON output with error 22 \
             (Invalid argument) in job `randread`",
        ));
}

#[test]
fn a_yabs_json_becomes_one_fio_record_per_block_size() {
    let out = tempfile::tempdir().unwrap();
    diskdash()
        .args(["import", "--out"])
        .arg(out.path())
        .arg("tests/fixtures/fio/yabs-v2023-04-23-example.json")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("imported 4 records"));
    let records = records_under(out.path());
    let mut ids: Vec<&str> = records.iter().map(|r| r.test.id.as_str()).collect();
    ids.sort();
    assert_eq!(
        ids,
        [
            "fio-randrw-1m-qd64-j2",
            "fio-randrw-4k-qd64-j2",
            "fio-randrw-512k-qd64-j2",
            "fio-randrw-64k-qd64-j2"
        ]
    );
    for r in &records {
        assert_eq!(r.test.tool.name(), "fio");
        assert_eq!(r.test.parameters["runner"], "yabs");
        assert_eq!(r.status, Status::Ok);
        assert!(
            diskdash::record::validate(r).is_empty(),
            "{:?}",
            diskdash::record::validate(r)
        );
    }
}

#[test]
fn a_bonnie_table_pasted_without_csv_imports_and_check_accepts_it() {
    let out = tempfile::tempdir().unwrap();
    diskdash()
        .args(["import", "--out"])
        .arg(out.path())
        .arg("tests/fixtures/bonnie/1.03-lkml-tables-four-runs.txt")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("imported 4 records"));
    let records = records_under(out.path());
    for r in &records {
        assert_eq!(r.test.id, "bonnie");
        assert_eq!(r.status, Status::Ok);
        assert!(diskdash::record::validate(r).is_empty());
    }
    diskdash().arg("check").arg(out.path()).assert().code(0);
}

#[test]
fn a_file_whose_record_check_would_refuse_is_refused_with_the_reason() {
    let out = tempfile::tempdir().unwrap();
    diskdash()
        .arg("import")
        .arg("--out")
        .arg(out.path())
        .arg("tests/fixtures/hostile/import/dd-absurd-bandwidth.txt")
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("dd-absurd-bandwidth.txt")
                .and(predicate::str::contains("would not pass `diskdash check`"))
                .and(predicate::str::contains("implausibly large")),
        );
    assert!(records_under(out.path()).is_empty());
}

#[test]
fn a_fifo_or_a_device_is_refused_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fio.json");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let out = dir.path().join("out");
    diskdash()
        .arg("import")
        .arg("--out")
        .arg(&out)
        .arg(&fifo)
        .arg("/dev/zero")
        .timeout(std::time::Duration::from_secs(10))
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("fio.json`: not a regular file")
                .and(predicate::str::contains("/dev/zero`: not a regular file")),
        );
}

#[test]
fn fio_logs_beside_the_json_become_its_timeline() {
    // a bench-fio style folder: seqread.json and seqread_{iops,bw,lat,clat}.1.log
    let out = tempfile::tempdir().unwrap();
    diskdash()
        .args(["import", "--study", "demo", "--offering", "gp2"])
        .arg("--out")
        .arg(out.path())
        .arg("tests/fixtures/fio/logs/tree")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("imported 1 record into"))
        // the logs are read with the JSON, not offered as output of their own
        .stdout(predicate::str::contains("skipped").not());
    let records = records_under(out.path());
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r.test.id, "fio-read-1m-qd4");
    let tl = r.timeline.as_ref().expect("a timeline");
    assert_eq!(tl.interval_s, 1.0);
    let read = tl.read.as_ref().unwrap();
    // `1000, 891, 0, 0, 0` in seqread_iops.1.log
    assert_eq!(read.iops[0], 891.0);
    assert_eq!(read.iops.len(), read.bw.len());
    assert!(read.iops.len() >= 14, "{}", read.iops.len());
    assert!(read.clat.is_some() && read.lat.is_some());
    let sha = |n: &str| {
        diskdash::digest::hex_sha256(
            &std::fs::read(format!("tests/fixtures/fio/logs/tree/{n}")).unwrap(),
        )
    };
    assert_eq!(tl.logs.len(), 4);
    assert_eq!(tl.logs["seqread_iops.1.log"], sha("seqread_iops.1.log"));
    // 1 MiB sequential reads: a throughput test, classified on bandwidth
    assert!(tl.pattern.is_some());
    assert_eq!(r.metrics.get("read_bw_sustained").unwrap().unit, "B/s");
    assert_eq!(r.metrics.get("read_iops_sustained").unwrap().unit, "IOPS");
    assert!(r.metrics.contains_key("steady_state"));
    diskdash().arg("check").arg(out.path()).assert().code(0);
}

#[test]
fn an_imported_timeline_is_charted_on_its_test_page() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    diskdash()
        .args(["import", "--study", "demo", "--offering", "gp2"])
        .arg("--out")
        .arg(&records)
        .arg("tests/fixtures/fio/logs/tree")
        .assert()
        .code(0);
    let site = dir.path().join("site");
    diskdash()
        .arg("report")
        .arg(&records)
        .arg("--out")
        .arg(&site)
        .assert()
        .code(0);
    let page = std::fs::read_to_string(site.join("tests/demo/fio-read-1m-qd4.html")).unwrap();
    assert!(
        page.contains("<h2 id=\"over-time\">Over time</h2>"),
        "{page}"
    );
    assert!(page.contains("read throughput over time"));
    // the caption in words, also in the chart's description
    assert!(page.contains("throughout; steady state reached"), "{page}");
    let charts: Vec<_> = walkdir::WalkDir::new(site.join("charts/demo/fio-read-1m-qd4"))
        .into_iter()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("timeline-") && n.ends_with(".svg"))
        .collect();
    // light, dark, narrow light, narrow dark
    assert_eq!(charts.len(), 4, "{charts:?}");
}

#[test]
fn a_file_far_larger_than_any_tool_output_is_refused_by_its_size_unread() {
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("fio.json");
    // sparse: costs no disk; read, it would cost 2 GB and more
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let out = dir.path().join("out");
    diskdash()
        .arg("import")
        .arg("--out")
        .arg(&out)
        .arg(&huge)
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "fio.json`: cannot read it: 2147483648 bytes, larger than any tool output diskdash imports (at most 268435456)",
        ));
}

#[test]
fn a_fio_claiming_1e8_iops_for_one_byte_is_refused_with_the_reason() {
    let out = tempfile::tempdir().unwrap();
    diskdash()
        .arg("import")
        .arg("--out")
        .arg(out.path())
        .arg("tests/fixtures/hostile/import/fio-1e8-iops-one-byte.json")
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("fio-1e8-iops-one-byte.json")
                .and(predicate::str::contains("would not pass `diskdash check`"))
                .and(predicate::str::contains(
                    "metric `read_iops` 1e8 IOPS over `runtime` 1 s is 1e8 I/Os, but `read_io_bytes` says 1 bytes moved: an I/O moves at least one byte",
                )),
        );
    assert!(records_under(out.path()).is_empty());
}

#[test]
fn names_past_their_limit_are_refused_on_the_command_line_naming_flag_and_limit() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("dd.txt");
    std::fs::write(
        &log,
        include_str!("../fixtures/dd/gnu91-write-8k-dsync.txt"),
    )
    .unwrap();
    let out = dir.path().join("out");
    // (one argument holds at most 128 KiB on Linux)
    let long = "s".repeat(100_000);
    for (flag, value, said) in [
        (
            "--study",
            long.clone(),
            "--study is 100000 characters long, over the limit of 200",
        ),
        (
            "--provider",
            "p".repeat(201),
            "--provider is 201 characters long, over the limit of 200",
        ),
        (
            "--label",
            format!("team={}", "t".repeat(201)),
            "--label team= is 201 characters long, over the limit of 200",
        ),
        (
            "--test-id",
            "t".repeat(201),
            "--test-id is 201 characters long, over the limit of 200",
        ),
    ] {
        let o = diskdash()
            .arg("import")
            .arg(&log)
            .args(["--out", out.to_str().unwrap(), flag, &value])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{flag}: {stderr}");
        assert!(stderr.contains(said), "{flag}: {stderr}");
        // the message names the flag, not the text
        assert!(
            stderr.len() < 1000,
            "{flag}: {} bytes of stderr",
            stderr.len()
        );
    }
    assert!(!out.exists());
    // at the limits, the records pass `check`
    diskdash()
        .arg("import")
        .arg(&log)
        .args(["--out", out.to_str().unwrap()])
        .args(["--study", &"s".repeat(200), "--offering", &"o".repeat(200)])
        .args(["--test-id", &"t".repeat(200)])
        .assert()
        .success();
    diskdash().arg("check").arg(&out).assert().success();
    let o = diskdash()
        .arg("report")
        .arg(&out)
        .args(["--out", dir.path().join("site").to_str().unwrap()])
        .args(["--title", &"T".repeat(201)])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("--title is 201 characters long, over the limit of 200"));
}

#[test]
fn a_fio_json_with_a_bad_number_is_refused_naming_file_field_and_value() {
    let dir = tempfile::tempdir().unwrap();
    let real = std::fs::read_to_string("tests/fixtures/fio/randread-4k-qd64.json").unwrap();
    for (to, says) in [
        (
            "\"iops\" : -5",
            "jobs[0].read.iops is -5: expected a number >= 0",
        ),
        (
            "\"iops\" : \"NaN\"",
            "jobs[0].read.iops is \"NaN\": expected a number >= 0",
        ),
    ] {
        let file = dir.path().join("bad.json");
        std::fs::write(&file, real.replacen("\"iops\" : 83142.428786", to, 1)).unwrap();
        let out = dir.path().join("out");
        diskdash()
            .args(["import", "--out"])
            .arg(&out)
            .arg(&file)
            .assert()
            .code(1)
            .stderr(predicate::str::contains("bad.json"))
            .stderr(predicate::str::contains(says));
        assert!(!out.exists() || records_under(&out).is_empty());
    }
}

#[test]
fn every_yabs_run_of_a_readme_becomes_its_records_with_its_position() {
    let out = tempfile::tempdir().unwrap();
    diskdash()
        .args(["import", "--out"])
        .arg(out.path())
        .arg("tests/fixtures/yabs/three-runs-v2021-06-05-readme.md")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("imported 12 records"));
    let records = records_under(out.path());
    assert_eq!(records.len(), 12);
    let mut seen: Vec<(String, u64, u32)> = records
        .iter()
        .map(|r| {
            let run = r.test.parameters["run_in_file"].as_u64().unwrap();
            (r.test.id.clone(), run, r.repetition)
        })
        .collect();
    seen.sort();
    // each block size once per run, its repetition the run's position
    for (id, run, repetition) in &seen {
        assert_eq!(u64::from(*repetition), *run, "{id}");
    }
    assert_eq!(
        seen.iter()
            .filter(|s| s.0 == "fio-randrw-4k-qd64-j2")
            .count(),
        3
    );
    diskdash().arg("check").arg(out.path()).assert().code(0);
}

#[test]
fn a_yabs_table_whose_heading_was_lost_imports() {
    let out = tempfile::tempdir().unwrap();
    diskdash()
        .args(["import", "--out"])
        .arg(out.path())
        .arg("tests/fixtures/yabs/headless-v2021-06-05.txt")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("imported 4 records"));
    let records = records_under(out.path());
    assert!(records
        .iter()
        .all(|r| r.test.parameters["runner"] == "yabs"));
}

#[test]
fn fio_client_server_json_of_only_the_all_clients_sum_imports_as_one_record() {
    // fio 2.6 with `unified_rw_reporting=1`: `client_stats` holds only fio's
    // `All clients` entry, which is the group's result
    let out = tempfile::tempdir().unwrap();
    diskdash()
        .args(["import", "--out"])
        .arg(out.path())
        .arg("tests/fixtures/fio/client-server-all-clients-fio2-6.json")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("imported 1 record into"));
    let records = records_under(out.path());
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r.status, Status::Ok);
    assert_eq!(r.test.parameters["fio_server"], "All clients");
    assert_eq!(r.test.parameters["unified_rw_reporting"], 1);
    // the figures fio printed: bw=16653 KiB/s, iops=2252.49, runtime=121363 ms
    assert_eq!(r.metrics.get("mixed_bw").unwrap().value, 16653.0 * 1024.0);
    assert_eq!(r.metrics.get("mixed_iops").unwrap().value, 2252.49);
    assert_eq!(r.metrics.get("runtime").unwrap().value, 121.363);
    assert!((r.metrics.get("mixed_lat_mean").unwrap().value - 1782.92e-6).abs() < 1e-15);
    diskdash().arg("check").arg(out.path()).assert().code(0);

    // the same document with no entry: said so, not called a wrapper
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.json");
    let text = std::fs::read_to_string("tests/fixtures/fio/client-server-all-clients-fio2-6.json")
        .unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["client_stats"] = serde_json::Value::Array(Vec::new());
    std::fs::write(&empty, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    diskdash()
        .args(["import", "--out"])
        .arg(dir.path().join("out"))
        .arg(&empty)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "the fio JSON (fio-2.6) has an empty \"client_stats\" array",
        ))
        .stderr(predicate::str::contains("inside other JSON").not());
}

#[test]
fn started_at_dates_output_without_a_date_and_warns_naming_the_file_where_the_output_has_one() {
    let out = tempfile::tempdir().unwrap();
    diskdash()
        .args(["import", "--started-at", "2023-03-01", "--out"])
        .arg(out.path())
        .args([
            "tests/fixtures/fio/terse-v3.txt",
            "tests/fixtures/fio/randread-4k-qd64.json",
        ])
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "warning: `tests/fixtures/fio/randread-4k-qd64.json`: the output dates it \
             2026-11-30T00:39:23Z: --started-at 2023-03-01 is for output without a date, not used",
        ))
        .stderr(predicate::str::contains("terse-v3.txt").not());
    let records = records_under(out.path());
    let mut dates: Vec<&str> = records
        .iter()
        .map(|r| r.started_at.as_deref().unwrap())
        .collect();
    dates.sort();
    assert_eq!(dates, ["2023-03-01T00:00:00Z", "2026-11-30T00:39:23Z"]);
    // what `check` accepts
    diskdash().arg("check").arg(out.path()).assert().code(0);
    // a time that is none is a usage error naming the flag and the forms
    for (value, why) in [
        (
            "2023-03-01 12:00",
            "expected an RFC 3339 time such as 2023-03-01T12:00:00Z or a date such as 2023-03-01",
        ),
        ("2023-02-30", "no such date: 2023-02-30 00:00:00"),
    ] {
        diskdash()
            .args(["import", "--started-at", value, "--out"])
            .arg(out.path())
            .arg("tests/fixtures/fio/terse-v3.txt")
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "for '--started-at <TIME>': `{value}`: {why}"
            )));
    }
}

#[test]
fn an_offering_the_catalogue_has_no_row_for_is_told_its_names() {
    let import = |provider: &str, offering: &str, price: Option<&str>| {
        let out = tempfile::tempdir().unwrap();
        let mut cmd = diskdash();
        cmd.args(["import", "--study", "demo", "--provider", provider])
            .args(["--offering", offering]);
        if let Some(p) = price {
            cmd.args(["--price-per-gb-month", p]);
        }
        let done = cmd
            .arg("--out")
            .arg(out.path())
            .arg("tests/fixtures/dd/gnu91-write-8k-dsync.txt")
            .output()
            .unwrap();
        assert!(done.status.success(), "{done:?}");
        String::from_utf8(done.stderr).unwrap()
    };
    let err = import("DigitalOcean", "Volumes", None);
    assert_eq!(
        err.matches("warning: no row for DigitalOcean Volumes; the catalogue has Volumes (Standard Droplet), Volumes (Optimized Droplet)\n").count(),
        1,
        "{err}"
    );
    // a misspelling is said even with a price given
    let err = import("AWS", "gp4", Some("0.08"));
    assert!(
        err.contains("warning: no row for AWS gp4; the catalogue has gp2, gp3,"),
        "{err}"
    );
    // a name the catalogue has, and a provider it cannot help, priced
    assert!(!import("Akamai", "block storage", None).contains("no row"));
    assert!(!import("Hetzner", "Volume", Some("0.044")).contains("no row"));
}
