//! The jobs of one reporting group combined into one result, with the
//! options that describe it.

use std::collections::BTreeMap;

use serde_json::Value;

use super::pasted::PastedCommand;
use super::test_id;
use super::{Dir, Header, Job};
use crate::record::Metric;
use crate::tools::Parsed;
use crate::units::{self, Unit};

/// Combines one group's jobs into metrics and parameters.
pub(super) fn group_parsed(
    jobs: &[Job],
    pre: &PastedCommand,
    version: Option<&str>,
) -> Option<Parsed> {
    let first = jobs.first()?;
    let read = combine(jobs.iter().filter_map(|j| j.read.as_ref()).collect());
    let write = combine(jobs.iter().filter_map(|j| j.write.as_ref()).collect());
    let mixed = combine(jobs.iter().filter_map(|j| j.mixed.as_ref()).collect());
    if read.is_none() && write.is_none() && mixed.is_none() {
        return None;
    }
    let mut metrics = BTreeMap::new();
    for (prefix, dir) in [("read", &read), ("write", &write), ("mixed", &mixed)] {
        let Some(d) = dir else { continue };
        let mut put = |name: &str, value: Option<f64>, unit: Unit| {
            if let Some(v) = value.filter(|v| v.is_finite() && *v >= 0.0) {
                metrics.insert(format!("{prefix}_{name}"), Metric::new(v, unit));
            }
        };
        put("iops", d.iops, Unit::Iops);
        put("bw", d.bw, Unit::BytesPerSec);
        put("io_bytes", d.io_bytes, Unit::Bytes);
        put("lat_mean", d.lat_mean, Unit::Seconds);
        put("clat_mean", d.clat_mean, Unit::Seconds);
        // every percentile fio reported, not only p50/p99/p99.9
        for (key, v) in &d.clat_pct {
            put(&format!("clat_{}", pct_name(*key)), Some(*v), Unit::Seconds);
        }
    }
    let runtime = [&read, &write, &mixed]
        .iter()
        .filter_map(|d| d.as_ref().and_then(|d| d.runtime))
        .reduce(f64::max);
    if let Some(rt) = runtime.filter(|r| r.is_finite() && *r > 0.0) {
        metrics.insert("runtime".to_string(), Metric::new(rt, Unit::Seconds));
    }
    let (ss_metrics, ss_parameters) = steadystate(jobs);
    metrics.extend(ss_metrics);

    // options: command line and job file, then what the output states
    let mut opts = pre.global.clone();
    if let Some(job_opts) = pre.per_job.get(&first.name) {
        opts.extend(job_opts.clone());
    }
    opts.extend(first.options.clone());
    let fallback_jobs = jobs
        .iter()
        .fold(0u32, |n, j| n.saturating_add(j.jobs))
        .max(1);
    let (mut parameters, test_id) = settings(&opts, first.header.as_ref(), fallback_jobs);
    if mixed.is_some() {
        parameters.insert("unified_rw_reporting".to_string(), Value::from(1));
    }
    if let Some(host) = &first.host {
        parameters.insert("fio_server".to_string(), Value::from(host.clone()));
    }
    parameters.extend(ss_parameters);
    Some(Parsed {
        metrics,
        parameters,
        tool_version: version.map(str::to_string),
        test_id,
        command: pre.command.clone(),
        error: None,
    })
}

