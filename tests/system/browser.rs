//! The site in a real browser: `tests/browser/check.mjs` opens pages in
//! headless Chromium and checks sideways scroll, requests leaving the
//! site, console errors, chart text sizes, images that do not load and
//! axe-core's serious and critical accessibility rules (docs/publishing.md,
//! "Checked in a browser"); here also the height of a realistic study's
//! pages on a phone, and its Markdown post rendered as GitHub renders it (marked). Needs node, `npm ci --prefix tests/browser` and
//! Chromium; without them these tests fail naming what is missing.

use crate::report_common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use diskdash::report::{build_site, Options};

fn checker_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// What the checker needs and this machine lacks, if anything.
fn missing() -> Vec<String> {
    let mut missing = Vec::new();
    let node = Command::new("node").arg("--version").output();
    if !node.map(|o| o.status.success()).unwrap_or(false) {
        missing.push("node (Debian: apt-get install nodejs)".to_string());
    }
    for package in [
        "playwright-core/package.json",
        "axe-core/axe.min.js",
        "marked/package.json",
    ] {
        if !checker_dir().join("node_modules").join(package).is_file() {
            let name = package.split('/').next().unwrap_or(package);
            missing.push(format!("{name} (run `npm ci --prefix tests/browser`)"));
        }
    }
    // the same places check.mjs looks
    let chromium = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .into_iter()
        .chain(["/usr/bin/chromium", "/usr/bin/chromium-browser"].map(PathBuf::from))
        .any(|p| p.is_file());
    if !chromium {
        missing.push("chromium (Debian: apt-get install chromium, or set CHROMIUM)".to_string());
    }
    missing
}

/// Fails the test, naming what is missing, unless the browser check can run.
fn need_browser() {
    crate::require::need("the browser check", &missing(), "see above");
}

/// One Chromium at a time: the tests of this file would otherwise start
/// three at once and fight over the cores.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

/// Runs the checker on `site` with `args`; returns (exit code, stdout).
fn check(site: &Path, args: &[&str]) -> (i32, String) {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let out = Command::new("node")
        .arg(checker_dir().join("check.mjs"))
        .arg(site)
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(stderr.is_empty(), "check.mjs wrote to stderr:\n{stderr}");
    (out.status.code().unwrap_or(-1), stdout)
}

/// The closing `N passed, M failed` line as numbers.
fn tally(stdout: &str) -> (usize, usize) {
    let last = stdout.lines().last().unwrap_or_default();
    let nums: Vec<usize> = last
        .split([' ', ','])
        .filter_map(|w| w.parse().ok())
        .collect();
    assert!(
        nums.len() == 2 && last.ends_with(" failed"),
        "no closing tally in {last:?}"
    );
    (nums[0], nums[1])
}

/// Builds the site of the records under `input` into `out` with the library.
fn build(input: &Path, out: &Path) {
    let loaded = diskdash::ingest::load(&[input.to_path_buf()]).unwrap();
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    let opts = Options {
        title: "Storage benchmark results".to_string(),
        ..Options::default()
    };
    let site = build_site(&loaded.records, &loaded.problems, &opts).unwrap();
    site.write(out, false).unwrap();
}

fn assert_passes(site: &Path) {
    let (code, stdout) = check(site, &[]);
    let (passed, failed) = tally(&stdout);
    assert!(passed > 0, "nothing was checked");
    assert_eq!(
        (code, failed),
        (0, 0),
        "the site fails in the browser:\n{stdout}"
    );
}

#[test]
#[ignore = "system tier: needs node, `npm ci --prefix tests/browser` and Chromium"]
fn sample_site_in_a_browser() {
    need_browser();
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    build(&report_common::sample_results(), &site);
    assert_passes(&site);
}

#[test]
#[ignore = "system tier: needs node, `npm ci --prefix tests/browser` and Chromium"]
fn many_long_named_offerings_in_a_browser() {
    need_browser();
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    assert_eq!(report_common::write_many_offerings(&records), 56);
    let site = dir.path().join("site");
    build(&records, &site);
    assert_passes(&site);
}

