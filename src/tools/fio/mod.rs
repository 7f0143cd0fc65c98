//! `fio`: building its command line and parsing its output.
//!
//! The parser reads fio's JSON (2.x and 3.x), its normal text output (the
//! 2.0-2.16 `io=..., bw=..., iops=..., runt=...` form and the 2.17+
//! `IOPS=..., BW=...` form) and its terse lines, optionally preceded by the
//! command line or job file that produced it, and yabs's report of the fio
//! runs it made. It returns one [`Parsed`] per reporting group of each fio
//! invocation in the text.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{bail, Result};
use serde_json::Value;

use super::argv::{BuildCtx, Invocation, Params};
use super::number::BadNumber;
use super::{first_line, Command, Install, Judge, Output, Parsed};
use crate::metrics::TestKind;
use crate::record::Tool;

mod combine;
mod invocation;
mod json;
pub mod log;
mod options;
mod pasted;
mod runs;
mod terse;
#[cfg(test)]
mod tests;
mod text;
mod yabs;
pub(crate) use yabs::text_version as yabs_version;

pub use invocation::{
    auto_size, command, prefill_command, wants_prefilled, AUTO_SIZE, AUTO_SIZE_MAX, LOG_PREFIX,
    PREFILLED, PREFILL_NAME, TIMELINE,
};
pub use options::is_time_based;
pub use pasted::read_command;

use combine::group_parsed;
use json::{find_json, json_jobs};
pub use json::{held_level, HeldLevel};
use pasted::preamble;
use terse::terse_jobs;
use text::{job_header, job_result_start, text_jobs};

/// Whether `text` looks like fio output: JSON with a `"fio version"` key, or
/// text with a job header (`name: (g=0): rw=...`), a job result line
/// (`name: (groupid=0, jobs=1): err= 0`) or a `Run status group` summary.
pub fn looks_like(text: &str) -> bool {
    if text.contains("\"fio version\"") || yabs::looks_like(text) {
        return true;
    }
    text.contains("Run status group")
        || text.lines().any(|l| {
            job_header(l).is_some()
                || job_result_start(l.trim()).is_some()
                || terse::terse_line(l.trim()).is_some()
        })
}

/// Parses fio output into one [`Parsed`] per reporting group, in order
/// (yabs output, which is fio's underneath, gives one per block size; see
/// [`yabs`]):
/// the groups of the first fio invocation in the text, then those of the
/// next (see [`runs`] for where one run ends), never adding across runs.
///
/// Within one run, JSON is used when the text holds a fio JSON object
/// (notes fio prints on stdout before it are skipped); otherwise the normal
/// text output, otherwise terse lines. A command line (`fio --rw=randread
/// ...`, `./fio job.ini`) or job file text above the output adds the
/// options the output does not state.
///
/// The clones of one job section in one group (numjobs > 1 without
/// `group_reporting`) are combined as fio combines them for its `Run
/// status group` line and for `group_reporting`: bytes
/// and I/Os are summed, runtime is the longest job's, and the group's
/// bandwidth and IOPS are its total bytes and I/Os over that runtime (not
/// the sum of the jobs' rates, which counts a job that ended early as if it
/// had run the whole time). Where fio printed the group's bandwidth (text
/// output) and the figure computed from the jobs disagrees with it beyond
/// its rounding, fio's printed figure is used. Several job sections that
/// ran together in one group (no `stonewall` between them) and that fio
/// reported separately give one result each, with the parameter
/// `fio_group_jobs` (how many jobs the group ran at once) saying that the
/// figures are one section's, measured alongside the others. Latency means are the mean of the jobs' means weighted
/// by each job's I/O count (which is the exact mean over all I/Os).
/// Percentiles are the I/O-weighted mean of the jobs' percentiles: the true
/// pooled percentile lies between the smallest and the largest of the jobs'
/// percentiles, the weighted mean lies there too and equals it when the jobs'
/// distributions agree. A combined value that some job lacks is left out.
///
/// A group in which fio reports an error (`err=22`) gives a result without
/// metrics whose `error` carries fio's error. Fails when the text holds no
/// fio results, and when every result it holds is such an error (naming
/// fio's error and the form of output found).
pub fn parse(text: &str) -> Result<Vec<Parsed>> {
    if let Some(results) = yabs::parse(text) {
        return results;
    }
    let mut out = Vec::new();
    let mut first_error = None;
    for run in runs::invocations(text) {
        match parse_run(run) {
            Ok(groups) => out.extend(groups),
            // a bad number refuses the whole output, whatever else it holds
            Err(e) if e.downcast_ref::<BadNumber>().is_some() => return Err(e),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    if let Some(e) = first_error {
        if out.is_empty() {
            return Err(e);
        }
    }
    if let Some(p) = out.iter().find(|p| p.error.is_some()) {
        if out.iter().all(|p| p.error.is_some()) {
            bail!("{}", p.error.clone().unwrap_or_default());
        }
    }
    Ok(out)
}

/// The form of fio output a run was read from, as errors name it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Form {
    Json,
    Text,
    Terse,
}

impl Form {
    /// A bad number of this form of output, saying which form it was in.
    fn bad(self, e: BadNumber) -> anyhow::Error {
        anyhow::Error::new(e).context(self.name())
    }

    fn name(self) -> &'static str {
        match self {
            Form::Json => "fio JSON output",
            Form::Text => "fio text output",
            Form::Terse => "fio terse output",
        }
    }
}

