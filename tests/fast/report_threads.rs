//! The site does not depend on the number of threads: the sample results
//! and 600 generated records (pages written by several threads at once),
//! each built by the binary with 1 and with 4 threads, give the same files,
//! byte for byte.

use crate::report_common;

use std::collections::BTreeMap;
use std::path::Path;

use assert_cmd::Command;
use report_common::record;

/// Every file under `dir`: relative path to content.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

fn build(input: &Path, out: &Path, threads: &str) {
    Command::cargo_bin("diskdash")
        .unwrap()
        .env("RAYON_NUM_THREADS", threads)
        .args(["report", "--out"])
        .arg(out)
        .arg(input)
        .assert()
        .success();
}

fn same_with_1_and_4_threads(input: &Path) -> usize {
    let tmp = tempfile::tempdir().unwrap();
    let (one, four) = (tmp.path().join("one"), tmp.path().join("four"));
    build(input, &one, "1");
    build(input, &four, "4");
    let (a, b) = (files(&one), files(&four));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the two builds wrote different files"
    );
    for (path, bytes) in &a {
        assert!(
            bytes == &b[path],
            "`{path}` differs between 1 and 4 threads"
        );
    }
    a.len()
}

#[test]
fn the_sample_site_is_the_same_with_1_and_4_threads() {
    let n = same_with_1_and_4_threads(&report_common::sample_results());
    assert!(n > 100, "only {n} files");
}

#[test]
fn a_site_of_600_records_is_the_same_with_1_and_4_threads() {
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..600u32 {
        let o = i % 3;
        let test = ["ioping-seek", "dd-write-bulk"][(i / 3 % 2) as usize];
        let metric = if test == "dd-write-bulk" {
            ("write_bw", 1e6 * (1.0 + f64::from(i % 17)), "B/s")
        } else {
            ("iops", 100.0 + f64::from(i % 13), "IOPS")
        };
        let r = record(
            &format!("t.o{o}.{test}.r{i:04}"),
            "threads",
            "P",
            &format!("volume {o}"),
            Some(0.05 + f64::from(o) * 0.02),
            test,
            i / 6 + 1,
            &[metric],
        );
        let path = tmp.path().join(format!("o{o}/{}.json", r.id));
        diskdash::fsio::write_atomic(&path, diskdash::record::to_json(&r).unwrap().as_bytes())
            .unwrap();
    }
    let n = same_with_1_and_4_threads(tmp.path());
    // 600 run pages, and the rest
    assert!(n > 600, "only {n} files");
}
