//! The queue-depth section of a study page and the latency distribution of
//! a fio test page, on real fio 3.33 output: two configurations, each a
//! 4 KiB random read at iodepth 1, 4, 16 and 64
//! (`tests/fixtures/fio-qd/`, see its README).

use crate::report_common;

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fio-qd")
}

/// Imports both configurations into `records` and builds the site into `site`.
fn build_site(root: &Path) -> PathBuf {
    let records = root.join("records");
    for (prefix, offering, price) in [
        ("a", "Standard <SSD>", "0.10"),
        ("b", "Premium & NVMe", "0.20"),
    ] {
        let files: Vec<PathBuf> = [1, 4, 16, 64]
            .iter()
            .map(|d| fixtures().join(format!("{prefix}-randread-4k-qd{d}.json")))
            .collect();
        Command::cargo_bin("diskdash")
            .unwrap()
            .args([
                "import",
                "--study",
                "qd",
                "--provider",
                "Acme",
                "--offering",
                offering,
            ])
            .args(["--size-gb", "100", "--price-per-gb-month", price, "--out"])
            .arg(&records)
            .args(&files)
            .assert()
            .success();
    }
    let site = root.join("site");
    report_common::build(&records, &site);
    site
}

fn read(site: &Path, page: &str) -> String {
    std::fs::read_to_string(site.join(page)).unwrap()
}

/// The section of `html` from the heading with `id` to the next `<h2`.
fn section<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("<h2 id=\"{id}\""))
        .unwrap_or_else(|| panic!("no section {id}"));
    let rest = &html[start..];
    let end = rest[4..].find("<h2").map_or(rest.len(), |e| e + 4);
    &rest[..end]
}

#[test]
fn the_study_page_charts_iops_and_p99_against_queue_depth() {
    let dir = tempfile::tempdir().unwrap();
    let site = build_site(dir.path());
    let study = read(&site, "studies/qd.html");
    let qd = section(&study, "queue-depth");
    assert!(qd.contains("<h3>randread, 4 KiB blocks, 1 job: read IOPS and p99 read latency</h3>"));
    // the four depths, each linked to its test page
    for d in [1, 4, 16, 64] {
        assert!(
            qd.contains(&format!(
                "<a href=\"../tests/qd/fio-randread-4k-qd{d}.html\">QD {d}</a>"
            )),
            "QD {d}"
        );
    }
    // both configurations, names escaped
    assert!(qd.contains("Acme Standard &#60;SSD&#62;"));
    assert!(qd.contains("Acme Premium &#38; NVMe"));
    // "iops": 10890.554723 and "99.000000": 154624 ns at iodepth 1;
    // 45206.896552 and 6717440 ns at 64 (a-randread-4k-qd*.json)
    assert!(
        qd.contains("<td class=\"num\">10,890 IOPS<br><span class=\"muted\">155 µs</span></td>")
    );
    assert!(
        qd.contains("<td class=\"num\">45,210 IOPS<br><span class=\"muted\">6.72 ms</span></td>")
    );
    // b at 64: 54999.0005 IOPS, 4816896 ns
    assert!(
        qd.contains("<td class=\"num\">55,000 IOPS<br><span class=\"muted\">4.82 ms</span></td>")
    );
    // a chart per configuration, inline and standalone
    for slug in ["acme-standard-ssd", "acme-premium-nvme"] {
        let file = format!("charts/qd/qd-randread-4k-j1-{slug}.svg");
        assert!(qd.contains(&format!("href=\"../{file}\"")), "{file}");
        let svg = read(&site, &file);
        roxmltree::Document::parse(&svg).expect("well-formed SVG");
        assert!(svg.contains("queue depth (fio iodepth)"));
    }
    let a = read(&site, "charts/qd/qd-randread-4k-j1-acme-standard-ssd.svg");
    assert!(a.contains("Acme Standard &lt;SSD&gt;: randread, 4 KiB blocks, 1 job, by queue depth"));
    assert!(
        a.contains("queue depth 1: 10,890 IOPS, p99 0.155 ms; queue depth 4: 24,940 IOPS, p99 0.668 ms; queue depth 16: 32,980 IOPS, p99 4.49 ms; queue depth 64: 45,210 IOPS, p99 6.72 ms"),
        "{a}"
    );
    // one test per depth: no queue-depth section on a study without that
    let index = read(&site, "index.html");
    assert!(!index.contains("id=\"queue-depth\""));
}

