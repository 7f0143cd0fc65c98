//! `diskdash report` on records that kept a timeline: the chart on run
//! pages, the study's "Burst and sustained" section and its Markdown twin,
//! `--limits` ("measured / promised"), and escaping of hostile names.

use crate::report_common;

use std::path::Path;

use report_common::*;

const TEST: &str = TIMELINE_TEST;
const STUDY: &str = TIMELINE_STUDY;

fn read(site: &Path, rel: &str) -> String {
    std::fs::read_to_string(site.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

const HEADER: &str = LIMITS_HEADER;

/// Builds the study with a limits list of `rows` (none, and no catalogue,
/// when `None`).
fn build_with(rows: Option<&str>) -> (tempfile::TempDir, std::path::PathBuf) {
    build_with_header(HEADER, rows)
}

/// [`build_with`], under the limits header `header`.
fn build_with_header(header: &str, rows: Option<&str>) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    write_timeline_study(&records);
    let site = dir.path().join("site");
    let mut args = vec![
        records.into_os_string(),
        "--out".into(),
        site.clone().into_os_string(),
    ];
    if let Some(rows) = rows {
        let limits = dir.path().join("limits.csv");
        std::fs::write(&limits, format!("{header}{rows}")).unwrap();
        args.push("--limits".into());
        args.push(limits.into_os_string());
    } else {
        args.push("--no-catalogue".into());
    }
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let (ok, _, stderr) = report(&args);
    assert!(ok, "report failed: {stderr}");
    (dir, site)
}

#[test]
fn a_run_page_shows_its_timeline_chart_and_caption() {
    let (_dir, site) = build_with(None);
    let chart = format!("charts/{STUDY}/{TEST}/timeline-b.gp2.svg");
    let svg = read(&site, &chart);
    let caption = "3,000 IOPS for 3 min (540.0 k I/Os), then 300 IOPS; steady state reached";
    assert!(svg.contains(caption), "{svg}");
    // the latency below, on the same time axis: 32 / 300 IOPS = 107 ms
    assert!(
        svg.contains("mean completion latency (ms)"),
        "no latency panel"
    );
    let run = read(&site, "runs/b.gp2.html");
    assert!(run.contains("<h2 id=\"over-time\">Over time</h2>"));
    assert!(run.contains("id=\"timeline-b.gp2\""));
    assert!(run.contains(caption), "the caption is on the run page");
    assert!(
        run.contains(&format!("href=\"../{chart}\"")),
        "links its file"
    );
    // the test page shows the same file
    let test = read(&site, &format!("tests/{STUDY}/{TEST}.html"));
    assert!(test.contains(&format!("href=\"../../{chart}\"")));
    // a run without a timeline has no such section
    assert!(!read(&site, "runs/b.gp3.html").contains("timeline-b.gp2"));
}

#[test]
fn past_twenty_timelines_a_test_page_draws_the_first_run_of_each_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    // 24 runs with a timeline: more than a test page draws
    for (offering, burst_s) in [("gp2", 200), ("gp3", 600), ("io2", 600)] {
        for rep in 1..=8u32 {
            let id = format!("b.{offering}.r{rep}");
            let mut r = timeline_record(&id, "AWS", offering, timeline(3000.0, burst_s, 300.0));
            r.repetition = rep;
            write_record(&records, &format!("{offering}-{rep}.json"), &r);
        }
    }
    let site = dir.path().join("site");
    let (ok, _, stderr) = report(&[records.as_os_str(), "--out".as_ref(), site.as_os_str()]);
    assert!(ok, "report failed: {stderr}");
    let test = read(&site, &format!("tests/{STUDY}/{TEST}.html"));
    let drawn: Vec<&str> = test
        .split("<div class=\"timeline\" id=\"timeline-")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .collect();
    assert_eq!(drawn, ["b.gp2.r1", "b.gp3.r1", "b.io2.r1"]);
    assert!(
        test.contains("24 runs kept fio&#39;s per-second log, too many to draw here: drawn is the first run of each configuration."),
        "{test}"
    );
    // every run's own page draws its chart, and the study page links there
    for rep in 1..=8 {
        let id = format!("b.gp3.r{rep}");
        let run = read(&site, &format!("runs/{id}.html"));
        assert!(run.contains(&format!("id=\"timeline-{id}\"")), "{id}");
        assert!(site
            .join(format!("charts/{STUDY}/{TEST}/timeline-{id}.svg"))
            .is_file());
    }
    let study = read(&site, &format!("studies/{STUDY}.html"));
    assert!(
        study.contains("href=\"../runs/b.gp2.r1.html#timeline-b.gp2.r1\""),
        "{}",
        &study[study
            .find("timeline-b.gp2")
            .unwrap_or(0)
            .saturating_sub(200)..][..400]
    );
    assert!(!study.contains(&format!("{TEST}.html#timeline-")));
}

