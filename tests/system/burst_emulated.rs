//! Burst detection against real throttled I/O: `diskdash run` drives real
//! fio against emulated cloud volumes (an ext4 image on a loop device whose
//! read IOPS a cgroup throttle limits, moved by a controller thread; see
//! `emulated_volume`), and the records must say what each volume did.
//!
//! - a credit bucket (burst 2,000 IOPS, baseline 200, 40,000 I/Os, full):
//!   `credit-burst`, B and S within 10%, the burst duration within 25% of
//!   what the bucket predicts, stopped once the level after it held
//!   (`burst-then-steady`);
//! - the same volume with an empty bucket: `flat` at 200, run to the end of
//!   its window with a longer burst not ruled out (nothing is known of it);
//! - the empty bucket again, with `--limits` saying its offering does not
//!   burst: `flat` at 200, stopped early (`flat-no-burst-possible`);
//! - a bucket that lasts about two minutes (216,000 I/Os), in a 5-minute
//!   window: still caught, with its burst and sustained levels;
//! - a bucket of 200,000 I/Os in the standard suite's own 45-minute
//!   window: burst then steady, stopped by the rule after some minutes,
//!   its record read from fio's final results whole (its output file, a
//!   status document a second, is then megabytes long);
//! - a limit toggling between 2,000 and 200 every 5 s: `periodic-burst`,
//!   run to the end of its window;
//! - writes limited to 300 IOPS: the sustained random write test finds
//!   that level, `flat`.
//!
//! Each runs tests of the shipped `standard` suite (`--only`) for at most
//! 2 minutes (`--sustained-minutes 2`; 5 for the long bucket, 45 for the
//! wide one), after the suite's incompressible pre-fill of the test file.
//! They run at once, each with its own loop device and cgroup, so the file
//! takes about the longest one's time (the wide bucket: about 7 minutes of
//! fio plus setup), and every record must say why its test stopped and
//! when.
//!
//! Needs root, the loop driver, a cgroup I/O throttle (v1 blkio or v2 io),
//! fio, mkfs.ext4 and losetup; when one is missing the test fails, naming
//! it. What needs none of them (the controller's arithmetic, the recorded
//! runs) is tested in `tests/fast/emulated_records.rs`.
//!
//! `DISKDASH_WRITE_EMULATED_FIXTURES=1` also copies the credit-burst and
//! flat records to `tests/fixtures/emulated/`.

use crate::emulated_volume;

use crate::require;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use diskdash::record::{Pattern, Record, Status, StopReason};
use emulated_volume::{Behaviour, Volume};

const BIN: &str = env!("CARGO_BIN_EXE_diskdash");

const BURST: u64 = 2000;
const BASELINE: u64 = 200;
const BUCKET: f64 = 40_000.0;
/// A bucket that lasts about two minutes at the burst level:
/// 216,000 / (2,000 - 200) = 120 s.
const LONG_BUCKET: f64 = 216_000.0;
/// The bucket of a default 45-minute window: 200,000 I/Os last about
/// 111 s at the burst level (200,000 / 1,800), and the stop rule stops the
/// test some minutes later, when fio's output file (a status document of
/// a few KiB a second) has passed the 2 MiB a record keeps of a stream.
const WIDE_BUCKET: f64 = 200_000.0;
/// The write limit of the write-throttled volume.
const WRITE_IOPS: u64 = 300;
/// The longest minutes of fio per scenario (`run --sustained-minutes`):
/// the bucket empties after about 22 s, and the sustained window (20% of
/// the run) then lies well after the drop.
const SUSTAINED_MINUTES: &str = "2";

const READ_TEST: &str = "fio-sustained-randread-4k-qd32";
const WRITE_TEST: &str = "fio-sustained-randwrite-4k-qd32";

/// A limits list in which the offering `flat` (of provider `emulated`)
/// has a baseline and no burst: an offering known not to burst.
const LIMITS_NO_BURST: &str = "provider,offering,size_min_gb,size_max_gb,baseline_iops,\
baseline_iops_per_gb,burst_iops,baseline_mbps,baseline_mbps_per_gb,burst_mbps,source,as_of\n\
emulated,flat,,,200,,,,,,the emulated volume's throttle,2026-12-01\n";

