//! A configuration measured on two dates: the offering page shows its
//! history, the study's answer uses the newest measurement and says when it
//! was taken, and the older runs are left out with the reason; the same
//! configuration in two studies is one history.

use crate::report_common;

use std::collections::BTreeMap;
use std::path::Path;

use diskdash::record::Record;
use report_common::*;

const TEST: &str = "fio-randread-4k-qd64";

/// A random-read run of `offering` in `study` started at `at`, at `iops`.
fn run(id: &str, study: &str, offering: &str, per_gb: f64, at: &str, iops: f64) -> Record {
    run_of(id, study, offering, per_gb, TEST, at, iops)
}

fn run_of(
    id: &str,
    study: &str,
    offering: &str,
    per_gb: f64,
    test: &str,
    at: &str,
    iops: f64,
) -> Record {
    let mut r = record(
        id,
        study,
        "Cloud",
        offering,
        Some(per_gb),
        test,
        1,
        &[("read_iops", iops, "IOPS")],
    );
    r.started_at = Some(at.to_string());
    r
}

/// Fast SSD (0.10 per GB): 1,000 IOPS on 2026-01-10, 700 on 2026-06-02
/// (its June runs cross midnight); Base HDD (0.02, the baseline): 500 in
/// June. Fast SSD's qd1 test ran only in January.
fn write_two_dates(dir: &Path, study_jan: &str, study_jun: &str) {
    let records = [
        run(
            "jan1",
            study_jan,
            "Fast SSD",
            0.10,
            "2026-01-10T09:00:00Z",
            990.0,
        ),
        run(
            "jan2",
            study_jan,
            "Fast SSD",
            0.10,
            "2026-01-10T09:10:00Z",
            1000.0,
        ),
        run(
            "jan3",
            study_jan,
            "Fast SSD",
            0.10,
            "2026-01-10T09:20:00Z",
            1010.0,
        ),
        run_of(
            "jan4",
            study_jan,
            "Fast SSD",
            0.10,
            "fio-randread-4k-qd1",
            "2026-01-10T09:30:00Z",
            90.0,
        ),
        run(
            "jun1",
            study_jun,
            "Fast SSD",
            0.10,
            "2026-06-02T23:20:00Z",
            690.0,
        ),
        run(
            "jun2",
            study_jun,
            "Fast SSD",
            0.10,
            "2026-06-02T23:50:00Z",
            700.0,
        ),
        // an hour after the one before, past midnight: the same measurement
        run(
            "jun3",
            study_jun,
            "Fast SSD",
            0.10,
            "2026-06-03T00:50:00Z",
            710.0,
        ),
        run(
            "hdd1",
            study_jun,
            "Base HDD",
            0.02,
            "2026-06-02T22:00:00Z",
            500.0,
        ),
        run(
            "hdd2",
            study_jun,
            "Base HDD",
            0.02,
            "2026-06-02T22:10:00Z",
            500.0,
        ),
    ];
    for r in &records {
        write_record(dir, &format!("{}.json", r.id), r);
    }
}

fn text(site: &BTreeMap<String, Vec<u8>>, path: &str) -> String {
    String::from_utf8(
        site.get(path)
            .unwrap_or_else(|| panic!("no {path}"))
            .clone(),
    )
    .unwrap()
}

/// The one page under `dir` whose path contains `part`.
fn page<'a>(site: &'a BTreeMap<String, Vec<u8>>, dir: &str, part: &str) -> (&'a str, String) {
    let found: Vec<&String> = site
        .keys()
        .filter(|p| p.starts_with(dir) && p.contains(part) && p.ends_with(".html"))
        .collect();
    assert_eq!(found.len(), 1, "{dir} {part}: {found:?}");
    (found[0], text(site, found[0]))
}

/// The rows of the history table of `TEST`'s IOPS, each cell's text.
fn history_rows(html: &str) -> Vec<Vec<String>> {
    let heading = format!("<h3>{TEST}: read IOPS</h3>");
    let after = html
        .find(&heading)
        .unwrap_or_else(|| panic!("no {heading} in {html}"));
    let start = after
        + html[after..]
            .find("<table class=\"oneline history\">")
            .expect("a history table");
    let table = &html[start..start + html[start..].find("</table>").unwrap()];
    table
        .split("<tr>")
        .skip(2)
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|c| {
                    let c = &c[c.find('>').unwrap() + 1..];
                    c[..c.find("</td>").unwrap()].to_string()
                })
                .collect()
        })
        .collect()
}

