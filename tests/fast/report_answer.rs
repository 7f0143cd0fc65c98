//! The answer of a study where some volumes burst: what lasts decides every
//! verdict, the headline names both sides of its ratios and leads with the
//! sustained level, and the post is a table a blog can take.

use crate::report_common;

use std::path::Path;

use diskdash::record::{Price, Record};
use report_common::*;

const STUDY: &str = TIMELINE_STUDY;
const SHORT: &str = "fio-randread-4k-qd64";

fn priced(mut r: Record, per_gb: f64, currency: &str) -> Record {
    r.subject.price = Some(Price {
        per_gb_month: per_gb,
        currency: currency.to_string(),
        note: None,
    });
    r
}

/// A 1 GiB random-read record (no timeline) of `offering` at `iops`.
fn short(id: &str, offering: &str, per_gb: f64, iops: f64) -> Record {
    priced(
        record(
            id,
            STUDY,
            "Cloud",
            offering,
            Some(per_gb),
            SHORT,
            1,
            &[
                ("read_iops", iops, "IOPS"),
                ("read_clat_p99", 32.0 / iops, "s"),
            ],
        ),
        per_gb,
        "USD",
    )
}

/// A sustained record of `offering` whose timeline is `tl`.
fn sustained(id: &str, offering: &str, per_gb: f64, tl: diskdash::record::Timeline) -> Record {
    priced(timeline_record(id, "Cloud", offering, tl), per_gb, "USD")
}

/// hdd: flat 500 IOPS, the cheapest (0.025 per GB); gp2: 3,000 IOPS for
/// 200 s then 300 (0.10), whose short test ran on its burst at 20,000;
/// gp3: flat 3,000 (0.08); nosus: no sustained test (0.05).
fn write_bursting_study(dir: &Path) {
    let records = [
        sustained("s.hdd", "hdd", 0.025, timeline(500.0, 600, 500.0)),
        sustained("s.gp2", "gp2", 0.10, timeline(3000.0, 200, 300.0)),
        sustained("s.gp3", "gp3", 0.08, timeline(3000.0, 600, 3000.0)),
        short("r.hdd", "hdd", 0.025, 550.0),
        short("r.gp2", "gp2", 0.10, 20000.0),
        short("r.gp3", "gp3", 0.08, 3000.0),
        short("r.nosus", "nosus", 0.05, 1000.0),
    ];
    for r in &records {
        write_record(dir, &format!("{}.json", r.id), r);
    }
}

fn build_study(extra: &[&str]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    write_bursting_study(&records);
    let site = dir.path().join("site");
    let mut args: Vec<&std::ffi::OsStr> =
        vec![records.as_os_str(), "--out".as_ref(), site.as_os_str()];
    args.extend(extra.iter().map(|a| std::ffi::OsStr::new(*a)));
    let (ok, _, stderr) = report(&args);
    assert!(ok, "report failed: {stderr}");
    (dir, site)
}