/// Parses the output of one fio invocation.
fn parse_run(text: &str) -> Result<Vec<Parsed>> {
    let pre = preamble(text);
    let mut doc = None;
    let (jobs, version, form) = if let Some(json) = find_json(text) {
        let (jobs, version) = json_jobs(&json)?;
        doc = Some(json);
        (jobs, version, Form::Json)
    } else {
        let (jobs, version) = text_jobs(text).map_err(|e| Form::Text.bad(e))?;
        if jobs.is_empty() {
            let (jobs, version) = terse_jobs(text).map_err(|e| Form::Terse.bad(e))?;
            (jobs, version, Form::Terse)
        } else {
            (jobs, version, Form::Text)
        }
    };
    if jobs.is_empty() {
        if let Some(doc) = &doc {
            bail!("{}", json::no_jobs(doc));
        }
        if let Some(why) = json::unreadable_json(text) {
            bail!("{why} (expected the whole output of fio --output-format=json)");
        }
        bail!(
            "no fio results found (expected fio JSON with \"fio version\" and a \"jobs\" \
             array, fio text output with job results such as \
             `name: (groupid=0, jobs=1): err= 0` followed by `read:`/`write:` lines, \
             or fio terse lines such as `3;fio-3.33;name;0;0;...`)"
        );
    }
    // a group is one host's (client/server output holds each server's
    // jobs) and one job section's: fio reports the jobs of a group
    // separately unless `group_reporting` merged them, and the clones of a
    // section (`numjobs`) are one workload, while sections that merely ran
    // at the same time are not
    let server = |job: &Job| (job.host.clone(), job.port);
    type Server = (Option<String>, Option<u64>);
    let mut sections_of: BTreeMap<(Server, i64), (BTreeSet<String>, u32)> = BTreeMap::new();
    for job in &jobs {
        let fio_group = sections_of.entry((server(job), job.group)).or_default();
        fio_group.0.insert(job.name.clone());
        fio_group.1 = fio_group.1.saturating_add(job.jobs.max(1));
    }
    let mut groups: BTreeMap<(Server, i64, String), Vec<Job>> = BTreeMap::new();
    for mut job in jobs {
        let split = sections_of
            .get(&(server(&job), job.group))
            .is_some_and(|(sections, _)| sections.len() > 1);
        if split {
            // fio's `Run status group` figure is the whole group's, not
            // this section's
            for dir in [&mut job.read, &mut job.write, &mut job.mixed]
                .into_iter()
                .flatten()
            {
                dir.group_bw.clear();
            }
        }
        groups
            .entry((server(&job), job.group, job.name.clone()))
            .or_default()
            .push(job);
    }
    let mut out = Vec::new();
    for ((srv, group, _), jobs) in &groups {
        let mut parsed = if let Some(failed) = jobs.iter().find(|j| j.error != 0) {
            failed_group(failed, jobs, &pre, version.as_deref(), form)
        } else if let Some(p) = group_parsed(
            jobs,
            &pre.options,
            pre.command.as_deref(),
            version.as_deref(),
        ) {
            p
        } else {
            continue;
        };
        // one section of several that ran together: its own figures, and
        // the record says how many jobs its fio group ran at once
        if let Some((sections, all_jobs)) = sections_of.get(&(srv.clone(), *group)) {
            if sections.len() > 1 {
                parsed
                    .parameters
                    .insert("fio_group_jobs".to_string(), Value::from(*all_jobs));
            }
        }
        // a JSON group keeps a fio JSON document of its own jobs
        if let Some(doc) = &doc {
            parsed.date = json::run_date(doc);
            let parts: Option<Vec<&str>> = jobs.iter().map(|j| j.part.as_deref()).collect();
            parsed.part = parts.map(|parts| json::group_document(doc, &parts));
        }
        out.push(parsed);
    }
    if out.is_empty() {
        bail!(
            "{} holds no read or write results (expected a job with read or write I/O)",
            form.name()
        );
    }
    Ok(out)
}

