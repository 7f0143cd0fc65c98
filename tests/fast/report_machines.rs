//! A configuration measured on several machines (`host.name`): the study
//! page, the offering page and `data/<study>.md` say on how many, show the
//! spread between machines next to the spread within one, draw a strip
//! chart and name the outlying machine with its figures; `diskdash report`
//! prints a line per host and writes `data/hosts.csv`.

use crate::report_common;
use std::path::Path;

use diskdash::record::{Record, Status};
use report_common::*;

const TEST: &str = "fio-randread-4k-qd64";

/// A run of `offering` on machine `host` at `iops` read IOPS.
fn run(id: &str, offering: &str, price: f64, host: &str, rep: u32, iops: f64) -> Record {
    let mut r = record(
        id,
        "fleet",
        "Acme",
        offering,
        Some(price),
        TEST,
        rep,
        &[("read_iops", iops, "IOPS")],
    );
    r.host.name = Some(host.to_string());
    r
}

/// `fast` (0.2 per GB) on five machines, three runs each around the
/// medians given (±30), and `cheap` (0.1) on one machine; `web-2` also has
/// a failed run.
fn write_fleet(dir: &Path, medians: [f64; 5]) {
    for (m, median) in medians.into_iter().enumerate() {
        let host = format!("web-{}", m + 1);
        for (k, d) in [-30.0, 0.0, 30.0].into_iter().enumerate() {
            let id = format!("{host}-{k}");
            let r = run(&id, "fast", 0.2, &host, k as u32 + 1, median + d);
            write_record(dir, &format!("{id}.json"), &r);
        }
    }
    let mut failed = run("web-2-failed", "fast", 0.2, "web-2", 4, 0.0);
    failed.status = Status::Failed;
    failed.error = Some("fio: io_u error".into());
    failed.metrics = Default::default();
    write_record(dir, "web-2-failed.json", &failed);
    for (k, v) in [950.0, 1000.0, 1050.0].into_iter().enumerate() {
        let id = format!("db-1-{k}");
        write_record(
            dir,
            &format!("{id}.json"),
            &run(&id, "cheap", 0.1, "db-1", k as u32 + 1, v),
        );
    }
}

