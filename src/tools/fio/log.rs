//! fio's per-second logs (`<name>_iops.1.log`, `_bw.1.log`, `_lat.1.log`,
//! `_clat.1.log`) read into a record's [`Timeline`].
//!
//! Every fio version writes one row per line: `time (ms), value, direction
//! (0 read, 1 write, 2 trim), block size (B)`, then an offset column with
//! `log_offset=1` and, from 3.x, a command priority column. With
//! `log_avg_msec` each row is the mean over one window (block size and
//! offset 0); without it each row is one I/O. IOPS values are I/Os per
//! second (1 per row unaveraged), bandwidth KiB/s (fio 2.x `KB/s` is KiB/s
//! too), latencies nsec from fio 3.0 and usec before.

use std::collections::BTreeMap;

use anyhow::{bail, Context, Result};

use crate::record::{Series, Timeline};

/// Which quantity a log holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogKind {
    /// `_iops`: I/Os per second.
    Iops,
    /// `_bw`: KiB/s.
    Bw,
    /// `_lat`: total latency.
    Lat,
    /// `_clat`: completion latency.
    Clat,
}

/// One row of a log.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// Milliseconds since the job started.
    pub time_ms: u64,
    /// The logged value, in the log's own unit.
    pub value: f64,
    /// 0 read, 1 write, 2 trim.
    pub dir: u8,
    /// Block size in bytes; 0 in averaged logs.
    pub bs: u64,
}

/// The prefix, kind and job number a log's file name gives
/// (`t_clat.1.log` is `("t", Clat, 1)`); `None` for other names (`_slat`
/// logs included: diskdash does not read them).
pub fn log_name(file_name: &str) -> Option<(&str, LogKind, u32)> {
    let stem = file_name.strip_suffix(".log")?;
    let (rest, job) = stem.rsplit_once('.')?;
    let job: u32 = job.parse().ok()?;
    for (suffix, kind) in [
        ("_iops", LogKind::Iops),
        ("_clat", LogKind::Clat),
        ("_slat", LogKind::Lat),
        ("_lat", LogKind::Lat),
        ("_bw", LogKind::Bw),
    ] {
        if let Some(prefix) = rest.strip_suffix(suffix) {
            if suffix == "_slat" || prefix.is_empty() {
                return None;
            }
            return Some((prefix, kind, job));
        }
    }
    None
}

/// Whether `file_name` is one of fio's per-job logs, `_slat` included
/// (`<prefix>_<iops|bw|lat|clat|slat>.<job>.log`).
pub fn is_log_file(file_name: &str) -> bool {
    log_name(file_name).is_some()
        || file_name
            .strip_suffix(".log")
            .and_then(|s| s.rsplit_once('.'))
            .is_some_and(|(rest, job)| {
                job.parse::<u32>().is_ok() && rest.ends_with("_slat") && rest.len() > 5
            })
}

/// The latest row time a log may hold: a week, so that no series is
/// longer than [`crate::record::MAX_TIMELINE_SAMPLES`] samples of a second.
pub const MAX_LOG_TIME_MS: u64 = crate::record::MAX_TIMELINE_SAMPLES as u64 * 1000;

/// Parses a log's text into rows. Fails on a line that does not have at
/// least four comma-separated numbers, on a negative value (no rate,
/// bandwidth or latency is below zero) and on a time past
/// [`MAX_LOG_TIME_MS`], naming the line.
pub fn parse(text: &str) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split(',').map(str::trim).collect();
        if let Some(v) = cols.get(1).and_then(|c| c.parse::<f64>().ok()) {
            if v < 0.0 {
                bail!(
                    "line {}: value {v} is negative (expected a rate, bandwidth or latency of 0 or more)",
                    n + 1
                );
            }
        }
        if let Some(t) = cols.first().and_then(|c| c.parse::<u64>().ok()) {
            if t > MAX_LOG_TIME_MS {
                bail!(
                    "line {}: time {t} ms is past one week ({MAX_LOG_TIME_MS} ms), the longest timeline diskdash keeps",
                    n + 1
                );
            }
        }
        let cols: Vec<&str> = line.split(',').map(str::trim).collect();
        let row = (|| {
            if cols.len() < 4 {
                return None;
            }
            Some(Row {
                time_ms: cols[0].parse().ok()?,
                value: cols[1].parse::<f64>().ok().filter(|v| v.is_finite())?,
                dir: cols[2].parse().ok().filter(|d| *d <= 2)?,
                bs: cols[3].parse().ok()?,
            })
        })()
        .with_context(|| {
            format!(
                "line {}: `{line}` is not a fio log row (expected `time, value, direction, block size[, offset][, priority]`)",
                n + 1
            )
        })?;
        rows.push(row);
    }
    if rows.is_empty() {
        bail!("an empty fio log");
    }
    Ok(rows)
}

