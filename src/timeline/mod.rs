//! Time series: a fio test's per-second logs attached to its record
//! ([`attach_logs`]), and the detection of burst and sustained levels in
//! them ([`detect()`], [`classify`]). Pure functions over a record's
//! timeline; the analysis of many records calls them.
//!
//! `detect` classifies a per-second series (IOPS or bandwidth) as flat,
//! credit-burst, periodic-burst or not-exhausted, with its burst and
//! sustained levels and the SNIA steady-state test of the sustained level;
//! `docs/run.md` ("Burst and sustained") describes the same algorithm in
//! words.

mod detect;
pub mod stop;

use std::collections::BTreeMap;

use crate::metrics::TestKind;
pub use crate::record::Pattern;
use crate::record::{Metric, Series, Timeline};
use crate::units::Unit;

pub use detect::{
    detect, median, noise, persistence, rolling_median, steady_state, step_noise, tolerance,
    Detection, SteadyState, FULL_SCALE_S, MAX_TOLERANCE, MIN_TOLERANCE, SKIP_S,
};

/// Classifies a record's timeline and returns the metrics it gives:
/// `<dir>_iops_sustained` and `<dir>_bw_sustained` for each direction with
/// data, `<dir>_iops_burst`/`<dir>_bw_burst` where a burst was found, and
/// from the judged series (bandwidth for a throughput test, IOPS for the
/// others; reads before writes) `burst_duration`, `burst_ios` or
/// `burst_bytes`, `steady_state`, `ss_range` and `ss_slope`. Sets
/// `pattern` and the periodic on/off times on `timeline`. Series too short
/// to classify give nothing.
pub fn classify(timeline: &mut Timeline, kind: TestKind) -> BTreeMap<String, Metric> {
    let mut out = BTreeMap::new();
    let interval = timeline.interval_s;
    let dirs: Vec<(&str, &Series)> = [("read", &timeline.read), ("write", &timeline.write)]
        .into_iter()
        .filter_map(|(d, s)| s.as_deref().map(|s| (d, s)))
        .collect();
    let by_bw = kind == TestKind::Throughput;
    let mut primary: Option<(Detection, bool)> = None;
    for (dir, series) in dirs {
        for (values, what, unit, is_bw) in [
            (&series.iops, "iops", Unit::Iops, false),
            (&series.bw, "bw", Unit::BytesPerSec, true),
        ] {
            let Some(d) = detect(values, interval) else {
                continue;
            };
            out.insert(
                format!("{dir}_{what}_sustained"),
                Metric::new(d.sustained, unit),
            );
            if let Some(b) = d.burst {
                out.insert(format!("{dir}_{what}_burst"), Metric::new(b, unit));
            }
            if primary.is_none() && is_bw == by_bw {
                primary = Some((d, is_bw));
            }
        }
    }
    timeline.pattern = None;
    timeline.burst_on_s = None;
    timeline.burst_off_s = None;
    if let Some((d, is_bw)) = primary {
        timeline.pattern = Some(d.pattern);
        timeline.burst_on_s = d.on_s;
        timeline.burst_off_s = d.off_s;
        if let Some(t) = d.burst_duration_s {
            out.insert("burst_duration".into(), Metric::new(t, Unit::Seconds));
        }
        if let Some(v) = d.burst_volume {
            let (name, unit) = if is_bw {
                ("burst_bytes", Unit::Bytes)
            } else {
                ("burst_ios", Unit::Count)
            };
            out.insert(name.into(), Metric::new(v.round(), unit));
        }
        let ss = d.steady;
        out.insert(
            "steady_state".into(),
            Metric::new(if ss.reached { 1.0 } else { 0.0 }, Unit::Count),
        );
        out.insert("ss_range".into(), Metric::new(ss.range_pct, Unit::Percent));
        out.insert("ss_slope".into(), Metric::new(ss.slope_pct, Unit::Percent));
    }
    out
}

/// Gives `record` (a fio test) the timeline of fio per-second logs of one
/// run, `files` holding (file name, bytes) of one prefix, and the metrics
/// [`classify`] finds, without replacing metrics the record has. Latency
/// units follow the record's fio version. Fails when a log is binary or
/// does not parse, naming it.
pub fn attach_logs(
    record: &mut crate::record::Record,
    files: &[(String, Vec<u8>)],
) -> anyhow::Result<()> {
    use crate::tools::fio::log;
    let mut texts = Vec::new();
    let mut digests = BTreeMap::new();
    for (name, bytes) in files {
        digests.insert(name.clone(), crate::digest::hex_sha256(bytes));
        // read as every tool output file is: CRLF, a BOM, Latin-1
        let text = crate::tools::text::read(bytes)
            .map_err(|e| anyhow::anyhow!("fio log `{name}`: {e}"))?;
        texts.push((name.clone(), text.text.into_owned()));
    }
    let lat_ns = log::lat_ns(record.test.tool_version.as_deref());
    let mut timeline = log::timeline(&texts, lat_ns)?;
    timeline.logs = digests;
    let kind = crate::tools::judge(crate::record::Tool::Fio).kind(&record.test.parameters);
    for (name, metric) in classify(&mut timeline, kind) {
        if !record.metrics.contains_key(&name) {
            record.metrics.insert(&name, metric);
        }
    }
    record.timeline = Some(Box::new(timeline));
    Ok(())
}

#[cfg(test)]
mod tests;
