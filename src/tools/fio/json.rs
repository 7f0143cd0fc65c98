//! fio's JSON output (2.x and 3.x) read into jobs.

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use serde_json::{Map, Value};

use super::options::{json_options, OptionMap};
use super::{Dir, Job, SteadyState};
use crate::tools::date::{self, Dated};
use crate::tools::number::{self, checked, json_field, BadNumber};
use crate::units::{self};

/// When fio printed the document: its `timestamp` (Unix seconds), else
/// `timestamp_ms`, else its `time` (C's `ctime`, the machine's local time
/// without a zone, read as UTC); `None` when it holds none of them. A
/// `timestamp` that is not a whole number is passed over for the next.
pub(super) fn run_date(doc: &Value) -> Option<Dated> {
    let unix = |key: &str, per_s: i64| {
        doc.get(key)
            .and_then(Value::as_i64)
            .map(|v| date::from_unix(v.div_euclid(per_s)))
    };
    unix("timestamp", 1)
        .or_else(|| unix("timestamp_ms", 1000))
        .or_else(|| doc.get("time").and_then(Value::as_str).and_then(date::line))
}

/// The first fio JSON object in `text` (one with a `jobs` array, or
/// `client_stats` for client/server output), wherever it starts: after
/// notes fio or the user printed before it, and after text on its own line
/// (`const out = \`{ "fio version" ...`, `<host> {`). Only a `{` whose
/// brace closes is tried, on the text up to that brace ([`Objects`]); a
/// JSON value that parses but is not fio's is skipped whole. Time grows
/// with the text, not its square, also when nothing in it closes.
pub(super) fn find_json(text: &str) -> Option<Value> {
    let objects = Objects::of(text);
    let mut from = 0;
    for &(open, close) in &objects.pairs {
        if open < from {
            continue;
        }
        match first_json_value(text.get(open..=close)?) {
            Some(v) if is_fio_json(&v) => return Some(v),
            Some(_) => from = close + 1,
            None => {}
        }
    }
    None
}

/// Every `{` of a text whose brace closes, with the `}` that closes it,
/// found in one pass by matching braces outside strings (a string ends at
/// its line's end, as a JSON string cannot hold one): what the searches for
/// fio's JSON in a paste try, so that a paste of a thousand `{` that never
/// close costs one pass, not a thousand.
pub(super) struct Objects {
    /// `(open, close)` byte offsets, in the order of `open`.
    pub(super) pairs: Vec<(usize, usize)>,
}

