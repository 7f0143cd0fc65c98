//! What the report pools as one test: the suite and the parameters that
//! change the result keep apart records of one test id; a cache trap is
//! shown with its reason and left out of the value tables.

use crate::report_common;
use std::collections::BTreeMap;
use std::path::Path;

use diskdash::record::{Record, Tool};
use report_common::*;

const MIB: u64 = 1 << 20;

fn value_csv(site: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(site.join("data/value.csv")).unwrap();
    let headers: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    r.records()
        .map(|rec| {
            headers
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(str::to_string))
                .collect()
        })
        .collect()
}

/// A dd record of `test` on `offering`: `count` MiB with `params` (sync
/// flags), in `suite`, at `mb_s` MB/s, on a 24 GiB machine.
#[allow(clippy::too_many_arguments)]
fn dd(
    id: &str,
    offering: &str,
    price: f64,
    test: &str,
    suite: Option<&str>,
    count: u64,
    params: &[(&str, &str)],
    mb_s: f64,
) -> Record {
    let mut r = record(
        id,
        "s",
        "P",
        offering,
        Some(price),
        test,
        1,
        &[("write_bw", mb_s * 1e6, "B/s")],
    );
    let t = &mut r.test;
    t.tool = Tool::Dd;
    t.suite = suite.map(str::to_string);
    t.parameters = BTreeMap::from([
        ("bs".to_string(), serde_json::json!(MIB)),
        ("count".to_string(), serde_json::json!(count)),
        ("bytes".to_string(), serde_json::json!(count * MIB)),
    ]);
    for (k, v) in params {
        t.parameters.insert(k.to_string(), serde_json::json!(v));
    }
    t.command = Some(format!("dd if=/dev/zero of=dd.dat bs=1M count={count}"));
    r.host.memory_bytes = Some(24 << 30);
    r
}

#[test]
fn quick_and_standard_runs_are_two_tests_and_a_cache_trap_is_shown_not_judged() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    let sync = [("conv", "fdatasync")];
    let records = [
        // quick's 64 MiB lands in the cache of any disk; the standard
        // suite's 48 GiB (2x RAM of the 24 GiB machine) does not
        dd(
            "a-quick",
            "A",
            0.1,
            "dd-write-bulk",
            Some("quick"),
            64,
            &sync,
            374.0,
        ),
        dd(
            "b-quick",
            "B",
            0.2,
            "dd-write-bulk",
            Some("quick"),
            64,
            &sync,
            380.0,
        ),
        dd(
            "a-std",
            "A",
            0.1,
            "dd-write-bulk",
            Some("standard"),
            49152,
            &sync,
            21.0,
        ),
        dd(
            "b-std",
            "B",
            0.2,
            "dd-write-bulk",
            Some("standard"),
            49152,
            &sync,
            84.0,
        ),
        // no sync flag: the page cache's rate
        dd("a-nosync", "A", 0.1, "dd-write-1m", None, 1024, &[], 1500.0),
        dd("b-nosync", "B", 0.2, "dd-write-1m", None, 1024, &[], 1400.0),
    ];
    for r in &records {
        write_record(&input, &format!("{}.json", r.id), r);
    }
    let site = dir.path().join("site");
    build(&input, &site);
    let rows = value_csv(&site);
    let row = |test: &str, offering: &str| {
        rows.iter()
            .find(|r| r["test"] == test && r["offering"] == offering)
            .unwrap_or_else(|| panic!("no row {test} {offering}: {rows:?}"))
    };
    // like with like: B is 4x A in the standard test, about 1x in quick
    assert_eq!(
        row("dd-write-bulk (standard: 2x RAM)", "B")["performance_ratio"],
        "4.000"
    );
    assert_eq!(
        row("dd-write-bulk (quick: 64 MiB)", "B")["performance_ratio"],
        "1.016"
    );
    assert!(rows.iter().all(|r| r["test"] != "dd-write-bulk"));
    // the trap: kept, shown with why, not in the value table
    assert!(
        rows.iter().all(|r| !r["test"].starts_with("dd-write-1m")),
        "{rows:?}"
    );
    let page = std::fs::read_to_string(site.join("tests/s/dd-write-1m.html")).unwrap();
    assert!(
        page.contains("Not judged: dd wrote without a sync flag (no conv=fdatasync or fsync, no oflag=dsync, sync or direct)"),
        "{page}"
    );
    assert!(
        page.contains("1,500") || page.contains("1.50 GB/s"),
        "{page}"
    );
    let run = std::fs::read_to_string(site.join("runs/a-nosync.html")).unwrap();
    assert!(
        run.contains("not judged: dd wrote without a sync flag"),
        "{run}"
    );
    // both tests have their pages, named for readers
    for slug in [
        "dd-write-bulk-quick-64-mib",
        "dd-write-bulk-standard-2x-ram",
    ] {
        let p = std::fs::read_to_string(site.join(format!("tests/s/{slug}.html"))).unwrap();
        assert!(p.contains("dd-write-bulk ("), "{slug}");
    }
    // the study page lists it with why
    let study = std::fs::read_to_string(site.join("studies/s.html")).unwrap();
    assert!(
        study.contains(r#"<a href="../tests/s/dd-write-1m.html">dd-write-1m</a> <span class="muted">not judged: dd wrote without a sync flag"#),
        "{study}"
    );
    let summary = std::fs::read_to_string(site.join("data/summary.csv")).unwrap();
    assert!(
        summary.contains("dd-write-bulk (quick: 64 MiB)"),
        "{summary}"
    );
}