#[test]
#[ignore = "system tier: needs node, `npm ci --prefix tests/browser` and Chromium"]
fn timelines_and_burst_section_in_a_browser() {
    need_browser();
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    report_common::write_timeline_study(&records);
    let loaded = diskdash::ingest::load(&[records]).unwrap();
    // a long source address must wrap on a phone, not widen the page
    let limits = format!(
        "{}AWS,gp2,1,1000,100,3,3000,,,,https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html,2026-12-01\n",
        report_common::LIMITS_HEADER
    );
    let opts = Options {
        title: "Storage benchmark results".to_string(),
        limits: diskdash::analysis::limits::Limits::parse(&limits).unwrap(),
        ..Options::default()
    };
    let site = dir.path().join("site");
    build_site(&loaded.records, &loaded.problems, &opts)
        .unwrap()
        .write(&site, false)
        .unwrap();
    let test = format!(
        "tests/{}/{}.html",
        report_common::TIMELINE_STUDY,
        report_common::TIMELINE_TEST
    );
    let study = format!("studies/{}.html", report_common::TIMELINE_STUDY);
    let pages = [study.as_str(), "runs/b.gp2.html", test.as_str()];
    let args: Vec<&str> = pages.iter().flat_map(|p| ["--page", *p]).collect();
    let (code, stdout) = check(&site, &args);
    let (passed, failed) = tally(&stdout);
    assert!(
        passed >= 12,
        "every page at both widths in both schemes: {stdout}"
    );
    assert_eq!((code, failed), (0, 0), "fails in the browser:\n{stdout}");
}

const HEAD: &str = r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>t</title><style>body{margin:0 auto;max-width:60rem;padding:0 1rem}.scroll{overflow-x:auto}svg,img{width:100%;height:auto}</style></head><body>"#;