fn summary_json(site: &BTreeMap<String, Vec<u8>>) -> serde_json::Value {
    serde_json::from_slice(&site["data/summary.json"]).unwrap()
}

fn offering<'a>(j: &'a serde_json::Value, study: &str, name: &str) -> &'a serde_json::Value {
    j["studies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["study"] == study)
        .and_then(|s| {
            s["offerings"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["name"] == name)
        })
        .unwrap_or_else(|| panic!("no {name} in {study}"))
}

#[test]
fn two_dates_give_a_history_and_the_answer_uses_the_newest() {
    let tmp = tempfile::tempdir().unwrap();
    let (records, out) = (tmp.path().join("records"), tmp.path().join("site"));
    write_two_dates(&records, "hist", "hist");
    build(&records, &out);
    let site = tree(&out);

    // the history: both dates (the June runs across midnight are one
    // measurement of 3 runs), both medians and the change
    let (_, html) = page(&site, "offerings/", "fast-ssd");
    assert!(html.contains("<h2 id=\"history\">History</h2>"), "{html}");
    assert_eq!(
        history_rows(&html),
        [
            [
                "2026-01-10",
                "hist",
                "3",
                "1,000 IOPS",
                "990 IOPS to 1,010 IOPS",
                ""
            ],
            [
                "2026-06-02",
                "hist",
                "3",
                "700 IOPS",
                "690 IOPS to 710 IOPS",
                "-30%"
            ],
        ]
    );
    assert!(!html.contains("2026-06-03</td>"));
    assert!(html.contains("use the newest, measured 2026-06-02"));
    assert!(html.contains("history-"), "the chart is on the page");
    // the test measured only in January keeps its run, and says so
    assert!(html.contains("Measured 2026-01-10, an older measurement: no newer one has this test."));
    assert!(html.contains(
        "Measured 2026-06-02; 3 runs of older measurements left out (the history below shows them)."
    ));
    // the older runs in the run list: left out, with the reason
    assert!(html.contains(
        "ok, left out: an older measurement (2026-01-10); the history on the offering page shows it"
    ));
    let chart = site
        .keys()
        .find(|p| p.starts_with("charts/") && p.contains("/history-") && p.ends_with("-0.svg"))
        .expect("a history chart file");
    let svg = text(&site, chart);
    assert!(
        svg.contains(">2026-01-10<") && svg.contains(">2026-06-02<"),
        "{svg}"
    );

    // the study's table counts the runs its answer counts: June's three
    // and January's QD1 run, not January's three of the newer test
    let (_, study) = page(&site, "studies/", "hist");
    let row = study
        .split("<tr")
        .find(|r| r.contains(">Cloud Fast SSD</a></th><td>"))
        .expect("a Fast SSD row in the configurations' table");
    assert!(row.contains("<td class=\"num\">4</td>"), "{row}");

    // the figures are June's: a pooled median would be 850 and its ratio 1.7
    let j = summary_json(&site);
    let fast = offering(&j, "hist", "Cloud Fast SSD");
    assert_eq!(fast["measured"], "2026-06-02");
    assert_eq!(fast["tests"][TEST]["read_iops"]["median"], 700.0);
    assert_eq!(fast["tests"][TEST]["read_iops"]["runs"], 3);
    assert_eq!(
        fast["tests"]["fio-randread-4k-qd1"]["read_iops"]["median"],
        90.0
    );
    // Base HDD, measured once, has no date of measurement
    assert!(offering(&j, "hist", "Cloud Base HDD")
        .get("measured")
        .is_none());
    let value = text(&site, "data/value.csv");
    let header: Vec<&str> = value.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let row: Vec<&str> = value
        .lines()
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|c| c[col("test")] == TEST && c[col("offering")] == "Fast SSD")
        .expect("a value row");
    assert_eq!(row[col("performance_ratio")], "1.400", "{row:?}");
    assert_eq!(row[col("value_ratio")], "0.280", "{row:?}");

    // the study page and its post say when the answer was measured
    let (_, study) = page(&site, "studies/", "hist");
    assert!(
        study.contains(
            "Cloud Fast SSD: measured 2026-06-02, the answer&#39;s figures; measured also on 2026-01-10"
        ),
        "{study}"
    );
    let md = site
        .iter()
        .find(|(p, _)| p.starts_with("data/") && p.ends_with(".md") && p.contains("hist"))
        .map(|(_, b)| String::from_utf8(b.clone()).unwrap())
        .expect("the study's post");
    assert!(md.contains("Cloud Fast SSD: measured 2026-06-02"), "{md}");
    // compact: the first and the latest measurement and the change, the
    // dates in the header where every row shares them
    assert!(
        md.contains("| test | metric | first (2026-01-10) | latest (2026-06-02) | change |"),
        "{md}"
    );
    assert!(
        md.contains("| fio-randread-4k-qd64 | read IOPS | 1,000 IOPS | 700 IOPS | -30% |"),
        "{md}"
    );
    // a test measured once has no history of its own
    assert!(!md.contains("| fio-randread-4k-qd1 |"), "{md}");
    assert!(!html.contains("<h3>fio-randread-4k-qd1: read IOPS</h3>"));

    // a January run's page says why it is left out
    let (_, jan) = page(&site, "runs/", "jan1");
    assert!(jan
        .contains("an older measurement (2026-01-10); the history on the offering page shows it"));
    let (_, jun) = page(&site, "runs/", "jun1");
    assert!(!jun.contains("older measurement"));
}