#[test]
fn the_study_shows_burst_and_sustained_side_by_side() {
    let (_dir, site) = build_with(None);
    let page = read(&site, &format!("studies/{STUDY}.html"));
    let section = page
        .split("<h2 id=\"burst-and-sustained\">")
        .nth(1)
        .expect("a burst and sustained section");
    let section = section.split("<h2 ").next().unwrap();
    assert!(section.contains(&format!("<h3>{TEST}: read IOPS</h3>")));
    let row = |name: &str| {
        section
            .split("<tr>")
            .find(|r| r.contains(&format!(">AWS {name}</a>")))
            .unwrap_or_else(|| panic!("no row for {name}"))
            .to_string()
    };
    let gp2 = row("gp2");
    for cell in [
        "credit burst, then a lower level",
        ">3,000 IOPS<",
        ">300 IOPS<",
        ">3 min<",
        ">540.0 k I/Os<",
        ">reached<",
        &format!("href=\"../tests/{STUDY}/{TEST}.html#timeline-b.gp2\""),
    ] {
        assert!(gp2.contains(cell), "{cell} not in {gp2}");
    }
    let gp3 = row("gp3");
    assert!(gp3.contains("flat: one level throughout"), "{gp3}");
    assert!(
        gp3.contains(">none<") && gp3.contains(">3,000 IOPS<"),
        "{gp3}"
    );
    // no limits list, no catalogue: nothing is promised
    assert!(!section.contains("promised"));
    // the post's one burst table: the burst, the level after it, how long
    let md = read(&site, &format!("data/{STUDY}.md"));
    assert!(md.contains("## Burst and sustained"), "{md}");
    assert!(
        md.contains(&format!(
            "| configuration | {TEST}: read IOPS |\n|---|---|\n| AWS gp2 | 3,000 IOPS → 300 IOPS, 3 min |\n"
        )),
        "{md}"
    );
}

#[test]
fn limits_put_measured_beside_promised() {
    // the gp2 row covers 100 GB exactly at its upper edge; gp3's at its lower
    let (_dir, site) = build_with(Some(
        "AWS,gp2,1,100,100,3,3000,,,,https://example.test/gp2,2026-12-01\n\
         AWS,GP3,100,200,3000,,,125,,,,\n",
    ));
    let page = read(&site, &format!("studies/{STUDY}.html"));
    assert!(page.contains(">3,000 / 3,000 IOPS (100%)<"), "gp2 burst");
    assert!(
        page.contains(">300 / 300 IOPS (100%)<"),
        "gp2 baseline: 3 IOPS/GB x 100"
    );
    assert!(page.contains(">3,000 / 3,000 IOPS (100%)<"));
    assert!(
        page.contains("Levels read measured / promised. Promised: AWS gp2: https://example.test/gp2, as of 2026-12-01; AWS gp3: limits list.")
    );
    let svg = read(&site, &format!("charts/{STUDY}/{TEST}/timeline-b.gp2.svg"));
    assert!(
        svg.contains(
            "Measured / promised: burst 3,000 / 3,000 IOPS (100%), sustained 300 / 300 IOPS (100%)"
        ),
        "{svg}"
    );
    let run = read(&site, "runs/b.gp2.html");
    assert!(run.contains("Promised levels: AWS gp2, https://example.test/gp2, as of 2026-12-01."));
    let md = read(&site, &format!("data/{STUDY}.md"));
    assert!(
        md.contains("| AWS gp2 | 3,000 / 3,000 IOPS (100%) → 300 / 300 IOPS (100%), 3 min |"),
        "{md}"
    );
}

