//! The dry run's estimate from the probe (`run --dry-run --probe`) against
//! the real duration of the same suite, on a slow and a fast emulated
//! volume (`emulated_volume.rs`: a loop device behind a cgroup throttle,
//! here on reads and writes, IOPS and bandwidth).

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::emulated_volume::{self, Behaviour, Volume};
use crate::require;
use crate::run_common::BIN;

/// A small suite of every kind of I/O the estimate counts: fio random
/// reads and writes (size-bound), a sequential read, dd written in bulk
/// and block by block synchronised; its sizes times `scale`, so that a
/// fast volume's run is long enough that a second's noise of a busy
/// machine (tool start-up, another tenant's I/O) is no quarter of it.
fn suite_text(scale: u64) -> String {
    format!(
        r#"
name = "estimate"
repeat = 1

[[test]]
id = "fio-randread-4k-qd16"
tool = "fio"
rw = "randread"
bs = "4k"
iodepth = 16
ioengine = "libaio"
direct = 1
size = "{}M"

[[test]]
id = "fio-randwrite-4k-qd16"
tool = "fio"
rw = "randwrite"
bs = "4k"
iodepth = 16
ioengine = "libaio"
direct = 1
size = "{}M"

[[test]]
id = "fio-read-1m-qd8"
tool = "fio"
rw = "read"
bs = "1m"
iodepth = 8
ioengine = "libaio"
direct = 1
size = "{}M"

[[test]]
id = "dd-write-bulk"
tool = "dd"
bs = "1M"
size = "{}M"
conv = "fdatasync"

[[test]]
id = "dd-write-8k-dsync"
tool = "dd"
bs = "8k"
count = "{}"
oflag = "dsync"
"#,
        48 * scale,
        48 * scale,
        160 * scale,
        128 * scale,
        400 * scale
    )
}

/// Runs diskdash `args` inside the volume's cgroup (the shell joins it,
/// then becomes diskdash), returning its output and wall time.
fn in_volume(volume: &Volume, args: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let o = Command::new("sh")
        .env("DISKDASH_RUN_REGISTRY", crate::run_common::own_registry())
        .arg("-c")
        .arg(r#"echo $$ > "$0" && exec "$@""#)
        .arg(volume.procs())
        .arg(BIN)
        .args(args)
        .output()
        .unwrap();
    (o, start.elapsed())
}

/// Sets the volume's write limits and its read bandwidth (the controller
/// holds its read IOPS), through the cgroup files of its flavour.
fn limit(cgroup: &str, mount: &Path, iops: u64, bytes_per_s: u64) {
    use std::os::unix::fs::MetadataExt;
    let dev = std::fs::metadata(mount).unwrap().dev();
    let majmin = format!("{}:{}", libc::major(dev), libc::minor(dev));
    let v1 = Path::new("/sys/fs/cgroup/blkio").join(cgroup);
    if v1.exists() {
        for (file, value) in [
            ("blkio.throttle.write_iops_device", iops),
            ("blkio.throttle.read_bps_device", bytes_per_s),
            ("blkio.throttle.write_bps_device", bytes_per_s),
        ] {
            std::fs::write(v1.join(file), format!("{majmin} {value}")).unwrap();
        }
    } else {
        let v2 = ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"]
            .iter()
            .map(|r| Path::new(r).join(cgroup))
            .find(|p| p.exists())
            .expect("the volume's cgroup");
        std::fs::write(
            v2.join("io.max"),
            format!("{majmin} wiops={iops} rbps={bytes_per_s} wbps={bytes_per_s}"),
        )
        .unwrap();
    }
}

/// The estimate the dry run prints and the real run's wall time, on a
/// volume of `iops` (reads and writes) and `bytes_per_s`.
fn estimate_and_real(name: &str, iops: u64, bytes_per_s: u64, scale: u64) -> (f64, f64, String) {
    let cgroup = format!("diskdash-estimate-{}-{name}", std::process::id());
    let flat = Behaviour::Bucket {
        burst: iops,
        baseline: iops,
        capacity: 1.0,
        initial: 1.0,
    };
    let mut volume = Volume::with_write_limit(&cgroup, 1024, flat, None).unwrap();
    limit(&cgroup, &volume.mount, iops, bytes_per_s);
    let work = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let suite = work.path().join("estimate.toml");
    std::fs::write(&suite, suite_text(scale)).unwrap();
    let target = volume.mount.to_str().unwrap().to_string();
    let (dry, _) = in_volume(
        &volume,
        &[
            "run",
            "--target",
            &target,
            "--suite",
            suite.to_str().unwrap(),
            "--dry-run",
            "--probe",
        ],
    );
    let dry_out = String::from_utf8_lossy(&dry.stdout).into_owned();
    assert_eq!(
        dry.status.code(),
        Some(0),
        "{dry_out}{}",
        String::from_utf8_lossy(&dry.stderr)
    );
    let line = dry_out
        .lines()
        .find(|l| l.starts_with("estimated duration: "))
        .unwrap_or_else(|| panic!("no estimate from a probe: {dry_out}"));
    let clock = line["estimated duration: ".len()..]
        .split(',')
        .next()
        .unwrap();
    let estimate = clock
        .split(':')
        .fold(0.0, |acc, part| acc * 60.0 + part.parse::<f64>().unwrap());
    let out = work.path().join("records");
    let (real, took) = in_volume(
        &volume,
        &[
            "run",
            "--target",
            &target,
            "--suite",
            suite.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    volume.stop().unwrap();
    assert_eq!(
        real.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&real.stderr)
    );
    (estimate, took.as_secs_f64(), dry_out)
}

#[test]
#[ignore = "system tier: needs root, fio, loop devices and a cgroup I/O throttle"]
fn the_probes_estimate_is_within_a_quarter_of_the_real_duration_on_a_slow_and_a_fast_volume() {
    let missing = match emulated_volume::requirements() {
        Ok(_) => Vec::new(),
        Err(m) => vec![m],
    };
    require::need("estimate test", &missing, "run as root with them");
    // slow: 500 IOPS and 20 MB/s; fast: 5,000 IOPS and 200 MB/s, with
    // four times the I/O (a run of about 40 s rather than 10)
    for (name, iops, bw, scale) in [("slow", 500, 20_000_000, 1), ("fast", 5000, 200_000_000, 4)] {
        let (estimate, real, dry) = estimate_and_real(name, iops, bw, scale);
        eprintln!("{name}: estimate {estimate:.0} s, real {real:.1} s");
        let off = (estimate - real).abs() / real;
        assert!(
            off <= 0.25,
            "{name} volume: estimated {estimate} s, took {real:.1} s ({:.0}% off)\n{dry}",
            off * 100.0
        );
    }
}
