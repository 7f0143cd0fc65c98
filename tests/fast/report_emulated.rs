//! A study built the way a user would from the real records of
//! `tests/fixtures/emulated/` (fio through `diskdash run` against a
//! throttled loop device: 2,000 IOPS from a 40,000-I/O bucket, then 200; and
//! a flat 200), given sizes, prices and a limits list: what the study page,
//! its Markdown and the timeline chart say about a bursting and a flat
//! volume, with the bursting one dearer and cheaper.

use crate::report_common;

use std::path::{Path, PathBuf};

use report_common::*;

const STUDY: &str = "gp2-vs-flat";

fn read(site: &Path, rel: &str) -> String {
    std::fs::read_to_string(site.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// One of the emulated records, renamed into the study at 100 GB and `price`
/// USD per GB-month; `strip` drops its timeline and what was found in it,
/// as an import of the same fio output without its logs would hold.
fn emulated(fixture: &str, offering: &str, price: f64, strip: bool) -> serde_json::Value {
    let path = format!(
        "{}/tests/fixtures/emulated/{fixture}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    r["subject"]["study"] = STUDY.into();
    r["subject"]["provider"] = "Emulated".into();
    r["subject"]["offering"] = offering.into();
    r["subject"]["size_gb"] = 100.0.into();
    r["subject"]["price"] = serde_json::json!({"per_gb_month": price, "currency": "USD"});
    if strip {
        let o = r.as_object_mut().unwrap();
        o.remove("timeline");
        let id = format!("{}-untimed", o["id"].as_str().unwrap());
        o.insert("id".into(), id.into());
        let m = o["metrics"].as_object_mut().unwrap();
        m.retain(|k, _| !k.ends_with("_sustained") && !k.starts_with("ss_") && k != "steady_state");
    }
    r
}

/// The emulated bursting record cut to its first `n` seconds and
/// classified again, as a run of `n` s would be: `n` below its 23 s burst
/// never leaves the burst. Its id gets `-{n}s`.
fn cut(offering: &str, price: f64, n: usize) -> serde_json::Value {
    let mut v = emulated("credit-burst", offering, price, false);
    let mut tl: diskdash::record::Timeline = serde_json::from_value(v["timeline"].clone()).unwrap();
    for s in [tl.read.as_deref_mut(), tl.write.as_deref_mut()]
        .into_iter()
        .flatten()
    {
        s.iops.truncate(n);
        s.bw.truncate(n);
        for l in [s.lat.as_mut(), s.clat.as_mut()].into_iter().flatten() {
            l.truncate(n);
        }
    }
    let found = diskdash::timeline::classify(&mut tl, diskdash::metrics::TestKind::BlockIo);
    v["timeline"] = serde_json::to_value(&tl).unwrap();
    let m = v["metrics"].as_object_mut().unwrap();
    m.retain(|k, _| {
        !diskdash::analysis::stats::of_the_sustained_level(k)
            && !k.ends_with("_burst")
            && !k.starts_with("burst_")
    });
    for (k, metric) in found {
        m.insert(k, serde_json::to_value(metric).unwrap());
    }
    v["test"]["parameters"]["runtime"] = (n as f64).into();
    v["duration_s"] = (n as f64).into();
    let id = format!("{}-{n}s", v["id"].as_str().unwrap());
    v["id"] = id.into();
    v
}

/// The burst table's row of `config` on the study page, as a Markdown
/// row of its cells' text.
fn burst_row(site: &Path, config: &str) -> String {
    let page = read(site, &format!("studies/{STUDY}.html"));
    report_common::study_burst_rows(&page, "", config)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no burst row for {config}: {page}"))
}

#[test]
fn a_run_shorter_than_the_burst_another_run_showed_is_left_out() {
    let short = cut("Bursting SSD", 0.10, 18);
    // alone, cut short, it looks like one level at the burst
    let p = short["timeline"]["pattern"].as_str().unwrap().to_string();
    assert_eq!(p, "flat");
    let (_dir, site) = build(&[
        emulated("credit-burst", "Bursting SSD", 0.10, false),
        short,
        emulated("empty-bucket", "Flat SSD", 0.08, false),
    ]);
    let row = burst_row(&site, "Emulated Bursting SSD");
    // never "flat", its level never the sustained one, and how many runs
    // stand behind each level, with why one is left out
    assert!(!row.contains("flat"), "{row}");
    assert!(
        row.contains("| burst not exhausted / credit burst, then a lower level |"),
        "{row}"
    );
    assert!(row.contains("| 200 / 200 IOPS (100%) |"), "{row}");
    assert!(
        row.contains("| burst: 2 runs; sustained: 1 of 2 runs (1 run of 18 s left out: shorter than the 23 s burst another run showed) |"),
        "{row}"
    );
    // the verdict stands on the one run that fell to 200, and says so
    let page = read(&site, &format!("studies/{STUDY}.html"));
    assert!(
        page.contains("for 1.00x its sustained read IOPS (nearly worth it, single run, 1 run of 18 s left out: shorter than the 23 s burst another run showed)"),
        "{page}"
    );
    // the value page's steady state: the run that stands behind the level
    // reached it, and the one left out is named
    let value = read(&site, "value.html");
    assert!(
        value.contains("<td>reached (range 3.2%, slope 3.3%); 1 run of 18 s left out: shorter than the 23 s burst another run showed</td>"),
        "{value}"
    );
}

#[test]
fn a_run_at_a_promised_burst_level_is_not_exhausted_and_not_compared() {
    let records = [
        cut("Bursting SSD", 0.10, 18),
        emulated("empty-bucket", "Flat SSD", 0.08, false),
    ];
    let (_dir, site) = build(&records);
    let row = burst_row(&site, "Emulated Bursting SSD");
    // its level is the burst it never left: 2,048 IOPS in its first 18 s
    assert!(row.starts_with("| Emulated Bursting SSD | burst not exhausted | 2,048 / 2,000 IOPS (102%) | not measured: burst not exhausted |"), "{row}");
    assert!(
        row.contains("| not judged: burst not exhausted | burst: 1 run; sustained: 0 of 1 run (1 run of 18 s left out: at the promised burst of 2,000 IOPS) |"),
        "{row}"
    );
    let page = read(&site, &format!("studies/{STUDY}.html"));
    assert!(
        page.contains("burst not exhausted (1 run of 18 s left out: at the promised burst of 2,000 IOPS): not compared"),
        "{page}"
    );
    assert!(!page.contains("3,500"));
    // its chart says so too, and draws no sustained line
    let id = records[0]["id"].as_str().unwrap();
    let svg = read(
        &site,
        &format!("charts/{STUDY}/{TIMELINE_TEST}/timeline-{id}.svg"),
    );
    assert!(
        svg.contains("burst not exhausted, left out of the sustained level: at the promised burst of 2,000 IOPS"),
        "{svg}"
    );
    assert!(
        svg.contains("sustained level not reached in 18 s: at least 2,048 IOPS; no steady state;"),
        "{svg}"
    );
    assert!(
        svg.contains("Measured / promised: burst 2,048 / 2,000 IOPS (102%)"),
        "{svg}"
    );
    assert!(!svg.contains(">sustained 2,048 IOPS<"), "{svg}");
    // without the limits list nothing says 2,000 is a burst: one level
    let (_dir, site) = build_without_limits(&records);
    let row = burst_row(&site, "Emulated Bursting SSD");
    assert!(row.contains("| flat: one level throughout |"), "{row}");
    assert!(row.contains("| 1 run |"), "{row}");
}

/// Builds the study from `records` without a limits list.
fn build_without_limits(records: &[serde_json::Value]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    for (i, r) in records.iter().enumerate() {
        std::fs::write(input.join(format!("{i}.json")), r.to_string()).unwrap();
    }
    let site = dir.path().join("site");
    let (ok, _, stderr) = report(&[input.as_os_str(), "--out".as_ref(), site.as_os_str()]);
    assert!(ok, "report failed: {stderr}");
    (dir, site)
}

/// Builds the study from `records` with a limits list for both volumes.
fn build(records: &[serde_json::Value]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    for (i, r) in records.iter().enumerate() {
        std::fs::write(input.join(format!("{i}.json")), r.to_string()).unwrap();
    }
    let limits = dir.path().join("limits.csv");
    std::fs::write(
        &limits,
        format!(
            "{LIMITS_HEADER}Emulated,Bursting SSD,1,1000,200,,2000,,,,https://example.test/bursting,2026-12-01\n\
             Emulated,Flat SSD,1,1000,200,,,,,,https://example.test/flat,2026-12-01\n"
        ),
    )
    .unwrap();
    let site = dir.path().join("site");
    let args = [
        input.as_os_str(),
        "--out".as_ref(),
        site.as_os_str(),
        "--limits".as_ref(),
        limits.as_os_str(),
    ];
    let (ok, _, stderr) = report(&args);
    assert!(ok, "report failed: {stderr}");
    (dir, site)
}

#[test]
fn a_dearer_bursting_volume_is_judged_on_its_sustained_level_with_the_burst_beside() {
    let (_dir, site) = build(&[
        emulated("credit-burst", "Bursting SSD", 0.10, false),
        emulated("empty-bucket", "Flat SSD", 0.08, false),
        emulated("empty-bucket", "Untimed SSD", 0.12, true),
    ]);
    // 10.00 / 8.00 USD a month is 1.25 and 200 / 200 after the bucket is
    // 1.00: a value of 0.80, nearly worth it, with the ratios shown to the
    // digits that agree with it; 2,000 / 200 while the bucket lasts
    // random I/O on the sustained level, which every configuration with a
    // timeline ran; the one without is named with why
    let answer = "Random I/O (4 KiB random reads at queue depth 32, fio-sustained-randread-4k-qd32): one configuration is dearer than Emulated Flat SSD; Emulated Bursting SSD costs 1.25x the monthly cost of Emulated Flat SSD for 1.00x its sustained read IOPS (nearly worth it, single run), after 10.00x while credits last; 1 more not judged: Emulated Untimed SSD (no timeline).";
    let page = read(&site, &format!("studies/{STUDY}.html"));
    assert!(page.contains(answer), "{page}");
    assert!(read(&site, "index.html").contains(answer));
    // the burst's value ratio is named as one: 10.0 / 1.25 = 8.00
    assert!(
        page.contains(
            "<span class=\"muted\">burst 2,000 while credits last: 10.0x, value 8.00</span>"
        ),
        "{page}"
    );
    // a configuration with no number starts its cell with why, not a blank line
    assert!(
        page.contains("data-label=\"sustained read IOPS in IOPS (fio-sustained-randread-4k-qd32)\"><strong>no timeline: not compared</strong>"),
        "{page}"
    );
    // and the burst table names it too, last, without a chart to link
    let bursts = &page[page
        .find("id=\"burst-and-sustained\"")
        .expect("burst section")..];
    let untimed = bursts.find(">Emulated Untimed SSD</a></th><td data-label=\"pattern\">no timeline: fio&#39;s per-second log was not kept</td>");
    let untimed = untimed.expect(bursts);
    assert!(bursts.find(">Emulated Flat SSD</a>").unwrap() < untimed);
    assert!(!bursts[untimed..]
        .split("</tr>")
        .next()
        .unwrap()
        .contains("<a href=\"../tests/"));
    let md = read(&site, &format!("data/{STUDY}.md"));
    assert!(
        md.contains("| Emulated Untimed SSD | no timeline: fio's per-second log was not kept |"),
        "{md}"
    );
    // one note says how to read the levels and where each promise comes from
    let note = "Levels read measured / promised. Promised: Emulated Flat SSD: https://example.test/flat, as of 2026-12-01; Emulated Bursting SSD: https://example.test/bursting, as of 2026-12-01.";
    assert_eq!(page.matches("class=\"note promised\"").count(), 1, "{page}");
    assert!(page.contains(note), "{page}");
    let md = read(&site, &format!("data/{STUDY}.md"));
    assert!(md.contains(&format!("**{answer}**")), "{md}");
    assert!(
        md.contains(
            "| Emulated Bursting SSD | 10.00 USD | 200 · 1.00x · nearly worth it, single run |"
        ),
        "{md}"
    );
    // in the post, the addresses as autolinks
    let note_md = note
        .replace("https://example.test/flat", "<https://example.test/flat>")
        .replace(
            "https://example.test/bursting",
            "<https://example.test/bursting>",
        );
    assert!(md.contains(&note_md), "{md}");
    assert_eq!(md.matches("Levels read measured / promised").count(), 1);

    // the chart names its levels as the caption does, and its two lines
    let svg = read(
        &site,
        &format!(
            "charts/{STUDY}/{TIMELINE_TEST}/timeline-20261201T104809Z-a79776.{TIMELINE_TEST}.r1.svg"
        ),
    );
    assert!(svg.contains(">burst 2,000 IOPS<"), "{svg}");
    assert!(svg.contains(">sustained 200 IOPS<"), "{svg}");
    assert!(svg.contains(">thin: each second, thick: rolling median<"));
    assert!(svg.contains("2,000 IOPS for 23 s (39.8 k I/Os), then 200 IOPS; steady state reached"));

    // a longer burst is more of it, not a slower one
    let test = read(&site, &format!("tests/{STUDY}/{TIMELINE_TEST}.html"));
    assert!(
        test.contains("(burst_duration, s, higher is better; shown, not judged)"),
        "{test}"
    );
    // the judged sustained level leads the page; the timelines come
    // before the metrics that are shown but not judged, which are folded
    let over_time = test
        .find("<h2 id=\"over-time\">Over time</h2>")
        .expect("an Over time section");
    let first_metric = test.find("<section id=").expect("metric sections");
    let folded = test
        .find("<details class=\"charts more-metrics\">")
        .expect("the other metrics, folded");
    assert!(
        first_metric < over_time && over_time < folded,
        "the judged metric, then Over time, then the other metrics"
    );
    assert!(test[first_metric..over_time].contains("; judged)"));
}

#[test]
fn a_flat_volume_beside_a_cheaper_bursting_baseline_is_not_said_to_burst() {
    let (_dir, site) = build(&[
        emulated("credit-burst", "Bursting SSD", 0.08, false),
        emulated("empty-bucket", "Flat SSD", 0.10, false),
    ]);
    // judged on what lasts: 200 / 200 for 1.25x the price; the flat
    // volume has no burst of its own to name
    let answer = "Emulated Flat SSD costs 1.25x the monthly cost of Emulated Bursting SSD for 1.00x its sustained read IOPS (nearly worth it, single run).";
    let md = read(&site, &format!("data/{STUDY}.md"));
    assert!(md.contains(answer), "{md}");
    assert!(!md.contains("burst 200"), "{md}");
    assert!(
        md.contains("| Emulated Bursting SSD | 8.00 USD | 200 · baseline |"),
        "{md}"
    );
    let page = read(&site, &format!("studies/{STUDY}.html"));
    assert!(
        page.contains("<span class=\"muted\">200 while the baseline&#39;s credits last: 0.10x, value 0.080</span>"),
        "{page}"
    );
    assert!(!page.contains("burst 200"), "{page}");
    // and the burst table says it is flat; the post's cell has its one level
    assert!(
        burst_row(&site, "Emulated Flat SSD").starts_with(
            "| Emulated Flat SSD | flat: one level throughout | none | 200 / 200 IOPS (100%) |"
        ),
        "{page}"
    );
    assert!(
        md.contains("| Emulated Flat SSD | 200 / 200 IOPS (100%) |\n"),
        "{md}"
    );
}