#[test]
fn a_promised_burst_says_its_kind_and_length_beside_what_was_seen() {
    // gp2's credits last up to 30 minutes; gp3 given a periodic burst it
    // never showed (its run is flat): the promise and the pattern, both
    let header = format!(
        "{},instance,per_gb_rule,max_iops,max_mbps,mbps_unit,burst_kind,burst_s,burst_period_s\n",
        HEADER.trim_end()
    );
    let (_dir, site) = build_with_header(
        &header,
        Some(
            "AWS,gp2,1,1000,100,3,3000,,,,https://example.test/gp2,2026-12-01,,max,16000,,,credit,1800,\n\
             AWS,gp3,,,3000,,4500,,,,https://example.test/gp3,2026-12-01,,,,,,periodic,60,120\n",
        ),
    );
    let svg = read(&site, &format!("charts/{STUDY}/{TEST}/timeline-b.gp2.svg"));
    assert!(
        svg.contains(
            "Measured / promised: burst 3,000 / 3,000 IOPS (100%), sustained 300 / 300 IOPS (100%). \
             Promised: bursts to 3,000 IOPS for up to 30 min"
        ),
        "{svg}"
    );
    let svg = read(&site, &format!("charts/{STUDY}/{TEST}/timeline-b.gp3.svg"));
    assert!(svg.contains("3,000 IOPS throughout"), "{svg}");
    assert!(
        svg.contains("Promised: bursts to 4,500 IOPS for 60 s in every 120 s"),
        "{svg}"
    );
    let run = read(&site, "runs/b.gp3.html");
    assert!(
        run.contains(
            "Promised levels: AWS gp3 (bursts to 4,500 IOPS for 60 s in every 120 s), https://example.test/gp3, as of 2026-12-01."
        ),
        "{run}"
    );
    let page = read(&site, &format!("studies/{STUDY}.html"));
    assert!(
        page.contains(
            "Promised: AWS gp2 (bursts to 3,000 IOPS for up to 30 min): https://example.test/gp2, as of 2026-12-01; \
             AWS gp3 (bursts to 4,500 IOPS for 60 s in every 120 s): https://example.test/gp3, as of 2026-12-01."
        ),
        "{page}"
    );
}

#[test]
fn limits_that_match_no_size_show_nothing() {
    // 100 GB is just outside both ranges
    let (_dir, site) = build_with(Some(
        "AWS,gp2,101,200,100,3,3000,,,,,\nAWS,gp3,1,99.9,3000,,,,,,,\n",
    ));
    let page = read(&site, &format!("studies/{STUDY}.html"));
    assert!(!page.contains(" / 3,000 IOPS"), "nothing promised");
    assert!(!page.contains("Promised:"));
    let svg = read(&site, &format!("charts/{STUDY}/{TEST}/timeline-b.gp2.svg"));
    assert!(!svg.contains("promised"));
}

#[test]
fn a_bad_limits_list_is_an_error_naming_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    write_timeline_study(&records);
    let limits = dir.path().join("limits.csv");
    std::fs::write(&limits, format!("{HEADER}AWS,gp2,1,100,lots,,,,,,,\n")).unwrap();
    let site = dir.path().join("site");
    let (ok, _, stderr) = report(&[
        records.as_os_str(),
        "--out".as_ref(),
        site.as_os_str(),
        "--limits".as_ref(),
        limits.as_os_str(),
    ]);
    assert!(!ok);
    assert!(
        stderr.contains(&format!("limits list `{}`", limits.display())),
        "{stderr}"
    );
    assert!(
        stderr
            .contains("line 2, column 5 (`baseline_iops`): `lots` is not a number of zero or more"),
        "{stderr}"
    );
    assert!(!site.join("index.html").exists(), "no site from a bad list");
}

#[test]
fn a_bad_row_after_35000_limits_is_named_by_its_line() {
    // some 35,000 rows of 220 bytes, then a bad one: its line number is
    // counted once over the file, not again from the start for every row
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    write_timeline_study(&records);
    let rows = 35_000;
    let source = "s".repeat(180);
    let mut text = String::from(HEADER);
    for _ in 0..rows {
        text.push_str(&format!(
            "AWS,gp2,1,100,100,3,3000,,,,{source},2026-12-01\n"
        ));
    }
    text.push_str("AWS,gp2,1,100,lots,,,,,,,\n");
    assert!(text.len() < 8 << 20, "{} bytes", text.len());
    let limits = dir.path().join("limits.csv");
    std::fs::write(&limits, &text).unwrap();
    let site = dir.path().join("site");
    let (ok, _, stderr) = report(&[
        records.as_os_str(),
        "--out".as_ref(),
        site.as_os_str(),
        "--limits".as_ref(),
        limits.as_os_str(),
    ]);
    assert!(!ok);
    assert!(
        stderr.contains(&format!("line {}, column 5 (`baseline_iops`)", rows + 2)),
        "{stderr}"
    );
}

