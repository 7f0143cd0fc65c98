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

use super::{Dir, Job};
use crate::tools::number::{from_text, percentile, BadNumber};
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
    /// The first figure of the line that is not a number >= 0; the job
    /// then holds no directions.
    pub(super) bad: Option<BadNumber>,
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
    let dir_of = |i: usize| -> Result<Option<Dir>, BadNumber> {
        let start = head + i * dir_len;
        let word = if i == 0 { "read" } else { "write" };
        let at = |k: usize| {
            format!(
                "field {} ({word} {}) of the terse line of job `{name}`",
                start + k + 1,
                FIELD_NAMES.get(k).copied().unwrap_or("figure")
            )
        };
        terse_dir(fields.get(start..start + dir_len).unwrap_or_default(), &at)
    };
    let (read, write, bad) = match (dir_of(0), dir_of(1)) {
        (Ok(r), Ok(w)) => (r, w, None),
        (Err(e), _) | (_, Err(e)) => (None, None, Some(e)),
    };
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
        bad,
    })
}

/// What the first fields of a direction are, as errors name them.
const FIELD_NAMES: [&str; 11] = [
    "I/O in KiB",
    "bandwidth in KiB/s",
    "IOPS",
    "runtime in ms",
    "slat min",
    "slat max",
    "slat mean",
    "slat stdev",
    "clat min",
    "clat max",
    "clat mean",
];

/// One direction's fields; `None` when it did no I/O; an error naming the
/// field (`at` of its index) whose text is not a number >= 0 where terse
/// output has one.
fn terse_dir(f: &[&str], at: &dyn Fn(usize) -> String) -> Result<Option<Dir>, BadNumber> {
    let n = |i: usize| -> Result<f64, BadNumber> {
        let text = f.get(i).copied().unwrap_or_default();
        from_text(&at(i), text, |t| t.trim().parse::<f64>().ok())
    };
    let io_kib = n(0)?;
    let bw_kib = n(1)?;
    let iops = n(2)?;
    let runtime_ms = n(3)?;
    let (clat_max, clat_mean) = (n(9)?, n(10)?);
    let (lat_max, lat_mean) = (n(33)?, n(34)?);
    let mut pcts = Vec::new();
    for (k, p) in f.get(12..32).unwrap_or_default().iter().enumerate() {
        let Some((key, v)) = p.split_once("%=") else {
            continue;
        };
        let Some(key) = percentile(&format!("{} (a clat percentile)", at(12 + k)), key)? else {
            continue;
        };
        let field = format!("{} (clat percentile {})", at(12 + k), p.trim());
        pcts.push((key, from_text(&field, v, |t| t.trim().parse::<f64>().ok())?));
    }
    if io_kib <= 0.0 && iops <= 0.0 {
        return Ok(None);
    }
    let usec = |x: f64| units::scale(x, 1e-6);
    // gtod_reduce leaves every latency at zero: not measured
    let clat_measured = clat_max > 0.0;
    let clat_pct = if clat_measured {
        pcts.into_iter().map(|(k, v)| (k, usec(v))).collect()
    } else {
        BTreeMap::new()
    };
    Ok(Some(Dir {
        ios: None,
        iops: Some(iops),
        bw: Some(bw_kib * 1024.0),
        io_bytes: Some(io_kib * 1024.0),
        runtime: Some(runtime_ms / 1000.0),
        lat_mean: (lat_max > 0.0).then(|| usec(lat_mean)),
        clat_mean: clat_measured.then(|| usec(clat_mean)),
        clat_pct,
        clat_bins: BTreeMap::new(),
        group_bw: Vec::new(),
    }))
}

/// Every terse line of `text` as jobs, and the fio version they name; an
/// error when a figure of one is not a number >= 0.
pub(super) fn terse_jobs(text: &str) -> Result<(Vec<Job>, Option<String>), BadNumber> {
    let mut version = None;
    let mut jobs = Vec::new();
    for line in text.lines() {
        if let Some(l) = terse_line(line.trim()) {
            if let Some(bad) = l.bad {
                return Err(bad);
            }
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
    Ok((jobs, version))
}
