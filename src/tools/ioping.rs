//! `ioping`: building its command line and parsing its output.
//!
//! The parser reads the forms ioping has printed since 0.9:
//!
//! - the 1.x text summary:
//!   `5.67 k requests completed in 977.9 ms, 22.1 MiB read, 5.79 k iops, 22.6 MiB/s`,
//!   then `generated ...` (with `N too fast, N too slow,` in front when
//!   requests were left out) and `min/avg/max/mdev = 39.5 us / 172.6 us / 5.02 ms / 381.7 us`;
//! - the 0.9 text summary, without the `read` word and the `generated` line:
//!   `10 requests completed in 9.0 s, 3.2 k iops, 12.6 MiB/s` (older
//!   releases also print `min/avg/max/mdev = 0.2/0.4/0.8/0.2 ms`, one unit
//!   for all four, and `mb/s`, which ioping always meant as MiB/s);
//! - the `-B` batch line. 1.x prints ten fields, times in nanoseconds:
//!   (1) requests in the statistics, (2) time spent in them, (3) iops,
//!   (4) bytes per second, (5) min, (6) avg, (7) max, (8) mdev of the
//!   request time, (9) all requests including warmup and ignored ones,
//!   (10) total running time. 0.9 prints the first eight, times in
//!   microseconds (order from the RAW STATISTICS section of ioping's
//!   manual page of each release);
//! - the `-J` JSON of 1.2 on: an array of per-request objects (`io`) and a
//!   final object whose `stat` holds `count`, `size`, `time`, `iops`,
//!   `bps`, `min`, `avg`, `max`, `mdev` (times in nanoseconds). With `-R`
//!   only the final object is printed.
//!
//! Metrics: `requests` (count), `iops` (IOPS), `bw` (B/s; ioping's `KiB`,
//! `MiB`, `GiB` are binary), `lat_min`, `lat_avg`, `lat_max`, `lat_mdev`
//! (s). iops and bw come from the `completed` line (time spent in
//! requests), never from the `generated` line (wall time with the pauses
//! between requests). When no request counted (`0 requests`), only
//! `requests` is given.
//!
//! A command line pasted above the output (`$ ioping -R /mnt`) gives the
//! parameters and the test id (see [`test_id`]); each command line starts a
//! new result, so a log of several runs gives several results.
//!
//! Parameters: from the command line `count`, `size` and `work_size` (B),
//! `interval` and `work_time` (s), `flags` (the mode letters, see
//! [`test_id`]) and `target`; from the output `operation` (`read` or
//! `write`), `size` when the command does not give it, `too_fast` and
//! `too_slow` (requests left out), `requests_time` (s spent in the counted
//! requests) and, from a 1.x batch line, `requests_total` (warmup included).

use std::collections::BTreeMap;

use anyhow::{bail, Context, Result};
use serde_json::Value;

use super::argv::{parse_size, BuildCtx, Invocation, OutputFrom, ParamReader, Params};
use super::{first_line, Parsed, ToolSpec};
use crate::record::{Metric, Tool};
use crate::units::{self, split_number, Prefixes, Unit};

// ---------------------------------------------------------------- parsing

/// What every error says ioping output should look like.
const EXPECTED: &str = "expected ioping's summary (`N requests completed in T, ..., X iops, Y MiB/s`), its -B batch line (8 or 10 numbers) or its -J JSON array";

/// Whether `text` looks like output of this tool.
pub fn looks_like(text: &str) -> bool {
    if text.contains("ioping statistics ---") || text.contains(" requests completed in ") {
        return true;
    }
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let has_command = lines.iter().any(|l| command_line(l).is_some());
    let body: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| command_line(l).is_none())
        .collect();
    let json = body
        .first()
        .is_some_and(|l| l.trim_start().starts_with('['))
        && text.contains("\"stat\"")
        && text.contains("\"mdev\"");
    let batch = !body.is_empty() && body.iter().all(|l| batch_line(l).is_some());
    json || (batch && (has_command || body.len() <= 64))
}

/// Parses ioping's output into one result per run, in canonical units.
///
/// Fails, naming the forms expected, when no summary, batch line or JSON
/// statistics are found, or when a summary line cannot be read.
pub fn parse(text: &str) -> Result<Vec<Parsed>> {
    let lines: Vec<&str> = text.lines().collect();
    let version = lines.iter().find_map(|l| version_line(l));
    // each pasted command line starts a new run
    let mut segments: Vec<(Option<PastedCommand>, &[&str])> = Vec::new();
    let mut start = 0;
    let mut command = None;
    for (i, line) in lines.iter().enumerate() {
        if let Some(cmd) = command_line(line) {
            if let Some(seg) = lines.get(start..i) {
                segments.push((command.take(), seg));
            }
            command = Some(cmd);
            start = i + 1;
        }
    }
    if let Some(seg) = lines.get(start..) {
        segments.push((command, seg));
    }
    let mut results = Vec::new();
    for (cmd, seg) in segments {
        for mut parsed in parse_segment(seg)? {
            if let Some(cmd) = &cmd {
                apply_command(&mut parsed, cmd);
            }
            parsed.tool_version.clone_from(&version);
            results.push(parsed);
        }
    }
    if results.is_empty() {
        bail!("no ioping results found ({EXPECTED})");
    }
    Ok(results)
}