/// One emulated volume and how it is run.
struct Scenario {
    name: &'static str,
    behaviour: Behaviour,
    write_iops: Option<u64>,
    /// The sustained test whose record is checked.
    test: &'static str,
    minutes: &'static str,
    /// The text of a `--limits` file, when the run is given one.
    limits: Option<&'static str>,
    check: Check,
}

/// What a scenario's record must show: the ways it falls short.
type Check = fn(&Record) -> Vec<String>;

/// A scenario's record and its file's text, or why there is none.
type Outcome = Result<(Record, String), String>;

fn need_requirements() {
    let missing = match emulated_volume::requirements() {
        Ok(_) => Vec::new(),
        Err(missing) => vec![missing],
    };
    require::need(
        "emulated-volume burst test",
        &missing,
        "run as root with them",
    );
}

/// Builds the volume, runs the suite on it from inside its cgroup, and
/// returns the record of the scenario's sustained test with its file's
/// text, the volume's mount point in it replaced by
/// `/mnt/emulated/<name>`. The volume is torn down when this returns,
/// whatever happened.
fn scenario(sc: &Scenario) -> Outcome {
    let name = sc.name;
    let cgroup_name = format!("diskdash-emulated-{}-{name}", std::process::id());
    let mut volume = Volume::with_write_limit(&cgroup_name, 512, sc.behaviour, sc.write_iops)?;
    let work = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).map_err(|e| e.to_string())?;
    let out = work.path().join("records");
    let mut limits = Vec::new();
    if let Some(text) = sc.limits {
        let file = work.path().join("limits.csv");
        std::fs::write(&file, text).map_err(|e| e.to_string())?;
        limits = vec!["--limits".into(), file.into_os_string()];
    }
    // the offering names the limits row of a scenario that has one
    let offering = if sc.limits.is_some() { "flat" } else { name };
    // the shell joins the cgroup, then becomes diskdash: diskdash and the
    // fio it starts are behind the throttle from their first I/O
    let o = Command::new("sh")
        .env("DISKDASH_RUN_REGISTRY", crate::run_common::own_registry())
        .arg("-c")
        .arg(r#"echo $$ > "$0" && exec "$@""#)
        .arg(volume.procs())
        .arg(BIN)
        .args(["run", "--target"])
        .arg(&volume.mount)
        // the shipped suite, as a user runs it, cut to one sustained
        // test: the pre-fill, then 4 KiB random reads (or writes) at
        // iodepth 32
        .args(["--suite", "standard", "--only", sc.test])
        .args(["--sustained-minutes", sc.minutes])
        .args(&limits)
        .arg("--out")
        .arg(&out)
        .args([
            "--study",
            "emulated-volume",
            "--provider",
            "emulated",
            "--offering",
            offering,
        ])
        .output()
        .map_err(|e| format!("starting diskdash: {e}"))?;
    volume.stop()?;
    let stderr = String::from_utf8_lossy(&o.stderr);
    if o.status.code() != Some(0) {
        return Err(format!(
            "{name}: diskdash run exited {:?}: {stderr}",
            o.status
        ));
    }
    let mount = volume.mount.to_string_lossy().to_string();
    records(&out)
        .into_iter()
        .find(|(r, _)| r.test.id == sc.test)
        .map(|(r, text)| (r, text.replace(&mount, &format!("/mnt/emulated/{name}"))))
        .ok_or_else(|| format!("{name}: no record of the sustained test: {stderr}"))
}

/// Every record under `dir`, with its file's text.
fn records(dir: &Path) -> Vec<(Record, String)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .filter_map(|t| Some((serde_json::from_str(&t).ok()?, t)))
        .collect()
}

fn metric(r: &Record, name: &str) -> Option<f64> {
    r.metrics.get(name).map(|m| m.value)
}

fn pattern(r: &Record) -> Option<Pattern> {
    r.timeline.as_ref().and_then(|t| t.pattern)
}

fn within(value: Option<f64>, expected: f64, tol: f64) -> bool {
    value.is_some_and(|v| (v - expected).abs() <= tol * expected)
}

/// The per-second IOPS of a record (reads, else writes), for failure
/// messages.
fn series(r: &Record) -> String {
    let v: Vec<String> = r
        .timeline
        .as_ref()
        .and_then(|t| t.read.as_ref().or(t.write.as_ref()))
        .map(|s| s.iops.iter().map(|x| format!("{x:.0}")).collect())
        .unwrap_or_default();
    v.join(" ")
}