/// The checker itself, on pages that each break one rule, so that the site
/// tests above mean something: each failure is named with its page, width,
/// scheme and number, and a page that keeps every rule passes.
#[test]
#[ignore = "system tier: needs node, `npm ci --prefix tests/browser` and Chromium"]
fn checker_names_each_kind_of_failure() {
    need_browser();
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path();
    let page = |name: &str, body: &str| {
        std::fs::write(site.join(name), format!("{HEAD}{body}</body></html>")).unwrap();
    };
    // 390 px viewport, 1rem padding: 358 px of content
    page(
        "index.html",
        r#"<div class="scroll" tabindex="0" role="region" aria-label="wide"><div style="width:900px">wide, in a box of its own</div></div>
<svg viewBox="0 0 358 100"><title>fine</title><text y="50" font-size="9">nine</text></svg>"#,
    );
    page("wide.html", r#"<div style="width:500px">wide</div>"#);
    page(
        "foreign.html",
        r#"<img src="http://192.0.2.1/pixel.png" alt="">"#,
    );
    page("console.html", "<script>console.error('boom')</script>");
    page("thrown.html", "<script>throw new Error('kaboom')</script>");
    // 720 wide shown at 358 px: 12 px comes out at 5.97 px
    page(
        "inline.html",
        r#"<svg viewBox="0 0 720 100"><title>small labels</title><text y="40" font-size="20">big</text><text y="80" font-size="12">small</text></svg>"#,
    );
    std::fs::write(
        site.join("chart.svg"),
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 716 100" width="100%"><title>file chart</title><text y="50" font-size="16">sixteen</text></svg>"#,
    )
    .unwrap();
    page(
        "img.html",
        r#"<div style="height:3000px"></div><img src="chart.svg" alt="c" loading="lazy">"#,
    );
    // text past the chart's right edge, and a point label far from its point
    page(
        "clipped.html",
        r#"<svg viewBox="0 0 358 100" width="100%" style="max-width:358px"><title>clipped</title><text x="300" y="30" font-size="16">sticks out past the edge</text><circle cx="20" cy="20" r="5" data-point="0"/><text x="200" y="90" font-size="12" data-label-for="0">far</text></svg>"#,
    );
    // a button without a name: critical for axe-core
    page(
        "unnamed.html",
        r#"<main><h1>h</h1><button></button></main>"#,
    );
    let pages = [
        "index.html",
        "wide.html",
        "foreign.html",
        "console.html",
        "thrown.html",
        "inline.html",
        "img.html",
        "clipped.html",
        "unnamed.html",
    ];
    let args: Vec<&str> = pages.iter().flat_map(|p| ["--page", p]).collect();
    let (code, stdout) = check(site, &args);
    assert_eq!(code, 1, "{stdout}");
    for line in [
        "wide.html @390 light: scrolls sideways: scroll width 516 px > viewport 390 px: div (right edge 516 px)",
        "wide.html @390 dark: scrolls sideways: scroll width 516 px",
        "foreign.html @1280 light: request leaves the site: http://192.0.2.1/pixel.png",
        "foreign.html @390 dark: request leaves the site: http://192.0.2.1/pixel.png",
        "console.html @1280 dark: console error: boom (console.html)",
        "thrown.html @390 light: page error: kaboom",
        r#"inline.html @390 light: chart "small labels" smallest text 6.0 px (< 9): "small""#,
        r#"img.html @390 dark: chart "file chart" smallest text 8.0 px (< 9): "sixteen""#,
        r#"clipped.html @1280 light: chart "clipped": text "sticks out past the edge" outside the chart (right by "#,
        r#"clipped.html @390 dark: chart "clipped": text "sticks out past the edge" outside the chart (right by "#,
        r#"clipped.html @390 light: chart "clipped": label "far" 189 units from its point (> 40)"#,
        "unnamed.html @1280 light: accessibility (critical): button-name: Buttons must have discernible text: 1 element(s), e.g. button",
        "unnamed.html @390 dark: accessibility (critical): button-name",
    ] {
        assert!(
            stdout.lines().any(|l| l.starts_with(line)),
            "no line {line:?} in:\n{stdout}"
        );
    }
    // the wide page fails at 390 px only; charts are measured at 390 px only
    assert!(!stdout.contains("wide.html @1280"), "{stdout}");
    assert!(!stdout.contains("inline.html @1280"), "{stdout}");
    assert!(!stdout.contains("index.html"), "{stdout}");
    // 9 pages x 2 widths x 2 schemes; the foreign, console, thrown,
    // clipped and unnamed pages fail at all four, the others at 390 px in
    // both schemes; index passes; chart.svg is no page
    assert_eq!(tally(&stdout), (10, 26), "{stdout}");
}

/// `measured REL @WIDTH SCHEME: height H px, first chart Y px` lines of
/// `check.mjs --measure`: (page, width, scheme) to (height, first chart).
fn measured(stdout: &str) -> Vec<(String, u32, String, u32, Option<u32>)> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("measured "))
        .map(|l| {
            let (page, rest) = l.split_once(" @").unwrap();
            let (width, rest) = rest.split_once(' ').unwrap();
            let (scheme, rest) = rest.split_once(": height ").unwrap();
            let (height, rest) = rest.split_once(" px, first chart ").unwrap();
            let chart = rest.strip_suffix(" px").map(|c| c.parse().unwrap());
            (
                page.to_string(),
                width.parse().unwrap(),
                scheme.to_string(),
                height.parse().unwrap(),
                chart,
            )
        })
        .collect()
}