/// The results of one run's output lines: text summaries, else the JSON,
/// else the last batch line.
fn parse_segment(lines: &[&str]) -> Result<Vec<Parsed>> {
    let mut results = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !line.contains("requests completed in ") {
            continue;
        }
        let mut parsed = completed_line(line)?;
        // the lines that belong to this summary: up to the next one
        let rest = lines.get(i + 1..).unwrap_or(&[]);
        let end = rest
            .iter()
            .position(|l| l.contains("requests completed in "))
            .unwrap_or(rest.len());
        for l in rest.get(..end).unwrap_or(&[]) {
            if let Some(stats) = l.trim().strip_prefix("min/avg/max/mdev") {
                latency_line(stats, &mut parsed)?;
            } else if l.contains("generated ") {
                ignored_counts(l, &mut parsed);
            }
        }
        // per-request lines above the summary name the request size
        if let Some(size) = lines
            .get(..i)
            .unwrap_or(&[])
            .iter()
            .rev()
            .find_map(|l| request_line(l))
        {
            parsed
                .parameters
                .entry("size".into())
                .or_insert(Value::from(size));
        }
        if parsed
            .metrics
            .get("requests")
            .is_some_and(|m| m.value == 0.0)
        {
            parsed.metrics.retain(|k, _| k == "requests");
        }
        results.push(parsed);
    }
    if !results.is_empty() {
        return Ok(results);
    }
    if let Some(i) = lines.iter().position(|l| l.trim_start().starts_with('[')) {
        let json = lines.get(i..).unwrap_or(&[]).join("\n");
        return Ok(vec![parse_json(&json)?]);
    }
    Ok(lines
        .iter()
        .rev()
        .find_map(|l| batch_line(l))
        .map(|fields| batch(&fields))
        .into_iter()
        .collect())
}

/// A non-negative number at the start of `text`, with the rest.
fn number(text: &str) -> Option<(f64, &str)> {
    split_number(text).filter(|(v, _)| *v >= 0.0)
}

/// A number with an optional count suffix (`k`, `M`, `G`, `T`: powers of
/// 1000): `5.67 k` → 5670.
fn count(text: &str) -> Option<f64> {
    let (v, suffix) = number(text)?;
    units::count(v, suffix)
}

/// A time as ioping prints it, in seconds: `977.9 ms`, `4.00 s`, `1.2 min`.
fn time(text: &str) -> Option<f64> {
    let (v, unit) = number(text)?;
    units::seconds(v, unit)
}

/// A bandwidth as ioping prints it (`22.6 MiB/s`, 0.8's `mb/s`), in bytes
/// per second; ioping's sizes are always binary.
fn rate(text: &str) -> Option<f64> {
    let (v, unit) = number(text)?;
    units::bytes_per_sec(v, unit, Prefixes::Binary)
}

/// A byte size unit as ioping prints it (`B`, `KiB`, `MiB`, 0.8's `kb`),
/// always binary.
fn size_multiplier(unit: &str) -> Option<f64> {
    units::byte_multiplier(unit, Prefixes::Binary)
}

/// Reads `N requests completed in T, [S read|written,] X iops, Y MiB/s`,
/// with an optional `N too fast, N too slow,` in front.
fn completed_line(line: &str) -> Result<Parsed> {
    let bad = || {
        format!(
            "cannot read ioping summary line `{}` ({EXPECTED})",
            line.trim()
        )
    };
    let (head, tail) = line
        .split_once("requests completed in ")
        .with_context(bad)?;
    let mut parsed = Parsed::default();
    let mut head_fields: Vec<&str> = head.split(", ").map(str::trim).collect();
    let requests = head_fields.pop().and_then(count).with_context(bad)?;
    for f in head_fields {
        ignored_field(f, &mut parsed);
    }
    let mut fields = tail.split(", ").map(str::trim);
    let elapsed = fields.next().and_then(time).with_context(bad)?;
    let (mut iops, mut bw) = (None, None);
    for f in fields {
        if let Some(n) = f.strip_suffix("iops") {
            iops = Some(count(n).with_context(bad)?);
        } else if f.ends_with("/s") {
            bw = Some(rate(f).with_context(bad)?);
        } else if f.ends_with(" read") {
            parsed
                .parameters
                .insert("operation".into(), Value::from("read"));
        } else if f.ends_with(" written") {
            parsed
                .parameters
                .insert("operation".into(), Value::from("write"));
        }
    }
    let m = &mut parsed.metrics;
    m.insert("requests".into(), Metric::new(requests, Unit::Count));
    m.insert(
        "iops".into(),
        Metric::new(iops.with_context(bad)?, Unit::Iops),
    );
    m.insert(
        "bw".into(),
        Metric::new(bw.with_context(bad)?, Unit::BytesPerSec),
    );
    parsed
        .parameters
        .insert("requests_time".into(), Value::from(elapsed));
    Ok(parsed)
}

/// `N too fast` / `N too slow` into the parameters.
fn ignored_field(field: &str, parsed: &mut Parsed) {
    for (suffix, key) in [(" too fast", "too_fast"), (" too slow", "too_slow")] {
        if let Some(n) = field.trim().strip_suffix(suffix).and_then(count) {
            parsed.parameters.insert(key.into(), Value::from(n));
        }
    }
}

/// The `N too fast, N too slow,` in front of a `generated` line.
fn ignored_counts(line: &str, parsed: &mut Parsed) {
    let head = line.split("generated ").next().unwrap_or("");
    for f in head.split(", ") {
        ignored_field(f, parsed);
    }
}

/// ` = a us / b us / c ms / d us`, or ` = a/b/c/d ms` with one unit.
fn latency_line(stats: &str, parsed: &mut Parsed) -> Result<()> {
    let bad = || {
        format!("cannot read ioping latency line `min/avg/max/mdev{stats}` (expected `= a us / b us / c ms / d us`)")
    };
    let values = stats.trim().strip_prefix('=').with_context(bad)?;
    let parts: Vec<&str> = values.split('/').map(str::trim).collect();
    if parts.len() != 4 {
        bail!(bad());
    }
    let last_unit = parts
        .last()
        .and_then(|p| split_number(p))
        .map(|(_, u)| u)
        .filter(|u| !u.is_empty())
        .with_context(bad)?;
    for (name, part) in ["lat_min", "lat_avg", "lat_max", "lat_mdev"]
        .iter()
        .zip(parts)
    {
        let (_, unit) = number(part).with_context(bad)?;
        let s = if unit.is_empty() {
            time(&format!("{part} {last_unit}"))
        } else {
            time(part)
        }
        .with_context(bad)?;
        parsed
            .metrics
            .insert((*name).into(), Metric::new(s, Unit::Seconds));
    }
    Ok(())
}

