//! What each headline sentence rests on: random I/O on fio's 4 KiB random
//! reads at queue depth 32 or more, latency on the QD1 p99, sequential on
//! fio's 1 MiB sequential reads; quick-suite runs never over standard
//! ones; a short test that ran after its volume's burst keeps its verdict;
//! every configuration judged or named with why.

use crate::report_common;

use std::path::Path;

use diskdash::record::{Record, Tool};
use report_common::*;

const STUDY: &str = "dims";

/// A fio record of `offering` (price per GB `price`, 100 GB) of `test`,
/// with `rw`, block size `bs` and the queue depth its id names, and these
/// metrics.
fn fio(
    offering: &str,
    price: Option<f64>,
    test: &str,
    rw: &str,
    bs: u64,
    metrics: &[(&str, f64, &str)],
) -> Record {
    let mut r = record(
        &format!("{offering}.{test}"),
        STUDY,
        "Cloud",
        offering,
        price,
        test,
        1,
        metrics,
    );
    let t = &mut r.test;
    t.parameters.insert("rw".into(), serde_json::json!(rw));
    t.parameters.insert("bs".into(), serde_json::json!(bs));
    r
}

/// The same record as another tool's (`ioping`, `dd`): no fio parameters.
fn as_tool(mut r: Record, tool: Tool) -> Record {
    let t = &mut r.test;
    t.tool = tool;
    t.parameters.clear();
    r
}

fn in_suite(mut r: Record, suite: &str) -> Record {
    let t = &mut r.test;
    t.suite = Some(suite.into());
    t.parameters
        .insert("time_based".into(), serde_json::json!(true));
    t.parameters.insert(
        "runtime".into(),
        serde_json::json!(if suite == "quick" { 5 } else { 60 }),
    );
    r.id = format!("{}.{suite}", r.id);
    r
}

fn headline(site: &Path) -> Vec<String> {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("data/summary.json")).unwrap())
            .unwrap();
    json["studies"][0]["headline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn sentence<'a>(headline: &'a [String], heading: &str) -> &'a str {
    headline
        .iter()
        .find(|s| s.starts_with(heading))
        .unwrap_or_else(|| panic!("no {heading} sentence in {headline:?}"))
}

fn site_of(records: &[Record]) -> (tempfile::TempDir, std::path::PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("records");
    for r in records {
        write_record(&input, &format!("{}.json", r.id), r);
    }
    let site = dir.path().join("site");
    let (ok, _, stderr) = report(&[input.as_os_str(), "--out".as_ref(), site.as_os_str()]);
    assert!(ok, "report failed: {stderr}");
    (dir, site, stderr)
}

/// cheap (0.05) and dear (0.10), each with a QD1 and a QD64 4 KiB random
/// read, a 1 MiB sequential read, and ioping's and dd's sequential
/// figures; "spare" has only the QD64 test and no price.
fn study() -> Vec<Record> {
    let mut out = Vec::new();
    for (name, price, k) in [("cheap", Some(0.05), 1.0), ("dear", Some(0.10), 3.0)] {
        out.push(fio(
            name,
            price,
            "fio-randread-4k-qd1",
            "randread",
            4096,
            &[
                ("read_iops", 2000.0 * k, "IOPS"),
                ("read_clat_p99", 0.001 / k, "s"),
            ],
        ));
        out.push(fio(
            name,
            price,
            "fio-randread-4k-qd64",
            "randread",
            4096,
            &[
                ("read_iops", 10_000.0 * k, "IOPS"),
                ("read_clat_p99", 0.02 / k, "s"),
            ],
        ));
        out.push(fio(
            name,
            price,
            "fio-read-1m-qd16",
            "read",
            1 << 20,
            &[("read_bw", 200e6 * k, "B/s")],
        ));
        out.push(as_tool(
            fio(
                name,
                price,
                "ioping-seq",
                "read",
                1 << 20,
                &[("bw", 900e6, "B/s")],
            ),
            Tool::Ioping,
        ));
        out.push(as_tool(
            fio(
                name,
                price,
                "dd-write-bulk",
                "write",
                1 << 20,
                &[("write_bw", 800e6, "B/s")],
            ),
            Tool::Dd,
        ));
    }
    out.push(fio(
        "spare",
        None,
        "fio-randread-4k-qd64",
        "randread",
        4096,
        &[("read_iops", 5000.0, "IOPS"), ("read_clat_p99", 0.01, "s")],
    ));
    out
}

