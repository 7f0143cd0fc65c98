//! fio's JSON output (2.x and 3.x) read into jobs.

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use serde_json::{Map, Value};

use super::options::json_options;
use super::{Dir, Job, SteadyState};
use crate::units::{self};

/// The first fio JSON object in `text` (one with a `jobs` key), skipping
/// anything fio or the user printed before it.
pub(super) fn find_json(text: &str) -> Option<Value> {
    // (a `jobs` key, or `client_stats` for client/server output)
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset + (line.len() - line.trim_start().len());
        offset += line.len();
        if !line.trim_start().starts_with('{') {
            continue;
        }
        let rest = text.get(start..)?;
        if let Some(v) = first_json_value(rest) {
            if v.get("jobs").is_some() || v.get("client_stats").is_some() {
                return Some(v);
            }
        }
    }
    None
}

/// The JSON value at the start of `text`; text after it is ignored.
pub(super) fn first_json_value(text: &str) -> Option<Value> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    match stream.next() {
        Some(Ok(v)) => Some(v),
        // some fio versions print `-nan` or `inf` for empty statistics
        _ if [": -nan", ": nan", ": -inf", ": inf"]
            .iter()
            .any(|bad| text.contains(bad)) =>
        {
            let cleaned = text
                .replace(": -nan", ": null")
                .replace(": nan", ": null")
                .replace(": -inf", ": null")
                .replace(": inf", ": null");
            serde_json::Deserializer::from_str(&cleaned)
                .into_iter::<Value>()
                .next()?
                .ok()
        }
        _ => None,
    }
}

/// The jobs of a fio JSON document and the fio version it names.
pub(super) fn json_jobs(doc: &Value) -> Result<(Vec<Job>, Option<String>)> {
    let version = doc
        .get("fio version")
        .and_then(Value::as_str)
        .map(clean_version);
    // `client_stats` is what `fio --client` prints
    let Some(list) = doc
        .get("jobs")
        .or_else(|| doc.get("client_stats"))
        .and_then(Value::as_array)
    else {
        bail!("fio JSON without a \"jobs\" array (expected the output of --output-format=json)");
    };
    let global = doc
        .get("global options")
        .map(json_options)
        .unwrap_or_default();
    // io_bytes was KiB until fio 2.21 added io_kbytes and bw_bytes
    let kib_hint = version.as_deref().and_then(|v| version_below(v, 2, 21));
    let mut jobs = Vec::new();
    for entry in list {
        let mut options = global.clone();
        if let Some(o) = entry.get("job options") {
            options.extend(json_options(o));
        }
        let name = entry
            .get("jobname")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        // the sum over every server, which the servers' own entries hold
        if name == "All clients" {
            continue;
        }
        let group = entry.get("groupid").and_then(Value::as_i64).unwrap_or(0);
        jobs.push(Job {
            name,
            group,
            jobs: 1,
            read: entry.get("read").and_then(|d| json_dir(d, kib_hint)),
            write: entry.get("write").and_then(|d| json_dir(d, kib_hint)),
            mixed: entry.get("mixed").and_then(|d| json_dir(d, kib_hint)),
            host: entry
                .get("hostname")
                .and_then(Value::as_str)
                .map(str::to_string),
            options,
            header: None,
            error: entry.get("error").and_then(Value::as_i64).unwrap_or(0),
            error_text: None,
            steadystate: entry.get("steadystate").and_then(json_steadystate),
            part: serde_json::to_string_pretty(entry).ok(),
        });
    }
    Ok((jobs, version))
}

/// The fio JSON document one group's records keep as their raw output:
/// the document's `fio version`, `timestamp`, `time` and `global options`,
/// and the group's own job objects (`parts`) as its `jobs`.
pub(super) fn group_document(doc: &Value, parts: &[&str]) -> String {
    let mut head = Map::new();
    for key in ["fio version", "timestamp", "time", "global options"] {
        if let Some(v) = doc.get(key) {
            head.insert(key.to_string(), v.clone());
        }
    }
    let mut text = String::from("{\n");
    for (key, value) in &head {
        let value = serde_json::to_string_pretty(value).unwrap_or_default();
        text.push_str(&format!(
            "  {} : {},\n",
            Value::from(key.as_str()),
            value.replace('\n', "\n  ")
        ));
    }
    text.push_str("  \"jobs\" : [\n");
    let jobs: Vec<String> = parts
        .iter()
        .map(|p| format!("    {}", p.trim_end().replace('\n', "\n    ")))
        .collect();
    text.push_str(&jobs.join(",\n"));
    text.push_str("\n  ]\n}\n");
    text
}

/// A job's `steadystate` object (fio 3.x with `--ss`); `None` without one
/// or when it lacks `ss` or `attained`.
fn json_steadystate(v: &Value) -> Option<SteadyState> {
    let obj = v.as_object()?;
    let attained = match obj.get("attained")? {
        Value::Bool(b) => *b,
        other => other.as_f64()? != 0.0,
    };
    Some(SteadyState {
        ss: obj.get("ss")?.as_str()?.trim().to_string(),
        duration: num(obj, "duration"),
        attained,
        criterion: obj
            .get("criterion")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .trim()
            .to_string(),
    })
}

