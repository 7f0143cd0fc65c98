//! Page weight for a study of 50 configurations that ran the whole standard
//! suite: `index.html` under 150 KB, `value.html` under 300 KB and the study
//! page with its inline chart under 500 KB.

mod report_common;

use diskdash::ingest::Found;
use diskdash::report::{build_site, Options};
use report_common::record;

/// The standard tests with their headline metrics (and one latency metric).
const SUITE: [(&str, &[(&str, &str)]); 12] = [
    ("dd-write-bulk", &[("write_bw", "B/s")]),
    ("dd-write-128k-fdatasync", &[("write_bw", "B/s")]),
    ("dd-write-8k-fdatasync", &[("write_bw", "B/s")]),
    ("dd-write-128k-dsync", &[("write_bw", "B/s")]),
    ("dd-write-8k-dsync", &[("write_bw", "B/s")]),
    (
        "fio-randread-4k-qd64",
        &[
            ("read_iops", "IOPS"),
            ("read_bw", "B/s"),
            ("read_clat_p99", "s"),
        ],
    ),
    (
        "fio-randwrite-4k-qd64",
        &[
            ("write_iops", "IOPS"),
            ("write_bw", "B/s"),
            ("write_clat_p99", "s"),
        ],
    ),
    (
        "ioping-latency",
        &[("iops", "IOPS"), ("bw", "B/s"), ("lat_avg", "s")],
    ),
    (
        "ioping-seek",
        &[("iops", "IOPS"), ("bw", "B/s"), ("lat_avg", "s")],
    ),
    (
        "ioping-seq",
        &[("iops", "IOPS"), ("bw", "B/s"), ("lat_avg", "s")],
    ),
    (
        "ioping-seq-cached",
        &[("iops", "IOPS"), ("bw", "B/s"), ("lat_avg", "s")],
    ),
    (
        "bonnie",
        &[
            ("random_seeks", "ops/s"),
            ("seq_block_read_bw", "B/s"),
            ("seq_block_write_bw", "B/s"),
        ],
    ),
];

#[test]
fn index_value_and_study_pages_stay_small_for_50_configurations() {
    let mut found = Vec::new();
    for o in 0..50 {
        for (test, metrics) in SUITE {
            for rep in 1..=3u32 {
                let speed = 1.0 + o as f64 * 0.2 + rep as f64 * 0.01;
                let metrics: Vec<(&str, f64, &str)> = metrics
                    .iter()
                    .map(|(m, u)| (*m, if *u == "s" { 1e-3 / speed } else { 1e6 * speed }, *u))
                    .collect();
                let r = record(
                    &format!("big.o{o:02}.{test}.r{rep}"),
                    "big study",
                    &format!("Provider number {}", o % 5),
                    &format!("A fairly long offering name, volume class {o:02}"),
                    Some(0.05 + o as f64 * 0.01),
                    test,
                    rep,
                    &metrics,
                );
                found.push(Found {
                    path: format!("{o}-{test}-{rep}.json").into(),
                    line: None,
                    record: r,
                });
            }
        }
    }
    let site = build_site(&found, &[], &Options::default()).unwrap();
    let index = &site.files["index.html"];
    // the index lists studies with their one-line answers: small
    assert!(
        index.len() < 150 * 1024,
        "index.html is {} bytes",
        index.len()
    );
    // every judged table of the study, with charts as image files
    let value = &site.files["value.html"];
    eprintln!("value.html: {} bytes", value.len());
    assert!(
        value.len() < 300 * 1024,
        "value.html is {} bytes",
        value.len()
    );
    let study = &site.files["studies/big-study.html"];
    // the study page embeds its chart inline, so its size is the page's weight
    let charts: usize = site
        .files
        .iter()
        .filter(|(k, _)| k.starts_with("charts/big-study/overview"))
        .map(|(_, v)| v.len())
        .sum();
    assert!(
        study.len() < 500 * 1024,
        "studies/big-study.html is {} bytes ({} of them charts)",
        study.len(),
        charts
    );
    eprintln!(
        "index.html: {} bytes; study page {} bytes, overview chart {} bytes",
        index.len(),
        study.len(),
        charts
    );
    let text = String::from_utf8_lossy(study);
    // and its value matrix has a row for every configuration
    assert_eq!(text.matches("<th scope=\"row\">").count(), 50);
    assert_eq!(
        site.files.keys().filter(|k| k.starts_with("runs/")).count(),
        1800
    );
}
