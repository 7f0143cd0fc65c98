//! The dry run's probe (`run --dry-run --probe`): a few seconds of fio on
//! the target give its speed ([`Speed`]), and each job's time is estimated
//! from it ([`estimate`]) instead of from a fixed 100 MB/s.
//!
//! The probe is one fio run of six time-based jobs of [`PROBE_JOB_S`]
//! seconds each, one after another, over one file of [`PROBE_BYTES`]:
//! sequential 1 MiB writes and reads at depth 16, 4 KiB random reads at
//! depth 32 and 1, 4 KiB random writes at depth 32, and 8 KiB writes each
//! synchronised (O_SYNC, as dd's `oflag=dsync`). Its file is laid out
//! first, so on a volume of 20 MB/s it takes about 16 s in all.

use anyhow::{bail, Context, Result};
use serde_json::Value;

use crate::record::Tool;
use crate::tools::argv::{Invocation, OutputFrom, Params};

/// Seconds each probe job runs.
pub const PROBE_JOB_S: u64 = 2;

/// The probe's file: 64 MiB, laid out before its first job.
pub const PROBE_BYTES: u64 = 64 << 20;

/// The probe's jobs: fio job name and its options.
const JOBS: [(&str, &str); 6] = [
    ("seq-write", "--rw=write --bs=1M --iodepth=16"),
    ("seq-read", "--rw=read --bs=1M --iodepth=16"),
    ("rand-read-qd32", "--rw=randread --bs=4k --iodepth=32"),
    ("rand-read-qd1", "--rw=randread --bs=4k --iodepth=1"),
    ("rand-write-qd32", "--rw=randwrite --bs=4k --iodepth=32"),
    (
        "sync-write",
        "--rw=write --bs=8k --iodepth=1 --direct=0 --sync=1 --ioengine=psync",
    ),
];

/// bonnie++'s small files created or read a second, whatever the volume
/// (`-n 256` on ext4: 8,781 to 40,084 a second at 500 IOPS, 74,977 to
/// 132,638 at 3,000); its deletes wait for the volume, at about twice its
/// random-write rate (1,038 and 1,223 a second at 500 IOPS).
const FILE_OPS_PER_S: f64 = 20_000.0;

/// What the probe measured on the target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speed {
    /// Sequential 1 MiB writes, B/s.
    pub write_bw: f64,
    /// Sequential 1 MiB reads, B/s.
    pub read_bw: f64,
    /// 4 KiB random reads at depth 32, IOPS.
    pub randread_iops: f64,
    /// 4 KiB random reads at depth 1, IOPS.
    pub randread_qd1_iops: f64,
    /// 4 KiB random writes at depth 32, IOPS.
    pub randwrite_iops: f64,
    /// 8 KiB writes each synchronised, IOPS.
    pub sync_write_iops: f64,
}

/// The probe's fio command, its file and output in `dir`.
pub fn invocation(dir: &std::path::Path) -> Invocation {
    let out = dir.join("probe.json");
    let mut args = vec![
        format!("--filename={}", dir.join("probe.dat").display()),
        format!("--size={PROBE_BYTES}"),
        "--direct=1".to_string(),
        "--ioengine=libaio".to_string(),
        "--time_based".to_string(),
        format!("--runtime={PROBE_JOB_S}"),
        "--refill_buffers".to_string(),
        "--output-format=json".to_string(),
        format!("--output={}", out.display()),
    ];
    for (name, opts) in JOBS {
        args.push(format!("--name={name}"));
        args.push("--stonewall".to_string());
        args.extend(opts.split(' ').map(str::to_string));
    }
    Invocation {
        program: "fio".into(),
        args,
        env: Vec::new(),
        output: OutputFrom::File(out),
        bytes: PROBE_BYTES,
        estimate_s: 1.0 + PROBE_BYTES as f64 / 50e6 + (JOBS.len() as u64 * PROBE_JOB_S) as f64,
        parameters: Params::new(),
        stdin: None,
    }
}