fn num(obj: &Map<String, Value>, key: &str) -> Option<f64> {
    obj.get(key)?.as_f64().filter(|x| x.is_finite())
}

/// One direction of a JSON job; `None` when it did no I/O. `kib_hint` says
/// whether the named fio version predates 2.21 (`None` when unnamed).
pub(super) fn json_dir(v: &Value, kib_hint: Option<bool>) -> Option<Dir> {
    let obj = v.as_object()?;
    let (clat, lat, unit) = if obj.contains_key("clat_ns") || obj.contains_key("lat_ns") {
        (obj.get("clat_ns"), obj.get("lat_ns"), 1e-9)
    } else {
        (obj.get("clat"), obj.get("lat"), 1e-6)
    };
    let ios = num(obj, "total_ios");
    let iops = num(obj, "iops");
    let io_raw = num(obj, "io_bytes");
    // without a version, the microsecond clat of 2.x marks the KiB era too
    let io_in_kib = !obj.contains_key("io_kbytes")
        && !obj.contains_key("bw_bytes")
        && kib_hint.unwrap_or(!obj.contains_key("clat_ns"));
    let io_bytes = io_raw.map(|b| if io_in_kib { b * 1024.0 } else { b });
    let did_io = match ios {
        Some(n) => n > 0.0,
        None => io_bytes.is_some_and(|b| b > 0.0) || iops.is_some_and(|i| i > 0.0),
    };
    if !did_io {
        return None;
    }
    let bw = num(obj, "bw_bytes").or_else(|| Some(num(obj, "bw")? * 1024.0));
    let runtime = num(obj, "runtime")
        .or_else(|| num(obj, "runt"))
        .map(|ms| ms / 1000.0);
    let mut clat_pct = BTreeMap::new();
    if let Some(p) = clat
        .and_then(|c| c.get("percentile"))
        .and_then(Value::as_object)
    {
        for (k, v) in p {
            // 2.x pads the map with `"0.00": 0` entries that are no percentile
            let Some(key) = pct_key(k) else { continue };
            if let Some(x) = v.as_f64().filter(|x| x.is_finite()) {
                clat_pct.insert(key, units::scale(x, unit));
            }
        }
    }
    // json+: the histogram fio's percentiles come from (nanoseconds)
    let mut clat_bins = BTreeMap::new();
    if let Some(bins) = obj
        .get("clat_ns")
        .and_then(|c| c.get("bins"))
        .and_then(Value::as_object)
    {
        for (k, v) in bins {
            if let (Ok(ns), Some(n)) = (k.parse::<u64>(), v.as_f64()) {
                if n.is_finite() && n >= 0.0 {
                    clat_bins.insert(ns, n);
                }
            }
        }
    }
    Some(Dir {
        ios,
        iops,
        bw,
        io_bytes,
        runtime,
        lat_mean: lat.and_then(|l| json_mean(l, unit)),
        clat_mean: clat.and_then(|c| json_mean(c, unit)),
        clat_pct,
        clat_bins,
    })
}

/// A latency mean in seconds (`unit`: seconds per unit fio printed);
/// `None` when fio did not measure it (all zero).
fn json_mean(v: &Value, unit: f64) -> Option<f64> {
    let obj = v.as_object()?;
    let mean = num(obj, "mean")?;
    let max = num(obj, "max").unwrap_or(mean);
    (max > 0.0 || mean > 0.0).then_some(units::scale(mean, unit))
}

/// `"99.900000"` or `"99.90"` to 99900; `None` for the `"0.00"` padding.
pub(super) fn pct_key(k: &str) -> Option<u32> {
    let p: f64 = k.trim().trim_end_matches("th").parse().ok()?;
    if !(p > 0.0 && p <= 100.0) {
        return None;
    }
    Some((p * 1000.0).round() as u32)
}

/// `fio-3.33` → `3.33`; `fio 2.1.3` → `2.1.3`.
fn clean_version(v: &str) -> String {
    let v = v.trim();
    v.strip_prefix("fio-")
        .or_else(|| v.strip_prefix("fio "))
        .unwrap_or(v)
        .trim()
        .to_string()
}

/// Whether version text `v` (`2.1.11`, `2.21-12-gabc`) is below
/// `major.minor`; `None` when it does not start with a number.
pub(super) fn version_below(v: &str, major: u64, minor: u64) -> Option<bool> {
    let mut parts = v.split(|c: char| !c.is_ascii_digit());
    let ma = parts.next()?.parse::<u64>().ok()?;
    let mi = parts
        .next()
        .and_then(|p| p.parse::<u64>().ok())
        .unwrap_or(0);
    Some((ma, mi) < (major, minor))
}
