//! Burst detection against real throttled I/O: `diskdash run` drives real
//! fio against emulated cloud volumes (an ext4 image on a loop device whose
//! read IOPS a cgroup throttle limits, moved by a controller thread; see
//! `emulated_volume`), and the records must say what each volume did.
//!
//! - a credit bucket (burst 2,000 IOPS, baseline 200, 40,000 I/Os, full):
//!   `credit-burst`, B and S within 10%, the burst duration within 25% of
//!   what the bucket predicts;
//! - the same volume with an empty bucket: `flat` at 200;
//! - a limit toggling between 2,000 and 200 every 5 s: `periodic-burst`.
//!
//! Each runs the shipped `standard` suite's first test,
//! `fio-sustained-randread-4k-qd32`, for 2 minutes (`--only`,
//! `--sustained-minutes 2`), after the suite's incompressible pre-fill of
//! the test file. The three run at once, each with its own loop device and
//! cgroup, so the file takes about one run's time (120 s of fio plus
//! setup).
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

use diskdash::record::{Pattern, Record, Status};
use emulated_volume::{Behaviour, Volume};

const BIN: &str = env!("CARGO_BIN_EXE_diskdash");

const BURST: u64 = 2000;
const BASELINE: u64 = 200;
const BUCKET: f64 = 40_000.0;
/// Minutes of fio per scenario (`run --sustained-minutes`): the bucket
/// empties after about 22 s, and the sustained window (20% of the run)
/// then lies well after the drop.
const SUSTAINED_MINUTES: &str = "2";

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
/// returns the record of the sustained test with its file's text, the
/// volume's mount point in it replaced by `/mnt/emulated/<name>`. The
/// volume is torn down when this returns, whatever happened.
fn scenario(name: &str, behaviour: Behaviour) -> Outcome {
    let cgroup_name = format!("diskdash-emulated-{}-{name}", std::process::id());
    let mut volume = Volume::new(&cgroup_name, 512, behaviour)?;
    let work = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).map_err(|e| e.to_string())?;
    let out = work.path().join("records");
    // the shell joins the cgroup, then becomes diskdash: diskdash and the
    // fio it starts are behind the throttle from their first I/O
    let o = Command::new("sh")
        .arg("-c")
        .arg(r#"echo $$ > "$0" && exec "$@""#)
        .arg(volume.procs())
        .arg(BIN)
        .args(["run", "--target"])
        .arg(&volume.mount)
        // the shipped suite, as a user runs it, cut to its first test:
        // the pre-fill, then 4 KiB random reads at iodepth 32
        .args([
            "--suite",
            "standard",
            "--only",
            "fio-sustained-randread-4k-qd32",
        ])
        .args(["--sustained-minutes", SUSTAINED_MINUTES])
        .arg("--out")
        .arg(&out)
        .args([
            "--study",
            "emulated-volume",
            "--provider",
            "emulated",
            "--offering",
            name,
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
        .find(|(r, _)| r.test.id == "fio-sustained-randread-4k-qd32")
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

/// The per-second read IOPS of a record, for failure messages.
fn series(r: &Record) -> String {
    let v: Vec<String> = r
        .timeline
        .as_ref()
        .and_then(|t| t.read.as_ref())
        .map(|s| s.iops.iter().map(|x| format!("{x:.0}")).collect())
        .unwrap_or_default();
    v.join(" ")
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
        })
        .map(|(k, m)| format!("{k}={}", m.value))
        .collect();
    let tl = r.timeline.as_ref();
    format!(
        "status {:?} {:?}, pattern {:?}, on {:?} s, off {:?} s, {}\nread IOPS per second: {}",
        r.status,
        r.error,
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
    bad
}

#[test]
#[ignore = "system tier: needs root, loop devices, a cgroup I/O throttle, fio, mkfs.ext4 and losetup"]
fn emulated_volumes_are_classified_by_what_their_throttle_did() {
    need_requirements();
    let scenarios: [(&str, Behaviour, Check); 3] = [
        (
            "credit-burst",
            Behaviour::Bucket {
                burst: BURST,
                baseline: BASELINE,
                capacity: BUCKET,
                initial: BUCKET,
            },
            check_credit_burst,
        ),
        (
            "empty-bucket",
            Behaviour::Bucket {
                burst: BURST,
                baseline: BASELINE,
                capacity: BUCKET,
                initial: 0.0,
            },
            check_flat,
        ),
        (
            "toggling",
            Behaviour::Toggle {
                high: BURST,
                low: BASELINE,
                half_period: Duration::from_secs(5),
            },
            check_periodic,
        ),
    ];
    let results: Vec<(&str, Outcome)> = std::thread::scope(|s| {
        let handles: Vec<_> = scenarios
            .iter()
            .map(|(name, b, _)| (*name, s.spawn(move || scenario(name, *b))))
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
    for ((name, result), (_, _, check)) in results.iter().zip(&scenarios) {
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