/// A per-request line (`4 KiB <<< /tmp (...): request=2 time=538.9 us`,
/// or 0.9's `4096 bytes from /tmp (...): request=2 time=0.2 ms`):
/// the request size in bytes.
fn request_line(line: &str) -> Option<u64> {
    // 1.x: `4 KiB <<< /tmp (...)`; 0.9: `4096 bytes from /tmp (...)`
    let marked = line.contains(" <<< ") || line.contains(" >>> ") || line.contains(" from ");
    if !marked || !line.contains("request=") {
        return None;
    }
    let (value, rest) = split_number(line)?;
    let unit = rest.split_whitespace().next()?;
    let bytes = value * size_multiplier(unit)?;
    (bytes.is_finite() && bytes >= 0.0 && bytes < u64::MAX as f64).then(|| bytes.round() as u64)
}

/// A `-B` line: 8 or 10 non-negative numbers.
fn batch_line(line: &str) -> Option<Vec<f64>> {
    let fields: Vec<f64> = line
        .split_whitespace()
        .map(|f| f.parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0))
        .collect::<Option<_>>()?;
    matches!(fields.len(), 8 | 10).then_some(fields)
}

/// Metrics from a batch line; ten fields are 1.x (ns), eight are 0.9 (us).
fn batch(fields: &[f64]) -> Parsed {
    // per second: nanoseconds (1.x) or microseconds (0.9)
    let scale = if fields.len() == 10 { 1e9 } else { 1e6 };
    let field = |i: usize| fields.get(i).copied().unwrap_or(0.0);
    let mut parsed = Parsed::default();
    let m = &mut parsed.metrics;
    m.insert("requests".into(), Metric::new(field(0), Unit::Count));
    if field(0) > 0.0 {
        m.insert("iops".into(), Metric::new(field(2), Unit::Iops));
        m.insert("bw".into(), Metric::new(field(3), Unit::BytesPerSec));
        for (i, name) in ["lat_min", "lat_avg", "lat_max", "lat_mdev"]
            .iter()
            .enumerate()
        {
            m.insert(
                (*name).into(),
                Metric::new(field(4 + i) / scale, Unit::Seconds),
            );
        }
    }
    parsed
        .parameters
        .insert("requests_time".into(), Value::from(field(1) / scale));
    if let Some(total) = fields.get(8) {
        parsed
            .parameters
            .insert("requests_total".into(), Value::from(*total));
    }
    parsed
}

/// Metrics from `-J` output: the last object with `stat`.
fn parse_json(text: &str) -> Result<Parsed> {
    let bad = |what: &str| format!("ioping JSON: {what} ({EXPECTED})");
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let value = stream
        .next()
        .with_context(|| bad("empty"))?
        .with_context(|| bad("not valid JSON"))?;
    let items = value.as_array().with_context(|| bad("not an array"))?;
    let stat = items
        .iter()
        .rev()
        .find_map(|o| o.get("stat"))
        .with_context(|| bad("no object with `stat`"))?;
    let num = |key: &str| {
        stat.get(key)
            .and_then(Value::as_f64)
            .filter(|v| v.is_finite() && *v >= 0.0)
            .with_context(|| bad(&format!("`stat.{key}` missing or not a number")))
    };
    let mut parsed = Parsed::default();
    let requests = num("count")?;
    parsed
        .metrics
        .insert("requests".into(), Metric::new(requests, Unit::Count));
    if requests > 0.0 {
        let m = &mut parsed.metrics;
        m.insert("iops".into(), Metric::new(num("iops")?, Unit::Iops));
        m.insert("bw".into(), Metric::new(num("bps")?, Unit::BytesPerSec));
        for (key, name) in [
            ("min", "lat_min"),
            ("avg", "lat_avg"),
            ("max", "lat_max"),
            ("mdev", "lat_mdev"),
        ] {
            m.insert(name.into(), Metric::new(num(key)? / 1e9, Unit::Seconds));
        }
    }
    parsed
        .parameters
        .insert("requests_time".into(), Value::from(num("time")? / 1e9));
    if let Some(io) = items.iter().rev().find_map(|o| o.get("io")) {
        if let Some(op) = io.get("operation").and_then(Value::as_str) {
            parsed
                .parameters
                .insert("operation".into(), Value::from(op));
        }
        if let Some(size) = io.get("size").and_then(Value::as_u64) {
            parsed.parameters.insert("size".into(), Value::from(size));
        }
    }
    Ok(parsed)
}

/// `ioping 1.3` (what `ioping -v` prints).
fn version_line(line: &str) -> Option<String> {
    let v = line.trim().strip_prefix("ioping ")?;
    (!v.is_empty() && v.bytes().all(|b| b.is_ascii_digit() || b == b'.')).then(|| v.to_string())
}

/// An ioping command line pasted above its output.
#[derive(Clone, Debug, Default, PartialEq)]
struct PastedCommand {
    /// From `ioping` to the end of the line.
    text: String,
    /// Flag letters (`R`, `L`, `C`, `B`, ...), each once, as given.
    flags: String,
    /// Option letter to its value as written (`c` → `10`).
    options: BTreeMap<char, String>,
    /// The directory, file or device.
    target: Option<String>,
}

/// Option letters that take a value.
const VALUE_OPTIONS: &str = "abcilopPrsStTwe";
/// Flags that change what is measured, in the order test ids list them.
const MODE_FLAGS: &str = "RLCDWGAYyNH";

/// ioping's long option names and their letters.
const LONG: [(&str, char); 34] = [
    ("async", 'A'),
    ("batch", 'B'),
    ("cached", 'C'),
    ("direct", 'D'),
    ("read-write", 'G'),
    ("hipri", 'H'),
    ("json", 'J'),
    ("linear", 'L'),
    ("nowait", 'N'),
    ("rapid", 'R'),
    ("write", 'W'),
    ("sync", 'Y'),
    ("dsync", 'y'),
    ("keep", 'k'),
    ("quiet", 'q'),
    ("time", 'I'),
    ("warmup", 'a'),
    ("burst", 'b'),
    ("count", 'c'),
    ("entropy", 'e'),
    ("interval", 'i'),
    ("speed-limit", 'l'),
    ("work-offset", 'o'),
    ("print-count", 'p'),
    ("print-interval", 'P'),
    ("rate-limit", 'r'),
    ("size", 's'),
    ("work-size", 'S'),
    ("min-time", 't'),
    ("max-time", 'T'),
    ("work-time", 'w'),
    ("help", 'h'),
    ("version", 'v'),
    ("verbose", 'V'),
];