/// fio's own steady-state verdict of a group, under fio's names: metrics
/// `fio_ss_attained` (1 when every job that has a `steadystate` attained
/// it, else 0) and, when fio gives its criterion in % of the mean,
/// `fio_ss_criterion` (the largest of the jobs', the one furthest from
/// steady); parameters `fio_ss` (criterion and limit as fio prints them,
/// `iops_slope:5.000000%`), `fio_ss_duration` (the window in seconds) and,
/// for an absolute criterion, `fio_ss_criterion` as fio prints it. Nothing
/// when no job has one. diskdash's own `steady_state` is another metric.
fn steadystate(jobs: &[Job]) -> (BTreeMap<String, Metric>, BTreeMap<String, Value>) {
    let mut metrics = BTreeMap::new();
    let mut parameters = BTreeMap::new();
    let all: Vec<&super::SteadyState> =
        jobs.iter().filter_map(|j| j.steadystate.as_ref()).collect();
    let Some(first) = all.first() else {
        return (metrics, parameters);
    };
    let attained = all.iter().all(|s| s.attained);
    metrics.insert(
        "fio_ss_attained".to_string(),
        Metric::new(if attained { 1.0 } else { 0.0 }, Unit::Count),
    );
    parameters.insert("fio_ss".to_string(), Value::from(first.ss.clone()));
    if let Some(d) = first.duration.filter(|d| d.is_finite() && *d > 0.0) {
        parameters.insert("fio_ss_duration".to_string(), Value::from(d));
    }
    let percents: Option<Vec<f64>> = all
        .iter()
        .map(|s| {
            s.criterion
                .strip_suffix('%')?
                .trim()
                .parse::<f64>()
                .ok()
                // `check` refuses a percentage above 1e5 (a mean near zero
                // gives one): such a criterion stays a parameter
                .filter(|v| v.is_finite() && (0.0..=1e5).contains(v))
        })
        .collect();
    match percents.and_then(|p| p.into_iter().reduce(f64::max)) {
        Some(worst) => {
            metrics.insert(
                "fio_ss_criterion".to_string(),
                Metric::new(worst, Unit::Percent),
            );
        }
        None => {
            let worst = all
                .iter()
                .filter(|s| !s.criterion.is_empty())
                .max_by(|a, b| {
                    let v = |s: &str| s.trim_end_matches('%').parse::<f64>().unwrap_or(f64::NAN);
                    v(&a.criterion).total_cmp(&v(&b.criterion))
                });
            if let Some(w) = worst {
                parameters.insert(
                    "fio_ss_criterion".to_string(),
                    Value::from(w.criterion.clone()),
                );
            }
        }
    }
    (metrics, parameters)
}

/// The parameters and test id that a job's options (command line and job
/// file, then what the output states) and its text header give. The header
/// wins for rw, iodepth and ioengine because it is what fio ran; numjobs
/// falls back to `fallback_jobs` when no option states it.
pub(super) fn settings(
    opts: &BTreeMap<String, String>,
    header: Option<&Header>,
    fallback_jobs: u32,
) -> (BTreeMap<String, Value>, Option<String>) {
    let kb_base_si = opts.get("kb_base").is_some_and(|v| v.trim() == "1000");
    let rw = header
        .and_then(|h| h.rw.clone())
        .or_else(|| opt(opts, &["rw", "readwrite"]).map(str::to_string))
        .map(|rw| normalise_rw(&rw));
    let iodepth = header
        .and_then(|h| h.iodepth)
        .or_else(|| opt(opts, &["iodepth"]).and_then(|v| v.trim().parse().ok()));
    let ioengine = header
        .and_then(|h| h.ioengine.clone())
        .or_else(|| opt(opts, &["ioengine"]).map(str::to_string));
    let numjobs: u32 = opt(opts, &["numjobs"])
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(fallback_jobs);
    let bs = opt(opts, &["bs", "blocksize"])
        .and_then(|v| option_bs(v, rw.as_deref(), kb_base_si))
        .or_else(|| header.and_then(|h| fixed_bs(&h.bs, rw.as_deref())));

    let mut parameters = BTreeMap::new();
    if let Some(rw) = &rw {
        parameters.insert("rw".to_string(), Value::from(rw.clone()));
    }
    if let Some(bs) = bs {
        parameters.insert("bs".to_string(), Value::from(bs));
    }
    if let Some(d) = iodepth {
        parameters.insert("iodepth".to_string(), Value::from(d));
    }
    if let Some(e) = ioengine {
        parameters.insert("ioengine".to_string(), Value::from(e));
    }
    if let Some(d) = opt(opts, &["direct"]).and_then(flag_value) {
        parameters.insert("direct".to_string(), Value::from(d));
    }
    if let Some(s) = opt(opts, &["size"]).and_then(|v| option_size(v, kb_base_si)) {
        parameters.insert("size".to_string(), Value::from(s));
    }
    parameters.insert("numjobs".to_string(), Value::from(numjobs));
    if let Some(r) = opt(opts, &["runtime", "timeout"]).and_then(option_seconds) {
        parameters.insert("runtime".to_string(), Value::from(r));
    }
    // a flag: fio prints it with an empty value or `1`; kept as `run`
    // writes it, so that a time-based test is told from a size-bound one
    if opts.get("time_based").and_then(|v| flag_value(v)) == Some(1) {
        parameters.insert("time_based".to_string(), Value::from(true));
    }
    let test_id = match (&rw, bs) {
        (Some(rw), Some(bs)) => Some(test_id(rw, bs, iodepth.unwrap_or(1), numjobs)),
        _ => None,
    };
    (parameters, test_id)
}

