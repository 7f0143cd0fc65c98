//! The queue-depth section of a study page: where a study holds fio tests
//! of one rw, block size and job count at two or more iodepths (what a
//! bench-fio tree imports), each configuration's IOPS and p99 latency
//! against queue depth, as a table and as fio-plot's chart.

use std::collections::BTreeMap;

use serde_json::Value;

use super::*;
use crate::format::{self, display_unit};
use crate::record::Tool;
use crate::report::charts;
use crate::report::site::Output;

/// One configuration at one queue depth.
#[derive(Clone, Debug, Default)]
pub struct QdCell {
    /// Median IOPS over repetitions; empty when not measured.
    pub iops: String,
    /// Median p99 completion latency; empty when not measured.
    pub p99: String,
}

/// One configuration's row: a cell per depth of the group.
#[derive(Clone, Debug, Default)]
pub struct QdRow {
    pub config: Link,
    pub cells: Vec<QdCell>,
}

/// One workload (rw, block size, jobs) measured at several queue depths.
#[derive(Clone, Debug, Default)]
pub struct QdGroup {
    /// `randread, 4 KiB blocks, 1 job: read IOPS and p99 read latency`.
    pub heading: String,
    /// Column headings: `QD 1`, `QD 4`, ...
    pub depths: Vec<String>,
    /// Links to each depth's test page, in the order of `depths`.
    pub tests: Vec<Link>,
    pub rows: Vec<QdRow>,
    /// A chart per configuration, in the order of `rows`.
    pub charts: Vec<ChartView>,
}

/// One depth of one configuration: iodepth, median IOPS, median p99 (s).
type DepthPoint = (u32, Option<f64>, Option<f64>);

/// What ends a fio test: the amount of data (`size`), or the clock
/// (`time_based` with a `runtime`, in whole seconds; `None` when not
/// stated). A time-based test runs on whatever the volume gives over its
/// runtime, bursts included, so it is never one workload with a
/// size-bound test, nor with a time-based one of another runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Bound {
    Size,
    Time(Option<u64>),
}

/// (rw, block size in bytes, numjobs, what ends it) of a fio test.
type Workload = (String, u64, u64, Bound);

/// What ends `r`'s test: time-based when its parameters say so, or when
/// it kept a per-second timeline (only time-based tests do).
fn bound(r: &Summary) -> Bound {
    let p = &r.test.parameters;
    if !crate::tools::fio::is_time_based(p) && r.timeline.is_none() {
        return Bound::Size;
    }
    let runtime = p
        .get("runtime")
        .and_then(Value::as_f64)
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(|s| s.round() as u64);
    Bound::Time(runtime)
}

/// The workload and iodepth a fio record states; `None` for other tools
/// and for records that do not state rw, block size and iodepth.
fn workload(r: &Summary) -> Option<(Workload, u32)> {
    if r.test.tool != Tool::Fio {
        return None;
    }
    let p = &r.test.parameters;
    let rw = p.get("rw").and_then(Value::as_str)?.to_string();
    let bs = p.get("bs").and_then(Value::as_u64)?;
    let jobs = p.get("numjobs").and_then(Value::as_u64).unwrap_or(1);
    let depth = p.get("iodepth").and_then(Value::as_u64)?;
    Some(((rw, bs, jobs, bound(r)), u32::try_from(depth).ok()?))
}

