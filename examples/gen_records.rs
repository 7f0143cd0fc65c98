//! Synthetic records for the report benchmark: `cargo run --release
//! --example gen_records -- COUNT DIR [OFFERINGS] [SHAPE]` writes COUNT
//! records (one JSON file each) spread over OFFERINGS offerings (default 50)
//! and the twelve standard tests, repetitions counting up. Values come from a
//! fixed pseudo-random sequence, so the same arguments give the same files.
//!
//! SHAPE `small` (the default) keeps a short made-up tool output (about
//! 4 KB a record); `run` keeps real tool output from `tests/fixtures` as a
//! `diskdash run` record does (fio's JSON alone is 6.6 KB), so that records
//! weigh what real ones weigh. `timeline` makes every record a copy of one
//! of the two real records of `tests/fixtures/emulated` (a 90-second fio
//! test with its per-second timeline, one volume that bursts and one that
//! does not, 20 KB each), its levels scaled by the offering's speed: one
//! test with many timelines, as a fleet running the burst suite writes.
//! `sample` is `small` records spread as a published comparison's site is
//! (`sample-results/`, scaled up): 20 studies of 25 configurations each, one
//! test a study, repetitions counting up (10,000 records: 20 each);
//! OFFERINGS is then ignored.

// a measuring tool: it says what it wrote
#![allow(clippy::print_stdout)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use diskdash::record::{
    Host, Metric, Price, Raw, Record, Source, Status, Subject, Target, TestInfo, Tool,
};
use diskdash::units::Unit;

/// A metric a test produces: name, unit, typical value.
type MetricSpec = (&'static str, Unit, f64);

/// The standard tests and the metrics each produces.
const TESTS: [(&str, Tool, &[MetricSpec]); 12] = [
    (
        "dd-write-bulk",
        Tool::Dd,
        &[("write_bw", Unit::BytesPerSec, 200e6)],
    ),
    (
        "dd-write-128k-fdatasync",
        Tool::Dd,
        &[("write_bw", Unit::BytesPerSec, 300e6)],
    ),
    (
        "dd-write-8k-fdatasync",
        Tool::Dd,
        &[("write_bw", Unit::BytesPerSec, 250e6)],
    ),
    (
        "dd-write-128k-dsync",
        Tool::Dd,
        &[("write_bw", Unit::BytesPerSec, 60e6)],
    ),
    (
        "dd-write-8k-dsync",
        Tool::Dd,
        &[("write_bw", Unit::BytesPerSec, 8e6)],
    ),
    (
        "fio-randread-4k-qd64",
        Tool::Fio,
        &[
            ("read_iops", Unit::Iops, 20000.0),
            ("read_bw", Unit::BytesPerSec, 80e6),
            ("read_lat_mean", Unit::Seconds, 3e-3),
            ("read_clat_p50", Unit::Seconds, 2e-3),
            ("read_clat_p99", Unit::Seconds, 9e-3),
            ("read_clat_p99_9", Unit::Seconds, 20e-3),
        ],
    ),
    (
        "fio-randwrite-4k-qd64",
        Tool::Fio,
        &[
            ("write_iops", Unit::Iops, 15000.0),
            ("write_bw", Unit::BytesPerSec, 60e6),
            ("write_lat_mean", Unit::Seconds, 4e-3),
            ("write_clat_p50", Unit::Seconds, 3e-3),
            ("write_clat_p99", Unit::Seconds, 12e-3),
            ("write_clat_p99_9", Unit::Seconds, 30e-3),
        ],
    ),
    (
        "ioping-latency",
        Tool::Ioping,
        &[
            ("iops", Unit::Iops, 3000.0),
            ("bw", Unit::BytesPerSec, 12e6),
            ("lat_min", Unit::Seconds, 100e-6),
            ("lat_avg", Unit::Seconds, 300e-6),
            ("lat_max", Unit::Seconds, 900e-6),
            ("lat_mdev", Unit::Seconds, 50e-6),
        ],
    ),
    (
        "ioping-seek",
        Tool::Ioping,
        &[
            ("iops", Unit::Iops, 10000.0),
            ("bw", Unit::BytesPerSec, 40e6),
            ("lat_avg", Unit::Seconds, 100e-6),
        ],
    ),
    (
        "ioping-seq",
        Tool::Ioping,
        &[
            ("iops", Unit::Iops, 2000.0),
            ("bw", Unit::BytesPerSec, 500e6),
            ("lat_avg", Unit::Seconds, 500e-6),
        ],
    ),
    (
        "ioping-seq-cached",
        Tool::Ioping,
        &[
            ("iops", Unit::Iops, 20000.0),
            ("bw", Unit::BytesPerSec, 4e9),
            ("lat_avg", Unit::Seconds, 50e-6),
        ],
    ),
    (
        "bonnie",
        Tool::Bonnie,
        &[
            ("seq_block_write_bw", Unit::BytesPerSec, 100e6),
            ("seq_block_read_bw", Unit::BytesPerSec, 110e6),
            ("rewrite_bw", Unit::BytesPerSec, 50e6),
            ("random_seeks", Unit::OpsPerSec, 500.0),
            ("random_seeks_cpu", Unit::Percent, 5.0),
            ("seq_create", Unit::OpsPerSec, 20000.0),
        ],
    ),
];

/// What the tool of `test` printed in a real run, from the test fixtures.
fn real_output(test: &str) -> &'static str {
    match test {
        "fio-randread-4k-qd64" => include_str!("../tests/fixtures/fio/randread-4k-qd64.json"),
        "fio-randwrite-4k-qd64" => include_str!("../tests/fixtures/fio/randwrite-4k-qd64.json"),
        "ioping-latency" => include_str!("../tests/fixtures/ioping/ioping13-c5.txt"),
        "ioping-seek" => include_str!("../tests/fixtures/ioping/ioping13-R.txt"),
        "ioping-seq" => include_str!("../tests/fixtures/ioping/ioping13-RL.txt"),
        "ioping-seq-cached" => include_str!("../tests/fixtures/ioping/ioping13-RLC.txt"),
        "bonnie" => include_str!("../tests/fixtures/bonnie/2.00a-quiet.csv"),
        _ => include_str!("../tests/fixtures/dd/gnu91-write-8k-dsync.txt"),
    }
}

