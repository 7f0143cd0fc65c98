//! Property test: `report` stays within memory and time bounded by its
//! input, whatever finite values the records hold. Records with edge-valued
//! metrics and percentiles (subnormal, tiny, huge, equal, reversed) are
//! written and `diskdash report` runs on them as a child limited to 1 GiB
//! of address space and 60 s; it must finish (a site, or a refusal with a
//! message) and the site must stay small.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;

use crate::report_common::{record, write_record};

/// Address space the child may map (RLIMIT_AS).
const MEMORY_CAP: u64 = 1 << 30;

/// Wall time the child may take before it is killed.
const TIME_CAP: Duration = Duration::from_secs(60);

/// Bytes of site a handful of records may give.
const SITE_CAP: u64 = 8 << 20;

/// What a capped `report` run did.
struct Capped {
    /// Exit code; `None` when killed (by a signal, or for taking too long).
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs `diskdash report input --out site` under [`MEMORY_CAP`] and
/// [`TIME_CAP`].
fn capped_report(input: &Path, site: &Path) -> Capped {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_diskdash"));
    cmd.arg("report")
        .arg(input)
        .arg("--out")
        .arg(site)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between
    // fork and exec
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: MEMORY_CAP as libc::rlim_t,
                rlim_max: MEMORY_CAP as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn().expect("diskdash starts");
    let read_all = |mut from: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            from.read_to_string(&mut s).ok();
            s
        })
    };
    let stdout = read_all(Box::new(child.stdout.take().expect("piped stdout")));
    let stderr = read_all(Box::new(child.stderr.take().expect("piped stderr")));
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if start.elapsed() > TIME_CAP {
            child.kill().ok();
            child.wait().ok();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Capped {
        code: status.and_then(|s| s.code()),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        took: start.elapsed(),
    }
}

/// Total bytes of the files under `dir`.
fn size_of(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.metadata().map_or(0, |m| m.len()))
        .sum()
}

/// The percentiles fio reports by default, as metric name suffixes.
const PCTS: [&str; 17] = [
    "p1", "p5", "p10", "p20", "p30", "p40", "p50", "p60", "p70", "p80", "p90", "p95", "p99",
    "p99_5", "p99_9", "p99_95", "p99_99",
];

/// Writes one fio record per entry of `configs` (IOPS, bandwidth, mean
/// latency, percentiles) into `dir`, each its own offering.
fn write_records(dir: &Path, configs: &[(f64, f64, f64, Vec<f64>)]) {
    for (k, (iops, bw, mean, pcts)) in configs.iter().enumerate() {
        let mut metrics: Vec<(String, f64, &str)> = vec![
            ("read_iops".into(), *iops, "IOPS"),
            ("read_bw".into(), *bw, "B/s"),
            ("read_lat_mean".into(), *mean, "s"),
        ];
        for (name, v) in PCTS.iter().zip(pcts) {
            metrics.push((format!("read_clat_{name}"), *v, "s"));
        }
        let metrics: Vec<(&str, f64, &str)> = metrics
            .iter()
            .map(|(n, v, u)| (n.as_str(), *v, *u))
            .collect();
        let offering = format!("disk{k}");
        let rec = record(
            &format!("edge.{offering}.fio-randread-4k-qd64.r1"),
            "edge",
            "cloud",
            &offering,
            Some(0.1 * (k + 1) as f64),
            "fio-randread-4k-qd64",
            1,
            &metrics,
        );
        write_record(dir, &format!("{offering}.json"), &rec);
    }
}

/// Asserts that `report` on `configs` finishes within the caps, with a
/// site or a refusal that says why, and a small site; returns what it
/// printed, stdout then stderr.
fn assert_bounded(configs: &[(f64, f64, f64, Vec<f64>)]) -> Result<String, TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("records");
    let site = dir.path().join("site");
    write_records(&input, configs);
    let r = capped_report(&input, &site);
    prop_assert!(
        matches!(r.code, Some(0) | Some(1)),
        "report ended with {:?} after {:?} on {configs:?}: {}",
        r.code,
        r.took,
        r.stderr
    );
    prop_assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    if r.code == Some(1) {
        prop_assert!(
            r.stderr.contains("error"),
            "a refusal says why: {}",
            r.stderr
        );
    }
    let bytes = size_of(&site);
    prop_assert!(bytes < SITE_CAP, "{bytes} bytes of site for {configs:?}");
    Ok(format!("{}{}", r.stdout, r.stderr))
}

/// A positive value from a subnormal to the largest double, the edges
/// more often than their share.
fn edge() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => (-323.0f64..308.0).prop_map(|e| 10f64.powf(e)),
        1 => Just(5e-324),
        1 => Just(f64::MIN_POSITIVE),
        1 => Just(1e-9),
        1 => Just(3600.0),
        1 => Just(1e7),
        1 => Just(f64::MAX),
        1 => Just(0.0),
    ]
}

/// Percentiles: arbitrary edges, all equal, or reversed (falling).
fn percentiles() -> impl Strategy<Value = Vec<f64>> {
    prop_oneof![
        proptest::collection::vec(edge(), PCTS.len()),
        edge().prop_map(|v| vec![v; PCTS.len()]),
        proptest::collection::vec(edge(), PCTS.len()).prop_map(|mut v| {
            v.sort_by(|a, b| b.total_cmp(a));
            v
        }),
    ]
}

/// A plausible IOPS or bandwidth figure, so that the record is charted
/// (one `check` refuses is left out before any chart is drawn).
fn plausible() -> impl Strategy<Value = f64> {
    (0.0f64..7.0).prop_map(|e| 10f64.powf(e))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    // edge latencies on records that are charted
    #[test]
    fn report_on_edge_latencies_is_bounded_in_memory_time_and_size(
        configs in proptest::collection::vec((plausible(), plausible(), edge(), percentiles()), 1..4)
    ) {
        assert_bounded(&configs)?;
    }

    // every metric at an edge: charted, left out or refused, never unbounded
    #[test]
    fn report_on_edge_values_is_bounded_in_memory_time_and_size(
        configs in proptest::collection::vec((edge(), edge(), edge(), percentiles()), 1..3)
    ) {
        assert_bounded(&configs)?;
    }
}

#[test]
fn a_subnormal_p10_next_to_an_hour_at_p30_is_bounded() {
    // the record of the report that took 24 GB: p10 5e-324 s, p30 3,600 s
    let mut pcts = vec![0.0005; PCTS.len()];
    pcts[2] = 5e-324;
    pcts[4] = 3600.0;
    // a p10 of 5e-324 s is below what `check` accepts: the record is left
    // out, and with no other record the build stops, naming the directory
    let out = assert_bounded(&[(83142.0, 340551388.0, 0.00077, pcts)]).unwrap();
    assert!(
        out.contains("left out: ") && out.contains("error: no valid record under `"),
        "{out}"
    );
    // 1 ns up to p10, 10^7 s from p30 on, which `check` accepts, is
    // charted, not left out
    let mut pcts = vec![0.0005; PCTS.len()];
    pcts[..=2].fill(1e-9);
    pcts[4..].fill(1e7);
    let stdout = assert_bounded(&[(83142.0, 340551388.0, 0.00077, pcts)]).unwrap();
    assert!(stdout.contains("1 record read, 0 left out"), "{stdout}");
}
