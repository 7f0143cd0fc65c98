//! fio's normal text output (the 2.0-2.16 `io=..., bw=...` form and the
//! 2.17+ `IOPS=..., BW=...` form) read into jobs.

use std::collections::BTreeMap;

use super::{Dir, Header, Job};
use crate::tools::date::Dated;
use crate::tools::number::{from_text, percentile, BadNumber};
use crate::units::{self, Prefixes};

/// A number as printed, with its relative rounding error (half a unit in
/// the last printed digit, divided by the number).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Printed {
    pub(super) value: f64,
    pub(super) rel_err: f64,
}

impl Printed {
    /// Whether `value` could have been printed as this number: it lies
    /// within one unit of the last printed digit (fio rounds some figures
    /// and truncates others, so half a unit is not enough).
    pub(super) fn admits(&self, value: f64) -> bool {
        let tolerance = 2.0 * self.rel_err * self.value;
        (value - self.value).abs() <= tolerance + 1e-9 * self.value.abs()
    }
}

/// Whether `value` agrees with every printed form of the same figure.
pub(super) fn agrees(value: f64, printed: &[Printed]) -> bool {
    printed.iter().all(|p| p.admits(value))
}

/// The printed form with the most significant digits (the least relative
/// rounding error), since each is rounded to a few digits and the longest
/// one is rounded least.
pub(super) fn most_precise(printed: &[Printed]) -> Option<f64> {
    printed
        .iter()
        .copied()
        .reduce(|a, c| if c.rel_err < a.rel_err { c } else { a })
        .map(|p| p.value)
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
pub(super) struct DirLine {
    pub(super) iops: Option<f64>,
    /// Bandwidth candidates in B/s with their rounding errors.
    pub(super) bw: Vec<Printed>,
    pub(super) io_bytes: Option<Printed>,
    pub(super) runtime: Option<f64>,
}

/// Parses the figures of a direction line, after `read:`/`write:`.
///
/// Old (2.0-2.16): `io=512.0MB, bw=104857KB/s, iops=26214 , runt=  5000msec`,
/// where `KB`/`MB` are KiB/MiB. New (2.17+): `IOPS=26.2k, BW=102MiB/s
/// (107MB/s)(512MiB/5001msec)`, where the parenthesised rate is SI.
///
/// `at` names the line in errors (`` `read:` of job `r` ``): a figure that
/// is there but not a number >= 0 in a unit fio prints is a [`BadNumber`].
pub(super) fn dir_line(rest: &str, at: &str) -> Result<DirLine, BadNumber> {
    let rest = rest.split(';').next().unwrap_or_default();
    let mut d = DirLine::default();
    let field = |key: &str| format!("{key} of {at}");
    if rest.trim_start().starts_with("IOPS=") || rest.contains("BW=") {
        for part in split_top_level(rest) {
            let part = part.trim();
            if let Some(v) = part.strip_prefix("IOPS=") {
                d.iops = Some(from_text(&field("IOPS="), v, count)?);
            } else if let Some(v) = part.strip_prefix("BW=") {
                new_bw(v, &mut d, &field("BW="))?;
            }
        }
    } else {
        for part in rest.split(',') {
            let Some((k, v)) = part.split_once('=') else {
                continue;
            };
            let k = k.trim();
            let f = field(&format!("{k}="));
            match k {
                "io" => d.io_bytes = Some(sized(v, Prefixes::Binary, units::byte_multiplier, &f)?),
                "bw" => d.bw.push(sized(v, Prefixes::Binary, units_bw, &f)?),
                "iops" => d.iops = Some(from_text(&f, v, count)?),
                "runt" => d.runtime = Some(from_text(&f, v, time)?),
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
    Ok(d)
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

/// `102MiB/s (107MB/s)(512MiB/5001msec)`; `field` names it in errors.
fn new_bw(v: &str, d: &mut DirLine, field: &str) -> Result<(), BadNumber> {
    let (main, parens) = match v.find('(') {
        Some(i) => (
            v.get(..i).unwrap_or_default(),
            v.get(i..).unwrap_or_default(),
        ),
        None => (v, ""),
    };
    d.bw.push(sized(main, Prefixes::Si, units_bw, field)?);
    for group in parens.split('(').skip(1) {
        let inner = group.split(')').next().unwrap_or_default();
        if let Some((io, rt)) = inner.split_once('/').filter(|(_, rt)| rt.contains("sec")) {
            d.io_bytes = Some(sized(io, Prefixes::Si, units::byte_multiplier, field)?);
            d.runtime = Some(from_text(field, rt, time)?);
        } else {
            d.bw.push(sized(inner, Prefixes::Si, units_bw, field)?);
        }
    }
    Ok(())
}

fn units_bw(unit: &str, p: Prefixes) -> Option<f64> {
    units::bytes_per_sec(1.0, unit, p)
}

/// A printed number with a unit converted by `mult`; an error naming
/// `field` when `v` is not a number >= 0 followed by such a unit.
fn sized(
    v: &str,
    p: Prefixes,
    mult: fn(&str, Prefixes) -> Option<f64>,
    field: &str,
) -> Result<Printed, BadNumber> {
    let read = || {
        let (n, unit) = printed_number(v)?;
        let value = n.value * mult(unit.trim(), p)?;
        value.is_finite().then_some(Printed {
            value,
            rel_err: n.rel_err,
        })
    };
    read().ok_or_else(|| BadNumber::new(field, v.trim()))
}

/// `26.2k`, `26214 ` → a plain count.
pub(super) fn count(v: &str) -> Option<f64> {
    let (n, rest) = units::split_number(v)?;
    units::count(n, rest).filter(|x| x.is_finite())
}

/// `5000msec`, `  28msec` → seconds.
pub(super) fn time(v: &str) -> Option<f64> {
    let (n, rest) = units::split_number(v)?;
    units::seconds(n, rest)
}

/// A direction line of a `Run status group` block: the direction's slot
/// (0 read, 1 write, 2 trim, 3 mixed) and the group's bandwidth as fio
/// printed it, each form with its rounding: the rate and its SI twin with
/// the total bytes over the longest runtime (`READ: bw=981MiB/s (1029MB/s),
/// 490MiB/s-492MiB/s (...), io=1964MiB (2059MB), run=2001-2002msec`, 2.17+),
/// or `aggrb` with `io` over `maxt` (`READ: io=524288KB, aggrb=104857KB/s,
/// minb=..., maxb=..., mint=5000msec, maxt=5000msec`, 2.0-2.16, where
/// `KB` is KiB). `None` for any other line; a figure fio prints that is not
/// a number in a unit it uses leaves that form out.
pub(super) fn group_line(t: &str) -> Option<(usize, Vec<Printed>)> {
    let (word, rest) = t.split_once(':')?;
    let slot = match word.trim() {
        "READ" => 0,
        "WRITE" => 1,
        "TRIM" => 2,
        "MIXED" => 3,
        _ => return None,
    };
    let mut printed = Vec::new();
    let mut io = None;
    let mut longest = None;
    for part in split_top_level(rest) {
        let Some((key, v)) = part.trim().split_once('=') else {
            continue;
        };
        let f = "a `Run status group` line";
        match key {
            "bw" => {
                let (main, paren) = match v.split_once('(') {
                    Some((m, p)) => (m, p.split(')').next().unwrap_or_default()),
                    None => (v, ""),
                };
                printed.extend(sized(main, Prefixes::Si, units_bw, f).ok());
                if !paren.is_empty() {
                    printed.extend(sized(paren, Prefixes::Si, units_bw, f).ok());
                }
            }
            "aggrb" => printed.extend(sized(v, Prefixes::Binary, units_bw, f).ok()),
            "io" => {
                let main = v.split('(').next().unwrap_or_default();
                let p = if rest.contains("aggrb=") {
                    Prefixes::Binary
                } else {
                    Prefixes::Si
                };
                io = sized(main, p, units::byte_multiplier, f).ok();
            }
            "run" => longest = v.rsplit('-').next().and_then(time),
            "maxt" => longest = time(v),
            _ => {}
        }
    }
    if let (Some(io), Some(rt)) = (io, longest.filter(|r| *r > 0.0)) {
        // fio's own formula: the group's bytes over its longest runtime
        printed.push(Printed {
            value: io.value / rt,
            rel_err: io.rel_err,
        });
    }
    Some((slot, printed))
}

/// `name: (g=0): rw=randread, bs=..., ioengine=libaio, iodepth=64`.
pub(super) fn job_header(line: &str) -> Option<Header> {
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

/// `4K-4K/4K-4K` (2.0-2.16), `4096B-4096B,4096B-4096B,4096B-4096B`
/// (2.17-2.19) or `(R) 4096B-4096B, (W) 4096B-4096B, (T) ...` (3.x).
fn header_bs(text: &str) -> Vec<(u64, u64)> {
    let parts: Vec<&str> = if text.contains("(R)") || text.contains("(W)") {
        text.split('(')
            .filter_map(|p| {
                p.split_once(')')
                    .map(|(_, v)| v.trim().trim_end_matches(','))
            })
            .collect()
    } else {
        text.split(['/', ',']).collect()
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
pub(super) fn job_result_start(t: &str) -> Option<(String, i64, u32)> {
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

/// The error of a job result line: `err= 0:` is none; `err=22 (file:io_u.c:1876,
/// func=io_u error, error=Invalid argument):` is 22 with fio's words.
pub(super) fn result_error(t: &str) -> (i64, Option<String>) {
    let Some(rest) = t.split_once("err=").map(|(_, r)| r.trim_start()) else {
        return (0, None);
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let number = rest.get(..digits).and_then(|d| d.parse().ok()).unwrap_or(0);
    let words = rest
        .split_once("error=")
        .and_then(|(_, w)| w.split(')').next())
        .map(|w| w.trim().to_string())
        .filter(|w| !w.is_empty());
    (number, words)
}

/// The time fio printed at the end of a job result line, as C's `ctime`
/// (`...: pid=1234: Wed Mar  1 12:00:00 2023`): the machine's local time
/// without a zone, read as UTC; `None` without one.
pub(super) fn result_date(t: &str) -> Option<Dated> {
    let (_, rest) = t.split_once(" pid=")?;
    let (_, time) = rest.split_once(": ")?;
    crate::tools::date::line(time)
}

/// Which direction a text line reports: `read : io=...`, `  write: IOPS=...`.
fn direction_line(t: &str) -> Option<(usize, &str)> {
    for (i, word) in ["read", "write", "trim", "mixed"].iter().enumerate() {
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

/// `clat (usec): min=38, max=2600, avg=68.87` → (`clat`, mean in seconds);
/// an `avg=` that is not a number >= 0 is an error naming `at`'s line.
fn lat_line<'a>(t: &'a str, at: &str) -> Option<Result<(&'a str, f64), BadNumber>> {
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
    let field = format!("{kind} ({unit}) avg= of {at}");
    let mean = match from_text(&field, avg, |v| {
        let (n, suffix) = units::split_number(v)?;
        units::count(n, suffix)
    }) {
        Ok(m) => m,
        Err(e) => return Some(Err(e)),
    };
    Some(Ok((kind, units::seconds(mean, unit)?)))
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

/// `|  1.00th=[  545],  5.00th=[  570], ...` → (thousandths, value); a
/// value that is not a number >= 0 is an error naming `at`'s line.
fn pct_entries(t: &str, at: &str) -> Result<Vec<(u32, f64)>, BadNumber> {
    let mut out = Vec::new();
    for e in t.trim_start_matches('|').split("],") {
        let Some((k, v)) = e.split_once("th=") else {
            continue;
        };
        let k = k.trim_start_matches([',', '|', ' ']);
        let Some(key) = percentile(&format!("a clat percentile of {at}"), k)? else {
            continue;
        };
        let v = v
            .trim()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .trim();
        let field = format!("clat percentile {}th of {at}", k.trim());
        let x = from_text(&field, v, |v| {
            let (n, suffix) = units::split_number(v)?;
            units::count(n, suffix)
        })?;
        out.push((key, x));
    }
    Ok(out)
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
    pub(super) name: String,
    pub(super) group: i64,
    pub(super) jobs: u32,
    /// read, write, trim, mixed (`unified_rw_reporting`)
    pub(super) lines: [Option<(DirLine, Dir)>; 4],
    pub(super) issued: [Option<f64>; 2],
    pub(super) short: bool,
    pub(super) error: i64,
    pub(super) error_text: Option<String>,
    /// The time at the end of its result line.
    pub(super) date: Option<Dated>,
    /// Byte offsets of the block's text: its result line up to the next
    /// block, group summary or disk stats.
    pub(super) span: (usize, usize),
}

/// Reads every job block of fio's normal text output; an error when a
/// figure of a job is not a number >= 0.
pub(super) fn text_jobs(text: &str) -> Result<(Vec<Job>, Option<String>), BadNumber> {
    let mut headers: Vec<Header> = Vec::new();
    // each header's line, for the part of the text its job keeps
    let mut header_lines: Vec<&str> = Vec::new();
    let mut version = None;
    let mut blocks: Vec<TextJob> = Vec::new();
    let mut in_block = false;
    // index of the direction the following lines belong to (2 = trim/other)
    let mut cur: Option<usize> = None;
    // unit factor of the clat percentile block being read
    let mut pct: Option<f64> = None;
    let mut after_header = false;
    // the group of the `Run status group` block being read, and what its
    // lines print per group and direction slot
    let mut summary_group: Option<i64> = None;
    let mut group_bw: BTreeMap<(i64, usize), Vec<Printed>> = BTreeMap::new();
    let mut offset = 0;
    for line in text.split(['\n', '\r']) {
        let at = offset;
        offset = (offset + line.len() + 1).min(text.len());
        if in_block {
            if let Some(b) = blocks.last_mut() {
                b.span.1 = at;
            }
        }
        let t = line.trim();
        if let Some(h) = job_header(line) {
            headers.push(h);
            header_lines.push(line);
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
            let (error, error_text) = result_error(t);
            blocks.push(TextJob {
                name,
                group,
                jobs,
                error,
                error_text,
                date: result_date(t),
                span: (at, offset),
                ..TextJob::default()
            });
            in_block = true;
            cur = None;
            pct = None;
            continue;
        }
        if let Some(rest) = t.strip_prefix("Run status group") {
            in_block = false;
            summary_group = rest.split_whitespace().next().and_then(|g| g.parse().ok());
            continue;
        }
        if t.starts_with("Disk stats") {
            in_block = false;
            summary_group = None;
            continue;
        }
        if !in_block {
            if let Some(g) = summary_group {
                if let Some((slot, printed)) = group_line(t) {
                    group_bw.insert((g, slot), printed);
                }
            }
            continue;
        }
        let Some(job) = blocks.last_mut() else {
            continue;
        };
        let word = |i: usize| {
            ["read", "write", "trim", "mixed"]
                .get(i)
                .copied()
                .unwrap_or("?")
        };
        let at = |i: usize| format!("the `{}:` line of job `{}`", word(i), job.name);
        if let Some((i, rest)) = direction_line(t) {
            pct = None;
            cur = Some(i);
            let line = dir_line(rest, &at(i))?;
            if let Some(slot) = job.lines.get_mut(i) {
                *slot = Some((line, Dir::default()));
            }
            continue;
        }
        if let Some(factor) = pct_header(t) {
            pct = factor;
            continue;
        }
        if t.starts_with('|') {
            if let (Some(f), Some(i)) = (pct, cur) {
                let entries = pct_entries(t, &at(i))?;
                if let Some(Some((_, dir))) = job.lines.get_mut(i) {
                    for (k, v) in entries {
                        dir.clat_pct.insert(k, units::scale(v, f));
                    }
                }
            }
            continue;
        }
        pct = None;
        if let Some(lat) = cur.and_then(|i| lat_line(t, &at(i))) {
            let (kind, mean) = lat?;
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
    if in_block {
        if let Some(b) = blocks.last_mut() {
            b.span.1 = text.len();
        }
    }
    let jobs = blocks
        .into_iter()
        .map(|b| {
            let block = text.get(b.span.0..b.span.1).unwrap_or_default();
            let at = headers
                .iter()
                .position(|h| h.name == b.name && h.group == b.group)
                .or_else(|| headers.iter().position(|h| h.group == b.group));
            let header = at.and_then(|i| headers.get(i)).cloned();
            // the job's header line (its options) above its result block
            let part = match at.and_then(|i| header_lines.get(i)) {
                Some(line) => Some(format!("{line}\n{block}")),
                None => Some(block.to_string()),
            };
            let mut job = finish_text_job(b, header);
            let slots = [(&mut job.read, 0), (&mut job.write, 1), (&mut job.mixed, 3)];
            for (dir, slot) in slots {
                if let (Some(dir), Some(printed)) = (dir, group_bw.get(&(job.group, slot))) {
                    dir.group_bw = printed.clone();
                }
            }
            Job { part, ..job }
        })
        .collect();
    Ok((jobs, version))
}

/// `fio-3.33`, `fio 2.1.3`, or a bare `2.0.8` right after the job headers.
pub(super) fn version_line(t: &str, after_header: bool) -> Option<String> {
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
/// fixed, no I/O was short and the result agrees with every bandwidth fio
/// printed to within one unit of its last digit (with `ramp_time` the
/// issued count leaves out the I/Os in flight when the ramp ended, whose
/// bytes fio counts); otherwise whichever printed figure
/// carries the most significant digits: the binary rate (`102MiB/s`), the
/// SI rate in parentheses (`107MB/s`), or bytes / runtime (`512MiB/5001msec`;
/// the runtime is the exact integer fio divided by), since each is rounded
/// to a few digits and the longest one is rounded least.
fn finish_text_job(b: TextJob, header: Option<Header>) -> Job {
    let mut dirs: [Option<Dir>; 4] = [None, None, None, None];
    for (i, slot) in b.lines.into_iter().enumerate() {
        let Some((line, mut dir)) = slot else {
            continue;
        };
        if i == 2 {
            continue; // trim
        }
        // fio counts mixed I/O in the read slots
        let at = if i == 3 { 0 } else { i };
        let ios = b.issued.get(at).copied().flatten();
        if ios == Some(0.0) {
            continue;
        }
        let bs = header
            .as_ref()
            .and_then(|h| h.bs.get(at).copied())
            .filter(|&b| i != 3 || header.as_ref().and_then(|h| h.bs.get(1)) == Some(&b))
            .filter(|(lo, hi)| lo == hi && *lo > 0)
            .map(|(lo, _)| lo as f64);
        dir.ios = ios;
        dir.runtime = line.runtime;
        let rt = line.runtime.filter(|r| *r > 0.0);
        dir.iops = match (ios, rt) {
            (Some(n), Some(rt)) => Some(n / rt),
            _ => line.iops,
        };
        // the issued count misses the I/Os in flight when a `ramp_time`
        // ended (fio counts their bytes, not their issue): it is exact only
        // where it agrees with what fio printed
        let exact_bytes = match (ios, bs, b.short) {
            (Some(n), Some(bs), false) => Some(n * bs),
            _ => None,
        }
        .filter(|bytes| rt.is_none_or(|rt| agrees(bytes / rt, &line.bw)));
        dir.io_bytes = exact_bytes.or(line.io_bytes.map(|p| p.value));
        dir.bw = match (exact_bytes, rt) {
            (Some(bytes), Some(rt)) => Some(bytes / rt),
            _ => most_precise(&line.bw),
        };
        if let Some(d) = dirs.get_mut(i) {
            *d = Some(dir);
        }
    }
    let [read, write, _, mixed] = dirs;
    Job {
        name: b.name,
        group: b.group,
        jobs: b.jobs.max(1),
        read,
        write,
        mixed,
        host: None,
        port: None,
        options: BTreeMap::new(),
        header,
        error: b.error,
        error_text: b.error_text,
        steadystate: None,
        part: None,
        date: b.date,
    }
}
