//! `fio`: building its command line and parsing its output.
//!
//! The parser reads fio's JSON (2.x and 3.x) and its normal text output (the
//! 2.0-2.16 `io=..., bw=..., iops=..., runt=...` form and the 2.17+
//! `IOPS=..., BW=...` form), optionally preceded by the command line or job
//! file that produced it. It returns one [`Parsed`] per reporting group.

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use serde_json::{Map, Value};

use super::Parsed;
use crate::record::Metric;
use crate::units::{self, Prefixes, Unit};

// ---------------------------------------------------------------- parsing

/// Whether `text` looks like fio output: JSON with a `"fio version"` key, or
/// text with a job header (`name: (g=0): rw=...`), a job result line
/// (`name: (groupid=0, jobs=1): err= 0`) or a `Run status group` summary.
pub fn looks_like(text: &str) -> bool {
    if text.contains("\"fio version\"") {
        return true;
    }
    text.contains("Run status group")
        || text
            .lines()
            .any(|l| job_header(l).is_some() || job_result_start(l.trim()).is_some())
}

/// Parses fio output into one [`Parsed`] per reporting group (`groupid`),
/// in group order.
///
/// JSON is used when the text holds a fio JSON object (notes fio prints on
/// stdout before it are skipped); otherwise the normal text output is read.
/// A command line (`fio --rw=randread ...`, `./fio job.ini`) or job file text
/// above the output adds the options the output does not state.
///
/// Several jobs in one group (numjobs > 1 without `group_reporting`, or
/// several job sections without `stonewall`) are combined as fio's
/// `group_reporting` does: IOPS, bandwidth and bytes are summed, runtime is
/// the longest job's. Latency means are the mean of the jobs' means weighted
/// by each job's I/O count (which is the exact mean over all I/Os).
/// Percentiles are the I/O-weighted mean of the jobs' percentiles: the true
/// pooled percentile lies between the smallest and the largest of the jobs'
/// percentiles, the weighted mean lies there too and equals it when the jobs'
/// distributions agree. A combined value that some job lacks is left out.
///
/// Fails when the text holds neither fio JSON with a `jobs` array nor text
/// job results with read or write lines.
pub fn parse(text: &str) -> Result<Vec<Parsed>> {
    let pre = preamble(text);
    let (jobs, version) = if let Some(json) = find_json(text) {
        json_jobs(&json)?
    } else {
        text_jobs(text)
    };
    if jobs.is_empty() {
        bail!(
            "no fio results found (expected fio JSON with \"fio version\" and a \"jobs\" \
             array, or fio text output with job results such as \
             `name: (groupid=0, jobs=1): err= 0` followed by `read:`/`write:` lines)"
        );
    }
    let mut groups: BTreeMap<i64, Vec<Job>> = BTreeMap::new();
    for job in jobs {
        groups.entry(job.group).or_default().push(job);
    }
    let mut out = Vec::new();
    for jobs in groups.values() {
        if let Some(p) = group_parsed(jobs, &pre, version.as_deref()) {
            out.push(p);
        }
    }
    if out.is_empty() {
        bail!("fio output holds no read or write results (expected a job with read or write I/O)");
    }
    Ok(out)
}

/// The test id of a fio test: `fio-<rw>-<bs>-qd<iodepth>`, with `-j<N>`
/// appended when `numjobs` is above 1. The block size is written in its
/// shortest lowercase form (`4096` → `4k`, `1048576` → `1m`, `512` → `512`).
/// The runner builds its ids with this function too, so imported and
/// measured results line up.
pub fn test_id(rw: &str, bs_bytes: u64, iodepth: u32, numjobs: u32) -> String {
    let mut id = format!(
        "fio-{rw}-{}-qd{iodepth}",
        crate::units::short_size(bs_bytes)
    );
    if numjobs > 1 {
        id.push_str(&format!("-j{numjobs}"));
    }
    id
}

/// One direction (read or write) of one job, in canonical units.
#[derive(Clone, Debug, Default, PartialEq)]
struct Dir {
    /// Completed I/Os.
    ios: Option<f64>,
    iops: Option<f64>,
    /// Bytes per second.
    bw: Option<f64>,
    io_bytes: Option<f64>,
    /// Seconds.
    runtime: Option<f64>,
    /// Mean total latency, seconds.
    lat_mean: Option<f64>,
    /// Mean completion latency, seconds.
    clat_mean: Option<f64>,
    /// Completion latency percentiles: thousandths of a percent to seconds.
    clat_pct: BTreeMap<u32, f64>,
}

impl Dir {
    /// The I/O count used to weight this job's latencies.
    fn weight(&self) -> Option<f64> {
        self.ios
            .or_else(|| Some(self.iops? * self.runtime?))
            .filter(|w| w.is_finite() && *w > 0.0)
    }
}

/// One job's results as fio reported them.
#[derive(Clone, Debug, Default)]
struct Job {
    name: String,
    group: i64,
    /// How many fio jobs this entry stands for (`jobs=N` of text output).
    jobs: u32,
    read: Option<Dir>,
    write: Option<Dir>,
    /// Options the output states (JSON global then job options), raw.
    options: BTreeMap<String, String>,
    /// Parameters from a text job header line.
    header: Option<Header>,
}

/// What a text job header line (`name: (g=0): rw=..., bs=..., ioengine=...,
/// iodepth=N`) states.
#[derive(Clone, Debug, Default, PartialEq)]
struct Header {
    name: String,
    group: i64,
    rw: Option<String>,
    /// Block size per direction (read, write, trim), `(min, max)` bytes.
    bs: Vec<(u64, u64)>,
    ioengine: Option<String>,
    iodepth: Option<u32>,
}

/// Options found above the output: a pasted command line and job file text.
#[derive(Clone, Debug, Default)]
struct Preamble {
    command: Option<String>,
    global: BTreeMap<String, String>,
    per_job: BTreeMap<String, BTreeMap<String, String>>,
}

// ------------------------------------------------------------------ JSON

/// The first fio JSON object in `text` (one with a `jobs` key), skipping
/// anything fio or the user printed before it.
fn find_json(text: &str) -> Option<Value> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset + (line.len() - line.trim_start().len());
        offset += line.len();
        if !line.trim_start().starts_with('{') {
            continue;
        }
        let rest = text.get(start..)?;
        if let Some(v) = first_json_value(rest) {
            if v.get("jobs").is_some() {
                return Some(v);
            }
        }
    }
    None
}

/// The JSON value at the start of `text`; text after it is ignored.
fn first_json_value(text: &str) -> Option<Value> {
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
fn json_jobs(doc: &Value) -> Result<(Vec<Job>, Option<String>)> {
    let version = doc
        .get("fio version")
        .and_then(Value::as_str)
        .map(clean_version);
    let Some(list) = doc.get("jobs").and_then(Value::as_array) else {
        bail!("fio JSON without a \"jobs\" array (expected the output of --output-format=json)");
    };
    let global = doc
        .get("global options")
        .map(string_options)
        .unwrap_or_default();
    // io_bytes was KiB until fio 2.21 added io_kbytes and bw_bytes
    let kib_hint = version.as_deref().and_then(|v| version_below(v, 2, 21));
    let mut jobs = Vec::new();
    for entry in list {
        let mut options = global.clone();
        if let Some(o) = entry.get("job options") {
            options.extend(string_options(o));
        }
        let name = entry
            .get("jobname")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let group = entry.get("groupid").and_then(Value::as_i64).unwrap_or(0);
        jobs.push(Job {
            name,
            group,
            jobs: 1,
            read: entry.get("read").and_then(|d| json_dir(d, kib_hint)),
            write: entry.get("write").and_then(|d| json_dir(d, kib_hint)),
            options,
            header: None,
        });
    }
    Ok((jobs, version))
}

fn string_options(v: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if let Some(map) = v.as_object() {
        for (k, v) in map {
            let s = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => continue,
            };
            out.insert(k.clone(), s);
        }
    }
    out
}

fn num(obj: &Map<String, Value>, key: &str) -> Option<f64> {
    obj.get(key)?.as_f64().filter(|x| x.is_finite())
}

