//! Page weight for a study of 50 configurations that ran the whole standard
//! suite: `index.html` under 150 KB, `value.html` under 300 KB and the study
//! page with its inline chart under 500 KB.

use crate::report_common;

use diskdash::ingest::Found;
use diskdash::report::pages::runlist::RUNS_SHOWN;
use diskdash::report::pages::study::MATRIX_ROWS_SHOWN;
use diskdash::report::pages::test::{INLINE_BARS_MAX, INLINE_CHARTS_MAX};
use diskdash::report::pages::value::TABLE_ROWS_SHOWN;
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
                found.push(Found::new(format!("{o}-{test}-{rep}.json").into(), None, r));
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
    assert_eq!(matrix_rows(&text), 50);
    // 50 configurations: test pages draw their charts inline
    let test = String::from_utf8_lossy(&site.files["tests/big-study/fio-randread-4k-qd64.html"]);
    assert!(test.contains("<svg") && !test.contains("<picture><source"));
    assert_eq!(
        site.files.keys().filter(|k| k.starts_with("runs/")).count(),
        1800
    );
}

#[test]
fn an_offering_with_thousands_of_runs_lists_them_on_bounded_pages() {
    // one configuration, one test, two and a half times the runs one page
    // lists (2,500 of 1,000): the offering page and the test page link to
    // three run lists (1,000 + 1,000 + 500) instead of listing every run
    let (per_page, n) = (RUNS_SHOWN, RUNS_SHOWN * 5 / 2);
    let found: Vec<Found> = (1..=n as u32)
        .map(|rep| {
            Found::new(
                format!("{rep}.json").into(),
                None,
                record(
                    &format!("many.r{rep:05}"),
                    "many",
                    "Provider",
                    "Volume",
                    Some(0.1),
                    "ioping-seek",
                    rep,
                    &[("iops", 1000.0 + f64::from(rep % 50), "IOPS")],
                ),
            )
        })
        .collect();
    let site = build_site(&found, &[], &Options::default()).unwrap();
    let text = |p: &str| String::from_utf8_lossy(&site.files[p]).to_string();
    let offering = text("offerings/many/provider-volume.html");
    let test = text("tests/many/ioping-seek.html");
    for (name, page) in [("offering", &offering), ("test", &test)] {
        // no run is listed on the page itself
        assert_eq!(page.matches("runs/many.r").count(), 0, "{name} page");
        for n in [
            "ioping-seek.html",
            "ioping-seek-2.html",
            "ioping-seek-3.html",
        ] {
            assert!(
                page.contains(&format!("offerings/many/provider-volume/{n}\"")),
                "{name} page lacks a link to {n}"
            );
        }
        assert!(
            page.contains(&format!(">{n}<")),
            "{name} page lacks the run count"
        );
        assert!(
            page.len() < 100 * 1024,
            "{name} page is {} bytes",
            page.len()
        );
    }
    // every run on exactly one list page, in repetition order
    let lists: Vec<String> = ["", "-2", "-3"]
        .iter()
        .map(|n| {
            text(&format!(
                "offerings/many/provider-volume/ioping-seek{n}.html"
            ))
        })
        .collect();
    let counts: Vec<usize> = lists
        .iter()
        .map(|l| l.matches("href=\"../../../runs/many.r").count())
        .collect();
    assert_eq!(counts, [per_page, per_page, n - 2 * per_page]);
    assert!(lists[0].contains(&format!("runs 1 to {per_page} of {n}")));
    assert!(lists[2].contains(&format!("runs {} to {n} of {n}", 2 * per_page + 1)));
    assert!(
        lists[1].contains(&format!("runs/many.r{:05}.html", per_page + 1))
            && lists[1].contains(&format!("runs/many.r{:05}.html", 2 * per_page))
    );
    assert!(!site
        .files
        .contains_key("offerings/many/provider-volume/ioping-seek-4.html"));
    // and no page of the site is near 2 MB
    let (largest, bytes) = site
        .files
        .iter()
        .filter(|(k, _)| k.ends_with(".html"))
        .map(|(k, v)| (k, v.len()))
        .max_by_key(|(_, n)| *n)
        .unwrap();
    assert!(bytes < 2 << 20, "{largest} is {bytes} bytes");
}