#[test]
fn hostile_names_are_escaped_in_the_burst_section() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    let evil = timeline_record(
        "b.evil",
        "<b>\"Evil\"&",
        "<script>alert(1)</script>",
        timeline(3000.0, 200, 300.0),
    );
    write_record(&records, "evil.json", &evil);
    let limits = dir.path().join("limits.csv");
    std::fs::write(
        &limits,
        format!("{HEADER}<b>\"Evil\"&,<script>alert(1)</script>,,,300,,3000,,,,<img src=x onerror=alert(2)>,\n")
            .replace("<b>\"Evil\"&", "\"<b>\"\"Evil\"\"&\""),
    )
    .unwrap();
    let site = dir.path().join("site");
    let (ok, _, stderr) = report(&[
        records.as_os_str(),
        "--out".as_ref(),
        site.as_os_str(),
        "--limits".as_ref(),
        limits.as_os_str(),
    ]);
    assert!(ok, "{stderr}");
    let page = read(&site, &format!("studies/{STUDY}.html"));
    assert!(
        page.contains(">3,000 / 3,000 IOPS (100%)<"),
        "the hostile row matched"
    );
    for html in [page, read(&site, "runs/b.evil.html")] {
        assert!(!html.contains("<script>alert"), "unescaped offering");
        assert!(!html.contains("<img src=x"), "unescaped source");
        assert!(!html.contains("<b>\"Evil"), "unescaped provider");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;")
                || html.contains("&#60;script&#62;alert(1)&#60;/script&#62;"),
            "the offering is shown, escaped"
        );
    }
    let md = read(&site, &format!("data/{STUDY}.md"));
    let section = md.split("## Burst and sustained").nth(1).unwrap();
    assert!(
        !section.contains("<script>") && !section.contains("<img"),
        "{section}"
    );
}

/// Writes the study's site to `$DISKDASH_TIMELINE_SITE` for looking at it;
/// without it, to a temporary directory (as `cargo test --
/// --include-ignored` runs it).
#[test]
#[ignore = "writes a site to look at: set DISKDASH_TIMELINE_SITE"]
fn write_site_for_screenshots() {
    let tmp = tempfile::tempdir().unwrap();
    let out = std::env::var_os("DISKDASH_TIMELINE_SITE")
        .map_or_else(|| tmp.path().join("site"), std::path::PathBuf::from);
    let (dir, site) = build_with(Some(
        "AWS,gp2,1,1000,100,3,3000,,,,https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html,2026-12-01\n\
         AWS,gp3,1,16384,3000,,,131.072,,,https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html,2026-12-01\n",
    ));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::rename(&site, &out).unwrap();
    drop(dir);
}

/// `n` seconds at `level`, each strayed by up to `amp` (a fraction):
/// deterministic noise from a linear congruential generator.
fn noisy(level: f64, n: usize, amp: f64, seed: u64) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let u = ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0;
            level * (1.0 + amp * u)
        })
        .collect()
}

#[test]
fn a_noisy_flat_baseline_and_a_jittering_throttle_read_as_their_levels() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    // a 10-minute HDD run, +-15% each second around 150 IOPS, the
    // cheapest: the baseline of every verdict
    let mut hdd = timeline_record(
        "b.hdd",
        "Vultr",
        "HDD",
        read_timeline(noisy(150.0, 600, 0.15, 11)),
    );
    hdd.subject.price.as_mut().unwrap().per_gb_month = 0.02;
    // gp2 behind a throttle that jitters 12% each second after its bucket
    let gp2: Vec<f64> = (0..600)
        .map(|i| match i {
            i if i < 200 => 3000.0,
            i if i % 2 == 0 => 336.0,
            _ => 264.0,
        })
        .collect();
    let gp2 = timeline_record("b.gp2", "AWS", "gp2", read_timeline(gp2));
    write_record(&records, "hdd.json", &hdd);
    write_record(&records, "gp2.json", &gp2);
    let site = dir.path().join("site");
    // the levels read, nothing promised beside them
    let (ok, _, stderr) = report(&[
        records.as_os_str(),
        "--out".as_ref(),
        site.as_os_str(),
        "--no-catalogue".as_ref(),
    ]);
    assert!(ok, "report failed: {stderr}");
    let md = read(&site, &format!("data/{STUDY}.md"));
    let page = read(&site, &format!("studies/{STUDY}.html"));
    let row = |config: &str| {
        study_burst_rows(&page, "", config)
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no burst row for {config}: {page}"))
    };
    // the HDD is flat, its steady state reached, one run behind its level
    let hdd = row("Vultr HDD");
    assert!(
        hdd.starts_with("| Vultr HDD | flat: one level throughout | none | "),
        "{hdd}"
    );
    assert!(hdd.ends_with("| reached | 1 run |"), "{hdd}");
    // gp2 fell to its jittering baseline: the median of 264 and 336
    let gp2 = row("AWS gp2");
    assert_eq!(
        gp2,
        "| AWS gp2 | credit burst, then a lower level | 3,000 IOPS | 300 IOPS | 3 min | 540.0 k I/Os | reached | 1 run |"
    );
    // and no verdict is qualified by a level "not reached"
    assert!(!md.contains("not reached"), "{md}");
    assert!(!page.contains("not reached"), "{page}");
}