/// The study's queue-depth groups, in workload order, with their charts
/// added to `site`; empty when no workload has two depths.
pub(super) fn groups(
    ctx: PageCtx,
    study_name: &str,
    order: &[&str],
    site: &dyn Output,
) -> Result<Vec<QdGroup>> {
    let Some(study) = ctx.analysis.data.studies.get(study_name) else {
        return Ok(Vec::new());
    };
    // each test's workload, from its first record by id (the record list
    // is sorted by id, so the smallest index); time-based when any of its
    // records shows it, since a failed run keeps no timeline and fio's JSON
    // does not echo `time_based`
    let mut by_workload: BTreeMap<Workload, BTreeMap<u32, &str>> = BTreeMap::new();
    for test in &study.tests {
        let mut indices: Vec<usize> = study
            .offerings
            .values()
            .filter_map(|o| o.tests.get(test))
            .flat_map(|t| t.records.iter().copied())
            .collect();
        indices.sort_unstable();
        let records: Vec<&Summary> = indices
            .iter()
            .filter_map(|i| ctx.analysis.records.get(*i).copied())
            .collect();
        let Some(r) = records.first() else {
            continue;
        };
        if let Some(((rw, bs, jobs, _), depth)) = workload(r) {
            let ends = records
                .iter()
                .map(|r| bound(r))
                .find(|b| *b != Bound::Size)
                .unwrap_or(Bound::Size);
            let w = (rw, bs, jobs, ends);
            // two tests of one workload and depth (another engine, say):
            // the first by id stands for the depth
            by_workload
                .entry(w)
                .or_default()
                .entry(depth)
                .or_insert(test.as_str());
        }
    }
    let sslug = ctx.paths.study_slug(study_name).to_string();
    let mut out = Vec::new();
    for ((rw, bs, jobs, ends), depths) in by_workload {
        if depths.len() < 2 {
            continue;
        }
        // the direction the workload is about: fio's mixed figures when it
        // reports them, writes for a pure write, else reads
        let has = |metric: &str| {
            depths.values().any(|t| {
                study.offerings.values().any(|o| {
                    o.tests
                        .get(*t)
                        .is_some_and(|t| t.metrics.contains_key(metric))
                })
            })
        };
        let dir = if has("mixed_iops") {
            "mixed"
        } else if rw.contains("write") && !rw.contains("rw") {
            "write"
        } else {
            "read"
        };
        let (iops_m, p99_m) = (format!("{dir}_iops"), format!("{dir}_clat_p99"));
        // configuration -> per depth (iops, p99 seconds), medians
        let mut lines: Vec<(&str, Vec<DepthPoint>)> = Vec::new();
        for name in order {
            let Some(o) = study.offerings.get(*name) else {
                continue;
            };
            let get = |t: &str, m: &str, unit: Unit| {
                o.tests
                    .get(t)?
                    .metrics
                    .get(m)
                    .filter(|s| s.unit == unit)
                    .map(|s| s.summary.median)
            };
            let pts: Vec<DepthPoint> = depths
                .iter()
                .map(|(d, t)| {
                    (
                        *d,
                        get(t, &iops_m, Unit::Iops),
                        get(t, &p99_m, Unit::Seconds),
                    )
                })
                .collect();
            if pts
                .iter()
                .filter(|p| p.1.is_some() || p.2.is_some())
                .count()
                >= 2
            {
                lines.push((name, pts));
            }
        }
        if lines.is_empty() {
            continue;
        }
        let largest_lat = lines
            .iter()
            .flat_map(|(_, p)| p.iter().filter_map(|x| x.2))
            .fold(0.0, f64::max);
        // the chart's latency axis takes one unit from the largest value
        let du = display_unit(Unit::Seconds, largest_lat);
        let bs_text = block_size(bs);
        let jobs_text = if jobs == 1 {
            "1 job".to_string()
        } else {
            format!("{jobs} jobs")
        };
        let (ends_text, ends_slug) = match ends {
            Bound::Size => (String::new(), String::new()),
            Bound::Time(Some(s)) => (
                format!(", time-based for {}", format::duration_words(s as f64)),
                format!("-t{s}s"),
            ),
            Bound::Time(None) => (", time-based".to_string(), "-t".to_string()),
        };
        let workload_text = format!("{rw}, {bs_text} blocks, {jobs_text}{ends_text}");
        let short = crate::units::short_size(bs);
        let mut charts_out = Vec::new();
        let mut rows = Vec::new();
        for (name, pts) in &lines {
            let cslug = ctx.paths.offering_slug(study_name, name);
            let spec = charts::QdChart {
                title: format!("{name}: {workload_text}, by queue depth"),
                desc: format!(
                    "Median {dir} IOPS and p99 {dir} completion latency in {} over repetitions at each fio iodepth, for {name} in study {study_name} ({workload_text}).",
                    du.label
                ),
                latency_unit: du.label.to_string(),
                points: pts
                    .iter()
                    .map(|(d, iops, p99)| charts::QdPoint {
                        iodepth: *d,
                        iops: *iops,
                        p99: p99.map(|v| v / du.factor),
                    })
                    .collect(),
            };
            charts_out.push(ctx.chart(
                site,
                format!("charts/{sslug}/qd-{rw}-{short}-j{jobs}{ends_slug}-{cslug}.svg"),
                charts::draw(&spec),
            )?);
            rows.push(QdRow {
                config: ctx.link(*name, &ctx.paths.offering_page(study_name, name)),
                cells: pts
                    .iter()
                    .map(|(_, iops, p99)| QdCell {
                        // each cell in its own unit, three significant digits
                        iops: iops
                            .map(|v| format::value(v, Unit::Iops))
                            .unwrap_or_default(),
                        p99: p99
                            .map(|v| format::value(v, Unit::Seconds))
                            .unwrap_or_default(),
                    })
                    .collect(),
            });
        }
        out.push(QdGroup {
            heading: format!("{workload_text}: {dir} IOPS and p99 {dir} latency"),
            depths: depths.keys().map(|d| format!("QD {d}")).collect(),
            tests: depths
                .values()
                .map(|t| ctx.link(*t, &ctx.paths.test_page(study_name, t)))
                .collect(),
            rows,
            charts: charts_out,
        });
    }
    Ok(out)
}

/// A block size as fio users say it, in binary units: `4 KiB`, `1 MiB`, `512 B`.
fn block_size(bs: u64) -> String {
    match bs {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} B"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn block_sizes_read_as_fio_users_write_them() {
        assert_eq!(super::block_size(4096), "4 KiB");
        assert_eq!(super::block_size(1048576), "1 MiB");
        assert_eq!(super::block_size(512), "512 B");
        assert_eq!(super::block_size(6144), "6 KiB");
    }
}