#[test]
fn each_dimension_rests_on_the_test_its_name_says() {
    let (_dir, site, _) = site_of(&study());
    let h = headline(&site);
    // not the QD1 test, which comes first in test order: queue depth 64
    let random = sentence(&h, "Random I/O");
    assert!(
        random.starts_with(
            "Random I/O (4 KiB random reads at queue depth 64, fio-randread-4k-qd64): "
        ),
        "{random}"
    );
    assert!(
        random.contains("for 3.0x its 4 KiB random read IOPS (worth it"),
        "{random}"
    );
    // fio's 1 MiB reads, not ioping's or dd's faster figures
    let sequential = sentence(&h, "Sequential");
    assert!(
        sequential.starts_with(
            "Sequential (1 MiB sequential reads at queue depth 16, fio-read-1m-qd16): "
        ),
        "{sequential}"
    );
    assert!(
        !h.iter()
            .any(|s| s.contains("ioping-seq") || s.contains("dd-write-bulk")),
        "{h:?}"
    );
    // latency is the QD1 p99 (in the post's table): 1 ms against 0.33 ms
    let md = std::fs::read_to_string(site.join(format!("data/{STUDY}.md"))).unwrap();
    let header = md
        .lines()
        .find(|l| l.starts_with("| configuration | monthly cost |"))
        .unwrap();
    assert_eq!(header.matches(" | ").count() + 1, 5, "{header}");
    let dear = md
        .lines()
        .find(|l| l.starts_with("| Cloud dear |"))
        .unwrap();
    assert!(
        dear.contains("| 0.333 · 3.0x · worth it, single run |"),
        "{dear}"
    );
    // the unpriced configuration is named in the sentence its test is in,
    // with the fix, and listed as excluded
    let spare =
        "; 1 more not judged: Cloud spare (no price: not in the catalogue; give it with --prices).";
    assert!(random.ends_with(spare), "{random}");
    assert!(sequential.ends_with(spare), "{sequential}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("data/summary.json")).unwrap())
            .unwrap();
    assert_eq!(
        json["studies"][0]["excluded"],
        serde_json::json!([{
            "offering": "Cloud spare",
            "reason": "no price: not in the catalogue; give it with --prices"
        }])
    );
    // its monthly cost says why in a few words, not the catalogue's list
    // of providers (the value page has that), under the post's table
    let row = md
        .lines()
        .find(|l| l.starts_with("| Cloud spare |"))
        .unwrap();
    assert!(row.starts_with("| Cloud spare | unknown |"), "{row}");
    let notes = md
        .lines()
        .find(|l| l.starts_with("Monthly costs: "))
        .unwrap_or_else(|| panic!("no monthly costs in\n{md}"));
    assert!(
        notes.contains("Cloud spare: not in the catalogue.")
            || notes.contains("Cloud spare: not in the catalogue; "),
        "{notes}"
    );
}

#[test]
fn ioping_and_dd_carry_a_dimension_only_where_fio_did_not_measure_it() {
    // without fio's sequential reads: dd's bulk write before ioping's reads
    let records: Vec<Record> = study()
        .into_iter()
        .filter(|r| r.test.id != "fio-read-1m-qd16")
        .collect();
    let (_dir, site, _) = site_of(&records);
    let h = headline(&site);
    let sequential = sentence(&h, "Sequential");
    assert!(
        sequential.starts_with("Sequential (write throughput, dd-write-bulk): "),
        "{sequential}"
    );
    // and without a QD1 fio test, no fio p99 stands for latency: the post
    // has no latency column (the QD64 p99 is a queue's, not the disk's)
    let records: Vec<Record> = study()
        .into_iter()
        .filter(|r| r.test.id != "fio-randread-4k-qd1")
        .collect();
    let (_dir, site, _) = site_of(&records);
    let md = std::fs::read_to_string(site.join(format!("data/{STUDY}.md"))).unwrap();
    let header = md
        .lines()
        .find(|l| l.starts_with("| configuration | monthly cost |"))
        .unwrap();
    assert!(!header.contains("latency"), "{header}");
}

#[test]
fn quick_runs_never_answer_over_standard_ones_and_a_quick_only_one_is_named() {
    let qd64 = |name: &str, price: f64, iops: f64| {
        fio(
            name,
            Some(price),
            "fio-randread-4k-qd64",
            "randread",
            4096,
            &[("read_iops", iops, "IOPS"), ("read_clat_p99", 0.01, "s")],
        )
    };
    let records = vec![
        // the quick runs say 10x; the standard ones 2x
        in_suite(qd64("cheap", 0.05, 1000.0), "quick"),
        in_suite(qd64("dear", 0.10, 10_000.0), "quick"),
        in_suite(qd64("cheap", 0.05, 1000.0), "standard"),
        in_suite(qd64("dear", 0.10, 2000.0), "standard"),
        // measured with the quick suite only: 3,000 for 2.4x the price
        in_suite(qd64("other", 0.12, 3000.0), "quick"),
    ];
    let (_dir, site, stderr) = site_of(&records);
    let h = headline(&site);
    let random = sentence(&h, "Random I/O");
    assert!(
        random.starts_with(
            "Random I/O (4 KiB random reads at queue depth 64, fio-randread-4k-qd64 (standard)): "
        ),
        "{random}"
    );
    assert!(
        random.contains("for 2.0x its 4 KiB random read IOPS"),
        "{random}"
    );
    assert!(
        random.ends_with("; Cloud other: worth it, single run (quick suite: 5-second tests)."),
        "{random}"
    );
    assert!(!h.iter().any(|s| s.contains("10.0x")), "{h:?}");
    // said once, with why: the two quick runs of configurations that have
    // standard runs of the same test (other's is its only one)
    assert_eq!(
        stderr.matches("quick-suite runs set aside").count(),
        1,
        "{stderr}"
    );
    assert!(
        stderr.contains("note: 2 quick-suite runs set aside from the answer: their configurations have standard-suite runs of the same tests"),
        "{stderr}"
    );
    // a study measured with the quick suite alone says so in its sentence
    let quick_only: Vec<Record> = records
        .iter()
        .filter(|r| r.test.suite.as_deref() == Some("quick"))
        .cloned()
        .collect();
    let (_dir, site, stderr) = site_of(&quick_only);
    let random = headline(&site)
        .into_iter()
        .find(|s| s.starts_with("Random I/O"))
        .unwrap();
    assert!(
        random.starts_with(
            "Random I/O (4 KiB random reads at queue depth 64, fio-randread-4k-qd64; quick suite: 5-second tests): "
        ),
        "{random}"
    );
    assert!(!stderr.contains("set aside"), "{stderr}");
}

/// A bursting configuration's sustained run of `run` started at `start`
/// (3,000 IOPS for 200 s, then 300) and its QD64 test of the same run
/// started `after_s` seconds later at `iops`.
fn burst_pair(run: &str, after_s: u64, iops: f64) -> Vec<Record> {
    let mut sustained = timeline_record(
        &format!("{run}.s"),
        "Cloud",
        "gp2",
        timeline(3000.0, 200, 300.0),
    );
    let mut short = fio(
        "gp2",
        Some(0.10),
        "fio-randread-4k-qd64",
        "randread",
        4096,
        &[("read_iops", iops, "IOPS"), ("read_clat_p99", 0.01, "s")],
    );
    short.id = format!("{run}.short");
    for (r, at) in [(&mut sustained, 0), (&mut short, after_s)] {
        r.subject.study = Some(STUDY.into());
        r.run_id = Some(run.into());
        r.started_at = Some(
            humantime::format_rfc3339_seconds(
                std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_764_000_000 + at),
            )
            .to_string(),
        );
    }
    vec![sustained, short]
}