/// One direction of a JSON job; `None` when it did no I/O. `kib_hint` says
/// whether the named fio version predates 2.21 (`None` when unnamed).
fn json_dir(v: &Value, kib_hint: Option<bool>) -> Option<Dir> {
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
    Some(Dir {
        ios,
        iops,
        bw,
        io_bytes,
        runtime,
        lat_mean: lat.and_then(|l| json_mean(l, unit)),
        clat_mean: clat.and_then(|c| json_mean(c, unit)),
        clat_pct,
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
fn pct_key(k: &str) -> Option<u32> {
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
fn version_below(v: &str, major: u64, minor: u64) -> Option<bool> {
    let mut parts = v.split(|c: char| !c.is_ascii_digit());
    let ma = parts.next()?.parse::<u64>().ok()?;
    let mi = parts
        .next()
        .and_then(|p| p.parse::<u64>().ok())
        .unwrap_or(0);
    Some((ma, mi) < (major, minor))
}

// ------------------------------------------------------------------ text

/// A number as printed, with its relative rounding error (half a unit in
/// the last printed digit, divided by the number).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Printed {
    value: f64,
    rel_err: f64,
}

/// Reads a printed number and returns it with its rounding error and the
/// text after it.
fn printed_number(text: &str) -> Option<(Printed, &str)> {
    let t = text.trim_start();
    let end = t
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.'))
        .map_or(t.len(), |(i, _)| i);
    let digits = t.get(..end)?;
    let value: f64 = digits.parse().ok()?;
    let decimals = digits.split_once('.').map_or(0, |(_, d)| d.len());
    let half_ulp = 0.5 * 10f64.powi(-(decimals.min(30) as i32));
    let rel_err = if value > 0.0 {
        half_ulp / value
    } else {
        f64::INFINITY
    };
    Some((Printed { value, rel_err }, t.get(end..)?))
}

/// Candidates for one direction line's figures, before the exact `issued`
/// count is known.
#[derive(Clone, Debug, Default, PartialEq)]
struct DirLine {
    iops: Option<f64>,
    /// Bandwidth candidates in B/s with their rounding errors.
    bw: Vec<Printed>,
    io_bytes: Option<Printed>,
    runtime: Option<f64>,
}

/// Parses the figures of a direction line, after `read:`/`write:`.
///
/// Old (2.0-2.16): `io=512.0MB, bw=104857KB/s, iops=26214 , runt=  5000msec`,
/// where `KB`/`MB` are KiB/MiB. New (2.17+): `IOPS=26.2k, BW=102MiB/s
/// (107MB/s)(512MiB/5001msec)`, where the parenthesised rate is SI.
fn dir_line(rest: &str) -> DirLine {
    let rest = rest.split(';').next().unwrap_or_default();
    let mut d = DirLine::default();
    if rest.trim_start().starts_with("IOPS=") || rest.contains("BW=") {
        for part in split_top_level(rest) {
            let part = part.trim();
            if let Some(v) = part.strip_prefix("IOPS=") {
                d.iops = count(v);
            } else if let Some(v) = part.strip_prefix("BW=") {
                new_bw(v, &mut d);
            }
        }
    } else {
        for part in rest.split(',') {
            let Some((k, v)) = part.split_once('=') else {
                continue;
            };
            match k.trim() {
                "io" => d.io_bytes = sized(v, Prefixes::Binary, units::byte_multiplier),
                "bw" => d.bw.extend(sized(v, Prefixes::Binary, units_bw)),
                "iops" => d.iops = count(v),
                "runt" => d.runtime = time(v),
                _ => {}
            }
        }
    }
    if let (Some(io), Some(rt)) = (d.io_bytes, d.runtime) {
        if rt > 0.0 {
            // fio computed its rate from these same bytes and milliseconds
            d.bw.push(Printed {
                value: io.value / rt,
                rel_err: io.rel_err,
            });
        }
    }
    d
}

/// Splits at commas outside parentheses.
fn split_top_level(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth <= 0 => {
                out.push(s.get(start..i).unwrap_or_default());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s.get(start..).unwrap_or_default());
    out
}

/// `102MiB/s (107MB/s)(512MiB/5001msec)`.
fn new_bw(v: &str, d: &mut DirLine) {
    let (main, parens) = match v.find('(') {
        Some(i) => (
            v.get(..i).unwrap_or_default(),
            v.get(i..).unwrap_or_default(),
        ),
        None => (v, ""),
    };
    d.bw.extend(sized(main, Prefixes::Si, units_bw));
    for group in parens.split('(').skip(1) {
        let inner = group.split(')').next().unwrap_or_default();
        if let Some((io, rt)) = inner.split_once('/').filter(|(_, rt)| rt.contains("sec")) {
            d.io_bytes = sized(io, Prefixes::Si, units::byte_multiplier);
            d.runtime = time(rt);
        } else if let Some(b) = sized(inner, Prefixes::Si, units_bw) {
            d.bw.push(b);
        }
    }
}

fn units_bw(unit: &str, p: Prefixes) -> Option<f64> {
    units::bytes_per_sec(1.0, unit, p)
}

/// A printed number with a unit converted by `mult`.
fn sized(v: &str, p: Prefixes, mult: fn(&str, Prefixes) -> Option<f64>) -> Option<Printed> {
    let (n, unit) = printed_number(v)?;
    let m = mult(unit.trim(), p)?;
    let value = n.value * m;
    value.is_finite().then_some(Printed {
        value,
        rel_err: n.rel_err,
    })
}

/// `26.2k`, `26214 ` → a plain count.
fn count(v: &str) -> Option<f64> {
    let (n, rest) = units::split_number(v)?;
    units::count(n, rest).filter(|x| x.is_finite())
}

/// `5000msec`, `  28msec` → seconds.
fn time(v: &str) -> Option<f64> {
    let (n, rest) = units::split_number(v)?;
    units::seconds(n, rest)
}

/// `name: (g=0): rw=randread, bs=..., ioengine=libaio, iodepth=64`.
fn job_header(line: &str) -> Option<Header> {
    let (name, rest) = line.split_once(": (g=")?;
    let (group, rest) = rest.split_once("):")?;
    let group: i64 = group.trim().parse().ok()?;
    let rest = rest.trim();
    let rw = field(rest, "rw=").map(str::to_string);
    rw.as_ref()?;
    let bs = rest
        .find("bs=")
        .and_then(|i| rest.get(i + 3..))
        .map(|b| match b.find(", ioengine=") {
            Some(e) => b.get(..e).unwrap_or_default(),
            None => b,
        })
        .map(header_bs)
        .unwrap_or_default();
    Some(Header {
        name: name.trim().to_string(),
        group,
        rw,
        bs,
        ioengine: field(rest, "ioengine=").map(str::to_string),
        iodepth: field(rest, "iodepth=").and_then(|v| v.parse().ok()),
    })
}

/// The value after `key` up to the next comma (`rw=` must not match `bs=`'s
/// tail, so a key matches at the start or after `, `).
fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let start = if text.starts_with(key) {
        key.len()
    } else {
        text.find(&format!(", {key}"))? + 2 + key.len()
    };
    let v = text.get(start..)?;
    let v = v.split(',').next()?.trim();
    (!v.is_empty()).then_some(v)
}

/// `4K-4K/4K-4K` (old) or `(R) 4096B-4096B, (W) 4096B-4096B, (T) ...` (new).
fn header_bs(text: &str) -> Vec<(u64, u64)> {
    let parts: Vec<&str> = if text.contains("(R)") || text.contains("(W)") {
        text.split('(')
            .filter_map(|p| {
                p.split_once(')')
                    .map(|(_, v)| v.trim().trim_end_matches(','))
            })
            .collect()
    } else {
        text.split('/').collect()
    };
    parts
        .iter()
        .filter_map(|p| {
            let (lo, hi) = p.trim().split_once('-')?;
            Some((output_size(lo)?, output_size(hi)?))
        })
        .collect()
}

/// A size as fio prints it in output (`4096B`, `4K`, `16.0KiB`, `512`):
/// binary prefixes.
fn output_size(v: &str) -> Option<u64> {
    let (n, unit) = units::split_number(v)?;
    let b = n * units::byte_multiplier(unit.trim(), Prefixes::Binary)?;
    (b.is_finite() && (0.0..1e18).contains(&b)).then_some(b.round() as u64)
}

/// `name: (groupid=0, jobs=1): err= 0: ...` → name, group, jobs.
fn job_result_start(t: &str) -> Option<(String, i64, u32)> {
    let i = t.find(": (groupid=")?;
    let name = t.get(..i)?.trim().to_string();
    let rest = t.get(i + ": (groupid=".len()..)?;
    let (group, rest) = rest.split_once(',')?;
    let group: i64 = group.trim().parse().ok()?;
    let jobs = rest
        .trim_start()
        .strip_prefix("jobs=")
        .and_then(|r| r.split(')').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(1);
    Some((name, group, jobs))
}

/// Which direction a text line reports: `read : io=...`, `  write: IOPS=...`.
fn direction_line(t: &str) -> Option<(usize, &str)> {
    for (i, word) in ["read", "write", "trim"].iter().enumerate() {
        if let Some(rest) = t.strip_prefix(word) {
            if let Some(rest) = rest.trim_start().strip_prefix(':') {
                if rest.contains("io=") || rest.contains("IOPS=") || rest.contains("BW=") {
                    return Some((i, rest));
                }
            }
        }
    }
    None
}

/// `clat (usec): min=38, max=2600, avg=68.87` → (`clat`, mean in seconds).
fn lat_line(t: &str) -> Option<(&str, f64)> {
    let (kind, rest) = t.split_once('(')?;
    let kind = kind.trim();
    if !matches!(kind, "clat" | "lat") {
        return None;
    }
    let (unit, rest) = rest.split_once(')')?;
    let rest = rest.trim_start().strip_prefix(':')?;
    let avg = rest
        .split(',')
        .find_map(|p| p.trim().strip_prefix("avg="))?;
    let (n, suffix) = units::split_number(avg)?;
    let mean = units::count(n, suffix)?;
    Some((kind, units::seconds(mean, unit)?))
}

/// A percentile block header: `Some(Some(factor))` for `clat percentiles
/// (usec):`, `Some(None)` for the blocks that are not ours (lat, slat, sync).
fn pct_header(t: &str) -> Option<Option<f64>> {
    if !t.contains("percentiles") {
        return None;
    }
    let Some(rest) = t.strip_prefix("clat percentiles") else {
        return Some(None);
    };
    let unit = rest.trim().trim_start_matches('(').split(')').next()?;
    Some(units::seconds_multiplier(unit))
}

/// `|  1.00th=[  545],  5.00th=[  570], ...` → (thousandths, value).
fn pct_entries(t: &str) -> Vec<(u32, f64)> {
    t.trim_start_matches('|')
        .split("],")
        .filter_map(|e| {
            let (k, v) = e.split_once("th=")?;
            let key = pct_key(k.trim_start_matches([',', '|', ' ']))?;
            let v = v
                .trim()
                .trim_start_matches('[')
                .trim_end_matches(']')
                .trim();
            let (n, suffix) = units::split_number(v)?;
            Some((key, units::count(n, suffix)?))
        })
        .collect()
}

/// `issued rwts: total=145298,0,0,0 short=0,0,0,0` (new) or
/// `issued    : total=r=131072/w=0/d=0, short=r=0/w=0/d=0` (old) →
/// ([read, write] totals, whether any I/O was short).
fn issued_line(t: &str) -> Option<([Option<f64>; 2], bool)> {
    let rest = t.strip_prefix("issued")?;
    let total = rest.split("total=").nth(1)?;
    let total = total.split([' ', '\t']).next()?.trim_end_matches(',');
    let short = rest
        .split("short=")
        .nth(1)
        .map(|s| s.split([' ', '\t']).next().unwrap_or_default());
    let values = |s: &str| -> Vec<Option<f64>> {
        s.split([',', '/'])
            .map(|v| {
                let v = v.split('=').next_back().unwrap_or(v);
                v.trim().parse::<f64>().ok().filter(|x| x.is_finite())
            })
            .collect()
    };
    let t = values(total);
    let short_any = short
        .map(|s| values(s).iter().any(|v| v.is_some_and(|x| x > 0.0)))
        .unwrap_or(false);
    Some((
        [t.first().copied().flatten(), t.get(1).copied().flatten()],
        short_any,
    ))
}

/// A text job block while it is read.
#[derive(Default)]
struct TextJob {
    name: String,
    group: i64,
    jobs: u32,
    lines: [Option<(DirLine, Dir)>; 2],
    issued: [Option<f64>; 2],
    short: bool,
}

/// Reads every job block of fio's normal text output.
fn text_jobs(text: &str) -> (Vec<Job>, Option<String>) {
    let mut headers: Vec<Header> = Vec::new();
    let mut version = None;
    let mut blocks: Vec<TextJob> = Vec::new();
    let mut in_block = false;
    // index of the direction the following lines belong to (2 = trim/other)
    let mut cur: Option<usize> = None;
    // unit factor of the clat percentile block being read
    let mut pct: Option<f64> = None;
    let mut after_header = false;
    for line in text.split(['\n', '\r']) {
        let t = line.trim();
        if let Some(h) = job_header(line) {
            headers.push(h);
            after_header = true;
            continue;
        }
        if version.is_none() {
            if let Some(v) = version_line(t, after_header) {
                version = Some(v);
                continue;
            }
        }
        if t != "..." && !t.is_empty() {
            after_header = false;
        }
        if let Some((name, group, jobs)) = job_result_start(t) {
            blocks.push(TextJob {
                name,
                group,
                jobs,
                ..TextJob::default()
            });
            in_block = true;
            cur = None;
            pct = None;
            continue;
        }
        if t.starts_with("Run status group") || t.starts_with("Disk stats") {
            in_block = false;
            continue;
        }
        if !in_block {
            continue;
        }
        let Some(job) = blocks.last_mut() else {
            continue;
        };
        if let Some((i, rest)) = direction_line(t) {
            pct = None;
            cur = Some(i);
            if let Some(slot) = job.lines.get_mut(i) {
                *slot = Some((dir_line(rest), Dir::default()));
            }
            continue;
        }
        if let Some(factor) = pct_header(t) {
            pct = factor;
            continue;
        }
        if t.starts_with('|') {
            if let (Some(f), Some(Some((_, dir)))) = (pct, cur.and_then(|i| job.lines.get_mut(i))) {
                for (k, v) in pct_entries(t) {
                    dir.clat_pct.insert(k, units::scale(v, f));
                }
            }
            continue;
        }
        pct = None;
        if let Some((kind, mean)) = lat_line(t) {
            if let Some(Some((_, dir))) = cur.and_then(|i| job.lines.get_mut(i)) {
                if kind == "clat" {
                    dir.clat_mean = Some(mean);
                } else {
                    dir.lat_mean = Some(mean);
                }
            }
            continue;
        }
        if let Some((totals, short)) = issued_line(t) {
            job.issued = totals;
            job.short = short;
        }
    }
    let jobs = blocks
        .into_iter()
        .map(|b| {
            let header = headers
                .iter()
                .find(|h| h.name == b.name && h.group == b.group)
                .or_else(|| headers.iter().find(|h| h.group == b.group))
                .cloned();
            finish_text_job(b, header)
        })
        .collect();
    (jobs, version)
}

/// `fio-3.33`, `fio 2.1.3`, or a bare `2.0.8` right after the job headers.
fn version_line(t: &str, after_header: bool) -> Option<String> {
    let v = t
        .strip_prefix("fio-")
        .or_else(|| t.strip_prefix("fio "))
        .or_else(|| after_header.then_some(t))?;
    let mut chars = v.chars();
    let first_digit = chars.next().is_some_and(|c| c.is_ascii_digit());
    (first_digit && v.contains('.') && !v.contains(' ')).then(|| v.to_string())
}

/// Turns a text job block into a [`Job`], using the exact `issued` count
/// where it pins a figure down.
///
/// Which figure is used: IOPS is the issued I/O count divided by the
/// runtime (fio's own formula, so exact) and otherwise the printed IOPS.
/// Bandwidth is issued count × block size / runtime when the block size is
/// fixed and no I/O was short (exact); otherwise whichever printed figure
/// carries the most significant digits: the binary rate (`102MiB/s`), the
/// SI rate in parentheses (`107MB/s`), or bytes / runtime (`512MiB/5001msec`;
/// the runtime is the exact integer fio divided by), since each is rounded
/// to a few digits and the longest one is rounded least.
fn finish_text_job(b: TextJob, header: Option<Header>) -> Job {
    let mut dirs: [Option<Dir>; 2] = [None, None];
    for (i, slot) in b.lines.into_iter().take(2).enumerate() {
        let Some((line, mut dir)) = slot else {
            continue;
        };
        let ios = b.issued.get(i).copied().flatten();
        if ios == Some(0.0) {
            continue;
        }
        let bs = header
            .as_ref()
            .and_then(|h| h.bs.get(i).copied())
            .filter(|(lo, hi)| lo == hi && *lo > 0)
            .map(|(lo, _)| lo as f64);
        dir.ios = ios;
        dir.runtime = line.runtime;
        let rt = line.runtime.filter(|r| *r > 0.0);
        dir.iops = match (ios, rt) {
            (Some(n), Some(rt)) => Some(n / rt),
            _ => line.iops,
        };
        let exact_bytes = match (ios, bs, b.short) {
            (Some(n), Some(bs), false) => Some(n * bs),
            _ => None,
        };
        dir.io_bytes = exact_bytes.or(line.io_bytes.map(|p| p.value));
        dir.bw = match (exact_bytes, rt) {
            (Some(bytes), Some(rt)) => Some(bytes / rt),
            _ => line
                .bw
                .iter()
                .copied()
                .reduce(|a, c| if c.rel_err < a.rel_err { c } else { a })
                .map(|p| p.value),
        };
        if let Some(d) = dirs.get_mut(i) {
            *d = Some(dir);
        }
    }
    let [read, write] = dirs;
    Job {
        name: b.name,
        group: b.group,
        jobs: b.jobs.max(1),
        read,
        write,
        options: BTreeMap::new(),
        header,
    }
}

// ------------------------------------------ pasted invocation and job file

/// Finds a pasted fio command line and job file text above the output.
fn preamble(text: &str) -> Preamble {
    let mut pre = Preamble::default();
    let mut section: Option<String> = None;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('{') || job_header(line).is_some() || job_result_start(t).is_some() {
            break;
        }
        if pre.command.is_none() {
            if let Some((cmd, args)) = command_line(t) {
                apply_args(&args, &mut pre);
                pre.command = Some(cmd);
                section = None;
                continue;
            }
        }
        if t.is_empty() || t.starts_with(';') || t.starts_with('#') {
            continue;
        }
        if let Some(name) = t.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            section = Some(name.trim().to_string());
            continue;
        }
        let Some(sec) = section.as_deref() else {
            continue;
        };
        let (k, v) = t.split_once('=').unwrap_or((t, ""));
        let k = k.trim();
        if k.is_empty() || !k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            section = None;
            continue;
        }
        let map = if sec == "global" {
            &mut pre.global
        } else {
            pre.per_job.entry(sec.to_string()).or_default()
        };
        map.insert(k.to_string(), v.trim().to_string());
    }
    pre
}

