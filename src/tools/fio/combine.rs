//! The jobs of one reporting group combined into one result, with the
//! options that describe it.

use std::collections::BTreeMap;

use serde_json::Value;

use super::options::{CommandOptions, TestOptions};
use super::text;
use super::{Dir, Job};
use crate::record::Metric;
use crate::tools::Parsed;
use crate::units::{self, Unit};

/// Combines one group's jobs into metrics and parameters.
/// `pasted` holds the options and command found above the output.
pub(super) fn group_parsed(
    jobs: &[Job],
    pasted: &CommandOptions,
    command: Option<&str>,
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
        // every figure was read as a number >= 0 (`crate::tools::number`);
        // one that combining made infinite (a sum past f64::MAX) is kept,
        // for validation to refuse, rather than dropped
        let mut put = |name: &str, value: Option<f64>, unit: Unit| {
            if let Some(v) = value {
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
    let mut opts = pasted.for_job(&first.name);
    opts.extend(first.options.clone());
    let fallback_jobs = jobs
        .iter()
        .fold(0u32, |n, j| n.saturating_add(j.jobs))
        .max(1);
    let (mut parameters, test_id) = TestOptions::from_job_options(&opts)
        .with_header(first.header.as_ref())
        .settings(fallback_jobs);
    if mixed.is_some() {
        parameters.insert("unified_rw_reporting".to_string(), Value::from(1));
    }
    if let Some(host) = &first.host {
        parameters.insert("fio_server".to_string(), Value::from(host.clone()));
    }
    if let Some(port) = first.port {
        parameters.insert("fio_server_port".to_string(), Value::from(port));
    }
    parameters.extend(ss_parameters);
    Some(Parsed {
        metrics,
        parameters,
        tool_version: version.map(str::to_string),
        test_id,
        command: command.map(str::to_string),
        error: None,
        part: group_part(jobs),
        // the jobs of a group are reported at once
        date: jobs.iter().find_map(|j| j.date.clone()),
    })
}

/// The text a group was read from: its jobs' parts, in order (`None` when
/// a job's is unknown).
pub(super) fn group_part(jobs: &[Job]) -> Option<String> {
    let mut part = String::new();
    for job in jobs {
        part.push_str(job.part.as_deref()?);
    }
    Some(part)
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

/// Combines one direction over a group's jobs (see [`super::parse`] for
/// the rules; with json+ histograms the percentiles are exact, see
/// [`bins_percentile`]). Where fio printed the group's bandwidth and the
/// combined figure disagrees with it beyond its rounding, fio's figure is
/// the group's bandwidth.
pub(super) fn combine(dirs: Vec<&Dir>) -> Option<Dir> {
    let mut d = combine_jobs(dirs)?;
    if let Some(bw) = d.bw {
        if !text::agrees(bw, &d.group_bw) {
            d.bw = text::most_precise(&d.group_bw);
        }
    }
    Some(d)
}

/// [`combine`] before the check against fio's printed group figure.
fn combine_jobs(dirs: Vec<&Dir>) -> Option<Dir> {
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
    let runtime = dirs.iter().filter_map(|d| d.runtime).reduce(f64::max);
    Some(Dir {
        ios: sum(|d| d.ios),
        iops: group_rate(&dirs, |d| d.ios, |d| d.iops),
        bw: group_rate(&dirs, |d| d.io_bytes, |d| d.bw),
        io_bytes: sum(|d| d.io_bytes),
        runtime,
        lat_mean: weighted(&|d: &Dir| d.lat_mean),
        clat_mean: weighted(&|d: &Dir| d.clat_mean),
        clat_pct,
        clat_bins,
        group_bw: dirs.first().map(|d| d.group_bw.clone()).unwrap_or_default(),
    })
}

/// A group's rate as fio's `Run status group` line computes it: the jobs'
/// total (I/Os or bytes) over the longest job's runtime, so that jobs that
/// ended early do not count as if they had run the whole time. A job's
/// total is what fio counted (`amount`), or its rate times its own runtime
/// when only the rate is known. Without every job's runtime the rates are
/// summed, which is the same figure when the jobs ran equally long.
fn group_rate(
    dirs: &[&Dir],
    amount: fn(&Dir) -> Option<f64>,
    rate: fn(&Dir) -> Option<f64>,
) -> Option<f64> {
    let longest = dirs
        .iter()
        .map(|d| d.runtime.filter(|r| r.is_finite() && *r > 0.0))
        .collect::<Option<Vec<f64>>>()
        .and_then(|r| r.into_iter().reduce(f64::max));
    let Some(longest) = longest else {
        return dirs.iter().map(|d| rate(d)).sum();
    };
    let total: Option<f64> = dirs
        .iter()
        .map(|d| amount(d).or_else(|| Some(rate(d)? * d.runtime?)))
        .sum();
    Some(total? / longest)
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