pub(super) fn opt<'a>(opts: &'a BTreeMap<String, String>, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .find_map(|k| opts.get(*k))
        .map(String::as_str)
        .filter(|v| !v.trim().is_empty())
}

/// `randread:8` → `randread`; `readwrite` → `rw`; `randread` stays.
fn normalise_rw(rw: &str) -> String {
    let rw = rw.split(':').next().unwrap_or(rw).trim();
    match rw {
        "readwrite" => "rw".to_string(),
        other => other.to_string(),
    }
}

/// Which block-size slots (read, write) a workload uses.
fn used_dirs(rw: Option<&str>) -> &'static [usize] {
    match rw {
        Some("read" | "randread") => &[0],
        Some("write" | "randwrite" | "trimwrite") => &[1],
        _ => &[0, 1],
    }
}

/// The one fixed block size the workload's directions share, if any.
pub(super) fn fixed_bs(per_dir: &[(u64, u64)], rw: Option<&str>) -> Option<u64> {
    let mut sizes = used_dirs(rw).iter().filter_map(|&i| per_dir.get(i));
    let &(lo, hi) = sizes.next()?;
    (lo == hi && lo > 0 && sizes.all(|&(l, h)| l == lo && h == lo)).then_some(lo)
}

/// A `bs=` option (`4k`, `4k,64k`) to the workload's one block size.
pub(super) fn option_bs(v: &str, rw: Option<&str>, si: bool) -> Option<u64> {
    let parts: Vec<u64> = v
        .split(',')
        .map(|p| option_size(p, si))
        .collect::<Option<Vec<_>>>()?;
    // fio reuses the last given size for the directions not given
    let per_dir: Vec<(u64, u64)> = (0..3)
        .filter_map(|i| parts.get(i).or(parts.last()).map(|&b| (b, b)))
        .collect();
    fixed_bs(&per_dir, rw)
}

/// A size option as fio reads it: by default (`kb_base=1024`) `k`, `kB`,
/// `KB` mean 1024 and, for compatibility, `KiB` means 1000; with
/// `kb_base=1000` it is the other way round.
pub(super) fn option_size(v: &str, si: bool) -> Option<u64> {
    let (n, unit) = units::split_number(v)?;
    let u = unit.trim();
    let binary_form = u.len() >= 2 && (u.ends_with("iB") || u.ends_with("ib"));
    let letter = u.chars().next().map(|c| c.to_ascii_lowercase());
    let power = match letter {
        None => 0,
        Some('b') if u.len() == 1 => 0,
        Some('k') => 1,
        Some('m') => 2,
        Some('g') => 3,
        Some('t') => 4,
        Some('p') => 5,
        _ => return None,
    };
    let base: f64 = if binary_form != si { 1000.0 } else { 1024.0 };
    let b = n * base.powi(power);
    (b.is_finite() && (0.0..1e18).contains(&b)).then_some(b.round() as u64)
}

/// A time option (`2`, `30s`, `2m`, `1h`, `1d`, `500ms`): seconds; a bare
/// number is seconds.
pub(super) fn option_seconds(v: &str) -> Option<f64> {
    let (n, unit) = units::split_number(v)?;
    let s = if unit.trim().is_empty() {
        n
    } else {
        units::seconds(n, unit)?
    };
    Some(s).filter(|s| s.is_finite() && *s >= 0.0)
}