impl Speed {
    /// Reads the probe's fio JSON; an error names the job and the field
    /// that is missing or not a positive number.
    pub fn from_fio_json(text: &str) -> Result<Speed> {
        let v: Value = serde_json::from_str(text).context("the probe's fio JSON does not parse")?;
        let jobs = v
            .get("jobs")
            .and_then(Value::as_array)
            .context("the probe's fio JSON has no `jobs` array")?;
        let figure = |name: &str, dir: &str, field: &str| -> Result<f64> {
            let job = jobs
                .iter()
                .find(|j| j.get("jobname").and_then(Value::as_str) == Some(name))
                .with_context(|| format!("the probe's fio JSON has no job `{name}`"))?;
            match job
                .get(dir)
                .and_then(|d| d.get(field))
                .and_then(Value::as_f64)
            {
                Some(x) if x.is_finite() && x > 0.0 => Ok(x),
                Some(x) => {
                    bail!("probe job `{name}`: {dir}.{field} is {x}, expected a number above 0")
                }
                None => bail!("probe job `{name}`: {dir}.{field} is missing"),
            }
        };
        Ok(Speed {
            write_bw: figure("seq-write", "write", "bw_bytes")?,
            read_bw: figure("seq-read", "read", "bw_bytes")?,
            randread_iops: figure("rand-read-qd32", "read", "iops")?,
            randread_qd1_iops: figure("rand-read-qd1", "read", "iops")?,
            randwrite_iops: figure("rand-write-qd32", "write", "iops")?,
            sync_write_iops: figure("sync-write", "write", "iops")?,
        })
    }

    /// One line for the dry run.
    pub fn describe(&self) -> String {
        use crate::format::value;
        use crate::units::Unit;
        format!(
            "writes {}, reads {}, 4 KiB random reads {} (depth 32) and {} (depth 1), \
             random writes {}, synchronised 8 KiB writes {}",
            value(self.write_bw, Unit::BytesPerSec),
            value(self.read_bw, Unit::BytesPerSec),
            value(self.randread_iops, Unit::Iops),
            value(self.randread_qd1_iops, Unit::Iops),
            value(self.randwrite_iops, Unit::Iops),
            value(self.sync_write_iops, Unit::Iops),
        )
    }

    /// IOPS of random I/O of `bs` bytes at depth `depth` (iodepth ×
    /// numjobs): up to depth 32 the depth-1 rate times the depth, at most
    /// the depth-32 rate; blocks of 128 KiB and more at the sequential
    /// bandwidth.
    fn random_iops(&self, write: bool, bs: f64, depth: f64) -> f64 {
        let (at32, bw) = if write {
            (self.randwrite_iops, self.write_bw)
        } else {
            (self.randread_iops, self.read_bw)
        };
        // writes at depth 1 are not probed: as reads, in the same ratio
        let at1 = self.randread_qd1_iops * at32 / self.randread_iops;
        let iops = (at1 * depth.max(1.0)).min(at32);
        if bs >= 128.0 * 1024.0 {
            bw / bs
        } else {
            // a 4 KiB rate, for blocks up to 128 KiB, capped by the bandwidth
            iops.min(bw / bs)
        }
    }
}

fn number(p: &Params, key: &str) -> Option<f64> {
    match p.get(key)? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        _ => None,
    }
}

fn text<'a>(p: &'a Params, key: &str) -> &'a str {
    p.get(key).and_then(Value::as_str).unwrap_or("")
}