/// Reads one fio command line (`fio --rw=randread --bs=4k --iodepth=64
/// --name=job`, also after a prompt or `sudo`) into its test id (see
/// [`test_id`]), parameters and command, with no metrics: the same reading
/// [`parse`] gives a command line pasted above fio's output. Options before
/// the first `--name` hold for every job; a job file named on the line is
/// not read, so only the options on the line count.
///
/// Fails when the line runs no fio, when it names more than one job (which
/// would be several tests), or when its options state no `rw` and fixed
/// `bs` (so no test id can be given).
pub fn read_command(line: &str) -> Result<Parsed> {
    let Some((command, args)) = command_line(line.trim()) else {
        bail!("`{line}`: expected a fio command line such as `fio --rw=randread --bs=4k`");
    };
    let mut pre = Preamble::default();
    apply_args(&args, &mut pre);
    if pre.per_job.len() > 1 {
        bail!(
            "`{line}`: expected options for one job, found {} `--name` jobs",
            pre.per_job.len()
        );
    }
    let mut opts = pre.global;
    for job_opts in pre.per_job.into_values() {
        opts.extend(job_opts);
    }
    let (parameters, test_id) = settings(&opts, None, 1);
    if test_id.is_none() {
        bail!("`{line}`: expected `--rw=` and a fixed `--bs=` to name the test");
    }
    Ok(Parsed {
        parameters,
        test_id,
        command: Some(command),
        ..Parsed::default()
    })
}