/// A line running ioping (`$ ioping -R /mnt`, `sudo ioping -c 10 .`).
fn command_line(line: &str) -> Option<PastedCommand> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let at = tokens
        .iter()
        .position(|t| *t == "ioping" || t.ends_with("/ioping"))?;
    let args = tokens.get(at + 1..)?;
    let option_like = |t: &&str| {
        let t = t.trim_start_matches('-');
        t.len() < 20 && t.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
    };
    let dashed = args.iter().any(|t| t.starts_with('-') && option_like(t));
    let lone_path = args.len() == 1
        && args
            .first()
            .is_some_and(|t| t.starts_with('/') || t.starts_with('.') || t.starts_with('~'));
    if !(dashed || lone_path) || line.contains("ioping statistics") {
        return None;
    }
    let start = line.find(tokens.get(at)?)?;
    let mut inv = PastedCommand {
        text: line.get(start..)?.trim().to_string(),
        ..PastedCommand::default()
    };
    let mut i = 0;
    while let Some(token) = args.get(i) {
        i += 1;
        let Some(body) = token.strip_prefix('-') else {
            inv.target = Some((*token).to_string());
            continue;
        };
        let name = body.strip_prefix('-').unwrap_or(body);
        if let Some((_, letter)) = LONG.iter().find(|(n, _)| *n == name) {
            if VALUE_OPTIONS.contains(*letter) {
                if let Some(v) = args.get(i) {
                    inv.options.insert(*letter, (*v).to_string());
                    i += 1;
                }
            } else if !inv.flags.contains(*letter) {
                inv.flags.push(*letter);
            }
            continue;
        }
        for (pos, letter) in body.char_indices() {
            if VALUE_OPTIONS.contains(letter) {
                let attached = body.get(pos + letter.len_utf8()..).unwrap_or("");
                let value = if attached.is_empty() {
                    i += 1;
                    args.get(i - 1).map(|v| (*v).to_string())
                } else {
                    Some(attached.to_string())
                };
                if let Some(v) = value {
                    inv.options.insert(letter, v);
                }
                break;
            }
            if letter == 'I' {
                break; // its format can only be attached
            }
            if !inv.flags.contains(letter) {
                inv.flags.push(letter);
            }
        }
    }
    Some(inv)
}

/// Reads one ioping command line (`ioping -RL /mnt`, `$ ioping -c 10 .`)
/// into its test id (see [`test_id`]), parameters and command, with no
/// metrics: the same reading [`parse`] gives a command line pasted above
/// ioping's output.
///
/// Fails when the line runs no ioping with an option or a lone path.
pub fn read_command(line: &str) -> Result<Parsed> {
    let Some(inv) = command_line(line) else {
        bail!(
            "`{line}`: expected an ioping command line with options or a path, \
             such as `ioping -c 10 /mnt` or `ioping -RL /mnt`"
        );
    };
    let mut parsed = Parsed::default();
    apply_command(&mut parsed, &inv);
    Ok(parsed)
}

/// An ioping time argument in seconds (default unit seconds).
fn time_arg(text: &str) -> Option<f64> {
    match number(text)? {
        (v, "") => Some(v),
        _ => time(&text.to_ascii_lowercase()),
    }
}

/// An ioping size argument in bytes (binary suffixes, `sector`, `page`).
fn size_arg(text: &str) -> Option<u64> {
    let (value, unit) = split_number(text)?;
    let multiplier = match unit.to_ascii_lowercase().as_str() {
        "sector" => 512.0,
        "page" => 4096.0,
        u => size_multiplier(u)?,
    };
    let bytes = value * multiplier;
    (bytes >= 0.0 && bytes < u64::MAX as f64).then(|| bytes.round() as u64)
}

/// An ioping count argument (`k`, `m`, `g`, `t`: powers of 1000).
fn count_arg(text: &str) -> Option<u64> {
    let (value, suffix) = split_number(text)?;
    let n = units::count(value, &suffix.to_ascii_lowercase())?;
    (n >= 0.0 && n < u64::MAX as f64).then(|| n.round() as u64)
}

/// The command's parameters and test id onto a result.
fn apply_command(parsed: &mut Parsed, inv: &PastedCommand) {
    let p = &mut parsed.parameters;
    let opt = |c: char| inv.options.get(&c).map(String::as_str);
    if let Some(n) = opt('c').and_then(count_arg) {
        p.insert("count".into(), Value::from(n));
    }
    if let Some(n) = opt('s').and_then(size_arg) {
        p.insert("size".into(), Value::from(n));
    }
    if let Some(n) = opt('S').and_then(size_arg) {
        p.insert("work_size".into(), Value::from(n));
    }
    if let Some(s) = opt('i').and_then(time_arg) {
        p.insert("interval".into(), Value::from(s));
    }
    if let Some(s) = opt('w').and_then(time_arg) {
        p.insert("work_time".into(), Value::from(s));
    }
    let modes = mode_flags(&inv.flags);
    p.insert("flags".into(), Value::from(modes.as_str()));
    if let Some(t) = &inv.target {
        p.insert("target".into(), Value::from(t.as_str()));
    }
    if inv.flags.contains('W') {
        p.entry("operation".to_string())
            .or_insert(Value::from("write"));
    }
    parsed.test_id = Some(test_id(&modes));
    parsed.command = Some(inv.text.clone());
}

/// The mode flags among `flags`, each once, in [`MODE_FLAGS`] order.
fn mode_flags(flags: &str) -> String {
    MODE_FLAGS.chars().filter(|c| flags.contains(*c)).collect()
}

