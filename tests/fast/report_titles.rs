//! Charts a reader can tell apart: on every page of the as-typed study's
//! site (plain gp3 on four machines, measured again later, quick and
//! standard suites), no two charts share a title, whether drawn into the
//! page or shown from their file through `<img>`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::report_common::{self, unescape};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/as-typed")
}

/// The first `<title>` of `svg`, the chart's own.
fn svg_title(svg: &str) -> Option<String> {
    let open = svg.find("<title")?;
    let start = open + svg[open..].find('>')? + 1;
    let end = start + svg[start..].find("</title>")?;
    Some(unescape(&svg[start..end]))
}

/// The title of every chart on the page at `rel` under `root`: each inline
/// chart once (its wide drawing; the narrow one shown in its place on a
/// phone repeats it), and each standalone chart the page shows through
/// `<img>`.
fn chart_titles(root: &Path, rel: &str) -> Vec<String> {
    let html = std::fs::read_to_string(root.join(rel)).unwrap();
    let mut titles = Vec::new();
    for (at, _) in html.match_indices("<svg ") {
        let tag = &html[at..at + html[at..].find('>').unwrap()];
        if tag.contains("dd-chart dd-wide") {
            titles.push(svg_title(&html[at..]).unwrap_or_else(|| panic!("{rel}: untitled chart")));
        }
    }
    let dir = root.join(rel).parent().unwrap().to_path_buf();
    for (at, _) in html.match_indices("<img src=\"") {
        let src = &html[at + 10..];
        let src = unescape(&src[..src.find('"').unwrap()]);
        // the narrow drawing of a chart inlined wide in the same figure is
        // that chart, shown on a phone instead of it
        let picture = html[..at].rfind("<figure").map_or("", |f| &html[f..at]);
        if src.ends_with("-narrow.svg") && picture.contains("dd-chart dd-wide") {
            continue;
        }
        if src.ends_with(".svg") {
            let svg = std::fs::read_to_string(dir.join(&src)).unwrap();
            titles.push(svg_title(&svg).unwrap_or_else(|| panic!("{rel}: {src} untitled")));
        }
    }
    titles
}

#[test]
fn no_chart_title_repeats_on_a_page_of_the_as_typed_site() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    let f = fixture();
    let (records, prices, rates) = (f.join("records"), f.join("prices.csv"), f.join("rates.csv"));
    let (ok, _, stderr) = report_common::report(&[
        records.as_os_str(),
        "--out".as_ref(),
        root.as_os_str(),
        "--prices".as_ref(),
        prices.as_os_str(),
        "--rates".as_ref(),
        rates.as_os_str(),
    ]);
    assert!(ok, "report failed:\n{stderr}");
    let pages: Vec<String> = report_common::tree(&root)
        .into_keys()
        .filter(|p| p.ends_with(".html"))
        .collect();
    let (mut charts, mut repeated) = (0, Vec::new());
    for page in &pages {
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for t in chart_titles(&root, page) {
            *seen.entry(t).or_default() += 1;
            charts += 1;
        }
        repeated.extend(
            seen.into_iter()
                .filter(|(_, n)| *n > 1)
                .map(|(t, n)| format!("{page}: {n} charts titled \"{t}\"")),
        );
    }
    assert!(repeated.is_empty(), "{}", repeated.join("\n"));
    // the gp3 offering page alone has some sixty charts: the check saw them
    let gp3 = chart_titles(
        &root,
        "offerings/as-typed-2026/aws-gp3-100-gb-3000-iops-125-mib-s.html",
    );
    assert!(gp3.len() >= 40, "{} charts on the gp3 page", gp3.len());
    assert!(
        gp3.iter().any(|t| t
            == "AWS gp3 · 100 GB · 3,000 IOPS · 125 MiB/s — fio-randwrite-4k-qd64 (quick: 64 MiB): write IOPS per machine"),
        "{gp3:#?}"
    );
    assert!(charts > 500, "{charts} charts on {} pages", pages.len());
}