fn read(site: &Path, rel: &str) -> String {
    std::fs::read_to_string(site.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `data/value.csv` rows of `test` and `metric`: offering to verdict.
fn verdicts(site: &Path, test: &str, metric: &str) -> Vec<(String, String)> {
    let text = read(site, "data/value.csv");
    let mut rd = csv::Reader::from_reader(text.as_bytes());
    let headers = rd.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (t, m, o, v) = (col("test"), col("metric"), col("offering"), col("verdict"));
    rd.records()
        .map(|r| r.unwrap())
        .filter(|r| &r[t] == test && &r[m] == metric)
        .map(|r| (r[o].to_string(), r[v].to_string()))
        .collect()
}

#[test]
fn short_tests_of_a_bursting_volume_get_no_plain_verdict_anywhere() {
    let (_dir, site) = build_study(&[]);
    let short = verdicts(&site, SHORT, "read_iops");
    let of = |o: &str| {
        short
            .iter()
            .find(|(n, _)| n == o)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no row for {o} in {short:?}"))
    };
    // gp2 ran its short test on its burst: 20,000 / 550 for 4x the price
    // would be "worth it"; it is not judged on it
    assert_eq!(of("gp2"), "while bursting");
    // gp3 is flat: its short test measured what lasts
    assert_eq!(of("gp3"), "worth it, single run");
    // nosus has no sustained test, in a study where gp2 bursts
    assert_eq!(
        of("nosus"),
        "nearly worth it, single run, burst not measured"
    );
    assert_eq!(of("hdd"), "baseline");
    // the sustained table judges gp2 on its 300 IOPS: 0.6x for 4x the cost
    let sus = verdicts(&site, TIMELINE_TEST, "read_iops_sustained");
    assert!(
        sus.iter().any(|(o, v)| o == "gp2" && v.starts_with("no")),
        "{sus:?}"
    );

    let json: serde_json::Value = serde_json::from_str(&read(&site, "data/summary.json")).unwrap();
    let row = json["studies"][0]["value"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["test"] == SHORT && v["metric"] == "read_iops" && v["offering"] == "Cloud gp2")
        .unwrap_or_else(|| panic!("{}", json["studies"][0]["value"]))
        .clone();
    assert_eq!(row["verdict"], serde_json::Value::Null);
    assert_eq!(row["measured"], "while bursting");

    // the study page's matrix says so in gp2's cell, with no verdict word
    let page = read(&site, &format!("studies/{STUDY}.html"));
    assert!(page.contains("while-bursting"), "no while-bursting cell");
    // and its cost-against-performance chart draws gp2's burst as one
    let chart = read(&site, &format!("charts/{STUDY}/random-i-o.svg"));
    assert!(chart.contains(">gp2 (while bursting)<"), "{chart}");
    assert!(!chart.contains("gp3 (while bursting)"), "{chart}");
}

#[test]
fn the_headline_leads_with_what_lasts_and_names_both_sides() {
    let (_dir, site) = build_study(&[]);
    let json: serde_json::Value = serde_json::from_str(&read(&site, "data/summary.json")).unwrap();
    let headline: Vec<String> = json["studies"][0]["headline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    assert!(headline.len() >= 2, "{headline:?}");
    let first = &headline[0];
    // the sustained level first, its test in words; nosus, which ran no
    // sustained test, named with why
    assert!(
        first.starts_with(
            "Sustained (4 KiB random reads at queue depth 32, fio-sustained-randread-4k-qd32): "
        ),
        "{first}"
    );
    assert!(
        first.ends_with(
            "; 1 more not judged: Cloud nosus (no fio-sustained-randread-4k-qd32 result)."
        ),
        "{first}"
    );
    // gp2 is the dearest: 0.10 / 0.025 = 4x the monthly cost of hdd, for
    // 300 / 500 = 0.60x its sustained IOPS
    assert!(
        first.contains("the dearest, Cloud gp2, costs 4.0x the monthly cost of Cloud hdd for 0.60x its sustained read IOPS (no"),
        "{first}"
    );
    assert!(
        first.contains("1 of the 2 configurations dearer than Cloud hdd is worth it (Cloud gp3)"),
        "{first}"
    );
    let random = headline
        .iter()
        .find(|s| s.starts_with("Random I/O"))
        .expect("a random I/O sentence");
    assert!(random.contains("4 KiB random read IOPS"), "{random}");
    assert!(
        random.contains("Cloud gp2 measured while bursting"),
        "{random}"
    );
    // the most for the money on random I/O is gp3 (3,000 / 550 for 3.2x),
    // not gp2's burst (20,000 / 550 for 4x)
    let money = headline.last().unwrap();
    assert!(
        money.contains("4 KiB random read IOPS, Cloud gp3"),
        "{money}"
    );
    // the index tells the same answer
    let index = read(&site, "index.html");
    assert!(index.contains("the dearest, Cloud gp2, costs 4.0x the monthly cost of Cloud hdd"));
}

#[test]
fn a_study_where_nothing_bursts_keeps_plain_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    for r in [
        sustained("s.hdd", "hdd", 0.025, timeline(500.0, 600, 500.0)),
        sustained("s.gp3", "gp3", 0.08, timeline(3000.0, 600, 3000.0)),
        short("r.hdd", "hdd", 0.025, 550.0),
        short("r.gp3", "gp3", 0.08, 3000.0),
        short("r.nosus", "nosus", 0.05, 1000.0),
    ] {
        write_record(&records, &format!("{}.json", r.id), &r);
    }
    let site = dir.path().join("site");
    build(&records, &site);
    let short = verdicts(&site, SHORT, "read_iops");
    // 1,000 / 550 = 1.82x for 2x the price: 0.91
    assert!(
        short
            .iter()
            .any(|(o, v)| o == "nosus" && v == "nearly worth it, single run"),
        "{short:?}"
    );
}

#[test]
fn the_post_is_one_narrow_table_with_charts_for_light_and_dark() {
    let (_dir, site) = build_study(&["--base-url", "https://example.org/results/"]);
    let md = read(&site, &format!("data/{STUDY}.md"));
    let table: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
    let header = table.first().expect("a table");
    let columns: Vec<&str> = header.trim_matches('|').split('|').map(str::trim).collect();
    assert!(columns.len() <= 10, "{header}");
    assert_eq!(&columns[..2], &["configuration", "monthly cost"]);
    let mut unique = columns.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), columns.len(), "repeated header: {header}");
    // the first table is the post's; its gp2 row says while bursting
    let gp2 = md
        .lines()
        .find(|l| l.starts_with("| Cloud gp2 |"))
        .unwrap_or_else(|| panic!("no gp2 row:\n{md}"));
    assert!(gp2.contains("while bursting"), "{gp2}");
    // nosus has no sustained test: its sustained cell says the burst was
    // not measured, once, and its short test's verdict stands without it
    let nosus = md
        .lines()
        .find(|l| l.starts_with("| Cloud nosus |"))
        .unwrap_or_else(|| panic!("no nosus row:\n{md}"));
    assert!(
        nosus.contains("| not tested: burst not measured |"),
        "{nosus}"
    );
    assert!(nosus.contains("· nearly worth it, single run |"), "{nosus}");
    assert_eq!(nosus.matches("burst not measured").count(), 1, "{nosus}");
    assert!(
        md.contains("srcset=\"https://example.org/results/charts/"),
        "{md}"
    );
    assert!(md.contains("-dark.svg\">"), "{md}");
    assert!(md.contains("<img src=\"https://example.org/results/charts/"));
}

#[test]
fn a_base_url_that_is_not_a_url_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    write_bursting_study(&records);
    let site = dir.path().join("site");
    let (ok, _, stderr) = report(&[
        records.as_os_str(),
        "--out".as_ref(),
        site.as_os_str(),
        "--base-url".as_ref(),
        "example.org".as_ref(),
    ]);
    assert!(!ok);
    assert!(stderr.contains("--base-url `example.org`"), "{stderr}");
}