/// Builds the site; returns its stderr.
fn site(input: &Path, out: &Path) -> String {
    let (ok, _, stderr) = report(&[input.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert!(ok, "report failed: {stderr}");
    stderr
}

fn read(site: &Path, path: &str) -> String {
    std::fs::read_to_string(site.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The standalone light file of the strip chart of `fast`.
fn strip_chart(site: &Path) -> String {
    let dir = site.join("charts/fleet/machines");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.contains("fast") && !f.contains("-dark") && !f.contains("-narrow"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 1, "{files:?}");
    std::fs::read_to_string(dir.join(&files[0])).unwrap()
}

#[test]
fn five_machines_with_one_40_percent_slower_name_it_with_its_figures() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("in"), dir.path().join("site"));
    write_fleet(&input, [2950.0, 3000.0, 3050.0, 1800.0, 3000.0]);
    let stderr = site(&input, &out);

    let named = "web-4: 1,800 IOPS, 40% below the others&#39; 2,950–3,050 IOPS \
                 (fio-randread-4k-qd64, read IOPS)";
    let study = read(&out, "studies/fleet.html");
    assert!(study.contains("Spread across machines"), "{study}");
    assert!(study.contains("measured on 5 machines (web-1 / web-2 / web-3 / web-4 / web-5)"));
    assert!(study.contains(&format!("Outlier: {named}.")), "{study}");
    // between the machines' medians, next to the spread within one (the
    // median of their CVs: 30 / 3,000)
    assert!(study.contains("1,800–3,050 IOPS (CV "));
    assert!(study.contains(">CV 1.0%<"));
    // the cheap configuration ran on one machine: not in the section
    let section = &study[study.find("id=\"machines\"").unwrap()..];
    let section = &section[..section.find("<h2").unwrap()];
    assert!(!section.contains("Acme cheap"));

    let offering = std::fs::read_dir(out.join("offerings/fleet"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("fast.html"))
        .unwrap();
    let offering = std::fs::read_to_string(offering).unwrap();
    assert!(offering.contains("measured on 5 machines"));
    assert!(offering.contains(&format!("Outlier: {named}.")));
    // the host table names the machines
    assert!(
        offering
            .contains("<tr><th>machine</th><td>web-1 / web-2 / web-3 / web-4 / web-5</td></tr>"),
        "{offering}"
    );

    // five machines, four dots and the outlier's mark, named so
    let svg = strip_chart(&out);
    assert_eq!(svg.matches("<circle").count(), 4, "{svg}");
    assert_eq!(svg.matches("<polygon").count(), 1);
    assert!(svg.contains(">web-4 (outlier)</text>"));
    assert!(svg.contains("web-4 (outlier): median 1,800 over 3 runs, 1,770 to 1,830"));

    let md = read(&out, "data/fleet.md");
    assert!(md.contains("## Spread across machines"), "{md}");
    assert!(
        md.contains("measured on 5 machines (web-1 / web-2 / web-3 / web-4 / web-5); 1 of 1 tests and metrics with an outlying machine."),
        "{md}"
    );
    // the outlier once, in its row of the table, not again in a paragraph
    assert!(
        md.contains(
            "| fio-randread-4k-qd64 | read IOPS | 1,800–3,050 IOPS (CV 19.5%) | web-4: 1,800 IOPS, 40% below the others' 2,950–3,050 IOPS |"
        ),
        "{md}"
    );
    assert!(!md.contains("Outlier:"), "{md}");

    // the verdict's range reaches from web-4's slowest run to the fastest
    // run of any machine: 1,770 / 1,050 / 2 = 0.84 to 3,080 / 950 / 2 = 1.62
    let value = read(&out, "data/value.csv");
    let fast = value.lines().find(|l| l.contains(",fast,")).unwrap();
    assert!(
        fast.contains(",0.843,1.621,\"worth it, uncertain: 0.84 to 1.62\","),
        "{fast}"
    );

    // a line per host on stderr, and data/hosts.csv
    assert!(
        stderr.contains(
            "host web-4 (Acme fast, study fleet): 3 ok, 0 failed; outlier on \
             fio-randread-4k-qd64 read IOPS: 1,800 IOPS, 40% below the others' 2,950–3,050 IOPS\n"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("host web-2 (Acme fast, study fleet): 3 ok, 1 failed; no outlier\n"));
    assert!(stderr.contains("host db-1 (Acme cheap, study fleet): 3 ok, 0 failed; no outlier\n"));
    assert_eq!(
        stderr.matches("\nhost ").count() + stderr.starts_with("host ") as usize,
        6
    );
    let hosts = read(&out, "data/hosts.csv");
    assert!(hosts.contains("fleet,Acme fast,web-4,3,0,0,yes,fio-randread-4k-qd64:read_iops\n"));
    assert!(
        hosts.contains("fleet,Acme fast,web-2,3,1,0,no,\n"),
        "{hosts}"
    );
}

#[test]
fn machines_that_agree_name_no_outlier_and_one_machine_adds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("in"), dir.path().join("site"));
    write_fleet(&input, [2950.0, 3000.0, 3050.0, 2980.0, 3000.0]);
    let stderr = site(&input, &out);
    let study = read(&out, "studies/fleet.html");
    assert!(study.contains("measured on 5 machines"));
    assert!(!study.contains("Outlier:"), "{study}");
    assert!(study.contains("data-label=\"outlier\">none</td>"));
    assert_eq!(strip_chart(&out).matches("<polygon").count(), 0);
    assert!(stderr.contains("host web-4 (Acme fast, study fleet): 3 ok, 0 failed; no outlier"));
    assert!(read(&out, "data/hosts.csv").contains("fleet,Acme fast,web-4,3,0,0,no,\n"));

    // every record on one machine: no section, no host lines, no hosts.csv
    let one = dir.path().join("one");
    for k in 0..3 {
        let id = format!("a-{k}");
        let r = run(&id, "fast", 0.2, "web-1", k + 1, 3000.0 + k as f64);
        write_record(&one, &format!("{id}.json"), &r);
    }
    let out = dir.path().join("site-one");
    let stderr = site(&one, &out);
    assert!(!stderr.contains("host "), "{stderr}");
    assert!(!out.join("data/hosts.csv").exists());
    assert!(!read(&out, "studies/fleet.html").contains("Spread across machines"));
}