#[test]
fn a_test_with_more_runs_than_a_page_lists_over_configurations_of_fewer_lists_them_by_configuration(
) {
    // one test, more runs than a page lists (1,200 of 1,000) over three
    // configurations of fewer (400): each offering page lists its own runs,
    // the test page links to a run list per configuration, and the other
    // test (60 runs) has no run lists
    let per = RUNS_SHOWN * 2 / 5;
    let mut found: Vec<Found> = Vec::new();
    for (c, volume) in ["A", "B", "C"].iter().enumerate() {
        for rep in 1..=per as u32 {
            found.push(Found::new(
                format!("{volume}{rep}.json").into(),
                None,
                record(
                    &format!("wide.{volume}{rep:04}"),
                    "wide",
                    "Provider",
                    volume,
                    Some(0.1),
                    "ioping-seek",
                    rep,
                    &[("iops", 1000.0 + (c as f64) + f64::from(rep % 7), "IOPS")],
                ),
            ));
        }
        for rep in 1..=20u32 {
            found.push(Found::new(
                format!("{volume}s{rep}.json").into(),
                None,
                record(
                    &format!("wide.{volume}s{rep:04}"),
                    "wide",
                    "Provider",
                    volume,
                    Some(0.1),
                    "ioping-seq",
                    rep,
                    &[("iops", 500.0 + f64::from(rep), "IOPS")],
                ),
            ));
        }
    }
    let site = build_site(&found, &[], &Options::default()).unwrap();
    let text = |p: &str| String::from_utf8_lossy(&site.files[p]).to_string();
    let test = text("tests/wide/ioping-seek.html");
    assert_eq!(
        test.matches("runs/wide.").count(),
        0,
        "the test page lists no run"
    );
    for volume in ["a", "b", "c"] {
        let list = format!("offerings/wide/provider-{volume}/ioping-seek.html");
        assert!(test.contains(&format!("{list}\"")), "no link to {list}");
        let listed = text(&list);
        assert_eq!(
            listed.matches("href=\"../../../runs/wide.").count(),
            per,
            "{list}"
        );
        // the offering page is under the limit and lists its own runs
        let offering = text(&format!("offerings/wide/provider-{volume}.html"));
        assert!(
            offering.matches("runs/wide.").count() >= per + 20,
            "{volume}"
        );
    }
    let lists: Vec<&String> = site
        .files
        .keys()
        .filter(|k| k.starts_with("offerings/wide/provider-") && k.matches('/').count() == 3)
        .collect();
    assert_eq!(lists.len(), 3, "{lists:?}");
}