/// The test id of an ioping run from its flag letters (`"RL"`, `"R"`, `""`).
///
/// Only the flags that change what is measured count (`R L C D W G A Y y N
/// H`); output flags such as `B`, `J`, `q` and options such as `-c` do
/// not. No mode flag is `ioping-latency` (`ioping -c 10 DIR`), `R` is
/// `ioping-seek`, `RL` is `ioping-seq`, `RLC` is `ioping-seq-cached`; any
/// other set is `ioping-` followed by its letters in the order above, so
/// `ioping -D -c 10` is `ioping-D` and `ioping -RLD` is `ioping-RLD`.
pub fn test_id(flags: &str) -> String {
    match mode_flags(flags).as_str() {
        "" => "ioping-latency".to_string(),
        "R" => "ioping-seek".to_string(),
        "RL" => "ioping-seq".to_string(),
        "RLC" => "ioping-seq-cached".to_string(),
        other => format!("ioping-{other}"),
    }
}

// ----------------------------------------------------------- command line

const IOPING_PARAMS: &[&str] = &[
    "count",
    "interval",
    "work_time",
    "size",
    "work_size",
    "rapid",
    "linear",
    "cached",
    "direct",
];

/// Builds `ioping -B [-c N] [-i T] [-w T] [-s SIZE] [-S SIZE] [-RLCD] DIR`.
/// `-B` (batch) prints the final statistics as raw integers, so nothing is
/// lost to rounding. Flags `rapid`, `linear`, `cached`, `direct` become one
/// `-RLCD` group in that order.
pub fn command(params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
    let mut p = ParamReader::new("ioping", params, ctx.memory_bytes);
    let mut args = vec!["-B".to_string()];
    let mut parameters = Params::new();
    let count = p.count("count")?;
    if let Some(c) = count {
        args.push("-c".into());
        args.push(c.to_string());
        parameters.insert("count".into(), c.into());
    }
    let mut seconds = |key: &str, flag: &str, args: &mut Vec<String>| -> Result<Option<f64>> {
        let Some(v) = p.string(key)? else {
            return Ok(None);
        };
        let secs = match split_number(&v) {
            Some((n, "")) => n,
            Some((n, unit)) => units::seconds(n, unit).ok_or_else(|| {
                anyhow::anyhow!("ioping parameter `{key} = {v}`: unknown time unit")
            })?,
            None => bail!("ioping parameter `{key} = {v}`: expected a time such as 0.2 or 3s"),
        };
        args.push(flag.into());
        args.push(v.clone());
        // in seconds, as imported records have it
        parameters.insert(key.into(), secs.into());
        Ok(Some(secs))
    };
    let interval = seconds("interval", "-i", &mut args)?;
    let work_time = seconds("work_time", "-w", &mut args)?;
    let mut work_size = None;
    for (key, flag) in [("size", "-s"), ("work_size", "-S")] {
        if let Some(v) = p.string(key)? {
            let bytes = parse_size(&v, ctx.memory_bytes)
                .map_err(|e| anyhow::anyhow!("ioping parameter `{key}`: {e}"))?;
            args.push(flag.into());
            args.push(bytes.to_string());
            parameters.insert(key.into(), bytes.into());
            if key == "work_size" {
                work_size = Some(bytes);
            }
        }
    }
    let mut group = String::new();
    for (key, letter) in [
        ("rapid", 'R'),
        ("linear", 'L'),
        ("cached", 'C'),
        ("direct", 'D'),
    ] {
        if p.flag(key)? {
            group.push(letter);
        }
    }
    // the mode letters, as imported and transcribed records name them
    parameters.insert("flags".into(), group.clone().into());
    let rapid = group.starts_with('R');
    if !group.is_empty() {
        args.push(format!("-{group}"));
    }
    p.finish(IOPING_PARAMS)?;
    if count.is_none() && work_time.is_none() && !rapid {
        bail!("ioping: give `count`, `work_time` or `rapid = true`, or it never stops");
    }
    args.push(ctx.dir.display().to_string());
    // rapid mode runs 3 s unless -w says otherwise; otherwise one request per interval
    let estimate = match (work_time, count) {
        (Some(w), _) => w,
        (None, _) if rapid => 3.0,
        (None, Some(c)) => c as f64 * interval.unwrap_or(1.0),
        (None, None) => 3.0,
    };
    Ok(Invocation {
        program: "ioping".into(),
        args,
        env: Vec::new(),
        output: OutputFrom::Stdout,
        // ioping's temporary file is its working set (1 MiB unless -S); rapid
        // modes are counted at 64 MiB to be safe
        bytes: work_size.unwrap_or(if rapid { 64 << 20 } else { 1 << 20 }),
        estimate_s: estimate,
        parameters,
    })
}

// --------------------------------------------------------------- registry

/// ioping in the tool registry.
pub struct Ioping;

impl ToolSpec for Ioping {
    fn tool(&self) -> Tool {
        Tool::Ioping
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

    fn build(&self, params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
        command(params, ctx)
    }

    fn headline(&self, params: &Params) -> &'static str {
        let flag = |k: &str| params.get(k).and_then(Value::as_bool).unwrap_or(false);
        if !flag("rapid") {
            "lat_avg"
        } else if flag("linear") {
            "bw"
        } else {
            "iops"
        }
    }

    fn version_probe(&self) -> Option<(&'static str, &'static str)> {
        Some(("ioping", "-v"))
    }

    // "ioping 1.3"
    fn version_from_text(&self, text: &str) -> Option<String> {
        Some(
            first_line(text)?
                .strip_prefix("ioping ")?
                .trim()
                .to_string(),
        )
    }

