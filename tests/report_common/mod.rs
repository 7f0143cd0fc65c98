//! Helpers shared by the `report_*` tests: records built in code, site
//! builds through the binary, and reading a site back.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use diskdash::metrics::TestKind;
use diskdash::record::{
    Host, Metric, Price, Raw, Record, Series, Source, Status, Subject, Target, TestInfo, Timeline,
    Tool,
};
use diskdash::timeline::classify;

/// The shipped sample results.
pub fn sample_results() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-results")
}

/// An `ok` record measured by `diskdash run`.
#[allow(clippy::too_many_arguments)]
pub fn record(
    id: &str,
    study: &str,
    provider: &str,
    offering: &str,
    price: Option<f64>,
    test: &str,
    repetition: u32,
    metrics: &[(&str, f64, &str)],
) -> Record {
    let source = Source::Run {
        diskdash_version: "0.1.0".to_string(),
    };
    let subject = Subject {
        study: Some(study.to_string()),
        provider: Some(provider.to_string()),
        offering: Some(offering.to_string()),
        region: Some(format!("{offering} region")),
        size_gb: Some(100.0),
        price: price.map(|p| Price {
            per_gb_month: p,
            currency: "USD".to_string(),
            note: Some(format!("{provider} list")),
        }),
        labels: BTreeMap::from([("note".to_string(), offering.to_string())]),
    };
    let mut parameters = BTreeMap::from([
        (
            "filename".to_string(),
            serde_json::Value::String(offering.to_string()),
        ),
        ("rw".to_string(), serde_json::json!("randread")),
        ("bs".to_string(), serde_json::json!(4096)),
    ]);
    // the queue depth its id names (`-qd64`), as a run records it
    if let Some(qd) = test
        .rsplit("-qd")
        .next()
        .filter(|_| test.contains("-qd"))
        .and_then(|q| q.parse::<u64>().ok())
    {
        parameters.insert("iodepth".to_string(), serde_json::json!(qd));
    }
    let test = TestInfo {
        id: test.to_string(),
        suite: None,
        tool: Tool::Fio,
        tool_version: Some("fio-3.33".to_string()),
        // a 4 KiB random-read job: its IOPS and p99 latency are judged
        parameters,
        command: Some(format!("fio --name={offering}")),
    };
    Record {
        host: Host {
            cpu_model: Some(format!("{provider} CPU")),
            description: Some(offering.to_string()),
            ..Host::default()
        },
        target: Target {
            path: Some("/mnt/test".to_string()),
            description: Some(offering.to_string()),
            ..Target::default()
        },
        run_id: Some("run-1".to_string()),
        repetition,
        started_at: Some("2026-11-30T10:00:00Z".to_string()),
        duration_s: Some(12.5),
        status: Status::Ok,
        error: None,
        metrics: metrics
            .iter()
            .map(|(n, v, u)| {
                (
                    n.to_string(),
                    Metric {
                        value: *v,
                        unit: diskdash::record::unit_name(u).expect("a canonical unit"),
                    },
                )
            })
            .collect(),
        raw: Some(Box::new(Raw {
            stdout: Some(format!("job {offering}: done")),
            stderr: Some(String::new()),
            exit_code: Some(0),
            ..Raw::default()
        })),
        ..Record::new(id.to_string(), source, subject, test)
    }
}

/// Writes `record` as pretty JSON to `dir/name`.
pub fn write_record(dir: &Path, name: &str, record: &Record) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_string_pretty(record).unwrap()).unwrap();
}

/// The build date of every test site (`SOURCE_DATE_EPOCH`), 2025-06-01
/// UTC: the catalogue's figures of 2024 are then less than a year old.
pub const BUILD_EPOCH: &str = "1748736000";

/// Runs `diskdash report` and returns (exit ok, stdout, stderr).
pub fn report(args: &[&std::ffi::OsStr]) -> (bool, String, String) {
    report_at(BUILD_EPOCH, args)
}