#[test]
fn value_tables_and_the_matrix_of_many_configurations_show_their_first_rows_and_say_where_the_rest_are(
) {
    // more configurations of one test (120) than a value table (50), the
    // study's matrix (100) or inline charts (100) show: value.html shows
    // the 50 cheapest and links to a page of all 120, whose links lead to
    // real pages
    let n = TABLE_ROWS_SHOWN
        .max(MATRIX_ROWS_SHOWN)
        .max(INLINE_CHARTS_MAX)
        + 20;
    let (rows, matrix) = (TABLE_ROWS_SHOWN, MATRIX_ROWS_SHOWN);
    let volume = |o: usize| format!("Volume {o:03}<");
    let found: Vec<Found> = (0..n as u32)
        .map(|o| {
            Found::new(
                format!("{o}.json").into(),
                None,
                record(
                    &format!("wide.o{o:03}.r1"),
                    "wide",
                    "Provider",
                    &format!("Volume {o:03}"),
                    Some(0.05 + f64::from(o) * 0.001),
                    "fio-randread-4k-qd64",
                    1,
                    &[("read_iops", 1000.0 + f64::from(o) * 7.0, "IOPS")],
                ),
            )
        })
        .collect();
    let site = build_site(&found, &[], &Options::default()).unwrap();
    let text = |p: &str| String::from_utf8_lossy(&site.files[p]).to_string();
    let value = text("value.html");
    let rows_of = |page: &str| page.matches("<tr class=").count();
    assert_eq!(rows_of(&value), rows);
    assert!(value.contains(&volume(rows - 1)) && !value.contains(&volume(rows)));
    assert!(value.contains(&format!(
        "<p>{} more configurations: <a href=\"value/wide/fio-randread-4k-qd64--read-iops.html\">the whole table</a>.</p>",
        n - rows
    )));
    let whole = text("value/wide/fio-randread-4k-qd64--read-iops.html");
    assert_eq!(rows_of(&whole), n);
    assert!(whole.contains(&volume(n - 1)));
    for href in whole
        .split("href=\"../../")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .filter(|h| h.ends_with(".html"))
    {
        let target = href.split('#').next().unwrap_or(href);
        assert!(site.files.contains_key(target), "broken link {href}");
    }
    // the study's value matrix shows the first 100 and says where the rest are
    let study = text("studies/wide.html");
    assert_eq!(matrix_rows(&study), matrix);
    assert!(
        study.contains(&volume(matrix - 1))
            && study.contains(&format!(
                "<p>{} more configurations follow in cost order: ",
                n - matrix
            ))
    );
    // its configurations table still lists every one
    assert!(study.contains(&format!(">Provider {}/a>", volume(n - 1))));
    // past 100 configurations the test page shows its charts as images
    let test = text("tests/wide/fio-randread-4k-qd64.html");
    assert!(!test.contains("<svg"));
    assert!(test.contains("<img src=\"../../charts/wide/fio-randread-4k-qd64/read-iops.svg\""));
    assert!(site
        .files
        .contains_key("charts/wide/fio-randread-4k-qd64/read-iops.svg"));
    // and each metric's table there shows the first 50 and links to all 120
    let stat_rows = |page: &str| page.matches("<tr><td><a href=").count();
    let section = test
        .split("<section id=\"metric-read-iops\">")
        .nth(1)
        .and_then(|s| s.split("</section>").next())
        .expect("a read IOPS section");
    assert_eq!(stat_rows(section), rows);
    assert!(section.contains(&format!(
        "<p>{} more configurations: <a href=\"../../tests/wide/fio-randread-4k-qd64/read-iops.html\">the whole table</a>.</p>",
        n - rows
    )));
    let whole = text("tests/wide/fio-randread-4k-qd64/read-iops.html");
    assert_eq!(stat_rows(&whole), n);
    assert!(whole.contains(&format!(">Provider {}/a>", volume(n - 1))) && !whole.contains("<svg"));
    assert!(
        whole.contains("href=\"../../../tests/wide/fio-randread-4k-qd64.html#metric-read-iops\"")
    );
    for href in whole
        .split("href=\"../../../")
        .skip(1)
        .filter_map(|s| s.split('"').next())
    {
        let target = href.split('#').next().unwrap_or(href);
        assert!(site.files.contains_key(target), "broken link {href}");
    }
    // a table of at most 50 rows has no page of its own
    assert!(!site
        .files
        .keys()
        .any(|k| k.starts_with("value/") && !k.starts_with("value/wide/")));
}

#[test]
fn a_test_page_draws_its_charts_inline_up_to_its_bar_limit_then_from_files() {
    // 50 configurations: as many metrics as the page draws bars inline
    // (twelve, 600 bars) inline, one more from files
    let inline = INLINE_BARS_MAX / 50;
    assert!(inline >= 1, "no chart of 50 bars is ever inline");
    let page = |metrics: usize| {
        let names: Vec<String> = (0..metrics).map(|m| format!("extra_{m:02}")).collect();
        let found: Vec<Found> = (0..50u32)
            .map(|o| {
                Found::new(
                    format!("{o}.json").into(),
                    None,
                    record(
                        &format!("bars.o{o:03}.r1"),
                        "bars",
                        "Provider",
                        &format!("Volume {o:03}"),
                        Some(0.05 + f64::from(o) * 0.001),
                        "fio-randread-4k-qd64",
                        1,
                        &names
                            .iter()
                            .map(|n| (n.as_str(), 1000.0 + f64::from(o), "IOPS"))
                            .collect::<Vec<_>>(),
                    ),
                )
            })
            .collect();
        let site = build_site(&found, &[], &Options::default()).unwrap();
        String::from_utf8_lossy(&site.files["tests/bars/fio-randread-4k-qd64.html"]).to_string()
    };
    let within = page(inline);
    // each chart inline once, its narrow variant an image for phones
    assert_eq!(within.matches("<svg").count(), inline, "inline once");
    assert_eq!(
        within.matches("<picture class=\"dd-narrow\">").count(),
        inline
    );
    assert_eq!(within.matches("<img src=").count(), inline);
    let past = page(inline + 1);
    assert!(!past.contains("<svg") && !past.contains("dd-narrow"));
    assert_eq!(past.matches("<img src=").count(), inline + 1);
}

/// The rows of a study page's value matrix (the configurations table below
/// it has a row header per configuration too).
fn matrix_rows(study: &str) -> usize {
    let start = study
        .find("<table class=\"value-matrix")
        .expect("a value matrix");
    let end = start + study[start..].find("</table>").unwrap();
    study[start..end].matches("<th scope=\"row\">").count()
}