/// A small deterministic generator (64-bit LCG), enough for spread values.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (count, dir) = match (args.first(), args.get(1)) {
        (Some(c), Some(d)) => (
            c.parse::<usize>()
                .with_context(|| format!("COUNT `{c}` is not a number"))?,
            PathBuf::from(d),
        ),
        _ => bail!("usage: gen_records COUNT DIR [OFFERINGS] [small|run|timeline|sample]"),
    };
    let offerings: usize = match args.get(2) {
        Some(o) => o
            .parse()
            .with_context(|| format!("OFFERINGS `{o}` is not a number"))?,
        None => 50,
    };
    if offerings == 0 {
        bail!("OFFERINGS must be at least 1");
    }
    let shape = args.get(3).map_or("small", String::as_str);
    let real = match shape {
        "small" | "sample" => false,
        "run" => true,
        "timeline" => return timelines(count, &dir, offerings),
        other => bail!("SHAPE `{other}` is not `small`, `run`, `timeline` or `sample`"),
    };
    // (studies, configurations a study): `sample` spreads the records over
    // studies of one test each, the others over one study of every test
    let (studies, offerings) = if shape == "sample" {
        (20, 25)
    } else {
        (1, offerings)
    };
    let mut rng = Lcg(42);
    for i in 0..count {
        let study_no = i % studies;
        let off = i / studies % offerings;
        let (test_no, repetition) = if studies > 1 {
            (study_no % TESTS.len(), i / (studies * offerings))
        } else {
            ((i / offerings) % TESTS.len(), i / (offerings * TESTS.len()))
        };
        let repetition = repetition as u32 + 1;
        let (test, tool, metrics) = TESTS[test_no];
        // dearer offerings are faster, but not in proportion
        let speed = 1.0 + off as f64 * 0.15;
        let metrics: BTreeMap<String, Metric> = metrics
            .iter()
            .map(|(name, unit, base)| {
                let jitter = 0.9 + 0.2 * rng.next();
                let v = if unit.higher_is_better() {
                    base * speed * jitter
                } else {
                    base / speed * jitter
                };
                (name.to_string(), Metric::new(v, *unit))
            })
            .collect();
        let stdout: String = if real {
            real_output(test).to_string()
        } else {
            metrics
                .iter()
                .map(|(k, m)| format!("{k}: {} {}\n", m.value, m.unit))
                .collect::<String>()
                .repeat(8)
        };
        let study = if studies > 1 {
            format!("study-{study_no:02}")
        } else {
            "synthetic".to_string()
        };
        let id = format!("{study}.o{off:03}.{test}.r{repetition:05}");
        let source = Source::Run {
            diskdash_version: env!("CARGO_PKG_VERSION").to_string(),
        };
        let subject = subject(&study, off);
        let test = TestInfo {
            id: test.to_string(),
            suite: None,
            tool,
            tool_version: Some("synthetic-1.0".to_string()),
            parameters: parameters(test, tool),
            command: Some(format!("{} --synthetic {test}", tool.name())),
        };
        let record = Record {
            host: Host {
                cpu_model: Some("Synthetic CPU @ 2.0GHz".to_string()),
                cpu_count: Some(2),
                memory_bytes: Some(4 << 30),
                kernel: Some("6.1.0".to_string()),
                os: Some("Debian GNU/Linux 12 (bookworm)".to_string()),
                arch: Some("x86_64".to_string()),
                virtualization: Some("kvm".to_string()),
                instance_type: None,
                name: None,
                description: None,
            },
            target: Target {
                path: Some("/mnt/bench".to_string()),
                fs_type: Some("ext4".to_string()),
                mount_options: Some("rw,relatime".to_string()),
                mount_point: Some("/mnt/bench".to_string()),
                device: Some("/dev/vdb".to_string()),
                rotational: Some(false),
                scheduler: Some("none".to_string()),
                size_bytes: Some(100_000_000_000),
                free_bytes: Some(90_000_000_000),
                description: None,
                warning: None,
            },
            run_id: Some(format!("run-{repetition}")),
            repetition,
            started_at: Some(format!(
                "2026-01-{:02}T{:02}:{:02}:00Z",
                1 + repetition % 28,
                i / 60 % 24,
                i % 60
            )),
            duration_s: Some(10.0 + rng.next()),
            status: Status::Ok,
            error: None,
            metrics: metrics.into_iter().collect(),
            raw: Some(Box::new(Raw {
                stdout: Some(stdout),
                stderr: Some(String::new()),
                exit_code: Some(0),
                ..Raw::default()
            })),
            ..Record::new(id.clone(), source, subject, test)
        };
        write(&dir, off, &record)?;
    }
    println!("{count} records written to `{}`", dir.display());
    Ok(())
}