/// [`report`], built on `epoch` (`SOURCE_DATE_EPOCH`).
pub fn report_at(epoch: &str, args: &[&std::ffi::OsStr]) -> (bool, String, String) {
    let out = Command::cargo_bin("diskdash")
        .unwrap()
        .env("SOURCE_DATE_EPOCH", epoch)
        .arg("report")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Builds a site from `input` into `out`; panics with stderr on failure.
pub fn build(input: &Path, out: &Path) -> String {
    let (ok, stdout, stderr) = report(&[input.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert!(ok, "report failed: {stderr}");
    stdout
}

/// Every file of a site: relative path (with `/`) to bytes.
pub fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in walkdir::WalkDir::new(root).sort_by_file_name() {
        let e = e.unwrap();
        if e.file_type().is_file() {
            let rel = e.path().strip_prefix(root).unwrap();
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            out.insert(rel, std::fs::read(e.path()).unwrap());
        }
    }
    out
}

/// Providers and offerings of [`write_many_offerings`]: long names, as real
/// price lists have them, so that chart labels and table widths are tested.
pub const MANY_OFFERINGS: [(&str, &str); 14] = [
    (
        "Amazon Web Services",
        "EBS General Purpose SSD (gp3), 3000 IOPS baseline",
    ),
    (
        "Amazon Web Services",
        "EBS Provisioned IOPS SSD (io2 Block Express), 64000 IOPS",
    ),
    ("Amazon Web Services", "EBS Throughput Optimized HDD (st1)"),
    (
        "Google Cloud Platform",
        "Persistent Disk Balanced (pd-balanced), europe-west4",
    ),
    (
        "Google Cloud Platform",
        "Hyperdisk Extreme with provisioned performance",
    ),
    (
        "Microsoft Azure",
        "Premium SSD v2 managed disk, zone-redundant storage",
    ),
    (
        "Microsoft Azure",
        "Ultra Disk Storage (LRS), 160000 IOPS provisioned",
    ),
    (
        "Hetzner Online",
        "Cloud Volume (Ceph, triple-replicated) Falkenstein",
    ),
    ("OVHcloud", "Additional Disk High Speed Gen2 (NVMe-backed)"),
    (
        "DigitalOcean",
        "Block Storage Volume, Frankfurt FRA1 datacenter",
    ),
    (
        "Linode (Akamai Connected Cloud)",
        "NVMe Block Storage, Newark NJ",
    ),
    ("Scaleway", "Block Storage Low Latency 15K IOPS tier"),
    (
        "Oracle Cloud Infrastructure",
        "Block Volume Ultra High Performance (120 VPUs/GB)",
    ),
    (
        "Local hardware",
        "Samsung 990 PRO 2TB NVMe on PCIe 4.0 x4, ext4, no RAID",
    ),
];

/// Writes records for the 14 [`MANY_OFFERINGS`] of study `many-offerings`:
/// two fio tests, two repetitions each, prices spread over two orders of
/// magnitude and one offering without a price. Returns how many records.
pub fn write_many_offerings(dir: &Path) -> usize {
    let mut n = 0;
    for (i, (provider, offering)) in MANY_OFFERINGS.iter().enumerate() {
        let speed = 1.0 + i as f64 * 0.7;
        let price = (i != 7).then(|| 0.02 + 0.011 * (i * i) as f64);
        for (test, metrics) in [
            (
                "fio-randread-4k-qd64",
                [
                    ("read_iops", 3000.0 * speed, "IOPS"),
                    ("read_bw", 12e6 * speed, "B/s"),
                    ("read_clat_p50", 2e-3 / speed, "s"),
                    ("read_clat_p99", 9e-3 / speed, "s"),
                ],
            ),
            (
                "fio-randwrite-4k-qd64",
                [
                    ("write_iops", 2500.0 * speed, "IOPS"),
                    ("write_bw", 10e6 * speed, "B/s"),
                    ("write_clat_p50", 3e-3 / speed, "s"),
                    ("write_clat_p99", 12e-3 / speed, "s"),
                ],
            ),
        ] {
            for rep in 1..=2u32 {
                let jitter = 1.0 + 0.03 * rep as f64;
                let metrics: Vec<(&str, f64, &str)> = metrics
                    .iter()
                    .map(|(m, v, u)| (*m, v * jitter, *u))
                    .collect();
                let r = record(
                    &format!("many.o{i:02}.{test}.r{rep}"),
                    "many-offerings",
                    provider,
                    offering,
                    price,
                    test,
                    rep,
                    &metrics,
                );
                write_record(dir, &format!("o{i:02}/{test}.r{rep}.json"), &r);
                n += 1;
            }
        }
    }
    n
}

/// The sustained test and study of [`write_timeline_study`].
pub const TIMELINE_TEST: &str = "fio-sustained-randread-4k-qd32";
pub const TIMELINE_STUDY: &str = "bursts";
/// The header of a `--limits` list.
pub const LIMITS_HEADER: &str = "provider,offering,size_min_gb,size_max_gb,baseline_iops,baseline_iops_per_gb,burst_iops,baseline_mbps,baseline_mbps_per_gb,burst_mbps,source,as_of\n";

/// A 600 s timeline: `burst` IOPS for `burst_s` seconds, then `sustained`,
/// with a completion latency of 32 / IOPS (iodepth 32).
pub fn timeline(burst: f64, burst_s: usize, sustained: f64) -> Timeline {
    let iops: Vec<f64> = (0..600)
        .map(|i| if i < burst_s { burst } else { sustained })
        .collect();
    let mut tl = read_timeline(iops);
    if let Some(read) = tl.read.as_mut() {
        read.clat = Some(read.iops.iter().map(|v| 32.0 / v).collect());
    }
    tl
}

/// A 1 s timeline of 4 KiB random reads at these per-second IOPS
/// (bandwidth 4,096 times each), without latency, not yet classified.
pub fn read_timeline(iops: Vec<f64>) -> Timeline {
    Timeline {
        interval_s: 1.0,
        read: Some(Box::new(Series {
            bw: iops.iter().map(|v| v * 4096.0).collect(),
            clat: None,
            iops,
            lat: None,
        })),
        write: None,
        trim: None,
        logs: Default::default(),
        pattern: None,
        burst_on_s: None,
        burst_off_s: None,
    }
}

/// A record of [`TEST`] with `tl`, its metrics as `run` would classify them.
pub fn timeline_record(id: &str, provider: &str, offering: &str, mut tl: Timeline) -> Record {
    let mut r = record(
        id,
        TIMELINE_STUDY,
        provider,
        offering,
        Some(0.1),
        TIMELINE_TEST,
        1,
        &[],
    );
    r.test
        .parameters
        .insert("time_based".into(), serde_json::json!(true));
    r.metrics = classify(&mut tl, TestKind::BlockIo).into_iter().collect();
    r.timeline = Some(Box::new(tl));
    r
}

/// gp2 (credit burst, 3,000 then 300 IOPS) and gp3 (flat 3,000), 100 GB each.
pub fn write_timeline_study(dir: &Path) {
    let gp2 = timeline_record("b.gp2", "AWS", "gp2", timeline(3000.0, 200, 300.0));
    let gp3 = timeline_record("b.gp3", "AWS", "gp3", timeline(3000.0, 600, 3000.0));
    write_record(dir, "gp2.json", &gp2);
    write_record(dir, "gp3.json", &gp3);
}

/// The study of [`write_realistic_study`].
pub const REAL_STUDY: &str = "block-storage-2026";
/// Its sustained test: 45 minutes of 4 KiB random reads at QD 32.
pub const REAL_SUSTAINED: &str = "fio-sustained-randread-4k-qd32";

/// A configuration of [`REAL_CONFIGS`].
pub type RealConfig = (
    &'static str,
    &'static str,
    f64,
    &'static str,
    f64,
    Option<f64>,
);

/// The 18 configurations of [`write_realistic_study`]: provider, offering,
/// price per GB-month, currency, 4 KiB random-read IOPS at QD 32 it keeps,
/// and what it gives while a burst lasts (`None`: flat).
pub const REAL_CONFIGS: [RealConfig; 18] = [
    ("AWS", "EBS gp2 100 GB", 0.10, "USD", 300.0, Some(3000.0)),
    ("AWS", "EBS gp3 100 GB", 0.08, "USD", 3000.0, None),
    (
        "AWS",
        "EBS io2 100 GB, 16000 IOPS",
        0.125,
        "USD",
        16000.0,
        None,
    ),
    ("AWS", "EBS st1 500 GB", 0.045, "USD", 250.0, Some(1200.0)),
    (
        "Google Cloud",
        "pd-standard 100 GB",
        0.04,
        "USD",
        75.0,
        None,
    ),
    (
        "Google Cloud",
        "pd-balanced 100 GB",
        0.10,
        "USD",
        3000.0,
        None,
    ),
    ("Google Cloud", "pd-ssd 100 GB", 0.17, "USD", 6000.0, None),
    (
        "Google Cloud",
        "Hyperdisk Balanced 100 GB",
        0.06,
        "USD",
        3000.0,
        None,
    ),
    (
        "Microsoft Azure",
        "Premium SSD P10 128 GiB",
        0.148,
        "USD",
        500.0,
        Some(3500.0),
    ),
    (
        "Microsoft Azure",
        "Premium SSD P15 256 GiB",
        0.135,
        "USD",
        1100.0,
        Some(3500.0),
    ),
    (
        "Microsoft Azure",
        "Standard SSD E10 128 GiB",
        0.075,
        "USD",
        500.0,
        None,
    ),
    (
        "Microsoft Azure",
        "Premium SSD v2 100 GiB",
        0.12,
        "USD",
        3000.0,
        None,
    ),
    ("Hetzner", "Cloud Volume 100 GB", 0.044, "EUR", 7500.0, None),
    ("Hetzner", "Cloud Volume 500 GB", 0.044, "EUR", 7500.0, None),
    (
        "DigitalOcean",
        "Volumes Block Storage 100 GB",
        0.10,
        "USD",
        5000.0,
        Some(7500.0),
    ),
    (
        "Vultr",
        "Block Storage HDD 100 GB",
        0.025,
        "USD",
        400.0,
        None,
    ),
    (
        "Vultr",
        "Block Storage NVMe 100 GB",
        0.10,
        "USD",
        12000.0,
        None,
    ),
    (
        "Linode",
        "Block Storage NVMe 100 GB",
        0.10,
        "USD",
        8000.0,
        None,
    ),
];

/// A deterministic noise source in [-1, 1).
fn noise(state: &mut u64) -> f64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    ((*state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
}

/// A study as a real 2026 comparison looks: the 18 [`REAL_CONFIGS`], five
/// short fio tests of three repetitions each (every run with its own
/// scratch directory, 54 per test), and a 45-minute sustained test with
/// per-second logs (±5% noise, bursting volumes at their burst level for the
/// first 1,800 s). Returns how many records it wrote.
pub fn write_realistic_study(dir: &Path) -> usize {
    let mut n = 0;
    let mut seed = 27u64;
    let shorts: [(&str, &str, u64, u32, f64); 5] = [
        ("fio-randread-4k-qd1", "randread", 4096, 1, 0.08),
        ("fio-randread-4k-qd32", "randread", 4096, 32, 1.0),
        ("fio-randwrite-4k-qd32", "randwrite", 4096, 32, 0.8),
        ("fio-seqread-1m-qd8", "read", 1 << 20, 8, 0.05),
        ("fio-seqwrite-1m-qd8", "write", 1 << 20, 8, 0.04),
    ];
    for (i, &(provider, offering, per_gb, currency, sustained, burst)) in
        REAL_CONFIGS.iter().enumerate()
    {
        let price = Price {
            per_gb_month: per_gb,
            currency: currency.to_string(),
            note: Some(format!("{provider} list price, 2026-11")),
        };
        // short tests ran on the burst where there is one
        let level = burst.unwrap_or(sustained);
        for &(test, rw, bs, qd, scale) in &shorts {
            for rep in 1..=3u32 {
                let id = format!("real.c{i:02}.{test}.r{rep}");
                let iops = level * scale * (1.0 + 0.04 * noise(&mut seed));
                let dir_ = if rw.contains("write") {
                    "write"
                } else {
                    "read"
                };
                let bw = iops * bs as f64;
                let lat = qd as f64 / iops;
                let metrics = [
                    (format!("{dir_}_iops"), iops, "IOPS"),
                    (format!("{dir_}_bw"), bw, "B/s"),
                    (format!("{dir_}_clat_p50"), lat * 0.9, "s"),
                    (format!("{dir_}_clat_p99"), lat * 2.7, "s"),
                    (format!("{dir_}_clat_p99_9"), lat * 4.1, "s"),
                ];
                let metrics: Vec<(&str, f64, &str)> = metrics
                    .iter()
                    .map(|(m, v, u)| (m.as_str(), *v, *u))
                    .collect();
                let mut r = record(
                    &id,
                    REAL_STUDY,
                    provider,
                    offering,
                    Some(per_gb),
                    test,
                    rep,
                    &metrics,
                );
                r.subject.price = Some(price.clone());
                let scratch = format!("/mnt/bench/diskdash-scratch-{id}");
                let t = &mut r.test;
                t.parameters = BTreeMap::from([
                    ("filename".into(), serde_json::json!(scratch)),
                    ("rw".into(), serde_json::json!(rw)),
                    ("bs".into(), serde_json::json!(bs)),
                    ("iodepth".into(), serde_json::json!(qd)),
                    ("size".into(), serde_json::json!(1u64 << 30)),
                    ("ramp_time".into(), serde_json::json!(5)),
                ]);
                t.command = Some(format!(
                    "fio --name={test} --filename={scratch} --rw={rw} --bs={bs} --iodepth={qd} --size=1G --ramp_time=5 --direct=1 --ioengine=libaio --output-format=json"
                ));
                write_record(dir, &format!("c{i:02}/{test}.r{rep}.json"), &r);
                n += 1;
            }
        }
        // 45 minutes, second by second
        let iops: Vec<f64> = (0..2700)
            .map(|s| {
                let base = match burst {
                    Some(b) if s < 1800 => b,
                    _ => sustained,
                };
                base * (1.0 + 0.05 * noise(&mut seed))
            })
            .collect();
        let mut tl = read_timeline(iops);
        if let Some(read) = tl.read.as_mut() {
            read.clat = Some(read.iops.iter().map(|v| 32.0 / v).collect());
        }
        let id = format!("real.c{i:02}.sustained");
        let mut r = timeline_record(&id, provider, offering, tl);
        let subject = &mut r.subject;
        subject.study = Some(REAL_STUDY.to_string());
        subject.price = Some(price);
        let scratch = format!("/mnt/bench/diskdash-scratch-{id}");
        let t = &mut r.test;
        t.id = REAL_SUSTAINED.to_string();
        t.parameters
            .insert("filename".into(), serde_json::json!(scratch));
        t.parameters.insert("iodepth".into(), serde_json::json!(32));
        t.parameters
            .insert("runtime".into(), serde_json::json!(2700));
        t.command = Some(format!(
            "fio --name={REAL_SUSTAINED} --filename={scratch} --rw=randread --bs=4096 --iodepth=32 --time_based --runtime=2700 --write_iops_log=t --log_avg_msec=1000"
        ));
        write_record(dir, &format!("c{i:02}/sustained.json"), &r);
        n += 1;
    }
    n
}

/// `tests/fixtures/study-2026`: a study that looks like a real one (18
/// offerings in real tool formats, per-second logs, two currencies, a
/// failed and a short run), with its prices, limits and rates files.
pub fn study_2026() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/study-2026")
}

/// Imports `study_2026()` into `records` with its `make.sh` and the built
/// binary.
pub fn import_study_2026(records: &Path) {
    let out = std::process::Command::new("sh")
        .arg(study_2026().join("make.sh"))
        .arg(records)
        .arg(env!("CARGO_BIN_EXE_diskdash"))
        .output()
        .expect("sh runs make.sh");
    assert!(
        out.status.success(),
        "make.sh failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The rows of the study page's "Burst and sustained" tables (`html`:
/// `studies/<study>.html`) under a heading that starts with `heading`
/// (`fio-sustained-randread-4k-qd32 (standard)`; `""` for every table)
/// whose configuration is `configuration`, written as a Markdown table row
/// of the cells' text without the chart link: `| AWS gp2 | credit burst,
/// then a lower level | 3,000 IOPS | 300 IOPS | 3 min | 540.0 k I/Os |
/// reached | 1 run |`.
pub fn study_burst_rows(html: &str, heading: &str, configuration: &str) -> Vec<String> {
    let start = html
        .find(r#"<h2 id="burst-and-sustained">"#)
        .unwrap_or_else(|| panic!("no burst section in the study page:\n{html}"));
    let end = start
        + html[start..]
            .find("</details>")
            .expect("the burst section ends");
    let mut rows = Vec::new();
    for table in html[start..end].split("<h3>").skip(1) {
        let title = unescape(&table[..table.find("</h3>").expect("a closed heading")]);
        if !title.starts_with(heading) {
            continue;
        }
        for tr in table.split("<tr>").skip(1) {
            let tr = &tr[..tr.find("</tr>").expect("a closed row")];
            // each cell: from its opening tag's end to its closing tag
            let cells: Vec<String> = tr
                .split("<t")
                .skip(1)
                .filter_map(|c| {
                    let body = &c[c.find('>')? + 1..];
                    Some(unescape(strip_tags(&body[..body.find("</t")?]).trim()))
                })
                .collect();
            // the header row, and every other configuration's
            if tr.starts_with("<th>") || cells.first().map(String::as_str) != Some(configuration) {
                continue;
            }
            let mut row = String::from("|");
            // the last cell is the chart link
            for c in &cells[..cells.len().saturating_sub(1)] {
                if c.is_empty() {
                    row.push_str("  |");
                } else {
                    row.push_str(&format!(" {c} |"));
                }
            }
            rows.push(row);
        }
    }
    rows
}

fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for ch in s.chars() {
        match ch {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

/// Text of HTML or SVG as a reader sees it: the escapes askama and the
/// charts write undone.
pub fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}