impl Objects {
    pub(super) fn of(text: &str) -> Objects {
        let mut pairs = Vec::new();
        let mut open = Vec::new();
        let (mut in_string, mut escaped) = (false, false);
        for (i, b) in text.bytes().enumerate() {
            if in_string {
                match b {
                    b'\n' => in_string = false,
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' => open.push(i),
                b'}' => {
                    if let Some(o) = open.pop() {
                        pairs.push((o, i));
                    }
                }
                _ => {}
            }
            escaped = false;
        }
        pairs.sort_unstable();
        Objects { pairs }
    }

    /// The offset just past the `}` that closes the `{` at `open`.
    pub(super) fn end_of(&self, open: usize) -> Option<usize> {
        let k = self.pairs.binary_search_by_key(&open, |&(o, _)| o).ok()?;
        self.pairs.get(k).map(|&(_, close)| close + 1)
    }
}

/// Whether `v` is a fio JSON document: an object with a `jobs` or
/// `client_stats` array.
fn is_fio_json(v: &Value) -> bool {
    ["jobs", "client_stats"]
        .iter()
        .any(|k| v.get(k).is_some_and(Value::is_array))
}

/// Why the fio JSON that `text` names (`"fio version"`) could not be read:
/// the JSON error of the object around its first `"fio version"`, with the
/// line it is on; `None` when the text names none.
pub(super) fn unreadable_json(text: &str) -> Option<String> {
    let at = text.find("\"fio version\"")?;
    let start = text.get(..at)?.rfind('{')?;
    let rest = text.get(start..)?;
    let parsed = serde_json::Deserializer::from_str(rest)
        .into_iter::<Value>()
        .next()?;
    let line = text.get(..start)?.matches('\n').count() + 1;
    Some(match parsed {
        // found by the search for `"fio version"`, not by `find_json`: it
        // sits inside other JSON
        Ok(v) if is_fio_json(&v) => format!(
            "the fio JSON object on line {line} is inside other JSON (a wrapper such as \
             kubestr's `-o json`), which is not read; import fio's own JSON output"
        ),
        Ok(_) => format!("the JSON object starting on line {line} has no \"jobs\" array"),
        Err(e) if e.is_eof() => {
            format!("the fio JSON object starting on line {line} is cut off before its end")
        }
        Err(e) => {
            let text = e.to_string();
            let what = text
                .rsplit_once(" at line ")
                .map_or(text.as_str(), |(w, _)| w);
            format!(
                "the fio JSON object starting on line {line} is not valid JSON at line {}, \
                 column {}: {what}",
                line + e.line().saturating_sub(1),
                e.column()
            )
        }
    })
}

/// Why fio JSON document `doc` gave no job: its job list (`jobs`, or
/// `client_stats` of `fio --client`) is empty.
pub(super) fn no_jobs(doc: &Value) -> String {
    let version = doc
        .get("fio version")
        .and_then(Value::as_str)
        .map_or(String::new(), |v| format!(" ({})", v.trim()));
    let key = if doc.get("jobs").is_some() {
        "jobs"
    } else {
        "client_stats"
    };
    format!(
        "the fio JSON{version} has an empty \"{key}\" array: it holds no job's results \
         (expected one entry per job, or per server and job with `fio --client`, \
         with its read or write figures); run the job again and import that output"
    )
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
            // as strings, so that one where a number is read is named as
            // fio printed it (see `crate::tools::number`)
            let cleaned = text
                .replace(": -nan", ": \"-nan\"")
                .replace(": nan", ": \"nan\"")
                .replace(": -inf", ": \"-inf\"")
                .replace(": inf", ": \"inf\"");
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
    // io_bytes was KiB until fio 2.21 added io_kbytes and bw_bytes
    let kib_hint = version.as_deref().and_then(|v| version_below(v, 2, 21));
    let mut jobs = Vec::new();
    let list_key = if doc.get("jobs").is_some() {
        "jobs"
    } else {
        "client_stats"
    };
    let mut sums = Vec::new();
    for (i, entry) in list.iter().enumerate() {
        let mut options = global_options(doc, entry);
        if let Some(o) = entry.get("job options") {
            options.extend(json_options(o));
        }
        let name = entry
            .get("jobname")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let group = entry.get("groupid").and_then(Value::as_i64).unwrap_or(0);
        let dir = |key: &str| match entry.get(key) {
            Some(d) => json_dir(d, kib_hint, &format!("{list_key}[{i}].{key}")).map_err(in_json),
            None => Ok(None),
        };
        let steadystate = match entry.get("steadystate") {
            Some(v) => {
                json_steadystate(v, &format!("{list_key}[{i}].steadystate")).map_err(in_json)?
            }
            None => None,
        };
        let job = Job {
            name,
            group,
            jobs: 1,
            read: dir("read")?,
            write: dir("write")?,
            mixed: dir("mixed")?,
            host: entry
                .get("hostname")
                .and_then(Value::as_str)
                .map(str::to_string),
            port: entry.get("port").and_then(Value::as_u64),
            options,
            header: None,
            error: entry.get("error").and_then(Value::as_i64).unwrap_or(0),
            error_text: None,
            steadystate,
            part: serde_json::to_string_pretty(entry).ok(),
            // the document's, see `run_date`
            date: None,
        };
        if list_key == "client_stats" && job.name == ALL_CLIENTS {
            sums.push(job);
        } else {
            jobs.push(job);
        }
    }
    // fio's sum over every server of a group: the servers' own entries
    // hold it, so it is the group's result only where fio printed no entry
    // of a server (fio 2.x with `unified_rw_reporting`), and the record
    // names no server but `All clients`
    for mut sum in sums {
        if !jobs.iter().any(|j| j.group == sum.group) {
            sum.host = Some(ALL_CLIENTS.to_string());
            sum.port = None;
            jobs.push(sum);
        }
    }
    Ok((jobs, version))
}

/// The name fio gives its entry of a client/server group that sums every
/// server's.
const ALL_CLIENTS: &str = "All clients";

/// The `"global options"` that apply to `entry`: fio's object, or, in the
/// client/server output of fio 3.x, the element of fio's list that names
/// the entry's server (`hostname` and `port`); for an entry of no one
/// server (`All clients`), the options every element has alike.
fn global_options(doc: &Value, entry: &Value) -> OptionMap {
    let Some(global) = doc.get("global options") else {
        return OptionMap::new();
    };
    let Some(list) = global.as_array() else {
        return json_options(global);
    };
    let server = |v: &Value| (v.get("hostname").cloned(), v.get("port").cloned());
    let of_server = |v: &Value| {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("hostname");
            o.remove("port");
        }
        json_options(&v)
    };
    if let Some(own) = list.iter().find(|g| server(g) == server(entry)) {
        return of_server(own);
    }
    let mut all = list.iter().map(of_server);
    let mut common = all.next().unwrap_or_default();
    for other in all {
        common.retain(|k, v| other.get(k) == Some(v));
    }
    common
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

/// A bad number of fio's JSON, saying so.
fn in_json(e: BadNumber) -> anyhow::Error {
    anyhow::Error::new(e).context("fio JSON output")
}

/// A job's `steadystate` object (fio 3.x with `--ss`) at `at`; `None`
/// without one or when it lacks `ss` or `attained`; an error when its
/// `duration` is not a number >= 0.
fn json_steadystate(v: &Value, at: &str) -> Result<Option<SteadyState>, BadNumber> {
    let Some(obj) = v.as_object() else {
        return Ok(None);
    };
    let duration = json_field(obj, "duration", &format!("{at}.duration"))?;
    let attained = match obj.get("attained") {
        Some(Value::Bool(b)) => *b,
        Some(other) => match other.as_f64() {
            Some(x) => x != 0.0,
            None => return Ok(None),
        },
        None => return Ok(None),
    };
    let Some(ss) = obj.get("ss").and_then(Value::as_str) else {
        return Ok(None);
    };
    Ok(Some(SteadyState {
        ss: ss.trim().to_string(),
        duration,
        attained,
        criterion: obj
            .get("criterion")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .trim()
            .to_string(),
    }))
}

/// One direction of a JSON job, found at `at` (`jobs[0].read`); `None`
/// when it did no I/O. `kib_hint` says whether the named fio version
/// predates 2.21 (`None` when unnamed). An error when a figure it holds is
/// not a number >= 0 (see [`crate::tools::number`]).
pub(super) fn json_dir(
    v: &Value,
    kib_hint: Option<bool>,
    at: &str,
) -> Result<Option<Dir>, BadNumber> {
    let Some(obj) = v.as_object() else {
        return Ok(None);
    };
    let num = |key: &str| json_field(obj, key, &format!("{at}.{key}"));
    let (clat_key, lat_key, unit) = if obj.contains_key("clat_ns") || obj.contains_key("lat_ns") {
        ("clat_ns", "lat_ns", 1e-9)
    } else {
        ("clat", "lat", 1e-6)
    };
    let (clat, lat) = (obj.get(clat_key), obj.get(lat_key));
    let ios = num("total_ios")?;
    let iops = num("iops")?;
    let io_raw = num("io_bytes")?;
    let bw_bytes = num("bw_bytes")?;
    let bw_kib = num("bw")?;
    let runtime_ms = match num("runtime")? {
        Some(ms) => Some(ms),
        None => num("runt")?,
    };
    let lat_mean = match lat {
        Some(l) => json_mean(l, unit, &format!("{at}.{lat_key}"))?,
        None => None,
    };
    let clat_mean = match clat {
        Some(c) => json_mean(c, unit, &format!("{at}.{clat_key}"))?,
        None => None,
    };
    let mut clat_pct = BTreeMap::new();
    if let Some(p) = clat
        .and_then(|c| c.get("percentile"))
        .and_then(Value::as_object)
    {
        for (k, v) in p {
            let field = format!("{at}.{clat_key}.percentile[\"{}\"]", k.escape_debug());
            // 2.x pads the map with `"0.00": 0` entries that are no percentile
            let Some(key) = number::percentile(&format!("{at}.{clat_key}.percentile key"), k)?
            else {
                continue;
            };
            let x = match v.as_f64() {
                Some(x) => checked(&field, x)?,
                None => return Err(BadNumber::json(&field, v)),
            };
            clat_pct.insert(key, units::scale(x, unit));
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
            let field = format!("{at}.clat_ns.bins[\"{}\"]", k.escape_debug());
            let Ok(ns) = k.parse::<u64>() else {
                return Err(BadNumber::new(&format!("{at}.clat_ns.bins key"), k));
            };
            let n = match v.as_f64() {
                Some(n) => checked(&field, n)?,
                None => return Err(BadNumber::json(&field, v)),
            };
            clat_bins.insert(ns, n);
        }
    }
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
        return Ok(None);
    }
    Ok(Some(Dir {
        ios,
        iops,
        bw: bw_bytes.or(bw_kib.map(|kib| kib * 1024.0)),
        io_bytes,
        runtime: runtime_ms.map(|ms| ms / 1000.0),
        lat_mean,
        clat_mean,
        clat_pct,
        clat_bins,
        group_bw: Vec::new(),
    }))
}