/// The flat baseline: 500 IOPS throughout, and its QD64 test.
fn flat_baseline() -> Vec<Record> {
    let mut s = timeline_record("hdd.s", "Cloud", "hdd", timeline(500.0, 600, 500.0));
    s.subject.study = Some(STUDY.into());
    s.subject.price.as_mut().unwrap().per_gb_month = 0.025;
    let short = fio(
        "hdd",
        Some(0.025),
        "fio-randread-4k-qd64",
        "randread",
        4096,
        &[("read_iops", 500.0, "IOPS"), ("read_clat_p99", 0.05, "s")],
    );
    vec![s, short]
}

fn short_verdict(site: &Path, offering: &str) -> String {
    let text = std::fs::read_to_string(site.join("data/value.csv")).unwrap();
    let mut rd = csv::Reader::from_reader(text.as_bytes());
    let headers = rd.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (t, m, o, v) = (col("test"), col("metric"), col("offering"), col("verdict"));
    rd.records()
        .map(|r| r.unwrap())
        .find(|r| &r[t] == "fio-randread-4k-qd64" && &r[m] == "read_iops" && &r[o] == offering)
        .map(|r| r[v].to_string())
        .unwrap_or_else(|| panic!("no {offering} row"))
}

#[test]
fn a_short_test_run_after_its_volumes_burst_is_judged_at_the_level_it_measured() {
    // run 700 s after the sustained test began, whose burst lasted 200 s,
    // at the 300 IOPS that last: 0.6x for 4x the price
    let mut records = flat_baseline();
    records.extend(burst_pair("r1", 700, 300.0));
    let (_dir, site, _) = site_of(&records);
    assert_eq!(
        short_verdict(&site, "gp2"),
        "no, single run, after the burst"
    );
    // the same test run before the sustained one (a full bucket), or at
    // the burst level after it (the bucket refilled): while bursting
    for (after_s, iops) in [(0, 3000.0), (700, 3000.0)] {
        let mut records = flat_baseline();
        let mut pair = burst_pair("r1", after_s, iops);
        if after_s == 0 {
            // the short test began before the sustained run
            pair[0].started_at = Some("2025-11-24T16:10:00Z".into());
            pair[1].started_at = Some("2025-11-24T16:00:00Z".into());
        }
        records.extend(pair);
        let (_dir, site, _) = site_of(&records);
        assert_eq!(
            short_verdict(&site, "gp2"),
            "while bursting",
            "{after_s} s, {iops}"
        );
    }
    // a short test of another run than the one that measured the burst
    // says nothing of when it ran against it
    let mut records = flat_baseline();
    let mut pair = burst_pair("r1", 700, 300.0);
    pair[1].run_id = Some("r2".into());
    records.extend(pair);
    let (_dir, site, _) = site_of(&records);
    assert_eq!(short_verdict(&site, "gp2"), "while bursting");
}

#[test]
fn a_chart_that_leaves_a_configuration_out_says_so_under_it() {
    let (_dir, site, _) = site_of(&study());
    let page = std::fs::read_to_string(site.join(format!("studies/{STUDY}.html"))).unwrap();
    // spare has no price: the cost charts cannot place it
    assert!(
        page.contains("<figcaption>Not drawn: Cloud spare (no price: not in the catalogue; give it with --prices). standalone SVG"),
        "{page}"
    );
    // a configuration the sequential test did not measure
    assert!(
        page.contains("Not drawn: Cloud spare (no fio-read-1m-qd16 result)."),
        "{page}"
    );
}
