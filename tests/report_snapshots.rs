//! Snapshots of the pages, charts and data files built from
//! `sample-results/`: any change to what readers see shows up as a diff.
//! Update with `INSTA_UPDATE=always cargo test --test report_snapshots`
//! (or `cargo insta review`) after checking the change is wanted.

mod report_common;

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
        "value.html",
        "tests/rackspace-2013/bonnie.html",
        "tests/linode-2017/fio-randread-4k-qd64.html",
        "offerings/rackspace-2013/rackspace-cloud-block-storage-high-performance-ssd.html",
        "runs/rackspace-2013.cloud-block-storage-high-performance-ssd.bonnie.html",
        "data/value.csv",
        "data/summary.csv",
        "data/summary.md",
        "data/summary.json",
    ] {
        let name = path.replace(['/', '.'], "_");
        insta::assert_snapshot!(name, text(&site, path));
    }
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
        "charts/linode-2017/fio-randread-4k-qd64/latency-read.svg",
    ] {
        if let Some(bytes) = site.files.get(path) {
            let name = path.replace(['/', '.'], "_");
            insta::assert_snapshot!(name, String::from_utf8(bytes.clone()).unwrap());
        }
    }
}