/// Seconds a job with `inv` of `tool` takes on a volume of `speed`: its
/// I/O time (what it moves over the rate the probe measured for that kind
/// of I/O, or its runtime when time-based or shorter), plus fio's laying
/// out of its file (none for a test of the pre-filled file,
/// `prefilled`), plus a second of start-up.
pub fn estimate(tool: Tool, inv: &Invocation, speed: &Speed, prefilled: bool) -> f64 {
    let p = &inv.parameters;
    match tool {
        Tool::Dd => {
            let bytes = number(p, "bytes").unwrap_or(inv.bytes as f64);
            let bs = number(p, "bs").unwrap_or(512.0);
            let blocks = (bytes / bs).max(1.0);
            // `oflag=dsync` or `oflag=sync` synchronise every block;
            // `conv=fdatasync` once at the end
            let synced = text(p, "oflag")
                .split(',')
                .any(|f| f == "dsync" || f == "sync");
            if synced {
                // one synchronised write per block
                0.5 + blocks / speed.sync_write_iops + bytes / speed.write_bw
            } else {
                0.5 + bytes / speed.write_bw
            }
        }
        Tool::Fio => {
            let size = number(p, "size").unwrap_or(inv.bytes as f64);
            let rw = text(p, "rw");
            let read_share = match rw {
                "read" | "randread" => 1.0,
                "write" | "randwrite" | "trim" | "randtrim" => 0.0,
                _ => number(p, "rwmixread").unwrap_or(50.0) / 100.0,
            };
            // fio writes a file out before reading it; one it only
            // writes it allocates
            let layout = if prefilled || read_share == 0.0 {
                0.0
            } else {
                size / speed.write_bw
            };
            let runtime = number(p, "runtime");
            let time_based = number(p, "time_based").is_some_and(|t| t > 0.0);
            if let (true, Some(r)) = (time_based, runtime) {
                return 1.0 + layout + r;
            }
            let bs = number(p, "bs").unwrap_or(4096.0);
            let depth = number(p, "iodepth").unwrap_or(1.0) * number(p, "numjobs").unwrap_or(1.0);
            let moved = number(p, "io_size").unwrap_or(size) * number(p, "numjobs").unwrap_or(1.0);
            let random = rw.starts_with("rand");
            let rate = |write: bool| {
                if random {
                    speed.random_iops(write, bs, depth) * bs
                } else if write {
                    speed.write_bw
                } else {
                    speed.read_bw
                }
            };
            let io = moved * read_share / rate(false) + moved * (1.0 - read_share) / rate(true);
            let io = runtime.map_or(io, |r| io.min(r));
            1.0 + layout + io
        }
        Tool::Bonnie => {
            // block write, rewrite (read and write) and block read over its
            // file, and the per-character write and read unless in fast
            // mode (`-f`); then its small files (`-n` thousands) created
            // and read twice each at FILE_OPS_PER_S, and deleted twice at
            // twice the random-write rate
            let size = number(p, "file_size").unwrap_or(inv.bytes as f64);
            let each = if number(p, "skip_char_tests") == Some(1.0) {
                2.0
            } else {
                3.0
            };
            let passes = each * size / speed.write_bw + each * size / speed.read_bw;
            let files = number(p, "num_files").unwrap_or(16.0) * 1024.0;
            5.0 + passes + files * (4.0 / FILE_OPS_PER_S + 1.0 / speed.randwrite_iops)
        }
        // a count of requests at an interval: the volume's speed decides little
        Tool::Ioping => inv.estimate_s,
    }
}

/// Runs the probe in `dir` (a job directory of the run's scratch) with
/// `executor`; the speed, or why there is none, in words.
pub fn run(
    executor: &mut dyn super::exec::Executor,
    dir: &std::path::Path,
) -> std::result::Result<Speed, String> {
    let inv = invocation(dir);
    if !executor.available(&inv.program) {
        return Err("fio is not installed".into());
    }
    let o = executor
        .run(
            "probe",
            &inv,
            dir,
            std::time::Duration::from_secs(PROBE_TIMEOUT_S),
        )
        .map_err(|e| format!("fio could not start: {e:#}"))?;
    if o.timed_out {
        return Err(format!("fio ran past {PROBE_TIMEOUT_S} s and was stopped"));
    }
    if o.exit_code != Some(0) {
        let last = o
            .stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(format!("fio exited with {:?}: {last}", o.exit_code));
    }
    let text = o.output_file.as_deref().ok_or("fio wrote no output file")?;
    Speed::from_fio_json(text).map_err(|e| format!("{e:#}"))
}

/// The most the probe may take, laying its file out on a slow volume
/// included: then it is stopped and the dry run estimates without it.
pub const PROBE_TIMEOUT_S: u64 = 120;

#[cfg(test)]
mod tests {
    use super::*;