/// A study as large as a real one (18 configurations, five short tests of
/// three runs each, a 45-minute sustained test): every page kind passes
/// every check, axe-core's included, and on a 390 px phone the study page,
/// every offering page and every test page are at most 15,000 px tall and
/// each test page's first chart starts within 3,000 px.
#[test]
#[ignore = "system tier: needs node, `npm ci --prefix tests/browser` and Chromium"]
fn a_realistic_study_in_a_browser() {
    need_browser();
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    report_common::write_realistic_study(&records);
    let site = dir.path().join("site");
    build(&records, &site);
    let study = report_common::REAL_STUDY;
    let mut pages = vec![
        "index.html".to_string(),
        "value.html".to_string(),
        format!("studies/{study}.html"),
        format!("offerings/{study}/aws-ebs-gp2-100-gb.html"),
        "runs/real.c00.sustained.html".to_string(),
        "runs/real.c00.fio-randread-4k-qd32.r1.html".to_string(),
    ];
    let tests: Vec<String> = std::fs::read_dir(site.join("tests").join(study))
        .unwrap()
        .map(|e| format!("tests/{study}/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    assert_eq!(tests.len(), 6, "{tests:?}");
    pages.extend(tests.iter().cloned());
    let args: Vec<&str> = pages
        .iter()
        .flat_map(|p| ["--page", p.as_str()])
        .chain(["--measure"])
        .collect();
    let (code, stdout) = check(&site, &args);
    assert_eq!(
        (code, tally(&stdout).1),
        (0, 0),
        "fails in the browser:\n{stdout}"
    );
    let measured = measured(&stdout);
    assert_eq!(measured.len(), pages.len() * 4, "{stdout}");
    let at_390 = |page: &str| {
        measured
            .iter()
            .find(|m| m.0 == page && m.1 == 390 && m.2 == "light")
            .unwrap_or_else(|| panic!("{page} not measured: {stdout}"))
    };
    let study_page = at_390(&format!("studies/{study}.html"));
    assert!(
        study_page.3 <= 15_000,
        "the study page is {} px tall at 390 px",
        study_page.3
    );
    for test in &tests {
        let m = at_390(test);
        let chart = m.4.unwrap_or_else(|| panic!("{test} has no chart"));
        assert!(
            chart <= 3_000,
            "{test}: first chart at {chart} px at 390 px"
        );
    }
    // every offering and test page, at 390 px only
    let mut all = vec![format!("studies/{study}.html")];
    all.extend(site_pages(&site, &format!("offerings/{study}")));
    all.extend(tests.iter().cloned());
    assert_eq!(all.len(), 1 + 18 + 6, "{all:?}");
    assert_heights_at_390(&site, &all);
}

/// The `.html` pages directly under `dir` of `site`, as paths from the
/// site's root, sorted.
fn site_pages(site: &Path, dir: &str) -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(site.join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".html"))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    pages.sort();
    pages
}

/// Checks `pages` of `site` at 390 px (light and dark) with `--measure`:
/// each passes, and each is at most 15,000 px tall.
fn assert_heights_at_390(site: &Path, pages: &[String]) {
    let args: Vec<&str> = pages
        .iter()
        .flat_map(|p| ["--page", p.as_str()])
        .chain(["--measure", "--widths", "390"])
        .collect();
    let (code, stdout) = check(site, &args);
    assert_eq!(
        (code, tally(&stdout).1),
        (0, 0),
        "fails in the browser:\n{stdout}"
    );
    let measured = measured(&stdout);
    for page in pages {
        let m = measured
            .iter()
            .find(|m| &m.0 == page && m.1 == 390 && m.2 == "light")
            .unwrap_or_else(|| panic!("{page} not measured: {stdout}"));
        assert!(m.3 <= 15_000, "{page} is {} px tall at 390 px", m.3);
    }
}