/// A line that runs fio (`fio ...`, `./fio job.ini`, `$ sudo fio ...`):
/// the command from `fio` on, and its arguments.
fn command_line(t: &str) -> Option<(String, Vec<String>)> {
    let tokens: Vec<&str> = t.split_whitespace().collect();
    let pos = tokens
        .iter()
        .position(|tok| tok.rsplit('/').next() == Some("fio"))?;
    let before_ok = tokens.get(..pos)?.iter().all(|tok| {
        matches!(*tok, "$" | "#" | ">" | "sudo") || tok.ends_with('$') || tok.ends_with('#')
    });
    let args: Vec<String> = tokens
        .get(pos + 1..)?
        .iter()
        .map(|s| s.to_string())
        .collect();
    if !before_ok || args.is_empty() || args.iter().any(|a| a == "--version" || a == "-v") {
        return None;
    }
    let start = t.find(tokens.get(pos)?)?;
    Some((t.get(start..)?.to_string(), args))
}

/// Sorts `--key=value` arguments into global options (before the first
/// `--name`) and per-job options.
fn apply_args(args: &[String], pre: &mut Preamble) {
    let mut job: Option<String> = None;
    for a in args {
        let Some(opt) = a.strip_prefix("--").or_else(|| a.strip_prefix('-')) else {
            continue;
        };
        let (k, v) = opt.split_once('=').unwrap_or((opt, ""));
        let v = v.trim_matches(['"', '\'']).to_string();
        if k == "name" {
            job = Some(v.clone());
            pre.per_job.entry(v).or_default();
            continue;
        }
        match &job {
            Some(j) => {
                pre.per_job
                    .entry(j.clone())
                    .or_default()
                    .insert(k.to_string(), v);
            }
            None => {
                pre.global.insert(k.to_string(), v);
            }
        }
    }
}

// ------------------------------------------------------ groups to Parsed

/// Combines one group's jobs into metrics and parameters.
fn group_parsed(jobs: &[Job], pre: &Preamble, version: Option<&str>) -> Option<Parsed> {
    let first = jobs.first()?;
    let read = combine(jobs.iter().filter_map(|j| j.read.as_ref()).collect());
    let write = combine(jobs.iter().filter_map(|j| j.write.as_ref()).collect());
    if read.is_none() && write.is_none() {
        return None;
    }
    let mut metrics = BTreeMap::new();
    for (prefix, dir) in [("read", &read), ("write", &write)] {
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
        for (key, name) in [
            (50_000, "clat_p50"),
            (99_000, "clat_p99"),
            (99_900, "clat_p99_9"),
        ] {
            put(name, d.clat_pct.get(&key).copied(), Unit::Seconds);
        }
    }
    let runtime = [&read, &write]
        .iter()
        .filter_map(|d| d.as_ref().and_then(|d| d.runtime))
        .reduce(f64::max);
    if let Some(rt) = runtime.filter(|r| r.is_finite() && *r > 0.0) {
        metrics.insert("runtime".to_string(), Metric::new(rt, Unit::Seconds));
    }

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
    let (parameters, test_id) = settings(&opts, first.header.as_ref(), fallback_jobs);
    Some(Parsed {
        metrics,
        parameters,
        tool_version: version.map(str::to_string),
        test_id,
        command: pre.command.clone(),
    })
}

/// The parameters and test id that a job's options (command line and job
/// file, then what the output states) and its text header give. The header
/// wins for rw, iodepth and ioengine because it is what fio ran; numjobs
/// falls back to `fallback_jobs` when no option states it.
fn settings(
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
    let test_id = match (&rw, bs) {
        (Some(rw), Some(bs)) => Some(test_id(rw, bs, iodepth.unwrap_or(1), numjobs)),
        _ => None,
    };
    (parameters, test_id)
}

fn opt<'a>(opts: &'a BTreeMap<String, String>, keys: &[&str]) -> Option<&'a str> {
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
fn fixed_bs(per_dir: &[(u64, u64)], rw: Option<&str>) -> Option<u64> {
    let mut sizes = used_dirs(rw).iter().filter_map(|&i| per_dir.get(i));
    let &(lo, hi) = sizes.next()?;
    (lo == hi && lo > 0 && sizes.all(|&(l, h)| l == lo && h == lo)).then_some(lo)
}