#[test]
fn the_same_configuration_in_two_studies_is_one_history() {
    let tmp = tempfile::tempdir().unwrap();
    let (records, out) = (tmp.path().join("records"), tmp.path().join("site"));
    write_two_dates(&records, "january", "june");
    build(&records, &out);
    let site = tree(&out);
    for study in ["january", "june"] {
        let (_, html) = page(&site, &format!("offerings/{study}/"), "fast-ssd");
        let rows = history_rows(&html);
        assert_eq!(rows.len(), 2, "{study}: {rows:?}");
        assert_eq!(rows[0][..4], ["2026-01-10", "january", "3", "1,000 IOPS"]);
        assert_eq!(rows[1][..4], ["2026-06-02", "june", "3", "700 IOPS"]);
        assert_eq!(rows[1][5], "-30%");
    }
    // each study's answer is its own measurement: nothing left out
    let j = summary_json(&site);
    assert_eq!(
        offering(&j, "january", "Cloud Fast SSD")["tests"][TEST]["read_iops"]["median"],
        1000.0
    );
    assert_eq!(
        offering(&j, "june", "Cloud Fast SSD")["tests"][TEST]["read_iops"]["median"],
        700.0
    );
    assert_eq!(
        offering(&j, "june", "Cloud Fast SSD")["measured"],
        "2026-06-02"
    );
    assert_eq!(
        offering(&j, "january", "Cloud Fast SSD")["measured"],
        "2026-01-10"
    );
}

#[test]
fn a_configuration_measured_once_has_no_history() {
    let tmp = tempfile::tempdir().unwrap();
    let (records, out) = (tmp.path().join("records"), tmp.path().join("site"));
    for (i, iops) in [990.0, 1000.0].into_iter().enumerate() {
        let r = run(
            &format!("r{i}"),
            "once",
            "Fast SSD",
            0.10,
            &format!("2026-01-10T09:0{i}:00Z"),
            iops,
        );
        write_record(&records, &format!("r{i}.json"), &r);
    }
    build(&records, &out);
    let site = tree(&out);
    let (_, html) = page(&site, "offerings/", "fast-ssd");
    assert!(!html.contains("id=\"history\""));
    assert!(!html.contains("left out"));
    assert!(!site.keys().any(|p| p.contains("/history-")));
}

