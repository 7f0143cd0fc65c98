//! fio's terse (`--minimal`) output, versions 2 to 5, read into jobs.
//!
//! One semicolon-separated line per job (HOWTO, "Terse output"):
//! `terse version; [fio version (v3 on);] jobname; groupid; error`, then
//! per direction (read, write, and trim in every version but 3) the total
//! I/O in KiB, bandwidth in KiB/s, IOPS, runtime in ms, submission,
//! completion and total latency (min, max, mean, stdev, in usec) with 20
//! completion percentiles (`99.000000%=3620`, usec) between the last two,
//! and bandwidth statistics (5 fields; version 5 adds a sample count and 5
//! IOPS statistics), then CPU, I/O depth and latency buckets, and from
//! version 3 on the disk utilisation (`vda;35706;23;...;67.93%`). KiB here
//! is 1024 bytes whatever `kb_base` says.
//!
//! Several lines of one invocation (numjobs without `group_reporting`)
//! carry the same disk utilisation, which is measured once per run; lines
//! whose disk figures differ come from different runs (see
//! [`super::runs`]).

use std::collections::BTreeMap;

use super::json::pct_key;
use super::{Dir, Job};
use crate::units;

/// One terse line's fields that matter here.
#[derive(Clone, Debug)]
pub(super) struct TerseLine {
    /// `2` to `5`.
    pub(super) terse_version: String,
    /// `fio-3.33`; empty for version 2, which does not print it.
    pub(super) fio_version: String,
    pub(super) job: Job,
    /// The disk utilisation fields as printed (empty when absent).
    pub(super) disk: String,
}

/// Fields per direction, the directions printed and the header length.
fn layout(version: u32) -> Option<(usize, usize, usize)> {
    match version {
        2 => Some((41, 3, 4)),
        3 => Some((41, 2, 5)),
        4 => Some((41, 3, 5)),
        5 => Some((47, 3, 5)),
        _ => None,
    }
}

/// CPU (5), I/O depths (7), latency buckets in usec (10) and msec (12).
const AFTER_DIRS: usize = 34;

/// Reads one terse line; `None` when `t` is not one.
pub(super) fn terse_line(t: &str) -> Option<TerseLine> {
    let fields: Vec<&str> = t.split(';').collect();
    let version_text = *fields.first()?;
    let version: u32 = version_text.parse().ok()?;
    let (dir_len, dirs, head) = layout(version)?;
    let body = head + dir_len * dirs + AFTER_DIRS;
    if fields.len() < body {
        return None;
    }
    let fio_version = if version >= 3 {
        let v = *fields.get(1)?;
        if !v.starts_with("fio") {
            return None;
        }
        v.to_string()
    } else {
        String::new()
    };
    let name = fields.get(head - 3)?.to_string();
    let group: i64 = fields.get(head - 2)?.trim().parse().ok()?;
    let error: i64 = fields.get(head - 1)?.trim().parse().ok()?;
    let dir_of = |i: usize| -> Option<Option<Dir>> {
        let start = head + i * dir_len;
        terse_dir(fields.get(start..start + dir_len)?)
    };
    let read = dir_of(0)?;
    let write = dir_of(1)?;
    let disk = if version >= 3 {
        fields.get(body..).unwrap_or_default().join(";")
    } else {
        String::new()
    };
    Some(TerseLine {
        terse_version: version_text.to_string(),
        fio_version,
        job: Job {
            name,
            group,
            jobs: 1,
            read,
            write,
            error,
            part: Some(format!("{t}\n")),
            ..Job::default()
        },
        disk,
    })
}

/// One direction's fields; `Some(None)` when it did no I/O, `None` when
/// the fields are not numbers where terse output has numbers.
fn terse_dir(f: &[&str]) -> Option<Option<Dir>> {
    let n = |i: usize| -> Option<f64> {
        f.get(i)?
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
    };
    let io_kib = n(0)?;
    let bw_kib = n(1)?;
    let iops = n(2)?;
    let runtime_ms = n(3)?;
    if io_kib <= 0.0 && iops <= 0.0 {
        return Some(None);
    }
    let usec = |x: f64| units::scale(x, 1e-6);
    // gtod_reduce leaves every latency at zero: not measured
    let measured = |max: Option<f64>| max.is_some_and(|m| m > 0.0);
    let clat_measured = measured(n(9));
    let mut clat_pct = BTreeMap::new();
    if clat_measured {
        for p in f.get(12..32).unwrap_or_default() {
            let Some((k, v)) = p.split_once("%=") else {
                continue;
            };
            let (Some(key), Ok(v)) = (pct_key(k), v.trim().parse::<f64>()) else {
                continue;
            };
            if v.is_finite() {
                clat_pct.insert(key, usec(v));
            }
        }
    }
    Some(Some(Dir {
        ios: None,
        iops: Some(iops),
        bw: Some(bw_kib * 1024.0),
        io_bytes: Some(io_kib * 1024.0),
        runtime: Some(runtime_ms / 1000.0),
        lat_mean: measured(n(33)).then(|| n(34).map(usec)).flatten(),
        clat_mean: clat_measured.then(|| n(10).map(usec)).flatten(),
        clat_pct,
        clat_bins: BTreeMap::new(),
    }))
}

/// Every terse line of `text` as jobs, and the fio version they name.
pub(super) fn terse_jobs(text: &str) -> (Vec<Job>, Option<String>) {
    let mut version = None;
    let mut jobs = Vec::new();
    for line in text.lines() {
        if let Some(l) = terse_line(line.trim()) {
            if version.is_none() && !l.fio_version.is_empty() {
                version = Some(
                    l.fio_version
                        .trim_start_matches("fio-")
                        .trim_start_matches("fio ")
                        .to_string(),
                );
            }
            jobs.push(l.job);
        }
    }
    (jobs, version)
}