/// A `bs=` option (`4k`, `4k,64k`) to the workload's one block size.
fn option_bs(v: &str, rw: Option<&str>, si: bool) -> Option<u64> {
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
fn option_size(v: &str, si: bool) -> Option<u64> {
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
fn option_seconds(v: &str) -> Option<f64> {
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

/// Combines one direction over a group's jobs (see [`parse`] for the rules).
fn combine(dirs: Vec<&Dir>) -> Option<Dir> {
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
    if let Some(first) = dirs.first() {
        for key in first.clat_pct.keys() {
            if let Some(v) = weighted(&|d: &Dir| d.clat_pct.get(key).copied()) {
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
    })
}

// ----------------------------------------------------------- command line

use crate::run::plan::{BuildCtx, Invocation, OutputFrom, ParamReader, Params};

/// Options that would send fio's I/O, output or logs somewhere other than
/// the job's scratch directory, run other programs, or touch the system
/// (I/O scheduler, cgroups), so a suite may not set them.
const RESERVED: &[&str] = &[
    "name",
    "filename",
    "directory",
    "filename_format",
    "opendir",
    "output",
    "output-format",
    "write_iolog",
    "read_iolog",
    "replay_redirect",
    "merge_blktrace_file",
    "write_bw_log",
    "write_lat_log",
    "write_iops_log",
    "write_hist_log",
    "exec_prerun",
    "exec_postrun",
    "ioscheduler",
    "cgroup",
    "profile",
    "trigger",
    "trigger-file",
    "trigger-remote",
    "client",
    "server",
    "daemonize",
    "aux-path",
];

/// Whether fio would read `key` as a reserved option: fio's command line
/// takes any unambiguous prefix of a long option (`--opendi` is `--opendir`),
/// so a prefix of a reserved name is refused too.
fn is_reserved(key: &str) -> bool {
    !key.is_empty() && RESERVED.iter().any(|r| r.starts_with(key))
}

/// Builds `fio --name=<id> --filename=<dir>/fio.dat --rw=.. --bs=..
/// --iodepth=.. --ioengine=.. --direct=.. --size=.. [--runtime=..]
/// --output-format=json --output=<dir>/fio.json`. Known parameters come in
/// that order; any other key is passed on as `--key=value` (sorted), except
/// those that would point fio outside the scratch directory.
pub fn command(params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
    let mut p = ParamReader::new("fio", params, ctx.memory_bytes);
    let file = ctx.dir.join("fio.dat");
    let out = ctx.dir.join("fio.json");
    let mut args = vec![
        format!("--name={}", ctx.test_id),
        // fio splits --filename at `:` (several files); a colon in the path is escaped
        format!(
            "--filename={}",
            file.display().to_string().replace(':', "\\:")
        ),
    ];
    let mut parameters = Params::new();
    // fio applies kb_base to the options after it only: it goes first
    let kb_base = p.string("kb_base")?;
    if let Some(k) = &kb_base {
        args.push(format!("--kb_base={k}"));
        parameters.insert("kb_base".into(), json_scalar(k));
    }
    let kb_base_si = kb_base.as_deref() == Some("1000");
    let defaults = [
        ("rw", "read"),
        ("bs", "4k"),
        ("iodepth", "1"),
        ("ioengine", "libaio"),
        ("direct", "1"),
    ];
    for (key, default) in defaults {
        let v = p.string(key)?.unwrap_or_else(|| default.to_string());
        args.push(format!("--{key}={v}"));
        // a plain block size is stored in bytes, as imported records have it
        let value = match option_size(&v, kb_base_si) {
            Some(bytes) if key == "bs" => bytes.into(),
            _ => json_scalar(&v),
        };
        parameters.insert(key.into(), value);
    }
    let size_text = p.string("size")?.unwrap_or_else(|| "1G".to_string());
    // fio takes plain sizes itself; an `NxRAM` size is passed resolved
    let (size, size_arg) = if size_text.contains("RAM") || size_text.contains("ram") {
        let size = crate::run::plan::parse_size(&size_text, ctx.memory_bytes)
            .map_err(|e| anyhow::anyhow!("fio parameter `size`: {e}"))?;
        (size, size.to_string())
    } else {
        // read as fio reads it: by default `1MiB` is 10^6 bytes to fio
        let size = option_size(&size_text, kb_base_si).ok_or_else(|| {
            anyhow::anyhow!(
                "fio parameter `size = {size_text}`: expected a size such as 64M, 1G or 2xRAM"
            )
        })?;
        (size, size_text.clone())
    };
    args.push(format!("--size={size_arg}"));
    parameters.insert("size".into(), size.into());
    let runtime = p.count("runtime")?;
    let mut estimate = 1.0 + size as f64 / 50e6;
    if let Some(r) = runtime {
        args.push(format!("--runtime={r}"));
        // seconds as a float, as the parser gives it for imported records
        parameters.insert("runtime".into(), (r as f64).into());
        estimate = estimate.min(1.0 + r as f64);
    }
    for (k, v) in p.rest() {
        // anything but a plain option name could smuggle `=value` into the argument
        if k.is_empty()
            || !k
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            bail!("fio parameter `{k}`: expected an option name (letters, digits, `_`, `-`)");
        }
        if is_reserved(k) {
            bail!(
                "fio parameter `{k}` cannot be set in a suite: diskdash chooses where fio writes"
            );
        }
        // `mem=mmap:FILE` (and iomem) backs the buffers with a file of that name
        let memory_option = ["mem", "iomem"].iter().any(|m| m.starts_with(k.as_str()));
        if memory_option && v.as_str().is_some_and(|s| s.contains(':')) {
            bail!(
                "fio parameter `{k} = {v}`: a backing file cannot be set in a suite: diskdash chooses where fio writes"
            );
        }
        match v {
            serde_json::Value::Bool(true) => args.push(format!("--{k}")),
            serde_json::Value::Bool(false) => continue,
            serde_json::Value::String(s) => args.push(format!("--{k}={s}")),
            serde_json::Value::Number(n) => args.push(format!("--{k}={n}")),
            other => bail!("fio parameter `{k} = {other}`: expected a string, number or boolean"),
        }
        parameters.insert(k.clone(), v.clone());
    }
    args.push("--output-format=json".into());
    args.push(format!("--output={}", out.display()));
    Ok(Invocation {
        program: "fio".into(),
        args,
        env: Vec::new(),
        output: OutputFrom::File(out),
        bytes: size,
        estimate_s: estimate,
        parameters,
    })
}

/// A number stays a number in the record, everything else a string.
fn json_scalar(text: &str) -> serde_json::Value {
    match text.parse::<u64>() {
        Ok(n) => n.into(),
        Err(_) => text.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RANDREAD_JSON: &str = include_str!("../../tests/fixtures/fio/randread-4k-qd64.json");
    const RANDREAD_TXT: &str = include_str!("../../tests/fixtures/fio/randread-4k-qd64.txt");
    const RANDWRITE_JSON: &str = include_str!("../../tests/fixtures/fio/randwrite-4k-qd64.json");
    const NOTE_JSON: &str = include_str!("../../tests/fixtures/fio/note-sync-qd4.json");
    const JOBS2_JSON: &str = include_str!("../../tests/fixtures/fio/read-1m-qd1-j2.json");
    const JOBS2_TXT: &str = include_str!("../../tests/fixtures/fio/read-1m-qd1-j2.txt");
    const GROUPED_JSON: &str =
        include_str!("../../tests/fixtures/fio/randread-4k-qd8-j2-group.json");
    const RANDRW_JSON: &str = include_str!("../../tests/fixtures/fio/randrw-4k-qd16.json");
    const RANDRW_TXT: &str = include_str!("../../tests/fixtures/fio/randrw-4k-qd16.txt");
    const JOBFILE_TXT: &str = include_str!("../../tests/fixtures/fio/jobfile-two-groups.txt");
    const FIO2_JSON: &str = include_str!("../../tests/fixtures/fio/fio2-1-11-randread-j2.json");
    const FIO2_OLD_TXT: &str = include_str!("../../tests/fixtures/fio/fio2-0-13-two-groups.txt");
    const FIO2_NEW_TXT: &str = include_str!("../../tests/fixtures/fio/fio2-19-randread.txt");

    fn one(text: &str) -> Parsed {
        let mut all = parse(text).expect("fixture parses");
        assert_eq!(all.len(), 1, "one reporting group");
        all.remove(0)
    }

    fn m(p: &Parsed, name: &str) -> f64 {
        p.metrics
            .get(name)
            .unwrap_or_else(|| panic!("metric {name} missing from {:?}", p.metrics.keys()))
            .value
    }

    fn unit(p: &Parsed, name: &str) -> String {
        p.metrics
            .get(name)
            .map(|m| m.unit.clone())
            .unwrap_or_default()
    }

    /// Equal up to floating-point rounding of the arithmetic (1e-12 relative).
    fn close(actual: f64, expected: f64) {
        let tol = expected.abs() * 1e-12;
        assert!((actual - expected).abs() <= tol, "{actual} != {expected}");
    }

    fn names(p: &Parsed) -> Vec<&str> {
        p.metrics.keys().map(String::as_str).collect()
    }

    fn param(p: &Parsed, name: &str) -> Value {
        p.parameters.get(name).cloned().unwrap_or(Value::Null)
    }

    #[test]
    fn test_ids_follow_the_runner_rule() {
        assert_eq!(test_id("randread", 4096, 64, 1), "fio-randread-4k-qd64");
        assert_eq!(test_id("randwrite", 4096, 64, 1), "fio-randwrite-4k-qd64");
        assert_eq!(test_id("read", 1048576, 1, 4), "fio-read-1m-qd1-j4");
    }

    #[test]
    fn fio3_json_randread_in_canonical_units() {
        let p = one(RANDREAD_JSON);
        assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd64"));
        assert_eq!(p.tool_version.as_deref(), Some("3.33"));
        assert_eq!(m(&p, "read_iops"), 83142.428786);
        assert_eq!(unit(&p, "read_iops"), "IOPS");
        // bw_bytes, not bw (KiB/s)
        assert_eq!(m(&p, "read_bw"), 340551388.0);
        assert_eq!(unit(&p, "read_bw"), "B/s");
        assert_eq!(m(&p, "read_io_bytes"), 681443328.0);
        // nanoseconds to seconds
        assert_eq!(m(&p, "read_clat_mean"), 0.000763873854281);
        assert_eq!(m(&p, "read_lat_mean"), 0.000768919076301);
        assert_eq!(m(&p, "read_clat_p50"), 0.000659456);
        assert_eq!(m(&p, "read_clat_p99"), 0.00352256);
        assert_eq!(m(&p, "read_clat_p99_9"), 0.01409024);
        assert_eq!(unit(&p, "read_clat_p99"), "s");
        assert_eq!(m(&p, "runtime"), 2.001);
        // a direction without I/O is absent, not zero
        assert!(names(&p).iter().all(|n| !n.starts_with("write_")));
        assert_eq!(param(&p, "rw"), "randread");
        assert_eq!(param(&p, "bs"), 4096);
        assert_eq!(param(&p, "iodepth"), 64);
        assert_eq!(param(&p, "ioengine"), "libaio");
        assert_eq!(param(&p, "direct"), 1);
        assert_eq!(param(&p, "size"), 67108864);
        assert_eq!(param(&p, "runtime"), 2.0);
        assert_eq!(param(&p, "numjobs"), 1);
        assert_eq!(p.command, None);
    }

    #[test]
    fn fio3_json_randwrite_has_only_write_metrics() {
        let p = one(RANDWRITE_JSON);
        assert_eq!(p.test_id.as_deref(), Some("fio-randwrite-4k-qd64"));
        assert_eq!(m(&p, "write_iops"), 100930.534733);
        assert_eq!(m(&p, "write_bw"), 413411470.0);
        assert_eq!(m(&p, "write_clat_mean"), 0.000626376010626);
        assert_eq!(m(&p, "write_lat_mean"), 0.000633319814208);
        assert_eq!(m(&p, "write_clat_p50"), 0.000473088);
        assert_eq!(m(&p, "write_clat_p99"), 0.003751936);
        assert_eq!(m(&p, "write_clat_p99_9"), 0.005275648);
        assert!(names(&p).iter().all(|n| !n.starts_with("read_")));
    }

    #[test]
    fn note_before_the_json_is_skipped() {
        assert!(NOTE_JSON.starts_with("note: both iodepth >= 1 and synchronous I/O engine"));
        let p = one(NOTE_JSON);
        assert_eq!(m(&p, "read_iops"), 14039.48026);
        assert_eq!(m(&p, "read_bw"), 57505711.0);
        assert_eq!(m(&p, "read_clat_mean"), 0.000069493686826);
        assert_eq!(param(&p, "ioengine"), "sync");
        // the id states what the job asked for; fio capped the depth at 1
        assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd4"));
    }

    #[test]
    fn jobs_of_one_group_are_summed_and_latency_weighted_by_io_count() {
        let p = one(JOBS2_JSON);
        assert_eq!(p.test_id.as_deref(), Some("fio-read-1m-qd1-j2"));
        assert_eq!(param(&p, "numjobs"), 2);
        close(m(&p, "read_iops"), 932.533733 + 586.706647);
        assert_eq!(m(&p, "read_bw"), 977832491.0 + 615206508.0);
        assert_eq!(m(&p, "read_io_bytes"), 1956642816.0 + 1231028224.0);
        // weights are the jobs' total_ios: 1866 and 1174
        let w = |a: f64, b: f64| (a * 1866.0 + b * 1174.0) / 3040.0;
        close(
            m(&p, "read_clat_mean"),
            w(0.001023321317256, 0.00163379570017),
        );
        close(
            m(&p, "read_lat_mean"),
            w(0.001069863346195, 0.001701514224872),
        );
        close(m(&p, "read_clat_p50"), w(0.001155072, 0.001613824));
        close(m(&p, "read_clat_p99"), w(0.001810432, 0.002605056));
        close(m(&p, "read_clat_p99_9"), w(0.00671744, 0.00335872));
        // the weighted mean is not the plain mean of the two jobs
        assert!(
            (m(&p, "read_clat_mean") - (0.001023321317256 + 0.00163379570017) / 2.0).abs() > 1e-5
        );
    }

    #[test]
    fn group_reporting_json_is_one_job_with_numjobs() {
        let p = one(GROUPED_JSON);
        assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd8-j2"));
        assert_eq!(m(&p, "read_iops"), 46465.767116);
        assert_eq!(m(&p, "read_bw"), 190323782.0);
        assert_eq!(m(&p, "read_clat_p99"), 0.002736128);
    }

    #[test]
    fn randrw_json_reports_both_directions() {
        let p = one(RANDRW_JSON);
        assert_eq!(p.test_id.as_deref(), Some("fio-randrw-4k-qd16"));
        assert_eq!(m(&p, "read_iops"), 46815.592204);
        assert_eq!(m(&p, "write_iops"), 20009.495252);
        assert_eq!(m(&p, "read_bw"), 191756665.0);
        assert_eq!(m(&p, "write_bw"), 81958892.0);
        assert_eq!(m(&p, "write_lat_mean"), 0.000271560122905);
        assert_eq!(m(&p, "write_clat_p99_9"), 0.001875968);
    }

    #[test]
    fn fio3_text_uses_the_exact_issued_count() {
        let p = one(RANDREAD_TXT);
        assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd64"));
        assert_eq!(p.tool_version.as_deref(), Some("3.33"));
        // issued total=145298 over 2001 msec, 4096-byte blocks
        assert_eq!(m(&p, "read_iops"), 145298.0 / 2.001);
        assert_eq!(m(&p, "read_bw"), 145298.0 * 4096.0 / 2.001);
        assert_eq!(m(&p, "read_io_bytes"), 145298.0 * 4096.0);
        // clat (usec): avg=875.63; lat (usec): avg=880.55
        assert_eq!(m(&p, "read_clat_mean"), 0.00087563);
        assert_eq!(m(&p, "read_lat_mean"), 0.00088055);
        // clat percentiles (usec): 50.00th=[  660], 99.00th=[ 4047], 99.90th=[26608]
        assert_eq!(m(&p, "read_clat_p50"), 0.00066);
        assert_eq!(m(&p, "read_clat_p99"), 0.004047);
        assert_eq!(m(&p, "read_clat_p99_9"), 0.026608);
        assert_eq!(m(&p, "runtime"), 2.001);
        assert!(names(&p).iter().all(|n| !n.starts_with("write_")));
        assert_eq!(param(&p, "bs"), 4096);
        assert_eq!(param(&p, "iodepth"), 64);
    }

    #[test]
    fn fio3_text_jobs_of_one_group_are_combined() {
        let p = one(JOBS2_TXT);
        assert_eq!(p.test_id.as_deref(), Some("fio-read-1m-qd1-j2"));
        let mib = 1048576.0;
        close(m(&p, "read_iops"), 984.0 / 2.001 + 980.0 / 2.002);
        close(m(&p, "read_bw"), 984.0 * mib / 2.001 + 980.0 * mib / 2.002);
        let w = |a: f64, b: f64| (a * 984.0 + b * 980.0) / 1964.0;
        close(m(&p, "read_clat_mean"), w(0.00197588, 0.00198006));
        close(m(&p, "read_lat_mean"), w(0.00203079, 0.00203984));
        close(m(&p, "read_clat_p99"), w(0.00508, 0.004948));
        // runtime is the longest job's
        assert_eq!(m(&p, "runtime"), 2.002);
    }

    #[test]
    fn fio3_text_randrw_with_zone_resets_suffix() {
        let p = one(RANDRW_TXT);
        assert_eq!(m(&p, "read_iops"), 99438.0 / 2.001);
        assert_eq!(m(&p, "write_iops"), 42419.0 / 2.001);
        assert_eq!(m(&p, "write_bw"), 42419.0 * 4096.0 / 2.001);
        assert_eq!(m(&p, "write_clat_mean"), 0.00024964);
        assert_eq!(m(&p, "write_clat_p99"), 0.000392);
    }

    #[test]
    fn job_file_and_command_above_text_output_fill_parameters() {
        let all = parse(JOBFILE_TXT).unwrap();
        assert_eq!(all.len(), 2);
        let (r, w) = (&all[0], &all[1]);
        assert_eq!(r.test_id.as_deref(), Some("fio-randread-4k-qd32"));
        assert_eq!(w.test_id.as_deref(), Some("fio-write-128k-qd8"));
        assert_eq!(r.command.as_deref(), Some("./fio job.ini"));
        for p in [r, w] {
            // from the [global] section of the job file
            assert_eq!(param(p, "direct"), 1);
            assert_eq!(param(p, "size"), 67108864);
            assert_eq!(param(p, "runtime"), 2.0);
            assert_eq!(param(p, "ioengine"), "libaio");
        }
        assert_eq!(param(w, "bs"), 131072);
        assert_eq!(m(r, "read_iops"), 110430.0 / 2.001);
        assert_eq!(m(w, "write_iops"), 34115.0 / 2.017);
        assert_eq!(m(w, "write_bw"), 34115.0 * 131072.0 / 2.017);
        // clat (nsec): avg=456019.94 while lat is in usec
        assert_eq!(m(w, "write_clat_mean"), 0.00045601994);
        assert_eq!(m(w, "write_lat_mean"), 0.00047219);
        assert!(names(r).iter().all(|n| !n.starts_with("write_")));
        assert!(names(w).iter().all(|n| !n.starts_with("read_")));
    }

    #[test]
    fn fio2_json_usec_kib_and_padded_percentiles() {
        let p = one(FIO2_JSON);
        assert_eq!(p.tool_version.as_deref(), Some("2.1.11"));
        assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd32-j2"));
        assert!(p
            .command
            .as_deref()
            .unwrap()
            .starts_with("fio --name=randread --rw=randread"));
        assert_eq!(param(&p, "size"), 1073741824);
        assert_eq!(param(&p, "runtime"), 60.0);
        assert_eq!(param(&p, "direct"), 1);
        // bw 20000 + 10000 KiB/s
        assert_eq!(m(&p, "read_bw"), 30000.0 * 1024.0);
        assert_eq!(m(&p, "read_iops"), 7500.0);
        // io_bytes is KiB before 2.21
        assert_eq!(m(&p, "read_io_bytes"), 1800000.0 * 1024.0);
        // no total_ios in 2.1: weights are iops x runtime, 300000 and 150000
        close(m(&p, "read_clat_mean"), 0.008487);
        close(m(&p, "read_lat_mean"), (0.0063955 * 2.0 + 0.01272) / 3.0);
        close(m(&p, "read_clat_p50"), (0.006112 * 2.0 + 0.01216) / 3.0);
        close(m(&p, "read_clat_p99"), (0.01184 * 2.0 + 0.023424) / 3.0);
        close(m(&p, "read_clat_p99_9"), (0.016512 * 2.0 + 0.03136) / 3.0);
        assert!(names(&p).iter().all(|n| !n.starts_with("write_")));
    }

    #[test]
    fn fio2_padded_zero_percentile_is_dropped() {
        let doc = first_json_value(FIO2_JSON.split_once('\n').unwrap().1).unwrap();
        let read = doc["jobs"][0]["read"].clone();
        let dir = json_dir(&read, Some(true)).unwrap();
        assert_eq!(dir.clat_pct.len(), 17);
        assert!(!dir.clat_pct.contains_key(&0));
        assert_eq!(dir.clat_pct.get(&1000), Some(&0.003408));
        assert_eq!(dir.clat_pct.get(&99990), Some(&0.027008));
        // the all-zero write direction counts as absent
        assert_eq!(json_dir(&doc["jobs"][0]["write"], Some(true)), None);
    }

    #[test]
    fn fio2_old_text_two_groups() {
        let all = parse(FIO2_OLD_TXT).unwrap();
        assert_eq!(all.len(), 2);
        let (r, w) = (&all[0], &all[1]);
        assert_eq!(r.tool_version.as_deref(), Some("2.0.13"));
        assert_eq!(r.test_id.as_deref(), Some("fio-randread-4k-qd64"));
        assert_eq!(w.test_id.as_deref(), Some("fio-randwrite-4k-qd64"));
        // issued total=r=131072 over runt=5000msec
        assert_eq!(m(r, "read_iops"), 26214.4);
        assert_eq!(m(r, "read_bw"), 107374182.4);
        assert_eq!(m(r, "read_io_bytes"), 536870912.0);
        assert_eq!(m(r, "read_clat_mean"), 0.00243305);
        assert_eq!(m(r, "read_lat_mean"), 0.00243921);
        assert_eq!(m(r, "read_clat_p50"), 0.00232);
        assert_eq!(m(r, "read_clat_p99"), 0.005472);
        assert_eq!(m(r, "read_clat_p99_9"), 0.009408);
        assert_eq!(m(r, "runtime"), 5.0);
        // clat (msec) and clat percentiles (msec)
        assert_eq!(m(w, "write_clat_mean"), 0.97253);
        assert_eq!(m(w, "write_clat_p50"), 0.971);
        assert_eq!(m(w, "write_clat_p99_9"), 1.647);
        assert_eq!(m(w, "write_iops"), 20937.0 / 318.686);
        assert_eq!(m(w, "write_bw"), 20937.0 * 4096.0 / 318.686);
        assert_eq!(m(w, "runtime"), 318.686);
    }

    #[test]
    fn fio2_17_text_form() {
        let p = one(FIO2_NEW_TXT);
        assert_eq!(p.tool_version.as_deref(), Some("2.19"));
        assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd2"));
        assert_eq!(m(&p, "read_iops"), 131072.0 / 5.001);
        assert_eq!(m(&p, "read_bw"), 536870912.0 / 5.001);
        // clat (usec): avg=68.87
        assert_eq!(m(&p, "read_clat_mean"), 6.887e-5);
        // lat (nsec): avg=71185.27
        assert_eq!(m(&p, "read_lat_mean"), 7.118527e-5);
        assert_eq!(m(&p, "read_clat_p50"), 6.4e-5);
        assert_eq!(m(&p, "read_clat_p99_9"), 0.000486);
    }

    #[test]
    fn old_direction_line_units() {
        let d = dir_line(" io=512.0MB, bw=104857KB/s, iops=26214 , runt=  5000msec");
        assert_eq!(d.iops, Some(26214.0));
        assert_eq!(d.runtime, Some(5.0));
        assert_eq!(d.io_bytes.map(|p| p.value), Some(536870912.0));
        // KB is KiB in fio 2.x
        assert_eq!(d.bw.first().map(|p| p.value), Some(107373568.0));
        let d = dir_line(" io=83748KB, bw=269098 B/s, iops=65 , runt=318686msec");
        assert_eq!(d.bw.first().map(|p| p.value), Some(269098.0));
        assert_eq!(d.io_bytes.map(|p| p.value), Some(83748.0 * 1024.0));
    }

    #[test]
    fn new_direction_line_units() {
        let d = dir_line(" IOPS=26.2k, BW=102MiB/s (107MB/s)(512MiB/5001msec)");
        assert_eq!(d.iops, Some(26200.0));
        assert_eq!(d.runtime, Some(5.001));
        let bw: Vec<f64> = d.bw.iter().map(|p| p.value).collect();
        assert_eq!(bw, vec![102.0 * 1048576.0, 107e6, 536870912.0 / 5.001]);
        let d = dir_line(" IOPS=450, BW=1909KiB/s (1955kB/s)(190MiB/101797msec)");
        assert_eq!(d.iops, Some(450.0));
        let bw: Vec<f64> = d.bw.iter().map(|p| p.value).collect();
        assert_eq!(
            bw,
            vec![1909.0 * 1024.0, 1955e3, 190.0 * 1048576.0 / 101.797]
        );
    }

    #[test]
    fn without_issued_counts_the_most_exact_printed_figure_wins() {
        // trimmed paste: no issued line, so rates come from the printed figures
        let text = "randread: (g=0): rw=randread, bs=4K-4K/4K-4K, ioengine=libaio, iodepth=64\n\
            randread: (groupid=0, jobs=1): err= 0: pid=1\n\
            \x20 read : io=512.0MB, bw=104857KB/s, iops=26214 , runt=  5000msec\n";
        let p = one(text);
        // 104857KB/s has six digits, 512.0MB four
        assert_eq!(m(&p, "read_bw"), 107373568.0);
        assert_eq!(m(&p, "read_iops"), 26214.0);
        assert_eq!(m(&p, "read_io_bytes"), 536870912.0);
        let text = "randread: (groupid=0, jobs=1): err= 0: pid=1\n\
            \x20 read: IOPS=26.2k, BW=102MiB/s (107MB/s)(512MiB/5001msec)\n";
        let p = one(text);
        // 512MiB/5001msec beats 107MB/s and 102MiB/s; IOPS=26.2k is all there is
        assert_eq!(m(&p, "read_bw"), 536870912.0 / 5.001);
        assert_eq!(m(&p, "read_iops"), 26200.0);
        assert_eq!(p.test_id, None);
    }

    #[test]
    fn header_lines_old_and_new() {
        let h = job_header(
            "randreads: (g=0): rw=randread, bs=4K-4K/4K-4K, ioengine=libaio, iodepth=64",
        )
        .unwrap();
        assert_eq!(h.rw.as_deref(), Some("randread"));
        assert_eq!(h.bs, vec![(4096, 4096), (4096, 4096)]);
        assert_eq!(h.ioengine.as_deref(), Some("libaio"));
        assert_eq!(h.iodepth, Some(64));
        let h = job_header("x: (g=3): rw=randrw, bs=(R) 4096B-4096B, (W) 16.0KiB-16.0KiB, (T) 4096B-4096B, ioengine=psync, iodepth=1").unwrap();
        assert_eq!(h.group, 3);
        assert_eq!(h.bs, vec![(4096, 4096), (16384, 16384), (4096, 4096)]);
        assert_eq!(fixed_bs(&h.bs, Some("randread")), Some(4096));
        assert_eq!(fixed_bs(&h.bs, Some("randrw")), None);
        let h = job_header(
            "iometer: (g=0): rw=randrw, bs=512-64K/512-64K/512-64K, ioengine=libaio, iodepth=64",
        )
        .unwrap();
        assert_eq!(h.bs.first(), Some(&(512, 65536)));
        assert_eq!(fixed_bs(&h.bs, Some("randrw")), None);
    }

    #[test]
    fn variable_block_size_gives_no_test_id() {
        let text = "iometer: (g=0): rw=randrw, bs=512-64K/512-64K, ioengine=libaio, iodepth=64\n\
            2.0.8\n\
            iometer: (groupid=0, jobs=1): err= 0: pid=2619\n\
            \x20 read : io=327521KB, bw=2273.7KB/s, iops=746 , runt=144052msec\n";
        let p = one(text);
        assert_eq!(p.tool_version.as_deref(), Some("2.0.8"));
        assert_eq!(p.test_id, None);
        assert_eq!(param(&p, "bs"), Value::Null);
        assert_eq!(param(&p, "rw"), "randrw");
        // io=327521KB (six digits) over runt=144052msec beats bw=2273.7KB/s (five)
        assert_eq!(m(&p, "read_bw"), 327521.0 * 1024.0 / 144.052);
    }

    #[test]
    fn version_lines() {
        assert_eq!(version_line("fio-3.33", false).as_deref(), Some("3.33"));
        assert_eq!(version_line("fio 2.1.3", false).as_deref(), Some("2.1.3"));
        assert_eq!(version_line("2.0.8", true).as_deref(), Some("2.0.8"));
        assert_eq!(version_line("2.0.8", false), None);
        assert_eq!(version_line("fio: pid=1 disk full", false), None);
        assert_eq!(version_below("2.1.11", 2, 21), Some(true));
        assert_eq!(version_below("2.2.10", 2, 21), Some(true));
        assert_eq!(version_below("2.21", 2, 21), Some(false));
        assert_eq!(version_below("3.33", 2, 21), Some(false));
        assert_eq!(version_below("git", 2, 21), None);
    }

    #[test]
    fn fio_option_sizes_follow_kb_base() {
        // default kb_base=1024: k and kB are 1024, KiB is 1000 (fio's compat mode)
        assert_eq!(option_size("4k", false), Some(4096));
        assert_eq!(option_size("4kB", false), Some(4096));
        assert_eq!(option_size("4KiB", false), Some(4000));
        assert_eq!(option_size("1m", false), Some(1048576));
        assert_eq!(option_size("1G", false), Some(1073741824));
        assert_eq!(option_size("4096", false), Some(4096));
        assert_eq!(option_size("4k", true), Some(4000));
        assert_eq!(option_size("4KiB", true), Some(4096));
        assert_eq!(option_size("50%", false), None);
        assert_eq!(option_bs("4k,64k", Some("randwrite"), false), Some(65536));
        assert_eq!(option_bs("4k,64k", Some("randrw"), false), None);
        assert_eq!(option_seconds("2m"), Some(120.0));
        assert_eq!(option_seconds("30"), Some(30.0));
    }

    #[test]
    fn command_lines_are_recognised() {
        let (cmd, args) =
            command_line("root@vm:~# sudo fio --name=x --rw=randread --bs=4k").unwrap();
        assert_eq!(cmd, "fio --name=x --rw=randread --bs=4k");
        assert_eq!(args.len(), 3);
        assert!(command_line("fio --version").is_none());
        assert!(command_line("filename=/dev/fio").is_none());
        assert!(command_line("we ran fio --rw=read").is_none());
        let mut pre = Preamble::default();
        apply_args(
            &["--direct=1".into(), "--name=a".into(), "--bs=8k".into()],
            &mut pre,
        );
        assert_eq!(pre.global.get("direct").map(String::as_str), Some("1"));
        assert_eq!(pre.per_job["a"].get("bs").map(String::as_str), Some("8k"));
    }

    #[test]
    fn detection() {
        for t in [
            RANDREAD_JSON,
            RANDREAD_TXT,
            NOTE_JSON,
            JOBFILE_TXT,
            FIO2_JSON,
            FIO2_OLD_TXT,
            FIO2_NEW_TXT,
        ] {
            assert!(looks_like(t));
        }
        let dd = "16384+0 records in\n16384+0 records out\n134217728 bytes (134 MB, 128 MiB) copied, 0.25 s, 536 MB/s\n";
        let ioping = "--- /tmp (ext4 /dev/vda) ioping statistics ---\n9 requests completed in 1.64 ms, 36 KiB read, 5.49 k iops, 21.4 MiB/s\n\
            generated 10 requests in 9.00 s, 40 KiB, 1 iops, 4.44 KiB/s\nmin/avg/max/mdev = 148.1 us / 182.1 us / 264.2 us / 36.4 us\n";
        let bonnie = "2.00a,2.00a,vm,1,1795999999,4G,,8192,5,+++++,+++,95981,7,+++++,+++,+++++,+++,+++++,+++,+++++,+++,256,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,,,,,,,,,,,,\n";
        for t in [dd, ioping, bonnie] {
            assert!(!looks_like(t), "{t}");
        }
    }

    #[test]
    fn unrecognised_input_is_an_error_naming_what_was_expected() {
        let e = parse("hello world\n").unwrap_err().to_string();
        assert!(e.contains("expected fio JSON"), "{e}");
        let e = parse("{\"fio version\" : \"fio-3.33\"}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no fio results"), "{e}");
        // a job that did only trims gives no read/write metrics
        let e = parse("t: (groupid=0, jobs=1): err= 0: pid=1\n  trim: IOPS=5, BW=20KiB/s (20kB/s)(40KiB/2000msec)\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no read or write results"), "{e}");
    }

    #[test]
    fn huge_job_counts_saturate_instead_of_overflowing() {
        let block = "j: (groupid=0, jobs=4294967295): err= 0\n  read: IOPS=1, BW=4KiB/s (4kB/s)(8KiB/2000msec)\n";
        let p = one(&block.repeat(2));
        assert_eq!(param(&p, "numjobs"), u32::MAX);
        assert_eq!(m(&p, "read_iops"), 2.0);
    }

    #[test]
    fn nan_in_json_is_tolerated() {
        let text = RANDREAD_JSON.replace("\"bw_agg\" : 96.740619", "\"bw_agg\" : -nan");
        let p = one(&text);
        assert_eq!(m(&p, "read_iops"), 83142.428786);
    }

    #[test]
    fn read_command_gives_id_parameters_and_command() {
        let p = read_command(
            "$ fio --name=r --rw=randread --bs=4k --ioengine=libaio --iodepth=32 \
             --direct=1 --size=1G --runtime=30",
        )
        .unwrap();
        assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd32"));
        assert_eq!(
            p.command.as_deref(),
            Some(
                "fio --name=r --rw=randread --bs=4k --ioengine=libaio --iodepth=32 \
                 --direct=1 --size=1G --runtime=30"
            )
        );
        let expected: BTreeMap<String, Value> = [
            ("bs", Value::from(4096)),
            ("direct", Value::from(1)),
            ("iodepth", Value::from(32)),
            ("ioengine", Value::from("libaio")),
            ("numjobs", Value::from(1)),
            ("runtime", Value::from(30.0)),
            ("rw", Value::from("randread")),
            ("size", Value::from(1u64 << 30)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(p.parameters, expected);
        assert!(p.metrics.is_empty());
        let jobs = read_command("fio --rw=write --bs=1M --numjobs=4 --name=w").unwrap();
        assert_eq!(jobs.test_id.as_deref(), Some("fio-write-1m-qd1-j4"));
    }

    #[test]
    fn read_command_refuses_what_names_no_test() {
        let e = read_command("fio --bs=4k --name=x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected `--rw=`"), "{e}");
        let e = read_command("fio --rw=read --bs=4k --name=a --name=b")
            .unwrap_err()
            .to_string();
        assert!(e.contains("found 2 `--name` jobs"), "{e}");
        let e = read_command("fio --version").unwrap_err().to_string();
        assert!(e.contains("expected a fio command line"), "{e}");
    }
}
