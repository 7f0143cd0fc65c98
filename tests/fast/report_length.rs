//! How long the pages of a study as large as a real one are: a sustained
//! test's page stays under 1 MB of HTML, and the per-run command variations
//! (54 scratch directories) fold away so that the first chart comes early.
//! The heights in a phone-sized browser are measured in `tests/system/browser.rs`.

use crate::report_common;

use std::path::{Path, PathBuf};

use report_common::*;

fn build_real() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    assert_eq!(write_realistic_study(&records), 18 * 16);
    let site = dir.path().join("site");
    build(&records, &site);
    (dir, site)
}

fn read(site: &Path, rel: &str) -> String {
    std::fs::read_to_string(site.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Writes the realistic records to `$DISKDASH_REAL_RECORDS`, to look at
/// the site they make: `DISKDASH_REAL_RECORDS=DIR cargo test --test fast
/// write_realistic_records -- --ignored`; without it, to a temporary
/// directory (as `cargo test -- --include-ignored` runs it).
#[test]
#[ignore = "writes records to look at: set DISKDASH_REAL_RECORDS"]
fn write_realistic_records() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = std::env::var_os("DISKDASH_REAL_RECORDS").unwrap_or_else(|| tmp.path().into());
    write_realistic_study(Path::new(&dir));
}

#[test]
fn a_sustained_test_page_of_18_timelines_stays_under_a_megabyte() {
    let (_dir, site) = build_real();
    let rel = format!("tests/{REAL_STUDY}/{REAL_SUSTAINED}.html");
    let page = read(&site, &rel);
    assert!(
        page.len() < 1_000_000,
        "{rel} is {} bytes of HTML",
        page.len()
    );
    // each of the 18 timelines is its SVG file, loaded when scrolled to,
    // not 2,700 seconds of points inline
    let imgs = page
        .matches(&format!(
            "<img src=\"../../charts/{REAL_STUDY}/{REAL_SUSTAINED}/timeline-real.c"
        ))
        .count();
    assert_eq!(imgs, 18, "{rel}");
    let lazy = page
        .split("/timeline-real.c")
        .skip(1)
        .filter(|s| {
            s.split('>')
                .next()
                .is_some_and(|tag| tag.contains("loading=\"lazy\""))
        })
        .count();
    assert_eq!(lazy, 18);
    assert!(!page.contains("over time (fio-sustained-randread-4k-qd32, r1)</title>"));
    // a run's own page still draws its one timeline inline
    let run = read(&site, "runs/real.c00.sustained.html");
    assert!(run.contains("<svg") && run.contains("read IOPS over time"));
    // its length reads as a duration
    assert!(page.contains("<tr><th>runtime</th><td>45 min</td></tr>"));
}

#[test]
fn per_run_command_variations_fold_into_a_closed_details() {
    let (_dir, site) = build_real();
    for test in ["fio-randread-4k-qd32", REAL_SUSTAINED] {
        let rel = format!("tests/{REAL_STUDY}/{test}.html");
        let page = read(&site, &rel);
        assert!(page.contains(&format!(
            "<pre><code>fio --name={test} --filename=&#60;varies&#62; "
        )));
        let open = "<details class=\"varies\"><summary>filename varies: what each configuration ran</summary>";
        assert_eq!(page.matches(open).count(), 1, "{rel}");
        // every scratch path on the page is inside it
        let start = page.find(open).unwrap();
        let end = start + page[start..].find("</details>").unwrap();
        let paths = page.matches("/mnt/bench/diskdash-scratch-").count();
        assert!(paths >= 18, "{rel}: {paths} paths");
        assert_eq!(
            page[start..end]
                .matches("/mnt/bench/diskdash-scratch-")
                .count(),
            paths,
            "{rel}: a scratch path outside the folded list"
        );
        // and the parameters table counts them instead of listing them
        let runs = if test == REAL_SUSTAINED { 18 } else { 54 };
        assert!(
            page.contains(&format!(
                "<tr><th>filename</th><td>{runs} different values (each run&#39;s page has its own)</td></tr>"
            )),
            "{rel}"
        );
    }
}

#[test]
fn the_value_matrix_scrolls_in_its_own_box_with_its_names_and_units() {
    let (_dir, site) = build_real();
    let study = read(&site, &format!("studies/{REAL_STUDY}.html"));
    assert!(study.contains("<div class=\"scroll matrix\" tabindex=\"0\" role=\"region\" aria-label=\"value matrix: 18 configurations\"><table class=\"value-matrix sticky\">"));
    // every column names its test, every cell its metric, unit and test
    let start = study.find("<table class=\"value-matrix").unwrap();
    let matrix = &study[start..start + study[start..].find("</table>").unwrap()];
    let head = &matrix[..matrix.find("</thead>").unwrap()];
    let columns = head.matches("<th scope=\"col\">").count();
    assert_eq!(
        head.matches("<a class=\"muted\" href=\"../tests/").count(),
        columns - 3
    );
    assert!(matrix.contains("data-label=\"read IOPS in IOPS (fio-randread-4k-qd1)\""));
    assert!(matrix.contains("data-label=\"read throughput in MB/s (fio-seqread-1m-qd8)\""));
    // the queue-depth charts wait behind a summary
    assert!(study.contains("<details class=\"charts\"><summary>18 charts: IOPS and p99 latency by queue depth, one per configuration</summary>"));
    // the findings come before the facts
    let at = |s: &str| study.find(s).unwrap_or_else(|| panic!("no {s}"));
    assert!(at("id=\"cost-vs-performance\"") < at("id=\"value\""));
    assert!(at("id=\"value\"") < at("id=\"facts\""));
    assert!(at("id=\"facts\"") < at("id=\"configurations\""));
}

/// The study page's first figure after the answer is the cost against
/// performance chart of its first headline dimension (`overview.svg`),
/// followed by the value matrix; and no page of the site inlines a chart
/// twice (its phone variant is an image).
#[test]
fn the_picture_of_the_answer_comes_first_and_every_chart_is_inlined_once() {
    let (_dir, site) = build_real();
    let study = read(&site, &format!("studies/{REAL_STUDY}.html"));
    let answer = study
        .find("<div class=\"lead answer\">")
        .expect("the answer");
    let after = &study[answer..];
    let figure = after.find("<figure").expect("a figure after the answer");
    let matrix = after.find("<table class=\"value-matrix").expect("a matrix");
    assert!(figure < matrix, "the chart comes before the matrix");
    let first = &after[figure..after[figure..].find("</figure>").unwrap() + figure];
    assert!(
        first.contains(&format!("charts/{REAL_STUDY}/overview.svg")),
        "{first}"
    );
    assert!(
        first.contains("<svg") && first.contains("dd-value-"),
        "{first}"
    );
    // nothing but the answer, its notes and the chart's heading before it
    assert!(!after[..figure].contains("<table"), "{}", &after[..figure]);
    assert!(!after[figure + 1..matrix].contains("<figure"));
    let mut pages = 0;
    for e in walkdir::WalkDir::new(&site) {
        let e = e.unwrap();
        if e.path().extension().is_none_or(|x| x != "html") {
            continue;
        }
        pages += 1;
        let html = std::fs::read_to_string(e.path()).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for svg in html.split("<svg ").skip(1) {
            // `dd-value-0d73881e75-title`, `-n-title` in the narrow variant
            let label = svg
                .split_once("aria-labelledby=\"")
                .and_then(|(_, r)| r.split_once(' '))
                .map_or("", |(l, _)| l);
            let id = label.trim_end_matches("-title").trim_end_matches("-n");
            assert!(
                seen.insert(id.to_string()),
                "{}: {id} inlined twice",
                e.path().display()
            );
        }
    }
    assert!(pages > 100, "{pages} pages");
}