    /// fio 3.33 JSON of the probe on a loop volume, cut to the fields read.
    fn json(write_bw: f64, iops: f64) -> String {
        let job = |name: &str, dir: &str, bw: f64, iops: f64| {
            format!(r#"{{"jobname":"{name}","{dir}":{{"bw_bytes":{bw},"iops":{iops}}}}}"#)
        };
        format!(
            r#"{{"fio version":"fio-3.33","jobs":[{},{},{},{},{},{}]}}"#,
            job("seq-write", "write", write_bw, write_bw / 1048576.0),
            job(
                "seq-read",
                "read",
                2.0 * write_bw,
                2.0 * write_bw / 1048576.0
            ),
            job("rand-read-qd32", "read", iops * 4096.0, iops),
            job("rand-read-qd1", "read", iops * 128.0, iops / 32.0),
            job("rand-write-qd32", "write", iops * 2048.0, iops / 2.0),
            job("sync-write", "write", 8192.0 * 100.0, 100.0),
        )
    }

    #[test]
    fn the_probe_gives_each_kind_of_io_its_rate() {
        let s = Speed::from_fio_json(&json(100e6, 8000.0)).unwrap();
        assert_eq!(s.write_bw, 100e6);
        assert_eq!(s.read_bw, 200e6);
        assert_eq!(s.randread_iops, 8000.0);
        assert_eq!(s.randread_qd1_iops, 250.0);
        assert_eq!(s.randwrite_iops, 4000.0);
        assert_eq!(s.sync_write_iops, 100.0);
        // a job missing or a rate of 0 is an error naming them
        let e = Speed::from_fio_json(&json(100e6, 8000.0).replace("sync-write", "x")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the probe's fio JSON has no job `sync-write`"
        );
        let e = Speed::from_fio_json(&json(0.0, 8000.0)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "probe job `seq-write`: write.bw_bytes is 0, expected a number above 0"
        );
        assert!(Speed::from_fio_json("fio: no such file").is_err());
    }

    #[test]
    fn each_test_counts_its_io_at_the_measured_rate() {
        let s = Speed::from_fio_json(&json(100e6, 8000.0)).unwrap();
        let plan = |toml: &str| {
            let suite = crate::run::plan::parse_suite(toml, "s").unwrap();
            let machine = crate::run::plan::Machine {
                memory_bytes: Some(1 << 30),
                is_root: false,
                free_bytes: Some(100 << 30),
            };
            let p = crate::run::plan::plan(
                &suite,
                &Default::default(),
                std::path::Path::new("/s"),
                &machine,
            )
            .unwrap();
            let j = &p.jobs[0];
            estimate(j.tool, &j.invocation, &s, false)
        };
        let close = |a: f64, b: f64| (a - b).abs() < 0.01 * b;
        // 2 GiB (2xRAM) at 100 MB/s
        let t = plan("[[test]]\nid='d'\ntool='dd'\nbs='1M'\nsize='2xRAM'\nconv='fdatasync'");
        assert!(close(t, 0.5 + 2147483648.0 / 100e6), "{t}");
        // 16k synchronised 8 KiB writes at 100 a second
        let t = plan("[[test]]\nid='d'\ntool='dd'\nbs='8k'\ncount='16k'\noflag='dsync'");
        assert!(
            close(t, 0.5 + 16384.0 / 100.0 + 16384.0 * 8192.0 / 100e6),
            "{t}"
        );
        // 1 GiB laid out at 100 MB/s, then read at 8,000 IOPS of 4 KiB
        let t = plan("[[test]]\nid='f'\ntool='fio'\nrw='randread'\nbs='4k'\niodepth=64\nsize='1G'");
        let gib = 1073741824.0;
        assert!(close(t, 1.0 + gib / 100e6 + gib / (8000.0 * 4096.0)), "{t}");
        // at depth 1, 250 IOPS; a runtime bounds it
        let t = plan(
            "[[test]]\nid='f'\ntool='fio'\nrw='randread'\nbs='4k'\niodepth=1\nsize='1G'\nruntime=60",
        );
        assert!(close(t, 1.0 + gib / 100e6 + 60.0), "{t}");
        // time-based: its runtime, after the layout
        let t = plan(
            "[[test]]\nid='f'\ntool='fio'\nrw='read'\nbs='1m'\nsize='1G'\ntime_based=true\nruntime=600",
        );
        assert!(close(t, 1.0 + gib / 100e6 + 600.0), "{t}");
        // bonnie++ over 2xRAM: three passes written, three read, and its files
        let t = plan("[[test]]\ntool='bonnie++'\nid='b'\nsize='2xRAM'\nfiles='16'");
        let two = 2.0 * gib;
        assert!(
            close(
                t,
                5.0 + 3.0 * two / 100e6 + 3.0 * two / 200e6 + 16384.0 * (4.0 / 20e3 + 1.0 / 4000.0)
            ),
            "{t}"
        );
        // in fast mode (-f) two of each: no per-character write and read
        let t = plan("[[test]]\ntool='bonnie++'\nid='b'\nsize='2xRAM'\nfiles='16'\nfast=true");
        assert!(
            close(
                t,
                5.0 + 2.0 * two / 100e6 + 2.0 * two / 200e6 + 16384.0 * (4.0 / 20e3 + 1.0 / 4000.0)
            ),
            "{t}"
        );
    }
}