/// The `timeline` shape: COUNT copies of the emulated-volume records, the
/// bursting one on even offerings and the flat one on odd ones, each with an
/// id, configuration, repetition and scratch directory (in its command) of
/// its own, and IOPS and bandwidth (the metrics and the timeline's series
/// alike) scaled by the offering's speed.
fn timelines(count: usize, dir: &std::path::Path, offerings: usize) -> Result<()> {
    let fixtures: Vec<Record> = [
        include_str!("../tests/fixtures/emulated/credit-burst.json"),
        include_str!("../tests/fixtures/emulated/empty-bucket.json"),
    ]
    .iter()
    .map(|t| diskdash::record::from_json(t).map_err(anyhow::Error::msg))
    .collect::<Result<_>>()?;
    let mut rng = Lcg(42);
    for i in 0..count {
        let off = i % offerings;
        let repetition = (i / offerings) as u32 + 1;
        let mut record = fixtures[off % 2].clone();
        let factor = (1.0 + off as f64 * 0.15) * (0.9 + 0.2 * rng.next());
        let mut metrics = diskdash::record::Metrics::new();
        for (name, mut m) in record.metrics.iter() {
            if m.unit == Unit::Iops.as_str() || m.unit == Unit::BytesPerSec.as_str() {
                m.value *= factor;
            }
            metrics.insert(name, m);
        }
        record.metrics = metrics;
        if let Some(tl) = record.timeline.as_mut() {
            for s in [&mut tl.read, &mut tl.write].into_iter().flatten() {
                s.iops
                    .iter_mut()
                    .chain(s.bw.iter_mut())
                    .for_each(|v| *v *= factor);
            }
        }
        let id = format!("timeline.o{off:03}.r{repetition:05}");
        // each run's own scratch directory in its command, as `run` writes it
        let test = &mut record.test;
        if let Some(c) = test.command.as_mut() {
            let scratch = format!("20260101T000000Z-{i:06x}");
            *c = c
                .replace("20261201T104809Z-a79776", &scratch)
                .replace("20261201T104809Z-34011c", &scratch)
                .replace(".r1/", &format!(".r{repetition}/"));
        }
        record.id = id.clone();
        record.repetition = repetition;
        record.run_id = Some(format!("run-{repetition}"));
        record.subject = subject("timeline", off);
        write(dir, off, &record)?;
    }
    println!("{count} records written to `{}`", dir.display());
    Ok(())
}

/// The configuration of offering `off` in `study`: dearer offerings are
/// faster, but not in proportion.
fn subject(study: &str, off: usize) -> Subject {
    Subject {
        study: Some(study.to_string()),
        provider: Some(format!("Provider {}", off % 7)),
        offering: Some(format!("Volume type {off:03}")),
        region: Some("region-1".to_string()),
        size_gb: Some(100.0),
        price: Some(Price {
            per_gb_month: 0.04 + off as f64 * 0.01,
            currency: "USD".to_string(),
            note: Some("synthetic".to_string()),
        }),
        labels: BTreeMap::new(),
    }
}

/// Writes `record` as `DIR/o<off>/<id>.json`.
fn write(dir: &std::path::Path, off: usize, record: &Record) -> Result<()> {
    let mut json = serde_json::to_vec_pretty(record)?;
    json.push(b'\n');
    let path = dir
        .join(format!("o{off:03}"))
        .join(format!("{}.json", record.id));
    diskdash::fsio::write_atomic_unsynced(&path, &json)?;
    Ok(())
}

/// A test's parameters: a block size, and for dd the sync flag its id
/// names (`dd-write-bulk` is `conv=fdatasync`), as `run` records it, so
/// that no synthetic dd record is a cache trap the report leaves unjudged.
fn parameters(test: &str, tool: Tool) -> BTreeMap<String, serde_json::Value> {
    let mut p = BTreeMap::from([("bs".to_string(), serde_json::json!("4k"))]);
    if tool == Tool::Dd {
        let (key, flag) = if test.ends_with("-dsync") {
            ("oflag", "dsync")
        } else {
            ("conv", "fdatasync")
        };
        p.insert(key.to_string(), serde_json::json!(flag));
    }
    p
}