/// Whether rows were averaged over windows (`log_avg_msec`): block sizes
/// all 0, or rows of one direction at least 100 ms apart.
fn averaged(rows: &[Row]) -> bool {
    if rows.iter().all(|r| r.bs == 0) {
        return true;
    }
    let mut gaps: Vec<u64> = Vec::new();
    for d in 0..=2 {
        let t: Vec<u64> = rows
            .iter()
            .filter(|r| r.dir == d)
            .map(|r| r.time_ms)
            .collect();
        gaps.extend(t.windows(2).map(|w| w[1].saturating_sub(w[0])));
    }
    gaps.sort_unstable();
    gaps.get(gaps.len() / 2).is_some_and(|g| *g >= 100)
}

/// The window of averaged rows in ms: the lower median gap between rows of
/// one direction, rounded to 100 ms (10 ms below 100 ms), since fio's
/// windows drift by a few ms and a stalled window doubles a gap.
fn window_ms(rows: &[Row]) -> u64 {
    let mut gaps: Vec<u64> = Vec::new();
    for d in 0..=2 {
        let t: Vec<u64> = rows
            .iter()
            .filter(|r| r.dir == d)
            .map(|r| r.time_ms)
            .collect();
        gaps.extend(
            t.windows(2)
                .map(|w| w[1].saturating_sub(w[0]))
                .filter(|g| *g > 0),
        );
    }
    gaps.sort_unstable();
    let g = gaps
        .get(gaps.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or(1000);
    let step = if g >= 100 { 100 } else { 10 };
    (((g + step / 2) / step) * step).max(10)
}

/// One direction's values, one per interval: (sum, count) per bucket.
type Buckets = Vec<(f64, f64)>;

/// Puts averaged rows of each direction in buckets of `window` ms: the
/// first at `round(time / window) - 1`, each next one `round(gap /
/// window)` further (so drift does not accumulate, a missing window leaves
/// an empty bucket, and two rows at one time share a bucket).
fn bucket_averaged(rows: &[Row], window: u64) -> [Buckets; 3] {
    let mut out: [Buckets; 3] = Default::default();
    for (d, buckets) in out.iter_mut().enumerate() {
        let mut prev: Option<(u64, usize)> = None;
        for r in rows.iter().filter(|r| r.dir as usize == d) {
            let steps = |ms: u64| ((ms as f64) / window as f64).round() as usize;
            let i = match prev {
                None => steps(r.time_ms).saturating_sub(1),
                Some((t, i)) => i + steps(r.time_ms.saturating_sub(t)),
            };
            prev = Some((r.time_ms, i));
            if buckets.len() <= i {
                buckets.resize(i + 1, (0.0, 0.0));
            }
            buckets[i].0 += r.value;
            buckets[i].1 += 1.0;
        }
    }
    out
}

/// Puts one-row-per-I/O rows in 1 s buckets by time; `of` picks what a row
/// adds (1 for a count, its block size for bytes, its value for a mean).
fn bucket_raw(rows: &[Row], of: impl Fn(&Row) -> f64) -> [Buckets; 3] {
    let mut out: [Buckets; 3] = Default::default();
    for r in rows {
        let buckets = &mut out[r.dir as usize];
        let i = (r.time_ms / 1000) as usize;
        if buckets.len() <= i {
            buckets.resize(i + 1, (0.0, 0.0));
        }
        buckets[i].0 += of(r);
        buckets[i].1 += 1.0;
    }
    out
}

/// One job's series of one kind, per direction, in canonical units, and
/// the interval in seconds.
fn series_of(kind: LogKind, rows: &[Row], lat_ns: bool) -> (f64, [Option<Vec<f64>>; 3]) {
    let lat_scale = if lat_ns { 1e-9 } else { 1e-6 };
    let (interval, buckets, per) = if averaged(rows) {
        let w = window_ms(rows);
        (w as f64 / 1000.0, bucket_averaged(rows, w), "mean")
    } else {
        match kind {
            LogKind::Iops => (1.0, bucket_raw(rows, |_| 1.0), "sum"),
            LogKind::Bw => (1.0, bucket_raw(rows, |r| r.bs as f64), "sum"),
            LogKind::Lat | LogKind::Clat => (1.0, bucket_raw(rows, |r| r.value), "mean"),
        }
    };
    let raw_bytes = !averaged(rows) && kind == LogKind::Bw;
    let scale = match kind {
        LogKind::Iops => 1.0,
        LogKind::Bw if raw_bytes => 1.0,
        LogKind::Bw => 1024.0,
        LogKind::Lat | LogKind::Clat => lat_scale,
    };
    let dirs = buckets.map(|b| {
        if b.is_empty() {
            return None;
        }
        let latency = matches!(kind, LogKind::Lat | LogKind::Clat);
        // a latency cannot be made up for a window without I/O
        if latency && b.iter().any(|(_, n)| *n == 0.0) {
            return None;
        }
        Some(
            b.iter()
                .map(|(sum, n)| {
                    let v = match per {
                        "sum" => sum / interval,
                        _ if *n > 0.0 => sum / n,
                        _ => 0.0,
                    };
                    v * scale
                })
                .collect(),
        )
    });
    (interval, dirs)
}

/// Builds a timeline from the logs of one fio run: `files` holds (file
/// name, text) pairs, of one prefix, any job numbers; `lat_ns` says that
/// latencies are nsec (fio 3.x) rather than usec (2.x). The jobs' IOPS and
/// bandwidth are added, their latencies averaged (weighted by IOPS where
/// that log is there). Each direction's series are cut to the shortest of
/// its IOPS and bandwidth series; a latency series shorter than that is
/// left out. Digests and the pattern are left for the caller. Fails when a
/// log does not parse (naming it), when logs disagree on the interval, and
/// when there is neither an IOPS nor a bandwidth log.
pub fn timeline(files: &[(String, String)], lat_ns: bool) -> Result<Timeline> {
    let mut by: BTreeMap<(LogKind, u32), Vec<Row>> = BTreeMap::new();
    for (name, text) in files {
        let Some((_, kind, job)) = log_name(name) else {
            continue;
        };
        let rows = parse(text).with_context(|| format!("fio log `{name}`"))?;
        // windows shorter than a second give more samples than seconds
        let window = if averaged(&rows) {
            window_ms(&rows)
        } else {
            1000
        };
        let last = rows.iter().map(|r| r.time_ms).max().unwrap_or(0);
        let samples = last / window.max(1) + 2;
        let max = crate::record::MAX_TIMELINE_SAMPLES as u64;
        if samples > max {
            bail!(
                "fio log `{name}`: {samples} samples of {window} ms, over the limit of {max} a timeline holds"
            );
        }
        by.insert((kind, job), rows);
    }
    let mut interval: Option<f64> = None;
    // kind -> direction -> per job series
    let mut got: BTreeMap<LogKind, [Vec<Vec<f64>>; 3]> = BTreeMap::new();
    for ((kind, _), rows) in &by {
        let (i, dirs) = series_of(*kind, rows, lat_ns);
        match interval {
            Some(j) if (j - i).abs() > 1e-9 => {
                bail!("fio logs of one run with different intervals ({j} s and {i} s)")
            }
            _ => interval = Some(i),
        }
        let slot = got.entry(*kind).or_default();
        for (d, s) in dirs.into_iter().enumerate() {
            if let Some(s) = s {
                slot[d].push(s);
            }
        }
    }
    let Some(interval_s) = interval else {
        bail!("no fio IOPS, bandwidth or latency log");
    };
    if !got.contains_key(&LogKind::Iops) && !got.contains_key(&LogKind::Bw) {
        bail!("no fio IOPS or bandwidth log (latency logs alone make no timeline)");
    }
    let empty: [Vec<Vec<f64>>; 3] = Default::default();
    let sum = |jobs: &[Vec<f64>]| -> Option<Vec<f64>> {
        let n = jobs.iter().map(Vec::len).min()?;
        Some((0..n).map(|i| jobs.iter().map(|j| j[i]).sum()).collect())
    };
    let mut dirs: [Option<Series>; 3] = Default::default();
    for (d, slot) in dirs.iter_mut().enumerate() {
        let iops = sum(&got.get(&LogKind::Iops).unwrap_or(&empty)[d]);
        let bw = sum(&got.get(&LogKind::Bw).unwrap_or(&empty)[d]);
        let n = match (&iops, &bw) {
            (Some(a), Some(b)) => a.len().min(b.len()),
            (Some(a), None) | (None, Some(a)) => a.len(),
            (None, None) => continue,
        };
        let iops_jobs = &got.get(&LogKind::Iops).unwrap_or(&empty)[d];
        let mean_lat = |kind: LogKind| -> Option<Vec<f64>> {
            let jobs = &got.get(&kind)?[d];
            if jobs.is_empty() || jobs.iter().any(|j| j.len() < n) {
                return None;
            }
            let weighted = iops_jobs.len() == jobs.len() && iops_jobs.iter().all(|j| j.len() >= n);
            Some(
                (0..n)
                    .map(|i| {
                        let w: Vec<f64> = (0..jobs.len())
                            .map(|k| if weighted { iops_jobs[k][i] } else { 1.0 })
                            .collect();
                        let total: f64 = w.iter().sum();
                        if total > 0.0 {
                            jobs.iter().zip(&w).map(|(j, w)| j[i] * w).sum::<f64>() / total
                        } else {
                            jobs.iter().map(|j| j[i]).sum::<f64>() / jobs.len() as f64
                        }
                    })
                    .collect(),
            )
        };
        let cut = |v: Option<Vec<f64>>| {
            v.map(|mut v| {
                v.truncate(n);
                v
            })
        };
        *slot = Some(Series {
            iops: cut(iops).unwrap_or_default(),
            bw: cut(bw).unwrap_or_default(),
            lat: mean_lat(LogKind::Lat),
            clat: mean_lat(LogKind::Clat),
        });
    }
    let [read, write, trim] = dirs;
    Ok(Timeline {
        interval_s,
        read: read.map(Box::new),
        write: write.map(Box::new),
        trim: trim.map(Box::new),
        logs: BTreeMap::new(),
        pattern: None,
        burst_on_s: None,
        burst_off_s: None,
    })
}

/// Whether latencies in this fio version's logs are nsec: from 3.0 on
/// (`fio-3.33`, `3.1`); unknown versions are taken as current.
pub fn lat_ns(version: Option<&str>) -> bool {
    let Some(v) = version else { return true };
    let v = v.trim().trim_start_matches("fio-");
    let major: Option<u32> = v.split('.').next().and_then(|m| m.parse().ok());
    major.is_none_or(|m| m >= 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(dir: &str, names: &[&str]) -> Vec<(String, String)> {
        names
            .iter()
            .map(|n| {
                let path = format!(
                    "{}/tests/fixtures/fio/logs/{dir}/{n}",
                    env!("CARGO_MANIFEST_DIR")
                );
                (n.to_string(), std::fs::read_to_string(&path).unwrap())
            })
            .collect()
    }

    #[test]
    fn names_give_prefix_kind_and_job() {
        assert_eq!(log_name("t_iops.1.log"), Some(("t", LogKind::Iops, 1)));
        assert_eq!(
            log_name("randread-32-1_clat.2.log"),
            Some(("randread-32-1", LogKind::Clat, 2))
        );
        assert_eq!(log_name("t_lat.1.log"), Some(("t", LogKind::Lat, 1)));
        assert_eq!(log_name("t_bw.1.log"), Some(("t", LogKind::Bw, 1)));
        assert_eq!(log_name("t_slat.1.log"), None);
        assert_eq!(log_name("t_iops.log"), None);
        assert_eq!(log_name("t.json"), None);
        assert!(is_log_file("t_slat.1.log") && is_log_file("t_bw.3.log"));
        assert!(!is_log_file("_slat.1.log") && !is_log_file("fio.log"));
    }

    #[test]
    fn fio_3_averaged_logs_are_pinned() {
        // fio 3.33, log_avg_msec=1000, 5 s: `1000, 29479, 0, 0, 0`
        let tl = timeline(
            &fixture(
                "avg",
                &["t_iops.1.log", "t_bw.1.log", "t_lat.1.log", "t_clat.1.log"],
            ),
            true,
        )
        .unwrap();
        assert_eq!(tl.interval_s, 1.0);
        let r = tl.read.unwrap();
        assert_eq!(r.iops, vec![29479.0, 22429.0, 33931.0, 25089.0]);
        // `1000, 117900, 0, 0, 0` in KiB/s
        assert_eq!(r.bw[0], 120729600.0);
        assert_eq!(
            r.bw,
            vec![
                117900.0 * 1024.0,
                89732.0 * 1024.0,
                135721.0 * 1024.0,
                100358.0 * 1024.0
            ]
        );
        // `1000, 263427, 0, 0, 0` in nsec; the clat log's fifth and sixth
        // rows (a last partial window) are cut to the IOPS log's length
        let clat = r.clat.unwrap();
        assert_eq!(clat.len(), 4);
        assert_eq!(clat[0], 0.000263427);
        assert_eq!(r.lat.unwrap()[0], 0.000271244);
        assert!(tl.write.is_none() && tl.trim.is_none());
    }

    #[test]
    fn the_offset_column_is_read_past() {
        // `1006, 29255, 0, 0, 0, 0`: with log_offset=1
        let tl = timeline(
            &fixture("offset", &["t_iops.1.log", "t_bw.1.log", "t_clat.1.log"]),
            true,
        )
        .unwrap();
        let r = tl.read.unwrap();
        assert_eq!(r.iops, vec![29255.0, 28464.0, 27390.0, 23536.0]);
        assert_eq!(r.bw[0], 117022.0 * 1024.0);
        assert_eq!(r.clat.unwrap()[0], 0.000265441);
    }

    #[test]
    fn per_io_logs_are_counted_per_second() {
        // randrw at --rate_iops=40 for 3 s, no log_avg_msec: `0, 1, 0, 4096, 0`
        let files = fixture("raw", &["t_iops.1.log", "t_bw.1.log", "t_clat.1.log"]);
        let rows = parse(&files[0].1).unwrap();
        assert_eq!(rows.len(), 240);
        assert_eq!(
            rows[1],
            Row {
                time_ms: 0,
                value: 1.0,
                dir: 1,
                bs: 4096
            }
        );
        let tl = timeline(&files, true).unwrap();
        assert_eq!(tl.interval_s, 1.0);
        for s in [tl.read.as_ref().unwrap(), tl.write.as_ref().unwrap()] {
            assert_eq!(s.iops, vec![40.0; 3]);
            // 40 I/Os of 4096 B a second
            assert_eq!(s.bw, vec![163840.0; 3]);
            assert_eq!(s.clat.as_ref().unwrap().len(), 3);
        }
        let clat_read0: Vec<f64> = parse(&files[2].1)
            .unwrap()
            .iter()
            .filter(|r| r.dir == 0 && r.time_ms < 1000)
            .map(|r| r.value)
            .collect();
        let mean = clat_read0.iter().sum::<f64>() / clat_read0.len() as f64;
        assert_eq!(tl.read.unwrap().clat.unwrap()[0], mean * 1e-9);
    }

    #[test]
    fn fio_2_logs_have_usec_latencies() {
        let tl = timeline(
            &fixture("fio2", &["burst_iops.1.log", "burst_clat.1.log"]),
            lat_ns(Some("fio-2.1.11")),
        )
        .unwrap();
        let r = tl.read.unwrap();
        assert_eq!(r.iops.len(), 16);
        assert_eq!(r.iops[8], 300.0);
        assert!(r.bw.is_empty());
        // `1000, 10702, 0, 4096` is 10702 usec
        assert_eq!(r.clat.unwrap()[0], 0.010702);
    }

    #[test]
    fn jobs_add_up_and_windows_do_not_drift() {
        let a = "1000, 100, 0, 0, 0\n2004, 100, 0, 0, 0\n5010, 50, 0, 0, 0\n".to_string();
        let b = "1001, 10, 0, 0, 0\n2003, 10, 0, 0, 0\n3005, 10, 0, 0, 0\n4007, 10, 0, 0, 0\n5009, 10, 0, 0, 0\n".to_string();
        let tl = timeline(
            &[("j_iops.1.log".into(), a), ("j_iops.2.log".into(), b)],
            true,
        )
        .unwrap();
        // job 1 logged nothing in windows 3 and 4: those hold 0 for it
        assert_eq!(tl.read.unwrap().iops, vec![110.0, 110.0, 10.0, 10.0, 60.0]);
    }

    #[test]
    fn bad_logs_are_named() {
        let e = timeline(&[("t_iops.1.log".into(), "1000, x, 0, 0\n".into())], true).unwrap_err();
        assert!(
            format!("{e:#}").contains("fio log `t_iops.1.log`: line 1"),
            "{e:#}"
        );
        let e = timeline(&[("t_clat.1.log".into(), "1000, 5, 0, 0\n".into())], true).unwrap_err();
        assert!(format!("{e:#}").contains("latency logs alone"), "{e:#}");
        assert!(parse("").is_err());
        assert!(lat_ns(Some("fio-3.33")) && lat_ns(None) && !lat_ns(Some("2.19")));
    }
}