#[test]
fn a_fio_test_page_shows_the_latency_distribution() {
    let dir = tempfile::tempdir().unwrap();
    let site = build_site(dir.path());
    let page = read(&site, "tests/qd/fio-randread-4k-qd64.html");
    let dist = section(&page, "latency-distribution");
    assert!(dist.contains("<h3>read completion latency</h3>"));
    assert!(dist.contains("<th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>p99.99</th>"));
    // a-randread-4k-qd64.json: "50.000000": 970752, "90.000000": 2834432,
    // "99.000000": 6717440, "99.900000": 20316160, "99.990000": 27918336 (ns),
    // each cell in the table's one unit (ms, from the largest)
    let json: serde_json::Value =
        serde_json::from_str(&read(&fixtures(), "a-randread-4k-qd64.json")).unwrap();
    let pct = &json["jobs"][0]["read"]["clat_ns"]["percentile"];
    assert_eq!(pct["99.000000"], 6717440);
    let row = dist
        .split("<tr>")
        .find(|r| r.contains("Acme Standard &#60;SSD&#62;"))
        .expect("a row for Standard");
    let ms = |key: &str| {
        diskdash::format::with_unit(
            pct[key].as_f64().unwrap() * 1e-9,
            diskdash::format::display_unit(diskdash::units::Unit::Seconds, 0.03),
        )
    };
    for key in [
        "50.000000",
        "90.000000",
        "99.000000",
        "99.900000",
        "99.990000",
    ] {
        assert!(
            row.contains(&format!("<td class=\"num\">{}</td>", ms(key))),
            "{key}: {row}"
        );
    }
    assert!(dist.contains("Acme Premium &#38; NVMe"));
    // the chart: both configurations, every percentile, the tail spread out
    let svg = read(
        &site,
        "charts/qd/fio-randread-4k-qd64/distribution-read.svg",
    );
    roxmltree::Document::parse(&svg).expect("well-formed SVG");
    assert!(dist.contains("href=\"../../charts/qd/fio-randread-4k-qd64/distribution-read.svg\""));
    for label in [
        "Standard &lt;SSD&gt;",
        "Premium &amp; NVMe",
        ">p99.99</text>",
        "log scale",
    ] {
        assert!(svg.contains(label), "{label}");
    }
    assert!(svg.contains("Standard &lt;SSD&gt;: p1 "), "{svg}");
    // the page keeps p50, p99 and p99.9 sections and no section per other percentile
    assert!(page.contains("id=\"metric-read-clat-p99\""));
    assert!(!page.contains("id=\"metric-read-clat-p95\""));
}

/// Every record file under `dir`, parsed.
fn records_under(dir: &Path) -> Vec<(PathBuf, serde_json::Value)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        if e.path().extension().is_some_and(|x| x == "json") {
            let v = serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap();
            out.push((e.path().to_path_buf(), v));
        }
    }
    out
}

#[test]
fn time_based_tests_are_never_one_workload_with_size_bound_ones() {
    let dir = tempfile::tempdir().unwrap();
    build_site(dir.path());
    let records = dir.path().join("records");
    // the size-bound QD 64 read of Standard, copied into time-based tests
    // of the same rw, block size and jobs: a 45-minute sustained test at
    // QD 32 and at QD 1, and a 20-minute one at QD 16 (P15's burst and
    // after averaged: 2,701 IOPS)
    let (_, base) = records_under(&records)
        .into_iter()
        .find(|(_, r)| {
            r["test"]["id"] == "fio-randread-4k-qd64"
                && r["subject"]["offering"] == "Standard <SSD>"
        })
        .expect("the imported QD 64 record");
    for (test, depth, runtime, iops) in [
        ("fio-sustained-randread-4k-qd32", 32, 2700.0, 2701.0),
        ("fio-sustained-randread-4k-qd1", 1, 2700.0, 900.0),
        ("fio-sustained20-randread-4k-qd16", 16, 1200.0, 1500.0),
    ] {
        let mut r = base.clone();
        r["id"] = format!("timed.{test}").into();
        r["test"]["id"] = test.into();
        let p = &mut r["test"]["parameters"];
        p["iodepth"] = depth.into();
        p["time_based"] = true.into();
        p["runtime"] = runtime.into();
        r["metrics"]["read_iops"]["value"] = iops.into();
        std::fs::write(records.join(format!("timed-{test}.json")), r.to_string()).unwrap();
    }
    let site = dir.path().join("site2");
    report_common::build(&records, &site);
    let study = read(&site, "studies/qd.html");
    let qd = section(&study, "queue-depth");
    let groups: Vec<&str> = qd.split("<h3>").skip(1).collect();
    let heading = |g: &str| g.split("</h3>").next().unwrap().to_string();
    let headings: Vec<String> = groups.iter().map(|g| heading(g)).collect();
    // the size-bound group as before, and one of the two 45-minute tests;
    // the 20-minute test has no other depth of its kind, so no group
    assert_eq!(
        headings,
        [
            "randread, 4 KiB blocks, 1 job: read IOPS and p99 read latency",
            "randread, 4 KiB blocks, 1 job, time-based for 45 min: read IOPS and p99 read latency",
        ],
        "{qd}"
    );
    let depths = |g: &str| -> Vec<String> {
        g.split("\">QD ")
            .skip(1)
            .map(|s| s.split('<').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(depths(groups[0]), ["1", "4", "16", "64"]);
    assert!(!groups[0].contains("fio-sustained"), "{}", groups[0]);
    assert_eq!(depths(groups[1]), ["1", "32"]);
    assert!(
        groups[1].contains("href=\"../tests/qd/fio-sustained-randread-4k-qd32.html\">QD 32</a>")
    );
    assert!(groups[1].contains("2,701 IOPS"), "{}", groups[1]);
    assert!(!qd.contains("fio-sustained20"), "{qd}");
    // each group its own chart file
    assert!(site
        .join("charts/qd/qd-randread-4k-j1-t2700s-acme-standard-ssd.svg")
        .is_file());
    assert!(site
        .join("charts/qd/qd-randread-4k-j1-acme-standard-ssd.svg")
        .is_file());
}
