//! Snapshots of the pages, charts and data files built from
//! `sample-results/`: any change to what readers see shows up as a diff.
//! Update with `INSTA_UPDATE=always cargo test --test fast report_snapshots`
//! (or `cargo insta review`) after checking the change is wanted.

use crate::report_common;

use diskdash::report::{build_site, Options};

fn site() -> diskdash::report::site::Site {
    let loaded = diskdash::ingest::load(&[report_common::sample_results()]).unwrap();
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    let opts = Options {
        title: "Storage benchmark results".to_string(),
        ..Options::default()
    };
    build_site(&loaded.records, &loaded.problems, &opts).unwrap()
}

fn text(site: &diskdash::report::site::Site, path: &str) -> String {
    let bytes = site
        .files
        .get(path)
        .unwrap_or_else(|| panic!("site has no {path}"));
    String::from_utf8(bytes.clone()).unwrap()
}

#[test]
fn pages_and_data() {
    let site = site();
    for path in [
        "index.html",
        "studies/rackspace-2013.html",
        "value.html",
        "tests/rackspace-2013/bonnie.html",
        "tests/linode-2017/fio-randread-4k-qd64.html",
        "offerings/rackspace-2013/rackspace-cloud-block-storage-high-performance-ssd.html",
        "runs/rackspace-2013.cloud-block-storage-high-performance-ssd.bonnie.html",
        "data/rackspace-2013.md",
        "data/value.csv",
        "data/summary.csv",
        "data/summary.md",
        "data/summary.json",
    ] {
        let name = path.replace(['/', '.'], "_");
        insta::assert_snapshot!(name, text(&site, path));
    }
}

/// `data/<study>.md` is for pasting into a post: rendered by a CommonMark
/// renderer (with tables, as GitHub renders them) it gives the summary, one
/// table with a row per configuration and the chart.
#[test]
fn study_markdown_renders_as_a_post() {
    use pulldown_cmark::{html, Options as Md, Parser};
    let site = site();
    let md = text(&site, "data/rackspace-2013.md");
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(&md, Md::ENABLE_TABLES));
    assert_eq!(out.matches("<table>").count(), 1, "{out}");
    // header and three configurations
    assert_eq!(out.matches("<tr>").count(), 4, "{out}");
    assert!(out.contains("<td>Rackspace Cloud Block Storage High-Performance (SSD)</td>"));
    assert!(
        out.contains("<td>1,969 · 4.2x · nearly worth it, single run</td>"),
        "{out}"
    );
    assert!(out.contains("<img src=\"../charts/rackspace-2013/overview.svg\""));
    // the dark chart for a dark blog, through <picture>
    assert!(out.contains("srcset=\"../charts/rackspace-2013/overview-dark.svg\""));
    // and the narrow drawing for a phone
    assert!(out.contains("<source media=\"(max-width: 600px)\" srcset=\"../charts/rackspace-2013/overview-narrow.svg\">"));
    // every chart it links exists in the site
    for link in out
        .split("src=\"")
        .skip(1)
        .chain(out.split("srcset=\"").skip(1))
    {
        let path = link.split('"').next().unwrap();
        let in_site = path.strip_prefix("../").unwrap();
        assert!(site.files.contains_key(in_site), "{path}");
    }
    insta::assert_snapshot!("rackspace_md_rendered", out);
}

#[test]
fn charts() {
    let site = site();
    let charts: Vec<&String> = site.files.keys().filter(|k| k.ends_with(".svg")).collect();
    // the list of standalone charts, then a few of them whole
    let list = charts
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("chart_files", list);
    for path in [
        "charts/rackspace-2013/overview.svg",
        "charts/rackspace-2013/bonnie/random-seeks.svg",
    ] {
        let name = path.replace(['/', '.'], "_");
        insta::assert_snapshot!(name, text(&site, path));
    }
}

/// sample-results has no fio percentiles (the posts printed none), so the
/// percentile chart and its test page are pinned on two offerings built here.
#[test]
fn fio_latency_percentiles() {
    let mut found = Vec::new();
    for (o, scale) in [("fast", 1.0), ("slow", 4.0)] {
        for rep in 1..=2u32 {
            let r = report_common::record(
                &format!("pct.{o}.r{rep}"),
                "pct",
                "P",
                o,
                Some(0.1 * scale),
                "fio-randread-4k-qd64",
                rep,
                &[
                    ("read_iops", 20000.0 / scale + rep as f64, "IOPS"),
                    ("read_clat_p50", 1e-4 * scale, "s"),
                    ("read_clat_p99", 1e-3 * scale, "s"),
                    ("read_clat_p99_9", 5e-3 * scale * rep as f64, "s"),
                ],
            );
            found.push(diskdash::ingest::Found::new(
                format!("{o}{rep}.json").into(),
                None,
                r,
            ));
        }
    }
    let site = build_site(&found, &[], &Options::default()).unwrap();
    let chart = text(&site, "charts/pct/fio-randread-4k-qd64/latency-read.svg");
    insta::assert_snapshot!("percentile_chart", chart);
    let page = text(&site, "tests/pct/fio-randread-4k-qd64.html");
    assert!(page.contains("Latency percentiles"));
    // p99.9 of "slow": median of 0.02 s and 0.04 s, shown in ms
    assert!(page.contains("30.0 ms"), "p99.9 median row");
}