/// The as-typed study (tests/fixtures/as-typed, reported as
/// `tests/fast/report_as_typed.rs` reports it: six configurations, plain
/// gp3 on four machines and measured again later): at 390 px its study
/// page, every offering page and every test page are at most 15,000 px
/// tall; the study, the gp3 offering with four machines and a history, and
/// a sustained test page pass every check at both widths in both schemes;
/// its post, rendered as GitHub renders it, is at most 8,000 px tall at
/// 740 px with its first chart within 3,000 px.
#[test]
#[ignore = "system tier: needs node, `npm ci --prefix tests/browser` and Chromium"]
fn the_as_typed_study_in_a_browser() {
    need_browser();
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/as-typed");
    let site = dir.path().join("site");
    let args: Vec<std::ffi::OsString> = vec![
        fixture.join("records").into(),
        "--out".into(),
        site.clone().into(),
        "--prices".into(),
        fixture.join("prices.csv").into(),
        "--rates".into(),
        fixture.join("rates.csv").into(),
    ];
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    // built two weeks after the later measurement, as report_as_typed.rs does
    let (ok, _, stderr) = report_common::report_at("1802649600", &args);
    assert!(ok, "report failed: {stderr}");
    let study = "as-typed-2026";
    let full = [
        format!("studies/{study}.html"),
        format!("offerings/{study}/aws-gp3-100-gb-3000-iops-125-mib-s.html"),
        format!("tests/{study}/fio-sustained-randread-4k-qd32-standard.html"),
    ];
    let args: Vec<&str> = full.iter().flat_map(|p| ["--page", p.as_str()]).collect();
    let (code, stdout) = check(&site, &args);
    let (passed, failed) = tally(&stdout);
    assert!(
        passed >= 12,
        "three pages at both widths in both schemes: {stdout}"
    );
    assert_eq!((code, failed), (0, 0), "fails in the browser:\n{stdout}");
    let mut all = vec![format!("studies/{study}.html")];
    all.extend(site_pages(&site, &format!("offerings/{study}")));
    let tests = site_pages(&site, &format!("tests/{study}"));
    assert_eq!(tests.len(), 32, "{tests:?}");
    all.extend(tests);
    assert_heights_at_390(&site, &all);
    // its post, five timed tests in one burst table, pasted into a blog
    let (blog, body) = post_as_blog(dir.path(), &site, study);
    assert_post_reads_as_a_post(&blog, "the as-typed study");
    assert!(body.contains("<table>") && body.contains("<img "), "{body}");
}

/// The imported study-2026 fixture (real tool formats, two currencies
/// converted at a rate whose source is a long address, limits, a failed
/// run): its study, value, sustained test and an EUR offering's pages pass
/// every check at both widths, none scrolls sideways on a phone, and the
/// study page stays within 15,000 px at 390 px.
#[test]
#[ignore = "system tier: needs node, `npm ci --prefix tests/browser` and Chromium"]
fn the_imported_2026_study_in_a_browser() {
    need_browser();
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    report_common::import_study_2026(&records);
    let site = dir.path().join("site");
    let fixture = report_common::study_2026();
    let mut args: Vec<std::ffi::OsString> =
        vec![records.clone().into(), "--out".into(), site.clone().into()];
    for (flag, file) in [
        ("--prices", "prices.csv"),
        ("--limits", "limits.csv"),
        ("--rates", "rates.csv"),
    ] {
        args.push(flag.into());
        args.push(fixture.join(file).into());
    }
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let (ok, _, stderr) = report_common::report(&args);
    assert!(ok, "report failed: {stderr}");
    let study = "block-storage-2026";
    let pages = [
        format!("studies/{study}.html"),
        "value.html".to_string(),
        format!("tests/{study}/fio-randread-4k-qd32.html"),
        format!("offerings/{study}/hetzner-volume-100-gb.html"),
    ];
    let args: Vec<&str> = pages
        .iter()
        .flat_map(|p| ["--page", p.as_str()])
        .chain(["--measure"])
        .collect();
    let (code, stdout) = check(&site, &args);
    assert_eq!(
        (code, tally(&stdout).1),
        (0, 0),
        "fails in the browser:\n{stdout}"
    );
    let study_page = measured(&stdout)
        .into_iter()
        .find(|m| m.0 == pages[0] && m.1 == 390 && m.2 == "light")
        .unwrap_or_else(|| panic!("the study page was not measured: {stdout}"));
    assert!(
        study_page.3 <= 15_000,
        "the study page is {} px tall at 390 px",
        study_page.3
    );
}