/// A latency mean in seconds (`unit`: seconds per unit fio printed) of the
/// object at `at`; `None` when fio did not measure it (all zero).
fn json_mean(v: &Value, unit: f64, at: &str) -> Result<Option<f64>, BadNumber> {
    let Some(obj) = v.as_object() else {
        return Ok(None);
    };
    let Some(mean) = json_field(obj, "mean", &format!("{at}.mean"))? else {
        return Ok(None);
    };
    let max = json_field(obj, "max", &format!("{at}.max"))?.unwrap_or(mean);
    Ok((max > 0.0 || mean > 0.0).then_some(units::scale(mean, unit)))
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

/// How steadily fio held one figure while it ran: the standard deviation of
/// fio's own per-interval samples of a direction's IOPS or bandwidth (one
/// every `iops_avg_time`/`bw_avg_time`, 500 ms unless set) as a share of
/// their mean, and how many samples there were.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeldLevel {
    /// Standard deviation over mean, a fraction.
    pub spread: f64,
    /// Samples fio took.
    pub samples: u64,
}

/// [`HeldLevel`] of `metric` (`read_iops`, `write_bw`, ...) in the fio JSON
/// of `text`, a run of one job (or of one group reported as one: its
/// samples are then fio's for the group). `None` when the text holds no
/// such JSON, several jobs, another metric, or samples fio did not take
/// (fio 2.x counts none; a run shorter than one interval has none).
pub fn held_level(text: &str, metric: &str) -> Option<HeldLevel> {
    let (dir, figure) = metric.split_once('_')?;
    if !["read", "write", "trim"].contains(&dir) {
        return None;
    }
    let (mean, dev, count) = match figure {
        "iops" => ("iops_mean", "iops_stddev", "iops_samples"),
        "bw" => ("bw_mean", "bw_dev", "bw_samples"),
        _ => return None,
    };
    let doc = find_json(text)?;
    let [job] = doc.get("jobs")?.as_array()?.as_slice() else {
        return None;
    };
    let d = job.get(dir)?;
    let (mean, dev) = (d.get(mean)?.as_f64()?, d.get(dev)?.as_f64()?);
    let samples = d.get(count)?.as_u64()?;
    (mean > 0.0 && dev >= 0.0 && samples > 0).then(|| HeldLevel {
        spread: dev / mean,
        samples,
    })
}