/// What is wrong with the record's `stop`: not `reason`, or not stopped
/// by `by_s` seconds of fio (`None`: any time).
fn check_stop(r: &Record, reason: StopReason, by_s: Option<f64>) -> Vec<String> {
    let Some(stop) = &r.stop else {
        return vec!["the record has no stop".into()];
    };
    let mut bad = Vec::new();
    if stop.reason != reason {
        bad.push(format!("stopped {:?}, not {reason:?}", stop.reason));
    }
    if let Some(by) = by_s {
        if stop.stopped_at_s > by {
            bad.push(format!("stopped at {} s, after {by} s", stop.stopped_at_s));
        }
    }
    bad
}

fn summary(r: &Record) -> String {
    let m: Vec<String> = r
        .metrics
        .iter()
        .filter(|(k, _)| {
            k.contains("burst")
                || k.contains("sustained")
                || k.starts_with("ss_")
                || *k == "read_iops"
                || *k == "write_iops"
        })
        .map(|(k, m)| format!("{k}={}", m.value))
        .collect();
    let tl = r.timeline.as_ref();
    format!(
        "status {:?} {:?}, stop {:?}, warnings {:?}, pattern {:?}, on {:?} s, off {:?} s, {}\nIOPS per second: {}",
        r.status,
        r.error,
        r.stop,
        r.warnings,
        pattern(r),
        tl.and_then(|t| t.burst_on_s),
        tl.and_then(|t| t.burst_off_s),
        m.join(" "),
        series(r)
    )
}

fn check_credit_burst(r: &Record) -> Vec<String> {
    let mut bad = Vec::new();
    if r.status != Status::Ok {
        bad.push("status is not ok".into());
    }
    if pattern(r) != Some(Pattern::CreditBurst) {
        bad.push("pattern is not credit-burst".into());
    }
    if !within(metric(r, "read_iops_burst"), BURST as f64, 0.10) {
        bad.push(format!("read_iops_burst not within 10% of {BURST}"));
    }
    if !within(metric(r, "read_iops_sustained"), BASELINE as f64, 0.10) {
        bad.push(format!("read_iops_sustained not within 10% of {BASELINE}"));
    }
    // The bucket empties when B - S I/Os a second above the refill have
    // spent it: 40,000 / (2,000 - 200) = 22.2 s after fio's first read.
    // fio's log clock starts with its I/O (the file is laid out before, with
    // writes, which spend no credits), so the detector's t_drop (the start
    // of the first second at S to stay there) is that time rounded up to
    // the next whole second: the second of the drop itself is a mix of B
    // and S and counts to the burst. The controller's 100 ms tick lets the
    // bucket overdraw by at most a tick at B (0.1 s). Well within 25%.
    let predicted = BUCKET / (BURST - BASELINE) as f64;
    if !within(metric(r, "burst_duration"), predicted, 0.25) {
        bad.push(format!("burst_duration not within 25% of {predicted:.1} s"));
    }
    // what was served above S before the drop is the bucket
    if !within(metric(r, "burst_ios"), BUCKET, 0.25) {
        bad.push(format!("burst_ios not within 25% of {BUCKET}"));
    }
    // stopped five 4 s rounds (a 2-minute window's scale) after the drop,
    // not at the end of its 120 s
    bad.extend(check_stop(r, StopReason::BurstThenSteady, Some(60.0)));
    bad
}

/// The long bucket: a burst of about two minutes in a 5-minute window.
fn check_long_burst(r: &Record) -> Vec<String> {
    let mut bad = check_bucket(r, LONG_BUCKET);
    // five 10 s rounds (a 5-minute window's scale) after the drop at
    // about 120 s: well before the window's 300 s
    bad.extend(check_stop(r, StopReason::BurstThenSteady, Some(240.0)));
    bad
}

/// What is wrong with the record of a full bucket of `bucket` I/Os: not
/// ok, not a credit burst at 2,000 then 200 IOPS, or a burst that did not
/// last about what the bucket predicts (within 25%).
fn check_bucket(r: &Record, bucket: f64) -> Vec<String> {
    let mut bad = Vec::new();
    if r.status != Status::Ok {
        bad.push(format!("status is not ok: {:?}", r.error));
    }
    if pattern(r) != Some(Pattern::CreditBurst) {
        bad.push("pattern is not credit-burst".into());
    }
    if !within(metric(r, "read_iops_burst"), BURST as f64, 0.10) {
        bad.push(format!("read_iops_burst not within 10% of {BURST}"));
    }
    if !within(metric(r, "read_iops_sustained"), BASELINE as f64, 0.10) {
        bad.push(format!("read_iops_sustained not within 10% of {BASELINE}"));
    }
    let predicted = bucket / (BURST - BASELINE) as f64;
    if !within(metric(r, "burst_duration"), predicted, 0.25) {
        bad.push(format!("burst_duration not within 25% of {predicted:.1} s"));
    }
    bad
}