/// The result of a group in which fio reported an error: its parameters
/// and test id, no metrics, and fio's error.
fn failed_group(
    failed: &Job,
    jobs: &[Job],
    pre: &pasted::PastedCommand,
    version: Option<&str>,
    form: Form,
) -> Parsed {
    let words = failed
        .error_text
        .clone()
        .or_else(|| errno_words(failed.error).map(str::to_string));
    let error = match words {
        Some(w) => format!("{} with error {} ({w})", form.name(), failed.error),
        None => format!("{} with error {}", form.name(), failed.error),
    };
    let mut p =
        group_parsed(jobs, &pre.options, pre.command.as_deref(), version).unwrap_or_else(|| {
            let date = jobs.iter().find_map(|j| j.date.clone());
            let (parameters, test_id) = options::TestOptions::from_job_options(&failed.options)
                .with_header(failed.header.as_ref())
                .settings(1);
            Parsed {
                parameters,
                test_id,
                tool_version: version.map(str::to_string),
                command: pre.command.clone(),
                date,
                ..Parsed::default()
            }
        });
    p.metrics.clear();
    p.part = combine::group_part(jobs);
    p.error = Some(format!("{error} in job `{}`", failed.name));
    p
}

/// The C library's words for the error numbers fio commonly reports (its
/// JSON gives only the number).
fn errno_words(n: i64) -> Option<&'static str> {
    Some(match n {
        1 => "Operation not permitted",
        2 => "No such file or directory",
        5 => "Input/output error",
        12 => "Cannot allocate memory",
        13 => "Permission denied",
        16 => "Device or resource busy",
        22 => "Invalid argument",
        28 => "No space left on device",
        30 => "Read-only file system",
        95 => "Operation not supported",
        _ => return None,
    })
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
    /// `--output-format=json+` completion latency histogram: bucket value
    /// in nanoseconds to I/O count.
    clat_bins: BTreeMap<u64, f64>,
    /// The bandwidth fio printed for the job's whole group (its `Run status
    /// group` line, text output only), B/s, each with its rounding.
    group_bw: Vec<text::Printed>,
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
    /// Reads and writes reported as one (`unified_rw_reporting`), which fio
    /// calls `mixed`.
    mixed: Option<Dir>,
    /// The fio server that ran the job, in client/server output: its
    /// hostname and, where fio gives it, its port (two servers can share a
    /// host).
    host: Option<String>,
    port: Option<u64>,
    /// Options the output states (JSON global then job options), raw.
    options: BTreeMap<String, String>,
    /// Parameters from a text job header line.
    header: Option<Header>,
    /// fio's error number for the job (`err=22`, `"error" : 22`); 0 is none.
    error: i64,
    /// fio's words for the error, when the output prints them.
    error_text: Option<String>,
    /// fio's own steady-state verdict (`--ss`), when its JSON holds one.
    steadystate: Option<SteadyState>,
    /// The text the job was read from: its JSON object, its result block,
    /// its terse line.
    part: Option<String>,
    /// The time on a text job's result line (`pid=1234: Wed Mar  1
    /// 12:00:00 2023`), when fio printed it.
    date: Option<super::date::Dated>,
}

/// A job's `steadystate` object in fio's JSON, which fio 3.x writes for a
/// job run with `--ss=<criterion>:<limit> --ss_dur=<seconds>`: whether the
/// last `ss_dur` seconds met the criterion, and by how much. It is fio's
/// verdict, kept beside diskdash's own (`steady_state`, from the timeline),
/// never in its place.
#[derive(Clone, Debug, Default, PartialEq)]
struct SteadyState {
    /// fio's criterion and limit as it prints them: `iops_slope:5.000000%`,
    /// `bw:1048576.000000` (`iops` or `bw`, `_slope` for the slope rather
    /// than the deviation from the mean, `%` for a limit in % of the mean).
    ss: String,
    /// The window fio judged, in seconds (`ss_dur`).
    duration: Option<f64>,
    /// Whether the criterion was met (fio then ends the job early).
    attained: bool,
    /// What fio measured against the limit, as it prints it: `0.348656%`,
    /// or an absolute slope or deviation without `%`.
    criterion: String,
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

/// fio in the tool registry.
pub struct Fio;

impl Output for Fio {
    fn tool(&self) -> Tool {
        Tool::Fio
    }

    fn looks_like(&self, text: &str) -> bool {
        looks_like(text)
    }

    fn parse(&self, text: &str) -> Result<Vec<Parsed>> {
        parse(text)
    }

    fn read_command(&self, line: &str) -> Result<Parsed> {
        read_command(line)
    }

    fn read_published_command(&self, line: &str) -> Result<Parsed> {
        read_command(&pasted::published_command_line(line))
    }

    // "fio-3.33"
    fn version_from_text(&self, text: &str) -> Option<String> {
        Some(first_line(text)?.strip_prefix("fio-")?.to_string())
    }
}

impl Command for Fio {
    fn build(&self, params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
        command(params, ctx)
    }