/// `1`, `0`, `true` → 1/0; a bare flag (empty value) counts as 1.
fn flag_value(v: &str) -> Option<u32> {
    match v.trim() {
        "1" | "true" | "" => Some(1),
        "0" | "false" => Some(0),
        _ => None,
    }
}

/// The metric name part of a percentile given in thousandths of a percent:
/// 99_000 is `p99`, 99_900 `p99_9`, 99_990 `p99_99`, 1_000 `p1`, 100
/// (a `percentile_list` entry of 0.1) `p0_1`.
pub(super) fn pct_name(key: u32) -> String {
    let (whole, frac) = (key / 1000, key % 1000);
    if frac == 0 {
        return format!("p{whole}");
    }
    let digits = format!("{frac:03}");
    format!("p{whole}_{}", digits.trim_end_matches('0'))
}

/// Combines one direction over a group's jobs (see [`parse`] for the rules;
/// with json+ histograms the percentiles are exact, see [`bins_percentile`]).
pub(super) fn combine(dirs: Vec<&Dir>) -> Option<Dir> {
    match dirs.as_slice() {
        [] => return None,
        [one] => return Some((*one).clone()),
        _ => {}
    }
    let sum = |f: fn(&Dir) -> Option<f64>| -> Option<f64> {
        dirs.iter().map(|d| f(d)).sum::<Option<f64>>()
    };
    let weights: Option<Vec<f64>> = dirs.iter().map(|d| d.weight()).collect();
    let total_w: Option<f64> = weights.as_ref().map(|w| w.iter().sum());
    let weighted = |f: &dyn Fn(&Dir) -> Option<f64>| -> Option<f64> {
        let w = weights.as_ref()?;
        let total = total_w.filter(|t| *t > 0.0)?;
        let mut acc = 0.0;
        for (d, wi) in dirs.iter().zip(w) {
            acc += f(d)? * wi;
        }
        Some(acc / total)
    };
    let mut clat_pct = BTreeMap::new();
    // json+ histograms of every job: merged, they give the group's exact
    // percentiles, found as fio finds them
    let mut clat_bins: BTreeMap<u64, f64> = BTreeMap::new();
    if dirs.iter().all(|d| !d.clat_bins.is_empty()) {
        for d in &dirs {
            for (k, n) in &d.clat_bins {
                *clat_bins.entry(*k).or_insert(0.0) += n;
            }
        }
    }
    if let Some(first) = dirs.first() {
        for key in first.clat_pct.keys() {
            let v = if clat_bins.is_empty() {
                weighted(&|d: &Dir| d.clat_pct.get(key).copied())
            } else {
                bins_percentile(&clat_bins, *key)
            };
            if let Some(v) = v {
                clat_pct.insert(*key, v);
            }
        }
    }
    Some(Dir {
        ios: sum(|d| d.ios),
        iops: sum(|d| d.iops),
        bw: sum(|d| d.bw),
        io_bytes: sum(|d| d.io_bytes),
        runtime: dirs.iter().filter_map(|d| d.runtime).reduce(f64::max),
        lat_mean: weighted(&|d: &Dir| d.lat_mean),
        clat_mean: weighted(&|d: &Dir| d.clat_mean),
        clat_pct,
        clat_bins,
    })
}

/// The percentile (in thousandths of a percent) of a latency histogram, in
/// seconds: the first bucket at which the running count reaches that share
/// of all I/Os, as fio's `calc_clat_percentiles` does.
pub(super) fn bins_percentile(bins: &BTreeMap<u64, f64>, key: u32) -> Option<f64> {
    let total: f64 = bins.values().sum();
    let need = total * f64::from(key) / 100_000.0;
    let mut sum = 0.0;
    for (ns, n) in bins {
        sum += n;
        if sum >= need {
            return Some(units::scale(*ns as f64, 1e-9));
        }
    }
    None
}
