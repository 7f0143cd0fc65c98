//! The emulated volume's pieces that need no root, and the records it
//! made: the controller reads both cgroup formats and keeps an empty
//! bucket at the baseline, and the real records in
//! `tests/fixtures/emulated/` (made by `tests/system/burst_emulated.rs`)
//! still classify as they did.

use std::path::Path;

use crate::emulated_volume;
use diskdash::record::{Pattern, Record};

const BUCKET: f64 = 40_000.0;

fn metric(r: &Record, name: &str) -> Option<f64> {
    r.metrics.get(name).map(|m| m.value)
}

fn within(value: Option<f64>, expected: f64, tol: f64) -> bool {
    value.is_some_and(|v| (v - expected).abs() <= tol * expected)
}

#[test]
fn the_controller_reads_both_cgroup_formats_and_keeps_an_empty_bucket_at_the_baseline() {
    // v1 blkio.throttle.io_serviced and v2 io.stat, as the kernel prints them
    let v1 =
        "7:1 Read 10\n7:0 Read 1234\n7:0 Write 77\n7:0 Sync 1311\n7:0 Total 1311\nTotal 1321\n";
    assert_eq!(emulated_volume::parse_reads(v1, "7:0", true), 1234);
    assert_eq!(emulated_volume::parse_reads(v1, "7:2", true), 0);
    let v2 = "7:1 rbytes=4096 wbytes=0 rios=1 wios=0 dbytes=0 dios=0\n\
              7:0 rbytes=5054464 wbytes=8192 rios=1234 wios=2 dbytes=0 dios=0\n";
    assert_eq!(emulated_volume::parse_reads(v2, "7:0", false), 1234);
    assert_eq!(emulated_volume::parse_reads("", "7:0", false), 0);
    // a full bucket bursts; an empty one stays at the baseline until a
    // tenth of it is earned back, and a burst runs until the bucket is dry
    let step = |c, b| emulated_volume::bucket_step(c, b, 2000, 200, 40_000.0);
    assert_eq!(step(40_000.0, true), (2000, true));
    assert_eq!(step(-5.0, true), (200, false));
    assert_eq!(step(3_999.0, false), (200, false));
    assert_eq!(step(4_000.0, false), (2000, true));
    assert_eq!(step(1.0, true), (2000, true));
}

#[test]
fn the_recorded_emulated_runs_still_classify_as_they_did() {
    // the fixtures are real records of the first two scenarios (see
    // tests/fixtures/emulated/README.md): the detector, run again on their
    // timelines, must find what the volumes did, without root
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/emulated");
    let read = |name: &str| -> Record {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let again = |r: &Record| {
        let mut tl = r.timeline.clone().unwrap();
        tl.pattern = None;
        let kind = diskdash::tools::judge(r.test.tool).kind(&r.test.parameters);
        let m = diskdash::timeline::classify(&mut tl, kind);
        let m: std::collections::BTreeMap<String, f64> =
            m.into_iter().map(|(k, v)| (k, v.value)).collect();
        (tl.pattern, m)
    };

    let burst = read("credit-burst.json");
    let (p, m) = again(&burst);
    assert_eq!(p, Some(Pattern::CreditBurst));
    assert_eq!(m.get("read_iops_burst"), Some(&2000.0));
    assert_eq!(m.get("read_iops_sustained"), Some(&200.0));
    // 40,000 / 1,800 = 22.2 s; the mixed second 22-23 counts to the burst
    assert_eq!(m.get("burst_duration"), Some(&23.0));
    assert!(within(m.get("burst_ios").copied(), BUCKET, 0.02), "{m:?}");
    assert_eq!(m.get("steady_state"), Some(&1.0));
    // and it is what the run recorded
    for (k, v) in &m {
        assert_eq!(metric(&burst, k), Some(*v), "{k}");
    }

    let flat = read("empty-bucket.json");
    let (p, m) = again(&flat);
    assert_eq!(p, Some(Pattern::Flat));
    assert_eq!(m.get("read_iops_sustained"), Some(&200.0));
    assert!(!m.contains_key("read_iops_burst") && !m.contains_key("burst_duration"));
    for (k, v) in &m {
        assert_eq!(metric(&flat, k), Some(*v), "{k}");
    }
}

/// The first second at which the stop rule, asked once a second as the
/// watcher asks it, stops `series` in a window of `window_s`, and why.
fn first_stop(
    series: &[f64],
    window_s: f64,
    b: &diskdash::timeline::stop::Bursting,
) -> Option<(usize, diskdash::record::StopReason)> {
    (1..=series.len()).find_map(|n| {
        diskdash::timeline::stop::should_stop(&series[..n], 1.0, window_s, b).map(|r| (n, r))
    })
}

#[test]
fn the_stop_rule_ends_the_recorded_emulated_runs_as_soon_as_their_answer_is_known() {
    use diskdash::record::StopReason;
    use diskdash::timeline::stop::Bursting;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/emulated");
    let iops = |name: &str| -> Vec<f64> {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let r: Record = serde_json::from_str(&text).unwrap();
        r.timeline.unwrap().read.unwrap().iops
    };
    let burst = iops("credit-burst.json");
    let flat = iops("empty-bucket.json");
    assert_eq!((burst.len(), flat.len()), (90, 90));
    // 2,000 IOPS for 23 s, then 200: stopped once five 3 s rounds (the
    // detector's 60 s at a 90 s window's scale) of 200 followed the drop,
    // whatever is known of the volume
    for b in [Bursting::Unknown, Bursting::Levels(vec![2000.0])] {
        let (at, why) = first_stop(&burst, 90.0, &b).expect("stopped");
        assert_eq!(why, StopReason::BurstThenSteady);
        assert!((38..=45).contains(&at), "stopped at {at} s");
        // what the record of the stopped run holds is classified as the
        // whole run was: the burst, its length and the level after it
        let d = diskdash::timeline::detect(&burst[..at], 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::CreditBurst);
        assert!(within(d.burst, 2000.0, 0.10), "{:?}", d.burst);
        assert!(within(Some(d.sustained), 200.0, 0.10), "{}", d.sustained);
        assert_eq!(d.burst_duration_s, Some(23.0));
    }
    // the empty bucket: flat at 200 from the start
    assert_eq!(
        first_stop(&flat, 90.0, &Bursting::Never),
        Some((15, StopReason::FlatNoBurstPossible))
    );
    // 200 is no burst level of a list that knows 2,000: the same
    assert_eq!(
        first_stop(&flat, 90.0, &Bursting::Levels(vec![2000.0])),
        Some((15, StopReason::FlatNoBurstPossible))
    );
    // at a known burst level, or with nothing known, it runs the window
    assert_eq!(
        first_stop(&flat, 90.0, &Bursting::Levels(vec![200.0])),
        None
    );
    assert_eq!(first_stop(&flat, 90.0, &Bursting::Unknown), None);
}