    fn package(&self, _family: &str) -> &'static str {
        "ioping"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        let path = format!(
            "{}/tests/fixtures/ioping/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn one(name: &str) -> Parsed {
        let mut all = parse(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert_eq!(all.len(), 1, "{name}");
        all.remove(0)
    }

    fn value(p: &Parsed, metric: &str) -> Option<f64> {
        p.metrics.get(metric).map(|m| m.value)
    }

    fn param(p: &Parsed, key: &str) -> Option<Value> {
        p.parameters.get(key).cloned()
    }

    /// `got` is exactly `want`: conversions land on the double nearest the
    /// printed decimal times the unit (`309.7 us` is `3.097e-4`).
    fn exact(got: Option<f64>, want: f64, what: &str) {
        assert_eq!(got, Some(want), "{what}");
    }

    /// Checks the six summary metrics and their units.
    fn assert_metrics(p: &Parsed, requests: f64, iops: f64, bw: f64, lat: [f64; 4]) {
        exact(value(p, "requests"), requests, "requests");
        exact(value(p, "iops"), iops, "iops");
        exact(value(p, "bw"), bw, "bw");
        for (name, v) in ["lat_min", "lat_avg", "lat_max", "lat_mdev"]
            .iter()
            .zip(lat)
        {
            exact(value(p, name), v, name);
            assert_eq!(p.metrics.get(*name).map(|m| m.unit.as_str()), Some("s"));
        }
        assert_eq!(p.metrics.get("bw").map(|m| m.unit.as_str()), Some("B/s"));
        assert_eq!(p.metrics.get("iops").map(|m| m.unit.as_str()), Some("IOPS"));
        assert_eq!(
            p.metrics.get("requests").map(|m| m.unit.as_str()),
            Some("count")
        );
        assert_eq!(p.metrics.len(), 7);
    }

    #[test]
    fn latency_c5_text() {
        let p = one("ioping13-c5.txt");
        // the completed line (4.14 ms in requests), not "generated ... 1 iops"
        assert_metrics(
            &p,
            4.0,
            966.0,
            3963617.28,
            [538.9e-6, 1.03e-3, 1.68e-3, 488.1e-6],
        );
        assert_eq!(p.test_id.as_deref(), Some("ioping-latency"));
        assert_eq!(p.command.as_deref(), Some("ioping -c 5 /tmp"));
        assert_eq!(param(&p, "count"), Some(Value::from(5)));
        assert_eq!(param(&p, "flags"), Some(Value::from("")));
        assert_eq!(param(&p, "target"), Some(Value::from("/tmp")));
        assert_eq!(param(&p, "operation"), Some(Value::from("read")));
        assert_eq!(param(&p, "size"), Some(Value::from(4096)));
        assert_eq!(param(&p, "requests_time"), Some(Value::from(4.14e-3)));
    }

    #[test]
    fn latency_without_command_has_no_id() {
        let p = one("ioping13-c5-bare.txt");
        assert_metrics(
            &p,
            4.0,
            7.32e3,
            29989273.6,
            [123.5e-6, 136.6e-6, 147.4e-6, 9.79e-6],
        );
        assert_eq!(p.test_id, None);
        assert_eq!(p.command, None);
        assert_eq!(param(&p, "size"), Some(Value::from(4096)));
    }

    #[test]
    fn seek_text_with_k_suffixes() {
        let p = one("ioping13-R.txt");
        assert_metrics(
            &p,
            5.67e3,
            5.79e3,
            23697817.6,
            [39.5e-6, 172.6e-6, 5.02e-3, 381.7e-6],
        );
        assert_eq!(p.test_id.as_deref(), Some("ioping-seek"));
        assert_eq!(param(&p, "work_time"), Some(Value::from(1.0)));
        assert_eq!(param(&p, "flags"), Some(Value::from("R")));
    }

    #[test]
    fn seq_text() {
        let p = one("ioping13-RL.txt");
        assert_metrics(
            &p,
            426.0,
            431.0,
            113246208.0,
            [489.9e-6, 2.32e-3, 18.5e-3, 1.47e-3],
        );
        assert_eq!(p.test_id.as_deref(), Some("ioping-seq"));
    }

    #[test]
    fn seq_cached_text_gib() {
        let p = one("ioping13-RLC.txt");
        assert_metrics(
            &p,
            47.0e3,
            47.1e3,
            12348030976.0,
            [16.3e-6, 21.3e-6, 484.5e-6, 5.43e-6],
        );
        assert_eq!(p.test_id.as_deref(), Some("ioping-seq-cached"));
    }

    #[test]
    fn write_text() {
        let p = one("ioping13-write.txt");
        assert_metrics(
            &p,
            2.0,
            4.07e3,
            16672358.4,
            [233.1e-6, 245.4e-6, 257.8e-6, 12.4e-6],
        );
        assert_eq!(param(&p, "operation"), Some(Value::from("write")));
        assert_eq!(param(&p, "interval"), Some(Value::from(0.1)));
        assert_eq!(p.test_id.as_deref(), Some("ioping-W"));
    }

    #[test]
    fn too_fast_on_the_generated_line() {
        let p = one("ioping13-too-fast.txt");
        assert_metrics(
            &p,
            6.0,
            4.63e3,
            18979225.6,
            [184.4e-6, 215.8e-6, 249.4e-6, 25.6e-6],
        );
        assert_eq!(param(&p, "too_fast"), Some(Value::from(1.0)));
        assert_eq!(param(&p, "too_slow"), None);
    }

    #[test]
    fn too_fast_prefix_on_the_completed_line() {
        let text = "2 too fast, 1 too slow, 7 requests completed in 1.5 ms, 28 KiB read, 4.67 k iops, 18.2 MiB/s\nmin/avg/max/mdev = 100 us / 214.3 us / 300 us / 50 us\n";
        let p = parse(text).unwrap().remove(0);
        assert_metrics(
            &p,
            7.0,
            4.67e3,
            19084083.2,
            [100e-6, 214.3e-6, 300e-6, 50e-6],
        );
        assert_eq!(param(&p, "too_fast"), Some(Value::from(2.0)));
        assert_eq!(param(&p, "too_slow"), Some(Value::from(1.0)));
    }

    #[test]
    fn hours_minutes_nanoseconds_and_mega_counts() {
        let p = one("ioping13-hours.txt");
        assert_metrics(
            &p,
            1.20e6,
            327.0,
            1342177.28,
            [812e-9, 3.06e-3, 72.0, 7.71e-3],
        );
        assert_eq!(param(&p, "requests_time"), Some(Value::from(3672.0)));
        assert_eq!(param(&p, "operation"), Some(Value::from("write")));
        assert_eq!(param(&p, "too_slow"), Some(Value::from(1.0)));
    }

    #[test]
    fn version_0_9_text_published_check() {
        let p = one("ioping09-text.txt");
        assert_metrics(
            &p,
            10.0,
            3.2e3,
            13212057.6,
            [210e-6, 309.7e-6, 520e-6, 58e-6],
        );
        // the published check: 12.6 MiB/s and 309.7 us
        assert_eq!(value(&p, "bw"), Some(13212057.6));
        assert_eq!(value(&p, "lat_avg"), Some(3.097e-4));
        assert_eq!(param(&p, "operation"), None);
        assert_eq!(p.test_id.as_deref(), Some("ioping-latency"));
        assert_eq!(param(&p, "size"), Some(Value::from(4096)));
        assert_eq!(param(&p, "count"), Some(Value::from(10)));
    }

    #[test]
    fn version_0_8_one_unit_and_lowercase_mb() {
        let p = one("ioping08-text.txt");
        assert_metrics(
            &p,
            6127.0,
            2042.0,
            8388608.0,
            [0.1e-3, 0.5e-3, 12.3e-3, 0.4e-3],
        );
        assert_eq!(p.test_id.as_deref(), Some("ioping-seek"));
        assert_eq!(p.command.as_deref(), Some("ioping -R /srv"));
    }

    #[test]
    fn batch_1x_ten_fields_in_nanoseconds() {
        let p = one("ioping13-B.txt");
        assert_metrics(
            &p,
            4.0,
            7528.0,
            30835363.0,
            [124184e-9, 132834e-9, 140138e-9, 5698e-9],
        );
        assert_eq!(param(&p, "requests_total"), Some(Value::from(5.0)));
        assert_eq!(
            param(&p, "requests_time"),
            Some(Value::from(531338.0 / 1e9))
        );
        assert_eq!(p.test_id, None);
    }

    #[test]
    fn batch_1x_with_command() {
        let p = one("ioping13-B-R.txt");
        assert_metrics(
            &p,
            15387.0,
            16398.0,
            67168047.0,
            [35412e-9, 60981e-9, 4136616e-9, 151658e-9],
        );
        assert_eq!(p.test_id.as_deref(), Some("ioping-seek"));
        assert_eq!(param(&p, "flags"), Some(Value::from("R")));
    }

    #[test]
    fn batch_0_9_eight_fields_in_microseconds() {
        let p = one("ioping09-batch.txt");
        assert_metrics(
            &p,
            10.0,
            3229.0,
            13225443.0,
            [210e-6, 310e-6, 520e-6, 58e-6],
        );
        assert_eq!(param(&p, "requests_time"), Some(Value::from(3097.0 / 1e6)));
        assert_eq!(param(&p, "requests_total"), None);
        assert_eq!(param(&p, "interval"), Some(Value::from(0.0)));
        assert_eq!(p.test_id.as_deref(), Some("ioping-latency"));
    }

    #[test]
    fn json_per_request_and_stat() {
        let p = one("ioping13-J.json");
        assert_metrics(
            &p,
            2.0,
            7241.313140,
            29660419.0,
            [128375e-9, 138096e-9, 147818e-9, 9722e-9],
        );
        assert_eq!(param(&p, "operation"), Some(Value::from("read")));
        assert_eq!(param(&p, "size"), Some(Value::from(4096)));
        assert_eq!(
            param(&p, "requests_time"),
            Some(Value::from(276193.0 / 1e9))
        );
        let with_cmd = one("ioping13-J-cmd.json");
        assert_eq!(with_cmd.metrics, p.metrics);
        assert_eq!(with_cmd.test_id.as_deref(), Some("ioping-latency"));
        assert_eq!(param(&with_cmd, "count"), Some(Value::from(3)));
    }

    #[test]
    fn json_rapid_has_only_the_stat_object() {
        let p = one("ioping13-J-R.json");
        assert_metrics(
            &p,
            3129.0,
            11039.517249,
            45217863.0,
            [32348e-9, 90584e-9, 495103e-9, 29478e-9],
        );
        assert_eq!(param(&p, "operation"), None);
    }

    #[test]
    fn several_runs_in_one_log() {
        let all = parse(&fixture("ioping-multi.txt")).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].test_id.as_deref(), Some("ioping-seq"));
        assert_eq!(value(&all[0], "bw"), Some(113246208.0));
        assert_eq!(all[1].test_id.as_deref(), Some("ioping-seek"));
        assert_eq!(value(&all[1], "iops"), Some(16398.0));
    }

    #[test]
    fn zero_requests_give_only_the_count() {
        let text = "0 requests completed in 0 us, 0 B read, 0 iops, 0 B/s\nmin/avg/max/mdev = 0 us / 0 us / 0 us / 0 us\n";
        let p = parse(text).unwrap().remove(0);
        assert_eq!(value(&p, "requests"), Some(0.0));
        assert_eq!(p.metrics.len(), 1);
        let p = parse("0 0 0 0 0 0 0 0 1 1000\n").unwrap().remove(0);
        assert_eq!(p.metrics.len(), 1);
    }

    #[test]
    fn errors_name_what_was_expected() {
        let e = parse("hello world\n").unwrap_err().to_string();
        assert!(e.contains("requests completed in"), "{e}");
        let e = parse("4 requests completed in 4.14 ms, 16 KiB read, 3.78 MiB/s\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot read ioping summary"), "{e}");
        let e = parse(
            "1 requests completed in 1 ms, 1 iops, 4 KiB/s\nmin/avg/max/mdev = 1 us / 2 us\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("latency line"), "{e}");
        assert!(parse("[1, 2]").is_err());
        assert!(parse("[{\"stat\": {\"count\": \"x\"}}]").is_err());
    }

    #[test]
    fn looks_like_ioping_only() {
        for name in [
            "ioping13-c5.txt",
            "ioping13-B.txt",
            "ioping13-B-R.txt",
            "ioping13-J.json",
            "ioping13-J-R.json",
            "ioping09-text.txt",
            "ioping09-batch.txt",
        ] {
            assert!(looks_like(&fixture(name)), "{name}");
        }
        assert!(!looks_like(FIO_TEXT));
        assert!(!looks_like(FIO_JSON));
        assert!(!looks_like(BONNIE_CSV));
        assert!(!looks_like(DD_TEXT));
    }

    #[test]
    fn ids_from_flags() {
        assert_eq!(test_id(""), "ioping-latency");
        assert_eq!(test_id("qB"), "ioping-latency");
        assert_eq!(test_id("R"), "ioping-seek");
        assert_eq!(test_id("RL"), "ioping-seq");
        assert_eq!(test_id("LR"), "ioping-seq");
        assert_eq!(test_id("RLC"), "ioping-seq-cached");
        assert_eq!(test_id("CRLJ"), "ioping-seq-cached");
        assert_eq!(test_id("D"), "ioping-D");
        assert_eq!(test_id("DRL"), "ioping-RLD");
        assert_eq!(test_id("WWW"), "ioping-W");
        assert_eq!(test_id("Yy"), "ioping-Yy");
    }

    #[test]
    fn command_lines_in_their_forms() {
        let ids = [
            ("$ ioping -c 10 /mnt", "ioping-latency"),
            ("ioping -R /mnt", "ioping-seek"),
            ("# ioping -RL /mnt", "ioping-seq"),
            ("ioping -R -L /mnt", "ioping-seq"),
            ("sudo ioping -RLC -w 3 /mnt", "ioping-seq-cached"),
            ("ioping -rapid -linear /mnt", "ioping-seq"),
            ("ioping --rapid /mnt", "ioping-seek"),
            ("ioping -c10 -D /mnt", "ioping-D"),
            ("ioping -Rc 5 /mnt", "ioping-seek"),
            ("/usr/bin/ioping /mnt", "ioping-latency"),
        ];
        for (line, id) in ids {
            let inv = command_line(line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(test_id(&inv.flags), id, "{line}");
        }
        let inv = command_line("ioping -c 1k -s 1M -S 64m -i 10ms -w 2min -Rc5 .").unwrap();
        let mut p = Parsed::default();
        apply_command(&mut p, &inv);
        assert_eq!(param(&p, "count"), Some(Value::from(5)));
        assert_eq!(param(&p, "size"), Some(Value::from(1048576)));
        assert_eq!(param(&p, "work_size"), Some(Value::from(67108864)));
        assert_eq!(param(&p, "interval"), Some(Value::from(0.01)));
        assert_eq!(param(&p, "work_time"), Some(Value::from(120.0)));
        assert_eq!(param(&p, "target"), Some(Value::from(".")));
        let inv = command_line("ioping -count 1k -size 2sector /dev/sda").unwrap();
        let mut p = Parsed::default();
        apply_command(&mut p, &inv);
        assert_eq!(param(&p, "count"), Some(Value::from(1000)));
        assert_eq!(param(&p, "size"), Some(Value::from(1024)));
        assert_eq!(
            command_line("--- /tmp (ext4 /dev/vda 252.0 GiB) ioping statistics ---"),
            None
        );
        assert_eq!(command_line("ioping 1.3"), None);
    }

    #[test]
    fn version_from_ioping_v() {
        let text = format!("$ ioping -v\nioping 1.3\n{}", fixture("ioping13-RL.txt"));
        let p = parse(&text).unwrap().remove(0);
        assert_eq!(p.tool_version.as_deref(), Some("1.3"));
        assert_eq!(p.test_id.as_deref(), Some("ioping-seq"));
    }

    const FIO_TEXT: &str = "randread: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=64\nfio-3.33\nStarting 1 process\n\nrandread: (groupid=0, jobs=1): err= 0: pid=1: Mon Nov 30 00:00:00 2026\n  read: IOPS=26.2k, BW=102MiB/s (107MB/s)(512MiB/5001msec)\n    clat (usec): min=38, max=2600, avg=68.87, stdev=35.60\n\nRun status group 0 (all jobs):\n   READ: bw=102MiB/s (107MB/s), 102MiB/s-102MiB/s (107MB/s-107MB/s), io=512MiB (537MB), run=5001-5001msec\n";
    const FIO_JSON: &str = "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [ { \"jobname\" : \"randread\", \"read\" : { \"io_bytes\" : 536870912, \"bw\" : 104857, \"iops\" : 26214.4, \"clat_ns\" : { \"mean\" : 68870.0, \"stddev\" : 35600.0 } } } ]\n}\n";
    // bonnie++ 2.00a `-s 0 -n 1 -q`, captured on the development machine
    const BONNIE_CSV: &str = "1.98,2.00a,vm,1,1795985127,,,,,,,,,,,,,,,,,1,,,,,1353,35,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,,,,,,5038us,59us,4055us,8230us,13us,4055us\n";
    const DD_TEXT: &str = "$ dd if=/dev/zero of=test bs=8k count=16k oflag=dsync\n16384+0 records in\n16384+0 records out\n134217728 bytes (134 MB, 128 MiB) copied, 0.346904 s, 387 MB/s\n";

    #[test]
    fn read_command_gives_id_parameters_and_command() {
        let p = read_command("$ ioping -c 10 -s 64k -RL /mnt").unwrap();
        assert_eq!(p.test_id.as_deref(), Some("ioping-seq"));
        assert_eq!(p.command.as_deref(), Some("ioping -c 10 -s 64k -RL /mnt"));
        let expected: BTreeMap<String, Value> = [
            ("count", Value::from(10)),
            ("flags", Value::from("RL")),
            ("size", Value::from(65536)),
            ("target", Value::from("/mnt")),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(p.parameters, expected);
        assert!(p.metrics.is_empty());
        let id = |line: &str| read_command(line).unwrap().test_id.unwrap();
        assert_eq!(id("ioping -c 5"), "ioping-latency");
        assert_eq!(id("ioping -R"), "ioping-seek");
        assert_eq!(id("ioping -RLC"), "ioping-seq-cached");
        assert_eq!(id("ioping -W -c 3 ."), "ioping-W");
    }

    #[test]
    fn read_command_refuses_a_line_without_options() {
        let e = read_command("ioping").unwrap_err().to_string();
        assert!(e.contains("expected an ioping command line"), "{e}");
        assert!(read_command("cat ioping.log").is_err());
    }
}