    // the figure the test exists for: bandwidth where large blocks make it
    // bound by bytes, latency at queue depth 1, IOPS otherwise
    fn headline(&self, params: &Params) -> &'static str {
        let rw = params.get("rw").and_then(Value::as_str).unwrap_or("read");
        let write = rw.contains("write") && !rw.contains("rw");
        let depth = params.get("iodepth").and_then(Value::as_u64).unwrap_or(1);
        let jobs = params.get("numjobs").and_then(Value::as_u64).unwrap_or(1);
        match (self.kind(params), write) {
            (TestKind::Throughput, false) => "read_bw",
            (TestKind::Throughput, true) => "write_bw",
            _ if depth == 1 && jobs == 1 && !rw.contains("rw") => {
                if write {
                    "write_clat_p99"
                } else {
                    "read_clat_p99"
                }
            }
            (_, false) => "read_iops",
            (_, true) => "write_iops",
        }
    }
}

impl Install for Fio {
    fn version_probe(&self) -> Option<(&'static str, &'static str)> {
        Some(("fio", "--version"))
    }

    fn package(&self, _family: &str) -> &'static str {
        "fio"
    }
}

impl Judge for Fio {
    // random I/O, and sequential I/O in small blocks, is bound by
    // operations; large sequential blocks by bytes
    fn kind(&self, params: &BTreeMap<String, Value>) -> TestKind {
        let rw = params.get("rw").and_then(Value::as_str).unwrap_or("");
        let bs = super::param_bytes(params, "bs");
        if rw.starts_with("rand") || bs.is_some_and(|b| b < 65536) {
            TestKind::BlockIo
        } else {
            TestKind::Throughput
        }
    }

    // what fio did: the workload, its block size, depth and jobs, whether
    // through the page cache, and the file size where the size bounds the
    // test (a time-based test runs as long as it is told, whatever its file)
    fn identity(
        &self,
        params: &BTreeMap<String, Value>,
        ram: Option<u64>,
    ) -> Vec<(&'static str, String)> {
        let text = |k: &str| super::param_text(params, k);
        let count = |k: &str| params.get(k).and_then(Value::as_u64);
        let mut parts = Vec::new();
        if let Some(rw) = text("rw") {
            parts.push(("rw", rw));
        }
        if let Some(bs) = super::param_bytes(params, "bs") {
            parts.push(("bs", format!("bs {}", crate::format::size(bs))));
        }
        // fio's defaults: one job at depth 1
        parts.push(("iodepth", format!("QD {}", count("iodepth").unwrap_or(1))));
        let jobs = count("numjobs").unwrap_or(1);
        parts.push((
            "numjobs",
            crate::format::count_of(jobs as usize, "job", "jobs"),
        ));
        if let Some(mix) = text("rwmixread") {
            parts.push(("rwmixread", format!("{mix}% reads")));
        }
        if let Some(direct) = direct(params) {
            parts.push(("direct", format!("direct={}", u8::from(direct))));
        }
        if let Some(engine) = text("ioengine") {
            parts.push(("ioengine", engine));
        }
        if !options::is_time_based(params) {
            if let Some(size) = super::param_bytes(params, "size") {
                parts.push(("file size", super::size_words(size, ram, 0)));
            }
        }
        parts
    }

    // buffered writes land in the page cache; buffered reads of a file the
    // memory can hold may come from it
    fn cache_trap(
        &self,
        params: &BTreeMap<String, Value>,
        ram: Option<u64>,
    ) -> Option<super::Trap> {
        if direct(params)? {
            return None;
        }
        let rw = params.get("rw").and_then(Value::as_str).unwrap_or("");
        if rw.contains("write") || rw.contains("rw") || rw == "trim" {
            return Some(super::Trap {
                short: "direct=0 writes".into(),
                why: "fio wrote with direct=0, so its writes went to the page cache and the rate is how fast memory took them, not the storage".into(),
            });
        }
        let size = super::param_bytes(params, "size")?;
        let ram = ram?;
        (size < ram).then(|| super::Trap {
            short: "direct=0 reads under RAM".into(),
            why: format!(
                "fio read a {} file with direct=0 on a machine with {} of memory, so its reads can come from the page cache",
                crate::format::size(size),
                crate::format::size(ram)
            ),
        })
    }
}

/// Whether the parameters say fio bypassed the page cache: `direct` (or
/// its inverse `buffered`) as a number, flag or text; `None` when neither
/// is recorded.
fn direct(params: &BTreeMap<String, Value>) -> Option<bool> {
    let flag = |k: &str| match params.get(k)? {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => n.as_u64().map(|v| v != 0),
        Value::String(s) => match s.trim() {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => None,
        },
        _ => None,
    };
    flag("direct").or_else(|| flag("buffered").map(|b| !b))
}