/// The wide bucket in the standard suite's own 45-minute window: the
/// whole measurement kept, burst then steady, from fio's final results
/// read whole however long its output grew.
fn check_wide_bucket(r: &Record) -> Vec<String> {
    let mut bad = check_bucket(r, WIDE_BUCKET);
    // the rule's rounds at a 45-minute window's scale, long before its end
    bad.extend(check_stop(r, StopReason::BurstThenSteady, Some(1200.0)));
    // fio's own final results, whole: one document, fio's logs the timeline
    let raw = r
        .raw
        .as_ref()
        .and_then(|x| x.stdout.as_deref())
        .unwrap_or("");
    if raw.matches("\"fio version\"").count() != 1 || !raw.trim_end().ends_with('}') {
        bad.push(format!(
            "the record's output is not one whole fio document ({} bytes)",
            raw.len()
        ));
    }
    if r.timeline.as_ref().is_none_or(|t| t.logs.is_empty()) {
        bad.push("the timeline is not from fio's logs".into());
    }
    if !r.warnings.is_empty() {
        bad.push(format!("warnings {:?}", r.warnings));
    }
    bad
}

fn check_flat(r: &Record) -> Vec<String> {
    let mut bad = Vec::new();
    if r.status != Status::Ok {
        bad.push("status is not ok".into());
    }
    if pattern(r) != Some(Pattern::Flat) {
        bad.push("pattern is not flat".into());
    }
    if !within(metric(r, "read_iops_sustained"), BASELINE as f64, 0.10) {
        bad.push(format!("read_iops_sustained not within 10% of {BASELINE}"));
    }
    for name in ["read_iops_burst", "burst_duration", "burst_ios"] {
        if r.metrics.contains_key(name) {
            bad.push(format!("a flat volume has {name}"));
        }
    }
    if metric(r, "steady_state") != Some(1.0) {
        bad.push("steady state not reached at one level".into());
    }
    bad
}

/// The empty bucket, nothing known of its bursts: flat for its whole
/// window, and the record says a longer burst is not ruled out.
fn check_flat_unknown(r: &Record) -> Vec<String> {
    let mut bad = check_flat(r);
    bad.extend(check_stop(r, StopReason::WindowEnd, None));
    if !r.stop.as_ref().is_some_and(|s| s.burst_not_excluded) {
        bad.push("burst_not_excluded is not set".into());
    }
    if !r
        .warnings
        .iter()
        .any(|w| w.starts_with("burst not excluded beyond "))
    {
        bad.push("no `burst not excluded beyond` warning".into());
    }
    bad
}

/// The empty bucket of an offering known not to burst: flat, stopped at
/// the rule's minimum (16 s at a 2-minute window's scale), long before
/// its window's end.
fn check_flat_known(r: &Record) -> Vec<String> {
    let mut bad = check_flat(r);
    bad.extend(check_stop(r, StopReason::FlatNoBurstPossible, Some(40.0)));
    if !r.warnings.is_empty() {
        bad.push(format!("warnings {:?}", r.warnings));
    }
    bad
}

/// Writes limited to 300 IOPS: the sustained write test's level.
fn check_write_throttled(r: &Record) -> Vec<String> {
    let mut bad = Vec::new();
    if r.status != Status::Ok {
        bad.push("status is not ok".into());
    }
    if pattern(r) != Some(Pattern::Flat) {
        bad.push("pattern is not flat".into());
    }
    if !within(metric(r, "write_iops_sustained"), WRITE_IOPS as f64, 0.10) {
        bad.push(format!(
            "write_iops_sustained not within 10% of {WRITE_IOPS}"
        ));
    }
    if r.timeline.as_ref().is_none_or(|t| t.write.is_none()) {
        bad.push("no write series".into());
    }
    // nothing known of its bursts: the whole window
    bad.extend(check_stop(r, StopReason::WindowEnd, None));
    bad
}