#[test]
fn the_30_percent_drop_between_the_two_dates_fails_compare_and_an_unchanged_set_passes() {
    let dir = tempfile::tempdir().unwrap();
    let all = dir.path().join("all");
    write_two_dates(&all, "cloud", "cloud");
    // the January measurement alone, as a publisher kept it
    let january = dir.path().join("january");
    std::fs::create_dir_all(&january).unwrap();
    for e in std::fs::read_dir(&all).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if name.starts_with("jan") {
            std::fs::copy(&p, january.join(name)).unwrap();
        }
    }
    // the directory holding both dates answers with June's: 700 / 1,000
    let (code, _, stderr) = crate::cli_compare::compare(&[&january, &all]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "regressed: Cloud Fast SSD · 100 GB, {TEST}, read_iops: 0.70x (0.68x to 0.72x), below the threshold of 0.90x"
        )),
        "{stderr}"
    );
    // the qd1 test, measured in January only, is the same runs on both sides
    assert!(!stderr.contains("fio-randread-4k-qd1,"), "{stderr}");
    // an unchanged set passes
    let (code, _, stderr) = crate::cli_compare::compare(&[&all, &all]);
    assert_eq!(code, 0, "{stderr}");
}

/// fio JSON `a-randread-4k-qd64.json` (45,207 IOPS) re-dated two months
/// earlier, and `b-randread-4k-qd64.json` (54,999 IOPS) as fio wrote it on
/// 2026-12-01, imported as one configuration: the dates come from the
/// files' `timestamp`.
#[test]
fn imported_fio_json_of_two_months_gives_a_history_and_the_answer_uses_the_newest() {
    let tmp = tempfile::tempdir().unwrap();
    let (logs, records, out) = (
        tmp.path().join("logs"),
        tmp.path().join("records"),
        tmp.path().join("site"),
    );
    std::fs::create_dir_all(&logs).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fio-qd");
    let october = std::fs::read_to_string(fixtures.join("a-randread-4k-qd64.json"))
        .unwrap()
        .replace("\"timestamp\" : 1796116517,", "\"timestamp\" : 1790846117,")
        .replace(
            "\"timestamp_ms\" : 1796116517417,",
            "\"timestamp_ms\" : 1790846117417,",
        )
        .replace("Tue Dec  1 09:15:17 2026", "Thu Oct  1 09:15:17 2026");
    assert!(october.contains("1790846117,") && october.contains("Thu Oct  1"));
    std::fs::write(logs.join("october.json"), october).unwrap();
    std::fs::copy(
        fixtures.join("b-randread-4k-qd64.json"),
        logs.join("december.json"),
    )
    .unwrap();
    assert_cmd::Command::cargo_bin("diskdash")
        .unwrap()
        .args(["import", "--study", "hist", "--provider", "Cloud"])
        .args(["--offering", "Fast SSD", "--price-per-gb-month", "0.10"])
        .arg("--out")
        .arg(&records)
        .arg(&logs)
        .assert()
        .code(0);
    build(&records, &out);
    let site = tree(&out);

    // the answer is December's run alone: pooled, it would be 2 runs and
    // a median of 50,103 IOPS
    let j = summary_json(&site);
    let fast = offering(&j, "hist", "Cloud Fast SSD");
    assert_eq!(fast["measured"], "2026-12-01");
    assert_eq!(fast["tests"][TEST]["read_iops"]["runs"], 1);
    let median = fast["tests"][TEST]["read_iops"]["median"].as_f64().unwrap();
    assert!((median - 54999.0005).abs() < 0.01, "{median}");

    // October is its history, and its run is left out saying why
    let (_, html) = page(&site, "offerings/", "fast-ssd");
    let rows = history_rows(&html);
    assert_eq!(rows.len(), 2, "{rows:?}");
    // medians at four significant digits: 45,206.9 and 54,999.0 IOPS
    assert_eq!(rows[0][..4], ["2026-10-01", "hist", "1", "45,210 IOPS"]);
    assert_eq!(rows[1][..4], ["2026-12-01", "hist", "1", "55,000 IOPS"]);
    assert_eq!(rows[1][5], "+22%");
    assert!(html.contains(
        "ok, left out: an older measurement (2026-10-01); the history on the offering page shows it"
    ));
    assert!(html.contains("use the newest, measured 2026-12-01"));
}