#[test]
fn a_timeline_of_a_week_gives_a_bounded_chart_and_run_page() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    // the most samples a record holds: a week of seconds, bursting for a day
    let n = diskdash::record::MAX_TIMELINE_SAMPLES;
    let iops: Vec<f64> = (0..n)
        .map(|i| {
            if i < 86_400 {
                3000.0
            } else {
                300.0 + (i % 7) as f64
            }
        })
        .collect();
    let r = timeline_record("b.week", "AWS", "gp2", read_timeline(iops));
    write_record(&records, "week.json", &r);
    let site = dir.path().join("site");
    build(&records, &site);
    let svg = std::fs::metadata(site.join(format!("charts/{STUDY}/{TEST}/timeline-b.week.svg")))
        .unwrap()
        .len();
    let page = std::fs::metadata(site.join("runs/b.week.html"))
        .unwrap()
        .len();
    eprintln!("timeline chart {svg} bytes, run page {page} bytes");
    // stated in docs/run.md: a timeline chart is drawn through at most
    // 2,000 points a line, some 100 KB, whatever the record's length
    assert!(svg < 150_000, "timeline chart of {svg} bytes");
    assert!(page < 150_000, "run page of {page} bytes");
}

#[test]
fn a_flat_run_that_could_not_rule_out_a_burst_says_so_beside_its_pattern() {
    // what `run` writes when a sustained test ended its window flat at a
    // level that could be a burst (nothing known of the volume)
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    let mut gp3 = timeline_record("b.gp3", "AWS", "gp3", timeline(3000.0, 600, 3000.0));
    gp3.warnings
        .push("burst not excluded beyond 10 minutes".to_string());
    write_record(&records, "gp3.json", &gp3);
    let site = dir.path().join("site");
    let args: Vec<&std::ffi::OsStr> = vec![records.as_os_str(), "--out".as_ref(), site.as_os_str()];
    let (ok, _, stderr) = report(&args);
    assert!(ok, "report failed: {stderr}");
    let svg = read(&site, &format!("charts/{STUDY}/{TEST}/timeline-b.gp3.svg"));
    assert!(
        svg.contains(
            "3,000 IOPS throughout; steady state reached; burst not excluded beyond 10 minutes"
        ),
        "{svg}"
    );
    // and in the study's "Burst and sustained" table, beside the pattern
    let page = read(&site, &format!("studies/{STUDY}.html"));
    assert!(
        page.contains(">flat: one level throughout; burst not excluded beyond 10 minutes<"),
        "{page}"
    );
}

#[test]
fn a_run_page_says_when_and_why_its_sustained_test_stopped() {
    use diskdash::record::{Stop, StopReason};
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    let mut gp3 = timeline_record("b.gp3", "AWS", "gp3", timeline(3000.0, 241, 3000.0));
    gp3.stop = Some(Stop {
        reason: StopReason::FlatNoBurstPossible,
        stopped_at_s: 241.0,
        window_s: 2700.0,
        burst_not_excluded: false,
    });
    write_record(&records, "gp3.json", &gp3);
    let site = dir.path().join("site");
    let args: Vec<&std::ffi::OsStr> = vec![records.as_os_str(), "--out".as_ref(), site.as_os_str()];
    let (ok, _, stderr) = report(&args);
    assert!(ok, "report failed: {stderr}");
    // its `runtime` parameter says 45 minutes: the page says what it ran
    let run = read(&site, "runs/b.gp3.html");
    assert!(
        run.contains(
            "<th>stopped</th><td>after 4 min of its 45 min window: flat at a level that cannot be a burst</td>"
        ),
        "{run}"
    );
}