/// `data/<study>.md` of the site in `site` rendered as GitHub-flavoured
/// Markdown by marked (`tests/browser/gfm.mjs`), in a 740 px column with
/// GitHub's table layout, beside the charts it links, under `dir/blog`;
/// returns the blog's directory and the rendered body.
fn post_as_blog(dir: &Path, site: &Path, study: &str) -> (PathBuf, String) {
    let md = site.join(format!("data/{study}.md"));
    let out = Command::new("node")
        .arg(checker_dir().join("gfm.mjs"))
        .arg(&md)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "gfm.mjs failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let body = String::from_utf8(out.stdout).unwrap();
    // GitHub's markdown-body, as far as layout goes: a table is a block
    // that scrolls sideways, images never wider than the column
    let post = format!(
        r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>{study}</title><style>
body {{ margin: 0 auto; max-width: 740px; padding: 0 16px; font: 16px/1.5 -apple-system, "Segoe UI", sans-serif; overflow-wrap: break-word; }}
@media (prefers-color-scheme: dark) {{ body {{ background: #0d1117; color: #f0f6fc; }} a {{ color: #4493f8; }} }}
table {{ display: block; width: max-content; max-width: 100%; overflow: auto; border-collapse: collapse; }}
th, td {{ border: 1px solid #d0d7de; padding: 6px 13px; }}
img {{ max-width: 100%; box-sizing: content-box; }}
@media print {{ :root {{ color-scheme: light; }} body {{ color: #000; background: #fff; }} }}
</style></head><body><main>
{body}</main></body></html>"#
    );
    // the post and the charts it links, without the site's other pages
    let blog = dir.join("blog");
    std::fs::create_dir_all(blog.join("data")).unwrap();
    std::fs::write(blog.join("data/post.html"), post).unwrap();
    std::fs::write(
        blog.join("index.html"),
        r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>blog</title></head><body><main><h1>blog</h1><a href="data/post.html">post</a></main></body></html>"#,
    )
    .unwrap();
    let charts = format!("charts/{study}");
    std::fs::create_dir_all(blog.join(&charts)).unwrap();
    for e in std::fs::read_dir(site.join(&charts)).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), blog.join(&charts).join(e.file_name())).unwrap();
        }
    }
    (blog, body)
}

/// Checks the post of `blog` ([`post_as_blog`]) at 740 and 390 px in both
/// schemes (no sideways scroll, its chart loads, axe-core finds nothing
/// serious) and holds it, at 740 px, to at most 8,000 px tall with its
/// first chart within 3,000 px.
fn assert_post_reads_as_a_post(blog: &Path, what: &str) {
    let (code, stdout) = check(
        blog,
        &[
            "--page",
            "data/post.html",
            "--widths",
            "740,390",
            "--measure",
            // GitHub's tables scroll without taking focus: the blog's
            // style, not something Markdown can change
            "--skip-axe-rule",
            "scrollable-region-focusable",
        ],
    );
    // the post at both widths in both schemes, and the index once
    assert_eq!(
        (code, tally(&stdout)),
        (0, (5, 0)),
        "{what}: the post fails in the browser:\n{stdout}"
    );
    let measured = measured(&stdout);
    for scheme in ["light", "dark"] {
        let m = measured
            .iter()
            .find(|m| m.0 == "data/post.html" && m.1 == 740 && m.2 == scheme)
            .unwrap_or_else(|| panic!("{what}: the post was not measured: {stdout}"));
        assert!(
            m.3 <= 8_000,
            "{what}: the post is {} px tall at 740 px ({scheme})",
            m.3
        );
        let chart =
            m.4.unwrap_or_else(|| panic!("{what}: the post has no chart"));
        assert!(
            chart <= 3_000,
            "{what}: the post's first chart is at {chart} px at 740 px ({scheme})"
        );
    }
}

/// The realistic study's post (`data/<study>.md`) as GitHub renders
/// Markdown, in a 740 px column as a blog shows it and on a 390 px phone:
/// its tables fit or scroll in their own box, its chart loads, axe-core
/// finds nothing serious, and at 740 px it is at most 8,000 px tall with
/// its first chart within 3,000 px.
#[test]
#[ignore = "system tier: needs node, `npm ci --prefix tests/browser` and Chromium"]
fn the_markdown_post_renders_as_a_post() {
    need_browser();
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    report_common::write_realistic_study(&records);
    let site = dir.path().join("site");
    build(&records, &site);
    let (blog, body) = post_as_blog(dir.path(), &site, report_common::REAL_STUDY);
    assert_post_reads_as_a_post(&blog, "the realistic study");
    assert!(body.contains("<table>") && body.contains("<img "), "{body}");
}