fn check_periodic(r: &Record) -> Vec<String> {
    let mut bad = Vec::new();
    if r.status != Status::Ok {
        bad.push("status is not ok".into());
    }
    if pattern(r) != Some(Pattern::PeriodicBurst) {
        bad.push("pattern is not periodic-burst".into());
    }
    if !within(metric(r, "read_iops_burst"), BURST as f64, 0.10) {
        bad.push(format!("read_iops_burst not within 10% of {BURST}"));
    }
    if !within(metric(r, "read_iops_sustained"), BASELINE as f64, 0.10) {
        bad.push(format!("read_iops_sustained not within 10% of {BASELINE}"));
    }
    let tl = r.timeline.as_ref();
    for (what, v) in [
        ("burst_on_s", tl.and_then(|t| t.burst_on_s)),
        ("burst_off_s", tl.and_then(|t| t.burst_off_s)),
    ] {
        if !within(v, 5.0, 0.25) {
            bad.push(format!("{what} {v:?} not within 25% of 5 s"));
        }
    }
    // a periodic volume never stops early
    bad.extend(check_stop(r, StopReason::WindowEnd, None));
    bad
}

#[test]
#[ignore = "system tier: needs root, loop devices, a cgroup I/O throttle, fio, mkfs.ext4 and losetup"]
fn emulated_volumes_are_classified_by_what_their_throttle_did() {
    need_requirements();
    let bucket = |capacity: f64, initial: f64| Behaviour::Bucket {
        burst: BURST,
        baseline: BASELINE,
        capacity,
        initial,
    };
    let read = |name, behaviour, limits, check| Scenario {
        name,
        behaviour,
        write_iops: None,
        test: READ_TEST,
        minutes: SUSTAINED_MINUTES,
        limits,
        check,
    };
    let scenarios = [
        read(
            "credit-burst",
            bucket(BUCKET, BUCKET),
            None,
            check_credit_burst as Check,
        ),
        read(
            "empty-bucket",
            bucket(BUCKET, 0.0),
            None,
            check_flat_unknown,
        ),
        read(
            "flat-known",
            bucket(BUCKET, 0.0),
            Some(LIMITS_NO_BURST),
            check_flat_known,
        ),
        Scenario {
            minutes: "5",
            ..read(
                "long-burst",
                bucket(LONG_BUCKET, LONG_BUCKET),
                None,
                check_long_burst,
            )
        },
        Scenario {
            minutes: "45",
            ..read(
                "wide-bucket",
                bucket(WIDE_BUCKET, WIDE_BUCKET),
                None,
                check_wide_bucket,
            )
        },
        read(
            "toggling",
            Behaviour::Toggle {
                high: BURST,
                low: BASELINE,
                half_period: Duration::from_secs(5),
            },
            None,
            check_periodic,
        ),
        Scenario {
            write_iops: Some(WRITE_IOPS),
            test: WRITE_TEST,
            // reads are not what is measured: a flat, generous limit
            ..read(
                "write-throttled",
                bucket(BUCKET, 0.0),
                None,
                check_write_throttled,
            )
        },
    ];
    let results: Vec<(&str, Outcome)> = std::thread::scope(|s| {
        let handles: Vec<_> = scenarios
            .iter()
            .map(|sc| (sc.name, s.spawn(move || scenario(sc))))
            .collect();
        handles
            .into_iter()
            .map(|(name, h)| {
                (
                    name,
                    h.join()
                        .unwrap_or_else(|_| Err(format!("{name}: the scenario panicked"))),
                )
            })
            .collect()
    });

    let mut failures = Vec::new();
    for ((name, result), sc) in results.iter().zip(&scenarios) {
        let check = sc.check;
        match result {
            Err(e) => failures.push(format!("{name}: {e}")),
            Ok((r, _)) => {
                eprintln!("{name}: {}", summary(r));
                let bad = check(r);
                if !bad.is_empty() {
                    failures.push(format!("{name}: {}\n  {}", bad.join("; "), summary(r)));
                }
            }
        }
    }
    if std::env::var("DISKDASH_WRITE_EMULATED_FIXTURES").as_deref() == Ok("1")
        && failures.is_empty()
    {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/emulated");
        std::fs::create_dir_all(&dir).unwrap();
        for (name, result) in &results {
            if let (Ok((_, text)), "credit-burst" | "empty-bucket") = (result, *name) {
                std::fs::write(dir.join(format!("{name}.json")), text).unwrap();
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
