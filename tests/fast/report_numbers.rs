//! Every number a page shows is in its display unit with at most four
//! significant digits; the exact value as recorded stays in the markup
//! (`<data value>`) and in the data files.

use crate::report_common;

use std::path::Path;

use report_common::*;

/// A random-read run with the figures fio really reports: IOPS and
/// bandwidth with 17 significant digits, latency in seconds.
fn write_records(dir: &Path) {
    let metrics = [
        ("read_iops", 2847.8013625111657, "IOPS"),
        ("read_bw", 11664594.380845735, "B/s"),
        ("read_clat_p50", 0.000925, "s"),
        ("read_clat_p99", 0.0123456789, "s"),
    ];
    let mut r = record(
        "n.slow",
        "numbers",
        "Cloud",
        "slow",
        Some(0.05),
        "fio-randread-4k-qd32",
        1,
        &metrics,
    );
    r.test
        .parameters
        .insert("runtime".into(), serde_json::json!(2700));
    write_record(dir, "slow.json", &r);
    let fast = record(
        "n.fast",
        "numbers",
        "Cloud",
        "fast",
        Some(0.10),
        "fio-randread-4k-qd32",
        1,
        &[
            ("read_iops", 158584.3, "IOPS"),
            ("read_bw", 649561292.8, "B/s"),
            ("read_clat_p50", 0.00018734, "s"),
            ("read_clat_p99", 0.00041, "s"),
        ],
    );
    write_record(dir, "fast.json", &fast);
}

fn site() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    write_records(&records);
    let site = dir.path().join("site");
    build(&records, &site);
    (dir, site)
}

#[test]
fn a_run_page_shows_rounded_values_and_keeps_the_exact_ones_in_data() {
    let (_dir, site) = site();
    let run = std::fs::read_to_string(site.join("runs/n.slow.html")).unwrap();
    for cell in [
        "<td class=\"num\"><data value=\"2847.8013625111657\">2,848 IOPS</data></td>",
        "<td class=\"num\"><data value=\"11664594.380845735\">11.7 MB/s</data></td>",
        "<td class=\"num\"><data value=\"0.000925\">925 µs</data></td>",
        "<td class=\"num\"><data value=\"0.0123456789\">12.3 ms</data></td>",
    ] {
        assert!(run.contains(cell), "no {cell} in the run page");
    }
    assert!(!run.contains(">2847.8013625111657"), "a 17-digit cell");
    assert!(!run.contains("11664594.380845735 B/s"));
    assert!(!run.contains("0.000925 s"));
    assert!(run.contains("<tr><th>runtime</th><td>45 min</td></tr>"));
    let fast = std::fs::read_to_string(site.join("runs/n.fast.html")).unwrap();
    for cell in [
        "<data value=\"158584.3\">158,600 IOPS</data>",
        "<data value=\"649561292.8\">650 MB/s</data>",
        "<data value=\"0.00018734\">187 µs</data>",
    ] {
        assert!(fast.contains(cell), "no {cell} in the fast run's page");
    }
    // the data files keep every digit
    let csv = std::fs::read_to_string(site.join("data/summary.csv")).unwrap();
    assert!(csv.contains("2847.8013625111657"), "{csv}");
}

/// The numbers in `text`, as the digits of each (separators left out).
fn numbers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let inner = (c == ',' || c == '.')
            && !cur.is_empty()
            && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        if c.is_ascii_digit() || inner {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Significant digits of a shown number: `0.000925` 3, `158,600` 4,
/// `2,848` 4, `0.0250` 3.
fn significant(n: &str) -> usize {
    let digits: String = n.chars().filter(|c| *c != ',').collect();
    let (whole, frac) = digits.split_once('.').unwrap_or((&digits, ""));
    if frac.is_empty() {
        whole
            .trim_start_matches('0')
            .trim_end_matches('0')
            .len()
            .max(1)
    } else {
        format!("{whole}{frac}").trim_start_matches('0').len()
    }
}

#[test]
fn no_table_figure_has_more_than_four_significant_digits() {
    assert_eq!(numbers("1,969 ops/s and 0.000925 s"), ["1,969", "0.000925"]);
    assert_eq!(
        ["0.000925", "158,600", "2,848", "0.0250", "2847.8013"].map(significant),
        [3, 4, 4, 3, 8]
    );
    let (_dir, site) = site();
    assert!(figures_checked(&site) > 50);
    // and a study as large as a real one, with burst volumes counted in I/Os
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    write_realistic_study(&records);
    let real = dir.path().join("site");
    build(&records, &real);
    assert!(figures_checked(&real) > 5_000);
}

/// Checks that every figure of the site at `site` (number cells and their
/// `<data>`) has at most four significant digits; returns how many.
fn figures_checked(site: &Path) -> usize {
    let mut cells = 0;
    for (rel, bytes) in tree(site) {
        if !rel.ends_with(".html") {
            continue;
        }
        let page = String::from_utf8(bytes).unwrap();
        // the figures: number cells and <data> elements
        for piece in page.split("<td class=\"num\">").skip(1) {
            let cell = piece.split("</td>").next().unwrap();
            let text: String = cell
                .split('<')
                .map(|s| s.split_once('>').map_or(s, |(_, t)| t))
                .collect();
            for n in numbers(&text) {
                assert!(significant(&n) <= 4, "{rel}: {n} in {cell}");
                cells += 1;
            }
        }
    }
    cells
}
